/* Protocol `pcl`: blocking coordinated checkpointing at safe points (see
 * pcl.h). Pure: no MPI, no clock, no I/O, no allocation. */
#include "pcl.h"

#include <string.h>

/* Where a rank stands in the current wave. */
enum pcl_phase {
  PCL_IDLE,      /* no wave in progress (rank 0: none since the commit) */
  PCL_REQUESTED, /* position reported, K not known: stop at position + 1
                    (rank 0: move the position there) */
  PCL_KNOWN,     /* K known, safe point K not reached yet */
  PCL_MARKING,   /* at K, markers sent, held until every marker is in */
  PCL_STORING,   /* checkpoint taken, image on its way to the server */
  PCL_STORED,    /* rank 0 only: own image stored, waiting for the others */
};

/* Per-peer facts of the current wave, one byte per rank. */
enum pcl_peer_bit {
  PEER_POSITION = 1u << 0, /* rank 0: its POSITION arrived */
  PEER_MARKER = 1u << 1,   /* its MARKER arrived */
  PEER_DELAYED = 1u << 2,  /* ... before this rank sent its own */
  PEER_DONE = 1u << 3,     /* rank 0: its CHECKPOINT_DONE arrived */
};

struct pcl_state {
  int rank, ranks;
  double period;   /* <= 0 (or NaN): never checkpoint */
  double deadline; /* rank 0: when the next wave is due; -1: none */
  int wave;        /* current wave, or the last one */
  int committed;   /* last committed wave (rank 0, or after ROLLBACK) */
  enum pcl_phase phase;
  int64_t index;        /* safe points passed */
  int64_t hold_at;      /* REQUESTED: stop here until K is known */
  int64_t at;           /* K, or 0 when unknown */
  int64_t held;         /* safe point the application is held at, or 0 */
  int64_t max_position; /* rank 0: the highest position reported */
  int n_positions, n_markers, n_done;
  size_t n_sends;
  /* Any-call mode (pcl-vs-vcl-fgcs08, section 3, Figure 2). */
  int any_call;
  int in_call;  /* the application is in MPI call `call` */
  int64_t call; /* the last call entered (CALL), or resumed in */
  /* 2 * ranks control messages (rank 0 sends WAVE_AT and its markers in one
   * step), then the any-call counts (struct pcl_channel per rank), then
   * `ranks` bytes of enum pcl_peer_bit. */
  struct ft_control sends[];
};

/* Any-call mode: one channel's counts since the last ROLLBACK or the
 * start. */
struct pcl_channel {
  int64_t sent;      /* application messages this rank sent to the peer */
  int64_t arrived;   /* application messages of the peer that ARRIVED */
  int64_t marker_at; /* the peer's marker of this wave came after its
                        message number marker_at */
};

static size_t sends_capacity(size_t ranks) { return 2 * ranks; }

static struct pcl_channel *channels(struct pcl_state *s) {
  return (struct pcl_channel *)(s->sends + sends_capacity((size_t)s->ranks));
}

static const struct pcl_channel *channels_const(const struct pcl_state *s) {
  return (const struct pcl_channel *)(s->sends +
                                      sends_capacity((size_t)s->ranks));
}

/* The channels' counts exist in any-call mode only. */
static size_t channels_len(size_t ranks, int any_call) {
  return any_call ? ranks : 0;
}

static unsigned char *peer_bits(struct pcl_state *s) {
  return (unsigned char *)(channels(s) +
                           channels_len((size_t)s->ranks, s->any_call));
}

static const unsigned char *peer_bits_const(const struct pcl_state *s) {
  return (const unsigned char *)(channels_const(s) +
                                 channels_len((size_t)s->ranks, s->any_call));
}

static size_t pcl_state_size(const struct ft_core_config *config) {
  size_t ranks = config->ranks > 0 ? (size_t)config->ranks : 0;
  return sizeof(struct pcl_state) +
         sends_capacity(ranks) * sizeof(struct ft_control) +
         channels_len(ranks, config->any_call) * sizeof(struct pcl_channel) +
         ranks;
}

