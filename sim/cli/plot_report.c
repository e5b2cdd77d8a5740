/* `ftsim plot`'s words: each figure's caption, its panels' flags and its
 * one-sentence conclusion, computed from the numbers, and report.md (see
 * plot.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "plot.h"

/* Appends to `buf` (len bytes, NUL-terminated). */
static void add(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* "protocol@period" of a group. */
static void at(char *buf, size_t len, const struct ft_group *g) {
  add(buf, len, "%s@%s", g->rep->cell[FT_COL_PROTOCOL],
      g->rep->cell[FT_COL_PERIOD]);
}

/* The groups not distinguishable from `best`, "vcl@0.02, pcl@0.04" (at most
 * `max`, then "and N more"), "" for none; false when not judged (n < 2). */
static bool ties(const struct ft_analysis *a, const struct ft_group *best,
                 size_t max, char *buf, size_t len) {
  const struct ft_group *t[64];
  int n = ft_analysis_ties(a, best, t, 64);
  buf[0] = '\0';
  for (int i = 0; i < n && i < 64 && (size_t)i < max; i++) {
    add(buf, len, "%s", i ? ", " : "");
    at(buf, len, t[i]);
  }
  if (n > 0 && (size_t)n > max)
    add(buf, len, " and %zu more", (size_t)n - max);
  return n >= 0;
}

/* The flag's lines after "fastest": "not distinguishable from:", then
 * the tied groups three a line, at most six ("and N more"). */
static void flag_ties(const struct ft_analysis *a, const struct ft_group *b,
                      char *flag, size_t len) {
  const struct ft_group *t[7];
  int n = ft_analysis_ties(a, b, t, 7);
  add(flag, len, "\nnot distinguishable from:");
  for (int i = 0; i < n && i < 6; i++) {
    add(flag, len, "%s", i % 3 ? ", " : "\n");
    at(flag, len, t[i]);
  }
  if (n > 6)
    add(flag, len, " and %d more", n - 6);
}

static void period_flags(struct ft_plot_figure *f,
                         const struct ft_analysis *a) {
  add(f->conclusion, sizeof f->conclusion, "Fastest per failure source: ");
  for (size_t p = 0; p < f->npanels; p++) {
    struct ft_plot_panel *pn = &f->panels[p];
    const struct ft_group *b = pn->best;
    if (!b)
      continue;
    char tied[512], *c = f->conclusion;
    size_t cl = sizeof f->conclusion;
    bool judged = ties(a, b, 8, tied, sizeof tied);
    snprintf(pn->flag, sizeof pn->flag, "fastest: ");
    at(pn->flag, sizeof pn->flag, b);
    add(pn->flag, sizeof pn->flag, " s");
    add(c, cl, "%s%s: %s at period %s s (%.3f s", p ? "; " : "", pn->title,
        b->rep->cell[FT_COL_PROTOCOL], b->rep->cell[FT_COL_PERIOD],
        b->time.mean);
    if (!judged) {
      add(pn->flag, sizeof pn->flag, "\n(one seed: not judged)");
      add(c, cl, ", one seed), not judged");
    } else if (!tied[0]) {
      add(pn->flag, sizeof pn->flag, "\ndistinguishable from all");
      add(c, cl,
          " +- %.3f), distinguishable from every other protocol and "
          "period",
          b->time.ci95);
    } else {
      flag_ties(a, b, pn->flag, sizeof pn->flag);
      add(c, cl, " +- %.3f), not distinguishable from %s", b->time.ci95, tied);
    }
  }
  add(f->conclusion, sizeof f->conclusion, ".");
}

static void waves_sentence(struct ft_plot_figure *f) {
  add(f->conclusion, sizeof f->conclusion,
      "Completion time against waves without failures: ");
  const struct ft_plot_panel *pn = &f->panels[0];
  for (size_t s = 0; s < pn->nseries; s++) {
    const struct ft_plot_series *se = &pn->series[s];
    if (isnan(se->fit.slope))
      add(f->conclusion, sizeof f->conclusion,
          "%s%s has no line (%zu run%s at one wave count)", s ? "; " : "",
          se->name, se->n, se->n == 1 ? "" : "s");
    else
      add(f->conclusion, sizeof f->conclusion,
          "%s%s %.3g ms per wave, intercept %.3f s (R^2 %.3f, %zu runs)",
          s ? "; " : "", se->name, se->fit.slope * 1e3, se->fit.intercept,
          se->fit.r2, se->n);
  }
  add(f->conclusion, sizeof f->conclusion, ".");
}

/* For each x of the figure, the series with the smallest (with `high`,
 * the largest) y, grouped by series: "pcl at 4, 8; vcl at 16". */
static void named_winners(const struct ft_plot_figure *f, bool high, char *buf,
                          size_t len) {
  const struct ft_plot_panel *pn = &f->panels[0];
  buf[0] = '\0';
  for (size_t w = 0; w < pn->nseries; w++) {
    char xs[512] = "";
    for (size_t i = 0; i < pn->series[w].n; i++) {
      double x = pn->series[w].pts[i].x, y = pn->series[w].pts[i].y;
      bool wins = true;
      for (size_t s = 0; s < pn->nseries; s++)
        for (size_t k = 0; k < pn->series[s].n; k++)
          if (s != w && pn->series[s].pts[k].x == x &&
              (high ? y < pn->series[s].pts[k].y : y > pn->series[s].pts[k].y))
            wins = false;
      if (wins)
        add(xs, sizeof xs, "%s%.6g", xs[0] ? ", " : "", x);
    }
    if (xs[0])
      add(buf, len, "%s%s at %s", buf[0] ? "; " : "", pn->series[w].name, xs);
  }
}

static void eff_sentence(struct ft_plot_figure *f) {
  const struct ft_plot_panel *pn = &f->panels[0];
  char *c = f->conclusion;
  size_t cl = sizeof f->conclusion;
  add(c, cl, "Efficiency at the best simulated period: ");
  for (size_t s = 0; s < pn->nseries; s++) {
    const struct ft_plot_series *se = &pn->series[s];
    if (!se->n)
      continue;
    const struct ft_plot_point *a = &se->pts[0], *b = &se->pts[se->n - 1];
    add(c, cl, "%s%s %.3f at MTBF %.6g s (period %.6g s)", s ? "; " : "",
        se->name, a->y, a->x, a->period);
    if (se->n > 1)
      add(c, cl, " to %.3f at %.6g s (period %.6g s)", b->y, b->x, b->period);
  }
  char w[512];
  named_winners(f, true, w, sizeof w);
  add(c, cl, "; highest: %s (MTBF, s).", w);
}

/* n of the points with error bars: "n = 3 seeds", "n = 2-3 seeds", or
 * "" when no point has one. */
static void seeds(const struct ft_plot_figure *f, char *buf, size_t len) {
  size_t lo = 0, hi = 0;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++)
      for (size_t i = 0; i < f->panels[p].series[s].n; i++) {
        const struct ft_plot_point *pt = &f->panels[p].series[s].pts[i];
        if (isnan(pt->lo))
          continue;
        lo = lo && lo < pt->n ? lo : pt->n;
        hi = hi > pt->n ? hi : pt->n;
      }
  buf[0] = '\0';
  if (hi && lo == hi)
    snprintf(buf, len, "n = %zu seeds", lo);
  else if (hi)
    snprintf(buf, len, "n = %zu-%zu seeds", lo, hi);
}

