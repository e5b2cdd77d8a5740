/* The pool of child runs of `ftsim sweep` (see sweep_run.h).
 *
 * Each point runs in a forked child that calls ft_run_main (what `ftsim
 * run` does), in its own process group, with stdout (the JSON line) and
 * stderr in WORKDIR/HASH.out and .log. The parent waits for SIGCHLD (kept
 * blocked, taken with sigtimedwait) or 50 ms: it appends a row as each
 * child ends and starts the next point at once (a slot never waits out a
 * poll interval), kills one that overstays the time-out, and on
 * SIGINT/SIGTERM/SIGHUP kills every running child's group and returns;
 * rows already appended are on disk (fsync). */
#define _POSIX_C_SOURCE 200809L
#include "sweep_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outcome.h"
#include "results.h"
#include "run.h"

#define PATH_LEN 4096
#define KILL_GRACE_S 5.0

/* The signal that asks the sweep to stop: the one piece of global state of
 * the sweep, written only by the handler. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_signals / sizeof *stop_signals)

struct slot {
  pid_t pid; /* 0: free */
  const struct ft_point *point;
  double start, kill_at; /* kill_at: SIGKILL time after a SIGTERM, or 0 */
  bool timed_out;
  char out[PATH_LEN], log[PATH_LEN];
};

struct pool {
  const struct ft_sweep_job *job;
  struct slot *slots;
  size_t next, done, running;
  double start;
  double busy;      /* wall seconds of the points that ended */
  double tail_from; /* when a slot first idled with no point left; 0 */
  bool tty;
  int status; /* 1 when a row could not be written */
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- starting a point */

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fputs(text, f);
  return fclose(f);
}

/* In the child: redirect, then do what `ftsim run ARGS` does. */
static void child(const struct slot *s, struct ft_strv *args) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_UNBLOCK, &chld, NULL); /* blocked in the parent */
  setpgid(0, 0);
  for (size_t i = 0; i < NSTOP; i++)
    signal(stop_signals[i], SIG_DFL);
  int in = open("/dev/null", O_RDONLY);
  int out = open(s->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int err = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || err < 0)
    _exit(FT_EXIT_FAILED);
  dup2(in, 0), dup2(out, 1), dup2(err, 2);
  close(in), close(out), close(err);
  int rc = ft_run_main((int)args->count, args->items);
  fflush(NULL);
  _exit(rc);
}

static int start(struct pool *pl, struct slot *s, const struct ft_point *p) {
  const struct ft_sweep_job *job = pl->job;
  char scen[PATH_LEN], text[8192];
  unsigned long long h = (unsigned long long)ft_point_hash(p);
  snprintf(scen, sizeof scen, "%s/%016llx.scenario", job->workdir, h);
  snprintf(s->out, sizeof s->out, "%s/%016llx.out", job->workdir, h);
  snprintf(s->log, sizeof s->log, "%s/%016llx.log", job->workdir, h);
  bool failures = ft_point_has_failures(p);
  if (failures) {
    ft_point_scenario(job->sweep, p, text, sizeof text);
    if (write_file(scen, text)) {
      fprintf(stderr, "ftsim: cannot write %s: %s\n", scen, strerror(errno));
      return -1;
    }
  }
  struct ft_strv args = FT_STRV_INIT;
  ft_point_run_args(job->sweep, p, failures ? scen : NULL, &args);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0)
    child(s, &args);
  ft_strv_free(&args);
  if (pid < 0) {
    fprintf(stderr, "ftsim: fork: %s\n", strerror(errno));
    return -1;
  }
  setpgid(pid, pid);
  s->pid = pid;
  s->point = p;
  s->start = now();
  s->kill_at = 0;
  s->timed_out = false;
  pl->running++;
  return 0;
}

/* ---- finishing a point */

/* Reads the last line of `path` that starts with '{' into `out`. */
static void read_json(const char *path, char *out, size_t len) {
  out[0] = '\0';
  FILE *f = fopen(path, "r");
  char line[8192];
  while (f && fgets(line, sizeof line, f))
    if (line[0] == '{')
      snprintf(out, len, "%s", line);
  if (f)
    fclose(f);
}

