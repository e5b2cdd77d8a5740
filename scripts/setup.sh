#!/bin/sh
# ftsim setup: installs what is missing (Debian bookworm, apt-get), builds
# everything, then runs the main job on the embedded defaults: a simulated
# run of `cg` with protocol `none` on platforms/gige.xml.
#
# Usage: scripts/setup.sh [--no-run]
# Environment: CI=true builds with warnings as errors (preset "ci").
set -eu
cd "$(dirname "$0")/.."

PACKAGES="cmake ninja-build pkg-config gcc g++ gfortran libsimgrid-dev
  libcriterion-dev gnuplot-nox libopenmpi-dev openmpi-bin spin clang-format
  zlib1g-dev libopen-trace-format2-dev otf2-tools slurm-wlm munge"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages and not root: run 'sudo apt-get install$missing'" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

preset=default
[ "${CI:-}" = true ] && preset=ci
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"

[ "${1:-}" = --no-run ] && exit 0
echo "setup: main job: build/ftsim run   (cg, protocol none, on platforms/gige.xml)"
build/ftsim run
