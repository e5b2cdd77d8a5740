/* Collective schedules for the any-call replay (csched.h): the runtime's
 * algorithms (coll.c, coll_algo.c, coll_exchange.c), chosen by the same
 * selector (sim/coll_select.h), one rank's rounds at a time. A blocking
 * send or receive there is a round of one operation here, a sendrecv a
 * round of a receive and a send, receives (and sends) posted together a
 * round. The recording keeps bytes, not the type: segments and blocks are
 * in bytes (the same as on-line when the type's extent is its size and
 * the segment sizes are multiples of it). */
#include "csched.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "coll_select.h"
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

/* ---- Barrier (coll_algo.c ft_coll_barrier) ---- */

static void barrier_linear(struct bld *b, uint64_t n, uint64_t me) {
  if (me > 0) {
    one(b, 1, 0, 0);
    one(b, 0, 0, 0);
    return;
  }
  round_open(b);
  for (uint64_t r = 1; r < n; r++)
    put(b, 0, r, 0);
  for (uint64_t r = 1; r < n; r++)
    one(b, 1, r, 0);
}

static void barrier_doubling(struct bld *b, uint64_t n, uint64_t me) {
  uint64_t adj = 1;
  while (adj * 2 <= n)
    adj *= 2;
  if (adj != n && me >= adj)
    pair(b, me - adj, 0, me - adj, 0);
  else if (adj != n && me < n - adj)
    one(b, 0, me + adj, 0);
  for (uint64_t mask = 1; me < adj && mask < adj; mask <<= 1)
    pair(b, me ^ mask, 0, me ^ mask, 0);
  if (adj != n && me < n - adj)
    one(b, 1, me + adj, 0);
}

static void barrier_bruck(struct bld *b, uint64_t n, uint64_t me) {
  for (uint64_t k = 1; k < n; k <<= 1)
    pair(b, (me + k) % n, 0, (me + n - k) % n, 0);
}

static void barrier_tree(struct bld *b, uint64_t n, uint64_t me) {
  uint64_t depth = 1;
  while (depth < n)
    depth <<= 1;
  for (uint64_t jump = 1; jump < depth; jump <<= 1) {
    uint64_t partner = me ^ jump;
    if (!(partner & (jump - 1)) && partner < n)
      one(b, partner < me, partner, 0);
  }
  for (uint64_t jump = depth >> 1; jump > 0; jump >>= 1) {
    uint64_t partner = me ^ jump;
    if (!(partner & (jump - 1)) && partner < n)
      one(b, partner > me, partner, 0);
  }
}

static void barrier(struct bld *b, uint64_t n, uint64_t me) {
  if (n < 2)
    return;
  switch (ft_coll_select_barrier((int)n)) {
  case 1:
  case 2:
    barrier_linear(b, n, me);
    break;
  case 4:
    barrier_bruck(b, n, me);
    break;
  case 6:
    barrier_tree(b, n, me);
    break;
  default:
    barrier_doubling(b, n, me);
  }
}

/* ---- Broadcast (coll_algo.c ft_coll_bcast) ---- */

