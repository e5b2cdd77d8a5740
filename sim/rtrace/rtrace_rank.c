/* One rank's recording file and the merge of a run's files
 * (rtrace_rank.h). Lines (docs/trace-format.md, "Rank files"):
 *
 *   ftsim-rank-record VERSION
 *   rank WORLD_RANK NRANKS HOST_SPEED
 *   comm ID NAME SIZE MEMBER...          (ids from 2, in order)
 *   p KIND COMM PEER TAG FLAGS BYTES REQUEST   (send, isend, recv, irecv,
 *                                               cancel)
 *   s COMM DEST STAG SOURCE RTAG FLAGS SBYTES RBYTES
 *   c CALL COUNT, then COUNT lines
 *   d REQUEST STATUS IS_RECV COMM PEER TAG BYTES TRUNCATED
 *   q BLOCKING FOUND COMM PEER TAG MSG_PEER MSG_TAG MSG_BYTES
 *   o OP COMM ROOT SENT RECVD FLAGS
 *   m OP PARENT COMM COLOR KEY
 *   t SECONDS (C99 hexadecimal: exact)
 *   k BYTES
 *   w BEGIN END   (the previous event's span, seconds in C99 hexadecimal;
 *                  after every event when the rank keeps times)
 *   end LINES CHECKSUM   (lines before it; FNV-1a 64 of their bytes)
 */
#include "rtrace_rank.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

enum { LINE_MAX_BYTES = 512 };

struct writer {
  FILE *out;
  uint64_t hash;
  uint64_t lines;
  int failed;
};

static uint64_t fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

#define FNV_START 14695981039346656037ull

static void put(struct writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes one line (fmt without its newline), hashed and counted. */
static void put(struct writer *w, const char *fmt, ...) {
  char line[LINE_MAX_BYTES];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof line - 1) {
    w->failed = 1;
    return;
  }
  line[n++] = '\n';
  w->hash = fnv(w->hash, line, (size_t)n);
  w->lines++;
  if (fwrite(line, 1, (size_t)n, w->out) != (size_t)n)
    w->failed = 1;
}

static void put_event(struct writer *w, const struct ft_rtrace_rank *k,
                      const struct ft_rt_event *e) {
  switch (e->kind) {
  case FT_RT_SENDRECV: {
    const struct ft_rt_sendrecv *s = &e->u.sendrecv;
    put(w,
        "s %" PRIu32 " %" PRId32 " %" PRId32 " %" PRId32 " %" PRId32 " %" PRIu32
        " %" PRIu64 " %" PRIu64,
        s->comm, s->dest, s->send_tag, s->source, s->recv_tag, s->flags,
        s->send_bytes, s->recv_bytes);
    return;
  }
  case FT_RT_COMPLETE: {
    const struct ft_rt_complete *c = &e->u.complete;
    put(w, "c %u %" PRIu32, (unsigned)c->call, c->count);
    for (uint32_t i = 0; i < c->count; i++) {
      const struct ft_rt_done *d = &k->done[c->first + i];
      put(w,
          "d %" PRIu64 " %u %u %" PRIu32 " %" PRId32 " %" PRId32 " %" PRIu64
          " %u",
          d->request, (unsigned)d->status, (unsigned)d->is_recv, d->comm,
          d->peer, d->tag, d->bytes, (unsigned)d->truncated);
    }
    return;
  }
  case FT_RT_PROBE: {
    const struct ft_rt_probe *q = &e->u.probe;
    put(w,
        "q %u %d %" PRIu32 " %" PRId32 " %" PRId32 " %" PRId32 " %" PRId32
        " %" PRIu64,
        (unsigned)q->blocking, (int)q->found, q->comm, q->peer, q->tag,
        q->msg_peer, q->msg_tag, q->msg_bytes);
    return;
  }
  case FT_RT_COLL: {
    const struct ft_rt_coll *o = &e->u.coll;
    put(w, "o %u %" PRIu32 " %" PRId32 " %" PRIu64 " %" PRIu64 " %u",
        (unsigned)o->op, o->comm, o->root, o->sent, o->recvd,
        (unsigned)o->flags);
    return;
  }
  case FT_RT_COMM: {
    const struct ft_rt_comm_ev *m = &e->u.comm;
    put(w, "m %u %" PRIu32 " %" PRIu32 " %" PRId32 " %" PRId32, (unsigned)m->op,
        m->parent, m->comm, m->color, m->key);
    return;
  }
  case FT_RT_COMPUTE:
    put(w, "t %a", e->u.compute_s);
    return;
  case FT_RT_MEMORY:
    put(w, "k %" PRIu64, e->u.memory);
    return;
  default: {
    const struct ft_rt_p2p *p = &e->u.p2p;
    put(w,
        "p %u %" PRIu32 " %" PRId32 " %" PRId32 " %" PRIu32 " %" PRIu64
        " %" PRIu64,
        (unsigned)e->kind, p->comm, p->peer, p->tag, p->flags, p->bytes,
        p->request);
  }
  }
}

