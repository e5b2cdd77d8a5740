/* A program that waits for ever: rank 0 probes for a message nobody sends,
 * rank 1 goes on to MPI_Finalize. The runtime's probe polls (so does
 * SMPI's own MPI_Probe): simulated time runs on and SimGrid sees no
 * deadlock. The dispatcher's max_quiet must end the run with an error that
 * says so (tests/runtime/CMakeLists.txt, runtime/max_quiet_*). */
#include <mpi.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Status st;
    MPI_Probe(1, 7, MPI_COMM_WORLD, &st);
  }
  MPI_Finalize();
  return 0;
}
