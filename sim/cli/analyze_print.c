/* `ftsim analyze`: the text and CSV reports, and the command (see
 * analyze.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "csv.h"
#include "outcome.h"

/* A number for a table cell with `prec` decimals (-1: %g); "-" for NAN. */
static const char *fmt(char *buf, size_t len, int prec, double v) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else if (prec < 0)
    snprintf(buf, len, "%g", v);
  else
    snprintf(buf, len, "%.*f", prec, v);
  return buf;
}

/* "0.1" for an MTBF, "FMT:NAME" for a trace "FMT:DIR/NAME" (a CSV
 * written by hand may lack the "FMT:"), "none". */
static const char *source(const struct ft_group *g, char *buf, size_t len) {
  const char *t = g->rep->cell[FT_COL_TRACE];
  if (!t[0])
    return g->rep->cell[FT_COL_MTBF];
  const char *colon = strchr(t, ':'), *slash = strrchr(t, '/');
  const char *file = slash ? slash + 1 : colon ? colon + 1 : t;
  if (colon && colon < file)
    snprintf(buf, len, "%.*s:%s", (int)(colon - t), t, file);
  else
    snprintf(buf, len, "%s", file);
  return buf;
}

static void print_groups(FILE *out, const struct ft_analysis *a) {
  fprintf(out,
          "%-9s %-9s %-6s %6s %4s %-14s %9s %3s %11s %10s %10s %6s "
          "%6s %6s\n",
          "protocol", "platform", "app", "ranks", "srv", "mtbf_s", "period_s",
          "n", "mean_s", "sd_s", "ci95_s", "eff", "waves", "fails");
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *g = &a->groups[i];
    char b[8][32], src[64], n[16];
    const char *const *c = (const char *const *)g->rep->cell;
    snprintf(n, sizeof n, "%zu%s", g->nok, g->nok < g->nrows ? "*" : "");
    fprintf(out,
            "%-9s %-9s %-6s %6s %4s %-14s %9s %3s %11s %10s %10s %6s %6s "
            "%6s\n",
            c[FT_COL_PROTOCOL], c[FT_COL_PLATFORM], c[FT_COL_APP],
            c[FT_COL_RANKS], c[FT_COL_SERVERS], source(g, src, sizeof src),
            c[FT_COL_PERIOD], n, fmt(b[0], 32, 6, g->time.mean),
            fmt(b[1], 32, 6, g->nok > 1 ? g->time.sd : NAN),
            fmt(b[2], 32, 6, g->time.ci95), fmt(b[3], 32, 3, g->eff),
            fmt(b[4], 32, 1, g->waves), fmt(b[5], 32, 1, g->failures));
  }
}

/* True for the first group of its (family, failures) with a best period. */
static bool first_of_source(const struct ft_analysis *a, size_t i) {
  const struct ft_group *g = &a->groups[i];
  if (isnan(g->best_time) || g->failure_free)
    return false;
  for (size_t k = 0; k < i; k++) {
    const struct ft_group *h = &a->groups[k];
    bool same = true;
    for (int c = 0; c < FT_COL_NPARAMS && same; c++)
      if (c != FT_COL_SEED && c != FT_COL_PERIOD)
        same = strcmp(h->rep->cell[c], g->rep->cell[c]) == 0;
    if (same)
      return false;
  }
  return true;
}

static void print_optima(FILE *out, const struct ft_analysis *a) {
  fprintf(out,
          "%-9s %-9s %-6s %6s %4s %-14s %10s %10s %11s %10s %10s %10s "
          "%s\n",
          "protocol", "platform", "app", "ranks", "srv", "mtbf_s", "C_s",
          "best_per_s", "best_mean_s", "ci95_s", "young_s", "daly_s",
          "not_distinguishable_from");
  for (size_t i = 0; i < a->count; i++) {
    if (!first_of_source(a, i))
      continue;
    const struct ft_group *g = &a->groups[i];
    const char *const *c = (const char *const *)g->rep->cell;
    char b[6][32], src[64], ties[512] = "-";
    const struct ft_group *best = ft_analysis_best_of(a, g);
    if (best)
      ft_analysis_ties_text(a, best, ties, sizeof ties);
    fprintf(out,
            "%-9s %-9s %-6s %6s %4s %-14s %10s %10s %11s %10s %10s %10s "
            "%s\n",
            c[FT_COL_PROTOCOL], c[FT_COL_PLATFORM], c[FT_COL_APP],
            c[FT_COL_RANKS], c[FT_COL_SERVERS], source(g, src, sizeof src),
            fmt(b[0], 32, 6, g->cost), fmt(b[1], 32, -1, g->best_period),
            fmt(b[2], 32, 6, g->best_time),
            fmt(b[3], 32, 6, best ? best->time.ci95 : NAN),
            fmt(b[4], 32, 6, g->young), fmt(b[5], 32, 6, g->daly), ties);
  }
}

