/* calls_check: the MPI calls the runtime added after the audit of issue 13
 * (README, "Which MPI calls a rollback can interrupt"), made again and
 * again while failures hit, and the calls it refuses.
 *
 * Usage: calls_check [ITERS [LAG]]  (default 20 iterations, LAG 0)
 *        calls_check --call NAME    makes MPI_NAME, which must stop the run
 *
 * Each iteration (a safe point at its top) computes for a time that depends
 * on the rank, then makes MPI_Scan (out of place and in place), MPI_Exscan,
 * MPI_Reduce_scatter_block, MPI_Reduce_scatter, MPI_Alltoallw,
 * MPI_Comm_split_type, MPI_Comm_dup_with_info, MPI_Comm_compare,
 * MPI_Cart_sub, MPI_Comm_create, MPI_Rsend and MPI_Irsend, each checked against
 * its closed form; the number of wrong results is reduced at the end and given
 * to ft_report_result; exit 1 on any. Protected: the iteration and the error
 * count.
 * With LAG > 0 rank 0 computes LAG flops at the end of each iteration
 * (as wildcard_check's LAG): the others pass the next safe point before it
 * does, so that an epoch started in that gap straddles an iteration and
 * messages and
 * collectives cross the recovery line whatever the piggyback's form (under
 * piggyback=combined and auto the ranks otherwise reach each safe point
 * nearly together). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

/* One allreduce of `v` on `c`: 1 if it is not `expect`. */
static long sum_is(MPI_Comm c, long v, long expect) {
  long all = -1;
  MPI_Allreduce(&v, &all, 1, MPI_LONG, MPI_SUM, c);
  return all != expect;
}

