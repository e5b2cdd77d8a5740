/* A deterministic in-memory cluster for the message-logging cores (see
 * ml_cluster.h). */
#include "ml_cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pessimist/pessimist.h"

#define R_MAX 8         /* ranks */
#define SEQ_MAX 64      /* messages per channel */
#define EVENTS_MAX 4096 /* events the logger holds per rank */
#define ITEMS_MAX 2048  /* things in flight */
#define POSTED_MAX 64   /* receives posted at once */
#define UNEXPECTED_MAX 256
#define OPS_MAX 160 /* operations in one round */
#define IDS_MAX 16384
#define ROUNDS_MAX 10
#define STEPS_MAX 2000000u
#define LOGGER (-1) /* the event logger, in traces */

enum op_kind {
  OP_SAFE,     /* safe point round + 1 */
  OP_COMPUTE,  /* the round's computation */
  OP_SEND,     /* MPI_Send to peer, tag round */
  OP_RECV,     /* MPI_Recv from peer, tag round */
  OP_PROBE,    /* MPI_Iprobe(MPI_ANY_SOURCE, round) */
  OP_RECV_ANY, /* MPI_Recv(MPI_ANY_SOURCE, round) */
  OP_IRECV,    /* MPI_Irecv from peer, tag round */
  OP_WAITANY,  /* MPI_Waitany over the round's requests */
  OP_TESTANY,  /* MPI_Testany over them, polled */
  OP_END,
};

struct op {
  enum op_kind kind;
  int peer;
};

struct msg {
  int from, to, tag;
  int64_t seq;
  uint64_t payload;
};

struct posted {
  int64_t id;
  int peer, tag, wildcard, matched;
  struct msg msg;
};

struct image {
  int wave, round;
  int64_t clock;
  uint64_t obs;
  int64_t sent[R_MAX], delivered[R_MAX];
};

enum wait_kind { WAIT_NONE, WAIT_TIME, WAIT_RELEASE };

struct rank {
  void *core;
  int life, done;
  int round, pc, n_ops;
  struct op ops[OPS_MAX];
  enum wait_kind wait;
  double iteration, store_delay;
  uint64_t obs; /* the application state: what it observed */
  int64_t sent[R_MAX], delivered[R_MAX];
  int64_t clock;   /* the core's clock, as the adapter follows it */
  int asked;       /* the current operation's first step is done */
  int64_t cur_id;  /* its request, or the request a replay names */
  int replay_peer; /* a replayed probe: the message it finds (-2: none) */
  struct posted posted[POSTED_MAX];
  int n_posted;
  struct msg unexpected[UNEXPECTED_MAX];
  int n_unexpected;
  struct msg held; /* a send waiting for RELEASE */
  int64_t shipped; /* events the core shipped, in the logger's count */
  struct ft_logged_event stage[EVENTS_MAX]; /* shipped, by position */
  size_t n_stage;
  struct image image, committed;
  struct ft_logged_event replay[EVENTS_MAX]; /* RESTART's, sorted */
  int64_t horizon;
  int replaying;
  int src_seen[IDS_MAX]; /* wildcard receive id: source + 1, last seen */
};

enum item_kind { IT_MSG, IT_LOG, IT_ACK, IT_STORED, IT_WAKE };

struct item {
  double time;
  uint64_t tie;
  enum item_kind kind;
  int rank, life, wave;
  struct msg msg;
  size_t first, n; /* LOG: the rank's stage[first, first + n) */
  int64_t value;   /* ACK */
};

struct mlc {
  const struct ft_protocol_ops *ops;
  int ranks, rounds, batch;
  double time, period;
  uint64_t app_seed, rng;
  int shuffle;
  int skip_replay; /* test of the checker: ignore the core's REPLAY */
  double latency[R_MAX][R_MAX], logger_latency[R_MAX];
  double last_arrival[R_MAX][R_MAX], last_to_logger[R_MAX],
      last_from_logger[R_MAX];
  unsigned char edge[R_MAX][R_MAX];
  struct rank rank[R_MAX];
  /* The wire and the sender-based logs. */
  int64_t hw[R_MAX][R_MAX];     /* highest number ever put on the wire */
  int64_t log_hi[R_MAX][R_MAX]; /* the sender's log holds 1..log_hi */
  int64_t serve[R_MAX][R_MAX];  /* next to resend to a restarted receiver */
  uint64_t canon[R_MAX][R_MAX][SEQ_MAX + 1]; /* payload first on the wire */
  int tag_of[R_MAX][R_MAX][SEQ_MAX + 1];
  /* The event logger. */
  struct ft_logged_event log[R_MAX][EVENTS_MAX];
  size_t n_log[R_MAX];
  struct item items[ITEMS_MAX];
  size_t n_items;
  uint64_t seq, steps;
  int64_t delivered, replayed, commits, restarts;
  char error[512];
  int trace_on;
  struct cluster *tracer; /* a core_cluster used for its trace buffer */
};

