/* Message logging: the point-to-point operations of the application and of
 * the runtime's collectives, with their ids, sender-based copies, logged
 * events and replayed outcomes (see msglog.h). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "msglog.h"
#include "runtime/trace.h"

/* An operation's request, as the application (or a collective) holds it
 * (the elements of struct ft_ml_ops, ml_state.h). */
struct ft_ml_req {
  MPI_Request req;
  int64_t id;
  int recv, wildcard;
  int comm, coll;    /* the channel, but for a receive's peer and tag */
  int peer, tag;     /* send: destination (application rank) and tag */
  int64_t seq;       /* send: its number on the channel */
  double copied;     /* send: when the sender-based copy is done */
  int done;          /* a send the wire already had: complete from the start
                        (SMPI's wait family skips such a request: see
                        finish_done) */
  int count;         /* receive: the count and type posted (a restore */
  MPI_Datatype type; /* posts it again: ft_ml_requests_restored) */
};

static void remember(struct ft_ml_ops *ops, const struct ft_ml_req *r) {
  if (r->req == MPI_REQUEST_NULL)
    return;
  ops->reqs = ft_reserve(ops->reqs, ops->n_reqs + 1, &ops->cap_reqs,
                         sizeof *ops->reqs, "message logging's requests");
  ops->reqs[ops->n_reqs++] = *r;
}

/* Takes the record of `req` out of the table: 1, or 0 if none. */
static int take(struct ft_ml_ops *ops, MPI_Request req, struct ft_ml_req *out) {
  for (size_t i = ops->n_reqs; req != MPI_REQUEST_NULL && i-- > 0;)
    if (ops->reqs[i].req == req) {
      *out = ops->reqs[i];
      ops->reqs[i] = ops->reqs[--ops->n_reqs];
      return 1;
    }
  return 0;
}

static const struct ft_ml_req *find(const struct ft_ml_ops *ops,
                                    MPI_Request req) {
  for (size_t i = ops->n_reqs; req != MPI_REQUEST_NULL && i-- > 0;)
    if (ops->reqs[i].req == req)
      return &ops->reqs[i];
  return NULL;
}

/* Steps the core with an event that takes the next id; applies it. The
 * update goes to *out when out is not NULL (its replay part is what the
 * adapter carries out). */
static int64_t step_with_id(struct ft_runtime *rt, struct ft_event *e,
                            struct ft_update *out) {
  struct ft_update u;
  ft_core_decide(rt, e, &u);
  if (u.id != rt->ml_state.clock + 1)
    ft_fatal("rank %d: protocol %s gave id %lld, expected %lld", rt->world_rank,
             rt->protocol->name, (long long)u.id,
             (long long)rt->ml_state.clock + 1);
  rt->ml_state.clock = u.id;
  ft_apply_update(rt, &u);
  if (out)
    *out = u;
  return u.id;
}

/* Asks the core whether the non-deterministic call about to run (APP_PROBE,
 * APP_COMPLETION) is replayed: returns 1 with its answer in *u, 0 live. */
static int replayed_by_core(struct ft_runtime *rt, enum ft_event_type type,
                            struct ft_update *u) {
  struct ft_event e = {.type = type, .peer = -1, .tag = -1};
  ft_core_decide(rt, &e, u);
  ft_apply_update(rt, u);
  return (u->flags & FT_UPDATE_REPLAY) != 0;
}

/* ---- Sends ---- */

/* A request that is complete already (a send the wire has had). */
static void completed_request(MPI_Request *req) {
  ft_grequest(req);
  FT_PMPI(Grequest_complete, *req);
}

/* The time the memory bus adds to a logged message of `bytes` to world
 * rank `to` (options.h, sb_bus_mbps; pessimist-openmpi-v, section 4.3:
 * "While the sender-based copy fits in cache, the performance overhead of
 * the extra copy is reduced to 11% and jumps to 28% for messages larger
 * than 512kB"): the message leaves at min(route, bus) instead of the
 * route's bandwidth. */
static double bus_delay(struct ft_runtime *rt, int to, int bytes) {
  /* `to` is an application rank: world rank `to` (the service ranks come
   * after the application's). */
  const struct ft_options *o = &rt->options;
  int fits = (double)bytes <= o->sb_cache_kb * 1024;
  double bus =
      fits && o->sb_bus_cache_mbps > 0 ? o->sb_bus_cache_mbps : o->sb_bus_mbps;
  if (bus <= 0 || to < 0 || to >= rt->world_size || bytes <= 0)
    return 0;
  struct ft_ml *ml = &rt->ml_state;
  if (!ml->route_mbps) {
    ml->route_mbps = calloc((size_t)rt->world_size, sizeof *ml->route_mbps);
    if (!ml->route_mbps)
      ft_fatal("out of memory for the routes' bandwidths");
  }
  if (ml->route_mbps[to] == 0)
    ml->route_mbps[to] = ft_backend_route_mbps(to);
  double route = ml->route_mbps[to];
  if (route <= bus) /* the network is the bottleneck: perfect overlap */
    return 0;
  return (double)bytes / (bus * 1e6) - (double)bytes / (route * 1e6);
}

