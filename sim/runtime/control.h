/* The runtime's control plane: small messages between application ranks,
 * checkpoint servers and the dispatcher, carried on the `control`
 * communicator (a duplicate of the whole world), and the interruptible waits
 * that let a rank handle them while its application blocks.
 *
 * Under a recovering protocol every blocking operation of the application
 * (and of the runtime's collectives) waits on its own requests AND on the
 * control receive, so a marker, a wave request or a rollback order reaches a
 * rank blocked in MPI_Recv. With protocol `none` the waits are plain. */
#ifndef FT_CONTROL_H
#define FT_CONTROL_H

#include <mpi.h>
#include <stdint.h>

#include "ft_protocol.h"
#include "options.h"

struct ft_runtime;

/* One control message, sent as bytes. */
struct ft_wire {
  int32_t kind; /* a core's control kind, enum ft_wire_kind or a family's
                   wire kind (from FT_WIRE_FAMILY_BASE) */
  int32_t from; /* world rank of the sender */
  int32_t to;   /* application rank for core messages */
  int32_t wave;
  int32_t inc;     /* incarnation of the sender's view */
  int32_t carried; /* 1 + the bytes of its payload that follow it in the
                      same message (ft_control_send_payload), 0: none
                      there (no payload, or one of its own) */
  int64_t value;
  double x[4];
};

/* A payload this small rides in the control message itself: one message,
 * as Open MPI-V's events travel ("The two events are merged into a single
 * message to the event logger", pessimist-openmpi-v, section 4.2). Under
 * SMPI a message's transfer starts when its receive is posted, and the
 * payload's receive is posted only once the control message is taken: a
 * separate payload cost a second latency (the event logger's round trip
 * took 12.2 us instead of 8.1 on myrinet). */
enum { FT_CONTROL_INLINE = 448 };

/* The control receive's buffer: a message and what it may carry. */
struct ft_wire_msg {
  struct ft_wire w;
  unsigned char data[FT_CONTROL_INLINE];
};

struct ft_payload;
struct ft_adopted;
struct ft_sent;

/* Control receives a rank keeps posted at most (ft_control_start; the
 * option control_window). */
enum { FT_CONTROL_WINDOW = FT_OPTIONS_CONTROL_WINDOW_MAX };

/* This module's state (control.c), held by the rank's struct ft_runtime
 * (ctl): payload sends still on their way, whether to print control
 * messages, and the two upcalls of its waits, installed by runtime.c at
 * MPI_Init (docs/layers.md: the control plane sits below the modules that
 * handle its messages). */
struct ft_control_state {
  struct ft_payload *payloads; /* sends of payloads, with their buffers */
  size_t n_payloads, cap_payloads;
  struct ft_adopted *adopted; /* sends of lost lives (ft_control_adopt) */
  size_t n_adopted, cap_adopted;
  /* An application rank's control messages still on their way, oldest
   * first (ft_control_send): [first_send, n_sends) of `sends`. */
  struct ft_sent *sends;
  size_t first_send, n_sends, cap_sends;
  /* The posted control receives: the runtime's ctrl_req (the oldest, into
   * slot `head` of `window`), then `ahead`, oldest first, each into the
   * next slot (ft_control_start). */
  struct ft_wire_msg window[FT_CONTROL_WINDOW];
  MPI_Request ahead[FT_CONTROL_WINDOW - 1];
  int head, n_ahead;
  int trace; /* FTSIM_TRACE_CONTROL: 0 not read yet, 1 unset, 2 set */
  /* Handles a control message a wait took (recovery.c's
   * ft_control_handle); may not return (rollback). Never NULL once
   * installed. */
  void (*handle)(struct ft_runtime *rt, const struct ft_wire *m);
  /* Called before an interruptible wait blocks: fires the core's timeout
   * if due (checkpoint.c's ft_check_deadline); NULL: none. */
  void (*deadline)(struct ft_runtime *rt);
  /* Messages taken while this rank stood dead at its failure time, before
   * the dispatcher's verdict (ft_control_fate): handled after it, in
   * order, by the next waits. */
  struct ft_wire *held;
  size_t n_held, cap_held, first_held;
  /* Payloads carried by control messages taken but not handled yet, in
   * arrival order (ft_control_payload takes the oldest of a sender's, as
   * MPI's order pairs a separate payload with its message). */
  struct ft_carried *carried;
  size_t n_carried, cap_carried;
  /* Latency-only messages (ft_control_send, option control_timer): this
   * rank's courier (backend.h; NULL: control messages travel by MPI), the
   * couriers of the other ranks as found, the time each one's last message
   * from this rank is due (MPI's order between two ranks), the route to
   * each (asked of SimGrid once: route_bw < 0 until then), the bells
   * of this rank's courier taken, and whether a message's departure must
   * charge the rank's measured computation first (charges: ft_backend_-
   * charges_computation, asked once). */
  struct ft_courier *courier;
  struct ft_courier **peers;
  double *last_due, *route_lat, *route_bw;
  uint64_t bells_taken;
  int charges;
};

