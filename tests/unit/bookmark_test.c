/* Unit tests of the `bookmark` core (LAM/MPI's drain, lam-mpi-blcr): one
 * core driven event by event (the staggered order of Figure 2, the drain
 * of Figure 9, any-call mode's frozen sends and delayed queue), and whole
 * waves told as traces by the in-memory cluster (core_cluster.h). No MPI,
 * no SimGrid. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "bookmark/bookmark.h"
#include "core_cluster.h"

/* ---- Helpers: one core, driven by hand ------------------------------ */

static void *core_new(int rank, int ranks, int any_call) {
  struct ft_core_config config = {.rank = rank,
                                  .ranks = ranks,
                                  .period = 1.0,
                                  .start = 0.0,
                                  .any_call = any_call};
  void *state = calloc(1, ft_protocol_bookmark.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_bookmark.init(state, &config), 0);
  return state;
}

static int step(void *state, struct ft_event e, struct ft_update *u) {
  *u = (struct ft_update){.flags = 0xdead, .deadline = 99.0, .wave = -7};
  return ft_protocol_bookmark.step(state, &e, u);
}

static struct ft_event control(enum ft_bookmark_control kind, int from, int to,
                               int wave, int64_t value) {
  return (struct ft_event){
      .type = FT_EVENT_CONTROL,
      .time = 1.0,
      .peer = from,
      .control = {kind, from, to, wave, value},
  };
}

static struct ft_event bookmark(int from, int to, int64_t sent) {
  return control(FT_BOOKMARK_CONTROL_BOOKMARK, from, to, 1, sent);
}

static struct ft_event message(enum ft_event_type type, int peer,
                               uint64_t bytes) {
  return (struct ft_event){
      .type = type, .time = 0.5, .peer = peer, .bytes = bytes};
}

static struct ft_event safe_point(int64_t index) {
  return (struct ft_event){
      .type = FT_EVENT_SAFE_POINT, .time = 1.0, .peer = -1, .index = index};
}

static struct ft_event call(enum ft_event_type type, int64_t index) {
  return (struct ft_event){
      .type = type, .time = 1.0, .peer = -1, .index = index};
}

/* Asserts that the update sends exactly one bookmark, to `to`, of `sent`
 * bytes. */
static void assert_bookmark_to(const struct ft_update *u, int to,
                               int64_t sent) {
  cr_assert_eq(u->n_sends, 1, "%zu sends", u->n_sends);
  cr_assert_eq(u->sends[0].kind, FT_BOOKMARK_CONTROL_BOOKMARK);
  cr_assert_eq(u->sends[0].to, to);
  cr_assert_eq(u->sends[0].value, sent);
}

/* Rank `rank` of `ranks` at safe point 1 = K of wave 1: it heard the
 * request, answered, and learnt K. Its sends and deliveries happen before. */
static void *at_k(int rank, int ranks) {
  void *s = core_new(rank, ranks, 0);
  struct ft_update u;
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_REQUEST, 0, rank, 1, 0), &u),
               0);
  cr_assert_eq(u.sends[0].kind, FT_BOOKMARK_CONTROL_POSITION);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_AT, 0, rank, 1, 1), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  return s;
}

/* ---- Init and the ops table ------------------------------------------ */

Test(bookmark_core, init_refuses_a_rank_outside_the_world) {
  struct ft_core_config config = {.rank = 0, .ranks = 4};
  void *s = calloc(1, ft_protocol_bookmark.state_size(&config));
  config.rank = 4;
  cr_assert_eq(ft_protocol_bookmark.init(s, &config), -1);
  config.rank = -1;
  cr_assert_eq(ft_protocol_bookmark.init(s, &config), -1);
  config = (struct ft_core_config){.rank = 0, .ranks = 0};
  cr_assert_eq(ft_protocol_bookmark.init(s, &config), -1);
  free(s);
}

Test(bookmark_core, is_the_drain_family_and_names_its_kinds) {
  const struct ft_protocol_ops *p = ft_protocol_find("bookmark");
  cr_assert_eq(p, &ft_protocol_bookmark);
  cr_assert_eq(p->family, FT_FAMILY_DRAIN);
  cr_assert_str_eq(p->controls[FT_BOOKMARK_CONTROL_BOOKMARK], "bookmark");
  cr_assert_str_eq(p->controls[FT_BOOKMARK_CONTROL_DONE], "done");
}

