/* The piggyback family's per-rank state (c3: application-level
 * non-blocking checkpoints): what sim/runtime/piggyback/ owns, held by the
 * rank's root (`struct ft_runtime`'s `pb`) and handed down by its driver's
 * hooks. This header only says what the family keeps, so that runtime.h
 * can hold it; the functions are in piggyback.h. */
#ifndef FT_PB_STATE_H
#define FT_PB_STATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "../channel_state/cs_state.h"
#include "ft_protocol.h"

/* A late message in the log (c3-collectives, section 3.1, Phase #2: "a log
 * of (i) every late message it receives"), or one handed back to its
 * sender to send again after a rollback. */
struct ft_pb_late {
  int peer; /* application rank of the sender */
  int comm; /* its communicator's name (ft_comm.name) */
  int dest; /* the receiver's rank in that communicator */
  int tag;
  int coll;               /* 1: a collective's, on the collective shadow */
  struct ft_piggyback pb; /* what it carried */
  size_t bytes;           /* packed payload (MPI_Pack) */
  void *data;
  MPI_Request req; /* its send again in flight, or MPI_REQUEST_NULL */
  int64_t recv;    /* the receive that took it: its number in posting
                      order (APP_RECV's id), 0 for a collective's */
};

/* A communicator creation main() made (a dup, split, cart... on the
 * communicator named `parent`), kept from the start of the run so that a
 * restore can make again those made before the rank's checkpoint: MPI
 * opaque objects are not in the image, and C3 re-creates them at restart
 * (c3-collectives, section 2.4: "the MPI library has internal state that
 * may need to be saved with checkpoints"; pb_comms.c). */
struct ft_pb_creation {
  int32_t kind;   /* enum ft_gate_kind */
  int32_t parent; /* the parent's name (ft_comm.name) */
  int32_t name;   /* the communicator made, -1 for MPI_COMM_NULL */
  int32_t freed;  /* 0 while alive; once the application freed it, 1 + the
                     rank's safe points then (in an image: 1, freed before
                     the checkpoint) */
  int32_t color, key, ndims, reorder;
  int32_t dims[8], periods[8]; /* FT_GATE_MAX_DIMS */
  int32_t n_members, first;    /* create, create_group: the group's members
                                  (application ranks) at members[first..] */
};

/* The creations made so far, and the group members they name. */
struct ft_pb_creations {
  struct ft_pb_creation *at;
  size_t n, cap;
  int32_t *members;
  size_t n_members, cap_members;
};

/* A growing array of logged events (suppress entries, decisions). */
struct ft_pb_events {
  struct ft_logged_event *at;
  size_t n, cap;
};

/* A message of the combined form in flight (pb_combined.c): a send from
 * `data` (the piggyback and the packed payload), or a receive into `data`
 * (`cap` bytes) for the application's buffer. */
struct ft_pb_framed {
  MPI_Request req;
  int send;
  void *data;
  size_t cap;
  void *buf; /* a receive: the application's buffer, count, type */
  int count;
  MPI_Datatype type;
  MPI_Comm wire; /* the runtime's communicator it travels on */
  MPI_Comm lone; /* where the payload of a lone piggyback comes (the
                    shadow) */
  int lone_base; /* ... with that tag base */
};

/* The lone payloads of one channel (pb_combined.c): the shadow they travel
 * on, the peer, their tag there, and how many were sent (the sender's
 * count) or taken off the channel (the receiver's). */
struct ft_pb_channel {
  MPI_Comm comm;
  int peer, tag;
  uint32_t n;
};

/* A lone payload received ahead of its lead's receive (pb_combined.c):
 * number `seq` of its channel, `bytes` packed bytes at `data`. */
struct ft_pb_ahead {
  struct ft_pb_channel chan; /* chan.n: seq */
  void *data;
  int bytes;
};

/* A separate piggyback received from the shadow (communicator `comm`,
 * from `source` with the application's tag `tag`) ahead of its payload's
 * delivery: receives completed in another order than MPI matched them
 * (pb_driver.c, take_separate). */
struct ft_pb_stashed {
  MPI_Comm comm;
  int source, tag;
  struct ft_piggyback pb;
};

/* A collective call's result in the log (c3-collectives, Figures 5-7:
 * "recoveryLog.save(recv data, comm)"), by the call's number since the
 * checkpoint, packed (pb_coll.c). */
struct ft_pb_result {
  int64_t id;
  size_t bytes;
  void *data;
};
struct ft_pb_results {
  struct ft_pb_result *at;
  size_t n, cap;
};