/* The runtime's own message kinds, beyond the cores' (below
 * FT_CONTROL_KIND_LIMIT: see struct ft_control): the generic ones here,
 * from FT_WIRE_STORE; a protocol family's own from FT_WIRE_FAMILY_BASE, in
 * its directory's header (channel_state/channel_state.h,
 * message_logging/msglog.h), named by its driver (driver.h, wire_name).
 * Families never run together, so their numbers overlap; the generic
 * runtime never names one. */
enum ft_wire_kind {
  FT_WIRE_STORE = 100, /* rank -> server: image of `wave` follows, value =
                          bytes, x[0] = modelled padding bytes, x[1] = their
                          transfer number (backend.h) */
  FT_WIRE_STORED,      /* server -> rank: image of `wave` stored; value =
                          its transfer number (x[1] of the STORE) */
  FT_WIRE_COMMIT,      /* rank 0 -> dispatcher: `wave` complete, commit it;
                          dispatcher -> servers: `wave` committed; x[0] =
                          time of rank 0's checkpoint */
  FT_WIRE_FAIL,        /* dispatcher -> victim: you failed (incarnation inc) */
  FT_WIRE_ROLLBACK,    /* dispatcher -> all: roll back to committed `wave`;
                          value = the victim, x[0] = its restart cost (s) */
  FT_WIRE_READY,       /* rank -> dispatcher: restored, ready for incarnation */
  FT_WIRE_GO,          /* dispatcher -> ranks: resume incarnation `inc` */
  FT_WIRE_DONE,        /* rank -> dispatcher: my application finished */
  FT_WIRE_FINISH,      /* dispatcher -> ranks: everybody finished, or
                          (wave = 1) the run is stopped: it cannot
                          progress; value = waves committed; x[] =
                          failures, rollbacks, lost work, recovery */
  FT_WIRE_IMAGE_REQUEST, /* restarting rank -> server: send my `wave` */
  FT_WIRE_IMAGE,         /* server -> rank: image follows, value = bytes,
                            x[0] = padding bytes, x[1] = their transfer
                            number; value < 0: none */
  FT_WIRE_SHUTDOWN,      /* rank 0 -> services: the run is over */
  FT_WIRE_COMMIT_RANK,   /* rank -> its server: commit my checkpoint `wave`
                            alone (x[0] = when it was taken): the server's
                            side of a driver's `commit` (driver.h), for a
                            family whose ranks commit alone */
  FT_WIRE_GATE_ENTER,    /* member -> leader: I entered creation call
                            `wave` on communicator `value` (gate.c) */
  FT_WIRE_GATE_DECISION, /* leader -> member: for that call, x[0] = 1
                            make it, -1 do not */
  /* Settling an abandoned run (settle.c; a family that rolls every rank
   * back), incarnation `inc`: */
  FT_WIRE_FEED,        /* rank -> peer: send me an empty message on the
                          abandoned communicator value (its id), x[0] = coll,
                          x[1] = my rank in it, x[2] = tag */
  FT_WIRE_FED,         /* peer -> rank: it is sent */
  FT_WIRE_SETTLED,     /* rank -> every other: what the abandoned runs left on
                          this rank is complete */
  FT_WIRE_STOPPED,     /* rank -> every other application rank: the run is
                          stopped and my gate is settled (recovery.c) */
  FT_WIRE_BELL,        /* a rank's courier -> the rank: a latency-only
                          message is due (ft_control_courier_start) */
  FT_WIRE_GENERIC_END, /* one past the generic kinds */
  /* A family's first kind (its header's enum starts here). */
  FT_WIRE_FAMILY_BASE = 200
};
_Static_assert((int)FT_WIRE_STORE == (int)FT_CONTROL_KIND_LIMIT,
               "the runtime's kinds start where the cores' end");