void ft_analysis_print_text(FILE *out, const struct ft_analysis *a,
                            const char *name) {
  size_t rows = 0, ok = 0, stopped = 0;
  for (size_t i = 0; i < a->count; i++) {
    rows += a->groups[i].nrows, ok += a->groups[i].nok;
    stopped += a->groups[i].nstopped;
  }
  fprintf(out,
          "Sweep %s: %zu rows (%zu ok, %zu no_progress), %zu groups of "
          "seeds.\n"
          "Completion time over the seeds of each group: mean, standard "
          "deviation, 95%% confidence half-width (Student t); n* when some "
          "rows did not end ok. eff = failure-free time / mean.\n\n",
          name, rows, ok, stopped, a->count);
  print_groups(out, a);
  fprintf(out, "\nOptimal periods per MTBF: the best period simulated (its "
               "mean and 95%% half-width), and Young's sqrt(2CM) and Daly's "
               "higher-order estimate from the measured checkpoint cost C "
               "(mean of (T - T_ff - lost - recovery) / waves). "
               "not_distinguishable_from: the periods of the protocol and "
               "the protocol@period of others whose 95%% interval overlaps "
               "the best's (- none; n<2: one seed, not judged).\n\n");
  print_optima(out, a);
}

static void cell(FILE *out, double v) {
  fputc(',', out);
  if (!isnan(v))
    fprintf(out, "%.9g", v);
}

void ft_analysis_print_csv(FILE *out, const struct ft_analysis *a) {
  for (int c = 0; c < FT_COL_NPARAMS; c++)
    if (c != FT_COL_SEED)
      fprintf(out, "%s,", ft_col_name((enum ft_col)c));
  fputs("rows,ok,mean_s,sd_s,ci95_s,efficiency,failure_free_s,waves,"
        "failures,lost_work_s,recovery_s,ckpt_cost_s,best_period_s,"
        "best_mean_s,young_s,daly_s,efficiency_lo,efficiency_hi,"
        "not_distinguishable_from\n",
        out);
  for (size_t i = 0; i < a->count; i++) {
    const struct ft_group *g = &a->groups[i];
    for (int c = 0; c < FT_COL_NPARAMS; c++)
      if (c != FT_COL_SEED) {
        ft_csv_put(out, g->rep->cell[c]);
        fputc(',', out);
      }
    fprintf(out, "%zu,%zu", g->nrows, g->nok);
    const double v[] = {g->time.mean, g->time.sd, g->time.ci95,   g->eff,
                        g->ff,        g->waves,   g->failures,    g->lost,
                        g->recovery,  g->cost,    g->best_period, g->best_time,
                        g->young,     g->daly,    g->eff_lo,      g->eff_hi};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
      cell(out, v[k]);
    char ties[512];
    ft_analysis_ties_text(a, g, ties, sizeof ties);
    fputc(',', out);
    ft_csv_put(out, ties);
    fputc('\n', out);
  }
}

static int analyze_usage(FILE *out, int status) {
  fputs("Usage: ftsim analyze [--csv] [-o FILE] RESULTS.csv\n"
        "Aggregates a sweep's rows over seeds (mean, standard deviation, "
        "95%\nconfidence interval), efficiency, best period per MTBF, Young "
        "and Daly\nperiods (scenarios/sweep.md). --csv: one CSV row per "
        "group instead of\nthe text tables; -o: write to FILE.\n",
        out);
  return status;
}

int ft_analyze_main(int argc, char **argv) {
  const char *file = NULL, *output = NULL;
  bool csv = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return analyze_usage(stdout, FT_EXIT_OK);
    else if (!strcmp(argv[i], "--csv"))
      csv = true;
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      output = argv[++i];
    else if (argv[i][0] == '-' || file)
      return analyze_usage(stderr, FT_EXIT_USAGE);
    else
      file = argv[i];
  }
  if (!file)
    return analyze_usage(stderr, FT_EXIT_USAGE);
  struct ft_results r = {0};
  char err[2048];
  bool partial = false;
  if (ft_results_load(file, &r, &partial, err, sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    return FT_EXIT_FAILED;
  }
  if (partial)
    fprintf(stderr, "ftsim: %s: ignoring a half-written last line\n", file);
  ft_results_dedup(&r, file, stderr);
  FILE *out = output ? fopen(output, "w") : stdout;
  if (!out) {
    fprintf(stderr, "ftsim: cannot write %s\n", output);
    ft_results_free(&r);
    return FT_EXIT_FAILED;
  }
  struct ft_analysis a;
  ft_analysis_build(&r, &a);
  if (csv)
    ft_analysis_print_csv(out, &a);
  else
    ft_analysis_print_text(out, &a, file);
  int rc = (output ? fclose(out) : fflush(out)) ? FT_EXIT_FAILED : FT_EXIT_OK;
  ft_analysis_free(&a);
  ft_results_free(&r);
  return rc;
}
