/* The seeded any-call cluster (see anycall_cluster.h). */
#include "anycall_cluster.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bookmark/bookmark.h"
#include "pcl/pcl.h"
#include "vcl/vcl.h"

#define AC_MAX_RANKS 8
#define AC_SLOTS (AC_MAX_RANKS + 1) /* the ranks, then the scheduler */
#define AC_ITERATIONS 40
#define AC_MAX_CALLS (AC_ITERATIONS * 2 * 2 * AC_MAX_RANKS)
#define AC_CHANNEL_SIZE 512 /* entries per channel and incarnation */
#define AC_MAX_STEPS 2000000u
#define AC_MAX_DONE 64 /* CHECKPOINT_DONE messages in flight */

enum entry_kind { ENTRY_APP = 1, ENTRY_MARKER };

/* One entry of a channel: an application message (its number on the
 * channel) or a marker (a control message carried in the channel). */
struct entry {
  enum entry_kind kind;
  int64_t seq;
  struct ft_control control;
  double time; /* arrival */
};

struct channel {
  struct entry e[AC_CHANNEL_SIZE];
  int head, tail;
};

struct call {
  int send; /* 1: a send to peer, 0: a receive from peer */
  int peer;
};

/* What a checkpoint holds (and the application's own state). */
struct app_state {
  int pc;      /* the call the rank is in or will enter next (0-based) */
  int in_call; /* in call pc */
  int64_t sent[AC_MAX_RANKS], rcvd[AC_MAX_RANKS];
  int64_t buf[AC_MAX_RANKS]; /* arrived, receivable, not received */
};

/* A checkpoint: the state captured, and the channel state kept (per peer,
 * that many messages after the arrived ones: vcl's STORE). */
struct image {
  int wave;
  struct app_state s;
  int64_t kept[AC_MAX_RANKS];
};

struct rank {
  void *core;
  struct app_state s;
  int64_t queued[AC_MAX_RANKS]; /* the delayed receive queue, per peer */
  int deferred;                 /* its send call's message is DEFERred */
  int posted;                   /* the call's operation is posted */
  double next_call;             /* computing until then; < 0: not */
  double deadline;              /* the core's TIMER; < 0: none */
  double stored_at;             /* IMAGE_STORED due; < 0: none */
  int storing_wave;
  struct image img, com; /* in progress (wave 0: none), committed */
  /* Channel state (RECORD): per peer, arrival numbers since the rollback
   * first_rec .. last_rec recorded (0: none), and the app-level number of
   * the message before arrival 1. */
  int64_t first_rec[AC_MAX_RANKS], last_rec[AC_MAX_RANKS];
  int64_t arrivals[AC_MAX_RANKS], base[AC_MAX_RANKS];
  struct call prog[AC_MAX_CALLS];
  int n_prog;
};

struct done_msg {
  struct ft_control control;
  double time;
};

struct ac {
  const struct ft_protocol_ops *ops;
  struct seeded_result *r;
  int ranks, trace;
  uint64_t x;
  double time, period, lat_max;
  int scheduler;     /* the channel-state family: slot `ranks` */
  int markers_apart; /* markers travel apart from the messages */
  struct rank rank[AC_SLOTS];
  double last_control[AC_SLOTS][AC_SLOTS]; /* FIFO of control apart */
  struct channel ch[AC_MAX_RANKS][AC_MAX_RANKS];
  double last_arrival[AC_MAX_RANKS][AC_MAX_RANKS];
  struct done_msg done[AC_MAX_DONE];
  int n_done;
  int committed;
  double fail_at[SEEDED_MAX_FAILURES];
  int failures_left;
};

static double uniform(struct ac *c, double lo, double hi) {
  return cluster_uniform(&c->x, lo, hi);
}