/* ---- Helpers ------------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static int fail(struct mlc *c,
                                                      const char *fmt, ...) {
  if (c->error[0] == '\0') {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
  }
  return -1;
}

__attribute__((format(printf, 3, 4))) static void note(struct mlc *c, int who,
                                                       const char *fmt, ...) {
  if (!c->trace_on)
    return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  c->tracer->time = c->time;
  if (who == LOGGER)
    cluster_note(c->tracer, "L %s", line);
  else
    cluster_note(c->tracer, "%d %s", who, line);
}

static uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b * 0x9e3779b97f4a7c15u);
  return cluster_splitmix64(&x);
}

static int schedule(struct mlc *c, struct item it) {
  if (c->n_items == ITEMS_MAX)
    return fail(c, "too many things in flight");
  it.tie = c->shuffle ? cluster_splitmix64(&c->rng) : c->seq;
  c->seq++;
  c->items[c->n_items++] = it;
  return 0;
}

/* A FIFO channel's arrival time: never before the previous arrival. */
static double fifo(double *last, double at) {
  at = at > *last + 1e-9 ? at : *last + 1e-9;
  *last = at;
  return at;
}

/* ---- The application ---------------------------------------------------- */

/* Messages `from` sends `to` in round k: 0..3, on an edge. */
static int planned(const struct mlc *c, int from, int to, int k) {
  if (!c->edge[from][to])
    return 0;
  return (int)(mix(c->app_seed, (uint64_t)(from * 131 + to * 17 + k * 7919)) %
               4);
}

static void add_op(struct rank *rk, enum op_kind kind, int peer) {
  if (rk->n_ops < OPS_MAX)
    rk->ops[rk->n_ops++] = (struct op){kind, peer};
}

static void plan_receives(struct mlc *c, int r, int k, uint64_t x) {
  struct rank *rk = &c->rank[r];
  int wildcards = 0, requests = 0;
  int requests_style = x % 2 == 0;
  for (int p = 0; p < c->ranks; p++) {
    int n = planned(c, p, r, k);
    int named = n ? (int)(mix(x, (uint64_t)p) % (uint64_t)(n + 1)) : 0;
    for (int i = 0; i < named; i++)
      add_op(rk, requests_style ? OP_IRECV : OP_RECV, p);
    wildcards += n - named;
    requests += requests_style ? n : 0;
  }
  if (requests_style) { /* after the named ones: they match first */
    for (int i = 0; i < wildcards; i++)
      add_op(rk, OP_IRECV, -1);
    wildcards = 0;
  }
  for (int i = 0; i < wildcards; i++) {
    if (mix(x, (uint64_t)(100 + i)) % 2)
      add_op(rk, OP_PROBE, -1);
    add_op(rk, OP_RECV_ANY, -1);
  }
  enum op_kind complete = (x >> 8) % 2 ? OP_WAITANY : OP_TESTANY;
  for (int i = 0; i < requests; i++)
    add_op(rk, complete, -1);
}

/* Round k of rank r, drawn from (app_seed, r, k) alone. */
static void plan_round(struct mlc *c, int r) {
  struct rank *rk = &c->rank[r];
  int k = rk->round;
  rk->n_ops = 0;
  rk->pc = 0;
  add_op(rk, OP_SAFE, -1);
  add_op(rk, OP_COMPUTE, -1);
  for (int p = 0; p < c->ranks; p++)
    for (int i = planned(c, r, p, k); i > 0; i--)
      add_op(rk, OP_SEND, p);
  plan_receives(c, r, k, mix(c->app_seed ^ 0xabcdefu, (uint64_t)(r * 977 + k)));
  add_op(rk, OP_END, -1);
}

static void observe(struct rank *rk, uint64_t what) {
  rk->obs = mix(rk->obs, what);
}

/* ---- The core and the event logger ------------------------------------- */

static int core_step(struct mlc *c, int r, struct ft_event *e,
                     struct ft_update *u) {
  e->time = c->time;
  *u = (struct ft_update){.deadline = -1};
  if (c->ops->step(c->rank[r].core, e, u) != 0)
    return fail(c, "[%.3f] rank %d: the core failed on event %d", c->time, r,
                (int)e->type);
  return 0;
}

static int takes_id(struct mlc *c, int r, const struct ft_update *u) {
  struct rank *rk = &c->rank[r];
  if (u->id != rk->clock + 1)
    return fail(c, "[%.3f] rank %d: id %lld, the clock is at %lld", c->time, r,
                (long long)u->id, (long long)rk->clock);
  rk->clock = u->id;
  if (rk->replaying && rk->clock > rk->horizon) {
    rk->replaying = 0;
    note(c, r, "caught up: id %lld is past the logged horizon %lld, live",
         (long long)rk->clock, (long long)rk->horizon);
  }
  return 0;
}

static int ship(struct mlc *c, int r, const struct ft_update *u) {
  struct rank *rk = &c->rank[r];
  if (!(u->flags & FT_UPDATE_LOG))
    return 0;
  if (rk->n_stage + u->n_events > EVENTS_MAX)
    return fail(c, "rank %d: too many events", r);
  memcpy(rk->stage + rk->n_stage, u->events, u->n_events * sizeof *u->events);
  struct item it = {.kind = IT_LOG,
                    .rank = r,
                    .life = rk->life,
                    .first = rk->n_stage,
                    .n = u->n_events};
  it.time = fifo(&c->last_to_logger[r], c->time + c->logger_latency[r]);
  rk->n_stage += u->n_events;
  rk->shipped += (int64_t)u->n_events;
  note(c, r, "> %zu event%s to the event logger", u->n_events,
       u->n_events == 1 ? "" : "s");
  return schedule(c, it);
}

