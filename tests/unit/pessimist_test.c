/* Unit tests of the `pessimist` and `v2` cores, driven event by event: what
 * is logged (the refined model against the classical one), lazy logging of
 * failed probes and tests, the pessimistic send rule, uncoordinated
 * checkpoints and commits, and the restart. No MPI, no SimGrid. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "pessimist/pessimist.h"

static void *core_new(const struct ft_protocol_ops *ops, double period,
                      int batch) {
  struct ft_core_config config = {
      .rank = 1, .ranks = 4, .period = period, .start = 0.0, .batch = batch};
  void *state = calloc(1, ops->state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ops->init(state, &config), 0);
  return state;
}

static int step(void *state, struct ft_event e, struct ft_update *u) {
  *u = (struct ft_update){.flags = 0xdead, .deadline = 99.0, .wave = -7};
  return ft_protocol_pessimist.step(state, &e, u);
}

static struct ft_event ev(enum ft_event_type type, int peer) {
  return (struct ft_event){.type = type, .time = 1.0, .peer = peer, .tag = 5};
}

static struct ft_event delivered(int peer, int64_t id, int wildcard) {
  struct ft_event e = ev(FT_EVENT_DELIVERED, peer);
  e.id = id;
  e.wildcard = wildcard;
  e.bytes = 8;
  return e;
}

static struct ft_event logged(int64_t value) {
  struct ft_event e = ev(FT_EVENT_CONTROL, -1);
  e.control = (struct ft_control){
      .kind = FT_ML_CONTROL_LOGGED, .from = 4, .to = 1, .value = value};
  return e;
}

Test(pessimist, ids_follow_the_lamport_clock) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, 0), &u), 0);
  cr_assert_eq(u.id, 1);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.id, 2);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_SENDER_LOG);
  cr_assert_eq(step(s, ev(FT_EVENT_PROBED, -1), &u), 0);
  cr_assert_eq(u.id, 3);
  cr_assert_eq(ft_pessimist_clock(s), 3);
  free(s);
}

Test(pessimist, deterministic_receptions_log_nothing) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  for (int i = 0; i < 10; i++) {
    cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, 2), &u), 0);
    cr_assert_eq(step(s, delivered(2, u.id, 0), &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
  }
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 2), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_SENDER_LOG,
               "nothing to log, nothing to wait for");
  cr_assert_eq(ft_pessimist_shipped(s), 0);
  free(s);
}

Test(pessimist, any_source_match_is_logged_before_the_next_send) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event recv = ev(FT_EVENT_APP_RECV, -1);
  cr_assert_eq(step(s, recv, &u), 0);
  int64_t id = u.id;
  cr_assert_eq(step(s, delivered(3, id, 1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "batched, not shipped yet");
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert(u.flags & FT_UPDATE_LOG);
  cr_assert(u.flags & FT_UPDATE_WAIT_LOGGED);
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_MATCH);
  cr_assert_eq(u.events[0].id, id);
  cr_assert_eq(u.events[0].peer, 3);
  cr_assert(ft_pessimist_waiting(s));
  cr_assert_eq(step(s, logged(0), &u), 0);
  cr_assert_eq(u.flags & FT_UPDATE_RELEASE, 0, "an old acknowledgement");
  cr_assert_eq(step(s, logged(1), &u), 0);
  cr_assert(u.flags & FT_UPDATE_RELEASE);
  cr_assert_not(ft_pessimist_waiting(s));
  free(s);
}

Test(pessimist, v2_logs_every_reception_and_copies_it) {
  void *s = core_new(&ft_protocol_v2, 0, 0);
  struct ft_update u;
  cr_assert_eq(
      ft_protocol_v2.step(
          s, &(struct ft_event){.type = FT_EVENT_APP_RECV, .peer = 2}, &u),
      0);
  struct ft_event d = delivered(2, u.id, 0);
  cr_assert_eq(ft_protocol_v2.step(s, &d, &u), 0);
  cr_assert(u.flags & FT_UPDATE_COPY);
  struct ft_event send = ev(FT_EVENT_APP_SEND, 0);
  cr_assert_eq(ft_protocol_v2.step(s, &send, &u), 0);
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_DELIVERY);
  cr_assert(u.flags & FT_UPDATE_WAIT_LOGGED);
  free(s);
}

Test(pessimist, failed_tests_are_merged_lazily) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event none = ev(FT_EVENT_COMPLETION, -1);
  for (int i = 0; i < 5; i++)
    cr_assert_eq(step(s, none, &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.n_events, 1, "five failures, one event");
  cr_assert_eq(u.events[0].kind, FT_LOGGED_FAILED);
  cr_assert_eq(u.events[0].id, 5);
  free(s);
}

Test(pessimist, a_success_discards_the_lazy_failures) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event none = ev(FT_EVENT_COMPLETION, -1);
  cr_assert_eq(step(s, none, &u), 0);
  cr_assert_eq(step(s, none, &u), 0);
  int64_t ids[2] = {40, 41};
  struct ft_event some = none;
  some.ids = ids;
  some.n_ids = 2;
  cr_assert_eq(step(s, some, &u), 0);
  int64_t op = u.id;
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.n_events, 2);
  for (int i = 0; i < 2; i++) {
    cr_assert_eq(u.events[i].kind, FT_LOGGED_COMPLETION);
    cr_assert_eq(u.events[i].id, op);
    cr_assert_eq(u.events[i].value, ids[i]);
  }
  free(s);
}

Test(pessimist, a_found_probe_is_logged_with_its_message) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event p = ev(FT_EVENT_PROBED, 2);
  p.index = 1;
  p.bytes = 64;
  cr_assert_eq(step(s, p, &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_PROBE);
  cr_assert_eq(u.events[0].peer, 2);
  cr_assert_eq(u.events[0].value, 64);
  free(s);
}

Test(pessimist, a_full_batch_ships_without_a_send) {
  void *s = core_new(&ft_protocol_pessimist, 0, 3);
  struct ft_update u;
  for (int i = 0; i < 3; i++) {
    cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, -1), &u), 0);
    cr_assert_eq(step(s, delivered(0, u.id, 1), &u), 0);
  }
  cr_assert(u.flags & FT_UPDATE_LOG);
  cr_assert_eq(u.n_events, 3);
  cr_assert_eq(ft_pessimist_shipped(s), 3);
  cr_assert_eq(step(s, logged(3), &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.flags & FT_UPDATE_WAIT_LOGGED, 0, "all acknowledged");
  free(s);
}

Test(pessimist, checkpoint_commits_after_store_and_acks) {
  void *s = core_new(&ft_protocol_pessimist, 0.5, 0);
  struct ft_update u;
  cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, -1), &u), 0);
  cr_assert_eq(step(s, delivered(0, u.id, 1), &u), 0);
  struct ft_event sp = ev(FT_EVENT_SAFE_POINT, -1);
  sp.time = 0.2;
  cr_assert_eq(step(s, sp, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "not due before the period");
  sp.time = 0.6;
  cr_assert_eq(step(s, sp, &u), 0);
  cr_assert(u.flags & FT_UPDATE_CHECKPOINT);
  cr_assert(u.flags & FT_UPDATE_LOG, "the events go with the checkpoint");
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.id, 1, "the clock: one receive so far");
  struct ft_event stored = ev(FT_EVENT_IMAGE_STORED, -1);
  stored.wave = 1;
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags & FT_UPDATE_COMMIT, 0, "the event is not logged yet");
  cr_assert_eq(step(s, logged(1), &u), 0);
  cr_assert(u.flags & FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  sp.time = 0.7;
  cr_assert_eq(step(s, sp, &u), 0);
  cr_assert_eq(u.flags & FT_UPDATE_CHECKPOINT, 0, "next one a period later");
  free(s);
}

Test(pessimist, restart_replays_up_to_the_last_logged_event) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  const struct ft_logged_event held[] = {
      {.id = 1, .kind = FT_LOGGED_MATCH, .peer = 0, .tag = 5},
      {.id = 3, .kind = FT_LOGGED_MATCH, .peer = 0, .tag = 5},
      {.id = 5, .kind = FT_LOGGED_FAILED, .peer = -1, .tag = -1}};
  struct ft_event r = ev(FT_EVENT_RESTART, -1);
  r.index = 3; /* events the logger holds */
  r.id = 5;    /* the last one's id */
  r.logged = held;
  r.n_logged = 3;
  cr_assert_eq(step(s, r, &u), 0);
  cr_assert_eq(ft_pessimist_clock(s), 0);
  for (int i = 0; i < 2; i++) { /* ids 1..4: replayed, not logged */
    cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, -1), &u), 0);
    cr_assert_eq(step(s, delivered(0, u.id, 1), &u), 0);
    cr_assert_eq(step(s, ev(FT_EVENT_COMPLETION, -1), &u), 0);
  }
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.id, 5);
  cr_assert_eq(u.flags & (FT_UPDATE_LOG | FT_UPDATE_WAIT_LOGGED), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, -1), &u), 0);
  cr_assert_eq(step(s, delivered(0, u.id, 1), &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert_eq(u.n_events, 1, "past the log: live again");
  cr_assert_eq(ft_pessimist_shipped(s), 4);
  struct ft_event back = ev(FT_EVENT_ROLLBACK, -1);
  back.id = 100;
  back.wave = 3;
  cr_assert_eq(step(s, back, &u), 0);
  cr_assert_eq(ft_pessimist_clock(s), 100);
  free(s);
}

Test(pessimist, bad_events_are_rejected) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 9), &u), -1);
  cr_assert_eq(step(s, delivered(-1, 1, 0), &u), -1);
  cr_assert_eq(step(s, logged(-2), &u), -1);
  struct ft_event many = ev(FT_EVENT_COMPLETION, -1);
  many.n_ids = 3;
  cr_assert_eq(step(s, many, &u), -1, "ids missing");
  struct ft_core_config bad = {.rank = 4, .ranks = 4};
  void *t = calloc(1, ft_protocol_pessimist.state_size(&bad));
  cr_assert_eq(ft_protocol_pessimist.init(t, &bad), -1);
  free(t);
  free(s);
}

