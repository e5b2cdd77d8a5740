/* The points of a sweep (see sweep_points.h). */
#define _POSIX_C_SOURCE 200809L
#include "sweep_points.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"

static int recovers(const char *protocol) {
  const struct ft_protocol_ops *ops = ft_protocol_find(protocol);
  return ops && ft_protocol_recovers(ops);
}

/* Appends a copy of `p`. No two pushes are the same point: axis values
 * are distinct (the parser refuses a repeated one), and a collapsed axis
 * (servers, period, failures and seed for a protocol that does not
 * recover; the seed of a failure-free or trace point) is iterated once. */
static void push(void *ctx, const struct ft_point *p) {
  struct ft_points *out = ctx;
  if (out->count == out->cap) {
    out->cap = out->cap ? 2 * out->cap : 64;
    out->items = ft_xrealloc(out->items, out->cap * sizeof *out->items);
  }
  struct ft_point *q = &out->items[out->count++];
  for (int c = 0; c < FT_COL_NPARAMS; c++)
    q->param[c] = ft_xstrdup(p->param[c]);
}

/* Where the points go. */
struct visitor {
  void (*visit)(void *ctx, const struct ft_point *p);
  void *ctx;
};

/* The values of an axis, or its default when the sweep gives none. */
static size_t values(const struct ft_sweep *s, enum ft_sweep_axis a,
                     const char *def, const char **first, size_t i) {
  if (s->axis[a].count) {
    *first = s->axis[a].items[i < s->axis[a].count ? i : 0];
    return s->axis[a].count;
  }
  *first = def;
  return 1;
}

/* The failure sources: mtbfs then traces, or "none". */
static size_t sources(const struct ft_sweep *s) {
  size_t n = s->axis[FT_AXIS_MTBF].count + s->axis[FT_AXIS_TRACE].count;
  return n ? n : 1;
}

static void set_source(const struct ft_sweep *s, size_t i, struct ft_point *p) {
  size_t nm = s->axis[FT_AXIS_MTBF].count;
  if (nm + s->axis[FT_AXIS_TRACE].count == 0) {
    p->param[FT_COL_MTBF] = "none";
    p->param[FT_COL_TRACE] = "";
  } else if (i < nm) {
    p->param[FT_COL_MTBF] = s->axis[FT_AXIS_MTBF].items[i];
    p->param[FT_COL_TRACE] = "";
  } else {
    p->param[FT_COL_MTBF] = "";
    p->param[FT_COL_TRACE] = s->axis[FT_AXIS_TRACE].items[i - nm];
  }
}

/* Expands the inner axes (servers, period, source, seed) of one
 * (protocol, platform, app, ranks). */
static void expand_inner(const struct ft_sweep *s, struct ft_point *p,
                         const struct visitor *out) {
  const char *v;
  const char *seed0;
  size_t nseed = values(s, FT_AXIS_SEED, FT_SWEEP_DEFAULT_SEED, &seed0, 0);
  if (!recovers(p->param[FT_COL_PROTOCOL])) {
    p->param[FT_COL_SERVERS] = "0";
    p->param[FT_COL_PERIOD] = "0";
    p->param[FT_COL_MTBF] = "none";
    p->param[FT_COL_TRACE] = "";
    p->param[FT_COL_SEED] = (char *)seed0;
    out->visit(out->ctx, p);
    return;
  }
  size_t nsrv = values(s, FT_AXIS_SERVERS, FT_SWEEP_DEFAULT_SERVERS, &v, 0);
  size_t nper = values(s, FT_AXIS_PERIOD, FT_SWEEP_DEFAULT_PERIOD, &v, 0);
  for (size_t a = 0; a < nsrv; a++) {
    values(s, FT_AXIS_SERVERS, FT_SWEEP_DEFAULT_SERVERS, &v, a);
    p->param[FT_COL_SERVERS] = (char *)v;
    for (size_t b = 0; b < nper; b++) {
      values(s, FT_AXIS_PERIOD, FT_SWEEP_DEFAULT_PERIOD, &v, b);
      p->param[FT_COL_PERIOD] = (char *)v;
      for (size_t c = 0; c < sources(s); c++) {
        set_source(s, c, p);
        /* only drawn failures depend on the seed */
        int seeded = ft_point_has_failures(p) && !p->param[FT_COL_TRACE][0];
        for (size_t d = 0; d < (seeded ? nseed : 1); d++) {
          values(s, FT_AXIS_SEED, FT_SWEEP_DEFAULT_SEED, &v, d);
          p->param[FT_COL_SEED] = (char *)v;
          out->visit(out->ctx, p);
        }
      }
    }
  }
}

