/* count_check: what the application sees of a message it receives (the
 * status's source, tag and count, MPI_Get_count, MPI_Get_elements, a
 * probe's count, MPI_ERR_TRUNCATE) must not depend on how the protocol
 * carries it: c3's piggyback combined with the payload in one buffer, or
 * before it (option piggyback=; c3-collectives, section 6).
 *
 * Usage: count_check [ITERS [LAG]]   (default 40 iterations, LAG 0)
 *
 * Iteration k (a safe point at its top) on a ring, the payload n doubles,
 * n turning over 0, 3, 100 and 5000 (both sides of any piggyback_switch_bytes
 * of the tests), the values depending on k and the sender:
 *  1. a send of a vector type (every other double of a 2n array) to the
 *     right; the left neighbour probes with MPI_ANY_SOURCE (MPI_Probe on
 *     even k, an MPI_Iprobe loop on odd ones), checks the
 *     probe's source, tag and count, receives into a buffer larger than the
 *     message and checks count, elements and values;
 *  2. MPI_Isend to both neighbours (tags 20 and 21); MPI_Irecv from
 *     MPI_ANY_SOURCE with tag 20 and from the right with tag 21, larger
 *     buffers, completed by MPI_Waitany twice (even k) or an MPI_Test loop
 *     (odd k); statuses and values checked;
 *  3. MPI_Sendrecv_replace around the ring (n + 1 doubles: SMPI 3.32's
 *     aborts on a count of 0, "Assertion size > 0 failed", under every
 *     protocol);
 *  4. 4 doubles to the right received into room for 2, under
 *     MPI_ERRORS_RETURN: the receive must fail with MPI_ERR_TRUNCATE.
 * Every check counts an error; the errors are protected with k. At the end
 * the errors of every rank are summed and the verdict goes to
 * ft_report_result (exit 1 on any error).
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

enum { MAX_N = 5000, ROOM = MAX_N + 7 };

static double value(long k, int from, int i) {
  return (double)k * 1e6 + (double)from * 1e4 + (double)i;
}

static int size_of(long k) {
  static const int n[] = {0, 3, 100, MAX_N};
  return n[k % 4];
}

/* The status of a receive of n doubles from `from` with `tag`. */
static long bad_status(MPI_Status *st, int from, int tag, int n) {
  int count = -1, elements = -1;
  MPI_Get_count(st, MPI_DOUBLE, &count);
  MPI_Get_elements(st, MPI_DOUBLE, &elements);
  return (st->MPI_SOURCE != from) + (st->MPI_TAG != tag) + (count != n) +
         (elements != n);
}

static long bad_values(const double *in, long k, int from, int n) {
  long bad = 0;
  for (int i = 0; i < n; i++)
    bad += in[i] != value(k, from, i);
  return bad;
}

/* 1: a vector type, probed then received into a larger buffer. */
static long probed(long k, int rank, int left, int right, double *buf,
                   double *in) {
  int n = size_of(k), tag = 10 + (int)(k % 3), flag = 0;
  for (int i = 0; i < n; i++)
    buf[2 * i] = value(k, rank, i);
  MPI_Datatype every_other;
  MPI_Type_vector(n > 0 ? n : 1, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Request r;
  MPI_Isend(buf, n > 0 ? 1 : 0, every_other, right, tag, MPI_COMM_WORLD, &r);
  MPI_Status st;
  if (k % 2 == 0) /* (the right neighbour may be on at step 2) */
    MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
  while (k % 2 && !flag)
    MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
  long bad = bad_status(&st, left, tag, n);
  MPI_Recv(in, ROOM, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
           &st);
  bad += bad_status(&st, left, tag, n) + bad_values(in, k, left, n);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Type_free(&every_other);
  return bad;
}

/* 2: nonblocking both ways, a wildcard among them. */
static long nonblocking(long k, int rank, int left, int right, double *out,
                        double *in) {
  int n = size_of(k);
  for (int i = 0; i < n; i++)
    out[i] = value(k, rank, i);
  MPI_Request r[4];
  MPI_Status st[2];
  MPI_Irecv(in, ROOM, MPI_DOUBLE, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(in + ROOM, ROOM, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(out, n, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(out, n, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &r[3]);
  for (int done = 0; done < 2 && k % 2 == 0; done++) {
    int i;
    MPI_Status s;
    MPI_Waitany(2, r, &i, &s);
    st[i] = s;
  }
  for (int i = 0; i < 2 && k % 2; i++)
    for (int flag = 0; !flag;)
      MPI_Test(&r[i], &flag, &st[i]);
  MPI_Waitall(2, r + 2, MPI_STATUSES_IGNORE);
  return bad_status(&st[0], left, 20, n) + bad_status(&st[1], right, 21, n) +
         bad_values(in, k, left, n) + bad_values(in + ROOM, k, right, n);
}

/* 3 and 4: a send-receive in place, then a receive too small. */
static long replace_and_truncate(long k, int rank, int left, int right,
                                 double *buf) {
  int n = size_of(k) + 1; /* SMPI 3.32 aborts on a count of 0 */
  for (int i = 0; i < n; i++)
    buf[i] = value(k, rank, i);
  MPI_Status st;
  MPI_Sendrecv_replace(buf, n, MPI_DOUBLE, right, 30, left, 30, MPI_COMM_WORLD,
                       &st);
  long bad = bad_status(&st, left, 30, n) + bad_values(buf, k, left, n);
  double four[4] = {1, 2, 3, 4}, two[2];
  MPI_Request r;
  MPI_Isend(four, 4, MPI_DOUBLE, right, 31, MPI_COMM_WORLD, &r);
  int rc = MPI_Recv(two, 2, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &st);
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  if (cls != MPI_ERR_TRUNCATE)
    fprintf(stderr,
            "count_check: rank %d, iteration %ld: a receive of 4 "
            "doubles into 2 returned error class %d, not "
            "MPI_ERR_TRUNCATE\n",
            rank, k, cls);
  bad += cls != MPI_ERR_TRUNCATE;
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 40, k = 0, errors = 0;
  double lag = argc > 2 ? atof(argv[2]) : 0;
  if (iters < 1 || lag < 0 || size < 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: count_check [ITERS >= 1 [LAG >= 0]] (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  double *out = malloc(2 * ROOM * sizeof *out),
         *in = malloc(2 * ROOM * sizeof *in);
  if (!out || !in)
    MPI_Abort(MPI_COMM_WORLD, 2);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    ft_compute(2e5 * (double)(1 + (rank + k) % 3));
    long bad[3] = {probed(k, rank, left, right, out, in),
                   nonblocking(k, rank, left, right, out, in),
                   replace_and_truncate(k, rank, left, right, out)};
    for (int step = 0; step < 3; step++)
      if (bad[step])
        fprintf(stderr,
                "count_check: rank %d, iteration %ld, step %d: %ld "
                "wrong\n",
                rank, k, step + 1, bad[step]);
    errors += bad[0] + bad[1] + bad[2];
    if (rank == 0 && lag > 0)
      ft_compute(lag);
  }
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("count_check: %ld iterations, %s (%ld wrong)\n", iters,
           all ? "FAILED" : "every count checked", all);
  ft_report_result(all == 0, (double)iters);
  free(out);
  free(in);
  MPI_Finalize();
  return all ? 1 : 0;
}
