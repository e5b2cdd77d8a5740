#!/bin/sh
# Measured computation appears in the simulated time (issue 14, item 3):
# runs APP (busy_app) with 1 and with 4 units of CPU work under
# --compute measured, and checks that the simulated completion time grows
# with the work: T4 / T1 in [2.5, 6] (about 4; no wall-time assertion, the
# bounds leave room for a loaded machine), and T1 >= 0.001 s, where
# modelled computation gives well under 0.001 s for the same program.
# Usage: compute_ratio.sh FTSIM APP [ftsim run options...]
ftsim=$1 app=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-ratio-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
time_of() { # units -> completion_time_s on stdout
  "$ftsim" run --app "$app" --compute measured "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/out" "$tmp/err"; return 1; }
  sed -n 's/.*"completion_time_s":\([0-9.e+-]*\).*/\1/p' "$tmp/out"
}
t1=$(time_of "$@" -- 1) || exit 1
t4=$(time_of "$@" -- 4) || exit 1
echo "completion_time_s: 1 unit $t1, 4 units $t4"
awk -v a="$t1" -v b="$t4" 'BEGIN {
  if (a == "" || b == "" || a < 0.001) { print "FAIL: T1 too small or missing"; exit 1 }
  r = b / a; printf "ratio %.2f\n", r
  if (r < 2.5 || r > 6) { print "FAIL: ratio outside [2.5, 6]"; exit 1 }
}'
