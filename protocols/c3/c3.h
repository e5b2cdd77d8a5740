/* Protocol `c3`: application-level, non-blocking coordinated checkpointing
 * (Bronevetsky, Marques, Pingali, Stodghill: c3-collectives, section 3, the
 * point-to-point protocol), at the application's potential checkpoint
 * locations (ft_snapshot: SAFE_POINT events).
 *
 * Any-call mode (ft_core_config.any_call; issue 17) changes nothing in the
 * core: it is a replay's (sim/replay), where the replay calls ft_snapshot
 * before every MPI call it makes, so that every call is a potential
 * checkpoint location. Section 2.2: "a system-level checkpoint may be
 * taken at any time during a program's execution, while an
 * application-level checkpoint can only be taken when a program executes
 * PotentialCheckpoint calls"; a replayed rank's state is its position in
 * the trace and its pending requests, which its image holds, so each call
 * is such a location, and the protocol stands unchanged: a send pending at
 * the checkpoint was counted (SEND_COUNT) and is late or received before
 * its receiver's checkpoint, a receive pending there is delivered after it
 * (late: logged; or sent again by a re-executing sender).
 *
 * The core never calls MPI, SimGrid or a clock, never allocates and owns no
 * static mutable state. Its ops table is ft_protocol_c3 (family
 * FT_FAMILY_PIGGYBACK); the functions below only read a state initialised
 * by ft_protocol_c3.init, for tests and traces.
 *
 * An epoch (section 3.1), as the core plays it; rank 0 is the initiator:
 *  1. rank 0, at its deadline, sends PLEASE_CHECKPOINT to every other rank
 *     and is itself asked to checkpoint ("Phase #1");
 *  2. a rank asked to checkpoint takes its local checkpoint at its next
 *     SAFE_POINT: CAPTURE (index = the safe point, wave = its new epoch),
 *     epoch + 1, amLogging on, message ids restart, and it sends every
 *     other rank a SEND_COUNT: the messages it sent it in the epoch just
 *     closed ("mySendCount", section 3.4). Early messages it received
 *     before (FT_UPDATE_EARLY) are its suppress list;
 *  3. while logging, a late message (sent in the previous epoch) gets
 *     RECORD (index: its number among that peer's late messages, 1, 2...)
 *     and a wildcard receive's match gets LOG (FT_LOGGED_MATCH, id = the
 *     receive's number since the checkpoint): "a log of (i) every late
 *     message it receives, and (ii) the result of every non-deterministic
 *     decision it makes" ("Phase #2");
 *  4. once every SEND_COUNT is in and every message they count has been
 *     received, the rank tells rank 0 READY_TO_STOP ("readyToStopLogging");
 *  5. rank 0, with every rank ready, sends STOP_LOGGING ("Phase #3"); a
 *     rank stops logging on it, or on a message of its epoch whose sender
 *     stopped ("Phase #4"): STORE (keep: every late message recorded), and
 *     once the image is stored, STOPPED_LOGGING to rank 0;
 *  6. rank 0, with every rank stopped, COMMITs the epoch and arms the next
 *     deadline `period` seconds later.
 *
 * Every APP_SEND gets PASS and PIGGYBACK (update.piggyback: epoch,
 * amLogging, id), or, re-executing after a ROLLBACK, SUPPRESS for a send a
 * receiver's checkpoint holds. DELIVERED reads event.piggyback: an early
 * message (sender's epoch ahead) gets EARLY, a late one RECORD. APP_RECV
 * gets PASS with update.id = the receive's number since the checkpoint,
 * and REPLAY (the logged source and tag) for a wildcard receive whose match
 * was logged. Recovery (ROLLBACK, wave = the committed epoch): every rank
 * restarts in that epoch, not logging; the runtime delivers the late
 * messages from the restored log and hands the core, in event.logged, the
 * sends to suppress (FT_LOGGED_SUPPRESS), the late messages of its log
 * (FT_LOGGED_DELIVERY) and the decisions to replay (FT_LOGGED_MATCH). When
 * all are used up the rank tells rank 0 RECOVERED; rank 0 starts no
 * checkpoint before every rank did, for message ids and counts are per
 * epoch: a checkpoint taken with suppressed sends or logged messages still
 * to come would lose them (found by specs/c3.pml: a rank that checkpointed
 * again before re-executing a suppressed send sent it twice). */
#ifndef FT_C3_H
#define FT_C3_H

#include "../ft_protocol.h"

/* C3's control kinds (the piggyback family's namespace, see struct
 * ft_control), in the order of an epoch; traced as the names in
 * ft_protocol_c3.controls. */
enum ft_c3_control {
  FT_C3_CONTROL_PLEASE_CHECKPOINT = 1, /* rank 0 -> all: take a local
                                          checkpoint at your next potential
                                          location ("please-checkpoint") */
  FT_C3_CONTROL_SEND_COUNT,            /* rank -> rank: value = messages I
                                          sent you in the epoch before
                                          `wave` ("send-count") */
  FT_C3_CONTROL_READY_TO_STOP,         /* rank -> rank 0: every late message
                                          of `wave` received
                                          ("ready-to-stop") */
  FT_C3_CONTROL_STOP_LOGGING,          /* rank 0 -> all: every rank is
                                          beyond the recovery line
                                          ("stop-logging") */
  FT_C3_CONTROL_STOPPED_LOGGING,       /* rank -> rank 0: my log of `wave`
                                          is stored ("stopped-logging") */
  FT_C3_CONTROL_RECOVERED,             /* rank -> rank 0: after a ROLLBACK
                                          to `wave`, my suppressed sends,
                                          logged late messages and
                                          decisions are used up
                                          ("recovered") */
  FT_C3_CONTROL_COUNT
};

