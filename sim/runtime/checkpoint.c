/* The application's state and the checkpoints of it: ft_protect's table,
 * the safe point behind ft_snapshot, the core's updates, local images and
 * their upload to the checkpoint server. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ft.h"
#include "image.h"
#include "message_logging/msglog.h"
#include "runtime.h"

void ft_state_protect(struct ft_runtime *rt, int id, void *ptr, size_t bytes) {
  if (id < 0 || id >= FT_MAX_REGIONS)
    ft_fatal("ft_protect: id %d is outside [0, %d)", id, FT_MAX_REGIONS);
  if (!ptr && bytes > 0)
    ft_fatal("ft_protect: id %d registers %zu bytes at NULL", id, bytes);
  rt->regions[id] =
      (struct ft_protected){.ptr = ptr, .bytes = bytes, .used = 1};
}

/* The registered buffers, in id order; returns how many. */
static size_t collect_regions(const struct ft_runtime *rt,
                              struct ft_image_region out[FT_MAX_REGIONS]) {
  size_t n = 0;
  for (int id = 0; id < FT_MAX_REGIONS; id++)
    if (rt->regions[id].used)
      out[n++] = (struct ft_image_region){
          .id = id, .ptr = rt->regions[id].ptr, .bytes = rt->regions[id].bytes};
  return n;
}

int ft_server_of(const struct ft_runtime *rt, int rank) {
  return rt->app_ranks + ft_options_server_of(rt->options.server_map, rank,
                                              rt->app_ranks, rt->servers);
}

int ft_dispatcher(const struct ft_runtime *rt) { return rt->app_ranks; }

struct ft_local_image *ft_local_image_of(struct ft_runtime *rt, int wave) {
  for (int i = 0; i < 2; i++)
    if (wave > 0 && rt->images[i].wave == wave)
      return &rt->images[i];
  return NULL;
}

void ft_cut_uploads(struct ft_runtime *rt) {
  for (int i = 0; i < 2; i++) {
    ft_backend_padding_cut(rt->images[i].padding);
    rt->images[i].padding = NULL;
  }
}

void ft_release_local_image(struct ft_local_image *slot) {
  if (slot->upload != MPI_REQUEST_NULL)
    FT_PMPI(Wait, &slot->upload, MPI_STATUS_IGNORE);
  ft_backend_padding_forget(slot->padding);
  free(slot->bytes);
  *slot = (struct ft_local_image){.upload = MPI_REQUEST_NULL};
}

/* The slot a new checkpoint goes to: the empty or older one. The newer one
 * holds the last committed wave (a wave starts only after the previous one
 * committed), which a rollback may need. */
static struct ft_local_image *free_slot(struct ft_runtime *rt) {
  struct ft_local_image *a = &rt->images[0], *b = &rt->images[1];
  struct ft_local_image *slot = a->wave <= b->wave ? a : b;
  ft_release_local_image(slot);
  return slot;
}

/* Sends the image in `slot` to this rank's server: an announcement, the
 * bytes, and (simulation) the modelled process image. */
static void upload(struct ft_runtime *rt, struct ft_local_image *slot) {
  int server = ft_server_of(rt, rt->world_rank);
  double padding = rt->options.image_mb * 1e6;
  uint64_t seq = rt->paddings_sent++;
  struct ft_wire m = {.kind = FT_WIRE_STORE,
                      .wave = slot->wave,
                      .inc = rt->incarnation,
                      .value = (int64_t)slot->size,
                      .x = {padding, (double)seq}};
  ft_control_send(rt, server, &m);
  FT_PMPI(Isend, slot->bytes, (int)slot->size, MPI_BYTE, server, FT_TAG_IMAGE,
          rt->control, &slot->upload);
  slot->padding = ft_backend_padding_send(rt->world_rank, server, seq, padding);
  rt->ckpt_bytes += (uint64_t)slot->size + (uint64_t)padding;
}

static void write_image(struct ft_runtime *rt, int wave, int64_t index,
                        const struct ft_image_region *regions, size_t n);

/* ---- Non-blocking checkpoints (vcl) ---- */

static void copy_free(struct ft_state_copy *c) {
  free(c->bytes);
  *c = (struct ft_state_copy){0};
}

