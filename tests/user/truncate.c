/* truncate: receives smaller than their messages, seen by a program that
 * set MPI_ERRORS_RETURN (issue 16's record/replay, truncated receives).
 *
 * Usage: truncate [STEPS]   (default 3) every step, in pairs (0-1, 2-3...):
 *                           the even rank sends 8 ints three times; the odd
 *                           one receives 4 with MPI_Recv, 2 with MPI_Irecv
 *                           and MPI_Wait, 3 with the receive half of
 *                           MPI_Sendrecv; each returns MPI_ERR_TRUNCATE
 *                           (MPI_Wait's through MPI_COMM_WORLD's handler),
 *                           its status the sender, the tag and a count of
 *                           the receive's size (SMPI) or the message's
 *                           (Open MPI: MPI leaves it to the library); then
 *                           a whole message and a sum.
 *
 * Prints "truncate: N steps: verified" or FAILED and reports the verdict
 * with ft_report_result. An odd number of ranks leaves the last one out of
 * the pairs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

/* 1 unless rc is MPI_ERR_TRUNCATE and *st says source, tag and n ints (the
 * receive's) or 8 (the message's). */
static int wrong(int rc, const MPI_Status *st, int source, int tag, int n) {
  int cls = MPI_SUCCESS, count = -1;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &cls);
  MPI_Get_count(st, MPI_INT, &count);
  return cls != MPI_ERR_TRUNCATE || st->MPI_SOURCE != source ||
         st->MPI_TAG != tag || (count != n && count != 8);
}

static int receiver(int peer) {
  int buf[8] = {0}, bad = 0;
  MPI_Status st;
  MPI_Request req;
  int rc = MPI_Recv(buf, 4, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
  bad += wrong(rc, &st, peer, 1, 4);
  MPI_Irecv(buf, 2, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
  rc = MPI_Wait(&req, &st);
  bad += wrong(rc, &st, peer, 2, 2);
  int one = 1;
  rc = MPI_Sendrecv(&one, 1, MPI_INT, peer, 4, buf, 3, MPI_INT, peer, 3,
                    MPI_COMM_WORLD, &st);
  bad += wrong(rc, &st, peer, 3, 3);
  rc = MPI_Recv(buf, 8, MPI_INT, peer, 5, MPI_COMM_WORLD, &st);
  return bad + (rc != MPI_SUCCESS) + (buf[7] != 7);
}

static int sender(int peer) {
  int buf[8], one = 0;
  for (int i = 0; i < 8; i++)
    buf[i] = i;
  for (int tag = 1; tag <= 2; tag++)
    MPI_Send(buf, 8, MPI_INT, peer, tag, MPI_COMM_WORLD);
  MPI_Sendrecv(buf, 8, MPI_INT, peer, 3, &one, 1, MPI_INT, peer, 4,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(buf, 8, MPI_INT, peer, 5, MPI_COMM_WORLD);
  return one != 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  long steps = argc > 1 ? atol(argv[1]) : 3, bad = 0, all = 0;
  int paired = rank < size - size % 2;
  for (long s = 0; s < steps; s++) {
    if (paired)
      bad += rank % 2 ? receiver(rank - 1) : sender(rank + 1);
    ft_compute(1e6);
  }
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("truncate: %ld steps: %s\n", steps, all ? "FAILED" : "verified");
  ft_report_result(all == 0, (double)steps);
  MPI_Finalize();
  return all != 0;
}
