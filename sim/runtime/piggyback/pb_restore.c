/* The piggyback family's log and restore (c3-collectives, sections 3.1 and
 * 3.3): late messages kept with their piggyback, the family's image region
 * (suppress list, decisions, late messages), and the restore after a
 * rollback of every rank.
 *
 * Restore: at the resumption, before ROLLBACK is fed to the core, every
 * rank reads its image's region and sends every other rank a PB_RESTORE
 * (even empty), then the suppress entries naming that rank's sends
 * (section 3.3: "During recovery, each processor passes its list of
 * messageID's to their sender processors so that resending these messages
 * can be suppressed") and the late messages it sent. It waits for every
 * rank's, sends the late messages handed back to it again, with their
 * original piggyback, before its application goes on (MPI's
 * non-overtaking order delivers them before any new message of the
 * channel) at its first safe point, where the communicators main()
 * created before it exist again, and hands the core its decisions
 * (FT_LOGGED_MATCH), its log's late messages (FT_LOGGED_DELIVERY) and the
 * suppress entries it received (FT_LOGGED_SUPPRESS) at the resumption.
 *
 * The region: the suppress list and the decisions (a uint32 count, then
 * the entries as struct ft_logged_event), the communicator creations
 * (pb_comms.c), and the late messages (a uint32 count, then each as struct
 * late_header and the packed bytes). An image is read
 * back by the binary that wrote it (the same process under SMPI). */
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "piggyback.h"

struct late_header {
  int32_t peer, comm, dest, tag, coll, epoch, logging, pad_;
  int64_t id;
  uint64_t bytes;
};

static void push_late(struct ft_pb_late **list, size_t *n, size_t *cap,
                      const struct ft_pb_late *r) {
  *list = ft_reserve(*list, *n + 1, cap, sizeof **list, "c3 late messages");
  (*list)[(*n)++] = *r;
}

static void push_given(struct ft_pb *pb, const struct ft_logged_event *e) {
  struct ft_pb_events *l = &pb->given;
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 restore");
  l->at[l->n++] = *e;
}

/* A late message that was longer than its receive (MPI_ERR_TRUNCATE: its
 * head delivered) is kept one byte longer than the head, so that, sent
 * again after a rollback, it overflows the same receive again and the
 * application sees the same error. Before, the head alone was sent again
 * and the receive succeeded (count_check, c3, `fail 2 at 0.009`, a
 * checkpoint every 2 ms: rank 0's receive of 4 doubles into 2 returned
 * MPI_SUCCESS in its re-execution). */
static void *overflow(struct ft_runtime *rt, void *data, size_t *bytes) {
  unsigned char *longer = realloc(data, *bytes + 1);
  if (!longer)
    ft_fatal("rank %d: out of memory for a late message", rt->world_rank);
  longer[(*bytes)++] = 0;
  return longer;
}

/* Where late message r goes in the log: after those of its channel taken
 * by receives posted before its own. Receives complete in any order (MPI_Wait
 * on the later one first) but MPI matched them in their posting order
 * (MPI-3.1, 3.5, non-overtaking), and the log is sent again in its order
 * after a rollback: kept in the order of completion, two late messages
 * taken by receives from MPI_ANY_SOURCE completed in the other order came
 * back swapped (combined_check, c3, `fail 0 at 0.018`, a checkpoint every
 * 2 ms: rank 0's re-execution got the second message in its first
 * receive). */
static size_t late_place(const struct ft_pb *pb, const struct ft_pb_late *r) {
  size_t i = pb->n_late;
  while (r->recv > 0 && i > 0 && pb->late[i - 1].peer == r->peer &&
         pb->late[i - 1].comm == r->comm && pb->late[i - 1].recv > r->recv)
    i--;
  return i;
}

/* Keeps a late message of c (coll: its shadow's) with the piggyback the
 * core decided on. */
