/* SimGrid's time-independent traces (`smpirun -trace-ti`), SimGrid 3.32's
 * format (src/smpi/internals/smpi_replay.cpp), into the model (rtrace.h).
 * Each line is "RANK ACTION ARGS...": counts are in datatype units (the
 * datatype ids of smpi_datatype.cpp), computation is in flops. The mapping,
 * action by action: docs/trace-format.md. */
#define _POSIX_C_SOURCE 200809L
#include "rtrace.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

/* SMPI's constants: MPI_ANY_SOURCE, MPI_UNDEFINED (what the TI tracer
 * writes for an irecv posted with MPI_ANY_SOURCE) and MPI_ANY_TAG. */
#define TI_ANY_SOURCE (-555)
#define TI_UNDEFINED (-333)
#define TI_ANY_TAG (-444)

/* Sizes of SMPI's predefined datatypes by id (x86_64); 0: no such id. */
static const uint8_t dt_size[60] = {
    8, 4,  1, 2,  8,  4, 1,  8,  1, 1,  2,  4,  8,  8,  16, 4, 1,  1,  2, 4,
    8, 1,  2, 4,  8,  8, 16, 32, 8, 8,  8,  16, 16, 8,  8,  8, 16, 16, 4, 4,
    8, 16, 8, 16, 32, 4, 2,  4,  8, 16, 32, 1,  8,  16, 32, 0, 0,  1,  8, 8};

/* A pending request of the rank being read: its event. */
struct ti_req {
  size_t ev;
};

struct ti {
  const char *file;
  long line;
  char *err;
  size_t errlen;
  struct ft_rtrace *t;
  uint32_t rank;
  double speed;
  uint64_t dflt; /* the default datatype's size (init) */
  char **tok;
  size_t ntok, captok;
  size_t *pend; /* pending requests: event indexes */
  size_t npend, cappend;
  uint64_t next_req;
};

static int ti_fail(struct ti *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int ti_fail(struct ti *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_line_v(s->err, s->errlen, s->file, s->line, NULL, fmt, ap);
  va_end(ap);
  return -1;
}

/* Splits `line` into tokens (in place). */
static int tokenize(struct ti *s, char *line) {
  s->ntok = 0;
  for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
    if (s->ntok == s->captok) {
      size_t c = s->captok ? 2 * s->captok : 16;
      char **q = realloc(s->tok, c * sizeof *q);
      if (!q)
        return ti_fail(s, "out of memory");
      s->tok = q;
      s->captok = c;
    }
    s->tok[s->ntok++] = p;
  }
  return 0;
}

static int field_int(struct ti *s, size_t i, const char *what, int32_t *v) {
  if (i >= s->ntok)
    return ti_fail(s, "action '%s': field '%s' missing", s->tok[1], what);
  char *end;
  errno = 0;
  long x = strtol(s->tok[i], &end, 10);
  if (errno || *end || end == s->tok[i] || x < INT32_MIN || x > INT32_MAX)
    return ti_fail(s, "action '%s': field '%s': not an integer: '%s'",
                   s->tok[1], what, s->tok[i]);
  *v = (int32_t)x;
  return 0;
}

/* A non-negative number, at most 2^53 (flops, seconds). */
static int field_real(struct ti *s, size_t i, const char *what, double *v) {
  if (i >= s->ntok)
    return ti_fail(s, "action '%s': field '%s' missing", s->tok[1], what);
  char *end;
  double x = strtod(s->tok[i], &end);
  if (*end || end == s->tok[i] || !(x >= 0) || x > 9007199254740992.0)
    return ti_fail(s, "action '%s': field '%s': not a number >= 0: '%s'",
                   s->tok[1], what, s->tok[i]);
  *v = x;
  return 0;
}

/* A count or size: a non-negative number (SimGrid reads them as doubles
 * and truncates), at most 2^53. */
