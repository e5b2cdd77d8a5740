/* vcoll_loop_check: the collectives whose result is not one buffer of one
 * type (MPI_Gatherv, Scatterv, Allgatherv, Alltoallv, Alltoallw, Scan,
 * Exscan, Reduce_scatter, Reduce_scatter_block) in a loop with a safe
 * point at its top, as coll_loop_check does for the others: rank 0
 * computes longer at the end of each iteration, so that under c3 the
 * others checkpoint an iteration after it and the calls straddle the
 * recovery line.
 *
 * Usage: vcoll_loop_check [ITERS]   (default 30; 2 to 16 ranks)
 *
 * MPI_Gatherv and MPI_Scatterv run twice an iteration, rooted at rank 0
 * and at another rank (a root beyond the recovery line and one behind
 * it). The v forms move "pairs", a non-contiguous type (MPI_Type_vector(2, 1,
 * 2, MPI_LONG): two longs around a gap, extent three longs), with counts
 * that vary by rank and iteration, blocks one pair apart; alltoallw mixes
 * pairs and longs at byte displacements; one allgatherv is
 * MPI_IN_PLACE. Every receive buffer starts
 * filled with a sentinel, and every long of it is checked afterwards: the
 * values the call writes, and the sentinel in every gap and between the
 * blocks (a replayed result must write exactly the bytes the call
 * writes). Every value received goes into a checksum (protected), printed
 * at the end: runs under other protocols and failures must print the same
 * as under `none`. The verdict goes to ft_report_result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { MAX_RANKS = 16, SLOT = 4, SENTINEL = -7 };
enum { BUF = MAX_RANKS * SLOT * 3 }; /* longs: n blocks of SLOT pairs */

static MPI_Datatype pair;
static long errors;
static unsigned long hash;

static long v(long k, long a, long j, long w) {
  return 100000 * k + 100 * a + 10 * j + w;
}
static int c1(long k, int i) { return 1 + (int)((i + k) % 3); }
static int c2(long k, int s, int d) { return 1 + (int)((s + 2 * d + k) % 3); }

static void fill(long *b, int n) {
  for (int i = 0; i < n; i++)
    b[i] = SENTINEL;
}

/* Checks b[at] against want and folds it into the checksum. */
static void expect(const long *b, int at, long want) {
  errors += b[at] != want;
  hash = hash * 1000003u + (unsigned long)b[at];
}

/* The gaps and the space between blocks: still the sentinel. */
static void untouched(const long *b, const char *written, int n) {
  for (int i = 0; i < n; i++)
    if (!written[i])
      errors += b[i] != SENTINEL;
}

/* Block of `count` pairs at pair `at` of b: pair j holds v(k, a, j, 0..1). */
static void put_pairs(long *b, int at, int count, long k, long a) {
  for (int j = 0; j < count; j++) {
    b[3 * (at + j)] = v(k, a, j, 0);
    b[3 * (at + j) + 2] = v(k, a, j, 1);
  }
}
static void check_pairs(const long *b, char *written, int at, int count, long k,
                        long a) {
  for (int j = 0; j < count; j++) {
    expect(b, 3 * (at + j), v(k, a, j, 0));
    expect(b, 3 * (at + j) + 2, v(k, a, j, 1));
    written[3 * (at + j)] = written[3 * (at + j) + 2] = 1;
  }
}

/* Displacements (in pairs) of blocks of counts[], one pair apart. */
static void spaced(const int counts[], int n, int displs[]) {
  for (int i = 0, at = 0; i < n; at += counts[i++] + 1)
    displs[i] = at;
}

