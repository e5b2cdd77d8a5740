/* The any-call transport (sim/ft_anycall.h; its state in anycall.h):
 * checkpoints at any MPI call of a replay, for a core in any-call mode
 * (protocols/ft_protocol.h, FT_EVENT_CALL and the long comment before
 * FT_UPDATE_DEFER; docs/protocols.md, "Any-call mode").
 *
 * Wire. Every message goes out as one PMPI_Isend on the incarnation's
 * point-to-point channel (the application world's p2p communicator) with
 * the tag ((tag x nspace + space) << 8) | cc: space = 2 x communicator +
 * collective, cc = the core messages this rank sent to the receiver before
 * it (mod 256). The receiver keeps FT_AC_RX receives of MPI_ANY_SOURCE and
 * MPI_ANY_TAG posted and takes them in posting order, which is matching
 * order, so the messages of one sender come in the order sent (MPI's
 * non-overtaking rule). Under SMPI that message is a header (its size) and
 * the data goes apart on the data channel, received with the replay's
 * receive (anycall_data.c; anycall.h, "The data channel"): transfers
 * start as SMPI's would for the replay's own MPI calls. A message whose cc is
 * ahead of the core messages received from its sender is held until they are
 * in: a message sent after a marker is never fed before that marker
 * (docs/protocols.md, "The channel's order"); markers travel on the control
 * communicator.
 *
 * The core's flags, in ft_protocol.h's order within one update: the
 * event's own (PASS, DEFER, QUEUE, RECORD) where the event is fed, then the
 * control sends (ft_apply_update), then CHECKPOINT (the driver's checkpoint
 * hook) or CAPTURE, STORE (the update hook's SENT stage), COMMIT, then
 * FLUSH (its END stage). The transport stands in for the family's update,
 * checkpoint, restored and rollback hooks (ac->driver, a copy of the
 * family's table): the family's non-blocking checkpoints at safe points do
 * not apply here.
 *
 * The event trace (ftsim check) sees an application message delivered
 * when it arrives and the core lets it in (PASS), or when a FLUSH releases
 * it from the queue: that is when it becomes part of the rank's state, and
 * an image. A checkpoint's "ckpt" record follows a "safe CALL" record
 * (trace.c): the cut. Channel state restored after a rollback is traced as
 * "restored". */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ft_anycall.h"
#include "image.h"
#include "runtime.h"

enum {
  REGION_TRANSPORT = FT_MAX_REGIONS + 2, /* the call, handles, arrived */
  REGION_CHANNEL = FT_MAX_REGIONS + 3    /* the records STORE kept */
};

/* ---- Small helpers ---- */

static void push_msg(struct ft_ac_msgs *l, const struct ft_ac_msg *m) {
  if (ft_ac_msgs_push(l, m))
    ft_fatal("out of memory for the any-call transport's messages");
}

static struct ft_ac_req *find_req(struct ft_ac *ac, int64_t handle) {
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (ac->reqs[i].handle == handle)
      return &ac->reqs[i];
  return NULL;
}

static struct ft_ac_req *add_req(struct ft_runtime *rt, int64_t handle) {
  struct ft_ac *ac = &rt->ac;
  if (find_req(ac, handle))
    ft_fatal("rank %d: any-call handle %lld is already pending", rt->world_rank,
             (long long)handle);
  ac->reqs = ft_reserve(ac->reqs, ac->n_reqs + 1, &ac->cap_reqs,
                        sizeof *ac->reqs, "any-call requests");
  struct ft_ac_req *r = &ac->reqs[ac->n_reqs++];
  *r = (struct ft_ac_req){.handle = handle, .req = MPI_REQUEST_NULL};
  return r;
}

static void trace_message(struct ft_runtime *rt, int deliver,
                          struct ft_ac_msg *m) {
  if (ft_trace_on(rt))
    m->seq = ft_trace_message_(rt, deliver, m->space / 2, m->space % 2, m->peer,
                               m->tag, m->bytes);
}

/* ---- Sends ---- */

/* The message whole, or (ac->split) its data then its header (anycall.h,
 * "The data channel"). */
static void post_send(struct ft_runtime *rt, struct ft_ac_req *r) {
  struct ft_ac *ac = &rt->ac;
  void *buf = ac->sbuf;
  int count = (int)r->bytes;
  if (ac->split) {
    count = ft_ac_data_send(rt, r);
    buf = &ac->head;
  }
  int tag =
      ft_ac_wire_encode(ac->nspace, r->space, r->tag, ac->ctl_sent[r->peer]);
  FT_PMPI(Isend, buf, count, MPI_BYTE, r->peer, tag, ac->wire, &r->req);
  ft_pending_add(rt, r->req, ac->wire, 1, r->peer, tag);
  r->state = FT_AC_SENT;
  rt->counters.messages++;
  rt->counters.bytes += r->bytes;
  if (ft_trace_on(rt))
    ft_trace_message_(rt, 0, r->space / 2, r->space % 2, r->peer, r->tag,
                      r->bytes);
}

