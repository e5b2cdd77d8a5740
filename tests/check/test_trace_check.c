/* The trace checker on hand-written traces: one story per promise, kept or
 * broken, and malformed input. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "trace_check.h"

/* Checks the traces of ranks 0..n-1 (texts), named t.0, t.1, ... */
static enum ft_check_status check(const char *const texts[], int n,
                                  struct ft_check_result *res) {
  struct ft_check *ck = ft_check_new();
  cr_assert_not_null(ck);
  memset(res, 0, sizeof *res);
  for (int i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof name, "t.%d", i);
    FILE *f = fmemopen((void *)texts[i], strlen(texts[i]), "r");
    cr_assert_not_null(f);
    int rc = ft_check_read(ck, name, f, res);
    fclose(f);
    if (rc) {
      ft_check_free(ck);
      return res->status;
    }
  }
  enum ft_check_status st = ft_check_run(ck, res);
  ft_check_free(ck);
  return st;
}

#define RUN " run 00000000000000aa\n"
#define H0 "# ftsim-trace 3 rank 0 ranks 2 protocol pcl family coordinated" RUN
#define H1 "# ftsim-trace 3 rank 1 ranks 2 protocol pcl family coordinated" RUN
#define V0                                                                     \
  "# ftsim-trace 3 rank 0 ranks 2 protocol vcl family channel_state" RUN
#define V1                                                                     \
  "# ftsim-trace 3 rank 1 ranks 2 protocol vcl family channel_state" RUN
/* The end record of rank R in incarnation I. */
#define END(r, i) "9.0 " #r " " #i " end\n"

Test(trace_check, consistent_wave_is_ok) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.3 0 0 commit 1 0\n" END(0, 0),
                     H1 "0.1 1 0 safe 1\n"
                        "0.1 1 0 ckpt 1 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.events, 9);
  cr_assert_eq(res.messages, 1);
  cr_assert_eq(res.waves, 1);
}

Test(trace_check, orphan_is_named) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.5 0 0 commit 1 0\n" END(0, 0),
                     H1 "0.1 1 0 safe 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 safe 2\n"
                        "0.3 1 0 ckpt 1 2\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "orphan");
  cr_assert(strstr(res.message, "(inc 0, comm 0 p, 0->1, tag 7, #1)"), "%s",
            res.message);
  cr_assert(strstr(res.message, "t.1:3"), "%s", res.message);
}

/* Rank 0 sends before its checkpoint, rank 1 receives after its own. */
#define IN_TRANSIT_0                                                           \
  V0 "0.1 0 0 send 0 p 1 7 1 8\n"                                              \
     "0.2 0 0 safe 1\n"                                                        \
     "0.2 0 0 ckpt 1 1\n"
#define IN_TRANSIT_1                                                           \
  V1 "0.2 1 0 safe 1\n"                                                        \
     "0.2 1 0 ckpt 1 1\n"                                                      \
     "0.3 1 0 deliver 0 p 0 7 1 8\n"
#define SCHED                                                                  \
  "# ftsim-trace 3 rank 2 ranks 2 protocol vcl family channel_state" RUN       \
  "0.4 2 0 commit 1 0\n" END(2, 0)

