/* `ftsim timeline` (see timeline.h): the arguments, the gnuplot data and
 * script, running gnuplot. Every text of the trace that reaches the script
 * (protocol, app) is a single-quoted gnuplot string (ft_plot_gp_string). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outcome.h"
#include "plot.h"
#include "strv.h"
#include "timeline.h"

#define PATH_LEN 4096
/* The picture: width in pixels, and the plot area's pixel columns (the
 * cap on what a row draws: timeline.h). */
#define WIDTH 1600
#define COLUMNS 1400

void ft_timeline_usage(FILE *out) {
  fprintf(
      out,
      "Usage: ftsim timeline [-o FILE.png|FILE.svg] [--from T] [--to T]\n"
      "                      [--ranks A-B] TRACE\n"
      "\n"
      "Draws one traced run (ftsim run --trace TRACE) with gnuplot: a row\n"
      "per rank (the service rank that wrote TRACE.N too), simulated time\n"
      "on x. Boxes: computation (compute records), blocking communication\n"
      "(block), image transfers (image, thin, above the row), a failed\n"
      "rank down (pale red, from its failure to its replacement's start).\n"
      "Marks: sends, receives, checkpoints (capture), waves committed\n"
      "(a dashed line across the rows), failures (red), rollbacks,\n"
      "restarts; a grey line from sender to receiver for every message\n"
      "when at most %d messages show, else none. Capped for large runs:\n"
      "each of the %d pixel columns of a row's computation and\n"
      "communication lanes is shaded by the share of its time the rank\n"
      "spent in that state (4 shades; none: blank), and holds at most one\n"
      "send and one receive mark.\n"
      "\n"
      "  -o FILE     the picture, .png or .svg (default TRACE-timeline.png);\n"
      "              FILE's directory must exist; FILE without its\n"
      "              extension, then .dat and .gp: the gnuplot data and\n"
      "              script, kept\n"
      "  --from T, --to T  simulated seconds shown (default: 0 to the\n"
      "              last record)\n"
      "  --ranks A-B rows A to B (or A alone; default: all)\n"
      "\n"
      "Exit status: 0 the picture is written, 1 gnuplot failed, 2 bad\n"
      "usage or a missing or malformed trace (FILE:LINE: field 'F': ...),\n"
      "nothing drawn.\n",
      FT_TL_MAX_LINES, COLUMNS);
}

struct args {
  const char *trace, *out;
  double from, to; /* -1: not given */
  int lo, hi;      /* -1: not given */
  char picture[PATH_LEN];
};

static int seconds(const char *opt, const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0) || !isfinite(v)) {
    fprintf(stderr, "ftsim timeline: %s: expected seconds >= 0, got '%s'\n",
            opt, s);
    return -1;
  }
  *out = v;
  return 0;
}

static int rank_range(const char *s, int *lo, int *hi) {
  char *end = NULL;
  long a = -1, b = -1;
  if (*s >= '0' && *s <= '9') {
    a = b = strtol(s, &end, 10);
    if (*end == '-' && end[1] >= '0' && end[1] <= '9')
      b = strtol(end + 1, &end, 10);
  }
  if (!end || *end || b < a || b > 1 << 20) {
    fprintf(stderr,
            "ftsim timeline: --ranks: expected A-B or A (0 <= A <= B), got "
            "'%s'\n",
            s);
    return -1;
  }
  *lo = (int)a;
  *hi = (int)b;
  return 0;
}

static const char *extension(const char *path) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  return dot && (!slash || dot > slash) ? dot : "";
}

/* -o's directory must exist, and the picture be .png or .svg. */
static int check_output(const char *path) {
  const char *ext = extension(path);
  if (strcmp(ext, ".png") != 0 && strcmp(ext, ".svg") != 0) {
    fprintf(stderr,
            "ftsim timeline: -o %s: expected a .png or .svg file name\n", path);
    return -1;
  }
  char dir[PATH_LEN];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
           slash ? path : ".");
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "ftsim timeline: -o %s: directory %s does not exist\n",
            path, dir);
    return -1;
  }
  return 0;
}

