/* ahead_check: a ring whose messages cross safe points, to exercise the
 * channel state of non-blocking checkpoints (vcl).
 *
 * Usage: ahead_check [ITERS [WORDS [uneven|far]]]   (defaults 40 and 4)
 *
 * With "far" every message is one element of a datatype of WORDS int64
 * resized to an extent of 3 GiB: vcl's channel state packs the messages it
 * records, and SMPI 3.32's MPI_Pack_size gives count x extent cut to an
 * int, negative here (issue 14, item 5; sim/runtime/pack.c).
 *
 * With "uneven" the ring runs on a duplicate of MPI_COMM_WORLD made after an
 * MPI_Comm_create that gives only the first half of the ranks a
 * communicator (kept to the end), and after rank 0 alone used MPI_COMM_SELF:
 * the ranks' tables of communicators then differ, and the channel state must
 * still name the ring the same way on every rank (issue 13: records named a
 * communicator by its index in each rank's table, and the sender replayed on
 * another communicator).
 *
 * Iteration k (safe point k + 1 at its top) receives from the left the
 * message the left neighbour sent at the end of iteration k - 1, i.e.
 * BEFORE that neighbour's safe point k + 1: every message is in transit
 * across the cut of a wave at any index (a forward crossing, which the
 * application contract of ft.h allows only under a protocol that records
 * channel state). An allreduce per iteration keeps the ranks in step.
 *
 * Message k from rank r carries WORDS int64: word w = k * 1000 + r * 10 + w.
 * Every rank checks each word it receives and sums the first word; at the
 * end the sums are reduced and compared with their closed form, and the
 * verdict goes to ft_report_result (the summary's "verified"). The run
 * fails (exit 1) on any mismatch. Protected: the iteration, the sum, the
 * error count, the allreduce total. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

static int64_t word(int64_t k, int r, int w) { return k * 1000 + r * 10 + w; }

static void fill(int64_t *msg, int words, int64_t k, int r) {
  for (int w = 0; w < words; w++)
    msg[w] = word(k, r, w);
}

static long check(const int64_t *msg, int words, int64_t k, int r) {
  long bad = 0;
  for (int w = 0; w < words; w++)
    bad += msg[w] != word(k, r, w);
  return bad;
}

/* The first half of the ranks get `low`, the others MPI_COMM_NULL; then
 * every rank duplicates MPI_COMM_WORLD into `ring`. */
static void uneven(int rank, int size, MPI_Comm *low, MPI_Comm *ring) {
  MPI_Group world, first;
  int range[1][3] = {{0, (size + 1) / 2 - 1, 1}};
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_range_incl(world, 1, range, &first);
  MPI_Comm_create(MPI_COMM_WORLD, first, low);
  if ((*low != MPI_COMM_NULL) != (rank < (size + 1) / 2))
    fprintf(stderr, "ahead_check: rank %d: wrong MPI_Comm_create\n", rank);
  MPI_Group_free(&first);
  MPI_Group_free(&world);
  if (rank == 0) /* rank 0 alone meets MPI_COMM_SELF, a table entry more */
    MPI_Barrier(MPI_COMM_SELF);
  MPI_Comm_dup(MPI_COMM_WORLD, ring);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t iters = argc > 1 ? atoll(argv[1]) : 40;
  int words = argc > 2 ? atoi(argv[2]) : 4;
  if (iters < 1 || words < 1) {
    if (rank == 0)
      fprintf(stderr,
              "usage: ahead_check [ITERS >= 1 [WORDS >= 1 [uneven]]]\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm ring = MPI_COMM_WORLD, low = MPI_COMM_NULL;
  int far = argc > 3 && strcmp(argv[3], "far") == 0, count = words;
  MPI_Datatype type = MPI_INT64_T;
  if (argc > 3 && !far) /* "uneven" */
    uneven(rank, size, &low, &ring);
  if (far) { /* one element of WORDS int64, extent 3 GiB */
    MPI_Datatype block;
    MPI_Type_contiguous(words, MPI_INT64_T, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)3 << 30, &type);
    MPI_Type_free(&block);
    MPI_Type_commit(&type);
    count = 1;
  }
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int64_t *in = malloc((size_t)words * sizeof *in);
  int64_t *out = malloc((size_t)words * sizeof *out);
  int64_t k = 0, sum = 0, total = 0;
  long errors = 0;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &errors, sizeof errors);
  ft_protect(3, &total, sizeof total);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, sum, errors, total */
    if (k == 0) {
      fill(out, words, 0, rank);
      MPI_Send(out, count, type, right, 7, ring);
    }
    MPI_Recv(in, count, type, left, 7, ring, MPI_STATUS_IGNORE);
    errors += check(in, words, k, left);
    sum += in[0];
    ft_compute(2e6);
    int64_t one = 1, all = 0;
    MPI_Allreduce(&one, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    total += all;
    if (k + 1 < iters) { /* message k + 1 leaves before safe point k + 2 */
      fill(out, words, k + 1, rank);
      MPI_Send(out, count, type, right, 7, ring);
    }
  }
  int64_t expect_sum = 0;
  for (int64_t i = 0; i < iters; i++)
    expect_sum += word(i, left, 0);
  long bad = errors + (sum != expect_sum) + (total != iters * size), all_bad;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("ahead_check: %lld iterations, %s\n", (long long)iters,
           all_bad ? "FAILED" : "all messages checked");
  if (low != MPI_COMM_NULL)
    MPI_Comm_free(&low);
  if (ring != MPI_COMM_WORLD)
    MPI_Comm_free(&ring);
  if (far)
    MPI_Type_free(&type);
  ft_report_result(all_bad == 0, (double)sum);
  free(in);
  free(out);
  MPI_Finalize();
  return all_bad ? 1 : 0;
}
