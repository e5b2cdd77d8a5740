/* Drivers (issue 15, item 1): what a protocol family does on an
 * application rank, as one const table per family, Open MPI vprotocol's
 * idea without its machinery: the point-to-point and completion operations
 * it replaces, and the hooks through which the generic runtime (checkpoint,
 * delivery, recovery, settle, MPI_Init and MPI_Finalize) hands it what only
 * the family knows. The generic runtime names no family: it calls these
 * pointers; the one place that maps a family to its table is drivers.c.
 *
 * Point-to-point. The MPI wrappers (p2p.c) and the runtime's internal
 * channels (control.c) call an operation of the rank's driver
 * (`rt->driver`, chosen once at start from the protocol's family) when it
 * is set; NULL keeps the default path, the one every family but message
 * logging takes.
 *
 * A driver that posts its own requests (isend or irecv set) owns them: it
 * sets every completion (the waits and tests), request_free and cancel
 * too, since the default paths would not know its requests (drivers.c
 * checks it when it picks the driver); it also traces its own collective
 * deliveries (coll.c). The wrappers build the blocking calls from its
 * operations: a send is isend then wait, a receive irecv then wait, a
 * send-receive isend, irecv and waitall.
 *
 * Every operation gets the rank's root from the MPI wrapper that calls it.
 * Sends and receives name the communicator's record and which traffic
 * they belong to: the application's (coll 0) or the communicator's
 * collective shadow (coll != 0). */
#ifndef FT_DRIVER_H
#define FT_DRIVER_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

struct ft_runtime;
struct ft_comm;
struct ft_update;
struct ft_wire;
struct ft_image_region;
struct ft_local_image;
struct ft_event;

/* ---- A collective call carried as one unit (coll_unit.c) ----
 *
 * A family may have the runtime carry a collective call as one unit
 * (c3-collectives, section 5: "each process must send its color bit and
 * its amLogging bit to other processes", once per call): the family gives
 * its bits for the call, the runtime exchanges them among the members in
 * the direction of the call's data flow (section 4), the family decides,
 * and the call's own messages then go raw: neither handed to the family's
 * per-message hooks (coll_send, coll_delivered, send_payload,
 * recv_payload) nor traced. */

/* The data-flow classes of section 4, and where the bits go. */
enum ft_coll_flow {
  FT_FLOW_ALL = 1,   /* all-to-all: every member gets every member's bits */
  FT_FLOW_TO_ROOT,   /* single-receiver: the root gets every member's */
  FT_FLOW_FROM_ROOT, /* single-sender: every member gets the root's */
  FT_FLOW_SYNC       /* barrier: as ALL; the exchange is the barrier */
};

/* The calls carried as units (a reexec names one). */
enum ft_coll_kind {
  FT_COLL_BARRIER = 1,
  FT_COLL_BCAST,
  FT_COLL_SCATTER,
  FT_COLL_GATHER,
  FT_COLL_REDUCE,
  FT_COLL_ALLREDUCE,
  FT_COLL_ALLGATHER,
  FT_COLL_ALLTOALL,
  /* Whose result is not one buffer of one type (coll.c describes it by a
   * datatype of its blocks: exactly the bytes the call writes). */
  FT_COLL_GATHERV,
  FT_COLL_SCATTERV,
  FT_COLL_ALLGATHERV,
  FT_COLL_ALLTOALLV,
  FT_COLL_ALLTOALLW,
  FT_COLL_SCAN,
  FT_COLL_EXSCAN,
  FT_COLL_REDUCE_SCATTER,
  FT_COLL_REDUCE_SCATTER_BLOCK
};

/* What coll_enter answers. */
enum ft_coll_entry {
  FT_COLL_PER_MESSAGE = 0, /* not a unit: the per-message hooks see it */
  FT_COLL_EXCHANGE,        /* a unit: exchange the bits, coll_decide, then
                              the call, then coll_leave */
  FT_COLL_RAW,             /* a unit without exchange nor decision (every
                              member answers RAW alike) */
  FT_COLL_DONE,            /* not carried out: its result is in place (from
                              the family's log) or it is suppressed */
  FT_COLL_COMBINED         /* a unit whose bits travel packed with its data
                              in ONE collective of the enlarged blocks
                              (c3-collectives section 6's combined form:
                              coll_combined.c), coll_decide on receipt,
                              then coll_leave; bcast, scatter, scatterv,
                              gather, allgather and alltoall: the other
                              calls (no data to carry the bits: the
                              barrier; data an op combines: reduce,
                              allreduce...) are EXCHANGE */
};

