/* ftsim's any-call transport: what the replay program (sim/replay) calls so
 * that a recovering protocol checkpoints at any MPI call (issue 16, item 3;
 * docs/protocols.md, "Any-call mode", the runtime side). Message logging
 * needs no transport (FT_AC_ALONE below): only ft_ac_mode and
 * ft_ac_requests_restored concern it; nor does c3 (FT_AC_REPOST): only
 * ft_ac_mode.
 *
 * In this mode the replay makes no MPI call for its messages: it hands
 * each one to the transport, which sends it on the incarnation's
 * point-to-point channel (no payload: the buffers are SMPI shared blocks;
 * under SMPI its data apart, whose transfer starts when the replay's
 * receive is posted, as SMPI's: sim/runtime/anycall.h, "The data
 * channel"), receives every message (its header) eagerly, matches them to
 * the replay's receives by MPI's rules (posted receives in posting order,
 * arrived messages in arrival order, specific source and tag only), and
 * tells the protocol's core each step (CALL, APP_SEND, APP_RECV, ARRIVED,
 * DELIVERED, CALL_END), carrying out what it answers: deferred sends, the
 * delayed receive queue, channel state, checkpoints taken inside the
 * call. An image holds the replay's protected buffers (ft_protect) and the
 * transport's state: the call, the pending handles and the messages
 * arrived and not received (vcl: and its channel state).
 *
 * The transport makes progress only inside the calls below. A checkpoint
 * may be taken inside ft_ac_call and inside the waits (ft_ac_waitall,
 * ft_ac_probe), never inside the posts: the replay updates its protected
 * position before each call, so that after a rollback, ft_snapshot having
 * restored it, the replay resumes in the call the image was taken in (its
 * ft_ac_call then does not count a new call).
 *
 * Every function but ft_ac_mode, ft_ac_start and ft_ac_requests_restored
 * requires a run where ft_ac_start returned 1, between MPI_Init and
 * MPI_Finalize. Errors stop the run (ft_fatal). */
#ifndef FT_ANYCALL_H
#define FT_ANYCALL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A completed receive's envelope (source: application rank). */
struct ft_ac_status {
  int source, tag;
  uint64_t bytes;
};

/* How this run checkpoints (ft_ac_mode). */
enum ft_ac_kind {
  FT_AC_OFF = 0,       /* at safe points only (ft_snapshot) */
  FT_AC_TRANSPORT = 1, /* at any call, through the transport (pcl, vcl) */
  FT_AC_ALONE = 2,     /* at any call, each rank alone (message logging) */
  FT_AC_REPOST = 3     /* at any call, every rank rolled back, the replay
                          posting its pending receives again itself (c3) */
};

/* FT_AC_TRANSPORT when this run checkpoints at any call through the
 * transport (the option any_call=1, which `ftsim run --replay` sets, and
 * a core of the protocol that accepts that mode and rolls every rank
 * back: pcl, vcl); then the replay calls ft_ac_start and the functions
 * below. FT_AC_ALONE when the core accepts that mode and restarts a
 * failed rank alone (pessimist, v2): the replay keeps its MPI calls and
 * calls ft_snapshot before each of them, pending requests or not, and
 * after a restore ft_ac_requests_restored; of the functions below only
 * that one may be called. FT_AC_REPOST when the core accepts that mode
 * and its family keeps the replay's calls on its own path and rolls every
 * rank back (c3, an application-level protocol: docs/protocols.md, "C3 in
 * a replay"): the replay calls ft_snapshot before each call as under
 * FT_AC_ALONE, and after a restore makes its communicators again and posts
 * the receives its image held pending again itself (its sends pending
 * there are complete); nothing here may be called. Else FT_AC_OFF: the
 * replay keeps its MPI calls and its consistent cuts, and nothing here may
 * be called. */
int ft_ac_mode(void);