/* Replay decisions are the core's (pessimist-openmpi-v, section 3.2): at
 * RESTART it gets the logged events, then says what each replayed
 * operation does; the runtime only carries it out. */
static const struct ft_logged_event replay_log[] = {
    {.id = 1, .kind = FT_LOGGED_MATCH, .peer = 2, .tag = 7},
    {.id = 2, .kind = FT_LOGGED_PROBE, .peer = 3, .tag = 4, .value = 16},
    {.id = 4, .kind = FT_LOGGED_COMPLETION, .peer = -1, .tag = -1, .value = 9},
    {.id = 4, .kind = FT_LOGGED_COMPLETION, .peer = -1, .tag = -1, .value = 1},
    {.id = 6, .kind = FT_LOGGED_FAILED, .peer = -1, .tag = -1},
};

static void *restarted(const struct ft_logged_event *log, size_t n) {
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event r = ev(FT_EVENT_RESTART, -1);
  r.index = (int64_t)n;
  r.id = log[n - 1].id;
  r.logged = log;
  r.n_logged = n;
  cr_assert_eq(step(s, r, &u), 0);
  return s;
}

static struct ft_event wildcard_recv(void) {
  struct ft_event e = ev(FT_EVENT_APP_RECV, -1);
  e.wildcard = 1;
  return e;
}

