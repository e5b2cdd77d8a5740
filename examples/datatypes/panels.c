/* panels: derived datatypes as dense solvers build them, in C, built with
 * ftsim's wrappers (Makefile) or its CMake package (CMakeLists.txt).
 *
 * Every step each rank sends its right neighbour (a ring) one message of
 * each kind below and receives the same from its left neighbour, into
 * buffers cleared before each receive; every received byte is compared with
 * what the sender must have put there (a function of the sender, the step
 * and the position). The kinds:
 *  - panels: a struct type over two panels in distinct allocations (a small
 *    one and a large one, far apart in the address space) and a header int,
 *    built with absolute addresses (MPI_Get_address) and sent from and
 *    received at MPI_BOTTOM: its extent is the distance between the
 *    allocations, gigabytes or terabytes;
 *  - negative: an hindexed type whose displacements are negative, from a
 *    base in the middle of its buffer;
 *  - resized: a vector resized to a larger extent, count 3;
 *  - nested: a contiguous of an indexed of a struct (int, double);
 *  - far: a double resized to an extent of 3 GiB, count 1 (the extent of a
 *    count-1 message is never walked; MPI_Pack_size of SMPI 3.32 gave
 *    count x extent cut to an int, negative here).
 * Received values feed a checksum that the next steps carry (protected,
 * with a safe point at the top of each step), so a message replayed wrong
 * after a failure shows in the result.
 *
 * Usage: panels [steps] (default 200). */
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

enum { SMALL = 6, LARGE = 1 << 20, AT = LARGE - 40, NB = 5, NEG = 8 };

static double value(int sender, int step, int i) {
  return sender * 1000.0 + step + i * 0.125;
}

struct pair {
  int i;
  double d;
};

/* The panels' type at this rank's addresses: SMALL doubles of `small`,
 * NB doubles of `large` from AT, and *header. */
