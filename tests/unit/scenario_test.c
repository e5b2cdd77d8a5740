/* Unit tests of failure scenarios (sim/scenario.c): the parser, its
 * messages, the check against --np, and the failure stream. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"

static struct ft_scenario s;
static char err[512];

static void parse_ok(const char *text) {
  err[0] = '\0';
  cr_assert_eq(ft_scenario_parse(text, "t.txt", &s, err, sizeof err), 0, "%s",
               err);
}

/* Parsing `text` fails with exactly `msg` and leaves nothing to free. */
static void parse_fails(const char *text, const char *msg) {
  cr_assert_eq(ft_scenario_parse(text, "t.txt", &s, err, sizeof err), -1,
               "accepted: %s", text);
  cr_assert_str_eq(err, msg);
  cr_assert_null(s.fails);
  cr_assert_eq(s.nfails, 0);
}

/* Reads `n` failures of `sc` for `ranks` ranks into `out`; returns how many
 * came before the stream ended. */
static size_t drain(const struct ft_scenario *sc, int ranks,
                    struct ft_failure *out, size_t n) {
  struct ft_failure_stream st;
  ft_failures_start(&st, sc, ranks);
  size_t i = 0;
  while (i < n && ft_failures_next(&st, &out[i]))
    i++;
  return i;
}

Test(scenario, empty_text_gives_the_defaults) {
  parse_ok("");
  cr_assert_str_eq(s.name, "t.txt");
  cr_assert_eq(s.seed, 1);
  cr_assert_eq(s.detection_s, 0.0);
  cr_assert_eq(s.restart_s, 0.0);
  cr_assert_eq(s.dist, FT_DIST_NONE);
  cr_assert_eq(s.max_failures, -1);
  cr_assert(isinf(s.until_s));
  cr_assert_eq(s.nfails, 0);
  struct ft_failure f;
  cr_assert_eq(drain(&s, 8, &f, 1), 0);
  ft_scenario_free(&s);
  ft_scenario_free(&s); /* twice is harmless */
  cr_assert_eq(ft_scenario_parse(NULL, NULL, &s, err, sizeof err), 0);
  cr_assert_str_eq(s.name, "scenario");
}

Test(scenario, reads_every_directive) {
  parse_ok("seed 18446744073709551615\n"
           "detection 0.5\n"
           "restart 2\n"
           "fail 3 at 12.5\n"
           "exponential 120\n"
           "max_failures 10\n"
           "until 500\n");
  cr_assert_eq(s.seed, UINT64_MAX);
  cr_assert_eq(s.detection_s, 0.5);
  cr_assert_eq(s.restart_s, 2.0);
  cr_assert_eq(s.nfails, 1);
  cr_assert_eq(s.fails[0].rank, 3);
  cr_assert_eq(s.fails[0].time, 12.5);
  cr_assert_eq(s.fails[0].line, 4);
  cr_assert_eq(s.dist, FT_DIST_EXPONENTIAL);
  cr_assert_eq(s.mean_s, 120.0);
  cr_assert_eq(s.max_failures, 10);
  cr_assert_eq(s.until_s, 500.0);
  ft_scenario_free(&s);
  parse_ok("weibull 0.7 100\nseed 0\nmax_failures 0\nuntil 0\n");
  cr_assert_eq(s.dist, FT_DIST_WEIBULL);
  cr_assert_eq(s.shape, 0.7);
  cr_assert_eq(s.scale_s, 100.0);
  cr_assert_eq(s.seed, 0);
  cr_assert_eq(s.max_failures, 0);
  cr_assert_eq(s.until_s, 0.0);
  ft_scenario_free(&s);
}

Test(scenario, comments_blanks_tabs_and_crlf) {
  parse_ok("# a comment\n"
           "\n"
           "   \t \n"
           "\tdetection\t 1e-3   # trailing comment\r\n"
           "#fail 9 at 1\n"
           "fail 2 at 0.25# no blank before the comment\r\n"
           "restart 0.01"); /* no final newline */
  cr_assert_eq(s.detection_s, 1e-3);
  cr_assert_eq(s.restart_s, 0.01);
  cr_assert_eq(s.nfails, 1);
  cr_assert_eq(s.fails[0].rank, 2);
  cr_assert_eq(s.fails[0].line, 6);
  ft_scenario_free(&s);
}

