/* The replay program of `ftsim run --replay TRACE` (issue 16, item 2): a
 * module linked with the runtime like a workload, which reads its own
 * rank's events from a recorded trace (sim/rtrace) and carries them out as
 * MPI calls, so that they go through the runtime and its protocol exactly
 * as the recorded program's did.
 *
 *   replay TRACE SPEED COUNTS CUTS [ALONE [MAXBYTES [EVENTS]]]
 *
 * SPEED: flop/s of the recording host when the trace does not tell it (a
 * Score-P archive), and the speed at which a SimGrid TI trace's flops were
 * turned into seconds; computation is replayed as
 * ft_compute(compute_s * host_speed) flops, which the platform's host speed
 * turns into simulated time. COUNTS: the file of the other ranks' counts
 * that gatherv, scatterv, allgatherv, alltoallv/w and reduce_scatter need
 * (ft_rtrace_write_vcounts, written by the CLI from the whole trace), or
 * "-". CUTS: the world collectives (their k, one per line) that are
 * consistent cuts (ft_rtrace_cuts), or "-": before each, the replay calls
 * ft_snapshot, its position protected, so that the protocol checkpoints
 * there and a rollback resumes there. ALONE: "alone" when the protocol
 * checkpoints each rank alone (message logging), else "-". MAXBYTES: the
 * largest message of
 * any rank (the CLI reads the whole trace), for the any-call mode: there
 * (sim/ft_anycall.h, a protocol whose core checkpoints at any call) the
 * events go through replay_ac.c instead, and the cuts are not used.
 * Under message logging in any-call mode (ft_ac_mode() == FT_AC_ALONE),
 * and under c3 (FT_AC_REPOST), the replay keeps its MPI calls, calls
 * ft_snapshot before every one of them, requests pending or not, and
 * carries collectives out as rounds (replay_alone.c).
 * EVENTS: the events file the CLI wrote from the trace it read whole
 * (ft_rtrace_write_events), from which the rank reads the communicators
 * and its own events; without it (or "-"), each rank reads TRACE itself.
 *
 * No payload moves: every buffer comes from SMPI_SHARED_MALLOC (SimGrid
 * skips the copies of shared blocks and maps them onto the same pages), one
 * send and one receive buffer per rank, of the largest size the rank's
 * events need. Choices (README, "Your program, unmodified"):
 * - a receive posted with a wildcard is replayed with the matched source
 *   and tag, as SimGrid's replay does, so the replay is deterministic;
 * - a completion call completes the requests the trace says it completed:
 *   a wait* as MPI_Waitall on them, a test* as MPI_Testall on them then,
 *   if they are not all complete yet, MPI_Waitall; a request a test found
 *   not complete is tested with MPI_Test (and, if it completed, kept as
 *   complete until the trace completes it);
 * - an MPI_Iprobe is replayed, its answer not checked (it depends on the
 *   timing); a blocking probe is checked like a receive;
 * - under message logging, which refuses MPI_Cancel of a receive (whether
 *   it succeeds depends on timing a restarted rank cannot reproduce:
 *   sim/runtime/p2p.c), a receive the trace says was cancelled is not
 *   posted: it took no message, and its completion reports it cancelled;
 *   elsewhere it is posted and cancelled, as recorded;
 * - MPI_Comm_create and a split whose color the trace does not tell
 *   (Score-P) are replayed as MPI_Comm_split with color the new
 *   communicator's first member and key this rank's place in it.
 *
 * Self-check: every completed receive's status (source, tag, size) must be
 * the recorded one; a mismatch prints rank, event and both values on stderr.
 * A receive recorded as truncated (FT_RT_TRUNCATED: its message was longer
 * than it) is posted with its recorded size, so the sender's whole message
 * goes on the wire and the receive gets MPI_ERR_TRUNCATE again: the call
 * is made with MPI_ERRORS_RETURN on its communicator (a completion call's
 * error goes through MPI_COMM_WORLD's: the runtime's errors.c), as the
 * recorded program had it, and the check wants that error; any other
 * receive must not be truncated.
 * The rank reports ft_report_result(verified, events replayed): verified
 * when every event was carried out and every receive matched. */
#include <inttypes.h>
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"
#include "ft_anycall.h"
#include "rtrace.h"

#include "replay.h"

void rp_fatal(const struct rp *p, const char *what) {
  fprintf(stderr, "replay: rank %d, event %zu: %s\n", p->rank, p->pos, what);
}

static int is_truncation(int code) {
  int cls = code;
  if (code != MPI_SUCCESS)
    MPI_Error_class(code, &cls);
  return cls == MPI_ERR_TRUNCATE;
}

/* Checks a completed receive against the recorded source, tag, size and
 * truncation (`cut`): truncated when the call's code rc or the status (where
 * SMPI leaves a receive's error: sim/backend.h, ft_backend_status_error)
 * says MPI_ERR_TRUNCATE. */
static void check_status(struct rp *p, const MPI_Status *st, int rc,
                         int32_t peer, int32_t tag, uint64_t bytes, int cut) {
  int count = 0;
  MPI_Get_count(st, MPI_BYTE, &count);
  int seen = is_truncation(rc) || is_truncation(st->MPI_ERROR);
  if (st->MPI_SOURCE == peer && st->MPI_TAG == tag &&
      (uint64_t)count == bytes && seen == cut)
    return;
  fprintf(stderr,
          "replay: rank %d, event %zu: received source %d tag %d bytes %d%s, "
          "recorded source %" PRId32 " tag %" PRId32 " bytes %" PRIu64 "%s\n",
          p->rank, p->pos, st->MPI_SOURCE, st->MPI_TAG, count,
          seen ? " truncated" : "", peer, tag, bytes, cut ? " truncated" : "");
  p->bad++;
}

