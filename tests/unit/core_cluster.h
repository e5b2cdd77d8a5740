/* A deterministic in-memory cluster of protocol cores, for unit tests (after
 * cowsql/raft's test/lib/cluster.c): no MPI, no SimGrid, a fake clock.
 *
 * Each rank runs a simulated application that reaches its next safe point
 * `iteration` seconds after the previous one (the first at offset +
 * iteration), stays at a safe point the core HOLDs until a RELEASE, and
 * computes on while its image is stored. Control messages arrive `latency`
 * seconds (plus a seeded jitter) after they are sent, CHECKPOINT leads to
 * IMAGE_STORED `store_delay` seconds later, timers fire at the deadline.
 *
 * The cluster always advances the earliest pending thing; ties go to
 * control deliveries and stored images (in the order they were scheduled),
 * then timers, then safe points, each by rank. It checks what every core
 * asks for (sends to itself or outside the world, CHECKPOINT without every
 * marker, RELEASE of a running rank, HOLD outside a safe point, commits out
 * of order) and writes a narrative trace, one line per event and one
 * indented line per action:
 *
 *   [  1.010] 1 < marker from 2: channel 2->1 delayed
 *   [  1.020] 1 safe point 5
 *               > markers to 0, 2
 *               checkpoint wave 1 at safe point 5
 */
#ifndef FT_CORE_CLUSTER_H
#define FT_CORE_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "ft_protocol.h"

#define CLUSTER_MAX_RANKS 16
#define CLUSTER_MAX_WAVES 64
#define CLUSTER_MAX_PENDING 4096
#define CLUSTER_TRACE_SIZE 65536

/* Something scheduled: a control message in flight or an image being
 * stored. */
struct cluster_item {
  double time;
  uint64_t seq; /* scheduling order, the tie-break */
  int stored;   /* 1: IMAGE_STORED of `wave` for `rank`; 0: `control` */
  int rank, wave;
  struct ft_control control;
};

struct cluster_rank {
  void *state;
  double iteration, offset, store_delay;
  int64_t index; /* safe points passed */
  double next;   /* time of the next safe point, when not held */
  int held;      /* held at safe point `index` */
  double deadline;
  int marked_wave;  /* last wave whose markers this rank sent */
  int markers_wave; /* wave of the markers counted in markers_in */
  int markers_in;
  int64_t checkpoint_at[CLUSTER_MAX_WAVES + 1]; /* per wave, 0: none */
  int checkpoints;
};

struct cluster {
  const struct ft_protocol_ops *ops;
  int ranks;
  double period, start, time;
  double latency[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS];
  double jitter; /* each message adds [0, jitter) from `rng` */
  uint64_t rng;
  struct cluster_rank rank[CLUSTER_MAX_RANKS];
  struct cluster_item pending[CLUSTER_MAX_PENDING];
  size_t n_pending;
  uint64_t seq, steps;
  uint64_t same_instant; /* steps in a row at the same time */
  int committed;         /* last wave committed */
  double requested_at[CLUSTER_MAX_WAVES + 1]; /* rank 0 sent the request */
  double committed_at[CLUSTER_MAX_WAVES + 1];
  char error[256]; /* first error, "" while none */
  int trace_on;
  size_t trace_len;
  char trace[CLUSTER_TRACE_SIZE];
};

/* splitmix64: the tests' only source of randomness (never rand()). */
static inline uint64_t cluster_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Returns a double in [lo, hi) drawn from `x`. */
double cluster_uniform(uint64_t *x, double lo, double hi);

/* Returns a zeroed cluster of `ranks` (1..CLUSTER_MAX_RANKS) cores of `ops`
 * with period `period`, start 0, latency 0.001 s on every channel, no
 * jitter, iteration 0.25 s, offset 0, store delay 0.1 s, trace on. Change
 * the fields (or use the setters) before cluster_start. Returns NULL when
 * `ranks` is out of range or memory is short. */
struct cluster *cluster_new(const struct ft_protocol_ops *ops, int ranks,
                            double period);

/* Frees the cluster and its cores. NULL is fine. */
void cluster_free(struct cluster *c);

/* Sets the latency of the channel from -> to. */
void cluster_set_latency(struct cluster *c, int from, int to, double seconds);

/* Sets the application of `rank`: safe point k at offset + k * iteration
 * while it is never held. */
void cluster_set_app(struct cluster *c, int rank, double iteration,
                     double offset);

/* Allocates and initialises every core at time c->start. Returns 0, or -1
 * (with c->error set) when a core rejects its configuration. */
int cluster_start(struct cluster *c);

/* Advances the earliest pending thing. Returns 1 when something happened, 0
 * when nothing is pending (every rank held, nothing in flight: a deadlock),
 * -1 on an error (c->error says which). */
int cluster_step(struct cluster *c);

/* Steps while the earliest pending thing is at or before `time`, then sets
 * the clock to `time`. Returns 0, or -1 on an error or a deadlock. */
int cluster_run_until(struct cluster *c, double time);

/* Steps until wave `wave` is committed. Returns 0, or -1 on an error, a
 * deadlock, or when the clock would pass `limit`. */
int cluster_run_until_commit(struct cluster *c, int wave, double limit);

/* Fails every rank now: drops everything in flight (the stale incarnation)
 * and rolls every core back to the last committed wave, at the safe point
 * where that wave was taken (0 when none). Returns 0, or -1 on an error. */
int cluster_rollback(struct cluster *c);

/* The trace since the start (or the last cluster_trace_clear). */
const char *cluster_trace(const struct cluster *c);
void cluster_trace_clear(struct cluster *c);

#endif /* FT_CORE_CLUSTER_H */