Test(pessimist, replay_forces_the_logged_source_of_a_wildcard_receive) {
  void *s = restarted(replay_log, 5);
  struct ft_update u;
  cr_assert_eq(step(s, wildcard_recv(), &u), 0);
  cr_assert_eq(u.id, 1);
  cr_assert(u.flags & FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.peer, 2, "every promiscuous source is replaced");
  cr_assert_eq(u.replay.tag, 7);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, 0), &u), 0); /* id 2, named */
  cr_assert_eq(u.flags & FT_UPDATE_REPLAY, 0, "a named receive stays");
  free(s);
}

Test(pessimist, replay_says_what_probes_and_completions_return) {
  void *s = restarted(replay_log, 5);
  struct ft_update u;
  cr_assert_eq(step(s, wildcard_recv(), &u), 0); /* id 1 */
  cr_assert_eq(step(s, ev(FT_EVENT_APP_PROBE, -1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.found, 1);
  cr_assert_eq(u.replay.peer, 3);
  cr_assert_eq(u.replay.tag, 4);
  cr_assert_eq(ft_pessimist_clock(s), 1, "APP_PROBE takes no id");
  struct ft_event probed = ev(FT_EVENT_PROBED, 3);
  probed.index = 1;
  cr_assert_eq(step(s, probed, &u), 0);
  cr_assert_eq(u.id, 2);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_PROBE, -1), &u), 0); /* id 3 */
  cr_assert(u.flags & FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.found, 0, "no event below the horizon: nothing");
  probed.index = 0;
  cr_assert_eq(step(s, probed, &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_COMPLETION, -1), &u), 0); /* id 4 */
  cr_assert(u.flags & FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.n_ids, 2);
  cr_assert_eq(u.replay.ids[0], 9, "in the logged order");
  cr_assert_eq(u.replay.ids[1], 1);
  int64_t done[2] = {9, 1};
  struct ft_event c = ev(FT_EVENT_COMPLETION, -1);
  c.ids = done;
  c.n_ids = 2;
  cr_assert_eq(step(s, c, &u), 0);
  cr_assert_eq(u.id, 4);
  cr_assert_eq(u.flags & FT_UPDATE_LOG, 0, "replayed: not logged again");
  cr_assert_eq(step(s, ev(FT_EVENT_APP_COMPLETION, -1), &u), 0); /* id 5 */
  cr_assert(u.flags & FT_UPDATE_REPLAY);
  cr_assert_eq(u.replay.n_ids, 0, "NDD below the log return nothing");
  c.n_ids = 0;
  cr_assert_eq(step(s, c, &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_COMPLETION, -1), &u), 0); /* id 6 */
  cr_assert(u.flags & FT_UPDATE_REPLAY);
  cr_assert_eq(step(s, c, &u), 0);
  cr_assert_eq(step(s, ev(FT_EVENT_APP_PROBE, -1), &u), 0); /* id 7 */
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "past the horizon: live");
  free(s);
}

