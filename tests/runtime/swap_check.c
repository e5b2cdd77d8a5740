/* swap_check: two receives from MPI_ANY_SOURCE with the same tag that MPI
 * matched in one order and the application completes in the other, across
 * the sender's checkpoint (the README's "C3" limit under
 * piggyback=separate: each piggyback is received at the delivery, the
 * first on its channel, so the two swap theirs).
 *
 * Usage: swap_check [ITERS]   (default 40; 2 ranks or more)
 *
 * Iteration k (a safe point at its top on rank 0): every rank r > 0 sends
 * rank 0 the value (2k) * 100 + r, reaches its own safe point, then sends
 * (2k + 1) * 100 + r: the sender's checkpoint falls between the two. Rank
 * 0 posts, per sender, two MPI_Irecv(MPI_ANY_SOURCE, tag 5 + sender) and
 * completes the second first (MPI_Wait), then the first. Rank 0 checkpoints
 * first (it initiates every epoch): the first message of a pair is late
 * (sent before its sender's checkpoint, received after rank 0's) and is
 * logged with the payload of the receive whose piggyback says so. Each
 * value is checked: after a rollback the late messages come again from the
 * log; a swapped piggyback logged the other message's payload and rank 0
 * receives a value twice. Wrong values are counted, summed and given to
 * ft_report_result (exit 1 on any). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

/* Rank 0's side of iteration k: a pair from each sender, completed in
 * reverse order; the number of wrong values. */
static long receive_pairs(int size, long k) {
  long wrong = 0;
  for (int s = 1; s < size; s++) {
    long v[2] = {-1, -1};
    MPI_Request r[2];
    MPI_Status st[2];
    MPI_Irecv(&v[0], 1, MPI_LONG, MPI_ANY_SOURCE, 5 + s, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&v[1], 1, MPI_LONG, MPI_ANY_SOURCE, 5 + s, MPI_COMM_WORLD, &r[1]);
    MPI_Wait(&r[1], &st[1]);
    MPI_Wait(&r[0], &st[0]);
    for (int i = 0; i < 2; i++)
      wrong += st[i].MPI_SOURCE != s || v[i] != (2 * k + i) * 100 + s;
  }
  if (wrong)
    fprintf(stderr, "swap_check: iteration %ld: %ld wrong values\n", k, wrong);
  return wrong;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 40, k = 0, errors = 0;
  if (iters < 1 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: swap_check [ITERS >= 1] (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    if (rank == 0) {
      ft_snapshot(); /* may restore k and errors */
      errors += receive_pairs(size, k);
      continue;
    }
    long v = 2 * k * 100 + rank;
    ft_compute(1e5 * (double)(1 + (rank + k) % 3));
    MPI_Send(&v, 1, MPI_LONG, 0, 5 + rank, MPI_COMM_WORLD);
    ft_snapshot(); /* may restore k and errors: the second send follows */
    v = (2 * k + 1) * 100 + rank;
    MPI_Send(&v, 1, MPI_LONG, 0, 5 + rank, MPI_COMM_WORLD);
  }
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("swap_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every value checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
