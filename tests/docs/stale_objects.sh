#!/bin/sh
# docs/layers.md's example (the layers check by hand) in a build directory
# that holds an object of a source removed since it was built, as a reused
# build directory does (CMake never deletes such objects): the example
# must check the objects the current build produces
# (BUILD/tests/layers/runtime_objects.txt, written by CMake from the
# runtime target's objects), not every object a glob finds. Its glob
# failed there ("layers.sh: removed.c is in no module").
#
#   stale_objects.sh SOURCE_DIR BUILD_DIR
#
# The example runs against a scratch build directory: the runtime's
# objects and the list copied from BUILD_DIR, plus the stale object.
set -eu
src=$1 build=$2
fake=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-stale.XXXXXX")
trap 'rm -rf "$fake"' EXIT
obj=sim/CMakeFiles/ftsim_runtime_smpi.dir
mkdir -p "$fake/sim/CMakeFiles" "$fake/tests/layers"
cp -r "$build/$obj" "$fake/$obj"
cp "$build/tests/layers/runtime_objects.txt" "$fake/tests/layers/"
cp "$fake/$obj/runtime/gate.c.o" "$fake/$obj/runtime/removed.c.o"
bash "$src/tests/docs/examples.sh" "$src" "$fake" docs/layers.md
