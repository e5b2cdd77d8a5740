/* Seeded simulation testing of the protocol cores: one seed fully
 * determines a run of a core on the in-memory cluster (core_cluster.h, in
 * exact mode), with random delivery orders, random failures and the
 * rollbacks the runtime performs; the properties are checked after every
 * step. No MPI, no SimGrid, no clock, no global state.
 *
 * What the seed draws: the ranks (2..6) and failures (0..4) unless given,
 * the period, each rank's iteration time, offset and store delay, each
 * channel's latency (some zero, some slow), the jitter, the application's
 * graph and traffic (a ring both ways plus random edges, self included, up
 * to 3 messages per edge and iteration; for protocols that record channel
 * state, "vcl*", some messages cross the next safe point), and the step at
 * which each failure hits: anywhere (during a wave, while a rank is held,
 * between a checkpoint and the commit, in the idle time), and one time in
 * five within 10 steps of the previous rollback, replayed messages still in
 * flight ("during recovery"). Things due at the same instant happen in a
 * random order, within what MPI allows: application messages FIFO per
 * channel, control messages too when the protocol needs it (a scheduler).
 *
 * A failure rolls every core back as sim/runtime/recovery.c's resume()
 * does: everything in flight is dropped (a new incarnation), each core
 * gets ROLLBACK with the last committed wave and the safe point of its
 * checkpoint, each rank's application state is restored from that wave's
 * image and the senders replay its channel state before anything new.
 *
 * Checked after every step (the first violation ends the run):
 *  - no core error (a step returning -1) and no impossible request (the
 *    cluster's own checks: sends outside the world, RELEASE of a running
 *    rank, CHECKPOINT without every marker, CAPTURE of a state it never
 *    had...);
 *  - commits in order, one wave after the last committed, after every rank
 *    checkpointed it (and stored it, with a scheduler);
 *  - consistent cuts: no message of a wave's cut is an orphan, checked as
 *    soon as both checkpoints are known; at each commit every message sent
 *    before the cut is delivered;
 *  - channel state (protocols that STORE): at each STORE, the ranges keep
 *    exactly the messages in transit across the cut, each RECORDed; without
 *    STORE, nothing may be in transit;
 *  - exactly once across rollbacks: every delivery is the next message of
 *    its channel in the failure-free run, counting the deliveries restored
 *    with the checkpoint and the replayed channel state;
 *  - progress: no deadlock (nothing can move), a commit within a bound of
 *    the previous commit or rollback, at most SEEDED_MAX_STEPS steps; the run
 *    ends two waves after the last failure. */
#ifndef FT_SEEDED_H
#define FT_SEEDED_H

#include <stdint.h>
#include <stdio.h>

#include "core_cluster.h"

#define SEEDED_MAX_FAILURES 16
#define SEEDED_MAX_STEPS 5000000u

/* Where a failure hit; the first that applies. */
enum seeded_phase {
  SEEDED_RECOVERING, /* within 10 steps of the previous rollback */
  SEEDED_CUT,        /* a rank checkpointed the next wave, not committed */
  SEEDED_HELD,       /* a rank is held at a safe point */
  SEEDED_IN_WAVE,    /* the next wave has started */
  SEEDED_IDLE,       /* between waves */
  SEEDED_PHASES
};

struct seeded_params {
  const char *protocol; /* seeded_protocol's name */
  uint64_t seed;
  int ranks;    /* 1..CLUSTER_MAX_RANKS, or 0: drawn from the seed */
  int failures; /* 0..SEEDED_MAX_FAILURES, or -1: drawn from the seed */
  int trace;    /* keep the narrative (its last CLUSTER_TRACE_SIZE bytes) */
  /* A test of the checker itself: the rollback forgets to replay the
   * channel state (a runtime bug, not a core's). */
  int skip_replay;
};

struct seeded_result {
  int failed;      /* 1 when a property was violated */
  char error[512]; /* what, "" when none */
  int ranks, failures;
  double period;
  uint64_t steps;
  int commits, rollbacks;
  int64_t delivered, replayed, kept, retained, holds;
  int phases[SEEDED_PHASES]; /* failures per phase */
  uint64_t trace_hash;       /* of the whole narrative, with params.trace */
  char trace[CLUSTER_TRACE_SIZE];
};

/* Returns the core called `name`: a registered protocol (ft_protocol_find)
 * or a planted bug (planted.h); NULL when there is none. A name ending in
 * "-anycall" ("pcl-anycall") names the core before the suffix, run in
 * any-call mode on the any-call cluster (anycall_cluster.h). */
const struct ft_protocol_ops *seeded_protocol(const char *name);

/* Whether `name` ends in "-anycall" (see seeded_protocol). */
int seeded_any_call(const char *name);

/* Runs one seed. Returns 0 when every property held, 1 when one was
 * violated (r->failed, r->error), -1 when the parameters are invalid (an
 * unknown protocol, one that does not recover, ranks or failures out of
 * range; r->error says which). */
int seeded_run(const struct seeded_params *p, struct seeded_result *r);

/* Writes the command line that re-runs this seed alone, with its trace:
 * the soak command (FTSIM_SOAK) with the protocol, seed, ranks and
 * failures of `r`. */
void seeded_command(const struct seeded_params *p,
                    const struct seeded_result *r, char *buf, size_t size);

/* Re-runs the seed with its trace and prints the report of a failure: the
 * protocol, seed and parameters, the violation, the command that
 * reproduces it and the last `tail_lines` lines of the trace. */
void seeded_report(FILE *out, const struct seeded_params *p, int tail_lines);

/* "recovering", "cut", "held", "in-wave", "idle". */
const char *seeded_phase_name(enum seeded_phase phase);

#endif /* FT_SEEDED_H */
