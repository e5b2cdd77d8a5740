/* Growable string vector (see strv.h). */
#define _POSIX_C_SOURCE 200809L
#include "strv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ft_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fputs("ftsim: out of memory\n", stderr);
    exit(1);
  }
  return q;
}

char *ft_xstrdup(const char *s) {
  size_t len = strlen(s) + 1;
  return memcpy(ft_xrealloc(NULL, len), s, len);
}

/* Takes ownership of `s` (heap-allocated). */
static void push_owned(struct ft_strv *v, char *s) {
  if (v->count + 2 > v->cap) {
    v->cap = v->cap ? 2 * v->cap : 8;
    v->items = ft_xrealloc(v->items, v->cap * sizeof *v->items);
  }
  v->items[v->count++] = s;
  v->items[v->count] = NULL;
}

void ft_strv_push(struct ft_strv *v, const char *s) {
  push_owned(v, ft_xstrdup(s));
}

void ft_strv_pushn(struct ft_strv *v, const char *s, size_t len) {
  char *copy = ft_xrealloc(NULL, len + 1);
  memcpy(copy, s, len);
  copy[len] = '\0';
  push_owned(v, copy);
}

void ft_strv_pushf(struct ft_strv *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = ft_xrealloc(NULL, n > 0 ? (size_t)n + 1 : 1);
  va_start(ap, fmt);
  vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
  va_end(ap);
  push_owned(v, s);
}

/* qsort cannot pass `cmp` to its comparator without a global: a small,
 * stable merge sort instead. */
static void merge_sort(char **a, char **tmp, size_t n,
                       int (*cmp)(const char *, const char *)) {
  if (n < 2)
    return;
  size_t h = n / 2, i = 0, j = h, k = 0;
  merge_sort(a, tmp, h, cmp);
  merge_sort(a + h, tmp, n - h, cmp);
  while (i < h && j < n)
    tmp[k++] = cmp(a[j], a[i]) < 0 ? a[j++] : a[i++];
  while (i < h)
    tmp[k++] = a[i++];
  while (j < n)
    tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

void ft_strv_sort(struct ft_strv *v, int (*cmp)(const char *, const char *)) {
  if (v->count < 2)
    return;
  char **tmp = ft_xrealloc(NULL, v->count * sizeof *tmp);
  merge_sort(v->items, tmp, v->count, cmp);
  free(tmp);
}

void ft_strv_free(struct ft_strv *v) {
  for (size_t i = 0; i < v->count; i++)
    free(v->items[i]);
  free(v->items);
  v->items = NULL;
  v->count = v->cap = 0;
}

int ft_fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}