Test(trace_check, channel_state_holds_the_message_in_transit) {
  const char *t[] = {IN_TRANSIT_0 END(0, 0),
                     IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n"
                                  "0.3 1 0 store 1\n" END(1, 0),
                     SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
}

Test(trace_check, missing_channel_state_is_named) {
  const char *t[] = {IN_TRANSIT_0 END(0, 0),
                     IN_TRANSIT_1 "0.3 1 0 store 1\n" END(1, 0), SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "channel-state");
  cr_assert(strstr(res.message, "is in transit"), "%s", res.message);
}

Test(trace_check, channel_state_of_a_message_not_in_transit) {
  const char *t[] = {V0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n" END(0, 0),
                     V1 "0.1 1 0 safe 1\n"
                        "0.1 1 0 ckpt 1 1\n"
                        "0.3 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 chanrec 1 0 p 0 7 1\n" END(1, 0),
                     SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "channel-state");
  cr_assert(strstr(res.message, "not in transit"), "%s", res.message);
}

/* The drain family (bookmark): every channel empty at a committed wave. */
#define B0 "# ftsim-trace 3 rank 0 ranks 2 protocol bookmark family drain" RUN
#define B1 "# ftsim-trace 3 rank 1 ranks 2 protocol bookmark family drain" RUN

/* Rank 0's message is received before rank 1's checkpoint: drained. */
Test(trace_check, drained_wave_is_ok) {
  const char *t[] = {B0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 safe 1\n"
                        "0.2 0 0 ckpt 1 1\n"
                        "0.4 0 0 commit 1 0\n" END(0, 0),
                     B1 "0.15 1 0 deliver 0 p 0 7 1 8\n"
                        "0.2 1 0 safe 1\n"
                        "0.2 1 0 ckpt 1 1\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
}

/* The on-line drain (sim/runtime/drain/drain.c): rank 1 is held at its
 * safe point and takes the message off the wire before its checkpoint
 * (lam-mpi-blcr, Figure 9): received at the cut, the channel is empty. */
Test(trace_check, message_drained_while_held_at_the_safe_point_is_ok) {
  const char *t[] = {B0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 safe 1\n"
                        "0.2 0 0 ckpt 1 1\n"
                        "0.4 0 0 commit 1 0\n" END(0, 0),
                     B1 "0.2 1 0 safe 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"
                        "0.25 1 0 ckpt 1 1\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
}

/* The message is still in transit at the cut: the checkpoint was taken
 * before the drain completed. */
Test(trace_check, message_in_transit_at_a_drained_wave_is_named) {
  const char *t[] = {B0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 safe 1\n"
                        "0.2 0 0 ckpt 1 1\n"
                        "0.4 0 0 commit 1 0\n" END(0, 0),
                     B1 "0.2 1 0 safe 1\n"
                        "0.2 1 0 ckpt 1 1\n"
                        "0.3 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "undrained");
  cr_assert(strstr(res.message, "channel 0->1 was not drained"), "%s",
            res.message);
  cr_assert(strstr(res.message, "(1 sent, 0 received at the cut)"), "%s",
            res.message);
  cr_assert(strstr(res.message, "t.0:2"), "%s", res.message);
}

/* Channel state recorded at a drained wave, even of that message. */
Test(trace_check, channel_state_at_a_drained_wave_is_named) {
  const char *t[] = {B0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 safe 1\n"
                        "0.2 0 0 ckpt 1 1\n"
                        "0.4 0 0 commit 1 0\n" END(0, 0),
                     B1 "0.2 1 0 safe 1\n"
                        "0.2 1 0 ckpt 1 1\n"
                        "0.3 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 chanrec 1 0 p 0 7 1\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "undrained");
  cr_assert(strstr(res.message, "holds empty channels"), "%s", res.message);
}

/* An orphan is still an orphan under the drain family. */
Test(trace_check, orphan_at_a_drained_wave_is_named) {
  const char *t[] = {B0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.5 0 0 commit 1 0\n" END(0, 0),
                     B1 "0.1 1 0 safe 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 safe 2\n"
                        "0.3 1 0 ckpt 1 2\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "orphan");
}

/* After the rollback to wave 1, rank 0 replays the message in transit, then
 * sends its next one; rank 1 gets both. */
#define ROLLBACK_1                                                             \
  "1.0 1 1 rollback 1 1\n"                                                     \
  "1.1 1 1 restore 1 1\n"                                                      \
  "1.2 1 1 deliver 0 p 0 7 1 8\n"                                              \
  "1.3 1 1 deliver 0 p 0 7 2 8\n" END(1, 1),                                   \
      SCHED

Test(trace_check, replay_after_rollback_is_the_failure_free_sequence) {
  const char *t[] = {IN_TRANSIT_0 "1.0 0 1 rollback 1 1\n"
                                  "1.1 0 1 restore 1 1\n"
                                  "1.1 0 1 resend 0 p 1 7 1 8\n"
                                  "1.15 0 1 send 0 p 1 7 2 8\n" END(0, 1),
                     IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n" ROLLBACK_1};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.rollbacks, 1);
}

Test(trace_check, message_in_transit_not_replayed_is_lost) {
  /* The channel state says it all, but the sender does not replay it. */
  const char *t[] = {IN_TRANSIT_0 "1.0 0 1 rollback 1 1\n"
                                  "1.1 0 1 restore 1 1\n"
                                  "1.15 0 1 send 0 p 1 7 1 8\n"
                                  "1.16 0 1 send 0 p 1 7 2 8\n" END(0, 1),
                     IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n" ROLLBACK_1};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "lost");
  cr_assert(strstr(res.message, "messages 1..1 are lost"), "%s", res.message);
}

Test(trace_check, replay_of_a_message_not_in_transit_is_a_duplicate) {
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 safe 1\n"
                        "0.2 0 0 ckpt 1 1\n"
                        "0.4 0 0 commit 1 0\n"
                        "1.0 0 1 rollback 1 1\n"
                        "1.1 0 1 restore 1 1\n"
                        "1.1 0 1 resend 0 p 1 7 1 8\n" END(0, 1),
                     H1 "0.15 1 0 deliver 0 p 0 7 1 8\n"
                        "0.2 1 0 safe 1\n"
                        "0.2 1 0 ckpt 1 1\n"
                        "1.0 1 1 rollback 1 1\n"
                        "1.1 1 1 restore 1 1\n"
                        "1.2 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "duplicate");
}

/* Any-call replays (issue 16, item 3): rank 1 restores the message in
 * transit from its image ("restored": nothing is sent again), then
 * receives rank 0's next message, the second of the failure-free
 * sequence. */
#define ANYCALL_0                                                              \
  IN_TRANSIT_0 "1.0 0 1 rollback 1 1\n"                                        \
               "1.1 0 1 restore 1 1\n"                                         \
               "1.15 0 1 send 0 p 1 7 1 8\n" END(0, 1)
#define ANYCALL_1(seq)                                                         \
  IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n"                                 \
               "1.0 1 1 rollback 1 1\n"                                        \
               "1.1 1 1 restore 1 1\n"                                         \
               "1.1 1 1 restored 0 p 0 7 " #seq "\n"                           \
               "1.2 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)

Test(trace_check, restored_channel_state_is_the_failure_free_sequence) {
  const char *t[] = {ANYCALL_0, ANYCALL_1(1), SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.rollbacks, 1);
}

Test(trace_check, restored_message_not_in_transit_is_named) {
  const char *t[] = {ANYCALL_0, ANYCALL_1(2), SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "channel-state");
  cr_assert(strstr(res.message, "restored message 2"), "%s", res.message);
}

/* Any-call: rank 1, restored inside call 1, checkpoints wave 2 in that
 * same call after a delivery: the cut is its "safe 1" record right before
 * the checkpoint, not its restore (lu, 16 ranks, pcl, seed 3 of an
 * exponential MTBF of 0.04 s: "in transit but missing from the channel
 * state"). */
Test(trace_check, checkpoint_in_the_call_restored_into) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 commit 1 0\n"
                        "1.0 0 1 rollback 1 1\n"
                        "1.1 0 1 restore 1 1\n"
                        "1.2 0 1 send 0 p 1 7 1 8\n"
                        "1.3 0 1 safe 2\n"
                        "1.3 0 1 ckpt 2 2\n"
                        "1.5 0 1 commit 2 1\n" END(0, 1),
                     H1 "0.1 1 0 safe 1\n"
                        "0.1 1 0 ckpt 1 1\n"
                        "1.0 1 1 rollback 1 1\n"
                        "1.1 1 1 restore 1 1\n"
                        "1.25 1 1 deliver 0 p 0 7 1 8\n"
                        "1.3 1 1 safe 1\n"
                        "1.3 1 1 ckpt 2 1\n" END(1, 1)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 2);
}

/* c3 (family piggyback): rank 0 checkpoints, then sends message 1, which
 * rank 1 receives before its own checkpoint: an early message. After the
 * rollback rank 0 re-executes that send suppressed (no send line: the
 * receiver's checkpoint holds it) and sends its next message, the second
 * of the failure-free sequence. The same cut under another family is an
 * orphan. */
#define EARLY(family, rank)                                                    \
  "# ftsim-trace 3 rank " #rank " ranks 2 protocol p family " family RUN
/* Rank 0 re-executes from its checkpoint: its early message is suppressed
 * (a `suppress` line, SUPPRESS: c3's suppress list), then its next one
 * goes. */
#define EARLY_0_UNTIL_RESTORE(family)                                          \
  EARLY(family, 0)                                                             \
  "0.1 0 0 safe 1\n"                                                           \
  "0.1 0 0 ckpt 1 1\n"                                                         \
  "0.2 0 0 send 0 p 1 7 1 8\n"                                                 \
  "0.5 0 0 commit 1 0\n"                                                       \
  "1.0 0 1 rollback 1 1\n"                                                     \
  "1.1 0 1 restore 1 1\n"
#define EARLY_0(family)                                                        \
  EARLY_0_UNTIL_RESTORE(family)                                                \
  "1.15 0 1 suppress 0 p 1 7 1 0\n"                                            \
  "1.2 0 1 send 0 p 1 7 1 8\n" END(0, 1)
#define EARLY_1(family)                                                        \
  EARLY(family, 1)                                                             \
  "0.1 1 0 safe 1\n"                                                           \
  "0.25 1 0 deliver 0 p 0 7 1 8\n"                                             \
  "0.3 1 0 safe 2\n"                                                           \
  "0.3 1 0 ckpt 1 2\n"                                                         \
  "1.0 1 1 rollback 1 2\n"                                                     \
  "1.1 1 1 restore 1 2\n"                                                      \
  "1.3 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)

Test(trace_check, early_message_of_a_piggyback_cut_is_suppressed) {
  const char *t[] = {EARLY_0("piggyback"), EARLY_1("piggyback")};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
  cr_assert_eq(res.rollbacks, 1);
}

/* The planted bug of c3-bug-nosuppress (protocols/bugs/bugs.c): after the
 * rollback rank 0 sends its early message again instead of suppressing it
 * (issue 17: "C3's recovery line is consistent once late messages are
 * replayed and early ones suppressed (no loss, no duplicate)"). */
Test(trace_check, early_message_sent_again_is_a_duplicate) {
  const char *t[] = {
      EARLY_0_UNTIL_RESTORE("piggyback") "1.2 0 1 send 0 p 1 7 1 8\n" END(0, 1),
      EARLY_1("piggyback")};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "duplicate");
  cr_assert(strstr(res.message, "1 of the 1 early messages of its channel at "
                                "the cut not suppressed"),
            "%s", res.message);
}

/* c3's collective units (coll_check.h) through the whole checker: an
 * allgatherv (call 11) straddling the line, rank 0 beyond (epoch 1), rank
 * 1 behind; logged at rank 0 it passes, run there it is named with the
 * file, the line and the field. */
#define UNIT(how0)                                                             \
  {                                                                            \
    EARLY("piggyback", 0)                                                      \
    "0.1 0 0 coll 0 11 1 " how0 " 1 1 -1\n" END(0, 0),                         \
        EARLY("piggyback", 1) "0.1 1 0 coll 0 11 3 run 1 0 -1\n" END(1, 0)     \
  }

Test(trace_check, straddling_unit_logged_passes_unlogged_is_named) {
  const char *ok[] = UNIT("log"), *bad[] = UNIT("run");
  struct ft_check_result res;
  cr_assert_eq(check(ok, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(check(bad, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "collective");
  cr_assert(strstr(res.message, "t.0:2: field how: rank 0 at epoch 1 did "
                                "not log the result of call #1 of comm 0 "
                                "(allgatherv)"),
            "%s", res.message);
}

/* ... and suppressing a message the receiver's checkpoint does not hold
 * loses it. */
Test(trace_check, suppressing_more_than_the_early_messages_loses_one) {
  const char *t[] = {
      EARLY_0_UNTIL_RESTORE("piggyback") "1.15 0 1 suppress 0 p 1 7 1 0\n"
                                         "1.16 0 1 suppress 0 p 1 7 2 0\n"
                                         "1.2 0 1 send 0 p 1 7 1 8\n" END(0, 1),
      EARLY_1("piggyback")};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "lost", "%s", res.message);
  cr_assert(strstr(res.message, "suppressed 2 sends"), "%s", res.message);
}

Test(trace_check, early_message_is_an_orphan_in_other_families) {
  const char *t[] = {EARLY_0("coordinated"), EARLY_1("coordinated")};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "orphan");
}

Test(trace_check, rollback_to_an_uncommitted_wave) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "1.0 0 1 rollback 1 1\n" END(0, 1),
                     H1 "1.0 1 1 rollback 1 1\n" END(1, 1)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "rollback");
}

Test(trace_check, delivery_without_send_is_a_phantom) {
  const char *t[] = {H0 END(0, 0),
                     H1 "0.2 1 0 deliver 0 c 0 3 1 0\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "phantom");
  cr_assert(strstr(res.message, "comm 0 c, 0->1, tag 3, #1"), "%s",
            res.message);
}

Test(trace_check, commit_without_every_checkpoint) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.3 0 0 commit 1 0\n" END(0, 0),
                     H1 "0.1 1 0 safe 1\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "commit");
}

Test(trace_check, bad_field_names_file_line_and_field) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.2 0 0 send 0 p 1 7 2 8\n" END(0, 0),
                     H1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED);
  cr_assert(strstr(res.message, "t.0:3: field 'seq': expected 1"), "%s",
            res.message);
}

/* Each family names its own control kinds (ft_protocol.h): a coordinated
 * trace may not carry vcl's cut or message logging's logged, a
 * channel-state trace not pcl's wave-at; each accepts its own. */
Test(trace_check, control_kinds_are_the_family_s) {
  static const struct {
    const char *rank0, *rank1;
    int ok;
  } cases[] = {
      {H0 "0.1 0 0 ctl-send wave-at 1 1 2\n" END(0, 0), H1 END(1, 0), 1},
      {H0 "0.1 0 0 ctl-send cut 1 1 2\n", H1 END(1, 0), 0},
      {H0 "0.1 0 0 ctl-recv logged 1 0 2\n", H1 END(1, 0), 0},
      {V0 "0.1 0 0 ctl-send cut 1 1 2\n" END(0, 0), V1 END(1, 0), 1},
      {V0 "0.1 0 0 ctl-send wave-at 1 1 2\n", V1 END(1, 0), 0},
      {V0 "0.1 0 0 ctl-send 2 1 1 2\n", V1 END(1, 0), 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *t[] = {cases[i].rank0, cases[i].rank1};
    struct ft_check_result res;
    enum ft_check_status st = check(t, 2, &res);
    if (cases[i].ok)
      cr_assert_eq(st, FT_CHECK_OK, "case %zu: %s", i, res.message);
    else
      cr_assert(st == FT_CHECK_MALFORMED &&
                    strstr(res.message, "t.0:2: field 'ctl': unknown control "
                                        "message"),
                "case %zu: %s", i, res.message);
  }
}

Test(trace_check, malformed_inputs) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"ftsim\n", "t.0:1: field 'header'"},
      {H0 "0.1 0 0 jump 1\n", "t.0:2: field 'kind': unknown record kind"},
      {H0 "x 0 0 safe 1\n", "t.0:2: field 'time'"},
      {H0 "0.1 1 0 safe 1\n", "t.0:2: field 'rank'"},
      {H0 "0.1 0 0 safe\n", "t.0:2: record 'safe' has 0 fields"},
      {H0 "0.1 0 2 safe 1\n0.2 0 1 safe 2\n", "t.0:3: field 'inc'"},
      {H0 "0.1 0 0 send 0 q 1 7 1 8\n", "t.0:2: field 'channel'"},
      {H0 "0.1 0 0 send 0 p 5 7 1 8\n", "t.0:2: field 'peer'"},
      {H0 "0.1 0 0 ctl-send hello 1 1 0\n", "t.0:2: field 'ctl'"},
      {H0 "0.1 0 0 end 3\n", "t.0:2: record 'end' has 1 fields"},
      {H0 "0.1 0 0 coll 0 2 1 forget 1 0 0\n", "t.0:2: field 'how'"},
      {H0 "0.1 0 0 coll 0 18 1 log 1 0 0\n", "t.0:2: field 'call'"},
      {H0 "0.1 0 0 coll 0 2 1 log 0 0 0\n", "t.0:2: field 'seq'"},
      {H0 "0.1 0 0 coll 0 2 1 log 1 -1 0\n", "t.0:2: field 'epoch'"},
      {H0 "0.1 0 0 coll 0 2 1 log 1 0 2\n", "t.0:2: field 'root'"},
      {H0 "0.1 0 0 coll 0 2 1 log\n", "t.0:2: record 'coll' has 4 fields"},
      {"", "t.0: field 'header': empty file"},
      {"# ftsim-trace 2 rank 0 ranks 2 protocol pcl run 00000000000000aa\n",
       "t.0:1: field 'header': trace format 2, this checker reads 3"},
      {"# ftsim-trace 3 rank 0 ranks 2 protocol pcl run 00000000000000aa\n",
       "t.0:1: field 'header': expected '# ftsim-trace 3 rank R ranks N "
       "protocol P family F run ID [mode real]'"},
      {"# ftsim-trace 3 rank 0 ranks 2 protocol pcl family blocking" RUN,
       "t.0:1: field 'header': unknown protocol family 'blocking'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *t[] = {cases[i].text};
    struct ft_check_result res;
    cr_assert_eq(check(t, 1, &res), FT_CHECK_MALFORMED, "case %zu", i);
    cr_assert(strstr(res.message, cases[i].want), "case %zu: %s", i,
              res.message);
  }
}

