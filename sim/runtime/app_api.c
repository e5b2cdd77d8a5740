/* The application API of ft.h, over the runtime's per-rank state. */
#include "ft.h"

#include <mpi.h>

#include "backend.h"
#include "runtime.h"

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

/* Fortran: call ft_protect(id, buffer, bytes), INTEGER, any, INTEGER*8;
 * and status = ft_snapshot() as an INTEGER function. */
void ft_protect_(const MPI_Fint *id, void *ptr, const int64_t *bytes) {
  ft_protect(*id, ptr, (size_t)*bytes);
}

MPI_Fint ft_snapshot_(void) { return ft_snapshot(); }
