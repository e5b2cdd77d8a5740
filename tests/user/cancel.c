/* cancel: receives the program cancels (issue 16's record/replay,
 * MPI_Cancel).
 *
 * Usage: cancel [STEPS]   (default 3) every step each rank posts an
 *                         MPI_Irecv no message will match (a tag nobody
 *                         sends), cancels it, completes it with MPI_Wait
 *                         (even steps) or an MPI_Test loop (odd steps) and
 *                         checks MPI_Test_cancelled; then a ring exchange
 *                         of its rank and a sum.
 *
 * Prints "cancel: N steps: verified" or FAILED and reports the verdict with
 * ft_report_result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

static int cancelled_one(int rank, int size, long s) {
  int x = 0, flag = 0, cancelled = 0;
  MPI_Request req;
  MPI_Status st;
  MPI_Irecv(&x, 1, MPI_INT, (rank + 1) % size, 99, MPI_COMM_WORLD, &req);
  MPI_Cancel(&req);
  if (s % 2 == 0)
    MPI_Wait(&req, &st);
  else
    while (!flag)
      MPI_Test(&req, &flag, &st);
  MPI_Test_cancelled(&st, &cancelled);
  return !cancelled + (req != MPI_REQUEST_NULL);
}

static int ring(int rank, int size) {
  int left = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 1, &left, 1, MPI_INT,
               (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return left != (rank + size - 1) % size;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long steps = argc > 1 ? atol(argv[1]) : 3, bad = 0, all = 0;
  for (long s = 0; s < steps; s++) {
    bad += cancelled_one(rank, size, s) + ring(rank, size);
    ft_compute(1e6);
  }
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("cancel: %ld steps: %s\n", steps, all ? "FAILED" : "verified");
  ft_report_result(all == 0, (double)steps);
  MPI_Finalize();
  return all != 0;
}