static const char *outcome_name(int status, bool timed_out) {
  if (timed_out)
    return "timeout";
  switch (status) {
  case FT_EXIT_OK:
    return "ok";
  case FT_EXIT_USAGE:
    return "usage";
  case FT_EXIT_UNVERIFIED:
    return "unverified";
  case FT_EXIT_NO_PROGRESS:
    return "no_progress";
  default:
    return "failed";
  }
}

/* Appends the row of the point that ran in `s` (wait status `ws`). */
static int finish(struct pool *pl, struct slot *s, int ws, char *err,
                  size_t errlen) {
  char json[8192], figure[FT_COL_COUNT][64], status[16];
  char *cells[FT_COL_COUNT];
  int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  if (s->timed_out)
    code = -1;
  read_json(s->out, json, sizeof json);
  for (int c = 0; c < FT_COL_NPARAMS; c++)
    cells[c] = s->point->param[c];
  snprintf(status, sizeof status, "%d", code);
  cells[FT_COL_STATUS] = status;
  cells[FT_COL_OUTCOME] = (char *)outcome_name(code, s->timed_out);
  for (int c = FT_COL_FIRST_FIGURE; c < FT_COL_COUNT; c++) {
    cells[c] = figure[c];
    if (!json[0] || ft_json_member(json, ft_col_json((enum ft_col)c), figure[c],
                                   sizeof figure[c]))
      figure[c][0] = '\0';
  }
  if (code != 0)
    fprintf(stderr, "%ssweep: a point ended '%s' (status %d): %s\n",
            pl->tty ? "\r\033[K" : "", cells[FT_COL_OUTCOME], code, s->log);
  return ft_sweep_csv_append(pl->job->csv, cells, err, errlen);
}

/* ---- progress */

static void clock_text(double s, char *out, size_t len) {
  long t = (long)(s + 0.5);
  if (t >= 3600)
    snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
}

static void progress(const struct pool *pl, bool final) {
  const struct ft_sweep_job *job = pl->job;
  double elapsed = now() - pl->start;
  char el[32], left[32] = "?";
  size_t remaining = job->ntodo - pl->done;
  if (pl->done > 0)
    clock_text(elapsed / (double)pl->done * (double)remaining, left,
               sizeof left);
  clock_text(elapsed, el, sizeof el);
  fprintf(stderr,
          "%ssweep: %zu/%zu done (%zu running), elapsed %s, "
          "remaining ~%s%s",
          pl->tty ? "\r\033[K" : "", job->already + pl->done, job->total,
          pl->running, el, remaining ? left : "0:00",
          pl->tty && !final ? "" : "\n");
  fflush(stderr);
}

/* ---- the loop */

static void kill_group(struct slot *s, int sig) { kill(-s->pid, sig); }

/* Sends SIGTERM to children past the time-out, SIGKILL past the grace. */
static void check_times(struct pool *pl) {
  double t = now();
  for (int i = 0; i < pl->job->jobs; i++) {
    struct slot *s = &pl->slots[i];
    if (!s->pid)
      continue;
    if (s->kill_at > 0 && t > s->kill_at) {
      kill_group(s, SIGKILL);
      s->kill_at = t + 3600;
    } else if (!s->timed_out && pl->job->timeout > 0 &&
               t - s->start > pl->job->timeout) {
      s->timed_out = true;
      kill_group(s, SIGTERM);
      s->kill_at = t + KILL_GRACE_S;
    }
  }
}

static struct slot *slot_of(struct pool *pl, pid_t pid) {
  for (int i = 0; i < pl->job->jobs; i++)
    if (pl->slots[i].pid == pid)
      return &pl->slots[i];
  return NULL;
}

/* Reaps every ended child; appends their rows unless `discard`. */
static void reap(struct pool *pl, bool discard) {
  int ws;
  pid_t pid;
  while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
    struct slot *s = slot_of(pl, pid);
    if (!s)
      continue;
    char err[1024];
    s->pid = 0;
    pl->running--;
    if (discard)
      continue;
    pl->busy += now() - s->start;
    if (finish(pl, s, ws, err, sizeof err)) {
      fprintf(stderr, "%sftsim: %s\n", pl->tty ? "\n" : "", err);
      pl->status = 1;
    }
    pl->done++;
    progress(pl, false);
  }
}

