/* Seeded simulation testing of the protocol cores (see seeded.h). */
#include "seeded.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "anycall_cluster.h"
#include "c3/c3.h"
#include "c3_cluster.h"
#include "ml_cluster.h"
#include "planted.h"

#ifndef FTSIM_SOAK
#define FTSIM_SOAK "ftsim-soak"
#endif

/* Steps after a rollback that count as "during recovery". */
#define RECOVERY_STEPS 10

/* The suffix that selects the any-call cluster (anycall_cluster.h). */
static const char anycall_suffix[] = "-anycall";

int seeded_any_call(const char *name) {
  size_t n = strlen(name), k = sizeof anycall_suffix - 1;
  return n > k && strcmp(name + n - k, anycall_suffix) == 0;
}

const struct ft_protocol_ops *seeded_protocol(const char *name) {
  char base[128];
  if (seeded_any_call(name)) {
    size_t n = strlen(name) - (sizeof anycall_suffix - 1);
    if (n >= sizeof base)
      return NULL;
    memcpy(base, name, n);
    base[n] = '\0';
    name = base;
  }
  const struct ft_protocol_ops *ops = ft_protocol_find(name);
  if (!ops && strcmp(name, ft_protocol_c3.name) == 0)
    ops = &ft_protocol_c3; /* a core without its runtime driver yet, so not
                              in the registry */
  return ops ? ops : planted_find(name);
}

const char *seeded_phase_name(enum seeded_phase phase) {
  static const char *const names[SEEDED_PHASES] = {"recovering", "cut", "held",
                                                   "in-wave", "idle"};
  return phase < SEEDED_PHASES ? names[phase] : "?";
}

/* Protocols that record channel state let messages cross safe points;
 * the others hold the application to Pcl's contract (README, "How Vcl
 * runs"): no message across a safe point. */
static int crosses_safe_points(const char *protocol) {
  return strncmp(protocol, "vcl", 3) == 0;
}

/* One run in progress. */
struct run {
  struct cluster *c;
  struct seeded_result *r;
  uint64_t fx;      /* draws the failure points */
  double bound;     /* longest from a commit or rollback to a commit */
  uint64_t gap_max; /* failures hit within this many steps */
  int left;         /* failures to come */
  /* The next failure hits at step next_failure, or (target >= 0) at the
   * skip-th step in phase `target`, and at the latest when wave
   * fail_by_wave commits (a run stays under CLUSTER_MAX_WAVES). */
  uint64_t next_failure, last_rollback;
  int target, skip, fail_by_wave;
  double since; /* last commit or rollback */
  int last_committed, end_wave;
};

static int violated(struct run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int violated(struct run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->r->error, sizeof run->r->error, fmt, ap);
  va_end(ap);
  run->r->failed = 1;
  return -1;
}

static double max2(double a, double b) { return a > b ? a : b; }

/* The rates, delays and application drawn from x (see seeded.h); sets the
 * bound on a wave and the scale of failure points. */
