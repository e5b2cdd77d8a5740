/* The after-failure rule (sim/check/fail_check.h) on hand-written traces:
 * a victim that acts between its failure and its replacement is named; one
 * that stops, or whose replacement acts, is not. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fail_check.h"

/* Writes texts[r] to DIR/t.r and returns the prefix DIR/t (static). */
static const char *write_traces(const char *const texts[], int n) {
  static char dir[64], prefix[80];
  snprintf(dir, sizeof dir, "/tmp/fail_check.XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  for (int r = 0; r < n; r++) {
    char name[96];
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f);
    fputs(texts[r], f);
    fclose(f);
  }
  return prefix;
}

static void remove_traces(const char *prefix, int n) {
  char name[96];
  for (int r = 0; r < n; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    unlink(name);
  }
  snprintf(name, sizeof name, "%s", prefix);
  *strrchr(name, '/') = 0;
  rmdir(name);
}

#define H(r) "# ftsim-trace 3 rank " #r " ranks 2 protocol pcl family x\n"
/* The dispatcher (world rank 2): rank 1 fails at 0.5, replaced at 0.6. */
#define DISPATCHER H(2) "0.500000000 2 0 fail 1 0.600000000\n9.0 2 0 end\n"

static enum ft_check_status run(const char *victim, struct ft_check_result *r) {
  const char *t[] = {H(0) "0.1 0 0 send 0 p 1 7 1 8\n9.0 0 1 end\n", victim,
                     DISPATCHER};
  const char *prefix = write_traces(t, 3);
  memset(r, 0, sizeof *r);
  enum ft_check_status st = ft_check_failures(prefix, 2, r);
  remove_traces(prefix, 3);
  return st;
}

Test(fail_check, victim_that_stops_is_ok) {
  struct ft_check_result r;
  cr_assert_eq(run(H(1) "0.4 1 0 deliver 0 p 0 7 1 8\n"
                        "0.7 1 1 rollback 0 0\n9.0 1 1 end\n",
                   &r),
               FT_CHECK_OK, "%s", r.message);
}

Test(fail_check, send_after_the_failure_is_named) {
  struct ft_check_result r;
  cr_assert_eq(run(H(1) "0.4 1 0 deliver 0 p 0 7 1 8\n"
                        "0.5004 1 0 send 0 p 0 7 2 8\n"
                        "0.5009 1 0 ctl-send done 0 2 0\n"
                        "0.7 1 1 rollback 0 0\n9.0 1 1 end\n",
                   &r),
               FT_CHECK_VIOLATION);
  cr_assert_str_eq(r.kind, "after-failure");
  cr_assert(strstr(r.message, "rank 1 failed at 0.500000000"), "%s", r.message);
  cr_assert(strstr(r.message, "'send' at 0.500400000"), "%s", r.message);
  cr_assert(strstr(r.message, "t.1:3"), "%s", r.message);
  cr_assert(strstr(r.message, "the last ('ctl-send') at 0.500900000"), "%s",
            r.message);
}

Test(fail_check, the_replacement_may_act_before_its_restart_record) {
  struct ft_check_result r; /* message logging: a resend at 0.65 */
  cr_assert_eq(run(H(1) "0.65 1 0 resend 0 p 0 7 1 8\n"
                        "0.7 1 0 restart 1 0 0\n9.0 1 0 end\n",
                   &r),
               FT_CHECK_OK, "%s", r.message);
}

Test(fail_check, a_fail_record_naming_no_rank_is_malformed) {
  const char *t[] = {H(0) "9.0 0 0 end\n", H(1) "9.0 1 0 end\n",
                     H(2) "0.5 2 0 fail 7 0.6\n9.0 2 0 end\n"};
  const char *prefix = write_traces(t, 3);
  struct ft_check_result r;
  memset(&r, 0, sizeof r);
  cr_assert_eq(ft_check_failures(prefix, 2, &r), FT_CHECK_MALFORMED);
  cr_assert(strstr(r.message, "t.2:2: field 'rank'"), "%s", r.message);
  remove_traces(prefix, 3);
}

/* Under a real MPI (header " mode real"), a record stamped a little after
 * the failure is an act begun before it (the clock runs between the look
 * and the act); 20 ms after is not. Simulated: even 0.5 ms is named. */
#define HREAL                                                                  \
  "# ftsim-trace 3 rank 1 ranks 2 protocol pcl family x run 1 mode real\n"

Test(fail_check, real_clock_slack_covers_an_act_stamped_just_after) {
  struct ft_check_result r;
  cr_assert_eq(run(HREAL "0.5005 1 0 ctl-send done 0 1 0\n"
                         "0.7 1 1 rollback 0 0\n9.0 1 1 end\n",
                   &r),
               FT_CHECK_OK, "%s", r.message);
}

Test(fail_check, real_clock_slack_is_bounded) {
  struct ft_check_result r;
  cr_assert_eq(run(HREAL "0.52 1 0 ctl-send done 0 1 0\n"
                         "0.7 1 1 rollback 0 0\n9.0 1 1 end\n",
                   &r),
               FT_CHECK_VIOLATION);
  cr_assert_str_eq(r.kind, "after-failure");
}

Test(fail_check, simulated_has_no_slack) {
  struct ft_check_result r;
  cr_assert_eq(run(H(1) "0.5005 1 0 ctl-send done 0 1 0\n"
                        "0.7 1 1 rollback 0 0\n9.0 1 1 end\n",
                   &r),
               FT_CHECK_VIOLATION);
}
