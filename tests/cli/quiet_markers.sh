#!/bin/sh
# pcl's markers ring no bell (issue 18, item 2): a marker of a wave at safe
# points is quiet (protocols/pcl/pcl.c, quiet_since), so a rank blocked in
# the application's MPI calls is not woken for it; it takes it at K, held,
# or with its next other control message. ring on 8 ranks of grid5000,
# period 2 ms (12 waves, 672 markers taken by the application ranks):
# before, each marker that fell due while its receiver waited in MPI rang
# a bell (an MPI message of the rank to itself), 523 bells for 477 other
# control messages taken; now 390, fewer than the other messages (each
# bell is rung for one of them; a bell may find nothing left to take). The
# run's summary stays verified, with 12 waves committed (13 before issue 19, when rank 0 held at its safe point while the wave was placed).
# Usage: quiet_markers.sh FTSIM
set -u
# SMPI's 100 us per MPI_Test and MPI_Iprobe, under which this test's
# times were chosen (tests/CMakeLists.txt, FTSIM_POLL_100US).
poll100="--cfg smpi/test:1e-4 --cfg smpi/iprobe:1e-4"
ftsim=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
FTSIM_TRACE_CONTROL=1 "$ftsim" run $poll100 --platform grid5000 --app ring --np 8 \
  --protocol pcl --set period=0.002 >"$tmp/out" 2>"$tmp/trace" ||
  { echo "quiet_markers.sh: the run failed:"; cat "$tmp/out" "$tmp/trace"
    exit 1; } >&2
grep -q '"verified":true' "$tmp/out" && grep -q '"waves":12,' "$tmp/out" ||
  { echo "quiet_markers.sh: not verified with 12 waves:" >&2
    cat "$tmp/out" >&2; exit 1; }
# Lines "[t] R < S: kind K ...": what application rank R (< 8) took.
awk '$3 == "<" && $2 < 8 {
       if ($6 == "BELL") bells++
       else if ($6 == "marker") markers++
       else other++
     }
     END {
       printf "quiet_markers.sh: %d bells, %d markers, %d other messages\n",
         bells, markers, other
       if (markers != 672) { print "quiet_markers.sh: expected 672 markers"; exit 1 }
       if (bells > other) { print "quiet_markers.sh: more bells than loud messages: markers rang"; exit 1 }
     }' "$tmp/trace"
