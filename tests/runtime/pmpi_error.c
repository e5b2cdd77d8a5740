/* A collective with an invalid datatype (MPI_DATATYPE_NULL): the runtime
 * carries the collective over its own point-to-point operations, whose
 * error codes it dropped (MPI_Bcast returned MPI_SUCCESS and the run went
 * on); now the first failing operation stops the run with a message naming
 * the call and the error (ft_pmpi_check, issue 14 item 5). Prints
 * "pmpi_error: returned" if the broadcast returns. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double x = rank;
  MPI_Bcast(&x, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  printf("pmpi_error: returned\n");
  MPI_Finalize();
  return 0;
}