static int on_log(struct mlc *c, const struct item *it) {
  struct rank *rk = &c->rank[it->rank];
  if (it->life != rk->life)
    return 0; /* lost with the life that shipped them */
  if (c->n_log[it->rank] + it->n > EVENTS_MAX)
    return fail(c, "the logger is full");
  memcpy(c->log[it->rank] + c->n_log[it->rank], rk->stage + it->first,
         it->n * sizeof rk->stage[0]);
  c->n_log[it->rank] += it->n;
  note(c, LOGGER, "< %zu event%s of %d: holds %zu, acknowledges", it->n,
       it->n == 1 ? "" : "s", it->rank, c->n_log[it->rank]);
  struct item ack = {.kind = IT_ACK,
                     .rank = it->rank,
                     .life = it->life,
                     .value = (int64_t)c->n_log[it->rank]};
  ack.time = fifo(&c->last_from_logger[it->rank],
                  c->time + c->logger_latency[it->rank]);
  return schedule(c, ack);
}

/* ---- The wire ------------------------------------------------------------ */

static int put_on_wire(struct mlc *c, int from, int to, int64_t seq) {
  struct msg m = {.from = from,
                  .to = to,
                  .tag = c->tag_of[from][to][seq],
                  .seq = seq,
                  .payload = c->canon[from][to][seq]};
  struct item it = {.kind = IT_MSG, .rank = to, .life = c->rank[to].life};
  it.msg = m;
  it.time = fifo(&c->last_arrival[from][to], c->time + c->latency[from][to]);
  return schedule(c, it);
}

/* Resends what a restarted receiver waits for, as far as the log goes. */
static int serve(struct mlc *c, int from, int to) {
  int64_t *next = &c->serve[from][to], first = *next;
  while (*next && *next <= c->log_hi[from][to]) {
    if (put_on_wire(c, from, to, *next))
      return -1;
    if (++*next > c->hw[from][to])
      *next = 0;
  }
  int64_t last = *next ? *next - 1 : c->hw[from][to];
  if (first && last >= first)
    note(c, from, "> resends %lld..%lld to %d from its sender-based log",
         (long long)first, (long long)last, to);
  return 0;
}

/* The pessimistic rule, then the send: "every event is safely logged
 * before any MPI send can progress". A re-executed send the wire already
 * had is not sent again; it must be the same message. */
static int leave(struct mlc *c, int r, const struct msg *m) {
  struct rank *rk = &c->rank[r];
  int64_t seq = ++rk->sent[m->to];
  if (seq > SEQ_MAX)
    return fail(c, "channel %d->%d: too many messages", r, m->to);
  if (seq <= c->hw[r][m->to]) {
    if (c->canon[r][m->to][seq] != m->payload)
      return fail(c,
                  "[%.3f] orphan: rank %d re-sends message %lld to %d from a "
                  "state that differs from the one the wire had it from (a "
                  "non-deterministic event it depended on was lost)",
                  c->time, r, (long long)seq, m->to);
    if (seq > c->log_hi[r][m->to])
      c->log_hi[r][m->to] = seq;
    note(c, r, "> send %lld to %d again: the wire had it, log only",
         (long long)seq, m->to);
    return serve(c, r, m->to);
  }
  if ((int64_t)c->n_log[r] < rk->shipped)
    return fail(c,
                "[%.3f] pessimistic rule: rank %d sends message %lld to %d "
                "while %lld of its events are not logged",
                c->time, r, (long long)seq, m->to,
                (long long)(rk->shipped - (int64_t)c->n_log[r]));
  c->canon[r][m->to][seq] = m->payload;
  c->tag_of[r][m->to][seq] = m->tag;
  c->hw[r][m->to] = c->log_hi[r][m->to] = seq;
  note(c, r, "> send %lld to %d, tag %d", (long long)seq, m->to, m->tag);
  return put_on_wire(c, r, m->to, seq);
}

static int matches(const struct posted *p, const struct msg *m) {
  return !p->matched && (p->peer < 0 || p->peer == m->from) && p->tag == m->tag;
}

static int on_arrival(struct mlc *c, const struct item *it) {
  struct rank *rk = &c->rank[it->rank];
  if (it->life != rk->life)
    return 0; /* lost with the receiver's failed life */
  for (int i = 0; i < rk->n_posted; i++)
    if (matches(&rk->posted[i], &it->msg)) {
      rk->posted[i].matched = 1;
      rk->posted[i].msg = it->msg;
      return 0;
    }
  if (rk->n_unexpected == UNEXPECTED_MAX)
    return fail(c, "rank %d: too many unexpected messages", it->rank);
  rk->unexpected[rk->n_unexpected++] = it->msg;
  return 0;
}

/* Posts a receive; it takes the first unexpected message it matches. */
static int post(struct mlc *c, int r, int64_t id, int peer, int tag,
                int wildcard) {
  struct rank *rk = &c->rank[r];
  if (rk->n_posted == POSTED_MAX)
    return fail(c, "rank %d: too many receives", r);
  struct posted *p = &rk->posted[rk->n_posted++];
  *p =
      (struct posted){.id = id, .peer = peer, .tag = tag, .wildcard = wildcard};
  for (int i = 0; i < rk->n_unexpected; i++)
    if (matches(p, &rk->unexpected[i])) {
      p->matched = 1;
      p->msg = rk->unexpected[i];
      memmove(rk->unexpected + i, rk->unexpected + i + 1,
              (size_t)(rk->n_unexpected - i - 1) * sizeof rk->unexpected[0]);
      rk->n_unexpected--;
      break;
    }
  return 0;
}

static int posted_index(const struct rank *rk, int64_t id) {
  for (int i = 0; i < rk->n_posted; i++)
    if (rk->posted[i].id == id)
      return i;
  return -1;
}

