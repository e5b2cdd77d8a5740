/* test_check: a program that branches on what MPI_Test and MPI_Testall
 * found, for c3's logged decisions (c3-collectives, section 3.1, Phase
 * #2: a process logs "the result of every non-deterministic decision it
 * makes"; MPI_Test's flag is one: the request complete or not yet).
 *
 * Usage: test_check [ITERS [LAG]]   (default 60 iterations, LAG 0)
 * LAG > 0: rank 0 computes LAG flops after sending h, as in
 * wildcard_check (an epoch the initiator starts then straddles an iteration
 * under every piggyback form).
 *
 * Iteration k (a safe point at its top): every rank r > 0 computes for a
 * time that depends on r and k, sends k * 100 + r to rank 0, and receives
 * h from rank 0. Rank 0 posts one receive per source and polls them:
 *   k even  MPI_Test on each receive still pending, in turn: h folds the
 *           sources in the order the flags said complete, and how many
 *           calls said not yet;
 *   k odd   MPI_Testall until every receive is complete: h folds how many
 *           calls it took and which receives each completed (SMPI's
 *           MPI_Testall completes those that are done even when not all
 *           are, p2p.c).
 * Under c3, rank 0 checkpoints first: the others' messages of that
 * iteration are late and come again all at once after a rollback; unless
 * the re-execution is forced to the logged outcomes, rank 0's h differs
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
static void take(long v, int source, int size, long k, uint64_t *h,
                 long *errors) {
  *errors += source < 1 || source >= size || v != k * 100 + source;
  *h = *h * 31 + (uint64_t)source;
}

/* MPI_Test on each pending receive in turn until none is left. */
static void by_test(int n, MPI_Request r[], const long in[], long k,
                    uint64_t *h, long *errors) {
  int left = n;
  uint64_t misses = 0;
  while (left > 0)
    for (int i = 0; i < n; i++) {
      int flag = 0;
      if (r[i] == MPI_REQUEST_NULL)
        continue;
      MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
      if (!flag) {
        misses++;
        continue;
      }
      take(in[i], i + 1, n + 1, k, h, errors);
      left--;
    }
  *h = *h * 31 + misses;
}

/* MPI_Testall until it says all are complete. */
static void by_testall(int n, MPI_Request r[], const long in[], long k,
                       uint64_t *h, long *errors) {
  int flag = 0, done[MAX_RANKS] = {0};
  uint64_t calls = 0;
  while (!flag) {
    MPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE);
    calls++;
    for (int i = 0; i < n; i++)
      if (!done[i] && r[i] == MPI_REQUEST_NULL) {
        done[i] = 1;
        *h = *h * 7 + calls;
      }
  }
  for (int i = 0; i < n; i++)
    take(in[i], i + 1, n + 1, k, h, errors);
  *h = *h * 31 + calls;
}

static uint64_t gather_tested(int size, long k, long *errors) {
  uint64_t h = (uint64_t)k + 1;
  long in[MAX_RANKS];
  MPI_Request r[MAX_RANKS];
  int n = size - 1;
  for (int i = 0; i < n; i++)
    MPI_Irecv(&in[i], 1, MPI_LONG, i + 1, 5, MPI_COMM_WORLD, &r[i]);
  if (k % 2 == 0)
    by_test(n, r, in, k, &h, errors);
  else
    by_testall(n, r, in, k, &h, errors);
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
              "usage: test_check [ITERS >= 1 [LAG >= 0]] (2 to 32 ranks)\n");
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
      h = gather_tested(size, k, &errors);
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
    printf("test_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every outcome checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
