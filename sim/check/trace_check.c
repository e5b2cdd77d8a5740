/* The trace checker (see trace_check.h).
 *
 * Reading builds, per channel (incarnation, communicator, p2p or
 * collective, sender, receiver, tag), the trace lines of its sends and of
 * its deliveries in sequence order; per rank, its safe points, checkpoints,
 * rollbacks and restores; and the commits. A line number is a position in
 * its rank's history, so "sent before the sender's checkpoint" is "its send
 * line comes before the line of the safe point the checkpoint took".
 *
 * The checks, in the order of the trace's time (first violation wins):
 *  - every delivery has its send (phantom);
 *  - a committed wave is a consistent cut: per channel, R (messages the
 *    receiver had received at its checkpoint) <= S (messages the sender had
 *    sent at its own), else message S+1 is an orphan;
 *  - its recorded channel state (chanrec) is exactly the messages in
 *    transit, R+1..S, per channel (empty for pcl, which records none);
 *    the drain family's (bookmark) channels are empty: S = R and no
 *    channel state (undrained);
 *  - a rollback restores the last wave committed before it, or a later
 *    one: never an older wave (a lost commit);
 *  - a rollback to wave W replays the failure-free sequence: after the
 *    restore, the k-th message the receiver gets on a channel is message
 *    R+k of the failure-free numbering, and the sender's k-th message after
 *    its restore is R+k when it is a replay of channel state (resend) and
 *    S+j for its j-th new message; both ends must agree on every message
 *    (S > R ... lost; S < R ... delivered twice);
 *  - at the end (every rank's end record, in one final incarnation): every
 *    message of the final incarnation was delivered, and its rollback's
 *    replay re-sent every message in transit at the restored cut (lost).
 * The message-logging protocols have their own rules (ml_check.h). */
#define _POSIX_C_SOURCE 200809L
#include "trace_check.h"

#include "coll_check.h"
#include "fail_check.h"
#include "ml_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

/* ---- Growing arrays ---- */

static void *grow_array(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return p;
  size_t c = *cap ? 2 * *cap : 16;
  void *q = realloc(p, c * size);
  if (!q) {
    fprintf(stderr, "ftsim check: out of memory\n");
    abort();
  }
  *cap = c;
  return q;
}

#define PUSH(arr, n, cap, value)                                               \
  do {                                                                         \
    (arr) = grow_array((arr), &(cap), (n), sizeof *(arr));                     \
    (arr)[(n)++] = (value);                                                    \
  } while (0)

/* ---- The model ---- */

struct send_line {
  uint32_t line;
  uint32_t resend; /* a vcl replay of channel state */
};

struct chanrec {
  int wave;
  int64_t seq;
  uint32_t line;
};

struct channel {
  int inc, comm, coll, src, dst, tag;
  struct send_line *sends;
  size_t n_sends, cap_sends;
  uint32_t *dels;
  size_t n_dels, cap_dels;
  struct chanrec *recs;
  size_t n_recs, cap_recs;
  int64_t *restored; /* any-call: channel state restored at the receiver
                        after the rollback that began `inc`, by its
                        number in the restored wave's incarnation */
  size_t n_restored, cap_restored;
  uint32_t *supps; /* the piggyback family: lines of the sends its sender
                      suppressed (held by the receiver's checkpoint) */
  size_t n_supps, cap_supps;
};

/* A safe point (wave unused), checkpoint, rollback or restore. */
struct mark {
  int inc, wave;
  int64_t index;
  uint32_t line;
  double time;
};

struct rank_trace {
  int present;
  char name[512];
  struct mark *safes, *ckpts, *rollbacks, *restores;
  size_t n_safes, cap_safes, n_ckpts, cap_ckpts, n_rollbacks, cap_rollbacks,
      n_restores, cap_restores;
  int last_inc;
  int ended, end_inc; /* its end record was read; its incarnation */
  uint32_t end_line;
  int launch;     /* the launch of its file read last (a relaunched run) */
  uint32_t lines; /* lines read, every launch's file: a continuation's
                     lines are numbered after them */
};

struct commit {
  int wave, inc, rank;
  uint32_t line;
  double time;
};

struct ft_check {
  int ranks; /* 0 until the first header */
  char protocol[32];
  enum ft_family family;   /* from the first header: names control kinds */
  uint64_t run;            /* the run's identity, from the first header */
  char truncated[600];     /* the first truncated file and why; "" none */
  struct rank_trace *rank; /* ranks + 1: the scheduler's is the last */
  struct channel *chans;
  size_t n_chans, cap_chans;
  size_t *table; /* open addressing: channel index + 1, 0 empty */
  size_t cap_table;
  struct commit *commits;
  size_t n_commits, cap_commits;
  uint64_t events, messages;
  int stopped;    /* the dispatcher's stop record: the run could not progress */
  int run_launch; /* the launch whose header set `run` */
  /* A run relaunched after kills (failure=kill; ft_check_next_launch):
   * each rank's files of launches 0..N read as one history. */
  int launch;      /* the launch whose files are being read */
  int killed;      /* 1: that launch was killed (not the last) */
  double offset;   /* added to its times: they start at 0 again */
  double max_time; /* the latest time read so far, offset included */
  const struct ft_trace_visitor *visit; /* ft_trace_read's, else NULL */
  struct ft_coll_recs colls;            /* the `coll` records (coll_check.h) */
};

/* The files read next are of the next launch of a relaunched run (killed:
 * not the last launch): times go on after the launch before's latest. */
static void next_launch(struct ft_check *ck, int killed) {
  ck->launch++;
  ck->killed = killed;
  ck->offset = ck->max_time + 1.0;
}

struct ft_check *ft_check_new(void) {
  return calloc(1, sizeof(struct ft_check));
}

void ft_check_free(struct ft_check *ck) {
  if (!ck)
    return;
  for (size_t i = 0; i < ck->n_chans; i++) {
    free(ck->chans[i].sends);
    free(ck->chans[i].dels);
    free(ck->chans[i].supps);
    free(ck->chans[i].recs);
    free(ck->chans[i].restored);
  }
  for (int r = 0; ck->rank && r <= ck->ranks; r++) {
    free(ck->rank[r].safes);
    free(ck->rank[r].ckpts);
    free(ck->rank[r].rollbacks);
    free(ck->rank[r].restores);
  }
  free(ck->rank);
  free(ck->chans);
  free(ck->table);
  free(ck->commits);
  free(ck->colls.at);
  free(ck);
}

/* ---- Channels ---- */

static size_t chan_hash(int inc, int comm, int coll, int src, int dst,
                        int tag) {
  uint64_t h = 1469598103934665603ull;
  const int v[6] = {inc, comm, coll, src, dst, tag};
  for (int i = 0; i < 6; i++)
    h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
  return (size_t)(h ^ (h >> 31));
}

static int chan_is(const struct channel *c, int inc, int comm, int coll,
                   int src, int dst, int tag) {
  return c->inc == inc && c->comm == comm && c->coll == coll && c->src == src &&
         c->dst == dst && c->tag == tag;
}

static size_t *chan_slot(struct ft_check *ck, int inc, int comm, int coll,
                         int src, int dst, int tag) {
  size_t mask = ck->cap_table - 1;
  for (size_t i = chan_hash(inc, comm, coll, src, dst, tag) & mask;;
       i = (i + 1) & mask)
    if (ck->table[i] == 0 ||
        chan_is(&ck->chans[ck->table[i] - 1], inc, comm, coll, src, dst, tag))
      return &ck->table[i];
}

/* The channel, or NULL when `create` is 0 and it has no message. */
static struct channel *channel(struct ft_check *ck, int inc, int comm, int coll,
                               int src, int dst, int tag, int create) {
  if (ck->cap_table == 0 && !create)
    return NULL;
  if (2 * (ck->n_chans + 1) > ck->cap_table) {
    size_t cap = ck->cap_table ? 2 * ck->cap_table : 1024;
    free(ck->table);
    ck->table = calloc(cap, sizeof *ck->table);
    if (!ck->table) {
      fprintf(stderr, "ftsim check: out of memory\n");
      abort();
    }
    ck->cap_table = cap;
    for (size_t i = 0; i < ck->n_chans; i++) {
      const struct channel *c = &ck->chans[i];
      *chan_slot(ck, c->inc, c->comm, c->coll, c->src, c->dst, c->tag) = i + 1;
    }
  }
  size_t *slot = chan_slot(ck, inc, comm, coll, src, dst, tag);
  if (*slot)
    return &ck->chans[*slot - 1];
  if (!create)
    return NULL;
  struct channel c = {.inc = inc,
                      .comm = comm,
                      .coll = coll,
                      .src = src,
                      .dst = dst,
                      .tag = tag};
  PUSH(ck->chans, ck->n_chans, ck->cap_chans, c);
  *slot = ck->n_chans;
  return &ck->chans[ck->n_chans - 1];
}

