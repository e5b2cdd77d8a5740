/* fit.c: least-squares straight line through "x y" points.
 *
 *   fit [-h] < POINTS
 *
 * Reads one point per line from stdin: two numbers separated by blanks
 * ("x y"; strtod syntax, so 1e-3 and 0x1p4 are fine). Blank lines and lines
 * whose first non-blank character is '#' are skipped. Prints, on stdout,
 *
 *   points N
 *   slope B
 *   intercept A
 *   r2 R
 *
 * for the line y = A + B x that minimises the sum of squared residuals, with
 * R = 1 - SS_res / SS_tot (the coefficient of determination). When every y
 * is the same the line is exact (SS_res = 0) and R is printed as 1.
 *
 * Exit status: 0 on success; 1 when the data cannot be fitted (a malformed
 * or non-finite line, named by its number; fewer than 2 points; all x
 * equal), with a message on stderr; 2 on usage errors. The line is
 * ft_line_fit of sim/cli/stats.c (the one `ftsim plot` draws). Pure C11
 * and libm: used by analysis/fidelity.sh, built as <build>/analysis/fit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

enum { LINE_MAX_LEN = 4096 };

struct points {
  double *x;
  double *y;
  size_t n;
  size_t cap;
};

struct line_fit {
  double slope;
  double intercept;
  double r2;
};

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
         c == '\f';
}

static const char *skip_blanks(const char *p) {
  while (*p && is_blank(*p))
    p++;
  return p;
}

/* Reads one finite number at *p; advances *p past it. */
static int parse_number(const char **p, double *out) {
  char *end = NULL;
  const char *s = skip_blanks(*p);
  if (!*s)
    return -1;
  double v = strtod(s, &end);
  /* overflow gives an infinity; an underflow (a tiny number) is kept */
  if (end == s || (*end && !is_blank(*end)) || !isfinite(v))
    return -1;
  *out = v;
  *p = end;
  return 0;
}

/* 1: a point was read; 0: nothing to read on this line; -1: malformed. */
static int parse_line(const char *line, double *x, double *y) {
  const char *p = skip_blanks(line);
  if (!*p || *p == '#')
    return 0;
  if (parse_number(&p, x) != 0 || parse_number(&p, y) != 0)
    return -1;
  return *skip_blanks(p) ? -1 : 1;
}

static int add_point(struct points *pts, double x, double y) {
  if (pts->n == pts->cap) {
    size_t cap = pts->cap ? 2 * pts->cap : 64;
    double *nx = realloc(pts->x, cap * sizeof *nx);
    if (!nx)
      return -1;
    pts->x = nx;
    double *ny = realloc(pts->y, cap * sizeof *ny);
    if (!ny)
      return -1;
    pts->y = ny;
    pts->cap = cap;
  }
  pts->x[pts->n] = x;
  pts->y[pts->n] = y;
  pts->n++;
  return 0;
}

/* Drops the line's end of line for the message. */
static void chomp(char *line) {
  size_t len = strlen(line);
  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    line[--len] = '\0';
}

/* Reads stdin into pts; prints the reason and returns -1 on bad input. */
static int read_points(FILE *in, struct points *pts) {
  char line[LINE_MAX_LEN];
  unsigned long number = 0;
  while (fgets(line, sizeof line, in)) {
    number++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(in)) {
      fprintf(stderr, "fit: line %lu: longer than %d characters\n", number,
              LINE_MAX_LEN - 2);
      return -1;
    }
    double x = 0.0;
    double y = 0.0;
    int r = parse_line(line, &x, &y);
    if (r < 0) {
      chomp(line);
      fprintf(stderr,
              "fit: line %lu: expected two finite numbers \"x y\", got "
              "\"%s\"\n",
              number, line);
      return -1;
    }
    if (r > 0 && add_point(pts, x, y) != 0) {
      fprintf(stderr, "fit: out of memory at line %lu\n", number);
      return -1;
    }
  }
  if (ferror(in)) {
    fprintf(stderr, "fit: read error on stdin\n");
    return -1;
  }
  return 0;
}

static int all_equal(const double *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (v[i] != v[0])
      return 0;
  return 1;
}

/* The line of ft_line_fit (sim/cli/stats.c, which `ftsim plot` uses for
 * time against waves: one home for the fit), after the checks that give
 * this program's messages. */
static int fit_line(const struct points *pts, struct line_fit *out) {
  size_t n = pts->n;
  if (n < 2) {
    fprintf(stderr, "fit: need at least 2 points, got %zu\n", n);
    return -1;
  }
  if (all_equal(pts->x, n)) {
    fprintf(stderr,
            "fit: every x is %.17g (zero variance): the slope is undefined\n",
            pts->x[0]);
    return -1;
  }
  struct ft_line_fit f = ft_line_fit(pts->x, pts->y, n);
  if (!isfinite(f.slope) || !isfinite(f.intercept) || isnan(f.r2)) {
    fprintf(stderr, "fit: the sums of squares are not usable: values too "
                    "large or too close together\n");
    return -1;
  }
  out->slope = f.slope;
  out->intercept = f.intercept;
  out->r2 = all_equal(pts->y, n) ? 1.0 : f.r2;
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    int help = strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0;
    fprintf(help ? stdout : stderr,
            "usage: fit < POINTS   (one \"x y\" pair per line; blank lines "
            "and # comments skipped)\n"
            "prints: points N, slope B, intercept A, r2 R for y = A + B x\n");
    return help ? 0 : 2;
  }
  struct points pts = {0};
  struct line_fit f;
  int rc = read_points(stdin, &pts) == 0 && fit_line(&pts, &f) == 0 ? 0 : 1;
  if (rc == 0)
    printf("points %zu\nslope %.9g\nintercept %.9g\nr2 %.9f\n", pts.n, f.slope,
           f.intercept, f.r2);
  free(pts.x);
  free(pts.y);
  return rc;
}
