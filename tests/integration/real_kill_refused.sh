#!/bin/sh
# A relaunch after a kill must refuse a corrupt or missing image (README,
# "Real failures: kill and relaunch"): the test hook FTSIM_TEST_AFTER_KILL
# damages rank 1's image of the committed wave between the kill and the
# relaunch; `ftsim run` must then exit 1 with a message naming that file,
# and no summary.
# Usage: real_kill_refused.sh FTSIM corrupt|missing SCENARIO CKPT_DIR
set -u
ftsim=$1 how=$2 scenario=$3 dir=$4
rm -rf "$dir"
case $how in
corrupt) # one byte of the header's rank field: the checksum no longer holds
  hook='f=$FTSIM_CKPT_DIR/rank-1.wave-$FTSIM_COMMITTED_WAVE.img;
        test "$FTSIM_COMMITTED_WAVE" -gt 0 && test -f "$f" &&
        printf "\177" | dd of="$f" bs=1 seek=12 conv=notrunc 2>/dev/null'
  why='checksum mismatch' ;;
missing)
  hook='test "$FTSIM_COMMITTED_WAVE" -gt 0 &&
        rm "$FTSIM_CKPT_DIR/rank-1.wave-$FTSIM_COMMITTED_WAVE.img"'
  why='No such file or directory' ;;
*) echo "real_kill_refused.sh: corrupt or missing, got '$how'"; exit 2 ;;
esac
# The kill is at a wall-clock time: on a loaded machine no wave may be
# committed by then, and the hook has nothing to damage. Then the same run
# again with the kill later (a scenario of the test's own), up to 3 times:
# the refusal is what is tested, not the machine's speed.
try() {
  out=$(FTSIM_TEST_AFTER_KILL=$hook "$ftsim" run --real --np 2 --app cg \
    --protocol pcl --set period=0.01 --set failure=kill --set ckpt_dir="$dir" \
    --scenario "$1" -- --size 100000 --iters 1500 --tol 0 2>&1)
  rc=$?
  printf '%s\n' "$out"
}
try "$scenario"
for at in 1 2.5; do
  printf '%s\n' "$out" | grep -q 'FTSIM_TEST_AFTER_KILL failed' || break
  echo "real_kill_refused.sh: no committed wave by the kill; again with the kill at $at s"
  rm -rf "$dir"
  mkdir -p "$dir.scen" && printf 'fail 1 at %s\n' "$at" > "$dir.scen/later.txt"
  try "$dir.scen/later.txt"
done
[ $rc -eq 1 ] || { echo "real_kill_refused.sh: exit $rc, expected 1"; exit 1; }
printf '%s\n' "$out" | grep -q 'FTSIM_TEST_AFTER_KILL failed' &&
  { echo "real_kill_refused.sh: the hook found no image to damage"; exit 1; }
printf '%s\n' "$out" | grep -Eq "relaunch 1: refusing committed wave [1-9][0-9]*: $dir/rank-1\.wave-[0-9]+\.img: .*$why" ||
  { echo "real_kill_refused.sh: no refusal naming the file ($why)"; exit 1; }
printf '%s\n' "$out" | grep -q '^{' &&
  { echo "real_kill_refused.sh: a summary was printed"; exit 1; }
exit 0
