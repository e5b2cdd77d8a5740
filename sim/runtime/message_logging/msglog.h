/* Message logging in the runtime (the message-logging family: pessimist,
 * v2): channels, the sender-based log, the event logger's traffic, the
 * replay of logged outcomes, and the restart of one failed rank while the
 * others go on.
 *
 * Channels. A message travels on a channel (communicator, p2p or collective
 * shadow, peer application rank, tag); MPI's non-overtaking rule makes the
 * n-th message a receiver takes off a channel the n-th its sender put on
 * it, so both sides number messages alike without a piggybacked header.
 * Each side keeps two kinds of counts:
 *  - logical (`sent`, `delivered`): messages of main()'s current run,
 *    reset when the rank restarts and restored from its checkpoint;
 *  - on the wire (`wire_sent`, `wire_taken`, and `hw`, the highest logical
 *    number ever put on the wire): what MPI's queues hold. A failure in
 *    ftsim is logical (DESIGN.md): the queues survive it, so these counts
 *    survive it too, and tell a restarted rank how many messages its lost
 *    life left in flight (it takes them off and drops them: a real crash
 *    loses them with the connection) and which of its re-executed sends
 *    already reached the wire (they are not sent again: a real receiver
 *    drops them by sequence number).
 *
 * Sender-based log (pessimist-openmpi-v, section 2.1: "every outgoing
 * message is saved in the sender's volatile memory"): every send is packed
 * into the log and leaves from that copy. It goes into the rank's images
 * and is lost at a failure; garbage collection drops what a receiver's
 * committed checkpoint holds, except what it received before its first
 * safe point (main() runs again from the top at a restart, and its set-up
 * needs those messages again).
 *
 * Restart of rank F (recovery.c calls ft_ml_restart): F drops its receives,
 * fetches its image and its events, asks every rank for what it sent F
 * (RESEND_REQUEST: for each channel, what F's checkpoint delivered), takes
 * the messages in flight off the wire, and runs main() again. Each peer
 * answers with its wire counts and resends, in order, every logged message
 * F's checkpoint did not have: at once what its log holds, the rest as its
 * own re-execution (if it failed too) rebuilds them ("the recovery
 * procedure of this process replays every outgoing send and thus rebuilds
 * the missing messages", section 2.1). */
#ifndef FT_MSGLOG_H
#define FT_MSGLOG_H

#include <mpi.h>
#include <stdint.h>

#include "runtime/driver.h"
#include "runtime/runtime.h"
#include "runtime/service_role.h"

/* The family's own wire kinds (control.h: numbered from
 * FT_WIRE_FAMILY_BASE). Those marked "records" carry `value` records
 * (ft_control_send_payload): in the message itself up to
 * FT_CONTROL_INLINE bytes, else on FT_TAG_PAYLOAD. */
enum ft_ml_wire {
  FT_WIRE_ML_LOG = FT_WIRE_FAMILY_BASE, /* rank -> event logger: value
                                           events (records) */
  FT_WIRE_ML_EVENTS_REQUEST, /* restarting rank -> logger: all of mine */
  FT_WIRE_ML_EVENTS,         /* logger -> rank: value events (records;
                                wave = the request's life) */
  FT_WIRE_ML_RESEND_REQUEST, /* restarting rank -> every rank: what my
                                checkpoint delivered (records; wave = my
                                life) */
  FT_WIRE_ML_RESEND_ANSWER,  /* rank -> restarting rank: my wire counts
                                (records) */
  FT_WIRE_ML_GC,             /* rank -> sender: my committed checkpoint
                                holds these messages of yours (records) */
  FT_WIRE_ML_RESTARTED       /* restarted rank -> dispatcher: running again
                                (wave = life, x[0] = lost work, s) */
};

/* The image regions of message logging: its state (clock, counts, log),
 * how many communicators main() had created at the checkpoint (int64,
 * see ft_comm_resume_creations), and, in any-call mode, the requests
 * pending at the checkpoint (ft_ml_pending_write). */
enum {
  FT_ML_REGION = FT_MAX_REGIONS + 1,
  FT_CREATIONS_REGION = FT_MAX_REGIONS + 2,
  FT_ML_PENDING_REGION = FT_MAX_REGIONS + 3
};

/* ---- Channels and the sender-based log (ml_channels.c) ---- */

struct ft_ml_entry {
  int64_t seq;
  size_t bytes; /* packed */
  void *data;
  int in_flight; /* sends from `data` not completed yet */
};

struct ft_ml_channel {
  int comm, coll, peer, tag; /* the key */
  /* Out (this rank sends to peer). */
  int64_t sent, hw, wire_sent;
  struct ft_ml_entry *log; /* by increasing seq */
  size_t n_log, cap_log;
  int64_t resend_pre, resend_from, resend_to, resend_next; /* resend_next 0:
                                                             none */
  /* In (peer sends to this rank). */
  int64_t delivered, wire_taken;
  int64_t pre;          /* delivered before the first safe point */
  int64_t checkpointed; /* delivered at the last checkpoint */
};

