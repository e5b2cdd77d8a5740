/* Unit tests of reference mode's run record (sim/run_record.c): written
 * atomically, read back verified; a corrupt record is refused, named. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_record.h"

static char dir[256], path[512];
static char err[1024];

static void make_dir(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/ftsim-record-test-XXXXXX",
           tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
  cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
  snprintf(path, sizeof path, "%s/%s", dir, FT_RUN_RECORD_NAME);
}

static int remove_one(const char *p, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

static void remove_dir(void) {
  nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(run_record, .init = make_dir, .fini = remove_dir);

static const struct ft_run_record sample = {.launch = 2,
                                            .wave = 7,
                                            .origin_wall = 1795530463.25,
                                            .origin_t = 0.5,
                                            .commit_t = 0.625,
                                            .lost_s = 0.125,
                                            .restart_s = 3.5};

Test(run_record, reads_back_what_was_written) {
  struct ft_run_record r;
  cr_assert_eq(ft_run_record_write(dir, &sample, err, sizeof err), 0, "%s",
               err);
  cr_assert_eq(ft_run_record_read(dir, &r, err, sizeof err), 0, "%s", err);
  cr_assert_eq(r.launch, 2);
  cr_assert_eq(r.wave, 7);
  cr_assert_float_eq(r.origin_wall, sample.origin_wall, 1e-6);
  cr_assert_float_eq(r.origin_t, 0.5, 1e-9);
  cr_assert_float_eq(r.commit_t, 0.625, 1e-9);
  cr_assert_float_eq(r.lost_s, 0.125, 1e-9);
  cr_assert_float_eq(r.restart_s, 3.5, 1e-9);
  cr_assert_eq(access(path, F_OK), 0);
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  cr_assert_neq(access(tmp, F_OK), 0); /* renamed into place */
}

Test(run_record, a_missing_record_is_not_an_error) {
  struct ft_run_record r = {.wave = 3};
  cr_assert_eq(ft_run_record_read(dir, &r, err, sizeof err), 1);
  cr_assert_eq(r.wave, 0);
}

Test(run_record, a_flipped_byte_is_refused_and_named) {
  struct ft_run_record r;
  char expect[1024];
  cr_assert_eq(ft_run_record_write(dir, &sample, err, sizeof err), 0);
  int fd = open(path, O_WRONLY);
  cr_assert_eq(pwrite(fd, "8", 1, 33), 1); /* "wave 7" -> "wave 8" */
  close(fd);
  cr_assert_eq(ft_run_record_read(dir, &r, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: checksum mismatch (corrupt record)",
           path);
  cr_assert_eq(strncmp(err, expect, strlen(expect)), 0, "%s", err);
  cr_assert_eq(r.wave, 0);
}

Test(run_record, a_truncated_record_is_refused_and_named) {
  struct ft_run_record r;
  char expect[1024];
  cr_assert_eq(ft_run_record_write(dir, &sample, err, sizeof err), 0);
  cr_assert_eq(truncate(path, 40), 0);
  cr_assert_eq(ft_run_record_read(dir, &r, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: not a run record (no checksum line)",
           path);
  cr_assert_str_eq(err, expect);
}
