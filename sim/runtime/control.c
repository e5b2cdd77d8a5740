/* The control plane and the interruptible waits (see control.h). */
#include "control.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

struct ft_wire ft_wire_of_control(const struct ft_control *c, int inc) {
  return (struct ft_wire){.kind = (int32_t)c->kind,
                          .to = c->to,
                          .wave = c->wave,
                          .inc = inc,
                          .value = c->value};
}

struct ft_event ft_event_of_wire(const struct ft_wire *m) {
  return (struct ft_event){.type = FT_EVENT_CONTROL,
                           .peer = m->from,
                           .tag = -1,
                           .control = {.kind = m->kind,
                                       .from = m->from,
                                       .to = m->to,
                                       .wave = m->wave,
                                       .value = m->value}};
}

/* Up the tree the messages are empty; down it they carry the release's
 * time (a double). */
static void line_send(int to, const double *t) {
  FT_PMPI(Send, t, t ? (int)sizeof *t : 0, MPI_BYTE, to, FT_TAG_START_LINE,
          MPI_COMM_WORLD);
}

static void line_recv(int from, double *t) {
  FT_PMPI(Recv, t, t ? (int)sizeof *t : 0, MPI_BYTE, from, FT_TAG_START_LINE,
          MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

double ft_control_start_line(void) {
  int v, size, mask = 1;
  double t = 0;
  FT_PMPI(Comm_rank, MPI_COMM_WORLD, &v);
  FT_PMPI(Comm_size, MPI_COMM_WORLD, &size);
  for (; mask < size && !(v & mask); mask <<= 1) /* gather up */
    if (v + mask < size)
      line_recv(v + mask, NULL);
  if (v != 0) { /* mask is v's lowest bit: the parent's */
    line_send(v - mask, NULL);
    line_recv(v - mask, &t);
  } else {
    t = ft_backend_now();
  }
  for (mask >>= 1; mask > 0; mask >>= 1) /* release down */
    if (v + mask < size)
      line_send(v + mask, &t);
  return t;
}

static void post_control(struct ft_runtime *rt, MPI_Request *req, int slot) {
  struct ft_wire_msg *buf = &rt->ctl.window[slot];
  FT_PMPI(Irecv, buf, (int)sizeof *buf, MPI_BYTE, MPI_ANY_SOURCE,
          FT_TAG_CONTROL, rt->control, req);
}

/* How many receives to keep posted: control_window, at most one per other
 * rank; one in a run without control traffic to speak of. */
static int window_of(const struct ft_runtime *rt) {
  int w = rt->options.control_window;
  if (!rt->recovering_protocol || w <= 1 || rt->world_size <= 2)
    return 1;
  if (w > rt->world_size - 1)
    w = rt->world_size - 1;
  return w < FT_CONTROL_WINDOW ? w : FT_CONTROL_WINDOW;
}

void ft_control_start(struct ft_runtime *rt) {
  struct ft_control_state *cs = &rt->ctl;
  if (rt->ctrl_req == MPI_REQUEST_NULL) {
    if (cs->n_ahead > 0) { /* the next one moves up; its slot follows */
      rt->ctrl_req = cs->ahead[0];
      memmove(cs->ahead, cs->ahead + 1,
              (size_t)(cs->n_ahead - 1) * sizeof *cs->ahead);
      cs->n_ahead--;
      cs->head = (cs->head + 1) % FT_CONTROL_WINDOW;
    } else {
      post_control(rt, &rt->ctrl_req, cs->head);
    }
  }
  for (int w = window_of(rt); cs->n_ahead + 1 < w; cs->n_ahead++)
    post_control(rt, &cs->ahead[cs->n_ahead],
                 (cs->head + 1 + cs->n_ahead) % FT_CONTROL_WINDOW);
}

/* The generic kinds' names (enum ft_wire_kind, without FT_WIRE_). */
static const char *const generic_names[FT_WIRE_GENERIC_END - FT_WIRE_STORE] = {
    [FT_WIRE_STORE - FT_WIRE_STORE] = "STORE",
    [FT_WIRE_STORED - FT_WIRE_STORE] = "STORED",
    [FT_WIRE_COMMIT - FT_WIRE_STORE] = "COMMIT",
    [FT_WIRE_FAIL - FT_WIRE_STORE] = "FAIL",
    [FT_WIRE_ROLLBACK - FT_WIRE_STORE] = "ROLLBACK",
    [FT_WIRE_READY - FT_WIRE_STORE] = "READY",
    [FT_WIRE_GO - FT_WIRE_STORE] = "GO",
    [FT_WIRE_DONE - FT_WIRE_STORE] = "DONE",
    [FT_WIRE_FINISH - FT_WIRE_STORE] = "FINISH",
    [FT_WIRE_IMAGE_REQUEST - FT_WIRE_STORE] = "IMAGE_REQUEST",
    [FT_WIRE_IMAGE - FT_WIRE_STORE] = "IMAGE",
    [FT_WIRE_SHUTDOWN - FT_WIRE_STORE] = "SHUTDOWN",
    [FT_WIRE_COMMIT_RANK - FT_WIRE_STORE] = "COMMIT_RANK",
    [FT_WIRE_GATE_ENTER - FT_WIRE_STORE] = "GATE_ENTER",
    [FT_WIRE_GATE_DECISION - FT_WIRE_STORE] = "GATE_DECISION",
    [FT_WIRE_FEED - FT_WIRE_STORE] = "FEED",
    [FT_WIRE_FED - FT_WIRE_STORE] = "FED",
    [FT_WIRE_SETTLED - FT_WIRE_STORE] = "SETTLED",
    [FT_WIRE_STOPPED - FT_WIRE_STORE] = "STOPPED",
    [FT_WIRE_BELL - FT_WIRE_STORE] = "BELL",
};

const char *ft_wire_name(const struct ft_runtime *rt, int kind) {
  if (kind < FT_WIRE_STORE)
    return rt->protocol ? ft_control_name(rt->protocol->family, kind) : NULL;
  if (kind < FT_WIRE_GENERIC_END)
    return generic_names[kind - FT_WIRE_STORE];
  if (kind >= FT_WIRE_FAMILY_BASE && rt->driver && rt->driver->wire_name)
    return rt->driver->wire_name(kind);
  return NULL;
}

const char *ft_wire_label(const struct ft_runtime *rt, int kind, char *buf,
                          size_t size) {
  const char *name = ft_wire_name(rt, kind);
  if (name)
    snprintf(buf, size, "%s", name);
  else
    snprintf(buf, size, "unknown kind %d", kind);
  return buf;
}

/* FTSIM_TRACE_CONTROL=1 prints every control message on stderr, its kind
 * by name (ft_wire_name). */
static void trace_control(struct ft_runtime *rt, const char *dir, int peer,
                          const struct ft_wire *m) {
  if (rt->ctl.trace == 0)
    rt->ctl.trace = getenv("FTSIM_TRACE_CONTROL") != NULL ? 2 : 1;
  if (rt->ctl.trace != 2)
    return;
  char kind[64];
  fprintf(stderr, "[%.6f] %d %s %d: kind %s wave %d inc %d value %lld\n",
          ft_backend_now(), rt->world_rank, dir, peer,
          ft_wire_label(rt, m->kind, kind, sizeof kind), m->wave, m->inc,
          (long long)m->value);
}

void ft_control_trace(struct ft_runtime *rt, const char *dir, int peer,
                      const struct ft_wire *m) {
  trace_control(rt, dir, peer, m);
}

/* Per-peer counts of control messages, for ft_control_drain. */
static int64_t *counts(struct ft_runtime *rt) {
  if (!rt->ctrl_counts) {
    rt->ctrl_counts = calloc(2 * (size_t)rt->world_size, sizeof(int64_t));
    if (!rt->ctrl_counts)
      ft_fatal("out of memory for control message counts");
  }
  return rt->ctrl_counts;
}

/* A control message of this rank on its way (ft_control_send), with its
 * buffer: a synchronous send's transfer starts when the receive matches,
 * and the bytes are read then. */
struct ft_sent {
  MPI_Request req;
  struct ft_wire *m;
};

/* The oldest control message of this rank still on its way, or NULL. */
static struct ft_sent *oldest_send(struct ft_control_state *cs) {
  return cs->first_send < cs->n_sends ? &cs->sends[cs->first_send] : NULL;
}

/* The oldest send completed: its buffer is freed. */
static void pop_send(struct ft_control_state *cs) {
  free(cs->sends[cs->first_send].m);
  if (++cs->first_send == cs->n_sends)
    cs->first_send = cs->n_sends = 0;
}

/* Keeps a send; the array is compacted when more than half of it is
 * done. */
static void push_send(struct ft_control_state *cs, MPI_Request req,
                      struct ft_wire *m) {
  if (cs->first_send > 0 && cs->first_send >= cs->n_sends / 2) {
    memmove(cs->sends, cs->sends + cs->first_send,
            (cs->n_sends - cs->first_send) * sizeof *cs->sends);
    cs->n_sends -= cs->first_send;
    cs->first_send = 0;
  }
  cs->sends = ft_reserve(cs->sends, cs->n_sends + 1, &cs->cap_sends,
                         sizeof *cs->sends, "control sends");
  cs->sends[cs->n_sends++] = (struct ft_sent){req, m};
}

/* After the drain: every message sent has been taken, so each wait returns
 * at once. */
static void finish_sends(struct ft_control_state *cs) {
  while (oldest_send(cs)) {
    FT_PMPI(Wait, &oldest_send(cs)->req, MPI_STATUS_IGNORE);
    pop_send(cs);
  }
  free(cs->sends);
  cs->sends = NULL;
  cs->cap_sends = 0;
}

/* ---- Latency-only messages (ft_control_courier_start) ---- */

/* Whether world rank `rank` takes its control messages through its
 * courier: every application rank, and the service ranks the family
 * names (driver.h, courier_service); the other services' waits take MPI
 * messages. */
static int has_courier(const struct ft_runtime *rt, int rank) {
  return rank < rt->app_ranks || (rt->driver && rt->driver->courier_service &&
                                  rt->driver->courier_service(rt, rank));
}

void ft_control_courier_start(struct ft_runtime *rt) {
  struct ft_control_state *cs = &rt->ctl;
  if (!rt->options.control_timer || !rt->recovering_protocol ||
      rt->world_size == rt->app_ranks || !ft_backend_simulated())
    return;
  struct ft_wire bell = {.kind = FT_WIRE_BELL, .from = -1, .to = -1};
  if (has_courier(rt, rt->world_rank))
    cs->courier = ft_backend_courier_start(rt->control, rt->world_rank,
                                           FT_TAG_CONTROL, &bell, sizeof bell);
  size_t n = (size_t)rt->world_size;
  cs->peers = calloc(n, sizeof *cs->peers);
  cs->last_due = calloc(n, sizeof *cs->last_due);
  cs->route_lat = calloc(n, sizeof *cs->route_lat);
  cs->route_bw = malloc(n * sizeof *cs->route_bw);
  if (!cs->peers || !cs->last_due || !cs->route_lat || !cs->route_bw)
    ft_fatal("out of memory for latency-only control messages");
  for (size_t i = 0; i < n; i++)
    cs->route_bw[i] = -1; /* not asked yet */
  cs->charges = ft_backend_charges_computation();
}

/* When a message this rank posts now leaves it (courier_send). */
static double departure(const struct ft_control_state *cs) {
  return cs->charges ? ft_backend_now_charged() : ft_backend_now();
}

/* The network's time for `bytes` from this rank to world rank `dest`
 * (ft_backend_message_time), the route asked of SimGrid once per peer:
 * two route computations per message before (get_global_route, 2.9% of
 * the samples of v2 on 400 ranks, whose events to the logger have a size
 * per shipment). */
static double message_time(struct ft_control_state *cs, int dest,
                           size_t bytes) {
  if (cs->route_bw[dest] < 0)
    ft_backend_route_cost(dest, &cs->route_lat[dest], &cs->route_bw[dest]);
  double bw = cs->route_bw[dest];
  return cs->route_lat[dest] + (bw > 0 ? (double)bytes / bw : 0);
}

/* Posts `bytes` of `msg` to application rank `dest`'s courier, due when
 * the network would deliver it, never before this rank's previous message
 * to `dest` (MPI's non-overtaking order). */
static void courier_send(struct ft_runtime *rt, int dest, const void *msg,
                         size_t bytes, int quiet) {
  struct ft_control_state *cs = &rt->ctl;
  if (!cs->peers[dest] && !(cs->peers[dest] = ft_backend_courier_of(dest)))
    ft_fatal("rank %d: rank %d has no courier for control messages",
             rt->world_rank, dest);
  /* Due from when it leaves: after the computation measured since this
   * rank's last MPI call, which SMPI charges only at its next one (a
   * shipment to an event logger after 6 ms of lu's computation reached it
   * 6 ms early, its acknowledgement waiting in MPI for the rank). The
   * same clock without measured computation, read without the two system
   * calls of the timer's stop and restart (departure): 1.28 million of
   * them in two waves of 2p(p - 1) markers on 400 ranks. */
  double due = departure(cs) + message_time(cs, dest, bytes);
  if (due < cs->last_due[dest])
    due = cs->last_due[dest];
  cs->last_due[dest] = due;
  ft_backend_courier_post(cs->peers[dest], due, msg, bytes, quiet);
}

/* Every control message to an application rank, or to a service rank
 * with a courier, goes to that courier (from a service too), when the run
 * has them. */
static int by_courier(const struct ft_runtime *rt, int dest) {
  return rt->ctl.peers && has_courier(rt, dest);
}

static void take_message(struct ft_runtime *rt, const struct ft_wire_msg *msg,
                         struct ft_wire *m);

/* Takes this rank's first latency-only message due, if any, into *m:
 * returns 1. */
static int take_due(struct ft_runtime *rt, struct ft_wire *m) {
  struct ft_wire_msg msg;
  if (!rt->ctl.courier ||
      !ft_backend_courier_take(rt->ctl.courier, &msg, sizeof msg))
    return 0;
  take_message(rt, &msg, m);
  return 1;
}

int ft_control_take_due(struct ft_runtime *rt, struct ft_wire *m) {
  return take_due(rt, m);
}

double ft_control_next_due(const struct ft_runtime *rt) {
  return ft_backend_courier_next_due(rt->ctl.courier);
}

struct ft_wire ft_control_next(struct ft_runtime *rt) {
  struct ft_wire m;
  for (;;) {
    if (take_due(rt, &m))
      return m;
    if (rt->ctl.courier) { /* every message comes through it */
      ft_backend_courier_wait(rt->ctl.courier, 0);
      continue;
    }
    if (rt->ctrl_req == MPI_REQUEST_NULL)
      ft_control_start(rt);
    FT_PMPI(Wait, &rt->ctrl_req, MPI_STATUS_IGNORE);
    m = ft_control_take(rt);
    if (m.kind != FT_WIRE_BELL)
      return m;
  }
}

/* After the drain (ft_settle_control): the courier stops, and its bells
 * not taken yet are received. */
static void stop_courier(struct ft_runtime *rt) {
  struct ft_control_state *cs = &rt->ctl;
  if (!cs->peers)
    return;
  uint64_t bells = ft_backend_courier_stop(cs->courier);
  cs->courier = NULL;
  while (cs->bells_taken < bells && rt->ctrl_req != MPI_REQUEST_NULL) {
    FT_PMPI(Wait, &rt->ctrl_req, MPI_STATUS_IGNORE);
    struct ft_wire m = ft_control_take(rt); /* the run is over: dropped */
    ft_control_discard(rt, &m);
  }
  free(cs->peers);
  free(cs->last_due);
  free(cs->route_lat);
  free(cs->route_bw);
  cs->peers = NULL;
  cs->last_due = cs->route_lat = cs->route_bw = NULL;
}

void ft_control_send(struct ft_runtime *rt, int dest, const struct ft_wire *m) {
  ft_control_send_quiet(rt, dest, m, 0);
}

void ft_control_send_quiet(struct ft_runtime *rt, int dest,
                           const struct ft_wire *m, int quiet) {
  trace_control(rt, ">", dest, m);
  struct ft_wire copy = *m;
  copy.from = rt->world_rank; /* the caller sets the incarnation */
  copy.carried = 0;
  counts(rt)[dest]++;
  if (by_courier(rt, dest)) {
    courier_send(rt, dest, &copy, sizeof copy, quiet);
    return;
  }
  /* A service's waits go through the backend's waiter: its sends are
   * standard ones. Without couriers an application rank's messages to a
   * service are too (it always receives, so a standard send is taken at
   * once: the synchronous send's completion cost one more wait, 10% more
   * CPU time for bt on 64 ranks when each shipment of events to a logger
   * was one). With couriers those shipments go through the logger's, and
   * what is left (STOREs, a wave's reports) waits for the service's one
   * posted receive, taken one after the other: as detached sends, a
   * wave's 2p of them lengthened SimGrid's list of detached
   * communications, scanned at every completion of the run (bt, 144 ranks
   * of grid5000: scans of 200 entries or more 14,339 against 2,107 without
   * a wave; 2,337 as synchronous sends, at the same simulated times). */
  if (rt->world_rank >= rt->app_ranks ||
      (dest >= rt->app_ranks && !rt->ctl.peers)) {
    FT_PMPI(Send, &copy, (int)sizeof copy, MPI_BYTE, dest, FT_TAG_CONTROL,
            rt->control);
    return;
  }
  struct ft_wire *buf = malloc(sizeof *buf); /* freed by pop_send */
  if (!buf)
    ft_fatal("out of memory for a control message");
  *buf = copy;
  MPI_Request req;
  FT_PMPI(Issend, buf, (int)sizeof *buf, MPI_BYTE, dest, FT_TAG_CONTROL,
          rt->control, &req);
  push_send(&rt->ctl, req, buf);
}

/* A payload send still on its way, with its buffer. */
struct ft_payload {
  MPI_Request req;
  void *data;
};

static void progress_payloads(struct ft_control_state *cs, int wait) {
  struct ft_payload *p = cs->payloads;
  size_t kept = 0;
  for (size_t i = 0; i < cs->n_payloads; i++) {
    int flag = 1;
    if (wait)
      FT_PMPI(Wait, &p[i].req, MPI_STATUS_IGNORE);
    else
      FT_PMPI(Test, &p[i].req, &flag, MPI_STATUS_IGNORE);
    if (flag)
      free(p[i].data);
    else
      p[kept++] = p[i];
  }
  cs->n_payloads = kept;
}

/* A payload carried in its control message: one send. */
static void send_carried(struct ft_runtime *rt, int dest,
                         const struct ft_wire *m, void *data, size_t bytes) {
  trace_control(rt, ">", dest, m);
  struct ft_wire_msg msg;
  msg.w = *m;
  msg.w.from = rt->world_rank;
  msg.w.carried = (int32_t)bytes + 1;
  memcpy(msg.data, data, bytes);
  free(data);
  counts(rt)[dest]++;
  if (by_courier(rt, dest)) {
    courier_send(rt, dest, &msg, sizeof msg.w + bytes, 0);
    return;
  }
  FT_PMPI(Send, &msg, (int)(sizeof msg.w + bytes), MPI_BYTE, dest,
          FT_TAG_CONTROL, rt->control);
}

/* A payload carried by a message taken, until its handler asks for it. */
struct ft_carried {
  int from;
  size_t bytes;
  void *data;
};

static void keep_carried(struct ft_control_state *cs,
                         const struct ft_wire_msg *msg) {
  size_t bytes = (size_t)msg->w.carried - 1;
  if (bytes > FT_CONTROL_INLINE)
    ft_fatal("a control message from rank %d carries %zu bytes (at most %d)",
             msg->w.from, bytes, FT_CONTROL_INLINE);
  void *data = malloc(bytes ? bytes : 1);
  if (!data)
    ft_fatal("out of memory for a control payload of %zu bytes", bytes);
  memcpy(data, msg->data, bytes);
  cs->carried = ft_reserve(cs->carried, cs->n_carried + 1, &cs->cap_carried,
                           sizeof *cs->carried, "carried control payloads");
  cs->carried[cs->n_carried++] =
      (struct ft_carried){.from = msg->w.from, .bytes = bytes, .data = data};
}

/* The oldest payload `from` carried (malloc'ed), `bytes` long. */
static void *take_carried(struct ft_control_state *cs, int from, size_t bytes) {
  for (size_t i = 0; i < cs->n_carried; i++) {
    if (cs->carried[i].from != from)
      continue;
    struct ft_carried c = cs->carried[i];
    memmove(&cs->carried[i], &cs->carried[i + 1],
            (cs->n_carried - i - 1) * sizeof c);
    cs->n_carried--;
    if (c.bytes != bytes)
      ft_fatal("a control payload from rank %d has %zu bytes, %zu expected",
               from, c.bytes, bytes);
    return c.data;
  }
  ft_fatal("no control payload from rank %d to take", from);
}

void ft_control_send_payload(struct ft_runtime *rt, int dest,
                             const struct ft_wire *m, void *data,
                             size_t bytes) {
  struct ft_control_state *cs = &rt->ctl;
  /* Now and then only, and waited for, not tested: each MPI_Test costs
   * simulated time under SMPI (smpi/test, 0.1 ms), which landed on the
   * critical path of the send that ships events: 256 tests, a 25.6 ms stall
   * every 256 payloads (v2, cg on 8 ranks: 0.236 s instead of 0.210 s). A
   * wait injects no time, and these sends (to the event loggers and
   * servers, which always receive) are done or nearly. */
  if (bytes <= FT_CONTROL_INLINE) {
    send_carried(rt, dest, m, data, bytes);
    return;
  }
  if (cs->n_payloads >= 256)
    progress_payloads(cs, 1);
  cs->payloads = ft_reserve(cs->payloads, cs->n_payloads + 1, &cs->cap_payloads,
                            sizeof *cs->payloads, "control payloads");
  ft_control_send(rt, dest, m);
  struct ft_payload *p = &cs->payloads[cs->n_payloads++];
  p->data = data;
  FT_PMPI(Isend, data, (int)bytes, MPI_BYTE, dest, FT_TAG_PAYLOAD, rt->control,
          &p->req);
}

/* A send of a lost life, with its buffer (ft_control_adopt). */
struct ft_adopted {
  MPI_Request req;
  void *data;
  uint64_t key;
};

void ft_control_adopt(struct ft_control_state *cs, MPI_Request req, void *data,
                      uint64_t key) {
  cs->adopted = ft_reserve(cs->adopted, cs->n_adopted + 1, &cs->cap_adopted,
                           sizeof *cs->adopted, "adopted sends");
  cs->adopted[cs->n_adopted++] = (struct ft_adopted){req, data, key};
}

int ft_control_release_adopted(struct ft_control_state *cs, uint64_t key) {
  for (size_t i = 0; i < cs->n_adopted; i++) {
    struct ft_adopted *a = &cs->adopted[i];
    if (a->key != key)
      continue;
    FT_PMPI(Wait, &a->req, MPI_STATUS_IGNORE);
    free(a->data);
    *a = cs->adopted[--cs->n_adopted];
    return 1;
  }
  return 0;
}

void *ft_control_payload(struct ft_runtime *rt, const struct ft_wire *m,
                         size_t bytes) {
  if (m->carried > 0)
    return take_carried(&rt->ctl, m->from, bytes);
  void *data = malloc(bytes ? bytes : 1);
  if (!data)
    ft_fatal("out of memory for a control payload of %zu bytes", bytes);
  FT_PMPI(Recv, data, (int)bytes, MPI_BYTE, m->from, FT_TAG_PAYLOAD,
          rt->control, MPI_STATUS_IGNORE);
  return data;
}

void ft_control_finish_payloads(struct ft_control_state *cs) {
  progress_payloads(cs, 1);
  free(cs->payloads);
  cs->payloads = NULL;
  cs->cap_payloads = 0;
  for (size_t i = 0; i < cs->n_adopted; i++) {
    FT_PMPI(Wait, &cs->adopted[i].req, MPI_STATUS_IGNORE);
    free(cs->adopted[i].data);
  }
  free(cs->adopted);
  cs->adopted = NULL;
  for (size_t i = 0; i < cs->n_carried; i++)
    free(cs->carried[i].data);
  free(cs->carried);
  cs->carried = NULL;
  cs->n_carried = cs->cap_carried = 0;
  cs->n_adopted = cs->cap_adopted = 0;
}

/* A message taken (from a control receive or a courier): counted, its
 * payload kept, traced. A bell is counted as taken, and the courier told
 * (it may ring again). */
static void take_message(struct ft_runtime *rt, const struct ft_wire_msg *msg,
                         struct ft_wire *m) {
  *m = msg->w;
  if (m->from >= 0 && m->from < rt->world_size)
    counts(rt)[rt->world_size + m->from]++;
  if (m->carried > 0)
    keep_carried(&rt->ctl, msg);
  if (m->kind == FT_WIRE_BELL) {
    rt->ctl.bells_taken++;
    ft_backend_courier_bell_taken(rt->ctl.courier);
  }
  trace_control(rt, "<", m->from, m);
}

struct ft_wire ft_control_take(struct ft_runtime *rt) {
  struct ft_wire m;
  take_message(rt, &rt->ctl.window[rt->ctl.head], &m);
  ft_control_start(rt);
  return m;
}

static int fate_due(const struct ft_runtime *rt);
static void stand_dead(struct ft_runtime *rt, const struct ft_wire *m);

static void handle_taken(struct ft_runtime *rt, struct ft_wire *m);
static int handle_due(struct ft_runtime *rt);

void ft_control_arrived(struct ft_runtime *rt) {
  struct ft_wire m = ft_control_take(rt);
  if (m.kind == FT_WIRE_BELL) { /* what is due now, all of it */
    while (handle_due(rt))
      ;
    return;
  }
  handle_taken(rt, &m);
}

/* Handles a message taken, or keeps it when this rank's failure time has
 * come. May not return (rollback). */
static void handle_taken(struct ft_runtime *rt, struct ft_wire *m) {
  char kind[64];
  if (fate_due(rt)) {
    stand_dead(rt, m);
    return;
  }
  if (!rt->ctl.handle)
    ft_fatal("rank %d: a control message (%s) before its handler was "
             "installed",
             rt->world_rank, ft_wire_label(rt, m->kind, kind, sizeof kind));
  rt->ctl.handle(rt, m);
}

/* Handles this rank's first latency-only message due, if any: returns 1.
 * May not return (rollback). */
static int handle_due(struct ft_runtime *rt) {
  struct ft_wire m;
  if (!take_due(rt, &m))
    return 0;
  handle_taken(rt, &m);
  return 1;
}

/* ---- A rank at its failure time (ft_control_fate) ---- */

static void hold(struct ft_runtime *rt, const struct ft_wire *m) {
  struct ft_control_state *cs = &rt->ctl;
  cs->held = ft_reserve(cs->held, cs->n_held + 1, &cs->cap_held,
                        sizeof *cs->held, "control messages held");
  cs->held[cs->n_held++] = *m;
}

/* Handles the oldest message held, if any: returns 1. */
static int handle_held(struct ft_runtime *rt) {
  struct ft_control_state *cs = &rt->ctl;
  if (cs->first_held == cs->n_held)
    return 0;
  struct ft_wire m = cs->held[cs->first_held++];
  if (cs->first_held == cs->n_held)
    cs->first_held = cs->n_held = 0;
  rt->ctl.handle(rt, &m); /* may not return */
  return 1;
}

/* Whether this rank stops at its failure times now: while its application
 * runs, and while it restarts alone (message logging: its restart waits
 * for nobody's collective; it served a peer's resends 0.66 ms after its
 * failure, soak seed 8331). A rank that rolls back with every other
 * one does not: each that heard GO must make the next world's Comm_dup
 * (soak seed 3, coordinated: deadlock); FAIL reaches it in the recovery. */
static int fate_watched(const struct ft_runtime *rt) {
  return rt->fate.on && rt->recovering_protocol &&
         (rt->running || ft_driver_restarts_alone(rt->driver)) &&
         !rt->finished && !rt->stopping;
}

static int fate_due(const struct ft_runtime *rt) {
  return fate_watched(rt) && ft_fate_due(&rt->fate, ft_backend_now());
}

/* A message of the dispatcher (only it sends these) sent before the FAIL of
 * the failure this rank stands at: a rollback or resumption that failure
 * supersedes. */
static int superseded(const struct ft_wire *m) {
  return m->kind == FT_WIRE_ROLLBACK || m->kind == FT_WIRE_GO;
}

/* The dispatcher's verdict on a rank at its failure time. */
static int verdict(const struct ft_wire *m) {
  return m->kind == FT_WIRE_FAIL || m->kind == FT_WIRE_FINISH;
}

/* Stands dead until the verdict; `m`, when not NULL, is the first message
 * taken. */
static void stand_dead(struct ft_runtime *rt, const struct ft_wire *m) {
  struct ft_wire next;
  ft_fate_reached(&rt->fate);
  for (;;) {
    if (m && verdict(m)) {
      next = *m;
      rt->ctl.handle(rt, &next); /* FAIL does not return */
      return;
    }
    if (m && !superseded(m) && m->kind != FT_WIRE_BELL)
      hold(rt, m);
    next = ft_control_next(rt);
    m = &next;
  }
}

void ft_control_fate(struct ft_runtime *rt) {
  if (fate_due(rt))
    stand_dead(rt, NULL);
}

void ft_control_sleep(struct ft_runtime *rt, double seconds) {
  double left = ft_control_fate_left(rt);
  if (left >= 0 && left < seconds) {
    ft_backend_sleep(left);
    ft_control_fate(rt);
    seconds -= left; /* a run that ended meanwhile: the rest */
  }
  ft_backend_sleep(seconds);
}

int ft_control_acts(const struct ft_runtime *rt) {
  /* The failure time itself, watched or not: a rank in a wave or a
   * rollback (not running) meets its failure once it runs again, but
   * ftsim check counts it failed from that time on. */
  return !rt->dead && rt->fate.reached == rt->fate.failed &&
         !(rt->fate.on && ft_fate_left(&rt->fate, ft_backend_now()) == 0);
}

double ft_control_fate_left(const struct ft_runtime *rt) {
  if (!fate_watched(rt))
    return -1;
  return ft_fate_left(&rt->fate, ft_backend_now());
}

/* How many quiet messages must be due before this rank's core can act
 * (ft_protocol_ops' wake_after); 0 without it: every one. */
static int core_wake_after(const struct ft_runtime *rt) {
  return rt->protocol && rt->protocol->wake_after
             ? rt->protocol->wake_after(rt->protocol_state)
             : 0;
}

void ft_wait_control(struct ft_runtime *rt) {
  ft_control_fate(rt);
  if (handle_held(rt) || handle_due(rt))
    return;
  if (rt->ctl.courier) { /* no MPI call, no bell; woken once as many
                            quiet messages are due as the core needs */
    ft_backend_courier_wait(rt->ctl.courier, core_wake_after(rt));
    handle_due(rt);
    return;
  }
  FT_PMPI(Wait, &rt->ctrl_req, MPI_STATUS_IGNORE);
  ft_control_arrived(rt);
}

int ft_poll_control(struct ft_runtime *rt) {
  int flag = 0;
  ft_control_fate(rt);
  if (handle_held(rt) || handle_due(rt))
    return 1;
  FT_PMPI(Test, &rt->ctrl_req, &flag, MPI_STATUS_IGNORE);
  if (flag)
    ft_control_arrived(rt);
  return flag;
}

/* Ends the block span of a wait that began it (outer): without its record
 * when this rank's failure came meanwhile (the next fate check stops it;
 * ftsim check: a failed rank acts no more). */
static void block_end(struct ft_runtime *rt, int outer) {
  if (outer)
    ft_trace_block_end_(rt, ft_control_acts(rt));
}

static int any_active(int n, const MPI_Request reqs[]) {
  for (int i = 0; i < n; i++)
    if (reqs[i] != MPI_REQUEST_NULL)
      return 1;
  return 0;
}

/* Room for [control, n requests]: `small`, or the rank's scratch array,
 * kept so that a rollback out of the wait leaks nothing. A wait made by a
 * control message's handler during another may reuse (and move) it: the
 * outer wait fills it again after every control message. */
static MPI_Request *wait_room(struct ft_runtime *rt, int n,
                              MPI_Request small[16]) {
  if (n < 16)
    return small;
  rt->wait_scratch =
      ft_reserve(rt->wait_scratch, (size_t)n + 1, &rt->cap_wait_scratch,
                 sizeof *rt->wait_scratch, "a wait's requests");
  return rt->wait_scratch;
}

/* The library's error for the request a PMPI_Waitany completed (rc its
 * return code), the same on both backends: a real MPI returns it and leaves
 * the status's MPI_ERROR unspecified after a single completion (Open MPI
 * leaves the caller's value), SMPI 3.32 returns MPI_SUCCESS and leaves it in
 * the status (sim/backend.h, ft_backend_status_error). Dropping rc lost
 * MPI_ERR_TRUNCATE under real MPI and every recovering protocol
 * (count_check: 120 wrong of 120). */
static int completed_error(int rc, const MPI_Status *st) {
  return rc != MPI_SUCCESS ? rc : ft_backend_status_error(st);
}

/* Before this rank blocks in MPI: its courier rings for quiet messages
 * once as many are due as its core needs to act (core_wake_after; none
 * without the core's count). */
static void courier_wake_after(struct ft_runtime *rt) {
  if (rt->ctl.courier && rt->protocol && rt->protocol->wake_after)
    ft_backend_courier_wake_after(rt->ctl.courier, core_wake_after(rt));
}

/* Waits on [control, reqs...]; the control receive comes first so that a
 * stream of ready application messages cannot starve it. The completed
 * request is forgotten by the settle's table (ft_pending_done); its status
 * goes to *st, MPI_ERROR the library's error for it (completed_error). */
static int wait_with_control(struct ft_runtime *rt, int n, MPI_Request reqs[],
                             MPI_Status *st) {
  MPI_Request small[16];
  int index = MPI_UNDEFINED;
  if (rt->ctl.deadline)
    rt->ctl.deadline(rt);
  for (;;) {
    ft_control_fate(rt);
    while (handle_held(rt) || handle_due(rt))
      ;
    /* The oldest control message sent still on its way, last: it cannot
     * hide a request of the caller's, and each wait completes the sends
     * already received, in order, one Waitany each (ft_control_send). */
    st->MPI_ERROR = MPI_SUCCESS;
    courier_wake_after(rt);
    /* A send SMPI's Waitany would hand back at once, with no simcall: no
     * call (pending.c). */
    int now = ft_pending_first_at_once(rt, n, reqs);
    if (now >= 0) {
      ft_pending_complete_at_once(rt, &reqs[now], st);
      index = now + 1;
      break;
    }
    struct ft_sent *sent = oldest_send(&rt->ctl);
    int m = n + 1 + (sent != NULL);
    MPI_Request *all = wait_room(rt, m - 1, small);
    all[0] = rt->ctrl_req;
    memcpy(all + 1, reqs, (size_t)n * sizeof *reqs);
    if (sent)
      all[n + 1] = sent->req;
    int rc = PMPI_Waitany(m, all, &index, st);
    if (index > 0 && index <= n)
      ft_pending_done(rt, reqs[index - 1]); /* its handle, not yet null */
    memcpy(reqs, all + 1, (size_t)n * sizeof *reqs);
    /* The application's requests: the library's error for one of them (a
     * truncated receive) is the application's (its status, errors.c); for
     * the runtime's own, it stops the run. */
    if (index > 0 && index <= n) {
      st->MPI_ERROR = completed_error(rc, st);
      break; /* the caller's bookkeeping first: its deliveries look at
                ft_control_fate (delivery.c, the families') */
    }
    ft_pmpi_check(completed_error(rc, st), "MPI_Waitany");
    if (index == n + 1) {
      pop_send(&rt->ctl); /* all[n + 1] is MPI_REQUEST_NULL now */
      continue;
    }
    rt->ctrl_req = MPI_REQUEST_NULL;
    ft_control_arrived(rt); /* may not return */
  }
  return index - 1;
}

int ft_wait_any(struct ft_runtime *rt, int n, MPI_Request reqs[],
                MPI_Status *status) {
  if (!any_active(n, reqs))
    return MPI_UNDEFINED;
  MPI_Status st;
  int index, outer = ft_trace_block_begin(rt);
  if (rt->recovering_protocol)
    index = wait_with_control(rt, n, reqs, &st);
  else {
    st.MPI_ERROR = MPI_SUCCESS; /* as above: an error is the application's */
    int rc = PMPI_Waitany(n, reqs, &index, &st);
    st.MPI_ERROR = completed_error(rc, &st);
  }
  block_end(rt, outer);
  if (status && status != MPI_STATUS_IGNORE)
    *status = st;
  return index;
}

int ft_wait_internal(struct ft_runtime *rt, MPI_Request *req,
                     MPI_Status *status) {
  if (!rt->recovering_protocol) {
    int outer = ft_trace_block_begin(rt);
    int rc = PMPI_Wait(req, status ? status : MPI_STATUS_IGNORE);
    block_end(rt, outer);
    return rc;
  }
  /* The library's error (a truncated receive), as MPI_Wait would return
   * it. */
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  ft_wait_any(rt, 1, req, &st);
  if (status && status != MPI_STATUS_IGNORE)
    *status = st;
  return st.MPI_ERROR;
}

/* ft_waitall_internal's wait, the span of its block record around it. */
static int wait_all(struct ft_runtime *rt, int n, MPI_Request reqs[],
                    MPI_Status statuses[]) {
  if (rt->driver->waitall)
    return rt->driver->waitall(rt, n, reqs, statuses);
  if (!rt->recovering_protocol)
    return PMPI_Waitall(n, reqs, statuses);
  MPI_Status st;
  int index, rc = MPI_SUCCESS;
  while ((index = ft_wait_any(rt, n, reqs, &st)) != MPI_UNDEFINED) {
    if (statuses != MPI_STATUSES_IGNORE)
      statuses[index] = st;
    if (rc == MPI_SUCCESS && st.MPI_ERROR != MPI_SUCCESS)
      rc = statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : st.MPI_ERROR;
  }
  return rc;
}

int ft_waitall_internal(struct ft_runtime *rt, int n, MPI_Request reqs[],
                        MPI_Status statuses[]) {
  int outer = ft_trace_block_begin(rt);
  int rc = wait_all(rt, n, reqs, statuses);
  block_end(rt, outer);
  return rc;
}

/* The tag of the bytes that follow a message of `m`'s kind, or 0: a
 * family's kind's by its driver. */
static int payload_tag(const struct ft_runtime *rt, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_STORE:
    return FT_TAG_IMAGE;
  case FT_WIRE_IMAGE:
    return m->value >= 0 ? FT_TAG_IMAGE : 0;
  default:
    if (m->kind >= FT_WIRE_FAMILY_BASE && rt->driver->wire_payload)
      return rt->driver->wire_payload(m);
    return 0;
  }
}

void ft_control_discard(struct ft_runtime *rt, const struct ft_wire *m) {
  int tag = payload_tag(rt, m), bytes = 0;
  if (m->carried > 0) {
    free(take_carried(&rt->ctl, m->from, (size_t)m->carried - 1));
    return;
  }
  if (!tag || m->from < 0 || m->from >= rt->world_size)
    return;
  int images = m->kind == FT_WIRE_STORE || m->kind == FT_WIRE_IMAGE;
  void *padding = images && m->x[0] >= 1
                      ? ft_backend_padding_receive(m->from, rt->world_rank,
                                                   (uint64_t)m->x[1])
                      : NULL;
  MPI_Status st;
  FT_PMPI(Probe, m->from, tag, rt->control, &st); /* sent right after m */
  FT_PMPI(Get_count, &st, MPI_BYTE, &bytes);
  void *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!buf)
    ft_fatal("out of memory dropping %d bytes of a control message", bytes);
  FT_PMPI(Recv, buf, bytes, MPI_BYTE, m->from, tag, rt->control,
          MPI_STATUS_IGNORE);
  free(buf);
  ft_backend_padding_done(padding, 1);
}

