/* The verdict of one `ftsim soak` run, from what its `ftsim run` and
 * `ftsim check` steps left behind. Pure. */
#ifndef FT_CLI_SOAK_JUDGE_H
#define FT_CLI_SOAK_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

/* Outcomes, accepted first. */
enum ft_soak_verdict {
  FT_SOAK_PASS,        /* exit 0, verified, right result, trace checked */
  FT_SOAK_NO_PROGRESS, /* the documented no-progress outcome (accepted) */
  FT_SOAK_HANG,        /* past the wall-clock time-out, killed */
  FT_SOAK_DEADLOCK,    /* SimGrid said "Deadlock detected" */
  FT_SOAK_CRASH,       /* killed by a signal, or the launcher failed */
  FT_SOAK_NO_SUMMARY,  /* no (or a malformed) summary line */
  FT_SOAK_UNVERIFIED,  /* "verified":false (or not true) */
  FT_SOAK_WRONG,       /* result differs from the failure-free one */
  FT_SOAK_CHECK,       /* ftsim check rejected the trace */
  FT_SOAK_USAGE,       /* ftsim run refused the drawn arguments (exit 2) */
  FT_SOAK_FAILED,      /* any other non-zero exit */
  FT_SOAK_VERDICTS
};

/* What one `ftsim run` step did. */
struct ft_soak_step {
  bool timed_out;     /* killed after the time-out */
  bool exited;        /* exited (else killed by signal `status`) */
  int status;         /* exit status or signal */
  const char *json;   /* its last stdout line starting with '{', or NULL */
  const char *errors; /* its "ftsim: ..." stderr lines, or NULL */
};

/* The one place that says which outcome counts as "no progress": a summary
 * with "outcome":"no_progress", whatever the exit status (the field and its
 * own exit status are being added to the runtime; adjust here once they
 * are on main). */
bool ft_soak_no_progress(const char *json);

/* Judges a run step. `want` is the failure-free result to compare the
 * `result` member with (NULL: no comparison). Writes a one-line reason
 * into `why` (len bytes; empty on a pass). */
enum ft_soak_verdict ft_soak_judge_run(const struct ft_soak_step *s,
                                       const char *want, char *why, size_t len);

/* Judges an `ftsim check` step: exit 0 passes; a time-out is a hang;
 * anything else FT_SOAK_CHECK with `first_line` (its output's first line,
 * may be NULL) in `why`. */
enum ft_soak_verdict ft_soak_judge_check(const struct ft_soak_step *s,
                                         const char *first_line, char *why,
                                         size_t len);

/* True for the outcomes that are not defects. */
bool ft_soak_accepted(enum ft_soak_verdict v);

/* The name of `v` ("pass", "no_progress", "hang", "deadlock", ...). */
const char *ft_soak_verdict_name(enum ft_soak_verdict v);

#endif /* FT_CLI_SOAK_JUDGE_H */
