/* The numbers of `ftsim crosscheck` (see crosscheck_stats.h). */
#include "crosscheck_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[FT_XC_NMETRICS] = {
    "completion_time_s", "messages",        "bytes",      "waves",
    "ckpt_bytes",        "time_per_wave_s", "recovery_s",
};

const char *ft_xc_metric_name(enum ft_xc_metric_id id) {
  return id < FT_XC_NMETRICS ? names[id] : "?";
}

/* The value after `"key":` at the object's top level (the summary is
 * flat: a key never appears inside a string value of another member with
 * its quotes and colon, which the runtime does not write), or NULL. */
static const char *value_of(const char *json, const char *key) {
  size_t n = strlen(key);
  for (const char *p = strchr(json, '"'); p; p = strchr(p + 1, '"'))
    if (strncmp(p + 1, key, n) == 0 && p[n + 1] == '"' && p[n + 2] == ':')
      return p + n + 3;
  return NULL;
}

int ft_xc_json_number(const char *json, const char *key, double *out) {
  const char *v = value_of(json, key);
  char *end;
  if (!v || !strchr("-0123456789", *v))
    return -1;
  double x = strtod(v, &end);
  if (end == v || !strchr(",}", *end))
    return -1;
  *out = x;
  return 0;
}

void ft_xc_json_string(const char *json, const char *key, char *out,
                       size_t len) {
  const char *v = value_of(json, key);
  const char *end = v && *v == '"' ? strchr(v + 1, '"') : NULL;
  if (!end)
    snprintf(out, len, "?");
  else
    snprintf(out, len, "%.*s", (int)(end - v - 1), v + 1);
}

int ft_xc_metric_of(const char *json, enum ft_xc_metric_id id, double *out) {
  double t, w;
  if (id != FT_XC_WAVE_TIME)
    return ft_xc_json_number(json, ft_xc_metric_name(id), out);
  if (ft_xc_json_number(json, "completion_time_s", &t) ||
      ft_xc_json_number(json, "waves", &w) || w <= 0)
    return -1;
  *out = t / w;
  return 0;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void ft_xc_summarize(const struct ft_xc_samples *s, double *median, double *min,
                     double *max) {
  double v[FT_XC_MAX_RUNS];
  size_t n = s->n < FT_XC_MAX_RUNS ? s->n : FT_XC_MAX_RUNS;
  memcpy(v, s->x, n * sizeof v[0]);
  qsort(v, n, sizeof v[0], by_value);
  *min = n ? v[0] : NAN;
  *max = n ? v[n - 1] : NAN;
  *median = !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double ft_xc_error(double simulated, double real) {
  if (real == 0)
    return simulated == 0 ? 0 : NAN;
  return (simulated - real) / real;
}
