/* Consistent cuts at world collectives, for the replay's checkpoints (see
 * rtrace.h, "Consistent cuts"). */
#include <stdlib.h>
#include <string.h>

#include "rtrace.h"

/* A channel's key (communicator, sender, receiver, tag as world ranks),
 * hashed to 64 bits (splitmix64 finalizer over the packed fields). */
static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static uint64_t channel(uint32_t comm, uint32_t src, uint32_t dst,
                        int32_t tag) {
  uint64_t h = mix(((uint64_t)comm << 32) ^ src ^ 0x9e3779b97f4a7c15ull);
  h = mix(h ^ ((uint64_t)dst << 32) ^ (uint32_t)tag);
  return h | 1u; /* never 0 */
}

/* A comm-relative rank as a world rank (SELF and unknown comms: `me`). */
static uint32_t world_of(const struct ft_rtrace *t, uint32_t comm, int32_t peer,
                         uint32_t me) {
  if (comm >= t->ncomms || !t->comms[comm].members || peer < 0 ||
      (uint32_t)peer >= t->comms[comm].size)
    return me;
  return t->comms[comm].members[peer];
}

/* One rank's walk: its running balance of sends (+) and receives (-) and
 * its pending requests. */
struct cut_walk {
  uint64_t balance;
  long pending;
};

static void p2p(const struct ft_rtrace *t, uint32_t r, uint8_t kind,
                const struct ft_rt_p2p *e, struct cut_walk *w) {
  if (e->peer == FT_RT_UNKNOWN || e->tag == FT_RT_UNKNOWN) {
    w->balance += 1; /* an irecv that never matched: never balanced */
    w->pending += kind == FT_RT_IRECV;
    return;
  }
  uint32_t o = world_of(t, e->comm, e->peer, r);
  int send = kind == FT_RT_SEND || kind == FT_RT_ISEND;
  uint64_t h =
      send ? channel(e->comm, r, o, e->tag) : channel(e->comm, o, r, e->tag);
  w->balance += send ? h : (uint64_t)0 - h;
  w->pending += kind == FT_RT_ISEND || kind == FT_RT_IRECV;
}

static void step(const struct ft_rtrace *t, uint32_t r,
                 const struct ft_rt_event *e, struct cut_walk *w) {
  const struct ft_rtrace_rank *rk = &t->ranks[r];
  switch (e->kind) {
  case FT_RT_SEND:
  case FT_RT_ISEND:
  case FT_RT_RECV:
  case FT_RT_IRECV:
    p2p(t, r, e->kind, &e->u.p2p, w);
    return;
  case FT_RT_SENDRECV: {
    const struct ft_rt_sendrecv *s = &e->u.sendrecv;
    if (s->dest != FT_RT_UNKNOWN) /* FT_RT_UNKNOWN: MPI_PROC_NULL */
      w->balance +=
          channel(s->comm, r, world_of(t, s->comm, s->dest, r), s->send_tag);
    if (s->source != FT_RT_UNKNOWN)
      w->balance -=
          channel(s->comm, world_of(t, s->comm, s->source, r), r, s->recv_tag);
    return;
  }
  case FT_RT_COMPLETE:
    for (uint32_t k = 0; k < e->u.complete.count; k++)
      w->pending -= rk->done[e->u.complete.first + k].status != FT_RT_NOT_DONE;
    return;
  default:
    return;
  }
}

int ft_rtrace_cuts(const struct ft_rtrace *t, uint64_t **cuts, size_t *n) {
  size_t ncoll = SIZE_MAX;
  *cuts = NULL, *n = 0;
  for (uint32_t r = 0; r < t->nranks; r++) {
    size_t c = 0;
    for (size_t i = 0; i < t->ranks[r].n; i++)
      c += t->ranks[r].ev[i].kind == FT_RT_COLL &&
           t->ranks[r].ev[i].u.coll.comm == FT_RT_COMM_WORLD;
    ncoll = c < ncoll ? c : ncoll;
  }
  if (ncoll == 0 || ncoll == SIZE_MAX)
    return 0;
  uint64_t *sum = calloc(ncoll, sizeof *sum);
  unsigned char *busy = calloc(ncoll, 1);
  if (!sum || !busy)
    return free(sum), free(busy), -1;
  for (uint32_t r = 0; r < t->nranks; r++) {
    struct cut_walk w = {0, 0};
    size_t k = 0;
    for (size_t i = 0; i < t->ranks[r].n && k < ncoll; i++) {
      const struct ft_rt_event *e = &t->ranks[r].ev[i];
      if (e->kind == FT_RT_COLL && e->u.coll.comm == FT_RT_COMM_WORLD) {
        sum[k] += w.balance;
        busy[k++] |= w.pending != 0;
      }
      step(t, r, e, &w);
    }
  }
  for (size_t k = 0; k < ncoll; k++)
    if (sum[k] == 0 && !busy[k])
      sum[(*n)++] = k;
  free(busy);
  *cuts = sum;
  return 0;
}
