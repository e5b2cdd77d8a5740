#!/bin/sh
# Runs a program under smpirun with FTSIM_OPTIONS=OPTIONS plus a trace, then
# `ftsim check` on the trace. With KIND "ok" the run must succeed (as
# run_smpi.sh checks it) and the check exit 0; otherwise (a protocol with a
# deliberate bug, whose run may fail, deadlock or give a wrong result) the
# check must exit 1 and name violation KIND (an extended regular
# expression: "orphan|channel-state" accepts either). KIND "ok+WORD+...":
# ok, and the trace must hold records of each WORD (as gate_failures.sh's
# MUST: `trace:KIND`, a record of KIND; `coll:HOW`, a `coll` record of
# HOW), so that a run meant to put something across the recovery line
# fails when a change of timing leaves nothing there to check.
# Usage: bug_run.sh FTSIM RUN_SMPI KIND OPTIONS PLATFORM NP PROGRAM [ARGS...]
set -u
ftsim=$1 run_smpi=$2 kind=$3 options=$4 platform=$5 np=$6
shift 6
words=
case $kind in
ok+*) words=$(echo "${kind#ok+}" | tr '+' ' ') kind=ok ;;
esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
FTSIM_OPTIONS="$options,trace=$tmp/t" timeout 300 sh "$run_smpi" "$platform" \
  "$np" 1 . "$@" >"$tmp/out" 2>&1
rc=$?
tail -n 3 "$tmp/out"
echo "bug_run.sh: the run exited $rc"
"$ftsim" check "$tmp/t" >"$tmp/check" 2>&1
crc=$?
cat "$tmp/check"
if [ "$kind" = ok ]; then
  [ $rc -eq 0 ] || { echo "bug_run.sh: the run failed"; exit 1; }
  [ $crc -eq 0 ] || { echo "bug_run.sh: check exited $crc, expected 0"; exit 1; }
  cat "$tmp"/t.* | awk '$4 == "coll" { print "coll:" $8; next }
    { print "trace:" $4 }' >"$tmp/records"
  for w in $words; do
    n=$(grep -cx "$w" "$tmp/records")
    echo "bug_run.sh: $w: $n"
    [ "$n" -gt 0 ] || { echo "bug_run.sh: no $w in the trace"; exit 1; }
  done
  exit 0
fi
[ $crc -eq 1 ] || { echo "bug_run.sh: check exited $crc, expected 1"; exit 1; }
grep -Eq "violation \(($kind)\)" "$tmp/check" ||
  { echo "bug_run.sh: the violation is not '$kind'"; exit 1; }
