/* The application API of ft.h, over the runtime's per-rank state. */
#include "ft.h"

#include <mpi.h>

#include "backend.h"
#include "runtime.h"

void ft_compute(double flops) { ft_backend_compute(flops); }

int ft_is_simulated(void) { return ft_backend_simulated(); }

void ft_report_result(int verified, double value) {
  struct ft_runtime *rt = ft_runtime();
  rt->result_reported = 1;
  rt->result_verified = verified != 0;
  rt->result_value = value;
}

/* Fortran: call ft_report_result(verified, value), INTEGER and DOUBLE
 * PRECISION. */
void ft_report_result_(const MPI_Fint *verified, const double *value) {
  ft_report_result(*verified, *value);
}

void ft_compute_(const double *flops) { ft_compute(*flops); }
