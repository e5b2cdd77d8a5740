/* The numbers of `ftsim crosscheck`: metrics read from the JSON lines of
 * real and simulated runs, their medians and spreads, and the relative
 * error of the simulation. Pure, no allocation. */
#ifndef FT_CLI_CROSSCHECK_STATS_H
#define FT_CLI_CROSSCHECK_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FT_XC_MAX_RUNS 100

/* The metrics compared, in the order printed. */
enum ft_xc_metric_id {
  FT_XC_COMPLETION, /* completion_time_s */
  FT_XC_MESSAGES,   /* messages */
  FT_XC_BYTES,      /* bytes */
  FT_XC_WAVES,      /* waves */
  FT_XC_CKPT_BYTES, /* ckpt_bytes */
  FT_XC_WAVE_TIME,  /* completion_time_s / waves (no waves: absent) */
  FT_XC_RECOVERY,   /* recovery_s */
  FT_XC_NMETRICS
};

/* The summary key of a metric, or its derived name ("time_per_wave_s"). */
const char *ft_xc_metric_name(enum ft_xc_metric_id id);

/* Reads the top-level member `key` of a flat JSON object text as a number
 * (integer or float). Returns 0, or -1 when it is absent, null or not a
 * number. */
int ft_xc_json_number(const char *json, const char *key, double *out);

/* Copies the top-level string member `key` into `out` (len bytes, no
 * unescaping); "?" when absent. */
void ft_xc_json_string(const char *json, const char *key, char *out,
                       size_t len);

/* Reads metric `id` of one run's JSON line. Returns 0, or -1 when the run
 * does not give it. */
int ft_xc_metric_of(const char *json, enum ft_xc_metric_id id, double *out);

/* The samples of one metric in one mode. */
struct ft_xc_samples {
  size_t n;
  double x[FT_XC_MAX_RUNS];
  bool missing; /* a run did not give it: the metric is not available */
};

/* Median (mean of the two middle ones for an even n), minimum and maximum
 * of s (n >= 1, not missing); the samples are left unsorted. */
void ft_xc_summarize(const struct ft_xc_samples *s, double *median, double *min,
                     double *max);

/* (simulated - real) / real; 0 when both are 0; NAN when real is 0 and
 * simulated is not (no relative error exists). */
double ft_xc_error(double simulated, double real);

#endif /* FT_CLI_CROSSCHECK_STATS_H */
