/* The v-collectives' counts for the replay (rtrace_vcounts.c): matched
 * across a communicator's members, written and read per rank; alltoallv's
 * per-pair estimate agrees pairwise and keeps every rank's total; members
 * that disagree are refused; consistent cuts (rtrace_cuts.c). */
#define _POSIX_C_SOURCE 200809L
#include "rtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void rm_file(void) {
  if (path[0])
    unlink(path);
}

TestSuite(vcounts, .fini = rm_file);
TestSuite(cuts);

static const char *tmpfile_path(void) {
  snprintf(path, sizeof path, "/tmp/ftsim-vc-XXXXXX");
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  return path;
}

static void coll(struct ft_rtrace *t, uint32_t r, uint8_t op, int32_t root,
                 uint64_t sent, uint64_t recvd) {
  struct ft_rt_event e = {.kind = FT_RT_COLL};
  e.u.coll = (struct ft_rt_coll){op, FT_RT_COMM_WORLD, root, sent, recvd, 0};
  cr_assert_not_null(ft_rtrace_append(t, r, &e));
}

static uint64_t *read_rank(const char *file, uint32_t r, size_t *n) {
  uint64_t *v = NULL;
  char err[256];
  cr_assert_eq(ft_rtrace_read_vcounts(file, r, &v, n, err, sizeof err), 0, "%s",
               err);
  return v;
}

/* Three ranks: a gatherv to rank 1 (sent 10, 20, 30), a barrier, an
 * allgatherv (sent 1, 2, 3). */
Test(vcounts, gatherv_root_and_allgatherv_get_every_members_counts) {
  struct ft_rtrace *t = ft_rtrace_new(3);
  for (uint32_t r = 0; r < 3; r++) {
    coll(t, r, FT_RT_GATHERV, 1, 10 * (r + 1), r == 1 ? 60 : 0);
    coll(t, r, FT_RT_BARRIER, -1, 0, 0);
    coll(t, r, FT_RT_ALLGATHERV, -1, r + 1, 6);
  }
  char err[256];
  const char *f = tmpfile_path();
  cr_assert_eq(ft_rtrace_write_vcounts(t, f, err, sizeof err), 0, "%s", err);
  size_t n;
  uint64_t *v0 = read_rank(f, 0, &n);
  cr_assert_eq(n, 3); /* not the root of the gatherv: allgatherv only */
  cr_assert(v0[0] == 1 && v0[1] == 2 && v0[2] == 3);
  uint64_t *v1 = read_rank(f, 1, &n);
  cr_assert_eq(n, 6);
  cr_assert(v1[0] == 10 && v1[1] == 20 && v1[2] == 30);
  cr_assert(v1[3] == 1 && v1[4] == 2 && v1[5] == 3);
  free(v0);
  free(v1);
  ft_rtrace_free(t);
}

/* Alltoallv with uneven totals: rank i's send counts to j equal rank j's
 * receive counts from i, and each row sums to the recorded sent bytes. */
Test(vcounts, alltoallv_pairs_agree_and_totals_are_kept) {
  const uint64_t sent[3] = {7, 100, 33}, recvd[3] = {50, 40, 50};
  struct ft_rtrace *t = ft_rtrace_new(3);
  for (uint32_t r = 0; r < 3; r++)
    coll(t, r, FT_RT_ALLTOALLV, -1, sent[r], recvd[r]);
  char err[256];
  const char *f = tmpfile_path();
  cr_assert_eq(ft_rtrace_write_vcounts(t, f, err, sizeof err), 0, "%s", err);
  uint64_t *v[3];
  size_t n;
  for (uint32_t r = 0; r < 3; r++) {
    v[r] = read_rank(f, r, &n);
    cr_assert_eq(n, 6);
    cr_assert_eq(v[r][0] + v[r][1] + v[r][2], sent[r]);
  }
  for (uint32_t i = 0; i < 3; i++)
    for (uint32_t j = 0; j < 3; j++)
      cr_assert_eq(v[i][j], v[j][3 + i], "%u->%u", i, j);
  for (uint32_t r = 0; r < 3; r++)
    free(v[r]);
  ft_rtrace_free(t);
}

