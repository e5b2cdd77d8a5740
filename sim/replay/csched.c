/* Collective schedules for the any-call replay (csched.h): coll.c's
 * algorithms, one rank's rounds at a time. Each function below names the
 * coll.c function it follows; a blocking send or receive there is a round
 * of one operation here, a sendrecv a round of a receive and a send, and
 * gather_at_root's irecvs-then-waitall one round of receives. */
#include "csched.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rtrace.h"

/* The schedule being built: operations go into the last round. */
struct bld {
  struct ft_csched *c;
  size_t capops, caprounds;
  int oom; /* out of memory, or more operations than 32-bit indexes */
};

static int grow_ops(struct bld *b) {
  struct ft_csched *c = b->c;
  if (c->nops < b->capops)
    return 0;
  size_t cap = b->capops ? 2 * b->capops : 16;
  struct ft_csched_op *p = realloc(c->ops, cap * sizeof *p);
  if (!p)
    return -1;
  c->ops = p, b->capops = cap;
  return 0;
}

static int grow_rounds(struct bld *b) {
  struct ft_csched *c = b->c;
  if (c->nrounds < b->caprounds)
    return 0;
  size_t cap = b->caprounds ? 2 * b->caprounds : 16;
  struct ft_csched_round *p = realloc(c->rounds, cap * sizeof *p);
  if (!p)
    return -1;
  c->rounds = p, b->caprounds = cap;
  return 0;
}

/* Starts a new round, unless the last one is still empty. */
static void round_open(struct bld *b) {
  struct ft_csched *c = b->c;
  if (b->oom || (c->nrounds && c->rounds[c->nrounds - 1].n == 0))
    return;
  if (grow_rounds(b)) {
    b->oom = 1;
    return;
  }
  c->rounds[c->nrounds++] = (struct ft_csched_round){(uint32_t)c->nops, 0};
}

/* Appends an operation to the last round (round_open first). */
static void put(struct bld *b, uint8_t send, uint64_t peer, uint64_t bytes) {
  struct ft_csched *c = b->c;
  if (b->oom || c->nops >= UINT32_MAX || grow_ops(b)) {
    b->oom = 1;
    return;
  }
  c->ops[c->nops++] = (struct ft_csched_op){send, (uint32_t)peer, bytes};
  c->rounds[c->nrounds - 1].n++;
}

/* A round of one blocking send or receive. */
static void one(struct bld *b, uint8_t send, uint64_t peer, uint64_t bytes) {
  round_open(b);
  put(b, send, peer, bytes);
}

/* A round of a sendrecv: the receive from `from`, the send to `to`. */
static void pair(struct bld *b, uint64_t to, uint64_t sbytes, uint64_t from,
                 uint64_t rbytes) {
  round_open(b);
  put(b, 0, from, rbytes);
  put(b, 1, to, sbytes);
}

/* Block i's bytes: counts[i], or `each` when there are no counts. */
static uint64_t block(const uint64_t *counts, uint64_t i, uint64_t each) {
  return counts ? counts[i] : each;
}

static uint64_t vrank(uint64_t r, uint64_t root, uint64_t n) {
  return (r + n - root) % n;
}

static uint64_t real_rank(uint64_t v, uint64_t root, uint64_t n) {
  return (v + root) % n;
}

/* coll.c barrier_call: dissemination, step k a sendrecv to me + k and
 * from me - k, for k = 1, 2, 4... < n. */
static void barrier(struct bld *b, uint64_t n, uint64_t me) {
  for (uint64_t k = 1; k < n; k <<= 1)
    pair(b, (me + k) % n, 0, (me + n - k) % n, 0);
}

/* coll.c bcast_tree: binomial tree from root; receive from the parent,
 * then feed the subtrees, largest first. */
static void bcast_tree(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                       uint64_t bytes) {
  uint64_t v = vrank(me, root, n), mask = 1;
  for (; mask < n; mask <<= 1)
    if (v & mask) {
      one(b, 0, real_rank(v - mask, root, n), bytes);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n)
      one(b, 1, real_rank(v + mask, root, n), bytes);
}

