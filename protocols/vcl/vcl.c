/* Protocol `vcl`: non-blocking coordinated checkpointing at safe points,
 * with a checkpoint scheduler (see vcl.h). Pure: no MPI, no clock, no I/O,
 * no allocation. */
#include "vcl.h"

#include <string.h>

/* Per-peer facts of the current wave. */
enum vcl_peer_bit {
  PEER_PROPOSAL = 1u << 0, /* its MARKER of the wave arrived */
  PEER_CUT = 1u << 1,      /* its CUT arrived (my own channel: captured) */
  PEER_CLOSED = 1u << 2,   /* captured, CUT in, all it counts delivered */
  PEER_DONE = 1u << 3,     /* scheduler: its CHECKPOINT_DONE arrived */
};

/* One peer of an application rank (the rank itself included), or one rank
 * on the scheduler. */
struct vcl_peer {
  int64_t sent, recv; /* APP_SEND to it, DELIVERED from it */
  /* The counts at the retained safe point, then (after CAPTURE) at K. */
  int64_t at_sent, at_recv;
  int64_t cut; /* its CUT: the messages it sent me before its checkpoint */
  unsigned bits;
};

struct vcl_state {
  int rank, ranks;
  double period;      /* <= 0 (or NaN): never checkpoint */
  double deadline;    /* scheduler: when the next wave is due; -1: none */
  int wave;           /* current wave, or the last one */
  int committed;      /* last committed wave (scheduler, or after ROLLBACK) */
  int scheduler_wave; /* rank: wave of the last scheduler marker */
  enum ft_vcl_phase phase;
  int64_t index;    /* safe points passed */
  int any_call;     /* any-call mode (ac_* below) */
  int in_call;      /* any-call: the application is in MPI call `call` */
  int64_t call;     /* any-call: the last call entered, or resumed in */
  int64_t proposal; /* p, or 0 outside a wave */
  int64_t highest;  /* the highest proposal so far, mine included */
  int64_t at;       /* K, or 0 while unknown */
  int64_t held;     /* safe point the application is held at, or 0 */
  int n_proposals;  /* peers' markers in */
  int n_cuts;       /* peers' CUTs in (any-call mode: their markers) */
  int n_closed;     /* RECORDING: channels closed, mine included */
  int n_done;       /* scheduler: CHECKPOINT_DONEs in */
  size_t n_sends, n_keep;
  /* `ranks` peers, then `ranks` control messages (a step sends markers to
   * the other ranks, or cuts to them, or one CHECKPOINT_DONE, never two of
   * these: the notice that sends markers cannot capture, since K >= p =
   * index + 1; the scheduler sends a marker to every rank), then `ranks`
   * record ranges. */
  struct vcl_peer peers[];
};

static struct ft_control *sends_of(struct vcl_state *s) {
  return (struct ft_control *)(s->peers + s->ranks);
}

static struct ft_record_range *keep_of(struct vcl_state *s) {
  return (struct ft_record_range *)(sends_of(s) + s->ranks);
}

static int is_scheduler(const struct vcl_state *s) {
  return s->rank == s->ranks;
}

static size_t vcl_state_size(const struct ft_core_config *config) {
  size_t ranks = config->ranks > 0 ? (size_t)config->ranks : 0;
  return sizeof(struct vcl_state) +
         ranks * (sizeof(struct vcl_peer) + sizeof(struct ft_control) +
                  sizeof(struct ft_record_range));
}

/* Forgets the per-peer facts of the previous wave, not the counts. */
static void clear_wave(struct vcl_state *s) {
  for (int j = 0; j < s->ranks; j++)
    s->peers[j].bits = 0;
  s->n_proposals = s->n_cuts = s->n_closed = s->n_done = 0;
  s->proposal = s->highest = s->at = s->held = 0;
}

