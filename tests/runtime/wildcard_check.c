/* wildcard_check: receives from MPI_ANY_SOURCE whose matches the state
 * depends on, for c3's logged decisions (c3-collectives, section 2.3: "if a
 * global checkpoint depends on a non-deterministic event, that event will
 * re-occur the same way after restart").
 *
 * Usage: wildcard_check [ITERS [LAG]]   (default 60 iterations, LAG 0)
 *
 * Iteration k (a safe point at its top): every rank r > 0 computes for a
 * time that depends on r and k, then sends k * 100 + r to rank 0; rank 0
 * receives them with MPI_ANY_SOURCE (MPI_Recv on even iterations, MPI_Irecv
 * and MPI_Waitall on odd ones), checks each value against its source and
 * folds the order of the sources into h; it sends h to every other rank,
 * and every rank adds it to its sum. Under a protocol that checkpoints the
 * ranks at different iterations (c3), rank 0 checkpoints first: the others'
 * messages of that iteration are late, its h is early; if its re-execution
 * after a rollback matched the sources in another order (the late messages
 * come again all at once) its sum would differ from the sums the others'
 * checkpoints hold. With LAG > 0 rank 0 computes LAG flops after sending h:
 * the others pass the next safe point before it does, so that an epoch
 * the initiator starts in that gap straddles an iteration whatever the
 * piggyback's form (under piggyback=combined the ranks otherwise reach
 * each safe point together: no late message in 18 failure runs). At the
 * end every rank compares its sum with rank 0's
 * and the verdict goes to ft_report_result (exit 1 on any mismatch).
 * Protected: the iteration, the sum, the error count. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

/* Rank 0's receives of iteration k: the sources' order folded into h. */
static uint64_t gather_any(int size, long k, long *errors) {
  uint64_t h = (uint64_t)k + 1;
  long in[64];
  MPI_Status st[64];
  MPI_Request r[64];
  for (int i = 0; i < size - 1; i++) {
    if (k % 2 == 0)
      MPI_Recv(&in[i], 1, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st[i]);
    else
      MPI_Irecv(&in[i], 1, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &r[i]);
  }
  if (k % 2)
    MPI_Waitall(size - 1, r, st);
  unsigned seen = 0;
  for (int i = 0; i < size - 1; i++) {
    int s = st[i].MPI_SOURCE;
    *errors += s < 1 || s >= size || (seen >> s & 1) || in[i] != k * 100 + s;
    seen |= 1u << (s & 31);
    h = h * 31 + (uint64_t)s;
  }
  return h;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 60, k = 0, errors = 0;
  double lag = argc > 2 ? atof(argv[2]) : 0;
  uint64_t sum = 0;
  if (iters < 1 || lag < 0 || size < 2 || size > 32) {
    if (rank == 0)
      fprintf(
          stderr,
          "usage: wildcard_check [ITERS >= 1 [LAG >= 0]] (2 to 32 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, sum and errors */
    uint64_t h = 0;
    if (rank == 0) {
      h = gather_any(size, k, &errors);
      for (int d = 1; d < size; d++)
        MPI_Send(&h, 1, MPI_UINT64_T, d, 6, MPI_COMM_WORLD);
      if (lag > 0)
        ft_compute(lag);
    } else {
      long v = k * 100 + rank;
      ft_compute(2e5 * (double)(1 + (rank * 7 + k * 3) % 5));
      MPI_Send(&v, 1, MPI_LONG, 0, 5, MPI_COMM_WORLD);
      MPI_Recv(&h, 1, MPI_UINT64_T, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    sum += h;
  }
  uint64_t zero = sum;
  MPI_Bcast(&zero, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  long bad = errors + (sum != zero), all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("wildcard_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every match checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