/* APP_SEND to the core: sent now, or DEFERred until a FLUSH. */
static void send_or_defer(struct ft_runtime *rt, struct ft_ac_req *r) {
  struct ft_ac *ac = &rt->ac;
  struct ft_event e = {.type = FT_EVENT_APP_SEND,
                       .peer = r->peer,
                       .tag = r->tag,
                       .bytes = r->bytes};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (u.flags & FT_UPDATE_DEFER) {
    r->state = FT_AC_DEFERRED;
    r->order = ac->deferrals++;
    ac->deferred++;
  } else {
    post_send(rt, r);
  }
  ft_apply_update(rt, &u); /* may move ac->reqs: r is not used after */
}

/* FLUSH: the deferred sends leave in the order deferred. */
static void flush_deferred(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  for (;;) {
    struct ft_ac_req *first = NULL;
    for (size_t i = 0; i < ac->n_reqs; i++)
      if (ac->reqs[i].state == FT_AC_DEFERRED &&
          (!first || ac->reqs[i].order < first->order))
        first = &ac->reqs[i];
    if (!first)
      return;
    post_send(rt, first);
  }
}

/* ---- Receives and matching ---- */

static int envelope_matches(const struct ft_ac_req *r,
                            const struct ft_ac_msg *m) {
  return r->peer == m->peer && r->space == m->space && r->tag == m->tag;
}

/* Handles of requests the replay freed (MPI_Request_free) while active:
 * they go on, under a handle of their own, and are forgotten once
 * complete. */
static const int64_t FREED_BASE = INT64_MIN / 2;

static int freed(const struct ft_ac_req *r) { return r->handle < FREED_BASE; }

/* Complete: sent or matched, and its data part (if any) done. */
static int complete(const struct ft_ac_req *r) {
  return r && (r->state == FT_AC_SEND_DONE || r->state == FT_AC_MATCHED) &&
         r->data == MPI_REQUEST_NULL;
}

static void forget_req(struct ft_ac *ac, int64_t handle) {
  struct ft_ac_req *r = find_req(ac, handle);
  if (!r)
    return;
  size_t i = (size_t)(r - ac->reqs);
  memmove(r, r + 1, (ac->n_reqs - i - 1) * sizeof *r);
  ac->n_reqs--;
}

static void deliver(struct ft_runtime *rt, struct ft_ac_req *r,
                    const struct ft_ac_msg *m) {
  int64_t handle = r->handle;
  r->state = FT_AC_MATCHED;
  r->got = m->bytes;
  if (!m->data && r->data_posted)
    ft_fatal("rank %d: a data receive posted for a restored message",
             rt->world_rank);
  if (m->data)
    ft_ac_data_recv(rt, r); /* unless posted with the receive */
  int gone = freed(r) && complete(r);
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = m->peer,
                       .tag = m->tag,
                       .bytes = m->bytes};
  ft_core_step(rt, &e);
  if (gone)
    forget_req(&rt->ac, handle);
}

/* MPI's matching: each receivable message, in arrival order, goes to the
 * first posted receive it matches. */
static void match_all(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  for (size_t k = 0; k < ac->ready.n;) {
    struct ft_ac_msg m = ac->ready.v[k];
    struct ft_ac_req *to = NULL;
    for (size_t i = 0; i < ac->n_reqs && !to; i++)
      if (ac->reqs[i].state == FT_AC_POSTED &&
          envelope_matches(&ac->reqs[i], &m))
        to = &ac->reqs[i];
    if (!to) {
      k++;
      continue;
    }
    ft_ac_msgs_take(&ac->ready, k);
    deliver(rt, to, &m);
  }
}

/* ---- Arrivals ---- */

/* The message joins the rank's state: receivable (and traced). */
static void admit(struct ft_runtime *rt, struct ft_ac_msg *m) {
  trace_message(rt, 1, m);
  push_msg(&rt->ac.ready, m);
}

/* ARRIVED to the core: PASS (perhaps RECORD) or QUEUE. */
static void arrive(struct ft_runtime *rt, struct ft_ac_msg m) {
  struct ft_ac *ac = &rt->ac;
  struct ft_event e = {
      .type = FT_EVENT_ARRIVED, .peer = m.peer, .tag = m.tag, .bytes = m.bytes};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (u.flags & FT_UPDATE_QUEUE) {
    push_msg(&ac->queued, &m);
    ac->queued_msgs++;
  } else {
    admit(rt, &m);
  }
  if (u.flags & FT_UPDATE_RECORD) {
    m.number = u.index;
    push_msg(&ac->records, &m);
  }
  ft_apply_update(rt, &u);
  match_all(rt);
}

/* Feeds the held messages whose sender's core messages are in, in order
 * per sender. */
static void release_held(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  if (ac->held.n)
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  for (size_t i = 0; i < ac->held.n;) {
    struct ft_ac_msg m = ac->held.v[i];
    int earlier = 0;
    for (size_t k = 0; k < i && !earlier; k++)
      earlier = ac->held.v[k].peer == m.peer;
    if (earlier || ft_ac_cc_ahead(m.cc, ac->ctl_got[m.peer])) {
      i++;
      continue;
    }
    ft_ac_msgs_take(&ac->held, i);
    arrive(rt, m);
    i = 0; /* the core's step may have let more in */
  }
}

