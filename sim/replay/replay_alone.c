/* The replay under message logging checkpointing at any call (issue 16,
 * item 3: "pessimist and v2: each rank checkpoints on its own at any call;
 * a failed rank restarts alone from its position"; sim/ft_anycall.h,
 * FT_AC_ALONE; docs/protocols.md, "Message logging in this mode"), and
 * under c3 (issue 17; FT_AC_REPOST; docs/protocols.md, "C3 in a replay"):
 * every MPI call a potential checkpoint location, every rank rolled back.
 *
 * The replay keeps its MPI calls (message logging's own point-to-point
 * path carries them) and replay.c calls ft_snapshot before every one of
 * them, requests pending or not. What this file adds:
 * - the request table in the image: protected at the largest size the
 *   trace needs (a protected region cannot move), and its handles made
 *   valid again after a restore (message logging:
 *   ft_ac_requests_restored; c3: posted again by the replay itself,
 *   rp_alone_repost, as an application-level protocol recreates the
 *   requests it recorded);
 * - collectives as rounds of point-to-point messages (the schedules of
 *   csched.h, coll.c's algorithms: the same messages), on a shadow of each
 *   communicator (MPI_Comm_dup, tag 0; every receive names its source), so
 *   that a checkpoint can be taken between two rounds and while a round's
 *   messages are in flight: a collective run inside the runtime keeps its
 *   progress on the C stack, where no image can hold it. The position
 *   inside the collective (p->ac: round, posts made) is protected, and a
 *   round's requests are in the request table under ids of their own. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdlib.h>
#include <string.h>

#include "csched.h"
#include "ft.h"
#include "ft_anycall.h"
#include "replay.h"

/* Trace request ids of a collective round's operations: op i is
 * ROUND_ID - i (trace ids count up from small numbers). */
#define ROUND_ID UINT64_MAX

/* Drops `id` from the n live ids, if there. */
static void forget_id(uint64_t *live, size_t *n, uint64_t id) {
  for (size_t j = 0; j < *n; j++)
    if (live[j] == id) {
      live[j] = live[--*n];
      return;
    }
}

/* The most requests the rank's events hold pending at once, as
 * rp_add_req and rp_drop_req will hold them, plus room for a collective
 * round's (at most two per member) and one. */
static size_t most_pending(const struct rp *p) {
  const struct ft_rtrace_rank *me = p->me;
  uint64_t *live = malloc((me->n + 1) * sizeof *live);
  size_t n = 0, most = 0;
  for (size_t i = 0; live && i < me->n; i++) {
    const struct ft_rt_event *e = &me->ev[i];
    if (e->kind == FT_RT_ISEND || e->kind == FT_RT_IRECV) {
      live[n++] = e->u.p2p.request;
      most = n > most ? n : most;
    } else if (e->kind == FT_RT_CANCEL && (e->u.p2p.flags & FT_RT_FREE)) {
      forget_id(live, &n, e->u.p2p.request);
    } else if (e->kind == FT_RT_COMPLETE) {
      const struct ft_rt_done *d = &me->done[e->u.complete.first];
      for (uint32_t k = 0; k < e->u.complete.count; k++)
        if (d[k].status != FT_RT_NOT_DONE)
          forget_id(live, &n, d[k].request);
    }
  }
  size_t cap = (live ? most : me->n) + 2 * (size_t)p->t.nranks + 1;
  free(live);
  return cap;
}

static void *shared_of(uint64_t bytes) {
  return SMPI_SHARED_MALLOC((size_t)(bytes ? bytes : 1));
}

