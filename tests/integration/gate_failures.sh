#!/bin/sh
# Failures aimed at the communicator creations of gate_check
# (tests/runtime/gate_check.c), or at the calls of calls_check
# (tests/runtime/calls_check.c), or at the wildcard receives of
# wildcard_check (tests/runtime/wildcard_check.c): one run per failure time, from FIRST to LAST
# seconds by STEP, the victim turning over the ranks, so that failures land
# just before, during and just after each MPI_Comm_split, _dup, _create,
# MPI_Cart_create, collective and MPI_Finalize. Every run must end verified
# (no deadlock, tests/run_smpi.sh), and at least 80% must really see their
# failure (the others fall after the end of the run).
#
# Usage: gate_failures.sh RUN_SMPI PLATFORM PROGRAM PROTOCOL PERIOD FIRST
#                         LAST STEP
# PROGRAM prints "NAME: N iterations, every ... checked" when all is right.
# A failing run prints its scenario and its output.
set -u
run_smpi=$1 platform=$2 program=$3 protocol=$4 period=$5 first=$6 last=$7 step=$8
name=$(basename "$program")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
times=$(awk -v a="$first" -v b="$last" -v s="$step" \
  'BEGIN { for (t = a; t <= b + s / 2; t += s) printf "%.6f\n", t }')
runs=0 failed=0 saw=0 victim=0
for t in $times; do
  printf 'detection 0.0001\nrestart 0.0005\nfail %d at %s\n' "$victim" "$t" \
    >"$tmp/scenario.txt"
  victim=$(((victim + 1) % 4))
  runs=$((runs + 1))
  if ! FTSIM_OPTIONS="protocol=$protocol,period=$period,scenario=$tmp/scenario.txt" \
    sh $run_smpi "$platform" 4 1 "$name: [0-9]+ iterations, every [a-z]+ checked" \
    "$program" >"$tmp/out" 2>&1; then
    failed=$((failed + 1))
    echo "gate_failures: $protocol, failure at $t: FAILED"
    cat "$tmp/scenario.txt" "$tmp/out"
    continue
  fi
  grep -q '^FTSIM_SUMMARY .*"failures":[1-9]' "$tmp/out" && saw=$((saw + 1))
done
echo "gate_failures: $protocol: $runs runs, $failed failed, $saw saw a failure"
[ "$failed" -eq 0 ] && [ $((saw * 5)) -ge $((runs * 4)) ]
