#!/bin/sh
# Runs a workload under smpirun and checks how it ended.
# Usage: run_app.sh PLATFORM HOSTFILE NP STATUS EXPECT PROGRAM [ARGS...]
#   Passes when smpirun exits with STATUS, the output (stdout + stderr)
#   matches the extended regex EXPECT, SimGrid reported no deadlock (smpirun
#   can exit 0 after one) and, when STATUS is 0, no line ends in "FAILED".
set -u
platform=$1 hosts=$2 np=$3 status=$4 expect=$5
shift 5
out=$(smpirun -np "$np" -platform "$platform" -hostfile "$hosts" \
  --cfg=smpi/simulate-computation:no --log=root.thres:warning "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
fail() { echo "run_app.sh: $*"; exit 1; }
[ "$rc" -eq "$status" ] || fail "smpirun exited $rc, expected $status"
! printf '%s\n' "$out" | grep -q 'Deadlock detected' || fail "deadlock"
printf '%s\n' "$out" | grep -Eq -- "$expect" || fail "no line matches '$expect'"
if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -q 'FAILED$'; then
  fail "the workload reported FAILED"
fi
exit 0
