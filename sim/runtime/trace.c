/* Event traces for the trace checker (see trace.h; the format is in
 * README.md, "Traces", and sim/check/trace_check.h). */
#define _POSIX_C_SOURCE 200809L
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "runtime.h"

/* This module's state: the rank's (struct ft_runtime.trace). The entry
 * points take it here; the static functions are handed it. */

int ft_trace_on(struct ft_runtime *rt) { return (&rt->trace)->enabled; }

/* ---- Sequence numbers per channel ---- */

enum { DIR_SEND, DIR_RECV, DIR_SUPPRESS };

struct chan_key {
  int comm, coll, peer, tag, dir;
};

struct ft_trace_slot {
  struct chan_key key;
  int64_t count; /* 0: slot empty */
};

static size_t hash_key(const struct chan_key *k) {
  uint64_t h = 1469598103934665603ull;
  const int v[5] = {k->comm, k->coll, k->peer, k->tag, k->dir};
  for (int i = 0; i < 5; i++)
    h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
  return (size_t)(h ^ (h >> 29));
}

static int same_key(const struct chan_key *a, const struct chan_key *b) {
  return a->comm == b->comm && a->coll == b->coll && a->peer == b->peer &&
         a->tag == b->tag && a->dir == b->dir;
}

static struct ft_trace_slot *find_slot(struct ft_trace_slot *table, size_t cap,
                                       const struct chan_key *k) {
  for (size_t i = hash_key(k) & (cap - 1);; i = (i + 1) & (cap - 1))
    if (table[i].count == 0 || same_key(&table[i].key, k))
      return &table[i];
}

static void grow(struct ft_trace_state *t) {
  size_t cap = t->cap_slots ? 2 * t->cap_slots : 256;
  struct ft_trace_slot *table = calloc(cap, sizeof *table);
  if (!table)
    ft_fatal("out of memory for the trace's channel counts");
  for (size_t i = 0; i < t->cap_slots; i++)
    if (t->slots[i].count)
      *find_slot(table, cap, &t->slots[i].key) = t->slots[i];
  free(t->slots);
  t->slots = table;
  t->cap_slots = cap;
}

/* The next sequence number on a channel. */
static int64_t next_seq(struct ft_trace_state *t, int comm, int coll, int peer,
                        int tag, int dir) {
  struct chan_key k = {comm, coll, peer, tag, dir};
  if (2 * (t->n_slots + 1) > t->cap_slots)
    grow(t);
  struct ft_trace_slot *s = find_slot(t->slots, t->cap_slots, &k);
  if (s->count == 0) {
    s->key = k;
    t->n_slots++;
  }
  return ++s->count;
}

static void reset_counts(struct ft_trace_state *t) {
  if (t->slots)
    memset(t->slots, 0, t->cap_slots * sizeof *t->slots);
  t->n_slots = 0;
}

/* ---- Provisional channel-state records: the message id of each
 * delivery the core asked to RECORD, until STORE says which to keep ---- */

static void push_provisional(struct ft_trace_state *t,
                             const struct ft_trace_provisional *p) {
  if (t->n_prov == t->cap_prov) {
    size_t cap = t->cap_prov ? 2 * t->cap_prov : 64;
    struct ft_trace_provisional *q = realloc(t->prov, cap * sizeof *q);
    if (!q)
      ft_fatal("out of memory for the trace's channel-state records");
    t->prov = q;
    t->cap_prov = cap;
  }
  t->prov[t->n_prov++] = *p;
}

/* ---- Output ---- */

/* 64 random bits (the clock and the process id if /dev/urandom fails). */
static uint64_t draw_run_id(void) {
  uint64_t id = 0;
  FILE *f = fopen("/dev/urandom", "rb");
  if (!f || fread(&id, sizeof id, 1, f) != 1) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    id = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
         ((uint64_t)getpid() << 40);
  }
  if (f)
    fclose(f);
  return id ? id : 1;
}