/* Returns 0, or FT_EXIT_USAGE (the usage or the error printed). */
static int parse(int argc, char **argv, struct args *a) {
  *a = (struct args){.from = -1, .to = -1, .lo = -1, .hi = -1};
  for (int i = 0; i < argc; i++) {
    const char *o = argv[i];
    int has = i + 1 < argc;
    if (!strcmp(o, "-o") && has)
      a->out = argv[++i];
    else if (!strcmp(o, "--from") && has) {
      if (seconds(o, argv[++i], &a->from))
        return FT_EXIT_USAGE;
    } else if (!strcmp(o, "--to") && has) {
      if (seconds(o, argv[++i], &a->to))
        return FT_EXIT_USAGE;
    } else if (!strcmp(o, "--ranks") && has) {
      if (rank_range(argv[++i], &a->lo, &a->hi))
        return FT_EXIT_USAGE;
    } else if (o[0] == '-' || a->trace) {
      fprintf(stderr, "ftsim timeline: unexpected argument '%s'\n", o);
      ft_timeline_usage(stderr);
      return FT_EXIT_USAGE;
    } else
      a->trace = o;
  }
  if (!a->trace) {
    ft_timeline_usage(stderr);
    return FT_EXIT_USAGE;
  }
  if (a->from >= 0 && a->to >= 0 && a->to <= a->from) {
    fprintf(stderr, "ftsim timeline: --to %g is not after --from %g\n", a->to,
            a->from);
    return FT_EXIT_USAGE;
  }
  if (a->out)
    snprintf(a->picture, sizeof a->picture, "%s", a->out);
  else
    snprintf(a->picture, sizeof a->picture, "%s-timeline.png", a->trace);
  return check_output(a->picture) ? FT_EXIT_USAGE : 0;
}

/* The view from the arguments and the trace; FT_EXIT_USAGE when they
 * disagree (ranks beyond the trace's, a window after its end). */
static int view_of(const struct args *a, const struct ft_timeline *tl,
                   struct ft_tl_view *v) {
  *v = (struct ft_tl_view){.from = a->from >= 0 ? a->from : 0,
                           .to = a->to >= 0 ? a->to : tl->last,
                           .lo = a->lo >= 0 ? a->lo : 0,
                           .hi = a->hi >= 0 ? a->hi : tl->rows - 1,
                           .columns = COLUMNS,
                           .lines = FT_TL_MAX_LINES};
  if (v->hi >= tl->rows) {
    fprintf(stderr,
            "ftsim timeline: --ranks %d-%d: the trace has rows 0 to %d\n",
            v->lo, v->hi, tl->rows - 1);
    return FT_EXIT_USAGE;
  }
  if (!(v->to > v->from)) {
    fprintf(stderr,
            "ftsim timeline: nothing to show from %.9g s to %.9g s (the "
            "trace's last record is at %.9g s)\n",
            v->from, v->to, tl->last);
    return FT_EXIT_USAGE;
  }
  return 0;
}

/* ---- the data file: one block per element drawn (gnuplot `index`), each
 * opened by "# NAME: COLUMNS"; an empty element has no block. */

static const char *const box_names[FT_TL_BOXES] = {
    [FT_TL_COMPUTE] = "computation",
    [FT_TL_BLOCK] = "blocking communication",
    [FT_TL_IMAGE] = "image transfer",
    [FT_TL_DOWN] = "down (failure to restart)"};
static const char *const box_colours[FT_TL_BOXES] = {
    [FT_TL_COMPUTE] = "#4daf4a",
    [FT_TL_BLOCK] = "#377eb8",
    [FT_TL_IMAGE] = "#984ea3",
    [FT_TL_DOWN] = "#fb9a99",
};

/* A box's colour as 0xRRGGBB: its kind's, paler for a lower level (1 of
 * FT_TL_LEVELS: a quarter of the way from white). */
static long box_rgb(int kind, int level) {
  long base = strtol(box_colours[kind] + 1, NULL, 16), rgb = 0;
  if (level <= 0 || level >= FT_TL_LEVELS)
    return base;
  for (int shift = 16; shift >= 0; shift -= 8) {
    long c = (base >> shift) & 0xff;
    rgb |= (255 - (255 - c) * level / FT_TL_LEVELS) << shift;
  }
  return rgb;
}
static const char *const mark_names[FT_TL_MARKS] = {
    [FT_TL_SEND] = "send",
    [FT_TL_DELIVER] = "receive",
    [FT_TL_CKPT] = "checkpoint (capture)",
    [FT_TL_COMMIT] = "wave committed",
    [FT_TL_FAIL] = "failure",
    [FT_TL_ROLLBACK] = "rollback",
    [FT_TL_RESTART] = "restart"};
