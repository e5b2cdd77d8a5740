/* ftsim-soak: runs as many seeds of the seeded simulation (seeded.h) as
 * asked, on J processes, and reports the seeds per second and the first
 * failing seed with the command that reproduces it.
 *
 *   ftsim-soak --protocol vcl --seeds 100000 [--first-seed S] [--ranks N]
 *              [--failures F] [--jobs J] [--trace]
 *
 * Exit status: 0 every seed passed, 1 some seed failed (or a job died), 2
 * bad usage. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "planted.h"
#include "seeded.h"

#define MAX_JOBS 64

struct options {
  const char *protocol;
  uint64_t seeds, first;
  int ranks, failures, jobs, trace;
};

/* What a job has done so far: sent whole (it is smaller than PIPE_BUF, so
 * a write is atomic), the latest record of a job replaces the previous. */
struct tally {
  uint64_t done, failed, first_failed; /* UINT64_MAX: none failed */
  uint64_t steps, commits, rollbacks;
  uint64_t phases[SEEDED_PHASES];
};

static const char usage[] =
    "usage: ftsim-soak --protocol NAME --seeds N [--first-seed S] "
    "[--ranks R] [--failures F] [--jobs J] [--trace]\n"
    "  --protocol NAME  a core: ftsim's protocols, or a planted bug;\n"
    "                   NAME-anycall: that core in any-call mode (pcl, vcl)\n"
    "  --seeds N        seeds to run (>= 1)\n"
    "  --first-seed S   first seed (default 1); seeds S .. S+N-1\n"
    "  --ranks R        application ranks, 1..16 (default: drawn per seed)\n"
    "  --failures F     failures per run, 0..16 (default: drawn per seed)\n"
    "  --jobs J         processes, 1..64 (default 1)\n"
    "  --trace          print each seed's narrative (its last 64 KiB)\n";

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints the error and the usage; returns 2. */
static int bad(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ftsim-soak: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage);
  return 2;
}

/* Parses a decimal integer in [lo, hi]. */
static int number(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end;
  if (!s || *s < '0' || *s > '9')
    return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

static void list_protocols(void) {
  fprintf(stderr, "ftsim-soak: known protocols:");
  for (size_t i = 0; ft_protocol_at(i); i++)
    fprintf(stderr, " %s", ft_protocol_at(i)->name);
  for (size_t i = 0; planted_at(i); i++)
    fprintf(stderr, " %s", planted_at(i)->name);
  fprintf(stderr, "\n");
}

struct numeric {
  const char *name;
  uint64_t lo, hi;
  const char *range;
};

static const struct numeric numerics[] = {
    {"--seeds", 1, UINT64_MAX / 2, "an integer >= 1"},
    {"--first-seed", 0, UINT64_MAX / 2, "an integer >= 0"},
    {"--ranks", 1, CLUSTER_MAX_RANKS, "an integer in 1..16"},
    {"--failures", 0, SEEDED_MAX_FAILURES, "an integer in 0..16"},
    {"--jobs", 1, MAX_JOBS, "an integer in 1..64"},
};

static void set_numeric(struct options *o, size_t which, uint64_t v) {
  switch (which) {
  case 0:
    o->seeds = v;
    break;
  case 1:
    o->first = v;
    break;
  case 2:
    o->ranks = (int)v;
    break;
  case 3:
    o->failures = (int)v;
    break;
  default:
    o->jobs = (int)v;
    break;
  }
}

/* Returns 0, or 2 after printing the error. */
static int parse(int argc, char **argv, struct options *o) {
  *o = (struct options){.first = 1, .failures = -1, .jobs = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      exit(0);
    }
    if (strcmp(a, "--trace") == 0) {
      o->trace = 1;
      continue;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--protocol") == 0) {
      if (!v)
        return bad("%s: missing value", a);
      o->protocol = argv[++i];
      continue;
    }
    size_t k = 0;
    while (k < sizeof numerics / sizeof numerics[0] &&
           strcmp(a, numerics[k].name) != 0)
      k++;
    if (k == sizeof numerics / sizeof numerics[0])
      return bad("unknown option '%s'", a);
    uint64_t n;
    if (number(v, numerics[k].lo, numerics[k].hi, &n))
      return bad("%s: expected %s", a, numerics[k].range);
    set_numeric(o, k, n);
    i++;
  }
  if (!o->protocol)
    return bad("missing --protocol");
  if (o->seeds == 0)
    return bad("missing --seeds");
  if (!seeded_protocol(o->protocol)) {
    fprintf(stderr, "ftsim-soak: --protocol: unknown protocol '%s'\n",
            o->protocol);
    list_protocols();
    return 2;
  }
  if (!ft_protocol_recovers(seeded_protocol(o->protocol)))
    return bad("--protocol %s neither checkpoints nor recovers: nothing to "
               "check",
               o->protocol);
  if (seeded_any_call(o->protocol) &&
      ft_protocol_restarts_alone(seeded_protocol(o->protocol)))
    return bad("--protocol %s: any-call mode is for the coordinated, "
               "channel-state and drain families (pcl, vcl, bookmark) so far",
               o->protocol);
  return 0;
}