static void post_rx(struct ft_runtime *rt, int k) {
  struct ft_ac *ac = &rt->ac;
  FT_PMPI(Irecv, ac->rx_buf[k], (int)ac->rx_bytes, MPI_BYTE, MPI_ANY_SOURCE,
          MPI_ANY_TAG, ac->wire, &ac->rx[k]);
  ft_pending_add(rt, ac->rx[k], ac->wire, 0, MPI_ANY_SOURCE, MPI_ANY_TAG);
}

/* The oldest posted receive completed with `st`. */
static void on_wire(struct ft_runtime *rt, const MPI_Status *st) {
  struct ft_ac *ac = &rt->ac;
  int count = 0;
  FT_PMPI(Get_count, st, MPI_BYTE, &count);
  struct ft_ac_msg m = {.peer = st->MPI_SOURCE, .bytes = (uint64_t)count};
  ft_ac_wire_decode(ac->nspace, st->MPI_TAG, &m.space, &m.tag, &m.cc);
  if (ac->split)
    ft_ac_data_header(rt, &m, ac->rx_buf[ac->rx_head], count);
  post_rx(rt, ac->rx_head);
  ac->rx_head = (ac->rx_head + 1) % FT_AC_RX;
  push_msg(&ac->held, &m);
  release_held(rt);
}

/* ---- Progress ---- */

static void on_control(struct ft_runtime *rt) {
  rt->ctrl_req = MPI_REQUEST_NULL;
  ft_control_arrived(rt); /* may not return (rollback) */
  release_held(rt);
}

/* The request `who` names in progress(): 2 x index + 1 for its data. */
static MPI_Request *req_of(struct ft_ac *ac, size_t who) {
  struct ft_ac_req *r = &ac->reqs[who / 2];
  return who % 2 ? &r->data : &r->req;
}

/* A send's or a data part's request completed (found by a wait). */
static void req_done(struct ft_runtime *rt, size_t who) {
  struct ft_ac *ac = &rt->ac;
  struct ft_ac_req *r = &ac->reqs[who / 2];
  MPI_Request *q = req_of(ac, who);
  ft_pending_done(rt, *q);
  *q = MPI_REQUEST_NULL;
  if (r->state == FT_AC_SENT && r->req == MPI_REQUEST_NULL &&
      r->data == MPI_REQUEST_NULL)
    r->state = FT_AC_SEND_DONE;
  if (freed(r) && complete(r))
    forget_req(ac, r->handle);
}

/* Waits (block) or tests for one of: a control message, the oldest
 * arrival, a send's or a data part's completion; handles it. */
static void progress(struct ft_runtime *rt, int block) {
  struct ft_ac *ac = &rt->ac;
  release_held(rt);
  size_t n = 2 + 2 * ac->n_reqs;
  MPI_Request *all = malloc(n * sizeof *all);
  size_t *who = malloc(n * sizeof *who);
  if (!all || !who)
    ft_fatal("rank %d: out of memory in the any-call transport",
             rt->world_rank);
  all[0] = rt->ctrl_req;
  all[1] = ac->rx[ac->rx_head];
  n = 2;
  for (size_t w = 0; w < 2 * ac->n_reqs; w++)
    if (*req_of(ac, w) != MPI_REQUEST_NULL)
      who[n] = w, all[n++] = *req_of(ac, w);
  int index = MPI_UNDEFINED, flag = 1;
  MPI_Status st;
  if (block && rt->ctl.deadline)
    rt->ctl.deadline(rt);
  if (block)
    FT_PMPI(Waitany, (int)n, all, &index, &st);
  else
    FT_PMPI(Testany, (int)n, all, &index, &flag, &st);
  size_t i = index > 1 ? who[index] : 0;
  free(all);
  free(who);
  if (!flag || index == MPI_UNDEFINED)
    return;
  if (index == 0) {
    on_control(rt);
  } else if (index == 1) {
    ft_pending_done(rt, ac->rx[ac->rx_head]);
    ac->rx[ac->rx_head] = MPI_REQUEST_NULL;
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
    on_wire(rt, &st);
  } else {
    req_done(rt, i);
    ft_control_fate(rt);
  }
}

/* One test, as the application's MPI_Test costs (SMPI charges each test
 * call; a Testany over the control receive, the oldest arrival and the
 * sends made ring 4 times slower than the same replay under none): the
 * oldest arrival, and the control receive every FT_AC_TEST_POLL tests, as
 * p2p.c's tests poll it (a failure order reaches a rank looping on tests).
 * Each poll that finds nothing makes SMPI's next test dearer (smpi/test x
 * a count that only a successful test resets): without it, cg and ring
 * replay within 0.5% of none, with it 3.4% and 3.9% slower. */
