/* What the timeline draws (see timeline.h): main-lane boxes capped per
 * pixel column, marks capped per pixel column, message lines when few.
 * Pure: no I/O. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static void *grow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return p;
  size_t c = *cap ? 2 * *cap : 256;
  void *q = realloc(p, c * size);
  if (q)
    *cap = c;
  return q;
}

static int push_span(struct ft_tl_span **v, size_t *n, size_t *cap,
                     struct ft_tl_span s) {
  struct ft_tl_span *q = grow(*v, cap, *n, sizeof **v);
  if (!q)
    return -1;
  *v = q;
  q[(*n)++] = s;
  return 0;
}

/* The column of time t (clamped to [0, columns - 1]). */
static int column_of(double t, double from, double width, int columns) {
  double c = floor((t - from) / width);
  return c < 0 ? 0 : c >= columns ? columns - 1 : (int)c;
}

/* Adds span s's time to the columns it covers: cover[c * 2 + kind]. */
static void cover_span(const struct ft_tl_span *s, double from, double to,
                       double width, int columns, double *cover) {
  double a = fmax(s->start, from), b = fmin(s->end, to);
  if (!(b > a))
    return;
  int c0 = column_of(a, from, width, columns);
  int c1 = column_of(b, from, width, columns);
  for (int c = c0; c <= c1; c++) {
    double lo = from + c * width, hi = lo + width;
    double part = fmin(b, hi) - fmax(a, lo);
    if (part > 0)
      cover[(size_t)c * 2 + (size_t)s->kind] += part;
  }
}

/* The level of a lane's column covered `part` of `width` seconds: 0
 * (nothing), 1 (at most a quarter) .. FT_TL_LEVELS. */
static int level_of(double part, double width) {
  double share = part / width;
  if (!(share > 0))
    return 0;
  int l = (int)ceil(share * FT_TL_LEVELS - 1e-9);
  return l < 1 ? 1 : l > FT_TL_LEVELS ? FT_TL_LEVELS : l;
}

/* The boxes of lane `kind` from cover[], one per run of a level. */
static int lane_boxes(const double *cover, int kind, int row, double from,
                      double width, int columns, struct ft_tl_span **out,
                      size_t *n_out, size_t *cap_out) {
  for (int c = 0; c < columns;) {
    int level = level_of(cover[(size_t)c * 2 + (size_t)kind], width), e = c + 1;
    while (e < columns &&
           level_of(cover[(size_t)e * 2 + (size_t)kind], width) == level)
      e++;
    struct ft_tl_span box = {row, kind, from + c * width, from + e * width,
                             level};
    if (level > 0 && push_span(out, n_out, cap_out, box))
      return -1;
    c = e;
  }
  return 0;
}

int ft_timeline_row_boxes(const struct ft_tl_span *spans, size_t n, int row,
                          double from, double to, int columns,
                          struct ft_tl_span **out, size_t *n_out,
                          size_t *cap_out) {
  if (columns < 1 || !(to > from))
    return 0;
  double width = (to - from) / columns;
  double *cover = calloc((size_t)columns * 2, sizeof *cover);
  if (!cover)
    return -1;
  for (size_t i = 0; i < n; i++)
    if (spans[i].row == row &&
        (spans[i].kind == FT_TL_COMPUTE || spans[i].kind == FT_TL_BLOCK))
      cover_span(&spans[i], from, to, width, columns, cover);
  int rc = lane_boxes(cover, FT_TL_COMPUTE, row, from, width, columns, out,
                      n_out, cap_out) ||
           lane_boxes(cover, FT_TL_BLOCK, row, from, width, columns, out, n_out,
                      cap_out);
  free(cover);
  return rc ? -1 : 0;
}

static int by_row(const void *a, const void *b) {
  const struct ft_tl_span *x = a, *y = b;
  return (x->row > y->row) - (x->row < y->row);
}

/* The main-lane boxes of every row shown, then the image and down boxes
 * clipped to the view. */
static int boxes(const struct ft_timeline *tl, const struct ft_tl_view *v,
                 struct ft_tl_drawn *d) {
  size_t cap = 0, n = 0;
  struct ft_tl_span *lane = malloc((tl->n_spans + 1) * sizeof *lane);
  if (!lane)
    return -1;
  for (size_t i = 0; i < tl->n_spans; i++) {
    const struct ft_tl_span *s = &tl->spans[i];
    if (s->row < v->lo || s->row > v->hi)
      continue;
    if (s->kind == FT_TL_COMPUTE || s->kind == FT_TL_BLOCK) {
      lane[n++] = *s;
      continue;
    }
    struct ft_tl_span c = {s->row, s->kind, fmax(s->start, v->from),
                           fmin(s->end, v->to), 0};
    if (c.end >= c.start && s->end >= v->from && s->start <= v->to &&
        push_span(&d->boxes, &d->n_boxes, &cap, c)) {
      free(lane);
      return -1;
    }
  }
  qsort(lane, n, sizeof *lane, by_row);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0;) {
    size_t e = i;
    while (e < n && lane[e].row == lane[i].row)
      e++;
    rc = ft_timeline_row_boxes(lane + i, e - i, lane[i].row, v->from, v->to,
                               v->columns, &d->boxes, &d->n_boxes, &cap);
    i = e;
  }
  free(lane);
  return rc;
}

