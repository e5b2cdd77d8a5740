/* Several copies of one job at once (see together.h). */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "together.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: runs fn, writes its line to fd, exits with its status. */
static _Noreturn void child(ft_together_fn *fn, void *ctx, int fd) {
  char line[FT_TOGETHER_LINE] = "";
  int rc = fn(ctx, line, sizeof line);
  size_t len = strnlen(line, sizeof line - 1), done = 0;
  while (rc == 0 && done < len) {
    ssize_t w = write(fd, line + done, len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      _exit(1);
    done += (size_t)w;
  }
  _exit(rc & 0xff);
}

/* Reads fd to its end into line (cap bytes, NUL-terminated, the rest
 * dropped), then closes it. */
static void slurp(int fd, char *line, size_t cap) {
  size_t used = 0;
  char drop[512];
  for (;;) {
    char *to = used + 1 < cap ? line + used : drop;
    size_t room = used + 1 < cap ? cap - 1 - used : sizeof drop;
    ssize_t r = read(fd, to, room);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    if (to == line + used)
      used += (size_t)r;
  }
  line[used] = '\0';
  close(fd);
}

/* The exit status of child pid: its return value, 1 when killed. */
static int reap(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return 1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int ft_together(int n, ft_together_fn *fn, void *ctx,
                char (*lines)[FT_TOGETHER_LINE], int *status) {
  pid_t pid[FT_TOGETHER_MAX];
  int fd[FT_TOGETHER_MAX], ok = 0;
  for (int k = 0; k < n; k++) {
    int p[2];
    pid[k] = -1;
    fd[k] = -1;
    if (pipe(p) != 0)
      continue;
    pid[k] = fork();
    if (pid[k] == 0) {
      close(p[0]);
      child(fn, ctx, p[1]);
    }
    close(p[1]);
    if (pid[k] < 0)
      close(p[0]);
    else
      fd[k] = p[0];
  }
  for (int k = 0; k < n; k++) { /* a line is short: the pipe holds it */
    lines[k][0] = '\0';
    if (fd[k] >= 0)
      slurp(fd[k], lines[k], FT_TOGETHER_LINE);
    status[k] = pid[k] > 0 ? reap(pid[k]) : 1;
    if (status[k] != 0)
      lines[k][0] = '\0';
    ok += status[k] == 0;
  }
  return ok;
}