/* ---- Reading ---- */

enum { MAX_FIELDS = 16 };

struct reader {
  struct ft_check *ck;
  const char *name;
  int line;
  int rank;    /* the file's */
  double time; /* the record's, offset included */
  struct ft_check_result *res;
  char *tok[MAX_FIELDS];
  int n;
};

static int bad(struct reader *rd, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(struct reader *rd, const char *field, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_v(rd->res->message, sizeof rd->res->message, rd->name, rd->line,
              field, fmt, ap);
  va_end(ap);
  rd->res->status = FT_CHECK_MALFORMED;
  rd->res->kind = "";
  return -1;
}

/* Parses token i as an integer in [min, max]. */
static int int_field(struct reader *rd, int i, const char *field, int64_t min,
                     int64_t max, int64_t *out) {
  if (i >= rd->n)
    return bad(rd, field, "missing");
  const char *s = rd->tok[i];
  int neg = *s == '-';
  const char *p = s + neg;
  if (!*p)
    return bad(rd, field, "expected an integer, got '%s'", s);
  uint64_t v = 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
      return bad(rd, field, "expected an integer, got '%s'", s);
    v = v * 10 + (uint64_t)(*p - '0');
  }
  if (v > (uint64_t)INT64_MAX)
    return bad(rd, field, "integer '%s' out of range", s);
  int64_t x = neg ? -(int64_t)v : (int64_t)v;
  if (x < min || x > max)
    return bad(rd, field, "%s is outside [%lld, %lld]", s, (long long)min,
               (long long)max);
  *out = x;
  return 0;
}

static int int32_field(struct reader *rd, int i, const char *field, int64_t min,
                       int64_t max, int *out) {
  int64_t v;
  if (int_field(rd, i, field, min, max, &v))
    return -1;
  *out = (int)v;
  return 0;
}

/* Parses token i as seconds >= 0, shifted by the launch's offset. */
static int time_field(struct reader *rd, int i, const char *field,
                      double *out) {
  if (i >= rd->n)
    return bad(rd, field, "missing");
  char *end;
  errno = 0;
  double t = strtod(rd->tok[i], &end);
  if (errno || end == rd->tok[i] || *end || !(t >= 0) || t > 1e15)
    return bad(rd, field, "expected seconds >= 0, got '%s'", rd->tok[i]);
  *out = t + rd->ck->offset;
  return 0;
}

static int expect_fields(struct reader *rd, int n, const char *names) {
  if (rd->n == n)
    return 0;
  return bad(rd, NULL,
             "record '%s' has %d fields after the kind, expected %d "
             "(%s)",
             rd->tok[3], rd->n - 4, n - 4, names);
}

static int channel_kind(struct reader *rd, int i, int *coll) {
  if (strcmp(rd->tok[i], "p") == 0 || strcmp(rd->tok[i], "c") == 0) {
    *coll = rd->tok[i][0] == 'c';
    return 0;
  }
  return bad(rd, "channel", "expected p or c, got '%s'", rd->tok[i]);
}

static const char MSG_FIELDS[] = "COMM CH PEER TAG SEQ BYTES";

/* The fields of a message record (send, resend, deliver, suppress), read
 * and checked; -1 with the error set. */
static int message_fields(struct reader *rd, int *comm, int *coll, int *peer,
                          int *tag, int64_t *seq) {
  int64_t bytes;
  if (expect_fields(rd, 10, MSG_FIELDS) ||
      int32_field(rd, 4, "comm", 0, INT32_MAX, comm) ||
      channel_kind(rd, 5, coll) ||
      int32_field(rd, 6, "peer", 0, rd->ck->ranks - 1, peer) ||
      int32_field(rd, 7, "tag", INT32_MIN, INT32_MAX, tag) ||
      int_field(rd, 8, "seq", 1, INT64_MAX, seq) ||
      int_field(rd, 9, "bytes", 0, INT64_MAX, &bytes))
    return -1;
  if (rd->rank >= rd->ck->ranks)
    return bad(rd, NULL, "the scheduler's trace holds a message");
  return 0;
}

/* send, resend, deliver. */
static int read_message(struct reader *rd, int inc, int deliver, int resend) {
  struct ft_check *ck = rd->ck;
  int comm, coll, peer, tag;
  int64_t seq;
  if (message_fields(rd, &comm, &coll, &peer, &tag, &seq))
    return -1;
  int src = deliver ? peer : rd->rank, dst = deliver ? rd->rank : peer;
  struct channel *c = channel(ck, inc, comm, coll, src, dst, tag, 1);
  size_t have = deliver ? c->n_dels : c->n_sends;
  if ((uint64_t)seq != have + 1)
    return bad(rd, "seq",
               "expected %zu (message %zu of channel comm %d %s %d->%d tag "
               "%d in incarnation %d), got %lld",
               have + 1, have + 1, comm, coll ? "c" : "p", src, dst, tag, inc,
               (long long)seq);
  if (deliver) {
    PUSH(c->dels, c->n_dels, c->cap_dels, (uint32_t)rd->line);
  } else {
    struct send_line s = {(uint32_t)rd->line, (uint32_t)resend};
    PUSH(c->sends, c->n_sends, c->cap_sends, s);
    ck->messages++;
  }
  return 0;
}

/* suppress: a send the sender did not carry out (the piggyback family),
 * numbered apart from the channel's sends. */
static int read_suppress(struct reader *rd, int inc) {
  struct ft_check *ck = rd->ck;
  int comm, coll, peer, tag;
  int64_t seq;
  if (message_fields(rd, &comm, &coll, &peer, &tag, &seq))
    return -1;
  struct channel *c = channel(ck, inc, comm, coll, rd->rank, peer, tag, 1);
  if ((uint64_t)seq != c->n_supps + 1)
    return bad(rd, "seq",
               "expected %zu (suppressed send %zu of channel comm %d %s "
               "%d->%d tag %d in incarnation %d), got %lld",
               c->n_supps + 1, c->n_supps + 1, comm, coll ? "c" : "p", rd->rank,
               peer, tag, inc, (long long)seq);
  PUSH(c->supps, c->n_supps, c->cap_supps, (uint32_t)rd->line);
  return 0;
}

/* coll: a collective call carried as one unit (the piggyback family,
 * c3-collectives section 5): COMM CALL ID HOW SEQ EPOCH ROOT, HOW one of
 * run, log, replay, suppress, reexec, kept for the rule of coll_check.h,
 * which matches the members' records by (COMM, SEQ); or `combined`, the
 * call's form (section 6's combined form: its bits packed with its blocks),
 * checked for its fields only, its run or log record following. The
 * call's own messages are not traced, so the channel rules do not see
 * them. */
static int read_coll(struct reader *rd, int inc) {
  int64_t id, seq;
  struct ft_coll_rec r = {
      .rank = rd->rank, .inc = inc, .line = (uint32_t)rd->line};
  if (expect_fields(rd, 11, "COMM CALL ID HOW SEQ EPOCH ROOT") ||
      int32_field(rd, 4, "comm", 0, INT32_MAX, &r.comm) ||
      int32_field(rd, 5, "call", 1, 17, &r.call) ||
      int_field(rd, 6, "id", 0, INT64_MAX, &id))
    return -1;
  bool form = strcmp(rd->tok[7], "combined") == 0;
  if (!form && ft_coll_how_parse(rd->tok[7], &r.how) != 0)
    return bad(rd, "how",
               "expected run, log, replay, suppress, reexec or combined, got "
               "'%s'",
               rd->tok[7]);
  if (int_field(rd, 8, "seq", 1, INT64_MAX, &seq) ||
      int32_field(rd, 9, "epoch", 0, INT32_MAX, &r.epoch) ||
      int32_field(rd, 10, "root", -1, rd->ck->ranks - 1, &r.root))
    return -1;
  if (form)
    return 0;
  r.seq = seq;
  PUSH(rd->ck->colls.at, rd->ck->colls.n, rd->ck->colls.cap, r);
  return 0;
}

