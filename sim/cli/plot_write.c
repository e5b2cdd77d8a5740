/* `ftsim plot`: the gnuplot data and scripts, running gnuplot, the report
 * page, and the command (see plot.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outcome.h"
#include "plot.h"
#include "strv.h"

#define PATH_LEN 4096

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

/* `s` on one line: control characters (a '\r' or '\n' in a cell would
 * end a comment line of the data file) as '?'. */
static void one_line(FILE *out, const char *s) {
  for (; *s; s++)
    fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

static bool has_err(const struct ft_plot_series *s) {
  for (size_t i = 0; i < s->n; i++)
    if (isfinite(s->pts[i].err))
      return true;
  return false;
}

/* DIR/ID.dat: one block per series (gnuplot `index`), "x y err". */
static int write_data(const struct ft_plot_figure *f, const char *path) {
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  fputs("# ", out);
  one_line(out, f->title);
  fprintf(out, "\n# x: %s; y: %s; err: 95%% half-width\n", f->xlabel,
          f->ylabel);
  for (size_t s = 0; s < f->nseries; s++) {
    fprintf(out, "%s# ", s ? "\n\n" : "");
    one_line(out, f->series[s].name);
    fputc('\n', out);
    for (size_t i = 0; i < f->series[s].n; i++) {
      const struct ft_plot_point *p = &f->series[s].pts[i];
      fprintf(out, "%.9g %.9g %.9g\n", p->x, p->y,
              isfinite(p->err) ? p->err : 0.0);
    }
  }
  return fclose(out);
}

static void x_range(const struct ft_plot_figure *f, FILE *out) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (size_t s = 0; s < f->nseries; s++)
    for (size_t i = 0; i < f->series[s].n; i++) {
      lo = fmin(lo, f->series[s].pts[i].x);
      hi = fmax(hi, f->series[s].pts[i].x);
    }
  if (lo == hi && lo > 0)
    fprintf(out, "set xrange [%.9g:%.9g]\n", lo / 2, lo * 2);
  else if (lo == hi)
    fprintf(out, "set xrange [%.9g:%.9g]\n", lo - 1, lo + 1);
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
  for (size_t s = 0; s < f->nseries; s++)
    for (size_t i = 0; i < f->series[s].n; i++) {
      double x = f->series[s].pts[i].x;
      bool seen = false;
      for (size_t k = 0; k < n && !seen; k++)
        seen = xs[k] == x;
      if (seen)
        continue;
      if (n == sizeof xs / sizeof *xs)
        return; /* many values: gnuplot's own tics */
      xs[n++] = x;
    }
  if (n < 2 || strncmp(f->id, "time_vs_waves", 13) == 0)
    return;
  qsort(xs, n, sizeof *xs, cmp_double);
  fputs("set xtics (", out);
  for (size_t k = 0; k < n; k++)
    fprintf(out, "%s%.9g", k ? ", " : "", xs[k]);
  fputs(")\n", out);
}

/* The file name `id`.`ext` as a gnuplot string. */
static void gp_file(FILE *out, const char *id, const char *ext) {
  char name[300];
  snprintf(name, sizeof name, "%s.%s", id, ext);
  ft_plot_gp_string(out, name);
}

static void plot_command(const struct ft_plot_figure *f, FILE *out) {
  bool waves = strncmp(f->id, "time_vs_waves", 13) == 0;
  fputs("plot ", out);
  for (size_t s = 0; s < f->nseries; s++) {
    const struct ft_plot_series *se = &f->series[s];
    fputs(s ? ", \\\n     " : "", out);
    gp_file(out, f->id, "dat");
    fprintf(out, " index %zu using 1:2%s with %s title ", s,
            has_err(se) ? ":3" : "",
            waves         ? "points"
            : has_err(se) ? "yerrorlines"
                          : "linespoints");
    ft_plot_gp_string(out, se->name);
  }
  fputc('\n', out);
}

/* "set NAME 'value'\n" */
static void gp_set(FILE *out, const char *name, const char *value) {
  fprintf(out, "set %s ", name);
  ft_plot_gp_string(out, value);
  fputc('\n', out);
}

void ft_plot_script(FILE *out, const struct ft_plot_figure *f) {
  fputs("# gnuplot ", out);
  one_line(out, f->id);
  fputs(".gp (in this directory) writes the PNG and SVG\n"
        "set terminal pngcairo noenhanced size 900,600 font 'sans,10'\n"
        "set output ",
        out);
  gp_file(out, f->id, "png");
  fputc('\n', out);
  gp_set(out, "title", f->title);
  gp_set(out, "xlabel", f->xlabel);
  gp_set(out, "ylabel", f->ylabel);
  fputs("set key outside right top\nset grid\nset pointsize 1.3\n"
        "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n",
        out);
  if (f->logx) /* the data's range, not the enclosing decades */
    fputs("set logscale x\nset autoscale xfix\n", out);
  x_range(f, out);
  x_tics(f, out);
  plot_command(f, out);
  fputs("set terminal svg noenhanced size 900,600 dynamic font 'sans,10'\n"
        "set output ",
        out);
  gp_file(out, f->id, "svg");
  fputs("\nreplot\nunset output\n", out);
}

/* DIR/ID.gp: PNG then SVG of the figure. */
static int write_script(const struct ft_plot_figure *f, const char *path) {
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  ft_plot_script(out, f);
  return fclose(out);
}

