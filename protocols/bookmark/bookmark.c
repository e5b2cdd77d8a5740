/* Protocol `bookmark`: coordinated checkpoints of drained channels, at safe
 * points or at any MPI call (see bookmark.h). Pure: no MPI, no clock, no
 * I/O, no allocation. */
#include "bookmark.h"

#include <string.h>

/* Where a rank stands in the current wave. */
enum bm_phase {
  BM_IDLE,       /* no wave in progress (rank 0: none since the commit) */
  BM_REQUESTED,  /* position reported, K not known: stop at position + 1
                    (rank 0: move the position there) */
  BM_KNOWN,      /* K known, safe point K not reached yet */
  BM_EXCHANGING, /* bookmarks being exchanged, then the drain */
  BM_STORING,    /* checkpoint taken, image on its way to the server */
  BM_STORED,     /* rank 0 only: own image stored, waiting for the others */
};

/* Per-peer facts of the current wave. */
enum bm_peer_bit {
  PEER_POSITION = 1u << 0, /* rank 0: its POSITION arrived */
  PEER_BOOKMARK = 1u << 1, /* its BOOKMARK of this wave arrived */
  PEER_DONE = 1u << 2,     /* rank 0: its DONE arrived */
};

/* One channel's bookmark, counted since the start or the last ROLLBACK
 * (section 4.2: "the number of bytes it has sent to and received from each
 * peer"; see bookmark.h for why the match is on messages), and the wave's
 * facts about the peer. */
struct bm_peer {
  int64_t sent;        /* messages this rank sent to the peer */
  int64_t received;    /* messages of the peer received (drained) */
  uint64_t sent_bytes; /* their bytes */
  uint64_t received_bytes;
  int64_t cut;    /* `sent` when the rank entered the wave: its bookmark */
  int64_t queued; /* any-call: messages arrived beyond the peer's bookmark */
  uint64_t queued_bytes;
  int64_t remote; /* the peer's "sent" bookmark of this wave, or -1 */
  unsigned bits;  /* enum bm_peer_bit */
};

struct bm_state {
  int rank, ranks;
  double period;   /* <= 0 (or NaN): never checkpoint */
  double deadline; /* rank 0: when the next wave is due; -1: none */
  int wave;        /* current wave, or the last one */
  int committed;   /* last committed wave (rank 0, or after ROLLBACK) */
  enum bm_phase phase;
  int64_t index;        /* safe points passed */
  int64_t hold_at;      /* REQUESTED: stop here until K is known */
  int64_t at;           /* K, or 0 when unknown */
  int64_t held;         /* safe point the application is held at, or 0 */
  int64_t max_position; /* rank 0: the highest position reported */
  int n_positions, n_done;
  int step; /* staggered exchange: see ft_bookmark_step() */
  size_t n_sends;
  int any_call;
  int in_call;  /* any-call: the application is in MPI call `call` */
  int64_t call; /* any-call: the last call entered, or resumed in */
  /* 2 * ranks control messages (a broadcast and the bookmarks a step may
   * send), then `ranks` struct bm_peer. */
  struct ft_control sends[];
};

static size_t sends_capacity(size_t ranks) { return 2 * ranks; }

static struct bm_peer *peers(struct bm_state *s) {
  return (struct bm_peer *)(s->sends + sends_capacity((size_t)s->ranks));
}

static const struct bm_peer *peers_const(const struct bm_state *s) {
  return (const struct bm_peer *)(s->sends + sends_capacity((size_t)s->ranks));
}

static size_t bm_state_size(const struct ft_core_config *config) {
  size_t ranks = config->ranks > 0 ? (size_t)config->ranks : 0;
  return sizeof(struct bm_state) +
         sends_capacity(ranks) * sizeof(struct ft_control) +
         ranks * sizeof(struct bm_peer);
}

/* Forgets the per-peer facts of the previous wave (not the counts). */
static void clear_wave(struct bm_state *s) {
  for (int p = 0; p < s->ranks; p++) {
    peers(s)[p].bits = 0;
    peers(s)[p].remote = -1;
    peers(s)[p].queued = 0;
    peers(s)[p].queued_bytes = 0;
  }
  s->n_positions = s->n_done = s->step = 0;
  s->max_position = 0;
  s->hold_at = s->at = s->held = 0;
}

