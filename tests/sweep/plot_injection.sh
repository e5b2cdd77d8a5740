#!/bin/sh
# Issue 13, defect 6: CSV cells reached gnuplot scripts unescaped, so a
# platform cell `gige"; system("touch pwned"); print "` ran the command.
# data/hostile-results.csv carries such cells in platform, app, trace and
# protocol (double quotes, single quotes, backquotes, @macros); `ftsim
# plot` must draw every figure and create none of the pwned-* files.
# Usage: plot_injection.sh FTSIM CSV
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-plot-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
"$1" plot -o "$dir/out" "$2" 2>"$dir/err"
rc=$?
cat "$dir/err"
[ $rc -eq 0 ] || { echo "FAIL: ftsim plot exited $rc"; exit 1; }
pwned=$(find "$dir" -name 'pwned*')
[ -z "$pwned" ] || { echo "FAIL: gnuplot ran injected commands: $pwned"; exit 1; }
ls "$dir"/out/time_vs_waves-*.svg >/dev/null 2>&1 ||
  { echo "FAIL: the figure with the hostile series was not drawn"; exit 1; }
grep -qF "system(''touch pwned-protocol'')" "$dir"/out/time_vs_waves-*.gp ||
  { echo "FAIL: the hostile protocol is not a quoted title"; exit 1; }
echo PASS