/* A matched receive completes: exactly once, in its channel's order. */
static int deliver(struct mlc *c, int r, int i) {
  struct rank *rk = &c->rank[r];
  struct posted p = rk->posted[i];
  memmove(rk->posted + i, rk->posted + i + 1,
          (size_t)(rk->n_posted - i - 1) * sizeof rk->posted[0]);
  rk->n_posted--;
  const struct msg *m = &p.msg;
  if (m->seq != rk->delivered[m->from] + 1)
    return fail(c,
                "[%.3f] exactly once: rank %d delivers message %lld from %d, "
                "expected %lld (%s)",
                c->time, r, (long long)m->seq, m->from,
                (long long)rk->delivered[m->from] + 1,
                m->seq <= rk->delivered[m->from] ? "a duplicate" : "a gap");
  if (m->payload != c->canon[m->from][r][m->seq])
    return fail(c,
                "[%.3f] rank %d delivers message %lld from %d with a "
                "payload its sender never put on the wire",
                c->time, r, (long long)m->seq, m->from);
  rk->delivered[m->from] = m->seq;
  observe(rk, m->payload);
  c->delivered++;
  note(c, r, "< message %lld from %d%s", (long long)m->seq, m->from,
       p.wildcard ? " (wildcard)" : "");
  if (p.wildcard && p.id < IDS_MAX) { /* the last life's match */
    observe(rk, (uint64_t)m->from);
    rk->src_seen[p.id] = m->from + 1;
  }
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = m->from,
                       .tag = m->tag,
                       .bytes = 8,
                       .id = p.id,
                       .wildcard = p.wildcard};
  struct ft_update u;
  return core_step(c, r, &e, &u) || ship(c, r, &u);
}

/* ---- Operations: 1 done, 0 blocked, -1 error ---------------------------- */

static int do_safe_point(struct mlc *c, int r) {
  struct rank *rk = &c->rank[r];
  struct ft_event e = {.type = FT_EVENT_SAFE_POINT,
                       .index = rk->round + 1,
                       .peer = -1,
                       .tag = -1};
  struct ft_update u;
  if (core_step(c, r, &e, &u) || ship(c, r, &u))
    return -1;
  if (u.flags & FT_UPDATE_CHECKPOINT) {
    rk->image = (struct image){
        .wave = u.wave, .round = rk->round, .clock = u.id, .obs = rk->obs};
    memcpy(rk->image.sent, rk->sent, sizeof rk->sent);
    memcpy(rk->image.delivered, rk->delivered, sizeof rk->delivered);
    note(c, r, "safe point %d: checkpoint %d at id %lld", rk->round + 1, u.wave,
         (long long)u.id);
    struct item it = {.kind = IT_STORED,
                      .rank = r,
                      .life = rk->life,
                      .wave = u.wave,
                      .time = c->time + rk->store_delay};
    return schedule(c, it) ? -1 : 1;
  }
  return 1;
}

static int do_send(struct mlc *c, int r, int peer) {
  struct rank *rk = &c->rank[r];
  struct ft_event e = {
      .type = FT_EVENT_APP_SEND, .peer = peer, .tag = rk->round};
  struct ft_update u;
  if (core_step(c, r, &e, &u) || takes_id(c, r, &u) || ship(c, r, &u))
    return -1;
  observe(rk, (uint64_t)peer);
  struct msg m = {.from = r,
                  .to = peer,
                  .tag = rk->round,
                  .payload = mix(rk->obs, (uint64_t)(rk->sent[peer] + 1))};
  if (u.flags & FT_UPDATE_WAIT_LOGGED) {
    rk->held = m;
    rk->wait = WAIT_RELEASE;
    note(c, r, "  send to %d held until its events are logged", peer);
    return 0;
  }
  return leave(c, r, &m) ? -1 : 1;
}

/* The receive's source, as the core replays it: the logged one for a
 * wildcard receive it forces (REPLAY), else as posted. */
static int replayed_source(struct mlc *c, int r, const struct ft_update *u,
                           int peer) {
  struct rank *rk = &c->rank[r];
  if (!(u->flags & FT_UPDATE_REPLAY) || c->skip_replay)
    return peer;
  int seen = u->id < IDS_MAX ? rk->src_seen[u->id] - 1 : -1;
  if (seen >= 0 && seen != u->replay.peer)
    return fail(c,
                "[%.3f] replay: rank %d's receive %lld is told source %d, "
                "it matched %d before the failure",
                c->time, r, (long long)u->id, u->replay.peer, seen) -
           1;
  note(c, r, "replay: wildcard receive %lld forced to source %d",
       (long long)u->id, u->replay.peer);
  c->replayed++;
  return u->replay.peer;
}

/* A blocking receive, named or wildcard; a replayed wildcard one takes the
 * source the core says. */
static int do_recv(struct mlc *c, int r, int peer) {
  struct rank *rk = &c->rank[r];
  if (!rk->asked) {
    struct ft_event e = {.type = FT_EVENT_APP_RECV,
                         .peer = peer,
                         .tag = rk->round,
                         .wildcard = peer < 0};
    struct ft_update u;
    if (core_step(c, r, &e, &u) || takes_id(c, r, &u) || ship(c, r, &u))
      return -1;
    rk->asked = 1;
    rk->cur_id = u.id;
    peer = replayed_source(c, r, &u, peer);
    if (peer < -1)
      return -1;
    if (post(c, r, u.id, peer, rk->round, e.wildcard))
      return -1;
  }
  int i = posted_index(rk, rk->cur_id);
  if (i < 0 || !rk->posted[i].matched)
    return 0;
  return deliver(c, r, i) ? -1 : 1;
}

