/* Seeded simulation testing of the cores (seeded.h): a few hundred seeds
 * per protocol with failures anywhere, byte-for-byte reproduction, and
 * planted bugs (planted.h) that the checker must catch. No MPI, no
 * SimGrid. A failing seed prints its report: protocol, seed, parameters,
 * the command that re-runs it and the tail of its trace. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seeded.h"

/* What the runs went through, summed over the seeds. */
struct totals {
  int64_t seeds, steps, commits, rollbacks, delivered, replayed, kept, retained,
      holds;
  int64_t phases[SEEDED_PHASES];
};

static struct seeded_result *result(void) {
  struct seeded_result *r = malloc(sizeof *r);
  cr_assert_not_null(r);
  return r;
}

static void add(struct totals *t, const struct seeded_result *r) {
  t->seeds++;
  t->steps += (int64_t)r->steps;
  t->commits += r->commits;
  t->rollbacks += r->rollbacks;
  t->delivered += r->delivered;
  t->replayed += r->replayed;
  t->kept += r->kept;
  t->retained += r->retained;
  t->holds += r->holds;
  for (int p = 0; p < SEEDED_PHASES; p++)
    t->phases[p] += r->phases[p];
}

/* Runs seeds first .. first + n - 1; any failing seed fails the test with
 * its report on stderr. */
static struct totals run_seeds(const char *protocol, uint64_t first,
                               uint64_t n) {
  struct totals t = {0};
  struct seeded_result *r = result();
  for (uint64_t seed = first; seed < first + n; seed++) {
    struct seeded_params p = {
        .protocol = protocol, .seed = seed, .failures = -1};
    int rc = seeded_run(&p, r);
    if (rc != 0) {
      seeded_report(stderr, &p, 60);
      cr_assert_fail("protocol %s seed %llu: %s", protocol,
                     (unsigned long long)seed, r->error);
    }
    add(&t, r);
  }
  free(r);
  return t;
}

/* Failures hit every phase (at least `least` times, `held` times while a
 * rank is held), and the runs commit and roll back. */
static void assert_failures_everywhere(const struct totals *t, int least,
                                       int held) {
  cr_assert_gt(t->rollbacks, t->seeds, "%lld", (long long)t->rollbacks);
  cr_assert_gt(t->commits, 2 * t->seeds, "%lld", (long long)t->commits);
  for (int p = 0; p < SEEDED_PHASES; p++)
    cr_assert_geq(t->phases[p], p == SEEDED_HELD ? held : least,
                  "%s: %lld failures", seeded_phase_name((enum seeded_phase)p),
                  (long long)t->phases[p]);
}

/* 500 seeds of pcl: every property after every step (seeded.h), and the
 * failures hit during waves, while ranks are held, between a checkpoint
 * and the commit, and during recovery. */
Test(seeded, pcl_every_property_holds_after_every_step_on_500_seeds) {
  struct totals t = run_seeds("pcl", 1, 500);
  assert_failures_everywhere(&t, 5, 20);
  cr_assert_gt(t.holds, 1000, "%lld", (long long)t.holds);
  cr_assert_gt(t.delivered, 100000, "%lld", (long long)t.delivered);
}

/* 500 seeds of vcl, with messages across safe points: channel state kept,
 * checkpoints from retained copies, and replays after rollbacks. */
Test(seeded, vcl_every_property_holds_after_every_step_on_500_seeds) {
  struct totals t = run_seeds("vcl", 1, 500);
  assert_failures_everywhere(&t, 5, 1); /* vcl rarely holds a rank */
  cr_assert_gt(t.kept, 1000, "%lld", (long long)t.kept);
  cr_assert_gt(t.replayed, 100, "%lld", (long long)t.replayed);
  cr_assert_gt(t.retained, 100, "%lld", (long long)t.retained);
  cr_assert_gt(t.holds, 100, "%lld", (long long)t.holds);
  cr_assert_gt(t.delivered, 100000, "%lld", (long long)t.delivered);
}

/* 500 seeds of bookmark at safe points: the staggered exchange and the
 * commit hold every property, failures everywhere, ranks held for the
 * bookmarks. */
