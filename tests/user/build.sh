#!/bin/sh
# Builds a user program (examples/NAME) the way its user would, against an
# ftsim tree (the build tree, or a prefix made by `cmake --install`), into
# WORK; the test fails if the build fails, an expected file is missing, or
# a simulated module does not find the runtime's shared library in TREE's
# lib/ (through its rpath: no LD_LIBRARY_PATH) or holds a copy of the
# runtime's MPI functions.
# Usage: build.sh KIND TREE SRC WORK PROGRAM
#   make    make with the wrappers on PATH: WORK/sim/PROGRAM (simulated) and,
#           with FTSIM_REAL=1, WORK/real/PROGRAM (reference mode, mpirun)
#   cmake   cmake with find_package(ftsim) from CMAKE_PREFIX_PATH=TREE:
#           WORK/PROGRAM and WORK/PROGRAM-real
#   smpiff  SimGrid's own smpiff, ftsim's runtime from pkg-config (the Fortran
#           main program becomes `subroutine user_main`): WORK/sim/PROGRAM
set -eu
kind=$1 tree=$2 src=$3 work=$4 program=$5
rm -rf "$work"
mkdir -p "$work"
copy() { mkdir -p "$work/$1" && cp "$src"/* "$work/$1/"; }
real=no # reference mode exists if ftsim was built with FTSIM_REAL_MPI
[ -f "$tree/lib/libftsim_real.a" ] && real=yes
case $kind in
make)
  copy sim
  PATH="$tree/bin:$PATH" make -C "$work/sim"
  made="sim/$program"
  sim="sim/$program"
  if [ $real = yes ]; then
    copy real
    PATH="$tree/bin:$PATH" FTSIM_REAL=1 make -C "$work/real"
    made="$made real/$program"
  fi
  ;;
cmake)
  cmake -S "$src" -B "$work" -G Ninja -DCMAKE_PREFIX_PATH="$tree"
  cmake --build "$work"
  made="$program"
  sim="$program"
  [ $real = yes ] && made="$made $program-real"
  ;;
smpiff)
  copy sim
  libs=$(PKG_CONFIG_PATH="$tree/lib/pkgconfig" pkg-config --libs ftsim)
  make -C "$work/sim" FC=smpiff FFLAGS="-O2 -fallow-argument-mismatch" \
    LDLIBS="$libs"
  nm "$work/sim/$program" | grep -q ' T user_main_$' ||
    { echo "build.sh: smpiff made no user_main_"; exit 1; }
  made="sim/$program"
  sim="sim/$program"
  ;;
*)
  echo "build.sh: KIND must be make, cmake or smpiff, got '$kind'" >&2
  exit 2
  ;;
esac
for f in $made; do
  [ -f "$work/$f" ] || { echo "build.sh: $work/$f was not built"; exit 1; }
done
want=$(readlink -f "$tree/lib/libftsim_runtime_shared.so")
got=$(env -u LD_LIBRARY_PATH ldd "$work/$sim" |
  sed -n 's/^[[:space:]]*libftsim_runtime_shared\.so => \([^ ]*\) .*/\1/p')
if [ -z "$got" ] || [ "$(readlink -f "$got")" != "$want" ]; then
  echo "build.sh: $work/$sim finds libftsim_runtime_shared.so at '$got', not $want"
  exit 1
fi
# No copy of the runtime in the module (tests/runtime/shared_runtime.sh).
sh "$(dirname "$0")/../runtime/shared_runtime.sh" "$work/$sim"
echo "build.sh: built $made in $work ($sim needs $want)"
