/* halo: heat diffusion as in ../c, its halo exchange made of persistent
 * requests: MPI_Recv_init, MPI_Send_init and MPI_Ssend_init once, then
 * MPI_Startall and a completion call every step (MPI_Waitall, MPI_Waitany
 * or MPI_Testall, in turn), MPI_Request_free at the end.
 *
 * Besides the rod (compared point by point with a serial run by rank 0),
 * every step checks what MPI specifies for persistent requests: a completed
 * request keeps its handle (not MPI_REQUEST_NULL) until MPI_Request_free,
 * which nulls it; MPI_Wait on an inactive one returns at once with an empty
 * status; the statuses of the receives name the neighbour and the tag, and
 * MPI_Get_count gives one double. The verdict goes to every rank, is
 * printed by rank 0 ("halo: ... verified" or "FAILED") and reported to
 * ftsim (ft_report_result); main returns 1 on a failed check.
 *
 * Checkpoints (ft.h): the step, the rod and the count of wrong checks are
 * protected; the top of each step is a safe point, where no request is
 * active. The requests are made again by each run of main, before its first
 * safe point (their handles are not protected state).
 *
 * Usage: halo [steps] (default 300). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

enum { N = 32 };

static double initial(int global) { return (global % 5) * 2.0 + 1.0; }

static void step(const double *u, double *next, int n) {
  for (int i = 1; i <= n; i++)
    next[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

static double serial_difference(const double *got, int total, int steps) {
  double *u = calloc((size_t)total + 2, sizeof *u);
  double *next = calloc((size_t)total + 2, sizeof *next);
  for (int i = 0; i < total; i++)
    u[i + 1] = initial(i);
  for (int s = 0; s < steps; s++) {
    step(u, next, total);
    memcpy(u + 1, next + 1, (size_t)total * sizeof *u);
  }
  double diff = 0.0;
  for (int i = 0; i < total; i++) {
    double d = got[i] > u[i + 1] ? got[i] - u[i + 1] : u[i + 1] - got[i];
    if (d > diff)
      diff = d;
  }
  free(u);
  free(next);
  return diff;
}

/* Completes the four requests of one step, by one of three calls; returns
 * the number of wrong checks. reqs[0..1] are the receives (from left, from
 * right). */
static int complete(int s, MPI_Request reqs[4], int left, int right) {
  MPI_Status st[4];
  int wrong = 0;
  if (s % 3 == 0) {
    MPI_Waitall(4, reqs, st);
  } else if (s % 3 == 1) {
    /* MPI_PROC_NULL's requests complete at once, or count as inactive
     * (index MPI_UNDEFINED once every active one is done). */
    for (int k = 0; k < 5; k++) {
      int index;
      MPI_Status one;
      MPI_Waitany(4, reqs, &index, &one);
      if (index == MPI_UNDEFINED)
        break;
      if (index < 0 || index > 3 || k == 4)
        return wrong + 1;
      st[index] = one;
    }
  } else {
    int flag = 0;
    while (!flag)
      MPI_Testall(4, reqs, &flag, st);
  }
  int peer[2] = {left, right}, tag[2] = {0, 1};
  for (int k = 0; k < 2; k++) {
    int count = -1;
    if (peer[k] == MPI_PROC_NULL)
      continue;
    MPI_Get_count(&st[k], MPI_DOUBLE, &count);
    wrong +=
        st[k].MPI_SOURCE != peer[k] || st[k].MPI_TAG != tag[k] || count != 1;
  }
  for (int k = 0; k < 4; k++)
    wrong += reqs[k] == MPI_REQUEST_NULL; /* persistent: still allocated */
  MPI_Status empty;
  empty.MPI_SOURCE = 12345;
  MPI_Wait(&reqs[0], &empty); /* inactive: at once, an empty status */
  wrong += empty.MPI_SOURCE != MPI_ANY_SOURCE || reqs[0] == MPI_REQUEST_NULL;
  return wrong;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 300;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  double u[N + 2] = {0}, next[N + 2] = {0};
  for (int i = 0; i < N; i++)
    u[i + 1] = initial(rank * N + i);
  /* Tag 0 goes right, tag 1 goes left. */
  MPI_Request reqs[4];
  MPI_Recv_init(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
  MPI_Send_init(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[2]);
  MPI_Ssend_init(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
  int s, wrong = 0;
  ft_protect(0, &s, sizeof s);
  ft_protect(1, u, sizeof u);
  ft_protect(2, &wrong, sizeof wrong);
  for (s = 0; s < steps; s++) {
    ft_snapshot(); /* safe point: no request active */
    MPI_Startall(4, reqs);
    wrong += complete(s, reqs, left, right);
    if (left == MPI_PROC_NULL)
      u[0] = 0.0;
    if (right == MPI_PROC_NULL)
      u[N + 1] = 0.0;
    step(u, next, N);
    memcpy(u + 1, next + 1, N * sizeof *u);
  }
  for (int k = 0; k < 4; k++) {
    MPI_Request_free(&reqs[k]);
    wrong += reqs[k] != MPI_REQUEST_NULL;
  }

  double *rod = rank == 0 ? malloc((size_t)size * N * sizeof *rod) : NULL;
  MPI_Gather(&u[1], N, MPI_DOUBLE, rod, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int all_wrong = 0;
  MPI_Reduce(&wrong, &all_wrong, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  double diff = rank == 0 ? serial_difference(rod, size * N, steps) : 0.0;
  int ok = diff == 0.0 && all_wrong == 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("halo: %d ranks, %d steps, difference %g, %d wrong checks: %s\n",
           size, steps, diff, all_wrong, ok ? "verified" : "FAILED");
  ft_report_result(ok, diff);
  free(rod);
  MPI_Finalize();
  return ok ? 0 : 1;
}