static void bcast_binomial(struct bld *b, uint64_t n, uint64_t me,
                           uint64_t root, uint64_t bytes) {
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

/* The k-nomial tree of factor 4: one round of sends per level. */
static void bcast_knomial(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                          uint64_t bytes) {
  uint64_t v = vrank(me, root, n), mask = 1;
  for (; mask < n; mask *= 4)
    if (v % (4 * mask)) {
      one(b, 0, real_rank(v / (4 * mask) * (4 * mask), root, n), bytes);
      break;
    }
  for (mask /= 4; mask > 0; mask /= 4) {
    round_open(b);
    for (uint64_t k = 1; k < 4; k++)
      if (v + mask * k < n)
        put(b, 1, real_rank(v + mask * k, root, n), bytes);
  }
}

static void bcast(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                  uint64_t bytes);

/* NTSB (binary heap from rank 0) and NTSL (chain from rank 0): the root
 * hands the data to rank 0, then segments of 8 KiB (8,192 / extent
 * elements on-line: the recording keeps bytes, not the type) go down the
 * tree; the rest is broadcast again. */
static void bcast_pipelined(struct bld *b, uint64_t n, uint64_t me,
                            uint64_t root, uint64_t bytes, int binary) {
  const uint64_t seg = 8192;
  if (root != 0 && me == root)
    one(b, 1, 0, bytes);
  else if (root != 0 && me == 0)
    one(b, 0, root, bytes);
  uint64_t first = binary ? 2 * me + 1 : me + 1,
           last = binary ? first + 1 : first;
  uint64_t pipes = bytes <= seg ? 1 : bytes / seg,
           each = bytes <= seg ? bytes : seg;
  for (uint64_t i = 0; i < pipes; i++) { /* one segment: blocking sends */
    if (me > 0)
      one(b, 0, binary ? (me - 1) / 2 : me - 1, each);
    round_open(b);
    for (uint64_t ch = first; ch <= last && ch < n; ch++) {
      if (bytes <= seg)
        round_open(b);
      put(b, 1, ch, each);
    }
  }
  if (bytes > seg && bytes % seg)
    bcast(b, n, me, root, bytes % seg);
}

static void bcast(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                  uint64_t bytes) {
  if (n < 2)
    return;
  switch (ft_coll_select_bcast((int)n, bytes)) {
  case 6:
    bcast_binomial(b, n, me, root, bytes);
    break;
  case 7:
    bcast_knomial(b, n, me, root, bytes);
    break;
  case 1:
  case 2:
  case 3:
    bcast_pipelined(b, n, me, root, bytes, 0);
    break;
  default:
    bcast_pipelined(b, n, me, root, bytes, 1);
  }
}

/* ---- Reduce (coll_algo.c ft_coll_reduce_commutative, coll.c
 * reduce_ordered) ---- */

/* A reduction tree: the parent (n when none) and the children. */
struct tree {
  uint64_t parent, children[64];
  int nch;
};

static struct tree tree_binomial(uint64_t n, uint64_t me, uint64_t root) {
  struct tree t = {.parent = n};
  uint64_t v = vrank(me, root, n);
  for (uint64_t mask = 1; mask < n; mask <<= 1) {
    uint64_t remote = v ^ mask;
    if (remote < v) {
      t.parent = real_rank(remote, root, n);
      break;
    }
    if (remote < n)
      t.children[t.nch++] = real_rank(remote, root, n);
  }
  return t;
}

/* Open MPI's tree of fanout 2, level by level. */
static struct tree tree_binary(uint64_t n, uint64_t me, uint64_t root) {
  struct tree t = {.parent = n};
  uint64_t s = vrank(me, root, n), level = 0, num = 0;
  while (num <= s)
    num += 1ull << level++;
  level--;
  uint64_t delta = 1ull << level;
  for (uint64_t i = 0; i < 2 && s + delta * (i + 1) < n; i++)
    t.children[t.nch++] = real_rank(s + delta * (i + 1), root, n);
  if (s == 0)
    return t;
  uint64_t slimit = (1ull << level) - 1, parent = s;
  if (parent < 2)
    parent = 0;
  else
    while (parent >= slimit)
      parent -= delta / 2;
  t.parent = real_rank(parent, root, n);
  return t;
}

static struct tree tree_chain(uint64_t n, uint64_t me, uint64_t root) {
  uint64_t s = vrank(me, root, n);
  struct tree t = {.parent = s ? real_rank(s - 1, root, n) : n};
  if (s + 1 < n)
    t.children[t.nch++] = real_rank(s + 1, root, n);
  return t;
}

/* Segment by segment: each child's segment, then the segment to the
 * parent (the receives of the next segment overlap on-line). */
static void reduce_segments(struct bld *b, const struct tree *t, uint64_t n,
                            uint64_t bytes, uint64_t seg) {
  for (uint64_t done = 0; done < bytes; done += seg) {
    uint64_t len = bytes - done < seg ? bytes - done : seg;
    for (int k = 0; k < t->nch; k++)
      one(b, 0, t->children[k], len);
    if (t->parent < n)
      one(b, 1, t->parent, len);
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

/* Open MPI's segment sizes in bytes (the same for every element size that
 * divides them). */
static uint64_t reduce_seg(int alg, uint64_t n, uint64_t bytes) {
  double x = (double)bytes;
  switch (alg) {
  case 2:
    return 64 * 1024;
  case 3:
    return n > 0.0410 / 1024.0 * x + 9.7128   ? 1024
           : n > 0.0033 / 1024.0 * x + 1.6761 ? 32 * 1024
                                              : 64 * 1024;
  case 4:
    return 32 * 1024;
  default:
    if ((n < 8 && bytes < 20480) || bytes < 2048)
      return 0;
    return n > 0.6016 / 1024.0 * x + 1.3496 ? 1024 : 0;
  }
}

static void reduce_commutative(struct bld *b, uint64_t n, uint64_t me,
                               uint64_t root, uint64_t bytes) {
  if (n < 2 || bytes == 0)
    return;
  int alg = ft_coll_select_reduce((int)n, bytes, 1);
  if (alg == 1 || alg == 7) { /* linear: from rank n - 1 down to 0 */
    if (me != root) {
      one(b, 1, root, bytes);
      return;
    }
    for (uint64_t i = n; i-- > 0;)
      if (i != root)
        one(b, 0, i, bytes);
    return;
  }
  struct tree t = alg == 2 || alg == 3 ? tree_chain(n, me, root)
                  : alg == 4           ? tree_binary(n, me, root)
                                       : tree_binomial(n, me, root);
  uint64_t seg = reduce_seg(alg, n, bytes);
  reduce_segments(b, &t, n, bytes, seg && seg < bytes ? seg : bytes);
}

/* coll.c reduce_any. */
static void reduce_any(struct bld *b, const struct ft_csched_spec *s,
                       uint64_t root, uint64_t bytes) {
  if (s->noncommutative)
    reduce_ordered(b, s->size, s->me, root, bytes);
  else
    reduce_commutative(b, s->size, s->me, root, bytes);
}

/* ---- Allreduce (coll_exchange.c ft_coll_allreduce_commutative) ---- */

/* The fold of a non-power-of-two size (coll_exchange.c's fold_in): sets
 * *pof2, *rem and *nr (this rank among the pof2 that go on); returns 1 for
 * an even rank of the first 2 x rem, whose whole schedule is its send up
 * and the result's receive back. */
static int fold_in(struct bld *b, uint64_t n, uint64_t me, uint64_t bytes,
                   uint64_t *pof2, uint64_t *rem, uint64_t *nr) {
  *pof2 = 1;
  while (*pof2 * 2 <= n)
    *pof2 *= 2;
  *rem = n - *pof2;
  int folded = me < 2 * *rem;
  *nr = folded ? me / 2 : me - *rem;
  if (folded && me % 2 == 0) {
    one(b, 1, me + 1, bytes);
    one(b, 0, me + 1, bytes);
    return 1;
  }
  if (folded)
    one(b, 0, me - 1, bytes);
  return 0;
}

/* Recursive doubling over the largest power of two pof2 <= n; the first
 * 2 x (n - pof2) ranks fold in pairs first. */
static void allreduce_doubling(struct bld *b, uint64_t n, uint64_t me,
                               uint64_t bytes) {
  uint64_t pof2, rem, nr;
  if (fold_in(b, n, me, bytes, &pof2, &rem, &nr))
    return;
  int folded = me < 2 * rem;
  for (uint64_t mask = 1; mask < pof2; mask <<= 1) {
    uint64_t peer = nr ^ mask;
    uint64_t dst = peer < rem ? peer * 2 + 1 : peer + rem;
    pair(b, dst, bytes, dst, bytes);
  }
  if (folded)
    one(b, 1, me - 1, bytes);
}

/* Rabenseifner: the fold, a reduce-scatter by recursive halving and an
 * allgather by recursive doubling over pof2 blocks of bytes / pof2 (the
 * last one takes the rest; on-line the blocks are whole elements). */
static void allreduce_rab(struct bld *b, uint64_t n, uint64_t me,
                          uint64_t bytes) {
  uint64_t pof2, rem, nr;
  if (fold_in(b, n, me, bytes, &pof2, &rem, &nr))
    return;
  int folded = me < 2 * rem;
  uint64_t each = bytes / pof2;
#define CNT(i) ((i) == pof2 - 1 ? bytes - each * (pof2 - 1) : each)
  uint64_t send_idx = 0, recv_idx = 0, last_idx = pof2;
  for (uint64_t mask = 1; mask < pof2;) {
    uint64_t nd = nr ^ mask, dst = nd < rem ? nd * 2 + 1 : nd + rem, sc = 0,
             rc = 0;
    if (nr < nd) {
      send_idx = recv_idx + pof2 / (mask * 2);
      for (uint64_t i = send_idx; i < last_idx; i++)
        sc += CNT(i);
      for (uint64_t i = recv_idx; i < send_idx; i++)
        rc += CNT(i);
    } else {
      recv_idx = send_idx + pof2 / (mask * 2);
      for (uint64_t i = send_idx; i < recv_idx; i++)
        sc += CNT(i);
      for (uint64_t i = recv_idx; i < last_idx; i++)
        rc += CNT(i);
    }
    pair(b, dst, sc, dst, rc);
    send_idx = recv_idx;
    mask <<= 1;
    if (mask < pof2)
      last_idx = recv_idx + pof2 / mask;
  }
  for (uint64_t mask = pof2 >> 1; mask > 0; mask >>= 1) {
    uint64_t nd = nr ^ mask, dst = nd < rem ? nd * 2 + 1 : nd + rem, sc = 0,
             rc = 0;
    if (nr < nd) {
      if (mask != pof2 / 2)
        last_idx = last_idx + pof2 / (mask * 2);
      recv_idx = send_idx + pof2 / (mask * 2);
      for (uint64_t i = send_idx; i < recv_idx; i++)
        sc += CNT(i);
      for (uint64_t i = recv_idx; i < last_idx; i++)
        rc += CNT(i);
    } else {
      recv_idx = send_idx - pof2 / (mask * 2);
      for (uint64_t i = send_idx; i < last_idx; i++)
        sc += CNT(i);
      for (uint64_t i = recv_idx; i < send_idx; i++)
        rc += CNT(i);
    }
    pair(b, dst, sc, dst, rc);
    if (nr > nd)
      send_idx = recv_idx;
  }
#undef CNT
  if (folded)
    one(b, 1, me - 1, bytes);
}

static void allreduce(struct bld *b, uint64_t n, uint64_t me, uint64_t bytes);

/* The size of the elements a commutative reduction of `bytes` is taken
 * to be made of (replay.c's elem_of: 8 bytes, 4, or 1). */
static uint64_t elem_bytes(uint64_t bytes) {
  return bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 1;
}

/* The ring (SMPI's lr): n blocks of count / n elements around the ring
 * twice, the rest reduced again. Needs count >= n. */
static void allreduce_ring(struct bld *b, uint64_t n, uint64_t me,
                           uint64_t bytes) {
  uint64_t elem = elem_bytes(bytes), count = bytes / elem;
  uint64_t each = count / n * elem;
  for (uint64_t k = 0; k + 1 < 2 * n - 1; k++)
    pair(b, (me + 1) % n, each, (me + n - 1) % n, each);
  if (count % n)
    allreduce(b, n, me, count % n * elem);
}

static void allreduce(struct bld *b, uint64_t n, uint64_t me, uint64_t bytes) {
  if (n < 2)
    return;
  switch (ft_coll_select_allreduce((int)n, bytes, 1)) {
  case 1:
  case 2:
    reduce_commutative(b, n, me, 0, bytes);
    bcast(b, n, me, 0, bytes);
    break;
  case 3:
    allreduce_doubling(b, n, me, bytes);
    break;
  case 6:
    allreduce_rab(b, n, me, bytes);
    break;
  default:
    if (bytes / elem_bytes(bytes) >= n) {
      allreduce_ring(b, n, me, bytes);
    } else {
      reduce_commutative(b, n, me, 0, bytes);
      bcast(b, n, me, 0, bytes);
    }
  }
}

/* ---- Gather and scatter (coll.c, coll_algo.c) ---- */

/* How many blocks the binomial subtree of child vkid of v holds. */
static uint64_t subtree(uint64_t v, uint64_t vkid, uint64_t n) {
  uint64_t k = vkid - v;
  return k > n - vkid ? n - vkid : k;
}

/* Open MPI's binomial gather of blocks of `each` bytes: the children's
 * subtrees, smallest first, then all to the parent. */
static void gather_binomial(struct bld *b, uint64_t n, uint64_t me,
                            uint64_t root, uint64_t each) {
  struct tree t = tree_binomial(n, me, root);
  uint64_t v = vrank(me, root, n), held = 1;
  for (int k = 0; k < t.nch; k++) {
    uint64_t blocks = subtree(v, vrank(t.children[k], root, n), n);
    one(b, 0, t.children[k], blocks * each);
    held += blocks;
  }
  if (t.parent < n)
    one(b, 1, t.parent, held * each);
}

static void scatter_binomial(struct bld *b, uint64_t n, uint64_t me,
                             uint64_t root, uint64_t each) {
  struct tree t = tree_binomial(n, me, root);
  uint64_t v = vrank(me, root, n), held = 1;
  for (int k = 0; k < t.nch; k++)
    held += subtree(v, vrank(t.children[k], root, n), n);
  if (t.parent < n)
    one(b, 0, t.parent, held * each);
  for (int k = 0; k < t.nch; k++)
    one(b, 1, t.children[k],
        subtree(v, vrank(t.children[k], root, n), n) * each);
}

/* Linear at the root: every receive in one round (gatherv), or one
 * blocking receive after the other in rank order (`in_order`). */
static void gather_linear(struct bld *b, uint64_t n, uint64_t me, uint64_t root,
                          uint64_t sent, const uint64_t *counts, uint64_t each,
                          int in_order) {
  if (me != root) {
    one(b, 1, root, sent);
    return;
  }
  round_open(b);
  for (uint64_t r = 0; r < n; r++)
    if (r != root) {
      if (in_order)
        round_open(b);
      put(b, 0, r, block(counts, r, each));
    }
}

/* Linear at the root: blocking sends in rank order, or all posted in one
 * round (`nonblocking`). */
static void scatter_linear(struct bld *b, uint64_t n, uint64_t me,
                           uint64_t root, const uint64_t *counts, uint64_t each,
                           uint64_t mine, int nonblocking) {
  if (me != root) {
    one(b, 0, root, mine);
    return;
  }
  round_open(b);
  for (uint64_t r = 0; r < n; r++)
    if (r != root) {
      if (!nonblocking)
        round_open(b);
      put(b, 1, r, block(counts, r, each));
    }
}

/* ---- Allgather(v) (coll_exchange.c), blocks of counts[i] or `each`
 * bytes ---- */

/* The bytes of k blocks from `first` (mod n). */
static uint64_t blocks_bytes(const uint64_t *counts, uint64_t each, uint64_t n,
                             uint64_t first, uint64_t k) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < k; i++)
    sum += block(counts, (first + i) % n, each);
  return sum;
}

/* The ring: at step i, block me - i to the right, block me - i - 1 from
 * the left. */
static void ring(struct bld *b, uint64_t n, uint64_t me, const uint64_t *counts,
                 uint64_t each) {
  uint64_t right = (me + 1) % n, left = (me + n - 1) % n;
  for (uint64_t i = 0; i + 1 < n; i++) {
    uint64_t out = (me + n - i) % n, in = (me + 2 * n - i - 1) % n;
    pair(b, right, block(counts, out, each), left, block(counts, in, each));
  }
}

static void allgather_bruck(struct bld *b, uint64_t n, uint64_t me,
                            const uint64_t *counts, uint64_t each) {
  for (uint64_t pof2 = 1; pof2 < n; pof2 <<= 1) {
    uint64_t k = pof2 < n - pof2 ? pof2 : n - pof2, from = (me + pof2) % n;
    pair(b, (me + n - pof2) % n, blocks_bytes(counts, each, n, me, k), from,
         blocks_bytes(counts, each, n, from, k));
  }
}

/* MPICH's recursive doubling, regular blocks (allgather only). */
static void allgather_doubling(struct bld *b, uint64_t n, uint64_t me,
                               uint64_t each) {
  for (uint64_t mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    uint64_t dst = me ^ mask, dst_root = dst >> i << i, my_root = me >> i << i;
    if (dst < n) {
      uint64_t mine = n - my_root < mask ? n - my_root : mask;
      uint64_t theirs = n - dst_root < mask ? n - dst_root : mask;
      pair(b, dst, mine * each, dst, theirs * each);
    }
    if (dst_root + mask <= n)
      continue;
    uint64_t done = n - my_root - mask, k = 0;
    for (uint64_t j = mask; j >>= 1;)
      k++;
    for (uint64_t tm = mask >> 1; tm; tm >>= 1, k--) {
      uint64_t peer = me ^ tm, tree_root = me >> k << k;
      if (peer > me && me < tree_root + done && peer >= tree_root + done)
        one(b, 1, peer, done * each);
      else if (peer < me && peer < tree_root + done && me >= tree_root + done)
        one(b, 0, peer, done * each);
    }
  }
}

static void allgather_neighbor(struct bld *b, uint64_t n, uint64_t me,
                               const uint64_t *counts, uint64_t each) {
  int even = me % 2 == 0;
  uint64_t nb[2] = {even ? (me + 1) % n : (me + n - 1) % n,
                    even ? (me + n - 1) % n : (me + 1) % n};
  uint64_t from[2] = {even ? me : nb[0], even ? me : nb[0]};
  int64_t off[2] = {even ? 2 : -2, even ? -2 : 2};
  pair(b, nb[0], block(counts, me, each), nb[0], block(counts, nb[0], each));
  uint64_t send_from = even ? me : from[0];
  for (uint64_t i = 1; i < n / 2; i++) {
    int par = (int)(i % 2);
    from[par] =
        (uint64_t)(((int64_t)from[par] + off[par] + (int64_t)n) % (int64_t)n);
    pair(b, nb[par], blocks_bytes(counts, each, n, send_from, 2), nb[par],
         blocks_bytes(counts, each, n, from[par], 2));
    send_from = from[par];
  }
}

/* SMPI's GB: a gather at rank 0 (all receives in one round), then a bcast
 * of everything. */
static void allgather_gb(struct bld *b, uint64_t n, uint64_t me,
                         const uint64_t *counts, uint64_t each) {
  uint64_t total = blocks_bytes(counts, each, n, 0, n);
  gather_linear(b, n, me, 0, block(counts, me, each), counts, each, 0);
  bcast(b, n, me, 0, total);
}

static void allgather(struct bld *b, uint64_t n, uint64_t me,
                      const uint64_t *counts, uint64_t each) {
  if (n < 2)
    return;
  uint64_t total = blocks_bytes(counts, each, n, 0, n);
  int alg =
      !counts
          ? ft_coll_select_allgather((int)n, each)
          : (int[]){
                0, 0, 2, 4, 5, 6}[ft_coll_select_allgatherv((int)n, total / n)];
  if (alg == 0)
    allgather_gb(b, n, me, counts, each);
  else if (alg == 3 && !counts)
    allgather_doubling(b, n, me, each);
  else if (alg == 2 || alg == 3)
    allgather_bruck(b, n, me, counts, each);
  else if (alg == 5 && n % 2 == 0)
    allgather_neighbor(b, n, me, counts, each);
  else
    ring(b, n, me, counts, each);
}

/* ---- Alltoall(v, w) (coll_exchange.c) ---- */

/* Pairwise: with me ^ i on a power of two, me + i and me - i otherwise
 * (step 0 with itself). */
static void pairwise(struct bld *b, uint64_t n, uint64_t me,
                     const uint64_t *scounts, uint64_t seach,
                     const uint64_t *rcounts, uint64_t reach) {
  int xor = (n & (n - 1)) == 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t dst = xor? me ^ i : (me + i) % n,
             src = xor? me ^ i : (me + n - i) % n;
    pair(b, dst, block(scounts, dst, seach), src, block(rcounts, src, reach));
  }
}