enum { FT_COLL_BITS = 16 }; /* the bytes of one member's bits */

/* ft_coll_call.bytes of a call no size of which every member knows. */
#define FT_COLL_ANY_BYTES SIZE_MAX

struct ft_coll_call {
  enum ft_coll_kind kind;
  enum ft_coll_flow flow;
  int root; /* rank in the communicator; -1 for ALL and SYNC */
  /* What the call leaves at this rank (NULL, 0: nothing): the result the
   * family may log, or overwrite from its log. */
  void *result;
  int count;
  MPI_Datatype type;
  size_t bytes; /* the data of one member's block (bcast: the message), the
                   same at every member: what a family may choose the
                   call's form by; FT_COLL_ANY_BYTES when no size is known
                   to every member (gatherv, scatterv, alltoallv,
                   alltoallw: their counts are significant at one rank, or
                   differ between ranks) */
  int reexec;   /* 1: re-executed for the root with a dummy result
                 (coll_reexec), before the rank goes on */
  unsigned char bits[FT_COLL_BITS]; /* this rank's, set by coll_enter */
  int64_t id;                       /* the family's */
  int64_t seq;  /* the family's: the call's number on the communicator,
                   the same at every member */
  int keep;     /* the family's: log the result */
  int entry;    /* the runtime's: coll_enter's answer */
  int own_type; /* the runtime's: `type` was made for the result (a v
                   form's blocks), freed after the call */
};

/* A call to re-execute (coll_reexec): on communicator `comm` (its name),
 * `count` elements of `size` bytes each, `extent` apart, at this rank;
 * `seq` its number there. */
struct ft_coll_reexec {
  enum ft_coll_kind kind;
  int comm, root, count, size;
  int64_t extent;
  int64_t seq; /* the call's ft_coll_call.seq */
};
struct ft_gate_call;

/* When ft_apply_update hands a core update to the family. The outputs are
 * carried in a fixed order: the family's STATE stage, the core's control
 * messages, the family's SENT stage, HOLD, CHECKPOINT, RELEASE, COMMIT,
 * the family's END stage. */
enum ft_update_stage {
  FT_STAGE_STATE, /* before the core's control messages leave */
  FT_STAGE_SENT,  /* after them, before HOLD, CHECKPOINT and RELEASE */
  FT_STAGE_END    /* after the commit: the last output */
};

/* The summary's figures a family counts (added over the ranks). */
struct ft_family_figures {
  uint64_t recorded, replayed;   /* channel_msgs, replayed_msgs */
  uint64_t events, el_messages;  /* events_logged, el_messages */
  uint64_t sb_bytes, deliveries; /* sb_bytes; events_per_message's
                                    denominator */
  uint64_t restarts;             /* ranks_restarted */
  /* The any-call transport's (anycall.c), which stands in for the
   * family's hooks in a replay: checkpoints taken at calls (ckpt_calls),
   * messages arrived and not received in their images (ckpt_in_flight),
   * sends deferred (deferred_msgs), arrivals queued (queued_msgs). */
  uint64_t ac_ckpts, ac_in_flight, ac_deferred, ac_queued;
  /* The drain family on-line (drain.c): application messages received off
   * the wire at a wave's safe point into the drain buffer
   * (drained_msgs). */
  uint64_t drained;
};
struct ft_service_role;

/* How a send the family carries (send_payload) must behave: flags. */
enum ft_payload_how {
  FT_PAYLOAD_COPY = 1, /* buf may change once the call returns */
  FT_PAYLOAD_SYNC = 2  /* complete only once the receive matched it */
};