/* Sends and deliveries: the first of each row, column and kind; every
 * other mark in the view. */
static int points(const struct ft_timeline *tl, const struct ft_tl_view *v,
                  struct ft_tl_drawn *d) {
  size_t rows = (size_t)(v->hi - v->lo + 1), cols = (size_t)v->columns;
  unsigned char *seen = calloc(rows * cols * 2, 1);
  d->points = malloc((tl->n_points + 1) * sizeof *d->points);
  if (!seen || !d->points) {
    free(seen);
    return -1;
  }
  double width = (v->to - v->from) / v->columns;
  for (size_t i = 0; i < tl->n_points; i++) {
    const struct ft_tl_point *p = &tl->points[i];
    if (p->row < v->lo || p->row > v->hi || p->time < v->from ||
        p->time > v->to)
      continue;
    if (p->kind == FT_TL_SEND || p->kind == FT_TL_DELIVER) {
      size_t c = (size_t)column_of(p->time, v->from, width, v->columns);
      size_t at = ((size_t)(p->row - v->lo) * cols + c) * 2 +
                  (p->kind == FT_TL_DELIVER);
      if (seen[at])
        continue;
      seen[at] = 1;
    }
    d->points[d->n_points++] = *p;
  }
  free(seen);
  return 0;
}

static int by_key(const void *a, const void *b) {
  const struct ft_tl_end *x = a, *y = b;
  int c = memcmp(x->key, y->key, sizeof x->key);
  if (c)
    return c;
  return (x->time > y->time) - (x->time < y->time);
}

static int key_cmp(const struct ft_tl_end *x, const struct ft_tl_end *y) {
  for (int i = 0; i < 4; i++)
    if (x->key[i] != y->key[i])
      return x->key[i] < y->key[i] ? -1 : 1;
  return 0;
}

static int shown(const struct ft_tl_view *v, const struct ft_tl_line *l) {
  return l->src >= v->lo && l->src <= v->hi && l->dst >= v->lo &&
         l->dst <= v->hi && l->delivered >= v->from && l->sent <= v->to;
}

/* Matches sends and deliveries by message id (the first of each with the
 * same id together, and so on: a resend after a restart carries its
 * message's id); keeps the lines when the view holds at most v->lines. */
static int lines(const struct ft_timeline *tl, const struct ft_tl_view *v,
                 struct ft_tl_drawn *d) {
  size_t ns = tl->n_sends, nd = tl->n_dels;
  struct ft_tl_end *s = malloc((ns + 1) * sizeof *s);
  struct ft_tl_end *r = malloc((nd + 1) * sizeof *r);
  d->lines = malloc((v->lines + 1) * sizeof *d->lines);
  if (!s || !r || !d->lines) {
    free(s);
    free(r);
    return -1;
  }
  if (ns) /* a view with no send has no array at all (NULL) */
    memcpy(s, tl->sends, ns * sizeof *s);
  if (nd)
    memcpy(r, tl->dels, nd * sizeof *r);
  qsort(s, ns, sizeof *s, by_key);
  qsort(r, nd, sizeof *r, by_key);
  for (size_t i = 0, j = 0; i < ns && j < nd;) {
    int c = key_cmp(&s[i], &r[j]);
    if (c) {
      i += c < 0;
      j += c > 0;
      continue;
    }
    struct ft_tl_line l = {s[i].row, r[j].row, s[i].time, r[j].time};
    i++, j++;
    if (!shown(v, &l))
      continue;
    if (d->lines_in_view < v->lines)
      d->lines[d->n_lines++] = l;
    d->lines_in_view++;
  }
  free(s);
  free(r);
  if (d->lines_in_view > v->lines) {
    free(d->lines);
    d->lines = NULL;
    d->n_lines = 0;
  }
  return 0;
}

int ft_timeline_draw(const struct ft_timeline *tl,
                     const struct ft_tl_view *view, struct ft_tl_drawn *d) {
  memset(d, 0, sizeof *d);
  if (boxes(tl, view, d) || points(tl, view, d) || lines(tl, view, d)) {
    ft_timeline_drawn_free(d);
    return -1;
  }
  return 0;
}

void ft_timeline_drawn_free(struct ft_tl_drawn *d) {
  free(d->boxes);
  free(d->points);
  free(d->lines);
  memset(d, 0, sizeof *d);
}
