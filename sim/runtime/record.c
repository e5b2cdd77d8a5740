/* The recorder (record.h): the application's MPI calls as events of this
 * rank, written at MPI_Finalize for `ftsim record`. */
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "rtrace_rank.h"
#include "runtime.h"

static struct ft_rt_event *append(struct ft_record_state *s,
                                  const struct ft_rt_event *e) {
  struct ft_rt_event *stored = ft_rtrace_append(s->t, 0, e);
  if (!stored)
    ft_fatal("out of memory recording the MPI calls");
  return stored;
}

void ft_record_start(struct ft_runtime *rt) {
  struct ft_record_state *s = &rt->record;
  if (!rt->options.record[0])
    return;
  s->t = ft_rtrace_new(1);
  s->names = calloc(2, sizeof *s->names);
  s->handles = calloc(2, sizeof *s->handles);
  if (!s->t || !s->names || !s->handles)
    ft_fatal("out of memory starting the recorder");
  s->cap_names = 2;
  s->names[1] = 1;
  s->handles[0] = MPI_COMM_WORLD;
  s->handles[1] = MPI_COMM_SELF;
  double speed = ft_backend_host_speed();
  s->t->ranks[0].host_speed = speed > 0 ? speed : rt->options.record_speed;
  s->next_req = 1;
  if (ft_rtrace_keep_times(s->t, 0))
    ft_fatal("out of memory starting the recorder");
  s->last_exit = s->call_begin = ft_backend_now();
  s->on = 1;
}

/* The application's footprint: its heap and its registered regions. */
static uint64_t footprint(const struct ft_runtime *rt) {
  uint64_t bytes = rt->heap.bytes;
  for (int i = 0; i < FT_MAX_REGIONS; i++)
    if (rt->regions[i].used)
      bytes += rt->regions[i].bytes;
  return bytes;
}

/* Appends `e` spanning [begin, end] (a computation, a memory change). */
static void append_at(struct ft_record_state *s, const struct ft_rt_event *e,
                      double begin, double end) {
  append(s, e);
  struct ft_rtrace_rank *k = &s->t->ranks[0];
  k->span[k->n - 1] = (struct ft_rt_span){begin, end};
}

static void look_at_memory(struct ft_runtime *rt, double now_s) {
  struct ft_record_state *s = &rt->record;
  uint64_t now = footprint(rt);
  uint64_t moved = now > s->memory ? now - s->memory : s->memory - now;
  if (moved <= FT_RECORD_MEMORY_STEP && !(now && !s->memory))
    return;
  struct ft_rt_event e = {.kind = FT_RT_MEMORY, .u.memory = now};
  append_at(s, &e, now_s, now_s);
  s->memory = now;
}

void ft_record_enter(struct ft_runtime *rt) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return;
  double now = ft_backend_now_charged();
  double alone = now - s->last_exit - s->modelled_elapsed + s->modelled_s;
  if (alone > 0) {
    struct ft_rt_event e = {.kind = FT_RT_COMPUTE, .u.compute_s = alone};
    append_at(s, &e, s->last_exit, now);
  }
  s->last_exit = now;
  s->modelled_s = s->modelled_elapsed = 0;
  look_at_memory(rt, now);
  s->call_begin = now;
  s->call_first = s->t->ranks[0].n;
}

/* The events the call appended span [its entry, now]. */
static void close_call(struct ft_record_state *s, double now) {
  struct ft_rtrace_rank *k = &s->t->ranks[0];
  for (size_t i = s->call_first; i < k->n; i++)
    k->span[i] = (struct ft_rt_span){s->call_begin, now};
  s->call_first = k->n;
  s->call_begin = now; /* for a call that appends without an entry */
}

void ft_record_computed(struct ft_runtime *rt, double flops, double elapsed) {
  struct ft_record_state *s = &rt->record;
  double speed = s->on ? s->t->ranks[0].host_speed : 0;
  if (!(speed > 0) || !(flops > 0))
    return;
  s->modelled_s += flops / speed;
  s->modelled_elapsed += elapsed;
}

int ft_record_exit(struct ft_runtime *rt, int rc) {
  if (rt->record.on) {
    rt->record.last_exit = ft_backend_now();
    close_call(&rt->record, rt->record.last_exit);
  }
  rt->record.st_pending = 0; /* the call is over: its event too */
  return rc;
}