static int pcl_init(void *state, const struct ft_core_config *config) {
  struct pcl_state *s = state;
  if (config->ranks <= 0 || config->rank < 0 || config->rank >= config->ranks)
    return -1;
  s->rank = config->rank;
  s->ranks = config->ranks;
  s->period = config->period > 0 ? config->period : 0.0;
  s->deadline = -1.0;
  if (s->rank == 0 && s->period > 0)
    s->deadline = config->start + s->period;
  s->phase = PCL_IDLE;
  s->any_call = config->any_call != 0;
  memset(channels(s), 0,
         channels_len((size_t)s->ranks, s->any_call) *
             sizeof(struct pcl_channel));
  memset(peer_bits(s), 0, (size_t)s->ranks);
  return 0;
}

/* Forgets the per-peer facts of the previous wave. */
static void clear_wave(struct pcl_state *s) {
  memset(peer_bits(s), 0, (size_t)s->ranks);
  s->n_positions = s->n_markers = s->n_done = 0;
  s->max_position = 0;
  s->hold_at = s->at = s->held = 0;
}

static void push(struct pcl_state *s, enum ft_pcl_control kind, int to,
                 int64_t value) {
  s->sends[s->n_sends++] = (struct ft_control){
      .kind = kind, .from = s->rank, .to = to, .wave = s->wave, .value = value};
}

/* A rank never sends a control message to itself. */
static void broadcast(struct pcl_state *s, enum ft_pcl_control kind,
                      int64_t value) {
  for (int to = 0; to < s->ranks; to++)
    if (to != s->rank)
      push(s, kind, to, value);
}

/* The markers of a wave at safe points are quiet (struct ft_control): a
 * rank acts on a peer's marker only once it is at K itself (on_marker:
 * before, the marker only marks its channel), and at K it is held, waiting
 * for control messages alone, until every marker is in. A rank not yet at
 * K need not be woken out of the application's MPI calls for each of the
 * p - 1 markers (issue 18: a bell each, 15 s of CPU time a wave at 400
 * ranks); it takes them at K, or with its next other message. */
static void quiet_since(struct pcl_state *s, size_t first) {
  for (size_t i = first; i < s->n_sends; i++)
    s->sends[i].quiet = 1;
}

static int all_markers(const struct pcl_state *s) {
  return s->n_markers == s->ranks - 1;
}

/* From pcl-vs-vcl-fgcs08, section 3: "When a process has received the
 * marker of every other process, it checkpoints and sends the resulting
 * image to the checkpoint server (5). After having taken its checkpoint, a
 * process can send and receive any messages." */
static void checkpoint(struct pcl_state *s, struct ft_update *u) {
  u->flags |= FT_UPDATE_CHECKPOINT;
  u->wave = s->wave;
  s->phase = PCL_STORING;
  s->held = 0;
}

/* The application is at safe point K: send the markers. Returns 1 when the
 * rank checkpoints now (every marker already in), 0 when it must wait.
 * From pcl-vs-vcl-sc06, section 3: "After having sent a marker, a process
 * does not send any other message through the same channel until it takes
 * its checkpoint": the application stays at the safe point. */
static int mark(struct pcl_state *s, struct ft_update *u) {
  size_t first = s->n_sends;
  broadcast(s, FT_PCL_CONTROL_MARKER, 0);
  quiet_since(s, first);
  s->phase = PCL_MARKING;
  if (!all_markers(s))
    return 0;
  checkpoint(s, u);
  return 1;
}

/* K is known: a rank held below K goes on, a rank held at K marks. */
static void apply_wave_at(struct pcl_state *s, int64_t at,
                          struct ft_update *u) {
  s->at = at;
  s->hold_at = 0;
  s->phase = PCL_KNOWN;
  if (s->held == 0)
    return;
  if (s->held < at) {
    s->held = 0;
    u->flags |= FT_UPDATE_RELEASE;
  } else if (mark(s, u)) {
    u->flags |= FT_UPDATE_RELEASE;
  }
}

/* Rank 0 has every position: every rank can reach K = max + 1 without
 * passing the safe point it stopped before. */
