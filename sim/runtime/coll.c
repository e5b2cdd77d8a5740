/* Collectives carried over point-to-point by the runtime, on each
 * communicator's "coll" shadow (comm.c), so that protocol cores see every
 * message (as Open MPI-V does) and a rollback can abandon a collective.
 *
 * Algorithms, chosen for the message counts real MPIs use at small sizes:
 * barrier by dissemination, bcast on a binomial tree, reduce on a binomial
 * tree (linear, in rank order, for non-commutative operations), allreduce by
 * recursive doubling (reduce + bcast when non-commutative), gather/scatter
 * linear at the root, allgather on a ring, alltoall(v, w) by pairwise
 * exchange, scan and exscan along a chain in rank order, reduce_scatter as
 * a reduce to rank 0 and a scatter.
 * Every rank posts receives from named sources only, so successive
 * collectives on one communicator cannot cross. Their operations are the
 * runtime's own: an error code stops the run (ft_pmpi_check). */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum {
  TAG_BARRIER = 1,
  TAG_BCAST,
  TAG_REDUCE,
  TAG_ALLREDUCE,
  TAG_GATHER,
  TAG_SCATTER,
  TAG_ALLGATHER,
  TAG_ALLTOALL,
  TAG_SCAN
};

/* ---- Buffers ---- */

static MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb, extent;
  FT_PMPI(Type_get_extent, type, &lb, &extent);
  return extent;
}

static char *at(const void *buf, MPI_Aint index, MPI_Datatype type) {
  return (char *)buf + index * extent_of(type);
}

/* A scratch buffer for `count` elements of `type`; free with scratch_free.
 * Returns the address where element 0 goes (the true lower bound is
 * accounted for). */
static void *scratch(int count, MPI_Datatype type, void **base) {
  MPI_Aint lb, true_extent;
  FT_PMPI(Type_get_true_extent, type, &lb, &true_extent);
  size_t bytes =
      (size_t)(true_extent + (count > 0 ? count - 1 : 0) * extent_of(type));
  *base = malloc(bytes ? bytes : 1);
  if (!*base)
    ft_fatal("out of memory in a collective (%zu bytes)", bytes);
  return (char *)*base - lb;
}

