/* Unit tests of the sweep file (sim/cli/sweep_file.c), the expansion into
 * points (sweep_points.c), the results CSV (results.c), the statistics
 * (stats.c) and the aggregation (analyze.c). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "provenance.h"
#include "results.h"
#include "stats.h"
#include "sweep_file.h"
#include "sweep_points.h"
#include "sweep_slurm.h"

#define TRACES FTSIM_SOURCE_DIR "/scenarios/traces"

static struct ft_sweep s;
static char err[1024];

static void parse_ok(const char *text) {
  cr_assert_eq(ft_sweep_parse(text, "dir/s.txt", 0, &s, err, sizeof err), 0,
               "%s", err);
}

static void parse_fails(const char *text, const char *msg) {
  cr_assert_eq(ft_sweep_parse(text, "dir/s.txt", 1, &s, err, sizeof err), -1,
               "accepted: %s", text);
  cr_assert_str_eq(err, msg);
  cr_assert_eq(s.axis[FT_AXIS_PROTOCOL].count, 0);
}

#define BASE "protocols none pcl\nplatforms gige\napps cg\nranks 16\n"

Test(sweep_file, axes_settings_and_defaults) {
  parse_ok(BASE "periods 0.01 0.02 # comment\nmtbfs none 0.1\nseeds 1 2 3\n"
                "image_mb 0.5\napp_args --iters 10 --tol 0\nset log_batch=8 "
                "server_map=cyclic\n");
  cr_assert_eq(s.axis[FT_AXIS_PERIOD].count, 2);
  cr_assert_str_eq(s.axis[FT_AXIS_MTBF].items[0], "none");
  cr_assert_str_eq(ft_sweep_get(&s, FT_SET_IMAGE_MB, "0"), "0.5");
  cr_assert_str_eq(ft_sweep_get(&s, FT_SET_RESTART, "0"), "0");
  cr_assert_str_eq(ft_sweep_get(&s, FT_SET_APP_ARGS, ""), "--iters 10 --tol 0");
  cr_assert_eq(s.app_args.count, 4);
  cr_assert_eq(s.sets.count, 2);
  cr_assert_str_eq(s.dir, "dir");
  ft_sweep_free(&s);
  ft_sweep_free(&s);
}

Test(sweep_file, points_collapse_none_and_order_the_grid) {
  parse_ok(BASE "periods 0.01 0.02\nmtbfs none 0.1\nseeds 1 2 3\n");
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  /* none once; pcl: 2 periods x (none once + 0.1 x 3 seeds) */
  cr_assert_eq(p.count, 1 + 8);
  cr_assert_str_eq(p.items[0].param[FT_COL_PROTOCOL], "none");
  cr_assert_str_eq(p.items[0].param[FT_COL_SERVERS], "0");
  cr_assert_str_eq(p.items[0].param[FT_COL_MTBF], "none");
  cr_assert_str_eq(p.items[1].param[FT_COL_SERVERS], "1");
  cr_assert_str_eq(p.items[1].param[FT_COL_SEED], "1");
  cr_assert_str_eq(p.items[2].param[FT_COL_MTBF], "0.1");
  cr_assert_str_eq(p.items[4].param[FT_COL_SEED], "3");
  cr_assert_eq(ft_point_has_failures(&p.items[1]), 0);
  cr_assert_eq(ft_point_has_failures(&p.items[4]), 1);
  cr_assert_neq(ft_point_hash(&p.items[2]), ft_point_hash(&p.items[3]));
  char text[1024];
  ft_point_scenario(&s, &p.items[4], text, sizeof text);
  cr_assert(strstr(text, "seed 3\n"), "%s", text);
  cr_assert(strstr(text, "exponential 0.1\n"), "%s", text);
  struct ft_strv argv = FT_STRV_INIT;
  ft_point_run_args(&s, &p.items[4], "X.txt", &argv);
  char line[1024] = "";
  for (size_t i = 0; i < argv.count; i++)
    strcat(strcat(line, " "), argv.items[i]);
  cr_assert_str_eq(line, " --platform gige --np 16 --app cg --protocol pcl "
                         "--service-ranks 1 --set period=0.01 --set "
                         "image_mb=0 --scenario X.txt");
  ft_strv_free(&argv);
  ft_points_free(&p);
  ft_sweep_free(&s);
}

/* Issue 14, item 3: the computation mode of every point, as ftsim run's
 * --compute. */
Test(sweep_file, compute_passes_to_every_point) {
  parse_ok(BASE "compute measured\n");
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  struct ft_strv argv = FT_STRV_INIT;
  ft_point_run_args(&s, &p.items[0], NULL, &argv);
  char line[1024] = "";
  for (size_t i = 0; i < argv.count; i++)
    strcat(strcat(line, " "), argv.items[i]);
  cr_assert_str_eq(line, " --platform gige --np 16 --app cg --protocol none "
                         "--compute measured");
  ft_strv_free(&argv);
  ft_points_free(&p);
  ft_sweep_free(&s);
}

