/* Runtime life cycle: MPI_Init splits service ranks off the world and gives
 * the application a substitute MPI_COMM_WORLD; MPI_Finalize gathers the run's
 * summary and prints it from application rank 0; MPI_Abort. */
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "service.h"

/* The options must go together (ft_options_check: a scenario needs a
 * protocol that recovers, which needs a service rank, and message logging
 * its event loggers); `ftsim run` checked them before launching, this is
 * for a program started by hand. */
static void check_fault_tolerance(struct ft_runtime *rt, int rank) {
  char err[512];
  int bad = ft_options_check(&rt->options, err, sizeof err) != 0;
  if (bad && rank == 0)
    ft_fatal("%s", err);
  if (bad)
    FT_PMPI(Barrier, MPI_COMM_WORLD); /* rank 0 ends the run meanwhile */
  rt->recovering_protocol = ft_protocol_recovers(rt->protocol);
  rt->driver = ft_driver_of(rt->protocol->family);
  rt->track_deliveries = rt->recovering_protocol ||
                         ft_daemon_delay(&rt->options, 1) > 0 ||
                         rt->options.trace[0];
  rt->servers = rt->options.service_ranks;
  if (rt->options.failure == FT_FAILURE_KILL && ft_backend_simulated() &&
      rank == 0)
    ft_fatal("failure=kill: a real kill needs a real MPI (ftsim run --real); "
             "simulated failures are logical");
}

/* Every rank parses the same text; rank 0 alone reports an error. */
static void read_options(struct ft_runtime *rt) {
  char err[1024]; /* an unknown key's error lists every known key */
  const char *text = getenv(FT_OPTIONS_ENV);
  int rank;
  FT_PMPI(Comm_rank, MPI_COMM_WORLD, &rank);
  if (ft_options_parse(text, &rt->options, err, sizeof err) != 0) {
    if (rank == 0)
      ft_fatal("%s=\"%s\": %s", FT_OPTIONS_ENV, text, err);
    FT_PMPI(Barrier, MPI_COMM_WORLD); /* rank 0 ends the run meanwhile */
  }
  rt->protocol = ft_protocol_find(rt->options.protocol);
  if (!rt->protocol) /* parse() checked the name; keep the invariant local */
    ft_fatal("unknown protocol '%s'", rt->options.protocol);
  check_fault_tolerance(rt, rank);
}

/* A fresh core of rt's protocol with `config`: 0, or -1 when it refuses
 * the configuration. */
static int init_core(struct ft_runtime *rt,
                     const struct ft_core_config *config) {
  free(rt->protocol_state);
  rt->protocol_state = calloc(1, rt->protocol->state_size(config) + 1);
  if (!rt->protocol_state)
    ft_fatal("out of memory for the %s core", rt->protocol->name);
  return rt->protocol->init(rt->protocol_state, config);
}

static void start_protocol(struct ft_runtime *rt) {
  struct ft_core_config config = {.rank = rt->world_rank,
                                  .ranks = rt->app_ranks,
                                  .period = rt->options.period,
                                  .start = ft_backend_now(),
                                  .batch = rt->options.log_batch};
  /* any_call=1 (a replay): the core's any-call mode when it has one
   * (sim/ft_anycall.h), else its safe points. */
  config.any_call = rt->options.any_call && rt->recovering_protocol;
  if (config.any_call && init_core(rt, &config) != 0)
    config.any_call = 0;
  rt->ac.core_mode = config.any_call;
  if (!config.any_call && init_core(rt, &config) != 0)
    ft_fatal("protocol %s rejected its configuration (rank %d of %d)",
             rt->protocol->name, config.rank, config.ranks);
  if (rt->driver->start)
    rt->driver->start(rt);
}

/* Issue 18, item 1: every communicator SMPI 3.32 makes broadcasts its id
 * on itself with the selected bcast (smpi_comm.cpp, Comm::Comm), and
 * under the `ompi` selector that bcast (mvapich2_knomial_intra_node from
 * 64 ranks on) first runs Comm::init_smp, two ring allgathers: O(p^2)
 * messages per communicator, the whole start-up gap at 1,024 ranks. So
 * the runtime makes only the communicators it needs: the control channel
 * is the real MPI_COMM_WORLD, which the application never reaches (its
 * MPI_COMM_WORLD is rt->app_world), and with no service rank the
 * application's world is MPI_COMM_WORLD itself, as in a plain run; what
 * is left is the collectives' shadow (comm.c). */