/* A new send (the channel's next on the wire) of `bytes` from a log
 * entry: charged (the daemon's delay, the copy's end), traced, started from
 * the entry's copy; its request is remembered. */
static int put_on_wire(struct ft_runtime *rt, struct ft_ml_channel *ch,
                       struct ft_ml_entry *entry, int bytes,
                       struct ft_ml_req *r, int dest, MPI_Comm comm,
                       MPI_Request *req) {
  ch->hw = r->seq;
  ch->wire_sent++;
  rt->counters.messages++;
  rt->counters.bytes += (uint64_t)bytes;
  double delay = ft_daemon_delay(&rt->options, (uint64_t)bytes) +
                 bus_delay(rt, r->peer, bytes);
  if (delay > 0) /* whole: the wire's counts are taken (the failure time
                    was looked at before, in ft_ml_isend) */
    ft_backend_sleep(delay);
  r->copied = ft_backend_now();
  if (rt->options.copy_mbps > 0) /* off the critical path: section 4.4 */
    r->copied += (double)bytes / (rt->options.copy_mbps * 1e6);
  entry->in_flight++;
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "send", "%d %c %d %d %lld %d", r->comm,
                   r->coll ? 'c' : 'p', r->peer, r->tag, (long long)r->seq,
                   bytes);
  int rc = PMPI_Isend(entry->data, bytes, MPI_PACKED, dest, r->tag, comm, req);
  r->req = *req;
  remember(&rt->ml_state.ops, r);
  return rc;
}

/* The implementation's cost of the event logger's round trip (option
 * el_rtt_us, else the platform's ftsim_service_rtt_s: a service process
 * napping between polls, woken while the ranks' cores are busy, which
 * `ftsim calibrate` measures; lu under pessimist in reference mode: 100-180
 * us a wait, against 4-16 us of simulated latency): the acks count from
 * that long after they came. Counted from when the rank took them, which
 * is late by whatever computation it did after they arrived. */
static void logger_cost(struct ft_runtime *rt) {
  double rtt = rt->options.el_rtt_us > 0 ? rt->options.el_rtt_us * 1e-6
                                         : rt->ml_state.platform_rtt;
  double ready = rt->ml_state.acked_at + rtt;
  double now = ft_backend_now();
  if (rtt > 0 && ready > now)
    ft_control_sleep(rt, ready - now);
}

/* "every event is safely logged before any MPI send can progress"; "every
 * outgoing payload is copied to the sender's volatile log". A send the
 * wire already had (a re-execution's) only rebuilds its log entry. */
