/* Located error messages (see errmsg.h). */
#include "errmsg.h"

#include <stdio.h>

/* After a prefix of n bytes (snprintf's result) in err: the field, then
 * the text, each only while there is room. Returns -1. */
static int located(char *err, size_t errlen, int n, const char *field,
                   const char *fmt, va_list ap) {
  if (n >= 0 && (size_t)n < errlen && field) {
    int m = snprintf(err + n, errlen - (size_t)n, "field '%s': ", field);
    n = m < 0 ? m : n + m;
  }
  if (n >= 0 && (size_t)n < errlen)
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  return -1;
}

int ft_errmsg_v(char *err, size_t errlen, const char *name, int line,
                const char *field, const char *fmt, va_list ap) {
  if (errlen == 0)
    return -1;
  int n = line > 0 ? snprintf(err, errlen, "%s:%d: ", name, line)
                   : snprintf(err, errlen, "%s: ", name);
  return located(err, errlen, n, field, fmt, ap);
}

int ft_errmsg(char *err, size_t errlen, const char *name, int line,
              const char *field, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ft_errmsg_v(err, errlen, name, line, field, fmt, ap);
  va_end(ap);
  return -1;
}

int ft_errmsg_line_v(char *err, size_t errlen, const char *name, long line,
                     const char *field, const char *fmt, va_list ap) {
  if (errlen == 0)
    return -1;
  int n = snprintf(err, errlen, "%s:%ld: ", name, line);
  return located(err, errlen, n, field, fmt, ap);
}
