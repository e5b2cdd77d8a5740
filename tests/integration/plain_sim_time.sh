#!/bin/sh
# Issue 18, item 1: under `none` a workload's simulated time is plain
# SMPI's, as bench/overhead.sh compares them (bench/alternate.sh: plain
# SMPI under the `ompi` selector, ftsim as `ftsim run` runs it), here on
# hosts with more ranks than cores, where the smallest difference in when
# the ranks leave a barrier changes the CPU sharing and MPI_Waitany's
# order (bt differs so: docs/testing.md, "bt's simulated time on shared
# hosts").
#
# Usage: plain_sim_time.sh SOURCE_DIR BUILD_DIR APP NP PER_HOST [ARGS...]
set -eu
top=$1 build=$2 app=$3 np=$4 per=$5
shift 5
platform=gige
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$np" ]; do
  echo "gdx-$((i / per + 1))"
  i=$((i + 1))
done >"$tmp/hosts"
# shellcheck source=bench/alternate.sh
. "$top/bench/alternate.sh"
plain=$(alt_once "$build/apps/plain/$app@ompi" "$@" | cut -d' ' -f4)
ftsim=$(alt_once "$build/apps/smpi/$app" "$@" | cut -d' ' -f4)
echo "$app, $np ranks, $per a host: plain SMPI $plain s, ftsim none $ftsim s"
if [ -z "$plain" ] || [ "$plain" = 0 ]; then
  echo "FAIL: no simulated time from plain SMPI" >&2
  exit 1
fi
[ "$plain" = "$ftsim" ] ||
  { echo "FAIL: simulated times differ" >&2; exit 1; }
