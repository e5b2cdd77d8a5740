/* `ftsim plot`'s gnuplot side: the axes' ranges, the data file and the
 * script of a figure (see plot.h). Every text from the CSV goes through
 * ft_plot_gp_string; the script holds no double quote. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define WIDE 4.0     /* a mark is drawn within this factor of the data */
#define STAGGER 1.04 /* error bars: x factor between protocols (log x) */

/* ---- ranges */

static void data_x(const struct ft_plot_figure *f, double *lo, double *hi) {
  *lo = HUGE_VAL, *hi = -HUGE_VAL;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++)
      for (size_t i = 0; i < f->panels[p].series[s].n; i++) {
        *lo = fmin(*lo, f->panels[p].series[s].pts[i].x);
        *hi = fmax(*hi, f->panels[p].series[s].pts[i].x);
      }
}

/* True when the mark at x is drawn: inside WIDE of the data's x. */
static bool drawn(const struct ft_plot_figure *f, double x) {
  double lo, hi;
  data_x(f, &lo, &hi);
  return isfinite(x) && x > 0 && x >= lo / WIDE && x <= hi * WIDE;
}

void ft_plot_x_range(const struct ft_plot_figure *f, double *lo, double *hi) {
  data_x(f, lo, hi);
  for (size_t p = 0; f->logx && p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++) {
      const struct ft_plot_series *se = &f->panels[p].series[s];
      const double marks[] = {se->best_x, se->young, se->daly};
      for (size_t m = 0; m < 3; m++)
        if (drawn(f, marks[m]))
          *lo = fmin(*lo, marks[m]), *hi = fmax(*hi, marks[m]);
    }
  if (!(*lo <= *hi)) {
    *lo = 0, *hi = 1;
  } else if (f->logx && *lo > 0) {
    double pad = *lo == *hi ? 2 : 1.15;
    *lo /= pad, *hi *= pad;
  } else {
    double span = *hi > *lo ? *hi - *lo : fmax(1, fabs(*lo));
    *lo = fmax(0, *lo - 0.05 * span), *hi += 0.05 * span;
  }
}

void ft_plot_y_range(const struct ft_plot_figure *f, double *lo, double *hi) {
  *lo = HUGE_VAL, *hi = -HUGE_VAL;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++) {
      const struct ft_plot_series *se = &f->panels[p].series[s];
      for (size_t i = 0; i < se->n; i++) {
        const double v[] = {se->pts[i].y, se->pts[i].lo, se->pts[i].hi};
        for (size_t k = 0; k < 3; k++)
          if (isfinite(v[k]))
            *lo = fmin(*lo, v[k]), *hi = fmax(*hi, v[k]);
      }
    }
  if (!(*lo <= *hi)) {
    *lo = 0, *hi = 1;
    return;
  }
  bool positive = *lo >= 0;
  double span = *hi > *lo ? *hi - *lo : fmax(0.1 * fabs(*lo), 1e-9);
  *lo -= 0.05 * span, *hi += 0.05 * span;
  if (positive)
    *lo = fmax(0, *lo);
}

/* ---- data */

static bool has_err(const struct ft_plot_series *s) {
  for (size_t i = 0; i < s->n; i++)
    if (isfinite(s->pts[i].lo))
      return true;
  return false;
}

/* `s` on one line: control characters (a '\r' or '\n' in a cell would
 * end a comment line of the data file) as '?'. */
