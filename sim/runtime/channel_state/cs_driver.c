/* Channel state's driver: non-blocking checkpoints on an application rank
 * (the copies a wave captures and the image it stores, with the channel
 * state), and the hooks through which the generic runtime reaches the
 * records and their replay (channel_state.c). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "channel_state.h"
#include "image.h"

_Static_assert((int)FT_CS_MAX_REGIONS >= (int)FT_MAX_REGIONS,
               "a state copy holds every protected buffer");

/* ---- Non-blocking checkpoints ---- */

static void copy_free(struct ft_state_copy *c) {
  free(c->bytes);
  *c = (struct ft_state_copy){0};
}

/* Copies the protected buffers into *c, taken at the current safe point. */
static void copy_state(struct ft_runtime *rt, struct ft_state_copy *c) {
  struct ft_image_region regions[FT_MAX_REGIONS];
  size_t n = ft_checkpoint_regions(rt, regions), size = 0;
  for (size_t i = 0; i < n; i++)
    size += regions[i].bytes;
  copy_free(c);
  c->bytes = malloc(size ? size : 1);
  if (!c->bytes)
    ft_fatal("rank %d: out of memory copying %zu bytes of state",
             rt->world_rank, size);
  ft_image_regions_copy(regions, n, c->bytes, c->regions);
  c->n = n;
  c->size = size;
  c->index = rt->safe_points;
}

/* From pcl-vs-vcl-sc06, section 3: "stores its local state (2)": the state
 * at safe point `index`: the application's buffers when it stands at that
 * safe point, else the copy retained there (once the application left a
 * safe point its buffers have moved on, even with the same index). */
static void capture(struct ft_runtime *rt, int wave, int64_t index) {
  struct ft_cs *cs = &rt->cs;
  if (rt->at_safe_point && index == rt->safe_points) {
    copy_state(rt, &cs->captured);
  } else if (cs->retained.index == index) {
    copy_free(&cs->captured);
    cs->captured = cs->retained;
    cs->retained = (struct ft_state_copy){0};
  } else {
    ft_fatal("rank %d: the protocol captures safe point %lld, the rank is "
             "at %lld and retained %lld",
             rt->world_rank, (long long)index, (long long)rt->safe_points,
             (long long)cs->retained.index);
  }
  cs->captured.wave = wave;
}

/* The captured state and the kept channel state make the image of `wave`,
 * sent to the server. */
static void store_captured(struct ft_runtime *rt, int wave,
                           const struct ft_update *u) {
  struct ft_state_copy *c = &rt->cs.captured;
  if (c->index == 0 || c->wave != wave)
    ft_fatal("rank %d: the protocol stores wave %d, captured: wave %d",
             rt->world_rank, wave, c->wave);
  ft_channel_keep(rt, u->keep, u->n_keep);
  struct ft_image_region regions[FT_MAX_REGIONS + 1];
  memcpy(regions, c->regions, c->n * sizeof *regions);
  size_t n = c->n;
  size_t channel_bytes = ft_channel_size(&rt->cs);
  void *channel = malloc(channel_bytes);
  if (!channel)
    ft_fatal("rank %d: out of memory for its channel state", rt->world_rank);
  ft_channel_write(&rt->cs, channel);
  regions[n++] = (struct ft_image_region){
      .id = FT_CHANNEL_REGION, .ptr = channel, .bytes = channel_bytes};
  ft_channel_clear(&rt->cs);
  ft_checkpoint_write(rt, wave, c->index, regions, n);
  free(channel);
  copy_free(c);
}

/* ---- The driver's hooks ---- */

static void cs_update(struct ft_runtime *rt, const struct ft_update *u,
                      enum ft_update_stage stage) {
  if (stage == FT_STAGE_STATE && (u->flags & FT_UPDATE_RETAIN))
    copy_state(rt, &rt->cs.retained);
  if (stage == FT_STAGE_STATE && (u->flags & FT_UPDATE_CAPTURE))
    capture(rt, u->wave, u->index);
  if (stage == FT_STAGE_END && (u->flags & FT_UPDATE_STORE))
    store_captured(rt, u->wave, u);
}

/* The image's channel state is replayed; an image without one (stored
 * before any record) still takes part in the replay: the others may have
 * recorded messages of this rank. */
static void cs_restored(struct ft_runtime *rt,
                        const struct ft_local_image *img) {
  const void *channel = NULL;
  size_t bytes = 0;
  if (ft_image_find(img->bytes, img->size, FT_CHANNEL_REGION, &channel,
                    &bytes) != 0)
    channel = NULL, bytes = 0;
  ft_channel_replay(rt, channel, bytes);
}

static int cs_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->kind == FT_WIRE_REPLAY_COUNT)
    ft_channel_on_count(rt, m);
  else if (m->kind == FT_WIRE_REPLAY)
    ft_channel_on_message(rt, m);
  else
    return 0;
  return 1;
}

/* The family's wire kinds by name (driver.h, wire_name). */
static const char *cs_wire_name(int kind) {
  switch (kind) {
  case FT_WIRE_REPLAY_COUNT:
    return "REPLAY_COUNT";
  case FT_WIRE_REPLAY:
    return "REPLAY";
  default:
    return NULL;
  }
}

/* A replayed message's bytes follow its REPLAY (driver.h, wire_payload). */
static int cs_wire_payload(const struct ft_wire *m) {
  return m->kind == FT_WIRE_REPLAY ? FT_TAG_REPLAY : 0;
}

/* Before READY: no rank replays this incarnation's channel state before
 * GO, which waits for every READY. */
static void cs_rollback(struct ft_runtime *rt) {
  ft_channel_reset_replay(&rt->cs);
  copy_free(&rt->cs.retained);
  copy_free(&rt->cs.captured);
  ft_channel_clear(&rt->cs);
}

static void cs_figures(const struct ft_runtime *rt,
                       struct ft_family_figures *f) {
  f->recorded += rt->cs.recorded;
  f->replayed += rt->cs.replays;
}

const struct ft_driver ft_cs_driver = {.name = "channel state",
                                       .update = cs_update,
                                       .restored = cs_restored,
                                       .record = ft_channel_record,
                                       .on_control = cs_on_control,
                                       .rollback = cs_rollback,
                                       .settle = ft_channel_settle,
                                       .finish = ft_channel_finish,
                                       .figures = cs_figures,
                                       .wire_name = cs_wire_name,
                                       .wire_payload = cs_wire_payload,
                                       .service = &ft_cs_scheduler};