/* The timeline's span records (docs/traces.md) are read, checked for
 * form and otherwise ignored; fail's UNTIL is a time not before TIME. */
Test(trace_check, span_records_are_read) {
  const char *t[] = {H0 "0.1 0 0 compute 0.05\n"
                        "0.2 0 0 block 0.1\n"
                        "0.3 0 0 image 1 0.15\n" END(0, 0),
                     H1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.events, 5);
}

Test(trace_check, malformed_span_records) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {H0 "0.1 0 0 compute 0.2\n",
       "t.0:2: field 'start': 0.2 is after the record's time 0.1"},
      {H0 "0.1 0 0 block soon\n", "t.0:2: field 'start': expected seconds"},
      {H0 "0.1 0 0 block\n", "t.0:2: record 'block' has 0 fields"},
      {H0 "0.3 0 0 image 0 0.1\n", "t.0:2: field 'wave'"},
      {H0 "0.3 0 0 image 1\n", "t.0:2: record 'image' has 1 fields"},
      {"# ftsim-trace 3 rank 2 ranks 2 protocol pcl family coordinated" RUN
       "0.1 2 0 block 0.05\n",
       "t.0:2: the scheduler's trace holds a 'block' record"},
      {"# ftsim-trace 3 rank 2 ranks 2 protocol pcl family coordinated" RUN
       "0.1 2 0 fail 1 0.05\n",
       "t.0:2: field 'until': 0.05 is before the failure"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *t[] = {cases[i].text};
    struct ft_check_result res;
    cr_assert_eq(check(t, 1, &res), FT_CHECK_MALFORMED, "case %zu", i);
    cr_assert(strstr(res.message, cases[i].want), "case %zu: %s", i,
              res.message);
  }
}

