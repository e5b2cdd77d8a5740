#!/bin/sh
# Runs `ftsim run --trace` and then `ftsim check --summary`: the run's
# summary ("waves", "rollbacks", "ranks_restarted") must agree with the
# counts derived from its trace, and the trace must check ok.
# Usage: summary_agrees.sh FTSIM RUN_ARGS...
set -u
ftsim=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
timeout 300 "$ftsim" run --trace "$tmp/t" "$@" >"$tmp/out" 2>&1
rc=$?
summary=$(grep '"waves"' "$tmp/out" | tail -n 1)
echo "summary_agrees.sh: the run exited $rc: $summary"
[ $rc -eq 0 ] || { tail -n 5 "$tmp/out"; exit 1; }
"$ftsim" check --summary "$summary" "$tmp/t"
