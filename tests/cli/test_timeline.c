/* Unit tests of ftsim timeline's model and of what it draws
 * (sim/cli/timeline_model.c, timeline_spans.c): the shading of the
 * computation and communication lanes per pixel column, the caps on marks
 * and message lines, and the records the checker's reader hands over. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static struct ft_tl_span *boxes;
static size_t n_boxes, cap_boxes;

static void reset(void) {
  free(boxes);
  boxes = NULL;
  n_boxes = cap_boxes = 0;
}

/* Row 0 over [0, 4) in 4 columns of 1 s. */
static void row0(const struct ft_tl_span *spans, size_t n) {
  reset();
  cr_assert_eq(
      ft_timeline_row_boxes(spans, n, 0, 0, 4, 4, &boxes, &n_boxes, &cap_boxes),
      0);
}

/* A computation over 2.5 columns: two full columns are one box of level 4,
 * the half column a box of level 2; no communication box. */
Test(cli_timeline, row_boxes_shade_by_share) {
  struct ft_tl_span s[] = {{0, FT_TL_COMPUTE, 0, 2.5, 0}};
  row0(s, 1);
  cr_assert_eq(n_boxes, 2);
  cr_assert_eq(boxes[0].kind, FT_TL_COMPUTE);
  cr_assert_float_eq(boxes[0].start, 0, 1e-12);
  cr_assert_float_eq(boxes[0].end, 2, 1e-12);
  cr_assert_eq(boxes[0].level, FT_TL_LEVELS);
  cr_assert_float_eq(boxes[1].start, 2, 1e-12);
  cr_assert_float_eq(boxes[1].end, 3, 1e-12);
  cr_assert_eq(boxes[1].level, 2);
}

/* Many short spans in one column add up; each lane keeps its own share;
 * other rows' spans and spans outside the view are not drawn. */
Test(cli_timeline, row_boxes_sum_short_spans_per_lane) {
  struct ft_tl_span s[] = {
      {0, FT_TL_BLOCK, 1.0, 1.1, 0}, {0, FT_TL_BLOCK, 1.2, 1.3, 0},
      {0, FT_TL_BLOCK, 1.4, 1.5, 0}, {0, FT_TL_COMPUTE, 1.5, 1.6, 0},
      {1, FT_TL_COMPUTE, 0, 4, 0},   {0, FT_TL_COMPUTE, 5, 6, 0},
      {0, FT_TL_IMAGE, 0, 4, 0},
  };
  row0(s, sizeof s / sizeof *s);
  cr_assert_eq(n_boxes, 2);
  cr_assert_eq(boxes[0].kind, FT_TL_COMPUTE);
  cr_assert_eq(boxes[0].level, 1); /* 0.1 of the column */
  cr_assert_float_eq(boxes[0].start, 1, 1e-12);
  cr_assert_eq(boxes[1].kind, FT_TL_BLOCK);
  cr_assert_eq(boxes[1].level, 2); /* 0.3 */
  cr_assert_float_eq(boxes[1].end, 2, 1e-12);
}

/* The cap: a row draws at most one box per column and lane, however many
 * spans it has (100,000 alternating spans over 4 columns: 8 boxes at
 * most). */
Test(cli_timeline, row_boxes_capped_per_column) {
  size_t n = 100000;
  struct ft_tl_span *s = malloc(n * sizeof *s);
  for (size_t i = 0; i < n; i++)
    s[i] = (struct ft_tl_span){0, i % 2 ? FT_TL_BLOCK : FT_TL_COMPUTE,
                               4.0 * (double)i / (double)n,
                               4.0 * ((double)i + 0.5) / (double)n, 0};
  row0(s, n);
  free(s);
  cr_assert_leq(n_boxes, 8);
  cr_assert_geq(n_boxes, 2);
}

