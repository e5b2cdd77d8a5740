#!/bin/sh
# Speed of the replay (issue 16, item 6): for each workload and rank count,
# the workload recorded once (`ftsim record`), then, REPEAT times and
# interleaved so that the machine's load falls on both alike, run on-line
# (`ftsim run`, protocol none) and its recording replayed on the same
# platform (`ftsim run --replay`). Prints the wall time (best of REPEAT) and
# peak memory (largest, MB; bench/measure: smpirun's simulation process) of
# the recording, the on-line run and the replay, the CPU time (user +
# system, best of REPEAT: steadier than the wall time when other work shares
# the machine) of the on-line run and the replay, the replay's speed-up
# (on-line / replay, wall and CPU), the ratio of the simulated completion
# times (replay / on-line) and whether the messages and bytes are the same.
# A benchmark, not a test: nothing here passes or fails on speed.
#
# Usage: bench/replay_scale.sh [-p PLATFORM] [-r REPEAT] [-n "NP..."] [-s]
#                              [APP...] [-- APP_ARGS...]
#   defaults: -p gige -r 3 -n "64 256", APP = bt cg lu
#   -s: no separate on-line runs; the recording's figures stand for the
#       on-line run (for the largest runs: recording costs little more than
#       the run, bench/record.sh)
#   APP_ARGS go to every workload (e.g. -- --class S --iters 2)
# The 4,096-rank replay on grid5000 (minutes, GBs):
#   nice bench/replay_scale.sh -p grid5000 -n 4096 -r 1 -s cg -- --size 200 --iters 5 --tol 0
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige repeat=3 nps="64 256" apps="" skip_online=0
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -n) nps=$2; shift 2 ;;
    -s) skip_online=1; shift ;;
    --) shift; break ;;
    -*) echo "replay_scale.sh: unknown option $1" >&2; exit 2 ;;
    *) apps="$apps $1"; shift ;;
  esac
done
[ -n "$apps" ] || apps="bt cg lu"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$tmp/out"; }

# once CMD ARGS...: "wall_s peak_mb completion_s messages bytes cpu_s" of
# one `ftsim CMD ARGS`.
once() {
  "$build/bench/measure" "$build/ftsim" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  w=$(sed -n 's/^wall_s=\([0-9.]*\) peak_mb=\([0-9.]*\)$/\1 \2/p' "$tmp/err")
  c=$(sed -n 's/^cpu_s=\([0-9.]*\)$/\1/p' "$tmp/err")
  echo "$w $(field completion_time_s) $(field messages) $(field bytes) $c"
}

# best FILE: best wall time, largest peak, the last run's figures, best CPU
# time.
best() {
  awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $6 < c { c = $6 }
       $2 > m { m = $2 } { t = $3; n = $4; b = $5 }
       END { print w, m, t, n, b, c }' "$1"
}

printf '%-4s %5s  %8s %7s  %7s %7s %6s  %7s %7s %6s  %7s %6s  %9s %s\n' \
  app ranks wall_rec MB_rec wall_on wall_re x_wall cpu_on cpu_re x_cpu \
  MB_on MB_re sim_ratio same_msgs
for np in $nps; do
  for app in $apps; do
    rm -rf "$tmp/t"
    once record --platform "$platform" --np "$np" --app "$app" -o "$tmp/t" \
      ${1+--} "$@" >"$tmp/rec"
    : >"$tmp/on"
    : >"$tmp/re"
    [ "$skip_online" = 0 ] || cp "$tmp/rec" "$tmp/on"
    i=0
    while [ $i -lt "$repeat" ]; do
      [ "$skip_online" = 1 ] ||
        once run --platform "$platform" --np "$np" --app "$app" ${1+--} "$@" \
          >>"$tmp/on"
      once run --platform "$platform" --replay "$tmp/t" >>"$tmp/re"
      i=$((i + 1))
    done
    echo "$(best "$tmp/rec") $(best "$tmp/on") $(best "$tmp/re")" |
      awk -v a="$app" -v n="$np" '{
        # rec: $1-$6, on-line: $7-$12, replay: $13-$18
        same = ($10 == $16 && $11 == $17) ? "yes" : \
               "no (" $10 "/" $16 " messages, " $11 "/" $17 " bytes)"
        printf "%-4s %5d  %8.2f %7.1f  %7.2f %7.2f %5.1fx  %7.2f %7.2f %5.1fx  %7.1f %6.1f  %9.6f %s\n",
          a, n, $1, $2, $7, $13, $7 / $13, $12, $18, $12 / $18, $8, $14,
          $15 / $9, same }'
  done
done
