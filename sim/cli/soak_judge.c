/* Verdicts of `ftsim soak` (see soak_judge.h). */
#include "soak_judge.h"

#include <stdio.h>
#include <string.h>

#include "results.h"

static const char *const names[FT_SOAK_VERDICTS] = {
    "pass",       "no_progress",  "hang",  "deadlock", "crash", "no_summary",
    "unverified", "wrong_result", "check", "usage",    "failed"};

const char *ft_soak_verdict_name(enum ft_soak_verdict v) {
  return v >= 0 && v < FT_SOAK_VERDICTS ? names[v] : "?";
}

bool ft_soak_accepted(enum ft_soak_verdict v) {
  return v == FT_SOAK_PASS || v == FT_SOAK_NO_PROGRESS;
}

bool ft_soak_no_progress(const char *json) {
  char value[64];
  return json && ft_json_member(json, "outcome", value, sizeof value) == 0 &&
         strcmp(value, "no_progress") == 0;
}

/* How the runtime's dispatcher ends a livelocked run (max_quiet). */
#define LIVELOCKED                                                             \
  "ftsim: the dispatcher heard nothing from any application rank"

static bool said(const struct ft_soak_step *s, const char *text) {
  return s->errors && strstr(s->errors, text);
}

/* The verdicts that do not need the summary. */
static enum ft_soak_verdict judge_process(const struct ft_soak_step *s,
                                          char *why, size_t len) {
  if (s->timed_out) {
    snprintf(why, len, "still running after the time-out: killed");
    return FT_SOAK_HANG;
  }
  if (said(s, LIVELOCKED)) { /* max_quiet: the dispatcher's (service.c) */
    snprintf(why, len, "%.300s", strstr(s->errors, LIVELOCKED) + 7);
    why[strcspn(why, "\n")] = '\0';
    return FT_SOAK_HANG;
  }
  if (ft_soak_no_progress(s->json))
    return FT_SOAK_NO_PROGRESS;
  if (!s->exited) {
    snprintf(why, len, "ftsim run was killed by signal %d", s->status);
    return FT_SOAK_CRASH;
  }
  if (s->status == 2) {
    snprintf(why, len, "ftsim run refused its arguments (exit 2)");
    return FT_SOAK_USAGE;
  }
  if (said(s, "Deadlock detected") || said(s, "simulation deadlocked")) {
    snprintf(why, len, "simulation deadlocked (exit %d)", s->status);
    return FT_SOAK_DEADLOCK;
  }
  if (said(s, "exited with status") || said(s, "was killed by signal")) {
    const char *p = strstr(s->errors, "ftsim: ");
    snprintf(why, len, "%.200s", p ? p + 7 : s->errors);
    char *nl = strchr(why, '\n');
    if (nl)
      *nl = '\0';
    return FT_SOAK_CRASH;
  }
  return FT_SOAK_PASS;
}

enum ft_soak_verdict ft_soak_judge_run(const struct ft_soak_step *s,
                                       const char *want, char *why,
                                       size_t len) {
  char value[256];
  if (len)
    why[0] = '\0';
  enum ft_soak_verdict v = judge_process(s, why, len);
  if (v != FT_SOAK_PASS)
    return v;
  if (!s->json || ft_json_member(s->json, "verified", value, sizeof value)) {
    snprintf(why, len, "no summary line (exit %d)", s->status);
    return FT_SOAK_NO_SUMMARY;
  }
  if (s->status == 3 || strcmp(value, "true") != 0) {
    snprintf(why, len, "\"verified\":%s (exit %d)", value, s->status);
    return FT_SOAK_UNVERIFIED;
  }
  if (s->status != 0) {
    snprintf(why, len, "ftsim run exited %d", s->status);
    return FT_SOAK_FAILED;
  }
  if (ft_json_member(s->json, "result", value, sizeof value))
    value[0] = '\0';
  if (want && strcmp(value, want) != 0) {
    snprintf(why, len, "result %s instead of %s", value, want);
    return FT_SOAK_WRONG;
  }
  return FT_SOAK_PASS;
}

enum ft_soak_verdict ft_soak_judge_check(const struct ft_soak_step *s,
                                         const char *first_line, char *why,
                                         size_t len) {
  if (len)
    why[0] = '\0';
  if (s->timed_out) {
    snprintf(why, len, "ftsim check still running after the time-out");
    return FT_SOAK_HANG;
  }
  if (s->exited && s->status == 0)
    return FT_SOAK_PASS;
  snprintf(why, len, "ftsim check %s %d: %.300s",
           s->exited ? "exited" : "killed by signal", s->status,
           first_line ? first_line : "");
  return FT_SOAK_CHECK;
}
