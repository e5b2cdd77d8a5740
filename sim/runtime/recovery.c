/* Rollback recovery on an application rank: control messages from the
 * dispatcher and the servers, the restart of main(), and the end-of-run
 * handshake.
 *
 * A failure is logical (DESIGN.md: turning a SimGrid host off aborts the
 * whole simulation): the failed rank abandons its application at once and
 * loses its memory; at detection every rank abandons its application,
 * restores the last committed wave and runs main() again from the top, as a
 * relaunched binary would. Control reaches a rank only inside MPI calls
 * (control.h), so "at once" means at the rank's next MPI call or wait. */
#include <alloca.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "image.h"
#include "runtime.h"

/* The application's entry point, found the way smpirun finds it
 * (SimGrid 3.32, smpi_global.cpp, smpi_resolve_function): a Fortran main
 * program that smpiff turned into `subroutine user_main` first, then C's,
 * C++'s or gfortran's own `main`. Both are weak: a module has one or the
 * other (smpiff's has no `main`, and -Wl,-z,defs accepts a weak undefined
 * reference), and an unresolved one is NULL. */
extern int main(int argc, char **argv) __attribute__((weak));
extern void user_main_(void) __attribute__((weak));

/* Runs the application's entry point again from the top; returns its
 * exit code (0 for a Fortran main program that returns). Under SMPI the
 * runtime may be a shared library of its own, with one copy of the program
 * per rank: the entry points are then this rank's copy's, found from where
 * it called MPI_Init (ft_backend_entry_points). */
static int run_application(struct ft_runtime *rt) {
  int (*c_main)(int, char **) = main;
  void (*f_main)(void) = user_main_;
  if (ft_backend_entry_points(rt->init_caller, &c_main, &f_main) < 0)
    ft_fatal("rank %d: cannot find the program module that called "
             "MPI_Init, to run its main again",
             rt->world_rank);
  if (f_main) {
    f_main();
    return 0;
  }
  if (c_main)
    return c_main(rt->argc, rt->argv);
  ft_fatal("the program has neither main nor user_main_ to restart");
}

/* ---- Control messages ---- */

static void receive_image(struct ft_runtime *rt, const struct ft_wire *m);

static void defer(struct ft_runtime *rt, const struct ft_wire *m) {
  rt->deferred = ft_reserve(rt->deferred, rt->n_deferred + 1, &rt->cap_deferred,
                            sizeof *rt->deferred, "deferred control messages");
  rt->deferred[rt->n_deferred++] = *m;
}

static void deliver_to_core(struct ft_runtime *rt, const struct ft_wire *m) {
  struct ft_event e = ft_event_of_wire(m);
  if (rt->driver->on_core_message) /* the family reads its own kinds */
    rt->driver->on_core_message(rt, m);
  ft_core_step(rt, &e);
}

/* A core message of another incarnation is stale and dropped; one that
 * arrives while this rank recovers waits for the resumption. */
static void on_core_message(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->inc != rt->incarnation)
    return;
  if (!rt->running)
    defer(rt, m);
  else
    deliver_to_core(rt, m);
}

static void on_fail(struct ft_runtime *rt, const struct ft_wire *m) {
  ft_fate_failed(&rt->fate);
  rt->dead = 1;
  rt->restart_cost_s = m->x[0];
  if (rt->driver->on_fail) /* the life a rank restarting alone goes to */
    rt->driver->on_fail(rt, m->wave);
  if (m->inc > rt->incarnation)
    rt->incarnation = m->inc; /* what this rank sent before is now stale */
  ft_rollback_now(rt);
}

static void on_rollback(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->inc <= rt->rollback_inc)
    return; /* a duplicate */
  rt->rollback_inc = m->inc;
  rt->incarnation = m->inc;
  rt->rollback_wave = m->wave;
  if (m->value == rt->world_rank) {
    rt->dead = 1;
    rt->restart_cost_s = m->x[0];
  }
  ft_rollback_now(rt);
}

