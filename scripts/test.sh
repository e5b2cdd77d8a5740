#!/bin/sh
# ftsim tests: sets up first if needed (scripts/setup.sh --no-run), checks
# formatting, runs every test of the build (units, smpirun integration,
# reference mode with Open MPI), then the unit tests again under ASan+UBSan.
#
# Usage: scripts/test.sh [extra ctest arguments, e.g. -R runtime]
set -eu
cd "$(dirname "$0")/.."
preset=default
[ "${CI:-}" = true ] && preset=ci

scripts/setup.sh --no-run

echo "test: clang-format check"
git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror

echo "test: ctest (preset $preset)"
ctest --preset "$preset" "$@"

echo "test: unit tests under ASan + UBSan"
cmake --preset asan >/dev/null
cmake --build --preset asan >/dev/null
ctest --preset asan
