/* Checks the runtime's collectives, communicator mapping and point-to-point
 * against answers computed independently on each rank. Run it under smpirun
 * (any rank count, with or without service ranks). Prints "coll_check: N
 * checks passed" from rank 0, or "coll_check: FAILED ..." and exits 1. */
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
      failures++;                                                              \
      fprintf(stderr, "coll_check: FAILED %s:%d: ", __FILE__, __LINE__);       \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* 2x2 integer matrix product: associative, not commutative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  int *a = in, *b = inout;
  for (int i = 0; i < *len; i++, a += 4, b += 4) {
    int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}

/* The matrix of rank r: [[1, r], [0, 1]] * (r odd ? [[0,1],[1,0]] : I). */
static void rank_matrix(int r, int m[4]) {
  int u[4] = {1, r, 0, 1};
  if (r % 2)
    (m[0] = u[1], m[1] = u[0], m[2] = u[3], m[3] = u[2]);
  else
    memcpy(m, u, sizeof u);
}

static void expected_product(int n, int m[4]) {
  int acc[4] = {1, 0, 0, 1}, len = 1;
  MPI_Datatype t = MPI_INT;
  for (int r = 0; r < n; r++) {
    int x[4];
    rank_matrix(r, x);
    matmul(acc, x, &len, &t); /* x = acc * x */
    memcpy(acc, x, sizeof x);
  }
  memcpy(m, acc, sizeof acc);
}

static void check_reductions(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  long s = rank + 1, sum = 0, want = (long)size * (size + 1) / 2;
  MPI_Allreduce(&s, &sum, 1, MPI_LONG, MPI_SUM, comm);
  CHECK(sum == want, "%s allreduce sum %ld != %ld", name, sum, want);
  double d[3] = {rank, -rank, 1.0}, dmax[3];
  MPI_Allreduce(d, dmax, 3, MPI_DOUBLE, MPI_MAX, comm);
  CHECK(dmax[0] == size - 1 && dmax[1] == 0 && dmax[2] == 1, "%s allreduce max",
        name);
  for (int root = 0; root < size; root += (size > 3 ? size / 3 : 1)) {
    long r = -1;
    MPI_Reduce(&s, rank == root ? &r : NULL, 1, MPI_LONG, MPI_SUM, root, comm);
    CHECK(rank != root || r == want, "%s reduce root %d: %ld", name, root, r);
  }
  MPI_Op op;
  MPI_Datatype mat; /* one 2x2 matrix per element */
  MPI_Type_contiguous(4, MPI_INT, &mat);
  MPI_Type_commit(&mat);
  MPI_Op_create(matmul, 0, &op);
  int m[4], got[4], want_m[4];
  rank_matrix(rank, m);
  expected_product(size, want_m);
  MPI_Allreduce(m, got, 1, mat, op, comm);
  CHECK(memcmp(got, want_m, sizeof got) == 0, "%s non-commutative allreduce",
        name);
  memcpy(got, m, sizeof m);
  MPI_Reduce(rank == size - 1 ? MPI_IN_PLACE : got, got, 1, mat, op, size - 1,
             comm);
  CHECK(rank != size - 1 || memcmp(got, want_m, sizeof got) == 0,
        "%s non-commutative reduce in place", name);
  MPI_Op_free(&op);
  MPI_Type_free(&mat);
  long inplace = rank + 1;
  MPI_Allreduce(MPI_IN_PLACE, &inplace, 1, MPI_LONG, MPI_SUM, comm);
  CHECK(inplace == want, "%s allreduce in place", name);
}

/* The predefined operations the runtime applies itself, not through
 * PMPI_Reduce_local (coll.c, reduce_local), on each type it handles, and on
 * one it leaves to the library (short): values whose results are exact. */