static void caption(struct ft_plot_figure *f) {
  char n[64];
  seeds(f, n, sizeof n);
  if (f->kind == FT_PLOT_TIME_WAVES) {
    snprintf(f->caption, sizeof f->caption,
             "One point per failure-free run; lines: least-squares fits "
             "(slope, intercept, R^2 in the key).");
    return;
  }
  if (!n[0])
    snprintf(f->caption, sizeof f->caption,
             "No error bars: one seed per "
             "point.");
  else if (f->kind == FT_PLOT_EFF_MTBF)
    snprintf(f->caption, sizeof f->caption,
             "Error bars: the 95%% CI of the time over %s propagated, "
             "T_ff / (T -+ h); offset per protocol.",
             n);
  else
    snprintf(f->caption, sizeof f->caption,
             "Error bars: 95%% CI of the mean over %s (Student t), offset "
             "per protocol.",
             n);
  if (f->kind == FT_PLOT_TIME_PERIOD)
    add(f->caption, sizeof f->caption,
        " Circle: best simulated period; dashed: Young; dotted: Daly.");
}

void ft_plot_conclude(struct ft_plot_figure *f, const struct ft_analysis *a) {
  f->conclusion[0] = '\0';
  caption(f);
  char w[1024];
  switch (f->kind) {
  case FT_PLOT_TIME_PERIOD:
    period_flags(f, a);
    break;
  case FT_PLOT_TIME_WAVES:
    waves_sentence(f);
    break;
  case FT_PLOT_EFF_MTBF:
    eff_sentence(f);
    break;
  default:
    named_winners(f, false, w, sizeof w);
    snprintf(f->conclusion, sizeof f->conclusion, "Fastest at each %s: %s.",
             f->kind == FT_PLOT_TIME_RANKS ? "rank count" : "server count", w);
  }
}

