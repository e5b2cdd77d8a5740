#!/bin/sh
# A replay that takes checkpoints stays verified: APP recorded on gige with
# NP ranks, replayed under each PROTOCOL with a period and no failure: exit
# 0, "verified":true, waves > 0. cg on 8 ranks under pessimist and v2 was
# not verified ("received source 0 tag 0"): a test call's MPI_Testall that
# completed some requests but not all, then an MPI_Waitall on all of them
# again, overwrote the completed ones' statuses (replay.c, wait_rest).
# Images of 10 KB: under pcl and vcl a replay checkpoints at any call and
# its image is otherwise the recorded footprint (about 1 MB a rank for cg),
# whose uploads outlast cg's 0.04 s run.
# Usage: replay_checkpointed.sh FTSIM APP NP PERIOD PROTOCOL...
set -u
ftsim=$1 app=$2 np=$3 period=$4
shift 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "replay_checkpointed.sh: $*"; exit 1; }
"$ftsim" record --platform gige --np "$np" --app "$app" -o "$dir/t" \
  > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail "record $app"; }
for p in "$@"; do
  "$ftsim" run --replay "$dir/t" --protocol "$p" --set period="$period" \
    --set image_mb=0.01 --service-ranks 2 > "$dir/out" 2> "$dir/err"
  rc=$?
  cat "$dir/out"
  [ $rc -eq 0 ] || { cat "$dir/err"; fail "$p: exit $rc"; }
  grep -q '"verified":true' "$dir/out" || { grep replay: "$dir/err" | head; fail "$p: not verified"; }
  grep -q '"waves":[1-9]' "$dir/out" || fail "$p: no checkpoint"
done