static struct seeded_params params_of(const struct options *o, uint64_t seed) {
  return (struct seeded_params){.protocol = o->protocol,
                                .seed = seed,
                                .ranks = o->ranks,
                                .failures = o->failures};
}

static void add(struct tally *t, uint64_t seed, const struct seeded_result *r) {
  t->done++;
  if (r->failed) {
    t->failed++;
    t->first_failed = seed < t->first_failed ? seed : t->first_failed;
  }
  t->steps += r->steps;
  t->commits += (uint64_t)r->commits;
  t->rollbacks += (uint64_t)r->rollbacks;
  for (int p = 0; p < SEEDED_PHASES; p++)
    t->phases[p] += (uint64_t)r->phases[p];
}

/* A job: seeds first + job, first + job + jobs, ...; its tally to `fd`
 * every 16 seeds and at the end. */
static int run_job(const struct options *o, int job, int fd) {
  struct seeded_result *r = malloc(sizeof *r);
  struct tally t = {.first_failed = UINT64_MAX};
  if (!r)
    return 1;
  for (uint64_t k = (uint64_t)job; k < o->seeds; k += (uint64_t)o->jobs) {
    struct seeded_params p = params_of(o, o->first + k);
    if (seeded_run(&p, r) < 0) {
      fprintf(stderr, "ftsim-soak: %s\n", r->error);
      return 1;
    }
    add(&t, p.seed, r);
    if (t.done % 16 == 0 && write(fd, &t, sizeof t) != (ssize_t)sizeof t)
      return 1;
  }
  free(r);
  return write(fd, &t, sizeof t) == (ssize_t)sizeof t ? 0 : 1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sum(const struct tally *jobs, int n, struct tally *t) {
  *t = (struct tally){.first_failed = UINT64_MAX};
  for (int j = 0; j < n; j++) {
    t->done += jobs[j].done;
    t->failed += jobs[j].failed;
    if (jobs[j].first_failed < t->first_failed)
      t->first_failed = jobs[j].first_failed;
    t->steps += jobs[j].steps;
    t->commits += jobs[j].commits;
    t->rollbacks += jobs[j].rollbacks;
    for (int p = 0; p < SEEDED_PHASES; p++)
      t->phases[p] += jobs[j].phases[p];
  }
}

/* Forks the jobs and reads their tallies until every pipe closes; prints
 * progress to stderr about every second. Returns 0, or 1 when a job could
 * not start or died. */
static int run_jobs(const struct options *o, struct tally *total,
                    double start) {
  struct pollfd fds[MAX_JOBS];
  pid_t pids[MAX_JOBS];
  struct tally tallies[MAX_JOBS] = {{0}};
  int n = o->jobs, open_fds = 0, broken = 0;
  fflush(NULL);
  for (int j = 0; j < n; j++) {
    int p[2];
    if (pipe(p) != 0 || (pids[j] = fork()) < 0) {
      perror("ftsim-soak: fork");
      return 1;
    }
    if (pids[j] == 0) {
      close(p[0]);
      _exit(run_job(o, j, p[1]));
    }
    close(p[1]);
    fds[j] = (struct pollfd){.fd = p[0], .events = POLLIN};
    open_fds++;
  }
  double shown = start;
  while (open_fds > 0) {
    if (poll(fds, (nfds_t)n, 1000) < 0 && errno != EINTR)
      break;
    for (int j = 0; j < n; j++) {
      if (fds[j].fd < 0 || !(fds[j].revents & (POLLIN | POLLHUP)))
        continue;
      struct tally t;
      if (read(fds[j].fd, &t, sizeof t) == (ssize_t)sizeof t) {
        tallies[j] = t;
        continue;
      }
      close(fds[j].fd);
      fds[j].fd = -1;
      open_fds--;
    }
    sum(tallies, n, total);
    if (now() - shown >= 1.0) {
      shown = now();
      fprintf(stderr,
              "soak: %s %" PRIu64 "/%" PRIu64 " seeds, %" PRIu64
              " failed, %.0f seeds/s\n",
              o->protocol, total->done, o->seeds, total->failed,
              (double)total->done / (shown - start));
    }
  }
  for (int j = 0; j < n; j++) {
    int status;
    if (waitpid(pids[j], &status, 0) != pids[j] || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      fprintf(stderr, "ftsim-soak: job %d died\n", j);
      broken = 1;
    }
  }
  return broken;
}

/* --trace: each seed's narrative and verdict, in one process. */
static int run_traced(const struct options *o) {
  struct seeded_result *r = malloc(sizeof *r);
  int failed = 0;
  if (!r)
    return 1;
  for (uint64_t k = 0; k < o->seeds; k++) {
    struct seeded_params p = params_of(o, o->first + k);
    p.trace = 1;
    int rc = seeded_run(&p, r);
    fputs(r->trace, stdout);
    char cmd[512];
    seeded_command(&p, r, cmd, sizeof cmd);
    printf("seed %" PRIu64 ": %s (ranks %d, failures %d, %" PRIu64
           " steps, trace fnv1a %016" PRIx64 ")%s%s\n",
           p.seed, rc == 0 ? "passed" : "FAILED", r->ranks, r->failures,
           r->steps, r->trace_hash, r->error[0] ? ": " : "", r->error);
    failed |= rc != 0;
  }
  free(r);
  return failed;
}

int main(int argc, char **argv) {
  struct options o;
  int rc = parse(argc, argv, &o);
  if (rc)
    return rc;
  if (o.trace)
    return run_traced(&o);
  struct tally t = {.first_failed = UINT64_MAX};
  double start = now();
  int broken = run_jobs(&o, &t, start);
  double wall = now() - start;
  printf("soak: protocol %s, seeds %" PRIu64 "..%" PRIu64 ", jobs %d: %" PRIu64
         " run, %" PRIu64 " failed, %.1f seeds/s (%.2f s; %" PRIu64
         " steps, %" PRIu64 " commits, %" PRIu64 " failures:",
         o.protocol, o.first, o.first + o.seeds - 1, o.jobs, t.done, t.failed,
         (double)t.done / wall, wall, t.steps, t.commits, t.rollbacks);
  for (int p = 0; p < SEEDED_PHASES; p++)
    printf(" %s %" PRIu64, seeded_phase_name((enum seeded_phase)p),
           t.phases[p]);
  printf(")\n");
  if (t.failed) {
    printf("soak: first failing seed %" PRIu64 ":\n", t.first_failed);
    fflush(stdout);
    seeded_report(stdout,
                  &(struct seeded_params){.protocol = o.protocol,
                                          .seed = t.first_failed,
                                          .ranks = o.ranks,
                                          .failures = o.failures},
                  40);
  }
  return t.failed || broken || t.done != o.seeds ? 1 : 0;
}