Test(sweep_file_errors, compute_is_a_known_mode) {
  parse_fails(BASE "compute guessed\n",
              "dir/s.txt:5: field 'compute': expected auto, modelled or "
              "measured, got 'guessed'");
  parse_fails(BASE "compute auto measured\n",
              "dir/s.txt:5: field 'compute': expected one value, got 2");
}

Test(sweep_file, trace_points_take_one_seed_and_a_trace_scenario) {
  cr_assert_eq(ft_sweep_parse(BASE "seeds 4 5\ntraces lanl:lanl-sample.csv\n"
                                   "trace_scale 1e-6\ntrace_map first\n",
                              TRACES "/s.txt", 1, &s, err, sizeof err),
               0, "%s", err);
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  cr_assert_eq(p.count, 2);
  cr_assert_str_eq(p.items[1].param[FT_COL_SEED], "4");
  cr_assert_str_eq(p.items[1].param[FT_COL_TRACE],
                   "lanl:" TRACES "/lanl-sample.csv");
  char text[2048];
  ft_point_scenario(&s, &p.items[1], text, sizeof text);
  cr_assert(strstr(text, "trace lanl " TRACES "/lanl-sample.csv\n"), "%s",
            text);
  cr_assert(strstr(text, "trace_scale 1e-6\ntrace_map first\n"), "%s", text);
  ft_points_free(&p);
  ft_sweep_free(&s);
}

Test(sweep_file_errors, messages_name_file_line_and_field) {
  parse_fails(BASE "ranks 8\n",
              "dir/s.txt:5: field 'ranks': given twice (first on line 4)");
  parse_fails("protocols none vcx\n",
              "dir/s.txt:1: field 'protocols': unknown protocol 'vcx' (known: "
              "none, pcl, vcl, pessimist, v2, bookmark, c3)");
  parse_fails(
      BASE "periods 0.1 -1\n",
      "dir/s.txt:5: field 'periods': expected seconds in [0, 1e9], got '-1' "
      "(out of range)");
  parse_fails(BASE "mtbfs 0\n", "dir/s.txt:5: field 'mtbfs': expected seconds "
                                "> 0 and <= 1e9, or none, got '0' (out of "
                                "range)");
  parse_fails(BASE "seeds x\n", "dir/s.txt:5: field 'seeds': expected "
                                "integers from 0 to 2^64-1, got 'x'");
  parse_fails(BASE "traces swf:x\n",
              "dir/s.txt:5: field 'traces': format must be lanl or fta, got "
              "'swf'");
  parse_fails(BASE "traces lanl:nosuch.csv\n",
              "dir/s.txt:5: field 'traces': dir/nosuch.csv: cannot read: No "
              "such file or directory");
  parse_fails(
      BASE "image_mb lots\n",
      "dir/s.txt:5: field 'image_mb': expected MB in [0, 1e6], got 'lots' "
      "(not a decimal number)");
  parse_fails(BASE "trace_map random\n",
              "dir/s.txt:5: field 'trace_map': expected modulo or first, got "
              "'random'");
  parse_fails(BASE "periods\n",
              "dir/s.txt:5: field 'periods': expected at least one value");
  parse_fails(BASE "ranks2 4\n",
              "dir/s.txt:5: unknown directive 'ranks2' (known: protocols, "
              "platforms, apps, ranks, servers, periods, mtbfs, traces, "
              "seeds, image_mb, detection, restart, max_failures, until, "
              "trace_scale, trace_shift, trace_system, trace_map, timeout, "
              "compute, max_time, app_args, set)");
  parse_fails("protocols pcl\nplatforms gige\nranks 4\n",
              "dir/s.txt: field 'apps': missing (required: protocols, "
              "platforms, apps, ranks)");
  parse_fails(BASE "set novalue\n", "dir/s.txt:5: field 'set': expected "
                                    "key=value without ',', got 'novalue'");
  parse_fails(BASE "periods 0.1 0.1\n",
              "dir/s.txt:5: field 'periods': value '0.1' given twice");
}

/* Issue 13, defect 7: a `set` the runtime would refuse ran every point
 * and exited 0; numbers out of range were misreported or accepted. */
