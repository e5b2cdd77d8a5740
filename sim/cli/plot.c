/* The figures of `ftsim plot` (see plot.h): which points go in which
 * figure and panel. The numbers (means, intervals, best periods, Young,
 * Daly, ties) are analyze.h's. */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"
#include "strv.h"

struct kind_spec {
  const char *name, *xlabel, *ylabel, *axis; /* axis: for skip notes */
  int logx;
  /* Parameter columns that identify a figure of this kind. */
  int key[8];
};

#define END -1
static const struct kind_spec kinds[FT_PLOT_NKINDS] = {
    [FT_PLOT_TIME_PERIOD] = {"time_vs_period",
                             "checkpoint period (s)",
                             "completion time (s)",
                             "period",
                             1,
                             {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS,
                              FT_COL_SERVERS, END}},
    [FT_PLOT_TIME_WAVES] = {"time_vs_waves",
                            "checkpoint waves committed",
                            "completion time without failures (s)",
                            "waves",
                            0,
                            {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS, END}},
    [FT_PLOT_TIME_RANKS] = {"time_vs_ranks",
                            "application ranks",
                            "best completion time over periods and servers "
                            "(s)",
                            "ranks",
                            1,
                            {FT_COL_PLATFORM, FT_COL_APP, FT_COL_MTBF,
                             FT_COL_TRACE, END}},
    [FT_PLOT_TIME_SERVERS] = {"time_vs_servers",
                              "checkpoint servers",
                              "best completion time over periods (s)",
                              "servers",
                              0,
                              {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS,
                               FT_COL_MTBF, FT_COL_TRACE, END}},
    [FT_PLOT_EFF_MTBF] = {"eff_vs_mtbf",
                          "system MTBF (s)",
                          "efficiency at the best simulated period "
                          "(failure-free time / completion time)",
                          "MTBF",
                          1,
                          {FT_COL_PLATFORM, FT_COL_APP, FT_COL_RANKS,
                           FT_COL_SERVERS, END}},
};

static bool recovers(const char *protocol) {
  const struct ft_protocol_ops *ops = ft_protocol_find(protocol);
  return ops && ft_protocol_recovers(ops);
}

/* False only for a known protocol that does not recover (none): a CSV of
 * another build may name protocols this one lacks. */
static bool may_recover(const char *protocol) {
  const struct ft_protocol_ops *ops = ft_protocol_find(protocol);
  return !ops || ft_protocol_recovers(ops);
}

/* ---- figure identity and titles */

