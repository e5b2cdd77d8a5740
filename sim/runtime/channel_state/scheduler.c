/* Channel state's service role (service_role.h): the checkpoint scheduler,
 * on the dispatcher.
 *
 * From pcl-vs-vcl-sc06, section 3: "we added a process, the checkpoint
 * scheduler, which is the only one that can initiate a checkpoint wave".
 * Section 4.1: "The checkpoint scheduler manages the different checkpoint
 * waves. It regularly sends markers to every MPI process. The checkpoint
 * frequency is a parameter defined by the user. It then waits for an
 * acknowledgment of the end of the checkpoint from every MPI process
 * before asserting the end of the global checkpoint to the checkpoint
 * servers. The checkpoint scheduler starts a new checkpoint wave only
 * after the end of the previous one."
 *
 * The protocol's core decides all of it: it runs here with rank == the
 * number of application ranks and is fed TIMER, CONTROL and ROLLBACK
 * events; its commits are carried out by the dispatcher (the servers
 * commit where rollbacks are ordered, service.c). */
#include <stdlib.h>

#include "backend.h"
#include "channel_state.h"
#include "runtime/service_role.h"

struct scheduler {
  void *core;      /* the protocol's instance, rank = app_ranks */
  double deadline; /* its next timer (absolute time), or -1 */
};

/* Steps the core with `e` at the present time; sends what it asks for in
 * incarnation `inc` and passes its commit on in `u`. */
static void step(struct scheduler *s, const struct ft_service_env *env, int inc,
                 struct ft_event *e, struct ft_service_update *u) {
  const struct ft_protocol_ops *ops = env->rt->protocol;
  struct ft_update out = {.deadline = -1};
  e->time = ft_backend_now();
  if (ops->step(s->core, e, &out) != 0)
    ft_fatal("protocol %s failed on its checkpoint scheduler (event %d at "
             "%.9f s)",
             ops->name, (int)e->type, e->time);
  for (size_t i = 0; i < out.n_sends; i++) {
    struct ft_wire m = ft_wire_of_control(&out.sends[i], inc);
    ft_control_send(env->rt, out.sends[i].to, &m);
  }
  if (out.flags & FT_UPDATE_COMMIT) {
    u->commit = 1;
    u->wave = out.wave;
  }
  s->deadline = out.deadline;
}

/* On the dispatcher only. The first step only tells the first deadline. */
static void *scheduler_start(const struct ft_service_env *env) {
  const struct ft_protocol_ops *ops = env->rt->protocol;
  if (env->index != 0)
    return NULL;
  struct ft_core_config config = {.rank = env->rt->app_ranks,
                                  .ranks = env->rt->app_ranks,
                                  .period = env->rt->options.period,
                                  .start = env->start};
  struct scheduler *s = calloc(1, sizeof *s);
  if (s)
    s->core = calloc(1, ops->state_size(&config) + 1);
  if (!s || !s->core)
    ft_fatal("out of memory for the %s checkpoint scheduler", ops->name);
  if (ops->init(s->core, &config) != 0)
    ft_fatal("protocol %s rejected its checkpoint scheduler's configuration",
             ops->name);
  struct ft_event e = {.type = FT_EVENT_TIMER, .peer = -1, .tag = -1};
  struct ft_service_update u = {0};
  step(s, env, 0, &e, &u);
  if (u.commit)
    ft_fatal("protocol %s: its checkpoint scheduler committed a wave before "
             "starting one",
             ops->name);
  return s;
}

static void scheduler_stop(void *state) {
  struct scheduler *s = state;
  free(s->core);
  free(s);
}

/* The core's own control messages (markers' acknowledgements); those of
 * an abandoned incarnation, or once the run was stopped, are dropped. */
static int scheduler_control(void *state, const struct ft_service_env *env,
                             struct ft_service_run *run,
                             const struct ft_wire *m,
                             struct ft_service_update *u) {
  if (m->kind >= FT_WIRE_STORE || !run)
    return 0; /* not a core's message */
  if (m->inc != run->inc || run->stopped)
    return 1;
  struct ft_event e = ft_event_of_wire(m);
  step(state, env, run->inc, &e, u);
  return 1;
}

/* The generic service calls it neither once every rank finished nor
 * between a failure and its rollback: a wave started then would carry the
 * new incarnation, which the rollback resets the scheduler to before its
 * markers are answered. */
static double scheduler_timer(void *state, const struct ft_service_env *env,
                              const struct ft_service_run *run, double now,
                              struct ft_service_update *u) {
  struct scheduler *s = state;
  if (s->deadline < 0)
    return -1;
  if (now >= s->deadline) {
    struct ft_event e = {.type = FT_EVENT_TIMER, .peer = -1, .tag = -1};
    step(s, env, run->inc, &e, u);
  }
  return s->deadline;
}

static void scheduler_rollback(void *state, const struct ft_service_env *env,
                               const struct ft_service_run *run, int wave,
                               struct ft_service_update *u) {
  struct ft_event e = {
      .type = FT_EVENT_ROLLBACK, .peer = -1, .tag = -1, .wave = wave};
  step(state, env, run->inc, &e, u);
}

const struct ft_service_role ft_cs_scheduler = {
    .name = "checkpoint scheduler",
    .start = scheduler_start,
    .stop = scheduler_stop,
    .control = scheduler_control,
    .timer = scheduler_timer,
    .rollback = scheduler_rollback,
};
