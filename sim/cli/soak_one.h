/* One run of `ftsim soak`: draw its configuration, measure (or read from
 * the cache) the failure-free runs it compares with, draw its scenario,
 * run it with a trace, check the trace, judge. Runs `ftsim` itself as a
 * child process per step, each in its own process group, killed after the
 * time-out. */
#ifndef FT_CLI_SOAK_ONE_H
#define FT_CLI_SOAK_ONE_H

#include <stdint.h>
#include <stdio.h>

#include "soak_draw.h"
#include "soak_judge.h"

/* What every run of a soak shares. */
struct ft_soak_env {
  const char *ftsim;   /* absolute path of the ftsim program */
  const char *cache;   /* directory of cached failure-free summaries */
  const char *rundirs; /* directory of the runs' directories (seed-N) */
  double timeout;      /* wall seconds per step */
  const char *const *protocols;
  size_t nprotocols;
  const struct ft_soak_app *const *apps;
  size_t napps;
};

/* What a run reports to the soak. */
struct ft_soak_report {
  enum ft_soak_verdict verdict;
  enum ft_soak_kind kind;
  long failures; /* the failure run's "failures", -1 if unknown */
  long rss_kb;   /* peak resident memory of the failure run's processes */
};

/* Runs seed `seed` in <rundirs>/seed-<seed> (created). Writes the report's
 * first line to `out` as "verdict kind failures rss_kb" (numbers), then,
 * for a defect, the lines to print: what, and the commands that reproduce
 * it. Returns the verdict. */
enum ft_soak_verdict ft_soak_one(const struct ft_soak_env *env, uint64_t seed,
                                 FILE *out);

/* Reads back the first line written by ft_soak_one. Returns 0, or -1. */
int ft_soak_report_parse(const char *line, struct ft_soak_report *r);

/* Kills the process group of the step in progress (for a signal handler
 * of the process running ft_soak_one), if any. */
void ft_soak_one_kill_step(void);

#endif /* FT_CLI_SOAK_ONE_H */
