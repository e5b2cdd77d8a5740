/* The OTF2 reader: ftsim's archives and archives written the way Score-P
 * writes MPI events, into the model (rtrace.h). The mapping, record by
 * record: docs/trace-format.md. */
#include "rtrace.h"
#include "rtrace_otf2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

struct rd_group {
  uint64_t ref;
  OTF2_GroupType type;
  uint32_t n;
  uint64_t *members;
};

struct rd_comm {
  uint64_t ref, group, parent;
};

struct rd_loc {
  uint64_t ref, group;
  OTF2_LocationType type;
  double speed;
};

/* A request posted and not yet completed: its event on the rank. */
struct rd_req {
  uint64_t id;
  size_t ev; /* index + 1; 0: free slot */
};

/* The reader's state: the definitions, then one location at a time. */
struct rd {
  const char *path;
  char *err;
  size_t errlen;
  int failed;
  struct ft_rtrace *t;
  char **strs;
  size_t nstrs;
  uint64_t *region_name; /* by region ref: string ref */
  size_t nregions;
  uint64_t attr_name[64]; /* by attribute ref < 64: string ref */
  uint32_t attrs[FT_RA_COUNT];
  uint64_t member_name; /* the memory metric: member's name */
  uint64_t memory_member, memory_class;
  uint64_t speed_name; /* the location property's name ref */
  struct rd_group *groups;
  size_t ngroups;
  struct rd_comm *comms;
  size_t ncomms;
  uint32_t *comm_map; /* OTF2 comm ref -> model comm (dense refs) */
  size_t ncomm_map;
  struct rd_loc *locs;
  size_t nlocs;
  uint64_t resolution, offset;
  /* The location being read. */
  uint64_t loc;
  uint32_t rank;
  OTF2_TimeStamp prev, last;
  int depth;
  const struct ft_rt_region *cur;
  uint64_t cur_region;
  int emitted;
  struct rd_req *reqs;
  size_t capreqs, nreqs;
};

