/* The drain family's driver (drain.h): the on-line drain of lam-mpi-blcr,
 * sections 3-5 and Figure 9.
 *
 * At a wave's safe point K the rank is held while the core exchanges the
 * bookmarks; with every bookmark in, the core waits until what this rank
 * received from each peer equals that peer's "sent" bookmark (Figure 9,
 * step 2: "receives from the in-band channels until its 'received'
 * bookmarks match the peers' 'sent' ones"). Under the relaxed contract of
 * sim/ft.h a message may still be on the wire then: `held` takes it off
 * the application's point-to-point channel of its communicator into the
 * drain buffer, buffering "what it drained for the application", and
 * delivers it to the core (DELIVERED: it counts in the bookmarks and is
 * traced as delivered before the checkpoint). Only a peer whose bookmark
 * is in and not reached yet is drained, and only up to its bookmark:
 * what it sent after its own checkpoint stays on the wire.
 *
 * The buffer is an image region (FT_DRAIN_REGION), so that "on restart
 * every process restores its image and the drained messages are delivered
 * from the buffer first": a rollback drops it with the rest of the
 * abandoned run, and the restore puts the checkpoint's back. The
 * application's receives, probes and send-receives look at it before the
 * library (recv_payload answers 2, holds), in MPI's matching order
 * (MPI-3.1, 3.5): a drained message was sent before anything still on the
 * wire from its sender, so the first drained message that matches comes
 * first (anycall_wire.h's matching, with wildcards).
 *
 * Limits: collectives still complete at every member before a safe point
 * (their messages are not drained); the drain takes each sender's messages
 * per communicator in order, so a sender whose in-flight messages are on
 * two communicators at once may have one taken ahead of the other
 * (README, bookmark). */
#include <stdlib.h>
#include <string.h>

#include "bookmark/bookmark.h"
#include "drain.h"
#include "runtime/runtime.h"

/* The image region of the drain buffer. */
enum { FT_DRAIN_REGION = FT_MAX_REGIONS };

/* Empties the buffer, freeing its payloads (the figure stays). */
static void clear(struct ft_drain *d) {
  for (size_t i = 0; i < d->msgs.n; i++)
    free(d->data[i]);
  ft_ac_msgs_free(&d->msgs);
  free(d->data);
  d->data = NULL;
  d->cap_data = 0;
}

/* Appends envelope *m with its payload `data` (taken over). */
static void push(struct ft_runtime *rt, const struct ft_ac_msg *m,
                 unsigned char *data) {
  struct ft_drain *d = &rt->drain;
  d->data = ft_reserve(d->data, d->msgs.n + 1, &d->cap_data, sizeof *d->data,
                       "drained messages");
  if (ft_ac_msgs_push(&d->msgs, m) != 0)
    ft_fatal("rank %d: out of memory for its drained messages", rt->world_rank);
  d->data[d->msgs.n - 1] = data;
}

/* Removes message i, keeping the order of the others. */
static void take(struct ft_drain *d, size_t i) {
  free(d->data[i]);
  memmove(&d->data[i], &d->data[i + 1], (d->msgs.n - i - 1) * sizeof *d->data);
  ft_ac_msgs_take(&d->msgs, i);
}

/* The first drained message on c matching source/tag (MPI wildcards), or
 * -1. */
static ptrdiff_t find(const struct ft_runtime *rt, const struct ft_comm *c,
                      int source, int tag) {
  if (c == NULL || c->name < 0 || rt->drain.msgs.n == 0)
    return -1;
  return ft_ac_msgs_match(&rt->drain.msgs,
                          source == MPI_ANY_SOURCE ? -1 : source, c->name,
                          tag == MPI_ANY_TAG ? -1 : tag);
}

/* The status of drained message m received into `got` bytes. */
static MPI_Status status_of(const struct ft_ac_msg *m, uint64_t got, int rc) {
  MPI_Status st;
  memset(&st, 0, sizeof st);
  st.MPI_SOURCE = m->peer;
  st.MPI_TAG = m->tag;
  st.MPI_ERROR = rc;
  FT_PMPI(Status_set_elements, &st, MPI_BYTE, (int)got);
  return st;
}

