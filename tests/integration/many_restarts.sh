#!/bin/sh
# Restarts with checkpoints cost no more images than a few (the soak's seed
# 1129183: v2 on cg held 710 MB after 4234 failures, as a restarting rank
# forgot its lost life's local images, the fetched one included, without
# freeing them: one image more per restart).
#
# Runs cg on 4 ranks of grid5000 under PROTOCOL (message logging: each
# failed rank restarts alone, from its image) with checkpoints every
# 2.7 ms and the seed's failures (exponential, MTBF 4.7 ms, detection
# 6.6 ms), N = 100 then 400 of them, over 200 iterations: at the
# platform's own cost per MPI_Test (issue 19; this test ran under SMPI's
# old 100 us before) cg's 100 iterations ended after 329 of v2's 400
# failures (1.77 s); with 200 the 400-failure runs take 2.21 s (v2) and
# 2.24 s (pessimist). Both runs must exit 0, say
# "verified":true and count N failures; the most checkpoint images one
# rank held at once (images_held: its two local slots, plus the uploads of
# lost lives still on their way) must not grow from 100 to 400 failures,
# and must be > 0, so that the check cannot pass by tracking nothing.
#
# Usage: many_restarts.sh FTSIM PROTOCOL
set -u
ftsim=$1 protocol=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

field() { # field NAME JSONLINE
  printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"
}

run() { # run N: prints the summary line, or fails
  printf 'detection 0.006566762\nseed 15577059119242148764\n' >"$tmp/s$1.txt"
  printf 'exponential 0.004739704\nmax_failures %s\n' "$1" >>"$tmp/s$1.txt"
  "$ftsim" run --np 4 --app cg --platform grid5000 --protocol "$protocol" \
    --set period=0.002688922 --scenario "$tmp/s$1.txt" -- --tol 0 --iters 200 \
    >"$tmp/out$1" 2>"$tmp/err$1"
  rc=$?
  line=$(grep '^{' "$tmp/out$1")
  if [ $rc -ne 0 ] || [ "$(field verified "$line")" != true ] ||
    [ "$(field failures "$line")" != "$1" ]; then
    tail -n 20 "$tmp/err$1"
    echo "many_restarts: $protocol, $1 failures: exit $rc, summary: $line"
    exit 1
  fi
  printf '%s\n' "$line"
}

few=$(run 100) || { echo "$few"; exit 1; }
many=$(run 400) || { echo "$many"; exit 1; }
echo "100 failures: $few"
echo "400 failures: $many"
a=$(field images_held "$few") b=$(field images_held "$many")
echo "images_held: $a after 100 failures, $b after 400"
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt 0 ] ||
  { echo "many_restarts: no images tracked"; exit 1; }
[ "$b" -le "$a" ] || { echo "many_restarts: images_held grew from $a to $b"; exit 1; }