static int field_count(struct ti *s, size_t i, const char *what, double *v) {
  if (i >= s->ntok)
    return ti_fail(s, "action '%s': field '%s' missing", s->tok[1], what);
  char *end;
  double x = strtod(s->tok[i], &end);
  if (*end || end == s->tok[i] || !(x >= 0) || x > 9007199254740992.0)
    return ti_fail(s, "action '%s': field '%s': not a count: '%s'", s->tok[1],
                   what, s->tok[i]);
  *v = trunc(x);
  return 0;
}

/* The size of the datatype in token i, or the default when absent. */
static int field_dt(struct ti *s, size_t i, uint64_t *size) {
  if (i >= s->ntok) {
    *size = s->dflt;
    return 0;
  }
  int32_t id;
  if (field_int(s, i, "datatype", &id))
    return -1;
  if (id < 0 || id >= 60 || !dt_size[id])
    return ti_fail(s,
                   "action '%s': field 'datatype': unknown datatype id %d "
                   "(derived datatypes are not supported)",
                   s->tok[1], id);
  *size = dt_size[id];
  return 0;
}

static int bytes_of(struct ti *s, double count, uint64_t dt, uint64_t *b) {
  double x = count * (double)dt;
  if (x > 9007199254740992.0)
    return ti_fail(s, "action '%s': size overflows", s->tok[1]);
  *b = (uint64_t)x;
  return 0;
}

static int add(struct ti *s, const struct ft_rt_event *e) {
  return ft_rtrace_append(s->t, s->rank, e) ? 0 : ti_fail(s, "out of memory");
}

static int add_compute(struct ti *s, double flops) {
  if (flops <= 0)
    return 0;
  struct ft_rt_event e = {.kind = FT_RT_COMPUTE};
  e.u.compute_s = flops / s->speed;
  return add(s, &e);
}

static int peer_field(struct ti *s, size_t i, int32_t *peer, uint32_t *wild) {
  if (field_int(s, i, "peer", peer))
    return -1;
  if (*peer == TI_ANY_SOURCE || *peer == TI_UNDEFINED) {
    *wild |= FT_RT_WILD_SOURCE;
    *peer = FT_RT_UNKNOWN;
  } else if (*peer < 0 || (uint32_t)*peer >= s->t->nranks) {
    return ti_fail(s, "action '%s': field 'peer': no rank %d", s->tok[1],
                   *peer);
  }
  return 0;
}

/* send/isend/recv/irecv PEER TAG SIZE [DATATYPE] */
static int act_p2p(struct ti *s, uint8_t kind) {
  struct ft_rt_event e = {.kind = kind};
  struct ft_rt_p2p *p = &e.u.p2p;
  double count;
  uint64_t dt;
  if (peer_field(s, 2, &p->peer, &p->flags) ||
      field_int(s, 3, "tag", &p->tag) || field_count(s, 4, "size", &count) ||
      field_dt(s, 5, &dt) || bytes_of(s, count, dt, &p->bytes))
    return -1;
  if (p->tag == TI_ANY_TAG) {
    p->flags |= FT_RT_WILD_TAG;
    p->tag = FT_RT_UNKNOWN;
  }
  if ((kind == FT_RT_SEND || kind == FT_RT_ISEND) && p->flags)
    return ti_fail(s, "action '%s': a wildcard peer or tag", s->tok[1]);
  if (kind == FT_RT_ISEND || kind == FT_RT_IRECV) {
    p->request = ++s->next_req;
    if (s->npend == s->cappend) {
      size_t c = s->cappend ? 2 * s->cappend : 16;
      size_t *q = realloc(s->pend, c * sizeof *q);
      if (!q)
        return ti_fail(s, "out of memory");
      s->pend = q;
      s->cappend = c;
    }
    s->pend[s->npend++] = s->t->ranks[s->rank].n;
  }
  return add(s, &e);
}

