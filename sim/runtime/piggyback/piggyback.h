/* The piggyback family in the runtime (c3-collectives: C3's
 * application-level non-blocking checkpoints): the piggyback carried with
 * every application message, the state captured at a potential checkpoint
 * location, the suppress list, logged decisions and late messages stored
 * with the image, and their use after a rollback of every rank. Its state
 * is `rt->pb` (pb_state.h).
 *
 * The piggyback travels as a separate message (the paper's "separate"
 * form, section 6): on the communicator's collective shadow, with tag
 * FT_PB_TAG_BASE + the application's tag, sent right before the payload
 * and received right after it, matched by source and tag: MPI's
 * non-overtaking order pairs it with its payload. The collectives, which
 * the runtime carries over point-to-point on that shadow (coll.c), are
 * carried one unit per call by data-flow class (section 5, pb_coll.c):
 * barrier, bcast, scatter, gather, reduce, allreduce, allgather, alltoall
 * (under combined, and auto below its switch, bcast, gather, allgather and
 * alltoall in section 6's combined form: coll_combined.c); the others
 * message by message as the application's: piggybacked, late ones logged and
 * sent again, early ones suppressed. The barrier may be a potential checkpoint
 * location (pb_barrier.c). The probes and completion calls are logged and
 * forced (pb_nd.c). */
#ifndef FT_PIGGYBACK_H
#define FT_PIGGYBACK_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/driver.h"
#include "runtime/runtime.h"

/* The family's own wire kinds (control.h: numbered from
 * FT_WIRE_FAMILY_BASE), those of the restore after a rollback. */
enum ft_pb_wire {
  FT_WIRE_PB_RESTORE = FT_WIRE_FAMILY_BASE, /* receiver -> sender: value =
                                               suppress entries of yours in
                                               my image, x[0] = your late
                                               messages in its log (each
                                               follows) */
  FT_WIRE_PB_SUPPRESS, /* ... one suppress entry: value = the message id
                          (in your epoch) */
  FT_WIRE_PB_LATE      /* ... one late message: value = packed bytes
                          (ft_control_send_payload: in it or after it),
                          wave = its piggyback's epoch, x = 2 *
                          communicator + coll, my rank in it, tag, 2 * id +
                          amLogging */
};

/* The image region of the family (suppress list, decisions, late
 * messages, serialised: pb_restore.c). */
enum { FT_PB_REGION = FT_MAX_REGIONS };

/* The piggyback of an application message with tag t travels with tag
 * FT_PB_TAG_BASE + t on the collective shadow, that of a collective's
 * message with tag t (coll.c's, all below 16) with FT_PB_COLL_TAG_BASE + t:
 * above the collectives' own tags, apart from each other. */
enum { FT_PB_COLL_TAG_BASE = 16, FT_PB_TAG_BASE = 32 };

/* ---- The combined form (pb_combined.c; option piggyback=) ---- */

/* What leads every message of the application and of the collectives
 * under piggyback=combined or auto, on the message's own communicator and
 * tag: `form` says whether the packed payload follows in the same message
 * (FT_PB_FORM_COMBINED, FT_PB_FRAME_BYTES + payload bytes) or comes as a
 * message of its own on the shadow, with tag FT_PB_TAG_BASE (a
 * collective's: FT_PB_COLL_TAG_BASE) + tag, sent right after (a lone
 * piggyback, FT_PB_LONE_BYTES: fewer than a combined message's fewest, so
 * that a probe tells them apart). */
struct ft_pb_frame {
  int32_t form;
  uint32_t seq; /* a lone piggyback: its payload's number among the lone
                   payloads of its channel (shadow, sender, receiver, tag),
                   from 0 */
  struct ft_piggyback pb;
  int64_t spare; /* not sent with a lone piggyback */
};
enum ft_pb_form { FT_PB_FORM_COMBINED = 1, FT_PB_FORM_LONE = 2 };
enum {
  FT_PB_FRAME_BYTES = (int)sizeof(struct ft_pb_frame),
  FT_PB_LONE_BYTES = (int)offsetof(struct ft_pb_frame, spare)
};

/* 1 when messages carry their piggyback in the lead (piggyback=combined
 * or auto), 0 for the separate form. */