void ft_record_finish(struct ft_runtime *rt) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return;
  ft_record_enter(rt); /* the computation up to MPI_Finalize */
  s->on = 0;
  char path[600], err[800];
  snprintf(path, sizeof path, "%s/rank.%d", rt->options.record, rt->world_rank);
  if (ft_rtrace_write_rank(s->t, s->names, (uint32_t)rt->world_rank,
                           (uint32_t)rt->app_ranks, path, err, sizeof err))
    ft_fatal("rank %d: %s", rt->world_rank, err);
  ft_rtrace_free(s->t);
  free(s->names);
  free(s->handles);
  free(s->reqs);
  free(s->st);
  free(s->before);
  *s = (struct ft_record_state){0};
}

/* ---- Communicators: this rank's ids, by the application's handle ---- */

static uint32_t comm_add(struct ft_runtime *rt, MPI_Comm user) {
  struct ft_record_state *s = &rt->record;
  struct ft_comm *c = ft_comm_get(rt, user);
  uint32_t *members = malloc((size_t)(c->size ? c->size : 1) * sizeof *members);
  if (!members)
    ft_fatal("out of memory recording a communicator");
  for (int r = 0; r < c->size; r++)
    members[r] = (uint32_t)ft_comm_app_rank(c, r);
  uint32_t id = ft_rtrace_add_comm(s->t, (uint32_t)c->size, members);
  free(members);
  if (id == FT_RT_COMM_NULL)
    ft_fatal("out of memory recording a communicator");
  if (id >= s->cap_names) {
    size_t cap = s->cap_names;
    s->names = ft_reserve(s->names, id + 1, &cap, sizeof *s->names,
                          "the recorder's communicators");
    s->handles = ft_reserve(s->handles, id + 1, &s->cap_names,
                            sizeof *s->handles, "the recorder's communicators");
  }
  s->names[id] = c->name;
  s->handles[id] = user;
  return id;
}

static uint32_t comm_id(struct ft_runtime *rt, MPI_Comm user) {
  struct ft_record_state *s = &rt->record;
  if (user == MPI_COMM_WORLD)
    return FT_RT_COMM_WORLD;
  if (user == MPI_COMM_SELF)
    return FT_RT_COMM_SELF;
  if (user == MPI_COMM_NULL)
    return FT_RT_COMM_NULL;
  for (uint32_t i = s->t->ncomms; i-- > 2;)
    if (s->handles[i] == user)
      return i;
  return comm_add(rt, user);
}

/* ---- Sizes ---- */

uint64_t ft_record_bytes(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL ||
      PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  return (uint64_t)count * (uint64_t)size;
}

static uint64_t status_bytes(const MPI_Status *st, uint64_t posted) {
  int n = MPI_UNDEFINED;
  if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
    return posted;
  return (uint64_t)n;
}

/* ---- Point-to-point ---- */

void ft_record_p2p(struct ft_runtime *rt, uint8_t kind, int sync, int count,
                   MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  if (!rt->record.on)
    return;
  ft_record_enter(rt);
  rt->record.st_pending = 0; /* set again below when an event is made */
  if (peer == MPI_PROC_NULL)
    return;
  int recv = kind == FT_RT_RECV || kind == FT_RT_IRECV;
  struct ft_rt_event e = {.kind = kind};
  e.u.p2p = (struct ft_rt_p2p){
      .comm = comm_id(rt, comm),
      .peer = peer == MPI_ANY_SOURCE ? FT_RT_ANY : peer,
      .tag = tag == MPI_ANY_TAG ? FT_RT_ANY : tag,
      .bytes = ft_record_bytes(count, type),
      .flags = (sync ? FT_RT_SYNC : 0u) |
               (recv && peer == MPI_ANY_SOURCE ? FT_RT_WILD_SOURCE : 0u) |
               (recv && tag == MPI_ANY_TAG ? FT_RT_WILD_TAG : 0u)};
  append(&rt->record, &e);
  rt->record.st_pending = 1;
}

/* The last event, if it is the p2p event ft_record_p2p just appended. */
static struct ft_rt_event *last_p2p(struct ft_record_state *s) {
  if (!s->st_pending)
    return NULL;
  s->st_pending = 0;
  struct ft_rtrace_rank *k = &s->t->ranks[0];
  return k->n ? &k->ev[k->n - 1] : NULL;
}

