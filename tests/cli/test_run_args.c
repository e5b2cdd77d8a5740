/* Unit tests of `ftsim run` argument parsing and the FTSIM_OPTIONS text. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "run_args.h"

static char err[1280];

/* Parses a NULL-terminated word list; returns ft_run_args_parse's result. */
static int parse(struct ft_run_args *a, char **words) {
  int n = 0;
  while (words[n])
    n++;
  err[0] = '\0';
  return ft_run_args_parse(n, words, a, err, sizeof err);
}

#define PARSE_FAILS(msg, ...)                                                  \
  do {                                                                         \
    char *w[] = {__VA_ARGS__, NULL};                                           \
    struct ft_run_args a;                                                      \
    cr_assert_eq(parse(&a, w), -1);                                            \
    cr_assert_str_eq(err, msg);                                                \
    ft_run_args_free(&a);                                                      \
  } while (0)

Test(cli_run_args, defaults) {
  char *w[] = {NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0);
  cr_assert_str_eq(a.platform, "gige");
  cr_assert_str_eq(a.app, "cg");
  cr_assert_str_eq(a.protocol, "none");
  cr_assert_eq(a.np, 16);
  cr_assert_eq(a.service_ranks, 0);
  cr_assert(!a.dry_run && !a.real && !a.help && !a.platform_given);
  cr_assert_null(a.hostfile_out);
  cr_assert_null(a.scenario);
  cr_assert_eq(a.nsets, 0);
  cr_assert_eq(a.napp_args, 0);
  ft_run_args_free(&a);
}

Test(cli_run_args, every_flag) {
  char *w[] = {"--platform", "myrinet", "--np",
               "64",         "--app",   "lu",
               "--protocol", "pcl",     "--service-ranks",
               "2",          "--set",   "a=1",
               "--dry-run",  "--real",  "--hostfile-out",
               "h.txt",      "--set",   "b=2",
               "--scenario", "s.txt",   NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0, "%s", err);
  cr_assert_str_eq(a.platform, "myrinet");
  cr_assert(a.platform_given);
  cr_assert_eq(a.np, 64);
  cr_assert_str_eq(a.app, "lu");
  cr_assert_str_eq(a.protocol, "pcl");
  cr_assert_eq(a.service_ranks, 2);
  cr_assert(a.dry_run && a.real);
  cr_assert_str_eq(a.hostfile_out, "h.txt");
  cr_assert_str_eq(a.scenario, "s.txt");
  cr_assert_eq(a.nsets, 2);
  cr_assert_str_eq(a.sets[0], "a=1");
  cr_assert_str_eq(a.sets[1], "b=2");
  ft_run_args_free(&a);
}

Test(cli_run_args, equals_form) {
  char *w[] = {"--np=8", "--platform=x/y.xml", "--set=k=v", NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0, "%s", err);
  cr_assert_eq(a.np, 8);
  cr_assert_str_eq(a.platform, "x/y.xml");
  cr_assert_str_eq(a.sets[0], "k=v");
  ft_run_args_free(&a);
}

Test(cli_run_args, app_args_after_dashes) {
  char *w[] = {"--np", "4", "--", "--np", "x y", NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0, "%s", err);
  cr_assert_eq(a.np, 4);
  cr_assert_eq(a.napp_args, 2);
  cr_assert_str_eq(a.app_args[0], "--np");
  cr_assert_str_eq(a.app_args[1], "x y");
  ft_run_args_free(&a);
}

Test(cli_run_args, help) {
  char *w[] = {"--np", "4", "-h", NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0);
  cr_assert(a.help);
  ft_run_args_free(&a);
}

Test(cli_run_args, np_not_an_integer) {
  PARSE_FAILS("--np: expected an integer from 1 to 1048576, got 'abc'", "--np",
              "abc");
}

Test(cli_run_args, np_trailing_garbage) {
  PARSE_FAILS("--np: expected an integer from 1 to 1048576, got '4x'",
              "--np=4x");
}

Test(cli_run_args, np_zero) {
  PARSE_FAILS("--np: expected an integer from 1 to 1048576, got '0'", "--np",
              "0");
}

Test(cli_run_args, np_too_large) {
  PARSE_FAILS("--np: expected an integer from 1 to 1048576, got '99999999999'",
              "--np", "99999999999");
}

Test(cli_run_args, service_ranks_negative) {
  PARSE_FAILS("--service-ranks: expected an integer >= 0, got '-1'",
              "--service-ranks", "-1");
}

Test(cli_run_args, service_ranks_not_an_integer) {
  PARSE_FAILS("--service-ranks: expected an integer >= 0, got 'two'",
              "--service-ranks", "two");
}

Test(cli_run_args, missing_value_at_end) {
  PARSE_FAILS("--platform: missing value", "--platform");
}

