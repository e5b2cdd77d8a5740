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
 *   Young       sqrt(2 C M); Daly: stats.h; M the point's system MTBF
 *   panel       the groups with the same parameters but protocol, period
 *               and seed: one failure source of one configuration, where
 *               protocols and periods compete
 *   not distinguishable: two groups of a panel whose 95% intervals of the
 *               mean completion time overlap (ft_intervals_overlap); a
 *               group with one ok row is a point (half-width 0), and a
 *               best group with one ok row is not judged ("n<2")
 *   efficiency interval: ft_ratio_interval of T_ff and the time's. */
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
  double eff_lo, eff_hi;         /* its 95% interval, or NAN (n < 2) */
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

/* True when groups g and h are in the same panel (see above). */
bool ft_analysis_same_panel(const struct ft_group *g, const struct ft_group *h);

/* The group of g's protocol at g's best period (g->best_period) in g's
 * panel, or NULL when g has none (protocol none, no ok row). */
const struct ft_group *ft_analysis_best_of(const struct ft_analysis *a,
                                           const struct ft_group *g);

/* The fastest group of g's panel (smallest mean completion time over its
 * ok groups, any protocol and period), or NULL when none has an ok row. */
const struct ft_group *ft_analysis_panel_best(const struct ft_analysis *a,
                                              const struct ft_group *g);

/* The groups of g's panel but g, with ok rows, whose 95% interval overlaps
 * g's: writes the first `max` by increasing mean into `out` and returns
 * how many there are; -1 when g has fewer than 2 ok rows (no interval:
 * not judged). */
int ft_analysis_ties(const struct ft_analysis *a, const struct ft_group *g,
                     const struct ft_group **out, size_t max);

/* ft_analysis_ties of g as one word list into `buf`: "-" for none, "n<2"
 * when not judged, else the tied groups by increasing mean, a period of
 * g's protocol as "0.02", another protocol's as "vcl@0.02". */
void ft_analysis_ties_text(const struct ft_analysis *a,
                           const struct ft_group *g, char *buf, size_t len);

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
