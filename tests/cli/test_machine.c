/* Unit tests of this machine's platform file (machine.h) and of
 * crosscheck's numbers (crosscheck_stats.h): issue 20, items 1 and 2. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crosscheck_stats.h"
#include "machine.h"

static char err[1024];

static struct ft_machine sample(void) {
  struct ft_machine m = {.name = "node",
                         .cores = 2,
                         .hosts = 3,
                         .speed = 5e9,
                         .lat_s = 1e-6,
                         .bw_bps = 8e9,
                         .bw_bytes = 8388608,
                         .pingpong = "test"};
  return m;
}

Test(machine, parses_the_pingpong_line_at_its_largest_size) {
  double lat, bw, test, probe;
  long bytes;
  cr_assert_eq(ft_machine_parse_pingpong("pair vm vm lat_us 0.3023 "
                                         "bw_mbps@1048576 5565.3 "
                                         "bw_mbps@8388608 6719.85",
                                         &lat, &bw, &bytes, &test, &probe, err,
                                         sizeof err),
               0, "%s", err);
  cr_assert_float_eq(lat, 0.3023e-6, 1e-12);
  cr_assert_float_eq(bw, 6719.85e6, 1);
  cr_assert_eq(bytes, 8388608);
  cr_assert_float_eq(test, 0, 1e-15);
  cr_assert_eq(ft_machine_parse_pingpong("pair vm vm lat_us 0.3 bw_mbps@8 5 "
                                         "test_us 0.0567 iprobe_us 0.081",
                                         &lat, &bw, &bytes, &test, &probe, err,
                                         sizeof err),
               0, "%s", err);
  cr_assert_float_eq(test, 0.0567e-6, 1e-15);
  cr_assert_float_eq(probe, 0.081e-6, 1e-15);
  cr_assert_eq(ft_machine_parse_pingpong("pair vm vm lat_us 0.3 bw_mbps@8 5 "
                                         "test_us 0.05 iprobe_us -1",
                                         &lat, &bw, &bytes, &test, &probe, err,
                                         sizeof err),
               -1);
  cr_assert(strstr(err, "iprobe_us must be >= 0"), "%s", err);
}

Test(machine, refuses_a_malformed_or_zero_pingpong_line) {
  double lat, bw, test, probe;
  long bytes;
  cr_assert_eq(ft_machine_parse_pingpong("pair a b lat_us x", &lat, &bw, &bytes,
                                         &test, &probe, err, sizeof err),
               -1);
  cr_assert(strstr(err, "expected 'pair A B lat_us X bw_mbps@S Y'"), "%s", err);
  cr_assert_eq(ft_machine_parse_pingpong("pair a b lat_us 0 bw_mbps@8 5", &lat,
                                         &bw, &bytes, &test, &probe, err,
                                         sizeof err),
               -1);
  cr_assert(strstr(err, "must be > 0"), "%s", err);
  cr_assert_eq(ft_machine_parse_pingpong("pair a b lat_us 1", &lat, &bw, &bytes,
                                         &test, &probe, err, sizeof err),
               -1);
}

Test(machine, check_names_the_field) {
  struct ft_machine m = sample();
  m.hosts = 0;
  cr_assert_eq(ft_machine_check(&m, err, sizeof err), -1);
  cr_assert(strstr(err, "field 'hosts'"), "%s", err);
  m = sample();
  m.speed = NAN;
  cr_assert_eq(ft_machine_check(&m, err, sizeof err), -1);
  cr_assert(strstr(err, "field 'speed'"), "%s", err);
}

/* The links carry half the route latency less the 17 bytes' time, and the
 * bandwidth that gives back the measured time at bw_bytes. */
Test(machine, writes_hosts_links_and_speed) {
  struct ft_machine m = sample();
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<host id=\"local-3\" speed=\"5e+09f\" core=\"1\"/>"),
            "%s", text);
  cr_assert(!strstr(text, "local-4\""));
  cr_assert(strstr(text, "<host id=\"local-service-2\""));
  cr_assert(strstr(text, "smpi/lat-factor\" value=\"0:1\""));
  cr_assert(!strstr(text, "smpi/test"), "no test_s: SMPI's default stays");
  double slope = (8388608 * 8.0 / 8e9 - 1e-6) / (8388608 - 1.0);
  char want[128];
  snprintf(want, sizeof want, "bandwidth=\"%.6gBps\" latency=\"%.6gs\"",
           1 / slope, (1e-6 - 17 * slope) / 2);
  cr_assert(strstr(text, want), "want %s in %s", want, text);
  free(text);
}

