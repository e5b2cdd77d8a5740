/* Channel state (vcl): the messages a rank received after its checkpoint
 * that their sender sent before its own, kept with the image and replayed
 * after a rollback.
 *
 * From pcl-vs-vcl-sc06, section 3: "every message, like m in the figure,
 * received after the local checkpoint and before having received the
 * marker of the sender, is stored by the daemon process ... If a failure
 * occurs, all processes restart from their last stored checkpoint (4) and
 * the daemon process replays the delivery of the stored messages (5)."
 *
 * Recording: the core says RECORD for a delivery that may be channel state
 * (delivery.c calls ft_channel_record), then STORE names the ranges to keep.
 *
 * Replay: the rank that recorded a message gives it back to its sender,
 * which sends it again, on the same communicator and tag, before its
 * application goes on. MPI's non-overtaking rule then delivers the
 * replayed messages of a channel before any new one, in their order. Both
 * sides are at the first safe point after the rollback, with the
 * communicators main() created before it (the same table on every rank).
 *
 * Serialised records (the region FT_CHANNEL_REGION of an image), every
 * integer little-endian as in sim/image.h: count uint32, then per record:
 * peer int32, comm int32, dest int32, tag int32, seq int64, bytes uint64,
 * then the packed bytes. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

enum { RECORD_HEADER = 32 };

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    ft_fatal("out of memory for channel state (%zu bytes)", bytes);
  return p;
}

/* Appends *r to a growing array. */
static void push_record(struct ft_record **list, size_t *n, size_t *cap,
                        const struct ft_record *r) {
  *list = ft_reserve(*list, *n + 1, cap, sizeof **list, "channel state");
  (*list)[(*n)++] = *r;
}

void ft_channel_record(struct ft_runtime *rt, int peer, int64_t seq,
                       const struct ft_comm *c, const void *buf, int count,
                       MPI_Datatype type, const MPI_Status *status) {
  int received = 0;
  FT_PMPI(Get_count, status, type, &received);
  if (received == MPI_UNDEFINED || received > count)
    received = count;
  struct ft_record r = {.peer = peer,
                        .seq = seq,
                        .comm = c->name,
                        .dest = c->rank,
                        .tag = status->MPI_TAG,
                        .req = MPI_REQUEST_NULL};
  r.data = ft_pack_copy(rt, buf, received, type, c->p2p, &r.bytes);
  push_record(&rt->records, &rt->n_records, &rt->cap_records, &r);
}

static int kept(const struct ft_record *r, const struct ft_record_range *keep,
                size_t n) {
  for (size_t i = 0; i < n; i++)
    if (keep[i].peer == r->peer && r->seq >= keep[i].first &&
        r->seq <= keep[i].last)
      return 1;
  return 0;
}

void ft_channel_keep(struct ft_runtime *rt, const struct ft_record_range *keep,
                     size_t n) {
  size_t out = 0;
  for (size_t i = 0; i < rt->n_records; i++) {
    if (kept(&rt->records[i], keep, n))
      rt->records[out++] = rt->records[i];
    else
      free(rt->records[i].data);
  }
  rt->n_records = out;
  rt->recorded += out;
  size_t wanted = 0;
  for (size_t i = 0; i < n; i++)
    if (keep[i].last >= keep[i].first)
      wanted += (size_t)(keep[i].last - keep[i].first + 1);
  if (wanted != out)
    ft_fatal("rank %d: channel state has %zu of the %zu messages the "
             "protocol kept",
             rt->world_rank, out, wanted);
}

void ft_channel_clear(struct ft_runtime *rt) {
  for (size_t i = 0; i < rt->n_records; i++)
    free(rt->records[i].data);
  rt->n_records = 0;
}

/* ---- Serialisation ---- */

static void put(unsigned char **p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++)
    *(*p)++ = (unsigned char)(v >> (8 * i));
}

static uint64_t get(const unsigned char **p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++)
    v |= (uint64_t) * (*p)++ << (8 * i);
  return v;
}

size_t ft_channel_size(const struct ft_runtime *rt) {
  size_t size = 4;
  for (size_t i = 0; i < rt->n_records; i++)
    size += RECORD_HEADER + rt->records[i].bytes;
  return size;
}

void ft_channel_write(const struct ft_runtime *rt, void *dst) {
  unsigned char *p = dst;
  put(&p, rt->n_records, 4);
  for (size_t i = 0; i < rt->n_records; i++) {
    const struct ft_record *r = &rt->records[i];
    put(&p, (uint32_t)r->peer, 4);
    put(&p, (uint32_t)r->comm, 4);
    put(&p, (uint32_t)r->dest, 4);
    put(&p, (uint32_t)r->tag, 4);
    put(&p, (uint64_t)r->seq, 8);
    put(&p, r->bytes, 8);
    memcpy(p, r->data, r->bytes);
    p += r->bytes;
  }
}

/* Reads the records of region[0..size) into a fresh array (payloads point
 * into region); returns how many, aborting on a malformed region. */