Test(trace_check, missing_rank_is_malformed) {
  const char *t[] = {H0 END(0, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 1, &res), FT_CHECK_MALFORMED);
  cr_assert(strstr(res.message, "no trace of rank 1"), "%s", res.message);
}

Test(trace_check, files_read_by_prefix) {
  char dir[] = "/tmp/trace_check_XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char prefix[64], name[80];
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n" END(0, 0),
                     H1 "0.2 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  for (int r = 0; r < 2; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f);
    fputs(t[r], f);
    fclose(f);
  }
  struct ft_check_result res;
  cr_assert_eq(ft_check_files(prefix, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.messages, 1);
  for (int r = 0; r < 2; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    remove(name);
  }
  snprintf(name, sizeof name, "%s.0", prefix);
  cr_assert_eq(ft_check_files(prefix, &res), FT_CHECK_MALFORMED);
  cr_assert(strstr(res.message, "cannot open"), "%s", res.message);
  remove(dir);
}

/* ---- Issue 13, defect 8: the gaps of the checker ---- */

/* A message sent and never delivered before the end is lost (pcl). */
Test(trace_check, message_never_delivered_is_lost_pcl) {
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.2 0 0 send 0 p 1 7 2 8\n" END(0, 0),
                     H1 "0.15 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "lost");
  cr_assert(strstr(res.message, "(inc 0, comm 0 p, 0->1, tag 7, #2), sent at "
                                "t.0:3, was never delivered"),
            "%s", res.message);
}