/* A receive's matched source, tag and size, from its status. */
static void matched(struct ft_rt_p2p *p, const MPI_Status *st) {
  p->peer = st->MPI_SOURCE;
  p->tag = st->MPI_TAG;
  p->bytes = status_bytes(st, p->bytes);
}

static int error_class(int code) {
  int cls = code;
  if (code != MPI_SUCCESS && PMPI_Error_class(code, &cls) != MPI_SUCCESS)
    cls = code;
  return cls;
}

/* 1 when a receive completed with MPI_ERR_TRUNCATE (its message was longer
 * than it): from the call's code rc when the call completed it alone
 * (`single`), else from its status: the field a multiple completion
 * returning MPI_ERR_IN_STATUS sets (MPI-3.1, 3.7.5), or where SMPI leaves
 * the error of a call that returned MPI_SUCCESS (ft_backend_status_error). */
static int truncated(int rc, int single, const MPI_Status *st) {
  int cls = error_class(rc);
  if (single && cls == MPI_ERR_TRUNCATE)
    return 1;
  int in_status =
      cls == MPI_ERR_IN_STATUS ? st->MPI_ERROR : ft_backend_status_error(st);
  return error_class(in_status) == MPI_ERR_TRUNCATE;
}

/* A receive's match from its status; truncated (`cut`), flagged, its size
 * the receive's (p->bytes as posted): the count of a truncated status is
 * the library's choice (SMPI's counts the receive, Open MPI's the whole
 * message). */
static void matched_cut(struct ft_rt_p2p *p, const MPI_Status *st, int cut) {
  uint64_t posted = p->bytes;
  matched(p, st);
  if (cut)
    p->bytes = posted, p->flags |= FT_RT_TRUNCATED;
}

/* The receive of a call that returned rc with status *st: matched, and
 * flagged when truncated. Returns 0 when the call received nothing (an
 * error other than a truncation). */
static int received(int rc, const MPI_Status *st, struct ft_rt_p2p *p) {
  int cut = truncated(rc, 1, st);
  if (rc != MPI_SUCCESS && !cut)
    return 0;
  matched_cut(p, st, cut);
  return 1;
}

int ft_record_received(struct ft_runtime *rt, int rc, const MPI_Status *st) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return rc;
  struct ft_rt_event *e = last_p2p(s);
  if (e && st != MPI_STATUS_IGNORE)
    received(rc, st, &e->u.p2p);
  return ft_record_exit(rt, rc);
}

int ft_record_posted(struct ft_runtime *rt, int rc, const MPI_Request *req) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return rc;
  struct ft_rt_event *e = last_p2p(s);
  if (e && rc == MPI_SUCCESS && *req != MPI_REQUEST_NULL) {
    e->u.p2p.request = s->next_req++;
    s->reqs = ft_reserve(s->reqs, s->n_reqs + 1, &s->cap_reqs, sizeof *s->reqs,
                         "the recorder's requests");
    s->reqs[s->n_reqs++] = (struct ft_record_req){
        .handle = *req, .id = e->u.p2p.request, .event = s->t->ranks[0].n - 1};
  }
  return ft_record_exit(rt, rc);
}

int ft_record_sendrecv(struct ft_runtime *rt, int rc, int scount,
                       MPI_Datatype stype, int dest, int stag, int rcount,
                       MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                       const MPI_Status *st) {
  if (!rt->record.on)
    return rc;
  struct ft_rt_event e = {.kind = FT_RT_SENDRECV};
  struct ft_rt_sendrecv *x = &e.u.sendrecv;
  *x = (struct ft_rt_sendrecv){
      .comm = comm_id(rt, comm),
      .dest = dest == MPI_PROC_NULL ? FT_RT_UNKNOWN : dest,
      .send_tag = stag,
      .source = source,
      .recv_tag = rtag,
      .flags = (source == MPI_ANY_SOURCE ? FT_RT_WILD_SOURCE : 0u) |
               (rtag == MPI_ANY_TAG ? FT_RT_WILD_TAG : 0u),
      .send_bytes = dest == MPI_PROC_NULL ? 0 : ft_record_bytes(scount, stype),
      .recv_bytes = ft_record_bytes(rcount, rtype)};
  struct ft_rt_p2p half = {.peer = source, .tag = rtag, .bytes = x->recv_bytes};
  if (source == MPI_PROC_NULL) {
    x->source = FT_RT_UNKNOWN;
    x->recv_bytes = 0;
  } else if (st != MPI_STATUS_IGNORE && received(rc, st, &half)) {
    x->source = half.peer;
    x->recv_tag = half.tag;
    x->recv_bytes = half.bytes;
    x->flags |= half.flags;
  }
  append(&rt->record, &e);
  return ft_record_exit(rt, rc);
}

