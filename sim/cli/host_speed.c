/* This machine's speed (see host_speed.h). */
#define _POSIX_C_SOURCE 200809L
#include "host_speed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "errmsg.h"
#include "options.h"
#include "outcome.h"
#include "strv.h"

#define KERNEL_N 2048
#define SAMPLE_S 0.1

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

int ft_host_speed_file(char *out, size_t len) {
  const char *conf = env(FT_ENV_HOST_CONF), *xdg = env("XDG_CONFIG_HOME");
  const char *home = env("HOME");
  int n = conf   ? snprintf(out, len, "%s", conf)
          : xdg  ? snprintf(out, len, "%s/ftsim/host.conf", xdg)
          : home ? snprintf(out, len, "%s/.config/ftsim/host.conf", home)
                 : snprintf(out, len, "ftsim-host.conf");
  return n < 0 || (size_t)n >= len ? -1 : 0;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `reps` passes of y = a x + y; returns the CPU seconds they took. The
 * factor is read from a volatile each pass, so that no pass can be folded
 * into another; its sign alternates, so that y stays bounded. */
static double daxpy(double *x, double *y, long reps) {
  static volatile double factor = 1e-3;
  double start = cpu_now();
  for (long r = 0; r < reps; r++) {
    double a = (r & 1) ? -factor : factor;
    for (size_t i = 0; i < KERNEL_N; i++)
      y[i] = a * x[i] + y[i];
  }
  double t = cpu_now() - start;
  static volatile double sink;
  sink = y[reps % KERNEL_N];
  (void)sink;
  return t;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double ft_host_speed_measure(int repeats, double *samples) {
  double x[KERNEL_N], y[KERNEL_N], rates[100];
  if (repeats < 1)
    repeats = 1;
  if (repeats > 100)
    repeats = 100;
  for (size_t i = 0; i < KERNEL_N; i++)
    x[i] = 1.0 + (double)i * 1e-6, y[i] = 0.5;
  long reps = 16;
  while (daxpy(x, y, reps) < SAMPLE_S / 8 && reps < (1L << 40))
    reps *= 2; /* about SAMPLE_S / 8 now: 8 times that per sample */
  reps *= 8;
  for (int k = 0; k < repeats; k++) {
    double t = daxpy(x, y, reps);
    rates[k] = 2.0 * KERNEL_N * (double)reps / (t > 0 ? t : 1e-9);
    if (samples)
      samples[k] = rates[k];
  }
  qsort(rates, (size_t)repeats, sizeof rates[0], by_value);
  return repeats % 2 ? rates[repeats / 2]
                     : (rates[repeats / 2 - 1] + rates[repeats / 2]) / 2;
}

/* A speed in flop/s: a decimal number in (0, FT_HOST_SPEED_MAX]. */
static int parse_speed(const char *w, double *out) {
  return ft_parse_double(w, 0, FT_HOST_SPEED_MAX, out) == FT_NUM_OK && *out > 0
             ? 0
             : -1;
}

/* Strips blanks at both ends of [s, s + strlen(s)) in place. */
static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && strchr(" \t\r\n", s[n - 1]))
    s[--n] = '\0';
  return s;
}

/* One line of the file: 0 nothing, 1 the speed, -1 an error. */
static int load_line(char *text, const char *path, int line, double *flops,
                     char *err, size_t errlen) {
  char *hash = strchr(text, '#');
  if (hash)
    *hash = '\0';
  char *s = trim(text);
  if (!*s)
    return 0;
  char *eq = strchr(s, '=');
  if (!eq)
    return ft_errmsg(err, errlen, path, line, NULL,
                     "expected '%s = FLOPS', got '%s'", FT_HOST_SPEED_KEY, s);
  *eq = '\0';
  char *key = trim(s), *value = trim(eq + 1);
  if (strcmp(key, FT_HOST_SPEED_KEY) != 0)
    return ft_errmsg(err, errlen, path, line, NULL,
                     "unknown key '%s' (known: %s)", key, FT_HOST_SPEED_KEY);
  if (parse_speed(value, flops))
    return ft_errmsg(err, errlen, path, line, FT_HOST_SPEED_KEY,
                     "expected flop/s > 0, got '%s'", value);
  return 1;
}

int ft_host_speed_load(const char *path, double *flops, char *err,
                       size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f && errno == ENOENT)
    return 1;
  if (!f)
    return ft_errmsg(err, errlen, path, 0, NULL, "cannot read: %s",
                     strerror(errno));
  char text[1024];
  int line = 0, found = 0, rc = 0;
  while (rc >= 0 && fgets(text, sizeof text, f)) {
    rc = load_line(text, path, ++line, flops, err, errlen);
    found |= rc == 1;
  }
  fclose(f);
  if (rc < 0)
    return -1;
  return found ? 0
               : ft_errmsg(err, errlen, path, 0, NULL, "no %s line",
                           FT_HOST_SPEED_KEY);
}

void ft_config_make_parents(const char *path) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir)
    return;
  *slash = '\0';
  char *up = strrchr(dir, '/');
  if (up && up != dir) {
    *up = '\0';
    mkdir(dir, 0700);
    *up = '/';
  }
  mkdir(dir, 0700);
}

int ft_host_speed_store(const char *path, double flops, int repeats, char *err,
                        size_t errlen) {
  ft_config_make_parents(path);
  FILE *f = fopen(path, "w");
  if (!f)
    return ft_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
  fprintf(f,
          "# Written by 'ftsim host-speed': the median of %d runs of DAXPY\n"
          "# (2 x 2048 doubles, thread CPU time). Measured computation\n"
          "# passes it to SMPI as smpi/host-speed (flop/s).\n"
          "%s = %.6g\n",
          repeats, FT_HOST_SPEED_KEY, flops);
  if (fclose(f) != 0)
    return ft_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
  return 0;
}