static void draw_cluster(struct run *run, uint64_t *x, const char *protocol) {
  struct cluster *c = run->c;
  int ranks = c->ranks;
  double it_max = 0, it_min = 1e9, store_max = 0, lat_max = 0, rate = 0;
  for (int r = 0; r < CLUSTER_SLOTS && r <= ranks; r++) {
    double it = cluster_uniform(x, 0.05, 0.4);
    cluster_set_app(c, r, it, cluster_uniform(x, 0.0, 0.3));
    c->rank[r].store_delay = cluster_uniform(x, 0.01, 0.6);
    it_max = max2(it, it_max);
    it_min = it < it_min ? it : it_min;
    store_max = max2(c->rank[r].store_delay, store_max);
    for (int to = 0; to < CLUSTER_SLOTS && to <= ranks; to++) {
      double u = cluster_uniform(x, 0.0, 1.0);
      double lat = u < 0.15   ? 0.0 /* same instant: the order is drawn */
                   : u < 0.35 ? cluster_uniform(x, 0.05, 0.5)
                              : cluster_uniform(x, 0.0001, 0.05);
      cluster_set_latency(c, r, to, lat);
      lat_max = max2(lat, lat_max);
    }
  }
  for (int r = 0; r < ranks; r++)
    for (int to = 0; to < ranks; to++) {
      int on = to == (r + 1) % ranks || r == (to + 1) % ranks ||
               cluster_uniform(x, 0.0, 1.0) < 0.3;
      cluster_set_edge(c, r, to, on);
      rate += on ? 1.0 : 0.0;
    }
  c->app_msgs = 1 + (int)(cluster_splitmix64(x) % 3);
  c->app_forward =
      crosses_safe_points(protocol) ? cluster_uniform(x, 0.1, 0.6) : 0.0;
  c->jitter =
      cluster_uniform(x, 0.0, 1.0) < 0.25 ? 0.0 : cluster_uniform(x, 0.0, 0.02);
  lat_max += c->jitter;
  /* Generous: a period, rounds of control messages, stores, and every
   * rank waiting for the slowest one iteration after iteration, twice. */
  double drift = c->period + store_max + 4 * lat_max + it_max;
  run->bound = 2 * (c->period + 10 * lat_max + 3 * store_max +
                    (double)(6 * ranks + 12) * (it_max + lat_max) +
                    (drift / it_min + 3) * it_max);
  /* Steps per simulated second: safe points, and per message a send, an
   * arrival and a delivery; failures land within about three waves. */
  double steps = (double)ranks / it_min * 2 +
                 3 * rate * (c->app_msgs / 2.0 + 0.5) / it_min;
  run->gap_max = 1 + (uint64_t)(3 * (c->period + 1.0) * steps);
}

/* Everything the seed decides; returns -1 on invalid parameters. */
static int build(struct run *run, const struct seeded_params *p,
                 const struct ft_protocol_ops *ops) {
  struct seeded_result *r = run->r;
  uint64_t x = p->seed ^ 0x5eed5eed5eed5eedu;
  cluster_splitmix64(&x);
  r->ranks = 2 + (int)(cluster_splitmix64(&x) % 5);
  r->failures = (int)(cluster_splitmix64(&x) % 5);
  r->period = cluster_uniform(&x, 0.3, 2.0);
  r->ranks = p->ranks > 0 ? p->ranks : r->ranks;
  r->failures = p->failures >= 0 ? p->failures : r->failures;
  if (!ft_protocol_recovers(ops)) {
    snprintf(r->error, sizeof r->error,
             "protocol '%s' neither checkpoints nor recovers: nothing to check",
             ops->name);
    return -1;
  }
  run->c = cluster_new(ops, r->ranks, r->period);
  if (!run->c) {
    snprintf(r->error, sizeof r->error, "cannot make a cluster of %d ranks",
             r->ranks);
    return -1;
  }
  draw_cluster(run, &x, ops->name);
  struct cluster *c = run->c;
  c->app_seed = cluster_splitmix64(&x) | 1u;
  c->rng = cluster_splitmix64(&x);
  run->fx = cluster_splitmix64(&x);
  c->shuffle = 1;
  c->replay = !p->skip_replay;
  c->trace_on = p->trace;
  c->trace_tail = 1;
  run->left = r->failures;
  run->end_wave = 2;
  return 0;
}

/* Where the next failure hits: one time in five during recovery, one in
 * five at a random step of a rank held or of a checkpointed wave not yet
 * committed (phases a random step may rarely hit), else at a random step
 * within about three waves. */
static void draw_failure(struct run *run) {
  uint64_t mode = cluster_splitmix64(&run->fx) % 10;
  uint64_t steps = run->c->steps;
  run->target = -1;
  run->fail_by_wave = run->c->committed + 3;
  if (mode < 2) {
    run->next_failure = steps + cluster_splitmix64(&run->fx) % RECOVERY_STEPS;
  } else if (mode < 4) {
    run->target = mode == 2 ? SEEDED_HELD : SEEDED_CUT;
    run->skip = (int)(cluster_splitmix64(&run->fx) % 20);
  } else {
    run->next_failure = steps + cluster_splitmix64(&run->fx) % run->gap_max;
  }
}

