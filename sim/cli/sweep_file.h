/* Sweep files: a grid of simulations (protocols x platforms x apps x ranks
 * x servers x periods x failure sources x seeds) and the settings every
 * point shares. Pure: parses text, no I/O except ft_sweep_load's read.
 *
 * The format (scenarios/sweep.md has the full text): one directive per
 * line, words separated by blanks, '#' starts a comment. Axes take one or
 * more values, settings exactly one (app_args and set: the rest of the
 * line). Every directive at most once; protocols, platforms, apps, ranks
 * are required.
 *   protocols none pcl     platforms gige     apps cg     ranks 16 64
 *   servers 1 2            periods 0.01 0.02  seeds 1 2 3
 *   mtbfs none 0.1 0.2     (system MTBF in simulated seconds; none: no
 *                           failure)
 *   traces lanl:FILE fta:FILE   (failure traces, paths relative to the
 *                                sweep file)
 *   image_mb 1  detection 0.001  restart 0.01  max_failures 50  until 10
 *   trace_scale 1e-5  trace_shift 0.01  trace_system 20  trace_map modulo
 *   timeout 600            (wall seconds per point; 0: none)
 *   compute measured       (ftsim run --compute: auto, modelled, measured)
 *   max_time 10            (simulated seconds after which a point of a
 *                           protocol that recovers is stopped, outcome
 *                           no_progress; 0: none)
 *   app_args --iters 200 --tol 0
 *   set key=value ...      (more FTSIM_OPTIONS for every point) */
#ifndef FT_CLI_SWEEP_FILE_H
#define FT_CLI_SWEEP_FILE_H

#include <stddef.h>

#include "strv.h"

#define FT_SWEEP_MAX_BYTES (1 << 20)
#define FT_SWEEP_NAME_LEN 4096
/* Points of one sweep at most: a million runs is beyond any machine this
 * runs on, and a larger grid is most likely a typo (one axis too many). */
#define FT_SWEEP_MAX_POINTS 1000000

/* The axes, in the order of the CSV columns and of the grid's loops. */
enum ft_sweep_axis {
  FT_AXIS_PROTOCOL,
  FT_AXIS_PLATFORM,
  FT_AXIS_APP,
  FT_AXIS_RANKS,
  FT_AXIS_SERVERS,
  FT_AXIS_PERIOD,
  FT_AXIS_MTBF,
  FT_AXIS_TRACE,
  FT_AXIS_SEED,
  FT_AXIS_COUNT
};

/* Settings shared by every point, as text (validated when parsed). */
enum ft_sweep_setting {
  FT_SET_IMAGE_MB,
  FT_SET_DETECTION,
  FT_SET_RESTART,
  FT_SET_MAX_FAILURES,
  FT_SET_UNTIL,
  FT_SET_TRACE_SCALE,
  FT_SET_TRACE_SHIFT,
  FT_SET_TRACE_SYSTEM,
  FT_SET_TRACE_MAP,
  FT_SET_TIMEOUT,
  FT_SET_COMPUTE,
  FT_SET_MAX_TIME,
  FT_SET_APP_ARGS,
  FT_SET_COUNT
};

struct ft_sweep {
  char name[FT_SWEEP_NAME_LEN];       /* the file, for messages */
  char dir[FT_SWEEP_NAME_LEN];        /* its directory, for relative traces */
  struct ft_strv axis[FT_AXIS_COUNT]; /* values; traces "lanl:/abs/path" */
  int axis_line[FT_AXIS_COUNT];       /* line of each axis, 0: absent */
  char *setting[FT_SET_COUNT];        /* NULL: not given (defaults below) */
  struct ft_strv sets;                /* "key=value" of `set` */
  struct ft_strv app_args;            /* app_args split into words */
};

/* Default values of settings that are not given. */
#define FT_SWEEP_DEFAULT_SERVERS "1"
#define FT_SWEEP_DEFAULT_PERIOD "0"
#define FT_SWEEP_DEFAULT_SEED "1"
#define FT_SWEEP_DEFAULT_TIMEOUT 600.0

/* The directive name of an axis or a setting ("protocols", "image_mb"). */
const char *ft_sweep_axis_name(enum ft_sweep_axis a);
const char *ft_sweep_setting_name(enum ft_sweep_setting s);

/* Parses the sweep text `text` (NUL-terminated) named `name` (used for
 * messages and, through its directory, for relative trace paths) into
 * `out`. Returns 0, or -1 with `out` empty and a message in `err`:
 *   "NAME:LINE: field 'FIELD': what is wrong", e.g.
 *     "s.txt:3: field 'ranks': expected integers >= 1, got '0'"
 *     "s.txt:2: field 'protocols': unknown protocol 'vcx' (known: none, pcl)"
 *     "s.txt:5: field 'mtbfs': given twice (first on line 4)"
 *     "s.txt:4: field 'traces': expected lanl:FILE or fta:FILE, got 'x'"
 *   "NAME:LINE: unknown directive 'rank' (known: protocols, ...)"
 *   "NAME: field 'apps': missing (required: protocols, platforms, apps,
 *    ranks)"
 *   "NAME:LINE: field 'set': unknown key 'foo' (known: protocol, ...)"
 *   "NAME:LINE: field 'set': period is set for each point by the periods
 *    axis, got 'period=1'"
 *   "NAME:LINE: field 'set': protocol pessimist with servers 1:
 *    event_loggers=3 but service_ranks=1: ..." (ft_options_check)
 *   "NAME: the grid has 10000000 points (10 ranks x ...), more than the
 *    limit of 1000000: split it into several sweep files"
 * Every number is decimal (options.h ft_parse_double); times are at most
 * FT_TIME_MAX_S. Unless `check_traces` is 0, every trace file is parsed,
 * its errors reported as "NAME:LINE: field 'traces': <trace message>". */
int ft_sweep_parse(const char *text, const char *name, int check_traces,
                   struct ft_sweep *out, char *err, size_t errlen);

/* Reads the file `path` (at most FT_SWEEP_MAX_BYTES) and parses it.
 * Errors as ft_sweep_parse, plus "PATH: cannot read: <strerror>". */
int ft_sweep_load(const char *path, struct ft_sweep *out, char *err,
                  size_t errlen);

/* The number of points ft_points_expand makes of `s` (sweep_points.h),
 * computed without making them; SIZE_MAX when it does not fit. */
size_t ft_sweep_points_count(const struct ft_sweep *s);

/* A setting's text, or `def` when it was not given. */
const char *ft_sweep_get(const struct ft_sweep *s, enum ft_sweep_setting k,
                         const char *def);

/* Frees everything and leaves `s` empty; safe twice. */
void ft_sweep_free(struct ft_sweep *s);

#endif /* FT_CLI_SWEEP_FILE_H */
