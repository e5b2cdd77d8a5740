/* A stand-in for a workload linked with the ftsim runtime, for the launcher's
 * tests: every rank says where it runs; rank 0 prints a FTSIM_SUMMARY line
 * like the runtime's, built from FTSIM_OPTIONS.
 *
 * Usage: fake_app [ok|unverified|nosummary|malformed|deadlock|abort|exit] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The integer after "key=" in the options text, or 0. */
static int option_int(const char *text, const char *key) {
  const char *p = text ? strstr(text, key) : NULL;
  return p ? atoi(p + strlen(key)) : 0;
}

static void print_summary(const char *mode, int ranks, int service) {
  const char *opts = getenv("FTSIM_OPTIONS");
  if (strcmp(mode, "malformed") == 0) {
    printf("FTSIM_SUMMARY {\"protocol\":\"none\",\"ranks\":%d\n", ranks);
    return;
  }
  printf("FTSIM_SUMMARY {\"protocol\":\"none\",\"ranks\":%d,"
         "\"service_ranks\":%d,\"options\":\"%s\",\"completion_time_s\":%.6f,"
         "\"verified\":%s,\"result\":1.5e-10,\"messages\":0,\"bytes\":0}\n",
         ranks, service, opts ? opts : "", MPI_Wtime(),
         strcmp(mode, "unverified") == 0 ? "false" : "true");
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  int rank, size, len, x = 0;
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &len);
  printf("fake_app: rank %d of %d on %s\n", rank, size, host);
  if (rank == 0 && strcmp(mode, "deadlock") == 0)
    MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0 && strcmp(mode, "abort") == 0)
    MPI_Abort(MPI_COMM_WORLD, 7);
  if (strcmp(mode, "exit") == 0)
    exit(5);
  MPI_Barrier(MPI_COMM_WORLD);
  int service = option_int(getenv("FTSIM_OPTIONS"), "service_ranks=");
  if (rank == 0 && strcmp(mode, "nosummary") != 0)
    print_summary(mode, size - service, service);
  MPI_Finalize();
  return 0;
}
