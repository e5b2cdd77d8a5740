/* err_check: MPI's error semantics through the runtime (sim/runtime/errors.c,
 * README "Errors in the application's calls").
 *
 * Usage: err_check [ITERS]     (default 20) handlers: every check below,
 *                              ITERS times, a safe point at the top of each
 *        err_check wildcard    an Open MPI program: rank 0 receives from
 *                              source -1 (Open MPI's MPI_ANY_SOURCE), the
 *                              others send to it; must end the run
 *        err_check fatal       MPI_Send with count -1 under the default
 *                              handler; must end the run
 *        err_check truncate    MPI_Sendrecv receiving 1 of 2 longs (an error
 *                              the library finds) under the default
 *                              handler; must end the run
 *
 * The handlers mode, each iteration: with MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD, invalid calls (a source of -1, a destination out of range,
 * a negative count and tag, MPI_DATATYPE_NULL, a root out of range, a
 * nonblocking receive from -1) each return their error class, and a
 * receive shorter than its message returns MPI_ERR_TRUNCATE from MPI_Recv
 * and from the MPI_Wait of an MPI_Irecv (the library's error, on the
 * runtime's communicator), and a
 * nonblocking one leaves MPI_REQUEST_NULL; a duplicate of the world
 * inherits MPI_ERRORS_RETURN; a handler made with MPI_Comm_create_errhandler
 * on another duplicate is called with that duplicate's handle and the code,
 * and the call returns the code; then a ring exchange and an allreduce show
 * that the run goes on. Wrong results are counted, reduced and given to
 * ft_report_result; exit 1 on any. Protected: the iteration and the count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

/* What the user handler saw (reset before each use). */
static MPI_Comm seen_comm;
static int seen_code, seen_calls;

static void on_error(MPI_Comm *comm, int *code, ...) {
  seen_comm = *comm;
  seen_code = *code;
  seen_calls++;
}

/* 1 if rc's class is not cls. */
static long is_not(int rc, int cls) {
  int c = MPI_SUCCESS;
  if (rc == MPI_SUCCESS)
    return 1;
  MPI_Error_class(rc, &c);
  return c != cls;
}

static long returned(int rank, int size) {
  long bad = 0, x = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  bad += is_not(
      MPI_Recv(&x, 1, MPI_LONG, -1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      MPI_ERR_RANK);
  bad +=
      is_not(MPI_Send(&x, 1, MPI_LONG, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  bad +=
      is_not(MPI_Send(&x, -1, MPI_LONG, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  bad += is_not(MPI_Send(&x, 1, MPI_LONG, 0, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
  bad += is_not(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD),
                MPI_ERR_TYPE);
  bad += is_not(MPI_Bcast(&x, 1, MPI_LONG, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
  req = (MPI_Request)0;
  bad += is_not(MPI_Irecv(&x, 1, MPI_LONG, -1, 0, MPI_COMM_WORLD, &req),
                MPI_ERR_RANK);
  bad += req != MPI_REQUEST_NULL;
  long two[2] = {1, 2}, one = 0; /* the library's error: truncated */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Isend(two, 2, MPI_LONG, right, 5, MPI_COMM_WORLD, &req);
  bad += is_not(
      MPI_Recv(&one, 1, MPI_LONG, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      MPI_ERR_TRUNCATE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request both[2];
  MPI_Irecv(&one, 1, MPI_LONG, left, 6, MPI_COMM_WORLD, &both[0]);
  MPI_Isend(two, 2, MPI_LONG, right, 6, MPI_COMM_WORLD, &both[1]);
  bad += is_not(MPI_Wait(&both[0], MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
  MPI_Wait(&both[1], MPI_STATUS_IGNORE);
  MPI_Errhandler h;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
  bad += h != MPI_ERRORS_RETURN;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  bad += is_not(MPI_Probe(-1, 0, dup, MPI_STATUS_IGNORE), MPI_ERR_RANK);
  MPI_Comm_free(&dup);
  return bad;
}

static long handled(void) {
  long bad = 0, x = 0;
  MPI_Comm dup;
  MPI_Errhandler h;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_create_errhandler(on_error, &h);
  MPI_Comm_set_errhandler(dup, h);
  seen_comm = MPI_COMM_NULL;
  seen_calls = seen_code = 0;
  int rc = MPI_Recv(&x, 1, MPI_LONG, -1, 7, dup, MPI_STATUS_IGNORE);
  bad += is_not(rc, MPI_ERR_RANK) + (seen_calls != 1) + (seen_comm != dup) +
         (seen_code != rc);
  rc = MPI_Allreduce(&x, &x, -2, MPI_LONG, MPI_SUM, dup);
  bad += is_not(rc, MPI_ERR_COUNT) + (seen_calls != 2);
  MPI_Errhandler_free(&h);
  MPI_Comm_free(&dup);
  return bad;
}

/* A ring exchange and a sum: the run goes on after the errors. */
static long goes_on(int rank, int size) {
  long mine = rank, left = -1, sum = 0;
  MPI_Sendrecv(&mine, 1, MPI_LONG, (rank + 1) % size, 3, &left, 1, MPI_LONG,
               (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return (left != (rank + size - 1) % size) +
         (sum != (long)size * (size - 1) / 2);
}

/* Open MPI's MPI_ANY_SOURCE is -1. */
static void wildcard(int rank, int size) {
  long x = rank;
  if (rank != 0) {
    MPI_Send(&x, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    return;
  }
  for (int i = 1; i < size; i++)
    MPI_Recv(&x, 1, MPI_LONG, -1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "20";
  if (strcmp(mode, "wildcard") == 0 || strcmp(mode, "fatal") == 0 ||
      strcmp(mode, "truncate") == 0) {
    long x = 0, two[2] = {1, 2};
    if (mode[0] == 'w')
      wildcard(rank, size);
    else if (mode[0] == 'f')
      MPI_Send(&x, -1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    else
      MPI_Sendrecv(two, 2, MPI_LONG, (rank + 1) % size, 0, &x, 1, MPI_LONG,
                   (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    printf("err_check: %s: rank %d: the invalid call returned\n", mode, rank);
    MPI_Finalize();
    return 3;
  }
  long iters = atol(mode), k = 0, errors = 0, all = 0;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ft_compute(1e6 * (1 + rank));
    errors += returned(rank, size) + handled();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    errors += goes_on(rank, size);
  }
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("err_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every error handled");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