static void place_wave(struct pcl_state *s, struct ft_update *u) {
  int64_t at = s->max_position + 1;
  broadcast(s, FT_PCL_CONTROL_WAVE_AT, at);
  apply_wave_at(s, at, u);
}

static void record_position(struct pcl_state *s, int rank, int64_t value,
                            struct ft_update *u) {
  peer_bits(s)[rank] |= PEER_POSITION;
  if (s->n_positions == 0 || value > s->max_position)
    s->max_position = value;
  if (++s->n_positions == s->ranks)
    place_wave(s, u);
}

/* From pcl-vs-vcl-fgcs08, section 3: "The MPI process of rank 0 regularly
 * starts a new checkpoint wave and changes its state to checkpointing". */
static void start_wave(struct pcl_state *s, struct ft_update *u) {
  s->wave++;
  clear_wave(s);
  s->deadline = -1.0;
  s->phase = PCL_REQUESTED;
  s->hold_at = s->index + 1;
  broadcast(s, FT_PCL_CONTROL_WAVE_REQUEST, 0);
  record_position(s, 0, s->index, u);
}

static int on_timer(struct pcl_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  if (s->rank == 0 && s->phase == PCL_IDLE && s->deadline >= 0 &&
      e->time >= s->deadline)
    start_wave(s, u);
  return 0; /* early or spurious timers are ignored */
}

/* Rank 0 at its hold point before every position is in: it moves its own
 * position here instead of stopping, so that K = max + 1 stays ahead of
 * it. From pcl-vs-vcl-fgcs08, section 3: "The MPI process of rank 0
 * regularly starts a new checkpoint wave and changes its state to
 * checkpointing, then sends markers to every other process (1)": the
 * initiator of MPICH-Pcl goes on computing after its request, stopped only
 * where it posts a request on a marked channel (sc06, section 4: "a hook
 * in the request posting function for verifying and delaying these posts
 * if a checkpoint wave is currently active"). Holding rank 0 here made it
 * wait for the slowest answer, up to a whole computation phase of another
 * rank, with the application stopped: a wave due at rank 0's safe point
 * while the others computed cost BT.B.64 0.9 s instead of 0.4 ms (issue
 * 19). Rank 0 computes the maximum itself, so it can raise its own
 * position without a message; the others cannot (rank 0 may have placed
 * K already), and keep their hold. */
static void advance_own_position(struct pcl_state *s) {
  if (s->index > s->max_position)
    s->max_position = s->index;
  s->hold_at = s->index + 1;
}

/* A safe point passes, except two: at K the rank marks and is held until
 * every marker is in (it checkpoints at once when they all are); at
 * position + 1, before K is known, a rank but 0 waits for the WAVE_AT
 * (rank 0 moves its position: advance_own_position). */
static int on_safe_point(struct pcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (s->held != 0 || e->index != s->index + 1)
    return -1; /* safe points come one by one, never while held */
  s->index = e->index;
  unsigned flag = FT_UPDATE_PASS;
  if (s->phase == PCL_KNOWN && s->index == s->at)
    flag = mark(s, u) ? FT_UPDATE_PASS : FT_UPDATE_HOLD;
  else if (s->phase == PCL_REQUESTED && s->index == s->hold_at && s->rank == 0)
    advance_own_position(s);
  else if (s->phase == PCL_REQUESTED && s->index == s->hold_at)
    flag = FT_UPDATE_HOLD;
  if (flag == FT_UPDATE_HOLD)
    s->held = s->index;
  u->flags |= flag;
  return 0;
}

static int on_wave_request(struct pcl_state *s, const struct ft_control *c) {
  if (s->rank == 0 || c->from != 0 || s->phase != PCL_IDLE ||
      c->wave != s->wave + 1)
    return -1;
  s->wave = c->wave;
  clear_wave(s);
  s->phase = PCL_REQUESTED;
  s->hold_at = s->index + 1;
  push(s, FT_PCL_CONTROL_POSITION, 0, s->index);
  return 0;
}

