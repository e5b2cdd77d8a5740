/* Protocol `c3`: application-level non-blocking coordinated checkpointing
 * (see c3.h). Pure: no MPI, no clock, no I/O, no allocation. */
#include "c3.h"

#include <string.h>

/* One peer's counts (section 3.4), by the epoch its messages were sent in,
 * relative to this rank's: the previous one (late once this rank
 * checkpointed), this one, the next one (early). */
struct c3_peer {
  int64_t sent;      /* messages this rank sent the peer in this epoch */
  int64_t recv_prev; /* received of the peer's previous epoch */
  int64_t recv_cur;  /* received of the peer's epoch equal to this one */
  int64_t recv_next; /* received of the peer's next epoch (early) */
  int64_t expected;  /* the peer's SEND_COUNT for the epoch it closed */
  int64_t late;      /* late messages recorded from it while logging */
  int count_in;      /* its SEND_COUNT of the current checkpoint arrived */
};

struct c3_state {
  int rank, ranks;
  double period;   /* <= 0: never checkpoint */
  double deadline; /* rank 0: when the next checkpoint is due; -1: none */
  int epoch;       /* section 3.3: "incremented whenever that process takes a
                      local checkpoint" */
  int logging;     /* amLogging */
  enum ft_c3_phase phase;
  int ready_sent;  /* READY_TO_STOP sent (or counted, rank 0) */
  int64_t next_id; /* nextMessageID: the last id given in this epoch */
  int64_t recv_no; /* receives posted since the checkpoint or ROLLBACK */
  int64_t nd_no;   /* probes and completion calls since then */
  int64_t nd_last; /* the last of them whose outcome was logged */
  int64_t coll_no; /* collective calls carried as one unit since then */
  int nd_open;     /* the last of them has not returned yet */
  int forced;      /* the current checkpoint was taken at a barrier before
                      the initiator's please-checkpoint came (Figure 8) */
  int64_t horizon; /* after a ROLLBACK: the last logged probe or completion
                      call; those up to it without an entry found nothing */
  int n_ready;     /* rank 0: READY_TO_STOP in, its own included */
  int n_stopped;   /* rank 0: STOPPED_LOGGING in, its own included */
  int restored;    /* re-executing after a ROLLBACK, until the next
                      checkpoint: the suppress list and decisions hold */
  int64_t pending; /* entries of `logged` not used up yet */
  int recovering;  /* RECOVERED not sent (counted, rank 0) yet */
  int n_recovered; /* rank 0: ranks done with their recovery */
  int due;         /* rank 0: the deadline passed during a recovery */
  const struct ft_logged_event *logged; /* ROLLBACK's, runtime-owned */
  size_t n_logged;
  /* LOG's events: a decision (a completion call's: one per request it
   * completed), and the FAILED mark of stop_logging. */
  struct ft_logged_event decisions[FT_C3_MAX_COMPLETIONS + 1];
  size_t n_decisions;
  int64_t replay_ids[FT_C3_MAX_COMPLETIONS]; /* REPLAY's completions */
  size_t n_sends, n_keep;
  /* sends_capacity() control messages, then `ranks` struct c3_peer, then
   * `ranks` struct ft_record_range (STORE's keep). */
  struct ft_control sends[];
};

/* An entry of a probe or completion call (section 3.1, Phase #2 (ii)). */
static int is_nd(const struct ft_logged_event *e) {
  return e->kind == FT_LOGGED_PROBE || e->kind == FT_LOGGED_COMPLETION ||
         e->kind == FT_LOGGED_FAILED;
}

static size_t sends_capacity(size_t ranks) { return 2 * ranks + 2; }

static struct c3_peer *peers(struct c3_state *s) {
  return (struct c3_peer *)(s->sends + sends_capacity((size_t)s->ranks));
}

static struct ft_record_range *keep(struct c3_state *s) {
  return (struct ft_record_range *)(peers(s) + s->ranks);
}

static size_t c3_state_size(const struct ft_core_config *config) {
  size_t ranks = config->ranks > 0 ? (size_t)config->ranks : 0;
  return sizeof(struct c3_state) +
         sends_capacity(ranks) * sizeof(struct ft_control) +
         ranks * (sizeof(struct c3_peer) + sizeof(struct ft_record_range));
}