static int unexpected_of(const struct rank *rk, int peer, int tag) {
  for (int i = 0; i < rk->n_unexpected; i++)
    if ((peer < 0 || rk->unexpected[i].from == peer) &&
        rk->unexpected[i].tag == tag)
      return i;
  return -1;
}

static int do_probe(struct mlc *c, int r) {
  struct rank *rk = &c->rank[r];
  if (!rk->asked) {
    struct ft_event e = {.type = FT_EVENT_APP_PROBE, .peer = -1, .tag = -1};
    struct ft_update u;
    if (core_step(c, r, &e, &u) || ship(c, r, &u))
      return -1;
    rk->asked = 1;
    rk->replay_peer = -3; /* live */
    if (u.flags & FT_UPDATE_REPLAY) {
      rk->replay_peer = u.replay.found ? u.replay.peer : -2;
      note(c, r, "replay: probe %lld %s", (long long)rk->clock + 1,
           u.replay.found ? "finds a message" : "finds nothing");
      c->replayed++;
    }
  }
  int i =
      unexpected_of(rk, rk->replay_peer >= 0 ? rk->replay_peer : -1, rk->round);
  if (rk->replay_peer == -2)
    i = -1;
  else if (rk->replay_peer >= 0 && i < 0)
    return 0; /* it was there: wait for it */
  struct ft_event e = {.type = FT_EVENT_PROBED, .index = i >= 0};
  if (i >= 0) {
    e.peer = rk->unexpected[i].from;
    e.tag = rk->unexpected[i].tag;
    e.bytes = 8;
  }
  observe(rk, i >= 0 ? (uint64_t)e.peer + 1 : 0);
  struct ft_update u;
  return core_step(c, r, &e, &u) || takes_id(c, r, &u) || ship(c, r, &u) ? -1
                                                                         : 1;
}

static int do_irecv(struct mlc *c, int r, int peer) {
  struct rank *rk = &c->rank[r];
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .peer = peer,
                       .tag = rk->round,
                       .wildcard = peer < 0};
  struct ft_update u;
  if (core_step(c, r, &e, &u) || takes_id(c, r, &u) || ship(c, r, &u))
    return -1;
  int source = replayed_source(c, r, &u, peer);
  if (source < -1)
    return -1;
  return post(c, r, u.id, source, rk->round, e.wildcard) ? -1 : 1;
}

static int tell_completion(struct mlc *c, int r, const int64_t *ids, size_t n) {
  struct ft_event e = {.type = FT_EVENT_COMPLETION, .ids = ids, .n_ids = n};
  struct ft_update u;
  return core_step(c, r, &e, &u) || takes_id(c, r, &u) || ship(c, r, &u);
}

/* The first request that completed, or -1. */
static int first_matched(const struct rank *rk) {
  for (int i = 0; i < rk->n_posted; i++)
    if (rk->posted[i].matched)
      return i;
  return -1;
}

/* MPI_Waitany (poll 0) or one MPI_Testany (poll 1). */
static int do_completion(struct mlc *c, int r, int poll) {
  struct rank *rk = &c->rank[r];
  if (!rk->asked) {
    struct ft_event e = {
        .type = FT_EVENT_APP_COMPLETION, .peer = -1, .tag = -1};
    struct ft_update u;
    if (core_step(c, r, &e, &u) || ship(c, r, &u))
      return -1;
    rk->asked = 1;
    rk->cur_id = -1; /* live */
    if (u.flags & FT_UPDATE_REPLAY) {
      c->replayed++;
      rk->cur_id = u.replay.n_ids ? u.replay.ids[0] : 0;
      if (u.replay.n_ids > 1 || (!poll && u.replay.n_ids == 0))
        return fail(c,
                    "[%.3f] replay: rank %d's completion %lld returns %zu "
                    "requests, it completed one",
                    c->time, r, (long long)rk->clock + 1, u.replay.n_ids);
      if (rk->cur_id && posted_index(rk, rk->cur_id) < 0)
        return fail(c,
                    "[%.3f] replay diverged: rank %d's completion names "
                    "request %lld, not posted",
                    c->time, r, (long long)rk->cur_id);
      note(c, r, "replay: completion %lld returns %s %lld",
           (long long)rk->clock + 1, rk->cur_id ? "request" : "nothing",
           (long long)rk->cur_id);
    }
  }
  int i = rk->cur_id > 0    ? posted_index(rk, rk->cur_id)
          : rk->cur_id == 0 ? -1
                            : first_matched(rk);
  if (i >= 0 && !rk->posted[i].matched)
    return 0; /* replayed: wait for that one */
  if (i < 0 && !poll)
    return 0; /* MPI_Waitany blocks */
  if (i < 0) {
    observe(rk, 0);
    if (tell_completion(c, r, NULL, 0))
      return -1;
    rk->asked = 0;
    rk->wait = WAIT_TIME;
    struct item it = {.kind = IT_WAKE,
                      .rank = r,
                      .life = rk->life,
                      .time = c->time + rk->iteration / 8};
    return schedule(c, it) ? -1 : 0;
  }
  int64_t id = rk->posted[i].id;
  observe(rk, (uint64_t)id);
  return deliver(c, r, i) || tell_completion(c, r, &id, 1) ? -1 : 1;
}

