#!/bin/sh
# Measured computation appears in the simulated time (issue 14, item 3):
# runs APP (busy_app) under --compute measured with app arguments A1, then
# A2, and checks that the ratio of the simulated completion times T2 / T1
# lies in [MIN, MAX] (no wall-time assertion: the bounds leave room for a
# loaded machine) and that T1 >= 0.001 s, where modelled computation gives
# well under 0.001 s for the same program.
# Usage: compute_ratio.sh FTSIM APP "A1" "A2" MIN MAX [ftsim run options...]
ftsim=$1 app=$2 a1=$3 a2=$4 min=$5 max=$6
shift 6
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-ratio-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
time_of() { # ftsim options... -- app args -> completion_time_s on stdout
  "$ftsim" run --app "$app" --compute measured "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/out" "$tmp/err"; return 1; }
  sed -n 's/.*"completion_time_s":\([0-9.e+-]*\).*/\1/p' "$tmp/out"
}
# shellcheck disable=SC2086 # the app arguments are words
t1=$(time_of "$@" -- $a1) || exit 1
# shellcheck disable=SC2086
t2=$(time_of "$@" -- $a2) || exit 1
echo "completion_time_s: '$a1' $t1, '$a2' $t2"
awk -v a="$t1" -v b="$t2" -v lo="$min" -v hi="$max" 'BEGIN {
  if (a == "" || b == "" || a < 0.001) { print "FAIL: T1 too small or missing"; exit 1 }
  r = b / a; printf "ratio %.2f, expected [%s, %s]\n", r, lo, hi
  if (r < lo || r > hi) { print "FAIL: ratio out of bounds"; exit 1 }
}'