/* Copies `count` elements of `type` from src to dst (same layout). */
static void copy(void *dst, const void *src, int count, MPI_Datatype type) {
  MPI_Aint lb, true_extent;
  int size;
  FT_PMPI(Type_get_true_extent, type, &lb, &true_extent);
  FT_PMPI(Type_size, type, &size);
  if (dst == src || count <= 0)
    return;
  if (lb == 0 && true_extent == size && extent_of(type) == size) {
    memcpy(dst, src, (size_t)count * (size_t)size);
    return;
  }
  FT_PMPI(Sendrecv, src, count, type, 0, 0, dst, count, type, 0, 0,
          MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

/* ---- Local reductions ----
 *
 * inout = in op inout, what PMPI_Reduce_local computes. But
 * PMPI_Reduce_local is an SMPI call like a send (SmpiBenchGuard: the
 * compute timer stopped and restarted, two clock_gettime system calls), and
 * SMPI's own collectives apply their operation without one: the recursive
 * doubling of cg's allreduces made a quarter of the run's SMPI calls on 64
 * ranks (issue 18, item 1; perf probe on smpi_bench_end). The predefined
 * arithmetic operations on the usual types are applied here, element by
 * element with the expressions of SMPI's smpi_op.cpp (MAX_OP, MIN_OP,
 * SUM_OP, PROD_OP), so results are bit-identical; the others go to the
 * library. Under simulated computation their time is counted with the next
 * MPI call's instead of this one's. */

enum local_op { LOCAL_SUM, LOCAL_PROD, LOCAL_MAX, LOCAL_MIN, LOCAL_NONE };

static enum local_op local_op_of(MPI_Op op) {
  if (op == MPI_SUM)
    return LOCAL_SUM;
  if (op == MPI_PROD)
    return LOCAL_PROD;
  if (op == MPI_MAX)
    return LOCAL_MAX;
  return op == MPI_MIN ? LOCAL_MIN : LOCAL_NONE;
}

typedef long long ft_llong;
typedef unsigned long long ft_ullong;
typedef unsigned long ft_ulong;

/* reduce_T(in, inout, n, op): inout[i] = in[i] op inout[i]. */
#define FT_LOCAL_REDUCE(T)                                                     \
  static void reduce_##T(const T *a, T *b, int n, enum local_op op) {          \
    for (int i = 0; i < n; i++)                                                \
      switch (op) {                                                            \
      case LOCAL_SUM:                                                          \
        b[i] += a[i];                                                          \
        break;                                                                 \
      case LOCAL_PROD:                                                         \
        b[i] *= a[i];                                                          \
        break;                                                                 \
      case LOCAL_MAX:                                                          \
        b[i] = a[i] < b[i] ? b[i] : a[i];                                      \
        break;                                                                 \
      default:                                                                 \
        b[i] = a[i] < b[i] ? a[i] : b[i];                                      \
      }                                                                        \
  }
FT_LOCAL_REDUCE(double)
FT_LOCAL_REDUCE(float)
FT_LOCAL_REDUCE(int)
FT_LOCAL_REDUCE(unsigned)
FT_LOCAL_REDUCE(long)
FT_LOCAL_REDUCE(ft_ulong)
FT_LOCAL_REDUCE(ft_llong)
FT_LOCAL_REDUCE(ft_ullong)
#undef FT_LOCAL_REDUCE

/* Applies op here when it can: 1 if it did. */
static int reduce_here(const void *in, void *inout, int n, MPI_Datatype type,
                       enum local_op op) {
  if (type == MPI_DOUBLE)
    reduce_double(in, inout, n, op);
  else if (type == MPI_FLOAT)
    reduce_float(in, inout, n, op);
  else if (type == MPI_INT)
    reduce_int(in, inout, n, op);
  else if (type == MPI_UNSIGNED)
    reduce_unsigned(in, inout, n, op);
  else if (type == MPI_LONG)
    reduce_long(in, inout, n, op);
  else if (type == MPI_UNSIGNED_LONG)
    reduce_ft_ulong(in, inout, n, op);
  else if (type == MPI_LONG_LONG || type == MPI_LONG_LONG_INT)
    reduce_ft_llong(in, inout, n, op);
  else if (type == MPI_UNSIGNED_LONG_LONG)
    reduce_ft_ullong(in, inout, n, op);
  else
    return 0;
  return 1;
}

/* inout = in op inout (count elements of type). */
static void reduce_local(const void *in, void *inout, int count,
                         MPI_Datatype type, MPI_Op op) {
  enum local_op lop = local_op_of(op);
  if (lop == LOCAL_NONE || !reduce_here(in, inout, count, type, lop))
    FT_PMPI(Reduce_local, in, inout, count, type, op);
}

static int vrank(int rank, int root, int size) {
  return (rank - root + size) % size;
}

static int real_rank(int v, int root, int size) { return (v + root) % size; }

/* ---- Barrier and broadcast ---- */

static int barrier_call(struct ft_runtime *rt, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  char s = 0, r;
  for (int k = 1; k < c->size; k <<= 1)
    ft_pmpi_check(ft_sendrecv_internal(
                      &s, 0, MPI_BYTE, (c->rank + k) % c->size, &r, 0, MPI_BYTE,
                      (c->rank - k + c->size) % c->size, TAG_BARRIER, c->coll),
                  "MPI_Sendrecv");
  return MPI_SUCCESS;
}

static void bcast_tree(struct ft_runtime *rt, void *buf, int count,
                       MPI_Datatype type, int root, struct ft_comm *c) {
  int v = vrank(c->rank, root, c->size), mask = 1;
  while (mask < c->size) { /* receive from the parent, if any */
    if (v & mask) {
      ft_pmpi_check(ft_recv_internal(rt, buf, count, type,
                                     real_rank(v - mask, root, c->size),
                                     TAG_BCAST, c->coll, MPI_STATUS_IGNORE),
                    "MPI_Recv");
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) /* then feed the subtree */
    if (v + mask < c->size)
      ft_pmpi_check(ft_send_internal(buf, count, type,
                                     real_rank(v + mask, root, c->size),
                                     TAG_BCAST, c->coll),
                    "MPI_Send");
}

static int bcast_call(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  bcast_tree(rt, buf, count, type, root, c);
  return MPI_SUCCESS;
}

/* ---- Reductions ---- */

static int commutative(MPI_Op op) {
  int yes = 0;
  FT_PMPI(Op_commutative, op, &yes);
  return yes;
}

/* Binomial tree towards `root`; `acc` holds this rank's contribution and,
 * at the root, the result. Commutative operations only. */
static void reduce_tree(struct ft_runtime *rt, void *acc, int count,
                        MPI_Datatype type, MPI_Op op, int root,
                        struct ft_comm *c) {
  void *base, *tmp = scratch(count, type, &base);
  int v = vrank(c->rank, root, c->size);
  for (int mask = 1; mask < c->size; mask <<= 1) {
    if (v & mask) {
      ft_pmpi_check(ft_send_internal(acc, count, type,
                                     real_rank(v - mask, root, c->size),
                                     TAG_REDUCE, c->coll),
                    "MPI_Send");
      break;
    }
    if (v + mask < c->size) {
      ft_pmpi_check(ft_recv_internal(rt, tmp, count, type,
                                     real_rank(v + mask, root, c->size),
                                     TAG_REDUCE, c->coll, MPI_STATUS_IGNORE),
                    "MPI_Recv");
      reduce_local(tmp, acc, count, type, op); /* acc = tmp op acc */
    }
  }
  free(base);
}

/* Linear, in rank order, for non-commutative operations:
 * the root computes ((x0 op x1) op x2) ... */
static void reduce_ordered(struct ft_runtime *rt, void *acc, int count,
                           MPI_Datatype type, MPI_Op op, int root,
                           struct ft_comm *c) {
  if (c->rank != root) {
    ft_pmpi_check(ft_send_internal(acc, count, type, root, TAG_REDUCE, c->coll),
                  "MPI_Send");
    return;
  }
  void *base, *left = scratch(count, type, &base);
  void *base2, *tmp = scratch(count, type, &base2);
  for (int r = 0; r < c->size; r++) {
    void *x = r == root ? acc : tmp;
    if (r != root)
      ft_pmpi_check(ft_recv_internal(rt, tmp, count, type, r, TAG_REDUCE,
                                     c->coll, MPI_STATUS_IGNORE),
                    "MPI_Recv");
    if (r > 0)
      reduce_local(left, x, count, type, op); /* x = left op x */
    copy(left, x, count, type);
  }
  copy(acc, left, count, type);
  free(base);
  free(base2);
}

static void reduce_any(struct ft_runtime *rt, void *acc, int count,
                       MPI_Datatype type, MPI_Op op, int root,
                       struct ft_comm *c) {
  if (commutative(op))
    reduce_tree(rt, acc, count, type, op, root, c);
  else
    reduce_ordered(rt, acc, count, type, op, root, c);
}

static int reduce_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  void *base = NULL, *acc = rbuf;
  if (c->rank != root)
    acc = scratch(count, type, &base);
  if (!(c->rank == root && sbuf == MPI_IN_PLACE))
    copy(acc, sbuf, count, type);
  reduce_any(rt, acc, count, type, op, root, c);
  free(base);
  return MPI_SUCCESS;
}

/* Recursive doubling; a non-power-of-two size first folds its extra ranks
 * into their even neighbours (Rabenseifner's pre-step). Every rank combines
 * the same two partial results at every step, so all end bit-identical. */
static void allreduce_doubling(struct ft_runtime *rt, void *acc, int count,
                               MPI_Datatype type, MPI_Op op,
                               struct ft_comm *c) {
  int pof2 = 1, r = c->rank;
  while (pof2 * 2 <= c->size)
    pof2 *= 2;
  int rem = c->size - pof2,
      newrank = r < 2 * rem ? (r % 2 ? r / 2 : -1) : r - rem;
  void *base, *tmp = scratch(count, type, &base);
  if (r < 2 * rem && r % 2 == 0)
    ft_pmpi_check(
        ft_send_internal(acc, count, type, r + 1, TAG_ALLREDUCE, c->coll),
        "MPI_Send");
  if (r < 2 * rem && r % 2 == 1) {
    ft_pmpi_check(ft_recv_internal(rt, tmp, count, type, r - 1, TAG_ALLREDUCE,
                                   c->coll, MPI_STATUS_IGNORE),
                  "MPI_Recv");
    reduce_local(tmp, acc, count, type, op);
  }
  for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int peer = newrank ^ mask;
    int dst = peer < rem ? peer * 2 + 1 : peer + rem;
    ft_pmpi_check(ft_sendrecv_internal(acc, count, type, dst, tmp, count, type,
                                       dst, TAG_ALLREDUCE, c->coll),
                  "MPI_Sendrecv");
    reduce_local(tmp, acc, count, type, op);
  }
  if (r < 2 * rem && r % 2 == 1)
    ft_pmpi_check(
        ft_send_internal(acc, count, type, r - 1, TAG_ALLREDUCE, c->coll),
        "MPI_Send");
  if (r < 2 * rem && r % 2 == 0)
    ft_pmpi_check(ft_recv_internal(rt, acc, count, type, r + 1, TAG_ALLREDUCE,
                                   c->coll, MPI_STATUS_IGNORE),
                  "MPI_Recv");
  free(base);
}

