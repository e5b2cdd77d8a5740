/* ftsim's OTF2 writer: a run (rtrace.h) as an OTF2 archive, with the
 * records Score-P writes for MPI and ftsim's attributes for what OTF2 has
 * no record for (docs/trace-format.md). */
#include "rtrace.h"
#include "rtrace_otf2.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

static const OTF2_Type attr_types[FT_RA_COUNT] = {
    OTF2_TYPE_UINT8,  OTF2_TYPE_INT32,  OTF2_TYPE_INT32, OTF2_TYPE_UINT32,
    OTF2_TYPE_UINT64, OTF2_TYPE_INT8,   OTF2_TYPE_INT32, OTF2_TYPE_INT32,
    OTF2_TYPE_UINT64, OTF2_TYPE_UINT32, OTF2_TYPE_INT32, OTF2_TYPE_INT32,
    OTF2_TYPE_UINT8,  OTF2_TYPE_UINT8};

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type,
                                OTF2_LocationRef loc, void *cb, bool final) {
  (void)user, (void)type, (void)loc, (void)cb, (void) final;
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type,
                                 OTF2_LocationRef loc) {
  (void)user, (void)type, (void)loc;
  return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* The rank whose events are written (its pool of completion entries). */
struct ftrtrace_rank_view {
  const struct ft_rtrace_rank *k;
};

/* One rank being written: t0 and t1 are the event's entry and exit (the
 * records of a call's start are stamped t0, those of its end t1), t the
 * rank's clock (the last exit). */
struct wr {
  OTF2_EvtWriter *w;
  OTF2_AttributeList *al;
  OTF2_TimeStamp t, t0, t1;
  double res;    /* ticks per second */
  double origin; /* the recording's time of timestamp 0 */
  double shift;  /* seconds taken off the recorded times from here on: the
                    time this rank's computations waited for a core it
                    shared with other ranks (stamp) */
  OTF2_ErrorCode rc;
};

static void ok(struct wr *w, OTF2_ErrorCode rc) {
  if (rc != OTF2_SUCCESS && w->rc == OTF2_SUCCESS)
    w->rc = rc;
}

static void attr(struct wr *w, enum ft_rt_attr a, int64_t v) {
  OTF2_AttributeValue val;
  switch (attr_types[a]) {
  case OTF2_TYPE_UINT8:
    val.uint8 = (uint8_t)v;
    break;
  case OTF2_TYPE_INT8:
    val.int8 = (int8_t)v;
    break;
  case OTF2_TYPE_INT32:
    val.int32 = (int32_t)v;
    break;
  case OTF2_TYPE_UINT32:
    val.uint32 = (uint32_t)v;
    break;
  default:
    val.uint64 = (uint64_t)v;
    break;
  }
  ok(w, OTF2_AttributeList_AddAttribute(w->al, (OTF2_AttributeRef)a,
                                        attr_types[a], val));
}

/* The region id of an MPI function (its index in ft_rt_regions). */
static OTF2_RegionRef region(const char *name) {
  const struct ft_rt_region *r = ft_rt_region_find(name);
  return (OTF2_RegionRef)(r - ft_rt_regions);
}

static void enter(struct wr *w, const char *name) {
  ok(w, OTF2_EvtWriter_Enter(w->w, NULL, w->t0, region(name)));
}

/* Leave, with the attributes added since (the list is emptied). */
static void leave(struct wr *w, const char *name) {
  ok(w, OTF2_EvtWriter_Leave(w->w, w->al, w->t1, region(name)));
}

static uint32_t u32(int32_t v) {
  return v < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)v;
}

/* A receive's flags as attributes: ftsim::wildcard (its wildcards),
 * ftsim::truncated (FT_RT_TRUNCATED); none when they are 0. */
static void recv_flags(struct wr *w, uint32_t flags) {
  uint32_t wild = flags & (FT_RT_WILD_SOURCE | FT_RT_WILD_TAG);
  if (wild)
    attr(w, FT_RA_WILDCARD, wild);
  if (flags & FT_RT_TRUNCATED)
    attr(w, FT_RA_TRUNCATED, 1);
}

