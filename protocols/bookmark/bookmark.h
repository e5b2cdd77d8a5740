/* Protocol `bookmark`: coordinated checkpointing by draining the channels,
 * as LAM/MPI's checkpoint/restart does with BLCR (lam-mpi-blcr, sections
 * 3.1 and 4.2, Figures 2 and 9), at application safe points (below), or
 * at any MPI call (ft_core_config.any_call; at the end of this comment).
 *
 * The core never calls MPI, SimGrid or a clock, never allocates and owns no
 * static mutable state. Its ops table is ft_protocol_bookmark (in the
 * registry, family FT_FAMILY_DRAIN); the functions below only read a state
 * initialised by ft_protocol_bookmark.init, for tests and traces.
 *
 * "A bookmark is a pair of integers containing the number of bytes it has
 * sent to and received from each peer" (section 4.2): the core counts, per
 * peer and since the start or the last ROLLBACK, the messages and bytes of
 * every APP_SEND and DELIVERED (any-call mode: ARRIVED). The BOOKMARK
 * control carries the messages, and the drain matches messages: LAM counts
 * bytes because its TCP RPI reads a byte stream, where only the byte count
 * tells a message boundary; the runtime sees whole messages, and a
 * truncated receive takes a whole message off the wire while it delivers
 * fewer bytes than were sent (tests/runtime/err_check: 16 B sent, 8 B in
 * DELIVERED), which a byte match would wait for forever. The bytes are kept
 * beside the messages for traces and tests.
 *
 * A wave at safe points (every message goes through update.sends):
 *  1. rank 0, at its deadline, sends REQUEST to every other rank ("mpirun
 *     propagates the checkpoint request to each MPI process", section
 *     3.1); it never stops before K is known: its position is the last
 *     safe point it passed;
 *  2. every other rank answers POSITION (its safe-point index) and stops
 *     at its next safe point until it learns where the wave is;
 *  3. rank 0 sends AT K = max(positions) + 1 (as pcl agrees on K);
 *  4. at safe point K a rank is held and exchanges its "sent" bookmarks in
 *     the staggered all-to-all of Figure 2: at step i (1 .. ranks - 1) it
 *     sends BOOKMARK (value = what it sent to that peer) to rank +
 *     i mod ranks, then waits for the one of rank - i mod ranks before step
 *     i + 1 ("starting with the next higher-ranked peer ... in increasing
 *     order of ranks in a circular fashion until each has exchanged this
 *     information with its immediate lower-ranked peer", section 3.1);
 *  5. with every bookmark in, it drains: it stays held until what it
 *     received from each peer equals that peer's "sent" bookmark (Figure 9,
 *     step 2), then CHECKPOINT and RELEASE: the channels are empty;
 *  6. when its image is stored the rank sends DONE to rank 0, which, with
 *     every image stored, COMMITs and arms the next deadline `period`
 *     seconds later (as pcl).
 * Under bookmark sim/ft.h lets a message be in flight across a safe
 * point: a DELIVERED while held at K counts towards the drain of step 5
 * (the in-memory cluster delivers scripted messages to a held rank; the
 * runtime's drain family receives them off the wire into its drain buffer
 * while ft_bookmark_draining says so: sim/runtime/drain/drain.c). A
 * program that sends nothing across K is drained when the last bookmark
 * arrives.
 *
 * Update flags: APP_SEND, APP_RECV and DELIVERED always get PASS. A
 * SAFE_POINT gets exactly one of PASS or HOLD, with CHECKPOINT beside PASS
 * when the rank checkpoints at once (every bookmark in, drained). Other
 * events may carry RELEASE (always with CHECKPOINT at K, or alone for a
 * rank held before K) and, on rank 0, COMMIT.
 *
 * Any-call mode (no application contract; messages may be in flight at the
 * cut, and the drain is what takes them off the wire):
 *  1. rank 0, at its deadline, sends REQUEST to every rank; a rank enters
 *     the wave at its deadline (rank 0) or at the first REQUEST or BOOKMARK
 *     of the next wave: it notes the messages sent on each channel (its
 *     "sent" bookmarks), holds every later APP_SEND to another rank (DEFER:
 *     "MPI send requests are prevented from making progress so that no
 *     more messages are sent on the wire", section 4.2) and starts the
 *     staggered exchange of step 4 above;
 *  2. every application message that ARRIVES is received off the wire into
 *     the runtime's buffer (the any-call transport keeps arrived messages
 *     until the application receives them: LAM's "unexpected message
 *     buffers") and counted; once the peer's bookmark is in, a message
 *     beyond it was sent after the peer's checkpoint and waits in the
 *     delayed receive queue (QUEUE) until this rank's checkpoint;
 *  3. with every bookmark in, each channel drained up to its bookmark and
 *     the rank in an MPI call, the core answers CHECKPOINT and FLUSH;
 *  4. IMAGE_STORED, DONE and COMMIT as in step 6.
 * POSITION and AT are not used (a CONTROL of theirs is an error);
 * SAFE_POINT, CALL_END, APP_RECV and DELIVERED get PASS; APP_SEND gets
 * PASS or DEFER; ARRIVED gets PASS or QUEUE; CALL, ARRIVED, CONTROL and
 * TIMER may add CHECKPOINT with FLUSH. */
