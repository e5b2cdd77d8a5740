/* `ftsim sweep` (see sweep.h): arguments, checks, then the pool
 * (sweep_run.c) or a Slurm script. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_speed.h"
#include "machine.h"
#include "options.h"
#include "outcome.h"
#include "paths.h"
#include "sweep_file.h"
#include "sweep_points.h"
#include "sweep_run.h"
#include "sweep_slurm.h"

#define PATH_LEN 4096

struct sweep_args {
  const char *file, *output, *slurm;
  int jobs;               /* 0: the number of online cores */
  long point, point_last; /* --point I[-J]: only these indices; -1: all */
  struct ft_slurm_opts slurm_opts; /* --time, --mem, --points-per-task */
  const char *slurm_only; /* the first Slurm option given, for errors */
  bool dry_run, help;
  struct ft_provenance prov; /* written into a CSV the sweep creates */
};

void ft_sweep_usage(FILE *out) {
  fputs(
      "Usage: ftsim sweep [-j N] [-o CSV] [--dry-run] FILE\n"
      "       ftsim sweep --emit-slurm SCRIPT [--time T] [--mem M]\n"
      "                   [--points-per-task K] [-o CSV] FILE\n"
      "       ftsim sweep --point I[-J] [-o CSV] FILE\n"
      "\n"
      "Runs every point of the sweep file FILE (scenarios/sweep.md) as one\n"
      "`ftsim run`, N at a time (default: the number of cores), and appends\n"
      "one row per finished point to CSV (default: ./NAME.csv for FILE\n"
      "NAME.txt), flushed and fsynced. Points that already have a row are\n"
      "skipped: running the same command again resumes a stopped sweep.\n"
      "Scenario files and each point's output go to CSV.d/HASH.*. A new\n"
      "CSV starts with '#' lines naming this ftsim's commit, FILE and the\n"
      "command (its provenance), then the header.\n"
      "\n"
      "  -j, --jobs N        simulations at a time\n"
      "  -o, --output CSV    the results file\n"
      "  --dry-run           list the points and their `ftsim run` lines\n"
      "                      (writes nothing)\n"
      "  --emit-slurm SCRIPT write a Slurm job array, merging into CSV; only\n"
      "                      the tasks with a point without a row are in it\n"
      "  --time T            its tasks' time limit, Slurm's format (MINUTES,\n"
      "                      H:M:S, D-H...; default: K x (timeout + 5 s),\n"
      "                      in minutes, plus 1; none with timeout 0)\n"
      "  --mem M             its tasks' memory, Slurm's format "
      "(default " FT_SLURM_DEFAULT_MEM ")\n"
      "  --points-per-task K points per array task (default 1)\n"
      "  --point I[-J]       run only point I, or I to J (0-based, in\n"
      "                      --dry-run order)\n"
      "\n"
      "Exit status: 0 every point has a row (see its outcome column), 1 the\n"
      "CSV could not be written, 2 bad usage or sweep file, 128+signal when\n"
      "interrupted (finished rows are kept; running points are killed).\n",
      out);
}

/* Prints "ftsim: <fmt><tail>\n" on stderr and returns `status`. */
static int vsay(int status, const char *tail, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static int vsay(int status, const char *tail, const char *fmt, va_list ap) {
  fputs("ftsim: ", stderr);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "%s\n", tail);
  return status;
}

static int say(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "ftsim: <fmt>", returns `status`. */
static int say(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsay(status, "", fmt, ap);
  va_end(ap);
  return status;
}

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* "ftsim: <fmt> (see ftsim sweep --help)", returns FT_EXIT_USAGE. */
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsay(FT_EXIT_USAGE, " (see ftsim sweep --help)", fmt, ap);
  va_end(ap);
  return FT_EXIT_USAGE;
}

/* True for a short option with its value attached: "-j2", "-oout.csv". */
static bool attached(const char *arg) {
  return arg[0] == '-' && (arg[1] == 'j' || arg[1] == 'o') && arg[2];
}

/* Takes the value of option argv[*i] ("-j 2", "-j2" or "--jobs=2"). */
static const char *value(int argc, char **argv, int *i, const char *name) {
  const char *eq = strchr(argv[*i], '=');
  if (attached(argv[*i]))
    return argv[*i] + 2;
  if (strncmp(argv[*i], "--", 2) == 0 && eq &&
      strncmp(argv[*i], name, (size_t)(eq - argv[*i])) == 0)
    return eq + 1;
  return *i + 1 < argc ? argv[++*i] : NULL;
}

static bool is(const char *arg, const char *a, const char *b) {
  size_t n = strlen(b);
  return strcmp(arg, a) == 0 || strcmp(arg, b) == 0 ||
         (strncmp(arg, b, n) == 0 && arg[n] == '=') ||
         (attached(arg) && strncmp(arg, a, 2) == 0 && !a[2]);
}