static void one_line(FILE *out, const char *s) {
  for (; *s; s++)
    fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

void ft_plot_data(FILE *out, const struct ft_plot_figure *f) {
  fputs("# ", out);
  one_line(out, f->title);
  fprintf(out,
          "\n# x: %s; y: %s; lo hi: the error bar (95%% interval); period: "
          "where the point is taken\n",
          f->xlabel, f->ylabel);
  size_t block = 0;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++, block++) {
      const struct ft_plot_series *se = &f->panels[p].series[s];
      fprintf(out, "%s# ", block ? "\n\n" : "");
      one_line(out, f->panels[p].title);
      fputs(f->panels[p].title[0] ? ": " : "", out);
      one_line(out, se->name);
      fputc('\n', out);
      for (size_t i = 0; i < se->n; i++) {
        const struct ft_plot_point *pt = &se->pts[i];
        bool bar = isfinite(pt->lo) && isfinite(pt->hi);
        fprintf(out, "%.9g %.9g %.9g %.9g %.9g\n", pt->x, pt->y,
                bar ? pt->lo : pt->y, bar ? pt->hi : pt->y,
                isnan(pt->period) ? 0.0 : pt->period);
      }
    }
}

/* ---- script */

void ft_plot_gp_string(FILE *out, const char *s) {
  fputc('\'', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\'')
      fputs("''", out);
    else
      fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
  }
  fputc('\'', out);
}

/* The file name `id`.`ext` as a gnuplot string. */
static void gp_file(FILE *out, const char *id, const char *ext) {
  char name[300];
  snprintf(name, sizeof name, "%s.%s", id, ext);
  ft_plot_gp_string(out, name);
}

/* The linetype of protocol `name`: its rank among the figure's protocols
 * in order of appearance, from 1, so that it has one colour in every
 * panel. */
static int lt_of(const struct ft_plot_figure *f, const char *name) {
  int n = 0;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++) {
      const char *other = f->panels[p].series[s].name;
      bool seen = false;
      for (size_t q = 0; q <= p && !seen; q++)
        for (size_t k = 0; k < f->panels[q].nseries && !seen; k++)
          seen = (q < p || k < s) &&
                 strcmp(f->panels[q].series[k].name, other) == 0;
      if (seen)
        continue;
      n++;
      if (strcmp(other, name) == 0)
        return n;
    }
  return n + 1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Tics at the data's x values when there are few (ranks 4 8 16, periods
 * 0.01 0.02 0.04 0.08 read better than decades). */
static void x_tics(const struct ft_plot_figure *f, FILE *out) {
  double xs[12];
  size_t n = 0;
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++)
      for (size_t i = 0; i < f->panels[p].series[s].n; i++) {
        double x = f->panels[p].series[s].pts[i].x;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
          seen = xs[k] == x;
        if (seen)
          continue;
        if (n == sizeof xs / sizeof *xs)
          return; /* many values: gnuplot's own tics */
        xs[n++] = x;
      }
  if (n < 2 || f->kind == FT_PLOT_TIME_WAVES)
    return;
  qsort(xs, n, sizeof *xs, cmp_double);
  fputs("set xtics (", out);
  for (size_t k = 0; k < n; k++)
    fprintf(out, "%s%.9g", k ? ", " : "", xs[k]);
  fputs(")\n", out);
}

/* "set NAME 'a'.NL.'b1'.NL.'b2'\n": the lines of b (may be NULL) split
 * at its newlines. */
static void gp_set2(FILE *out, const char *name, const char *a, const char *b) {
  fprintf(out, "set %s ", name);
  ft_plot_gp_string(out, a);
  while (b && b[0]) {
    char line[512];
    size_t n = strcspn(b, "\n");
    snprintf(line, sizeof line, "%.*s", (int)n, b);
    fputs(".NL.", out);
    ft_plot_gp_string(out, line);
    b += n + (b[n] == '\n');
  }
  fputc('\n', out);
}

/* `text` as gnuplot strings, each sentence ("... . ") on a line of its
 * own: .NL.'First.'.NL.'Second.' */
static void gp_sentences(FILE *out, const char *text) {
  char buf[512];
  while (*text) {
    const char *end = strstr(text, ". ");
    size_t n = end ? (size_t)(end - text) + 1 : strlen(text);
    n = n < sizeof buf ? n : sizeof buf - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    fputs(".NL.", out);
    ft_plot_gp_string(out, buf);
    text += n;
    while (*text == ' ')
      text++;
  }
}

/* The key, in the first panel only: one entry per protocol (with its fit
 * on time_vs_waves), then the marks. */