int ft_ml_isend(struct ft_runtime *rt, const void *buf, int count,
                MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                int coll, MPI_Request *req) {
  ft_control_fate(rt); /* a rank that failed sends nothing */
  struct ft_ml *ml = &rt->ml_state;
  if (dest == MPI_PROC_NULL) {
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  int peer = ft_comm_app_rank(c, dest);
  size_t packed;
  struct ft_event e = {.type = FT_EVENT_APP_SEND, .peer = peer, .tag = tag};
  struct ft_ml_req r = {.id = step_with_id(rt, &e, NULL),
                        .comm = c->name,
                        .coll = coll,
                        .peer = peer,
                        .tag = tag};
  while (rt->ml_state.waiting)
    ft_wait_control(rt);
  logger_cost(rt);
  void *data =
      ft_pack_copy(rt, buf, count, type, ft_comm_traffic(c, coll), &packed);
  int bytes = (int)packed; /* at most INT_MAX (ft_pack_copy) */
  struct ft_ml_channel *ch =
      ft_ml_channel(&ml->channels, r.comm, coll, peer, tag);
  r.seq = ++ch->sent;
  int on_wire = r.seq <= ch->hw;
  rt->ml_state.sb_bytes += (uint64_t)bytes;
  struct ft_ml_entry *entry =
      ft_ml_log_add(rt, &ml->channels, ch, r.seq, data, (size_t)bytes);
  if (on_wire) {
    completed_request(req);
    r.req = *req;
    r.done = 1;
    remember(&ml->ops, &r);
    return MPI_SUCCESS;
  }
  return put_on_wire(rt, ch, entry, bytes, &r, dest, ft_comm_traffic(c, coll),
                     req);
}

/* ---- Receives ---- */

int ft_ml_irecv(struct ft_runtime *rt, void *buf, int count, MPI_Datatype type,
                int source, int tag, struct ft_comm *c, int coll,
                MPI_Request *req) {
  if (source == MPI_PROC_NULL) {
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  int wildcard = source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  struct ft_event e = {
      .type = FT_EVENT_APP_RECV,
      .peer = source == MPI_ANY_SOURCE ? -1 : ft_comm_app_rank(c, source),
      .tag = tag == MPI_ANY_TAG ? -1 : tag,
      .wildcard = wildcard};
  struct ft_update u;
  struct ft_ml_req r = {.id = step_with_id(rt, &e, &u),
                        .recv = 1,
                        .wildcard = wildcard,
                        .comm = c->name,
                        .coll = coll,
                        .count = count,
                        .type = type};
  if (u.flags & FT_UPDATE_REPLAY) { /* the core's logged source and tag */
    source = ft_comm_rank_of(c, u.replay.peer);
    tag = u.replay.tag;
  }
  r.peer = source == MPI_ANY_SOURCE ? -1 : ft_comm_app_rank(c, source);
  r.tag = tag;
  int rc =
      PMPI_Irecv(buf, count, type, source, tag, ft_comm_traffic(c, coll), req);
  r.req = *req;
  remember(&rt->ml_state.ops, &r);
  return rc;
}

/* ---- Completions ---- */

/* The wire's side of a completed request, counted even when this rank
 * failed meanwhile (the network delivered it; the restarted rank must not
 * wait for it on the wire again): a send's end (its copy may go), a
 * reception taken off its channel. */
static void off_wire(struct ft_runtime *rt, const struct ft_ml_req *r,
                     const MPI_Status *st) {
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  if (!r->recv) {
    ft_ml_send_done(mc, r->comm, r->coll, r->peer, r->tag, r->seq);
    return;
  }
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  int peer = ft_comm_app_rank(c, st->MPI_SOURCE);
  struct ft_ml_channel *ch =
      ft_ml_channel(mc, r->comm, r->coll, peer, st->MPI_TAG);
  ch->delivered++;
  ch->wire_taken++;
}

/* What a completed request means, after off_wire: a delivery (counted,
 * told to the core), or the end of a send (the copy's time). */
static void completed(struct ft_runtime *rt, const struct ft_ml_req *r,
                      const MPI_Status *st) {
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  if (!r->recv) {
    double now = ft_backend_now();
    if (r->copied > now)
      ft_control_sleep(rt, r->copied - now);
    return;
  }
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  int peer = ft_comm_app_rank(c, st->MPI_SOURCE), bytes = 0;
  struct ft_ml_channel *ch =
      ft_ml_channel(mc, r->comm, r->coll, peer, st->MPI_TAG);
  rt->ml_state.deliveries++;
  FT_PMPI(Get_count, st, MPI_BYTE, &bytes);
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "deliver", "%d %c %d %d %lld %d", r->comm,
                   r->coll ? 'c' : 'p', peer, st->MPI_TAG,
                   (long long)ch->delivered, bytes > 0 ? bytes : 0);
  double delay = ft_daemon_delay(&rt->options, (uint64_t)bytes);
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = peer,
                       .tag = st->MPI_TAG,
                       .bytes = (uint64_t)(bytes > 0 ? bytes : 0),
                       .id = r->id,
                       .wildcard = r->wildcard};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (ft_trace_on(rt) && (r->wildcard || (u.flags & FT_UPDATE_COPY)))
    ft_trace_line_(rt, 0, "nd", "%lld %d %d %d %d", (long long)r->id,
                   r->wildcard ? FT_LOGGED_MATCH : FT_LOGGED_DELIVERY, peer,
                   st->MPI_TAG, bytes > 0 ? bytes : 0);
  if ((u.flags & FT_UPDATE_COPY) && rt->options.copy_mbps > 0)
    delay += (double)bytes / (rt->options.copy_mbps * 1e6);
  if (delay > 0)
    ft_control_sleep(rt, delay);
  ft_apply_update(rt, &u);
}

/* A request the completion call saw complete, by its handle before. */
static void completed_handle(struct ft_runtime *rt, MPI_Request before,
                             const MPI_Status *st) {
  struct ft_ml_req r;
  if (!take(&rt->ml_state.ops, before, &r))
    return;
  off_wire(rt, &r, st);
  ft_control_fate(rt); /* a rank that failed meanwhile does nothing more */
  completed(rt, &r, st);
}

/* If `*req` is a send that was complete from the start, frees it (MPI_Test
 * does complete a generalized request; SMPI's waits skip one completed
 * before them) and returns 1. */
static int finish_done(struct ft_ml_ops *ops, MPI_Request *req,
                       MPI_Status *st) {
  const struct ft_ml_req *r = find(ops, *req);
  if (!r || !r->done)
    return 0;
  struct ft_ml_req copy;
  take(ops, *req, &copy);
  int flag = 0;
  MPI_Status scratch;
  FT_PMPI(Test, req, &flag, st ? st : &scratch);
  *req = MPI_REQUEST_NULL;
  return 1;
}

/* The index of a request complete from the start, or -1. */
static int first_done(const struct ft_ml_ops *ops, int n,
                      const MPI_Request reqs_[]) {
  for (int i = 0; i < n; i++) {
    const struct ft_ml_req *r = find(ops, reqs_[i]);
    if (r && r->done)
      return i;
  }
  return -1;
}