/* A single-sender call to re-execute with dummy buffers after a restore
 * (Figure 7's reexecList): the call (enum ft_coll_kind), its communicator's
 * name, root, and what it left here: count elements of size bytes, extent
 * apart (struct ft_coll_reexec, as stored in an image). */
struct ft_pb_reexec {
  int32_t kind, comm, root, count, size, pad_;
  int64_t extent;
  int64_t seq; /* its number on the communicator (struct ft_pb_seq) */
};
struct ft_pb_reexecs {
  struct ft_pb_reexec *at;
  size_t n, cap, next;
};

/* The unit calls numbered on a communicator (its name): the number of
 * the next one, less one. The same at every member (MPI-3.1, 5.13: the
 * members of a communicator call its collectives in one order); a
 * checkpoint keeps them, so that a call has one number before and after
 * a rollback (the `coll` trace record's SEQ, which ftsim check matches
 * across ranks). */
struct ft_pb_seq {
  int32_t comm, pad_;
  int64_t n;
};
struct ft_pb_seqs {
  struct ft_pb_seq *at;
  size_t n, cap;
};

/* All of the piggyback family's per-rank state. */
struct ft_pb {
  /* The checkpoint in progress: the state captured at its safe point, the
   * early messages received before it (its suppress list), the decisions
   * and late messages logged after it. */
  struct ft_state_copy captured;
  struct ft_pb_events early, suppress, decisions;
  /* The communicators main() made since the start, and how many of them
   * (and of their members) were made before the captured safe point. */
  struct ft_pb_creations made;
  size_t captured_creations, captured_members;
  struct ft_pb_late *late;
  size_t n_late, cap_late;
  /* The delivery the core is deciding on: its sender, piggyback and
   * receive (APP_RECV's id; 0: a collective's). */
  int last_peer;
  struct ft_piggyback last;
  int64_t last_recv;
  /* A rollback's restore: what ROLLBACK hands the core, the RESTORE
   * headers and entries received, the late messages to send again, and
   * those sent again still in flight. */
  struct ft_pb_events given;
  int headers;
  int64_t expected, received;
  struct ft_pb_late *to_resend, *resent;
  size_t n_to_resend, cap_to_resend, n_resent, cap_resent;
  /* The combined form (pb_combined.c): the piggyback of the send being
   * made, those of the messages received and not yet delivered, in their
   * order of completion (incoming[head..n)), and the messages in flight the
   * family posted. */
  struct ft_piggyback outgoing;
  struct ft_piggyback *incoming;
  size_t head_incoming, n_incoming, cap_incoming;
  struct ft_pb_framed *framed;
  size_t n_framed, cap_framed;
  /* Lone payloads by channel: those sent, those taken, and those taken
   * before their lead's receive completed (receives completed out of
   * their matching order). */
  struct ft_pb_channel *lone_sent, *lone_taken;
  size_t n_lone_sent, cap_lone_sent, n_lone_taken, cap_lone_taken;
  struct ft_pb_ahead *ahead;
  size_t n_ahead, cap_ahead;
  /* The separate form: piggybacks received ahead of their payload's
   * delivery, in their channel's order. */
  struct ft_pb_stashed *stashed;
  size_t n_stashed, cap_stashed;
  void **dropped; /* buffers of receives a rollback abandoned (one may
                     still be written into): freed at MPI_Finalize */
  size_t n_dropped, cap_dropped;
  /* Collectives carried as one unit (pb_coll.c): the results logged since
   * the checkpoint; the calls to re-execute made before it (`early_calls`,
   * the next checkpoint's) and those of the captured checkpoint; after a
   * rollback, the image's results to replay and calls to re-execute; a
   * STORE put off until the result of the call in progress is logged. */
  struct ft_pb_results results, replay;
  struct ft_pb_reexecs early_calls, reexecs, restart;
  struct ft_pb_seqs seqs, seqs_captured; /* now; at the captured point */
  int keeping;        /* the call in progress logs its result */
  int store_deferred; /* ... and a STORE came meanwhile: of epoch */
  int deferred_wave;
  int64_t deferred_kept;
  uint64_t units, units_replayed, units_suppressed, units_reexecuted;
  /* The summary's figures. */
  uint64_t recorded, replayed, suppressed;
  uint64_t logged, deliveries;       /* decisions logged (events_logged), the
                                        application's deliveries */
  uint64_t ckpt_calls, ckpt_pending; /* a replay at any call (FT_AC_REPOST):
                                        checkpoints, and those taken with
                                        requests pending (ckpt_calls,
                                        ckpt_in_flight) */
};

#endif /* FT_PB_STATE_H */
