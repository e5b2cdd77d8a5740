/* The application's state and the checkpoints of it: ft_protect's table,
 * the safe point behind ft_snapshot, the core's updates, local images and
 * their upload to the checkpoint server. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ft.h"
#include "image.h"
#include "runtime.h"

void ft_state_protect(struct ft_runtime *rt, int id, void *ptr, size_t bytes) {
  if (id < 0 || id >= FT_MAX_REGIONS)
    ft_fatal("ft_protect: id %d is outside [0, %d)", id, FT_MAX_REGIONS);
  if (!ptr && bytes > 0)
    ft_fatal("ft_protect: id %d registers %zu bytes at NULL", id, bytes);
  rt->regions[id] =
      (struct ft_protected){.ptr = ptr, .bytes = bytes, .used = 1};
}

size_t ft_checkpoint_regions(const struct ft_runtime *rt,
                             struct ft_image_region out[FT_MAX_REGIONS]) {
  size_t n = 0;
  for (int id = 0; id < FT_MAX_REGIONS; id++)
    if (rt->regions[id].used)
      out[n++] = (struct ft_image_region){
          .id = id, .ptr = rt->regions[id].ptr, .bytes = rt->regions[id].bytes};
  return n;
}

int ft_server_of(const struct ft_runtime *rt, int rank) {
  if (rt->options.storage == FT_STORAGE_SHARED)
    return rt->app_ranks; /* the one file server */
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

void ft_hold_local_image(struct ft_runtime *rt, struct ft_local_image *slot,
                         void *bytes, size_t size) {
  slot->bytes = bytes;
  slot->size = size;
  if (++rt->images_held > rt->images_peak)
    rt->images_peak = rt->images_held;
}

void ft_release_local_image(struct ft_runtime *rt,
                            struct ft_local_image *slot) {
  if (slot->upload != MPI_REQUEST_NULL)
    FT_PMPI(Wait, &slot->upload, MPI_STATUS_IGNORE);
  ft_backend_padding_forget(slot->padding);
  if (slot->bytes)
    rt->images_held--;
  free(slot->bytes);
  *slot = (struct ft_local_image){.upload = MPI_REQUEST_NULL};
}

void ft_local_image_stored(struct ft_runtime *rt, uint64_t seq) {
  for (int i = 0; i < 2; i++)
    if (rt->images[i].bytes && rt->images[i].seq == seq) {
      rt->images[i].stored = 1;
      /* A rank past its failure (standing dead, or dead until its
       * replacement starts) acts no more: its STORED is not traced. */
      if (ft_control_acts(rt))
        ft_trace_image(rt, rt->images[i].wave, rt->images[i].time);
    }
  if (ft_control_release_adopted(&rt->ctl, seq))
    rt->images_held--;
}

void ft_lose_local_image(struct ft_runtime *rt, struct ft_local_image *slot) {
  if (slot->upload != MPI_REQUEST_NULL && !slot->stored) {
    ft_control_adopt(&rt->ctl, slot->upload, slot->bytes, slot->seq);
    slot->upload = MPI_REQUEST_NULL;
    slot->bytes = NULL;
  }
  ft_release_local_image(rt, slot);
}

/* The slot a new checkpoint goes to: the empty or older one. The newer one
 * holds the last committed wave (a wave starts only after the previous one
 * committed), which a rollback may need. */
static struct ft_local_image *free_slot(struct ft_runtime *rt) {
  struct ft_local_image *a = &rt->images[0], *b = &rt->images[1];
  struct ft_local_image *slot = a->wave <= b->wave ? a : b;
  ft_release_local_image(rt, slot);
  return slot;
}

double ft_image_modelled_bytes(const struct ft_runtime *rt) {
  /* image_mb when set, else (a replay in any-call mode) the recorded
   * footprint: what BLCR would write of the process now. */
  return rt->options.image_mb > 0 ? rt->options.image_mb * 1e6
                                  : rt->ac.footprint;
}