static int on_position(struct pcl_state *s, const struct ft_control *c,
                       struct ft_update *u) {
  if (s->rank != 0 || c->wave != s->wave || s->phase != PCL_REQUESTED ||
      (peer_bits(s)[c->from] & PEER_POSITION) || c->value < 0)
    return -1;
  record_position(s, c->from, c->value, u);
  return 0;
}

static int on_wave_at(struct pcl_state *s, const struct ft_control *c,
                      struct ft_update *u) {
  if (c->from != 0 || c->wave != s->wave || s->phase != PCL_REQUESTED ||
      c->value < s->hold_at)
    return -1;
  apply_wave_at(s, c->value, u);
  return 0;
}

/* From pcl-vs-vcl-fgcs08, section 3: "after having received a marker, a
 * process does not receive any other message from the same channel:
 * message receptions are delayed up until the end of the checkpoint of the
 * process". A marker that arrives before the rank reached K marks its
 * channel delayed. Markers of any other wave are errors: the runtime drops
 * those of an earlier incarnation, and no rank sends a marker of a wave
 * before every rank has that wave's request. */
static int on_marker(struct pcl_state *s, const struct ft_control *c,
                     struct ft_update *u) {
  unsigned char *bits = &peer_bits(s)[c->from];
  if (c->wave != s->wave || (*bits & PEER_MARKER) ||
      (s->phase != PCL_REQUESTED && s->phase != PCL_KNOWN &&
       s->phase != PCL_MARKING))
    return -1;
  *bits |= PEER_MARKER;
  s->n_markers++;
  if (s->phase != PCL_MARKING)
    *bits |= PEER_DELAYED;
  else if (all_markers(s)) {
    checkpoint(s, u);
    u->flags |= FT_UPDATE_RELEASE;
  }
  return 0;
}

/* From pcl-vs-vcl-fgcs08, section 3: "the rank 0 MPI process acknowledges
 * the different checkpoint servers about the coherence of the wave after
 * having received every confirmation of the end of the checkpoint from
 * every process." The next wave is due `period` seconds after the commit
 * (pcl-vs-vcl-sc06, section 5.2: "after having fully transferred a checkpoint
 * image to a checkpoint server, the system waits for 30 seconds before
 * beginning a new checkpoint wave"). */
static void count_done(struct pcl_state *s, int rank, double time,
                       struct ft_update *u) {
  peer_bits(s)[rank] |= PEER_DONE;
  if (++s->n_done < s->ranks)
    return;
  u->flags |= FT_UPDATE_COMMIT;
  u->wave = s->wave;
  s->committed = s->wave;
  s->phase = PCL_IDLE;
  s->at = 0;
  s->deadline = time + s->period;
}

static int on_checkpoint_done(struct pcl_state *s, const struct ft_event *e,
                              struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (s->rank != 0 || c->wave != s->wave || s->at == 0 ||
      (peer_bits(s)[c->from] & PEER_DONE))
    return -1;
  count_done(s, c->from, e->time, u);
  return 0;
}

static int on_control(struct pcl_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (c->to != s->rank || c->from < 0 || c->from >= s->ranks ||
      c->from == s->rank)
    return -1;
  switch ((enum ft_pcl_control)c->kind) {
  case FT_PCL_CONTROL_WAVE_REQUEST:
    return on_wave_request(s, c);
  case FT_PCL_CONTROL_POSITION:
    return on_position(s, c, u);
  case FT_PCL_CONTROL_WAVE_AT:
    return on_wave_at(s, c, u);
  case FT_PCL_CONTROL_MARKER:
    return on_marker(s, c, u);
  case FT_PCL_CONTROL_CHECKPOINT_DONE:
    return on_checkpoint_done(s, e, u);
  case FT_PCL_CONTROL_COUNT:
    break;
  }
  return -1;
}

/* From pcl-vs-vcl-fgcs08, section 3: "When the images are completely
 * stored, the process sends a message to rank 0 to notify it about the end
 * of its checkpoint and continues its execution." */
static int on_image_stored(struct pcl_state *s, const struct ft_event *e,
                           struct ft_update *u) {
  if (s->phase != PCL_STORING || e->wave != s->wave)
    return -1;
  if (s->rank == 0) {
    s->phase = PCL_STORED;
    count_done(s, 0, e->time, u);
    return 0;
  }
  push(s, FT_PCL_CONTROL_CHECKPOINT_DONE, 0, 0);
  s->phase = PCL_IDLE;
  s->at = 0;
  return 0;
}

