/* Unit tests of host enumeration: number-aware order, and SimGrid loading
 * the test platforms (tests/cli/platforms). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "platform_hosts.h"

static char err[1024];

Test(cli_host_order, numbers_compare_as_numbers) {
  cr_assert_lt(ft_host_name_cmp("gdx-2", "gdx-10"), 0);
  cr_assert_gt(ft_host_name_cmp("gdx-100", "gdx-99"), 0);
  cr_assert_eq(ft_host_name_cmp("gdx-7", "gdx-7"), 0);
}

Test(cli_host_order, text_compares_as_text) {
  cr_assert_lt(ft_host_name_cmp("bordeaux-9", "lille-1"), 0);
  cr_assert_lt(ft_host_name_cmp("gdx-216", "gdx-service-1"), 0);
  cr_assert_lt(ft_host_name_cmp("gdx", "gdx-1"), 0);
}

Test(cli_host_order, leading_zeros_break_ties_only) {
  cr_assert_lt(ft_host_name_cmp("n-01", "n-2"), 0);
  cr_assert_neq(ft_host_name_cmp("n-01", "n-1"), 0);
}

Test(cli_host_order, sorts_a_list) {
  struct ft_strv v = FT_STRV_INIT;
  const char *in[] = {"a-10", "a-service-2", "a-2", "a-1", "a-service-1"};
  for (size_t i = 0; i < 5; i++)
    ft_strv_push(&v, in[i]);
  ft_strv_sort(&v, ft_host_name_cmp);
  const char *want[] = {"a-1", "a-2", "a-10", "a-service-1", "a-service-2"};
  for (size_t i = 0; i < 5; i++)
    cr_assert_str_eq(v.items[i], want[i]);
  ft_strv_free(&v);
}

Test(cli_platform_hosts, tiny_in_number_order) {
  struct ft_strv v = FT_STRV_INIT;
  cr_assert_eq(ft_platform_hosts_load(FT_TEST_PLATFORMS "/tiny.xml", &v, err,
                                      sizeof err),
               0, "%s", err);
  cr_assert_eq(v.count, 14);
  for (size_t i = 0; i < 12; i++) {
    char want[32];
    snprintf(want, sizeof want, "node-%zu", i + 1);
    cr_assert_str_eq(v.items[i], want);
  }
  cr_assert_str_eq(v.items[12], "node-service-1");
  cr_assert_str_eq(v.items[13], "node-service-2");
  ft_strv_free(&v);
}

Test(cli_platform_hosts, missing_file) {
  struct ft_strv v = FT_STRV_INIT;
  cr_assert_eq(
      ft_platform_hosts_load("/nonexistent/p.xml", &v, err, sizeof err), -1);
  cr_assert_str_eq(err, "cannot read platform file '/nonexistent/p.xml': No "
                        "such file or directory");
  cr_assert_eq(v.count, 0);
}

Test(cli_platform_hosts, file_simgrid_rejects) {
  struct ft_strv v = FT_STRV_INIT;
  const char *path = FT_TEST_PLATFORMS "/broken.xml";
  char want[1024];
  cr_assert_eq(ft_platform_hosts_load(path, &v, err, sizeof err), -1);
  snprintf(want, sizeof want,
           "SimGrid could not load platform file '%s' (its messages are "
           "above)",
           path);
  cr_assert_str_eq(err, want);
  cr_assert_eq(v.count, 0);
}

/* Storage (README, "Checkpoint storage"): the hosts without a <disk>. */
Test(cli_platform_hosts, lists_hosts_without_a_disk) {
  struct ft_strv v = FT_STRV_INIT, bare = FT_STRV_INIT;
  cr_assert_eq(ft_platform_hosts_load_disks(FT_TEST_PLATFORMS "/somedisks.xml",
                                            &v, &bare, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(v.count, 3);
  cr_assert_str_eq(v.items[1], "node-2");
  cr_assert_eq(bare.count, 1);
  cr_assert_str_eq(bare.items[0], "node-2");
  ft_strv_free(&v);
  ft_strv_free(&bare);
}

Test(cli_platform_hosts, tiny_has_no_disk) {
  struct ft_strv v = FT_STRV_INIT, bare = FT_STRV_INIT;
  cr_assert_eq(ft_platform_hosts_load_disks(FT_TEST_PLATFORMS "/tiny.xml", &v,
                                            &bare, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(bare.count, v.count);
  ft_strv_free(&v);
  ft_strv_free(&bare);
}
