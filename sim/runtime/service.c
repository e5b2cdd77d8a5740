/* Service ranks (see service.h): checkpoint servers, the first of which is
 * also the dispatcher, and the role the protocol's family gives them
 * (service_role.h, reached through rt->driver->service and never by name).
 *
 * A server receives the images of the application ranks mapped to it,
 * keeps two generations (image_store.h; on disk in reference mode), answers
 * STORED, commits a wave when rank 0 says so, and sends an image back to a
 * restarting rank. The dispatcher injects the failures of the scenario
 * (FAIL to the victim, ROLLBACK to everybody after the detection latency),
 * resumes the run when every rank is ready (GO), ends it when every rank
 * finished (FINISH), and counts failures, rollbacks, lost work and recovery
 * time. A control message it does not know goes to the role. */
#include "service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "image_store.h"
#include "run_record.h"
#include "scenario.h"
#include "service_role.h"

/* Where each flow of a transfer is: an incoming image's bytes and its
 * modelled bytes each wait for one of the server's upload_streams, run,
 * then are done. */
enum flow { FLOW_QUEUED, FLOW_RUNNING, FLOW_DONE };

/* An image on its way in (STORE) or out (IMAGE). */
struct transfer {
  int rank, wave, inc, incoming;
  uint64_t seq;    /* an incoming image's transfer number (x[1] of its STORE) */
  double disk_s;   /* an incoming image's disk write (storage), seconds */
  double modelled; /* an incoming image's modelled bytes (x[0] of STORE) */
  void *bytes;
  size_t size;
  MPI_Request req;
  void *padding;
  enum flow bytes_flow, padding_flow;
  int outcome; /* the modelled bytes': FT_PADDING_WHOLE or _CUT */
};

struct dispatcher {
  struct ft_scenario scenario;
  struct ft_failure_stream stream;
  int has_next, finished;
  struct ft_failure next;
  int ready;
  int rollback_due, victim;
  double rollback_at;
  int committed_wave;
  double committed_time, last_resume, recovering_since;
  int64_t waves;            /* waves it committed */
  int kill;                 /* failure=kill in reference mode: no logical
                               failure; the run record (run_record.h) */
  double kill_origin;       /* this launch's time 0, absolute */
  struct ft_run_record rec; /* what the run record says now */
  double heard; /* when an application rank's message last reached it
                   (absolute; options.max_quiet) */
  struct ft_service_run run; /* incarnation, DONEs, stall, figures: shared
                                with the role */
};

/* The modelled size of a rank's two stored images (the store's two
 * generations): a restart sends back what the checkpoint sent, which in an
 * any-call replay is the footprint recorded at that checkpoint, not
 * image_mb. */
struct modelled_sizes {
  int wave[2];
  double bytes[2];
};

struct service {
  struct ft_runtime *rt;
  int index; /* among the services */
  struct ft_image_store *store;
  struct modelled_sizes *modelled; /* per application rank */
  struct transfer **transfers;     /* each where its request is waited for */
  size_t n_transfers, cap_transfers;
  MPI_Request **waited; /* the control receive, then the transfers' */
  size_t cap_waited;
  struct ft_waiter *waiter;
  int inc;              /* the latest incarnation this server heard of */
  int serves;           /* application ranks mapped to this server */
  struct dispatcher *d; /* service 0 only */
  const struct ft_service_role *role; /* the family's, or NULL */
  void *role_state;                   /* its state here, or NULL: no part */
  struct ft_service_env env;          /* what the role is told */
  double start;                       /* the run's time 0 */
  double zero;    /* the failures' time 0 (rt->init_time), as the victims
                     know it (fate.h) */
  double reached; /* the last deadline the service woke at */
  uint64_t paddings_sent; /* modelled transfers started (their numbers) */
  /* Incoming images' flows running (the rest wait: options.upload_streams):
   * their bytes (an MPI receive) and their modelled bytes. */
  int bytes_running, paddings_running;
  /* Whether a transfer may have moved since the last progress_transfers:
   * one added or a flow started, or the last wait returned something else
   * than a control message; and the waiter's count of modelled transfers
   * ended then (ft_backend_waiter_ended). */
  int moved;
  uint64_t ended_seen;
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
  t->bytes_flow = FLOW_RUNNING;
  t->padding_flow = FLOW_DONE;
  t->outcome = FT_PADDING_WHOLE;
  s->transfers[s->n_transfers++] = t;
  s->moved = 1;
  return t;
}