Test(scenario, long_comments_are_fine) {
  char text[5000];
  memset(text, 'x', sizeof text);
  memcpy(text, "fail 1 at 2 #", 13);
  text[sizeof text - 1] = '\0';
  parse_ok(text);
  cr_assert_eq(s.nfails, 1);
  ft_scenario_free(&s);
}

Test(scenario, explicit_failures_sorted_by_time_then_file_order) {
  parse_ok("fail 5 at 3\nfail 1 at 1\nfail 2 at 3\nfail 0 at 0\nfail 7 at 1\n");
  int ranks[] = {0, 1, 7, 5, 2};
  double times[] = {0, 1, 1, 3, 3};
  cr_assert_eq(s.nfails, 5);
  for (size_t i = 0; i < 5; i++) {
    cr_assert_eq(s.fails[i].rank, ranks[i], "failure %zu", i);
    cr_assert_eq(s.fails[i].time, times[i], "failure %zu", i);
  }
  ft_scenario_free(&s);
}

Test(scenario_errors, unknown_directive) {
  parse_fails("seed 1\nfial 3 at 2\n",
              "t.txt:2: unknown directive 'fial' (known: seed, detection, "
              "restart, fail, exponential, weibull, max_failures, until)");
}

Test(scenario_errors, negative_time) {
  parse_fails(
      "# bad\n\nseed 4\nfail 1 at -3\n",
      "t.txt:4: field 'at': time must be a number of seconds in [0, 1e9], got "
      "'-3' (out of range)");
}

Test(scenario_errors, times_must_be_finite_numbers) {
  parse_fails(
      "fail 1 at 1x",
      "t.txt:1: field 'at': time must be a number of seconds in [0, 1e9], got "
      "'1x' (not a decimal number)");
  parse_fails(
      "detection nan",
      "t.txt:1: field 'detection': time must be a number of seconds in [0, "
      "1e9], got 'nan' (not a decimal number)");
  parse_fails(
      "restart inf",
      "t.txt:1: field 'restart': time must be a number of seconds in [0, "
      "1e9], got 'inf' (not a decimal number)");
  parse_fails(
      "until 1e999",
      "t.txt:1: field 'until': time must be a number of seconds in [0, 1e9], "
      "got '1e999' (out of range)");
  parse_fails(
      "until -0.5",
      "t.txt:1: field 'until': time must be a number of seconds in [0, 1e9], "
      "got '-0.5' (out of range)");
}

Test(scenario_errors, bad_rank) {
  parse_fails("fail -1 at 2",
              "t.txt:1: field 'rank': rank must be an integer >= 0, got '-1'");
  parse_fails("fail 1.5 at 2",
              "t.txt:1: field 'rank': rank must be an integer >= 0, got "
              "'1.5'");
  parse_fails("fail 99999999999 at 2",
              "t.txt:1: field 'rank': rank must be an integer >= 0, got "
              "'99999999999'");
}

Test(scenario_errors, fail_without_at) {
  parse_fails("fail 1 after 2",
              "t.txt:1: field 'fail': expected 'at' after the rank (fail RANK "
              "at TIME), got 'after'");
}

Test(scenario_errors, wrong_number_of_values) {
  parse_fails("fail 1 2", "t.txt:1: field 'fail': expected 3 values (fail "
                          "RANK at TIME), got 2");
  parse_fails("seed", "t.txt:1: field 'seed': expected 1 value (seed N), got "
                      "0");
  parse_fails("weibull 0.7",
              "t.txt:1: field 'weibull': expected 2 values (weibull SHAPE "
              "SCALE), got 1");
  parse_fails("until 1 2 3 4 5 6 7 8 9 10",
              "t.txt:1: field 'until': expected 1 value (until TIME), got 10");
}

Test(scenario_errors, bad_seed) {
  parse_fails("seed -1", "t.txt:1: field 'seed': seed must be an integer from "
                         "0 to 18446744073709551615, got '-1'");
  parse_fails("seed 18446744073709551616",
              "t.txt:1: field 'seed': seed must be an integer from 0 to "
              "18446744073709551615, got '18446744073709551616'");
  parse_fails("seed 0x10", "t.txt:1: field 'seed': seed must be an integer "
                           "from 0 to 18446744073709551615, got '0x10'");
  parse_fails("seed +3", "t.txt:1: field 'seed': seed must be an integer from "
                         "0 to 18446744073709551615, got '+3'");
}