static int vcl_init(void *state, const struct ft_core_config *config) {
  struct vcl_state *s = state;
  if (config->ranks <= 0 || config->rank < 0 || config->rank > config->ranks)
    return -1;
  s->rank = config->rank;
  s->any_call = config->any_call != 0;
  s->ranks = config->ranks;
  s->period = config->period > 0 ? config->period : 0.0;
  s->deadline = -1.0;
  if (is_scheduler(s) && s->period > 0)
    s->deadline = config->start + s->period;
  s->phase = FT_VCL_IDLE;
  memset(s->peers, 0, (size_t)s->ranks * sizeof s->peers[0]);
  clear_wave(s);
  return 0;
}

static void push(struct vcl_state *s, enum ft_vcl_control kind, int to,
                 int64_t value) {
  sends_of(s)[s->n_sends++] = (struct ft_control){
      .kind = kind, .from = s->rank, .to = to, .wave = s->wave, .value = value};
}

/* A rank's MARKERs and CUTs at safe points are quiet (struct ft_control):
 * its receiver need not be woken out of the application's MPI wait for
 * each of them (issue 18: 2p(p - 1) of them a wave, nearly a bell each),
 * only once enough of them are due to make it act (vcl_wake_after). The
 * any-call mode's markers are not: a rank checkpoints at the call it is
 * in when the first one comes. */
static void push_quiet(struct vcl_state *s, enum ft_vcl_control kind, int to,
                       int64_t value) {
  push(s, kind, to, value);
  sends_of(s)[s->n_sends - 1].quiet = 1;
}

/* ---- The checkpoint scheduler ---------------------------------------- */

/* From pcl-vs-vcl-sc06, section 4.1: "The checkpoint scheduler manages the
 * different checkpoint waves. It regularly sends markers to every MPI
 * process." */
static int on_scheduler_timer(struct vcl_state *s, const struct ft_event *e) {
  if (s->phase != FT_VCL_IDLE || s->deadline < 0 || e->time < s->deadline)
    return 0; /* early or spurious timers are ignored */
  s->wave++;
  clear_wave(s);
  s->deadline = -1.0;
  s->phase = FT_VCL_WAITING;
  for (int r = 0; r < s->ranks; r++)
    push(s, FT_VCL_CONTROL_MARKER, r, 0);
  return 0;
}

/* From pcl-vs-vcl-sc06, section 4.1: "It then waits for an acknowledgment
 * of the end of the checkpoint from every MPI process before asserting the
 * end of the global checkpoint to the checkpoint servers. The checkpoint
 * scheduler starts a new checkpoint wave only after the end of the previous
 * one." The next one is due `period` seconds after the commit. */
static int on_checkpoint_done(struct vcl_state *s, const struct ft_event *e,
                              struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (c->kind != FT_VCL_CONTROL_CHECKPOINT_DONE || c->to != s->rank ||
      c->from < 0 || c->from >= s->ranks || c->wave != s->wave ||
      s->phase != FT_VCL_WAITING || (s->peers[c->from].bits & PEER_DONE))
    return -1;
  s->peers[c->from].bits |= PEER_DONE;
  if (++s->n_done < s->ranks)
    return 0;
  u->flags |= FT_UPDATE_COMMIT;
  u->wave = s->wave;
  s->committed = s->wave;
  s->phase = FT_VCL_IDLE;
  s->deadline = e->time + s->period;
  return 0;
}

static int on_scheduler_rollback(struct vcl_state *s,
                                 const struct ft_event *e) {
  if (e->wave < 0)
    return -1;
  clear_wave(s);
  s->phase = FT_VCL_IDLE;
  s->wave = s->committed = e->wave;
  s->deadline = s->period > 0 ? e->time + s->period : -1.0;
  return 0;
}

static int scheduler_dispatch(struct vcl_state *s, const struct ft_event *e,
                              struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_TIMER:
    return on_scheduler_timer(s, e);
  case FT_EVENT_CONTROL:
    return on_checkpoint_done(s, e, u);
  case FT_EVENT_ROLLBACK:
    return on_scheduler_rollback(s, e);
  default:
    return -1; /* the scheduler runs no application */
  }
}

/* ---- An application rank: channels ----------------------------------- */

/* The next message delivered from `p` may be channel state: it comes after
 * the capture (or after the proposal, whose retained copy may become the
 * checkpoint), and its number is not known to be past the sender's CUT. */