int ft_ml_wait(struct ft_runtime *rt, MPI_Request *req, MPI_Status *status) {
  if (finish_done(&rt->ml_state.ops, req,
                  status == MPI_STATUS_IGNORE ? NULL : status))
    return MPI_SUCCESS;
  MPI_Request before = *req;
  MPI_Status st;
  int rc = ft_wait_internal(rt, req, &st);
  completed_handle(rt, before, &st);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

int ft_ml_waitall(struct ft_runtime *rt, int n, MPI_Request reqs_[],
                  MPI_Status statuses[]) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < n; i++) {
    int given = statuses != MPI_STATUSES_IGNORE;
    int e = ft_ml_wait(rt, &reqs_[i], given ? &statuses[i] : MPI_STATUS_IGNORE);
    if (given)
      statuses[i].MPI_ERROR = e; /* MPI-3.1, 3.7.5: set with IN_STATUS */
    if (rc == MPI_SUCCESS && e != MPI_SUCCESS)
      rc = given ? MPI_ERR_IN_STATUS : e;
  }
  return rc;
}

int ft_ml_request_free(struct ft_runtime *rt, MPI_Request *req) {
  struct ft_ml_req r;
  if (take(&rt->ml_state.ops, *req, &r) && r.recv)
    ft_fatal("MPI_Request_free of an active receive is not supported under "
             "protocol %s: its delivery would be neither counted nor logged; "
             "wait for it instead",
             rt->protocol->name);
  return PMPI_Request_free(req);
}

int ft_ml_cancel(struct ft_runtime *rt, MPI_Request *req) {
  (void)req;
  ft_fatal("MPI_Cancel is not supported under protocol %s: whether a "
           "cancel succeeds depends on timing that a restarted rank's "
           "replay cannot reproduce",
           rt->protocol->name);
}

/* The non-deterministic completion calls ("NDD"): replayed as the core
 * says (APP_COMPLETION) below its horizon, told to it as COMPLETION events
 * otherwise. */

enum { MAX_IDS = 1024 };

static void tell_completion(struct ft_runtime *rt, const int64_t *ids,
                            size_t n) {
  /* A completion call may have taken time since the last look (the
   * MPI_Test that frees a send complete from the start costs smpi/test):
   * a rank that failed meanwhile records nothing (soak seed 147,
   * pessimist, mg on 8 ranks: 'nd' 59 us after rank 1's failure). */
  ft_control_fate(rt);
  struct ft_event e = {.type = FT_EVENT_COMPLETION, .ids = ids, .n_ids = n};
  int64_t id = step_with_id(rt, &e, NULL);
  for (size_t i = 0; ft_trace_on(rt) && i < n; i++)
    ft_trace_line_(rt, 0, "nd", "%lld %d -1 -1 %lld", (long long)id,
                   FT_LOGGED_COMPLETION, (long long)ids[i]);
}

/* The index in reqs_ of the request with that id (replay). */
static int index_of(const struct ft_runtime *rt, int n,
                    const MPI_Request reqs_[], int64_t id) {
  for (int i = 0; i < n; i++) {
    const struct ft_ml_req *r = find(&rt->ml_state.ops, reqs_[i]);
    if (r && r->id == id)
      return i;
  }
  ft_fatal("rank %d: replay diverged: request %lld of a logged completion is "
           "not among the %d requests of this call",
           rt->world_rank, (long long)id, n);
}

/* Carries out the core's replay of a completion call: waits for the
 * requests it names; returns how many (their indices in idx). -1: live. */
static int replay_completion(struct ft_runtime *rt, int n, MPI_Request reqs_[],
                             int idx[], MPI_Status statuses[]) {
  int64_t ids[MAX_IDS];
  struct ft_update u;
  if (!replayed_by_core(rt, FT_EVENT_APP_COMPLETION, &u))
    return -1;
  size_t k = u.replay.n_ids < MAX_IDS ? u.replay.n_ids : MAX_IDS;
  if (k > 0) /* the core's array lives until its next step */
    memcpy(ids, u.replay.ids, k * sizeof ids[0]);
  for (size_t i = 0; i < k; i++) {
    idx[i] = index_of(rt, n, reqs_, ids[i]);
    MPI_Status st;
    ft_ml_wait(rt, &reqs_[idx[i]], &st);
    if (statuses)
      statuses[i] = st;
  }
  tell_completion(rt, ids, k);
  return (int)k;
}

/* Live: tells the core which requests (handles before the call) completed
 * and does their bookkeeping. */