Test(seeded, bookmark_every_property_holds_after_every_step_on_500_seeds) {
  struct totals t = run_seeds("bookmark", 1, 500);
  assert_failures_everywhere(&t, 5, 20);
  cr_assert_gt(t.holds, 1000, "%lld", (long long)t.holds);
  cr_assert_gt(t.delivered, 100000, "%lld", (long long)t.delivered);
}

/* 500 seeds of bookmark at any call (anycall_cluster.h): messages in
 * flight at every cut are drained, later ones queued, sends frozen. */
Test(seeded, bookmark_anycall_drains_every_cut_on_500_seeds) {
  struct totals t = run_seeds("bookmark-anycall", 1, 500);
  cr_assert_gt(t.commits, 1000, "%lld", (long long)t.commits);
  cr_assert_gt(t.rollbacks, 100, "%lld", (long long)t.rollbacks);
  cr_assert_gt(t.kept, 100, "%lld queued", (long long)t.kept);
  cr_assert_gt(t.holds, 1000, "%lld deferred", (long long)t.holds);
}

/* Message logging (ml_cluster.h): 500 seeds each of pessimist and v2,
 * single-rank failures anywhere (during a replay, between a checkpoint and
 * its commit, while a send waits for the logger), restarts that replay the
 * logged outcomes the core hands back. */
static void assert_message_logging(const char *protocol) {
  struct totals t = run_seeds(protocol, 1, 500);
  cr_assert_gt(t.rollbacks, 250, "%lld restarts", (long long)t.rollbacks);
  cr_assert_gt(t.commits, 1000, "%lld", (long long)t.commits);
  cr_assert_gt(t.replayed, 500, "%lld replayed outcomes",
               (long long)t.replayed);
  cr_assert_gt(t.delivered, 30000, "%lld", (long long)t.delivered);
  cr_assert_gt(t.phases[SEEDED_RECOVERING], 10, "during a replay");
  cr_assert_gt(t.phases[SEEDED_CUT], 10, "before a commit");
  cr_assert_gt(t.phases[SEEDED_HELD], 5, "while a send waits");
}

Test(seeded, pessimist_every_property_holds_after_every_step_on_500_seeds) {
  assert_message_logging("pessimist");
}

Test(seeded, v2_every_property_holds_after_every_step_on_500_seeds) {
  assert_message_logging("v2");
}

/* More seeds with fixed sizes: 8 ranks and 6 failures. */
Test(seeded, both_hold_with_8_ranks_and_6_failures_on_40_seeds) {
  struct seeded_result *r = result();
  const char *protocols[] = {"pcl", "vcl"};
  for (int i = 0; i < 2; i++)
    for (uint64_t seed = 5001; seed <= 5040; seed++) {
      struct seeded_params p = {
          .protocol = protocols[i], .seed = seed, .ranks = 8, .failures = 6};
      if (seeded_run(&p, r) != 0) {
        seeded_report(stderr, &p, 60);
        cr_assert_fail("protocol %s seed %llu: %s", p.protocol,
                       (unsigned long long)seed, r->error);
      }
      cr_assert_eq(r->rollbacks, 6);
      cr_assert_eq(r->ranks, 8);
    }
  free(r);
}

/* The same seed twice gives the same narrative, byte for byte (the whole
 * of it through its hash, the tail as text), and tracing changes nothing
 * in the run. */
Test(seeded, a_seed_reproduces_its_trace_byte_for_byte) {
  struct seeded_result *a = result(), *b = result(), *quiet = result();
  for (uint64_t seed = 11; seed <= 14; seed++) {
    struct seeded_params p = {
        .protocol = seed % 2 ? "vcl" : "pcl", .seed = seed, .failures = 3};
    cr_assert_eq(seeded_run(&p, quiet), 0, "%s", quiet->error);
    p.trace = 1;
    cr_assert_eq(seeded_run(&p, a), 0, "%s", a->error);
    cr_assert_eq(seeded_run(&p, b), 0, "%s", b->error);
    cr_assert_eq(a->trace_hash, b->trace_hash);
    cr_assert_str_eq(a->trace, b->trace);
    cr_assert_eq(a->steps, quiet->steps);
    cr_assert_eq(a->delivered, quiet->delivered);
    cr_assert_not_null(strstr(a->trace, "** failure 3 of 3"));
    cr_assert_not_null(strstr(a->trace, "commit wave"));
  }
  free(a);
  free(b);
  free(quiet);
}