/* gnuplot point type, size and colour of each mark. */
static const struct {
  int type;
  double size;
  const char *colour;
} mark_style[FT_TL_MARKS] = {[FT_TL_SEND] = {9, 0.5, "#ff7f00"},
                             [FT_TL_DELIVER] = {11, 0.5, "#a6761d"},
                             [FT_TL_CKPT] = {5, 0.9, "#000000"},
                             [FT_TL_COMMIT] = {7, 1.2, "#000000"},
                             [FT_TL_FAIL] = {2, 2.5, "#e41a1c"},
                             [FT_TL_ROLLBACK] = {4, 1.6, "#f781bf"},
                             [FT_TL_RESTART] = {12, 1.6, "#f781bf"}};

struct blocks {
  int box[FT_TL_BOXES], mark[FT_TL_MARKS], lines; /* index, or -1 */
  int n;
};

static void box_block(FILE *out, const struct ft_tl_drawn *d, int kind,
                      struct blocks *b) {
  b->box[kind] = -1;
  for (size_t i = 0; i < d->n_boxes; i++) {
    const struct ft_tl_span *s = &d->boxes[i];
    if (s->kind != kind)
      continue;
    if (b->box[kind] < 0) {
      b->box[kind] = b->n++;
      fprintf(out, "# %s: start end row level colour\n", box_names[kind]);
    }
    fprintf(out, "%.9f %.9f %d %d %ld\n", s->start, s->end, s->row, s->level,
            box_rgb(kind, s->level));
  }
  if (b->box[kind] >= 0)
    fputs("\n\n", out);
}

static void mark_block(FILE *out, const struct ft_tl_drawn *d, int kind,
                       struct blocks *b) {
  b->mark[kind] = -1;
  for (size_t i = 0; i < d->n_points; i++) {
    const struct ft_tl_point *p = &d->points[i];
    if (p->kind != kind)
      continue;
    if (b->mark[kind] < 0) {
      b->mark[kind] = b->n++;
      fprintf(out, "# %s: time row wave\n", mark_names[kind]);
    }
    fprintf(out, "%.9f %d %d\n", p->time, p->row, p->value);
  }
  if (b->mark[kind] >= 0)
    fputs("\n\n", out);
}

static void line_block(FILE *out, const struct ft_tl_drawn *d,
                       struct blocks *b) {
  b->lines = -1;
  if (d->n_lines == 0)
    return;
  b->lines = b->n++;
  fputs("# message: sent from delivered to\n", out);
  for (size_t i = 0; i < d->n_lines; i++)
    fprintf(out, "%.9f %d %.9f %d\n", d->lines[i].sent, d->lines[i].src,
            d->lines[i].delivered, d->lines[i].dst);
  fputs("\n\n", out);
}

static int write_data(const char *path, const struct ft_tl_drawn *d,
                      const struct ft_tl_view *v, struct blocks *b) {
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  fprintf(out, "# ftsim timeline: %.9f to %.9f s, rows %d to %d\n", v->from,
          v->to, v->lo, v->hi);
  fprintf(out, "# messages in the view: %zu (lines drawn when at most %zu)\n\n",
          d->lines_in_view, v->lines);
  b->n = 0;
  for (int k = 0; k < FT_TL_BOXES; k++)
    box_block(out, d, k, b);
  line_block(out, d, b);
  for (int k = 0; k < FT_TL_MARKS; k++)
    mark_block(out, d, k, b);
  return fclose(out);
}

/* ---- the script */

static void title(FILE *out, const struct ft_timeline *tl) {
  char t[400];
  int n = snprintf(t, sizeof t, "ftsim timeline: protocol %s, app %s, %d ranks",
                   tl->protocol, tl->app[0] ? tl->app : "(unknown)", tl->ranks);
  if (tl->rows > tl->ranks && n > 0 && (size_t)n < sizeof t)
    n += snprintf(t + n, sizeof t - (size_t)n, " + service rank %d", tl->ranks);
  if (n > 0 && (size_t)n < sizeof t)
    snprintf(t + n, sizeof t - (size_t)n, ", run %016llx",
             (unsigned long long)tl->run);
  fputs("set title ", out);
  ft_plot_gp_string(out, t);
  fputc('\n', out);
}