int ft_plot_gnuplot(const char *dir, const char *script, char *err,
                    size_t errlen) {
  const char *prog = getenv("FTSIM_GNUPLOT");
  prog = prog && *prog ? prog : "gnuplot";
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir) == 0)
      execlp(prog, prog, script, (char *)NULL);
    fprintf(stderr, "ftsim: cannot run %s: %s\n", prog, strerror(errno));
    _exit(127);
  }
  int ws = 0;
  if (pid < 0 || waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) ||
      WEXITSTATUS(ws) != 0)
    return ft_fail(err, errlen,
                   "%s %s/%s failed (exit status %d; is gnuplot-nox "
                   "installed?)",
                   prog, dir, script, WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
  return 0;
}

static int write_report(const struct ft_plot_set *set,
                        const struct ft_analysis *a, const char *csv,
                        const char *dir) {
  char path[PATH_LEN + 16];
  snprintf(path, sizeof path, "%s/report.md", dir);
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  fprintf(out,
          "# Sweep report: %s\n\nWritten by `ftsim plot %s`. "
          "Definitions: scenarios/sweep.md.\n\n## Analysis\n\n```text\n",
          csv, csv);
  ft_analysis_print_text(out, a, csv);
  fprintf(out, "```\n\n## Figures\n\n");
  for (size_t i = 0; i < set->count; i++) {
    const struct ft_plot_figure *f = &set->figs[i];
    fprintf(out,
            "### %s: %s against %s\n\n![%s](%s.png)\n\n[SVG](%s.svg), "
            "[data](%s.dat), [gnuplot script](%s.gp)\n\n",
            f->title, f->ylabel, f->xlabel, f->title, f->id, f->id, f->id,
            f->id);
  }
  if (set->notes[0]) {
    fputs("## Figures not drawn\n\n", out);
    for (const char *l = set->notes; *l;) {
      const char *nl = strchr(l, '\n');
      int n = nl ? (int)(nl - l) : (int)strlen(l);
      fprintf(out, "- %.*s\n", n, l);
      l += n + (nl != NULL);
    }
  }
  return fclose(out);
}

int ft_plot_write(const struct ft_plot_set *set, const struct ft_analysis *a,
                  const char *csv, const char *dir, char *err, size_t errlen) {
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    return ft_fail(err, errlen, "cannot create %s: %s", dir, strerror(errno));
  for (size_t i = 0; i < set->count; i++) {
    const struct ft_plot_figure *f = &set->figs[i];
    char data[PATH_LEN + 300], script[PATH_LEN + 300], name[300];
    snprintf(data, sizeof data, "%s/%s.dat", dir, f->id);
    snprintf(script, sizeof script, "%s/%s.gp", dir, f->id);
    snprintf(name, sizeof name, "%s.gp", f->id);
    if (write_data(f, data) || write_script(f, script))
      return ft_fail(err, errlen, "cannot write %s: %s", script,
                     strerror(errno));
    if (ft_plot_gnuplot(dir, name, err, errlen))
      return -1;
  }
  if (write_report(set, a, csv, dir))
    return ft_fail(err, errlen, "cannot write %s/report.md: %s", dir,
                   strerror(errno));
  return 0;
}

/* ---- the command */

static int plot_usage(FILE *out, int status) {
  fputs("Usage: ftsim plot [-o DIR] RESULTS.csv\n"
        "Draws the figures of a sweep's results with gnuplot (PNG and SVG)\n"
        "and writes DIR/report.md with the analysis table and the figures\n"
        "(default DIR: RESULTS-report). Figures: see scenarios/sweep.md.\n",
        out);
  return status;
}

int ft_plot_main(int argc, char **argv) {
  const char *file = NULL, *dir_arg = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return plot_usage(stdout, FT_EXIT_OK);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      dir_arg = argv[++i];
    else if (argv[i][0] == '-' || file)
      return plot_usage(stderr, FT_EXIT_USAGE);
    else
      file = argv[i];
  }
  if (!file)
    return plot_usage(stderr, FT_EXIT_USAGE);
  char dir[PATH_LEN], err[2048];
  size_t n = strlen(file);
  if (dir_arg)
    snprintf(dir, sizeof dir, "%s", dir_arg);
  else
    snprintf(dir, sizeof dir, "%.*s-report",
             n > 4 && !strcmp(file + n - 4, ".csv") ? (int)n - 4 : (int)n,
             file);
  struct ft_results r = {0};
  if (ft_results_load(file, &r, NULL, err, sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    return FT_EXIT_FAILED;
  }
  ft_results_dedup(&r, file, stderr);
  struct ft_analysis a;
  struct ft_plot_set set;
  ft_analysis_build(&r, &a);
  ft_plot_build(&a, &r, &set);
  for (const char *l = set.notes; *l;) {
    const char *nl = strchr(l, '\n');
    int len = nl ? (int)(nl - l) : (int)strlen(l);
    fprintf(stderr, "ftsim: %.*s\n", len, l);
    l += len + (nl != NULL);
  }
  int rc = ft_plot_write(&set, &a, file, dir, err, sizeof err);
  if (rc)
    fprintf(stderr, "ftsim: %s\n", err);
  else
    fprintf(stderr, "ftsim: %zu figures (PNG, SVG) and %s/report.md\n",
            set.count, dir);
  ft_plot_free(&set);
  ft_analysis_free(&a);
  ft_results_free(&r);
  return rc ? FT_EXIT_FAILED : FT_EXIT_OK;
}
