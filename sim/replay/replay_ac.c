/* The any-call replay (issue 16, item 3): every MPI call of the trace goes
 * through the runtime's any-call transport (sim/ft_anycall.h), so that a
 * recovering protocol can checkpoint at any of them. No MPI call is made
 * for the application's messages, collectives or communicators:
 * communicator ranks become world ranks through the trace's member lists,
 * and the trace's communicator id travels in the envelope.
 *
 * What a call is: every event but computation, footprint changes and
 * communicator operations (which need no message here). Each call is
 * ft_ac_call, its posts, its waits, ft_ac_call_end. The position inside
 * it (p->ac: round, posted) is protected with p->pos and updated before
 * every transport call that may checkpoint, so that after a restore the
 * replay resumes in that call: posts already made are not made again.
 *
 * Completion kinds: a wait* completes the requests the trace says it
 * completed (ft_ac_waitall); a test* likewise for those it found complete
 * (in this mode a test the trace says completed waits for it), and tests
 * the others once (ft_ac_test). Probes: a blocking one waits for the
 * recorded message; an MPI_Iprobe tests once, its answer not checked.
 *
 * Truncated receives (FT_RT_TRUNCATED): the transport receives every
 * message whole (each receive's room is the largest message), so the
 * sender's whole message goes on the wire, as in the recording; what the
 * program saw is its receive's: the recorded size as room, a longer message
 * MPI_ERR_TRUNCATE with that size in its status (check()).
 *
 * Collectives: each is a call of rounds of point-to-point messages on the
 * communicator's collective envelope, the schedule ft_csched_build gives
 * (coll.c's algorithms; docs/protocols.md, "Collectives in an any-call
 * replay"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csched.h"
#include "ft.h"
#include "ft_anycall.h"
#include "replay.h"

/* World rank of rank `r` of trace communicator `c`, or -1. */
static int world_of(const struct rp *p, uint32_t c, int32_t r) {
  if (c == FT_RT_COMM_SELF)
    return r == 0 ? p->rank : -1;
  if (c >= p->t.ncomms || r < 0)
    return -1;
  const struct ft_rt_comm *m = &p->t.comms[c];
  if (!m->members)
    return c == FT_RT_COMM_WORLD ? r : -1;
  return (uint32_t)r < m->size ? (int)m->members[r] : -1;
}

static int peer_of(struct rp *p, uint32_t c, int32_t r) {
  int w = world_of(p, c, r);
  if (w < 0) {
    rp_fatal(p, "a peer outside its communicator");
    p->bad++;
  }
  return w;
}

/* Checks a completed receive against the recorded source, tag, size and
 * truncation (`cut`): the program's receive had room for the recorded size
 * when it was truncated (any message otherwise), so a longer message is
 * seen as that size, truncated. */
static void check(struct rp *p, const struct ft_ac_status *st, uint32_t comm,
                  int32_t peer, int32_t tag, uint64_t bytes, int cut) {
  int seen = cut && st->bytes > bytes;
  uint64_t got = seen ? bytes : st->bytes;
  if (st->source == world_of(p, comm, peer) && st->tag == tag && got == bytes &&
      seen == cut)
    return;
  fprintf(stderr,
          "replay: rank %d, event %zu: received source %d tag %d bytes "
          "%" PRIu64 "%s, recorded source %d tag %" PRId32 " bytes %" PRIu64
          "%s\n",
          p->rank, p->pos, st->source, st->tag, got, seen ? " truncated" : "",
          world_of(p, comm, peer), tag, bytes, cut ? " truncated" : "");
  p->bad++;
}

/* Marks the posts of the current step made (before they are: none of
 * them checkpoints), so that a restore does not make them twice. */
static int to_post(struct rp *p) {
  if (p->ac.posted)
    return 0;
  p->ac.posted = 1;
  return 1;
}

static void wait_one(struct rp *p, int64_t h, const struct ft_rt_p2p *e) {
  struct ft_ac_status st;
  ft_ac_waitall(1, &h, &st);
  if (e)
    check(p, &st, e->comm, e->peer, e->tag, e->bytes,
          (e->flags & FT_RT_TRUNCATED) != 0);
}

static void do_p2p(struct rp *p, uint8_t kind, const struct ft_rt_p2p *e) {
  int blocking = kind == FT_RT_SEND || kind == FT_RT_RECV;
  int64_t h = blocking ? -1 : (int64_t)e->request;
  int send = kind == FT_RT_SEND || kind == FT_RT_ISEND;
  if (!send && (e->peer == FT_RT_UNKNOWN || e->tag == FT_RT_UNKNOWN))
    return; /* a receive that never matched: nothing will complete it */
  if (to_post(p)) {
    int w = peer_of(p, e->comm, e->peer);
    if (w < 0)
      return;
    if (send)
      ft_ac_isend(h, w, e->comm, 0, e->tag, e->bytes);
    else
      ft_ac_irecv(h, w, e->comm, 0, e->tag, p->bufsize);
  }
  if (blocking)
    wait_one(p, h, send ? NULL : e);
}