/* A timeline by hand: 2 ranks and the service rank. */
static struct ft_timeline hand(void) {
  struct ft_timeline tl = {.ranks = 2, .rows = 3, .last = 10};
  static struct ft_tl_point pts[64];
  size_t n = 0;
  for (int i = 0; i < 20; i++) /* 20 sends of rank 0 in column 0 */
    pts[n++] = (struct ft_tl_point){0, FT_TL_SEND, 0.01 * i, 0};
  pts[n++] = (struct ft_tl_point){1, FT_TL_DELIVER, 0.5, 0};
  pts[n++] = (struct ft_tl_point){0, FT_TL_CKPT, 0.2, 1};
  pts[n++] = (struct ft_tl_point){1, FT_TL_CKPT, 0.3, 1};
  pts[n++] = (struct ft_tl_point){2, FT_TL_COMMIT, 0.4, 1};
  pts[n++] = (struct ft_tl_point){1, FT_TL_FAIL, 5, 0};
  tl.points = pts;
  tl.n_points = n;
  return tl;
}

static struct ft_tl_view all_of(int columns, size_t lines) {
  return (struct ft_tl_view){0, 10, 0, 2, columns, lines};
}

static size_t count(const struct ft_tl_drawn *d, int kind) {
  size_t k = 0;
  for (size_t i = 0; i < d->n_points; i++)
    k += d->points[i].kind == kind;
  return k;
}

/* Sends and receives: one mark per row, column and kind; checkpoints,
 * commits and failures: every one. */
Test(cli_timeline, marks_capped_per_column_but_waves_and_failures) {
  struct ft_timeline tl = hand();
  struct ft_tl_view v = all_of(10, FT_TL_MAX_LINES);
  struct ft_tl_drawn d;
  cr_assert_eq(ft_timeline_draw(&tl, &v, &d), 0);
  cr_assert_eq(count(&d, FT_TL_SEND), 1);
  cr_assert_eq(count(&d, FT_TL_DELIVER), 1);
  cr_assert_eq(count(&d, FT_TL_CKPT), 2);
  cr_assert_eq(count(&d, FT_TL_COMMIT), 1);
  cr_assert_eq(count(&d, FT_TL_FAIL), 1);
  ft_timeline_drawn_free(&d);
  v.columns = 1000; /* 0.01 s columns: every send its own */
  cr_assert_eq(ft_timeline_draw(&tl, &v, &d), 0);
  cr_assert_eq(count(&d, FT_TL_SEND), 20);
  ft_timeline_drawn_free(&d);
}

/* --from, --to, --ranks: what lies outside is not drawn. */
Test(cli_timeline, view_clips_rows_and_time) {
  struct ft_timeline tl = hand();
  struct ft_tl_view v = {0.25, 10, 1, 1, 10, FT_TL_MAX_LINES};
  struct ft_tl_drawn d;
  cr_assert_eq(ft_timeline_draw(&tl, &v, &d), 0);
  cr_assert_eq(count(&d, FT_TL_SEND), 0);
  cr_assert_eq(count(&d, FT_TL_CKPT), 1);
  cr_assert_eq(count(&d, FT_TL_COMMIT), 0);
  cr_assert_eq(count(&d, FT_TL_FAIL), 1);
  ft_timeline_drawn_free(&d);
}

static struct ft_tl_end end_of(int src, int dst, uint64_t seq, int row,
                               double t) {
  return (struct ft_tl_end){
      {0, (uint64_t)src << 32 | (uint32_t)dst, 0, seq}, row, t};
}

/* Messages: each send matched with the delivery of its id; lines when at
 * most view.lines show, none (but the count) beyond. */
Test(cli_timeline, message_lines_only_when_few) {
  struct ft_timeline tl = {.ranks = 2, .rows = 2, .last = 10};
  struct ft_tl_end sends[3] = {end_of(0, 1, 1, 0, 1.0), end_of(0, 1, 2, 0, 2.0),
                               end_of(1, 0, 1, 1, 3.0)};
  struct ft_tl_end dels[3] = {end_of(1, 0, 1, 0, 3.5), end_of(0, 1, 2, 1, 2.5),
                              end_of(0, 1, 1, 1, 1.5)};
  tl.sends = sends;
  tl.dels = dels;
  tl.n_sends = tl.n_dels = 3;
  struct ft_tl_view v = {0, 10, 0, 1, 100, 3};
  struct ft_tl_drawn d;
  cr_assert_eq(ft_timeline_draw(&tl, &v, &d), 0);
  cr_assert_eq(d.lines_in_view, 3);
  cr_assert_eq(d.n_lines, 3);
  int found = 0;
  for (size_t i = 0; i < d.n_lines; i++)
    if (d.lines[i].src == 0 && d.lines[i].dst == 1 && d.lines[i].sent == 2.0 &&
        d.lines[i].delivered == 2.5)
      found = 1;
  cr_assert(found, "message 0->1 #2 sent at 2.0, delivered at 2.5");
  ft_timeline_drawn_free(&d);
  v.lines = 2;
  cr_assert_eq(ft_timeline_draw(&tl, &v, &d), 0);
  cr_assert_eq(d.lines_in_view, 3);
  cr_assert_eq(d.n_lines, 0);
  cr_assert_null(d.lines);
  ft_timeline_drawn_free(&d);
}

