#!/bin/sh
# Overhead of ftsim's runtime: the same workload, same platform, same
# placement, run under smpirun as a plain SMPI program (no interposition) and
# through ftsim's runtime with protocol `none`, side by side in one run.
# Prints wall time (best of REPEAT runs), peak memory and the workload's
# own simulated time of each, and their ratios. A benchmark, not a test:
# nothing here passes or fails on speed.
#
# Usage: bench/overhead.sh [-a APP] [-p PLATFORM] [-r REPEAT] [-s SELECTOR]
#                          [NP...] [-- APP ARGS]
#   defaults: -a cg -p gige -r 3 -s ompi, NP = 64 256
#   SELECTOR is SMPI's collective selector for the plain run (smpi/coll-selector:
#   default, ompi, mpich, ...). ftsim carries collectives itself, so the plain
#   baseline should use realistic algorithms: SMPI's "default" ones are naive
#   and make plain SMPI slower than ftsim at 256 ranks.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
app=cg platform=gige repeat=3 selector=ompi nps=""
while [ $# -gt 0 ]; do
  case $1 in
    -a) app=$2; shift 2 ;;
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -s) selector=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "overhead.sh: unknown option $1" >&2; exit 2 ;;
    *) nps="$nps $1"; shift ;;
  esac
done
[ -n "$nps" ] || nps="64 256"
for mode in plain smpi; do
  [ -x "$build/apps/$mode/$app" ] || [ -f "$build/apps/$mode/$app" ] ||
    { echo "overhead.sh: $build/apps/$mode/$app is not built" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_once MODE NP [APP ARGS]: prints "wall_s peak_mb sim_s" of one
# simulation (sim_s: the workload's own measure, "... in S s", simulated).
run_once() {
  mode=$1 np=$2
  shift 2
  FTSIM_OPTIONS=protocol=none "$build/bench/measure" smpirun -np "$np" \
    -platform "$top/platforms/$platform.xml" -hostfile "$tmp/hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
    --cfg=smpi/privatization:dlopen \
    --cfg=smpi/coll-selector:"$selector" \
    --log=root.thres:warning "$build/apps/$mode/$app" "$@" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  ! grep -q 'Deadlock detected' "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  sim=$(sed -n 's/.* in \([0-9.]*\) s[,:].*/\1/p' "$tmp/out" | head -n 1)
  sed -n "s/^wall_s=\\([0-9.]*\\) peak_mb=\\([0-9.]*\\)\$/\\1 \\2 ${sim:-0}/p" \
    "$tmp/err"
}

# best MODE NP [APP ARGS]: best wall time, largest peak and the simulated
# time (the same in every run) over REPEAT runs.
best() {
  i=0
  : >"$tmp/runs"
  while [ $i -lt "$repeat" ]; do
    run_once "$@" >>"$tmp/runs"
    i=$((i + 1))
  done
  awk 'NR == 1 || $1 < w { w = $1 } $2 > m { m = $2 } { s = $3 }
    END { print w, m, s }' \
    "$tmp/runs"
}

printf '%-6s %5s  %9s %9s %6s  %9s %9s %6s  %10s %10s %7s\n' app ranks \
  plain_s ftsim_s ratio plain_MB ftsim_MB ratio plain_sim ftsim_sim ratio
for np in $nps; do
  "$build/ftsim" run --platform "$platform" --np "$np" --app "$app" --dry-run \
    --hostfile-out "$tmp/hosts" >/dev/null
  plain=$(best plain "$np" "$@")
  ftsim=$(best smpi "$np" "$@")
  echo "$plain $ftsim" | awk -v a="$app" -v n="$np" '{
    printf "%-6s %5d  %9.2f %9.2f %6.3f  %9.1f %9.1f %6.3f  %10.6f %10.6f %7.4f\n",
      a, n, $1, $4, $4 / $1, $2, $5, $5 / $2, $3, $6, ($3 > 0 ? $6 / $3 : 0) }'
done