static void note(struct ac *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends one line to the narrative and its hash (trace only). */
static void note(struct ac *c, const char *fmt, ...) {
  if (!c->trace)
    return;
  char line[256];
  int n = snprintf(line, sizeof line, "[%8.4f] ", c->time);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  va_end(ap);
  size_t len = strlen(line);
  if (len + 1 < sizeof line)
    line[len++] = '\n';
  for (size_t i = 0; i < len; i++) {
    c->r->trace_hash ^= (unsigned char)line[i];
    c->r->trace_hash *= 0x100000001b3u;
  }
  size_t have = strlen(c->r->trace);
  if (have + len >= sizeof c->r->trace) { /* keep the tail */
    size_t cut = have / 2;
    memmove(c->r->trace, c->r->trace + cut, have - cut + 1);
    have -= cut;
  }
  memcpy(c->r->trace + have, line, len);
  c->r->trace[have + len] = '\0';
}

static int violated(struct ac *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int violated(struct ac *c, const char *fmt, ...) {
  if (!c->r->failed) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->r->error, sizeof c->r->error, fmt, ap);
    va_end(ap);
    c->r->failed = 1;
    note(c, "VIOLATION: %s", c->r->error);
  }
  return -1;
}

/* ---- The programs ------------------------------------------------------ */

static void add_call(struct rank *k, int send, int peer) {
  k->prog[k->n_prog++] = (struct call){.send = send, .peer = peer};
}

/* Each iteration: a random graph (a ring, then random edges), up to two
 * messages per edge; each rank sends to its successors, then receives
 * from its predecessors, in rank order. */
static void draw_programs(struct ac *c) {
  for (int it = 0; it < AC_ITERATIONS; it++) {
    int n[AC_MAX_RANKS][AC_MAX_RANKS] = {{0}};
    for (int a = 0; a < c->ranks; a++)
      for (int b = 0; b < c->ranks; b++)
        if (a != b && (b == (a + 1) % c->ranks || uniform(c, 0, 1) < 0.3))
          n[a][b] = 1 + (int)(cluster_splitmix64(&c->x) % 2);
    for (int a = 0; a < c->ranks; a++) {
      for (int b = 0; b < c->ranks; b++)
        for (int m = 0; m < n[a][b]; m++)
          add_call(&c->rank[a], 1, b);
      for (int b = 0; b < c->ranks; b++)
        for (int m = 0; m < n[b][a]; m++)
          add_call(&c->rank[a], 0, b);
    }
  }
}

/* ---- Carrying out the core's updates --------------------------------- */

static int step_core(struct ac *c, int r, struct ft_event e,
                     struct ft_update *u);
static int feed(struct ac *c, int r, struct ft_event e, struct ft_update *u);
static int carry_out(struct ac *c, int r, const struct ft_update *u);

static int send_app(struct ac *c, int from, int to) {
  struct rank *k = &c->rank[from];
  struct channel *ch = &c->ch[from][to];
  if (ch->tail >= AC_CHANNEL_SIZE)
    return violated(c, "channel %d -> %d overflows", from, to);
  double t = c->time + uniform(c, 0.0, c->lat_max);
  if (t < c->last_arrival[from][to])
    t = c->last_arrival[from][to]; /* FIFO */
  c->last_arrival[from][to] = t;
  k->s.sent[to]++;
  ch->e[ch->tail++] =
      (struct entry){.kind = ENTRY_APP, .seq = k->s.sent[to], .time = t};
  note(c, "rank %d sends message %lld to rank %d", from,
       (long long)k->s.sent[to], to);
  return 0;
}

/* Whether control message m travels in the application's channel, in
 * order with its messages: the markers between two ranks. */
static int in_band(const struct ac *c, const struct ft_control *m) {
  if (m->from >= c->ranks || m->to >= c->ranks)
    return 0; /* the scheduler's */
  if (c->ops->family == FT_FAMILY_DRAIN)
    return m->kind == FT_BOOKMARK_CONTROL_BOOKMARK;
  return c->scheduler ? m->kind == FT_VCL_CONTROL_MARKER
                      : m->kind == FT_PCL_CONTROL_MARKER;
}

/* An application message's size: 8 to 64 bytes, from its number on its
 * channel (the same in a re-execution); the drain family counts them. */
static uint64_t msg_bytes(int64_t seq) { return 8u * (uint64_t)(seq % 8 + 1); }

