#!/bin/sh
# Runs a test command with an event trace, then `ftsim check` on it: the
# test fails if the command fails or the check does not say ok.
# Usage:
#   traced.sh FTSIM run EXPECT ARGS...   ftsim run --trace T ARGS..., which
#                                        must succeed and print a line
#                                        matching EXPECT (expect_ok.sh)
#   traced.sh FTSIM env COMMAND...       COMMAND with trace=T added to
#                                        FTSIM_OPTIONS (e.g. run_smpi.sh)
set -u
ftsim=$1 mode=$2
shift 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# A failed run keeps its traces for diagnosis (a rare flake cannot be
# rerun): they are moved to a directory named on the output.
failed() {
  kept=$(mktemp -d "${TMPDIR:-/tmp}/ftsim-failed-XXXXXX") &&
    mv "$tmp"/* "$kept"/ 2>/dev/null && echo "traced.sh: traces kept in $kept"
  exit 1
}
here=$(dirname "$0")
case $mode in
run)
  expect=$1
  shift
  sh "$here/../expect_ok.sh" "$expect" "$ftsim" run --trace "$tmp/t" "$@" ||
    failed
  ;;
env)
  FTSIM_OPTIONS="${FTSIM_OPTIONS:+$FTSIM_OPTIONS,}trace=$tmp/t" "$@" || failed
  ;;
*)
  echo "traced.sh: mode must be run or env, got '$mode'"
  exit 2
  ;;
esac
"$ftsim" check "$tmp/t" || { echo "traced.sh: the trace check failed"; failed; }
