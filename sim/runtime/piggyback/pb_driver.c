/* The piggyback family's driver (c3): the piggyback carried with every
 * application message on the default point-to-point path, the state a
 * checkpoint captures at its potential checkpoint location, the suppress
 * list and the decisions it logs, and the image it stores. The log and the
 * restore are in pb_restore.c. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "piggyback.h"
#include "runtime/trace.h"

_Static_assert((int)FT_CS_MAX_REGIONS >= (int)FT_MAX_REGIONS,
               "a state copy holds every protected buffer");

/* ---- The piggyback (section 3.3) ---- */

/* c3-collectives, section 3.3: "every application message carries its
 * sender's epoch colour and amLogging bit": sent right before the
 * payload. A suppressed send is not carried out.
 *
 * The piggyback's send costs simulated time after the caller looked at
 * the rank's failure time, so the rank looks again before its payload
 * leaves: a rank that failed sends nothing (user/errors_c3, about 1 run in
 * 40 on a loaded host, measured computation: rank 1 failed at 0.010770440
 * s and sent a payload 0.74 us later, ftsim check's after-failure rule).
 * A piggyback left without its payload is dropped with the incarnation's
 * communicators at the rollback of every rank. */
static int pb_app_send(struct ft_runtime *rt, const struct ft_update *u,
                       int dest, int tag, struct ft_comm *c) {
  ft_pb_flush(rt);
  if (u->flags & FT_UPDATE_SUPPRESS) {
    rt->pb.suppressed++;
    ft_trace_suppress(rt, c->name, 0, ft_comm_app_rank(c, dest), tag);
    return 1;
  }
  if (!(u->flags & FT_UPDATE_PIGGYBACK))
    return 0;
  if (ft_pb_framed(rt)) { /* it leads the payload (pb_combined.c) */
    rt->pb.outgoing = u->piggyback;
    return 0;
  }
  if (tag > INT_MAX - FT_PB_TAG_BASE)
    ft_fatal("rank %d: tag %d leaves no room for its piggyback's (%d + tag)",
             rt->world_rank, tag, (int)FT_PB_TAG_BASE);
  FT_PMPI(Send, &u->piggyback, (int)sizeof u->piggyback, MPI_BYTE, dest,
          FT_PB_TAG_BASE + tag, c->coll);
  ft_control_fate(rt); /* looked at again: see above */
  return 0;
}

/* The piggyback that led the message just received (combined form): 1
 * and *pb set; 0 under the separate form. */
static int take_incoming(struct ft_runtime *rt, struct ft_piggyback *pb) {
  if (!ft_pb_framed(rt))
    return 0;
  if (!ft_pb_take_incoming(&rt->pb, pb))
    ft_fatal("rank %d: a delivery without the piggyback that led it",
             rt->world_rank);
  return 1;
}

static int same_channel(const struct ft_pb_stashed *p, MPI_Comm comm,
                        int source, int tag) {
  return p->comm == comm && p->source == source && p->tag == tag;
}

/* The separate form: the piggyback of the message a receive of the
 * application just took from `source` with `tag` on c. Piggybacks travel
 * on the shadow in their channel's order, right before their payloads;
 * MPI matches a channel's messages with its receives in their posting
 * order, so the message is the channel's first not yet delivered unless
 * receives posted before it, still not reported complete, took earlier
 * ones (`ahead`, ft_delivery_ahead: the application completes them later,
 * MPI_Wait on the later receive first). Those piggybacks are received now
 * and kept for their deliveries. Before, the delivery took the first on
 * the channel, the earlier message's: the two swapped piggybacks, and a
 * late message was logged with the other's payload (e2e/
 * c3_separate_named_swap_failures). An earlier receive posted with
 * MPI_ANY_SOURCE or MPI_ANY_TAG that may have taken one is never among
 * them: the runtime completed and delivered it first (delivery.c,
 * resolve_wildcards; pb_resolves_wildcards), so `wild` stays 0 (before,
 * such a receive was counted as another channel's and the two could swap:
 * e2e/c3_separate_any_swap_failures). */