static int c3_init(void *state, const struct ft_core_config *config) {
  struct c3_state *s = state;
  if (config->ranks <= 0 || config->rank < 0 || config->rank >= config->ranks)
    return -1;
  s->rank = config->rank;
  s->ranks = config->ranks;
  s->period = config->period > 0 ? config->period : 0.0;
  s->deadline = -1.0;
  if (s->rank == 0 && s->period > 0)
    s->deadline = config->start + s->period;
  s->phase = FT_C3_IDLE;
  s->n_recovered = s->ranks;
  memset(peers(s), 0, (size_t)s->ranks * sizeof(struct c3_peer));
  return 0;
}

static void push(struct c3_state *s, enum ft_c3_control kind, int to,
                 int64_t value) {
  s->sends[s->n_sends++] = (struct ft_control){.kind = kind,
                                               .from = s->rank,
                                               .to = to,
                                               .wave = s->epoch,
                                               .value = value};
}

static void broadcast(struct c3_state *s, enum ft_c3_control kind, int wave) {
  for (int to = 0; to < s->ranks; to++)
    if (to != s->rank) {
      push(s, kind, to, 0);
      s->sends[s->n_sends - 1].wave = wave;
    }
}

/* The checkpoint in progress is over for this rank: forget its counts. */
static void end_of_checkpoint(struct c3_state *s) {
  for (int p = 0; p < s->ranks; p++) {
    peers(s)[p].expected = peers(s)[p].late = 0;
    peers(s)[p].count_in = 0;
  }
  s->ready_sent = 0;
}

/* Rank 0, every rank's log stored: the checkpoint is the recovery line.
 * Section 3.1: "When the initiator receives a stoppedLogging message from
 * all processes, it records on stable storage that the checkpoint that was
 * just created is the one to be used for recovery". */
static void on_stopped(struct c3_state *s, double now, struct ft_update *u) {
  if (++s->n_stopped < s->ranks)
    return;
  u->flags |= FT_UPDATE_COMMIT;
  u->wave = s->epoch;
  s->phase = FT_C3_IDLE;
  s->n_stopped = s->n_ready = 0;
  if (s->period > 0)
    s->deadline = now + s->period;
}

/* Section 3.1, Phase #4: the rank stops logging and saves its log: every
 * late message it recorded is kept. */
static void log_event(struct c3_state *s, struct ft_update *u,
                      struct ft_logged_event e) {
  s->decisions[s->n_decisions++] = e;
  u->flags |= FT_UPDATE_LOG;
  u->events = s->decisions;
  u->n_events = s->n_decisions;
}

static void stop_logging(struct c3_state *s, struct ft_update *u) {
  /* The probes and completion calls since the last logged one found
   * nothing: one FAILED entry says so (pessimist-openmpi-v's lazy logging,
   * section 3.2), so that their re-execution finds nothing either. A call
   * in progress (a Waitany whose delivery stops logging) decides after
   * the stop: its re-execution is live. */
  int64_t returned = s->nd_no - s->nd_open;
  if (returned > s->nd_last)
    log_event(
        s, u,
        (struct ft_logged_event){
            .id = returned, .kind = FT_LOGGED_FAILED, .peer = -1, .tag = -1});
  s->logging = 0;
  s->phase = FT_C3_STORING;
  s->n_keep = 0;
  for (int p = 0; p < s->ranks; p++)
    if (peers(s)[p].late > 0)
      keep(s)[s->n_keep++] = (struct ft_record_range){
          .peer = p, .first = 1, .last = peers(s)[p].late};
  u->flags |= FT_UPDATE_STORE;
  u->wave = s->epoch;
  u->keep = s->n_keep ? keep(s) : NULL;
  u->n_keep = s->n_keep;
  end_of_checkpoint(s);
}

/* Rank 0, every rank ready. Section 3.1, Phase #3: "When the initiator
 * gets a readyToStopLogging message from all processes, it knows that
 * every process has taken its local checkpoint ... the initiator sends a
 * control message called stopLogging to all other processes." */
static void on_ready(struct c3_state *s, struct ft_update *u) {
  if (++s->n_ready < s->ranks)
    return;
  broadcast(s, FT_C3_CONTROL_STOP_LOGGING, s->epoch);
  if (s->logging)
    stop_logging(s, u);
}

static int all_late_received(struct c3_state *s) {
  for (int p = 0; p < s->ranks; p++) {
    const struct c3_peer *q = &peers(s)[p];
    if (p != s->rank && (!q->count_in || q->recv_prev != q->expected))
      return 0;
  }
  return 1;
}

