/* The rooted collectives' algorithms (coll_algo.h): barrier, bcast,
 * reduce, gather and scatter as SMPI 3.32's `ompi` selector runs them
 * (sim/coll_select.h), with the buffers, local reductions and
 * point-to-point helpers every algorithm of the coll module uses.
 *
 * Where SMPI posts several sends at once (isend + waitall), the runtime
 * posts its receives first and sends one after the other: the same
 * messages, the same order on each channel; an eager (small) message
 * costs the same, a rendezvous one leaves its sender later. */
#include <stdlib.h>
#include <string.h>

#include "coll_algo.h"
#include "coll_select.h"

static size_t plain_size(MPI_Datatype type);

/* ---- Buffers ---- */

MPI_Aint ft_coll_extent(MPI_Datatype type) {
  MPI_Aint lb, extent;
  FT_PMPI(Type_get_extent, type, &lb, &extent);
  return extent;
}

char *ft_coll_at(const void *buf, MPI_Aint index, MPI_Datatype type) {
  return (char *)buf + index * ft_coll_extent(type);
}

void *ft_coll_scratch(int count, MPI_Datatype type, void **base) {
  MPI_Aint lb, true_extent;
  FT_PMPI(Type_get_true_extent, type, &lb, &true_extent);
  size_t bytes = (size_t)(true_extent +
                          (count > 0 ? count - 1 : 0) * ft_coll_extent(type));
  *base = malloc(bytes ? bytes : 1);
  if (!*base)
    ft_fatal("out of memory in a collective (%zu bytes)", bytes);
  return (char *)*base - lb;
}

