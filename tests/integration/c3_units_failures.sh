#!/bin/sh
# C3's collectives carried as one unit per call (c3-collectives, sections 4
# and 5; sim/runtime/piggyback/pb_coll.c), under failures: coll_loop_check
# (tests/runtime/coll_loop_check.c: every data-flow class in a loop, rank 0
# an iteration ahead so that calls straddle the recovery line) with one
# failure per run, from FIRST to LAST seconds by STEP, the victim turning
# over the ranks, traced. Every run must end verified, and `ftsim check`
# must pass its trace; over the runs, the trace's `coll` lines
# (docs/traces.md) must show every kind of call logged (barrier, bcast,
# scatter, gather, reduce, allreduce, allgather, alltoall) and each of the
# recovery's three actions at least once: a logged result replayed
# (Figures 5-7), a call a root's suppress list holds suppressed (Figure 6)
# and a call re-executed with dummy buffers (Figure 7's reexecList).
#
# Usage: c3_units_failures.sh RUN_SMPI FTSIM PLATFORM PROGRAM OPTIONS
#                             FIRST LAST STEP [CALLS [HOWS]]
# OPTIONS: the runtime's, protocol=c3 and period=... among them. CALLS:
# the calls that must be seen logged (enum ft_coll_kind, sim/runtime/
# driver.h; default all eight, "1 2 3 4 5 6 7 8"). HOWS: other HOWs that
# must be seen (`combined`: units in the combined form), each as HOW (by
# any call) or HOW@CALL (by that call: `combined@3`, a scatter in the
# combined form; `reexec@3`, a scatter re-executed).
set -u
run_smpi=$1 ftsim=$2 platform=$3 program=$4 options=$5 first=$6 last=$7 step=$8
calls=${9:-1 2 3 4 5 6 7 8}
hows=${10:-}
name=$(basename "$program")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
times=$(awk -v a="$first" -v b="$last" -v s="$step" \
  'BEGIN { for (t = a; t <= b + s / 2; t += s) printf "%.6f\n", t }')
runs=0 failed=0 victim=1
: >"$tmp/colls"
for t in $times; do
  printf 'detection 0.0001\nrestart 0.0005\nfail %d at %s\n' "$victim" "$t" \
    >"$tmp/scenario.txt"
  victim=$((victim % 3 + 1))
  runs=$((runs + 1))
  rm -f "$tmp"/trace.*
  if ! FTSIM_OPTIONS="$options,scenario=$tmp/scenario.txt,trace=$tmp/trace" \
    sh "$run_smpi" "$platform" 4 1 "$name: [0-9]+ iterations, every [a-z]+ checked" \
    "$program" >"$tmp/out" 2>&1; then
    failed=$((failed + 1))
    echo "c3_units_failures: failure at $t: FAILED"
    cat "$tmp/scenario.txt" "$tmp/out"
    continue
  fi
  if ! "$ftsim" check "$tmp/trace" >"$tmp/check" 2>&1; then
    failed=$((failed + 1))
    echo "c3_units_failures: failure at $t: ftsim check failed"
    cat "$tmp/scenario.txt" "$tmp/check"
    continue
  fi
  cat "$tmp"/trace.* | awk '$4 == "coll" { print $6, $8 }' >>"$tmp/colls"
done
echo "c3_units_failures: $runs runs, $failed failed; coll lines (call how):"
sort "$tmp/colls" | uniq -c
missing=
for call in $calls; do
  grep -q "^$call log$" "$tmp/colls" || missing="$missing log-of-call-$call"
done
for how in replay suppress reexec $hows; do
  case $how in
  *@*) pattern="^${how#*@} ${how%@*}$" ;;
  *) pattern=" $how$" ;;
  esac
  grep -q "$pattern" "$tmp/colls" || missing="$missing $how"
done
[ -z "$missing" ] || echo "c3_units_failures: never seen:$missing"
[ "$failed" -eq 0 ] && [ -z "$missing" ]
