/* at_once_check: what the completion calls report for sends that SMPI
 * completes when they are posted (a standard send under
 * smpi/send-is-detached-thresh, 64 KiB), among receives, a synchronous send
 * and a send too long to be detached. Under a protocol that recovers, the
 * runtime completes such a send itself (sim/runtime/pending.c) where SMPI's
 * MPI_Waitany would hand it back at once: the same index first, the same
 * status (source, tag, count, error), the same simulated time.
 *
 * Each iteration (a safe point at its top), on a ring: an MPI_Waitany loop
 * over [4 receives, a long send, a synchronous send, 2 short sends], an
 * MPI_Waitall with statuses of 3 short sends and 3 receives, an MPI_Wait of
 * a short send, an MPI_Sendrecv and an MPI_Send. Every completion's index
 * and status are folded into a checksum, reported as the run's result
 * (ft_report_result): at_once_time.sh runs it under none and under
 * protocols that recover, and the checksums and completion times must be
 * equal. Every received value is checked (exit 1 on a wrong one).
 *
 * Usage: at_once_check [ITERS]   (default 20; 2 ranks or more) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { SHORT = 16, LONG = 20000 }; /* doubles: 128 B, 160 kB */

static double value(long k, int from, int tag, int i) {
  return (double)k * 1e6 + (double)from * 1e4 + tag * 100 + (double)i;
}

static void fill(double *buf, int n, long k, int rank, int tag) {
  for (int i = 0; i < n; i++)
    buf[i] = value(k, rank, tag, i);
}

static long bad_values(const double *in, int n, long k, int from, int tag) {
  long bad = 0;
  for (int i = 0; i < n; i++)
    bad += in[i] != value(k, from, tag, i);
  return bad;
}

/* Folds what a completion reported into *sum: the index, then the status
 * (every field MPI defines, and the count in bytes). */
static void fold(uint64_t *sum, int index, const MPI_Status *st) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  const int64_t v[5] = {index, st->MPI_SOURCE, st->MPI_TAG, st->MPI_ERROR,
                        count};
  for (int i = 0; i < 5; i++)
    *sum = (*sum ^ (uint64_t)v[i]) * 1099511628211u; /* FNV-1a's prime */
}

struct bufs {
  double *out[4], *in[4];
};

/* The MPI_Waitany loop: receives of tags 1-4 from left; to right a long
 * send (tag 2), a synchronous one (3) and short ones (1, 4). */
static long waitany_loop(long k, int rank, int left, int right, struct bufs *b,
                         uint64_t *sum) {
  static const int n[4] = {SHORT, LONG, SHORT, SHORT};
  MPI_Request r[8];
  for (int t = 0; t < 4; t++) {
    MPI_Irecv(b->in[t], n[t], MPI_DOUBLE, left, t + 1, MPI_COMM_WORLD, &r[t]);
    fill(b->out[t], n[t], k, rank, t + 1);
  }
  MPI_Isend(b->out[1], LONG, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &r[4]);
  MPI_Issend(b->out[2], SHORT, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &r[5]);
  MPI_Isend(b->out[0], SHORT, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[6]);
  MPI_Isend(b->out[3], SHORT, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r[7]);
  for (;;) {
    int i;
    MPI_Status st;
    MPI_Waitany(8, r, &i, &st);
    if (i == MPI_UNDEFINED)
      break;
    fold(sum, i, &st);
  }
  long bad = 0;
  for (int t = 0; t < 4; t++)
    bad += bad_values(b->in[t], n[t], k, left, t + 1);
  return bad;
}

/* MPI_Waitall with statuses of three short sends to right and three
 * receives from left, interleaved (tag 5); MPI_Wait of a short send (tag
 * 6). */
static long waitall_wait(long k, int rank, int left, int right, struct bufs *b,
                         uint64_t *sum) {
  MPI_Request r[6], w, wr;
  MPI_Status st[6], s;
  fill(b->out[0], 3 * SHORT, k, rank, 5);
  for (int j = 0; j < 3; j++) {
    MPI_Irecv(b->in[0] + SHORT * j, SHORT, MPI_DOUBLE, left, 5, MPI_COMM_WORLD,
              &r[2 * j + 1]);
    MPI_Isend(b->out[0] + SHORT * j, SHORT, MPI_DOUBLE, right, 5,
              MPI_COMM_WORLD, &r[2 * j]);
  }
  MPI_Irecv(b->in[2], SHORT, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &wr);
  MPI_Waitall(6, r, st);
  for (int j = 0; j < 6; j++)
    fold(sum, j, &st[j]);
  fill(b->out[2], SHORT, k, rank, 6);
  MPI_Isend(b->out[2], SHORT, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &w);
  MPI_Wait(&w, &s);
  fold(sum, 0, &s);
  MPI_Wait(&wr, &s);
  fold(sum, 0, &s);
  return bad_values(b->in[0], 3 * SHORT, k, left, 5) +
         bad_values(b->in[2], SHORT, k, left, 6);
}

/* MPI_Sendrecv (tag 7) and MPI_Send (tag 8) of short messages. */
static long blocking(long k, int rank, int left, int right, struct bufs *b,
                     uint64_t *sum) {
  MPI_Status st;
  fill(b->out[0], SHORT, k, rank, 7);
  MPI_Sendrecv(b->out[0], SHORT, MPI_DOUBLE, right, 7, b->in[0], SHORT,
               MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &st);
  fold(sum, 0, &st);
  MPI_Request r;
  MPI_Irecv(b->in[1], SHORT, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &r);
  fill(b->out[1], SHORT, k, rank, 8);
  MPI_Send(b->out[1], SHORT, MPI_DOUBLE, right, 8, MPI_COMM_WORLD);
  MPI_Wait(&r, &st);
  fold(sum, 0, &st);
  return bad_values(b->in[0], SHORT, k, left, 7) +
         bad_values(b->in[1], SHORT, k, left, 8);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 20, k = 0, errors = 0;
  if (iters < 1 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: at_once_check [ITERS >= 1] (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  struct bufs b;
  for (int t = 0; t < 4; t++) {
    b.out[t] = malloc(LONG * sizeof(double));
    b.in[t] = malloc(LONG * sizeof(double));
    if (!b.out[t] || !b.in[t])
      MPI_Abort(MPI_COMM_WORLD, 2);
  }
  uint64_t sum = 14695981039346656037u; /* FNV-1a's offset basis */
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  ft_protect(2, &sum, sizeof sum);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, errors and sum */
    ft_compute(1e5 * (double)(1 + (rank + k) % 3));
    long bad = waitany_loop(k, rank, left, right, &b, &sum) +
               waitall_wait(k, rank, left, right, &b, &sum) +
               blocking(k, rank, left, right, &b, &sum);
    if (bad)
      fprintf(stderr, "at_once_check: rank %d, iteration %ld: %ld wrong\n",
              rank, k, bad);
    errors += bad;
  }
  long all = 0;
  uint64_t total = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  total &= (UINT64_C(1) << 52) - 1; /* exact in a double */
  if (rank == 0)
    printf("at_once_check: %ld iterations, %s, checksum %llu\n", iters,
           all ? "FAILED" : "every value checked", (unsigned long long)total);
  ft_report_result(all == 0, (double)total);
  for (int t = 0; t < 4; t++) {
    free(b.out[t]);
    free(b.in[t]);
  }
  MPI_Finalize();
  return all ? 1 : 0;
}
