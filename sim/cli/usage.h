/* The help texts of `ftsim` and `ftsim run`. */
#ifndef FT_CLI_USAGE_H
#define FT_CLI_USAGE_H

#include <stdio.h>

#include "paths.h"

/* `ftsim help`: the commands, and the directories in use. */
void ft_usage_main(FILE *out, const struct ft_dirs *dirs);

/* `ftsim run --help`: options, defaults, placement, output, exit status. */
void ft_usage_run(FILE *out);

#endif /* FT_CLI_USAGE_H */
