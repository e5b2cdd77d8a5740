/* `ftsim sweep --emit-slurm`: a Slurm job-array script that runs the
 * points of a sweep on a cluster, one array task per point, each appending
 * its row to the same CSV (sweep_csv.c locks it). */
#ifndef FT_CLI_SWEEP_SLURM_H
#define FT_CLI_SWEEP_SLURM_H

#include <stddef.h>

/* Writes the script `script` (mode 0755) for `npoints` points of the sweep
 * file `sweep_file`, merging into `csv`, Slurm's logs into `workdir`; all
 * paths made absolute. Returns 0, or an exit status (FT_EXIT_USAGE when a
 * path cannot be resolved, FT_EXIT_FAILED when the script cannot be
 * written) with a message on stderr. */
int ft_sweep_emit_slurm(const char *script, const char *sweep_file,
                        const char *csv, const char *workdir, size_t npoints);

#endif /* FT_CLI_SWEEP_SLURM_H */