static int may_be_channel_state(const struct vcl_state *s,
                                const struct vcl_peer *p) {
  int after = s->phase == FT_VCL_RECORDING ||
              (s->phase == FT_VCL_NOTIFIED && s->index >= s->proposal);
  return after && !((p->bits & PEER_CUT) && p->recv >= p->cut);
}

/* After the capture, a channel closes once its CUT is in and every message
 * the CUT counts has been delivered. */
static void close_if_complete(struct vcl_state *s, struct vcl_peer *p) {
  if ((p->bits & (PEER_CUT | PEER_CLOSED)) == PEER_CUT && p->recv >= p->cut) {
    p->bits |= PEER_CLOSED;
    s->n_closed++;
  }
}

/* From pcl-vs-vcl-sc06, section 4.1: "Every message to be logged according
 * to the Chandy and Lamport algorithm is temporarily stored in the volatile
 * memory of the daemon in order to be sent to the checkpoint server in the
 * same way". With every channel closed, the records to keep are, per peer,
 * the messages delivered after K and counted by the peer's CUT. */
static void store_if_complete(struct vcl_state *s, struct ft_update *u) {
  if (s->phase != FT_VCL_RECORDING || s->n_closed < s->ranks)
    return;
  struct ft_record_range *keep = keep_of(s);
  for (int j = 0; j < s->ranks; j++) {
    const struct vcl_peer *p = &s->peers[j];
    if (p->cut > p->at_recv)
      keep[s->n_keep++] = (struct ft_record_range){
          .peer = j, .first = p->at_recv + 1, .last = p->cut};
  }
  u->flags |= FT_UPDATE_STORE;
  u->wave = s->wave;
  s->phase = FT_VCL_STORING;
}

/* The peer's CUT came, counting `cut` messages on its channel: after the
 * capture, its channel may close and the checkpoint be stored (the
 * safe-point and the any-call modes alike). */
static void take_cut(struct vcl_state *s, struct vcl_peer *p, int64_t cut,
                     struct ft_update *u) {
  p->bits |= PEER_CUT;
  s->n_cuts++;
  p->cut = cut;
  if (s->phase == FT_VCL_RECORDING) {
    close_if_complete(s, p);
    store_if_complete(s, u);
  }
}

/* A message delivered before my checkpoint that its sender sent after its
 * own is an orphan: the cut would not be consistent. */
static int orphan(const struct vcl_peer *p, int64_t at_recv) {
  return (p->bits & PEER_CUT) && at_recv > p->cut;
}

/* The local checkpoint of the wave is the state at K: the current one, or
 * the copy retained at K == p (whose counts are in at_sent, at_recv). The
 * CUTs tell every peer how many of its messages belong before it. From
 * pcl-vs-vcl-sc06, section 3: "When a process starts a checkpoint, it
 * records its local state and sends a marker to all its neighbors." */
static int capture(struct vcl_state *s, int retained, struct ft_update *u) {
  struct vcl_peer *self = &s->peers[s->rank];
  int64_t own_sent = retained ? self->at_sent : self->sent;
  for (int j = 0; j < s->ranks; j++) {
    const struct vcl_peer *p = &s->peers[j];
    int64_t at_recv = retained ? p->at_recv : p->recv;
    if (orphan(p, at_recv) || (j == s->rank && at_recv > own_sent))
      return -1;
  }
  for (int j = 0; j < s->ranks; j++) {
    struct vcl_peer *p = &s->peers[j];
    if (!retained) {
      p->at_sent = p->sent;
      p->at_recv = p->recv;
    }
    if (j != s->rank)
      push_quiet(s, FT_VCL_CONTROL_CUT, j, p->at_sent);
  }
  self->bits |= PEER_CUT; /* my own channel's cut is my own count */
  self->cut = self->at_sent;
  u->flags |= FT_UPDATE_CAPTURE;
  u->wave = s->wave;
  u->index = s->at;
  s->phase = FT_VCL_RECORDING;
  s->n_closed = 0;
  for (int j = 0; j < s->ranks; j++)
    close_if_complete(s, &s->peers[j]);
  store_if_complete(s, u);
  return 0;
}

