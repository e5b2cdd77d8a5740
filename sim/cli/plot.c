/* The figures of `ftsim plot` (see plot.h): which points go in which
 * figure. */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"
#include "strv.h"

enum kind { TIME_PERIOD, TIME_WAVES, TIME_RANKS, TIME_SERVERS, EFF_MTBF };

struct kind_spec {
  const char *name, *xlabel, *ylabel, *axis; /* axis: for skip notes */
  int logx;
  /* Parameter columns that identify a figure of this kind. */
  int key[8];
};

#define END -1
static const struct kind_spec kinds[] = {
    [TIME_PERIOD] = {"time_vs_period",
                     "checkpoint period (s)",
                     "completion time (s)",
                     "period",
                     1,
                     {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS, FT_COL_SERVERS,
                      FT_COL_MTBF, FT_COL_TRACE, END}},
    [TIME_WAVES] = {"time_vs_waves",
                    "checkpoint waves committed",
                    "completion time (s)",
                    "waves",
                    0,
                    {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS, END}},
    [TIME_RANKS] = {"time_vs_ranks",
                    "application ranks",
                    "best completion time over periods and servers (s)",
                    "ranks",
                    1,
                    {FT_COL_PLATFORM, FT_COL_APP, FT_COL_MTBF, FT_COL_TRACE,
                     END}},
    [TIME_SERVERS] = {"time_vs_servers",
                      "checkpoint servers",
                      "best completion time over periods (s)",
                      "servers",
                      0,
                      {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS, FT_COL_MTBF,
                       FT_COL_TRACE, END}},
    [EFF_MTBF] = {"eff_vs_mtbf",
                  "system MTBF (s)",
                  "efficiency (failure-free time / completion time)",
                  "MTBF",
                  1,
                  {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS, FT_COL_SERVERS,
                   END}},
};
#define NKINDS (sizeof kinds / sizeof *kinds)

static bool recovers(const char *protocol) {
  const struct ft_protocol_ops *ops = ft_protocol_find(protocol);
  return ops && ft_protocol_recovers(ops);
}

/* ---- figure identity and titles */

static void figure_id(enum kind k, char *const *cell, char *out, size_t len) {
  size_t used = (size_t)snprintf(out, len, "%s", kinds[k].name);
  for (const int *c = kinds[k].key; *c != END && used < len; c++) {
    const char *v = cell[*c];
    if (!v[0])
      continue;
    if (*c == FT_COL_TRACE && strrchr(v, '/'))
      v = strrchr(v, '/') + 1;
    int n = snprintf(out + used, len - used, "-%s%s",
                     *c == FT_COL_SERVERS ? "s"
                     : *c == FT_COL_MTBF  ? "mtbf"
                                          : "",
                     v);
    used += n > 0 ? (size_t)n : 0;
  }
  for (char *p = out; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789.-_",
                *p))
      *p = '_';
}

static void figure_title(enum kind k, char *const *cell, char *out,
                         size_t len) {
  int n =
      snprintf(out, len, "%s on %s", cell[FT_COL_APP], cell[FT_COL_PLATFORM]);
  size_t used = n > 0 ? (size_t)n : 0;
  if (k != TIME_RANKS && used < len)
    used += (size_t)snprintf(out + used, len - used, ", %s ranks",
                             cell[FT_COL_RANKS]);
  if ((k == TIME_PERIOD || k == EFF_MTBF) && used < len)
    used += (size_t)snprintf(out + used, len - used, ", %s server(s)",
                             cell[FT_COL_SERVERS]);
  if (k != TIME_WAVES && k != EFF_MTBF && used < len) {
    const char *t = cell[FT_COL_TRACE];
    if (t[0])
      snprintf(out + used, len - used, ", trace %s",
               strrchr(t, '/') ? strrchr(t, '/') + 1 : t);
    else if (strcmp(cell[FT_COL_MTBF], "none") == 0)
      snprintf(out + used, len - used, ", no failures");
    else
      snprintf(out + used, len - used, ", MTBF %s s", cell[FT_COL_MTBF]);
  }
}

/* ---- collecting points */

