/* nd_check: non-deterministic choices other than a wildcard receive's
 * match, which the state depends on, for c3's logged decisions
 * (c3-collectives, section 3.1, Phase #2: a process logs "the result of
 * every non-deterministic decision it makes"): probes and completion calls.
 *
 * Usage: nd_check [ITERS [LAG]]   (default 60 iterations, LAG 0)
 * LAG > 0: rank 0 computes LAG flops after sending h, as in
 * wildcard_check (an epoch the initiator starts then straddles an iteration
 * under every piggyback form).
 *
 * As wildcard_check: iteration k (a safe point at its top), every rank r >
 * 0 computes for a time that depends on r and k, sends k * 100 + r to rank
 * 0, and receives h from rank 0; rank 0 learns the order in which the
 * values arrive and folds the sources' order into h, in turn by
 *   k % 4 == 0  MPI_Irecv from each source, then MPI_Waitany;
 *   k % 4 == 1  MPI_Irecv from each source, then MPI_Testany in a loop;
 *   k % 4 == 2  MPI_Iprobe(MPI_ANY_SOURCE) in a loop, then MPI_Recv from
 *               the source it found (MPI_Probe(MPI_ANY_SOURCE) every other
 *               time);
 *   k % 4 == 3  MPI_Irecv from each source, then MPI_Testsome (or
 *               MPI_Waitsome every other time) in a loop.
 * Under c3, rank 0 checkpoints first: the others' messages of that
 * iteration are late and come again all at once after a rollback; unless
 * the re-execution is forced to the logged choices, rank 0's h differs
 * from the one the others' checkpoints hold, and so does its sum. Every
 * rank compares its sum with rank 0's; the verdict goes to
 * ft_report_result (exit 1 on any mismatch). Protected: the iteration, the
 * sum, the error count. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { MAX_RANKS = 32 };

/* One value in from `source`: checked, and its source folded into h. */
static void take(long v, int source, int size, long k, unsigned *seen,
                 uint64_t *h, long *errors) {
  *errors += source < 1 || source >= size || (*seen >> source & 1) ||
             v != k * 100 + source;
  *seen |= 1u << (source & 31);
  *h = *h * 31 + (uint64_t)source;
}

/* Completion calls over one receive per source. */
static void by_completion(int size, long k, unsigned *seen, uint64_t *h,
                          long *errors) {
  long in[MAX_RANKS];
  MPI_Request r[MAX_RANKS];
  int n = size - 1, left = n;
  for (int i = 0; i < n; i++)
    MPI_Irecv(&in[i], 1, MPI_LONG, i + 1, 5, MPI_COMM_WORLD, &r[i]);
  while (left > 0) {
    int idx[MAX_RANKS], got = 0, flag = 0;
    if (k % 4 == 0) {
      MPI_Waitany(n, r, &idx[0], MPI_STATUS_IGNORE);
      got = 1;
    } else if (k % 4 == 1) {
      MPI_Testany(n, r, &idx[0], &flag, MPI_STATUS_IGNORE);
      got = flag && idx[0] != MPI_UNDEFINED;
    } else if (k % 8 == 3) {
      MPI_Testsome(n, r, &got, idx, MPI_STATUSES_IGNORE);
    } else {
      MPI_Waitsome(n, r, &got, idx, MPI_STATUSES_IGNORE);
    }
    for (int j = 0; j < got; j++)
      take(in[idx[j]], idx[j] + 1, size, k, seen, h, errors);
    left -= got > 0 ? got : 0;
  }
}

/* A probe for any source, then the receive of what it found. */
static void by_probe(int size, long k, unsigned *seen, uint64_t *h,
                     long *errors) {
  for (int i = 0; i < size - 1; i++) {
    MPI_Status st;
    int flag = 0;
    if (k % 8 == 2)
      while (!flag)
        MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &st);
    else
      MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
    long v;
    MPI_Recv(&v, 1, MPI_LONG, st.MPI_SOURCE, 5, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    take(v, st.MPI_SOURCE, size, k, seen, h, errors);
  }
}

static uint64_t gather_nd(int size, long k, long *errors) {
  uint64_t h = (uint64_t)k + 1;
  unsigned seen = 0;
  if (k % 4 == 2)
    by_probe(size, k, &seen, &h, errors);
  else
    by_completion(size, k, &seen, &h, errors);
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
  if (iters < 1 || lag < 0 || size < 2 || size > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr,
              "usage: nd_check [ITERS >= 1 [LAG >= 0]] (2 to 32 ranks)\n");
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
      h = gather_nd(size, k, &errors);
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
    printf("nd_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every choice checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