/* Section 3.1, Phase #2: "Once a process has received all of its late
 * messages, it sends a control message called readyToStopLogging back to
 * the initiator, but continues to write non-deterministic decisions to the
 * log." */
static void check_ready(struct c3_state *s, struct ft_update *u) {
  if (s->phase != FT_C3_LOGGING || s->ready_sent || !all_late_received(s))
    return;
  s->ready_sent = 1;
  if (s->rank == 0)
    on_ready(s, u);
  else
    push(s, FT_C3_CONTROL_READY_TO_STOP, 0, 0);
}

/* Section 3.1, Phase #2: "When an application process reaches a point in
 * the program where it can take a local checkpoint, it saves its local
 * state and the identities of any early messages on stable storage. It
 * then starts writing a log". Section 3.4: "When a process P takes its
 * local checkpoint, it sends a mySendCount message to the other
 * processes". */
static void take_checkpoint(struct c3_state *s, int64_t index,
                            struct ft_update *u) {
  s->epoch++;
  s->logging = 1;
  s->phase = FT_C3_LOGGING;
  s->next_id = s->recv_no = s->nd_no = s->nd_last = s->horizon = 0;
  s->coll_no = 0;
  s->nd_open = 0;
  s->restored = 0;
  s->logged = NULL;
  s->n_logged = 0;
  u->flags |= FT_UPDATE_CAPTURE;
  u->index = index;
  u->wave = s->epoch;
  for (int p = 0; p < s->ranks; p++) {
    struct c3_peer *q = &peers(s)[p];
    if (p != s->rank)
      push(s, FT_C3_CONTROL_SEND_COUNT, p, q->sent);
    q->sent = q->late = 0;
    q->recv_prev = q->recv_cur;
    q->recv_cur = q->recv_next;
    q->recv_next = 0;
  }
  check_ready(s, u);
}

/* A potential checkpoint location: the rank checkpoints there if asked.
 * At a barrier's (e->wave > 0), Figure 8: "if we haven't checkpointed but
 * somebody else has: Take a Checkpoint Immediately", so that a barrier
 * never crosses the recovery line (section 5.4): a rank not logging that
 * saw epoch `wave` = its epoch + 1 checkpoints even if the initiator's
 * please-checkpoint has not reached it yet. */
static int on_safe_point(struct c3_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  u->flags = FT_UPDATE_PASS;
  int behind = s->phase == FT_C3_IDLE && !s->recovering && e->wave > 0 &&
               e->wave == s->epoch + 1;
  if (s->phase == FT_C3_ASKED || behind) {
    take_checkpoint(s, e->index, u);
    s->forced = behind;
  }
  return 0;
}

/* Section 3.1, Phase #1: "To initiate a distributed snapshot, the
 * initiator sends a control message called pleaseCheckpoint to all
 * application processes." */
static void initiate(struct c3_state *s) {
  s->deadline = -1.0;
  s->due = 0;
  s->phase = FT_C3_ASKED;
  broadcast(s, FT_C3_CONTROL_PLEASE_CHECKPOINT, s->epoch + 1);
}

/* One checkpoint at a time (section 2.1), only after the commit of the
 * last one, and not while a rank recovers (c3.h). */
static int on_timer(struct c3_state *s, const struct ft_event *e) {
  if (s->rank != 0 || s->deadline < 0 || e->time < s->deadline ||
      s->phase != FT_C3_IDLE)
    return 0;
  if (s->n_recovered < s->ranks) {
    s->deadline = -1.0;
    s->due = 1;
    return 0;
  }
  initiate(s);
  return 0;
}

static void on_recovered(struct c3_state *s) {
  if (++s->n_recovered == s->ranks && s->due && s->phase == FT_C3_IDLE)
    initiate(s);
}

/* A recovering rank used up one entry of its ROLLBACK: RECOVERED once
 * none is left. */
static void recovered_one(struct c3_state *s, int64_t used) {
  if (!s->recovering)
    return;
  s->pending -= used;
  if (s->pending > 0)
    return;
  s->recovering = 0;
  if (s->rank == 0)
    on_recovered(s);
  else
    push(s, FT_C3_CONTROL_RECOVERED, 0, 0);
}

