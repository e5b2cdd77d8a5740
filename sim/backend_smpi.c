/* Backend for SimGrid's SMPI (see backend.h). */
#include <mpi.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
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