static int allreduce_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                          int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf != MPI_IN_PLACE)
    copy(rbuf, sbuf, count, type);
  if (commutative(op)) {
    allreduce_doubling(rt, rbuf, count, type, op, c);
  } else {
    reduce_ordered(rt, rbuf, count, type, op, 0, c);
    bcast_tree(rt, rbuf, count, type, 0, c);
  }
  return MPI_SUCCESS;
}

/* ---- Gather and scatter: linear at the root ---- */

/* Receives every other rank's block at the root (irecv all, then wait). */
static void gather_at_root(struct ft_runtime *rt, void *rbuf,
                           const int counts[], const int displs[],
                           MPI_Datatype rtype, struct ft_comm *c) {
  MPI_Request *reqs = malloc((size_t)c->size * sizeof *reqs);
  if (!reqs)
    ft_fatal("out of memory in a gather");
  for (int r = 0; r < c->size; r++)
    reqs[r] = MPI_REQUEST_NULL;
  for (int r = 0; r < c->size; r++)
    if (r != c->rank)
      ft_pmpi_check(ft_irecv_internal(at(rbuf, displs[r], rtype), counts[r],
                                      rtype, r, TAG_GATHER, c->coll, &reqs[r]),
                    "MPI_Irecv");
  ft_pmpi_check(ft_waitall_internal(rt, c->size, reqs, MPI_STATUSES_IGNORE),
                "MPI_Waitall");
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  for (int r = 0; !rt->driver->irecv && r < c->size; r++) {
    ft_trace_coll_delivery(rt, c->coll, r == c->rank ? MPI_PROC_NULL : r,
                           TAG_GATHER);
    if (r != c->rank && rt->driver->coll_delivered)
      rt->driver->coll_delivered(rt, c, r, TAG_GATHER,
                                 at(rbuf, displs[r], rtype), counts[r], rtype,
                                 NULL);
  }
  free(reqs);
}

