/* Located error messages (see errmsg.h). */
#include "errmsg.h"

#include <stdio.h>

int ft_errmsg_v(char *err, size_t errlen, const char *name, int line,
                const char *field, const char *fmt, va_list ap) {
  if (errlen == 0)
    return -1;
  int n = line > 0 ? snprintf(err, errlen, "%s:%d: ", name, line)
                   : snprintf(err, errlen, "%s: ", name);
  if (n >= 0 && (size_t)n < errlen && field) {
    int m = snprintf(err + n, errlen - (size_t)n, "field '%s': ", field);
    n = m < 0 ? m : n + m;
  }
  if (n >= 0 && (size_t)n < errlen)
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  return -1;
}