/* The modelled image's way to storage (README, "Checkpoint storage"):
 * returns the bytes that travel to the server. storage=local writes them to
 * this host's disk, the rank blocked as BLCR stops the process (lam-mpi-blcr
 * 4.2: "The underlying checkpointer then writes the process image to stable
 * storage"), and sends none. */
static double store_locally(struct ft_runtime *rt, double modelled) {
  if (rt->options.storage != FT_STORAGE_LOCAL)
    return modelled;
  rt->ckpt_write_s += ft_backend_disk_write(modelled);
  return 0;
}

/* Sends the image in `slot` to this rank's server: an announcement, the
 * bytes, and (simulation) the modelled process image. storage=servers
 * writes it to the local disk first, in the background: from sc06 section
 * 4.1, "it duplicates its state by calling the fork system call. The
 * forked process calls the checkpoint library to create the checkpoint
 * file while the initial MPI process can continue the computation". */
static void upload(struct ft_runtime *rt, struct ft_local_image *slot) {
  int server = ft_server_of(rt, rt->world_rank);
  double modelled = ft_image_modelled_bytes(rt);
  double padding = store_locally(rt, modelled);
  int disk =
      rt->options.storage == FT_STORAGE_SERVERS ? FT_PADDING_LOCAL_WRITE : 0;
  uint64_t seq = rt->paddings_sent++;
  slot->seq = seq;
  struct ft_wire m = {.kind = FT_WIRE_STORE,
                      .wave = slot->wave,
                      .inc = rt->incarnation,
                      .value = (int64_t)slot->size,
                      .x = {padding, (double)seq}};
  ft_control_send(rt, server, &m);
  FT_PMPI(Isend, slot->bytes, (int)slot->size, MPI_BYTE, server, FT_TAG_IMAGE,
          rt->control, &slot->upload);
  slot->padding = ft_backend_padding_send_disk(
      rt->world_rank, server, seq, padding, disk, &rt->ckpt_write_s);
  rt->ckpt_bytes += (uint64_t)slot->size + (uint64_t)modelled;
}

void ft_checkpoint_write(struct ft_runtime *rt, int wave, int64_t index,
                         const struct ft_image_region *regions, size_t n) {
  size_t size = ft_image_size(regions, n);
  if (size > (size_t)2147483647)
    ft_fatal("rank %d: image of %zu bytes exceeds 2 GiB", rt->world_rank, size);
  struct ft_local_image *slot = free_slot(rt);
  void *bytes = malloc(size);
  if (!bytes)
    ft_fatal("rank %d: out of memory for an image of %zu bytes", rt->world_rank,
             size);
  struct ft_image_info info = {
      .rank = rt->world_rank, .wave = wave, .index = index};
  ft_hold_local_image(rt, slot, bytes,
                      ft_image_write(bytes, size, &info, regions, n));
  slot->wave = wave;
  slot->index = index;
  slot->time = ft_backend_now();
  upload(rt, slot);
}

/* From pcl-vs-vcl-fgcs08, section 3: "When a process has received the
 * marker of every other process, it checkpoints and sends the resulting
 * image to the checkpoint server". */
static void take_checkpoint(struct ft_runtime *rt, int wave, int64_t clock) {
  struct ft_image_region regions[FT_MAX_REGIONS + FT_DRIVER_REGIONS];
  size_t n = ft_checkpoint_regions(rt, regions);
  if (rt->driver->checkpoint)
    rt->driver->checkpoint(rt, wave, clock, regions, n);
  else
    ft_checkpoint_write(rt, wave, rt->safe_points, regions, n);
}

/* The application's regions of `image` go back into its buffers. The
 * family's regions (ids from FT_MAX_REGIONS on) are matched with scratch
 * copies, which ft_image_restore needs to accept the image, then dropped:
 * the family reads them from the image (the driver's restored hook). */