static int read_chanrec(struct reader *rd, int inc) {
  int wave, comm, coll, peer, tag;
  int64_t seq;
  if (expect_fields(rd, 10, "WAVE COMM CH PEER TAG SEQ") ||
      int32_field(rd, 4, "wave", 1, INT32_MAX, &wave) ||
      int32_field(rd, 5, "comm", 0, INT32_MAX, &comm) ||
      channel_kind(rd, 6, &coll) ||
      int32_field(rd, 7, "peer", 0, rd->ck->ranks - 1, &peer) ||
      int32_field(rd, 8, "tag", INT32_MIN, INT32_MAX, &tag) ||
      int_field(rd, 9, "seq", 1, INT64_MAX, &seq))
    return -1;
  if (rd->rank >= rd->ck->ranks)
    return bad(rd, NULL, "the scheduler's trace holds channel state");
  struct channel *c = channel(rd->ck, inc, comm, coll, peer, rd->rank, tag, 1);
  if ((uint64_t)seq > c->n_dels)
    return bad(rd, "seq",
               "channel state names message %lld, which rank %d has not "
               "received (%zu so far)",
               (long long)seq, rd->rank, c->n_dels);
  struct chanrec r = {wave, seq, (uint32_t)rd->line};
  PUSH(c->recs, c->n_recs, c->cap_recs, r);
  return 0;
}

/* restored COMM CH PEER TAG SEQ: any-call mode, a message of PEER kept
 * as channel state, restored at this rank after the rollback that began
 * this incarnation (SEQ: its number where it was recorded). */
static int read_restored(struct reader *rd, int inc) {
  int comm, coll, peer, tag;
  int64_t seq;
  if (expect_fields(rd, 9, "COMM CH PEER TAG SEQ") ||
      int32_field(rd, 4, "comm", 0, INT32_MAX, &comm) ||
      channel_kind(rd, 5, &coll) ||
      int32_field(rd, 6, "peer", 0, rd->ck->ranks - 1, &peer) ||
      int32_field(rd, 7, "tag", INT32_MIN, INT32_MAX, &tag) ||
      int_field(rd, 8, "seq", 1, INT64_MAX, &seq))
    return -1;
  if (rd->rank >= rd->ck->ranks)
    return bad(rd, NULL, "the scheduler's trace holds channel state");
  struct channel *c = channel(rd->ck, inc, comm, coll, peer, rd->rank, tag, 1);
  if (c->n_dels > 0)
    return bad(rd, "seq",
               "channel state restored after %zu deliveries of its channel",
               c->n_dels);
  PUSH(c->restored, c->n_restored, c->cap_restored, seq);
  return 0;
}

/* safe, restore, ckpt, rollback: one or two numbers. */
static int read_mark(struct reader *rd, int inc, double time, const char *kind,
                     struct rank_trace *t) {
  struct mark m = {.inc = inc, .line = (uint32_t)rd->line, .time = time};
  int is_safe = strcmp(kind, "safe") == 0;
  if (is_safe) {
    if (expect_fields(rd, 5, "INDEX") ||
        int_field(rd, 4, "index", 1, INT64_MAX, &m.index))
      return -1;
  } else if (expect_fields(rd, 6, "WAVE INDEX") ||
             int32_field(rd, 4, "wave", strcmp(kind, "ckpt") == 0 ? 1 : 0,
                         INT32_MAX, &m.wave) ||
             int_field(rd, 5, "index", 0, INT64_MAX, &m.index)) {
    return -1;
  }
  if (rd->rank >= rd->ck->ranks)
    return bad(rd, NULL, "the scheduler's trace holds a '%s' record", kind);
  if (is_safe || strcmp(kind, "restore") == 0)
    PUSH(t->safes, t->n_safes, t->cap_safes, m);
  if (strcmp(kind, "restore") == 0)
    PUSH(t->restores, t->n_restores, t->cap_restores, m);
  else if (strcmp(kind, "ckpt") == 0)
    PUSH(t->ckpts, t->n_ckpts, t->cap_ckpts, m);
  else if (strcmp(kind, "rollback") == 0)
    PUSH(t->rollbacks, t->n_rollbacks, t->cap_rollbacks, m);
  return 0;
}

static int read_commit(struct reader *rd, double time) {
  struct commit c = {
      .rank = rd->rank, .line = (uint32_t)rd->line, .time = time};
  if (expect_fields(rd, 6, "WAVE INC") ||
      int32_field(rd, 4, "wave", 1, INT32_MAX, &c.wave) ||
      int32_field(rd, 5, "inc", 0, INT32_MAX, &c.inc))
    return -1;
  PUSH(rd->ck->commits, rd->ck->n_commits, rd->ck->cap_commits, c);
  return 0;
}

/* The control kinds are the family's (ft_control_parse). */
static int read_control(struct reader *rd) {
  int64_t v;
  int kind;
  if (expect_fields(rd, 8, "CTL PEER WAVE VALUE"))
    return -1;
  if (ft_control_parse(rd->ck->family, rd->tok[4], &kind) != 0)
    return bad(rd, "ctl", "unknown control message '%s' (family %s)",
               rd->tok[4], ft_family_name(rd->ck->family));
  return int_field(rd, 5, "peer", 0, rd->ck->ranks, &v) ||
                 int_field(rd, 6, "wave", 0, INT32_MAX, &v) ||
                 int_field(rd, 7, "value", INT64_MIN, INT64_MAX, &v)
             ? -1
             : 0;
}

/* The last record of a file: the rank finished, in incarnation inc. */
static int read_end(struct reader *rd, int inc, struct rank_trace *t) {
  if (expect_fields(rd, 4, "none"))
    return -1;
  t->ended = 1;
  t->end_inc = inc;
  t->end_line = (uint32_t)rd->line;
  return 0;
}

/* The dispatcher stopped the run (it could not progress, README "Runs that
 * cannot progress"): WHY is stall_failures or max_time, INC the
 * dispatcher's incarnation then. */
static int read_stop(struct reader *rd) {
  int64_t v;
  if (expect_fields(rd, 6, "WHY INC") ||
      int_field(rd, 5, "inc", 0, INT32_MAX, &v))
    return -1;
  if (strcmp(rd->tok[4], "stall_failures") && strcmp(rd->tok[4], "max_time"))
    return bad(rd, "why", "expected stall_failures or max_time, got '%s'",
               rd->tok[4]);
  rd->ck->stopped = 1;
  return 0;
}

/* compute START, block START, image WAVE START: a span of the rank's time
 * (the timeline's boxes), written at its end; START is not after it. */
static int read_span(struct reader *rd, const char *kind) {
  int64_t wave;
  double start;
  int image = strcmp(kind, "image") == 0;
  if (image ? expect_fields(rd, 6, "WAVE START") ||
                  int_field(rd, 4, "wave", 1, INT32_MAX, &wave)
            : expect_fields(rd, 5, "START"))
    return -1;
  if (time_field(rd, image ? 5 : 4, "start", &start))
    return -1;
  if (start > rd->time)
    return bad(rd, "start", "%s is after the record's time %s",
               rd->tok[image ? 5 : 4], rd->tok[0]);
  if (rd->rank >= rd->ck->ranks)
    return bad(rd, NULL, "the scheduler's trace holds a '%s' record", kind);
  return 0;
}