Test(scenario_errors, distribution_parameters_must_be_positive) {
  parse_fails(
      "exponential 0",
      "t.txt:1: field 'exponential': mean must be a number > 0 and <= 1e9, "
      "got '0' (out of range)");
  parse_fails(
      "weibull -1 10",
      "t.txt:1: field 'shape': shape must be a number > 0, got '-1' (out of "
      "range)");
  parse_fails(
      "weibull 1 abc",
      "t.txt:1: field 'scale': scale must be a number > 0 and <= 1e9, got "
      "'abc' (not a decimal number)");
  parse_fails(
      "weibull 1 -inf",
      "t.txt:1: field 'scale': scale must be a number > 0 and <= 1e9, got "
      "'-inf' (not a decimal number)");
}

Test(scenario_errors, bad_max_failures) {
  parse_fails("max_failures -1",
              "t.txt:1: field 'max_failures': max_failures must be an integer "
              ">= 0, got '-1'");
  parse_fails("max_failures many",
              "t.txt:1: field 'max_failures': max_failures must be an integer "
              ">= 0, got 'many'");
}

Test(scenario_errors, two_distributions) {
  parse_fails("seed 1\n\nexponential 10\nweibull 0.7 100\n",
              "t.txt:4: field 'weibull': only one distribution per scenario "
              "(exponential on line 3)");
  parse_fails("weibull 0.7 100\nexponential 10\n",
              "t.txt:2: field 'exponential': only one distribution per "
              "scenario (weibull on line 1)");
  parse_fails("exponential 10\nexponential 10\n",
              "t.txt:2: field 'exponential': only one distribution per "
              "scenario (exponential on line 1)");
}

Test(scenario_errors, directive_given_twice) {
  parse_fails("seed 1\nrestart 1\nseed 2\n",
              "t.txt:3: field 'seed': given twice (first on line 1)");
  parse_fails("until 1\nuntil 1\n",
              "t.txt:2: field 'until': given twice (first on line 1)");
}

Test(scenario_errors, too_many_explicit_failures) {
  size_t n = FT_SCENARIO_MAX_FAILS + 1, len = 0, len_max = 0;
  char *text = malloc(n * 32);
  for (size_t i = 0; i < n; i++) {
    len_max = len;
    len += (size_t)sprintf(text + len, "fail %zu at %zu\n", i % 7, n - i);
  }
  parse_fails(text, "t.txt:4097: field 'fail': more than 4096 explicit "
                    "failures");
  text[len_max] = '\0'; /* drop the last line: exactly 4096 */
  parse_ok(text);
  cr_assert_eq(s.nfails, FT_SCENARIO_MAX_FAILS);
  for (size_t i = 1; i < s.nfails; i++)
    cr_assert_leq(s.fails[i - 1].time, s.fails[i].time);
  ft_scenario_free(&s);
  free(text);
}

Test(scenario_errors, line_too_long) {
  char text[1100];
  memset(text, ' ', sizeof text);
  memcpy(text, "seed 1\nrestart", 14);
  text[sizeof text - 2] = '1';
  text[sizeof text - 1] = '\0';
  parse_fails(text, "t.txt:2: line longer than 1023 bytes (comments "
                    "excepted)");
}

Test(scenario_errors, message_is_truncated_safely) {
  char small[12];
  cr_assert_eq(
      ft_scenario_parse("fail -1 at 2", "t.txt", &s, small, sizeof small), -1);
  cr_assert_str_eq(small, "t.txt:1: fi");
  cr_assert_eq(ft_scenario_parse("bogus", "t.txt", &s, NULL, 0), -1);
}

