#!/bin/sh
# c3 with c3_barrier_checkpoint=1 (c3-collectives Figure 8) on a program
# whose barriers are its only potential checkpoint locations: the run must
# be verified, commit at least one epoch, and every rank must take each
# epoch's checkpoint at the same safe point (the same barrier: "the entire
# recovery line will be behind that MPI_Barrier on all the processors"),
# as the traces' ckpt records say (docs/traces.md: TIME RANK INC ckpt WAVE
# INDEX).
# Usage: barrier_waves.sh RUN_SMPI PLATFORM PROGRAM ITERS
set -u
run_smpi=$1 platform=$2 program=$3 iters=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
FTSIM_OPTIONS="protocol=c3,period=0.002,c3_barrier_checkpoint=1,trace=$tmp/t" \
  sh "$run_smpi" "$platform" 4 1 "every sum checked" "$program" "$iters" \
  >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
waves=$(grep -o '"waves":[0-9]*' "$tmp/out" | cut -d: -f2)
[ "${waves:-0}" -gt 0 ] || { cat "$tmp/out"; echo "barrier_waves.sh: no epoch committed"; exit 1; }
bad=$(cat "$tmp"/t.[0-9]* | awk '$4 == "ckpt" { print $5, $6 }' | sort -u |
  awk '{ n[$1]++ } END { for (w in n) if (n[w] > 1) print w }')
[ -z "$bad" ] || { echo "barrier_waves.sh: epochs checkpointed at different barriers: $bad"; exit 1; }
echo "barrier_waves.sh: $waves epochs, each at one barrier on every rank"