/* Kills every running child and waits for them (rows are not written). */
static void stop_all(struct pool *pl) {
  for (int i = 0; i < pl->job->jobs; i++)
    if (pl->slots[i].pid) {
      kill_group(&pl->slots[i], SIGTERM);
      pl->slots[i].kill_at = now() + KILL_GRACE_S;
    }
  while (pl->running > 0) {
    reap(pl, true);
    check_times(pl);
    nanosleep(&(struct timespec){0, 20000000}, NULL);
  }
}

static void install(struct sigaction old[NSTOP]) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  stop_signal = 0;
  for (size_t i = 0; i < NSTOP; i++)
    sigaction(stop_signals[i], &sa, &old[i]);
}

static void restore(const struct sigaction old[NSTOP]) {
  for (size_t i = 0; i < NSTOP; i++)
    sigaction(stop_signals[i], &old[i], NULL);
}

/* Notes when the tail begins: no point left to start, a slot idle. */
static void note_tail(struct pool *pl) {
  if (pl->tail_from == 0 && pl->next >= pl->job->ntodo &&
      pl->running < (size_t)pl->job->jobs)
    pl->tail_from = now();
}

/* The use of the slots: "sweep: slots busy 97% (2 x 40.1 s), tail 1.2 s
 * with a slot idle and no point left" (bench/sweep.sh reads it). */
static void utilization(const struct pool *pl) {
  double elapsed = now() - pl->start;
  double tail = pl->tail_from > 0 ? now() - pl->tail_from : 0;
  if (pl->done == 0 || elapsed <= 0)
    return;
  fprintf(stderr,
          "sweep: slots busy %.1f%% (%d x %.1f s), tail %.1f s with a slot "
          "idle and no point left\n",
          100 * pl->busy / (elapsed * pl->job->jobs), pl->job->jobs, elapsed,
          tail);
}

static void fill(struct pool *pl) {
  for (int i = 0; i < pl->job->jobs && pl->next < pl->job->ntodo &&
                  !stop_signal && !pl->status;
       i++) {
    if (pl->slots[i].pid)
      continue;
    if (start(pl, &pl->slots[i], pl->job->todo[pl->next]))
      pl->status = 1;
    else
      pl->next++;
  }
}

int ft_sweep_run(const struct ft_sweep_job *job) {
  struct pool pl = {.job = job, .start = now(), .tty = isatty(2)};
  pl.slots = ft_xrealloc(NULL, (size_t)job->jobs * sizeof *pl.slots);
  memset(pl.slots, 0, (size_t)job->jobs * sizeof *pl.slots);
  struct sigaction old[NSTOP];
  sigset_t chld, old_mask;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old_mask);
  install(old);
  double last = 0;
  progress(&pl, false);
  while ((pl.next < job->ntodo && !pl.status) || pl.running > 0) {
    if (stop_signal)
      break;
    reap(&pl, false);
    fill(&pl);
    note_tail(&pl);
    check_times(&pl);
    if (pl.tty && now() - last >= 1.0) {
      progress(&pl, false);
      last = now();
    }
    /* Until a child ends (SIGCHLD), a stop signal, or 50 ms. */
    sigtimedwait(&chld, NULL, &(struct timespec){0, 50000000});
  }
  int sig = stop_signal;
  if (sig) {
    stop_all(&pl);
    fprintf(stderr,
            "%sftsim: sweep interrupted by signal %d: %zu of %zu points have "
            "a row; the same command resumes the rest\n",
            pl.tty ? "\n" : "", sig, job->already + pl.done, job->total);
  } else {
    if (pl.tty || pl.done == 0) /* else the last line is printed */
      progress(&pl, true);
    utilization(&pl);
  }
  restore(old);
  sigprocmask(SIG_SETMASK, &old_mask, NULL);
  free(pl.slots);
  return sig ? 128 + sig : pl.status;
}
