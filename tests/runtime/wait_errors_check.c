/* wait_errors_check: the library's error for a request (a receive of 4
 * doubles into room for 2: MPI_ERR_TRUNCATE) as each completion call must
 * report it under MPI_ERRORS_RETURN (MPI-3.1, 3.7.5): MPI_Wait and
 * MPI_Waitany return it; MPI_Waitall and MPI_Waitsome return
 * MPI_ERR_IN_STATUS with it in the status's MPI_ERROR; MPI_Waitall with
 * MPI_STATUSES_IGNORE returns an error. Under mpirun, pessimist, v2 and
 * c3 returned MPI_SUCCESS from MPI_Waitall, MPI_Waitany and MPI_Waitsome
 * (e2e/real_wait_errors_*).
 *
 * Usage: wait_errors_check [ITERS [after]]   (default 10; 2 ranks or more)
 * Each iteration (a safe point at its top), on a ring, each call once.
 * `after`: the truncated receive is posted with MPI_ANY_TAG, a receive of
 * a second message from the same peer after it, and that one is waited
 * for first: under c3's separate piggyback the runtime then completes the
 * wildcard receive itself (README, C3), and the call must still report
 * its error (it returned MPI_SUCCESS before).
 * Wrong answers are counted, summed and given to ft_report_result (exit 1
 * on any). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

enum { WAIT, WAITANY, WAITALL, WAITALL_IGNORE, WAITSOME, CALLS };

static const char *const names[CALLS] = {
    "MPI_Wait", "MPI_Waitany", "MPI_Waitall", "MPI_Waitall(STATUSES_IGNORE)",
    "MPI_Waitsome"};

static int class_of(int rc) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* Completes the truncated receive `r` with `call`; 0 if it reported
 * MPI_ERR_TRUNCATE as MPI says. */
static long complete(int call, MPI_Request *r) {
  MPI_Status st[1];
  int index = -1, out = 0, got[1], rc;
  st[0].MPI_ERROR = MPI_SUCCESS;
  switch (call) {
  case WAIT:
    return class_of(MPI_Wait(r, st)) != MPI_ERR_TRUNCATE;
  case WAITANY:
    rc = MPI_Waitany(1, r, &index, st);
    return (class_of(rc) != MPI_ERR_TRUNCATE) + (index != 0);
  case WAITALL:
    rc = MPI_Waitall(1, r, st);
    return (class_of(rc) != MPI_ERR_IN_STATUS) +
           (class_of(st[0].MPI_ERROR) != MPI_ERR_TRUNCATE);
  case WAITALL_IGNORE:
    return MPI_Waitall(1, r, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
  default:
    rc = MPI_Waitsome(1, r, &out, got, st);
    return (class_of(rc) != MPI_ERR_IN_STATUS) + (out != 1) +
           (class_of(st[0].MPI_ERROR) != MPI_ERR_TRUNCATE);
  }
}

/* `after`: the second message's receive, posted after r and completed
 * first (its value checked). */
static long second_first(long k, int left, int right, int call) {
  double one = (double)k, got = -1;
  MPI_Request r, s;
  MPI_Irecv(&got, 1, MPI_DOUBLE, left, CALLS + call, MPI_COMM_WORLD, &r);
  MPI_Isend(&one, 1, MPI_DOUBLE, right, CALLS + call, MPI_COMM_WORLD, &s);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  return got != (double)k;
}

static long iteration(long k, int rank, int left, int right, int after) {
  long bad = 0;
  for (int call = 0; call < CALLS; call++) {
    double four[4] = {(double)k, 1, 2, 3}, two[2];
    MPI_Request r, s;
    MPI_Irecv(two, 2, MPI_DOUBLE, left, after ? MPI_ANY_TAG : call,
              MPI_COMM_WORLD, &r);
    MPI_Isend(four, 4, MPI_DOUBLE, right, call, MPI_COMM_WORLD, &s);
    if (after)
      bad += second_first(k, left, right, call);
    long wrong = complete(call, &r);
    if (wrong)
      fprintf(stderr,
              "wait_errors_check: rank %d, iteration %ld: %s did not "
              "report MPI_ERR_TRUNCATE as MPI says\n",
              rank, k, names[call]);
    bad += wrong;
    MPI_Wait(&s, MPI_STATUS_IGNORE);
  }
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 10, k = 0, errors = 0;
  int after = argc > 2 && strcmp(argv[2], "after") == 0;
  if (iters < 1 || size < 2 || (argc > 2 && !after)) {
    if (rank == 0)
      fprintf(stderr, "usage: wait_errors_check [ITERS >= 1 [after]] (2 "
                      "ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    errors += iteration(k, rank, left, right, after);
  }
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("wait_errors_check: %ld iterations, %s (%ld wrong)\n", iters,
           all ? "FAILED" : "every error reported", all);
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all != 0;
}