Test(bookmark_core, events_of_other_families_are_errors) {
  void *s = core_new(1, 3, 0);
  struct ft_update u;
  cr_assert_eq(step(s, call(FT_EVENT_CALL, 1), &u), -1);
  cr_assert_eq(step(s, message(FT_EVENT_ARRIVED, 0, 8), &u), -1);
  cr_assert_eq(step(s, call(FT_EVENT_PROBED, 0), &u), -1);
  cr_assert_eq(step(s, bookmark(0, 1, 0), &u), -1); /* no wave yet */
  free(s);
}

/* ---- Figure 2: the staggered all-to-all ------------------------------- */

/* Rank 1 of 4 at K: step 1 sends to 2 and waits for 0; step 2 sends to 3
 * and waits for 3; step 3 sends to 0 and waits for 2. A bookmark of a
 * later step that comes early waits for its turn. */
Test(bookmark_core, bookmarks_go_to_rank_plus_i_at_step_i) {
  void *s = at_k(1, 4);
  struct ft_update u;
  cr_assert_eq(step(s, message(FT_EVENT_APP_SEND, 2, 40), &u), 0);
  cr_assert_eq(step(s, message(FT_EVENT_APP_SEND, 2, 40), &u), 0);
  cr_assert_eq(step(s, message(FT_EVENT_APP_SEND, 3, 16), &u), 0);
  cr_assert_eq(step(s, safe_point(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  assert_bookmark_to(&u, 2, 2);
  cr_assert_eq(ft_bookmark_step(s), 1);
  cr_assert_eq(step(s, bookmark(2, 1, 0), &u), 0); /* step 3's, early */
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_bookmark_step(s), 1);
  cr_assert_eq(step(s, bookmark(0, 1, 0), &u), 0); /* step 1 ends */
  assert_bookmark_to(&u, 3, 1);
  cr_assert_eq(ft_bookmark_step(s), 2);
  cr_assert_eq(step(s, bookmark(3, 1, 0), &u), 0); /* steps 2 and 3 end */
  assert_bookmark_to(&u, 0, 0);
  cr_assert_eq(ft_bookmark_step(s), 0); /* drained: checkpointed */
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  cr_assert_eq(u.wave, 1);
  free(s);
}

/* ---- Figure 9: the drain --------------------------------------------- */

/* Rank 1 of 2 received one (24 B) of the two messages rank 0 sent before
 * its cut: it stays held (draining) until the second (16 B) is delivered,
 * then checkpoints with the channel empty. */
Test(bookmark_core, a_held_rank_checkpoints_once_every_received_matches_sent) {
  void *s = at_k(1, 2);
  struct ft_update u;
  cr_assert_eq(step(s, message(FT_EVENT_DELIVERED, 0, 24), &u), 0);
  cr_assert_eq(step(s, safe_point(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  cr_assert_eq(step(s, bookmark(0, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert(ft_bookmark_draining(s));
  cr_assert_eq(ft_bookmark_remote(s, 0), 2);
  cr_assert_eq(step(s, message(FT_EVENT_DELIVERED, 0, 16), &u), 0);
  cr_assert_eq(u.flags,
               FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  cr_assert_not(ft_bookmark_draining(s));
  cr_assert_eq(ft_bookmark_received(s, 0), 2);
  cr_assert_eq(ft_bookmark_received_bytes(s, 0), 40);
  free(s);
}

Test(bookmark_core, a_bookmark_below_what_arrived_is_an_error) {
  void *s = at_k(1, 2);
  struct ft_update u;
  cr_assert_eq(step(s, message(FT_EVENT_DELIVERED, 0, 24), &u), 0);
  cr_assert_eq(step(s, bookmark(0, 1, 0), &u), -1);
  cr_assert_eq(step(s, bookmark(0, 1, -1), &u), -1);
  cr_assert_eq(step(s, bookmark(0, 1, 1), &u), 0);
  cr_assert_eq(step(s, bookmark(0, 1, 1), &u), -1); /* twice */
  free(s);
}

/* A bookmark that came before the rank reached K: at K the exchange and
 * the drain are complete at once, and the safe point passes with the
 * checkpoint. */
Test(bookmark_core, a_bookmark_that_came_early_lets_the_rank_checkpoint_at_k) {
  void *s = at_k(1, 2);
  struct ft_update u;
  cr_assert_eq(step(s, message(FT_EVENT_DELIVERED, 0, 8), &u), 0);
  cr_assert_eq(step(s, bookmark(0, 1, 1), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, safe_point(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT);
  assert_bookmark_to(&u, 0, 0);
  free(s);
}

static struct ft_event timer(double time) {
  return (struct ft_event){.type = FT_EVENT_TIMER, .time = time, .peer = -1};
}

/* Passes safe points first..last, asserting that each one passes. */
static void pass_safe_points(void *s, int64_t first, int64_t last) {
  struct ft_update u;
  for (int64_t i = first; i <= last; i++) {
    cr_assert_eq(step(s, safe_point(i), &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS, "safe point %lld", (long long)i);
  }
}

/* Rank 0 (mpirun's role: it only propagates the request, section 3.1) is
 * never held before it knows K: at position + 1 it moves its own position
 * there and goes on, so that K = max + 1 stays ahead of it. Held there
 * (issue 19), it waited for the slowest POSITION, a whole computation
 * phase of a rank the request reached after its safe point. */
Test(bookmark_core, rank_0_passes_its_safe_points_until_it_knows_k) {
  void *s = core_new(0, 3, 0);
  struct ft_update u;
  pass_safe_points(s, 1, 3);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(u.n_sends, 2); /* REQUEST to 1 and 2 */
  cr_assert_eq(u.sends[0].kind, FT_BOOKMARK_CONTROL_REQUEST);
  cr_assert_lt(u.deadline, 0.0);
  pass_safe_points(s, 4, 4); /* position 3: its hold point, passed */
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 2, 0, 1, 2), &u),
               0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.flags, 0);
  pass_safe_points(s, 5, 5);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 1, 0, 1, 3), &u),
               0);
  cr_assert_eq(u.n_sends, 2); /* AT 6 = rank 0's position 5 + 1 */
  cr_assert_eq(u.sends[0].kind, FT_BOOKMARK_CONTROL_AT);
  cr_assert_eq(u.sends[0].value, 6);
  cr_assert_eq(u.sends[1].value, 6);
  cr_assert_eq(u.flags, 0, "running: nothing to release");
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD, "held at K for the bookmarks");
  assert_bookmark_to(&u, 1, 0);
  free(s);
}

/* A higher position than rank 0's sets K; rank 0 runs to it and is held
 * there only. */
Test(bookmark_core, rank_0_runs_to_a_k_set_by_another_rank) {
  void *s = core_new(0, 3, 0);
  struct ft_update u;
  pass_safe_points(s, 1, 3);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 2, 0, 1, 2), &u),
               0);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 1, 0, 1, 5), &u),
               0);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.sends[0].value, 6);
  pass_safe_points(s, 4, 5);
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  assert_bookmark_to(&u, 1, 0);
  free(s);
}

