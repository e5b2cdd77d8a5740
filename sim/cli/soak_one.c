/* One run of `ftsim soak` (see soak_one.h).
 *
 * Steps, each `ftsim` run as a child in its own process group:
 *   ref    ftsim run --protocol none: the failure-free result and time T0
 *          of the workload (cached by app, ranks, arguments, platform);
 *   base   ftsim run --protocol P with the drawn options (period is a
 *          fraction of T0), no failure: its time T and result, which must
 *          equal ref's (cached by the whole configuration);
 *   run    the same with the scenario drawn from T, and --trace;
 *   check  ftsim check on the trace. */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include "soak_one.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "results.h"
#include "strv.h"

#define PATH_LEN 4096
#define JSON_LEN 8192
#define ERRORS_LEN 4096

/* The process group of the step in progress, for ft_soak_one_kill_step
 * (called from a signal handler): 0 when none. One per process. */
static volatile sig_atomic_t step_group;

void ft_soak_one_kill_step(void) {
  if (step_group > 0)
    kill(-(pid_t)step_group, SIGKILL);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- a step */

struct step {
  struct ft_soak_step s;
  char json[JSON_LEN];
  char errors[ERRORS_LEN];
  char first[512]; /* first line of stdout (ftsim check's verdict) */
  long rss_kb;
};

static void exec_child(const char *ftsim, struct ft_strv *args, const char *out,
                       const char *err) {
  setpgid(0, 0);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  int in = open("/dev/null", O_RDONLY);
  int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || o < 0 || e < 0)
    _exit(127);
  dup2(in, 0), dup2(o, 1), dup2(e, 2);
  close(in), close(o), close(e);
  struct ft_strv argv = FT_STRV_INIT;
  ft_strv_push(&argv, ftsim);
  for (size_t i = 0; i < args->count; i++)
    ft_strv_push(&argv, args->items[i]);
  execv(ftsim, argv.items);
  fprintf(stderr, "ftsim soak: cannot run %s: %s\n", ftsim, strerror(errno));
  _exit(127);
}

/* Waits for `pid`, killing its group after `timeout` seconds. */
static void wait_step(pid_t pid, double timeout, struct step *st) {
  double deadline = now() + timeout;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  int ws = 0;
  for (;;) {
    pid_t got = wait4(pid, &ws, WNOHANG, &ru);
    if (got == pid || (got < 0 && errno != EINTR))
      break;
    if (got == 0 && !st->s.timed_out && now() > deadline) {
      kill(-pid, SIGKILL);
      st->s.timed_out = true;
    }
    struct timespec nap = {0, 10 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  kill(-pid, SIGKILL); /* anything the step left behind in its group */
  step_group = 0;
  st->s.exited = WIFEXITED(ws);
  st->s.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws);
  st->rss_kb = ru.ru_maxrss;
}

/* The last stdout line starting with '{', and the first line. */
static void read_out(const char *path, struct step *st) {
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  st->json[0] = st->first[0] = '\0';
  for (int i = 0; f && (n = getline(&line, &cap, f)) >= 0; i++) {
    if (n > 0 && line[n - 1] == '\n')
      line[n - 1] = '\0';
    if (i == 0)
      snprintf(st->first, sizeof st->first, "%s", line);
    if (line[0] == '{')
      snprintf(st->json, sizeof st->json, "%s", line);
  }
  free(line);
  if (f)
    fclose(f);
  st->s.json = st->json[0] ? st->json : NULL;
}

/* ftsim's own lines ("ftsim: ...") and SimGrid's deadlock line. */
static void read_errors(const char *path, struct step *st) {
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0, used = 0;
  st->errors[0] = '\0';
  while (f && getline(&line, &cap, f) >= 0) {
    if (strncmp(line, "ftsim: ", 7) != 0 && !strstr(line, "Deadlock detected"))
      continue;
    int n = snprintf(st->errors + used, sizeof st->errors - used, "%s", line);
    if (n < 0 || (size_t)n >= sizeof st->errors - used)
      break;
    used += (size_t)n;
  }
  free(line);
  if (f)
    fclose(f);
  st->s.errors = st->errors;
}

/* Runs `ftsim ARGS` with stdout and stderr in DIR/NAME.out and .err. */
static void run_step(const struct ft_soak_env *env, struct ft_strv *args,
                     const char *dir, const char *name, struct step *st) {
  char out[PATH_LEN], err[PATH_LEN];
  snprintf(out, sizeof out, "%s/%s.out", dir, name);
  snprintf(err, sizeof err, "%s/%s.err", dir, name);
  memset(st, 0, sizeof *st);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0)
    exec_child(env->ftsim, args, out, err);
  if (pid < 0) {
    st->s.exited = false;
    st->s.status = 0;
    return;
  }
  setpgid(pid, pid);
  step_group = pid;
  wait_step(pid, env->timeout, st);
  read_out(out, st);
  read_errors(err, st);
}

