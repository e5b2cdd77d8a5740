/* A seeded in-memory cluster that drives a core of the coordinated (pcl)
 * or channel-state (vcl, with its scheduler) family in any-call mode
 * (ft_core_config.any_call; docs/protocols.md, "Any-call mode"), the way a
 * replay runtime would: no safe point and no application contract.
 *
 * Each rank runs a program drawn from the seed: ITERATIONS iterations of a
 * random graph, in each the rank's blocking (eager) sends to its
 * successors, then its blocking receives from its predecessors, each one
 * MPI call, with computation between calls. Channels are FIFO per ordered
 * pair, with random latencies. In half the seeds they carry the markers
 * between ranks in order with the application's messages; in the others
 * the markers travel apart and may overtake the messages sent before them,
 * never those sent after (the runtime's contract of FT_EVENT_ARRIVED).
 * Other control messages travel apart, FIFO per pair. Messages are in
 * flight, arrived but not received, at every moment. The cluster carries
 * out what the core decides: DEFER holds the send (the rank stays in its
 * call), QUEUE puts the arrival in the delayed receive queue, FLUSH sends
 * the deferred message and releases the queue, CHECKPOINT takes the image
 * (position, counts, arrived receivable messages; not the queue, not a
 * deferred send), CAPTURE the same without storing, RECORD copies an
 * arrival into the channel state, STORE keeps the ranges it names,
 * IMAGE_STORED follows after a random delay. Failures hit at random
 * times: every rank (and the scheduler) rolls back to the committed wave
 * (ROLLBACK with the call of its image), channels, queues and images in
 * progress are dropped, the image's arrived messages and kept channel
 * state become receivable, a rank restored in a send call posts its send
 * again.
 *
 * Checked after every step: no core error; CHECKPOINT only in a call;
 * every arrival is the next message of its channel (FIFO, nothing lost or
 * twice, across rollbacks: the programs are deterministic, so message k of
 * a channel is always the same); at every COMMIT, the cut is consistent
 * and complete: each image holds, received or arrived, exactly the
 * messages its senders sent before their own checkpoints, arrived or kept
 * as channel state (no orphan, none lost); at every STORE, every kept
 * message was RECORDed and the kept range follows the image's arrived
 * messages; progress: no deadlock, every rank
 * finishes its program, at most a bounded number of steps. */
#ifndef FT_ANYCALL_CLUSTER_H
#define FT_ANYCALL_CLUSTER_H

#include "seeded.h"

/* Runs seed p->seed of the core `ops` (coordinated or channel-state
 * family) in any-call mode; fills r as seeded_run does. Returns 0 when
 * every property held, 1 when one was violated (r->error), -1 when the
 * parameters are invalid (a core of another family, one that refuses
 * any-call mode, more than 8 ranks). */
int anycall_seeded_run(const struct seeded_params *p,
                       const struct ft_protocol_ops *ops,
                       struct seeded_result *r);

#endif /* FT_ANYCALL_CLUSTER_H */