/* "I" or "I-J" (0 <= I <= J). */
static int parse_range(const char *v, long *first, long *last) {
  char head[32];
  int a, b;
  const char *dash = strchr(v, '-');
  if (!dash)
    return ft_parse_int(v, 0, INT_MAX, &a) ? -1 : (*first = *last = a, 0);
  snprintf(head, sizeof head, "%.*s", (int)(dash - v), v);
  if ((size_t)(dash - v) >= sizeof head || ft_parse_int(head, 0, INT_MAX, &a) ||
      ft_parse_int(dash + 1, 0, INT_MAX, &b) || b < a)
    return -1;
  *first = a, *last = b;
  return 0;
}

static bool is_slurm_option(const char *arg) {
  return is(arg, "--time", "--time") || is(arg, "--mem", "--mem") ||
         is(arg, "--points-per-task", "--points-per-task");
}

/* --time, --mem, --points-per-task (checked here, used with --emit-slurm). */
static int parse_slurm_option(int argc, char **argv, int *i,
                              struct sweep_args *a) {
  const char *arg = argv[*i], *v;
  const char *name = is(arg, "--time", "--time") ? "--time"
                     : is(arg, "--mem", "--mem") ? "--mem"
                                                 : "--points-per-task";
  long minutes;
  if (!a->slurm_only)
    a->slurm_only = name;
  if (!(v = value(argc, argv, i, name)))
    return usage_error("%s: missing value", name);
  if (strcmp(name, "--time") == 0) {
    if (ft_slurm_parse_time(v, &minutes))
      return usage_error("--time: expected a Slurm time limit (MINUTES, "
                         "MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, "
                         "DAYS-HOURS:MINUTES or DAYS-HOURS:MINUTES:SECONDS), "
                         "not zero, got '%s'",
                         v);
    a->slurm_opts.time = v;
  } else if (strcmp(name, "--mem") == 0) {
    if (ft_slurm_parse_mem(v))
      return usage_error("--mem: expected a Slurm memory size (an integer "
                         "> 0 with an optional K, M, G or T suffix; "
                         "megabytes without one), got '%s'",
                         v);
    a->slurm_opts.mem = v;
  } else if (ft_parse_int(v, 1, FT_SWEEP_MAX_POINTS, &a->slurm_opts.per_task)) {
    return usage_error("--points-per-task: expected an integer from 1 to "
                       "%d, got '%s'",
                       FT_SWEEP_MAX_POINTS, v);
  }
  return 0;
}

static int parse_option(int argc, char **argv, int *i, struct sweep_args *a) {
  const char *arg = argv[*i], *v;
  if (is(arg, "-h", "--help"))
    a->help = true;
  else if (is(arg, "--dry-run", "--dry-run"))
    a->dry_run = true;
  else if (is(arg, "-j", "--jobs")) {
    if (!(v = value(argc, argv, i, "--jobs")) ||
        ft_parse_int(v, 1, 4096, &a->jobs))
      return usage_error("--jobs: expected an integer from 1 to 4096, got "
                         "'%s'",
                         v ? v : "");
  } else if (is(arg, "-o", "--output")) {
    if (!(a->output = value(argc, argv, i, "--output")))
      return usage_error("%s: missing value", "--output");
  } else if (is(arg, "--emit-slurm", "--emit-slurm")) {
    if (!(a->slurm = value(argc, argv, i, "--emit-slurm")))
      return usage_error("%s: missing value", "--emit-slurm");
  } else if (is(arg, "--point", "--point")) {
    if (!(v = value(argc, argv, i, "--point")) ||
        parse_range(v, &a->point, &a->point_last))
      return usage_error("--point: expected I or I-J, integers with 0 <= I "
                         "<= J, got '%s'",
                         v ? v : "");
  } else if (is_slurm_option(arg)) {
    return parse_slurm_option(argc, argv, i, a);
  } else {
    return usage_error("unknown option '%s'", arg);
  }
  return 0;
}

static int parse_args(int argc, char **argv, struct sweep_args *a) {
  memset(a, 0, sizeof *a);
  a->point = a->point_last = -1;
  a->slurm_opts.per_task = FT_SLURM_DEFAULT_PER_TASK;
  for (int i = 0; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1]) {
      int rc = parse_option(argc, argv, &i, a);
      if (rc)
        return rc;
    } else if (a->file) {
      return usage_error("one sweep file only, got also '%s'", argv[i]);
    } else {
      a->file = argv[i];
    }
  }
  if (!a->file && !a->help)
    return usage_error("missing the sweep file");
  if (a->slurm_only && !a->slurm)
    return usage_error("%s: only with --emit-slurm", a->slurm_only);
  return 0;
}