#define CHECK_OPS(T, MT)                                                       \
  do {                                                                         \
    T v = (T)(rank + 1), p = (T)(rank % 3 == 0 ? 2 : 1), out;                  \
    MPI_Allreduce(&v, &out, 1, MT, MPI_SUM, comm);                             \
    CHECK(out == (T)(size * (size + 1) / 2), "%s %s sum", name, #MT);          \
    MPI_Allreduce(&p, &out, 1, MT, MPI_PROD, comm);                            \
    CHECK(out == (T)(1 << ((size + 2) / 3)), "%s %s prod", name, #MT);         \
    MPI_Allreduce(&v, &out, 1, MT, MPI_MAX, comm);                             \
    CHECK(out == (T)size, "%s %s max", name, #MT);                             \
    MPI_Allreduce(&v, &out, 1, MT, MPI_MIN, comm);                             \
    CHECK(out == (T)1, "%s %s min", name, #MT);                                \
  } while (0)

static void check_local_ops(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  CHECK_OPS(double, MPI_DOUBLE);
  CHECK_OPS(float, MPI_FLOAT);
  CHECK_OPS(int, MPI_INT);
  CHECK_OPS(unsigned, MPI_UNSIGNED);
  CHECK_OPS(long, MPI_LONG);
  CHECK_OPS(unsigned long, MPI_UNSIGNED_LONG);
  CHECK_OPS(long long, MPI_LONG_LONG);
  CHECK_OPS(unsigned long long, MPI_UNSIGNED_LONG_LONG);
  CHECK_OPS(short, MPI_SHORT);
}

static void check_movement(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *all = malloc((size_t)size * 2 * sizeof *all);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *displs = malloc((size_t)size * sizeof *displs);
  int mine[2] = {rank, rank * rank}, root = size / 2;
  MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
  for (int r = 0; r < size; r++)
    CHECK(all[2 * r] == r && all[2 * r + 1] == r * r, "%s allgather", name);
  memset(all, -1, (size_t)size * 2 * sizeof *all);
  MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, root, comm);
  for (int r = 0; rank == root && r < size; r++)
    CHECK(all[2 * r] == r, "%s gather", name);
  int val = 7 * rank, bval = rank == root ? 4242 : 0;
  MPI_Bcast(&bval, 1, MPI_INT, root, comm);
  CHECK(bval == 4242, "%s bcast", name);
  for (int r = 0; r < size; r++)
    all[r] = 100 + r;
  MPI_Scatter(all, 1, MPI_INT, &val, 1, MPI_INT, root, comm);
  CHECK(rank == root || val == 100 + rank, "%s scatter %d", name, val);
  for (int r = 0; r < size; r++)
    counts[r] = r % 3, displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
  int total = displs[size - 1] + counts[size - 1], mv[2] = {rank, rank};
  int *gv = malloc((size_t)(total + 1) * sizeof *gv);
  MPI_Allgatherv(mv, counts[rank], MPI_INT, gv, counts, displs, MPI_INT, comm);
  for (int r = 0; r < size; r++)
    for (int k = 0; k < counts[r]; k++)
      CHECK(gv[displs[r] + k] == r, "%s allgatherv", name);
  MPI_Gatherv(mv, counts[rank], MPI_INT, gv, counts, displs, MPI_INT, 0, comm);
  MPI_Scatterv(gv, counts, displs, MPI_INT, mv, counts[rank], MPI_INT, 0, comm);
  CHECK(counts[rank] == 0 || mv[0] == rank, "%s gatherv/scatterv", name);
  int *out = malloc((size_t)size * sizeof *out),
      *in = malloc((size_t)size * sizeof *in);
  for (int r = 0; r < size; r++)
    out[r] = rank * 1000 + r;
  MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, comm);
  for (int r = 0; r < size; r++)
    CHECK(in[r] == r * 1000 + rank, "%s alltoall", name);
  MPI_Barrier(comm);
  free(all), free(counts), free(displs), free(gv), free(out), free(in);
}

/* MPI_Scatter from every root of blocks of 1, 700 and 9,000 ints (at 5
 * ranks the selector's binomial tree, basic linear and linear_nb: under
 * c3's combined form, coll_combined.c, their enlarged blocks too), in
 * place at every other root; then of a strided type (2 ints 2 apart) into
 * a strided type. Every element received is checked, and a root's own
 * block in place is left as it was. */
static void check_scatter(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  static const int blocks[] = {1, 700, 9000};
  for (int b = 0; b < 3; b++) {
    int m = blocks[b];
    int *all = malloc((size_t)size * (size_t)m * sizeof *all);
    int *mine = malloc((size_t)m * sizeof *mine);
    for (int root = 0; root < size; root++) {
      int in_place = rank == root && (root + b) % 2 == 0;
      for (int k = 0; k < size * m; k++)
        all[k] = root * 1000000 + (k / m) * 10000 + k % m;
      for (int i = 0; i < m; i++)
        mine[i] = -1;
      MPI_Scatter(all, m, MPI_INT, in_place ? MPI_IN_PLACE : mine, m, MPI_INT,
                  root, comm);
      const int *got = in_place ? all + (size_t)root * (size_t)m : mine;
      int bad = 0;
      for (int i = 0; i < m; i++)
        bad += got[i] != root * 1000000 + rank * 10000 + i;
      CHECK(bad == 0, "%s scatter of %d ints from %d%s: %d wrong", name, m,
            root, in_place ? " in place" : "", bad);
    }
    free(all);
    free(mine);
  }
  MPI_Datatype two; /* elements 0 and 2 of 3 ints */
  MPI_Type_vector(2, 1, 2, MPI_INT, &two);
  MPI_Type_commit(&two);
  int *all = malloc((size_t)size * 3 * sizeof *all), mine[3];
  for (int root = 0; root < size; root++) {
    for (int k = 0; k < 3 * size; k++)
      all[k] = root * 100 + k;
    mine[0] = mine[1] = mine[2] = -1;
    MPI_Scatter(all, 1, two, mine, 1, two, root, comm);
    CHECK(mine[0] == root * 100 + 3 * rank && mine[1] == -1 &&
              mine[2] == root * 100 + 3 * rank + 2,
          "%s strided scatter from %d: %d %d %d", name, root, mine[0], mine[1],
          mine[2]);
  }
  free(all);
  MPI_Type_free(&two);
}

/* MPI_Scatterv from every root: member r gets (r + root) % 3 + r ints
 * from displacements in reverse rank order, in place at odd roots. */
static void check_scatterv(MPI_Comm comm, const char *name) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *displs = malloc((size_t)size * sizeof *displs);
  int *all = malloc((size_t)size * (size_t)(size + 2) * sizeof *all);
  int *mine = malloc((size_t)(size + 2) * sizeof *mine);
  for (int root = 0; root < size; root++) {
    int at = 0, in_place = rank == root && root % 2 == 1;
    for (int r = size - 1; r >= 0; r--) {
      counts[r] = (r + root) % 3 + r;
      displs[r] = at;
      at += counts[r];
    }
    for (int k = 0; k < at; k++)
      all[k] = root * 1000 + k;
    for (int i = 0; i < size + 2; i++)
      mine[i] = -1;
    MPI_Scatterv(all, counts, displs, MPI_INT, in_place ? MPI_IN_PLACE : mine,
                 counts[rank], MPI_INT, root, comm);
    const int *got = in_place ? all + displs[rank] : mine;
    int bad = !in_place && mine[counts[rank]] != -1;
    for (int i = 0; i < counts[rank]; i++)
      bad += got[i] != root * 1000 + displs[rank] + i;
    CHECK(bad == 0, "%s scatterv from %d%s: %d wrong", name, root,
          in_place ? " in place" : "", bad);
  }
  free(counts), free(displs), free(all), free(mine);
}

/* A strided datatype through bcast and a non-contiguous reduce. */
static void check_datatypes(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Datatype every_other;
  MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  double v[8];
  for (int i = 0; i < 8; i++)
    v[i] = rank == 0 ? i : -1;
  MPI_Bcast(v, 1, every_other, 0, comm);
  CHECK(v[0] == 0 && v[2] == 2 && v[6] == 6 && (rank == 0 || v[1] == -1),
        "strided bcast");
  MPI_Type_free(&every_other);
}

static void check_p2p(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int right = (rank + 1) % size, left = (rank - 1 + size) % size, got = -1;
  MPI_Status st;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &got, 1, MPI_INT, MPI_ANY_SOURCE,
               MPI_ANY_TAG, comm, &st);
  CHECK(got == left && st.MPI_SOURCE == left && st.MPI_TAG == 5,
        "sendrecv ring: got %d from %d", got, st.MPI_SOURCE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1) /* expected application size (service ranks excluded) */
    CHECK(size == atoi(argv[1]), "world size %d, expected %s", size, argv[1]);
  check_p2p(MPI_COMM_WORLD);
  check_reductions(MPI_COMM_WORLD, "world");
  check_local_ops(MPI_COMM_WORLD, "world");
  check_movement(MPI_COMM_WORLD, "world");
  check_scatter(MPI_COMM_WORLD, "world");
  check_scatterv(MPI_COMM_WORLD, "world");
  check_datatypes(MPI_COMM_WORLD);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  check_reductions(half, "split");
  check_movement(half, "split");
  check_scatter(half, "split");
  check_scatterv(half, "split");
  MPI_Comm_dup(half, &dup);
  check_movement(dup, "dup");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  check_reductions(MPI_COMM_SELF, "self");
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ft_report_result(all_failures == 0, all_failures);
  if (rank == 0)
    printf(all_failures ? "coll_check: FAILED %d checks\n"
                        : "coll_check: %d checks passed\n",
           all_failures ? all_failures : checks);
  MPI_Finalize();
  return all_failures != 0;
}