/* ---- command lines */

static void push_words(struct ft_strv *v, const char *words) {
  const char *p = words;
  while (*p) {
    size_t n = strcspn(p, " ");
    if (n)
      ft_strv_pushn(v, p, n);
    p += n;
    p += strspn(p, " ");
  }
}

/* The arguments of `ftsim run` for `c` (reference: protocol none). */
static void run_args(const struct ft_soak_config *c, int reference,
                     const char *period, struct ft_strv *v) {
  ft_strv_push(v, "run");
  ft_strv_push(v, "--platform");
  ft_strv_push(v, c->platform);
  ft_strv_pushf(v, "--np=%d", c->np);
  ft_strv_push(v, "--app");
  ft_strv_push(v, c->app->name);
  ft_strv_push(v, "--protocol");
  ft_strv_push(v, reference ? "none" : c->protocol);
  if (!reference && c->service_ranks)
    ft_strv_pushf(v, "--service-ranks=%d", c->service_ranks);
  if (!reference && period)
    ft_strv_pushf(v, "--set=period=%s", period);
  if (!reference && c->image_mb > 0)
    ft_strv_pushf(v, "--set=image_mb=%g", c->image_mb);
  if (!reference && c->event_loggers)
    ft_strv_pushf(v, "--set=event_loggers=%d", c->event_loggers);
}

static void app_args(const struct ft_soak_config *c, struct ft_strv *v) {
  if (!c->args[0])
    return;
  ft_strv_push(v, "--");
  push_words(v, c->args);
}

/* ---- the cache of failure-free summaries */

static unsigned long long fnv1a(const char *s) {
  unsigned long long h = 0xcbf29ce484222325ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h;
}

static void cache_path(const struct ft_soak_env *env, const char *key,
                       char *out, size_t len) {
  snprintf(out, len, "%s/%016llx.json", env->cache, fnv1a(key));
}

static int cache_get(const char *path, char *json, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  int ok = fgets(json, (int)len, f) != NULL;
  fclose(f);
  json[strcspn(json, "\n")] = '\0';
  return ok ? 0 : -1;
}

/* Written whole then renamed: two runs may measure the same one. */
static void cache_put(const char *path, const char *json) {
  char tmp[PATH_LEN + 32];
  snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f)
    return;
  fprintf(f, "%s\n", json);
  if (fclose(f) == 0)
    rename(tmp, path);
  else
    remove(tmp);
}

/* ---- the run */

struct run {
  const struct ft_soak_env *env;
  struct ft_soak_config c;
  char dir[2048];
  char period[64];
  char scenario[16384];
  char ref[JSON_LEN], base[JSON_LEN];
  char want[256];
  struct step st;
  char why[1024];
  const char *stage;   /* "failure-free reference", ... */
  struct ft_strv args; /* of the step that failed, without "ftsim" */
  bool with_scenario;
};

static void print_env(FILE *out, const char *name) {
  const char *v = getenv(name);
  if (!v || !*v)
    return;
  fprintf(out, "%s=", name);
  ft_command_quote(out, v);
  fputc(' ', out);
}

static void print_args(FILE *out, const char *ftsim,
                       const struct ft_strv *args) {
  print_env(out, "FTSIM_SOURCE_DIR");
  print_env(out, "FTSIM_BUILD_DIR");
  ft_command_quote(out, ftsim);
  for (size_t i = 0; i < args->count; i++) {
    fputc(' ', out);
    ft_command_quote(out, args->items[i]);
  }
}