Test(pessimist, restart_rejects_events_not_sorted_by_id) {
  const struct ft_logged_event unsorted[] = {
      {.id = 4, .kind = FT_LOGGED_PROBE}, {.id = 2, .kind = FT_LOGGED_MATCH}};
  void *s = core_new(&ft_protocol_pessimist, 0, 0);
  struct ft_update u;
  struct ft_event r = ev(FT_EVENT_RESTART, -1);
  r.index = 2;
  r.id = 4;
  r.logged = unsorted;
  r.n_logged = 2;
  cr_assert_eq(step(s, r, &u), -1);
  r.logged = NULL;
  cr_assert_eq(step(s, r, &u), -1, "events announced, none given");
  free(s);
}

/* A wildcard receive posted before the failure point but matched after it
 * (ftsim-soak --protocol pessimist --first-seed 8146: Irecv(ANY_SOURCE),
 * then Waitany calls): its id is below the horizon, yet the logger has no
 * MATCH for it, so the restarted run matches it live and must log that
 * match before its next send, else a second failure replays it
 * differently under a message another rank already has (an orphan). */
Test(pessimist, a_live_match_below_the_horizon_is_logged) {
  const struct ft_logged_event log[] = {{.id = 3,
                                         .kind = FT_LOGGED_COMPLETION,
                                         .peer = -1,
                                         .tag = -1,
                                         .value = 2}};
  void *s = restarted(log, 1);
  struct ft_update u;
  cr_assert_eq(step(s, wildcard_recv(), &u), 0); /* id 1 */
  cr_assert_eq(u.flags & FT_UPDATE_REPLAY, 0, "no MATCH logged: live");
  cr_assert_eq(step(s, ev(FT_EVENT_APP_RECV, 0), &u), 0); /* id 2 */
  cr_assert_eq(step(s, ev(FT_EVENT_APP_COMPLETION, -1), &u), 0);
  cr_assert_eq(u.replay.n_ids, 1);
  int64_t done = 2;
  struct ft_event c = ev(FT_EVENT_COMPLETION, -1);
  c.ids = &done;
  c.n_ids = 1;
  cr_assert_eq(step(s, delivered(0, 2, 0), &u), 0);
  cr_assert_eq(step(s, c, &u), 0);                  /* id 3, the horizon */
  cr_assert_eq(step(s, delivered(3, 1, 1), &u), 0); /* receive 1: live */
  cr_assert_eq(step(s, ev(FT_EVENT_APP_SEND, 0), &u), 0);
  cr_assert(u.flags & FT_UPDATE_LOG, "the live match is logged");
  cr_assert_eq(u.n_events, 1);
  cr_assert_eq(u.events[0].kind, FT_LOGGED_MATCH);
  cr_assert_eq(u.events[0].id, 1);
  cr_assert_eq(u.events[0].peer, 3);
  cr_assert(u.flags & FT_UPDATE_WAIT_LOGGED);
  free(s);
}

