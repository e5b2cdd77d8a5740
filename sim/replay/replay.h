/* The replay program's state (replay.c), shared with its any-call path
 * (replay_ac.c). */
#ifndef FT_REPLAY_H
#define FT_REPLAY_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "rtrace.h"
#include "rtrace_events.h"

/* A request posted by the replay, under its recorded id. */
struct rp_req {
  uint64_t id;
  MPI_Request req;
  int complete;  /* completed early by a test the trace said failed */
  int truncated; /* a receive recorded as truncated (FT_RT_TRUNCATED) */
  MPI_Status st;
  /* Its post, for FT_AC_REPOST (rp_alone_repost): a send or a receive of
   * `bytes` with `peer` and `tag` on trace communicator `comm`, or on its
   * shadow (a collective's round), made at event `at_event`, operation
   * `at_op` of its round: the posting order. */
  int send, on_shadow;
  int32_t peer, tag;
  uint32_t comm;
  uint64_t bytes, at_event, at_op;
};

/* Where the any-call replay stands inside the event at `pos` (protected
 * with it, updated before each call of the transport that may checkpoint:
 * sim/ft_anycall.h). */
struct rp_ac_pos {
  uint64_t round;  /* the collective's round under way */
  uint64_t posted; /* 1: the current round's (or event's) posts are made */
};

/* The arrays of a completion call, sized once for the rank's largest: no
 * allocation per call (the replay's malloc goes through the runtime's
 * application-heap wrappers). */
struct rp_scratch {
  uint32_t *idx;
  MPI_Request *rq;
  MPI_Status *st, *tmp;
  int *ix;
  struct rp_req **qs;
};

struct rp {
  int rank;
  double speed;           /* flop/s per recorded second */
  struct ft_rtrace_one t; /* the communicators and this rank's events */
  const struct ft_rtrace_rank *me;
  MPI_Comm *comms;  /* t->ncomms, by trace id */
  MPI_Comm *shadow; /* FT_AC_ALONE: each one's duplicate, for collectives */
  struct rp_req *reqs;
  size_t nreqs, capreqs;
  char *sbuf, *rbuf;
  uint64_t bufsize; /* any-call mode: the largest message of every rank */
  uint64_t *vc;     /* this rank's v-collective counts, in event order */
  size_t nvc, vcpos;
  uint64_t *cuts; /* the world collectives that are cuts, increasing */
  size_t ncuts;
  uint64_t wcoll;        /* world collectives carried out */
  MPI_Op noncommutative; /* MPI_BOR's twin, declared not commutative */
  int alone;     /* the protocol checkpoints each rank alone (message logging):
                    a checkpoint at every call where this rank has no request
                    pending, not only at cuts */
  int ac_alone;  /* ... and at any call, requests pending or not
                    (FT_AC_ALONE): the request table (capreqs fixed) is in
                    the image */
  int ac_repost; /* c3 (FT_AC_REPOST): at any call too, every rank rolled
                    back; the replay posts the receives its image held
                    pending again itself */
  int ac_calls;  /* ac_alone or ac_repost: a checkpoint location before
                    every MPI call, collectives as rounds */
  uint8_t *unposted; /* message logging: per event, 1 for an irecv the trace
                        says was cancelled, which is not posted (NULL: none
                        is skipped) */
  size_t pos;        /* the event under way */
  long bad;          /* mismatches and failures */
  struct rp_ac_pos ac;
  struct rp_scratch s;
};

/* Prints "replay: rank R, event E: what" on stderr. */
void rp_fatal(const struct rp *p, const char *what);

/* The request table (replay.c): a new entry for trace request `id` (its
 * handle to be set by the caller), the entry of `id` (NULL if none), and
 * its removal (none if absent); `truncated`: the trace says the receive
 * was truncated (FT_RT_TRUNCATED). rp_add_req stops the run when the table
 * is full in FT_AC_ALONE mode (its capacity comes from the trace). */
struct rp_req *rp_add_req(struct rp *p, uint64_t id, int truncated);
struct rp_req *rp_find_req(struct rp *p, uint64_t id);
void rp_drop_req(struct rp *p, uint64_t id);

struct ft_csched;
struct ft_rt_coll;

/* This rank's schedule of collective e (csched.h; replay_ac.c), with the
 * counts at p->vcpos (the caller adds *ncounts to p->vcpos when the
 * collective is done: a restore builds it again from the same counts).
 * 0, or -1 (reported, p->bad counted). */
int rp_schedule_of(struct rp *p, const struct ft_rt_coll *e,
                   struct ft_csched *c, size_t *ncounts);

/* ---- FT_AC_ALONE and FT_AC_REPOST modes (replay_alone.c;
 * sim/ft_anycall.h): message logging (each rank alone) or c3 (every rank
 * rolled back) checkpoints before any MPI call, requests pending or not,
 * and inside collectives, carried out as rounds of point-to-point messages
 * on shadow communicators. ---- */

/* Sets the mode up before the first ft_snapshot: the request table at its
 * largest size and the collectives' position protected, buffers for the
 * largest message of any rank (p->bufsize), the world's shadow. 0, or -1
 * (out of memory; reported). */
int rp_alone_start(struct rp *p);
/* Right after ft_snapshot restored: the handles of the requests the image
 * held pending are made valid again (ft_ac_requests_restored). */
void rp_alone_rebind(struct rp *p);
/* FT_AC_REPOST, right after ft_snapshot restored and the communicators
 * made before the restored position were made again: every request the
 * image held pending gets a new handle, in posting order: a send is
 * complete (its message left before the checkpoint: its receiver had it
 * before its own checkpoint or logged it as late, which the protocol's
 * commit waits for), a receive is posted again as first posted (its
 * message comes again from its sender: re-executed, or a late one sent
 * again from the receiver's log). */
void rp_alone_repost(struct rp *p);
/* Notes where request q was posted (struct rp_req's post fields), at the
 * current event; `op`: its operation's number in a collective's round
 * (on_shadow), else 0. */
void rp_note_post(const struct rp *p, struct rp_req *q, int send, int32_t peer,
                  int32_t tag, uint32_t comm, uint64_t bytes, int on_shadow,
                  uint64_t op);
/* Trace communicator c was just made (p->comms[c]; MPI_COMM_NULL: not a
 * member): its shadow is made too, collectively over its members, or, for
 * FT_RT_COMM_FREE, freed (free != 0). */
void rp_alone_shadow(struct rp *p, uint32_t c, int free);
/* Collective e as its schedule's rounds (rp_schedule_of) on the shadow of
 * its communicator, from round p->ac.round (posts made if p->ac.posted),
 * with an ft_snapshot after each round's posts. */
void rp_alone_coll(struct rp *p, const struct ft_rt_coll *e);

/* The any-call replay (replay_ac.c): carries out the rank's events from
 * p->pos through the any-call transport (sim/ft_anycall.h), the
 * transport started; returns how many were. */
size_t rp_replay_anycall(struct rp *p);

/* The largest tag among the rank's point-to-point events (0 if none). */
int32_t rp_max_tag(const struct ft_rtrace_rank *me);

#endif /* FT_REPLAY_H */