/* ./NAME.csv for a sweep file .../NAME.txt */
static void default_output(const char *file, char *out, size_t len) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  const char *dot = strrchr(base, '.');
  int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  snprintf(out, len, "%.*s.csv", n, base);
}

/* Every platform and app of the sweep must exist before anything runs. */
/* `compute measured` needs this machine's speed: said once, before any
 * point runs (each point's ftsim run reads it again). */
static int check_host_speed(const struct ft_sweep *s) {
  const char *mode = s->setting[FT_SET_COMPUTE];
  char source[PATH_LEN], err[PATH_LEN + 256];
  double flops;
  if (!mode || strcmp(mode, "measured") != 0 ||
      ft_host_speed_obtain(0, &flops, source, sizeof source, err, sizeof err) ==
          0)
    return 0;
  fprintf(stderr, "ftsim: %s: field 'compute': %s\n", s->name, err);
  return FT_EXIT_USAGE;
}

/* An app of the sweep: a name or path (ft_paths_app), or @TRACE, a
 * recorded trace that must exist (ftsim run --replay reads it). */
static int check_app(const struct ft_dirs *dirs, const char *app, char *path,
                     size_t len, char *err, size_t errlen) {
  size_t n = strlen(FT_SWEEP_REPLAY);
  if (strncmp(app, FT_SWEEP_REPLAY, n) != 0)
    return ft_paths_app(dirs, app, false, path, len, err, errlen);
  if (app[n] && access(app + n, R_OK) == 0)
    return 0;
  snprintf(err, errlen, "%s: no trace '%s'", app, app + n);
  return -1;
}

static int check_names(const struct ft_sweep *s) {
  struct ft_dirs dirs;
  char path[PATH_LEN], err[1024];
  ft_dirs_get(&dirs);
  for (size_t i = 0; i < s->axis[FT_AXIS_PLATFORM].count; i++)
    if (ft_paths_platform(&dirs, s->axis[FT_AXIS_PLATFORM].items[i], path,
                          sizeof path, err, sizeof err) ||
        ft_machine_check_props(path, err, sizeof err)) {
      fprintf(stderr, "ftsim: %s:%d: field 'platforms': %s\n", s->name,
              s->axis_line[FT_AXIS_PLATFORM], err);
      return FT_EXIT_USAGE;
    }
  for (size_t i = 0; i < s->axis[FT_AXIS_APP].count; i++)
    if (check_app(&dirs, s->axis[FT_AXIS_APP].items[i], path, sizeof path, err,
                  sizeof err)) {
      fprintf(stderr, "ftsim: %s:%d: field 'apps': %s\n", s->name,
              s->axis_line[FT_AXIS_APP], err);
      return FT_EXIT_USAGE;
    }
  return check_host_speed(s);
}

/* --dry-run: one line per point, streamed (nothing kept per point). */
struct printer {
  const struct ft_sweep *s;
  const struct ft_sweep_csv *csv;
  size_t index, done;
};

static void print_point(void *ctx, const struct ft_point *p) {
  struct printer *pr = ctx;
  struct ft_strv args = FT_STRV_INIT;
  bool d = ft_sweep_csv_done(pr->csv, p);
  pr->done += d;
  ft_point_run_args(pr->s, p, ft_point_has_failures(p) ? "SCENARIO" : NULL,
                    &args);
  printf("%zu %s ftsim run", pr->index++, d ? "done" : "todo");
  for (size_t k = 0; k < args.count; k++)
    printf(" %s", args.items[k]);
  if (ft_point_has_failures(p))
    printf("   # %s%s seed %s", p->param[FT_COL_TRACE][0] ? "trace " : "mtbf ",
           p->param[FT_COL_TRACE][0] ? p->param[FT_COL_TRACE]
                                     : p->param[FT_COL_MTBF],
           p->param[FT_COL_SEED]);
  putchar('\n');
  ft_strv_free(&args);
}

static void print_points(const struct ft_sweep *s,
                         const struct ft_sweep_csv *csv) {
  struct printer pr = {s, csv, 0, 0};
  ft_points_each(s, print_point, &pr);
  printf("# %zu points, %zu done, %zu to run\n", pr.index, pr.done,
         pr.index - pr.done);
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 && n < 4096 ? (int)n : 1;
}

/* Longest-looking first (ft_point_cmp_cost), then in grid order. */
static int by_cost(const void *pa, const void *pb) {
  const struct ft_point *a = *(const struct ft_point *const *)pa;
  const struct ft_point *b = *(const struct ft_point *const *)pb;
  int c = ft_point_cmp_cost(a, b);
  return c ? c : (a < b ? -1 : a > b);
}

/* The number of points of --point I-J that the sweep has. */
static size_t in_range(const struct sweep_args *a, size_t npoints) {
  size_t last =
      (size_t)a->point_last < npoints ? (size_t)a->point_last : npoints - 1;
  return last - (size_t)a->point + 1;
}