/* The names of these kinds in traces, indexed by kind (element 0 unused):
 * the ops' `controls`. */
extern const char *const ft_c3_controls[FT_C3_CONTROL_COUNT];

/* The core's ops: name "c3", family FT_FAMILY_PIGGYBACK. */
extern const struct ft_protocol_ops ft_protocol_c3;

/* Where a rank stands in the current global checkpoint (section 3.2). */
enum ft_c3_phase {
  FT_C3_IDLE,      /* no checkpoint in progress for this rank: beyond the
                      stop-log line of the last one */
  FT_C3_ASKED,     /* asked to checkpoint: behind the recovery line */
  FT_C3_LOGGING,   /* checkpointed, logging: behind the stop-log line */
  FT_C3_STORING,   /* stopped logging, log on its way to the server */
  FT_C3_COMMITTED, /* rank 0: own log stored, waiting for the others */
};

/* The most requests one completion call (MPI_Testsome) may report while
 * logging: COMPLETION with more is an error (step returns -1). */
enum { FT_C3_MAX_COMPLETIONS = 64 };

/* Returns the rank's phase. */
enum ft_c3_phase ft_c3_phase(const void *state);

/* Returns the rank's epoch: 0 at the start, + 1 at each local checkpoint;
 * after a ROLLBACK, the committed epoch rolled back to. */
int ft_c3_epoch(const void *state);

/* Returns 1 while the rank is logging (amLogging), 0 otherwise. */
int ft_c3_logging(const void *state);

/* Returns 1 while the rank recovers after a ROLLBACK: suppressed sends,
 * late messages of its log or logged decisions still to come; 0
 * otherwise. */
int ft_c3_replaying(const void *state);

/* ---- Collectives (c3-collectives, sections 4 and 5) ------------------ *
 *
 * A collective call the runtime carries as one unit is told to step as
 * FT_EVENT_COLLECTIVE: index 0 before the call's exchange, which numbers it
 * since the checkpoint (update.id) and gives the bits it shows
 * (update.piggyback: epoch, amLogging, that number); index 1 when the
 * call's decision below says stop logging (STORE, as a message from a
 * stopped rank would). After a ROLLBACK, a call named by an FT_LOGGED_COLL
 * entry (its result logged by this rank, or held by a root's suppress
 * list) gets REPLAY and counts among the entries used before RECOVERED. */

/* The data-flow classes of section 4. */
enum ft_c3_coll_class {
  FT_C3_ALL_TO_ALL,      /* allgather, alltoall, allreduce... (Figure 5) */
  FT_C3_SINGLE_RECEIVER, /* gather, reduce... (Figure 6) */
  FT_C3_SINGLE_SENDER,   /* bcast, scatter... (Figure 7) */
  FT_C3_BARRIER,         /* barrier, with its potential checkpoint
                            (Figure 8) */
};

/* One rank's view of a collective call after the protocol's exchange
 * (separate collectives or bits piggybacked on the data): `bits[p]` is
 * participant p's epoch and amLogging bit as the class lets this rank see
 * them: every participant's for ALL_TO_ALL and BARRIER, and for the root
 * of SINGLE_RECEIVER; the root's alone (bits[root]) for a non-root of
 * SINGLE_SENDER; none for the other roles. Ranks are in the
 * communicator. */
struct ft_c3_coll {
  enum ft_c3_coll_class cls;
  int me, root, ranks; /* root: -1 for ALL_TO_ALL and BARRIER */
  const struct ft_piggyback *bits;
};

/* What the call's protocol logic decides for this rank (Figures 5-8). */
struct ft_c3_coll_decision {
  int log_result;   /* recoveryLog.save(recv data): replay it at recovery */
  int reexec;       /* reexecList.save(comm): join the root's re-execution
                       at recovery with dummy receive buffers */
  int stop_logging; /* amLogging = false */
  int checkpoint;   /* Figure 8: take a checkpoint before the barrier */
  int n_suppress;   /* suppressList.save(comm, p) for p in suppress[0..n) */
};

/* Decides what a collective call means for the rank whose view is `in`,
 * as Figures 5-8 do, from its own epoch and amLogging bit (`in->bits[me]`,
 * also when the class shows it nothing else). Writes the participants
 * whose call is suppressed at recovery to suppress[0..ranks) (root of
 * SINGLE_RECEIVER only). Pure: reads nothing else, keeps nothing. Returns
 * 0, or -1 for a view out of range (me or root outside 0..ranks, NULL
 * bits). */
int ft_c3_collective(const struct ft_c3_coll *in,
                     struct ft_c3_coll_decision *out, int *suppress);

#endif /* FT_C3_H */
