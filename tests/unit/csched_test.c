/* The any-call replay's collective schedules (sim/replay/csched.c): every
 * collective on 1..17 and 64 ranks, every root, all ranks' schedules run
 * together in an in-memory network (round by round, a rank leaves a round
 * once each of its operations is matched by the peer's opposite operation,
 * FIFO per (from, to), as a rendezvous); the run must end with every
 * operation matched and equal bytes on both sides, each rank's bytes as
 * docs/protocols.md's table says, coll.c's message count, and each rank
 * holding the contributions the collective promises it (each message
 * carries the set of ranks whose data its sender held when the round was
 * posted: data received in the same round does not travel on). */
#define _POSIX_C_SOURCE 200809L
#include "csched.h"
#include "rtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 64

/* ---- The in-memory network ---- */

/* A (from, to) channel: the sends and the receives posted on it, in order;
 * the k-th receive matches the k-th send. */
struct chan {
  uint64_t *sbytes, *sknow, *rbytes;
  size_t ns, nr, cap;
};

struct rk {
  struct ft_csched s;
  size_t round; /* the round under way */
  int posted;
  size_t *slot; /* per op: its place on its channel */
  uint64_t know, sent, recvd;
};

struct net {
  uint32_t n;
  struct chan *ch; /* n x n, [from * n + to] */
  struct rk r[MAXN];
  uint64_t messages;
};

static void chan_push(struct chan *c, int send, uint64_t bytes, uint64_t know) {
  if (c->ns == c->cap || c->nr == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 4;
    c->sbytes = realloc(c->sbytes, c->cap * sizeof *c->sbytes);
    c->sknow = realloc(c->sknow, c->cap * sizeof *c->sknow);
    c->rbytes = realloc(c->rbytes, c->cap * sizeof *c->rbytes);
    cr_assert(c->sbytes && c->sknow && c->rbytes);
  }
  if (send) {
    c->sbytes[c->ns] = bytes;
    c->sknow[c->ns++] = know;
  } else {
    c->rbytes[c->nr++] = bytes;
  }
}

static struct chan *chan_of(struct net *w, uint32_t me,
                            const struct ft_csched_op *o) {
  return o->send ? &w->ch[me * w->n + o->peer] : &w->ch[o->peer * w->n + me];
}

/* Posts rank me's current round: sends carry what it knows now. */
static void post(struct net *w, uint32_t me) {
  struct rk *r = &w->r[me];
  const struct ft_csched_round *rd = &r->s.rounds[r->round];
  for (uint32_t j = rd->first; j < rd->first + rd->n; j++) {
    const struct ft_csched_op *o = &r->s.ops[j];
    cr_assert_lt(o->peer, w->n, "rank %u: peer %u of %u", me, o->peer, w->n);
    struct chan *c = chan_of(w, me, o);
    r->slot[j] = o->send ? c->ns : c->nr;
    chan_push(c, o->send, o->bytes, r->know);
  }
  r->posted = 1;
}

/* 1 when every op of rank me's round is matched (bytes checked). */
static int matched(struct net *w, uint32_t me) {
  struct rk *r = &w->r[me];
  const struct ft_csched_round *rd = &r->s.rounds[r->round];
  for (uint32_t j = rd->first; j < rd->first + rd->n; j++) {
    const struct ft_csched_op *o = &r->s.ops[j];
    struct chan *c = chan_of(w, me, o);
    if ((o->send ? c->nr : c->ns) <= r->slot[j])
      return 0;
    uint64_t other = o->send ? c->rbytes[r->slot[j]] : c->sbytes[r->slot[j]];
    cr_assert_eq(other, o->bytes, "rank %u %s rank %u: %llu bytes against %llu",
                 me, o->send ? "sends to" : "receives from", o->peer,
                 (unsigned long long)o->bytes, (unsigned long long)other);
  }
  return 1;
}

