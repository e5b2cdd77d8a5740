#!/bin/sh
# Why a run with hundreds of rollbacks is slow: SimGrid 3.32 keeps every
# communication an actor completed with MPI_Test in that actor's list of
# activities, and scans the list at every completion by a wait
# (bench/test_leak.c says where). ftsim's workloads test (cg's MPI_Testsome,
# bt's MPI_Testany, ring's MPI_Test), and a rollback re-executes them, so the
# list grows with the rollbacks and the wall time with their square. This
# plain SMPI program (no ftsim) shows it side by side in one run: 20,000
# waited ping-pongs after N ping-pongs completed by MPI_Wait, then by
# MPI_Test, and the ratio. A benchmark, not a test.
#
# Usage: bench/test_leak.sh [N...]   (default: 5000 10000 20000)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/test_leak" "$top/bench/test_leak.c" 2>/dev/null
platform=$top/platforms/gige.xml
[ $# -gt 0 ] || set -- 5000 10000 20000
wall() { # N MODE: wall seconds of one run
  s=$(date +%s.%N)
  smpirun -np 2 -platform "$platform" "$tmp/test_leak" "$1" "$2" \
    --log=root.thres:critical >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$s $e" | awk '{printf "%.2f", $2 - $1}'
}
printf '%8s %12s %12s %8s\n' N "wait (s)" "test (s)" ratio
for n in "$@"; do
  w=$(wall "$n" 0) t=$(wall "$n" 1)
  echo "$n $w $t" | awk '{printf "%8d %12.2f %12.2f %8.1f\n", $1, $2, $3, $3 / $2}'
done