/* From pcl-vs-vcl-fgcs08, section 3: "If a failure occurs, all processes
 * restart from their last stored checkpoint". Every wave in progress is
 * forgotten; the next one is e->wave + 1. */
static int on_rollback(struct pcl_state *s, const struct ft_event *e) {
  if (e->wave < 0 || e->index < 0)
    return -1;
  clear_wave(s);
  s->phase = PCL_IDLE;
  s->index = e->index;
  s->wave = s->committed = e->wave;
  s->deadline = -1.0;
  if (s->rank == 0 && s->period > 0)
    s->deadline = e->time + s->period;
  return 0;
}

/* ---- Any-call mode (pcl-vs-vcl-fgcs08, section 3, Figure 2) ------------
 *
 * No application contract: messages may be in flight at the cut. The
 * waves are the paper's: "The MPI process of rank 0 regularly starts a
 * new checkpoint wave and changes its state to checkpointing: it sends
 * markers to every other process. When a process receives its first
 * marker, it changes its state to checkpointing and sends markers to every
 * other processes." The marker of channel rank -> peer carries the number
 * of application messages sent on it before it (value), so that the
 * receiver knows which arrivals precede it however the runtime carries
 * control messages. */

/* Whether `peer`'s marker is in and every message it sent before it has
 * arrived: the channel peer -> rank is flushed up to the cut. */
static int ac_channel_flushed(struct pcl_state *s, int peer) {
  return (peer_bits(s)[peer] & PEER_MARKER) &&
         channels(s)[peer].arrived >= channels(s)[peer].marker_at;
}

/* "When a process has received the marker of every other process, it
 * checkpoints" (fgcs08, section 3): wherever it is, provided it is in an
 * MPI call (the image is its position and pending requests); every channel
 * must be flushed, for Pcl stores no channel state. "After having taken
 * its checkpoint, a process can send and receive any messages": FLUSH
 * releases the frozen channels and the delayed receive queue. */
static void ac_try_checkpoint(struct pcl_state *s, struct ft_update *u) {
  if (s->phase != PCL_MARKING || !s->in_call || !all_markers(s))
    return;
  for (int peer = 0; peer < s->ranks; peer++)
    if (peer != s->rank && !ac_channel_flushed(s, peer))
      return;
  checkpoint(s, u);
  u->flags |= FT_UPDATE_FLUSH;
}

/* Enters wave `wave`: markers on every channel, each with the number of
 * messages sent on it before; "after having sent a marker, a process does
 * not send any other message through the same channel until it takes its
 * checkpoint" (pcl-vs-vcl-sc06, section 3): every channel is frozen. */
static void ac_mark(struct pcl_state *s, int wave) {
  s->wave = wave;
  clear_wave(s);
  s->phase = PCL_MARKING;
  for (int to = 0; to < s->ranks; to++)
    if (to != s->rank)
      push(s, FT_PCL_CONTROL_MARKER, to, channels(s)[to].sent);
}

static int ac_on_timer(struct pcl_state *s, const struct ft_event *e,
                       struct ft_update *u) {
  if (s->rank == 0 && s->phase == PCL_IDLE && s->deadline >= 0 &&
      e->time >= s->deadline) {
    s->deadline = -1.0;
    ac_mark(s, s->wave + 1);
    ac_try_checkpoint(s, u);
  }
  return 0; /* early or spurious timers are ignored */
}

/* "after having received a marker, a process does not receive any other
 * message from the same channel: message receptions are delayed up until
 * the end of the checkpoint of the process" (fgcs08, section 3): later
 * arrivals of the channel are QUEUEd (ac_on_arrived). A marker of the next
 * wave makes an idle rank enter it; a marker that counts fewer messages
 * than already arrived means a message sent after it was fed before it
 * (the runtime broke the channel's order). */
