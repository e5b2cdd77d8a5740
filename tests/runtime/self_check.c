/* Messages to oneself (issue 14, item 7): MPI_Alltoall and MPI_Alltoallv
 * (their i = 0 exchange), MPI_Sendrecv and MPI_Sendrecv_replace with this
 * rank as both ends, many times; checks the data and the statuses (source
 * this rank, tag the send's). SMPI makes a send-receive with oneself a
 * local copy; so must the runtime under every protocol: self_time.sh
 * compares the simulated completion times under none and the protocols
 * that recover (period 0: no wave).
 *
 * Usage: self_check [iterations] (default 50); prints "self_check: N
 * iterations, every message checked" or "self_check: FAILED ...". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { N = 256 };

static int check_status(const MPI_Status *st, int rank, int tag) {
  return st->MPI_SOURCE == rank && st->MPI_TAG == tag;
}

/* One iteration; returns the number of wrong values or statuses. */
static int iteration(int it, int rank, int size, double *s, double *r,
                     int *counts, int *displs) {
  int bad = 0;
  for (int i = 0; i < N * size; i++)
    s[i] = rank * 1e6 + it * 1e3 + i;
  MPI_Alltoall(s, N, MPI_DOUBLE, r, N, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int p = 0; p < size; p++)
    for (int k = 0; k < N; k++)
      bad += r[p * N + k] != p * 1e6 + it * 1e3 + rank * N + k;
  MPI_Alltoallv(s, counts, displs, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE,
                MPI_COMM_WORLD);
  for (int p = 0; p < size; p++)
    bad += r[displs[p]] != p * 1e6 + it * 1e3 + displs[rank];
  MPI_Status st;
  MPI_Sendrecv(s, N * size, MPI_DOUBLE, rank, 7, r, N * size, MPI_DOUBLE, rank,
               7, MPI_COMM_WORLD, &st);
  bad += !check_status(&st, rank, 7) || r[N * size - 1] != s[N * size - 1];
  MPI_Sendrecv_replace(s, N, MPI_DOUBLE, rank, 8, rank, 8, MPI_COMM_WORLD, &st);
  bad += !check_status(&st, rank, 8) || s[1] != rank * 1e6 + it * 1e3 + 1;
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = argc > 1 ? atoi(argv[1]) : 50;
  double *s = malloc(sizeof *s * N * (size_t)size);
  double *r = malloc(sizeof *r * N * (size_t)size);
  int *counts = malloc(sizeof *counts * (size_t)size);
  int *displs = malloc(sizeof *displs * (size_t)size);
  if (!s || !r || !counts || !displs)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int p = 0; p < size; p++) {
    counts[p] = 1 + (rank + p) % N; /* what p sends me too */
    displs[p] = p * N;
  }
  int bad = 0, all = 0;
  for (int it = 0; it < iters; it++)
    bad += iteration(it, rank, size, s, r, counts, displs);
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0)
    printf("self_check: %d iterations, every message checked\n", iters);
  else if (rank == 0)
    printf("self_check: FAILED, %d wrong values or statuses\n", all);
  ft_report_result(all == 0, all);
  free(s);
  free(r);
  free(counts);
  free(displs);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