/* Copies the protected buffers into *c, taken at the current safe point. */
static void copy_state(struct ft_runtime *rt, struct ft_state_copy *c) {
  struct ft_image_region regions[FT_MAX_REGIONS];
  size_t n = collect_regions(rt, regions), size = 0;
  for (size_t i = 0; i < n; i++)
    size += regions[i].bytes;
  copy_free(c);
  c->bytes = malloc(size ? size : 1);
  if (!c->bytes)
    ft_fatal("rank %d: out of memory copying %zu bytes of state",
             rt->world_rank, size);
  char *p = c->bytes;
  for (size_t i = 0; i < n; i++) {
    memcpy(p, regions[i].ptr, regions[i].bytes);
    c->regions[i] = regions[i];
    c->regions[i].ptr = p;
    p += regions[i].bytes;
  }
  c->n = n;
  c->size = size;
  c->index = rt->safe_points;
}

/* From pcl-vs-vcl-sc06, section 3: "stores its local state (2)": the state
 * at safe point `index`: the application's buffers when it stands at that
 * safe point, else the copy retained there (once the application left a
 * safe point its buffers have moved on, even with the same index). */
static void capture(struct ft_runtime *rt, int wave, int64_t index) {
  if (rt->at_safe_point && index == rt->safe_points) {
    copy_state(rt, &rt->captured);
  } else if (rt->retained.index == index) {
    copy_free(&rt->captured);
    rt->captured = rt->retained;
    rt->retained = (struct ft_state_copy){0};
  } else {
    ft_fatal("rank %d: the protocol captures safe point %lld, the rank is "
             "at %lld and retained %lld",
             rt->world_rank, (long long)index, (long long)rt->safe_points,
             (long long)rt->retained.index);
  }
  rt->captured.wave = wave;
}

/* The captured state and the kept channel state make the image of `wave`,
 * sent to the server. */
static void store_captured(struct ft_runtime *rt, int wave,
                           const struct ft_update *u) {
  struct ft_state_copy *c = &rt->captured;
  if (c->index == 0 || c->wave != wave)
    ft_fatal("rank %d: the protocol stores wave %d, captured: wave %d",
             rt->world_rank, wave, c->wave);
  ft_channel_keep(rt, u->keep, u->n_keep);
  struct ft_image_region regions[FT_MAX_REGIONS + 1];
  memcpy(regions, c->regions, c->n * sizeof *regions);
  size_t n = c->n;
  size_t channel_bytes = ft_channel_size(rt);
  void *channel = malloc(channel_bytes);
  if (!channel)
    ft_fatal("rank %d: out of memory for its channel state", rt->world_rank);
  ft_channel_write(rt, channel);
  regions[n++] = (struct ft_image_region){
      .id = FT_CHANNEL_REGION, .ptr = channel, .bytes = channel_bytes};
  ft_channel_clear(rt);
  write_image(rt, wave, c->index, regions, n);
  free(channel);
  copy_free(c);
}

void ft_checkpoint_forget(struct ft_runtime *rt) {
  copy_free(&rt->retained);
  copy_free(&rt->captured);
  ft_channel_clear(rt);
}

/* Writes the image of regions[0..n) taken at safe point `index` into a
 * local slot and sends it to the server. */
static void write_image(struct ft_runtime *rt, int wave, int64_t index,
                        const struct ft_image_region *regions, size_t n) {
  size_t size = ft_image_size(regions, n);
  if (size > (size_t)2147483647)
    ft_fatal("rank %d: image of %zu bytes exceeds 2 GiB", rt->world_rank, size);
  struct ft_local_image *slot = free_slot(rt);
  slot->bytes = malloc(size);
  if (!slot->bytes)
    ft_fatal("rank %d: out of memory for an image of %zu bytes", rt->world_rank,
             size);
  struct ft_image_info info = {
      .rank = rt->world_rank, .wave = wave, .index = index};
  slot->size = ft_image_write(slot->bytes, size, &info, regions, n);
  slot->wave = wave;
  slot->index = index;
  slot->time = ft_backend_now();
  upload(rt, slot);
}

/* From pcl-vs-vcl-fgcs08, section 3: "When a process has received the
 * marker of every other process, it checkpoints and sends the resulting
 * image to the checkpoint server". */