enum { FT_AC_TEST_POLL = 16 };
static void poll_control(struct ft_runtime *rt) {
  ft_control_fate(rt); /* a look at the clock: a rank that failed stops */
  if (++rt->test_polls % FT_AC_TEST_POLL == 0 && ft_poll_control(rt))
    release_held(rt);
}

static void progress_test(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  MPI_Request old = ac->rx[ac->rx_head];
  MPI_Status st;
  int flag = 0;
  release_held(rt);
  FT_PMPI(Test, &ac->rx[ac->rx_head], &flag, &st);
  if (flag) {
    ft_pending_done(rt, old);
    ft_control_fate(rt); /* the test took time: a rank that failed in it
                            takes nothing (cli/anycall_bt_pcl) */
    on_wire(rt, &st);
  }
  poll_control(rt);
}

/* ---- The image ---- */

static void put64(unsigned char **p, int64_t v) {
  memcpy(*p, &v, sizeof v);
  *p += sizeof v;
}

static int64_t get64(const unsigned char **p, const unsigned char *end) {
  int64_t v = 0;
  if (end - *p < (ptrdiff_t)sizeof v)
    ft_fatal("any-call image: truncated transport region");
  memcpy(&v, *p, sizeof v);
  *p += sizeof v;
  return v;
}

enum { REQ_WORDS = 8 };

static void read_msgs(const unsigned char **p, const unsigned char *end,
                      struct ft_ac_msgs *l) {
  if (ft_ac_msgs_read(l, p, end))
    ft_fatal("any-call image: a truncated list of messages");
}

/* The transport's region: the call, the deferrals, the handles, the
 * arrived messages (not the queued ones: their senders send them again).
 * malloc'ed; its size in *size. */
static void *write_transport(const struct ft_ac *ac, size_t *size) {
  *size = 8 * (3 + REQ_WORDS * ac->n_reqs) + ft_ac_msgs_size(&ac->ready);
  unsigned char *b = malloc(*size), *p = b;
  if (!b)
    ft_fatal("out of memory for an any-call image");
  put64(&p, ac->call), put64(&p, ac->deferrals), put64(&p, (int64_t)ac->n_reqs);
  for (size_t i = 0; i < ac->n_reqs; i++) {
    const struct ft_ac_req *r = &ac->reqs[i];
    put64(&p, r->handle), put64(&p, r->state), put64(&p, r->peer);
    put64(&p, r->space), put64(&p, r->tag), put64(&p, (int64_t)r->bytes);
    put64(&p, r->order), put64(&p, (int64_t)r->got);
  }
  ft_ac_msgs_write(&ac->ready, &p);
  return b;
}

static void *write_channel(const struct ft_ac_msgs *kept, size_t *size) {
  *size = ft_ac_msgs_size(kept);
  unsigned char *b = malloc(*size), *p = b;
  if (!b)
    ft_fatal("out of memory for an any-call image");
  ft_ac_msgs_write(kept, &p);
  return b;
}

static void read_transport(struct ft_runtime *rt, const void *region,
                           size_t size) {
  struct ft_ac *ac = &rt->ac;
  const unsigned char *p = region, *end = p + size;
  ac->call = get64(&p, end);
  ac->deferrals = get64(&p, end);
  int64_t n = get64(&p, end);
  for (int64_t i = 0; i < n; i++) {
    int64_t h = get64(&p, end);
    struct ft_ac_req *r = add_req(rt, h);
    r->state = (int32_t)get64(&p, end), r->peer = (int32_t)get64(&p, end);
    r->space = (int32_t)get64(&p, end), r->tag = (int32_t)get64(&p, end);
    r->bytes = (uint64_t)get64(&p, end), r->order = get64(&p, end);
    r->got = (uint64_t)get64(&p, end);
  }
  read_msgs(&p, end, &ac->ready);
}

/* A checkpoint at a call (trace.c wrote its "safe CALL" cut). */
static void count_ckpt(struct ft_runtime *rt) {
  rt->ac.ckpts++;
  rt->ac.in_flight += rt->ac.ready.n;
}

/* A checkpoint asked for between a rollback to an image and its restore
 * would hold nothing of the image: the replay must not wait before its
 * first ft_snapshot (sim/ft_anycall.h). */
static void check_restored(const struct ft_runtime *rt) {
  if (rt->ac.restoring)
    ft_fatal("rank %d: the protocol checkpoints before the any-call "
             "transport is restored",
             rt->world_rank);
}

/* CHECKPOINT (the driver's checkpoint hook): the application's regions
 * and the transport's, in the call the rank is in. */
static void ac_checkpoint(struct ft_runtime *rt, int wave, int64_t clock,
                          struct ft_image_region *regions, size_t n) {
  (void)clock;
  check_restored(rt);
  size_t size;
  void *t = write_transport(&rt->ac, &size);
  regions[n++] =
      (struct ft_image_region){.id = REGION_TRANSPORT, .ptr = t, .bytes = size};
  count_ckpt(rt);
  ft_checkpoint_write(rt, wave, rt->ac.call, regions, n);
  free(t);
}

