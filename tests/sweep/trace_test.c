/* Unit tests of failure traces (sim/failure_trace.c) and of the scenario
 * directives that use them (sim/scenario.c: trace, trace_scale, ...),
 * on the sample files of scenarios/traces/ and on small texts. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "failure_trace.h"
#include "scenario.h"

#define TRACES FTSIM_SOURCE_DIR "/scenarios/traces"

static struct ft_trace t;
static char err[512];

static void parse_ok(const char *text, enum ft_trace_format fmt, long sys) {
  cr_assert_eq(
      ft_trace_parse(text, strlen(text), fmt, "t", sys, &t, err, sizeof err), 0,
      "%s", err);
}

static void parse_fails(const char *text, enum ft_trace_format fmt,
                        const char *msg) {
  cr_assert_eq(
      ft_trace_parse(text, strlen(text), fmt, "t", -1, &t, err, sizeof err), -1,
      "accepted: %s", text);
  cr_assert_str_eq(err, msg);
  cr_assert_null(t.events);
}

static void expect(size_t i, double time, int node) {
  cr_assert_lt(i, t.nevents);
  cr_assert_float_eq(t.events[i].time, time, 1e-6, "event %zu", i);
  cr_assert_eq(t.events[i].node, node, "event %zu", i);
}

Test(trace, lanl_sample_system_20) {
  cr_assert_eq(ft_trace_load(TRACES "/lanl-sample.csv", FT_TRACE_LANL, 20, &t,
                             err, sizeof err),
               0, "%s", err);
  cr_assert_eq(t.nevents, 5);
  cr_assert_eq(t.nnodes, 4);
  cr_assert_float_eq(t.origin, 1119341400.0, 1e-3); /* 6/21/2005 8:10 UTC */
  expect(0, 0, 0);                                  /* node 7 */
  expect(1, 9840, 1);                               /* node 12, 10:54 */
  expect(2, 52200, 2);                              /* node 31 */
  expect(3, 60900, 1);                              /* node 12 again */
  expect(4, 193800, 3);                             /* node 3, 6/23 */
  ft_trace_free(&t);
  ft_trace_free(&t);
}

Test(trace, lanl_sample_all_systems) {
  cr_assert_eq(ft_trace_load(TRACES "/lanl-sample.csv", FT_TRACE_LANL, -1, &t,
                             err, sizeof err),
               0, "%s", err);
  cr_assert_eq(t.nevents, 6);
  cr_assert_eq(t.nnodes, 5);
  expect(1, 4800, 1); /* system 2, node 0: another node than 20:0 */
  expect(2, 9840, 2);
  ft_trace_free(&t);
}

Test(trace, fta_sample) {
  cr_assert_eq(ft_trace_load(TRACES "/fta-sample.tab", FT_TRACE_FTA, -1, &t,
                             err, sizeof err),
               0, "%s", err);
  cr_assert_eq(t.nevents, 5); /* the availability rows are skipped */
  cr_assert_eq(t.nnodes, 4);
  expect(0, 0, 0);
  expect(1, 1600, 1);
  expect(2, 3400, 2);
  expect(3, 11000.25, 3);
  expect(4, 19000, 1);
  ft_trace_free(&t);
  cr_assert_eq(ft_trace_load(TRACES "/fta-sample.tab", FT_TRACE_FTA, 1, &t, err,
                             sizeof err),
               0, "%s", err);
  cr_assert_eq(t.nevents, 4);
  expect(1, 1800, 1);
  expect(3, 17400, 0);
  ft_trace_free(&t);
}

Test(trace, lanl_columns_by_name_quotes_and_short_years) {
  parse_ok("# a comment\n\"Prob Started\",x,\"nodenum\",System\n"
           "\"1/2/99 0:00\",\"a,b\",3,1\n"
           "1/1/1999 23:59:30,,4,1\n",
           FT_TRACE_LANL, -1);
  cr_assert_eq(t.nevents, 2);
  expect(0, 0, 0);
  expect(1, 30, 1);
  ft_trace_free(&t);
}

Test(trace, fta_blank_separated_without_header) {
  parse_ok("1 0 n1 7 name 0 10.5 11 NULL\n2 0 n2 7 name 0 10 11 NULL\n",
           FT_TRACE_FTA, -1);
  cr_assert_eq(t.nevents, 2);
  cr_assert_float_eq(t.origin, 10.0, 1e-9);
  expect(1, 0.5, 1);
  ft_trace_free(&t);
}

Test(trace, empty_trace_has_no_event) {
  parse_ok("System,nodenum,Prob Started\n", FT_TRACE_LANL, -1);
  cr_assert_eq(t.nevents, 0);
  ft_trace_free(&t);
  parse_ok("", FT_TRACE_FTA, -1);
  cr_assert_eq(t.nevents, 0);
  ft_trace_free(&t);
}

