/* The collective algorithm selector of SMPI 3.32's `ompi` selector
 * (src/smpi/colls/smpi_openmpi_selector.cpp, itself Open MPI's
 * coll_tuned_decision_fixed of 2022), so that the runtime's collectives
 * (sim/runtime/coll.c) run the algorithm a plain SMPI program runs for the
 * same communicator size and message size (issue 18, item 3).
 * Pure C11: no MPI, no SimGrid, no state.
 *
 * Each function returns the selector's algorithm number (1-based, the
 * numbering of its "Algorithms" list, quoted before each function). Sizes
 * are in bytes: a type's size (not its extent) times the count the
 * selector uses (noted per function). `communicator_size` >= 1. */
#ifndef FT_COLL_SELECT_H
#define FT_COLL_SELECT_H

#include <stddef.h>

/* Allreduce: 1 basic_linear, 2 nonoverlapping (both reduce + bcast in
 * SMPI), 3 recursive_doubling, 4 ring (SMPI's lr), 5 segmented_ring, 6
 * rabenseifner (SMPI's rab_rdb). total_dsize: count x type size;
 * commutative: the operation is (MPI_Op_commutative). */
int ft_coll_select_allreduce(int communicator_size, size_t total_dsize,
                             int commutative);

/* Alltoall: 1 linear, 2 pairwise, 3 modified_bruck, 4 linear_sync, 5
 * two_proc (1, 4 and 5 are SMPI's basic_linear). total_dsize: the count
 * sent to one rank x the send type's size (the receive type's with
 * MPI_IN_PLACE). */
int ft_coll_select_alltoall(int communicator_size, size_t total_dsize);

/* Alltoallv: 1 basic_linear, 2 pairwise. */
int ft_coll_select_alltoallv(int communicator_size);

/* Barrier: 1 linear, 2 double_ring (SMPI runs linear), 3
 * recursive_doubling, 4 bruck, 5 two_proc, 6 tree. */
int ft_coll_select_barrier(int communicator_size);

/* Bcast: 1 basic_linear (SMPI's NTSL: a pipelined chain), 2 chain, 3
 * pipeline (both SMPI's ompi_pipeline), 4 split_binary_tree, 5
 * binary_tree (SMPI's NTSB: a pipelined binary tree), 6 binomial, 7
 * knomial (SMPI's mvapich2_knomial_intra_node), 8 scatter_allgather, 9
 * scatter_allgather_ring. total_dsize: count x type size. */
int ft_coll_select_bcast(int communicator_size, size_t total_dsize);

/* Reduce: 1 linear, 2 chain, 3 pipeline, 4 binary, 5 binomial, 6
 * in-order_binary, 7 rabenseifner (SMPI runs linear). total_dsize: count
 * x type size. */
int ft_coll_select_reduce(int communicator_size, size_t total_dsize,
                          int commutative);

/* Reduce_scatter: 1 non-overlapping (reduce + scatterv), 2
 * recursive_halving, 3 ring, 4 butterfly. total_dsize: the sum of the
 * counts x type size. */
int ft_coll_select_reduce_scatter(int communicator_size, size_t total_dsize,
                                  int commutative);

/* Allgather: 1 linear (SMPI's NTSLR_NB), 2 bruck, 3 recursive_doubling, 4
 * ring, 5 neighbor, 6 two_proc. total_dsize: the send count x the send
 * type's size (the receive type's with MPI_IN_PLACE). */
int ft_coll_select_allgather(int communicator_size, size_t total_dsize);

/* Allgatherv: 1 default (SMPI's GB: gatherv + bcast), 2 bruck, 3 ring, 4
 * neighbor, 5 two_proc. per_rank_dsize: the sum of the receive counts x
 * type size, divided by the communicator's size. */
int ft_coll_select_allgatherv(int communicator_size, size_t per_rank_dsize);

/* Gather: 1 basic_linear, 2 binomial, 3 linear_sync. total_dsize: one
 * rank's block (rcount x rtype's size at the root, scount x stype's
 * elsewhere). */
int ft_coll_select_gather(int communicator_size, size_t total_dsize);

/* Scatter: 1 basic_linear, 2 binomial, 3 linear_nb. total_dsize: one
 * rank's block (scount x stype's size at the root, rcount x rtype's
 * elsewhere). */
int ft_coll_select_scatter(int communicator_size, size_t total_dsize);

#endif /* FT_COLL_SELECT_H */