static void take_separate(struct ft_runtime *rt, const struct ft_comm *c,
                          const MPI_Status *status, struct ft_piggyback *out) {
  struct ft_pb *pb = &rt->pb;
  int source = status->MPI_SOURCE, tag = status->MPI_TAG, wild = 0;
  size_t ahead = ft_delivery_ahead(rt, c->user, source, tag, &wild), have = 0;
  if (wild)
    ft_fatal("rank %d: a wildcard receive posted before this delivery from "
             "%d with tag %d was not completed first",
             rt->world_rank, source, tag);
  for (size_t i = 0; i < pb->n_stashed; i++)
    have += same_channel(&pb->stashed[i], c->coll, source, tag) ? 1 : 0;
  for (; have <= ahead; have++) {
    pb->stashed = ft_reserve(pb->stashed, pb->n_stashed + 1, &pb->cap_stashed,
                             sizeof *pb->stashed, "c3 piggybacks");
    struct ft_pb_stashed *p = &pb->stashed[pb->n_stashed++];
    *p = (struct ft_pb_stashed){.comm = c->coll, .source = source, .tag = tag};
    FT_PMPI(Recv, &p->pb, (int)sizeof p->pb, MPI_BYTE, source,
            FT_PB_TAG_BASE + tag, c->coll, MPI_STATUS_IGNORE);
  }
  for (size_t i = 0, k = 0; i < pb->n_stashed; i++) {
    if (!same_channel(&pb->stashed[i], c->coll, source, tag) || k++ < ahead)
      continue;
    *out = pb->stashed[i].pb;
    memmove(&pb->stashed[i], &pb->stashed[i + 1],
            (pb->n_stashed - i - 1) * sizeof *pb->stashed);
    pb->n_stashed--;
    return;
  }
}

/* driver.h's resolves_wildcards: under the separate form, which message a
 * wildcard receive took must be known before a later receive of its
 * channel is delivered (take_separate); the combined forms carry the
 * piggyback in the message itself and need nothing. */
static int pb_resolves_wildcards(const struct ft_runtime *rt) {
  return !ft_pb_framed(rt);
}

/* The piggyback of the message just received: on the shadow with its
 * source and tag (separate form, take_separate), or the one that led it. */
static void pb_delivering(struct ft_runtime *rt, const struct ft_comm *c,
                          const MPI_Status *status, struct ft_event *e) {
  if (!take_incoming(rt, &e->piggyback))
    take_separate(rt, c, status, &e->piggyback);
  ft_control_fate(rt); /* as pb_coll_delivered */
  rt->pb.last_peer = e->peer;
  rt->pb.last = e->piggyback;
  rt->pb.last_recv = e->id;
  rt->pb.deliveries++;
}

/* After a rollback to a checkpoint, main() runs again from the top to its
 * first safe point, where the image is restored: the messages of that
 * prologue were made before the checkpoint, by every rank alike, and are
 * not messages of the restored epoch (the core does not see them,
 * hide_prologue; they still carry an empty piggyback, so that every message
 * has one whatever the receiver's state). Before, an application that sent
 * in its prologue deadlocked after any failure: the core numbered those
 * sends as the first of the restored epoch and suppressed them. */
static int in_prologue(const struct ft_runtime *rt) {
  return ft_prologue_hidden(rt);
}

/* A collective's message, as the application's (piggyback.h): the core
 * sees its send. */
static int pb_coll_send(struct ft_runtime *rt, struct ft_comm *c, int dest,
                        int tag) {
  struct ft_update u = {0};
  if (!in_prologue(rt)) {
    ft_pb_flush(rt);
    struct ft_event e = {.type = FT_EVENT_APP_SEND,
                         .peer = ft_comm_app_rank(c, dest),
                         .tag = tag};
    ft_core_decide(rt, &e, &u);
    ft_apply_update(rt, &u);
  }
  if (u.flags & FT_UPDATE_SUPPRESS) {
    rt->pb.suppressed++;
    ft_trace_suppress(rt, c->name, 1, ft_comm_app_rank(c, dest), tag);
    return 1;
  }
  if (ft_pb_framed(rt)) {
    rt->pb.outgoing = u.piggyback;
    return 0;
  }
  FT_PMPI(Send, &u.piggyback, (int)sizeof u.piggyback, MPI_BYTE, dest,
          FT_PB_COLL_TAG_BASE + tag, c->coll);
  ft_control_fate(rt); /* as pb_app_send */
  return 0;
}

