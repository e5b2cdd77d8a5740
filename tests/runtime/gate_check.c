/* gate_check: the collective calls the runtime passes to the MPI library
 * (the creations of communicators), made again and again while failures
 * hit, to check that none of them can deadlock a recovery (issue 13: lu's
 * final MPI_Comm_split under `fail 1 at 0.385`).
 *
 * Usage: gate_check [ITERS]   (default 30)
 *
 * Each iteration (a safe point at its top) computes for a time that depends
 * on the rank, so that the ranks reach the calls at different moments and a
 * failure finds some inside a call and others still computing; then it makes
 * MPI_Comm_split (by parity), MPI_Comm_dup, MPI_Comm_create (the first half
 * of the ranks), MPI_Cart_create (a periodic ring) and an allreduce on each,
 * and frees them. Every result is checked against its closed form; the
 * number of wrong ones is reduced at the end and given to ft_report_result
 * (the summary's "verified"); exit 1 on any. Protected: the iteration and
 * the error count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

/* The sum of the ranks r of [0, size) with r % 2 == parity. */
static long parity_sum(int size, int parity) {
  long s = 0;
  for (int r = parity; r < size; r += 2)
    s += r;
  return s;
}

/* One allreduce of the world ranks on `c`: 1 if it is not `expect`. */
static long sum_is(MPI_Comm c, long rank, long expect) {
  long all = -1;
  MPI_Allreduce(&rank, &all, 1, MPI_LONG, MPI_SUM, c);
  return all != expect;
}

static long split_dup(int rank, int size) {
  MPI_Comm half, twin;
  long bad = 0;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  bad += sum_is(half, rank, parity_sum(size, rank % 2));
  MPI_Comm_dup(half, &twin);
  bad += sum_is(twin, rank, parity_sum(size, rank % 2));
  MPI_Comm_free(&twin);
  MPI_Comm_free(&half);
  return bad;
}

static long create_cart(int rank, int size) {
  MPI_Group world, first;
  MPI_Comm low, ring;
  int n = (size + 1) / 2, range[1][3] = {{0, n - 1, 1}}, dims[1] = {size},
      periods[1] = {1};
  long bad = 0;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_range_incl(world, 1, range, &first);
  MPI_Comm_create(MPI_COMM_WORLD, first, &low);
  bad += (rank < n) != (low != MPI_COMM_NULL);
  if (low != MPI_COMM_NULL) {
    bad += sum_is(low, rank, (long)n * (n - 1) / 2);
    MPI_Comm_free(&low);
  }
  MPI_Group_free(&first);
  MPI_Group_free(&world);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  bad += sum_is(ring, rank, (long)size * (size - 1) / 2);
  MPI_Comm_free(&ring);
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 30, k = 0, errors = 0, all = 0;
  if (iters < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: gate_check [ITERS >= 1]\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    ft_compute(1e6 * (1 + rank));
    errors += split_dup(rank, size);
    ft_compute(1e6 * (size - rank));
    errors += create_cart(rank, size);
  }
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("gate_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every creation checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