static void keep_late(struct ft_runtime *rt, int peer, const struct ft_comm *c,
                      int coll, int tag, const void *buf, int count,
                      MPI_Datatype type, const MPI_Status *status) {
  struct ft_pb *pb = &rt->pb;
  int received = count;
  if (status)
    FT_PMPI(Get_count, status, type, &received);
  if (received == MPI_UNDEFINED || received > count)
    received = count;
  struct ft_pb_late r = {.peer = peer,
                         .comm = c->name,
                         .dest = c->rank,
                         .tag = tag,
                         .coll = coll,
                         .pb = pb->last,
                         .req = MPI_REQUEST_NULL,
                         .recv = coll ? 0 : pb->last_recv};
  r.data =
      ft_pack_copy(rt, buf, received, type, coll ? c->coll : c->p2p, &r.bytes);
  if (status && status->MPI_ERROR == MPI_ERR_TRUNCATE)
    r.data = overflow(rt, r.data, &r.bytes);
  size_t at = late_place(pb, &r);
  push_late(&pb->late, &pb->n_late, &pb->cap_late, &r);
  memmove(&pb->late[at + 1], &pb->late[at],
          (pb->n_late - 1 - at) * sizeof *pb->late);
  pb->late[at] = r;
}

void ft_pb_record(struct ft_runtime *rt, int peer, int64_t seq,
                  const struct ft_comm *c, const void *buf, int count,
                  MPI_Datatype type, const MPI_Status *status) {
  (void)seq; /* every late message is kept: they come in order */
  keep_late(rt, peer, c, 0, status->MPI_TAG, buf, count, type, status);
}

void ft_pb_record_coll(struct ft_runtime *rt, int peer, const struct ft_comm *c,
                       int tag, const void *buf, int count, MPI_Datatype type,
                       const MPI_Status *status) {
  keep_late(rt, peer, c, 1, tag, buf, count, type, status);
}

void ft_pb_clear_log(struct ft_pb *pb) {
  for (size_t i = 0; i < pb->n_late; i++)
    free(pb->late[i].data);
  pb->n_late = 0;
}

/* ---- The region ---- */

size_t ft_pb_region_size(const struct ft_pb *pb) {
  size_t size =
      12 + (pb->suppress.n + pb->decisions.n) * sizeof(struct ft_logged_event) +
      ft_pb_creations_size(pb);
  for (size_t i = 0; i < pb->n_late; i++)
    size += sizeof(struct late_header) + pb->late[i].bytes;
  return size;
}

static unsigned char *put_events(unsigned char *p,
                                 const struct ft_pb_events *l) {
  uint32_t n = (uint32_t)l->n;
  memcpy(p, &n, 4);
  memcpy(p + 4, l->at, l->n * sizeof *l->at);
  return p + 4 + l->n * sizeof *l->at;
}

void ft_pb_region_write(const struct ft_pb *pb, int64_t index, void *dst) {
  unsigned char *p = put_events(dst, &pb->suppress);
  p = put_events(p, &pb->decisions);
  p = ft_pb_creations_write(pb, index, p);
  uint32_t n = (uint32_t)pb->n_late;
  memcpy(p, &n, 4);
  p += 4;
  for (size_t i = 0; i < pb->n_late; i++) {
    const struct ft_pb_late *r = &pb->late[i];
    struct late_header h = {.peer = r->peer,
                            .comm = r->comm,
                            .dest = r->dest,
                            .tag = r->tag,
                            .coll = r->coll,
                            .epoch = r->pb.epoch,
                            .logging = r->pb.logging,
                            .id = r->pb.id,
                            .bytes = r->bytes};
    memcpy(p, &h, sizeof h);
    memcpy(p + sizeof h, r->data, r->bytes);
    p += sizeof h + r->bytes;
  }
}

/* The region, read: its entries point into it. */
struct region {
  const struct ft_logged_event *suppress, *decisions;
  size_t n_suppress, n_decisions, n_late;
  const unsigned char *late;
  const unsigned char *creations, *end; /* NULL: none (the start) */
};

