/* The replay's events file (rtrace_events.c): each rank reads back exactly
 * its own events, completion entries and host speed, and every
 * communicator; a file that is not one, is truncated or lacks the rank is
 * refused with a message naming it. */
#define _POSIX_C_SOURCE 200809L
#include "rtrace_events.h"

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

TestSuite(events, .fini = rm_file);

static const char *tmpfile_path(void) {
  snprintf(path, sizeof path, "/tmp/ftsim-ev-XXXXXX");
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  close(fd);
  return path;
}

static void p2p(struct ft_rtrace *t, uint32_t r, uint8_t kind, int32_t peer,
                uint64_t bytes, uint64_t req) {
  struct ft_rt_event e;
  memset(&e, 0, sizeof e);
  e.kind = kind;
  e.u.p2p = (struct ft_rt_p2p){FT_RT_COMM_WORLD, peer, 7, 0, bytes, req};
  cr_assert_not_null(ft_rtrace_append(t, r, &e));
}

/* Three ranks: a communicator of ranks 0 and 2, rank r sends r + 1
 * messages and waits for them (one completion entry each), rank 1 computes;
 * host speeds 1e9 (r + 1). */
static struct ft_rtrace *three_ranks(void) {
  struct ft_rtrace *t = ft_rtrace_new(3);
  const uint32_t pair[2] = {0, 2};
  cr_assert_eq(ft_rtrace_add_comm(t, 2, pair), 2u);
  for (uint32_t r = 0; r < 3; r++) {
    struct ft_rt_done d[3];
    memset(d, 0, sizeof d);
    for (uint32_t i = 0; i <= r; i++) {
      p2p(t, r, FT_RT_ISEND, (int32_t)((r + 1) % 3), 100 * (i + 1), i + 1);
      d[i] = (struct ft_rt_done){
          i + 1, FT_RT_DONE,    0, FT_RT_COMM_WORLD, (int32_t)((r + 1) % 3),
          7,     100 * (i + 1), 0};
    }
    cr_assert_eq(ft_rtrace_append_complete(t, r, FT_RT_WAITALL, d, r + 1), 0);
    t->ranks[r].host_speed = 1e9 * (r + 1);
  }
  struct ft_rt_event c;
  memset(&c, 0, sizeof c);
  c.kind = FT_RT_COMPUTE;
  c.u.compute_s = 0.25;
  cr_assert_not_null(ft_rtrace_append(t, 1, &c));
  return t;
}

static void same_comms(const struct ft_rtrace *t,
                       const struct ft_rtrace_one *o) {
  cr_assert_eq(o->ncomms, t->ncomms);
  for (uint32_t c = 0; c < t->ncomms; c++) {
    cr_assert_eq(o->comms[c].size, t->comms[c].size, "communicator %u", c);
    cr_assert_eq(!o->comms[c].members, !t->comms[c].members);
    if (t->comms[c].members)
      cr_assert_arr_eq(o->comms[c].members, t->comms[c].members,
                       t->comms[c].size * sizeof(uint32_t));
  }
}

Test(events, every_rank_reads_back_its_own_events_and_every_communicator) {
  struct ft_rtrace *t = three_ranks();
  char err[256] = "";
  const char *f = tmpfile_path();
  cr_assert_eq(ft_rtrace_write_events(t, f, err, sizeof err), 0, "%s", err);
  for (uint32_t r = 0; r < 3; r++) {
    struct ft_rtrace_one o;
    cr_assert_eq(ft_rtrace_read_events(f, r, &o, err, sizeof err), 0, "%s",
                 err);
    const struct ft_rtrace_rank *k = &t->ranks[r];
    cr_assert_eq(o.nranks, 3u);
    cr_assert_eq(o.rank, r);
    cr_assert_eq(o.me.n, k->n, "rank %u", r);
    cr_assert_eq(o.me.ndone, k->ndone, "rank %u", r);
    cr_assert_float_eq(o.me.host_speed, k->host_speed, 1e-3);
    cr_assert_arr_eq(o.me.ev, k->ev, k->n * sizeof *k->ev);
    cr_assert_arr_eq(o.me.done, k->done, k->ndone * sizeof *k->done);
    same_comms(t, &o);
    ft_rtrace_one_free(&o);
  }
  ft_rtrace_free(t);
}

static void refused(const char *f, uint32_t rank, const char *why) {
  struct ft_rtrace_one o;
  char err[512] = "";
  cr_assert_eq(ft_rtrace_read_events(f, rank, &o, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, f), "%s", err);
  cr_assert_not_null(strstr(err, why), "%s", err);
  cr_assert_null(o.me.ev);
  cr_assert_null(o.comms);
}

Test(events, a_missing_rank_a_truncated_file_and_another_file_are_refused) {
  struct ft_rtrace *t = three_ranks();
  char err[256] = "";
  const char *f = tmpfile_path();
  cr_assert_eq(ft_rtrace_write_events(t, f, err, sizeof err), 0, "%s", err);
  refused(f, 3, "no such rank");
  FILE *fp = fopen(f, "rb");
  cr_assert_not_null(fp);
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fclose(fp);
  cr_assert_eq(truncate(f, size - 8), 0);
  refused(f, 2, "past the end"); /* rank 2's entries are the file's last */
  fp = fopen(f, "w");
  fputs("0 init\n0 compute 1e6\n", fp); /* a TI trace, not an events file */
  fclose(fp);
  refused(f, 0, "not a replay events file");
  ft_rtrace_free(t);
}

Test(events, take_one_moves_the_rank_and_the_communicators_out) {
  struct ft_rtrace *t = three_ranks(), *copy = three_ranks();
  struct ft_rtrace_one o;
  ft_rtrace_take_one(t, 2, &o); /* frees t */
  cr_assert_eq(o.nranks, 3u);
  cr_assert_eq(o.rank, 2u);
  cr_assert_eq(o.me.n, copy->ranks[2].n);
  cr_assert_eq(o.me.ndone, copy->ranks[2].ndone);
  for (size_t i = 0; i < o.me.ndone; i++)
    cr_assert(o.me.done[i].request == copy->ranks[2].done[i].request &&
              o.me.done[i].bytes == copy->ranks[2].done[i].bytes);
  same_comms(copy, &o);
  ft_rtrace_one_free(&o);
  cr_assert_null(o.comms);
  ft_rtrace_free(copy);
}