static int send_control(struct ac *c, const struct ft_control *m) {
  int slots = c->ranks + c->scheduler;
  if (m->from < 0 || m->from >= slots || m->to < 0 || m->to >= slots ||
      m->from == m->to)
    return violated(c, "rank %d sends control kind %d to %d", m->from, m->kind,
                    m->to);
  double t = c->time + uniform(c, 0.0, c->lat_max);
  if (in_band(c, m) && !c->markers_apart) {
    struct channel *ch = &c->ch[m->from][m->to];
    if (ch->tail >= AC_CHANNEL_SIZE)
      return violated(c, "channel %d -> %d overflows", m->from, m->to);
    if (t < c->last_arrival[m->from][m->to])
      t = c->last_arrival[m->from][m->to];
    c->last_arrival[m->from][m->to] = t;
    ch->e[ch->tail++] =
        (struct entry){.kind = ENTRY_MARKER, .control = *m, .time = t};
    return 0;
  }
  if (c->n_done >= AC_MAX_DONE)
    return violated(c, "too many control messages in flight");
  if (t < c->last_control[m->from][m->to])
    t = c->last_control[m->from][m->to]; /* FIFO per pair */
  c->last_control[m->from][m->to] = t;
  /* A marker apart may overtake the messages sent before it, never be
   * overtaken by those sent after (the contract of FT_EVENT_ARRIVED). */
  if (in_band(c, m) && t + 1e-9 > c->last_arrival[m->from][m->to])
    c->last_arrival[m->from][m->to] = t + 1e-9;
  c->done[c->n_done++] = (struct done_msg){.control = *m, .time = t};
  return 0;
}

/* The rank's current call returns; it computes until its next one. */
static int end_call(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  struct ft_update u;
  k->s.in_call = 0;
  k->posted = 0;
  int64_t index = k->s.pc + 1;
  k->s.pc++;
  k->next_call = k->s.pc < k->n_prog ? c->time + uniform(c, 0.0, 0.01) : -1;
  return step_core(c, r,
                   (struct ft_event){.type = FT_EVENT_CALL_END,
                                     .time = c->time,
                                     .peer = -1,
                                     .index = index},
                   &u);
}

/* A receive call completes when its message is receivable. */
static int try_receive(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  if (!k->s.in_call || !k->posted || k->s.pc >= k->n_prog)
    return 0;
  struct call call = k->prog[k->s.pc];
  if (call.send || k->s.buf[call.peer] == 0)
    return 0;
  k->s.buf[call.peer]--;
  k->s.rcvd[call.peer]++;
  c->r->delivered++;
  note(c, "rank %d receives message %lld of rank %d", r,
       (long long)k->s.rcvd[call.peer], call.peer);
  struct ft_update u;
  if (step_core(c, r,
                (struct ft_event){.type = FT_EVENT_DELIVERED,
                                  .time = c->time,
                                  .peer = call.peer},
                &u))
    return -1;
  return end_call(c, r);
}

static int checkpoint(struct ac *c, int r, int wave, int store) {
  struct rank *k = &c->rank[r];
  if (!k->s.in_call)
    return violated(c, "rank %d checkpoints wave %d outside an MPI call", r,
                    wave);
  k->img = (struct image){.wave = wave, .s = k->s};
  if (store) {
    k->stored_at = c->time + uniform(c, 0.001, 0.05);
    k->storing_wave = wave;
  }
  c->r->retained++;
  note(c, "rank %d checkpoints wave %d in call %d (%s)", r, wave, k->s.pc + 1,
       k->prog[k->s.pc].send ? "send" : "receive");
  return 0;
}

/* FLUSH: the deferred send leaves (its call returns), the queue becomes
 * receivable. */
static int flush(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  for (int p = 0; p < c->ranks; p++) {
    k->s.buf[p] += k->queued[p];
    k->queued[p] = 0;
  }
  if (k->deferred) {
    k->deferred = 0;
    if (send_app(c, r, k->prog[k->s.pc].peer) || end_call(c, r))
      return -1;
    return 0;
  }
  return try_receive(c, r);
}

/* STORE: every kept message was RECORDed, and the channel state follows
 * the image's arrived messages. */