/* ---- report.md */

static void provenance(FILE *out, const struct ft_results *r, const char *csv,
                       const char *command) {
  const struct ft_provenance *p = &r->prov;
  fprintf(out, "## Provenance\n\n| | |\n|---|---|\n| results | `%s` |\n", csv);
  fprintf(out, "| sweep's ftsim commit | %s |\n",
          p->commit[0] ? p->commit : "unknown (the CSV has no provenance)");
  fprintf(out, "| sweep file | %s%s%s |\n", p->sweep[0] ? "`" : "",
          p->sweep[0] ? p->sweep : "unknown", p->sweep[0] ? "`" : "");
  fprintf(out, "| sweep command | %s%s%s |\n", p->command[0] ? "`" : "",
          p->command[0] ? p->command : "unknown", p->command[0] ? "`" : "");
  fprintf(out, "| this report | `%s` (ftsim %s) |\n\n", command,
          ft_build_commit());
}

void ft_plot_report(FILE *out, const struct ft_plot_set *set,
                    const struct ft_analysis *a, const struct ft_results *r,
                    const char *csv, const char *command) {
  fprintf(out,
          "# Sweep report: %s\n\nWritten by `%s`. Definitions: "
          "scenarios/sweep.md. Two groups are not distinguishable when "
          "their 95%% confidence intervals of the mean completion time "
          "overlap.\n\n",
          csv, command);
  provenance(out, r, csv, command);
  fputs("## Figures\n\n", out);
  for (size_t i = 0; i < set->count; i++) {
    const struct ft_plot_figure *f = &set->figs[i];
    fprintf(out,
            "### %s: %s against %s\n\n**%s**\n\n![%s](%s.png)\n\n%s "
            "[SVG](%s.svg), [data](%s.dat), [gnuplot script](%s.gp)\n\n",
            f->title, f->ylabel, f->xlabel, f->conclusion, f->title, f->id,
            f->caption, f->id, f->id, f->id);
  }
  if (set->notes[0]) {
    fputs("## Figures not drawn\n\n", out);
    for (const char *l = set->notes; *l;) {
      const char *nl = strchr(l, '\n');
      int n = nl ? (int)(nl - l) : (int)strlen(l);
      fprintf(out, "- %.*s\n", n, l);
      l += n + (nl != NULL);
    }
    fputc('\n', out);
  }
  fputs("## Analysis\n\n```text\n", out);
  ft_analysis_print_text(out, a, csv);
  fputs("```\n", out);
}