/* Any-call mode (pessimist.h): a receive the restored image held pending is
 * posted again with its id, after RESTART and ROLLBACK; a wildcard one gets
 * the logged source, as a new one would, and the clock does not move. */
static void *anycall_restored(const struct ft_protocol_ops *ops,
                              int64_t clock) {
  struct ft_core_config config = {
      .rank = 1, .ranks = 4, .period = 0, .start = 0.0, .any_call = 1};
  void *s = calloc(1, ops->state_size(&config));
  cr_assert_not_null(s);
  cr_assert_eq(ops->init(s, &config), 0);
  struct ft_update u;
  struct ft_event r = ev(FT_EVENT_RESTART, -1);
  r.index = 5;
  r.id = replay_log[4].id;
  r.logged = replay_log;
  r.n_logged = 5;
  cr_assert_eq(ops->step(s, &r, &u), 0);
  struct ft_event back = ev(FT_EVENT_ROLLBACK, -1);
  back.id = clock;
  back.wave = 1;
  cr_assert_eq(ops->step(s, &back, &u), 0);
  return s;
}

Test(pessimist, anycall_a_restored_receive_keeps_its_id_and_logged_source) {
  const struct ft_protocol_ops *ops[] = {&ft_protocol_pessimist,
                                         &ft_protocol_v2};
  for (size_t i = 0; i < 2; i++) {
    void *s = anycall_restored(ops[i], 3);
    struct ft_update u;
    struct ft_event e = wildcard_recv();
    e.id = 1; /* posted before the checkpoint, matched after it */
    cr_assert_eq(ops[i]->step(s, &e, &u), 0);
    cr_assert_eq(u.id, 1, "%s: no new id", ops[i]->name);
    cr_assert(u.flags & FT_UPDATE_REPLAY);
    cr_assert_eq(u.replay.peer, 2, "the logged source");
    cr_assert_eq(u.replay.tag, 7);
    cr_assert_eq(ft_pessimist_clock(s), 3, "the clock stays");
    struct ft_event named = ev(FT_EVENT_APP_RECV, 0);
    named.id = 3;
    cr_assert_eq(ops[i]->step(s, &named, &u), 0);
    cr_assert_eq(u.id, 3);
    cr_assert_eq(u.flags & FT_UPDATE_REPLAY, 0, "a named receive stays");
    cr_assert_eq(
        ops[i]->step(
            s,
            &(struct ft_event){.type = FT_EVENT_APP_RECV, .peer = 0, .tag = 5},
            &u),
        0);
    cr_assert_eq(u.id, 4, "a new receive takes the next id");
    free(s);
  }
}

Test(pessimist, anycall_restored_receives_are_checked) {
  void *s = anycall_restored(&ft_protocol_pessimist, 3);
  struct ft_update u;
  struct ft_event e = wildcard_recv();
  e.id = 4; /* beyond the restored clock: never given */
  cr_assert_eq(step(s, e, &u), -1);
  e.id = -1;
  cr_assert_eq(step(s, e, &u), -1);
  cr_assert_eq(step(s, ev(FT_EVENT_CALL, -1), &u), -1, "no CALL: safe points");
  cr_assert_eq(step(s, ev(FT_EVENT_ARRIVED, 0), &u), -1);
  free(s);
  /* Safe-point mode posts nothing again: a receive with an id is an
   * error. */
  s = restarted(replay_log, 5);
  e.id = 1;
  cr_assert_eq(step(s, e, &u), -1);
  free(s);
}