/* Ends rank me's round: what it received joins what it knows. */
static void finish(struct net *w, uint32_t me) {
  struct rk *r = &w->r[me];
  const struct ft_csched_round *rd = &r->s.rounds[r->round];
  uint64_t got = 0;
  for (uint32_t j = rd->first; j < rd->first + rd->n; j++) {
    const struct ft_csched_op *o = &r->s.ops[j];
    if (o->send) {
      r->sent += o->bytes;
      w->messages++;
    } else {
      r->recvd += o->bytes;
      got |= chan_of(w, me, o)->sknow[r->slot[j]];
    }
  }
  r->know |= got;
  r->round++;
  r->posted = 0;
}

/* One pass over the ranks; returns how many moved. */
static int step(struct net *w) {
  int moved = 0;
  for (uint32_t i = 0; i < w->n; i++) {
    struct rk *r = &w->r[i];
    if (r->round == r->s.nrounds)
      continue;
    if (!r->posted)
      post(w, i), moved++;
    if (matched(w, i))
      finish(w, i), moved++;
  }
  return moved;
}

/* Runs the n schedules (taken over) to the end: no deadlock, no operation
 * left unmatched. */
static void net_run(struct net *w, const char *what) {
  while (step(w))
    ;
  for (uint32_t i = 0; i < w->n; i++)
    cr_assert_eq(w->r[i].round, w->r[i].s.nrounds,
                 "%s: deadlock, rank %u stuck in round %zu of %zu", what, i,
                 w->r[i].round, w->r[i].s.nrounds);
  for (uint32_t k = 0; k < w->n * w->n; k++)
    cr_assert_eq(w->ch[k].ns, w->ch[k].nr,
                 "%s: channel %u -> %u: %zu sends, %zu receives", what,
                 k / w->n, k % w->n, w->ch[k].ns, w->ch[k].nr);
}

static void net_free(struct net *w) {
  for (uint32_t k = 0; k < w->n * w->n; k++) {
    free(w->ch[k].sbytes);
    free(w->ch[k].sknow);
    free(w->ch[k].rbytes);
  }
  free(w->ch);
  for (uint32_t i = 0; i < w->n; i++) {
    free(w->r[i].slot);
    ft_csched_free(&w->r[i].s);
  }
}

/* ---- Consistent specs of one instance, every rank's ---- */

struct inst {
  uint8_t op;
  uint32_t n;
  int32_t root;
  struct ft_csched_spec s[MAXN];
  uint64_t counts[MAXN][2 * MAXN];
};

#define B 24u /* bytes of the regular collectives' blocks */

static uint64_t vsize(uint32_t i) { return (i * 7 + 3) % 11; } /* 0 at 9 */
static uint64_t pairsize(uint32_t i, uint32_t j) {
  return (i * 5 + j * 3 + 1) % 9;
}

static uint64_t vsum(uint32_t n) {
  uint64_t t = 0;
  for (uint32_t i = 0; i < n; i++)
    t += vsize(i);
  return t;
}

/* sent and recvd as record.c fills them (docs/trace-format.md). */
static void recorded(const struct inst *in, uint32_t i, uint64_t *s,
                     uint64_t *r) {
  uint32_t n = in->n;
  int root = (int32_t)i == in->root;
  uint64_t rowsum = 0, colsum = 0;
  for (uint32_t j = 0; j < n; j++)
    rowsum += pairsize(i, j), colsum += pairsize(j, i);
  switch (in->op) {
  case FT_RT_BARRIER:
    *s = 0, *r = 0;
    return;
  case FT_RT_BCAST:
    *s = root ? B : 0, *r = root ? 0 : B;
    return;
  case FT_RT_REDUCE:
    *s = B, *r = root ? B : 0;
    return;
  case FT_RT_GATHER:
    *s = B, *r = root ? n * B : 0;
    return;
  case FT_RT_GATHERV:
    *s = vsize(i), *r = root ? vsum(n) : 0;
    return;
  case FT_RT_SCATTER:
    *s = root ? n * B : 0, *r = B;
    return;
  case FT_RT_SCATTERV:
    *s = root ? vsum(n) : 0, *r = vsize(i);
    return;
  case FT_RT_ALLGATHER:
    *s = B, *r = n * B;
    return;
  case FT_RT_ALLGATHERV:
    *s = vsize(i), *r = vsum(n);
    return;
  case FT_RT_ALLTOALL:
    *s = n * B, *r = n * B;
    return;
  case FT_RT_ALLTOALLV:
  case FT_RT_ALLTOALLW:
    *s = rowsum, *r = colsum;
    return;
  case FT_RT_REDUCE_SCATTER:
    *s = vsum(n), *r = vsize(i);
    return;
  case FT_RT_REDUCE_SCATTER_BLOCK:
    *s = n * B, *r = B;
    return;
  default:
    *s = B, *r = B; /* allreduce, scan, exscan */
  }
}

