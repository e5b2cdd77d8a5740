/* Message logging's service role (service_role.h): the event loggers, and
 * the dispatcher's single-rank restarts.
 *
 * Event loggers. "Non-deterministic events are sent to event loggers
 * processes (EL). An EL is a special process added to the application
 * outside the MPI COMM WORLD; several might be used simultaneously to
 * improve scalability." (pessimist-openmpi-v, section 3.2). They are the
 * last options.event_loggers service ranks (ft_ml_logger_of maps each
 * application rank to one); each keeps the events of its ranks and hands
 * them back to a restarting rank.
 *
 * Restarts. "In all coordinated checkpoint techniques, the only consistent
 * recovery line is when every process, including non failed ones,
 * restarts from checkpoint. The message logging model we propose does not
 * have this requirement" (pessimist-openmpi-v, section 5): on the
 * dispatcher, a failure restarts its victim alone, after the detection
 * latency and its restart cost; the others go on, and no rollback is ever
 * ordered. The victim's lives are numbered: a DONE or RESTARTED of a lost
 * life is stale. */
#include <stdlib.h>
#include <string.h>

#include "msglog.h"
#include "pessimist/pessimist.h"
#include "runtime/service_role.h"
#include "scenario.h"

/* The events of one application rank, on its event logger. */
struct event_log {
  struct ft_logged_event *events;
  size_t n, cap;
};

struct ml_service {
  int ranks; /* application ranks */
  /* The dispatcher's part (service 0), else NULL. */
  int *life;     /* per rank: restarts so far */
  int *restored; /* per rank: the newest checkpoint a restart restored (0:
                    the beginning), -1 before its first restart */
  char *is_done; /* per rank: DONE of its current life in */
  /* An event logger's part: one log per application rank, else NULL. */
  struct event_log *logs;
};

static void start_dispatcher(struct ml_service *m) {
  size_t n = (size_t)m->ranks;
  m->life = calloc(n, sizeof *m->life);
  m->restored = malloc(n * sizeof *m->restored);
  m->is_done = calloc(n, 1);
  if (!m->life || !m->restored || !m->is_done)
    ft_fatal("dispatcher: out of memory");
  for (size_t r = 0; r < n; r++)
    m->restored[r] = -1;
}

static void *ml_start(const struct ft_service_env *env) {
  int loggers = env->rt->options.event_loggers;
  int logs = env->index >= env->servers - loggers;
  if (env->index != 0 && !logs)
    return NULL;
  struct ml_service *m = calloc(1, sizeof *m);
  if (!m)
    ft_fatal("event logger: out of memory");
  m->ranks = env->rt->app_ranks;
  if (env->index == 0)
    start_dispatcher(m);
  if (logs) {
    m->logs = calloc((size_t)m->ranks, sizeof *m->logs);
    if (!m->logs)
      ft_fatal("event logger: out of memory");
  }
  return m;
}

static void ml_stop(void *state) {
  struct ml_service *m = state;
  for (int r = 0; m->logs && r < m->ranks; r++)
    free(m->logs[r].events);
  free(m->logs);
  free(m->life);
  free(m->restored);
  free(m->is_done);
  free(m);
}

/* "a transactional acknowledgement protocol to ensure that every event is
 * safely logged" (pessimist-openmpi-v, section 3.2): the answer says how
 * many events of the rank are held. */
static void on_log(struct ft_runtime *rt, struct event_log *l,
                   const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  struct ft_logged_event *got = ft_control_payload(rt, m, n * sizeof *got);
  l->events = ft_reserve(l->events, l->n + n, &l->cap, sizeof *l->events,
                         "an event logger's events");
  memcpy(l->events + l->n, got, n * sizeof *got);
  l->n += n;
  free(got);
  struct ft_wire a = {
      .kind = FT_ML_CONTROL_LOGGED, .to = m->from, .value = (int64_t)l->n};
  ft_control_send(rt, m->from, &a);
}

/* "During recovery, the first step is to retrieve the events related to
 * the MPI process from the event logger" (pessimist-openmpi-v, section
 * 3.2). */
static void on_events_request(struct ft_runtime *rt, const struct event_log *l,
                              const struct ft_wire *m) {
  size_t bytes = l->n * sizeof *l->events;
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    ft_fatal("event logger: out of memory");
  memcpy(copy, l->events, bytes);
  struct ft_wire a = {
      .kind = FT_WIRE_ML_EVENTS, .wave = m->wave, .value = (int64_t)l->n};
  ft_control_send_payload(rt, m->from, &a, copy, bytes);
}

/* A failed rank's restart completed (its image, events and the messages
 * to replay are in): the progress stall_failures waits for, since the
 * other ranks never roll back. */
static void on_restarted(struct ml_service *s, struct ft_service_run *run,
                         const struct ft_wire *m) {
  if (!run || !s->life || m->wave != s->life[m->from] || run->stopped)
    return;
  /* Progress only if this rank restored a newer checkpoint than at its
   * last restart: restarting from the same one again and again is the
   * message-logging livelock (v2, bt on 1 rank, 4 MB images, a failure
   * every ms: a checkpoint never committed, 4,888 restarts from it). */
  if (m->value > s->restored[m->from]) {
    s->restored[m->from] = (int)m->value;
    run->stall = 0;
  }
  run->figures.lost_work_s += m->x[0];
  run->figures.recovery_s += m->x[1];
}

static int ml_control(void *state, const struct ft_service_env *env,
                      struct ft_service_run *run, const struct ft_wire *m,
                      struct ft_service_update *u) {
  struct ml_service *s = state;
  (void)u;
  switch (m->kind) {
  case FT_WIRE_ML_LOG:
    if (!s->logs)
      return 0;
    on_log(env->rt, &s->logs[m->from], m);
    return 1;
  case FT_WIRE_ML_EVENTS_REQUEST:
    if (!s->logs)
      return 0;
    on_events_request(env->rt, &s->logs[m->from], m);
    return 1;
  case FT_WIRE_ML_RESTARTED:
    on_restarted(s, run, m);
    return 1;
  default:
    return 0;
  }
}

/* The victim alone restarts, after the detection latency and its restart
 * cost; the others go on. Its DONE of the lost life no longer counts. */
static void ml_fail(void *state, const struct ft_service_env *env,
                    struct ft_service_run *run, int victim) {
  struct ml_service *s = state;
  s->life[victim]++;
  if (s->is_done[victim]) {
    s->is_done[victim] = 0;
    run->done--;
  }
  struct ft_wire m = {
      .kind = FT_WIRE_FAIL,
      .wave = s->life[victim],
      .x = {env->scenario->detection_s + env->scenario->restart_s}};
  ft_control_send(env->rt, victim, &m);
}

/* A DONE counts once per life, and only of the rank's current one. */
static int ml_done(void *state, struct ft_service_run *run,
                   const struct ft_wire *m) {
  struct ml_service *s = state;
  if (m->wave != s->life[m->from] || s->is_done[m->from])
    return 0;
  s->is_done[m->from] = 1;
  run->stall = 0; /* progress: a rank finished its life */
  return 1;
}

const struct ft_service_role ft_ml_service = {
    .name = "message logging",
    .start = ml_start,
    .stop = ml_stop,
    .control = ml_control,
    .fail = ml_fail,
    .done = ml_done,
};
