/* `ftsim soak` (see soak.h): options, the pool of runs, the summary.
 *
 * Each run (seed S+i) is a forked worker in its own process group that
 * calls ft_soak_one and writes its report to <work>/seed-N.report; the
 * parent polls the workers every 20 ms, prints defects as they come and a
 * progress line every --progress runs, and on SIGINT/SIGTERM/SIGHUP stops
 * them (a worker's handler kills its step's group) and prints the
 * summary. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700
#include "soak.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ft_protocol.h"
#include "outcome.h"
#include "soak_one.h"
#include "strv.h"

#define PATH_LEN 4096
#define MAX_LIST 16
#define MAX_JOBS 256

/* The signal that stops the soak (parent) or a worker: written only by
 * the handler. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void on_worker_stop(int sig) {
  ft_soak_one_kill_step();
  _exit(128 + sig);
}

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_signals / sizeof *stop_signals)

/* The default --protocols: every registered protocol that recovers. */
static void default_protocols(char *buf, size_t len) {
  ft_protocol_recovering_names(buf, len, ",", ",");
}

struct opts {
  long runs;      /* -1: unbounded (with --minutes) */
  double minutes; /* 0: none */
  uint64_t seed;
  int jobs;
  double timeout;
  long progress; /* 0: the default */
  const char *keep;
  char *protocols[MAX_LIST];
  size_t nprotocols;
  const struct ft_soak_app *apps[MAX_LIST];
  size_t napps;
  char *lists; /* storage of the split lists */
  char *lists2;
};

void ft_soak_usage(FILE *out) {
  char protocols[256];
  default_protocols(protocols, sizeof protocols);
  fprintf(
      out,
      "Usage: ftsim soak [options]\n"
      "\n"
      "Draws random failure scenarios across protocols x workloads (every\n"
      "program of apps/) x platforms, runs each under `ftsim run --trace`\n"
      "and checks the trace with `ftsim check`. A run passes when it exits\n"
      "0, says \"verified\":true, gives the failure-free result and its\n"
      "trace checks; a summary with \"outcome\":\"no_progress\" is accepted\n"
      "too. Anything else is a defect, printed with the seed and the shell\n"
      "line that reproduces it, its files kept.\n"
      "\n"
      "Options (--flag VALUE or --flag=VALUE):\n"
      "  --runs N          runs, seeds S to S+N-1 (default: 40; with\n"
      "                    --minutes alone: until the time is up)\n"
      "  --minutes M       start no run after M minutes\n"
      "  --seed S          first seed (default: 1); run S+i uses protocol\n"
      "                    number (S+i) mod P of --protocols\n"
      "  --jobs J          runs at a time (default: the number of cores)\n"
      "  --protocols LIST  comma-separated (default: %s)\n"
      "  --apps LIST       comma-separated workloads (default: all)\n"
      "  --timeout SEC     wall seconds per ftsim step; past it the step's\n"
      "                    process group is killed and the run is a hang\n"
      "                    (default: 120)\n"
      "  --keep DIR        keep every run's files in DIR/seed-N (default:\n"
      "                    only the defects', in a temporary directory)\n"
      "  --progress N      a progress line every N runs (default: runs/10,\n"
      "                    at least 10)\n"
      "  -h, --help        show this text\n"
      "\n"
      "Exit status: 0 no defect, 1 a defect, 2 bad usage, 128+N when\n"
      "stopped by signal N. The last line is \"N passed, N failed\".\n",
      protocols);
}

/* ---- options */

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt,
                                                             ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ftsim soak: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (ftsim soak --help)\n");
  va_end(ap);
  return FT_EXIT_USAGE;
}

static int parse_long(const char *s, long min, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min)
    return -1;
  *out = v;
  return 0;
}

static int parse_pos(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0 && v < 1e9))
    return -1;
  *out = v;
  return 0;
}