static void release(struct vcl_state *s, struct ft_update *u) {
  if (s->held == 0)
    return;
  s->held = 0;
  u->flags |= FT_UPDATE_RELEASE;
}

/* Every proposal is in: K is the highest. K >= p, and the rank is at most
 * at p + 1 (held there), so the state at K is the current one (K ahead or
 * held at K) or the copy retained at p (K == p, passed). */
static int learn_k(struct vcl_state *s, struct ft_update *u) {
  s->at = s->highest;
  int rc = 0;
  if (s->held != 0 && s->held == s->at)
    rc = capture(s, 0, u);
  else if (s->index >= s->at)
    rc = capture(s, 1, u);
  else
    s->phase = FT_VCL_KNOWN;
  if (rc == 0)
    release(s, u);
  return rc;
}

static int check_proposals(struct vcl_state *s, struct ft_update *u) {
  return s->n_proposals == s->ranks - 1 ? learn_k(s, u) : 0;
}

/* From pcl-vs-vcl-sc06, section 3: "When a process receives a marker, if it
 * has not started its checkpoint wave yet, it starts it". Here starting
 * means proposing the next safe point to every other rank. */
static void notice(struct vcl_state *s, int wave) {
  s->wave = wave;
  clear_wave(s);
  s->phase = FT_VCL_NOTIFIED;
  s->proposal = s->highest = s->index + 1;
  for (int to = 0; to < s->ranks; to++)
    if (to != s->rank)
      push_quiet(s, FT_VCL_CONTROL_MARKER, to, s->proposal);
}

/* The scheduler sends one marker per wave to every rank, in wave order: the
 * first notice of the next wave, or a late one (peers' markers came first)
 * that is only noted. */
static int on_scheduler_marker(struct vcl_state *s, const struct ft_control *c,
                               struct ft_update *u) {
  if (c->kind != FT_VCL_CONTROL_MARKER || c->value != 0 ||
      c->wave != s->scheduler_wave + 1)
    return -1;
  if (c->wave == s->wave + 1 && s->phase == FT_VCL_IDLE) {
    s->scheduler_wave = c->wave;
    notice(s, c->wave);
    return check_proposals(s, u);
  }
  if (c->wave > s->wave)
    return -1;
  s->scheduler_wave = c->wave;
  return 0;
}

/* A peer's marker carries its proposal, once per wave; the first one of a
 * wave is also this rank's notice. */
static int on_peer_marker(struct vcl_state *s, const struct ft_control *c,
                          struct ft_update *u) {
  struct vcl_peer *p = &s->peers[c->from];
  if (c->value < 1)
    return -1;
  if (s->phase == FT_VCL_IDLE && c->wave == s->wave + 1)
    notice(s, c->wave);
  else if (s->phase != FT_VCL_NOTIFIED || c->wave != s->wave ||
           (p->bits & PEER_PROPOSAL))
    return -1;
  p->bits |= PEER_PROPOSAL;
  s->n_proposals++;
  if (c->value > s->highest)
    s->highest = c->value;
  return check_proposals(s, u);
}

/* A peer's CUT, once per wave, after its marker. From pcl-vs-vcl-sc06,
 * section 3: "The reception of this marker by 1 concludes the local
 * checkpoint of 1" once the messages it counts are all in. */
static int on_cut(struct vcl_state *s, const struct ft_control *c,
                  struct ft_update *u) {
  struct vcl_peer *p = &s->peers[c->from];
  if (c->wave != s->wave || c->value < 0 || !(p->bits & PEER_PROPOSAL) ||
      (p->bits & PEER_CUT) ||
      (s->phase != FT_VCL_NOTIFIED && s->phase != FT_VCL_KNOWN &&
       s->phase != FT_VCL_RECORDING))
    return -1;
  if (s->phase == FT_VCL_RECORDING && p->at_recv > c->value)
    return -1; /* an orphan */
  take_cut(s, p, c->value, u);
  return 0;
}

