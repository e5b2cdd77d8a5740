/* Small statistics (see stats.h). */
#include "stats.h"

#include <math.h>

double ft_student_t975(size_t df) {
  static const double table[31] = {
      NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
      2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
      2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
      2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 31)
    return table[df];
  double z = 1.959964, v = (double)df;
  double z3 = z * z * z, z5 = z3 * z * z;
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

struct ft_stats ft_stats_of(const double *x, size_t n) {
  struct ft_stats s = {n, NAN, 0, NAN};
  if (n == 0)
    return s;
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += x[i];
  s.mean = sum / (double)n;
  if (n < 2)
    return s;
  double ss = 0;
  for (size_t i = 0; i < n; i++)
    ss += (x[i] - s.mean) * (x[i] - s.mean);
  s.sd = sqrt(ss / (double)(n - 1));
  s.ci95 = ft_student_t975(n - 1) * s.sd / sqrt((double)n);
  return s;
}

double ft_young_period(double c, double m) {
  if (!(c > 0) || !(m > 0))
    return NAN;
  return sqrt(2 * c * m);
}

double ft_daly_period(double c, double m) {
  if (!(c > 0) || !(m > 0))
    return NAN;
  if (c >= 2 * m)
    return m;
  double r = c / (2 * m);
  return sqrt(2 * c * m) * (1 + sqrt(r) / 3 + r / 9) - c;
}

bool ft_intervals_overlap(double a, double ha, double b, double hb) {
  ha = isnan(ha) ? 0 : ha;
  hb = isnan(hb) ? 0 : hb;
  return fabs(a - b) <= ha + hb;
}

struct ft_line_fit ft_line_fit(const double *x, const double *y, size_t n) {
  struct ft_line_fit f = {n, NAN, NAN, NAN};
  double sx = 0, sy = 0;
  for (size_t i = 0; i < n; i++)
    sx += x[i], sy += y[i];
  if (n < 2)
    return f;
  double mx = sx / (double)n, my = sy / (double)n, sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0))
    return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double res = 0;
  for (size_t i = 0; i < n; i++) {
    double e = y[i] - (f.intercept + f.slope * x[i]);
    res += e * e;
  }
  f.r2 = syy > 0 ? 1 - res / syy : 1;
  return f;
}

void ft_ratio_interval(double ff, double t, double h, double *lo, double *hi) {
  *lo = *hi = NAN;
  if (isnan(h) || isnan(ff) || isnan(t))
    return;
  *lo = ff / (t + h);
  *hi = t - h > 0 ? ff / (t - h) : INFINITY;
}
