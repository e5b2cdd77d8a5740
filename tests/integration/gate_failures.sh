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
# With MUST, what the runs are there for must happen in them (c3: late
# messages logged and sent again after a rollback, early ones suppressed,
# a straddling collective's result logged and replayed...), so that a
# change of period or timing that leaves nothing across the recovery line
# fails the test instead of passing it vacuously. Each word of MUST, summed
# over the runs, must be above 0: a summary field (`channel_msgs`,
# `replayed_msgs`, `events_logged`...), `trace:KIND` (the trace records of
# KIND, docs/traces.md: `trace:suppress`, `trace:resend`), or `coll:HOW`
# (the `coll` records of HOW: `coll:log`, `coll:replay`); a `trace:` or
# `coll:` word has every run traced. The sums are printed in any case.
# ARGS: the program's arguments.
#
# Usage: gate_failures.sh RUN_SMPI PLATFORM PROGRAM PROTOCOL PERIOD FIRST
#                         LAST STEP [MUST [ARGS]]
# PROGRAM prints "NAME: N iterations, every ... checked" when all is right.
# A failing run prints its scenario and its output.
set -u
run_smpi=$1 platform=$2 program=$3 protocol=$4 period=$5 first=$6 last=$7 step=$8
must=${9:-} args=${10:-}
fields="channel_msgs replayed_msgs events_logged"
traced=
for w in $must; do
  case $w in
  trace:* | coll:*) traced=1 ;;
  *) fields="$fields $w" ;;
  esac
done
name=$(basename "$program")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
times=$(awk -v a="$first" -v b="$last" -v s="$step" \
  'BEGIN { for (t = a; t <= b + s / 2; t += s) printf "%.6f\n", t }')
runs=0 failed=0 saw=0 victim=0
: >"$tmp/summaries"
: >"$tmp/records"
for t in $times; do
  printf 'detection 0.0001\nrestart 0.0005\nfail %d at %s\n' "$victim" "$t" \
    >"$tmp/scenario.txt"
  victim=$(((victim + 1) % 4))
  runs=$((runs + 1))
  opts="protocol=$protocol,period=$period,scenario=$tmp/scenario.txt"
  [ -n "$traced" ] && opts="$opts,trace=$tmp/trace" && rm -f "$tmp"/trace.*
  # shellcheck disable=SC2086 # ARGS: words
  if ! FTSIM_OPTIONS=$opts \
    sh $run_smpi "$platform" 4 1 "$name: [0-9]+ iterations, every [a-z]+ checked" \
    "$program" $args >"$tmp/out" 2>&1; then
    failed=$((failed + 1))
    echo "gate_failures: $protocol, failure at $t: FAILED"
    cat "$tmp/scenario.txt" "$tmp/out"
    continue
  fi
  grep -q '^FTSIM_SUMMARY .*"failures":[1-9]' "$tmp/out" && saw=$((saw + 1))
  grep '^FTSIM_SUMMARY ' "$tmp/out" >>"$tmp/summaries"
  [ -n "$traced" ] && cat "$tmp"/trace.* | awk '$4 == "coll" { print "coll:" $8; next }
    { print "trace:" $4 }' >>"$tmp/records"
done
echo "gate_failures: $protocol: $runs runs, $failed failed, $saw saw a failure"
# sum WORD: a summary field summed over the runs' summaries, or the
# records of a trace:KIND or coll:HOW word.
sum() {
  case $1 in
  trace:* | coll:*) grep -cx "$1" "$tmp/records" 2>/dev/null || true ;;
  *) sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$tmp/summaries" 2>/dev/null |
    awk '{ s += $1 } END { print s + 0 }' ;;
  esac
}
sums= missing=
for w in $fields $must; do
  case " $sums " in *" $w="*) continue ;; esac
  sums="$sums $w=$(sum "$w")"
done
for w in $must; do
  [ "$(sum "$w")" -gt 0 ] || missing="$missing $w"
done
echo "gate_failures: summed over the runs:$sums"
[ -z "$missing" ] || echo "gate_failures: never above 0:$missing"
[ "$failed" -eq 0 ] && [ $((saw * 5)) -ge $((runs * 4)) ] && [ -z "$missing" ]
