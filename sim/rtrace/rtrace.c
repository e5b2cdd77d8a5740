/* The recorded-trace model: allocation, appends, names, comparison and
 * per-rank figures (rtrace.h). */
#include "rtrace.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

struct ft_rtrace *ft_rtrace_new(uint32_t nranks) {
  if (nranks == 0)
    return NULL;
  struct ft_rtrace *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->nranks = nranks;
  t->ranks = calloc(nranks, sizeof *t->ranks);
  t->program = dup_str("");
  t->platform = dup_str("");
  t->version = dup_str("");
  uint32_t *world = malloc(nranks * sizeof *world);
  if (!t->ranks || !t->program || !t->platform || !t->version || !world) {
    free(world);
    ft_rtrace_free(t);
    return NULL;
  }
  for (uint32_t i = 0; i < nranks; i++)
    world[i] = i;
  int ok = ft_rtrace_add_comm(t, nranks, world) == FT_RT_COMM_WORLD &&
           ft_rtrace_add_comm(t, 1, NULL) == FT_RT_COMM_SELF;
  free(world);
  if (!ok) {
    ft_rtrace_free(t);
    return NULL;
  }
  return t;
}

void ft_rtrace_free(struct ft_rtrace *t) {
  if (!t)
    return;
  for (uint32_t i = 0; t->ranks && i < t->nranks; i++) {
    free(t->ranks[i].ev);
    free(t->ranks[i].done);
    free(t->ranks[i].span);
  }
  for (uint32_t i = 0; i < t->ncomms; i++)
    free(t->comms[i].members);
  free(t->comms);
  free(t->ranks);
  free(t->program);
  free(t->platform);
  free(t->version);
  free(t);
}

int ft_rtrace_set_string(char **dst, const char *s) {
  char *d = dup_str(s);
  if (!d)
    return -1;
  free(*dst);
  *dst = d;
  return 0;
}

uint32_t ft_rtrace_add_comm(struct ft_rtrace *t, uint32_t size,
                            const uint32_t *members) {
  struct ft_rt_comm *c = realloc(t->comms, (t->ncomms + 1) * sizeof *c);
  if (!c)
    return FT_RT_COMM_NULL;
  t->comms = c;
  uint32_t *m = NULL;
  if (members) {
    m = malloc((size ? size : 1) * sizeof *m);
    if (!m)
      return FT_RT_COMM_NULL;
    memcpy(m, members, size * sizeof *m);
  }
  c[t->ncomms] = (struct ft_rt_comm){.size = size, .members = m};
  return t->ncomms++;
}

/* Grows an array of `size`-byte items to hold at least `need`. */
static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  void *q = realloc(*p, c * size);
  if (!q)
    return -1;
  *p = q;
  *cap = c;
  return 0;
}

struct ft_rt_event *ft_rtrace_append(struct ft_rtrace *t, uint32_t r,
                                     const struct ft_rt_event *ev) {
  struct ft_rtrace_rank *k = &t->ranks[r];
  if (grow((void **)&k->ev, &k->cap, k->n + 1, sizeof *k->ev) ||
      (k->span &&
       grow((void **)&k->span, &k->capspan, k->n + 1, sizeof *k->span)))
    return NULL;
  if (k->span)
    k->span[k->n] = (struct ft_rt_span){0, 0};
  k->ev[k->n] = *ev;
  return &k->ev[k->n++];
}

int ft_rtrace_keep_times(struct ft_rtrace *t, uint32_t r) {
  struct ft_rtrace_rank *k = &t->ranks[r];
  if (k->span)
    return 0;
  size_t cap = 0;
  struct ft_rt_span *s = NULL;
  if (grow((void **)&s, &cap, k->n + 1, sizeof *s))
    return -1;
  memset(s, 0, cap * sizeof *s);
  k->span = s;
  k->capspan = cap;
  return 0;
}

int ft_rtrace_append_complete(struct ft_rtrace *t, uint32_t r, uint8_t call,
                              const struct ft_rt_done *done, uint32_t count) {
  struct ft_rtrace_rank *k = &t->ranks[r];
  if (grow((void **)&k->done, &k->capdone, k->ndone + count, sizeof *done))
    return -1;
  struct ft_rt_event ev = {.kind = FT_RT_COMPLETE};
  ev.u.complete.call = call;
  ev.u.complete.first = (uint32_t)k->ndone;
  ev.u.complete.count = count;
  if (!ft_rtrace_append(t, r, &ev))
    return -1;
  if (count)
    memcpy(k->done + k->ndone, done, count * sizeof *done);
  k->ndone += count;
  return 0;
}