static void capture_free(struct ft_ac_capture *c) {
  free(c->bytes);
  free(c->regions);
  *c = (struct ft_ac_capture){0};
}

/* CAPTURE: a copy of the application's regions and the transport's now. */
static void capture(struct ft_runtime *rt, int wave, int64_t index) {
  struct ft_ac_capture *c = &rt->ac.captured;
  struct ft_image_region regions[FT_MAX_REGIONS + 1];
  size_t n = ft_checkpoint_regions(rt, regions), tsize, size = 0;
  void *t = write_transport(&rt->ac, &tsize);
  regions[n++] = (struct ft_image_region){
      .id = REGION_TRANSPORT, .ptr = t, .bytes = tsize};
  capture_free(c);
  for (size_t i = 0; i < n; i++)
    size += regions[i].bytes;
  c->bytes = malloc(size + 1);
  c->regions = malloc((n + 1) * sizeof *c->regions);
  if (!c->bytes || !c->regions)
    ft_fatal("rank %d: out of memory capturing its state", rt->world_rank);
  ft_image_regions_copy(regions, n, c->bytes, c->regions);
  free(t);
  c->n = n;
  c->size = size;
  c->wave = wave;
  c->index = index;
  count_ckpt(rt);
}

static int kept(const struct ft_ac_msg *m, const struct ft_update *u) {
  for (size_t i = 0; i < u->n_keep; i++)
    if (u->keep[i].peer == m->peer && m->number >= u->keep[i].first &&
        m->number <= u->keep[i].last)
      return 1;
  return 0;
}

/* STORE: the captured state and the kept records make the image. */
static void store(struct ft_runtime *rt, const struct ft_update *u) {
  struct ft_ac *ac = &rt->ac;
  struct ft_ac_capture *c = &ac->captured;
  if (c->wave != u->wave)
    ft_fatal("rank %d: the protocol stores wave %d, captured: wave %d",
             rt->world_rank, u->wave, c->wave);
  ac->kept.n = 0;
  for (size_t i = 0; i < ac->records.n; i++)
    if (kept(&ac->records.v[i], u))
      push_msg(&ac->kept, &ac->records.v[i]);
  ac->records.n = 0;
  ac->kept_msgs += ac->kept.n;
  struct ft_image_region *regions = malloc((c->n + 1) * sizeof *regions);
  if (!regions)
    ft_fatal("rank %d: out of memory for its image", rt->world_rank);
  memcpy(regions, c->regions, c->n * sizeof *regions);
  size_t size;
  void *ch = write_channel(&ac->kept, &size);
  regions[c->n] =
      (struct ft_image_region){.id = REGION_CHANNEL, .ptr = ch, .bytes = size};
  ft_checkpoint_write(rt, u->wave, c->index, regions, c->n + 1);
  free(ch);
  free(regions);
  capture_free(c);
}

/* FLUSH: deferred sends leave, queued messages become receivable. */
static void flush(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  flush_deferred(rt);
  for (size_t i = 0; i < ac->queued.n; i++)
    admit(rt, &ac->queued.v[i]);
  ac->queued.n = 0;
  match_all(rt);
}

/* Core messages to application ranks are counted: the cc of the
 * application messages that follow. */
static void count_sends(struct ft_runtime *rt, const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++)
    if (u->sends[i].to >= 0 && u->sends[i].to < rt->ac.ranks)
      rt->ac.ctl_sent[u->sends[i].to]++;
}

static void ac_update(struct ft_runtime *rt, const struct ft_update *u,
                      enum ft_update_stage stage) {
  if (stage == FT_STAGE_SENT &&
      (u->flags & (FT_UPDATE_CAPTURE | FT_UPDATE_STORE)))
    check_restored(rt);
  if (stage == FT_STAGE_SENT) {
    count_sends(rt, u);
    if (u->flags & FT_UPDATE_CAPTURE)
      capture(rt, u->wave, u->index);
    if (u->flags & FT_UPDATE_STORE)
      store(rt, u);
  }
  if (stage == FT_STAGE_END && (u->flags & FT_UPDATE_FLUSH) && rt->ac.on)
    flush(rt);
}

static void ac_on_core_message(struct ft_runtime *rt, const struct ft_wire *m) {
  if (rt->ac.family->on_core_message)
    rt->ac.family->on_core_message(rt, m);
  if (m->from >= 0 && m->from < rt->ac.ranks)
    rt->ac.ctl_got[m->from]++;
}

/* ---- Rollback and restore ---- */

static void forget_life(struct ft_ac *ac) {
  ac->n_reqs = 0;
  ac->ready.n = ac->queued.n = ac->held.n = ac->records.n = 0;
  ac->kept.n = 0;
  ac->call = 0;
  ac->in_call = ac->resumed = 0;
  ac->deferrals = 0;
  capture_free(&ac->captured);
  ac->footprint = 0;
}

/* The wire's receives of an abandoned incarnation are the settle's. */
static void forget_wire(struct ft_ac *ac) {
  for (int k = 0; k < FT_AC_RX; k++)
    ac->rx[k] = MPI_REQUEST_NULL;
  ac->rx_head = 0;
  ac->wire = MPI_COMM_NULL;
  ac->data = MPI_COMM_NULL;
  ac->wire_inc = -1;
}