/* Whether a receiver's checkpoint holds send `id` to `peer`: it is in the
 * suppress list the ROLLBACK handed over (section 3.3: "During recovery,
 * each processor passes its list of messageID's to their sender processors
 * so that resending these messages can be suppressed"). */
static int suppressed(const struct c3_state *s, int peer, int64_t id) {
  for (size_t i = 0; s->restored && i < s->n_logged; i++)
    if (s->logged[i].kind == FT_LOGGED_SUPPRESS && s->logged[i].peer == peer &&
        s->logged[i].value == id)
      return 1;
  return 0;
}

static int on_app_send(struct c3_state *s, const struct ft_event *e,
                       struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  int64_t id = ++s->next_id;
  if (suppressed(s, e->peer, id)) {
    u->flags = FT_UPDATE_SUPPRESS;
    recovered_one(s, 1);
    return 0;
  }
  peers(s)[e->peer].sent++;
  u->flags = FT_UPDATE_PASS | FT_UPDATE_PIGGYBACK;
  u->piggyback =
      (struct ft_piggyback){.epoch = s->epoch, .logging = s->logging, .id = id};
  return 0;
}

/* The decision logged for receive `id`, or NULL. */
static const struct ft_logged_event *decision_of(const struct c3_state *s,
                                                 int64_t id) {
  for (size_t i = 0; s->restored && i < s->n_logged; i++)
    if (s->logged[i].kind == FT_LOGGED_MATCH && s->logged[i].id == id)
      return &s->logged[i];
  return NULL;
}

/* Receives are numbered since the checkpoint; a wildcard one whose match
 * was logged is forced to it when re-executed (section 2.3: "these events
 * can be replayed during recovery"). */
static int on_app_recv(struct c3_state *s, const struct ft_event *e,
                       struct ft_update *u) {
  u->flags = FT_UPDATE_PASS;
  u->id = ++s->recv_no;
  const struct ft_logged_event *d = decision_of(s, u->id);
  if (!d)
    return 0;
  if (e->peer < 0 || e->tag < 0) {
    u->flags |= FT_UPDATE_REPLAY;
    u->replay.peer = d->peer;
    u->replay.tag = d->tag;
  }
  recovered_one(s, 1);
  return 0;
}

/* A message sent in the epoch before this rank's (definition 1: "If eA <
 * eB, the message is said to be a late message"): logged while logging;
 * after a ROLLBACK it is one the runtime delivers from the restored log. */
static int on_late(struct c3_state *s, struct c3_peer *q, struct ft_update *u) {
  if (s->phase != FT_C3_LOGGING) {
    if (!s->recovering)
      return -1;
    recovered_one(s, 1); /* delivered from the restored log */
    return 0;
  }
  q->recv_prev++;
  u->flags |= FT_UPDATE_RECORD;
  u->index = ++q->late;
  check_ready(s, u);
  return 0;
}

/* Definition 1: "If eA > eB, the message is said to be an early message":
 * it goes to the suppress list. A rank that is logging cannot get one (the
 * next checkpoint starts after the commit of this one). */
static int on_early(struct c3_state *s, struct c3_peer *q,
                    struct ft_update *u) {
  if (s->phase != FT_C3_IDLE && s->phase != FT_C3_ASKED)
    return -1;
  q->recv_next++;
  u->flags |= FT_UPDATE_EARLY;
  return 0;
}

/* An intra-epoch message. Section 3.1, Phase #4: a process stops logging
 * when "(ii) it receives a message from a process that has stopped
 * logging". */
static void on_intra(struct c3_state *s, const struct ft_event *e,
                     struct c3_peer *q, struct ft_update *u) {
  q->recv_cur++;
  if (s->logging && !e->piggyback.logging)
    stop_logging(s, u);
}

/* Section 3.1, Phase #2 (ii): "the result of every non-deterministic
 * decision it makes": which message a wildcard receive matched. */
static void log_decision(struct c3_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (!s->logging || !e->wildcard)
    return;
  log_event(s, u,
            (struct ft_logged_event){.id = e->id,
                                     .kind = FT_LOGGED_MATCH,
                                     .peer = e->peer,
                                     .tag = e->tag});
}