/* Forgets the counts too: a ROLLBACK starts every channel empty. */
static void clear_counts(struct bm_state *s) {
  memset(peers(s), 0, (size_t)s->ranks * sizeof(struct bm_peer));
  clear_wave(s);
}

static int bm_init(void *state, const struct ft_core_config *config) {
  struct bm_state *s = state;
  if (config->ranks <= 0 || config->rank < 0 || config->rank >= config->ranks)
    return -1;
  s->rank = config->rank;
  s->ranks = config->ranks;
  s->period = config->period > 0 ? config->period : 0.0;
  s->deadline = -1.0;
  if (s->rank == 0 && s->period > 0)
    s->deadline = config->start + s->period;
  s->phase = BM_IDLE;
  s->any_call = config->any_call != 0;
  clear_counts(s);
  return 0;
}

static void push(struct bm_state *s, enum ft_bookmark_control kind, int to,
                 int64_t value) {
  s->sends[s->n_sends++] = (struct ft_control){
      .kind = kind, .from = s->rank, .to = to, .wave = s->wave, .value = value};
}

/* A rank never sends a control message to itself. */
static void broadcast(struct bm_state *s, enum ft_bookmark_control kind,
                      int64_t value) {
  for (int to = 0; to < s->ranks; to++)
    if (to != s->rank)
      push(s, kind, to, value);
}

static int peer_at(const struct bm_state *s, int offset) {
  return ((s->rank + offset) % s->ranks + s->ranks) % s->ranks;
}

/* ---- The staggered all-to-all (lam-mpi-blcr, Figure 2) ---------------- */

/* Step `step` sends this rank's "sent" bookmark to rank + step. */
static void send_bookmark(struct bm_state *s) {
  if (s->step < s->ranks) {
    int to = peer_at(s, s->step);
    push(s, FT_BOOKMARK_CONTROL_BOOKMARK, to, peers(s)[to].cut);
  }
}

/* From section 3.1: "Every process exchanges information about how much
 * data it has sent to and received from each peer, starting with the next
 * higher-ranked peer. This exchange then continues with other peers in
 * increasing order of ranks in a circular fashion until each has
 * exchanged this information with its immediate lower-ranked peer." Step
 * i ends when the bookmark of rank - i is in; bookmarks of later steps
 * that came early wait for their turn. */
static void advance(struct bm_state *s) {
  while (s->step < s->ranks &&
         (peers(s)[peer_at(s, -s->step)].bits & PEER_BOOKMARK)) {
    s->step++;
    send_bookmark(s);
  }
}

/* The rank enters the exchange: its bookmarks are the bytes sent so far. */
static void exchange(struct bm_state *s) {
  for (int p = 0; p < s->ranks; p++)
    peers(s)[p].cut = peers(s)[p].sent;
  s->phase = BM_EXCHANGING;
  s->step = 1;
  send_bookmark(s);
  advance(s);
}

/* From section 4.2: the processes "consume data from TCP sockets until
 * each 'received' bookmark matches its corresponding 'sent' bookmark.
 * ... When all the bookmarks match, the RPI has drained all the in-flight
 * data on the network". */
static int drained(const struct bm_state *s) {
  if (s->phase != BM_EXCHANGING || s->step < s->ranks)
    return 0;
  for (int p = 0; p < s->ranks; p++)
    if (p != s->rank && peers_const(s)[p].received < peers_const(s)[p].remote)
      return 0;
  return 1;
}

/* "the callback thread in each process indicates that the process is
 * ready to be checkpointed. The underlying checkpointer then writes the
 * process image to stable storage" (section 4.2). */
static void checkpoint(struct bm_state *s, struct ft_update *u) {
  u->flags |= FT_UPDATE_CHECKPOINT;
  u->wave = s->wave;
  s->phase = BM_STORING;
  s->step = 0;
  s->held = 0;
}

/* ---- Safe-point mode ------------------------------------------------ */

/* The rank is held at K (or stops there now): checkpoint once drained. */
static void sp_try_checkpoint(struct bm_state *s, struct ft_update *u) {
  if (s->held == 0 || !drained(s))
    return;
  checkpoint(s, u);
  u->flags |= FT_UPDATE_RELEASE;
}

/* K is known: a rank held below K goes on, a rank held at K exchanges. */
static void apply_at(struct bm_state *s, int64_t at, struct ft_update *u) {
  s->at = at;
  s->hold_at = 0;
  s->phase = BM_KNOWN;
  if (s->held == 0)
    return;
  if (s->held < at) {
    s->held = 0;
    u->flags |= FT_UPDATE_RELEASE;
    return;
  }
  exchange(s);
  sp_try_checkpoint(s, u);
}