static void on_stored(struct ft_runtime *rt, const struct ft_wire *m) {
  rt->ckpt_write_s += m->x[0]; /* the server's disk write (storage) */
  ft_local_image_stored(rt, (uint64_t)m->value);
  if (m->inc != rt->incarnation || !rt->running)
    return;
  struct ft_event e = {
      .type = FT_EVENT_IMAGE_STORED, .peer = -1, .tag = -1, .wave = m->wave};
  ft_core_step(rt, &e);
}

/* A FINISH with wave 1 stops the run whatever this rank's incarnation
 * (a failed rank may not know of the latest one yet) and wherever it is:
 * running, recovering, or waiting for the others to finish. */
static void on_finish(struct ft_runtime *rt, const struct ft_wire *m) {
  int stop = m->wave == 1;
  if (m->inc != rt->incarnation && !stop)
    return;
  rt->finished = 1;
  rt->stopped |= stop;
  if (!rt->driver->commit) /* the dispatcher decided the commits, or its
                              scheduler did; else each rank counts its own */
    rt->waves_committed = (uint64_t)m->value;
  rt->failures = (struct ft_failure_figures){.failures = m->x[0],
                                             .rollbacks = m->x[1],
                                             .lost_work_s = m->x[2],
                                             .recovery_s = m->x[3]};
  if (stop && !rt->stopping)
    ft_stop_now(rt);
}

/* A kind the generic runtime does not know: a core's message, or one of
 * the family's wire kinds (its driver's on_control), else an error naming
 * it. */
static void family_or_core(struct ft_runtime *rt, const struct ft_wire *m) {
  char kind[64];
  if (m->kind < FT_WIRE_STORE)
    on_core_message(rt, m);
  else if (!rt->driver->on_control || !rt->driver->on_control(rt, m))
    ft_fatal("rank %d: unexpected control message %s from rank %d",
             rt->world_rank, ft_wire_label(rt, m->kind, kind, sizeof kind),
             m->from);
}

void ft_control_handle(struct ft_runtime *rt, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_FAIL:
    on_fail(rt, m);
    break;
  case FT_WIRE_ROLLBACK:
    on_rollback(rt, m);
    break;
  case FT_WIRE_GO:
    rt->go_inc = m->inc;
    break;
  case FT_WIRE_FINISH:
    on_finish(rt, m);
    break;
  case FT_WIRE_STORED:
    on_stored(rt, m);
    break;
  case FT_WIRE_IMAGE:
    receive_image(rt, m);
    break;
  case FT_WIRE_GATE_ENTER:
  case FT_WIRE_GATE_DECISION:
    ft_gate_on_control(rt, m);
    break;
  case FT_WIRE_STOPPED:
    rt->peers_stopped++;
    break;
  case FT_WIRE_FEED:
  case FT_WIRE_FED:
  case FT_WIRE_SETTLED:
    ft_settle_on_control(rt, m);
    break;
  default:
    family_or_core(rt, m);
  }
}

/* ---- Recovery ---- */

/* A failed rank lost its memory: its image comes back from its server.
 * The server sends the bytes right after the IMAGE answer, so they are
 * received at once, in order, even for an answer to an earlier request
 * (made before another failure interrupted the recovery): skipping one
 * would pair the next answer with stale bytes. */
/* What an image request names: the incarnation, or the family's life
 * number (a rank that restarts alone). */
static int image_life(const struct ft_runtime *rt) {
  return rt->driver->life ? rt->driver->life(rt) : rt->incarnation;
}

/* The image's read-back, counted under a storage that uses disks: its
 * transfer from the server's disk (done since `start`), or its read from
 * this host's disk (storage=local), the rank blocked meanwhile. */
static void read_back(struct ft_runtime *rt, double start) {
  int storage = rt->options.storage;
  if (storage == FT_STORAGE_LOCAL)
    rt->restart_read_s += ft_backend_disk_read(ft_image_modelled_bytes(rt));
  else if (ft_storage_uses_disks(storage))
    rt->restart_read_s += ft_backend_now() - start;
}

