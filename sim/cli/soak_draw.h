/* The draws of `ftsim soak`: from one run seed, a configuration (protocol,
 * workload, ranks, arguments, platform, checkpoint options, scenario kind)
 * and, once the failure-free completion time T of that configuration is
 * known, a failure scenario. Pure: no I/O, no clock, no global state; the
 * same seed gives the same draws on every machine. */
#ifndef FT_CLI_SOAK_DRAW_H
#define FT_CLI_SOAK_DRAW_H

#include <stddef.h>
#include <stdint.h>

/* What a run's scenario aims at (issue 13's list). */
enum ft_soak_kind {
  FT_SOAK_UNIFORM,   /* 1 to 4 failures at uniform times over [0, T) */
  FT_SOAK_END,       /* one in the last 5% of the run, [0.95 T, T) */
  FT_SOAK_AFTER_END, /* one after the end, [T, 1.5 T) */
  FT_SOAK_BURST,     /* 2 to 6 failures within 1 ms */
  FT_SOAK_DETECTION, /* a second failure inside the first's detection */
  FT_SOAK_RESTART,   /* a second failure inside the first's restart */
  FT_SOAK_WAVE,      /* failures just after a wave starts, image_mb > 0 */
  FT_SOAK_REPLAY,    /* a second failure soon after the first's restart */
  FT_SOAK_MTBF,      /* exponential, mean from T/50 to 10 T */
  FT_SOAK_RANK0,     /* 1 to 3 failures of rank 0 */
  FT_SOAK_LAST,      /* 1 to 3 failures of the last rank */
  FT_SOAK_KINDS
};

/* One workload the soak knows: the rank counts it accepts and argument
 * sets that keep a run short (0.05 to 0.3 s of wall time). */
struct ft_soak_app {
  const char *name;
  int nps[4];
  int nnp;
  const char *args[3]; /* space-separated words, "" for none */
  int nargs;
};

/* A run's configuration. Strings are static (tables) or the caller's
 * (protocol). */
struct ft_soak_config {
  uint64_t seed;
  const char *protocol;
  const struct ft_soak_app *app;
  int np;
  const char *args;
  const char *platform;
  enum ft_soak_kind kind;
  double period_frac; /* period = period_frac x T of the `none` run; 0: none */
  double image_mb;    /* 0: no modelled image */
  int service_ranks;  /* 0: ftsim run's default */
  int event_loggers;  /* 0: the default (1) */
};

/* The table of workloads (every program of apps/), `*n` set to its size. */
const struct ft_soak_app *ft_soak_apps(size_t *n);

/* The app named `name` in the table, or NULL. */
const struct ft_soak_app *ft_soak_app_find(const char *name);

/* The name of `kind` ("uniform", "end", "after_end", "burst", ...). */
const char *ft_soak_kind_name(enum ft_soak_kind kind);

/* Draws the configuration of the run `seed`: the protocol is
 * protocols[seed % nprotocols] (so consecutive seeds share the protocols out
 * evenly, and `--protocols P --seed S` alone reproduces run S), the rest
 * comes from a generator seeded with `seed`. `apps` (napps >= 1) are the
 * workloads to draw from, `protocols` (nprotocols >= 1) the protocol names
 * (pessimist and v2 may get event_loggers). */
void ft_soak_draw_config(uint64_t seed, const char *const *protocols,
                         size_t nprotocols,
                         const struct ft_soak_app *const *apps, size_t napps,
                         struct ft_soak_config *out);

/* Writes into `text` (len bytes) the scenario file of configuration `c`
 * for a run whose failure-free completion takes `t` simulated seconds
 * (t > 0) with checkpoints every `period` seconds (0: none). Every rank is
 * below c->np; times >= 0. Returns the number of explicit `fail` lines
 * (an exponential scenario counts 0). */
int ft_soak_draw_scenario(const struct ft_soak_config *c, double t,
                          double period, char *text, size_t len);

/* Writes into `key` (len bytes) the text that names the failure-free run
 * of `c` for the cache: with `reference` the `none` run (app, ranks,
 * arguments, platform), else the protocol's run with its options. */
void ft_soak_config_key(const struct ft_soak_config *c, int reference,
                        char *key, size_t len);

#endif /* FT_CLI_SOAK_DRAW_H */