static void place_wave(struct bm_state *s, struct ft_update *u) {
  int64_t at = s->max_position + 1;
  broadcast(s, FT_BOOKMARK_CONTROL_AT, at);
  apply_at(s, at, u);
}

static void record_position(struct bm_state *s, int rank, int64_t value,
                            struct ft_update *u) {
  peers(s)[rank].bits |= PEER_POSITION;
  if (s->n_positions == 0 || value > s->max_position)
    s->max_position = value;
  if (++s->n_positions == s->ranks)
    place_wave(s, u);
}

/* Section 3.1, steps 1-2: "mpirun: receives a checkpoint request ...
 * propagates the checkpoint request to each MPI process"; rank 0 plays
 * mpirun. */
static void start_wave(struct bm_state *s, struct ft_update *u) {
  s->wave++;
  clear_wave(s);
  s->deadline = -1.0;
  s->phase = BM_REQUESTED;
  s->hold_at = s->index + 1;
  broadcast(s, FT_BOOKMARK_CONTROL_REQUEST, 0);
  record_position(s, 0, s->index, u);
}

static int on_timer(struct bm_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  if (s->rank == 0 && s->phase == BM_IDLE && s->deadline >= 0 &&
      e->time >= s->deadline)
    start_wave(s, u);
  return 0; /* early or spurious timers are ignored */
}

/* Rank 0 at its hold point before every position is in: it moves its own
 * position here instead of stopping, so that K = max + 1 stays ahead of
 * it, as pcl's initiator does (pcl.c, advance_own_position; issue 19).
 * Rank 0 plays mpirun, which only "propagates the checkpoint request to
 * each MPI process" (lam-mpi-blcr, section 3.1, step 2) and computes
 * nothing: the request must not stop rank 0's application before the
 * others'. Held here, rank 0 waited for the slowest answer, a whole
 * computation phase of a rank that had passed this safe point before the
 * request reached it (bt, 4 ranks on myrinet, period 0.528 s: held 21.7
 * ms at safe point 6). Rank 0 computes the maximum itself, so it can
 * raise its own position without a message; the others cannot (rank 0 may
 * have placed K already), and keep their hold. */
static void advance_own_position(struct bm_state *s) {
  if (s->index > s->max_position)
    s->max_position = s->index;
  s->hold_at = s->index + 1;
}

/* At K the rank is held for the exchange and the drain (it checkpoints at
 * once when alone); at position + 1, before K is known, a rank but 0 waits
 * for AT (rank 0 moves its position: advance_own_position). */
static int on_safe_point(struct bm_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (s->held != 0 || e->index != s->index + 1)
    return -1; /* safe points come one by one, never while held */
  s->index = e->index;
  unsigned flag = FT_UPDATE_PASS;
  if (s->phase == BM_KNOWN && s->index == s->at) {
    exchange(s);
    if (drained(s))
      checkpoint(s, u);
    else
      flag = FT_UPDATE_HOLD;
  } else if (s->phase == BM_REQUESTED && s->index == s->hold_at &&
             s->rank == 0) {
    advance_own_position(s);
  } else if (s->phase == BM_REQUESTED && s->index == s->hold_at) {
    flag = FT_UPDATE_HOLD;
  }
  if (flag == FT_UPDATE_HOLD)
    s->held = s->index;
  u->flags |= flag;
  return 0;
}

static int on_request(struct bm_state *s, const struct ft_control *c) {
  if (s->rank == 0 || c->from != 0 || s->phase != BM_IDLE ||
      c->wave != s->wave + 1)
    return -1;
  s->wave = c->wave;
  clear_wave(s);
  s->phase = BM_REQUESTED;
  s->hold_at = s->index + 1;
  push(s, FT_BOOKMARK_CONTROL_POSITION, 0, s->index);
  return 0;
}

static int on_position(struct bm_state *s, const struct ft_control *c,
                       struct ft_update *u) {
  if (s->rank != 0 || c->wave != s->wave || s->phase != BM_REQUESTED ||
      (peers(s)[c->from].bits & PEER_POSITION) || c->value < 0)
    return -1;
  record_position(s, c->from, c->value, u);
  return 0;
}