static struct ft_rt_done done_of(const struct ti *s, size_t ev, uint8_t st) {
  const struct ft_rt_event *e = &s->t->ranks[s->rank].ev[ev];
  return (struct ft_rt_done){
      e->u.p2p.request, st,           e->kind == FT_RT_IRECV, e->u.p2p.comm,
      e->u.p2p.peer,    e->u.p2p.tag, e->u.p2p.bytes,         0};
}

/* waitall [COUNT]: every pending request completes. */
static int act_waitall(struct ti *s) {
  struct ft_rt_done *d = malloc((s->npend ? s->npend : 1) * sizeof *d);
  if (!d)
    return ti_fail(s, "out of memory");
  for (size_t i = 0; i < s->npend; i++)
    d[i] = done_of(s, s->pend[i], FT_RT_DONE);
  int rc = ft_rtrace_append_complete(s->t, s->rank, FT_RT_WAITALL, d,
                                     (uint32_t)s->npend);
  free(d);
  s->npend = 0;
  return rc ? ti_fail(s, "out of memory") : 0;
}

/* wait/test SRC DST TAG: the pending request of that key (SimGrid's
 * RequestStorage); a test is recorded as not completing it. */
static int act_wait(struct ti *s, int test) {
  int32_t src, dst, tag;
  if (field_int(s, 2, "src", &src) || field_int(s, 3, "dst", &dst) ||
      field_int(s, 4, "tag", &tag))
    return -1;
  for (size_t i = 0; i < s->npend; i++) {
    const struct ft_rt_event *e = &s->t->ranks[s->rank].ev[s->pend[i]];
    int recv = e->kind == FT_RT_IRECV;
    int32_t me = (int32_t)s->rank, peer = recv ? src : dst;
    int wild = peer == TI_ANY_SOURCE || peer == TI_UNDEFINED;
    if ((recv ? dst : src) != me || (!wild && e->u.p2p.peer != peer) ||
        (tag != TI_ANY_TAG && e->u.p2p.tag != tag &&
         e->u.p2p.tag != FT_RT_UNKNOWN))
      continue;
    struct ft_rt_done d =
        done_of(s, s->pend[i], test ? FT_RT_NOT_DONE : FT_RT_DONE);
    if (!test)
      s->pend[i] = s->pend[--s->npend];
    return ft_rtrace_append_complete(s->t, s->rank,
                                     test ? FT_RT_TEST : FT_RT_WAIT, &d, 1)
               ? ti_fail(s, "out of memory")
               : 0;
  }
  return ti_fail(s, "action '%s': no pending request %d -> %d tag %d",
                 s->tok[1], src, dst, tag);
}

/* sendRecv SENDCOUNT DST RECVCOUNT SRC [DT1 DT2] (tags: SimGrid's 0). */
static int act_sendrecv(struct ti *s) {
  struct ft_rt_event e = {.kind = FT_RT_SENDRECV};
  struct ft_rt_sendrecv *p = &e.u.sendrecv;
  double sc, rc;
  uint64_t d1, d2;
  if (field_count(s, 2, "sendcount", &sc) ||
      peer_field(s, 3, &p->dest, &p->flags) ||
      field_count(s, 4, "recvcount", &rc) ||
      peer_field(s, 5, &p->source, &p->flags) || field_dt(s, 6, &d1) ||
      field_dt(s, 7, &d2) || bytes_of(s, sc, d1, &p->send_bytes) ||
      bytes_of(s, rc, d2, &p->recv_bytes))
    return -1;
  return add(s, &e);
}

static int coll(struct ti *s, uint8_t op, int32_t root, uint64_t sent,
                uint64_t recvd) {
  if (root != -1 && (root < 0 || (uint32_t)root >= s->t->nranks))
    return ti_fail(s, "action '%s': field 'root': no rank %d", s->tok[1], root);
  struct ft_rt_event e = {.kind = FT_RT_COLL};
  e.u.coll = (struct ft_rt_coll){op, FT_RT_COMM_WORLD, root, sent, recvd, 0};
  return add(s, &e);
}

