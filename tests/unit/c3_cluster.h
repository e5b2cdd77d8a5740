/* An in-memory cluster of `c3` cores (protocols/c3/c3.h) for tests: it
 * plays the runtime (application messages carry the core's piggyback,
 * control messages are queued, images hold the rank's position, its
 * suppress list, its late messages and its logged decisions, a failure
 * rolls every rank back and each re-executes what it did after its
 * checkpoint) and tells what happens as a story, one line per event, the
 * way c3-collectives' Figure 1 names epochs and message kinds. No MPI, no
 * SimGrid, no clock.
 *
 * A message's identity is (sender, k): the sender's k-th send of its
 * history (a re-execution sends the same k again, or suppresses it). Tests
 * drive the cluster step by step (c3c_send, c3c_recv, c3c_safe_point,
 * c3c_fail...) for golden stories, or c3c_seeded() runs a whole random
 * program from one seed, failures included, and checks every committed
 * recovery line, every delivery (no identity twice) and the end (every
 * identity sent delivered exactly once). */
#ifndef C3_CLUSTER_H
#define C3_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "ft_protocol.h"

enum {
  C3C_MAX_RANKS = 6,
  C3C_MAX_MSGS = 1024, /* message objects, re-sent ones included */
  C3C_MAX_OPS = 512,   /* sends and receives in one rank's history */
  C3C_MAX_CONTROLS = 256,
};

/* One message on the wire. */
struct c3c_msg {
  int from, to, tag;
  int k;                  /* identity: the sender's k-th send */
  int number;             /* m1, m2...: cluster-wide, in send order */
  struct ft_piggyback pb; /* what the sender's core piggybacked */
  int state;              /* 0 in flight, 1 received, 2 dropped (failure) */
};

/* One operation of a rank's history. */
struct c3c_op {
  int send; /* 1 send, 0 receive */
  int peer; /* destination, or the sender of what was received */
  int tag;
  int k;        /* the message's identity with peer (send: its own k) */
  int wildcard; /* receive posted with MPI_ANY_SOURCE */
};

/* A message a checkpoint names: early (suppress list) or late (log). */
struct c3c_ref {
  int from, k, tag;
  struct ft_piggyback pb;
};

/* What a rank's image of epoch `epoch` holds (section 3.1, Phase #2). */
struct c3c_image {
  int epoch; /* 0: none (the start) */
  int n_ops; /* the rank's position: operations done before it */
  struct c3c_ref suppress[C3C_MAX_OPS];
  int n_suppress;
  struct c3c_ref late[C3C_MAX_OPS];
  int n_late;
  struct ft_logged_event decisions[C3C_MAX_OPS];
  int n_decisions;
  int ops_at_stop; /* operations done when it stopped logging */
  int stored;
};

struct c3c_rank {
  void *core;
  int64_t safe_points;
  struct c3c_op ops[C3C_MAX_OPS]; /* its history */
  int n_ops;                      /* ops recorded (the longest life) */
  int pc;                         /* done; below n_ops: re-executing */
  struct c3c_image building, committed;
  struct c3c_ref pending_early[C3C_MAX_OPS];
  int n_pending_early;
  struct c3c_ref log[C3C_MAX_OPS]; /* restored late messages, unread */
  int n_log;
};

struct c3c {
  const struct ft_protocol_ops *ops;
  int ranks;
  double now;
  double deadline; /* rank 0's, from its last update */
  struct c3c_rank rank[C3C_MAX_RANKS];
  struct c3c_msg msg[C3C_MAX_MSGS];
  int n_msgs;
  struct ft_control controls[C3C_MAX_CONTROLS]; /* queued, FIFO per pair */
  int n_controls;
  int stores[C3C_MAX_RANKS]; /* ranks whose STORE awaits IMAGE_STORED */
  int n_stores;
  int committed; /* the last committed epoch */
  int failures, commits;
  struct ft_logged_event rb[C3C_MAX_RANKS][3 * C3C_MAX_OPS]; /* ROLLBACKs'
                                                                 entries */
  char *trace; /* the story, NUL-terminated */
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

/* Rank `from` sends a new message (tag) to `to` (not while it re-executes).
 * Returns its number, or -1 on an error. */
int c3c_send(struct c3c *c, int from, int to, int tag);

/* Rank `to` receives message `number` (wildcard: posted with
 * MPI_ANY_SOURCE; not while it re-executes); 0, or -1 on an error. */
int c3c_recv(struct c3c *c, int to, int number, int wildcard);

/* Rank `r` re-executes its next operation if it can (a receive waits for
 * its message, from the log or the wire): 1 if it did, 0 if it cannot yet
 * or has nothing to re-execute, -1 on an error. */
int c3c_reexecute(struct c3c *c, int r);

/* Rank `r` reaches its next safe point. 0 or -1. */
int c3c_safe_point(struct c3c *c, int r);

/* Time passes to `t`: rank 0's timer fires when due. 0 or -1. */
int c3c_advance(struct c3c *c, double t);

/* A failure: messages and control messages in flight are dropped, every
 * rank restores its image of the committed epoch (or the start) and gets
 * ROLLBACK with the sends to suppress, its log and its decisions. 0 or
 * -1. */
int c3c_fail(struct c3c *c);

/* Delivers the oldest queued control message (or, none queued, completes
 * the oldest STORE): 1 if something happened, 0 if nothing was pending,
 * -1 on an error. */
int c3c_pump_one(struct c3c *c);

/* Pumps until nothing is pending. 0 or -1. */
int c3c_pump(struct c3c *c);

/* Checks the committed recovery line as section 2.3 requires (every late
 * message logged, every early one in the suppress list, nothing both, each
 * wildcard match made while logging in the log), then plays the recovery
 * on copies of the cores: every rank rolls back to the committed epoch and
 * re-executes its history after its checkpoint; the core must suppress
 * exactly the early sends, force every logged match and end its recovery.
 * Called at every commit. 0, or -1 (error set). */
int c3c_check_recovery(struct c3c *c);

/* One seeded random run of `ops` on `ranks` ranks with up to `failures`
 * failures: random sends on two tags, named and wildcard receives, safe
 * points, control and store delays, failures at any step (also during a
 * checkpoint or a recovery), then every message received and every rank
 * done. c3c_check_recovery at every commit; no identity delivered twice;
 * at the end every identity sent delivered exactly once. 0, or -1 with
 * `error` set; *commits and *failures (when not NULL) say what happened. */
int c3c_seeded(const struct ft_protocol_ops *ops, uint64_t seed, int ranks,
               int failures, char *error, size_t len, int *commits,
               int *failed);

#endif /* C3_CLUSTER_H */
