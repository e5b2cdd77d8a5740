/* Sweep files (see sweep_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "sweep_file.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "failure_trace.h"
#include "ft_protocol.h"
#include "options.h"
#include "run_args.h"

#define LINE_MAX_BYTES 4096
#define MAX_WORDS 256

static const char *const axis_names[FT_AXIS_COUNT] = {
    "protocols", "platforms", "apps",   "ranks", "servers",
    "periods",   "mtbfs",     "traces", "seeds"};

static const char *const setting_names[FT_SET_COUNT] = {
    "image_mb",    "detection",   "restart",      "max_failures", "until",
    "trace_scale", "trace_shift", "trace_system", "trace_map",    "timeout",
    "compute",     "max_time",    "app_args"};

const char *ft_sweep_axis_name(enum ft_sweep_axis a) { return axis_names[a]; }

const char *ft_sweep_setting_name(enum ft_sweep_setting s) {
  return setting_names[s];
}

struct parser {
  struct ft_sweep *s;
  int line;
  int first[FT_AXIS_COUNT + FT_SET_COUNT + 1]; /* + set */
  int check_traces;
  char *err;
  size_t errlen;
};

static int fail_at(struct parser *p, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "NAME:LINE: field 'FIELD': <fmt>", returns -1. */
static int fail_at(struct parser *p, const char *field, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_v(p->err, p->errlen, p->s->name, p->line, field, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- values */

/* A decimal number in [min, max] (> min when `strict`); `why` says what
 * is wrong otherwise ("out of range", "not a decimal number"). */
static bool number(const char *w, double min, double max, bool strict,
                   const char **why) {
  double v;
  int rc = ft_parse_double(w, min, max, &v);
  if (rc == FT_NUM_OK && strict && v == min)
    rc = FT_NUM_RANGE;
  *why = rc == FT_NUM_OK ? "" : ft_num_problem(rc, w);
  return rc == FT_NUM_OK;
}

static bool integer(const char *w, long long min, long long max) {
  if (!strchr("+-0123456789", w[0]))
    return false; /* strtoll would skip blanks */
  char *end;
  errno = 0;
  long long v = strtoll(w, &end, 10);
  return !errno && end != w && !*end && v >= min && v <= max;
}

static bool seed(const char *w) {
  char *end;
  errno = 0;
  (void)strtoull(w, &end, 10);
  return w[0] >= '0' && w[0] <= '9' && !errno && !*end;
}

/* A word fit for a CSV cell and a file name part: no quote, comma, '='. */
static bool plain_word(const char *w) { return !strpbrk(w, "\",=:"); }

static int check_protocol(struct parser *p, const char *w) {
  if (ft_protocol_find(w))
    return 0;
  char known[256] = "";
  for (size_t i = 0; ft_protocol_at(i); i++) {
    size_t used = strlen(known);
    snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
             ft_protocol_at(i)->name);
  }
  return fail_at(p, "protocols", "unknown protocol '%s' (known: %s)", w, known);
}

/* Resolves a trace value "FMT:PATH" against the sweep's directory into
 * "FMT:ABSPATH-or-joined" and, when asked, parses the trace. */
static int trace_value(struct parser *p, const char *w, char *out, size_t len) {
  const char *colon = strchr(w, ':');
  enum ft_trace_format fmt;
  char name[8];
  if (!colon || colon - w >= (long)sizeof name || !colon[1])
    return fail_at(p, "traces", "expected lanl:FILE or fta:FILE, got '%s'", w);
  snprintf(name, sizeof name, "%.*s", (int)(colon - w), w);
  if (ft_trace_format_parse(name, &fmt))
    return fail_at(p, "traces", "format must be lanl or fta, got '%s'", name);
  const char *path = colon + 1;
  int n = path[0] == '/' || !p->s->dir[0]
              ? snprintf(out, len, "%s:%s", name, path)
              : snprintf(out, len, "%s:%s/%s", name, p->s->dir, path);
  if (n < 0 || (size_t)n >= len)
    return fail_at(p, "traces", "path too long");
  if (!p->check_traces)
    return 0;
  struct ft_trace t;
  char terr[512];
  if (ft_trace_load(strchr(out, ':') + 1, fmt, -1, &t, terr, sizeof terr))
    return fail_at(p, "traces", "%s", terr);
  ft_trace_free(&t);
  return 0;
}

/* Checks one value of axis `a`; returns 0 or -1 with the message. */
static int axis_value(struct parser *p, enum ft_sweep_axis a, const char *w) {
  const char *f = axis_names[a], *why = "not a decimal number";
  switch (a) {
  case FT_AXIS_PROTOCOL:
    return check_protocol(p, w);
  case FT_AXIS_PLATFORM:
  case FT_AXIS_APP:
    return plain_word(w) ? 0
                         : fail_at(p, f,
                                   "no '\"', ',', ':' or '=' in names, "
                                   "got '%s'",
                                   w);
  case FT_AXIS_RANKS:
    return integer(w, 1, FT_RUN_MAX_NP)
               ? 0
               : fail_at(p, f, "expected integers from 1 to %d, got '%s'",
                         FT_RUN_MAX_NP, w);
  case FT_AXIS_SERVERS:
    return integer(w, 1, 4096)
               ? 0
               : fail_at(p, f, "expected integers from 1 to 4096, got '%s'", w);
  case FT_AXIS_PERIOD:
    return number(w, 0, FT_TIME_MAX_S, false, &why)
               ? 0
               : fail_at(p, f, "expected seconds in [0, 1e9], got '%s' (%s)", w,
                         why);
  case FT_AXIS_MTBF:
    return strcmp(w, "none") == 0 || number(w, 0, FT_TIME_MAX_S, true, &why)
               ? 0
               : fail_at(p, f,
                         "expected seconds > 0 and <= 1e9, or none, got '%s' "
                         "(%s)",
                         w, why);
  case FT_AXIS_SEED:
    return seed(w) ? 0
                   : fail_at(p, f,
                             "expected integers from 0 to 2^64-1, got "
                             "'%s'",
                             w);
  default:
    return 0;
  }
}

static int apply_axis(struct parser *p, enum ft_sweep_axis a, char **w, int n) {
  if (n < 1)
    return fail_at(p, axis_names[a], "expected at least one value");
  for (int i = 0; i < n; i++) {
    char value[FT_SWEEP_NAME_LEN + 16];
    if (a == FT_AXIS_TRACE) {
      if (trace_value(p, w[i], value, sizeof value))
        return -1;
    } else if (axis_value(p, a, w[i])) {
      return -1;
    } else {
      snprintf(value, sizeof value, "%s", w[i]);
    }
    for (size_t j = 0; j < p->s->axis[a].count; j++)
      if (strcmp(p->s->axis[a].items[j], value) == 0)
        return fail_at(p, axis_names[a], "value '%s' given twice", w[i]);
    ft_strv_push(&p->s->axis[a], value);
  }
  return 0;
}

/* Checks the value of a one-word setting. */
static int setting_value(struct parser *p, enum ft_sweep_setting k,
                         const char *w) {
  const char *f = setting_names[k], *why = "";
  enum ft_trace_map map;
  enum ft_compute_mode mode;
  switch (k) {
  case FT_SET_COMPUTE:
    return ft_compute_mode_parse(w, &mode) == 0
               ? 0
               : fail_at(p, f, "expected auto, modelled or measured, got '%s'",
                         w);
  case FT_SET_TRACE_SCALE:
    return number(w, 0, HUGE_VAL, true, &why)
               ? 0
               : fail_at(p, f, "expected a number > 0, got '%s' (%s)", w, why);
  case FT_SET_MAX_FAILURES:
  case FT_SET_TRACE_SYSTEM:
    return integer(w, 0, INT_MAX)
               ? 0
               : fail_at(p, f, "expected an integer >= 0, got '%s'", w);
  case FT_SET_TRACE_MAP:
    return ft_trace_map_parse(w, &map) == 0
               ? 0
               : fail_at(p, f, "expected modulo or first, got '%s'", w);
  case FT_SET_IMAGE_MB:
    return number(w, 0, 1e6, false, &why)
               ? 0
               : fail_at(p, f, "expected MB in [0, 1e6], got '%s' (%s)", w,
                         why);
  default: /* times in seconds */
    return number(w, 0, FT_TIME_MAX_S, false, &why)
               ? 0
               : fail_at(p, f, "expected seconds in [0, 1e9], got '%s' (%s)", w,
                         why);
  }
}

static int apply_setting(struct parser *p, enum ft_sweep_setting k, char **w,
                         int n) {
  if (k == FT_SET_APP_ARGS) {
    for (int i = 0; i < n; i++)
      ft_strv_push(&p->s->app_args, w[i]);
  } else if (n != 1) {
    return fail_at(p, setting_names[k], "expected one value, got %d", n);
  } else if (setting_value(p, k, w[0])) {
    return -1;
  }
  size_t len = 1;
  for (int i = 0; i < n; i++)
    len += strlen(w[i]) + 1;
  char *text = ft_xrealloc(NULL, len);
  text[0] = '\0';
  for (int i = 0; i < n; i++)
    strcat(strcat(text, i ? " " : ""), w[i]);
  p->s->setting[k] = text;
  return 0;
}

/* FTSIM_OPTIONS keys a sweep sets for each point itself. */
static const char *owned_key(const char *entry) {
  static const char *const owned[][2] = {
      {"protocol=", "the protocols axis"},
      {"service_ranks=", "the servers axis"},
      {"period=", "the periods axis"},
      {"image_mb=", "the image_mb setting"},
      {"scenario=", "the mtbfs and traces axes"},
      {"trace=", "ftsim run --trace (every point would write the same files)"},
  };
  for (size_t i = 0; i < sizeof owned / sizeof *owned; i++)
    if (strncmp(entry, owned[i][0], strlen(owned[i][0])) == 0)
      return owned[i][1];
  return NULL;
}

/* One `set` entry: key=value that ft_options_parse accepts. */
static int set_entry(struct parser *p, const char *w) {
  const char *eq = strchr(w, '='), *owner = owned_key(w);
  struct ft_options o;
  char why[1024];
  if (!eq || eq == w || strchr(w, ','))
    return fail_at(p, "set", "expected key=value without ',', got '%s'", w);
  if (owner)
    return fail_at(p, "set", "%.*s is set for each point by %s, got '%s'",
                   (int)(eq - w), w, owner, w);
  if (ft_options_parse(w, &o, why, sizeof why)) {
    const char *q = strstr(why, "': ");
    return fail_at(p, "set", "%s", q ? q + 3 : why);
  }
  return 0;
}

static int apply_set(struct parser *p, char **w, int n) {
  if (n < 1)
    return fail_at(p, "set", "expected key=value ...");
  for (int i = 0; i < n; i++) {
    if (set_entry(p, w[i]))
      return -1;
    ft_strv_push(&p->s->sets, w[i]);
  }
  return 0;
}

/* Every (protocol, servers) of the grid with the `set`s must make options
 * the runtime accepts (ft_options_check), e.g. event_loggers <= servers. */
static int check_sets(struct parser *p, int set_line) {
  const struct ft_strv *prot = &p->s->axis[FT_AXIS_PROTOCOL];
  const struct ft_strv *srv = &p->s->axis[FT_AXIS_SERVERS];
  for (size_t i = 0; i < prot->count; i++)
    for (size_t k = 0; k < (srv->count ? srv->count : 1); k++) {
      const char *servers = srv->count ? srv->items[k] : "1";
      const struct ft_protocol_ops *ops = ft_protocol_find(prot->items[i]);
      char text[1024], why[1024];
      int n =
          snprintf(text, sizeof text, "protocol=%s,service_ranks=%s",
                   prot->items[i], ft_protocol_recovers(ops) ? servers : "0");
      for (size_t j = 0; j < p->s->sets.count && n > 0; j++)
        n += snprintf(text + n, sizeof text - (size_t)n, ",%s",
                      p->s->sets.items[j]);
      struct ft_options o;
      if (n < 0 || (size_t)n >= sizeof text)
        return fail_at(p, "set", "options longer than %zu bytes",
                       sizeof text - 1);
      if (ft_options_parse(text, &o, why, sizeof why) == 0 &&
          ft_options_check(&o, why, sizeof why) == 0)
        continue;
      p->line = set_line;
      return fail_at(p, "set", "protocol %s with servers %s: %s",
                     prot->items[i], ft_protocol_recovers(ops) ? servers : "0",
                     why);
    }
  return 0;
}

static size_t times(size_t a, size_t b) {
  return a && b > SIZE_MAX / a ? SIZE_MAX : a * b;
}

static size_t plus(size_t a, size_t b) {
  return b > SIZE_MAX - a ? SIZE_MAX : a + b;
}

size_t ft_sweep_points_count(const struct ft_sweep *s) {
  const struct ft_strv *ax = s->axis;
  size_t nm = ax[FT_AXIS_MTBF].count, nt = ax[FT_AXIS_TRACE].count;
  size_t nseed = ax[FT_AXIS_SEED].count ? ax[FT_AXIS_SEED].count : 1;
  size_t nnone = 0; /* mtbfs none: no failure, so one seed */
  for (size_t i = 0; i < nm; i++)
    nnone += strcmp(ax[FT_AXIS_MTBF].items[i], "none") == 0;
  size_t sources =
      nm + nt ? plus(plus(times(nm - nnone, nseed), nnone), nt) : 1;
  size_t inner =
      times(times(ax[FT_AXIS_SERVERS].count ? ax[FT_AXIS_SERVERS].count : 1,
                  ax[FT_AXIS_PERIOD].count ? ax[FT_AXIS_PERIOD].count : 1),
            sources);
  size_t per_protocol = 0;
  for (size_t i = 0; i < ax[FT_AXIS_PROTOCOL].count; i++) {
    const struct ft_protocol_ops *ops =
        ft_protocol_find(ax[FT_AXIS_PROTOCOL].items[i]);
    per_protocol =
        plus(per_protocol, ops && ft_protocol_recovers(ops) ? inner : 1);
  }
  return times(times(times(per_protocol, ax[FT_AXIS_PLATFORM].count),
                     ax[FT_AXIS_APP].count),
               ax[FT_AXIS_RANKS].count);
}

static int check_size(struct parser *p) {
  size_t n = ft_sweep_points_count(p->s);
  if (n <= FT_SWEEP_MAX_POINTS)
    return 0;
  char count[32];
  if (n == SIZE_MAX)
    snprintf(count, sizeof count, "more than %zu", SIZE_MAX - 1);
  else
    snprintf(count, sizeof count, "%zu", n);
  char sizes[256] = "";
  for (int a = 0; a < FT_AXIS_COUNT; a++) {
    size_t used = strlen(sizes);
    if (p->s->axis[a].count > 1)
      snprintf(sizes + used, sizeof sizes - used, "%s%zu %s", used ? " x " : "",
               p->s->axis[a].count, axis_names[a]);
  }
  snprintf(p->err, p->errlen,
           "%s: the grid has %s points (%s), more than the limit of %d: split "
           "it into several sweep files",
           p->s->name, count, sizes, FT_SWEEP_MAX_POINTS);
  return -1;
}

/* ---- lines */

static int unknown(struct parser *p, const char *word) {
  char known[512] = "";
  for (int i = 0; i < FT_AXIS_COUNT + FT_SET_COUNT + 1; i++) {
    const char *name = i < FT_AXIS_COUNT ? axis_names[i]
                       : i < FT_AXIS_COUNT + FT_SET_COUNT
                           ? setting_names[i - FT_AXIS_COUNT]
                           : "set";
    size_t used = strlen(known);
    snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", name);
  }
  snprintf(p->err, p->errlen, "%s:%d: unknown directive '%s' (known: %s)",
           p->s->name, p->line, word, known);
  return -1;
}

static int apply_line(struct parser *p, char **w, int n) {
  int d = 0;
  for (; d < FT_AXIS_COUNT + FT_SET_COUNT + 1; d++) {
    const char *name = d < FT_AXIS_COUNT ? axis_names[d]
                       : d < FT_AXIS_COUNT + FT_SET_COUNT
                           ? setting_names[d - FT_AXIS_COUNT]
                           : "set";
    if (strcmp(w[0], name) == 0)
      break;
  }
  if (d == FT_AXIS_COUNT + FT_SET_COUNT + 1)
    return unknown(p, w[0]);
  if (p->first[d])
    return fail_at(p, w[0], "given twice (first on line %d)", p->first[d]);
  p->first[d] = p->line;
  if (d < FT_AXIS_COUNT) {
    p->s->axis_line[d] = p->line;
    return apply_axis(p, (enum ft_sweep_axis)d, w + 1, n - 1);
  }
  if (d < FT_AXIS_COUNT + FT_SET_COUNT)
    return apply_setting(p, (enum ft_sweep_setting)(d - FT_AXIS_COUNT), w + 1,
                         n - 1);
  return apply_set(p, w + 1, n - 1);
}

static int split(char *buf, char **w) {
  int n = 0;
  for (char *c = buf; *c;) {
    while (*c == ' ' || *c == '\t' || *c == '\r')
      *c++ = '\0';
    if (!*c)
      break;
    if (n < MAX_WORDS)
      w[n] = c;
    n++;
    while (*c && *c != ' ' && *c != '\t' && *c != '\r')
      c++;
  }
  return n;
}

static int parse_line(struct parser *p, const char *begin, const char *end) {
  const char *hash = memchr(begin, '#', (size_t)(end - begin));
  size_t len = (size_t)((hash ? hash : end) - begin);
  if (len >= LINE_MAX_BYTES) {
    snprintf(p->err, p->errlen, "%s:%d: line longer than %d bytes", p->s->name,
             p->line, LINE_MAX_BYTES - 1);
    return -1;
  }
  char buf[LINE_MAX_BYTES], *w[MAX_WORDS];
  memcpy(buf, begin, len);
  buf[len] = '\0';
  int n = split(buf, w);
  if (n > MAX_WORDS) {
    snprintf(p->err, p->errlen, "%s:%d: more than %d words", p->s->name,
             p->line, MAX_WORDS);
    return -1;
  }
  return n ? apply_line(p, w, n) : 0;
}

static int check_required(struct parser *p) {
  static const enum ft_sweep_axis required[] = {
      FT_AXIS_PROTOCOL, FT_AXIS_PLATFORM, FT_AXIS_APP, FT_AXIS_RANKS};
  for (size_t i = 0; i < sizeof required / sizeof *required; i++)
    if (!p->s->axis[required[i]].count) {
      snprintf(p->err, p->errlen,
               "%s: field '%s': missing (required: protocols, platforms, "
               "apps, ranks)",
               p->s->name, axis_names[required[i]]);
      return -1;
    }
  return 0;
}

int ft_sweep_parse(const char *text, const char *name, int check_traces,
                   struct ft_sweep *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", name ? name : "sweep");
  const char *slash = strrchr(out->name, '/');
  if (slash)
    snprintf(out->dir, sizeof out->dir, "%.*s",
             (int)(slash == out->name ? 1 : slash - out->name), out->name);
  struct parser p = {
      .s = out, .check_traces = check_traces, .err = err, .errlen = errlen};
  if (errlen > 0)
    err[0] = '\0';
  for (const char *c = text ? text : ""; *c;) {
    const char *nl = strchr(c, '\n');
    const char *end = nl ? nl : c + strlen(c);
    p.line++;
    if (parse_line(&p, c, end)) {
      ft_sweep_free(out);
      return -1;
    }
    c = nl ? nl + 1 : end;
  }
  if (check_required(&p) || check_size(&p) ||
      check_sets(&p, p.first[FT_AXIS_COUNT + FT_SET_COUNT])) {
    ft_sweep_free(out);
    return -1;
  }
  return 0;
}

int ft_sweep_load(const char *path, struct ft_sweep *out, char *err,
                  size_t errlen) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  char *buf = ft_xrealloc(NULL, FT_SWEEP_MAX_BYTES + 1);
  size_t len = fread(buf, 1, FT_SWEEP_MAX_BYTES, f);
  int bad = ferror(f) || !feof(f);
  fclose(f);
  buf[len] = '\0';
  int rc = -1;
  if (bad)
    snprintf(err, errlen, "%s: cannot read, or larger than %d bytes", path,
             FT_SWEEP_MAX_BYTES);
  else if (strlen(buf) < len)
    snprintf(err, errlen, "%s: not a text file (NUL byte at offset %zu)", path,
             strlen(buf));
  else
    rc = ft_sweep_parse(buf, path, 1, out, err, errlen);
  free(buf);
  return rc;
}

const char *ft_sweep_get(const struct ft_sweep *s, enum ft_sweep_setting k,
                         const char *def) {
  return s->setting[k] ? s->setting[k] : def;
}

void ft_sweep_free(struct ft_sweep *s) {
  for (int a = 0; a < FT_AXIS_COUNT; a++)
    ft_strv_free(&s->axis[a]);
  for (int k = 0; k < FT_SET_COUNT; k++) {
    free(s->setting[k]);
    s->setting[k] = NULL;
  }
  ft_strv_free(&s->sets);
  ft_strv_free(&s->app_args);
}