void ft_points_each(const struct ft_sweep *s,
                    void (*visit)(void *ctx, const struct ft_point *p),
                    void *ctx) {
  const struct visitor out = {visit, ctx};
  struct ft_point p;
  p.param[FT_COL_IMAGE_MB] = (char *)ft_sweep_get(s, FT_SET_IMAGE_MB, "0");
  p.param[FT_COL_DETECTION] = (char *)ft_sweep_get(s, FT_SET_DETECTION, "0");
  p.param[FT_COL_RESTART] = (char *)ft_sweep_get(s, FT_SET_RESTART, "0");
  p.param[FT_COL_APP_ARGS] = (char *)ft_sweep_get(s, FT_SET_APP_ARGS, "");
  const struct ft_strv *ax = s->axis;
  for (size_t a = 0; a < ax[FT_AXIS_PROTOCOL].count; a++)
    for (size_t b = 0; b < ax[FT_AXIS_PLATFORM].count; b++)
      for (size_t c = 0; c < ax[FT_AXIS_APP].count; c++)
        for (size_t d = 0; d < ax[FT_AXIS_RANKS].count; d++) {
          p.param[FT_COL_PROTOCOL] = ax[FT_AXIS_PROTOCOL].items[a];
          p.param[FT_COL_PLATFORM] = ax[FT_AXIS_PLATFORM].items[b];
          p.param[FT_COL_APP] = ax[FT_AXIS_APP].items[c];
          p.param[FT_COL_RANKS] = ax[FT_AXIS_RANKS].items[d];
          expand_inner(s, &p, &out);
        }
}

void ft_points_expand(const struct ft_sweep *s, struct ft_points *out) {
  ft_points_each(s, push, out);
}

void ft_points_free(struct ft_points *p) {
  for (size_t i = 0; i < p->count; i++)
    for (int c = 0; c < FT_COL_NPARAMS; c++)
      free(p->items[i].param[c]);
  free(p->items);
  memset(p, 0, sizeof *p);
}

