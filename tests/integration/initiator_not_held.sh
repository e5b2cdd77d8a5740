#!/bin/sh
# The wave's initiator (rank 0) is never held at its safe point before K is
# known (issue 19; protocols/pcl/pcl.c and protocols/bookmark/bookmark.c,
# advance_own_position). bt on 4 ranks of myrinet, one wave due at 0.528
# s: rank 0 sends the request at its safe point 6 (0.5314 s), which every
# other rank has just passed; they take it at their next MPI call, after
# 21.7 ms of computation, and answer position 6 (K = 7). Held at 6, rank 0
# waited for those answers with its application stopped: bookmark took
# 1.084450 s against 1.062632 s under none (+2.05%). Now rank 0 computes
# on (its trace has records between its safe point and the last position
# it receives) and the run costs what the wave costs (+0.014%; pcl
# +0.013%). The test fails if rank 0 reaches no safe point while a
# position is outstanding (the case is not exercised any more), if it does
# nothing between that safe point and the last position (held), or if the
# run is more than 0.1% slower than under none.
# Usage: initiator_not_held.sh FTSIM PROTOCOL (pcl or bookmark)
set -u
ftsim=$1 protocol=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
run() {
  "$ftsim" run --platform myrinet --np 4 --app bt "$@" >"$tmp/out" 2>&1 ||
    { echo "initiator_not_held.sh: the run failed:"; cat "$tmp/out"; exit 1; }
  grep '^{' "$tmp/out" | sed 's/.*"completion_time_s":\([0-9.]*\).*/\1/'
}
t0=$(run --protocol none)
t1=$(run --protocol "$protocol" --set period=0.528 --trace "$tmp/t")
grep -q '"verified":true.*"waves":1,' "$tmp/out" ||
  { echo "initiator_not_held.sh: not verified with 1 wave:"; cat "$tmp/out"; exit 1; }
"$ftsim" check "$tmp/t" || exit 1
# Rank 0's trace: TIME RANK INC KIND ...
awk -v t0="$t0" -v t1="$t1" '
  $4 == "ctl-send" && ($5 == "request" || $5 == "wave-request") && !req { req = $1 }
  req && $4 == "safe" && !safe { safe = $1; index_ = $5; next }
  safe && $4 !~ /^ctl-/ && work == "" { work = $1; what = $4 }
  $4 == "ctl-recv" && $5 == "position" { pos = $1 }
  $4 == "ctl-send" && ($5 == "at" || $5 == "wave-at") && k == "" { k = $8 }
  END {
    printf "initiator_not_held.sh: request at %s, safe point %s at %s, last position at %s, K %s; rank 0 next %s at %s; %s s against %s s under none\n",
      req, index_, safe, pos, k, what, work, t1, t0
    if (!req || !safe || !(safe < pos)) { print "no safe point of rank 0 while a position was outstanding"; exit 1 }
    if (!(work < pos)) { print "rank 0 did nothing until the last position came: held"; exit 1 }
    if (k <= index_) { print "K is not beyond the safe point rank 0 passed"; exit 1 }
    if (!(t0 > 0 && t1 <= t0 * 1.001)) { print "more than 0.1% slower than under none"; exit 1 }
  }' "$tmp/t.0"
