/* The recorded-trace library (sim/rtrace): OTF2 round trip, a Score-P-style
 * archive built with OTF2's writer API, refused records, SimGrid TI. */
#define _POSIX_C_SOURCE 200809L
#include "rtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scorep_builder.h"

static char tmp[64];

/* A fresh directory for the test's files, removed after it. */
static char *tmpdir(void) {
  snprintf(tmp, sizeof tmp, "/tmp/rtrace_test_XXXXXX");
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

TestSuite(rtrace, .fini = rm_tmpdir);

static void add(struct ft_rtrace *t, uint32_t r, struct ft_rt_event e) {
  cr_assert_not_null(ft_rtrace_append(t, r, &e));
}

/* Two ranks: compute, a wildcard irecv and an isend completed by a
 * waitall, a test that does not complete, a collective, a split, a probe,
 * a sendrecv, a memory footprint, an isend freed by MPI_Request_free. */
static struct ft_rtrace *sample(void) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  ft_rtrace_set_string(&t->program, "ring");
  ft_rtrace_set_string(&t->platform, "gige");
  ft_rtrace_set_string(&t->version, "0.1.0");
  uint32_t half[1] = {1};
  uint32_t c = ft_rtrace_add_comm(t, 1, half);
  for (uint32_t r = 0; r < 2; r++) {
    int32_t o = (int32_t)(1 - r);
    t->ranks[r].host_speed = 1e9;
    struct ft_rt_event e = {.kind = FT_RT_COMPUTE};
    e.u.compute_s = 0.00125;
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_MEMORY};
    e.u.memory = 1 << 20;
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_IRECV};
    e.u.p2p = (struct ft_rt_p2p){0, o, 7, FT_RT_WILD_SOURCE, 800, 11};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_ISEND};
    e.u.p2p = (struct ft_rt_p2p){0, o, 7, 0, 800, 12};
    add(t, r, e);
    struct ft_rt_done nd = {12, FT_RT_NOT_DONE, 0, 0, o, 7, 800, 0};
    cr_assert_eq(ft_rtrace_append_complete(t, r, FT_RT_TEST, &nd, 1), 0);
    struct ft_rt_done d[2] = {{11, FT_RT_DONE, 1, 0, o, 7, 800, 0},
                              {12, FT_RT_DONE, 0, 0, o, 7, 800, 0}};
    cr_assert_eq(ft_rtrace_append_complete(t, r, FT_RT_WAITALL, d, 2), 0);
    e = (struct ft_rt_event){.kind = FT_RT_COLL};
    e.u.coll =
        (struct ft_rt_coll){FT_RT_ALLREDUCE, 0, -1, 8, 8, FT_RT_NONCOMMUTATIVE};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_COMM};
    e.u.comm = (struct ft_rt_comm_ev){FT_RT_COMM_SPLIT, 0,
                                      r ? c : FT_RT_COMM_NULL, (int32_t)r, 0};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_PROBE};
    e.u.probe = (struct ft_rt_probe){0, 1, 0, FT_RT_ANY, 3, o, 3, 16};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_SENDRECV};
    e.u.sendrecv = (struct ft_rt_sendrecv){0, o, 3, o, 3, 0, 16, 16};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_SEND};
    e.u.p2p = (struct ft_rt_p2p){0, o, 1, 0, 4, 0};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_ISEND};
    e.u.p2p = (struct ft_rt_p2p){0, o, 9, 0, 4, 13};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_CANCEL}; /* MPI_Request_free */
    e.u.p2p = (struct ft_rt_p2p){0, 0, 0, FT_RT_FREE, 0, 13};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_RECV};
    e.u.p2p = (struct ft_rt_p2p){0, o, 9, 0, 4, 0};
    add(t, r, e);
    e = (struct ft_rt_event){.kind = FT_RT_COMPUTE};
    e.u.compute_s = 0.5;
    add(t, r, e);
  }
  return t;
}

