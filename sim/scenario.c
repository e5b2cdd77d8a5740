/* Failure scenarios (see scenario.h). */
#define _POSIX_C_SOURCE 200809L
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h" /* ft_parse_int, ft_parse_double, FT_TIME_MAX_S */

#define LINE_MAX_BYTES 1024 /* a line without its comment, NUL included */
#define MAX_WORDS 8         /* words kept per line (more are counted) */

/* ---- messages */

static int vreport(char *err, size_t errlen, const char *fmt, va_list ap) {
  if (errlen > 0)
    vsnprintf(err, errlen, fmt, ap);
  return -1;
}

static int report(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the message and returns -1. */
static int report(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- parser */

enum directive_id {
  D_SEED,
  D_DETECTION,
  D_RESTART,
  D_FAIL,
  D_EXPONENTIAL,
  D_WEIBULL,
  D_MAX_FAILURES,
  D_UNTIL,
  D_TRACE,
  D_TRACE_SCALE,
  D_TRACE_SHIFT,
  D_TRACE_SYSTEM,
  D_TRACE_MAP,
  D_COUNT
};

/* Directives listed in the message for an unknown one; the trace_*
 * directives are listed when the unknown word starts with "trace". */
#define D_FIRST_TRACE D_TRACE

struct parser {
  struct ft_scenario *s;
  int line;
  int first[D_COUNT]; /* line where each directive first appeared, or 0 */
  int dist_line;      /* line of the distribution, or 0 */
  size_t cap;         /* room in s->fails */
  char *err;
  size_t errlen;
};

struct directive {
  const char *name;
  int nvalues;       /* words after the directive */
  const char *usage; /* for arity errors */
  int (*apply)(struct parser *p, char **v);
};

static int fail_at(struct parser *p, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "NAME:LINE: field 'FIELD': <fmt>", returns -1. */
static int fail_at(struct parser *p, const char *field, const char *fmt, ...) {
  int n = snprintf(p->err, p->errlen, "%s:%d: field '%s': ", p->s->name,
                   p->line, field);
  if (n >= 0 && (size_t)n < p->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vreport(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Reads the whole word as a decimal number in [min, max] (> min when
 * `strict`); returns 0, or -1 with `*why` saying what is wrong. */
static int parse_number(const char *w, double min, double max, bool strict,
                        double *out, const char **why) {
  double v;
  int rc = ft_parse_double(w, min, max, &v);
  if (rc == FT_NUM_OK && strict && v == min)
    rc = FT_NUM_RANGE;
  if (rc != FT_NUM_OK) {
    *why = ft_num_problem(rc, w);
    return -1;
  }
  *out = v;
  return 0;
}

/* Times are decimal seconds in [0, FT_TIME_MAX_S] (options.h). */
static int time_value(struct parser *p, const char *field, const char *w,
                      double *out) {
  const char *why;
  if (parse_number(w, 0, FT_TIME_MAX_S, false, out, &why) == 0)
    return 0;
  return fail_at(p, field,
                 "time must be a number of seconds in [0, 1e9], "
                 "got '%s' (%s)",
                 w, why);
}

static int positive_value(struct parser *p, const char *field, const char *what,
                          double max, const char *w, double *out) {
  const char *why;
  if (parse_number(w, 0, max, true, out, &why) == 0)
    return 0;
  return fail_at(p, field, "%s must be a number > 0%s, got '%s' (%s)", what,
                 max == FT_TIME_MAX_S ? " and <= 1e9" : "", w, why);
}

static int apply_seed(struct parser *p, char **v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v[0], &end, 10);
  if (v[0][0] < '0' || v[0][0] > '9' || errno || *end)
    return fail_at(p, "seed",
                   "seed must be an integer from 0 to %llu, got '%s'",
                   (unsigned long long)UINT64_MAX, v[0]);
  p->s->seed = (uint64_t)x;
  return 0;
}

static int apply_detection(struct parser *p, char **v) {
  return time_value(p, "detection", v[0], &p->s->detection_s);
}

static int apply_restart(struct parser *p, char **v) {
  return time_value(p, "restart", v[0], &p->s->restart_s);
}

static int apply_until(struct parser *p, char **v) {
  return time_value(p, "until", v[0], &p->s->until_s);
}

static int apply_max_failures(struct parser *p, char **v) {
  if (ft_parse_int(v[0], 0, INT_MAX, &p->s->max_failures) == 0)
    return 0;
  return fail_at(p, "max_failures",
                 "max_failures must be an integer >= 0, got '%s'", v[0]);
}

static int apply_trace(struct parser *p, char **v) {
  if (ft_trace_format_parse(v[0], &p->s->trace_format))
    return fail_at(p, "trace", "format must be lanl or fta, got '%s'", v[0]);
  if (!v[1][0] || strlen(v[1]) >= sizeof p->s->trace_path)
    return fail_at(p, "trace", "file name empty or too long");
  snprintf(p->s->trace_path, sizeof p->s->trace_path, "%s", v[1]);
  return 0;
}

static int apply_trace_scale(struct parser *p, char **v) {
  return positive_value(p, "trace_scale", "scale", HUGE_VAL, v[0],
                        &p->s->trace_scale);
}

static int apply_trace_shift(struct parser *p, char **v) {
  return time_value(p, "trace_shift", v[0], &p->s->trace_shift);
}

static int apply_trace_system(struct parser *p, char **v) {
  int sys;
  if (ft_parse_int(v[0], 0, INT_MAX, &sys))
    return fail_at(p, "trace_system",
                   "system must be an integer >= 0, got '%s'", v[0]);
  p->s->trace_system = sys;
  return 0;
}

static int apply_trace_map(struct parser *p, char **v) {
  if (ft_trace_map_parse(v[0], &p->s->trace_map))
    return fail_at(p, "trace_map", "map must be modulo or first, got '%s'",
                   v[0]);
  return 0;
}

static int apply_exponential(struct parser *p, char **v) {
  p->s->dist = FT_DIST_EXPONENTIAL;
  return positive_value(p, "exponential", "mean", FT_TIME_MAX_S, v[0],
                        &p->s->mean_s);
}

static int apply_weibull(struct parser *p, char **v) {
  p->s->dist = FT_DIST_WEIBULL;
  if (positive_value(p, "shape", "shape", HUGE_VAL, v[0], &p->s->shape))
    return -1;
  return positive_value(p, "scale", "scale", FT_TIME_MAX_S, v[1],
                        &p->s->scale_s);
}

/* Inserts `f` after every failure at a time <= f.time (stable by time). */
static void insert_fail(struct ft_scenario *s, struct ft_scenario_fail f) {
  size_t i = s->nfails;
  while (i > 0 && s->fails[i - 1].time > f.time) {
    s->fails[i] = s->fails[i - 1];
    i--;
  }
  s->fails[i] = f;
  s->nfails++;
}

static int grow_fails(struct parser *p) {
  if (p->s->nfails < p->cap)
    return 0;
  if (p->cap >= FT_SCENARIO_MAX_FAILS)
    return fail_at(p, "fail", "more than %d explicit failures",
                   FT_SCENARIO_MAX_FAILS);
  size_t cap = p->cap ? 2 * p->cap : 16;
  void *grown = realloc(p->s->fails, cap * sizeof *p->s->fails);
  if (!grown)
    return fail_at(p, "fail", "out of memory");
  p->s->fails = grown;
  p->cap = cap;
  return 0;
}

static int apply_fail(struct parser *p, char **v) {
  struct ft_scenario_fail f = {.line = p->line};
  if (ft_parse_int(v[0], 0, INT_MAX, &f.rank))
    return fail_at(p, "rank", "rank must be an integer >= 0, got '%s'", v[0]);
  if (strcmp(v[1], "at") != 0)
    return fail_at(p, "fail",
                   "expected 'at' after the rank (fail RANK at TIME), got "
                   "'%s'",
                   v[1]);
  if (time_value(p, "at", v[2], &f.time) || grow_fails(p))
    return -1;
  insert_fail(p->s, f);
  return 0;
}

static const struct directive directives[D_COUNT] = {
    [D_SEED] = {"seed", 1, "seed N", apply_seed},
    [D_DETECTION] = {"detection", 1, "detection SECONDS", apply_detection},
    [D_RESTART] = {"restart", 1, "restart SECONDS", apply_restart},
    [D_FAIL] = {"fail", 3, "fail RANK at TIME", apply_fail},
    [D_EXPONENTIAL] = {"exponential", 1, "exponential MEAN", apply_exponential},
    [D_WEIBULL] = {"weibull", 2, "weibull SHAPE SCALE", apply_weibull},
    [D_MAX_FAILURES] = {"max_failures", 1, "max_failures N",
                        apply_max_failures},
    [D_UNTIL] = {"until", 1, "until TIME", apply_until},
    [D_TRACE] = {"trace", 2, "trace lanl|fta FILE", apply_trace},
    [D_TRACE_SCALE] = {"trace_scale", 1, "trace_scale S", apply_trace_scale},
    [D_TRACE_SHIFT] = {"trace_shift", 1, "trace_shift TIME", apply_trace_shift},
    [D_TRACE_SYSTEM] = {"trace_system", 1, "trace_system N",
                        apply_trace_system},
    [D_TRACE_MAP] = {"trace_map", 1, "trace_map modulo|first", apply_trace_map},
};

static int unknown_directive(struct parser *p, const char *word) {
  char known[256] = "";
  bool trace = strncmp(word, "trace", 5) == 0;
  int first = trace ? D_FIRST_TRACE : 0, last = trace ? D_COUNT : D_FIRST_TRACE;
  for (int d = first; d < last; d++) {
    size_t used = strlen(known);
    snprintf(known + used, sizeof known - used, "%s%s", d > first ? ", " : "",
             directives[d].name);
  }
  return report(p->err, p->errlen, "%s:%d: unknown directive '%s' (known: %s)",
                p->s->name, p->line, word, known);
}

/* Rejects a second distribution, or a second single-valued directive. */
static int check_repeat(struct parser *p, int d) {
  bool is_dist = d == D_EXPONENTIAL || d == D_WEIBULL;
  if (is_dist && p->dist_line)
    return fail_at(p, directives[d].name,
                   "only one distribution per scenario (%s on line %d)",
                   p->s->dist == FT_DIST_WEIBULL ? "weibull" : "exponential",
                   p->dist_line);
  if (d != D_FAIL && p->first[d])
    return fail_at(p, directives[d].name, "given twice (first on line %d)",
                   p->first[d]);
  if (is_dist)
    p->dist_line = p->line;
  if (!p->first[d])
    p->first[d] = p->line;
  return 0;
}

/* Applies one line split into `n` words (the first MAX_WORDS in `w`). */
static int apply_line(struct parser *p, char **w, int n) {
  int d = 0;
  while (d < D_COUNT && strcmp(w[0], directives[d].name) != 0)
    d++;
  if (d == D_COUNT)
    return unknown_directive(p, w[0]);
  const struct directive *dir = &directives[d];
  if (n - 1 != dir->nvalues)
    return fail_at(p, dir->name, "expected %d value%s (%s), got %d",
                   dir->nvalues, dir->nvalues > 1 ? "s" : "", dir->usage,
                   n - 1);
  if (check_repeat(p, d))
    return -1;
  return dir->apply(p, w + 1);
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits `buf` in place; returns the number of words (only the first
 * MAX_WORDS are stored). */
static int split(char *buf, char **w) {
  int n = 0;
  for (char *c = buf; *c;) {
    while (is_blank(*c))
      *c++ = '\0';
    if (!*c)
      break;
    if (n < MAX_WORDS)
      w[n] = c;
    n++;
    while (*c && !is_blank(*c))
      c++;
  }
  return n;
}

/* Parses the line [begin, end) (no '\n'). */
static int parse_line(struct parser *p, const char *begin, const char *end) {
  const char *hash = memchr(begin, '#', (size_t)(end - begin));
  size_t len = (size_t)((hash ? hash : end) - begin);
  if (len >= LINE_MAX_BYTES)
    return report(p->err, p->errlen,
                  "%s:%d: line longer than %d bytes (comments excepted)",
                  p->s->name, p->line, LINE_MAX_BYTES - 1);
  char buf[LINE_MAX_BYTES], *w[MAX_WORDS];
  memcpy(buf, begin, len);
  buf[len] = '\0';
  int n = split(buf, w);
  return n ? apply_line(p, w, n) : 0;
}

void ft_scenario_defaults(struct ft_scenario *out, const char *name) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", name ? name : "scenario");
  out->seed = 1;
  out->dist = FT_DIST_NONE;
  out->max_failures = -1;
  out->until_s = HUGE_VAL;
  out->fails = NULL;
  out->trace_scale = 1;
  out->trace_system = -1;
  out->trace_map = FT_TRACE_MAP_MODULO;
}

/* Loads the scenario's trace file (a relative path from the directory of
 * the scenario's name); `line` is the trace directive's line. */
static int load_trace(struct ft_scenario *s, int line, char *err,
                      size_t errlen) {
  char path[FT_SCENARIO_PATH_LEN + FT_SCENARIO_NAME_LEN];
  const char *slash = strrchr(s->name, '/');
  if (s->trace_path[0] != '/' && slash)
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - s->name), s->name,
             s->trace_path);
  else
    snprintf(path, sizeof path, "%s", s->trace_path);
  if (strlen(path) >= sizeof s->trace_path)
    return report(err, errlen, "%s:%d: field 'trace': path too long", s->name,
                  line);
  memcpy(s->trace_path, path, strlen(path) + 1);
  int n = snprintf(err, errlen, "%s:%d: field 'trace': ", s->name, line);
  if (n < 0 || (size_t)n >= errlen)
    n = 0;
  return ft_trace_load(path, s->trace_format, s->trace_system, &s->trace,
                       err + n, errlen - (size_t)n);
}

int ft_scenario_parse(const char *text, const char *name,
                      struct ft_scenario *out, char *err, size_t errlen) {
  ft_scenario_defaults(out, name);
  struct parser p = {.s = out, .err = err, .errlen = errlen};
  if (errlen > 0)
    err[0] = '\0';
  for (const char *c = text ? text : ""; *c;) {
    const char *nl = strchr(c, '\n');
    const char *end = nl ? nl : c + strlen(c);
    p.line++;
    if (parse_line(&p, c, end)) {
      ft_scenario_free(out);
      return -1;
    }
    c = nl ? nl + 1 : end;
  }
  if (out->trace_path[0] && load_trace(out, p.first[D_TRACE], err, errlen)) {
    ft_scenario_free(out);
    return -1;
  }
  return 0;
}

void ft_scenario_free(struct ft_scenario *s) {
  free(s->fails);
  s->fails = NULL;
  s->nfails = 0;
  ft_trace_free(&s->trace);
}

/* ---- loading */

/* Reads up to FT_SCENARIO_MAX_BYTES of `f` into a new NUL-terminated
 * buffer; returns NULL with `err` set. */
static char *read_all(FILE *f, const char *path, size_t *len, char *err,
                      size_t errlen) {
  char *buf = malloc(FT_SCENARIO_MAX_BYTES + 2);
  if (!buf) {
    report(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  errno = 0;
  *len = fread(buf, 1, FT_SCENARIO_MAX_BYTES + 1, f);
  if (ferror(f) || *len > FT_SCENARIO_MAX_BYTES) {
    if (ferror(f))
      report(err, errlen, "%s: cannot read: %s", path,
             strerror(errno ? errno : EIO));
    else
      report(err, errlen, "%s: larger than %d bytes", path,
             FT_SCENARIO_MAX_BYTES);
    free(buf);
    return NULL;
  }
  buf[*len] = '\0';
  return buf;
}

int ft_scenario_load(const char *path, struct ft_scenario *out, char *err,
                     size_t errlen) {
  ft_scenario_defaults(out, path);
  FILE *f = fopen(path, "rb");
  if (!f)
    return report(err, errlen, "%s: cannot read: %s", path, strerror(errno));
  size_t len;
  char *text = read_all(f, path, &len, err, errlen);
  fclose(f);
  if (!text)
    return -1;
  int rc;
  size_t nul = strlen(text);
  if (nul < len)
    rc = report(err, errlen, "%s: not a text file (NUL byte at offset %zu)",
                path, nul);
  else
    rc = ft_scenario_parse(text, path, out, err, errlen);
  free(text);
  return rc;
}

int ft_scenario_check(const struct ft_scenario *s, int ranks, char *err,
                      size_t errlen) {
  for (size_t i = 0; i < s->nfails; i++)
    if (s->fails[i].rank >= ranks)
      return report(err, errlen,
                    "%s:%d: field 'rank': rank %d is outside the application "
                    "(%d rank%s)",
                    s->name, s->fails[i].line, s->fails[i].rank, ranks,
                    ranks == 1 ? "" : "s");
  return 0;
}

/* ---- the failure stream */

/* splitmix64: expands the seed into the generator's state. */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna, 2018). */
static uint64_t next_u64(uint64_t s[4]) {
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* Uniform in [0, 1), 53 bits. */
static double next_unit(uint64_t s[4]) {
  return (double)(next_u64(s) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, n), n >= 1, without modulo bias. */
static int next_below(uint64_t s[4], int n) {
  uint64_t m = (uint64_t)n, limit = UINT64_MAX - UINT64_MAX % m, x;
  do
    x = next_u64(s);
  while (x >= limit);
  return (int)(x % m);
}

/* One inter-arrival time by inverse transform sampling. */
static double next_interval(struct ft_failure_stream *st) {
  double e = -log1p(-next_unit(st->rng)); /* -ln(1 - u): Exp(1) */
  if (st->s->dist == FT_DIST_EXPONENTIAL)
    return st->s->mean_s * e;
  return st->s->scale_s * pow(e, 1.0 / st->s->shape);
}

/* Draws the next drawn failure into st->pending, or ends drawing. */
static void draw(struct ft_failure_stream *st) {
  const struct ft_scenario *s = st->s;
  st->have_drawn = false;
  if (s->dist == FT_DIST_NONE || st->ranks < 1 ||
      (s->max_failures >= 0 && st->drawn >= s->max_failures))
    return;
  double t = st->clock + next_interval(st);
  if (!isfinite(t) || t > s->until_s)
    return;
  st->clock = t;
  st->pending.time = t;
  st->pending.rank = next_below(st->rng, st->ranks);
  st->have_drawn = true;
}

void ft_failures_start(struct ft_failure_stream *st,
                       const struct ft_scenario *s, int ranks) {
  memset(st, 0, sizeof *st);
  st->s = s;
  st->ranks = ranks;
  uint64_t x = s->seed;
  for (int i = 0; i < 4; i++)
    st->rng[i] = splitmix64(&x);
  draw(st);
}

/* Skips trace failures that the map drops or that come after until_s;
 * returns 1 with the next one in `out`, or 0 when none is left. */
static int peek_trace(struct ft_failure_stream *st, struct ft_failure *out) {
  const struct ft_scenario *s = st->s;
  for (; st->next_trace < s->trace.nevents; st->next_trace++) {
    const struct ft_trace_event *e = &s->trace.events[st->next_trace];
    out->time = s->trace_shift + s->trace_scale * e->time;
    out->rank = ft_trace_rank(e->node, st->ranks, s->trace_map);
    if (!isfinite(out->time) || out->time > s->until_s) {
      st->next_trace = s->trace.nevents;
      return 0;
    }
    if (out->rank >= 0)
      return 1;
  }
  return 0;
}

int ft_failures_next(struct ft_failure_stream *st, struct ft_failure *out) {
  const struct ft_scenario *s = st->s;
  bool have_fail = st->next_fail < s->nfails;
  struct ft_failure tr;
  bool have_trace = peek_trace(st, &tr);
  if (have_fail && (!have_trace || s->fails[st->next_fail].time <= tr.time) &&
      (!st->have_drawn || s->fails[st->next_fail].time <= st->pending.time)) {
    out->time = s->fails[st->next_fail].time;
    out->rank = s->fails[st->next_fail].rank;
    st->next_fail++;
    return 1;
  }
  if (have_trace && (!st->have_drawn || tr.time <= st->pending.time)) {
    *out = tr;
    st->next_trace++;
    return 1;
  }
  if (!st->have_drawn)
    return 0;
  *out = st->pending;
  st->drawn++;
  draw(st);
  return 1;
}

int ft_failures_nth(const struct ft_scenario *s, int ranks, int n,
                    struct ft_failure *out) {
  struct ft_failure_stream st;
  if (n < 0)
    return 0;
  ft_failures_start(&st, s, ranks);
  for (int i = 0; i <= n; i++)
    if (!ft_failures_next(&st, out))
      return 0;
  return 1;
}

int ft_failures_span(const char *path, int ranks, int relaunch, double *origin,
                     struct ft_failure *ends, char *err, size_t errlen) {
  struct ft_scenario sc;
  struct ft_failure before = {.time = 0, .rank = -1};
  *origin = 0;
  if (!*path)
    return 0;
  if (ft_scenario_load(path, &sc, err, errlen) != 0)
    return -1;
  if (relaunch > 0 && !ft_failures_nth(&sc, ranks, relaunch - 1, &before)) {
    snprintf(err, errlen,
             "relaunch=%d: scenario %s has fewer than %d failures: no kill "
             "ended launch %d",
             relaunch, path, relaunch, relaunch - 1);
    ft_scenario_free(&sc);
    return -1;
  }
  *origin = before.time;
  int more = ft_failures_nth(&sc, ranks, relaunch, ends);
  ft_scenario_free(&sc);
  return more;
}
