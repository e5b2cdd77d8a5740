/* Backend for a real MPI, reference mode (see backend.h). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "waiter_policy.h"

int ft_backend_simulated(void) { return 0; }

void ft_backend_compute(double flops) { (void)flops; }

double ft_backend_compute_for(double flops, double seconds) {
  (void)flops;
  (void)seconds;
  return 0;
}

_Noreturn void ft_backend_exit_rank(int code) { exit(code); }

/* A real MPI's program holds the runtime (the whole archive). */
int ft_backend_entry_points(const void *caller, int (**c_main)(int, char **),
                            void (**f_main)(void)) {
  (void)caller;
  (void)c_main;
  (void)f_main;
  return 0;
}

double ft_backend_now(void) { return PMPI_Wtime(); }

_Noreturn void ft_backend_abort(int code) {
  fflush(NULL);
  PMPI_Abort(MPI_COMM_WORLD, code > 0 ? code : 1);
  _exit(code > 0 ? code : 1); /* PMPI_Abort does not return */
}

double ft_backend_host_speed(void) { return 0; }

double ft_backend_route_mbps(int world_rank) {
  (void)world_rank;
  return 0;
}

double ft_backend_service_rtt(void) { return 0; }

double ft_backend_now_charged(void) { return PMPI_Wtime(); }

int ft_backend_charges_computation(void) { return 0; }

const char *ft_backend_host_name(void) {
  static char name[256]; /* one process per rank here: no sharing */
  if (!name[0] && gethostname(name, sizeof name - 1) != 0)
    name[0] = '?';
  return name;
}

/* Open MPI's Fortran sentinels (defined in libmpi). */
extern int mpi_fortran_in_place_, mpi_fortran_status_ignore_,
    mpi_fortran_statuses_ignore_, mpi_fortran_bottom_;

int ft_backend_f_in_place(const void *p) { return p == &mpi_fortran_in_place_; }
int ft_backend_f_bottom(const void *p) { return p == &mpi_fortran_bottom_; }
int ft_backend_f_status_ignore(const void *p) {
  return p == &mpi_fortran_status_ignore_;
}
int ft_backend_f_statuses_ignore(const void *p) {
  return p == &mpi_fortran_statuses_ignore_;
}

void ft_backend_status_c2f(const MPI_Status *c, MPI_Fint *f) {
  MPI_Status_c2f(c, f);
}

void ft_backend_status_f2c(const MPI_Fint *f, MPI_Status *c) {
  MPI_Status_f2c(f, c);
}

void ft_backend_bench_restart(void) {}

int ft_backend_transfer_waits_for_receive(void) { return 0; }

int ft_backend_send_done_below(void) { return 0; }

void ft_backend_sleep(double seconds) {
  if (seconds <= 0)
    return;
  struct timespec ts = {.tv_sec = (time_t)seconds,
                        .tv_nsec =
                            (long)((seconds - (double)(time_t)seconds) * 1e9)};
  nanosleep(&ts, NULL);
}

void *ft_backend_kill_after(double seconds) {
  timer_t *t = malloc(sizeof *t);
  struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL};
  if (!t || timer_create(CLOCK_MONOTONIC, &ev, t) != 0) {
    free(t);
    return NULL;
  }
  if (seconds < 1e-9)
    seconds = 1e-9; /* 0 would disarm it: due now */
  struct itimerspec when = {
      .it_value = {.tv_sec = (time_t)seconds,
                   .tv_nsec =
                       (long)((seconds - (double)(time_t)seconds) * 1e9)}};
  if (timer_settime(*t, 0, &when, NULL) != 0) {
    timer_delete(*t);
    free(t);
    return NULL;
  }
  return t;
}

void ft_backend_kill_cancel(void *handle) {
  timer_t *t = handle;
  if (!t)
    return;
  timer_delete(*t);
  free(t);
}

void *ft_backend_padding_send(int from, int to, uint64_t seq, double bytes) {
  (void)from;
  (void)to;
  (void)seq;
  (void)bytes;
  return NULL;
}

void *ft_backend_padding_send_disk(int from, int to, uint64_t seq, double bytes,
                                   int disk, double *write_s) {
  (void)disk;
  (void)write_s;
  return ft_backend_padding_send(from, to, seq, bytes);
}

void *ft_backend_padding_receive_disk(int from, int to, uint64_t seq,
                                      double bytes, int disk, double *write_s) {
  (void)bytes;
  (void)disk;
  if (write_s)
    *write_s = 0;
  return ft_backend_padding_receive(from, to, seq);
}

/* Reference mode writes real images (image_file.c): no modelled disk. */
double ft_backend_disk_write(double bytes) {
  (void)bytes;
  return 0;
}

double ft_backend_disk_read(double bytes) {
  (void)bytes;
  return 0;
}

void ft_backend_padding_cut(void *send_handle) { (void)send_handle; }

void ft_backend_padding_forget(void *send_handle) { (void)send_handle; }

void *ft_backend_padding_receive(int from, int to, uint64_t seq) {
  (void)from;
  (void)to;
  (void)seq;
  return NULL;
}

int ft_backend_padding_done(void *handle, int block) {
  (void)handle;
  (void)block;
  return FT_PADDING_WHOLE;
}