Test(rtrace, otf2_round_trip_gives_the_same_model) {
  struct ft_rtrace *t = sample();
  char err[512] = "", why[256] = "", dir[128];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
  struct ft_rtrace *u = ft_rtrace_read(dir, 0, -1, err, sizeof err);
  cr_assert_not_null(u, "%s", err);
  cr_assert(ft_rtrace_equal(t, u, why, sizeof why), "%s", why);
  struct ft_rtrace *one = ft_rtrace_read_otf2(dir, 1, err, sizeof err);
  cr_assert_not_null(one, "%s", err);
  cr_assert_eq(one->ranks[0].n, 0);
  cr_assert_eq(one->ranks[1].n, t->ranks[1].n);
  cr_assert_neq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0);
  cr_assert(strstr(err, "already") != NULL, "%s", err);
  ft_rtrace_free(one);
  ft_rtrace_free(u);
  ft_rtrace_free(t);
}

Test(rtrace, otf2_print_reads_an_archive_ftsim_wrote) {
  struct ft_rtrace *t = sample();
  char err[512] = "", dir[128], cmd[1024];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
  snprintf(cmd, sizeof cmd,
           "otf2-print %s/traces.otf2 > %s.txt 2>&1 && "
           "grep -q 'ENTER .*\"MPI_Send\"' %s.txt && "
           "grep -q 'MPI_SEND' %s.txt",
           dir, dir, dir, dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  ft_rtrace_free(t);
}

/* A recording with times (ft_rt_span): rank 0 starts at 1.0 s, rank 1 at
 * 1.5 s; each computes 0.25 s, spends 0.25 s in an MPI_Send (a call's time
 * is not computation), computes 0.5 s and ends. The archive's timestamps
 * are those times in femtoseconds (otf2-print: the finest resolution
 * that holds 2.5 s), its clock starts at the
 * earliest (1.0 s), and reading it back gives the computations, rank 1's
 * first one counted from its own start (ProgramBegin), not the clock's. */
static struct ft_rtrace *timed(void) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  for (uint32_t r = 0; r < 2; r++) {
    double t0 = 1.0 + 0.5 * r;
    struct ft_rt_event e[3] = {{.kind = FT_RT_COMPUTE, .u.compute_s = 0.25},
                               {.kind = FT_RT_SEND},
                               {.kind = FT_RT_COMPUTE, .u.compute_s = 0.5}};
    e[1].u.p2p = (struct ft_rt_p2p){0, (int32_t)(1 - r), 1, 0, 4, 0};
    struct ft_rt_span sp[3] = {
        {t0, t0 + 0.25}, {t0 + 0.25, t0 + 0.5}, {t0 + 0.5, t0 + 1.0}};
    cr_assert_eq(ft_rtrace_keep_times(t, r), 0);
    for (int i = 0; i < 3; i++) {
      add(t, r, e[i]);
      t->ranks[r].span[i] = sp[i];
    }
  }
  return t;
}

Test(rtrace, timestamps_are_the_recorded_times) {
  struct ft_rtrace *t = timed();
  char err[512] = "", dir[128], cmd[2048];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
  snprintf(cmd, sizeof cmd,
           "otf2-print %s/traces.otf2 > %s.txt 2>&1 && "
           "grep -Eq '^ENTER +1 +1750000000000000 .*\"MPI_Send\"' %s.txt && "
           "grep -Eq '^LEAVE +1 +2000000000000000 .*\"MPI_Send\"' %s.txt && "
           "grep -Eq '^PROGRAM_END +1 +2500000000000000 ' %s.txt && "
           "otf2-print -G %s/traces.otf2 | grep -q 'Ticks per Seconds: "
           "1000000000000000, Global Offset: 1000000000000000, "
           "Length: 1500000000000001,'",
           dir, dir, dir, dir, dir, dir);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  struct ft_rtrace *u = ft_rtrace_read(dir, 0, -1, err, sizeof err);
  cr_assert_not_null(u, "%s", err);
  for (uint32_t r = 0; r < 2; r++) {
    cr_assert_eq(u->ranks[r].n, 3);
    cr_assert_float_eq(u->ranks[r].ev[0].u.compute_s, 0.25, 1e-12);
    cr_assert_eq(u->ranks[r].ev[1].kind, FT_RT_SEND);
    cr_assert_float_eq(u->ranks[r].ev[2].u.compute_s, 0.5, 1e-12);
  }
  ft_rtrace_free(u);
  ft_rtrace_free(t);
}

