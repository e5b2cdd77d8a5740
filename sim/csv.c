/* CSV lines (see csv.h). */
#include "csv.h"

#include <stdbool.h>
#include <string.h>

/* Appends c to the output buffer; false when full. */
static bool put(char *buf, size_t bufsize, size_t *used, char c) {
  if (*used + 1 >= bufsize)
    return false;
  buf[(*used)++] = c;
  return true;
}

/* Reads one quoted field starting after its opening quote at *p; leaves *p
 * on the delimiter or the end. */
static int quoted(const char **p, const char *end, char delim, char *buf,
                  size_t bufsize, size_t *used, const char **why) {
  for (;;) {
    if (*p >= end) {
      *why = "unterminated quoted field";
      return -1;
    }
    char c = *(*p)++;
    if (c == '"') {
      if (*p < end && **p == '"')
        (*p)++;
      else
        break;
    }
    if (!put(buf, bufsize, used, c)) {
      *why = "line too long";
      return -1;
    }
  }
  if (*p < end && **p != delim) {
    *why = "text after a closing quote";
    return -1;
  }
  return 0;
}

/* Reads one field at *p (quoted or not) into buf; leaves *p on the
 * delimiter or the end. */
static int field(const char **p, const char *end, char delim, char *buf,
                 size_t bufsize, size_t *used, const char **why) {
  if (*p < end && **p == '"') {
    (*p)++;
    return quoted(p, end, delim, buf, bufsize, used, why);
  }
  while (*p < end && **p != delim)
    if (!put(buf, bufsize, used, *(*p)++)) {
      *why = "line too long";
      return -1;
    }
  return 0;
}

int ft_csv_split(const char *line, size_t len, char delim, char **fields,
                 int max, char *buf, size_t bufsize, const char **why) {
  const char *p = line, *end = line + len;
  if (end > p && end[-1] == '\r')
    end--;
  size_t used = 0;
  int n = 0;
  for (;;) {
    size_t start = used;
    if (field(&p, end, delim, buf, bufsize, &used, why))
      return -1;
    if (!put(buf, bufsize, &used, '\0')) {
      *why = "line too long";
      return -1;
    }
    if (n < max)
      fields[n] = buf + start;
    n++;
    if (p >= end)
      return n;
    p++; /* the delimiter */
  }
}

void ft_csv_put(FILE *out, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}
