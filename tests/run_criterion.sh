#!/bin/sh
# Runs one Criterion test (suite/name) and fails unless exactly that one test
# ran and passed. Usage: run_criterion.sh BINARY SUITE/NAME
#
# Criterion 2.4.1 (Debian bookworm) has a rare deadlock in its runner: the
# main loop waits for a finished sandbox while the sandbox's death callback
# waits for the main loop's acknowledgement (Snaipe/Criterion#468). The test
# itself has already ended; the runner never does. CI lost a run to it (a
# parse-only test hung 600 s under ASan). So each attempt gets 120 s
# (FTSIM_CRITERION_TIMEOUT), and only an attempt that timed out is retried, at
# most twice: a test that fails, or hangs three times in a row, still fails.
# No unit test takes a second. tests/run_criterion_test.sh tests this file.
bin=$1 id=$2 limit=${FTSIM_CRITERION_TIMEOUT:-120}
attempt=1
while :; do
  out=$(LC_ALL=C timeout -k 5 "$limit" "$bin" --filter="$id" -j1 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc -eq 124 ] && [ $attempt -lt 3 ] || break
  echo "run_criterion.sh: '$id' attempt $attempt timed out after $limit s; retrying (Criterion runner deadlock)" >&2
  attempt=$((attempt + 1))
done
[ $rc -eq 0 ] || exit $rc
printf '%s\n' "$out" | grep -q 'Tested: 1 | Passing: 1 ' && exit 0
echo "run_criterion.sh: '$id' did not run exactly one passing test" >&2
exit 1