static int read_record(struct reader *rd) {
  struct ft_check *ck = rd->ck;
  if (rd->n < 4)
    return bad(rd, NULL, "expected TIME RANK INC KIND ..., got %d fields",
               rd->n);
  double time;
  if (time_field(rd, 0, "time", &time))
    return -1;
  rd->time = time;
  if (time > ck->max_time)
    ck->max_time = time;
  int rank, inc;
  if (int32_field(rd, 1, "rank", rd->rank, rd->rank, &rank) ||
      int32_field(rd, 2, "inc", 0, INT32_MAX, &inc))
    return -1;
  struct rank_trace *t = &ck->rank[rd->rank];
  if (t->ended)
    return bad(rd, "kind",
               "a '%s' record after the end record (line %u): two runs in "
               "one file?",
               rd->tok[3], t->end_line);
  if (inc < t->last_inc)
    return bad(rd, "inc", "incarnation %d after %d", inc, t->last_inc);
  t->last_inc = inc;
  const char *kind = rd->tok[3];
  ck->events++;
  if (strcmp(kind, "send") == 0)
    return read_message(rd, inc, 0, 0);
  if (strcmp(kind, "deliver") == 0)
    return read_message(rd, inc, 1, 0);
  if (strcmp(kind, "resend") == 0)
    return read_message(rd, inc, 0, 1);
  if (strcmp(kind, "suppress") == 0)
    return read_suppress(rd, inc);
  if (strcmp(kind, "coll") == 0)
    return read_coll(rd, inc);
  if (strcmp(kind, "safe") == 0 || strcmp(kind, "restore") == 0 ||
      strcmp(kind, "ckpt") == 0 || strcmp(kind, "rollback") == 0)
    return read_mark(rd, inc, time, kind, t);
  if (strcmp(kind, "commit") == 0)
    return read_commit(rd, time);
  if (strcmp(kind, "chanrec") == 0)
    return read_chanrec(rd, inc);
  if (strcmp(kind, "restored") == 0)
    return read_restored(rd, inc);
  if (strcmp(kind, "store") == 0) {
    int64_t w;
    return expect_fields(rd, 5, "WAVE") ||
                   int_field(rd, 4, "wave", 1, INT32_MAX, &w)
               ? -1
               : 0;
  }
  if (strcmp(kind, "pending") == 0) { /* c3 in a replay: informative */
    int64_t w, n;
    return expect_fields(rd, 6, "WAVE N") ||
                   int_field(rd, 4, "wave", 1, INT32_MAX, &w) ||
                   int_field(rd, 5, "requests", 0, INT64_MAX, &n)
               ? -1
               : 0;
  }
  if (strcmp(kind, "ctl-send") == 0 || strcmp(kind, "ctl-recv") == 0)
    return read_control(rd);
  if (strcmp(kind, "end") == 0)
    return read_end(rd, inc, t);
  if (strcmp(kind, "stop") == 0)
    return read_stop(rd);
  if (strcmp(kind, "fail") == 0) { /* the dispatcher's: fail_check.c */
    int64_t r;
    double until;
    if (expect_fields(rd, 6, "RANK UNTIL") ||
        int_field(rd, 4, "rank", 0, INT32_MAX, &r) ||
        time_field(rd, 5, "until", &until))
      return -1;
    return until < time
               ? bad(rd, "until", "%s is before the failure", rd->tok[5])
               : 0;
  }
  if (ft_trace_is_span(kind))
    return read_span(rd, kind);
  return bad(rd, "kind", "unknown record kind '%s'", kind);
}

int ft_check_header(const char *line, struct ft_trace_header *h, char *err,
                    size_t len) {
  int version, used = 0;
  unsigned long long run;
  char family[32];
  if (sscanf(line, "# ftsim-trace %d", &version) == 1 && version != 3) {
    snprintf(err, len,
             "trace format %d, this checker reads 3 (trace again with this "
             "build)",
             version);
    return -1;
  }
  if (sscanf(line,
             "# ftsim-trace 3 rank %d ranks %d protocol %31s family %31s run "
             "%16llx%n",
             &h->rank, &h->ranks, h->protocol, family, &run, &used) != 5 ||
      (line[used] != '\0' && strcmp(line + used, " mode real") != 0)) {
    snprintf(err, len,
             "expected '# ftsim-trace 3 rank R ranks N protocol P family F "
             "run ID [mode real]'");
    return -1;
  }
  if (ft_family_parse(family, &h->family) != 0) {
    snprintf(err, len, "unknown protocol family '%s'", family);
    return -1;
  }
  h->run = run;
  h->real = line[used] != '\0';
  if (h->ranks < 1 || h->ranks > 1 << 20 || h->rank < 0 || h->rank > h->ranks) {
    snprintf(err, len, "rank %d of %d ranks", h->rank, h->ranks);
    return -1;
  }
  return 0;
}

/* The first file's header says which run; every other must be of it. */
static int same_run(struct reader *rd, const struct ft_trace_header *h) {
  const struct ft_check *ck = rd->ck;
  const char *first = "the first file";
  for (int r = 0; r <= ck->ranks; r++)
    if (ck->rank[r].present) {
      first = ck->rank[r].name;
      break;
    }
  if (h->run != ck->run)
    return bad(rd, "run",
               "run %016llx, but %s is of run %016llx: files of different "
               "runs",
               (unsigned long long)h->run, first, (unsigned long long)ck->run);
  if (h->ranks != ck->ranks || strcmp(h->protocol, ck->protocol) != 0)
    return bad(rd, "header",
               "ranks %d protocol %s, but %s says ranks %d protocol %s",
               h->ranks, h->protocol, first, ck->ranks, ck->protocol);
  return 0;
}

static int read_header(struct reader *rd, char *text) {
  struct ft_check *ck = rd->ck;
  struct ft_trace_header h;
  char err[160];
  if (ft_check_header(text, &h, err, sizeof err) != 0)
    return bad(rd, "header", "%s", err);
  int rank = h.rank;
  if (ck->ranks == 0) {
    ck->ranks = h.ranks;
    ck->run = h.run;
    snprintf(ck->protocol, sizeof ck->protocol, "%s", h.protocol);
    ck->family = h.family;
    ck->rank = calloc((size_t)h.ranks + 1, sizeof *ck->rank);
    if (!ck->rank)
      return bad(rd, NULL, "out of memory");
  } else if (ck->launch > 0 && ck->run_launch != ck->launch) {
    ck->run = h.run; /* a relaunch draws its own id: checked within it */
    ck->run_launch = ck->launch;
    if (same_run(rd, &h) != 0)
      return -1;
  } else if (same_run(rd, &h) != 0) {
    return -1;
  }
  if (rank < 0 || rank > ck->ranks)
    return bad(rd, "rank", "rank %d out of range", rank);
  if (ck->rank[rank].present && ck->rank[rank].launch == ck->launch)
    return bad(rd, "rank", "a second trace of rank %d (first: %s)", rank,
               ck->rank[rank].name);
  if (ck->rank[rank].present) /* a relaunch's file continues the history */
    rd->line += (int)ck->rank[rank].lines;
  ck->rank[rank].present = 1;
  ck->rank[rank].launch = ck->launch;
  snprintf(ck->rank[rank].name, sizeof ck->rank[rank].name, "%s", rd->name);
  rd->rank = rank;
  if (ck->visit && ck->visit->header)
    ck->visit->header(ck->visit->ctx, rd->name, &h);
  return 0;
}

/* Hands the record just read to ft_trace_read's visitor. */
static int visit(struct reader *rd) {
  const struct ft_trace_visitor *v = rd->ck->visit;
  if (!v || !v->record)
    return 0;
  struct ft_trace_record r = {.file = rd->name,
                              .line = rd->line,
                              .rank = rd->rank,
                              .time = rd->time,
                              .offset = rd->ck->offset,
                              .inc = atoi(rd->tok[2]),
                              .kind = rd->tok[3],
                              .field = rd->tok + 4,
                              .n = rd->n - 4};
  if (v->record(v->ctx, &r, rd->res) == 0)
    return 0;
  rd->res->status = FT_CHECK_MALFORMED;
  rd->res->kind = "";
  return -1;
}

/* A truncated file (the run did not finish) is bad input, reported after
 * the checks that hold on a prefix of every rank's history. */
static void note_truncated(struct reader *rd, const char *why) {
  struct ft_check *ck = rd->ck;
  if (ck->truncated[0])
    return;
  char where[32] = "";
  if (rd->line > 0)
    snprintf(where, sizeof where, ":%d", rd->line);
  snprintf(ck->truncated, sizeof ck->truncated,
           "%.500s%s: %s: the trace is truncated (the run did not finish)",
           rd->name, where, why);
}

static char *slurp(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *b = realloc(buf, 2 * cap + 1);
    if (!b)
      free(buf);
    buf = b;
    cap *= 2;
  }
  if (buf)
    buf[n] = '\0';
  *len = n;
  return buf;
}

int ft_check_read(struct ft_check *ck, const char *name, FILE *f,
                  struct ft_check_result *res) {
  struct reader rd = {.ck = ck, .name = name, .res = res, .rank = -1};
  size_t len;
  char *buf = slurp(f, &len);
  if (!buf || ferror(f)) {
    free(buf);
    return bad(&rd, NULL, "cannot read");
  }
  int rc = 0;
  char *p = buf, *end = buf + len;
  while (rc == 0 && p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    rd.line++;
    if (!nl && rd.rank < 0)
      rc = bad(&rd, "header", "the header is cut in the middle");
    if (!nl) {         /* torn: the run ended in the middle of a line */
      if (!ck->killed) /* else the kill cut it: dropped */
        note_truncated(&rd, "the last line is cut in the middle");
      break;
    }
    *nl = '\0';
    if (strlen(p) != (size_t)(nl - p))
      rc = bad(&rd, NULL, "a NUL byte in the line");
    else if (rd.line == 1)
      rc = read_header(&rd, p);
    else if (*p == '#' && ck->visit && ck->visit->comment)
      ck->visit->comment(ck->visit->ctx, rd.name, p + 1);
    else if (*p != '#') {
      rd.n = 0;
      for (char *s = NULL, *w = strtok_r(p, " ", &s); w;
           w = strtok_r(NULL, " ", &s))
        if (rd.n < MAX_FIELDS)
          rd.tok[rd.n++] = w;
      rc = read_record(&rd);
      if (rc == 0)
        rc = visit(&rd);
    }
    p = nl + 1;
  }
  if (rc == 0 && rd.rank < 0)
    rc = bad(&rd, "header", "empty file: no header");
  if (rc == 0)
    ck->rank[rd.rank].lines = (uint32_t)rd.line;
  if (rc == 0 && !ck->rank[rd.rank].ended && !ck->killed) {
    rd.line = 0;
    note_truncated(&rd, "no end record");
  }
  free(buf);
  return rc;
}

