#!/bin/sh
# The MPI calls ftsim's runtime refuses (sim/runtime/unsupported.c): each,
# made by calls_check --call NAME, must stop the run at once with a non-zero
# exit and "MPI_NAME is not supported by ftsim's runtime yet (protocol P)"
# (NAME_in_place: "MPI_NAME with MPI_IN_PLACE is not..."), never hang, never
# return.
# Usage: refused_calls.sh RUN_SMPI PLATFORM CALLS_CHECK PROTOCOL NAME...
set -u
run_smpi=$1 platform=$2 program=$3 protocol=$4
shift 4
failed=0
for name in "$@"; do
  out=$(FTSIM_OPTIONS="protocol=$protocol" sh "$run_smpi" "$platform" 3 1 . \
    "$program" --call "$name" 2>&1)
  rc=$?
  call=$(printf '%s' "MPI_$name" | sed 's/_in_place$/ with MPI_IN_PLACE/')
  expect="$call is not supported by ftsim's runtime yet \\(protocol $protocol\\)"
  if [ $rc -eq 0 ] || ! printf '%s\n' "$out" | grep -Eq "$expect" ||
    printf '%s\n' "$out" | grep -q 'returned\|Deadlock'; then
    failed=$((failed + 1))
    echo "refused_calls: MPI_$name under $protocol: FAILED (exit $rc)"
    printf '%s\n' "$out" | tail -5
  fi
done
echo "refused_calls: $protocol: $# calls, $failed failed"
[ "$failed" -eq 0 ]
