/* The verdict of a run: ftsim's exit status and what to say on stderr.
 * Pure. */
#ifndef FT_CLI_OUTCOME_H
#define FT_CLI_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

/* Exit statuses of `ftsim` (documented in `ftsim run --help`). */
enum ft_exit {
  FT_EXIT_OK = 0,          /* success, result verified (or not verifying) */
  FT_EXIT_FAILED = 1,      /* the run failed */
  FT_EXIT_USAGE = 2,       /* bad arguments, options, platform or app */
  FT_EXIT_UNVERIFIED = 3,  /* completed, but "verified":false */
  FT_EXIT_NO_PROGRESS = 4, /* stopped: "outcome":"no_progress" */
};

/* What was observed while the launcher ran. */
struct ft_outcome {
  const char *launcher;  /* "smpirun" or "mpirun", for messages */
  bool exited;           /* the launcher exited (rather than was killed) */
  int status;            /* its exit status, or the signal that killed it */
  bool deadlock;         /* "Deadlock detected" appeared in its output */
  bool summary;          /* a summary line came */
  const char *malformed; /* why the summary line is unusable, or NULL */
  int verified;          /* ft_summary_verified of the summary, or -1 */
  bool no_progress;      /* ft_summary_no_progress of the summary */
};

/* Returns the exit status for `o` and writes into `msg` (len bytes) the
 * lines to print on stderr, each "ftsim: ...\n" (empty when all is well):
 *   "ftsim: smpirun exited with status 134"
 *   "ftsim: smpirun was killed by signal 9"
 *   "ftsim: simulation deadlocked (SimGrid said \"Deadlock detected\")"
 *   "ftsim: the run printed no summary (no stdout line starting with
 *    \"FTSIM_SUMMARY \")"
 *   "ftsim: malformed summary line: <why>"
 *   "ftsim: the result was not verified (\"verified\":false)"
 *   "ftsim: the run could not progress and was stopped
 *    (\"outcome\":\"no_progress\")"
 * Any failure gives FT_EXIT_FAILED; else a stopped run gives
 * FT_EXIT_NO_PROGRESS; else "verified":false gives FT_EXIT_UNVERIFIED; else
 * FT_EXIT_OK. */
enum ft_exit ft_outcome_judge(const struct ft_outcome *o, char *msg,
                              size_t len);

#endif /* FT_CLI_OUTCOME_H */
