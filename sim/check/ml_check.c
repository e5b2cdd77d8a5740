/* The trace checker's rules for the message-logging protocols (pessimist,
 * v2): see ml_check.h. */
#define _POSIX_C_SOURCE 200809L
#include "ml_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A channel: sender to receiver on (comm, ch, tag). */
struct channel {
  int comm, ch, from, to, tag;
  long long sent;      /* the highest number its sender put on the wire */
  long long next;      /* the number its receiver must deliver next */
  long long delivered; /* deliveries in the receiver's current history */
};

/* A logged event of one rank. */
struct event {
  long long id, value;
  int kind, peer, tag;
};

/* A checkpoint's count of one channel (chk records). */
struct count {
  int wave, comm, ch, from, tag;
  long long delivered;
};

struct ml_checker {
  struct channel *chans;
  size_t n_chans, cap_chans;
  struct ft_check_result *res;
  /* The rank being read. */
  int rank, life;
  long long horizon, shipped, acked;
  struct event *logged; /* every life's, by arrival */
  size_t n_logged, cap_logged;
  struct event *pending; /* live outcomes of this life not logged yet */
  size_t n_pending, cap_pending;
  struct count *counts;
  size_t n_counts, cap_counts;
  int ended;           /* the rank's end record was read */
  char truncated[600]; /* the first truncated file and why; "" none */
  const struct ft_trace_visitor *visit; /* ft_ml_trace_read's, else NULL */
};

static void *grow(void *p, size_t *cap, size_t size) {
  size_t n = *cap ? 2 * *cap : 64;
  void *q = realloc(p, n * size);
  if (q)
    *cap = n;
  return q;
}

static struct channel *channel(struct ml_checker *c, int comm, int ch, int from,
                               int to, int tag) {
  for (size_t i = c->n_chans; i-- > 0;) {
    struct channel *x = &c->chans[i];
    if (x->comm == comm && x->ch == ch && x->from == from && x->to == to &&
        x->tag == tag)
      return x;
  }
  if (c->n_chans == c->cap_chans) {
    struct channel *p = grow(c->chans, &c->cap_chans, sizeof *p);
    if (!p)
      return NULL;
    c->chans = p;
  }
  struct channel *x = &c->chans[c->n_chans++];
  *x = (struct channel){comm, ch, from, to, tag, 0, 1, 0};
  return x;
}

static int violation(struct ml_checker *c, const char *kind, const char *name,
                     long line, const char *what, long long a, long long b) {
  c->res->status = FT_CHECK_VIOLATION;
  c->res->kind = kind;
  snprintf(c->res->message, sizeof c->res->message,
           "%.400s:%ld: %.200s (%lld, %lld)", name, line, what, a, b);
  return -1;
}

static int malformed(struct ml_checker *c, const char *name, long line,
                     const char *field) {
  c->res->status = FT_CHECK_MALFORMED;
  snprintf(c->res->message, sizeof c->res->message,
           "%.400s:%ld: field '%s': malformed record", name, line, field);
  return -1;
}

/* A malformed file as a whole: "NAME:LINE: why" ("NAME: why" for line 0). */
static int bad_file(struct ml_checker *c, const char *name, long line,
                    const char *why) {
  c->res->status = FT_CHECK_MALFORMED;
  if (line > 0)
    snprintf(c->res->message, sizeof c->res->message, "%.400s:%ld: %.500s",
             name, line, why);
  else
    snprintf(c->res->message, sizeof c->res->message, "%.400s: %.500s", name,
             why);
  return -1;
}

/* ---- One rank's records ---- */

static int on_message(struct ml_checker *c, const char *kind, const char *f,
                      const char *name, long line) {
  int comm, tag, peer;
  char ch;
  long long seq;
  if (sscanf(f, "%d %c %d %d %lld", &comm, &ch, &peer, &tag, &seq) != 5)
    return malformed(c, name, line, kind);
  c->res->messages++;
  if (strcmp(kind, "deliver") != 0) { /* send, resend */
    struct channel *x = channel(c, comm, ch, c->rank, peer, tag);
    if (!x)
      return malformed(c, name, line, "memory");
    if (seq > x->sent)
      x->sent = seq;
    if (strcmp(kind, "send") == 0 && (c->n_pending || c->acked < c->shipped))
      return violation(c, "unlogged", name, line,
                       "a send leaves before the event logger acknowledged "
                       "every earlier event (shipped, acknowledged)",
                       c->shipped, c->acked);
    return 0;
  }
  struct channel *x = channel(c, comm, ch, peer, c->rank, tag);
  if (!x)
    return malformed(c, name, line, "memory");
  if (seq < x->next)
    return violation(c, "duplicate", name, line,
                     "a message delivered again (its number, the expected one)",
                     seq, x->next);
  if (seq > x->next)
    return violation(c, "lost", name, line,
                     "a message delivered before an earlier one (its number, "
                     "the one never delivered)",
                     seq, x->next);
  x->next++;
  return 0;
}

