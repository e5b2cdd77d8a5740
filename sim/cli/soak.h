/* `ftsim soak`: random failure scenarios across protocols, workloads and
 * platforms, every run judged (issue 13). Not the in-memory `ftsim-soak`
 * of the protocol cores (tests/unit/soak.c): this one runs whole
 * simulations through `ftsim run` and `ftsim check`. */
#ifndef FT_CLI_SOAK_H
#define FT_CLI_SOAK_H

#include <stdio.h>

/* Runs `ftsim soak` with the words after "soak". Returns 0 when every run
 * was accepted, 1 on any defect, 2 on bad usage (message on stderr,
 * nothing run), 128 + signal when interrupted. */
int ft_soak_main(int argc, char **argv);

/* Writes the help text of `ftsim soak`. */
void ft_soak_usage(FILE *out);

#endif /* FT_CLI_SOAK_H */
