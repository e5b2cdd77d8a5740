/* ft_together: several copies of a job at once, each line handed back. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "together.h"

static int pid_line(void *ctx, char *line, size_t cap) {
  (void)ctx;
  snprintf(line, cap, "{\"pid\":%ld}", (long)getpid());
  return 0;
}

Test(together, every_child_hands_back_its_line) {
  char lines[3][FT_TOGETHER_LINE];
  int status[3];
  cr_assert_eq(ft_together(3, pid_line, NULL, lines, status), 3);
  for (int k = 0; k < 3; k++) {
    cr_assert_eq(status[k], 0);
    cr_assert(strncmp(lines[k], "{\"pid\":", 7) == 0, "line %d: %s", k,
              lines[k]);
    cr_assert(atol(lines[k] + 7) != (long)getpid(), "ran in the parent");
    for (int j = 0; j < k; j++)
      cr_assert_str_neq(lines[j], lines[k], "two lines from one process");
  }
}

/* Child 0 fails with 3, the others succeed (ctx counts nothing: each
 * child finds its rank from a file it creates first). */
static int second_fails(void *ctx, char *line, size_t cap) {
  const char *dir = ctx;
  char path[256];
  for (int k = 0;; k++) {
    snprintf(path, sizeof path, "%s/%d", dir, k);
    FILE *f = fopen(path, "wx");
    if (f) {
      fclose(f);
      if (k == 1)
        return 3;
      snprintf(line, cap, "ok %d", k);
      return 0;
    }
  }
}

Test(together, a_failed_child_has_its_status_and_no_line) {
  char dir[] = "/tmp/together-XXXXXX", lines[3][FT_TOGETHER_LINE];
  int status[3], failed = 0;
  cr_assert_not_null(mkdtemp(dir));
  cr_assert_eq(ft_together(3, second_fails, dir, lines, status), 2);
  for (int k = 0; k < 3; k++)
    if (status[k]) {
      failed++;
      cr_assert_eq(status[k], 3);
      cr_assert_str_empty(lines[k]);
    } else
      cr_assert(strncmp(lines[k], "ok ", 3) == 0);
  cr_assert_eq(failed, 1);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}

/* Succeeds only if every one of the n children is alive at once: each
 * leaves a mark, then waits (up to 10 s) to see n marks. */
static int all_at_once(void *ctx, char *line, size_t cap) {
  const char *dir = ctx;
  char path[256];
  snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
  FILE *f = fopen(path, "w");
  if (!f)
    return 2;
  fclose(f);
  for (int tries = 0; tries < 1000; tries++) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -ge 4", dir);
    if (system(cmd) == 0) {
      snprintf(line, cap, "saw 4");
      return 0;
    }
    nanosleep(&(struct timespec){0, 10000000}, NULL);
  }
  return 1;
}

Test(together, the_children_run_at_once, .timeout = 30) {
  char dir[] = "/tmp/together-XXXXXX", lines[4][FT_TOGETHER_LINE];
  int status[4];
  cr_assert_not_null(mkdtemp(dir));
  cr_assert_eq(ft_together(4, all_at_once, dir, lines, status), 4,
               "statuses %d %d %d %d", status[0], status[1], status[2],
               status[3]);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_assert_eq(system(cmd), 0);
}
