/* `ftsim protocols`, `ftsim platforms`, `ftsim apps`: what is available. */
#ifndef FT_CLI_LISTING_H
#define FT_CLI_LISTING_H

#include <stdio.h>

#include "paths.h"

/* One line per registered protocol: its name and one-line summary. */
void ft_listing_protocols(FILE *out);

/* One line per <source>/platforms/NAME.xml: NAME and the file. Returns 0,
 * or 1 (with a note on stderr) when there is none. */
int ft_listing_platforms(FILE *out, const struct ft_dirs *dirs);

/* One line per built workload: its name and the builds present
 * ("simulated", "real"). Returns 0, or 1 (note on stderr) when none. */
int ft_listing_apps(FILE *out, const struct ft_dirs *dirs);

#endif /* FT_CLI_LISTING_H */