int ft_rtrace_complete_add(struct ft_rtrace *t, uint32_t r,
                           const struct ft_rt_done *d) {
  struct ft_rtrace_rank *k = &t->ranks[r];
  if (grow((void **)&k->done, &k->capdone, k->ndone + 1, sizeof *d))
    return -1;
  k->done[k->ndone++] = *d;
  k->ev[k->n - 1].u.complete.count++;
  return 0;
}

static const char *name_of(const char *const *names, size_t n, unsigned i) {
  return i < n && names[i] ? names[i] : "?";
}

const char *ft_rt_kind_name(unsigned kind) {
  static const char *const names[FT_RT_KIND_COUNT] = {
      NULL,       "send",     "isend",  "recv",  "irecv",
      "sendrecv", "complete", "cancel", "probe", "collective",
      "comm",     "compute",  "memory"};
  return name_of(names, FT_RT_KIND_COUNT, kind);
}

const char *ft_rt_call_name(unsigned call) {
  static const char *const names[FT_RT_CALL_COUNT] = {
      NULL,       "MPI_Wait",    "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
      "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome"};
  return name_of(names, FT_RT_CALL_COUNT, call);
}

const char *ft_rt_coll_name(unsigned op) {
  static const char *const names[FT_RT_COLL_COUNT] = {
      NULL,
      "MPI_Barrier",
      "MPI_Bcast",
      "MPI_Gather",
      "MPI_Gatherv",
      "MPI_Scatter",
      "MPI_Scatterv",
      "MPI_Allgather",
      "MPI_Allgatherv",
      "MPI_Alltoall",
      "MPI_Alltoallv",
      "MPI_Alltoallw",
      "MPI_Allreduce",
      "MPI_Reduce",
      "MPI_Reduce_scatter",
      "MPI_Reduce_scatter_block",
      "MPI_Scan",
      "MPI_Exscan"};
  return name_of(names, FT_RT_COLL_COUNT, op);
}

const char *ft_rt_comm_op_name(unsigned op) {
  static const char *const names[FT_RT_COMM_OP_COUNT] = {
      NULL, "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_create",
      "MPI_Comm_free"};
  return name_of(names, FT_RT_COMM_OP_COUNT, op);
}

