/* Runs the launcher (smpirun / mpirun) as a child process: its stdout and
 * stderr are read line by line and handed to a callback, the wall-clock
 * time is measured, and SIGINT/SIGTERM/SIGHUP received meanwhile are passed
 * on to the child. */
#ifndef FT_CLI_LAUNCH_H
#define FT_CLI_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

enum ft_stream { FT_STREAM_STDOUT = 1, FT_STREAM_STDERR = 2 };

/* Called once per line of the child's output, in arrival order per stream,
 * with the line's bytes (no '\n'; NUL-terminated at line[len]). A last line
 * without '\n' is passed too. */
typedef void (*ft_launch_line_fn)(void *ctx, enum ft_stream stream,
                                  const char *line, size_t len);

struct ft_launch_result {
  bool exited;   /* exited normally (else killed by a signal) */
  int status;    /* exit status, or the signal that killed it */
  double wall_s; /* CLOCK_MONOTONIC from the spawn to the child's end */
};

/* Runs argv[0] (searched in PATH when it has no '/') with argv, in the
 * current environment, stdin inherited. Returns 0 once the child ended, or
 * -1 with `err` set if it could not be started ("cannot start smpirun: No
 * such file or directory"). */
int ft_launch_run(char *const argv[], ft_launch_line_fn on_line, void *ctx,
                  struct ft_launch_result *result, char *err, size_t errlen);

#endif /* FT_CLI_LAUNCH_H */
