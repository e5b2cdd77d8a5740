/* swap_check: two receives from MPI_ANY_SOURCE with the same tag that MPI
 * matched in one order and the application completes in the other, across
 * the sender's checkpoint (the README's "C3" limit under
 * piggyback=separate: each piggyback is received at the delivery, the
 * first on its channel, so the two swap theirs).
 *
 * Usage: swap_check [ITERS [in-order|named]]   (default 40; 2 ranks or
 * more; in-order: the first receive completed first, the reference;
 * named: the receives name their source)
 *
 * Iteration k (a safe point at its top): every rank r > 0 sends rank 0
 * the value (2k - 1) * 100 + r (k > 0), computes, then sends 2k * 100 + r;
 * rank 0 receives the pair 2k, 2k + 1 of each sender, whose safe point
 * falls between the two (the last value goes after the loop). Rank
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
#include <string.h>

#include "ft.h"

/* Rank 0's side of iteration k: a pair from each sender, completed in
 * reverse order; the number of wrong values. */
static long receive_pairs(int size, long k, int in_order, int named) {
  long wrong = 0;
  for (int s = 1; s < size; s++) {
    long v[2] = {-1, -1};
    MPI_Request r[2];
    MPI_Status st[2];
    int from = named ? s : MPI_ANY_SOURCE;
    MPI_Irecv(&v[0], 1, MPI_LONG, from, 5 + s, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&v[1], 1, MPI_LONG, from, 5 + s, MPI_COMM_WORLD, &r[1]);
    int first = in_order ? 0 : 1;
    MPI_Wait(&r[first], &st[first]);
    MPI_Wait(&r[1 - first], &st[1 - first]);
    for (int i = 0; i < 2; i++)
      wrong += st[i].MPI_SOURCE != s || v[i] != (2 * k + i) * 100 + s;
  }
  if (wrong)
    fprintf(stderr, "swap_check: iteration %ld: %ld wrong values\n", k, wrong);
  return wrong;
}

static void send_value(long v, int rank) {
  MPI_Send(&v, 1, MPI_LONG, 0, 5 + rank, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 40, k = 0, errors = 0;
  int in_order = argc > 2 && strcmp(argv[2], "in-order") == 0;
  int named = argc > 2 && strcmp(argv[2], "named") == 0;
  if (iters < 1 || size < 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: swap_check [ITERS >= 1 [in-order|named]] (2 ranks or "
              "more)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    if (rank == 0) {
      errors += receive_pairs(size, k, in_order, named);
      continue;
    }
    if (k > 0) /* the second of pair k - 1: after this rank's safe point */
      send_value((2 * k - 1) * 100 + rank, rank);
    ft_compute(1e5 * (double)(1 + (rank + k) % 3));
    send_value(2 * k * 100 + rank, rank);
  }
  if (rank > 0)
    send_value((2 * iters - 1) * 100 + rank, rank);
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("swap_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every value checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