static void receive_image(struct ft_runtime *rt, const struct ft_wire *m) {
  int server = m->from;
  rt->image_asks--; /* answers come in the order of the requests */
  size_t size = m->value > 0 ? (size_t)m->value : 0;
  void *bytes = m->value < 0 ? NULL : malloc(size ? size : 1);
  if (m->value >= 0 && !bytes)
    ft_fatal("rank %d: out of memory for its image", rt->world_rank);
  double start = ft_backend_now();
  if (bytes) {
    void *padding = m->x[0] >= 1
                        ? ft_backend_padding_receive(server, rt->world_rank,
                                                     (uint64_t)m->x[1])
                        : NULL;
    FT_PMPI(Recv, bytes, (int)size, MPI_BYTE, server, FT_TAG_IMAGE, rt->control,
            MPI_STATUS_IGNORE);
    ft_backend_padding_done(padding, 1);
  }
  int asked = image_life(rt);
  if (m->inc != asked || rt->image_offered) {
    free(bytes); /* the answer to an abandoned request */
    return;
  }
  if (bytes)
    read_back(rt, start);
  rt->image_offer = *m;
  rt->image_bytes = bytes;
  rt->image_offered = 1;
}

/* Asks the server for this life's image, once the answer to a request of
 * a life lost during its fetch came (received and dropped): one request at
 * most is on its way. Asking at once instead left one more answer, its
 * copy of the image held at the server, per failure during a recovery;
 * the rank drains them one at a time, slower than failures can come (the
 * soak's seed 1204765: lu, 1.1 GB after 1214 failures). */
static void ask_image(struct ft_runtime *rt, int server, int wave) {
  while (rt->image_asks > 0)
    ft_wait_control(rt);
  if (rt->image_offered)
    return; /* that answer was this life's after all */
  struct ft_wire ask = {
      .kind = FT_WIRE_IMAGE_REQUEST, .wave = wave, .inc = image_life(rt)};
  ft_control_send(rt, server, &ask);
  if (++rt->image_asks > rt->image_asks_peak)
    rt->image_asks_peak = rt->image_asks;
}

int ft_fetch_image(struct ft_runtime *rt, int wave) {
  int server = ft_server_of(rt, rt->world_rank);
  rt->image_offered = 0;
  ask_image(rt, server, wave);
  while (!rt->image_offered)
    ft_wait_control(rt);
  if (!rt->image_bytes)
    return 0;
  struct ft_local_image *slot = &rt->images[0];
  ft_release_local_image(rt, slot); /* emptied by the caller: a no-op */
  ft_hold_local_image(rt, slot, rt->image_bytes, (size_t)rt->image_offer.value);
  rt->image_bytes = NULL;
  struct ft_image_info info;
  char err[256];
  if (ft_image_check(slot->bytes, slot->size, &info, err, sizeof err) != 0)
    ft_fatal("rank %d: image of wave %d from server %d: %s", rt->world_rank,
             rt->image_offer.wave, server, err);
  slot->wave = info.wave;
  slot->index = info.index;
  return info.wave;
}

static void fetch_image(struct ft_runtime *rt, int wave) {
  if (ft_fetch_image(rt, wave) == 0)
    ft_fatal("rank %d: checkpoint server %d has no image of wave %d",
             rt->world_rank, ft_server_of(rt, rt->world_rank), wave);
}

/* Drops local images: all of them (a failed rank), or those newer than the
 * wave restored. */
static void drop_images(struct ft_runtime *rt, int newer_than) {
  for (int i = 0; i < 2; i++)
    if (rt->images[i].wave > newer_than)
      ft_release_local_image(rt, &rt->images[i]);
}

/* A rank the failure spared rolls back to its image of `wave` too, which
 * it kept in memory; under a storage that uses disks it pays for reading
 * it back as the papers' processes did (sc06 section 4.1: "If a failure
 * occurs, all MPI processes restart from the local checkpoint stored on the
 * disk if it exists; otherwise they obtain it from the checkpoint
 * server"): from its node's disk (servers, local), or from the file server
 * (shared: there is no local copy), whose copy replaces the one in
 * memory. */
