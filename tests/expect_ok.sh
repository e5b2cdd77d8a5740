#!/bin/sh
# Runs a command that must succeed: passes only if it exits 0 and its
# output (stdout + stderr) matches the extended regex EXPECT. (ctest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit status.)
# Usage: expect_ok.sh EXPECT COMMAND [ARGS...]
expect=$1
shift
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "expect_ok.sh: the command exited $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "$expect" ||
  { echo "expect_ok.sh: no line matches '$expect'"; exit 1; }