/* Service ranks run their services and never return: the end of
 * MPI_Init for them. `mine` is the service ranks' communicator. */
_Noreturn static void run_service(struct ft_runtime *rt, MPI_Comm mine) {
  ft_service_main(rt, mine);
  ft_trace_stop(rt);
  FT_PMPI(Comm_free, &mine);
  ft_pmpi_check(PMPI_Finalize(), "MPI_Finalize");
  ft_backend_exit_rank(0);
}

/* Splits the world: ranks [0, app_ranks) run the application, the last
 * service_ranks ranks run services and never return from MPI_Init. */
static void split_world(struct ft_runtime *rt) {
  FT_PMPI(Comm_rank, MPI_COMM_WORLD, &rt->world_rank);
  FT_PMPI(Comm_size, MPI_COMM_WORLD, &rt->world_size);
  rt->app_ranks = rt->world_size - rt->options.service_ranks;
  if (rt->app_ranks < 1 && rt->world_rank == 0)
    ft_fatal("%d service ranks requested but the run has only %d ranks: "
             "launch with more ranks (np + service_ranks)",
             rt->options.service_ranks, rt->world_size);
  if (rt->app_ranks < 1)
    FT_PMPI(Barrier, MPI_COMM_WORLD); /* rank 0 ends the run meanwhile */
  rt->control = MPI_COMM_WORLD;
  MPI_Comm mine = MPI_COMM_WORLD;
  int is_service = rt->world_rank >= rt->app_ranks;
  if (rt->options.service_ranks > 0) {
    FT_PMPI(Comm_split, MPI_COMM_WORLD, is_service, rt->world_rank, &mine);
    ft_backend_bench_restart();
  }
  if (!is_service) {
    rt->app_base = mine;
    rt->app_world = mine;
    ft_comm_register_world(rt, mine);
  }
  ft_control_courier_start(rt); /* before any rank can post to it */
  rt->init_time = ft_control_start_line();
  if (rt->recovering_protocol && ft_backend_simulated() && !is_service)
    ft_fate_start(&rt->fate, rt->options.scenario, rt->world_rank,
                  rt->app_ranks, rt->init_time);
  if (is_service)
    run_service(rt, mine);
  if (rt->options.failure == FT_FAILURE_KILL)
    ft_trace_open(rt); /* before any kill can cut it */
  if (rt->recovering_protocol && rt->options.relaunch == 0)
    ft_arm_kill(rt);                  /* a relaunch arms it when it resumes */
  if (rt->options.service_ranks == 0) /* the world is the application's */
    rt->control = ft_comm_traffic(ft_comm_get(rt, MPI_COMM_WORLD), 1);
}

static void finalize_stopped(struct ft_runtime *rt);

static int init_common(int *argc, char ***argv) {
  struct ft_runtime *rt = ft_runtime();
  /* Until the start line sets it (split_world): the failures' time 0. */
  rt->init_time = ft_backend_now();
  rt->argc = argc ? *argc : 0;
  rt->argv = argv ? *argv : NULL;
  for (int i = 0; i < 2; i++)
    rt->images[i].upload = MPI_REQUEST_NULL;
  rt->ctrl_req = MPI_REQUEST_NULL;
  rt->deadline = -1;
  /* FTSIM_WAIT_EVERY_SEND set: every send's wait goes to the library, as
   * before pending.c completed some itself (a comparison's baseline:
   * tests/runtime/at_once_time.sh, bench/protocol_scale.sh). */
  rt->send_done_below =
      getenv("FTSIM_WAIT_EVERY_SEND") ? 0 : ft_backend_send_done_below();
  rt->ctl.handle = ft_control_handle; /* the upcalls (docs/layers.md) */
  rt->ctl.deadline = ft_check_deadline;
  rt->finish_stopped = finalize_stopped;
  /* Under SMPI every rank shares one stdout: whole lines keep the output of
   * ranks, and the summary line, readable when stdout is a pipe. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  read_options(rt);
  ft_trace_start(rt);
  split_world(rt);
  ft_record_start(rt);
  start_protocol(rt);
  rt->initialized = 1;
  rt->running = 1;
  if (rt->recovering_protocol)
    ft_control_start(rt);
  rt->start_time = PMPI_Wtime();
  if (rt->recovering_protocol && rt->options.relaunch > 0)
    ft_relaunch_wait(rt); /* then main() from the top, its image back */
  return MPI_SUCCESS;
}

