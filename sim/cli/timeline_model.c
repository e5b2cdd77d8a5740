/* The timeline's model (see timeline.h): the records of a run's trace, as
 * the checker's reader hands them over (ft_trace_read), turned into spans,
 * points and message ends per row. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static void *grow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return p;
  size_t c = *cap ? 2 * *cap : 256;
  void *q = realloc(p, c * size);
  if (!q)
    return NULL;
  *cap = c;
  return q;
}

#define PUSH(arr, n, cap, value, res)                                          \
  do {                                                                         \
    void *q_ = grow((arr), &(cap), (n), sizeof *(arr));                        \
    if (!q_)                                                                   \
      return oom(res);                                                         \
    (arr) = q_;                                                                \
    (arr)[(n)++] = (value);                                                    \
  } while (0)

static int oom(struct ft_check_result *res) {
  snprintf(res->message, sizeof res->message, "out of memory");
  return -1;
}

static void on_header(void *ctx, const char *file,
                      const struct ft_trace_header *h) {
  (void)file;
  struct ft_timeline *tl = ctx;
  tl->ranks = h->ranks;
  tl->run = h->run;
  snprintf(tl->protocol, sizeof tl->protocol, "%s", h->protocol);
  int rows = h->rank + 1 > h->ranks ? h->rank + 1 : h->ranks;
  if (rows > tl->rows)
    tl->rows = rows;
}

static void on_comment(void *ctx, const char *file, const char *text) {
  (void)file;
  struct ft_timeline *tl = ctx;
  if (strncmp(text, " app ", 5) == 0 && !tl->app[0])
    snprintf(tl->app, sizeof tl->app, "%s", text + 5);
}

static int span(struct ft_timeline *tl, int row, int kind, double start,
                double end, struct ft_check_result *res) {
  struct ft_tl_span s = {row, kind, start, end, 0};
  PUSH(tl->spans, tl->n_spans, tl->cap_spans, s, res);
  return 0;
}

static int point(struct ft_timeline *tl, int row, int kind, double time,
                 int value, struct ft_check_result *res) {
  struct ft_tl_point p = {row, kind, time, value};
  PUSH(tl->points, tl->n_points, tl->cap_points, p, res);
  return 0;
}

/* compute START, block START, image WAVE START. */
static int on_span(struct ft_timeline *tl, const struct ft_trace_record *r,
                   struct ft_check_result *res) {
  int image = strcmp(r->kind, "image") == 0;
  double start;
  if (ft_trace_field_time(r, image, "start", &start, res))
    return -1;
  int kind = image                           ? FT_TL_IMAGE
             : strcmp(r->kind, "block") == 0 ? FT_TL_BLOCK
                                             : FT_TL_COMPUTE;
  return span(tl, r->rank, kind, start, r->time, res);
}

/* fail RANK UNTIL (the dispatcher's): down from TIME to UNTIL. */
static int on_fail(struct ft_timeline *tl, const struct ft_trace_record *r,
                   struct ft_check_result *res) {
  int64_t victim;
  double until;
  if (ft_trace_field_int(r, 0, "rank", 0, tl->ranks - 1, &victim, res) ||
      ft_trace_field_time(r, 1, "until", &until, res))
    return -1;
  if (until < r->time)
    until = r->time;
  return span(tl, (int)victim, FT_TL_DOWN, r->time, until, res) ||
                 point(tl, (int)victim, FT_TL_FAIL, r->time, 0, res)
             ? -1
             : 0;
}