_Static_assert((int)FT_WIRE_GENERIC_END <= (int)FT_WIRE_FAMILY_BASE,
               "the generic kinds end before the families' begin");

/* The start line, at the end of the world's set-up in MPI_Init, on every
 * rank of the real MPI_COMM_WORLD, services included: a binomial gather of
 * empty messages to world rank 0 and their release down the same tree
 * (tag FT_TAG_START_LINE), neither counted nor seen by the protocol. Every
 * rank leaves it at a time set by the last one to reach it, whatever
 * MPI_Init did before (a world split or not, the trace's broadcast or not,
 * the shadow's construction); the application ranks count their run time
 * from there (completion_time_s counts from the first one out), the service
 * ranks theirs (scenario times, max_time). Returns the time world rank 0
 * released the line, which the release carries down: one instant that
 * every rank knows exactly, the failures' time 0 (fate.h; the dispatcher's
 * injections count from it too). */
double ft_control_start_line(void);

/* Tags on the control communicator: the generic ones, then a family's
 * own from FT_TAG_FAMILY_BASE, in its directory's header (their numbers
 * overlap, as the families' kinds do). */
enum {
  FT_TAG_CONTROL = 1, /* struct ft_wire */
  FT_TAG_IMAGE,       /* image bytes (rank <-> server) */
  FT_TAG_PADDING,     /* modelled image bytes (simulation only) */
  FT_TAG_PAYLOAD,     /* the bytes of ft_control_send_payload beyond
                         FT_CONTROL_INLINE */
  FT_TAG_SUMMARY,     /* the summary's reductions at MPI_Finalize
                         (runtime.c), among the application ranks */
  FT_TAG_START_LINE,  /* ft_control_start_line's messages */
  FT_TAG_FAMILY_BASE  /* a family's first tag */
};

/* The name of message kind `kind` for FTSIM_TRACE_CONTROL's lines and
 * error messages: a core's control kind by its family's name for it
 * (ft_control_name, lower case), a generic kind by control.c's (upper
 * case, its enum name without FT_WIRE_), a family's wire kind by its
 * driver's wire_name (upper case too). A static string, or NULL when no
 * one names `kind` (not a kind of this run's family). */
const char *ft_wire_name(const struct ft_runtime *rt, int kind);

/* Writes `kind`'s name (ft_wire_name), or "unknown kind N", into buf (of
 * `size` bytes, at least 32) and returns buf: for error messages. */
const char *ft_wire_label(const struct ft_runtime *rt, int kind, char *buf,
                          size_t size);

/* A core's control message as a wire message of incarnation `inc`. */
struct ft_wire ft_wire_of_control(const struct ft_control *c, int inc);

/* The CONTROL event that gives a core the message carried by `m`. */
struct ft_event ft_event_of_wire(const struct ft_wire *m);

/* Posts this rank's control receives (at MPI_Init, and after a message was
 * taken): the runtime's ctrl_req, which the waits watch, then, under a
 * protocol that recovers, control_window - 1 more behind it (the option;
 * at most one per other rank), all MPI_ANY_SOURCE on FT_TAG_CONTROL, so
 * that messages queued for this rank travel side by side. SimGrid's SMPI
 * 3.32 starts a message's transfer only when a receive matches it
 * (backend.h, ft_backend_transfer_waits_for_receive): with one receive
 * posted a wave's p - 1 markers reach a rank one latency after the other
 * (bt on 400 ranks of grid5000: 5.6 s of simulated time per wave),
 * where a real MPI sends such small messages eagerly; with more, they
 * cross the network together, and SimGrid's bandwidth sharing solves for
 * all of them at every event (the same run: about twice the CPU time with
 * 32). Messages are still taken in the order the receives matched them,
 * which is each sender's order (MPI's non-overtaking rule). Precondition:
 * ctrl_req is MPI_REQUEST_NULL (its message, if any, was taken). */
struct ft_runtime;
void ft_control_start(struct ft_runtime *rt);