static void take_checkpoint(struct ft_runtime *rt, int wave, int64_t clock) {
  struct ft_image_region regions[FT_MAX_REGIONS + 2];
  size_t n = collect_regions(rt, regions);
  void *ml = NULL;
  int64_t made = ft_comm_creations(&rt->comms); /* taken at a safe point */
  if (rt->ml) { /* the clock, the counts and the sender-based log */
    struct ft_ml_channels *mc = &rt->ml_state.channels;
    size_t bytes = ft_ml_region_size(mc);
    ml = malloc(bytes);
    if (!ml)
      ft_fatal("rank %d: out of memory for its message-logging state",
               rt->world_rank);
    ft_ml_region_write(mc, ml, clock, ft_backend_now());
    ft_ml_mark_checkpoint(rt, mc, wave);
    regions[n++] =
        (struct ft_image_region){.id = FT_ML_REGION, .ptr = ml, .bytes = bytes};
    regions[n++] = (struct ft_image_region){
        .id = FT_CREATIONS_REGION, .ptr = &made, .bytes = sizeof made};
  }
  write_image(rt, wave, rt->safe_points, regions, n);
  free(ml);
}

void ft_restore_image(struct ft_runtime *rt, const void *image, size_t size) {
  struct ft_image_region regions[FT_MAX_REGIONS + 3];
  size_t n = collect_regions(rt, regions);
  const void *channel = NULL;
  size_t channel_bytes = 0;
  if (ft_image_find(image, size, FT_CHANNEL_REGION, &channel, &channel_bytes) ==
      0)
    regions[n++] = (struct ft_image_region){.id = FT_CHANNEL_REGION,
                                            .ptr = malloc(channel_bytes + 1),
                                            .bytes = channel_bytes};
  void *channel_copy = channel ? regions[n - 1].ptr : NULL;
  char err[256];
  if (channel && !channel_copy)
    ft_fatal("rank %d: out of memory for its channel state", rt->world_rank);
  const void *ml = NULL, *found = NULL;
  size_t ml_bytes = 0, made_bytes = 0;
  int has_ml = ft_image_find(image, size, FT_ML_REGION, &ml, &ml_bytes) == 0;
  void *ml_copy = has_ml ? malloc(ml_bytes + 1) : NULL;
  if (has_ml && !ml_copy)
    ft_fatal("rank %d: out of memory for its message-logging state",
             rt->world_rank);
  if (has_ml) /* read by ft_ml_restore, from the image */
    regions[n++] = (struct ft_image_region){
        .id = FT_ML_REGION, .ptr = ml_copy, .bytes = ml_bytes};
  int64_t made = -1;
  if (ft_image_find(image, size, FT_CREATIONS_REGION, &found, &made_bytes) == 0)
    regions[n++] = (struct ft_image_region){
        .id = FT_CREATIONS_REGION, .ptr = &made, .bytes = sizeof made};
  int rc = ft_image_restore(image, size, regions, n, err, sizeof err);
  free(ml_copy);
  if (rc != 0)
    ft_fatal("rank %d cannot restore its checkpoint: %s", rt->world_rank, err);
  if (made >= 0)
    ft_comm_resume_creations(&rt->comms, made);
  if (channel) {
    ft_channel_replay(rt, channel_copy, channel_bytes);
    free(channel_copy);
  } else if (rt->protocol->has_scheduler) {
    ft_channel_replay(rt, NULL, 0);
  }
}

/* Rank 0: every image of `wave` is stored; the servers make it the
 * committed generation. */
/* Rank 0 found every image of `wave` stored: it proposes the commit to the
 * dispatcher, which decides it where rollbacks are ordered and tells the
 * other servers (service.c, on_commit, has the ordering argument). */
static void commit(struct ft_runtime *rt, int wave) {
  const struct ft_local_image *mine = ft_local_image_of(rt, wave);
  struct ft_wire m = {.kind = FT_WIRE_COMMIT,
                      .wave = wave,
                      .inc = rt->incarnation,
                      .x = {mine ? mine->time : ft_backend_now()}};
  ft_control_send(rt, rt->app_ranks, &m); /* counted where decided */
}

