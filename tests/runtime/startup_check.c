/* startup_check: MPI_Init makes only the communicators the run needs (issue
 * 18, item 1). Under SMPI's `ompi` collective selector every communicator
 * SMPI 3.32 makes broadcasts its id with an algorithm that first runs
 * Comm::init_smp (two ring allgathers: O(p^2) messages and p - 1 latencies)
 * from 64 ranks on; the runtime's MPI_Init made three (the world split, the
 * control duplicate, the collectives' shadow), 70% of the gap between
 * `none` and plain SMPI at 1,024 ranks. Run at 64 ranks with
 * --cfg=smpi/coll-selector:ompi, this program measures, in simulated time,
 * how long MPI_Init took (until its first statement) against one
 * MPI_Comm_dup of its own, which pays two constructions under the runtime
 * (the communicator and its shadow), and fails when MPI_Init cost more
 * than STARTUP_MOST of those (0.75 unless set). Measured: MPI_Init made
 * 1.5 of them before, 0.54 after under `none` with no service rank (one
 * construction, the shadow), 1.05 with a service rank (the split too). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double init = MPI_Wtime(); /* SMPI starts every rank at 0 */
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  double one = MPI_Wtime() - init;
  double local[2] = {init, one}, max[2];
  MPI_Allreduce(local, max, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *env = getenv("STARTUP_MOST");
  double most = env ? atof(env) : 0.75;
  int ok = max[1] > 0 && max[0] <= most * max[1];
  if (rank == 0)
    printf("startup_check: MPI_Init %.9f s, one MPI_Comm_dup %.9f s: %.2f "
           "dups%s\n",
           max[0], max[1], max[1] > 0 ? max[0] / max[1] : 0.0,
           ok ? "" : " (too many: FAIL)");
  MPI_Comm_free(&dup);
  ft_report_result(ok, max[0]);
  MPI_Finalize();
  return 0;
}
