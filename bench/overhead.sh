#!/bin/sh
# Overhead of ftsim's runtime (issue 18, item 1): the same workload, same
# platform, same placement, run under smpirun as a plain SMPI program (no
# interposition) and through ftsim's runtime with protocol `none`,
# alternately (plain, ftsim, plain, ...: the machine's load falls on both
# alike), side by side in one run. Prints per workload and rank count the
# CPU time (user + system: steadier than the wall time on a loaded machine)
# and wall time of each, min and median of REPEAT runs, ftsim's ratios to
# plain SMPI's, peak memory and the workload's own simulated time
# (bench/alternate.sh). A benchmark, not a test: nothing here passes or
# fails on speed.
#
# Usage: bench/overhead.sh [-a "APPS"] [-p PLATFORM] [-r REPEAT] [-o]
#                          [NP...] [-- APP ARGS]
#   defaults: -a cg -p gige -r 3, NP = 64 256 (bt needs square counts)
#   Plain SMPI runs under SMPI's `ompi` collective selector, whose
#   algorithms the runtime's collectives follow (SMPI's "default" ones are
#   naive), ftsim as `ftsim run` runs it (no selector: see
#   bench/alternate.sh). -o: a third module, `f-ompi`, the ftsim module
#   under `ompi` too (what this benchmark ran before issue 18's item 1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
apps=cg platform=gige repeat=3 nps="" ompi=0
while [ $# -gt 0 ]; do
  case $1 in
    -a) apps=$2; shift 2 ;;
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -o) ompi=1; shift ;;
    --) shift; break ;;
    -*) echo "overhead.sh: unknown option $1" >&2; exit 2 ;;
    *) nps="$nps $1"; shift ;;
  esac
done
[ -n "$nps" ] || nps="64 256"
for app in $apps; do
  for mode in plain smpi; do
    [ -f "$build/apps/$mode/$app" ] ||
      { echo "overhead.sh: $build/apps/$mode/$app is not built" >&2; exit 2; }
  done
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/alternate.sh
. "$top/bench/alternate.sh"

alt_header app
for app in $apps; do
  for np in $nps; do
    "$build/ftsim" run --platform "$platform" --np "$np" --app "$app" \
      --dry-run --hostfile-out "$tmp/hosts" >/dev/null
    extra=""
    [ "$ompi" = 0 ] || extra=f-ompi="$build/apps/smpi/$app@ompi"
    # shellcheck disable=SC2086 # extra: one word or none
    alt_runs "$repeat" plain="$build/apps/plain/$app@ompi" \
      ftsim="$build/apps/smpi/$app" $extra -- "$@"
    alt_table "$app" plain ftsim ${extra:+f-ompi}
  done
done