int ft_host_speed_resolve(double given, double *flops, char *source,
                          size_t srclen, char *err, size_t errlen) {
  char file[4096];
  const char *e = env(FT_ENV_HOST_SPEED);
  if (given > 0) {
    *flops = given;
    snprintf(source, srclen, "--host-speed");
    return 0;
  }
  if (e) {
    snprintf(source, srclen, "%s", FT_ENV_HOST_SPEED);
    return parse_speed(e, flops) == 0
               ? 0
               : ft_fail(err, errlen, "%s=%s: expected flop/s > 0",
                         FT_ENV_HOST_SPEED, e);
  }
  if (ft_host_speed_file(file, sizeof file))
    return ft_fail(err, errlen, "the host speed file name is too long");
  snprintf(source, srclen, "%s", file);
  int rc = ft_host_speed_load(file, flops, err, errlen);
  if (rc == 1)
    return ft_fail(err, errlen,
                   "measured computation needs this machine's speed: run "
                   "'ftsim host-speed' once (it stores it in %s), or give "
                   "--host-speed FLOPS or %s",
                   file, FT_ENV_HOST_SPEED);
  return rc;
}

int ft_host_speed_obtain(double given, double *flops, char *source,
                         size_t srclen, char *err, size_t errlen) {
  char file[4096], why[4096];
  if (ft_host_speed_resolve(given, flops, source, srclen, err, errlen) == 0)
    return 0;
  if (given > 0 || env(FT_ENV_HOST_SPEED) ||
      ft_host_speed_file(file, sizeof file) ||
      ft_host_speed_load(file, flops, why, sizeof why) != 1)
    return -1; /* a bad value or a malformed file: err says which */
  double samples[FT_HOST_SPEED_REPEATS];
  *flops = ft_host_speed_measure(FT_HOST_SPEED_REPEATS, samples);
  int stored = ft_host_speed_store(file, *flops, FT_HOST_SPEED_REPEATS, why,
                                   sizeof why) == 0;
  fprintf(stderr,
          "ftsim: no speed stored for this machine: measured %.6g flop/s "
          "now (ftsim host-speed)%s%s\n",
          *flops, stored ? " and stored it in " : "; not stored: ",
          stored ? file : why);
  snprintf(source, srclen, "%s", stored ? file : "a measure just taken");
  return 0;
}

void ft_host_speed_usage(FILE *out) {
  char file[4096];
  if (ft_host_speed_file(file, sizeof file))
    snprintf(file, sizeof file, "(name too long)");
  fprintf(out,
          "Usage: ftsim host-speed [--repeat N] [--show]\n"
          "\n"
          "Measures this machine's speed in flop/s (the median of N runs,\n"
          "default %d, of a DAXPY kernel in L1 cache, timed in thread CPU\n"
          "time) and stores it in\n"
          "  %s\n"
          "($%s, else $XDG_CONFIG_HOME/ftsim/host.conf, else\n"
          "~/.config/ftsim/host.conf). A run with measured computation\n"
          "(ftsim run --compute measured) passes it to SMPI as\n"
          "smpi/host-speed, unless --host-speed or $%s says otherwise.\n"
          "--show prints the speed a run would use and where it comes from.\n",
          FT_HOST_SPEED_REPEATS, file, FT_ENV_HOST_CONF, FT_ENV_HOST_SPEED);
}

static int show(void) {
  double flops;
  char source[4096], err[4096];
  if (ft_host_speed_resolve(0, &flops, source, sizeof source, err,
                            sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    return FT_EXIT_USAGE;
  }
  printf("%s = %.6g (from %s)\n", FT_HOST_SPEED_KEY, flops, source);
  return FT_EXIT_OK;
}

static int measure_and_store(int repeats) {
  double samples[100], flops = ft_host_speed_measure(repeats, samples);
  char file[4096], err[4096];
  if (ft_host_speed_file(file, sizeof file))
    return fprintf(stderr, "ftsim: the host speed file name is too long\n"),
           FT_EXIT_USAGE;
  fprintf(stderr, "ftsim: DAXPY runs (flop/s):");
  for (int i = 0; i < repeats; i++)
    fprintf(stderr, " %.4g", samples[i]);
  fputc('\n', stderr);
  if (ft_host_speed_store(file, flops, repeats, err, sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    return FT_EXIT_FAILED;
  }
  printf("%s = %.6g (stored in %s)\n", FT_HOST_SPEED_KEY, flops, file);
  return FT_EXIT_OK;
}

int ft_host_speed_main(int argc, char **argv) {
  int repeats = FT_HOST_SPEED_REPEATS, want_show = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--show") == 0) {
      want_show = 1;
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      if (ft_parse_int(argv[++i], 1, 100, &repeats)) {
        fprintf(stderr,
                "ftsim: --repeat: expected an integer from 1 to 100, got "
                "'%s'\n",
                argv[i]);
        return FT_EXIT_USAGE;
      }
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      ft_host_speed_usage(stdout);
      return FT_EXIT_OK;
    } else {
      fprintf(stderr,
              "ftsim: host-speed: unknown option '%s' (see ftsim "
              "host-speed --help)\n",
              argv[i]);
      return FT_EXIT_USAGE;
    }
  }
  return want_show ? show() : measure_and_store(repeats);
}
