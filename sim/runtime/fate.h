/* A rank's own failures (fate.c): when the scenario makes this rank fail,
 * so that it stops at that time, not when the dispatcher's FAIL reaches it
 * (README, "The failure model").
 *
 * The dispatcher decides every failure (service.c) and tells the victim
 * with FAIL over the simulated network; the victim handled it at its next
 * look at its control channel, up to milliseconds later, sending messages,
 * images and DONEs from a process already dead. The scenario's stream is
 * deterministic (scenario.h: its seed, its files), so each application
 * rank draws it too, keeps the times of its own failures, and at each of
 * them stops acting and waits for the dispatcher's verdict (control.h,
 * ft_control_fate). Simulation only: in reference mode the clocks of the
 * processes are not one clock. */
#ifndef FT_FATE_H
#define FT_FATE_H

#include "scenario.h"

struct ft_fate {
  int on;        /* simulated, a recovering protocol, the scenario loaded */
  int rank;      /* this application rank */
  double base;   /* the run's time 0 (the dispatcher's), absolute */
  double at;     /* this rank's next failure, absolute; -1: none */
  double frozen; /* the failure it stopped at last (absolute), or -1 */
  int reached;   /* failures of this rank reached (stopped at, or FAILed) */
  int failed;    /* FAILs received */
  struct ft_scenario scenario;
  struct ft_failure_stream stream;
  void *kill; /* failure=kill: this rank's armed kill timer, or NULL */
};

/* Loads the scenario `path` ("" or unreadable: no failure, the dispatcher
 * reports the error) for application rank `rank` of `ranks`, whose run
 * starts at absolute time `base`, and finds its first failure. */
void ft_fate_start(struct ft_fate *f, const char *path, int rank, int ranks,
                   double base);

/* Whether this rank's next failure has come at absolute time `now`. */
int ft_fate_due(const struct ft_fate *f, double now);

/* Seconds from `now` to this rank's next failure (0 when due), or -1 when
 * none is known. */
double ft_fate_left(const struct ft_fate *f, double now);

/* The failure due was reached: remembers it and moves on to the next one
 * of this rank. */
void ft_fate_reached(struct ft_fate *f);

/* A FAIL reached this rank: when it came before the rank stopped at that
 * failure (the clock had not reached it: a failure due at once), the
 * failure is reached now, so that the rank does not stop again at it. */
void ft_fate_failed(struct ft_fate *f);

/* Frees the scenario and disarms a kill (ft_fate_disarm_kill). */
void ft_fate_stop(struct ft_fate *f);

/* ---- Reference mode, failure=kill (README, "Real failures: kill and
 * relaunch"). Launch n of a run (relaunch=n) runs from the time of the
 * scenario's failure n - 1 (0 for launch 0) to failure n, which kills it:
 * a run's time excludes its restarts. */

/* Arms the kill of application rank `rank`, now at launch `relaunch`'s
 * time 0 (its start line, or the moment a relaunched job resumes): when
 * the failure that ends the launch hits this rank, a kernel timer SIGKILLs
 * the process at that run time (ft_backend_kill_after; the span:
 * ft_failures_span). Returns 0 (armed, or nothing to arm), or -1 with a message
 * in err. */
int ft_fate_arm_kill(struct ft_fate *f, const char *path, int rank, int ranks,
                     int relaunch, char *err, size_t errlen);

/* Disarms this rank's kill: the run is over (FINISH came), a kill now
 * would hit a run that completed. */
void ft_fate_disarm_kill(struct ft_fate *f);

#endif /* FT_FATE_H */