/* ... and its delivery, with its piggyback: late ones are logged.
 *
 * The piggyback's receive costs simulated time after the caller looked at
 * the rank's failure time, and a collective's receives are reported one
 * after the other (coll_algo.c, report_deliveries): the rank looks again,
 * so that a rank that failed takes no more (soak seed 9131, c3: rank 0,
 * the root of a gather on 6 ranks, failed at 0.019534493 and delivered
 * three more messages, each one piggyback's latency after the last, from
 * 0.019550499 on). */
static void pb_coll_delivered(struct ft_runtime *rt, struct ft_comm *c,
                              int source, int tag, void *buf, int count,
                              MPI_Datatype type, const MPI_Status *status) {
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = ft_comm_app_rank(c, source),
                       .tag = tag};
  if (!take_incoming(rt, &e.piggyback))
    FT_PMPI(Recv, &e.piggyback, (int)sizeof e.piggyback, MPI_BYTE, source,
            FT_PB_COLL_TAG_BASE + tag, c->coll, MPI_STATUS_IGNORE);
  ft_control_fate(rt);
  if (in_prologue(rt))
    return;
  rt->pb.last_peer = e.peer;
  rt->pb.last = e.piggyback;
  rt->pb.last_recv = 0;
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (u.flags & FT_UPDATE_RECORD)
    ft_pb_record_coll(rt, e.peer, c, tag, buf, count, type, status);
  ft_apply_update(rt, &u);
}

/* ---- Checkpoints (section 3.1) ---- */

static void push_event(struct ft_pb_events *l,
                       const struct ft_logged_event *e) {
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 log");
  l->at[l->n++] = *e;
}

static void copy_free(struct ft_state_copy *c) {
  free(c->bytes);
  *c = (struct ft_state_copy){0};
}

/* A replay at any call (FT_AC_REPOST): the checkpoint is counted, and
 * whether the rank had requests pending on application communicators
 * (their records are in the replay's protected request table), traced as
 * message logging's are ("pending WAVE N"). */
static void count_pending(struct ft_runtime *rt, int wave) {
  if (!rt->ac.core_mode)
    return;
  rt->pb.ckpt_calls++;
  rt->pb.ckpt_pending += rt->n_pending > 0;
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "pending", "%d %zu", wave, rt->n_pending);
}

/* Section 3.1, Phase #2: "it saves its local state and the identities of
 * any early messages": the protected buffers at this safe point, and the
 * early messages received so far become the checkpoint's suppress list. */
static void capture(struct ft_runtime *rt, int wave, int64_t index) {
  struct ft_pb *pb = &rt->pb;
  if (!rt->at_safe_point || index != rt->safe_points)
    ft_fatal("rank %d: c3 captures safe point %lld, the rank is at %lld",
             rt->world_rank, (long long)index, (long long)rt->safe_points);
  struct ft_image_region regions[FT_MAX_REGIONS];
  size_t n = ft_checkpoint_regions(rt, regions), size = 0;
  for (size_t i = 0; i < n; i++)
    size += regions[i].bytes;
  copy_free(&pb->captured);
  pb->captured.bytes = malloc(size ? size : 1);
  if (!pb->captured.bytes)
    ft_fatal("rank %d: out of memory copying %zu bytes of state",
             rt->world_rank, size);
  ft_image_regions_copy(regions, n, pb->captured.bytes, pb->captured.regions);
  pb->captured.n = n;
  pb->captured.size = size;
  pb->captured.index = index;
  pb->captured.wave = wave;
  ft_pb_capture_creations(pb);
  count_pending(rt, wave);
  ft_pb_coll_capture(pb);
  struct ft_pb_events swap = pb->suppress;
  pb->suppress = pb->early;
  pb->early = swap;
  pb->early.n = 0;
}

/* Section 3.1, Phase #4: "Once the process has saved its log on disk":
 * the captured state with the family's regions (the log; the collectives'
 * results and reexecList, pb_coll.c), sent to the server. */