int rp_alone_start(struct rp *p) {
  size_t cap = most_pending(p);
  struct rp_req *r = realloc(p->reqs, cap * sizeof *r);
  if (r)
    p->reqs = r;
  p->shadow = calloc(p->t.ncomms + 1, sizeof *p->shadow);
  if (!r || !p->shadow) {
    rp_fatal(p, "out of memory");
    return -1;
  }
  p->capreqs = cap;
  memset(p->reqs, 0, cap * sizeof *p->reqs);
  /* A round may carry any rank's largest message (p->bufsize). */
  SMPI_SHARED_FREE(p->sbuf);
  SMPI_SHARED_FREE(p->rbuf);
  p->sbuf = shared_of(p->bufsize);
  p->rbuf = shared_of(p->bufsize);
  for (uint32_t c = 0; c < p->t.ncomms; c++)
    p->shadow[c] = MPI_COMM_NULL;
  p->shadow[FT_RT_COMM_SELF] = MPI_COMM_SELF;
  /* Before the first ft_snapshot: a restarted rank gets it back from the
   * runtime (main()'s set-up), the others are not asked again. */
  MPI_Comm_dup(MPI_COMM_WORLD, &p->shadow[FT_RT_COMM_WORLD]);
  ft_protect(5, &p->ac, sizeof p->ac);
  ft_protect(6, &p->nreqs, sizeof p->nreqs);
  ft_protect(7, p->reqs, cap * sizeof *p->reqs);
  /* c3 rolls every rank back: each makes its communicators again, shadows
   * included (replay.c, at_cut); a rank restarted alone gets them back. */
  if (p->ac_alone)
    ft_protect(8, p->shadow, p->t.ncomms * sizeof *p->shadow);
  return 0;
}

