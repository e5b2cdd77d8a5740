/* combined_check: what MPI promises of a message must not depend on how
 * c3 carries its piggyback (option piggyback=separate|combined|auto;
 * c3-collectives, section 6; sim/runtime/piggyback/pb_combined.c), nor on
 * the protocol (`none` is the reference).
 *
 * Usage: combined_check [ITERS [LAG]]   (default 24 iterations, LAG 0)
 *
 * Iteration k (a safe point at its top) on a ring, n doubles, n turning
 * over 3 and 100 (both sides of piggyback_switch_bytes=64 of the tests):
 *  1. a synchronous send to the right (MPI_Issend, a persistent
 *     MPI_Ssend_init, or a blocking MPI_Ssend between pairs of ranks): it
 *     must not complete before the receive is posted, which the receiver
 *     posts only once told to (an MPI_Test after some computation, or an
 *     MPI_Iprobe of the message the sender sends after its MPI_Ssend);
 *  2. 200 doubles to the right received into room for 100 by MPI_Irecv,
 *     under MPI_ERRORS_RETURN: MPI_Wait must return MPI_ERR_TRUNCATE, and
 *     MPI_Waitall MPI_ERR_IN_STATUS with MPI_ERR_TRUNCATE in the status;
 *  3. an MPI_Isend whose request is freed (MPI_Request_free), the receiver
 *     acknowledging it;
 *  4. two messages to the right with one tag, received by two receives
 *     from MPI_ANY_SOURCE completed in the other order (MPI_Wait on the
 *     second first): MPI's non-overtaking rule orders the matching, so the
 *     first receive holds the first message.
 * After a rollback a send the receiver's checkpoint holds is not sent again
 * and completes at once (c3's suppress list), so step 1's checks count only
 * until the first restore. Every check counts an error; the errors are
 * protected with k; at the end the verdict goes to ft_report_result (exit
 * 1 on any error).
 * With LAG > 0 rank 0 computes LAG flops at the end of each iteration
 * (as wildcard_check's LAG): the others pass the next safe point before it
 * does, so that an epoch started in that gap straddles an iteration and
 * messages cross the recovery line whatever the piggyback's form (under
 * piggyback=combined and auto the ranks otherwise reach each safe point
 * nearly together). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { BIG = 200, ROOM = 256 };

static double value(long k, int from, int i) {
  return (double)k * 1e6 + (double)from * 1e4 + (double)i;
}

static int size_of(long k) { return k % 2 ? 100 : 3; }

static long bad_values(const double *in, long k, int from, int n) {
  long bad = 0;
  for (int i = 0; i < n; i++)
    bad += in[i] != value(k, from, i);
  return bad;
}

static long bad_count(const MPI_Status *st, int from, int n) {
  int count = -1;
  MPI_Get_count(st, MPI_DOUBLE, &count);
  return (st->MPI_SOURCE != from) + (count != n);
}

static void fill(double *out, long k, int rank, int n) {
  for (int i = 0; i < n; i++)
    out[i] = value(k, rank, i);
}

/* 1a: MPI_Issend (even k / 3) or MPI_Ssend_init + MPI_Start around the
 * ring; the receiver posts its receive once the sender said so. */