Test(cli_run_args, missing_value_before_flag) {
  PARSE_FAILS("--app: missing value", "--app", "--np", "4");
}

Test(cli_run_args, empty_value) { PARSE_FAILS("--app: empty value", "--app="); }

Test(cli_run_args, unknown_option) {
  PARSE_FAILS("unknown option '--bogus'", "--bogus");
}

Test(cli_run_args, unknown_option_with_value) {
  PARSE_FAILS("unknown option '--colour=red'", "--colour=red");
}

Test(cli_run_args, unexpected_argument) {
  PARSE_FAILS("unexpected argument 'extra' (arguments for the app go after "
              "--)",
              "--np", "4", "extra");
}

Test(cli_run_args, set_without_equals) {
  PARSE_FAILS("--set: expected key=value, got 'oops'", "--set", "oops");
}

Test(cli_run_args, set_without_key) {
  PARSE_FAILS("--set: expected key=value, got '=1'", "--set", "=1");
}

Test(cli_run_args, set_with_comma) {
  PARSE_FAILS("--set: one key=value per --set, got 'a=1,b=2'", "--set",
              "a=1,b=2");
}

Test(cli_run_args, protocol_with_comma) {
  PARSE_FAILS("--protocol: expected one protocol name, got 'none,x=1'",
              "--protocol", "none,x=1");
}

Test(cli_run_args, scenario_missing_value) {
  PARSE_FAILS("--scenario: missing value", "--scenario");
}

Test(cli_run_args, switch_with_value) {
  PARSE_FAILS("--dry-run: takes no value", "--dry-run=yes");
}

/* Builds the options text for the given words; returns its result. */
static int options(char **words, char *text, size_t len, struct ft_options *o) {
  struct ft_run_args a;
  cr_assert_eq(parse(&a, words), 0, "%s", err);
  int rc = ft_run_args_options(&a, text, len, o, err, sizeof err);
  ft_run_args_free(&a);
  return rc;
}

Test(cli_run_options, defaults) {
  char *w[] = {NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), 0, "%s", err);
  cr_assert_str_eq(text, "protocol=none,service_ranks=0");
  cr_assert_str_eq(o.protocol, "none");
  cr_assert_eq(o.service_ranks, 0);
}

Test(cli_run_options, sets_appended_in_order) {
  char *w[] = {"--service-ranks", "1", "--set", "service_ranks=3", "--set",
               "protocol=none",   NULL};
  char text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), 0, "%s", err);
  cr_assert_str_eq(text, "protocol=none,service_ranks=1,service_ranks=3,"
                         "protocol=none");
  cr_assert_eq(o.service_ranks, 3, "the last value wins");
}

/* What ft_options_parse says about `entry` alone, without its
 * "field 1 'entry': " prefix, after "FLAG SHOWN: ". The options module's
 * wording and its lists of known names are not this test's business. */
static void expect_blame(const char *flag, const char *shown,
                         const char *entry) {
  char msg[1024], want[1280];
  struct ft_options o;
  cr_assert_eq(ft_options_parse(entry, &o, msg, sizeof msg), -1);
  const char *why = strstr(msg, "': ");
  snprintf(want, sizeof want, "%s %s: %s", flag, shown, why ? why + 3 : msg);
  cr_assert_str_eq(err, want);
}

Test(cli_run_options, unknown_protocol_names_it) {
  char *w[] = {"--protocol", "bogus", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert(strncmp(err, "--protocol bogus: unknown protocol 'bogus'", 42) == 0,
            "%s", err);
  expect_blame("--protocol", "bogus", "protocol=bogus");
}

Test(cli_run_options, unknown_set_key) {
  char *w[] = {"--set", "colour=red", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert(strncmp(err, "--set colour=red: unknown key 'colour'", 38) == 0,
            "%s", err);
  expect_blame("--set", "colour=red", "colour=red");
}

Test(cli_run_options, bad_set_value) {
  char *w[] = {"--set", "service_ranks=x", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  expect_blame("--set", "service_ranks=x", "service_ranks=x");
}

Test(cli_run_options, service_ranks_out_of_range) {
  char *w[] = {"--service-ranks", "5000", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  expect_blame("--service-ranks", "5000", "service_ranks=5000");
}

Test(cli_run_options, text_too_long) {
  char *w[] = {"--set", "protocol=none", NULL}, text[40];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert_str_eq(err, "--set protocol=none: options text longer than 39 "
                        "bytes");
}

Test(cli_run_options, scenario_after_service_ranks_before_sets) {
  char *w[] = {"--set",      "period=2",   "--protocol", "pcl",
               "--scenario", "/abs/s.txt", NULL};
  char text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), 0, "%s", err);
  cr_assert_str_eq(text, "protocol=pcl,service_ranks=1,scenario=/abs/s.txt,"
                         "period=2");
  cr_assert_str_eq(o.scenario, "/abs/s.txt");
  cr_assert_eq(o.period, 2.0);
}

Test(cli_run_options, trace_after_scenario_before_sets) {
  char *w[] = {"--set",  "period=2",   "--protocol", "pcl", "--trace",
               "/tmp/t", "--scenario", "/abs/s.txt", NULL};
  char text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), 0, "%s", err);
  cr_assert_str_eq(text, "protocol=pcl,service_ranks=1,scenario=/abs/s.txt,"
                         "trace=/tmp/t,period=2");
  cr_assert_str_eq(o.trace, "/tmp/t");
}