/* The scenario as a printf format: its lines joined by \n. */
static void print_printf(FILE *out, const char *text) {
  fputs("printf '", out);
  for (const char *p = text; *p; p++)
    if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\'' || *p == '%' || *p == '\\')
      fputc('_', out); /* never drawn */
    else
      fputc(*p, out);
  fputs("' >scenario.txt && ", out);
}

/* The defect lines: what, where, and one shell line that reproduces it. */
static void print_defect(const struct run *r, enum ft_soak_verdict v,
                         FILE *out) {
  const struct ft_soak_config *c = &r->c;
  fprintf(out,
          "soak: DEFECT seed %llu: %s at the %s step (%s, %s np %d '%s' on "
          "%s, scenario %s): %s\n",
          (unsigned long long)c->seed, ft_soak_verdict_name(v), r->stage,
          c->protocol, c->app->name, c->np, c->args, c->platform,
          ft_soak_kind_name(c->kind), r->why);
  fputs("soak:   reproduce: cd \"$(mktemp -d)\" && ", out);
  if (r->with_scenario)
    print_printf(out, r->scenario);
  print_args(out, r->env->ftsim, &r->args);
  if (r->with_scenario) {
    fputs(" && ", out);
    ft_command_quote(out, r->env->ftsim);
    fputs(" check trace", out);
  }
  fputc('\n', out);
  fprintf(out, "soak:   or: ftsim soak --seed %llu --runs 1 --protocols %s",
          (unsigned long long)c->seed, c->protocol);
  size_t all;
  ft_soak_apps(&all);
  for (size_t i = 0; r->env->napps < all && i < r->env->napps; i++)
    fprintf(out, "%s%s", i ? "," : " --apps ", r->env->apps[i]->name);
  fputc('\n', out);
  fprintf(out, "soak:   output kept in %s\n", r->dir);
}

/* Runs a failure-free step (or reads it from the cache) into `json`.
 * Returns its verdict; on a defect r->args holds its arguments. */
static enum ft_soak_verdict failure_free(struct run *r, int reference,
                                         char *json, size_t len) {
  char key[1024], path[PATH_LEN];
  ft_soak_config_key(&r->c, reference, key, sizeof key);
  cache_path(r->env, key, path, sizeof path);
  if (cache_get(path, json, len) == 0)
    return FT_SOAK_PASS;
  ft_strv_free(&r->args);
  run_args(&r->c, reference, r->period[0] ? r->period : NULL, &r->args);
  app_args(&r->c, &r->args);
  r->stage =
      reference ? "reference (protocol none, no failure)" : "failure-free";
  run_step(r->env, &r->args, r->dir, reference ? "ref" : "base", &r->st);
  enum ft_soak_verdict v = ft_soak_judge_run(
      &r->st.s, reference ? NULL : r->want, r->why, sizeof r->why);
  if (v != FT_SOAK_PASS)
    return v == FT_SOAK_NO_PROGRESS ? FT_SOAK_FAILED : v;
  snprintf(json, len, "%s", r->st.json);
  cache_put(path, json);
  return FT_SOAK_PASS;
}

static double member_double(const char *json, const char *key) {
  char v[64];
  return ft_json_member(json, key, v, sizeof v) ? 0 : strtod(v, NULL);
}

/* The two failure-free runs, the period between them. */
static enum ft_soak_verdict measure(struct run *r) {
  enum ft_soak_verdict v = failure_free(r, 1, r->ref, sizeof r->ref);
  if (v != FT_SOAK_PASS)
    return v;
  if (ft_json_member(r->ref, "result", r->want, sizeof r->want))
    r->want[0] = '\0';
  double t0 = member_double(r->ref, "completion_time_s");
  r->period[0] = '\0';
  if (r->c.period_frac > 0)
    snprintf(r->period, sizeof r->period, "%.9f", r->c.period_frac * t0);
  return failure_free(r, 0, r->base, sizeof r->base);
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  fputs(text, f);
  return fclose(f);
}