static void put_comms(struct writer *w, const struct ft_rtrace *t,
                      const int32_t *names) {
  char line[LINE_MAX_BYTES];
  for (uint32_t c = 2; c < t->ncomms; c++) {
    const struct ft_rt_comm *m = &t->comms[c];
    /* A long member list goes out in pieces: "comm ID NAME SIZE" then
     * "+ MEMBER..." lines of at most 32 members. */
    put(w, "comm %" PRIu32 " %" PRId32 " %" PRIu32, c, names[c], m->size);
    for (uint32_t i = 0; i < m->size; i += 32) {
      size_t n = (size_t)snprintf(line, sizeof line, "+");
      for (uint32_t j = i; j < m->size && j < i + 32; j++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %" PRIu32,
                              m->members ? m->members[j] : 0);
      put(w, "%s", line);
    }
  }
}

int ft_rtrace_write_rank(const struct ft_rtrace *t, const int32_t *names,
                         uint32_t world_rank, uint32_t nranks, const char *path,
                         char *err, size_t errlen) {
  struct writer w = {.out = fopen(path, "w"), .hash = FNV_START};
  if (!w.out) {
    snprintf(err, errlen, "%s: cannot create the rank's record", path);
    return -1;
  }
  const struct ft_rtrace_rank *k = &t->ranks[0];
  put(&w, "ftsim-rank-record %d", FT_RTRACE_RANK_VERSION);
  put(&w, "rank %" PRIu32 " %" PRIu32 " %a", world_rank, nranks, k->host_speed);
  put_comms(&w, t, names);
  for (size_t i = 0; i < k->n; i++) {
    put_event(&w, k, &k->ev[i]);
    if (k->span)
      put(&w, "w %a %a", k->span[i].begin, k->span[i].end);
  }
  uint64_t lines = w.lines, hash = w.hash;
  put(&w, "end %" PRIu64 " %016" PRIx64, lines, hash);
  if (fclose(w.out) != 0 || w.failed) {
    snprintf(err, errlen, "%s: cannot write the rank's record", path);
    return -1;
  }
  return 0;
}

/* ---- Reading ---- */

struct reader {
  const char *path;
  char *text;
  size_t size;
  size_t line; /* 1-based number of the line being parsed */
  char *err;
  size_t errlen;
};