static int ac_on_marker(struct pcl_state *s, const struct ft_control *c,
                        struct ft_update *u) {
  if (s->phase == PCL_IDLE && s->rank != 0 && c->wave == s->wave + 1)
    ac_mark(s, c->wave);
  unsigned char *bits = &peer_bits(s)[c->from];
  struct pcl_channel *ch = &channels(s)[c->from];
  if (s->phase != PCL_MARKING || c->wave != s->wave || (*bits & PEER_MARKER) ||
      c->value < ch->arrived)
    return -1;
  *bits |= PEER_MARKER | PEER_DELAYED;
  ch->marker_at = c->value;
  s->n_markers++;
  ac_try_checkpoint(s, u);
  return 0;
}

static int ac_on_control(struct pcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (c->to != s->rank || c->from < 0 || c->from >= s->ranks ||
      c->from == s->rank)
    return -1;
  if (c->kind == FT_PCL_CONTROL_MARKER)
    return ac_on_marker(s, c, u);
  if (c->kind != FT_PCL_CONTROL_CHECKPOINT_DONE || s->rank != 0 ||
      c->wave != s->wave || s->phase == PCL_IDLE ||
      (peer_bits(s)[c->from] & PEER_DONE))
    return -1; /* no WAVE_REQUEST, POSITION or WAVE_AT in this mode */
  count_done(s, c->from, e->time, u);
  return 0;
}

/* APP_SEND: a frozen channel defers the send until the checkpoint. Sends
 * to itself pass (no marker crosses that channel). */
static int ac_on_send(struct pcl_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  channels(s)[e->peer].sent++;
  u->flags |= s->phase == PCL_MARKING && e->peer != s->rank ? FT_UPDATE_DEFER
                                                            : FT_UPDATE_PASS;
  return 0;
}

/* ARRIVED: a message sent after its sender's marker waits in the delayed
 * receive queue until this rank's checkpoint; one sent before it may
 * complete the channel's flush. */
static int ac_on_arrived(struct pcl_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct pcl_channel *ch = &channels(s)[e->peer];
  ch->arrived++;
  if (s->phase == PCL_MARKING && (peer_bits(s)[e->peer] & PEER_MARKER) &&
      ch->arrived > ch->marker_at) {
    u->flags |= FT_UPDATE_QUEUE;
    return 0;
  }
  u->flags |= FT_UPDATE_PASS;
  ac_try_checkpoint(s, u);
  return 0;
}

/* Calls come one by one: CALL k + 1 after CALL_END k. */
static int ac_on_call(struct pcl_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  if (s->in_call || e->index != s->call + 1)
    return -1;
  s->in_call = 1;
  s->call = e->index;
  u->flags |= FT_UPDATE_PASS;
  ac_try_checkpoint(s, u);
  return 0;
}

static int ac_on_call_end(struct pcl_state *s, const struct ft_event *e,
                          struct ft_update *u) {
  if (!s->in_call || e->index != s->call)
    return -1;
  s->in_call = 0;
  u->flags |= FT_UPDATE_PASS;
  return 0;
}

/* The rank resumes in the call its checkpoint was taken in (none: from the
 * beginning); the channels' counts restart, every wave in progress is
 * forgotten. */
static int ac_on_rollback(struct pcl_state *s, const struct ft_event *e) {
  if (on_rollback(s, e) != 0)
    return -1;
  s->index = 0;
  s->call = e->index;
  s->in_call = e->index > 0;
  memset(channels(s), 0, (size_t)s->ranks * sizeof(struct pcl_channel));
  return 0;
}

