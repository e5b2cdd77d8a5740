/* Unit tests of `ftsim soak`'s draws (soak_draw.c) and verdicts
 * (soak_judge.c): determinism, coverage of issue 13's list, scenarios
 * that the scenario parser accepts, and the outcome rules. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "soak_draw.h"
#include "soak_judge.h"

#define SEEDS 3000

static const char *const protocols[] = {"pcl", "vcl", "pessimist", "v2"};
static const struct ft_soak_app *all[16];
static size_t nall;

static void init_apps(void) {
  size_t n;
  const struct ft_soak_app *a = ft_soak_apps(&n);
  for (nall = 0; nall < n; nall++)
    all[nall] = &a[nall];
}

static void draw(uint64_t seed, struct ft_soak_config *c) {
  init_apps();
  ft_soak_draw_config(seed, protocols, 4, all, nall, c);
}

/* The scenario of seed `seed` for T = t, parsed. */
static int scenario(uint64_t seed, double t, struct ft_soak_config *c,
                    struct ft_scenario *s, char *text, size_t len) {
  char err[512];
  draw(seed, c);
  double period = c->period_frac * t;
  ft_soak_draw_scenario(c, t, period, text, len);
  if (ft_scenario_parse(text, "soak", s, err, sizeof err))
    cr_assert_fail("seed %llu: %s\n%s", (unsigned long long)seed, err, text);
  if (ft_scenario_check(s, c->np, err, sizeof err))
    cr_assert_fail("seed %llu: %s\n%s", (unsigned long long)seed, err, text);
  return 0;
}

Test(cli_soak, same_seed_same_draws) {
  struct ft_soak_config a, b;
  char ta[4096], tb[4096];
  for (uint64_t seed = 1; seed < 200; seed++) {
    draw(seed, &a);
    draw(seed, &b);
    cr_assert(memcmp(&a, &b, sizeof a) == 0);
    ft_soak_draw_scenario(&a, 0.05, 0.01, ta, sizeof ta);
    ft_soak_draw_scenario(&b, 0.05, 0.01, tb, sizeof tb);
    cr_assert_str_eq(ta, tb);
  }
  struct ft_soak_config c;
  draw(7, &c);
  ft_soak_draw_scenario(&c, 0.05, 0.01, tb, sizeof tb);
  cr_assert_str_neq(ta, tb, "seeds 199 and 7 drew the same scenario");
}

Test(cli_soak, protocol_is_seed_modulo_the_list) {
  struct ft_soak_config c;
  for (uint64_t seed = 0; seed < 40; seed++) {
    draw(seed, &c);
    cr_assert_str_eq(c.protocol, protocols[seed % 4]);
  }
  /* --protocols v2 --seed S alone draws run S's workload and scenario */
  const char *one[] = {"v2"};
  struct ft_soak_config d;
  draw(1234, &c);
  ft_soak_draw_config(1234, one, 1, all, nall, &d);
  cr_assert_eq(c.app, d.app);
  cr_assert_eq(c.np, d.np);
  cr_assert_eq(c.kind, d.kind);
  cr_assert_str_eq(c.platform, d.platform);
}

Test(cli_soak, every_app_kind_platform_and_option_is_drawn) {
  int kinds[FT_SOAK_KINDS] = {0}, apps[16] = {0}, gige = 0, grid = 0;
  int image = 0, noperiod = 0, services = 0, loggers = 0;
  struct ft_soak_config c;
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    draw(seed, &c);
    kinds[c.kind]++;
    apps[c.app - all[0]]++;
    gige += strcmp(c.platform, "gige") == 0;
    grid += strcmp(c.platform, "grid5000") == 0;
    image += c.image_mb > 0;
    noperiod += c.period_frac == 0;
    services += c.service_ranks == 2;
    loggers += c.event_loggers == 2;
    if (c.event_loggers)
      cr_assert(!strcmp(c.protocol, "pessimist") || !strcmp(c.protocol, "v2"));
    if (!strcmp(c.app->name, "bt"))
      cr_assert(c.np == 1 || c.np == 4 || c.np == 9);
  }
  for (int k = 0; k < FT_SOAK_KINDS; k++)
    cr_assert_gt(kinds[k], SEEDS / FT_SOAK_KINDS / 2, "kind %s: %d",
                 ft_soak_kind_name((enum ft_soak_kind)k), kinds[k]);
  for (size_t a = 0; a < nall; a++)
    cr_assert_gt(apps[a], 100, "app %s: %d", all[a]->name, apps[a]);
  cr_assert(ft_soak_app_find("fring"), "fring is in the table");
  cr_assert(gige > 0 && grid > 0 && image > 0 && noperiod > 0);
  cr_assert(services > 0 && loggers > 0);
}

