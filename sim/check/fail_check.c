/* A failed rank acts no more (see fail_check.h). */
#include "fail_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One record's head: "TIME RANK INC KIND ...". */
struct head {
  double time;
  int rank, inc;
  char kind[16];
};

static int read_head(const char *buf, struct head *h) {
  return buf[0] != '#' && sscanf(buf, "%lf %d %d %15s", &h->time, &h->rank,
                                 &h->inc, h->kind) == 4;
}

/* Records that begin a victim's next life, or end its file. */
static int next_life(const char *kind) {
  return !strcmp(kind, "rollback") || !strcmp(kind, "restart") ||
         !strcmp(kind, "end");
}

static enum ft_check_status set(struct ft_check_result *res,
                                enum ft_check_status st, const char *kind,
                                const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum ft_check_status set(struct ft_check_result *res,
                                enum ft_check_status st, const char *kind,
                                const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->message, sizeof res->message, fmt, ap);
  va_end(ap);
  res->kind = kind;
  return res->status = st;
}

/* The victim's records after `when` and before its next life: the first
 * and the last (line numbers, 0: none). */
struct acts {
  long first, last;
  struct head first_head, last_head;
};

/* Under a real MPI a rank looks at the clock, then acts, and its record is
 * stamped after: the operating system may run something else in between.
 * Records up to this long after the failure are the victim's last acts
 * begun before it (e2e/real_pcl_recovery_np3: a 'ctl-send' stamped 0.8 us
 * after the failure time, on a loaded host). */
#define REAL_CLOCK_SLACK_S 0.01

/* REAL_CLOCK_SLACK_S if the file's header says " mode real", else 0. */
static double slack_of(FILE *f) {
  char buf[512];
  if (!fgets(buf, sizeof buf, f))
    return 0;
  if (strncmp(buf, "# ftsim-trace", 13) != 0) {
    rewind(f); /* no header: every line is a record */
    return 0;
  }
  return strstr(buf, " mode real") ? REAL_CLOCK_SLACK_S : 0;
}

static int scan_victim(FILE *f, double when, double until, struct acts *a) {
  char buf[512];
  long line = 0;
  struct head h;
  memset(a, 0, sizeof *a);
  while (fgets(buf, sizeof buf, f)) {
    line++;
    if (!read_head(buf, &h) || !(h.time > when))
      continue;
    if (next_life(h.kind) || !(h.time < until))
      break;
    if (!a->first) {
      a->first = line;
      a->first_head = h;
    }
    a->last = line;
    a->last_head = h;
  }
  return 0;
}

/* Checks the failure of `victim` at `when` (line `at` of `disp`). */
static enum ft_check_status check_one(const char *prefix, const char *disp,
                                      long at, int victim, double when,
                                      double until,
                                      struct ft_check_result *res) {
  char name[1100];
  snprintf(name, sizeof name, "%s.%d", prefix, victim);
  FILE *f = fopen(name, "r");
  if (!f)
    return set(res, FT_CHECK_MALFORMED, "", "%.900s: cannot open: %s", name,
               strerror(errno));
  struct acts a;
  scan_victim(f, when + slack_of(f), until, &a);
  fclose(f);
  if (!a.first)
    return FT_CHECK_OK;
  return set(res, FT_CHECK_VIOLATION, "after-failure",
             "rank %d failed at %.9f (%s:%ld) but acted after: '%s' at %.9f "
             "(%s:%ld), %.9f s after its failure, the last ('%s') at %.9f "
             "(%s:%ld, %.9f s after), before its replacement starts",
             victim, when, disp, at, a.first_head.kind, a.first_head.time, name,
             a.first, a.first_head.time - when, a.last_head.kind,
             a.last_head.time, name, a.last, a.last_head.time - when);
}

enum ft_check_status ft_check_failures(const char *prefix, int ranks,
                                       struct ft_check_result *res) {
  char disp[1100], buf[512];
  snprintf(disp, sizeof disp, "%s.%d", prefix, ranks);
  FILE *f = fopen(disp, "r");
  if (!f)
    return FT_CHECK_OK; /* the dispatcher wrote no record */
  long line = 0;
  enum ft_check_status st = FT_CHECK_OK;
  struct head h;
  while (st == FT_CHECK_OK && fgets(buf, sizeof buf, f)) {
    line++;
    int victim;
    double until;
    if (!read_head(buf, &h) || strcmp(h.kind, "fail") != 0)
      continue;
    if (sscanf(buf, "%*f %*d %*d %*s %d %lf", &victim, &until) != 2 ||
        victim < 0 || victim >= ranks)
      st = set(res, FT_CHECK_MALFORMED, "",
               "%.900s:%ld: field 'rank': expected an application rank in "
               "[0, %d), then the time its replacement starts",
               disp, line, ranks);
    else
      st = check_one(prefix, disp, line, victim, h.time, until, res);
  }
  fclose(f);
  return st;
}
