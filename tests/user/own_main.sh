#!/bin/sh
# A user's program restarted under a recovering protocol runs its own main
# (issue 18, item 1): tests/runtime/own_main_check.c, built as a user builds
# it with the ftsimcc of TREE (the build tree or an installed prefix), which
# links the runtime's shared library; rank 1 fails in the middle
# (tests/runtime/own_main_failure.txt). Each rank's copy of the module has
# its own globals; a restart that ran another copy's main (the shared
# library's weak `main` names one copy for all ranks) would find another
# rank's number in its copy's global and report "verified":false.
# Usage: own_main.sh FTSIM TREE WORK PROTOCOL
set -eu
ftsim=$1 tree=$2 work=$3 protocol=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
"$tree/bin/ftsimcc" -O2 "$here/../runtime/own_main_check.c" -o "$work/own_main_check"
readelf -d "$work/own_main_check" | grep -q 'NEEDED.*libftsim_runtime_shared' ||
  { echo "own_main.sh: the module does not need the shared runtime"; exit 1; }
exec sh "$here/../integration/traced.sh" "$ftsim" run \
  "^\{.*\"verified\":true.*\"failures\":1" --app "$work/own_main_check" \
  --compute modelled --platform gige --np 4 --protocol "$protocol" \
  --set period=0.004 --scenario "$here/../runtime/own_main_failure.txt"