Test(cli_soak, every_scenario_parses_with_ranks_in_range) {
  struct ft_soak_config c;
  struct ft_scenario s;
  char text[16384];
  int rank0 = 0, last = 0;
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    scenario(seed, 0.001 + (double)(seed % 97) * 0.01, &c, &s, text,
             sizeof text);
    for (size_t i = 0; i < s.nfails; i++) {
      rank0 += s.fails[i].rank == 0;
      last += c.np > 1 && s.fails[i].rank == c.np - 1;
    }
    ft_scenario_free(&s);
  }
  cr_assert_gt(rank0, SEEDS / 4);
  cr_assert_gt(last, SEEDS / 4);
}

/* The failure times of the scenario, sorted. */
static size_t times_of(uint64_t seed, enum ft_soak_kind kind, double t,
                       struct ft_soak_config *c, struct ft_scenario *s) {
  char text[16384];
  for (;; seed++) {
    draw(seed, c);
    if (c->kind == kind)
      break;
  }
  scenario(seed, t, c, s, text, sizeof text);
  return s->nfails;
}

Test(cli_soak, targeted_kinds_hit_their_moment) {
  struct ft_soak_config c;
  struct ft_scenario s;
  const double t = 0.2;
  for (uint64_t seed = 1; seed < 3000; seed += 97) {
    size_t n = times_of(seed, FT_SOAK_BURST, t, &c, &s);
    cr_assert_geq(n, 2);
    cr_assert_leq(s.fails[n - 1].time - s.fails[0].time, 0.001);
    ft_scenario_free(&s);

    n = times_of(seed, FT_SOAK_END, t, &c, &s);
    int in_end = 0;
    for (size_t i = 0; i < n; i++)
      in_end += s.fails[i].time >= 0.95 * t && s.fails[i].time < t;
    cr_assert_geq(in_end, 1);
    ft_scenario_free(&s);

    n = times_of(seed, FT_SOAK_AFTER_END, t, &c, &s);
    cr_assert_geq(s.fails[n - 1].time, t);
    ft_scenario_free(&s);

    n = times_of(seed, FT_SOAK_DETECTION, t, &c, &s);
    cr_assert_eq(n, 2);
    cr_assert_gt(s.detection_s, 0);
    cr_assert_leq(s.fails[1].time - s.fails[0].time, s.detection_s);
    ft_scenario_free(&s);

    n = times_of(seed, FT_SOAK_RESTART, t, &c, &s);
    cr_assert_gt(s.restart_s, 0);
    double gap = s.fails[1].time - s.fails[0].time;
    cr_assert(gap >= s.detection_s - 1e-9 &&
              gap <= s.detection_s + s.restart_s + 1e-9);
    ft_scenario_free(&s);

    n = times_of(seed, FT_SOAK_WAVE, t, &c, &s);
    cr_assert(c.image_mb > 0 && c.period_frac > 0);
    double p = c.period_frac * t;
    for (size_t i = 0; i < n; i++) {
      double after = fmod(s.fails[i].time + 1e-12, p);
      cr_assert_leq(after, 0.001 + 1e-9, "%g after a wave start", after);
    }
    ft_scenario_free(&s);
  }
}

Test(cli_soak, mtbf_from_a_fiftieth_to_ten_runs) {
  struct ft_soak_config c;
  struct ft_scenario s;
  const double t = 0.1;
  double lo = 1e9, hi = 0;
  for (uint64_t seed = 1; seed < 20000; seed += 37) {
    times_of(seed, FT_SOAK_MTBF, t, &c, &s);
    cr_assert_eq(s.dist, FT_DIST_EXPONENTIAL);
    lo = fmin(lo, s.mean_s);
    hi = fmax(hi, s.mean_s);
    ft_scenario_free(&s);
  }
  cr_assert(lo >= t / 50 - 1e-12 && lo < t / 10, "lowest mean %g", lo);
  cr_assert(hi <= 10 * t + 1e-12 && hi > 2 * t, "highest mean %g", hi);
}

Test(cli_soak, rank0_and_last_kinds_fail_only_that_rank) {
  struct ft_soak_config c;
  struct ft_scenario s;
  for (uint64_t seed = 1; seed < 3000; seed += 101) {
    size_t n = times_of(seed, FT_SOAK_RANK0, 0.1, &c, &s);
    for (size_t i = 0; i < n; i++)
      cr_assert_eq(s.fails[i].rank, 0);
    ft_scenario_free(&s);
    n = times_of(seed, FT_SOAK_LAST, 0.1, &c, &s);
    for (size_t i = 0; i < n; i++)
      cr_assert_eq(s.fails[i].rank, c.np - 1);
    ft_scenario_free(&s);
  }
}

