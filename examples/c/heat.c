/* heat: an ordinary MPI program in C, built with ftsim's wrappers (Makefile:
 * CC = ftsimcc) or its CMake package (CMakeLists.txt: find_package(ftsim)).
 *
 * One-dimensional heat diffusion on N points per rank, explicit scheme,
 * fixed ends: every step exchanges halo cells with both neighbours
 * (MPI_Sendrecv) and every 10 steps sums the heat (MPI_Allreduce). At the end
 * rank 0 gathers the rod (MPI_Gather), runs the same scheme alone and
 * compares point by point: the arithmetic is the same, so the results must
 * be identical. The verdict goes to every rank (MPI_Bcast), is printed by
 * rank 0 ("heat: ... verified" or "FAILED") and reported to ftsim
 * (ft_report_result: the summary's "verified"); main returns 1 on a failed
 * check, so the run fails even without ft.h.
 *
 * Checkpoints (ft.h): the step, the local rod and the last sum of the heat
 * are protected (everything the loop carries from one step to the next) and
 * the top of each step is a safe point (ft_snapshot), where no message is in
 * flight.
 * After a failure the program runs again from the top of main, allocates and
 * initialises as before, and the first ft_snapshot restores both.
 *
 * Usage: heat [steps] (default 400). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

enum { N = 32 };

static double initial(int global) { return (global % 7) * 1.5; }

/* One step of the scheme on u[1..n], halos u[0] and u[n+1]. */
static void step(const double *u, double *next, int n) {
  for (int i = 1; i <= n; i++)
    next[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

/* Rank 0: the whole rod alone; returns the largest difference with `got`. */
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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 400;
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  double u[N + 2] = {0}, next[N + 2] = {0}, heat = 0.0;
  for (int i = 0; i < N; i++)
    u[i + 1] = initial(rank * N + i);
  int s;
  ft_protect(0, &s, sizeof s);
  ft_protect(1, u, sizeof u);
  ft_protect(2, &heat, sizeof heat); /* read after the loop: state too */
  for (s = 0; s < steps; s++) {
    ft_snapshot(); /* safe point: checkpoint, or restore s and u */
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[N + 1], 1, MPI_DOUBLE, right,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (left == MPI_PROC_NULL)
      u[0] = 0.0;
    if (right == MPI_PROC_NULL)
      u[N + 1] = 0.0;
    step(u, next, N);
    memcpy(u + 1, next + 1, N * sizeof *u);
    if (s % 10 == 0) {
      double mine = 0.0;
      for (int i = 1; i <= N; i++)
        mine += u[i];
      MPI_Allreduce(&mine, &heat, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }

  double *rod = rank == 0 ? malloc((size_t)size * N * sizeof *rod) : NULL;
  MPI_Gather(&u[1], N, MPI_DOUBLE, rod, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double diff = rank == 0 ? serial_difference(rod, size * N, steps) : 0.0;
  int ok = diff == 0.0 && heat > 0.0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("heat: %d ranks, %d steps, heat %.6f, difference %g: %s\n", size,
           steps, heat, diff, ok ? "verified" : "FAILED");
  ft_report_result(ok, diff);
  free(rod);
  MPI_Finalize();
  return ok ? 0 : 1;
}
