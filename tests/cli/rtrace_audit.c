/* rtrace_audit TRACE: what the tests of `ftsim record` assert about an
 * archive, read back with the rtrace reader (sim/rtrace):
 *
 *   ranks N
 *   sends S                   point-to-point sends (send, isend, sendrecv)
 *   recvs R                   receives completed (recv, irecv done,
 *                             sendrecv)
 *   channels ok|differ ...    every (communicator, sender, receiver, tag)
 *                             carries as many messages of the same sizes
 *                             as its receiver received, in world ranks
 *   wild W matched M          receives posted with MPI_ANY_SOURCE, and how
 *                             many name a matched source (a rank)
 *   probes P wild W found F   probes, those posted with MPI_ANY_SOURCE, those
 *                             that found a message (with its source)
 *   coll NAME root R records C   per collective and root
 *   collectives ok|differ     every member of a communicator made the same
 *                             sequence of collective calls (op, root)
 *   compute_s X, speed Y      rank 0's computation, host speed
 *
 * Exit 0 when the archive reads, 1 otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtrace.h"

struct msg {
  uint32_t comm;
  uint32_t src, dst;
  int32_t tag;
  uint64_t bytes;
};

struct msgs {
  struct msg *m;
  size_t n, cap;
};

static void add(struct msgs *v, struct msg m) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 256;
    v->m = realloc(v->m, v->cap * sizeof *v->m);
    if (!v->m)
      exit(1);
  }
  v->m[v->n++] = m;
}

static int order(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

static int cmp(const void *pa, const void *pb) {
  const struct msg *a = pa, *b = pb;
  int c = order(a->comm, b->comm);
  c = c ? c : order(a->src, b->src);
  c = c ? c : order(a->dst, b->dst);
  c = c ? c : order((uint64_t)(int64_t)a->tag, (uint64_t)(int64_t)b->tag);
  return c ? c : order(a->bytes, b->bytes);
}

static uint32_t world(const struct ft_rtrace *t, uint32_t comm, uint32_t me,
                      int32_t peer) {
  if (comm == FT_RT_COMM_SELF)
    return me;
  if (comm >= t->ncomms || peer < 0 || (uint32_t)peer >= t->comms[comm].size)
    return UINT32_MAX;
  return t->comms[comm].members ? t->comms[comm].members[peer] : (uint32_t)peer;
}

static void sent(const struct ft_rtrace *t, struct msgs *s, uint32_t r,
                 uint32_t comm, int32_t peer, int32_t tag, uint64_t bytes) {
  add(s, (struct msg){comm, r, world(t, comm, r, peer), tag, bytes});
}

static void received(const struct ft_rtrace *t, struct msgs *v, uint32_t r,
                     uint32_t comm, int32_t peer, int32_t tag, uint64_t bytes) {
  add(v, (struct msg){comm, world(t, comm, r, peer), r, tag, bytes});
}

struct counts {
  size_t wild, wild_matched;
  size_t probes, probes_wild, probes_found; /* found: with a source */
};

static void rank_p2p(const struct ft_rtrace *t, uint32_t r, struct msgs *s,
                     struct msgs *v, struct counts *c) {
  const struct ft_rtrace_rank *k = &t->ranks[r];
  for (size_t i = 0; i < k->n; i++) {
    const struct ft_rt_event *e = &k->ev[i];
    const struct ft_rt_p2p *p = &e->u.p2p;
    if (e->kind == FT_RT_SEND || e->kind == FT_RT_ISEND)
      sent(t, s, r, p->comm, p->peer, p->tag, p->bytes);
    if (e->kind == FT_RT_RECV)
      received(t, v, r, p->comm, p->peer, p->tag, p->bytes);
    if ((e->kind == FT_RT_RECV || e->kind == FT_RT_IRECV) &&
        (p->flags & FT_RT_WILD_SOURCE)) {
      c->wild++;
      c->wild_matched += p->peer >= 0;
    }
    if (e->kind == FT_RT_PROBE) {
      c->probes++;
      c->probes_wild += e->u.probe.peer == FT_RT_ANY;
      c->probes_found += e->u.probe.found == 1 && e->u.probe.msg_peer >= 0;
    }
    if (e->kind == FT_RT_SENDRECV) {
      const struct ft_rt_sendrecv *x = &e->u.sendrecv;
      if (x->dest != FT_RT_UNKNOWN)
        sent(t, s, r, x->comm, x->dest, x->send_tag, x->send_bytes);
      if (x->source != FT_RT_UNKNOWN)
        received(t, v, r, x->comm, x->source, x->recv_tag, x->recv_bytes);
    }
    if (e->kind != FT_RT_COMPLETE)
      continue;
    for (uint32_t j = 0; j < e->u.complete.count; j++) {
      const struct ft_rt_done *d = &k->done[e->u.complete.first + j];
      if (d->is_recv && d->status == FT_RT_DONE)
        received(t, v, r, d->comm, d->peer, d->tag, d->bytes);
    }
  }
}