/* Linear: every receive and every send in one round (alltoall: receives
 * from me + 1 on, sends from me - 1 down; alltoallv: both in rank order);
 * the block for itself is a local copy on-line, no message. */
static void alltoall_linear(struct bld *b, uint64_t n, uint64_t me,
                            const uint64_t *scounts, uint64_t seach,
                            const uint64_t *rcounts, uint64_t reach,
                            int reverse) {
  round_open(b);
  for (uint64_t j = 1; j < n; j++) {
    uint64_t i = reverse ? (me + j) % n : j - 1 + (j - 1 >= me);
    put(b, 0, i, block(rcounts, i, reach));
  }
  for (uint64_t j = 1; j < n; j++) {
    uint64_t i = reverse ? (me + n - j) % n : j - 1 + (j - 1 >= me);
    put(b, 1, i, block(scounts, i, seach));
  }
}

/* Bruck: log2(n) exchanges of the blocks whose index has bit k. */
static void alltoall_bruck(struct bld *b, uint64_t n, uint64_t me,
                           uint64_t each) {
  for (uint64_t pof2 = 1; pof2 < n; pof2 <<= 1) {
    uint64_t k = 0;
    for (uint64_t blk = 1; blk < n; blk++)
      k += (blk & pof2) != 0;
    pair(b, (me + pof2) % n, k * each, (me + n - pof2) % n, k * each);
  }
}

