#!/bin/sh
# vcl's markers and CUTs ring a bell only when they make a rank act (issue
# 18, item 2): at safe points they are quiet (protocols/vcl/vcl.c,
# push_quiet), and a rank blocked in the application's MPI calls is woken
# once as many are due as its core needs (vcl_wake_after: the notice, the
# last proposal, the last CUT), not for each of the 2(p - 1) of a wave.
# ring on 16 ranks of grid5000, period 2 ms (14 waves, 7,200 markers and
# CUTs taken by the application ranks, 241 other control messages): before,
# 2,502 bells (a rank of ring waits in MPI nearly all the time); now 1,073,
# under the bound below of 5 a rank and a wave beyond the other messages
# (each of those may ring one). The run's summary stays verified, with 14
# waves committed.
# Usage: vcl_quiet.sh FTSIM
set -u
# SMPI's 100 us per MPI_Test and MPI_Iprobe, under which this test's
# times were chosen (tests/CMakeLists.txt, FTSIM_POLL_100US).
poll100="--cfg smpi/test:1e-4 --cfg smpi/iprobe:1e-4"
ftsim=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
FTSIM_TRACE_CONTROL=1 "$ftsim" run $poll100 --platform grid5000 --app ring --np 16 \
  --protocol vcl --set period=0.002 >"$tmp/out" 2>"$tmp/trace" ||
  { echo "vcl_quiet.sh: the run failed:"; cat "$tmp/out" "$tmp/trace"
    exit 1; } >&2
grep -q '"verified":true' "$tmp/out" && grep -q '"waves":14,' "$tmp/out" ||
  { echo "vcl_quiet.sh: not verified with 14 waves:" >&2
    cat "$tmp/out" >&2; exit 1; }
# Lines "[t] R < S: kind K ...": what application rank R (< 16) took.
awk '$3 == "<" && $2 < 16 {
       if ($6 == "BELL") bells++
       else if ($6 == "marker" || $6 == "cut") quiet++
       else other++
     }
     END {
       printf "vcl_quiet.sh: %d bells, %d markers and CUTs, %d other messages\n",
         bells, quiet, other
       if (quiet < 2 * 14 * 16 * 15) {
         print "vcl_quiet.sh: fewer markers and CUTs than 14 waves make"
         exit 1
       }
       if (bells > 5 * 16 * 14 + other) {
         print "vcl_quiet.sh: more than 5 bells a rank and a wave: markers and CUTs rang"
         exit 1
       }
     }' "$tmp/trace"