/* Reference mode: MPI has no wait with a timeout, and wall time is not the
 * simulation's, so the waiter tests the requests in a loop. For 50 us
 * after a completion it tests without pausing (a busy service: v2's event
 * logger gets the next request within microseconds of its answer), then
 * naps, 1 us at first, doubling to 100 us while nothing completes, so that
 * an idle service leaves the cores to the ranks; the process's timer slack
 * is set to 1 us (Linux's default, 50 us, lengthens every nap). It napped
 * 100 us after every round before: a 1-byte ping-pong under v2 took 197 us
 * per message on this project's 2-core machine (none: 0.33 us), a cost of
 * ftsim's reference mode that the simulation, rightly, does not charge.
 * Spinning with sched_yield for 1 ms instead took the ranks' cores on a
 * loaded machine (e2e/real_kill_*_image_refused committed no wave in
 * 0.25 s). The policy and its constants: waiter_policy.h. */
struct ft_waiter {
  struct ft_nap nap; /* waiter_policy.h */
};

/* Between two rounds of tests: nothing while spinning, else a nap. */
static void waiter_pause(struct ft_waiter *w) {
  ft_backend_sleep(ft_nap_next(&w->nap, ft_backend_now()));
}

/* A request completed: spin, then naps from the shortest again. */
static void waiter_woke(struct ft_waiter *w) {
  ft_nap_woke(&w->nap, ft_backend_now());
}

struct ft_waiter *ft_backend_waiter_create(void) {
  struct ft_waiter *w = calloc(1, sizeof *w);
  if (!w) {
    fprintf(stderr, "ftsim: out of memory for a service's waiter\n");
    ft_backend_abort(1);
  }
  waiter_woke(w);
#ifdef PR_SET_TIMERSLACK
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* ns; per thread */
#endif
  return w;
}

void ft_backend_waiter_destroy(struct ft_waiter *w) { free(w); }

int ft_backend_wait(struct ft_waiter *w, int n, MPI_Request *const reqs[],
                    double deadline) {
  for (;;) {
    for (int i = 0; i < n; i++) {
      int flag = 0;
      if (*reqs[i] == MPI_REQUEST_NULL)
        continue;
      int rc = PMPI_Test(reqs[i], &flag, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) {
        fprintf(stderr, "ftsim: a service's MPI_Test returned error %d\n", rc);
        ft_backend_abort(2);
      }
      if (flag) {
        waiter_woke(w);
        return i;
      }
    }
    if (deadline >= 0 && ft_backend_now() >= deadline)
      return FT_WAIT_DEADLINE;
    waiter_pause(w);
  }
}

void ft_backend_padding_notify(void *handle, struct ft_waiter *w) {
  (void)handle;
  (void)w;
}

uint64_t ft_backend_waiter_ended(const struct ft_waiter *w) {
  (void)w;
  return 0;
}

int ft_backend_status_error(const MPI_Status *status) {
  (void)status;
  return MPI_SUCCESS;
}

/* ---- Latency-only messages: none under a real MPI (control messages
 * travel by MPI). ---- */

struct ft_courier *ft_backend_courier_start(MPI_Comm comm, int self, int tag,
                                            const void *bell, int bell_bytes) {
  (void)comm, (void)self, (void)tag, (void)bell, (void)bell_bytes;
  return NULL;
}

struct ft_courier *ft_backend_courier_of(int world_rank) {
  (void)world_rank;
  return NULL;
}

double ft_backend_message_time(int world_rank, size_t bytes) {
  (void)world_rank, (void)bytes;
  fprintf(stderr, "ftsim: no latency-only messages under a real MPI\n");
  ft_backend_abort(1);
}

void ft_backend_route_cost(int world_rank, double *latency_s,
                           double *bandwidth_Bps) {
  (void)latency_s, (void)bandwidth_Bps;
  ft_backend_message_time(world_rank, 0);
}

void ft_backend_courier_post(struct ft_courier *c, double due, const void *msg,
                             size_t bytes, int quiet) {
  (void)c, (void)due, (void)msg, (void)bytes, (void)quiet;
  fprintf(stderr, "ftsim: no latency-only messages under a real MPI\n");
  ft_backend_abort(1);
}

size_t ft_backend_courier_take(struct ft_courier *c, void *buf, size_t cap) {
  (void)c, (void)buf, (void)cap;
  return 0;
}

void ft_backend_waiter_recall(struct ft_waiter *w) { (void)w; }

void ft_backend_courier_attach(struct ft_courier *c, struct ft_waiter *w) {
  (void)c, (void)w;
}

double ft_backend_courier_next_due(const struct ft_courier *c) {
  (void)c;
  return -1;
}

void ft_backend_courier_bell_taken(struct ft_courier *c) { (void)c; }

void ft_backend_courier_wake_after(struct ft_courier *c, int n) {
  (void)c, (void)n;
}

void ft_backend_courier_wait(struct ft_courier *c, int wake_after) {
  (void)c, (void)wake_after;
  fprintf(stderr, "ftsim: no latency-only messages under a real MPI\n");
  ft_backend_abort(1);
}

uint64_t ft_backend_courier_stop(struct ft_courier *c) {
  (void)c;
  return 0;
}
