/* Checks every algorithm the runtime's collectives pick (sim/coll_select.h:
 * SMPI's `ompi` selector, issue 18, item 3) against answers computed on
 * each rank, for the message sizes given as arguments (elements per rank;
 * each size moves the selector to other algorithms: segmented trees,
 * Bruck, ring, neighbour exchange ...), with and without MPI_IN_PLACE, on
 * MPI_COMM_WORLD and on a communicator of the odd ranks. Prints
 * "coll_algos_check: N checks passed" from rank 0, or
 * "coll_algos_check: FAILED ..." and exits 1.
 * Usage: coll_algos_check COUNT... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

static int failures, checks;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      if (failures++ < 20) {                                                   \
        fprintf(stderr, "coll_algos_check: FAILED %s:%d: ", __FILE__,          \
                __LINE__);                                                     \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
      }                                                                        \
    }                                                                          \
  } while (0)

/* A value of element i from rank r: exact in a double, sums included. */
static double val(int r, int i) { return (double)((r * 31 + i * 7) % 1000); }

static void check_rooted(MPI_Comm comm, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int root = size / 3;
  double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = rank == root ? val(root, i) : -1;
  MPI_Bcast(a, n, MPI_DOUBLE, root, comm);
  int ok = 1;
  for (int i = 0; i < n; i++)
    ok &= a[i] == val(root, i);
  CHECK(ok, "bcast of %d doubles from %d", n, root);
  for (int i = 0; i < n; i++)
    a[i] = val(rank, i);
  MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, root, comm);
  ok = 1;
  for (int i = 0; rank == root && i < n; i++) {
    double want = 0;
    for (int r = 0; r < size; r++)
      want += val(r, i);
    ok &= b[i] == want;
  }
  CHECK(ok, "reduce of %d doubles to %d", n, root);
  MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_DOUBLE, MPI_MAX, comm);
  ok = 1;
  for (int i = 0; i < n; i++) {
    double want = 0;
    for (int r = 0; r < size; r++)
      want = val(r, i) > want ? val(r, i) : want;
    ok &= a[i] == want;
  }
  CHECK(ok, "allreduce max of %d doubles", n);
  /* Inexact sums: every rank must end with the same bits. */
  for (int i = 0; i < n; i++)
    a[i] = 1.0 / (rank + i + 3);
  MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(b, a, n, MPI_DOUBLE, MPI_MAX, comm);
  CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0,
        "allreduce of %d doubles differs between ranks", n);
  MPI_Barrier(comm);
  free(a);
  free(b);
}

static void check_gather_scatter(MPI_Comm comm, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int root = size - 1 - size / 4;
  int *all = malloc((size_t)n * (size_t)size * sizeof *all);
  int *mine = malloc((size_t)n * sizeof *mine);
  for (int i = 0; i < n; i++)
    mine[i] = rank * 100000 + i;
  MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, comm);
  int ok = 1;
  for (size_t k = 0; rank == root && k < (size_t)n * (size_t)size; k++)
    ok &= all[k] == (int)(k / (size_t)n) * 100000 + (int)(k % (size_t)n);
  CHECK(ok, "gather of %d ints to %d", n, root);
  if (rank == root) { /* in place: the root's block is already there */
    memset(all, -1, (size_t)n * (size_t)size * sizeof *all);
    memcpy(all + (size_t)n * (size_t)root, mine, (size_t)n * sizeof *mine);
  }
  MPI_Gather(rank == root ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT,
             root, comm);
  ok = 1;
  for (size_t k = 0; rank == root && k < (size_t)n * (size_t)size; k++)
    ok &= all[k] == (int)(k / (size_t)n) * 100000 + (int)(k % (size_t)n);
  CHECK(ok, "gather in place of %d ints to %d", n, root);
  for (size_t k = 0; k < (size_t)n * (size_t)size; k++)
    all[k] = rank == root ? (int)k : -1;
  memset(mine, -1, (size_t)n * sizeof *mine);
  MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, root, comm);
  ok = 1;
  for (int i = 0; i < n; i++)
    ok &= mine[i] == rank * n + i;
  CHECK(ok, "scatter of %d ints from %d", n, root);
  free(all);
  free(mine);
}