/* The state is `rt->ml_state` (ml_state.h): the functions below get the
 * part of it their module owns (`mc`: the channels, ml_channels.c) or the
 * rank's root (`rt`), and pass it down. */

/* Sets up message logging's state for this rank (zeroed before). */
void ft_ml_init(struct ft_ml *ml, int world_rank);
/* What carries the channel's messages, and the peer's rank in it; aborts
 * on an unknown communicator. */
MPI_Comm ft_ml_wire(struct ft_runtime *rt, const struct ft_ml_channels *mc,
                    const struct ft_ml_channel *ch, int *peer_rank);
/* The channel of that key, created on first use. */
struct ft_ml_channel *ft_ml_channel(struct ft_ml_channels *mc, int comm,
                                    int coll, int peer, int tag);
/* Channels by index, for walks (NULL past the end). */
struct ft_ml_channel *ft_ml_channel_at(struct ft_ml_channels *mc, size_t i);

/* Adds a packed copy of a message to the log (seq must be new, else it is
 * dropped as already there) and resends it if a restarted peer waits for
 * it. Returns the entry. */
struct ft_ml_entry *ft_ml_log_add(struct ft_runtime *rt,
                                  struct ft_ml_channels *mc,
                                  struct ft_ml_channel *ch, int64_t seq,
                                  void *data, size_t bytes);
/* Sends what restarted peers wait for, in order, as far as the log goes. */
void ft_ml_serve(struct ft_runtime *rt, struct ft_ml_channels *mc,
                 struct ft_ml_channel *ch);
/* A send from an entry completed (its data may be freed by a GC). */
void ft_ml_send_done(struct ft_ml_channels *mc, int comm, int coll, int peer,
                     int tag, int64_t seq);
/* The receiver's checkpoint holds messages (pre, upto]: drops them. */
void ft_ml_collect(struct ft_ml_channels *mc, struct ft_ml_channel *ch,
                   int64_t pre, int64_t upto);
/* Waits for the resends still on their way (MPI_Finalize). */
void ft_ml_finish_resends(struct ft_ml_channels *mc);
/* Drops the log but the entries in flight (a failure). */
void ft_ml_log_lose(struct ft_ml_channels *mc);

/* Image region: size, write, and restore (counts and log of the image;
 * logical counts of channels absent from it reset). `clock` is the core's
 * clock at the checkpoint, `time` when it was taken; restore returns the
 * clock and sets *time. */
size_t ft_ml_region_size(const struct ft_ml_channels *mc);
void ft_ml_region_write(const struct ft_ml_channels *mc, void *dst,
                        int64_t clock, double time);
int64_t ft_ml_region_restore(struct ft_runtime *rt, struct ft_ml_channels *mc,
                             const void *src, size_t size, double *time);
/* At a checkpoint: remember what it delivered, for the GC at its commit. */
void ft_ml_mark_checkpoint(struct ft_runtime *rt, struct ft_ml_channels *mc,
                           int wave);
/* At the first safe point of the first run: what set-up received. */
void ft_ml_mark_pre(struct ft_ml_channels *mc);
/* Logical counts to 0 (main() runs again). */
void ft_ml_reset_logical(struct ft_ml_channels *mc);

/* ---- Control traffic (ml_control.c) ---- */

/* World rank of the event logger of application rank `rank`. */
int ft_ml_logger_of(const struct ft_runtime *rt, int rank);
/* Ships events to this rank's event logger. */
void ft_ml_ship(struct ft_runtime *rt, const struct ft_logged_event *events,
                size_t n);
/* COMMIT of this rank's checkpoint `wave`: its server, and the GC at the
 * senders. */
void ft_ml_commit(struct ft_runtime *rt, int wave);
/* Control messages of message logging (recovery.c passes them on). */
void ft_ml_on_control(struct ft_runtime *rt, const struct ft_wire *m);
/* A core control message of message logging's kinds (enum ft_ml_control)
 * arrived, of this incarnation, before the core steps on it (recovery.c
 * passes it on): LOGGED counts as a message of the event logger and is
 * traced. */
void ft_ml_on_core_control(struct ft_runtime *rt, const struct ft_wire *m);
/* Restart: forgets the answers of an interrupted restart, asks every rank
 * for its resends (this life's request; it also asks
 * for an empty message per zombie on their channels); the answers are
 * kept (rt->ml_state.answers counts them). */
void ft_ml_ask_resends(struct ft_runtime *rt);
/* Then, with every answer in and the zombies fed: takes the messages in
 * flight off the wire. */
void ft_ml_discard_answers(struct ft_runtime *rt);

/* ---- The logged events of a restart (ml_replay.c) ---- */

/* Fetches this rank's events from its logger; returns how many, the last
 * id in *horizon and in *events the events sorted by id (logging order
 * within an id), valid until ft_ml_replay_clear: what the core's RESTART
 * wants (it decides the replayed outcomes from them). */
int64_t ft_ml_fetch_events(struct ft_runtime *rt, int64_t *horizon,
                           const struct ft_logged_event **events);