static void channels(const struct ft_rtrace *t) {
  struct msgs s = {0}, v = {0};
  struct counts c = {0};
  for (uint32_t r = 0; r < t->nranks; r++)
    rank_p2p(t, r, &s, &v, &c);
  printf("sends %zu\nrecvs %zu\n", s.n, v.n);
  qsort(s.m, s.n, sizeof *s.m, cmp);
  qsort(v.m, v.n, sizeof *v.m, cmp);
  size_t i = 0;
  while (i < s.n && i < v.n && !cmp(&s.m[i], &v.m[i]))
    i++;
  if (i == s.n && i == v.n)
    printf("channels ok %zu\n", s.n);
  else {
    const struct msg *m = i < s.n ? &s.m[i] : &v.m[i];
    printf("channels differ at comm %u %u->%u tag %d bytes %" PRIu64 "\n",
           m->comm, m->src, m->dst, m->tag, m->bytes);
  }
  printf("wild %zu matched %zu\n", c.wild, c.wild_matched);
  printf("probes %zu wild %zu found %zu\n", c.probes, c.probes_wild,
         c.probes_found);
  free(s.m);
  free(v.m);
}

/* Per (op, root): records over all ranks. */
static void collectives(const struct ft_rtrace *t) {
  size_t count[FT_RT_COLL_COUNT][8] = {{0}};
  for (uint32_t r = 0; r < t->nranks; r++)
    for (size_t i = 0; i < t->ranks[r].n; i++) {
      const struct ft_rt_event *e = &t->ranks[r].ev[i];
      if (e->kind == FT_RT_COLL && e->u.coll.op < FT_RT_COLL_COUNT)
        count[e->u.coll.op][e->u.coll.root < 0   ? 7
                            : e->u.coll.root < 7 ? e->u.coll.root
                                                 : 6]++;
    }
  for (unsigned op = 1; op < FT_RT_COLL_COUNT; op++)
    for (int root = 0; root < 8; root++)
      if (count[op][root])
        printf("coll %s root %d records %zu\n", ft_rt_coll_name(op),
               root == 7 ? -1 : root, count[op][root]);
}

/* Every member of a communicator made the same collective calls. */
static void collectives_agree(const struct ft_rtrace *t) {
  for (uint32_t c = 0; c < t->ncomms; c++) {
    if (c == FT_RT_COMM_SELF)
      continue;
    const struct ft_rt_comm *m = &t->comms[c];
    size_t first_n = 0;
    const struct ft_rtrace_rank *first = NULL;
    for (uint32_t j = 0; j < m->size; j++) {
      const struct ft_rtrace_rank *k =
          &t->ranks[m->members ? m->members[j] : j];
      size_t n = 0;
      for (size_t i = 0; i < k->n; i++)
        n += k->ev[i].kind == FT_RT_COLL && k->ev[i].u.coll.comm == c;
      if (!first) {
        first = k;
        first_n = n;
      } else if (n != first_n) {
        printf("collectives differ on comm %u: %zu vs %zu\n", c, first_n, n);
        return;
      }
    }
  }
  printf("collectives ok\n");
}

int main(int argc, char **argv) {
  char err[1024];
  if (argc != 2) {
    fprintf(stderr, "usage: rtrace_audit TRACE\n");
    return 1;
  }
  struct ft_rtrace *t = ft_rtrace_read(argv[1], 1e9, -1, err, sizeof err);
  if (!t) {
    fprintf(stderr, "rtrace_audit: %s\n", err);
    return 1;
  }
  printf("ranks %u\n", t->nranks);
  channels(t);
  collectives(t);
  collectives_agree(t);
  struct ft_rtrace_stat s;
  ft_rtrace_rank_stat(t, 0, &s);
  printf("compute_s %.9f speed %g\n", s.compute_s, t->ranks[0].host_speed);
  ft_rtrace_free(t);
  return 0;
}