static int opt_root(struct ti *s, size_t i, int32_t *root) {
  *root = 0;
  return i < s->ntok ? field_int(s, i, "root", root) : 0;
}

/* bcast SIZE [ROOT [DT]]: the root sends its buffer, the others get it. */
static int act_bcast(struct ti *s) {
  double n;
  int32_t root;
  uint64_t dt, b = 0;
  if (field_count(s, 2, "size", &n) || opt_root(s, 3, &root) ||
      field_dt(s, 4, &dt) || bytes_of(s, n, dt, &b))
    return -1;
  int me = (uint32_t)root == s->rank;
  return coll(s, FT_RT_BCAST, root, me ? b : 0, me ? 0 : b);
}

/* reduce COUNT FLOPS [ROOT [DT]], allreduce COUNT FLOPS [DT],
 * scan/exscan COUNT FLOPS [DT]: the flops become computation after it. */
static int act_reduce(struct ti *s, uint8_t op) {
  double n, flops;
  int32_t root = -1;
  uint64_t dt, b = 0;
  size_t dti = 4;
  if (field_count(s, 2, "comm_size", &n) ||
      field_real(s, 3, "comp_size", &flops))
    return -1;
  if (op == FT_RT_REDUCE && (opt_root(s, 4, &root)))
    return -1;
  if (op == FT_RT_REDUCE)
    dti = 5;
  if (field_dt(s, dti, &dt) || bytes_of(s, n, dt, &b))
    return -1;
  uint64_t recvd = op != FT_RT_REDUCE || (uint32_t)root == s->rank ? b : 0;
  return coll(s, op, root, b, recvd) || add_compute(s, flops) ? -1 : 0;
}

/* alltoall SEND RECV [DT1 DT2], gather SEND RECV [ROOT DT1 DT2],
 * allgather SEND RECV [DT1 DT2], scatter SEND RECV [ROOT DT1 DT2]: counts
 * per peer. */
static int act_fixed(struct ti *s, uint8_t op) {
  double sc, rc, n = s->t->nranks;
  int32_t root = -1;
  uint64_t d1, d2, sb = 0, rb = 0;
  int rooted = op == FT_RT_GATHER || op == FT_RT_SCATTER;
  size_t dti = rooted ? 5 : 4;
  if (field_count(s, 2, "send_size", &sc) ||
      field_count(s, 3, "recv_size", &rc) ||
      (rooted && opt_root(s, 4, &root)) || field_dt(s, dti, &d1) ||
      field_dt(s, dti + 1, &d2))
    return -1;
  int me = rooted && (uint32_t)root == s->rank;
  double sent = op == FT_RT_SCATTER    ? (me ? sc * n : 0)
                : op == FT_RT_ALLTOALL ? sc * n
                                       : sc;
  double recvd = op == FT_RT_GATHER    ? (me ? rc * n : 0)
                 : op == FT_RT_SCATTER ? rc
                                       : rc * n;
  if (bytes_of(s, sent, d1, &sb) || bytes_of(s, recvd, d2, &rb))
    return -1;
  return coll(s, op, root, sb, rb);
}

/* The sum of n counts from token i. */
static int counts_sum(struct ti *s, size_t i, const char *what, double *sum) {
  *sum = 0;
  for (uint32_t k = 0; k < s->t->nranks; k++) {
    double c;
    if (field_count(s, i + k, what, &c))
      return -1;
    *sum += c;
  }
  return 0;
}

/* gatherv SEND COUNTS[n] [ROOT DT1 DT2], allgatherv SEND COUNTS[n]
 * [DT1 DT2 | DISPS[n] | DT1 DT2 DISPS[n]]. */