static int on_control(struct vcl_state *s, const struct ft_control *c,
                      struct ft_update *u) {
  if (c->to != s->rank || c->from < 0 || c->from > s->ranks ||
      c->from == s->rank)
    return -1;
  if (c->from == s->ranks)
    return on_scheduler_marker(s, c, u);
  switch ((enum ft_vcl_control)c->kind) {
  case FT_VCL_CONTROL_MARKER:
    return on_peer_marker(s, c, u);
  case FT_VCL_CONTROL_CUT:
    return on_cut(s, c, u);
  case FT_VCL_CONTROL_CHECKPOINT_DONE: /* the scheduler's */
  case FT_VCL_CONTROL_COUNT:
    return -1;
  }
  return -1;
}

/* From pcl-vs-vcl-sc06, section 3: "every message, like m in the figure,
 * received after the local checkpoint and before having received the
 * marker of the sender, is stored by the daemon process." Markers and
 * messages travel on different channels here, so "before the marker" is
 * "numbered at most the count the sender's CUT carries"; a delivery is
 * recorded while that may hold, and the STORE keeps the right ones. */
static int on_delivered(struct vcl_state *s, const struct ft_event *e,
                        struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct vcl_peer *p = &s->peers[e->peer];
  int record = may_be_channel_state(s, p);
  p->recv++;
  u->flags |= FT_UPDATE_PASS;
  if (record) {
    u->flags |= FT_UPDATE_RECORD;
    u->index = p->recv;
  }
  if (s->phase == FT_VCL_RECORDING) {
    close_if_complete(s, p);
    store_if_complete(s, u);
  }
  return 0;
}

/* Safe points pass, except p + 1 before K is known (held: a rank never
 * runs two safe points past its proposal without knowing K). At p the rank
 * retains a copy, at K it captures. */
static int on_safe_point(struct vcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (s->held != 0 || e->index != s->index + 1)
    return -1; /* safe points come one by one, never while held */
  s->index = e->index;
  if (s->phase == FT_VCL_NOTIFIED && s->index == s->proposal + 1) {
    s->held = s->index;
    u->flags |= FT_UPDATE_HOLD;
    return 0;
  }
  u->flags |= FT_UPDATE_PASS;
  if (s->phase == FT_VCL_NOTIFIED && s->index == s->proposal) {
    u->flags |= FT_UPDATE_RETAIN;
    for (int j = 0; j < s->ranks; j++) {
      s->peers[j].at_sent = s->peers[j].sent;
      s->peers[j].at_recv = s->peers[j].recv;
    }
  } else if (s->phase == FT_VCL_KNOWN && s->index == s->at) {
    return capture(s, 0, u);
  }
  return 0;
}

/* From pcl-vs-vcl-sc06, section 4.1: the scheduler "waits for an
 * acknowledgment of the end of the checkpoint from every MPI process". */
static int on_image_stored(struct vcl_state *s, const struct ft_event *e) {
  if (s->phase != FT_VCL_STORING || e->wave != s->wave)
    return -1;
  push(s, FT_VCL_CONTROL_CHECKPOINT_DONE, s->ranks, 0);
  s->phase = FT_VCL_IDLE;
  s->proposal = s->highest = s->at = 0;
  return 0;
}

/* From pcl-vs-vcl-sc06, section 3: "If a failure occurs, all processes
 * restart from their last stored checkpoint (4) and the daemon process
 * replays the delivery of the stored messages (5)." Counts restart at 0 on
 * both sides (see vcl.h for the replayed messages). */
static int on_rollback(struct vcl_state *s, const struct ft_event *e) {
  if (e->wave < 0 || e->index < 0)
    return -1;
  memset(s->peers, 0, (size_t)s->ranks * sizeof s->peers[0]);
  clear_wave(s);
  s->phase = FT_VCL_IDLE;
  s->index = e->index;
  s->wave = s->committed = s->scheduler_wave = e->wave;
  return 0;
}

