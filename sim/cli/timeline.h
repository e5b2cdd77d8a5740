/* `ftsim timeline TRACE -o FILE.png`: a picture of one traced run, per rank
 * over simulated time (as Paje and Vampir draw SimGrid's traces): its
 * computation and blocking communication, sends and receives, checkpoint
 * waves, image transfers, failures, rollbacks and restarts, drawn by
 * gnuplot.
 *
 * Three parts: the model (timeline_model.c) takes the records of the
 * trace's files from the checker's reader (ft_trace_read, trace_check.h:
 * one home for trace reading); the drawing's elements (timeline_spans.c,
 * pure) cap what is drawn per pixel column; the writer (timeline_write.c)
 * writes the gnuplot data and script and runs gnuplot. */
#ifndef FT_CLI_TIMELINE_H
#define FT_CLI_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_check.h"

/* Box kinds of a row's main lane, then its own lanes. */
enum ft_tl_box {
  FT_TL_COMPUTE, /* compute records (ft_compute) */
  FT_TL_BLOCK,   /* block records: a blocking communication */
  FT_TL_IMAGE,   /* image records: the image on its way to its server */
  FT_TL_DOWN,    /* fail records: from the failure to the replacement */
  FT_TL_BOXES
};

/* Point kinds. */
enum ft_tl_mark {
  FT_TL_SEND,     /* send, resend */
  FT_TL_DELIVER,  /* deliver */
  FT_TL_CKPT,     /* ckpt: the rank's checkpoint (capture) of a wave */
  FT_TL_COMMIT,   /* commit: a wave committed */
  FT_TL_FAIL,     /* fail: on the victim's row */
  FT_TL_ROLLBACK, /* rollback */
  FT_TL_RESTART,  /* restart (message logging: the rank alone) */
  FT_TL_MARKS
};

struct ft_tl_span {
  int row, kind;
  double start, end;
  int level; /* a drawn compute or block box: its share of the time, 1
                (at most a quarter) to 4 (more than three quarters); 0
                otherwise */
};

/* Shades of a drawn compute or block box (FT_TL_LEVELS: whole). */
#define FT_TL_LEVELS 4

struct ft_tl_point {
  int row, kind;
  double time;
  int value; /* ckpt, commit, rollback: the wave */
};

/* A message's two ends, matched by its id (INC COMM CH sender receiver TAG
 * SEQ). */
struct ft_tl_end {
  uint64_t key[4]; /* the id, packed */
  int row;
  double time;
};

struct ft_tl_line {
  int src, dst;
  double sent, delivered;
};

struct ft_timeline {
  int ranks; /* application ranks (the headers' N) */
  int rows;  /* ranks, + 1 when the service rank N wrote a file */
  char protocol[32];
  char app[72]; /* "# app NAME", or "" */
  uint64_t run;
  int seen;           /* a record was read */
  double first, last; /* the times of the records read */
  struct ft_tl_span *spans;
  size_t n_spans, cap_spans;
  struct ft_tl_point *points;
  size_t n_points, cap_points;
  struct ft_tl_end *sends, *dels;
  size_t n_sends, cap_sends, n_dels, cap_dels;
  size_t waves;                    /* commit records */
  struct ft_trace_visitor visitor; /* ft_timeline_visitor's */
};

/* What the picture shows: [from, to] and rows [lo, hi]. */
struct ft_tl_view {
  double from, to;
  int lo, hi;
  int columns;  /* pixel columns of the plot area */
  size_t lines; /* at most this many message lines (FT_TL_MAX_LINES) */
};

/* Message lines are drawn when at most this many messages have an end in
 * the view (both ranks shown), else only the marks. */
#define FT_TL_MAX_LINES 400

/* ---- the model (timeline_model.c) */

/* Reads the run PREFIX (ft_trace_read) into `tl` (zeroed first). Returns
 * 0; -1 with err set (FILE:LINE: field 'F': ..., or a file missing) on a
 * malformed trace; a truncated one is read and `note` says so ("" none). */
int ft_timeline_load(const char *prefix, struct ft_timeline *tl, char *err,
                     size_t errlen, char *note, size_t notelen);

/* The visitor that ft_timeline_load hands to ft_trace_read, ctx `tl`:
 * for the unit tests, which feed it records by hand. */
const struct ft_trace_visitor *ft_timeline_visitor(struct ft_timeline *tl);

/* Frees what ft_timeline_load (or the visitor) allocated in `tl` and
 * zeroes it; a zeroed timeline is fine. */
void ft_timeline_free(struct ft_timeline *tl);

/* ---- what is drawn (timeline_spans.c, pure) */

/* The boxes of a row's two lanes, computation and blocking communication,
 * capped: each of the view's pixel columns of a lane is shaded by the
 * share of its time the rank spent in that state, in FT_TL_LEVELS steps
 * (none: not drawn; at most a quarter: level 1; ... more than three
 * quarters: level 4); a run of columns of one level is one box, so a row
 * has at most 2 x columns boxes whatever the trace holds. Image and down
 * boxes are few (one per image, per failure): drawn as they are, clipped
 * to the view. */
struct ft_tl_drawn {
  struct ft_tl_span *boxes;
  size_t n_boxes;
  /* Sends and deliveries: at most one mark per row, pixel column and kind
   * (the first); the others (ckpt, commit, fail, rollback, restart): every
   * one in the view. */
  struct ft_tl_point *points;
  size_t n_points;
  struct ft_tl_line *lines; /* NULL (none drawn) when over view.lines */
  size_t n_lines, lines_in_view;
};

/* Builds what `view` shows of `tl`. Returns 0, -1 out of memory. */
int ft_timeline_draw(const struct ft_timeline *tl,
                     const struct ft_tl_view *view, struct ft_tl_drawn *d);

/* Frees what ft_timeline_draw allocated in `d` and zeroes it. */
void ft_timeline_drawn_free(struct ft_tl_drawn *d);

/* The compute and block boxes of one row from its spans (any order) over
 * `columns` columns of [from, to]: appended to *out (n, cap). For the
 * unit tests. Returns 0, -1 out of memory. */
int ft_timeline_row_boxes(const struct ft_tl_span *spans, size_t n, int row,
                          double from, double to, int columns,
                          struct ft_tl_span **out, size_t *n_out,
                          size_t *cap_out);

/* ---- the command (timeline_write.c) */

/* Writes the command's help (options, what is drawn, exit status). */
void ft_timeline_usage(FILE *out);

/* The words after "timeline". Exit status: 0 the picture is written, 1
 * gnuplot failed, 2 bad usage or a malformed trace (nothing drawn). */
int ft_timeline_main(int argc, char **argv);

#endif /* FT_CLI_TIMELINE_H */
