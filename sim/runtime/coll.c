/* Collectives carried over point-to-point by the runtime, on each
 * communicator's "coll" shadow (comm.c), so that protocol cores see every
 * message (as Open MPI-V does) and a rollback can abandon a collective.
 *
 * The algorithms are those SMPI 3.32's `ompi` selector picks for the same
 * communicator size and message size (sim/coll_select.h; coll_algo.c,
 * coll_exchange.c), so that simulated times stay those of a plain SMPI
 * run (issue 18, item 3). Kept from before, as SMPI's own: a reduction of
 * a non-commutative operation is linear, in rank order, at the root
 * (allreduce: then a bcast); gatherv and scatterv linear at the root;
 * alltoallw linear, as SMPI's (ialltoallw). Scan and
 * exscan run along a chain in rank order (SMPI's send every rank's data
 * to every higher rank), reduce_scatter as a reduce to rank 0 and a
 * scatterv (the selector's non-overlapping algorithm, at every size).
 * Every rank posts receives from named sources only, so successive
 * collectives on one communicator cannot cross. Their operations are the
 * runtime's own: an error code stops the run (ft_pmpi_check). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_algo.h"
#include "coll_select.h"
#include "runtime.h"

/* ---- Barrier and broadcast ---- */

/* ---- Reductions ---- */

/* Linear, in rank order, for non-commutative operations:
 * the root computes ((x0 op x1) op x2) ... */
static void reduce_ordered(struct ft_runtime *rt, void *acc, int count,
                           MPI_Datatype type, MPI_Op op, int root,
                           struct ft_comm *c) {
  if (c->rank != root) {
    ft_coll_send(acc, count, type, root, FT_TAG_REDUCE, c);
    return;
  }
  void *base, *left = ft_coll_scratch(count, type, &base);
  void *base2, *tmp = ft_coll_scratch(count, type, &base2);
  for (int r = 0; r < c->size; r++) {
    void *x = r == root ? acc : tmp;
    if (r != root)
      ft_coll_recv(rt, tmp, count, type, r, FT_TAG_REDUCE, c);
    if (r > 0)
      ft_coll_reduce_local(left, x, count, type, op); /* x = left op x */
    ft_coll_copy(left, x, count, type);
  }
  ft_coll_copy(acc, left, count, type);
  free(base);
  free(base2);
}

static void reduce_any(struct ft_runtime *rt, void *acc, int count,
                       MPI_Datatype type, MPI_Op op, int root,
                       struct ft_comm *c) {
  if (ft_coll_commutative(op))
    ft_coll_reduce_commutative(rt, acc, count, type, op, root, c);
  else
    reduce_ordered(rt, acc, count, type, op, root, c);
}

static int reduce_body(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  void *base = NULL, *acc = rbuf;
  if (c->rank != root)
    acc = ft_coll_scratch(count, type, &base);
  if (!(c->rank == root && sbuf == MPI_IN_PLACE))
    ft_coll_copy(acc, sbuf, count, type);
  reduce_any(rt, acc, count, type, op, root, c);
  free(base);
  return MPI_SUCCESS;
}

static int allreduce_body(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                          int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf != MPI_IN_PLACE)
    ft_coll_copy(rbuf, sbuf, count, type);
  if (ft_coll_commutative(op)) {
    ft_coll_allreduce_commutative(rt, rbuf, count, type, op, c);
  } else {
    reduce_ordered(rt, rbuf, count, type, op, 0, c);
    ft_coll_bcast(rt, rbuf, count, type, 0, c);
  }
  return MPI_SUCCESS;
}

/* ---- Gather and scatter: linear at the root, or on a binomial tree ---- */

/* Receives every other rank's block at the root: all posted at once
 * (SMPI's gatherv), or one blocking receive after the other in rank order
 * (Open MPI's basic linear gather, `in_order`). */
static void gather_at_root(struct ft_runtime *rt, void *rbuf,
                           const int counts[], const int displs[],
                           MPI_Datatype rtype, int in_order,
                           struct ft_comm *c) {
  struct ft_coll_recv *in = malloc((size_t)c->size * sizeof *in);
  if (!in)
    ft_fatal("out of memory in a gather");
  for (int r = 0; r < c->size; r++)
    in[r] = (struct ft_coll_recv){r == c->rank ? MPI_PROC_NULL : r,
                                  ft_coll_at(rbuf, displs[r], rtype), counts[r],
                                  rtype};
  for (int r = 0; in_order && r < c->size; r++)
    if (r != c->rank)
      ft_coll_recv(rt, in[r].buf, counts[r], rtype, r, FT_TAG_GATHER, c);
  if (!in_order)
    ft_coll_recv_all(rt, c, c->size, in, FT_TAG_GATHER);
  free(in);
}

static int gatherv_any(struct ft_runtime *rt, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, const int counts[],
                       const int displs[], MPI_Datatype rtype, int root,
                       int in_order, struct ft_comm *c) {
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->rank != root) {
    ft_pmpi_check(
        ft_send_internal(sbuf, scount, stype, root, FT_TAG_GATHER, c->coll),
        "MPI_Send");
    return MPI_SUCCESS;
  }
  if (sbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, sbuf, scount, stype, 0, 0,
            ft_coll_at(rbuf, displs[root], rtype), counts[root], rtype, 0, 0,
            MPI_COMM_SELF, MPI_STATUS_IGNORE);
  gather_at_root(rt, rbuf, counts, displs, rtype, in_order, c);
  return MPI_SUCCESS;
}

/* Regular counts and displacements for the v-less collectives. */
static void regular(int count, int size, int **counts, int **displs) {
  *counts = malloc((size_t)size * sizeof **counts);
  *displs = malloc((size_t)size * sizeof **displs);
  if (!*counts || !*displs)
    ft_fatal("out of memory in a collective");
  for (int r = 0; r < size; r++) {
    (*counts)[r] = count;
    (*displs)[r] = r * count;
  }
}

static int gatherv_body(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, const int counts[],
                        const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm) {
  return gatherv_any(rt, sbuf, scount, stype, rbuf, counts, displs, rtype, root,
                     0, ft_comm_get(rt, comm));
}