static const unsigned char *get_events(struct ft_runtime *rt,
                                       const unsigned char *p,
                                       const unsigned char *end,
                                       const struct ft_logged_event **at,
                                       size_t *n) {
  uint32_t count = 0;
  if (end - p < 4)
    ft_fatal("rank %d: its image's c3 region is truncated", rt->world_rank);
  memcpy(&count, p, 4);
  if ((size_t)(end - p - 4) / sizeof **at < count)
    ft_fatal("rank %d: its image's c3 region is truncated", rt->world_rank);
  *at = (const struct ft_logged_event *)(const void *)(p + 4);
  *n = count;
  return p + 4 + count * sizeof **at;
}

static void parse(struct ft_runtime *rt, const struct ft_local_image *img,
                  struct region *r) {
  *r = (struct region){0};
  const void *found = NULL;
  size_t bytes = 0;
  if (!img ||
      ft_image_find(img->bytes, img->size, FT_PB_REGION, &found, &bytes) != 0)
    return; /* the start: nothing logged */
  const unsigned char *p = found, *end = p + bytes;
  p = get_events(rt, p, end, &r->suppress, &r->n_suppress);
  p = get_events(rt, p, end, &r->decisions, &r->n_decisions);
  r->creations = p;
  r->end = end;
  struct ft_pb_creations skip = {0};
  p = ft_pb_creations_read(rt, p, end, &skip);
  free(skip.at);
  free(skip.members);
  uint32_t n = 0;
  if (end - p < 4)
    ft_fatal("rank %d: its image's c3 region is truncated", rt->world_rank);
  memcpy(&n, p, 4);
  r->n_late = n;
  r->late = p + 4;
}

/* Late message i of the region (its bytes point into the region). */
static const unsigned char *
next_late(const unsigned char *p, struct late_header *h, const void **data) {
  memcpy(h, p, sizeof *h);
  *data = p + sizeof *h;
  return p + sizeof *h + h->bytes;
}

/* ---- The restore ---- */

/* Hands `sender` its suppress entries and late messages of region r. */
static void hand_back(struct ft_runtime *rt, int sender,
                      const struct region *r) {
  int64_t n_suppress = 0, n_late = 0;
  for (size_t i = 0; i < r->n_suppress; i++)
    n_suppress += r->suppress[i].peer == sender;
  const unsigned char *p = r->late;
  struct late_header h;
  const void *data;
  for (size_t i = 0; i < r->n_late; i++) {
    p = next_late(p, &h, &data);
    n_late += h.peer == sender;
  }
  struct ft_wire m = {.kind = FT_WIRE_PB_RESTORE,
                      .to = sender,
                      .inc = rt->incarnation,
                      .value = n_suppress,
                      .x = {(double)n_late}};
  ft_control_send(rt, sender, &m);
  for (size_t i = 0; i < r->n_suppress; i++)
    if (r->suppress[i].peer == sender) {
      struct ft_wire s = {
          .kind = FT_WIRE_PB_SUPPRESS,
          .to = sender,
          .inc = rt->incarnation,
          .value = r->suppress[i].value,
          .x = {r->suppress[i].kind == FT_LOGGED_COLL}}; /* a call's */
      ft_control_send(rt, sender, &s);
    }
  p = r->late;
  for (size_t i = 0; i < r->n_late; i++) {
    p = next_late(p, &h, &data);
    if (h.peer != sender)
      continue;
    struct ft_wire l = {.kind = FT_WIRE_PB_LATE,
                        .to = sender,
                        .inc = rt->incarnation,
                        .wave = h.epoch,
                        .value = (int64_t)h.bytes,
                        .x = {2.0 * h.comm + h.coll, h.dest, h.tag,
                              (double)(2 * h.id + h.logging)}};
    void *copy = malloc(h.bytes ? h.bytes : 1);
    if (!copy)
      ft_fatal("rank %d: out of memory for a late message", rt->world_rank);
    memcpy(copy, data, h.bytes);
    ft_control_send_payload(rt, sender, &l, copy, h.bytes);
  }
}