static enum seeded_phase phase_of(const struct run *run) {
  const struct cluster *c = run->c;
  int next = c->committed + 1;
  if (run->r->rollbacks > 0 && c->steps - run->last_rollback < RECOVERY_STEPS)
    return SEEDED_RECOVERING;
  for (int r = 0; next <= CLUSTER_MAX_WAVES && r < c->ranks; r++)
    if (c->rank[r].checkpoint_at[next])
      return SEEDED_CUT;
  for (int r = 0; r < c->ranks; r++)
    if (c->rank[r].held)
      return SEEDED_HELD;
  if (next <= CLUSTER_MAX_WAVES && c->requested_at[next] > 0)
    return SEEDED_IN_WAVE;
  return SEEDED_IDLE;
}

static int failure_due(struct run *run) {
  const struct cluster *c = run->c;
  if (run->left == 0)
    return 0;
  if (c->committed >= run->fail_by_wave)
    return 1;
  if (run->target < 0)
    return c->steps >= run->next_failure;
  return phase_of(run) == (enum seeded_phase)run->target && run->skip-- == 0;
}

/* A failure now: every core rolls back to the last committed wave. */
static int fail_now(struct run *run) {
  struct cluster *c = run->c;
  struct seeded_result *r = run->r;
  enum seeded_phase phase = phase_of(run);
  r->phases[phase]++;
  r->rollbacks++;
  cluster_note(c, "** failure %d of %d (%s): every core rolls back to wave %d",
               r->rollbacks, r->failures, seeded_phase_name(phase),
               c->committed);
  if (cluster_rollback(c))
    return violated(run, "rollback after failure %d: %s", r->rollbacks,
                    c->error);
  run->left--;
  run->last_rollback = c->steps;
  draw_failure(run);
  run->since = c->time;
  run->last_committed = c->committed;
  run->end_wave = c->committed + 2;
  return 0;
}

/* The properties the cluster does not check inside the step itself. */
static int check_step(struct run *run) {
  struct cluster *c = run->c;
  if (cluster_check_cuts(c))
    return violated(run, "%s", c->error);
  if (c->committed != run->last_committed) {
    run->last_committed = c->committed;
    run->since = c->time;
    run->r->commits++;
  }
  if (c->time - run->since > run->bound)
    return violated(run,
                    "[%.3f] no progress: no commit since %.3f (bound %.3f s, "
                    "last committed wave %d)",
                    c->time, run->since, run->bound, c->committed);
  if (c->steps > SEEDED_MAX_STEPS)
    return violated(run, "[%.3f] no end after %u steps", c->time,
                    SEEDED_MAX_STEPS);
  return 0;
}

static int play(struct run *run) {
  struct cluster *c = run->c;
  if (cluster_start(c))
    return violated(run, "start: %s", c->error);
  draw_failure(run);
  for (;;) {
    if (failure_due(run)) {
      if (fail_now(run))
        return -1;
      continue;
    }
    if (run->left == 0 && c->committed >= run->end_wave)
      return 0;
    int rc = cluster_step(c);
    if (rc < 0)
      return violated(run, "%s", c->error);
    if (rc == 0)
      return violated(run, "[%.3f] deadlock: nothing can move (wave %d)",
                      c->time, c->committed);
    if (check_step(run))
      return -1;
  }
}

static void summarize(const struct run *run) {
  const struct cluster *c = run->c;
  struct seeded_result *r = run->r;
  r->steps = c->steps;
  r->delivered = c->app_delivered;
  r->replayed = c->replayed;
  r->kept = c->kept;
  r->retained = c->captures_retained;
  r->holds = c->holds;
  r->trace_hash = c->trace_hash;
  if (c->trace_on)
    memcpy(r->trace, c->trace, c->trace_len + 1);
}

/* C3 on its own cluster (c3_cluster.h): ranks 2..5 and failures 0..3
 * drawn from the seed unless given. */