static int store(struct ac *c, int r, const struct ft_update *u) {
  struct rank *k = &c->rank[r];
  if (k->img.wave != u->wave)
    return violated(c, "rank %d stores wave %d it never captured", r, u->wave);
  for (size_t i = 0; i < u->n_keep; i++) {
    struct ft_record_range g = u->keep[i];
    if (g.peer < 0 || g.peer >= c->ranks || g.first > g.last ||
        k->first_rec[g.peer] == 0 || g.first < k->first_rec[g.peer] ||
        g.last > k->last_rec[g.peer])
      return violated(c,
                      "rank %d keeps messages %lld..%lld of rank %d, not "
                      "all recorded",
                      r, (long long)g.first, (long long)g.last, g.peer);
    int64_t next = k->img.s.rcvd[g.peer] + k->img.s.buf[g.peer] + 1;
    if (k->base[g.peer] + g.first != next)
      return violated(c,
                      "rank %d keeps from message %lld of rank %d, its "
                      "image ends at %lld",
                      r, (long long)(k->base[g.peer] + g.first), g.peer,
                      (long long)(next - 1));
    k->img.kept[g.peer] = g.last - g.first + 1;
    c->r->kept += k->img.kept[g.peer];
  }
  k->stored_at = c->time + uniform(c, 0.001, 0.05);
  k->storing_wave = u->wave;
  note(c, "rank %d stores wave %d with %zu channel-state ranges", r, u->wave,
       u->n_keep);
  return 0;
}

static int commit(struct ac *c, int wave) {
  if (wave != c->committed + 1)
    return violated(c, "commit of wave %d after wave %d", wave, c->committed);
  for (int a = 0; a < c->ranks; a++)
    if (c->rank[a].img.wave != wave)
      return violated(c, "wave %d commits without rank %d's image", wave, a);
  for (int a = 0; a < c->ranks; a++)
    for (int b = 0; b < c->ranks; b++) {
      const struct app_state *sa = &c->rank[a].img.s, *sb = &c->rank[b].img.s;
      int64_t in_b = sb->rcvd[a] + sb->buf[a] + c->rank[b].img.kept[a];
      if (a != b && in_b != sa->sent[b])
        return violated(c,
                        "wave %d: rank %d's image holds %lld messages of rank "
                        "%d, which sent %lld before its checkpoint (%s)",
                        wave, b, (long long)in_b, a, (long long)sa->sent[b],
                        in_b > sa->sent[b] ? "orphan" : "lost in transit");
    }
  for (int a = 0; a < c->ranks; a++)
    c->rank[a].com = c->rank[a].img;
  c->committed = wave;
  c->r->commits++;
  note(c, "wave %d commits", wave);
  return 0;
}

static int carry_out(struct ac *c, int r, const struct ft_update *u) {
  struct rank *k = &c->rank[r];
  k->deadline = u->deadline;
  for (size_t i = 0; i < u->n_sends; i++)
    if (send_control(c, &u->sends[i]))
      return -1;
  if ((u->flags & FT_UPDATE_CHECKPOINT) && checkpoint(c, r, u->wave, 1))
    return -1;
  if ((u->flags & FT_UPDATE_CAPTURE) && checkpoint(c, r, u->wave, 0))
    return -1;
  if ((u->flags & FT_UPDATE_STORE) && store(c, r, u))
    return -1;
  if ((u->flags & FT_UPDATE_COMMIT) && commit(c, u->wave))
    return -1;
  if (u->flags & FT_UPDATE_FLUSH)
    return flush(c, r);
  return 0;
}

/* Steps the core only: the caller carries out first what the update says
 * of the event itself (PASS, DEFER, QUEUE), then carry_out (the
 * ft_protocol.h order: CHECKPOINT then FLUSH). */
static int feed(struct ac *c, int r, struct ft_event e, struct ft_update *u) {
  c->r->steps++;
  if (c->ops->step(c->rank[r].core, &e, u) != 0)
    return violated(c, "rank %d: the core refused event %d", r, (int)e.type);
  return 0;
}

/* An event with no effect of its own. */
static int step_core(struct ac *c, int r, struct ft_event e,
                     struct ft_update *u) {
  if (feed(c, r, e, u))
    return -1;
  return carry_out(c, r, u);
}

/* ---- The application's steps ----------------------------------------- */

static int post_send(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  int peer = k->prog[k->s.pc].peer;
  struct ft_update u;
  if (feed(c, r,
           (struct ft_event){.type = FT_EVENT_APP_SEND,
                             .time = c->time,
                             .peer = peer,
                             .bytes = msg_bytes(k->s.sent[peer] + 1)},
           &u))
    return -1;
  if (u.flags & FT_UPDATE_DEFER) {
    k->deferred = 1;
    c->r->holds++;
    note(c, "rank %d defers its message %lld to rank %d", r,
         (long long)k->s.sent[peer] + 1, peer);
    return carry_out(c, r, &u);
  }
  if (!(u.flags & FT_UPDATE_PASS))
    return violated(c, "rank %d: APP_SEND neither passes nor defers", r);
  if (send_app(c, r, peer) || carry_out(c, r, &u))
    return -1;
  return end_call(c, r);
}

