/* drain_check: point-to-point messages in flight across every safe point,
 * for the on-line drain of the bookmark protocol (lam-mpi-blcr, sections
 * 3-5, Figure 9; sim/runtime/drain/drain.c): at a wave's safe point each
 * rank takes them off the wire into its drain buffer before it
 * checkpoints, and the receives after the safe point (and after a rollback
 * to it) are served from that buffer.
 *
 * Usage: drain_check [ITERS]   (default 40; 2 to 32 ranks)
 *
 * At the end of iteration k every rank sends its right neighbour message
 * k + 1 (tag 7, 1 + (k + 1) % 4 int64 words: word w = (k + 1) * 1000 +
 * rank * 10 + w) and, when k + 1 is a positive multiple of 5, a
 * second one (tag 8, two words: -(k + 1)), then reaches safe point k + 2
 * at the top of iteration k + 1: the relaxed contract of sim/ft.h under
 * bookmark (a message sent before the sender's safe point, received after
 * the receiver's). Iteration k receives message k from the left by a mode
 * that turns with k:
 *   0: MPI_Recv (left, tag 7), then the tag 8 message with MPI_ANY_TAG
 *      (MPI-3.1 3.5: it must come second) into one word, by MPI_Recv or
 *      (every other time) MPI_Irecv and MPI_Wait: truncated, the call
 *      must return MPI_ERR_TRUNCATE (MPI_ERRORS_RETURN) with the first word;
 *   1: MPI_Irecv and MPI_Wait;
 *   2: MPI_Probe (MPI_ANY_SOURCE, MPI_ANY_TAG), MPI_Get_count on its
 *      status, MPI_Recv of what it found;
 *   3: MPI_Iprobe (left, MPI_ANY_TAG) until it finds it, then MPI_Recv
 *      with MPI_ANY_SOURCE;
 *   4: MPI_Sendrecv (or, every other time, MPI_Sendrecv_replace): a tag 9
 *      message to the right (sent and received in the iteration) and
 *      message k from the left, then the tag 9 one.
 * Each receive checks its source, tag, MPI_Get_count and every word; an
 * MPI_Allreduce per iteration keeps the ranks in step. Every rank sums the
 * first words; at the end the sums are compared with their closed form
 * (no message lost, none delivered twice) and the verdict goes to
 * ft_report_result (exit 1 on any mismatch). Protected: the iteration,
 * the sum, the error count, the allreduce total. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { MAX_WORDS = 4 };

static int words_of(int64_t k) { return 1 + (int)(k % MAX_WORDS); }

static int64_t word(int64_t k, int r, int w) { return k * 1000 + r * 10 + w; }

/* Errors in message k from `left` received into in[] with status st. */
static long check(const int64_t *in, const MPI_Status *st, int64_t k,
                  int left) {
  int n = -1;
  MPI_Get_count(st, MPI_INT64_T, &n);
  long bad = (st->MPI_SOURCE != left) + (st->MPI_TAG != 7) + (n != words_of(k));
  for (int w = 0; w < n && w < MAX_WORDS; w++)
    bad += in[w] != word(k, left, w);
  return bad;
}

/* Sends message k (and its tag 8 companion) to `right`. */
static void send_ahead(int64_t k, int rank, int right) {
  int64_t out[MAX_WORDS];
  for (int w = 0; w < words_of(k); w++)
    out[w] = word(k, rank, w);
  MPI_Send(out, words_of(k), MPI_INT64_T, right, 7, MPI_COMM_WORLD);
  if (k > 0 && k % 5 == 0) {
    int64_t tail[2] = {-k, -k};
    MPI_Send(tail, 2, MPI_INT64_T, right, 8, MPI_COMM_WORLD);
  }
}

/* Receives message k from `left` by the mode of k; returns its errors
 * and adds its first word to *sum. */
