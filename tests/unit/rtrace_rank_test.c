/* One rank's recording file and the merge (sim/rtrace/rtrace_rank.h):
 * round trip of every event kind, a truncated file, an altered one, a
 * missing one, and communicators merged by name and members. */
#define _POSIX_C_SOURCE 200809L
#include "rtrace_rank.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[64];

static char *tmpdir(void) {
  snprintf(tmp, sizeof tmp, "/tmp/rtrace_rank_test_XXXXXX");
  cr_assert_not_null(mkdtemp(tmp));
  return tmp;
}

static void rm_tmpdir(void) {
  char cmd[128];
  if (tmp[0]) {
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
      fprintf(stderr, "cannot remove %s\n", tmp);
  }
}

TestSuite(rtrace_rank, .fini = rm_tmpdir);

static void add(struct ft_rtrace *t, struct ft_rt_event e) {
  cr_assert_not_null(ft_rtrace_append(t, 0, &e));
}

/* World rank `me` of 4: its own communicator 2 (name 7, members 1 3 of
 * the world; 40 more members on rank 3's copy to cross a line of 32),
 * every kind of event. */
static struct ft_rtrace *one_rank(uint32_t me, int32_t **names) {
  struct ft_rtrace *t = ft_rtrace_new(1);
  cr_assert_not_null(t);
  uint32_t members[2] = {1, 3};
  cr_assert_eq(ft_rtrace_add_comm(t, 2, members), 2);
  *names = calloc(3, sizeof **names);
  (*names)[1] = 1;
  (*names)[2] = 7;
  t->ranks[0].host_speed = 1.5e9;
  struct ft_rt_event e = {.kind = FT_RT_COMPUTE, .u.compute_s = 0.1 + me};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_IRECV};
  e.u.p2p = (struct ft_rt_p2p){.comm = 2,
                               .peer = 0,
                               .tag = 5,
                               .flags = FT_RT_WILD_SOURCE,
                               .bytes = 8,
                               .request = 1};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_ISEND};
  e.u.p2p = (struct ft_rt_p2p){
      .comm = 0, .peer = 2, .tag = 6, .bytes = 16, .request = 2};
  add(t, e);
  struct ft_rt_done d[2] = {{.request = 1,
                             .status = FT_RT_DONE,
                             .is_recv = 1,
                             .comm = 2,
                             .peer = 0,
                             .tag = 5,
                             .bytes = 8},
                            {.request = 2,
                             .status = FT_RT_NOT_DONE,
                             .comm = 0,
                             .peer = 2,
                             .tag = 6,
                             .bytes = 16}};
  cr_assert_eq(ft_rtrace_append_complete(t, 0, FT_RT_TESTALL, d, 2), 0);
  e = (struct ft_rt_event){.kind = FT_RT_SENDRECV};
  e.u.sendrecv = (struct ft_rt_sendrecv){.comm = 0,
                                         .dest = 1,
                                         .send_tag = 2,
                                         .source = 3,
                                         .recv_tag = 4,
                                         .send_bytes = 10,
                                         .recv_bytes = 20};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_PROBE};
  e.u.probe = (struct ft_rt_probe){.found = 1,
                                   .comm = 0,
                                   .peer = FT_RT_ANY,
                                   .tag = FT_RT_ANY,
                                   .msg_peer = 1,
                                   .msg_tag = 9,
                                   .msg_bytes = 4};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_COLL};
  e.u.coll = (struct ft_rt_coll){
      .op = FT_RT_BCAST, .comm = 2, .root = 0, .sent = 0, .recvd = 80};
  add(t, e);
  e.u.coll = (struct ft_rt_coll){.op = FT_RT_ALLREDUCE,
                                 .comm = 0,
                                 .root = -1,
                                 .sent = 16,
                                 .recvd = 16,
                                 .flags = FT_RT_NONCOMMUTATIVE};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_COMM};
  e.u.comm = (struct ft_rt_comm_ev){.op = FT_RT_COMM_SPLIT,
                                    .parent = 0,
                                    .comm = 2,
                                    .color = 1,
                                    .key = (int32_t)me};
  add(t, e);
  e = (struct ft_rt_event){.kind = FT_RT_MEMORY, .u.memory = 1 << 20};
  add(t, e);
  return t;
}

static char *path_of(const char *dir, const char *name) {
  static char p[128];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return p;
}

Test(rtrace_rank, round_trip_keeps_every_event) {
  int32_t *names;
  struct ft_rtrace *t = one_rank(3, &names);
  char err[512], *p = path_of(tmpdir(), "rank.3");
  cr_assert_eq(ft_rtrace_write_rank(t, names, 3, 4, p, err, sizeof err), 0,
               "%s", err);
  struct ft_rtrace_rank_file f;
  cr_assert_eq(ft_rtrace_read_rank(p, &f, err, sizeof err), 0, "%s", err);
  cr_assert_eq(f.world_rank, 3);
  cr_assert_eq(f.nranks, 4);
  cr_assert_eq(f.names[2], 7);
  char why[256];
  cr_assert(ft_rtrace_equal(t, f.t, why, sizeof why), "%s", why);
  ft_rtrace_rank_file_free(&f);
  ft_rtrace_free(t);
  free(names);
}

/* The events' spans (the recorder's times) go through the file and the
 * merge unchanged. */