uint64_t ft_point_hash(const struct ft_point *p) {
  char key[8192];
  ft_results_key(p->param, key, sizeof key);
  uint64_t h = 1469598103934665603u;
  for (const char *c = key; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211u;
  return h;
}

int ft_point_has_failures(const struct ft_point *p) {
  return p->param[FT_COL_TRACE][0] ||
         (p->param[FT_COL_MTBF][0] && strcmp(p->param[FT_COL_MTBF], "none"));
}

double ft_point_cost(const struct ft_point *p) {
  double r = strtod(p->param[FT_COL_RANKS], NULL);
  return r * r * (recovers(p->param[FT_COL_PROTOCOL]) ? 3 : 1) *
         (ft_point_has_failures(p) ? 4 : 1);
}

/* A parameter as a number; `none` (or empty) as +infinity. */
static double number(const char *text) {
  return text[0] && strcmp(text, "none") ? strtod(text, NULL) : HUGE_VAL;
}

int ft_point_cmp_cost(const struct ft_point *a, const struct ft_point *b) {
  double ca = ft_point_cost(a), cb = ft_point_cost(b);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  /* More failures (a shorter MTBF), then more waves (a shorter period). */
  double ma = number(a->param[FT_COL_MTBF]), mb = number(b->param[FT_COL_MTBF]);
  if (ma != mb)
    return ma < mb ? -1 : 1;
  double pa = number(a->param[FT_COL_PERIOD]),
         pb = number(b->param[FT_COL_PERIOD]);
  if (pa != pb)
    return pa < pb ? -1 : 1;
  return 0;
}

/* Appends "name value\n" to out when the setting is given. */
static size_t line(char *out, size_t len, size_t used, const char *name,
                   const char *value) {
  if (!value || used >= len)
    return used;
  int n = snprintf(out + used, len - used, "%s %s\n", name, value);
  return n < 0 ? used : used + (size_t)n;
}

void ft_point_scenario(const struct ft_sweep *s, const struct ft_point *p,
                       char *out, size_t len) {
  size_t u = 0;
  out[0] = '\0';
  u = line(out, len, u, "# generated by ftsim sweep from", s->name);
  u = line(out, len, u, "seed", p->param[FT_COL_SEED]);
  u = line(out, len, u, "detection", p->param[FT_COL_DETECTION]);
  u = line(out, len, u, "restart", p->param[FT_COL_RESTART]);
  u = line(out, len, u, "max_failures", s->setting[FT_SET_MAX_FAILURES]);
  u = line(out, len, u, "until", s->setting[FT_SET_UNTIL]);
  const char *trace = p->param[FT_COL_TRACE];
  if (!trace[0]) {
    line(out, len, u, "exponential", p->param[FT_COL_MTBF]);
    return;
  }
  char spec[FT_SWEEP_NAME_LEN + 16];
  snprintf(spec, sizeof spec, "%.*s %s", (int)(strchr(trace, ':') - trace),
           trace, strchr(trace, ':') + 1);
  u = line(out, len, u, "trace", spec);
  u = line(out, len, u, "trace_scale", s->setting[FT_SET_TRACE_SCALE]);
  u = line(out, len, u, "trace_shift", s->setting[FT_SET_TRACE_SHIFT]);
  u = line(out, len, u, "trace_system", s->setting[FT_SET_TRACE_SYSTEM]);
  line(out, len, u, "trace_map", s->setting[FT_SET_TRACE_MAP]);
}

void ft_point_run_args(const struct ft_sweep *s, const struct ft_point *p,
                       const char *scenario_file, struct ft_strv *argv) {
  ft_strv_push(argv, "--platform");
  ft_strv_push(argv, p->param[FT_COL_PLATFORM]);
  ft_strv_push(argv, "--np");
  ft_strv_push(argv, p->param[FT_COL_RANKS]);
  const char *app = p->param[FT_COL_APP];
  bool replay = strncmp(app, FT_SWEEP_REPLAY, strlen(FT_SWEEP_REPLAY)) == 0;
  ft_strv_push(argv, replay ? "--replay" : "--app");
  ft_strv_push(argv, replay ? app + strlen(FT_SWEEP_REPLAY) : app);
  ft_strv_push(argv, "--protocol");
  ft_strv_push(argv, p->param[FT_COL_PROTOCOL]);
  if (s->setting[FT_SET_COMPUTE]) {
    ft_strv_push(argv, "--compute");
    ft_strv_push(argv, s->setting[FT_SET_COMPUTE]);
  }
  if (recovers(p->param[FT_COL_PROTOCOL])) {
    ft_strv_push(argv, "--service-ranks");
    ft_strv_push(argv, p->param[FT_COL_SERVERS]);
    ft_strv_push(argv, "--set");
    ft_strv_pushf(argv, "period=%s", p->param[FT_COL_PERIOD]);
    ft_strv_push(argv, "--set");
    ft_strv_pushf(argv, "image_mb=%s", p->param[FT_COL_IMAGE_MB]);
    if (scenario_file) {
      ft_strv_push(argv, "--scenario");
      ft_strv_push(argv, scenario_file);
    }
    if (s->setting[FT_SET_MAX_TIME]) { /* none has no dispatcher to stop */
      ft_strv_push(argv, "--set");
      ft_strv_pushf(argv, "max_time=%s", s->setting[FT_SET_MAX_TIME]);
    }
  }
  for (size_t i = 0; i < s->sets.count; i++) {
    ft_strv_push(argv, "--set");
    ft_strv_push(argv, s->sets.items[i]);
  }
  if (s->app_args.count)
    ft_strv_push(argv, "--");
  for (size_t i = 0; i < s->app_args.count; i++)
    ft_strv_push(argv, s->app_args.items[i]);
}