static int do_op(struct mlc *c, int r) {
  struct rank *rk = &c->rank[r];
  const struct op *op = &rk->ops[rk->pc];
  switch (op->kind) {
  case OP_SAFE:
    return do_safe_point(c, r);
  case OP_COMPUTE: {
    rk->wait = WAIT_TIME;
    rk->pc++;
    struct item it = {.kind = IT_WAKE,
                      .rank = r,
                      .life = rk->life,
                      .time = c->time + rk->iteration};
    return schedule(c, it) ? -1 : 0;
  }
  case OP_SEND:
    return do_send(c, r, op->peer);
  case OP_RECV:
  case OP_RECV_ANY:
    return do_recv(c, r, op->peer);
  case OP_PROBE:
    return do_probe(c, r);
  case OP_IRECV:
    return do_irecv(c, r, op->peer);
  case OP_WAITANY:
  case OP_TESTANY:
    return do_completion(c, r, op->kind == OP_TESTANY);
  case OP_END:
    if (++rk->round == c->rounds) {
      rk->done = 1;
      note(c, r, "done");
      return 0;
    }
    plan_round(c, r);
    return 0;
  }
  return fail(c, "bad operation");
}

/* Runs rank r's program until it blocks. */
static int advance(struct mlc *c, int r) {
  struct rank *rk = &c->rank[r];
  while (!rk->done && rk->wait == WAIT_NONE) {
    int pc = rk->pc, round = rk->round;
    int rc = do_op(c, r);
    if (rc < 0)
      return -1;
    if (rc == 1) {
      rk->pc++;
      rk->asked = 0;
    } else if (rk->pc == pc && rk->round == round && rk->wait == WAIT_NONE) {
      return 0; /* blocked on a message */
    }
  }
  return 0;
}

/* ---- Control ------------------------------------------------------------- */

static int on_ack(struct mlc *c, const struct item *it) {
  struct rank *rk = &c->rank[it->rank];
  if (it->life != rk->life)
    return 0;
  struct ft_event e = {.type = FT_EVENT_CONTROL, .peer = -1, .tag = -1};
  e.control = (struct ft_control){.kind = FT_ML_CONTROL_LOGGED,
                                  .from = c->ranks,
                                  .to = it->rank,
                                  .value = it->value};
  struct ft_update u;
  if (core_step(c, it->rank, &e, &u) || ship(c, it->rank, &u))
    return -1;
  if (u.flags & FT_UPDATE_COMMIT) {
    if (u.wave != rk->image.wave)
      return fail(c, "rank %d commits %d, its image is of %d", it->rank, u.wave,
                  rk->image.wave);
    rk->committed = rk->image;
    c->commits++;
    note(c, it->rank, "commits checkpoint %d", u.wave);
  }
  if ((u.flags & FT_UPDATE_RELEASE) && rk->wait == WAIT_RELEASE) {
    rk->wait = WAIT_NONE;
    note(c, it->rank, "  released: its events are logged");
    if (leave(c, it->rank, &rk->held))
      return -1;
    rk->pc++;
    rk->asked = 0;
  }
  return advance(c, it->rank);
}

static int on_stored(struct mlc *c, const struct item *it) {
  struct rank *rk = &c->rank[it->rank];
  if (it->life != rk->life)
    return 0;
  struct ft_event e = {
      .type = FT_EVENT_IMAGE_STORED, .wave = it->wave, .peer = -1, .tag = -1};
  struct ft_update u;
  if (core_step(c, it->rank, &e, &u) || ship(c, it->rank, &u))
    return -1;
  if (u.flags & FT_UPDATE_COMMIT) {
    rk->committed = rk->image;
    c->commits++;
    note(c, it->rank, "commits checkpoint %d", u.wave);
  }
  return 0;
}

/* ---- A failure ----------------------------------------------------------- */

static int by_id(const void *a, const void *b) {
  const struct ft_logged_event *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* The logger's events of rank f, sorted by id, stable (insertion sort: the
 * log is almost sorted). */
static size_t sorted_events(struct mlc *c, int f) {
  struct rank *rk = &c->rank[f];
  size_t n = c->n_log[f];
  memcpy(rk->replay, c->log[f], n * sizeof rk->replay[0]);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && by_id(&rk->replay[j - 1], &rk->replay[j]) > 0;
         j--) {
      struct ft_logged_event t = rk->replay[j];
      rk->replay[j] = rk->replay[j - 1];
      rk->replay[j - 1] = t;
    }
  rk->horizon = 0;
  for (size_t i = 0; i < n; i++)
    rk->horizon =
        rk->replay[i].id > rk->horizon ? rk->replay[i].id : rk->horizon;
  return n;
}

static void restore(struct mlc *c, int f) {
  struct rank *rk = &c->rank[f];
  const struct image *img = &rk->committed;
  rk->round = img->wave ? img->round : 0;
  rk->obs = img->wave ? img->obs : 0;
  for (int q = 0; q < c->ranks; q++) {
    rk->sent[q] = img->wave ? img->sent[q] : 0;
    rk->delivered[q] = img->wave ? img->delivered[q] : 0;
    c->log_hi[f][q] = rk->sent[q]; /* the log in the image */
  }
  plan_round(c, f);
  rk->pc = img->wave ? 1 : 0; /* past the checkpoint's safe point */
}

/* Rank f fails: its memory, the messages on their way to it and its
 * events on their way to the logger are lost; it restarts alone. */
