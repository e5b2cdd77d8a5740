/* Unit tests of the FTSIM_OPTIONS parser (sim/options.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "options.h"

static struct ft_options o;
static char err[256];

Test(options, empty_text_gives_the_defaults) {
  cr_assert_eq(ft_options_parse(NULL, &o, err, sizeof err), 0);
  cr_assert_str_eq(o.protocol, "none");
  cr_assert_eq(o.service_ranks, 0);
  cr_assert_eq(ft_options_parse("", &o, err, sizeof err), 0);
  cr_assert_str_eq(o.protocol, "none");
}

Test(options, reads_every_known_key) {
  cr_assert_eq(
      ft_options_parse("protocol=none,service_ranks=3", &o, err, sizeof err), 0,
      "%s", err);
  cr_assert_str_eq(o.protocol, "none");
  cr_assert_eq(o.service_ranks, 3);
}

Test(options, later_entries_override_earlier_ones) {
  cr_assert_eq(
      ft_options_parse("service_ranks=1,service_ranks=2", &o, err, sizeof err),
      0);
  cr_assert_eq(o.service_ranks, 2);
}

Test(options, unknown_protocol_names_the_field_and_the_known_ones) {
  cr_assert_eq(
      ft_options_parse("service_ranks=1,protocol=pcll", &o, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "field 2 'protocol=pcll': unknown protocol 'pcll' "
                        "(known: none)");
}

Test(options, unknown_key_is_an_error) {
  cr_assert_eq(ft_options_parse("period=30", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'period=30': unknown key 'period' (known: "
                        "protocol, service_ranks)");
}

Test(options, negative_or_malformed_counts_are_errors) {
  const char *bad[] = {"service_ranks=-1", "service_ranks=2x",
                       "service_ranks=", "service_ranks=99999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(ft_options_parse(bad[i], &o, err, sizeof err), -1, "%s",
                 bad[i]);
    cr_assert(strstr(err, "service_ranks must be an integer in [0, 4096]"),
              "%s -> %s", bad[i], err);
  }
}

Test(options, entry_without_equals_is_an_error) {
  cr_assert_eq(ft_options_parse("protocol", &o, err, sizeof err), -1);
  cr_assert_str_eq(err, "field 1 'protocol': expected key=value");
  cr_assert_eq(ft_options_parse("=none", &o, err, sizeof err), -1);
}

Test(options, overlong_text_is_an_error_not_a_truncation) {
  char text[2048];
  memset(text, 'a', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  cr_assert_eq(ft_options_parse(text, &o, err, sizeof err), -1);
  cr_assert(strstr(err, "options longer than 1023 bytes"), "%s", err);
}

Test(options, a_failed_parse_leaves_no_partial_state_behind) {
  ft_options_parse("service_ranks=5,bogus=1", &o, err, sizeof err);
  cr_assert_eq(ft_options_parse("", &o, err, sizeof err), 0);
  cr_assert_eq(o.service_ranks, 0);
}