/* Starts this rank's courier when control messages to application ranks
 * are latency-only (option control_timer, a protocol that recovers,
 * service ranks, SMPI), before the start line; a service rank has one only
 * when its family names it (driver.h, courier_service: message logging's
 * event loggers, which would otherwise take one MPI message per network
 * latency from their single posted receive). From then
 * on ft_control_send posts them to their receivers' couriers, due after
 * the route's latency and transfer time (ft_backend_message_time), in
 * each sender's order, and the receiver's waits take them when due (a
 * bell, FT_WIRE_BELL, wakes a rank blocked in MPI). SimGrid 3.32 spends
 * about 150 us of CPU time on each small MPI message between ranks (its
 * matching, a flow of the network model, and the linear scan of an
 * actor's activities that each completion makes: a coordinated wave
 * leaves p - 1 markers outstanding on every rank); a coordinated wave is
 * p(p - 1) of them. What the timer leaves out: the markers' share of the
 * links (contention among messages of 64 bytes) and SMPI's per-message
 * overheads (smpi/os, smpi/or, 0 by default). Unlike a single posted MPI
 * receive (control_window 1), the messages do not wait for their receive
 * to be posted: they travel as a real MPI's eager sends do. */
void ft_control_courier_start(struct ft_runtime *rt);

/* Blocks until the next control message for this rank and returns it,
 * taken (ft_control_take) but not handled: a latency-only message due,
 * or one of the control receive's (bells are skipped). For the loops that
 * wait for one message and drop the others (the end of the run). */
struct ft_wire ft_control_next(struct ft_runtime *rt);

/* Takes this rank's first latency-only message already due, if any, into
 * *m (taken as ft_control_take takes one: counted, its payload kept,
 * traced) and returns 1; 0 when none is due or the rank has no courier.
 * Never blocks. For a service rank with a courier, which takes what is due
 * before it blocks again and after each bell. */
int ft_control_take_due(struct ft_runtime *rt, struct ft_wire *m);

/* When this rank's first latency-only message not yet taken is due
 * (absolute, ft_backend_now's scale), or -1: none, or no courier. A
 * service waits until then at most (ft_backend_courier_next_due). */
double ft_control_next_due(const struct ft_runtime *rt);

/* The control receive (ctrl_req) completed: returns its message, after
 * moving the next posted receive into ctrl_req and posting one more (and
 * tracing the message, see ft_control_trace). */
struct ft_wire ft_control_take(struct ft_runtime *rt);

/* At the end of the run, on every rank (services included): receives and
 * drops every control message still on its way to this rank, so that none
 * is left unmatched when MPI shuts down (each rank counts what it sent to
 * and took from every other; an all-to-all tells what to expect). */
void ft_control_drain(struct ft_runtime *rt);
/* The last step before MPI_Finalize on every rank, services included:
 * ft_control_drain (a barrier too), so that no rank leaves while a message
 * it sent is still on its way (SimGrid fails the receiver's wait when the
 * sender is gone, and an unmatched message upsets its shutdown), then the
 * rank's synchronous control sends are completed (every one was received
 * by then: ft_control_send), the control receive is withdrawn and the
 * deferred core messages dropped.
 * A run without service ranks under a protocol that does not recover has
 * no control traffic: no drain. */
void ft_settle_control(struct ft_runtime *rt);
/* The very last step before PMPI_Finalize on every rank, services
 * included: a barrier on the control communicator, after which nothing is
 * in flight (a service finishes its image transfers after
 * ft_settle_control, and SimGrid fails a transfer whose peer has exited);
 * none in a run without control traffic (see ft_settle_control). */
void ft_control_last_barrier(struct ft_runtime *rt);

/* Drops the bytes of a dropped message `m`: those it carried (kept since
 * it was taken), or those that follow it on the control communicator (an
 * image and its modelled bytes, or what a family's kind carries: its
 * driver's wire_payload tells the tag), received so that their sender's
 * send completes: for the end of a run, where messages are dropped
 * unhandled. */
void ft_control_discard(struct ft_runtime *rt, const struct ft_wire *m);

