/* Aggregation of a sweep's rows (see analyze.h). */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"
#include "strv.h"

/* Which parameter columns a key is made of. */
enum keyset { K_GROUP, K_FAMILY, K_SOURCE, K_PANEL, K_BASE };

static bool in_key(enum keyset k, int c) {
  switch (k) {
  case K_GROUP:
    return c != FT_COL_SEED;
  case K_FAMILY:
    return c != FT_COL_SEED && c != FT_COL_PERIOD && c != FT_COL_MTBF &&
           c != FT_COL_TRACE;
  case K_SOURCE:
    return c != FT_COL_SEED && c != FT_COL_PERIOD;
  case K_PANEL:
    return c != FT_COL_SEED && c != FT_COL_PERIOD && c != FT_COL_PROTOCOL;
  default:
    return c == FT_COL_PLATFORM || c == FT_COL_APP || c == FT_COL_RANKS ||
           c == FT_COL_APP_ARGS;
  }
}

static bool same(const struct ft_row *a, const struct ft_row *b,
                 enum keyset k) {
  for (int c = 0; c < FT_COL_NPARAMS; c++)
    if (in_key(k, c) && strcmp(a->cell[c], b->cell[c]) != 0)
      return false;
  return true;
}

static double num(const char *s) { return *s ? strtod(s, NULL) : NAN; }

/* ---- grouping */

static struct ft_group *find_group(struct ft_analysis *a,
                                   const struct ft_row *row) {
  for (size_t i = 0; i < a->count; i++)
    if (same(a->groups[i].rep, row, K_GROUP))
      return &a->groups[i];
  a->groups = ft_xrealloc(a->groups, (a->count + 1) * sizeof *a->groups);
  struct ft_group *g = &a->groups[a->count++];
  memset(g, 0, sizeof *g);
  g->rep = row;
  return g;
}

static void add_row(struct ft_group *g, size_t i) {
  g->rows = ft_xrealloc(g->rows, (g->nrows + 1) * sizeof *g->rows);
  g->rows[g->nrows++] = i;
}

static bool row_ok(const struct ft_row *row) {
  return strcmp(row->cell[FT_COL_OUTCOME], "ok") == 0 &&
         row->cell[FT_COL_COMPLETION][0];
}

/* Statistics of one group's ok rows. */
static void summarise(struct ft_group *g, const struct ft_results *r) {
  double *t = ft_xrealloc(NULL, (g->nrows + 1) * sizeof *t);
  double sum[4] = {0, 0, 0, 0};
  static const int cols[4] = {FT_COL_WAVES, FT_COL_FAILURES, FT_COL_LOST_WORK,
                              FT_COL_RECOVERY};
  for (size_t i = 0; i < g->nrows; i++) {
    const struct ft_row *row = &r->rows[g->rows[i]];
    g->nstopped += strcmp(row->cell[FT_COL_OUTCOME], "no_progress") == 0;
    if (!row_ok(row))
      continue;
    t[g->nok++] = num(row->cell[FT_COL_COMPLETION]);
    for (int k = 0; k < 4; k++)
      sum[k] += *row->cell[cols[k]] ? num(row->cell[cols[k]]) : 0;
  }
  g->time = ft_stats_of(t, g->nok);
  double n = g->nok ? (double)g->nok : NAN;
  g->waves = sum[0] / n, g->failures = sum[1] / n;
  g->lost = sum[2] / n, g->recovery = sum[3] / n;
  g->period = num(g->rep->cell[FT_COL_PERIOD]);
  const char *m = g->rep->cell[FT_COL_MTBF];
  g->mtbf = *m && strcmp(m, "none") ? num(m) : NAN;
  g->failure_free = !g->rep->cell[FT_COL_TRACE][0] && isnan(g->mtbf);
  g->ff = g->eff = g->cost = g->best_period = g->best_time = NAN;
  g->eff_lo = g->eff_hi = NAN;
  g->young = g->daly = NAN;
  free(t);
}

/* ---- derived figures */

static bool recovers(const char *protocol) {
  const struct ft_protocol_ops *ops = ft_protocol_find(protocol);
  return ops && ft_protocol_recovers(ops);
}

/* T_ff of g's (platform, app, ranks, app_args), or NAN. */
static double failure_free_time(const struct ft_analysis *a,
                                const struct ft_group *g) {
  double best = NAN;
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (!h->nok || !same(h->rep, g->rep, K_BASE) || !h->failure_free)
      continue;
    if (!recovers(h->rep->cell[FT_COL_PROTOCOL]))
      return h->time.mean;
    if (isnan(best) || h->time.mean < best)
      best = h->time.mean;
  }
  return best;
}

/* C of g's family (its rows' ff must be set), or NAN. */
static double ckpt_cost(const struct ft_analysis *a, const struct ft_group *g,
                        const struct ft_results *r) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (!same(h->rep, g->rep, K_FAMILY) || isnan(h->ff))
      continue;
    for (size_t k = 0; k < h->nrows; k++) {
      const struct ft_row *row = &r->rows[h->rows[k]];
      double w = num(row->cell[FT_COL_WAVES]);
      if (!row_ok(row) || !(w > 0))
        continue;
      double c =
          (num(row->cell[FT_COL_COMPLETION]) - h->ff -
           num(row->cell[FT_COL_LOST_WORK]) - num(row->cell[FT_COL_RECOVERY])) /
          w;
      sum += c > 0 ? c : 0;
      n++;
    }
  }
  return n ? sum / (double)n : NAN;
}

static void best_period(const struct ft_analysis *a, struct ft_group *g) {
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (h->nok && same(h->rep, g->rep, K_SOURCE) &&
        (isnan(g->best_time) || h->time.mean < g->best_time)) {
      g->best_time = h->time.mean;
      g->best_period = h->period;
    }
  }
}

