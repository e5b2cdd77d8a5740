/* Unit tests of the summary line: recognising it, splicing the launcher's
 * fields in, reading "verified". */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

static char err[512];

static const struct ft_summary_extra gige = {"gige", "cg", "simulated",
                                             "modelled", 12.3};

/* Splices `line` with `extra`; returns the heap result or NULL. */
static char *splice(const char *line, const struct ft_summary_extra *extra) {
  err[0] = '\0';
  return ft_summary_splice(line, strlen(line), extra, err, sizeof err);
}

static void expect_splice(const char *line, const char *want) {
  char *got = splice(line, &gige);
  cr_assert_not_null(got, "%s", err);
  cr_assert_str_eq(got, want);
  free(got);
}

static void expect_malformed(const char *line, const char *why) {
  char *got = splice(line, &gige);
  cr_assert_null(got, "accepted: %s", got);
  cr_assert_str_eq(err, why);
}

Test(cli_summary, recognises_the_line) {
  const char *yes = "FTSIM_SUMMARY {}", *no = "FTSIM_SUMMARY{}";
  cr_assert(ft_summary_is_line(yes, strlen(yes)));
  cr_assert(!ft_summary_is_line(no, strlen(no)));
  cr_assert(!ft_summary_is_line(" FTSIM_SUMMARY {}", 17));
  cr_assert(!ft_summary_is_line("FTSIM", 5));
}

Test(cli_summary, splices_after_the_first_member) {
  expect_splice(
      "FTSIM_SUMMARY {\"protocol\":\"none\",\"ranks\":16,\"service_ranks\":0,"
      "\"completion_time_s\":0.123456,\"verified\":true,\"result\":1.5e-10,"
      "\"messages\":1234,\"bytes\":567890}",
      "{\"protocol\":\"none\",\"platform\":\"gige\",\"app\":\"cg\","
      "\"mode\":\"simulated\",\"ranks\":16,\"service_ranks\":0,"
      "\"completion_time_s\":0.123456,\"verified\":true,\"result\":1.5e-10,"
      "\"messages\":1234,\"bytes\":567890,\"compute\":\"modelled\",\"wall_s\":"
      "12.300}");
}

Test(cli_summary, trims_white_space_and_carriage_return) {
  expect_splice("FTSIM_SUMMARY  { \"protocol\":\"pcl\" , \"ranks\":2 }\r",
                "{\"protocol\":\"pcl\" ,\"platform\":\"gige\",\"app\":\"cg\","
                "\"mode\":\"simulated\", "
                "\"ranks\":2,\"compute\":\"modelled\",\"wall_s\":12.300}");
}

Test(cli_summary, single_member) {
  expect_splice(
      "FTSIM_SUMMARY {\"protocol\":\"none\"}",
      "{\"protocol\":\"none\",\"platform\":\"gige\",\"app\":\"cg\","
      "\"mode\":\"simulated\",\"compute\":\"modelled\",\"wall_s\":12.300}");
}

Test(cli_summary, empty_object) {
  expect_splice("FTSIM_SUMMARY {}",
                "{\"platform\":\"gige\",\"app\":\"cg\",\"mode\":\"simulated\","
                "\"compute\":\"modelled\",\"wall_s\":12.300}");
}

Test(cli_summary, comma_inside_a_string_is_not_a_separator) {
  expect_splice("FTSIM_SUMMARY {\"note\":\"a,\\\"b\\\",c\",\"ranks\":1}",
                "{\"note\":\"a,\\\"b\\\",c\",\"platform\":\"gige\","
                "\"app\":\"cg\",\"mode\":\"simulated\",\"ranks\":1,"
                "\"compute\":\"modelled\",\"wall_s\":12.300}");
}

Test(cli_summary, escapes_names_and_writes_null) {
  struct ft_summary_extra x = {NULL, "my \"app\"\\1", "real", NULL, 0.5};
  char *got = splice("FTSIM_SUMMARY {\"ranks\":1}", &x);
  cr_assert_not_null(got, "%s", err);
  cr_assert_str_eq(got, "{\"ranks\":1,\"platform\":null,"
                        "\"app\":\"my \\\"app\\\"\\\\1\",\"mode\":\"real\","
                        "\"compute\":null,\"wall_s\":0.500}");
  free(got);
}

Test(cli_summary, not_an_object) {
  expect_malformed("FTSIM_SUMMARY protocol=none",
                   "the summary is not a JSON object (it must start with '{' "
                   "and end with '}')");
}

Test(cli_summary, truncated_object) {
  expect_malformed("FTSIM_SUMMARY {\"protocol\":\"none\",\"ranks\":16",
                   "the summary is not a JSON object (it must start with '{' "
                   "and end with '}')");
}

Test(cli_summary, empty_line) {
  expect_malformed("FTSIM_SUMMARY ",
                   "the summary is not a JSON object (it must start with '{' "
                   "and end with '}')");
}

Test(cli_summary, unterminated_string) {
  expect_malformed("FTSIM_SUMMARY {\"protocol\":\"none}",
                   "the summary has an unterminated string");
}

Test(cli_summary, stray_comma) {
  expect_malformed("FTSIM_SUMMARY {\"ranks\":1,}",
                   "the summary has an empty member (stray comma)");
  expect_malformed("FTSIM_SUMMARY {,\"ranks\":1}",
                   "the summary has an empty member (stray comma)");
}

Test(cli_summary, verified) {
  cr_assert_eq(ft_summary_verified("{\"a\":1,\"verified\":true}"), 1);
  cr_assert_eq(ft_summary_verified("{\"verified\" : false ,\"a\":1}"), 0);
  cr_assert_eq(ft_summary_verified("{\"a\":1}"), -1);
  cr_assert_eq(ft_summary_verified("{\"verified\":null}"), -1);
  cr_assert_eq(ft_summary_verified("{\"note\":\"\\\"verified\\\":false\"}"), -1,
               "inside a string it is not a member");
  cr_assert_eq(ft_summary_verified("not json"), -1);
}

/* Issue 13, defect 3: the outcome member of a stopped run. */
Test(cli_summary, no_progress) {
  cr_assert(ft_summary_no_progress(
      "{\"completion_time_s\":0.5,\"outcome\":\"no_progress\","
      "\"verified\":null}"));
  cr_assert(ft_summary_no_progress(
      "FTSIM_SUMMARY {\"a\":1, \"outcome\" : \"no_progress\" }"));
  cr_assert_not(
      ft_summary_no_progress("{\"outcome\":\"completed\",\"verified\":true}"));
  cr_assert_not(ft_summary_no_progress("{\"verified\":true}")); /* older */
  cr_assert_not(ft_summary_no_progress(
      "{\"app\":\"\\\"outcome\\\":\\\"no_progress\\\"\"}"));
  cr_assert_not(ft_summary_no_progress("{\"outcome\":\"no_progress\""));
}