int ft_pb_framed(const struct ft_runtime *rt);
/* The driver's send_payload, recv_payload, completed and probed hooks
 * (driver.h): the piggyback in `pb->outgoing` (app_send, coll_send set it)
 * combined with the payload, or as a lone lead before it (auto, a payload
 * of piggyback_switch_bytes or more); the lead received into a buffer of
 * the family's, the payload moved into the application's, the status made
 * the application's view, the piggyback kept in `pb->incoming` for the
 * delivery; a synchronous send (FT_PAYLOAD_SYNC) is one on the wire too;
 * completed returns the error of a lone lead's payload (MPI_ERR_TRUNCATE),
 * also in status->MPI_ERROR. Nothing under piggyback=separate. */
int ft_pb_send_payload(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                       int coll, int how, MPI_Request *req, int *rc);
int ft_pb_recv_payload(struct ft_runtime *rt, void *buf, int count,
                       MPI_Datatype type, int source, int tag,
                       struct ft_comm *c, int coll, MPI_Request *req,
                       MPI_Status *status, int *rc);
int ft_pb_completed(struct ft_runtime *rt, MPI_Request req, MPI_Status *status);
void ft_pb_probed(struct ft_runtime *rt, struct ft_comm *c, int *flag,
                  MPI_Status *status);
/* The driver's request_freed hook: the application freed the request of
 * a send the family posted (MPI_Request_free): its buffer is kept until
 * MPI_Finalize, no longer listed (before, it stayed listed and leaked). */
void ft_pb_request_freed(struct ft_runtime *rt, MPI_Request req);
/* The piggyback of the oldest message received and not yet delivered
 * into *out: 1, or 0 when there is none. */
int ft_pb_take_incoming(struct ft_pb *pb, struct ft_piggyback *out);
/* A late message sent again (pb_restore.c) in the combined form: its
 * piggyback and its `bytes` packed bytes in one new buffer (*total bytes),
 * which the caller frees. */
void *ft_pb_frame_packed(const struct ft_piggyback *pb, const void *packed,
                         size_t bytes, size_t *total);
/* Forgets what the family posted (a rollback, after the settle), keeping
 * the buffers until ft_pb_framed_finish (MPI_Finalize), which frees
 * them, and those of messages still listed (never reported complete: a
 * line on stderr says how many). */
void ft_pb_framed_forget(struct ft_pb *pb);
void ft_pb_framed_finish(struct ft_runtime *rt);

/* ---- The log and the restore (pb_restore.c) ---- */

/* Keeps the payload of a late delivery the core said RECORD for (the
 * driver's record hook), with the piggyback it carried. */
void ft_pb_record(struct ft_runtime *rt, int peer, int64_t seq,
                  const struct ft_comm *c, const void *buf, int count,
                  MPI_Datatype type, const MPI_Status *status);
/* The same for a late message of a collective on c's shadow, with tag
 * `tag`: `status` says how much arrived (NULL: count elements). */
void ft_pb_record_coll(struct ft_runtime *rt, int peer, const struct ft_comm *c,
                       int tag, const void *buf, int count, MPI_Datatype type,
                       const MPI_Status *status);
/* The family's region of the image being stored: size, then written into
 * dst (size bytes): suppress list, decisions, the communicator creations
 * made before the captured safe point `index`, late messages. */
size_t ft_pb_region_size(const struct ft_pb *pb);
void ft_pb_region_write(const struct ft_pb *pb, int64_t index, void *dst);
/* Drops what the log holds (after a STORE, at a rollback). */
void ft_pb_clear_log(struct ft_pb *pb);
/* The resumption of a rollback (the driver's resuming hook): every rank
 * hands its suppress entries and late messages to their senders, waits
 * for every rank's, and fills e->logged. */
void ft_pb_resuming(struct ft_runtime *rt, struct ft_event *e);
/* The first safe point after a rollback (the driver's restored hook): sends
 * again the late messages their receivers handed back, before the
 * application goes on. */
void ft_pb_restored(struct ft_runtime *rt, const struct ft_local_image *img);
/* 1 when a late message of communicator `comm` (its name) is still to be
 * sent again, or sent again and maybe in flight; 0 otherwise. */
int ft_pb_resending(const struct ft_pb *pb, int comm);
/* Sends again the late messages handed back whose communicator exists
 * (main() creates some after its first safe point), before anything new
 * of this rank: called at every send, safe point and communicator
 * creation. Nothing before the image is restored. */