static int split_protocols(struct opts *o, const char *list) {
  o->lists = ft_xstrdup(list);
  o->nprotocols = 0;
  for (char *save, *w = strtok_r(o->lists, ",", &save); w;
       w = strtok_r(NULL, ",", &save)) {
    const struct ft_protocol_ops *p = ft_protocol_find(w);
    if (!p)
      return usage_error("--protocols: unknown protocol '%s' (ftsim "
                         "protocols lists them)",
                         w);
    if (!ft_protocol_recovers(p))
      return usage_error("--protocols: protocol '%s' does not recover from "
                         "failures",
                         w);
    if (o->nprotocols == MAX_LIST)
      return usage_error("--protocols: more than 16 names");
    o->protocols[o->nprotocols++] = w;
  }
  if (o->nprotocols == 0)
    return usage_error("--protocols: empty list");
  return 0;
}

static int split_apps(struct opts *o, const char *list) {
  o->lists2 = ft_xstrdup(list);
  o->napps = 0;
  for (char *save, *w = strtok_r(o->lists2, ",", &save); w;
       w = strtok_r(NULL, ",", &save)) {
    const struct ft_soak_app *a = ft_soak_app_find(w);
    if (!a)
      return usage_error("--apps: unknown workload '%s' (known: bt, cg, "
                         "fring, lu, mg, pingpong, ring)",
                         w);
    if (o->napps == MAX_LIST)
      return usage_error("--apps: more than 16 names");
    o->apps[o->napps++] = a;
  }
  if (o->napps == 0)
    return usage_error("--apps: empty list");
  return 0;
}

/* Applies one option with its value. */
static int apply(struct opts *o, const char *flag, const char *v) {
  long n;
  if (strcmp(flag, "--runs") == 0) {
    if (parse_long(v, 1, &o->runs))
      return usage_error("--runs: expected an integer >= 1, got '%s'", v);
  } else if (strcmp(flag, "--minutes") == 0) {
    if (parse_pos(v, &o->minutes))
      return usage_error("--minutes: expected a number > 0, got '%s'", v);
  } else if (strcmp(flag, "--seed") == 0) {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 10);
    if (errno || end == v || *end || v[0] == '-')
      return usage_error("--seed: expected an integer >= 0, got '%s'", v);
    o->seed = (uint64_t)s;
  } else if (strcmp(flag, "--jobs") == 0) {
    if (parse_long(v, 1, &n) || n > MAX_JOBS)
      return usage_error("--jobs: expected an integer in [1, 256], got "
                         "'%s'",
                         v);
    o->jobs = (int)n;
  } else if (strcmp(flag, "--timeout") == 0) {
    if (parse_pos(v, &o->timeout))
      return usage_error("--timeout: expected seconds > 0, got '%s'", v);
  } else if (strcmp(flag, "--progress") == 0) {
    if (parse_long(v, 1, &o->progress))
      return usage_error("--progress: expected an integer >= 1, got '%s'", v);
  } else if (strcmp(flag, "--keep") == 0) {
    o->keep = v;
  } else if (strcmp(flag, "--protocols") == 0) {
    free(o->lists);
    return split_protocols(o, v);
  } else if (strcmp(flag, "--apps") == 0) {
    free(o->lists2);
    return split_apps(o, v);
  } else {
    return usage_error("unknown option '%s'", flag);
  }
  return 0;
}

static void defaults(struct opts *o) {
  memset(o, 0, sizeof *o);
  o->runs = 0;
  o->seed = 1;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)(cores < MAX_JOBS ? cores : MAX_JOBS) : 1;
  o->timeout = 120;
}

static bool known(const char *flag) {
  static const char *const flags[] = {"--runs", "--minutes",   "--seed",
                                      "--jobs", "--timeout",   "--progress",
                                      "--keep", "--protocols", "--apps"};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
    if (strcmp(flag, flags[i]) == 0)
      return true;
  return false;
}

