#!/bin/sh
# Runs `ftsim soak ARGS...` and passes when it exits 0, ends with
# "N passed, 0 failed", and at least PERCENT% of its runs saw a failure (so
# that it cannot pass by never failing anything).
# Usage: soak.sh FTSIM PERCENT ARGS...
set -u
ftsim=$1 percent=$2
shift 2
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$ftsim" soak "$@" >"$out" 2>&1
rc=$?
cat "$out"
[ "$rc" -eq 0 ] || { echo "soak.sh: ftsim soak exited $rc"; exit 1; }
tail -n 1 "$out" | grep -Eq '^[0-9]+ passed, 0 failed$' ||
  { echo "soak.sh: no 'N passed, 0 failed' line"; exit 1; }
runs=$(sed -n 's/^soak: seed [0-9]*, \([0-9]*\) runs in .*/\1/p' "$out")
saw=$(sed -n 's/^soak: failures injected [0-9]* in \([0-9]*\) runs.*/\1/p' "$out")
[ -n "$runs" ] && [ -n "$saw" ] || { echo "soak.sh: no summary"; exit 1; }
[ $((saw * 100)) -ge $((runs * percent)) ] ||
  { echo "soak.sh: only $saw of $runs runs saw a failure"; exit 1; }
echo "soak.sh: $runs runs, $saw saw a failure"