static int post_recv(struct ac *c, int r) {
  struct ft_update u;
  if (step_core(
          c, r,
          (struct ft_event){.type = FT_EVENT_APP_RECV,
                            .time = c->time,
                            .peer = c->rank[r].prog[c->rank[r].s.pc].peer},
          &u))
    return -1;
  return try_receive(c, r);
}

/* The rank's call (pc) is entered or, after a rollback, resumed: post its
 * operation. */
static int post(struct ac *c, int r) {
  c->rank[r].posted = 1;
  return c->rank[r].prog[c->rank[r].s.pc].send ? post_send(c, r)
                                               : post_recv(c, r);
}

static int enter_call(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  struct ft_update u;
  k->next_call = -1;
  k->s.in_call = 1;
  if (step_core(c, r,
                (struct ft_event){.type = FT_EVENT_CALL,
                                  .time = c->time,
                                  .peer = -1,
                                  .index = k->s.pc + 1},
                &u))
    return -1;
  return post(c, r);
}

/* RECORD: the message's arrival number is its own, and records are
 * contiguous. */
static int record(struct ac *c, int r, int from, const struct ft_update *u,
                  int64_t seq) {
  struct rank *k = &c->rank[r];
  if (u->index != k->arrivals[from] || k->base[from] + u->index != seq)
    return violated(c,
                    "rank %d records message %lld of rank %d as number "
                    "%lld",
                    r, (long long)seq, from, (long long)u->index);
  if (k->first_rec[from] == 0 || k->last_rec[from] + 1 != u->index)
    k->first_rec[from] = u->index;
  k->last_rec[from] = u->index;
  note(c, "rank %d records message %lld of rank %d", r, (long long)seq, from);
  return 0;
}

static int arrive(struct ac *c, int from, int to) {
  struct channel *ch = &c->ch[from][to];
  struct entry en = ch->e[ch->head++];
  struct ft_update u;
  if (en.kind == ENTRY_MARKER)
    return step_core(c, to,
                     (struct ft_event){.type = FT_EVENT_CONTROL,
                                       .time = c->time,
                                       .peer = from,
                                       .control = en.control},
                     &u);
  struct rank *k = &c->rank[to];
  int64_t next = k->s.rcvd[from] + k->s.buf[from] + k->queued[from] + 1;
  if (en.seq != next)
    return violated(c,
                    "message %lld of rank %d arrives at rank %d, which "
                    "expects message %lld (lost or twice)",
                    (long long)en.seq, from, to, (long long)next);
  if (feed(c, to,
           (struct ft_event){.type = FT_EVENT_ARRIVED,
                             .time = c->time,
                             .peer = from,
                             .bytes = msg_bytes(en.seq)},
           &u))
    return -1;
  k->arrivals[from]++;
  if ((u.flags & FT_UPDATE_RECORD) && record(c, to, from, &u, en.seq))
    return -1;
  if (u.flags & FT_UPDATE_QUEUE) {
    k->queued[from]++;
    c->r->kept++;
    note(c, "rank %d queues message %lld of rank %d", to, (long long)en.seq,
         from);
  } else if (u.flags & FT_UPDATE_PASS) {
    k->s.buf[from]++;
  } else {
    return violated(c, "rank %d: ARRIVED neither passes nor queues", to);
  }
  if (carry_out(c, to, &u))
    return -1;
  return try_receive(c, to);
}

/* ---- Failures --------------------------------------------------------- */