static int act_gatherv(struct ti *s, uint8_t op) {
  size_t n = s->t->nranks;
  double sc, sum;
  int32_t root = -1;
  uint64_t d1 = s->dflt, d2 = s->dflt, sb = 0, rb = 0;
  if (field_count(s, 2, "send_size", &sc) ||
      counts_sum(s, 3, "recvcounts", &sum))
    return -1;
  if (op == FT_RT_GATHERV) {
    if (opt_root(s, 3 + n, &root) || field_dt(s, 4 + n, &d1) ||
        field_dt(s, 5 + n, &d2))
      return -1;
  } else if (s->ntok > 3 + 2 * n || s->ntok <= 3 + n + 2) {
    if (field_dt(s, 3 + n, &d1) || field_dt(s, 4 + n, &d2))
      return -1;
  }
  int me = op != FT_RT_GATHERV || (uint32_t)root == s->rank;
  if (bytes_of(s, sc, d1, &sb) || bytes_of(s, me ? sum : 0, d2, &rb))
    return -1;
  return coll(s, op, root, sb, rb);
}

/* scatterv COUNTS[n] RECV [ROOT DT1 DT2] */
static int act_scatterv(struct ti *s) {
  size_t n = s->t->nranks;
  double sum, rc;
  int32_t root;
  uint64_t d1, d2, sb = 0, rb = 0;
  if (counts_sum(s, 2, "sendcounts", &sum) ||
      field_count(s, 2 + n, "recv_size", &rc) || opt_root(s, 3 + n, &root) ||
      field_dt(s, 4 + n, &d1) || field_dt(s, 5 + n, &d2))
    return -1;
  int me = (uint32_t)root == s->rank;
  if (bytes_of(s, me ? sum : 0, d1, &sb) || bytes_of(s, rc, d2, &rb))
    return -1;
  return coll(s, FT_RT_SCATTERV, root, sb, rb);
}

/* reducescatter COUNTS[n] FLOPS [DT] */
static int act_reducescatter(struct ti *s) {
  size_t n = s->t->nranks;
  double sum, mine, flops;
  uint64_t dt, sb = 0, rb = 0;
  if (counts_sum(s, 2, "recvcounts", &sum) ||
      field_count(s, 2 + s->rank, "recvcounts", &mine) ||
      field_real(s, 2 + n, "comp_size", &flops) || field_dt(s, 3 + n, &dt) ||
      bytes_of(s, sum, dt, &sb) || bytes_of(s, mine, dt, &rb))
    return -1;
  return coll(s, FT_RT_REDUCE_SCATTER, -1, sb, rb) || add_compute(s, flops) ? -1
                                                                            : 0;
}

/* alltoallv SENDBUF SENDCOUNTS[n] RECVBUF RECVCOUNTS[n] [DT1 DT2] */
static int act_alltoallv(struct ti *s) {
  size_t n = s->t->nranks;
  double ss, rs, buf;
  uint64_t d1, d2, sb = 0, rb = 0;
  if (field_count(s, 2, "send_buf_size", &buf) ||
      counts_sum(s, 3, "sendcounts", &ss) ||
      field_count(s, 3 + n, "recv_buf_size", &buf) ||
      counts_sum(s, 4 + n, "recvcounts", &rs) || field_dt(s, 4 + 2 * n, &d1) ||
      field_dt(s, 5 + 2 * n, &d2) || bytes_of(s, ss, d1, &sb) ||
      bytes_of(s, rs, d2, &rb))
    return -1;
  return coll(s, FT_RT_ALLTOALLV, -1, sb, rb);
}

static int act_flops(struct ti *s, int seconds) {
  double x;
  if (field_real(s, 2, seconds ? "time" : "flops", &x))
    return -1;
  return add_compute(s, seconds ? x * s->speed : x);
}

