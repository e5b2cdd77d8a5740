/* Unit tests of the verdict: exit status and messages of a finished run. */
#include <criterion/criterion.h>
#include <string.h>

#include "outcome.h"

static char msg[1024];

/* A clean run: exit 0, a summary, verified. */
static struct ft_outcome clean(void) {
  return (struct ft_outcome){.launcher = "smpirun",
                             .exited = true,
                             .status = 0,
                             .deadlock = false,
                             .summary = true,
                             .malformed = NULL,
                             .verified = 1};
}

Test(cli_outcome, success) {
  struct ft_outcome o = clean();
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_OK);
  cr_assert_str_eq(msg, "");
}

Test(cli_outcome, not_verifying_is_success) {
  struct ft_outcome o = clean();
  o.verified = -1;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_OK);
}

Test(cli_outcome, unverified) {
  struct ft_outcome o = clean();
  o.verified = 0;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_UNVERIFIED);
  cr_assert_str_eq(msg,
                   "ftsim: the result was not verified (\"verified\":false)\n");
}

Test(cli_outcome, non_zero_exit) {
  struct ft_outcome o = clean();
  o.status = 134;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: smpirun exited with status 134\n");
}

Test(cli_outcome, killed) {
  struct ft_outcome o = clean();
  o.launcher = "mpirun";
  o.exited = false;
  o.status = 9;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: mpirun was killed by signal 9\n");
}

Test(cli_outcome, deadlock_despite_exit_zero) {
  struct ft_outcome o = clean();
  o.deadlock = true;
  o.summary = false;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: simulation deadlocked (SimGrid said "
                        "\"Deadlock detected\")\n"
                        "ftsim: the run printed no summary (no stdout line "
                        "starting with \"FTSIM_SUMMARY \")\n");
}

Test(cli_outcome, no_summary) {
  struct ft_outcome o = clean();
  o.summary = false;
  o.verified = -1;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: the run printed no summary (no stdout line "
                        "starting with \"FTSIM_SUMMARY \")\n");
}

Test(cli_outcome, malformed_summary) {
  struct ft_outcome o = clean();
  o.malformed = "the summary has an unterminated string";
  o.verified = -1;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: malformed summary line: the summary has an "
                        "unterminated string\n");
}

Test(cli_outcome, failure_outranks_unverified) {
  struct ft_outcome o = clean();
  o.status = 1;
  o.verified = 0;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
  cr_assert_str_eq(msg, "ftsim: smpirun exited with status 1\n");
}

Test(cli_outcome, short_buffer_stays_terminated) {
  struct ft_outcome o = clean();
  char small[16];
  o.status = 2;
  cr_assert_eq(ft_outcome_judge(&o, small, sizeof small), FT_EXIT_FAILED);
  cr_assert_lt(strlen(small), sizeof small);
}

/* Issue 13, defect 3: a run stopped because it could not progress. */
Test(cli_outcome, no_progress) {
  struct ft_outcome o = clean();
  o.verified = -1;
  o.no_progress = true;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_NO_PROGRESS);
  cr_assert_eq(FT_EXIT_NO_PROGRESS, 4);
  cr_assert_str_eq(msg, "ftsim: the run could not progress and was stopped "
                        "(\"outcome\":\"no_progress\")\n");
}

Test(cli_outcome, failure_outranks_no_progress) {
  struct ft_outcome o = clean();
  o.no_progress = true;
  o.status = 134;
  cr_assert_eq(ft_outcome_judge(&o, msg, sizeof msg), FT_EXIT_FAILED);
}