/* The same under vcl, on a collective's channel. */
Test(trace_check, message_never_delivered_is_lost_vcl) {
  const char *t[] = {V0 "0.1 0 0 send 0 c 1 3 1 0\n" END(0, 0), V1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "lost");
  cr_assert(strstr(res.message, "comm 0 c, 0->1, tag 3, #1"), "%s",
            res.message);
}

/* A message of an abandoned incarnation is not owed: the rollback (to the
 * beginning) dropped it, and the new run sent and delivered its own. */
Test(trace_check, message_of_an_abandoned_incarnation_is_not_lost) {
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "1.0 0 1 rollback 0 0\n"
                        "1.1 0 1 send 0 p 1 7 1 8\n" END(0, 1),
                     H1 "1.0 1 1 rollback 0 0\n"
                        "1.2 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.rollbacks, 1);
}

/* Vcl: the message in transit at the restored cut is never re-sent by the
 * final replay, and nothing after it shows the gap: lost at the end. */
Test(trace_check, message_in_transit_never_replayed_is_lost_at_the_end) {
  const char *t[] = {IN_TRANSIT_0 "1.0 0 1 rollback 1 1\n"
                                  "1.1 0 1 restore 1 1\n" END(0, 1),
                     IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n"
                                  "1.0 1 1 rollback 1 1\n"
                                  "1.1 1 1 restore 1 1\n" END(1, 1),
                     SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "lost");
  cr_assert(strstr(res.message, "(inc 0, comm 0 p, 0->1, tag 7, #1) was in "
                                "transit at the cut of wave 1"),
            "%s", res.message);
}