Test(sweep_file_errors, sets_are_checked_like_ftsim_run) {
  parse_fails(BASE "set foo=1\n",
              "dir/s.txt:5: field 'set': unknown key 'foo' (known: protocol, "
              "service_ranks, period, image_mb, scenario, ckpt_dir, "
              "server_map, storage, daemon_latency_us, daemon_copy_mbps, "
              "event_loggers, log_batch, copy_mbps, sb_bus_mbps, "
              "sb_bus_cache_mbps, sb_cache_kb, el_rtt_us, trace, max_time, "
              "stall_failures, record, record_speed, any_call, "
              "control_window, failure, relaunch, piggyback, "
              "piggyback_switch_bytes, piggyback_unit_bytes, "
              "c3_barrier_checkpoint, max_quiet, "
              "control_timer, ranks_per_node, service_placement, "
              "upload_streams)");
  parse_fails(BASE "set log_batch=0\n",
              "dir/s.txt:5: field 'set': log_batch must be an integer in [1, "
              "65536]");
  parse_fails(BASE "set protocol=vcl\n",
              "dir/s.txt:5: field 'set': protocol is set for each point by "
              "the protocols axis, got 'protocol=vcl'");
  parse_fails(BASE "set period=1\n",
              "dir/s.txt:5: field 'set': period is set for each point by the "
              "periods axis, got 'period=1'");
  parse_fails("protocols none pessimist\nplatforms gige\napps cg\nranks 4\n"
              "servers 1 2\nset event_loggers=2\n",
              "dir/s.txt:6: field 'set': protocol pessimist with servers 1: "
              "event_loggers=2 but service_ranks=1: the event loggers are "
              "service ranks (service_ranks=2 or more)");
  parse_ok("protocols pessimist\nplatforms gige\napps cg\nranks 4\n"
           "servers 2 3\nset event_loggers=2\n");
  ft_sweep_free(&s);
}

Test(sweep_file_errors, numbers_are_decimal_and_bounded) {
  parse_fails(BASE "periods 1e-400\n",
              "dir/s.txt:5: field 'periods': expected seconds in [0, 1e9], "
              "got '1e-400' (out of range: too small to represent, write 0)");
  parse_fails(BASE "restart 1e300\n",
              "dir/s.txt:5: field 'restart': expected seconds in [0, 1e9], "
              "got '1e300' (out of range)");
  parse_fails(BASE "detection nan\n",
              "dir/s.txt:5: field 'detection': expected seconds in [0, 1e9], "
              "got 'nan' (not a decimal number)");
  parse_fails(BASE "periods 0x10\n",
              "dir/s.txt:5: field 'periods': expected seconds in [0, 1e9], "
              "got '0x10' (not a decimal number)");
  parse_fails(BASE "mtbfs inf\n",
              "dir/s.txt:5: field 'mtbfs': expected seconds > 0 and <= 1e9, "
              "or none, got 'inf' (not a decimal number)");
  parse_fails(BASE "max_failures 99999999999999999999\n",
              "dir/s.txt:5: field 'max_failures': expected an integer >= 0, "
              "got '99999999999999999999'");
}

/* Issue 13, defect 7: 10^7 points took 92 s and 5.1 GB in --dry-run. */
Test(sweep_file_errors, the_grid_is_capped) {
  char text[8192] = "protocols pcl\nplatforms gige\napps cg\nranks";
  for (int i = 1; i <= 100; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), " %d", i);
  strcat(text, "\nseeds");
  for (int i = 1; i <= 100; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), " %d", i);
  strcat(text, "\nmtbfs 1 2 3 4 5 6 7 8 9 10\nperiods");
  for (int i = 1; i <= 100; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), " %d", i);
  strcat(text, "\n");
  parse_fails(text, "dir/s.txt: the grid has 10000000 points (100 ranks x 100 "
                    "periods x 10 mtbfs x 100 seeds), more than the limit of "
                    "1000000: split it into several sweep files");
}

Test(sweep_file, the_count_is_the_expansion) {
  parse_ok(BASE "servers 1 2\nperiods 0.01 0.02\nmtbfs none 0.1 0.2\n"
                "seeds 1 2 3\n");
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  /* none once; pcl: 2 servers x 2 periods x (1 + 2 mtbfs x 3 seeds) */
  cr_assert_eq(p.count, 1 + 2 * 2 * 7);
  cr_assert_eq(ft_sweep_points_count(&s), p.count);
  ft_points_free(&p);
  ft_sweep_free(&s);
}

/* ---- the results CSV */

static const char *header(void) {
  static char h[1024];
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_results_header(m);
  fclose(m);
  snprintf(h, sizeof h, "%s", text);
  free(text);
  return h;
}

#define ROW_PARAMS "pcl,gige,cg,16,1,0.01,0.1,,1,0,0,0,\"--iters 10\","
#define ROW(seed, t, waves)                                                    \
  "pcl,gige,cg,16,1,0.01,0.1,," seed ",0,0,0,--iters 10,0,ok,true," t          \
  "," waves ",1,1,100,0.01,0.002,10,1000,1,,,2.5\n"