/* The model from records as the checker's reader hands them over. */
static struct ft_check_result res;

static int feed(struct ft_timeline *tl, int rank, double time, const char *kind,
                const char *fields) {
  static char buf[256];
  char *tok[16];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", fields);
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w;
       w = strtok_r(NULL, " ", &save))
    tok[n++] = w;
  struct ft_trace_record r = {.file = "t.9",
                              .line = 7,
                              .rank = rank,
                              .time = time,
                              .kind = kind,
                              .field = tok,
                              .n = n};
  const struct ft_trace_visitor *v = ft_timeline_visitor(tl);
  return v->record(v->ctx, &r, &res);
}

Test(cli_timeline, model_from_records) {
  struct ft_timeline tl = {0};
  struct ft_trace_header h = {.rank = 2, .ranks = 2, .protocol = "pcl"};
  const struct ft_trace_visitor *v = ft_timeline_visitor(&tl);
  v->header(v->ctx, "t.2", &h);
  v->comment(v->ctx, "t.2", " app cg");
  cr_assert_eq(tl.rows, 3);
  cr_assert_str_eq(tl.app, "cg");
  cr_assert_eq(feed(&tl, 2, 0.05, "fail", "1 0.061"), 0);
  cr_assert_eq(feed(&tl, 0, 0.01, "compute", "0.004"), 0);
  cr_assert_eq(feed(&tl, 0, 0.02, "image", "1 0.012"), 0);
  cr_assert_eq(feed(&tl, 2, 0.03, "commit", "1 0"), 0);
  cr_assert_eq(feed(&tl, 0, 0.04, "send", "0 p 1 7 1 8"), 0);
  cr_assert_eq(feed(&tl, 0, 0.04, "safe", "3"), 0); /* not drawn */
  cr_assert_eq(tl.waves, 1);
  cr_assert_eq(tl.n_spans, 3);
  cr_assert_eq(tl.spans[0].kind, FT_TL_DOWN);
  cr_assert_eq(tl.spans[0].row, 1);
  cr_assert_float_eq(tl.spans[0].start, 0.05, 1e-12);
  cr_assert_float_eq(tl.spans[0].end, 0.061, 1e-12);
  cr_assert_eq(tl.spans[2].kind, FT_TL_IMAGE);
  cr_assert_float_eq(tl.spans[2].start, 0.012, 1e-12);
  cr_assert_eq(tl.n_sends, 1);
  cr_assert_float_eq(tl.last, 0.05, 1e-12);
  ft_timeline_free(&tl);
}

/* A bad field the timeline reads is named with its file and line. */
Test(cli_timeline, bad_field_names_file_line_field) {
  struct ft_timeline tl = {0};
  struct ft_trace_header h = {.rank = 0, .ranks = 2, .protocol = "pcl"};
  const struct ft_trace_visitor *v = ft_timeline_visitor(&tl);
  v->header(v->ctx, "t.0", &h);
  cr_assert_eq(feed(&tl, 2, 0.05, "fail", "5 0.061"), -1);
  cr_assert(strstr(res.message, "t.9:7: field 'rank'"), "%s", res.message);
  cr_assert_eq(feed(&tl, 0, 0.05, "block", "soon"), -1);
  cr_assert(strstr(res.message, "t.9:7: field 'start'"), "%s", res.message);
  ft_timeline_free(&tl);
}
