/* The points of a sweep: the grid expanded, and for one point the
 * scenario text it needs and the `ftsim run` arguments that run it. Pure.
 *
 * Expansion order (the last axis varies fastest): protocol, platform, app,
 * ranks, servers, period, failure source (the mtbfs values, then the
 * traces), seed. A protocol that does not recover (none) runs once per
 * (platform, app, ranks): no failures, no period, no service rank, servers
 * 0, period 0, mtbf none, the first seed. Only drawn failures (an MTBF)
 * depend on the seed: a failure-free or trace point runs once, with the
 * first seed. */
#ifndef FT_CLI_SWEEP_POINTS_H
#define FT_CLI_SWEEP_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "strv.h"
#include "sweep_file.h"

/* One point: its parameter cells (results.h column order), pointing into
 * the sweep (or to constant strings). */
/* An `apps` value starting with this names a recorded trace, replayed
 * (`ftsim run --replay TRACE`) instead of an app: "@ring.otf2". */
#define FT_SWEEP_REPLAY "@"

struct ft_point {
  char *param[FT_COL_NPARAMS];
};

struct ft_points {
  struct ft_point *items;
  size_t count, cap;
};

/* Calls visit(ctx, p) for every point of `s` in expansion order, without
 * duplicates, allocating nothing: `p` (its strings point into the sweep)
 * is valid only during the call. */
void ft_points_each(const struct ft_sweep *s,
                    void (*visit)(void *ctx, const struct ft_point *p),
                    void *ctx);

/* Expands `s` into `out` (start it zeroed), copies of the points of
 * ft_points_each, in time linear in the number of points. */
void ft_points_expand(const struct ft_sweep *s, struct ft_points *out);

/* Frees the list (not the strings, which belong to the sweep). */
void ft_points_free(struct ft_points *p);

/* 64-bit FNV-1a of the point's key (ft_results_key), for file names. */
uint64_t ft_point_hash(const struct ft_point *p);

/* True when the point has failures (an MTBF other than none, or a trace):
 * it needs a scenario file. */
int ft_point_has_failures(const struct ft_point *p);

/* A guess of how long the point runs, to start long points first: ranks
 * squared (SimGrid's network solver dominates), three times that for a
 * protocol that recovers (its waves: a 64-rank cg point of pcl without
 * failures took 3 to 4 times `none`'s wall time), four times that with
 * failures (each rollback re-runs the application). Unitless. */
double ft_point_cost(const struct ft_point *p);

/* Orders points longest-looking first: by ft_point_cost, then the shorter
 * MTBF (more failures), then the shorter period (more waves); returns <0,
 * 0 (no difference: keep grid order) or >0, as qsort's comparators. */
int ft_point_cmp_cost(const struct ft_point *a, const struct ft_point *b);

/* Writes the scenario of a point with failures into `out` (len bytes):
 *   seed S / detection D / restart R / exponential MTBF, or
 *   trace FMT PATH / trace_scale ... (the sweep's trace settings),
 *   and max_failures / until when the sweep sets them. */
void ft_point_scenario(const struct ft_sweep *s, const struct ft_point *p,
                       char *out, size_t len);

/* Appends to `argv` the arguments of `ftsim run` for the point (after
 * "run"): --platform, --np, --app, --protocol, and for a protocol that
 * recovers --service-ranks, --set period=, --set image_mb=, --scenario
 * `scenario_file` (when not NULL); then the sweep's `set`s, then "--" and
 * its app_args. */
void ft_point_run_args(const struct ft_sweep *s, const struct ft_point *p,
                       const char *scenario_file, struct ft_strv *argv);

#endif /* FT_CLI_SWEEP_POINTS_H */
