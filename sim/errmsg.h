/* Located error messages, "NAME:LINE: field 'FIELD': text", written into a
 * caller's buffer: what every parser of sweeps, traces, rank records and
 * results says. Its own library (ftsim_errmsg), linked by each of them.
 * Pure C11, no allocation, no global state. */
#ifndef FT_ERRMSG_H
#define FT_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

/* Writes into `err` (errlen bytes, always terminated when errlen > 0)
 * "NAME:LINE: " (just "NAME: " when line <= 0), then "field 'FIELD': "
 * when `field` is not NULL, then the printf-formatted text; truncates
 * safely. Returns -1, so that `return ft_errmsg_v(...)` reports an error. */
int ft_errmsg_v(char *err, size_t errlen, const char *name, int line,
                const char *field, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

/* ft_errmsg_v with the text's arguments given here. Returns -1. */
int ft_errmsg(char *err, size_t errlen, const char *name, int line,
              const char *field, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The same with "NAME:LINE: " whatever the line, 0 included: the readers
 * that name line 0 for a file they could not open or whose whole content
 * is wrong (rtrace's rank records, "DIR/rank.3:0: cannot open the rank's
 * record ...", and SimGrid TI traces). Returns -1. */
int ft_errmsg_line_v(char *err, size_t errlen, const char *name, long line,
                     const char *field, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

#endif /* FT_ERRMSG_H */
