/* coll_loop_check: collectives of every data-flow class of c3-collectives
 * (section 4) in a loop with a safe point at its top, for failures during
 * collectives that straddle the recovery line and while logging.
 *
 * Usage: coll_loop_check [ITERS]   (default 40; 2 to 64 ranks)
 *
 * Iteration k: every rank computes for a time that depends on its rank and
 * k, then with v(r) = 16 k + r + 1: MPI_Bcast of v(root) and
 * MPI_Scatter from root (k % n, single-sender), MPI_Reduce and MPI_Gather
 * to root ((k + 1) % n, single-receiver), MPI_Allreduce (sum and max),
 * MPI_Allgather and MPI_Alltoall (all-to-all), MPI_Barrier. Every result
 * is checked against its closed form; the allreduce's sum goes into a sum
 * compared with its closed form at the end. Rank 0 then computes longer:
 * the others pass the next safe point before it does, so that under c3,
 * whose initiator is rank 0, they checkpoint an iteration after it and
 * that iteration's collectives straddle the recovery line (late and early
 * messages in every class). Before the loop (main()'s prologue, run again
 * after every rollback) an MPI_Bcast and an MPI_Allreduce, checked: under
 * c3 the calls a restore re-executes (Figure 7's reexecList) must wait for
 * the restore at the first safe point, not pair with these. The verdict
 * goes to ft_report_result (exit 1 on any mismatch). Protected: the
 * iteration, the sum, the error count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

enum { MAX_RANKS = 64 };

static long v(long k, int r) { return 16 * k + r + 1; }

static long rooted(long k, int rank, int n) {
  long bad = 0, x = rank == (int)(k % n) ? v(k, rank) : -1, all[MAX_RANKS];
  MPI_Bcast(&x, 1, MPI_LONG, (int)(k % n), MPI_COMM_WORLD);
  bad += x != v(k, (int)(k % n));
  for (int i = 0; i < n; i++)
    all[i] = 100 * k + i;
  long mine = -1;
  MPI_Scatter(all, 1, MPI_LONG, &mine, 1, MPI_LONG, (int)(k % n),
              MPI_COMM_WORLD);
  bad += mine != 100 * k + rank;
  int root = (int)((k + 1) % n);
  long me = v(k, rank), sum = 0, got[MAX_RANKS];
  MPI_Reduce(&me, &sum, 1, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD);
  MPI_Gather(&me, 1, MPI_LONG, got, 1, MPI_LONG, root, MPI_COMM_WORLD);
  for (int i = 0; rank == root && i < n; i++)
    bad += got[i] != v(k, i);
  bad += rank == root && sum != n * (16 * k + 1) + (long)n * (n - 1) / 2;
  return bad;
}

static long everyone(long k, int rank, int n, long *sum) {
  long bad = 0, me = v(k, rank), s = 0, mx = 0, all[MAX_RANKS], out[MAX_RANKS],
       in[MAX_RANKS];
  MPI_Allreduce(&me, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&me, &mx, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  bad += s != n * (16 * k + 1) + (long)n * (n - 1) / 2 || mx != v(k, n - 1);
  MPI_Allgather(&me, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) {
    bad += all[i] != v(k, i);
    out[i] = 1000 * rank + i + k;
  }
  MPI_Alltoall(out, 1, MPI_LONG, in, 1, MPI_LONG, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    bad += in[i] != 1000 * i + rank + k;
  MPI_Barrier(MPI_COMM_WORLD);
  *sum += s;
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long iters = argc > 1 ? atol(argv[1]) : 40, k = 0, errors = 0, sum = 0;
  if (iters < 1 || n < 2 || n > MAX_RANKS) {
    if (rank == 0)
      fprintf(stderr, "usage: coll_loop_check [ITERS >= 1] (2 to 64 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  long first = rank == 0 ? 7 * n : -1, ranks = 0;
  MPI_Bcast(&first, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&(long){1}, &ranks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  long prologue = (first != 7 * n) + (ranks != n); /* not protected */
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &sum, sizeof sum);
  ft_protect(2, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k, sum and errors */
    ft_compute(2e5 * (double)(1 + (rank * 7 + k * 3) % 5));
    errors += rooted(k, rank, n);
    errors += everyone(k, rank, n, &sum);
    if (rank == 0) /* the others pass their safe point first */
      ft_compute(1e6);
  }
  long want = 0;
  for (long i = 0; i < iters; i++)
    want += n * (16 * i + 1) + (long)n * (n - 1) / 2;
  long bad = errors + (sum != want) + prologue, all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("coll_loop_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every collective checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
