#!/bin/sh
# Seeded random failures: for each seed, a workload on a platform, a
# protocol that recovers, and a scenario drawn from the seed (1 to 3
# failures at uniform times on uniform ranks, rank 0 included, or an
# exponential MTBF), all on a few ranks. Every run must exit 0, say
# "verified":true and give exactly the failure-free result; and failures must
# really have happened (at least 80% of the runs see one), so the test cannot
# pass by never failing anything. Every failure run writes an event trace,
# and `ftsim check` must prove it consistent.
#
# Usage: random_failures.sh FTSIM PROTOCOL COUNT [FIRST_SEED]
# Prints one line per run; a failing run prints its scenario, its command
# and its output, so any seed is a reproducible test on its own.
set -u
ftsim=$1 protocol=$2 count=$3 first=${4:-1}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# workload, ranks
cases="ring 4
cg 4
mg 4
lu 4
bt 4
pingpong 2
ring 3
cg 2"
platforms="gige myrinet grid5000"

field() { # field NAME JSONLINE: a number or word of the summary
  printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}

run() { # run OUT ARGS...: the summary line of one run, or fail
  out=$1
  shift
  "$ftsim" run "$@" >"$out" 2>&1
}

# Failure-free completion time and result of each case, with Pcl.
baseline() { # baseline APP NP PLATFORM
  key="$1-$2-$3"
  if [ ! -f "$tmp/base-$key" ]; then
    run "$tmp/out" --platform "$3" --np "$2" --app "$1" --protocol "$protocol" ||
      { cat "$tmp/out"; echo "random_failures: failure-free $key failed"; exit 1; }
    tail -n 1 "$tmp/out" >"$tmp/base-$key"
  fi
  cat "$tmp/base-$key"
}

# The scenario of one seed, for a run of about T seconds on NP ranks.
scenario() { # scenario SEED T NP
  awk -v seed="$1" -v t="$2" -v np="$3" 'BEGIN {
    srand(seed)
    printf "# drawn by random_failures.sh from seed %d\n", seed
    printf "detection %.6f\nrestart %.6f\n", t * rand() / 50, t * rand() / 20
    if (seed % 3 == 0) {
      printf "seed %d\nexponential %.6f\nmax_failures 3\nuntil %.6f\n",
             seed, t / 2, t
    } else {
      n = 1 + int(rand() * 3)
      for (i = 0; i < n; i++)
        printf "fail %d at %.6f\n", int(rand() * np), t * rand()
    }
  }'
}

ncases=$(printf '%s\n' "$cases" | wc -l)
failed=0 hit=0
seed=$first
last=$((first + count - 1))
while [ "$seed" -le "$last" ]; do
  line=$(printf '%s\n' "$cases" | sed -n "$(( (seed % ncases) + 1 ))p")
  app=${line% *} np=${line#* }
  platform=$(echo $platforms | cut -d' ' -f$(( (seed / ncases) % 3 + 1 )))
  base=$(baseline "$app" "$np" "$platform")
  t=$(field completion_time_s "$base")
  want=$(field result "$base")
  period=$(awk -v t="$t" 'BEGIN { printf "%.6f", t / 5 }')
  scenario "$seed" "$t" "$np" >"$tmp/s.txt"
  rm -f "$tmp"/t.*
  set -- --platform "$platform" --np "$np" --app "$app" --protocol "$protocol" \
    --set "period=$period" --scenario "$tmp/s.txt" --trace "$tmp/t"
  if run "$tmp/out" "$@"; then rc=0; else rc=$?; fi
  got=$(tail -n 1 "$tmp/out")
  failures=$(field failures "$got")
  verdict=ok
  [ "$rc" -eq 0 ] || verdict="exit $rc"
  [ "$verdict" = ok ] && [ "$(field verified "$got")" != true ] &&
    verdict="not verified"
  [ "$verdict" = ok ] && [ "$(field result "$got")" != "$want" ] &&
    verdict="result $(field result "$got") instead of $want"
  [ "$verdict" = ok ] && ! "$ftsim" check "$tmp/t" >"$tmp/check" 2>&1 &&
    verdict="trace check: $(cat "$tmp/check")"
  echo "seed $seed: $app np $np on $platform, period $period s:" \
    "${failures:-?} failures, $(field rollbacks "$got") rollbacks," \
    "$(field waves "$got") waves: $verdict"
  if [ "$verdict" != ok ]; then
    failed=$((failed + 1))
    echo "--- scenario:"; cat "$tmp/s.txt"
    echo "--- command: $ftsim run $*"; echo "--- output:"; tail -n 30 "$tmp/out"
  fi
  [ "${failures:-0}" -gt 0 ] 2>/dev/null && hit=$((hit + 1))
  seed=$((seed + 1))
done
echo "random_failures: $count runs, $failed failed, $hit saw a failure"
[ "$failed" -eq 0 ] || exit 1
[ $((hit * 5)) -ge $((count * 4)) ] ||
  { echo "random_failures: fewer than 80% of the runs saw a failure"; exit 1; }
