/* Message logging's driver: the table of the family's operations and the
 * hooks through which the generic runtime reaches its rank side (see
 * driver.h for who calls each). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "image.h"
#include "msglog.h"
#include "runtime/trace.h"

static void ml_start(struct ft_runtime *rt) {
  ft_ml_init(&rt->ml_state, rt->world_rank);
  rt->ml_state.platform_rtt = ft_backend_service_rtt();
}

/* LOG ships the events to the logger; WAIT_LOGGED holds the sends until
 * its acks come, RELEASE lets them go. */
static void ml_update(struct ft_runtime *rt, const struct ft_update *u,
                      enum ft_update_stage stage) {
  if (stage != FT_STAGE_SENT)
    return;
  if (u->flags & FT_UPDATE_LOG)
    ft_ml_ship(rt, u->events, u->n_events);
  if (u->flags & FT_UPDATE_WAIT_LOGGED)
    rt->ml_state.waiting = 1;
  if (u->flags & FT_UPDATE_RELEASE) {
    rt->ml_state.waiting = 0;
    rt->ml_state.acked_at = ft_backend_now();
  }
}

/* Any-call mode (a replay that checkpoints at any call): the requests
 * pending at this checkpoint go into the image too, counted, and traced
 * ("pending WAVE N"). Returns the region's bytes (NULL in safe-point
 * mode, which keeps its images as they were). */
static void *pending_region(struct ft_runtime *rt, int wave,
                            struct ft_image_region *region) {
  struct ft_ml *ml = &rt->ml_state;
  if (!rt->ac.core_mode)
    return NULL;
  size_t bytes = ft_ml_pending_size(&ml->ops);
  void *p = malloc(bytes);
  if (!p)
    ft_fatal("rank %d: out of memory for its pending requests", rt->world_rank);
  ft_ml_pending_write(&ml->ops, p);
  *region = (struct ft_image_region){
      .id = FT_ML_PENDING_REGION, .ptr = p, .bytes = bytes};
  ml->ckpt_calls++;
  ml->ckpt_pending += ml->ops.n_reqs > 0;
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "pending", "%d %zu", wave, ml->ops.n_reqs);
  return p;
}

/* The image holds, beyond the application's regions, the clock, the counts
 * and the sender-based log, how many communicators main() had created (a
 * checkpoint is taken at a safe point) and, in any-call mode, the requests
 * pending. */
static void ml_checkpoint(struct ft_runtime *rt, int wave, int64_t clock,
                          struct ft_image_region *regions, size_t n) {
  int64_t made = ft_comm_creations(&rt->comms);
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  size_t bytes = ft_ml_region_size(mc);
  void *ml = malloc(bytes);
  if (!ml)
    ft_fatal("rank %d: out of memory for its message-logging state",
             rt->world_rank);
  void *pending = pending_region(rt, wave, &regions[n]);
  n += pending != NULL;
  ft_ml_region_write(mc, ml, clock, ft_backend_now());
  ft_ml_mark_checkpoint(rt, mc, wave);
  regions[n++] =
      (struct ft_image_region){.id = FT_ML_REGION, .ptr = ml, .bytes = bytes};
  regions[n++] = (struct ft_image_region){
      .id = FT_CREATIONS_REGION, .ptr = &made, .bytes = sizeof made};
  ft_checkpoint_write(rt, wave, rt->safe_points, regions, n);
  free(ml);
  free(pending);
}

static void ml_restored(struct ft_runtime *rt,
                        const struct ft_local_image *img) {
  const void *found = NULL;
  size_t bytes = 0;
  if (ft_image_find(img->bytes, img->size, FT_CREATIONS_REGION, &found,
                    &bytes) == 0) {
    int64_t made;
    if (bytes != sizeof made)
      ft_fatal("rank %d cannot restore its checkpoint: region %d: image has "
               "%zu bytes, the program registered %zu",
               rt->world_rank, FT_CREATIONS_REGION, bytes, sizeof made);
    memcpy(&made, found, sizeof made);
    ft_comm_resume_creations(&rt->comms, made);
  }
  ft_ml_restore(rt, img->bytes, img->size, img->wave);
  if (ft_image_find(img->bytes, img->size, FT_ML_PENDING_REGION, &found,
                    &bytes) == 0)
    ft_ml_pending_load(rt, &rt->ml_state.ops, found, bytes);
}

/* What main()'s set-up received, at the first safe point of the first
 * run. */
static void ml_safe_point(struct ft_runtime *rt) {
  if (rt->ml_state.pre_marked)
    return;
  ft_ml_mark_pre(&rt->ml_state.channels);
  rt->ml_state.pre_marked = 1;
}