static int on_delivered(struct c3_state *s, const struct ft_event *e,
                        struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct c3_peer *q = &peers(s)[e->peer];
  int rc = 0;
  u->flags = FT_UPDATE_PASS;
  if (e->piggyback.epoch == s->epoch)
    on_intra(s, e, q, u);
  else if (e->piggyback.epoch == s->epoch - 1)
    rc = on_late(s, q, u);
  else if (e->piggyback.epoch == s->epoch + 1)
    rc = on_early(s, q, u);
  else
    rc = -1;
  if (rc == 0)
    log_decision(s, e, u);
  return rc;
}

/* ---- Probes and completion calls (section 3.1, Phase #2 (ii)) ---- */

/* The entry of probe or completion call `id` the ROLLBACK handed over, or
 * NULL. */
static const struct ft_logged_event *nd_entry(const struct c3_state *s,
                                              int64_t id) {
  for (size_t i = 0; s->restored && i < s->n_logged; i++)
    if (is_nd(&s->logged[i]) && s->logged[i].id == id)
      return &s->logged[i];
  return NULL;
}

/* The application calls an MPI_Iprobe, a wildcard MPI_Probe, or a
 * completion call whose outcome depends on timing (Waitany, Testany,
 * Waitsome, Testsome): it takes the next number since the checkpoint. Re-
 * executed with its outcome logged, it is forced to it (REPLAY: found,
 * peer, tag; ids[0] = the completed request's index); one up to the last
 * logged that has no entry found nothing. */
static int on_nd_call(struct c3_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  u->flags = FT_UPDATE_PASS;
  u->id = ++s->nd_no;
  s->nd_open = 1;
  if (!s->restored || s->nd_no > s->horizon)
    return 0;
  const struct ft_logged_event *d = nd_entry(s, s->nd_no);
  u->flags |= FT_UPDATE_REPLAY;
  u->replay.found = d && d->kind != FT_LOGGED_FAILED;
  if (u->replay.found && e->type == FT_EVENT_APP_PROBE) {
    u->replay.peer = d->peer;
    u->replay.tag = d->tag;
  }
  size_t n = 0;
  for (size_t i = 0; u->replay.found && e->type == FT_EVENT_APP_COMPLETION &&
                     i < s->n_logged && n < FT_C3_MAX_COMPLETIONS;
       i++)
    if (s->logged[i].kind == FT_LOGGED_COMPLETION &&
        s->logged[i].id == s->nd_no)
      s->replay_ids[n++] = s->logged[i].value;
  u->replay.ids = n ? s->replay_ids : NULL;
  u->replay.n_ids = n;
  if (d)
    recovered_one(s, n ? (int64_t)n : 1);
  return 0;
}

/* What the call found (PROBED: index 1, peer, tag; COMPLETION:
 * ids[0..n_ids), the completed requests' indices in the call's array),
 * logged while logging: one entry per completed request. */
static int on_nd_outcome(struct c3_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  u->flags = FT_UPDATE_PASS;
  u->id = s->nd_no;
  s->nd_open = 0;
  int found = e->type == FT_EVENT_PROBED ? e->index != 0 : e->n_ids > 0;
  if (e->type == FT_EVENT_COMPLETION && e->n_ids > FT_C3_MAX_COMPLETIONS)
    return -1;
  if (!s->logging || !found || s->nd_no == 0)
    return 0;
  s->nd_last = s->nd_no;
  if (e->type == FT_EVENT_PROBED)
    log_event(s, u,
              (struct ft_logged_event){.id = s->nd_no,
                                       .kind = FT_LOGGED_PROBE,
                                       .peer = e->peer,
                                       .tag = e->tag,
                                       .value = (int64_t)e->bytes});
  for (size_t i = 0; e->type == FT_EVENT_COMPLETION && i < e->n_ids; i++)
    log_event(s, u,
              (struct ft_logged_event){.id = s->nd_no,
                                       .kind = FT_LOGGED_COMPLETION,
                                       .peer = -1,
                                       .tag = -1,
                                       .value = e->ids[i]});
  return 0;
}

static int on_please_checkpoint(struct c3_state *s,
                                const struct ft_control *c) {
  if (s->forced && s->phase == FT_C3_LOGGING && c->wave == s->epoch) {
    s->forced = 0; /* taken already at a barrier (on_safe_point) */
    return 0;
  }
  if (s->phase != FT_C3_IDLE || c->wave != s->epoch + 1)
    return -1;
  s->phase = FT_C3_ASKED;
  return 0;
}