/* ---- The drain at the safe point ---- */

/* 1 when this rank still waits for messages of application rank `peer`:
 * its bookmark is in and not reached. */
static int owed(const struct ft_runtime *rt, int peer) {
  int64_t remote = ft_bookmark_remote(rt->protocol_state, peer);
  return remote >= 0 && ft_bookmark_received(rt->protocol_state, peer) < remote;
}

/* Receives the message `probe` found on c's point-to-point channel into
 * the buffer and delivers it to the core (which may checkpoint and
 * release the rank: the buffer, this message included, is in the
 * image). */
static void drain_one(struct ft_runtime *rt, struct ft_comm *c,
                      const MPI_Status *probe) {
  int bytes = 0;
  FT_PMPI(Get_count, probe, MPI_BYTE, &bytes);
  unsigned char *data = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!data)
    ft_fatal("rank %d: out of memory for a drained message", rt->world_rank);
  MPI_Status st;
  FT_PMPI(Recv, data, bytes, MPI_BYTE, probe->MPI_SOURCE, probe->MPI_TAG,
          c->p2p, &st);
  struct ft_ac_msg m = {.peer = st.MPI_SOURCE,
                        .space = c->name,
                        .tag = st.MPI_TAG,
                        .bytes = (uint64_t)bytes};
  push(rt, &m, data);
  rt->drain.drained++;
  struct ft_recv_ticket t = {.source = st.MPI_SOURCE, .tag = st.MPI_TAG};
  ft_delivery_done(rt, data, bytes, MPI_BYTE, c->user, &st, t);
}

/* Looks once at the channel of every (communicator, peer) still owed
 * messages; drains the first message found. Returns 1 if it drained one. */
static int drain_some(struct ft_runtime *rt) {
  struct ft_comm *c;
  for (int i = 0; (c = ft_comm_at(rt, i)) != NULL; i++) {
    if (c->name < 0 || c->p2p == MPI_COMM_NULL || c->app_rank == NULL)
      continue;
    for (int r = 0; r < c->size; r++) {
      int peer = ft_comm_app_rank(c, r), flag = 0;
      if (peer < 0 || peer == rt->world_rank || !owed(rt, peer))
        continue;
      MPI_Status probe;
      FT_PMPI(Iprobe, r, MPI_ANY_TAG, c->p2p, &flag, &probe);
      if (flag) {
        drain_one(rt, c, &probe);
        return 1;
      }
    }
  }
  return 0;
}

/* The driver's held hook: while the core drains, the wire of the owed
 * peers and the control receive are looked at in turn (each look costs
 * SMPI's smpi/iprobe or smpi/test: simulated time passes); otherwise a
 * control message is waited for, as by default. */
static void drain_held(struct ft_runtime *rt) {
  if (!rt->at_safe_point || !ft_bookmark_draining(rt->protocol_state)) {
    ft_wait_control(rt);
    return;
  }
  if (!drain_some(rt))
    ft_poll_control(rt);
}

/* ---- The application's receives served from the buffer ---- */

/* recv_payload: a receive that matches a drained message takes it (its
 * bytes unpacked into buf's layout; MPI_ERR_TRUNCATE when they do not
 * fit), completes at once with *status and is not delivered again (2). */
static int drain_recv(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, int source, int tag, struct ft_comm *c,
                      int coll, MPI_Request *req, MPI_Status *status, int *rc) {
  ptrdiff_t i = coll ? -1 : find(rt, c, source, tag);
  if (i < 0)
    return 0;
  struct ft_drain *d = &rt->drain;
  const struct ft_ac_msg m = d->msgs.v[i];
  int size = 0, position = 0;
  FT_PMPI(Type_size, type, &size);
  uint64_t room = (uint64_t)size * (uint64_t)(count > 0 ? count : 0);
  uint64_t got = m.bytes <= room ? m.bytes : room;
  if (size > 0 && got > 0)
    FT_PMPI(Unpack, d->data[i], (int)got, &position, buf,
            (int)(got / (uint64_t)size), type, c->p2p);
  *rc = m.bytes <= room ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
  MPI_Status st = status_of(&m, got, *rc);
  take(d, (size_t)i);
  (void)req; /* the caller makes its handle (driver.h) */
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return 2;
}