struct ft_driver {
  const char *name; /* the family's, for messages */
  int (*isend)(struct ft_runtime *rt, const void *buf, int count,
               MPI_Datatype type, int dest, int tag, struct ft_comm *c,
               int coll, MPI_Request *req);
  int (*irecv)(struct ft_runtime *rt, void *buf, int count, MPI_Datatype type,
               int source, int tag, struct ft_comm *c, int coll,
               MPI_Request *req);
  int (*wait)(struct ft_runtime *rt, MPI_Request *req, MPI_Status *status);
  int (*waitall)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                 MPI_Status statuses[]);
  int (*waitany)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                 MPI_Status *status);
  int (*waitsome)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                  int *outcount, int indices[], MPI_Status statuses[]);
  int (*test)(struct ft_runtime *rt, MPI_Request *req, int *flag,
              MPI_Status *status);
  int (*testall)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *flag,
                 MPI_Status statuses[]);
  int (*testany)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                 int *flag, MPI_Status *status);
  int (*testsome)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                  int *outcount, int indices[], MPI_Status statuses[]);
  int (*iprobe)(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                int *flag, MPI_Status *status);
  int (*probe)(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
               MPI_Status *status);
  /* MPI_Waitany, MPI_Waitsome, MPI_Testany or MPI_Testsome (p2p.c)
   * reported a completion the runtime held (persist.c: an operation with
   * MPI_PROC_NULL, a send the family suppressed...) at `index` without
   * calling the operation above: the family counts it as one of its
   * completion calls (the piggyback family numbers them). NULL: nothing. */
  void (*held_completion)(struct ft_runtime *rt, int index);
  /* MPI_Request_free and MPI_Cancel of a request of the application that
   * is not MPI_REQUEST_NULL nor persistent (persist.c had it first). */
  int (*request_free)(struct ft_runtime *rt, MPI_Request *req);
  /* The default path's MPI_Request_free (request_free NULL), before the
   * library frees `req`, an active send of the application: whatever the
   * family holds for it (send_payload's buffer) must outlive the transfer,
   * which nobody will report complete. NULL: nothing. */
  void (*request_freed)(struct ft_runtime *rt, MPI_Request req);
  int (*cancel)(struct ft_runtime *rt, MPI_Request *req);

  /* ---- The rank side of the family (NULL: nothing family-specific) ---- */

  /* MPI_Init, once the core started: sets up the family's state. */
  void (*start)(struct ft_runtime *rt);
  /* ft_apply_update (checkpoint.c), at each stage of every core update:
   * carries out the outputs only the family knows (channel state: RETAIN,
   * CAPTURE, STORE; message logging: LOG, WAIT_LOGGED, RELEASE). */
  void (*update)(struct ft_runtime *rt, const struct ft_update *u,
                 enum ft_update_stage stage);
  /* ft_apply_update, for a COMMIT: this rank commits `wave` alone (message
   * logging). NULL: rank 0 proposes it to the dispatcher, which decides it
   * for every rank. */
  void (*commit)(struct ft_runtime *rt, int wave);
  /* ft_apply_update, for a CHECKPOINT taken at the current safe point:
   * writes the image of regions[0..n) (the application's; room for
   * FT_DRIVER_REGIONS more) with the family's own regions, by
   * ft_checkpoint_write. NULL: the application's regions alone. `clock`:
   * the update's id. */
  void (*checkpoint)(struct ft_runtime *rt, int wave, int64_t clock,
                     struct ft_image_region *regions, size_t n);
  /* The first safe point after a restart (checkpoint.c), once the
   * application's regions of `img` are back and rt->safe_points is the
   * image's: the family reads its regions of the image (ft_image_find)
   * and puts its state back. Not called for a restart from the beginning
   * (no image). */
  void (*restored)(struct ft_runtime *rt, const struct ft_local_image *img);
  /* ft_ac_requests_restored (anycall.c, sim/ft_anycall.h), in a replay
   * that checkpoints each rank alone at any call: after `restored`, makes
   * the handles[0..n) the image held pending valid again (a receive is
   * posted again into rbuf). NULL: the run stops (the family keeps no
   * requests in its images). */
  void (*requests_restored)(struct ft_runtime *rt, MPI_Request *handles,
                            size_t n, void *rbuf);
  /* Every safe point of a recovering protocol, before the core's timer is
   * checked. */
  void (*safe_point)(struct ft_runtime *rt);
  /* ft_delivery_done (delivery.c): the core said RECORD for this delivery
   * (peer's message number seq on c): the family keeps its payload. */
  void (*record)(struct ft_runtime *rt, int peer, int64_t seq,
                 const struct ft_comm *c, const void *buf, int count,
                 MPI_Datatype type, const MPI_Status *status);
  /* The default point-to-point path (p2p.c), for a send of the
   * application on c (dest: its rank in c) once the core's APP_SEND update
   * `u` is applied, before the payload leaves: the family sends what goes
   * with the message (the piggyback: PIGGYBACK). Returns 1 when the send
   * must not be carried out (SUPPRESS: a receiver's checkpoint holds it;
   * the call completes at once), 0 otherwise. */
  int (*app_send)(struct ft_runtime *rt, const struct ft_update *u, int dest,
                  int tag, struct ft_comm *c);
  /* ft_delivery_done (delivery.c), for a delivery of the application on c
   * (`status` from the payload's receive), before DELIVERED `e` is fed to
   * the core: the family reads what came with the message (the piggyback,
   * into e->piggyback). */
  void (*delivering)(struct ft_runtime *rt, const struct ft_comm *c,
                     const MPI_Status *status, struct ft_event *e);
  /* 1 when the family must know, before a receive of the application is
   * delivered, which message each receive posted before it with
   * MPI_ANY_SOURCE or MPI_ANY_TAG took (piggyback=separate: the piggyback
   * is paired with its payload by its place on its channel): the
   * application's wildcard MPI_Irecv then gets a handle of the runtime's
   * (persist.c, ft_persist_own), and delivery.c completes such an earlier
   * receive first (resolve_wildcards). NULL or 0: never (no extra call). */
  int (*resolves_wildcards)(const struct ft_runtime *rt);
  /* The default path of the runtime's collectives (p2p.c, coll.c), which
   * carries them over point-to-point on c's collective shadow: a send to
   * `dest` (its rank in c) before it leaves, and a receive from `source`
   * once it completed (`status`, or NULL: `count` elements arrived), as
   * app_send and delivering for the application's messages (the piggyback
   * family treats a collective's messages as messages of the application:
   * piggybacked, late ones logged, early ones suppressed). coll_send
   * returns 1 when the send must not be carried out. */
  int (*coll_send)(struct ft_runtime *rt, struct ft_comm *c, int dest, int tag);
  void (*coll_delivered)(struct ft_runtime *rt, struct ft_comm *c, int source,
                         int tag, void *buf, int count, MPI_Datatype type,
                         const MPI_Status *status);
  /* The default path (p2p.c), once app_send (or coll_send: coll != 0, on
   * c's shadow) returned 0: the family sends the payload itself, with what
   * goes with it (the piggyback combined into one message), returns 1 and
   * sets *rc to the MPI result; 0: the default send goes. `req` NULL: a
   * blocking send, complete on return; otherwise *req becomes the handle the
   * caller completes (its completion goes through `completed`). `how`,
   * enum ft_payload_how: FT_PAYLOAD_COPY, the send must not read buf after
   * return (MPI_Sendrecv_replace); FT_PAYLOAD_SYNC, a synchronous send
   * (MPI_Ssend, MPI_Issend, MPI_Ssend_init), which must not complete
   * before the receive matched it (MPI-3.1, 3.4). */
  int (*send_payload)(struct ft_runtime *rt, const void *buf, int count,
                      MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                      int coll, int how, MPI_Request *req, int *rc);
  /* The same for a receive, once the core was told APP_RECV: the family
   * posts it itself (into its own buffer) and returns 1 with *rc set; a
   * blocking one (`req` NULL) is complete on return with *status what the
   * application would see; a nonblocking one completes through
   * `completed`. 0: the default receive goes. 2: as 1, for a message the
   * family received and delivered already (the drain family's buffer,
   * drain.c), complete on return with *status, blocking or not: the
   * receive is not delivered again, and the caller makes a nonblocking
   * one's handle (persist.c, ft_persist_completed). */
  int (*recv_payload)(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, int source, int tag, struct ft_comm *c,
                      int coll, MPI_Request *req, MPI_Status *status, int *rc);
  /* A request completed (its handle `req` before completion, *status what
   * the library reported), before its delivery is told: for a request the
   * family posted (send_payload, recv_payload) it moves the payload into
   * the application's buffer, frees what it held, and makes *status what
   * the application would see (count, source, tag); others: nothing.
   * Returns MPI_SUCCESS, or an error the library's completion of `req`
   * did not report (a payload the family received after it, truncated),
   * also put in status->MPI_ERROR. */
  int (*completed)(struct ft_runtime *rt, MPI_Request req, MPI_Status *status);
  /* A probe of the application (MPI_Probe, MPI_Iprobe) found a message on
   * c (*flag 1, *status the library's): the family makes *status the
   * application's view of it (its count), or sets *flag to 0 while the
   * message is not all there. */
  void (*probed)(struct ft_runtime *rt, struct ft_comm *c, int *flag,
                 MPI_Status *status);
  /* A probe of the application (MPI_Probe, MPI_Iprobe) for source/tag on
   * c (wildcards allowed), before the library is asked: 1 and *status (the
   * application's view, its count) when the family holds a message for
   * the application that matches (the drain family's buffer: received
   * before the library's), else 0. */
  int (*holds)(struct ft_runtime *rt, struct ft_comm *c, int source, int tag,
               MPI_Status *status);
  /* The rank is held at a safe point (checkpoint.c): waits for one thing
   * that may release it. NULL: ft_wait_control (a control message). */
  void (*held)(struct ft_runtime *rt);
  /* MPI_Barrier of the application on c (coll.c), before the barrier
   * itself: the family may make it a potential checkpoint location (the
   * piggyback family, c3-collectives Figure 8: an exchange of the
   * participants' epochs, then ft_safe_point_ahead). NULL: a barrier. */
  void (*barrier)(struct ft_runtime *rt, struct ft_comm *c);
  /* A collective call of the application on c (coll.c), before anything
   * of it is carried out, every member's: see enum ft_coll_entry; the
   * family sets call->bits (EXCHANGE) and writes the result (DONE). NULL:
   * every call per message. */
  int (*coll_enter)(struct ft_runtime *rt, struct ft_comm *c,
                    struct ft_coll_call *call);
  /* After the exchange of an EXCHANGE call: `bits` holds c->size members'
   * bits (FT_COLL_BITS bytes each, by rank in c) as the call's flow lets
   * this rank see them: every member's (ALL, SYNC, the root of TO_ROOT),
   * the root's (FROM_ROOT, a non-root), its own alone otherwise; the
   * others are zero. */
  void (*coll_decide)(struct ft_runtime *rt, struct ft_comm *c,
                      struct ft_coll_call *call, const unsigned char *bits);
  /* The call is complete (its result in place). */
  void (*coll_leave)(struct ft_runtime *rt, struct ft_comm *c,
                     struct ft_coll_call *call);
  /* After a restore: the next call this rank must re-execute at once, with
   * dummy buffers, for a root that re-executes it (c3-collectives section
   * 5.3's reexecList): 1 and *out, in the order they were made; 0: none
   * left. */
  int (*coll_reexec)(struct ft_runtime *rt, struct ft_coll_reexec *out);
  /* A communicator creation `call` of the application returned
   * successfully (comm_api.c), `made` being its result (maybe
   * MPI_COMM_NULL), registered: the family may record it and use it now
   * (the piggyback family keeps its creations for its images and sends
   * again the late messages of the communicators main() makes again after a
   * rollback). */
  void (*comm_made)(struct ft_runtime *rt, const struct ft_gate_call *call,
                    MPI_Comm made);
  /* MPI_Comm_free of the application's communicator c, before the runtime
   * forgets it (comm_api.c). */
  void (*comm_freed)(struct ft_runtime *rt, const struct ft_comm *c);
  /* The resumption of a rollback of every rank (recovery.c), after the
   * settle, right before ROLLBACK `e` (its wave and index set) is fed to
   * the core: the family exchanges with the other ranks what the restore
   * needs and hands the core what it must re-execute by (e->logged,
   * e->n_logged, family-owned until the next rollback). */
  void (*resuming)(struct ft_runtime *rt, struct ft_event *e);
  /* The control loop (recovery.c): a control message of a kind the
   * generic runtime does not know (kinds >= FT_WIRE_STORE: the family's
   * own, numbered from FT_WIRE_FAMILY_BASE in its header, control.h).
   * Returns 1 if the family took it, 0 if it is not one of its kinds (a
   * fatal error). */
  int (*on_control)(struct ft_runtime *rt, const struct ft_wire *m);
  /* The control loop, for a core message of the current incarnation,
   * right before the core steps on it: the family reads what it needs
   * from it (message logging: LOGGED, counted and traced). */
  void (*on_core_message)(struct ft_runtime *rt, const struct ft_wire *m);
  /* A rollback of every rank (recovery.c), before this rank says READY:
   * drops what the family kept of the abandoned run (copies, channel
   * state, a replay in progress). */
  void (*rollback)(struct ft_runtime *rt);
  /* The settle of a rollback (settle.c): wait (1) for the family's own
   * sends of the abandoned runs and free them, or (0, reference mode)
   * forget them. */
  void (*settle)(struct ft_runtime *rt, int wait);
  /* Set: a failure restarts the failed rank alone while the others go on
   * (message logging; its rank commits its checkpoints alone too). The
   * failed rank's recovery, before main() runs again: the restart loop
   * calls it below a stack gap as deep as the lost life (recovery.c).
   * NULL: a failure rolls every rank back to the committed wave. */
  void (*restart)(struct ft_runtime *rt);
  /* FAIL (recovery.c): this rank failed; `life` (the message's wave) is
   * the life it restarts into, which the family records before the
   * restart (what `life` below returns). */
  void (*on_fail)(struct ft_runtime *rt, int life);
  /* The number this rank's image requests and DONE name: its life
   * (message logging). NULL: image requests name the incarnation, DONE
   * names 0. */
  int (*life)(const struct ft_runtime *rt);
  /* MPI_Finalize (also of a stopped run): waits for the family's sends
   * still in flight and frees them. */
  void (*finish)(struct ft_runtime *rt);
  /* The summary: adds this rank's figures to *f. */
  void (*figures)(const struct ft_runtime *rt, struct ft_family_figures *f);
  /* The name of the family's wire kind `kind` (>= FT_WIRE_FAMILY_BASE;
   * its header's enum, control.h) in FTSIM_TRACE_CONTROL's lines and error
   * messages (ft_wire_name): a static string, upper case, or NULL when
   * `kind` is not one of the family's. Called on every rank, services
   * included. NULL: the family has no wire kinds of its own. */
  const char *(*wire_name)(int kind);
  /* The tag of the bytes that follow `m`, a message of one of the
   * family's wire kinds, on the control communicator (one of its own tags,
   * from FT_TAG_FAMILY_BASE, or FT_TAG_PAYLOAD for ft_control_send_payload's
   * bytes, unless they rode in the message: `carried`), or 0 when none
   * follow: how ft_control_discard drops them at
   * the end of a run, on every rank, services included. NULL: no kind of
   * the family's carries bytes. */
  int (*wire_payload)(const struct ft_wire *m);
  /* The part the family's service ranks play besides the generic
   * dispatcher and checkpoint servers (service_role.h), or NULL: none. */
  const struct ft_service_role *service;
  /* Under latency-only control messages (control.c,
   * ft_control_courier_start): 1 when service rank `world_rank` takes its
   * control messages through a courier too, as application ranks do
   * (message logging: the event loggers, which every send waits on), 0
   * when they stay MPI messages. A pure function of the options, the same
   * on every rank (senders and receiver must agree). NULL: none does. */
  int (*courier_service)(const struct ft_runtime *rt, int world_rank);
  /* 1: after a rollback to a checkpoint, the core does not see the
   * application's point-to-point calls of main()'s prologue (from the top to
   * the first safe point, where the image is restored): they were made
   * before the checkpoint, by every rank alike (the piggyback family: its
   * core counts message ids from the checkpoint; app_send still gets an
   * update with an empty piggyback). 0: it sees them. */
  int hide_prologue;
  /* 1: in a replay that checkpoints at any call (any_call=1), the family
   * keeps the replay's MPI calls on its own path, rolls every rank back,
   * and leaves the requests an image held pending and the communicators
   * made before it to the replay, which makes them again itself
   * (sim/ft_anycall.h, FT_AC_REPOST: the piggyback family, whose protocol
   * is application-level). 0: the any-call transport, or message
   * logging's FT_AC_ALONE. */
  int ac_repost;
  /* 1: the family drains the wire at a wave's safe point on-line (the
   * drain family): the summary reports drained_msgs (figures' drained). */
  int drains;
};

/* 1 when a failure restarts the failed rank alone (restart set). */
static inline int ft_driver_restarts_alone(const struct ft_driver *d) {
  return d->restart != NULL;
}

#endif /* FT_DRIVER_H */