/* Writes `len` bytes of `text` into a new temporary file (name in `path`). */
static void write_temp(char *path, size_t pathlen, const char *text,
                       size_t len) {
  snprintf(path, pathlen, "%s/ftsim-scenario-XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, text, len), (ssize_t)len);
  close(fd);
}

Test(scenario_load, reads_a_file_and_names_it_in_messages) {
  char path[256], want[512];
  const char text[] = "restart 0.5\nfail 2 at 1\nfail 2 at oops\n";
  write_temp(path, sizeof path, text, sizeof text - 1);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), -1);
  snprintf(
      want, sizeof want,
      "%s:3: field 'at': time must be a number of seconds in [0, 1e9], got "
      "'oops' (not a decimal number)",
      path);
  cr_assert_str_eq(err, want);
  write_temp(path, sizeof path, text, 24);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(s.name, path);
  cr_assert_eq(s.restart_s, 0.5);
  cr_assert_eq(s.nfails, 1);
  ft_scenario_free(&s);
  unlink(path);
}

Test(scenario_load, missing_file) {
  cr_assert_eq(ft_scenario_load("/nonexistent/s.txt", &s, err, sizeof err), -1);
  cr_assert_str_eq(err, "/nonexistent/s.txt: cannot read: No such file or "
                        "directory");
}

Test(scenario_load, directory) {
  cr_assert_eq(ft_scenario_load("/", &s, err, sizeof err), -1);
  cr_assert_str_eq(err, "/: cannot read: Is a directory");
}

Test(scenario_load, nul_byte) {
  char path[256], want[512];
  write_temp(path, sizeof path, "seed 1\n\0x", 9);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), -1);
  snprintf(want, sizeof want, "%s: not a text file (NUL byte at offset 7)",
           path);
  cr_assert_str_eq(err, want);
  unlink(path);
}

Test(scenario_load, too_large) {
  char path[256], want[512];
  size_t n = FT_SCENARIO_MAX_BYTES + 1;
  char *text = malloc(n);
  memset(text, '\n', n);
  write_temp(path, sizeof path, text, n);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), -1);
  snprintf(want, sizeof want, "%s: larger than 1048576 bytes", path);
  cr_assert_str_eq(err, want);
  write_temp(path, sizeof path, text, n - 1);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), 0, "%s", err);
  unlink(path);
  free(text);
}

