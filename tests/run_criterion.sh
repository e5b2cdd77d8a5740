#!/bin/sh
# Runs one Criterion test (suite/name) and fails unless exactly that one test
# ran and passed. Usage: run_criterion.sh BINARY SUITE/NAME
bin=$1 id=$2
out=$(LC_ALL=C "$bin" --filter="$id" -j1 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || exit $rc
printf '%s\n' "$out" | grep -q 'Tested: 1 | Passing: 1 ' && exit 0
echo "run_criterion.sh: '$id' did not run exactly one passing test" >&2
exit 1