static int fail_rank(struct mlc *c, int f) {
  struct rank *rk = &c->rank[f];
  rk->life++;
  c->restarts++;
  rk->done = rk->n_posted = rk->n_unexpected = 0;
  rk->wait = WAIT_NONE;
  rk->asked = 0;
  rk->n_stage = 0;
  rk->image = rk->committed; /* an image on its way is lost */
  size_t n = sorted_events(c, f);
  rk->shipped = (int64_t)n;
  note(c, f,
       "** fails; restarts, fetches %zu events from the event logger "
       "(horizon id %lld)",
       n, (long long)rk->horizon);
  struct ft_event e = {.type = FT_EVENT_RESTART,
                       .index = (int64_t)n,
                       .id = rk->horizon,
                       .logged = rk->replay,
                       .n_logged = n,
                       .peer = -1,
                       .tag = -1};
  struct ft_update u;
  if (core_step(c, f, &e, &u))
    return -1;
  rk->clock = 0;
  restore(c, f);
  if (rk->committed.wave) {
    struct ft_event b = {.type = FT_EVENT_ROLLBACK,
                         .wave = rk->committed.wave,
                         .id = rk->committed.clock,
                         .index = rk->committed.round + 1,
                         .peer = -1,
                         .tag = -1};
    if (core_step(c, f, &b, &u))
      return -1;
    rk->clock = rk->committed.clock;
    note(c, f, "restores checkpoint %d: round %d, id %lld", rk->committed.wave,
         rk->committed.round, (long long)rk->clock);
  } else {
    note(c, f, "has no checkpoint: runs again from the start");
  }
  rk->replaying = rk->horizon > rk->clock;
  for (int q = 0; q < c->ranks; q++) {
    c->serve[q][f] = rk->delivered[q] < c->hw[q][f] ? rk->delivered[q] + 1 : 0;
    if (serve(c, q, f))
      return -1;
  }
  return advance(c, f);
}

/* ---- The run ------------------------------------------------------------- */

static int pop(struct mlc *c, struct item *out) {
  if (c->n_items == 0)
    return 0;
  size_t best = 0;
  for (size_t i = 1; i < c->n_items; i++) {
    const struct item *a = &c->items[i], *b = &c->items[best];
    if (a->time < b->time || (a->time == b->time && a->tie < b->tie))
      best = i;
  }
  *out = c->items[best];
  c->items[best] = c->items[--c->n_items];
  return 1;
}

static int handle(struct mlc *c, const struct item *it) {
  switch (it->kind) {
  case IT_MSG:
    return on_arrival(c, it) || advance(c, it->rank);
  case IT_LOG:
    return on_log(c, it);
  case IT_ACK:
    return on_ack(c, it);
  case IT_STORED:
    return on_stored(c, it);
  case IT_WAKE:
    if (it->life != c->rank[it->rank].life)
      return 0;
    c->rank[it->rank].wait = WAIT_NONE;
    return advance(c, it->rank);
  }
  return fail(c, "bad item");
}

static int all_done(const struct mlc *c) {
  for (int r = 0; r < c->ranks; r++)
    if (!c->rank[r].done)
      return 0;
  return 1;
}

static int final_check(struct mlc *c) {
  for (int p = 0; p < c->ranks; p++)
    for (int q = 0; q < c->ranks; q++)
      if (c->rank[q].delivered[p] != c->rank[p].sent[q])
        return fail(c,
                    "end: rank %d delivered %lld messages from %d, which "
                    "sent %lld",
                    q, (long long)c->rank[q].delivered[p], p,
                    (long long)c->rank[p].sent[q]);
  return 0;
}

static enum seeded_phase phase_of(const struct mlc *c, int f) {
  const struct rank *rk = &c->rank[f];
  for (int r = 0; r < c->ranks; r++)
    if (c->rank[r].replaying)
      return SEEDED_RECOVERING;
  if (rk->image.wave > rk->committed.wave)
    return SEEDED_CUT;
  if (rk->wait == WAIT_RELEASE)
    return SEEDED_HELD;
  return SEEDED_IDLE;
}

struct plan {
  int failures;
  uint64_t at[SEEDED_MAX_FAILURES]; /* steps */
  int victim[SEEDED_MAX_FAILURES];
};

static int play(struct mlc *c, const struct plan *plan,
                struct seeded_result *r) {
  for (int q = 0; q < c->ranks; q++)
    if (advance(c, q))
      return -1;
  int next = 0;
  while (!all_done(c)) {
    if (next < plan->failures && c->steps >= plan->at[next]) {
      r->phases[phase_of(c, plan->victim[next])]++;
      r->rollbacks++;
      if (fail_rank(c, plan->victim[next++]))
        return -1;
      continue;
    }
    struct item it;
    if (!pop(c, &it))
      return fail(c, "[%.3f] deadlock: nothing can move", c->time);
    c->time = it.time;
    if (++c->steps > STEPS_MAX)
      return fail(c, "no end after %u steps", STEPS_MAX);
    if (handle(c, &it))
      return -1;
  }
  return final_check(c);
}

/* ---- Set-up -------------------------------------------------------------- */

static struct mlc *mlc_new(const struct ft_protocol_ops *ops, int ranks,
                           int trace) {
  struct mlc *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->ops = ops;
  c->ranks = ranks;
  c->trace_on = trace;
  c->tracer = cluster_new(ops, 1, 0);
  if (!c->tracer) {
    free(c);
    return NULL;
  }
  c->tracer->trace_on = trace;
  c->tracer->trace_tail = 1;
  return c;
}

static void mlc_free(struct mlc *c) {
  if (!c)
    return;
  for (int r = 0; r < R_MAX; r++)
    free(c->rank[r].core);
  cluster_free(c->tracer);
  free(c);
}