static const struct event *find_logged(const struct ml_checker *c,
                                       const struct event *e) {
  for (size_t i = 0; i < c->n_logged; i++) {
    const struct event *l = &c->logged[i];
    if (l->id == e->id && l->kind == e->kind && l->peer == e->peer &&
        l->tag == e->tag &&
        (e->kind != 3 /* completion */ || l->value == e->value))
      return l;
  }
  return NULL;
}

/* Whether any event with id `id` reached the logger. */
static int id_logged(const struct ml_checker *c, long long id) {
  for (size_t i = 0; i < c->n_logged; i++)
    if (c->logged[i].id == id)
      return 1;
  return 0;
}

/* A non-deterministic outcome: replayed (it must be the logged one), or
 * live (it must be logged before the next send). A reception (1 match, 5
 * v2's delivery) below the horizon whose id has no event at all is live:
 * its receive was posted before the failure point and matched after it
 * (in an any-call replay: pending at the checkpoint the rank restored,
 * while a later id's event, a lazy failure the checkpoint flushed, set
 * the horizon), as the core decides (pessimist.c, on_delivered). */
static int on_nd(struct ml_checker *c, const char *f, const char *name,
                 long line) {
  struct event e;
  if (sscanf(f, "%lld %d %d %d %lld", &e.id, &e.kind, &e.peer, &e.tag,
             &e.value) != 5)
    return malformed(c, name, line, "nd");
  if (e.kind != 3)
    e.value = 0; /* bytes: not part of the outcome */
  int live_reception = (e.kind == 1 || e.kind == 5) && !id_logged(c, e.id);
  if (e.id <= c->horizon && !live_reception) {
    if (!find_logged(c, &e))
      return violation(c, "replay", name, line,
                       "a replayed operation's outcome differs from the "
                       "logged one (operation id, kind)",
                       e.id, e.kind);
    return 0;
  }
  if (c->n_pending == c->cap_pending) {
    struct event *p = grow(c->pending, &c->cap_pending, sizeof *p);
    if (!p)
      return malformed(c, name, line, "memory");
    c->pending = p;
  }
  c->pending[c->n_pending++] = e;
  return 0;
}

static int on_log(struct ml_checker *c, const char *f, const char *name,
                  long line) {
  struct event e;
  if (sscanf(f, "%lld %d %d %d %lld", &e.id, &e.kind, &e.peer, &e.tag,
             &e.value) != 5)
    return malformed(c, name, line, "log");
  if (e.kind != 3)
    e.value = 0;
  if (c->n_logged == c->cap_logged) {
    struct event *p = grow(c->logged, &c->cap_logged, sizeof *p);
    if (!p)
      return malformed(c, name, line, "memory");
    c->logged = p;
  }
  c->logged[c->n_logged++] = e;
  c->shipped++;
  for (size_t i = 0; i < c->n_pending; i++) {
    const struct event *p = &c->pending[i];
    if (p->id == e.id && p->kind == e.kind && p->peer == e.peer &&
        p->tag == e.tag && p->value == e.value) {
      c->pending[i] = c->pending[--c->n_pending];
      break;
    }
  }
  return 0;
}

/* main() runs again: deliveries restart from the first message; the
 * logger's events (HELD, up to HORIZON) are replayed. */
static int on_restart(struct ml_checker *c, const char *f, const char *name,
                      long line) {
  long long held, horizon;
  if (sscanf(f, "%d %lld %lld", &c->life, &held, &horizon) != 3)
    return malformed(c, name, line, "restart");
  c->horizon = horizon;
  c->shipped = c->acked = held;
  c->n_pending = 0;
  for (size_t i = 0; i < c->n_chans; i++)
    if (c->chans[i].to == c->rank)
      c->chans[i].next = 1;
  c->res->restarts++;
  return 0;
}

