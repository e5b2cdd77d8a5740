/* Failure traces (see failure_trace.h). */
#define _POSIX_C_SOURCE 200809L
#include "failure_trace.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */

#include "csv.h"
#include "errmsg.h"

#define KEY_LEN 48    /* node identity "system:node", truncated */
#define MAX_FIELDS 64 /* columns kept per line */
#define LINE_BUF 4096 /* unquoted bytes of one line */
#define FTA_COLUMNS 9

/* One failure as read, before sorting and node numbering. */
struct raw {
  double t; /* trace time, epoch seconds */
  size_t order;
  char key[KEY_LEN];
};

struct reader {
  const char *name;
  int line;
  long system;
  struct raw *raw;
  size_t n, cap;
  int col_system, col_node, col_time; /* LANL header columns */
  bool have_header;
  char *err;
  size_t errlen;
};

static int fail(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "NAME:LINE: <fmt>", returns -1. */
static int fail(struct reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_v(r->err, r->errlen, r->name, r->line, NULL, fmt, ap);
  va_end(ap);
  return -1;
}

int ft_trace_format_parse(const char *name, enum ft_trace_format *out) {
  if (strcmp(name, "lanl") == 0)
    *out = FT_TRACE_LANL;
  else if (strcmp(name, "fta") == 0)
    *out = FT_TRACE_FTA;
  else
    return -1;
  return 0;
}

int ft_trace_map_parse(const char *name, enum ft_trace_map *out) {
  if (strcmp(name, "modulo") == 0)
    *out = FT_TRACE_MAP_MODULO;
  else if (strcmp(name, "first") == 0)
    *out = FT_TRACE_MAP_FIRST;
  else
    return -1;
  return 0;
}

int ft_trace_rank(int node, int ranks, enum ft_trace_map map) {
  if (ranks < 1 || node < 0)
    return -1;
  if (map == FT_TRACE_MAP_FIRST)
    return node < ranks ? node : -1;
  return node % ranks;
}

void ft_trace_free(struct ft_trace *t) {
  free(t->events);
  memset(t, 0, sizeof *t);
}

/* ---- fields */

/* Reads the whole word as an integer (blanks around allowed). */
static int parse_long(const char *w, long *out) {
  char *end;
  errno = 0;
  long v = strtol(w, &end, 10);
  while (*end == ' ' || *end == '\t')
    end++;
  if (errno || end == w || *end)
    return -1;
  *out = v;
  return 0;
}

/* Reads the whole word as a finite number >= 0. */
static int parse_time(const char *w, double *out) {
  char *end;
  errno = 0;
  double v = strtod(w, &end);
  while (*end == ' ' || *end == '\t')
    end++;
  if (errno || end == w || *end || !isfinite(v) || v < 0)
    return -1;
  *out = v;
  return 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static bool leap(long y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static bool valid_date(long y, long mo, long d, long h, long mi, long s) {
  static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
      s < 0 || s > 59 || y < 1900 || y > 2200)
    return false;
  return d <= mdays[mo - 1] + (mo == 2 && leap(y));
}

/* "mm/dd/yyyy hh:mm[:ss]" (or a 2-digit year: 70-99 -> 19yy, else 20yy)
 * as UTC epoch seconds. */
static int parse_date(const char *w, double *out) {
  long mo, d, y, h, mi, s = 0;
  int used = 0,
      n = sscanf(w, " %ld/%ld/%ld %ld:%ld%n", &mo, &d, &y, &h, &mi, &used);
  if (n != 5)
    return -1;
  if (w[used] == ':') {
    int more = 0;
    if (sscanf(w + used, ":%ld%n", &s, &more) != 1)
      return -1;
    used += more;
  }
  while (w[used] == ' ')
    used++;
  if (w[used])
    return -1;
  if (y >= 0 && y < 100)
    y += y >= 70 ? 1900 : 2000;
  if (!valid_date(y, mo, d, h, mi, s))
    return -1;
  *out = (double)days_from_civil(y, mo, d) * 86400.0 +
         (double)(h * 3600 + mi * 60 + s);
  return 0;
}

/* ---- collecting failures */

static int add(struct reader *r, double t, long system, const char *node) {
  if (r->n >= FT_TRACE_MAX_EVENTS) {
    snprintf(r->err, r->errlen, "%s: more than %d failures", r->name,
             FT_TRACE_MAX_EVENTS);
    return -1;
  }
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 256;
    struct raw *grown = realloc(r->raw, cap * sizeof *grown);
    if (!grown)
      return fail(r, "out of memory");
    r->raw = grown;
    r->cap = cap;
  }
  struct raw *e = &r->raw[r->n];
  e->t = t;
  e->order = r->n++;
  snprintf(e->key, sizeof e->key, "%ld:%s", system, node);
  return 0;
}

/* ---- LANL */

static bool same_name(const char *a, const char *b) {
  while (*a == ' ')
    a++;
  size_t n = strlen(b);
  if (strncasecmp(a, b, n) != 0)
    return false;
  for (a += n; *a == ' ';)
    a++;
  return *a == '\0';
}

static int find_column(struct reader *r, char **f, int n, const char *name,
                       int *col) {
  for (int i = 0; i < n && i < MAX_FIELDS; i++)
    if (same_name(f[i], name)) {
      *col = i;
      return 0;
    }
  return fail(r, "field '%s': no such column in the header", name);
}

static int lanl_header(struct reader *r, char **f, int n) {
  if (find_column(r, f, n, "System", &r->col_system) ||
      find_column(r, f, n, "nodenum", &r->col_node) ||
      find_column(r, f, n, "Prob Started", &r->col_time))
    return -1;
  r->have_header = true;
  return 0;
}

static int lanl_row(struct reader *r, char **f, int n) {
  int need = r->col_system;
  if (r->col_node > need)
    need = r->col_node;
  if (r->col_time > need)
    need = r->col_time;
  if (n <= need)
    return fail(r, "expected at least %d columns (as the header), got %d",
                need + 1, n);
  long system, node;
  double t;
  if (parse_long(f[r->col_system], &system))
    return fail(r, "field 'System': expected an integer, got '%s'",
                f[r->col_system]);
  if (parse_long(f[r->col_node], &node))
    return fail(r, "field 'nodenum': expected an integer, got '%s'",
                f[r->col_node]);
  if (parse_date(f[r->col_time], &t))
    return fail(r, "field 'Prob Started': expected mm/dd/yyyy hh:mm, got '%s'",
                f[r->col_time]);
  if (r->system >= 0 && system != r->system)
    return 0;
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", node);
  return add(r, t, system, buf);
}

static int lanl_line(struct reader *r, const char *line, size_t len) {
  char *f[MAX_FIELDS], buf[LINE_BUF];
  const char *why = NULL;
  int n = ft_csv_split(line, len, ',', f, MAX_FIELDS, buf, sizeof buf, &why);
  if (n < 0)
    return fail(r, "malformed CSV: %s", why);
  return r->have_header ? lanl_row(r, f, n) : lanl_header(r, f, n);
}

/* ---- FTA */

/* Splits at blanks (no quoting) into at most `max` words. */
static int split_blanks(char *buf, char **f, int max) {
  int n = 0;
  for (char *c = buf; *c;) {
    while (*c == ' ' || *c == '\r')
      *c++ = '\0';
    if (!*c)
      break;
    if (n < max)
      f[n] = c;
    n++;
    while (*c && *c != ' ' && *c != '\r')
      c++;
  }
  return n;
}

static int fta_split(struct reader *r, const char *line, size_t len, char **f,
                     char *buf, size_t bufsize) {
  if (memchr(line, '\t', len)) {
    const char *why = NULL;
    int n = ft_csv_split(line, len, '\t', f, MAX_FIELDS, buf, bufsize, &why);
    return n < 0 ? fail(r, "malformed line: %s", why) : n;
  }
  if (len >= bufsize)
    return fail(r, "malformed line: line too long");
  memcpy(buf, line, len);
  buf[len] = '\0';
  return split_blanks(buf, f, MAX_FIELDS);
}

static int fta_line(struct reader *r, const char *line, size_t len) {
  char *f[MAX_FIELDS], buf[LINE_BUF];
  int n = fta_split(r, line, len, f, buf, sizeof buf);
  if (n < 0)
    return -1;
  if (!r->have_header && n > 0 && same_name(f[0], "event_id")) {
    r->have_header = true;
    return 0;
  }
  r->have_header = true;
  if (n != FTA_COLUMNS)
    return fail(r, "expected %d columns (FTA event_trace), got %d", FTA_COLUMNS,
                n);
  long platform, type;
  double t;
  if (parse_long(f[3], &platform))
    return fail(r, "field 'platform_id': expected an integer, got '%s'", f[3]);
  if (parse_long(f[5], &type) || (type != 0 && type != 1))
    return fail(r, "field 'event_type': expected 0 or 1, got '%s'", f[5]);
  if (parse_time(f[6], &t))
    return fail(r,
                "field 'event_start_time': expected epoch seconds >= 0, got "
                "'%s'",
                f[6]);
  if (type != 0 || (r->system >= 0 && platform != r->system))
    return 0;
  return add(r, t, platform, f[2]);
}

/* ---- sorting and numbering */

static int by_time(const void *a, const void *b) {
  const struct raw *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

/* Numbers nodes in first-failure order into out->events (r->raw sorted). */
static int number_nodes(struct reader *r, struct ft_trace *out) {
  size_t cap = 16;
  while (cap < 2 * r->n)
    cap *= 2;
  size_t *slot = malloc(cap * sizeof *slot); /* raw index + 1, 0: free */
  int *node = malloc(cap * sizeof *node);
  out->events = malloc((r->n ? r->n : 1) * sizeof *out->events);
  if (!slot || !node || !out->events) {
    free(slot), free(node), ft_trace_free(out);
    snprintf(r->err, r->errlen, "%s: out of memory", r->name);
    return -1;
  }
  memset(slot, 0, cap * sizeof *slot);
  for (size_t i = 0; i < r->n; i++) {
    size_t h = (size_t)hash(r->raw[i].key) & (cap - 1);
    while (slot[h] && strcmp(r->raw[slot[h] - 1].key, r->raw[i].key) != 0)
      h = (h + 1) & (cap - 1);
    if (!slot[h]) {
      slot[h] = i + 1;
      node[h] = out->nnodes++;
    }
    out->events[i].node = node[h];
    out->events[i].time = r->raw[i].t - r->raw[0].t;
  }
  out->nevents = r->n;
  out->origin = r->n ? r->raw[0].t : 0;
  free(slot);
  free(node);
  return 0;
}

/* ---- parsing */

static int parse_lines(struct reader *r, const char *text, size_t len,
                       enum ft_trace_format fmt) {
  const char *c = text, *end = text + len;
  while (c < end) {
    const char *nl = memchr(c, '\n', (size_t)(end - c));
    const char *e = nl ? nl : end;
    r->line++;
    const char *b = c;
    while (b < e && (*b == ' ' || *b == '\t' || *b == '\r'))
      b++;
    if (b < e && *b != '#') {
      int rc = fmt == FT_TRACE_LANL ? lanl_line(r, c, (size_t)(e - c))
                                    : fta_line(r, c, (size_t)(e - c));
      if (rc)
        return -1;
    }
    c = nl ? nl + 1 : end;
  }
  if (fmt == FT_TRACE_LANL && !r->have_header) {
    snprintf(r->err, r->errlen,
             "%s: no header row (LANL traces name their columns: System, "
             "nodenum, Prob Started)",
             r->name);
    return -1;
  }
  return 0;
}

int ft_trace_parse(const char *text, size_t len, enum ft_trace_format fmt,
                   const char *name, long system, struct ft_trace *out,
                   char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  struct reader r = {.name = name ? name : "trace",
                     .system = system,
                     .err = err,
                     .errlen = errlen};
  if (errlen > 0)
    err[0] = '\0';
  const char *nul = memchr(text, '\0', len);
  int rc = -1;
  if (nul)
    snprintf(err, errlen, "%s: not a text file (NUL byte at offset %zu)",
             r.name, (size_t)(nul - text));
  else if (parse_lines(&r, text, len, fmt) == 0) {
    if (r.n > 1) /* qsort's base may not be NULL, even for 0 items */
      qsort(r.raw, r.n, sizeof *r.raw, by_time);
    rc = number_nodes(&r, out);
  }
  free(r.raw);
  return rc;
}

int ft_trace_load(const char *path, enum ft_trace_format fmt, long system,
                  struct ft_trace *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  char *buf = malloc(FT_TRACE_MAX_BYTES + 1);
  size_t len = buf ? fread(buf, 1, FT_TRACE_MAX_BYTES + 1, f) : 0;
  int bad = !buf || ferror(f);
  fclose(f);
  int rc = -1;
  if (bad)
    snprintf(err, errlen, "%s: cannot read: %s", path,
             buf ? strerror(EIO) : "out of memory");
  else if (len > FT_TRACE_MAX_BYTES)
    snprintf(err, errlen, "%s: larger than %d bytes", path, FT_TRACE_MAX_BYTES);
  else
    rc = ft_trace_parse(buf, len, fmt, path, system, out, err, errlen);
  free(buf);
  return rc;
}
