#!/bin/sh
# Issue 19, item 4: `ftsim plot` on a small fixture (data/figures-results.csv:
# none, pcl and vcl at 3 periods x MTBF 0.1 and 0.2 x 3 seeds, plus one
# failure-free run per protocol and period) draws figures that answer
# "which protocol, at which period". Checks the gnuplot scripts and
# report.md for each element, not pixels:
#   time_vs_period  one panel per failure source (no failures, MTBF 0.1,
#                   0.2) side by side with one y range, error bars offset
#                   per protocol and captioned with n from the data, the
#                   best period (circle), Young (dt 2) and Daly (dt 3)
#                   marked, each panel's title flagging the fastest and
#                   what is not distinguishable from it;
#   time_vs_waves   failure-free runs only, each protocol's fitted line
#                   with slope, intercept and R^2 in the key;
#   eff_vs_mtbf     error bars from the time's interval, the period of
#                   each point labelled, the title saying where it is taken;
#   every x range starts at 0 or above; the report carries the CSV's
#   provenance and one computed conclusion per figure.
# Usage: plot_figures.sh FTSIM CSV
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-figures-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$1" plot -o "$dir/out" "$2" 2>"$dir/err" || fail "plot exited $?: $(cat "$dir/err")"
cd "$dir/out" || exit 2
P=time_vs_period-gige-cg-16-s1.gp W=time_vs_waves-gige-cg-16.gp
E=eff_vs_mtbf-gige-cg-16-s1.gp
for f in $P $W $E report.md ${P%.gp}.png ${P%.gp}.svg; do
  [ -s "$f" ] || fail "no $f: $(ls)"
done
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

# per-MTBF panels, a shared y axis
has $P "set multiplot layout 1,3 "
has $P "set title 'no failures'.NL.'fastest: pcl@0.08 s'.NL.'(one seed: not judged)'"
has $P "set title 'MTBF 0.1 s'.NL.'fastest: pcl@0.02 s'.NL.'not distinguishable from:'.NL.'vcl@0.02'"
has $P "set title 'MTBF 0.2 s'.NL.'fastest: vcl@0.04 s'.NL.'distinguishable from all'"
[ "$(grep -c '^set yrange' $P)" -eq 2 ] || fail "one yrange per terminal expected"
has $P "set format y ''"
# error bars offset per protocol (1.04^-0.5, 1.04^0.5) and captioned
has $P 'using ($1*0.980581):2:3:4 with yerrorlines lt 1'
has $P 'using ($1*1.019804):2:3:4 with yerrorlines lt 2'
has $P "'Error bars: 95% CI of the mean over n = 3 seeds (Student t), offset per protocol.'"
# best, Young, Daly marked (Young and Daly: analyze's numbers for vcl at
# MTBF 0.2, C = 0.032819)
has $P "set object circle at first 0.04, first 1.035 "
grep -q "^set arrow from 0.11457[0-9]*, graph 0 to .* dt 2 " $P || fail "no Young mark at 0.114576"
grep -q "^set arrow from 0.09374[0-9]*, graph 0 to .* dt 3 " $P || fail "no Daly mark at 0.093741"
has $P "keyentry with lines dt 2 lc 'black' title 'Young sqrt(2CM)'"
# time against waves, failure-free rows, fitted lines
has $W "title 'pcl: T = 1 + 0.01 x waves, R^2 1.000'"
has $W "title 'vcl: T = 0.9892 + 0.02395 x waves, R^2 0.986'"
has $W "(1)+(0.01)*x with lines lt 1"
[ "$(grep -vc '^#' time_vs_waves-gige-cg-16.dat | tr -d ' ')" -ge 8 ] || fail "waves data"
# efficiency: real intervals, the period labelled and in the title
has $E "set ylabel 'efficiency at the best simulated period"
has $E "title 'cg on gige, 16 ranks, 1 server(s): efficiency at each protocol''s best simulated period (labelled)'"
has $E ":2:3:4 with yerrorlines"
has $E "with labels"
grep -q "^0.1 0.826446281 0.809819[0-9]* 0.843770[0-9]* 0.02$" eff_vs_mtbf-gige-cg-16-s1.dat ||
  fail "efficiency interval of pcl at MTBF 0.1: $(cat eff_vs_mtbf-gige-cg-16-s1.dat)"
# x axes never below 0 (waves start at 0 waves: the range starts at 0)
has $W "set xrange [0:"
if grep -h '^set xrange \[-' ./*.gp; then fail "an x range below 0"; fi
# provenance and conclusions in the report
has report.md "| sweep's ftsim commit | 0123456789ab |"
has report.md "| sweep file | \`/work/scenarios/figures.txt\` |"
has report.md "| sweep command | \`ftsim sweep -j 2 figures.txt\` |"
has report.md "MTBF 0.1 s: pcl at period 0.02 s (1.210 s +- 0.025), not distinguishable from vcl@0.02;"
has report.md "MTBF 0.2 s: vcl at period 0.04 s (1.035 s +- 0.012), distinguishable from every other protocol and period."
has report.md "pcl 10 ms per wave, intercept 1.000 s (R^2 1.000, 4 runs)"
has report.md "highest: pcl at 0.1; vcl at 0.2 (MTBF, s)."
echo PASS