/* The counts replay.c's take_counts would take at rank i. */
static size_t counts_of(const struct inst *in, uint32_t i, uint64_t *c) {
  size_t need = ft_csched_counts_needed(in->op, in->n, i, in->root);
  for (uint32_t j = 0; j < in->n && need; j++) {
    c[j] = need == 2 * (size_t)in->n ? pairsize(i, j) : vsize(j);
    if (need == 2 * (size_t)in->n)
      c[in->n + j] = pairsize(j, i);
  }
  return need;
}

static void inst_make(struct inst *in, uint8_t op, uint32_t n, int32_t root) {
  in->op = op, in->n = n, in->root = root;
  for (uint32_t i = 0; i < n; i++) {
    struct ft_csched_spec *s = &in->s[i];
    *s = (struct ft_csched_spec){.op = op, .size = n, .me = i, .root = root};
    recorded(in, i, &s->sent, &s->recvd);
    s->ncounts = counts_of(in, i, in->counts[i]);
    s->counts = s->ncounts ? in->counts[i] : NULL;
  }
}

/* Builds and runs the instance's schedules. */
static void inst_run(const struct inst *in, struct net *w, char *what,
                     size_t len) {
  snprintf(what, len, "%s on %u ranks, root %d", ft_rt_coll_name(in->op), in->n,
           in->root);
  memset(w, 0, sizeof *w);
  w->n = in->n;
  w->ch = calloc((size_t)in->n * in->n, sizeof *w->ch);
  cr_assert_not_null(w->ch);
  for (uint32_t i = 0; i < in->n; i++) {
    char err[256];
    cr_assert_eq(ft_csched_build(&in->s[i], &w->r[i].s, err, sizeof err), 0,
                 "%s, rank %u: %s", what, i, err);
    w->r[i].slot = calloc(w->r[i].s.nops + 1, sizeof *w->r[i].slot);
    w->r[i].know = 1ull << i;
  }
  net_run(w, what);
}

/* ---- What the collectives promise, whatever their algorithm ---- */

/* The ranks whose contribution rank i must hold at the end. */
static uint64_t promised(const struct inst *in, uint32_t i) {
  uint64_t all = in->n == 64 ? UINT64_MAX : (1ull << in->n) - 1;
  uint64_t root = 1ull << (in->root < 0 ? 0 : in->root);
  switch (in->op) {
  case FT_RT_BCAST:
  case FT_RT_SCATTER:
  case FT_RT_SCATTERV:
    return root | 1ull << i;
  case FT_RT_REDUCE:
  case FT_RT_GATHER:
  case FT_RT_GATHERV:
    return (int32_t)i == in->root ? all : 1ull << i;
  case FT_RT_SCAN:
  case FT_RT_EXSCAN:
    return i == 63 ? UINT64_MAX : (2ull << i) - 1;
  default:
    return all; /* the barrier too: dissemination */
  }
}

/* ---- The tests ---- */

static int rooted(uint8_t op) {
  return op == FT_RT_BCAST || op == FT_RT_REDUCE || op == FT_RT_GATHER ||
         op == FT_RT_GATHERV || op == FT_RT_SCATTER || op == FT_RT_SCATTERV;
}