/* coll.c reduce_tree: binomial tree towards root; receive from the
 * children, smallest subtree first, then send to the parent. */
static void reduce_tree(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                        uint64_t bytes) {
  uint64_t v = vrank(me, root, n);
  for (uint64_t mask = 1; mask < n; mask <<= 1) {
    if (v & mask) {
      one(b, 1, real_rank(v - mask, root, n), bytes);
      return;
    }
    if (v + mask < n)
      one(b, 0, real_rank(v + mask, root, n), bytes);
  }
}

/* coll.c reduce_ordered (a non-commutative operation): every other rank
 * sends to the root, which receives them one at a time in rank order. */
static void reduce_ordered(struct bld *b, uint64_t n, uint64_t me,
                           uint64_t root, uint64_t bytes) {
  if (me != root) {
    one(b, 1, root, bytes);
    return;
  }
  for (uint64_t r = 0; r < n; r++)
    if (r != root)
      one(b, 0, r, bytes);
}

/* coll.c reduce_any: the tree, or the ordered reduce when s says the
 * operation is not commutative. */
static void reduce_any(struct bld *b, const struct ft_csched_spec *s,
                       uint64_t root, uint64_t bytes) {
  if (s->noncommutative)
    reduce_ordered(b, s->size, s->me, root, bytes);
  else
    reduce_tree(b, s->size, s->me, root, bytes);
}

/* coll.c allreduce_doubling: recursive doubling over the largest power of
 * two pof2 <= n; the first 2 x (n - pof2) ranks fold in pairs first (the
 * even one sends its data to the odd one, which takes part, and gets the
 * result back at the end). */
static void allreduce(struct bld *b, uint64_t n, uint64_t me, uint64_t bytes) {
  uint64_t pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  uint64_t rem = n - pof2;
  int folded = me < 2 * rem;
  if (folded && me % 2 == 0) {
    one(b, 1, me + 1, bytes);
    one(b, 0, me + 1, bytes);
    return;
  }
  if (folded)
    one(b, 0, me - 1, bytes);
  uint64_t newrank = folded ? me / 2 : me - rem;
  for (uint64_t mask = 1; mask < pof2; mask <<= 1) {
    uint64_t peer = newrank ^ mask;
    uint64_t dst = peer < rem ? peer * 2 + 1 : peer + rem;
    pair(b, dst, bytes, dst, bytes);
  }
  if (folded)
    one(b, 1, me - 1, bytes);
}

/* coll.c gatherv_any: every other rank sends `sent` to the root, which
 * receives them all in one round (block r from rank r). */
static void gather(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                   uint64_t sent, const uint64_t *counts, uint64_t each) {
  if (me != root) {
    one(b, 1, root, sent);
    return;
  }
  round_open(b);
  for (uint64_t r = 0; r < n; r++)
    if (r != root)
      put(b, 0, r, block(counts, r, each));
}

/* coll.c scatterv_any: the root sends block r to rank r, one at a time, in
 * rank order; every other rank receives `mine`. */
static void scatter(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                    const uint64_t *counts, uint64_t each, uint64_t mine) {
  if (me != root) {
    one(b, 0, root, mine);
    return;
  }
  for (uint64_t r = 0; r < n; r++)
    if (r != root)
      one(b, 1, r, block(counts, r, each));
}

/* coll.c allgatherv_ring: n - 1 steps; at step i, send block me - i to the
 * right, receive block me - i - 1 from the left. */
static void ring(struct bld *b, uint64_t n, uint64_t me, const uint64_t *counts,
                 uint64_t each) {
  uint64_t right = (me + 1) % n, left = (me + n - 1) % n;
  for (uint64_t i = 0; i + 1 < n; i++) {
    uint64_t out = (me + n - i) % n, in = (me + 2 * n - i - 1) % n;
    pair(b, right, block(counts, out, each), left, block(counts, in, each));
  }
}

/* coll.c alltoallv_pairwise: n steps (step 0 with itself); at step i, send
 * to me + i, receive from me - i. */
