/* The collective selector (sim/coll_select.h): the decisions of SMPI 3.32's
 * `ompi` selector that the workloads and the issue depend on. */
#include <criterion/criterion.h>

#include "coll_select.h"

Test(coll_select, small_alltoall_from_32_ranks_is_bruck) {
  cr_expect_eq(ft_coll_select_alltoall(64, 8), 3); /* issue 18's case */
  cr_expect_eq(ft_coll_select_alltoall(1024, 8), 3);
  cr_expect_eq(ft_coll_select_alltoall(8, 8), 4);      /* linear_sync */
  cr_expect_eq(ft_coll_select_alltoall(64, 16384), 1); /* linear */
}

Test(coll_select, small_allreduce_is_reduce_and_bcast_from_128_ranks) {
  cr_expect_eq(ft_coll_select_allreduce(64, 8, 1), 3); /* doubling */
  cr_expect_eq(ft_coll_select_allreduce(127, 8, 1), 3);
  cr_expect_eq(ft_coll_select_allreduce(128, 8, 1), 2); /* reduce + bcast */
  cr_expect_eq(ft_coll_select_allreduce(256, 8, 1), 2);
  cr_expect_eq(ft_coll_select_allreduce(1024, 8, 1), 2);
  cr_expect_eq(ft_coll_select_allreduce(8, 16384, 1), 6); /* Rabenseifner */
}

Test(coll_select, non_commutative_operations_take_their_own_branch) {
  cr_expect_eq(ft_coll_select_allreduce(4, 8, 0), 3);
  cr_expect_eq(ft_coll_select_reduce(64, 8, 0), 6); /* in-order binary */
  cr_expect_eq(ft_coll_select_reduce(64, 8, 1), 5); /* binomial */
  cr_expect_eq(ft_coll_select_reduce_scatter(64, 8, 0), 1);
}

Test(coll_select, rooted_and_gathering_collectives) {
  cr_expect_eq(ft_coll_select_bcast(64, 8), 7);  /* k-nomial */
  cr_expect_eq(ft_coll_select_bcast(8, 8), 5);   /* binary tree (NTSB) */
  cr_expect_eq(ft_coll_select_barrier(64), 4);   /* Bruck */
  cr_expect_eq(ft_coll_select_barrier(256), 6);  /* tree */
  cr_expect_eq(ft_coll_select_gather(64, 4), 2); /* binomial */
  cr_expect_eq(ft_coll_select_scatter(64, 16), 2);
  cr_expect_eq(ft_coll_select_scatter(64, 1024), 3);   /* linear_nb */
  cr_expect_eq(ft_coll_select_allgather(8, 4), 3);     /* doubling */
  cr_expect_eq(ft_coll_select_allgather(64, 8192), 5); /* neighbour */
  cr_expect_eq(ft_coll_select_allgatherv(8, 8), 1);    /* gather + bcast */
  cr_expect_eq(ft_coll_select_alltoallv(64), 2);       /* pairwise */
}