Test(cli_run_options, trace_path_with_comma) {
  char *w[] = {"--trace", "/a,b/t", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert_str_eq(err, "--trace /a,b/t: FTSIM_OPTIONS cannot carry a path "
                        "with a comma");
}

Test(cli_run_options, scenario_path_with_comma) {
  char *w[] = {"--protocol", "pcl", "--scenario", "/a,b/s.txt", NULL},
       text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert_str_eq(err, "--scenario /a,b/s.txt: FTSIM_OPTIONS cannot carry a "
                        "path with a comma");
}

Test(cli_run_options, scenario_path_too_long) {
  char path[600];
  memset(path, 'x', sizeof path);
  path[0] = '/';
  path[sizeof path - 1] = '\0';
  char *w[] = {"--scenario", path, NULL}, text[1024];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  cr_assert(strncmp(err, "--scenario /xxx", 15) == 0, "%s", err);
}

Test(cli_run_options, negative_period_rejected) {
  char *w[] = {"--set", "period=-1", NULL}, text[256];
  struct ft_options o;
  cr_assert_eq(options(w, text, sizeof text, &o), -1);
  expect_blame("--set", "period=-1", "period=-1");
  cr_assert(strncmp(err, "--set period=-1: period must be", 31) == 0, "%s",
            err);
}

/* Issue 14, item 3: --compute, --host-speed, --cfg and smpirun's -np. */
Test(cli_run_args, compute_host_speed_cfg_and_np) {
  char *w[] = {"-np",
               "3",
               "--compute",
               "measured",
               "--host-speed=2.5e9",
               "--cfg",
               "smpi/cpu-threshold:1e-3",
               "--cfg=a/b:c",
               NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0, "%s", err);
  cr_assert_eq(a.np, 3);
  cr_assert_eq(a.compute, FT_COMPUTE_MEASURED);
  cr_assert_float_eq(a.host_speed, 2.5e9, 1);
  cr_assert_eq(a.ncfgs, 2);
  cr_assert_str_eq(a.cfgs[0], "smpi/cpu-threshold:1e-3");
  cr_assert_str_eq(a.cfgs[1], "a/b:c");
  ft_run_args_free(&a);
}

Test(cli_run_args, compute_defaults_to_auto) {
  char *w[] = {NULL};
  struct ft_run_args a;
  cr_assert_eq(parse(&a, w), 0);
  cr_assert_eq(a.compute, FT_COMPUTE_AUTO);
  cr_assert_eq(a.host_speed, 0);
  cr_assert_eq(a.ncfgs, 0);
  ft_run_args_free(&a);
}

Test(cli_run_args, compute_unknown_mode) {
  PARSE_FAILS("--compute: expected auto, modelled or measured, got 'fast'",
              "--compute", "fast");
}

Test(cli_run_args, host_speed_not_positive) {
  PARSE_FAILS("--host-speed: expected flop/s > 0 (e.g. 2.5e9), got '0'",
              "--host-speed", "0");
  PARSE_FAILS("--host-speed: expected flop/s > 0 (e.g. 2.5e9), got '1Gf'",
              "--host-speed", "1Gf");
}

Test(cli_run_args, cfg_malformed) {
  PARSE_FAILS("--cfg: expected KEY:VALUE (a SimGrid option, e.g. "
              "smpi/cpu-threshold:1e-3), got 'smpi/cpu-threshold'",
              "--cfg", "smpi/cpu-threshold");
  PARSE_FAILS("--cfg: expected KEY:VALUE (a SimGrid option, e.g. "
              "smpi/cpu-threshold:1e-3), got ':1'",
              "--cfg", ":1");
  PARSE_FAILS("--cfg: expected KEY:VALUE (a SimGrid option, e.g. "
              "smpi/cpu-threshold:1e-3), got 'a b:c'",
              "--cfg", "a b:c");
  PARSE_FAILS("--cfg: expected KEY:VALUE (a SimGrid option, e.g. "
              "smpi/cpu-threshold:1e-3), got 'key:'",
              "--cfg", "key:");
}
