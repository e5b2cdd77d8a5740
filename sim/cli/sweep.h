/* `ftsim sweep`: runs every point of a sweep file as an independent
 * `ftsim run`, N at a time, appending one CSV row per finished point, and
 * resumes a stopped sweep; or writes a Slurm job-array script that does
 * the same on a cluster (scenarios/sweep.md). */
#ifndef FT_CLI_SWEEP_H
#define FT_CLI_SWEEP_H

#include <stdio.h>

/* Runs `ftsim sweep` with the words after "sweep". Returns the exit
 * status: 0 when every point has a row (whatever its outcome), 1 when the
 * CSV could not be written, 2 on bad usage or a bad sweep file, 128 + the
 * signal when SIGINT/SIGTERM/SIGHUP stopped it (finished rows are kept, the
 * running points are killed and rerun by the next `ftsim sweep`). */
int ft_sweep_main(int argc, char **argv);

/* `ftsim sweep --help`. */
void ft_sweep_usage(FILE *out);

#endif /* FT_CLI_SWEEP_H */
