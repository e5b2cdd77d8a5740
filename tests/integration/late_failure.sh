#!/bin/sh
# A failure that has not happened must not slow the run (issue 13, defect
# 4): the same run with a scenario whose only failure falls after the end
# must give the same simulated completion time, to the nanosecond, and the
# same application lines (a ping-pong's latencies) as without a scenario.
#
# Usage: late_failure.sh FTSIM RUN-ARGS...   (the arguments of `ftsim run`)
set -u
ftsim=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'fail 1 at 1000\n' > "$tmp/late.txt"

field() { # field NAME FILE: a number or word of the summary line
  sed -n "s/^{.*\"$1\":\([^,}]*\).*/\1/p" "$2"
}

"$ftsim" run "$@" > "$tmp/plain" 2>&1 ||
  { cat "$tmp/plain"; echo "late_failure.sh: the run without a scenario failed"; exit 1; }
"$ftsim" run --scenario "$tmp/late.txt" "$@" > "$tmp/late" 2>&1 ||
  { cat "$tmp/late"; echo "late_failure.sh: the run with a late failure failed"; exit 1; }
plain=$(field completion_time_s "$tmp/plain")
late=$(field completion_time_s "$tmp/late")
echo "without a scenario: $plain s; with a failure at 1000 s: $late s"
[ -n "$plain" ] || { cat "$tmp/plain"; echo "late_failure.sh: no summary"; exit 1; }
[ "$(field failures "$tmp/late")" = 0 ] ||
  { cat "$tmp/late"; echo "late_failure.sh: the late failure happened"; exit 1; }
[ "$plain" = "$late" ] ||
  { echo "late_failure.sh: a pending failure changed the completion time"; exit 1; }
grep ' us ' "$tmp/plain" > "$tmp/plain.us"
grep ' us ' "$tmp/late" > "$tmp/late.us"
cmp -s "$tmp/plain.us" "$tmp/late.us" ||
  { diff "$tmp/plain.us" "$tmp/late.us"; echo "late_failure.sh: the application's timings differ"; exit 1; }