static void derive(struct ft_analysis *a, const struct ft_results *r) {
  for (size_t i = 0; i < a->count; i++) {
    struct ft_group *g = &a->groups[i];
    g->ff = failure_free_time(a, g);
    g->eff = g->nok ? g->ff / g->time.mean : NAN;
    ft_ratio_interval(g->ff, g->time.mean, g->time.ci95, &g->eff_lo,
                      &g->eff_hi);
  }
  for (size_t i = 0; i < a->count; i++) {
    struct ft_group *g = &a->groups[i];
    if (!recovers(g->rep->cell[FT_COL_PROTOCOL]))
      continue;
    g->cost = ckpt_cost(a, g, r);
    best_period(a, g);
    g->young = ft_young_period(g->cost, g->mtbf);
    g->daly = ft_daly_period(g->cost, g->mtbf);
  }
}

/* ---- order */

static int cmp_num(const char *a, const char *b) {
  double x = num(a), y = num(b);
  bool nx = isnan(x), ny = isnan(y);
  if (nx || ny)
    return nx && ny ? strcmp(a, b) : nx ? -1 : 1;
  return x < y ? -1 : x > y;
}

static int cmp_groups(const void *pa, const void *pb) {
  static const int order[] = {
      FT_COL_PROTOCOL, FT_COL_PLATFORM,  FT_COL_APP,     FT_COL_RANKS,
      FT_COL_SERVERS,  FT_COL_TRACE,     FT_COL_MTBF,    FT_COL_PERIOD,
      FT_COL_IMAGE_MB, FT_COL_DETECTION, FT_COL_RESTART, FT_COL_APP_ARGS};
  const struct ft_row *a = ((const struct ft_group *)pa)->rep;
  const struct ft_row *b = ((const struct ft_group *)pb)->rep;
  for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
    int c = order[i];
    bool text = c == FT_COL_PROTOCOL || c == FT_COL_PLATFORM ||
                c == FT_COL_APP || c == FT_COL_TRACE || c == FT_COL_APP_ARGS;
    int d =
        text ? strcmp(a->cell[c], b->cell[c]) : cmp_num(a->cell[c], b->cell[c]);
    if (d)
      return d;
  }
  return 0;
}

void ft_analysis_build(const struct ft_results *r, struct ft_analysis *a) {
  memset(a, 0, sizeof *a);
  for (size_t i = 0; i < r->count; i++)
    add_row(find_group(a, &r->rows[i]), i);
  for (size_t i = 0; i < a->count; i++)
    summarise(&a->groups[i], r);
  derive(a, r);
  if (a->count > 1) /* qsort's base may not be NULL, even for 0 items */
    qsort(a->groups, a->count, sizeof *a->groups, cmp_groups);
}

void ft_analysis_free(struct ft_analysis *a) {
  for (size_t i = 0; i < a->count; i++)
    free(a->groups[i].rows);
  free(a->groups);
  memset(a, 0, sizeof *a);
}

/* ---- panels: which period, which protocol */

bool ft_analysis_same_panel(const struct ft_group *g,
                            const struct ft_group *h) {
  return same(g->rep, h->rep, K_PANEL);
}

const struct ft_group *ft_analysis_best_of(const struct ft_analysis *a,
                                           const struct ft_group *g) {
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (h->nok && same(h->rep, g->rep, K_SOURCE) &&
        h->period == g->best_period && h->time.mean == g->best_time)
      return h;
  }
  return NULL;
}

const struct ft_group *ft_analysis_panel_best(const struct ft_analysis *a,
                                              const struct ft_group *g) {
  const struct ft_group *best = NULL;
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (h->nok && same(h->rep, g->rep, K_PANEL) &&
        (!best || h->time.mean < best->time.mean))
      best = h;
  }
  return best;
}

static int by_mean(const void *pa, const void *pb) {
  double x = (*(const struct ft_group *const *)pa)->time.mean;
  double y = (*(const struct ft_group *const *)pb)->time.mean;
  return x < y ? -1 : x > y;
}

int ft_analysis_ties(const struct ft_analysis *a, const struct ft_group *g,
                     const struct ft_group **out, size_t max) {
  if (g->nok < 2)
    return -1;
  const struct ft_group **all = ft_xrealloc(NULL, (a->count + 1) * sizeof *all);
  size_t n = 0;
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *h = &a->groups[i];
    if (h != g && h->nok && same(h->rep, g->rep, K_PANEL) &&
        ft_intervals_overlap(g->time.mean, g->time.ci95, h->time.mean,
                             h->time.ci95))
      all[n++] = h;
  }
  if (n > 1)
    qsort(all, n, sizeof *all, by_mean);
  for (size_t i = 0; i < n && i < max; i++)
    out[i] = all[i];
  free(all);
  return (int)n;
}

void ft_analysis_ties_text(const struct ft_analysis *a,
                           const struct ft_group *g, char *buf, size_t len) {
  const struct ft_group *t[64];
  int n = ft_analysis_ties(a, g, t, sizeof t / sizeof *t);
  snprintf(buf, len, "%s", n < 0 ? "n<2" : "-");
  size_t used = 0;
  for (int i = 0; i < n && i < 64 && used < len; i++) {
    const char *p = t[i]->rep->cell[FT_COL_PROTOCOL];
    bool mine = strcmp(p, g->rep->cell[FT_COL_PROTOCOL]) == 0;
    int w = snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "",
                     mine ? "" : p, mine ? "" : "@",
                     t[i]->rep->cell[FT_COL_PERIOD]);
    used += w > 0 ? (size_t)w : 0;
  }
}