static void live_completion(struct ft_runtime *rt, const MPI_Request before[],
                            const int idx[], int k, const MPI_Status st[]) {
  int64_t ids[MAX_IDS];
  size_t n = 0;
  struct ft_ml_req small[16];
  struct ft_ml_req *taken = k <= 16 ? small : malloc((size_t)k * sizeof *taken);
  int *at = malloc((size_t)(k > 0 ? k : 1) * sizeof *at);
  if (!taken || !at)
    ft_fatal("out of memory completing %d requests", k);
  int got = 0;
  /* Every completion taken off the wire first, then this rank may find
   * that it failed meanwhile (ft_control_fate): its restart counts them. */
  for (int i = 0; i < k; i++)
    if (take(&rt->ml_state.ops, before[idx[i]], &taken[got])) {
      off_wire(rt, &taken[got], &st[i]);
      at[got++] = i;
    }
  ft_control_fate(rt); /* a rank that failed meanwhile does nothing more */
  for (int j = 0; j < got; j++) {
    if (n < MAX_IDS)
      ids[n++] = taken[j].id;
    completed(rt, &taken[j], &st[at[j]]);
  }
  if (taken != small)
    free(taken);
  free(at);
  tell_completion(rt, ids, n);
}

int ft_ml_waitany(struct ft_runtime *rt, int n, MPI_Request reqs_[], int *index,
                  MPI_Status *status) {
  struct ft_ml_ops *ops = &rt->ml_state.ops;
  MPI_Status st;
  int idx[MAX_IDS], rc = MPI_SUCCESS;
  int k = replay_completion(rt, n, reqs_, idx, &st);
  if (k >= 0) {
    *index = k ? idx[0] : MPI_UNDEFINED;
  } else {
    MPI_Request hsmall[16];
    MPI_Request *before = ft_handles_copy(n, reqs_, hsmall);
    *index = first_done(ops, n, reqs_);
    if (*index >= 0)
      finish_done(ops, &reqs_[*index], &st);
    else {
      st.MPI_ERROR = MPI_SUCCESS;
      *index = ft_wait_any(rt, n, reqs_, &st);
      rc = st.MPI_ERROR; /* the library's error (control.c, ft_wait_any) */
    }
    live_completion(rt, before, index, *index == MPI_UNDEFINED ? 0 : 1, &st);
    ft_handles_free(before, hsmall);
  }
  if (status != MPI_STATUS_IGNORE && *index != MPI_UNDEFINED)
    *status = st;
  return rc;
}

/* One completion per call, as without message logging (p2p.c). */
int ft_ml_waitsome(struct ft_runtime *rt, int n, MPI_Request reqs_[],
                   int *outcount, int indices[], MPI_Status statuses[]) {
  return ft_waitsome_one(rt, ft_ml_waitany, n, reqs_, outcount, indices,
                         statuses);
}

/* SMPI 3.32's MPI_Testany skips a request that finished before the call (a
 * small send, detached: smpi_request.cpp, testany) as if inactive: it says
 * flag 1, index MPI_UNDEFINED, and leaves the request allocated. The
 * application takes it for complete (MPI_Test of a send under a replay of
 * mg), and its record stayed in the table for good (33 on rank 1 of mg at
 * 4 ranks by the fifth checkpoint). MPI_Test completes and frees it:
 * returns the index of the first such, or MPI_UNDEFINED. */
static int test_finished(int n, MPI_Request reqs_[], MPI_Status *st) {
  for (int i = 0; i < n; i++) {
    int flag = 0;
    if (reqs_[i] != MPI_REQUEST_NULL)
      FT_PMPI(Test, &reqs_[i], &flag, st);
    if (flag)
      return i;
  }
  return MPI_UNDEFINED;
}