static long scans(int rank) {
  long mine = rank + 1, incl = -1, excl = -7, bad = 0;
  MPI_Scan(&mine, &incl, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  bad += incl != (long)(rank + 1) * (rank + 2) / 2;
  long inplace = rank + 1;
  MPI_Scan(MPI_IN_PLACE, &inplace, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  bad += inplace != rank + 1;
  MPI_Exscan(&mine, &excl, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  bad += rank > 0 && excl != (long)rank * (rank + 1) / 2;
  return bad;
}

/* Rank q contributes v[i] = q + i: element i of the sum is
 * size (size - 1) / 2 + size i. */
static long reduce_scatters(int rank, int size) {
  int total = size * (size + 1) / 2,
      *counts = malloc((size_t)size * sizeof(int));
  long *v = malloc((size_t)(2 * size + total) * sizeof(long)), out[64], bad = 0;
  int first = rank * (rank + 1) / 2; /* counts[q] = q + 1 */
  for (int q = 0; q < size; q++)
    counts[q] = q + 1;
  for (int i = 0; i < 2 * size + total; i++)
    v[i] = rank + i;
  MPI_Reduce_scatter_block(v, out, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 2; i++)
    bad += out[i] != (long)size * (size - 1) / 2 + (long)size * (2 * rank + i);
  MPI_Reduce_scatter(v, out, counts, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i <= rank; i++)
    bad += out[i] != (long)size * (size - 1) / 2 + (long)size * (first + i);
  free(v);
  free(counts);
  return bad;
}

/* Rank r sends r * 100 + d to rank d, an int to even ranks and a long to
 * odd ones, at byte displacements. */
static long alltoallw(int rank, int size) {
  int *counts = malloc((size_t)size * sizeof(int)),
      *displs = malloc((size_t)size * sizeof(int));
  MPI_Datatype *types = malloc((size_t)size * sizeof(MPI_Datatype)),
               *rtypes = malloc((size_t)size * sizeof(MPI_Datatype));
  long *out = calloc((size_t)size, sizeof(long)),
       *in = calloc((size_t)size, sizeof(long)), bad = 0;
  for (int d = 0; d < size; d++) {
    counts[d] = 1;
    displs[d] = d * (int)sizeof(long);
    types[d] = rank % 2 ? MPI_LONG : MPI_INT; /* what rank sends */
    rtypes[d] = d % 2 ? MPI_LONG : MPI_INT;   /* what d sends */
    if (rank % 2)
      out[d] = rank * 100 + d;
    else
      *(int *)&out[d] = rank * 100 + d;
  }
  MPI_Alltoallw(out, counts, displs, types, in, counts, displs, rtypes,
                MPI_COMM_WORLD);
  for (int s = 0; s < size; s++)
    bad += (s % 2 ? in[s] : *(int *)&in[s]) != s * 100 + rank;
  free(counts);
  free(displs);
  free(types);
  free(rtypes);
  free(out);
  free(in);
  return bad;
}

/* The ranks on this rank's host (MPI_COMM_TYPE_SHARED's members). */
static int same_host(int size) {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  char *all = calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
  int len, n = 0;
  MPI_Get_processor_name(name, &len);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all,
                MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  for (int q = 0; q < size; q++)
    n += strcmp(all + (size_t)q * MPI_MAX_PROCESSOR_NAME, name) == 0;
  free(all);
  return n;
}

/* MPI_Comm_create of the first half of the ranks (a group: c3 makes it
 * again at a restore from its members, sim/runtime/piggyback/pb_comms.c). */
static long first_half(int rank, int size) {
  MPI_Group world, first;
  MPI_Comm low;
  int last = (size - 1) / 2, range[1][3] = {{0, last, 1}};
  long bad = 0;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_range_incl(world, 1, range, &first);
  MPI_Comm_create(MPI_COMM_WORLD, first, &low);
  bad += (low != MPI_COMM_NULL) != (rank <= last);
  if (low != MPI_COMM_NULL) {
    bad += sum_is(low, rank, (long)last * (last + 1) / 2);
    MPI_Comm_free(&low);
  }
  MPI_Group_free(&first);
  MPI_Group_free(&world);
  return bad;
}

static long creations(int rank, int size) {
  MPI_Comm node, twin, grid, column;
  long bad = 0;
  int n = same_host(size), got = -1, dims[2] = {0, 0}, periods[2] = {0, 0},
      remain[2] = {1, 0};
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &node);
  MPI_Comm_size(node, &got);
  bad += got != n || sum_is(node, 1, n);
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &twin);
  bad += sum_is(twin, rank, (long)size * (size - 1) / 2);
  MPI_Comm_compare(MPI_COMM_WORLD, twin, &got);
  bad += got != MPI_CONGRUENT;
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, remain, &column); /* same second coordinate c1 */
  int c1 = rank % dims[1];
  bad +=
      sum_is(column, rank,
             (long)dims[0] * c1 + (long)dims[1] * dims[0] * (dims[0] - 1) / 2);
  MPI_Comm_free(&column);
  MPI_Comm_free(&grid);
  MPI_Comm_free(&twin);
  MPI_Comm_free(&node);
  return bad + first_half(rank, size);
}

