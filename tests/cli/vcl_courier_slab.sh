#!/bin/sh
# A courier keeps its small messages in slots of one slab that grows
# (sim/courier_smpi.c, slot_take), not in a malloc'ed block each (issue 18,
# item 2: 638,400 markers and CUTs in two vcl waves on 400 ranks). ring on
# 81 ranks of gige, vcl, period 10 ms: 17 waves of 2 x 80 quiet messages
# to each rank, more than 64 of them held at once by every rank's courier
# (each slab grew from 64 slots to 128, counted once with a print), so the
# slots are handed out, grown, freed and reused. The run must stay verified
# with its 17 waves and end at the simulated time it had when every
# message was a block of its own (0.489890704 s, 8026d38): the same due
# times, the same order, the same bytes.
# Usage: vcl_courier_slab.sh FTSIM
set -u
ftsim=$1
out=$("$ftsim" run --platform gige --app ring --np 81 --protocol vcl \
  --set period=0.01 2>&1) || {
  echo "vcl_courier_slab.sh: the run failed:"
  printf '%s\n' "$out" | tail -n 5
  exit 1
}
summary=$(printf '%s\n' "$out" | grep '"protocol":"vcl"')
for want in '"verified":true' '"waves":17,' '"completion_time_s":0.489890704,'; do
  case $summary in
  *"$want"*) ;;
  *)
    echo "vcl_courier_slab.sh: the summary lacks $want:"
    printf '%s\n' "$summary"
    exit 1
    ;;
  esac
done
echo "vcl_courier_slab.sh: OK"