static void do_sendrecv(struct rp *p, const struct ft_rt_sendrecv *e) {
  int64_t h[2];
  size_t n = 0;
  int has_send = e->dest != FT_RT_UNKNOWN,
      has_recv = e->source != FT_RT_UNKNOWN;
  if (to_post(p)) {
    if (has_send)
      ft_ac_isend(-1, peer_of(p, e->comm, e->dest), e->comm, 0, e->send_tag,
                  e->send_bytes);
    if (has_recv)
      ft_ac_irecv(-2, peer_of(p, e->comm, e->source), e->comm, 0, e->recv_tag,
                  p->bufsize);
  }
  if (has_send)
    h[n++] = -1;
  if (has_recv)
    h[n++] = -2;
  struct ft_ac_status st[2];
  ft_ac_waitall(n, h, st);
  if (has_recv)
    check(p, &st[n - 1], e->comm, e->source, e->recv_tag, e->recv_bytes,
          (e->flags & FT_RT_TRUNCATED) != 0);
}

static int is_test(uint8_t call) {
  return call == FT_RT_TEST || call == FT_RT_TESTALL || call == FT_RT_TESTANY ||
         call == FT_RT_TESTSOME;
}

static void do_complete(struct rp *p, const struct ft_rt_complete *c) {
  const struct ft_rt_done *d = &p->me->done[c->first];
  int64_t *h = malloc((c->count + 1) * sizeof *h);
  struct ft_ac_status *st = malloc((c->count + 1) * sizeof *st);
  uint32_t *idx = malloc((c->count + 1) * sizeof *idx);
  if (!h || !st || !idx) {
    rp_fatal(p, "out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t n = 0;
  for (uint32_t k = 0; k < c->count; k++) {
    if (d[k].status == FT_RT_NOT_DONE)
      (void)ft_ac_test((int64_t)d[k].request);
    else if (d[k].status == FT_RT_CANCELLED)
      ft_ac_cancel((int64_t)d[k].request);
    else
      idx[n] = k, h[n++] = (int64_t)d[k].request;
  }
  /* A test call tests each request it found complete once (as the replay
   * under none does before waiting, and SMPI charges each test) */
  for (size_t j = 0; j < n && is_test(c->call); j++)
    (void)ft_ac_test(h[j]);
  ft_ac_waitall(n, h, st);
  for (size_t j = 0; j < n; j++)
    if (d[idx[j]].is_recv)
      check(p, &st[j], d[idx[j]].comm, d[idx[j]].peer, d[idx[j]].tag,
            d[idx[j]].bytes, d[idx[j]].truncated);
  free(h);
  free(st);
  free(idx);
}

static void do_probe(struct rp *p, const struct ft_rt_probe *e) {
  struct ft_ac_status st;
  if (!e->blocking || e->found != 1) {
    if (e->found == 1)
      (void)ft_ac_probe(peer_of(p, e->comm, e->msg_peer), e->comm, e->msg_tag,
                        0, &st);
    return;
  }
  ft_ac_probe(peer_of(p, e->comm, e->msg_peer), e->comm, e->msg_tag, 1, &st);
  check(p, &st, e->comm, e->msg_peer, e->msg_tag, e->msg_bytes, 0);
}

/* ---- Collectives ---- */

/* This rank's place in communicator c (its size in *n), or -1. */
static int place_in(const struct rp *p, uint32_t c, uint32_t *n) {
  if (c == FT_RT_COMM_SELF || c >= p->t.ncomms) {
    *n = 1;
    return 0;
  }
  const struct ft_rt_comm *m = &p->t.comms[c];
  *n = m->members ? m->size : p->t.nranks;
  if (!m->members)
    return p->rank;
  for (uint32_t i = 0; i < m->size; i++)
    if ((int)m->members[i] == p->rank)
      return (int)i;
  return -1;
}

/* Posts round r of schedule c on communicator `comm` with handles -1,
 * -2, ...; returns how many operations it has. */
static size_t post_round(struct rp *p, const struct ft_csched *c, size_t r,
                         uint32_t comm) {
  const struct ft_csched_round *rd = &c->rounds[r];
  for (uint32_t i = 0; i < rd->n; i++) {
    const struct ft_csched_op *op = &c->ops[rd->first + i];
    int w = world_of(p, comm, (int32_t)op->peer);
    if (op->send)
      ft_ac_isend(-(int64_t)(i + 1), w, comm, 1, 0, op->bytes);
    else
      ft_ac_irecv(-(int64_t)(i + 1), w, comm, 1, 0, op->bytes);
  }
  return rd->n;
}

int rp_schedule_of(struct rp *p, const struct ft_rt_coll *e,
                   struct ft_csched *c, size_t *ncounts) {
  uint32_t n = 1;
  int me = place_in(p, e->comm, &n);
  char err[256];
  struct ft_csched_spec spec = {.op = e->op,
                                .size = n,
                                .me = (uint32_t)(me < 0 ? 0 : me),
                                .root = e->root,
                                .sent = e->sent,
                                .recvd = e->recvd,
                                .noncommutative =
                                    (e->flags & FT_RT_NONCOMMUTATIVE) != 0};
  *ncounts = ft_csched_counts_needed(e->op, n, spec.me, e->root);
  if (me < 0 || p->vcpos + *ncounts > p->nvc) {
    rp_fatal(p, me < 0 ? "a collective on a communicator without this rank"
                       : "no counts for this collective");
    p->bad++;
    return -1;
  }
  spec.counts = p->vc ? p->vc + p->vcpos : NULL;
  spec.ncounts = *ncounts;
  if (ft_csched_build(&spec, c, err, sizeof err) == 0)
    return 0;
  rp_fatal(p, err);
  p->bad++;
  return -1;
}

/* A collective: its schedule's rounds, each posted then waited for. */
static void do_coll(struct rp *p, const struct ft_rt_coll *e) {
  struct ft_csched c = {0};
  size_t ncounts = 0;
  int64_t *h = NULL;
  if (rp_schedule_of(p, e, &c, &ncounts) == 0) {
    h = malloc((c.nops + 1) * sizeof *h);
    if (!h) {
      rp_fatal(p, "out of memory");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < c.nops; i++)
      h[i] = -(int64_t)(i + 1);
    for (; p->ac.round < c.nrounds; p->ac.round++, p->ac.posted = 0) {
      if (to_post(p))
        post_round(p, &c, p->ac.round, e->comm);
      ft_ac_waitall(c.rounds[p->ac.round].n, h, NULL);
    }
  }
  p->vcpos += ncounts;
  free(h);
  ft_csched_free(&c);
}

/* ---- Events ---- */

static void do_call(struct rp *p, const struct ft_rt_event *e) {
  switch (e->kind) {
  case FT_RT_SEND:
  case FT_RT_ISEND:
  case FT_RT_RECV:
  case FT_RT_IRECV:
    do_p2p(p, e->kind, &e->u.p2p);
    return;
  case FT_RT_SENDRECV:
    do_sendrecv(p, &e->u.sendrecv);
    return;
  case FT_RT_COMPLETE:
    do_complete(p, &e->u.complete);
    return;
  case FT_RT_CANCEL:
    if (e->u.p2p.flags & FT_RT_FREE)
      ft_ac_free((int64_t)e->u.p2p.request);
    else
      ft_ac_cancel((int64_t)e->u.p2p.request);
    return;
  case FT_RT_PROBE:
    do_probe(p, &e->u.probe);
    return;
  default: /* FT_RT_COLL */
    do_coll(p, &e->u.coll);
  }
}

static void do_event(struct rp *p, const struct ft_rt_event *e) {
  switch (e->kind) {
  case FT_RT_COMPUTE:
    ft_compute(e->u.compute_s * p->speed);
    return;
  case FT_RT_MEMORY:
    ft_ac_footprint(e->u.memory);
    return;
  case FT_RT_COMM:
    return; /* no MPI communicator in this mode: members from the trace */
  default:
    ft_ac_call();
    do_call(p, e);
    ft_ac_call_end();
  }
}

int32_t rp_max_tag(const struct ft_rtrace_rank *me) {
  int32_t m = 0;
  for (size_t i = 0; i < me->n; i++) {
    const struct ft_rt_event *e = &me->ev[i];
    int32_t t = e->kind == FT_RT_SENDRECV ? e->u.sendrecv.send_tag
                : e->kind >= FT_RT_SEND && e->kind <= FT_RT_IRECV ? e->u.p2p.tag
                                                                  : 0;
    if (e->kind == FT_RT_SENDRECV && e->u.sendrecv.recv_tag > t)
      t = e->u.sendrecv.recv_tag;
    if (t > m && t != FT_RT_UNKNOWN)
      m = t;
  }
  return m;
}

size_t rp_replay_anycall(struct rp *p) {
  char err[512];
  while (p->pos < p->me->n) {
    const struct ft_rt_event *e = &p->me->ev[p->pos];
    if (ft_rtrace_replayable_event(e, (uint32_t)p->rank, p->pos, err,
                                   sizeof err)) {
      fprintf(stderr, "replay: %s\n", err);
      p->bad++;
      break;
    }
    do_event(p, e);
    p->ac = (struct rp_ac_pos){0};
    p->pos++;
  }
  return p->pos;
}
