#!/bin/sh
# A run that cannot progress must end (issue 13, defect 3): `ftsim run`
# exits 4 with a summary saying "outcome":"no_progress", "verified":null,
# and its event trace must pass `ftsim check` (the dispatcher's stop record
# excuses the end checks only).
# Usage: no_progress.sh FTSIM EXPECT SCENARIO-LINES ARGS...
#   EXPECT          a regular expression the JSON line must match
#   SCENARIO-LINES  the scenario file's text (printf format, e.g.
#                   'seed 5\nexponential 0.0005\n'); "" for none
#   ARGS            ftsim run's arguments
set -u
ftsim=$1 expect=$2 scenario=$3
shift 3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
set -- --trace "$tmp/t" "$@"
if [ -n "$scenario" ]; then
  printf "$scenario" >"$tmp/scenario.txt"
  set -- --scenario "$tmp/scenario.txt" "$@"
fi
"$ftsim" run "$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
tail -n 5 "$tmp/err"
[ "$rc" -eq 4 ] || { echo "no_progress.sh: exit status $rc, expected 4"; exit 1; }
grep -q '"outcome":"no_progress","verified":null' "$tmp/out" ||
  { echo "no_progress.sh: no \"outcome\":\"no_progress\",\"verified\":null"; exit 1; }
grep -Eq -- "$expect" "$tmp/out" ||
  { echo "no_progress.sh: the JSON line does not match $expect"; exit 1; }
grep -q 'could not progress and was stopped' "$tmp/err" ||
  { echo "no_progress.sh: no message on stderr"; exit 1; }
"$ftsim" check "$tmp/t" || { echo "no_progress.sh: the trace check failed"; exit 1; }