static int rank_dispatch(struct vcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    if (e->peer < 0 || e->peer >= s->ranks)
      return -1;
    s->peers[e->peer].sent++;
    u->flags |= FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_APP_RECV: /* peer -1: MPI_ANY_SOURCE */
    if (e->peer < -1 || e->peer >= s->ranks)
      return -1;
    u->flags |= FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_DELIVERED:
    return on_delivered(s, e, u);
  case FT_EVENT_TIMER:
    return 0; /* only the scheduler has a deadline */
  case FT_EVENT_SAFE_POINT:
    return on_safe_point(s, e, u);
  case FT_EVENT_CONTROL:
    return on_control(s, &e->control, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e);
  case FT_EVENT_ROLLBACK:
    return on_rollback(s, e);
  case FT_EVENT_PROBED: /* message logging's */
  case FT_EVENT_COMPLETION:
  case FT_EVENT_RESTART:
  case FT_EVENT_APP_PROBE:
  case FT_EVENT_APP_COMPLETION:
  case FT_EVENT_CALL: /* any-call mode's */
  case FT_EVENT_CALL_END:
  case FT_EVENT_ARRIVED:
  case FT_EVENT_COLLECTIVE: /* c3 only */
    return -1;
  }
  return -1;
}

/* ---- An application rank in any-call mode ----------------------------
 *
 * Chandy-Lamport as pcl-vs-vcl-sc06, section 3, Figure 1 tells it, with no
 * application contract: "When a process receives a marker, if it has not
 * started its checkpoint wave yet, it starts it": at the MPI call it is in,
 * or its next one (FT_VCL_DUE meanwhile). "When a process starts a
 * checkpoint, it records its local state and sends a marker to all its
 * neighbors": CAPTURE, and a MARKER to every other rank whose value counts
 * the messages sent on that channel before it (so that the receiver knows
 * which arrivals precede it). "Every message ... received after the local
 * checkpoint and before having received the marker of the sender, is
 * stored": the ARRIVED messages numbered past those in the image and at
 * most the sender's count are RECORDed, and STOREd with the image once
 * every channel's marker is in and every message it counts has arrived.
 * Here a peer's `recv` and `at_recv` count ARRIVED messages (not
 * deliveries: a message arrived before the capture is in the image). */

/* The local checkpoint: the arrivals before it are those in the image;
 * a marker already in bounds them (later ones were QUEUEd). */
static int ac_capture(struct vcl_state *s, struct ft_update *u) {
  for (int j = 0; j < s->ranks; j++) {
    struct vcl_peer *p = &s->peers[j];
    p->at_sent = p->sent;
    p->at_recv = p->recv;
    if ((p->bits & PEER_CUT) && p->recv > p->cut)
      p->at_recv = p->cut;
    if (j != s->rank)
      push(s, FT_VCL_CONTROL_MARKER, j, p->at_sent);
  }
  struct vcl_peer *self = &s->peers[s->rank];
  self->bits |= PEER_CUT; /* my own channel's marker is my own count */
  self->cut = self->at_sent;
  u->flags |= FT_UPDATE_CAPTURE | FT_UPDATE_FLUSH;
  u->wave = s->wave;
  u->index = s->call;
  s->phase = FT_VCL_RECORDING;
  s->n_closed = 0;
  for (int j = 0; j < s->ranks; j++)
    close_if_complete(s, &s->peers[j]);
  store_if_complete(s, u);
  return 0;
}

/* The first marker of the next wave: checkpoint now when in a call. */
static int ac_start(struct vcl_state *s, int wave, struct ft_update *u) {
  s->wave = wave;
  clear_wave(s);
  s->phase = FT_VCL_DUE;
  return s->in_call ? ac_capture(s, u) : 0;
}

static int ac_on_scheduler_marker(struct vcl_state *s,
                                  const struct ft_control *c,
                                  struct ft_update *u) {
  if (c->kind != FT_VCL_CONTROL_MARKER || c->value != 0 ||
      c->wave != s->scheduler_wave + 1)
    return -1;
  s->scheduler_wave = c->wave;
  if (c->wave == s->wave + 1 && s->phase == FT_VCL_IDLE)
    return ac_start(s, c->wave, u);
  return c->wave > s->wave ? -1 : 0; /* late: peers' markers came first */
}

/* A peer's marker, once per wave: the first one of a wave starts it. Its
 * value below the arrivals already counted means a message sent after it
 * was fed before it (the runtime broke the channel's order). */
