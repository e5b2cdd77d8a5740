#!/bin/sh
# Random failures on replays under message logging checkpointing at any
# call (issue 16, item 3; not in ctest: minutes). cg, mg, lu and ring are
# recorded once on 6 ranks, bt on 9 (a square), on gige; for each round
# i = 1..ROUNDS and each
# workload, a scenario drawn from seed i (detection up to 0.5 ms, restart
# cost up to 1 ms, 1 to 4 failures of random ranks at random instants up to
# 1.3 x the failure-free time) and a period of t / (3 + 30 u) are replayed
# under pessimist and v2 (or PROTOCOLS: c3 checkpoints at any call in a
# replay too, issue 17) with --trace. A run passes when it exits 0, is
# verified and `ftsim check` accepts its trace. Prints a FAIL line per
# failing run (its scenario kept in DIR/fail_APP_PROTO_i.txt) and a tally:
# runs, failures, checkpoints taken at calls with requests pending
# (ckpt_in_flight, summed), and restores of such a checkpoint (a rank's
# "restore W" after its "pending W N", N > 0).
# Usage: ml_anycall_stress.sh [ROUNDS (60)] [BUILD_DIR (build)] [DIR]
#                             [PROTOCOLS ("pessimist v2")]
set -u
rounds=${1:-60}
build=${2:-build}
ftsim=$(cd "$build" && pwd)/ftsim
dir=${3:-$(mktemp -d)}
protocols=${4:-pessimist v2}
mkdir -p "$dir" && cd "$dir" || exit 1
apps="cg mg lu bt ring"
np_of() { if [ "$1" = bt ]; then echo 9; else echo 6; fi; }
for a in $apps; do
  [ -d "t_$a" ] || "$ftsim" record --platform gige --np "$(np_of "$a")" --app "$a" \
    -o "t_$a" > /dev/null 2>&1 || { echo "record $a failed"; exit 1; }
  "$ftsim" run --replay "t_$a" 2> /dev/null |
    sed -n 's/.*"completion_time_s":\([^,]*\).*/\1/p' > "time_$a"
done
runs=0 bad=0 pend=0 restored=0
i=0
while [ $i -lt "$rounds" ]; do
  i=$((i + 1))
  for a in $apps; do
    t=$(cat "time_$a")
    awk -v t="$t" -v s=$i -v a=$a -v np="$(np_of "$a")" 'BEGIN {
      srand(s * 7 + length(a));
      printf "detection %.6f\nrestart %.6f\n", 0.0005 * rand() + 0.00001,
        0.001 * rand(); n = 1 + int(4 * rand());
      for (k = 0; k < n; k++)
        printf "fail %d at %.9f\n", int(np * rand()), t * 1.3 * rand() }' \
      > "sc_${a}_$i.txt"
    per=$(awk -v t="$t" -v s=$i 'BEGIN { srand(s); print t / (3 + 30 * rand()) }')
    for p in $protocols; do
      rm -f tr.*
      timeout 300 "$ftsim" run --replay "t_$a" --protocol $p \
        --set period="$per" --service-ranks 2 --scenario "sc_${a}_$i.txt" \
        --trace tr > o 2> e
      rc=$?
      runs=$((runs + 1))
      ck=$("$ftsim" check tr 2>&1 | tail -1)
      if [ $rc -ne 0 ] || ! grep -q '"verified":true' o ||
        [ "${ck#ftsim check: ok}" = "$ck" ]; then
        bad=$((bad + 1))
        echo "FAIL $a $p i=$i rc=$rc per=$per" \
          "$(tr '\n' ';' < "sc_${a}_$i.txt") :: $(grep -v '^\[' e | head -2 |
            tr '\n' ' ') :: $ck"
        cp "sc_${a}_$i.txt" "fail_${a}_${p}_$i.txt"
      fi
      n=$(sed -n 's/.*"ckpt_in_flight":\([0-9]*\).*/\1/p' o)
      pend=$((pend + ${n:-0}))
      r=$(cat tr.* 2> /dev/null | awk '$4 == "pending" && $6 > 0 {
          p[$2 " " $5] = 1 }
        $4 == "restore" && ($2 " " $5) in p { n++ } END { print n + 0 }')
      restored=$((restored + r))
    done
  done
  echo "round $i done: $runs runs, $bad failed"
done
echo "ml_anycall_stress: $runs runs, $bad failed; $pend checkpoints with" \
  "requests pending, $restored restores of one"
[ $bad -eq 0 ]
