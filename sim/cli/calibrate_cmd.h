/* `ftsim calibrate`: measures this machine (cores, a core's speed, Open
 * MPI's shared-memory latency and bandwidth) and writes its SimGrid
 * platform file (machine.h), which `ftsim crosscheck` simulates on. */
#ifndef FT_CLI_CALIBRATE_CMD_H
#define FT_CLI_CALIBRATE_CMD_H

#include <stdio.h>

#define FT_ENV_PINGPONG "FTSIM_PINGPONG" /* the real ping-pong program */

/* Runs `ftsim calibrate [-o FILE] [--np N] [--repeat R] [--rounds N]` with
 * the words after "calibrate". Bad arguments, an unwritable output or a
 * missing ping-pong program: "ftsim: calibrate: ..." and FT_EXIT_USAGE
 * before anything is measured; a ping-pong that fails: FT_EXIT_FAILED.
 * Returns an exit status (enum ft_exit). */
int ft_calibrate_main(int argc, char **argv);

/* The help text of `ftsim calibrate`. */
void ft_calibrate_usage(FILE *out);

#endif /* FT_CLI_CALIBRATE_CMD_H */
