/* ft_backend_charges_computation (sim/backend.h): prints whether this run
 * charges measured computation (smpi/simulate-computation). The control
 * plane reads the clock without the benchmark timer's stop and restart
 * when it does not (control.c, departure): runtime/charges_computation_*
 * check both answers. */
#include <mpi.h>
#include <stdio.h>

#include "backend.h"
#include "ft.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("charges_check: charges computation %d\n",
           ft_backend_charges_computation());
  ft_report_result(1, 0.0);
  MPI_Finalize();
  return 0;
}