static int ac_on_peer_marker(struct vcl_state *s, const struct ft_control *c,
                             struct ft_update *u) {
  struct vcl_peer *p = &s->peers[c->from];
  if (c->kind != FT_VCL_CONTROL_MARKER || c->value < 0)
    return -1;
  if (s->phase == FT_VCL_IDLE && c->wave == s->wave + 1 &&
      ac_start(s, c->wave, u) != 0)
    return -1;
  if ((s->phase != FT_VCL_DUE && s->phase != FT_VCL_RECORDING) ||
      c->wave != s->wave || (p->bits & PEER_CUT) || c->value < p->recv)
    return -1;
  take_cut(s, p, c->value, u);
  return 0;
}

/* ARRIVED: before the capture, a message past its channel's marker waits
 * in the delayed receive queue (it must not be in the image); after it,
 * one that may precede the marker is channel state. */
static int ac_on_arrived(struct vcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct vcl_peer *p = &s->peers[e->peer];
  int after_marker = (p->bits & PEER_CUT) && p->recv >= p->cut;
  p->recv++;
  if (s->phase == FT_VCL_DUE && after_marker) {
    u->flags |= FT_UPDATE_QUEUE;
    return 0;
  }
  u->flags |= FT_UPDATE_PASS;
  if (s->phase != FT_VCL_RECORDING)
    return 0;
  if (!after_marker) {
    u->flags |= FT_UPDATE_RECORD;
    u->index = p->recv;
  }
  close_if_complete(s, p);
  store_if_complete(s, u);
  return 0;
}

static int ac_on_call(struct vcl_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  if (s->in_call || e->index != s->call + 1)
    return -1;
  s->in_call = 1;
  s->call = e->index;
  u->flags |= FT_UPDATE_PASS;
  return s->phase == FT_VCL_DUE ? ac_capture(s, u) : 0;
}

static int ac_on_call_end(struct vcl_state *s, const struct ft_event *e,
                          struct ft_update *u) {
  if (!s->in_call || e->index != s->call)
    return -1;
  s->in_call = 0;
  u->flags |= FT_UPDATE_PASS;
  return 0;
}

static int ac_on_control(struct vcl_state *s, const struct ft_control *c,
                         struct ft_update *u) {
  if (c->to != s->rank || c->from < 0 || c->from > s->ranks ||
      c->from == s->rank)
    return -1;
  if (c->from == s->ranks)
    return ac_on_scheduler_marker(s, c, u);
  return ac_on_peer_marker(s, c, u); /* no CUT in this mode */
}

/* The rank resumes in the call its checkpoint was taken in (none: from
 * the beginning), its image's arrived messages and channel state restored
 * as arrived; counts restart at 0. */
static int ac_on_rollback(struct vcl_state *s, const struct ft_event *e) {
  if (on_rollback(s, e) != 0)
    return -1;
  s->index = 0;
  s->call = e->index;
  s->in_call = e->index > 0;
  return 0;
}

static int ac_rank_dispatch(struct vcl_state *s, const struct ft_event *e,
                            struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    if (e->peer < 0 || e->peer >= s->ranks)
      return -1;
    s->peers[e->peer].sent++;
    u->flags |= FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_APP_RECV:
  case FT_EVENT_DELIVERED:
  case FT_EVENT_SAFE_POINT: /* a call like the others here */
    u->flags |= FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_ARRIVED:
    return ac_on_arrived(s, e, u);
  case FT_EVENT_CALL:
    return ac_on_call(s, e, u);
  case FT_EVENT_CALL_END:
    return ac_on_call_end(s, e, u);
  case FT_EVENT_TIMER:
    return 0;
  case FT_EVENT_CONTROL:
    return ac_on_control(s, &e->control, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e);
  case FT_EVENT_ROLLBACK:
    return ac_on_rollback(s, e);
  case FT_EVENT_PROBED: /* message logging's */
  case FT_EVENT_COMPLETION:
  case FT_EVENT_RESTART:
  case FT_EVENT_APP_PROBE:
  case FT_EVENT_APP_COMPLETION:
  case FT_EVENT_COLLECTIVE: /* c3 only */
    return -1;
  }
  return -1;
}