static void key_entries(const struct ft_plot_figure *f, FILE *out) {
  for (size_t p = 0; p < f->npanels; p++)
    for (size_t s = 0; s < f->panels[p].nseries; s++) {
      const struct ft_plot_series *se = &f->panels[p].series[s];
      int lt = lt_of(f, se->name);
      bool first = true;
      for (size_t q = 0; q <= p && first; q++)
        for (size_t k = 0; k < f->panels[q].nseries && first; k++)
          first = !((q < p || k < s) &&
                    strcmp(f->panels[q].series[k].name, se->name) == 0);
      if (!first)
        continue;
      fprintf(out, "keyentry with linespoints lt %d title ", lt);
      char t[256];
      if (f->kind == FT_PLOT_TIME_WAVES && !isnan(se->fit.slope))
        snprintf(t, sizeof t, "%s: T = %.4g + %.4g x waves, R^2 %.3f", se->name,
                 se->fit.intercept, se->fit.slope, se->fit.r2);
      else
        snprintf(t, sizeof t, "%s", se->name);
      ft_plot_gp_string(out, t);
      fputs(", \\\n     ", out);
    }
  if (f->kind == FT_PLOT_TIME_PERIOD)
    fputs("keyentry with points pt 6 ps 2 lc 'black' title 'best simulated "
          "period', \\\n     keyentry with lines dt 2 lc 'black' title "
          "'Young sqrt(2CM)', \\\n     keyentry with lines dt 3 lc 'black' "
          "title 'Daly', \\\n     ",
          out);
}

static void marks(const struct ft_plot_figure *f,
                  const struct ft_plot_panel *pn, FILE *out) {
  fputs("unset arrow\nunset object\n", out);
  for (size_t s = 0; s < pn->nseries; s++) {
    const struct ft_plot_series *se = &pn->series[s];
    int lt = lt_of(f, se->name);
    if (drawn(f, se->young))
      fprintf(out,
              "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 2 "
              "lw 1.5 lc %d\n",
              se->young, se->young, lt);
    if (drawn(f, se->daly))
      fprintf(out,
              "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dt 3 "
              "lw 1.5 lc %d\n",
              se->daly, se->daly, lt);
    if (drawn(f, se->best_x) && isfinite(se->best_y))
      fprintf(out,
              "set object circle at first %.9g, first %.9g size screen "
              "0.012 front fillstyle empty border lc lt %d lw 2\n",
              se->best_x, se->best_y, lt);
  }
}

/* The x expression of series k of `pn`: error bars offset per protocol. */
static void x_expr(const struct ft_plot_figure *f,
                   const struct ft_plot_panel *pn, size_t k, FILE *out) {
  size_t nbars = 0, mine = 0;
  for (size_t s = 0; s < pn->nseries; s++) {
    if (s == k)
      mine = nbars;
    nbars += has_err(&pn->series[s]);
  }
  double step = (double)mine - (double)(nbars - 1) / 2;
  if (nbars < 2 || !has_err(&pn->series[k]))
    fputs("1", out);
  else if (f->logx)
    fprintf(out, "($1*%.6f)", pow(STAGGER, step));
  else {
    double lo, hi;
    ft_plot_x_range(f, &lo, &hi);
    fprintf(out, "($1+%.9g)", step * 0.012 * (hi - lo));
  }
}

