#!/bin/sh
# Bookmark's on-line drain (sim/runtime/drain/drain.c) under a failure at
# one of its worst moments, found in a failure-free run's trace of
# drain_check (tests/runtime/drain_check.c: messages in flight across every
# safe point), so that the moment stays right when simulated times move:
#   drain   rank 1 fails while it drains wave 3 (between its last bookmark
#           and its checkpoint): rollback to wave 2;
#   ckpt    rank 1 fails just after its checkpoint of wave 3, before the
#           commit: rollback to wave 2;
#   commit  rank 1 fails just after wave 3 is committed: rollback to wave
#           3, whose images hold drained messages (restored and served from
#           the drain buffer);
#   next    rank 2 fails during wave 4's bookmark exchange: rollback to
#           wave 3.
# Each run must verify (every value checked, none lost or twice), roll back
# to the wave named above, drain (drained_msgs > 0), and pass `ftsim check`
# (undrained among its rules). MODE pcl: the program under pcl (below).
# Usage: drain_failures.sh FTSIM RUN_SMPI PLATFORM DRAIN_CHECK MODE
set -u
ftsim=$1 run_smpi=$2 platform=$3 program=$4 mode=$5
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
opts=protocol=bookmark,period=0.005
run() { # run SCENARIO TRACE: a traced run of 40 iterations on 4 ranks
  FTSIM_OPTIONS="$opts${1:+,scenario=$1},trace=$2" \
    sh "$run_smpi" "$platform" 4 1 '"drained_msgs":[1-9]' "$program" 40 \
    > "$tmp/out" 2>&1
  rc=$?
  cat "$tmp/out"
  [ $rc -eq 0 ] || { echo "drain_failures.sh: the run failed"; exit 1; }
  "$ftsim" check "$2" || { echo "drain_failures.sh: ftsim check failed"; exit 1; }
}
if [ "$mode" = pcl ]; then
  # The same program under pcl, which keeps the strict contract of
  # sim/ft.h: it runs to the right result without a failure, but its
  # committed waves are no recovery line (the message in flight is in no
  # image: a rollback to it loses the message, and the receiver waits
  # for it forever); `ftsim check` says so.
  FTSIM_OPTIONS=protocol=pcl,period=0.005,trace=$tmp/pcl \
    sh "$run_smpi" "$platform" 4 1 '"protocol":"pcl"' "$program" 40 ||
    { echo "drain_failures.sh: the pcl run failed"; exit 1; }
  "$ftsim" check "$tmp/pcl" > "$tmp/check" 2>&1
  cat "$tmp/check"
  grep -q 'violation (channel-state).*is in transit' "$tmp/check" ||
    { echo "drain_failures.sh: pcl's waves were not found wanting"; exit 1; }
  exit 0
fi
run "" "$tmp/free"
# The moment, from the failure-free trace (fields: time rank inc kind ...).
case $mode in
drain)
  rank=1 restored=2
  at=$(awk '$4 == "ctl-recv" && $5 == "bookmark" && $7 == 3 { last = $1 }
            $4 == "ckpt" && $5 == 3 { printf "%.9f", (last + $1) / 2; exit }' \
        "$tmp/free.1")
  ;;
ckpt)
  rank=1 restored=2
  at=$(awk '$4 == "ckpt" && $5 == 3 { printf "%.9f", $1 + 1e-6; exit }' \
        "$tmp/free.1")
  ;;
commit)
  rank=1 restored=3
  at=$(awk '$4 == "commit" && $5 == 3 { printf "%.9f", $1 + 1e-6; exit }' \
        "$tmp/free.4")
  ;;
next)
  rank=2 restored=3
  at=$(awk '$4 == "ctl-send" && $5 == "bookmark" && $7 == 4 {
              printf "%.9f", $1 + 1e-7; exit }' "$tmp/free.2")
  ;;
*)
  echo "drain_failures.sh: MODE must be drain, ckpt, commit, next or pcl"
  exit 2
  ;;
esac
[ -n "$at" ] || { echo "drain_failures.sh: no such moment in the trace"; exit 1; }
# The drain itself took time on rank 1 at wave 3 (not an empty drain).
if [ "$mode" = drain ]; then
  awk '$4 == "ctl-recv" && $5 == "bookmark" && $7 == 3 { last = $1 }
       $4 == "ckpt" && $5 == 3 { exit !($1 > last) }' "$tmp/free.1" ||
    { echo "drain_failures.sh: rank 1 did not wait for the wire at wave 3"; exit 1; }
fi
printf 'detection 0.001\nrestart 0.002\nfail %s at %s\n' "$rank" "$at" \
  > "$tmp/scenario"
echo "drain_failures.sh: $mode: fail $rank at $at"
run "$tmp/scenario" "$tmp/failed"
grep -q '"rollbacks":1,' "$tmp/out" ||
  { echo "drain_failures.sh: no rollback"; exit 1; }
grep -q " restore $restored " "$tmp/failed.0" ||
  { echo "drain_failures.sh: not restored to wave $restored"; exit 1; }
echo "drain_failures.sh: $mode ok"
