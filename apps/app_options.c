/* Command-line options of the workloads (see app_options.h). */
#include "app_options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static enum app_parse_result fail(char *err, size_t errlen, const char *fmt,
                                  ...) __attribute__((format(printf, 3, 4)));

static enum app_parse_result fail(char *err, size_t errlen, const char *fmt,
                                  ...) {
  va_list ap;
  va_start(ap, fmt);
  if (errlen > 0)
    vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return APP_PARSE_ERROR;
}

/* The option called `name` (of length len), or NULL. */
static const struct app_opt *find(const struct app_opt *opts, size_t n,
                                  const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
      return &opts[i];
  return NULL;
}

static enum app_parse_result out_of_range(const struct app_opt *o,
                                          const char *text, char *err,
                                          size_t errlen) {
  return fail(err, errlen, "option --%s: %s is out of range [%g, %g]", o->name,
              text, o->min, o->max);
}

static enum app_parse_result
parse_int(const struct app_opt *o, const char *text, char *err, size_t errlen) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0')
    return fail(err, errlen, "option --%s: '%s' is not an integer", o->name,
                text);
  if (errno == ERANGE || (double)v < o->min || (double)v > o->max)
    return out_of_range(o, text, err, errlen);
  *(int *)o->value = (int)v;
  return APP_PARSE_RUN;
}

static enum app_parse_result parse_double(const struct app_opt *o,
                                          const char *text, char *err,
                                          size_t errlen) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v))
    return fail(err, errlen, "option --%s: '%s' is not a number", o->name,
                text);
  if (errno == ERANGE || v < o->min || v > o->max)
    return out_of_range(o, text, err, errlen);
  *(double *)o->value = v;
  return APP_PARSE_RUN;
}

static enum app_parse_result store(const struct app_opt *o, const char *text,
                                   char *err, size_t errlen) {
  switch (o->type) {
  case APP_OPT_INT:
    return parse_int(o, text, err, errlen);
  case APP_OPT_DOUBLE:
    return parse_double(o, text, err, errlen);
  case APP_OPT_STRING:
    *(const char **)o->value = text;
    return APP_PARSE_RUN;
  case APP_OPT_FLAG:
    break;
  }
  return fail(err, errlen, "option --%s takes no value", o->name);
}

/* Parses the option at argv[*i], consuming its value if separate. */
static enum app_parse_result parse_one(const struct app_opt *opts, size_t n,
                                       int argc, char *const argv[], int *i,
                                       char *err, size_t errlen) {
  const char *arg = argv[*i];
  if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
    return APP_PARSE_HELP;
  if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
    return fail(err, errlen, "unexpected argument '%s'", arg);
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const struct app_opt *o = find(opts, n, name, len);
  if (!o)
    return fail(err, errlen, "unknown option '%.*s'", (int)(len + 2), arg);
  if (o->type == APP_OPT_FLAG) {
    if (eq)
      return fail(err, errlen, "option --%s takes no value", o->name);
    *(int *)o->value = 1;
    return APP_PARSE_RUN;
  }
  if (eq)
    return store(o, eq + 1, err, errlen);
  if (*i + 1 >= argc)
    return fail(err, errlen, "option --%s needs a value (%s)", o->name, o->arg);
  *i += 1;
  return store(o, argv[*i], err, errlen);
}

enum app_parse_result app_options_parse(const struct app_opt *opts, size_t n,
                                        int argc, char *const argv[], char *err,
                                        size_t errlen) {
  for (int i = 1; i < argc; i++) {
    enum app_parse_result r = parse_one(opts, n, argc, argv, &i, err, errlen);
    if (r != APP_PARSE_RUN)
      return r;
  }
  return APP_PARSE_RUN;
}

void app_options_usage(FILE *out, const char *prog, const char *summary,
                       const struct app_opt *opts, size_t n) {
  fprintf(out, "usage: %s [options]\n%s\n\noptions:\n", prog, summary);
  for (size_t i = 0; i < n; i++) {
    char left[64];
    if (opts[i].type == APP_OPT_FLAG)
      snprintf(left, sizeof left, "--%s", opts[i].name);
    else
      snprintf(left, sizeof left, "--%s %s", opts[i].name, opts[i].arg);
    fprintf(out, "  %-20s %s\n", left, opts[i].help);
  }
  fprintf(out, "  %-20s %s\n", "-h, --help",
          "print this help and exit (-h under smpirun: SimGrid takes --help)");
}