static size_t parse(struct ft_runtime *rt, const void *region, size_t size,
                    struct ft_record **out) {
  const unsigned char *p = region, *end = p + size;
  *out = NULL;
  if (size < 4)
    ft_fatal("rank %d: channel state of %zu bytes is truncated", rt->world_rank,
             size);
  size_t n = (size_t)get(&p, 4);
  struct ft_record *list = checked_malloc(n * sizeof *list);
  for (size_t i = 0; i < n; i++) {
    if ((size_t)(end - p) < RECORD_HEADER)
      ft_fatal("rank %d: channel state record %zu is truncated", rt->world_rank,
               i);
    struct ft_record *r = &list[i];
    r->peer = (int32_t)get(&p, 4);
    r->comm = (int32_t)get(&p, 4);
    r->dest = (int32_t)get(&p, 4);
    r->tag = (int32_t)get(&p, 4);
    r->seq = (int64_t)get(&p, 8);
    r->bytes = (size_t)get(&p, 8);
    if ((size_t)(end - p) < r->bytes)
      ft_fatal("rank %d: channel state record %zu is truncated", rt->world_rank,
               i);
    r->data = (void *)p;
    p += r->bytes;
  }
  *out = list;
  return n;
}

/* ---- Replay ---- */

/* Sends the recorded messages of `sender` back to it: a count (even 0),
 * then each message; the payload sends are left in rt->resent. */
static void hand_back(struct ft_runtime *rt, int sender,
                      const struct ft_record *list, size_t n) {
  int64_t count = 0;
  for (size_t i = 0; i < n; i++)
    count += list[i].peer == sender;
  struct ft_wire m = {.kind = FT_WIRE_REPLAY_COUNT,
                      .to = sender,
                      .inc = rt->incarnation,
                      .value = count};
  ft_control_send(rt, sender, &m);
  for (size_t i = 0; i < n; i++) {
    const struct ft_record *r = &list[i];
    if (r->peer != sender)
      continue;
    struct ft_wire w = {.kind = FT_WIRE_REPLAY,
                        .to = sender,
                        .inc = rt->incarnation,
                        .value = (int64_t)r->bytes,
                        .x = {r->comm, r->dest, r->tag}};
    ft_control_send(rt, sender, &w);
    struct ft_record copy = *r;
    copy.data = checked_malloc(r->bytes);
    memcpy(copy.data, r->data, r->bytes);
    push_record(&rt->resent, &rt->n_resent, &rt->cap_resent, &copy);
    FT_PMPI(Isend, copy.data, (int)copy.bytes, MPI_BYTE, sender, FT_TAG_REPLAY,
            rt->control, &rt->resent[rt->n_resent - 1].req);
  }
}

void ft_channel_reset_replay(struct ft_runtime *rt) {
  rt->replay_counts = 0;
  rt->replay_expected = 0;
  for (size_t i = 0; i < rt->n_to_resend; i++)
    free(rt->to_resend[i].data);
  rt->n_to_resend = 0;
}

void ft_channel_on_count(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->inc != rt->incarnation)
    return;
  rt->replay_counts++;
  rt->replay_expected += m->value;
}

/* A message this rank sent before its checkpoint and its receiver recorded:
 * kept until this rank reaches its restore point (ft_channel_replay). The
 * bytes follow the announcement at once: they are received even when the
 * announcement is stale. */
void ft_channel_on_message(struct ft_runtime *rt, const struct ft_wire *m) {
  struct ft_record r = {.peer = m->from,
                        .comm = (int)m->x[0],
                        .dest = (int)m->x[1],
                        .tag = (int)m->x[2],
                        .bytes = (size_t)m->value,
                        .req = MPI_REQUEST_NULL};
  r.data = checked_malloc(r.bytes);
  FT_PMPI(Recv, r.data, (int)r.bytes, MPI_BYTE, m->from, FT_TAG_REPLAY,
          rt->control, MPI_STATUS_IGNORE);
  if (m->inc != rt->incarnation) {
    free(r.data); /* from an abandoned restore */
    return;
  }
  push_record(&rt->to_resend, &rt->n_to_resend, &rt->cap_to_resend, &r);
}

/* Sends again, as the application did, a message its receiver recorded,
 * and tells the core (the receiver counts it as a delivery). */
static void resend(struct ft_runtime *rt, struct ft_record *r) {
  struct ft_comm *c = ft_comm_named(rt, r->comm);
  if (!c)
    ft_fatal("rank %d: replay on communicator %d, which the restarted "
             "application has not created",
             rt->world_rank, r->comm);
  ft_protocol_event(rt, FT_EVENT_APP_SEND, r->peer, r->tag, r->bytes);
  ft_trace_resend(rt, r);
  push_record(&rt->resent, &rt->n_resent, &rt->cap_resent, r);
  FT_PMPI(Isend, r->data, (int)r->bytes, MPI_PACKED, r->dest, r->tag, c->p2p,
          &rt->resent[rt->n_resent - 1].req);
}

void ft_channel_replay(struct ft_runtime *rt, const void *region, size_t size) {
  struct ft_record *list = NULL;
  size_t n = region ? parse(rt, region, size, &list) : 0;
  for (int peer = 0; peer < rt->app_ranks; peer++)
    if (peer != rt->world_rank)
      hand_back(rt, peer, list, n);
  free(list);
  while (rt->replay_counts < rt->app_ranks - 1 ||
         (int64_t)rt->n_to_resend < rt->replay_expected)
    ft_wait_control(rt);
  for (size_t i = 0; i < rt->n_to_resend; i++)
    resend(rt, &rt->to_resend[i]); /* the payload now belongs to resent */
  rt->n_to_resend = 0;
  rt->replays += n;
}

void ft_channel_finish(struct ft_runtime *rt) {
  for (size_t i = 0; i < rt->n_resent; i++) {
    FT_PMPI(Wait, &rt->resent[i].req, MPI_STATUS_IGNORE);
    free(rt->resent[i].data);
  }
  rt->n_resent = 0;
}