/* holds: a probe that matches a drained message finds it (its whole
 * size). */
static int drain_holds(struct ft_runtime *rt, struct ft_comm *c, int source,
                       int tag, MPI_Status *status) {
  ptrdiff_t i = find(rt, c, source, tag);
  if (i < 0)
    return 0;
  const struct ft_ac_msg *m = &rt->drain.msgs.v[i];
  *status = status_of(m, m->bytes, MPI_SUCCESS);
  return 1;
}

/* ---- The buffer in the image ---- */

/* checkpoint: the application's regions, then the buffer (anycall_wire.h's
 * message list, then the payloads in its order). */
static void drain_checkpoint(struct ft_runtime *rt, int wave, int64_t clock,
                             struct ft_image_region *regions, size_t n) {
  (void)clock;
  const struct ft_drain *d = &rt->drain;
  size_t bytes = ft_ac_msgs_size(&d->msgs);
  for (size_t i = 0; i < d->msgs.n; i++)
    bytes += (size_t)d->msgs.v[i].bytes;
  unsigned char *region = malloc(bytes), *p = region;
  if (!region)
    ft_fatal("rank %d: out of memory for its drain buffer's image",
             rt->world_rank);
  ft_ac_msgs_write(&d->msgs, &p);
  for (size_t i = 0; i < d->msgs.n; i++) {
    memcpy(p, d->data[i], (size_t)d->msgs.v[i].bytes);
    p += d->msgs.v[i].bytes;
  }
  regions[n++] = (struct ft_image_region){
      .id = FT_DRAIN_REGION, .ptr = region, .bytes = bytes};
  ft_checkpoint_write(rt, wave, rt->safe_points, regions, n);
  free(region);
}

/* restored: the checkpoint's buffer replaces the current one. */
static void drain_restored(struct ft_runtime *rt,
                           const struct ft_local_image *img) {
  struct ft_drain *d = &rt->drain;
  clear(d);
  const void *found = NULL;
  size_t bytes = 0;
  if (ft_image_find(img->bytes, img->size, FT_DRAIN_REGION, &found, &bytes) !=
      0)
    return; /* an image without drained messages */
  const unsigned char *p = found, *end = p + bytes;
  struct ft_ac_msgs msgs = {0};
  if (ft_ac_msgs_read(&msgs, &p, end) != 0)
    ft_fatal("rank %d: its image's drain buffer is truncated", rt->world_rank);
  for (size_t i = 0; i < msgs.n; i++) {
    size_t len = (size_t)msgs.v[i].bytes;
    if ((size_t)(end - p) < len)
      ft_fatal("rank %d: its image's drained message %zu is truncated",
               rt->world_rank, i);
    unsigned char *data = malloc(len > 0 ? len : 1);
    if (!data)
      ft_fatal("rank %d: out of memory for a drained message", rt->world_rank);
    memcpy(data, p, len);
    p += len;
    push(rt, &msgs.v[i], data);
  }
  ft_ac_msgs_free(&msgs);
}

/* rollback and finish: the buffer of the abandoned (or ended) run goes. */
static void drain_drop(struct ft_runtime *rt) { clear(&rt->drain); }

static void drain_figures(const struct ft_runtime *rt,
                          struct ft_family_figures *f) {
  f->drained += rt->drain.drained;
}

const struct ft_driver ft_drain_driver = {.name = "drain",
                                          .recv_payload = drain_recv,
                                          .holds = drain_holds,
                                          .held = drain_held,
                                          .checkpoint = drain_checkpoint,
                                          .restored = drain_restored,
                                          .rollback = drain_drop,
                                          .finish = drain_drop,
                                          .figures = drain_figures,
                                          .drains = 1};
