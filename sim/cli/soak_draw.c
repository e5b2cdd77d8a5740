/* Draws of `ftsim soak` (see soak_draw.h). */
#include "soak_draw.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ft_protocol.h"

/* Rank counts and short argument sets, measured on gige, myrinet and
 * grid5000: every one completes in 0.05 to 0.3 s of wall time without
 * failures. bt needs a square rank count. */
static const struct ft_soak_app apps[] = {
    {"bt", {1, 4, 9}, 3, {"--class S --iters 5", "--class S --iters 3"}, 2},
    {"cg",
     {2, 3, 4, 5},
     4,
     {"--size 500 --iters 60 --tol 0", "", "--size 200 --iters 120 --tol 0"},
     3},
    {"fring", {2, 3, 4}, 3, {""}, 1},
    {"lu",
     {2, 4},
     2,
     {"--class S --iters 5", "--class W --iters 3", "--class S --iters 20"},
     3},
    {"mg", {2, 4, 8}, 3, {"--size 8 --iters 4", ""}, 2},
    {"pingpong",
     {2},
     1,
     {"--sizes 1:64k --iters 5", "--sizes 1:4k --iters 10 --any-source"},
     2},
    {"ring",
     {2, 3, 4, 6},
     4,
     {"--iters 50", "--iters 100 --size 1024", "--iters 30 --chunks 8"},
     3},
};
#define NAPPS (sizeof apps / sizeof *apps)

static const char *const platforms[] = {"gige", "myrinet", "grid5000"};

static const char *const kind_names[FT_SOAK_KINDS] = {
    "uniform", "end",    "after_end", "burst", "detection", "restart",
    "wave",    "replay", "mtbf",      "rank0", "last"};

/* The seconds within which a burst's failures fall (issue 13: "bursts of
 * failures within 1 ms"). */
#define BURST_S 0.001

const struct ft_soak_app *ft_soak_apps(size_t *n) {
  *n = NAPPS;
  return apps;
}

const struct ft_soak_app *ft_soak_app_find(const char *name) {
  for (size_t i = 0; i < NAPPS; i++)
    if (strcmp(apps[i].name, name) == 0)
      return &apps[i];
  return NULL;
}

const char *ft_soak_kind_name(enum ft_soak_kind kind) {
  return kind >= 0 && kind < FT_SOAK_KINDS ? kind_names[kind] : "?";
}

/* ---- the generator: splitmix64, one stream per purpose */

struct rng {
  uint64_t s;
};

