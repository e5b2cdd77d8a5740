/* `ftsim sweep --emit-slurm`: a Slurm job-array script that runs the
 * points of a sweep on a cluster, a fixed number of points per array task
 * (task T runs points T*K to T*K+K-1 in --dry-run order), each task
 * appending its rows to the same CSV (sweep_csv.c locks it). Only the
 * tasks with a point still missing from the CSV are in the array, so that
 * emitting and submitting again after a cancelled task runs only those. */
#ifndef FT_CLI_SWEEP_SLURM_H
#define FT_CLI_SWEEP_SLURM_H

#include <stdbool.h>
#include <stddef.h>

/* Defaults of the options (README "Sweeps", ftsim sweep --help). */
#define FT_SLURM_DEFAULT_MEM "2G"
#define FT_SLURM_DEFAULT_PER_TASK 1
/* Slurm's default MaxArraySize: array indices must stay below it. */
#define FT_SLURM_MAX_ARRAY_SIZE 1001

/* What the script asks of Slurm. */
struct ft_slurm_opts {
  const char *time; /* sbatch --time value; NULL: from the time-out */
  const char *mem;  /* sbatch --mem value; NULL: FT_SLURM_DEFAULT_MEM */
  int per_task;     /* points per array task, >= 1 */
  double timeout;   /* the sweep's time-out per point, wall s; 0: none */
};

/* Checks a Slurm time limit: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:
 * SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES or DAYS-HOURS:MINUTES:SECONDS
 * (decimal digits; minutes and seconds after a ':' below 60, hours after
 * a '-' below 24), not zero. Returns 0 and the limit in whole minutes
 * (rounded up) in `*minutes`, or -1. */
int ft_slurm_parse_time(const char *text, long *minutes);

/* Checks a Slurm memory size: digits with an optional K, M, G or T
 * suffix, not zero. Returns 0 or -1. */
int ft_slurm_parse_mem(const char *text);

/* The default --time, in minutes, of a task of `per_task` points that
 * each run at most `timeout` wall seconds (plus the 5 s grace before the
 * kill and a minute of margin); 0 when `timeout` is 0 (no limit: the
 * partition's default applies). */
long ft_slurm_default_minutes(double timeout, int per_task);

/* Writes Slurm's --array value for the tasks whose `todo[t]` is true
 * (`ntasks` of them), as ranges: "0-3,5,7-9". Returns a malloc'd string
 * (empty when no task is to run). */
char *ft_slurm_array_spec(const bool *todo, size_t ntasks);

/* The array's tasks: task T runs points T*K to T*K+K-1 (K: per_task). */
struct ft_slurm_tasks {
  size_t npoints;   /* points of the sweep */
  size_t missing;   /* of them, without a row in the CSV */
  const bool *todo; /* per task (ceil(npoints / K)): a point is missing */
};

/* Writes the script `script` (mode 0755) for the `tasks->npoints` points
 * of the sweep file `sweep_file`, `o->per_task` per task, listing in the
 * array only the tasks flagged in `tasks->todo`, merging into `csv`, Slurm's
 * logs into `workdir`; all paths made absolute. When no task is to run, writes
 * nothing and says so. Returns 0, or an exit status (FT_EXIT_USAGE when a path
 * cannot be resolved, FT_EXIT_FAILED when the script cannot be written) with a
 * message on stderr. */
int ft_sweep_emit_slurm(const char *script, const char *sweep_file,
                        const char *csv, const char *workdir,
                        const struct ft_slurm_tasks *tasks,
                        const struct ft_slurm_opts *o);

#endif /* FT_CLI_SWEEP_SLURM_H */