Test(machine, sets_the_measured_test_cost) {
  struct ft_machine m = sample();
  m.test_s = 5e-8;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<prop id=\"smpi/test\" value=\"5e-08\"/>"), "%s",
            text);
  cr_assert(strstr(text, "<prop id=\"smpi/iprobe\" value=\"5e-08\"/>"));
  cr_assert(strstr(text, "not measured, as MPI_Test"));
  cr_assert(
      strstr(text, "<prop id=\"smpi/grow-injected-times\" value=\"no\"/>"));
  free(text);
  m.iprobe_s = 8e-8;
  f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<prop id=\"smpi/test\" value=\"5e-08\"/>"));
  cr_assert(strstr(text, "<prop id=\"smpi/iprobe\" value=\"8e-08\"/>"), "%s",
            text);
  cr_assert(strstr(text, "smpi/iprobe-cpu-usage\" value=\"1\""));
  free(text);
}

Test(machine, reads_the_speed_back) {
  char path[] = "/tmp/ftsim-machine-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  struct ft_machine m = sample();
  ft_machine_write_platform(&m, f);
  fclose(f);
  double speed = 0;
  bool disks = true;
  cr_assert_eq(ft_machine_read(path, &speed, &disks), 0);
  cr_assert_float_eq(speed, 5e9, 1);
  cr_assert(!disks); /* sample() measured no disk */
  m.disk_write_Bps = 2.5e8;
  m.disk_read_Bps = 4e9;
  f = fopen(path, "w");
  ft_machine_write_platform(&m, f);
  fclose(f);
  cr_assert_eq(ft_machine_read(path, &speed, &disks), 0);
  cr_assert(disks);
  cr_assert_eq(ft_machine_read("/nonexistent/p.xml", &speed, &disks), -1);
  unlink(path);
}

Test(machine, default_file_follows_the_environment) {
  char out[256];
  setenv(FT_ENV_PLATFORM_CONF, "/x/p.xml", 1);
  cr_assert_eq(ft_machine_platform_file(out, sizeof out), 0);
  cr_assert_str_eq(out, "/x/p.xml");
  unsetenv(FT_ENV_PLATFORM_CONF);
  setenv("XDG_CONFIG_HOME", "/cfg", 1);
  cr_assert_eq(ft_machine_platform_file(out, sizeof out), 0);
  cr_assert_str_eq(out, "/cfg/ftsim/platform.xml");
}

Test(crosscheck, reads_numbers_and_derives_time_per_wave) {
  const char *j = "{\"protocol\":\"pcl\",\"app\":\"cg\",\"completion_time_s\""
                  ":2.5,\"waves\":4,\"bytes\":100,\"recovery_s\":0.0}";
  double v;
  cr_assert_eq(ft_xc_metric_of(j, FT_XC_COMPLETION, &v), 0);
  cr_assert_float_eq(v, 2.5, 1e-12);
  cr_assert_eq(ft_xc_metric_of(j, FT_XC_WAVE_TIME, &v), 0);
  cr_assert_float_eq(v, 0.625, 1e-12);
  cr_assert_eq(ft_xc_metric_of(j, FT_XC_CKPT_BYTES, &v), -1);
  char s[16];
  ft_xc_json_string(j, "app", s, sizeof s);
  cr_assert_str_eq(s, "cg");
  ft_xc_json_string(j, "nope", s, sizeof s);
  cr_assert_str_eq(s, "?");
  cr_assert_eq(ft_xc_json_number("{\"platform\":null}", "platform", &v), -1);
}

Test(crosscheck, no_waves_no_time_per_wave) {
  double v;
  cr_assert_eq(ft_xc_metric_of("{\"completion_time_s\":1,\"waves\":0}",
                               FT_XC_WAVE_TIME, &v),
               -1);
}

Test(crosscheck, median_spread_and_error) {
  struct ft_xc_samples s = {.n = 4, .x = {3, 1, 4, 2}};
  double med, lo, hi;
  ft_xc_summarize(&s, &med, &lo, &hi);
  cr_assert_float_eq(med, 2.5, 1e-12);
  cr_assert_float_eq(lo, 1, 1e-12);
  cr_assert_float_eq(hi, 4, 1e-12);
  cr_assert_float_eq(s.x[0], 3, 1e-12); /* left unsorted */
  cr_assert_float_eq(ft_xc_error(1.1, 1.0), 0.1, 1e-12);
  cr_assert_float_eq(ft_xc_error(0, 0), 0, 1e-12);
  cr_assert(isnan(ft_xc_error(1, 0)));
}