static void write_p2p(struct wr *w, const struct ft_rt_event *e) {
  const struct ft_rt_p2p *p = &e->u.p2p;
  int sync = (p->flags & FT_RT_SYNC) != 0;
  const char *name;
  switch (e->kind) {
  case FT_RT_SEND:
    enter(w, name = sync ? "MPI_Ssend" : "MPI_Send");
    ok(w, OTF2_EvtWriter_MpiSend(w->w, NULL, w->t0, u32(p->peer), p->comm,
                                 (uint32_t)p->tag, p->bytes));
    break;
  case FT_RT_ISEND:
    enter(w, name = sync ? "MPI_Issend" : "MPI_Isend");
    ok(w, OTF2_EvtWriter_MpiIsend(w->w, NULL, w->t0, u32(p->peer), p->comm,
                                  (uint32_t)p->tag, p->bytes, p->request));
    break;
  case FT_RT_RECV:
    enter(w, name = "MPI_Recv");
    recv_flags(w, p->flags);
    ok(w, OTF2_EvtWriter_MpiRecv(w->w, w->al, w->t1, u32(p->peer), p->comm,
                                 (uint32_t)p->tag, p->bytes));
    break;
  case FT_RT_IRECV:
    enter(w, name = "MPI_Irecv");
    recv_flags(w, p->flags & ~FT_RT_TRUNCATED); /* told at its completion */
    attr(w, FT_RA_COMM, p->comm);
    attr(w, FT_RA_PEER, p->peer);
    attr(w, FT_RA_TAG, p->tag);
    attr(w, FT_RA_BYTES, (int64_t)p->bytes);
    ok(w, OTF2_EvtWriter_MpiIrecvRequest(w->w, w->al, w->t0, p->request));
    break;
  default: /* FT_RT_CANCEL, or MPI_Request_free */
    enter(w,
          name = (p->flags & FT_RT_FREE) ? "MPI_Request_free" : "MPI_Cancel");
    attr(w, FT_RA_REQUEST, (int64_t)p->request);
    break;
  }
  leave(w, name);
}

static void write_sendrecv(struct wr *w, const struct ft_rt_sendrecv *s) {
  enter(w, "MPI_Sendrecv");
  ok(w, OTF2_EvtWriter_MpiSend(w->w, NULL, w->t0, u32(s->dest), s->comm,
                               (uint32_t)s->send_tag, s->send_bytes));
  recv_flags(w, s->flags);
  ok(w, OTF2_EvtWriter_MpiRecv(w->w, w->al, w->t1, u32(s->source), s->comm,
                               (uint32_t)s->recv_tag, s->recv_bytes));
  leave(w, "MPI_Sendrecv");
}

/* A completed receive's attributes: ftsim::truncated when it was. */
static OTF2_AttributeList *truncated(struct wr *w, const struct ft_rt_done *d) {
  if (d->truncated)
    attr(w, FT_RA_TRUNCATED, 1);
  return w->al;
}

static void write_done(struct wr *w, const struct ft_rt_done *d) {
  if (d->status == FT_RT_NOT_DONE)
    ok(w, OTF2_EvtWriter_MpiRequestTest(w->w, NULL, w->t1, d->request));
  else if (d->status == FT_RT_CANCELLED)
    ok(w, OTF2_EvtWriter_MpiRequestCancelled(w->w, NULL, w->t1, d->request));
  else if (d->is_recv)
    ok(w, OTF2_EvtWriter_MpiIrecv(w->w, truncated(w, d), w->t1, u32(d->peer),
                                  d->comm, (uint32_t)d->tag, d->bytes,
                                  d->request));
  else
    ok(w, OTF2_EvtWriter_MpiIsendComplete(w->w, NULL, w->t1, d->request));
}

static void write_complete(struct wr *w, const struct ftrtrace_rank_view *v,
                           const struct ft_rt_complete *c) {
  const char *name = ft_rt_call_name(c->call);
  enter(w, name);
  for (uint32_t j = 0; j < c->count; j++)
    write_done(w, &v->k->done[c->first + j]);
  leave(w, name);
}