Test(trace_errors, lanl_missing_column) {
  parse_fails("System,node,Prob Started\n1,2,1/1/2000 0:00\n", FT_TRACE_LANL,
              "t:1: field 'nodenum': no such column in the header");
}

Test(trace_errors, lanl_bad_date) {
  parse_fails("System,nodenum,Prob Started\n1,2,1/1/2000 0:00\n1,2,2/30/2000 "
              "1:00\n",
              FT_TRACE_LANL,
              "t:3: field 'Prob Started': expected mm/dd/yyyy hh:mm, got "
              "'2/30/2000 1:00'");
}

Test(trace_errors, lanl_bad_node_and_short_row) {
  parse_fails("System,nodenum,Prob Started\n1,x,1/1/2000 0:00\n", FT_TRACE_LANL,
              "t:2: field 'nodenum': expected an integer, got 'x'");
  parse_fails("System,nodenum,Prob Started\n1,2\n", FT_TRACE_LANL,
              "t:2: expected at least 3 columns (as the header), got 2");
  parse_fails("System,nodenum,Prob Started\n\"1,2\n", FT_TRACE_LANL,
              "t:2: malformed CSV: unterminated quoted field");
}

Test(trace_errors, lanl_no_header) {
  parse_fails("# nothing\n", FT_TRACE_LANL,
              "t: no header row (LANL traces name their columns: System, "
              "nodenum, Prob Started)");
}

Test(trace_errors, fta_bad_rows) {
  parse_fails("1\t0\t5\t1\tn\t7\t10\t11\tNULL\n", FT_TRACE_FTA,
              "t:1: field 'event_type': expected 0 or 1, got '7'");
  parse_fails("1\t0\t5\t1\tn\t0\t-4\t11\tNULL\n", FT_TRACE_FTA,
              "t:1: field 'event_start_time': expected epoch seconds >= 0, "
              "got '-4'");
  parse_fails("1\t0\t5\n", FT_TRACE_FTA,
              "t:1: expected 9 columns (FTA event_trace), got 3");
  parse_fails("1\t0\t5\tp\tn\t0\t1\t2\tNULL\n", FT_TRACE_FTA,
              "t:1: field 'platform_id': expected an integer, got 'p'");
}

Test(trace_errors, nul_byte_and_missing_file) {
  cr_assert_eq(
      ft_trace_parse("a\0b", 3, FT_TRACE_FTA, "t", -1, &t, err, sizeof err),
      -1);
  cr_assert_str_eq(err, "t: not a text file (NUL byte at offset 1)");
  cr_assert_eq(ft_trace_load("/nonexistent/t.csv", FT_TRACE_LANL, -1, &t, err,
                             sizeof err),
               -1);
  cr_assert_str_eq(
      err, "/nonexistent/t.csv: cannot read: No such file or directory");
}

Test(trace, rank_mapping) {
  cr_assert_eq(ft_trace_rank(5, 4, FT_TRACE_MAP_MODULO), 1);
  cr_assert_eq(ft_trace_rank(3, 4, FT_TRACE_MAP_FIRST), 3);
  cr_assert_eq(ft_trace_rank(4, 4, FT_TRACE_MAP_FIRST), -1);
  cr_assert_eq(ft_trace_rank(0, 0, FT_TRACE_MAP_MODULO), -1);
  enum ft_trace_map m;
  enum ft_trace_format f;
  cr_assert_eq(ft_trace_map_parse("first", &m), 0);
  cr_assert_eq(m, FT_TRACE_MAP_FIRST);
  cr_assert_eq(ft_trace_map_parse("last", &m), -1);
  cr_assert_eq(ft_trace_format_parse("fta", &f), 0);
  cr_assert_eq(f, FT_TRACE_FTA);
  cr_assert_eq(ft_trace_format_parse("swf", &f), -1);
}

Test(csv, split_and_put) {
  char *f[4], buf[64];
  const char *why = NULL;
  const char *line = "a,\"b,\"\"c\"\"\",,d\r";
  cr_assert_eq(
      ft_csv_split(line, strlen(line), ',', f, 4, buf, sizeof buf, &why), 4);
  cr_assert_str_eq(f[1], "b,\"c\"");
  cr_assert_str_eq(f[2], "");
  cr_assert_str_eq(f[3], "d");
  cr_assert_eq(ft_csv_split("\"x\"y", 4, ',', f, 4, buf, sizeof buf, &why), -1);
  cr_assert_str_eq(why, "text after a closing quote");
  cr_assert_eq(ft_csv_split("abcdef", 6, ',', f, 4, buf, 4, &why), -1);
  cr_assert_str_eq(why, "line too long");
  char out[64] = "";
  FILE *m = fmemopen(out, sizeof out, "w");
  ft_csv_put(m, "plain");
  ft_csv_put(m, "a,\"b\"");
  fclose(m);
  cr_assert_str_eq(out, "plain\"a,\"\"b\"\"\"");
}