static int gatherv_any(struct ft_runtime *rt, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, const int counts[],
                       const int displs[], MPI_Datatype rtype, int root,
                       struct ft_comm *c) {
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->rank != root) {
    ft_pmpi_check(
        ft_send_internal(sbuf, scount, stype, root, TAG_GATHER, c->coll),
        "MPI_Send");
    return MPI_SUCCESS;
  }
  if (sbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, sbuf, scount, stype, 0, 0, at(rbuf, displs[root], rtype),
            counts[root], rtype, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  gather_at_root(rt, rbuf, counts, displs, rtype, c);
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

static int gatherv_call(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, const int counts[],
                        const int displs[], MPI_Datatype rtype, int root,
                        MPI_Comm comm) {
  return gatherv_any(rt, sbuf, scount, stype, rbuf, counts, displs, rtype, root,
                     ft_comm_get(rt, comm));
}

static int gather_call(struct ft_runtime *rt, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *counts, *displs;
  regular(rcount, c->size, &counts, &displs);
  int rc = gatherv_any(rt, sbuf, scount, stype, rbuf, counts, displs, rtype,
                       root, c);
  free(counts);
  free(displs);
  return rc;
}

static int scatterv_any(struct ft_runtime *rt, const void *sbuf,
                        const int counts[], const int displs[],
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, struct ft_comm *c) {
  if (root < 0 || root >= c->size)
    return MPI_ERR_ROOT;
  if (c->rank != root) {
    ft_pmpi_check(ft_recv_internal(rt, rbuf, rcount, rtype, root, TAG_SCATTER,
                                   c->coll, MPI_STATUS_IGNORE),
                  "MPI_Recv");
    return MPI_SUCCESS;
  }
  for (int r = 0; r < c->size; r++)
    if (r != root)
      ft_pmpi_check(ft_send_internal(at(sbuf, displs[r], stype), counts[r],
                                     stype, r, TAG_SCATTER, c->coll),
                    "MPI_Send");
  if (rbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, at(sbuf, displs[root], stype), counts[root], stype, 0, 0,
            rbuf, rcount, rtype, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  return MPI_SUCCESS;
}

static int scatterv_call(struct ft_runtime *rt, const void *sbuf,
                         const int counts[], const int displs[],
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm) {
  return scatterv_any(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                      root, ft_comm_get(rt, comm));
}

static int scatter_call(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *counts, *displs;
  regular(scount, c->size, &counts, &displs);
  int rc = scatterv_any(rt, sbuf, counts, displs, stype, rbuf, rcount, rtype,
                        root, c);
  free(counts);
  free(displs);
  return rc;
}

/* ---- Allgather on a ring; alltoall by pairwise exchange ---- */

static void allgatherv_ring(const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, const int counts[], const int displs[],
                            MPI_Datatype rtype, struct ft_comm *c) {
  int n = c->size, r = c->rank, right = (r + 1) % n, left = (r - 1 + n) % n;
  if (sbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, sbuf, scount, stype, 0, 0, at(rbuf, displs[r], rtype),
            counts[r], rtype, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  for (int i = 0; i < n - 1; i++) {
    int out = (r - i + n) % n, in = (r - i - 1 + n) % n;
    ft_pmpi_check(ft_sendrecv_internal(at(rbuf, displs[out], rtype),
                                       counts[out], rtype, right,
                                       at(rbuf, displs[in], rtype), counts[in],
                                       rtype, left, TAG_ALLGATHER, c->coll),
                  "MPI_Sendrecv");
  }
}

static int allgatherv_call(struct ft_runtime *rt, const void *sbuf, int scount,
                           MPI_Datatype stype, void *rbuf, const int counts[],
                           const int displs[], MPI_Datatype rtype,
                           MPI_Comm comm) {
  allgatherv_ring(sbuf, scount, stype, rbuf, counts, displs, rtype,
                  ft_comm_get(rt, comm));
  return MPI_SUCCESS;
}

static int allgather_call(struct ft_runtime *rt, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *counts, *displs;
  regular(rcount, c->size, &counts, &displs);
  allgatherv_ring(sbuf, scount, stype, rbuf, counts, displs, rtype, c);
  free(counts);
  free(displs);
  return MPI_SUCCESS;
}

static int alltoallv_pairwise(const void *sbuf, const int scounts[],
                              const int sdispls[], MPI_Datatype stype,
                              void *rbuf, const int rcounts[],
                              const int rdispls[], MPI_Datatype rtype,
                              struct ft_comm *c) {
  int n = c->size, r = c->rank;
  for (int i = 0; i < n; i++) {
    int dst = (r + i) % n, src = (r - i + n) % n;
    ft_pmpi_check(
        ft_sendrecv_internal(at(sbuf, sdispls[dst], stype), scounts[dst], stype,
                             dst, at(rbuf, rdispls[src], rtype), rcounts[src],
                             rtype, src, TAG_ALLTOALL, c->coll),
        "MPI_Sendrecv");
  }
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
    const void *at_i =
        rtypes ? (const char *)rbuf + rdispls[i] : at(rbuf, rdispls[i], rtype);
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

static int alltoall_in_place(struct ft_runtime *rt, void *rbuf,
                             const int rcounts[], const int rdispls[],
                             MPI_Datatype rtype, const MPI_Datatype rtypes[],
                             struct ft_comm *c) {
  int n = c->size, r = c->rank;
  int *bytes = malloc((size_t)n * sizeof *bytes);
  if (!bytes)
    ft_fatal("out of memory in an all-to-all with MPI_IN_PLACE");
  void **blocks =
      in_place_blocks(rt, rbuf, rcounts, rdispls, rtype, rtypes, c, bytes);
  for (int i = 0; i < n; i++) {
    int dst = (r + i) % n, src = (r - i + n) % n;
    void *into =
        rtypes ? (char *)rbuf + rdispls[src] : at(rbuf, rdispls[src], rtype);
    ft_pmpi_check(ft_sendrecv_internal(blocks[dst], bytes[dst], MPI_PACKED, dst,
                                       into, rcounts[src],
                                       rtypes ? rtypes[src] : rtype, src,
                                       TAG_ALLTOALL, c->coll),
                  "MPI_Sendrecv");
  }
  free_blocks(blocks, n);
  free(bytes);
  return MPI_SUCCESS;
}

static int alltoallv_call(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          MPI_Datatype stype, void *rbuf, const int rcounts[],
                          const int rdispls[], MPI_Datatype rtype,
                          MPI_Comm comm) {
  if (sbuf == MPI_IN_PLACE)
    return alltoall_in_place(rt, rbuf, rcounts, rdispls, rtype, NULL,
                             ft_comm_get(rt, comm));
  return alltoallv_pairwise(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                            rdispls, rtype, ft_comm_get(rt, comm));
}

static int alltoall_call(struct ft_runtime *rt, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  int *sc, *sd, *rc, *rd;
  regular(scount, c->size, &sc, &sd);
  regular(rcount, c->size, &rc, &rd);
  int err =
      sbuf == MPI_IN_PLACE
          ? alltoall_in_place(rt, rbuf, rc, rd, rtype, NULL, c)
          : alltoallv_pairwise(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, c);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  return err;
}

static int alltoallw_pairwise(const void *sbuf, const int scounts[],
                              const int sdispls[], const MPI_Datatype stypes[],
                              void *rbuf, const int rcounts[],
                              const int rdispls[], const MPI_Datatype rtypes[],
                              struct ft_comm *c) {
  int n = c->size, r = c->rank;
  for (int i = 0; i < n; i++) { /* displacements in bytes */
    int dst = (r + i) % n, src = (r - i + n) % n;
    ft_pmpi_check(ft_sendrecv_internal(
                      (const char *)sbuf + sdispls[dst], scounts[dst],
                      stypes[dst], dst, (char *)rbuf + rdispls[src],
                      rcounts[src], rtypes[src], src, TAG_ALLTOALL, c->coll),
                  "MPI_Sendrecv");
  }
  return MPI_SUCCESS;
}

static int alltoallw_call(struct ft_runtime *rt, const void *sbuf,
                          const int scounts[], const int sdispls[],
                          const MPI_Datatype stypes[], void *rbuf,
                          const int rcounts[], const int rdispls[],
                          const MPI_Datatype rtypes[], MPI_Comm comm) {
  if (sbuf == MPI_IN_PLACE)
    return alltoall_in_place(rt, rbuf, rcounts, rdispls, MPI_DATATYPE_NULL,
                             rtypes, ft_comm_get(rt, comm));
  return alltoallw_pairwise(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                            rdispls, rtypes, ft_comm_get(rt, comm));
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
                                   TAG_SCAN, c->coll, MPI_STATUS_IGNORE),
                  "MPI_Recv");
    reduce_local(prefix, acc, count, type, op); /* acc = prefix op acc */
  }
  if (c->rank + 1 < c->size)
    ft_pmpi_check(
        ft_send_internal(acc, count, type, c->rank + 1, TAG_SCAN, c->coll),
        "MPI_Send");
}

static int scan_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  if (sbuf != MPI_IN_PLACE)
    copy(rbuf, sbuf, count, type);
  void *base, *prefix = scratch(count, type, &base);
  scan_chain(rt, rbuf, prefix, count, type, op, c);
  free(base);
  return MPI_SUCCESS;
}