void ft_restore_image(struct ft_runtime *rt, const void *image, size_t size) {
  struct ft_image_region regions[FT_MAX_REGIONS + FT_DRIVER_REGIONS];
  size_t n = ft_checkpoint_regions(rt, regions), first = n;
  for (int id = FT_MAX_REGIONS; id < FT_MAX_REGIONS + FT_DRIVER_REGIONS; id++) {
    const void *found = NULL;
    size_t bytes = 0;
    if (ft_image_find(image, size, id, &found, &bytes) != 0)
      continue;
    void *scratch = malloc(bytes + 1);
    if (!scratch)
      ft_fatal("rank %d: out of memory for its image's region %d",
               rt->world_rank, id);
    regions[n++] =
        (struct ft_image_region){.id = id, .ptr = scratch, .bytes = bytes};
  }
  char err[256];
  int rc = ft_image_restore(image, size, regions, n, err, sizeof err);
  for (size_t i = first; i < n; i++)
    free(regions[i].ptr);
  if (rc != 0)
    ft_fatal("rank %d cannot restore its checkpoint: %s", rt->world_rank, err);
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
  const struct ft_driver *d = rt->driver;
  ft_trace_update(rt, u);
  if (d->update)
    d->update(rt, u, FT_STAGE_STATE);
  for (size_t i = 0; i < u->n_sends; i++) {
    struct ft_wire m = ft_wire_of_control(&u->sends[i], rt->incarnation);
    /* application ranks are world ranks */
    ft_control_send_quiet(rt, m.to, &m, u->sends[i].quiet);
  }
  if (d->update)
    d->update(rt, u, FT_STAGE_SENT);
  if (u->flags & FT_UPDATE_HOLD)
    rt->held = 1;
  if (u->flags & FT_UPDATE_CHECKPOINT)
    take_checkpoint(rt, u->wave, u->id);
  if (u->flags & FT_UPDATE_RELEASE)
    rt->held = 0;
  if ((u->flags & FT_UPDATE_COMMIT) && d->commit)
    d->commit(rt, u->wave);
  else if (u->flags & FT_UPDATE_COMMIT)
    commit(rt, u->wave);
  if (d->update)
    d->update(rt, u, FT_STAGE_END);
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
  ft_control_fate(rt); /* a rank that failed fires no timer */
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
  if (rt->driver->restored)
    rt->driver->restored(rt, img);
  return FT_SNAPSHOT_RESTORED;
}

int ft_safe_point(struct ft_runtime *rt) { return ft_safe_point_ahead(rt, 0); }

int ft_safe_point_ahead(struct ft_runtime *rt, int wave) {
  if (!rt->initialized || rt->finalized)
    return FT_SNAPSHOT_CONTINUE;
  /* A rank that failed neither restores nor reaches a safe point: a life
   * resumed just before its next failure put its image back after it
   * (soak seeds 8839, channel state, and 8403, message logging: 'restore'
   * 35 and 59 us after the failure). */
  ft_control_fate(rt);
  if (rt->ac.on) { /* any-call mode: the safe point only restores */
    if (rt->restore_pending && rt->restore_wave > 0)
      return restore_at_safe_point(rt);
    rt->restore_pending = 0;
    return FT_SNAPSHOT_CONTINUE;
  }
  rt->safe_points++;
  if (rt->restore_pending && rt->restore_wave > 0)
    return restore_at_safe_point(rt);
  rt->restore_pending = 0; /* a restart from the beginning: nothing to put
                              back, an ordinary safe point */
  if (!rt->recovering_protocol)
    return FT_SNAPSHOT_CONTINUE;
  if (rt->driver->safe_point)
    rt->driver->safe_point(rt);
  ft_check_deadline(rt);
  struct ft_event e = {.type = FT_EVENT_SAFE_POINT,
                       .peer = -1,
                       .tag = -1,
                       .index = rt->safe_points,
                       .wave = wave};
  rt->at_safe_point = 1; /* the application stands here (a family may copy
                            its buffers in this step) */
  ft_core_step(rt, &e);
  while (rt->held)
    if (rt->driver->held)
      rt->driver->held(rt);
    else
      ft_wait_control(rt);
  rt->at_safe_point = 0;
  return FT_SNAPSHOT_CONTINUE;
}