int ft_ml_testany(struct ft_runtime *rt, int n, MPI_Request reqs_[], int *index,
                  int *flag, MPI_Status *status) {
  struct ft_ml_ops *ops = &rt->ml_state.ops;
  MPI_Status st;
  int idx[MAX_IDS];
  int k = replay_completion(rt, n, reqs_, idx, &st);
  if (k >= 0) {
    *flag = k > 0;
    *index = k ? idx[0] : MPI_UNDEFINED;
  } else {
    MPI_Request hsmall[16];
    MPI_Request *before = ft_handles_copy(n, reqs_, hsmall);
    *index = first_done(ops, n, reqs_);
    *flag = *index >= 0;
    if (*flag)
      finish_done(ops, &reqs_[*index], &st);
    else
      FT_PMPI(Testany, n, reqs_, index, flag, &st);
    if (*flag && *index == MPI_UNDEFINED)
      *index = test_finished(n, reqs_, &st);
    int done = *flag && *index != MPI_UNDEFINED;
    live_completion(rt, before, index, done, &st);
    ft_handles_free(before, hsmall);
  }
  if (*flag && *index != MPI_UNDEFINED && status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

int ft_ml_test(struct ft_runtime *rt, MPI_Request *req, int *flag,
               MPI_Status *status) {
  int index;
  return ft_ml_testany(rt, 1, req, &index, flag, status);
}

static int testsome_like(struct ft_runtime *rt, int n, MPI_Request reqs_[],
                         int *outcount, int indices[], MPI_Status statuses[],
                         int all) {
  struct ft_ml_ops *ops = &rt->ml_state.ops;
  MPI_Status small[16];
  MPI_Status *st = n <= 16 ? small : malloc((size_t)n * sizeof *st);
  int *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
  if (!st || !idx || n > MAX_IDS)
    ft_fatal("a completion call on %d requests (at most %d)", n, MAX_IDS);
  int k = replay_completion(rt, n, reqs_, idx, st);
  if (k < 0) {
    MPI_Request hsmall[16];
    MPI_Request *before = ft_handles_copy(n, reqs_, hsmall);
    int d;
    k = 0;
    /* MPI_Testall too completes what is done (SMPI's does so, and loses
     * the statuses: p2p.c): each is a completion, counted and logged. */
    while ((d = first_done(ops, n, reqs_)) >= 0) {
      finish_done(ops, &reqs_[d], &st[k]);
      idx[k++] = d;
    }
    if (k > 0) {
      live_completion(rt, before, idx, k, st);
      ft_handles_free(before, hsmall);
      before = NULL;
    } else {
      FT_PMPI(Testsome, n, reqs_, &k, idx, st);
      if (k == MPI_UNDEFINED)
        k = 0;
    }
    if (before) {
      live_completion(rt, before, idx, k, st);
      ft_handles_free(before, hsmall);
    }
  }
  *outcount = k;
  for (int i = 0; i < k; i++) {
    if (indices)
      indices[i] = idx[i];
    if (statuses != MPI_STATUSES_IGNORE)
      statuses[all ? idx[i] : i] = st[i];
  }
  if (st != small)
    free(st);
  free(idx);
  return MPI_SUCCESS;
}

int ft_ml_testsome(struct ft_runtime *rt, int n, MPI_Request reqs_[],
                   int *outcount, int indices[], MPI_Status statuses[]) {
  return testsome_like(rt, n, reqs_, outcount, indices, statuses, 0);
}

int ft_ml_testall(struct ft_runtime *rt, int n, MPI_Request reqs_[], int *flag,
                  MPI_Status statuses[]) {
  int k;
  testsome_like(rt, n, reqs_, &k, NULL, statuses, 1);
  int active = 0;
  for (int i = 0; i < n; i++)
    active += reqs_[i] != MPI_REQUEST_NULL;
  *flag = active == 0;
  return MPI_SUCCESS;
}

/* ---- Probes ---- */

/* Waits until a message of source/tag is there (it was, in the run being
 * replayed). */
static void probe_until_found(struct ft_runtime *rt, int source, int tag,
                              MPI_Comm comm, MPI_Status *st) {
  int flag = 0;
  while (!flag) {
    FT_PMPI(Iprobe, source, tag, comm, &flag, st);
    if (!flag && !ft_poll_control(rt))
      ft_backend_sleep(1e-6);
  }
}

static void tell_probe(struct ft_runtime *rt, const struct ft_comm *c,
                       int found, const MPI_Status *st) {
  ft_control_fate(rt); /* the probe cost smpi/iprobe: a rank that failed
                          in it records nothing (soak seed 9638: 'nd' 25 us
                          after rank 1's failure) */
  int bytes = 0;
  struct ft_event e = {.type = FT_EVENT_PROBED, .index = found};
  if (found) {
    FT_PMPI(Get_count, st, MPI_BYTE, &bytes);
    e.peer = ft_comm_app_rank(c, st->MPI_SOURCE);
    e.tag = st->MPI_TAG;
    e.bytes = (uint64_t)(bytes > 0 ? bytes : 0);
  }
  int64_t id = step_with_id(rt, &e, NULL);
  if (ft_trace_on(rt) && found)
    ft_trace_line_(rt, 0, "nd", "%lld %d %d %d %d", (long long)id,
                   FT_LOGGED_PROBE, e.peer, e.tag, bytes > 0 ? bytes : 0);
}

/* Carries out the core's replay of a probe: 1 found (status in st), 0
 * not; -1 live. */
static int replay_probe(struct ft_runtime *rt, struct ft_comm *c,
                        MPI_Status *st) {
  struct ft_update u;
  if (!replayed_by_core(rt, FT_EVENT_APP_PROBE, &u))
    return -1;
  int found = u.replay.found != 0;
  if (found)
    probe_until_found(rt, ft_comm_rank_of(c, u.replay.peer), u.replay.tag,
                      c->p2p, st);
  tell_probe(rt, c, found, st);
  return found;
}

int ft_ml_iprobe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                 int *flag, MPI_Status *status) {
  MPI_Status st;
  int found = replay_probe(rt, c, &st);
  if (found < 0) {
    FT_PMPI(Iprobe, source, tag, c->p2p, &found, &st);
    tell_probe(rt, c, found, &st);
  }
  *flag = found;
  if (found && status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

int ft_ml_probe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                MPI_Status *status) {
  MPI_Status st;
  if (source != MPI_ANY_SOURCE && tag != MPI_ANY_TAG) { /* deterministic */
    probe_until_found(rt, source, tag, c->p2p, &st);
  } else if (replay_probe(rt, c, &st) < 0) {
    probe_until_found(rt, source, tag, c->p2p, &st);
    tell_probe(rt, c, 1, &st);
  }
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

/* ---- Requests pending at a checkpoint (any-call mode) ----
 *
 * A replay may checkpoint at any call, with sends and receives pending
 * (issue 16, item 3). The image holds their records as they are, handles
 * included: those are what the replay's own image holds, and name them
 * when it asks for them back. */

size_t ft_ml_pending_size(const struct ft_ml_ops *ops) {
  return sizeof(int64_t) + ops->n_reqs * sizeof *ops->reqs;
}

void ft_ml_pending_write(const struct ft_ml_ops *ops, void *dst) {
  int64_t n = (int64_t)ops->n_reqs;
  memcpy(dst, &n, sizeof n);
  if (n > 0)
    memcpy((char *)dst + sizeof n, ops->reqs, ops->n_reqs * sizeof *ops->reqs);
}

static int by_id(const void *a, const void *b) {
  const struct ft_ml_req *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

void ft_ml_pending_load(struct ft_runtime *rt, struct ft_ml_ops *ops,
                        const void *src, size_t size) {
  int64_t n = -1;
  if (size >= sizeof n)
    memcpy(&n, src, sizeof n);
  if (n < 0 || size != sizeof n + (size_t)n * sizeof *ops->reqs)
    ft_fatal("rank %d cannot restore its checkpoint: region %d of %zu bytes "
             "does not hold whole requests",
             rt->world_rank, FT_ML_PENDING_REGION, size);
  ops->restored = ft_reserve(ops->restored, (size_t)n + 1, &ops->cap_restored,
                             sizeof *ops->restored, "the restored requests");
  if (n > 0)
    memcpy(ops->restored, (const char *)src + sizeof n,
           (size_t)n * sizeof *ops->restored);
  ops->n_restored = (size_t)n;
  qsort(ops->restored, ops->n_restored, sizeof *ops->restored, by_id);
}

/* "every outgoing message is saved in the sender's volatile memory"
 * (section 2.1): a send pending at the checkpoint was put on the wire
 * before it (a send waits for the logger inside its call), and the
 * restored log holds it for a receiver that restarts too. So it is complete
 * at once: sending it again would deliver it twice. */
static void restore_send(struct ft_runtime *rt, struct ft_ml_req *r) {
  const struct ft_ml_channel *ch =
      ft_ml_channel(&rt->ml_state.channels, r->comm, r->coll, r->peer, r->tag);
  if (r->seq > ch->hw)
    ft_fatal("rank %d: send %lld to %d (tag %d) pending at its checkpoint "
             "never reached the wire",
             rt->world_rank, (long long)r->seq, r->peer, r->tag);
  completed_request(&r->req);
  r->done = 1;
}

/* A receive pending at the checkpoint, posted again with its id: the core
 * gives a wildcard one its logged source (pessimist.h, "Any-call mode");
 * the peers resend what the checkpoint did not deliver, in channel order. */
static void restore_recv(struct ft_runtime *rt, struct ft_ml_req *r,
                         void *rbuf) {
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .peer = r->peer,
                       .tag = r->tag < 0 ? -1 : r->tag,
                       .wildcard = r->wildcard,
                       .id = r->id};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (u.id != r->id)
    ft_fatal("rank %d: protocol %s gave the restored receive %lld id %lld",
             rt->world_rank, rt->protocol->name, (long long)r->id,
             (long long)u.id);
  ft_apply_update(rt, &u);
  if (u.flags & FT_UPDATE_REPLAY) {
    r->peer = u.replay.peer;
    r->tag = u.replay.tag;
  }
  int source = r->peer < 0 ? MPI_ANY_SOURCE : ft_comm_rank_of(c, r->peer);
  FT_PMPI(Irecv, rbuf, r->count, r->type, source, r->tag,
          ft_comm_traffic(c, r->coll), &r->req);
}

/* The index of `old` among the n handles, or -1. */
static long handle_index(const MPI_Request *handles, size_t n,
                         MPI_Request old) {
  for (size_t i = 0; i < n; i++)
    if (handles[i] == old)
      return (long)i;
  return -1;
}

/* Where each restored record's handle is among the n handles, in at[]:
 * found on the image's values, before any is replaced (a new handle may
 * take the value of an old one: receive 295's new handle was send 296's
 * old one in a replay of mg, pessimist, 6 ranks). */
static void find_handles(struct ft_runtime *rt, const struct ft_ml_ops *ops,
                         const MPI_Request *handles, size_t n, long *at) {
  for (size_t k = 0; k < ops->n_restored; k++) {
    const struct ft_ml_req *r = &ops->restored[k];
    at[k] = handle_index(handles, n, r->req);
    if (at[k] < 0)
      ft_fatal("rank %d: request %lld pending in its image (a %s) is not "
               "among the handles named after the restore",
               rt->world_rank, (long long)r->id, r->recv ? "receive" : "send");
  }
}

void ft_ml_requests_restored(struct ft_runtime *rt, MPI_Request *handles,
                             size_t n, void *rbuf) {
  struct ft_ml_ops *ops = &rt->ml_state.ops;
  if (n != ops->n_restored)
    ft_fatal("rank %d: %zu requests named after the restore, but its image "
             "holds %zu pending",
             rt->world_rank, n, ops->n_restored);
  long *at = malloc((n + 1) * sizeof *at);
  if (!at)
    ft_fatal("rank %d: out of memory for its restored requests",
             rt->world_rank);
  find_handles(rt, ops, handles, n, at);
  for (size_t k = 0; k < ops->n_restored; k++) { /* in posting order */
    struct ft_ml_req r = ops->restored[k];
    if (r.recv)
      restore_recv(rt, &r, rbuf);
    else
      restore_send(rt, &r);
    handles[at[k]] = r.req;
    remember(ops, &r);
  }
  free(at);
  ops->n_restored = 0;
}

/* ---- A failure ----
 *
 * The receives the lost life had posted cannot be cancelled: SimGrid fails
 * both sides of a transfer under way when one is cancelled. They stay
 * posted as zombies, and each is fed one message before the restarted run
 * posts anything: an empty one its named sender sends on request
 * (ml_control.c), or, for a wildcard, an empty one this rank sends itself;
 * or a message that was in flight anyway. What a zombie takes is counted on
 * its channel like any message taken off the wire. Buffers: the lost
 * life's (nothing of the new run is allocated yet, and empty messages
 * write nothing). */

static void took(struct ft_runtime *rt, struct ft_ml_channels *mc,
                 const struct ft_ml_req *r, const MPI_Status *st) {
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  ft_ml_channel(mc, r->comm, r->coll, ft_comm_app_rank(c, st->MPI_SOURCE),
                st->MPI_TAG)
      ->wire_taken++;
}

void ft_ml_drop_requests(struct ft_runtime *rt, struct ft_ml *ml) {
  struct ft_ml_ops *ops = &ml->ops;
  for (size_t i = 0; i < ops->n_reqs; i++) {
    struct ft_ml_req *r = &ops->reqs[i];
    if (!r->recv)
      continue; /* on the wire: its entry waits in limbo (ml_channels.c) */
    MPI_Status st;
    int flag = 0;
    FT_PMPI(Test, &r->req, &flag, &st);
    if (flag) {
      took(rt, &ml->channels, r, &st);
      continue;
    }
    ops->zombies =
        ft_reserve(ops->zombies, ops->n_zombies + 1, &ops->cap_zombies,
                   sizeof *ops->zombies, "the lost life's receives");
    ops->zombies[ops->n_zombies++] = *r;
    if (r->peer >= 0) /* its sender is asked to feed it, on this channel */
      ft_ml_channel(&ml->channels, r->comm, r->coll, r->peer, r->tag);
  }
  ops->n_reqs = 0;
  ops->n_restored = 0;
}

int ft_ml_zombies_on(const struct ft_ml_ops *ops, int comm, int coll, int peer,
                     int tag) {
  int n = 0;
  for (size_t i = 0; i < ops->n_zombies; i++)
    n += ops->zombies[i].comm == comm && ops->zombies[i].coll == coll &&
         ops->zombies[i].peer == peer && ops->zombies[i].tag == tag;
  return n;
}

void ft_ml_feed_wildcards(struct ft_runtime *rt) {
  const struct ft_ml_ops *ops = &rt->ml_state.ops;
  for (size_t i = 0; i < ops->n_zombies; i++) {
    const struct ft_ml_req *z = &ops->zombies[i];
    if (z->peer >= 0)
      continue; /* its sender feeds it */
    struct ft_comm *c = ft_comm_named(rt, z->comm);
    int tag = z->tag < 0 ? 0 : z->tag;
    ft_feed_empty(ft_comm_traffic(c, z->coll), c->rank, tag);
    ft_ml_channel(&rt->ml_state.channels, z->comm, z->coll, rt->world_rank, tag)
        ->wire_sent++;
  }
}

void ft_ml_wait_zombies(struct ft_runtime *rt, struct ft_ml *ml) {
  struct ft_ml_ops *ops = &ml->ops;
  for (size_t i = 0; i < ops->n_zombies; i++) {
    MPI_Status st;
    /* A zombie may take a real message larger than its lost life posted
     * for (a truncation): nobody is left to hear of it, so no code is
     * checked. */
    (void)PMPI_Wait(&ops->zombies[i].req, &st);
    took(rt, &ml->channels, &ops->zombies[i], &st);
  }
  ops->n_zombies = 0;
}
