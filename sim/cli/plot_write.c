/* `ftsim plot`: the files, running gnuplot, and the command (see plot.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outcome.h"
#include "plot.h"
#include "provenance.h"
#include "strv.h"

#define PATH_LEN 4096

/* Writes PATH with `fn(out, f)`; 0 or -1. */
static int write_file(const char *path,
                      void (*fn)(FILE *, const struct ft_plot_figure *),
                      const struct ft_plot_figure *f) {
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  fn(out, f);
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

int ft_plot_write(const struct ft_plot_set *set, const struct ft_analysis *a,
                  const struct ft_results *r, const char *csv,
                  const char *command, const char *dir, char *err,
                  size_t errlen) {
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    return ft_fail(err, errlen, "cannot create %s: %s", dir, strerror(errno));
  for (size_t i = 0; i < set->count; i++) {
    const struct ft_plot_figure *f = &set->figs[i];
    char data[PATH_LEN + 300], script[PATH_LEN + 300], name[300];
    snprintf(data, sizeof data, "%s/%s.dat", dir, f->id);
    snprintf(script, sizeof script, "%s/%s.gp", dir, f->id);
    snprintf(name, sizeof name, "%s.gp", f->id);
    if (write_file(data, ft_plot_data, f) ||
        write_file(script, ft_plot_script, f))
      return ft_fail(err, errlen, "cannot write %s: %s", script,
                     strerror(errno));
    if (ft_plot_gnuplot(dir, name, err, errlen))
      return -1;
  }
  char path[PATH_LEN + 16];
  snprintf(path, sizeof path, "%s/report.md", dir);
  FILE *out = fopen(path, "w");
  if (out)
    ft_plot_report(out, set, a, r, csv, command);
  if (!out || fclose(out))
    return ft_fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
  return 0;
}

/* ---- the command */

static int plot_usage(FILE *out, int status) {
  fputs("Usage: ftsim plot [-o DIR] RESULTS.csv\n"
        "Draws the figures of a sweep's results with gnuplot (PNG and SVG)\n"
        "and writes DIR/report.md with the CSV's provenance, each figure\n"
        "with its caption and a conclusion, and the analysis tables\n"
        "(default DIR: RESULTS-report). Figures: see scenarios/sweep.md.\n",
        out);
  return status;
}

static void print_notes(const char *notes) {
  for (const char *l = notes; *l;) {
    const char *nl = strchr(l, '\n');
    int len = nl ? (int)(nl - l) : (int)strlen(l);
    fprintf(stderr, "ftsim: %.*s\n", len, l);
    l += len + (nl != NULL);
  }
}

static int plot(const char *file, const char *dir, const char *command) {
  char err[2048];
  struct ft_results r = {0};
  if (ft_results_load(file, &r, NULL, err, sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    ft_results_free(&r);
    return FT_EXIT_FAILED;
  }
  ft_results_dedup(&r, file, stderr);
  struct ft_analysis a;
  struct ft_plot_set set;
  ft_analysis_build(&r, &a);
  ft_plot_build(&a, &r, &set);
  print_notes(set.notes);
  int rc = ft_plot_write(&set, &a, &r, file, command, dir, err, sizeof err);
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
  char dir[PATH_LEN];
  size_t n = strlen(file);
  if (dir_arg)
    snprintf(dir, sizeof dir, "%s", dir_arg);
  else
    snprintf(dir, sizeof dir, "%.*s-report",
             n > 4 && !strcmp(file + n - 4, ".csv") ? (int)n - 4 : (int)n,
             file);
  struct ft_provenance here;
  ft_provenance_here(&here, "plot", NULL, argc, argv);
  return plot(file, dir, here.command);
}
