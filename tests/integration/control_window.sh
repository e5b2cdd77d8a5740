#!/bin/sh
# The option control_window (issue 18, item 2): with W control receives
# posted, the markers queued for a rank cross the network together instead
# of one latency after the other (SMPI 3.32 starts a transfer only when a
# receive matches it). The same run of PROTOCOL (cg, 32 ranks of grid5000,
# three waves or more) with control_window=1 and =15 must both verify,
# commit the same number of waves, and the second must complete earlier in
# simulated time (deterministic: no wall time is compared). 32 ranks: at
# 16, since the collectives follow SMPI's selector, vcl's window gains
# nothing (its markers do not hold the application: 0.0555884 s against
# 0.0555912 s with the window). With control messages as MPI messages
# (control_timer=0): latency-only ones (the default) wait for no receive,
# and the window changes nothing for them. The uploads go all at once
# (upload_streams=0): vcl's gain here is 13 us in 71.6 ms, and with 16
# streams (the default) the 32 images' timing moves the run by more than
# that either way (window 1: 0.071587838 s, window 15: 0.071616950 s).
#
# Usage: control_window.sh FTSIM PROTOCOL
set -u
[ $# -eq 2 ] || { echo "usage: control_window.sh FTSIM PROTOCOL" >&2; exit 2; }
ftsim=$1 protocol=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for w in 1 15; do
  if ! "$ftsim" run --platform grid5000 --np 32 --app cg --protocol "$protocol" \
    --set period=0.005 --set control_timer=0 --set control_window=$w \
    --set upload_streams=0 >"$tmp/out.$w" 2>"$tmp/err.$w"; then
    echo "control_window: the run with control_window=$w failed"
    tail -n 5 "$tmp/err.$w"
    exit 1
  fi
  grep -q '"verified":true' "$tmp/out.$w" ||
    { echo "control_window=$w: not verified"; exit 1; }
done
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2" | tail -n 1; }
t1=$(field completion_time_s "$tmp/out.1") t15=$(field completion_time_s "$tmp/out.15")
w1=$(field waves "$tmp/out.1") w15=$(field waves "$tmp/out.15")
echo "control_window: $protocol: window 1: $t1 s, $w1 waves; window 15: $t15 s, $w15 waves"
[ "$w1" -ge 3 ] && [ "$w1" = "$w15" ] ||
  { echo "control_window: the runs must commit the same waves, 3 or more"; exit 1; }
awk -v a="$t15" -v b="$t1" 'BEGIN { exit !(a < b) }' ||
  { echo "control_window: the window did not shorten the run"; exit 1; }