static void write_probe(struct wr *w, const struct ft_rt_probe *p) {
  const char *name = p->blocking ? "MPI_Probe" : "MPI_Iprobe";
  enter(w, name);
  attr(w, FT_RA_COMM, p->comm);
  attr(w, FT_RA_PEER, p->peer);
  attr(w, FT_RA_TAG, p->tag);
  attr(w, FT_RA_FOUND, p->found);
  attr(w, FT_RA_MSG_PEER, p->msg_peer);
  attr(w, FT_RA_MSG_TAG, p->msg_tag);
  attr(w, FT_RA_BYTES, (int64_t)p->msg_bytes);
  leave(w, name);
}

/* OTF2_COLLECTIVE_OP_* for enum ft_rt_coll_op. */
static const OTF2_CollectiveOp coll_ops[FT_RT_COLL_COUNT] = {
    0,
    OTF2_COLLECTIVE_OP_BARRIER,
    OTF2_COLLECTIVE_OP_BCAST,
    OTF2_COLLECTIVE_OP_GATHER,
    OTF2_COLLECTIVE_OP_GATHERV,
    OTF2_COLLECTIVE_OP_SCATTER,
    OTF2_COLLECTIVE_OP_SCATTERV,
    OTF2_COLLECTIVE_OP_ALLGATHER,
    OTF2_COLLECTIVE_OP_ALLGATHERV,
    OTF2_COLLECTIVE_OP_ALLTOALL,
    OTF2_COLLECTIVE_OP_ALLTOALLV,
    OTF2_COLLECTIVE_OP_ALLTOALLW,
    OTF2_COLLECTIVE_OP_ALLREDUCE,
    OTF2_COLLECTIVE_OP_REDUCE,
    OTF2_COLLECTIVE_OP_REDUCE_SCATTER,
    OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
    OTF2_COLLECTIVE_OP_SCAN,
    OTF2_COLLECTIVE_OP_EXSCAN};

int ft_rt_coll_from_otf2(unsigned op) {
  for (int i = 1; i < FT_RT_COLL_COUNT; i++)
    if (coll_ops[i] == op)
      return i;
  return 0;
}

static void write_coll(struct wr *w, const struct ft_rt_coll *c) {
  const char *name = ft_rt_coll_name(c->op);
  enter(w, name);
  ok(w, OTF2_EvtWriter_MpiCollectiveBegin(w->w, NULL, w->t0));
  if (c->flags)
    attr(w, FT_RA_COLL_FLAGS, c->flags);
  ok(w,
     OTF2_EvtWriter_MpiCollectiveEnd(w->w, w->al, w->t1, coll_ops[c->op],
                                     c->comm, u32(c->root), c->sent, c->recvd));
  leave(w, name);
}

static void write_comm(struct wr *w, const struct ft_rt_comm_ev *c) {
  const char *name = ft_rt_comm_op_name(c->op);
  enter(w, name);
  if (c->comm != FT_RT_COMM_NULL && c->op == FT_RT_COMM_FREE)
    ok(w, OTF2_EvtWriter_CommDestroy(w->w, NULL, w->t1, c->comm));
  else if (c->comm != FT_RT_COMM_NULL)
    ok(w, OTF2_EvtWriter_CommCreate(w->w, NULL, w->t1, c->comm));
  attr(w, FT_RA_PARENT, c->parent);
  attr(w, FT_RA_COLOR, c->color);
  attr(w, FT_RA_KEY, c->key);
  leave(w, name);
}

static void write_memory(struct wr *w, uint64_t bytes) {
  OTF2_Type type = OTF2_TYPE_UINT64;
  OTF2_MetricValue v = {.unsigned_int = bytes};
  ok(w, OTF2_EvtWriter_Metric(w->w, NULL, w->t0, 0, 1, &type, &v));
}

static OTF2_TimeStamp ticks(const struct wr *w, double s) {
  return s > 0 ? (OTF2_TimeStamp)llround(s * w->res) : 0;
}

/* The event's entry and exit on the rank's clock: its span (a recording),
 * never before the rank's clock, or else synthetic times where only
 * computation takes time (a model without times). A reader takes the gap
 * between two calls as the rank's computation; where the recorded
 * computation is shorter than its span (ft_compute's flops at the host's
 * speed, while ranks sharing a core took longer: record.c), the gap is
 * made the computation and the later times move earlier by the
 * difference, so that a replay does not count the sharing twice. */
