/* prologue_check: point-to-point messages in main()'s prologue, before the
 * first safe point, then a ring whose every message is checked.
 *
 * Usage: prologue_check [ITERS]   (default 200)
 *
 * After a rollback to a checkpoint every rank runs main() again from the
 * top: the prologue's messages are exchanged again before the image is
 * restored at the first ft_snapshot. Under c3 its core counted them as the
 * first messages of the restored epoch and suppressed them as the early
 * messages of the recovery line: every run with a failure deadlocked
 * (c3, period 0.004, gige, `fail 1 at 0.010`). Iteration k (a safe point at
 * its top) computes for a time that depends on the rank and k, then sends
 * k * 10 + rank to the right and receives from the left; every value is
 * checked, the verdict goes to ft_report_result (exit 1 on a wrong one).
 * Protected: the iteration, the sum, the error count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 200;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  long v = rank, in = -1, k = 0, sum = 0, bad = 0;
  for (int i = 0; i < 3; i++) { /* the prologue's messages */
    MPI_Sendrecv(&v, 1, MPI_LONG, right, 1, &in, 1, MPI_LONG, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += in != left;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &bad, sizeof bad);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, sum and bad */
    long out = k * 10 + rank, got = -1;
    ft_compute(1e5 * (double)(1 + (rank * 3 + k) % 4));
    MPI_Sendrecv(&out, 1, MPI_LONG, right, 2, &got, 1, MPI_LONG, left, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += got != k * 10 + left;
    sum += got;
  }
  long all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("prologue_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every message checked");
  ft_report_result(all == 0, (double)sum);
  MPI_Finalize();
  return all != 0;
}