Test(rtrace_rank, spans_survive_the_file_and_the_merge) {
  int32_t *names;
  struct ft_rtrace *t = one_rank(2, &names);
  cr_assert_eq(ft_rtrace_keep_times(t, 0), 0);
  struct ft_rtrace_rank *k = &t->ranks[0];
  for (size_t i = 0; i < k->n; i++)
    k->span[i] = (struct ft_rt_span){0.1 * (double)i, 0.1 * (double)i + 0.05};
  char err[512], *p = path_of(tmpdir(), "rank.2");
  cr_assert_eq(ft_rtrace_write_rank(t, names, 2, 4, p, err, sizeof err), 0,
               "%s", err);
  struct ft_rtrace_rank_file f;
  cr_assert_eq(ft_rtrace_read_rank(p, &f, err, sizeof err), 0, "%s", err);
  struct ft_rtrace *run = ft_rtrace_new(4);
  int32_t *run_names = calloc(2, sizeof *run_names);
  run_names[1] = 1;
  cr_assert_eq(ft_rtrace_merge_rank(run, &run_names, &f, err, sizeof err), 0,
               "%s", err);
  for (size_t i = 0; i < k->n; i++) {
    cr_assert_eq(f.t->ranks[0].span[i].begin, k->span[i].begin);
    cr_assert_eq(f.t->ranks[0].span[i].end, k->span[i].end);
    cr_assert_eq(run->ranks[2].span[i].begin, k->span[i].begin);
    cr_assert_eq(run->ranks[2].span[i].end, k->span[i].end);
  }
  cr_assert_null(run->ranks[0].span); /* a rank with no times has none */
  ft_rtrace_rank_file_free(&f);
  ft_rtrace_free(run);
  ft_rtrace_free(t);
  free(names);
  free(run_names);
}

static void write_sample(const char *p) {
  int32_t *names;
  struct ft_rtrace *t = one_rank(0, &names);
  char err[512];
  cr_assert_eq(ft_rtrace_write_rank(t, names, 0, 4, p, err, sizeof err), 0);
  ft_rtrace_free(t);
  free(names);
}

Test(rtrace_rank, a_truncated_file_is_an_error) {
  char *p = path_of(tmpdir(), "rank.0"), err[512], cmd[600];
  write_sample(p);
  snprintf(cmd, sizeof cmd, "head -n 5 %s > %s.cut && mv %s.cut %s", p, p, p,
           p);
  cr_assert_eq(system(cmd), 0);
  struct ft_rtrace_rank_file f;
  cr_assert_eq(ft_rtrace_read_rank(p, &f, err, sizeof err), -1);
  cr_assert(strstr(err, "truncated"), "%s", err);
  cr_assert(strstr(err, p), "%s", err);
}

Test(rtrace_rank, an_altered_line_fails_the_checksum) {
  char *p = path_of(tmpdir(), "rank.0"), err[512], cmd[600];
  write_sample(p);
  snprintf(cmd, sizeof cmd, "sed -i 's/^k 1048576$/k 1048577/' %s", p);
  cr_assert_eq(system(cmd), 0);
  struct ft_rtrace_rank_file f;
  cr_assert_eq(ft_rtrace_read_rank(p, &f, err, sizeof err), -1);
  cr_assert(strstr(err, "checksum"), "%s", err);
}

Test(rtrace_rank, a_missing_file_says_the_rank_did_not_write_it) {
  char err[512];
  struct ft_rtrace_rank_file f;
  cr_assert_eq(ft_rtrace_read_rank("/nonexistent/rank.5", &f, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "/nonexistent/rank.5:0: cannot open the rank's "
                        "record (the rank did not write it: did it reach "
                        "MPI_Finalize?)");
}

/* Ranks 1 and 3 each hold communicator 2 (name 7, members {1, 3}): one
 * communicator of the run; rank 0 a different one under the same name
 * (members {0, 2}): another. */
Test(rtrace_rank, merge_maps_communicators_by_name_and_members) {
  struct ft_rtrace *run = ft_rtrace_new(4);
  int32_t *names = calloc(2, sizeof *names);
  names[1] = 1;
  char err[256];
  for (uint32_t r = 0; r < 4; r += 1) {
    struct ft_rtrace_rank_file f = {.world_rank = r, .nranks = 4};
    f.t = one_rank(r, &f.names);
    if (r == 0)
      f.t->comms[2].members[0] = 0, f.t->comms[2].members[1] = 2;
    cr_assert_eq(ft_rtrace_merge_rank(run, &names, &f, err, sizeof err), 0,
                 "%s", err);
    ft_rtrace_rank_file_free(&f);
  }
  cr_assert_eq(run->ncomms, 4);
  cr_assert_eq(run->comms[2].members[0], 0); /* rank 0's, first seen */
  cr_assert_eq(run->comms[3].members[0], 1);
  cr_assert_eq(run->ranks[0].ev[1].u.p2p.comm, 2);
  cr_assert_eq(run->ranks[1].ev[1].u.p2p.comm, 3);
  cr_assert_eq(run->ranks[3].ev[1].u.p2p.comm, 3);
  cr_assert_eq(run->ranks[3].done[0].comm, 3);
  cr_assert_eq(run->ranks[3].ev[8].u.comm.comm, 3);
  cr_assert_eq(run->ranks[2].host_speed, 1.5e9);
  struct ft_rtrace_rank_file again = {.world_rank = 1, .nranks = 4};
  again.t = one_rank(1, &again.names);
  cr_assert_eq(ft_rtrace_merge_rank(run, &names, &again, err, sizeof err), -1);
  cr_assert(strstr(err, "merged twice"), "%s", err);
  ft_rtrace_rank_file_free(&again);
  ft_rtrace_free(run);
  free(names);
}
