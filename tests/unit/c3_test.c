/* Unit tests of the `c3` core (protocols/c3/c3.h): one core driven event by
 * event, the epoch of c3-collectives' Figure 1 told as a golden story by the
 * in-memory cluster (c3_cluster.h), and seeded random runs whose every
 * recovery line is checked. No MPI, no SimGrid.
 *
 *   FTSIM_UPDATE_GOLDEN=1 build/tests/unit/c3_test --filter 'c3/figure_1*'
 * rewrites the story after a deliberate change. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c3/c3.h"
#include "c3_cluster.h"

#ifndef GOLDEN_DIR
#error "GOLDEN_DIR must name tests/unit/golden"
#endif

/* ---- One core, driven by hand ---------------------------------------- */

static void *core_new(int rank, int ranks) {
  struct ft_core_config config = {
      .rank = rank, .ranks = ranks, .period = 1.0, .start = 0.0};
  void *state = calloc(1, ft_protocol_c3.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_c3.init(state, &config), 0);
  return state;
}

static int step(void *state, struct ft_event e, struct ft_update *u) {
  *u = (struct ft_update){.flags = 0xdead, .deadline = 99.0, .wave = -7};
  return ft_protocol_c3.step(state, &e, u);
}

static struct ft_event control(enum ft_c3_control kind, int from, int to,
                               int wave, int64_t value) {
  return (struct ft_event){.type = FT_EVENT_CONTROL,
                           .time = 1.0,
                           .peer = from,
                           .control = {kind, from, to, wave, value}};
}

static struct ft_event delivered(int from, int epoch, int logging, int64_t id,
                                 int wildcard) {
  return (struct ft_event){
      .type = FT_EVENT_DELIVERED,
      .peer = from,
      .tag = 5,
      .wildcard = wildcard,
      .piggyback = {.epoch = epoch, .logging = logging, .id = id}};
}

/* Rank 1 of 3, asked and checkpointed at safe point 1 (epoch 1). */
static void *checkpointed(void) {
  void *s = core_new(1, 3);
  struct ft_update u;
  cr_assert_eq(
      step(s, control(FT_C3_CONTROL_PLEASE_CHECKPOINT, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(ft_c3_phase(s), FT_C3_ASKED);
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 1}, &u),
      0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.index, 1);
  return s;
}

/* Any-call mode (issue 17: a replay, every MPI call a potential checkpoint
 * location) is accepted: the core is the same (c3.h). */
Test(c3, init_accepts_any_call_mode_refuses_ranks_outside_the_world) {
  struct ft_core_config config = {.rank = 0, .ranks = 2, .any_call = 1};
  void *s = calloc(1, ft_protocol_c3.state_size(&config));
  cr_assert_eq(ft_protocol_c3.init(s, &config), 0);
  config = (struct ft_core_config){.rank = 2, .ranks = 2};
  cr_assert_eq(ft_protocol_c3.init(s, &config), -1);
  free(s);
  cr_assert_eq(ft_protocol_c3.family, FT_FAMILY_PIGGYBACK);
  cr_assert_str_eq(ft_family_name(FT_FAMILY_PIGGYBACK), "piggyback");
}

/* Section 3.3: every message carries the sender's epoch, amLogging bit and
 * message id; ids restart with each epoch. */
Test(c3, every_send_carries_epoch_logging_and_id) {
  void *s = core_new(1, 3);
  struct ft_update u;
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_APP_SEND, .peer = 2}, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_PIGGYBACK);
  cr_assert_eq(u.piggyback.epoch, 0);
  cr_assert_eq(u.piggyback.logging, 0);
  cr_assert_eq(u.piggyback.id, 1);
  free(s);
  s = checkpointed();
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_APP_SEND, .peer = 0}, &u), 0);
  cr_assert_eq(u.piggyback.epoch, 1);
  cr_assert_eq(u.piggyback.logging, 1);
  cr_assert_eq(u.piggyback.id, 1);
  free(s);
}

/* At its checkpoint a rank tells each peer how many messages it sent it in
 * the epoch it closes (section 3.4). */