/* Before READY: nothing of the abandoned life is kept; its requests are
 * the settle's (settle.c). */
static void ac_rollback(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  if (ac->family->rollback)
    ac->family->rollback(rt);
  forget_life(ac);
  forget_wire(ac);
  ac->restoring = rt->rollback_wave > 0;
  memset(ac->ctl_sent, 0, (size_t)ac->ranks * sizeof *ac->ctl_sent);
  memset(ac->ctl_got, 0, (size_t)ac->ranks * sizeof *ac->ctl_got);
}

/* Channel state restored as arrived, after the image's arrived messages,
 * traced as "restored" (its message's number in the trace of the wave). */
static void restore_channel(struct ft_runtime *rt,
                            const struct ft_local_image *img) {
  const void *ch = NULL;
  size_t bytes = 0;
  if (ft_image_find(img->bytes, img->size, REGION_CHANNEL, &ch, &bytes) != 0)
    return;
  struct ft_ac_msgs kept = {0};
  const unsigned char *p = ch;
  read_msgs(&p, p + bytes, &kept);
  for (size_t i = 0; i < kept.n; i++) {
    struct ft_ac_msg *m = &kept.v[i];
    if (ft_trace_on(rt))
      ft_trace_line_(rt, 0, "restored", "%d %c %d %d %lld", m->space / 2,
                     m->space % 2 ? 'c' : 'p', m->peer, m->tag,
                     (long long)m->seq);
    push_msg(&rt->ac.ready, m);
  }
  ft_ac_msgs_free(&kept);
}

/* The first safe point after a restart (checkpoint.c): the transport's
 * state back; sent sends are complete, deferred ones go to the core again
 * (APP_SEND) before anything new; posted receives match the restored
 * messages. The rank is in the image's call. */
static void ac_restored(struct ft_runtime *rt,
                        const struct ft_local_image *img) {
  struct ft_ac *ac = &rt->ac;
  const void *t = NULL;
  size_t bytes = 0;
  if (ft_image_find(img->bytes, img->size, REGION_TRANSPORT, &t, &bytes) != 0)
    ft_fatal("rank %d: its image of wave %d holds no any-call transport",
             rt->world_rank, img->wave);
  forget_life(ac);
  ac->restoring = 0;
  read_transport(rt, t, bytes);
  restore_channel(rt, img);
  ac->in_call = 1;
  ac->resumed = 1;
  rt->safe_points = ac->call;
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (ac->reqs[i].state == FT_AC_SENT)
      ac->reqs[i].state = FT_AC_SEND_DONE;
  for (size_t i = ac->n_reqs; i-- > 0;)
    if (freed(&ac->reqs[i]) && complete(&ac->reqs[i]))
      forget_req(ac, ac->reqs[i].handle);
  int64_t n = ac->deferrals;
  for (int64_t k = 0; k < n; k++)
    for (size_t i = 0; i < ac->n_reqs; i++)
      if (ac->reqs[i].state == FT_AC_DEFERRED && ac->reqs[i].order == k) {
        send_or_defer(rt, &ac->reqs[i]);
        break;
      }
  match_all(rt);
  for (size_t i = 0; i < ac->n_reqs; i++) /* in posting order */
    if (ac->reqs[i].state == FT_AC_POSTED)
      ft_ac_data_recv(rt, &ac->reqs[i]);
  ft_deliver_deferred(rt); /* kept by the recovery until now */
}

static void ac_finish(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  if (ac->family->finish)
    ac->family->finish(rt);
  for (int k = 0; k < FT_AC_RX; k++)
    if (ac->rx[k] != MPI_REQUEST_NULL) {
      ft_pending_done(rt, ac->rx[k]);
      FT_PMPI(Cancel, &ac->rx[k]);
      FT_PMPI(Wait, &ac->rx[k], MPI_STATUS_IGNORE);
    }
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (ac->reqs[i].req != MPI_REQUEST_NULL) {
      ft_pending_done(rt, ac->reqs[i].req);
      FT_PMPI(Wait, &ac->reqs[i].req, MPI_STATUS_IGNORE);
    }
  ft_ac_data_finish(rt);
}

static void ac_figures(const struct ft_runtime *rt,
                       struct ft_family_figures *f) {
  if (rt->ac.family->figures)
    rt->ac.family->figures(rt, f);
  f->recorded += rt->ac.kept_msgs;
  f->ac_ckpts += rt->ac.ckpts;
  f->ac_in_flight += rt->ac.in_flight;
  f->ac_deferred += rt->ac.deferred;
  f->ac_queued += rt->ac.queued_msgs;
}

/* ---- The API (sim/ft_anycall.h) ---- */