/* `flag` when this run's images go to a server's disk (storage=servers or
 * shared), else 0. */
static int storage_disk(const struct service *s, int flag) {
  int storage = s->rt->options.storage;
  return storage == FT_STORAGE_SERVERS || storage == FT_STORAGE_SHARED ? flag
                                                                       : 0;
}

/* Whether one more incoming flow may run beside `running`: fewer than
 * options.upload_streams (0: no limit). */
static int stream_free(const struct service *s, int running) {
  int streams = s->rt->options.upload_streams;
  return streams == 0 || running < streams;
}

/* Starts the flows of incoming images that wait, in the order of their
 * STOREs, while streams are free. A sender's transfer starts when its
 * receive is posted (SMPI matches, then transfers; the modelled bytes'
 * pump waits for its fetcher): the others wait at their senders. Called
 * only right after a request was returned (or with no wait armed): a
 * receive posted while the waiter waits would be watched only after one of
 * the earlier requests completed (backend.h, ft_backend_wait), which is
 * why a receive's stream is given back only when its request was returned
 * and the modelled bytes have streams of their own. */
static void start_waiting(struct service *s) {
  for (size_t i = 0; i < s->n_transfers; i++) {
    struct transfer *t = s->transfers[i];
    if (t->bytes_flow == FLOW_QUEUED && stream_free(s, s->bytes_running)) {
      FT_PMPI(Irecv, t->bytes, (int)t->size, MPI_BYTE, t->rank, FT_TAG_IMAGE,
              s->rt->control, &t->req);
      t->bytes_flow = FLOW_RUNNING;
      s->bytes_running++;
      s->moved = 1;
    }
    if (t->padding_flow == FLOW_QUEUED && stream_free(s, s->paddings_running)) {
      t->padding = ft_backend_padding_receive_disk(
          t->rank, s->rt->world_rank, t->seq, t->modelled,
          storage_disk(s, FT_PADDING_DISK_WRITE), &t->disk_s);
      ft_backend_padding_notify(t->padding, s->waiter);
      t->padding_flow = FLOW_RUNNING;
      s->paddings_running++;
      s->moved = 1; /* reference mode: whole at once */
    }
  }
}

/* Every STORE is received, even a stale one: transfers between a pair are
 * matched in order, so skipping one would shift the next (the waiting
 * ones start in order). */
static void on_store(struct service *s, const struct ft_wire *m) {
  struct transfer *t = new_transfer(s);
  t->rank = m->from;
  t->wave = m->wave;
  t->inc = m->inc;
  t->incoming = 1;
  t->seq = (uint64_t)m->x[1];
  t->modelled = m->x[0];
  t->size = (size_t)m->value;
  t->bytes = malloc(t->size ? t->size : 1);
  if (!t->bytes)
    ft_fatal("checkpoint server: out of memory for %zu bytes", t->size);
  t->bytes_flow = FLOW_QUEUED;
  t->padding_flow = m->x[0] >= 1 ? FLOW_QUEUED : FLOW_DONE;
  start_waiting(s);
}

/* Remembers the modelled size of `rank`'s image of `wave`, in the older of
 * its two slots (or the one of the same wave). */
static void remember_modelled(struct service *s, int rank, int wave,
                              double bytes) {
  struct modelled_sizes *m = &s->modelled[rank];
  int i = m->wave[0] == wave         ? 0
          : m->wave[1] == wave       ? 1
          : m->wave[0] <= m->wave[1] ? 0
                                     : 1;
  m->wave[i] = wave;
  m->bytes[i] = bytes;
}

/* The modelled size of `rank`'s image of `wave`: as it was stored, else
 * image_mb. */
static double modelled_of(const struct service *s, int rank, int wave) {
  const struct modelled_sizes *m = &s->modelled[rank];
  for (int i = 0; i < 2; i++)
    if (m->wave[i] == wave && wave > 0)
      return m->bytes[i];
  return s->rt->options.image_mb * 1e6;
}

/* An image arrived whole: keep it (unless its run was abandoned) and tell
 * its rank. */