Test(c3, the_checkpoint_sends_each_peer_its_send_count) {
  void *s = core_new(1, 3);
  struct ft_update u;
  for (int i = 0; i < 2; i++)
    step(s, (struct ft_event){.type = FT_EVENT_APP_SEND, .peer = 2}, &u);
  step(s, control(FT_C3_CONTROL_PLEASE_CHECKPOINT, 0, 1, 1, 0), &u);
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 4}, &u),
      0);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_SEND_COUNT);
  cr_assert_eq(u.sends[0].to, 0);
  cr_assert_eq(u.sends[0].value, 0);
  cr_assert_eq(u.sends[1].to, 2);
  cr_assert_eq(u.sends[1].value, 2);
  cr_assert_eq(u.sends[1].wave, 1);
  free(s);
}

/* A late message is logged; once every count is in and met, the rank is
 * ready to stop logging (section 3.1, Phase #2). */
Test(c3, late_messages_are_logged_and_counted_until_ready) {
  void *s = checkpointed();
  struct ft_update u;
  cr_assert_eq(step(s, control(FT_C3_CONTROL_SEND_COUNT, 0, 1, 1, 1), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, control(FT_C3_CONTROL_SEND_COUNT, 2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.n_sends, 0, "one late message of rank 0 still to come");
  cr_assert_eq(step(s, delivered(0, 0, 0, 7, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RECORD);
  cr_assert_eq(u.index, 1);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_READY_TO_STOP);
  cr_assert_eq(u.sends[0].to, 0);
  cr_assert(ft_c3_logging(s), "logs decisions until stop-logging");
  free(s);
}

/* An early message goes to the suppress list; a rank that is logging
 * cannot get one (one checkpoint at a time). */
Test(c3, early_messages_go_to_the_suppress_list) {
  void *s = core_new(2, 3);
  struct ft_update u;
  cr_assert_eq(step(s, delivered(1, 1, 1, 3, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_EARLY);
  free(s);
  s = checkpointed();
  cr_assert_eq(step(s, delivered(0, 2, 1, 1, 0), &u), -1);
  cr_assert_eq(u.flags, 0);
  free(s);
}

/* Section 3.1, Phase #2 (ii): while logging, which message a wildcard
 * receive matched is logged, numbered by the receive. */
Test(c3, wildcard_matches_are_logged_while_logging_only) {
  void *s = core_new(1, 3);
  struct ft_update u;
  step(s, (struct ft_event){.type = FT_EVENT_APP_RECV, .peer = -1}, &u);
  cr_assert_eq(step(s, delivered(2, 0, 0, 1, 1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "not logging: nothing logged");
  free(s);
  s = checkpointed();
  step(s, (struct ft_event){.type = FT_EVENT_APP_RECV, .peer = 2}, &u);
  cr_assert_eq(u.id, 1);
  step(s, delivered(2, 1, 1, 1, 0), &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "a named receive decides nothing");
  step(s, (struct ft_event){.type = FT_EVENT_APP_RECV, .peer = -1}, &u);
  cr_assert_eq(u.id, 2);
  struct ft_event e = delivered(2, 1, 1, 2, 1);
  e.id = 2;
  cr_assert_eq(step(s, e, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_LOG);
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_MATCH);
  cr_assert_eq(u.events[0].id, 2);
  cr_assert_eq(u.events[0].peer, 2);
  free(s);
}

/* Section 3.1, Phase #2 (ii): "the result of every non-deterministic
 * decision it makes": what a probe or a completion call found, logged
 * while logging; those that found nothing since the last logged one are
 * one FAILED entry when the rank stops logging. */
Test(c3, probes_and_completions_are_logged_while_logging_only) {
  void *s = core_new(1, 3);
  struct ft_update u;
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE, .peer = -1}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  step(s,
       (struct ft_event){
           .type = FT_EVENT_PROBED, .index = 1, .peer = 2, .tag = 3},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "not logging: nothing logged");
  free(s);
  s = checkpointed();
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE, .peer = -1}, &u);
  cr_assert_eq(u.id, 1);
  step(s,
       (struct ft_event){
           .type = FT_EVENT_PROBED, .index = 1, .peer = 2, .tag = 3},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_LOG);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_PROBE);
  cr_assert_eq(u.events[0].id, 1);
  cr_assert_eq(u.events[0].peer, 2);
  cr_assert_eq(u.events[0].tag, 3);
  int64_t index = 4;
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  cr_assert_eq(u.id, 2);
  step(
      s,
      (struct ft_event){.type = FT_EVENT_COMPLETION, .ids = &index, .n_ids = 1},
      &u);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_COMPLETION);
  cr_assert_eq(u.events[0].id, 2);
  cr_assert_eq(u.events[0].value, 4);
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  step(s, (struct ft_event){.type = FT_EVENT_COMPLETION}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "found nothing: nothing yet");
  int64_t many[FT_C3_MAX_COMPLETIONS + 1] = {0};
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_COMPLETION,
                                      .ids = many,
                                      .n_ids = FT_C3_MAX_COMPLETIONS + 1},
                    &u),
               -1, "more completions than the log of one call holds");
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  int64_t two[2] = {1, 3};
  step(s,
       (struct ft_event){.type = FT_EVENT_COMPLETION, .ids = two, .n_ids = 2},
       &u);
  cr_assert_eq(u.n_events, 2, "a Testsome's completions, one entry each");
  cr_assert_eq(u.events[1].value, 3);
  cr_assert_eq(u.events[1].id, 4);
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE}, &u);
  step(s, (struct ft_event){.type = FT_EVENT_PROBED}, &u);
  cr_assert_eq(step(s, control(FT_C3_CONTROL_STOP_LOGGING, 0, 1, 1, 0), &u), 0);
  cr_assert(u.flags & FT_UPDATE_STORE);
  cr_assert(u.flags & FT_UPDATE_LOG);
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_FAILED);
  cr_assert_eq(u.events[0].id, 5, "call 5 found nothing");
  free(s);
}