static int bad(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "PATH:LINE: " and the text (line 0: the file as a whole). Returns -1. */
static int bad(struct reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_line_v(r->err, r->errlen, r->path, (long)r->line, NULL, fmt, ap);
  va_end(ap);
  return -1;
}

static int slurp(struct reader *r) {
  FILE *in = fopen(r->path, "rb");
  if (!in)
    return bad(r, "cannot open the rank's record (the rank did not write "
                  "it: did it reach MPI_Finalize?)");
  size_t cap = 1 << 16;
  r->text = malloc(cap + 1);
  while (r->text) {
    r->size += fread(r->text + r->size, 1, cap - r->size, in);
    if (r->size < cap)
      break;
    char *bigger = realloc(r->text, 2 * cap + 1);
    if (!bigger)
      free(r->text);
    r->text = bigger;
    cap *= 2;
  }
  int failed = ferror(in);
  fclose(in);
  if (!r->text || failed)
    return bad(r, "cannot read the rank's record");
  r->text[r->size] = '\0';
  return 0;
}

/* Checks the end line: the last line of the file, with the count and the
 * checksum of the lines before it. Cuts the text before it. */
static int check_end(struct reader *r) {
  size_t n = r->size;
  if (n == 0 || r->text[n - 1] != '\n')
    return bad(r, "truncated: no end line (the rank stopped writing)");
  size_t start = n - 1;
  while (start > 0 && r->text[start - 1] != '\n')
    start--;
  uint64_t lines = 0, sum = 0, hash;
  char tail;
  if (sscanf(r->text + start, "end %" SCNu64 " %" SCNx64 "%c", &lines, &sum,
             &tail) != 3 ||
      tail != '\n')
    return bad(r, "truncated: the last line is not the end line");
  hash = fnv(FNV_START, r->text, start);
  uint64_t counted = 0;
  for (size_t i = 0; i < start; i++)
    counted += r->text[i] == '\n';
  r->line = counted + 1;
  if (counted != lines || hash != sum)
    return bad(r,
               "the end line says %" PRIu64 " lines, checksum %016" PRIx64
               ", the file holds %" PRIu64 " lines, checksum %016" PRIx64
               ": altered or truncated",
               lines, sum, counted, hash);
  r->text[start] = '\0';
  return 0;
}

static int read_comm(struct reader *r, struct ft_rtrace_rank_file *f,
                     char **cursor, const char *line) {
  uint32_t id, size;
  int32_t name;
  if (sscanf(line, "comm %" SCNu32 " %" SCNd32 " %" SCNu32, &id, &name,
             &size) != 3 ||
      id != f->t->ncomms || size > (1u << 24))
    return bad(r, "malformed comm line (expected comm %u NAME SIZE)",
               (unsigned)f->t->ncomms);
  uint32_t *m = malloc((size ? size : 1) * sizeof *m);
  uint32_t got = 0;
  while (m && got < size) {
    char *next = strchr(*cursor, '\n');
    if (!next || (*cursor)[0] != '+')
      break;
    *next = '\0';
    r->line++;
    char *p = *cursor + 1, *end;
    *cursor = next + 1;
    for (unsigned long v; got < size && (v = strtoul(p, &end, 10), end != p);
         p = end)
      m[got++] = (uint32_t)v;
  }
  int32_t *names = m ? realloc(f->names, (id + 1) * sizeof *names) : NULL;
  if (!names || got != size ||
      ft_rtrace_add_comm(f->t, size, m) == FT_RT_COMM_NULL) {
    free(m);
    if (names)
      f->names = names;
    return bad(r, "communicator %u: %u of its %u members", (unsigned)id,
               (unsigned)got, (unsigned)size);
  }
  free(m);
  f->names = names;
  names[id] = name;
  return 0;
}

static int read_p2p(struct reader *r, struct ft_rtrace *t, const char *line) {
  struct ft_rt_event e = {0};
  unsigned kind;
  struct ft_rt_p2p *p = &e.u.p2p;
  if (sscanf(line,
             "p %u %" SCNu32 " %" SCNd32 " %" SCNd32 " %" SCNu32 " %" SCNu64
             " %" SCNu64,
             &kind, &p->comm, &p->peer, &p->tag, &p->flags, &p->bytes,
             &p->request) != 7 ||
      kind == 0 || kind > FT_RT_CANCEL || kind == FT_RT_SENDRECV ||
      kind == FT_RT_COMPLETE)
    return bad(r, "malformed point-to-point line");
  e.kind = (uint8_t)kind;
  return ft_rtrace_append(t, 0, &e) ? 0 : bad(r, "out of memory");
}

static int read_done(struct reader *r, struct ft_rtrace *t, const char *line) {
  struct ft_rt_done d = {0};
  unsigned status, is_recv, truncated;
  struct ft_rtrace_rank *k = &t->ranks[0];
  if (k->n == 0 || k->ev[k->n - 1].kind != FT_RT_COMPLETE)
    return bad(r, "a d line outside a completion");
  if (sscanf(line,
             "d %" SCNu64 " %u %u %" SCNu32 " %" SCNd32 " %" SCNd32 " %" SCNu64
             " %u",
             &d.request, &status, &is_recv, &d.comm, &d.peer, &d.tag, &d.bytes,
             &truncated) != 8 ||
      status == 0 || status > FT_RT_CANCELLED || is_recv > 1 || truncated > 1)
    return bad(r, "malformed completion entry");
  d.status = (uint8_t)status;
  d.is_recv = (uint8_t)is_recv;
  d.truncated = (uint8_t)truncated;
  return ft_rtrace_complete_add(t, 0, &d) ? bad(r, "out of memory") : 0;
}

/* "w BEGIN END": the span of the event before it. */
static int read_span(struct reader *r, struct ft_rtrace *t, const char *line) {
  struct ft_rt_span sp;
  struct ft_rtrace_rank *k = &t->ranks[0];
  if (sscanf(line, "w %la %la", &sp.begin, &sp.end) != 2 ||
      !(sp.begin >= 0 && sp.end >= sp.begin && sp.end < 1e18))
    return bad(r, "malformed 'w' line (w BEGIN END, 0 <= BEGIN <= END)");
  if (!k->n)
    return bad(r, "a 'w' line before any event");
  if (ft_rtrace_keep_times(t, 0))
    return bad(r, "out of memory");
  k->span[k->n - 1] = sp;
  return 0;
}

static int read_other(struct reader *r, struct ft_rtrace *t, const char *line) {
  struct ft_rt_event e = {0};
  unsigned a, b, flags = 0;
  int found;
  int ok = 0;
  switch (line[0]) {
  case 's':
    e.kind = FT_RT_SENDRECV;
    ok = sscanf(line,
                "s %" SCNu32 " %" SCNd32 " %" SCNd32 " %" SCNd32 " %" SCNd32
                " %" SCNu32 " %" SCNu64 " %" SCNu64,
                &e.u.sendrecv.comm, &e.u.sendrecv.dest, &e.u.sendrecv.send_tag,
                &e.u.sendrecv.source, &e.u.sendrecv.recv_tag,
                &e.u.sendrecv.flags, &e.u.sendrecv.send_bytes,
                &e.u.sendrecv.recv_bytes) == 8;
    break;
  case 'c':
    ok = sscanf(line, "c %u %u", &a, &b) == 2 && a >= 1 && a < FT_RT_CALL_COUNT;
    if (ok) /* its entries follow, each counted in by read_done */
      return ft_rtrace_append_complete(t, 0, (uint8_t)a, NULL, 0)
                 ? bad(r, "out of memory")
                 : 0;
    break;
  case 'q':
    e.kind = FT_RT_PROBE;
    ok = sscanf(line,
                "q %u %d %" SCNu32 " %" SCNd32 " %" SCNd32 " %" SCNd32
                " %" SCNd32 " %" SCNu64,
                &a, &found, &e.u.probe.comm, &e.u.probe.peer, &e.u.probe.tag,
                &e.u.probe.msg_peer, &e.u.probe.msg_tag,
                &e.u.probe.msg_bytes) == 8 &&
         a <= 1 && found >= -1 && found <= 1;
    e.u.probe.blocking = (uint8_t)a;
    e.u.probe.found = (int8_t)found;
    break;
  case 'o':
    e.kind = FT_RT_COLL;
    ok = sscanf(line, "o %u %" SCNu32 " %" SCNd32 " %" SCNu64 " %" SCNu64 " %u",
                &a, &e.u.coll.comm, &e.u.coll.root, &e.u.coll.sent,
                &e.u.coll.recvd, &flags) == 6 &&
         a >= 1 && a < FT_RT_COLL_COUNT && flags <= FT_RT_NONCOMMUTATIVE;
    e.u.coll.op = (uint8_t)a;
    e.u.coll.flags = (uint8_t)flags;
    break;
  case 'm':
    e.kind = FT_RT_COMM;
    ok = sscanf(line, "m %u %" SCNu32 " %" SCNu32 " %" SCNd32 " %" SCNd32, &a,
                &e.u.comm.parent, &e.u.comm.comm, &e.u.comm.color,
                &e.u.comm.key) == 5 &&
         a >= 1 && a < FT_RT_COMM_OP_COUNT;
    e.u.comm.op = (uint8_t)a;
    break;
  case 't':
    e.kind = FT_RT_COMPUTE;
    ok = sscanf(line, "t %la", &e.u.compute_s) == 1 && e.u.compute_s >= 0;
    break;
  case 'k':
    e.kind = FT_RT_MEMORY;
    ok = sscanf(line, "k %" SCNu64, &e.u.memory) == 1;
    break;
  case 'w':
    return read_span(r, t, line);
  default:
    return bad(r, "unknown record '%.20s'", line);
  }
  if (!ok)
    return bad(r, "malformed '%c' line", line[0]);
  return ft_rtrace_append(t, 0, &e) ? 0 : bad(r, "out of memory");
}

static int read_line(struct reader *r, struct ft_rtrace_rank_file *f,
                     char **cursor, const char *line) {
  if (!strncmp(line, "comm ", 5))
    return read_comm(r, f, cursor, line);
  if (line[0] == 'p' && line[1] == ' ')
    return read_p2p(r, f->t, line);
  if (line[0] == 'd' && line[1] == ' ')
    return read_done(r, f->t, line);
  if (line[0] && line[1] == ' ')
    return read_other(r, f->t, line);
  return bad(r, "unknown record '%.20s'", line);
}

static int read_header(struct reader *r, struct ft_rtrace_rank_file *f,
                       char **cursor) {
  int version = 0;
  double speed = 0;
  char *nl = strchr(*cursor, '\n');
  r->line = 1;
  if (!nl || sscanf(*cursor, "ftsim-rank-record %d", &version) != 1)
    return bad(r, "not a rank record of `ftsim record`");
  if (version != FT_RTRACE_RANK_VERSION)
    return bad(r, "version %d, this ftsim reads version %d", version,
               FT_RTRACE_RANK_VERSION);
  *cursor = nl + 1;
  nl = strchr(*cursor, '\n');
  r->line = 2;
  if (!nl ||
      sscanf(*cursor, "rank %" SCNu32 " %" SCNu32 " %la", &f->world_rank,
             &f->nranks, &speed) != 3 ||
      f->world_rank >= f->nranks || speed < 0)
    return bad(r, "malformed rank line (rank WORLD_RANK NRANKS SPEED)");
  *cursor = nl + 1;
  f->t = ft_rtrace_new(1);
  f->names = calloc(2, sizeof *f->names);
  if (!f->t || !f->names)
    return bad(r, "out of memory");
  f->names[1] = 1;
  f->t->ranks[0].host_speed = speed;
  return 0;
}

int ft_rtrace_read_rank(const char *path, struct ft_rtrace_rank_file *f,
                        char *err, size_t errlen) {
  struct reader r = {.path = path, .err = err, .errlen = errlen};
  *f = (struct ft_rtrace_rank_file){0};
  int rc = slurp(&r);
  if (rc == 0)
    rc = check_end(&r);
  char *cursor = r.text;
  if (rc == 0)
    rc = read_header(&r, f, &cursor);
  while (rc == 0 && *cursor) {
    char *nl = strchr(cursor, '\n');
    *nl = '\0'; /* check_end: every line ends with one */
    r.line++;
    char *line = cursor;
    cursor = nl + 1;
    rc = read_line(&r, f, &cursor, line);
  }
  free(r.text);
  if (rc != 0)
    ft_rtrace_rank_file_free(f);
  return rc;
}

void ft_rtrace_rank_file_free(struct ft_rtrace_rank_file *f) {
  ft_rtrace_free(f->t);
  free(f->names);
  *f = (struct ft_rtrace_rank_file){0};
}

/* ---- Merging ---- */

static int same_comm(const struct ft_rt_comm *a, const struct ft_rt_comm *b) {
  if (a->size != b->size || !a->members != !b->members)
    return 0;
  return !a->members ||
         !memcmp(a->members, b->members, a->size * sizeof *a->members);
}

/* run's id of f's communicator c, found by name and members or added. */
static uint32_t comm_id(struct ft_rtrace *run, int32_t **names,
                        const struct ft_rtrace_rank_file *f, uint32_t c) {
  if (c < 2 || c == FT_RT_COMM_NULL || c >= f->t->ncomms)
    return c;
  const struct ft_rt_comm *m = &f->t->comms[c];
  for (uint32_t i = 2; i < run->ncomms; i++)
    if ((*names)[i] == f->names[c] && same_comm(&run->comms[i], m))
      return i;
  int32_t *grown = realloc(*names, (run->ncomms + 1) * sizeof *grown);
  if (!grown)
    return FT_RT_COMM_NULL - 1;
  *names = grown;
  uint32_t id = ft_rtrace_add_comm(run, m->size, m->members);
  if (id == FT_RT_COMM_NULL)
    return FT_RT_COMM_NULL - 1;
  grown[id] = f->names[c];
  return id;
}

static uint32_t *comm_field(struct ft_rt_event *e) {
  switch (e->kind) {
  case FT_RT_SENDRECV:
    return &e->u.sendrecv.comm;
  case FT_RT_PROBE:
    return &e->u.probe.comm;
  case FT_RT_COLL:
    return &e->u.coll.comm;
  case FT_RT_COMM:
    return &e->u.comm.parent; /* and .comm: merge_event */
  case FT_RT_COMPLETE:
  case FT_RT_COMPUTE:
  case FT_RT_MEMORY:
    return NULL;
  default:
    return &e->u.p2p.comm;
  }
}

int ft_rtrace_merge_rank(struct ft_rtrace *run, int32_t **names,
                         const struct ft_rtrace_rank_file *f, char *err,
                         size_t errlen) {
  uint32_t r = f->world_rank;
  if (f->nranks != run->nranks || r >= run->nranks || run->ranks[r].n) {
    snprintf(err, errlen,
             "rank %u of %u: not a rank of this %u-rank run, or "
             "merged twice",
             (unsigned)r, (unsigned)f->nranks, (unsigned)run->nranks);
    return -1;
  }
  uint32_t *map = malloc(f->t->ncomms * sizeof *map);
  for (uint32_t c = 0; map && c < f->t->ncomms; c++)
    map[c] = comm_id(run, names, f, c);
  const struct ft_rtrace_rank *k = &f->t->ranks[0];
  int rc = map ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < k->n; i++) {
    struct ft_rt_event e = k->ev[i];
    uint32_t *c = comm_field(&e);
    if (c && *c < f->t->ncomms)
      *c = map[*c];
    if (e.kind == FT_RT_COMM && e.u.comm.comm < f->t->ncomms)
      e.u.comm.comm = map[e.u.comm.comm];
    if (e.kind != FT_RT_COMPLETE) {
      rc = ft_rtrace_append(run, r, &e) ? 0 : -1;
      continue;
    }
    rc = ft_rtrace_append_complete(run, r, e.u.complete.call, NULL, 0);
    for (uint32_t j = 0; rc == 0 && j < e.u.complete.count; j++) {
      struct ft_rt_done d = k->done[e.u.complete.first + j];
      if (d.comm < f->t->ncomms)
        d.comm = map[d.comm];
      rc = ft_rtrace_complete_add(run, r, &d);
    }
  }
  for (uint32_t c = 0; rc == 0 && c < f->t->ncomms; c++)
    rc = map[c] == FT_RT_COMM_NULL - 1 ? -1 : 0;
  if (rc == 0 && k->span && k->n) /* one event of run's per event of f's */
    rc = ft_rtrace_keep_times(run, r);
  if (rc == 0 && k->span && k->n)
    memcpy(run->ranks[r].span, k->span, k->n * sizeof *k->span);
  free(map);
  run->ranks[r].host_speed = k->host_speed;
  if (rc != 0)
    snprintf(err, errlen, "rank %u: out of memory", (unsigned)r);
  return rc;
}
