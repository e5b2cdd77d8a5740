/* Service ranks (see service.h): checkpoint servers, the first of which is
 * also the dispatcher.
 *
 * A server receives the images of the application ranks mapped to it,
 * keeps two generations (image_store.h; on disk in reference mode), answers
 * STORED, commits a wave when rank 0 says so, and sends an image back to a
 * restarting rank. The dispatcher injects the failures of the scenario
 * (FAIL to the victim, ROLLBACK to everybody after the detection latency),
 * resumes the run when every rank is ready (GO), ends it when every rank
 * finished (FINISH), and counts failures, rollbacks, lost work and recovery
 * time. */
#include "service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "image_store.h"
#include "pessimist/pessimist.h"
#include "scenario.h"

/* An image on its way in (STORE) or out (IMAGE). */
struct transfer {
  int rank, wave, inc, incoming;
  uint64_t seq; /* an incoming image's transfer number (x[1] of its STORE) */
  void *bytes;
  size_t size;
  MPI_Request req;
  void *padding;
};

/* The events of one application rank, on its event logger. */
struct event_log {
  struct ft_logged_event *events;
  size_t n, cap;
};

struct dispatcher {
  struct ft_scenario scenario;
  struct ft_failure_stream stream;
  int has_next, finished;
  struct ft_failure next;
  int inc, ready, done;
  int rollback_due, victim;
  double rollback_at;
  int committed_wave;
  double committed_time, last_resume, recovering_since;
  struct ft_failure_figures figures;
  void *scheduler;           /* the protocol's checkpoint scheduler (vcl) */
  double scheduler_deadline; /* its next timer (absolute time), or -1 */
  int64_t waves;             /* waves it committed */
  int stall; /* failures since the last progress (ft_options.stall_failures) */
  int stopped; /* the run was stopped: it could not progress */
  /* Message logging: a failed rank restarts alone. */
  int *life;     /* per rank: restarts so far */
  int *restored; /* per rank: the newest checkpoint a restart restored (0:
                    the beginning), -1 before its first restart */
  char *is_done; /* per rank: DONE of its current life in */
};

struct service {
  struct ft_runtime *rt;
  int index; /* among the services */
  struct ft_image_store *store;
  struct transfer **transfers; /* each where its request is waited for */
  size_t n_transfers, cap_transfers;
  MPI_Request **waited; /* the control receive, then the transfers' */
  size_t cap_waited;
  struct ft_waiter *waiter;
  int inc;                /* the latest incarnation this server heard of */
  int serves;             /* application ranks mapped to this server */
  struct dispatcher *d;   /* service 0 only */
  struct event_log *logs; /* an event logger: one per application rank */
  double start;           /* the run's time 0 */
  double reached;         /* the last deadline the service woke at */
  uint64_t paddings_sent; /* modelled transfers started (their numbers) */
  int stop;
};

static void send_wire(int dest, struct ft_wire m) {
  ft_control_send(ft_runtime(), dest, &m);
}

/* ---- Transfers ---- */

static struct transfer *new_transfer(struct service *s) {
  s->transfers =
      ft_reserve(s->transfers, s->n_transfers + 1, &s->cap_transfers,
                 sizeof *s->transfers, "a checkpoint server's transfers");
  struct transfer *t = calloc(1, sizeof *t);
  if (!t)
    ft_fatal("checkpoint server: out of memory for a transfer");
  t->req = MPI_REQUEST_NULL;
  s->transfers[s->n_transfers++] = t;
  return t;
}

/* Every STORE is received, even a stale one: transfers between a pair are
 * matched in order, so skipping one would shift the next. */
