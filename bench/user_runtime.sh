#!/bin/sh
# Issue 18 for users' programs: what linking the runtime's shared library
# (ftsimcc's default, README "Your own program") saves over the runtime
# inside the module (ftsimcc -static-runtime, what ftsimcc linked before)
# under `none`, against the same program built by plain smpicc. Builds a
# cg-like user program (apps/cg.c and its helpers, copied out of the tree
# as a user would have them; plain smpicc takes ft.h's functions from
# sim/app_api_plain.c) three ways with -O2, then runs the three modules
# alternately with smpirun and prints CPU and wall times (min and median
# of REPEAT), their ratios to plain smpicc's, peak memory and the
# simulated time (bench/alternate.sh). A benchmark, not a test: nothing passes or fails on speed.
#
# Usage: bench/user_runtime.sh [-p PLATFORM] [-r REPEAT] [NP]
#   defaults: -p gige -r 3, NP 64 (the default preset's build directory, or
#   FTSIM_BUILD_DIR)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
platform=gige repeat=3 np=64
while [ $# -gt 0 ]; do
  case $1 in
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -*) echo "user_runtime.sh: unknown option $1" >&2; exit 2 ;;
    *) np=$1; shift ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp "$top/apps/cg.c" "$top/apps/common.c" "$top/apps/common.h" \
  "$top/apps/app_options.c" "$top/apps/app_options.h" "$tmp/"
cd "$tmp"
src="cg.c common.c app_options.c"
# shellcheck disable=SC2086 # the sources: words without spaces
smpicc -O2 -DNDEBUG -I"$top/sim" $src "$top/sim/app_api_plain.c" -o plain -lm
# shellcheck disable=SC2086
"$build/bin/ftsimcc" -O2 -DNDEBUG $src -o shared -lm
# shellcheck disable=SC2086
"$build/bin/ftsimcc" -static-runtime -O2 -DNDEBUG $src -o static -lm

"$build/ftsim" run --platform "$platform" --np "$np" --app cg --dry-run \
  --hostfile-out "$tmp/hosts" >/dev/null
# shellcheck source=bench/alternate.sh
. "$top/bench/alternate.sh"
alt_runs "$repeat" plain="$tmp/plain@ompi" shared="$tmp/shared" static="$tmp/static"
alt_header prog
alt_table cg plain shared static
