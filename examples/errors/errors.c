/* errors: MPI's error handlers in an ordinary MPI program.
 *
 * Usage: errors [STEPS]    (default 200) every step: with MPI_ERRORS_RETURN
 *                          on MPI_COMM_WORLD, invalid calls return their
 *                          class; a handler of our own, on a duplicate of
 *                          the world, is called with it and the code; then
 *                          a ring exchange and a sum go on as usual
 *        errors wildcard   a program written for Open MPI: rank 0 receives
 *                          from -1, Open MPI's MPI_ANY_SOURCE. Under Open
 *                          MPI it works; under SMPI (MPI_ANY_SOURCE is -555)
 *                          it is an invalid rank, and the default handler,
 *                          MPI_ERRORS_ARE_FATAL, ends the run with
 *                          "ftsim: MPI_Recv: MPI_ERR_RANK ...".
 *
 * Prints "errors: N steps, every error handled: verified" or FAILED and
 * reports the verdict with ft_report_result. A safe point each step. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

static int handled; /* calls of on_error in this step */
static MPI_Comm handled_comm;

static void on_error(MPI_Comm *comm, int *code, ...) {
  (void)code;
  handled_comm = *comm;
  handled++;
}

/* 1 if rc is not an error of class cls. */
static int wrong(int rc, int cls) {
  int c = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &c);
  return c != cls;
}

static int step(int rank, int size, MPI_Errhandler mine) {
  long x = rank, left = -1, sum = 0;
  int bad = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  bad +=
      wrong(MPI_Send(&x, 1, MPI_LONG, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  bad += wrong(MPI_Send(&x, -1, MPI_LONG, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  bad += wrong(MPI_Send(&x, 1, MPI_LONG, 0, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
  bad += wrong(MPI_Bcast(&x, 1, MPI_LONG, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, mine);
  handled = 0;
  int rc = MPI_Recv(&x, 1, MPI_LONG, size + 1, 0, dup, MPI_STATUS_IGNORE);
  bad += wrong(rc, MPI_ERR_RANK) + (handled != 1) + (handled_comm != dup);
  MPI_Comm_free(&dup);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Sendrecv(&x, 1, MPI_LONG, (rank + 1) % size, 1, &left, 1, MPI_LONG,
               (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return bad + (left != (rank + size - 1) % size) +
         (sum != (long)size * (size - 1) / 2);
}

/* Written for Open MPI, where MPI_ANY_SOURCE is -1. */
static void wildcard(int rank, int size) {
  long x = rank;
  if (rank != 0)
    MPI_Send(&x, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
  else
    for (int i = 1; i < size; i++)
      MPI_Recv(&x, 1, MPI_LONG, -1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0)
    printf("errors: wildcard: received from every rank\n");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "wildcard") == 0) {
    wildcard(rank, size);
    MPI_Finalize();
    return 0;
  }
  long steps = argc > 1 ? atol(argv[1]) : 200, s = 0, bad = 0, all = 0;
  MPI_Errhandler mine;
  MPI_Comm_create_errhandler(on_error, &mine);
  ft_protect(0, &s, sizeof s);
  ft_protect(1, &bad, sizeof bad);
  for (; s < steps; s++) {
    ft_snapshot();
    bad += step(rank, size, mine);
  }
  MPI_Errhandler_free(&mine);
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("errors: %ld steps, every error handled: %s\n", steps,
           all ? "FAILED" : "verified");
  ft_report_result(all == 0, (double)steps);
  MPI_Finalize();
  return all != 0;
}