static int differ(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int differ(char *why, size_t whylen, const char *fmt, ...) {
  if (why && whylen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
  }
  return 0;
}

/* Events compared field by field (a union's padding may differ). */
static int event_equal(const struct ft_rtrace_rank *ka,
                       const struct ft_rtrace_rank *kb, size_t i) {
  const struct ft_rt_event *a = &ka->ev[i], *b = &kb->ev[i];
  if (a->kind != b->kind)
    return 0;
  switch (a->kind) {
  case FT_RT_SEND:
  case FT_RT_ISEND:
  case FT_RT_RECV:
  case FT_RT_IRECV:
  case FT_RT_CANCEL:
    return a->u.p2p.comm == b->u.p2p.comm && a->u.p2p.peer == b->u.p2p.peer &&
           a->u.p2p.tag == b->u.p2p.tag && a->u.p2p.flags == b->u.p2p.flags &&
           a->u.p2p.bytes == b->u.p2p.bytes &&
           a->u.p2p.request == b->u.p2p.request;
  case FT_RT_SENDRECV: {
    const struct ft_rt_sendrecv *x = &a->u.sendrecv, *y = &b->u.sendrecv;
    return x->comm == y->comm && x->dest == y->dest &&
           x->send_tag == y->send_tag && x->source == y->source &&
           x->recv_tag == y->recv_tag && x->flags == y->flags &&
           x->send_bytes == y->send_bytes && x->recv_bytes == y->recv_bytes;
  }
  case FT_RT_COMPLETE: {
    const struct ft_rt_complete *x = &a->u.complete, *y = &b->u.complete;
    if (x->call != y->call || x->count != y->count)
      return 0;
    for (uint32_t j = 0; j < x->count; j++) {
      const struct ft_rt_done *p = &ka->done[x->first + j],
                              *q = &kb->done[y->first + j];
      if (p->request != q->request || p->status != q->status ||
          p->is_recv != q->is_recv || p->comm != q->comm ||
          p->peer != q->peer || p->tag != q->tag || p->bytes != q->bytes ||
          p->truncated != q->truncated)
        return 0;
    }
    return 1;
  }
  case FT_RT_PROBE: {
    const struct ft_rt_probe *x = &a->u.probe, *y = &b->u.probe;
    return x->blocking == y->blocking && x->found == y->found &&
           x->comm == y->comm && x->peer == y->peer && x->tag == y->tag &&
           x->msg_peer == y->msg_peer && x->msg_tag == y->msg_tag &&
           x->msg_bytes == y->msg_bytes;
  }
  case FT_RT_COLL:
    return a->u.coll.op == b->u.coll.op && a->u.coll.comm == b->u.coll.comm &&
           a->u.coll.root == b->u.coll.root &&
           a->u.coll.sent == b->u.coll.sent &&
           a->u.coll.recvd == b->u.coll.recvd &&
           a->u.coll.flags == b->u.coll.flags;
  case FT_RT_COMM:
    return a->u.comm.op == b->u.comm.op &&
           a->u.comm.parent == b->u.comm.parent &&
           a->u.comm.comm == b->u.comm.comm &&
           a->u.comm.color == b->u.comm.color && a->u.comm.key == b->u.comm.key;
  case FT_RT_COMPUTE:
    return fabs(a->u.compute_s - b->u.compute_s) <= 1e-9;
  case FT_RT_MEMORY:
    return a->u.memory == b->u.memory;
  default:
    return 0;
  }
}

static int comms_equal(const struct ft_rtrace *a, const struct ft_rtrace *b,
                       char *why, size_t whylen) {
  if (a->ncomms != b->ncomms)
    return differ(why, whylen, "communicators: %u vs %u", a->ncomms, b->ncomms);
  for (uint32_t c = 0; c < a->ncomms; c++) {
    const struct ft_rt_comm *x = &a->comms[c], *y = &b->comms[c];
    if (x->size != y->size || !x->members != !y->members ||
        (x->members &&
         memcmp(x->members, y->members, x->size * sizeof *x->members)))
      return differ(why, whylen, "communicator %u differs", c);
  }
  return 1;
}

int ft_rtrace_equal(const struct ft_rtrace *a, const struct ft_rtrace *b,
                    char *why, size_t whylen) {
  if (a->nranks != b->nranks)
    return differ(why, whylen, "ranks: %u vs %u", a->nranks, b->nranks);
  if (strcmp(a->program, b->program) || strcmp(a->platform, b->platform) ||
      strcmp(a->version, b->version))
    return differ(why, whylen, "metadata differs: %s/%s/%s vs %s/%s/%s",
                  a->program, a->platform, a->version, b->program, b->platform,
                  b->version);
  if (!comms_equal(a, b, why, whylen))
    return 0;
  for (uint32_t r = 0; r < a->nranks; r++) {
    const struct ft_rtrace_rank *ka = &a->ranks[r], *kb = &b->ranks[r];
    double hs = fabs(ka->host_speed - kb->host_speed);
    if (hs > 1e-9 * fabs(ka->host_speed))
      return differ(why, whylen, "rank %u: host speed %g vs %g", r,
                    ka->host_speed, kb->host_speed);
    if (ka->n != kb->n)
      return differ(why, whylen, "rank %u: %zu events vs %zu", r, ka->n, kb->n);
    for (size_t i = 0; i < ka->n; i++)
      if (!event_equal(ka, kb, i))
        return differ(why, whylen, "rank %u: event %zu differs", r, i);
  }
  return 1;
}

static void stat_event(const struct ft_rtrace_rank *k,
                       const struct ft_rt_event *e, struct ft_rtrace_stat *s) {
  switch (e->kind) {
  case FT_RT_SEND:
  case FT_RT_ISEND:
    s->sent += e->u.p2p.bytes;
    break;
  case FT_RT_RECV:
    s->recvd += e->u.p2p.bytes;
    break;
  case FT_RT_SENDRECV:
    s->sent += e->u.sendrecv.send_bytes;
    s->recvd += e->u.sendrecv.recv_bytes;
    break;
  case FT_RT_COMPLETE:
    for (uint32_t j = 0; j < e->u.complete.count; j++) {
      const struct ft_rt_done *d = &k->done[e->u.complete.first + j];
      if (d->is_recv && d->status == FT_RT_DONE)
        s->recvd += d->bytes;
    }
    break;
  case FT_RT_COLL:
    s->sent += e->u.coll.sent;
    s->recvd += e->u.coll.recvd;
    break;
  case FT_RT_COMPUTE:
    s->compute_s += e->u.compute_s;
    break;
  case FT_RT_MEMORY:
    if (e->u.memory > s->peak_memory)
      s->peak_memory = e->u.memory;
    break;
  default:
    break;
  }
}

void ft_rtrace_rank_stat(const struct ft_rtrace *t, uint32_t r,
                         struct ft_rtrace_stat *s) {
  memset(s, 0, sizeof *s);
  const struct ft_rtrace_rank *k = &t->ranks[r];
  for (size_t i = 0; i < k->n; i++) {
    const struct ft_rt_event *e = &k->ev[i];
    if (e->kind < FT_RT_KIND_COUNT)
      s->by_kind[e->kind]++;
    stat_event(k, e, s);
  }
}