static int gather_body(struct ft_runtime *rt, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int is_root = c->rank == root;
  size_t block =
      is_root ? ft_coll_bytes(rcount, rtype) : ft_coll_bytes(scount, stype);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->size > 1 && ft_coll_select_gather(c->size, block) == 2) {
    void *mine = is_root ? ft_coll_at(rbuf, (MPI_Aint)root * rcount, rtype)
                         : (void *)(uintptr_t)sbuf;
    if (is_root && sbuf != MPI_IN_PLACE)
      FT_PMPI(Sendrecv, sbuf, scount, stype, 0, 0, mine, rcount, rtype, 0, 0,
              MPI_COMM_SELF, MPI_STATUS_IGNORE);
    ft_coll_gather_binomial(rt, mine, is_root ? rcount : scount,
                            is_root ? rtype : stype, rbuf, root, c);
    return MPI_SUCCESS;
  }
  int *counts, *displs;
  regular(rcount, c->size, &counts, &displs);
  int rc = gatherv_any(rt, sbuf, scount, stype, rbuf, counts, displs, rtype,
                       root, 1, c); /* 1 basic linear, 3 linear_sync as 1 */
  free(counts);
  free(displs);
  return rc;
}

/* Linear at the root: blocking sends in rank order (Open MPI's basic
 * linear scatter), or all posted at once (`nonblocking`: linear_nb and
 * SMPI's scatterv). */
static int scatterv_any(struct ft_runtime *rt, const void *sbuf,
                        const int counts[], const int displs[],
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, int nonblocking,
                        struct ft_comm *c) {
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->rank != root) {
    ft_coll_recv(rt, rbuf, rcount, rtype, root, FT_TAG_SCATTER, c);
    return MPI_SUCCESS;
  }
  MPI_Request *reqs = malloc((size_t)c->size * sizeof *reqs);
  if (!reqs)
    ft_fatal("out of memory in a scatter");
  int n = 0;
  for (int r = 0; r < c->size; r++)
    if (r != root && nonblocking)
      ft_coll_isend(ft_coll_at(sbuf, displs[r], stype), counts[r], stype, r,
                    FT_TAG_SCATTER, c, &reqs[n++]);
    else if (r != root)
      ft_coll_send(ft_coll_at(sbuf, displs[r], stype), counts[r], stype, r,
                   FT_TAG_SCATTER, c);
  ft_coll_complete(rt, c, n, reqs, 0, NULL, FT_TAG_SCATTER);
  free(reqs);
  if (rbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, ft_coll_at(sbuf, displs[root], stype), counts[root],
            stype, 0, 0, rbuf, rcount, rtype, 0, 0, MPI_COMM_SELF,
            MPI_STATUS_IGNORE);
  return MPI_SUCCESS;
}

static int scatterv_body(struct ft_runtime *rt, const void *sbuf,
                         const int counts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm) {
  return scatterv_any(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                      root, 1, ft_comm_get(rt, comm));
}

static int scatter_body(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int is_root = c->rank == root;
  size_t block =
      is_root ? ft_coll_bytes(scount, stype) : ft_coll_bytes(rcount, rtype);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->size > 1 && ft_coll_select_scatter(c->size, block) == 2) {
    ft_coll_scatter_binomial(rt, sbuf, is_root ? MPI_IN_PLACE : rbuf,
                             is_root ? scount : rcount, is_root ? stype : rtype,
                             root, c);
    if (is_root && rbuf != MPI_IN_PLACE)
      FT_PMPI(Sendrecv, ft_coll_at(sbuf, (MPI_Aint)root * scount, stype),
              scount, stype, 0, 0, rbuf, rcount, rtype, 0, 0, MPI_COMM_SELF,
              MPI_STATUS_IGNORE);
    return MPI_SUCCESS;
  }
  int *counts, *displs;
  regular(scount, c->size, &counts, &displs);
  int alg = c->size > 1 ? ft_coll_select_scatter(c->size, block) : 1;
  int rc = scatterv_any(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                        root, alg == 3, c);
  free(counts);
  free(displs);
  return rc;
}

/* ---- Allgather(v), alltoall(v): coll_exchange.c ---- */

static int allgatherv_body(struct ft_runtime *rt, const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, const int counts[],
                           const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm) {
  ft_coll_allgatherv(rt, sbuf, scount, stype, rbuf, counts, displs, rtype, 0,
                     ft_comm_get(rt, comm));
  return MPI_SUCCESS;
}

static int allgather_body(struct ft_runtime *rt, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *counts, *displs;
  regular(rcount, c->size, &counts, &displs);
  ft_coll_allgatherv(rt, sbuf, scount, stype, rbuf, counts, displs, rtype, 1,
                     c);
  free(counts);
  free(displs);
  return MPI_SUCCESS;
}

/* MPI_IN_PLACE (MPI-3.1, 5.8): the data to send is taken from the receive
 * buffer, block i (rdispls[i], rcounts[i] of rtype, or bytes at rdispls[i]
 * of rtypes[i] with byte displacements) going to rank i, and replaced by
 * what rank i sends. Each block is first packed into a copy (ft_pack_copy),
 * which is sent as MPI_PACKED (received as any type of the same
 * signature, MPI-3.1, 4.2): the exchange then runs as without
 * MPI_IN_PLACE. */
static void **in_place_blocks(struct ft_runtime *rt, void *rbuf,
                              const int rcounts[], const int rdispls[],
                              MPI_Datatype rtype, const MPI_Datatype rtypes[],
                              struct ft_comm *c, int bytes[]) {
  void **blocks = calloc((size_t)c->size, sizeof *blocks);
  if (!blocks)
    ft_fatal("out of memory in an all-to-all with MPI_IN_PLACE");
  for (int i = 0; i < c->size; i++) {
    size_t packed;
    const void *at_i = rtypes ? (const char *)rbuf + rdispls[i]
                              : ft_coll_at(rbuf, rdispls[i], rtype);
    blocks[i] = ft_pack_copy(rt, at_i, rcounts[i], rtypes ? rtypes[i] : rtype,
                             c->coll, &packed);
    bytes[i] = (int)packed; /* at most INT_MAX (ft_pack_copy) */
  }
  return blocks;
}

static void free_blocks(void **blocks, int n) {
  for (int i = 0; i < n; i++)
    free(blocks[i]);
  free(blocks);
}