static void pairwise(struct bld *b, uint64_t n, uint64_t me,
                     const uint64_t *scounts, uint64_t seach,
                     const uint64_t *rcounts, uint64_t reach) {
  for (uint64_t i = 0; i < n; i++) {
    uint64_t dst = (me + i) % n, src = (me + n - i) % n;
    pair(b, dst, block(scounts, dst, seach), src, block(rcounts, src, reach));
  }
}

/* coll.c scan_chain (scan and exscan): receive the prefix from me - 1,
 * then send it on to me + 1. */
static void chain(struct bld *b, uint64_t n, uint64_t me, uint64_t bytes) {
  if (me > 0)
    one(b, 0, me - 1, bytes);
  if (me + 1 < n)
    one(b, 1, me + 1, bytes);
}

static int is_rooted(uint8_t op) {
  return op == FT_RT_BCAST || op == FT_RT_REDUCE || op == FT_RT_GATHER ||
         op == FT_RT_GATHERV || op == FT_RT_SCATTER || op == FT_RT_SCATTERV;
}

size_t ft_csched_counts_needed(uint8_t op, uint32_t size, uint32_t me,
                               int32_t root) {
  switch (op) {
  case FT_RT_GATHERV:
  case FT_RT_SCATTERV:
    return root >= 0 && (uint32_t)root == me ? size : 0;
  case FT_RT_ALLGATHERV:
  case FT_RT_REDUCE_SCATTER:
    return size;
  case FT_RT_ALLTOALLV:
  case FT_RT_ALLTOALLW:
    return 2 * (size_t)size;
  default:
    return 0;
  }
}

/* The recorded bytes that gather, scatter, allgather and alltoall split
 * into n equal blocks at this rank (*a, and *b for alltoall's received
 * ones; 0 when none). */
static void equal_split(const struct ft_csched_spec *s, uint64_t *a,
                        uint64_t *b) {
  int root = s->root >= 0 && (uint32_t)s->root == s->me;
  *a = *b = 0;
  if ((s->op == FT_RT_GATHER && root) || s->op == FT_RT_ALLGATHER)
    *a = s->recvd;
  if (s->op == FT_RT_SCATTER && root)
    *a = s->sent;
  if (s->op == FT_RT_ALLTOALL)
    *a = s->sent, *b = s->recvd;
}

/* The sum of reduce_scatter's counts into *sum; -1 beyond 64 bits. */
static int counts_sum(const uint64_t *counts, size_t n, uint64_t *sum) {
  *sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (counts[i] > UINT64_MAX - *sum)
      return -1;
    *sum += counts[i];
  }
  return 0;
}

/* The spec's communicator, root and counts; 0 or -1 with err. */
static int check_shape(const struct ft_csched_spec *s, const char *name,
                       char *err, size_t errlen) {
  if (s->size == 0 || s->me >= s->size) {
    snprintf(err, errlen,
             "%s: rank %" PRIu32 " outside a communicator of %" PRIu32 " ranks",
             name, s->me, s->size);
    return -1;
  }
  if (is_rooted(s->op) && (s->root < 0 || (uint32_t)s->root >= s->size)) {
    snprintf(err, errlen,
             "%s: root %" PRId32 " outside a communicator of %" PRIu32 " ranks",
             name, s->root, s->size);
    return -1;
  }
  size_t need = ft_csched_counts_needed(s->op, s->size, s->me, s->root);
  if (s->ncounts != need || (need && !s->counts)) {
    snprintf(err, errlen,
             "%s: %zu counts given, %zu needed (the v-collectives' counts "
             "of ft_rtrace_write_vcounts)",
             name, s->counts ? s->ncounts : 0, need);
    return -1;
  }
  return 0;
}

