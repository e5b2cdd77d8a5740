/* Service roles (issue 15, item 1): what a protocol family's service ranks
 * do besides the generic work of service.c (the dispatcher, which injects
 * the scenario's failures, orders rollbacks and ends the run, and the
 * checkpoint servers, which store the images). A family names its role in
 * its driver table (driver.h, `service`; NULL: none); service.c reaches it
 * only through this table, never by name, and a NULL operation keeps the
 * generic path.
 *
 * Every operation runs on a service rank, one message or timed event at a
 * time (the service is single-threaded), and may send control messages
 * itself (ft_control_send). What only the generic service can do (commit
 * a wave on every server) the role asks for in a `struct
 * ft_service_update`, which service.c carries out when the operation
 * returns. */
#ifndef FT_SERVICE_ROLE_H
#define FT_SERVICE_ROLE_H

#include "runtime.h"

struct ft_wire;
struct ft_scenario;

/* Where a role runs, as the generic service tells it; constant for the
 * run. */
struct ft_service_env {
  struct ft_runtime *rt; /* the service rank's root */
  int index;             /* this rank among the service ranks (0: the
                            dispatcher, also a checkpoint server) */
  int servers;           /* service ranks: with index, which ones a role
                            occupies (e.g. the last few, by an option of
                            the family's in rt->options) */
  double start;          /* the run's time 0 (absolute, ft_backend_now) */
  const struct ft_scenario *scenario; /* the dispatcher's (index 0), else
                                         NULL */
};

/* The dispatcher's run-wide counts, shared with the role on service 0
 * (NULL elsewhere). The role reads inc and stopped, and updates done,
 * stall and figures under the contracts of the operations below. */
struct ft_service_run {
  int inc;     /* the run's incarnation (bumped at each failure that rolls
                  every rank back) */
  int stopped; /* the run was stopped: it could not progress */
  int done;    /* application ranks whose DONE counts */
  int stall;   /* failures since the last progress (options.stall_failures):
                  a role that sees progress sets it to 0 */
  struct ft_failure_figures figures; /* failures, rollbacks, lost work,
                                        recovery time (the summary's) */
};

/* What the generic service carries out after a role's operation. */
struct ft_service_update {
  int commit; /* 1: every server commits `wave`, now (service.c,
                 decide_commit: it counts it, traces it and sends COMMIT
                 to the other servers) */
  int wave;
};

struct ft_service_role {
  const char *name; /* for messages */

  /* Called on every service rank once, before its first control message:
   * returns the role's state on this rank (what it allocated), or NULL
   * when this rank plays no part of the role (no other operation is then
   * called here). May send control messages. Out of memory or a
   * configuration the protocol rejects is fatal (ft_fatal). */
  void *(*start)(const struct ft_service_env *env);

  /* The run is over (the service received SHUTDOWN and settled): frees
   * `state`. Sends nothing. */
  void (*stop)(void *state);

  /* A control message that the generic service does not handle reached
   * this rank (`run`: the dispatcher's counts on service 0, else NULL).
   * Returns 1 when the message is the role's (handled or ignored as
   * stale), 0 when it is not: the service then stops the run with an
   * error naming the message. */
  int (*control)(void *state, const struct ft_service_env *env,
                 struct ft_service_run *run, const struct ft_wire *m,
                 struct ft_service_update *u);

  /* The role's timer, on the dispatcher: fires what is due at absolute
   * time `now` and returns the absolute time of its next timed event, or
   * -1 for none. Not called once every rank finished, nor between a
   * failure and the rollback it causes (NULL: the role has no timer). */
  double (*timer)(void *state, const struct ft_service_env *env,
                  const struct ft_service_run *run, double now,
                  struct ft_service_update *u);

  /* The dispatcher ordered every application rank back to the committed
   * `wave` (run->inc is the new incarnation); called after the ROLLBACK
   * messages left. NULL: the role keeps no state across a rollback. */
  void (*rollback)(void *state, const struct ft_service_env *env,
                   const struct ft_service_run *run, int wave,
                   struct ft_service_update *u);

  /* The failure of application rank `victim` is due (already counted in
   * run->figures.failures): the role handles it instead of the generic
   * path, in which the victim stops and every rank rolls back to the last
   * committed wave after the detection latency. A role that sets it
   * tells the victim itself (FT_WIRE_FAIL) and accounts for lost work and
   * recovery time; the dispatcher then never orders a rollback. */
  void (*fail)(void *state, const struct ft_service_env *env,
               struct ft_service_run *run, int victim);

  /* Rank m->from's DONE reached the dispatcher: returns whether it counts
   * towards the end of the run (the generic checks of its incarnation
   * follow). NULL: every DONE counts. */
  int (*done)(void *state, struct ft_service_run *run, const struct ft_wire *m);
};

#endif /* FT_SERVICE_ROLE_H */