/* The restored checkpoint delivered `delivered` messages of each channel:
 * the next ones follow. */
static int on_restore(struct ml_checker *c, const char *f, const char *name,
                      long line) {
  int wave;
  if (sscanf(f, "%d", &wave) != 1)
    return malformed(c, name, line, "restore");
  for (size_t i = 0; i < c->n_chans; i++)
    if (c->chans[i].to == c->rank)
      c->chans[i].next = 1;
  for (size_t i = 0; i < c->n_counts; i++) {
    const struct count *k = &c->counts[i];
    if (k->wave != wave)
      continue;
    struct channel *x = channel(c, k->comm, k->ch, k->from, c->rank, k->tag);
    if (!x)
      return malformed(c, name, line, "memory");
    x->next = k->delivered + 1;
  }
  return 0;
}

static int on_chk(struct ml_checker *c, const char *f, const char *name,
                  long line) {
  struct count k;
  char ch;
  if (sscanf(f, "%d %d %c %d %d %lld", &k.wave, &k.comm, &ch, &k.from, &k.tag,
             &k.delivered) != 6)
    return malformed(c, name, line, "chk");
  k.ch = ch;
  if (c->n_counts == c->cap_counts) {
    struct count *p = grow(c->counts, &c->cap_counts, sizeof *p);
    if (!p)
      return malformed(c, name, line, "memory");
    c->counts = p;
  }
  c->counts[c->n_counts++] = k;
  return 0;
}

/* A core's control message: its kind must be one message logging names
 * (ft_control_parse), LOGGED today. */
static int on_control(struct ml_checker *c, const char *f, const char *name,
                      long line) {
  char ctl[32], why[160];
  int kind;
  if (sscanf(f, "%31s", ctl) != 1)
    return malformed(c, name, line, "ctl");
  if (ft_control_parse(FT_FAMILY_MESSAGE_LOGGING, ctl, &kind) == 0)
    return 0;
  snprintf(why, sizeof why,
           "field 'ctl': unknown control message '%s' (family %s)", ctl,
           ft_family_name(FT_FAMILY_MESSAGE_LOGGING));
  return bad_file(c, name, line, why);
}

/* The record kinds of a message-logging trace that carry nothing for these
 * rules (docs/traces.md): marks, the wave's records, a replay's pending
 * requests at a checkpoint ("pending WAVE N", ml_driver.c), the
 * dispatcher's, and the spans of `ftsim timeline`. */
static bool known_elsewhere(const char *kind) {
  static const char *const kinds[] = {"safe",     "ckpt", "commit", "end",
                                      "rollback", "stop", "fail",   "pending"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(kind, kinds[i]))
      return true;
  return ft_trace_is_span(kind) != 0;
}

/* A record kind no message-logging trace has: the file is refused, as the
 * other families' reader refuses one (trace_check.c). */
static int unknown_kind(struct ml_checker *c, const char *kind,
                        const char *name, long line) {
  char why[160];
  snprintf(why, sizeof why, "field 'kind': unknown record kind '%.60s'", kind);
  return bad_file(c, name, line, why);
}

static int on_record(struct ml_checker *c, const char *kind, const char *f,
                     const char *name, long line) {
  if (!strcmp(kind, "send") || !strcmp(kind, "resend") ||
      !strcmp(kind, "deliver"))
    return on_message(c, kind, f, name, line);
  if (!strcmp(kind, "nd"))
    return on_nd(c, f, name, line);
  if (!strcmp(kind, "log"))
    return on_log(c, f, name, line);
  if (!strcmp(kind, "logged")) {
    long long n;
    if (sscanf(f, "%lld", &n) != 1)
      return malformed(c, name, line, "logged");
    if (n > c->acked)
      c->acked = n;
    return 0;
  }
  if (!strcmp(kind, "restart"))
    return on_restart(c, f, name, line);
  if (!strcmp(kind, "ctl-send") || !strcmp(kind, "ctl-recv"))
    return on_control(c, f, name, line);
  if (!strcmp(kind, "restore"))
    return on_restore(c, f, name, line);
  if (!strcmp(kind, "chk"))
    return on_chk(c, f, name, line);
  if (!strcmp(kind, "commit"))
    c->res->waves++;
  if (!strcmp(kind, "end"))
    c->ended = 1;
  return known_elsewhere(kind) ? 0 : unknown_kind(c, kind, name, line);
}

