/* The results CSV of a sweep (see results.h). */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "errmsg.h"
#include "options.h"
#include "strv.h"

#define MAX_BYTES ((size_t)256 << 20)
#define LINE_BUF 16384

/* How a column's cells are checked when read. */
enum kind { TEXT, INT, NUM, NUM_OR_NONE, BOOL, SEED };

struct column {
  const char *name;
  const char *json; /* summary member, or NULL */
  enum kind kind;
  bool required; /* may not be empty */
  long long min; /* INT: smallest value (every NUM is >= 0) */
};

static const struct column columns[FT_COL_COUNT] = {
    [FT_COL_PROTOCOL] = {"protocol", NULL, TEXT, true},
    [FT_COL_PLATFORM] = {"platform", NULL, TEXT, true},
    [FT_COL_APP] = {"app", NULL, TEXT, true},
    [FT_COL_RANKS] = {"ranks", NULL, INT, true, 1},
    [FT_COL_SERVERS] = {"servers", NULL, INT, true},
    [FT_COL_PERIOD] = {"period_s", NULL, NUM, true},
    [FT_COL_MTBF] = {"mtbf_s", NULL, NUM_OR_NONE, false},
    [FT_COL_TRACE] = {"trace", NULL, TEXT, false},
    [FT_COL_SEED] = {"seed", NULL, SEED, true, 0},
    [FT_COL_IMAGE_MB] = {"image_mb", NULL, NUM, true},
    [FT_COL_DETECTION] = {"detection_s", NULL, NUM, true},
    [FT_COL_RESTART] = {"restart_s", NULL, NUM, true},
    [FT_COL_APP_ARGS] = {"app_args", NULL, TEXT, false},
    [FT_COL_STATUS] = {"status", NULL, INT, true, -1},
    [FT_COL_OUTCOME] = {"outcome", NULL, TEXT, true},
    [FT_COL_VERIFIED] = {"verified", "verified", BOOL, false},
    [FT_COL_COMPLETION] = {"completion_time_s", "completion_time_s", NUM,
                           false},
    [FT_COL_WAVES] = {"waves", "waves", INT, false},
    [FT_COL_FAILURES] = {"failures", "failures", INT, false},
    [FT_COL_ROLLBACKS] = {"rollbacks", "rollbacks", INT, false},
    [FT_COL_CKPT_BYTES] = {"ckpt_bytes", "ckpt_bytes", INT, false},
    [FT_COL_LOST_WORK] = {"lost_work_s", "lost_work_s", NUM, false},
    [FT_COL_RECOVERY] = {"recovery_s", "recovery_s", NUM, false},
    [FT_COL_MESSAGES] = {"messages", "messages", INT, false},
    [FT_COL_BYTES] = {"bytes", "bytes", INT, false},
    [FT_COL_SERVICE_RANKS] = {"service_ranks", "service_ranks", INT, false},
    [FT_COL_CHANNEL_MSGS] = {"channel_msgs", "channel_msgs", INT, false},
    [FT_COL_REPLAYED_MSGS] = {"replayed_msgs", "replayed_msgs", INT, false},
    [FT_COL_WALL] = {"wall_s", "wall_s", NUM, false},
};

const char *ft_col_name(enum ft_col c) { return columns[c].name; }

const char *ft_col_json(enum ft_col c) { return columns[c].json; }

void ft_results_header(FILE *out) {
  for (int c = 0; c < FT_COL_COUNT; c++)
    fprintf(out, "%s%s", c ? "," : "", columns[c].name);
  fputc('\n', out);
}

void ft_results_row(FILE *out, char *const cells[FT_COL_COUNT]) {
  for (int c = 0; c < FT_COL_COUNT; c++) {
    if (c)
      fputc(',', out);
    ft_csv_put(out, cells[c] ? cells[c] : "");
  }
  fputc('\n', out);
}

void ft_results_key(char *const *cells, char *out, size_t len) {
  size_t used = 0;
  out[0] = '\0';
  for (int c = 0; c < FT_COL_NPARAMS && used < len; c++) {
    int n = snprintf(out + used, len - used, "%s%s", c ? "\x1f" : "",
                     cells[c] ? cells[c] : "");
    if (n < 0)
      return;
    used += (size_t)n;
  }
}

/* ---- reading */

