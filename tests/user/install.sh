#!/bin/sh
# Installs the build tree into PREFIX (cmake --install), then checks that
# the installed wrappers and pkg-config files link the prefix's shared
# runtime with an rpath to the prefix's lib/, and ftsim-static.pc its
# archive (the tests that build examples with it check the CMake package,
# and build.sh that their modules find the prefix's runtime).
# Usage: install.sh BUILD PREFIX
set -eu
build=$1 prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix"
for f in bin/ftsimcc bin/ftsimcxx bin/ftsimff bin/ftsimf90 lib/libftsim_smpi.a \
  lib/libftsim_runtime_shared.so include/ftsim/ft.h lib/pkgconfig/ftsim.pc \
  lib/pkgconfig/ftsim-static.pc lib/cmake/ftsim/ftsim-config.cmake; do
  [ -f "$prefix/$f" ] || { echo "install.sh: no $prefix/$f"; exit 1; }
done
show=$("$prefix/bin/ftsimcc" -show prog.o -o prog)
echo "$show"
case $show in
*"$prefix/lib/libftsim_runtime_shared.so -Wl,--pop-state -Wl,-rpath,$prefix/lib "*) ;;
*) echo "install.sh: ftsimcc does not link $prefix/lib/libftsim_runtime_shared.so"; exit 1 ;;
esac
show=$("$prefix/bin/ftsimcc" -static-runtime -show prog.o -o prog)
case $show in
*"$prefix/lib/libftsim_smpi.a"*) ;;
*) echo "install.sh: ftsimcc -static-runtime does not link $prefix/lib/libftsim_smpi.a"; exit 1 ;;
esac
pc="$prefix/lib/pkgconfig/../../lib"
libs=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs ftsim)
case $libs in
*"$pc/libftsim_runtime_shared.so -Wl,--pop-state -Wl,-rpath,$pc "*) ;;
*) echo "install.sh: ftsim.pc does not link the prefix's runtime: $libs"; exit 1 ;;
esac
libs=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs ftsim-static)
case $libs in
*"$pc/libftsim_smpi.a"*) ;;
*) echo "install.sh: ftsim-static.pc does not link the prefix's archive: $libs"; exit 1 ;;
esac
echo "install.sh: installed in $prefix"