/* A completion call during which logging stops (its delivery comes from
 * a rank that stopped) decides after the stop: the FAILED mark ends before
 * it, so that its re-execution is live. */
Test(c3, a_call_in_progress_at_the_stop_is_not_marked_failed) {
  void *s = checkpointed();
  struct ft_update u;
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  step(s, (struct ft_event){.type = FT_EVENT_COMPLETION}, &u);
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  cr_assert_eq(u.id, 2);
  cr_assert_eq(step(s, delivered(2, 1, 0, 1, 0), &u), 0);
  cr_assert(u.flags & FT_UPDATE_STORE, "a message from a stopped rank");
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_FAILED);
  cr_assert_eq(u.events[0].id, 1, "call 2 has not returned");
  int64_t index = 0;
  step(
      s,
      (struct ft_event){.type = FT_EVENT_COMPLETION, .ids = &index, .n_ids = 1},
      &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "not logging any more");
  free(s);
}

/* After a ROLLBACK the logged outcomes are forced (REPLAY), a call up to
 * the last logged one without an entry finds nothing, later ones are live;
 * each entry used counts towards RECOVERED. */
Test(c3, a_rollback_forces_logged_probes_and_completions) {
  void *s = core_new(1, 3);
  struct ft_logged_event logged[] = {
      {.id = 1, .kind = FT_LOGGED_PROBE, .peer = 2, .tag = 7},
      {.id = 3,
       .kind = FT_LOGGED_COMPLETION,
       .peer = -1,
       .tag = -1,
       .value = 5},
      {.id = 3,
       .kind = FT_LOGGED_COMPLETION,
       .peer = -1,
       .tag = -1,
       .value = 6},
      {.id = 4, .kind = FT_LOGGED_FAILED, .peer = -1, .tag = -1},
  };
  struct ft_update u;
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_ROLLBACK,
                                      .wave = 2,
                                      .logged = logged,
                                      .n_logged = 4},
                    &u),
               0);
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE, .peer = -1}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert(u.replay.found);
  cr_assert_eq(u.replay.peer, 2);
  cr_assert_eq(u.replay.tag, 7);
  step(s,
       (struct ft_event){
           .type = FT_EVENT_PROBED, .index = 1, .peer = 2, .tag = 7},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "re-executing: not logged again");
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_not(u.replay.found, "call 2 found nothing");
  step(s, (struct ft_event){.type = FT_EVENT_APP_COMPLETION}, &u);
  cr_assert(u.replay.found);
  cr_assert_eq(u.replay.n_ids, 2, "a Testsome: both of its completions");
  cr_assert_eq(u.replay.ids[0], 5);
  cr_assert_eq(u.replay.ids[1], 6);
  cr_assert(ft_c3_replaying(s));
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE, .peer = -1}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_not(u.replay.found, "call 4: the FAILED mark");
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_RECOVERED);
  step(s, (struct ft_event){.type = FT_EVENT_APP_PROBE, .peer = -1}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "beyond the log: live");
  free(s);
}

