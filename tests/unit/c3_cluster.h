/* An in-memory cluster of `c3` cores (protocols/c3/c3.h) for tests: it
 * plays the runtime (application messages carry the core's piggyback,
 * control messages are queued, images hold the captured position, the
 * suppress list, the late messages and the logged decisions) and tells what
 * happens as a story, one line per event, the way c3-collectives' Figure 1
 * names epochs and message kinds. No MPI, no SimGrid, no clock.
 *
 * Tests drive it step by step (c3c_send, c3c_recv, c3c_safe_point...) for
 * golden stories, or c3c_seeded() runs a whole random program from one
 * seed and checks every committed recovery line. */
#ifndef C3_CLUSTER_H
#define C3_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "ft_protocol.h"

enum { C3C_MAX_RANKS = 6, C3C_MAX_MSGS = 512, C3C_MAX_CONTROLS = 256 };

/* One application message, as the cluster carries it. */
struct c3c_msg {
  int from, to, tag;
  int number;             /* m1, m2...: cluster-wide, in send order */
  struct ft_piggyback pb; /* what the sender's core piggybacked */
  int received;           /* delivered to the application */
  int received_epoch;     /* the receiver's epoch at delivery */
  int suppressed;         /* not sent: a re-execution suppressed it */
};

/* What a rank's image of epoch `epoch` holds (section 3.1, Phase #2). */
struct c3c_image {
  int epoch;                  /* 0: none */
  int64_t position;           /* safe point captured at */
  int n_sent, n_recv;         /* messages sent and received before it */
  int suppress[C3C_MAX_MSGS]; /* message numbers, early */
  int n_suppress;
  int late[C3C_MAX_MSGS]; /* message numbers, logged late */
  int n_late;
  struct ft_logged_event decisions[C3C_MAX_MSGS];
  int n_decisions;
  int n_recv_at_stop; /* messages received when the rank stopped logging */
  int stored;
};

struct c3c_rank {
  void *core;
  int64_t safe_points;
  int sent[C3C_MAX_MSGS], n_sent; /* message numbers, in send order */
  int recv[C3C_MAX_MSGS], n_recv; /* in receive order */
  int recv_wild[C3C_MAX_MSGS];    /* ... posted with MPI_ANY_SOURCE */
  int64_t last_recv_id;           /* update.id of the last APP_RECV */
  struct c3c_image building, committed;
  int pending_early[C3C_MAX_MSGS], n_pending_early;
};

struct c3c {
  const struct ft_protocol_ops *ops;
  int ranks;
  double now;
  double deadline; /* rank 0's, from its last update */
  struct c3c_rank rank[C3C_MAX_RANKS];
  struct c3c_msg msg[C3C_MAX_MSGS];
  int n_msgs;
  struct ft_control controls[C3C_MAX_CONTROLS]; /* queued, FIFO */
  int n_controls;
  int stores[C3C_MAX_RANKS]; /* ranks whose STORE awaits IMAGE_STORED */
  int n_stores;
  int committed; /* the last committed epoch */
  char *trace;   /* the story, NUL-terminated */
  size_t trace_len, trace_cap;
  int tracing;
  char error[256]; /* the first failed step or check; "" if none */
};

/* Starts a cluster of `ranks` cores of `ops` (period: rank 0's checkpoint
 * period, from time 0). Returns 0, or -1 (error set) if a core refuses. */
int c3c_init(struct c3c *c, const struct ft_protocol_ops *ops, int ranks,
             double period, int tracing);

/* Frees the cores and the story. */
void c3c_free(struct c3c *c);

/* Rank `from` sends a message (tag) to `to`; returns its number, 0 when
 * the core suppressed it, -1 on a core error. */
int c3c_send(struct c3c *c, int from, int to, int tag);

/* Rank `to` receives message `number` (wildcard: posted with
 * MPI_ANY_SOURCE); 0, or -1 on an error. */
int c3c_recv(struct c3c *c, int to, int number, int wildcard);

/* Rank `r` reaches its next safe point. 0 or -1. */
int c3c_safe_point(struct c3c *c, int r);

/* Time passes to `t`: rank 0's timer fires when due. 0 or -1. */
int c3c_advance(struct c3c *c, double t);

/* Delivers the oldest queued control message (or, none queued, completes
 * the oldest STORE): 1 if something happened, 0 if nothing was pending,
 * -1 on an error. */
int c3c_pump_one(struct c3c *c);

/* Pumps until nothing is pending. 0 or -1. */
int c3c_pump(struct c3c *c);

/* Checks the committed recovery line as section 2.3 requires (every late
 * message logged, every early one in the suppress list, nothing both, each
 * logged decision the receive it names), then plays the recovery on copies
 * of the cores: every rank rolls back to the committed epoch and re-executes
 * the sends and receives it made after its checkpoint; the core must
 * suppress exactly the early sends and force every logged wildcard match.
 * Narrated when tracing. 0, or -1 (error set). */
int c3c_check_recovery(struct c3c *c);

/* One seeded random run of `ops` on `ranks` ranks: random sends, named and
 * wildcard receives, safe points, control delays and checkpoints, with
 * c3c_check_recovery at every commit. 0, or -1 with `error` set. */
int c3c_seeded(const struct ft_protocol_ops *ops, uint64_t seed, int ranks,
               char *error, size_t len, int *commits);

#endif /* C3_CLUSTER_H */
