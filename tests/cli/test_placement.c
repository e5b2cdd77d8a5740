/* Unit tests of rank placement (hosts -> hostfile). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

static char err[512];

/* c-1 .. c-4, then s-service-1, -2 (the order the list is filled in). */
static const char *const hosts[] = {"c-1", "c-2",         "c-3",
                                    "c-4", "s-service-1", "s-service-2"};
#define NHOSTS (sizeof hosts / sizeof hosts[0])

static void expect_hosts(const struct ft_placement *p, const char *const *want,
                         size_t n) {
  cr_assert_eq(p->ranks, n);
  for (size_t r = 0; r < n; r++)
    cr_assert_str_eq(p->rank_host[r], want[r], "rank %zu", r);
}

Test(cli_placement, service_host_names) {
  cr_assert(ft_placement_is_service("gdx-service-1"));
  cr_assert(!ft_placement_is_service("gdx-1"));
  cr_assert(!ft_placement_is_service("service-1"));
}

Test(cli_placement, one_rank_per_host) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 3, 0, &p, err, sizeof err), 0);
  const char *want[] = {"c-1", "c-2", "c-3"};
  expect_hosts(&p, want, 3);
  cr_assert_eq(p.per_host, 1);
  cr_assert_eq(p.compute_used, 3);
  cr_assert_eq(p.compute_hosts, 4);
  cr_assert_eq(p.service_hosts, 2);
  ft_placement_free(&p);
}

Test(cli_placement, every_host_once) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 4, 0, &p, err, sizeof err), 0);
  const char *want[] = {"c-1", "c-2", "c-3", "c-4"};
  expect_hosts(&p, want, 4);
  ft_placement_free(&p);
}

Test(cli_placement, more_ranks_than_hosts_go_consecutive) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 5, 0, &p, err, sizeof err), 0);
  /* ceil(5 / 4) = 2 consecutive ranks per host */
  const char *want[] = {"c-1", "c-1", "c-2", "c-2", "c-3"};
  expect_hosts(&p, want, 5);
  cr_assert_eq(p.per_host, 2);
  cr_assert_eq(p.compute_used, 3);
  ft_placement_free(&p);
}

Test(cli_placement, twice_the_hosts) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 8, 0, &p, err, sizeof err), 0);
  const char *want[] = {"c-1", "c-1", "c-2", "c-2", "c-3", "c-3", "c-4", "c-4"};
  expect_hosts(&p, want, 8);
  ft_placement_free(&p);
}

Test(cli_placement, three_per_host) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 9, 0, &p, err, sizeof err), 0);
  const char *want[] = {"c-1", "c-1", "c-1", "c-2", "c-2",
                        "c-2", "c-3", "c-3", "c-3"};
  expect_hosts(&p, want, 9);
  cr_assert_eq(p.per_host, 3);
  ft_placement_free(&p);
}

/* ranks_per_node=2 (the papers' dual-processor nodes): 3 ranks on 4 hosts
 * still share hosts, two by two, instead of one per host. */
Test(cli_placement, packed_two_per_node) {
  struct ft_placement p;
  cr_assert_eq(
      ft_placement_build_packed(hosts, NHOSTS, 3, 1, 2, &p, err, sizeof err),
      0);
  const char *want[] = {"c-1", "c-1", "c-2", "s-service-1"};
  expect_hosts(&p, want, 4);
  cr_assert_eq(p.per_host, 2);
  cr_assert_eq(p.compute_used, 2);
  ft_placement_free(&p);
}

Test(cli_placement, packed_zero_is_the_default) {
  struct ft_placement p;
  cr_assert_eq(
      ft_placement_build_packed(hosts, NHOSTS, 5, 0, 0, &p, err, sizeof err),
      0);
  const char *want[] = {"c-1", "c-1", "c-2", "c-2", "c-3"};
  expect_hosts(&p, want, 5);
  ft_placement_free(&p);
}

Test(cli_placement, packed_needs_enough_hosts) {
  struct ft_placement p;
  cr_assert_eq(
      ft_placement_build_packed(hosts, NHOSTS, 9, 0, 2, &p, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "ranks_per_node=2: 9 ranks need 5 compute hosts, the "
                        "platform has 4");
  ft_placement_free(&p);
}

Test(cli_placement, service_ranks_round_robin) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 2, 3, &p, err, sizeof err), 0);
  const char *want[] = {"c-1", "c-2", "s-service-1", "s-service-2",
                        "s-service-1"};
  expect_hosts(&p, want, 5);
  ft_placement_free(&p);
}

