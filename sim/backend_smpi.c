/* Backend for SimGrid's SMPI (see backend.h). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/disk.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xbt/config.h>

#include "backend.h"
#include "backend_smpi.h"

int ft_backend_simulated(void) { return 1; }

/* An object of the runtime's own, whose address dladdr places. */
static const char runtime_anchor = 0;

int ft_backend_entry_points(const void *caller, int (**c_main)(int, char **),
                            void (**f_main)(void)) {
  Dl_info mine, theirs;
  if (!dladdr(&runtime_anchor, &mine))
    return -1;
  if (!caller || !dladdr(caller, &theirs) || !theirs.dli_fname)
    return -1;
  if (theirs.dli_fbase == mine.dli_fbase)
    return 0;
  /* The rank's own copy of the program (SMPI's dlopen privatization):
   * already loaded, found by its file's name. */
  void *h = dlopen(theirs.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!h)
    return -1;
  void *c = dlsym(h, "main"), *f = dlsym(h, "user_main_");
  memcpy(c_main, &c, sizeof c); /* POSIX: dlsym's object pointer */
  memcpy(f_main, &f, sizeof f);
  dlclose(h);
  return 1;
}

/* smpi_execute_flops_benched pauses SMPI's benchmark timer while the flops
 * run; plain smpi_execute_flops would keep it running (DESIGN.md). */
void ft_backend_compute(double flops) {
  if (flops > 0)
    smpi_execute_flops_benched(flops);
}

/* SMPI measures a rank's computation in thread CPU time between its MPI
 * calls (smpi_bench_begin at the exit of one, smpi_bench_end at the entry
 * of the next). A SimGrid call made outside MPI (a sleep, a mailbox
 * transfer) hands the thread to other ranks: under measured computation
 * their CPU time would be charged to this rank. So the runtime's own
 * SimGrid calls stop the timer first (charging what ran up to here, as an
 * MPI call would) and restart it after, as smpi_execute_flops_benched
 * does. Without measured computation this only stops and restarts a
 * timer. */
void ft_smpi_bench_pause(void) { smpi_bench_end(); }
void ft_smpi_bench_resume(void) { smpi_bench_begin(); }
#define bench_pause ft_smpi_bench_pause
#define bench_resume ft_smpi_bench_resume

void ft_backend_bench_restart(void) { smpi_bench_begin(); }

/* An execution SimGrid runs at the host's share of its speed, waited for
 * with a timeout and cancelled when the time is up (sg_exec_wait_for keeps
 * it alive on a timeout). The benchmark timer is paused around it, as
 * smpi_execute_flops_benched does. */
double ft_backend_compute_for(double flops, double seconds) {
  if (flops <= 0)
    return 0;
  bench_pause();
  sg_exec_t exec = sg_actor_exec_init(flops);
  sg_exec_start(exec);
  double rest = 0;
  if (sg_exec_wait_for(exec, seconds > 0 ? seconds : 0) == SG_ERROR_TIMEOUT) {
    rest = sg_exec_get_remaining(exec);
    sg_exec_cancel(exec);
  }
  bench_resume();
  return rest;
}

_Noreturn void ft_backend_exit_rank(int code) {
  exit(code); /* smpi_helpers.h maps exit() to smpi_exit(): this rank only */
}

double ft_backend_now(void) { return simgrid_get_clock(); }

_Noreturn void ft_backend_abort(int code) {
  fflush(NULL);
  _exit(code > 0 ? code : 1);
}

const char *ft_backend_host_name(void) {
  return sg_host_get_name(sg_host_self());
}

double ft_backend_now_charged(void) {
  bench_pause();
  double now = simgrid_get_clock();
  bench_resume();
  return now;
}

int ft_backend_charges_computation(void) {
  return sg_cfg_get_boolean("smpi/simulate-computation") != 0;
}

double ft_backend_host_speed(void) { return sg_host_get_speed(sg_host_self()); }

double ft_backend_service_rtt(void) {
  sg_host_t host = sg_host_self();
  const char *v = sg_host_get_property_value(host, "ftsim_service_rtt_s");
  if (!v)
    return 0;
  char *end = NULL;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= 0 && x < 1)) {
    fprintf(stderr,
            "ftsim: host '%s' of the platform file: property "
            "ftsim_service_rtt_s=\"%s\" is not a number of seconds from 0 "
            "to 1\n",
            sg_host_get_name(host), v);
    ft_backend_abort(2);
  }
  return x;
}

/* smpirun starts rank r as actor r + 1, named "r"; the name is checked, so
 * that another layout gives 0 (unknown) rather than another host. */