/* The n packed blocks in one buffer, block i at offs[i] (bytes). */
static char *packed_copy(void **blocks, const int bytes[], int offs[], int n) {
  size_t total = 0;
  for (int i = 0; i < n; i++)
    total += (size_t)bytes[i];
  char *copy = malloc(total + 1);
  if (!copy || total > INT_MAX)
    ft_fatal("an all-to-all with MPI_IN_PLACE of %zu bytes", total);
  for (int i = 0, at = 0; i < n; at += bytes[i++]) {
    offs[i] = at;
    memcpy(copy + at, blocks[i], (size_t)bytes[i]);
  }
  return copy;
}

/* MPI_Alltoallv with MPI_IN_PLACE: the blocks packed into one copy (byte
 * displacements), then the selector's algorithm as without it. */
static int alltoallv_in_place(struct ft_runtime *rt, void *rbuf,
                              const int rcounts[], const int rdispls[],
                              MPI_Datatype rtype, struct ft_comm *c) {
  int n = c->size;
  int *bytes = malloc((size_t)n * sizeof *bytes);
  int *offs = malloc((size_t)n * sizeof *offs);
  if (!bytes || !offs)
    ft_fatal("out of memory in an all-to-all with MPI_IN_PLACE");
  void **blocks =
      in_place_blocks(rt, rbuf, rcounts, rdispls, rtype, NULL, c, bytes);
  char *copy = packed_copy(blocks, bytes, offs, n);
  ft_coll_alltoallv(rt, copy, bytes, offs, MPI_PACKED, rbuf, rcounts, rdispls,
                    rtype, c);
  free_blocks(blocks, n);
  free(copy);
  free(bytes);
  free(offs);
  return MPI_SUCCESS;
}

static int alltoallv_body(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[],
                          const int rdispls[], MPI_Datatype rtype,
                          MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf == MPI_IN_PLACE)
    return alltoallv_in_place(rt, rbuf, rcounts, rdispls, rtype, c);
  ft_coll_alltoallv(rt, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                    rtype, c);
  return MPI_SUCCESS;
}

static int alltoall_body(struct ft_runtime *rt, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm) {
  ft_coll_alltoall(rt, sbuf, scount, stype, rbuf, rcount, rtype,
                   ft_comm_get(rt, comm));
  return MPI_SUCCESS;
}

/* SMPI's alltoallw (colls::ialltoallw): the block for itself copied, the
 * receives from every other rank posted, then the sends, in rank order;
 * displacements in bytes. */
static void alltoallw_linear(struct ft_runtime *rt, const void *sbuf,
                             const int scounts[], const int sdispls[],
                             const MPI_Datatype stypes[], void *rbuf,
                             const int rcounts[], const int rdispls[],
                             const MPI_Datatype rtypes[], struct ft_comm *c) {
  int n = c->size, r = c->rank, k = 0;
  if (scounts[r] > 0 && rcounts[r] > 0)
    FT_PMPI(Sendrecv, (const char *)sbuf + sdispls[r], scounts[r], stypes[r], 0,
            0, (char *)rbuf + rdispls[r], rcounts[r], rtypes[r], 0, 0,
            MPI_COMM_SELF, MPI_STATUS_IGNORE);
  struct ft_coll_recv *in = malloc((size_t)n * sizeof *in);
  MPI_Request *reqs = malloc((size_t)n * 2 * sizeof *reqs);
  if (!in || !reqs)
    ft_fatal("out of memory in an all-to-all");
  for (int i = 0; i < n; i++)
    if (i != r) {
      in[k] = (struct ft_coll_recv){i, (char *)rbuf + rdispls[i], rcounts[i],
                                    rtypes[i]};
      ft_coll_irecv(&in[k], FT_TAG_ALLTOALL, c, &reqs[k]);
      k++;
    }
  for (int i = 0; i < n; i++)
    if (i != r)
      ft_coll_isend((const char *)sbuf + sdispls[i], scounts[i], stypes[i], i,
                    FT_TAG_ALLTOALL, c, &reqs[k++]);
  ft_coll_complete(rt, c, k, reqs, n - 1, in, FT_TAG_ALLTOALL);
  free(in);
  free(reqs);
}

/* MPI_IN_PLACE: the blocks packed into one copy sent as MPI_PACKED. */
static void alltoallw_in_place(struct ft_runtime *rt, void *rbuf,
                               const int rcounts[], const int rdispls[],
                               const MPI_Datatype rtypes[], struct ft_comm *c) {
  int n = c->size;
  int *bytes = malloc((size_t)n * sizeof *bytes);
  int *offs = malloc((size_t)n * sizeof *offs);
  MPI_Datatype *packed = calloc((size_t)n, sizeof *packed);
  if (!bytes || !offs || !packed)
    ft_fatal("out of memory in an all-to-all with MPI_IN_PLACE");
  void **blocks = in_place_blocks(rt, rbuf, rcounts, rdispls, MPI_DATATYPE_NULL,
                                  rtypes, c, bytes);
  char *copy = packed_copy(blocks, bytes, offs, n);
  for (int i = 0; i < n; i++)
    packed[i] = MPI_PACKED;
  alltoallw_linear(rt, copy, bytes, offs, packed, rbuf, rcounts, rdispls,
                   rtypes, c);
  free_blocks(blocks, n);
  free(copy);
  free(bytes);
  free(offs);
  free(packed);
}

static int alltoallw_body(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf,
                          const int rcounts[], const int rdispls[],
                          const MPI_Datatype rtypes[], MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf == MPI_IN_PLACE)
    alltoallw_in_place(rt, rbuf, rcounts, rdispls, rtypes, c);
  else
    alltoallw_linear(rt, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls,
                     rtypes, c);
  return MPI_SUCCESS;
}

/* ---- Scan and exscan: a chain in rank order ---- */

/* Rank r > 0 receives the prefix of ranks 0..r-1 into `prefix`; every rank
 * sends prefix op mine on to r + 1. `acc` holds this rank's contribution
 * on entry and the inclusive prefix on return. Every operation is applied
 * in rank order, so non-commutative ones are right too. */
