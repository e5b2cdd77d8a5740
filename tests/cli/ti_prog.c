/* A tiny MPI program for a real SimGrid time-independent trace
 * (tests/cli/trace_info_ti.sh): a wildcard irecv, isend, waitall, send and
 * recv, computation, allreduce, bcast, barrier and a split. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  double x[100] = {0}, y[100];
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Request q[2];
  MPI_Irecv(y, 100, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(x, 100, MPI_DOUBLE, (r + 1) % n, 3, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  if (r == 0)
    MPI_Send(x, 10, MPI_INT, 1, 1, MPI_COMM_WORLD);
  if (r == 1)
    MPI_Recv(y, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (volatile int i = 0; i < 1000000; i++)
    ;
  MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(x, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm c;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &c);
  MPI_Comm_free(&c);
  MPI_Finalize();
}