static struct ft_results r;

static int parse_csv(const char *body, size_t *complete) {
  char text[8192];
  snprintf(text, sizeof text, "%s%s", header(), body);
  return ft_results_parse(text, strlen(text), "r.csv", &r, complete, err,
                          sizeof err);
}

Test(results, round_trip_and_partial_last_line) {
  size_t complete = 0;
  cr_assert_eq(
      parse_csv(ROW("1", "0.5", "3") ROW("2", "0.7", "4") "pcl,gi", &complete),
      0, "%s", err);
  cr_assert_eq(r.count, 2);
  cr_assert_str_eq(r.rows[1].cell[FT_COL_COMPLETION], "0.7");
  cr_assert_str_eq(r.rows[0].cell[FT_COL_APP_ARGS], "--iters 10");
  cr_assert_eq(r.rows[1].line, 3);
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_results_row(m, r.rows[0].cell);
  fclose(m);
  cr_assert_str_eq(text, ROW("1", "0.5", "3"));
  free(text);
  char k1[512], k2[512];
  ft_results_key(r.rows[0].cell, k1, sizeof k1);
  ft_results_key(r.rows[1].cell, k2, sizeof k2);
  cr_assert_str_neq(k1, k2);
  ft_results_free(&r);
  cr_assert_eq(complete, strlen(header()) + 2 * strlen(ROW("1", "0.5", "3")));
}

Test(results_errors, bad_cells_and_header) {
  cr_assert_eq(parse_csv("pcl,gige,cg,x" ROW_PARAMS "\n", NULL), -1);
  cr_assert_str_eq(err, "r.csv:2: expected 29 fields, got 17");
  ft_results_free(&r);
  cr_assert_eq(parse_csv(ROW("1", "abc", "3"), NULL), -1);
  cr_assert_str_eq(err, "r.csv:2: field 'completion_time_s': expected a "
                        "decimal number >= 0, got 'abc'");
  ft_results_free(&r);
  cr_assert_eq(parse_csv(ROW("1", "0.5", "\"3"), NULL), -1);
  cr_assert_str_eq(err, "r.csv:2: malformed CSV: unterminated quoted field");
  ft_results_free(&r);
  const char *bad = "protocol,x\n";
  cr_assert_eq(
      ft_results_parse(bad, strlen(bad), "r.csv", &r, NULL, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "r.csv:1: field 'header': expected the 29 columns of "
                        "ftsim sweep (protocol,platform,app,...,wall_s), got "
                        "2 columns starting 'protocol'");
}

/* Issue 13, defect 7: a negative completion time was accepted and won the
 * best period; NaN, inf and hex are refused the same way. */
Test(results_errors, negative_nan_and_inf_numbers) {
  static const char *const bad[] = {"-5", "nan", "inf", "0x1p3", "-0.1"};
  char want[256];
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char body[1024];
    snprintf(body, sizeof body,
             "pcl,gige,cg,16,1,0.01,0.1,,1,0,0,0,--iters 10,0,ok,true,%s,3,1,"
             "1,100,0.01,0.002,10,1000,1,,,2.5\n",
             bad[i]);
    cr_assert_eq(parse_csv(body, NULL), -1, "accepted %s", bad[i]);
    snprintf(want, sizeof want,
             "r.csv:2: field 'completion_time_s': expected a decimal number "
             ">= 0, got '%s'",
             bad[i]);
    cr_assert_str_eq(err, want);
    ft_results_free(&r);
  }
  cr_assert_eq(parse_csv("pcl,gige,cg,0,1,0.01,0.1,,1,0,0,0,x,0,ok,true,0.5,"
                         "3,1,1,100,0.01,0.002,10,1000,1,,,2.5\n",
                         NULL),
               -1);
  cr_assert_str_eq(err, "r.csv:2: field 'ranks': expected an integer >= 1, "
                        "got '0'");
  ft_results_free(&r);
  cr_assert_eq(parse_csv(ROW("18446744073709551615", "0.5", "3"), NULL), 0,
               "%s", err); /* a sweep's seeds go up to 2^64-1 */
  ft_results_free(&r);
}

/* Issue 13, defect 7: a duplicated row was counted twice. */
Test(results, duplicates_are_dropped_with_a_warning) {
  cr_assert_eq(parse_csv(ROW("1", "0.5", "3") ROW("2", "0.6", "3")
                             ROW("1", "0.1", "3"),
                         NULL),
               0, "%s", err);
  char *text = NULL;
  size_t len = 0;
  FILE *warn = open_memstream(&text, &len);
  cr_assert_eq(ft_results_dedup(&r, "r.csv", warn), 1);
  fclose(warn);
  cr_assert_str_eq(text, "ftsim: warning: r.csv:4: same point and seed as "
                         "line 2: row ignored\n");
  free(text);
  cr_assert_eq(r.count, 2);
  cr_assert_str_eq(r.rows[0].cell[FT_COL_COMPLETION], "0.5");
  cr_assert_str_eq(r.rows[1].cell[FT_COL_COMPLETION], "0.6");
  ft_results_free(&r);
}