/* Returns the first seed in 1..limit for which `protocol` fails (0: none),
 * and that failure in *r. */
static uint64_t first_failing(const char *protocol, uint64_t limit,
                              struct seeded_result *r) {
  for (uint64_t seed = 1; seed <= limit; seed++) {
    struct seeded_params p = {
        .protocol = protocol, .seed = seed, .failures = -1};
    int rc = seeded_run(&p, r);
    cr_assert_geq(rc, 0, "%s", r->error);
    if (rc == 1)
      return seed;
  }
  return 0;
}

/* A vcl whose STOREs keep no channel state: the checker sees the first
 * STORE that should have kept a message in transit. */
Test(seeded, a_vcl_that_drops_its_channel_state_is_caught_within_20_seeds) {
  struct seeded_result *r = result();
  uint64_t seed = first_failing("vcl-bug-nokeep", 20, r);
  cr_assert_neq(seed, 0, "the planted bug went unnoticed for 20 seeds");
  cr_assert_not_null(strstr(r->error, "in transit across the cut"), "%s",
                     r->error);
  cr_log_info("vcl-bug-nokeep: caught by seed %llu: %s",
              (unsigned long long)seed, r->error);
  free(r);
}

/* A pcl whose rank 1 checkpoints one safe point after the wave's: the
 * checker sees an orphan (or a message lost in transit). */
Test(seeded, a_pcl_that_checkpoints_late_is_caught_within_20_seeds) {
  struct seeded_result *r = result();
  uint64_t seed = first_failing("pcl-bug-late", 20, r);
  cr_assert_neq(seed, 0, "the planted bug went unnoticed for 20 seeds");
  cr_assert(strstr(r->error, "orphan") || strstr(r->error, "in transit"), "%s",
            r->error);
  cr_log_info("pcl-bug-late: caught by seed %llu: %s", (unsigned long long)seed,
              r->error);
  free(r);
}

/* A bookmark that checkpoints as soon as the bookmarks are exchanged,
 * without draining (bookmark-bug-nodrain, in any-call mode where messages
 * are on the wire at the cut): a message sent before the sender's
 * checkpoint is in no image. */
Test(seeded, a_bookmark_that_does_not_drain_is_caught_within_20_seeds) {
  struct seeded_result *r = result();
  uint64_t seed = first_failing("bookmark-bug-nodrain-anycall", 20, r);
  cr_assert_neq(seed, 0, "the planted bug went unnoticed for 20 seeds");
  cr_assert_not_null(strstr(r->error, "lost in transit"), "%s", r->error);
  free(r);
}

/* The seeds that found a wildcard (pessimist) or named (v2) MPI_Irecv
 * posted below the restart's horizon but matched after the failure: its
 * match was taken for a replayed one and never logged, and a second
 * failure replayed it differently (pessimist: an orphan; v2: a gap). */
Test(seeded, receptions_matched_after_the_failure_point_are_logged) {
  struct seeded_result *r = result();
  const struct seeded_params seeds[] = {
      {.protocol = "pessimist", .seed = 8146, .failures = -1},
      {.protocol = "v2", .seed = 3571, .failures = -1}};
  for (int i = 0; i < 2; i++)
    if (seeded_run(&seeds[i], r) != 0) {
      seeded_report(stderr, &seeds[i], 40);
      cr_assert_fail("%s seed %llu: %s", seeds[i].protocol,
                     (unsigned long long)seeds[i].seed, r->error);
    }
  free(r);
}

/* The pessimist without its pessimistic rule (protocols/bugs/bugs.c): a
 * send leaves before the logger holds the events it depends on. */
Test(seeded, a_pessimist_that_sends_before_the_ack_is_caught_within_20_seeds) {
  struct seeded_result *r = result();
  uint64_t seed = first_failing("pessimist-bug-nowait", 20, r);
  cr_assert_neq(seed, 0, "the planted bug went unnoticed for 20 seeds");
  cr_assert_not_null(strstr(r->error, "pessimistic rule"), "%s", r->error);
  free(r);
}

/* The replay checks, on their own: a restart that posts the replayed
 * wildcard receives as wildcards (ignoring the sources the core says)
 * lets them match another message than before the failure: a re-sent
 * message then differs from the one the wire had (an orphan), or a
 * replayed probe waits for a message another receive took (a deadlock). */
