#!/bin/sh
# Measured computation through a failure (issue 14, item 3): while a
# restarted rank sleeps its restart cost in the runtime (a SimGrid sleep,
# not an MPI call), the other ranks compute in the same thread; SMPI's
# benchmark timer of the sleeping rank must not count their CPU time. It
# did: recovery_s grew past restart + detection, or lost_work_s past the
# failure time, by tens of milliseconds, differently from run to run.
# Checks: verified, recovery_s <= 0.22 (restart 0.2 + detection 0.001 +
# the replay), lost_work_s <= 0.07: the failure is 0.05 s after the start
# line, and the lost work counts from main()'s top, before MPI_Init, whose
# measured part grows with the host's load (0.0602-0.0614 s measured with
# four other builds running on 2 cores; 0.06 was the bound before).
# Usage: measured_failure.sh FTSIM APP PROTOCOL [ftsim run options...]
ftsim=$1 app=$2 protocol=$3
shift 3
out=$("$ftsim" run --app "$app" --protocol "$protocol" --compute measured \
  --set period=0.01 "$@" -- 6 snapshots) || { echo "$out"; exit 1; }
echo "$out"
get() { echo "$out" | sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"; }
echo "$out" | grep -qF '"verified":true' || { echo "FAIL: not verified"; exit 1; }
awk -v r="$(get recovery_s)" -v l="$(get lost_work_s)" 'BEGIN {
  if (r == "" || r > 0.22) { print "FAIL: recovery_s " r " > 0.22"; exit 1 }
  if (l == "" || l > 0.07) { print "FAIL: lost_work_s " l " > 0.07"; exit 1 }
}'