static void row_tics(FILE *out, const struct ft_timeline *tl,
                     const struct ft_tl_view *v) {
  int step = (v->hi - v->lo) / 64 + 1; /* at most about 64 labels */
  fputs("set ytics (", out);
  for (int r = v->lo; r <= v->hi; r += step) {
    char label[48];
    snprintf(label, sizeof label, "%s %d", r < tl->ranks ? "rank" : "service",
             r);
    fprintf(out, "%s", r > v->lo ? ", " : "");
    ft_plot_gp_string(out, label);
    fprintf(out, " %d", r);
  }
  fputs(")\n", out);
}

/* One plot clause: the data file, its index, `spec` (using, with...),
 * its colour ("variable": the data's) and title (NULL: none). */
static void clause(FILE *out, const char *data, int index, int *first,
                   const char *spec, const char *colour, const char *name) {
  fputs(*first ? "plot " : ", \\\n     ", out);
  *first = 0;
  ft_plot_gp_string(out, data);
  fprintf(out, " index %d %s lc rgb ", index, spec);
  if (!strcmp(colour, "variable"))
    fputs(colour, out);
  else
    ft_plot_gp_string(out, colour);
  if (!name) {
    fputs(" notitle", out);
    return;
  }
  fputs(" title ", out);
  ft_plot_gp_string(out, name);
}

static void plot_clauses(FILE *out, const char *data, const struct blocks *b,
                         const struct ft_tl_view *v, int ranks) {
  int first = 1;
  char spec[200];
  /* The row's lanes (y grows downwards): image thin on top, computation
   * above the row's line, blocking communication below it; down over
   * both. Each box's colour is its own (column 5); the legend's sample is
   * a clause without data. */
  static const double lane_y[FT_TL_BOXES] = {-0.15, 0.15, -0.38, 0};
  static const double lane_dy[FT_TL_BOXES] = {0.15, 0.15, 0.05, 0.42};
  for (int k = 0; k < FT_TL_BOXES; k++) {
    if (b->box[k] < 0)
      continue;
    snprintf(spec, sizeof spec,
             "using (($1+$2)/2):($3%+g):(($2-$1)/2):(%g):5 with boxxyerror "
             "fs solid 1.0 noborder",
             lane_y[k], lane_dy[k]);
    clause(out, data, b->box[k], &first, spec, "variable", NULL);
    fputs(", \\\n     NaN with boxes fs solid 1.0 noborder lc rgb ", out);
    ft_plot_gp_string(out, box_colours[k]);
    fputs(" title ", out);
    ft_plot_gp_string(out, box_names[k]);
  }
  if (b->lines >= 0)
    clause(out, data, b->lines, &first,
           "using 1:2:($3-$1):($4-$2) with vectors nohead lw 0.5", "#999999",
           "message (sender to receiver)");
  for (int k = 0; k < FT_TL_MARKS; k++) {
    if (b->mark[k] < 0)
      continue;
    if (k == FT_TL_COMMIT) {
      /* A commit of the whole run (written by the service rank: pcl's,
       * vcl's scheduler) is a line across the rows; message logging's
       * (each rank its own) only its mark. */
      snprintf(spec, sizeof spec,
               "using 1:(%g):(0):($2 >= %d ? %g : NaN) with vectors nohead "
               "dt 2 lw 1.5",
               v->hi + 0.5, ranks, -(v->hi - v->lo + 1.0));
      clause(out, data, b->mark[k], &first, spec, "#000000",
             "wave committed (across the rows)");
    }
    snprintf(spec, sizeof spec, "using 1:2 with points pt %d ps %g",
             mark_style[k].type, mark_style[k].size);
    clause(out, data, b->mark[k], &first, spec, mark_style[k].colour,
           mark_names[k]);
  }
  if (first) /* nothing at all to draw: an empty frame */
    fputs("plot NaN notitle", out);
  fputc('\n', out);
}

static int write_script(const char *path, const char *data, const char *picture,
                        const struct ft_timeline *tl,
                        const struct ft_tl_view *v, const struct blocks *b) {
  FILE *out = fopen(path, "w");
  if (!out)
    return -1;
  int rows = v->hi - v->lo + 1;
  int height = 160 + (rows < 8 ? 8 : rows > 64 ? 64 : rows) * 28;
  fprintf(out, "# ftsim timeline: the script behind the picture\n");
  if (!strcmp(extension(picture), ".svg"))
    fprintf(out, "set terminal svg noenhanced size %d,%d font 'sans,10'\n",
            WIDTH, height);
  else
    fprintf(out, "set terminal pngcairo noenhanced size %d,%d font 'sans,9'\n",
            WIDTH, height);
  fputs("set output ", out);
  ft_plot_gp_string(out, picture);
  fputc('\n', out);
  title(out, tl);
  fprintf(out,
          "set xlabel 'simulated time (s)'\n"
          "set xrange [%.9f:%.9f]\n"
          "set yrange [%g:%g]\n"
          "set key outside right top\n"
          "set grid xtics\n",
          v->from, v->to, v->hi + 0.6, v->lo - 0.6);
  row_tics(out, tl, v);
  plot_clauses(out, data, b, v, tl->ranks);
  fputs("unset output\n", out);
  return fclose(out);
}