/* What this rank's own image makes it re-execute by. */
static void give_own(struct ft_runtime *rt, const struct region *r) {
  for (size_t i = 0; i < r->n_decisions; i++)
    push_given(&rt->pb, &r->decisions[i]);
  const unsigned char *p = r->late;
  struct late_header h;
  const void *data;
  for (size_t i = 0; i < r->n_late; i++) {
    p = next_late(p, &h, &data);
    push_given(&rt->pb, &(struct ft_logged_event){.kind = FT_LOGGED_DELIVERY,
                                                  .peer = h.peer,
                                                  .tag = h.tag});
  }
}

/* Sends again, as the application did, a late message its receiver
 * logged, with its piggyback first, on c.
 *
 * A rank that failed sends nothing: it looks at its failure time first,
 * as an application send does (p2p.c), and again between the piggyback
 * and the payload (pb_app_send). Before, a rank that failed while it made
 * a communicator again sent that communicator's late messages once the
 * creation returned (analysis/ml_anycall_stress.sh under c3, round 23 of
 * 40, mg on 6 ranks: rank 5 failed at 0.067175510 s and resent at
 * 0.067255319 s, ftsim check's after-failure rule). */
static void resend(struct ft_runtime *rt, struct ft_pb_late *r,
                   const struct ft_comm *c) {
  struct ft_pb *pb = &rt->pb;
  ft_control_fate(rt);
  ft_trace_resend_on(rt, r->comm, r->coll, r->peer, r->tag, r->bytes);
  if (ft_pb_framed(rt)) { /* one message, as the receiver expects */
    size_t total;
    void *framed = ft_pb_frame_packed(&r->pb, r->data, r->bytes, &total);
    free(r->data);
    r->data = framed;
    push_late(&pb->resent, &pb->n_resent, &pb->cap_resent, r);
    FT_PMPI(Isend, r->data, (int)total, MPI_BYTE, r->dest, r->tag,
            r->coll ? c->coll : c->p2p, &pb->resent[pb->n_resent - 1].req);
    pb->replayed++;
    return;
  }
  FT_PMPI(Send, &r->pb, (int)sizeof r->pb, MPI_BYTE, r->dest,
          (r->coll ? FT_PB_COLL_TAG_BASE : FT_PB_TAG_BASE) + r->tag, c->coll);
  ft_control_fate(rt); /* looked at again: see above */
  push_late(&pb->resent, &pb->n_resent, &pb->cap_resent, r);
  FT_PMPI(Isend, r->data, (int)r->bytes, MPI_PACKED, r->dest, r->tag,
          r->coll ? c->coll : c->p2p, &pb->resent[pb->n_resent - 1].req);
  pb->replayed++;
}

void ft_pb_flush(struct ft_runtime *rt) {
  struct ft_pb *pb = &rt->pb;
  if (rt->restore_pending && rt->restore_wave > 0)
    return; /* not restored yet */
  size_t out = 0;
  for (size_t i = 0; i < pb->n_to_resend; i++) {
    struct ft_comm *c = ft_comm_named(rt, pb->to_resend[i].comm);
    if (c)
      resend(rt, &pb->to_resend[i], c); /* the payload belongs to resent */
    else
      pb->to_resend[out++] = pb->to_resend[i];
  }
  pb->n_to_resend = out;
}

int ft_pb_resending(const struct ft_pb *pb, int comm) {
  for (size_t i = 0; i < pb->n_to_resend; i++)
    if (pb->to_resend[i].comm == comm)
      return 1;
  for (size_t i = 0; i < pb->n_resent; i++)
    if (pb->resent[i].comm == comm)
      return 1;
  return 0;
}

void ft_pb_restored(struct ft_runtime *rt, const struct ft_local_image *img) {
  struct region r;
  parse(rt, img, &r); /* the rest was read at the resumption */
  struct ft_pb_creations made = {0};
  if (r.creations)
    ft_pb_creations_read(rt, r.creations, r.end, &made);
  ft_pb_make_again(rt, &made);
  free(made.at);
  free(made.members);
}