/* The failure run's arguments: the scenario and trace at `scenario` and
 * `trace`, and max_quiet, so that a run whose ranks wait for ever (some
 * polling: simulated time runs on) ends with an error instead of the
 * wall-clock time-out: 20 failure-free runs (`t`) and 1 s, far more than
 * any silence of a healthy run (its detection and restart costs are at
 * most 5% of a run each; an image of image_mb moves in well under 1 s). */
static void failure_args(const struct run *r, double t, const char *scenario,
                         const char *trace, struct ft_strv *v) {
  run_args(&r->c, 0, r->period[0] ? r->period : NULL, v);
  ft_strv_pushf(v, "--set=max_quiet=%.9f", 20 * t + 1);
  ft_strv_push(v, "--scenario");
  ft_strv_push(v, scenario);
  ft_strv_push(v, "--trace");
  ft_strv_push(v, trace);
  app_args(&r->c, v);
}

/* The failure run and the check of its trace. */
static enum ft_soak_verdict with_failures(struct run *r,
                                          struct ft_soak_report *rep) {
  double t = member_double(r->base, "completion_time_s");
  double period = r->period[0] ? strtod(r->period, NULL) : 0;
  char path[PATH_LEN], trace[PATH_LEN];
  ft_soak_draw_scenario(&r->c, t > 0 ? t : 1e-3, period, r->scenario,
                        sizeof r->scenario);
  snprintf(path, sizeof path, "%s/scenario.txt", r->dir);
  snprintf(trace, sizeof trace, "%s/trace", r->dir);
  write_text(path, r->scenario);
  struct ft_strv args = FT_STRV_INIT;
  failure_args(r, t, path, trace, &args);
  /* the reproducer's form: files in the current directory */
  ft_strv_free(&r->args);
  failure_args(r, t, "scenario.txt", "trace", &r->args);
  r->with_scenario = true;
  r->stage = "failures";
  run_step(r->env, &args, r->dir, "run", &r->st);
  ft_strv_free(&args);
  rep->rss_kb = r->st.rss_kb;
  if (r->st.s.json)
    rep->failures = (long)member_double(r->st.s.json, "failures");
  enum ft_soak_verdict v =
      ft_soak_judge_run(&r->st.s, r->want, r->why, sizeof r->why);
  if (v != FT_SOAK_PASS)
    return v;
  ft_strv_push(&args, "check");
  ft_strv_push(&args, trace);
  r->stage = "trace check";
  run_step(r->env, &args, r->dir, "check", &r->st);
  ft_strv_free(&args);
  return ft_soak_judge_check(&r->st.s, r->st.first, r->why, sizeof r->why);
}

enum ft_soak_verdict ft_soak_one(const struct ft_soak_env *env, uint64_t seed,
                                 FILE *out) {
  struct run *r = ft_xrealloc(NULL, sizeof *r); /* large: not on the stack */
  memset(r, 0, sizeof *r);
  r->env = env;
  ft_soak_draw_config(seed, env->protocols, env->nprotocols, env->apps,
                      env->napps, &r->c);
  snprintf(r->dir, sizeof r->dir, "%s/seed-%llu", env->rundirs,
           (unsigned long long)seed);
  mkdir(r->dir, 0755);
  struct ft_soak_report rep = {FT_SOAK_PASS, r->c.kind, -1, 0};
  enum ft_soak_verdict v = measure(r);
  if (v == FT_SOAK_PASS)
    v = with_failures(r, &rep);
  fprintf(out, "%d %d %ld %ld\n", (int)v, (int)r->c.kind, rep.failures,
          rep.rss_kb);
  if (!ft_soak_accepted(v))
    print_defect(r, v, out);
  ft_strv_free(&r->args);
  free(r);
  return v;
}

int ft_soak_report_parse(const char *line, struct ft_soak_report *r) {
  int v, k;
  if (sscanf(line, "%d %d %ld %ld", &v, &k, &r->failures, &r->rss_kb) != 4 ||
      v < 0 || v >= FT_SOAK_VERDICTS || k < 0 || k >= FT_SOAK_KINDS)
    return -1;
  r->verdict = (enum ft_soak_verdict)v;
  r->kind = (enum ft_soak_kind)k;
  return 0;
}