int ft_record_probe(struct ft_runtime *rt, int rc, int source, int tag,
                    MPI_Comm comm, const int *flag, const MPI_Status *st) {
  if (!rt->record.on || source == MPI_PROC_NULL)
    return rc;
  struct ft_rt_event e = {.kind = FT_RT_PROBE};
  struct ft_rt_probe *q = &e.u.probe;
  int found = rc == MPI_SUCCESS && (!flag || *flag);
  *q = (struct ft_rt_probe){.blocking = flag == NULL,
                            .found = (int8_t)found,
                            .comm = comm_id(rt, comm),
                            .peer =
                                source == MPI_ANY_SOURCE ? FT_RT_ANY : source,
                            .tag = tag == MPI_ANY_TAG ? FT_RT_ANY : tag,
                            .msg_peer = FT_RT_UNKNOWN,
                            .msg_tag = FT_RT_UNKNOWN};
  if (found && st != MPI_STATUS_IGNORE) {
    q->msg_peer = st->MPI_SOURCE;
    q->msg_tag = st->MPI_TAG;
    q->msg_bytes = status_bytes(st, 0);
  }
  append(&rt->record, &e);
  return ft_record_exit(rt, rc);
}

static struct ft_record_req *find_req(struct ft_record_state *s,
                                      MPI_Request handle) {
  for (size_t i = s->n_reqs; i-- > 0;)
    if (s->reqs[i].handle == handle)
      return &s->reqs[i];
  return NULL;
}

static void forget_req(struct ft_record_state *s, struct ft_record_req *r) {
  *r = s->reqs[--s->n_reqs];
}

/* MPI_Cancel, or (freed) MPI_Request_free, of *req: a cancel event of
 * the request's posting event; a freed request leaves the table, as no
 * call will complete it. Neither call has an ft_record_exit (its time
 * goes to the next computation): a call of no length. */
static void cancel_event(struct ft_runtime *rt, const MPI_Request *req,
                         int freed) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return;
  ft_record_enter(rt);
  struct ft_record_req *r = find_req(s, *req);
  if (!r)
    return;
  struct ft_rt_event e = s->t->ranks[0].ev[r->event];
  e.kind = FT_RT_CANCEL; /* flags: only FT_RT_FREE (docs/trace-format.md) */
  e.u.p2p.flags = freed ? FT_RT_FREE : 0u;
  append(s, &e);
  if (freed)
    forget_req(s, r);
  close_call(s, s->call_begin);
}

void ft_record_cancel(struct ft_runtime *rt, const MPI_Request *req) {
  cancel_event(rt, req, 0);
}

void ft_record_request_free(struct ft_runtime *rt, const MPI_Request *req) {
  cancel_event(rt, req, 1);
}

/* ---- Completions ---- */

MPI_Status *ft_record_status(struct ft_runtime *rt, MPI_Status *status) {
  return ft_record_statuses(rt, 1, status);
}

MPI_Status *ft_record_statuses(struct ft_runtime *rt, int n,
                               MPI_Status *statuses) {
  struct ft_record_state *s = &rt->record;
  if (!s->on || statuses != MPI_STATUSES_IGNORE || n <= 0)
    return statuses;
  s->st = ft_reserve(s->st, (size_t)n, &s->cap_st, sizeof *s->st,
                     "the recorder's statuses");
  return s->st;
}

void ft_record_before(struct ft_runtime *rt, int n, const MPI_Request *reqs) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return;
  ft_record_enter(rt);
  if (n <= 0)
    return;
  s->before = ft_reserve(s->before, (size_t)n, &s->cap_before,
                         sizeof *s->before, "the recorder's requests");
  memcpy(s->before, reqs, (size_t)n * sizeof *reqs);
}

/* The entry of request handle `h` that completed with *st (NULL: not
 * complete), its posting event patched with a receive's match (and
 * FT_RT_TRUNCATED when `cut`). Returns 0 for a request the recorder did
 * not number (none of the application's). */