void ft_pb_flush(struct ft_runtime *rt);
/* The restore's control messages (FT_WIRE_PB_*). */
int ft_pb_on_control(struct ft_runtime *rt, const struct ft_wire *m);
/* Forgets a restore in progress (a new rollback). */
void ft_pb_reset_restore(struct ft_pb *pb);
/* Waits for (wait = 1) or forgets (0) the late messages sent again
 * (settle), and waits for them at MPI_Finalize, where a late message still
 * not sent again (its communicator never made again) stops the run. */
void ft_pb_settle(struct ft_runtime *rt, int wait);
void ft_pb_finish(struct ft_runtime *rt);

/* ---- Communicators (pb_comms.c) ---- */

/* The driver's comm_made hook: records the creation `call` of the
 * application, which made `made` (maybe MPI_COMM_NULL), then sends again
 * the late messages handed back whose communicator now exists. */
void ft_pb_comm_made(struct ft_runtime *rt, const struct ft_gate_call *call,
                     MPI_Comm made);
/* The driver's comm_freed hook: the application freed c; its creation is
 * marked freed (at the rank's current safe point count). */
void ft_pb_comm_freed(struct ft_runtime *rt, const struct ft_comm *c);
/* At a capture: the creations made so far are those of the checkpoint. */
void ft_pb_capture_creations(struct ft_pb *pb);
/* At a rollback: main() runs again from the top, with no creation made. */
void ft_pb_forget_creations(struct ft_pb *pb);
/* The captured creations in the image: the bytes they take, written at p
 * (those freed before safe point `index` marked freed; returns the end),
 * read back from p (at most up to end) into *out (its arrays grown with
 * ft_reserve; the caller frees them; returns the end). A truncated region
 * is fatal. */
size_t ft_pb_creations_size(const struct ft_pb *pb);
unsigned char *ft_pb_creations_write(const struct ft_pb *pb, int64_t index,
                                     unsigned char *p);
const unsigned char *ft_pb_creations_read(struct ft_runtime *rt,
                                          const unsigned char *p,
                                          const unsigned char *end,
                                          struct ft_pb_creations *out);
/* The restore (restored hook), at the first safe point after a rollback:
 * makes again, through their gates and in their order, the creations of
 * `img` (the image's) this run of main() has not made before its first
 * safe point, sending again the late messages of each as soon as it exists;
 * a creation that differs from the image's, or one made again with another
 * name than the first run's, is fatal. In a replay at any call
 * (FT_AC_REPOST) it makes none: the replay makes them again itself, right
 * after the restore, with handles it holds (the late messages then leave
 * as each is made: comm_made). */
void ft_pb_make_again(struct ft_runtime *rt, const struct ft_pb_creations *img);

/* ---- Non-deterministic calls (pb_nd.c) ---- */

/* The driver's iprobe, probe, waitany, waitsome, testany and testsome
 * (driver.h; test and testall below): the default paths of p2p.c, each call
 * numbered by the core (APP_PROBE, APP_COMPLETION), what it found told to it
 * (PROBED, COMPLETION: the completed requests' indices in reqs) and logged
 * while logging (section 3.1, Phase #2 (ii)), and a logged outcome forced after
 * a rollback. MPI_Probe naming its source and tag is not numbered. At most 64
 * completions per call (c3.h's FT_C3_MAX_COMPLETIONS; more is fatal). A
 * logged request that is not active in the re-execution (a suppressed send
 * reported complete already) is skipped; a call left with none goes
 * live. */
int ft_pb_iprobe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                 int *flag, MPI_Status *status);
int ft_pb_probe(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                MPI_Status *status);
int ft_pb_waitany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  MPI_Status *status);
int ft_pb_waitsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]);
int ft_pb_testany(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                  int *flag, MPI_Status *status);
int ft_pb_testsome(struct ft_runtime *rt, int n, MPI_Request reqs[],
                   int *outcount, int indices[], MPI_Status statuses[]);
/* The driver's test and testall, as testany and testsome: MPI_Test's
 * outcome (the request complete or not) and the requests MPI_Testall
 * completed (SMPI completes those that are done even when not all are)
 * told to the core, logged while logging and forced after a rollback. */
