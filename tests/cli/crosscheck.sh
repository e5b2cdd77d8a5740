#!/bin/sh
# crosscheck.sh FTSIM REPORT_SCRIPT BUILD: calibrates this machine into a
# temporary file, runs analysis/crosscheck.sh --quick on it, and checks
# that every case printed crosscheck's JSON line with numbers for real_s,
# simulated_s and error (computed, whatever their size: no timing is
# asserted), and that the table and the figure were written.
set -u
FTSIM=$1 REPORT=$2 BUILD=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-xc-XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export FTSIM_PLATFORM_CONF="$dir/p.xml"
# its own --disk-dir: two tests calibrating at once in the same directory
# removed each other's ftsim-calibrate-disk.img
"$FTSIM" calibrate --repeat 1 --rounds 10 --disk-dir "$dir" >/dev/null \
  2>"$dir/err" ||
  { cat "$dir/err"; fail "calibrate"; }
sh "$REPORT" --quick -o "$dir/out" "$BUILD" || fail "crosscheck.sh exited $?"
[ "$(wc -l <"$dir/out/runs.jsonl")" = 3 ] || fail "expected 3 JSON lines"
while read -r line; do
  echo "$line"
  for k in real_s simulated_s error messages_error; do
    printf '%s\n' "$line" | grep -Eq "\"$k\":-?[0-9][0-9.e+-]*[,}]" ||
      fail "no number for $k"
  done
done <"$dir/out/runs.jsonl"
[ "$(wc -l <"$dir/out/crosscheck.tsv")" = 4 ] || fail "table: 3 rows expected"
if command -v gnuplot >/dev/null 2>&1; then
  grep -q '<svg' "$dir/out/crosscheck.svg" || fail "no figure"
fi
echo "OK"