#ifndef FT_BOOKMARK_H
#define FT_BOOKMARK_H

#include "../ft_protocol.h"

/* The drain family's control kinds (see struct ft_control), in the order
 * of a wave; traced as the names in ft_protocol_bookmark.controls. */
enum ft_bookmark_control {
  FT_BOOKMARK_CONTROL_REQUEST = 1, /* rank 0 -> all: a wave is due
                                      ("request") */
  FT_BOOKMARK_CONTROL_POSITION,    /* all -> rank 0: value = my safe-point
                                      index ("position") */
  FT_BOOKMARK_CONTROL_AT,          /* rank 0 -> all: checkpoint wave `wave`
                                      at safe point value ("at") */
  FT_BOOKMARK_CONTROL_BOOKMARK,    /* rank -> rank: value = the messages
                                      I sent you before my checkpoint
                                      ("bookmark") */
  FT_BOOKMARK_CONTROL_DONE,        /* rank -> rank 0: my image of `wave` is
                                      stored ("done") */
  FT_BOOKMARK_CONTROL_COUNT
};

/* The names of these kinds in traces, indexed by kind (element 0 unused):
 * the ops' `controls`. */
extern const char *const ft_bookmark_controls[FT_BOOKMARK_CONTROL_COUNT];

/* The core's ops: name "bookmark", family FT_FAMILY_DRAIN. */
extern const struct ft_protocol_ops ft_protocol_bookmark;

/* Returns the wave the rank is in, or the last one it took part in (0
 * before the first; after a ROLLBACK, the wave rolled back to). */
int ft_bookmark_wave(const void *state);

/* Returns the step of the staggered exchange the rank is at: 0 when it is
 * not exchanging, i (1 .. ranks - 1) while it waits for the bookmark of
 * rank - i, `ranks` once every bookmark is in. */
int ft_bookmark_step(const void *state);

/* Returns the messages this rank received (DELIVERED; any-call mode:
 * ARRIVED, and queued ones once FLUSHed) from `peer` since the start or the
 * last ROLLBACK; 0 for a peer outside the world. */
int64_t ft_bookmark_received(const void *state, int peer);

/* Returns the bytes of those messages; 0 for a peer outside the world. */
uint64_t ft_bookmark_received_bytes(const void *state, int peer);

/* Returns the "sent" bookmark `peer` sent this rank in the current wave,
 * or -1 when it has not arrived (or for a peer outside the world). */
int64_t ft_bookmark_remote(const void *state, int peer);

/* Returns 1 while the rank drains: every bookmark is in, some channel
 * still has bytes on the wire, no checkpoint yet; 0 otherwise. */
int ft_bookmark_draining(const void *state);

/* Any-call mode: returns 1 while this rank's sends are held (wave entered,
 * checkpoint not taken); 0 otherwise, and always in safe-point mode. */
int ft_bookmark_frozen(const void *state);

#endif /* FT_BOOKMARK_H */