static long receive(int64_t k, int rank, int left, int right, int64_t *sum) {
  int64_t in[MAX_WORDS] = {0};
  MPI_Status st;
  MPI_Request req;
  long bad = 0;
  int flag = 0, n = 0;
  switch (k % 5) {
  case 0:
    MPI_Recv(in, MAX_WORDS, MPI_INT64_T, left, 7, MPI_COMM_WORLD, &st);
    break;
  case 1:
    MPI_Irecv(in, MAX_WORDS, MPI_INT64_T, left, 7, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    break;
  case 2:
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT64_T, &n);
    bad += (st.MPI_SOURCE != left) + (st.MPI_TAG != 7) + (n != words_of(k));
    MPI_Recv(in, MAX_WORDS, MPI_INT64_T, st.MPI_SOURCE, st.MPI_TAG,
             MPI_COMM_WORLD, &st);
    break;
  case 3:
    while (!flag)
      MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MPI_Get_count(&st, MPI_INT64_T, &n);
    bad += (st.MPI_TAG != 7) + (n != words_of(k));
    MPI_Recv(in, MAX_WORDS, MPI_INT64_T, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
             &st);
    break;
  default: {
    int64_t mine = word(k, rank, 9), theirs[MAX_WORDS] = {0};
    if ((k / 5) % 2) { /* in[] goes right, message k comes into it */
      for (int w = 0; w < MAX_WORDS; w++)
        in[w] = mine;
      MPI_Sendrecv_replace(in, MAX_WORDS, MPI_INT64_T, right, 9, left, 7,
                           MPI_COMM_WORLD, &st);
    } else
      MPI_Sendrecv(&mine, 1, MPI_INT64_T, right, 9, in, MAX_WORDS, MPI_INT64_T,
                   left, 7, MPI_COMM_WORLD, &st);
    MPI_Recv(theirs, MAX_WORDS, MPI_INT64_T, left, 9, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    bad += theirs[0] != word(k, left, 9);
  }
  }
  bad += check(in, &st, k, left);
  *sum += in[0];
  if (k > 0 && k % 5 == 0) { /* the tag 8 message, sent after message k */
    int64_t tail = 0;
    int rc, cls = MPI_SUCCESS;
    if ((k / 5) % 2) {
      MPI_Irecv(&tail, 1, MPI_INT64_T, left, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
      rc = MPI_Wait(&req, &st);
    } else
      rc = MPI_Recv(&tail, 1, MPI_INT64_T, left, MPI_ANY_TAG, MPI_COMM_WORLD,
                    &st);
    MPI_Error_class(rc, &cls);
    bad += (tail != -k) + (st.MPI_TAG != 8) + (cls != MPI_ERR_TRUNCATE);
  }
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t iters = argc > 1 ? atoll(argv[1]) : 40;
  if (iters < 1 || size < 2 || size > 32) {
    if (rank == 0)
      fprintf(stderr, "usage: drain_check [ITERS >= 1] (2 to 32 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* truncation */
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int64_t k = 0, sum = 0, total = 0;
  long errors = 0;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &errors, sizeof errors);
  ft_protect(3, &total, sizeof total);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, sum, errors, total */
    if (k == 0)
      send_ahead(0, rank, right);
    errors += receive(k, rank, left, right, &sum);
    ft_compute(2e6 * (1 + rank % 3));
    int64_t one = 1, all = 0;
    MPI_Allreduce(&one, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    total += all;
    if (k + 1 < iters) /* message k + 1 leaves before safe point k + 2 */
      send_ahead(k + 1, rank, right);
  }
  int64_t expect_sum = 0;
  for (int64_t i = 0; i < iters; i++)
    expect_sum += word(i, left, 0);
  long bad = errors + (sum != expect_sum) + (total != iters * size), all_bad;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("drain_check: %lld iterations, %s\n", (long long)iters,
           all_bad ? "FAILED" : "every message checked");
  ft_report_result(all_bad == 0, (double)sum);
  MPI_Finalize();
  return all_bad ? 1 : 0;
}