Test(scenario_check, ranks_must_be_inside_the_application) {
  parse_ok("fail 7 at 5\nfail 9 at 1\nfail 8 at 2\n");
  cr_assert_eq(ft_scenario_check(&s, 10, err, sizeof err), 0);
  cr_assert_eq(ft_scenario_check(&s, 8, err, sizeof err), -1);
  cr_assert_str_eq(err, "t.txt:2: field 'rank': rank 9 is outside the "
                        "application (8 ranks)");
  cr_assert_eq(ft_scenario_check(&s, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "t.txt:2: field 'rank': rank 9 is outside the "
                        "application (1 rank)");
  ft_scenario_free(&s);
  parse_ok("exponential 1\n"); /* drawn victims are always inside */
  cr_assert_eq(ft_scenario_check(&s, 1, err, sizeof err), 0);
  ft_scenario_free(&s);
}

Test(scenario_stream, explicit_only_in_time_order) {
  parse_ok("fail 2 at 0.3\nfail 1 at 0.05\nfail 3 at 0.15\n");
  struct ft_failure f[4];
  cr_assert_eq(drain(&s, 4, f, 4), 3);
  cr_assert(f[0].rank == 1 && f[0].time == 0.05);
  cr_assert(f[1].rank == 3 && f[1].time == 0.15);
  cr_assert(f[2].rank == 2 && f[2].time == 0.3);
  ft_scenario_free(&s);
}

Test(scenario_stream, explicit_and_drawn_merged_explicit_first_on_ties) {
  parse_ok("seed 5\nexponential 10\nmax_failures 6\n");
  struct ft_failure drawn[8];
  cr_assert_eq(drain(&s, 16, drawn, 8), 6);
  ft_scenario_free(&s);
  /* The same drawn failures plus explicit ones at: 0, a drawn time (tie),
   * between two drawn times, and after the last. */
  char text[512];
  snprintf(text, sizeof text,
           "seed 5\nexponential 10\nmax_failures 6\n"
           "fail 99 at %.17g\nfail 98 at 0\nfail 97 at %.17g\n"
           "fail 96 at %.17g\n",
           drawn[2].time, (drawn[3].time + drawn[4].time) / 2,
           drawn[5].time + 1);
  parse_ok(text);
  struct ft_failure f[12];
  cr_assert_eq(drain(&s, 16, f, 12), 10);
  int want[] = {98, -1, -1, 99, -1, -1, 97, -1, -1, 96};
  for (size_t i = 0, d = 0; i < 10; i++) {
    if (want[i] >= 0) {
      cr_assert_eq(f[i].rank, want[i], "failure %zu", i);
      continue;
    }
    cr_assert_eq(f[i].rank, drawn[d].rank, "failure %zu", i);
    cr_assert_eq(f[i].time, drawn[d].time, "failure %zu", i);
    d++;
  }
  for (size_t i = 1; i < 10; i++)
    cr_assert_leq(f[i - 1].time, f[i].time);
  ft_scenario_free(&s);
}

Test(scenario_stream, drawn_victims_are_application_ranks) {
  parse_ok("weibull 0.7 1\nmax_failures 5000\n");
  struct ft_failure *f = malloc(5000 * sizeof *f);
  cr_assert_eq(drain(&s, 3, f, 5000), 5000);
  int seen[3] = {0, 0, 0};
  for (size_t i = 0; i < 5000; i++) {
    cr_assert(f[i].rank >= 0 && f[i].rank < 3);
    seen[f[i].rank]++;
  }
  for (int r = 0; r < 3; r++)
    cr_assert(seen[r] > 1500 && seen[r] < 1850, "rank %d: %d", r, seen[r]);
  cr_assert_eq(drain(&s, 0, f, 1), 0, "no ranks: no drawn failure");
  free(f);
  ft_scenario_free(&s);
}

Test(scenario_stream, same_seed_same_failures) {
  parse_ok("seed 42\nexponential 3\nmax_failures 100\n");
  struct ft_failure a[100], b[100];
  cr_assert_eq(drain(&s, 64, a, 100), 100);
  cr_assert_eq(drain(&s, 64, b, 100), 100);
  cr_assert_eq(memcmp(a, b, sizeof a), 0);
  /* A stream is plain data: a copy continues identically. */
  struct ft_failure_stream st, copy;
  ft_failures_start(&st, &s, 64);
  struct ft_failure x, y;
  ft_failures_next(&st, &x);
  copy = st;
  ft_failures_next(&st, &x);
  ft_failures_next(&copy, &y);
  cr_assert(x.time == y.time && x.rank == y.rank && x.time == a[1].time);
  ft_scenario_free(&s);
}

Test(scenario_stream, first_draws_are_pinned) {
  /* Pins the generator and the sampling (xoshiro256** seeded by
   * splitmix64, inverse transform, then the victim): a change here changes
   * the failures of every scenario with a given seed. */
  parse_ok("seed 42\nexponential 1\nmax_failures 3\n");
  struct ft_failure f[3];
  cr_assert_eq(drain(&s, 1000, f, 3), 3);
  static const struct ft_failure want[3] = {{0.087589330583417571, 102},
                                            {1.2271592824372952, 193},
                                            {6.0312578725936614, 584}};
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(f[i].rank, want[i].rank, "failure %d", i);
    cr_assert(fabs(f[i].time - want[i].time) < 1e-12 * want[i].time,
              "failure %d: %.17g", i, f[i].time);
  }
  ft_scenario_free(&s);
}

Test(scenario_stream, different_seeds_differ) {
  struct ft_failure a[50], b[50];
  parse_ok("seed 1\nexponential 3\nmax_failures 50\n");
  cr_assert_eq(drain(&s, 64, a, 50), 50);
  ft_scenario_free(&s);
  parse_ok("seed 2\nexponential 3\nmax_failures 50\n");
  cr_assert_eq(drain(&s, 64, b, 50), 50);
  ft_scenario_free(&s);
  size_t same = 0;
  for (size_t i = 0; i < 50; i++)
    same += a[i].time == b[i].time;
  cr_assert_eq(same, 0);
}

