#!/bin/sh
# Message logging checkpoints each rank alone at any call of its replay
# where it has no request pending (issue 16, item 3): APP recorded on gige
# (4 ranks) has no consistent cut a coordinated checkpoint could use (mg,
# lu, bt: waves 0 under pessimist and v2 when the replay checkpointed at
# cuts only), yet replayed under each PROTOCOL with a period and three
# failures it takes checkpoints (waves > 0), restarts the failed ranks from
# them (lost work below the run's time), is verified and `ftsim check`
# accepts its trace.
# Usage: replay_alone.sh FTSIM APP PROTOCOL...
set -u
ftsim=$1 app=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "replay_alone.sh: $*"; exit 1; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }
"$ftsim" record --platform gige --np 4 --app "$app" -o "$dir/t" \
  > "$dir/on" 2> "$dir/err" || { cat "$dir/err"; fail "record $app"; }
t=$(field completion_time_s "$dir/on")
awk -v t="$t" 'BEGIN { printf "detection 0.0001\nrestart 0.0002\n";
  printf "fail 1 at %.9f\nfail 2 at %.9f\nfail 1 at %.9f\n",
    0.3 * t, 0.55 * t, 0.8 * t }' > "$dir/scenario"
period=$(awk -v t="$t" 'BEGIN { print t / 20 }')
for p in "$@"; do
  "$ftsim" run --replay "$dir/t" --protocol "$p" --set period="$period" \
    --service-ranks 2 --scenario "$dir/scenario" --trace "$dir/ev.$p" \
    > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/out"
  [ $rc -eq 0 ] || { grep -v '^\[' "$dir/err" | head; fail "$p: exit $rc"; }
  grep -q '"verified":true' "$dir/out" || fail "$p: not verified"
  grep -q '"failures":3' "$dir/out" || fail "$p: not 3 failures"
  grep -q '"waves":[1-9]' "$dir/out" || fail "$p: no checkpoint"
  awk -v l="$(field lost_work_s "$dir/out")" -v t="$t" \
    'BEGIN { exit !(l < t) }' || fail "$p: lost work $(field lost_work_s "$dir/out") s"
  "$ftsim" check "$dir/ev.$p" || fail "$p: ftsim check"
done
