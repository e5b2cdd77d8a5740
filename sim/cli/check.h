/* `ftsim check TRACE`: the trace checker's command (sim/check/). */
#ifndef FT_CLI_CHECK_H
#define FT_CLI_CHECK_H

#include <stdio.h>

/* The words after "check". Exit status: 0 every promise holds (one summary
 * line on stdout), 1 a violation (named on stdout), 2 bad usage or a
 * malformed trace (FILE:LINE: field 'F': ... on stderr). */
int ft_check_main(int argc, char **argv);

void ft_check_usage(FILE *out);

#endif /* FT_CLI_CHECK_H */
