/* Summary line splicing (see summary.h). */
#define _POSIX_C_SOURCE 200809L
#include "summary.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX_LEN (sizeof FT_SUMMARY_PREFIX - 1)

bool ft_summary_is_line(const char *line, size_t len) {
  return len >= PREFIX_LEN && memcmp(line, FT_SUMMARY_PREFIX, PREFIX_LEN) == 0;
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Narrows [*b, *e) past leading and trailing white space. */
static void trim(const char **b, const char **e) {
  while (*b < *e && is_space(**b))
    (*b)++;
  while (*e > *b && is_space((*e)[-1]))
    (*e)--;
}

/* Returns where the member starting at `p` ends: the next ',' outside a
 * string, or `end`; NULL when a string is not terminated before `end`. */
static const char *member_end(const char *p, const char *end) {
  bool in_string = false;
  for (; p < end; p++) {
    if (in_string && *p == '\\')
      p++;
    else if (*p == '"')
      in_string = !in_string;
    else if (!in_string && *p == ',')
      return p;
  }
  return in_string ? NULL : end;
}

/* Checks that every member of [p, end) is non-empty and its strings are
 * terminated; returns NULL or what is wrong. */
static const char *check_members(const char *p, const char *end) {
  if (p == end)
    return NULL; /* {} */
  for (;;) {
    const char *m = member_end(p, end), *b = p, *e = m;
    if (!m)
      return "the summary has an unterminated string";
    trim(&b, &e);
    if (b == e)
      return "the summary has an empty member (stray comma)";
    if (m == end)
      return NULL;
    p = m + 1;
  }
}

/* Writes `s` as a JSON string (or null). */
static void put_string(FILE *out, const char *s) {
  if (!s) {
    fputs("null", out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void put_extra(FILE *out, const struct ft_summary_extra *x) {
  fputs("\"platform\":", out);
  put_string(out, x->platform);
  fputs(",\"app\":", out);
  put_string(out, x->app);
  fputs(",\"mode\":", out);
  put_string(out, x->mode);
}

/* Writes {first,extra,rest,"compute":c,"wall_s":w} for the inner text [b, e).
 */
static char *build(const char *b, const char *e,
                   const struct ft_summary_extra *x) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  if (!out)
    return NULL;
  const char *first = member_end(b, e);
  fputc('{', out);
  if (b < e)
    fprintf(out, "%.*s,", (int)(first - b), b);
  put_extra(out, x);
  if (first < e)
    fprintf(out, ",%.*s", (int)(e - first - 1), first + 1);
  fputs(",\"compute\":", out);
  put_string(out, x->compute);
  fprintf(out, ",\"wall_s\":%.3f}", x->wall_s);
  fclose(out);
  return text;
}

char *ft_summary_splice(const char *line, size_t len,
                        const struct ft_summary_extra *extra, char *err,
                        size_t errlen) {
  const char *b = line, *e = line + len;
  if (ft_summary_is_line(line, len))
    b += PREFIX_LEN;
  trim(&b, &e);
  if (e - b < 2 || *b != '{' || e[-1] != '}') {
    snprintf(err, errlen,
             "the summary is not a JSON object (it must start "
             "with '{' and end with '}')");
    return NULL;
  }
  b++, e--;
  trim(&b, &e);
  const char *problem = check_members(b, e);
  if (problem) {
    snprintf(err, errlen, "%s", problem);
    return NULL;
  }
  char *text = build(b, e, extra);
  if (!text)
    snprintf(err, errlen, "out of memory");
  return text;
}

/* Returns 1/0 for a member text `"verified" : true|false`, else -1. */
static int verified_member(const char *p, const char *end) {
  static const char key[] = "\"verified\"";
  trim(&p, &end);
  if ((size_t)(end - p) < sizeof key || memcmp(p, key, sizeof key - 1))
    return -1;
  p += sizeof key - 1;
  trim(&p, &end);
  if (p == end || *p++ != ':')
    return -1;
  trim(&p, &end);
  if (end - p == 4 && memcmp(p, "true", 4) == 0)
    return 1;
  if (end - p == 5 && memcmp(p, "false", 5) == 0)
    return 0;
  return -1;
}

int ft_summary_verified(const char *json) {
  const char *b = json, *e = json + strlen(json);
  trim(&b, &e);
  if (e - b < 2 || *b != '{' || e[-1] != '}')
    return -1;
  b++, e--;
  for (const char *m; b < e; b = m + 1) {
    if (!(m = member_end(b, e)))
      return -1;
    int v = verified_member(b, m);
    if (v >= 0)
      return v;
  }
  return -1;
}

/* Reads a member text `"key" : N` (N a non-negative integer). */
static int count_member(const char *p, const char *end, const char *key,
                        unsigned long long *out) {
  size_t k = strlen(key);
  trim(&p, &end);
  if ((size_t)(end - p) < k + 3 || *p != '"' || memcmp(p + 1, key, k) ||
      p[k + 1] != '"')
    return -1;
  p += k + 2;
  trim(&p, &end);
  if (p == end || *p++ != ':')
    return -1;
  trim(&p, &end);
  if (p == end)
    return -1;
  unsigned long long v = 0;
  for (; p < end; p++) {
    if (*p < '0' || *p > '9' || v > (ULLONG_MAX - 9) / 10)
      return -1;
    v = v * 10 + (unsigned long long)(*p - '0');
  }
  *out = v;
  return 0;
}

int ft_summary_count(const char *json, const char *key,
                     unsigned long long *out) {
  const char *b = json, *e = json + strlen(json);
  if (ft_summary_is_line(json, strlen(json)))
    b += PREFIX_LEN;
  trim(&b, &e);
  if (e - b < 2 || *b != '{' || e[-1] != '}')
    return -1;
  b++, e--;
  for (const char *m; b < e; b = m + 1) {
    if (!(m = member_end(b, e)))
      return -1;
    if (count_member(b, m, key, out) == 0)
      return 0;
  }
  return -1;
}

/* True for a member text `"outcome" : "no_progress"`. */
static bool no_progress_member(const char *p, const char *end) {
  static const char key[] = "\"outcome\"", value[] = "\"no_progress\"";
  trim(&p, &end);
  if ((size_t)(end - p) < sizeof key || memcmp(p, key, sizeof key - 1))
    return false;
  p += sizeof key - 1;
  trim(&p, &end);
  if (p == end || *p++ != ':')
    return false;
  trim(&p, &end);
  return (size_t)(end - p) == sizeof value - 1 &&
         memcmp(p, value, sizeof value - 1) == 0;
}

bool ft_summary_no_progress(const char *json) {
  const char *b = json, *e = json + strlen(json);
  if (ft_summary_is_line(json, strlen(json)))
    b += PREFIX_LEN;
  trim(&b, &e);
  if (e - b < 2 || *b != '{' || e[-1] != '}')
    return false;
  b++, e--;
  for (const char *m; b < e; b = m + 1) {
    if (!(m = member_end(b, e)))
      return false;
    if (no_progress_member(b, m))
      return true;
  }
  return false;
}
