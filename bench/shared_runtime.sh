#!/bin/sh
# Issue 18, item 1: what sharing the runtime's code between ranks saves
# under `none`. SMPI's dlopen privatization loads a copy of the program
# module per rank, but the libraries it needs once: the workloads' modules
# use the runtime as one shared library (libftsim_runtime_shared.so,
# cmake/ftsim.cmake), whose code all ranks share and keep warm in the
# caches, as they share SimGrid's. This builds, from the build directory's
# objects, the same workload with the runtime inside the module (the whole
# archive, as before issue 18 and as `ftsimcc -static-runtime` links a
# user's program), then runs plain SMPI, the build's module and that
# privatized one alternately, and prints CPU and wall times (min and
# median of REPEAT), their ratios to plain SMPI's, peak memory and the
# simulated time (bench/alternate.sh). A benchmark, not a test: nothing passes or fails on speed.
#
# Usage: bench/shared_runtime.sh [-a APP] [-p PLATFORM] [-r REPEAT] [NP]
#   defaults: -a cg -p gige -r 3, NP 64 (a Ninja build directory: the
#   default preset's)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${FTSIM_BUILD_DIR:-$top/build}
app=cg platform=gige repeat=3 np=64
while [ $# -gt 0 ]; do
  case $1 in
    -a) app=$2; shift 2 ;;
    -p) platform=$2; shift 2 ;;
    -r) repeat=$2; shift 2 ;;
    -*) echo "shared_runtime.sh: unknown option $1" >&2; exit 2 ;;
    *) np=$1; shift ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The module's objects (its link line, as CMake wrote it), and the
# runtime's static libraries (the shared runtime's link line).
objs=$(cd "$build" && ninja -t commands "apps/smpi/$app" | tail -n 1 |
  tr ' ' '\n' | sed -n "s|^apps/CMakeFiles/.*\.o\$|$build/&|p")
libs=$(cd "$build" && ninja -t commands lib/libftsim_runtime_shared.so |
  tail -n 1 | tr ' ' '\n' | sed -n "s|^[^/].*\.a\$|$build/&|p")
mkdir -p "$tmp/apps/privatized"
# shellcheck disable=SC2086
cc -shared -Wl,-S -Wl,-z,defs -Wl,--wrap=smpi_shared_malloc_intercept \
  -Wl,--wrap=smpi_shared_calloc_intercept \
  -Wl,--wrap=smpi_shared_realloc_intercept -Wl,--wrap=smpi_shared_free \
  -o "$tmp/apps/privatized/$app" $objs -Wl,--whole-archive \
  "$build/sim/libftsim_runtime_smpi.a" -Wl,--no-whole-archive \
  "$build/sim/libftsim_compute_smpi.a" $libs \
  /usr/lib/x86_64-linux-gnu/libsimgrid.so -lz -lm

"$build/ftsim" run --platform "$platform" --np "$np" --app "$app" --dry-run \
  --hostfile-out "$tmp/hosts" >/dev/null
# shellcheck source=bench/alternate.sh
. "$top/bench/alternate.sh"
alt_runs "$repeat" plain="$build/apps/plain/$app@ompi" \
  shared="$build/apps/smpi/$app" private="$tmp/apps/privatized/$app"
alt_header app
alt_table "$app" plain shared private