/* send, resend, deliver: COMM CH PEER TAG SEQ BYTES. */
static int on_message(struct ft_timeline *tl, const struct ft_trace_record *r,
                      int deliver, struct ft_check_result *res) {
  int64_t comm, peer, tag, seq;
  if (ft_trace_field_int(r, 0, "comm", 0, INT32_MAX, &comm, res) ||
      ft_trace_field_int(r, 2, "peer", 0, tl->ranks - 1, &peer, res) ||
      ft_trace_field_int(r, 3, "tag", INT32_MIN, INT32_MAX, &tag, res) ||
      ft_trace_field_int(r, 4, "seq", 1, INT64_MAX, &seq, res))
    return -1;
  int coll = r->field[1][0] == 'c';
  int src = deliver ? (int)peer : r->rank, dst = deliver ? r->rank : (int)peer;
  struct ft_tl_end e = {
      .key = {(uint64_t)(uint32_t)r->inc << 32 | (uint32_t)comm,
              (uint64_t)(uint32_t)src << 32 | (uint32_t)dst,
              (uint64_t)(uint32_t)tag << 32 | (uint32_t)coll, (uint64_t)seq},
      .row = r->rank,
      .time = r->time};
  if (deliver)
    PUSH(tl->dels, tl->n_dels, tl->cap_dels, e, res);
  else
    PUSH(tl->sends, tl->n_sends, tl->cap_sends, e, res);
  return point(tl, r->rank, deliver ? FT_TL_DELIVER : FT_TL_SEND, r->time, 0,
               res);
}

/* ckpt, commit, rollback (WAVE first), restart. */
static int on_wave(struct ft_timeline *tl, const struct ft_trace_record *r,
                   int kind, struct ft_check_result *res) {
  int64_t wave = 0;
  if (kind != FT_TL_RESTART &&
      ft_trace_field_int(r, 0, "wave", 0, INT32_MAX, &wave, res))
    return -1;
  if (kind == FT_TL_COMMIT)
    tl->waves++;
  return point(tl, r->rank, kind, r->time, (int)wave, res);
}

static int on_record(void *ctx, const struct ft_trace_record *r,
                     struct ft_check_result *res) {
  struct ft_timeline *tl = ctx;
  if (!tl->seen || r->time < tl->first)
    tl->first = r->time;
  tl->seen = 1;
  if (r->time > tl->last)
    tl->last = r->time;
  const char *k = r->kind;
  if (ft_trace_is_span(k))
    return on_span(tl, r, res);
  if (!strcmp(k, "fail"))
    return on_fail(tl, r, res);
  if (!strcmp(k, "send") || !strcmp(k, "resend") || !strcmp(k, "deliver"))
    return on_message(tl, r, !strcmp(k, "deliver"), res);
  if (!strcmp(k, "ckpt"))
    return on_wave(tl, r, FT_TL_CKPT, res);
  if (!strcmp(k, "commit"))
    return on_wave(tl, r, FT_TL_COMMIT, res);
  if (!strcmp(k, "rollback"))
    return on_wave(tl, r, FT_TL_ROLLBACK, res);
  if (!strcmp(k, "restart"))
    return on_wave(tl, r, FT_TL_RESTART, res);
  return 0; /* safe, ctl-*, nd, log...: not drawn */
}

const struct ft_trace_visitor *ft_timeline_visitor(struct ft_timeline *tl) {
  /* One visitor per timeline: its ctx is the timeline, kept in it. */
  tl->visitor = (struct ft_trace_visitor){.header = on_header,
                                          .comment = on_comment,
                                          .record = on_record,
                                          .ctx = tl};
  return &tl->visitor;
}

int ft_timeline_load(const char *prefix, struct ft_timeline *tl, char *err,
                     size_t errlen, char *note, size_t notelen) {
  memset(tl, 0, sizeof *tl);
  struct ft_check_result *res = malloc(sizeof *res);
  if (!res) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  enum ft_check_status st = ft_trace_read(prefix, ft_timeline_visitor(tl), res);
  if (st == FT_CHECK_OK)
    snprintf(note, notelen, "%s", res->message);
  else
    snprintf(err, errlen, "%s", res->message);
  free(res);
  if (st == FT_CHECK_OK && tl->rows == 0) {
    snprintf(err, errlen, "%s.0: no header", prefix);
    return -1;
  }
  return st == FT_CHECK_OK ? 0 : -1;
}

void ft_timeline_free(struct ft_timeline *tl) {
  free(tl->spans);
  free(tl->points);
  free(tl->sends);
  free(tl->dels);
  memset(tl, 0, sizeof *tl);
}