static void survivor_read_back(struct ft_runtime *rt, int wave) {
  int storage = rt->options.storage;
  if (wave <= 0 || !ft_storage_uses_disks(storage))
    return;
  if (storage == FT_STORAGE_SHARED) {
    drop_images(rt, -1);
    fetch_image(rt, wave);
  } else {
    rt->restart_read_s += ft_backend_disk_read(ft_image_modelled_bytes(rt));
  }
}

static void restore_memory(struct ft_runtime *rt) {
  int wave = rt->rollback_wave;
  if (rt->dead) {
    ft_backend_sleep(rt->restart_cost_s);
    drop_images(rt, -1);
    if (wave > 0)
      fetch_image(rt, wave);
    rt->dead = 0;
  } else {
    drop_images(rt, wave);
    survivor_read_back(rt, wave);
  }
  if (wave > 0 && !ft_local_image_of(rt, wave))
    ft_fatal("rank %d has no image of committed wave %d", rt->world_rank, wave);
}

void ft_deliver_deferred(struct ft_runtime *rt) {
  for (size_t i = 0; i < rt->n_deferred; i++)
    on_core_message(rt, &rt->deferred[i]);
  rt->n_deferred = 0;
}

/* A fresh world per incarnation: messages of an abandoned run never match
 * (DESIGN.md, "Incarnations"). Its creation is collective and cannot be
 * interrupted: every rank makes it right after GO, before the settle, in
 * which ranks wait for each other (settle.c). Then nothing of the
 * abandoned runs is left, their heap included. */
static void resume(struct ft_runtime *rt) {
  ft_comm_abandon_all(&rt->comms, rt->incarnation);
  FT_PMPI(Comm_dup, rt->app_base, &rt->app_world);
  ft_backend_bench_restart();
  ft_comm_register_world(rt, rt->app_world);
  ft_delivery_forget_all(&rt->deliveries);
  ft_settle(rt); /* may not return: another rollback */
  memset(rt->regions, 0, sizeof rt->regions);
  rt->safe_points = 0;
  rt->held = 0;
  rt->at_safe_point = 0; /* a rollback may have left a held safe point */
  rt->restore_pending = 1;
  rt->restore_wave = rt->rollback_wave;
  const struct ft_local_image *img = ft_local_image_of(rt, rt->rollback_wave);
  struct ft_event e = {.type = FT_EVENT_ROLLBACK,
                       .peer = -1,
                       .tag = -1,
                       .wave = rt->rollback_wave,
                       .index = img ? img->index : 0};
  if (rt->driver->resuming) /* what the family re-executes by */
    rt->driver->resuming(rt, &e);
  rt->running = 1;
  ft_core_step(rt, &e);
  if (!rt->ac.restoring) /* any-call: once the transport is restored */
    ft_deliver_deferred(rt);
}

/* A rollback or a restart: no persistent request is active any more (their
 * operations belonged to the abandoned run; persist.c keeps the records). */
static void reset_persistent(struct ft_runtime *rt) {
  for (size_t i = 0; i < rt->n_persistent; i++) {
    rt->persistent[i].active = MPI_REQUEST_NULL;
    rt->persistent[i].held = 0;
  }
}

