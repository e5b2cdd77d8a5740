/* A deterministic in-memory cluster of protocol cores, for unit tests (after
 * cowsql/raft's test/lib/cluster.c): no MPI, no SimGrid, a fake clock.
 *
 * Each rank runs a simulated application that reaches its next safe point
 * `iteration` seconds after the previous one (the first at offset +
 * iteration), stays at a safe point the core HOLDs until a RELEASE, and
 * computes on while its image is stored. Control messages arrive `latency`
 * seconds (plus a seeded jitter) after they are sent, CHECKPOINT leads to
 * IMAGE_STORED `store_delay` seconds later, timers fire at the deadline.
 *
 * The cluster always advances the earliest pending thing; ties go to
 * control deliveries and stored images (in the order they were scheduled),
 * then timers, then safe points, each by rank. It checks what every core
 * asks for (sends to itself or outside the world, CHECKPOINT without every
 * marker, RELEASE of a running rank, HOLD outside a safe point, commits out
 * of order) and writes a narrative trace, one line per event and one
 * indented line per action:
 *
 *   [  1.010] 1 < marker from 2: channel 2->1 delayed
 *   [  1.020] 1 safe point 5
 *               > markers to 0, 2
 *               checkpoint wave 1 at safe point 5
 *
 * Protocols with a checkpoint scheduler (ft_protocol_has_scheduler: vcl) get
 * one more core, slot `ranks`, named S in the trace: it owns the deadline,
 * receives CHECKPOINT_DONE and COMMITs. Their control messages never
 * overtake one another on a channel (MPI's non-overtaking rule on the
 * runtime's communicator); `fifo` says so, on by default for them only.
 *
 * Application messages (off unless asked for) come in two kinds:
 *  - scripted (cluster_script_message): sent at a given time, delivered on
 *    arrival, whatever the receiver is doing;
 *  - random (app_msgs > 0): the application of cluster_new, now with
 *    iterations. Iteration k of a rank runs from its safe point k to its
 *    safe point k + 1 (iteration 0 from the start or a rollback's safe
 *    point); at its start the rank plans 0..app_msgs messages to every
 *    out-neighbour (app_edge), sent at random instants within the
 *    iteration. A message of iteration k is delivered to a receiver that
 *    runs iteration k (it may not pass safe point k + 1 before it has them
 *    all, nor before its in-neighbours have started iteration k), except a
 *    "forward" one (probability app_forward, last on its channel in the
 *    iteration), delivered in any iteration after k and awaited by nobody.
 *    That is the application's contract: a message sent after the sender's
 *    safe point k is never needed before the receiver's safe point k.
 * Each channel delivers in send order. Messages are numbered per channel
 * from the start or the last rollback, as the cores count them.
 *
 * With a scheduler the cluster also checks, at every commit, what the
 * cores captured and stored against its own bookkeeping: no message sent
 * after the sender's checkpoint was delivered before the receiver's (no
 * orphan), every message sent before the sender's checkpoint was delivered
 * by the commit, and each STORE keeps exactly the messages sent before the
 * sender's checkpoint and delivered after the receiver's, each of which
 * was RECORDed with its number. CAPTURE must name the safe point the rank
 * is at (in a SAFE_POINT step or held) or the one it RETAINed.
 *
 * Exact mode (app_seed != 0, for the seeded simulation, seeded.h) adds:
 *  - a deterministic application: what rank r sends to `to` in iteration k
 *    depends only on (app_seed, r, to, k), so a re-execution after a
 *    rollback sends the same messages as the failure-free run. Each message
 *    carries its identity, its rank on its channel in the failure-free run
 *    (app_id); the application state of a rank is how many messages it sent
 *    on and delivered from each channel, saved with its checkpoint (at the
 *    captured or retained safe point) and restored by a rollback, as the
 *    runtime restores the protected buffers;
 *  - exactly-once delivery: every delivery must be the next message of its
 *    channel in the failure-free run (a gap is a lost message, a step back a
 *    duplicate), the replayed channel state included;
 *  - each STORE checked when it happens: every peer has checkpointed the
 *    wave, every message sent before its cut is delivered, and the ranges
 *    keep exactly those delivered after this rank's; their identities go to
 *    the image and are what the senders replay;
 *  - at every commit, the cut checks above for every protocol (with no
 *    STORE, nothing may be in transit across the cut).
 * cluster_check_cuts checks for orphans between steps.
 *
 * With `shuffle`, things due at the same instant happen in a random order
 * (drawn from `rng`) instead of the fixed tie-break, except that control
 * messages of one channel (with `fifo`) and application sends of one
 * channel keep their order.
 */
#ifndef FT_CORE_CLUSTER_H
#define FT_CORE_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "ft_protocol.h"