/* ---- Checking ---- */

struct checker {
  struct ft_check *ck;
  struct ft_check_result *res;
  uint32_t *kpos; /* per rank: line of the safe point of a cut */
  uint32_t *rpos; /* per rank: the line its receptions at the cut are
                     counted to: kpos, or for the drain family its
                     checkpoint's (held at the safe point, it drains the
                     wire until then: lam-mpi-blcr, Figure 9) */
};

static int violation(struct checker *c, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int violation(struct checker *c, const char *kind, const char *fmt,
                     ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->res->message, sizeof c->res->message, fmt, ap);
  va_end(ap);
  c->res->status = FT_CHECK_VIOLATION;
  c->res->kind = kind;
  return -1;
}

/* "msg (inc 0, comm 0 p, 1->2, tag 7, #15)" */
static const char *msg_id(char *buf, size_t len, const struct channel *ch,
                          int64_t seq) {
  snprintf(buf, len, "message (inc %d, comm %d %s, %d->%d, tag %d, #%lld)",
           ch->inc, ch->comm, ch->coll ? "c" : "p", ch->src, ch->dst, ch->tag,
           (long long)seq);
  return buf;
}

static const char *file_of(const struct ft_check *ck, int rank) {
  return ck->rank[rank].name;
}

/* Lines (sorted) before `line`. */
static size_t lines_before_u32(const uint32_t *v, size_t n, uint32_t line) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static size_t sends_before(const struct send_line *v, size_t n, uint32_t line) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].line < line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int check_phantoms(struct checker *c) {
  char id[160];
  for (size_t i = 0; i < c->ck->n_chans; i++) {
    const struct channel *ch = &c->ck->chans[i];
    /* A killed launch's incarnation (a relaunched run's launch L runs
     * incarnation L): the kill may cut a send's record after the send. */
    if (ch->n_dels > ch->n_sends && ch->inc >= c->ck->launch)
      return violation(c, "phantom",
                       "%s delivered at %s:%u was never sent by rank %d",
                       msg_id(id, sizeof id, ch, (int64_t)ch->n_sends + 1),
                       file_of(c->ck, ch->dst), ch->dels[ch->n_sends], ch->src);
  }
  return 0;
}

/* Fills c->kpos for the cut of commit `cm`: each rank's checkpoint of the
 * wave in the commit's incarnation, and the line of its safe point. */
static int cut_of(struct checker *c, const struct commit *cm) {
  struct ft_check *ck = c->ck;
  for (int r = 0; r < ck->ranks; r++) {
    const struct rank_trace *t = &ck->rank[r];
    const struct mark *k = NULL;
    for (size_t i = 0; i < t->n_ckpts; i++)
      if (t->ckpts[i].inc == cm->inc && t->ckpts[i].wave == cm->wave)
        k = &t->ckpts[i];
    if (!k)
      return violation(c, "commit",
                       "wave %d committed in incarnation %d (%s:%u) but rank "
                       "%d took no checkpoint of it",
                       cm->wave, cm->inc, file_of(ck, cm->rank), cm->line, r);
    /* The last record of that safe point before the checkpoint: in an
     * any-call replay a rank restored inside call K may checkpoint in the
     * same call K again (its restore and its "safe K" share the index). */
    const struct mark *s = NULL;
    for (size_t i = 0; i < t->n_safes; i++)
      if (t->safes[i].inc == k->inc && t->safes[i].index == k->index &&
          (!s || t->safes[i].line < k->line))
        s = &t->safes[i];
    if (!s)
      return violation(c, "commit",
                       "rank %d's checkpoint of wave %d (%s:%u) names safe "
                       "point %lld, which it never reached in incarnation %d",
                       r, cm->wave, t->name, k->line, (long long)k->index,
                       k->inc);
    c->kpos[r] = s->line;
    c->rpos[r] = ck->family == FT_FAMILY_DRAIN ? k->line : s->line;
  }
  return 0;
}

/* S and R of channel `ch` at the cut in c->kpos. The piggyback family
 * (c3) lets a cut hold early messages (R > S: received before the
 * receiver's checkpoint, sent after the sender's) as its recovery line:
 * c3-collectives, section 3.3, "resending these messages can be
 * suppressed": the sender's re-execution does not send messages S+1..R
 * again (a suppressed send leaves no send line), so at the cut they count
 * as sent (S = R), and the rules below then check that none is lost or
 * delivered twice, as for its late messages (R+1..S: its log's, sent
 * again). */
static void cut_counts(const struct checker *c, const struct channel *ch,
                       size_t *S, size_t *R, size_t *early) {
  *S = sends_before(ch->sends, ch->n_sends, c->kpos[ch->src]);
  *R = lines_before_u32(ch->dels, ch->n_dels, c->rpos[ch->dst]);
  if (early)
    *early = 0;
  if (c->ck->family == FT_FAMILY_PIGGYBACK && *R > *S) {
    if (early)
      *early = *R - *S;
    *S = *R;
  }
}

static int check_channel_state(struct checker *c, const struct commit *cm,
                               const struct channel *ch, size_t S, size_t R) {
  char id[160];
  int64_t want = (int64_t)R + 1; /* next message in transit */
  for (size_t i = 0; i < ch->n_recs; i++) {
    const struct chanrec *r = &ch->recs[i];
    if (r->wave != cm->wave)
      continue;
    if (want <= (int64_t)S && r->seq > want)
      break; /* `want` is missing */
    if (r->seq != want || want > (int64_t)S)
      return violation(
          c, "channel-state",
          "wave %d: rank %d recorded %s as channel state (%s:%u), but it is "
          "not in transit: received %s its checkpoint, sent %s the "
          "sender's",
          cm->wave, ch->dst, msg_id(id, sizeof id, ch, r->seq),
          file_of(c->ck, ch->dst), r->line,
          (size_t)r->seq <= R ? "before" : "after",
          (size_t)r->seq <= S ? "before" : "after");
    want++;
  }
  if (want <= (int64_t)S)
    return violation(
        c, "channel-state",
        "wave %d (committed at %s:%u): %s is in transit (sent by rank %d at "
        "%s:%u before its checkpoint, received by rank %d after its own) "
        "but missing from rank %d's channel state",
        cm->wave, file_of(c->ck, cm->rank), cm->line,
        msg_id(id, sizeof id, ch, want), ch->src, file_of(c->ck, ch->src),
        ch->sends[want - 1].line, ch->dst, ch->dst);
  return 0;
}

/* The drain family (bookmark, lam-mpi-blcr, section 3.1: "The approach
 * adopted in LAM ensures that all the MPI communication channels between
 * the processes are empty when a checkpoint is taken"): at a committed
 * wave every channel is empty, S = R, and no channel state is recorded. */
static int check_drained(struct checker *c, const struct commit *cm,
                         const struct channel *ch, size_t S, size_t R) {
  char id[160];
  for (size_t i = 0; i < ch->n_recs; i++)
    if (ch->recs[i].wave == cm->wave)
      return violation(
          c, "undrained",
          "wave %d: rank %d recorded %s as channel state (%s:%u): a drained "
          "checkpoint holds empty channels",
          cm->wave, ch->dst, msg_id(id, sizeof id, ch, ch->recs[i].seq),
          file_of(c->ck, ch->dst), ch->recs[i].line);
  if (S > R)
    return violation(
        c, "undrained",
        "wave %d (committed at %s:%u): channel %d->%d was not drained: %s "
        "was sent by rank %d before its checkpoint (%s:%u) and received by "
        "rank %d after its own (%zu sent, %zu received at the cut)",
        cm->wave, file_of(c->ck, cm->rank), cm->line, ch->src, ch->dst,
        msg_id(id, sizeof id, ch, (int64_t)R + 1), ch->src,
        file_of(c->ck, ch->src), ch->sends[R].line, ch->dst, S, R);
  return 0;
}