static int done_entry(struct ft_record_state *s, MPI_Request h,
                      const MPI_Status *st, int cut, struct ft_rt_done *d) {
  struct ft_record_req *r = find_req(s, h);
  if (!r)
    return 0;
  struct ft_rt_event *post = &s->t->ranks[0].ev[r->event];
  int cancelled = 0;
  if (st)
    PMPI_Test_cancelled(st, &cancelled);
  int recv = post->kind == FT_RT_IRECV;
  cut = cut && st && recv && !cancelled;
  if (st && recv && !cancelled)
    matched_cut(&post->u.p2p, st, cut);
  const struct ft_rt_p2p *p = &post->u.p2p;
  *d = (struct ft_rt_done){.request = r->id,
                           .status = !st         ? FT_RT_NOT_DONE
                                     : cancelled ? FT_RT_CANCELLED
                                                 : FT_RT_DONE,
                           .is_recv = (uint8_t)recv,
                           .comm = p->comm,
                           .peer = p->peer,
                           .tag = p->tag,
                           .bytes = p->bytes,
                           .truncated = (uint8_t)cut};
  if (st)
    forget_req(s, r);
  return 1;
}

static int is_test(uint8_t call) {
  return call == FT_RT_TEST || call == FT_RT_TESTALL || call == FT_RT_TESTANY ||
         call == FT_RT_TESTSOME;
}

/* A call that completes one request at most: its code is that request's
 * error. */
static int completes_one(uint8_t call) {
  return call == FT_RT_WAIT || call == FT_RT_TEST || call == FT_RT_WAITANY ||
         call == FT_RT_TESTANY;
}

/* The index k such that indices[k] == i, or -1. */
static int listed(const int *indices, int count, int i) {
  for (int k = 0; k < count; k++)
    if (indices[k] == i)
      return k;
  return -1;
}

int ft_record_completed(struct ft_runtime *rt, int rc, uint8_t call, int n,
                        const MPI_Request *after, const MPI_Status *st,
                        const int *indices, int count) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return rc;
  if (ft_rtrace_append_complete(s->t, 0, call, NULL, 0))
    ft_fatal("out of memory recording the MPI calls");
  for (int i = 0; i < n; i++) {
    if (s->before[i] == MPI_REQUEST_NULL)
      continue;
    int k = indices ? listed(indices, count, i) : -1;
    int done = indices ? k >= 0 : after[i] == MPI_REQUEST_NULL;
    const MPI_Status *sti = !done ? NULL : indices ? &st[k] : &st[i];
    int cut = sti && truncated(rc, completes_one(call), sti);
    struct ft_rt_done d;
    if ((done || is_test(call)) && done_entry(s, s->before[i], sti, cut, &d) &&
        ft_rtrace_complete_add(s->t, 0, &d))
      ft_fatal("out of memory recording the MPI calls");
  }
  struct ft_rtrace_rank *kr = &s->t->ranks[0];
  if (kr->ev[kr->n - 1].u.complete.count == 0)
    kr->n--; /* a call on null requests only: nothing to replay */
  return ft_record_exit(rt, rc);
}

/* ---- Collectives ---- */

static uint64_t vbytes(int n, const int counts[], MPI_Datatype type,
                       const MPI_Datatype types[]) {
  uint64_t sum = 0;
  for (int i = 0; counts && i < n; i++)
    sum += ft_record_bytes(counts[i], types ? types[i] : type);
  return sum;
}

/* This rank's bytes sent (*sent) and received (*recvd) in collective op
 * (docs/trace-format.md, "collective"), n ranks, this one `me`. */
