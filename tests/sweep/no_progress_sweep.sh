#!/bin/sh
# A point that cannot progress is a row of the sweep, not a failure of it
# (issue 13, defect 3): pcl with failures every 0.5 ms on average and a wave
# every 5 ms, stopped after 20 failures without a commit, next to a point
# without failures. The sweep exits 0; the stopped point's row has status 4,
# outcome no_progress, verified null and the simulated time reached; analyze
# exits 0 and counts it apart from the means.
# Usage: no_progress_sweep.sh FTSIM
set -u
FTSIM=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-sweep-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$dir/stall.txt" <<'EOS'
protocols pcl
platforms gige
apps cg
ranks 4
periods 0.005
mtbfs none 0.0005
seeds 5
set stall_failures=20
EOS
"$FTSIM" sweep -j 2 -o "$dir/r.csv" "$dir/stall.txt" || fail "sweep exited $?"
cat "$dir/r.csv"
[ "$(grep -v '^#' "$dir/r.csv" | tail -n +2 | wc -l)" -eq 2 ] || fail "expected 2 rows"
grep -q ',4,no_progress,null,[0-9.]*,0,20,' "$dir/r.csv" ||
  fail "no row with status 4, outcome no_progress, verified null, 20 failures"
grep -q ',0,ok,true,' "$dir/r.csv" || fail "no ok row"
"$FTSIM" analyze "$dir/r.csv" >"$dir/a.txt" || fail "analyze exited $?"
cat "$dir/a.txt"
grep -q "2 rows (1 ok, 1 no_progress)" "$dir/a.txt" || fail "analyze does not count the no_progress row"
