/* Verdict of a run (see outcome.h). */
#include "outcome.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "summary.h"

static void say(char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends one "ftsim: ...\n" line to msg. */
static void say(char *msg, size_t len, const char *fmt, ...) {
  size_t used = strlen(msg);
  if (used + 1 >= len)
    return;
  int n = snprintf(msg + used, len - used, "ftsim: ");
  if (n < 0 || (size_t)n >= len - used)
    return;
  used += (size_t)n;
  va_list ap;
  va_start(ap, fmt);
  n = vsnprintf(msg + used, len - used, fmt, ap);
  va_end(ap);
  if (n >= 0 && used + (size_t)n + 1 < len)
    strcat(msg + used, "\n");
}

/* Reports every failure; returns true when there was one. */
static bool report_failures(const struct ft_outcome *o, char *msg, size_t len) {
  bool failed = false;
  if (o->deadlock) {
    say(msg, len, "simulation deadlocked (SimGrid said \"Deadlock detected\")");
    failed = true;
  }
  if (!o->exited) {
    say(msg, len, "%s was killed by signal %d", o->launcher, o->status);
    failed = true;
  } else if (o->status != 0) {
    say(msg, len, "%s exited with status %d", o->launcher, o->status);
    failed = true;
  }
  if (!o->summary) {
    say(msg, len,
        "the run printed no summary (no stdout line starting with "
        "\"%s\")",
        FT_SUMMARY_PREFIX);
    failed = true;
  } else if (o->malformed) {
    say(msg, len, "malformed summary line: %s", o->malformed);
    failed = true;
  }
  return failed;
}

enum ft_exit ft_outcome_judge(const struct ft_outcome *o, char *msg,
                              size_t len) {
  if (len)
    msg[0] = '\0';
  if (report_failures(o, msg, len))
    return FT_EXIT_FAILED;
  if (o->no_progress) {
    say(msg, len,
        "the run could not progress and was stopped "
        "(\"outcome\":\"no_progress\")");
    return FT_EXIT_NO_PROGRESS;
  }
  if (o->verified == 0) {
    say(msg, len, "the result was not verified (\"verified\":false)");
    return FT_EXIT_UNVERIFIED;
  }
  return FT_EXIT_OK;
}