static struct ft_plot_figure *figure(struct ft_plot_set *set, enum kind k,
                                     const struct ft_row *rep) {
  char *const *cell = rep->cell;
  char id[256];
  figure_id(k, cell, id, sizeof id);
  for (size_t i = 0; i < set->count; i++)
    if (strcmp(set->figs[i].id, id) == 0)
      return &set->figs[i];
  set->figs = ft_xrealloc(set->figs, (set->count + 1) * sizeof *set->figs);
  struct ft_plot_figure *f = &set->figs[set->count++];
  memset(f, 0, sizeof *f);
  snprintf(f->id, sizeof f->id, "%s", id);
  figure_title(k, cell, f->title, sizeof f->title);
  f->xlabel = kinds[k].xlabel;
  f->ylabel = kinds[k].ylabel;
  f->logx = kinds[k].logx;
  f->rep = rep;
  return f;
}

static struct ft_plot_series *series(struct ft_plot_figure *f,
                                     const char *name) {
  for (size_t i = 0; i < f->nseries; i++)
    if (strcmp(f->series[i].name, name) == 0)
      return &f->series[i];
  if (f->nseries == FT_PLOT_MAX_SERIES)
    return NULL;
  struct ft_plot_series *s = &f->series[f->nseries++];
  snprintf(s->name, sizeof s->name, "%s", name);
  return s;
}

/* Adds `p`; with `best`, a point at the same x is replaced when p.rank
 * (the completion time it stands for) is smaller. */
static void add_point(struct ft_plot_series *s, struct ft_plot_point p,
                      bool best) {
  for (size_t i = 0; best && i < s->n; i++)
    if (s->pts[i].x == p.x) {
      if (p.rank < s->pts[i].rank)
        s->pts[i] = p;
      return;
    }
  s->pts = ft_xrealloc(s->pts, (s->n + 1) * sizeof *s->pts);
  s->pts[s->n++] = p;
}

static int cmp_x(const void *a, const void *b) {
  double x = ((const struct ft_plot_point *)a)->x;
  double y = ((const struct ft_plot_point *)b)->x;
  return x < y ? -1 : x > y;
}

/* x of group g on kind k, or NAN when g has no place there. */
static double x_of(enum kind k, const struct ft_group *g) {
  char *const *c = g->rep->cell;
  bool rec = recovers(c[FT_COL_PROTOCOL]);
  switch (k) {
  case TIME_PERIOD:
    return rec && g->period > 0 ? g->period : NAN;
  case TIME_RANKS:
    return strtod(c[FT_COL_RANKS], NULL);
  case TIME_SERVERS:
    return rec ? strtod(c[FT_COL_SERVERS], NULL) : NAN;
  case EFF_MTBF:
    return rec ? g->mtbf : NAN;
  default:
    return NAN;
  }
}

/* The points of the group kinds (all but TIME_WAVES). */
static void from_groups(struct ft_plot_set *set, enum kind k,
                        const struct ft_analysis *a) {
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *g = &a->groups[i];
    double x = x_of(k, g);
    if (!g->nok || isnan(x))
      continue;
    struct ft_plot_figure *f = figure(set, k, g->rep);
    struct ft_plot_series *s = series(f, g->rep->cell[FT_COL_PROTOCOL]);
    if (!s)
      continue;
    double y = k == EFF_MTBF ? g->eff : g->time.mean;
    double err = k == EFF_MTBF ? NAN : g->time.ci95;
    if (isnan(y))
      continue;
    add_point(s, (struct ft_plot_point){x, y, err, g->time.mean},
              k != TIME_PERIOD);
  }
}

static void from_rows(struct ft_plot_set *set, const struct ft_results *r) {
  for (size_t i = 0; i < r->count; i++) {
    char *const *c = r->rows[i].cell;
    if (strcmp(c[FT_COL_OUTCOME], "ok") || !c[FT_COL_WAVES][0])
      continue;
    struct ft_plot_figure *f = figure(set, TIME_WAVES, &r->rows[i]);
    struct ft_plot_series *s = series(f, c[FT_COL_PROTOCOL]);
    double t = strtod(c[FT_COL_COMPLETION], NULL);
    if (s)
      add_point(
          s, (struct ft_plot_point){strtod(c[FT_COL_WAVES], NULL), t, NAN, t},
          false);
  }
}

