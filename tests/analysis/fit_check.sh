#!/bin/sh
# Runs `FIT < INPUT` and passes only if it exits with STATUS and every
# extended regex EXPECT matches a line of its output (stdout + stderr).
# Usage: fit_check.sh STATUS FIT INPUT EXPECT...
status=$1 fit=$2 input=$3
shift 3
out=$("$fit" <"$input" 2>&1); rc=$?
printf '%s\n' "$out"
[ "$rc" -eq "$status" ] || { echo "fit_check.sh: exit status $rc, expected $status"; exit 1; }
for expect in "$@"; do
  printf '%s\n' "$out" | grep -Eq -- "$expect" ||
    { echo "fit_check.sh: no line matches '$expect'"; exit 1; }
done
