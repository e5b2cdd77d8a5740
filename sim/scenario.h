/* Failure scenarios: a scenario file, parsed, and the stream of failures it
 * describes (explicit ones and ones drawn from a distribution, merged in
 * time order).
 *
 * Pure C11: no MPI, no SimGrid, no clock, no global mutable state. Parsing
 * allocates the list of explicit failures (freed by ft_scenario_free); the
 * failure stream allocates nothing. Randomness comes from a seeded
 * xoshiro256** generator inside the stream, so a scenario and a number of
 * ranks always give the same failures (given the same libm: log1p, pow).
 *
 * The format (scenarios/README.md has the full text): one directive per
 * line, words separated by blanks, '#' starts a comment, times in seconds
 * after the run starts:
 *   seed 42             generator seed (uint64), default 1
 *   detection 0.5       failure -> detection by the others, default 0
 *   restart 2.0         time to restart a failed process, default 0
 *   fail 3 at 12.5      application rank 3 fails at 12.5 s
 *   exponential 120     drawn failures, exponential inter-arrivals (MTBF)
 *   weibull 0.7 100     drawn failures, Weibull inter-arrivals (shape, scale)
 *   max_failures 10     at most 10 drawn failures, default unlimited
 *   until 500           no drawn failure after 500 s, default unlimited
 *   trace lanl FILE     failures read from a trace (failure_trace.h): lanl
 *                       or fta; FILE relative to the scenario's directory
 *   trace_scale 1e-5    simulated seconds per trace second, default 1
 *   trace_shift 0.01    simulated time of the trace's first failure, def. 0
 *   trace_system 20     only this system (LANL System, FTA platform_id)
 *   trace_map modulo    node k -> rank k mod ranks (default), or "first":
 *                       rank k for k < ranks, other nodes dropped */
#ifndef FT_SCENARIO_H
#define FT_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "failure_trace.h"

#define FT_SCENARIO_MAX_FAILS 4096      /* explicit failures per file */
#define FT_SCENARIO_MAX_BYTES (1 << 20) /* size of a scenario file */
#define FT_SCENARIO_NAME_LEN 256        /* name kept for messages */
#define FT_SCENARIO_PATH_LEN 4096       /* trace file path */

/* How failures beyond the explicit ones are drawn. */
enum ft_distribution {
  FT_DIST_NONE,        /* no drawn failure */
  FT_DIST_EXPONENTIAL, /* inter-arrival times Exp(mean) */
  FT_DIST_WEIBULL,     /* inter-arrival times Weibull(shape, scale) */
};

/* One explicit failure of the file ("fail RANK at TIME" on line `line`). */
struct ft_scenario_fail {
  double time; /* seconds after the run starts, >= 0 */
  int rank;    /* application rank, >= 0 */
  int line;    /* 1-based line of the file, for messages */
};

struct ft_scenario {
  char name[FT_SCENARIO_NAME_LEN]; /* file name used in messages */
  uint64_t seed;                   /* default 1 */
  double detection_s;              /* failure -> detection; default 0 */
  double restart_s;                /* restart of a failed rank; default 0 */
  enum ft_distribution dist;       /* default FT_DIST_NONE */
  double mean_s;                   /* exponential: mean inter-arrival > 0 */
  double shape;                    /* weibull: shape > 0 */
  double scale_s;                  /* weibull: scale > 0 */
  int max_failures;                /* cap on drawn failures; -1: none */
  double until_s; /* no drawn failure after this; HUGE_VAL: none */
  struct ft_scenario_fail *fails; /* explicit failures, sorted by time,
                                     equal times in file order */
  size_t nfails;
  /* "trace": failures of a failure trace, loaded when parsing ends. */
  char trace_path[FT_SCENARIO_PATH_LEN]; /* as resolved; "" for none */
  enum ft_trace_format trace_format;
  double trace_scale;          /* simulated s per trace s; default 1 */
  double trace_shift;          /* time of the first trace failure; 0 */
  long trace_system;           /* -1: every system */
  enum ft_trace_map trace_map; /* default FT_TRACE_MAP_MODULO */
  struct ft_trace trace;       /* the loaded trace (empty without one) */
};

/* One failure of the stream. */
struct ft_failure {
  double time; /* seconds after the run starts */
  int rank;    /* application rank that fails */
};

/* The failures of one scenario, in time order. Plain data: copy it to
 * replay the rest of the stream. Refers to its scenario, which must outlive
 * it and not change. */
struct ft_failure_stream {
  const struct ft_scenario *s;
  int ranks;         /* victims of drawn failures: [0, ranks) */
  size_t next_fail;  /* next explicit failure, index into s->fails */
  size_t next_trace; /* next trace failure, index into s->trace.events */
  uint64_t rng[4];   /* xoshiro256** state, seeded from s->seed */
  double clock;      /* time of the last drawn failure */
  int drawn;         /* drawn failures handed out so far */
  bool have_drawn;   /* `pending` holds the next drawn failure */
  struct ft_failure pending;
};