void ft_coll_copy(void *dst, const void *src, int count, MPI_Datatype type) {
  MPI_Aint lb, true_extent;
  int size;
  FT_PMPI(Type_get_true_extent, type, &lb, &true_extent);
  FT_PMPI(Type_size, type, &size);
  if (dst == src || count <= 0)
    return;
  if (lb == 0 && true_extent == size && ft_coll_extent(type) == size) {
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

void ft_coll_reduce_local(const void *in, void *inout, int count,
                          MPI_Datatype type, MPI_Op op) {
  enum local_op lop = local_op_of(op);
  if (lop == LOCAL_NONE || !reduce_here(in, inout, count, type, lop))
    FT_PMPI(Reduce_local, in, inout, count, type, op);
}

size_t ft_coll_bytes(int count, MPI_Datatype type) {
  int size = (int)plain_size(type);
  if (!size)
    FT_PMPI(Type_size, type, &size);
  return count > 0 && size > 0 ? (size_t)count * (size_t)size : 0;
}

int ft_coll_commutative(MPI_Op op) {
  int yes = 0;
  FT_PMPI(Op_commutative, op, &yes);
  return yes;
}

/* ---- Point-to-point on the shadow ---- */

void ft_coll_send(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, struct ft_comm *c) {
  ft_pmpi_check(ft_send_internal(buf, count, type, dest, tag, c->coll),
                "MPI_Send");
}

void ft_coll_recv(struct ft_runtime *rt, void *buf, int count,
                  MPI_Datatype type, int source, int tag, struct ft_comm *c) {
  ft_pmpi_check(ft_recv_internal(rt, buf, count, type, source, tag, c->coll,
                                 MPI_STATUS_IGNORE),
                "MPI_Recv");
}

void ft_coll_sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
                      int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                      int source, int tag, struct ft_comm *c) {
  ft_pmpi_check(ft_sendrecv_internal(sbuf, scount, stype, dest, rbuf, rcount,
                                     rtype, source, tag, c->coll),
                "MPI_Sendrecv");
}

/* After the receives of `in` completed: what a blocking receive reports
 * (the fate of a rank that failed, the trace, the family's
 * coll_delivered). */
static void report_deliveries(struct ft_runtime *rt, struct ft_comm *c, int n,
                              const struct ft_coll_recv in[], int tag) {
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  for (int i = 0; !rt->driver->irecv && !rt->coll_unit && i < n; i++) {
    if (in[i].source == MPI_PROC_NULL)
      continue;
    ft_trace_coll_delivery(rt, c->coll, in[i].source, tag);
    if (rt->driver->coll_delivered)
      rt->driver->coll_delivered(rt, c, in[i].source, tag, in[i].buf,
                                 in[i].count, in[i].type, NULL);
  }
}

void ft_coll_isend(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, struct ft_comm *c, MPI_Request *req) {
  ft_pmpi_check(ft_isend_internal(buf, count, type, dest, tag, c->coll, req),
                "MPI_Isend");
}

void ft_coll_irecv(const struct ft_coll_recv *in, int tag, struct ft_comm *c,
                   MPI_Request *req) {
  *req = MPI_REQUEST_NULL;
  if (in->source != MPI_PROC_NULL)
    ft_pmpi_check(ft_irecv_internal(in->buf, in->count, in->type, in->source,
                                    tag, c->coll, req),
                  "MPI_Irecv");
}

void ft_coll_complete(struct ft_runtime *rt, struct ft_comm *c, int n,
                      MPI_Request reqs[], int nin,
                      const struct ft_coll_recv in[], int tag) {
  ft_pmpi_check(ft_coll_waitall(rt, n, reqs), "MPI_Waitall");
  if (nin > 0)
    report_deliveries(rt, c, nin, in, tag);
}

void ft_coll_recv_all(struct ft_runtime *rt, struct ft_comm *c, int n,
                      const struct ft_coll_recv in[], int tag) {
  MPI_Request small[16];
  MPI_Request *reqs = n <= 16 ? small : malloc((size_t)n * sizeof *reqs);
  if (!reqs)
    ft_fatal("out of memory in a collective (%d receives)", n);
  for (int i = 0; i < n; i++)
    ft_coll_irecv(&in[i], tag, c, &reqs[i]);
  ft_coll_complete(rt, c, n, reqs, n, in, tag);
  if (reqs != small)
    free(reqs);
}

static int vrank(int rank, int root, int size) {
  return (rank - root + size) % size;
}

static int real_rank(int v, int root, int size) { return (v + root) % size; }

/* ---- Barrier (SMPI's barrier-ompi.cpp) ---- */

static void barrier_empty_send(int dest, struct ft_comm *c) {
  ft_coll_send(NULL, 0, MPI_BYTE, dest, FT_TAG_BARRIER, c);
}

static void barrier_empty_recv(struct ft_runtime *rt, int source,
                               struct ft_comm *c) {
  char r;
  ft_coll_recv(rt, &r, 0, MPI_BYTE, source, FT_TAG_BARRIER, c);
}

static void barrier_exchange(int to, int from, struct ft_comm *c) {
  char s = 0, r;
  ft_coll_sendrecv(&s, 0, MPI_BYTE, to, &r, 0, MPI_BYTE, from, FT_TAG_BARRIER,
                   c);
}

/* Every rank to 0, then 0 to every rank. */
static void barrier_linear(struct ft_runtime *rt, struct ft_comm *c) {
  if (c->rank > 0) {
    barrier_empty_send(0, c);
    barrier_empty_recv(rt, 0, c);
    return;
  }
  char r;
  struct ft_coll_recv *in = calloc((size_t)c->size, sizeof *in);
  if (!in)
    ft_fatal("out of memory in a barrier");
  in[0].source = MPI_PROC_NULL;
  for (int i = 1; i < c->size; i++)
    in[i] = (struct ft_coll_recv){i, &r, 0, MPI_BYTE};
  ft_coll_recv_all(rt, c, c->size, in, FT_TAG_BARRIER);
  free(in);
  for (int i = 1; i < c->size; i++)
    barrier_empty_send(i, c);
}

/* Recursive doubling; the ranks beyond the largest power of two first
 * check in with rank - adjsize, which releases them at the end. */
static void barrier_doubling(struct ft_runtime *rt, struct ft_comm *c) {
  int rank = c->rank, size = c->size, adjsize = 1;
  while (adjsize * 2 <= size)
    adjsize *= 2;
  if (adjsize != size && rank >= adjsize)
    barrier_exchange(rank - adjsize, rank - adjsize, c);
  else if (adjsize != size && rank < size - adjsize)
    barrier_empty_recv(rt, rank + adjsize, c);
  for (int mask = 1; rank < adjsize && mask < adjsize; mask <<= 1)
    barrier_exchange(rank ^ mask, rank ^ mask, c);
  if (adjsize != size && rank < size - adjsize)
    barrier_empty_send(rank + adjsize, c);
}

/* Dissemination (Bruck): exchange with rank + 2^k and rank - 2^k. */
static void barrier_bruck(struct ft_comm *c) {
  for (int d = 1; d < c->size; d <<= 1)
    barrier_exchange((c->rank + d) % c->size, (c->rank - d + c->size) % c->size,
                     c);
}

/* Up a binomial tree towards 0 and back down. */
static void barrier_tree(struct ft_runtime *rt, struct ft_comm *c) {
  int rank = c->rank, depth = 1;
  while (depth < c->size)
    depth <<= 1;
  for (int jump = 1; jump < depth; jump <<= 1) {
    int partner = rank ^ jump;
    if ((partner & (jump - 1)) || partner >= c->size)
      continue;
    if (partner > rank)
      barrier_empty_recv(rt, partner, c);
    else
      barrier_empty_send(partner, c);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    int partner = rank ^ jump;
    if ((partner & (jump - 1)) || partner >= c->size)
      continue;
    if (partner > rank)
      barrier_empty_send(partner, c);
    else
      barrier_empty_recv(rt, partner, c);
  }
}

void ft_coll_barrier(struct ft_runtime *rt, struct ft_comm *c) {
  if (c->size < 2)
    return;
  switch (ft_coll_select_barrier(c->size)) {
  case 1:
  case 2: /* SMPI's double_ring entry runs the linear barrier */
    barrier_linear(rt, c);
    break;
  case 4:
    barrier_bruck(c);
    break;
  case 6:
    barrier_tree(rt, c);
    break;
  default: /* 3 recursive doubling, 5 two processes (the same exchange) */
    barrier_doubling(rt, c);
  }
}

/* ---- Broadcast (SMPI's bcast-*.cpp) ---- */

static void bcast_binomial(struct ft_runtime *rt, void *buf, int count,
                           MPI_Datatype type, int root, struct ft_comm *c) {
  int v = vrank(c->rank, root, c->size), mask = 1;
  while (mask < c->size) { /* receive from the parent, if any */
    if (v & mask) {
      ft_coll_recv(rt, buf, count, type, real_rank(v - mask, root, c->size),
                   FT_TAG_BCAST, c);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) /* then feed the subtree */
    if (v + mask < c->size)
      ft_coll_send(buf, count, type, real_rank(v + mask, root, c->size),
                   FT_TAG_BCAST, c);
}

/* MVAPICH2's k-nomial tree (bcast__mvapich2_knomial_intra_node), with
 * SMPI's factor 4. */
static void bcast_knomial(struct ft_runtime *rt, void *buf, int count,
                          MPI_Datatype type, int root, struct ft_comm *c) {
  enum { K = 4 };
  int v = vrank(c->rank, root, c->size), mask = 1;
  while (mask < c->size) {
    if (v % (K * mask)) {
      ft_coll_recv(rt, buf, count, type,
                   real_rank(v / (K * mask) * (K * mask), root, c->size),
                   FT_TAG_BCAST, c);
      break;
    }
    mask *= K;
  }
  for (mask /= K; mask > 0; mask /= K) { /* isends, waited for per level */
    MPI_Request reqs[K];
    int n = 0;
    for (int k = 1; k < K; k++)
      if (v + mask * k < c->size)
        ft_coll_isend(buf, count, type, real_rank(v + mask * k, root, c->size),
                      FT_TAG_BCAST, c, &reqs[n++]);
    ft_coll_complete(rt, c, n, reqs, 0, NULL, FT_TAG_BCAST);
  }
}

/* A tree rooted at rank 0 for the pipelined broadcasts: up to 2 children. */
struct pipe_tree {
  int parent; /* -1 at rank 0 */
  int children[2], n;
};

/* SMPI's NTSB (binary heap) or NTSL (chain) tree. */
static struct pipe_tree pipe_tree_of(int rank, int size, int binary) {
  struct pipe_tree t = {.parent =
                            rank ? (binary ? (rank - 1) / 2 : rank - 1) : -1};
  int first = binary ? 2 * rank + 1 : rank + 1,
      last = binary ? first + 1 : first;
  for (int ch = first; ch <= last && ch < size; ch++)
    t.children[t.n++] = ch;
  return t;
}

/* The pipeline of NTSB and NTSL: a non-root rank posts the receives of
 * every segment first; each segment, once in, goes to the children
 * (isend); the sends are waited for at the end. */
static void bcast_segments(struct ft_runtime *rt, void *buf, int pipes,
                           int each, MPI_Datatype type,
                           const struct pipe_tree *t, struct ft_comm *c) {
  MPI_Request *rreq = malloc((size_t)pipes * sizeof *rreq);
  MPI_Request *sreq = malloc((size_t)pipes * 2 * sizeof *sreq);
  struct ft_coll_recv *in = malloc((size_t)pipes * sizeof *in);
  if (!rreq || !sreq || !in)
    ft_fatal("out of memory in a bcast of %d segments", pipes);
  for (int i = 0; i < pipes; i++) {
    in[i] = (struct ft_coll_recv){t->parent >= 0 ? t->parent : MPI_PROC_NULL,
                                  ft_coll_at(buf, (MPI_Aint)i * each, type),
                                  each, type};
    ft_coll_irecv(&in[i], FT_TAG_BCAST, c, &rreq[i]);
  }
  int ns = 0;
  for (int i = 0; i < pipes; i++) {
    if (t->parent >= 0)
      ft_coll_complete(rt, c, 1, &rreq[i], 1, &in[i], FT_TAG_BCAST);
    for (int k = 0; k < t->n; k++)
      ft_coll_isend(in[i].buf, each, type, t->children[k], FT_TAG_BCAST, c,
                    &sreq[ns++]);
  }
  ft_coll_complete(rt, c, ns, sreq, 0, NULL, FT_TAG_BCAST);
  free(rreq);
  free(sreq);
  free(in);
}

/* SMPI's NTSB and NTSL: rank 0 gets the data from the root, then 8 KiB
 * segments flow down the tree; a remainder of less than a segment is
 * broadcast again by the selector. A message of one segment or less goes
 * down the tree in blocking calls. */
static void bcast_pipelined(struct ft_runtime *rt, void *buf, int count,
                            MPI_Datatype type, int root, struct ft_comm *c,
                            int binary) {
  MPI_Aint extent = ft_coll_extent(type);
  int segment = extent > 0 ? (int)(8192 / extent) : 1;
  segment = segment > 0 ? segment : 1;
  if (root != 0 && c->rank == root)
    ft_coll_send(buf, count, type, 0, FT_TAG_BCAST, c);
  else if (root != 0 && c->rank == 0)
    ft_coll_recv(rt, buf, count, type, root, FT_TAG_BCAST, c);
  struct pipe_tree t = pipe_tree_of(c->rank, c->size, binary);
  if (count <= segment) {
    if (t.parent >= 0)
      ft_coll_recv(rt, buf, count, type, t.parent, FT_TAG_BCAST, c);
    for (int k = 0; k < t.n; k++)
      ft_coll_send(buf, count, type, t.children[k], FT_TAG_BCAST, c);
    return;
  }
  bcast_segments(rt, buf, count / segment, segment, type, &t, c);
  if (count % segment)
    ft_coll_bcast(rt,
                  ft_coll_at(buf, (MPI_Aint)(count / segment) * segment, type),
                  count % segment, type, root, c);
}

void ft_coll_bcast(struct ft_runtime *rt, void *buf, int count,
                   MPI_Datatype type, int root, struct ft_comm *c) {
  if (c->size < 2)
    return;
  switch (ft_coll_select_bcast(c->size, ft_coll_bytes(count, type))) {
  case 6:
    bcast_binomial(rt, buf, count, type, root, c);
    break;
  case 7:
    bcast_knomial(rt, buf, count, type, root, c);
    break;
  case 1: /* NTSL; 2 and 3 (ompi_pipeline, a segmented chain) as NTSL */
  case 2:
  case 3:
    bcast_pipelined(rt, buf, count, type, root, c, 0);
    break;
  default: /* 5 NTSB; 4 (split binary tree) and 8, 9 (scatter then
              allgather, from 1,024 ranks) approximated by NTSB */
    bcast_pipelined(rt, buf, count, type, root, c, 1);
  }
}

/* ---- Reduce of a commutative operation (SMPI's reduce-ompi.cpp) ---- */

/* A reduction tree of Open MPI's coll_tuned_topo.c. */
struct red_tree {
  int parent; /* -1 at the root */
  int children[32], n;
};

/* ompi_coll_tuned_topo_build_in_order_bmtree. */
static struct red_tree tree_binomial(int rank, int root, int size) {
  struct red_tree t = {.parent = -1};
  int v = vrank(rank, root, size);
  for (int mask = 1; mask < size; mask <<= 1) {
    int remote = v ^ mask;
    if (remote < v) {
      t.parent = real_rank(remote, root, size);
      break;
    }
    if (remote < size)
      t.children[t.n++] = real_rank(remote, root, size);
  }
  return t;
}

static int ipow(int base, int e) {
  int p = 1;
  while (e-- > 0)
    p *= base;
  return p;
}

/* ompi_coll_tuned_topo_build_tree(fanout): level by level, children of
 * shifted rank s at s + fanout^level x (i + 1). */
static struct red_tree tree_kary(int fanout, int rank, int root, int size) {
  struct red_tree t = {.parent = -1};
  int s = vrank(rank, root, size), level = 0, num = 0;
  while (num <= s)
    num += ipow(fanout, level++);
  level--;
  int delta = ipow(fanout, level);
  for (int i = 0; i < fanout && s + delta * (i + 1) < size; i++)
    t.children[t.n++] = real_rank(s + delta * (i + 1), root, size);
  if (s == 0)
    return t;
  int slimit = (ipow(fanout, level) - 1) / (fanout - 1), parent = s;
  if (parent < fanout)
    parent = 0;
  else
    while (parent >= slimit)
      parent -= delta / fanout;
  t.parent = real_rank(parent, root, size);
  return t;
}

/* A chain from the root in rank order (Open MPI's chain of fanout 1). */
static struct red_tree tree_chain(int rank, int root, int size) {
  int s = vrank(rank, root, size);
  struct red_tree t = {.parent = s ? real_rank(s - 1, root, size) : -1};
  if (s + 1 < size)
    t.children[t.n++] = real_rank(s + 1, root, size);
  return t;
}

/* COLL_TUNED_COMPUTED_SEGCOUNT: elements per segment of `segsize` bytes. */
static int seg_count(size_t segsize, size_t typelng, int count) {
  if (segsize >= typelng && typelng > 0 && segsize < typelng * (size_t)count) {
    size_t seg = segsize / typelng;
    if (segsize - seg * typelng > (typelng >> 1))
      seg++;
    return (int)seg;
  }
  return count;
}

/* A receive of reduce_generic in flight: what it receives. */
struct in_flight {
  MPI_Request req;
  struct ft_coll_recv what;
};

static void post(struct in_flight *f, int source, void *buf, int count,
                 MPI_Datatype type, struct ft_comm *c) {
  f->what = (struct ft_coll_recv){source, buf, count, type};
  ft_pmpi_check(ft_irecv_internal(buf, count, type, source, FT_TAG_REDUCE,
                                  c->coll, &f->req),
                "MPI_Irecv");
}

/* Waits for f's receive, if one is in flight, and reports it. */
static void wait_in_flight(struct ft_runtime *rt, struct in_flight *f,
                           struct ft_comm *c) {
  if (f->req == MPI_REQUEST_NULL)
    return;
  ft_pmpi_check(ft_coll_waitall(rt, 1, &f->req), "MPI_Waitall");
  f->req = MPI_REQUEST_NULL;
  report_deliveries(rt, c, 1, &f->what, FT_TAG_REDUCE);
}

/* smpi_coll_tuned_ompi_reduce_generic for a commutative operation, step
 * for step: segment s of child i is received (into the accumulator for
 * the first child) while child i - 1's is combined, and segment s goes to
 * the parent while segment s + 1 of the first child arrives. The order in
 * which receives are posted matters in SMPI 3.32: a small message moves
 * only once its receive is posted (smpi/async-small-thresh is 0), so
 * blocking receives child after child took 1.6 times as long (64 ranks, 4
 * reduces of 8 bytes). Combined: acc = c_k op (... (c_1 op (mine op
 * c_0))). */
static void reduce_generic(struct ft_runtime *rt, void *acc, int count,
                           MPI_Datatype type, MPI_Op op,
                           const struct red_tree *t, int segcount,
                           struct ft_comm *c) {
  if (t->n == 0) { /* a leaf: segment after segment to the parent */
    for (int done = 0; done < count; done += segcount)
      ft_coll_send(ft_coll_at(acc, done, type),
                   count - done < segcount ? count - done : segcount, type,
                   t->parent, FT_TAG_REDUCE, c);
    return;
  }
  int nseg = (count + segcount - 1) / segcount, inbi = 0, recvcount = 0;
  void *base0, *base1, *base2, *inbuf[2];
  void *mine = ft_coll_scratch(count, type, &base2);
  inbuf[0] = ft_coll_scratch(segcount, type, &base0);
  inbuf[1] = ft_coll_scratch(segcount, type, &base1);
  ft_coll_copy(mine, acc, count, type);
  struct in_flight f[2] = {{.req = MPI_REQUEST_NULL},
                           {.req = MPI_REQUEST_NULL}};
  for (int s = 0; s <= nseg; s++) {
    int prevcount = recvcount;
    recvcount = s == nseg - 1 ? count - segcount * s : segcount;
    for (int i = 0; i < t->n; i++) {
      if (s < nseg)
        post(&f[inbi], t->children[i],
             i == 0 ? ft_coll_at(acc, (MPI_Aint)s * segcount, type)
                    : inbuf[inbi],
             recvcount, type, c);
      wait_in_flight(rt, &f[inbi ^ 1], c);
      void *in = i == 1 ? ft_coll_at(mine, (MPI_Aint)s * segcount, type)
                        : inbuf[inbi ^ 1];
      if (i > 0) {
        ft_coll_reduce_local(in, ft_coll_at(acc, (MPI_Aint)s * segcount, type),
                             recvcount, type, op);
      } else if (s > 0) {
        char *prev = ft_coll_at(acc, (MPI_Aint)(s - 1) * segcount, type);
        if (t->n == 1)
          in = ft_coll_at(mine, (MPI_Aint)(s - 1) * segcount, type);
        ft_coll_reduce_local(in, prev, prevcount, type, op);
        if (t->parent >= 0)
          ft_coll_send(prev, prevcount, type, t->parent, FT_TAG_REDUCE, c);
        if (s == nseg)
          break;
      }
      inbi ^= 1;
    }
  }
  free(base0);
  free(base1);
  free(base2);
}

/* reduce__ompi_basic_linear: the root combines x_{p-1}, then x_i op
 * result for i = p - 2 down to 0. */
static void reduce_linear(struct ft_runtime *rt, void *acc, int count,
                          MPI_Datatype type, MPI_Op op, int root,
                          struct ft_comm *c) {
  if (c->rank != root) {
    ft_coll_send(acc, count, type, root, FT_TAG_REDUCE, c);
    return;
  }
  void *base, *mine = ft_coll_scratch(count, type, &base);
  void *base2, *tmp = ft_coll_scratch(count, type, &base2);
  ft_coll_copy(mine, acc, count, type);
  for (int i = c->size - 1; i >= 0; i--) {
    void *in = mine;
    if (i != root) {
      ft_coll_recv(rt, tmp, count, type, i, FT_TAG_REDUCE, c);
      in = tmp;
    }
    if (i == c->size - 1)
      ft_coll_copy(acc, in, count, type);
    else
      ft_coll_reduce_local(in, acc, count, type, op);
  }
  free(base);
  free(base2);
}

/* The segment sizes of reduce__ompi_binomial and reduce__ompi_pipeline. */
static size_t segsize_binomial(int size, size_t bytes, int count) {
  if ((size < 8 && bytes < 20480) || bytes < 2048 || count <= 1)
    return 0;
  return size > 0.6016 / 1024.0 * (double)bytes + 1.3496 ? 1024 : 0;
}

static size_t segsize_pipeline(int size, size_t bytes) {
  if (size > 0.0410 / 1024.0 * (double)bytes + 9.7128)
    return 1024;
  return size > 0.0033 / 1024.0 * (double)bytes + 1.6761 ? 32 * 1024
                                                         : 64 * 1024;
}

void ft_coll_reduce_commutative(struct ft_runtime *rt, void *acc, int count,
                                MPI_Datatype type, MPI_Op op, int root,
                                struct ft_comm *c) {
  size_t bytes = ft_coll_bytes(count, type), typelng = ft_coll_bytes(1, type);
  int alg = ft_coll_select_reduce(c->size, bytes, 1), r = c->rank;
  struct red_tree t;
  size_t segsize = 0;
  if (c->size < 2 || count <= 0) /* no segment, no message (Open MPI) */
    return;
  switch (alg) {
  case 1:
  case 7: /* SMPI runs the linear reduce for rabenseifner */
    reduce_linear(rt, acc, count, type, op, root, c);
    return;
  case 2: /* chain of fanout p/2: approximated by a chain (pipeline) */
    t = tree_chain(r, root, c->size);
    segsize = 64 * 1024;
    break;
  case 3:
    t = tree_chain(r, root, c->size);
    segsize = segsize_pipeline(c->size, bytes);
    break;
  case 4:
    t = tree_kary(2, r, root, c->size);
    segsize = 32 * 1024;
    break;
  default: /* 5 binomial; 6 (in-order binary tree) approximated by it */
    t = tree_binomial(r, root, c->size);
    segsize = segsize_binomial(c->size, bytes, count);
  }
  reduce_generic(rt, acc, count, type, op, &t,
                 seg_count(segsize, typelng, count), c);
}

/* ---- Gather and scatter on a binomial tree (SMPI's gather-ompi.cpp,
 * scatter-ompi.cpp), on packed blocks ---- */

/* The size of a predefined contiguous type, 0 for the others: their packed
 * form is a copy, with no SMPI call (each one stops and restarts SMPI's
 * compute timer: issue 18, item 1). */
static size_t plain_size(MPI_Datatype type) {
  if (type == MPI_BYTE || type == MPI_PACKED || type == MPI_CHAR ||
      type == MPI_UNSIGNED_CHAR)
    return 1;
  if (type == MPI_INT || type == MPI_UNSIGNED || type == MPI_FLOAT)
    return 4;
  if (type == MPI_DOUBLE || type == MPI_LONG || type == MPI_UNSIGNED_LONG ||
      type == MPI_LONG_LONG || type == MPI_UNSIGNED_LONG_LONG)
    return 8;
  return 0;
}

void ft_coll_pack(void *dst, const void *src, int count, MPI_Datatype type,
                  struct ft_comm *c) {
  size_t plain = plain_size(type);
  if (plain && count > 0) {
    memcpy(dst, src, plain * (size_t)count);
    return;
  }
  int bytes = (int)ft_coll_bytes(count, type), position = 0;
  if (bytes > 0)
    FT_PMPI(Pack, src, count, type, dst, bytes, &position, c->coll);
}

void ft_coll_unpack(void *dst, const void *src, int count, MPI_Datatype type,
                    struct ft_comm *c) {
  size_t plain = plain_size(type);
  if (plain && count > 0) {
    memcpy(dst, src, plain * (size_t)count);
    return;
  }
  int bytes = (int)ft_coll_bytes(count, type), position = 0;
  if (bytes > 0)
    FT_PMPI(Unpack, src, bytes, &position, dst, count, type, c->coll);
}

/* How many blocks the subtree of binomial child vkid of v holds. */
static int subtree_blocks(int v, int vkid, int size) {
  int n = vkid - v;
  return n > size - vkid ? size - vkid : n;
}

void ft_coll_gather_binomial(struct ft_runtime *rt, const void *mine, int count,
                             MPI_Datatype type, void *rbuf, int root,
                             struct ft_comm *c) {
  size_t block = ft_coll_bytes(count, type);
  int size = c->size, v = vrank(c->rank, root, size);
  struct red_tree t = tree_binomial(c->rank, root, size);
  int held = 1;
  for (int k = 0; k < t.n; k++)
    held += subtree_blocks(v, vrank(t.children[k], root, size), size);
  char *tmp = malloc(block * (size_t)held + 1);
  if (!tmp)
    ft_fatal("out of memory in a gather");
  ft_coll_pack(tmp, mine, count, type, c); /* blocks v, v + 1, ... */
  size_t at = block;
  for (int k = 0; k < t.n; k++) {
    int n = subtree_blocks(v, vrank(t.children[k], root, size), size);
    ft_coll_recv(rt, tmp + at, (int)(block * (size_t)n), MPI_BYTE,
                 t.children[k], FT_TAG_GATHER, c);
    at += block * (size_t)n;
  }
  if (t.parent >= 0)
    ft_coll_send(tmp, (int)at, MPI_BYTE, t.parent, FT_TAG_GATHER, c);
  else /* the root: virtual rank i is rank (i + root) % size */
    for (int i = 0; i < size; i++)
      ft_coll_unpack(
          ft_coll_at(rbuf, (MPI_Aint)real_rank(i, root, size) * count, type),
          tmp + block * (size_t)i, count, type, c);
  free(tmp);
}

void ft_coll_scatter_binomial(struct ft_runtime *rt, const void *sbuf,
                              void *mine, int count, MPI_Datatype type,
                              int root, struct ft_comm *c) {
  size_t block = ft_coll_bytes(count, type);
  int size = c->size, v = vrank(c->rank, root, size);
  struct red_tree t = tree_binomial(c->rank, root, size);
  int held = 1;
  for (int k = 0; k < t.n; k++)
    held += subtree_blocks(v, vrank(t.children[k], root, size), size);
  char *tmp = malloc(block * (size_t)held + 1);
  if (!tmp)
    ft_fatal("out of memory in a scatter");
  if (t.parent < 0) /* the root packs in virtual rank order */
    for (int i = 0; i < size; i++)
      ft_coll_pack(
          tmp + block * (size_t)i,
          ft_coll_at(sbuf, (MPI_Aint)real_rank(i, root, size) * count, type),
          count, type, c);
  else
    ft_coll_recv(rt, tmp, (int)(block * (size_t)held), MPI_BYTE, t.parent,
                 FT_TAG_SCATTER, c);
  for (int k = 0; k < t.n; k++) { /* the children, smallest subtree first */
    int vkid = vrank(t.children[k], root, size);
    int n = subtree_blocks(v, vkid, size);
    ft_coll_send(tmp + block * (size_t)(vkid - v), (int)(block * (size_t)n),
                 MPI_BYTE, t.children[k], FT_TAG_SCATTER, c);
  }
  if (mine != MPI_IN_PLACE)
    ft_coll_unpack(mine, tmp, count, type, c);
  free(tmp);
}