Test(vcounts, members_calling_different_collectives_are_refused) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  coll(t, 0, FT_RT_GATHERV, 0, 4, 8);
  coll(t, 1, FT_RT_ALLGATHERV, -1, 4, 8);
  char err[256] = "";
  cr_assert_eq(ft_rtrace_write_vcounts(t, tmpfile_path(), err, sizeof err), -1);
  cr_assert(strstr(err, "communicator 0, collective 0: rank 0 calls "
                        "MPI_Gatherv, rank 1 MPI_Allgatherv"),
            "%s", err);
  ft_rtrace_free(t);
}

Test(vcounts, a_rank_missing_a_collective_is_refused) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  coll(t, 0, FT_RT_ALLGATHERV, -1, 4, 8);
  char err[256] = "";
  cr_assert_eq(ft_rtrace_write_vcounts(t, tmpfile_path(), err, sizeof err), -1);
  cr_assert(strstr(err, "ranks disagree"), "%s", err);
  ft_rtrace_free(t);
}

/* --- consistent cuts (rtrace_cuts.c) --- */

static void p2p(struct ft_rtrace *t, uint32_t r, uint8_t kind, int32_t peer,
                int32_t tag, uint64_t request) {
  struct ft_rt_event e = {.kind = kind};
  e.u.p2p = (struct ft_rt_p2p){FT_RT_COMM_WORLD, peer, tag, 0, 8, request};
  cr_assert_not_null(ft_rtrace_append(t, r, &e));
}

static void wait_one(struct ft_rtrace *t, uint32_t r, uint64_t request,
                     int recv, int32_t peer, int32_t tag) {
  struct ft_rt_done d = {
      request, FT_RT_DONE, (uint8_t)recv, FT_RT_COMM_WORLD, peer, tag, 8, 0};
  cr_assert_eq(ft_rtrace_append_complete(t, r, FT_RT_WAIT, &d, 1), 0);
}

/* Two ranks, four barriers: 0 before any message (a cut); 1 with rank
 * 0's message to 1 sent but received only after it (not a cut); 2 with
 * rank 1's irecv pending (not a cut); 3 after everything (a cut). */
Test(cuts, in_flight_messages_and_pending_requests_are_not_cuts) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  for (uint32_t r = 0; r < 2; r++)
    coll(t, r, FT_RT_BARRIER, -1, 0, 0);
  p2p(t, 0, FT_RT_SEND, 1, 5, 0);
  coll(t, 0, FT_RT_BARRIER, -1, 0, 0);
  coll(t, 1, FT_RT_BARRIER, -1, 0, 0);
  p2p(t, 1, FT_RT_IRECV, 0, 5, 9);
  coll(t, 0, FT_RT_BARRIER, -1, 0, 0);
  coll(t, 1, FT_RT_BARRIER, -1, 0, 0);
  wait_one(t, 1, 9, 1, 0, 5);
  for (uint32_t r = 0; r < 2; r++)
    coll(t, r, FT_RT_BARRIER, -1, 0, 0);
  uint64_t *cuts;
  size_t n;
  cr_assert_eq(ft_rtrace_cuts(t, &cuts, &n), 0);
  cr_assert_eq(n, 2);
  cr_assert(cuts[0] == 0 && cuts[1] == 3, "%llu %llu",
            (unsigned long long)cuts[0], (unsigned long long)cuts[1]);
  free(cuts);
  ft_rtrace_free(t);
}

/* A message of tag 5 received before the cut and one of tag 6 after it,
 * where the sender sent tag 6 first: counts balance per pair but not per
 * tag, so it is not a cut. */
Test(cuts, channels_are_told_apart_by_tag) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  p2p(t, 0, FT_RT_SEND, 1, 6, 0);
  coll(t, 0, FT_RT_BARRIER, -1, 0, 0);
  p2p(t, 0, FT_RT_SEND, 1, 5, 0);
  p2p(t, 1, FT_RT_RECV, 0, 5, 0);
  coll(t, 1, FT_RT_BARRIER, -1, 0, 0);
  p2p(t, 1, FT_RT_RECV, 0, 6, 0);
  uint64_t *cuts;
  size_t n;
  cr_assert_eq(ft_rtrace_cuts(t, &cuts, &n), 0);
  cr_assert_eq(n, 0);
  free(cuts);
  ft_rtrace_free(t);
}