Test(trace_check, ranks_finishing_in_different_incarnations) {
  const char *t[] = {H0 "1.0 0 1 rollback 0 0\n" END(0, 1), H1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "end");
}

/* A rank's file from another run of the same protocol. */
Test(trace_check, file_of_another_run_is_malformed) {
  const char *t[] = {
      H0 "0.1 0 0 send 0 p 1 7 1 8\n" END(0, 0),
      "# ftsim-trace 3 rank 1 ranks 2 protocol pcl family coordinated run "
      "00000000000000bb\n"
      "0.2 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.1:1: field 'run': run 00000000000000bb, "
                                "but t.0 is of run 00000000000000aa"),
            "%s", res.message);
}

/* Truncated: the receiver's send-side file lost its tail. Before, the
 * delivery without its send was reported as a protocol violation
 * (phantom); it is bad input. */
Test(trace_check, truncated_trace_is_malformed_not_a_phantom) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n",
                     H1 "0.2 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.0: no end record: the trace is truncated"),
            "%s", res.message);
}

Test(trace_check, torn_last_line_is_malformed) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n0.2 0 0 se", H1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.0:3: the last line is cut in the middle"),
            "%s", res.message);
}

Test(trace_check, record_after_the_end_is_malformed) {
  const char *t[] = {H0 END(0, 0) "9.1 0 0 safe 1\n", H1 END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.0:3: field 'kind': a 'safe' record after "
                                "the end record"),
            "%s", res.message);
}

/* ---- Message logging (ml_check.c), through files ---- */

#define P_RUN(r)                                                               \
  "# ftsim-trace 3 rank " #r                                                   \
  " ranks 2 protocol pessimist family message_logging"

/* Writes texts[r] to DIR/t.r and checks DIR/t. */
static enum ft_check_status check_files(const char *const texts[], int n,
                                        struct ft_check_result *res) {
  char dir[] = "/tmp/trace_check_XXXXXX", prefix[64], name[80];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  for (int r = 0; r < n; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f);
    fputs(texts[r], f);
    fclose(f);
  }
  enum ft_check_status st = ft_check_files(prefix, res);
  for (int r = 0; r < n; r++) {
    snprintf(name, sizeof name, "%s.%d", prefix, r);
    remove(name);
  }
  remove(dir);
  return st;
}