Test(seeded, a_restart_that_ignores_the_logged_sources_is_caught) {
  struct seeded_result *r = result();
  uint64_t seed = 1;
  for (; seed <= 300; seed++) {
    struct seeded_params p = {.protocol = "pessimist",
                              .seed = seed,
                              .failures = -1,
                              .skip_replay = 1};
    if (seeded_run(&p, r) == 1)
      break;
  }
  cr_assert_leq(seed, 300, "the ignored replay went unnoticed");
  cr_assert(strstr(r->error, "orphan") || strstr(r->error, "deadlock"), "%s",
            r->error);
  cr_log_info("caught by seed %llu: %s", (unsigned long long)seed, r->error);
  free(r);
}

/* The exactly-once check, on its own: a rollback that forgets to replay
 * the channel state (a runtime bug: the cores cannot see it) loses the
 * messages in transit, and the first delivery after the gap says so. */
Test(seeded, a_rollback_that_forgets_the_replay_is_caught_within_20_seeds) {
  struct seeded_result *r = result();
  uint64_t seed = 1;
  for (; seed <= 20; seed++) {
    struct seeded_params p = {
        .protocol = "vcl", .seed = seed, .failures = -1, .skip_replay = 1};
    if (seeded_run(&p, r) == 1)
      break;
  }
  cr_assert_leq(seed, 20, "the lost channel state went unnoticed");
  cr_assert_not_null(strstr(r->error, "a message is lost"), "%s", r->error);
  free(r);
}

/* A failing seed fails again the same way, with the same trace. */
Test(seeded, a_failing_seed_reproduces_byte_for_byte) {
  struct seeded_result *a = result(), *b = result();
  uint64_t seed = first_failing("vcl-bug-nokeep", 20, a);
  cr_assert_neq(seed, 0);
  struct seeded_params p = {
      .protocol = "vcl-bug-nokeep", .seed = seed, .failures = -1, .trace = 1};
  cr_assert_eq(seeded_run(&p, a), 1);
  cr_assert_eq(seeded_run(&p, b), 1);
  cr_assert_str_eq(a->error, b->error);
  cr_assert_eq(a->trace_hash, b->trace_hash);
  cr_assert_str_eq(a->trace, b->trace);
  free(a);
  free(b);
}

/* The report of a failure names the protocol, the seed, the parameters,
 * the violation and the command that reproduces it. */
Test(seeded, the_report_gives_the_command_that_reproduces_the_seed) {
  struct seeded_result *r = result();
  uint64_t seed = first_failing("pcl-bug-late", 20, r);
  cr_assert_neq(seed, 0);
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  cr_assert_not_null(out);
  struct seeded_params p = {
      .protocol = "pcl-bug-late", .seed = seed, .failures = -1};
  seeded_report(out, &p, 20);
  fclose(out);
  char want[256];
  snprintf(want, sizeof want,
           "FAILED: protocol pcl-bug-late seed %llu: ranks %d, failures %d",
           (unsigned long long)seed, r->ranks, r->failures);
  cr_assert_not_null(strstr(text, want), "%s", text);
  snprintf(want, sizeof want,
           "--protocol pcl-bug-late --first-seed %llu --seeds 1 --ranks %d "
           "--failures %d --trace",
           (unsigned long long)seed, r->ranks, r->failures);
  cr_assert_not_null(strstr(text, want), "%s", text);
  cr_assert_not_null(strstr(text, r->error), "%s", text);
  free(text);
  free(r);
}

Test(seeded, bad_parameters_are_errors_not_failures) {
  struct seeded_result *r = result();
  struct seeded_params p = {.protocol = "nope", .seed = 1};
  cr_assert_eq(seeded_run(&p, r), -1);
  cr_assert_str_eq(r->error, "unknown protocol 'nope'");
  p.protocol = "none";
  cr_assert_eq(seeded_run(&p, r), -1);
  cr_assert_not_null(strstr(r->error, "nothing to check"));
  p = (struct seeded_params){.protocol = "vcl", .seed = 1, .ranks = 17};
  cr_assert_eq(seeded_run(&p, r), -1);
  p = (struct seeded_params){.protocol = "vcl", .seed = 1, .failures = 17};
  cr_assert_eq(seeded_run(&p, r), -1);
  free(r);
}