static void install(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  ac->family = rt->driver;
  ac->driver = *rt->driver;
  ac->driver.update = ac_update;
  ac->driver.checkpoint = ac_checkpoint;
  ac->driver.restored = ac_restored;
  ac->driver.record = NULL;
  ac->driver.rollback = ac_rollback;
  ac->driver.on_core_message = ac_on_core_message;
  ac->driver.finish = ac_finish;
  ac->driver.figures = ac_figures;
  rt->driver = &ac->driver;
  ac->ranks = rt->app_ranks;
  ac->ctl_sent = calloc((size_t)ac->ranks, sizeof *ac->ctl_sent);
  ac->ctl_got = calloc((size_t)ac->ranks, sizeof *ac->ctl_got);
  if (!ac->ctl_sent || !ac->ctl_got)
    ft_fatal("rank %d: out of memory for the any-call transport",
             rt->world_rank);
  forget_life(ac);
  forget_wire(ac);
}

static void check_encodable(struct ft_runtime *rt, uint32_t comms,
                            int32_t max_tag) {
  int *ub = NULL, flag = 0;
  FT_PMPI(Comm_get_attr, MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (!flag || !ub || !ft_ac_wire_fits(max_tag < 0 ? 0 : max_tag, comms, *ub))
    ft_fatal("rank %d: the any-call transport cannot encode tags up to %d "
             "on %u communicators in MPI_TAG_UB %d (replay with --set "
             "any_call=0)",
             rt->world_rank, (int)max_tag, comms, ub ? *ub : 0);
  rt->ac.nspace = (int32_t)(2 * comms);
}

int ft_ac_mode(void) {
  struct ft_runtime *rt = ft_runtime();
  if (!rt->ac.core_mode)
    return FT_AC_OFF;
  if (ft_driver_restarts_alone(rt->driver))
    return FT_AC_ALONE;
  return rt->driver->ac_repost ? FT_AC_REPOST : FT_AC_TRANSPORT;
}

void ft_ac_requests_restored(MPI_Request *handles, size_t n, void *rbuf) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_ac_mode() != FT_AC_ALONE || !rt->driver->requests_restored)
    ft_fatal("rank %d: ft_ac_requests_restored outside a replay that "
             "checkpoints each rank alone at any call",
             rt->world_rank);
  rt->driver->requests_restored(rt, handles, n, rbuf);
}

int ft_ac_start(void *sbuf, void *rbuf, uint64_t max_bytes, uint32_t comms,
                int32_t max_tag) {
  struct ft_runtime *rt = ft_runtime();
  struct ft_ac *ac = &rt->ac;
  if (ft_ac_mode() != FT_AC_TRANSPORT)
    return 0;
  if (!ac->family)
    install(rt);
  check_encodable(rt, comms, max_tag);
  if (max_bytes > (uint64_t)INT32_MAX)
    ft_fatal("rank %d: a message of %llu bytes is beyond the any-call "
             "transport (2 GiB)",
             rt->world_rank, (unsigned long long)max_bytes);
  ac->sbuf = sbuf;
  ac->rbuf = rbuf;
  ac->max_bytes = max_bytes;
  ac->on = 1;
  int fresh = ac->wire_inc != rt->incarnation;
  if (fresh) {
    ac->wire = ft_comm_named(rt, 0)->p2p;
    ac->wire_inc = rt->incarnation;
  }
  ft_ac_data_start(rt, fresh);
  for (int k = 0; k < FT_AC_RX; k++)
    if (ac->rx[k] == MPI_REQUEST_NULL)
      post_rx(rt, (ac->rx_head + k) % FT_AC_RX);
  return 1;
}

void ft_ac_call(void) {
  struct ft_runtime *rt = ft_runtime();
  struct ft_ac *ac = &rt->ac;
  if (ac->resumed) {
    ac->resumed = 0;
    return;
  }
  if (rt->ctl.deadline) /* a rank that never blocks still starts waves */
    rt->ctl.deadline(rt);
  ac->in_call = 1;
  ac->call++;
  rt->safe_points = ac->call;
  struct ft_event e = {
      .type = FT_EVENT_CALL, .peer = -1, .tag = -1, .index = ac->call};
  ft_core_step(rt, &e);
}

void ft_ac_call_end(void) {
  struct ft_runtime *rt = ft_runtime();
  struct ft_ac *ac = &rt->ac;
  ac->resumed = 0;
  ac->in_call = 0;
  struct ft_event e = {
      .type = FT_EVENT_CALL_END, .peer = -1, .tag = -1, .index = ac->call};
  ft_core_step(rt, &e);
}

static void check_peer(struct ft_runtime *rt, int peer, uint64_t bytes) {
  if (peer < 0 || peer >= rt->ac.ranks || bytes > rt->ac.max_bytes)
    ft_fatal("rank %d: any-call message with rank %d of %d, %llu bytes (at "
             "most %llu)",
             rt->world_rank, peer, rt->ac.ranks, (unsigned long long)bytes,
             (unsigned long long)rt->ac.max_bytes);
}

