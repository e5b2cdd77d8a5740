/* This machine's checkpoint storage (see disk_speed.h). */
#define _POSIX_C_SOURCE 200809L
#include "disk_speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "crosscheck_stats.h"
#include "image_file.h"

#define NAME "ftsim-calibrate-disk.img"
#define MAX_REPEAT FT_XC_MAX_RUNS

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CPU seconds (user + system) this process has used. */
static double cpu_now(void) {
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0)
    return 0;
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* The median of the n samples in v (ft_xc_summarize's). */
static double median(const double *v, int n) {
  struct ft_xc_samples s = {.n = (size_t)n};
  double mid, lo, hi;
  memcpy(s.x, v, (size_t)n * sizeof *v);
  ft_xc_summarize(&s, &mid, &lo, &hi);
  return mid;
}

/* One write and one read back: their seconds in w and r, the write's CPU
 * seconds in c. */
static int once(const char *dir, const char *path, const char *data,
                size_t bytes, double *w, double *r, double *c, char *err,
                size_t errlen) {
  double c0 = cpu_now(), t0 = now();
  if (ft_file_write_atomic(dir, NAME, data, bytes, err, errlen) != 0)
    return -1;
  double t1 = now();
  *c = cpu_now() - c0;
  void *back = NULL;
  size_t got = 0;
  if (ft_file_read_all(path, &back, &got, err, errlen) != 0)
    return -1;
  *w = t1 - t0;
  *r = now() - t1;
  free(back);
  if (got != bytes) {
    snprintf(err, errlen, "%s: read back %zu bytes of %zu", path, got, bytes);
    return -1;
  }
  return 0;
}

int ft_disk_speed_measure(const char *dir, size_t bytes, int repeat,
                          double *write_Bps, double *read_Bps,
                          double *write_cpu_s_per_byte, char *err,
                          size_t errlen) {
  char path[4096];
  double w[MAX_REPEAT], r[MAX_REPEAT], c[MAX_REPEAT];
  int n = repeat < 1 ? 1 : repeat > MAX_REPEAT ? MAX_REPEAT : repeat, rc = 0;
  char *data = malloc(bytes ? bytes : 1);
  if (!data ||
      snprintf(path, sizeof path, "%s/%s", dir, NAME) >= (int)sizeof path) {
    free(data);
    snprintf(err, errlen, "%s: %s", dir,
             data ? "directory name too long" : "out of memory");
    return -1;
  }
  for (size_t i = 0; i < bytes; i++) /* not all zeros: no sparse tricks */
    data[i] = (char)(i * 2654435761u >> 24);
  for (int k = 0; k < n && !rc; k++)
    rc = once(dir, path, data, bytes, &w[k], &r[k], &c[k], err, errlen);
  unlink(path);
  free(data);
  if (rc)
    return -1;
  *write_Bps = (double)bytes / median(w, n);
  *read_Bps = (double)bytes / median(r, n);
  *write_cpu_s_per_byte = bytes ? median(c, n) / (double)bytes : 0;
  return 0;
}