void rp_alone_rebind(struct rp *p) {
  MPI_Request *h = malloc((p->nreqs + 1) * sizeof *h);
  if (!h) {
    rp_fatal(p, "out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t m = 0;
  for (size_t i = 0; i < p->nreqs; i++)
    if (!p->reqs[i].complete && p->reqs[i].req != MPI_REQUEST_NULL)
      h[m++] = p->reqs[i].req;
  ft_ac_requests_restored(h, m, p->rbuf);
  m = 0;
  for (size_t i = 0; i < p->nreqs; i++)
    if (!p->reqs[i].complete && p->reqs[i].req != MPI_REQUEST_NULL)
      p->reqs[i].req = h[m++];
  free(h);
}

static int count_of(uint64_t bytes) {
  return bytes > (uint64_t)INT32_MAX ? INT32_MAX : (int)bytes;
}

/* Posting order: event, then operation of the event's round. */
static int by_post(const void *a, const void *b) {
  const struct rp_req *x = *(const struct rp_req *const *)a,
                      *y = *(const struct rp_req *const *)b;
  if (x->at_event != y->at_event)
    return (x->at_event > y->at_event) - (x->at_event < y->at_event);
  return (x->at_op > y->at_op) - (x->at_op < y->at_op);
}

/* A send pending at the checkpoint: complete, with an empty status (a
 * send's status is never checked). */
static void repost_send(struct rp_req *q) {
  q->req = MPI_REQUEST_NULL;
  q->complete = 1;
  memset(&q->st, 0, sizeof q->st);
  q->st.MPI_ERROR = MPI_SUCCESS;
  q->st.MPI_SOURCE = MPI_ANY_SOURCE;
  q->st.MPI_TAG = MPI_ANY_TAG;
}

static void repost_recv(struct rp *p, struct rp_req *q) {
  MPI_Comm c = MPI_COMM_NULL;
  if (q->comm < p->t.ncomms)
    c = q->on_shadow ? p->shadow[q->comm] : p->comms[q->comm];
  if (c == MPI_COMM_NULL) {
    rp_fatal(p, "a receive pending at the checkpoint on a communicator "
                "not made again");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Irecv(p->rbuf, count_of(q->bytes), MPI_BYTE, q->peer, q->tag, c, &q->req);
}

void rp_alone_repost(struct rp *p) {
  struct rp_req **order = malloc((p->nreqs + 1) * sizeof *order);
  if (!order) {
    rp_fatal(p, "out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t m = 0;
  for (size_t i = 0; i < p->nreqs; i++)
    if (!p->reqs[i].complete)
      order[m++] = &p->reqs[i];
  qsort(order, m, sizeof *order, by_post);
  for (size_t k = 0; k < m; k++) {
    if (order[k]->send)
      repost_send(order[k]);
    else
      repost_recv(p, order[k]);
  }
  free(order);
}

void rp_alone_shadow(struct rp *p, uint32_t c, int free) {
  if (c >= p->t.ncomms || c == FT_RT_COMM_WORLD || c == FT_RT_COMM_SELF)
    return;
  if (free && p->shadow[c] != MPI_COMM_NULL)
    MPI_Comm_free(&p->shadow[c]);
  else if (!free && p->comms[c] != MPI_COMM_NULL)
    MPI_Comm_dup(p->comms[c], &p->shadow[c]);
}

/* Posts round r's operations, each under its own id in the table, on
 * `sh`, the shadow of trace communicator `comm`. */
static void post_round(struct rp *p, const struct ft_csched *c, size_t r,
                       MPI_Comm sh, uint32_t comm) {
  const struct ft_csched_round *rd = &c->rounds[r];
  for (uint32_t i = 0; i < rd->n; i++) {
    const struct ft_csched_op *op = &c->ops[rd->first + i];
    struct rp_req *q = rp_add_req(p, ROUND_ID - i, 0);
    rp_note_post(p, q, op->send, (int32_t)op->peer, 0, comm, op->bytes, 1, i);
    if (op->send)
      MPI_Isend(p->sbuf, count_of(op->bytes), MPI_BYTE, (int)op->peer, 0, sh,
                &q->req);
    else
      MPI_Irecv(p->rbuf, count_of(op->bytes), MPI_BYTE, (int)op->peer, 0, sh,
                &q->req);
  }
}

/* Waits for round r's operations (restored ones included: they are in the
 * table, their handles rebound) and forgets them. */
static void wait_round(struct rp *p, const struct ft_csched *c, size_t r) {
  for (uint32_t i = 0; i < c->rounds[r].n; i++) {
    struct rp_req *q = rp_find_req(p, ROUND_ID - i);
    if (!q) {
      rp_fatal(p, "a collective's round lost a request");
      p->bad++;
      continue;
    }
    if (!q->complete)
      MPI_Wait(&q->req, MPI_STATUS_IGNORE);
    rp_drop_req(p, ROUND_ID - i);
  }
}

/* One round, with its checkpoint location: once its posts are made, its
 * messages in flight (the first safe point after the previous round's
 * wait; before the first round, replay.c's before the call). The posts
 * are marked made before that ft_snapshot, so that a restore does not
 * make them twice. A restore happens only at the first ft_snapshot after
 * a restart (replay.c, at_cut), never in here. */
static void one_round(struct rp *p, const struct ft_csched *c, MPI_Comm sh,
                      uint32_t comm) {
  size_t r = (size_t)p->ac.round;
  if (!p->ac.posted) {
    post_round(p, c, r, sh, comm);
    p->ac.posted = 1;
    ft_snapshot();
  }
  wait_round(p, c, r);
}

void rp_alone_coll(struct rp *p, const struct ft_rt_coll *e) {
  struct ft_csched c = {0};
  size_t ncounts = 0;
  MPI_Comm sh = e->comm < p->t.ncomms ? p->shadow[e->comm] : MPI_COMM_NULL;
  if (rp_schedule_of(p, e, &c, &ncounts) == 0 && c.nrounds > 0 &&
      sh == MPI_COMM_NULL) {
    rp_fatal(p, "a collective on a communicator without its shadow");
    p->bad++;
  } else {
    for (; p->ac.round < c.nrounds; p->ac.round++, p->ac.posted = 0)
      one_round(p, &c, sh, e->comm);
  }
  p->vcpos += ncounts;
  ft_csched_free(&c);
}