static int rollback(struct ac *c) {
  c->r->rollbacks++;
  note(c, "FAILURE: every rank rolls back to wave %d", c->committed);
  for (int a = 0; a < c->ranks; a++)
    for (int b = 0; b < c->ranks; b++)
      c->ch[a][b].head = c->ch[a][b].tail = 0;
  memset(c->last_arrival, 0, sizeof c->last_arrival);
  memset(c->last_control, 0, sizeof c->last_control);
  c->n_done = 0;
  for (int r = 0; r < c->ranks + c->scheduler; r++) {
    struct rank *k = &c->rank[r];
    k->s = k->com.s;
    for (int p = 0; p < c->ranks; p++) { /* the channel state, as arrived */
      k->s.buf[p] += k->com.kept[p];
      k->base[p] = k->s.rcvd[p] + k->s.buf[p];
      k->arrivals[p] = k->first_rec[p] = k->last_rec[p] = 0;
    }
    memset(k->queued, 0, sizeof k->queued);
    k->deferred = 0;
    k->posted = 0;
    k->stored_at = -1;
    k->img.wave = 0;
    struct ft_update u;
    int64_t index = k->s.in_call ? k->s.pc + 1 : k->s.pc;
    if (step_core(c, r,
                  (struct ft_event){.type = FT_EVENT_ROLLBACK,
                                    .time = c->time,
                                    .peer = -1,
                                    .wave = c->committed,
                                    .index = index},
                  &u))
      return -1;
    k->next_call = !k->s.in_call && k->s.pc < k->n_prog ? c->time : -1;
    k->deadline = u.deadline;
  }
  for (int r = 0; r < c->ranks; r++) /* resumed in a call: post it again */
    if (c->rank[r].s.in_call && post(c, r))
      return -1;
  return 0;
}

/* ---- The event loop --------------------------------------------------- */

enum what { NOTHING, CALL, ARRIVAL, DONE_MSG, STORED, TIMER, FAILURE };

struct next {
  enum what what;
  double time;
  int a, b;
};

static void consider(struct next *n, enum what what, double time, int a,
                     int b) {
  if (time >= 0 && (n->what == NOTHING || time < n->time))
    *n = (struct next){.what = what, .time = time, .a = a, .b = b};
}

static struct next find_next(struct ac *c) {
  struct next n = {.what = NOTHING};
  for (int r = 0; r < c->ranks; r++) {
    struct rank *k = &c->rank[r];
    consider(&n, CALL, k->next_call, r, 0);
    consider(&n, STORED, k->stored_at, r, 0);
    consider(&n, TIMER, k->deadline, r, 0);
    for (int to = 0; to < c->ranks; to++) {
      struct channel *ch = &c->ch[r][to];
      if (ch->head < ch->tail)
        consider(&n, ARRIVAL, ch->e[ch->head].time, r, to);
    }
  }
  if (c->scheduler)
    consider(&n, TIMER, c->rank[c->ranks].deadline, c->ranks, 0);
  for (int i = 0; i < c->n_done; i++)
    consider(&n, DONE_MSG, c->done[i].time, i, 0);
  if (c->failures_left > 0)
    consider(&n, FAILURE, c->fail_at[c->failures_left - 1], 0, 0);
  return n;
}

static int stored(struct ac *c, int r) {
  struct rank *k = &c->rank[r];
  struct ft_update u;
  k->stored_at = -1;
  return step_core(c, r,
                   (struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                     .time = c->time,
                                     .peer = -1,
                                     .wave = k->storing_wave},
                   &u);
}

static int done_arrives(struct ac *c, int i) {
  struct ft_control m = c->done[i].control;
  c->done[i] = c->done[--c->n_done];
  struct ft_update u;
  return step_core(c, m.to,
                   (struct ft_event){.type = FT_EVENT_CONTROL,
                                     .time = c->time,
                                     .peer = m.from,
                                     .control = m},
                   &u);
}

static int timer(struct ac *c, int r) {
  struct ft_update u;
  int rc = step_core(
      c, r,
      (struct ft_event){.type = FT_EVENT_TIMER, .time = c->time, .peer = -1},
      &u);
  if (rc == 0 && c->rank[r].deadline >= 0 && c->rank[r].deadline <= c->time)
    c->rank[r].deadline = -1; /* not due yet for the core: wait for more */
  return rc;
}

static int finished(const struct ac *c) {
  for (int r = 0; r < c->ranks; r++)
    if (c->rank[r].s.pc < c->rank[r].n_prog)
      return 0;
  return 1;
}

static int play_one(struct ac *c, struct next n) {
  c->time = n.time;
  switch (n.what) {
  case CALL:
    return enter_call(c, n.a);
  case ARRIVAL:
    return arrive(c, n.a, n.b);
  case DONE_MSG:
    return done_arrives(c, n.a);
  case STORED:
    return stored(c, n.a);
  case TIMER:
    return timer(c, n.a);
  case FAILURE:
    c->failures_left--;
    return rollback(c);
  case NOTHING:
    break;
  }
  return -1;
}