static int start(struct mlc *c) {
  for (int r = 0; r < c->ranks; r++) {
    struct ft_core_config cfg = {.rank = r,
                                 .ranks = c->ranks,
                                 .period = c->period,
                                 .start = 0,
                                 .batch = c->batch};
    c->rank[r].core = calloc(1, c->ops->state_size(&cfg));
    if (!c->rank[r].core || c->ops->init(c->rank[r].core, &cfg) != 0)
      return fail(c, "rank %d: the core rejects its configuration", r);
    plan_round(c, r);
  }
  return 0;
}

static void draw_cluster(struct mlc *c, uint64_t *x) {
  for (int r = 0; r < c->ranks; r++) {
    c->rank[r].iteration = cluster_uniform(x, 0.05, 0.4);
    c->rank[r].store_delay = cluster_uniform(x, 0.01, 0.6);
    double u = cluster_uniform(x, 0.0, 1.0);
    c->logger_latency[r] = u < 0.15 ? 0.0 : cluster_uniform(x, 0.0001, 0.1);
    for (int to = 0; to < c->ranks; to++) {
      u = cluster_uniform(x, 0.0, 1.0);
      c->latency[r][to] = u < 0.15   ? 0.0
                          : u < 0.35 ? cluster_uniform(x, 0.05, 0.5)
                                     : cluster_uniform(x, 0.0001, 0.05);
      c->edge[r][to] =
          to != r && (to == (r + 1) % c->ranks || r == (to + 1) % c->ranks ||
                      cluster_uniform(x, 0.0, 1.0) < 0.3);
    }
  }
  static const int batches[] = {0, 1, 2, 3, 8};
  c->batch = batches[cluster_splitmix64(x) % 5];
  c->rounds = 3 + (int)(cluster_splitmix64(x) % (ROUNDS_MAX - 2));
}

static void summarize(const struct mlc *c, struct seeded_result *r) {
  r->steps = c->steps;
  r->commits = (int)c->commits;
  r->delivered = c->delivered;
  r->replayed = c->replayed;
  r->trace_hash = c->tracer->trace_hash;
  if (c->trace_on)
    memcpy(r->trace, c->tracer->trace, c->tracer->trace_len + 1);
  if (c->error[0]) {
    r->failed = 1;
    snprintf(r->error, sizeof r->error, "%s", c->error);
  }
}

int ml_seeded_run(const struct seeded_params *p,
                  const struct ft_protocol_ops *ops, struct seeded_result *r) {
  uint64_t x = p->seed ^ 0x5eed5eed5eed5eedu;
  cluster_splitmix64(&x);
  r->ranks = 2 + (int)(cluster_splitmix64(&x) % 5);
  r->failures = (int)(cluster_splitmix64(&x) % 5);
  r->period = cluster_uniform(&x, 0.3, 2.0);
  r->ranks = p->ranks > 0 ? p->ranks : r->ranks;
  r->failures = p->failures >= 0 ? p->failures : r->failures;
  if (r->ranks > R_MAX) {
    snprintf(r->error, sizeof r->error,
             "message logging: ranks must be 1..%d (0: drawn)", R_MAX);
    return -1;
  }
  struct mlc *c = mlc_new(ops, r->ranks, p->trace);
  if (!c) {
    snprintf(r->error, sizeof r->error, "out of memory");
    return -1;
  }
  c->period = r->period;
  draw_cluster(c, &x);
  c->app_seed = cluster_splitmix64(&x) | 1u;
  c->rng = cluster_splitmix64(&x);
  c->shuffle = 1;
  c->skip_replay = p->skip_replay;
  /* Failures within the run's likely length, in order. */
  struct plan plan = {.failures = r->failures};
  uint64_t span = (uint64_t)(c->rounds * c->ranks * 24);
  for (int i = 0; i < plan.failures; i++) {
    plan.at[i] = 1 + cluster_splitmix64(&x) % span;
    plan.victim[i] = (int)(cluster_splitmix64(&x) % (uint64_t)c->ranks);
  }
  for (int i = 1; i < plan.failures; i++)
    for (int j = i; j > 0 && plan.at[j - 1] > plan.at[j]; j--) {
      uint64_t t = plan.at[j];
      plan.at[j] = plan.at[j - 1];
      plan.at[j - 1] = t;
    }
  if (start(c) == 0)
    play(c, &plan, r);
  summarize(c, r);
  mlc_free(c);
  return r->failed ? 1 : 0;
}

int ml_golden_run(const struct ft_protocol_ops *ops, struct seeded_result *r) {
  memset(r, 0, sizeof *r);
  struct mlc *c = mlc_new(ops, 3, 1);
  if (!c)
    return -1;
  c->period = 0.5;
  c->rounds = 5;
  c->batch = 1;
  c->app_seed = 11;
  for (int q = 0; q < 3; q++) {
    c->rank[q].iteration = 0.2;
    c->rank[q].store_delay = 0.05;
    c->logger_latency[q] = 0.01;
    for (int to = 0; to < 3; to++) {
      c->latency[q][to] = 0.02;
      c->edge[q][to] = to != q;
    }
  }
  struct plan plan = {.failures = 1, .at = {100}, .victim = {1}};
  r->ranks = 3;
  r->failures = 1;
  r->period = c->period;
  if (start(c) == 0)
    play(c, &plan, r);
  summarize(c, r);
  mlc_free(c);
  return r->failed ? 1 : 0;
}