/* A truncated file: checked up to there (every rule but the last,
 * check_all_delivered, holds on a prefix of each history), then reported
 * as malformed unless a violation comes first. Returns 0. */
static int note_truncated(struct ml_checker *c, const char *name, long line,
                          const char *why) {
  char where[32] = "";
  if (line > 0)
    snprintf(where, sizeof where, ":%ld", line);
  if (!c->truncated[0])
    snprintf(c->truncated, sizeof c->truncated,
             "%.500s%s: %s: the trace is truncated (the run did not finish)",
             name, where, why);
  return 0;
}

/* Line 1: the header of rank c->rank in the run of the first file. */
static int read_header(struct ml_checker *c, const char *name, char *buf) {
  struct ft_trace_header h;
  char err[160], why[400];
  buf[strcspn(buf, "\n")] = '\0';
  if (ft_check_header(buf, &h, err, sizeof err) != 0) {
    snprintf(why, sizeof why, "field 'header': %s", err);
    return bad_file(c, name, 1, why);
  }
  if (c->rank == 0)
    c->res->run = h.run;
  if (h.run != c->res->run) {
    snprintf(why, sizeof why,
             "field 'run': run %016llx, but rank 0's file is of run %016llx: "
             "files of different runs",
             (unsigned long long)h.run, (unsigned long long)c->res->run);
    return bad_file(c, name, 1, why);
  }
  if (h.rank != c->rank || h.ranks != c->res->ranks ||
      strcmp(h.protocol, c->res->protocol) != 0) {
    snprintf(why, sizeof why,
             "field 'header': rank %d of %d ranks, protocol %s; expected rank "
             "%d of %d, protocol %s",
             h.rank, h.ranks, h.protocol, c->rank, c->res->ranks,
             c->res->protocol);
    return bad_file(c, name, 1, why);
  }
  if (c->visit && c->visit->header)
    c->visit->header(c->visit->ctx, name, &h);
  return 0;
}

/* Hands a record (buf: its line, whose head was read) to the visitor. */
static int visit(struct ml_checker *c, const char *name, long line, char *buf) {
  char *tok[16];
  int n = 0;
  buf[strcspn(buf, "\n")] = '\0';
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && n < 16;
       w = strtok_r(NULL, " ", &save))
    tok[n++] = w;
  struct ft_trace_record r = {.file = name,
                              .line = (int)line,
                              .rank = c->rank,
                              .time = strtod(tok[0], NULL),
                              .inc = atoi(tok[2]),
                              .kind = tok[3],
                              .field = tok + 4,
                              .n = n - 4};
  if (c->visit->record(c->visit->ctx, &r, c->res) == 0)
    return 0;
  c->res->status = FT_CHECK_MALFORMED;
  return -1;
}

static int read_rank(struct ml_checker *c, const char *name, FILE *in) {
  char buf[4096];
  long line = 0;
  c->horizon = c->shipped = c->acked = 0;
  c->n_logged = c->n_pending = c->n_counts = 0;
  c->ended = 0;
  while (fgets(buf, sizeof buf, in)) {
    line++;
    if (!strchr(buf, '\n')) /* a run that ended abruptly */
      return note_truncated(c, name, line,
                            "the last line is cut in the middle");
    if (line == 1 && read_header(c, name, buf) != 0)
      return -1;
    if (buf[0] == '#' && line > 1 && c->visit && c->visit->comment) {
      buf[strcspn(buf, "\n")] = '\0';
      c->visit->comment(c->visit->ctx, name, buf + 1);
    }
    if (buf[0] == '#')
      continue;
    if (c->ended)
      return bad_file(c, name, line,
                      "field 'kind': a record after the end record: two runs "
                      "in one file?");
    double t;
    int rank, inc, at = 0;
    char kind[16];
    if (sscanf(buf, "%lf %d %d %15s %n", &t, &rank, &inc, kind, &at) != 4)
      return malformed(c, name, line, "TIME RANK INC KIND");
    c->res->events++;
    if (!(t >= 0))
      return malformed(c, name, line, "time");
    if (on_record(c, kind, buf + at, name, line) != 0) {
      if (!c->visit || c->res->status != FT_CHECK_VIOLATION)
        return -1;
      c->res->status = FT_CHECK_OK; /* reading only: no rule applies */
    }
    if (c->visit && c->visit->record && visit(c, name, line, buf) != 0)
      return -1;
  }
  if (line == 0)
    return bad_file(c, name, 0, "field 'header': empty file: no header");
  if (!c->ended)
    return note_truncated(c, name, 0, "no end record");
  return 0;
}