static void recover(struct ft_runtime *rt) {
  rt->running = 0;
  rt->held = 0;
  ft_cut_uploads(rt);
  reset_persistent(rt);
  ft_gate_settle(rt); /* peers may wait inside a creation for this rank */
  if (rt->driver->restart) { /* this rank alone restarts */
    rt->driver->restart(rt);
    return;
  }
  while (rt->rollback_inc < rt->incarnation) /* a failed rank waits for */
    ft_wait_control(rt);                     /* the others to notice */
  restore_memory(rt);
  rt->coll_unit = 0;          /* a collective abandoned in the middle */
  if (rt->driver->rollback)   /* before READY: what the family kept of the */
    rt->driver->rollback(rt); /* abandoned run */
  struct ft_wire ready = {.kind = FT_WIRE_READY, .inc = rt->incarnation};
  ft_control_send(rt, ft_dispatcher(rt), &ready);
  while (rt->go_inc != rt->incarnation)
    ft_wait_control(rt);
  if (rt->arm_kill_at_go) { /* a relaunch's time 0 (ft_relaunch_wait) */
    rt->arm_kill_at_go = 0;
    /* Its span starts here: the time before, from the kill to now, is the
     * restart the dispatcher counts in recovery_s (kill_run_before). */
    rt->start_time = PMPI_Wtime();
    ft_arm_kill(rt);
  }
  resume(rt);
}

/* When a rank restarts alone (message logging), the receives a lost life
 * left posted complete later (the family's zombies), writing into their
 * buffers: some were on the lost life's stack, below the restart loop's
 * frame, where the recovery would now run. The recovery runs below a gap
 * as deep as that stack; the gap goes when the recovery returns, every
 * zombie fed (the driver's restart), so
 * that the next main() starts right below the loop's frame again and the
 * gap stays as deep as one life, whatever the number of failures. */
static __attribute__((noinline)) void recover_below(struct ft_runtime *rt,
                                                    size_t gap) {
  volatile char *keep = alloca(gap);
  keep[0] = 0;
  recover(rt);
  keep[0] = 1; /* the gap lives until the recovery returns */
}

/* The gap for this recovery: a failure of a running life needs that life's
 * depth (from the loop's frame to the failure's); a failure during the
 * recovery left the same zombies, which the last gap covers. */
static size_t gap_for(struct ft_runtime *rt, int life_ended) {
  if (life_ended) {
    size_t depth = rt->loop_sp > rt->fail_sp ? rt->loop_sp - rt->fail_sp : 0;
    rt->alone_gap = depth + 65536;
  }
  if (rt->alone_gap > rt->gap_max)
    rt->gap_max = rt->alone_gap;
  return rt->alone_gap;
}

/* When every rank rolls back, nothing cancels the receives a lost life left
 * posted on the abandoned communicators: they complete in the recovery's settle
 * (settle.c: fed, or when a transfer under way at the failure ends), and
 * write into the lost life's buffers, some on its stack, right below the
 * restart loop's frame, where the recovery and the next life would run
 * (examples/c/heat, its halos on main's stack, crashed at the second
 * rollback: a double written over a return address, smpirun status 139;
 * user/c_pcl_mtbf). So lives alternate between two zones: right below the
 * loop's frame, and below a gap as deep as the deepest lost life (plus a
 * margin); each life and its recovery run where the life before did not.
 * The stack stays within two lives whatever the number of failures; after
 * the settle nothing of a lost life writes any more. The first rollback starts
 * below the whole first life (the loop's frame is below the failure's): no gap.
 * Returns the gap above the next life; a failure during a recovery keeps the
 * zone. */
static size_t zone_for(struct ft_runtime *rt, int life_ended) {
  if (!life_ended)
    return rt->zone_gap;
  size_t depth = rt->loop_sp > rt->fail_sp ? rt->loop_sp - rt->fail_sp : 0;
  if (depth == 0)
    return rt->zone_gap = 0;
  size_t own = depth > rt->zone_gap ? depth - rt->zone_gap : 0;
  if (own + 65536 > rt->zone_depth)
    rt->zone_depth = own + 65536;
  rt->zone_gap = rt->zone_gap ? 0 : rt->zone_depth;
  if (rt->zone_gap > rt->gap_max)
    rt->gap_max = rt->zone_gap;
  return rt->zone_gap;
}

/* Recovers, then runs the application, below a gap of `gap` bytes that
 * lasts as long as the life (a rollback of every rank: see zone_for). */