/* The peer's count may come before this rank's own checkpoint. */
static int on_send_count(struct c3_state *s, const struct ft_control *c,
                         struct ft_update *u) {
  struct c3_peer *q = &peers(s)[c->from];
  int wave = s->phase == FT_C3_LOGGING ? s->epoch : s->epoch + 1;
  if (q->count_in || c->wave != wave)
    return -1;
  q->count_in = 1;
  q->expected = c->value;
  check_ready(s, u);
  return 0;
}

static int on_stop_logging(struct c3_state *s, const struct ft_control *c,
                           struct ft_update *u) {
  if (c->wave != s->epoch || s->phase == FT_C3_ASKED)
    return -1;
  if (s->logging)
    stop_logging(s, u);
  return 0;
}

static int on_control(struct c3_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (c->from < 0 || c->from >= s->ranks || c->from == s->rank)
    return -1;
  switch (c->kind) {
  case FT_C3_CONTROL_PLEASE_CHECKPOINT:
    return on_please_checkpoint(s, c);
  case FT_C3_CONTROL_SEND_COUNT:
    return on_send_count(s, c, u);
  case FT_C3_CONTROL_READY_TO_STOP:
    if (s->rank != 0 || c->wave != s->epoch)
      return -1;
    on_ready(s, u);
    return 0;
  case FT_C3_CONTROL_STOP_LOGGING:
    return on_stop_logging(s, c, u);
  case FT_C3_CONTROL_STOPPED_LOGGING:
    if (s->rank != 0 || c->wave != s->epoch)
      return -1;
    on_stopped(s, e->time, u);
    return 0;
  case FT_C3_CONTROL_RECOVERED:
    if (s->rank != 0 || c->wave != s->epoch)
      return -1;
    on_recovered(s);
    return 0;
  default:
    return -1;
  }
}

/* Section 3.1: "Once the process has saved its log on disk, it sends a
 * stoppedLogging message back to the initiator." */
static int on_image_stored(struct c3_state *s, const struct ft_event *e,
                           struct ft_update *u) {
  if (s->phase != FT_C3_STORING || e->wave != s->epoch)
    return -1;
  if (s->rank != 0) {
    s->phase = FT_C3_IDLE;
    push(s, FT_C3_CONTROL_STOPPED_LOGGING, 0, 0);
    return 0;
  }
  s->phase = FT_C3_COMMITTED;
  on_stopped(s, e->time, u);
  return 0;
}

/* The entries of a ROLLBACK the re-execution uses up. */
static int64_t replay_entries(const struct ft_logged_event *l, size_t n) {
  int64_t count = 0;
  for (size_t i = 0; i < n; i++)
    count += l[i].kind == FT_LOGGED_SUPPRESS ||
             l[i].kind == FT_LOGGED_DELIVERY || l[i].kind == FT_LOGGED_MATCH ||
             l[i].kind == FT_LOGGED_COLL || is_nd(&l[i]);
  return count;
}

/* The last probe or completion call a ROLLBACK's entries name. */
static int64_t nd_horizon(const struct ft_logged_event *l, size_t n) {
  int64_t last = 0;
  for (size_t i = 0; i < n; i++)
    if (is_nd(&l[i]) && l[i].id > last)
      last = l[i].id;
  return last;
}

/* Every rank restores its checkpoint of the committed epoch (0: the
 * start) and re-executes from there, not logging. */
static int on_rollback(struct c3_state *s, const struct ft_event *e) {
  if (e->wave < 0)
    return -1;
  s->epoch = e->wave;
  s->logging = s->ready_sent = 0;
  s->phase = FT_C3_IDLE;
  s->next_id = s->recv_no = s->nd_no = s->nd_last = s->coll_no = 0;
  s->nd_open = s->forced = 0;
  s->n_ready = s->n_stopped = s->n_recovered = 0;
  s->due = 0;
  memset(peers(s), 0, (size_t)s->ranks * sizeof(struct c3_peer));
  s->restored = 1;
  s->logged = e->logged;
  s->n_logged = e->logged ? e->n_logged : 0;
  s->deadline = s->rank == 0 && s->period > 0 ? e->time + s->period : -1.0;
  s->recovering = 1;
  s->pending = replay_entries(s->logged, s->n_logged);
  s->horizon = nd_horizon(s->logged, s->n_logged);
  recovered_one(s, 0);
  return 0;
}

/* Whether the ROLLBACK's entries say collective call `id` is not carried
 * out again (FT_LOGGED_COLL). */
