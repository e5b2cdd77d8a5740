/* `ftsim crosscheck` (see crosscheck.h). */
#define _DEFAULT_SOURCE /* getloadavg */
#include "crosscheck.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crosscheck_stats.h"
#include "launch.h"
#include "machine.h"
#include "options.h"
#include "outcome.h"
#include "strv.h"
#include "together.h"

#define PATH_LEN 4096
#define DEFAULT_REPEAT 3

struct xc {
  int repeat;
  const char *platform; /* --platform, or NULL: the calibrated file */
  char platform_file[PATH_LEN];
  char self[PATH_LEN];     /* this ftsim */
  char speed[32];          /* the platform's core speed, for --host-speed */
  struct ft_strv run_args; /* what goes to `ftsim run` */
  bool host_speed_given;
  bool disks;    /* the platform declares <disk>s: storage=shared */
  int width;     /* simulated runs at once (together.h) */
  int simulated; /* simulated runs: repeat rounded up to a multiple of it */
  struct ft_xc_samples s[2][FT_XC_NMETRICS]; /* [real?][metric] */
  char first_json[2][8192];                  /* one JSON line per mode */
  struct ft_xc_samples cpu, wall; /* real runs: CPU of every process, wall */
  double load;                    /* 1-minute load average at the start */
};

/* One child's output: its JSON line and its other lines (for errors). */
struct child {
  char json[8192];
  struct ft_strv lines;
  double cpu_s;  /* user + system time of the child and all it waited for */
  double wall_s; /* its wall-clock time */
};

