#!/bin/sh
# A failure right after rank 0 finds a wave complete, while its COMMIT is on
# its way (issue 13, defect 5: the dispatcher ordered "rollback 0" after
# rank 0 traced "commit 1"). Pcl, cg on 4 ranks, a wave every 5 ms, no
# detection latency, one failure at each of the times given (run time,
# around the end of the first wave); every run must be verified and its
# trace must pass `ftsim check`, which rejects a rollback to a wave older
# than one committed before it.
# Usage: commit_race.sh FTSIM TIME...
set -u
ftsim=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for t in "$@"; do
  printf 'detection 0\nfail 1 at %s\n' "$t" > "$tmp/s.txt"
  rm -f "$tmp"/t.*
  "$ftsim" run --np 4 --app cg --protocol pcl --set period=0.005 \
    --scenario "$tmp/s.txt" --trace "$tmp/t" > "$tmp/out" 2>&1 ||
    { cat "$tmp/out"; echo "commit_race.sh: the run failed (fail 1 at $t)"; exit 1; }
  grep -q '^{.*"verified":true.*"failures":1' "$tmp/out" ||
    { cat "$tmp/out"; echo "commit_race.sh: not verified (fail 1 at $t)"; exit 1; }
  "$ftsim" check "$tmp/t" > "$tmp/check" 2>&1 ||
    { cat "$tmp/check"; echo "commit_race.sh: check failed (fail 1 at $t)"; exit 1; }
  echo "fail 1 at $t: $(grep -h ' rollback ' "$tmp"/t.0 | head -1)"
done