/* Ready sends around the ring, their receives posted before a barrier. */
static long ready_sends(int rank, int size) {
  long in[2] = {-1, -1}, out = rank, bad = 0;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request r[3];
  MPI_Irecv(&in[0], 1, MPI_LONG, left, 7, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&in[1], 1, MPI_LONG, left, 8, MPI_COMM_WORLD, &r[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(&out, 1, MPI_LONG, right, 7, MPI_COMM_WORLD);
  MPI_Irsend(&out, 1, MPI_LONG, right, 8, MPI_COMM_WORLD, &r[2]);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  bad += in[0] != left || in[1] != left;
  return bad;
}

/* ---- The calls the runtime refuses ---- */

/* Makes MPI_<name> with harmless arguments; returns 0 if `name` is not
 * listed. The runtime must stop the run before it returns. */
static int call_unsupported(const char *name) {
  MPI_Comm w = MPI_COMM_WORLD, c;
  MPI_Request r;
  MPI_Status st;
  MPI_Message m;
  MPI_Win win;
  MPI_File fh;
  MPI_Datatype t = MPI_INT;
  int x = 0, y = 0, zero[1] = {0}, one[1] = {1}, flag;
  MPI_Aint az[1] = {0};
  void *base = NULL;
  if (!strcmp(name, "Ibarrier"))
    MPI_Ibarrier(w, &r);
  else if (!strcmp(name, "Ibcast"))
    MPI_Ibcast(&x, 1, t, 0, w, &r);
  else if (!strcmp(name, "Igather"))
    MPI_Igather(&x, 0, t, &y, 0, t, 0, w, &r);
  else if (!strcmp(name, "Igatherv"))
    MPI_Igatherv(&x, 0, t, &y, zero, zero, t, 0, w, &r);
  else if (!strcmp(name, "Iallgather"))
    MPI_Iallgather(&x, 0, t, &y, 0, t, w, &r);
  else if (!strcmp(name, "Iallgatherv"))
    MPI_Iallgatherv(&x, 0, t, &y, zero, zero, t, w, &r);
  else if (!strcmp(name, "Iscatter"))
    MPI_Iscatter(&x, 0, t, &y, 0, t, 0, w, &r);
  else if (!strcmp(name, "Iscatterv"))
    MPI_Iscatterv(&x, zero, zero, t, &y, 0, t, 0, w, &r);
  else if (!strcmp(name, "Ireduce"))
    MPI_Ireduce(&x, &y, 1, t, MPI_SUM, 0, w, &r);
  else if (!strcmp(name, "Iallreduce"))
    MPI_Iallreduce(&x, &y, 1, t, MPI_SUM, w, &r);
  else if (!strcmp(name, "Iscan"))
    MPI_Iscan(&x, &y, 1, t, MPI_SUM, w, &r);
  else if (!strcmp(name, "Iexscan"))
    MPI_Iexscan(&x, &y, 1, t, MPI_SUM, w, &r);
  else if (!strcmp(name, "Ireduce_scatter"))
    MPI_Ireduce_scatter(&x, &y, one, t, MPI_SUM, w, &r);
  else if (!strcmp(name, "Ireduce_scatter_block"))
    MPI_Ireduce_scatter_block(&x, &y, 1, t, MPI_SUM, w, &r);
  else if (!strcmp(name, "Ialltoall"))
    MPI_Ialltoall(&x, 0, t, &y, 0, t, w, &r);
  else if (!strcmp(name, "Ialltoallv"))
    MPI_Ialltoallv(&x, zero, zero, t, &y, zero, zero, t, w, &r);
  else if (!strcmp(name, "Ialltoallw"))
    MPI_Ialltoallw(&x, zero, zero, &t, &y, zero, zero, &t, w, &r);
  else if (!strcmp(name, "Neighbor_allgather"))
    MPI_Neighbor_allgather(&x, 0, t, &y, 0, t, w);
  else if (!strcmp(name, "Neighbor_allgatherv"))
    MPI_Neighbor_allgatherv(&x, 0, t, &y, zero, zero, t, w);
  else if (!strcmp(name, "Neighbor_alltoall"))
    MPI_Neighbor_alltoall(&x, 0, t, &y, 0, t, w);
  else if (!strcmp(name, "Neighbor_alltoallv"))
    MPI_Neighbor_alltoallv(&x, zero, zero, t, &y, zero, zero, t, w);
  else if (!strcmp(name, "Neighbor_alltoallw"))
    MPI_Neighbor_alltoallw(&x, zero, az, &t, &y, zero, az, &t, w);
  else if (!strcmp(name, "Ineighbor_allgather"))
    MPI_Ineighbor_allgather(&x, 0, t, &y, 0, t, w, &r);
  else if (!strcmp(name, "Ineighbor_allgatherv"))
    MPI_Ineighbor_allgatherv(&x, 0, t, &y, zero, zero, t, w, &r);
  else if (!strcmp(name, "Ineighbor_alltoall"))
    MPI_Ineighbor_alltoall(&x, 0, t, &y, 0, t, w, &r);
  else if (!strcmp(name, "Ineighbor_alltoallv"))
    MPI_Ineighbor_alltoallv(&x, zero, zero, t, &y, zero, zero, t, w, &r);
  else if (!strcmp(name, "Ineighbor_alltoallw"))
    MPI_Ineighbor_alltoallw(&x, zero, az, &t, &y, zero, az, &t, w, &r);
  else if (!strcmp(name, "Bsend"))
    MPI_Bsend(&x, 1, t, 0, 0, w);
  else if (!strcmp(name, "Ibsend"))
    MPI_Ibsend(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Bsend_init"))
    MPI_Bsend_init(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Send_init"))
    MPI_Send_init(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Ssend_init"))
    MPI_Ssend_init(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Rsend_init"))
    MPI_Rsend_init(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Recv_init"))
    MPI_Recv_init(&x, 1, t, 0, 0, w, &r);
  else if (!strcmp(name, "Mprobe"))
    MPI_Mprobe(0, 0, w, &m, &st);
  else if (!strcmp(name, "Improbe"))
    MPI_Improbe(0, 0, w, &flag, &m, &st);
  else if (!strcmp(name, "Comm_create_group"))
    MPI_Comm_create_group(w, MPI_GROUP_EMPTY, 0, &c);
  else if (!strcmp(name, "Comm_idup"))
    MPI_Comm_idup(w, &c, &r);
  else if (!strcmp(name, "Graph_create"))
    MPI_Graph_create(w, 0, zero, zero, 0, &c);
  else if (!strcmp(name, "Dist_graph_create"))
    MPI_Dist_graph_create(w, 0, zero, zero, zero, zero, MPI_INFO_NULL, 0, &c);
  else if (!strcmp(name, "Dist_graph_create_adjacent"))
    MPI_Dist_graph_create_adjacent(w, 0, zero, zero, 0, zero, zero,
                                   MPI_INFO_NULL, 0, &c);
  else if (!strcmp(name, "Intercomm_create"))
    MPI_Intercomm_create(w, 0, w, 0, 0, &c);
  else if (!strcmp(name, "Intercomm_merge"))
    MPI_Intercomm_merge(w, 0, &c);
  else if (!strcmp(name, "Comm_spawn"))
    MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, w, &c, zero);
  else if (!strcmp(name, "Comm_connect"))
    MPI_Comm_connect("port", MPI_INFO_NULL, 0, w, &c);
  else if (!strcmp(name, "Comm_accept"))
    MPI_Comm_accept("port", MPI_INFO_NULL, 0, w, &c);
  else if (!strcmp(name, "Comm_join"))
    MPI_Comm_join(0, &c);
  else if (!strcmp(name, "Win_create"))
    MPI_Win_create(&x, sizeof x, 1, MPI_INFO_NULL, w, &win);
  else if (!strcmp(name, "Win_allocate"))
    MPI_Win_allocate(8, 1, MPI_INFO_NULL, w, &base, &win);
  else if (!strcmp(name, "Win_allocate_shared"))
    MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, w, &base, &win);
  else if (!strcmp(name, "Win_create_dynamic"))
    MPI_Win_create_dynamic(MPI_INFO_NULL, w, &win);
  else if (!strcmp(name, "Alltoall_in_place"))
    MPI_Alltoall(MPI_IN_PLACE, 0, t, &y, 1, t, w);
  else if (!strcmp(name, "Alltoallv_in_place"))
    MPI_Alltoallv(MPI_IN_PLACE, zero, zero, t, &y, one, zero, t, w);
  else if (!strcmp(name, "Alltoallw_in_place"))
    MPI_Alltoallw(MPI_IN_PLACE, zero, zero, &t, &y, one, zero, &t, w);
  else if (!strcmp(name, "File_open"))
    MPI_File_open(w, "calls_check.tmp", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  else
    return 0;
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 2 && strcmp(argv[1], "--call") == 0) {
    if (!call_unsupported(argv[2]))
      fprintf(stderr, "calls_check: no call named %s\n", argv[2]);
    else
      printf("calls_check: MPI_%s returned\n", argv[2]);
    MPI_Finalize();
    return 3;
  }
  long iters = argc > 1 ? atol(argv[1]) : 20, k = 0, errors = 0, all = 0;
  double lag = argc > 2 ? atof(argv[2]) : 0;
  if (iters < 1 || lag < 0 || size > 64) {
    if (rank == 0)
      fprintf(
          stderr,
          "usage: calls_check [ITERS >= 1 [LAG >= 0]] (64 ranks at most)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    ft_compute(1e6 * (1 + rank));
    errors += scans(rank) + reduce_scatters(rank, size);
    ft_compute(1e6 * (size - rank));
    errors +=
        alltoallw(rank, size) + creations(rank, size) + ready_sends(rank, size);
    if (rank == 0 && lag > 0)
      ft_compute(lag);
  }
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("calls_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every call checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
