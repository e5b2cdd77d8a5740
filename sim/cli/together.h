/* Several copies of one job at once, each in a forked process that hands
 * back one line of text: `ftsim crosscheck` runs its simulated runs this
 * way, as many at once as the real run keeps cores busy, so that each
 * measured kernel shares the memory system as the real ranks do (README,
 * "Cross-check against this machine"). Pure POSIX. */
#ifndef FT_CLI_TOGETHER_H
#define FT_CLI_TOGETHER_H

#include <stddef.h>

#define FT_TOGETHER_MAX 64
#define FT_TOGETHER_LINE 8192

/* One job, in a forked child: writes its line (NUL-terminated, at most
 * cap bytes with the NUL) into `line` and returns 0, or returns an exit
 * status (its own messages on stderr). */
typedef int ft_together_fn(void *ctx, char *line, size_t cap);

/* Runs fn n times at once (1 <= n <= FT_TOGETHER_MAX), each in its own
 * child process, and waits for all of them. lines[k] gets child k's line
 * ("" when it failed) and status[k] its return value (1 when it died or
 * could not be started). Returns the number of children that returned 0. */
int ft_together(int n, ft_together_fn *fn, void *ctx,
                char (*lines)[FT_TOGETHER_LINE], int *status);

#endif /* FT_CLI_TOGETHER_H */
