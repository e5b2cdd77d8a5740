/* The runtime's summary line, and the one JSON line `ftsim run` prints.
 *
 * At MPI_Finalize the runtime prints on stdout one line
 *   FTSIM_SUMMARY {"protocol":"none","ranks":16,...,"verified":true,...}
 * whose object is flat (no nested objects or arrays). The launcher adds
 * what only it knows by splicing text; this is not a JSON parser. Pure. */
#ifndef FT_CLI_SUMMARY_H
#define FT_CLI_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#define FT_SUMMARY_PREFIX "FTSIM_SUMMARY "

/* What the launcher adds to the runtime's object. */
struct ft_summary_extra {
  const char *platform; /* JSON-escaped here; NULL prints null */
  const char *app;      /* JSON-escaped here; NULL prints null */
  const char *mode;     /* "simulated" or "real" */
  const char *compute;  /* "modelled" or "measured"; NULL prints null */
  double wall_s;        /* wall-clock seconds of the run */
};

/* True when the line (len bytes, no newline) is a summary line: it starts
 * with FT_SUMMARY_PREFIX. */
bool ft_summary_is_line(const char *line, size_t len);

/* Splices `extra` into the summary line `line` (len bytes): the result is
 * the runtime's object with "platform", "app" and "mode" inserted after its
 * first member and "compute" and "wall_s" appended, e.g.
 *   {"protocol":"none","platform":"gige","app":"cg","mode":"simulated",
 *    "ranks":16,...,"compute":"modelled","wall_s":12.345}
 * On success returns a heap string (free it) with no newline. On a malformed
 * line returns NULL with the reason in `err`: "the summary is not a JSON
 * object (it must start with '{' and end with '}')", "the summary has an
 * unterminated string". */
char *ft_summary_splice(const char *line, size_t len,
                        const struct ft_summary_extra *extra, char *err,
                        size_t errlen);

/* Reads the top-level "verified" member of a (spliced or raw) object text:
 * 1 for true, 0 for false, -1 when absent or neither. */
int ft_summary_verified(const char *json);

/* Reads the top-level member `key` (without quotes) of a raw, spliced or
 * FT_SUMMARY_PREFIX-prefixed object text as a non-negative integer, e.g.
 * "waves" or "rollbacks". Returns 0, or -1 when absent or not such an
 * integer (a float such as 2.5 is not). */
int ft_summary_count(const char *json, const char *key,
                     unsigned long long *out);

/* True when the top-level member "outcome" of a raw, spliced or
 * FT_SUMMARY_PREFIX-prefixed object text is "no_progress": the run could
 * not progress and was stopped (README, "Runs that cannot progress");
 * false for "completed", for a summary without the member (older runs)
 * and for a malformed text. */
bool ft_summary_no_progress(const char *json);

#endif /* FT_CLI_SUMMARY_H */
