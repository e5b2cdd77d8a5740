/* Run options parsing (see options.h). */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"

void ft_options_defaults(struct ft_options *options) {
  memset(options, 0, sizeof *options);
  snprintf(options->protocol, sizeof options->protocol, "%s", "none");
  options->service_ranks = 0;
}

const char *ft_options_known_keys(void) { return "protocol, service_ranks"; }

static int fail(char *err, size_t errlen, int field, const char *entry,
                const char *fmt, ...) {
  int n = snprintf(err, errlen, "field %d '%s': ", field, entry);
  if (n >= 0 && (size_t)n < errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int ft_parse_int(const char *s, long min, long max, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    return -1;
  *out = (int)v;
  return 0;
}

static void list_protocols(char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t i = 0; ft_protocol_at(i); i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
             ft_protocol_at(i)->name);
  }
}

/* Applies one "key=value" entry (the 1-based `field`-th). */
static int apply(struct ft_options *o, char *entry, int field, char *err,
                 size_t errlen) {
  char *eq = strchr(entry, '=');
  if (!eq || eq == entry)
    return fail(err, errlen, field, entry, "expected key=value");
  *eq = '\0';
  const char *key = entry, *value = eq + 1;
  char shown[160];
  snprintf(shown, sizeof shown, "%s=%s", key, value);
  if (strcmp(key, "protocol") == 0) {
    if (!ft_protocol_find(value)) {
      char names[256];
      list_protocols(names, sizeof names);
      return fail(err, errlen, field, shown,
                  "unknown protocol '%s' (known: %s)", value, names);
    }
    snprintf(o->protocol, sizeof o->protocol, "%s", value);
    return 0;
  }
  if (strcmp(key, "service_ranks") == 0) {
    if (ft_parse_int(value, 0, 4096, &o->service_ranks))
      return fail(err, errlen, field, shown,
                  "service_ranks must be an integer in [0, 4096]");
    return 0;
  }
  return fail(err, errlen, field, shown, "unknown key '%s' (known: %s)", key,
              ft_options_known_keys());
}

int ft_options_parse(const char *text, struct ft_options *options, char *err,
                     size_t errlen) {
  ft_options_defaults(options);
  if (!text || !*text)
    return 0;
  char copy[1024];
  if (strlen(text) >= sizeof copy)
    return fail(err, errlen, 0, "...", "options longer than %zu bytes",
                sizeof copy - 1);
  strcpy(copy, text);
  int field = 1;
  for (char *save = NULL, *e = strtok_r(copy, ",", &save); e;
       e = strtok_r(NULL, ",", &save), field++)
    if (apply(options, e, field, err, errlen))
      return -1;
  return 0;
}