static void stored(struct service *s, const struct transfer *t) {
  char err[512];
  if (t->inc < s->inc || s->stop)
    return; /* abandoned, or the run is over: its rank may be gone */
  /* Under a storage on disks the image's own bytes go to the server's
   * disk too, before STORED, as reference mode's server writes its file
   * (image_file.c: the write, fsync and rename before the answer); the
   * server waits meanwhile, as that one does. */
  double disk_s =
      t->disk_s +
      (storage_disk(s, 1) ? ft_backend_disk_write((double)t->size) : 0);
  if (ft_store_put(s->store, t->rank, t->wave, t->bytes, t->size, err,
                   sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
  remember_modelled(s, t->rank, t->wave, t->modelled);
  send_wire(t->rank, (struct ft_wire){.kind = FT_WIRE_STORED,
                                      .wave = t->wave,
                                      .inc = t->inc,
                                      .value = (int64_t)t->seq,
                                      .x = {disk_s}});
}

/* Sends rank its image of `wave`, or value -1 when there is none. */
static void on_image_request(struct service *s, const struct ft_wire *m) {
  const void *img;
  size_t size;
  char err[512];
  struct ft_wire answer = {
      .kind = FT_WIRE_IMAGE, .wave = m->wave, .inc = m->inc, .value = -1};
  if (m->wave < 0) { /* a rank restarting alone: its last committed one */
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
  /* storage=local: the rank reads its own disk (recovery.c), nothing
   * modelled travels. */
  answer.x[0] = s->rt->options.storage == FT_STORAGE_LOCAL
                    ? 0
                    : modelled_of(s, m->from, answer.wave);
  answer.x[1] = (double)s->paddings_sent;
  send_wire(m->from, answer);
  FT_PMPI(Isend, t->bytes, (int)size, MPI_BYTE, m->from, FT_TAG_IMAGE,
          s->rt->control, &t->req);
  ft_backend_padding_forget(ft_backend_padding_send_disk(
      s->rt->world_rank, m->from, s->paddings_sent++, answer.x[0],
      storage_disk(s, FT_PADDING_DISK_READ), NULL));
}

/* Moves t's running flows that ended to done, giving back their streams:
 * its receive when ft_backend_wait returned it (set it to null), its
 * modelled bytes when they arrived. Returns 1 when both are done. */
static int flows_done(struct service *s, struct transfer *t) {
  if (t->bytes_flow == FLOW_RUNNING && t->req == MPI_REQUEST_NULL) {
    t->bytes_flow = FLOW_DONE;
    s->bytes_running -= t->incoming;
  }
  if (t->padding_flow == FLOW_RUNNING) {
    int outcome = ft_backend_padding_done(t->padding, 0);
    if (outcome) {
      t->outcome = outcome;
      t->padding = NULL;
      t->padding_flow = FLOW_DONE;
      s->paddings_running--;
    }
  }
  return t->bytes_flow == FLOW_DONE && t->padding_flow == FLOW_DONE;
}

/* Finishes the transfers whose request completed (ft_backend_wait set it
 * to null) and whose modelled bytes arrived, then starts waiting flows on
 * the streams given back; returns how many are still in flight. Tests
 * nothing: the waits say when something completed. */
static size_t progress_transfers(struct service *s) {
  size_t kept = 0;
  s->moved = 0;
  s->ended_seen = ft_backend_waiter_ended(s->waiter);
  for (size_t i = 0; i < s->n_transfers; i++) {
    struct transfer *t = s->transfers[i];
    if (flows_done(s, t)) {
      if (t->incoming && t->outcome == FT_PADDING_WHOLE)
        stored(s, t); /* else its rank rolled back and cut it */
      free(t->bytes);
      free(t);
      continue;
    }
    s->transfers[kept++] = t;
  }
  s->n_transfers = kept;
  start_waiting(s);
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
  if (!control || got != 0)
    s->moved = 1;
  return control && got == 0;
}

/* progress_transfers when a transfer may have moved since the last one,
 * which a scan would otherwise find unchanged: a service with a courier
 * takes one message a round (a role's traffic: 928,000 messages in a run
 * of bt on 400 ranks, issue 18), and each round scanned every image on
 * its way or waiting for a stream (progress_transfers and start_waiting,
 * 1.8% of that run's samples). */
static void progress_if_moved(struct service *s) {
  if (s->moved || ft_backend_waiter_ended(s->waiter) != s->ended_seen)
    (void)progress_transfers(s);
}

/* ---- Kill failures (README, "Real failures: kill and relaunch") ---- */

static void write_record(struct service *s, const struct ft_run_record *r) {
  char err[1024];
  if (ft_run_record_write(s->rt->options.ckpt_dir, r, err, sizeof err) != 0)
    ft_fatal("dispatcher: %s", err);
}

/* The run time now: this launch's origin plus the time since. */
static double kill_run_time(const struct dispatcher *d) {
  return d->rec.origin_t + (ft_backend_now() - d->kill_origin);
}

static void record_commit(struct service *s, struct dispatcher *d, int wave) {
  d->rec.wave = wave;
  d->rec.commit_t = kill_run_time(d);
  write_record(s, &d->rec);
}

/* The record of the launch before, which a kill ended: read, checked. */
static void read_record(struct service *s, struct ft_run_record *r) {
  char err[1024];
  int relaunch = s->rt->options.relaunch;
  int rc = ft_run_record_read(s->rt->options.ckpt_dir, r, err, sizeof err);
  if (rc > 0)
    ft_fatal("relaunch %d: no %s/%s: the launch before wrote none", relaunch,
             s->rt->options.ckpt_dir, FT_RUN_RECORD_NAME);
  if (rc < 0)
    ft_fatal("relaunch %d: %s", relaunch, err);
  if (r->launch != relaunch - 1)
    ft_fatal("relaunch %d: %s/%s was written by launch %d, not %d", relaunch,
             s->rt->options.ckpt_dir, FT_RUN_RECORD_NAME, r->launch,
             relaunch - 1);
}

/* A relaunch: every rank is a new process; the run rolls back at once to
 * the wave on disk (0: from the beginning), every rank fetching its image
 * from its server as a failed rank does (the victim -1: all of them). */
static void relaunch_rollback(struct service *s, struct dispatcher *d) {
  int relaunch = s->rt->options.relaunch;
  read_record(s, &d->rec);
  d->committed_wave = d->rec.wave;
  d->waves = d->rec.wave;
  d->run.figures.failures = relaunch;
  d->run.figures.rollbacks = relaunch - 1; /* its own at GO (on_ready) */
  d->run.inc = relaunch; /* launch L's incarnation is L: a relaunched run's
                            traces read as one history (ftsim check) */
  d->victim = -1;
  d->rollback_due = 1;
  d->rollback_at = 0;
  d->recovering_since = 0;
}

/* The dispatcher's start under failure=kill: launch 0 writes the record
 * (nothing committed), a relaunch rolls back to the record's wave. */
static void kill_start(struct service *s, struct dispatcher *d) {
  d->kill_origin = ft_backend_now();
  if (s->rt->options.relaunch > 0) {
    relaunch_rollback(s, d);
    return;
  }
  d->rec = (struct ft_run_record){.origin_wall = ft_run_record_now()};
  write_record(s, &d->rec);
}

/* Every rank of a relaunch has its image back: the run resumes, this
 * launch's time 0. The kill that ended the launch before came at its
 * origin plus the span to its failure; the run time lost is from the last
 * commit to that failure, the restart from the kill to now. Written
 * before GO: a kill this launch arms (at GO) finds the record of it. */
static void kill_resumed(struct service *s, struct dispatcher *d) {
  char err[1024];
  struct ft_failure ended;
  double origin;
  int relaunch = s->rt->options.relaunch;
  if (ft_failures_span(s->rt->options.scenario, s->rt->app_ranks, relaunch - 1,
                       &origin, &ended, err, sizeof err) <= 0)
    ft_fatal("relaunch %d: %s", relaunch,
             *err ? err
                  : "the scenario has no failure that ended the "
                    "launch before");
  double now_wall = ft_run_record_now();
  double killed_wall = d->rec.origin_wall + (ended.time - d->rec.origin_t);
  /* The dispatcher's clock and the victim's start a few hundred
   * microseconds apart: a commit just before the kill may read as just
   * after it. */
  if (ended.time > d->rec.commit_t)
    d->rec.lost_s += ended.time - d->rec.commit_t;
  d->rec.restart_s += now_wall - killed_wall;
  d->rec.launch = relaunch;
  d->rec.origin_wall = now_wall;
  d->rec.origin_t = ended.time;
  d->kill_origin = ft_backend_now();
  write_record(s, &d->rec);
  d->run.figures.lost_work_s = d->rec.lost_s;
  d->run.figures.recovery_s = d->rec.restart_s;
}

/* A relaunched server serves the wave the record names, read from disk and
 * verified first: a missing or corrupt image stops the run here, before
 * any rank loads it. */
static void adopt_committed(struct service *s) {
  struct ft_run_record r;
  char err[1024];
  if (s->rt->options.failure != FT_FAILURE_KILL || ft_backend_simulated() ||
      s->rt->options.relaunch == 0 || s->serves == 0)
    return;
  read_record(s, &r);
  if (ft_store_adopt(s->store, r.wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d, relaunch %d: refusing committed wave %d: "
             "%s",
             s->index, s->rt->options.relaunch, r.wave, err);
}

/* ---- Commits ---- */

/* The dispatcher decides that `wave` is committed (rank 0's proposal,
 * on_commit, or the role's decision, apply_update). `when`: the time the
 * wave's checkpoint was taken, or its commit. Its own store commits at
 * once and the other servers hear it from here: a rollback this dispatcher
 * orders later reaches them after the COMMIT (one sender's messages stay
 * in order), and its own store cannot discard the wave's images before
 * committing them (a COMMIT it sent itself could: the rollback's discard
 * came first, "rank 2 has no image of wave 10 (committed: 9, in progress:
 * none)"). */
static void decide_commit(struct service *s, struct dispatcher *d, int wave,
                          int inc, double when) {
  char err[512];
  struct ft_wire m = {
      .kind = FT_WIRE_COMMIT, .wave = wave, .inc = inc, .x = {when}};
  if (d->kill) /* before any server deletes the wave before (run_record.h) */
    record_commit(s, d, wave);
  d->run.stall = 0; /* progress */
  d->waves++;
  d->committed_wave = wave; /* a rollback ordered from now on restores it */
  d->committed_time = when - s->start;
  ft_trace_commit(s->rt, wave, inc);
  for (int r = s->rt->app_ranks + 1; r < s->rt->world_size; r++)
    send_wire(r, m);
  if (s->serves > 0 && ft_store_commit(s->store, wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

/* Carries out what the role's operation asked for (service_role.h). */
static void apply_update(struct service *s, struct dispatcher *d,
                         const struct ft_service_update *u) {
  if (!u->commit)
    return;
  if (!d)
    ft_fatal("service %d: the %s role committed a wave off the dispatcher",
             s->index, s->role->name);
  decide_commit(s, d, u->wave, d->run.inc, ft_backend_now());
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
  d->kill =
      s->rt->options.failure == FT_FAILURE_KILL && !ft_backend_simulated();
  if (d->kill) /* the victims kill themselves (fate.h): nothing to inject */
    d->has_next = 0;
}

/* The failure of d->next, the generic way: the victim stops now, the
 * others learn of it after the detection latency and roll back. */
static void inject(struct dispatcher *d, double now) {
  d->run.inc++;
  if (d->recovering_since < 0) {
    double from =
        d->committed_time > d->last_resume ? d->committed_time : d->last_resume;
    d->run.figures.lost_work_s += now - from;
    d->recovering_since = now;
  }
  d->victim = d->next.rank;
  d->rollback_due = 1;
  d->rollback_at = now + d->scenario.detection_s;
  d->ready = 0;
  send_wire(d->victim, (struct ft_wire){.kind = FT_WIRE_FAIL,
                                        .inc = d->run.inc,
                                        .x = {d->scenario.restart_s}});
}

/* From pcl-vs-vcl-fgcs08, section 3: "If a failure occurs, all processes
 * restart from their last stored checkpoint". */
static void order_rollback(struct service *s, struct dispatcher *d) {
  struct ft_wire m = {.kind = FT_WIRE_ROLLBACK,
                      .inc = d->run.inc,
                      .wave = d->committed_wave,
                      .value = d->victim,
                      .x = {d->scenario.restart_s}};
  d->rollback_due = 0;
  d->run.done = 0;
  for (int r = 0; r < s->rt->app_ranks; r++)
    send_wire(r, m);
  for (int r = s->rt->app_ranks + 1; r < s->rt->world_size; r++)
    send_wire(r, m);
  s->inc = d->run.inc;
  ft_store_discard_in_progress(s->store);
  if (s->role_state && s->role->rollback) {
    struct ft_service_update u = {0};
    s->role->rollback(s->role_state, &s->env, &d->run, d->committed_wave, &u);
    apply_update(s, d, &u);
  }
}

static struct ft_wire final_figures(const struct dispatcher *d);

/* Whether a failure rolls every rank back (the generic path), or the role
 * handles it (service_role.h, fail). */
static int rolls_back(const struct service *s) {
  return !s->role_state || !s->role->fail;
}

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
  d->finished = d->run.stopped = 1;
  d->rollback_due = 0;
  if (d->recovering_since >= 0 && rolls_back(s)) {
    d->run.figures.recovery_s += now - d->recovering_since;
  } else if (rolls_back(s)) {
    double from =
        d->committed_time > d->last_resume ? d->committed_time : d->last_resume;
    d->run.figures.lost_work_s += now - from;
  }
  if (ft_trace_on(s->rt))
    ft_trace_line_(s->rt, 1, "stop", "%s %d", why, d->run.inc);
  to_all_ranks(s, final_figures(d));
}

/* The failure due now, or the end of the run when N failures in a row
 * came without progress (options.stall_failures = N > 0): the run is
 * stopped instead, and this failure is not injected (nor counted). So a
 * scenario of exactly N failures still ends normally (period 0, where no
 * wave ever commits: the e2e test of 1000 failures in bounded memory). */
static void failure_due(struct service *s, struct dispatcher *d, double now) {
  int n = s->rt->options.stall_failures;
  if (n > 0 && d->run.stall >= n) {
    stop_run(s, d, now, "stall_failures");
    return;
  }
  d->run.stall++;
  d->run.figures.failures++;
  if (ft_trace_on(s->rt)) /* ftsim check: the victim acts no more until
                             its replacement starts */
    ft_trace_line_(s->rt, 1, "fail", "%d %.9f", d->next.rank,
                   clock_of(s) + d->scenario.detection_s +
                       d->scenario.restart_s);
  if (rolls_back(s))
    inject(d, now);
  else
    s->role->fail(s->role_state, &s->env, &d->run, d->next.rank);
  d->has_next = ft_failures_next(&d->stream, &d->next);
}

/* Fires the role's timer (service_role.h) if it has one and may fire;
 * returns its next deadline (absolute), or -1. */
static double role_tick(struct service *s, struct dispatcher *d) {
  if (!s->role_state || !s->role->timer || d->finished || d->rollback_due)
    return -1;
  struct ft_service_update u = {0};
  double next =
      s->role->timer(s->role_state, &s->env, &d->run, clock_of(s), &u);
  apply_update(s, d, &u);
  return next;
}

/* The absolute time at which max_time stops the run, or -1. */
static double time_limit(const struct service *s) {
  double max = s->rt->options.max_time;
  return max > 0 ? s->start + max : -1;
}

/* The absolute time at which max_quiet ends the run, or -1. */
static double quiet_limit(const struct service *s, const struct dispatcher *d) {
  double quiet = s->rt->options.max_quiet;
  return quiet > 0 && !d->finished ? d->heard + quiet : -1;
}

/* No application rank has sent the dispatcher anything for max_quiet
 * simulated seconds: every healthy run talks to it (its READYs, proposals,
 * restarts, events, at the latest its DONEs), so the ranks wait for what
 * never comes, some of them polling (a replayed probe, SMPI's MPI_Probe),
 * which SimGrid cannot tell from work: simulated time runs on and the run
 * never ends (soak seed 7832: 197 s of simulated time in one minute of wall
 * time, a run of 11 ms). Ends the run with an error that says so. */
static _Noreturn void livelocked(const struct service *s,
                                 const struct dispatcher *d) {
  ft_fatal("the dispatcher heard nothing from any application rank for "
           "max_quiet=%g s of simulated time (since %.9f s of run time, now "
           "%.9f s; %.0f failures injected): the run is livelocked, ranks wait "
           "for what never comes",
           s->rt->options.max_quiet, d->heard - s->start, run_time(s),
           d->run.figures.failures);
}

/* Fires what is due; returns the absolute time of the next timed event,
 * or -1. */
static double dispatcher_tick(struct service *s, struct dispatcher *d) {
  double now = run_time(s), limit = time_limit(s), quiet = quiet_limit(s, d);
  if (quiet >= 0 && clock_of(s) >= quiet)
    livelocked(s, d);
  if (!d->finished && limit >= 0 && clock_of(s) >= limit)
    stop_run(s, d, now, "max_time");
  /* The failure's deadline as the wait below has it: through run time
   * (due) it was missed by a rounding error, and the dispatcher woke at
   * that deadline for ever (soak seed 46). */
  if (!d->finished && d->has_next && clock_of(s) >= s->zero + d->next.time)
    failure_due(s, d, now);
  if (d->rollback_due && due(s, d->rollback_at))
    order_rollback(s, d);
  double next = -1;
  if (!d->finished && d->has_next)
    next = s->zero + d->next.time;
  if (!d->finished && limit >= 0 && (next < 0 || limit < next))
    next = limit;
  if (d->rollback_due && (next < 0 || s->start + d->rollback_at < next))
    next = s->start + d->rollback_at;
  if (quiet >= 0 && (next < 0 || quiet < next))
    next = quiet;
  double role = role_tick(s, d);
  if (role >= 0 && (next < 0 || role < next))
    next = role;
  return next;
}

static void on_ready(struct service *s, struct dispatcher *d,
                     const struct ft_wire *m) {
  if (m->inc != d->run.inc || d->rollback_due || d->run.stopped ||
      ++d->ready < s->rt->app_ranks)
    return;
  double now = run_time(s);
  if (d->kill)
    kill_resumed(s, d);
  else
    d->run.figures.recovery_s += now - d->recovering_since;
  d->recovering_since = -1;
  d->last_resume = now;
  /* A rollback performed: every rank restored the wave and resumes (the
   * trace's rollback records of this incarnation). Orders overtaken by a
   * later failure before GO are not rollbacks. */
  d->run.figures.rollbacks++;
  to_all_ranks(s, (struct ft_wire){.kind = FT_WIRE_GO, .inc = d->run.inc});
}

/* FINISH with the run's figures: value = the waves committed (rank 0's
 * proposals or the role's decisions), x = failures, rollbacks, lost
 * work, recovery time; wave = 1 when the run was stopped (stop_run). */
static struct ft_wire final_figures(const struct dispatcher *d) {
  return (struct ft_wire){
      .kind = FT_WIRE_FINISH,
      .inc = d->run.inc,
      .wave = d->run.stopped,
      .value = d->waves,
      .x = {d->run.figures.failures, d->run.figures.rollbacks,
            d->run.figures.lost_work_s, d->run.figures.recovery_s}};
}

static void on_done(struct service *s, struct dispatcher *d,
                    const struct ft_wire *m) {
  if (s->role_state && s->role->done &&
      !s->role->done(s->role_state, &d->run, m))
    return;
  if (m->inc != d->run.inc || d->rollback_due || d->finished ||
      ++d->run.done < s->rt->app_ranks)
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
 * keeps one sender's messages in order), so their stores agree. A role's
 * commits are decided here too, in apply_update. */
static void on_commit(struct service *s, const struct ft_wire *m) {
  char err[512];
  if (m->inc < s->inc)
    return;
  if (s->d) {               /* rank 0's proposal */
    if (!s->d->run.stopped) /* else the run is over: nobody hears of it */
      decide_commit(s, s->d, m->wave, m->inc, m->x[0]);
    return;
  }
  if (s->serves > 0 && ft_store_commit(s->store, m->wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

static void on_commit_rank(struct service *s, const struct ft_wire *m) {
  char err[512];
  if (ft_store_commit_rank(s->store, m->from, m->wave, err, sizeof err) != 0)
    ft_fatal("checkpoint server %d: %s", s->index, err);
}

/* A message the generic service does not know: the role's, or an error. */
static void role_control(struct service *s, const struct ft_wire *m) {
  struct ft_service_update u = {0};
  struct ft_service_run *run = s->d ? &s->d->run : NULL;
  char kind[64];
  if (!s->role_state || !s->role->control ||
      !s->role->control(s->role_state, &s->env, run, m, &u))
    ft_fatal("service %d: unexpected control message %s from rank %d", s->index,
             ft_wire_label(s->rt, m->kind, kind, sizeof kind), m->from);
  apply_update(s, s->d, &u);
}

static void on_message(struct service *s, const struct ft_wire *m) {
  switch (m->kind) {
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
    role_control(s, m);
  }
}

/* One round: timed events, transfers, then a wait for whichever comes
 * first of a message, a transfer's end and the next timed event; a message
 * is handled at once. No polling: the service wakes exactly when something
 * happens (defect 4 of issue 13: a 1 ms poll delayed every message while a
 * failure was pending, even one due after the end of the run). */
static void take(struct service *s, const struct ft_wire *m) {
  if (s->d && m->from >= 0 && m->from < s->rt->app_ranks)
    s->d->heard = clock_of(s);
  on_message(s, m);
}

/* The earlier of two deadlines (< 0: none). */
static double earlier(double a, double b) {
  return a < 0 || (b >= 0 && b < a) ? b : a;
}

/* A service with a courier (the family names it, control.h) takes its
 * latency-only messages due before it blocks, one a round, and waits
 * until the first of the others is due at most; one posted meanwhile that
 * comes first wakes it (ft_backend_courier_attach: no bell). */
static void service_round(struct service *s) {
  double next = s->d ? dispatcher_tick(s, s->d) : -1;
  struct ft_wire m;
  progress_if_moved(s);
  if (ft_control_take_due(s->rt, &m)) {
    take(s, &m);
    return;
  }
  if (wait_event(s, 1, earlier(next, ft_control_next_due(s->rt)))) {
    m = ft_control_take(s->rt);
    if (m.kind != FT_WIRE_BELL)
      take(s, &m);
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
  s->modelled = calloc((size_t)rt->app_ranks, sizeof *s->modelled);
  if (!s->modelled)
    ft_fatal("checkpoint server %d: out of memory", s->index);
  for (int r = 0; r < rt->app_ranks; r++)
    if (ft_server_of(rt, r) == rt->world_rank) {
      ft_store_serve(s->store, r);
      s->serves++;
    }
  adopt_committed(s);
}

/* The family's role (service_role.h), told where it runs; no part here
 * when its start says so. */
static void start_role(struct service *s) {
  s->role = s->rt->driver->service;
  s->env = (struct ft_service_env){.rt = s->rt,
                                   .index = s->index,
                                   .servers = s->rt->servers,
                                   .start = s->start,
                                   .scenario = s->d ? &s->d->scenario : NULL};
  s->role_state = s->role ? s->role->start(&s->env) : NULL;
}

/* The run is over: settles the control channel, finishes the transfers and
 * frees everything. */
static void close_service(struct service *s) {
  struct ft_runtime *rt = s->rt;
  /* The control channel first: a rank that stopped (a run that could not
   * progress) takes the bytes of an image or events sent to it only when
   * it drains the messages that announce them (ft_control_drain), after
   * the drain's all-to-all, which this rank must reach first. The waiter's
   * helper lets go of the control receive first (a service with a
   * courier took SHUTDOWN from it while the helper waited). */
  ft_backend_waiter_recall(s->waiter);
  ft_settle_control(rt);
  /* Images still on their way were all asked for: they complete soon. */
  while (progress_transfers(s) > 0)
    (void)wait_event(s, 0, -1);
  ft_backend_waiter_destroy(s->waiter);
  ft_control_finish_payloads(&rt->ctl);
  ft_control_last_barrier(rt);
  ft_store_destroy(s->store);
  if (s->role_state)
    s->role->stop(s->role_state);
  if (s->d)
    ft_scenario_free(&s->d->scenario);
  free(s->transfers);
  free(s->waited);
  free(s->modelled);
}

void ft_service_main(struct ft_runtime *rt, MPI_Comm services) {
  struct service s = {
      .rt = rt, .start = ft_backend_now(), .zero = rt->init_time};
  struct dispatcher d;
  FT_PMPI(Comm_rank, services, &s.index);
  rt->servers = rt->world_size - rt->app_ranks;
  open_store(&s);
  if (s.index == 0) {
    memset(&d, 0, sizeof d);
    s.d = &d;
    load_scenario(&s, &d);
    if (d.kill)
      kill_start(&s, &d);
    d.heard = s.start;
  }
  start_role(&s);
  s.waiter = ft_backend_waiter_create();
  ft_backend_courier_attach(rt->ctl.courier, s.waiter); /* no bells */
  ft_control_start(rt);
  while (!s.stop)
    service_round(&s);
  close_service(&s);
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
    struct ft_wire m = ft_control_next(rt);
    if (m.kind == FT_WIRE_FINISH && m.from == ft_dispatcher(rt)) {
      ft_control_handle(rt, &m);
      return;
    }
    ft_control_discard(rt, &m);
  }
}
