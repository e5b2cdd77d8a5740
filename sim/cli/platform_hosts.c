/* Hosts of a platform file, listed by SimGrid (see platform_hosts.h). */
#define _POSIX_C_SOURCE 200809L
#include "platform_hosts.h"

#include <errno.h>
#include <simgrid/disk.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t digit_run(const char *s) {
  size_t n = 0;
  while (s[n] >= '0' && s[n] <= '9')
    n++;
  return n;
}

/* Compares the digit runs at *a and *b as numbers and moves past them. */
static int cmp_number(const char **a, const char **b) {
  const char *x = *a, *y = *b;
  while (*x == '0')
    x++;
  while (*y == '0')
    y++;
  size_t lx = digit_run(x), ly = digit_run(y);
  *a = x + lx;
  *b = y + ly;
  if (lx != ly)
    return lx < ly ? -1 : 1;
  return memcmp(x, y, lx);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int natural_cmp(const char *a, const char *b) {
  while (*a && *b) {
    if (is_digit(*a) && is_digit(*b)) {
      int c = cmp_number(&a, &b);
      if (c)
        return c;
      continue;
    }
    if (*a != *b)
      return (unsigned char)*a - (unsigned char)*b;
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

int ft_host_name_cmp(const char *a, const char *b) {
  int c = natural_cmp(a, b);
  return c ? c : strcmp(a, b);
}

/* In the child: loads the platform with SimGrid, writes one line per host
 * to `fd`, its name then a tab and its number of disks, exits 0. SimGrid
 * aborts the child on a bad file. */
static _Noreturn void list_in_child(const char *path, int fd) {
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core); /* an abort here is a parse error */
  char prog[] = "ftsim", quiet[] = "--log=root.thres:warning";
  char *argv[] = {prog, quiet, NULL};
  int argc = 2;
  simgrid_init(&argc, argv);
  simgrid_load_platform(path);
  FILE *out = fdopen(fd, "w");
  sg_host_t *list = sg_host_list();
  size_t n = sg_host_count();
  for (size_t i = 0; out && i < n; i++) {
    unsigned int disks = 0;
    sg_disk_t *d = NULL;
    sg_host_get_disks(list[i], &disks, &d);
    free(d);
    fprintf(out, "%s\t%u\n", sg_host_get_name(list[i]), disks);
  }
  _exit(out && fclose(out) == 0 ? 0 : 1);
}

/* Reads `fd` to its end into a NUL-terminated heap buffer. */
static char *read_all(int fd) {
  size_t len = 0, cap = 4096;
  char *buf = ft_xrealloc(NULL, cap);
  for (;;) {
    if (cap - len < 2)
      buf = ft_xrealloc(buf, cap *= 2);
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  buf[len] = '\0';
  return buf;
}

/* The child's lines "name\tdisks": names to `out`, those with no disk also
 * to `diskless` (when not NULL). */
static void split_lines(const char *text, struct ft_strv *out,
                        struct ft_strv *diskless) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    const char *tab = memchr(p, '\t', len);
    size_t name = tab ? (size_t)(tab - p) : len;
    if (name)
      ft_strv_pushn(out, p, name);
    if (name && diskless && tab && tab[1] == '0')
      ft_strv_pushn(diskless, p, name);
    p += len + (nl ? 1 : 0);
  }
}

/* Waits for `pid`; returns its exit status, or -1 if it did not exit. */
static int wait_exit(pid_t pid) {
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ft_platform_hosts_load(const char *path, struct ft_strv *hosts, char *err,
                           size_t errlen) {
  return ft_platform_hosts_load_disks(path, hosts, NULL, err, errlen);
}

int ft_platform_hosts_load_disks(const char *path, struct ft_strv *hosts,
                                 struct ft_strv *diskless, char *err,
                                 size_t errlen) {
  int fds[2];
  if (access(path, R_OK) != 0) {
    snprintf(err, errlen, "cannot read platform file '%s': %s", path,
             strerror(errno));
    return -1;
  }
  fflush(NULL);
  pid_t pid = pipe(fds) == 0 ? fork() : -1;
  if (pid < 0) {
    snprintf(err, errlen, "cannot start a process: %s", strerror(errno));
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    list_in_child(path, fds[1]);
  }
  close(fds[1]);
  char *text = read_all(fds[0]);
  close(fds[0]);
  int rc = wait_exit(pid);
  if (rc == 0) {
    split_lines(text, hosts, diskless);
    ft_strv_sort(hosts, ft_host_name_cmp);
  } else {
    snprintf(err, errlen,
             "SimGrid could not load platform file '%s' (its messages are "
             "above)",
             path);
  }
  free(text);
  return rc == 0 ? 0 : -1;
}