Test(cli_soak, cache_keys) {
  struct ft_soak_config a, b;
  char ka[512], kb[512];
  draw(1, &a);
  b = a;
  b.protocol = strcmp(a.protocol, "vcl") ? "vcl" : "pcl";
  ft_soak_config_key(&a, 1, ka, sizeof ka);
  ft_soak_config_key(&b, 1, kb, sizeof kb);
  cr_assert_str_eq(ka, kb, "the none run does not depend on the protocol");
  ft_soak_config_key(&a, 0, ka, sizeof ka);
  ft_soak_config_key(&b, 0, kb, sizeof kb);
  cr_assert_str_neq(ka, kb);
  b = a;
  b.period_frac = a.period_frac + 0.1;
  ft_soak_config_key(&b, 0, kb, sizeof kb);
  cr_assert_str_neq(ka, kb);
}

/* ---- verdicts */

static const char *good =
    "{\"protocol\":\"pcl\",\"verified\":true,\"result\":42,\"failures\":2}";
static char why[512];

static struct ft_soak_step step(int status, const char *json,
                                const char *errors) {
  return (struct ft_soak_step){false, true, status, json, errors};
}

Test(cli_soak, judge_pass_and_wrong_result) {
  struct ft_soak_step s = step(0, good, "");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_PASS);
  cr_assert_eq(ft_soak_judge_run(&s, NULL, why, sizeof why), FT_SOAK_PASS);
  cr_assert_eq(ft_soak_judge_run(&s, "43", why, sizeof why), FT_SOAK_WRONG);
  cr_assert_str_eq(why, "result 42 instead of 43");
}

Test(cli_soak, judge_no_progress_is_accepted_whatever_the_status) {
  const char *np = "{\"verified\":false,\"outcome\":\"no_progress\"}";
  for (int status = 0; status < 5; status++) {
    struct ft_soak_step s = step(status, np,
                                 "ftsim: smpirun exited with "
                                 "status 1\n");
    enum ft_soak_verdict v = ft_soak_judge_run(&s, "42", why, sizeof why);
    cr_assert_eq(v, FT_SOAK_NO_PROGRESS);
    cr_assert(ft_soak_accepted(v));
  }
  cr_assert(!ft_soak_no_progress(good));
  cr_assert(!ft_soak_no_progress(NULL));
}

Test(cli_soak, judge_defects) {
  struct ft_soak_step s = step(0, good, "");
  s.timed_out = true;
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_HANG);
  s = step(1, NULL,
           "ftsim: simulation deadlocked (SimGrid said \"Deadlock "
           "detected\")\n");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_DEADLOCK);
  s = step(1, good, "ftsim: smpirun exited with status 134\n");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_CRASH);
  cr_assert_str_eq(why, "smpirun exited with status 134");
  s = step(9, NULL, NULL);
  s.exited = false;
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_CRASH);
  s = step(1, NULL, "ftsim: the run printed no summary\n");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why),
               FT_SOAK_NO_SUMMARY);
  s = step(3, "{\"verified\":false,\"result\":42}", "");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why),
               FT_SOAK_UNVERIFIED);
  s = step(2, NULL, "ftsim: bad\n");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_USAGE);
  s = step(1, good, "");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_FAILED);
  for (int v = FT_SOAK_HANG; v < FT_SOAK_VERDICTS; v++)
    cr_assert(!ft_soak_accepted((enum ft_soak_verdict)v));
}

/* A run the dispatcher ended because nobody talked to it for max_quiet
 * (a livelock, soak seed 7832 before its fix) is a hang, with its reason. */
Test(cli_soak, judge_livelock_is_a_hang) {
  struct ft_soak_step s =
      step(1, NULL,
           "ftsim: rank 1: something else\n"
           "ftsim: the dispatcher heard nothing from any application rank "
           "for max_quiet=1.2 s of simulated time (...)\n"
           "ftsim: smpirun exited with status 2\n");
  cr_assert_eq(ft_soak_judge_run(&s, "42", why, sizeof why), FT_SOAK_HANG);
  cr_assert_str_eq(why, "the dispatcher heard nothing from any application "
                        "rank for max_quiet=1.2 s of simulated time (...)");
}

Test(cli_soak, judge_check) {
  struct ft_soak_step s = step(0, NULL, NULL);
  cr_assert_eq(ft_soak_judge_check(&s, "ftsim check: ok", why, sizeof why),
               FT_SOAK_PASS);
  s = step(1, NULL, NULL);
  cr_assert_eq(
      ft_soak_judge_check(&s, "violation (orphan): ...", why, sizeof why),
      FT_SOAK_CHECK);
  cr_assert(strstr(why, "violation (orphan)"));
  s.timed_out = true;
  cr_assert_eq(ft_soak_judge_check(&s, NULL, why, sizeof why), FT_SOAK_HANG);
}