/* Under SMPI every rank of the run is in one process: its id and start
 * time (/proc/self/stat, field 22) name the run, the same on every rank,
 * without a broadcast, which would take simulated time in traced runs only
 * (a trace observes: the failures' time 0 is before it, fate.h). 0 when
 * /proc cannot tell. The pid read there, not getpid(), which SMPI maps to
 * each rank's own. */
static uint64_t process_run_id(void) {
  char buf[1024];
  FILE *f = fopen("/proc/self/stat", "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')');
  unsigned long long start = 0;
  /* after the name: state (3), then fields 4..21, then starttime (22) */
  if (!p || sscanf(p + 2,
                   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u "
                   "%*u %*d %*d %*d %*d %*d %*d %llu",
                   &start) != 1)
    return 0;
  unsigned long long pid = strtoull(buf, NULL, 10);
  uint64_t id = ((uint64_t)pid << 32) ^ (start * 0x9e3779b97f4a7c15u);
  return id ? id : 1;
}

void ft_trace_start(struct ft_runtime *rt) {
  rt->trace.enabled = rt->options.trace[0] != '\0';
  if (!rt->trace.enabled)
    return;
  uint64_t id = ft_backend_simulated() ? process_run_id() : 0;
  if (id == 0) { /* reference mode: rank 0 draws, every rank hears it */
    int rank = 0;
    FT_PMPI(Comm_rank, MPI_COMM_WORLD, &rank);
    id = rank == 0 ? draw_run_id() : 0;
    FT_PMPI(Bcast, &id, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  }
  rt->trace_run = id;
}

/* "# app NAME" after the header: the program's name (argv[0] without its
 * directory, a space or control character as '?'), for the timeline's
 * title; a comment to every other reader. Nothing when unknown. */
static void app_comment(FILE *out, const char *argv0) {
  const char *name = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
  if (!*name)
    return;
  fputs("# app ", out);
  for (int i = 0; name[i] && i < 64; i++)
    fputc((unsigned char)name[i] <= ' ' || name[i] == 0x7f ? '?' : name[i],
          out);
  fputc('\n', out);
}

static void open_file(struct ft_trace_state *t, struct ft_runtime *rt) {
  int rank = 0;
  FT_PMPI(Comm_rank, MPI_COMM_WORLD, &rank);
  t->rank = rank;
  snprintf(t->path, sizeof t->path, "%s.%d", rt->options.trace, rank);
  t->out = fopen(t->path, "w");
  if (!t->out)
    ft_fatal("rank %d cannot write its trace %s", rank, t->path);
  /* failure=kill: a kill cuts the trace at a record's end, not 64 KiB
   * before it (ftsim check reads a killed launch's records). */
  if (rt->options.failure == FT_FAILURE_KILL)
    setvbuf(t->out, NULL, _IOLBF, 1 << 16);
  else
    setvbuf(t->out, NULL, _IOFBF, 1 << 16);
  fprintf(t->out,
          "# ftsim-trace 3 rank %d ranks %d protocol %s family %s run "
          "%016llx%s\n",
          rank, rt->app_ranks, rt->protocol ? rt->protocol->name : "none",
          rt->protocol ? ft_family_name(rt->protocol->family) : "none",
          (unsigned long long)rt->trace_run,
          ft_backend_simulated() ? "" : " mode real");
  app_comment(t->out, rt->argv && rt->argv[0] ? rt->argv[0] : "");
}

void ft_trace_open(struct ft_runtime *rt) {
  if (rt->trace.enabled && !rt->trace.out) {
    open_file(&rt->trace, rt);
    if (fflush(rt->trace.out) != 0)
      ft_fatal("cannot write the trace %s", rt->trace.path);
  }
}

/* Starts a record of `t`: time, rank, incarnation, kind. */
static FILE *line(struct ft_runtime *rt, struct ft_trace_state *t,
                  const char *kind) {
  if (!t->out)
    open_file(t, rt);
  fprintf(t->out, "%.9f %d %d %s", ft_backend_now(), t->rank, rt->incarnation,
          kind);
  return t->out;
}

/* Rare records are flushed at once: a run that ends abruptly (a deadlock,
 * an abort) keeps its waves and rollbacks. */
static void end_line(struct ft_trace_state *t, int flush) {
  fputc('\n', t->out);
  if (flush && fflush(t->out) != 0)
    ft_fatal("cannot write the trace %s", t->path);
}

void ft_trace_stop(struct ft_runtime *rt) {
  struct ft_trace_state *t = &rt->trace;
  if (!t->enabled)
    return;
  if (t->out || rt->world_rank < rt->app_ranks) {
    line(rt, t, "end");
    end_line(t, 0);
  }
  if (t->out && fclose(t->out) != 0)
    ft_fatal("cannot write the trace %s", t->path);
  t->out = NULL;
  free(t->slots);
  t->slots = NULL;
  t->n_slots = t->cap_slots = 0;
  free(t->prov);
  t->prov = NULL;
  t->n_prov = t->cap_prov = 0;
}

/* ---- Messages ---- */

static void message(struct ft_runtime *rt, struct ft_trace_state *t,
                    const char *kind, int comm, int coll, int peer, int tag,
                    int64_t seq, uint64_t bytes) {
  fprintf(line(rt, t, kind), " %d %c %d %d %lld %llu", comm, coll ? 'c' : 'p',
          peer, tag, (long long)seq, (unsigned long long)bytes);
  end_line(t, 0);
}

void ft_trace_app_send_(struct ft_runtime *rt, MPI_Comm user, int dest, int tag,
                        uint64_t bytes) {
  struct ft_comm *c = ft_comm_get(rt, user);
  int comm = c->name, peer = ft_comm_app_rank(c, dest);
  struct ft_trace_state *t = (&rt->trace);
  message(rt, t, "send", comm, 0, peer, tag,
          next_seq(t, comm, 0, peer, tag, DIR_SEND), bytes);
}

void ft_trace_app_delivery_(struct ft_runtime *rt, MPI_Comm user,
                            const MPI_Status *status, uint64_t bytes) {
  struct ft_comm *c = ft_comm_get(rt, user);
  int comm = c->name, peer = ft_comm_app_rank(c, status->MPI_SOURCE);
  int tag = status->MPI_TAG;
  struct ft_trace_state *t = (&rt->trace);
  int64_t seq = next_seq(t, comm, 0, peer, tag, DIR_RECV);
  t->last_delivery = (struct ft_trace_provisional){
      .peer = peer, .comm = comm, .tag = tag, .seq = seq};
  message(rt, t, "deliver", comm, 0, peer, tag, seq, bytes);
}

/* The entry whose collective shadow is `inner`, or NULL. */
static struct ft_comm *coll_comm(struct ft_runtime *rt, MPI_Comm inner) {
  struct ft_comm *c;
  for (int i = 0; (c = ft_comm_at(rt, i)) != NULL; i++)
    if (c->coll == inner)
      return c;
  return NULL;
}

void ft_trace_coll_send_(struct ft_runtime *rt, MPI_Comm inner, int dest,
                         int tag, int count, MPI_Datatype type) {
  struct ft_comm *c = coll_comm(rt, inner);
  if (!c || dest == MPI_PROC_NULL || rt->coll_unit) /* a unit's: untraced */
    return;
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  int comm = c->name, peer = ft_comm_app_rank(c, dest);
  struct ft_trace_state *t = (&rt->trace);
  message(rt, t, "send", comm, 1, peer, tag,
          next_seq(t, comm, 1, peer, tag, DIR_SEND),
          count > 0 && size > 0 ? (uint64_t)count * (uint64_t)size : 0);
}

void ft_trace_coll_delivery_(struct ft_runtime *rt, MPI_Comm inner, int source,
                             int tag) {
  struct ft_comm *c = coll_comm(rt, inner);
  if (!c || source == MPI_PROC_NULL || rt->coll_unit)
    return;
  int comm = c->name, peer = ft_comm_app_rank(c, source);
  struct ft_trace_state *t = (&rt->trace);
  int64_t seq = next_seq(t, comm, 1, peer, tag, DIR_RECV);
  t->last_delivery = (struct ft_trace_provisional){
      .peer = peer, .comm = comm, .tag = tag, .seq = seq, .coll = 1};
  message(rt, t, "deliver", comm, 1, peer, tag, seq, 0);
}

int64_t ft_trace_message_(struct ft_runtime *rt, int deliver, int comm,
                          int coll, int peer, int tag, uint64_t bytes) {
  struct ft_trace_state *t = &rt->trace;
  int64_t seq =
      next_seq(t, comm, coll, peer, tag, deliver ? DIR_RECV : DIR_SEND);
  if (deliver)
    t->last_delivery = (struct ft_trace_provisional){
        .peer = peer, .comm = comm, .tag = tag, .seq = seq, .coll = coll};
  message(rt, t, deliver ? "deliver" : "send", comm, coll, peer, tag, seq,
          bytes);
  return seq;
}

void ft_trace_resend_(struct ft_runtime *rt, int comm, int coll, int peer,
                      int tag, uint64_t bytes) {
  struct ft_trace_state *t = (&rt->trace);
  message(rt, t, "resend", comm, coll, peer, tag,
          next_seq(t, comm, coll, peer, tag, DIR_SEND), bytes);
}

void ft_trace_suppress_(struct ft_runtime *rt, int comm, int coll, int peer,
                        int tag) {
  struct ft_trace_state *t = (&rt->trace);
  message(rt, t, "suppress", comm, coll, peer, tag,
          next_seq(t, comm, coll, peer, tag, DIR_SUPPRESS), 0);
}

/* ---- Protocol events ---- */

/* A core's control message: its kind by the name its family gives it
 * (ft_control_name), or by number if the family names none. */
static void control(struct ft_trace_state *t, struct ft_runtime *rt,
                    const char *kind, const struct ft_control *c, int peer) {
  const char *name = ft_control_name(rt->protocol->family, c->kind);
  FILE *f = line(rt, t, kind);
  if (name)
    fprintf(f, " %s", name);
  else
    fprintf(f, " %d", c->kind);
  fprintf(f, " %d %d %lld", peer, c->wave, (long long)c->value);
  end_line(t, 0);
}

void ft_trace_event_(struct ft_runtime *rt, const struct ft_event *e) {
  struct ft_trace_state *t = (&rt->trace);
  switch (e->type) {
  case FT_EVENT_SAFE_POINT:
    fprintf(line(rt, t, "safe"), " %lld", (long long)e->index);
    end_line(t, 0);
    break;
  case FT_EVENT_CONTROL:
    control(t, rt, "ctl-recv", &e->control, e->control.from);
    break;
  case FT_EVENT_RESTART:
    t->blocking = 0; /* the wait it left is abandoned */
    break;
  case FT_EVENT_ROLLBACK:
    t->blocking = 0;
    reset_counts(t); /* a fresh world: both sides count from 0 again */
    t->n_prov = 0;
    fprintf(line(rt, t, "rollback"), " %d %lld", e->wave, (long long)e->index);
    end_line(t, 1);
    break;
  default:
    break;
  }
}

/* STORE: the provisional records inside the ranges are the channel state of
 * the wave. */
static void store(struct ft_runtime *rt, struct ft_trace_state *t,
                  const struct ft_update *u) {
  const struct ft_trace_provisional *prov = t->prov;
  for (size_t i = 0; i < t->n_prov; i++)
    for (size_t k = 0; k < u->n_keep; k++)
      if (u->keep[k].peer == prov[i].peer &&
          prov[i].number >= u->keep[k].first &&
          prov[i].number <= u->keep[k].last) {
        fprintf(line(rt, t, "chanrec"), " %d %d %c %d %d %lld", u->wave,
                prov[i].comm, prov[i].coll ? 'c' : 'p', prov[i].peer,
                prov[i].tag, (long long)prov[i].seq);
        end_line(t, 0);
        break;
      }
  t->n_prov = 0;
  fprintf(line(rt, t, "store"), " %d", u->wave);
  end_line(t, 1);
}

void ft_trace_update_(struct ft_runtime *rt, const struct ft_update *u) {
  struct ft_trace_state *t = (&rt->trace);
  if (u->flags & FT_UPDATE_RECORD) {
    struct ft_trace_provisional p = t->last_delivery;
    p.number = u->index;
    push_provisional(t, &p);
  }
  if (rt->ac.on && (u->flags & (FT_UPDATE_CAPTURE | FT_UPDATE_CHECKPOINT))) {
    /* any-call mode: the cut is the call the rank is in, now */
    fprintf(line(rt, t, "safe"), " %lld",
            (long long)((u->flags & FT_UPDATE_CAPTURE) ? u->index
                                                       : rt->safe_points));
    end_line(t, 0);
  }
  if (u->flags & FT_UPDATE_CAPTURE) {
    fprintf(line(rt, t, "ckpt"), " %d %lld", u->wave, (long long)u->index);
    end_line(t, 1);
  }
  for (size_t i = 0; i < u->n_sends; i++)
    control(t, rt, "ctl-send", &u->sends[i], u->sends[i].to);
  if (u->flags & FT_UPDATE_CHECKPOINT) {
    fprintf(line(rt, t, "ckpt"), " %d %lld", u->wave,
            (long long)rt->safe_points);
    end_line(t, 1);
  }
  if ((u->flags & FT_UPDATE_COMMIT) && rt->driver->commit) /* else: the
                                                             dispatcher */
    ft_trace_commit_(rt, u->wave, rt->incarnation);
  if (u->flags & FT_UPDATE_STORE)
    store(rt, t, u);
}

void ft_trace_restore_(struct ft_runtime *rt,
                       const struct ft_local_image *img) {
  struct ft_trace_state *t = (&rt->trace);
  fprintf(line(rt, t, "restore"), " %d %lld", rt->restore_wave,
          (long long)img->index);
  end_line(t, 1);
}

void ft_trace_line_(struct ft_runtime *rt, int flush, const char *kind,
                    const char *fmt, ...) {
  va_list ap;
  struct ft_trace_state *t = (&rt->trace);
  FILE *f = line(rt, t, kind);
  fputc(' ', f);
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  end_line(t, flush);
}

void ft_trace_compute_(struct ft_runtime *rt, double start) {
  fprintf(line(rt, &rt->trace, "compute"), " %.9f", start);
  end_line(&rt->trace, 0);
}

int ft_trace_block_begin_(struct ft_runtime *rt) {
  struct ft_trace_state *t = &rt->trace;
  if (t->blocking || rt->world_rank >= rt->app_ranks) /* a service rank's */
    return 0;
  t->blocking = 1;
  t->block_since = ft_backend_now();
  return 1;
}

void ft_trace_block_end_(struct ft_runtime *rt, int write) {
  struct ft_trace_state *t = &rt->trace;
  if (!t->blocking)
    return;
  t->blocking = 0;
  if (!write)
    return;
  fprintf(line(rt, t, "block"), " %.9f", t->block_since);
  end_line(t, 0);
}

void ft_trace_image_(struct ft_runtime *rt, int wave, double start) {
  fprintf(line(rt, &rt->trace, "image"), " %d %.9f", wave, start);
  end_line(&rt->trace, 0);
}

void ft_trace_commit_(struct ft_runtime *rt, int wave, int inc) {
  struct ft_trace_state *t = (&rt->trace);
  fprintf(line(rt, t, "commit"), " %d %d", wave, inc);
  end_line(t, 1);
}