Test(results, json_members) {
  const char *j = "{\"protocol\":\"pcl\",\"s\":\"a,\\\"b}\",\"waves\":12,"
                  "\"verified\":true,\"x\":null}";
  char v[64];
  cr_assert_eq(ft_json_member(j, "waves", v, sizeof v), 0);
  cr_assert_str_eq(v, "12");
  cr_assert_eq(ft_json_member(j, "protocol", v, sizeof v), 0);
  cr_assert_str_eq(v, "pcl");
  cr_assert_eq(ft_json_member(j, "s", v, sizeof v), 0);
  cr_assert_str_eq(v, "a,\"b}");
  cr_assert_eq(ft_json_member(j, "verified", v, sizeof v), 0);
  cr_assert_str_eq(v, "true");
  cr_assert_eq(ft_json_member(j, "wave", v, sizeof v), -1);
  cr_assert_eq(ft_json_member("not json", "a", v, sizeof v), -1);
}

/* ---- statistics and analysis */

Test(stats, mean_sd_ci_and_t_quantiles) {
  const double x[] = {1, 2, 3, 4};
  struct ft_stats st = ft_stats_of(x, 4);
  cr_assert_float_eq(st.mean, 2.5, 1e-12);
  cr_assert_float_eq(st.sd, sqrt(5.0 / 3.0), 1e-12);
  cr_assert_float_eq(st.ci95, 3.182 * sqrt(5.0 / 3.0) / 2, 1e-9);
  cr_assert(isnan(ft_stats_of(x, 1).ci95));
  cr_assert_float_eq(ft_student_t975(1), 12.706, 1e-9);
  cr_assert_float_eq(ft_student_t975(60), 2.000, 2e-3);
  cr_assert_float_eq(ft_student_t975(1000), 1.962, 1e-3);
}

Test(stats, young_and_daly) {
  cr_assert_float_eq(ft_young_period(2, 100), 20, 1e-12);
  /* Daly: sqrt(2CM)(1 + sqrt(C/2M)/3 + (C/2M)/9) - C, C=2, M=100 */
  cr_assert_float_eq(ft_daly_period(2, 100), 20 * (1 + 0.1 / 3 + 0.01 / 9) - 2,
                     1e-12);
  cr_assert_float_eq(ft_daly_period(300, 100), 100, 1e-12);
  cr_assert(isnan(ft_young_period(0, 100)));
}

Test(analyze, groups_efficiency_cost_and_best_period) {
  /* none: T_ff = 1.0; pcl at 2 periods, 2 seeds each; lost = 0.01,
   * recovery = 0.002: C = (T - 1 - 0.012) / waves. */
  cr_assert_eq(
      parse_csv("none,gige,cg,16,0,0,none,,1,0,0,0,\"--iters 10\",0,"
                "ok,true,1.0,0,0,0,0,0,0,10,10,0,,,1\n" ROW("1", "1.112", "10")
                    ROW("2", "1.212",
                        "10") "pcl,gige,cg,16,1,0.02,0.1,,1,0,0,0,\"--iters "
                              "10\",0,ok,true,1.062,5,1,1,100,0.01,0.002,10,"
                              "1000,1,,,2.5\n"
                              "pcl,gige,cg,16,1,0.02,0.1,,2,0,0,0,\"--iters "
                              "10\",1,failed,,,,,,,,,,,,,,\n",
                NULL),
      0, "%s", err);
  struct ft_analysis a;
  ft_analysis_build(&r, &a);
  cr_assert_eq(a.count, 3);
  const struct ft_group *none = &a.groups[0], *p1 = &a.groups[1],
                        *p2 = &a.groups[2];
  cr_assert_str_eq(none->rep->cell[FT_COL_PROTOCOL], "none");
  cr_assert_float_eq(p1->time.mean, 1.162, 1e-9);
  cr_assert_eq(p2->nrows, 2);
  cr_assert_eq(p2->nok, 1);
  cr_assert_float_eq(p1->eff, 1.0 / 1.162, 1e-9);
  /* its interval from the time's: 1 / (1.162 -+ 12.706 x 0.05) */
  cr_assert_float_eq(p1->eff_lo, 1.0 / (1.162 + 12.706 * 0.05), 1e-9);
  cr_assert_float_eq(p1->eff_hi, 1.0 / (1.162 - 12.706 * 0.05), 1e-9);
  /* C: (0.1/10 + 0.2/10 + 0.05/5) / 3 = 0.04 / 3 */
  cr_assert_float_eq(p1->cost, 0.04 / 3, 1e-9);
  cr_assert_float_eq(p1->best_period, 0.02, 1e-12);
  cr_assert_float_eq(p1->young, sqrt(2 * (0.04 / 3) * 0.1), 1e-9);
  cr_assert(isnan(none->young));
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_analysis_print_csv(m, &a);
  fclose(m);
  cr_assert(strstr(text, "young_s,daly_s,efficiency_lo,efficiency_hi,"
                         "not_distinguishable_from\n"),
            "%s", text);
  free(text);
  ft_analysis_free(&a);
  ft_results_free(&r);
}

