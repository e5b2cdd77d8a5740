/* Small statistics for sweep analysis: mean, sample standard deviation,
 * Student-t 95% confidence interval, and the optimal checkpoint periods of
 * Young and Daly. Pure, no allocation. */
#ifndef FT_CLI_STATS_H
#define FT_CLI_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct ft_stats {
  size_t n;
  double mean;
  double sd;   /* sample standard deviation (n - 1); 0 when n < 2 */
  double ci95; /* half-width of the 95% interval, t(0.975, n-1) * sd /
                  sqrt(n); NAN when n < 2 */
};

/* Mean, standard deviation and 95% confidence half-width of x[0..n). */
struct ft_stats ft_stats_of(const double *x, size_t n);

/* The 0.975 quantile of Student's t with `df` >= 1 degrees of freedom
 * (exact table to 30, then the Cornish-Fisher expansion; error < 1e-3). */
double ft_student_t975(size_t df);

/* Young (1974): the period between checkpoints that minimises the expected
 * completion time to first order, sqrt(2 C M), for a checkpoint cost C and
 * a mean time between failures M (both > 0; else NAN). */
double ft_young_period(double c, double m);

/* Daly (2006), "A higher order estimate of the optimum checkpoint interval
 * for restart dumps", eq. 37: for C < 2M,
 *   sqrt(2 C M) * (1 + sqrt(C / 2M) / 3 + (C / 2M) / 9) - C,
 * else M. NAN unless C, M > 0. */
double ft_daly_period(double c, double m);

/* The overlap rule of `ftsim analyze` and `ftsim plot`: true when the
 * closed intervals a +- ha and b +- hb share a point, |a - b| <= ha + hb
 * (a NAN half-width counts as 0: a single run is a point). Two means whose
 * 95% intervals overlap are "not distinguishable"; intervals that do not
 * overlap differ at least at the 5% level (the test is conservative). */
bool ft_intervals_overlap(double a, double ha, double b, double hb);

/* A least-squares straight line y = intercept + slope x. */
struct ft_line_fit {
  size_t n;                /* points */
  double slope, intercept; /* NAN when n < 2 or every x is equal */
  double r2;               /* 1 - SS_res / SS_tot; 1 when every y is equal;
                              NAN without a line */
};

/* The least-squares line through (x[i], y[i]), i < n. */
struct ft_line_fit ft_line_fit(const double *x, const double *y, size_t n);

/* The interval of ff / t when t lies in [t - h, t + h] (ff, t > 0): the
 * efficiency's 95% interval propagated from the completion time's, exact
 * since ff / t decreases with t: lo = ff / (t + h), hi = ff / (t - h)
 * (INFINITY when t - h <= 0). h NAN (one run): both NAN. */
void ft_ratio_interval(double ff, double t, double h, double *lo, double *hi);

#endif /* FT_CLI_STATS_H */
