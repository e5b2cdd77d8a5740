/* Protocol `pcl`: blocking coordinated checkpointing (MPICH2-Pcl, from
 * pcl-vs-vcl-sc06 and pcl-vs-vcl-fgcs08, section 3), at application safe
 * points (below), or at any MPI call (ft_core_config.any_call; at the end
 * of this comment).
 *
 * The core never calls MPI, SimGrid or a clock, never allocates and owns no
 * static mutable state. Its ops table is ft_protocol_pcl (in the registry);
 * the functions below only read a state initialised by ft_protocol_pcl.init,
 * for tests and traces.
 *
 * A wave, as the core plays it (every message goes through update.sends):
 *  1. rank 0, at its deadline, sends WAVE_REQUEST to every other rank; it
 *     never stops before K is known: its position is the last safe point
 *     it passed;
 *  2. every other rank answers POSITION (its safe-point index) and stops at
 *     its next safe point until it learns where the wave is;
 *  3. rank 0 sends WAVE_AT K = max(positions) + 1;
 *  4. at safe point K a rank sends its MARKER to every other rank and is
 *     held there until it has every other rank's marker: then CHECKPOINT and
 *     RELEASE;
 *  5. when its image is stored the rank sends CHECKPOINT_DONE to rank 0;
 *  6. rank 0, with every image stored, COMMITs and arms the next deadline
 *     `period` seconds later.
 *
 * Update flags: APP_SEND, APP_RECV and DELIVERED always get PASS (Pcl never
 * blocks one operation: the application is frozen at the safe point). A
 * SAFE_POINT gets exactly one of PASS or HOLD, with CHECKPOINT beside PASS
 * when the rank checkpoints at once. Other events may carry RELEASE (a held
 * rank goes on), CHECKPOINT (taken while held, always with RELEASE) and,
 * on rank 0, COMMIT; they never carry PASS or HOLD.
 *
 * Any-call mode (pcl-vs-vcl-fgcs08, section 3, Figure 2; no application
 * contract, messages may be in flight at the cut):
 *  1. rank 0, at its deadline, and every other rank at its first MARKER of
 *     the next wave, sends its MARKER to every other rank (value = the
 *     application messages it sent on that channel before it) and freezes
 *     its channels: every APP_SEND to another rank gets DEFER until its
 *     checkpoint;
 *  2. after the marker of `peer` arrived, an ARRIVED message of peer
 *     numbered past the marker's value gets QUEUE (the delayed receive
 *     queue); earlier ones get PASS;
 *  3. when every marker is in, every message counted by them has arrived
 *     and the rank is in an MPI call (CALL without CALL_END yet), the core
 *     answers CHECKPOINT and FLUSH in that step: on the CALL, the ARRIVED
 *     or the MARKER that completes the condition;
 *  4. IMAGE_STORED, CHECKPOINT_DONE and COMMIT as in steps 5-6 above.
 * WAVE_REQUEST, POSITION and WAVE_AT are not used (a CONTROL of theirs is
 * an error); SAFE_POINT passes. CALL, CALL_END, APP_RECV and DELIVERED get
 * PASS; APP_SEND gets PASS or DEFER; ARRIVED gets PASS or QUEUE; any of
 * CALL, ARRIVED, CONTROL, TIMER may add CHECKPOINT with FLUSH. */
#ifndef FT_PCL_H
#define FT_PCL_H

#include "../ft_protocol.h"

/* Pcl's control kinds (the coordinated family's namespace, see struct
 * ft_control), in the order of a wave; traced as the names in
 * ft_protocol_pcl.controls. */
enum ft_pcl_control {
  FT_PCL_CONTROL_WAVE_REQUEST = 1, /* rank 0 -> all: a wave is due; report
                                      your safe-point index, stop before
                                      the next ("wave-request") */
  FT_PCL_CONTROL_POSITION,         /* all -> rank 0: value = my safe-point
                                      index ("position") */
  FT_PCL_CONTROL_WAVE_AT,          /* rank 0 -> all: checkpoint wave `wave`
                                      at safe point value ("wave-at") */
  FT_PCL_CONTROL_MARKER,           /* rank -> rank: my marker of wave
                                      `wave` ("marker") */
  FT_PCL_CONTROL_CHECKPOINT_DONE,  /* rank -> rank 0: my image of `wave` is
                                      stored ("done") */
  FT_PCL_CONTROL_COUNT
};

/* The names of these kinds in traces, indexed by kind (element 0 unused):
 * the ops' `controls`. */
extern const char *const ft_pcl_controls[FT_PCL_CONTROL_COUNT];

/* The core's ops: name "pcl", family FT_FAMILY_COORDINATED. */
extern const struct ft_protocol_ops ft_protocol_pcl;

/* Returns the wave the rank is in, or the last one it took part in (0
 * before the first; after a ROLLBACK, the wave rolled back to). */
int ft_pcl_wave(const void *state);

/* Returns the safe-point index K at which the current wave checkpoints, or
 * 0 while the rank does not know it (or no wave is in progress). */
int64_t ft_pcl_wave_at(const void *state);

/* Returns the safe-point index at which the application is held, or 0 when
 * it runs. */
int64_t ft_pcl_held(const void *state);

/* Returns 1 when the marker of `peer` for the current wave arrived before
 * this rank sent its own: the channel peer -> rank is delayed until the
 * rank's checkpoint (pcl-vs-vcl-fgcs08, section 3). Any-call mode: when
 * the marker of `peer` is in and this rank has not checkpointed yet (its
 * later messages are QUEUEd). Returns 0 otherwise, and for a peer outside
 * the world. */
int ft_pcl_channel_delayed(const void *state, int peer);

/* Any-call mode: returns 1 while this rank's channels are frozen (markers
 * sent, checkpoint not taken: its sends are DEFERred); 0 otherwise, and
 * always in safe-point mode. */
int ft_pcl_frozen(const void *state);

#endif /* FT_PCL_H */