static void scan_chain(struct ft_runtime *rt, void *acc, void *prefix,
                       int count, MPI_Datatype type, MPI_Op op,
                       struct ft_comm *c) {
  if (c->rank > 0) {
    ft_pmpi_check(ft_recv_internal(rt, prefix, count, type, c->rank - 1,
                                   FT_TAG_SCAN, c->coll, MPI_STATUS_IGNORE),
                  "MPI_Recv");
    ft_coll_reduce_local(prefix, acc, count, type,
                         op); /* acc = prefix op acc */
  }
  if (c->rank + 1 < c->size)
    ft_pmpi_check(
        ft_send_internal(acc, count, type, c->rank + 1, FT_TAG_SCAN, c->coll),
        "MPI_Send");
}

static int scan_body(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf != MPI_IN_PLACE)
    ft_coll_copy(rbuf, sbuf, count, type);
  void *base, *prefix = ft_coll_scratch(count, type, &base);
  scan_chain(rt, rbuf, prefix, count, type, op, c);
  free(base);
  return MPI_SUCCESS;
}

/* The same chain, with this rank's contribution in a copy and the prefix
 * received into rbuf; at rank 0, whose result is undefined (MPI-3.1,
 * 5.11.2), rbuf is left as it was. */
static int exscan_body(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  void *base, *acc = ft_coll_scratch(count, type, &base);
  ft_coll_copy(acc, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type);
  scan_chain(rt, acc, rbuf, count, type, op, c);
  free(base);
  return MPI_SUCCESS;
}

/* ---- Reduce_scatter: a reduce to rank 0, then a scatter ---- */

static int reduce_scatterv(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                           const int counts[], MPI_Datatype type, MPI_Op op,
                           struct ft_comm *c) {
  int *displs = malloc((size_t)c->size * sizeof *displs), total = 0;
  if (!displs)
    ft_fatal("out of memory in a reduce_scatter");
  for (int r = 0; r < c->size; r++) {
    displs[r] = total;
    total += counts[r];
  }
  void *base, *acc = ft_coll_scratch(total, type, &base);
  ft_coll_copy(acc, sbuf == MPI_IN_PLACE ? rbuf : sbuf, total, type);
  reduce_any(rt, acc, total, type, op, 0, c);
  scatterv_any(rt, acc, counts, displs, type, rbuf, counts[c->rank], type, 0, 1,
               c);
  free(base);
  free(displs);
  return MPI_SUCCESS;
}

static int reduce_scatter_body(struct ft_runtime *rt, const void *sbuf,
                               void *rbuf, const int rcounts[],
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_scatterv(rt, sbuf, rbuf, rcounts, type, op,
                         ft_comm_get(rt, comm));
}

static int reduce_scatter_block_body(struct ft_runtime *rt, const void *sbuf,
                                     void *rbuf, int rcount, MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *counts, *displs;
  regular(rcount, c->size, &counts, &displs);
  int rc = reduce_scatterv(rt, sbuf, rbuf, counts, type, op, c);
  free(counts);
  free(displs);
  return rc;
}

/* ---- Collective calls carried as one unit (coll_unit.c) ---- */

/* The result of `count` x size elements of `type` at `buf`, or nothing
 * (the call leaves none at this rank). */
static void leaves(struct ft_coll_call *u, void *buf, int count, int size,
                   MPI_Datatype type) {
  if (!buf || buf == MPI_IN_PLACE || (int64_t)count * size > INT_MAX)
    return;
  u->result = buf;
  u->count = count * size;
  u->type = type;
}

/* MPI_Bcast as unit `u` (the application's call or a re-execution). */
static void bcast_unit(struct ft_runtime *rt, void *buf, int count,
                       MPI_Datatype type, int root, struct ft_comm *c,
                       struct ft_coll_call *u) {
  if (ft_coll_unit_enter(rt, c, u))
    return;
  if (u->entry == FT_COLL_COMBINED)
    ft_coll_combined_bcast(rt, c, u, buf, count, type, root);
  else
    ft_coll_bcast(rt, buf, count, type, root, c);
  ft_coll_unit_leave(rt, c, u);
}

static int barrier_call(struct ft_runtime *rt, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (rt->driver->barrier)
    rt->driver->barrier(rt, c); /* a potential checkpoint location */
  struct ft_coll_call u = {
      .kind = FT_COLL_BARRIER, .flow = FT_FLOW_SYNC, .root = -1};
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  ft_coll_barrier(rt, c);
  ft_coll_unit_leave(rt, c, &u);
  return MPI_SUCCESS;
}

static int bcast_call(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_BCAST,
                           .flow = FT_FLOW_FROM_ROOT,
                           .root = root,
                           .bytes = ft_coll_bytes(count, type)};
  if (c->rank != root)
    leaves(&u, buf, count, 1, type);
  bcast_unit(rt, buf, count, type, root, c, &u);
  return MPI_SUCCESS;
}