/* When `on`: errors on communicator c return to the replay from now on
 * (MPI_ERRORS_RETURN), for a call whose receive the trace says was
 * truncated. Returns `on`, for strict(). */
static int tolerant(MPI_Comm c, int on) {
  if (on)
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  return on;
}

/* Undoes tolerant(c, was): errors end the run again (the default). */
static void strict(MPI_Comm c, int was) {
  if (was)
    MPI_Comm_set_errhandler(c, MPI_ERRORS_ARE_FATAL);
}

static int count_of(uint64_t bytes) {
  return bytes > (uint64_t)INT32_MAX ? INT32_MAX : (int)bytes;
}

static MPI_Comm comm_of(struct rp *p, uint32_t c) {
  if (c < p->t.ncomms && p->comms[c] != MPI_COMM_NULL)
    return p->comms[c];
  rp_fatal(p, "communicator not created");
  p->bad++;
  return MPI_COMM_WORLD;
}

struct rp_req *rp_add_req(struct rp *p, uint64_t id, int truncated) {
  if (p->nreqs == p->capreqs && p->ac_calls) { /* protected: cannot move */
    rp_fatal(p, "more requests pending than the trace has (divergence)");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (p->nreqs == p->capreqs) {
    p->capreqs = p->capreqs ? 2 * p->capreqs : 16;
    p->reqs = realloc(p->reqs, p->capreqs * sizeof *p->reqs);
    if (!p->reqs) {
      rp_fatal(p, "out of memory");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  struct rp_req *q = &p->reqs[p->nreqs++];
  memset(q, 0, sizeof *q);
  q->id = id;
  q->truncated = truncated;
  return q;
}

struct rp_req *rp_find_req(struct rp *p, uint64_t id) {
  for (size_t i = 0; i < p->nreqs; i++)
    if (p->reqs[i].id == id)
      return &p->reqs[i];
  return NULL;
}

void rp_note_post(const struct rp *p, struct rp_req *q, int send, int32_t peer,
                  int32_t tag, uint32_t comm, uint64_t bytes, int on_shadow,
                  uint64_t op) {
  q->send = send;
  q->peer = peer;
  q->tag = tag;
  q->comm = comm;
  q->bytes = bytes;
  q->on_shadow = on_shadow;
  q->at_event = p->pos;
  q->at_op = op;
}

void rp_drop_req(struct rp *p, uint64_t id) {
  struct rp_req *q = rp_find_req(p, id);
  if (q)
    *q = p->reqs[--p->nreqs];
}

/* A receive the trace says was cancelled, not posted (p->unposted):
 * complete, cancelled, from the start. */
static void unposted(struct rp_req *q) {
  q->req = MPI_REQUEST_NULL;
  q->complete = 1;
  q->st.MPI_ERROR = MPI_SUCCESS;
  q->st.MPI_SOURCE = MPI_ANY_SOURCE;
  q->st.MPI_TAG = MPI_ANY_TAG;
  MPI_Status_set_cancelled(&q->st, 1);
}

static void do_p2p(struct rp *p, uint8_t kind, const struct ft_rt_p2p *e) {
  MPI_Comm c = comm_of(p, e->comm);
  int n = count_of(e->bytes);
  int sync = (e->flags & FT_RT_SYNC) != 0;
  int src = e->peer == FT_RT_UNKNOWN ? MPI_ANY_SOURCE : e->peer;
  int tag = e->tag == FT_RT_UNKNOWN ? MPI_ANY_TAG : e->tag;
  int cut = (e->flags & FT_RT_TRUNCATED) != 0;
  MPI_Status st;
  switch (kind) {
  case FT_RT_SEND:
    (sync ? MPI_Ssend : MPI_Send)(p->sbuf, n, MPI_BYTE, e->peer, e->tag, c);
    return;
  case FT_RT_ISEND: {
    struct rp_req *q = rp_add_req(p, e->request, 0);
    rp_note_post(p, q, 1, e->peer, e->tag, e->comm, e->bytes, 0, 0);
    (sync ? MPI_Issend : MPI_Isend)(p->sbuf, n, MPI_BYTE, e->peer, e->tag, c,
                                    &q->req);
    return;
  }
  case FT_RT_RECV: {
    st.MPI_ERROR = MPI_SUCCESS;
    int was = tolerant(c, cut);
    int rc = MPI_Recv(p->rbuf, n, MPI_BYTE, src, tag, c, &st);
    strict(c, was);
    check_status(p, &st, rc, e->peer, e->tag, e->bytes, cut);
    return;
  }
  default: { /* FT_RT_IRECV */
    if (p->unposted && p->unposted[p->pos]) {
      unposted(rp_add_req(p, e->request, 0));
      return;
    }
    struct rp_req *q = rp_add_req(p, e->request, cut);
    rp_note_post(p, q, 0, src, tag, e->comm, e->bytes, 0, 0);
    MPI_Irecv(p->rbuf, n, MPI_BYTE, src, tag, c, &q->req);
  }
  }
}

/* A half to or from MPI_PROC_NULL is recorded with peer FT_RT_UNKNOWN. */
static void do_sendrecv(struct rp *p, const struct ft_rt_sendrecv *e) {
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  int dest = e->dest == FT_RT_UNKNOWN ? MPI_PROC_NULL : e->dest;
  int src = e->source == FT_RT_UNKNOWN ? MPI_PROC_NULL : e->source;
  int cut = (e->flags & FT_RT_TRUNCATED) != 0;
  MPI_Comm c = comm_of(p, e->comm);
  int was = tolerant(c, cut);
  int rc = MPI_Sendrecv(p->sbuf, count_of(e->send_bytes), MPI_BYTE, dest,
                        e->send_tag, p->rbuf, count_of(e->recv_bytes), MPI_BYTE,
                        src, e->recv_tag, c, &st);
  strict(c, was);
  if (src != MPI_PROC_NULL)
    check_status(p, &st, rc, e->source, e->recv_tag, e->recv_bytes, cut);
}

/* MPI_Cancel, or (FT_RT_FREE) MPI_Request_free: the request is dropped,
 * its operation goes on unobserved. */
static void do_cancel(struct rp *p, const struct ft_rt_p2p *e) {
  struct rp_req *q = rp_find_req(p, e->request);
  if (q && (e->flags & FT_RT_FREE)) {
    if (!q->complete)
      MPI_Request_free(&q->req);
    rp_drop_req(p, e->request);
  } else if (q && !q->complete) {
    MPI_Cancel(&q->req);
  }
}

/* Checks the status of a completed entry of a completion call. */
static void check_done(struct rp *p, const struct ft_rt_done *d,
                       const MPI_Status *st) {
  if (d->status == FT_RT_DONE && d->is_recv)
    check_status(p, st, MPI_SUCCESS, d->peer, d->tag, d->bytes, d->truncated);
}

/* A call that completed one request returned rc: a truncation goes to
 * its status, where the checks look (multiple completions put it there
 * themselves: MPI_ERR_IN_STATUS). Returns rc. */
static int in_status(int rc, MPI_Status *st) {
  if (is_truncation(rc))
    st->MPI_ERROR = MPI_ERR_TRUNCATE;
  return rc;
}

/* Tests the requests a test call found not complete, in one call of the
 * recorded kind (MPI_Test, MPI_Testall, MPI_Testany, MPI_Testsome: SMPI
 * charges each kind its own time); those it completes stay complete until
 * the trace completes them. */
static void test_not_done(struct rp *p, uint8_t call,
                          const struct ft_rt_done *d, uint32_t n,
                          MPI_Request *rq, MPI_Status *st, int *idx) {
  struct rp_req **qs = p->s.qs;
  int m = 0, flag = 0, outcount = 0;
  for (uint32_t k = 0; k < n; k++) {
    struct rp_req *q = rp_find_req(p, d[k].request);
    if (d[k].status == FT_RT_NOT_DONE && q && !q->complete)
      qs[m] = q, rq[m++] = q->req;
  }
  if (m == 1 && call == FT_RT_TEST) {
    in_status(MPI_Test(rq, &flag, st), st);
    if (flag)
      qs[0]->complete = 1, qs[0]->st = st[0];
  } else if (m && (call == FT_RT_TEST || call == FT_RT_TESTALL)) {
    MPI_Testall(m, rq, &flag, st);
    for (int k = 0; flag && k < m; k++)
      qs[k]->complete = 1, qs[k]->st = st[k];
  } else if (m && call == FT_RT_TESTANY) {
    int one = MPI_UNDEFINED;
    in_status(MPI_Testany(m, rq, &one, &flag, st), st);
    if (flag && one != MPI_UNDEFINED)
      qs[one]->complete = 1, qs[one]->st = st[0];
  } else if (m) {
    MPI_Testsome(m, rq, &outcount, idx, st);
    for (int k = 0; k < outcount; k++)
      qs[idx[k]]->complete = 1, qs[idx[k]]->st = st[k];
  }
}

static int is_test(uint8_t call) {
  return call == FT_RT_TEST || call == FT_RT_TESTALL || call == FT_RT_TESTANY ||
         call == FT_RT_TESTSOME;
}

/* Waits for the m requests with the recorded kind of call: a waitany or
 * waitsome as MPI_Waitany or MPI_Waitsome on them until all are complete
 * (the runtime completes those calls its own way), else MPI_Waitall.
 * st[j] gets rq[j]'s status. */
static void wait_kind(struct rp *p, uint8_t call, uint32_t m, MPI_Request *rq,
                      MPI_Status *st) {
  if (call != FT_RT_WAITANY && call != FT_RT_WAITSOME) {
    MPI_Waitall((int)m, rq, st);
    return;
  }
  int *ix = p->s.ix;
  MPI_Status *tmp = p->s.tmp;
  for (uint32_t left = m; left > 0;) {
    int out = 0;
    if (call == FT_RT_WAITSOME) {
      MPI_Waitsome((int)m, rq, &out, ix, tmp);
    } else {
      in_status(MPI_Waitany((int)m, rq, &ix[0], &tmp[0]), &tmp[0]);
      out = ix[0] == MPI_UNDEFINED ? 0 : 1;
    }
    if (out <= 0 || out == MPI_UNDEFINED)
      break;
    for (int k = 0; k < out; k++)
      st[ix[k]] = tmp[k];
    left -= (uint32_t)out;
  }
}

/* Waits for those of the m requests still active: an MPI_Testall that
 * found them not all complete may have completed (and nulled) some, their
 * statuses in st, as SMPI's and the runtime's do under every protocol;
 * waiting on all m again overwrote those statuses with empty ones (under
 * message logging a replay of cg with checkpoints then received "source 0
 * tag 0"). */
static void wait_rest(struct rp *p, uint8_t call, uint32_t m, MPI_Request *rq,
                      MPI_Status *st) {
  uint32_t *at = malloc((m + 1) * sizeof *at), left = 0;
  MPI_Request *rest = malloc((m + 1) * sizeof *rest);
  MPI_Status *rst = calloc(m + 1, sizeof *rst); /* MPI_ERROR: MPI_SUCCESS */
  if (!at || !rest || !rst) {
    rp_fatal(p, "out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (uint32_t j = 0; j < m; j++)
    if (rq[j] != MPI_REQUEST_NULL)
      at[left] = j, rest[left++] = rq[j];
  if (left)
    wait_kind(p, call, left, rest, rst);
  for (uint32_t k = 0; k < left; k++)
    st[at[k]] = rst[k], rq[at[k]] = MPI_REQUEST_NULL;
  free(at);
  free(rest);
  free(rst);
}

/* Completes the pending requests among the call's done entries. */
static void complete_pending(struct rp *p, const struct ft_rt_complete *c,
                             const struct ft_rt_done *d, uint32_t *idx,
                             MPI_Request *rq, MPI_Status *st) {
  uint32_t m = 0;
  for (uint32_t k = 0; k < c->count; k++) {
    struct rp_req *q = rp_find_req(p, d[k].request);
    if (d[k].status == FT_RT_NOT_DONE)
      continue;
    if (!q) {
      rp_fatal(p, "completion of a request never posted");
      p->bad++;
      continue;
    }
    if (q->complete) {
      check_done(p, &d[k], &q->st);
      continue;
    }
    idx[m] = k;
    rq[m++] = q->req;
  }
  int flag = 0;
  if (m == 1 && is_test(c->call))
    in_status(MPI_Test(rq, &flag, st), st);
  else if (m && is_test(c->call))
    MPI_Testall((int)m, rq, &flag, st);
  if (m && !flag)
    wait_rest(p, c->call, m, rq, st);
  for (uint32_t j = 0; j < m; j++)
    check_done(p, &d[idx[j]], &st[j]);
}

/* 1 when one of the call's n requests is a receive recorded as truncated:
 * its error is returned (through MPI_COMM_WORLD's handler). Clears the
 * statuses' errors (st and tmp, n + 1 each). */
static int truncates(struct rp *p, const struct ft_rt_done *d, uint32_t n) {
  int cut = 0;
  for (uint32_t k = 0; k < n; k++) {
    const struct rp_req *q = rp_find_req(p, d[k].request);
    cut |= d[k].truncated || (q && q->truncated);
  }
  for (uint32_t k = 0; k <= n; k++)
    p->s.st[k].MPI_ERROR = p->s.tmp[k].MPI_ERROR = MPI_SUCCESS;
  return cut;
}

static void do_complete(struct rp *p, const struct ft_rt_complete *c) {
  const struct ft_rt_done *d = &p->me->done[c->first];
  uint32_t *idx = p->s.idx;
  MPI_Request *rq = p->s.rq;
  MPI_Status *st = p->s.st;
  int was = tolerant(MPI_COMM_WORLD, truncates(p, d, c->count));
  test_not_done(p, c->call, d, c->count, rq, st, (int *)idx);
  complete_pending(p, c, d, idx, rq, st);
  strict(MPI_COMM_WORLD, was);
  for (uint32_t k = 0; k < c->count; k++)
    if (d[k].status != FT_RT_NOT_DONE)
      rp_drop_req(p, d[k].request);
}

static void do_probe(struct rp *p, const struct ft_rt_probe *e) {
  MPI_Comm c = comm_of(p, e->comm);
  int src = e->peer == FT_RT_ANY ? MPI_ANY_SOURCE : e->peer;
  int tag = e->tag == FT_RT_ANY ? MPI_ANY_TAG : e->tag;
  if (e->found == 1) { /* wildcards: the matched message, deterministic */
    src = e->msg_peer;
    tag = e->msg_tag;
  }
  MPI_Status st;
  if (!e->blocking) {
    int flag = 0;
    MPI_Iprobe(src, tag, c, &flag, &st);
    return;
  }
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Probe(src, tag, c, &st);
  if (e->found == 1)
    check_status(p, &st, MPI_SUCCESS, e->msg_peer, e->msg_tag, e->msg_bytes, 0);
}

/* The communicator's size. */
static uint64_t size_of(struct rp *p, MPI_Comm c) {
  int n = 1;
  MPI_Comm_size(c, &n);
  (void)p;
  return (uint64_t)n;
}

/* A reduction's operation: MPI_BOR, or its non-commutative twin when the
 * recorded operation was not commutative (the runtime then reduces in
 * rank order, with other messages than a tree). */
static MPI_Op op_of(const struct rp *p, const struct ft_rt_coll *e) {
  return (e->flags & FT_RT_NONCOMMUTATIVE) ? p->noncommutative : MPI_BOR;
}

/* The elements a commutative reduction of `bytes` is replayed in. The
 * recording keeps bytes, not the type, and the runtime picks some
 * algorithms by the count of elements (SMPI's lr allreduce: fewer elements
 * than ranks is a reduce + bcast): 8-byte elements (doubles and longs, most
 * reductions) when they divide the bytes, 4-byte ones then, bytes else;
 * MPI_BOR is defined on all three. csched.c's elem_bytes is the same. */
static MPI_Datatype elem_of(uint64_t bytes, int *count) {
  MPI_Datatype t = bytes % 8 == 0   ? MPI_UNSIGNED_LONG_LONG
                   : bytes % 4 == 0 ? MPI_UNSIGNED
                                    : MPI_BYTE;
  *count = count_of(bytes % 8 == 0   ? bytes / 8
                    : bytes % 4 == 0 ? bytes / 4
                                     : bytes);
  return t;
}

/* A reduction of e->sent bytes (op_of's operation). */
static void reduce_of(struct rp *p, const struct ft_rt_coll *e, MPI_Comm c,
                      int root) {
  int count = count_of(e->sent);
  MPI_Datatype t = MPI_BYTE;
  if (!(e->flags & FT_RT_NONCOMMUTATIVE))
    t = elem_of(e->sent, &count);
  if (root < 0)
    MPI_Allreduce(p->sbuf, p->rbuf, count, t, op_of(p, e), c);
  else
    MPI_Reduce(p->sbuf, p->rbuf, count, t, op_of(p, e), root, c);
}

/* Rooted collectives: bcast, reduce, gather, scatter. */
static void do_rooted(struct rp *p, const struct ft_rt_coll *e, MPI_Comm c,
                      uint64_t n) {
  int me = -1;
  MPI_Comm_rank(c, &me);
  int root = me == e->root;
  switch (e->op) {
  case FT_RT_BCAST:
    MPI_Bcast(p->sbuf, count_of(root ? e->sent : e->recvd), MPI_BYTE, e->root,
              c);
    return;
  case FT_RT_REDUCE:
    reduce_of(p, e, c, e->root);
    return;
  case FT_RT_GATHER:
    MPI_Gather(p->sbuf, count_of(e->sent), MPI_BYTE, p->rbuf,
               count_of(root ? e->recvd / n : 0), MPI_BYTE, e->root, c);
    return;
  default: /* FT_RT_SCATTER */
    MPI_Scatter(p->sbuf, count_of(root ? e->sent / n : 0), MPI_BYTE, p->rbuf,
                count_of(e->recvd), MPI_BYTE, e->root, c);
  }
}

/* Takes the next n counts as ints (NULL, reported, when short). */
static int *take_counts(struct rp *p, size_t n) {
  if (p->vcpos + n > p->nvc) {
    rp_fatal(p, "no counts for this collective (replay without its counts "
                "file?)");
    p->bad++;
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int *v = malloc((n + 1) * sizeof *v);
  if (!v) {
    rp_fatal(p, "out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < n; i++)
    v[i] = count_of(p->vc[p->vcpos + i]);
  p->vcpos += n;
  return v;
}

/* Displacements 0: the shared buffers hold no data, only room. */
static int *zeros(size_t n) { return calloc(n + 1, sizeof(int)); }

/* Gatherv, scatterv, allgatherv, reduce_scatter, alltoallv/w with the
 * counts the CLI matched across the ranks. */
static void do_vcoll(struct rp *p, const struct ft_rt_coll *e, MPI_Comm c,
                     uint64_t n) {
  int me = -1;
  MPI_Comm_rank(c, &me);
  int root = me == e->root, *cnt = NULL, *cnt2 = NULL, *dz = zeros(n);
  switch (e->op) {
  case FT_RT_GATHERV:
    cnt = root ? take_counts(p, n) : NULL;
    MPI_Gatherv(p->sbuf, count_of(e->sent), MPI_BYTE, p->rbuf, cnt, dz,
                MPI_BYTE, e->root, c);
    break;
  case FT_RT_SCATTERV:
    cnt = root ? take_counts(p, n) : NULL;
    MPI_Scatterv(p->sbuf, cnt, dz, MPI_BYTE, p->rbuf, count_of(e->recvd),
                 MPI_BYTE, e->root, c);
    break;
  case FT_RT_ALLGATHERV:
    cnt = take_counts(p, n);
    MPI_Allgatherv(p->sbuf, count_of(e->sent), MPI_BYTE, p->rbuf, cnt, dz,
                   MPI_BYTE, c);
    break;
  case FT_RT_REDUCE_SCATTER:
    cnt = take_counts(p, n);
    MPI_Reduce_scatter(p->sbuf, p->rbuf, cnt, MPI_BYTE, op_of(p, e), c);
    break;
  default: /* FT_RT_ALLTOALLV, FT_RT_ALLTOALLW (their own algorithms) */
    cnt = take_counts(p, n);
    cnt2 = take_counts(p, n);
    if (e->op == FT_RT_ALLTOALLV) {
      MPI_Alltoallv(p->sbuf, cnt, dz, MPI_BYTE, p->rbuf, cnt2, dz, MPI_BYTE, c);
      break;
    }
    MPI_Datatype *bytes = malloc(n * sizeof *bytes);
    if (!bytes)
      rp_fatal(p, "out of memory for an alltoallw's types");
    for (uint64_t i = 0; bytes && i < n; i++)
      bytes[i] = MPI_BYTE;
    if (bytes)
      MPI_Alltoallw(p->sbuf, cnt, dz, bytes, p->rbuf, cnt2, dz, bytes, c);
    free(bytes);
  }
  free(cnt);
  free(cnt2);
  free(dz);
}

/* Collectives with the recorded sizes, in MPI_BYTE; reductions with
 * MPI_BOR, which MPI allows on MPI_BYTE. */
static void do_coll(struct rp *p, const struct ft_rt_coll *e) {
  if (p->ac_calls) { /* rounds, a checkpoint possible amid them */
    rp_alone_coll(p, e);
    return;
  }
  MPI_Comm c = comm_of(p, e->comm);
  uint64_t n = size_of(p, c);
  switch (e->op) {
  case FT_RT_BARRIER:
    MPI_Barrier(c);
    return;
  case FT_RT_ALLREDUCE:
    reduce_of(p, e, c, -1);
    return;
  case FT_RT_SCAN:
    MPI_Scan(p->sbuf, p->rbuf, count_of(e->sent), MPI_BYTE, MPI_BOR, c);
    return;
  case FT_RT_EXSCAN:
    MPI_Exscan(p->sbuf, p->rbuf, count_of(e->sent), MPI_BYTE, MPI_BOR, c);
    return;
  case FT_RT_ALLGATHER:
    MPI_Allgather(p->sbuf, count_of(e->sent), MPI_BYTE, p->rbuf,
                  count_of(e->recvd / n), MPI_BYTE, c);
    return;
  case FT_RT_ALLTOALL:
    MPI_Alltoall(p->sbuf, count_of(e->sent / n), MPI_BYTE, p->rbuf,
                 count_of(e->recvd / n), MPI_BYTE, c);
    return;
  case FT_RT_REDUCE_SCATTER_BLOCK:
    MPI_Reduce_scatter_block(p->sbuf, p->rbuf, count_of(e->recvd), MPI_BYTE,
                             op_of(p, e), c);
    return;
  default:
    if (ft_rtrace_coll_needs_counts(e->op))
      do_vcoll(p, e, c, n);
    else
      do_rooted(p, e, c, n);
  }
}

/* This rank's color and key for a new communicator, from its members:
 * color the first member, key this rank's place (MPI_UNDEFINED when this
 * rank got MPI_COMM_NULL). */
static void derive_split(const struct rp *p, uint32_t newc, int *color,
                         int *key) {
  *color = MPI_UNDEFINED;
  *key = 0;
  if (newc >= p->t.ncomms || !p->t.comms[newc].members)
    return;
  const struct ft_rt_comm *m = &p->t.comms[newc];
  *color = (int)m->members[0];
  for (uint32_t i = 0; i < m->size; i++)
    if ((int)m->members[i] == p->rank)
      *key = (int)i;
}

/* A communicator made from a group (MPI_Comm_create, _create_group, a
 * topology): by its members alone, as MPI_Comm_create_group of the
 * recorded members in their order, tag 0: a rank's creations are made in
 * the recorded order, which every member shares (the runtime counts a
 * communicator's calls per group and tag; MPI_Comm_create_group is
 * collective over the group only; a split over
 * the parent deadlocked when only the group's members made it, as
 * tests/runtime/cover_check does). A rank that got MPI_COMM_NULL makes
 * nothing. */
static void create_group(struct rp *p, MPI_Comm parent, uint32_t newc,
                         MPI_Comm *made) {
  *made = MPI_COMM_NULL;
  if (newc >= p->t.ncomms || !p->t.comms[newc].members)
    return;
  const struct ft_rt_comm *m = &p->t.comms[newc];
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, (int)m->size, (const int *)m->members, &group);
  MPI_Comm_create_group(parent, group, 0, made);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
}

static void do_comm(struct rp *p, const struct ft_rt_comm_ev *e) {
  MPI_Comm parent = comm_of(p, e->parent), made = MPI_COMM_NULL;
  if (e->op == FT_RT_COMM_FREE) {
    if (e->comm < p->t.ncomms && p->comms[e->comm] != MPI_COMM_NULL)
      MPI_Comm_free(&p->comms[e->comm]);
    if (p->ac_calls)
      rp_alone_shadow(p, e->comm, 1);
    return;
  }
  if (e->op == FT_RT_COMM_DUP) {
    MPI_Comm_dup(parent, &made);
  } else if (e->op == FT_RT_COMM_CREATE) {
    create_group(p, parent, e->comm, &made);
  } else {
    int color, key;
    derive_split(p, e->comm, &color, &key);
    if (e->op == FT_RT_COMM_SPLIT && e->color != FT_RT_UNKNOWN) {
      color = e->color;
      key = e->key == FT_RT_UNKNOWN ? key : e->key;
    }
    MPI_Comm_split(parent, color, key, &made);
  }
  if (e->comm < p->t.ncomms)
    p->comms[e->comm] = made;
  else if (made != MPI_COMM_NULL)
    MPI_Comm_free(&made);
  if (p->ac_calls)
    rp_alone_shadow(p, e->comm, 0);
}

static void do_event(struct rp *p, const struct ft_rt_event *e) {
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
    do_cancel(p, &e->u.p2p);
    return;
  case FT_RT_PROBE:
    do_probe(p, &e->u.probe);
    return;
  case FT_RT_COLL:
    do_coll(p, &e->u.coll);
    return;
  case FT_RT_COMM:
    do_comm(p, &e->u.comm);
    return;
  case FT_RT_COMPUTE:
    ft_compute(e->u.compute_s * p->speed);
    return;
  default: /* FT_RT_MEMORY: the image size, for checkpoints */
    return;
  }
}

/* The twin's function: the shared buffers hold no data to combine. */
static void no_combine(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in, (void)inout, (void)len, (void)type;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The largest buffer the rank's events send from (*s) or receive into. */
static void buffer_sizes(const struct ft_rtrace_rank *me, uint64_t *s,
                         uint64_t *r) {
  *s = *r = 1;
  for (size_t i = 0; i < me->n; i++) {
    const struct ft_rt_event *e = &me->ev[i];
    if (e->kind >= FT_RT_SEND && e->kind <= FT_RT_IRECV)
      *s = max_u64(*s, e->u.p2p.bytes), *r = max_u64(*r, e->u.p2p.bytes);
    else if (e->kind == FT_RT_SENDRECV)
      *s = max_u64(*s, e->u.sendrecv.send_bytes),
      *r = max_u64(*r, e->u.sendrecv.recv_bytes);
    else if (e->kind == FT_RT_COLL)
      *s = max_u64(*s, max_u64(e->u.coll.sent, e->u.coll.recvd)),
      *r = max_u64(*r, max_u64(e->u.coll.sent, e->u.coll.recvd));
  }
}

/* Reads the cuts file: one k per line. 0, or -1 (printed). */
static int read_cuts(struct rp *p, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "replay: rank %d: %s: cannot open\n", p->rank, path);
    return -1;
  }
  size_t cap = 0;
  for (unsigned long long k; fscanf(f, "%llu", &k) == 1;) {
    if (p->ncuts == cap) {
      cap = cap ? 2 * cap : 64;
      uint64_t *c = realloc(p->cuts, cap * sizeof *c);
      if (!c) {
        fclose(f);
        return -1;
      }
      p->cuts = c;
    }
    p->cuts[p->ncuts++] = (uint64_t)k;
  }
  fclose(f);
  return 0;
}

static int is_cut(const struct rp *p, uint64_t k) {
  size_t lo = 0, hi = p->ncuts;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->cuts[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < p->ncuts && p->cuts[lo] == k;
}

/* The irecv that posted request `id`, the last before event `end`. */
static size_t irecv_of(const struct ft_rtrace_rank *me, size_t end,
                       uint64_t id) {
  for (size_t j = end; j-- > 0;)
    if (me->ev[j].kind == FT_RT_IRECV && me->ev[j].u.p2p.request == id)
      return j;
  return end;
}

/* p->unposted: the irecvs whose completion the trace says was cancelled.
 * 0, or -1 when out of memory. */
static int find_cancelled(struct rp *p) {
  const struct ft_rtrace_rank *me = p->me;
  p->unposted = calloc(me->n + 1, 1);
  if (!p->unposted)
    return -1;
  for (size_t i = 0; i < me->n; i++) {
    if (me->ev[i].kind != FT_RT_COMPLETE)
      continue;
    const struct ft_rt_complete *c = &me->ev[i].u.complete;
    for (uint32_t k = 0; k < c->count; k++)
      if (me->done[c->first + k].status == FT_RT_CANCELLED)
        p->unposted[irecv_of(me, i, me->done[c->first + k].request)] = 1;
  }
  return 0;
}

/* The completion calls' arrays, for the rank's largest call; 0, or -1. */
static int make_scratch(struct rp *p) {
  size_t m = 1;
  for (size_t i = 0; i < p->me->n; i++)
    if (p->me->ev[i].kind == FT_RT_COMPLETE &&
        p->me->ev[i].u.complete.count >= m)
      m = (size_t)p->me->ev[i].u.complete.count + 1;
  struct rp_scratch *s = &p->s;
  s->idx = malloc(m * sizeof *s->idx);
  s->rq = malloc(m * sizeof *s->rq);
  s->st = malloc(m * sizeof *s->st);
  s->tmp = malloc(m * sizeof *s->tmp);
  s->ix = malloc(m * sizeof *s->ix);
  s->qs = malloc(m * sizeof *s->qs);
  return s->idx && s->rq && s->st && s->tmp && s->ix && s->qs ? 0 : -1;
}

/* This rank's share of the trace: from the events file the CLI wrote
 * (EVENTS), else read from the trace itself. 0, or -1 (printed). */
static int load(struct rp *p, const char *path, double speed,
                const char *events) {
  char err[1024] = "";
  if (events && strcmp(events, "-") != 0) {
    if (!ft_rtrace_read_events(events, (uint32_t)p->rank, &p->t, err,
                               sizeof err))
      return 0;
    fprintf(stderr, "replay: %s\n", err);
    return -1;
  }
  struct ft_rtrace *t = ft_rtrace_read(path, speed, p->rank, err, sizeof err);
  if (!t) {
    fprintf(stderr, "replay: rank %d: %s\n", p->rank, err);
    return -1;
  }
  if ((uint32_t)p->rank >= t->nranks) {
    fprintf(stderr, "replay: %s has %" PRIu32 " ranks, fewer than rank %d\n",
            path, t->nranks, p->rank);
    ft_rtrace_free(t);
    return -1;
  }
  ft_rtrace_take_one(t, (uint32_t)p->rank, &p->t);
  return 0;
}

/* Loads this rank's events and makes its buffers; 0, or -1 (printed).
 * opt: COUNTS, CUTS and EVENTS (NULL when not given). */
static int setup(struct rp *p, const char *path, double speed,
                 const char *const opt[3]) {
  char err[1024] = "";
  const char *counts = opt[0], *cuts = opt[1], *events = opt[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
  if (load(p, path, speed, events))
    return -1;
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if ((uint32_t)n != p->t.nranks) {
    fprintf(stderr, "replay: %s has %" PRIu32 " ranks, the run %d\n", path,
            p->t.nranks, n);
    return -1;
  }
  if (cuts && strcmp(cuts, "-") != 0 && read_cuts(p, cuts))
    return -1;
  if (counts && strcmp(counts, "-") != 0 &&
      ft_rtrace_read_vcounts(counts, (uint32_t)p->rank, &p->vc, &p->nvc, err,
                             sizeof err)) {
    fprintf(stderr, "replay: rank %d: %s\n", p->rank, err);
    return -1;
  }
  p->me = &p->t.me;
  p->speed = p->me->host_speed > 0 ? p->me->host_speed : speed;
  p->comms = calloc(p->t.ncomms, sizeof *p->comms);
  if (!p->comms)
    return -1;
  for (uint32_t c = 0; c < p->t.ncomms; c++)
    p->comms[c] = MPI_COMM_NULL;
  p->comms[FT_RT_COMM_WORLD] = MPI_COMM_WORLD;
  p->comms[FT_RT_COMM_SELF] = MPI_COMM_SELF;
  if (make_scratch(p) || (p->alone && find_cancelled(p)))
    return -1;
  uint64_t sb, rb;
  buffer_sizes(p->me, &sb, &rb);
  MPI_Op_create(no_combine, 0, &p->noncommutative);
  p->sbuf = SMPI_SHARED_MALLOC((size_t)sb);
  p->rbuf = SMPI_SHARED_MALLOC((size_t)rb);
  return 0;
}

static void teardown(struct rp *p) {
  if (p->sbuf)
    SMPI_SHARED_FREE(p->sbuf);
  if (p->rbuf)
    SMPI_SHARED_FREE(p->rbuf);
  if (p->noncommutative != MPI_OP_NULL)
    MPI_Op_free(&p->noncommutative);
  free(p->reqs);
  free(p->comms);
  free(p->shadow);
  free(p->vc);
  free(p->cuts);
  free(p->unposted);
  free(p->s.idx);
  free(p->s.rq);
  free(p->s.st);
  free(p->s.tmp);
  free(p->s.ix);
  free(p->s.qs);
  ft_rtrace_one_free(&p->t);
}

/* A checkpoint location: ft_snapshot. After a rollback the replay runs
 * again from its first event and the first location's ft_snapshot restores
 * the protected position (a later location): the communicators created or
 * freed in between are made again (every member skips the same events),
 * then the replay goes on from the restored location. A rank restarted
 * alone (message logging) cannot make a communicator again with members
 * that go on: its handles come back with the image instead (the library's
 * state survives ftsim's failures, as BLCR restores it; the runtime's
 * record of the communicators main() created resumes after them). Returns
 * 1 when it restored. */
static int at_cut(struct rp *p) {
  size_t here = p->pos;
  if (ft_snapshot() != FT_SNAPSHOT_RESTORED)
    return 0;
  if (p->ac_alone)
    rp_alone_rebind(p);
  for (size_t i = here; !p->alone && i < p->pos && i < p->me->n; i++)
    if (p->me->ev[i].kind == FT_RT_COMM)
      do_comm(p, &p->me->ev[i].u.comm);
  if (p->ac_repost) /* on the communicators just made again */
    rp_alone_repost(p);
  return 1;
}

static int is_world_coll(const struct ft_rt_event *e) {
  return e->kind == FT_RT_COLL && e->u.coll.comm == FT_RT_COMM_WORLD;
}

/* Any-call mode: buffers for the largest message of any rank (MAXBYTES:
 * a collective's round may carry one), the transport started, the
 * position restored by the first ft_snapshot after a rollback. No wait
 * before that ft_snapshot: the core, which resumes in the image's call,
 * must see no control message before the transport is restored. */
static size_t replay_anycall(struct rp *p) {
  uint64_t s, r, all = p->bufsize;
  buffer_sizes(p->me, &s, &r);
  all = max_u64(all, max_u64(s, r));
  SMPI_SHARED_FREE(p->sbuf);
  SMPI_SHARED_FREE(p->rbuf);
  p->sbuf = SMPI_SHARED_MALLOC((size_t)all);
  p->rbuf = SMPI_SHARED_MALLOC((size_t)all);
  p->bufsize = all;
  ft_ac_start(p->sbuf, p->rbuf, all, p->t.ncomms, rp_max_tag(p->me));
  ft_protect(5, &p->ac, sizeof p->ac);
  ft_snapshot();
  return rp_replay_anycall(p);
}

/* Whether the replay may checkpoint before event e: at a consistent cut
 * (a world collective the CLI found), or, when the protocol checkpoints
 * each rank alone, at any MPI call this rank makes with no request of its
 * own pending (its state is then its position alone: what it has
 * received and sent is counted by message logging's channels, which
 * resend and drop duplicates whatever is in flight); in FT_AC_ALONE and
 * FT_AC_REPOST modes at any MPI call, requests pending or not (the image
 * holds them: rp_alone_rebind, rp_alone_repost). */
static int is_checkpoint_location(const struct rp *p,
                                  const struct ft_rt_event *e) {
  if (is_world_coll(e) && is_cut(p, p->wcoll))
    return 1;
  return (p->ac_calls || (p->alone && p->nreqs == 0)) &&
         e->kind != FT_RT_COMPUTE && e->kind != FT_RT_MEMORY;
}

/* Carries out the rank's events; returns how many were. */
static size_t replay(struct rp *p) {
  char err[512];
  int restored = 0; /* the cut under p->pos was just restored */
  ft_protect(0, &p->pos, sizeof p->pos);
  ft_protect(1, &p->wcoll, sizeof p->wcoll);
  ft_protect(2, &p->vcpos, sizeof p->vcpos);
  ft_protect(3, &p->bad, sizeof p->bad);
  if (ft_ac_mode() == FT_AC_TRANSPORT)
    return replay_anycall(p);
  p->ac_alone = p->alone && ft_ac_mode() == FT_AC_ALONE;
  p->ac_repost = ft_ac_mode() == FT_AC_REPOST;
  p->ac_calls = p->ac_alone || p->ac_repost;
  if (p->alone)
    ft_protect(4, p->comms, p->t.ncomms * sizeof *p->comms);
  if (p->ac_calls) {
    uint64_t s, r;
    buffer_sizes(p->me, &s, &r);
    p->bufsize = max_u64(p->bufsize, max_u64(s, r));
    if (rp_alone_start(p))
      return 0;
  }
  while (p->pos < p->me->n) {
    const struct ft_rt_event *e = &p->me->ev[p->pos];
    if (!restored && is_checkpoint_location(p, e) && at_cut(p)) {
      restored = 1;
      continue;
    }
    restored = 0;
    if (ft_rtrace_replayable_event(e, (uint32_t)p->rank, p->pos, err,
                                   sizeof err)) {
      fprintf(stderr, "replay: %s\n", err);
      p->bad++;
      break;
    }
    do_event(p, e);
    p->wcoll += (uint64_t)is_world_coll(e);
    p->ac = (struct rp_ac_pos){0};
    p->pos++;
  }
  if (p->nreqs) {
    fprintf(stderr, "replay: rank %d: %zu requests never completed\n", p->rank,
            p->nreqs);
    p->bad++;
  }
  return p->pos;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct rp p;
  memset(&p, 0, sizeof p);
  p.noncommutative = MPI_OP_NULL;
  double speed = argc > 2 ? strtod(argv[2], NULL) : 1e9;
  if (argc < 2 || !(speed > 0)) {
    fprintf(stderr, "usage: replay TRACE SPEED (run by ftsim run --replay)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  p.alone = argc > 5 && strcmp(argv[5], "alone") == 0;
  p.bufsize = argc > 6 ? strtoull(argv[6], NULL, 10) : 0;
  const char *opt[3] = {argc > 3 ? argv[3] : NULL, argc > 4 ? argv[4] : NULL,
                        argc > 7 ? argv[7] : NULL};
  if (setup(&p, argv[1], speed, opt)) {
    teardown(&p);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  size_t done = replay(&p);
  ft_report_result(p.bad == 0 && done == p.me->n, (double)done);
  teardown(&p);
  MPI_Finalize();
  return 0;
}