static int on_at(struct bm_state *s, const struct ft_control *c,
                 struct ft_update *u) {
  if (c->from != 0 || c->wave != s->wave || s->phase != BM_REQUESTED ||
      c->value < s->hold_at)
    return -1;
  apply_at(s, c->value, u);
  return 0;
}

/* Notes the peer's "sent" bookmark (section 4.2: "If the 'sent' bookmark
 * received from a peer does not match the 'received' bookmark that the
 * process has for that peer, then there must be some messages on the
 * network that have not yet been received"). A bookmark of another wave,
 * a second one, or one below what already arrived (a message sent after
 * the peer's cut was received before it) is an error. */
static int note_bookmark(struct bm_state *s, const struct ft_control *c) {
  struct bm_peer *p = &peers(s)[c->from];
  if (c->wave != s->wave || (p->bits & PEER_BOOKMARK) || c->value < 0 ||
      c->value < p->received)
    return -1;
  p->bits |= PEER_BOOKMARK;
  p->remote = c->value;
  if (s->phase == BM_EXCHANGING)
    advance(s);
  return 0;
}

static int on_bookmark(struct bm_state *s, const struct ft_control *c,
                       struct ft_update *u) {
  if (s->phase != BM_REQUESTED && s->phase != BM_KNOWN &&
      s->phase != BM_EXCHANGING)
    return -1;
  if (note_bookmark(s, c) != 0)
    return -1;
  sp_try_checkpoint(s, u);
  return 0;
}

/* Rank 0 commits once every image is stored, as pcl's (section 3.1,
 * step 3: "mpirun: indicates that it is ready to be checkpointed" comes
 * after every process is); the next wave is due a period later. */
static void count_done(struct bm_state *s, int rank, double time,
                       struct ft_update *u) {
  peers(s)[rank].bits |= PEER_DONE;
  if (++s->n_done < s->ranks)
    return;
  u->flags |= FT_UPDATE_COMMIT;
  u->wave = s->wave;
  s->committed = s->wave;
  s->phase = BM_IDLE;
  s->at = 0;
  s->deadline = time + s->period;
}

static int on_done(struct bm_state *s, const struct ft_event *e,
                   struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (s->rank != 0 || c->wave != s->wave || s->phase == BM_IDLE ||
      (peers(s)[c->from].bits & PEER_DONE))
    return -1;
  count_done(s, c->from, e->time, u);
  return 0;
}

static int valid_control(const struct bm_state *s, const struct ft_control *c) {
  return c->to == s->rank && c->from >= 0 && c->from < s->ranks &&
         c->from != s->rank;
}

static int on_control(struct bm_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (!valid_control(s, c))
    return -1;
  switch ((enum ft_bookmark_control)c->kind) {
  case FT_BOOKMARK_CONTROL_REQUEST:
    return on_request(s, c);
  case FT_BOOKMARK_CONTROL_POSITION:
    return on_position(s, c, u);
  case FT_BOOKMARK_CONTROL_AT:
    return on_at(s, c, u);
  case FT_BOOKMARK_CONTROL_BOOKMARK:
    return on_bookmark(s, c, u);
  case FT_BOOKMARK_CONTROL_DONE:
    return on_done(s, e, u);
  case FT_BOOKMARK_CONTROL_COUNT:
    break;
  }
  return -1;
}

/* Section 3.1, step 7: "each MPI process: continues execution after the
 * checkpoint is taken"; then DONE to rank 0. */
static int on_image_stored(struct bm_state *s, const struct ft_event *e,
                           struct ft_update *u) {
  if (s->phase != BM_STORING || e->wave != s->wave)
    return -1;
  if (s->rank == 0) {
    s->phase = BM_STORED;
    count_done(s, 0, e->time, u);
    return 0;
  }
  push(s, FT_BOOKMARK_CONTROL_DONE, 0, 0);
  s->phase = BM_IDLE;
  s->at = 0;
  return 0;
}

static int count_message(struct bm_state *s, const struct ft_event *e,
                         int sent) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct bm_peer *p = &peers(s)[e->peer];
  if (sent) {
    p->sent++;
    p->sent_bytes += e->bytes;
  } else {
    p->received++;
    p->received_bytes += e->bytes;
  }
  return 0;
}

/* A DELIVERED while held at K drains a channel (never under the contract
 * of sim/ft.h, which keeps messages from crossing safe points). */
