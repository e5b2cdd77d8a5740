/* ft_driver_of (sim/runtime/drivers.c) for the family named argv[1] (or
 * "past-the-end": FT_FAMILY_COUNT, a family no table knows): prints the
 * driver's name, or the run stops with the runtime's error when the family
 * has no driver (a recovering family must not silently get none's default
 * path). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"
#include "runtime/runtime.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  enum ft_family family = FT_FAMILY_COUNT;
  if (argc > 1 && strcmp(argv[1], "past-the-end") != 0 &&
      ft_family_parse(argv[1], &family) != 0) {
    fprintf(stderr, "driver_check: no family '%s'\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (argc > 1 && rank == 0) {
    const struct ft_driver *d = ft_driver_of(family);
    printf("driver_check: family %s has driver '%s'\n", argv[1], d->name);
  }
  ft_report_result(1, 0.0);
  MPI_Finalize();
  return 0;
}
