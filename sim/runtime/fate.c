/* A rank's own failures (see fate.h). */
#include "fate.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"

/* The next failure of the stream that hits this rank, or -1. A stream
 * that never ends (a distribution without a cap) hits every rank sooner
 * or later: victims are uniform. */
static double next_of_rank(struct ft_fate *f) {
  struct ft_failure x;
  while (ft_failures_next(&f->stream, &x))
    if (x.rank == f->rank)
      return f->base + x.time;
  return -1;
}

void ft_fate_start(struct ft_fate *f, const char *path, int rank, int ranks,
                   double base) {
  char err[1024];
  memset(f, 0, sizeof *f);
  f->at = f->frozen = -1;
  ft_scenario_defaults(&f->scenario, NULL);
  if (!*path || ft_scenario_load(path, &f->scenario, err, sizeof err) != 0 ||
      ft_scenario_check(&f->scenario, ranks, err, sizeof err) != 0)
    return; /* the dispatcher stops the run with the message */
  f->on = 1;
  f->rank = rank;
  f->base = base;
  ft_failures_start(&f->stream, &f->scenario, ranks);
  f->at = next_of_rank(f);
}

/* Within SimGrid's precision (surf/precision, 1e-9 s: ftsim's default),
 * so that a computation cut at the failure time, whose end the clock may
 * miss by a rounding error, stops there. */
#define FT_FATE_PRECISION 1e-9
int ft_fate_due(const struct ft_fate *f, double now) {
  return f->at >= 0 && now + FT_FATE_PRECISION >= f->at;
}

double ft_fate_left(const struct ft_fate *f, double now) {
  if (f->at < 0)
    return -1;
  return ft_fate_due(f, now) ? 0 : f->at - now;
}

void ft_fate_reached(struct ft_fate *f) {
  f->frozen = f->at;
  f->at = next_of_rank(f);
  f->reached++;
}

void ft_fate_failed(struct ft_fate *f) {
  if (!f->on)
    return;
  if (++f->failed > f->reached)
    ft_fate_reached(f);
}

void ft_fate_stop(struct ft_fate *f) {
  ft_fate_disarm_kill(f);
  ft_scenario_free(&f->scenario);
  f->on = 0;
  f->at = -1;
}

int ft_fate_arm_kill(struct ft_fate *f, const char *path, int rank, int ranks,
                     int relaunch, char *err, size_t errlen) {
  double origin;
  struct ft_failure ends;
  int more =
      ft_failures_span(path, ranks, relaunch, &origin, &ends, err, errlen);
  if (more <= 0 || ends.rank != rank)
    return more < 0 ? -1 : 0;
  ft_fate_disarm_kill(f);
  f->kill = ft_backend_kill_after(ends.time - origin);
  if (!f->kill && !ft_backend_simulated()) {
    snprintf(err, errlen,
             "rank %d cannot arm its kill at %.9f s: timer_create "
             "or timer_settime failed",
             rank, ends.time);
    return -1;
  }
  return 0;
}

void ft_fate_disarm_kill(struct ft_fate *f) {
  ft_backend_kill_cancel(f->kill);
  f->kill = NULL;
}
