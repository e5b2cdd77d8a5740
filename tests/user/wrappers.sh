#!/bin/sh
# The compiler wrappers as a Makefile uses them: -show prints a compile
# (no link flags) and a link (the runtime's shared library with an rpath to
# it, SimGrid, a module) for the simulator, the runtime whole with
# -static-runtime or FTSIM_STATIC_RUNTIME=1, and the real MPI's wrapper with
# -real or FTSIM_REAL=1; two sources and a user library (-L, -l) make one
# program that runs and checks itself under ftsim, linked both ways: the
# default module needs libftsim_runtime_shared.so and holds no MPI function
# of its own (tests/runtime/shared_runtime.sh), and `--compute auto` finds
# ft_compute in the module of a program that calls it (modelled) and not in
# one that does not (measured); ftsim_add_program(... STATIC_RUNTIME) links
# the archive.
# Usage: wrappers.sh BUILD WORK
set -eu
build=$1 work=$2
bin=$build/bin
fail() { echo "wrappers.sh: $*"; exit 1; }
has() { case $1 in *"$2"*) ;; *) fail "'$1' lacks '$2'" ;; esac; }
lacks() { case $1 in *"$2"*) fail "'$1' has '$2'" ;; esac; }

c=$("$bin/ftsimcc" -show -c x.c)
has "$c" "-fPIC"
has "$c" "smpi_helpers.h"
lacks "$c" "-shared"
lacks "$c" "libftsim_smpi.a"
l=$("$bin/ftsimcc" -show x.o -o x)
has "$l" "-shared"
has "$l" "--no-as-needed $build/lib/libftsim_runtime_shared.so"
has "$l" "-Wl,-rpath,$build/lib"
lacks "$l" "libftsim_smpi.a"
s=$("$bin/ftsimcc" -static-runtime -show x.o -o x)
has "$s" "-Wl,--whole-archive $build/lib/libftsim_smpi.a -Wl,--no-whole-archive"
lacks "$s" "libftsim_runtime_shared"
lacks "$s" "-static-runtime"
[ "$(FTSIM_STATIC_RUNTIME=1 "$bin/ftsimcc" -show x.o -o x)" = "$s" ] ||
  fail "FTSIM_STATIC_RUNTIME=1 differs from -static-runtime"
f=$("$bin/ftsimf90" -show -c x.f90)
has "$f" "-ff2c -fno-second-underscore"
if [ -f "$build/lib/libftsim_real.a" ]; then # FTSIM_REAL_MPI
  r=$("$bin/ftsimcc" -real -show x.o -o x)
  has "$r" "mpicc"
  has "$r" "libftsim_real.a"
  lacks "$r" "-real"
  [ "$(FTSIM_REAL=1 "$bin/ftsimcc" -show x.o -o x)" = "$r" ] ||
    fail "FTSIM_REAL=1 differs from -real"
  has "$("$bin/ftsimcxx" -real -show -c x.cc)" "mpicxx"
  has "$("$bin/ftsimff" -real -show -c x.f)" "mpif"
fi

rm -rf "$work"
mkdir -p "$work"
cd "$work"
cat >sum.c <<'EOT'
int sum_to(int n) { return n * (n + 1) / 2; }
EOT
cat >main.c <<'EOT'
#include <mpi.h>
#include <stdio.h>
#include "ft.h"
int sum_to(int n);
int twice(int x);
int main(int argc, char **argv) {
  int rank, size, total;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = twice(rank + 1);
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int ok = total == twice(sum_to(size));
  if (rank == 0)
    printf("two sources: %s\n", ok ? "verified" : "FAILED");
  ft_report_result(ok, total);
  MPI_Finalize();
  return 0;
}
EOT
cat >twice.c <<'EOT'
#include "ft.h"
int twice(int x) {
#ifdef COMPUTE
  ft_compute(1e6);
#endif
  return 2 * x;
}
EOT
"$bin/ftsimcc" -c sum.c
ar rcs libsum.a sum.o
shared=$(dirname "$0")/../runtime/shared_runtime.sh
"$bin/ftsimcc" -O2 main.c twice.c -L. -lsum -o static -static-runtime
readelf -d static | grep -q libftsim_runtime_shared &&
  fail "-static-runtime: the module needs libftsim_runtime_shared.so"
out=$("$build/ftsim" run --np 3 --app ./static)
has "$out" '"verified":true'
"$bin/ftsimcc" -O2 -DCOMPUTE main.c twice.c -L. -lsum -o modelled
sh "$shared" modelled
out=$("$build/ftsim" run --np 3 --app ./modelled --compute auto)
has "$out" '"verified":true'
has "$out" '"compute":"modelled"'
"$bin/ftsimcc" -O2 main.c twice.c -L. -lsum -o prog
sh "$shared" prog
out=$("$build/ftsim" run --np 3 --app ./prog --compute auto)
has "$out" '"compute":"measured"'
# The CMake package's static variant (ftsim_add_program STATIC_RUNTIME).
mkdir -p cm
cat >cm/CMakeLists.txt <<'EOT'
cmake_minimum_required(VERSION 3.24)
project(two LANGUAGES C)
find_package(ftsim REQUIRED)
ftsim_add_program(NAME two SOURCES ../main.c ../twice.c ../sum.c
  STATIC_RUNTIME NO_REAL)
EOT
cmake -S cm -B cm/build -G Ninja -DCMAKE_PREFIX_PATH="$build" >/dev/null
cmake --build cm/build >/dev/null
readelf -d cm/build/two | grep -q libftsim_runtime_shared &&
  fail "STATIC_RUNTIME: the module needs libftsim_runtime_shared.so"
has "$("$build/ftsim" run --np 3 --app cm/build/two)" '"verified":true'
echo "$out"
