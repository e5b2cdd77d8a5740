#!/bin/sh
# Fidelity and speed of the replay (issue 16, items 2, 5 and 6): each
# workload run on-line (`ftsim run`, protocol none), recorded once (`ftsim
# record`), and its recording replayed on the same platform (`ftsim run
# --replay`); with -R, recorded on another platform (cross-platform: the
# on-line run and the replay on -p, the recording on -R).
# Prints the simulated completion times of both and their ratio, the
# summaries' messages and bytes (on-line/replay), and the wall time (best
# of REPEAT runs) and peak memory of both. A benchmark, not a test:
# nothing here passes or fails on speed.
#
# Usage: bench/replay.sh [-p PLATFORM] [-R RECORD_PLATFORM] [-r REPEAT]
#                        [-n NP] [APP...]
#   defaults: -p gige -R (the -p platform) -r 3 -n 16, APP = every workload
#   of apps/: ring pingpong cg mg lu bt fring
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige record_on="" repeat=3 np=16 apps=""
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -R) record_on=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -n) np=$2; shift 2 ;;
    -*) echo "replay.sh: unknown option $1" >&2; exit 2 ;;
    *) apps="$apps $1"; shift ;;
  esac
done
[ -n "$apps" ] || apps="ring pingpong cg mg lu bt fring"
[ -n "$record_on" ] || record_on=$platform
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$tmp/out"; }

# once ARGS...: "wall_s peak_mb completion_s messages bytes" of one
# `ftsim run ARGS`.
once() {
  "$build/bench/measure" "$build/ftsim" run "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  w=$(sed -n 's/^wall_s=\([0-9.]*\) peak_mb=\([0-9.]*\)$/\1 \2/p' "$tmp/err")
  echo "$w $(field completion_time_s) $(field messages) $(field bytes)"
}

# best ARGS...: best wall time, largest peak, then the run's figures.
best() {
  i=0
  : >"$tmp/runs"
  while [ $i -lt "$repeat" ]; do
    once "$@" >>"$tmp/runs"
    i=$((i + 1))
  done
  awk 'NR == 1 || $1 < w { w = $1 } $2 > m { m = $2 } { t = $3; n = $4; b = $5 }
       END { print w, m, t, n, b }' "$tmp/runs"
}

printf '%-8s %5s  %12s %12s %9s  %11s %21s  %7s %8s  %7s %9s\n' app ranks \
  online_s replay_s ratio messages bytes wall_on wall_re MB_on MB_re
for app in $apps; do
  on=$(best --platform "$platform" --np "$np" --app "$app")
  rm -rf "$tmp/t"
  "$build/ftsim" record --platform "$record_on" --np "$np" --app "$app" \
    -o "$tmp/t" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  re=$(best --platform "$platform" --replay "$tmp/t")
  echo "$on $re" | awk -v a="$app" -v n="$np" '{
    printf "%-8s %5d  %12.9f %12.9f %9.6f  %5d/%-5d %10d/%-10d  %7.2f %8.2f  %7.1f %9.1f\n",
      a, n, $3, $8, $8 / $3, $4, $9, $5, $10, $1, $6, $2, $7 }'
done
