#!/bin/sh
# A trace is an observer (issue h34): the same run with and without
# --trace gives the same summary, field for field, wall_s aside (and the
# trace is written). mg at 16 ranks under none differed: traced
# MPI_Waitsome skipped SMPI's per-request tests (0.0711 s against 0.0821 s).
# Usage: trace_observer.sh FTSIM APP [ftsim run options...] [-- app args]
ftsim=$1 app=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-observer-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
summary() { # OUT [extra options] -> the JSON line without wall_s, in OUT
  out=$1
  shift
  "$ftsim" run --app "$app" "$@" >"$tmp/raw" 2>"$tmp/err" ||
    { cat "$tmp/raw" "$tmp/err"; return 1; }
  grep '^{' "$tmp/raw" | sed 's/,"wall_s":[0-9.e+-]*//' >"$out"
  [ -s "$out" ] || { echo "FAIL: no summary"; cat "$tmp/raw" "$tmp/err"; return 1; }
}
summary "$tmp/plain" "$@" || exit 1
summary "$tmp/traced" --trace "$tmp/t" "$@" || exit 1
ls "$tmp"/t.* >/dev/null 2>&1 || { echo "FAIL: no trace written"; exit 1; }
cat "$tmp/plain"
if ! cmp -s "$tmp/plain" "$tmp/traced"; then
  echo "FAIL: the summary changes with --trace:"
  tr ',' '\n' <"$tmp/plain" >"$tmp/a"
  tr ',' '\n' <"$tmp/traced" >"$tmp/b"
  diff "$tmp/a" "$tmp/b"
  exit 1
fi
echo "same summary with and without --trace"
