/* A Score-P-style OTF2 archive for the tests (scorep_builder.c). */
#ifndef FT_TEST_SCOREP_BUILDER_H
#define FT_TEST_SCOREP_BUILDER_H

/* Writes into directory `dir` (created; its parent must exist) an archive
 * of two ranks, as Score-P writes MPI events. variant 0: the ranks exchange
 * with irecv/isend/waitall, a send to an MPI_ANY_SOURCE receive, an
 * allreduce and a split (color not told); 1: rank 1 calls MPI_Put (an
 * unsupported region); 2: an RmaWinCreate record; 3: rank 1's receive
 * recorded with 8 bytes where rank 0 sends 4 (a replay must see the
 * mismatch). Returns 0, or 1 when OTF2 fails. */
int scorep_write(const char *dir, int variant);

#endif /* FT_TEST_SCOREP_BUILDER_H */
