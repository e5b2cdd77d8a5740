/* A restarted rank runs its own copy of main (issue 18, item 1). Under SMPI
 * each rank has its own copy of the program (dlopen privatization), with
 * its own globals, and the runtime is one shared library for all of them:
 * a restart must run the main of the rank's copy (ft_backend_entry_points),
 * not the one the shared library's weak `main` names (one copy for every
 * rank: rank 1's restart ran rank 0's main, with rank 0's globals, and the
 * run still verified). This program notes its rank in a global of its copy
 * in its first life; a later life of main that finds another rank's there
 * runs in the wrong copy. Safe points and an allreduce per iteration, so
 * that a failure (own_main_failure.txt) restarts a rank in the middle.
 *
 * Usage: own_main_check [iterations] (default 200); prints "own_main_check:
 * N iterations, L lives" or "own_main_check: FAILED ...". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

static int copy_rank = -1; /* the rank whose copy this is, once known */
static int lives;          /* lives of main in this copy */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int wrong = copy_rank >= 0 && copy_rank != rank;
  if (wrong)
    fprintf(stderr, "own_main_check: FAILED, rank %d runs rank %d's main\n",
            rank, copy_rank);
  copy_rank = rank;
  lives++;
  int iters = argc > 1 ? atoi(argv[1]) : 200;
  int it = 0;
  double sum = 0;
  ft_protect(0, &it, sizeof it);
  ft_protect(1, &sum, sizeof sum);
  ft_snapshot();
  while (it < iters) { /* a restored image resumes at iteration `it` */
    double mine = rank + it, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += all;
    it++;
    ft_compute(1e5);
    ft_snapshot();
  }
  int size, bad = wrong, any = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double expected = 0;
  for (int i = 0; i < iters; i++)
    expected += size * (size - 1) / 2.0 + (double)size * i;
  bad += sum != expected;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && !any)
    printf("own_main_check: %d iterations, %d lives\n", iters, lives);
  else if (rank == 0)
    printf("own_main_check: FAILED, %d ranks wrong\n", any);
  ft_report_result(any == 0, sum);
  MPI_Finalize();
  return any == 0 ? 0 : 1;
}