static int coll_replayed(const struct c3_state *s, int64_t id) {
  for (size_t i = 0; s->restored && i < s->n_logged; i++)
    if (s->logged[i].kind == FT_LOGGED_COLL && s->logged[i].id == id)
      return 1;
  return 0;
}

/* A collective call carried as one unit (sections 4 and 5): numbered since
 * the checkpoint, its bits (epoch, amLogging, number) given to the
 * runtime's exchange; after a ROLLBACK, one whose result is logged or
 * that a root's suppress list holds gets REPLAY (the runtime knows which)
 * and counts as used. Index 1: Figures 5-7's "amLogging = false". */
static int on_collective(struct c3_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  u->flags = FT_UPDATE_PASS;
  if (e->index == 1) {
    if (s->logging)
      stop_logging(s, u);
    return 0;
  }
  if (e->index != 0)
    return -1;
  u->id = ++s->coll_no;
  u->piggyback = (struct ft_piggyback){
      .epoch = s->epoch, .logging = s->logging, .id = u->id};
  if (coll_replayed(s, u->id)) {
    u->flags |= FT_UPDATE_REPLAY;
    recovered_one(s, 1);
  }
  return 0;
}

static int dispatch(struct c3_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    return on_app_send(s, e, u);
  case FT_EVENT_APP_RECV:
    return on_app_recv(s, e, u);
  case FT_EVENT_DELIVERED:
    return on_delivered(s, e, u);
  case FT_EVENT_TIMER:
    return on_timer(s, e);
  case FT_EVENT_SAFE_POINT:
    return on_safe_point(s, e, u);
  case FT_EVENT_CONTROL:
    return on_control(s, e, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e, u);
  case FT_EVENT_ROLLBACK:
    return on_rollback(s, e);
  case FT_EVENT_APP_PROBE:
  case FT_EVENT_APP_COMPLETION:
    return on_nd_call(s, e, u);
  case FT_EVENT_PROBED:
  case FT_EVENT_COMPLETION:
    return on_nd_outcome(s, e, u);
  case FT_EVENT_COLLECTIVE:
    return on_collective(s, e, u);
  default: /* message logging's RESTART and any-call mode's */
    return -1;
  }
}

static int c3_step(void *state, const struct ft_event *event,
                   struct ft_update *update) {
  struct c3_state *s = state;
  s->n_sends = s->n_decisions = 0;
  *update = (struct ft_update){0};
  int rc = dispatch(s, event, update);
  if (rc != 0) {
    s->n_sends = s->n_decisions = 0;
    *update = (struct ft_update){0};
  }
  update->deadline = s->deadline;
  update->sends = s->n_sends ? s->sends : NULL;
  update->n_sends = s->n_sends;
  return rc;
}

/* ---- Collectives (sections 4 and 5) ---------------------------------- */

/* Whether some participant's epoch differs from mine ("crosses recovery
 * line"), and whether some is not logging. */
static void survey(const struct ft_c3_coll *in, int *crosses,
                   int *not_logging) {
  const struct ft_piggyback *mine = &in->bits[in->me];
  *crosses = *not_logging = 0;
  for (int p = 0; p < in->ranks; p++) {
    *crosses |= in->bits[p].epoch != mine->epoch;
    *not_logging |= !in->bits[p].logging;
  }
}

/* Figure 5: "case crosses recovery line && amLogging:
 * recoveryLog.save(recv data,comm); case !crosses recovery line &&
 * amLogging && some not logging: amLogging = false". */
static void all_to_all(const struct ft_c3_coll *in,
                       struct ft_c3_coll_decision *out) {
  int crosses, not_logging;
  survey(in, &crosses, &not_logging);
  int logging = in->bits[in->me].logging;
  out->log_result = crosses && logging;
  out->stop_logging = !crosses && logging && not_logging;
}

/* Figure 6, the root: behind the recovery line it records the senders
 * beyond it for suppression; logging, it logs the result and records the
 * senders of its own epoch ("record all sends that do not cross recovery
 * line for suppression"). */
static void single_receiver(const struct ft_c3_coll *in,
                            struct ft_c3_coll_decision *out, int *suppress) {
  if (in->me != in->root)
    return; /* a sender decides nothing */
  int crosses, not_logging;
  survey(in, &crosses, &not_logging);
  const struct ft_piggyback *mine = &in->bits[in->me];
  out->log_result = crosses && mine->logging;
  out->stop_logging = !crosses && mine->logging && not_logging;
  for (int p = 0; crosses && p < in->ranks; p++)
    if (p != in->me && (in->bits[p].epoch != mine->epoch) != mine->logging)
      suppress[out->n_suppress++] = p;
}