/* The resolution is the finest whose uint64 ticks hold the clock: a
 * recording ending after 1e5 s is in picoseconds, after 1e8 s in
 * nanoseconds, and one beyond what nanoseconds hold (a clock from the
 * epoch, 1e11 s) in nanoseconds from its first rank's start; each reads
 * back with the same computations. */
Test(rtrace, resolution_holds_the_clock) {
  const struct {
    double shift;
    const char *clock;
  } cases[] = {{1e5, "Ticks per Seconds: 1000000000000, Global Offset: "
                     "100001000000000000, Length: 1500000000001,"},
               {1e8, "Ticks per Seconds: 1000000000, Global Offset: "
                     "100000001000000000, Length: 1500000001,"},
               {1e11, "Ticks per Seconds: 1000000000, Global Offset: 0, "
                      "Length: 1500000001,"}};
  char *top = tmpdir();
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    struct ft_rtrace *t = timed();
    for (uint32_t r = 0; r < 2; r++)
      for (size_t i = 0; i < t->ranks[r].n; i++) {
        t->ranks[r].span[i].begin += cases[c].shift;
        t->ranks[r].span[i].end += cases[c].shift;
      }
    char err[512] = "", dir[128], cmd[1024];
    snprintf(dir, sizeof dir, "%s/c%zu", top, c);
    cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
    snprintf(cmd, sizeof cmd, "otf2-print -G %s/traces.otf2 | grep -q '%s'",
             dir, cases[c].clock);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    struct ft_rtrace *u = ft_rtrace_read(dir, 0, -1, err, sizeof err);
    cr_assert_not_null(u, "%s", err);
    for (uint32_t r = 0; r < 2; r++) {
      cr_assert_eq(u->ranks[r].n, 3, "shift %g rank %u", cases[c].shift, r);
      cr_assert_float_eq(u->ranks[r].ev[0].u.compute_s, 0.25, 1e-9);
      cr_assert_float_eq(u->ranks[r].ev[2].u.compute_s, 0.5, 1e-9);
    }
    ft_rtrace_free(u);
    ft_rtrace_free(t);
  }
}

Test(rtrace, equal_sees_a_changed_tag) {
  struct ft_rtrace *t = sample(), *u = sample();
  char why[256] = "";
  u->ranks[1].ev[3].u.p2p.tag = 8;
  cr_assert_not(ft_rtrace_equal(t, u, why, sizeof why));
  cr_assert_str_eq(why, "rank 1: event 3 differs");
  ft_rtrace_free(u);
  ft_rtrace_free(t);
}

/* Rank 1 of 2 received shorter than rank 0's messages: a recv, an irecv
 * completed by a wait, a sendrecv's receive half, each MPI_ERR_TRUNCATE
 * (FT_RT_TRUNCATED; bytes the receive's size). */
static struct ft_rtrace *truncations(void) {
  struct ft_rtrace *t = ft_rtrace_new(2);
  struct ft_rt_event e = {.kind = FT_RT_RECV};
  e.u.p2p =
      (struct ft_rt_p2p){0, 0, 1, FT_RT_WILD_SOURCE | FT_RT_TRUNCATED, 16, 0};
  add(t, 1, e);
  e = (struct ft_rt_event){.kind = FT_RT_IRECV};
  e.u.p2p = (struct ft_rt_p2p){0, 0, 2, FT_RT_WILD_TAG | FT_RT_TRUNCATED, 8, 1};
  add(t, 1, e);
  struct ft_rt_done d = {1, FT_RT_DONE, 1, 0, 0, 2, 8, 1};
  cr_assert_eq(ft_rtrace_append_complete(t, 1, FT_RT_WAIT, &d, 1), 0);
  e = (struct ft_rt_event){.kind = FT_RT_SENDRECV};
  e.u.sendrecv = (struct ft_rt_sendrecv){0, 0, 4, 0, 3, FT_RT_TRUNCATED, 4, 12};
  add(t, 1, e);
  return t;
}