/* Issue 13, defect 3: max_time goes to the points of protocols that
 * recover (none has no dispatcher to stop it, and needs none). */
/* ---- issue 19, item 4: provenance, the overlap rule, the fit, the
 * efficiency's interval */

Test(results, provenance_comments_before_the_header) {
  struct ft_provenance p;
  char *argv[] = {"-j", "2", "it's.txt"};
  ft_provenance_here(&p, "sweep", "no/such/file.txt", 3, argv);
  cr_assert_str_eq(p.command, "ftsim sweep -j 2 'it'\\''s.txt'");
  cr_assert_str_eq(p.sweep, "no/such/file.txt");
  cr_assert_str_eq(p.commit, ft_build_commit());
  snprintf(p.sweep, sizeof p.sweep, "a\nb.txt"); /* stays one line */
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_provenance_write(m, &p);
  fputs("# another comment\n", m);
  ft_results_header(m);
  fputs(ROW("1", "0.5", "3"), m);
  fclose(m);
  cr_assert(strstr(text, "# sweep_file: a?b.txt\n"), "%s", text);
  cr_assert_eq(ft_results_parse(text, len, "r.csv", &r, NULL, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(r.count, 1);
  cr_assert_eq(r.rows[0].line, 6); /* lines count the comments */
  cr_assert_str_eq(r.prov.commit, p.commit);
  cr_assert_str_eq(r.prov.sweep, "a?b.txt");
  cr_assert_str_eq(r.prov.command, p.command);
  ft_results_free(&r);
  free(text);
}

Test(results_errors, comments_only_before_the_header) {
  const char *only = "# commit: x\n";
  cr_assert_eq(
      ft_results_parse(only, strlen(only), "r.csv", &r, NULL, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "r.csv:1: field 'header': missing after the comment "
                        "lines");
  ft_results_free(&r);
  cr_assert_eq(parse_csv(ROW("1", "0.5", "3") "# commit: x\n", NULL), -1);
  cr_assert_str_eq(err, "r.csv:3: expected 29 fields, got 1");
  ft_results_free(&r);
}

Test(stats, overlap_rule) {
  cr_assert(ft_intervals_overlap(1.0, 0.1, 1.2, 0.1)); /* touching */
  cr_assert(!ft_intervals_overlap(1.0, 0.1, 1.21, 0.1));
  cr_assert(ft_intervals_overlap(1.2, 0.3, 1.0, 0.0));
  cr_assert(ft_intervals_overlap(1.0, NAN, 1.0, NAN)); /* points: equal */
  cr_assert(!ft_intervals_overlap(1.0, NAN, 1.1, 0.05));
}

Test(stats, line_fit) {
  const double x[] = {1, 2, 3, 4}, y[] = {3, 5, 7, 9.4};
  struct ft_line_fit f = ft_line_fit(x, y, 4);
  /* sxx = 5, sxy = 10.6: slope 2.12, intercept 6.1 - 2.12 * 2.5 = 0.8;
   * residuals -0.08, -0.2, -0.32, -0.04 + ... */
  cr_assert_eq(f.n, 4);
  cr_assert_float_eq(f.slope, 2.12, 1e-12);
  cr_assert_float_eq(f.intercept, 0.8, 1e-12);
  double res = 0, tot = 0;
  for (int i = 0; i < 4; i++) {
    double e = y[i] - (0.8 + 2.12 * x[i]);
    res += e * e, tot += (y[i] - 6.1) * (y[i] - 6.1);
  }
  cr_assert_float_eq(f.r2, 1 - res / tot, 1e-12);
  cr_assert(f.r2 > 0.99 && f.r2 < 1);
  const double same_x[] = {2, 2}, flat[] = {1, 1, 1};
  cr_assert(isnan(ft_line_fit(same_x, y, 2).slope));
  cr_assert(isnan(ft_line_fit(x, y, 1).r2));
  cr_assert_float_eq(ft_line_fit(x, flat, 3).r2, 1, 1e-12);
}

Test(stats, efficiency_interval_from_the_time) {
  double lo, hi;
  ft_ratio_interval(1.0, 2.0, 0.5, &lo, &hi);
  cr_assert_float_eq(lo, 1.0 / 2.5, 1e-12);
  cr_assert_float_eq(hi, 1.0 / 1.5, 1e-12);
  ft_ratio_interval(1.0, 2.0, 2.0, &lo, &hi);
  cr_assert(isinf(hi));
  ft_ratio_interval(1.0, 2.0, NAN, &lo, &hi);
  cr_assert(isnan(lo) && isnan(hi));
}

/* Two seeds: half-width t(0.975, 1) x |t1 - t2| / 2 = 12.706 x 0.001. pcl
 * is best at 0.01 (1.000 +- 0.0127); its 0.02 overlaps (1.016 +- 0.0127),
 * its 0.04 does not (1.200); vcl's 0.02 overlaps (1.010 +- 0.0127), its
 * 0.04 (one seed, a point at 1.012) lies inside pcl's interval; vcl at
 * another MTBF is another panel. */
#define TIE(proto, period, mtbf, seed, t)                                      \
  proto ",gige,cg,16,1," period "," mtbf ",," seed ",0,0,0,x,0,ok,true," t     \
        ",3,1,1,100,0.01,0.002,10,1000,1,,,2.5\n"

Test(analyze, not_distinguishable_rule) {
  static const char csv[] = TIE("pcl", "0.01", "0.1", "1", "0.999")
      TIE("pcl", "0.01", "0.1", "2", "1.001")
          TIE("pcl", "0.02", "0.1", "1", "1.015")
              TIE("pcl", "0.02", "0.1", "2", "1.017")
                  TIE("pcl", "0.04", "0.1", "1", "1.199")
                      TIE("pcl", "0.04", "0.1", "2", "1.201")
                          TIE("vcl", "0.02", "0.1", "1", "1.009")
                              TIE("vcl", "0.02", "0.1", "2", "1.011")
                                  TIE("vcl", "0.04", "0.1", "1", "1.012")
                                      TIE("vcl", "0.04", "0.2", "1", "2.0")
                                          TIE("vcl", "0.04", "0.2", "2", "2.1");
  cr_assert_eq(parse_csv(csv, NULL), 0, "%s", err);
  struct ft_analysis a;
  ft_analysis_build(&r, &a);
  const struct ft_group *pcl = &a.groups[0];
  cr_assert_str_eq(pcl->rep->cell[FT_COL_PERIOD], "0.01");
  cr_assert_eq(ft_analysis_best_of(&a, &a.groups[2]), pcl);
  cr_assert_eq(ft_analysis_panel_best(&a, &a.groups[3]), pcl);
  cr_assert_float_eq(pcl->time.ci95, 12.706 * 0.001, 1e-9);
  char text[256];
  ft_analysis_ties_text(&a, pcl, text, sizeof text);
  cr_assert_str_eq(text, "vcl@0.02 vcl@0.04 0.02");
  const struct ft_group *vcl_alone = &a.groups[4];
  cr_assert_str_eq(vcl_alone->rep->cell[FT_COL_PERIOD], "0.04");
  ft_analysis_ties_text(&a, vcl_alone, text, sizeof text);
  cr_assert_str_eq(text, "n<2"); /* one seed: not judged */
  const struct ft_group *other = &a.groups[5];
  cr_assert_str_eq(other->rep->cell[FT_COL_MTBF], "0.2");
  ft_analysis_ties_text(&a, other, text, sizeof text);
  cr_assert_str_eq(text, "-"); /* alone in its panel */
  /* the efficiency's interval: T_ff is pcl's... none here: NAN */
  cr_assert(isnan(pcl->eff_lo));
  ft_analysis_free(&a);
  ft_results_free(&r);
}

Test(sweep_file, max_time_goes_to_recovering_protocols) {
  cr_assert_eq(ft_sweep_parse(BASE "max_time 2.5\n", "dir/s.txt", 0, &s, err,
                              sizeof err),
               0, "%s", err);
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  for (size_t i = 0; i < p.count; i++) {
    struct ft_strv argv = FT_STRV_INIT;
    ft_point_run_args(&s, &p.items[i], NULL, &argv);
    int found = 0;
    for (size_t k = 0; k < argv.count; k++)
      found |= strcmp(argv.items[k], "max_time=2.5") == 0;
    cr_assert_eq(found, strcmp(p.items[i].param[FT_COL_PROTOCOL], "none") != 0,
                 "point %zu (%s)", i, p.items[i].param[FT_COL_PROTOCOL]);
    ft_strv_free(&argv);
  }
  ft_points_free(&p);
  ft_sweep_free(&s);
  parse_fails(BASE "max_time -1\n", "dir/s.txt:5: field 'max_time': expected "
                                    "seconds in [0, 1e9], got '-1' (out of "
                                    "range)");
}

/* ---- --emit-slurm's options and array (issue 18, item 5) */

Test(sweep_slurm, time_limits_in_slurm_formats) {
  long m = 0;
  cr_assert_eq(ft_slurm_parse_time("30", &m), 0);
  cr_assert_eq(m, 30);
  cr_assert_eq(ft_slurm_parse_time("1:30", &m), 0); /* MINUTES:SECONDS */
  cr_assert_eq(m, 2);
  cr_assert_eq(ft_slurm_parse_time("2:00:00", &m), 0);
  cr_assert_eq(m, 120);
  cr_assert_eq(ft_slurm_parse_time("1-2", &m), 0); /* DAYS-HOURS */
  cr_assert_eq(m, 26 * 60);
  cr_assert_eq(ft_slurm_parse_time("1-0:30", &m), 0);
  cr_assert_eq(m, 24 * 60 + 30);
  cr_assert_eq(ft_slurm_parse_time("0-0:0:1", &m), 0);
  cr_assert_eq(m, 1);
  const char *bad[] = {"",     "0",  "0:00",  "-1",         "1-",     "1-24",
                       "1:60", "1h", "1.5",   "1:2:3:4",    "a",      "1--2",
                       ":1",   "1:", "1-1-1", "1234567890", "1:00:60"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_expect_eq(ft_slurm_parse_time(bad[i], &m), -1, "accepted '%s'", bad[i]);
}

Test(sweep_slurm, memory_sizes) {
  const char *good[] = {"100", "2G", "512M", "1T", "64K"};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    cr_expect_eq(ft_slurm_parse_mem(good[i]), 0, "refused '%s'", good[i]);
  const char *bad[] = {"", "0", "0G", "G", "2GB", "2g", "-1", "1.5G", "2 G"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    cr_expect_eq(ft_slurm_parse_mem(bad[i]), -1, "accepted '%s'", bad[i]);
}

Test(sweep_slurm, default_time_covers_every_point_of_a_task) {
  cr_assert_eq(ft_slurm_default_minutes(600, 1), 12); /* 605 s: 11 + 1 */
  cr_assert_eq(ft_slurm_default_minutes(55, 4), 5);   /* 240 s: 4 + 1 */
  cr_assert_eq(ft_slurm_default_minutes(0, 3), 0);    /* no time-out */
}

static void expect_spec(const bool *todo, size_t n, const char *want) {
  char *got = ft_slurm_array_spec(todo, n);
  cr_expect_str_eq(got, want);
  free(got);
}

Test(sweep_slurm, array_lists_only_the_tasks_to_run_as_ranges) {
  bool all[4] = {true, true, true, true};
  bool some[10] = {true,  true, false, true, false,
                   false, true, true,  true, false};
  bool none[3] = {false, false, false};
  bool last[3] = {false, false, true};
  expect_spec(all, 4, "0-3");
  expect_spec(some, 10, "0-1,3,6-8");
  expect_spec(none, 3, "");
  expect_spec(last, 3, "2");
}

static int by_cost(const void *a, const void *b) {
  return ft_point_cmp_cost(a, b);
}

/* Issue 18, item 5: the longest-looking points start first, so that the
 * last to run are short: more ranks, then failures, then a protocol that
 * recovers (pcl without failures took 3 to 4 times none's wall time at 64
 * ranks; none was started before them when only ranks and failures
 * counted), then the shorter MTBF and the shorter period. */
Test(sweep_points, longest_looking_first) {
  parse_ok(BASE "periods 0.04 0.02\nmtbfs none 0.2 0.1\nseeds 1\n");
  struct ft_points p = {0};
  ft_points_expand(&s, &p);
  cr_assert_eq(p.count, 1 + 2 * 3);
  qsort(p.items, p.count, sizeof *p.items, by_cost);
  const char *want[][3] = {{"pcl", "0.02", "0.1"},  {"pcl", "0.04", "0.1"},
                           {"pcl", "0.02", "0.2"},  {"pcl", "0.04", "0.2"},
                           {"pcl", "0.02", "none"}, {"pcl", "0.04", "none"},
                           {"none", "0", "none"}};
  for (size_t i = 0; i < p.count; i++) {
    cr_expect_str_eq(p.items[i].param[FT_COL_PROTOCOL], want[i][0], "#%zu", i);
    cr_expect_str_eq(p.items[i].param[FT_COL_PERIOD], want[i][1], "#%zu", i);
    cr_expect_str_eq(p.items[i].param[FT_COL_MTBF], want[i][2], "#%zu", i);
  }
  ft_points_free(&p);
  ft_sweep_free(&s);
}