static void stamp(struct wr *w, const struct ft_rt_event *e,
                  const struct ft_rt_span *sp) {
  if (sp) {
    double begin = sp->begin - w->shift, end = sp->end - w->shift;
    if (e->kind == FT_RT_COMPUTE && end - begin > e->u.compute_s) {
      w->shift += end - begin - e->u.compute_s;
      end = begin + e->u.compute_s;
    }
    OTF2_TimeStamp b = ticks(w, begin - w->origin);
    OTF2_TimeStamp e1 = ticks(w, end - w->origin);
    w->t0 = b > w->t ? b : w->t;
    w->t1 = e1 > w->t0 ? e1 : w->t0;
  } else {
    w->t0 = w->t;
    w->t1 = w->t0;
    if (e->kind == FT_RT_COMPUTE)
      w->t1 += ticks(w, e->u.compute_s);
  }
  w->t = e->kind == FT_RT_MEMORY ? w->t0 : w->t1;
}

static void write_event(struct wr *w, const struct ftrtrace_rank_view *v,
                        const struct ft_rt_event *e,
                        const struct ft_rt_span *sp) {
  stamp(w, e, sp);
  switch (e->kind) {
  case FT_RT_SENDRECV:
    write_sendrecv(w, &e->u.sendrecv);
    break;
  case FT_RT_COMPLETE:
    write_complete(w, v, &e->u.complete);
    break;
  case FT_RT_PROBE:
    write_probe(w, &e->u.probe);
    break;
  case FT_RT_COLL:
    write_coll(w, &e->u.coll);
    break;
  case FT_RT_COMM:
    write_comm(w, &e->u.comm);
    break;
  case FT_RT_COMPUTE: /* the gap between two calls: no record */
    break;
  case FT_RT_MEMORY:
    write_memory(w, e->u.memory);
    break;
  default:
    write_p2p(w, e);
    break;
  }
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (errlen)
    vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Checks what OTF2 cannot hold: the event kinds and ranges. */
static int check_rank(const struct ft_rtrace *t, uint32_t r, char *err,
                      size_t errlen) {
  const struct ft_rtrace_rank *k = &t->ranks[r];
  for (size_t i = 0; i < k->n; i++) {
    const struct ft_rt_event *e = &k->ev[i];
    int bad =
        e->kind == 0 || e->kind >= FT_RT_KIND_COUNT ||
        (e->kind == FT_RT_COMPLETE &&
         (e->u.complete.call == 0 || e->u.complete.call >= FT_RT_CALL_COUNT)) ||
        (e->kind == FT_RT_COLL &&
         (e->u.coll.op == 0 || e->u.coll.op >= FT_RT_COLL_COUNT)) ||
        (e->kind == FT_RT_COMM &&
         (e->u.comm.op == 0 || e->u.comm.op >= FT_RT_COMM_OP_COUNT)) ||
        (e->kind == FT_RT_COMPUTE &&
         !(e->u.compute_s >= 0 && e->u.compute_s < 1e9)) ||
        (e->kind == FT_RT_COMPLETE &&
         (size_t)e->u.complete.first + e->u.complete.count > k->ndone);
    if (bad)
      return fail(err, errlen, "rank %u, event %zu (%s): invalid event", r, i,
                  ft_rt_kind_name(e->kind));
  }
  return 0;
}

/* The timeline of the archive: its first and last timestamps. */
struct span_ticks {
  OTF2_TimeStamp first, last;
};

/* The archive's clock (rtrace_otf2.h): ticks per second and the
 * recording's time of timestamp 0. */
struct clock {
  double res, origin;
};

/* The latest time of rank k: its last span's end, or without spans the
 * sum of its computations (the synthetic clock). */
static double rank_end(const struct ft_rtrace_rank *k) {
  if (k->span)
    return k->n ? k->span[k->n - 1].end : 0;
  double sum = 0;
  for (size_t i = 0; i < k->n; i++)
    if (k->ev[i].kind == FT_RT_COMPUTE)
      sum += k->ev[i].u.compute_s;
  return sum;
}

/* The finest resolution whose ticks hold the run's latest time, from 0 or
 * (when not even nanoseconds do) from the first rank's start. */
static struct clock choose_clock(const struct ft_rtrace *t) {
  double first = -1, last = 0;
  for (uint32_t r = 0; r < t->nranks; r++) {
    double end = rank_end(&t->ranks[r]);
    if (end > last)
      last = end;
    if (t->ranks[r].span && t->ranks[r].n &&
        (first < 0 || t->ranks[r].span[0].begin < first))
      first = t->ranks[r].span[0].begin;
  }
  struct clock c = {FT_RT_TICKS_FINEST, 0};
  while (c.res > FT_RT_TICKS_COARSEST && last * c.res >= FT_RT_TICKS_MAX)
    c.res /= 1000;
  if (last * c.res >= FT_RT_TICKS_MAX && first > 0)
    c.origin = first;
  return c;
}

static int write_rank(OTF2_Archive *a, const struct ft_rtrace *t, uint32_t r,
                      struct clock c, uint64_t *nevents,
                      struct span_ticks *all) {
  const struct ft_rtrace_rank *k = &t->ranks[r];
  struct wr w = {.w = OTF2_Archive_GetEvtWriter(a, r),
                 .al = OTF2_AttributeList_New(),
                 .res = c.res,
                 .origin = c.origin};
  if (!w.w || !w.al) {
    OTF2_AttributeList_Delete(w.al);
    return -1;
  }
  /* The rank's start (where its first computation begins): ProgramBegin,
   * as Score-P writes it. String 0 is the program's name (write_defs). */
  w.t = k->span && k->n ? ticks(&w, k->span[0].begin - w.origin) : 0;
  ok(&w, OTF2_EvtWriter_ProgramBegin(w.w, NULL, w.t, 0, 0, NULL));
  if (r == 0 || w.t < all->first)
    all->first = w.t;
  struct ftrtrace_rank_view v = {k};
  for (size_t i = 0; i < k->n && w.rc == OTF2_SUCCESS; i++)
    write_event(&w, &v, &k->ev[i], k->span ? &k->span[i] : NULL);
  /* The end, so that a reader sees the computation after the last call. */
  ok(&w, OTF2_EvtWriter_ProgramEnd(w.w, NULL, w.t, 0));
  ok(&w, OTF2_EvtWriter_GetNumberOfEvents(w.w, nevents));
  if (w.t > all->last)
    all->last = w.t;
  ok(&w, OTF2_Archive_CloseEvtWriter(a, w.w));
  OTF2_AttributeList_Delete(w.al);
  return w.rc == OTF2_SUCCESS ? 0 : -1;
}

/* Global definitions: strings are numbered as written. */
struct gdefs {
  OTF2_GlobalDefWriter *g;
  OTF2_StringRef next;
  OTF2_ErrorCode rc;
};

static OTF2_StringRef str(struct gdefs *d, const char *s) {
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(d->g, d->next, s);
  if (rc != OTF2_SUCCESS && d->rc == OTF2_SUCCESS)
    d->rc = rc;
  return d->next++;
}

static void gok(struct gdefs *d, OTF2_ErrorCode rc) {
  if (rc != OTF2_SUCCESS && d->rc == OTF2_SUCCESS)
    d->rc = rc;
}

static void write_regions(struct gdefs *d) {
  OTF2_StringRef empty = str(d, "");
  for (const struct ft_rt_region *r = ft_rt_regions; r->name; r++) {
    OTF2_RegionRole role = r->cls == FT_RC_COLL ? OTF2_REGION_ROLE_COLL_ALL2ALL
                           : r->cls <= FT_RC_SENDRECV
                               ? OTF2_REGION_ROLE_POINT2POINT
                               : OTF2_REGION_ROLE_FUNCTION;
    OTF2_StringRef name = str(d, r->name);
    gok(d, OTF2_GlobalDefWriter_WriteRegion(
               d->g, (OTF2_RegionRef)(r - ft_rt_regions), name, name, empty,
               role, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0));
  }
  for (int a = 0; a < FT_RA_COUNT; a++)
    gok(d, OTF2_GlobalDefWriter_WriteAttribute(d->g, (OTF2_AttributeRef)a,
                                               str(d, ft_rt_attr_names[a]),
                                               empty, attr_types[a]));
  OTF2_MetricMemberRef member = 0;
  gok(d, OTF2_GlobalDefWriter_WriteMetricMember(
             d->g, member, str(d, FT_RT_METRIC_MEMORY),
             str(d, "memory footprint of the rank (checkpoint image size)"),
             OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
             OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, str(d, "bytes")));
  gok(d, OTF2_GlobalDefWriter_WriteMetricClass(d->g, 0, 1, &member,
                                               OTF2_METRIC_ASYNCHRONOUS,
                                               OTF2_RECORDER_KIND_ABSTRACT));
}

/* Locations (one per rank, id = rank) and the Score-P-style groups: group
 * 0 lists the locations in rank order (COMM_LOCATIONS); communicator c has
 * group c + 1, its members as world ranks. */
static void write_locations(struct gdefs *d, const struct ft_rtrace *t,
                            const uint64_t *nevents) {
  OTF2_StringRef machine = str(d, "machine");
  gok(d, OTF2_GlobalDefWriter_WriteSystemTreeNode(
             d->g, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  OTF2_StringRef master = str(d, "Master thread");
  OTF2_StringRef speed = str(d, FT_RT_PROP_HOST_SPEED);
  uint64_t *locs = malloc(t->nranks * sizeof *locs);
  if (!locs) {
    d->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
    return;
  }
  for (uint32_t r = 0; r < t->nranks; r++) {
    char name[32];
    snprintf(name, sizeof name, "MPI Rank %u", r);
    gok(d, OTF2_GlobalDefWriter_WriteLocationGroup(
               d->g, r, str(d, name), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
               OTF2_UNDEFINED_LOCATION_GROUP));
    gok(d, OTF2_GlobalDefWriter_WriteLocation(
               d->g, r, master, OTF2_LOCATION_TYPE_CPU_THREAD, nevents[r], r));
    OTF2_AttributeValue v = {.float64 = t->ranks[r].host_speed};
    gok(d, OTF2_GlobalDefWriter_WriteLocationProperty(d->g, r, speed,
                                                      OTF2_TYPE_DOUBLE, v));
    locs[r] = r;
  }
  OTF2_StringRef empty = str(d, "");
  gok(d, OTF2_GlobalDefWriter_WriteGroup(
             d->g, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
             OTF2_GROUP_FLAG_NONE, t->nranks, locs));
  free(locs);
}

static void write_comms(struct gdefs *d, const struct ft_rtrace *t) {
  for (uint32_t c = 0; c < t->ncomms && d->rc == OTF2_SUCCESS; c++) {
    const struct ft_rt_comm *m = &t->comms[c];
    uint64_t *members = malloc((m->size ? m->size : 1) * sizeof *members);
    if (!members) {
      d->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
      return;
    }
    for (uint32_t i = 0; m->members && i < m->size; i++)
      members[i] = m->members[i];
    char name[32];
    if (c == FT_RT_COMM_WORLD)
      snprintf(name, sizeof name, "MPI_COMM_WORLD");
    else if (c == FT_RT_COMM_SELF)
      snprintf(name, sizeof name, "MPI_COMM_SELF");
    else
      snprintf(name, sizeof name, "ftsim comm %u", c);
    OTF2_StringRef sname = str(d, name);
    gok(d,
        OTF2_GlobalDefWriter_WriteGroup(d->g, c + 1, sname,
                                        m->members ? OTF2_GROUP_TYPE_COMM_GROUP
                                                   : OTF2_GROUP_TYPE_COMM_SELF,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        m->members ? m->size : 0, members));
    gok(d, OTF2_GlobalDefWriter_WriteComm(d->g, c, sname, c + 1,
                                          OTF2_UNDEFINED_COMM,
                                          OTF2_COMM_FLAG_NONE));
    free(members);
  }
}

/* The clock: ticks (c.res a second) of the recording's clock (simulated
 * time, or MPI_Wtime under --real), from the earliest timestamp over the
 * length of the run, as Score-P sets them. */
static int write_defs(OTF2_Archive *a, const struct ft_rtrace *t,
                      const uint64_t *nevents, struct clock c,
                      struct span_ticks all) {
  struct gdefs d = {.g = OTF2_Archive_GetGlobalDefWriter(a)};
  if (!d.g)
    return -1;
  str(&d, t->program); /* string 0: ProgramBegin's name */
  gok(&d, OTF2_GlobalDefWriter_WriteClockProperties(
              d.g, (uint64_t)c.res, all.first, all.last - all.first + 1,
              OTF2_UNDEFINED_TIMESTAMP));
  write_regions(&d);
  write_locations(&d, t, nevents);
  write_comms(&d, t);
  gok(&d, OTF2_Archive_CloseGlobalDefWriter(a, d.g));
  return d.rc == OTF2_SUCCESS ? 0 : -1;
}

/* Empty local definition files, one per location, as readers expect. */
static int write_local_defs(OTF2_Archive *a, uint32_t nranks) {
  if (OTF2_Archive_OpenDefFiles(a) != OTF2_SUCCESS)
    return -1;
  for (uint32_t r = 0; r < nranks; r++) {
    OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(a, r);
    if (!w || OTF2_Archive_CloseDefWriter(a, w) != OTF2_SUCCESS)
      return -1;
  }
  return OTF2_Archive_CloseDefFiles(a) == OTF2_SUCCESS ? 0 : -1;
}

static int set_props(OTF2_Archive *a, const struct ft_rtrace *t) {
  char creator[128];
  snprintf(creator, sizeof creator, "ftsim %s", t->version);
  return OTF2_Archive_SetCreator(a, creator) != OTF2_SUCCESS ||
                 OTF2_Archive_SetDescription(a, "ftsim recorded trace") !=
                     OTF2_SUCCESS ||
                 OTF2_Archive_SetProperty(a, FT_RT_PROP_PROGRAM, t->program,
                                          true) != OTF2_SUCCESS ||
                 OTF2_Archive_SetProperty(a, FT_RT_PROP_PLATFORM, t->platform,
                                          true) != OTF2_SUCCESS ||
                 OTF2_Archive_SetProperty(a, FT_RT_PROP_VERSION, t->version,
                                          true) != OTF2_SUCCESS
             ? -1
             : 0;
}

static int write_all(OTF2_Archive *a, const struct ft_rtrace *t,
                     uint64_t *nevents) {
  struct span_ticks all = {0, 0};
  struct clock c = choose_clock(t);
  if (OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL) !=
          OTF2_SUCCESS ||
      OTF2_Archive_SetSerialCollectiveCallbacks(a) != OTF2_SUCCESS ||
      set_props(a, t) || OTF2_Archive_OpenEvtFiles(a) != OTF2_SUCCESS)
    return -1;
  for (uint32_t r = 0; r < t->nranks; r++)
    if (write_rank(a, t, r, c, &nevents[r], &all))
      return -1;
  if (OTF2_Archive_CloseEvtFiles(a) != OTF2_SUCCESS ||
      write_local_defs(a, t->nranks))
    return -1;
  return write_defs(a, t, nevents, c, all);
}

int ft_rtrace_write_otf2(const struct ft_rtrace *t, const char *dir, char *err,
                         size_t errlen) {
  for (uint32_t r = 0; r < t->nranks; r++)
    if (check_rank(t, r, err, errlen))
      return -1;
  char anchor[4096];
  struct stat st;
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
  if (stat(anchor, &st) == 0)
    return fail(err, errlen, "%s: an archive is already there", anchor);
  if (mkdir(dir, 0777) && errno != EEXIST)
    return fail(err, errlen, "%s: %s", dir, strerror(errno));
  OTF2_Archive *a = OTF2_Archive_Open(
      dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  uint64_t *nevents = calloc(t->nranks, sizeof *nevents);
  if (!a || !nevents) {
    free(nevents);
    if (a)
      OTF2_Archive_Close(a);
    return fail(err, errlen, "%s: cannot create an OTF2 archive", dir);
  }
  int rc = write_all(a, t, nevents);
  free(nevents);
  if (OTF2_Archive_Close(a) != OTF2_SUCCESS)
    rc = -1;
  return rc ? fail(err, errlen, "%s: writing the OTF2 archive failed", dir) : 0;
}
