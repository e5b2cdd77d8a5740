/* Protocol `vcl`: non-blocking coordinated checkpointing after Chandy and
 * Lamport (MPICH-Vcl, from pcl-vs-vcl-sc06, sections 3 and 4.1), at
 * application safe points, with a checkpoint scheduler.
 *
 * The core never calls MPI, SimGrid or a clock, never allocates and owns no
 * static mutable state. Its ops table is ft_protocol_vcl (in the registry);
 * the functions below only read a state initialised by ft_protocol_vcl.init,
 * for tests and traces.
 *
 * Two roles. config.rank in [0, ranks) is an application rank; config.rank
 * == ranks is the checkpoint scheduler, which the runtime runs on a service
 * rank (ft_protocol_has_scheduler) and feeds only TIMER, CONTROL and ROLLBACK.
 *
 * Every rank of a wave checkpoints at the same safe-point index K (the
 * application's collectives run between safe points), and finds K without
 * stopping the application: markers carry proposals. A wave, as the cores
 * play it (every message goes through update.sends):
 *  1. the scheduler, at its deadline, sends MARKER (value 0) to every rank;
 *  2. a rank's first marker of the wave (the scheduler's or a peer's)
 *     makes it propose p = its next safe point and send MARKER (value p) to
 *     every other rank; K = the largest proposal, known once every peer's
 *     marker is in;
 *  3. a rank that passes p before it knows K RETAINs a copy of its state
 *     there, and is HELD at p + 1 until it knows K (K is p or later, so the
 *     rank never needs a state older than the one it retained);
 *  4. at K (or, when K == p, from the retained copy) the rank CAPTUREs its
 *     checkpoint and sends CUT (value = application messages it sent to
 *     that peer before K) to every other rank;
 *  5. messages delivered after the capture and numbered at most the
 *     sender's CUT are the channel state; the rank RECORDs every delivery
 *     that may turn out to be one, and STOREs the image with the ranges to
 *     keep once every channel is closed (its CUT is in and every message it
 *     counts has been delivered);
 *  6. when its image is stored the rank sends CHECKPOINT_DONE to the
 *     scheduler, which COMMITs once every rank is done and arms the next
 *     deadline `period` seconds later.
 *
 * Messages are counted per peer from the start or the last ROLLBACK: the
 * n-th DELIVERED from a peer is its message number n, the n-th APP_SEND to
 * a peer is mine. The counts rely on two properties of the runtime: the
 * messages of one sender to one receiver are delivered in the order they
 * were sent, and both sides count the same messages after a ROLLBACK: the
 * channel state replayed there counts on both sides (the sender re-sends
 * it as APP_SENDs, the receiver gets it as DELIVEREDs, before any new
 * message of that channel) or on neither. Control messages between two
 * ranks (the scheduler included) arrive in the order they were sent (MPI's
 * non-overtaking rule on the runtime's communicator): a peer's MARKER comes
 * before its CUT, the scheduler's markers come in wave order.
 *
 * Update flags: APP_SEND and APP_RECV get PASS; DELIVERED gets PASS, with
 * RECORD (index = the message's number) when it may be channel state, and
 * STORE when it closes the last channel. A SAFE_POINT gets exactly one of
 * PASS or HOLD; PASS may come with RETAIN, or with CAPTURE (index = this
 * safe point) and possibly STORE. A CONTROL step never carries PASS or
 * HOLD; it may carry RELEASE, CAPTURE (index = the held safe point or the
 * retained one), STORE and, on the scheduler, COMMIT. update.wave names the
 * wave of CAPTURE, STORE and COMMIT; update.keep (n_keep ranges, one per
 * peer with channel state, in rank order) comes with STORE. A rank's own
 * channel counts as a peer: messages it sent itself before K and delivered
 * after K are channel state too.
 *
 * Any-call mode (ft_core_config.any_call; pcl-vs-vcl-sc06, section 3,
 * Figure 1; no application contract, no proposal, no K, no hold, no CUT):
 *  1. the scheduler's MARKER, or a peer's, is a rank's first of the next
 *     wave: the rank checkpoints at the MPI call it is in, or at its next
 *     CALL (phase FT_VCL_DUE until then): CAPTURE (index = the call) and
 *     FLUSH in one update, and a MARKER to every other rank whose value
 *     counts the application messages it sent on that channel before;
 *  2. before its capture, an ARRIVED message numbered past its channel's
 *     marker gets QUEUE (released by the FLUSH, never in the image);
 *  3. after the capture, an ARRIVED message that precedes its channel's
 *     marker (numbered past the arrivals in the image, at most the
 *     marker's value) gets PASS with RECORD (index = its arrival number on
 *     the channel, counted since the last ROLLBACK or the start); the
 *     others get PASS;
 *  4. with every marker in and every message they count arrived, STORE
 *     (keep: per peer, the arrival numbers that are channel state);
 *  5. IMAGE_STORED, CHECKPOINT_DONE, COMMIT as in steps 5-6 above.
 * After a ROLLBACK the runtime restores, per channel, the image's arrived
 * messages then the kept ones as arrived (receivable, not fed as ARRIVED),
 * before any new message: nothing is sent again. */