static int check_commit(struct checker *c, const struct commit *cm) {
  char id[160];
  if (cut_of(c, cm))
    return -1;
  for (size_t i = 0; i < c->ck->n_chans; i++) {
    const struct channel *ch = &c->ck->chans[i];
    if (ch->inc != cm->inc)
      continue;
    size_t S, R;
    cut_counts(c, ch, &S, &R, NULL);
    if (R > S)
      return violation(
          c, "orphan",
          "wave %d (committed at %s:%u) is not a consistent cut: %s was "
          "received by rank %d before its checkpoint (%s:%u) and sent by "
          "rank %d after its own (%s:%u, safe point at line %u)",
          cm->wave, file_of(c->ck, cm->rank), cm->line,
          msg_id(id, sizeof id, ch, (int64_t)S + 1), ch->dst,
          file_of(c->ck, ch->dst), ch->dels[S], ch->src,
          file_of(c->ck, ch->src), ch->sends[S].line, c->kpos[ch->src]);
    if (c->ck->family == FT_FAMILY_DRAIN ? check_drained(c, cm, ch, S, R)
                                         : check_channel_state(c, cm, ch, S, R))
      return -1;
  }
  c->res->waves++;
  return 0;
}

static const struct mark *mark_of(const struct mark *v, size_t n, int inc) {
  for (size_t i = 0; i < n; i++)
    if (v[i].inc == inc)
      return &v[i];
  return NULL;
}

/* Where the failure-free sequence resumes on `rank` in incarnation inc:
 * its restore line (after a rollback to W > 0), its rollback line (W = 0),
 * or past the end (it never got there). */
static uint32_t resume_line(const struct rank_trace *t, int inc, int wave) {
  const struct mark *m = wave > 0 ? mark_of(t->restores, t->n_restores, inc)
                                  : mark_of(t->rollbacks, t->n_rollbacks, inc);
  return m ? m->line : UINT32_MAX;
}

/* The channel of incarnation j replays the failure-free sequence from the
 * cut (S, R) of its channel in the committed wave's incarnation. */
static int check_replayed_channel(struct checker *c, const struct channel *ch,
                                  int wave, size_t S, size_t R) {
  const struct ft_check *ck = c->ck;
  char id[160], id2[160];
  uint32_t rs = resume_line(&ck->rank[ch->src], ch->inc, wave);
  uint32_t rr = resume_line(&ck->rank[ch->dst], ch->inc, wave);
  size_t resent = 0, fresh = 0, post = ch->n_restored;
  size_t n = ch->n_dels < ch->n_sends ? ch->n_dels : ch->n_sends;
  for (size_t k = 0; k < ch->n_restored; k++)
    if (ch->restored[k] != (int64_t)(R + k + 1) || R + k + 1 > S)
      return violation(
          c, "channel-state",
          "after the rollback to wave %d, rank %d restored message %lld of "
          "channel comm %d %s %d->%d tag %d as channel state, where message "
          "%zu of the %zu in transit at the cut was due",
          wave, ch->dst, (long long)ch->restored[k], ch->comm,
          ch->coll ? "c" : "p", ch->src, ch->dst, ch->tag, R + k + 1, S - R);
  for (size_t q = 0; q < ch->n_sends; q++)
    if (ch->sends[q].resend && ++resent > S - R && S >= R)
      return violation(
          c, "duplicate",
          "after the rollback to wave %d, rank %d replays %s (%s:%u) but "
          "only %zu of its messages were in transit",
          wave, ch->src, msg_id(id, sizeof id, ch, (int64_t)q + 1),
          file_of(ck, ch->src), ch->sends[q].line, S - R);
  resent = 0;
  for (size_t q = 0; q < n; q++) {
    const struct send_line *s = &ch->sends[q];
    int spro = s->line < rs, rpro = ch->dels[q] < rr;
    if (spro && rpro)
      continue;
    if (spro != rpro)
      return violation(
          c, "restore-order",
          "%s crosses the restore point of the rollback to wave %d: sent "
          "%s rank %d's restore (%s:%u), delivered %s rank %d's (%s:%u)",
          msg_id(id, sizeof id, ch, (int64_t)q + 1), wave,
          spro ? "before" : "after", ch->src, file_of(ck, ch->src), s->line,
          rpro ? "before" : "after", ch->dst, file_of(ck, ch->dst),
          ch->dels[q]);
    size_t ls = s->resend ? R + ++resent : S + ++fresh;
    size_t lr = R + ++post;
    if (ls == lr)
      continue;
    snprintf(id2, sizeof id2, "channel comm %d %s %d->%d tag %d", ch->comm,
             ch->coll ? "c" : "p", ch->src, ch->dst, ch->tag);
    if (ls > lr)
      return violation(
          c, "lost",
          "after the rollback to wave %d (incarnation %d), rank %d received "
          "message %zu of the failure-free sequence of %s (%s, %s:%u) where "
          "message %zu was due: messages %zu..%zu are lost",
          wave, ch->inc, ch->dst, ls, id2,
          msg_id(id, sizeof id, ch, (int64_t)q + 1), file_of(ck, ch->dst),
          ch->dels[q], lr, lr, ls - 1);
    return violation(c, "duplicate",
                     "after the rollback to wave %d (incarnation %d), rank %d "
                     "received message %zu of the failure-free sequence of %s "
                     "again (%s, %s:%u): it had message %zu already",
                     wave, ch->inc, ch->dst, ls, id2,
                     msg_id(id, sizeof id, ch, (int64_t)q + 1),
                     file_of(ck, ch->dst), ch->dels[q], lr - 1);
  }
  return 0;
}

/* The piggyback family's early messages of the restored cut (`early` on
 * ch's channel: received before the receiver's checkpoint, sent after the
 * sender's) are held by the receiver's checkpoint: the sender's
 * re-execution suppresses them (c3-collectives, section 3.3: "each
 * processor passes its list of messageID's to their sender processors so
 * that resending these messages can be suppressed"), before any new send
 * of the channel. A new send before the last of them is suppressed sends
 * an early message again (duplicate: the receiver will not expect it, or
 * takes it for the next); suppressing more than the early ones loses a
 * message the receiver never had (lost). */
static int check_suppressed(struct checker *c, const struct channel *ch,
                            int wave, size_t early) {
  const struct ft_check *ck = c->ck;
  char id[160];
  if (ch->n_supps > early)
    return violation(
        c, "lost",
        "after the rollback to wave %d, rank %d suppressed %zu sends of "
        "channel comm %d %s %d->%d tag %d (the last at %s:%u), but only %zu "
        "were early at the cut: the receiver never had the others",
        wave, ch->src, ch->n_supps, ch->comm, ch->coll ? "c" : "p", ch->src,
        ch->dst, ch->tag, file_of(ck, ch->src), ch->supps[ch->n_supps - 1],
        early);
  if (early == 0)
    return 0;
  uint32_t rs = resume_line(&ck->rank[ch->src], ch->inc, wave);
  uint32_t last = ch->n_supps == early ? ch->supps[early - 1] : UINT32_MAX;
  for (size_t q = 0; q < ch->n_sends; q++) {
    const struct send_line *s = &ch->sends[q];
    if (s->resend || s->line < rs || s->line > last)
      continue;
    return violation(
        c, "duplicate",
        "after the rollback to wave %d, rank %d sent %s (%s:%u) with %zu of "
        "the %zu early messages of its channel at the cut not suppressed: "
        "the receiver's checkpoint holds them, so one is sent again",
        wave, ch->src, msg_id(id, sizeof id, ch, (int64_t)q + 1),
        file_of(ck, ch->src), s->line, early - ch->n_supps, early);
  }
  return 0;
}

/* The commit a rollback to `wave` starting incarnation `inc` restores: the
 * latest commit of that wave in an earlier incarnation, or NULL. */
static const struct commit *restored_commit(const struct ft_check *ck, int inc,
                                            int wave) {
  const struct commit *cm = NULL;
  for (size_t i = 0; i < ck->n_commits; i++)
    if (ck->commits[i].wave == wave && ck->commits[i].inc < inc &&
        (!cm || ck->commits[i].inc >= cm->inc))
      cm = &ck->commits[i];
  return cm;
}