/* Every operation of every rank matched by its peer's, with the same
 * bytes, no rank blocked (net_run), and every contribution where the
 * collective promises it; the message counts are the on-line runtime's
 * (cli/replay_collectives_np*), checked here on a few cases below. */
static void check_instance(uint8_t op, uint32_t n, int32_t root) {
  static struct inst in;
  static struct net w;
  char what[128];
  inst_make(&in, op, n, root);
  inst_run(&in, &w, what, sizeof what);
  uint64_t sent = 0, recvd = 0;
  for (uint32_t i = 0; i < n; i++) {
    sent += w.r[i].sent, recvd += w.r[i].recvd;
    cr_assert_eq(w.r[i].know & promised(&in, i), promised(&in, i),
                 "%s, rank %u holds contributions %llx, needs %llx", what, i,
                 (unsigned long long)w.r[i].know,
                 (unsigned long long)promised(&in, i));
  }
  cr_assert_eq(sent, recvd, "%s: %llu bytes sent, %llu received", what,
               (unsigned long long)sent, (unsigned long long)recvd);
  net_free(&w);
}

/* Sizes 1..17 and 64; every root of the rooted collectives. */
static void check_op(uint8_t op) {
  static const uint32_t sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,
                                   10, 11, 12, 13, 14, 15, 16, 17, 64};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
    for (uint32_t root = 0; root < (rooted(op) ? sizes[k] : 1); root++)
      check_instance(op, sizes[k], rooted(op) ? (int32_t)root : -1);
}

Test(csched, barrier_matches_on_every_size) { check_op(FT_RT_BARRIER); }
Test(csched, bcast_matches_from_every_root) { check_op(FT_RT_BCAST); }
Test(csched, reduce_matches_to_every_root) { check_op(FT_RT_REDUCE); }
Test(csched, allreduce_matches_on_every_size) { check_op(FT_RT_ALLREDUCE); }
Test(csched, gather_matches_at_every_root) { check_op(FT_RT_GATHER); }
Test(csched, gatherv_matches_at_every_root) { check_op(FT_RT_GATHERV); }
Test(csched, scatter_matches_from_every_root) { check_op(FT_RT_SCATTER); }
Test(csched, scatterv_matches_from_every_root) { check_op(FT_RT_SCATTERV); }
Test(csched, allgather_matches_on_every_size) { check_op(FT_RT_ALLGATHER); }
Test(csched, allgatherv_matches_on_every_size) { check_op(FT_RT_ALLGATHERV); }
Test(csched, alltoall_matches_on_every_size) { check_op(FT_RT_ALLTOALL); }
Test(csched, alltoallv_matches_on_every_size) { check_op(FT_RT_ALLTOALLV); }
Test(csched, alltoallw_matches_on_every_size) { check_op(FT_RT_ALLTOALLW); }
Test(csched, scan_along_a_chain_matches_on_every_size) { check_op(FT_RT_SCAN); }
Test(csched, exscan_along_a_chain_matches_on_every_size) {
  check_op(FT_RT_EXSCAN);
}
Test(csched, reduce_scatter_matches_on_every_size) {
  check_op(FT_RT_REDUCE_SCATTER);
}
Test(csched, reduce_scatter_block_matches_on_every_size) {
  check_op(FT_RT_REDUCE_SCATTER_BLOCK);
}

/* ---- Stories: the schedules as coll.c runs them ---- */

/* Rank me's schedule as "r0: <3 >3 | r1: >1" (< receive, > send; bytes
 * left out). */
static void story(const struct ft_csched_spec *s, char *out, size_t len) {
  struct ft_csched c;
  char err[256];
  cr_assert_eq(ft_csched_build(s, &c, err, sizeof err), 0, "%s", err);
  size_t at = 0;
  out[0] = 0;
  for (size_t k = 0; k < c.nrounds; k++) {
    at += (size_t)snprintf(out + at, len - at, "%sr%zu:", k ? " | " : "", k);
    for (uint32_t j = 0; j < c.rounds[k].n; j++) {
      const struct ft_csched_op *o = &c.ops[c.rounds[k].first + j];
      at += (size_t)snprintf(out + at, len - at, " %c%u", o->send ? '>' : '<',
                             o->peer);
    }
  }
  ft_csched_free(&c);
}

