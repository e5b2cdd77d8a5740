#!/bin/sh
# After a kill and relaunch, completion_time_s is the whole run's (README,
# "Real failures: kill and relaunch"), as a simulated run with a logical
# failure counts it: the run time up to the kill (the scenario's 0.25 s),
# the restart (restart_s) and the relaunch's span. So it is at least
# 0.25 s + restart_s, and at most wall_s (every launch's wall time, with
# mpirun's start-up and exit) plus the hook's 6 s between the launches
# (and 0.5 s for ftsim's own work there). The test hook sleeps 6 s between the kill
# and the relaunch, so restart_s is over 6 s whatever the machine's speed.
# Before, completion_time_s was the last launch's span only: about 1 s of
# cg here, under 0.25 s + restart_s unless the machine is 6 times slower.
# Usage: real_kill_completion.sh FTSIM SCENARIO CKPT_DIR
set -u
ftsim=$1 scenario=$2 dir=$3
rm -rf "$dir"
out=$(FTSIM_TEST_AFTER_KILL='sleep 6' "$ftsim" run --real --np 2 --app cg --protocol pcl --set period=0.02 \
  --set failure=kill --set ckpt_dir="$dir" --scenario "$scenario" \
  -- --size 100000 --iters 1500 --tol 0 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "real_kill_completion.sh: exit $rc, expected 0"; exit 1; }
json=$(printf '%s\n' "$out" | grep '^{' | tail -n 1)
field() { printf '%s\n' "$json" | sed -n "s/.*\"$1\":\([-0-9.e+]*\).*/\1/p"; }
c=$(field completion_time_s) r=$(field restart_s) w=$(field wall_s)
n=$(field relaunches)
[ -n "$c" ] && [ -n "$r" ] && [ -n "$w" ] && [ "$n" = 1 ] &&
  awk -v r="$r" 'BEGIN { exit !(r >= 6) }' ||
  { echo "real_kill_completion.sh: no summary with one relaunch and restart_s >= 6"; exit 1; }
awk -v c="$c" -v r="$r" -v w="$w" 'BEGIN {
  if (c < 0.25 + r) { printf "completion_time_s %s < 0.25 s + restart_s %s: the relaunch'\''s span only?\n", c, r; exit 1 }
  if (c > w + 6.5) { printf "completion_time_s %s > wall_s %s + 6.5 s\n", c, w; exit 1 }
  printf "ok: completion_time_s %s >= 0.25 + restart_s %s, <= wall_s %s + 6.5 s\n", c, r, w }'