static int check_rollback(struct checker *c, int inc) {
  struct ft_check *ck = c->ck;
  int wave = -1, first = -1;
  for (int r = 0; r < ck->ranks; r++) {
    const struct mark *m =
        mark_of(ck->rank[r].rollbacks, ck->rank[r].n_rollbacks, inc);
    if (!m)
      continue;
    if (wave >= 0 && m->wave != wave)
      return violation(
          c, "rollback",
          "incarnation %d: rank %d restarts from wave %d "
          "(%s:%u), rank %d from wave %d",
          inc, first, wave, file_of(ck, first),
          mark_of(ck->rank[first].rollbacks, ck->rank[first].n_rollbacks, inc)
              ->line,
          r, m->wave);
    wave = m->wave;
    if (first < 0)
      first = r;
  }
  const struct commit *cm = restored_commit(ck, inc, wave);
  if (wave > 0 && !cm)
    return violation(
        c, "rollback",
        "incarnation %d restarts from wave %d (%s:%u), which no "
        "earlier incarnation committed",
        inc, wave, file_of(ck, first),
        mark_of(ck->rank[first].rollbacks, ck->rank[first].n_rollbacks, inc)
            ->line);
  for (size_t i = 0; i < ck->n_commits; i++)
    if (ck->commits[i].inc < inc && ck->commits[i].wave > wave)
      return violation(
          c, "rollback",
          "incarnation %d restarts from wave %d (%s:%u), but wave %d was "
          "committed before it, in incarnation %d (%s:%u): a lost commit",
          inc, wave, file_of(ck, first),
          mark_of(ck->rank[first].rollbacks, ck->rank[first].n_rollbacks, inc)
              ->line,
          ck->commits[i].wave, ck->commits[i].inc,
          file_of(ck, ck->commits[i].rank), ck->commits[i].line);
  if (cm && cut_of(c, cm))
    return -1;
  for (size_t i = 0; i < ck->n_chans; i++) {
    const struct channel *ch = &ck->chans[i];
    if (ch->inc != inc)
      continue;
    size_t S = 0, R = 0, early = 0;
    const struct channel *base = cm ? channel(ck, cm->inc, ch->comm, ch->coll,
                                              ch->src, ch->dst, ch->tag, 0)
                                    : NULL;
    if (base)
      cut_counts(c, base, &S, &R, &early);
    if (check_replayed_channel(c, ch, wave, S, R) ||
        check_suppressed(c, ch, wave, early))
      return -1;
  }
  c->res->rollbacks++;
  return 0;
}

/* Every rank finished in the same incarnation: *inc. */
static int final_incarnation(struct checker *c, int *inc) {
  const struct ft_check *ck = c->ck;
  *inc = ck->rank[0].end_inc;
  for (int r = 1; r < ck->ranks; r++)
    if (ck->rank[r].end_inc != *inc)
      return violation(c, "end",
                       "rank %d finished in incarnation %d (%s:%u), rank 0 "
                       "in incarnation %d (%s:%u)",
                       r, ck->rank[r].end_inc, file_of(ck, r),
                       ck->rank[r].end_line, *inc, file_of(ck, 0),
                       ck->rank[0].end_line);
  return 0;
}

static size_t resends_of(const struct channel *ch) {
  size_t n = 0;
  for (size_t q = 0; ch && q < ch->n_sends; q++)
    n += ch->sends[q].resend;
  return n;
}

/* The final incarnation `inc` rolled back to a committed wave: its replay
 * re-sent every message in transit at that wave's cut (a message dropped
 * by the rollback and never re-sent is lost). */
static int check_final_replay(struct checker *c, int inc) {
  struct ft_check *ck = c->ck;
  char id[160];
  const struct mark *m = NULL;
  for (int r = 0; r < ck->ranks && !m; r++)
    m = mark_of(ck->rank[r].rollbacks, ck->rank[r].n_rollbacks, inc);
  const struct commit *cm = m ? restored_commit(ck, inc, m->wave) : NULL;
  if (!cm || cut_of(c, cm))
    return cm ? -1 : 0;
  for (size_t i = 0; i < ck->n_chans; i++) {
    const struct channel *base = &ck->chans[i];
    if (base->inc != cm->inc)
      continue;
    size_t S, R;
    cut_counts(c, base, &S, &R, NULL);
    const struct channel *now = channel(ck, inc, base->comm, base->coll,
                                        base->src, base->dst, base->tag, 0);
    size_t resent = resends_of(now) + (now ? now->n_restored : 0);
    if (S > R && resent < S - R)
      return violation(
          c, "lost",
          "%s was in transit at the cut of wave %d, which incarnation %d "
          "restored, but rank %d re-sent only %zu of the %zu messages in "
          "transit on its channel before the end",
          msg_id(id, sizeof id, base, (int64_t)(R + resent + 1)), cm->wave, inc,
          base->src, resent, S - R);
  }
  return 0;
}

/* At the end: every message of the final incarnation was delivered (every
 * rank finished: its receiver had its chance), and the final rollback's
 * replay re-sent what was in transit. Messages of abandoned incarnations
 * are not owed: the rollback dropped them. */
static int check_end(struct checker *c) {
  const struct ft_check *ck = c->ck;
  char id[160];
  int inc;
  if (final_incarnation(c, &inc) || check_final_replay(c, inc))
    return -1;
  for (size_t i = 0; i < ck->n_chans; i++) {
    const struct channel *ch = &ck->chans[i];
    if (ch->inc == inc && ch->n_dels < ch->n_sends)
      return violation(
          c, "lost",
          "%s, sent at %s:%u, was never delivered: rank %d finished "
          "(%s:%u) after %zu of the %zu messages of its channel",
          msg_id(id, sizeof id, ch, (int64_t)ch->n_dels + 1),
          file_of(ck, ch->src), ch->sends[ch->n_dels].line, ch->dst,
          file_of(ck, ch->dst), ck->rank[ch->dst].end_line, ch->n_dels,
          ch->n_sends);
  }
  return 0;
}

/* The collective calls carried as one unit agree across their members
 * (coll_check.h). */
static int check_units(struct checker *c) {
  struct ft_check *ck = c->ck;
  if (ck->colls.n == 0)
    return 0;
  const char **files = malloc((size_t)ck->ranks * sizeof *files);
  struct ft_coll_fault f;
  if (!files) {
    fprintf(stderr, "ftsim check: out of memory\n");
    abort();
  }
  for (int r = 0; r < ck->ranks; r++)
    files[r] = ck->rank[r].name;
  int rc = ft_coll_check(&ck->colls, files, ck->ranks, &f);
  free(files);
  if (rc == 0)
    return 0;
  if (!f.field) {
    fprintf(stderr, "ftsim check: out of memory\n");
    abort();
  }
  return violation(c, "collective", "%s:%u: field %s: %s",
                   file_of(ck, f.rec.rank), f.rec.line, f.field, f.message);
}

/* One check: a commit or a rollback, at its time in the trace. */
struct item {
  double time;
  int is_commit;
  size_t commit;
  int inc;
};

static int by_time(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  return (x->time > y->time) - (x->time < y->time);
}

/* A violation found before the truncation says so; otherwise the trace is
 * malformed. */
static void report_truncated(const struct ft_check *ck,
                             struct ft_check_result *res) {
  if (res->status == FT_CHECK_VIOLATION) {
    size_t n = strlen(res->message);
    snprintf(res->message + n, sizeof res->message - n,
             " [in a truncated trace: %.400s]", ck->truncated);
    return;
  }
  snprintf(res->message, sizeof res->message, "%s", ck->truncated);
  res->status = FT_CHECK_MALFORMED;
  res->kind = "";
}

enum ft_check_status ft_check_run(struct ft_check *ck,
                                  struct ft_check_result *res) {
  struct checker c = {.ck = ck, .res = res};
  res->status = FT_CHECK_OK;
  res->kind = "";
  res->message[0] = '\0';
  res->events = ck->events;
  res->messages = ck->messages;
  res->waves = res->rollbacks = res->restarts = 0;
  res->ranks = ck->ranks;
  res->run = ck->run;
  snprintf(res->protocol, sizeof res->protocol, "%s", ck->protocol);
  if (ck->ranks == 0) {
    snprintf(res->message, sizeof res->message, "no trace read");
    return res->status = FT_CHECK_MALFORMED;
  }
  for (int r = 0; r < ck->ranks; r++)
    if (!ck->rank[r].present) {
      snprintf(res->message, sizeof res->message, "no trace of rank %d (of %d)",
               r, ck->ranks);
      return res->status = FT_CHECK_MALFORMED;
    }
  /* Incarnations with a rollback, each once, at its first rollback. */
  size_t n_items = ck->n_commits, cap = ck->n_commits + 1;
  for (int r = 0; r < ck->ranks; r++)
    cap += ck->rank[r].n_rollbacks;
  struct item *items = malloc(cap * sizeof *items);
  c.kpos = malloc((size_t)ck->ranks * sizeof *c.kpos);
  c.rpos = malloc((size_t)ck->ranks * sizeof *c.rpos);
  if (!items || !c.kpos || !c.rpos) {
    fprintf(stderr, "ftsim check: out of memory\n");
    abort();
  }
  for (size_t i = 0; i < ck->n_commits; i++)
    items[i] = (struct item){ck->commits[i].time, 1, i, 0};
  for (int r = 0; r < ck->ranks; r++)
    for (size_t k = 0; k < ck->rank[r].n_rollbacks; k++) {
      const struct mark *m = &ck->rank[r].rollbacks[k];
      size_t j = ck->n_commits;
      while (j < n_items && items[j].inc != m->inc)
        j++;
      if (j == n_items)
        items[n_items++] = (struct item){m->time, 0, 0, m->inc};
      else if (m->time < items[j].time)
        items[j].time = m->time;
    }
  qsort(items, n_items, sizeof *items, by_time);
  /* A truncated trace lacks the tails of some histories: a delivery
   * whose send was not written yet, the end. Its other checks hold on
   * what was written (rare records are flushed with what precedes them). */
  int truncated = ck->truncated[0] != '\0';
  int rc = truncated ? 0 : check_phantoms(&c);
  for (size_t i = 0; rc == 0 && i < n_items; i++)
    rc = items[i].is_commit ? check_commit(&c, &ck->commits[items[i].commit])
                            : check_rollback(&c, items[i].inc);
  /* A stopped run ended where each rank stood: no common final
   * incarnation, nothing owed (every rank abandoned its run, as at a
   * rollback). Every commit and rollback before the stop was checked. */
  if (rc == 0 && !truncated && !ck->stopped)
    rc = check_end(&c);
  if (rc == 0)
    rc = check_units(&c);
  free(items);
  free(c.kpos);
  free(c.rpos);
  if (truncated)
    report_truncated(ck, res);
  return res->status;
}