struct reader {
  const char *name;
  int line;
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

static bool is_int(const char *w, long long min) {
  char *end;
  errno = 0;
  long long v = strtoll(w, &end, 10);
  return strchr("+-0123456789", w[0]) && !errno && end != w && !*end &&
         v >= min;
}

static bool is_seed(const char *w) {
  char *end;
  errno = 0;
  (void)strtoull(w, &end, 10);
  return w[0] >= '0' && w[0] <= '9' && !errno && !*end;
}

/* A decimal number >= 0 (a time, a size): negative, NaN or infinite
 * completion times won the best period before. */
static bool is_num(const char *w) {
  double v;
  return ft_parse_double(w, 0, HUGE_VAL, &v) == FT_NUM_OK;
}

static int check_cell(struct reader *r, enum ft_col c, const char *v) {
  const struct column *col = &columns[c];
  if (!*v)
    return col->required ? fail(r, "field '%s': empty", col->name) : 0;
  bool ok = col->kind == TEXT || (col->kind == INT && is_int(v, col->min)) ||
            (col->kind == SEED && is_seed(v)) ||
            (col->kind == NUM && is_num(v)) ||
            (col->kind == NUM_OR_NONE && (is_num(v) || !strcmp(v, "none"))) ||
            (col->kind == BOOL &&
             (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "null")));
  if (ok)
    return 0;
  if (col->kind == INT)
    return fail(r, "field '%s': expected an integer >= %lld, got '%s'",
                col->name, col->min, v);
  static const char *const what[] = {"text",
                                     "an integer",
                                     "a decimal number >= 0",
                                     "a number >= 0 or none",
                                     "true, false or null",
                                     "an integer from 0 to 2^64-1"};
  return fail(r, "field '%s': expected %s, got '%s'", col->name,
              what[col->kind], v);
}

static int check_header(struct reader *r, char **f, int n) {
  bool ok = n == FT_COL_COUNT;
  for (int c = 0; ok && c < FT_COL_COUNT; c++)
    ok = strcmp(f[c], columns[c].name) == 0;
  if (ok)
    return 0;
  return fail(r,
              "field 'header': expected the %d columns of ftsim sweep "
              "(protocol,platform,app,...,wall_s), got %d column%s starting "
              "'%s'",
              FT_COL_COUNT, n, n == 1 ? "" : "s", n > 0 ? f[0] : "");
}

static void push_row(struct ft_results *out, char **f, int line) {
  if (out->count == out->cap) {
    out->cap = out->cap ? 2 * out->cap : 64;
    out->rows = ft_xrealloc(out->rows, out->cap * sizeof *out->rows);
  }
  struct ft_row *row = &out->rows[out->count++];
  row->line = line;
  for (int c = 0; c < FT_COL_COUNT; c++)
    row->cell[c] = ft_xstrdup(f[c]);
}

static int parse_row(struct reader *r, struct ft_results *out, const char *line,
                     size_t len, bool header) {
  char *f[FT_COL_COUNT + 1], buf[LINE_BUF];
  const char *why = NULL;
  int n =
      ft_csv_split(line, len, ',', f, FT_COL_COUNT + 1, buf, sizeof buf, &why);
  if (n < 0)
    return fail(r, "malformed CSV: %s", why);
  if (header)
    return check_header(r, f, n);
  if (n != FT_COL_COUNT)
    return fail(r, "expected %d fields, got %d", FT_COL_COUNT, n);
  for (int c = 0; c < FT_COL_COUNT; c++)
    if (check_cell(r, (enum ft_col)c, f[c]))
      return -1;
  push_row(out, f, r->line);
  return 0;
}

int ft_results_parse(const char *text, size_t len, const char *name,
                     struct ft_results *out, size_t *complete, char *err,
                     size_t errlen) {
  struct reader r = {
      .name = name ? name : "results", .err = err, .errlen = errlen};
  const char *c = text, *end = text + len;
  size_t done = 0;
  bool header = true; /* the next line that is not a comment */
  while (c < end) {
    const char *nl = memchr(c, '\n', (size_t)(end - c));
    if (!nl)
      break; /* a partial last line */
    r.line++;
    if (header && *c == '#') {
      ft_provenance_line(&out->prov, c, (size_t)(nl - c));
      c = nl + 1;
      done = (size_t)(c - text);
      continue;
    }
    if (nl > c && parse_row(&r, out, c, (size_t)(nl - c), header))
      return -1;
    if (nl == c && header)
      return fail(&r, "field 'header': empty line instead of the header");
    header = false;
    c = nl + 1;
    done = (size_t)(c - text);
  }
  if (header && done > 0)
    return fail(&r, "field 'header': missing after the comment lines");
  if (complete)
    *complete = done;
  return 0;
}