/* One action (tokens 1..). */
static int action(struct ti *s) {
  const char *a = s->tok[1];
  if (!strcmp(a, "init")) {
    s->dflt = s->ntok > 2 ? 8 : 1; /* MPI_DOUBLE (MPE) or MPI_BYTE (TAU) */
    return 0;
  }
  static const char *const skip[] = {"finalize", "comm_size", "comm_split",
                                     "comm_dup", "location"};
  for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
    if (!strcmp(a, skip[i]))
      return 0;
  if (!strcmp(a, "send"))
    return act_p2p(s, FT_RT_SEND);
  if (!strcmp(a, "isend"))
    return act_p2p(s, FT_RT_ISEND);
  if (!strcmp(a, "recv"))
    return act_p2p(s, FT_RT_RECV);
  if (!strcmp(a, "irecv"))
    return act_p2p(s, FT_RT_IRECV);
  if (!strcmp(a, "wait") || !strcmp(a, "test"))
    return act_wait(s, a[0] == 't');
  if (!strcmp(a, "waitall"))
    return act_waitall(s);
  if (!strcmp(a, "sendRecv"))
    return act_sendrecv(s);
  if (!strcmp(a, "barrier"))
    return coll(s, FT_RT_BARRIER, -1, 0, 0);
  if (!strcmp(a, "bcast"))
    return act_bcast(s);
  if (!strcmp(a, "reduce"))
    return act_reduce(s, FT_RT_REDUCE);
  if (!strcmp(a, "allreduce"))
    return act_reduce(s, FT_RT_ALLREDUCE);
  if (!strcmp(a, "scan"))
    return act_reduce(s, FT_RT_SCAN);
  if (!strcmp(a, "exscan"))
    return act_reduce(s, FT_RT_EXSCAN);
  if (!strcmp(a, "alltoall"))
    return act_fixed(s, FT_RT_ALLTOALL);
  if (!strcmp(a, "gather"))
    return act_fixed(s, FT_RT_GATHER);
  if (!strcmp(a, "allgather"))
    return act_fixed(s, FT_RT_ALLGATHER);
  if (!strcmp(a, "scatter"))
    return act_fixed(s, FT_RT_SCATTER);
  if (!strcmp(a, "gatherv"))
    return act_gatherv(s, FT_RT_GATHERV);
  if (!strcmp(a, "allgatherv"))
    return act_gatherv(s, FT_RT_ALLGATHERV);
  if (!strcmp(a, "scatterv"))
    return act_scatterv(s);
  if (!strcmp(a, "reducescatter"))
    return act_reducescatter(s);
  if (!strcmp(a, "alltoallv"))
    return act_alltoallv(s);
  if (!strcmp(a, "compute"))
    return act_flops(s, 0);
  if (!strcmp(a, "sleep"))
    return act_flops(s, 1);
  return ti_fail(s, "unknown action '%s'", a);
}

/* One line of rank `want` (or of any rank when want < 0, a single-file
 * trace). Lines of other ranks in a single file are skipped. */
static int ti_line(struct ti *s, char *line, long want, int only) {
  if (tokenize(s, line) || s->ntok == 0 || s->tok[0][0] == '#')
    return s->ntok == 0 || s->tok[0][0] == '#' ? 0 : -1;
  int32_t r;
  if (s->ntok < 2)
    return ti_fail(s, "a rank and an action expected");
  char *end;
  errno = 0;
  long x = strtol(s->tok[0], &end, 10);
  if (errno || *end || x < 0 || x >= (long)s->t->nranks)
    return ti_fail(s, "field 'rank': no rank '%s' (the trace has %u)",
                   s->tok[0], s->t->nranks);
  r = (int32_t)x;
  if (want >= 0 && r != want)
    return ti_fail(s, "field 'rank': rank %d in the file of rank %ld", r, want);
  if (only >= 0 && r != only)
    return 0;
  if ((uint32_t)r != s->rank) {
    s->rank = (uint32_t)r;
    s->npend = 0; /* single-file traces: a rank's lines are contiguous */
  }
  return action(s);
}