/* The failure-free group of a protocol that does not recover with the
 * figure's platform, app, ranks and app_args, or NULL. */
static const struct ft_group *baseline_of(const struct ft_analysis *a,
                                          const struct ft_row *rep) {
  static const int cols[] = {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS,
                             FT_COL_APP_ARGS};
  for (size_t k = 0; k < a->count; k++) {
    const struct ft_group *g = &a->groups[k];
    bool same = g->nok && !recovers(g->rep->cell[FT_COL_PROTOCOL]);
    for (size_t c = 0; same && c < sizeof cols / sizeof *cols; c++)
      same = strcmp(g->rep->cell[cols[c]], rep->cell[cols[c]]) == 0;
    if (same)
      return g;
  }
  return NULL;
}

/* Protocol none, failure-free, as a flat line across each period figure. */
static void baselines(struct ft_plot_set *set, const struct ft_analysis *a) {
  for (size_t i = 0; i < set->count; i++) {
    struct ft_plot_figure *f = &set->figs[i];
    const struct ft_group *g = baseline_of(a, f->rep);
    if (strncmp(f->id, "time_vs_period", 14) != 0 || !f->nseries || !g)
      continue;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (size_t k = 0; k < f->series[0].n; k++) {
      lo = fmin(lo, f->series[0].pts[k].x);
      hi = fmax(hi, f->series[0].pts[k].x);
    }
    struct ft_plot_series *s = series(f, g->rep->cell[FT_COL_PROTOCOL]);
    if (!s || s->n)
      continue;
    add_point(s, (struct ft_plot_point){lo, g->time.mean, NAN, 0}, false);
    add_point(s, (struct ft_plot_point){hi, g->time.mean, NAN, 0}, false);
  }
}

/* Drops the figures of kind k when its axis has < 2 values in the CSV. */
static void skip_flat(struct ft_plot_set *set, enum kind k) {
  double first = NAN;
  bool varied = false;
  size_t n = strlen(kinds[k].name);
  for (size_t i = 0; i < set->count; i++)
    if (strncmp(set->figs[i].id, kinds[k].name, n) == 0)
      for (size_t s = 0; s < set->figs[i].nseries; s++)
        for (size_t p = 0; p < set->figs[i].series[s].n; p++) {
          double x = set->figs[i].series[s].pts[p].x;
          varied = varied || (!isnan(first) && x != first);
          first = isnan(first) ? x : first;
        }
  if (varied)
    return;
  size_t used = strlen(set->notes);
  snprintf(set->notes + used, sizeof set->notes - used,
           "%s skipped: the CSV has %s one value of %s.\n", kinds[k].name,
           isnan(first) ? "not even" : "only", kinds[k].axis);
  size_t keep = 0;
  for (size_t i = 0; i < set->count; i++) {
    if (strncmp(set->figs[i].id, kinds[k].name, n) == 0) {
      for (size_t s = 0; s < set->figs[i].nseries; s++)
        free(set->figs[i].series[s].pts);
      continue;
    }
    set->figs[keep++] = set->figs[i];
  }
  set->count = keep;
}

void ft_plot_build(const struct ft_analysis *a, const struct ft_results *r,
                   struct ft_plot_set *out) {
  memset(out, 0, sizeof *out);
  for (size_t k = 0; k < NKINDS; k++) {
    if (k == TIME_WAVES)
      from_rows(out, r);
    else
      from_groups(out, (enum kind)k, a);
    skip_flat(out, (enum kind)k);
  }
  baselines(out, a);
  for (size_t i = 0; i < out->count; i++)
    for (size_t s = 0; s < out->figs[i].nseries; s++)
      if (out->figs[i].series[s].n > 1) /* base may be NULL for 0 */
        qsort(out->figs[i].series[s].pts, out->figs[i].series[s].n,
              sizeof(struct ft_plot_point), cmp_x);
}

void ft_plot_free(struct ft_plot_set *set) {
  for (size_t i = 0; i < set->count; i++)
    for (size_t s = 0; s < set->figs[i].nseries; s++)
      free(set->figs[i].series[s].pts);
  free(set->figs);
  memset(set, 0, sizeof *set);
}
