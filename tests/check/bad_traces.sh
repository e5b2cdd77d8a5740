#!/bin/sh
# Two traced runs of the same protocol: each checks ok; rank 1's file of
# the second among the first's is rejected (exit 2, naming the file and
# field 'run'); a trace cut in the middle of a line or without its last
# (end) record is rejected as truncated (exit 2), not as a violation.
# Usage: bad_traces.sh FTSIM
set -u
ftsim=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bad_traces.sh: $*"; cat "$tmp/check"; exit 1; }
for run in a b; do
  "$ftsim" run --trace "$tmp/$run" --np 4 --app cg --protocol pcl \
    --set period=0.005 -- --iters 100 >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; exit 1; }
  "$ftsim" check "$tmp/$run" >"$tmp/check" 2>&1 || fail "run $run: not ok"
done
# expect STATUS TEXT PREFIX: ftsim check PREFIX exits STATUS saying TEXT.
expect() {
  "$ftsim" check "$3" >"$tmp/check" 2>&1
  rc=$?
  [ $rc -eq "$1" ] || fail "$3: exit $rc, expected $1"
  grep -qF "$2" "$tmp/check" || fail "$3: no '$2'"
}
cp "$tmp/b.1" "$tmp/a.1"
expect 2 "$tmp/a.1:1: field 'run': run" "$tmp/a"
for r in 0 1 2 3; do cp "$tmp/b.$r" "$tmp/c.$r"; done
head -n -1 "$tmp/b.2" >"$tmp/c.2"
expect 2 "$tmp/c.2: no end record" "$tmp/c"
head -n -1 "$tmp/b.2" >"$tmp/c.2"
printf '0.1 2 0 sen' >>"$tmp/c.2"
expect 2 "the last line is cut in the middle: the trace is truncated" "$tmp/c"
# Rank 0's file loses its tail (its last sends): not a phantom.
lines=$(wc -l <"$tmp/b.0")
head -n $((lines / 2)) "$tmp/b.0" >"$tmp/c.0"
cp "$tmp/b.2" "$tmp/c.2"
expect 2 "$tmp/c.0: no end record" "$tmp/c"
echo "bad_traces.sh: ok"
