/* Event traces for the trace checker (`ftsim check`, sim/check/).
 *
 * With the runtime option trace=PATH every rank writes its protocol-relevant
 * events to PATH.<world rank>, one whole line per event; the format is in
 * README.md ("Traces") and sim/check/trace_check.h. Its state (the FILE*,
 * the counts) is the rank's (struct ft_trace_state in struct ft_runtime), so
 * each rank has its own file even where ranks share one process (SMPI).
 *
 * Messages are named without piggybacking: (communicator name, the same on
 * every rank (ft_comm.name), p2p or collective channel, sender, receiver, tag,
 * sequence number on that channel). MPI's non-overtaking rule makes the
 * receiver's count equal the sender's; both sides count here, from the start
 * or from the last rollback (a new incarnation, fresh communicators).
 *
 * Cost when tracing is off: the inline wrappers below make one call that
 * reads a flag of the rank's state. */
#ifndef FT_TRACE_H
#define FT_TRACE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "ft_protocol.h"

struct ft_runtime;
struct ft_update;
struct ft_local_image;
struct ft_wire;

/* 1 when this rank writes a trace (trace=PATH was given; read by
 * ft_trace_start), else 0. */
int ft_trace_on(struct ft_runtime *rt);

/* A delivery the core asked to RECORD (vcl), named by its message id,
 * until STORE says whether it is channel state of the wave. */
struct ft_trace_provisional {
  int peer;       /* sender (application rank) */
  int64_t number; /* the core's number of it among peer's messages */
  int comm, tag;
  int64_t seq; /* its sequence number on its channel */
  int coll;    /* a collective's channel (any-call transport only) */
};

/* This module's state (trace.c), held by the rank's struct ft_runtime
 * (trace): the file, the sequence numbers per channel, the provisional
 * channel-state records. */
struct ft_trace_slot;
struct ft_trace_state {
  int enabled; /* trace=PATH was given */
  FILE *out;   /* NULL until the first record */
  char path[600];
  int rank; /* world rank, known once the file is open */
  struct ft_trace_slot *slots;
  size_t n_slots, cap_slots; /* cap: 0 or a power of two */
  struct ft_trace_provisional *prov;
  size_t n_prov, cap_prov;
  struct ft_trace_provisional last_delivery; /* the latest p2p delivery */
  int blocking;       /* inside a blocking wait (ft_trace_block_begin) */
  double block_since; /* since then */
};

/* Reads the option (MPI_Init, before the world is split: a collective
 * over MPI_COMM_WORLD when tracing). World rank 0 draws the run's identity
 * (rt->trace_run, from /dev/urandom) and broadcasts it: every file's header
 * names it, so that the checker can tell files of different runs apart. */
void ft_trace_start(struct ft_runtime *rt);

/* Opens this rank's trace file now, its header written, instead of at its
 * first record: under failure=kill, so that a rank killed before its first
 * record leaves a file (ftsim check reads every launch's). No-op when not
 * tracing or already open. */
void ft_trace_open(struct ft_runtime *rt);
/* Writes this rank's end record ("end", no field), flushes and closes its file
 * (MPI_Finalize). An application rank that wrote nothing still gets its file; a
 * service rank writes one only if it wrote a record (the scheduler's commits).
 * A file without its end record is a run that did not finish: the checker
 * rejects it. */
void ft_trace_stop(struct ft_runtime *rt);

void ft_trace_app_send_(struct ft_runtime *rt, MPI_Comm user, int dest, int tag,
                        uint64_t bytes);
void ft_trace_app_delivery_(struct ft_runtime *rt, MPI_Comm user,
                            const MPI_Status *status, uint64_t bytes);
void ft_trace_coll_send_(struct ft_runtime *rt, MPI_Comm inner, int dest,
                         int tag, int count, MPI_Datatype type);
void ft_trace_coll_delivery_(struct ft_runtime *rt, MPI_Comm inner, int source,
                             int tag);
void ft_trace_event_(struct ft_runtime *rt, const struct ft_event *e);
void ft_trace_update_(struct ft_runtime *rt, const struct ft_update *u);
void ft_trace_restore_(struct ft_runtime *rt, const struct ft_local_image *img);
void ft_trace_suppress_(struct ft_runtime *rt, int comm, int coll, int peer,
                        int tag);
void ft_trace_resend_(struct ft_runtime *rt, int comm, int coll, int peer,
                      int tag, uint64_t bytes);
void ft_trace_commit_(struct ft_runtime *rt, int wave, int inc);
/* A message of the any-call transport (anycall.c), named by the
 * communicator's trace id `comm` and `coll`: its send (deliver 0, peer the
 * destination) or its delivery (deliver 1, peer the sender). Returns its
 * sequence number on its channel. Guard the call with ft_trace_on(rt). */
int64_t ft_trace_message_(struct ft_runtime *rt, int deliver, int comm,
                          int coll, int peer, int tag, uint64_t bytes);
/* Any other record: "TIME RANK INC KIND " then fmt's fields; `flush`: write
 * it out at once (rare records). For the logging protocols' records (log,
 * logged, replay: README.md, "Traces"); guard the call with
 * ft_trace_on(rt). */
