#!/bin/sh
# `ftsim soak` must report a protocol with a planted bug: runs FTSIM_BUGS
# (ftsim linked with protocols/bugs/bugs.c) soak on the cg workload built
# with the same variants (CG_BUGS), expects exit 1 and a DEFECT line, then
# runs the printed reproducer, which must fail the same way.
# Usage: soak_planted.sh FTSIM_BUGS CG_BUGS PROTOCOL [RUNS] [SEED]
set -u
ftsim=$1 cg=$2 protocol=$3 runs=${4:-12} seed=${5:-1}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/apps/smpi" "$tmp/keep"
ln -s "$cg" "$tmp/build/apps/smpi/cg"
FTSIM_BUILD_DIR=$tmp/build "$ftsim" soak --protocols "$protocol" --apps cg \
  --runs "$runs" --seed "$seed" --jobs 2 --timeout 120 --keep "$tmp/keep" \
  >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ "$rc" -eq 1 ] || { echo "soak_planted.sh: soak exited $rc, expected 1"; exit 1; }
tail -n 1 "$tmp/out" | grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed$' ||
  { echo "soak_planted.sh: no 'N passed, M failed' line with M > 0"; exit 1; }
line=$(grep -m 1 '^soak:   reproduce: ' "$tmp/out" | sed 's/^soak:   reproduce: //')
[ -n "$line" ] || { echo "soak_planted.sh: no reproduce line"; exit 1; }
echo "soak_planted.sh: running the reproducer: $line"
(TMPDIR=$tmp; export TMPDIR; eval "$line") >"$tmp/again" 2>&1
again=$?
tail -n 5 "$tmp/again"
[ "$again" -ne 0 ] ||
  { echo "soak_planted.sh: the reproducer passed, expected a failure"; exit 1; }
echo "soak_planted.sh: the reproducer fails again (exit $again)"