/* Nothing lost: every message put on the wire was delivered, in the
 * history the receiver ended with. */
static int check_all_delivered(struct ml_checker *c) {
  for (size_t i = 0; i < c->n_chans; i++) {
    const struct channel *x = &c->chans[i];
    if (x->next - 1 < x->sent) {
      c->res->status = FT_CHECK_VIOLATION;
      c->res->kind = "lost";
      snprintf(c->res->message, sizeof c->res->message,
               "message #%lld of %d to %d (comm %d %c, tag %d) was sent but "
               "never delivered (%lld were)",
               x->next, x->from, x->to, x->comm, x->ch, x->tag, x->next - 1);
      return -1;
    }
  }
  return 0;
}

/* Whether the dispatcher's file PREFIX.RANKS (absent unless it wrote a
 * record) has a stop record: the run could not progress and every rank
 * abandoned its run where it stood, so nothing in flight is owed. */
static int stopped_run(const char *prefix, int ranks) {
  char name[1100], buf[256], kind[16];
  snprintf(name, sizeof name, "%s.%d", prefix, ranks);
  FILE *in = fopen(name, "r");
  int stopped = 0;
  double t;
  int rank, inc;
  while (in && !stopped && fgets(buf, sizeof buf, in))
    stopped = sscanf(buf, "%lf %d %d %15s", &t, &rank, &inc, kind) == 4 &&
              strcmp(kind, "stop") == 0;
  if (in)
    fclose(in);
  return stopped;
}

enum ft_check_status ft_ml_trace_read(const char *prefix, int ranks,
                                      const struct ft_trace_visitor *v,
                                      struct ft_check_result *res) {
  struct ml_checker c = {.res = res, .visit = v};
  char name[1100];
  int rc = 0;
  for (int r = 0; r <= ranks && rc == 0; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *in = fopen(name, "r");
    if (!in && r == ranks)
      break; /* no dispatcher's file: it wrote no record */
    if (!in) {
      res->status = FT_CHECK_MALFORMED;
      snprintf(res->message, sizeof res->message, "%.900s: cannot open: %s",
               name, strerror(errno));
      break;
    }
    c.rank = r;
    rc = read_rank(&c, name, in);
    fclose(in);
  }
  if (res->status == FT_CHECK_OK)
    snprintf(res->message, sizeof res->message, "%s", c.truncated);
  free(c.chans);
  free(c.logged);
  free(c.pending);
  free(c.counts);
  return res->status;
}

enum ft_check_status ft_ml_check_files(const char *prefix, int ranks,
                                       struct ft_check_result *res) {
  struct ml_checker c = {.res = res};
  char name[1100];
  int rc = 0;
  for (int r = 0; r < ranks && rc == 0; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *in = fopen(name, "r");
    if (!in) {
      res->status = FT_CHECK_MALFORMED;
      snprintf(res->message, sizeof res->message, "%.900s: cannot open: %s",
               name, strerror(errno));
      rc = -1;
      break;
    }
    c.rank = r;
    rc = read_rank(&c, name, in);
    fclose(in);
  }
  if (rc == 0 && !c.truncated[0] && !stopped_run(prefix, ranks))
    rc = check_all_delivered(&c);
  if (c.truncated[0] && res->status == FT_CHECK_VIOLATION) {
    size_t n = strlen(res->message);
    snprintf(res->message + n, sizeof res->message - n,
             " [in a truncated trace: %.400s]", c.truncated);
  } else if (c.truncated[0] && rc == 0) {
    snprintf(res->message, sizeof res->message, "%s", c.truncated);
    res->status = FT_CHECK_MALFORMED;
    rc = -1;
  }
  free(c.chans);
  free(c.logged);
  free(c.pending);
  free(c.counts);
  return rc == 0 ? FT_CHECK_OK : res->status;
}