Test(rtrace, truncated_receives_survive_the_archive) {
  struct ft_rtrace *t = truncations();
  char err[512] = "", why[256] = "", dir[128], cmd[1024];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
  struct ft_rtrace *u = ft_rtrace_read(dir, 0, -1, err, sizeof err);
  cr_assert_not_null(u, "%s", err);
  cr_assert(ft_rtrace_equal(t, u, why, sizeof why), "%s", why);
  cr_assert_eq(u->ranks[1].ev[0].u.p2p.flags,
               FT_RT_WILD_SOURCE | FT_RT_TRUNCATED);
  cr_assert_eq(u->ranks[1].done[0].truncated, 1);
  cr_assert_eq(u->ranks[1].ev[3].u.sendrecv.flags, FT_RT_TRUNCATED);
  /* as OTF2's attribute, on the three receive records */
  snprintf(cmd, sizeof cmd,
           "otf2-print %s/traces.otf2 2>/dev/null | grep -c 'ftsim::truncated'",
           dir);
  FILE *f = popen(cmd, "r");
  int n = -1;
  cr_assert_not_null(f);
  cr_assert_eq(fscanf(f, "%d", &n), 1);
  pclose(f);
  cr_assert_eq(n, 3, "%d records with ftsim::truncated", n);
  struct ft_rtrace *v = truncations();
  v->ranks[1].done[0].truncated = 0;
  cr_assert_not(ft_rtrace_equal(t, v, why, sizeof why));
  ft_rtrace_free(v);
  ft_rtrace_free(u);
  ft_rtrace_free(t);
}

/* --- a Score-P-style archive, with OTF2's writer API --- */

/* Score-P-style archives (tests/rtrace/scorep_builder.c). */
static void write_scorep(const char *dir, int variant) {
  cr_assert_eq(scorep_write(dir, variant), 0, "OTF2 could not write %s", dir);
}

Test(rtrace, scorep_style_archive_is_read) {
  char dir[128], err[512] = "";
  snprintf(dir, sizeof dir, "%s/s", tmpdir());
  write_scorep(dir, 0);
  struct ft_rtrace *t = ft_rtrace_read(dir, 0, -1, err, sizeof err);
  cr_assert_not_null(t, "%s", err);
  cr_assert_eq(t->nranks, 2);
  cr_assert_eq(t->ncomms, 4); /* WORLD, SELF and the two halves */
  const struct ft_rtrace_rank *k = &t->ranks[1];
  cr_assert_eq(k->n, 8, "%zu events", k->n);
  cr_assert_eq(k->ev[0].kind, FT_RT_COMPUTE);
  cr_assert_float_eq(k->ev[0].u.compute_s, 0.001, 1e-12);
  cr_assert_eq(k->ev[1].kind, FT_RT_IRECV); /* patched at its completion */
  cr_assert_eq(k->ev[1].u.p2p.peer, 0);
  cr_assert_eq(k->ev[1].u.p2p.tag, 5);
  cr_assert_eq(k->ev[1].u.p2p.bytes, 64);
  cr_assert_eq(k->ev[3].kind, FT_RT_COMPLETE);
  cr_assert_eq(k->ev[3].u.complete.call, FT_RT_WAITALL);
  cr_assert_eq(k->ev[3].u.complete.count, 2);
  cr_assert_eq(k->done[k->ev[3].u.complete.first].is_recv, 1);
  cr_assert_eq(k->ev[4].kind, FT_RT_RECV);
  cr_assert_eq(k->ev[4].u.p2p.peer, 0);
  cr_assert_eq(k->ev[5].kind, FT_RT_COLL);
  cr_assert_eq(k->ev[5].u.coll.op, FT_RT_ALLREDUCE);
  cr_assert_eq(k->ev[5].u.coll.root, -1);
  cr_assert_eq(k->ev[6].kind, FT_RT_COMM);
  cr_assert_eq(k->ev[6].u.comm.op, FT_RT_COMM_SPLIT);
  cr_assert_eq(t->comms[k->ev[6].u.comm.comm].members[0], 1);
  cr_assert_eq(k->ev[6].u.comm.color, FT_RT_UNKNOWN);
  cr_assert_eq(k->ev[7].kind, FT_RT_COMPUTE); /* up to main's end */
  ft_rtrace_free(t);
}

