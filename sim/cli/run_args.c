/* `ftsim run` argument parsing (see run_args.h). */
#define _POSIX_C_SOURCE 200809L
#include "run_args.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"
#include "options.h"
#include "strv.h"

enum flag_id {
  FLAG_PLATFORM,
  FLAG_NP,
  FLAG_APP,
  FLAG_REPLAY,
  FLAG_PROTOCOL,
  FLAG_SET,
  FLAG_SERVICE_RANKS,
  FLAG_HOSTFILE_OUT,
  FLAG_SCENARIO,
  FLAG_TRACE,
  FLAG_COMPUTE,
  FLAG_HOST_SPEED,
  FLAG_CFG,
  FLAG_DRY_RUN,
  FLAG_REAL,
  FLAG_HELP,
};

struct flag {
  const char *name;
  enum flag_id id;
  bool takes_value;
};

static const struct flag flags[] = {
    {"--platform", FLAG_PLATFORM, true},
    {"--np", FLAG_NP, true},
    {"-np", FLAG_NP, true},
    {"--app", FLAG_APP, true},
    {"--replay", FLAG_REPLAY, true},
    {"--protocol", FLAG_PROTOCOL, true},
    {"--set", FLAG_SET, true},
    {"--service-ranks", FLAG_SERVICE_RANKS, true},
    {"--hostfile-out", FLAG_HOSTFILE_OUT, true},
    {"--scenario", FLAG_SCENARIO, true},
    {"--trace", FLAG_TRACE, true},
    {"--compute", FLAG_COMPUTE, true},
    {"--host-speed", FLAG_HOST_SPEED, true},
    {"--cfg", FLAG_CFG, true},
    {"--dry-run", FLAG_DRY_RUN, false},
    {"--real", FLAG_REAL, false},
    {"--help", FLAG_HELP, false},
    {"-h", FLAG_HELP, false},
};

/* Finds the flag named by the first `len` bytes of `word`. */
static const struct flag *find_flag(const char *word, size_t len) {
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strlen(flags[i].name) == len && strncmp(flags[i].name, word, len) == 0)
      return &flags[i];
  return NULL;
}

static int apply_set(struct ft_run_args *a, const char *v, char *err,
                     size_t errlen) {
  const char *eq = strchr(v, '=');
  if (!eq || eq == v)
    return ft_fail(err, errlen, "--set: expected key=value, got '%s'", v);
  if (strchr(v, ','))
    return ft_fail(err, errlen, "--set: one key=value per --set, got '%s'", v);
  a->sets[a->nsets++] = v;
  return 0;
}

static const char *const compute_names[] = {
    [FT_COMPUTE_AUTO] = "auto",
    [FT_COMPUTE_MODELLED] = "modelled",
    [FT_COMPUTE_MEASURED] = "measured",
};

const char *ft_compute_mode_name(enum ft_compute_mode mode) {
  return compute_names[mode];
}

int ft_compute_mode_parse(const char *word, enum ft_compute_mode *mode) {
  for (size_t i = 0; i < sizeof compute_names / sizeof *compute_names; i++)
    if (strcmp(word, compute_names[i]) == 0) {
      *mode = (enum ft_compute_mode)i;
      return 0;
    }
  return -1;
}

int ft_cfg_check(const char *cfg, char *err, size_t errlen) {
  static const char key_chars[] = "abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789/_.-";
  size_t key = strspn(cfg, key_chars);
  if (key == 0 || cfg[key] != ':' || !cfg[key + 1] ||
      strpbrk(cfg, " \t\n\r\v\f"))
    return ft_fail(err, errlen,
                   "--cfg: expected KEY:VALUE (a SimGrid option, e.g. "
                   "smpi/cpu-threshold:1e-3), got '%s'",
                   cfg);
  return 0;
}

static int apply_compute(struct ft_run_args *a, const char *v, char *err,
                         size_t errlen) {
  if (ft_compute_mode_parse(v, &a->compute) == 0)
    return 0;
  return ft_fail(err, errlen,
                 "--compute: expected auto, modelled or measured, got '%s'", v);
}

static int apply_host_speed(struct ft_run_args *a, const char *v, char *err,
                            size_t errlen) {
  if (ft_parse_double(v, 0, 1e18, &a->host_speed) == FT_NUM_OK &&
      a->host_speed > 0)
    return 0;
  return ft_fail(err, errlen,
                 "--host-speed: expected flop/s > 0 (e.g. 2.5e9), got '%s'", v);
}

static int apply_cfg(struct ft_run_args *a, const char *v, char *err,
                     size_t errlen) {
  if (ft_cfg_check(v, err, errlen))
    return -1;
  a->cfgs[a->ncfgs++] = v;
  return 0;
}

static int apply_int(const char *flag, const char *v, long min, long max,
                     int *out, char *err, size_t errlen) {
  if (ft_parse_int(v, min, max, out) == 0)
    return 0;
  if (max == INT_MAX)
    return ft_fail(err, errlen, "%s: expected an integer >= %ld, got '%s'",
                   flag, min, v);
  return ft_fail(err, errlen,
                 "%s: expected an integer from %ld to %ld, got '%s'", flag, min,
                 max, v);
}

