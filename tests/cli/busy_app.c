/* A program that computes without telling ftsim (no ft_compute), for the
 * tests of measured computation and of runs without safe points.
 *
 * Usage: busy_app UNITS [snapshots|sampled|wildcard]
 *   Every rank runs UNITS iterations; each does one unit of CPU work (a
 *   chain of 2e7 dependent multiply-adds, some tens of milliseconds) and an
 *   MPI_Allreduce. With "snapshots" each iteration begins with ft_snapshot,
 *   its counter protected. With "sampled" the UNITS units come first, in
 *   one loop under SMPI_SAMPLE_LOCAL (README: "Long loops"): 2 iterations
 *   run, the others are charged their mean time without running. With
 *   "wildcard" each iteration also sends the value to the next rank and
 *   receives one from MPI_ANY_SOURCE before its unit (a non-deterministic
 *   event that message logging ships before the next send). The
 *   result is reported as verified when every rank computed the same
 *   value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

#define UNIT_STEPS 20000000L

static double unit_of_work(double acc) {
  for (long i = 0; i < UNIT_STEPS; i++)
    acc = acc * 0.9999999 + 1e-7;
  return acc;
}

/* UNITS units in one loop, sampled under SMPI: returns the last value. */
static double sampled_work(int units, double acc) {
#ifdef SMPI_SAMPLE_LOCAL
  SMPI_SAMPLE_LOCAL(int i = 0, i < units, i++, 2, -1) {
#else
  for (int i = 0; i < units; i++) {
#endif
    acc = unit_of_work(acc);
  }
  return acc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int units = argc > 1 ? atoi(argv[1]) : 1;
  int snapshots = argc > 2 && strcmp(argv[2], "snapshots") == 0;
  int sampled = argc > 2 && strcmp(argv[2], "sampled") == 0;
  int wildcard = argc > 2 && strcmp(argv[2], "wildcard") == 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  volatile double start = 0.5; /* the chain's start is not a constant */
  double acc = start, sum = 0, mine, lo, hi;
  int it = 0;
  ft_protect(0, &it, sizeof it);
  ft_protect(1, &acc, sizeof acc);
  if (sampled) {
    acc = sampled_work(units, acc); /* (only the sampled units ran) */
    units = 0;
  }
  for (; it < units; it++) {
    if (snapshots)
      ft_snapshot();
    if (wildcard) { /* the received value is dropped: acc stays the same */
      double got;
      MPI_Sendrecv(&acc, 1, MPI_DOUBLE, (rank + 1) % size, 7, &got, 1,
                   MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    acc = unit_of_work(acc);
    MPI_Allreduce(&acc, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  mine = acc;
  MPI_Allreduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  ft_report_result(lo == hi && units >= 0, sum);
  MPI_Finalize();
  return 0;
}