static void expect_story(uint8_t op, uint32_t n, uint32_t me, int32_t root,
                         const char *want) {
  struct inst *in = calloc(1, sizeof *in);
  char got[512];
  inst_make(in, op, n, root);
  story(&in->s[me], got, sizeof got);
  cr_assert_str_eq(got, want, "%s on %u ranks, rank %u", ft_rt_coll_name(op), n,
                   me);
  free(in);
}

/* A non-commutative reduction (coll.c reduce_ordered): linear at the
 * root, in rank order; allreduce as that reduce to 0 and a bcast; every
 * contribution reaches who needs it, with coll.c's message counts. */
static void check_noncommutative(uint8_t op, uint32_t n, int32_t root,
                                 uint64_t messages) {
  static struct inst in;
  static struct net w;
  char what[128];
  inst_make(&in, op, n, root);
  for (uint32_t i = 0; i < n; i++)
    in.s[i].noncommutative = 1;
  inst_run(&in, &w, what, sizeof what);
  cr_assert_eq(w.messages, messages, "%s: %llu messages, coll.c sends %llu",
               what, (unsigned long long)w.messages,
               (unsigned long long)messages);
  for (uint32_t i = 0; i < n; i++)
    cr_assert_eq(w.r[i].know & promised(&in, i), promised(&in, i),
                 "%s, rank %u holds contributions %llx, needs %llx", what, i,
                 (unsigned long long)w.r[i].know,
                 (unsigned long long)promised(&in, i));
  net_free(&w);
}

Test(csched, a_noncommutative_reduction_is_linear_in_rank_order) {
  for (uint32_t n = 1; n <= 17; n++) {
    for (int32_t root = 0; root < (int32_t)n; root++)
      check_noncommutative(FT_RT_REDUCE, n, root, n - 1);
    check_noncommutative(FT_RT_ALLREDUCE, n, -1, 2 * (n - 1));
    check_noncommutative(FT_RT_REDUCE_SCATTER_BLOCK, n, -1, 2 * (n - 1));
  }
  struct ft_csched c;
  char err[128];
  struct ft_csched_spec s = {.op = FT_RT_REDUCE,
                             .size = 5,
                             .me = 2,
                             .root = 2,
                             .sent = 8,
                             .recvd = 8,
                             .noncommutative = 1};
  cr_assert_eq(ft_csched_build(&s, &c, err, sizeof err), 0, "%s", err);
  cr_assert_eq(c.nrounds, 4);
  static const uint32_t order[] = {0, 1, 3, 4};
  for (size_t k = 0; k < 4; k++)
    cr_assert(c.rounds[k].n == 1 && !c.ops[c.rounds[k].first].send &&
                  c.ops[c.rounds[k].first].peer == order[k],
              "round %zu", k);
  ft_csched_free(&c);
}

/* SMPI's NTSB for 24 bytes on 5 ranks (coll_algo.c bcast_pipelined): root
 * 2 hands the data to rank 0, which feeds the binary heap 0 -> 1, 2;
 * 1 -> 3, 4 (root 2 receives it again, as in SMPI). */
Test(csched, bcast_of_24_bytes_on_5_ranks_goes_down_rank_0s_binary_tree) {
  expect_story(FT_RT_BCAST, 5, 2, 2, "r0: >0 | r1: <0");
  expect_story(FT_RT_BCAST, 5, 0, 2, "r0: <2 | r1: >1 | r2: >2");
  expect_story(FT_RT_BCAST, 5, 1, 2, "r0: <0 | r1: >3 | r2: >4");
}

/* coll.c allreduce_doubling on 6 ranks: pof2 4, ranks 0..3 fold in pairs
 * (0 into 1, 2 into 3); 1, 3, 4, 5 are the new ranks 0..3. */