#define CLUSTER_MAX_RANKS 16
#define CLUSTER_MAX_WAVES 64
#define CLUSTER_MAX_PENDING 4096
#define CLUSTER_TRACE_SIZE 65536
#define CLUSTER_SLOTS (CLUSTER_MAX_RANKS + 1) /* the ranks, the scheduler */
#define CLUSTER_MAX_MSGS 4096  /* application messages alive at once */
#define CLUSTER_MAX_QUEUED 128 /* undelivered messages on one channel */
#define CLUSTER_MAX_PLANNED 8  /* random messages per channel per iteration */
#define CLUSTER_IMAGES 4       /* checkpoint images kept per rank (exact) */
#define CLUSTER_MAX_KEPT 128   /* channel-state messages in one image */
#define CLUSTER_MAX_TIED 256   /* things due at one instant (shuffle) */

enum cluster_item_kind {
  CLUSTER_CONTROL,    /* `control` arrives */
  CLUSTER_STORED,     /* IMAGE_STORED of `wave` for `rank` */
  CLUSTER_APP_SEND,   /* the application sends message `msg` */
  CLUSTER_APP_ARRIVE, /* message `msg` reaches its receiver */
};

/* Something scheduled: a control message in flight, an image being
 * stored, an application message to send or in flight. */
struct cluster_item {
  double time;
  uint64_t seq; /* scheduling order, the tie-break */
  enum cluster_item_kind kind;
  int rank, wave;
  int msg; /* slot in cluster.msgs */
  struct ft_control control;
};

enum cluster_msg_state {
  CLUSTER_MSG_PLANNED,
  CLUSTER_MSG_IN_FLIGHT,
  CLUSTER_MSG_ARRIVED,
  CLUSTER_MSG_DELIVERED,
};

/* One application message, alive until the commit that makes it
 * irrelevant or the next rollback. */
struct cluster_msg {
  int in_use;
  int from, to;
  int64_t number;    /* on its channel, from 1 */
  int64_t iteration; /* of the sender when it sends */
  int64_t threshold; /* deliverable in this iteration or later; -1: any */
  int forward;       /* awaited by nobody */
  double latency;    /* scripted: its own; < 0: the channel's */
  enum cluster_msg_state state;
  int64_t delivered_in; /* the receiver's iteration at the delivery */
  int recorded;         /* a RECORD named it */
  int64_t app_id;       /* exact: its rank on its channel, failure-free */
};

/* Exact mode: what the application of one rank has done, per channel. */
struct cluster_app_state {
  int64_t out[CLUSTER_MAX_RANKS]; /* messages sent to each rank */
  int64_t in[CLUSTER_MAX_RANKS];  /* messages delivered from each rank */
};

/* Exact mode: one checkpoint image as the runtime would store it. */
struct cluster_image {
  int wave; /* 0: an empty slot */
  struct cluster_app_state app;
  int n_kept; /* the channel state, in replay order */
  struct {
    int peer;
    int64_t app_id;
  } kept[CLUSTER_MAX_KEPT];
};

struct cluster_rank {
  void *state;
  double iteration, offset, store_delay;
  int64_t index; /* safe points passed */
  double next;   /* time of the next safe point, when not held */
  int held;      /* held at safe point `index` */
  double deadline;
  int marked_wave;  /* last wave whose markers this rank sent */
  int markers_wave; /* wave of the markers counted in markers_in */
  int markers_in;
  /* The drain family's narrative: messages delivered from each rank since
   * the start or the last rollback. */
  int64_t received[CLUSTER_MAX_RANKS];
  int64_t checkpoint_at[CLUSTER_MAX_WAVES + 1]; /* per wave, 0: none */
  int checkpoints;
  /* Non-blocking protocols (vcl). */
  int64_t retained;  /* safe point of the RETAINed copy, 0: none */
  int captured_wave; /* last wave CAPTUREd */
  int stored_wave;   /* last wave STOREd */
  size_t n_keep;     /* the last STORE's ranges */
  struct ft_record_range keep[CLUSTER_MAX_RANKS];
  size_t n_committed_keep; /* ... of the last committed wave */
  struct ft_record_range committed_keep[CLUSTER_MAX_RANKS];
  /* Exact mode. */
  struct cluster_app_state app, app_retained;
  struct cluster_image image[CLUSTER_IMAGES]; /* slot: wave % CLUSTER_IMAGES */
};