/* The message-logging protocols have their own records and rules
 * (ml_check.h): returns 1 when PREFIX.0's header names that family. */
static int message_logging(const char *prefix, int *ranks,
                           struct ft_check_result *res) {
  char name[1100], line[256] = "", err[160];
  struct ft_trace_header h;
  snprintf(name, sizeof name, "%s.0", prefix);
  FILE *f = fopen(name, "r");
  if (!f)
    return 0;
  if (!fgets(line, sizeof line, f))
    line[0] = '\0';
  fclose(f);
  line[strcspn(line, "\n")] = '\0';
  if (ft_check_header(line, &h, err, sizeof err) != 0 ||
      h.family != FT_FAMILY_MESSAGE_LOGGING)
    return 0;
  snprintf(res->protocol, sizeof res->protocol, "%s", h.protocol);
  res->ranks = *ranks = h.ranks;
  return 1;
}

/* PREFIX's name for launch L's files: PREFIX, then PREFIX.relaunch-L. */
static void launch_prefix(const char *prefix, int launch, char *out,
                          size_t cap) {
  if (launch == 0)
    snprintf(out, cap, "%s", prefix);
  else
    snprintf(out, cap, "%s.relaunch-%d", prefix, launch);
}

/* The launches of the run: 1, plus the relaunches whose rank 0 file
 * exists (failure=kill: `ftsim run --real` writes PREFIX.relaunch-L.R). */
static int count_launches(const char *prefix) {
  char name[1200], base[1100];
  int n = 1;
  for (;; n++) {
    launch_prefix(prefix, n, base, sizeof base);
    snprintf(name, sizeof name, "%s.0", base);
    FILE *f = fopen(name, "r");
    if (!f)
      return n;
    fclose(f);
  }
}

/* Reads one launch's files, PREFIX.0 .. PREFIX.N (the last optional; in a
 * killed launch any: a rank killed before its first record wrote none). */
static int read_launch(struct ft_check *ck, const char *prefix,
                       struct ft_check_result *res) {
  char name[1200];
  for (int r = 0; ck->ranks == 0 || r <= ck->ranks; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *f = fopen(name, "r");
    if (!f && r > 0 && (r == ck->ranks || ck->killed))
      continue; /* no scheduler's trace, or a killed rank's: fine */
    if (!f) {
      snprintf(res->message, sizeof res->message, "%.900s: cannot open: %s",
               name, strerror(errno));
      return res->status = FT_CHECK_MALFORMED;
    }
    int rc = ft_check_read(ck, name, f, res);
    fclose(f);
    if (rc)
      return res->status;
  }
  return 0;
}

enum ft_check_status ft_check_files(const char *prefix,
                                    struct ft_check_result *res) {
  char base[1100];
  int ranks;
  memset(res, 0, sizeof *res);
  res->kind = "";
  if (message_logging(prefix, &ranks, res))
    return ft_ml_check_files(prefix, ranks, res) == FT_CHECK_OK
               ? ft_check_failures(prefix, ranks, res)
               : res->status;
  struct ft_check *ck = ft_check_new();
  if (!ck) {
    snprintf(res->message, sizeof res->message, "out of memory");
    return res->status = FT_CHECK_MALFORMED;
  }
  int launches = count_launches(prefix);
  ck->killed = launches > 1;
  for (int l = 0; l < launches; l++) {
    if (l > 0)
      next_launch(ck, l < launches - 1);
    launch_prefix(prefix, l, base, sizeof base);
    if (read_launch(ck, base, res)) {
      ft_check_free(ck);
      return res->status;
    }
  }
  enum ft_check_status st;
  st = ft_check_run(ck, res);
  ranks = ck->ranks;
  ft_check_free(ck);
  return st == FT_CHECK_OK ? ft_check_failures(prefix, ranks, res) : st;
}

int ft_trace_is_span(const char *kind) {
  return strcmp(kind, "compute") == 0 || strcmp(kind, "block") == 0 ||
         strcmp(kind, "image") == 0;
}

enum ft_check_status ft_trace_read(const char *prefix,
                                   const struct ft_trace_visitor *v,
                                   struct ft_check_result *res) {
  char base[1100];
  int ranks;
  memset(res, 0, sizeof *res);
  res->kind = "";
  if (message_logging(prefix, &ranks, res))
    return ft_ml_trace_read(prefix, ranks, v, res);
  struct ft_check *ck = ft_check_new();
  if (!ck) {
    snprintf(res->message, sizeof res->message, "out of memory");
    return res->status = FT_CHECK_MALFORMED;
  }
  ck->visit = v;
  int launches = count_launches(prefix);
  ck->killed = launches > 1;
  for (int l = 0; l < launches && res->status == FT_CHECK_OK; l++) {
    if (l > 0)
      next_launch(ck, l < launches - 1);
    launch_prefix(prefix, l, base, sizeof base);
    read_launch(ck, base, res);
  }
  if (res->status == FT_CHECK_OK) {
    snprintf(res->message, sizeof res->message, "%s", ck->truncated);
    res->ranks = ck->ranks;
    res->run = ck->run;
    snprintf(res->protocol, sizeof res->protocol, "%s", ck->protocol);
  }
  ft_check_free(ck);
  return res->status;
}

/* A reader over record `r`'s tokens, for the field helpers' messages. */
static void record_reader(const struct ft_trace_record *r,
                          struct ft_check_result *res, struct ft_check *ck,
                          char *blank, struct reader *rd) {
  *rd = (struct reader){
      .ck = ck, .name = r->file, .line = r->line, .rank = r->rank, .res = res};
  for (int i = 0; i < 4; i++)
    rd->tok[rd->n++] = blank;
  for (int i = 0; i < r->n && rd->n < MAX_FIELDS; i++)
    rd->tok[rd->n++] = r->field[i];
}

int ft_trace_field_int(const struct ft_trace_record *r, int i,
                       const char *field, int64_t min, int64_t max,
                       int64_t *out, struct ft_check_result *res) {
  struct ft_check ck = {0};
  struct reader rd;
  char blank[1] = "";
  record_reader(r, res, &ck, blank, &rd);
  return int_field(&rd, i + 4, field, min, max, out);
}

int ft_trace_field_time(const struct ft_trace_record *r, int i,
                        const char *field, double *out,
                        struct ft_check_result *res) {
  struct ft_check ck = {.offset = r->offset};
  struct reader rd;
  char blank[1] = "";
  record_reader(r, res, &ck, blank, &rd);
  return time_field(&rd, i + 4, field, out);
}

void ft_check_summary(const struct ft_check_result *res, double seconds,
                      char *buf, size_t len) {
  snprintf(buf, len,
           "ok: %llu events, %llu messages, %llu waves, %llu rollbacks, %llu "
           "restarts checked in %.3f s (protocol %s, %d ranks, run %016llx)",
           (unsigned long long)res->events, (unsigned long long)res->messages,
           (unsigned long long)res->waves, (unsigned long long)res->rollbacks,
           (unsigned long long)res->restarts, seconds, res->protocol,
           res->ranks, (unsigned long long)res->run);
}