/* FT_AC_ALONE mode, right after ft_snapshot returned FT_SNAPSHOT_RESTORED:
 * handles[0..n) are the handles of the requests pending at the checkpoint
 * as the restored image holds them (values of the life that took it:
 * MPI_Request values do not survive a restart); each becomes a valid
 * handle of the same request again. A send is complete at once (its
 * payload is in the restored sender-based log and the wire had it: it is
 * neither sent again nor lost); a receive is posted again into `rbuf`
 * (room for the largest of them) with its recorded source and tag, or the
 * source and tag the logged events give a wildcard one, in the order the
 * requests were first posted, before anything new. The n handles must be
 * exactly those the image holds pending (else the run stops, naming the
 * first one that differs). */
void ft_ac_requests_restored(MPI_Request *handles, size_t n, void *rbuf);

/* Starts the transport: returns 1 when ft_ac_mode() is FT_AC_TRANSPORT,
 * else 0 and nothing changes (the replay keeps its MPI calls). `sbuf` and
 * `rbuf` hold `max_bytes` (SMPI_SHARED_MALLOC: no payload is copied); `comms`
 * is the number of communicators the replay names (trace ids 0 .. comms-1) and
 * `max_tag` the largest tag: a tag or communicator that the wire's tag
 * cannot encode (MPI_TAG_UB) stops the run before anything is sent. Call
 * it in every life (after a rollback main() runs again), before
 * ft_snapshot. */
int ft_ac_start(void *sbuf, void *rbuf, uint64_t max_bytes, uint32_t comms,
                int32_t max_tag);

/* The replay enters its next MPI call (FT_EVENT_CALL), or, first after a
 * restore inside a call, that call again (nothing is fed). */
void ft_ac_call(void);
/* The call returns (FT_EVENT_CALL_END). */
void ft_ac_call_end(void);

/* Posts a send of `bytes` to application rank `dest` on communicator
 * `comm` (a trace id), with `tag` (>= 0); `coll` non-zero: a collective's
 * message (an envelope space of its own). `handle` names it until a wait
 * completes it; it must not name a pending request. Never blocks. */
void ft_ac_isend(int64_t handle, int dest, uint32_t comm, int coll, int32_t tag,
                 uint64_t bytes);
/* Posts a receive of at most `bytes` from application rank `source` with
 * `tag` on `comm` (coll as above). Never blocks. */
void ft_ac_irecv(int64_t handle, int source, uint32_t comm, int coll,
                 int32_t tag, uint64_t bytes);
/* Waits until the n requests are complete (a deferred send until it is
 * sent), then forgets them; statuses[i] (unless NULL) gets a receive's
 * envelope. A handle not pending is an error. */
void ft_ac_waitall(size_t n, const int64_t *handles,
                   struct ft_ac_status *statuses);
/* One MPI_Test of `handle`, charged as SMPI charges the replay's own (a
 * complete request's test, its data transfer's, or, before that, the
 * oldest arrival's: progress once without blocking); returns 1 when
 * `handle` is complete (it stays pending until a wait). */
int ft_ac_test(int64_t handle);
/* A probe for a receivable message from `source` with `tag` on `comm`:
 * `blocking` waits for one; returns 1 and its envelope in *st when there is
 * one. */
int ft_ac_probe(int source, uint32_t comm, int32_t tag, int blocking,
                struct ft_ac_status *st);
/* Forgets a posted receive not matched yet (MPI_Cancel); a complete or
 * unknown handle is left as it is. */
void ft_ac_cancel(int64_t handle);

/* MPI_Request_free: `handle` is let go; an active request goes on (a
 * receive still takes its message) and is forgotten once complete. */
void ft_ac_free(int64_t handle);

/* The recorded memory footprint now (bytes): the modelled size of the
 * next checkpoint's image, unless the run sets image_mb (> 0), which
 * wins. */
void ft_ac_footprint(uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif /* FT_ANYCALL_H */
