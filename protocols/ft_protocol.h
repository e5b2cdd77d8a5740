/* Protocol cores: the interface every fault-tolerance protocol implements.
 *
 * A core is a pure state machine (see DESIGN.md): it never calls MPI or
 * SimGrid, never reads a clock, never touches the file system, never
 * allocates, and owns no global or static mutable state, because SMPI runs
 * every rank in one process. The runtime (sim/) allocates its state, feeds it
 * events stamped with the current time, and carries out the update it
 * returns.
 *
 * Model: cowsql/raft's raft_step(r, &event, &update). Protocols are selected
 * by name from a static registry (Open MPI's vprotocol idea, without dynamic
 * loading).
 *
 * Two modes (struct ft_core_config.any_call; docs/protocols.md, "Any-call
 * mode"). Safe-point mode (the default, any_call 0): checkpoints are taken
 * at the application's safe points (ft_snapshot, see sim/ft.h): the k-th
 * safe point a rank reaches has index k (1-based), and a coordinated
 * protocol makes every rank checkpoint at the same index. Any-call mode
 * (any_call 1, a replay where a rank's state is its position in the trace
 * and its pending requests): every MPI call is a potential checkpoint
 * location (FT_EVENT_CALL), the runtime reports each application message
 * as it arrives (FT_EVENT_ARRIVED), and the core may hold sends (DEFER) and
 * arrivals (QUEUE) as the papers' protocols do, with no application
 * contract (pcl, vcl). The message-logging cores (pessimist, v2) checkpoint
 * each rank alone: in any-call mode the runtime makes every MPI call a
 * SAFE_POINT (no CALL, no ARRIVED) and an image holds the requests
 * pending there (pessimist/pessimist.h). So does c3's, whose every rank
 * rolls back (c3/c3.h: its core is the same in both modes). A core that
 * does not support a mode refuses it at init. */
