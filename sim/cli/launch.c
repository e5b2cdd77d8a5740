/* Child process, output lines, wall time (see launch.h). */
#define _POSIX_C_SOURCE 200809L
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strv.h"

extern char **environ;

/* The running child, for the signal handler: the one piece of global
 * mutable state here, as a handler has no other way to find the child. */
static volatile sig_atomic_t child_pid;

static void forward_signal(int sig) {
  if (child_pid > 0)
    kill((pid_t)child_pid, sig);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

/* Installs forward_signal, saving the previous actions in `old`. */
static void forward_begin(pid_t pid, struct sigaction old[NFORWARDED]) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward_signal;
  sigemptyset(&sa.sa_mask);
  child_pid = (sig_atomic_t)pid;
  for (size_t i = 0; i < NFORWARDED; i++)
    sigaction(forwarded[i], &sa, &old[i]);
}

static void forward_end(const struct sigaction old[NFORWARDED]) {
  for (size_t i = 0; i < NFORWARDED; i++)
    sigaction(forwarded[i], &old[i], NULL);
  child_pid = 0;
}

/* One output stream of the child, cut into lines. */
struct stream {
  enum ft_stream id;
  int fd; /* read end, or -1 once closed */
  char *line;
  size_t len, cap;
};

static void emit(struct stream *s, ft_launch_line_fn fn, void *ctx) {
  if (s->cap == 0)
    s->line = ft_xrealloc(NULL, s->cap = 256);
  s->line[s->len] = '\0';
  fn(ctx, s->id, s->line, s->len);
  s->len = 0;
}

static void append(struct stream *s, const char *p, size_t n) {
  if (s->len + n + 1 > s->cap) {
    while (s->len + n + 1 > s->cap)
      s->cap = s->cap ? 2 * s->cap : 256;
    s->line = ft_xrealloc(s->line, s->cap);
  }
  memcpy(s->line + s->len, p, n);
  s->len += n;
}

/* Appends a chunk read from the child, passing on every complete line. */
static void feed(struct stream *s, const char *p, size_t n,
                 ft_launch_line_fn fn, void *ctx) {
  while (n) {
    const char *nl = memchr(p, '\n', n);
    size_t take = nl ? (size_t)(nl - p) : n;
    append(s, p, take);
    if (!nl)
      return;
    emit(s, fn, ctx);
    p += take + 1;
    n -= take + 1;
  }
}

/* Reads what is available on `s`; at end of file passes on a last
 * unterminated line and closes the stream. */
static void drain(struct stream *s, ft_launch_line_fn fn, void *ctx) {
  char chunk[65536];
  ssize_t n = read(s->fd, chunk, sizeof chunk);
  if (n > 0) {
    feed(s, chunk, (size_t)n, fn, ctx);
    return;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (s->len)
    emit(s, fn, ctx);
  close(s->fd);
  s->fd = -1;
}

/* Reads both streams until both are closed. */
static void pump(struct stream st[2], ft_launch_line_fn fn, void *ctx) {
  while (st[0].fd >= 0 || st[1].fd >= 0) {
    struct pollfd p[2];
    nfds_t n = 0;
    for (int i = 0; i < 2; i++)
      if (st[i].fd >= 0)
        p[n++] = (struct pollfd){.fd = st[i].fd, .events = POLLIN};
    if (poll(p, n, -1) < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    for (nfds_t k = 0; k < n; k++)
      for (int i = 0; i < 2; i++)
        if (st[i].fd == p[k].fd && p[k].revents)
          drain(&st[i], fn, ctx);
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Spawns argv with stdout -> out[1], stderr -> errp[1]. Returns the pid, or
 * -1 with errno set. */
static pid_t spawn(char *const argv[], const int out[2], const int errp[2]) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    errno = rc;
    return -1;
  }
  return pid;
}

static int open_pipe(int fds[2]) {
  if (pipe(fds) != 0)
    return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
}

static void wait_child(pid_t pid, struct ft_launch_result *r) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    continue;
  r->exited = WIFEXITED(status);
  r->status = r->exited ? WEXITSTATUS(status) : WTERMSIG(status);
}

int ft_launch_run(char *const argv[], ft_launch_line_fn on_line, void *ctx,
                  struct ft_launch_result *result, char *err, size_t errlen) {
  int out[2], errp[2];
  if (open_pipe(out) || open_pipe(errp)) {
    snprintf(err, errlen, "pipe: %s", strerror(errno));
    return -1;
  }
  fflush(NULL);
  double start = now();
  pid_t pid = spawn(argv, out, errp);
  int spawn_errno = errno;
  close(out[1]);
  close(errp[1]);
  struct stream st[2] = {{FT_STREAM_STDOUT, out[0], NULL, 0, 0},
                         {FT_STREAM_STDERR, errp[0], NULL, 0, 0}};
  if (pid < 0) {
    close(out[0]);
    close(errp[0]);
    snprintf(err, errlen, "cannot start %s: %s", argv[0],
             strerror(spawn_errno));
    return -1;
  }
  struct sigaction old[NFORWARDED];
  forward_begin(pid, old);
  pump(st, on_line, ctx);
  wait_child(pid, result);
  forward_end(old);
  result->wall_s = now() - start;
  for (int i = 0; i < 2; i++) {
    if (st[i].fd >= 0)
      close(st[i].fd);
    free(st[i].line);
  }
  return 0;
}