int ft_results_load(const char *path, struct ft_results *out, bool *partial,
                    char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  char *buf = NULL;
  size_t len = 0, cap = 0, n;
  char tmp[65536];
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0 && len <= MAX_BYTES) {
    if (len + n + 1 > cap) {
      cap = 2 * (len + n + 1);
      buf = ft_xrealloc(buf, cap);
    }
    memcpy(buf + len, tmp, n);
    len += n;
  }
  int bad = ferror(f);
  fclose(f);
  int rc = -1;
  size_t complete = 0;
  if (bad || len > MAX_BYTES)
    snprintf(err, errlen, "%s: cannot read, or larger than %zu bytes", path,
             MAX_BYTES);
  else if (len == 0)
    snprintf(err, errlen, "%s:1: field 'header': empty file", path);
  else if (buf && memchr(buf, '\0', len))
    snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
  else
    rc = ft_results_parse(buf ? buf : "", len, path, out, &complete, err,
                          errlen);
  if (partial)
    *partial = rc == 0 && complete < len;
  free(buf);
  return rc;
}

struct keyed {
  char *key;
  size_t row;
};

static int by_key_then_row(const void *pa, const void *pb) {
  const struct keyed *a = pa, *b = pb;
  int d = strcmp(a->key, b->key);
  return d ? d : (a->row > b->row) - (a->row < b->row);
}

/* Marks in `drop` every row whose key an earlier row has; warns. */
static size_t mark_duplicates(const struct ft_results *r, bool *drop,
                              const char *name, FILE *warn) {
  struct keyed *k = ft_xrealloc(NULL, (r->count + 1) * sizeof *k);
  char key[16384];
  for (size_t i = 0; i < r->count; i++) {
    ft_results_key(r->rows[i].cell, key, sizeof key);
    k[i] = (struct keyed){ft_xstrdup(key), i};
  }
  if (r->count > 1)
    qsort(k, r->count, sizeof *k, by_key_then_row);
  size_t dropped = 0;
  for (size_t i = 1, first = 0; i < r->count; i++) {
    if (strcmp(k[i].key, k[first].key) != 0) {
      first = i;
      continue;
    }
    drop[k[i].row] = true;
    dropped++;
    if (warn)
      fprintf(warn,
              "ftsim: warning: %s:%d: same point and seed as line %d: row "
              "ignored\n",
              name, r->rows[k[i].row].line, r->rows[k[first].row].line);
  }
  for (size_t i = 0; i < r->count; i++)
    free(k[i].key);
  free(k);
  return dropped;
}

size_t ft_results_dedup(struct ft_results *r, const char *name, FILE *warn) {
  bool *drop = ft_xrealloc(NULL, (r->count + 1) * sizeof *drop);
  memset(drop, 0, (r->count + 1) * sizeof *drop);
  size_t dropped = mark_duplicates(r, drop, name, warn), keep = 0;
  for (size_t i = 0; i < r->count; i++) {
    if (!drop[i]) {
      r->rows[keep++] = r->rows[i];
      continue;
    }
    for (int c = 0; c < FT_COL_COUNT; c++)
      free(r->rows[i].cell[c]);
  }
  r->count = keep;
  free(drop);
  return dropped;
}

void ft_results_free(struct ft_results *r) {
  for (size_t i = 0; i < r->count; i++)
    for (int c = 0; c < FT_COL_COUNT; c++)
      free(r->rows[i].cell[c]);
  free(r->rows);
  memset(r, 0, sizeof *r);
}

/* ---- the summary's JSON */

/* Skips a JSON string starting at its opening quote; returns the byte
 * after its closing quote, or NULL. */
static const char *skip_string(const char *p) {
  for (p++; *p; p++) {
    if (*p == '\\' && p[1])
      p++;
    else if (*p == '"')
      return p + 1;
  }
  return NULL;
}

static void copy_value(const char *v, char *out, size_t len) {
  size_t o = 0;
  if (*v == '"') {
    for (v++; *v && *v != '"' && o + 1 < len; v++) {
      if (*v == '\\' && v[1])
        v++;
      out[o++] = *v;
    }
  } else {
    while (*v && *v != ',' && *v != '}' && *v != ' ' && o + 1 < len)
      out[o++] = *v++;
  }
  out[o] = '\0';
}

int ft_json_member(const char *json, const char *key, char *out, size_t len) {
  size_t klen = strlen(key);
  const char *p = strchr(json, '{');
  while (p && *p) {
    p++;
    while (*p == ' ' || *p == ',')
      p++;
    if (*p != '"')
      return -1;
    const char *k = p + 1, *after = skip_string(p);
    if (!after)
      return -1;
    while (*after == ' ' || *after == ':')
      after++;
    if ((size_t)(after - k) >= klen + 1 && strncmp(k, key, klen) == 0 &&
        k[klen] == '"') {
      copy_value(after, out, len);
      return 0;
    }
    p = *after == '"' ? skip_string(after) : after;
    while (p && *p && *p != ',' && *p != '}')
      p++;
    if (!p || *p != ',')
      return -1;
  }
  return -1;
}
