#!/bin/sh
# One collective call is ONE unit in the combined form (c3-collectives
# section 6; sim/runtime/coll_combined.c): coll_loop_check
# (tests/runtime/coll_loop_check.c), failure-free and traced, under
# OPTIONS (piggyback=combined, or auto below piggyback_unit_bytes). Every
# rank's trace must hold exactly one `coll ... combined` line
# (docs/traces.md) per MPI_Bcast, MPI_Scatter, MPI_Gather, MPI_Allgather
# and MPI_Alltoall call the program made (each iteration one of each, plus
# the prologue's bcast), and no `send` or `deliver` of a collective's message
# (CH `c`): the bits do not ride on the algorithm's messages one by one
# (before, under combined, every internal message carried them: hundreds
# of such lines per rank and no `coll` line).
#
# Usage: c3_combined_unit_trace.sh RUN_SMPI PLATFORM PROGRAM OPTIONS
set -u
run_smpi=$1 platform=$2 program=$3 options=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! FTSIM_OPTIONS="$options,trace=$tmp/trace" sh "$run_smpi" "$platform" 4 1 \
  "coll_loop_check: [0-9]+ iterations, every [a-z]+ checked" "$program" \
  >"$tmp/out" 2>&1; then
  echo "c3_combined_unit_trace: the run failed"
  cat "$tmp/out"
  exit 1
fi
iters=$(sed -n 's/^coll_loop_check: \([0-9]*\) iterations.*/\1/p' "$tmp/out")
bad=0
for t in "$tmp"/trace.*; do
  awk -v iters="$iters" -v name="$(basename "$t")" '
    $4 == "coll" && $8 == "combined" { n[$6]++ }
    ($4 == "send" || $4 == "deliver") && $6 == "c" { msgs++ }
    END {
      want[2] = iters + 1; want[3] = iters; want[4] = iters; want[7] = iters; want[8] = iters
      bad = 0
      for (k in want)
        if (n[k] + 0 != want[k]) {
          printf "%s: call %d: %d combined units, expected %d\n", name, k,
                 n[k], want[k]
          bad = 1
        }
      for (k in n)
        if (!(k in want)) {
          printf "%s: call %d combined (no combined form)\n", name, k
          bad = 1
        }
      if (msgs + 0 > 0) {
        printf "%s: %d collective messages traced one by one\n", name, msgs
        bad = 1
      }
      exit bad
    }' "$t" || bad=1
done
[ "$bad" -eq 0 ] && echo "c3_combined_unit_trace: $iters iterations, one unit per call"
[ "$bad" -eq 0 ]