/* The recorded bytes; 0 or -1 with err. */
static int check_bytes(const struct ft_csched_spec *s, const char *name,
                       char *err, size_t errlen) {
  uint64_t a, b, sum;
  equal_split(s, &a, &b);
  if (a % s->size || b % s->size) {
    snprintf(err, errlen,
             "%s: %" PRIu64 " bytes do not split into %" PRIu32 " equal blocks",
             name, a % s->size ? a : b, s->size);
    return -1;
  }
  if (s->op == FT_RT_REDUCE_SCATTER &&
      counts_sum(s->counts, s->ncounts, &sum)) {
    snprintf(err, errlen, "%s: the counts add up beyond 64 bits", name);
    return -1;
  }
  return 0;
}

/* The schedule of a checked spec. */
static void emit(struct bld *b, const struct ft_csched_spec *s) {
  uint64_t n = s->size, me = s->me, root = s->root < 0 ? 0 : (uint64_t)s->root;
  uint64_t sum = 0;
  const uint64_t *cn = s->counts;
  switch (s->op) {
  case FT_RT_BARRIER:
    barrier(b, n, me);
    return;
  case FT_RT_BCAST:
    bcast_tree(b, n, me, root, me == root ? s->sent : s->recvd);
    return;
  case FT_RT_REDUCE:
    reduce_any(b, s, root, s->sent);
    return;
  case FT_RT_ALLREDUCE: /* coll.c allreduce_call */
    if (!s->noncommutative) {
      allreduce(b, n, me, s->sent);
      return;
    }
    reduce_ordered(b, n, me, 0, s->sent);
    bcast_tree(b, n, me, 0, s->sent);
    return;
  case FT_RT_GATHER:
    gather(b, n, me, root, s->sent, NULL, s->recvd / n);
    return;
  case FT_RT_GATHERV:
    gather(b, n, me, root, s->sent, cn, 0);
    return;
  case FT_RT_SCATTER:
    scatter(b, n, me, root, NULL, s->sent / n, s->recvd);
    return;
  case FT_RT_SCATTERV:
    scatter(b, n, me, root, cn, 0, s->recvd);
    return;
  case FT_RT_ALLGATHER:
    ring(b, n, me, NULL, s->recvd / n);
    return;
  case FT_RT_ALLGATHERV:
    ring(b, n, me, cn, 0);
    return;
  case FT_RT_ALLTOALL:
    pairwise(b, n, me, NULL, s->sent / n, NULL, s->recvd / n);
    return;
  case FT_RT_ALLTOALLV:
  case FT_RT_ALLTOALLW:
    pairwise(b, n, me, cn, 0, cn + n, 0);
    return;
  case FT_RT_SCAN:
  case FT_RT_EXSCAN:
    chain(b, n, me, s->sent);
    return;
  case FT_RT_REDUCE_SCATTER: /* coll.c reduce_scatterv */
    counts_sum(cn, s->ncounts, &sum);
    reduce_any(b, s, 0, sum);
    scatter(b, n, me, 0, cn, 0, cn[me]);
    return;
  default: /* FT_RT_REDUCE_SCATTER_BLOCK */
    reduce_any(b, s, 0, s->sent);
    scatter(b, n, me, 0, NULL, s->recvd, s->recvd);
  }
}

int ft_csched_build(const struct ft_csched_spec *s, struct ft_csched *out,
                    char *err, size_t errlen) {
  *out = (struct ft_csched){0};
  if (s->op < FT_RT_BARRIER || s->op >= FT_RT_COLL_COUNT) {
    snprintf(err, errlen, "unknown collective operation %u", (unsigned)s->op);
    return -1;
  }
  const char *name = ft_rt_coll_name(s->op);
  if (check_shape(s, name, err, errlen) || check_bytes(s, name, err, errlen))
    return -1;
  struct bld b = {.c = out};
  emit(&b, s);
  if (out->nrounds && out->rounds[out->nrounds - 1].n == 0)
    out->nrounds--; /* a round opened for nothing: a root alone */
  if (b.oom) {
    snprintf(err, errlen,
             "%s: out of memory for the schedule of %" PRIu32 " ranks", name,
             s->size);
    return -1;
  }
  return 0;
}

void ft_csched_free(struct ft_csched *c) {
  free(c->ops);
  free(c->rounds);
  *c = (struct ft_csched){0};
}