static void coll_bytes(uint8_t op, int n, int me,
                       const struct ft_record_coll_args *a, uint64_t *sent,
                       uint64_t *recvd) {
  uint64_t sb = ft_record_bytes(a->scount, a->stype);
  uint64_t rb = ft_record_bytes(a->rcount, a->rtype);
  uint64_t un = (uint64_t)n;
  int root = me == a->root;
  switch (op) {
  case FT_RT_BCAST:
    *sent = root ? sb : 0, *recvd = root ? 0 : sb;
    return;
  case FT_RT_REDUCE:
    *sent = sb, *recvd = root ? sb : 0;
    return;
  case FT_RT_ALLREDUCE:
  case FT_RT_SCAN:
  case FT_RT_EXSCAN:
    *sent = sb, *recvd = sb;
    return;
  case FT_RT_GATHER:
    *sent = sb, *recvd = root ? un * rb : 0;
    return;
  case FT_RT_GATHERV:
    *sent = sb, *recvd = root ? vbytes(n, a->rcounts, a->rtype, NULL) : 0;
    return;
  case FT_RT_SCATTER:
    *sent = root ? un * sb : 0, *recvd = rb;
    return;
  case FT_RT_SCATTERV:
    *sent = root ? vbytes(n, a->scounts, a->stype, NULL) : 0, *recvd = rb;
    return;
  case FT_RT_ALLGATHER:
    *sent = a->in_place ? rb : sb, *recvd = un * rb;
    return;
  case FT_RT_ALLGATHERV:
    *sent = !a->in_place ? sb
            : a->rcounts ? ft_record_bytes(a->rcounts[me], a->rtype)
                         : 0;
    *recvd = vbytes(n, a->rcounts, a->rtype, NULL);
    return;
  case FT_RT_ALLTOALL:
    *sent = un * (a->in_place ? rb : sb), *recvd = un * rb;
    return;
  case FT_RT_ALLTOALLV:
  case FT_RT_ALLTOALLW:
    *recvd = vbytes(n, a->rcounts, a->rtype, a->rtypes);
    *sent = a->in_place ? *recvd : vbytes(n, a->scounts, a->stype, a->stypes);
    return;
  case FT_RT_REDUCE_SCATTER:
    *sent = vbytes(n, a->rcounts, a->rtype, NULL);
    *recvd = a->rcounts ? ft_record_bytes(a->rcounts[me], a->rtype) : 0;
    return;
  case FT_RT_REDUCE_SCATTER_BLOCK:
    *sent = un * rb, *recvd = rb;
    return;
  default: /* barrier */
    *sent = 0, *recvd = 0;
  }
}

void ft_record_coll(struct ft_runtime *rt, uint8_t op, MPI_Comm comm,
                    const struct ft_record_coll_args *a) {
  if (!rt->record.on)
    return;
  ft_record_enter(rt);
  int n = 0, me = 0;
  MPI_Comm inner = ft_comm_inner(rt, comm);
  FT_PMPI(Comm_size, inner, &n);
  FT_PMPI(Comm_rank, inner, &me);
  struct ft_rt_event e = {.kind = FT_RT_COLL};
  e.u.coll =
      (struct ft_rt_coll){.op = op, .comm = comm_id(rt, comm), .root = a->root};
  coll_bytes(op, n, me, a, &e.u.coll.sent, &e.u.coll.recvd);
  e.u.coll.flags = a->noncommutative ? FT_RT_NONCOMMUTATIVE : 0;
  append(&rt->record, &e);
}

/* ---- Communicators ---- */

int ft_record_comm_made(struct ft_runtime *rt, int rc, uint8_t op,
                        MPI_Comm parent, const MPI_Comm *made, int color,
                        int key) {
  if (!rt->record.on || rc != MPI_SUCCESS)
    return ft_record_exit(rt, rc);
  struct ft_rt_event e = {.kind = FT_RT_COMM};
  e.u.comm = (struct ft_rt_comm_ev){.op = op,
                                    .parent = comm_id(rt, parent),
                                    .comm = comm_id(rt, *made),
                                    .color = color,
                                    .key = key};
  append(&rt->record, &e);
  return ft_record_exit(rt, rc);
}

void ft_record_comm_free(struct ft_runtime *rt, const MPI_Comm *comm) {
  struct ft_record_state *s = &rt->record;
  if (!s->on)
    return;
  ft_record_enter(rt);
  uint32_t id = comm_id(rt, *comm);
  if (id < 2 || id == FT_RT_COMM_NULL)
    return;
  struct ft_rt_event e = {.kind = FT_RT_COMM};
  e.u.comm = (struct ft_rt_comm_ev){.op = FT_RT_COMM_FREE,
                                    .parent = id,
                                    .comm = id,
                                    .color = FT_RT_UNKNOWN,
                                    .key = FT_RT_UNKNOWN};
  append(s, &e);
  s->handles[id] = MPI_COMM_NULL; /* a later handle may be the same value */
}
