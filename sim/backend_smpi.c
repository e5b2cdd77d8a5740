/* Backend for SimGrid's SMPI (see backend.h). */
#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

int ft_backend_simulated(void) { return 1; }

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
static void bench_pause(void) { smpi_bench_end(); }
static void bench_resume(void) { smpi_bench_begin(); }

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

/* SimGrid's Fortran sentinels (libsimgrid: mpi_in_place_, ...). */
extern int mpi_in_place_, mpi_status_ignore_, mpi_statuses_ignore_;

int ft_backend_f_in_place(const void *p) { return p == &mpi_in_place_; }
int ft_backend_f_status_ignore(const void *p) {
  return p == &mpi_status_ignore_;
}
int ft_backend_f_statuses_ignore(const void *p) {
  return p == &mpi_statuses_ignore_;
}

void ft_backend_status_c2f(const MPI_Status *c, MPI_Fint *f) {
  memcpy(f, c, sizeof *c);
}

void ft_backend_sleep(double seconds) {
  if (seconds > 0) {
    bench_pause();
    sg_actor_sleep_for(seconds);
    bench_resume();
  }
}

static sg_mailbox_t padding_mailbox(int from, int to) {
  char name[64];
  snprintf(name, sizeof name, "ftsim-padding-%d-%d", from, to);
  return sg_mailbox_by_name(name);
}

/* A detached transfer must not be started yet (put_init, not put_async),
 * and SimGrid frees its payload once it is done: a heap token. */
void ft_backend_padding_send(int from, int to, double bytes) {
  if (bytes < 1)
    return;
  void *token = calloc(1, 1); /* never read: only the size matters */
  if (!token)
    return;
  bench_pause();
  sg_comm_t c =
      sg_mailbox_put_init(padding_mailbox(from, to), token, (long)bytes);
  sg_comm_detach(c, NULL);
  bench_resume();
}

/* The payload pointer is written at completion: it lives with the handle. */
struct padding_receive {
  sg_comm_t comm;
  void *data;
};

void *ft_backend_padding_receive(int from, int to) {
  struct padding_receive *h = malloc(sizeof *h);
  if (!h)
    return NULL;
  h->data = NULL;
  bench_pause();
  h->comm = sg_mailbox_get_async(padding_mailbox(from, to), &h->data);
  bench_resume();
  return h;
}

int ft_backend_padding_done(void *handle, int block) {
  struct padding_receive *h = handle;
  if (!h)
    return 1;
  bench_pause();
  int done = block ? (sg_comm_wait(h->comm), 1) : sg_comm_test(h->comm);
  bench_resume();
  if (!done)
    return 0;
  free(h);
  return 1;
}