double ft_backend_route_mbps(int world_rank) {
  sg_actor_t a = sg_actor_by_pid(world_rank + 1);
  char name[32];
  snprintf(name, sizeof name, "%d", world_rank);
  if (!a || strcmp(sg_actor_get_name(a), name) != 0)
    return 0;
  return sg_host_get_route_bandwidth(sg_host_self(), sg_actor_get_host(a)) /
         1e6;
}

/* SimGrid's Fortran sentinels (libsimgrid: mpi_in_place_, ...). */
extern int mpi_in_place_, mpi_status_ignore_, mpi_statuses_ignore_, mpi_bottom_;

int ft_backend_f_in_place(const void *p) { return p == &mpi_in_place_; }
int ft_backend_f_bottom(const void *p) { return p == &mpi_bottom_; }
int ft_backend_f_status_ignore(const void *p) {
  return p == &mpi_status_ignore_;
}
int ft_backend_f_statuses_ignore(const void *p) {
  return p == &mpi_statuses_ignore_;
}

void ft_backend_status_c2f(const MPI_Status *c, MPI_Fint *f) {
  memcpy(f, c, sizeof *c);
}

void ft_backend_status_f2c(const MPI_Fint *f, MPI_Status *c) {
  memcpy(c, f, sizeof *c);
}

void ft_backend_sleep(double seconds) {
  if (seconds > 0) {
    bench_pause();
    sg_actor_sleep_for(seconds);
    bench_resume();
  }
}

/* ---- Disks ---- */

/* The CPU part of a write on `host`: seconds per byte from the host's
 * property "ftsim_write_cpu_s_per_byte" (ftsim calibrate writes it: a
 * durable write copies into the page cache and runs the file system on the
 * writer's core), 0 without one. */
static double write_cpu_per_byte(sg_host_t host) {
  const char *v =
      sg_host_get_property_value(host, "ftsim_write_cpu_s_per_byte");
  char *end = NULL;
  double x = v ? strtod(v, &end) : 0;
  return v && end != v && x > 0 && x < 1 ? x : 0;
}

double ft_smpi_disk_io(double bytes, int write) {
  if (bytes < 1)
    return 0;
  sg_host_t host = sg_host_self();
  unsigned int n = 0;
  sg_disk_t *disks = NULL;
  sg_host_get_disks(host, &n, &disks);
  sg_disk_t disk = n > 0 ? disks[0] : NULL;
  free(disks);
  if (!disk) {
    fprintf(stderr,
            "ftsim: host '%s' has no <disk> in the platform file, and the "
            "run's storage setting writes images to it\n",
            sg_host_get_name(host));
    ft_backend_abort(1);
  }
  double start = simgrid_get_clock();
  double cpu_s = write ? bytes * write_cpu_per_byte(host) : 0;
  if (cpu_s > 0) /* on this host's core, shared with what runs there */
    sg_actor_execute(cpu_s * sg_host_get_speed(host));
  if (write)
    sg_disk_write(disk, (sg_size_t)bytes);
  else
    sg_disk_read(disk, (sg_size_t)bytes);
  return simgrid_get_clock() - start;
}

static double disk_io_paused(double bytes, int write) {
  bench_pause(); /* a SimGrid call lets the other actors run */
  double seconds = ft_smpi_disk_io(bytes, write);
  bench_resume();
  return seconds;
}

double ft_backend_disk_write(double bytes) { return disk_io_paused(bytes, 1); }

double ft_backend_disk_read(double bytes) { return disk_io_paused(bytes, 0); }

int ft_backend_transfer_waits_for_receive(void) {
  return sg_cfg_get_int("smpi/async-small-thresh") == 0;
}

int ft_backend_send_done_below(void) {
  return sg_cfg_get_int("smpi/send-is-detached-thresh");
}

/* ---- Waiter ---- */

struct ft_waiter {
  sg_sem_t wake;      /* one release per completion (request or transfer) */
  sg_sem_t go;        /* the helper's turn to wait on `copy` */
  sg_actor_t helper;  /* blocks in MPI_Waitany for the rank */
  int busy;           /* the helper is waiting on `copy` */
  int quit;           /* the helper returns at its next turn */
  int n, cap;         /* requests in the helper's wait */
  MPI_Request *copy;  /* their handles (the helper's Waitany array) */
  MPI_Request **from; /* where the caller keeps each */
  int completed;      /* index in copy completed by the helper, or -1 */
  int rc;             /* what the helper's MPI_Waitany returned */
  /* The helper's last request, after the caller's: a receive of the rank
   * from itself on MPI_COMM_SELF, which a call with other requests
   * completes to take the helper back (ft_backend_wait). */
  MPI_Request stop;
  int stop_buf, stopping; /* stopping: the message to itself is sent */
  uint64_t ended;         /* modelled transfers that ended and woke it */
};