static __attribute__((noinline, noreturn)) void run_below(struct ft_runtime *rt,
                                                          size_t gap) {
  volatile char *keep = alloca(gap ? gap : 1);
  keep[0] = 0;
  recover(rt);
  rt->life_running = 1;
  int code = run_application(rt);
  keep[0] = 1; /* the gap lives until the life ends */
  ft_backend_exit_rank(code);
}

/* Every rollback lands here: the frame of the first rollback stays below
 * the restarted main() for the rest of the run. */
static _Noreturn void restart_loop(struct ft_runtime *rt) {
  char top;
  rt->restart_armed = 1;
  rt->loop_sp = (uintptr_t)&top;
  rt->life_running = 1; /* the first life, above this frame */
  setjmp(rt->restart_env);
  int life_ended = rt->life_running;
  rt->life_running = 0;
  if (life_ended)
    ft_app_heap_end_life(&rt->heap);
  if (!ft_driver_restarts_alone(rt->driver))
    run_below(rt, zone_for(rt, life_ended));
  recover_below(rt, gap_for(rt, life_ended));
  rt->life_running = 1;
  ft_backend_exit_rank(run_application(rt));
}

_Noreturn void ft_rollback_now(struct ft_runtime *rt) {
  char here;
  rt->fail_sp = (uintptr_t)&here;
  rt->running = 0;
  if (rt->restart_armed)
    longjmp(rt->restart_env, 1);
  restart_loop(rt);
}

void ft_arm_kill(struct ft_runtime *rt) {
  char err[1024];
  if (rt->options.failure != FT_FAILURE_KILL || ft_backend_simulated())
    return;
  if (ft_fate_arm_kill(&rt->fate, rt->options.scenario, rt->world_rank,
                       rt->app_ranks, rt->options.relaunch, err,
                       sizeof err) != 0)
    ft_fatal("%s", err);
}

_Noreturn void ft_relaunch_wait(struct ft_runtime *rt) {
  rt->dead = 1; /* a new process: no image in memory, its server has it */
  rt->restart_cost_s = 0; /* the real restart took real time */
  rt->arm_kill_at_go = 1;
  for (;;) /* the ROLLBACK does not return (on_rollback) */
    ft_wait_control(rt);
}

/* Every application rank settled its gate. A member that entered a
 * creation waits for its leader's decision (ft_gate_settle); a leader that
 * stopped first must still read that ENTER to refuse it, so nobody leaves
 * the control channel for the end's collectives before everybody is here
 * (seed 412073 of the soak, channel state: the stop came while rank 1's ENTER
 * was on its way to rank 0, which waited in the end's reduction, rank 1 for the
 * decision). */
static void wait_all_stopped(struct ft_runtime *rt) {
  struct ft_wire m = {.kind = FT_WIRE_STOPPED, .inc = rt->incarnation};
  for (int r = 0; r < rt->app_ranks; r++)
    if (r != rt->world_rank)
      ft_control_send(rt, r, &m);
  while (rt->peers_stopped < rt->app_ranks - 1)
    ft_wait_control(rt); /* ENTERs are refused: this rank is stopping */
}

/* The run is stopped (it cannot progress): like a rollback, this rank
 * abandons its application at once, but goes to the end of the run instead
 * of main(). Called on top of the abandoned frames, which are never
 * returned to. */
_Noreturn void ft_stop_now(struct ft_runtime *rt) {
  rt->stopping = 1;
  rt->running = 0;
  rt->held = 0;
  ft_gate_settle(rt); /* peers may wait inside a creation for this rank */
  wait_all_stopped(rt);
  rt->finish_stopped(rt);
  ft_fatal("rank %d: the end of a stopped run returned", rt->world_rank);
}

void ft_wait_all_finished(struct ft_runtime *rt) {
  struct ft_wire done = {.kind = FT_WIRE_DONE,
                         .inc = rt->incarnation,
                         .wave = rt->driver->life ? rt->driver->life(rt) : 0};
  rt->finished = 0;
  ft_control_send(rt, ft_dispatcher(rt), &done);
  while (!rt->finished)
    ft_wait_control(rt);
}