Test(cli_placement, service_hosts_anywhere_in_the_list) {
  const char *const mixed[] = {"a-service-1", "a-1", "b-service-1", "b-1"};
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(mixed, 4, 2, 2, &p, err, sizeof err), 0);
  const char *want[] = {"a-1", "b-1", "a-service-1", "b-service-1"};
  expect_hosts(&p, want, 4);
  ft_placement_free(&p);
}

Test(cli_placement, no_service_host) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, 4, 2, 2, &p, err, sizeof err), -1);
  cr_assert_str_eq(err, "2 service ranks need service hosts, but no host name "
                        "contains \"-service-\"");
  ft_placement_free(&p);
}

Test(cli_placement, no_service_host_one_rank) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, 4, 2, 1, &p, err, sizeof err), -1);
  cr_assert_str_eq(err, "1 service rank needs service hosts, but no host name "
                        "contains \"-service-\"");
  ft_placement_free(&p);
}

Test(cli_placement, no_service_host_needed_without_service_ranks) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, 4, 2, 0, &p, err, sizeof err), 0);
  ft_placement_free(&p);
}

Test(cli_placement, no_compute_host) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts + 4, 2, 1, 0, &p, err, sizeof err), -1);
  cr_assert_str_eq(err,
                   "no compute hosts (every host name contains \"-service-\")");
  ft_placement_free(&p);
}

Test(cli_placement, no_host_at_all) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, 0, 1, 0, &p, err, sizeof err), -1);
  cr_assert_str_eq(err, "no hosts");
  ft_placement_free(&p);
}

/* Runs `fn` on the placement and returns what it wrote (free it). */
static char *capture(const struct ft_placement *p,
                     void (*fn)(const struct ft_placement *, FILE *)) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  fn(p, out);
  fclose(out);
  return text;
}

static void write_it(const struct ft_placement *p, FILE *out) {
  cr_assert_eq(ft_placement_write(p, out), 0);
}

Test(cli_placement, hostfile_one_host_per_line) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 5, 1, &p, err, sizeof err), 0);
  char *text = capture(&p, write_it);
  cr_assert_str_eq(text, "c-1\nc-1\nc-2\nc-2\nc-3\ns-service-1\n");
  free(text);
  ft_placement_free(&p);
}

Test(cli_placement, describe) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 5, 3, &p, err, sizeof err), 0);
  char *text = capture(&p, ft_placement_describe);
  cr_assert_str_eq(text,
                   "# ranks 0-4: 3 compute hosts c-1 .. c-3, up to 2 ranks "
                   "per host\n"
                   "#   (4 compute hosts in the platform)\n"
                   "# service ranks 5-7: round-robin on s-service-1, "
                   "s-service-2 (2 service hosts in the platform)\n");
  free(text);
  ft_placement_free(&p);
}

Test(cli_placement, describe_one_rank) {
  struct ft_placement p;
  cr_assert_eq(ft_placement_build(hosts, NHOSTS, 1, 0, &p, err, sizeof err), 0);
  char *text = capture(&p, ft_placement_describe);
  cr_assert_str_eq(text, "# rank 0: 1 compute host c-1, 1 rank per host\n"
                         "#   (4 compute hosts in the platform)\n"
                         "# no service ranks\n");
  free(text);
  ft_placement_free(&p);
}

/* service_placement=shared: the service ranks go to the compute hosts that
 * received ranks, from the last one backwards, and need no service host. */
Test(cli_placement, services_on_compute_hosts) {
  struct ft_placement p;
  struct ft_placement_ask a = {
      .np = 3, .service_ranks = 3, .services_on_compute = true};
  cr_assert_eq(ft_placement_build_asked(hosts, NHOSTS, &a, &p, err, sizeof err),
               0, "%s", err);
  const char *want[] = {"c-1", "c-2", "c-3", "c-3", "c-2", "c-1"};
  expect_hosts(&p, want, 6);
  cr_assert(p.services_on_compute);
  ft_placement_free(&p);
  const char *const compute_only[] = {"c-1", "c-2"};
  cr_assert_eq(
      ft_placement_build_asked(compute_only, 2, &a, &p, err, sizeof err), 0,
      "%s", err);
  const char *want2[] = {"c-1", "c-1", "c-2", "c-2", "c-1", "c-2"};
  expect_hosts(&p, want2, 6);
  ft_placement_free(&p);
  a.services_on_compute = false; /* own: the service hosts are required */
  cr_assert_eq(
      ft_placement_build_asked(compute_only, 2, &a, &p, err, sizeof err), -1);
  cr_assert(strstr(err, "need service hosts"), "%s", err);
  ft_placement_free(&p);
}