Test(csched, allreduce_on_6_ranks_folds_the_first_4_in_pairs) {
  expect_story(FT_RT_ALLREDUCE, 6, 0, -1, "r0: >1 | r1: <1");
  expect_story(FT_RT_ALLREDUCE, 6, 1, -1,
               "r0: <0 | r1: <3 >3 | r2: <4 >4 | r3: >0");
  expect_story(FT_RT_ALLREDUCE, 6, 5, -1, "r0: <4 >4 | r1: <3 >3");
}

/* Small messages on a few ranks, as the `ompi` selector has them: a
 * binomial gather (the root 1 of 4 hears from virtual ranks 1 and 2, the
 * latter with 2 blocks) and scatter (smallest subtree first), a linear
 * alltoall (every receive and send at once, none to itself), a linear
 * barrier on 5 ranks, reduce_scatter as a chain reduce and a scatterv. */
Test(csched, small_collectives_on_few_ranks_follow_the_selector) {
  expect_story(FT_RT_GATHER, 4, 1, 1, "r0: <2 | r1: <3");
  expect_story(FT_RT_SCATTER, 4, 1, 1, "r0: >2 | r1: >3");
  expect_story(FT_RT_ALLTOALL, 3, 1, -1, "r0: <2 <0 >0 >2");
  expect_story(FT_RT_BARRIER, 5, 0, -1,
               "r0: <1 <2 <3 <4 | r1: >1 | r2: >2 | r3: >3 | r4: >4");
  expect_story(FT_RT_REDUCE_SCATTER, 3, 0, -1, "r0: <1 | r1: >1 >2");
}

/* Issue 18, item 3: 8 bytes to every rank of 64 is Bruck's alltoall, 6
 * exchanges of 32 blocks; an allreduce of 8 bytes on 130 ranks is a
 * binomial reduce to 0 and a binary-tree bcast. */
Test(csched, alltoall_on_64_ranks_is_bruck_allreduce_on_130_reduce_and_bcast) {
  struct ft_csched c;
  char err[128], got[512];
  struct ft_csched_spec a = {.op = FT_RT_ALLTOALL,
                             .size = 64,
                             .me = 5,
                             .root = -1,
                             .sent = 512,
                             .recvd = 512};
  cr_assert_eq(ft_csched_build(&a, &c, err, sizeof err), 0, "%s", err);
  cr_assert_eq(c.nrounds, 6);
  for (uint32_t k = 0; k < 6; k++) {
    const struct ft_csched_op *o = &c.ops[c.rounds[k].first];
    cr_assert(c.rounds[k].n == 2 && o[0].peer == (5 + 64 - (1u << k)) % 64 &&
                  o[1].peer == (5 + (1u << k)) % 64 && o[1].bytes == 32 * 8,
              "round %u", k);
  }
  ft_csched_free(&c);
  struct ft_csched_spec r = {.op = FT_RT_ALLREDUCE,
                             .size = 130,
                             .me = 0,
                             .root = -1,
                             .sent = 8,
                             .recvd = 8};
  story(&r, got, sizeof got);
  cr_assert_str_eq(got, "r0: <1 | r1: <2 | r2: <4 | r3: <8 | r4: <16 | "
                        "r5: <32 | r6: <64 | r7: <128 | r8: >1 | r9: >2");
}

/* A communicator of one: nothing to exchange but alltoallv's own block
 * (pairwise below 4 ranks; alltoall's and alltoallw's linear algorithms
 * copy it). */
Test(csched, a_rank_alone_exchanges_nothing_but_alltoallv_with_itself) {
  for (uint8_t op = FT_RT_BARRIER; op < FT_RT_COLL_COUNT; op++) {
    char got[64];
    struct inst *in = calloc(1, sizeof *in);
    inst_make(in, op, 1, rooted(op) ? 0 : -1);
    story(&in->s[0], got, sizeof got);
    int pairwise = op == FT_RT_ALLTOALLV;
    cr_assert_str_eq(got, pairwise ? "r0: <0 >0" : "", "%s",
                     ft_rt_coll_name(op));
    free(in);
  }
}