static int ml_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_ML_GC:
  case FT_WIRE_ML_RESEND_REQUEST:
  case FT_WIRE_ML_RESEND_ANSWER:
  case FT_WIRE_ML_EVENTS:
    ft_ml_on_control(rt, m);
    return 1;
  default:
    return 0;
  }
}

/* The family's wire kinds by name (driver.h, wire_name). */
static const char *ml_wire_name(int kind) {
  switch (kind) {
  case FT_WIRE_ML_LOG:
    return "ML_LOG";
  case FT_WIRE_ML_EVENTS_REQUEST:
    return "ML_EVENTS_REQUEST";
  case FT_WIRE_ML_EVENTS:
    return "ML_EVENTS";
  case FT_WIRE_ML_RESEND_REQUEST:
    return "ML_RESEND_REQUEST";
  case FT_WIRE_ML_RESEND_ANSWER:
    return "ML_RESEND_ANSWER";
  case FT_WIRE_ML_GC:
    return "ML_GC";
  case FT_WIRE_ML_RESTARTED:
    return "ML_RESTARTED";
  default:
    return NULL;
  }
}

/* The kinds whose records follow on FT_TAG_PAYLOAD (msglog.h; driver.h,
 * wire_payload). */
static int ml_wire_payload(const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_ML_LOG:
  case FT_WIRE_ML_EVENTS:
  case FT_WIRE_ML_GC:
  case FT_WIRE_ML_RESEND_REQUEST:
  case FT_WIRE_ML_RESEND_ANSWER:
    return FT_TAG_PAYLOAD;
  default:
    return 0;
  }
}

/* From the FAIL: the life this rank restarts into. */
static void ml_on_fail(struct ft_runtime *rt, int life) {
  rt->ml_state.life = life;
}

static int ml_life(const struct ft_runtime *rt) { return rt->ml_state.life; }

static void ml_finish(struct ft_runtime *rt) {
  ft_ml_finish_resends(&rt->ml_state.channels);
}

static void ml_figures(const struct ft_runtime *rt,
                       struct ft_family_figures *f) {
  const struct ft_ml *ml = &rt->ml_state;
  f->replayed += ml->channels.resent;
  f->events += ml->events;
  f->el_messages += ml->el_messages;
  f->sb_bytes += ml->sb_bytes;
  f->deliveries += ml->deliveries;
  f->restarts += ml->restarts;
  f->ac_ckpts += ml->ckpt_calls;
  f->ac_in_flight += ml->ckpt_pending;
}

/* The event loggers take their control messages through couriers
 * (control.h, ft_control_courier_start). "Events are transmitted using
 * non blocking MPI communications ... to the event logger"
 * (pessimist-openmpi-v, section 3.2): they travel side by side, as eager
 * sends, and the logger handles each as it arrives. As MPI messages to
 * its single posted receive under SMPI 3.32 (a transfer starts only when
 * a receive matches) they reached it one network latency after the other:
 * v2, bt on 400 ranks of grid5000, 2,196 s simulated against 14.1 s for
 * none. */
static int ml_courier_service(const struct ft_runtime *rt, int world_rank) {
  return world_rank >= rt->world_size - rt->options.event_loggers &&
         world_rank >= rt->app_ranks;
}

const struct ft_driver ft_ml_driver = {
    .name = "message logging",
    .isend = ft_ml_isend,
    .irecv = ft_ml_irecv,
    .wait = ft_ml_wait,
    .waitall = ft_ml_waitall,
    .waitany = ft_ml_waitany,
    .waitsome = ft_ml_waitsome,
    .test = ft_ml_test,
    .testall = ft_ml_testall,
    .testany = ft_ml_testany,
    .testsome = ft_ml_testsome,
    .iprobe = ft_ml_iprobe,
    .probe = ft_ml_probe,
    .request_free = ft_ml_request_free,
    .cancel = ft_ml_cancel,
    .start = ml_start,
    .update = ml_update,
    .commit = ft_ml_commit,
    .checkpoint = ml_checkpoint,
    .restored = ml_restored,
    .requests_restored = ft_ml_requests_restored,
    .safe_point = ml_safe_point,
    .on_control = ml_on_control,
    .on_core_message = ft_ml_on_core_control,
    .restart = ft_ml_restart,
    .on_fail = ml_on_fail,
    .life = ml_life,
    .finish = ml_finish,
    .figures = ml_figures,
    .wire_name = ml_wire_name,
    .wire_payload = ml_wire_payload,
    .service = &ft_ml_service,
    .courier_service = ml_courier_service,
};