static int c3_seeded_run(const struct seeded_params *p,
                         const struct ft_protocol_ops *ops,
                         struct seeded_result *r) {
  int ranks = p->ranks ? p->ranks : 2 + (int)(p->seed % 4);
  int failures = p->failures >= 0 ? p->failures : (int)(p->seed / 4 % 4);
  if (ranks > C3C_MAX_RANKS) {
    snprintf(r->error, sizeof r->error, "c3: ranks must be 1..%d",
             C3C_MAX_RANKS);
    return -1;
  }
  r->ranks = ranks;
  r->failures = failures;
  int rc = c3c_seeded(ops, p->seed, ranks, failures, r->error, sizeof r->error,
                      &r->commits, &r->rollbacks);
  r->failed = rc != 0;
  return r->failed;
}

int seeded_run(const struct seeded_params *p, struct seeded_result *r) {
  memset(r, 0, sizeof *r);
  const struct ft_protocol_ops *ops = seeded_protocol(p->protocol);
  if (!ops) {
    snprintf(r->error, sizeof r->error, "unknown protocol '%s'", p->protocol);
    return -1;
  }
  if (p->ranks < 0 || p->ranks > CLUSTER_MAX_RANKS ||
      p->failures > SEEDED_MAX_FAILURES) {
    snprintf(r->error, sizeof r->error,
             "ranks must be 1..%d (0: drawn), failures 0..%d",
             CLUSTER_MAX_RANKS, SEEDED_MAX_FAILURES);
    return -1;
  }
  if (seeded_any_call(p->protocol))
    return anycall_seeded_run(p, ops, r);
  if (ops->family == FT_FAMILY_PIGGYBACK)
    return c3_seeded_run(p, ops, r);
  if (ft_protocol_restarts_alone(ops)) /* message logging */
    return ml_seeded_run(p, ops, r);
  struct run run = {.r = r};
  if (build(&run, p, ops)) {
    cluster_free(run.c);
    return -1;
  }
  play(&run);
  summarize(&run);
  cluster_free(run.c);
  return r->failed ? 1 : 0;
}

void seeded_command(const struct seeded_params *p,
                    const struct seeded_result *r, char *buf, size_t size) {
  snprintf(buf, size,
           "%s --protocol %s --first-seed %llu --seeds 1 --ranks %d "
           "--failures %d --trace",
           FTSIM_SOAK, p->protocol, (unsigned long long)p->seed, r->ranks,
           r->failures);
}

/* The start of the last `lines` lines of `text`. */
static const char *tail(const char *text, int lines) {
  const char *s = text + strlen(text);
  if (s > text)
    s--; /* the last newline */
  for (; s > text; s--)
    if (s[-1] == '\n' && --lines <= 0)
      return s;
  return text;
}

void seeded_report(FILE *out, const struct seeded_params *p, int tail_lines) {
  struct seeded_params traced = *p;
  traced.trace = 1;
  struct seeded_result *r = malloc(sizeof *r);
  if (!r) {
    fprintf(out, "seeded: out of memory\n");
    return;
  }
  int rc = seeded_run(&traced, r);
  char cmd[512];
  seeded_command(p, r, cmd, sizeof cmd);
  fprintf(out,
          "seeded: %s: protocol %s seed %llu: ranks %d, failures %d, period "
          "%.3f s, %llu steps, %d commits, %d rollbacks\n",
          rc == 0 ? "PASSED" : "FAILED", p->protocol,
          (unsigned long long)p->seed, r->ranks, r->failures, r->period,
          (unsigned long long)r->steps, r->commits, r->rollbacks);
  if (r->error[0])
    fprintf(out, "seeded: %s\n", r->error);
  fprintf(out, "seeded: reproduce with: %s\n", cmd);
  fprintf(out, "seeded: trace fnv1a %016llx, its last %d lines:\n%s",
          (unsigned long long)r->trace_hash, tail_lines,
          tail(r->trace, tail_lines));
  free(r);
}