static MPI_Datatype panels_type(double *small, double *large, int *header) {
  int lens[3] = {SMALL, NB, 1};
  MPI_Aint at[3];
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT}, t;
  MPI_Get_address(small, &at[0]);
  MPI_Get_address(large + AT, &at[1]);
  MPI_Get_address(header, &at[2]);
  MPI_Type_create_struct(3, lens, at, types, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Doubles at base[-1], base[-3], ... base[-(2 NEG - 1)]. */
static MPI_Datatype negative_type(void) {
  int lens[NEG];
  MPI_Aint at[NEG];
  MPI_Datatype t;
  for (int k = 0; k < NEG; k++) {
    lens[k] = 1;
    at[k] = -(MPI_Aint)((2 * k + 1) * sizeof(double));
  }
  MPI_Type_create_hindexed(NEG, lens, at, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* 2 blocks of 2 doubles, stride 3, resized to an extent of 8 doubles. */
static MPI_Datatype resized_type(void) {
  MPI_Datatype v, t;
  MPI_Type_vector(2, 2, 3, MPI_DOUBLE, &v);
  MPI_Type_create_resized(v, 0, 8 * sizeof(double), &t);
  MPI_Type_free(&v);
  MPI_Type_commit(&t);
  return t;
}

/* contiguous(2) of indexed {pairs 0, 2-3} of struct pair. */
static MPI_Datatype nested_type(void) {
  int lens[2] = {1, 1}, ilens[2] = {1, 2}, idx[2] = {0, 2};
  MPI_Aint at[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, s, r, x, t;
  MPI_Type_create_struct(2, lens, at, types, &s);
  MPI_Type_create_resized(s, 0, sizeof(struct pair), &r);
  MPI_Type_indexed(2, ilens, idx, r, &x);
  MPI_Type_contiguous(2, x, &t);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
  MPI_Type_free(&x);
  MPI_Type_commit(&t);
  return t;
}

/* A double with an extent of 3 GiB. */
static MPI_Datatype far_type(void) {
  MPI_Datatype t;
  MPI_Type_create_resized(MPI_DOUBLE, 0, (MPI_Aint)3 << 30, &t);
  MPI_Type_commit(&t);
  return t;
}

struct bufs {
  double *small, *large;
  int header;
  double neg[2 * NEG + 2];
  double res[3 * 8];
  struct pair pairs[8];
  double far;
};

/* Writes the values of (sender, step) where the types read. */
static void fill(struct bufs *b, int sender, int step) {
  for (int i = 0; i < SMALL; i++)
    b->small[i] = value(sender, step, i);
  for (int i = 0; i < NB; i++)
    b->large[AT + i] = value(sender, step, 100 + i);
  b->header = sender * 100000 + step;
  for (int k = 0; k < NEG; k++)
    b->neg[2 * NEG + 1 - (2 * k + 1)] = value(sender, step, 200 + k);
  for (int i = 0; i < 3 * 8; i++)
    b->res[i] = value(sender, step, 300 + i);
  for (int i = 0; i < 8; i++)
    b->pairs[i] =
        (struct pair){sender + step + i, value(sender, step, 400 + i)};
  b->far = value(sender, step, 500);
}

static void clear(struct bufs *b) {
  memset(b->small, 0xff, SMALL * sizeof *b->small);
  memset(b->large + AT, 0xff, NB * sizeof *b->large);
  b->header = -1;
  memset(b->neg, 0xff, sizeof b->neg);
  memset(b->res, 0xff, sizeof b->res);
  memset(b->pairs, 0xff, sizeof b->pairs);
  memset(&b->far, 0xff, sizeof b->far);
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Mismatches between what the types received and what `sender` sent. */
static int check(const struct bufs *got, int sender, int step) {
  int bad = 0;
  for (int i = 0; i < SMALL; i++)
    bad += !same(got->small[i], value(sender, step, i));
  for (int i = 0; i < NB; i++)
    bad += !same(got->large[AT + i], value(sender, step, 100 + i));
  bad += got->header != sender * 100000 + step;
  for (int k = 0; k < NEG; k++)
    bad += !same(got->neg[2 * NEG + 1 - (2 * k + 1)],
                 value(sender, step, 200 + k));
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 8; i++) {
      int in = i == 0 || i == 1 || i == 3 || i == 4;
      double want = value(sender, step, 300 + c * 8 + i);
      bad +=
          in ? !same(got->res[c * 8 + i], want) : !isnan(got->res[c * 8 + i]);
    }
  for (int i = 0; i < 8; i++) {
    int in = i == 0 || i == 2 || i == 3 || i == 4 || i == 6 || i == 7;
    if (in)
      bad += got->pairs[i].i != sender + step + i ||
             !same(got->pairs[i].d, value(sender, step, 400 + i));
  }
  return bad + !same(got->far, value(sender, step, 500));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 200;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Two of each: what goes out, what comes in. The large panels are
   * allocated apart from the small ones (mmap'd by malloc at that size). */
  struct bufs out = {0}, in = {0};
  out.small = malloc(SMALL * sizeof(double));
  in.small = malloc(SMALL * sizeof(double));
  out.large = malloc(LARGE * sizeof(double));
  in.large = malloc(LARGE * sizeof(double));
  if (!out.small || !in.small || !out.large || !in.large)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Datatype t_out = panels_type(out.small, out.large, &out.header);
  MPI_Datatype t_in = panels_type(in.small, in.large, &in.header);
  MPI_Datatype neg = negative_type(), res = resized_type();
  MPI_Datatype nest = nested_type(), far = far_type();
  MPI_Aint lb, extent;
  MPI_Type_get_extent(t_out, &lb, &extent);

  int s, bad = 0;
  double sum = 0.0;
  ft_protect(0, &s, sizeof s);
  ft_protect(1, &bad, sizeof bad);
  ft_protect(2, &sum, sizeof sum);
  for (s = 0; s < steps; s++) {
    ft_snapshot(); /* safe point: checkpoint, or restore s, bad and sum */
    fill(&out, rank, s);
    clear(&in);
    MPI_Sendrecv(MPI_BOTTOM, 1, t_out, right, 0, MPI_BOTTOM, 1, t_in, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request r[8];
    double *nbase = out.neg + 2 * NEG + 1, *ibase = in.neg + 2 * NEG + 1;
    MPI_Irecv(ibase, 1, neg, left, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(in.res, 3, res, left, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(in.pairs, 1, nest, left, 3, MPI_COMM_WORLD, &r[2]);
    MPI_Irecv(&in.far, 1, far, left, 4, MPI_COMM_WORLD, &r[3]);
    MPI_Isend(nbase, 1, neg, right, 1, MPI_COMM_WORLD, &r[4]);
    MPI_Isend(out.res, 3, res, right, 2, MPI_COMM_WORLD, &r[5]);
    MPI_Isend(out.pairs, 1, nest, right, 3, MPI_COMM_WORLD, &r[6]);
    MPI_Isend(&out.far, 1, far, right, 4, MPI_COMM_WORLD, &r[7]);
    MPI_Waitall(8, r, MPI_STATUSES_IGNORE);
    bad += check(&in, left, s);
    sum += in.small[0] + in.large[AT] + in.header + in.pairs[7].d;
  }

  double want = 0.0;
  for (int k = 0; k < steps; k++)
    want += value(left, k, 0) + value(left, k, 100) + left * 100000 + k +
            value(left, k, 407);
  int ok = bad == 0 && sum == want, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("panels: %d ranks, %d steps, struct extent %lld bytes, %d wrong "
           "values at rank 0: %s\n",
           size, steps, (long long)extent, bad, all ? "verified" : "FAILED");
  ft_report_result(all, bad);
  MPI_Type_free(&t_out);
  MPI_Type_free(&t_in);
  MPI_Type_free(&neg);
  MPI_Type_free(&res);
  MPI_Type_free(&nest);
  MPI_Type_free(&far);
  free(out.small);
  free(in.small);
  free(out.large);
  free(in.large);
  MPI_Finalize();
  return all ? 0 : 1;
}