void ft_pb_finish(struct ft_runtime *rt) {
  struct ft_pb *pb = &rt->pb;
  if (pb->n_to_resend > 0)
    ft_fatal("rank %d: c3 never sent again %zu late message(s) of "
             "communicator %d, which the restarted application never "
             "created again",
             rt->world_rank, pb->n_to_resend, pb->to_resend[0].comm);
  for (size_t i = 0; i < pb->n_resent; i++) {
    FT_PMPI(Wait, &pb->resent[i].req, MPI_STATUS_IGNORE);
    free(pb->resent[i].data);
  }
  pb->n_resent = 0;
  ft_pb_framed_finish(rt);
}

void ft_pb_resuming(struct ft_runtime *rt, struct ft_event *e) {
  struct ft_pb *pb = &rt->pb;
  struct region r;
  parse(rt, e->wave > 0 ? ft_local_image_of(rt, e->wave) : NULL, &r);
  for (int peer = 0; peer < rt->app_ranks; peer++)
    if (peer != rt->world_rank)
      hand_back(rt, peer, &r);
  give_own(rt, &r);
  while (pb->headers < rt->app_ranks - 1 || pb->received < pb->expected)
    ft_wait_control(rt);
  e->logged = pb->given.n ? pb->given.at : NULL;
  e->n_logged = pb->given.n;
}

/* A late message this rank sent before its receiver's checkpoint: its
 * bytes follow at once, received even when the message is stale. */
static void on_late(struct ft_runtime *rt, const struct ft_wire *m) {
  int64_t code = (int64_t)m->x[3], comm = (int64_t)m->x[0];
  struct ft_pb_late r = {
      .peer = m->from,
      .comm = (int)(comm >= 0 ? comm / 2 : (comm - 1) / 2),
      .coll = (int)(comm - 2 * (comm >= 0 ? comm / 2 : (comm - 1) / 2)),
      .dest = (int)m->x[1],
      .tag = (int)m->x[2],
      .pb = {.epoch = m->wave, .logging = (int)(code % 2), .id = code / 2},
      .bytes = (size_t)m->value,
      .req = MPI_REQUEST_NULL};
  r.data = ft_control_payload(rt, m, r.bytes);
  if (m->inc != rt->incarnation) {
    free(r.data);
    return;
  }
  struct ft_pb *pb = &rt->pb;
  push_late(&pb->to_resend, &pb->n_to_resend, &pb->cap_to_resend, &r);
  pb->received++;
}

int ft_pb_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  struct ft_pb *pb = &rt->pb;
  if (m->kind == FT_WIRE_PB_LATE) {
    on_late(rt, m);
    return 1;
  }
  if (m->kind != FT_WIRE_PB_RESTORE && m->kind != FT_WIRE_PB_SUPPRESS)
    return 0;
  if (m->inc != rt->incarnation)
    return 1; /* from an abandoned restore */
  if (m->kind == FT_WIRE_PB_RESTORE) {
    pb->headers++;
    pb->expected += m->value + (int64_t)m->x[0];
    return 1;
  }
  if (m->x[0] != 0) /* a collective call (pb_coll.c) */
    push_given(pb, &(struct ft_logged_event){.kind = FT_LOGGED_COLL,
                                             .peer = m->from,
                                             .id = m->value,
                                             .value = m->value});
  else
    push_given(pb, &(struct ft_logged_event){.kind = FT_LOGGED_SUPPRESS,
                                             .peer = m->from,
                                             .value = m->value});
  pb->received++;
  return 1;
}

void ft_pb_reset_restore(struct ft_pb *pb) {
  pb->headers = 0;
  pb->expected = pb->received = 0;
  pb->given.n = 0;
  for (size_t i = 0; i < pb->n_to_resend; i++)
    free(pb->to_resend[i].data);
  pb->n_to_resend = 0;
}

/* From settle.c: the late messages sent again are the runtime's, freed
 * once sent; in reference mode they are forgotten (their buffers leak). */
void ft_pb_settle(struct ft_runtime *rt, int wait) {
  struct ft_pb *pb = &rt->pb;
  while (wait && pb->n_resent > 0) {
    struct ft_pb_late *r = &pb->resent[pb->n_resent - 1];
    ft_wait_any(rt, 1, &r->req, NULL);
    free(r->data);
    pb->n_resent--;
  }
  pb->n_resent = 0;
}