/* Sets `out` to the empty scenario (every default, no failure) named
 * `name` (NULL: "scenario"). Allocates nothing. */
void ft_scenario_defaults(struct ft_scenario *out, const char *name);

/* Parses the scenario text `text` (NUL-terminated) into `out`, which it
 * overwrites without freeing (call ft_scenario_free on a previous content
 * first). `name` (NULL: "scenario") names the text in messages. Returns 0,
 * or -1 with `out` left empty (nothing to free) and a message in `err`
 * (errlen bytes, always terminated when errlen > 0), one of
 *   "NAME:LINE: field 'FIELD': what is wrong", e.g.
 *     "s.txt:4: field 'at': time must be a number >= 0, got '-3'"
 *     "s.txt:2: field 'seed': given twice (first on line 1)"
 *     "s.txt:5: field 'weibull': only one distribution per scenario
 *      (exponential on line 3)"
 *   "NAME:LINE: unknown directive 'fial' (known: seed, detection, ...)"
 *   "NAME:LINE: line longer than 1023 bytes (comments excepted)".
 * Numbers are read with strtod/strtoull in the C locale's format (the
 * whole word, finite, no NaN). A single-valued directive given twice is an
 * error; "fail" may be repeated up to FT_SCENARIO_MAX_FAILS times.
 * A "trace" directive loads its file once the text is parsed (a relative
 * path is taken from the directory of `name`), with the trace's own
 * messages ("trace.csv:7: field 'Prob Started': ...") prefixed by
 * "NAME:LINE: field 'trace': ". */
int ft_scenario_parse(const char *text, const char *name,
                      struct ft_scenario *out, char *err, size_t errlen);

/* Reads the file `path` (at most FT_SCENARIO_MAX_BYTES) and parses it,
 * with `path` as its name in messages. Errors as ft_scenario_parse, plus
 *   "PATH: cannot read: No such file or directory" (strerror)
 *   "PATH: larger than 1048576 bytes"
 *   "PATH: not a text file (NUL byte at offset 12)". */
int ft_scenario_load(const char *path, struct ft_scenario *out, char *err,
                     size_t errlen);

/* Checks `s` against an application of `ranks` ranks: every explicit
 * failure must name a rank in [0, ranks). Returns 0, or -1 with e.g.
 *   "s.txt:3: field 'rank': rank 9 is outside the application (8 ranks)"
 * (the first offending failure in time order). */
int ft_scenario_check(const struct ft_scenario *s, int ranks, char *err,
                      size_t errlen);

/* Frees what parsing allocated and leaves `s` empty; safe on an empty or
 * zeroed scenario, and twice. */
void ft_scenario_free(struct ft_scenario *s);

/* Starts the stream of `s`'s failures for `ranks` application ranks
 * (drawn failures need ranks >= 1; with ranks < 1 there are none). Drawn
 * failures do not depend on the explicit ones: the time between two drawn
 * failures is sampled by inverse transform from u in [0, 1) (53 bits):
 *   exponential: -mean * ln(1 - u);  Weibull: scale * (-ln(1 - u))^(1/shape)
 * and the victim uniformly in [0, ranks). */
void ft_failures_start(struct ft_failure_stream *st,
                       const struct ft_scenario *s, int ranks);

/* Writes the next failure into `out` and returns 1, or returns 0 when none
 * is left. Failures come in time order, explicit and drawn merged (equal
 * times: explicit, then trace, then drawn). Drawn failures stop after
 * max_failures of them, after until_s, or when time overflows; with a
 * distribution and neither cap the stream never ends: the caller stops reading
 * past its run. */
int ft_failures_next(struct ft_failure_stream *st, struct ft_failure *out);

/* The failure number `n` (0-based) of `s`'s stream for `ranks` ranks, as
 * ft_failures_next gives them: writes it into `out` and returns 1, or
 * returns 0 when the stream has fewer (or n < 0). Reference mode's kill
 * failures (README, "Real failures"): launch n of a run ends at failure
 * n, and its time 0 is failure n - 1's time. */
int ft_failures_nth(const struct ft_scenario *s, int ranks, int n,
                    struct ft_failure *out);

/* Loads the scenario `path` for `ranks` ranks and finds launch
 * `relaunch`'s span: *origin, the run time at which it starts (failure
 * relaunch - 1's time, 0 for launch 0), and *ends, the failure that ends
 * it (failure number `relaunch`). Returns 1 when such a failure exists, 0
 * when the launch runs to the end (no more failures, or path ""), -1 when
 * the scenario cannot be read or has fewer than `relaunch` failures
 * (message in err). */
int ft_failures_span(const char *path, int ranks, int relaunch, double *origin,
                     struct ft_failure *ends, char *err, size_t errlen);

#endif /* FT_SCENARIO_H */