/* Another rank still stops at position + 1 until AT comes (rank 0 may
 * have placed K there already), and goes on when K is beyond it. */
Test(bookmark_core, rank_1_holds_at_position_plus_one_until_at) {
  void *s = core_new(1, 3, 0);
  struct ft_update u;
  pass_safe_points(s, 1, 2);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_REQUEST, 0, 1, 1, 0), &u),
               0);
  cr_assert_eq(u.sends[0].kind, FT_BOOKMARK_CONTROL_POSITION);
  cr_assert_eq(u.sends[0].value, 2);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_AT, 0, 1, 1, 5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_RELEASE);
  pass_safe_points(s, 4, 4);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  assert_bookmark_to(&u, 2, 0);
  free(s);
}

Test(bookmark_core, rank_0_commits_when_every_image_is_stored) {
  void *s = core_new(0, 2, 0);
  struct ft_update u;
  cr_assert_eq(step(s, safe_point(1), &u), 0);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(step(s, safe_point(2), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS); /* position 1, moved to 2 */
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 1, 0, 1, 1), &u),
               0);
  cr_assert_eq(u.n_sends, 1); /* AT 3 to rank 1 */
  cr_assert_eq(u.sends[0].kind, FT_BOOKMARK_CONTROL_AT);
  cr_assert_eq(u.sends[0].value, 3);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD); /* at K for rank 1's bookmark */
  assert_bookmark_to(&u, 1, 0);
  cr_assert_eq(step(s, bookmark(1, 0, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  struct ft_event stored = {
      .type = FT_EVENT_IMAGE_STORED, .time = 1.5, .peer = -1, .wave = 1};
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags, 0);
  struct ft_event done = control(FT_BOOKMARK_CONTROL_DONE, 1, 0, 1, 0);
  done.time = 1.6;
  cr_assert_eq(step(s, done, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  cr_assert_float_eq(u.deadline, 2.6, 1e-9);
  struct ft_event rollback = {.type = FT_EVENT_ROLLBACK,
                              .time = 3.0,
                              .peer = -1,
                              .wave = 1,
                              .index = 3};
  cr_assert_eq(step(s, rollback, &u), 0);
  cr_assert_eq(ft_bookmark_wave(s), 1);
  cr_assert_eq(ft_bookmark_received(s, 1), 0);
  free(s);
}

/* ---- Any-call mode --------------------------------------------------- */

/* Rank 1 of 2 enters the wave at rank 0's bookmark: its sends are held,
 * its own bookmark goes out; arrivals up to rank 0's bookmark are drained,
 * one beyond it (sent after rank 0's checkpoint) is queued; in a call and
 * drained, it checkpoints and flushes, and the queued bytes count. */
Test(bookmark_anycall, the_drain_takes_what_was_sent_before_the_cut) {
  void *s = core_new(1, 2, 1);
  struct ft_update u;
  cr_assert_eq(step(s, call(FT_EVENT_CALL, 1), &u), 0);
  cr_assert_eq(step(s, message(FT_EVENT_APP_SEND, 0, 32), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(step(s, call(FT_EVENT_CALL_END, 1), &u), 0);
  cr_assert_eq(step(s, message(FT_EVENT_ARRIVED, 0, 8), &u), 0);
  cr_assert_eq(step(s, bookmark(0, 1, 2), &u), 0);
  assert_bookmark_to(&u, 0, 1);
  cr_assert(ft_bookmark_frozen(s));
  cr_assert(ft_bookmark_draining(s));
  cr_assert_eq(step(s, call(FT_EVENT_CALL, 2), &u), 0);
  cr_assert_eq(step(s, message(FT_EVENT_APP_SEND, 0, 8), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_DEFER);
  cr_assert_eq(step(s, message(FT_EVENT_ARRIVED, 0, 16), &u), 0);
  cr_assert_eq(u.flags,
               FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  cr_assert_not(ft_bookmark_frozen(s));
  cr_assert_eq(step(s, message(FT_EVENT_ARRIVED, 0, 8), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  free(s);
}

Test(bookmark_anycall, an_arrival_beyond_the_bookmark_waits_in_the_queue) {
  void *s = core_new(1, 3, 1);
  struct ft_update u;
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_REQUEST, 0, 1, 1, 0), &u),
               0);
  assert_bookmark_to(&u, 2, 0);
  cr_assert_eq(step(s, bookmark(0, 1, 0), &u), 0);
  assert_bookmark_to(&u, 0, 0);
  cr_assert_eq(step(s, message(FT_EVENT_ARRIVED, 0, 8), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_QUEUE);
  cr_assert_eq(ft_bookmark_received(s, 0), 0);
  cr_assert_eq(step(s, call(FT_EVENT_CALL, 1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS); /* rank 2's bookmark is missing */
  cr_assert_eq(step(s, bookmark(2, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  cr_assert_eq(ft_bookmark_received(s, 0), 1);
  cr_assert_eq(ft_bookmark_received_bytes(s, 0), 8);
  free(s);
}

Test(bookmark_anycall, position_and_at_are_errors_in_this_mode) {
  void *s = core_new(0, 2, 1);
  struct ft_update u;
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_POSITION, 1, 0, 1, 0), &u),
               -1);
  cr_assert_eq(step(s, control(FT_BOOKMARK_CONTROL_AT, 1, 0, 1, 0), &u), -1);
  cr_assert_eq(step(s, safe_point(1), &u), 0); /* a call like the others */
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  free(s);
}

/* ---- Whole waves, as stories ----------------------------------------- */

static struct cluster *cluster(int ranks, double period) {
  struct cluster *c = cluster_new(&ft_protocol_bookmark, ranks, period);
  cr_assert_not_null(c);
  return c;
}

#define assert_trace(c, expected)                                              \
  cr_assert_str_eq(cluster_trace(c), expected, "got:\n%s", cluster_trace(c))

/* Figure 9 of lam-mpi-blcr for two processes: (1) A and B exchange their
 * "sent" bookmarks over the out-of-band channel; (2) each receives from
 * the in-band channel until its "received" bookmark matches: B's message,
 * sent before B reached the wave's safe point, is still on the wire when
 * A has both bookmarks, so A drains it while held, then checkpoints with
 * an empty channel. */
Test(bookmark_trace, the_drain_reads_like_figure_9) {
  struct cluster *c = cluster(2, 1.0);
  cluster_set_app(c, 0, 0.25, 0.0);
  cluster_set_app(c, 1, 0.25, 0.05);
  cr_assert_eq(cluster_script_message(c, 1, 0, 1.29, 0.1), 0);
  cr_assert_eq(cluster_script_message(c, 0, 1, 0.60, 0.01), 0);
  cr_assert_eq(cluster_start(c), 0, "%s", c->error);
  cr_assert_eq(cluster_run_until_commit(c, 1, 10.0), 0, "%s\n%s", c->error,
               cluster_trace(c));
  assert_trace(c, "[  0.600] 0 send #1 to 1\n"
                  "[  0.610] 1 deliver #1 from 0, 16 B\n"
                  "[  1.000] 0 timer, position 3\n"
                  "            > wave 1 request to 1\n"
                  "[  1.001] 1 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.002] 0 < position 3 from 1\n"
                  "            > wave 1 at safe point 5 to 1\n"
                  "[  1.003] 1 < wave 1 at safe point 5\n"
                  "[  1.250] 0 safe point 5\n"
                  "            > bookmark: sent 1 to 1\n"
                  "            held\n"
                  "[  1.251] 1 < bookmark from 0: it sent 1, 1 in\n"
                  "[  1.290] 1 send #1 to 0\n"
                  "[  1.300] 1 safe point 5\n"
                  "            > bookmark: sent 1 to 0\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "[  1.301] 0 < bookmark from 1: it sent 1, 0 in\n"
                  "[  1.390] 0 deliver #1 from 1, 16 B\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.400] 1 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.401] 0 < done from 1\n"
                  "[  1.490] 0 image of wave 1 stored\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.490\n");
  cluster_free(c);
}

/* Figure 2 with four processes: each bookmark goes to the next higher
 * rank first, then around the circle; a rank's step i waits for rank - i. */
Test(bookmark_trace, a_wave_of_four_reads_like_figure_2) {
  struct cluster *c = cluster(4, 1.0);
  for (int r = 0; r < 4; r++)
    cluster_set_app(c, r, 0.25, 0.01 * r);
  cr_assert_eq(cluster_start(c), 0, "%s", c->error);
  cr_assert_eq(cluster_run_until_commit(c, 1, 10.0), 0, "%s\n%s", c->error,
               cluster_trace(c));
  assert_trace(c, "[  1.000] 0 timer, position 3\n"
                  "            > wave 1 request to 1, 2, 3\n"
                  "[  1.001] 1 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.001] 2 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.001] 3 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.002] 0 < position 3 from 1\n"
                  "[  1.002] 0 < position 3 from 2\n"
                  "[  1.002] 0 < position 3 from 3\n"
                  "            > wave 1 at safe point 5 to 1, 2, 3\n"
                  "[  1.003] 1 < wave 1 at safe point 5\n"
                  "[  1.003] 2 < wave 1 at safe point 5\n"
                  "[  1.003] 3 < wave 1 at safe point 5\n"
                  "[  1.250] 0 safe point 5\n"
                  "            > bookmark: sent 0 to 1\n"
                  "            held\n"
                  "[  1.251] 1 < bookmark from 0: it sent 0, 0 in\n"
                  "[  1.260] 1 safe point 5\n"
                  "            > bookmark: sent 0 to 2\n"
                  "            > bookmark: sent 0 to 3\n"
                  "            held\n"
                  "[  1.261] 2 < bookmark from 1: it sent 0, 0 in\n"
                  "[  1.261] 3 < bookmark from 1: it sent 0, 0 in\n"
                  "[  1.270] 2 safe point 5\n"
                  "            > bookmark: sent 0 to 3\n"
                  "            > bookmark: sent 0 to 0\n"
                  "            held\n"
                  "[  1.271] 3 < bookmark from 2: it sent 0, 0 in\n"
                  "[  1.271] 0 < bookmark from 2: it sent 0, 0 in\n"
                  "[  1.280] 3 safe point 5\n"
                  "            > bookmark: sent 0 to 0\n"
                  "            > bookmark: sent 0 to 1\n"
                  "            > bookmark: sent 0 to 2\n"
                  "            held\n"
                  "[  1.281] 0 < bookmark from 3: it sent 0, 0 in\n"
                  "            > bookmark: sent 0 to 2\n"
                  "            > bookmark: sent 0 to 3\n"
                  "[  1.281] 1 < bookmark from 3: it sent 0, 0 in\n"
                  "            > bookmark: sent 0 to 0\n"
                  "[  1.281] 2 < bookmark from 3: it sent 0, 0 in\n"
                  "[  1.282] 2 < bookmark from 0: it sent 0, 0 in\n"
                  "            > bookmark: sent 0 to 1\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.282] 3 < bookmark from 0: it sent 0, 0 in\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.282] 0 < bookmark from 1: it sent 0, 0 in\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.283] 1 < bookmark from 2: it sent 0, 0 in\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.382] 2 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.382] 3 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.382] 0 image of wave 1 stored\n"
                  "[  1.383] 1 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.383] 0 < done from 2\n"
                  "[  1.383] 0 < done from 3\n"
                  "[  1.384] 0 < done from 1\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.384\n");
  cluster_free(c);
}
