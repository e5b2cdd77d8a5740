/* Provenance of a sweep's results: which build of ftsim, which sweep file
 * and which command made the CSV. Written as `#` comment lines before the
 * CSV's header row when a sweep creates the file, read back (and otherwise
 * skipped) by every reader of the CSV (results.c: analyze, plot, a
 * resuming sweep, a Slurm array task), shown in `ftsim plot`'s report:
 *   # commit: 1943c0a1b2c3
 *   # sweep_file: /abs/scenarios/sweep-example.txt
 *   # command: ftsim sweep -j 2 scenarios/sweep-example.txt
 * Pure apart from the FILE* it is given. */
#ifndef FT_CLI_PROVENANCE_H
#define FT_CLI_PROVENANCE_H

#include <stddef.h>
#include <stdio.h>

struct ft_provenance {
  char commit[64];    /* "" when the CSV has none */
  char sweep[1024];   /* the sweep file, absolute when it could be made so */
  char command[2048]; /* the command line, shell-quoted */
};

/* The commit this build of ftsim was compiled from (`git describe --always
 * --dirty` at build time), or "unknown" outside a git tree. */
const char *ft_build_commit(void);

/* Fills `p` with this build's commit, the sweep file `sweep_file` (made
 * absolute) and the command `ftsim SUB argv[0..argc)` shell-quoted. */
void ft_provenance_here(struct ft_provenance *p, const char *sub,
                        const char *sweep_file, int argc, char **argv);

/* Writes the members of `p` that are set as comment lines (see above);
 * control characters become '?', so each stays one line. */
void ft_provenance_write(FILE *out, const struct ft_provenance *p);

/* Reads the comment line [line, line + len) (it starts with '#'): a
 * "# commit: ", "# sweep_file: " or "# command: " line sets that member
 * (the rest of the line, truncated to fit); any other comment is
 * ignored. */
void ft_provenance_line(struct ft_provenance *p, const char *line, size_t len);

#endif /* FT_CLI_PROVENANCE_H */