void ft_apply_update(struct ft_runtime *rt, const struct ft_update *u) {
  ft_trace_update(rt, u);
  if (u->flags & FT_UPDATE_RETAIN)
    copy_state(rt, &rt->retained);
  if (u->flags & FT_UPDATE_CAPTURE)
    capture(rt, u->wave, u->index);
  for (size_t i = 0; i < u->n_sends; i++) {
    struct ft_wire m = ft_wire_of_control(&u->sends[i], rt->incarnation);
    ft_control_send(rt, m.to, &m); /* application ranks are world ranks */
  }
  if (u->flags & FT_UPDATE_LOG)
    ft_ml_ship(rt, u->events, u->n_events);
  if (u->flags & FT_UPDATE_WAIT_LOGGED)
    rt->ml_waiting = 1;
  if (u->flags & FT_UPDATE_HOLD)
    rt->held = 1;
  if (u->flags & FT_UPDATE_CHECKPOINT)
    take_checkpoint(rt, u->wave, u->id);
  if (u->flags & FT_UPDATE_RELEASE)
    rt->held = rt->ml_waiting = 0;
  if ((u->flags & FT_UPDATE_COMMIT) && rt->ml)
    ft_ml_commit(rt, u->wave);
  else if (u->flags & FT_UPDATE_COMMIT)
    commit(rt, u->wave);
  if (u->flags & FT_UPDATE_STORE)
    store_captured(rt, u->wave, u);
  rt->deadline = u->deadline;
}

void ft_core_decide(struct ft_runtime *rt, struct ft_event *event,
                    struct ft_update *u) {
  *u = (struct ft_update){.deadline = -1};
  event->time = ft_backend_now();
  ft_trace_event(rt, event);
  if (rt->protocol->step(rt->protocol_state, event, u) != 0)
    ft_fatal("protocol %s failed on rank %d (event %d at %.9f s)",
             rt->protocol->name, rt->world_rank, (int)event->type, event->time);
}

void ft_core_step(struct ft_runtime *rt, struct ft_event *event) {
  struct ft_update u;
  ft_core_decide(rt, event, &u);
  ft_apply_update(rt, &u);
}

void ft_check_deadline(struct ft_runtime *rt) {
  if (rt->running && rt->deadline >= 0 && ft_backend_now() >= rt->deadline) {
    struct ft_event e = {.type = FT_EVENT_TIMER, .peer = -1, .tag = -1};
    ft_core_step(rt, &e);
  }
}

/* The first safe point after a restart to a committed wave: put the
 * checkpoint back. The safe point it was taken at is where the run now is. */
static int restore_at_safe_point(struct ft_runtime *rt) {
  rt->restore_pending = 0;
  struct ft_local_image *img = ft_local_image_of(rt, rt->restore_wave);
  if (!img)
    ft_fatal("rank %d lost its image of wave %d", rt->world_rank,
             rt->restore_wave);
  ft_trace_restore(rt, img);
  ft_restore_image(rt, img->bytes, img->size);
  rt->safe_points = img->index;
  if (rt->ml)
    ft_ml_restore(rt, img->bytes, img->size, img->wave);
  return FT_SNAPSHOT_RESTORED;
}

int ft_safe_point(struct ft_runtime *rt) {
  if (!rt->initialized || rt->finalized)
    return FT_SNAPSHOT_CONTINUE;
  rt->safe_points++;
  if (rt->restore_pending && rt->restore_wave > 0)
    return restore_at_safe_point(rt);
  rt->restore_pending = 0; /* a restart from the beginning: nothing to put
                              back, an ordinary safe point */
  if (!rt->recovering_protocol)
    return FT_SNAPSHOT_CONTINUE;
  if (rt->ml && !rt->ml_pre_marked) { /* what main()'s set-up received */
    ft_ml_mark_pre(&rt->ml_state.channels);
    rt->ml_pre_marked = 1;
  }
  ft_check_deadline(rt);
  struct ft_event e = {.type = FT_EVENT_SAFE_POINT,
                       .peer = -1,
                       .tag = -1,
                       .index = rt->safe_points};
  rt->at_safe_point = 1; /* the application stands here: see capture() */
  ft_core_step(rt, &e);
  while (rt->held)
    ft_wait_control(rt);
  rt->at_safe_point = 0;
  return FT_SNAPSHOT_CONTINUE;
}