static int parse(int argc, char **argv, struct opts *o) {
  defaults(o);
  char protocols[256];
  default_protocols(protocols, sizeof protocols);
  int rc = split_protocols(o, protocols);
  rc = rc ? rc : split_apps(o, "bt,cg,fring,lu,mg,pingpong,ring");
  for (int i = 0; i < argc && rc == 0; i++) {
    const char *a = argv[i], *eq = strchr(a, '=');
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
      return -1;
    if (strncmp(a, "--", 2) != 0)
      return usage_error("unexpected argument '%s'", a);
    char flag[64];
    snprintf(flag, sizeof flag, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
    if (!known(flag))
      return usage_error("unknown option '%s'", flag);
    if (!eq && i + 1 >= argc)
      return usage_error("%s needs a value", flag);
    rc = apply(o, flag, eq ? eq + 1 : argv[++i]);
  }
  if (rc == 0 && o->runs == 0)
    o->runs = o->minutes > 0 ? -1 : 40;
  return rc;
}

/* ---- files */

static int rm_one(const char *path, const struct stat *sb, int flag,
                  struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

static void rm_tree(const char *path) {
  nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_dir(const char *path) {
  if (mkdir(path, 0755) == 0 || errno == EEXIST)
    return 0;
  fprintf(stderr, "ftsim soak: cannot create %s: %s\n", path, strerror(errno));
  return -1;
}

/* ---- the pool */

struct slot {
  pid_t pid; /* 0: free */
  uint64_t seed;
  double start;
  bool killed;
};

struct stats {
  long runs, accepted;
  long per_protocol[MAX_LIST], per_protocol_bad[MAX_LIST];
  long verdicts[FT_SOAK_VERDICTS];
  long kinds[FT_SOAK_KINDS];
  long failures, saw, max_failures, max_failures_rss, peak_rss;
  uint64_t max_failures_seed, peak_rss_seed; /* the runs they came from */
};

struct soak {
  const struct opts *o;
  struct ft_soak_env env;
  char self[PATH_LEN], work[1024], cache[1100];
  bool temporary; /* work is ours to delete */
  struct slot slots[MAX_JOBS];
  uint64_t next; /* runs started */
  int running;
  double start;
  struct stats st;
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report_path(const struct soak *s, uint64_t seed, char *out,
                        size_t len) {
  snprintf(out, len, "%s/seed-%llu.report", s->work, (unsigned long long)seed);
}

static void worker(struct soak *s, uint64_t seed) {
  setpgid(0, 0);
  for (size_t i = 0; i < NSTOP; i++)
    signal(stop_signals[i], on_worker_stop);
  char path[PATH_LEN];
  report_path(s, seed, path, sizeof path);
  FILE *f = fopen(path, "w");
  if (!f)
    _exit(FT_EXIT_FAILED);
  ft_soak_one(&s->env, seed, f);
  fclose(f);
  _exit(0);
}

static bool more(const struct soak *s) {
  if (stop_signal)
    return false;
  if (s->o->runs >= 0 && s->next >= (uint64_t)s->o->runs)
    return false;
  return !(s->o->minutes > 0 && now() - s->start > s->o->minutes * 60);
}

static void start(struct soak *s, struct slot *sl) {
  uint64_t seed = s->o->seed + s->next++;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0)
    worker(s, seed);
  if (pid < 0) {
    fprintf(stderr, "ftsim soak: fork: %s\n", strerror(errno));
    stop_signal = SIGTERM;
    return;
  }
  setpgid(pid, pid);
  *sl = (struct slot){pid, seed, now(), false};
  s->running++;
}

static void count(struct soak *s, uint64_t seed,
                  const struct ft_soak_report *r) {
  struct stats *st = &s->st;
  size_t p = (size_t)(seed % s->o->nprotocols);
  st->runs++;
  st->per_protocol[p]++;
  st->verdicts[r->verdict]++;
  st->kinds[r->kind]++;
  if (ft_soak_accepted(r->verdict))
    st->accepted++;
  else
    st->per_protocol_bad[p]++;
  if (r->failures > 0) {
    st->failures += r->failures;
    st->saw++;
  }
  if (r->failures > st->max_failures) {
    st->max_failures = r->failures;
    st->max_failures_rss = r->rss_kb;
    st->max_failures_seed = seed;
  }
  if (r->rss_kb > st->peak_rss) {
    st->peak_rss = r->rss_kb;
    st->peak_rss_seed = seed;
  }
}

/* Reads a finished worker's report, prints its defect lines, counts it. */
static void finish(struct soak *s, struct slot *sl, int ws) {
  char path[PATH_LEN], line[8192];
  report_path(s, sl->seed, path, sizeof path);
  FILE *f = fopen(path, "r");
  struct ft_soak_report r = {FT_SOAK_HANG, FT_SOAK_UNIFORM, -1, 0};
  bool ok =
      f && fgets(line, sizeof line, f) && ft_soak_report_parse(line, &r) == 0;
  if (!ok && !stop_signal)
    printf("soak: DEFECT seed %llu: the soak's worker ended without a "
           "report (status 0x%x%s)\n",
           (unsigned long long)sl->seed, (unsigned)ws,
           sl->killed ? ", killed after 4 time-outs" : "");
  while (ok && fgets(line, sizeof line, f))
    fputs(line, stdout);
  if (f)
    fclose(f);
  remove(path);
  if (ok || !stop_signal)
    count(s, sl->seed, &r);
  if (ok && ft_soak_accepted(r.verdict) && !s->o->keep) {
    snprintf(path, sizeof path, "%s/seed-%llu", s->work,
             (unsigned long long)sl->seed);
    rm_tree(path);
  }
  sl->pid = 0;
  s->running--;
  fflush(stdout);
}

static void elapsed_text(double sec, char *out, size_t len) {
  long t = (long)(sec + 0.5);
  snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static double per_minute(const struct soak *s) {
  double el = now() - s->start;
  return el > 0 ? (double)s->st.runs * 60.0 / el : 0;
}

static void progress(const struct soak *s) {
  char el[32];
  elapsed_text(now() - s->start, el, sizeof el);
  printf("soak: %ld runs, %ld defects, %s elapsed, %.1f runs/min\n", s->st.runs,
         s->st.runs - s->st.accepted, el, per_minute(s));
  fflush(stdout);
}

/* Reaps finished workers; kills one past 4 time-outs (its steps have
 * their own). */
static void reap(struct soak *s) {
  long every = s->o->progress;
  for (int i = 0; i < s->o->jobs; i++) {
    struct slot *sl = &s->slots[i];
    if (!sl->pid)
      continue;
    int ws;
    pid_t got = waitpid(sl->pid, &ws, WNOHANG);
    if (got == sl->pid) {
      finish(s, sl, ws);
      if (s->st.runs % every == 0)
        progress(s);
    } else if (!sl->killed && now() - sl->start > 4 * s->o->timeout + 30) {
      kill(-sl->pid, SIGTERM);
      sl->killed = true;
    }
  }
}

static void stop_all(struct soak *s) {
  for (int i = 0; i < s->o->jobs; i++)
    if (s->slots[i].pid)
      kill(-s->slots[i].pid, SIGTERM);
  while (s->running > 0) {
    reap(s);
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
}

static void pool(struct soak *s) {
  for (;;) {
    for (int i = 0; i < s->o->jobs && more(s); i++)
      if (!s->slots[i].pid)
        start(s, &s->slots[i]);
    if (s->running == 0)
      break;
    reap(s);
    if (stop_signal) {
      stop_all(s);
      break;
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
}

/* ---- summary */

static void summary(const struct soak *s) {
  const struct stats *st = &s->st;
  char el[32];
  elapsed_text(now() - s->start, el, sizeof el);
  printf("soak: seed %llu, %ld runs in %s, %.1f runs/min with %d jobs\n",
         (unsigned long long)s->o->seed, st->runs, el, per_minute(s),
         s->o->jobs);
  printf("soak: runs per protocol:");
  for (size_t p = 0; p < s->o->nprotocols; p++)
    printf(" %s %ld (%ld defects)", s->o->protocols[p], st->per_protocol[p],
           st->per_protocol_bad[p]);
  printf("\nsoak: scenarios:");
  for (int k = 0; k < FT_SOAK_KINDS; k++)
    printf(" %s %ld", ft_soak_kind_name((enum ft_soak_kind)k), st->kinds[k]);
  printf("\nsoak: outcomes:");
  for (int v = 0; v < FT_SOAK_VERDICTS; v++)
    printf(" %s %ld", ft_soak_verdict_name((enum ft_soak_verdict)v),
           st->verdicts[v]);
  printf("\nsoak: failures injected %ld in %ld runs, at most %ld in one run "
         "(seed %llu, peak memory %ld MB); peak memory of a run %ld MB "
         "(seed %llu)\n",
         st->failures, st->saw, st->max_failures,
         (unsigned long long)st->max_failures_seed, st->max_failures_rss / 1024,
         st->peak_rss / 1024, (unsigned long long)st->peak_rss_seed);
  if (st->runs > st->accepted || s->o->keep)
    printf("soak: files kept in %s\n", s->work);
  printf("%ld passed, %ld failed\n", st->accepted, st->runs - st->accepted);
}

/* ---- setup */

static int setup(struct soak *s, const struct opts *o) {
  memset(s, 0, sizeof *s);
  s->o = o;
  char *self = s->self;
  ssize_t n = readlink("/proc/self/exe", self, sizeof s->self - 1);
  if (n <= 0) {
    fprintf(stderr, "ftsim soak: cannot find the ftsim program: %s\n",
            strerror(errno));
    return -1;
  }
  self[n] = '\0';
  if (o->keep && strlen(o->keep) > 900) {
    fprintf(stderr, "ftsim soak: --keep: path longer than 900 bytes\n");
    return -1;
  }
  if (o->keep) {
    snprintf(s->work, sizeof s->work, "%s", o->keep);
    if (make_dir(s->work))
      return -1;
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(s->work, sizeof s->work, "%s/ftsim-soak.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(s->work)) {
      fprintf(stderr, "ftsim soak: cannot create %s: %s\n", s->work,
              strerror(errno));
      return -1;
    }
    s->temporary = true;
  }
  snprintf(s->cache, sizeof s->cache, "%s/cache.%ld", s->work, (long)getpid());
  if (make_dir(s->cache))
    return -1;
  s->env = (struct ft_soak_env){self,
                                s->cache,
                                s->work,
                                o->timeout,
                                (const char *const *)o->protocols,
                                o->nprotocols,
                                o->apps,
                                o->napps};
  return 0;
}

static void handle_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NSTOP; i++)
    sigaction(stop_signals[i], &sa, NULL);
}

static int soak(struct opts *o) {
  struct soak *s = ft_xrealloc(NULL, sizeof *s); /* large: slots, paths */
  if (setup(s, o)) {
    free(s);
    return FT_EXIT_FAILED;
  }
  if (!o->progress)
    o->progress = o->runs > 100 ? o->runs / 10 : 10;
  handle_signals();
  s->start = now();
  pool(s);
  summary(s);
  rm_tree(s->cache);
  if (s->temporary && s->st.runs == s->st.accepted)
    rm_tree(s->work);
  int rc = stop_signal ? 128 + stop_signal : s->st.runs > s->st.accepted;
  free(s);
  return rc;
}

int ft_soak_main(int argc, char **argv) {
  struct opts o;
  int rc = parse(argc, argv, &o);
  if (rc < 0) {
    ft_soak_usage(stdout);
    rc = FT_EXIT_OK;
  } else if (rc == 0) {
    rc = soak(&o);
  }
  free(o.lists);
  free(o.lists2);
  return rc;
}