Test(machine, writes_the_measured_disks) {
  struct ft_machine m = {.cores = 2,
                         .hosts = 2,
                         .speed = 5e9,
                         .lat_s = 1e-6,
                         .bw_bps = 8e9,
                         .bw_bytes = 1 << 23,
                         .disk_write_Bps = 2.5e8,
                         .disk_read_Bps = 4e9,
                         .disk_bytes = 1 << 23};
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<host id=\"local-2\" speed=\"5e+09f\" core=\"1\">"
                         "<disk id=\"local-2-disk\" read_bw=\"4e+09Bps\" "
                         "write_bw=\"2.5e+08Bps\"/></host>"),
            "%s", text);
  cr_assert(strstr(text, "<disk id=\"local-service-1-disk\""));
  cr_assert(strstr(text, "measured 250 MB/s"), "%s", text);
  free(text);
}

/* A measured write with a CPU part: the part goes to each host's property
 * (executed on the writer's core by the simulation) and the disk keeps the
 * rest, so that a write alone on its core takes the measured time. */
Test(machine, splits_the_write_into_cpu_and_disk) {
  struct ft_machine m = {.cores = 2,
                         .hosts = 2,
                         .speed = 5e9,
                         .lat_s = 1e-6,
                         .bw_bps = 8e9,
                         .bw_bytes = 1 << 23,
                         .disk_write_Bps = 2.5e8, /* 4 ns a byte */
                         .disk_read_Bps = 4e9,
                         .disk_write_cpu = 1e-9, /* 1 ns a byte of CPU */
                         .disk_bytes = 1 << 23};
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<host id=\"local-2\" speed=\"5e+09f\" core=\"1\">"
                         "<prop id=\"" FT_MACHINE_WRITE_CPU_PROP
                         "\" value=\"1e-09\"/>"
                         "<disk id=\"local-2-disk\" read_bw=\"4e+09Bps\" "
                         "write_bw=\"3.33333e+08Bps\"/></host>"),
            "%s", text);
  cr_assert(strstr(text, "Of the write, 0.001 s per MB were CPU time"), "%s",
            text);
  free(text);
  m.disk_write_cpu = 5e-9; /* more than the whole write: the disk keeps it */
  f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(!strstr(text, "<prop id=\"" FT_MACHINE_WRITE_CPU_PROP), "%s", text);
  cr_assert(strstr(text, "write_bw=\"2.5e+08Bps\""), "%s", text);
  free(text);
}

/* calibrate service's line: the median round trip, in seconds, not the
 * mean (a few rounds of milliseconds make it); anything else (another
 * line, a mean or a median that is not > 0, words after) is refused
 * naming what was expected. */
Test(machine, parses_the_service_line) {
  double rtt = -1;
  cr_assert_eq(ft_machine_parse_service("service rtt_us 251.0461 median_us "
                                        "60.893 max_us 5213.991",
                                        &rtt, err, sizeof err),
               0, "%s", err);
  cr_assert_float_eq(rtt, 60.893e-6, 1e-12);
  const char *bad[] = {"pair a b lat_us 1 bw_mbps@1 1",
                       "service rtt_us 0 median_us 1 max_us 2",
                       "service rtt_us nan median_us 1 max_us 2",
                       "service rtt_us 5 median_us 0 max_us 2",
                       "service rtt_us 5 median_us inf max_us 2",
                       "service rtt_us 5 median_us 1",
                       "service rtt_us 5 median_us 1 max_us 2 more"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    rtt = -1;
    cr_assert_eq(ft_machine_parse_service(bad[i], &rtt, err, sizeof err), -1,
                 "%s", bad[i]);
    cr_assert(strstr(err, "expected 'service rtt_us X median_us Y max_us Z'"),
              "%s", err);
    cr_assert_float_eq(rtt, -1, 1e-15);
  }
}

/* A measured service round trip: every host, compute and service, gets
 * the property (the simulation charges it to a rank's wait for an event
 * logger), with or without a disk; none when not measured. */