Test(rtrace, unsupported_mpi_region_is_refused_with_its_location) {
  char dir[128], err[512] = "";
  snprintf(dir, sizeof dir, "%s/s", tmpdir());
  write_scorep(dir, 1);
  struct ft_rtrace *t = ft_rtrace_read(dir, 0, -1, err, sizeof err);
  cr_assert_null(t);
  cr_assert(strstr(err, "location 1 (rank 1), event 22: unsupported MPI "
                        "call MPI_Put") != NULL,
            "%s", err);
}

Test(rtrace, rma_record_is_refused_with_its_location) {
  char dir[128], err[512] = "";
  snprintf(dir, sizeof dir, "%s/s", tmpdir());
  write_scorep(dir, 2);
  cr_assert_null(ft_rtrace_read(dir, 0, -1, err, sizeof err));
  cr_assert(strstr(err, "location 1 (rank 1), event 22: unsupported record "
                        "RmaWinCreate") != NULL,
            "%s", err);
}

Test(rtrace, truncated_archive_is_an_error_not_a_crash) {
  struct ft_rtrace *t = sample();
  char err[512] = "", dir[128], cmd[1024];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_eq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0, "%s", err);
  snprintf(cmd, sizeof cmd, "truncate -s 40 %s/traces/1.evt", dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_null(ft_rtrace_read(dir, 0, -1, err, sizeof err));
  cr_assert(strstr(err, "rank 1") != NULL, "%s", err);
  cr_assert_null(ft_rtrace_read("/nonexistent/x.otf2", 0, -1, err, sizeof err));
  cr_assert(strstr(err, "no such OTF2 archive") != NULL, "%s", err);
  ft_rtrace_free(t);
}

/* --- SimGrid time-independent traces --- */

static void put_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs(text, f);
  fclose(f);
}

/* Two ranks, SimGrid 3.32's spelling of every action the reader knows. */
static const char *const ti_rank0 = "0 init\n"
                                    "0 compute 2000\n"
                                    "0 send 1 5 10 1\n"
                                    "0 irecv -555 6 4\n"
                                    "0 isend 1 7 3 0\n"
                                    "0 wait 0 1 7\n"
                                    "0 waitall 1\n"
                                    "0 sendRecv 2 1 3 1 0 0\n"
                                    "0 bcast 16 0 6\n"
                                    "0 reduce 4 100 1 0\n"
                                    "0 allreduce 4 0 0\n"
                                    "0 alltoall 2 2 0 0\n"
                                    "0 gather 1 1 0 0 0\n"
                                    "0 allgather 1 1 6 6\n"
                                    "0 gatherv 2 2 3 0 6 6\n"
                                    "0 allgatherv 2 2 3 6 6\n"
                                    "0 scatter 1 1 1 6 6\n"
                                    "0 scatterv 2 3 3 1 6 6\n"
                                    "0 reducescatter 2 3 0 0\n"
                                    "0 scan 2 0 0\n"
                                    "0 exscan 2 0 0\n"
                                    "0 alltoallv 10 4 6 10 5 5 6 6\n"
                                    "0 barrier\n"
                                    "0 comm_size 2\n"
                                    "0 sleep 0.5\n"
                                    "0 finalize\n";
static const char *const ti_rank1 = "1 init 1\n"
                                    "1 recv 0 5 10 1\n"
                                    "1 isend 0 6 4\n"
                                    "1 irecv 0 7 3\n"
                                    "1 test 0 1 7\n"
                                    "1 waitall\n"
                                    "1 sendRecv 3 0 2 0\n"
                                    "1 finalize\n";

