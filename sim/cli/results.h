/* The results CSV of a sweep: its columns, writing one row per point, and
 * reading a whole file back (for resuming a sweep and for analysis).
 * Pure apart from the FILE* it is given and ft_results_load's read.
 *
 * Columns (in this order; the header row names them):
 *   parameters: protocol, platform, app, ranks, servers, period_s, mtbf_s
 *     ("none": no failure; empty for a trace point), trace ("FMT:PATH" or
 *     empty), seed, image_mb, detection_s, restart_s, app_args
 *   outcome: status (ftsim run's exit status: 0 ok, 1 failed, 2 usage, 3
 *     unverified, 4 no progress; -1 killed by the sweep's timeout), outcome
 *     (ok, failed, usage, unverified, no_progress, timeout)
 *   figures from the run's summary (empty when it printed none): verified,
 *     completion_time_s, waves, failures, rollbacks, ckpt_bytes,
 *     lost_work_s, recovery_s, messages, bytes, service_ranks,
 *     channel_msgs, replayed_msgs (Vcl's recorded and replayed channel
 *     state; empty for a protocol whose summary has none), wall_s */
#ifndef FT_CLI_RESULTS_H
#define FT_CLI_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "provenance.h"

enum ft_col {
  FT_COL_PROTOCOL,
  FT_COL_PLATFORM,
  FT_COL_APP,
  FT_COL_RANKS,
  FT_COL_SERVERS,
  FT_COL_PERIOD,
  FT_COL_MTBF,
  FT_COL_TRACE,
  FT_COL_SEED,
  FT_COL_IMAGE_MB,
  FT_COL_DETECTION,
  FT_COL_RESTART,
  FT_COL_APP_ARGS,
  FT_COL_STATUS,
  FT_COL_OUTCOME,
  FT_COL_VERIFIED,
  FT_COL_COMPLETION,
  FT_COL_WAVES,
  FT_COL_FAILURES,
  FT_COL_ROLLBACKS,
  FT_COL_CKPT_BYTES,
  FT_COL_LOST_WORK,
  FT_COL_RECOVERY,
  FT_COL_MESSAGES,
  FT_COL_BYTES,
  FT_COL_SERVICE_RANKS,
  FT_COL_CHANNEL_MSGS,
  FT_COL_REPLAYED_MSGS,
  FT_COL_WALL,
  FT_COL_COUNT
};

/* Parameter columns identify a point: FT_COL_PROTOCOL .. FT_COL_APP_ARGS. */
#define FT_COL_NPARAMS (FT_COL_APP_ARGS + 1)
/* Summary figures: FT_COL_VERIFIED .. FT_COL_WALL. */
#define FT_COL_FIRST_FIGURE FT_COL_VERIFIED

/* One row: every cell as text (NULL never; "" when empty). */
struct ft_row {
  char *cell[FT_COL_COUNT];
  int line; /* line of the file, for messages */
};

struct ft_results {
  struct ft_row *rows;
  size_t count, cap;
  struct ft_provenance prov; /* from the comment lines before the header */
};

/* The column's header name ("completion_time_s"). */
const char *ft_col_name(enum ft_col c);

/* The JSON member of the run's summary a figure comes from ("waves"), or
 * NULL for a parameter or outcome column. */
const char *ft_col_json(enum ft_col c);

/* Writes the header row, '\n' terminated. */
void ft_results_header(FILE *out);

/* Writes one row (cells[c] for every column, NULL as empty), '\n'
 * terminated, every cell quoted as needed (csv.h). */
void ft_results_row(FILE *out, char *const cells[FT_COL_COUNT]);

/* The key of a row: its parameter cells joined with '\x1f' into `out`
 * (len bytes); two rows are the same point when their keys are equal. */
void ft_results_key(char *const *cells, char *out, size_t len);

/* Parses CSV text [text, text + len) named `name` (messages): comment
 * lines starting with '#' (the provenance, provenance.h: read into
 * out->prov, any other comment skipped), then a header with exactly the
 * columns above, in order, then rows (a '#' line after the header is a
 * row, and an error). Line numbers count every line. Rows are appended to
 * `out` (start it zeroed). Returns 0, or -1 with "NAME:1: field 'header':
 * expected the columns of ftsim sweep (protocol,platform,...), got 'x,y'"
 *   "NAME:LINE: expected 29 fields, got 5"
 *   "NAME:LINE: field 'ranks': expected an integer >= 1, got 'x'"
 *   "NAME:LINE: field 'completion_time_s': expected a decimal number >= 0,
 *    got '-1'" (every number column: no negative, NaN, inf or hex)
 *   "NAME:LINE: malformed CSV: unterminated quoted field".
 * `complete` (may be NULL) receives the length of the text up to the end
 * of its last '\n'-terminated line; a last line without '\n' (a row cut
 * short by a crash) is not parsed: the caller drops it. */
int ft_results_parse(const char *text, size_t len, const char *name,
                     struct ft_results *out, size_t *complete, char *err,
                     size_t errlen);

/* Reads and parses the file `path` (at most 256 MiB). Errors as
 * ft_results_parse, plus "PATH: cannot read: <strerror>" and "PATH:1:
 * field 'header': empty file" (a sweep's CSV always has its header). A missing
 * final
 * '\n' is reported with `*partial` (may be NULL) set to true. */
int ft_results_load(const char *path, struct ft_results *out, bool *partial,
                    char *err, size_t errlen);

/* Drops every row whose parameters and seed (ft_results_key) an earlier
 * row already has: the first row of a point stands, as when a sweep
 * resumes (a point with a row is not run again). Writes one line per
 * dropped row to `warn` (may be NULL): "ftsim: warning: NAME:LINE: same
 * point and seed as line L: row ignored". Returns the number dropped. */
size_t ft_results_dedup(struct ft_results *r, const char *name, FILE *warn);

/* Frees every row; leaves `r` empty. */
void ft_results_free(struct ft_results *r);

/* Reads the top-level member `key` of a flat JSON object `json`: writes
 * its value into `out` (strings without their quotes and unescaped only
 * for \" and \\) and returns 0, or returns -1 when absent. */
int ft_json_member(const char *json, const char *key, char *out, size_t len);

#endif /* FT_CLI_RESULTS_H */