/* ---- Errors ---- */

static void expect_error(const struct ft_csched_spec *s, const char *want) {
  struct ft_csched c;
  char err[256] = "";
  cr_assert_eq(ft_csched_build(s, &c, err, sizeof err), -1);
  cr_assert_str_eq(err, want);
  cr_assert_null(c.ops);
  ft_csched_free(&c);
}

Test(csched, an_unknown_operation_is_refused_with_its_number) {
  expect_error(&(struct ft_csched_spec){.op = 0, .size = 4},
               "unknown collective operation 0");
  expect_error(&(struct ft_csched_spec){.op = 42, .size = 4},
               "unknown collective operation 42");
}

Test(csched, missing_or_short_counts_are_refused_naming_the_collective) {
  uint64_t c[8] = {0};
  expect_error(
      &(struct ft_csched_spec){.op = FT_RT_ALLGATHERV, .size = 4, .root = -1},
      "MPI_Allgatherv: 0 counts given, 4 needed (the v-collectives' "
      "counts of ft_rtrace_write_vcounts)");
  expect_error(&(struct ft_csched_spec){.op = FT_RT_ALLTOALLV,
                                        .size = 4,
                                        .root = -1,
                                        .counts = c,
                                        .ncounts = 4},
               "MPI_Alltoallv: 4 counts given, 8 needed (the v-collectives' "
               "counts of ft_rtrace_write_vcounts)");
  expect_error(
      &(struct ft_csched_spec){
          .op = FT_RT_GATHERV, .size = 4, .me = 2, .root = 2, .ncounts = 4},
      "MPI_Gatherv: 0 counts given, 4 needed (the v-collectives' "
      "counts of ft_rtrace_write_vcounts)");
  expect_error(&(struct ft_csched_spec){.op = FT_RT_GATHERV,
                                        .size = 4,
                                        .me = 1,
                                        .root = 2,
                                        .counts = c,
                                        .ncounts = 4},
               "MPI_Gatherv: 4 counts given, 0 needed (the v-collectives' "
               "counts of ft_rtrace_write_vcounts)");
}

Test(csched, bad_sizes_and_roots_are_refused_naming_the_collective) {
  expect_error(
      &(struct ft_csched_spec){.op = FT_RT_BCAST, .size = 4, .root = 4},
      "MPI_Bcast: root 4 outside a communicator of 4 ranks");
  expect_error(
      &(struct ft_csched_spec){.op = FT_RT_REDUCE, .size = 4, .root = -1},
      "MPI_Reduce: root -1 outside a communicator of 4 ranks");
  expect_error(
      &(struct ft_csched_spec){.op = FT_RT_BARRIER, .size = 4, .me = 4},
      "MPI_Barrier: rank 4 outside a communicator of 4 ranks");
  expect_error(&(struct ft_csched_spec){.op = FT_RT_BARRIER},
               "MPI_Barrier: rank 0 outside a communicator of 0 ranks");
  expect_error(
      &(struct ft_csched_spec){
          .op = FT_RT_ALLGATHER, .size = 4, .root = -1, .sent = 2, .recvd = 10},
      "MPI_Allgather: 10 bytes do not split into 4 equal blocks");
  expect_error(
      &(struct ft_csched_spec){
          .op = FT_RT_ALLTOALL, .size = 3, .root = -1, .sent = 9, .recvd = 10},
      "MPI_Alltoall: 10 bytes do not split into 3 equal blocks");
  expect_error(
      &(struct ft_csched_spec){
          .op = FT_RT_SCATTER, .size = 3, .root = 0, .sent = 10, .recvd = 3},
      "MPI_Scatter: 10 bytes do not split into 3 equal blocks");
  uint64_t big[2] = {UINT64_MAX, 1};
  expect_error(&(struct ft_csched_spec){.op = FT_RT_REDUCE_SCATTER,
                                        .size = 2,
                                        .root = -1,
                                        .counts = big,
                                        .ncounts = 2},
               "MPI_Reduce_scatter: the counts add up beyond 64 bits");
}