static void alltoall(struct bld *b, uint64_t n, uint64_t me, uint64_t seach,
                     uint64_t reach) {
  switch (ft_coll_select_alltoall((int)n, seach)) {
  case 3:
    alltoall_bruck(b, n, me, seach);
    break;
  case 2:
    pairwise(b, n, me, NULL, seach, NULL, reach);
    break;
  default:
    alltoall_linear(b, n, me, NULL, seach, NULL, reach, 1);
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
    bcast(b, n, me, root, me == root ? s->sent : s->recvd);
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
    bcast(b, n, me, 0, s->sent);
    return;
  case FT_RT_GATHER: /* coll.c gather_call */
    if (n > 1 &&
        ft_coll_select_gather((int)n, me == root ? s->recvd / n : s->sent) == 2)
      gather_binomial(b, n, me, root, me == root ? s->recvd / n : s->sent);
    else
      gather_linear(b, n, me, root, s->sent, NULL, s->recvd / n, 1);
    return;
  case FT_RT_GATHERV:
    gather_linear(b, n, me, root, s->sent, cn, 0, 0);
    return;
  case FT_RT_SCATTER: { /* coll.c scatter_call */
    uint64_t each = me == root ? s->sent / n : s->recvd;
    int alg = n > 1 ? ft_coll_select_scatter((int)n, each) : 1;
    if (alg == 2)
      scatter_binomial(b, n, me, root, each);
    else
      scatter_linear(b, n, me, root, NULL, each, s->recvd, alg == 3);
    return;
  }
  case FT_RT_SCATTERV:
    scatter_linear(b, n, me, root, cn, 0, s->recvd, 1);
    return;
  case FT_RT_ALLGATHER:
    allgather(b, n, me, NULL, s->recvd / n);
    return;
  case FT_RT_ALLGATHERV:
    allgather(b, n, me, cn, 0);
    return;
  case FT_RT_ALLTOALL:
    alltoall(b, n, me, s->sent / n, s->recvd / n);
    return;
  case FT_RT_ALLTOALLV: /* coll_exchange.c ft_coll_alltoallv */
    if (ft_coll_select_alltoallv((int)n) == 2)
      pairwise(b, n, me, cn, 0, cn + n, 0);
    else
      alltoall_linear(b, n, me, cn, 0, cn + n, 0, 0);
    return;
  case FT_RT_ALLTOALLW: /* coll.c alltoallw_linear */
    alltoall_linear(b, n, me, cn, 0, cn + n, 0, 0);
    return;
  case FT_RT_SCAN:
  case FT_RT_EXSCAN:
    chain(b, n, me, s->sent);
    return;
  case FT_RT_REDUCE_SCATTER: /* coll.c reduce_scatterv */
    counts_sum(cn, s->ncounts, &sum);
    reduce_any(b, s, 0, sum);
    scatter_linear(b, n, me, 0, cn, 0, cn[me], 1);
    return;
  default: /* FT_RT_REDUCE_SCATTER_BLOCK */
    reduce_any(b, s, 0, s->sent);
    scatter_linear(b, n, me, 0, NULL, s->recvd, s->recvd, 1);
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
