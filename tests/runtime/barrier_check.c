/* barrier_check: a program with no ft_snapshot whose barriers are its
 * potential checkpoint locations (c3-collectives, section 5.4, Figure 8:
 * under c3 with c3_barrier_checkpoint=1 every MPI_Barrier is one).
 *
 * Usage: barrier_check [ITERS]   (default 60)
 *
 * Iteration k: every rank computes for a time that depends on its rank and
 * k, sends k * 1000 + rank to the next rank of a ring and receives the
 * previous one's, which it checks and adds to its sum, then calls
 * MPI_Barrier (the end of the iteration's work: the state a checkpoint
 * there holds). Without the option c3 never checkpoints this program; with
 * it a rank asked to checkpoint does so at its next barrier, and so does
 * every rank of that barrier (it saw an epoch ahead). After a rollback,
 * main() runs again to its first barrier, where the image is restored (k,
 * the sum, the error count) and the run goes on from the iteration after
 * the checkpoint's. At the end the sums are compared with their closed
 * form and the verdict goes to ft_report_result (exit 1 on a mismatch).
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
  long iters = argc > 1 ? atol(argv[1]) : 60, k = 0, errors = 0, sum = 0;
  if (iters < 1 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: barrier_check [ITERS >= 1] (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &errors, sizeof errors);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (; k < iters; k++) {
    long out = k * 1000 + rank, in = -1;
    ft_compute(2e5 * (double)(1 + (rank * 7 + k * 3) % 5));
    MPI_Sendrecv(&out, 1, MPI_LONG, next, 3, &in, 1, MPI_LONG, prev, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    errors += in != k * 1000 + prev;
    sum += in;
    MPI_Barrier(MPI_COMM_WORLD); /* a potential checkpoint location */
  }
  long want = 1000 * iters * (iters - 1) / 2 + iters * (long)prev;
  long bad = errors + (sum != want), all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("barrier_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every sum checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