static int reduce_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_REDUCE,
                           .flow = FT_FLOW_TO_ROOT,
                           .root = root,
                           .bytes = ft_coll_bytes(count, type)};
  if (c->rank == root)
    leaves(&u, rbuf, count, 1, type);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = reduce_body(rt, sbuf, rbuf, count, type, op, root, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

static int allreduce_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                          int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLREDUCE,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = ft_coll_bytes(count, type)};
  leaves(&u, rbuf, count, 1, type);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = allreduce_body(rt, sbuf, rbuf, count, type, op, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

/* MPI_Gather in the combined form (coll_combined.c): every member's bits
 * and block packed into one block, gathered by the call's own algorithm
 * (gather_body), separated at the root. */
static int gather_combined(struct ft_runtime *rt, const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, int root, struct ft_comm *c,
                           struct ft_coll_call *u) {
  int is_root = c->rank == root;
  struct ft_coll_packed p;
  ft_coll_packed_open(c, u, &p, 1, is_root ? c->size : 0);
  if (!is_root || sbuf != MPI_IN_PLACE)
    ft_coll_packed_put(c, u, &p, 0, sbuf, scount, stype);
  else
    ft_coll_packed_put(c, u, &p, 0,
                       ft_coll_at(rbuf, (MPI_Aint)root * rcount, rtype), rcount,
                       rtype);
  ft_coll_packed_charge(rt, &p);
  int rc = gather_body(rt, p.out, p.block, MPI_BYTE, p.in, p.block, MPI_BYTE,
                       root, c->user);
  for (int r = 0; is_root && r < c->size; r++)
    ft_coll_packed_take(c, &p, p.in + (size_t)r * (size_t)p.block, r,
                        ft_coll_at(rbuf, (MPI_Aint)r * rcount, rtype), rcount,
                        rtype);
  ft_coll_packed_close(rt, c, u, &p);
  return rc;
}

static int gather_call(struct ft_runtime *rt, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_GATHER,
                           .flow = FT_FLOW_TO_ROOT,
                           .root = root,
                           .bytes = c->rank == root
                                        ? ft_coll_bytes(rcount, rtype)
                                        : ft_coll_bytes(scount, stype)};
  if (c->rank == root)
    leaves(&u, rbuf, rcount, c->size, rtype);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = u.entry == FT_COLL_COMBINED
               ? gather_combined(rt, sbuf, scount, stype, rbuf, rcount, rtype,
                                 root, c, &u)
               : gather_body(rt, sbuf, scount, stype, rbuf, rcount, rtype, root,
                             comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

/* MPI_Scatter in the combined form (coll_combined.c; Figure 7's
 * single-sender class: the root's bits must reach every member with its
 * block): the root packs its bits before every other member's block, ONE
 * scatter of the enlarged blocks runs by the call's own algorithm for
 * their size (scatter_body: a binomial tree's inner ranks forward packed
 * blocks as they are), and every member separates the root's bits from
 * its block. The root's own block is copied as scatter_body copies it. */
static int scatter_combined(struct ft_runtime *rt, const void *sbuf, int scount,
                            MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, int root, struct ft_comm *c,
                            struct ft_coll_call *u) {
  int is_root = c->rank == root;
  struct ft_coll_packed p;
  ft_coll_packed_open(c, u, &p, is_root ? c->size : 0, is_root ? 0 : 1);
  for (int r = 0; is_root && r < c->size; r++)
    if (r != root)
      ft_coll_packed_put(c, u, &p, r,
                         ft_coll_at(sbuf, (MPI_Aint)r * scount, stype), scount,
                         stype);
  ft_coll_packed_charge(rt, &p);
  int rc =
      scatter_body(rt, p.out, p.block, MPI_BYTE, is_root ? MPI_IN_PLACE : p.in,
                   p.block, MPI_BYTE, root, c->user);
  if (!is_root)
    ft_coll_packed_take(c, &p, p.in, root, rbuf, rcount, rtype);
  else if (rbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, ft_coll_at(sbuf, (MPI_Aint)root * scount, stype), scount,
            stype, 0, 0, rbuf, rcount, rtype, 0, 0, MPI_COMM_SELF,
            MPI_STATUS_IGNORE);
  ft_coll_packed_close(rt, c, u, &p);
  return rc;
}

/* MPI_Scatter as unit `u` (the application's call or a re-execution). */
static int scatter_unit(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, struct ft_comm *c,
                        struct ft_coll_call *u) {
  if (ft_coll_unit_enter(rt, c, u))
    return MPI_SUCCESS;
  int rc = u->entry == FT_COLL_COMBINED
               ? scatter_combined(rt, sbuf, scount, stype, rbuf, rcount, rtype,
                                  root, c, u)
               : scatter_body(rt, sbuf, scount, stype, rbuf, rcount, rtype,
                              root, c->user);
  ft_coll_unit_leave(rt, c, u);
  return rc;
}

static int scatter_call(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_SCATTER,
                           .flow = FT_FLOW_FROM_ROOT,
                           .root = root,
                           .bytes = c->rank == root
                                        ? ft_coll_bytes(scount, stype)
                                        : ft_coll_bytes(rcount, rtype)};
  if (c->rank != root)
    leaves(&u, rbuf, rcount, 1, rtype);
  return scatter_unit(rt, sbuf, scount, stype, rbuf, rcount, rtype, root, c,
                      &u);
}

static int allgather_call(struct ft_runtime *rt, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLGATHER,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = ft_coll_bytes(rcount, rtype)};
  leaves(&u, rbuf, rcount, c->size, rtype);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  if (u.entry == FT_COLL_COMBINED)
    ft_coll_combined_allgather(rt, c, &u, sbuf, scount, stype, rbuf, rcount,
                               rtype);
  else
    rc = allgather_body(rt, sbuf, scount, stype, rbuf, rcount, rtype, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

static int alltoall_call(struct ft_runtime *rt, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLTOALL,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = ft_coll_bytes(rcount, rtype)};
  leaves(&u, rbuf, rcount, c->size, rtype);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  if (u.entry == FT_COLL_COMBINED)
    ft_coll_combined_alltoall(rt, c, &u, sbuf, scount, stype, rbuf, rcount,
                              rtype);
  else
    rc = alltoall_body(rt, sbuf, scount, stype, rbuf, rcount, rtype, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

/* ---- The v forms, alltoallw, scan, exscan, reduce_scatter(_block) as
 * units: what they leave at a rank is described by a datatype made for
 * the call, exactly the bytes it writes (its blocks at their
 * displacements, each of its type, contiguous or not). ---- */

/* The result as n blocks of `type` at buf: counts[i] elements at displs[i]
 * extents of it (MPI-3.1, 5.6's layout of a v form), block `skip` (-1:
 * none) left out: the call does not write it (MPI_IN_PLACE). Made only
 * for a family that may carry the call as a unit. */
static void leaves_blocks(const struct ft_runtime *rt, struct ft_coll_call *u,
                          void *buf, int n, const int counts[],
                          const int displs[], MPI_Datatype type, int skip) {
  if (!buf || buf == MPI_IN_PLACE || !rt->driver->coll_enter)
    return;
  int *kept = malloc((size_t)n * sizeof *kept);
  if (!kept)
    ft_fatal("out of memory in a collective of %d ranks", n);
  for (int i = 0; i < n; i++)
    kept[i] = i == skip ? 0 : counts[i];
  FT_PMPI(Type_indexed, n, kept, displs, type, &u->type);
  FT_PMPI(Type_commit, &u->type);
  free(kept);
  u->result = buf;
  u->count = 1;
  u->own_type = 1;
}

/* Alltoallw's result: counts[i] elements of types[i] at displs[i] bytes
 * from buf. */
static void leaves_typed_blocks(const struct ft_runtime *rt,
                                struct ft_coll_call *u, void *buf, int n,
                                const int counts[], const int displs[],
                                const MPI_Datatype types[]) {
  if (!buf || buf == MPI_IN_PLACE || !rt->driver->coll_enter)
    return;
  MPI_Aint *at = malloc((size_t)n * sizeof *at);
  if (!at)
    ft_fatal("out of memory in a collective of %d ranks", n);
  for (int i = 0; i < n; i++)
    at[i] = displs[i];
  FT_PMPI(Type_create_struct, n, counts, at, types, &u->type);
  FT_PMPI(Type_commit, &u->type);
  free(at);
  u->result = buf;
  u->count = 1;
  u->own_type = 1;
}

/* The call's end: the type made for its result freed. */
static int unit_done(struct ft_coll_call *u, int rc) {
  if (u->own_type)
    FT_PMPI(Type_free, &u->type);
  u->own_type = 0;
  return rc;
}

/* The mean of n blocks of `counts` elements of type: the same at every
 * member when every member knows the counts (allgatherv,
 * reduce_scatter). */
static size_t mean_block(int n, const int counts[], MPI_Datatype type) {
  int64_t total = 0;
  for (int i = 0; i < n; i++)
    total += counts[i];
  return n > 0 && total <= INT_MAX ? ft_coll_bytes((int)total, type) / (size_t)n
                                   : FT_COLL_ANY_BYTES;
}

/* Single-receiver (Figure 6), as MPI_Gather. */
static int gatherv_call(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, const int counts[],
                        const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_GATHERV,
                           .flow = FT_FLOW_TO_ROOT,
                           .root = root,
                           .bytes = FT_COLL_ANY_BYTES};
  if (c->rank == root)
    leaves_blocks(rt, &u, rbuf, c->size, counts, displs, rtype,
                  sbuf == MPI_IN_PLACE ? root : -1);
  if (ft_coll_unit_enter(rt, c, &u))
    return unit_done(&u, MPI_SUCCESS);
  int rc = gatherv_body(rt, sbuf, scount, stype, rbuf, counts, displs, rtype,
                        root, comm);
  ft_coll_unit_leave(rt, c, &u);
  return unit_done(&u, rc);
}

/* MPI_Scatterv (single-sender, Figure 7, as MPI_Scatter); `u` a
 * re-execution's or the application's call. */
static int scatterv_unit(struct ft_runtime *rt, const void *sbuf,
                         const int counts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, struct ft_comm *c,
                         struct ft_coll_call *u) {
  if (ft_coll_unit_enter(rt, c, u))
    return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  if (u->entry == FT_COLL_COMBINED)
    ft_coll_combined_scatterv(rt, c, u, sbuf, counts, displs, stype, rbuf,
                              rcount, rtype, root);
  else
    rc = scatterv_body(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                       root, c->user);
  ft_coll_unit_leave(rt, c, u);
  return rc;
}

static int scatterv_call(struct ft_runtime *rt, const void *sbuf,
                         const int counts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  struct ft_coll_call u = {.kind = FT_COLL_SCATTERV,
                           .flow = FT_FLOW_FROM_ROOT,
                           .root = root,
                           .bytes = FT_COLL_ANY_BYTES};
  if (c->rank != root)
    leaves(&u, rbuf, rcount, 1, rtype);
  return scatterv_unit(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                       root, c, &u);
}

/* All-to-all (Figure 5), as MPI_Allgather. */
static int allgatherv_call(struct ft_runtime *rt, const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, const int counts[],
                           const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLGATHERV,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = mean_block(c->size, counts, rtype)};
  leaves_blocks(rt, &u, rbuf, c->size, counts, displs, rtype,
                sbuf == MPI_IN_PLACE ? c->rank : -1);
  if (ft_coll_unit_enter(rt, c, &u))
    return unit_done(&u, MPI_SUCCESS);
  int rc = allgatherv_body(rt, sbuf, scount, stype, rbuf, counts, displs, rtype,
                           comm);
  ft_coll_unit_leave(rt, c, &u);
  return unit_done(&u, rc);
}

/* All-to-all (Figure 5), as MPI_Alltoall: every block of the receive
 * buffer is written (with MPI_IN_PLACE too). */
static int alltoallv_call(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[],
                          const int rdispls[], MPI_Datatype rtype,
                          MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLTOALLV,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = FT_COLL_ANY_BYTES};
  leaves_blocks(rt, &u, rbuf, c->size, rcounts, rdispls, rtype, -1);
  if (ft_coll_unit_enter(rt, c, &u))
    return unit_done(&u, MPI_SUCCESS);
  int rc = alltoallv_body(rt, sbuf, scounts, sdispls, stype, rbuf, rcounts,
                          rdispls, rtype, comm);
  ft_coll_unit_leave(rt, c, &u);
  return unit_done(&u, rc);
}

