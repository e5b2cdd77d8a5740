/* A deterministic in-memory cluster for the message-logging cores
 * (`pessimist`, `v2`, and their planted bugs): no MPI, no SimGrid, a fake
 * clock. It plays the part of sim/runtime's message-logging adapter
 * (ml_ops.c, ml_restart.c) and of the event logger, and carries out what
 * the cores decide, replayed outcomes included.
 *
 * The application. Rank r runs `rounds` rounds; round k is: a safe point
 * (index k + 1), a computation, then its sends (0..3 messages of tag k to
 * each out-neighbour, drawn from (app_seed, r, peer, k)), then the
 * receptions of everything its in-neighbours send it in round k, in one of
 * two styles drawn from (app_seed, r, k):
 *  - blocking: some named receives (MPI_Recv from a peer, tag k), then the
 *    rest as wildcard receives (MPI_ANY_SOURCE, tag k), each one maybe
 *    after an MPI_Iprobe(MPI_ANY_SOURCE, k);
 *  - requests: one named MPI_Irecv per message, completed one at a time by
 *    MPI_Waitany or by polling MPI_Testany (a failed test is a completion
 *    that found nothing, then a short computation).
 * Its control flow never depends on what it observes, but its state does:
 * a hash of every delivered payload, wildcard source, probe outcome and
 * completion order, which every message it sends carries as its payload.
 * Messages are matched as MPI does (posted receives in order, unexpected
 * messages in arrival order; channels FIFO).
 *
 * The runtime's part. Every send is copied into the sender-based log.
 * Events the core LOGs travel to the event logger, which acknowledges
 * each batch with its count (CONTROL LOGGED); a send the core holds
 * (WAIT_LOGGED) leaves at its RELEASE. CHECKPOINT saves the application
 * state, IMAGE_STORED comes `store_delay` later, COMMIT makes the image
 * the one a restart uses. A failure of rank f (pessimist-openmpi-v,
 * section 2.1) loses its memory, the messages on their way to it and the
 * events on their way to the logger; f gets RESTART with the events the
 * logger holds (sorted by id), then ROLLBACK to its last committed
 * checkpoint (if any) and runs again from there, while the others go on;
 * every peer resends from its sender-based log what f's checkpoint had not
 * delivered (a peer that failed too rebuilds its log by re-executing); a
 * send that a re-execution makes again and that the wire already had is
 * not sent again.
 *
 * Checked after every step (the first violation ends the run):
 *  - no core error, ids that follow the clock;
 *  - the pessimistic rule: no send leaves while an event of its sender
 *    the core shipped is not held by the logger;
 *  - exactly once: each delivery is the next message of its channel (the
 *    failure-free order for named receptions; for wildcard ones, the
 *    order the logged sources impose), with the payload the sender first
 *    put on the wire;
 *  - replay reproduces the logged outcomes: a replayed wildcard receive
 *    matches the source it matched before the failure, and a re-executed
 *    send the wire already had carries the same payload (else a message
 *    another rank already has depends on a state the restart cannot
 *    reach: an orphan);
 *  - progress: no deadlock, a bounded number of steps, and at the end
 *    every rank finished and every message sent was delivered. */
#ifndef FT_ML_CLUSTER_H
#define FT_ML_CLUSTER_H

#include "seeded.h"

/* Runs one seed of `ops` (a core with restarts_alone) as seeded_run does
 * (seeded.h): same parameters, same result fields (rollbacks counts the
 * restarts). With skip_replay, the restarted rank posts its wildcard
 * receives as wildcards whatever the core says (a runtime bug, for the
 * checker's own test). Returns 0, 1 when a property was violated, -1 on
 * invalid parameters. */
int ml_seeded_run(const struct seeded_params *p,
                  const struct ft_protocol_ops *ops, struct seeded_result *r);

/* The golden story of one single-rank restart (tests/unit/golden): a
 * fixed cluster of 3 ranks, no randomness, rank 1 fails once in round 3.
 * Fills r (with its trace); returns as ml_seeded_run. */
int ml_golden_run(const struct ft_protocol_ops *ops, struct seeded_result *r);

#endif /* FT_ML_CLUSTER_H */
