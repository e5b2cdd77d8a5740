/* The simulated time of each collective (issue 18, item 3), built twice:
 * through the runtime (smpi/coll_time) and as a plain SMPI program
 * (plain/coll_time), so that coll_time.sh compares the runtime's
 * algorithms with SMPI's own under the same selector, platform and hosts.
 * For each count of doubles given (per rank, or per pair of ranks for the
 * all-to-alls), each collective runs once to warm up (SMPI's first bcast
 * on a communicator builds its SMP structure), then REPS times between a
 * barrier and the end of the last rank; rank 0 prints
 * "coll_time NAME BYTES SECONDS" per collective and size.
 * Usage: coll_time COUNT... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { REPS = 4 };

struct bufs {
  double *a, *b;
  int *counts, *displs;
  int n, size;
};

enum coll {
  BARRIER,
  BCAST,
  REDUCE,
  ALLREDUCE,
  GATHER,
  SCATTER,
  ALLGATHER,
  ALLGATHERV,
  ALLTOALL,
  ALLTOALLV,
  NCOLL
};

static const char *const names[NCOLL] = {
    "barrier", "bcast",     "reduce",     "allreduce", "gather",
    "scatter", "allgather", "allgatherv", "alltoall",  "alltoallv"};

static void run(enum coll which, struct bufs *x) {
  int n = x->n;
  MPI_Comm w = MPI_COMM_WORLD;
  switch (which) {
  case BARRIER:
    MPI_Barrier(w);
    break;
  case BCAST:
    MPI_Bcast(x->a, n, MPI_DOUBLE, 1, w);
    break;
  case REDUCE:
    MPI_Reduce(x->a, x->b, n, MPI_DOUBLE, MPI_SUM, 1, w);
    break;
  case ALLREDUCE:
    MPI_Allreduce(x->a, x->b, n, MPI_DOUBLE, MPI_SUM, w);
    break;
  case GATHER:
    MPI_Gather(x->a, n, MPI_DOUBLE, x->b, n, MPI_DOUBLE, 1, w);
    break;
  case SCATTER:
    MPI_Scatter(x->a, n, MPI_DOUBLE, x->b, n, MPI_DOUBLE, 1, w);
    break;
  case ALLGATHER:
    MPI_Allgather(x->a, n, MPI_DOUBLE, x->b, n, MPI_DOUBLE, w);
    break;
  case ALLGATHERV:
    MPI_Allgatherv(x->a, n, MPI_DOUBLE, x->b, x->counts, x->displs, MPI_DOUBLE,
                   w);
    break;
  case ALLTOALL:
    MPI_Alltoall(x->a, n, MPI_DOUBLE, x->b, n, MPI_DOUBLE, w);
    break;
  default:
    MPI_Alltoallv(x->a, x->counts, x->displs, MPI_DOUBLE, x->b, x->counts,
                  x->displs, MPI_DOUBLE, w);
  }
}

/* Seconds from the first rank out of a barrier to the last rank done with
 * REPS calls, after one call to warm up. */
static double time_of(enum coll which, struct bufs *x) {
  run(which, x);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(), first, last;
  for (int i = 0; i < REPS; i++)
    run(which, x);
  double t1 = MPI_Wtime();
  MPI_Allreduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return last - first;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct bufs x;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &x.size);
  x.counts = malloc((size_t)x.size * sizeof *x.counts);
  x.displs = malloc((size_t)x.size * sizeof *x.displs);
  for (int a = 1; a < argc; a++) {
    x.n = atoi(argv[a]);
    size_t all = (size_t)x.n * (size_t)x.size + 1;
    x.a = calloc(all, sizeof *x.a);
    x.b = calloc(all, sizeof *x.b);
    for (int r = 0; r < x.size; r++)
      x.counts[r] = x.n, x.displs[r] = r * x.n;
    for (int i = 0; i < NCOLL; i++) {
      double s = time_of((enum coll)i, &x);
      if (rank == 0)
        printf("coll_time %s %zu %.9f\n", names[i],
               (size_t)x.n * sizeof(double), s);
    }
    free(x.a);
    free(x.b);
  }
  free(x.counts);
  free(x.displs);
  MPI_Finalize();
  return 0;
}
