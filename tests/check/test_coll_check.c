/* Units of the rule on collective calls carried as one unit
 * (sim/check/coll_check.h), on records written by hand: C3's Figures 5-7
 * straddling the recovery line, then one planted fault each. */
#include <criterion/criterion.h>
#include <string.h>

#include "coll_check.h"

static const char *const files[] = {"t.0", "t.1", "t.2"};

/* Records: rank, inc, comm, call, epoch, root, how, seq, line. */
#define R(rank, inc, call, epoch, root, how, seq, line)                        \
  { rank, inc, 0, call, epoch, root, FT_HOW_##how, seq, line }

static int check(struct ft_coll_rec *at, size_t n, struct ft_coll_fault *f) {
  struct ft_coll_recs recs = {.at = at, .n = n, .cap = n};
  return ft_coll_check(&recs, files, 3, f);
}

/* An allgatherv (11) straddling the line: rank 0 beyond (epoch 1) logs,
 * rank 1 behind runs; after the rollback rank 0 replays, rank 1 goes on
 * from past it, and both run call #2. */
#define STRADDLE(how0)                                                         \
  R(0, 0, 11, 1, -1, how0, 1, 10), R(1, 0, 11, 0, -1, RUN, 1, 10),             \
      R(0, 1, 11, 1, -1, REPLAY, 1, 20), R(0, 1, 11, 1, -1, RUN, 2, 21),       \
      R(1, 1, 11, 1, -1, RUN, 2, 21)

Test(coll_check, straddling_all_to_all_logged_then_replayed) {
  struct ft_coll_rec r[] = {STRADDLE(LOG)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, sizeof r / sizeof *r, &f), 0, "%s", f.message);
}

Test(coll_check, straddling_all_to_all_not_logged_is_named) {
  struct ft_coll_rec r[] = {R(0, 0, 11, 1, -1, RUN, 1, 10),
                            R(1, 0, 11, 0, -1, RUN, 1, 12)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, 2, &f), -1);
  cr_assert_str_eq(f.field, "how");
  cr_assert_eq(f.rec.rank, 0);
  cr_assert_eq(f.rec.line, 10);
  cr_assert(strstr(f.message, "did not log"), "%s", f.message);
}

Test(coll_check, replay_while_another_rank_carries_out_is_named) {
  struct ft_coll_rec r[] = {STRADDLE(LOG), R(1, 1, 11, 1, -1, RUN, 1, 19)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, sizeof r / sizeof *r, &f), -1);
  cr_assert_str_eq(f.field, "how");
  cr_assert_eq(f.rec.line, 20);
  cr_assert(strstr(f.message, "which rank 1 carries out there (t.1:19)"), "%s",
            f.message);
}

Test(coll_check, replay_without_log_is_named) {
  struct ft_coll_rec r[] = {R(0, 1, 14, 1, -1, REPLAY, 1, 20)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, 1, &f), -1);
  cr_assert(strstr(f.message, "logged no result of it before"), "%s",
            f.message);
}

Test(coll_check, members_disagreeing_on_the_call_are_named) {
  struct ft_coll_rec r[] = {R(0, 0, 14, 0, -1, RUN, 1, 10),
                            R(1, 0, 15, 0, -1, RUN, 1, 11)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, 2, &f), -1);
  cr_assert_str_eq(f.field, "call");
  cr_assert(strstr(f.message, "call 15 (exscan)"), "%s", f.message);
}

/* A rank carried out call #1 after the rollback, rank 0 went past it
 * (its call #2) without: the straddling call was neither logged nor
 * re-executed by every member. */
Test(coll_check, member_going_past_a_call_others_carry_out_is_named) {
  struct ft_coll_rec r[] = {R(1, 1, 16, 1, -1, RUN, 1, 30),
                            R(0, 1, 16, 1, -1, RUN, 2, 31),
                            R(1, 1, 16, 1, -1, RUN, 2, 32)};
  struct ft_coll_fault f;
  cr_assert_eq(check(r, 3, &f), -1);
  cr_assert(strstr(f.message, "rank 0 went past it"), "%s", f.message);
}

/* Scatterv (10), root 0: a receiver beyond a root behind logs
 * (Figure 7); one behind a root beyond does not, and re-executes. */
Test(coll_check, single_sender_figure_7) {
  struct ft_coll_rec ok[] = {R(0, 0, 10, 0, 0, RUN, 1, 10),
                             R(1, 0, 10, 1, 0, LOG, 1, 11),
                             R(2, 0, 10, 0, 0, RUN, 1, 12)};
  struct ft_coll_rec bad[] = {R(0, 0, 10, 1, 0, RUN, 1, 10),
                              R(1, 0, 10, 0, 0, LOG, 1, 11)};
  struct ft_coll_rec reexec[] = {R(0, 1, 10, 1, 0, RUN, 1, 10),
                                 R(1, 1, 10, 1, 0, REEXEC, 1, 11)};
  struct ft_coll_fault f;
  cr_assert_eq(check(ok, 3, &f), 0, "%s", f.message);
  cr_assert_eq(check(reexec, 2, &f), 0, "%s", f.message);
  cr_assert_eq(check(bad, 2, &f), -1);
  cr_assert_eq(f.rec.rank, 1);
  cr_assert(strstr(f.message, "Figure 7"), "%s", f.message);
}

/* Gatherv (9), root 2: a root beyond a member behind logs (Figure 6); the
 * members never do; suppress is a member's, reexec is not a gather's. */
Test(coll_check, single_receiver_figure_6) {
  struct ft_coll_rec ok[] = {R(0, 0, 9, 0, 2, RUN, 1, 10),
                             R(2, 0, 9, 1, 2, LOG, 1, 11),
                             R(1, 1, 9, 1, 2, SUPPRESS, 1, 12)};
  struct ft_coll_rec unlogged[] = {R(0, 0, 9, 0, 2, RUN, 1, 10),
                                   R(2, 0, 9, 1, 2, RUN, 1, 11)};
  struct ft_coll_rec reexec[] = {R(0, 1, 9, 1, 2, REEXEC, 1, 10)};
  struct ft_coll_fault f;
  cr_assert_eq(check(ok, 3, &f), 0, "%s", f.message);
  cr_assert_eq(check(unlogged, 2, &f), -1);
  cr_assert_eq(f.rec.rank, 2);
  cr_assert(strstr(f.message, "Figure 6"), "%s", f.message);
  cr_assert_eq(check(reexec, 1, &f), -1);
  cr_assert(strstr(f.message, "reexecList"), "%s", f.message);
}