static int ac_dispatch(struct pcl_state *s, const struct ft_event *e,
                       struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    return ac_on_send(s, e, u);
  case FT_EVENT_APP_RECV:
  case FT_EVENT_DELIVERED:
  case FT_EVENT_SAFE_POINT: /* a call like the others here */
    u->flags = FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_ARRIVED:
    return ac_on_arrived(s, e, u);
  case FT_EVENT_CALL:
    return ac_on_call(s, e, u);
  case FT_EVENT_CALL_END:
    return ac_on_call_end(s, e, u);
  case FT_EVENT_TIMER:
    return ac_on_timer(s, e, u);
  case FT_EVENT_CONTROL:
    return ac_on_control(s, e, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e, u);
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

static int dispatch(struct pcl_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
  case FT_EVENT_APP_RECV:
  case FT_EVENT_DELIVERED:
    u->flags = FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_TIMER:
    return on_timer(s, e, u);
  case FT_EVENT_SAFE_POINT:
    return on_safe_point(s, e, u);
  case FT_EVENT_CONTROL:
    return on_control(s, e, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e, u);
  case FT_EVENT_ROLLBACK:
    return on_rollback(s, e);
  case FT_EVENT_PROBED: /* message logging's */
  case FT_EVENT_COMPLETION:
  case FT_EVENT_RESTART:
  case FT_EVENT_APP_PROBE:
  case FT_EVENT_APP_COMPLETION:
  case FT_EVENT_CALL: /* any-call mode's (ac_dispatch) */
  case FT_EVENT_CALL_END:
  case FT_EVENT_ARRIVED:
  case FT_EVENT_COLLECTIVE: /* c3 only */
    return -1;
  }
  return -1;
}

static int pcl_step(void *state, const struct ft_event *event,
                    struct ft_update *update) {
  struct pcl_state *s = state;
  s->n_sends = 0;
  update->flags = 0;
  update->wave = 0;
  int rc =
      s->any_call ? ac_dispatch(s, event, update) : dispatch(s, event, update);
  if (rc != 0)
    s->n_sends = 0;
  update->deadline = s->deadline;
  update->sends = s->n_sends ? s->sends : NULL;
  update->n_sends = s->n_sends;
  return rc;
}

int ft_pcl_wave(const void *state) {
  return ((const struct pcl_state *)state)->wave;
}

int64_t ft_pcl_wave_at(const void *state) {
  return ((const struct pcl_state *)state)->at;
}

int64_t ft_pcl_held(const void *state) {
  return ((const struct pcl_state *)state)->held;
}

int ft_pcl_channel_delayed(const void *state, int peer) {
  const struct pcl_state *s = state;
  if (peer < 0 || peer >= s->ranks)
    return 0;
  if (s->any_call && s->phase != PCL_MARKING)
    return 0; /* released at the checkpoint */
  return (peer_bits_const(s)[peer] & PEER_DELAYED) != 0;
}

int ft_pcl_frozen(const void *state) {
  const struct pcl_state *s = state;
  return s->any_call && s->phase == PCL_MARKING;
}

/* Quiet messages (ft_protocol_ops.wake_after): the markers of a wave at
 * safe points. At K the rank acts only once every marker is in ("When a
 * process has received the marker of every other process, it
 * checkpoints", pcl-vs-vcl-sc06, section 3): it is woken when the last
 * missing one is due, not once per marker. Elsewhere none (0: a rank not
 * at K takes them at K, or with its next other message). */
static int pcl_wake_after(const void *state) {
  const struct pcl_state *s = state;
  if (s->any_call || s->phase != PCL_MARKING)
    return 0;
  return s->ranks - 1 - s->n_markers;
}

/* The names of pcl's control kinds in traces (ft_protocol.h). */
const char *const ft_pcl_controls[FT_PCL_CONTROL_COUNT] = {
    [FT_PCL_CONTROL_WAVE_REQUEST] = "wave-request",
    [FT_PCL_CONTROL_POSITION] = "position",
    [FT_PCL_CONTROL_WAVE_AT] = "wave-at",
    [FT_PCL_CONTROL_MARKER] = "marker",
    [FT_PCL_CONTROL_CHECKPOINT_DONE] = "done",
};

const struct ft_protocol_ops ft_protocol_pcl = {
    .name = "pcl",
    .family = FT_FAMILY_COORDINATED,
    .summary = "blocking coordinated checkpoint (MPICH2-Pcl): markers flush "
               "every channel at a common safe point",
    .state_size = pcl_state_size,
    .init = pcl_init,
    .step = pcl_step,
    .controls = ft_pcl_controls,
    .n_controls = FT_PCL_CONTROL_COUNT,
    .wake_after = pcl_wake_after,
};
