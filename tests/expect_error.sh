#!/bin/sh
# Runs a command that must fail: passes only if it exits non-zero (exactly
# $EXPECT_STATUS when that is set) and its output (stdout + stderr) matches
# the extended regex EXPECT.
# Usage: [EXPECT_STATUS=N] expect_error.sh EXPECT COMMAND [ARGS...]
expect=$1
shift
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -ne 0 ] || { echo "expect_error.sh: the command succeeded"; exit 1; }
[ -z "${EXPECT_STATUS:-}" ] || [ "$rc" -eq "$EXPECT_STATUS" ] ||
  { echo "expect_error.sh: the command exited $rc, not $EXPECT_STATUS"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "$expect" ||
  { echo "expect_error.sh: no line matches '$expect'"; exit 1; }