void ft_pb_store(struct ft_runtime *rt, int wave, int64_t kept) {
  struct ft_pb *pb = &rt->pb;
  struct ft_state_copy *c = &pb->captured;
  if (c->index == 0 || c->wave != wave)
    ft_fatal("rank %d: c3 stores epoch %d, captured: epoch %d", rt->world_rank,
             wave, c->wave);
  if (kept != (int64_t)pb->n_late)
    ft_fatal("rank %d: c3 keeps %lld late messages, the log holds %zu",
             rt->world_rank, (long long)kept, pb->n_late);
  struct ft_image_region regions[FT_MAX_REGIONS + 2];
  memcpy(regions, c->regions, c->n * sizeof *regions);
  size_t bytes = ft_pb_region_size(pb), coll = ft_pb_coll_region_size(pb);
  void *region = malloc(bytes), *units = malloc(coll);
  if (!region || !units)
    ft_fatal("rank %d: out of memory for its c3 log", rt->world_rank);
  ft_pb_region_write(pb, c->index, region);
  ft_pb_coll_region_write(pb, units);
  regions[c->n] = (struct ft_image_region){
      .id = FT_PB_REGION, .ptr = region, .bytes = bytes};
  regions[c->n + 1] = (struct ft_image_region){
      .id = FT_PB_COLL_REGION, .ptr = units, .bytes = coll};
  pb->recorded += pb->n_late;
  ft_checkpoint_write(rt, wave, c->index, regions, c->n + 2);
  free(region);
  free(units);
  copy_free(c);
  pb->suppress.n = pb->decisions.n = 0;
  ft_pb_clear_log(pb);
  ft_pb_coll_stored(pb);
}

/* STORE: now, or once the collective call in progress decided whether
 * its result goes into this log (pb_coll.c). */
static void store(struct ft_runtime *rt, const struct ft_update *u) {
  int64_t kept = 0;
  for (size_t i = 0; i < u->n_keep; i++)
    kept += u->keep[i].last - u->keep[i].first + 1;
  if (!ft_pb_coll_defer_store(rt, u->wave, kept))
    ft_pb_store(rt, u->wave, kept);
}

static void pb_update(struct ft_runtime *rt, const struct ft_update *u,
                      enum ft_update_stage stage) {
  struct ft_pb *pb = &rt->pb;
  if (stage == FT_STAGE_STATE && (u->flags & FT_UPDATE_CAPTURE))
    capture(rt, u->wave, u->index);
  if (stage == FT_STAGE_STATE && (u->flags & FT_UPDATE_EARLY))
    push_event(&pb->early, &(struct ft_logged_event){.kind = FT_LOGGED_SUPPRESS,
                                                     .peer = pb->last_peer,
                                                     .value = pb->last.id});
  for (size_t i = 0;
       stage == FT_STAGE_STATE && (u->flags & FT_UPDATE_LOG) && i < u->n_events;
       i++) {
    push_event(&pb->decisions, &u->events[i]);
    pb->logged++;
  }
  if (stage == FT_STAGE_END && (u->flags & FT_UPDATE_STORE))
    store(rt, u);
}

/* ---- Collectives as one unit per call (pb_coll.c) ---- */

/* Late messages handed back go before anything new of this rank. */
static int pb_coll_enter(struct ft_runtime *rt, struct ft_comm *c,
                         struct ft_coll_call *call) {
  ft_pb_flush(rt);
  return ft_pb_coll_enter(rt, c, call);
}

/* A STORE put off while the call decided whether its result goes into
 * the log. */
static void store_due(struct ft_runtime *rt) {
  int wave;
  int64_t late;
  if (ft_pb_coll_store_due(rt, &wave, &late))
    ft_pb_store(rt, wave, late);
}

static void pb_coll_decide(struct ft_runtime *rt, struct ft_comm *c,
                           struct ft_coll_call *call,
                           const unsigned char *bits) {
  ft_pb_coll_decide(rt, c, call, bits);
  store_due(rt);
}

static void pb_coll_leave(struct ft_runtime *rt, struct ft_comm *c,
                          struct ft_coll_call *call) {
  ft_pb_coll_leave(rt, c, call);
  store_due(rt);
}

/* The resumption (pb_restore.c), with the calls of the image's
 * collectives log among the core's entries. */
