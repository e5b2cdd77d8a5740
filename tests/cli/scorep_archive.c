/* Writes a Score-P-style OTF2 archive with OTF2's writer API (as Score-P
 * writes MPI events; Score-P is not packaged here), for the replay tests:
 *   scorep_archive DIR [VARIANT]
 * VARIANT 0: two ranks exchange with irecv/isend/waitall, a send to an
 * MPI_ANY_SOURCE receive, an allreduce and a split (color not told);
 * 1: rank 1 calls MPI_Put (an unsupported region); 2: an RmaWinCreate
 * record; 3: rank 1's receive recorded with 8 bytes where rank 0 sends 4
 * (a replay must see the mismatch). The archive is
 * tests/rtrace/scorep_builder.c's, shared with tests/unit/rtrace_test.c. */
#include <stdio.h>
#include <stdlib.h>

#include "scorep_builder.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: scorep_archive DIR [VARIANT]\n");
    return 2;
  }
  return scorep_write(argv[1], argc > 2 ? atoi(argv[2]) : 0);
}
