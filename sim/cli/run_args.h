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

/* How a simulated run charges the computation between MPI calls. */
enum ft_compute_mode {
  FT_COMPUTE_AUTO,     /* modelled for a program that calls ft_compute (or
                          one of ftsim's workloads), else measured */
  FT_COMPUTE_MODELLED, /* only ft_compute costs time: SMPI's benchmarking
                          off (smpi/simulate-computation:no) */
  FT_COMPUTE_MEASURED, /* SMPI measures the CPU time between MPI calls and
                          injects it, scaled by smpi/host-speed */
};

/* The name of a mode ("auto", "modelled", "measured"). */
const char *ft_compute_mode_name(enum ft_compute_mode mode);

/* Parses "auto", "modelled" or "measured" into `mode`. Returns 0, or -1. */
int ft_compute_mode_parse(const char *word, enum ft_compute_mode *mode);

/* Checks a SimGrid option "KEY:VALUE" for --cfg: KEY is made of
 * [A-Za-z0-9/_.-], VALUE is not empty, neither holds a blank. Returns 0,
 * or -1 with the reason in `err`, e.g. "--cfg: expected KEY:VALUE (a
 * SimGrid option, e.g. smpi/cpu-threshold:1e-3), got 'oops'". */
int ft_cfg_check(const char *cfg, char *err, size_t errlen);

struct ft_run_args {
  const char *platform;         /* --platform: a name or a path; default gige */
  bool platform_given;          /* --platform appeared (ignored with --real) */
  const char *app;              /* --app: a name or a path; default cg */
  bool app_given;               /* --app appeared */
  const char *replay;           /* --replay: a recorded trace, or NULL */
  bool np_given;                /* --np appeared */
  const char *protocol;         /* --protocol; default none */
  bool protocol_given;          /* --protocol appeared */
  const char *hostfile_out;     /* --hostfile-out, or NULL for a temp file */
  const char *scenario;         /* --scenario: a name or a path, or NULL */
  const char *trace;            /* --trace: path prefix of the event trace (each
                                   rank writes TRACE.<rank>), or NULL */
  int np;                       /* --np; default 16 */
  int service_ranks;            /* --service-ranks; default 0, or 1 for a
                                   protocol that recovers (its checkpoint
                                   server and dispatcher) */
  bool service_ranks_given;     /* --service-ranks was on the command line */
  enum ft_compute_mode compute; /* --compute; default auto */
  double host_speed;            /* --host-speed in flop/s, or 0: not given */
  bool dry_run, real, help;
  const char **sets; /* --set values, in order (point into argv) */
  size_t nsets;
  const char **cfgs; /* --cfg values KEY:VALUE, in order (point into argv) */
  size_t ncfgs;
  char **app_args; /* the words after "--" (point into argv) */
  size_t napp_args;
};

/* Parses the words after "run" (argv[0] is the first option, argc may be
 * 0). Accepts "--flag value" and "--flag=value", and "-np N" as smpirun
 * and mpirun spell it. Strings point into argv,
 * which must outlive `args`; call ft_run_args_free afterwards, even on error.
 * On error returns -1 with a message naming the flag in `err`, e.g.
 *   "--np: expected an integer from 1 to 1048576, got 'abc'"
 *   "--set: expected key=value, got 'oops'"
 *   "--compute: expected auto, modelled or measured, got 'x'"
 *   "--host-speed: expected flop/s > 0 (e.g. 2.5e9), got 'fast'"
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
