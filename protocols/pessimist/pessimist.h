/* Protocols `pessimist` and `v2`: pessimistic sender-based message logging
 * with uncoordinated checkpoints (Open MPI-V's Vprotocol pessimist, from
 * pessimist-openmpi-v, sections 2.3 and 3.2), and the classical model of
 * MPICH-V2 it is compared with (same paper, section 2.2).
 *
 * The core never calls MPI, SimGrid or a clock, never allocates and owns no
 * static mutable state. Its ops tables are ft_protocol_pessimist and
 * ft_protocol_v2 (in the registry).
 *
 * What the core decides (the runtime does the rest: sender-based copies,
 * the event logger's traffic, carrying out the replayed outcomes):
 *  - ids. "Each process has a local Lamport clock, used to mark events;
 *    during Send, iSend, Recv, iRecv and Start, every request receives the
 *    clock stamp as a unique identifier" (section 3.2): APP_SEND, APP_RECV,
 *    PROBED and COMPLETION each take the next clock value (update.id).
 *  - which events are logged. pessimist, the refined model (section 2.3):
 *    "Only non-deterministic events (non-deterministic Matching due to ANY
 *    sources; non-deterministic Matching due to probe-matching events;
 *    non-deterministic completion due to WaitSome, WaitAny, TestAll, Test,
 *    TestAny and TestSome) are logged": a DELIVERED with `wildcard` logs a
 *    MATCH, a PROBED that found a message logs a PROBE, a COMPLETION that
 *    completed requests logs one COMPLETION per request. Deterministic
 *    receptions (named source and tag, completed by Wait, Waitall, Recv)
 *    log nothing. v2, the classical model: "every message generates an
 *    event" and goes through an intermediate copy: every DELIVERED logs a
 *    DELIVERY (a MATCH for a wildcard one) and says COPY; the
 *    non-deterministic calls are logged as by pessimist, so that replay
 *    reproduces them too.
 *  - lazy logging of failures: "only one event is created for all the
 *    consecutive failed NDD. If a send operation occurs, any pending NDD
 *    have to be flushed to the EL. If a NDD succeeds, any pending lazy NDD
 *    is discarded": a probe or completion call that found nothing is
 *    remembered, and becomes one FAILED event only when a send comes first.
 *  - the pessimistic rule: "there is a transactional acknowledgement
 *    protocol to ensure that every event is safely logged before any MPI
 *    send can progress". An APP_SEND ships the events not yet shipped
 *    (LOG, in batches of config.batch) and, while any shipped event is not
 *    acknowledged (CONTROL LOGGED), says WAIT_LOGGED: the runtime holds the
 *    send until a step says RELEASE. Every APP_SEND says SENDER_LOG.
 *  - checkpoints, uncoordinated: at the first safe point `period` seconds
 *    after the last commit (or the start), CHECKPOINT of this rank's next
 *    checkpoint number (update.wave) with update.id = the clock; the
 *    events not yet shipped go with it (LOG). Once IMAGE_STORED came and
 *    every event shipped before the checkpoint is acknowledged: COMMIT,
 *    for this rank alone.
 *  - restart: RESTART (index = events the logger holds, id = the last
 *    one's id, logged[0..n_logged) = the events themselves, sorted by id)
 *    resets the clock to 0 for main()'s new run; events with ids up to
 *    that one are replayed, not logged again. ROLLBACK then restores the
 *    checkpoint's clock (event.id) at its safe point.
 *  - the replayed outcomes (section 3.2), from the events RESTART handed
 *    over, as REPLAY with update.replay: a wildcard APP_RECV below the
 *    horizon with a logged MATCH (or v2's DELIVERY) must match its source
 *    and tag ("every promiscuous source is replaced by the well specified
 *    source of the event"); an APP_PROBE (asked before the probe, about
 *    the id its PROBED will take) below the horizon finds the logged
 *    message, or nothing when it has no event; an APP_COMPLETION below the
 *    horizon completes the logged requests, in their logged order, or none
 *    ("NDD whose clock is lower than the first NDD event in the log have
 *    to return no request completed"). Past the horizon, no REPLAY: the
 *    call runs live and its outcome comes back as PROBED or COMPLETION.
 *
 * Any-call mode (ft_core_config.any_call; issue 16, item 3: "each rank
 * checkpoints on its own at any call; a failed rank restarts alone from
 * its position"). Both cores accept it; what changes is the runtime's: in
 * a replay every MPI call is a SAFE_POINT, so a checkpoint may be taken
 * while the rank has sends and receives pending, and the image holds
 * them. The core sees no CALL, CALL_END or ARRIVED (step error, as in
 * safe-point mode) and decides as above, with one addition. After the
 * restore (RESTART, then ROLLBACK with the checkpoint's clock) the runtime
 * posts again every receive the image held pending, before anything new,
 * as APP_RECV with `id` = the id that receive took before the checkpoint
 * (at most the restored clock): it takes no new id, and a wildcard one
 * below the horizon with a logged MATCH (or v2's DELIVERY) gets REPLAY
 * with the logged source and tag, as a new one would ("every promiscuous
 * source is replaced by the well specified source of the event
 * corresponding to the request identifier", section 3.2). Its DELIVERED
 * carries that id, logged or not as usual. A pending send needs nothing
 * from the core: its payload is in the sender-based log the image holds
 * ("every outgoing message is saved in the sender's volatile memory",
 * section 2.1) and the wire had it before the checkpoint; the runtime
 * neither sends it again nor loses it. In safe-point mode an APP_RECV with
 * `id` != 0 is a step error.
 *
 * Update flags: APP_SEND gets PASS | SENDER_LOG, maybe LOG and
 * WAIT_LOGGED; APP_RECV, PROBED, COMPLETION get PASS (and LOG when the
 * batch is full), APP_RECV maybe REPLAY; APP_PROBE and APP_COMPLETION get
 * PASS, maybe REPLAY; DELIVERED gets PASS, maybe COPY and LOG; SAFE_POINT gets
 * PASS, maybe CHECKPOINT and LOG; a CONTROL LOGGED step may say RELEASE
 * and COMMIT; IMAGE_STORED may say COMMIT. */
#ifndef FT_PESSIMIST_H
#define FT_PESSIMIST_H

#include <stdint.h>

#include "../ft_protocol.h"

/* Message logging's control kinds (the family's namespace, see struct
 * ft_control), shared by pessimist and v2; traced as the names in their
 * ops.controls. The runtime's event logger sends them. */
enum ft_ml_control {
  FT_ML_CONTROL_LOGGED = 1, /* event logger -> rank: value = events of
                               yours I hold (every one shipped so far, when
                               it equals the count the rank shipped)
                               ("logged") */
  FT_ML_CONTROL_COUNT
};

/* The names of these kinds in traces, indexed by kind (element 0 unused):
 * the ops' `controls`. */
extern const char *const ft_ml_controls[FT_ML_CONTROL_COUNT];

extern const struct ft_protocol_ops ft_protocol_pessimist;
extern const struct ft_protocol_ops ft_protocol_v2;

/* Accessors for tests and traces (a state initialised by either table). */
int64_t ft_pessimist_clock(const void *state);
int64_t ft_pessimist_shipped(const void *state); /* events shipped */
int64_t ft_pessimist_acked(const void *state);   /* events acknowledged */
int ft_pessimist_waiting(const void *state);     /* a send waits for acks */

#endif /* FT_PESSIMIST_H */