struct cluster {
  const struct ft_protocol_ops *ops;
  int ranks;
  double period, start, time;
  double latency[CLUSTER_SLOTS][CLUSTER_SLOTS];
  double jitter; /* each message adds [0, jitter) from `rng` */
  uint64_t rng;
  int fifo;    /* control messages never overtake on a channel */
  int shuffle; /* random order among things due at the same instant */
  double last_arrival[CLUSTER_SLOTS][CLUSTER_SLOTS];
  struct cluster_rank rank[CLUSTER_SLOTS]; /* [ranks]: the scheduler */
  /* Application messages. */
  int app_msgs;       /* random: at most this many per channel and
                         iteration (<= CLUSTER_MAX_PLANNED); 0: none */
  double app_forward; /* probability that a random message is forward */
  int replay;         /* rollback: senders re-send the committed channel state
                         (APP_SEND, then DELIVERED first on its channel), as the
                         runtime does; 0: counted on neither side */
  uint64_t app_seed;  /* non-zero: exact mode (see above) */
  unsigned char app_edge[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  struct cluster_msg msgs[CLUSTER_MAX_MSGS];
  int msgs_hi;      /* every message in use is below this slot */
  int cuts_changed; /* a delivery, checkpoint or commit since the last
                       cluster_check_cuts */
  int64_t sent_no[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  int64_t recv_no[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  int queue[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS][CLUSTER_MAX_QUEUED];
  int queue_head[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  int queue_len[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  /* What the commits of non-blocking protocols checked, for tests. */
  int64_t app_sent, app_delivered, kept, captures_retained, holds, replayed;
  struct cluster_item pending[CLUSTER_MAX_PENDING];
  size_t n_pending;
  uint64_t seq, steps;
  uint64_t same_instant; /* steps in a row at the same time */
  int committed;         /* last wave committed */
  double requested_at[CLUSTER_MAX_WAVES + 1]; /* rank 0 sent the request,
                                                 or S its markers */
  double committed_at[CLUSTER_MAX_WAVES + 1];
  char error[256]; /* first error, "" while none */
  int trace_on;
  int trace_tail;      /* when full, drop the oldest half (keep the tail) */
  uint64_t trace_hash; /* FNV-1a of everything traced, dropped text too */
  size_t trace_len;
  char trace[CLUSTER_TRACE_SIZE];
};

/* splitmix64: the tests' only source of randomness (never rand()). */
static inline uint64_t cluster_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Returns a double in [lo, hi) drawn from `x`. */
double cluster_uniform(uint64_t *x, double lo, double hi);

/* Returns a zeroed cluster of `ranks` (1..CLUSTER_MAX_RANKS) cores of `ops`
 * with period `period`, start 0, latency 0.001 s on every channel, no
 * jitter, iteration 0.25 s, offset 0, store delay 0.1 s, trace on. Change
 * the fields (or use the setters) before cluster_start. Returns NULL when
 * `ranks` is out of range or memory is short. */
struct cluster *cluster_new(const struct ft_protocol_ops *ops, int ranks,
                            double period);

/* Frees the cluster and its cores. NULL is fine. */
void cluster_free(struct cluster *c);

/* Sets the latency of the channel from -> to. */
void cluster_set_latency(struct cluster *c, int from, int to, double seconds);

/* Sets the application of `rank`: safe point k at offset + k * iteration
 * while it is never held. */
void cluster_set_app(struct cluster *c, int rank, double iteration,
                     double offset);

/* Lets `from` send application messages to `to` (app_edge). */
void cluster_set_edge(struct cluster *c, int from, int to, int on);

/* Schedules an application message from -> to, sent at `time` (the sender
 * must be running then) and delivered `latency` seconds later whatever the
 * receiver is doing. Script the messages of one channel in the order they
 * are sent. Returns 0, or -1 (with c->error set) when full. */
int cluster_script_message(struct cluster *c, int from, int to, double time,
                           double latency);

/* The size in bytes of application message `m` (APP_SEND and DELIVERED
 * carry it): 8 to 64, a function of its number on its channel, so that a
 * re-execution sends the same bytes. */
uint64_t cluster_msg_bytes(const struct cluster_msg *m);

/* Allocates and initialises every core at time c->start. Returns 0, or -1
 * (with c->error set) when a core rejects its configuration. */
int cluster_start(struct cluster *c);

/* Advances the earliest pending thing. Returns 1 when something happened, 0
 * when nothing is pending (every rank held, nothing in flight: a deadlock),
 * -1 on an error (c->error says which). */
int cluster_step(struct cluster *c);

/* Steps while the earliest pending thing is at or before `time`, then sets
 * the clock to `time`. Returns 0, or -1 on an error or a deadlock. */
int cluster_run_until(struct cluster *c, double time);

/* Steps until wave `wave` is committed. Returns 0, or -1 on an error, a
 * deadlock, or when the clock would pass `limit`. */
int cluster_run_until_commit(struct cluster *c, int wave, double limit);

/* Fails every rank now: drops everything in flight (the stale incarnation)
 * and rolls every core (the scheduler too) back to the last committed
 * wave, at the safe point where that wave was taken (0 when none). The
 * message numbers restart; with `replay`, the committed channel state is
 * sent again at once and delivered first on its channels (both cores count
 * it), else it is counted on neither side. Returns 0, or -1 on an error. */
int cluster_rollback(struct cluster *c);

/* Exact mode, between steps: no message delivered before its receiver's
 * checkpoint of a wave was sent after its sender's (an orphan), for every
 * wave from the last committed on whose two checkpoints are known.
 * Returns 0, or -1 with c->error set. */
int cluster_check_cuts(struct cluster *c);

/* Adds one line "[time] text" to the trace (printf format). */
void cluster_note(struct cluster *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The trace since the start (or the last cluster_trace_clear); with
 * trace_tail, its last part. */
const char *cluster_trace(const struct cluster *c);
void cluster_trace_clear(struct cluster *c);

#endif /* FT_CORE_CLUSTER_H */
