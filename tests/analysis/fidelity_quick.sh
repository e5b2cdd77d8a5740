#!/bin/sh
# analysis/fidelity.sh --quick must exit 0 (every run verified, every fit
# computed) and print R² for its 4 combinations; and the combinations whose
# linearity the papers claim and ftsim reproduces must be linear
# (fidelity_check.sh, R² >= 0.8 and a positive slope): gige/bt, gige/cg,
# myrinet/bt. myrinet/cg is not checked: its waves cost a few microseconds,
# under the spread (reproduce.sh, claim sc06-f7-cg, expected not reproduced).
# Usage: fidelity_quick.sh ROOT BUILD_DIR
out=$(mktemp "${TMPDIR:-/tmp}/fidelity_quick.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
sh "$1/analysis/fidelity.sh" --quick "$2" >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || { echo "fidelity_quick.sh: fidelity.sh exited $rc"; exit 1; }
r2="R²=[0-9.-]+"
grep -Eq "^fidelity: gige/bt $r2, gige/cg $r2, myrinet/bt $r2, myrinet/cg $r2$" "$out" ||
  { echo "fidelity_quick.sh: no R² line for the 4 combinations"; exit 1; }
sh "$(dirname "$0")/fidelity_check.sh" 0.8 "$out" gige/bt gige/cg myrinet/bt