void ft_smpi_waiter_wake(struct ft_waiter *w) { sg_sem_release(w->wake); }

void ft_smpi_waiter_transfer_ended(struct ft_waiter *w) {
  w->ended++;
  sg_sem_release(w->wake);
}

uint64_t ft_backend_waiter_ended(const struct ft_waiter *w) { return w->ended; }

void *ft_smpi_pointer_arg(char **argv) {
  void *p = NULL;
  if (sscanf(argv[1], "%p", &p) != 1)
    abort();
  return p;
}

/* The helper: an actor of the rank's host that SMPI lets call MPI on the
 * rank's requests (SMPI_thread_create), so that the rank itself can block
 * on a semaphore with a timeout. */
static void waiter_helper(int argc, char **argv) {
  struct ft_waiter *w = ft_smpi_pointer_arg(argv);
  (void)argc;
  SMPI_thread_create();
  /* Measured computation: SMPI charges an actor the thread CPU time between
   * two MPI calls, and every SimGrid call lets the other actors run in the
   * same thread; so the helper's timer runs only around its MPI call (it
   * was charged the ranks' computation and delayed the service's answers
   * by tens of milliseconds: a STORED late, a commit lost,
   * cli/measured_computation_through_a_failure_pessimist). */
  for (;;) {
    sg_sem_acquire(w->go);
    if (w->quit)
      return;
    int index = MPI_UNDEFINED;
    bench_resume();
    w->rc = PMPI_Waitany(w->n, w->copy, &index, MPI_STATUS_IGNORE);
    bench_pause();
    w->completed = index;
    sg_sem_release(w->wake);
  }
}

static _Noreturn void waiter_fatal(const char *what) {
  fprintf(stderr, "ftsim: %s\n", what);
  ft_backend_abort(1);
}

static void post_stop(struct ft_waiter *w);

struct ft_waiter *ft_backend_waiter_create(void) {
  struct ft_waiter *w = calloc(1, sizeof *w);
  if (!w)
    waiter_fatal("out of memory for a service's waiter");
  w->wake = sg_sem_init(0);
  w->go = sg_sem_init(0);
  w->completed = -1;
  post_stop(w);
  char ptr[32];
  snprintf(ptr, sizeof ptr, "%p", (void *)w);
  char *argv[] = {"ftsim-waiter", ptr, NULL};
  bench_pause(); /* a SimGrid call lets the other actors run */
  w->helper = sg_actor_init("ftsim-waiter", sg_host_self());
  sg_actor_start(w->helper, waiter_helper, 2, argv);
  bench_resume();
  return w;
}

static void waiter_interrupt(struct ft_waiter *w);

void ft_backend_waiter_recall(struct ft_waiter *w) {
  if (!w || !w->busy)
    return;
  waiter_interrupt(w);
  bench_pause();
  while (w->completed < 0) /* other releases: transfers, courier */
    sg_sem_acquire(w->wake);
  bench_resume();
  w->busy = 0;
  if (w->completed == w->n - 1) { /* its own: the message is taken */
    w->stopping = 0;
    post_stop(w);
  } else { /* one of the caller's: done (its message, if any, dropped) */
    *w->from[w->completed] = MPI_REQUEST_NULL;
  }
}

void ft_backend_waiter_destroy(struct ft_waiter *w) {
  if (!w)
    return;
  if (w->busy)
    waiter_fatal("a service's waiter destroyed while it waits");
  w->quit = 1;
  bench_pause();
  sg_sem_release(w->go);
  sg_actor_join(w->helper, -1);
  sg_sem_destroy(w->go);
  sg_sem_destroy(w->wake);
  bench_resume();
  if (!w->stopping) /* else its message is on its way: taken */
    PMPI_Cancel(&w->stop);
  PMPI_Wait(&w->stop, MPI_STATUS_IGNORE);
  free(w->copy);
  free(w->from);
  free(w);
}

enum { STOP_TAG = 7 };

static void post_stop(struct ft_waiter *w) {
  if (PMPI_Irecv(&w->stop_buf, 1, MPI_INT, 0, STOP_TAG, MPI_COMM_SELF,
                 &w->stop) != MPI_SUCCESS)
    waiter_fatal("a service's waiter could not post its receive");
}