/* After a rollback main() runs again: MPI is already initialised. */
/* The first return address into the application's module: its main's
 * module (recovery.c). The Fortran bindings note theirs first. */
void ft_note_init_caller(struct ft_runtime *rt, const void *caller) {
  if (!rt->init_caller)
    rt->init_caller = caller;
}

int MPI_Init(int *argc, char ***argv) {
  ft_note_init_caller(ft_runtime(), __builtin_return_address(0));
  if (ft_runtime()->initialized)
    return MPI_SUCCESS;
  int rc = PMPI_Init(argc, argv);
  return rc != MPI_SUCCESS ? rc : init_common(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  ft_note_init_caller(ft_runtime(), __builtin_return_address(0));
  if (ft_runtime()->initialized) {
    *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
  }
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  return rc != MPI_SUCCESS ? rc : init_common(argc, argv);
}

/* The run's figures, reduced over the application ranks. */
struct run_totals {
  double completion_s;
  unsigned long long messages, bytes, ckpt_bytes, recorded, replayed;
  unsigned long long events, el_messages, sb_bytes, deliveries, restarts;
  unsigned long long commits; /* checkpoints committed, all ranks */
  unsigned long long ac[4];   /* the any-call transport's figures */
  unsigned long long drained; /* the on-line drain's (drained_msgs) */
  unsigned long long heap_peak, heap_released, stack_gap; /* max, sum, max */
  unsigned long long images_held, image_asks;             /* max, max */
  double storage_s[2];    /* ckpt_write_s, restart_read_s: sums */
  int reported, verified; /* ranks that reported; ranks that said "verified" */
};

/* MPI_Reduce of `count` elements over the application ranks to rank 0 (out
 * on rank 0), on the control communicator with its own tag (FT_TAG_SUMMARY:
 * the application's world may still have the any-call transport's
 * MPI_ANY_TAG receives posted), the
 * way SMPI's default MPI_Reduce does it (every other rank sends its
 * contribution to rank 0, which posts a receive from each, then combines
 * them), so that the simulation sees the same messages at the same times:
 * they share the network with ranks still running the application. But
 * rank 0 waits for its receives one at a time, not with SMPI's waitall,
 * which is MPI_Waitany over all of them again and again: SimGrid 3.32
 * tests every request and scans the actor's list of communications at each
 * completion, O(ranks^2) per reduction or worse, and the summary's five
 * reductions took 52% of the wall time of a 1,024-rank run (perf, cg on
 * grid5000). And the other ranks send synchronously (MPI_Ssend): a small
 * standard send is detached in SMPI, and SimGrid 3.32 keeps every detached
 * send in one global list that it scans at every completion
 * (CommImpl::finish, maestro's activities_.remove). Each rank's five sends
 * went there at once and waited for rank 0's receives, a list of 5 x ranks
 * scanned 5 x ranks times: at 4,096 ranks a 20,000-entry list (read by a
 * uprobe), 19 of 21 perf samples of a run's end in that scan.
 * The first reduction's transfers are the same: under SMPI
 * (smpi/async-small-thresh 0) a message's transfer starts when rank 0's
 * receive matches it, detached or not. A sender now returns when its
 * message is in and posts its next one then; rank 0 posts the next
 * reduction's receives once the previous one is complete, when every rank
 * has ended: no rank's figures depend on those later transfers. */
static void summary_reduce(const struct ft_runtime *rt, const void *in,
                           void *out, int count, MPI_Datatype type, MPI_Op op) {
  int bytes;
  FT_PMPI(Type_size, type, &bytes);
  if (rt->world_rank != 0) {
    FT_PMPI(Ssend, in, count, type, 0, FT_TAG_SUMMARY, rt->control);
    return;
  }
  int size = rt->app_ranks;
  size_t n = (size_t)count * (size_t)bytes;
  char *parts = malloc((size_t)size * n + 1);
  MPI_Request *req = malloc((size_t)size * sizeof *req);
  if (!parts || !req)
    ft_fatal("out of memory reducing the summary");
  for (int r = 1; r < size; r++)
    FT_PMPI(Irecv, parts + (size_t)r * n, count, type, r, FT_TAG_SUMMARY,
            rt->control, &req[r]);
  memcpy(out, in, n);
  for (int r = 1; r < size; r++) {
    FT_PMPI(Wait, &req[r], MPI_STATUS_IGNORE);
    FT_PMPI(Reduce_local, parts + (size_t)r * n, out, count, type, op);
  }
  free(parts);
  free(req);
}

/* What abandoned lives leave (app_heap.c, recovery.c, checkpoint.c): the
 * most application heap one rank held, the bytes freed, the deepest stack
 * gap, the most checkpoint images one rank held, the most image requests
 * one rank had unanswered at once. */
static void reduce_memory(const struct ft_runtime *rt, struct run_totals *t) {
  unsigned long long max[4] = {rt->heap.peak, rt->gap_max,
                               (unsigned long long)rt->images_peak,
                               (unsigned long long)rt->image_asks_peak};
  unsigned long long top[4];
  unsigned long long freed = rt->heap.released;
  summary_reduce(rt, max, top, 4, MPI_UNSIGNED_LONG_LONG, MPI_MAX);
  summary_reduce(rt, &freed, &t->heap_released, 1, MPI_UNSIGNED_LONG_LONG,
                 MPI_SUM);
  t->heap_peak = top[0];
  t->stack_gap = top[1];
  t->images_held = top[2];
  t->image_asks = top[3];
}

static struct run_totals reduce_totals(struct ft_runtime *rt, double end) {
  struct run_totals t = {0};
  struct ft_family_figures f = {0};
  if (rt->driver && rt->driver->figures)
    rt->driver->figures(rt, &f);
  double start, ends[2] = {end, -rt->start_time}, max[2];
  unsigned long long local[16] = {rt->counters.messages,
                                  rt->counters.bytes,
                                  rt->ckpt_bytes,
                                  f.recorded,
                                  f.replayed,
                                  f.events,
                                  f.el_messages,
                                  f.sb_bytes,
                                  f.deliveries,
                                  f.restarts,
                                  rt->waves_committed,
                                  f.ac_ckpts,
                                  f.ac_in_flight,
                                  f.ac_deferred,
                                  f.ac_queued,
                                  f.drained};
  unsigned long long sum[16];
  int counts[2], flags[2] = {rt->result_reported,
                             rt->result_reported && rt->result_verified};
  summary_reduce(rt, ends, max, 2, MPI_DOUBLE, MPI_MAX);
  summary_reduce(rt, local, sum, 16, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
  summary_reduce(rt, flags, counts, 2, MPI_INT, MPI_SUM);
  reduce_memory(rt, &t);
  if (ft_storage_uses_disks(rt->options.storage)) { /* else no such fields:
                                                       the same messages as
                                                       before disks */
    double mine[2] = {rt->ckpt_write_s, rt->restart_read_s};
    summary_reduce(rt, mine, t.storage_s, 2, MPI_DOUBLE, MPI_SUM);
  }
  start = -max[1];
  t.completion_s = max[0] - start;
  t.messages = sum[0];
  t.bytes = sum[1];
  t.ckpt_bytes = sum[2];
  t.recorded = sum[3];
  t.replayed = sum[4];
  t.events = sum[5];
  t.el_messages = sum[6];
  t.sb_bytes = sum[7];
  t.deliveries = sum[8];
  t.restarts = sum[9];
  t.commits = sum[10];
  memcpy(t.ac, &sum[11], sizeof t.ac);
  t.drained = sum[15];
  t.reported = counts[0];
  t.verified = counts[1];
  return t;
}

static void print_summary(const struct ft_runtime *rt,
                          const struct run_totals *t) {
  char result[64] = "null";
  /* A stopped run did not finish: nothing to verify (null, not false). */
  const char *verified = !t->reported || rt->stopped  ? "null"
                         : t->verified == t->reported ? "true"
                                                      : "false";
  if (rt->result_reported && !rt->stopped)
    snprintf(result, sizeof result, "%.17g", rt->result_value);
  const struct ft_failure_figures *f = &rt->failures;
  printf("FTSIM_SUMMARY {\"protocol\":\"%s\",\"ranks\":%d,"
         "\"service_ranks\":%d,\"completion_time_s\":%.9f,"
         "\"outcome\":\"%s\",\"verified\":%s,\"result\":%s,"
         "\"messages\":%llu,\"bytes\":%llu,\"waves\":%llu,"
         "\"safe_points\":%lld,\"ckpt_bytes\":%llu,\"failures\":%.0f,"
         "\"rollbacks\":%.0f,\"lost_work_s\":%.9f,\"recovery_s\":%.9f,"
         "\"channel_msgs\":%llu,\"replayed_msgs\":%llu,"
         "\"ranks_restarted\":%llu,\"events_logged\":%llu,"
         "\"events_per_message\":%.6f,\"sb_bytes\":%llu,"
         "\"el_messages\":%llu,\"app_heap_peak\":%llu,"
         "\"app_heap_released\":%llu,\"stack_gap\":%llu,"
         "\"images_held\":%llu,\"image_requests\":%llu",
         rt->protocol->name, rt->app_ranks, rt->options.service_ranks,
         t->completion_s, rt->stopped ? "no_progress" : "completed", verified,
         result, t->messages, t->bytes,
         ft_driver_restarts_alone(rt->driver)
             ? t->commits
             : (unsigned long long)rt->waves_committed,
         (long long)rt->safe_points, t->ckpt_bytes, f->failures, f->rollbacks,
         f->lost_work_s, f->recovery_s, t->recorded, t->replayed, t->restarts,
         t->events,
         t->deliveries ? (double)t->events / (double)t->deliveries : 0.0,
         t->sb_bytes, t->el_messages, t->heap_peak, t->heap_released,
         t->stack_gap, t->images_held, t->image_asks);
  if (ft_storage_uses_disks(rt->options.storage))
    printf(",\"storage\":\"%s\",\"ckpt_write_s\":%.9f,"
           "\"restart_read_s\":%.9f",
           ft_storage_name(rt->options.storage), t->storage_s[0],
           t->storage_s[1]);
  if (rt->options.failure == FT_FAILURE_KILL) /* a real kill's figures */
    printf(",\"failure\":\"kill\",\"relaunches\":%d,\"restart_s\":%.9f",
           rt->options.relaunch, f->recovery_s);
  if (rt->driver && rt->driver->drains &&
      !rt->ac.core_mode) /* the on-line drain (driver.h) */
    printf(",\"drained_msgs\":%llu", t->drained);
  if (rt->ac.core_mode) /* a replay checkpointing at any call */
    printf(",\"ckpt_calls\":%llu,\"ckpt_in_flight\":%llu,"
           "\"deferred_msgs\":%llu,\"queued_msgs\":%llu",
           t->ac[0], t->ac[1], t->ac[2], t->ac[3]);
  printf("}\n");
  fflush(stdout);
}

/* Issue 14, item 4: a program that never calls ft_snapshot gives the
 * protocol no point at which to checkpoint (ft.h: checkpoints are taken at
 * safe points only), so `period` has no effect and a failure restarts it
 * from the top of main(). Said once, by rank 0, at the end of the run. */
static void warn_no_safe_point(const struct ft_runtime *rt) {
  if (!rt->recovering_protocol || rt->options.period <= 0 ||
      rt->safe_points > 0)
    return;
  fprintf(stderr,
          "ftsim: warning: period=%g but the program reached no safe point "
          "(it never calls ft_snapshot), so protocol %s took no checkpoint "
          "and a failure restarts it from the beginning (%.0f failures, "
          "lost work %.3f s). Remedy: call ft_snapshot() at a safe point of "
          "the main loop (the top of an iteration, no message in flight), "
          "with the loop's state registered by ft_protect (see ft.h); or "
          "record the program once (ftsim record) and replay it (ftsim run "
          "--replay): a replay checkpoints at any MPI call\n",
          rt->options.period, rt->protocol->name, rt->failures.failures,
          rt->failures.lost_work_s);
}

/* Under failure=kill a relaunch's own span is the run's last part only
 * (README, "Real failures: kill and relaunch"): before it come the run
 * time up to the failure that ended the launch before (a relaunch resumes
 * at that run time, the images of the last commit loaded, as a rollback
 * does) and every restart (recovery_s, from each kill to the next
 * launch's resumption), as in a simulated run whose failures are
 * logical. 0 for launch 0 and without kills. */
static double kill_run_before(const struct ft_runtime *rt) {
  char err[256];
  double origin;
  struct ft_failure ended;
  if (rt->options.failure != FT_FAILURE_KILL || rt->options.relaunch <= 0)
    return 0;
  if (ft_failures_span(rt->options.scenario, rt->app_ranks,
                       rt->options.relaunch - 1, &origin, &ended, err,
                       sizeof err) <= 0)
    ft_fatal("relaunch %d: %s", rt->options.relaunch,
             *err ? err
                  : "the scenario has no failure that ended the "
                    "launch before");
  return ended.time + rt->failures.recovery_s;
}

int MPI_Finalize(void) {
  struct ft_runtime *rt = ft_runtime();
  ft_record_finish(rt);
  double end = PMPI_Wtime();
  if (rt->recovering_protocol)
    ft_wait_all_finished(rt);     /* a rollback meanwhile does not return */
  ft_fate_disarm_kill(&rt->fate); /* the run is over: no kill now */
  struct run_totals totals = reduce_totals(rt, end);
  ft_service_shutdown(rt); /* rank 0: the final figures come back */
  if (rt->world_rank == 0) {
    totals.completion_s += kill_run_before(rt);
    print_summary(rt, &totals);
    warn_no_safe_point(rt);
  }
  if (rt->driver->finish)
    rt->driver->finish(rt);
  ft_control_finish_payloads(&rt->ctl);
  ft_comm_drain_abandoned(&rt->comms);
  ft_settle_control(rt); /* every rank is here: what was sent has left */
  ft_fate_stop(&rt->fate);
  ft_comm_drain_abandoned(&rt->comms);
  ft_control_last_barrier(rt);
  ft_settle_finish(rt); /* frees the abandoned communicators */
  ft_comm_forget_all(&rt->comms);
  free(rt->protocol_state);
  rt->protocol_state = NULL;
  rt->finalized = 1;
  ft_trace_stop(rt);
  return PMPI_Finalize();
}

/* The end of a stopped run, on every application rank (rt->finish_stopped,
 * called by recovery.c's ft_stop_now): its communicators abandoned, the
 * figures reduced, the summary printed by rank 0 with
 * "outcome":"no_progress" and "verified":null, the control channel settled,
 * MPI finalized; the rank exits with status 0. */
static void finalize_stopped(struct ft_runtime *rt) {
  double end = PMPI_Wtime();
  ft_fate_disarm_kill(&rt->fate);
  ft_comm_abandon_all(&rt->comms,
                      rt->incarnation); /* their traffic is drained below */
  rt->app_world = rt->app_base;
  struct run_totals totals = reduce_totals(rt, end);
  ft_service_shutdown(rt); /* rank 0: the final figures come back */
  if (rt->world_rank == 0)
    print_summary(rt, &totals);
  /* The control channel first, then this rank's own sends: their receivers
   * take what was sent to them only in their drains (ft_control_discard,
   * ft_comm_drain_abandoned), which come after the drain's all-to-all. */
  ft_settle_control(rt);
  ft_fate_stop(&rt->fate);
  ft_comm_drain_abandoned(&rt->comms);
  if (rt->driver->finish)
    rt->driver->finish(rt);
  ft_control_finish_payloads(&rt->ctl);
  ft_comm_drain_abandoned(&rt->comms);
  ft_control_last_barrier(rt);
  ft_comm_forget_all(&rt->comms);
  free(rt->protocol_state);
  rt->protocol_state = NULL;
  rt->finalized = 1;
  ft_trace_stop(rt);
  ft_pmpi_check(PMPI_Finalize(), "MPI_Finalize");
  ft_backend_exit_rank(0);
}

/* A failed application takes its services down too, and the run ends
 * with a non-zero status under smpirun as under mpirun. */
int MPI_Abort(MPI_Comm comm, int errorcode) {
  (void)comm;
  fprintf(stderr, "ftsim: MPI_Abort(%d) called by rank %d\n", errorcode,
          ft_runtime()->world_rank);
  ft_backend_abort(errorcode);
}