/* Forgets the fetched events. */
void ft_ml_replay_clear(struct ft_ml_replay *replay);
/* The logger's answer to ft_ml_fetch_events (recovery passes it on). */
void ft_ml_on_events(struct ft_runtime *rt, const struct ft_wire *m);

/* ---- Operations (ml_ops.c): the application's and the collectives' ---- */

/* Sends and receives on communicator c: its p2p channel, or its
 * collective shadow (coll != 0). Every operation gets the rank's root
 * from the MPI wrapper that calls it. */
int ft_ml_isend(struct ft_runtime *rt, const void *buf, int count,
                MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                int coll, MPI_Request *req);
int ft_ml_irecv(struct ft_runtime *rt, void *buf, int count, MPI_Datatype type,
                int source, int tag, struct ft_comm *c, int coll,
                MPI_Request *req);
int ft_ml_wait(struct ft_runtime *rt, MPI_Request *req, MPI_Status *status);
int ft_ml_waitall(struct ft_runtime *rt, int n, MPI_Request reqs[],
                  MPI_Status statuses[]);
int ft_ml_waitany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  MPI_Status *status);
int ft_ml_waitsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]);
int ft_ml_test(struct ft_runtime *rt, MPI_Request *req, int *flag,
               MPI_Status *status);
int ft_ml_testany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  int *flag, MPI_Status *status);
int ft_ml_testsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]);
int ft_ml_testall(struct ft_runtime *rt, int n, MPI_Request reqs[], int *flag,
                  MPI_Status statuses[]);
int ft_ml_iprobe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                 int *flag, MPI_Status *status);
int ft_ml_probe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                MPI_Status *status);
/* MPI_Request_free of an operation of the application: a send is
 * forgotten (its sender-based copy stays in the log, as the wire may still
 * read it); a receive stops the run (its delivery would never be counted
 * nor logged). */
int ft_ml_request_free(struct ft_runtime *rt, MPI_Request *req);
/* MPI_Cancel of an operation of the application: refused (ft_fatal),
 * whether a send or a receive: whether a cancel succeeds depends on when
 * the message comes, and a restarted rank's replay (messages resent at
 * once) would decide differently. */
int ft_ml_cancel(struct ft_runtime *rt, MPI_Request *req);
/* Any-call mode (docs/protocols.md, "Any-call mode"): the requests
 * pending now, as an image region: its size, and its bytes written to
 * dst (an int64 count, then the records). */
size_t ft_ml_pending_size(const struct ft_ml_ops *ops);
void ft_ml_pending_write(const struct ft_ml_ops *ops, void *dst);
/* The restored image's region (size bytes at src): its records wait, by
 * id, for ft_ml_requests_restored; an ill-sized region stops the run. */
void ft_ml_pending_load(struct ft_runtime *rt, struct ft_ml_ops *ops,
                        const void *src, size_t size);
/* The driver's requests_restored (driver.h): posts again, in id order,
 * the requests the restored image held pending and gives handles[i] (the
 * image's value of the handle) its new value. A send is complete at once:
 * the wire had it before the checkpoint (its sequence number is at most
 * the channel's highest on the wire, which a failure keeps), and the
 * restored log holds its payload for a restarted receiver; a receive asks
 * the core (APP_RECV with its id) for the logged source of a wildcard.
 * Stops the run when a handle is not one of the image's, or one of the
 * image's is left out. */
void ft_ml_requests_restored(struct ft_runtime *rt, MPI_Request *handles,
                             size_t n, void *rbuf);

/* A failure: the receives of the lost life become zombies (see ml_ops.c);
 * what they took is counted. */
void ft_ml_drop_requests(struct ft_runtime *rt, struct ft_ml *ml);
/* Zombies posted for that channel (a named sender). */
int ft_ml_zombies_on(const struct ft_ml_ops *ops, int comm, int coll, int peer,
                     int tag);
/* Sends this rank an empty message for each wildcard zombie. */
void ft_ml_feed_wildcards(struct ft_runtime *rt);
/* Waits until every zombie took its message; counts them. */
void ft_ml_wait_zombies(struct ft_runtime *rt, struct ft_ml *ml);

/* Message logging's driver (driver.h, ml_driver.c): every point-to-point
 * operation, completion and probe above, and the hooks of the rank side:
 * the logged events shipped, the rank's own commits, its image regions,
 * its control kinds and the restart of this rank alone. */
extern const struct ft_driver ft_ml_driver;

/* ---- Service side (event_logger.c) ---- */

/* Message logging's service role (service_role.h): the event loggers on
 * the last options.event_loggers service ranks, and on the dispatcher the
 * restart of a failed rank alone (no rollback is ever ordered). */
extern const struct ft_service_role ft_ml_service;

/* ---- Restart (ml_restart.c) ---- */

/* The failed rank's recovery, before main() runs again. */
void ft_ml_restart(struct ft_runtime *rt);
/* At the first safe point of a restarted run: restores the image of
 * rt->restore_wave (also the application's regions) and the core's clock. */
void ft_ml_restore(struct ft_runtime *rt, const void *image, size_t size,
                   int wave);

#endif /* FT_MSGLOG_H */