Test(ml_check, consistent_run_counts_commits_and_restarts) {
  const char *t[] = {P_RUN(0) RUN "0.1 0 0 send 0 p 1 7 1 8\n"
                                  "0.2 0 0 commit 1 0\n" END(0, 0),
                     P_RUN(1) RUN "0.1 1 0 restart 1 0 0\n"
                                  "0.2 1 0 deliver 0 p 0 7 1 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
  cr_assert_eq(res.restarts, 1);
  cr_assert_eq(res.rollbacks, 0);
}

/* Message logging's control kinds are its own: LOGGED is "logged" (it was
 * written "other" while the kinds were one closed enum); another family's
 * kind, or a number, is malformed. */
Test(ml_check, control_kinds_are_message_logging_s) {
  const char *ok[] = {P_RUN(0) RUN "0.1 0 0 ctl-recv logged 2 0 1\n" END(0, 0),
                      P_RUN(1) RUN END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(ok, 2, &res), FT_CHECK_OK, "%s", res.message);
  static const char *const bad[] = {"other", "marker", "1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char rank0[256];
    snprintf(rank0, sizeof rank0, "%s%s0.1 0 0 ctl-recv %s 2 0 1\n%s", P_RUN(0),
             RUN, bad[i], END(0, 0));
    const char *t[] = {rank0, P_RUN(1) RUN END(1, 0)};
    cr_assert_eq(check_files(t, 2, &res), FT_CHECK_MALFORMED, "%s",
                 res.message);
    cr_assert(strstr(res.message, "t.0:2: field 'ctl': unknown control"),
              "%s: %s", bad[i], res.message);
  }
}

/* A receive posted before the failure point and matched after it has no
 * event (an any-call replay: pending at the checkpoint the rank restores,
 * while a later id, a lazy failure the checkpoint flushed, sets the
 * horizon): its outcome below the horizon is live, logged before the next
 * send. Replay of cli/anycall_ring_v2 (ring, 8 ranks, v2, rank 3 failing at
 * 0.021 s): "a replayed operation's outcome differs from the logged one
 * (41, 5)". A logged reception replayed otherwise is still a violation. */
Test(ml_check, live_reception_below_the_horizon_without_event) {
  const char *ok[] = {P_RUN(0) RUN "0.1 0 0 send 0 p 1 7 1 8\n" END(0, 0),
                      P_RUN(1) RUN "0.05 1 0 log 2 4 -1 -1 0\n"
                                   "0.06 1 0 restart 1 1 2\n"
                                   "0.2 1 0 deliver 0 p 0 7 1 8\n"
                                   "0.2 1 0 nd 1 5 0 7 8\n"
                                   "0.2 1 0 log 1 5 0 7 8\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(ok, 2, &res), FT_CHECK_OK, "%s", res.message);
  const char *bad[] = {P_RUN(0) RUN "0.1 0 0 send 0 p 1 7 1 8\n" END(0, 0),
                       P_RUN(1) RUN "0.05 1 0 log 1 5 0 9 8\n"
                                    "0.06 1 0 restart 1 1 1\n"
                                    "0.2 1 0 deliver 0 p 0 7 1 8\n"
                                    "0.2 1 0 nd 1 5 0 7 8\n" END(1, 0)};
  cr_assert_eq(check_files(bad, 2, &res), FT_CHECK_VIOLATION, "%s",
               res.message);
  cr_assert(strstr(res.message, "outcome differs from the logged one"), "%s",
            res.message);
}

/* A record kind no message-logging trace has is refused with file, line and
 * field, as the other families' reader refuses one; the spans and marks it
 * does carry pass. */
Test(ml_check, unknown_record_kind_is_malformed) {
  const char *ok[] = {P_RUN(0) RUN "0.1 0 0 compute 0.05\n"
                                   "0.2 0 0 block 0.15\n" END(0, 0),
                      P_RUN(1) RUN "0.1 1 0 safe 1\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(ok, 2, &res), FT_CHECK_OK, "%s", res.message);
  const char *t[] = {P_RUN(0) RUN "0.1 0 0 sned 0 p 1 7 1 8\n" END(0, 0),
                     P_RUN(1) RUN END(1, 0)};
  cr_assert_eq(check_files(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(
      strstr(res.message, "t.0:2: field 'kind': unknown record kind 'sned'"),
      "%s", res.message);
}

Test(ml_check, file_of_another_run_is_malformed) {
  const char *t[] = {P_RUN(0) RUN END(0, 0),
                     P_RUN(1) " run 00000000000000bb\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.1:1: field 'run': run 00000000000000bb"),
            "%s", res.message);
}

Test(ml_check, truncated_trace_is_malformed) {
  const char *t[] = {P_RUN(0) RUN "0.1 0 0 send 0 p 1 7 1 8\n",
                     P_RUN(1) RUN END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(t, 2, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.0: no end record"), "%s", res.message);
  const char *torn[] = {P_RUN(0) RUN "0.1 0 0 se", P_RUN(1) RUN END(1, 0)};
  cr_assert_eq(check_files(torn, 2, &res), FT_CHECK_MALFORMED, "%s",
               res.message);
  cr_assert(strstr(res.message, "t.0:2: the last line is cut"), "%s",
            res.message);
}

/* A run that deadlocked: what was written is checked, and a violation in
 * it is named (with the truncation noted) rather than hidden. */
Test(trace_check, violation_before_a_truncation_is_named) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.5 0 0 commit 1 0\n",
                     H1 "0.1 1 0 safe 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 safe 2\n"
                        "0.3 1 0 ckpt 1 2\n" END(1, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "orphan");
  cr_assert(strstr(res.message, "[in a truncated trace: t.0: no end record"),
            "%s", res.message);
}

/* ---- Issue 13, defect 3: runs stopped because they could not progress */

/* The dispatcher's file (rank 2 of 2) with its stop record. */
#define STOP()                                                                 \
  "# ftsim-trace 3 rank 2 ranks 2 protocol pcl family coordinated" RUN         \
  "0.5 2 0 stop stall_failures 1\n" END(2, 0)

/* Ranks that ended in different incarnations with a message in flight: a
 * violation for a finished run, nothing owed by a stopped one. */
Test(trace_check, stopped_run_owes_no_common_end) {
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n"
                        "0.4 0 1 rollback 0 0\n" END(0, 1),
                     H1 END(1, 0), STOP()};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "end");
  cr_assert_eq(check(t, 3, &res), FT_CHECK_OK, "%s", res.message);
}

/* What came before the stop is still checked: an orphan message at a
 * committed wave. */
Test(trace_check, stopped_run_still_checks_its_waves) {
  const char *t[] = {
      V0 "0.1 0 0 safe 1\n"
         "0.1 0 0 ckpt 1 1\n"
         "0.2 0 0 send 0 p 1 7 1 8\n" END(0, 0),
      V1 "0.3 1 0 deliver 0 p 0 7 1 8\n"
         "0.35 1 0 safe 1\n"
         "0.35 1 0 ckpt 1 1\n" END(1, 0),
      "# ftsim-trace 3 rank 2 ranks 2 protocol vcl family channel_state" RUN
      "0.4 2 0 commit 1 0\n"
      "0.5 2 0 stop max_time 0\n" END(2, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "orphan");
}

Test(trace_check, bad_stop_record_names_the_field) {
  const char *t[] = {
      H0 END(0, 0), H1 END(1, 0),
      "# ftsim-trace 3 rank 2 ranks 2 protocol pcl family coordinated" RUN
      "0.5 2 0 stop boredom 1\n" END(2, 0)};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_MALFORMED, "%s", res.message);
  cr_assert(strstr(res.message, "t.2:2: field 'why': expected stall_failures "
                                "or max_time, got 'boredom'"),
            "%s", res.message);
}

/* Message logging: a message sent and never delivered is lost, unless the
 * dispatcher stopped the run. */
Test(ml_check, stopped_run_owes_no_delivery) {
  const char *t[] = {P_RUN(0) RUN "0.1 0 0 send 0 p 1 7 1 8\n" END(0, 0),
                     P_RUN(1) RUN END(1, 0),
                     P_RUN(2) RUN "0.5 2 0 stop stall_failures 0\n" END(2, 0)};
  struct ft_check_result res;
  cr_assert_eq(check_files(t, 2, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "lost");
  cr_assert_eq(check_files(t, 3, &res), FT_CHECK_OK, "%s", res.message);
}

/* ---- A run relaunched after kills (failure=kill): each rank's files of
 * every launch read as one history ---- */

/* Writes files[i] (name relative to a new directory, text) and checks
 * DIR/t. */
struct named {
  const char *name, *text;
};

static enum ft_check_status check_named(const struct named *files, int n,
                                        struct ft_check_result *res) {
  char dir[] = "/tmp/trace_check_XXXXXX", prefix[64], name[128];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s/%s", dir, files[i].name);
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f);
    fputs(files[i].text, f);
    fclose(f);
  }
  enum ft_check_status st = ft_check_files(prefix, res);
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s/%s", dir, files[i].name);
    remove(name);
  }
  remove(dir);
  return st;
}

#define RUN_B " run 00000000000000bb\n"
#define H0B                                                                    \
  "# ftsim-trace 3 rank 0 ranks 2 protocol pcl family coordinated" RUN_B
#define H1B                                                                    \
  "# ftsim-trace 3 rank 1 ranks 2 protocol pcl family coordinated" RUN_B

/* Launch 0 commits wave 1 and is killed (rank 1's last line torn, no end
 * records; rank 1 delivered message 2, whose send record the kill cut off
 * on rank 0); launch 1 (incarnation 1, its clock from 0 again, its own run
 * ID) rolls back to wave 1 and ends. */
#define KILLED_0                                                               \
  H0 "0.1 0 0 safe 1\n"                                                        \
     "0.1 0 0 ckpt 1 1\n"                                                      \
     "0.2 0 0 send 0 p 1 7 1 8\n"                                              \
     "0.3 0 0 commit 1 0\n"
#define KILLED_1                                                               \
  H1 "0.1 1 0 safe 1\n"                                                        \
     "0.1 1 0 ckpt 1 1\n"                                                      \
     "0.25 1 0 deliver 0 p 0 7 1 8\n"                                          \
     "0.35 1 0 deliver 0 p 0 7 2 8\n"                                          \
     "0.4 1 0 sen"

Test(trace_check, relaunched_run_is_one_history) {
  const struct named f[] = {
      {"t.0", KILLED_0},
      {"t.1", KILLED_1},
      {"t.relaunch-1.0", H0B "0.01 0 1 rollback 1 1\n"
                             "0.02 0 1 restore 1 1\n"
                             "0.03 0 1 send 0 p 1 7 1 8\n" END(0, 1)},
      {"t.relaunch-1.1", H1B "0.01 1 1 rollback 1 1\n"
                             "0.02 1 1 restore 1 1\n"
                             "0.04 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)}};
  struct ft_check_result res;
  cr_assert_eq(check_named(f, 4, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
  cr_assert_eq(res.rollbacks, 1);
}

Test(trace_check, relaunch_to_a_wave_no_launch_committed_is_a_violation) {
  const struct named f[] = {
      {"t.0", KILLED_0},
      {"t.1", KILLED_1},
      {"t.relaunch-1.0", H0B "0.01 0 1 rollback 2 1\n" END(0, 1)},
      {"t.relaunch-1.1", H1B "0.01 1 1 rollback 2 1\n" END(1, 1)}};
  struct ft_check_result res;
  cr_assert_eq(check_named(f, 4, &res), FT_CHECK_VIOLATION, "%s", res.message);
  cr_assert_str_eq(res.kind, "rollback");
  cr_assert(strstr(res.message, "incarnation 1 restarts from wave 2 "), "%s",
            res.message);
}

/* The last launch is not killed: its phantom is one, its truncation too. */
Test(trace_check, the_last_launch_of_a_relaunched_run_must_be_whole) {
  const struct named phantom[] = {
      {"t.0", KILLED_0},
      {"t.1", KILLED_1},
      {"t.relaunch-1.0", H0B "0.01 0 1 rollback 1 1\n" END(0, 1)},
      {"t.relaunch-1.1", H1B "0.01 1 1 rollback 1 1\n"
                             "0.04 1 1 deliver 0 p 0 7 1 8\n" END(1, 1)}};
  struct ft_check_result res;
  cr_assert_eq(check_named(phantom, 4, &res), FT_CHECK_VIOLATION, "%s",
               res.message);
  cr_assert_str_eq(res.kind, "phantom");
  const struct named cut[] = {
      {"t.0", KILLED_0},
      {"t.1", KILLED_1},
      {"t.relaunch-1.0", H0B "0.01 0 1 rollback 1 1\n" END(0, 1)},
      {"t.relaunch-1.1", H1B "0.01 1 1 rollback 1 1\n"}};
  cr_assert_eq(check_named(cut, 4, &res), FT_CHECK_MALFORMED, "%s",
               res.message);
  cr_assert(strstr(res.message, "t.relaunch-1.1: no end record"), "%s",
            res.message);
}