static void gathers(long k, int rank, int n, int root) {
  long mine[SLOT * 3], all[BUF];
  char written[BUF] = {0};
  int counts[MAX_RANKS], displs[MAX_RANKS];
  for (int i = 0; i < n; i++)
    counts[i] = c1(k, i);
  spaced(counts, n, displs);
  put_pairs(mine, 0, counts[rank], k, rank);
  fill(all, BUF);
  MPI_Gatherv(mine, counts[rank], pair, all, counts, displs, pair, root,
              MPI_COMM_WORLD);
  for (int i = 0; rank == root && i < n; i++)
    check_pairs(all, written, displs[i], counts[i], k, i);
  if (rank == root)
    untouched(all, written, BUF);
  fill(all, BUF);
  char written2[BUF] = {0};
  MPI_Allgatherv(mine, counts[rank], pair, all, counts, displs, pair,
                 MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    check_pairs(all, written2, displs[i], counts[i], k, i);
  untouched(all, written2, BUF);
  fill(all, BUF); /* with MPI_IN_PLACE: this rank's block is in place */
  char written3[BUF] = {0};
  put_pairs(all, displs[rank], counts[rank], k, rank);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, pair,
                 MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    check_pairs(all, written3, displs[i], counts[i], k, i);
  untouched(all, written3, BUF);
}

static void scatters(long k, int rank, int n, int root) {
  long all[BUF], mine[SLOT * 3];
  char written[SLOT * 3] = {0};
  int counts[MAX_RANKS], displs[MAX_RANKS];
  for (int i = 0; i < n; i++)
    counts[i] = c1(k + 1, i);
  spaced(counts, n, displs);
  for (int i = 0; rank == root && i < n; i++)
    put_pairs(all, displs[i], counts[i], k, 50 + i);
  fill(mine, SLOT * 3);
  MPI_Scatterv(all, counts, displs, pair, mine, counts[rank], pair, root,
               MPI_COMM_WORLD);
  check_pairs(mine, written, 0, counts[rank], k, 50 + rank);
  untouched(mine, written, SLOT * 3);
}

static void alltoallv(long k, int rank, int n) {
  long out[BUF], in[BUF];
  char written[BUF] = {0};
  int sc[MAX_RANKS], sd[MAX_RANKS], rc[MAX_RANKS], rd[MAX_RANKS];
  for (int i = 0; i < n; i++) {
    sc[i] = c2(k, rank, i);
    rc[i] = c2(k, i, rank);
  }
  spaced(sc, n, sd);
  spaced(rc, n, rd);
  for (int i = 0; i < n; i++)
    put_pairs(out, sd[i], sc[i], k, 16 * rank + i);
  fill(in, BUF);
  MPI_Alltoallv(out, sc, sd, pair, in, rc, rd, pair, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    check_pairs(in, written, rd[i], rc[i], k, 16 * i + rank);
  untouched(in, written, BUF);
}

/* Between ranks s and d: c2(k, s, d) pairs when s + d is odd, longs
 * otherwise, at slot d (send) or s (receive), SLOT pairs a slot. */
static void alltoallw(long k, int rank, int n) {
  long out[BUF], in[BUF];
  char written[BUF] = {0};
  int sc[MAX_RANKS], sd[MAX_RANKS], rc[MAX_RANKS], rd[MAX_RANKS];
  MPI_Datatype st[MAX_RANKS], rt[MAX_RANKS];
  for (int i = 0; i < n; i++) {
    int odd = (rank + i) % 2;
    sc[i] = c2(k, rank, i);
    rc[i] = c2(k, i, rank);
    st[i] = rt[i] = odd ? pair : MPI_LONG;
    sd[i] = rd[i] = i * SLOT * 3 * (int)sizeof(long);
    if (odd) {
      put_pairs(out, i * SLOT, sc[i], k, 16 * rank + i);
      continue;
    }
    for (int j = 0; j < sc[i]; j++)
      out[i * SLOT * 3 + j] = v(k, 16 * rank + i, j, 5);
  }
  fill(in, BUF);
  MPI_Alltoallw(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) {
    if ((rank + i) % 2) {
      check_pairs(in, written, i * SLOT, rc[i], k, 16 * i + rank);
      continue;
    }
    for (int j = 0; j < rc[i]; j++) {
      expect(in, i * SLOT * 3 + j, v(k, 16 * i + rank, j, 5));
      written[i * SLOT * 3 + j] = 1;
    }
  }
  untouched(in, written, BUF);
}

static long x(long k, int q, int e) { return q + 1 + e + k; }

static void prefixes(long k, int rank, int n) {
  long in[3], out[3], ex[2];
  for (int e = 0; e < 3; e++)
    in[e] = x(k, rank, e);
  MPI_Scan(in, out, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  fill(ex, 2);
  MPI_Exscan(in, ex, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int e = 0; e < 3; e++) {
    long want = 0, before = 0;
    for (int q = 0; q <= rank; q++)
      want += x(k, q, e);
    before = want - x(k, rank, e);
    expect(out, e, want);
    if (e < 2)
      expect(ex, e, rank == 0 ? SENTINEL : before);
  }
  (void)n;
}

static void reduce_scatters(long k, int rank, int n) {
  long in[MAX_RANKS * 3], out[3], blk[2];
  int counts[MAX_RANKS], total = 0, off = 0;
  for (int i = 0; i < n; i++) {
    counts[i] = c1(k, i);
    off += i < rank ? counts[i] : 0;
    total += counts[i];
  }
  for (int m = 0; m < total; m++)
    in[m] = rank * 7 + m + k;
  fill(out, 3);
  MPI_Reduce_scatter(in, out, counts, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int e = 0; e < 3; e++)
    expect(out, e,
           e < counts[rank] ? 7L * n * (n - 1) / 2 + n * (off + e + k)
                            : SENTINEL);
  for (int m = 0; m < 2 * n; m++)
    in[m] = rank + m * 3 + k;
  MPI_Reduce_scatter_block(in, blk, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int e = 0; e < 2; e++)
    expect(blk, e, (long)n * (n - 1) / 2 + n * ((rank * 2 + e) * 3 + k));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long iters = argc > 1 ? atol(argv[1]) : 30, k = 0;
  if (iters < 1 || n < 2 || n > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr, "usage: vcoll_loop_check [ITERS >= 1] (2 to 16 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Type_vector(2, 1, 2, MPI_LONG, &pair);
  MPI_Type_commit(&pair);
  hash = 0; /* main() runs again after a rollback to the start */
  errors = 0;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &hash, sizeof hash);
  ft_protect(2, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, hash and errors */
    ft_compute(2e5 * (double)(1 + (rank * 7 + k * 3) % 5));
    for (int r = 0; r < 2; r++) { /* rank 0 is the root of one of each */
      int root = r ? 1 + (int)(k % (n - 1)) : 0;
      gathers(k, rank, n, root);
      scatters(k, rank, n, root);
    }
    alltoallv(k, rank, n);
    alltoallw(k, rank, n);
    prefixes(k, rank, n);
    reduce_scatters(k, rank, n);
    if (rank == 0) /* the others pass their safe point first */
      ft_compute(4e6);
  }
  long all = 0;
  unsigned long sum = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&hash, &sum, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("vcoll_loop_check: %ld iterations, %s, checksum %016lx\n", iters,
           all ? "FAILED" : "every collective checked", sum);
  ft_report_result(all == 0, (double)iters);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return all ? 1 : 0;
}