static void pb_resuming(struct ft_runtime *rt, struct ft_event *e) {
  ft_pb_resuming(rt, e);
  ft_pb_coll_resuming(rt, e->wave > 0 ? ft_local_image_of(rt, e->wave) : NULL,
                      &rt->pb.given);
  e->logged = rt->pb.given.n ? rt->pb.given.at : NULL;
  e->n_logged = rt->pb.given.n;
}

static void pb_finish(struct ft_runtime *rt) {
  free(rt->pb.stashed);
  rt->pb.stashed = NULL;
  rt->pb.n_stashed = rt->pb.cap_stashed = 0;
  ft_pb_finish(rt);
  ft_pb_coll_finish(&rt->pb);
}

/* ---- A rollback of every rank ---- */

/* Before READY: what the abandoned run kept goes. */
static void pb_rollback(struct ft_runtime *rt) {
  struct ft_pb *pb = &rt->pb;
  copy_free(&pb->captured);
  pb->early.n = pb->suppress.n = pb->decisions.n = 0;
  ft_pb_clear_log(pb);
  ft_pb_reset_restore(pb);
  ft_pb_forget_creations(pb); /* main() runs again from the top */
  ft_pb_framed_forget(pb);    /* after the settle: nothing in flight */
  pb->n_stashed = 0;          /* the abandoned incarnation's shadows */
  ft_pb_coll_forget(pb);
}

static void pb_figures(const struct ft_runtime *rt,
                       struct ft_family_figures *f) {
  f->recorded += rt->pb.recorded;
  f->replayed += rt->pb.replayed;
  f->events += rt->pb.logged;
  f->deliveries += rt->pb.deliveries;
  f->ac_ckpts += rt->pb.ckpt_calls;
  f->ac_in_flight += rt->pb.ckpt_pending;
}

/* The family's wire kinds by name (driver.h, wire_name). */
static const char *pb_wire_name(int kind) {
  switch (kind) {
  case FT_WIRE_PB_RESTORE:
    return "PB_RESTORE";
  case FT_WIRE_PB_SUPPRESS:
    return "PB_SUPPRESS";
  case FT_WIRE_PB_LATE:
    return "PB_LATE";
  default:
    return NULL;
  }
}

/* A late message's bytes follow its PB_LATE (driver.h, wire_payload). */
static int pb_wire_payload(const struct ft_wire *m) {
  return m->kind == FT_WIRE_PB_LATE ? FT_TAG_PAYLOAD : 0;
}

const struct ft_driver ft_pb_driver = {.name = "piggyback",
                                       .update = pb_update,
                                       .record = ft_pb_record,
                                       .app_send = pb_app_send,
                                       .delivering = pb_delivering,
                                       .resolves_wildcards =
                                           pb_resolves_wildcards,
                                       .iprobe = ft_pb_iprobe,
                                       .probe = ft_pb_probe,
                                       .waitany = ft_pb_waitany,
                                       .waitsome = ft_pb_waitsome,
                                       .testany = ft_pb_testany,
                                       .testsome = ft_pb_testsome,
                                       .test = ft_pb_test,
                                       .testall = ft_pb_testall,
                                       .held_completion = ft_pb_held_completion,
                                       .coll_send = pb_coll_send,
                                       .coll_delivered = pb_coll_delivered,
                                       .send_payload = ft_pb_send_payload,
                                       .recv_payload = ft_pb_recv_payload,
                                       .completed = ft_pb_completed,
                                       .request_freed = ft_pb_request_freed,
                                       .probed = ft_pb_probed,
                                       .resuming = pb_resuming,
                                       .restored = ft_pb_restored,
                                       .safe_point = ft_pb_flush,
                                       .barrier = ft_pb_barrier,
                                       .coll_enter = pb_coll_enter,
                                       .coll_decide = pb_coll_decide,
                                       .coll_leave = pb_coll_leave,
                                       .coll_reexec = ft_pb_coll_reexec,
                                       .comm_made = ft_pb_comm_made,
                                       .comm_freed = ft_pb_comm_freed,
                                       .on_control = ft_pb_on_control,
                                       .rollback = pb_rollback,
                                       .settle = ft_pb_settle,
                                       .finish = pb_finish,
                                       .figures = pb_figures,
                                       .wire_name = pb_wire_name,
                                       .wire_payload = pb_wire_payload,
                                       .hide_prologue = 1,
                                       .ac_repost = 1};
