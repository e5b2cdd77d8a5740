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

#define H0 "# ftsim-trace 1 rank 0 ranks 2 protocol pcl\n"
#define H1 "# ftsim-trace 1 rank 1 ranks 2 protocol pcl\n"
#define V0 "# ftsim-trace 1 rank 0 ranks 2 protocol vcl\n"
#define V1 "# ftsim-trace 1 rank 1 ranks 2 protocol vcl\n"

Test(trace_check, consistent_wave_is_ok) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.3 0 0 commit 1 0\n",
                     H1 "0.1 1 0 safe 1\n"
                        "0.1 1 0 ckpt 1 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.events, 7);
  cr_assert_eq(res.messages, 1);
  cr_assert_eq(res.waves, 1);
}

Test(trace_check, orphan_is_named) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n"
                        "0.5 0 0 commit 1 0\n",
                     H1 "0.1 1 0 safe 1\n"
                        "0.25 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 safe 2\n"
                        "0.3 1 0 ckpt 1 2\n"};
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
  "# ftsim-trace 1 rank 2 ranks 2 protocol vcl\n"                              \
  "0.4 2 0 commit 1 0\n"

Test(trace_check, channel_state_holds_the_message_in_transit) {
  const char *t[] = {IN_TRANSIT_0,
                     IN_TRANSIT_1 "0.3 1 0 chanrec 1 0 p 0 7 1\n"
                                  "0.3 1 0 store 1\n",
                     SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.waves, 1);
}

Test(trace_check, missing_channel_state_is_named) {
  const char *t[] = {IN_TRANSIT_0, IN_TRANSIT_1 "0.3 1 0 store 1\n", SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "channel-state");
  cr_assert(strstr(res.message, "is in transit"), "%s", res.message);
}

Test(trace_check, channel_state_of_a_message_not_in_transit) {
  const char *t[] = {V0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.2 0 0 send 0 p 1 7 1 8\n",
                     V1 "0.1 1 0 safe 1\n"
                        "0.1 1 0 ckpt 1 1\n"
                        "0.3 1 0 deliver 0 p 0 7 1 8\n"
                        "0.3 1 0 chanrec 1 0 p 0 7 1\n",
                     SCHED};
  struct ft_check_result res;
  cr_assert_eq(check(t, 3, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "channel-state");
  cr_assert(strstr(res.message, "not in transit"), "%s", res.message);
}

/* After the rollback to wave 1, rank 0 replays the message in transit, then
 * sends its next one; rank 1 gets both. */
#define ROLLBACK_1                                                             \
  "1.0 1 1 rollback 1 1\n"                                                     \
  "1.1 1 1 restore 1 1\n"                                                      \
  "1.2 1 1 deliver 0 p 0 7 1 8\n"                                              \
  "1.3 1 1 deliver 0 p 0 7 2 8\n",                                             \
      SCHED

Test(trace_check, replay_after_rollback_is_the_failure_free_sequence) {
  const char *t[] = {IN_TRANSIT_0 "1.0 0 1 rollback 1 1\n"
                                  "1.1 0 1 restore 1 1\n"
                                  "1.1 0 1 resend 0 p 1 7 1 8\n"
                                  "1.15 0 1 send 0 p 1 7 2 8\n",
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
                                  "1.16 0 1 send 0 p 1 7 2 8\n",
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
                        "1.1 0 1 resend 0 p 1 7 1 8\n",
                     H1 "0.15 1 0 deliver 0 p 0 7 1 8\n"
                        "0.2 1 0 safe 1\n"
                        "0.2 1 0 ckpt 1 1\n"
                        "1.0 1 1 rollback 1 1\n"
                        "1.1 1 1 restore 1 1\n"
                        "1.2 1 1 deliver 0 p 0 7 1 8\n"};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "duplicate");
}

Test(trace_check, rollback_to_an_uncommitted_wave) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "1.0 0 1 rollback 1 1\n",
                     H1 "1.0 1 1 rollback 1 1\n"};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "rollback");
}

Test(trace_check, delivery_without_send_is_a_phantom) {
  const char *t[] = {H0, H1 "0.2 1 0 deliver 0 c 0 3 1 0\n"};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "phantom");
  cr_assert(strstr(res.message, "comm 0 c, 0->1, tag 3, #1"), "%s",
            res.message);
}

Test(trace_check, commit_without_every_checkpoint) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.1 0 0 ckpt 1 1\n"
                        "0.3 0 0 commit 1 0\n",
                     H1 "0.1 1 0 safe 1\n"};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_VIOLATION);
  cr_assert_str_eq(res.kind, "commit");
}

Test(trace_check, bad_field_names_file_line_and_field) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n"
                        "0.2 0 0 send 0 p 1 7 2 8\n",
                     H1};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_MALFORMED);
  cr_assert(strstr(res.message, "t.0:3: field 'seq': expected 1"), "%s",
            res.message);
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
      {"", "t.0: field 'header': empty file"},
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
  const char *t[] = {H0};
  struct ft_check_result res;
  cr_assert_eq(check(t, 1, &res), FT_CHECK_MALFORMED);
  cr_assert(strstr(res.message, "no trace of rank 1"), "%s", res.message);
}

Test(trace_check, torn_last_line_is_ignored) {
  const char *t[] = {H0 "0.1 0 0 safe 1\n0.2 0 0 se", H1};
  struct ft_check_result res;
  cr_assert_eq(check(t, 2, &res), FT_CHECK_OK, "%s", res.message);
  cr_assert_eq(res.torn_lines, 1);
}

Test(trace_check, files_read_by_prefix) {
  char dir[] = "/tmp/trace_check_XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char prefix[64], name[80];
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  const char *t[] = {H0 "0.1 0 0 send 0 p 1 7 1 8\n",
                     H1 "0.2 1 0 deliver 0 p 0 7 1 8\n"};
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