Test(scenario_stream, exponential_mean) {
  enum { N = 20000 };
  parse_ok("seed 3\nexponential 120\nmax_failures 20000\n");
  struct ft_failure *f = malloc(N * sizeof *f);
  cr_assert_eq(drain(&s, 8, f, N), N);
  double mean = f[N - 1].time / N; /* the sum of N inter-arrival times */
  cr_assert(fabs(mean - 120) < 0.03 * 120, "mean %g", mean);
  free(f);
  ft_scenario_free(&s);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

Test(scenario_stream, weibull_median) {
  enum { N = 20001 };
  parse_ok("seed 9\nweibull 0.7 100\nmax_failures 20001\n");
  struct ft_failure *f = malloc(N * sizeof *f);
  double *gap = malloc(N * sizeof *gap);
  cr_assert_eq(drain(&s, 8, f, N), N);
  for (size_t i = 0; i < N; i++)
    gap[i] = f[i].time - (i ? f[i - 1].time : 0);
  qsort(gap, N, sizeof *gap, cmp_double);
  /* The sample median's standard error is 1 / (2 f(median) sqrt(N)),
   * 0.86 s or 1.5% here: allow 5% (3.4 standard errors). */
  double want = 100 * pow(log(2), 1 / 0.7), median = gap[N / 2];
  cr_assert(fabs(median - want) < 0.05 * want, "median %g, want %g", median,
            want);
  free(gap);
  free(f);
  ft_scenario_free(&s);
}

Test(scenario_stream, until_caps_drawn_failures_only) {
  parse_ok("exponential 1\nuntil 50\nfail 0 at 70\n");
  struct ft_failure f[200];
  size_t n = drain(&s, 4, f, 200);
  cr_assert(n > 20 && n < 90, "%zu failures", n);
  for (size_t i = 0; i + 1 < n; i++)
    cr_assert_leq(f[i].time, 50.0);
  cr_assert(f[n - 1].rank == 0 && f[n - 1].time == 70, "explicit ones stay");
  ft_scenario_free(&s);
}

Test(scenario_stream, max_failures_caps_drawn_failures_only) {
  parse_ok("weibull 2 1\nmax_failures 3\nfail 1 at 0\nfail 2 at 1000\n");
  struct ft_failure f[10];
  cr_assert_eq(drain(&s, 4, f, 10), 5);
  cr_assert(f[0].rank == 1 && f[0].time == 0);
  cr_assert(f[4].rank == 2 && f[4].time == 1000);
  ft_scenario_free(&s);
  parse_ok("exponential 1\nmax_failures 0\n");
  cr_assert_eq(drain(&s, 4, f, 10), 0);
  ft_scenario_free(&s);
}

Test(scenario_stream, time_overflow_ends_the_stream) {
  parse_ok("weibull 0.001 1e9\n");
  struct ft_failure f[100];
  size_t n = drain(&s, 4, f, 100);
  cr_assert_lt(n, 100);
  for (size_t i = 0; i < n; i++)
    cr_assert(isfinite(f[i].time));
  ft_scenario_free(&s);
}

Test(scenario_examples, every_file_in_scenarios_loads) {
  char dir[1024], path[2048];
  snprintf(dir, sizeof dir, "%s/scenarios", FTSIM_SOURCE_DIR);
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".txt") != 0 ||
        strncmp(e->d_name, "sweep", 5) == 0) /* sweep files: ftsim sweep */
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ft_scenario_check(&s, 4, err, sizeof err), 0, "%s", err);
    struct ft_failure f[64];
    size_t n = drain(&s, 4, f, 64);
    cr_assert_lt(n, 64, "%s: a bounded number of failures", path);
    for (size_t i = 0; i < n; i++)
      cr_assert(f[i].time < 5, "%s: times are small", path);
    ft_scenario_free(&s);
    files++;
  }
  closedir(d);
  cr_assert_geq(files, 6);
}

Test(scenario_examples, the_documented_ones) {
  static const struct {
    const char *file;
    size_t failures;
  } want[] = {{"none", 0},    {"one-failure", 1},      {"rank0", 1},
              {"several", 4}, {"mtbf-exponential", 0}, {"mtbf-weibull", 1}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/scenarios/%s.txt", FTSIM_SOURCE_DIR,
             want[i].file);
    cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.nfails, want[i].failures, "%s", path);
    ft_scenario_free(&s);
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/scenarios/one-failure.txt", FTSIM_SOURCE_DIR);
  cr_assert_eq(ft_scenario_load(path, &s, err, sizeof err), 0, "%s", err);
  cr_assert(s.fails[0].rank == 1 && s.fails[0].time == 0.05);
  cr_assert(s.detection_s == 0.001 && s.restart_s == 0.01);
  ft_scenario_free(&s);
}