static void play(struct ac *c) {
  while (!c->r->failed) {
    if (finished(c)) /* failures still to come do not hit */
      return;
    struct next n = find_next(c);
    if (n.what == NOTHING) {
      violated(c, "deadlock: nothing can move and a rank has calls left");
      return;
    }
    if (c->r->steps > AC_MAX_STEPS) {
      violated(c, "no end after %u steps", AC_MAX_STEPS);
      return;
    }
    if (play_one(c, n) != 0 && !c->r->failed)
      violated(c, "internal error");
  }
}

/* ---- Setting up ------------------------------------------------------- */

static int setup(struct ac *c, const struct seeded_params *p) {
  c->x = p->seed ^ 0xac11ac11ac11ac11u;
  cluster_splitmix64(&c->x);
  c->ranks = 2 + (int)(cluster_splitmix64(&c->x) % 5);
  int failures = (int)(cluster_splitmix64(&c->x) % 4);
  c->ranks = p->ranks > 0 ? p->ranks : c->ranks;
  failures = p->failures >= 0 ? p->failures : failures;
  if (c->ranks > AC_MAX_RANKS) {
    snprintf(c->r->error, sizeof c->r->error,
             "any-call mode: ranks must be 1..%d", AC_MAX_RANKS);
    return -1;
  }
  c->period = uniform(c, 0.01, 0.2);
  c->lat_max = uniform(c, 0.0, 1.0) < 0.3 ? 0.0005 : uniform(c, 0.001, 0.03);
  c->markers_apart = uniform(c, 0.0, 1.0) < 0.5;
  c->r->ranks = c->ranks;
  c->r->failures = failures;
  c->r->period = c->period;
  draw_programs(c);
  /* Failures over the run's expected length, latest first (popped from
   * the end). */
  double length = AC_ITERATIONS * 0.02 * c->ranks;
  for (int i = 0; i < failures; i++)
    c->fail_at[i] = uniform(c, 0.0, length);
  for (int i = 0; i < failures; i++)
    for (int j = i + 1; j < failures; j++)
      if (c->fail_at[j] > c->fail_at[i]) {
        double t = c->fail_at[i];
        c->fail_at[i] = c->fail_at[j];
        c->fail_at[j] = t;
      }
  c->failures_left = failures;
  for (int r = 0; r < c->ranks + c->scheduler; r++) {
    struct ft_core_config config = {.rank = r,
                                    .ranks = c->ranks,
                                    .period = c->period,
                                    .start = 0.0,
                                    .any_call = 1};
    c->rank[r].core = calloc(1, c->ops->state_size(&config));
    if (!c->rank[r].core || c->ops->init(c->rank[r].core, &config) != 0) {
      snprintf(c->r->error, sizeof c->r->error,
               "protocol '%s' refuses any-call mode", c->ops->name);
      return -1;
    }
    c->rank[r].next_call = uniform(c, 0.0, 0.01);
    c->rank[r].deadline = r == (c->scheduler ? c->ranks : 0) ? c->period : -1;
    if (r == c->ranks) /* the scheduler runs no program */
      c->rank[r].next_call = -1;
    c->rank[r].stored_at = -1;
  }
  return 0;
}

int anycall_seeded_run(const struct seeded_params *p,
                       const struct ft_protocol_ops *ops,
                       struct seeded_result *r) {
  if (ops->family != FT_FAMILY_COORDINATED &&
      ops->family != FT_FAMILY_CHANNEL_STATE &&
      ops->family != FT_FAMILY_DRAIN) {
    snprintf(r->error, sizeof r->error,
             "any-call mode: protocol '%s' is of neither the coordinated, "
             "the channel-state nor the drain family",
             ops->name);
    return -1;
  }
  struct ac *c = calloc(1, sizeof *c);
  if (!c) {
    snprintf(r->error, sizeof r->error, "out of memory");
    return -1;
  }
  c->ops = ops;
  c->scheduler = ft_protocol_has_scheduler(ops) ? 1 : 0;
  c->r = r;
  c->trace = p->trace;
  r->trace_hash = 0xcbf29ce484222325u;
  int rc = setup(c, p);
  if (rc == 0) {
    play(c);
    rc = r->failed ? 1 : 0;
  }
  for (int k = 0; k < AC_SLOTS; k++)
    free(c->rank[k].core);
  free(c);
  return rc;
}
