/* `ftsim plot`: gnuplot figures (PNG and SVG) of a sweep's results and a
 * Markdown report page that shows them with the analysis table.
 *
 * Figures (one per combination of the parameters not on the axis; one line
 * per protocol, with the 95% interval as error bars where it exists):
 *   time_vs_period   completion time against the checkpoint period, per
 *                    (platform, app, ranks, servers, failures); protocol
 *                    none as a flat line
 *   time_vs_waves    completion time against committed waves, every ok
 *                    row, per (platform, app, ranks)
 *   time_vs_ranks    best completion time (over periods) against ranks,
 *                    per (platform, app, failures)
 *   time_vs_servers  best completion time against checkpoint servers, per
 *                    (platform, app, ranks, failures)
 *   eff_vs_mtbf      efficiency at the best period against the MTBF, per
 *                    (platform, app, ranks, servers)
 * A kind whose axis has one value in the whole CSV is skipped, with a note
 * on stderr and in the report. */
#ifndef FT_CLI_PLOT_H
#define FT_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "analyze.h"

#define FT_PLOT_MAX_SERIES 16

struct ft_plot_point {
  double x, y, err; /* err: NAN for none */
  double rank;      /* the mean completion time it stands for: the best
                       one is kept where points of several periods meet */
};

struct ft_plot_series {
  char name[64]; /* the protocol, the legend entry */
  struct ft_plot_point *pts;
  size_t n;
};

struct ft_plot_figure {
  char id[256];    /* file name stem, e.g. time_vs_period-gige-cg-16-... */
  char title[512]; /* names platform, app and ranks */
  const char *xlabel, *ylabel;
  int logx;
  const struct ft_row *rep; /* the first row or group shown */
  struct ft_plot_series series[FT_PLOT_MAX_SERIES];
  size_t nseries;
};

struct ft_plot_set {
  struct ft_plot_figure *figs;
  size_t count;
  char notes[2048]; /* skipped kinds, one sentence per line */
};

/* Builds every figure of `a` (results `r`) into `out` (start zeroed). */
void ft_plot_build(const struct ft_analysis *a, const struct ft_results *r,
                   struct ft_plot_set *out);

void ft_plot_free(struct ft_plot_set *set);

/* Writes DIR/ID.dat and DIR/ID.gp for every figure, runs gnuplot on each
 * (FTSIM_GNUPLOT, or gnuplot from PATH) to make DIR/ID.png and DIR/ID.svg,
 * and writes DIR/report.md. Returns 0, or -1 with `err` set. */
int ft_plot_write(const struct ft_plot_set *set, const struct ft_analysis *a,
                  const char *csv, const char *dir, char *err, size_t errlen);

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
 * data file ID.dat; makes ID.png and ID.svg). */
void ft_plot_script(FILE *out, const struct ft_plot_figure *f);

/* `ftsim plot [-o DIR] RESULTS.csv`: returns the exit status (0; 1 when
 * the CSV is bad or gnuplot failed; 2 on usage errors). */
int ft_plot_main(int argc, char **argv);

#endif /* FT_CLI_PLOT_H */