static void plot_panel(const struct ft_plot_figure *f, size_t p,
                       size_t first_block, FILE *out) {
  const struct ft_plot_panel *pn = &f->panels[p];
  fputs("plot ", out);
  if (p == 0)
    key_entries(f, out);
  for (size_t s = 0; s < pn->nseries; s++) {
    const struct ft_plot_series *se = &pn->series[s];
    int lt = lt_of(f, se->name);
    bool bars = has_err(se);
    fputs(s ? ", \\\n     " : "", out);
    gp_file(out, f->id, "dat");
    fprintf(out, " index %zu using ", first_block + s);
    x_expr(f, pn, s, out);
    fprintf(out, ":2%s with %s lt %d notitle", bars ? ":3:4" : "",
            f->kind == FT_PLOT_TIME_WAVES ? "points"
            : bars                        ? "yerrorlines"
                                          : "linespoints",
            lt);
    if (f->kind == FT_PLOT_TIME_WAVES && !isnan(se->fit.slope))
      fprintf(out, ", \\\n     (%.9g)+(%.9g)*x with lines lt %d notitle",
              se->fit.intercept, se->fit.slope, lt);
    if (f->kind == FT_PLOT_EFF_MTBF) {
      fputs(", \\\n     ", out);
      gp_file(out, f->id, "dat");
      fprintf(out,
              " index %zu using 1:2:(sprintf('%%g s', $5)) with labels "
              "offset 0,1 font ',8' tc lt %d notitle",
              first_block + s, lt);
    }
  }
  fputc('\n', out);
}

/* The canvas: wider with more panels; the key right of the panels. */
static void canvas(const struct ft_plot_figure *f, int *w, double *right) {
  *w = f->npanels > 1 ? 260 + 340 * (int)f->npanels : 1000;
  *right = 1.0 - 250.0 / *w;
}

/* The multiplot of every panel, for the current terminal. */
static void body(const struct ft_plot_figure *f, FILE *out) {
  int w;
  double right, xlo, xhi, ylo, yhi;
  canvas(f, &w, &right);
  ft_plot_x_range(f, &xlo, &xhi);
  ft_plot_y_range(f, &ylo, &yhi);
  fputs("reset\n", out); /* what the other terminal's pass set */
  fprintf(out,
          "set multiplot layout 1,%zu margins 0.08,%.3f,0.11,0.70 "
          "spacing 0.012,0 title ",
          f->npanels, right);
  ft_plot_gp_string(out, f->title);
  gp_sentences(out, f->caption);
  fputs(" font 'sans,11'\n", out);
  gp_set2(out, "xlabel", f->xlabel, NULL);
  gp_set2(out, "ylabel", f->ylabel, NULL);
  fputs("set grid\nset pointsize 1.2\nset bars small\n", out);
  if (f->logx)
    fputs("set logscale x\n", out);
  fprintf(out, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", xlo, xhi,
          ylo, yhi);
  x_tics(f, out);
  if (f->kind == FT_PLOT_TIME_WAVES) /* long entries: above the plot */
    fputs("set key at screen 0.08, screen 0.86 left top box opaque\n", out);
  else
    fprintf(out, "set key at screen %.3f, screen 0.70 left top box opaque\n",
            right + 0.01);
  size_t block = 0;
  for (size_t p = 0; p < f->npanels; p++) {
    const struct ft_plot_panel *pn = &f->panels[p];
    if (p == 1) /* the y axis is shared: tics and label on the first */
      fputs("unset ylabel\nset format y ''\nunset key\n", out);
    gp_set2(out, "title", pn->title, pn->flag);
    marks(f, pn, out);
    plot_panel(f, p, block, out);
    block += pn->nseries;
  }
  fputs("unset multiplot\n", out);
}

void ft_plot_script(FILE *out, const struct ft_plot_figure *f) {
  int w;
  double right;
  canvas(f, &w, &right);
  fputs("# gnuplot ", out);
  one_line(out, f->id);
  fputs(".gp (in this directory) writes the PNG and SVG\n"
        "NL = sprintf('%c', 10)\n",
        out);
  fprintf(out,
          "set terminal pngcairo noenhanced size %d,680 font 'sans,10'\n"
          "set output ",
          w);
  gp_file(out, f->id, "png");
  fputc('\n', out);
  body(f, out);
  fprintf(out,
          "set terminal svg noenhanced size %d,680 dynamic font 'sans,10'\n"
          "set output ",
          w);
  gp_file(out, f->id, "svg");
  fputc('\n', out);
  body(f, out);
  fputs("unset output\n", out);
}
