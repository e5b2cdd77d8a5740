/* `ftsim analyze`: the rows of a sweep's CSV aggregated over seeds, with
 * efficiency, the best period per MTBF found by simulation, and Young's and
 * Daly's optimal periods from the measured checkpoint cost.
 *
 * Definitions (scenarios/sweep.md, "Analysis"):
 *   group       the rows with the same parameters but the seed; only rows
 *               whose outcome is "ok" enter its statistics
 *   failure-free time T_ff of (platform, app, ranks, app_args): the mean
 *               completion time of protocol none there; without a none row,
 *               the smallest mean of a failure-free (mtbf none, no trace)
 *               group of a recovering protocol there
 *   efficiency  T_ff / mean completion time
 *   checkpoint cost C of a family (the parameters but period, failures
 *               and seed): the mean over its ok rows with waves > 0 of
 *               (T - T_ff - lost_work_s - recovery_s) / waves, at least 0
 *   best period of (family, MTBF): the period of the group with the
 *               smallest mean completion time
 *   Young       sqrt(2 C M); Daly: stats.h; M the point's system MTBF. */
#ifndef FT_CLI_ANALYZE_H
#define FT_CLI_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"
#include "stats.h"

struct ft_group {
  const struct ft_row *rep; /* its first row: the parameter cells */
  size_t *rows;             /* indices of its rows in the results */
  size_t nrows, nok;        /* rows, and rows with outcome ok */
  size_t nstopped;          /* rows with outcome no_progress: stopped runs,
                               out of the means like every row not ok */
  struct ft_stats time;     /* completion_time_s over the ok rows */
  double waves, failures, lost, recovery; /* means over the ok rows */
  double period, mtbf;           /* numbers; mtbf NAN for none or a trace */
  bool failure_free;             /* mtbf none and no trace */
  double ff, eff;                /* failure-free time and efficiency, or NAN */
  double cost;                   /* C of its family, or NAN */
  double best_period, best_time; /* of its (family, failures), or NAN */
  double young, daly;            /* NAN without C or a numeric MTBF */
};

struct ft_analysis {
  struct ft_group *groups; /* sorted: protocol, platform, app, ranks,
                              servers, failures, period */
  size_t count;
};

/* Aggregates `r` (which must outlive `a`) into `a`. */
void ft_analysis_build(const struct ft_results *r, struct ft_analysis *a);

void ft_analysis_free(struct ft_analysis *a);

/* The text report: one table of every group, one of the optimal periods
 * per (family, MTBF). `name` names the CSV in the title. */
void ft_analysis_print_text(FILE *out, const struct ft_analysis *a,
                            const char *name);

/* One CSV row per group, with its family's C, best period, Young and
 * Daly. */
void ft_analysis_print_csv(FILE *out, const struct ft_analysis *a);

/* `ftsim analyze [--csv] [-o FILE] CSV`: returns the exit status (0, 1
 * when the CSV cannot be read or is malformed, 2 on usage errors). */
int ft_analyze_main(int argc, char **argv);

#endif /* FT_CLI_ANALYZE_H */
