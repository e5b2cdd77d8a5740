/* Backend for SimGrid's SMPI (see backend.h). */
#include <mpi.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <stdlib.h>

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

const char *ft_backend_host_name(void) {
  return sg_host_get_name(sg_host_self());
}
