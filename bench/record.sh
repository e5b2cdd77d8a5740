#!/bin/sh
# What recording costs (issue 16, item 1): the same workload, platform and
# ranks through `ftsim run` (protocol none) and through `ftsim record`
# (protocol none, every MPI call recorded, rank files merged, OTF2 written),
# side by side. Prints wall time (best of REPEAT runs) and peak memory of
# each, their ratios, the archive's events and bytes, and whether the
# simulated completion time is the same (recording must not change the
# simulation). A benchmark, not a test: nothing here passes or fails on
# speed.
#
# Usage: bench/record.sh [-p PLATFORM] [-r REPEAT] [-n NP] [APP...]
#   defaults: -p gige -r 3 -n 64, APP = cg bt
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige repeat=3 np=64 apps=""
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -n) np=$2; shift 2 ;;
    -*) echo "record.sh: unknown option $1" >&2; exit 2 ;;
    *) apps="$apps $1"; shift ;;
  esac
done
[ -n "$apps" ] || apps="cg bt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# once CMD APP: "wall_s peak_mb completion_s" of one `ftsim CMD`.
once() {
  cmd=$1 app=$2
  set -- --platform "$platform" --np "$np" --app "$app"
  [ "$cmd" = record ] && { rm -rf "$tmp/t"; set -- "$@" -o "$tmp/t"; }
  "$build/bench/measure" "$build/ftsim" "$cmd" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  t=$(sed -n 's/.*"completion_time_s":\([0-9.e+-]*\),.*/\1/p' "$tmp/out")
  sed -n "s/^wall_s=\([0-9.]*\) peak_mb=\([0-9.]*\)$/\1 \2 $t/p" "$tmp/err"
}

# best CMD APP: best wall time, largest peak, the completion time.
best() {
  i=0
  : >"$tmp/runs"
  while [ $i -lt "$repeat" ]; do
    once "$@" >>"$tmp/runs"
    i=$((i + 1))
  done
  awk 'NR == 1 || $1 < w { w = $1 } $2 > m { m = $2 } { t = $3 }
       END { print w, m, t }' "$tmp/runs"
}

printf '%-5s %5s  %8s %9s %6s  %7s %9s %6s  %8s %9s  %s\n' app ranks run_s \
  record_s ratio run_MB record_MB ratio events bytes same_time
for app in $apps; do
  run=$(best run "$app")
  rec=$(best record "$app")
  written=$(sed -n 's/^recorded .*: [0-9]* ranks, \([0-9]*\) events, \([0-9]*\) bytes$/\1 \2/p' "$tmp/out")
  echo "$run $rec $written" | awk -v a="$app" -v n="$np" '{
    printf "%-5s %5d  %8.2f %9.2f %6.3f  %7.1f %9.1f %6.3f  %8d %9d  %s\n",
      a, n, $1, $4, $4 / $1, $2, $5, $5 / $2, $7, $8,
      ($3 == $6 ? "yes" : "no (" $3 " vs " $6 ")") }'
done