static int alltoallw_call(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf,
                          const int rcounts[], const int rdispls[],
                          const MPI_Datatype rtypes[], MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_ALLTOALLW,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = FT_COLL_ANY_BYTES};
  leaves_typed_blocks(rt, &u, rbuf, c->size, rcounts, rdispls, rtypes);
  if (ft_coll_unit_enter(rt, c, &u))
    return unit_done(&u, MPI_SUCCESS);
  int rc = alltoallw_body(rt, sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                          rdispls, rtypes, comm);
  ft_coll_unit_leave(rt, c, &u);
  return unit_done(&u, rc);
}

/* Scan and exscan as all-to-all calls (Figure 5), not a class of their
 * own: rank r's result depends on ranks 0..r, and every rank but the last
 * sends to the ranks after it, so a straddling call is one that no rank
 * behind the recovery line carries out again and whose result every rank
 * beyond it must log: the rule of Figure 5. A prefix rule (log only where
 * a lower rank is behind) would have a rank beyond the line whose lower
 * ranks are all beyond carry the call out again at recovery while a
 * higher rank behind the line does not: its sends to that rank would go
 * unmatched. Exscan leaves nothing at rank 0 (MPI-3.1, 5.11.2). */
static int prefix_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                       enum ft_coll_kind kind) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = kind,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = ft_coll_bytes(count, type)};
  if (kind == FT_COLL_SCAN || c->rank > 0)
    leaves(&u, rbuf, count, 1, type);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = kind == FT_COLL_SCAN
               ? scan_body(rt, sbuf, rbuf, count, type, op, comm)
               : exscan_body(rt, sbuf, rbuf, count, type, op, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

/* All-to-all (Figure 5): this rank's block, rcounts[rank] elements. */
static int reduce_scatter_call(struct ft_runtime *rt, const void *sbuf,
                               void *rbuf, const int rcounts[],
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_REDUCE_SCATTER,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = mean_block(c->size, rcounts, type)};
  leaves(&u, rbuf, rcounts[c->rank], 1, type);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = reduce_scatter_body(rt, sbuf, rbuf, rcounts, type, op, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

static int reduce_scatter_block_call(struct ft_runtime *rt, const void *sbuf,
                                     void *rbuf, int rcount, MPI_Datatype type,
                                     MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_coll_call u = {.kind = FT_COLL_REDUCE_SCATTER_BLOCK,
                           .flow = FT_FLOW_ALL,
                           .root = -1,
                           .bytes = ft_coll_bytes(rcount, type)};
  leaves(&u, rbuf, rcount, 1, type);
  if (ft_coll_unit_enter(rt, c, &u))
    return MPI_SUCCESS;
  int rc = reduce_scatter_block_body(rt, sbuf, rbuf, rcount, type, op, comm);
  ft_coll_unit_leave(rt, c, &u);
  return rc;
}

/* A single-sender call this rank made before its checkpoint, whose root
 * made it after its own (section 5.3): "calls in the reexecList are
 * immediately invoked with the same parameters, except for the receive
 * buffers, which are replaced with dummy arguments". The elements are
 * bytes laid out as the original type's (its size, its extent), so that
 * the algorithm and its segments are the same. */
static void reexec(struct ft_runtime *rt, const struct ft_coll_reexec *r) {
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  if (!c)
    ft_fatal("rank %d: communicator %d of a collective to re-execute is not "
             "made again",
             rt->world_rank, r->comm);
  MPI_Datatype bytes, type;
  FT_PMPI(Type_contiguous, r->size, MPI_BYTE, &bytes);
  FT_PMPI(Type_create_resized, bytes, 0, (MPI_Aint)r->extent, &type);
  FT_PMPI(Type_commit, &type);
  void *dummy = calloc((size_t)(r->count > 0 ? r->count : 1),
                       (size_t)(r->extent > 0 ? r->extent : 1));
  if (!dummy)
    ft_fatal("rank %d: out of memory re-executing a collective",
             rt->world_rank);
  struct ft_coll_call u = {.kind = r->kind,
                           .flow = FT_FLOW_FROM_ROOT,
                           .root = r->root,
                           .bytes = r->kind == FT_COLL_SCATTERV
                                        ? FT_COLL_ANY_BYTES /* the root's */
                                        : (size_t)r->count * (size_t)r->size,
                           .reexec = 1,
                           .seq = r->seq};
  leaves(&u, dummy, r->count, 1, type);
  if (r->kind == FT_COLL_BCAST) {
    bcast_unit(rt, dummy, r->count, type, r->root, c, &u);
  } else if (r->kind == FT_COLL_SCATTER) {
    scatter_unit(rt, NULL, 0, MPI_BYTE, dummy, r->count, type, r->root, c, &u);
  } else if (r->kind == FT_COLL_SCATTERV) {
    scatterv_unit(rt, NULL, NULL, NULL, MPI_BYTE, dummy, r->count, type,
                  r->root, c, &u);
  }
  free(dummy);
  FT_PMPI(Type_free, &type);
  FT_PMPI(Type_free, &bytes);
}

void ft_coll_reexec_pending(struct ft_runtime *rt) {
  struct ft_coll_reexec r;
  while (rt->driver->coll_reexec && rt->driver->coll_reexec(rt, &r))
    reexec(rt, &r);
}

/* ---- The application's collective calls: arguments checked before the
 * runtime carries the call out, a failure through the communicator's error
 * handler (errors.c). ---- */

/* comm, then count and type (ft_err_buffer), then op (MPI_MAX where the
 * call has none). */
static int data_checked(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                        int count, MPI_Datatype type, MPI_Op op) {
  int rc = ft_err_comm(rt, call, comm);
  if (rc == MPI_SUCCESS)
    rc = ft_err_buffer(rt, call, comm, count, type);
  if (rc == MPI_SUCCESS && op == MPI_OP_NULL)
    rc = ft_err_raise(rt, call, comm, MPI_ERR_OP, "MPI_OP_NULL");
  return rc;
}

/* With MPI_IN_PLACE the count and type beside the buffer are not
 * significant (MPI-3.1, 5.5: a root passes "MPI_IN_PLACE, 0,
 * MPI_DATATYPE_NULL" too): what data_checked sees then. */
static int in_place(const void *buf, int count) {
  return buf == MPI_IN_PLACE ? 0 : count;
}
static MPI_Datatype in_place_type(const void *buf, MPI_Datatype type) {
  return buf == MPI_IN_PLACE ? MPI_BYTE : type;
}

/* data_checked, then root (ft_err_root). */
static int rooted(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                  int count, MPI_Datatype type, MPI_Op op, int root) {
  int rc = data_checked(rt, call, comm, count, type, op);
  return rc != MPI_SUCCESS ? rc : ft_err_root(rt, call, comm, root);
}

int MPI_Barrier(MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Barrier", comm);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_BARRIER, comm,
                   &(struct ft_record_coll_args){.root = -1});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Barrier", comm, barrier_call(rt, comm)));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Bcast", comm, count, type, MPI_MAX, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_BCAST, comm,
                   &(struct ft_record_coll_args){
                       .root = root, .scount = count, .stype = type});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Bcast", comm,
                              bcast_call(rt, buf, count, type, root, comm)));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Reduce", comm, count, type, op, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_REDUCE, comm,
                   &(struct ft_record_coll_args){.root = root,
                                                 .scount = count,
                                                 .stype = type,
                                                 .noncommutative =
                                                     !ft_coll_commutative(op)});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS ? rc
                            : ft_err_result(rt, "MPI_Reduce", comm,
                                            reduce_call(rt, sbuf, rbuf, count,
                                                        type, op, root, comm)));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Allreduce", comm, count, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_ALLREDUCE, comm,
                   &(struct ft_record_coll_args){.root = -1,
                                                 .scount = count,
                                                 .stype = type,
                                                 .noncommutative =
                                                     !ft_coll_commutative(op)});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(
                    rt, "MPI_Allreduce", comm,
                    allreduce_call(rt, sbuf, rbuf, count, type, op, comm)));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int counts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Gatherv", comm, in_place(sbuf, scount),
                  in_place_type(sbuf, stype), MPI_MAX, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_GATHERV, comm,
        &(struct ft_record_coll_args){.root = root,
                                      .scount = in_place(sbuf, scount),
                                      .stype = stype,
                                      .rcounts = counts,
                                      .rtype = rtype});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Gatherv", comm,
                              gatherv_call(rt, sbuf, scount, stype, rbuf,
                                           counts, displs, rtype, root, comm)));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Gather", comm, in_place(sbuf, scount),
                  in_place_type(sbuf, stype), MPI_MAX, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_GATHER, comm,
        &(struct ft_record_coll_args){.root = root,
                                      .scount = in_place(sbuf, scount),
                                      .stype = stype,
                                      .rcount = rcount,
                                      .rtype = rtype});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Gather", comm,
                              gather_call(rt, sbuf, scount, stype, rbuf, rcount,
                                          rtype, root, comm)));
}