Test(rtrace, ti_index_and_rank_files_are_read) {
  char dir[128], p[256], err[512] = "";
  snprintf(dir, sizeof dir, "%s", tmpdir());
  snprintf(p, sizeof p, "%s/r0.txt", dir);
  put_file(p, ti_rank0);
  snprintf(p, sizeof p, "%s/r1.txt", dir);
  put_file(p, ti_rank1);
  snprintf(p, sizeof p, "%s/index", dir);
  put_file(p, "r0.txt\nr1.txt\n");
  struct ft_rtrace *t = ft_rtrace_read(p, 1000, -1, err, sizeof err);
  cr_assert_not_null(t, "%s", err);
  cr_assert_eq(t->nranks, 2);
  const struct ft_rtrace_rank *k = &t->ranks[0];
  cr_assert_eq(k->ev[0].kind, FT_RT_COMPUTE);
  cr_assert_float_eq(k->ev[0].u.compute_s, 2.0, 1e-12); /* 2000 flops */
  cr_assert_eq(k->ev[1].kind, FT_RT_SEND);
  cr_assert_eq(k->ev[1].u.p2p.bytes, 40); /* 10 MPI_INT */
  cr_assert_eq(k->ev[2].kind, FT_RT_IRECV);
  cr_assert_eq(k->ev[2].u.p2p.flags, FT_RT_WILD_SOURCE);
  cr_assert_eq(k->ev[2].u.p2p.bytes, 4); /* default datatype: MPI_BYTE */
  cr_assert_eq(k->ev[4].kind, FT_RT_COMPLETE);
  cr_assert_eq(k->ev[4].u.complete.call, FT_RT_WAIT);
  cr_assert_eq(k->done[k->ev[4].u.complete.first].request,
               k->ev[3].u.p2p.request); /* the isend to 1, tag 7 */
  cr_assert_eq(k->ev[5].u.complete.call, FT_RT_WAITALL);
  cr_assert_eq(k->ev[5].u.complete.count, 1); /* the irecv left */
  cr_assert_eq(k->ev[6].kind, FT_RT_SENDRECV);
  cr_assert_eq(k->ev[6].u.sendrecv.send_bytes, 16);
  cr_assert_eq(k->ev[7].u.coll.op, FT_RT_BCAST);
  cr_assert_eq(k->ev[7].u.coll.sent, 16); /* the root's buffer */
  cr_assert_eq(k->ev[8].u.coll.op, FT_RT_REDUCE);
  cr_assert_eq(k->ev[8].u.coll.root, 1);
  cr_assert_eq(k->ev[8].u.coll.recvd, 0);     /* not the root */
  cr_assert_eq(k->ev[9].kind, FT_RT_COMPUTE); /* the reduction's flops */
  struct ft_rtrace_stat s;
  ft_rtrace_rank_stat(t, 0, &s);
  cr_assert_eq(s.by_kind[FT_RT_COLL], 15);
  const struct ft_rtrace_rank *k1 = &t->ranks[1];
  cr_assert_eq(k1->ev[1].u.p2p.bytes, 32); /* init 1: MPI_DOUBLE */
  cr_assert_eq(k1->ev[3].kind, FT_RT_COMPLETE);
  cr_assert_eq(k1->done[k1->ev[3].u.complete.first].status, FT_RT_NOT_DONE);
  cr_assert_eq(k1->ev[4].u.complete.count, 2); /* waitall: both */
  ft_rtrace_free(t);
}

Test(rtrace, ti_single_file_holds_every_rank) {
  char p[256], err[512] = "", text[4096];
  snprintf(p, sizeof p, "%s/all.txt", tmpdir());
  snprintf(text, sizeof text, "%s%s", ti_rank0, ti_rank1);
  put_file(p, text);
  struct ft_rtrace *t = ft_rtrace_read(p, 1000, -1, err, sizeof err);
  cr_assert_not_null(t, "%s", err);
  cr_assert_eq(t->nranks, 2);
  cr_assert_eq(t->ranks[1].n, 6);
  ft_rtrace_free(t);
  t = ft_rtrace_read(p, 1000, 1, err, sizeof err);
  cr_assert_not_null(t, "%s", err);
  cr_assert_eq(t->ranks[0].n, 0);
  cr_assert_eq(t->ranks[1].n, 6);
  ft_rtrace_free(t);
}