static void figure_id(enum ft_plot_kind k, char *const *cell, char *out,
                      size_t len) {
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

/* "MTBF 0.1 s", "no failures" or "trace NAME" of a row. */
static void source_title(char *const *cell, char *out, size_t len) {
  const char *t = cell[FT_COL_TRACE];
  if (t[0])
    snprintf(out, len, "trace %s", strrchr(t, '/') ? strrchr(t, '/') + 1 : t);
  else if (strcmp(cell[FT_COL_MTBF], "none") == 0 || !cell[FT_COL_MTBF][0])
    snprintf(out, len, "no failures");
  else
    snprintf(out, len, "MTBF %s s", cell[FT_COL_MTBF]);
}

static void figure_title(enum ft_plot_kind k, char *const *cell, char *out,
                         size_t len) {
  int n =
      snprintf(out, len, "%s on %s", cell[FT_COL_APP], cell[FT_COL_PLATFORM]);
  size_t used = n > 0 ? (size_t)n : 0;
  if (k != FT_PLOT_TIME_RANKS && used < len)
    used += (size_t)snprintf(out + used, len - used, ", %s ranks",
                             cell[FT_COL_RANKS]);
  if ((k == FT_PLOT_TIME_PERIOD || k == FT_PLOT_EFF_MTBF) && used < len)
    used += (size_t)snprintf(out + used, len - used, ", %s server(s)",
                             cell[FT_COL_SERVERS]);
  if (k == FT_PLOT_TIME_WAVES && used < len)
    snprintf(out + used, len - used, ", no failures");
  if (k == FT_PLOT_EFF_MTBF && used < len)
    snprintf(out + used, len - used,
             ": efficiency at each protocol's best simulated period "
             "(labelled)");
  if ((k == FT_PLOT_TIME_RANKS || k == FT_PLOT_TIME_SERVERS) && used < len) {
    char src[128];
    source_title(cell, src, sizeof src);
    snprintf(out + used, len - used, ", %s", src);
  }
}

/* ---- collecting points */

static struct ft_plot_figure *
figure(struct ft_plot_set *set, enum ft_plot_kind k, const struct ft_row *rep) {
  char *const *cell = rep->cell;
  char id[256];
  figure_id(k, cell, id, sizeof id);
  for (size_t i = 0; i < set->count; i++)
    if (strcmp(set->figs[i].id, id) == 0)
      return &set->figs[i];
  set->figs = ft_xrealloc(set->figs, (set->count + 1) * sizeof *set->figs);
  struct ft_plot_figure *f = &set->figs[set->count++];
  memset(f, 0, sizeof *f);
  f->kind = k;
  snprintf(f->id, sizeof f->id, "%s", id);
  figure_title(k, cell, f->title, sizeof f->title);
  f->xlabel = kinds[k].xlabel;
  f->ylabel = kinds[k].ylabel;
  f->logx = kinds[k].logx;
  f->rep = rep;
  return f;
}

/* The panel of `rep`'s failure source (time_vs_period), else the only one;
 * NULL past FT_PLOT_MAX_PANELS. */
static struct ft_plot_panel *panel(struct ft_plot_figure *f,
                                   const struct ft_row *rep) {
  char title[128] = "";
  if (f->kind == FT_PLOT_TIME_PERIOD)
    source_title(rep->cell, title, sizeof title);
  for (size_t i = 0; i < f->npanels; i++)
    if (strcmp(f->panels[i].title, title) == 0)
      return &f->panels[i];
  if (f->npanels == FT_PLOT_MAX_PANELS)
    return NULL;
  f->panels = ft_xrealloc(f->panels, (f->npanels + 1) * sizeof *f->panels);
  struct ft_plot_panel *p = &f->panels[f->npanels++];
  memset(p, 0, sizeof *p);
  snprintf(p->title, sizeof p->title, "%s", title);
  return p;
}

static struct ft_plot_series *series(struct ft_plot_panel *p,
                                     const char *name) {
  if (!p)
    return NULL;
  for (size_t i = 0; i < p->nseries; i++)
    if (strcmp(p->series[i].name, name) == 0)
      return &p->series[i];
  if (p->nseries == FT_PLOT_MAX_SERIES)
    return NULL;
  struct ft_plot_series *s = &p->series[p->nseries++];
  snprintf(s->name, sizeof s->name, "%s", name);
  s->best_x = s->best_y = s->young = s->daly = NAN;
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
static double x_of(enum ft_plot_kind k, const struct ft_group *g) {
  char *const *c = g->rep->cell;
  bool rec = recovers(c[FT_COL_PROTOCOL]);
  switch (k) {
  case FT_PLOT_TIME_PERIOD:
    return rec && g->period > 0 ? g->period : NAN;
  case FT_PLOT_TIME_RANKS:
    return strtod(c[FT_COL_RANKS], NULL);
  case FT_PLOT_TIME_SERVERS:
    return rec ? strtod(c[FT_COL_SERVERS], NULL) : NAN;
  case FT_PLOT_EFF_MTBF:
    return rec ? g->mtbf : NAN;
  default:
    return NAN;
  }
}

static struct ft_plot_point group_point(enum ft_plot_kind k,
                                        const struct ft_group *g, double x) {
  struct ft_plot_point p = {x,   g->time.mean, NAN, NAN, g->time.mean,
                            NAN, g->nok};
  if (k == FT_PLOT_EFF_MTBF) {
    p.y = g->eff, p.period = g->period;
    if (isfinite(g->eff_hi))
      p.lo = g->eff_lo, p.hi = g->eff_hi;
  } else if (!isnan(g->time.ci95)) {
    p.lo = g->time.mean - g->time.ci95, p.hi = g->time.mean + g->time.ci95;
  }
  return p;
}

/* The points of the group kinds (all but time_vs_waves). */
static void from_groups(struct ft_plot_set *set, enum ft_plot_kind k,
                        const struct ft_analysis *a) {
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *g = &a->groups[i];
    double x = x_of(k, g);
    if (!g->nok || isnan(x))
      continue;
    struct ft_plot_point pt = group_point(k, g, x);
    if (isnan(pt.y)) /* no efficiency without a failure-free time */
      continue;
    struct ft_plot_figure *f = figure(set, k, g->rep);
    struct ft_plot_panel *p = panel(f, g->rep);
    struct ft_plot_series *s = series(p, g->rep->cell[FT_COL_PROTOCOL]);
    if (!s)
      continue;
    add_point(s, pt, k != FT_PLOT_TIME_PERIOD);
    if (k == FT_PLOT_TIME_PERIOD) {
      s->best_x = g->best_period, s->best_y = g->best_time;
      s->young = g->young, s->daly = g->daly;
      const struct ft_group *b = ft_analysis_panel_best(a, g);
      p->best = b;
    }
  }
}

/* Ok failure-free rows of protocols that may recover: time against
 * waves. */
static void from_rows(struct ft_plot_set *set, const struct ft_results *r) {
  for (size_t i = 0; i < r->count; i++) {
    char *const *c = r->rows[i].cell;
    if (strcmp(c[FT_COL_OUTCOME], "ok") || !c[FT_COL_WAVES][0] ||
        !c[FT_COL_COMPLETION][0] || c[FT_COL_TRACE][0] ||
        strcmp(c[FT_COL_MTBF], "none") || !may_recover(c[FT_COL_PROTOCOL]))
      continue;
    struct ft_plot_figure *f = figure(set, FT_PLOT_TIME_WAVES, &r->rows[i]);
    struct ft_plot_series *s =
        series(panel(f, &r->rows[i]), c[FT_COL_PROTOCOL]);
    double t = strtod(c[FT_COL_COMPLETION], NULL);
    if (s)
      add_point(s,
                (struct ft_plot_point){strtod(c[FT_COL_WAVES], NULL), t, NAN,
                                       NAN, t, NAN, 1},
                false);
  }
}

static void fit_waves(struct ft_plot_figure *f) {
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t k = 0; k < f->panels[p].nseries; k++) {
      struct ft_plot_series *s = &f->panels[p].series[k];
      double *x = ft_xrealloc(NULL, (s->n + 1) * sizeof *x);
      double *y = ft_xrealloc(NULL, (s->n + 1) * sizeof *y);
      for (size_t i = 0; i < s->n; i++)
        x[i] = s->pts[i].x, y[i] = s->pts[i].y;
      s->fit = ft_line_fit(x, y, s->n);
      free(x);
      free(y);
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

/* Protocol none, failure-free, as a flat line across each period panel. */
static void baselines(struct ft_plot_set *set, const struct ft_analysis *a) {
  for (size_t i = 0; i < set->count; i++) {
    struct ft_plot_figure *f = &set->figs[i];
    const struct ft_group *g = baseline_of(a, f->rep);
    if (f->kind != FT_PLOT_TIME_PERIOD || !g)
      continue;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (size_t p = 0; p < f->npanels; p++)
      for (size_t k = 0; k < f->panels[p].nseries; k++)
        for (size_t n = 0; n < f->panels[p].series[k].n; n++) {
          lo = fmin(lo, f->panels[p].series[k].pts[n].x);
          hi = fmax(hi, f->panels[p].series[k].pts[n].x);
        }
    for (size_t p = 0; p < f->npanels && lo <= hi; p++) {
      struct ft_plot_series *s =
          series(&f->panels[p], g->rep->cell[FT_COL_PROTOCOL]);
      if (!s || s->n)
        continue;
      struct ft_plot_point pt = {lo, g->time.mean, NAN, NAN, 0, NAN, g->nok};
      add_point(s, pt, false);
      pt.x = hi;
      add_point(s, pt, false);
    }
  }
}

static void free_figure(struct ft_plot_figure *f) {
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++)
      free(f->panels[p].series[s].pts);
  free(f->panels);
}

/* Drops the figures of kind k when its axis has < 2 values in the CSV. */
static void skip_flat(struct ft_plot_set *set, enum ft_plot_kind k) {
  double first = NAN;
  bool varied = false;
  for (size_t i = 0; i < set->count; i++)
    for (size_t p = 0; set->figs[i].kind == k && p < set->figs[i].npanels; p++)
      for (size_t s = 0; s < set->figs[i].panels[p].nseries; s++)
        for (size_t n = 0; n < set->figs[i].panels[p].series[s].n; n++) {
          double x = set->figs[i].panels[p].series[s].pts[n].x;
          varied = varied || (!isnan(first) && x != first);
          first = isnan(first) ? x : first;
        }
  if (varied)
    return;
  size_t used = strlen(set->notes);
  snprintf(set->notes + used, sizeof set->notes - used,
           "%s skipped: the CSV has %s one value of %s%s.\n", kinds[k].name,
           isnan(first) ? "not even" : "only", kinds[k].axis,
           k == FT_PLOT_TIME_WAVES ? " in failure-free rows" : "");
  size_t keep = 0;
  for (size_t i = 0; i < set->count; i++) {
    if (set->figs[i].kind == k)
      free_figure(&set->figs[i]);
    else
      set->figs[keep++] = set->figs[i];
  }
  set->count = keep;
}

/* Panels: no failures, then the MTBFs ascending, then traces. */
static int cmp_panels(const void *pa, const void *pb) {
  const char *a = ((const struct ft_plot_panel *)pa)->title;
  const char *b = ((const struct ft_plot_panel *)pb)->title;
  int ra = strncmp(a, "no", 2) == 0 ? 0 : strncmp(a, "MTBF ", 5) == 0 ? 1 : 2;
  int rb = strncmp(b, "no", 2) == 0 ? 0 : strncmp(b, "MTBF ", 5) == 0 ? 1 : 2;
  if (ra != rb || ra != 1)
    return ra != rb ? ra - rb : strcmp(a, b);
  double x = strtod(a + 5, NULL), y = strtod(b + 5, NULL);
  return x < y ? -1 : x > y;
}

static void order(struct ft_plot_figure *f) {
  if (f->npanels > 1)
    qsort(f->panels, f->npanels, sizeof *f->panels, cmp_panels);
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++)
      if (f->panels[p].series[s].n > 1) /* base may be NULL for 0 */
        qsort(f->panels[p].series[s].pts, f->panels[p].series[s].n,
              sizeof(struct ft_plot_point), cmp_x);
}

void ft_plot_build(const struct ft_analysis *a, const struct ft_results *r,
                   struct ft_plot_set *out) {
  memset(out, 0, sizeof *out);
  for (int k = 0; k < FT_PLOT_NKINDS; k++) {
    if (k == FT_PLOT_TIME_WAVES)
      from_rows(out, r);
    else
      from_groups(out, (enum ft_plot_kind)k, a);
    skip_flat(out, (enum ft_plot_kind)k);
  }
  baselines(out, a);
  for (size_t i = 0; i < out->count; i++) {
    order(&out->figs[i]);
    if (out->figs[i].kind == FT_PLOT_TIME_WAVES)
      fit_waves(&out->figs[i]);
    ft_plot_conclude(&out->figs[i], a);
  }
}

void ft_plot_free(struct ft_plot_set *set) {
  for (size_t i = 0; i < set->count; i++)
    free_figure(&set->figs[i]);
  free(set->figs);
  memset(set, 0, sizeof *set);
}