/* Whether the helper waits for exactly the active requests of reqs. */
static int same_requests(const struct ft_waiter *w, int n,
                         MPI_Request *const reqs[]) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (*reqs[i] == MPI_REQUEST_NULL)
      continue;
    if (k >= w->n - 1 || w->from[k] != reqs[i] || w->copy[k] != *reqs[i])
      return 0;
    k++;
  }
  return k == w->n - 1;
}

/* Takes the helper back from a wait for other requests: a message of the
 * rank to itself completes the helper's last request. */
static void waiter_interrupt(struct ft_waiter *w) {
  int one = 1;
  if (w->stopping)
    return;
  w->stopping = 1;
  if (PMPI_Send(&one, 1, MPI_INT, 0, STOP_TAG, MPI_COMM_SELF) != MPI_SUCCESS)
    waiter_fatal("a service's waiter could not interrupt its helper");
}

/* Hands the active requests to the helper, and its own last; returns 0
 * when there is none. */
static int waiter_arm(struct ft_waiter *w, int n, MPI_Request *const reqs[]) {
  if (n + 1 > w->cap) {
    w->cap = n + 1;
    w->copy = realloc(w->copy, (size_t)w->cap * sizeof *w->copy);
    w->from = realloc(w->from, (size_t)w->cap * sizeof *w->from);
    if (!w->copy || !w->from)
      waiter_fatal("out of memory for a service's waiter");
  }
  w->n = 0;
  for (int i = 0; i < n; i++)
    if (*reqs[i] != MPI_REQUEST_NULL) {
      w->copy[w->n] = *reqs[i];
      w->from[w->n++] = reqs[i];
    }
  if (w->n == 0)
    return 0;
  w->copy[w->n] = w->stop;
  w->from[w->n++] = &w->stop;
  w->busy = 1;
  w->completed = -1;
  sg_sem_release(w->go);
  return 1;
}

/* The helper completed a request: the caller's index of it. */
static int waiter_take(struct ft_waiter *w, int n, MPI_Request *const reqs[]) {
  w->busy = 0;
  if (w->rc != MPI_SUCCESS) {
    char what[64];
    snprintf(what, sizeof what, "a service's MPI_Waitany returned error %d",
             w->rc);
    waiter_fatal(what);
  }
  if (w->completed < 0 || w->completed >= w->n)
    waiter_fatal("a service's wait completed no request");
  if (w->completed == w->n - 1) { /* its own: interrupted */
    w->stopping = 0;
    post_stop(w);
    return FT_WAIT_PADDING;
  }
  MPI_Request *where = w->from[w->completed];
  *where = MPI_REQUEST_NULL;
  for (int i = 0; i < n; i++)
    if (reqs[i] == where)
      return i;
  waiter_fatal("a service's completed request is no longer waited for");
}

int ft_backend_wait(struct ft_waiter *w, int n, MPI_Request *const reqs[],
                    double deadline) {
  if (w->busy && !same_requests(w, n, reqs))
    waiter_interrupt(w);
  bench_pause(); /* measured computation: the ranks that run meanwhile are
                    not this service's CPU time */
  if (!w->busy)
    (void)waiter_arm(w, n, reqs); /* none: a transfer or the deadline */
  int timed_out = 0;
  double left = deadline - simgrid_get_clock();
  if (deadline < 0)
    sg_sem_acquire(w->wake);
  else if (left > 0)
    timed_out = sg_sem_acquire_timeout(w->wake, left);
  /* A deadline now or past: SimGrid 3.32 waits for ever on a timeout of 0
   * (SemAcquisitionImpl::wait_for sleeps only for timeout > 0), which
   * deadlocked the dispatcher when two failures were due at once (bt, pcl,
   * `fail 1 at 0.5` and `fail 2 at 0.5`: the second's deadline had come
   * when the first was injected) or a deadline fell a rounding error
   * behind the clock (user/c_pcl under measured computation). */
  else if (sg_sem_would_block(w->wake))
    timed_out = 1;
  else
    sg_sem_acquire(w->wake);
  bench_resume();
  if (timed_out)
    return FT_WAIT_DEADLINE;
  if (w->busy && w->completed >= 0)
    return waiter_take(w, n, reqs);
  return FT_WAIT_PADDING;
}

int ft_backend_status_error(const MPI_Status *status) {
  return status->MPI_ERROR;
}

/* Simulated failures are logical (backend.h). */
void *ft_backend_kill_after(double seconds) {
  (void)seconds;
  return NULL;
}

void ft_backend_kill_cancel(void *handle) { (void)handle; }