static void on_store(struct service *s, const struct ft_wire *m) {
  struct transfer *t = new_transfer(s);
  t->rank = m->from;
  t->wave = m->wave;
  t->inc = m->inc;
  t->incoming = 1;
  t->seq = (uint64_t)m->x[1];
  t->size = (size_t)m->value;
  t->bytes = malloc(t->size ? t->size : 1);
  if (!t->bytes)
    ft_fatal("checkpoint server: out of memory for %zu bytes", t->size);
  FT_PMPI(Irecv, t->bytes, (int)t->size, MPI_BYTE, t->rank, FT_TAG_IMAGE,
          s->rt->control, &t->req);
  t->padding = m->x[0] >= 1 ? ft_backend_padding_receive(
                                  t->rank, s->rt->world_rank, (uint64_t)m->x[1])
                            : NULL;
  if (t->padding)
    ft_backend_padding_notify(t->padding, s->waiter);
}

/* An image arrived whole: keep it (unless its run was abandoned) and tell
 * its rank. */
static void stored(struct service *s, const struct transfer *t) {
  char err[512];
  if (t->inc < s->inc || s->stop)
    return; /* abandoned, or the run is over: its rank may be gone */
  if (ft_store_put(s->store, t->rank, t->wave, t->bytes, t->size, err,
                   sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
  send_wire(t->rank, (struct ft_wire){.kind = FT_WIRE_STORED,
                                      .wave = t->wave,
                                      .inc = t->inc,
                                      .value = (int64_t)t->seq});
}

/* Sends rank its image of `wave`, or value -1 when there is none. */
static void on_image_request(struct service *s, const struct ft_wire *m) {
  const void *img;
  size_t size;
  char err[512];
  struct ft_wire answer = {
      .kind = FT_WIRE_IMAGE, .wave = m->wave, .inc = m->inc, .value = -1};
  if (m->wave < 0) { /* message logging: the rank's last committed one */
    answer.wave = ft_store_committed_of(s->store, m->from);
    if (answer.wave == 0) {
      send_wire(m->from, answer);
      return;
    }
  }
  if (ft_store_get(s->store, m->from, answer.wave, &img, &size, err,
                   sizeof err) != 0) {
    fprintf(stderr, "ftsim: checkpoint server %d: %s\n", s->index, err);
    send_wire(m->from, answer);
    return;
  }
  struct transfer *t = new_transfer(s);
  t->rank = m->from;
  t->size = size;
  t->bytes = malloc(size ? size : 1);
  if (!t->bytes)
    ft_fatal("checkpoint server: out of memory for %zu bytes", size);
  memcpy(t->bytes, img, size);
  answer.value = (int64_t)size;
  answer.x[0] = s->rt->options.image_mb * 1e6;
  answer.x[1] = (double)s->paddings_sent;
  send_wire(m->from, answer);
  FT_PMPI(Isend, t->bytes, (int)size, MPI_BYTE, m->from, FT_TAG_IMAGE,
          s->rt->control, &t->req);
  ft_backend_padding_forget(ft_backend_padding_send(
      s->rt->world_rank, m->from, s->paddings_sent++, answer.x[0]));
}

/* Finishes the transfers whose request completed (ft_backend_wait set it
 * to null) and whose modelled bytes arrived; returns how many are still in
 * flight. Tests nothing: the waits say when something completed. */
static size_t progress_transfers(struct service *s) {
  size_t kept = 0;
  for (size_t i = 0; i < s->n_transfers; i++) {
    struct transfer *t = s->transfers[i];
    int ended =
        t->req == MPI_REQUEST_NULL ? ft_backend_padding_done(t->padding, 0) : 0;
    if (ended) {
      t->padding = NULL;
      if (t->incoming && ended == FT_PADDING_WHOLE)
        stored(s, t); /* else its rank rolled back and cut it */
      free(t->bytes);
      free(t);
      continue;
    }
    s->transfers[kept++] = t;
  }
  s->n_transfers = kept;
  return kept;
}

/* Waits for the control receive (when `control`), a transfer or the
 * absolute time `deadline` (< 0: none). Returns 1 when a control message
 * arrived. */
static int wait_event(struct service *s, int control, double deadline) {
  size_t n = 0;
  s->waited = ft_reserve(s->waited, s->n_transfers + 1, &s->cap_waited,
                         sizeof *s->waited, "a service's waits");
  if (control)
    s->waited[n++] = &s->rt->ctrl_req;
  for (size_t i = 0; i < s->n_transfers; i++)
    s->waited[n++] = &s->transfers[i]->req;
  int got = ft_backend_wait(s->waiter, (int)n, s->waited, deadline);
  if (got == FT_WAIT_DEADLINE)
    s->reached = deadline;
  return control && got == 0;
}

/* ---- Checkpoint scheduler (a protocol with has_scheduler: vcl) ---- */

static void scheduler_step(struct service *s, struct dispatcher *d,
                           struct ft_event *e);

/* From pcl-vs-vcl-sc06, section 4.1: "we added a process, the checkpoint
 * scheduler, which is the only one that can initiate a checkpoint wave":
 * its core runs here, with rank == the number of application ranks. */
static void start_scheduler(struct service *s, struct dispatcher *d) {
  const struct ft_protocol_ops *ops = s->rt->protocol;
  d->scheduler_deadline = -1;
  if (!ft_protocol_has_scheduler(ops))
    return;
  struct ft_core_config config = {.rank = s->rt->app_ranks,
                                  .ranks = s->rt->app_ranks,
                                  .period = s->rt->options.period,
                                  .start = s->start};
  d->scheduler = calloc(1, ops->state_size(&config) + 1);
  if (!d->scheduler)
    ft_fatal("out of memory for the %s checkpoint scheduler", ops->name);
  if (ops->init(d->scheduler, &config) != 0)
    ft_fatal("protocol %s rejected its checkpoint scheduler's configuration",
             ops->name);
  struct ft_event e = {.type = FT_EVENT_TIMER, .peer = -1, .tag = -1};
  scheduler_step(s, d, &e); /* early: it only tells its first deadline */
}

/* The scheduler has every image of `wave`: the servers commit it. */
/* The dispatcher decides that `wave` is committed (pcl: rank 0's proposal,
 * on_commit; vcl: its scheduler). `when`: the time the wave's checkpoint
 * was taken, or its commit. Its own store commits at once and the other
 * servers hear it from here: a rollback this dispatcher orders later
 * reaches them after the COMMIT (one sender's messages stay in order), and
 * its own store cannot discard the wave's images before committing them (a
 * COMMIT it sent itself could: the rollback's discard came first, vcl, "rank
 * 2 has no image of wave 10 (committed: 9, in progress: none)"). */
static void decide_commit(struct service *s, struct dispatcher *d, int wave,
                          int inc, double when) {
  char err[512];
  struct ft_wire m = {
      .kind = FT_WIRE_COMMIT, .wave = wave, .inc = inc, .x = {when}};
  d->stall = 0; /* progress */
  d->waves++;
  d->committed_wave = wave; /* a rollback ordered from now on restores it */
  d->committed_time = when - s->start;
  ft_trace_commit(s->rt, wave, inc);
  for (int r = s->rt->app_ranks + 1; r < s->rt->world_size; r++)
    send_wire(r, m);
  if (s->serves > 0 && ft_store_commit(s->store, wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

static void scheduler_commit(struct service *s, struct dispatcher *d,
                             int wave) {
  decide_commit(s, d, wave, d->inc, ft_backend_now());
}

static void scheduler_step(struct service *s, struct dispatcher *d,
                           struct ft_event *e) {
  struct ft_update u = {.deadline = -1};
  e->time = ft_backend_now();
  if (s->rt->protocol->step(d->scheduler, e, &u) != 0)
    ft_fatal("protocol %s failed on its checkpoint scheduler (event %d at "
             "%.9f s)",
             s->rt->protocol->name, (int)e->type, e->time);
  for (size_t i = 0; i < u.n_sends; i++)
    send_wire(u.sends[i].to, ft_wire_of_control(&u.sends[i], d->inc));
  if (u.flags & FT_UPDATE_COMMIT)
    scheduler_commit(s, d, u.wave);
  d->scheduler_deadline = u.deadline;
}

static void scheduler_control(struct service *s, struct dispatcher *d,
                              const struct ft_wire *m) {
  if (!d || !d->scheduler)
    ft_fatal("service %d: unexpected control message %d from rank %d", s->index,
             m->kind, m->from);
  if (m->inc != d->inc || d->stopped)
    return; /* from an abandoned run, or the run is over */
  struct ft_event e = ft_event_of_wire(m);
  scheduler_step(s, d, &e);
}

static double clock_of(const struct service *s);

/* Fires the scheduler's timer if due; returns its deadline (absolute), or
 * -1. No wave starts once every rank finished, nor between a failure and
 * the rollback it causes: the wave would carry the new incarnation, which
 * the rollback resets the scheduler to before its markers are answered. */
static double scheduler_tick(struct service *s, struct dispatcher *d) {
  if (!d->scheduler || d->finished || d->rollback_due ||
      d->scheduler_deadline < 0)
    return -1;
  if (clock_of(s) >= d->scheduler_deadline) {
    struct ft_event e = {.type = FT_EVENT_TIMER, .peer = -1, .tag = -1};
    scheduler_step(s, d, &e);
  }
  return d->scheduler_deadline;
}

/* ---- Dispatcher ---- */

/* The service's clock: the simulated time, or the deadline it last woke
 * at, which the clock may miss by a rounding error (its timeout is "the
 * deadline minus now"). */
static double clock_of(const struct service *s) {
  double now = ft_backend_now();
  return now > s->reached ? now : s->reached;
}

static double run_time(const struct service *s) {
  return clock_of(s) - s->start;
}

/* Whether run time `t` has come; compared in absolute time, the scale of
 * the deadlines the service waits for. */
static int due(const struct service *s, double t) {
  return clock_of(s) >= s->start + t;
}

static void load_scenario(struct service *s, struct dispatcher *d) {
  char err[1024];
  const char *path = s->rt->options.scenario;
  ft_scenario_defaults(&d->scenario, NULL);
  if (*path &&
      (ft_scenario_load(path, &d->scenario, err, sizeof err) != 0 ||
       ft_scenario_check(&d->scenario, s->rt->app_ranks, err, sizeof err) != 0))
    ft_fatal("%s", err);
  ft_failures_start(&d->stream, &d->scenario, s->rt->app_ranks);
  d->has_next = ft_failures_next(&d->stream, &d->next);
  d->recovering_since = -1;
}

/* Message logging: the victim alone restarts, after the detection latency
 * and its restart cost; the others go on. */
static void inject_alone(struct dispatcher *d) {
  int v = d->next.rank;
  d->figures.failures++;
  d->life[v]++;
  if (d->is_done[v]) {
    d->is_done[v] = 0;
    d->done--;
  }
  send_wire(v, (struct ft_wire){
                   .kind = FT_WIRE_FAIL,
                   .wave = d->life[v],
                   .x = {d->scenario.detection_s + d->scenario.restart_s}});
  d->has_next = ft_failures_next(&d->stream, &d->next);
}

/* The failure of d->next: the victim stops now, the others learn of it
 * after the detection latency. */
static void inject(struct dispatcher *d, double now) {
  d->inc++;
  d->figures.failures++;
  if (d->recovering_since < 0) {
    double from =
        d->committed_time > d->last_resume ? d->committed_time : d->last_resume;
    d->figures.lost_work_s += now - from;
    d->recovering_since = now;
  }
  d->victim = d->next.rank;
  d->rollback_due = 1;
  d->rollback_at = now + d->scenario.detection_s;
  d->ready = 0;
  send_wire(d->victim, (struct ft_wire){.kind = FT_WIRE_FAIL,
                                        .inc = d->inc,
                                        .x = {d->scenario.restart_s}});
  d->has_next = ft_failures_next(&d->stream, &d->next);
}

/* From pcl-vs-vcl-fgcs08, section 3: "If a failure occurs, all processes
 * restart from their last stored checkpoint". */
static void order_rollback(struct service *s, struct dispatcher *d) {
  struct ft_wire m = {.kind = FT_WIRE_ROLLBACK,
                      .inc = d->inc,
                      .wave = d->committed_wave,
                      .value = d->victim,
                      .x = {d->scenario.restart_s}};
  d->rollback_due = 0;
  d->done = 0;
  for (int r = 0; r < s->rt->app_ranks; r++)
    send_wire(r, m);
  for (int r = s->rt->app_ranks + 1; r < s->rt->world_size; r++)
    send_wire(r, m);
  s->inc = d->inc;
  ft_store_discard_in_progress(s->store);
  if (d->scheduler) {
    struct ft_event e = {.type = FT_EVENT_ROLLBACK,
                         .peer = -1,
                         .tag = -1,
                         .wave = d->committed_wave};
    scheduler_step(s, d, &e);
  }
}

static struct ft_wire final_figures(const struct dispatcher *d);

static void to_all_ranks(struct service *s, struct ft_wire m) {
  for (int r = 0; r < s->rt->app_ranks; r++)
    send_wire(r, m);
}

/* Ends a run that cannot progress (README, "Runs that cannot progress"):
 * no more failure, rollback or wave; the time since the last commit (or
 * the recovery under way) is lost; every application rank is told with a
 * FINISH whose wave is 1, whatever its incarnation, and abandons what it
 * does (recovery.c, ft_stop_now). `why` goes to the trace, whose checker
 * then expects no end in a common incarnation. */
static void stop_run(struct service *s, struct dispatcher *d, double now,
                     const char *why) {
  d->finished = d->stopped = 1;
  d->rollback_due = 0;
  if (d->recovering_since >= 0 && !d->life) {
    d->figures.recovery_s += now - d->recovering_since;
  } else if (!d->life) {
    double from =
        d->committed_time > d->last_resume ? d->committed_time : d->last_resume;
    d->figures.lost_work_s += now - from;
  }
  if (ft_trace_on(s->rt))
    ft_trace_line_(s->rt, 1, "stop", "%s %d", why, d->inc);
  to_all_ranks(s, final_figures(d));
}

/* The failure due now, or the end of the run when N failures in a row
 * came without progress (options.stall_failures = N > 0): the run is
 * stopped instead, and this failure is not injected (nor counted). So a
 * scenario of exactly N failures still ends normally (period 0, where no
 * wave ever commits: e2e/pcl_1000_failures_bounded_memory). */
static void failure_due(struct service *s, struct dispatcher *d, double now) {
  int n = s->rt->options.stall_failures;
  if (n > 0 && d->stall >= n) {
    stop_run(s, d, now, "stall_failures");
    return;
  }
  d->stall++;
  if (d->life) {
    inject_alone(d);
  } else {
    inject(d, now);
  }
}

/* The absolute time at which max_time stops the run, or -1. */
static double time_limit(const struct service *s) {
  double max = s->rt->options.max_time;
  return max > 0 ? s->start + max : -1;
}

/* Fires what is due; returns the absolute time of the next timed event,
 * or -1. */
static double dispatcher_tick(struct service *s, struct dispatcher *d) {
  double now = run_time(s), limit = time_limit(s);
  if (!d->finished && limit >= 0 && clock_of(s) >= limit)
    stop_run(s, d, now, "max_time");
  if (!d->finished && d->has_next && due(s, d->next.time))
    failure_due(s, d, now);
  if (d->rollback_due && due(s, d->rollback_at))
    order_rollback(s, d);
  double next = -1;
  if (!d->finished && d->has_next)
    next = s->start + d->next.time;
  if (!d->finished && limit >= 0 && (next < 0 || limit < next))
    next = limit;
  if (d->rollback_due && (next < 0 || s->start + d->rollback_at < next))
    next = s->start + d->rollback_at;
  double wave = scheduler_tick(s, d);
  if (wave >= 0 && (next < 0 || wave < next))
    next = wave;
  return next;
}

static void on_ready(struct service *s, struct dispatcher *d,
                     const struct ft_wire *m) {
  if (m->inc != d->inc || d->rollback_due || d->stopped ||
      ++d->ready < s->rt->app_ranks)
    return;
  double now = run_time(s);
  d->figures.recovery_s += now - d->recovering_since;
  d->recovering_since = -1;
  d->last_resume = now;
  /* A rollback performed: every rank restored the wave and resumes (the
   * trace's rollback records of this incarnation). Orders overtaken by a
   * later failure before GO are not rollbacks. */
  d->figures.rollbacks++;
  to_all_ranks(s, (struct ft_wire){.kind = FT_WIRE_GO, .inc = d->inc});
}

/* FINISH with the run's figures: value = the waves committed (by the
 * dispatcher for pcl, its scheduler for vcl), x = failures, rollbacks, lost
 * work, recovery time; wave = 1 when the run was stopped (stop_run). */
static struct ft_wire final_figures(const struct dispatcher *d) {
  return (struct ft_wire){.kind = FT_WIRE_FINISH,
                          .inc = d->inc,
                          .wave = d->stopped,
                          .value = d->waves,
                          .x = {d->figures.failures, d->figures.rollbacks,
                                d->figures.lost_work_s, d->figures.recovery_s}};
}

static void on_done(struct service *s, struct dispatcher *d,
                    const struct ft_wire *m) {
  if (d->life) { /* message logging: per rank, of its current life */
    if (m->wave != d->life[m->from] || d->is_done[m->from])
      return;
    d->is_done[m->from] = 1;
    d->stall = 0; /* progress: a rank finished its life */
  }
  if (m->inc != d->inc || d->rollback_due || d->finished ||
      ++d->done < s->rt->app_ranks)
    return;
  d->finished = 1;
  to_all_ranks(s, final_figures(d));
}

/* ---- Messages ---- */

/* A wave is committed here, on the dispatcher, where rollbacks are
 * ordered, not where rank 0 finds it complete (issue 13, defect 5: rank 0
 * traced "commit 1", a failure came before its COMMIT reached the
 * dispatcher, which ordered "rollback 0" and then dropped the COMMIT as
 * stale: a committed wave was lost). Rank 0 only proposes (checkpoint.c
 * sends its COMMIT to the dispatcher alone). The argument: the dispatcher
 * handles one message or timed event at a time; it accepts a proposal of
 * incarnation inc only while no rollback of inc was ordered (m->inc ==
 * s->inc: order_rollback moves s->inc on), and every later ROLLBACK carries
 * committed_wave, which it set on acceptance. So a rollback ordered after
 * an acceptance restores that wave or a later one, and a proposal that
 * comes after the rollback was never committed: nobody was told it was
 * (its trace line is written here, on acceptance). The other servers hear
 * of the commit from the dispatcher, before any ROLLBACK it sends them (MPI
 * keeps one sender's messages in order), so their stores agree. The
 * scheduler's commits (vcl) are decided here too, in scheduler_commit. */
static void on_commit(struct service *s, const struct ft_wire *m) {
  char err[512];
  if (m->inc < s->inc)
    return;
  if (s->d) {           /* rank 0's proposal (pcl) */
    if (!s->d->stopped) /* else the run is over: nobody hears of it */
      decide_commit(s, s->d, m->wave, m->inc, m->x[0]);
    return;
  }
  if (s->serves > 0 && ft_store_commit(s->store, m->wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

/* ---- Event logger (message logging) ---- */

/* "a transactional acknowledgement protocol to ensure that every event is
 * safely logged" (pessimist-openmpi-v, section 3.2): the answer says how
 * many events of the rank are held. */
static void on_log(struct service *s, const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  struct ft_logged_event *got = ft_control_payload(s->rt, m, n * sizeof *got);
  struct event_log *l = &s->logs[m->from];
  l->events = ft_reserve(l->events, l->n + n, &l->cap, sizeof *l->events,
                         "an event logger's events");
  memcpy(l->events + l->n, got, n * sizeof *got);
  l->n += n;
  free(got);
  send_wire(m->from, (struct ft_wire){.kind = FT_ML_CONTROL_LOGGED,
                                      .to = m->from,
                                      .value = (int64_t)l->n});
}

static void on_events_request(struct service *s, const struct ft_wire *m) {
  const struct event_log *l = &s->logs[m->from];
  size_t bytes = l->n * sizeof *l->events;
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    ft_fatal("event logger: out of memory");
  memcpy(copy, l->events, bytes);
  struct ft_wire a = {
      .kind = FT_WIRE_ML_EVENTS, .wave = m->wave, .value = (int64_t)l->n};
  ft_control_send_payload(s->rt, m->from, &a, copy, bytes);
}

/* Message logging: a failed rank's restart completed (its image, events
 * and the messages to replay are in): the progress stall_failures waits
 * for, since the other ranks never roll back. */
static void on_restarted(struct dispatcher *d, const struct ft_wire *m) {
  if (!d || !d->life || m->wave != d->life[m->from] || d->stopped)
    return;
  /* Progress only if this rank restored a newer checkpoint than at its
   * last restart: restarting from the same one again and again is the
   * message-logging livelock (v2, bt on 1 rank, 4 MB images, a failure
   * every ms: a checkpoint never committed, 4,888 restarts from it). */
  if (m->value > d->restored[m->from]) {
    d->restored[m->from] = (int)m->value;
    d->stall = 0;
  }
  d->figures.lost_work_s += m->x[0];
  d->figures.recovery_s += m->x[1];
}

static void on_commit_rank(struct service *s, const struct ft_wire *m) {
  char err[512];
  if (ft_store_commit_rank(s->store, m->from, m->wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

static void on_message(struct service *s, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_ML_LOG:
    on_log(s, m);
    break;
  case FT_WIRE_ML_EVENTS_REQUEST:
    on_events_request(s, m);
    break;
  case FT_WIRE_ML_RESTARTED:
    on_restarted(s->d, m);
    break;
  case FT_WIRE_COMMIT_RANK:
    on_commit_rank(s, m);
    break;
  case FT_WIRE_STORE:
    on_store(s, m);
    break;
  case FT_WIRE_COMMIT:
    on_commit(s, m);
    break;
  case FT_WIRE_IMAGE_REQUEST:
    on_image_request(s, m);
    break;
  case FT_WIRE_ROLLBACK:
    s->inc = m->inc;
    ft_store_discard_in_progress(s->store);
    break;
  case FT_WIRE_READY:
    on_ready(s, s->d, m);
    break;
  case FT_WIRE_DONE:
    on_done(s, s->d, m);
    break;
  case FT_WIRE_SHUTDOWN:
    s->stop = 1;
    if (s->d) /* the figures again, now final: a wave may have committed
                 after FINISH (its last DONE came late) */
      send_wire(m->from, final_figures(s->d));
    break;
  default:
    if (m->kind < FT_WIRE_STORE) {
      scheduler_control(s, s->d, m);
      break;
    }
    ft_fatal("service %d: unexpected control message %d from rank %d", s->index,
             m->kind, m->from);
  }
}

/* One round: timed events, transfers, then a wait for whichever comes
 * first of a message, a transfer's end and the next timed event; a message
 * is handled at once. No polling: the service wakes exactly when something
 * happens (defect 4 of issue 13: a 1 ms poll delayed every message while a
 * failure was pending, even one due after the end of the run). */
static void service_round(struct service *s) {
  double next = s->d ? dispatcher_tick(s, s->d) : -1;
  (void)progress_transfers(s);
  if (wait_event(s, 1, next)) {
    struct ft_wire m = ft_control_take(s->rt);
    on_message(s, &m);
  }
}

/* The ranks this server stores: their images make a wave. */
static void open_store(struct service *s) {
  struct ft_runtime *rt = s->rt;
  char err[512];
  const char *dir = ft_backend_simulated() ? NULL : rt->options.ckpt_dir;
  s->store = ft_store_create(rt->app_ranks, dir, err, sizeof err);
  if (!s->store)
    ft_fatal("checkpoint server %d: %s", s->index, err);
  for (int r = 0; r < rt->app_ranks; r++)
    if (ft_server_of(rt, r) == rt->world_rank) {
      ft_store_serve(s->store, r);
      s->serves++;
    }
}

void ft_service_main(struct ft_runtime *rt, MPI_Comm services) {
  struct service s = {.rt = rt, .start = ft_backend_now()};
  struct dispatcher d;
  FT_PMPI(Comm_rank, services, &s.index);
  rt->servers = rt->world_size - rt->app_ranks;
  open_store(&s);
  if (s.index == 0) {
    memset(&d, 0, sizeof d);
    s.d = &d;
    load_scenario(&s, &d);
    start_scheduler(&s, &d);
    if (ft_protocol_restarts_alone(rt->protocol)) {
      d.life = calloc((size_t)rt->app_ranks, sizeof *d.life);
      d.restored = malloc((size_t)rt->app_ranks * sizeof *d.restored);
      d.is_done = calloc((size_t)rt->app_ranks, 1);
      if (!d.life || !d.restored || !d.is_done)
        ft_fatal("dispatcher: out of memory");
      for (int r = 0; r < rt->app_ranks; r++)
        d.restored[r] = -1;
    }
  }
  int loggers = rt->options.event_loggers;
  if (ft_protocol_restarts_alone(rt->protocol) &&
      s.index >= rt->servers - loggers) {
    s.logs = calloc((size_t)rt->app_ranks, sizeof *s.logs);
    if (!s.logs)
      ft_fatal("event logger: out of memory");
  }
  s.waiter = ft_backend_waiter_create();
  ft_control_start(rt);
  while (!s.stop)
    service_round(&s);
  /* The control channel first: a rank that stopped (a run that could not
   * progress) takes the bytes of an image or events sent to it only when
   * it drains the messages that announce them (ft_control_drain), after
   * the drain's all-to-all, which this rank must reach first. */
  ft_settle_control(rt);
  /* Images still on their way were all asked for: they complete soon. */
  while (progress_transfers(&s) > 0)
    (void)wait_event(&s, 0, -1);
  ft_backend_waiter_destroy(s.waiter);
  ft_control_finish_payloads(&rt->ctl);
  ft_control_last_barrier(rt);
  ft_store_destroy(s.store);
  for (int r = 0; s.logs && r < rt->app_ranks; r++)
    free(s.logs[r].events);
  free(s.logs);
  if (s.d) {
    ft_scenario_free(&s.d->scenario);
    free(s.d->scheduler);
    free(s.d->life);
    free(s.d->restored);
    free(s.d->is_done);
  }
  free(s.transfers);
  free(s.waited);
}

void ft_service_shutdown(struct ft_runtime *rt) {
  if (rt->world_rank != 0)
    return;
  for (int r = rt->app_ranks; r < rt->world_size; r++)
    send_wire(
        r, (struct ft_wire){.kind = FT_WIRE_SHUTDOWN, .inc = rt->incarnation});
  if (rt->world_size == rt->app_ranks || !rt->recovering_protocol)
    return;
  /* The dispatcher answers with the final figures; anything else is
   * dropped, as ft_control_drain does: the run is over. */
  for (;;) {
    FT_PMPI(Wait, &rt->ctrl_req, MPI_STATUS_IGNORE);
    struct ft_wire m = ft_control_take(rt);
    if (m.kind == FT_WIRE_FINISH && m.from == ft_dispatcher(rt)) {
      ft_control_handle(rt, &m);
      return;
    }
    ft_control_discard(rt, &m);
  }
}
