#!/bin/sh
# expect_fail.sh: passes only if `calibrate.sh ARGS...` exits 1 with its
# "N pairs, M outside" summary and M > 0, i.e. it ran and found a value off
# target (a crash or a usage error does not count as the expected failure).
# Usage: expect_fail.sh CALIBRATE_SH ARGS...
out=$(sh "$@" 2>&1); rc=$?
printf '%s\n' "$out"
if [ $rc -ne 1 ]; then
  echo "expect_fail.sh: exit status $rc, expected 1" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq '^[0-9]+ pairs, [1-9][0-9]* outside'; then
  echo "expect_fail.sh: no pair reported outside tolerance" >&2
  exit 1
fi
echo "expect_fail.sh: the offset was detected, as expected"