static int vcl_step(void *state, const struct ft_event *event,
                    struct ft_update *update) {
  struct vcl_state *s = state;
  s->n_sends = s->n_keep = 0;
  *update = (struct ft_update){.flags = 0};
  int rc = is_scheduler(s) ? scheduler_dispatch(s, event, update)
           : s->any_call   ? ac_rank_dispatch(s, event, update)
                           : rank_dispatch(s, event, update);
  if (rc != 0) {
    s->n_sends = s->n_keep = 0;
    update->flags = 0;
  }
  update->deadline = s->deadline;
  update->sends = s->n_sends ? sends_of(s) : NULL;
  update->n_sends = s->n_sends;
  update->keep = s->n_keep ? keep_of(s) : NULL;
  update->n_keep = s->n_keep;
  return rc;
}

/* ---- Waking a rank for quiet messages (ft_protocol_ops.wake_after) ---
 *
 * Between the rank's own events, a MARKER or a CUT it has not taken yet
 * can make it act only as the one that completes something: the first
 * marker of a wave (the notice: its proposal goes out), the last missing
 * proposal (K is known: the retained copy may be captured and the CUTs go
 * out), the last missing CUT (the last channel may close: the image is
 * stored). Any other one only updates counts the rank will look at when it
 * next takes its messages; so the rank is woken when as many quiet
 * messages are due as the next of those needs at least (its messages come
 * in one order of due times, and a peer's CUT never precedes its marker),
 * and takes every message due then, as before: what it does, and when, is
 * what it did when every message woke it. */
static int vcl_wake_after(const void *state) {
  const struct vcl_state *s = state;
  if (is_scheduler(s) || s->any_call)
    return 0; /* no quiet messages */
  int missing_cuts = s->ranks - 1 - s->n_cuts;
  switch (s->phase) {
  case FT_VCL_IDLE: /* the next marker is a notice */
    return 1;
  case FT_VCL_NOTIFIED: /* K needs every proposal */
    return s->ranks - 1 - s->n_proposals;
  case FT_VCL_KNOWN:     /* the capture is at K, a safe point: the store it */
  case FT_VCL_RECORDING: /* may start needs every CUT */
    return missing_cuts > 0 ? missing_cuts : 0;
  case FT_VCL_STORING:
  case FT_VCL_WAITING:
  case FT_VCL_DUE:
    return 0; /* IMAGE_STORED first, a loud message */
  }
  return 0;
}

/* ---- Accessors ------------------------------------------------------- */

static const struct vcl_state *cstate(const void *state) { return state; }

enum ft_vcl_phase ft_vcl_phase(const void *state) {
  return cstate(state)->phase;
}

int ft_vcl_wave(const void *state) { return cstate(state)->wave; }

int64_t ft_vcl_proposal(const void *state) { return cstate(state)->proposal; }

int64_t ft_vcl_cut_at(const void *state) { return cstate(state)->at; }

int64_t ft_vcl_held(const void *state) { return cstate(state)->held; }

int ft_vcl_recording(const void *state, int peer) {
  const struct vcl_state *s = state;
  if (is_scheduler(s) || peer < 0 || peer >= s->ranks)
    return 0;
  return may_be_channel_state(s, &s->peers[peer]);
}

/* The names of vcl's control kinds in traces (ft_protocol.h). */
const char *const ft_vcl_controls[FT_VCL_CONTROL_COUNT] = {
    [FT_VCL_CONTROL_MARKER] = "marker",
    [FT_VCL_CONTROL_CUT] = "cut",
    [FT_VCL_CONTROL_CHECKPOINT_DONE] = "done",
};

const struct ft_protocol_ops ft_protocol_vcl = {
    .name = "vcl",
    .family = FT_FAMILY_CHANNEL_STATE,
    .summary = "non-blocking coordinated checkpoint (MPICH-Vcl, Chandy-"
               "Lamport): a scheduler's markers, channel state recorded",
    .state_size = vcl_state_size,
    .init = vcl_init,
    .step = vcl_step,
    .controls = ft_vcl_controls,
    .n_controls = FT_VCL_CONTROL_COUNT,
    .wake_after = vcl_wake_after,
};
