#!/bin/sh
# reproduce_explained.sh CLAIMS_TSV: every claim that reproduce.sh found not
# reproduced (its data/claims.tsv: id, paper, figure, claim, paper's value,
# ftsim's value, verdict, expected, explanation) must carry an explanation
# that is more than a pointer: not empty, not "see ..." alone, and with a
# number in it (issue 19: "an explanation for every claim not reproduced",
# with the numbers). Exit 0 if every one has; 1 otherwise, one line per
# claim naming it and its file and line; 2 if the file cannot be read.
f=${1:-}
[ -n "$f" ] && [ -r "$f" ] || { echo "reproduce_explained.sh: cannot read '$f'"; exit 2; }
awk -F '\t' -v f="$f" '
  NF < 9 { printf "reproduce_explained.sh: %s:%d: %d fields, expected 9\n", f, NR, NF; bad++; next }
  $7 == "reproduced" { next }
  { n++; why = $9
    if (why == "") problem = "no explanation"
    else if (why ~ /^see [^ ]+(, [^.]*)?\.?$/) problem = "only a pointer (\"" why "\")"
    else if (why !~ /[0-9]/) problem = "no number"
    else problem = ""
    if (problem != "") { printf "reproduce_explained.sh: %s:%d: claim %s: %s\n", f, NR, $1, problem; bad++ } }
  END { if (bad) exit 1
    printf "reproduce_explained.sh: %d claims not reproduced, each explained with a number\n", n }' "$f"