/* A tiny generator for the fuzz test (splitmix64). */
static uint64_t fuzz_next(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static void fuzz_one(const char *text) {
  char e[256];
  e[0] = '\0';
  struct ft_scenario sc;
  int rc = ft_scenario_parse(text, "fuzz", &sc, e, sizeof e);
  cr_assert(rc == 0 || rc == -1);
  if (rc == -1) {
    cr_assert_neq(e[0], '\0', "no message for: %s", text);
    cr_assert_null(sc.fails);
    return;
  }
  ft_scenario_check(&sc, 4, e, sizeof e);
  struct ft_failure f[32];
  size_t n = drain(&sc, 4, f, 32);
  for (size_t i = 1; i < n; i++)
    cr_assert_leq(f[i - 1].time, f[i].time);
  ft_scenario_free(&sc);
}

Test(scenario_fuzz, random_bytes_and_mutations_never_crash) {
  static const char valid[] =
      "seed 42\ndetection 0.5\nrestart 2.0\nfail 3 at 12.5\n"
      "weibull 0.7 100 # c\nmax_failures 10\nuntil 500\nfail 0 at 0\n";
  static const char alphabet[] = "0123456789 .\t\n#-+eEinfatxs";
  uint64_t x = 12345;
  char buf[256];
  for (int round = 0; round < 2000; round++) {
    size_t len = fuzz_next(&x) % (sizeof buf - 1);
    if (round % 2 == 0) { /* random bytes, some from the format's alphabet */
      for (size_t i = 0; i < len; i++) {
        uint64_t r = fuzz_next(&x);
        buf[i] = (char)(r % 2 ? alphabet[(r >> 8) % (sizeof alphabet - 1)]
                              : (char)(1 + (r >> 8) % 255));
      }
    } else { /* a valid file with a few bytes changed, dropped or cut */
      len = sizeof valid - 1;
      memcpy(buf, valid, len);
      int changes = 1 + (int)(fuzz_next(&x) % 4);
      for (int k = 0; k < changes && len > 0; k++) {
        size_t at = fuzz_next(&x) % len;
        uint64_t r = fuzz_next(&x);
        if (r % 3 == 0)
          buf[at] = alphabet[(r >> 8) % (sizeof alphabet - 1)];
        else if (r % 3 == 1)
          buf[at] = (char)(1 + (r >> 8) % 255);
        else
          len = at;
      }
    }
    buf[len] = '\0';
    fuzz_one(buf);
  }
}

/* Reference mode's kill failures: launch n runs from failure n-1 to
 * failure n (README, "Real failures: kill and relaunch"). */
Test(scenario, launch_spans_of_a_relaunched_run) {
  const char *path =
      FTSIM_SOURCE_DIR "/tests/integration/scenarios/real-kill-twice.txt";
  struct ft_failure f;
  double origin = -1;
  char e[512] = "";
  cr_assert_eq(ft_failures_span(path, 2, 0, &origin, &f, e, sizeof e), 1, "%s",
               e);
  cr_assert_float_eq(origin, 0, 1e-12);
  cr_assert_eq(f.rank, 1);
  cr_assert_float_eq(f.time, 0.25, 1e-12);
  cr_assert_eq(ft_failures_span(path, 2, 1, &origin, &f, e, sizeof e), 1);
  cr_assert_float_eq(origin, 0.25, 1e-12);
  cr_assert_eq(f.rank, 0);
  cr_assert_float_eq(f.time, 0.5, 1e-12);
  cr_assert_eq(ft_failures_span(path, 2, 2, &origin, &f, e, sizeof e), 0);
  cr_assert_float_eq(origin, 0.5, 1e-12);
  cr_assert_eq(ft_failures_span(path, 2, 4, &origin, &f, e, sizeof e), -1);
  cr_assert(strstr(e, "relaunch=4: scenario "), "%s", e);
  cr_assert(strstr(e, "has fewer than 4 failures: no kill ended launch 3"),
            "%s", e);
  cr_assert_eq(ft_failures_span("", 2, 0, &origin, &f, e, sizeof e), 0);
}
