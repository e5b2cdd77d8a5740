/* `ftsim run` arguments: parsed into a struct, and turned into the
 * FTSIM_OPTIONS text. Pure: no I/O, no environment, no file system. */
#ifndef FT_CLI_RUN_ARGS_H
#define FT_CLI_RUN_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

#define FT_RUN_DEFAULT_PLATFORM "gige"
#define FT_RUN_DEFAULT_APP "cg"
#define FT_RUN_DEFAULT_PROTOCOL "none"
#define FT_RUN_DEFAULT_NP 16
#define FT_RUN_MAX_NP (1 << 20)

struct ft_run_args {
  const char *platform;     /* --platform: a name or a path; default gige */
  bool platform_given;      /* --platform appeared (ignored with --real) */
  const char *app;          /* --app: a name or a path; default cg */
  const char *protocol;     /* --protocol; default none */
  bool protocol_given;      /* --protocol appeared */
  const char *hostfile_out; /* --hostfile-out, or NULL for a temp file */
  const char *scenario;     /* --scenario: a name or a path, or NULL */
  const char *trace;        /* --trace: path prefix of the event trace (each
                               rank writes TRACE.<rank>), or NULL */
  int np;                   /* --np; default 16 */
  int service_ranks;        /* --service-ranks; default 0, or 1 for a
                               protocol that recovers (its checkpoint
                               server and dispatcher) */
  bool service_ranks_given; /* --service-ranks was on the command line */
  bool dry_run, real, help;
  const char **sets; /* --set values, in order (point into argv) */
  size_t nsets;
  char **app_args; /* the words after "--" (point into argv) */
  size_t napp_args;
};

/* Parses the words after "run" (argv[0] is the first option, argc may be
 * 0). Accepts "--flag value" and "--flag=value". Strings point into argv,
 * which must outlive `args`; call ft_run_args_free afterwards, even on error.
 * On error returns -1 with a message naming the flag in `err`, e.g.
 *   "--np: expected an integer from 1 to 1048576, got 'abc'"
 *   "--set: expected key=value, got 'oops'"
 *   "unknown option '--bogus'"
 *   "--platform: missing value". */
int ft_run_args_parse(int argc, char **argv, struct ft_run_args *args,
                      char *err, size_t errlen);

/* Frees what ft_run_args_parse allocated. */
void ft_run_args_free(struct ft_run_args *args);

/* Builds the FTSIM_OPTIONS text, "protocol=P,service_ranks=N", then
 * "scenario=F" when args->scenario is set (the caller first replaces it
 * with the resolved file), "trace=T" with --trace, then every --set in order,
 * into `text` (len bytes), and validates it with ft_options_parse into
 * `options`. On error returns -1 with a message naming the flag responsible,
 * e.g.
 *   "--protocol bogus: unknown protocol 'bogus' (known: none)"
 *   "--set colour=red: unknown key 'colour' (known: protocol, service_ranks)"
 *   "--scenario /a,b.txt: FTSIM_OPTIONS cannot carry a path with a comma"
 *   "--set protocol=none: conflicts with --protocol pcl (name the protocol
 *    once, with --protocol)"
 * The options' consistency (ft_options_check) is left to the caller, once
 * the scenario file is checked. */
int ft_run_args_options(const struct ft_run_args *args, char *text, size_t len,
                        struct ft_options *options, char *err, size_t errlen);

#endif /* FT_CLI_RUN_ARGS_H */