static int apply(struct ft_run_args *a, const struct flag *f, const char *v,
                 char *err, size_t errlen) {
  switch (f->id) {
  case FLAG_PLATFORM:
    a->platform = v;
    a->platform_given = true;
    return 0;
  case FLAG_NP:
    a->np_given = true;
    return apply_int(f->name, v, 1, FT_RUN_MAX_NP, &a->np, err, errlen);
  case FLAG_APP:
    a->app = v;
    a->app_given = true;
    return 0;
  case FLAG_REPLAY:
    a->replay = v;
    return 0;
  case FLAG_PROTOCOL:
    if (strchr(v, ',') || strchr(v, '='))
      return ft_fail(err, errlen,
                     "--protocol: expected one protocol name, got '%s'", v);
    a->protocol = v;
    a->protocol_given = true;
    return 0;
  case FLAG_SET:
    return apply_set(a, v, err, errlen);
  case FLAG_SERVICE_RANKS:
    a->service_ranks_given = true;
    return apply_int(f->name, v, 0, INT_MAX, &a->service_ranks, err, errlen);
  case FLAG_HOSTFILE_OUT:
    a->hostfile_out = v;
    return 0;
  case FLAG_SCENARIO:
    a->scenario = v;
    return 0;
  case FLAG_TRACE:
    a->trace = v;
    return 0;
  case FLAG_COMPUTE:
    return apply_compute(a, v, err, errlen);
  case FLAG_HOST_SPEED:
    return apply_host_speed(a, v, err, errlen);
  case FLAG_CFG:
    return apply_cfg(a, v, err, errlen);
  case FLAG_DRY_RUN:
    a->dry_run = true;
    return 0;
  case FLAG_REAL:
    a->real = true;
    return 0;
  case FLAG_HELP:
    a->help = true;
    return 0;
  }
  return ft_fail(err, errlen, "internal error: flag %s", f->name);
}

static void set_defaults(struct ft_run_args *a, int argc) {
  memset(a, 0, sizeof *a);
  a->platform = FT_RUN_DEFAULT_PLATFORM;
  a->app = FT_RUN_DEFAULT_APP;
  a->protocol = FT_RUN_DEFAULT_PROTOCOL;
  a->np = FT_RUN_DEFAULT_NP;
  a->sets = ft_xrealloc(NULL, (size_t)(argc > 0 ? argc : 1) * sizeof *a->sets);
  a->cfgs = ft_xrealloc(NULL, (size_t)(argc > 0 ? argc : 1) * sizeof *a->cfgs);
}

static int unknown_word(const char *w, char *err, size_t errlen) {
  if (w[0] == '-')
    return ft_fail(err, errlen, "unknown option '%s'", w);
  return ft_fail(err, errlen,
                 "unexpected argument '%s' (arguments for the app go after --)",
                 w);
}

/* Handles argv[*i], consuming the next word too when it is the value. */
static int parse_word(struct ft_run_args *a, int argc, char **argv, int *i,
                      char *err, size_t errlen) {
  const char *w = argv[*i];
  const char *eq = strncmp(w, "--", 2) == 0 ? strchr(w, '=') : NULL;
  const struct flag *f = find_flag(w, eq ? (size_t)(eq - w) : strlen(w));
  if (!f)
    return unknown_word(w, err, errlen);
  if (!f->takes_value) {
    if (eq)
      return ft_fail(err, errlen, "%s: takes no value", f->name);
    return apply(a, f, NULL, err, errlen);
  }
  const char *v = eq ? eq + 1 : NULL;
  if (!eq && *i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0)
    v = argv[++*i];
  if (!v)
    return ft_fail(err, errlen, "%s: missing value", f->name);
  if (!*v)
    return ft_fail(err, errlen, "%s: empty value", f->name);
  return apply(a, f, v, err, errlen);
}

int ft_run_args_parse(int argc, char **argv, struct ft_run_args *args,
                      char *err, size_t errlen) {
  set_defaults(args, argc);
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      args->app_args = argv + i + 1;
      args->napp_args = (size_t)(argc - i - 1);
      return 0;
    }
    if (parse_word(args, argc, argv, &i, err, errlen))
      return -1;
  }
  return 0;
}

void ft_run_args_free(struct ft_run_args *args) {
  free(args->sets);
  args->sets = NULL;
  args->nsets = 0;
  free(args->cfgs);
  args->cfgs = NULL;
  args->ncfgs = 0;
}

/* ft_options_parse says "field N 'entry': why"; the flag already names the
 * entry, so keep only "why". */
static const char *strip_field(const char *msg) {
  const char *q = strstr(msg, "': ");
  return strncmp(msg, "field ", 6) == 0 && q ? q + 3 : msg;
}