static void check_allgathers(MPI_Comm comm, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *all = malloc((size_t)n * (size_t)size * sizeof *all);
  int *mine = malloc((size_t)n * sizeof *mine);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *displs = malloc((size_t)size * sizeof *displs);
  for (int i = 0; i < n; i++)
    mine[i] = rank * 100000 + i;
  MPI_Allgather(mine, n, MPI_INT, all, n, MPI_INT, comm);
  int ok = 1;
  for (size_t k = 0; k < (size_t)n * (size_t)size; k++)
    ok &= all[k] == (int)(k / (size_t)n) * 100000 + (int)(k % (size_t)n);
  CHECK(ok, "allgather of %d ints", n);
  memset(all, -1, (size_t)n * (size_t)size * sizeof *all);
  memcpy(all + (size_t)n * (size_t)rank, mine, (size_t)n * sizeof *mine);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT, comm);
  ok = 1;
  for (size_t k = 0; k < (size_t)n * (size_t)size; k++)
    ok &= all[k] == (int)(k / (size_t)n) * 100000 + (int)(k % (size_t)n);
  CHECK(ok, "allgather in place of %d ints", n);
  int total = 0; /* rank r sends n - (r % 3) ints, blocks in reverse order */
  for (int r = size - 1; r >= 0; r--) {
    counts[r] = n > 2 ? n - r % 3 : n;
    displs[r] = total;
    total += counts[r];
  }
  memset(all, -1, (size_t)n * (size_t)size * sizeof *all);
  MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT,
                 comm);
  ok = 1;
  for (int r = 0; r < size; r++)
    for (int i = 0; i < counts[r]; i++)
      ok &= all[displs[r] + i] == r * 100000 + i;
  CHECK(ok, "allgatherv of about %d ints", n);
  free(all);
  free(mine);
  free(counts);
  free(displs);
}

static void check_alltoalls(MPI_Comm comm, int n) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  size_t total = (size_t)n * (size_t)size;
  int *out = malloc(total * sizeof *out), *in = malloc(total * sizeof *in);
  for (size_t k = 0; k < total; k++)
    out[k] = rank * 1000000 + (int)k;
  MPI_Alltoall(out, n, MPI_INT, in, n, MPI_INT, comm);
  int ok = 1;
  for (int r = 0; r < size; r++)
    for (int i = 0; i < n; i++)
      ok &= in[(size_t)r * (size_t)n + (size_t)i] == r * 1000000 + rank * n + i;
  CHECK(ok, "alltoall of %d ints per rank", n);
  memcpy(in, out, total * sizeof *in);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, n, MPI_INT, comm);
  ok = 1;
  for (int r = 0; r < size; r++)
    for (int i = 0; i < n; i++)
      ok &= in[(size_t)r * (size_t)n + (size_t)i] == r * 1000000 + rank * n + i;
  CHECK(ok, "alltoall in place of %d ints per rank", n);
  int *sc = malloc((size_t)size * sizeof *sc),
      *sd = malloc((size_t)size * sizeof *sd);
  int *rc = malloc((size_t)size * sizeof *rc),
      *rd = malloc((size_t)size * sizeof *rd);
  for (int r = 0; r < size; r++) { /* rank a sends (a + b) % 3 ints to b */
    sc[r] = n > 2 ? n - (rank + r) % 3 : n;
    sd[r] = r * n;
    rc[r] = n > 2 ? n - (rank + r) % 3 : n;
    rd[r] = (size - 1 - r) * n;
  }
  memset(in, -1, total * sizeof *in);
  MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, comm);
  ok = 1;
  for (int r = 0; r < size; r++)
    for (int i = 0; i < rc[r]; i++)
      ok &= in[rd[r] + i] == r * 1000000 + rank * n + i;
  CHECK(ok, "alltoallv of about %d ints per rank", n);
  free(out), free(in), free(sc), free(sd), free(rc), free(rd);
}

static void check_all(MPI_Comm comm, int n) {
  check_rooted(comm, n);
  check_gather_scatter(comm, n);
  check_allgathers(comm, n);
  check_alltoalls(comm, n);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm odd;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
  for (int a = 1; a < argc; a++) {
    check_all(MPI_COMM_WORLD, atoi(argv[a]));
    if (rank % 2)
      check_all(odd, atoi(argv[a]));
  }
  MPI_Comm_free(&odd);
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ft_report_result(all_failures == 0, all_failures);
  if (rank == 0)
    printf(all_failures ? "coll_algos_check: FAILED %d checks\n"
                        : "coll_algos_check: %d checks passed\n",
           all_failures ? all_failures : checks);
  MPI_Finalize();
  return all_failures != 0;
}