/* Figure 8 at a barrier's potential checkpoint (SAFE_POINT with wave): a
 * rank not logging that saw a member in the next epoch checkpoints even if
 * not asked yet; the initiator's please-checkpoint then finds it logging
 * in that epoch and changes nothing. A member two epochs ahead, or a rank
 * already logging, is no reason. */
Test(c3, a_barrier_ahead_checkpoints_a_rank_not_asked_yet) {
  void *s = core_new(2, 3);
  struct ft_update u;
  cr_assert_eq(step(s,
                    (struct ft_event){
                        .type = FT_EVENT_SAFE_POINT, .index = 4, .wave = 2},
                    &u),
               0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "epoch 2 is not the next one");
  step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 5}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "an ordinary safe point, not asked");
  step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 6, .wave = 1},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.index, 6);
  cr_assert_eq(u.n_sends, 2, "its send-counts");
  cr_assert_eq(ft_c3_phase(s), FT_C3_LOGGING);
  cr_assert_eq(
      step(s, control(FT_C3_CONTROL_PLEASE_CHECKPOINT, 0, 2, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_c3_epoch(s), 1);
  step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 7, .wave = 2},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "logging: no second checkpoint");
  cr_assert_eq(
      step(s, control(FT_C3_CONTROL_PLEASE_CHECKPOINT, 0, 2, 1, 0), &u), -1,
      "a second please-checkpoint of epoch 1");
  free(s);
}

/* Brings checkpointed() to ready: every count in, nothing late. */
static void ready(void *s) {
  struct ft_update u;
  step(s, control(FT_C3_CONTROL_SEND_COUNT, 0, 1, 1, 0), &u);
  step(s, control(FT_C3_CONTROL_SEND_COUNT, 2, 1, 1, 0), &u);
  cr_assert_eq(u.n_sends, 1);
}

/* Section 3.1, Phase #4: a rank stops logging on stop-logging, or on a
 * message of its epoch from a rank that stopped; it then stores its log
 * and reports stopped-logging once stored. */
Test(c3, a_message_from_a_stopped_rank_stops_logging) {
  void *s = checkpointed();
  ready(s);
  struct ft_update u;
  cr_assert_eq(step(s, delivered(2, 1, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "the sender still logs");
  cr_assert_eq(step(s, delivered(2, 1, 0, 2, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_STORE);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.n_keep, 0);
  cr_assert_not(ft_c3_logging(s));
  cr_assert_eq(step(s, control(FT_C3_CONTROL_STOP_LOGGING, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0, "already stopped");
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_IMAGE_STORED, .wave = 1}, &u),
      0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_STOPPED_LOGGING);
  cr_assert_eq(ft_c3_phase(s), FT_C3_IDLE);
  free(s);
}

/* Rank 0 initiates, collects readiness, orders the stop, commits. */
Test(c3, the_initiator_commits_once_every_log_is_stored) {
  void *s = core_new(0, 2);
  struct ft_update u;
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_TIMER, .time = 0.5}, &u), 0);
  cr_assert_eq(u.n_sends, 0, "not due yet");
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_TIMER, .time = 1.0}, &u), 0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_PLEASE_CHECKPOINT);
  cr_assert_eq(u.deadline, -1.0);
  step(s, (struct ft_event){.type = FT_EVENT_SAFE_POINT, .index = 3}, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(step(s, control(FT_C3_CONTROL_SEND_COUNT, 1, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0, "own readiness counted, rank 1's missing");
  cr_assert_eq(step(s, control(FT_C3_CONTROL_READY_TO_STOP, 1, 0, 1, 0), &u),
               0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_STOP_LOGGING);
  step(s, control(FT_C3_CONTROL_STOPPED_LOGGING, 1, 0, 1, 0), &u);
  cr_assert_eq(u.flags, 0);
  struct ft_event stored = {
      .type = FT_EVENT_IMAGE_STORED, .time = 2.0, .wave = 1};
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.deadline, 3.0);
  free(s);
}

/* Recovery: a restored rank suppresses the sends a receiver's checkpoint
 * holds and forces its logged wildcard matches, until its next checkpoint;
 * a late message delivered from the log passes. */
Test(c3, a_rollback_suppresses_early_sends_and_replays_decisions) {
  void *s = core_new(1, 3);
  struct ft_logged_event logged[] = {
      {.kind = FT_LOGGED_SUPPRESS, .peer = 2, .value = 2},
      {.kind = FT_LOGGED_DELIVERY, .peer = 0, .tag = 5},
      {.id = 1, .kind = FT_LOGGED_MATCH, .peer = 0, .tag = 9},
  };
  struct ft_update u;
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_ROLLBACK,
                                      .wave = 4,
                                      .logged = logged,
                                      .n_logged = 3},
                    &u),
               0);
  cr_assert_eq(ft_c3_epoch(s), 4);
  cr_assert(ft_c3_replaying(s));
  struct ft_event send = {.type = FT_EVENT_APP_SEND, .peer = 2};
  step(s, send, &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_PIGGYBACK);
  step(s, send, &u);
  cr_assert_eq(u.flags, FT_UPDATE_SUPPRESS, "send 2 to rank 2 is early");
  step(s, send, &u);
  cr_assert_eq(u.piggyback.id, 3);
  step(s, (struct ft_event){.type = FT_EVENT_APP_RECV, .peer = -1, .tag = -1},
       &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.peer, 0);
  cr_assert_eq(u.replay.tag, 9);
  cr_assert_eq(u.n_sends, 0, "a late message of the log still to come");
  cr_assert_eq(step(s, delivered(0, 3, 0, 5, 1), &u), 0,
               "a late message from the log");
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_RECOVERED);
  cr_assert_eq(u.sends[0].wave, 4);
  cr_assert_not(ft_c3_replaying(s));
  cr_assert_eq(step(s, delivered(0, 3, 0, 6, 0), &u), -1,
               "no late message once recovered");
  free(s);
}

