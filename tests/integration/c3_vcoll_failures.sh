#!/bin/sh
# C3's v forms, alltoallw, scan, exscan and reduce_scatter(_block) carried
# as one unit per call (sim/runtime/coll.c, piggyback/pb_coll.c), checked
# against `none`: vcoll_loop_check (tests/runtime/vcoll_loop_check.c: a
# non-contiguous type, v-counts varying by rank and iteration, every long
# of every result checked, a checksum of them printed).
#  1. Under `none`, then failure-free under OPTIONS with a checkpoint
#     period of each of PERIODS: verified, the same checksum, `ftsim check`
#     ok, and over them every call of CALLS logged at least once (the
#     calls straddle the recovery line; which iterations do depends on
#     when the initiator's period falls, so several periods).
#  2. That trace with one `log` record of an all-to-all call planted as
#     `run` (a straddling call's result not logged), then one with a
#     call's kind changed: `ftsim check` refuses each, naming the file, the
#     line and the field (how, call).
#  3. One failure per run from FIRST to LAST seconds by STEP (period
#     0.003 s: most epochs straddle), the victim
#     turning over ranks 1-3: every run verified with the checksum of
#     `none` and its trace passing `ftsim check`; over the runs, a logged
#     result replayed, a gatherv suppressed by its root's list and a
#     scatterv re-executed with dummy buffers (the `coll` records).
#
# Usage: c3_vcoll_failures.sh RUN_SMPI FTSIM PLATFORM PROGRAM OPTIONS
#                             FIRST LAST STEP [CALLS [HOWS]]
# OPTIONS: the runtime's, protocol=c3 among them, no period. CALLS: enum
# ft_coll_kind (sim/runtime/driver.h), default 9 to 17. HOWS: records that
# must be seen in step 3 too, each HOW@CALL (`combined@10`: a scatterv in
# the combined form).
set -u
run_smpi=$1 ftsim=$2 platform=$3 program=$4 options=$5 first=$6 last=$7 step=$8
calls=${9:-9 10 11 12 13 14 15 16 17}
hows=${10:-}
name=$(basename "$program")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "c3_vcoll_failures: $*"; exit 1; }

# run OPTIONS: runs the program into $tmp/out, its trace at $tmp/trace.*;
# prints its checksum.
run() {
  rm -f "$tmp"/trace.*
  FTSIM_OPTIONS="$1,trace=$tmp/trace" sh "$run_smpi" "$platform" 4 1 \
    "$name: [0-9]+ iterations, every collective checked, checksum" \
    "$program" >"$tmp/out" 2>&1 || return 1
  sed -n "s/^$name: .*checksum \([0-9a-f]*\)$/\1/p" "$tmp/out"
}

want=$(run protocol=none) || { cat "$tmp/out"; fail "protocol=none failed"; }
[ -n "$want" ] || fail "no checksum under none"
periods="0.003 0.009"
: >"$tmp/colls"
most=-1
for p in $periods; do
  got=$(run "$options,period=$p") || { cat "$tmp/out"; fail "$options,period=$p failed"; }
  [ "$got" = "$want" ] || fail "checksum $got under $options,period=$p, $want under none"
  "$ftsim" check "$tmp/trace" >"$tmp/check" 2>&1 ||
    { cat "$tmp/check"; fail "ftsim check failed, failure-free, period $p"; }
  cat "$tmp"/trace.* | awk '$4 == "coll" { print $6, $8 }' >>"$tmp/colls"
  logs=$(cat "$tmp"/trace.* | awk '$4 == "coll" && $6 >= 11 && $8 == "log"' | wc -l)
  if [ "$logs" -gt "$most" ]; then # the trace to plant faults in
    most=$logs
    rm -rf "$tmp/kept" && mkdir "$tmp/kept" && cp "$tmp"/trace.* "$tmp/kept/"
  fi
done
for call in $calls; do
  grep -q "^$call log$" "$tmp/colls" || fail "call $call never logged"
done
rm -f "$tmp"/trace.* && cp "$tmp"/kept/trace.* "$tmp/"

# 2. Planted faults: rank 0's first log of an all-to-all call (11 to 17)
# as run; rank 1's first record of call #1 as another call.
plant() { # FILE AWK-PROGRAM WANT
  cp "$1" "$tmp/saved"
  awk "$2" "$tmp/saved" >"$1"
  if "$ftsim" check "$tmp/trace" >"$tmp/check" 2>&1; then
    cat "$tmp/check"
    fail "a planted '$3' passed ftsim check"
  fi
  grep -q "$1:[0-9]*: field $3:" "$tmp/check" ||
    { cat "$tmp/check"; fail "ftsim check did not name the file, line and field $3"; }
  cp "$tmp/saved" "$1"
}
plant "$tmp/trace.0" \
  '!done && $4 == "coll" && $6 >= 11 && $8 == "log" { $8 = "run"; done = 1 } 1' how
plant "$tmp/trace.1" \
  '!done && $4 == "coll" && $9 == 1 { $6 = ($6 == 14 ? 15 : 14); done = 1 } 1' call

# 3. Failures.
times=$(awk -v a="$first" -v b="$last" -v s="$step" \
  'BEGIN { for (t = a; t <= b + s / 2; t += s) printf "%.6f\n", t }')
runs=0 failed=0 victim=1
: >"$tmp/colls"
for t in $times; do
  printf 'detection 0.0001\nrestart 0.0005\nfail %d at %s\n' "$victim" "$t" \
    >"$tmp/scenario.txt"
  victim=$((victim % 3 + 1))
  runs=$((runs + 1))
  got=$(run "$options,period=0.003,scenario=$tmp/scenario.txt") && [ "$got" = "$want" ] ||
    {
      failed=$((failed + 1))
      echo "c3_vcoll_failures: failure at $t: FAILED (checksum '$got')"
      cat "$tmp/scenario.txt" "$tmp/out"
      continue
    }
  if ! "$ftsim" check "$tmp/trace" >"$tmp/check" 2>&1; then
    failed=$((failed + 1))
    echo "c3_vcoll_failures: failure at $t: ftsim check failed"
    cat "$tmp/scenario.txt" "$tmp/check"
    continue
  fi
  cat "$tmp"/trace.* | awk '$4 == "coll" { print $6, $8 }' >>"$tmp/colls"
done
echo "c3_vcoll_failures: $runs runs, $failed failed; coll lines (call how):"
sort "$tmp/colls" | uniq -c
missing=
grep -q " replay$" "$tmp/colls" || missing="$missing replay"
grep -q "^9 suppress$" "$tmp/colls" || missing="$missing suppress-of-gatherv"
grep -q "^10 reexec$" "$tmp/colls" || missing="$missing reexec-of-scatterv"
for how in $hows; do
  grep -q "^${how#*@} ${how%@*}$" "$tmp/colls" || missing="$missing $how"
done
[ -z "$missing" ] || echo "c3_vcoll_failures: never seen:$missing"
[ "$failed" -eq 0 ] && [ -z "$missing" ]
