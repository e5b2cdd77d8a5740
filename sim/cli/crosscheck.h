/* `ftsim crosscheck`: runs a program for real (mpirun) and simulated on this
 * machine's calibrated platform, K times each, and prints per metric the
 * real median and spread, the simulated value and the relative error. */
#ifndef FT_CLI_CROSSCHECK_H
#define FT_CLI_CROSSCHECK_H

#include <stdio.h>

/* Runs `ftsim crosscheck [--repeat K] [--platform FILE] [run options]
 * [-- app arguments]` with the words after "crosscheck". Every run option
 * is checked first by `ftsim run --dry-run` in both modes; bad arguments, or
 * no calibrated platform: "ftsim: crosscheck: ..." and FT_EXIT_USAGE before
 * anything is launched. A run that fails: FT_EXIT_FAILED with its output.
 * Prints the table, then one JSON line. Returns an exit status. */
int ft_crosscheck_main(int argc, char **argv);

/* The help text of `ftsim crosscheck`. */
void ft_crosscheck_usage(FILE *out);

#endif /* FT_CLI_CROSSCHECK_H */
