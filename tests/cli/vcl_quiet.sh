#!/bin/sh
# vcl's markers and CUTs ring a bell only when they make a rank act (issue
# 18, item 2): at safe points they are quiet (protocols/vcl/vcl.c,
# push_quiet), and a rank blocked in the application's MPI calls is woken
# once as many are due as its core needs (vcl_wake_after: the notice, the
# last proposal, the last CUT), not for each of the 2(p - 1) of a wave.
# ring on 16 ranks of grid5000, period 2 ms (14 waves, 7,200 markers and
# CUTs taken by the application ranks, 241 other control messages), at the
# platform's own cost per MPI_Test and MPI_Iprobe: 1,743 bells, 0.21 per
# marker or CUT beyond one per other message (each of those may ring one);
# with markers and CUTs loud (push_quiet setting no flag), 4,891, 0.65
# beyond. The bound is 0.3. (Until issue 19 this test ran under SMPI's 100
# us per MPI_Test, where a rank of ring spent less of its time blocked in
# MPI: 1,073 bells, 2,502 before the quiet messages.) The run's summary
# stays verified, with 14 waves committed.
# Usage: vcl_quiet.sh FTSIM
set -u
ftsim=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
FTSIM_TRACE_CONTROL=1 "$ftsim" run --platform grid5000 --app ring --np 16 \
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
       if (bells > other + 0.3 * quiet) {
         print "vcl_quiet.sh: more than 0.3 bells a marker or CUT beyond the loud messages: markers and CUTs rang"
         exit 1
       }
     }' "$tmp/trace"