static int rd_fail(struct rd *r, uint64_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rd_fail(struct rd *r, uint64_t pos, const char *fmt, ...) {
  if (r->failed)
    return -1;
  r->failed = 1;
  int n = snprintf(
      r->err, r->errlen, "%s: location %llu (rank %u), event %llu: ", r->path,
      (unsigned long long)r->loc, r->rank, (unsigned long long)pos);
  if (n >= 0 && (size_t)n < r->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static const char *sref(const struct rd *r, uint64_t ref) {
  return ref < r->nstrs && r->strs[ref] ? r->strs[ref] : "";
}

/* --- global definitions --- */

static int grow_to(void **p, size_t *n, size_t need, size_t size) {
  if (need <= *n)
    return 0;
  void *q = realloc(*p, need * size);
  if (!q)
    return -1;
  memset((char *)q + *n * size, 0, (need - *n) * size);
  *p = q;
  *n = need;
  return 0;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off,
                                   uint64_t len, uint64_t rt) {
  struct rd *r = u;
  (void)len, (void)rt;
  r->resolution = res;
  r->offset = off;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self,
                                    const char *s) {
  struct rd *r = u;
  if (self > 1u << 26 ||
      grow_to((void **)&r->strs, &r->nstrs, self + 1, sizeof *r->strs))
    return OTF2_CALLBACK_ERROR;
  free(r->strs[self]);
  size_t n = strlen(s) + 1;
  r->strs[self] = malloc(n);
  if (r->strs[self])
    memcpy(r->strs[self], s, n);
  return r->strs[self] ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode def_attr(void *u, OTF2_AttributeRef self,
                                  OTF2_StringRef name, OTF2_StringRef desc,
                                  OTF2_Type type) {
  struct rd *r = u;
  (void)desc, (void)type;
  if (self < 64)
    r->attr_name[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self,
                                    OTF2_StringRef name, OTF2_StringRef canon,
                                    OTF2_StringRef desc, OTF2_RegionRole role,
                                    OTF2_Paradigm par, OTF2_RegionFlag flags,
                                    OTF2_StringRef file, uint32_t b,
                                    uint32_t e) {
  struct rd *r = u;
  (void)canon, (void)desc, (void)role, (void)par, (void)flags, (void)file;
  (void)b, (void)e;
  size_t n = r->nregions;
  if (self > 1u << 24 ||
      grow_to((void **)&r->region_name, &n, self + 1, sizeof *r->region_name))
    return OTF2_CALLBACK_ERROR;
  for (size_t i = r->nregions; i < n; i++)
    r->region_name[i] = OTF2_UNDEFINED_STRING;
  r->nregions = n;
  r->region_name[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self,
                                      OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t nev,
                                      OTF2_LocationGroupRef group) {
  struct rd *r = u;
  (void)name, (void)nev;
  struct rd_loc *l = realloc(r->locs, (r->nlocs + 1) * sizeof *l);
  if (!l)
    return OTF2_CALLBACK_ERROR;
  r->locs = l;
  l[r->nlocs++] = (struct rd_loc){self, group, type, 0};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self,
                                   OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm par, OTF2_GroupFlag flags,
                                   uint32_t n, const uint64_t *members) {
  struct rd *r = u;
  (void)name, (void)par, (void)flags;
  struct rd_group *g = realloc(r->groups, (r->ngroups + 1) * sizeof *g);
  if (!g)
    return OTF2_CALLBACK_ERROR;
  r->groups = g;
  uint64_t *m = malloc((n ? n : 1) * sizeof *m);
  if (!m)
    return OTF2_CALLBACK_ERROR;
  if (n)
    memcpy(m, members, n * sizeof *m);
  g[r->ngroups++] = (struct rd_group){self, type, n, m};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self,
                                  OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags) {
  struct rd *r = u;
  (void)name, (void)flags;
  struct rd_comm *c = realloc(r->comms, (r->ncomms + 1) * sizeof *c);
  if (!c)
    return OTF2_CALLBACK_ERROR;
  r->comms = c;
  c[r->ncomms++] = (struct rd_comm){self, group, parent};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_member(void *u, OTF2_MetricMemberRef self,
                                    OTF2_StringRef name, OTF2_StringRef desc,
                                    OTF2_MetricType mt, OTF2_MetricMode mode,
                                    OTF2_Type vt, OTF2_Base base, int64_t ex,
                                    OTF2_StringRef unit) {
  struct rd *r = u;
  (void)desc, (void)mt, (void)mode, (void)vt, (void)base, (void)ex, (void)unit;
  if (!strcmp(sref(r, name), FT_RT_METRIC_MEMORY))
    r->memory_member = self;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_class(void *u, OTF2_MetricRef self, uint8_t n,
                                   const OTF2_MetricMemberRef *members,
                                   OTF2_MetricOccurrence occ,
                                   OTF2_RecorderKind kind) {
  struct rd *r = u;
  (void)occ, (void)kind;
  if (n == 1 && members[0] == r->memory_member)
    r->memory_class = self;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_locprop(void *u, OTF2_LocationRef loc,
                                     OTF2_StringRef name, OTF2_Type type,
                                     OTF2_AttributeValue v) {
  struct rd *r = u;
  if (type != OTF2_TYPE_DOUBLE || strcmp(sref(r, name), FT_RT_PROP_HOST_SPEED))
    return OTF2_CALLBACK_SUCCESS;
  for (size_t i = 0; i < r->nlocs; i++)
    if (r->locs[i].ref == loc)
      r->locs[i].speed = v.float64;
  return OTF2_CALLBACK_SUCCESS;
}

static int read_global_defs(OTF2_Reader *rdr, struct rd *r) {
  OTF2_GlobalDefReader *g = OTF2_Reader_GetGlobalDefReader(rdr);
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  if (!g || !cb) {
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    return -1;
  }
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attr);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, def_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, def_class);
  OTF2_GlobalDefReaderCallbacks_SetLocationPropertyCallback(cb, def_locprop);
  OTF2_Reader_RegisterGlobalDefCallbacks(rdr, g, cb, r);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  return OTF2_Reader_ReadAllGlobalDefinitions(rdr, g, &n) == OTF2_SUCCESS ? 0
                                                                          : -1;
}

static const struct rd_group *find_group(const struct rd *r, uint64_t ref) {
  for (size_t i = 0; i < r->ngroups; i++)
    if (r->groups[i].ref == ref)
      return &r->groups[i];
  return NULL;
}

/* The ranks: the COMM_LOCATIONS group (Score-P, ftsim) lists the
 * locations in rank order; without one, each process's locations in
 * definition order. Returns the number of ranks, 0 if none. */
static uint32_t rank_locations(struct rd *r, uint64_t **locs) {
  for (size_t i = 0; i < r->ngroups; i++)
    if (r->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS && r->groups[i].n) {
      *locs = r->groups[i].members;
      return r->groups[i].n;
    }
  return 0;
}

/* Model communicators from the Comm definitions: a COMM_SELF group is
 * SELF, the first group of every rank in order is WORLD, others are
 * appended. */
static int map_comms(struct rd *r) {
  for (size_t i = 0; i < r->ncomms; i++) {
    const struct rd_comm *c = &r->comms[i];
    const struct rd_group *g = find_group(r, c->group);
    if (c->ref > 1u << 20)
      return -1;
    size_t n = r->ncomm_map;
    if (grow_to((void **)&r->comm_map, &n, c->ref + 1, sizeof *r->comm_map))
      return -1;
    for (size_t j = r->ncomm_map; j < n; j++)
      r->comm_map[j] = FT_RT_COMM_NULL;
    r->ncomm_map = n;
    if (!g)
      return -1;
    uint32_t id;
    int world = g->n == r->t->nranks;
    for (uint32_t k = 0; world && k < g->n; k++)
      world = g->members[k] == k;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF)
      id = FT_RT_COMM_SELF;
    else if (world && i == 0)
      id = FT_RT_COMM_WORLD;
    else {
      uint32_t *m = malloc((g->n ? g->n : 1) * sizeof *m);
      if (!m)
        return -1;
      for (uint32_t k = 0; k < g->n; k++)
        m[k] = (uint32_t)g->members[k];
      id = ft_rtrace_add_comm(r->t, g->n, m);
      free(m);
      if (id == FT_RT_COMM_NULL)
        return -1;
    }
    r->comm_map[c->ref] = id;
  }
  return 0;
}

static void map_attrs(struct rd *r) {
  for (int a = 0; a < FT_RA_COUNT; a++) {
    r->attrs[a] = OTF2_UNDEFINED_ATTRIBUTE;
    for (uint32_t i = 0; i < 64; i++)
      if (r->attr_name[i] != OTF2_UNDEFINED_STRING &&
          !strcmp(sref(r, r->attr_name[i]), ft_rt_attr_names[a]))
        r->attrs[a] = i;
  }
}

static void read_props(OTF2_Reader *rdr, struct ft_rtrace *t) {
  static const char *const names[] = {FT_RT_PROP_PROGRAM, FT_RT_PROP_PLATFORM,
                                      FT_RT_PROP_VERSION};
  char **dst[] = {&t->program, &t->platform, &t->version};
  for (int i = 0; i < 3; i++) {
    char *v = NULL;
    if (OTF2_Reader_GetProperty(rdr, names[i], &v) == OTF2_SUCCESS && v)
      ft_rtrace_set_string(dst[i], v);
    free(v);
  }
}

/* --- events --- */

static int64_t attr_get(const struct rd *r, OTF2_AttributeList *al,
                        enum ft_rt_attr a, int64_t dflt) {
  OTF2_Type type;
  OTF2_AttributeValue v;
  if (!al || r->attrs[a] == OTF2_UNDEFINED_ATTRIBUTE ||
      !OTF2_AttributeList_TestAttributeByID(al, r->attrs[a]) ||
      OTF2_AttributeList_GetAttributeByID(al, r->attrs[a], &type, &v) !=
          OTF2_SUCCESS)
    return dflt;
  switch (type) {
  case OTF2_TYPE_UINT8:
    return v.uint8;
  case OTF2_TYPE_INT8:
    return v.int8;
  case OTF2_TYPE_INT32:
    return v.int32;
  case OTF2_TYPE_UINT32:
    return v.uint32;
  case OTF2_TYPE_INT64:
    return v.int64;
  default:
    return (int64_t)v.uint64;
  }
}

/* A communicator in an ftsim attribute (an OTF2 comm ref, like the
 * records'), as a model communicator; `dflt` when absent or unknown. */
static uint32_t attr_comm(const struct rd *r, OTF2_AttributeList *al,
                          enum ft_rt_attr a, uint32_t dflt) {
  int64_t c = attr_get(r, al, a, -1);
  if (c >= 0 && (uint64_t)c < r->ncomm_map && r->comm_map[c] != FT_RT_COMM_NULL)
    return r->comm_map[c];
  return dflt;
}

static uint32_t comm_of(struct rd *r, uint64_t pos, OTF2_CommRef c) {
  if (c < r->ncomm_map && r->comm_map[c] != FT_RT_COMM_NULL)
    return r->comm_map[c];
  rd_fail(r, pos, "undefined communicator %llu", (unsigned long long)c);
  return FT_RT_COMM_NULL;
}

static int32_t peer_of(uint32_t v) {
  return v == OTF2_UNDEFINED_UINT32 ? FT_RT_UNKNOWN : (int32_t)v;
}

static struct ft_rt_event *emit(struct rd *r, uint64_t pos,
                                const struct ft_rt_event *e) {
  struct ft_rt_event *p = ft_rtrace_append(r->t, r->rank, e);
  if (!p)
    rd_fail(r, pos, "out of memory");
  r->emitted = 1;
  return p;
}

/* The pending-request table: open addressing on the request id. */
static struct rd_req *req_slot(struct rd *r, uint64_t id, int insert) {
  if (insert && r->capreqs == 0) {
    r->reqs = calloc(1024, sizeof *r->reqs);
    r->capreqs = r->reqs ? 1024 : 0;
  }
  for (size_t i = 0, h = (size_t)(id * 0x9E3779B97F4A7C15ull); i < r->capreqs;
       i++) {
    struct rd_req *s = &r->reqs[(h + i) & (r->capreqs - 1)];
    if (s->ev && s->id == id)
      return s;
    if (!s->ev)
      return insert ? s : NULL;
  }
  return NULL;
}

static int req_put(struct rd *r, uint64_t id, size_t ev) {
  if (r->capreqs && r->nreqs * 2 >= r->capreqs) {
    struct rd_req *old = r->reqs;
    size_t n = r->capreqs;
    r->reqs = calloc(2 * n, sizeof *r->reqs);
    if (!r->reqs)
      return -1;
    r->capreqs = 2 * n;
    for (size_t i = 0; i < n; i++)
      if (old[i].ev)
        *req_slot(r, old[i].id, 1) = old[i];
    free(old);
  }
  struct rd_req *s = req_slot(r, id, 1);
  if (!s)
    return -1;
  r->nreqs += s->ev == 0; /* ids are reused once completed: overwrite */
  *s = (struct rd_req){id, ev + 1};
  return 0;
}

#define EVT_ARGS                                                               \
  OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,            \
      OTF2_AttributeList *al
#define UNUSED_EVT (void)loc, (void)time, (void)al

static OTF2_CallbackCode cb_rc(const struct rd *r) {
  return r->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_enter(EVT_ARGS, OTF2_RegionRef region) {
  struct rd *r = u;
  UNUSED_EVT;
  const char *name =
      region < r->nregions ? sref(r, r->region_name[region]) : "";
  const struct ft_rt_region *reg = ft_rt_region_find(name);
  r->last = time;
  if (!reg && !strncmp(name, "MPI_", 4)) {
    rd_fail(r, pos,
            "unsupported MPI call %s (ftsim replays point-to-point, "
            "collectives and communicators, not RMA, I/O or "
            "non-blocking collectives)",
            name);
    return cb_rc(r);
  }
  if (!reg || r->depth++ > 0)
    return OTF2_CALLBACK_SUCCESS; /* user code, or inside an MPI call */
  if (time > r->prev) {
    struct ft_rt_event e = {.kind = FT_RT_COMPUTE};
    e.u.compute_s = (double)(time - r->prev) / (double)r->resolution;
    emit(r, pos, &e);
  }
  r->cur = reg;
  r->cur_region = region;
  r->emitted = 0;
  return cb_rc(r);
}

/* A call that left no record of its own: its event from attributes. */
static void leave_default(struct rd *r, uint64_t pos, OTF2_AttributeList *al) {
  struct ft_rt_event e = {0};
  const struct ft_rt_region *c = r->cur;
  if (c->cls == FT_RC_COMPLETE) {
    if (ft_rtrace_append_complete(r->t, r->rank, c->sub, NULL, 0))
      rd_fail(r, pos, "out of memory");
    return;
  }
  if (c->cls == FT_RC_PROBE) {
    e.kind = FT_RT_PROBE;
    e.u.probe = (struct ft_rt_probe){
        .blocking = c->sub,
        .found = (int8_t)attr_get(r, al, FT_RA_FOUND, -1),
        .comm = attr_comm(r, al, FT_RA_COMM, FT_RT_COMM_WORLD),
        .peer = (int32_t)attr_get(r, al, FT_RA_PEER, FT_RT_UNKNOWN),
        .tag = (int32_t)attr_get(r, al, FT_RA_TAG, FT_RT_UNKNOWN),
        .msg_peer = (int32_t)attr_get(r, al, FT_RA_MSG_PEER, FT_RT_UNKNOWN),
        .msg_tag = (int32_t)attr_get(r, al, FT_RA_MSG_TAG, FT_RT_UNKNOWN),
        .msg_bytes = (uint64_t)attr_get(r, al, FT_RA_BYTES, 0)};
  } else if (c->cls == FT_RC_CANCEL) {
    e.kind = FT_RT_CANCEL;
    e.u.p2p.flags = c->sub ? FT_RT_FREE : 0;
    e.u.p2p.request = (uint64_t)attr_get(r, al, FT_RA_REQUEST, 0);
  } else if (c->cls == FT_RC_COMM) {
    e.kind = FT_RT_COMM;
    e.u.comm.op = c->sub;
    e.u.comm.comm = FT_RT_COMM_NULL;
  } else if (c->cls != FT_RC_IGNORED) {
    rd_fail(r, pos, "%s without its MPI record", c->name);
    return;
  } else {
    return;
  }
  emit(r, pos, &e);
}

/* Attributes on the Leave of a communicator call (ftsim's). */
static void leave_comm(struct rd *r, OTF2_AttributeList *al) {
  struct ft_rt_event *e = &r->t->ranks[r->rank].ev[r->t->ranks[r->rank].n - 1];
  if (e->kind != FT_RT_COMM)
    return;
  e->u.comm.parent = attr_comm(
      r, al, FT_RA_PARENT,
      e->u.comm.op == FT_RT_COMM_FREE ? FT_RT_COMM_NULL : FT_RT_COMM_WORLD);
  e->u.comm.color = (int32_t)attr_get(r, al, FT_RA_COLOR, FT_RT_UNKNOWN);
  e->u.comm.key = (int32_t)attr_get(r, al, FT_RA_KEY, FT_RT_UNKNOWN);
}

static OTF2_CallbackCode ev_leave(EVT_ARGS, OTF2_RegionRef region) {
  struct rd *r = u;
  UNUSED_EVT;
  const char *name =
      region < r->nregions ? sref(r, r->region_name[region]) : "";
  r->last = time;
  if (!ft_rt_region_find(name) || r->depth == 0 || --r->depth > 0)
    return OTF2_CALLBACK_SUCCESS;
  if (!r->emitted)
    leave_default(r, pos, al);
  if (!r->failed && r->cur->cls == FT_RC_COMM)
    leave_comm(r, al);
  r->prev = time;
  r->cur = NULL;
  return cb_rc(r);
}

/* The class of the MPI call a record belongs to, refusing records out of
 * place. */
static int in_call(struct rd *r, uint64_t pos, const char *record, int cls1,
                   int cls2) {
  if (r->cur && (r->cur->cls == cls1 || r->cur->cls == cls2))
    return 0;
  return rd_fail(r, pos, "record %s inside %s", record,
                 r->cur ? r->cur->name : "no MPI call");
}

static OTF2_CallbackCode ev_send(EVT_ARGS, uint32_t to, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
  struct rd *r = u;
  UNUSED_EVT;
  if (in_call(r, pos, "MpiSend", FT_RC_SEND, FT_RC_SENDRECV))
    return cb_rc(r);
  struct ft_rt_event e = {0};
  if (r->cur->cls == FT_RC_SENDRECV) {
    e.kind = FT_RT_SENDRECV;
    e.u.sendrecv = (struct ft_rt_sendrecv){.comm = comm_of(r, pos, comm),
                                           .dest = peer_of(to),
                                           .send_tag = (int32_t)tag,
                                           .send_bytes = len,
                                           .source = FT_RT_UNKNOWN,
                                           .recv_tag = FT_RT_UNKNOWN};
  } else {
    e.kind = FT_RT_SEND;
    e.u.p2p = (struct ft_rt_p2p){
        comm_of(r, pos, comm), peer_of(to), (int32_t)tag, r->cur->sub, len, 0};
  }
  emit(r, pos, &e);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_isend(EVT_ARGS, uint32_t to, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  if (in_call(r, pos, "MpiIsend", FT_RC_ISEND, FT_RC_ISEND))
    return cb_rc(r);
  struct ft_rt_event e = {.kind = FT_RT_ISEND};
  e.u.p2p = (struct ft_rt_p2p){comm_of(r, pos, comm), peer_of(to), (int32_t)tag,
                               r->cur->sub,           len,         req};
  if (emit(r, pos, &e) && req_put(r, req, r->t->ranks[r->rank].n - 1))
    rd_fail(r, pos, "out of memory");
  return cb_rc(r);
}

static OTF2_CallbackCode ev_recv(EVT_ARGS, uint32_t from, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
  struct rd *r = u;
  UNUSED_EVT;
  if (in_call(r, pos, "MpiRecv", FT_RC_RECV, FT_RC_SENDRECV))
    return cb_rc(r);
  uint32_t wild = (uint32_t)attr_get(r, al, FT_RA_WILDCARD, 0) |
                  (attr_get(r, al, FT_RA_TRUNCATED, 0) ? FT_RT_TRUNCATED : 0u);
  struct ft_rtrace_rank *k = &r->t->ranks[r->rank];
  if (r->cur->cls == FT_RC_SENDRECV) {
    if (!r->emitted || k->ev[k->n - 1].kind != FT_RT_SENDRECV) {
      rd_fail(r, pos, "MpiRecv of an MPI_Sendrecv before its MpiSend");
      return cb_rc(r);
    }
    struct ft_rt_sendrecv *s = &k->ev[k->n - 1].u.sendrecv;
    s->source = peer_of(from);
    s->recv_tag = (int32_t)tag;
    s->recv_bytes = len;
    s->flags = wild;
    return cb_rc(r);
  }
  struct ft_rt_event e = {.kind = FT_RT_RECV};
  e.u.p2p = (struct ft_rt_p2p){
      comm_of(r, pos, comm), peer_of(from), (int32_t)tag, wild, len, 0};
  emit(r, pos, &e);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_irecv_request(EVT_ARGS, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  if (in_call(r, pos, "MpiIrecvRequest", FT_RC_IRECV, FT_RC_IRECV))
    return cb_rc(r);
  struct ft_rt_event e = {.kind = FT_RT_IRECV};
  e.u.p2p =
      (struct ft_rt_p2p){attr_comm(r, al, FT_RA_COMM, FT_RT_COMM_WORLD),
                         (int32_t)attr_get(r, al, FT_RA_PEER, FT_RT_UNKNOWN),
                         (int32_t)attr_get(r, al, FT_RA_TAG, FT_RT_UNKNOWN),
                         (uint32_t)attr_get(r, al, FT_RA_WILDCARD, 0),
                         (uint64_t)attr_get(r, al, FT_RA_BYTES, 0),
                         req};
  if (emit(r, pos, &e) && req_put(r, req, r->t->ranks[r->rank].n - 1))
    rd_fail(r, pos, "out of memory");
  return cb_rc(r);
}

/* One entry of the completion call being read; the call's event is made
 * by its first record. The posting event gives what the record does not
 * say, and a receive's completion patches its posting event (Score-P
 * tells an irecv's source, tag and size only here). */
static void complete(struct rd *r, uint64_t pos, const char *record,
                     uint64_t req, uint8_t status, const struct ft_rt_done *m) {
  if (in_call(r, pos, record, FT_RC_COMPLETE, FT_RC_COMPLETE))
    return;
  struct ft_rtrace_rank *k = &r->t->ranks[r->rank];
  struct rd_req *s = req_slot(r, req, 0);
  if (!s) {
    rd_fail(r, pos, "%s of request %llu, never posted", record,
            (unsigned long long)req);
    return;
  }
  struct ft_rt_p2p *post = &k->ev[s->ev - 1].u.p2p;
  struct ft_rt_done d = {
      req,         status,     k->ev[s->ev - 1].kind == FT_RT_IRECV,
      post->comm,  post->peer, post->tag,
      post->bytes, 0};
  if (m) {
    d = *m;
    post->comm = m->comm, post->peer = m->peer, post->tag = m->tag;
    post->bytes = m->bytes;
    post->flags |= m->truncated ? FT_RT_TRUNCATED : 0u;
  }
  if (!r->emitted) {
    if (ft_rtrace_append_complete(r->t, r->rank, r->cur->sub, &d, 1))
      rd_fail(r, pos, "out of memory");
    r->emitted = 1;
  } else if (ft_rtrace_complete_add(r->t, r->rank, &d)) {
    rd_fail(r, pos, "out of memory");
  }
}

static OTF2_CallbackCode ev_isend_complete(EVT_ARGS, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  complete(r, pos, "MpiIsendComplete", req, FT_RT_DONE, NULL);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_irecv(EVT_ARGS, uint32_t from, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  struct ft_rt_done d = {req,
                         FT_RT_DONE,
                         1,
                         comm_of(r, pos, comm),
                         peer_of(from),
                         (int32_t)tag,
                         len,
                         attr_get(r, al, FT_RA_TRUNCATED, 0) != 0};
  complete(r, pos, "MpiIrecv", req, FT_RT_DONE, &d);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_test(EVT_ARGS, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  complete(r, pos, "MpiRequestTest", req, FT_RT_NOT_DONE, NULL);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_cancelled(EVT_ARGS, uint64_t req) {
  struct rd *r = u;
  UNUSED_EVT;
  complete(r, pos, "MpiRequestCancelled", req, FT_RT_CANCELLED, NULL);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_coll_begin(EVT_ARGS) {
  struct rd *r = u;
  UNUSED_EVT;
  in_call(r, pos, "MpiCollectiveBegin", FT_RC_COLL, FT_RC_COLL);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_coll_end(EVT_ARGS, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t recvd) {
  struct rd *r = u;
  UNUSED_EVT;
  if (in_call(r, pos, "MpiCollectiveEnd", FT_RC_COLL, FT_RC_COLL))
    return cb_rc(r);
  int mop = ft_rt_coll_from_otf2(op);
  if (!mop) {
    rd_fail(r, pos, "unsupported collective operation %u in %s", op,
            r->cur->name);
    return cb_rc(r);
  }
  struct ft_rt_event e = {.kind = FT_RT_COLL};
  e.u.coll = (struct ft_rt_coll){
      (uint8_t)mop,
      comm_of(r, pos, comm),
      root == OTF2_UNDEFINED_UINT32 ? -1 : (int32_t)root,
      sent,
      recvd,
      (uint8_t)(attr_get(r, al, FT_RA_COLL_FLAGS, 0) & FT_RT_NONCOMMUTATIVE)};
  emit(r, pos, &e);
  return cb_rc(r);
}

static void comm_record(struct rd *r, uint64_t pos, const char *record,
                        OTF2_CommRef comm) {
  if (in_call(r, pos, record, FT_RC_COMM, FT_RC_COMM))
    return;
  struct ft_rt_event e = {.kind = FT_RT_COMM};
  e.u.comm = (struct ft_rt_comm_ev){r->cur->sub, FT_RT_COMM_WORLD,
                                    comm_of(r, pos, comm), FT_RT_UNKNOWN,
                                    FT_RT_UNKNOWN};
  emit(r, pos, &e);
}

static OTF2_CallbackCode ev_comm_create(EVT_ARGS, OTF2_CommRef comm) {
  struct rd *r = u;
  UNUSED_EVT;
  comm_record(r, pos, "CommCreate", comm);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_comm_destroy(EVT_ARGS, OTF2_CommRef comm) {
  struct rd *r = u;
  UNUSED_EVT;
  comm_record(r, pos, "CommDestroy", comm);
  return cb_rc(r);
}

static OTF2_CallbackCode ev_metric(EVT_ARGS, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types,
                                   const OTF2_MetricValue *values) {
  struct rd *r = u;
  UNUSED_EVT;
  if (metric != r->memory_class || n != 1 || types[0] != OTF2_TYPE_UINT64)
    return OTF2_CALLBACK_SUCCESS; /* another metric (PAPI...): not replayed */
  struct ft_rt_event e = {.kind = FT_RT_COMPUTE};
  if (r->depth == 0 && time > r->prev) { /* the compute before it, first */
    e.u.compute_s = (double)(time - r->prev) / (double)r->resolution;
    emit(r, pos, &e);
    r->prev = time;
  }
  e = (struct ft_rt_event){.kind = FT_RT_MEMORY};
  e.u.memory = values[0].unsigned_int;
  emit(r, pos, &e);
  return cb_rc(r);
}

/* The location's start (Score-P's, and ftsim's since it writes the
 * recording's times): the computation before the first call counts from
 * here, not from the archive's clock offset (the earliest of every
 * location's). */
static OTF2_CallbackCode ev_program_begin(EVT_ARGS, OTF2_StringRef name,
                                          uint32_t nargs,
                                          const OTF2_StringRef *args) {
  struct rd *r = u;
  (void)loc, (void)al, (void)pos, (void)name, (void)nargs, (void)args;
  if (r->depth == 0 && r->t->ranks[r->rank].n == 0 && time > r->prev)
    r->prev = r->last = time;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_program_end(EVT_ARGS, int64_t status) {
  struct rd *r = u;
  (void)loc, (void)al, (void)pos, (void)status;
  r->last = time;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode refuse(struct rd *r, uint64_t pos,
                                const char *record) {
  rd_fail(r, pos, "unsupported record %s (ftsim does not replay it)", record);
  return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode ev_unknown(EVT_ARGS) {
  UNUSED_EVT;
  return refuse(u, pos, "of a kind unknown to OTF2 " OTF2_VERSION);
}

static OTF2_CallbackCode ev_rma_win(EVT_ARGS, OTF2_RmaWinRef win) {
  UNUSED_EVT, (void)win;
  return refuse(u, pos, "RmaWinCreate (one-sided MPI)");
}

static OTF2_CallbackCode ev_rma_put(EVT_ARGS, OTF2_RmaWinRef w, uint32_t rem,
                                    uint64_t b, uint64_t id) {
  UNUSED_EVT, (void)w, (void)rem, (void)b, (void)id;
  return refuse(u, pos, "RmaPut (one-sided MPI)");
}

static OTF2_CallbackCode ev_rma_get(EVT_ARGS, OTF2_RmaWinRef w, uint32_t rem,
                                    uint64_t b, uint64_t id) {
  UNUSED_EVT, (void)w, (void)rem, (void)b, (void)id;
  return refuse(u, pos, "RmaGet (one-sided MPI)");
}

static OTF2_CallbackCode ev_nbc(EVT_ARGS, uint64_t req) {
  UNUSED_EVT, (void)req;
  return refuse(u, pos, "NonBlockingCollectiveRequest");
}

static OTF2_EvtReaderCallbacks *event_callbacks(void) {
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  if (!cb)
    return NULL;
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, ev_test);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(cb, ev_comm_create);
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(cb, ev_comm_destroy);
  OTF2_EvtReaderCallbacks_SetMetricCallback(cb, ev_metric);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, ev_program_begin);
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, ev_program_end);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, ev_unknown);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, ev_rma_win);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, ev_rma_put);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, ev_rma_get);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, ev_nbc);
  return cb;
}

static int read_rank(OTF2_Reader *rdr, struct rd *r, uint32_t rank,
                     uint64_t loc) {
  r->rank = rank;
  r->loc = loc;
  r->prev = r->last = r->offset;
  r->depth = 0;
  r->cur = NULL;
  r->nreqs = 0;
  if (r->reqs)
    memset(r->reqs, 0, r->capreqs * sizeof *r->reqs);
  for (size_t i = 0; i < r->nlocs; i++)
    if (r->locs[i].ref == loc)
      r->t->ranks[rank].host_speed = r->locs[i].speed;
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rdr, loc);
  OTF2_EvtReaderCallbacks *cb = event_callbacks();
  if (!er || !cb) {
    OTF2_EvtReaderCallbacks_Delete(cb);
    return rd_fail(r, 0, "cannot read the location's events");
  }
  OTF2_Reader_RegisterEvtCallbacks(rdr, er, cb, r);
  OTF2_EvtReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalEvents(rdr, er, &n);
  OTF2_Reader_CloseEvtReader(rdr, er);
  if (r->failed)
    return -1;
  if (rc != OTF2_SUCCESS)
    return rd_fail(r, n, "malformed or truncated event file: %s",
                   OTF2_Error_GetDescription(rc));
  if (r->depth)
    return rd_fail(r, n, "the trace ends inside %s",
                   r->cur ? r->cur->name : "an MPI call");
  if (r->last > r->prev) { /* computation after the last MPI call */
    struct ft_rt_event e = {.kind = FT_RT_COMPUTE};
    e.u.compute_s = (double)(r->last - r->prev) / (double)r->resolution;
    emit(r, n, &e);
  }
  return r->failed ? -1 : 0;
}

static void rd_free(struct rd *r) {
  for (size_t i = 0; i < r->nstrs; i++)
    free(r->strs[i]);
  for (size_t i = 0; i < r->ngroups; i++)
    free(r->groups[i].members);
  free(r->strs);
  free(r->region_name);
  free(r->groups);
  free(r->comms);
  free(r->comm_map);
  free(r->locs);
  free(r->reqs);
}

/* Opens the definitions of every selected location and reads them (OTF2
 * requires it before their events), then each selected rank's events. */
static int read_events(OTF2_Reader *rdr, struct rd *r, const uint64_t *locs,
                       uint32_t nranks, int rank) {
  for (uint32_t i = 0; i < nranks; i++)
    if (rank < 0 || (uint32_t)rank == i)
      OTF2_Reader_SelectLocation(rdr, locs[i]);
  int defs = OTF2_Reader_OpenDefFiles(rdr) == OTF2_SUCCESS;
  if (OTF2_Reader_OpenEvtFiles(rdr) != OTF2_SUCCESS)
    return rd_fail(r, 0, "cannot open the event files");
  for (uint32_t i = 0; i < nranks; i++) {
    if (rank >= 0 && (uint32_t)rank != i)
      continue;
    char def[4200];
    struct stat st;
    snprintf(def, sizeof def, "%.*s/%llu.def", (int)(strlen(r->path) - 5),
             r->path, (unsigned long long)locs[i]);
    OTF2_DefReader *d = defs && stat(def, &st) == 0
                            ? OTF2_Reader_GetDefReader(rdr, locs[i])
                            : NULL;
    if (d) {
      uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(rdr, d, &n);
      OTF2_Reader_CloseDefReader(rdr, d);
    }
  }
  if (defs)
    OTF2_Reader_CloseDefFiles(rdr);
  int rc = 0;
  for (uint32_t i = 0; i < nranks && !rc; i++)
    if (rank < 0 || (uint32_t)rank == i)
      rc = read_rank(rdr, r, i, locs[i]);
  OTF2_Reader_CloseEvtFiles(rdr);
  return rc;
}

static struct ft_rtrace *read_archive(OTF2_Reader *rdr, struct rd *r,
                                      int rank) {
  r->memory_member = r->memory_class = OTF2_UNDEFINED_UINT64;
  for (int i = 0; i < 64; i++)
    r->attr_name[i] = OTF2_UNDEFINED_STRING;
  r->resolution = 1;
  if (OTF2_Reader_SetSerialCollectiveCallbacks(rdr) != OTF2_SUCCESS ||
      read_global_defs(rdr, r)) {
    rd_fail(r, 0, "malformed global definitions");
    return NULL;
  }
  uint64_t *locs = NULL;
  uint32_t nranks = rank_locations(r, &locs);
  if (!nranks) {
    rd_fail(r, 0, "no MPI ranks (no COMM_LOCATIONS group)");
    return NULL;
  }
  if (rank >= (int)nranks) {
    rd_fail(r, 0, "no rank %d (the archive has %u)", rank, nranks);
    return NULL;
  }
  if (!r->resolution)
    r->resolution = 1;
  r->t = ft_rtrace_new(nranks);
  if (!r->t || map_comms(r)) {
    rd_fail(r, 0, "malformed communicator definitions");
    return NULL;
  }
  map_attrs(r);
  read_props(rdr, r->t);
  if (read_events(rdr, r, locs, nranks, rank))
    return NULL;
  struct ft_rtrace *t = r->t;
  r->t = NULL;
  return t;
}

struct ft_rtrace *ft_rtrace_read_otf2(const char *path, int rank, char *err,
                                      size_t errlen) {
  char anchor[4096];
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", path);
  else
    snprintf(anchor, sizeof anchor, "%s", path);
  struct rd r = {.path = anchor, .err = err, .errlen = errlen};
  r.rank = UINT32_MAX;
  if (stat(anchor, &st) != 0) {
    snprintf(err, errlen, "%s: no such OTF2 archive", anchor);
    return NULL;
  }
  OTF2_Reader *rdr = OTF2_Reader_Open(anchor);
  if (!rdr) {
    snprintf(err, errlen, "%s: not a readable OTF2 archive", anchor);
    return NULL;
  }
  struct ft_rtrace *t = read_archive(rdr, &r, rank);
  OTF2_Reader_Close(rdr);
  ft_rtrace_free(r.t);
  rd_free(&r);
  return t;
}