/* A bad line is an error naming the file, the line and the field. */
Test(rtrace, ti_bad_lines_name_file_line_and_field) {
  static const struct {
    const char *line, *want;
  } cases[] = {
      {"0 fly 1", ":2: unknown action 'fly'"},
      {"0 send 1 5", ":2: action 'send': field 'size' missing"},
      {"0 send 1 5 -3", "field 'size': not a count: '-3'"},
      {"0 send 1 5 1e300", "field 'size': not a count: '1e300'"},
      {"0 send 1 5 9007199254740992 0", "action 'send': size overflows"},
      {"0 send 9 5 1", "field 'peer': no rank 9"},
      {"0 send 1 99999999999 1", "field 'tag': not an integer"},
      {"0 send 1 5 1 77", "field 'datatype': unknown datatype id 77"},
      {"0 compute nan", "field 'flops': not a number >= 0: 'nan'"},
      {"0 wait 0 1 3", "action 'wait': no pending request 0 -> 1 tag 3"},
      {"-1 barrier", "field 'rank': no rank '-1'"},
      {"0", ":2: a rank and an action expected"},
      {"0 bcast 4 5", "field 'root': no rank 5"},
      {"0 gatherv 1 2", "field 'recvcounts' missing"},
  };
  char p[256], err[512], text[256];
  snprintf(p, sizeof p, "%s/t.txt", tmpdir());
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(text, sizeof text, "1 init\n%s\n", cases[i].line);
    put_file(p, text);
    err[0] = 0;
    struct ft_rtrace *t = ft_rtrace_read_ti(p, 1e9, -1, err, sizeof err);
    cr_assert_null(t, "'%s' was accepted", cases[i].line);
    cr_assert(strstr(err, p) == err && strstr(err, cases[i].want), "'%s': %s",
              cases[i].line, err);
  }
}

/* Fuzz-ish: every truncation of a valid trace, and random byte changes
 * (seeded), either read or fail with FILE:LINE: never crash. */
Test(rtrace, ti_truncated_and_mutated_traces_never_crash) {
  char p[256], err[512], text[4096], want[300];
  snprintf(p, sizeof p, "%s/t.txt", tmpdir());
  snprintf(want, sizeof want, "%s:", p);
  snprintf(text, sizeof text, "%s%s", ti_rank0, ti_rank1);
  size_t n = strlen(text);
  uint64_t seed = 42;
  for (size_t i = 0; i < n + 400; i++) {
    char copy[4096];
    memcpy(copy, text, n + 1);
    if (i < n) {
      copy[i] = 0; /* truncated */
    } else {
      for (int j = 0; j < 3; j++) { /* three random changes */
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        copy[(seed >> 33) % n] = " 0123456789-.e\nxz"[(seed >> 20) % 17];
      }
    }
    put_file(p, copy);
    struct ft_rtrace *t = ft_rtrace_read_ti(p, 1e9, -1, err, sizeof err);
    if (!t)
      cr_assert(strstr(err, want) == err, "%zu: %s", i, err);
    ft_rtrace_free(t);
  }
}

Test(rtrace, writer_refuses_an_invalid_event) {
  struct ft_rtrace *t = ft_rtrace_new(1);
  struct ft_rt_event e = {.kind = FT_RT_COMPLETE};
  e.u.complete = (struct ft_rt_complete){FT_RT_WAIT, 0, 3}; /* no entries */
  add(t, 0, e);
  char err[512] = "", dir[128];
  snprintf(dir, sizeof dir, "%s/a", tmpdir());
  cr_assert_neq(ft_rtrace_write_otf2(t, dir, err, sizeof err), 0);
  cr_assert_str_eq(err, "rank 0, event 0 (complete): invalid event");
  ft_rtrace_free(t);
}
