/* A growable, NULL-terminated vector of owned strings (argv, host lists).
 *
 * Allocation failure is fatal: the launcher prints "ftsim: out of memory"
 * and exits 1, so callers need no error path for it. */
#ifndef FT_CLI_STRV_H
#define FT_CLI_STRV_H

#include <stddef.h>

struct ft_strv {
  char **items; /* items[count] is NULL once anything was pushed */
  size_t count;
  size_t cap;
};

/* An empty vector (zero-initialisation is also valid). */
#define FT_STRV_INIT                                                           \
  { NULL, 0, 0 }

/* Appends a copy of `s`. */
void ft_strv_push(struct ft_strv *v, const char *s);

/* Appends a copy of the first `len` bytes of `s`. */
void ft_strv_pushn(struct ft_strv *v, const char *s, size_t len);

/* Appends the printf-formatted text. */
void ft_strv_pushf(struct ft_strv *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sorts the items with `cmp` (strcmp-like). */
void ft_strv_sort(struct ft_strv *v, int (*cmp)(const char *, const char *));

/* Frees every item and the array; leaves an empty vector. */
void ft_strv_free(struct ft_strv *v);

/* Writes the printf-formatted message into `err` (errlen bytes, always
 * terminated) and returns -1, so that `return ft_fail(...)` reports an
 * error in one line. */
int ft_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* malloc/realloc/strdup that exit(1) with "ftsim: out of memory". */
void *ft_xrealloc(void *p, size_t size);
char *ft_xstrdup(const char *s);

#endif /* FT_CLI_STRV_H */