void ft_trace_line_(struct ft_runtime *rt, int flush, const char *kind,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The span records of the timeline (docs/traces.md; ftsim timeline),
 * written at the span's end with its START: */
/* "compute START": the rank computed (ft_compute) since `start`. */
void ft_trace_compute_(struct ft_runtime *rt, double start);
/* A blocking wait begins (ft_wait_any, ft_wait_internal,
 * ft_waitall_internal) on an application rank (a service rank's waits
 * are not traced): returns 1 when it is the outermost one, whose
 * ft_trace_block_end writes "block START", else 0 (a wait inside a wait,
 * made by a control message's handler, is part of it). A rollback or a
 * restart out of a wait abandons it (ft_trace_event_). */
int ft_trace_block_begin_(struct ft_runtime *rt);
/* Ends the outermost wait's span; `write` 0: without its record (the
 * rank's failure came during the wait: it acts no more). */
void ft_trace_block_end_(struct ft_runtime *rt, int write);
/* "image WAVE START": this rank's image of `wave`, sent to its server at
 * `start`, is stored (the server's STORED reached the rank now). */
void ft_trace_image_(struct ft_runtime *rt, int wave, double start);

static inline void ft_trace_compute(struct ft_runtime *rt, double start) {
  if (ft_trace_on(rt))
    ft_trace_compute_(rt, start);
}
static inline int ft_trace_block_begin(struct ft_runtime *rt) {
  return ft_trace_on(rt) ? ft_trace_block_begin_(rt) : 0;
}
static inline void ft_trace_image(struct ft_runtime *rt, int wave,
                                  double start) {
  if (ft_trace_on(rt))
    ft_trace_image_(rt, wave, start);
}

/* An application send of `bytes` to `dest` (rank in `user`). */
static inline void ft_trace_app_send(struct ft_runtime *rt, MPI_Comm user,
                                     int dest, int tag, uint64_t bytes) {
  if (ft_trace_on(rt))
    ft_trace_app_send_(rt, user, dest, tag, bytes);
}
/* A receive of the application completed (source and tag in status). */
static inline void ft_trace_app_delivery(struct ft_runtime *rt, MPI_Comm user,
                                         const MPI_Status *status,
                                         uint64_t bytes) {
  if (ft_trace_on(rt))
    ft_trace_app_delivery_(rt, user, status, bytes);
}
/* A send of the runtime on `inner`: traced when it is a collective shadow
 * (the application's point-to-point is traced by ft_trace_app_send). */
static inline void ft_trace_coll_send(struct ft_runtime *rt, MPI_Comm inner,
                                      int dest, int tag, int count,
                                      MPI_Datatype type) {
  if (ft_trace_on(rt))
    ft_trace_coll_send_(rt, inner, dest, tag, count, type);
}
/* A receive of the runtime on `inner` completed (from a named source). */
static inline void ft_trace_coll_delivery(struct ft_runtime *rt, MPI_Comm inner,
                                          int source, int tag) {
  if (ft_trace_on(rt))
    ft_trace_coll_delivery_(rt, inner, source, tag);
}
/* An event goes to the core: safe points, control messages, rollbacks. */
static inline void ft_trace_event(struct ft_runtime *rt,
                                  const struct ft_event *e) {
  if (ft_trace_on(rt))
    ft_trace_event_(rt, e);
}
/* An update is carried out: control messages sent, checkpoints, channel
 * state, commits. */
static inline void ft_trace_update(struct ft_runtime *rt,
                                   const struct ft_update *u) {
  if (ft_trace_on(rt))
    ft_trace_update_(rt, u);
}
/* The first safe point after a rollback restores `img`. */
static inline void ft_trace_restore(struct ft_runtime *rt,
                                    const struct ft_local_image *img) {
  if (ft_trace_on(rt))
    ft_trace_restore_(rt, img);
}
/* A replay sends a recorded message again, as its sender: `bytes` packed
 * bytes to `peer` with `tag` on the communicator named `comm`. */
static inline void ft_trace_resend(struct ft_runtime *rt, int comm, int peer,
                                   int tag, uint64_t bytes) {
  if (ft_trace_on(rt))
    ft_trace_resend_(rt, comm, 0, peer, tag, bytes);
}
/* The same for a message of the communicator's collective shadow (coll 1:
 * the piggyback family logs collectives' messages too). */
static inline void ft_trace_resend_on(struct ft_runtime *rt, int comm, int coll,
                                      int peer, int tag, uint64_t bytes) {
  if (ft_trace_on(rt))
    ft_trace_resend_(rt, comm, coll, peer, tag, bytes);
}
/* A send of the application (coll 0) or of a collective on the
 * communicator's shadow (coll 1) to `peer` with `tag` on the communicator
 * named `comm` is not carried out after a rollback: the receiver's
 * checkpoint holds it (the piggyback family's suppress list, c3). Its own
 * numbering per channel, apart from the sends'. */
static inline void ft_trace_suppress(struct ft_runtime *rt, int comm, int coll,
                                     int peer, int tag) {
  if (ft_trace_on(rt))
    ft_trace_suppress_(rt, comm, coll, peer, tag);
}
/* The checkpoint scheduler (a service rank) commits `wave`. */
static inline void ft_trace_commit(struct ft_runtime *rt, int wave, int inc) {
  if (ft_trace_on(rt))
    ft_trace_commit_(rt, wave, inc);
}

#endif /* FT_TRACE_H */