static int ti_file(struct ti *s, const char *file, long want, int only) {
  FILE *f = fopen(file, "r");
  if (!f) {
    s->file = file;
    s->line = 0;
    return ti_fail(s, "%s", strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0;
  int rc = 0;
  s->file = file;
  s->line = 0;
  s->npend = 0;
  s->next_req = 0;
  s->dflt = 1;
  if (want >= 0)
    s->rank = (uint32_t)want;
  while (!rc && getline(&line, &cap, f) >= 0) {
    s->line++;
    rc = ti_line(s, line, want, only);
  }
  free(line);
  fclose(f);
  return rc;
}

/* Reads lines of a file into a list (the index). */
static char **read_lines(const char *path, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char **v = NULL, *line = NULL;
  size_t cap = 0;
  *n = 0;
  while (getline(&line, &cap, f) >= 0) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0])
      continue;
    char **q = realloc(v, (*n + 1) * sizeof *q);
    if (!q)
      break;
    v = q;
    v[(*n)++] = strdup(line);
  }
  free(line);
  fclose(f);
  return v;
}

/* An index names files; a trace starts with "RANK ACTION". */
static int is_trace_line(const char *l) {
  char *end;
  strtol(l, &end, 10);
  return end != l && (*end == ' ' || *end == '\t');
}

/* Rank count of a single-file trace: the largest rank + 1. */
static uint32_t count_ranks(char **lines, size_t n) {
  long max = -1;
  for (size_t i = 0; i < n; i++) {
    long r = strtol(lines[i], NULL, 10);
    if (r > max && r < (1L << 24))
      max = r;
  }
  return (uint32_t)(max + 1);
}

static int read_index(struct ti *s, const char *path, char **lines, size_t n,
                      int only) {
  for (size_t i = 0; i < n; i++) {
    if (only >= 0 && (size_t)only != i)
      continue;
    char file[4096];
    const char *slash = strrchr(path, '/');
    if (lines[i][0] == '/' || !slash)
      snprintf(file, sizeof file, "%s", lines[i]);
    else
      snprintf(file, sizeof file, "%.*s/%s", (int)(slash - path), path,
               lines[i]);
    FILE *f = fopen(file, "r");
    if (!f) {
      s->file = path;
      s->line = (long)i + 1;
      return ti_fail(s, "field 'file': cannot open '%s': %s", file,
                     strerror(errno));
    }
    fclose(f);
    if (ti_file(s, file, (long)i, -1))
      return -1;
  }
  return 0;
}

struct ft_rtrace *ft_rtrace_read_ti(const char *path, double host_speed,
                                    int rank, char *err, size_t errlen) {
  struct ti s = {.file = path,
                 .err = err,
                 .errlen = errlen,
                 .speed = host_speed > 0 ? host_speed : 1e9,
                 .dflt = 1};
  size_t n = 0;
  char **lines = read_lines(path, &n);
  if (!lines || !n) {
    ti_fail(&s, "%s", lines ? "empty trace" : strerror(errno));
    free(lines);
    return NULL;
  }
  int single = is_trace_line(lines[0]);
  uint32_t nranks = single ? count_ranks(lines, n) : (uint32_t)n;
  s.t = nranks ? ft_rtrace_new(nranks) : NULL;
  int rc = -1;
  if (!s.t)
    ti_fail(&s, "no ranks");
  else if (rank >= (int)nranks)
    ti_fail(&s, "no rank %d (the trace has %u)", rank, nranks);
  else
    rc = single ? ti_file(&s, path, -1, rank)
                : read_index(&s, path, lines, n, rank);
  for (size_t i = 0; i < n; i++)
    free(lines[i]);
  free(lines);
  free(s.tok);
  free(s.pend);
  if (rc) {
    ft_rtrace_free(s.t);
    return NULL;
  }
  for (uint32_t r = 0; r < nranks; r++)
    s.t->ranks[r].host_speed = s.speed;
  return s.t;
}
