/* CSV lines: splitting one line into fields, and quoting a field for
 * output. RFC 4180 without embedded line breaks: fields separated by a
 * delimiter, a field may be enclosed in double quotes, "" inside quotes is
 * one quote.
 *
 * Pure C11: no I/O beyond the FILE* it is given, no global state, no
 * allocation (fields are written into a caller's buffer). */
#ifndef FT_CSV_H
#define FT_CSV_H

#include <stddef.h>
#include <stdio.h>

/* Splits the line [line, line + len) (no '\n'; a trailing '\r' is dropped)
 * at `delim` into at most `max` fields. Each field is unquoted into `buf`
 * (bufsize bytes), NUL-terminated, and fields[i] points to it. Returns the
 * number of fields (which may exceed `max`: only the first `max` are
 * stored), or -1 with `why` set to a static reason:
 *   "unterminated quoted field", "text after a closing quote",
 *   "line too long". */
int ft_csv_split(const char *line, size_t len, char delim, char **fields,
                 int max, char *buf, size_t bufsize, const char **why);

/* Writes `s` as one CSV field: as is when it has no ',', '"', '\r' or
 * '\n' (an empty string writes nothing), else in double quotes with '"'
 * doubled. */
void ft_csv_put(FILE *out, const char *s);

#endif /* FT_CSV_H */
