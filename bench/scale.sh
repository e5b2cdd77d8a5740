#!/bin/sh
# How ftsim grows with the number of ranks (issue 18, item 4): each workload
# run on-line under protocol `none` (`ftsim run`) at the on-line sizes, and
# at the replay sizes recorded once (`ftsim record`, itself an on-line run)
# and replayed (`ftsim run --replay`). Prints, per run, the wall time, the
# CPU time (user + system: steadier than the wall time when other work
# shares the machine), the peak memory (MB, the simulation process's
# maximum resident set: bench/measure), the simulated completion time, and
# the growth exponents of wall time, CPU time and memory: the slope
# log(x2 / x1) / log(n2 / n1) from the previous size of the same kind
# (on-line and recording rows form one series, replay rows another; "-"
# for the first and for a recording of the size just run on-line). A benchmark, not a test: nothing passes or fails on speed.
#
# Usage: bench/scale.sh [--quick] [-p PLATFORM] [-n "NP..."] [-R "NP..."]
#                       [-k DIR] [-c KEY:VALUE]... [APP...] [-- APP_ARGS...]
#   defaults: -p gige -n "64 256 1024" -R 4096, APP = cg bt
#   --quick:  -n "4 16" -R 16, APP_ARGS --iters 5 unless given (seconds)
#   -R "": no replay sizes
#   -k DIR: keep each recording, as DIR/APP.NP (to replay or profile it
#       again without recording it again); default: a temporary directory
#   -c KEY:VALUE: a SimGrid option (`ftsim run --cfg`), repeatable, given to
#       every run alike (on-line, recording and replay): it may change the
#       simulated times, so compare only rows run with the same options
#   APP_ARGS go to every workload (e.g. -- --iters 20); bt needs square
#   rank counts.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige online="64 256 1024" replayed=4096 apps="" quick=0 keep="" cfgs=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; shift ;;
    -p) platform=$2; shift 2 ;;
    -n) online=$2; shift 2 ;;
    -R) replayed=$2; shift 2 ;;
    -k) keep=$2; shift 2 ;;
    -c) cfgs="$cfgs --cfg $2"; shift 2 ;;
    --) shift; break ;;
    -*) echo "scale.sh: unknown option $1" >&2; exit 2 ;;
    *) apps="$apps $1"; shift ;;
  esac
done
if [ "$quick" = 1 ]; then
  online="4 16" replayed=16
  [ $# -gt 0 ] || set -- --iters 5
fi
[ -n "$apps" ] || apps="cg bt"
for f in "$build/ftsim" "$build/bench/measure"; do
  [ -x "$f" ] || { echo "scale.sh: $f is not built" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# once CMD ARGS...: "wall_s peak_mb cpu_s completion_s" of `ftsim CMD ARGS`.
once() {
  # $cfgs: "--cfg KEY:VALUE..." (the values hold no blanks: ftsim checks)
  cmd=$1
  shift
  # shellcheck disable=SC2086
  "$build/bench/measure" "$build/ftsim" "$cmd" $cfgs "$@" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; exit 1; }
  sim=$(sed -n 's/.*"completion_time_s":\([^,}]*\).*/\1/p' "$tmp/out")
  w=$(sed -n 's/^wall_s=\([0-9.]*\) peak_mb=\([0-9.]*\)$/\1 \2/p' "$tmp/err")
  c=$(sed -n 's/^cpu_s=\([0-9.]*\)$/\1/p' "$tmp/err")
  echo "$w $c ${sim:-0}"
}

# row APP NP KIND "wall mb cpu sim" SERIES: prints one line, with the
# exponents from the previous row of SERIES (kept in $tmp/last.SERIES).
row() {
  last=$tmp/last.$5
  [ -f "$last" ] || echo "- - - -" >"$last"
  echo "$2 $4 $(cat "$last")" | awk -v a="$1" -v k="$3" '
    function slope(x2, x1) {
      if (x1 == "-" || x1 <= 0 || x2 <= 0 || n1 == $1) return "-"
      return sprintf("%.2f", log(x2 / x1) / log($1 / n1))
    }
    { n1 = $6
      printf "%-4s %5d  %-7s %9.2f %9.2f %8.1f  %11.6f  %6s %6s %6s\n",
        a, $1, k, $2, $4, $3, $5, slope($2, $7), slope($4, $9), slope($3, $8) }'
  echo "$2 $4" | awk '{ print $1, $2, $3, $4 }' >"$last"
}

printf '%-4s %5s  %-7s %9s %9s %8s  %11s  %6s %6s %6s\n' app ranks kind \
  wall_s cpu_s peak_MB sim_s x_wall x_cpu x_mem
for app in $apps; do
  rm -f "$tmp"/last.*
  for np in $online; do
    r=$(once run --platform "$platform" --np "$np" --app "$app" ${1+--} "$@")
    row "$app" "$np" online "$r" online
  done
  for np in $replayed; do
    t=$tmp/t
    [ -z "$keep" ] || { mkdir -p "$keep" && t=$keep/$app.$np; }
    rm -rf "$t"
    r=$(once record --platform "$platform" --np "$np" --app "$app" \
      -o "$t" ${1+--} "$@")
    row "$app" "$np" record "$r" online
    r=$(once run --platform "$platform" --replay "$t")
    row "$app" "$np" replay "$r" replay
  done
done
