/* SimGrid 3.32's cost of completing requests with MPI_Test: a plain SMPI
 * program (no ftsim runtime), run by bench/test_leak.sh.
 *
 * Ranks 0 and 1 ping-pong N times; rank 0 completes each receive with
 * MPI_Test (mode 1) or MPI_Wait (mode 0). Then both ping-pong 20,000 more
 * times with MPI_Wait. In SimGrid 3.32 a communication completed by a test
 * stays in its actor's list of activities (ActivityImpl::test calls finish()
 * with no simcall registered, so CommImpl::finish never removes it), and
 * every later completion by a wait scans that list (std::list::remove): the
 * second phase's wall time grows with N. Usage: test_leak N MODE */
#include <mpi.h>
#include <stdlib.h>

static void ping_pong(int rank, int i, int by_test, int tag) {
  int x = i;
  if (rank == 1) {
    MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Request req;
  int done = 0;
  MPI_Irecv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &req);
  if (by_test)
    while (!done)
      MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  else
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Send(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n = argc > 1 ? atoi(argv[1]) : 0,
            by_test = argc > 2 && atoi(argv[2]);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank < 2) {
    for (int i = 0; i < n; i++)
      ping_pong(rank, i, by_test, 0);
    for (int i = 0; i < 20000; i++)
      ping_pong(rank, i, 0, 1);
  }
  MPI_Finalize();
  return 0;
}