static int on_delivered(struct bm_state *s, const struct ft_event *e,
                        struct ft_update *u) {
  if (count_message(s, e, 0) != 0)
    return -1;
  u->flags |= FT_UPDATE_PASS;
  sp_try_checkpoint(s, u);
  return 0;
}

/* Section 5, restart step 5: every process "re-builds its communication
 * channels with the other processes and sets them to 'empty'": the counts
 * restart from zero, every wave in progress is forgotten. */
static int on_rollback(struct bm_state *s, const struct ft_event *e) {
  if (e->wave < 0 || e->index < 0)
    return -1;
  clear_counts(s);
  s->phase = BM_IDLE;
  s->index = e->index;
  s->wave = s->committed = e->wave;
  s->deadline = -1.0;
  if (s->rank == 0 && s->period > 0)
    s->deadline = e->time + s->period;
  return 0;
}

static int dispatch(struct bm_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    u->flags = FT_UPDATE_PASS;
    return count_message(s, e, 1);
  case FT_EVENT_APP_RECV:
    u->flags = FT_UPDATE_PASS;
    return 0;
  case FT_EVENT_DELIVERED:
    return on_delivered(s, e, u);
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

/* ---- Any-call mode -------------------------------------------------- *
 *
 * No application contract: the bookmarks count what really crossed the
 * cut, and the drain receives it. ARRIVED is the reception off the wire:
 * the any-call transport keeps an arrived message until the application
 * receives it and saves it in the image if the checkpoint comes first
 * (LAM's "unexpected message buffers": "if a process had posted an MPI
 * receive before checkpoint and the message arrives after the quiesce
 * process begins, it will be received into the actual destination buffer
 * when the RPI drains the network", section 4.2). */

/* "When all the bookmarks match ... the process is ready to be
 * checkpointed", provided it is in an MPI call (the image is its position
 * and pending requests). The bytes queued beyond the bookmarks become
 * receivable with the FLUSH: they count from now on. */
static void ac_try_checkpoint(struct bm_state *s, struct ft_update *u) {
  if (!s->in_call || !drained(s))
    return;
  for (int p = 0; p < s->ranks; p++) {
    peers(s)[p].received += peers(s)[p].queued;
    peers(s)[p].received_bytes += peers(s)[p].queued_bytes;
  }
  checkpoint(s, u);
  u->flags |= FT_UPDATE_FLUSH;
}

/* "At this time, MPI send requests are prevented from making progress so
 * that no more messages are sent on the wire" (section 4.2): from here to
 * the checkpoint every send to another rank is DEFERred. */
static void ac_enter(struct bm_state *s, int wave) {
  s->wave = wave;
  clear_wave(s);
  exchange(s);
}

static int ac_on_timer(struct bm_state *s, const struct ft_event *e,
                       struct ft_update *u) {
  if (s->rank == 0 && s->phase == BM_IDLE && s->deadline >= 0 &&
      e->time >= s->deadline) {
    s->deadline = -1.0;
    s->wave++;
    broadcast(s, FT_BOOKMARK_CONTROL_REQUEST, 0);
    ac_enter(s, s->wave);
    ac_try_checkpoint(s, u);
  }
  return 0; /* early or spurious timers are ignored */
}

/* The first REQUEST or BOOKMARK of the next wave makes an idle rank enter
 * it; a REQUEST of the wave it is already in is old news. */
static int ac_on_control(struct bm_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (!valid_control(s, c))
    return -1;
  int next = s->phase == BM_IDLE && c->wave == s->wave + 1;
  switch ((enum ft_bookmark_control)c->kind) {
  case FT_BOOKMARK_CONTROL_REQUEST:
    if (c->from != 0 || (!next && c->wave != s->wave))
      return -1;
    if (next)
      ac_enter(s, c->wave);
    break;
  case FT_BOOKMARK_CONTROL_BOOKMARK:
    if (next)
      ac_enter(s, c->wave);
    if (s->phase != BM_EXCHANGING || note_bookmark(s, c) != 0)
      return -1;
    break;
  case FT_BOOKMARK_CONTROL_DONE:
    return on_done(s, e, u);
  default: /* no POSITION or AT in this mode */
    return -1;
  }
  ac_try_checkpoint(s, u);
  return 0;
}

static int ac_on_send(struct bm_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  if (count_message(s, e, 1) != 0)
    return -1;
  u->flags |= s->phase == BM_EXCHANGING && e->peer != s->rank ? FT_UPDATE_DEFER
                                                              : FT_UPDATE_PASS;
  return 0;
}

/* ARRIVED: drained off the wire up to the peer's bookmark; beyond it (sent
 * after the peer's checkpoint) the message waits in the delayed receive
 * queue until this rank's checkpoint, and is not part of its image. */
static int ac_on_arrived(struct bm_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  if (e->peer < 0 || e->peer >= s->ranks)
    return -1;
  struct bm_peer *p = &peers(s)[e->peer];
  if (s->phase == BM_EXCHANGING && (p->bits & PEER_BOOKMARK) &&
      p->received >= p->remote) {
    p->queued++;
    p->queued_bytes += e->bytes;
    u->flags |= FT_UPDATE_QUEUE;
    return 0;
  }
  if (count_message(s, e, 0) != 0)
    return -1;
  u->flags |= FT_UPDATE_PASS;
  ac_try_checkpoint(s, u);
  return 0;
}

/* Calls come one by one: CALL k + 1 after CALL_END k. */
static int ac_on_call(struct bm_state *s, const struct ft_event *e,
                      struct ft_update *u) {
  if (s->in_call || e->index != s->call + 1)
    return -1;
  s->in_call = 1;
  s->call = e->index;
  u->flags |= FT_UPDATE_PASS;
  ac_try_checkpoint(s, u);
  return 0;
}

static int ac_on_call_end(struct bm_state *s, const struct ft_event *e,
                          struct ft_update *u) {
  if (!s->in_call || e->index != s->call)
    return -1;
  s->in_call = 0;
  u->flags |= FT_UPDATE_PASS;
  return 0;
}

/* The rank resumes in the call its checkpoint was taken in (none: from the
 * beginning), with every channel empty. */
static int ac_on_rollback(struct bm_state *s, const struct ft_event *e) {
  if (on_rollback(s, e) != 0)
    return -1;
  s->index = 0;
  s->call = e->index;
  s->in_call = e->index > 0;
  return 0;
}

static int ac_dispatch(struct bm_state *s, const struct ft_event *e,
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

static int bm_step(void *state, const struct ft_event *event,
                   struct ft_update *update) {
  struct bm_state *s = state;
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

int ft_bookmark_wave(const void *state) {
  return ((const struct bm_state *)state)->wave;
}

int ft_bookmark_step(const void *state) {
  return ((const struct bm_state *)state)->step;
}

int64_t ft_bookmark_received(const void *state, int peer) {
  const struct bm_state *s = state;
  if (peer < 0 || peer >= s->ranks)
    return 0;
  return peers_const(s)[peer].received;
}

uint64_t ft_bookmark_received_bytes(const void *state, int peer) {
  const struct bm_state *s = state;
  if (peer < 0 || peer >= s->ranks)
    return 0;
  return peers_const(s)[peer].received_bytes;
}

int64_t ft_bookmark_remote(const void *state, int peer) {
  const struct bm_state *s = state;
  if (peer < 0 || peer >= s->ranks)
    return -1;
  return peers_const(s)[peer].remote;
}

int ft_bookmark_draining(const void *state) {
  const struct bm_state *s = state;
  return s->phase == BM_EXCHANGING && s->step == s->ranks && !drained(s);
}

int ft_bookmark_frozen(const void *state) {
  const struct bm_state *s = state;
  return s->any_call && s->phase == BM_EXCHANGING;
}

/* The names of the drain family's control kinds in traces. */
const char *const ft_bookmark_controls[FT_BOOKMARK_CONTROL_COUNT] = {
    [FT_BOOKMARK_CONTROL_REQUEST] = "request",
    [FT_BOOKMARK_CONTROL_POSITION] = "position",
    [FT_BOOKMARK_CONTROL_AT] = "at",
    [FT_BOOKMARK_CONTROL_BOOKMARK] = "bookmark",
    [FT_BOOKMARK_CONTROL_DONE] = "done",
};

const struct ft_protocol_ops ft_protocol_bookmark = {
    .name = "bookmark",
    .family = FT_FAMILY_DRAIN,
    .summary =
        "coordinated checkpoint (LAM/MPI): staggered all-to-all of "
        "sent-message bookmarks, drain the channels, checkpoint them empty",
    .state_size = bm_state_size,
    .init = bm_init,
    .step = bm_step,
    .controls = ft_bookmark_controls,
    .n_controls = FT_BOOKMARK_CONTROL_COUNT,
};
