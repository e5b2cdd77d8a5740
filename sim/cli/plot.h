/* `ftsim plot`: gnuplot figures (PNG and SVG) of a sweep's results and a
 * Markdown report page that shows them with the analysis table, the CSV's
 * provenance and one computed conclusion per figure.
 *
 * Figures (one per combination of the parameters not on the axis; one line
 * per protocol, the 95% interval of the mean as error bars offset per
 * protocol where it exists; the numbers come from analyze.h):
 *   time_vs_period   completion time against the checkpoint period, per
 *                    (platform, app, ranks, servers): one panel per
 *                    failure source (no failures, each MTBF, each trace)
 *                    with a shared y axis; per protocol its best simulated
 *                    period (circle), Young's (dashed) and Daly's (dotted)
 *                    periods; the panel's title flags the fastest group and
 *                    the groups not distinguishable from it; protocol none
 *                    as a flat line
 *   time_vs_waves    completion time against committed waves, every ok
 *                    failure-free row of a protocol that recovers, per
 *                    (platform, app, ranks), with each protocol's
 *                    least-squares line (slope, intercept, R^2 in the key)
 *   time_vs_ranks    best completion time (over periods) against ranks,
 *                    per (platform, app, failures)
 *   time_vs_servers  best completion time against checkpoint servers, per
 *                    (platform, app, ranks, failures)
 *   eff_vs_mtbf      efficiency at each protocol's best simulated period
 *                    (labelled at each point) against the MTBF, with the
 *                    interval propagated from the time's, per (platform,
 *                    app, ranks, servers)
 * A kind whose axis has one value in the whole CSV is skipped, with a note
 * on stderr and in the report. No x axis extends below 0. */
#ifndef FT_CLI_PLOT_H
#define FT_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze.h"

#define FT_PLOT_MAX_SERIES 16
#define FT_PLOT_MAX_PANELS 16

enum ft_plot_kind {
  FT_PLOT_TIME_PERIOD,
  FT_PLOT_TIME_WAVES,
  FT_PLOT_TIME_RANKS,
  FT_PLOT_TIME_SERVERS,
  FT_PLOT_EFF_MTBF,
  FT_PLOT_NKINDS
};

struct ft_plot_point {
  double x, y;
  double lo, hi; /* the error bar's ends, NAN for none */
  double rank;   /* the mean completion time it stands for: the best
                    one is kept where points of several periods meet */
  double period; /* eff_vs_mtbf: the period it is taken at, else NAN */
  size_t n;      /* ok runs behind it */
};

struct ft_plot_series {
  char name[64]; /* the protocol, the legend entry */
  struct ft_plot_point *pts;
  size_t n;
  double best_x, best_y;  /* time_vs_period: best simulated period, or NAN */
  double young, daly;     /* time_vs_period: the optimal periods, or NAN */
  struct ft_line_fit fit; /* time_vs_waves: fit.n > 1 when drawn */
};

struct ft_plot_panel {
  char title[128]; /* "MTBF 0.1 s", "no failures", "" for a single panel */
  const struct ft_group *best; /* time_vs_period: the panel's fastest */
  char flag[512];              /* time_vs_period, lines split at '\n': "fastest:
                                  pcl@0.01 s", "not distinguishable from:",
                                  "vcl@0.02, pcl@0.02" */
  struct ft_plot_series series[FT_PLOT_MAX_SERIES];
  size_t nseries;
};

struct ft_plot_figure {
  enum ft_plot_kind kind;
  char id[256];    /* file name stem, e.g. time_vs_period-gige-cg-16-s1 */
  char title[512]; /* names platform, app and ranks */
  const char *xlabel, *ylabel;
  int logx;
  const struct ft_row *rep; /* the first row or group shown */
  struct ft_plot_panel *panels;
  size_t npanels;
  char caption[256];     /* what the bars and marks are, n from the data */
  char conclusion[2048]; /* one sentence from the numbers */
};

struct ft_plot_set {
  struct ft_plot_figure *figs;
  size_t count;
  char notes[2048]; /* skipped kinds, one sentence per line */
};

/* Builds every figure of `a` (results `r`) into `out`, with captions and
 * conclusions. */
void ft_plot_build(const struct ft_analysis *a, const struct ft_results *r,
                   struct ft_plot_set *out);

void ft_plot_free(struct ft_plot_set *set);

/* Writes the caption and the one-sentence conclusion of `f` (built with
 * `a`) into f->caption and f->conclusion, e.g. "MTBF 0.2 s: pcl is
 * fastest, at period 0.01 s (0.371 s +- 0.020), not distinguishable from
 * vcl@0.02." */
void ft_plot_conclude(struct ft_plot_figure *f, const struct ft_analysis *a);

/* The x range [*lo, *hi] of figure `f`: every point and every drawn mark
 * (a Young or Daly period within a factor 4 of the data), padded, never
 * below 0 (a logarithmic axis: a factor 1.15 each side). */
void ft_plot_x_range(const struct ft_plot_figure *f, double *lo, double *hi);

/* The shared y range of the panels of `f`: every point with its error bar
 * and every mark, padded by 5%, never below 0 when no value is. */
void ft_plot_y_range(const struct ft_plot_figure *f, double *lo, double *hi);

/* Writes DIR/ID.dat and DIR/ID.gp for every figure, runs gnuplot on each
 * (FTSIM_GNUPLOT, or gnuplot from PATH) to make DIR/ID.png and DIR/ID.svg,
 * and writes DIR/report.md (provenance of the CSV `r`, the command
 * `command`, the analysis, each figure with its caption and conclusion).
 * Returns 0, or -1 with `err` set. */
int ft_plot_write(const struct ft_plot_set *set, const struct ft_analysis *a,
                  const struct ft_results *r, const char *csv,
                  const char *command, const char *dir, char *err,
                  size_t errlen);

/* Writes `s` as a gnuplot single-quoted string: inside one, gnuplot
 * expands nothing (no backquote command, no @macro, no backslash escape),
 * and '' stands for a quote; control characters become '?', so the string
 * stays on its line. Every text that reaches a script (CSV cells, sweep
 * values, file names, titles) goes through here: a platform cell
 * `gige"; system("touch pwned"); print "` is a title, never a command. */
void ft_plot_gp_string(FILE *out, const char *s);

/* Runs gnuplot (FTSIM_GNUPLOT, or gnuplot from PATH) on `script` inside
 * directory `dir`. Returns 0 when it exits 0, else -1 with `err` set. */
int ft_plot_gnuplot(const char *dir, const char *script, char *err,
                    size_t errlen);

/* Writes the gnuplot script of figure `f` (run in the directory of its
 * data file ID.dat; makes ID.png and ID.svg): a multiplot of its panels
 * side by side sharing the y range, a newline in a title written as
 * gnuplot's NL variable (sprintf('%c', 10)), never a double quote. */
void ft_plot_script(FILE *out, const struct ft_plot_figure *f);

/* Writes the data file of `f`: per panel, per series, one block (gnuplot
 * `index`, in that order) of "x y lo hi period" lines. */
void ft_plot_data(FILE *out, const struct ft_plot_figure *f);

/* Writes report.md's text (see ft_plot_write) to `out`. */
void ft_plot_report(FILE *out, const struct ft_plot_set *set,
                    const struct ft_analysis *a, const struct ft_results *r,
                    const char *csv, const char *command);

/* `ftsim plot [-o DIR] RESULTS.csv`: returns the exit status (0; 1 when
 * the CSV is bad or gnuplot failed; 2 on usage errors). */
int ft_plot_main(int argc, char **argv);

#endif /* FT_CLI_PLOT_H */