/* Sends `m` to world rank `dest`; never blocks. From an application rank
 * to another, synchronously (MPI_Issend: not a detached send, see below),
 * keeping the request, completed by the rank's later interruptible waits
 * (ft_wait_any takes the oldest one along) or at the end of the run
 * (ft_settle_control, after the drain); from or to a service rank, which
 * always receives (its messages do not wait in a mailbox), as a standard
 * send.
 *
 * Why not MPI_Send: SimGrid 3.32 (src/kernel/activity/CommImpl.cpp,
 * CommImpl::detach and CommImpl::finish) keeps every detached
 * communication, which SMPI makes of any send under
 * smpi/send-is-detached-thresh, in one list of the whole simulation
 * (maestro's activities_) and removes each from it by a linear search when
 * it completes. A coordinated wave on p ranks puts p(p-1) markers there at
 * once (each waits in its receiver's mailbox until the receiver takes it):
 * 159,600 at 400 ranks, and every completion in the simulation, the
 * application's included, scanned them (issue 18). A synchronous send is
 * listed by its sender only. Its simulated cost is the detached send's:
 * the same mailbox, a transfer that starts when the receive matches, and
 * the send overhead (smpi/ois instead of smpi/os, both 0 by default). */
void ft_control_send(struct ft_runtime *rt, int dest, const struct ft_wire *m);

/* ft_control_send, for a message whose receiver acts on it only where it
 * waits for control messages alone (held at a safe point), never while it
 * is blocked in an MPI call: with `quiet` set, a latency-only message
 * rings no bell (backend.h, ft_backend_courier_post) and is taken, in its
 * order, with the next control message the receiver takes. A blocking
 * coordinated wave is p(p - 1) markers, and with a bell each (an MPI
 * message on the receiver's host links that wakes it out of the
 * application's wait) they were most of the wave's bells (issue 18: 30,643
 * of 63,489 bells at 144 ranks). Without a courier (control_timer=0, a
 * real MPI), the same as ft_control_send. */
void ft_control_send_quiet(struct ft_runtime *rt, int dest,
                           const struct ft_wire *m, int quiet);

/* Sends `m` with `bytes` of `data` (malloc'ed; the call takes it): in the
 * same message when at most FT_CONTROL_INLINE, else after it on
 * FT_TAG_PAYLOAD without blocking. The receiver takes the bytes when it
 * handles `m` (ft_control_payload). */
void ft_control_send_payload(struct ft_runtime *rt, int dest,
                             const struct ft_wire *m, void *data, size_t bytes);
/* The bytes of `m` (malloc'ed, `bytes` long): those it carried, the
 * oldest kept from its sender, or else received from the message that
 * follows it on FT_TAG_PAYLOAD. Aborts when what it carried is not `bytes`
 * long. */
void *ft_control_payload(struct ft_runtime *rt, const struct ft_wire *m,
                         size_t bytes);
/* Takes over `req`, a send still on its way on the control communicator,
 * and `data`, its malloc'ed buffer, known by `key`: freed when
 * ft_control_release_adopted says the send completed, or waited for at the
 * end of the run (ft_control_finish_payloads); never tested, as each
 * MPI_Test costs simulated time. */
void ft_control_adopt(struct ft_control_state *cs, MPI_Request req, void *data,
                      uint64_t key);
/* The adopted send `key` has completed (its receiver said so): completes
 * it (no time passes) and frees its buffer. Returns 1, or 0 when no
 * adopted send has that key. */
int ft_control_release_adopted(struct ft_control_state *cs, uint64_t key);
/* Completes the payload sends and the adopted ones (at the end of the
 * run). */
void ft_control_finish_payloads(struct ft_control_state *cs);

/* With FTSIM_TRACE_CONTROL set, prints a message sent (dir ">") or
 * received ("<") on stderr, with the time and its kind by name
 * (ft_wire_name): "[time] rank dir peer: kind NAME wave W inc I value V". */
void ft_control_trace(struct ft_runtime *rt, const char *dir, int peer,
                      const struct ft_wire *m);

/* This rank's failure time (fate.h) has come: from now on it does
 * nothing. It takes control messages and keeps them (held, above) until
 * the dispatcher's verdict comes: FAIL (handled: the rank rolls back or
 * restarts, and never returns here), or FINISH (the run ended or was
 * stopped before the failure was injected: handled, then the held
 * messages come back in order through the next waits). Each message held
 * is handled as if it arrived after the verdict, an order the network
 * could have given: only the dispatcher's own messages keep their order,
 * and those before its FAIL (a rollback or resumption of an earlier
 * failure) are superseded by that failure's. Returns at once when the
 * failure is not due, the rank rolls back with every other one (it
 * recovers and does not run its application: every rank that heard GO
 * must make the next world's collective creation, and FAIL reaches it
 * there as before; the failure is due again once it runs; a rank that
 * restarts alone, message logging, stands dead in its restart too), the
 * rank finished, or the protocol does not recover. Costs a look at the
 * clock (no MPI call). */