void ft_ac_isend(int64_t handle, int dest, uint32_t comm, int coll, int32_t tag,
                 uint64_t bytes) {
  struct ft_runtime *rt = ft_runtime();
  check_peer(rt, dest, bytes);
  struct ft_ac_req *r = add_req(rt, handle);
  r->peer = dest;
  r->space = (int32_t)(2 * comm + (coll != 0));
  r->tag = tag;
  r->bytes = bytes;
  send_or_defer(rt, r);
}

void ft_ac_irecv(int64_t handle, int source, uint32_t comm, int coll,
                 int32_t tag, uint64_t bytes) {
  struct ft_runtime *rt = ft_runtime();
  check_peer(rt, source, bytes);
  struct ft_ac_req *r = add_req(rt, handle);
  r->state = FT_AC_POSTED;
  r->peer = source;
  r->space = (int32_t)(2 * comm + (coll != 0));
  r->tag = tag;
  r->bytes = bytes;
  /* Its data's receive now, unless the message it takes is one restored
   * from an image (no data): the first receivable of its envelope. */
  ptrdiff_t k = ft_ac_msgs_find(&rt->ac.ready, source, r->space, tag);
  if (k < 0 || rt->ac.ready.v[k].data)
    ft_ac_data_recv(rt, r);
  ft_protocol_event(rt, FT_EVENT_APP_RECV, source, tag, bytes);
  match_all(rt);
}

static int all_complete(struct ft_runtime *rt, size_t n,
                        const int64_t *handles) {
  for (size_t i = 0; i < n; i++) {
    const struct ft_ac_req *r = find_req(&rt->ac, handles[i]);
    if (!r)
      ft_fatal("rank %d: any-call wait for handle %lld, which is not pending",
               rt->world_rank, (long long)handles[i]);
    if (!complete(r))
      return 0;
  }
  return 1;
}

void ft_ac_waitall(size_t n, const int64_t *handles,
                   struct ft_ac_status *statuses) {
  struct ft_runtime *rt = ft_runtime();
  while (!all_complete(rt, n, handles))
    progress(rt, 1);
  for (size_t i = 0; i < n; i++) {
    const struct ft_ac_req *r = find_req(&rt->ac, handles[i]);
    if (statuses)
      statuses[i] = (struct ft_ac_status){
          .source = r->peer, .tag = r->tag, .bytes = r->got};
    forget_req(&rt->ac, handles[i]);
  }
}

/* One test of a request whose data is under way: of that data (SMPI
 * charges the test as the replay's own). */
static void test_data(struct ft_runtime *rt, struct ft_ac_req *r) {
  struct ft_ac *ac = &rt->ac;
  MPI_Request old = r->data;
  int flag = 0;
  FT_PMPI(Test, &r->data, &flag, MPI_STATUS_IGNORE);
  r->data = old;
  if (flag)
    req_done(rt, 2 * (size_t)(r - ac->reqs) + 1);
  poll_control(rt);
}

int ft_ac_test(int64_t handle) {
  struct ft_runtime *rt = ft_runtime();
  struct ft_ac_req *r = find_req(&rt->ac, handle);
  if (complete(r)) {
    ft_ac_data_test_complete(rt);
    poll_control(rt);
  } else if (r && r->data != MPI_REQUEST_NULL)
    test_data(rt, r);
  else
    progress_test(rt);
  return complete(find_req(&rt->ac, handle));
}

static int probe_once(struct ft_ac *ac, int source, int32_t space, int32_t tag,
                      struct ft_ac_status *st) {
  ptrdiff_t i = ft_ac_msgs_find(&ac->ready, source, space, tag);
  if (i < 0)
    return 0;
  if (st)
    *st = (struct ft_ac_status){.source = ac->ready.v[i].peer,
                                .tag = ac->ready.v[i].tag,
                                .bytes = ac->ready.v[i].bytes};
  return 1;
}

int ft_ac_probe(int source, uint32_t comm, int32_t tag, int blocking,
                struct ft_ac_status *st) {
  struct ft_runtime *rt = ft_runtime();
  int32_t space = (int32_t)(2 * comm);
  progress_test(rt);
  while (!probe_once(&rt->ac, source, space, tag, st)) {
    if (!blocking)
      return 0;
    progress(rt, 1);
  }
  return 1;
}

void ft_ac_cancel(int64_t handle) {
  struct ft_runtime *rt = ft_runtime();
  struct ft_ac_req *r = find_req(&rt->ac, handle);
  if (r && r->state == FT_AC_POSTED) {
    ft_ac_data_cancel(rt, r);
    forget_req(&rt->ac, handle);
  }
}

void ft_ac_free(int64_t handle) {
  struct ft_ac *ac = &ft_runtime()->ac;
  struct ft_ac_req *r = find_req(ac, handle);
  if (!r)
    return;
  if (complete(r)) {
    forget_req(ac, handle);
    return;
  }
  int64_t next = INT64_MIN; /* a handle no freed request has */
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (freed(&ac->reqs[i]) && ac->reqs[i].handle >= next)
      next = ac->reqs[i].handle + 1;
  r->handle = next;
}

void ft_ac_footprint(uint64_t bytes) {
  ft_runtime()->ac.footprint = (double)bytes;
}
