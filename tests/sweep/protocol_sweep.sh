#!/bin/sh
# A sweep under one protocol that recovers (issue 17: c3 and bookmark had
# no sweep in the suite): 4-rank cg, periods 5 and 40 ms, without failures
# and under a 30 ms system MTBF (seeds 1 and 2, at most 4 failures each),
# 6 points. The CSV must be complete and sensible:
#   - every cell of the grid once (period x (none + MTBF x seed)), no other;
#   - every row of PROTOCOL, platform gige, app cg, 4 ranks: a sweep that ran
#     another protocol (`none`, say) under the name would also fail below;
#   - status 0, outcome ok, verified true;
#   - waves > 0 and checkpoint bytes > 0 in every row (both periods are
#     shorter than the run), more waves at 5 ms than at 40 ms;
#   - failures > 0, rollbacks > 0 and lost work > 0 under the MTBF, and each
#     such point slower than the failure-free one of its period; none of
#     them without failures;
# then `ftsim analyze` reads it (exit 0, PROTOCOL's two periods in its
# table). Columns are found by their header names.
# Usage: protocol_sweep.sh FTSIM PROTOCOL
set -u
FTSIM=$1 protocol=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-sweep-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $protocol: $*"
  exit 1
}
cat >"$dir/grid.txt" <<EOS
protocols $protocol
platforms gige
apps cg
ranks 4
periods 0.005 0.04
mtbfs none 0.03
seeds 1 2
detection 0.001
restart 0.002
max_failures 4
app_args --iters 100 --tol 0
EOS
"$FTSIM" sweep -j 2 -o "$dir/r.csv" "$dir/grid.txt" || fail "sweep exited $?"
grep -v '^#' "$dir/r.csv" >"$dir/rows.csv"
cat "$dir/rows.csv"
# One problem per line on stdout; nothing when all is right.
awk -F, -v p="$protocol" '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  function v(name) {
    if (!(name in c)) { print "no column " name; exit }
    return $c[name]
  }
  {
    rows++
    cell = v("period_s") "/" v("mtbf_s") "/" (v("mtbf_s") == "none" ? "-" : v("seed"))
    if (seen[cell]++) print "cell " cell " twice"
    if (v("protocol") != p || v("platform") != "gige" || v("app") != "cg" ||
        v("ranks") != 4)
      print "cell " cell ": the point is " v("protocol") " " v("platform") " " v("app") " " v("ranks")
    if (v("status") != 0 || v("outcome") != "ok" || v("verified") != "true")
      print "cell " cell ": status " v("status") ", outcome " v("outcome") ", verified " v("verified")
    if (v("waves") + 0 < 1 || v("ckpt_bytes") + 0 <= 0)
      print "cell " cell ": " v("waves") " waves, " v("ckpt_bytes") " checkpoint bytes"
    key = v("mtbf_s") "/" v("seed")
    waves[v("period_s") "/" key] = v("waves")
    t = v("completion_time_s")
    if (v("mtbf_s") == "none") {
      free[v("period_s")] = t
      if (v("failures") != 0 || v("rollbacks") != 0)
        print "cell " cell ": " v("failures") " failures, " v("rollbacks") " rollbacks without failures"
    } else {
      slow[cell] = v("period_s") " " t
      if (v("failures") + 0 < 1 || v("rollbacks") + 0 < 1 || v("lost_work_s") + 0 <= 0)
        print "cell " cell ": " v("failures") " failures, " v("rollbacks") " rollbacks, " v("lost_work_s") " s lost under MTBF " v("mtbf_s")
    }
  }
  END {
    if (rows != 6) print rows + 0 " rows, expected 6"
    split("0.005/none/- 0.04/none/- 0.005/0.03/1 0.005/0.03/2 0.04/0.03/1 0.04/0.03/2", want, " ")
    for (i in want) if (!(want[i] in seen)) print "no row for cell " want[i]
    for (k in waves) {
      split(k, f, "/")
      if (f[1] == "0.005" && ("0.04/" f[2] "/" f[3]) in waves &&
          waves[k] + 0 <= waves["0.04/" f[2] "/" f[3]] + 0)
        print "waves at 5 ms (" waves[k] ") not above those at 40 ms (" waves["0.04/" f[2] "/" f[3]] ") for " f[2] "/" f[3]
    }
    for (k in slow) {
      split(slow[k], f, " ")
      if ((f[1] in free) && f[2] + 0 <= free[f[1]] + 0)
        print "cell " k ": " f[2] " s with failures, not above " free[f[1]] " s without"
    }
  }' "$dir/rows.csv" >"$dir/problems"
if [ -s "$dir/problems" ]; then
  sed 's/^/FAIL: /' "$dir/problems"
  exit 1
fi
"$FTSIM" analyze "$dir/r.csv" >"$dir/a.txt" || fail "analyze exited $?"
cat "$dir/a.txt"
for period in 0.005 0.04; do
  grep -Eq "^$protocol +gige +cg +4 +1 +(0\.03|none) +$period " "$dir/a.txt" ||
    fail "analyze has no row of $protocol at period $period"
done
echo "protocol_sweep: $protocol: 6 points, complete and sensible"