/* FILE.png's stem + suffix, or its name alone (base 1). */
static void sibling(const char *picture, const char *suffix, int base,
                    char *out, size_t len) {
  const char *slash = strrchr(picture, '/');
  const char *from = base && slash ? slash + 1 : picture;
  size_t stem = strlen(from) - strlen(extension(picture));
  snprintf(out, len, "%.*s%s", (int)stem, from, suffix);
}

static int draw(const struct args *a, const struct ft_timeline *tl,
                const struct ft_tl_view *v, const struct ft_tl_drawn *d) {
  char data[PATH_LEN + 8], script[PATH_LEN + 8], dir[PATH_LEN];
  char data_name[PATH_LEN], script_name[PATH_LEN], picture_name[PATH_LEN];
  char err[PATH_LEN + 200];
  struct blocks b;
  sibling(a->picture, ".dat", 0, data, sizeof data);
  sibling(a->picture, ".gp", 0, script, sizeof script);
  sibling(a->picture, ".dat", 1, data_name, sizeof data_name);
  sibling(a->picture, ".gp", 1, script_name, sizeof script_name);
  const char *slash = strrchr(a->picture, '/');
  snprintf(picture_name, sizeof picture_name, "%s",
           slash ? slash + 1 : a->picture);
  snprintf(dir, sizeof dir, "%.*s",
           slash ? (int)(slash - a->picture) + (slash == a->picture) : 1,
           slash ? a->picture : ".");
  if (write_data(data, d, v, &b) ||
      write_script(script, data_name, picture_name, tl, v, &b)) {
    fprintf(stderr, "ftsim timeline: cannot write %s: %s\n", script,
            strerror(errno));
    return FT_EXIT_FAILED;
  }
  if (ft_plot_gnuplot(dir, script_name, err, sizeof err)) {
    fprintf(stderr, "ftsim timeline: %s\n", err);
    return FT_EXIT_FAILED;
  }
  return FT_EXIT_OK;
}

static void report(const struct args *a, const struct ft_tl_view *v,
                   const struct ft_tl_drawn *d) {
  fprintf(stderr,
          "ftsim timeline: %s (rows %d to %d, %.9g to %.9g s: %zu boxes, %zu "
          "marks, %zu message%s in view%s)\n",
          a->picture, v->lo, v->hi, v->from, v->to, d->n_boxes, d->n_points,
          d->lines_in_view, d->lines_in_view == 1 ? "" : "s",
          d->n_lines         ? ", each a line"
          : d->lines_in_view ? ", too many for lines"
                             : "");
}

int ft_timeline_main(int argc, char **argv) {
  if (argc == 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
    ft_timeline_usage(stdout);
    return FT_EXIT_OK;
  }
  struct args a;
  int rc = parse(argc, argv, &a);
  if (rc)
    return rc;
  struct ft_timeline tl;
  char err[1200], note[700];
  if (ft_timeline_load(a.trace, &tl, err, sizeof err, note, sizeof note)) {
    fprintf(stderr, "ftsim timeline: %s\n", err);
    ft_timeline_free(&tl);
    return FT_EXIT_USAGE;
  }
  if (note[0])
    fprintf(stderr, "ftsim timeline: note: %s\n", note);
  struct ft_tl_view v;
  struct ft_tl_drawn d;
  rc = view_of(&a, &tl, &v);
  if (rc == 0 && ft_timeline_draw(&tl, &v, &d)) {
    fprintf(stderr, "ftsim timeline: out of memory\n");
    rc = FT_EXIT_FAILED;
  } else if (rc == 0) {
    rc = draw(&a, &tl, &v, &d);
    if (rc == 0)
      report(&a, &v, &d);
    ft_timeline_drawn_free(&d);
  }
  ft_timeline_free(&tl);
  return rc;
}