static long ring_sync(long k, int rank, int left, int right, int strict,
                      double *out, double *in) {
  int n = size_of(k), done = 0, go = 0;
  fill(out, k, rank, n);
  MPI_Request r, g;
  if (k % 3 == 0) {
    MPI_Issend(out, n, MPI_DOUBLE, right, 40, MPI_COMM_WORLD, &r);
  } else {
    MPI_Ssend_init(out, n, MPI_DOUBLE, right, 40, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
  }
  ft_compute(2e5);
  MPI_Test(&r, &done, MPI_STATUS_IGNORE);
  long bad = strict && done;
  if (strict && done)
    fprintf(stderr,
            "combined_check: rank %d, iteration %ld: a synchronous send "
            "completed before its receive was posted\n",
            rank, k);
  MPI_Isend(&done, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &g);
  MPI_Recv(&go, 1, MPI_INT, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Status st;
  MPI_Recv(in, ROOM, MPI_DOUBLE, left, 40, MPI_COMM_WORLD, &st);
  bad += bad_count(&st, left, n) + bad_values(in, k, left, n);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (k % 3)
    MPI_Request_free(&r);
  MPI_Wait(&g, MPI_STATUS_IGNORE);
  return bad;
}

/* 1b: a blocking MPI_Ssend from each even rank to the next; the receiver
 * computes, then must not see the message its sender sends after the
 * MPI_Ssend. */
static long pair_sync(long k, int rank, int size, int strict, double *out,
                      double *in) {
  int n = size_of(k), peer = rank % 2 ? rank - 1 : rank + 1, after = 0;
  if (peer >= size)
    return 0;
  if (rank % 2 == 0) {
    fill(out, k, rank, n);
    MPI_Ssend(out, n, MPI_DOUBLE, peer, 42, MPI_COMM_WORLD);
    MPI_Send(&after, 1, MPI_INT, peer, 43, MPI_COMM_WORLD);
    return 0;
  }
  ft_compute(2e5);
  int early = 0;
  MPI_Iprobe(peer, 43, MPI_COMM_WORLD, &early, MPI_STATUS_IGNORE);
  long bad = strict && early;
  if (strict && early)
    fprintf(stderr,
            "combined_check: rank %d, iteration %ld: MPI_Ssend returned "
            "before its receive was posted\n",
            rank, k);
  MPI_Status st;
  MPI_Recv(in, ROOM, MPI_DOUBLE, peer, 42, MPI_COMM_WORLD, &st);
  bad += bad_count(&st, peer, n) + bad_values(in, k, peer, n);
  MPI_Recv(&after, 1, MPI_INT, peer, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bad;
}

/* 2: a nonblocking receive too small, by MPI_Wait (even k) or
 * MPI_Waitall. */
static long truncated(long k, int rank, int left, int right, double *out,
                      double *in) {
  fill(out, k, rank, BIG);
  MPI_Request s, r;
  MPI_Status st;
  MPI_Isend(out, BIG, MPI_DOUBLE, right, 50, MPI_COMM_WORLD, &s);
  MPI_Irecv(in, BIG / 2, MPI_DOUBLE, left, 50, MPI_COMM_WORLD, &r);
  int rc = k % 2 ? MPI_Waitall(1, &r, &st) : MPI_Wait(&r, &st);
  int cls = MPI_SUCCESS, in_status = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  if (k % 2)
    MPI_Error_class(st.MPI_ERROR, &in_status);
  long bad = k % 2 ? cls != MPI_ERR_IN_STATUS || in_status != MPI_ERR_TRUNCATE
                   : cls != MPI_ERR_TRUNCATE;
  if (bad)
    fprintf(stderr,
            "combined_check: rank %d, iteration %ld: a nonblocking receive "
            "of %d doubles into %d returned error class %d (status: %d)\n",
            rank, k, BIG, BIG / 2, cls, in_status);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  return bad;
}

/* 3: a send whose request is freed; the receiver's acknowledgement tells
 * the sender its buffer is free again. */
static long freed(long k, int rank, int left, int right, double *out,
                  double *in) {
  int n = size_of(k), ack = 0;
  fill(out, k, rank, n);
  MPI_Request r;
  MPI_Isend(out, n, MPI_DOUBLE, right, 60, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Status st;
  MPI_Recv(in, ROOM, MPI_DOUBLE, left, 60, MPI_COMM_WORLD, &st);
  long bad = bad_count(&st, left, n) + bad_values(in, k, left, n);
  MPI_Sendrecv(&ack, 1, MPI_INT, left, 61, &ack, 1, MPI_INT, right, 61,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bad;
}

/* 4: two wildcard receives, completed in the other order. */
static long reversed(long k, int rank, int left, int right, double *out,
                     double *in) {
  int n = size_of(k);
  fill(out, k, rank, n);
  fill(out + ROOM, k + 1, rank, n);
  MPI_Request r[4];
  MPI_Status st[2];
  MPI_Irecv(in, ROOM, MPI_DOUBLE, MPI_ANY_SOURCE, 70, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(in + ROOM, ROOM, MPI_DOUBLE, MPI_ANY_SOURCE, 70, MPI_COMM_WORLD,
            &r[1]);
  MPI_Isend(out, n, MPI_DOUBLE, right, 70, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(out + ROOM, n, MPI_DOUBLE, right, 70, MPI_COMM_WORLD, &r[3]);
  MPI_Wait(&r[1], &st[1]);
  MPI_Wait(&r[0], &st[0]);
  MPI_Waitall(2, r + 2, MPI_STATUSES_IGNORE);
  long bad = bad_count(&st[0], left, n) + bad_count(&st[1], left, n) +
             bad_values(in, k, left, n) + bad_values(in + ROOM, k + 1, left, n);
  if (bad)
    fprintf(stderr,
            "combined_check: rank %d, iteration %ld: two receives completed "
            "in the other order hold the wrong messages\n",
            rank, k);
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 24, k = 0, errors = 0;
  double lag = argc > 2 ? atof(argv[2]) : 0;
  if (iters < 1 || lag < 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr, "usage: combined_check [ITERS >= 1 [LAG >= 0]] (2 ranks "
                      "or more)\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  double *out = malloc(2 * ROOM * sizeof *out),
         *in = malloc(2 * ROOM * sizeof *in);
  if (!out || !in)
    MPI_Abort(MPI_COMM_WORLD, 2);
  int left = (rank + size - 1) % size, right = (rank + 1) % size, strict = 1;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    if (ft_snapshot() == FT_SNAPSHOT_RESTORED)
      strict = 0; /* suppressed sends complete at once from here on */
    long bad[5] = {ring_sync(k, rank, left, right, strict, out, in),
                   pair_sync(k, rank, size, strict, out, in),
                   truncated(k, rank, left, right, out, in),
                   freed(k, rank, left, right, out, in),
                   reversed(k, rank, left, right, out, in)};
    for (int step = 0; step < 5; step++) {
      if (bad[step])
        fprintf(stderr,
                "combined_check: rank %d, iteration %ld, step %d: "
                "%ld wrong\n",
                rank, k, step + 1, bad[step]);
      errors += bad[step];
    }
    if (rank == 0 && lag > 0)
      ft_compute(lag);
  }
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("combined_check: %ld iterations, %s (%ld wrong)\n", iters,
           all ? "FAILED" : "every message checked", all);
  ft_report_result(all == 0, (double)iters);
  free(out);
  free(in);
  MPI_Finalize();
  return all ? 1 : 0;
}