static struct ft_event collective(int64_t index) {
  return (struct ft_event){
      .type = FT_EVENT_COLLECTIVE, .peer = -1, .tag = -1, .index = index};
}

/* A collective call carried as one unit (sections 4 and 5): numbered since
 * the checkpoint, its bits (epoch, amLogging, number) given for the
 * runtime's exchange; the call's decision to stop logging stops it as a
 * message from a stopped rank would. */
Test(c3, collective_calls_are_numbered_and_can_stop_the_logging) {
  void *s = core_new(1, 3);
  struct ft_update u;
  cr_assert_eq(step(s, collective(0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(u.id, 1);
  cr_assert_eq(u.piggyback.epoch, 0);
  cr_assert_eq(u.piggyback.logging, 0);
  cr_assert_eq(u.piggyback.id, 1);
  free(s);
  s = checkpointed();
  cr_assert_eq(step(s, collective(0), &u), 0);
  cr_assert_eq(u.id, 1, "numbered again from the checkpoint");
  cr_assert_eq(u.piggyback.epoch, 1);
  cr_assert_eq(u.piggyback.logging, 1);
  cr_assert_eq(step(s, collective(0), &u), 0);
  cr_assert_eq(u.id, 2);
  cr_assert_eq(step(s, collective(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_STORE);
  cr_assert_eq(u.wave, 1);
  cr_assert_not(ft_c3_logging(s));
  cr_assert_eq(step(s, collective(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "stopped already");
  cr_assert_eq(step(s, collective(2), &u), -1);
  free(s);
}

/* After a ROLLBACK, a call whose result the rank logged, or that a root's
 * suppress list holds (FT_LOGGED_COLL), gets REPLAY and counts as used:
 * RECOVERED once the last is. */
Test(c3, a_rollback_replays_logged_and_suppressed_collective_calls) {
  void *s = core_new(1, 3);
  struct ft_logged_event logged[] = {
      {.id = 2, .kind = FT_LOGGED_COLL, .peer = 1},
      {.id = 3, .kind = FT_LOGGED_COLL, .peer = 0, .value = 3},
  };
  struct ft_update u;
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_ROLLBACK,
                                      .wave = 2,
                                      .logged = logged,
                                      .n_logged = 2},
                    &u),
               0);
  cr_assert(ft_c3_replaying(s));
  step(s, collective(0), &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "call 1 is carried out");
  step(s, collective(0), &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_eq(u.id, 2);
  cr_assert_eq(u.n_sends, 0, "call 3 still to come");
  step(s, collective(0), &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_RECOVERED);
  cr_assert_not(ft_c3_replaying(s));
  step(s, collective(0), &u);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  free(s);
}

/* Rank 0 starts no checkpoint while a rank recovers: message ids and
 * counts are per epoch (specs/c3.pml refuted the core without it). */
Test(c3, no_checkpoint_starts_before_every_rank_recovered) {
  void *s = core_new(0, 2);
  struct ft_update u;
  cr_assert_eq(
      step(s,
           (struct ft_event){.type = FT_EVENT_ROLLBACK, .time = 5.0, .wave = 2},
           &u),
      0);
  cr_assert_eq(u.deadline, 6.0);
  cr_assert_eq(
      step(s, (struct ft_event){.type = FT_EVENT_TIMER, .time = 6.0}, &u), 0);
  cr_assert_eq(u.n_sends, 0, "rank 1 has not recovered");
  cr_assert_eq(u.deadline, -1.0);
  cr_assert_eq(step(s, control(FT_C3_CONTROL_RECOVERED, 1, 0, 2, 0), &u), 0);
  cr_assert_eq(u.n_sends, 1, "the due checkpoint starts now");
  cr_assert_eq(u.sends[0].kind, FT_C3_CONTROL_PLEASE_CHECKPOINT);
  cr_assert_eq(u.sends[0].wave, 3);
  free(s);
}

Test(c3, unexpected_controls_are_errors) {
  void *s = core_new(1, 3);
  struct ft_update u;
  cr_assert_eq(
      step(s, control(FT_C3_CONTROL_PLEASE_CHECKPOINT, 0, 1, 3, 0), &u), -1,
      "wave 3 while in epoch 0");
  cr_assert_eq(step(s, control(FT_C3_CONTROL_READY_TO_STOP, 2, 1, 0, 0), &u),
               -1, "only rank 0 collects readiness");
  cr_assert_eq(step(s, control(99, 2, 1, 0, 0), &u), -1);
  cr_assert_eq(step(s, (struct ft_event){.type = FT_EVENT_CALL}, &u), -1);
  cr_assert_eq(u.n_sends, 0);
  free(s);
}

/* ---- Collectives: Figures 5-8 --------------------------------------- */

static struct ft_c3_coll_decision decide(enum ft_c3_coll_class cls, int me,
                                         int root,
                                         const struct ft_piggyback *bits,
                                         int ranks, int *suppress) {
  struct ft_c3_coll in = {
      .cls = cls, .me = me, .root = root, .ranks = ranks, .bits = bits};
  struct ft_c3_coll_decision d;
  cr_assert_eq(ft_c3_collective(&in, &d, suppress), 0);
  return d;
}

/* Figure 5: an allreduce straddling the recovery line is logged by the
 * ranks beyond it; one behind the stop-log line stops logging when a
 * participant stopped. */
Test(c3, all_to_all_logs_a_straddling_call_and_propagates_stop_log) {
  int sup[3];
  struct ft_piggyback straddle[3] = {{1, 1, 0}, {0, 0, 0}, {1, 1, 0}};
  struct ft_c3_coll_decision d =
      decide(FT_C3_ALL_TO_ALL, 0, -1, straddle, 3, sup);
  cr_assert(d.log_result && !d.stop_logging);
  d = decide(FT_C3_ALL_TO_ALL, 1, -1, straddle, 3, sup);
  cr_assert(!d.log_result, "behind the line: does not re-execute it");
  struct ft_piggyback stopped[3] = {{1, 1, 0}, {1, 0, 0}, {1, 1, 0}};
  d = decide(FT_C3_ALL_TO_ALL, 2, -1, stopped, 3, sup);
  cr_assert(d.stop_logging && !d.log_result);
  struct ft_piggyback same[3] = {{1, 1, 0}, {1, 1, 0}, {1, 1, 0}};
  d = decide(FT_C3_ALL_TO_ALL, 2, -1, same, 3, sup);
  cr_assert(!d.stop_logging && !d.log_result, "g2 <-> b2: all re-execute");
}

/* Figure 6: the root of a gather behind the recovery line suppresses the
 * senders beyond it; a logging root logs the result and suppresses the
 * senders of its epoch; a sender decides nothing. */
Test(c3, single_receiver_root_suppresses_and_logs) {
  int sup[4] = {-1, -1, -1, -1};
  struct ft_piggyback behind[4] = {{0, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}};
  struct ft_c3_coll_decision d =
      decide(FT_C3_SINGLE_RECEIVER, 0, 0, behind, 4, sup);
  cr_assert(!d.log_result);
  cr_assert_eq(d.n_suppress, 2);
  cr_assert_eq(sup[0], 1);
  cr_assert_eq(sup[1], 3);
  struct ft_piggyback logging[4] = {{1, 1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}};
  d = decide(FT_C3_SINGLE_RECEIVER, 0, 0, logging, 4, sup);
  cr_assert(d.log_result);
  cr_assert_eq(d.n_suppress, 2);
  cr_assert_eq(sup[0], 1);
  cr_assert_eq(sup[1], 3);
  d = decide(FT_C3_SINGLE_RECEIVER, 2, 0, logging, 4, sup);
  cr_assert(!d.log_result && !d.n_suppress && !d.reexec && !d.stop_logging);
  struct ft_piggyback stopped[4] = {{1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 0}};
  d = decide(FT_C3_SINGLE_RECEIVER, 0, 0, stopped, 4, sup);
  cr_assert(d.stop_logging && !d.n_suppress);
}

/* Figure 7: a receiver of a broadcast from behind the line logs it if it
 * is logging, else puts it in its reexecList; a receiver logging stops
 * when the root stopped. */
Test(c3, single_sender_receivers_log_reexec_or_stop) {
  int sup[2];
  struct ft_piggyback late[2] = {{0, 0, 0}, {1, 1, 0}};
  struct ft_c3_coll_decision d =
      decide(FT_C3_SINGLE_SENDER, 1, 0, late, 2, sup);
  cr_assert(d.log_result && !d.reexec);
  struct ft_piggyback early[2] = {{1, 1, 0}, {0, 0, 0}};
  d = decide(FT_C3_SINGLE_SENDER, 1, 0, early, 2, sup);
  cr_assert(d.reexec && !d.log_result);
  struct ft_piggyback stop[2] = {{1, 0, 0}, {1, 1, 0}};
  d = decide(FT_C3_SINGLE_SENDER, 1, 0, stop, 2, sup);
  cr_assert(d.stop_logging);
  d = decide(FT_C3_SINGLE_SENDER, 0, 0, late, 2, sup);
  cr_assert(!d.log_result && !d.reexec && !d.stop_logging, "the root");
}

/* Figure 8: a rank behind the line checkpoints before a barrier somebody
 * crossed the line before, so that no barrier straddles it. */
Test(c3, barrier_checkpoints_a_rank_left_behind) {
  int sup[3];
  struct ft_piggyback bits[3] = {{0, 0, 0}, {1, 1, 0}, {1, 1, 0}};
  struct ft_c3_coll_decision d = decide(FT_C3_BARRIER, 0, -1, bits, 3, sup);
  cr_assert(d.checkpoint);
  d = decide(FT_C3_BARRIER, 1, -1, bits, 3, sup);
  cr_assert(!d.checkpoint && !d.stop_logging);
  struct ft_piggyback stopped[3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 0}};
  d = decide(FT_C3_BARRIER, 1, -1, stopped, 3, sup);
  cr_assert(d.stop_logging && !d.checkpoint);
  struct ft_c3_coll bad = {
      .cls = FT_C3_SINGLE_SENDER, .me = 0, .root = 5, .ranks = 3, .bits = bits};
  struct ft_c3_coll_decision x;
  cr_assert_eq(ft_c3_collective(&bad, &x, sup), -1);
}

/* ---- Figure 1: an epoch told as a story ----------------------------- */

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot read %s", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void assert_golden(const char *got, const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOLDEN_DIR, file);
  if (getenv("FTSIM_UPDATE_GOLDEN")) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(got, f);
    fclose(f);
  }
  cr_assert_str_eq(got, read_all(path), "%s differs; got:\n%s", path, got);
}

/* c3-collectives, Figure 1 and section 2.3: P, Q and R; P initiates; P's
 * message to Q crosses Q's checkpoint backwards (late: logged at Q), Q's
 * message to R forwards (early: in R's suppress list); R's message to P is
 * intra-epoch and P's wildcard receive of it is a logged decision. The
 * epoch commits (the cluster checks the recovery line on copies of the
 * cores), then a failure comes: every rank restores its checkpoint, Q gets
 * P's message from its log, Q's re-execution does not send R its message
 * again, P's wildcard receive is forced to R, and every rank tells P it
 * recovered. */
Test(c3, figure_1_epochs_and_message_kinds) {
  enum { P, Q, R };
  struct c3c *c = malloc(sizeof *c);
  cr_assert_eq(c3c_init(c, &ft_protocol_c3, 3, 1.0, 1), 0);
  int m1 = c3c_send(c, Q, P, 0);
  cr_assert_eq(c3c_recv(c, P, m1, 0), 0);
  cr_assert_eq(c3c_advance(c, 1.0), 0);
  cr_assert_eq(c3c_pump(c), 0);
  int m2 = c3c_send(c, P, Q, 0);
  cr_assert_eq(c3c_safe_point(c, P), 0);
  cr_assert_eq(c3c_safe_point(c, Q), 0);
  int m3 = c3c_send(c, Q, R, 0);
  cr_assert_eq(c3c_recv(c, R, m3, 0), 0);
  cr_assert_eq(c3c_recv(c, Q, m2, 0), 0);
  cr_assert_eq(c3c_safe_point(c, R), 0);
  int m4 = c3c_send(c, R, P, 0);
  cr_assert_eq(c3c_recv(c, P, m4, 1), 0);
  cr_assert_eq(c3c_pump(c), 0, "%s", c->error);
  cr_assert_eq(c->committed, 1, "%s", c->error);
  int m5 = c3c_send(c, P, Q, 0);
  cr_assert_eq(c3c_recv(c, Q, m5, 0), 0);
  cr_assert_eq(c3c_fail(c), 0, "%s", c->error);
  for (int progress = 1; progress;) {
    progress = 0;
    for (int r = P; r <= R; r++) {
      int rc = c3c_reexecute(c, r);
      cr_assert_geq(rc, 0, "%s", c->error);
      progress |= rc;
    }
  }
  cr_assert_eq(c3c_pump(c), 0, "%s", c->error);
  for (int r = P; r <= R; r++)
    cr_assert_not(ft_c3_replaying(c->rank[r].core), "rank %d", r);
  cr_assert_str_eq(c->error, "");
  assert_golden(c->trace, "c3_figure1.txt");
  c3c_free(c);
  free(c);
}

/* ---- Seeded runs ---------------------------------------------------- */

/* 500 random programs on 2 to 5 ranks with 0 to 3 failures at any step
 * (during checkpoints and recoveries too): every recovery line committed is
 * checked (every late message logged, every early one suppressed, the
 * re-execution suppressing exactly those and replaying every decision),
 * no message is delivered twice across rollbacks, and every run ends with
 * every message delivered once and every rank out of its checkpoint. */
Test(c3, five_hundred_seeded_runs_keep_every_recovery_line) {
  int commits_total = 0, failures_total = 0;
  for (uint64_t seed = 1; seed <= 500; seed++) {
    char error[512] = "";
    int commits = 0, failures = 0;
    int ranks = 2 + (int)(seed % 4);
    cr_assert_eq(c3c_seeded(&ft_protocol_c3, seed, ranks, (int)(seed % 4),
                            error, sizeof error, &commits, &failures),
                 0, "%s", error);
    commits_total += commits;
    failures_total += failures;
  }
  cr_assert_gt(commits_total, 300, "the runs must checkpoint: %d commits",
               commits_total);
  cr_assert_gt(failures_total, 300, "and fail: %d failures", failures_total);
}

/* A planted bug: the core's SUPPRESS dropped (the message is sent again at
 * recovery). The seeded runs must catch it. */
static int step_nosuppress(void *state, const struct ft_event *e,
                           struct ft_update *u) {
  int rc = ft_protocol_c3.step(state, e, u);
  if (u->flags & FT_UPDATE_SUPPRESS)
    u->flags = (u->flags & ~(unsigned)FT_UPDATE_SUPPRESS) | FT_UPDATE_PASS;
  return rc;
}

Test(c3, a_core_without_the_suppress_list_is_caught) {
  struct ft_protocol_ops bug = ft_protocol_c3;
  bug.name = "c3-bug-nosuppress";
  bug.step = step_nosuppress;
  int caught = 0;
  char error[512] = "";
  for (uint64_t seed = 1; seed <= 50 && !caught; seed++)
    caught = c3c_seeded(&bug, seed, 3, 2, error, sizeof error, NULL, NULL) != 0;
  cr_assert(caught, "50 seeds did not catch the missing suppress list");
  cr_assert(strstr(error, "sent, but"), "%s", error);
}