/* Figure 7, a receiver: "log late Bcast", "will have to reexec early
 * Bcast", "turn off logging". */
static void single_sender(const struct ft_c3_coll *in,
                          struct ft_c3_coll_decision *out) {
  if (in->me == in->root)
    return;
  const struct ft_piggyback *mine = &in->bits[in->me],
                            *root = &in->bits[in->root];
  int crosses = mine->epoch != root->epoch;
  out->log_result = crosses && mine->logging;
  out->reexec = crosses && !mine->logging;
  out->stop_logging = !crosses && mine->logging && !root->logging;
}

/* Figure 8: "if we haven't checkpointed but somebody else has: Take a
 * Checkpoint Immediately"; "if we're logging but somebody has already
 * stopped: amLogging = false". A participant not logging counts as
 * stopped only in this rank's epoch: one behind the recovery line is not
 * logging either (it checkpoints at this barrier), and Claim 1 forbids
 * stopping before every rank is beyond the line; Figure 8's reduce of
 * !amLogging alone does not tell them apart. */
static void barrier(const struct ft_c3_coll *in,
                    struct ft_c3_coll_decision *out) {
  const struct ft_piggyback *mine = &in->bits[in->me];
  int ahead = 0, stopped = 0;
  for (int p = 0; p < in->ranks; p++) {
    ahead |= in->bits[p].epoch > mine->epoch;
    stopped |= in->bits[p].epoch == mine->epoch && !in->bits[p].logging;
  }
  out->checkpoint = !mine->logging && ahead;
  out->stop_logging = mine->logging && stopped;
}

int ft_c3_collective(const struct ft_c3_coll *in,
                     struct ft_c3_coll_decision *out, int *suppress) {
  *out = (struct ft_c3_coll_decision){0};
  int rooted =
      in->cls == FT_C3_SINGLE_RECEIVER || in->cls == FT_C3_SINGLE_SENDER;
  if (!in->bits || in->ranks <= 0 || in->me < 0 || in->me >= in->ranks ||
      (rooted && (in->root < 0 || in->root >= in->ranks)))
    return -1;
  switch (in->cls) {
  case FT_C3_ALL_TO_ALL:
    all_to_all(in, out);
    return 0;
  case FT_C3_SINGLE_RECEIVER:
    single_receiver(in, out, suppress);
    return 0;
  case FT_C3_SINGLE_SENDER:
    single_sender(in, out);
    return 0;
  case FT_C3_BARRIER:
    barrier(in, out);
    return 0;
  default:
    return -1;
  }
}

enum ft_c3_phase ft_c3_phase(const void *state) {
  return ((const struct c3_state *)state)->phase;
}

int ft_c3_epoch(const void *state) {
  return ((const struct c3_state *)state)->epoch;
}

int ft_c3_logging(const void *state) {
  return ((const struct c3_state *)state)->logging;
}

int ft_c3_replaying(const void *state) {
  return ((const struct c3_state *)state)->recovering;
}

/* The names of c3's control kinds in traces (ft_protocol.h). */
const char *const ft_c3_controls[FT_C3_CONTROL_COUNT] = {
    [FT_C3_CONTROL_PLEASE_CHECKPOINT] = "please-checkpoint",
    [FT_C3_CONTROL_SEND_COUNT] = "send-count",
    [FT_C3_CONTROL_READY_TO_STOP] = "ready-to-stop",
    [FT_C3_CONTROL_STOP_LOGGING] = "stop-logging",
    [FT_C3_CONTROL_STOPPED_LOGGING] = "stopped-logging",
    [FT_C3_CONTROL_RECOVERED] = "recovered",
};

const struct ft_protocol_ops ft_protocol_c3 = {
    .name = "c3",
    .family = FT_FAMILY_PIGGYBACK,
    .summary = "application-level non-blocking checkpoint (C3): epochs "
               "piggybacked, late messages logged, early ones suppressed",
    .state_size = c3_state_size,
    .init = c3_init,
    .step = c3_step,
    .controls = ft_c3_controls,
    .n_controls = FT_C3_CONTROL_COUNT,
};