/* The same chain, with this rank's contribution in a copy and the prefix
 * received into rbuf; at rank 0, whose result is undefined (MPI-3.1,
 * 5.11.2), rbuf is left as it was. */
static int exscan_call(struct ft_runtime *rt, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_comm *c = ft_comm_get(rt, comm);
  void *base, *acc = scratch(count, type, &base);
  copy(acc, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type);
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
  void *base, *acc = scratch(total, type, &base);
  copy(acc, sbuf == MPI_IN_PLACE ? rbuf : sbuf, total, type);
  reduce_any(rt, acc, total, type, op, 0, c);
  scatterv_any(rt, acc, counts, displs, type, rbuf, counts[c->rank], type, 0,
               c);
  free(base);
  free(displs);
  return MPI_SUCCESS;
}

static int reduce_scatter_call(struct ft_runtime *rt, const void *sbuf,
                               void *rbuf, const int rcounts[],
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_scatterv(rt, sbuf, rbuf, rcounts, type, op,
                         ft_comm_get(rt, comm));
}

static int reduce_scatter_block_call(struct ft_runtime *rt, const void *sbuf,
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
    ft_record_coll(
        rt, FT_RT_REDUCE, comm,
        &(struct ft_record_coll_args){.root = root,
                                      .scount = count,
                                      .stype = type,
                                      .noncommutative = !commutative(op)});
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
    ft_record_coll(
        rt, FT_RT_ALLREDUCE, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .scount = count,
                                      .stype = type,
                                      .noncommutative = !commutative(op)});
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
  int rc = data_checked(rt, "MPI_Allgatherv", comm, scount, stype, MPI_MAX);
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
  return ft_record_exit(rt, rc != MPI_SUCCESS
                                ? rc
                                : ft_err_result(rt, "MPI_Scan", comm,
                                                scan_call(rt, sbuf, rbuf, count,
                                                          type, op, comm)));
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
      rt, rc != MPI_SUCCESS ? rc
                            : ft_err_result(rt, "MPI_Exscan", comm,
                                            exscan_call(rt, sbuf, rbuf, count,
                                                        type, op, comm)));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  int rc = data_checked(rt, "MPI_Reduce_scatter", comm, 0, type, op);
  if (rc == MPI_SUCCESS)
    ft_record_coll(
        rt, FT_RT_REDUCE_SCATTER, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .rcounts = rcounts,
                                      .rtype = type,
                                      .noncommutative = !commutative(op)});
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
    ft_record_coll(
        rt, FT_RT_REDUCE_SCATTER_BLOCK, comm,
        &(struct ft_record_coll_args){.root = -1,
                                      .rcount = rcount,
                                      .rtype = type,
                                      .noncommutative = !commutative(op)});
  return ft_record_exit(
      rt, rc != MPI_SUCCESS
              ? rc
              : ft_err_result(rt, call, comm,
                              reduce_scatter_block_call(rt, sbuf, rbuf, rcount,
                                                        type, op, comm)));
}