int ft_pb_test(struct ft_runtime *rt, MPI_Request *req, int *flag,
               MPI_Status *status);
int ft_pb_testall(struct ft_runtime *rt, int n, MPI_Request reqs[], int *flag,
                  MPI_Status statuses[]);
/* The driver's held_completion: a completion call p2p.c answered with a
 * completion it held (index) counts, its outcome logged while logging. */
void ft_pb_held_completion(struct ft_runtime *rt, int index);

/* ---- The barrier's potential checkpoint (pb_barrier.c) ---- */

/* The driver's barrier hook (driver.h), with c3_barrier_checkpoint=1
 * (c3-collectives Figure 8): the members of c exchange their epochs and
 * amLogging bits, and the barrier is a safe point where a rank asked to
 * checkpoint, or behind a member that is checkpointing or did, takes its
 * checkpoint; after a rollback, where the image is restored. Every member
 * must call it (the application's MPI_Barrier). Without the option:
 * nothing. */
void ft_pb_barrier(struct ft_runtime *rt, struct ft_comm *c);

/* ---- Collectives as one unit per call (pb_coll.c) ---- */

/* The family's second image region: logged results and reexecList. */
enum { FT_PB_COLL_REGION = FT_MAX_REGIONS + 1 };

/* The driver's coll_enter, coll_decide, coll_leave and coll_reexec
 * (driver.h), c3-collectives Figures 5-8 (see pb_coll.c): the call
 * numbered by the core, the decision of ft_c3_collective carried out (the
 * result logged at the leave, the suppress list, the reexecList, the stop
 * of logging), a logged or suppressed call not carried out after a
 * rollback, the reexecList's calls handed out after a restore. */
int ft_pb_coll_enter(struct ft_runtime *rt, struct ft_comm *c,
                     struct ft_coll_call *call);
void ft_pb_coll_decide(struct ft_runtime *rt, struct ft_comm *c,
                       struct ft_coll_call *call, const unsigned char *bits);
void ft_pb_coll_leave(struct ft_runtime *rt, struct ft_comm *c,
                      struct ft_coll_call *call);
int ft_pb_coll_reexec(struct ft_runtime *rt, struct ft_coll_reexec *out);
/* A STORE of epoch `wave` keeping `late` late messages while a call in
 * progress may still log its result: 1, put off until the call decided;
 * 0: store now. ft_pb_coll_store_due then says (1, *wave, *late) when the
 * call decided or logged its result and the STORE put off is due. */
int ft_pb_coll_defer_store(struct ft_runtime *rt, int wave, int64_t late);
int ft_pb_coll_store_due(struct ft_runtime *rt, int *wave, int64_t *late);
/* Stores the captured image of epoch `wave` with the family's regions
 * (pb_driver.c); `late`: the late messages the core keeps. */
void ft_pb_store(struct ft_runtime *rt, int wave, int64_t late);
/* At a capture: the calls to re-execute made so far are the checkpoint's,
 * and no result is logged yet. */
void ft_pb_coll_capture(struct ft_pb *pb);
/* The region FT_PB_COLL_REGION of the image being stored: its size, then
 * written into dst; after the store the log is dropped (stored). */
size_t ft_pb_coll_region_size(const struct ft_pb *pb);
void ft_pb_coll_region_write(const struct ft_pb *pb, void *dst);
void ft_pb_coll_stored(struct ft_pb *pb);
/* At the resumption of a rollback to `img` (NULL: the start): its results
 * to replay and its calls to re-execute; each result's call is appended
 * to the core's entries `given` (FT_LOGGED_COLL). A truncated region is
 * fatal. */
void ft_pb_coll_resuming(struct ft_runtime *rt,
                         const struct ft_local_image *img,
                         struct ft_pb_events *given);
/* Forgets all of it (a rollback), and frees it (MPI_Finalize). */
void ft_pb_coll_forget(struct ft_pb *pb);
void ft_pb_coll_finish(struct ft_pb *pb);

/* ---- Driver (pb_driver.c) ---- */

/* The piggyback family's driver (driver.h): the default point-to-point
 * path with the piggyback added, and the hooks that capture, log, store
 * and restore C3's checkpoints. */
extern const struct ft_driver ft_pb_driver;

#endif /* FT_PIGGYBACK_H */