#ifndef FT_PROTOCOL_H
#define FT_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Control messages between the cores of the application ranks (and, under
 * vcl, the checkpoint scheduler; under message logging, from the event
 * logger). Each family owns its kinds: `kind` is a value of the enum its
 * core header declares (enum ft_pcl_control in pcl/pcl.h, enum
 * ft_vcl_control in vcl/vcl.h, enum ft_ml_control in pessimist/pessimist.h),
 * numbered from 1, below FT_CONTROL_KIND_LIMIT, and spelt in traces by the
 * names in the protocols' ops.controls (ft_control_name). No core lists
 * another family's kinds; the runtime never reads one except through the
 * family (enum ft_family) that owns it.
 *
 * How the runtime carries them, whatever the kind: on its own
 * communicator, stamped with the sender's incarnation; a message of an
 * earlier incarnation is dropped, one that arrives while the rank recovers
 * waits for its resumption. Under vcl, control messages from or to the
 * checkpoint scheduler carry the rank number `ranks` (one past the
 * application's last rank). */
enum { FT_CONTROL_KIND_LIMIT = 100 }; /* the runtime's own kinds start here */

struct ft_control {
  int kind;     /* the family's enum, 1 .. FT_CONTROL_KIND_LIMIT - 1 */
  int from, to; /* ranks of the application world */
  int wave;     /* wave number, 1-based */
  int64_t value;
  /* Set by a core on a message its receiver acts on only where it waits
   * for control messages alone (held at a safe point), never while the
   * application runs or waits in MPI: the runtime need not wake a receiver
   * out of an MPI call for it, and hands it to the core, in its order,
   * with the next control message it takes. Not carried: 0 on arrival. */
  int quiet;
};

/* What happened, as seen by one rank's runtime. */
enum ft_event_type {
  FT_EVENT_APP_SEND,     /* the application posts a send (blocking or not) */
  FT_EVENT_APP_RECV,     /* the application posts a receive */
  FT_EVENT_DELIVERED,    /* a receive completed and the payload is delivered */
  FT_EVENT_TIMER,        /* the deadline the core asked for has passed */
  FT_EVENT_SAFE_POINT,   /* the application reached safe point `index` */
  FT_EVENT_CONTROL,      /* a control message arrived: `control` */
  FT_EVENT_IMAGE_STORED, /* the checkpoint server stored my image of `wave` */
  FT_EVENT_ROLLBACK,     /* the run restarts from committed wave `wave` (0:
                            from the beginning) at safe point `index`; the
                            core forgets every wave in progress. Message
                            logging: this rank alone restored its
                            checkpoint `wave`, whose clock was `id` */
  /* Message logging (ft_protocol_restarts_alone). */
  FT_EVENT_PROBED,         /* MPI_Iprobe (or a wildcard MPI_Probe) returned:
                              index = 1 when it found a message (peer, tag,
                              bytes), 0 when not */
  FT_EVENT_COMPLETION,     /* a non-deterministic completion call (waitany,
                              waitsome, test, testany, testsome, testall)
                              returned: ids[0..n_ids) = the ids of the requests
                              it completed (none: n_ids 0) */
  FT_EVENT_RESTART,        /* this rank failed and runs main() again from the
                              top; the event logger holds `index` of its
                              events, the last one with id `id`, and gave
                              them back: logged[0..n_logged) */
  FT_EVENT_APP_PROBE,      /* the application calls a probe whose outcome is
                              non-deterministic (MPI_Iprobe, a wildcard
                              MPI_Probe), before it is carried out; takes no
                              id (the PROBED that follows does) */
  FT_EVENT_APP_COMPLETION, /* the application calls a non-deterministic
                              completion call, before it is carried out;
                              takes no id (the COMPLETION that follows
                              does) */
  /* Any-call mode (ft_core_config.any_call) only; a core in safe-point
   * mode rejects them (step returns -1). */
  FT_EVENT_CALL,     /* the application enters MPI call `index` (1-based,
                        counted over the whole run; after a ROLLBACK the
                        count goes on from the checkpoint's), before the
                        call is carried out (before its APP_SEND or
                        APP_RECV): a checkpoint location. The rank is "in
                        a call" until CALL_END */
  FT_EVENT_CALL_END, /* MPI call `index` returns to the application, which
                        computes until its next CALL: no checkpoint can be
                        taken there */
  FT_EVENT_ARRIVED,  /* an application message of `peer` (tag, bytes)
                        arrived at this rank, before the application
                        receives it: the next message of channel peer ->
                        rank, fed in the order the peer sent them (the
                        core numbers them: 1, 2, ... since the last
                        ROLLBACK or the start). A message restored with
                        an image or released from the delayed queue is
                        not fed again */
  /* c3 (the piggyback family) only; other cores reject it (step returns
   * -1). */
  FT_EVENT_COLLECTIVE, /* the application makes a collective call that the
                          runtime carries as one unit (c3-collectives,
                          section 5): index 0, before its protocol bits
                          are exchanged: the core numbers it (update.id,
                          the call's number since the checkpoint) and
                          gives the bits to show (update.piggyback);
                          index 1, after: the call's protocol logic
                          (ft_c3_collective) says stop logging */
};

/* What an application message carries besides its payload under
 * application-level checkpointing (c3-collectives, section 3.3): the
 * sender's epoch (the paper's colour is its parity), its amLogging bit and
 * its message id (nextMessageID: 1, 2, ... within the sender's epoch). */
struct ft_piggyback {
  int epoch;
  int logging;
  int64_t id;
};

struct ft_event {
  enum ft_event_type type;
  double time;    /* current time, seconds (simulated under SMPI) */
  int peer;       /* destination or source rank in the application world,
                     or -1 for MPI_ANY_SOURCE / not applicable */
  int tag;        /* application tag, or -1 for MPI_ANY_TAG */
  uint64_t bytes; /* payload size */
  int64_t index;  /* SAFE_POINT, ROLLBACK: safe-point index. Any-call
                     mode: CALL, CALL_END: the call; ROLLBACK: the call
                     the checkpoint was taken in, where the rank resumes,
                     in that call (0: the beginning, before any call) */
  int wave;       /* IMAGE_STORED, ROLLBACK: wave number. SAFE_POINT: 0, or
                     the epoch the other participants of a barrier showed
                     ahead of this rank (c3: Figure 8, the barrier's
                     potential checkpoint) */
  struct ft_control control; /* CONTROL: the message */
  /* Message logging. DELIVERED: id = the id the core gave the receive at
   * APP_RECV. APP_RECV: 0 (a new receive, which takes the next id); in
   * any-call mode, > 0: a receive the restored image held pending, posted
   * again with the id it had (pessimist/pessimist.h). APP_RECV, DELIVERED:
   * wildcard = it was posted with MPI_ANY_SOURCE or MPI_ANY_TAG. ROLLBACK,
   * RESTART: see above. */
  int64_t id;
  int wildcard;
  const int64_t *ids; /* COMPLETION */
  size_t n_ids;
  /* RESTART: the events the logger gave back, sorted by id and, within
   * an id, in the order they were logged (a stable sort of the logger's
   * answer). Runtime-owned: they must stay unchanged until the next
   * RESTART or failure of this rank, for the core reads them while it
   * replays. */
  const struct ft_logged_event *logged;
  size_t n_logged;
  /* c3: DELIVERED: what the message carried (FT_UPDATE_PIGGYBACK). A
   * ROLLBACK hands the core, in logged[0..n_logged), the suppress list of
   * its sends (FT_LOGGED_SUPPRESS), the late messages of its restored log
   * (FT_LOGGED_DELIVERY) and its own logged decisions (FT_LOGGED_MATCH, id
   * = the receive's number since the checkpoint), with the lifetime
   * RESTART's have. */
  struct ft_piggyback piggyback;
};

/* A non-deterministic event, as the event logger stores it (message
 * logging; pessimist-openmpi-v, section 3.2). */
enum ft_logged_kind {
  FT_LOGGED_MATCH = 1,  /* a wildcard receive `id` matched peer/tag */
  FT_LOGGED_PROBE,      /* probe `id` found a message: peer, tag, value =
                           its bytes */
  FT_LOGGED_COMPLETION, /* completion call `id` completed request `value`
                           (one event per completed request) */
  FT_LOGGED_FAILED,     /* every probe or completion call without an event
                           up to `id` found nothing (lazy logging) */
  FT_LOGGED_DELIVERY,   /* v2: receive `id` delivered a message of
                           peer/tag (every reception is an event). c3: a
                           late message of peer/tag in the restored log */
  FT_LOGGED_SUPPRESS,   /* c3: send `value` (message id in the sender's
                           epoch) to `peer` is early: a receiver's
                           checkpoint holds it; not sent again */
  FT_LOGGED_COLL,       /* c3: collective call `id` (its number since the
                           checkpoint) of `peer` is not carried out again:
                           a root's suppress list holds it, or its result
                           comes from the rank's own log */
};

struct ft_logged_event {
  int64_t id;
  int32_t kind; /* enum ft_logged_kind */
  int32_t peer; /* application rank */
  int32_t tag;
  int32_t pad_;
  int64_t value;
};

/* What the runtime must do after a step. */
enum ft_update_flag {
  FT_UPDATE_PASS = 1u << 0,       /* carry out the application's operation */
  FT_UPDATE_HOLD = 1u << 1,       /* SAFE_POINT: keep the application at this
                                     safe point until an update says RELEASE */
  FT_UPDATE_RELEASE = 1u << 2,    /* let the held application go on */
  FT_UPDATE_CHECKPOINT = 1u << 3, /* take the local checkpoint of `wave` now
                                     (the application is at a safe point;
                                     any-call mode: in its call, see
                                     FT_UPDATE_DEFER) and send the image to
                                     the checkpoint server */
  FT_UPDATE_COMMIT = 1u << 4,     /* rank 0: wave `wave` is committed (every
                                     image stored): tell the servers */
  /* Non-blocking checkpoints (vcl): the local state is captured at one
   * safe point, the channel state recorded afterwards, and the image
   * stored once both are complete. */
  FT_UPDATE_RETAIN = 1u << 5,  /* SAFE_POINT: keep a copy of the state at
                                  this safe point; a later CAPTURE may name
                                  it */
  FT_UPDATE_CAPTURE = 1u << 6, /* the local checkpoint of `wave` is the
                                  state at safe point `index`: this one, or
                                  the retained copy; keep it, do not store
                                  it yet (any-call mode: the state now, in
                                  call `index`, see FT_UPDATE_DEFER) */
  FT_UPDATE_RECORD = 1u << 7,  /* DELIVERED (any-call mode: ARRIVED): copy
                                  this message, number `index` from
                                  `event.peer`, into the channel state
                                  (provisionally: STORE says which records
                                  to keep) */
  FT_UPDATE_STORE = 1u << 8,   /* the local checkpoint of `wave` is complete:
                                  keep the records in `keep`, add them to
                                  the captured image, send it to the server */
  /* Message logging. */
  FT_UPDATE_LOG = 1u << 9,          /* ship events[0..n_events) to the event
                                       logger */
  FT_UPDATE_WAIT_LOGGED = 1u << 10, /* APP_SEND: the send leaves only after a
                                      later step says RELEASE (every event
                                      shipped is acknowledged) */
  FT_UPDATE_SENDER_LOG = 1u << 11,  /* APP_SEND: copy the payload into the
                                       sender-based log */
  FT_UPDATE_COPY = 1u << 12,        /* DELIVERED: the payload went through an
                                       intermediate copy at the receiver */
  FT_UPDATE_REPLAY = 1u << 13,      /* the operation is replayed: carry out
                                       `replay` instead of choosing (see struct
                                       ft_replay); without it, an APP_PROBE or
                                       APP_COMPLETION runs live */
  /* Any-call mode (see FT_EVENT_CALL). A CHECKPOINT (or CAPTURE) there is
   * taken in the call the rank is in (it is in one whenever a core asks),
   * after the event's own flags and before the FLUSH of the same update:
   * the image is the rank's position (the call), its pending requests (a
   * DEFERred send is pending, not sent: after the ROLLBACK to this image
   * the runtime posts it again, APP_SEND, before anything new) and the
   * messages that ARRIVED and were not received, except those in the
   * delayed receive queue (QUEUE): their senders send them again after a
   * rollback. After the ROLLBACK the runtime restores the image's arrived
   * messages, then its kept channel state (STORE), as receivable, without
   * feeding them as ARRIVED. */
  FT_UPDATE_DEFER = 1u << 14, /* APP_SEND: the channel is frozen: do not
                                 send this message until FLUSH; the
                                 application's call stays pending (a
                                 blocking send blocks) */
  FT_UPDATE_QUEUE = 1u << 15, /* ARRIVED: put this message in the delayed
                                 receive queue: no receive may match it
                                 until FLUSH */
  FT_UPDATE_FLUSH = 1u << 16, /* release the frozen channels and the queue:
                                 send every DEFERred message, in the order
                                 deferred, before any new one, and make the
                                 queued messages receivable, in their
                                 order of arrival. Within one update: the
                                 event's own flags (PASS, DEFER, QUEUE,
                                 RECORD), the control sends, CHECKPOINT or
                                 CAPTURE, STORE, COMMIT, then FLUSH */
  /* Application-level checkpointing with piggybacked epochs (c3). */
  FT_UPDATE_PIGGYBACK = 1u << 17, /* APP_SEND: carry `update.piggyback` (the
                                     sender's epoch, amLogging bit and
                                     message id) with the message; the
                                     receiver's runtime hands it back in
                                     DELIVERED's `event.piggyback` */
  FT_UPDATE_EARLY = 1u << 18,     /* DELIVERED: an early message: add
                                     <event.peer, event.piggyback.id> to the
                                     suppress list saved with this rank's
                                     next checkpoint (CAPTURE) */
  FT_UPDATE_SUPPRESS = 1u << 19,  /* APP_SEND (re-execution after a
                                     ROLLBACK): a receiver's checkpoint
                                     already holds this message: complete
                                     the send without sending it */
};

/* Message logging: what a replayed operation must do, decided by the core
 * from the events the logger gave back at RESTART. */
struct ft_replay {
  /* APP_RECV (a wildcard receive): the source and tag it must match.
   * APP_PROBE with found: the message the probe finds (wait for it). */
  int peer, tag;
  int found; /* APP_PROBE: 1 it finds a message, 0 it finds nothing */
  /* APP_COMPLETION: the requests the call completes, by id, in order
   * (n_ids 0: it completes none). Core-owned, valid until the next step. */
  const int64_t *ids;
  size_t n_ids;
};

/* Messages from `peer` numbered first..last (1-based, counted from the
 * last ROLLBACK or the start: deliveries, or in any-call mode arrivals;
 * first > last: none) are channel state. */
struct ft_record_range {
  int peer;
  int64_t first, last;
};

struct ft_update {
  unsigned flags;  /* a combination of enum ft_update_flag */
  double deadline; /* next FT_EVENT_TIMER wanted at this time; < 0 for none */
  int wave;        /* CHECKPOINT, COMMIT, CAPTURE, STORE: the wave */
  int64_t index;   /* CAPTURE: safe point; RECORD: message number */
  /* Message logging: APP_SEND, APP_RECV, PROBED, COMPLETION: the id the
   * core gave the operation (its Lamport clock); CHECKPOINT: the clock the
   * checkpoint holds. */
  int64_t id;
  const struct ft_logged_event *events; /* LOG; core-owned, valid until
                                           the next step */
  size_t n_events;
  /* STORE: one range per peer with channel state; core-owned, valid until
   * the next step. */
  const struct ft_record_range *keep;
  size_t n_keep;
  /* Control messages to send, in order. The array belongs to the core and
   * stays valid until its next step. */
  const struct ft_control *sends;
  size_t n_sends;
  struct ft_replay replay;       /* REPLAY */
  struct ft_piggyback piggyback; /* PIGGYBACK */
};

/* Parameters a core is initialised with. */
struct ft_core_config {
  int rank;      /* this rank in the application world */
  int ranks;     /* size of the application world */
  double period; /* seconds between the commit of a wave and the start of the
                    next; <= 0: never checkpoint */
  double start;  /* time the run starts (the first period counts from here) */
  int batch;     /* message logging: events shipped at most per LOG (0: a
                    default) */
  int any_call;  /* 0: safe-point mode; 1: any-call mode (see the top of
                    this file); a core without it fails init */
};

/* The protocol families: what the runtime does around a core. A protocol
 * belongs to one; the runtime, the trace checker and the tools choose by
 * family, never by protocol name (issue 15). A new protocol joins a family,
 * or brings a new one. */
enum ft_family {
  FT_FAMILY_NONE,            /* no recovery: a failure ends the run */
  FT_FAMILY_COORDINATED,     /* blocking coordinated checkpoints; a failure
                                rolls every rank back (pcl) */
  FT_FAMILY_CHANNEL_STATE,   /* non-blocking coordinated checkpoints with
                                the channels' state and a scheduler; every
                                rank rolls back (vcl) */
  FT_FAMILY_MESSAGE_LOGGING, /* uncoordinated checkpoints and logged
                                events; a failed rank restarts alone
                                (pessimist, v2) */
  FT_FAMILY_PIGGYBACK,       /* application-level non-blocking checkpoints:
                                epochs piggybacked on messages, late
                                messages logged, early ones suppressed at
                                recovery; every rank rolls back (c3) */
  FT_FAMILY_DRAIN,           /* blocking coordinated checkpoints of drained
                                channels: the ranks exchange sent-message
                                bookmarks, receive what is still on the
                                wire, then checkpoint; a failure rolls
                                every rank back (bookmark) */
  FT_FAMILY_COUNT
};

/* The family's name as traces and messages spell it ("coordinated", ...),
 * or NULL for a value out of range. */
const char *ft_family_name(enum ft_family family);

/* The family named `name`: 0 and *out set, or -1 when there is none. */
int ft_family_parse(const char *name, enum ft_family *out);

/* One protocol: a const table in the static registry. */
struct ft_protocol_ops {
  const char *name;
  const char *summary; /* one line, for `ftsim protocols` and errors */
  enum ft_family family;
  /* Bytes of state the runtime allocates for a rank with this config. */
  size_t (*state_size)(const struct ft_core_config *config);
  /* Initialises `state` (state_size bytes, zeroed). Returns 0, or -1 when
   * the configuration is invalid. */
  int (*init)(void *state, const struct ft_core_config *config);
  /* Consumes one event and fills `update`. Returns 0, or -1 on a protocol
   * error (the runtime aborts the run with the core's name). */
  int (*step)(void *state, const struct ft_event *event,
              struct ft_update *update);
  /* The names of the family's control kinds, as traces spell them:
   * controls[kind] for 1 <= kind < n_controls (controls[0] is unused).
   * Every protocol of a family points to the same table, for the family's
   * runtime sends some kinds itself (message logging's LOGGED). NULL, 0:
   * the family has no control messages. */
  const char *const *controls;
  size_t n_controls;
  /* Quiet control messages (struct ft_control) this core needs due before
   * its rank must be woken out of an MPI wait to take them: none of fewer
   * can make it act (send, capture, store, release) before the rank takes
   * them anyway at its next control wait. 0: none ever (quiet messages wait
   * for that wait). A lower count than needed only costs a wake-up; a
   * higher one would delay the core. Read by the runtime whenever its rank
   * blocks in an interruptible MPI wait. NULL: 0. */
  int (*wake_after)(const void *state);
};

/* What a protocol's family answers for it. The runtime, the checker and the
 * tools ask these questions, never the protocol's name; a new family
 * answers each of them here. `p` must not be NULL. */

/* Whether `p` checkpoints and recovers from failures at all (every family
 * but none): it needs at least one service rank (checkpoint server and
 * dispatcher), accepts a failure scenario and max_time, and its blocking
 * calls wait interruptibly. False for `none`, where a failure ends the
 * run. */
static inline bool ft_protocol_recovers(const struct ft_protocol_ops *p) {
  return p->family != FT_FAMILY_NONE;
}

/* Whether a checkpoint scheduler runs beside the ranks (channel state,
 * vcl): the runtime inits one more core with rank == ranks on the
 * dispatcher and feeds it TIMER, CONTROL and ROLLBACK events only. */
static inline bool ft_protocol_has_scheduler(const struct ft_protocol_ops *p) {
  return p->family == FT_FAMILY_CHANNEL_STATE;
}

/* Whether a failed rank restarts alone (message logging, pessimist and v2):
 * each rank checkpoints and commits on its own, a failed rank gets RESTART
 * then ROLLBACK to its own checkpoint while the others go on, the runtime
 * feeds PROBED and COMPLETION events, and the run needs event loggers. */
static inline bool ft_protocol_restarts_alone(const struct ft_protocol_ops *p) {
  return p->family == FT_FAMILY_MESSAGE_LOGGING;
}

/* Whether a replay that checkpoints at any call carries its messages
 * through the runtime's any-call transport (coordinated, channel state,
 * drain: pcl, vcl, bookmark), whose wire tag bounds the trace's tags; not
 * for message logging nor the piggyback family (c3), whose replay keeps
 * its own MPI calls (docs/protocols.md, "Any-call mode"). */
static inline bool
ft_protocol_any_call_transport(const struct ft_protocol_ops *p) {
  return p->family != FT_FAMILY_MESSAGE_LOGGING &&
         p->family != FT_FAMILY_PIGGYBACK;
}

/* Returns the protocol called `name`, or NULL when there is none.
 * Names are case-sensitive ("none", "pcl", ...). */
const struct ft_protocol_ops *ft_protocol_find(const char *name);

/* Returns the name of control kind `kind` of family `family` ("marker"),
 * from the first registered protocol of that family, or NULL when the
 * family has no such kind. */
const char *ft_control_name(enum ft_family family, int kind);

/* The kind of family `family` called `name`: 0 and *kind set, or -1 when
 * the family has no such kind. */
int ft_control_parse(enum ft_family family, const char *name, int *kind);

/* Returns the i-th registered protocol (0-based), or NULL past the end.
 * Used to list the known names in error messages. */
const struct ft_protocol_ops *ft_protocol_at(size_t i);

/* Writes into buf (len bytes; NUL-terminated, cut short when too small;
 * nothing when len is 0) the names of the registered protocols that
 * recover (ft_protocol_recovers), in registry order, separated by `sep`,
 * the last two by `last`: with ", " and " and ", "pcl, vcl, pessimist and
 * v2". Messages and defaults that name them read this, so that a new
 * protocol appears in them by its registry entry alone. Returns the length
 * of the whole list (>= len: it was cut). */
size_t ft_protocol_recovering_names(char *buf, size_t len, const char *sep,
                                    const char *last);

#endif /* FT_PROTOCOL_H */