/* ---- The counts the CLI writes (ft_rtrace_write_vcounts) ---- */

static void coll_ev(struct ft_rtrace *t, uint32_t r, uint8_t op, int32_t root,
                    uint64_t sent, uint64_t recvd) {
  struct ft_rt_event e = {.kind = FT_RT_COLL};
  e.u.coll = (struct ft_rt_coll){op, FT_RT_COMM_WORLD, root, sent, recvd, 0};
  cr_assert_not_null(ft_rtrace_append(t, r, &e));
}

/* A 5-rank trace of every v-collective (alltoallv's per-pair bytes
 * estimated by the CLI from the totals): each rank takes its counts from
 * the file as replay.c would, in event order, ft_csched_counts_needed at
 * a time; every instance's schedules then match. */
Test(csched, the_counts_file_gives_every_rank_matching_schedules) {
  enum { N = 5 };
  static const uint8_t ops[] = {FT_RT_GATHERV,    FT_RT_SCATTERV,
                                FT_RT_ALLGATHERV, FT_RT_REDUCE_SCATTER,
                                FT_RT_ALLTOALLV,  FT_RT_ALLTOALLW};
  static const int32_t roots[] = {3, 1, -1, -1, -1, -1};
  static struct inst in;
  struct ft_rtrace *t = ft_rtrace_new(N);
  for (size_t k = 0; k < sizeof ops; k++) {
    inst_make(&in, ops[k], N, roots[k]);
    for (uint32_t r = 0; r < N; r++) /* alltoallw: other totals */
      coll_ev(t, r, ops[k], roots[k],
              in.s[r].sent + (ops[k] == FT_RT_ALLTOALLW),
              in.s[r].recvd + (ops[k] == FT_RT_ALLTOALLW));
  }
  char path[] = "/tmp/ftsim-csched-XXXXXX", err[256];
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  cr_assert_eq(ft_rtrace_write_vcounts(t, path, err, sizeof err), 0, "%s", err);
  uint64_t *vc[N];
  size_t nvc[N], pos[N] = {0};
  for (uint32_t r = 0; r < N; r++)
    cr_assert_eq(
        ft_rtrace_read_vcounts(path, r, &vc[r], &nvc[r], err, sizeof err), 0,
        "%s", err);
  unlink(path);
  for (size_t k = 0; k < sizeof ops; k++) {
    static struct net w;
    char what[128];
    for (uint32_t r = 0; r < N; r++) {
      const struct ft_rt_coll *e = &t->ranks[r].ev[k].u.coll;
      struct ft_csched_spec *s = &in.s[r];
      *s = (struct ft_csched_spec){.op = e->op,
                                   .size = N,
                                   .me = r,
                                   .root = e->root,
                                   .sent = e->sent,
                                   .recvd = e->recvd};
      s->ncounts = ft_csched_counts_needed(e->op, N, r, e->root);
      cr_assert_leq(pos[r] + s->ncounts, nvc[r]);
      s->counts = s->ncounts ? vc[r] + pos[r] : NULL;
      pos[r] += s->ncounts;
    }
    in.op = ops[k], in.n = N, in.root = roots[k];
    inst_run(&in, &w, what, sizeof what);
    for (uint32_t r = 0; r < N; r++) /* the estimate keeps what each sent */
      if (ops[k] == FT_RT_ALLTOALLV || ops[k] == FT_RT_ALLTOALLW) /* linear
                                                     on 5: itself a copy */
        cr_assert_eq(w.r[r].sent, in.s[r].sent - in.s[r].counts[r],
                     "%s, rank %u", what, r);
    net_free(&w);
  }
  for (uint32_t r = 0; r < N; r++) {
    cr_assert_eq(pos[r], nvc[r], "rank %u: %zu counts left", r,
                 nvc[r] - pos[r]);
    free(vc[r]);
  }
  ft_rtrace_free(t);
}