Test(machine, writes_the_service_round_trip) {
  struct ft_machine m = sample();
  m.service_rtt_s = 1.5e-4;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(strstr(text, "<host id=\"local-3\" speed=\"5e+09f\" core=\"1\">"
                         "<prop id=\"" FT_MACHINE_SERVICE_RTT_PROP
                         "\" value=\"0.00015\"/></host>"),
            "%s", text);
  cr_assert(strstr(text, "<host id=\"local-service-2\" speed=\"5e+09f\" "
                         "core=\"1\"><prop id=\"" FT_MACHINE_SERVICE_RTT_PROP
                         "\" value=\"0.00015\"/></host>"),
            "%s", text);
  cr_assert(strstr(text, "150 us, the median"), "%s", text);
  free(text);
  m.service_rtt_s = 0;
  f = open_memstream(&text, &len);
  cr_assert_eq(ft_machine_write_platform(&m, f), 0);
  fclose(f);
  cr_assert(!strstr(text, FT_MACHINE_SERVICE_RTT_PROP), "%s", text);
  cr_assert(strstr(text, "<host id=\"local-3\" speed=\"5e+09f\" core=\"1\"/>"),
            "%s", text);
  free(text);
}

/* Writes `text` into a new temporary file named in `path` (a template). */
static void write_text(char *path, const char *text) {
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
}

Test(machine, check_props_accepts_what_calibrate_writes) {
  char path[] = "/tmp/ftsim-machine-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  struct ft_machine m = sample();
  m.service_rtt_s = 4.7e-5;
  m.disk_write_Bps = 2.5e8;
  m.disk_read_Bps = 4e9;
  m.disk_write_cpu = 1e-9;
  ft_machine_write_platform(&m, f);
  fclose(f);
  cr_assert_eq(ft_machine_check_props(path, err, sizeof err), 0, "%s", err);
  unlink(path);
}

Test(machine, check_props_names_file_line_property_and_value) {
  char path[] = "/tmp/ftsim-machine-XXXXXX";
  write_text(path, "<platform>\n"
                   "<!-- <prop id=\"ftsim_service_rtt_s\" value=\"x\"/>\n"
                   "     a comment over two lines -->\n"
                   "<host id=\"a\"><prop id=\"colour\" value=\"red\"/>"
                   "<prop id=\"ftsim_service_rtt_s\" value=\"1e-5\"/></host>\n"
                   "<host id=\"b\"><prop\n"
                   "  value=\"fast\" id=\"ftsim_service_rtt_s\"/></host>\n");
  cr_assert_eq(ft_machine_check_props(path, err, sizeof err), -1);
  char want[256];
  snprintf(want, sizeof want,
           "%s:5: field 'ftsim_service_rtt_s': value 'fast' is not a number "
           "of seconds",
           path);
  cr_assert_str_eq(err, want);
  unlink(path);
}

Test(machine, check_props_refuses_out_of_range_and_unknown) {
  const char *cases[][2] = {
      {"<prop id=\"ftsim_write_cpu_s_per_byte\" value=\"-1e-9\"/>",
       "field 'ftsim_write_cpu_s_per_byte': value '-1e-9' is out of range "
       "(expected 0 <= x < 1 second per byte)"},
      {"<prop id=\"ftsim_service_rtt_s\" value=\"1\"/>",
       "field 'ftsim_service_rtt_s': value '1' is out of range (expected 0 "
       "<= x < 1 second)"},
      {"<prop id=\"ftsim_service_rtt_s\" value=\"inf\"/>",
       "field 'ftsim_service_rtt_s': value 'inf' is not a number of "
       "seconds"},
      {"<prop id=\"ftsim_rtt\" value=\"1e-5\"/>",
       "field 'ftsim_rtt': unknown ftsim_ host property (known: "
       "ftsim_service_rtt_s, ftsim_write_cpu_s_per_byte)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[] = "/tmp/ftsim-machine-XXXXXX";
    write_text(path, cases[i][0]);
    cr_assert_eq(ft_machine_check_props(path, err, sizeof err), -1, "%s",
                 cases[i][0]);
    cr_assert(strstr(err, cases[i][1]), "%s", err);
    cr_assert(strncmp(err, path, strlen(path)) == 0 &&
                  strncmp(err + strlen(path), ":1: ", 4) == 0,
              "%s", err);
    unlink(path);
  }
  cr_assert_eq(ft_machine_check_props("/nonexistent/p.xml", err, sizeof err),
               -1);
  cr_assert_str_eq(err, "/nonexistent/p.xml: cannot read the file");
}
