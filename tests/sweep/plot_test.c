/* Unit tests of `ftsim plot`'s computations (sim/cli/plot*.c) on figures
 * built by hand: the axes' ranges, the conclusions, the script's
 * offsets. The figures from a CSV: tests/sweep/plot_figures.sh. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

static struct ft_plot_panel pn;
static struct ft_plot_figure fig;

/* Series `name` of the panel with points (x[i], y[i]), error bar +-h
 * (NAN: none). */
static void add(const char *name, const double *x, const double *y, size_t n,
                double h) {
  struct ft_plot_series *s = &pn.series[pn.nseries++];
  snprintf(s->name, sizeof s->name, "%s", name);
  s->pts = calloc(n, sizeof *s->pts);
  s->n = n;
  s->best_x = s->best_y = s->young = s->daly = NAN;
  for (size_t i = 0; i < n; i++)
    s->pts[i] =
        (struct ft_plot_point){x[i], y[i], y[i] - h, y[i] + h, y[i], NAN, 3};
}

static void make(enum ft_plot_kind k, int logx) {
  fig.kind = k;
  fig.logx = logx;
  snprintf(fig.id, sizeof fig.id, "f");
  fig.xlabel = fig.ylabel = "";
  fig.panels = &pn;
  fig.npanels = 1;
}

static void clear(void) {
  for (size_t s = 0; s < pn.nseries; s++)
    free(pn.series[s].pts);
  memset(&pn, 0, sizeof pn);
  memset(&fig, 0, sizeof fig);
}

Test(plot, x_range_never_below_zero) {
  const double x[] = {0, 10}, y[] = {1, 2};
  add("pcl", x, y, 2, NAN);
  make(FT_PLOT_TIME_WAVES, 0);
  double lo, hi;
  ft_plot_x_range(&fig, &lo, &hi);
  cr_assert_float_eq(lo, 0, 1e-12); /* 0 - 5% of the span, clamped */
  cr_assert_float_eq(hi, 10.5, 1e-12);
  pn.series[0].pts[0].x = 1, pn.series[0].pts[1].x = 1;
  ft_plot_x_range(&fig, &lo, &hi);
  cr_assert_float_eq(lo, 0.95, 1e-12);
  pn.series[0].pts[0].x = 0, pn.series[0].pts[1].x = 0;
  ft_plot_x_range(&fig, &lo, &hi);
  cr_assert(lo >= 0 && hi > lo);
  clear();
}

Test(plot, marks_widen_the_log_range_within_a_factor_4) {
  const double x[] = {0.01, 0.08}, y[] = {1, 2};
  add("pcl", x, y, 2, 0.1);
  make(FT_PLOT_TIME_PERIOD, 1);
  pn.series[0].young = 0.2; /* within 4 x 0.08: drawn, in the range */
  pn.series[0].daly = 1.0;  /* beyond: neither drawn nor in the range */
  double lo, hi;
  ft_plot_x_range(&fig, &lo, &hi);
  cr_assert_float_eq(lo, 0.01 / 1.15, 1e-12);
  cr_assert_float_eq(hi, 0.2 * 1.15, 1e-12);
  ft_plot_y_range(&fig, &lo, &hi); /* bars 0.9 to 2.1, 5% padding */
  cr_assert_float_eq(lo, 0.9 - 0.06, 1e-12);
  cr_assert_float_eq(hi, 2.1 + 0.06, 1e-12);
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_plot_script(m, &fig);
  fclose(m);
  cr_assert(strstr(text, "set arrow from 0.2, graph 0 to 0.2, graph 1 "
                         "nohead dt 2"),
            "%s", text);
  cr_assert(!strstr(text, "set arrow from 1, graph"), "%s", text);
  cr_assert(!strchr(text, '"'), "a double quote in the script");
  free(text);
  clear();
}

Test(plot, error_bars_offset_per_protocol) {
  const double x[] = {0.01, 0.02}, y[] = {1, 2};
  add("pcl", x, y, 2, 0.1);
  add("vcl", x, y, 2, 0.1);
  add("c3", x, y, 2, 0.1);
  make(FT_PLOT_TIME_PERIOD, 1);
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_plot_script(m, &fig);
  fclose(m);
  /* three protocols: 1.04^-1, 1.04^0 (unmoved), 1.04^1 */
  cr_assert(strstr(text, "using ($1*0.961538):2:3:4 with yerrorlines lt 1"),
            "%s", text);
  cr_assert(strstr(text, "using ($1*1.000000):2:3:4 with yerrorlines lt 2"));
  cr_assert(strstr(text, "using ($1*1.040000):2:3:4 with yerrorlines lt 3"));
  free(text);
  clear();
}

Test(plot, conclusion_names_the_fastest_at_each_x) {
  const double x[] = {4, 8, 16}, pcl[] = {1, 2, 5}, vcl[] = {1.5, 2.5, 4};
  add("pcl", x, pcl, 3, NAN);
  add("vcl", x, vcl, 3, NAN);
  make(FT_PLOT_TIME_RANKS, 1);
  ft_plot_conclude(&fig, NULL);
  cr_assert_str_eq(fig.conclusion,
                   "Fastest at each rank count: pcl at 4, 8; vcl at 16.");
  cr_assert_str_eq(fig.caption, "No error bars: one seed per point.");
  clear();
}

/* fuzz/results, seed 1, on the panels fixture: a group without a
 * failure-free time (here vcl's, whose app_args `y` has no none row) has
 * no efficiency; it left an empty series in eff_vs_mtbf (whose figures do
 * not separate app_args), and the conclusion read its pts[-1]. Now it has
 * no series. */
Test(plot, no_failure_free_time_no_efficiency_point) {
  char text[4096], err[512];
  char *h = NULL;
  size_t hl = 0;
  FILE *m = open_memstream(&h, &hl);
  ft_results_header(m);
  fclose(m);
#define R(p, mtbf, args, t)                                                    \
  p ",gige,cg,16,1,0.01," mtbf ",,1,0,0,0," args ",0,ok,true," t               \
    ",5,1,1,1,0.01,0.002,1,1,1,,,1\n"
  snprintf(text, sizeof text, "%s%s", h,
           "none,gige,cg,16,0,0,none,,1,0,0,0,x,0,ok,true,1.0,0,0,0,0,0,0,"
           "1,1,0,,,1\n" R("pcl", "0.1", "x", "1.2") R("pcl", "0.2", "x", "1.1")
               R("vcl", "0.1", "y", "1.3"));
#undef R
  free(h);
  struct ft_results r = {0};
  cr_assert_eq(
      ft_results_parse(text, strlen(text), "r.csv", &r, NULL, err, sizeof err),
      0, "%s", err);
  struct ft_analysis a;
  struct ft_plot_set set;
  ft_analysis_build(&r, &a);
  ft_plot_build(&a, &r, &set);
  size_t eff = 0;
  for (size_t i = 0; i < set.count; i++)
    if (set.figs[i].kind == FT_PLOT_EFF_MTBF) {
      eff++;
      cr_assert_eq(set.figs[i].panels[0].nseries, 1);
      cr_assert_str_eq(set.figs[i].panels[0].series[0].name, "pcl");
      cr_assert(strstr(set.figs[i].conclusion, "pcl 0.833 at MTBF 0.1 s"), "%s",
                set.figs[i].conclusion);
    }
  cr_assert_eq(eff, 1);
  ft_plot_free(&set);
  ft_analysis_free(&a);
  ft_results_free(&r);
}