static uint64_t next(struct rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static struct rng stream(uint64_t seed, uint64_t purpose) {
  struct rng r = {seed ^ (purpose * 0xd1b54a32d192ed03ULL)};
  next(&r);
  return r;
}

/* Uniform in [0, 1). */
static double unit(struct rng *r) {
  return (double)(next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [lo, hi). */
static double within(struct rng *r, double lo, double hi) {
  return lo + (hi - lo) * unit(r);
}

/* Uniform integer in [0, n). */
static int below(struct rng *r, int n) { return (int)(next(r) % (uint64_t)n); }

/* True with probability p. */
static int chance(struct rng *r, double p) { return unit(r) < p; }

/* ---- configuration */

static double draw_period_frac(struct rng *r, enum ft_soak_kind kind) {
  static const double fracs[] = {0.1, 0.2, 0.33, 0.5};
  if (kind != FT_SOAK_WAVE && chance(r, 0.125))
    return 0;
  return fracs[below(r, 4)];
}

static double draw_image_mb(struct rng *r, enum ft_soak_kind kind) {
  static const double mbs[] = {1, 4, 16};
  if (kind != FT_SOAK_WAVE && chance(r, 0.5))
    return 0;
  return mbs[below(r, 3)];
}

static int logs_events(const char *protocol) {
  const struct ft_protocol_ops *p = ft_protocol_find(protocol);
  return p && p->family == FT_FAMILY_MESSAGE_LOGGING;
}

void ft_soak_draw_config(uint64_t seed, const char *const *protocols,
                         size_t nprotocols,
                         const struct ft_soak_app *const *list, size_t napps,
                         struct ft_soak_config *out) {
  struct rng r = stream(seed, 1);
  memset(out, 0, sizeof *out);
  out->seed = seed;
  out->protocol = protocols[seed % nprotocols];
  out->app = list[below(&r, (int)napps)];
  out->np = out->app->nps[below(&r, out->app->nnp)];
  out->args = out->app->args[below(&r, out->app->nargs)];
  out->platform = platforms[below(&r, 3)];
  out->kind = (enum ft_soak_kind)below(&r, FT_SOAK_KINDS);
  out->period_frac = draw_period_frac(&r, out->kind);
  out->image_mb = draw_image_mb(&r, out->kind);
  if (chance(&r, 0.25))
    out->service_ranks = 2;
  if (out->service_ranks == 2 && logs_events(out->protocol) && chance(&r, 0.5))
    out->event_loggers = 2;
}

void ft_soak_config_key(const struct ft_soak_config *c, int reference,
                        char *key, size_t len) {
  int n = snprintf(key, len, "%s|%d|%s|%s", c->app->name, c->np, c->args,
                   c->platform);
  if (reference || n < 0 || (size_t)n >= len)
    return;
  snprintf(key + n, len - (size_t)n, "|%s|%g|%g|%d|%d", c->protocol,
           c->period_frac, c->image_mb, c->service_ranks, c->event_loggers);
}

/* ---- scenario */

struct text {
  char *buf;
  size_t len, used;
  int fails;
};

__attribute__((format(printf, 2, 3))) static void put(struct text *t,
                                                      const char *fmt, ...) {
  if (t->used >= t->len)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
  va_end(ap);
  if (n > 0)
    t->used += (size_t)n;
}

static void fail(struct text *t, int rank, double at) {
  put(t, "fail %d at %.9f\n", rank, at < 0 ? 0 : at);
  t->fails++;
}

/* Rank 0 a third of the time, the last rank a third, else any. */
static int draw_rank(struct rng *r, int np) {
  switch (below(r, 3)) {
  case 0:
    return 0;
  case 1:
    return np - 1;
  default:
    return below(r, np);
  }
}

/* Detection latency and restart cost: 0 or up to 5% of the run; forced
 * above 0 when the scenario aims inside them. */
static void latencies(struct rng *r, enum ft_soak_kind kind, double t,
                      double *det, double *rst) {
  *det = chance(r, 0.4) ? 0 : t * within(r, 0.001, 0.05);
  *rst = chance(r, 0.4) ? 0 : t * within(r, 0.001, 0.05);
  if (kind == FT_SOAK_DETECTION && *det == 0)
    *det = t * within(r, 0.005, 0.05);
  if ((kind == FT_SOAK_RESTART || kind == FT_SOAK_REPLAY) && *rst == 0)
    *rst = t * within(r, 0.005, 0.05);
}

/* Exponential MTBF, mean log-uniform in [T/50, 10 T]; bounded by `until`
 * (3/8), by max_failures (3/8), both (1/8) or neither (1/8: the run may
 * make no progress, the documented outcome). */
static void mtbf(struct text *tx, struct rng *r, double t) {
  double mean = t * pow(10, within(r, log10(1.0 / 50), 1));
  put(tx, "seed %llu\nexponential %.9f\n", (unsigned long long)next(r), mean);
  int bound = below(r, 8);
  if (bound < 3 || bound == 6)
    put(tx, "until %.9f\n", t * within(r, 1, 3));
  if ((bound >= 3 && bound < 6) || bound == 6)
    put(tx, "max_failures %d\n", (int)pow(10, within(r, 0, 3)));
}

static void kind_failures(struct text *tx, struct rng *r,
                          const struct ft_soak_config *c, double t,
                          double period, double det, double rst) {
  int np = c->np, n;
  double t0;
  switch (c->kind) {
  case FT_SOAK_UNIFORM:
    for (n = 1 + below(r, 4); n > 0; n--)
      fail(tx, draw_rank(r, np), within(r, 0, t));
    break;
  case FT_SOAK_END:
    fail(tx, draw_rank(r, np), within(r, 0.95 * t, t));
    if (chance(r, 0.5))
      fail(tx, draw_rank(r, np), within(r, 0, t));
    break;
  case FT_SOAK_AFTER_END:
    fail(tx, draw_rank(r, np), within(r, t, 1.5 * t));
    if (chance(r, 0.5))
      fail(tx, draw_rank(r, np), within(r, 0.95 * t, t));
    break;
  case FT_SOAK_BURST:
    t0 = within(r, 0, t);
    for (n = 2 + below(r, 5); n > 0; n--)
      fail(tx, draw_rank(r, np), t0 + within(r, 0, BURST_S));
    break;
  case FT_SOAK_DETECTION:
    t0 = within(r, 0, 0.9 * t);
    fail(tx, draw_rank(r, np), t0);
    fail(tx, draw_rank(r, np), t0 + within(r, 0, det));
    break;
  case FT_SOAK_RESTART:
    t0 = within(r, 0, 0.9 * t);
    fail(tx, draw_rank(r, np), t0);
    fail(tx, draw_rank(r, np), t0 + det + within(r, 0, rst));
    break;
  case FT_SOAK_WAVE: {
    int waves = period > 0 ? (int)(t / period) : 0;
    for (n = 1 + below(r, 2); n > 0; n--) {
      double start = period * (1 + below(r, waves > 0 ? waves : 1));
      fail(tx, draw_rank(r, np), start + within(r, 0, fmin(BURST_S, period)));
    }
    break;
  }
  case FT_SOAK_REPLAY: {
    t0 = within(r, 0, 0.8 * t);
    int rank = draw_rank(r, np);
    fail(tx, rank, t0);
    fail(tx, chance(r, 0.5) ? rank : draw_rank(r, np),
         t0 + det + rst + within(r, 0, 0.1 * t));
    break;
  }
  case FT_SOAK_MTBF:
    mtbf(tx, r, t);
    break;
  case FT_SOAK_RANK0:
  case FT_SOAK_LAST:
    for (n = 1 + below(r, 3); n > 0; n--)
      fail(tx, c->kind == FT_SOAK_RANK0 ? 0 : np - 1, within(r, 0, t));
    break;
  default:
    break;
  }
}

int ft_soak_draw_scenario(const struct ft_soak_config *c, double t,
                          double period, char *text, size_t len) {
  struct rng r = stream(c->seed, 2);
  struct text tx = {text, len, 0, 0};
  if (len)
    text[0] = '\0';
  double det, rst;
  latencies(&r, c->kind, t, &det, &rst);
  put(&tx, "# ftsim soak, seed %llu: %s (T %.9f s, period %.9f s)\n",
      (unsigned long long)c->seed, ft_soak_kind_name(c->kind), t, period);
  put(&tx, "detection %.9f\nrestart %.9f\n", det, rst);
  kind_failures(&tx, &r, c, t, period, det, rst);
  return tx.fails;
}