void ft_control_drain(struct ft_runtime *rt) {
  int n = rt->world_size;
  int64_t *c = counts(rt), *expected = calloc((size_t)n, sizeof *expected);
  if (!expected)
    ft_fatal("out of memory draining control messages");
  FT_PMPI(Alltoall, c, 1, MPI_INT64_T, expected, 1, MPI_INT64_T, rt->control);
  for (int src = 0; src < n; src++)
    while (c[n + src] < expected[src] && rt->ctrl_req != MPI_REQUEST_NULL) {
      struct ft_wire m = ft_control_next(rt);
      ft_control_discard(rt, &m); /* the run is over: dropped */
    }
  free(expected);
}

/* Only the protocols that recover send control messages, and they need a
 * service rank (ft_options_check): a run with neither has no control
 * traffic to settle, and its ranks skip the drain's all-to-all and the last
 * barrier (issue 18, item 1: PMPI_Finalize synchronises them anyway). */
static int quiet_control(const struct ft_runtime *rt) {
  return !rt->recovering_protocol && rt->world_size == rt->app_ranks;
}

void ft_settle_control(struct ft_runtime *rt) {
  ft_pending_retire_all(rt);
  if (!quiet_control(rt))
    ft_control_drain(rt); /* a barrier too */
  stop_courier(rt);
  finish_sends(&rt->ctl);
  free(rt->ctrl_counts);
  rt->ctrl_counts = NULL;
  if (rt->ctrl_req != MPI_REQUEST_NULL) {
    FT_PMPI(Cancel, &rt->ctrl_req);
    FT_PMPI(Wait, &rt->ctrl_req, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < rt->ctl.n_ahead; i++) { /* every message was taken */
    FT_PMPI(Cancel, &rt->ctl.ahead[i]);
    FT_PMPI(Wait, &rt->ctl.ahead[i], MPI_STATUS_IGNORE);
  }
  rt->ctl.n_ahead = 0;
  free(rt->deferred);
  rt->deferred = NULL;
  struct ft_control_state *cs = &rt->ctl;
  for (size_t i = cs->first_held; i < cs->n_held; i++)
    ft_control_discard(rt, &cs->held[i]); /* the run is over */
  free(cs->held);
  cs->held = NULL;
  cs->n_held = cs->first_held = cs->cap_held = 0;
}

void ft_control_last_barrier(struct ft_runtime *rt) {
  if (!quiet_control(rt))
    FT_PMPI(Barrier, rt->control);
}

int ft_waitsome_one(struct ft_runtime *rt, ft_waitany_fn waitany, int n,
                    MPI_Request reqs[], int *outcount, int indices[],
                    MPI_Status statuses[]) {
  int index;
  MPI_Status st;
  int rc = waitany(rt, n, reqs, &index, &st);
  *outcount = index == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
  if (index != MPI_UNDEFINED) {
    indices[0] = index;
    if (statuses != MPI_STATUSES_IGNORE)
      statuses[0] = st;
  }
  return rc != MPI_SUCCESS && statuses != MPI_STATUSES_IGNORE
             ? MPI_ERR_IN_STATUS
             : rc;
}