/* Appends ",piece" (or "piece" to an empty text) and validates the text;
 * an error is blamed on "flag shown". */
static int append_checked(char *text, size_t len, const char *piece,
                          const char *flag, const char *shown,
                          struct ft_options *o, char *err, size_t errlen) {
  size_t used = strlen(text);
  int n = snprintf(text + used, len - used, "%s%s", used ? "," : "", piece);
  if (n < 0 || (size_t)n >= len - used)
    return ft_fail(err, errlen, "%s %s: options text longer than %zu bytes",
                   flag, shown, len - 1);
  char msg[1024]; /* the unknown key error lists every known key */
  if (ft_options_parse(text, o, msg, sizeof msg) == 0)
    return 0;
  return ft_fail(err, errlen, "%s %s: %s", flag, shown, strip_field(msg));
}

/* Appends "scenario=PATH"; ft_options_parse checks the path's length. */
static int append_scenario(const char *path, char *text, size_t len,
                           struct ft_options *o, char *err, size_t errlen) {
  char piece[1024];
  if (strchr(path, ','))
    return ft_fail(err, errlen,
                   "--scenario %s: FTSIM_OPTIONS cannot carry a path with a "
                   "comma",
                   path);
  snprintf(piece, sizeof piece, "scenario=%s", path);
  return append_checked(text, len, piece, "--scenario", path, o, err, errlen);
}

/* Appends "trace=PATH" (the runtime writes PATH.<rank>). */
static int append_trace(const char *path, char *text, size_t len,
                        struct ft_options *o, char *err, size_t errlen) {
  char piece[1024];
  if (strchr(path, ','))
    return ft_fail(err, errlen,
                   "--trace %s: FTSIM_OPTIONS cannot carry a path with a comma",
                   path);
  snprintf(piece, sizeof piece, "trace=%s", path);
  return append_checked(text, len, piece, "--trace", path, o, err, errlen);
}

/* --set protocol=Y must not contradict --protocol: the service ranks and
 * the scenario check follow --protocol, the runtime the last protocol=. */
static int check_set_protocol(const struct ft_run_args *args, const char *set,
                              char *err, size_t errlen) {
  if (strncmp(set, "protocol=", 9) != 0 || strcmp(set + 9, args->protocol) == 0)
    return 0;
  return ft_fail(err, errlen,
                 "--set %s: conflicts with --protocol %s%s (name the protocol "
                 "once, with --protocol)",
                 set, args->protocol,
                 args->protocol_given ? "" : " (the default)");
}

/* --scenario with a protocol that does not recover: the error names the
 * ones that do, from the registry. */
static int no_recovery(const struct ft_run_args *args, char *err,
                       size_t errlen) {
  char those[256];
  ft_protocol_recovering_names(those, sizeof those, ", ", " or ");
  return ft_fail(err, errlen,
                 "--scenario %s: protocol %s does not recover from "
                 "failures (use --protocol %s)",
                 args->scenario, args->protocol, those);
}

int ft_run_args_options(const struct ft_run_args *args, char *text, size_t len,
                        struct ft_options *options, char *err, size_t errlen) {
  char piece[128], shown[32];
  if (len == 0)
    return ft_fail(err, errlen, "no room for the options text");
  text[0] = '\0';
  snprintf(piece, sizeof piece, "protocol=%.100s", args->protocol);
  if (append_checked(text, len, piece, "--protocol", args->protocol, options,
                     err, errlen))
    return -1;
  const struct ft_protocol_ops *p = ft_protocol_find(args->protocol);
  int recovers = p && ft_protocol_recovers(p);
  int services = args->service_ranks;
  if (recovers && !args->service_ranks_given)
    services = 1;
  if (recovers && services < 1)
    return ft_fail(err, errlen,
                   "--service-ranks %d: protocol %s needs at least one "
                   "service rank (its checkpoint server and dispatcher)",
                   services, args->protocol);
  if (!recovers && args->scenario)
    return no_recovery(args, err, errlen);
  snprintf(shown, sizeof shown, "%d", services);
  snprintf(piece, sizeof piece, "service_ranks=%s", shown);
  if (append_checked(text, len, piece, "--service-ranks", shown, options, err,
                     errlen))
    return -1;
  if (args->scenario &&
      append_scenario(args->scenario, text, len, options, err, errlen))
    return -1;
  if (args->trace && append_trace(args->trace, text, len, options, err, errlen))
    return -1;
  /* A replay checkpoints at any MPI call where the core can (README, "Your
   * program, unmodified"); --set any_call=0 keeps the consistent cuts. */
  if (args->replay && recovers &&
      append_checked(text, len, "any_call=1", "--replay", args->replay, options,
                     err, errlen))
    return -1;
  for (size_t i = 0; i < args->nsets; i++)
    if (check_set_protocol(args, args->sets[i], err, errlen) ||
        append_checked(text, len, args->sets[i], "--set", args->sets[i],
                       options, err, errlen))
      return -1;
  return 0;
}
