#!/bin/sh
# analysis/c3_collectives.sh --quick must exit 0 with its four runs
# verified and every line printed, and the verdicts of MPI_Bcast,
# MPI_Gather, MPI_Allgather and MPI_Scatter must say "reproduced".
# Usage: c3_collectives_quick.sh ROOT BUILD_DIR
out=$(sh "$1/analysis/c3_collectives.sh" --quick "$2" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || { echo "c3_collectives_quick.sh: exit status $rc"; exit 1; }
printf '%s\n' "$out" | grep -q '^c3_collectives: 4 runs, 132 lines, failed: 0$' ||
  { echo "c3_collectives_quick.sh: not 4 runs of 132 lines"; exit 1; }
for op in bcast gather allgather scatter; do
  printf '%s\n' "$out" | grep -q "^verdict $op: .*: reproduced\$" ||
    { echo "c3_collectives_quick.sh: MPI_$op's verdict is not reproduced"; exit 1; }
done
