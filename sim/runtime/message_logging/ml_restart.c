/* Message logging: the restart of one failed rank while the others go on
 * (see msglog.h). From pessimist-openmpi-v, section 2.1: "This allows for
 * the surviving processes to serve past messages to recovering processes on
 * demand, without rolling back." */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "image.h"
#include "msglog.h"
#include "runtime/trace.h"

/* The log and counts of the checkpoint (the counts tell the peers what to
 * resend; the log serves the peers that restart too). */
static void load_log(struct ft_runtime *rt) {
  struct ft_local_image *img = ft_local_image_of(rt, rt->restore_wave);
  const void *region;
  size_t size;
  if (img &&
      ft_image_find(img->bytes, img->size, FT_ML_REGION, &region, &size) == 0)
    (void)ft_ml_region_restore(rt, &rt->ml_state.channels, region, size,
                               &img->time);
  else
    ft_ml_reset_logical(&rt->ml_state.channels);
}

/* What dies with the failed life: its requests (zombies now), its log,
 * its fetched events, its local images; the restart's cost is paid. */
static void lose_life(struct ft_runtime *rt, struct ft_ml *ml) {
  ft_ml_drop_requests(rt, ml);
  ft_ml_log_lose(&ml->channels);
  ft_ml_replay_clear(&ml->replay);
  /* The local images are lost, but an upload still on its way is not
   * waited for: it completes when the server takes it, and its bytes are
   * freed at the end of the run (ft_lose_local_image). They were forgotten,
   * one image per restart: the soak's seed 1129183, v2 on cg, held 710 MB
   * after 4234 failures. */
  for (int i = 0; i < 2; i++)
    ft_lose_local_image(rt, &rt->images[i]);
  ft_backend_sleep(rt->restart_cost_s);
  rt->dead = 0;
}

/* Asks every rank for its resends, waits for all the answers and for the
 * zombies to be fed, then takes the lost life's messages off the wire. */
static void gather_resends(struct ft_runtime *rt, struct ft_ml *ml) {
  ft_ml_ask_resends(rt);
  while (ml->answers.n < rt->app_ranks) /* ft_ml_on_control counts them */
    ft_wait_control(rt);
  ft_ml_wait_zombies(rt, ml);
  /* Every receive of the lost lives has taken its message: nothing writes
   * into their heap any more. */
  ft_app_heap_release(&rt->heap, rt->heap.life);
  ft_ml_discard_answers(rt);
}

/* The restarted run starts from main()'s top: ids, regions, safe points
 * and held state of the lost life are gone; the restore waits for the
 * first safe point. */
static void reset_run(struct ft_runtime *rt) {
  rt->ml_state.clock = 0;
  rt->ml_state.waiting = 0;
  ft_comm_replay_creations(rt);
  memset(rt->regions, 0, sizeof rt->regions);
  rt->safe_points = 0;
  rt->held = rt->at_safe_point = 0;
  rt->restore_pending = 1;
}

void ft_ml_restart(struct ft_runtime *rt) {
  double failed_at = ft_backend_now();
  struct ft_ml *ml = &rt->ml_state;
  lose_life(rt, ml);
  ft_ml_feed_wildcards(rt);
  rt->restore_wave = ft_fetch_image(rt, -1); /* 0: from the start */
  load_log(rt);
  int64_t horizon = 0;
  const struct ft_logged_event *logged = NULL;
  int64_t held = ft_ml_fetch_events(rt, &horizon, &logged);
  gather_resends(rt, ml);
  ft_ml_reset_logical(&ml->channels);
  struct ft_event e = {.type = FT_EVENT_RESTART,
                       .index = held,
                       .id = horizon,
                       .logged = logged,
                       .n_logged = (size_t)held};
  ft_core_step(rt, &e);
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 1, "restart", "%d %lld %lld", rt->ml_state.life,
                   (long long)held, (long long)horizon);
  reset_run(rt);
  const struct ft_local_image *img = ft_local_image_of(rt, rt->restore_wave);
  double since = img ? img->time : rt->start_time;
  struct ft_wire done = {
      .kind = FT_WIRE_ML_RESTARTED,
      .wave = rt->ml_state.life,
      .value = rt->restore_wave, /* the checkpoint restored, 0: none */
      .x = {failed_at - since, ft_backend_now() - failed_at}};
  ft_control_send(rt, ft_dispatcher(rt), &done);
  rt->ml_state.restarts++;
  rt->running = 1;
}

void ft_ml_restore(struct ft_runtime *rt, const void *image, size_t size,
                   int wave) {
  const void *region;
  size_t bytes;
  if (ft_image_find(image, size, FT_ML_REGION, &region, &bytes) != 0)
    ft_fatal("rank %d: checkpoint %d has no message-logging state",
             rt->world_rank, wave);
  double time;
  int64_t clock =
      ft_ml_region_restore(rt, &rt->ml_state.channels, region, bytes, &time);
  struct ft_event e = {.type = FT_EVENT_ROLLBACK,
                       .peer = -1,
                       .tag = -1,
                       .wave = wave,
                       .id = clock,
                       .index = rt->safe_points};
  ft_core_step(rt, &e);
  rt->ml_state.clock = clock;
}