/* User + system seconds of the waited-for descendants so far. */
static double children_cpu(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
    return 0;
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static int fail(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "ftsim: crosscheck: <text>" on stderr; returns `status`. */
static int fail(int status, const char *fmt, ...) {
  va_list ap;
  fputs("ftsim: crosscheck: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return status;
}

void ft_crosscheck_usage(FILE *out) {
  char file[PATH_LEN];
  if (ft_machine_platform_file(file, sizeof file))
    snprintf(file, sizeof file, "(name too long)");
  fprintf(
      out,
      "Usage: ftsim crosscheck [--repeat K] [--platform FILE] [run "
      "options] [-- app arguments]\n"
      "\n"
      "Runs the program K times for real (ftsim run --real: mpirun on this\n"
      "machine) and K times simulated on this machine's platform (default\n"
      "the file ftsim calibrate writes: %s), then prints per\n"
      "metric the real median and spread (min..max), the simulated median\n"
      "and the relative error (simulated - real) / real:\n"
      "  completion_time_s, messages, bytes, waves, ckpt_bytes,\n"
      "  time_per_wave_s (completion_time_s / waves), recovery_s.\n"
      "It ends with one JSON line: real_s, real_min_s, real_max_s,\n"
      "simulated_s, error (of the completion time), and for each metric\n"
      "M: M_real, M_simulated, M_error (null when not available).\n"
      "\n"
      "  --repeat K       runs per mode, 1 to %d (default %d)\n"
      "  --together N     simulated runs at once, 1 to %d (default 1: on an\n"
      "                   idle machine two at once made the measured kernels\n"
      "                   slower than the real ranks'); K is rounded up to a\n"
      "                   multiple of N\n"
      "  --platform FILE  the simulated machine (default: the calibrated\n"
      "                   file; without one crosscheck refuses to run)\n"
      "  run options      those of ftsim run: --app, --np, --protocol,\n"
      "                   --scenario, --set, --compute... (not --real,\n"
      "                   --replay, --dry-run, --hostfile-out)\n"
      "The simulated runs get --host-speed = the platform's core speed\n"
      "(for --compute measured), unless given, and --set storage=shared\n"
      "when the platform has disks (the calibrated file has: reference\n"
      "mode's server writes each image durably) and no storage is set,\n"
      "and --set service_placement=shared unless set (the real service\n"
      "processes share this machine's cores with the ranks).\n"
      "--set failure=kill goes to\n"
      "the real runs only (SIGKILL and relaunch); the simulated runs make\n"
      "those failures logical, restarting in the scenario's restart time.\n"
      "Exit status: 0 all runs succeeded, 1 a run failed (its output is\n"
      "shown), 2 bad arguments or no platform (nothing launched).\n",
      file, FT_XC_MAX_RUNS, DEFAULT_REPEAT, FT_TOGETHER_MAX);
}

static const char *const refused[] = {"--real", "--replay", "--dry-run",
                                      "--hostfile-out", "--trace"};

/* An option that ftsim run takes but crosscheck cannot use: its name. */
static const char *refused_option(const char *word) {
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    size_t n = strlen(refused[i]);
    if (strncmp(word, refused[i], n) == 0 && (!word[n] || word[n] == '='))
      return refused[i];
  }
  return NULL;
}

/* A value of --repeat / --platform, as "--x V" or "--x=V": the value, or
 * NULL (and *i unchanged) when argv[*i] is not `flag`. */
static const char *flag_value(int argc, char **argv, int *i, const char *flag,
                              bool *missing) {
  size_t n = strlen(flag);
  if (strncmp(argv[*i], flag, n) != 0)
    return NULL;
  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (argv[*i][n])
    return NULL;
  if (*i + 1 >= argc) {
    *missing = true;
    return NULL;
  }
  return argv[++*i];
}

static int parse(struct xc *x, int argc, char **argv) {
  bool after_dashes = false, missing = false;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (after_dashes || strcmp(argv[i], "--") == 0) {
      after_dashes = true;
    } else if ((v = flag_value(argc, argv, &i, "--repeat", &missing))) {
      if (ft_parse_int(v, 1, FT_XC_MAX_RUNS, &x->repeat))
        return fail(FT_EXIT_USAGE,
                    "--repeat: expected an integer from 1 to %d, got '%s'",
                    FT_XC_MAX_RUNS, v);
      continue;
    } else if ((v = flag_value(argc, argv, &i, "--together", &missing))) {
      if (ft_parse_int(v, 1, FT_TOGETHER_MAX, &x->width))
        return fail(FT_EXIT_USAGE,
                    "--together: expected an integer from 1 to %d, got '%s'",
                    FT_TOGETHER_MAX, v);
      continue;
    } else if ((v = flag_value(argc, argv, &i, "--platform", &missing))) {
      x->platform = v;
      continue;
    } else if (missing) {
      return fail(FT_EXIT_USAGE, "%s: missing value", argv[i]);
    } else if (refused_option(argv[i])) {
      return fail(FT_EXIT_USAGE,
                  "%s: crosscheck runs both modes itself (see ftsim "
                  "crosscheck --help)",
                  refused_option(argv[i]));
    } else if (strncmp(argv[i], "--host-speed", 12) == 0) {
      x->host_speed_given = true;
    }
    ft_strv_push(&x->run_args, argv[i]);
  }
  return FT_EXIT_OK;
}

/* How many simulated runs go at once (--together, else 1: on the idle
 * 2-core machine two at once over-predicted cg by +34.9% against +17.7%
 * alone, lu by +13.3% against +11.1%; README, "How the cross-check
 * measures") and how many there are: --repeat rounded up to a multiple of
 * it. */
static void plan_simulated(struct xc *x) {
  if (x->width == 0)
    x->width = 1;
  x->simulated = (x->repeat + x->width - 1) / x->width * x->width;
  while (x->simulated > FT_XC_MAX_RUNS)
    x->simulated -= x->width;
}

/* Whether the run options set `key` ("storage=") themselves. */
static bool option_given(const struct xc *x, const char *key) {
  for (size_t i = 0; i < x->run_args.count; i++) {
    const char *w = x->run_args.items[i];
    if (strcmp(w, "--") == 0)
      break;
    if (strstr(w, key))
      return true;
  }
  return false;
}

/* The platform: --platform, else the calibrated file, which must exist. */
static int resolve_platform(struct xc *x) {
  struct stat st;
  if (x->platform)
    snprintf(x->platform_file, sizeof x->platform_file, "%s", x->platform);
  else if (ft_machine_platform_file(x->platform_file, sizeof x->platform_file))
    return fail(FT_EXIT_USAGE, "the platform file name is too long");
  if (stat(x->platform_file, &st) != 0 || !S_ISREG(st.st_mode))
    return x->platform
               ? fail(FT_EXIT_USAGE, "--platform %s: %s", x->platform_file,
                      errno ? strerror(errno) : "not a regular file")
               : fail(FT_EXIT_USAGE,
                      "no calibrated platform for this machine (%s does not "
                      "exist): run 'ftsim calibrate' first, or give "
                      "--platform FILE",
                      x->platform_file);
  char err[1024];
  if (ft_machine_check_props(x->platform_file, err, sizeof err))
    return fail(FT_EXIT_USAGE, "%s", err);
  double speed;
  if (ft_machine_read(x->platform_file, &speed, &x->disks) == 0)
    snprintf(x->speed, sizeof x->speed, "%.6g", speed);
  return FT_EXIT_OK;
}

static void on_line(void *ctx, enum ft_stream stream, const char *line,
                    size_t len) {
  struct child *c = ctx;
  if (stream == FT_STREAM_STDOUT && line[0] == '{' && !c->json[0] &&
      len < sizeof c->json) {
    memcpy(c->json, line, len + 1);
    return;
  }
  ft_strv_pushn(&c->lines, line, len);
}

/* Whether run_args.items[*i] is "--set failure=kill" (then *i moves past
 * its value) or "--set=failure=kill": the real run's kill failures, which
 * the simulated run makes logical (SimGrid cannot kill a process; README,
 * "Real failures: kill and relaunch"), its restart the scenario's. */
static bool kill_setting(const struct ft_strv *args, size_t *i) {
  const char *w = args->items[*i];
  if (strcmp(w, "--set=failure=kill") == 0)
    return true;
  if (strcmp(w, "--set") != 0 || *i + 1 >= args->count ||
      strcmp(args->items[*i + 1], "failure=kill") != 0)
    return false;
  ++*i;
  return true;
}

/* The argv of one `ftsim run`: real, or simulated on the platform;
 * `dry` adds --dry-run. */
static void run_argv(const struct xc *x, bool real, bool dry,
                     struct ft_strv *argv) {
  ft_strv_push(argv, x->self);
  ft_strv_push(argv, "run");
  if (real)
    ft_strv_push(argv, "--real");
  else {
    ft_strv_push(argv, "--platform");
    ft_strv_push(argv, x->platform_file);
    if (x->speed[0] && !x->host_speed_given) {
      ft_strv_push(argv, "--host-speed");
      ft_strv_push(argv, x->speed);
    }
    /* Reference mode's one checkpoint server writes every image durably
     * before it answers: storage=shared, on its host's measured disk. */
    if (x->disks && !option_given(x, "storage=")) {
      ft_strv_push(argv, "--set");
      ft_strv_push(argv, "storage=shared");
    }
    /* The real run's service processes share this machine's cores with
     * the ranks (mpirun starts np + S processes on them): the simulated
     * service ranks share the compute hosts' cores too. */
    if (!option_given(x, "service_placement=")) {
      ft_strv_push(argv, "--set");
      ft_strv_push(argv, "service_placement=shared");
    }
  }
  if (dry)
    ft_strv_push(argv, "--dry-run");
  bool after_dashes = false;
  for (size_t i = 0; i < x->run_args.count; i++) { /* "--", app args too */
    const char *w = x->run_args.items[i];
    after_dashes |= strcmp(w, "--") == 0;
    if (!real && !after_dashes && kill_setting(&x->run_args, &i))
      continue;
    ft_strv_push(argv, w);
  }
}

/* Runs one child; 0 with its JSON line, else an exit status (its output
 * shown). */
static int run_child(const struct xc *x, bool real, bool dry, struct child *c) {
  struct ft_strv argv = {0};
  struct ft_launch_result res;
  char err[1024];
  run_argv(x, real, dry, &argv);
  double cpu0 = children_cpu();
  int rc = ft_launch_run(argv.items, on_line, c, &res, err, sizeof err);
  c->cpu_s = children_cpu() - cpu0;
  c->wall_s = res.wall_s;
  ft_strv_free(&argv);
  if (rc)
    return fail(FT_EXIT_FAILED, "%s", err);
  if (res.exited && res.status == 0 && (dry || c->json[0]))
    return FT_EXIT_OK;
  for (size_t i = 0; i < c->lines.count; i++)
    fprintf(stderr, "%s\n", c->lines.items[i]);
  if (dry)
    return FT_EXIT_USAGE;
  return fail(FT_EXIT_FAILED, "a %s run %s %d", real ? "real" : "simulated",
              res.exited ? "exited with status" : "was killed by signal",
              res.status);
}

/* Checks every option in both modes with --dry-run (nothing launched). */
static int check_both(const struct xc *x) {
  for (int real = 0; real < 2; real++) {
    struct child c = {.json = ""};
    int rc = run_child(x, real, true, &c);
    ft_strv_free(&c.lines);
    if (rc)
      return rc == FT_EXIT_USAGE ? fail(FT_EXIT_USAGE,
                                        "the options above are wrong for a %s "
                                        "run (nothing launched)",
                                        real ? "real" : "simulated")
                                 : rc;
  }
  return FT_EXIT_OK;
}

static void record(struct xc *x, int real, const char *json) {
  if (!x->first_json[real][0])
    snprintf(x->first_json[real], sizeof x->first_json[real], "%s", json);
  for (int m = 0; m < FT_XC_NMETRICS; m++) {
    struct ft_xc_samples *s = &x->s[real][m];
    double v;
    if (ft_xc_metric_of(json, (enum ft_xc_metric_id)m, &v))
      s->missing = true;
    else if (s->n < FT_XC_MAX_RUNS)
      s->x[s->n++] = v;
  }
}

/* One simulated run in a child of ft_together: its JSON line. */
static int simulated_one(void *ctx, char *line, size_t cap) {
  struct child c = {.json = ""};
  int rc = run_child(ctx, false, false, &c);
  ft_strv_free(&c.lines);
  if (!rc)
    snprintf(line, cap, "%s", c.json);
  return rc;
}

/* The simulated runs, x->width at a time (README, "Cross-check against
 * this machine": SMPI runs the ranks' kernels one after the other in one
 * process, where the real ranks compute at once and share the memory
 * system; cg's 2.10 s real run was simulated at 1.81 s alone and 2.06 s
 * with a second simulation beside it). Stops at the first failed round. */
static int run_simulated(struct xc *x) {
  char(*lines)[FT_TOGETHER_LINE] = malloc(FT_TOGETHER_MAX * sizeof *lines);
  int status[FT_TOGETHER_MAX], rc = FT_EXIT_OK;
  if (!lines)
    return fail(FT_EXIT_FAILED, "out of memory");
  for (int done = 0; done < x->simulated && !rc; done += x->width) {
    int ok = ft_together(x->width, simulated_one, x, lines, status);
    for (int k = 0; k < x->width; k++)
      if (status[k] == 0)
        record(x, 0, lines[k]);
    if (ok < x->width)
      rc = fail(FT_EXIT_FAILED,
                "%d of %d simulated runs failed (their output above)",
                x->width - ok, x->width);
    else
      fprintf(stderr,
              "ftsim: crosscheck: simulated runs %d-%d/%d done (%d at "
              "once)\n",
              done + 1, done + x->width, x->simulated, x->width);
  }
  free(lines);
  return rc;
}

/* Runs K real runs, one at a time, then the simulated ones; stops at the
 * first failure. */
static int run_all(struct xc *x) {
  for (int k = 0; k < x->repeat; k++) {
    struct child c = {.json = ""};
    int rc = run_child(x, true, false, &c);
    if (!rc) {
      record(x, 1, c.json);
      if (x->cpu.n < FT_XC_MAX_RUNS) {
        x->cpu.x[x->cpu.n++] = c.cpu_s;
        x->wall.x[x->wall.n++] = c.wall_s;
      }
    }
    ft_strv_free(&c.lines);
    if (rc)
      return rc;
    fprintf(stderr, "ftsim: crosscheck: real run %d/%d done\n", k + 1,
            x->repeat);
  }
  return run_simulated(x);
}

struct row {
  bool ok[2];
  double med[2], min[2], max[2], error;
};

static struct row row_of(const struct xc *x, int m) {
  struct row r = {.error = NAN};
  for (int real = 0; real < 2; real++) {
    const struct ft_xc_samples *s = &x->s[real][m];
    r.ok[real] = !s->missing && s->n > 0;
    if (r.ok[real])
      ft_xc_summarize(s, &r.med[real], &r.min[real], &r.max[real]);
  }
  if (r.ok[0] && r.ok[1])
    r.error = ft_xc_error(r.med[0], r.med[1]);
  return r;
}

/* How busy the real runs kept the cores: on a machine shared with other
 * jobs the ranks wait for a core, which no platform file models. */
static void print_share(const struct xc *x) {
  double cpu, wall, lo, hi;
  ft_xc_summarize(&x->cpu, &cpu, &lo, &hi);
  ft_xc_summarize(&x->wall, &wall, &lo, &hi);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  printf("# real runs: CPU time of all their processes %.3g s (median) in "
         "%.3g s of wall time: %.2f of %ld cores busy; load average %.2f at "
         "the start\n",
         cpu, wall, wall > 0 ? cpu / wall : 0, cores, x->load);
}

static void print_table(const struct xc *x) {
  char app[256], protocol[64];
  double ranks = 0;
  ft_xc_json_string(x->first_json[1], "app", app, sizeof app);
  ft_xc_json_string(x->first_json[1], "protocol", protocol, sizeof protocol);
  ft_xc_json_number(x->first_json[1], "ranks", &ranks);
  printf("# crosscheck %s, protocol %s, %.0f ranks: %d real runs (mpirun), "
         "%d simulated (%d at once) on %s\n",
         app, protocol, ranks, x->repeat, x->simulated, x->width,
         x->platform_file);
  printf("%-18s %14s %29s %14s %9s\n", "metric", "real_median",
         "real_spread(min..max)", "simulated", "error%");
  for (int m = 0; m < FT_XC_NMETRICS; m++) {
    struct row r = row_of(x, m);
    char spread[64] = "n/a", real[32] = "n/a", sim[32] = "n/a", err[16] = "n/a";
    if (r.ok[1]) {
      snprintf(real, sizeof real, "%.6g", r.med[1]);
      snprintf(spread, sizeof spread, "%.6g..%.6g", r.min[1], r.max[1]);
    }
    if (r.ok[0])
      snprintf(sim, sizeof sim, "%.6g", r.med[0]);
    if (!isnan(r.error))
      snprintf(err, sizeof err, "%+.1f", r.error * 100);
    printf("%-18s %14s %29s %14s %9s\n",
           ft_xc_metric_name((enum ft_xc_metric_id)m), real, spread, sim, err);
  }
  print_share(x);
}

/* A JSON number, or null for NAN / a missing value. */
static void json_num(const char *key, bool ok, double v) {
  if (ok && isfinite(v))
    printf(",\"%s\":%.9g", key, v);
  else
    printf(",\"%s\":null", key);
}

static void print_json(const struct xc *x) {
  char app[256], protocol[64];
  struct row t = row_of(x, FT_XC_COMPLETION);
  ft_xc_json_string(x->first_json[1], "app", app, sizeof app);
  ft_xc_json_string(x->first_json[1], "protocol", protocol, sizeof protocol);
  printf("{\"app\":\"%s\",\"protocol\":\"%s\",\"repeat\":%d,"
         "\"simulated_runs\":%d,\"together\":%d",
         app, protocol, x->repeat, x->simulated, x->width);
  json_num("real_s", t.ok[1], t.med[1]);
  json_num("real_min_s", t.ok[1], t.min[1]);
  json_num("real_max_s", t.ok[1], t.max[1]);
  json_num("simulated_s", t.ok[0], t.med[0]);
  json_num("error", !isnan(t.error), t.error);
  double cpu, wall, lo, hi;
  ft_xc_summarize(&x->cpu, &cpu, &lo, &hi);
  ft_xc_summarize(&x->wall, &wall, &lo, &hi);
  json_num("real_cpu_s", x->cpu.n > 0, cpu);
  json_num("real_wall_s", x->wall.n > 0, wall);
  json_num("load_avg", x->load >= 0, x->load);
  for (int m = 0; m < FT_XC_NMETRICS; m++) {
    struct row r = row_of(x, m);
    char key[64];
    const char *name = ft_xc_metric_name((enum ft_xc_metric_id)m);
    snprintf(key, sizeof key, "%s_real", name);
    json_num(key, r.ok[1], r.med[1]);
    snprintf(key, sizeof key, "%s_simulated", name);
    json_num(key, r.ok[0], r.med[0]);
    snprintf(key, sizeof key, "%s_error", name);
    json_num(key, !isnan(r.error), r.error);
  }
  printf("}\n");
}

static int wants_help(int argc, char **argv) {
  for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return 1;
  return 0;
}

static int crosscheck(struct xc *x, int argc, char **argv) {
  int rc = parse(x, argc, argv);
  if (rc || (rc = resolve_platform(x)))
    return rc;
  ssize_t n = readlink("/proc/self/exe", x->self, sizeof x->self - 1);
  if (n <= 0)
    return fail(FT_EXIT_FAILED, "cannot find this program: %s",
                strerror(errno));
  x->self[n] = '\0';
  if (getloadavg(&x->load, 1) != 1)
    x->load = -1;
  plan_simulated(x);
  if ((rc = check_both(x)) || (rc = run_all(x)))
    return rc;
  print_table(x);
  print_json(x);
  return FT_EXIT_OK;
}

int ft_crosscheck_main(int argc, char **argv) {
  if (wants_help(argc, argv)) {
    ft_crosscheck_usage(stdout);
    return FT_EXIT_OK;
  }
  struct xc *x = calloc(1, sizeof *x);
  if (!x)
    return fail(FT_EXIT_FAILED, "out of memory");
  x->repeat = DEFAULT_REPEAT;
  int rc = crosscheck(x, argc, argv);
  ft_strv_free(&x->run_args);
  free(x);
  return rc;
}