/* Runs the points without a row (or only --point), the longest-looking
 * first, so that the last to end are short ones and the cores stay busy. */
static int run_points(const struct sweep_args *a, const struct ft_sweep *s,
                      const struct ft_points *pts, struct ft_sweep_csv *csv,
                      const char *workdir) {
  const struct ft_point **todo =
      ft_xrealloc(NULL, (pts->count + 1) * sizeof *todo);
  size_t ntodo = 0;
  for (size_t i = 0; i < pts->count; i++)
    if ((a->point < 0 ||
         (i >= (size_t)a->point && i <= (size_t)a->point_last)) &&
        !ft_sweep_csv_done(csv, &pts->items[i]))
      todo[ntodo++] = &pts->items[i];
  if (ntodo > 1)
    qsort(todo, ntodo, sizeof *todo, by_cost);
  size_t total = a->point >= 0 ? in_range(a, pts->count) : pts->count;
  struct ft_sweep_job job = {
      .sweep = s,
      .todo = todo,
      .ntodo = ntodo,
      .total = total,
      .already = total - ntodo,
      .jobs = a->jobs ? a->jobs : cores(),
      .timeout = atof(ft_sweep_get(s, FT_SET_TIMEOUT, "600")),
      .workdir = workdir,
      .csv = csv,
  };
  int rc = ft_sweep_run(&job);
  free(todo);
  return rc;
}

/* --emit-slurm: the array lists only the tasks with a point without a
 * row in the CSV. */
static int emit_slurm(const struct sweep_args *a, const struct ft_sweep *s,
                      const struct ft_sweep_csv *csv, const char *workdir) {
  struct ft_points pts = {0};
  struct ft_slurm_opts o = a->slurm_opts;
  ft_points_expand(s, &pts);
  size_t k = (size_t)o.per_task, ntasks = (pts.count + k - 1) / k;
  bool *todo = ft_xrealloc(NULL, (ntasks + 1) * sizeof *todo);
  memset(todo, 0, (ntasks + 1) * sizeof *todo);
  struct ft_slurm_tasks tasks = {.npoints = pts.count, .todo = todo};
  for (size_t i = 0; i < pts.count; i++)
    if (!ft_sweep_csv_done(csv, &pts.items[i]))
      todo[i / k] = true, tasks.missing++;
  o.timeout = atof(ft_sweep_get(s, FT_SET_TIMEOUT, "600"));
  int rc =
      ft_sweep_emit_slurm(a->slurm, a->file, csv->path, workdir, &tasks, &o);
  free(todo);
  ft_points_free(&pts);
  return rc;
}

static int sweep(const struct sweep_args *a) {
  struct ft_sweep s;
  struct ft_points pts = {0};
  struct ft_sweep_csv csv = {.fd = -1};
  char err[2048], output[PATH_LEN], workdir[PATH_LEN + 8];
  if (ft_sweep_load(a->file, &s, err, sizeof err)) {
    fprintf(stderr, "ftsim: %s\n", err);
    return FT_EXIT_USAGE;
  }
  int rc = check_names(&s);
  size_t npoints = ft_sweep_points_count(&s);
  if (a->output)
    snprintf(output, sizeof output, "%s", a->output);
  else
    default_output(a->file, output, sizeof output);
  snprintf(workdir, sizeof workdir, "%s.d", output);
  if (!rc && a->point >= 0 && (size_t)a->point >= npoints)
    rc = usage_error("--point: the sweep has %zu points (0 to %zu)", npoints,
                     npoints - 1);
  /* --dry-run writes nothing: a CSV it created would name the dry run as
   * the command in its provenance. */
  if (!rc && a->dry_run && access(output, F_OK) != 0)
    print_points(&s, &csv);
  else if (!rc && ft_sweep_csv_open(&csv, output, &a->prov, err, sizeof err))
    rc = say(FT_EXIT_USAGE, "%s", err);
  else if (!rc && a->slurm)
    rc = emit_slurm(a, &s, &csv, workdir);
  else if (!rc && a->dry_run)
    print_points(&s, &csv);
  else if (!rc && mkdir(workdir, 0755) != 0 && errno != EEXIST)
    rc = say(FT_EXIT_FAILED, "cannot create %s: %s", workdir, strerror(errno));
  else if (!rc) {
    ft_points_expand(&s, &pts);
    rc = run_points(a, &s, &pts, &csv, workdir);
  }
  ft_sweep_csv_close(&csv);
  ft_points_free(&pts);
  ft_sweep_free(&s);
  return rc;
}

int ft_sweep_main(int argc, char **argv) {
  struct sweep_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc)
    return rc;
  ft_provenance_here(&a.prov, "sweep", a.file, argc, argv);
  if (a.help) {
    ft_sweep_usage(stdout);
    return FT_EXIT_OK;
  }
  return sweep(&a);
}