int MPI_Scatterv(const void *sbuf, const int counts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 int root, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Scatterv", comm, in_place(rbuf, rcount),
                  in_place_type(rbuf, rtype), MPI_MAX, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_SCATTERV, comm,
        &(struct ft_record_coll_args){.root = root,
                                      .scounts = counts,
                                      .stype = stype,
                                      .rcount = in_place(rbuf, rcount),
                                      .rtype = rtype});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Scatterv", comm,
                              scatterv_call(rt, sbuf, counts, displs, stype,
                                            rbuf, rcount, rtype, root, comm)));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = rooted(rt, "MPI_Scatter", comm, in_place(rbuf, rcount),
                  in_place_type(rbuf, rtype), MPI_MAX, root);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_SCATTER, comm,
        &(struct ft_record_coll_args){.root = root,
                                      .scount = scount,
                                      .stype = stype,
                                      .rcount = in_place(rbuf, rcount),
                                      .rtype = rtype});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Scatter", comm,
                              scatter_call(rt, sbuf, scount, stype, rbuf,
                                           rcount, rtype, root, comm)));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int counts[], const int displs[], MPI_Datatype rtype,
                   MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Allgatherv", comm, in_place(sbuf, scount),
                        in_place_type(sbuf, stype), MPI_MAX);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_ALLGATHERV, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .scount = in_place(sbuf, scount),
                                      .stype = stype,
                                      .rcounts = counts,
                                      .rtype = rtype,
                                      .in_place = sbuf == MPI_IN_PLACE});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Allgatherv", comm,
                              allgatherv_call(rt, sbuf, scount, stype, rbuf,
                                              counts, displs, rtype, comm)));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Allgather", comm, rcount, rtype, MPI_MAX);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_ALLGATHER, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .scount = in_place(sbuf, scount),
                                      .stype = stype,
                                      .rcount = rcount,
                                      .rtype = rtype,
                                      .in_place = sbuf == MPI_IN_PLACE});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Allgather", comm,
                              allgather_call(rt, sbuf, scount, stype, rbuf,
                                             rcount, rtype, comm)));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Alltoallv", comm);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_ALLTOALLV, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .in_place = sbuf == MPI_IN_PLACE,
                                      .scounts = scounts,
                                      .stype = stype,
                                      .rcounts = rcounts,
                                      .rtype = rtype});
  return ft_record_exit(
      rt,
      rc != MPI_SUCCESS
          ? rc
          : ft_err_result(rt, "MPI_Alltoallv", comm,
                          alltoallv_call(rt, sbuf, scounts, sdispls, stype,
                                         rbuf, rcounts, rdispls, rtype, comm)));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Alltoall", comm, rcount, rtype, MPI_MAX);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_ALLTOALL, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .in_place = sbuf == MPI_IN_PLACE,
                                      .scount = scount,
                                      .stype = stype,
                                      .rcount = rcount,
                                      .rtype = rtype});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Alltoall", comm,
                              alltoall_call(rt, sbuf, scount, stype, rbuf,
                                            rcount, rtype, comm)));
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[],
                  MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Alltoallw", comm);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_ALLTOALLW, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .in_place = sbuf == MPI_IN_PLACE,
                                      .scounts = scounts,
                                      .stypes = stypes,
                                      .rcounts = rcounts,
                                      .rtypes = rtypes});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Alltoallw", comm,
                              alltoallw_call(rt, sbuf, scounts, sdispls, stypes,
                                             rbuf, rcounts, rdispls, rtypes,
                                             comm)));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Scan", comm, count, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_SCAN, comm,
                   &(struct ft_record_coll_args){
                       .root = -1, .scount = count, .stype = type});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Scan", comm,
                              prefix_call(rt, sbuf, rbuf, count, type, op, comm,
                                          FT_COLL_SCAN)));
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Exscan", comm, count, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_EXSCAN, comm,
                   &(struct ft_record_coll_args){
                       .root = -1, .scount = count, .stype = type});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Exscan", comm,
                              prefix_call(rt, sbuf, rbuf, count, type, op, comm,
                                          FT_COLL_EXSCAN)));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Reduce_scatter", comm, 0, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_REDUCE_SCATTER, comm,
                   &(struct ft_record_coll_args){.root = -1,
                                                 .rcounts = rcounts,
                                                 .rtype = type,
                                                 .noncommutative =
                                                     !ft_coll_commutative(op)});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, "MPI_Reduce_scatter", comm,
                              reduce_scatter_call(rt, sbuf, rbuf, rcounts, type,
                                                  op, comm)));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  const char *call = "MPI_Reduce_scatter_block";
  int rc = data_checked(rt, call, comm, rcount, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(rt, FT_RT_REDUCE_SCATTER_BLOCK, comm,
                   &(struct ft_record_coll_args){.root = -1,
                                                 .rcount = rcount,
                                                 .rtype = type,
                                                 .noncommutative =
                                                     !ft_coll_commutative(op)});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, call, comm,
                              reduce_scatter_block_call(rt, sbuf, rbuf, rcount,
                                                        type, op, comm)));
}