#ifndef FT_VCL_H
#define FT_VCL_H

#include "../ft_protocol.h"

/* Vcl's control kinds (the channel-state family's namespace, see struct
 * ft_control); traced as the names in ft_protocol_vcl.controls. The
 * scheduler is rank `ranks`. */
enum ft_vcl_control {
  FT_VCL_CONTROL_MARKER = 1,      /* scheduler -> rank: wave `wave` is due
                                     (value 0); rank -> rank: my marker of
                                     `wave`, value = my proposal ("marker") */
  FT_VCL_CONTROL_CUT,             /* rank -> rank: I took my checkpoint of
                                     `wave`; value = application messages I
                                     sent you before it ("cut") */
  FT_VCL_CONTROL_CHECKPOINT_DONE, /* rank -> scheduler: my image of `wave`
                                     is stored ("done") */
  FT_VCL_CONTROL_COUNT
};

/* The names of these kinds in traces, indexed by kind (element 0 unused):
 * the ops' `controls`. */
extern const char *const ft_vcl_controls[FT_VCL_CONTROL_COUNT];

/* The core's ops: name "vcl", family FT_FAMILY_CHANNEL_STATE. */
extern const struct ft_protocol_ops ft_protocol_vcl;

/* Where a core stands in the current wave. */
enum ft_vcl_phase {
  FT_VCL_IDLE,      /* no wave in progress (scheduler: none since the
                       commit) */
  FT_VCL_NOTIFIED,  /* proposal sent, K not known yet */
  FT_VCL_KNOWN,     /* K known, safe point K not reached yet */
  FT_VCL_RECORDING, /* captured at K, some channel still open */
  FT_VCL_STORING,   /* image sent to the server, waiting for IMAGE_STORED */
  FT_VCL_WAITING,   /* scheduler: markers sent, waiting for every
                       CHECKPOINT_DONE */
  FT_VCL_DUE,       /* any-call mode: a marker of the wave arrived, the
                       rank checkpoints at the MPI call it enters next */
};

/* Returns the phase of the core. */
enum ft_vcl_phase ft_vcl_phase(const void *state);

/* Returns the wave the core is in, or the last one it took part in (0
 * before the first; after a ROLLBACK, the wave rolled back to). */
int ft_vcl_wave(const void *state);

/* Returns this rank's proposal for the current wave (the safe point after
 * the one it had passed when it first heard of the wave), or 0 when no wave
 * is in progress and on the scheduler. */
int64_t ft_vcl_proposal(const void *state);

/* Returns the safe-point index K at which the current wave checkpoints, or
 * 0 while the rank does not know it (or no wave is in progress, or on the
 * scheduler). */
int64_t ft_vcl_cut_at(const void *state);

/* Returns the safe-point index at which the application is held, or 0 when
 * it runs. */
int64_t ft_vcl_held(const void *state);

/* Returns 1 when the next message delivered from `peer` would be RECORDed
 * as possible channel state: the rank has captured (or passed its proposal
 * and may capture the retained copy), and `peer`'s channel is not known to
 * be closed. Returns 0 otherwise, and for a peer outside the world. */
int ft_vcl_recording(const void *state, int peer);

#endif /* FT_VCL_H */