/* ---- the scenario directives */

static struct ft_scenario s;

/* Writes `text` as a scenario in the traces directory's parent and loads
 * it, so that "traces/..." resolves from the scenario's directory. */
static int load_scenario(const char *text) {
  char path[] = "/tmp/ftsim-trace-test-XXXXXX";
  cr_assert_not_null(mkdtemp(path));
  char file[128], link[128];
  snprintf(file, sizeof file, "%s/s.txt", path);
  snprintf(link, sizeof link, "%s/traces", path);
  cr_assert_eq(symlink(TRACES, link), 0);
  FILE *f = fopen(file, "w");
  fputs(text, f);
  fclose(f);
  int rc = ft_scenario_load(file, &s, err, sizeof err);
  /* Messages name the temporary directory: keep only what follows it. */
  size_t n = strlen(path);
  if (rc && strncmp(err, path, n) == 0)
    memmove(err, err + n + 1, strlen(err + n + 1) + 1);
  unlink(file);
  unlink(link);
  rmdir(path);
  return rc;
}

Test(scenario_trace, lanl_scaled_shifted_modulo) {
  cr_assert_eq(load_scenario("trace lanl traces/lanl-sample.csv\n"
                             "trace_system 20\ntrace_scale 1e-5\n"
                             "trace_shift 0.01\nfail 0 at 0.05\n"),
               0, "%s", err);
  struct ft_failure_stream st;
  struct ft_failure f[8];
  ft_failures_start(&st, &s, 3);
  size_t n = 0;
  while (n < 8 && ft_failures_next(&st, &f[n]))
    n++;
  cr_assert_eq(n, 6);
  /* trace: 0.01 r0, 0.1084 r1, 0.532 r2, 0.619 r1, 1.948 node 3 -> r0 */
  cr_assert_float_eq(f[0].time, 0.01, 1e-9);
  cr_assert_eq(f[0].rank, 0);
  cr_assert_float_eq(f[1].time, 0.05, 1e-9); /* the explicit one */
  cr_assert_float_eq(f[2].time, 0.1084, 1e-9);
  cr_assert_eq(f[2].rank, 1);
  cr_assert_float_eq(f[5].time, 1.948, 1e-9);
  cr_assert_eq(f[5].rank, 0);
  ft_scenario_free(&s);
}

Test(scenario_trace, first_map_drops_and_until_stops) {
  cr_assert_eq(load_scenario("trace fta traces/fta-sample.tab\n"
                             "trace_map first\nuntil 15000\n"),
               0, "%s", err);
  struct ft_failure_stream st;
  struct ft_failure f;
  ft_failures_start(&st, &s, 2);
  cr_assert_eq(ft_failures_next(&st, &f), 1);
  cr_assert_eq(f.rank, 0);
  cr_assert_eq(ft_failures_next(&st, &f), 1);
  cr_assert_eq(f.rank, 1);
  cr_assert_float_eq(f.time, 1600, 1e-9);
  /* nodes 2 and 3 are dropped; node 1 again at 19000 is after until */
  cr_assert_eq(ft_failures_next(&st, &f), 0);
  ft_scenario_free(&s);
}

Test(scenario_trace, errors_name_the_scenario_and_the_trace) {
  cr_assert_eq(load_scenario("trace swf x.txt\n"), -1);
  cr_assert_str_eq(err,
                   "s.txt:1: field 'trace': format must be lanl or fta, got "
                   "'swf'");
  cr_assert_eq(load_scenario("seed 2\ntrace lanl traces/fta-sample.tab\n"), -1);
  cr_assert(strstr(err, "s.txt:2: field 'trace': ") == err, "%s", err);
  cr_assert(strstr(err, "fta-sample.tab:1: field 'System': no such column"),
            "%s", err);
  cr_assert_eq(load_scenario("trace_map random\n"), -1);
  cr_assert_str_eq(err, "s.txt:1: field 'trace_map': map must be modulo or "
                        "first, got 'random'");
  cr_assert_eq(load_scenario("tracescale 2\n"), -1);
  cr_assert_str_eq(err, "s.txt:1: unknown directive 'tracescale' (known: "
                        "trace, trace_scale, trace_shift, trace_system, "
                        "trace_map)");
}