void ft_control_fate(struct ft_runtime *rt);

/* Sleeps `seconds` of modelled time the rank spends acting (a daemon's
 * delay, a copy), up to its failure time, where it stops
 * (ft_control_fate). */
void ft_control_sleep(struct ft_runtime *rt, double seconds);

/* Seconds until this rank's failure (fate.h), or -1: none known (for
 * ft_compute, which ends a computation there). */
double ft_control_fate_left(const struct ft_runtime *rt);

/* Whether this rank may still act in its trace: not past its failure time,
 * not standing dead at it, and not dead until its replacement starts
 * (ftsim check: a failed rank acts no more). */
int ft_control_acts(const struct ft_runtime *rt);

/* The control receive completed: takes its message (ft_control_take) and
 * handles it, or keeps it when this rank's failure time has come
 * (ft_control_fate). May not return (rollback). */
void ft_control_arrived(struct ft_runtime *rt);

/* Handles one control message that arrived (runtime side: see
 * recovery.c); may not return when it orders a rollback. */
void ft_control_handle(struct ft_runtime *rt, const struct ft_wire *m);

/* Waits until one of the n requests completes, handling control messages
 * meanwhile, and completing this rank's control sends already received
 * (ft_control_send), oldest first. Returns the index of the completed request
 * (set to MPI_REQUEST_NULL, its status in *status unless NULL), or
 * MPI_UNDEFINED when every request is MPI_REQUEST_NULL (*status untouched).
 * status->MPI_ERROR is the library's error for the request on both
 * backends (MPI_SUCCESS, or MPI_ERR_TRUNCATE for a truncated receive): a
 * real MPI returns it from MPI_Waitany, SMPI 3.32 leaves it in the status.
 * An error on the runtime's own requests stops the run. May not return
 * (rollback). */
int ft_wait_any(struct ft_runtime *rt, int n, MPI_Request reqs[],
                MPI_Status *status);

/* The application's MPI_Waitany as the runtime or a family makes it. */
typedef int (*ft_waitany_fn)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                             int *index, MPI_Status *status);

/* MPI_Waitsome as one completion per call, which MPI allows, through
 * `waitany` (interruptible under a recovering protocol): *outcount 1 with
 * indices[0] and statuses[0] (unless MPI_STATUSES_IGNORE) what it
 * completed, or MPI_UNDEFINED when every request is null. Returns waitany's
 * result, MPI_ERR_IN_STATUS instead of an error when the statuses are the
 * application's (a multiple-completion call's error is in the status:
 * MPI-3.1, 3.7.5). */
int ft_waitsome_one(struct ft_runtime *rt, ft_waitany_fn waitany, int n,
                    MPI_Request reqs[], int *outcount, int indices[],
                    MPI_Status statuses[]);

/* Waits until the control receive completes and handles the message. */
void ft_wait_control(struct ft_runtime *rt);

/* Non-blocking: handles a control message if one is there. Returns 1 if one
 * was handled. Costs an MPI_Test (SMPI injects a little simulated time). */
int ft_poll_control(struct ft_runtime *rt);

/* Waits for req (interruptibly under a recovering protocol); returns the
 * library's code for it (MPI_ERR_TRUNCATE for a truncated receive) on both
 * backends, as MPI_Wait does. May not return (rollback). */
int ft_wait_internal(struct ft_runtime *rt, MPI_Request *req,
                     MPI_Status *status);
/* Waits for all n requests (the driver's waitall when it has one); under a
 * recovering protocol, interruptibly, and returns MPI_ERR_IN_STATUS when a
 * request failed (each status's MPI_ERROR set), that request's code with
 * MPI_STATUSES_IGNORE, else MPI_SUCCESS. May not return (rollback). */
int ft_waitall_internal(struct ft_runtime *rt, int n, MPI_Request reqs[],
                        MPI_Status statuses[]);

#endif /* FT_CONTROL_H */
