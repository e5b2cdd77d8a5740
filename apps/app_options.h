/* app_options: the command-line options of the ftsim workloads, parsed.
 *
 * Each workload describes its options in a table of struct app_opt and hands
 * argv to app_options_parse. Long options only: "--name value",
 * "--name=value", flags as "--name"; "-h" and "--help" ask for the usage.
 * Pure C: no MPI, no allocation, no output except app_options_usage. */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum app_opt_type {
  APP_OPT_INT,    /* value: int *, range [min, max] */
  APP_OPT_DOUBLE, /* value: double *, range [min, max] */
  APP_OPT_FLAG,   /* value: int *, set to 1 when present; takes no value */
  APP_OPT_STRING  /* value: const char **, points into argv */
};

struct app_opt {
  const char *name; /* long name without the dashes, e.g. "iters" */
  enum app_opt_type type;
  void *value;      /* where the parsed value goes (see app_opt_type) */
  double min, max;  /* inclusive range of INT and DOUBLE values */
  const char *arg;  /* the value's name in the usage, e.g. "N" */
  const char *help; /* one line for the usage, defaults included */
};

enum app_parse_result {
  APP_PARSE_RUN,  /* every argument parsed: run the workload */
  APP_PARSE_HELP, /* -h or --help was given: print the usage, do not run */
  APP_PARSE_ERROR /* `err` says what is wrong, naming the option */
};

/* Parses argv[1..argc-1] against the `n` options of `opts`, storing values
 * through their `value` pointers (the caller sets the defaults first; an
 * option given twice keeps the last value). On APP_PARSE_ERROR, writes into
 * `err` (errlen bytes) a message naming the offending argument, e.g.
 *   "option --iters: 'x' is not an integer"
 *   "option --tol: 0 is out of range [1e-16, 1]"
 *   "unknown option '--itres'"
 * Values already stored before the error stay stored. */
enum app_parse_result app_options_parse(const struct app_opt *opts, size_t n,
                                        int argc, char *const argv[], char *err,
                                        size_t errlen);

/* Prints "usage: PROG [options]", the summary line, and one line per option
 * (plus -h, --help) to `out`. Under smpirun, SimGrid answers --help itself
 * (its own configuration help), so the usage says to use -h there. */
void app_options_usage(FILE *out, const char *prog, const char *summary,
                       const struct app_opt *opts, size_t n);

#endif /* APP_OPTIONS_H */
