/* Unit tests of the `pcl` core: whole waves told as traces by the in-memory
 * cluster (core_cluster.h), one core driven event by event, and a property
 * over 200 seeded random clusters. No MPI, no SimGrid. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core_cluster.h"
#include "pcl/pcl.h"

/* ---- Helpers: one core, driven by hand ------------------------------ */

static void *core_new(int rank, int ranks, double period) {
  struct ft_core_config config = {
      .rank = rank, .ranks = ranks, .period = period, .start = 0.0};
  void *state = calloc(1, ft_protocol_pcl.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_pcl.init(state, &config), 0);
  return state;
}

static int step(void *state, struct ft_event e, struct ft_update *u) {
  *u = (struct ft_update){.flags = 0xdead, .deadline = 99.0, .wave = -7};
  return ft_protocol_pcl.step(state, &e, u);
}

static struct ft_event control(enum ft_pcl_control kind, int from, int to,
                               int wave, int64_t value) {
  return (struct ft_event){
      .type = FT_EVENT_CONTROL,
      .time = 1.0,
      .peer = from,
      .control = {kind, from, to, wave, value},
  };
}

static struct ft_event safe_point(int64_t index) {
  return (struct ft_event){
      .type = FT_EVENT_SAFE_POINT, .time = 1.0, .peer = -1, .index = index};
}

static struct ft_event timer(double time) {
  return (struct ft_event){.type = FT_EVENT_TIMER, .time = time, .peer = -1};
}

/* Passes safe points 1..n, asserting that each one passes. */
static void pass_safe_points(void *state, int64_t n) {
  struct ft_update u;
  for (int64_t i = 1; i <= n; i++) {
    cr_assert_eq(step(state, safe_point(i), &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
  }
}

/* Passes safe points first..last, asserting that each one passes. */
static void pass_safe_points_from(void *state, int64_t first, int64_t last) {
  struct ft_update u;
  for (int64_t i = first; i <= last; i++) {
    cr_assert_eq(step(state, safe_point(i), &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
  }
}

/* Asserts that the update sends `kind` (wave, value) to every rank but
 * `self`, in rank order, starting at sends[first]. */
static void assert_broadcast(const struct ft_update *u, size_t first,
                             enum ft_pcl_control kind, int self, int ranks,
                             int wave, int64_t value) {
  size_t i = first;
  for (int to = 0; to < ranks; to++) {
    if (to == self)
      continue;
    cr_assert_lt(i, u->n_sends);
    cr_assert_eq(u->sends[i].kind, kind);
    cr_assert_eq(u->sends[i].from, self);
    cr_assert_eq(u->sends[i].to, to);
    cr_assert_eq(u->sends[i].wave, wave);
    cr_assert_eq(u->sends[i].value, value);
    i++;
  }
}

/* Rank `rank` of 3, past `position` safe points, got the request of wave 1
 * and answered its position. */
static void *requested(int rank, int64_t position) {
  void *s = core_new(rank, 3, 1.0);
  struct ft_update u;
  pass_safe_points(s, position);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_REQUEST, 0, rank, 1, 0), &u),
               0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_PCL_CONTROL_POSITION);
  cr_assert_eq(u.sends[0].to, 0);
  cr_assert_eq(u.sends[0].value, position);
  return s;
}

/* ---- Helpers: clusters ---------------------------------------------- */

static struct cluster *cluster(int ranks, double period) {
  struct cluster *c = cluster_new(&ft_protocol_pcl, ranks, period);
  cr_assert_not_null(c);
  return c;
}

static void start(struct cluster *c) {
  cr_assert_eq(cluster_start(c), 0, "%s", c->error);
}

static void run_until_commit(struct cluster *c, int wave, double limit) {
  cr_assert_eq(cluster_run_until_commit(c, wave, limit), 0, "%s\n%s", c->error,
               cluster_trace(c));
}

#define assert_trace(c, expected)                                              \
  cr_assert_str_eq(cluster_trace(c), expected, "got:\n%s", cluster_trace(c))

/* ---- Whole waves, as stories ----------------------------------------- */

/* Figure 2 of pcl-vs-vcl-fgcs08 at safe points: rank 0 starts the wave
 * (1), every rank marks every channel at the same safe point (2), a
 * channel is delayed from its marker to the checkpoint (3, 4), each rank
 * checkpoints once it has every marker (5), images are stored, rank 0
 * commits and waits a period. Rank 0 reaches safe point 4 just as the wave
 * is due: it is not held there (the initiator never waits for positions),
 * its position moves to 4 and K is 5. */
Test(pcl_trace, a_wave_reads_like_figure_2) {
  struct cluster *c = cluster(3, 1.0);
  cluster_set_app(c, 1, 0.25, 0.05);
  cluster_set_app(c, 2, 0.25, 0.1);
  start(c);
  run_until_commit(c, 1, 10.0);
  assert_trace(c, "[  1.000] 0 timer, position 3\n"
                  "            > wave 1 request to 1, 2\n"
                  "[  1.001] 1 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.001] 2 < wave 1 request from 0\n"
                  "            > position 3 to 0\n"
                  "[  1.002] 0 < position 3 from 1\n"
                  "[  1.002] 0 < position 3 from 2\n"
                  "            > wave 1 at safe point 5 to 1, 2\n"
                  "[  1.003] 1 < wave 1 at safe point 5\n"
                  "[  1.003] 2 < wave 1 at safe point 5\n"
                  "[  1.250] 0 safe point 5\n"
                  "            > markers to 1, 2\n"
                  "            held\n"
                  "[  1.251] 1 < marker from 0: channel 0->1 delayed\n"
                  "[  1.251] 2 < marker from 0: channel 0->2 delayed\n"
                  "[  1.300] 1 safe point 5\n"
                  "            > markers to 0, 2\n"
                  "            held\n"
                  "[  1.301] 0 < marker from 1\n"
                  "[  1.301] 2 < marker from 1: channel 1->2 delayed\n"
                  "[  1.350] 2 safe point 5\n"
                  "            > markers to 0, 1\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "[  1.351] 0 < marker from 2\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.351] 1 < marker from 2\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            released\n"
                  "[  1.450] 2 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.451] 0 image of wave 1 stored\n"
                  "[  1.451] 1 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.451] 0 < done from 2\n"
                  "[  1.452] 0 < done from 1\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.452\n");
  cluster_free(c);
}

/* Ranks at different speeds and a slow link 0 -> 2: rank 1's marker
 * reaches rank 2 before the wave's safe point does, rank 2 is held one
 * safe point short of K and released, and rank 1's image is stored before
 * rank 2 even checkpoints. */
Test(pcl_trace, a_marker_overtakes_the_wave_and_a_held_rank_is_released) {
  struct cluster *c = cluster(3, 1.0);
  cluster_set_app(c, 0, 0.3, 0.0);
  cluster_set_app(c, 1, 0.2, 0.0);
  cluster_set_app(c, 2, 0.25, 0.05);
  cluster_set_latency(c, 0, 2, 0.15);
  start(c);
  run_until_commit(c, 1, 10.0);
  assert_trace(c, "[  1.000] 0 timer, position 3\n"
                  "            > wave 1 request to 1, 2\n"
                  "[  1.001] 1 < wave 1 request from 0\n"
                  "            > position 5 to 0\n"
                  "[  1.002] 0 < position 5 from 1\n"
                  "[  1.150] 2 < wave 1 request from 0\n"
                  "            > position 4 to 0\n"
                  "[  1.151] 0 < position 4 from 2\n"
                  "            > wave 1 at safe point 6 to 1, 2\n"
                  "[  1.152] 1 < wave 1 at safe point 6\n"
                  "[  1.200] 1 safe point 6\n"
                  "            > markers to 0, 2\n"
                  "            held\n"
                  "[  1.201] 0 < marker from 1: channel 1->0 delayed\n"
                  "[  1.201] 2 < marker from 1: channel 1->2 delayed\n"
                  "[  1.300] 2 safe point 5\n"
                  "            held\n"
                  "[  1.301] 2 < wave 1 at safe point 6\n"
                  "            released\n"
                  "[  1.551] 2 safe point 6\n"
                  "            > markers to 0, 1\n"
                  "            held\n"
                  "[  1.552] 0 < marker from 2: channel 2->0 delayed\n"
                  "[  1.552] 1 < marker from 2\n"
                  "[  1.800] 0 safe point 6\n"
                  "            > markers to 1, 2\n"
                  "            checkpoint wave 1 at safe point 6\n"
                  "[  1.801] 1 < marker from 0\n"
                  "            checkpoint wave 1 at safe point 6\n"
                  "            released\n"
                  "[  1.900] 0 image of wave 1 stored\n"
                  "[  1.901] 1 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  1.902] 0 < done from 1\n"
                  "[  1.950] 2 < marker from 0\n"
                  "            checkpoint wave 1 at safe point 6\n"
                  "            released\n"
                  "[  2.050] 2 image of wave 1 stored\n"
                  "            > done to 0\n"
                  "[  2.051] 0 < done from 2\n"
                  "            commit wave 1\n"
                  "            next wave due at 3.051\n");
  cluster_free(c);
}

/* One rank: no request, no marker; K is the next safe point. */
Test(pcl_trace, a_single_rank_commits_with_no_marker) {
  struct cluster *c = cluster(1, 1.0);
  start(c);
  run_until_commit(c, 2, 10.0);
  assert_trace(c, "[  1.000] 0 timer, position 3\n"
                  "[  1.000] 0 safe point 4\n"
                  "            checkpoint wave 1 at safe point 4\n"
                  "[  1.100] 0 image of wave 1 stored\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.100\n"
                  "[  2.100] 0 timer, position 8\n"
                  "[  2.250] 0 safe point 9\n"
                  "            checkpoint wave 2 at safe point 9\n"
                  "[  2.350] 0 image of wave 2 stored\n"
                  "            commit wave 2\n"
                  "            next wave due at 3.350\n");
  cluster_free(c);
}

/* A failure while the images of wave 2 are being stored: every rank goes
 * back to wave 1's safe point, wave 2's images are forgotten, and the next
 * wave is wave 2 again, a period after the rollback. */
Test(pcl_trace, a_rollback_in_the_middle_of_a_wave_then_a_clean_wave) {
  struct cluster *c = cluster(2, 1.0);
  cluster_set_app(c, 1, 0.25, 0.1);
  start(c);
  run_until_commit(c, 1, 10.0);
  cluster_trace_clear(c);
  cr_assert_eq(cluster_run_until(c, 2.7), 0, "%s", c->error);
  cr_assert_eq(c->committed, 1);
  cr_assert_eq(cluster_rollback(c), 0, "%s", c->error);
  run_until_commit(c, 2, 10.0);
  assert_trace(c, "[  2.451] 0 timer, position 9\n"
                  "            > wave 2 request to 1\n"
                  "[  2.452] 1 < wave 2 request from 0\n"
                  "            > position 9 to 0\n"
                  "[  2.453] 0 < position 9 from 1\n"
                  "            > wave 2 at safe point 10 to 1\n"
                  "[  2.454] 1 < wave 2 at safe point 10\n"
                  "[  2.600] 1 safe point 10\n"
                  "            > marker to 0\n"
                  "            held\n"
                  "[  2.601] 0 < marker from 1: channel 1->0 delayed\n"
                  "[  2.601] 0 safe point 10\n"
                  "            > marker to 1\n"
                  "            checkpoint wave 2 at safe point 10\n"
                  "[  2.602] 1 < marker from 0\n"
                  "            checkpoint wave 2 at safe point 10\n"
                  "            released\n"
                  "[  2.700] 0 rollback to wave 1 at safe point 5\n"
                  "            next wave due at 3.700\n"
                  "[  2.700] 1 rollback to wave 1 at safe point 5\n"
                  "[  3.700] 0 timer, position 8\n"
                  "            > wave 2 request to 1\n"
                  "[  3.701] 1 < wave 2 request from 0\n"
                  "            > position 9 to 0\n"
                  "[  3.702] 0 < position 9 from 1\n"
                  "            > wave 2 at safe point 10 to 1\n"
                  "[  3.703] 1 < wave 2 at safe point 10\n"
                  "[  3.950] 0 safe point 10\n"
                  "            > marker to 1\n"
                  "            held\n"
                  "[  3.950] 1 safe point 10\n"
                  "            > marker to 0\n"
                  "            held\n"
                  "[  3.951] 1 < marker from 0\n"
                  "            checkpoint wave 2 at safe point 10\n"
                  "            released\n"
                  "[  3.951] 0 < marker from 1\n"
                  "            checkpoint wave 2 at safe point 10\n"
                  "            released\n"
                  "[  4.051] 1 image of wave 2 stored\n"
                  "            > done to 0\n"
                  "[  4.051] 0 image of wave 2 stored\n"
                  "[  4.052] 0 < done from 1\n"
                  "            commit wave 2\n"
                  "            next wave due at 5.052\n");
  cluster_free(c);
}

/* ---- One core, event by event ----------------------------------------- */

Test(pcl_core, is_registered_and_recovers) {
  const struct ft_protocol_ops *p = ft_protocol_find("pcl");
  cr_assert_eq(p, &ft_protocol_pcl);
  cr_assert_str_eq(p->name, "pcl");
  cr_assert_eq(p->family, FT_FAMILY_COORDINATED);
  cr_assert(ft_protocol_recovers(p));
  cr_assert_not(ft_protocol_has_scheduler(p));
  cr_assert_not_null(p->summary);
}

Test(pcl_core, rejects_a_rank_outside_the_world) {
  struct ft_core_config big = {.rank = 0, .ranks = 8, .period = 1.0};
  void *s = calloc(1, ft_protocol_pcl.state_size(&big));
  struct ft_core_config bad[] = {{.rank = 4, .ranks = 4},
                                 {.rank = -1, .ranks = 4},
                                 {.rank = 0, .ranks = 0},
                                 {.rank = 0, .ranks = -3}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(ft_protocol_pcl.init(s, &bad[i]), -1, "config %zu", i);
  free(s);
}

Test(pcl_core, state_grows_by_a_few_bytes_and_a_send_slot_pair_per_rank) {
  struct ft_core_config a = {.rank = 0, .ranks = 100};
  struct ft_core_config b = {.rank = 0, .ranks = 101};
  size_t per_rank =
      ft_protocol_pcl.state_size(&b) - ft_protocol_pcl.state_size(&a);
  cr_assert_eq(per_rank, 2 * sizeof(struct ft_control) + 1);
}

Test(pcl_core, only_rank_0_arms_a_deadline_and_app_operations_pass) {
  struct ft_update u;
  void *s0 = core_new(0, 3, 2.5), *s1 = core_new(1, 3, 2.5);
  enum ft_event_type types[] = {FT_EVENT_APP_SEND, FT_EVENT_APP_RECV,
                                FT_EVENT_DELIVERED};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    struct ft_event e = {.type = types[i], .time = 0.5, .peer = 1};
    cr_assert_eq(step(s0, e, &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
    cr_assert_eq(u.deadline, 2.5);
    cr_assert_eq(u.n_sends, 0);
    cr_assert_eq(step(s1, e, &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
    cr_assert_lt(u.deadline, 0.0);
  }
  free(s0);
  free(s1);
}

Test(pcl_core, period_0_never_starts_a_wave) {
  struct ft_update u;
  void *s = core_new(0, 2, 0.0);
  cr_assert_eq(step(s, timer(1e9), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_lt(u.deadline, 0.0);
  pass_safe_points(s, 50);
  free(s);
}

Test(pcl_core, an_early_timer_is_ignored) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  cr_assert_eq(step(s, timer(0.999), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.deadline, 1.0);
  free(s);
}

/* Rank 0 is never held before it knows K: at position + 1 it moves its
 * own position there and goes on, so that K = max + 1 stays ahead of it
 * (issue 19: a hold there made BT.B.64 wait 0.9 s for a computing rank's
 * answer). */
Test(pcl_core, rank_0_passes_its_safe_points_until_it_knows_k) {
  struct ft_update u;
  void *s = core_new(0, 3, 1.0);
  pass_safe_points(s, 3);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_REQUEST, 0, 3, 1, 0);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_lt(u.deadline, 0.0);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(ft_pcl_held(s), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 2, 0, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 1, 0, 1, 3), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_AT, 0, 3, 1, 6);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.flags, 0, "running: nothing to release");
  cr_assert_eq(ft_pcl_wave_at(s), 6);
  free(s);
}

/* A higher position than rank 0's sets K; rank 0 then runs to it. */
Test(pcl_core, rank_0_runs_to_a_k_set_by_another_rank) {
  struct ft_update u;
  void *s = core_new(0, 3, 1.0);
  pass_safe_points(s, 3);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 2, 0, 1, 2), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 1, 0, 1, 5), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_AT, 0, 3, 1, 6);
  cr_assert_eq(u.flags, 0);
  pass_safe_points_from(s, 4, 5);
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 0, 3, 1, 0);
  free(s);
}

/* Rank 0 at K (its position + 1, every other rank behind it): it marks
 * when the last position places the wave, then waits for the markers. Then
 * the checkpoint, the images, the commit, and the next deadline a period
 * after the commit. */
Test(pcl_core, rank_0_at_k_marks_then_commits_after_every_image) {
  struct ft_update u;
  void *s = core_new(0, 3, 2.0);
  pass_safe_points(s, 3);
  cr_assert_eq(step(s, timer(2.0), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 1, 0, 1, 3), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 2, 0, 1, 2), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_AT, 0, 3, 1, 4);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 0, 3, 1, 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD, "held at 4 for the markers");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_pcl_channel_delayed(s, 2), 0, "0 had sent its marker");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 1, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_CHECKPOINT_DONE, 2, 0, 1, 0), &u),
               0);
  struct ft_event stored = {
      .type = FT_EVENT_IMAGE_STORED, .time = 3.0, .peer = -1, .wave = 1};
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0, "rank 0 counts its own image");
  cr_assert_lt(u.deadline, 0.0);
  struct ft_event done = control(FT_PCL_CONTROL_CHECKPOINT_DONE, 1, 0, 1, 0);
  done.time = 3.5;
  cr_assert_eq(step(s, done, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.deadline, 5.5);
  free(s);
}

/* Markers may come before the WAVE_AT (another rank learnt K first): the
 * channels are delayed; at K the rank has them all and checkpoints at once,
 * with no hold. */
Test(pcl_core, markers_before_wave_at_delay_channels_then_checkpoint_at_once) {
  struct ft_update u;
  void *s = requested(2, 4);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 1, 2, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_pcl_channel_delayed(s, 1), 1);
  cr_assert_eq(ft_pcl_channel_delayed(s, 0), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 2, 1, 0), &u), 0);
  cr_assert_eq(ft_pcl_channel_delayed(s, 0), 1);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_AT, 0, 2, 1, 5), &u), 0);
  cr_assert_eq(u.flags, 0, "running: nothing to release");
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 2, 3, 1, 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_PASS);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(ft_pcl_held(s), 0);
  free(s);
}

/* Held at position + 1 with every marker in, the WAVE_AT says K is that
 * very safe point: markers, checkpoint and release in one step. */
Test(pcl_core, wave_at_the_held_safe_point_with_every_marker_checkpoints) {
  struct ft_update u;
  void *s = requested(1, 4);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  cr_assert_eq(u.n_sends, 0, "no marker before K is known");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0, "not marking yet: no checkpoint");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_AT, 0, 1, 1, 5), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 1, 3, 1, 0);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  cr_assert_eq(u.wave, 1);
  free(s);
}

/* Held at position + 1 = K without the markers: it marks and stays held. */
Test(pcl_core, wave_at_the_held_safe_point_marks_and_keeps_holding) {
  struct ft_update u;
  void *s = requested(1, 4);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_AT, 0, 1, 1, 5), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 1, 3, 1, 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_pcl_held(s), 5);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_pcl_channel_delayed(s, 0), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  cr_assert_eq(u.n_sends, 0);
  free(s);
}

Test(pcl_core, wave_at_beyond_the_held_safe_point_releases) {
  struct ft_update u;
  void *s = requested(1, 4);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_AT, 0, 1, 1, 7), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_RELEASE);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(step(s, safe_point(7), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 1, 3, 1, 0);
  free(s);
}

/* WAVE_AT before the rank reaches position + 1: it never stops there. */
Test(pcl_core, wave_at_before_reaching_k_then_store_and_report) {
  struct ft_update u;
  void *s = requested(1, 2);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_AT, 0, 1, 1, 4), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_RELEASE);
  struct ft_event stored = {
      .type = FT_EVENT_IMAGE_STORED, .time = 2.0, .peer = -1, .wave = 1};
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_PCL_CONTROL_CHECKPOINT_DONE);
  cr_assert_eq(u.sends[0].from, 1);
  cr_assert_eq(u.sends[0].to, 0);
  cr_assert_eq(u.sends[0].wave, 1);
  free(s);
}

/* One rank: the timer places the wave at the next safe point, which
 * checkpoints at once; the stored image commits. */
Test(pcl_core, a_single_rank_needs_no_message) {
  struct ft_update u;
  void *s = core_new(0, 1, 1.0);
  pass_safe_points(s, 2);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_pcl_wave_at(s), 3);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_PASS);
  struct ft_event stored = {
      .type = FT_EVENT_IMAGE_STORED, .time = 1.5, .peer = -1, .wave = 1};
  cr_assert_eq(step(s, stored, &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.deadline, 2.5);
  free(s);
}

/* A ROLLBACK forgets the wave in progress: the safe-point index restarts
 * at the committed one, the next wave is c + 1, and rank 0 waits a period
 * from the rollback. */
Test(pcl_core, rollback_forgets_the_wave_in_progress) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  pass_safe_points(s, 9);
  cr_assert_eq(step(s, timer(3.0), &u), 0);
  cr_assert_eq(u.sends[0].wave, 1);
  cr_assert_eq(step(s, safe_point(10), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS, "rank 0's position moves to 10");
  struct ft_event rollback = {.type = FT_EVENT_ROLLBACK,
                              .time = 4.0,
                              .peer = -1,
                              .index = 7,
                              .wave = 0};
  cr_assert_eq(step(s, rollback, &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.deadline, 5.0);
  cr_assert_eq(ft_pcl_held(s), 0);
  cr_assert_eq(step(s, safe_point(8), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(step(s, timer(5.0), &u), 0);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_REQUEST, 0, 2, 1, 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_POSITION, 1, 0, 1, 8), &u), 0);
  /* 9, not 11: position 10, of the wave rolled back, is forgotten */
  assert_broadcast(&u, 0, FT_PCL_CONTROL_WAVE_AT, 0, 2, 1, 9);
  free(s);
}

Test(pcl_core, a_rank_rolled_back_to_wave_3_expects_wave_4) {
  struct ft_update u;
  void *s = core_new(1, 2, 1.0);
  struct ft_event rollback = {.type = FT_EVENT_ROLLBACK,
                              .time = 4.0,
                              .peer = -1,
                              .index = 12,
                              .wave = 3};
  cr_assert_eq(step(s, rollback, &u), 0);
  cr_assert_eq(ft_pcl_wave(s), 3);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_REQUEST, 0, 1, 3, 0), &u),
               -1);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_REQUEST, 0, 1, 4, 0), &u),
               0);
  cr_assert_eq(u.sends[0].value, 12);
  free(s);
}

/* What cannot happen in a correct run is a protocol error (-1), and the
 * failed step sends nothing. */
Test(pcl_core, impossible_events_are_protocol_errors) {
  struct ft_update u;
  void *s = requested(1, 4);
  struct ft_event bad[] = {
      control(FT_PCL_CONTROL_MARKER, 2, 1, 2, 0),       /* another wave */
      control(FT_PCL_CONTROL_MARKER, 1, 1, 1, 0),       /* from itself */
      control(FT_PCL_CONTROL_MARKER, 2, 0, 1, 0),       /* not for this rank */
      control(FT_PCL_CONTROL_MARKER, 3, 1, 1, 0),       /* outside the world */
      control(FT_PCL_CONTROL_WAVE_AT, 2, 1, 1, 5),      /* not from rank 0 */
      control(FT_PCL_CONTROL_WAVE_AT, 0, 1, 1, 4),      /* K <= position */
      control(FT_PCL_CONTROL_POSITION, 2, 1, 1, 3),     /* not rank 0 */
      control(FT_PCL_CONTROL_WAVE_REQUEST, 0, 1, 2, 0), /* wave in progress */
      control(FT_PCL_CONTROL_CHECKPOINT_DONE, 2, 1, 1, 0),
      safe_point(7), /* skips 5 and 6 */
      {.type = FT_EVENT_IMAGE_STORED, .peer = -1, .wave = 1},
      {.type = (enum ft_event_type)42},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(step(s, bad[i], &u), -1, "event %zu", i);
    cr_assert_eq(u.n_sends, 0);
  }
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 0), &u), -1,
               "duplicate marker");
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(step(s, safe_point(6), &u), -1, "a held rank moved on");
  free(s);
}

/* ---- Clusters ---------------------------------------------------------- */

Test(pcl_cluster, period_0_never_checkpoints) {
  struct cluster *c = cluster(4, 0.0);
  start(c);
  cr_assert_eq(cluster_run_until(c, 100.0), 0, "%s", c->error);
  cr_assert_eq(c->committed, 0);
  cr_assert_str_eq(cluster_trace(c), "");
  for (int r = 0; r < 4; r++)
    cr_assert_eq(c->rank[r].index, 400);
  cluster_free(c);
}

/* The cluster fails on any send to oneself; this also checks the sends
 * directly, on the widest cluster. */
Test(pcl_cluster, no_rank_sends_to_itself) {
  struct cluster *c = cluster(CLUSTER_MAX_RANKS, 1.0);
  for (int r = 0; r < CLUSTER_MAX_RANKS; r++)
    cluster_set_app(c, r, 0.1 + 0.01 * r, 0.003 * r);
  start(c);
  run_until_commit(c, 3, 60.0);
  cr_assert_null(strstr(cluster_trace(c), "> wave 1 request to 0,"));
  for (int r = 0; r < CLUSTER_MAX_RANKS; r++)
    cr_assert_eq(c->rank[r].checkpoints, 3);
  cluster_free(c);
}

/* From pcl-vs-vcl-sc06, section 5.2: "after having fully transferred a
 * checkpoint image to a checkpoint server, the system waits for 30 seconds
 * before beginning a new checkpoint wave." */
Test(pcl_cluster, waves_start_a_period_after_the_previous_commit) {
  struct cluster *c = cluster(4, 2.0);
  for (int r = 0; r < 4; r++)
    cluster_set_app(c, r, 0.3 + 0.05 * r, 0.0);
  start(c);
  run_until_commit(c, 5, 100.0);
  cr_assert_eq(c->requested_at[1], 2.0);
  for (int w = 2; w <= 5; w++)
    cr_assert_geq(c->requested_at[w], c->committed_at[w - 1] + 2.0, "wave %d",
                  w);
  cluster_free(c);
}

/* ---- Property: random clusters ------------------------------------------ */

struct random_cluster {
  struct cluster *c;
  double bound; /* longest a wave may take from the previous commit */
};

/* A cluster of 2..8 ranks with random iteration times, offsets, store
 * delays, latencies and jitter drawn from `seed`, and a bound on a wave:
 * after a release the ranks drift apart for at most E seconds (period,
 * store, a few latencies), by at most E / fastest + 3 safe points, which
 * the slowest rank catches up at its own pace. */
static struct random_cluster random_cluster(uint64_t seed) {
  uint64_t x = seed;
  int ranks = 2 + (int)(cluster_splitmix64(&x) % 7);
  double period = cluster_uniform(&x, 0.5, 3.0);
  struct cluster *c = cluster(ranks, period);
  double it_min = 1e9, it_max = 0, off_max = 0, store_max = 0, lat_max = 0;
  for (int r = 0; r < ranks; r++) {
    double it = cluster_uniform(&x, 0.05, 0.4);
    double off = cluster_uniform(&x, 0.0, 0.3);
    cluster_set_app(c, r, it, off);
    c->rank[r].store_delay = cluster_uniform(&x, 0.01, 0.6);
    it_min = it < it_min ? it : it_min;
    it_max = it > it_max ? it : it_max;
    off_max = off > off_max ? off : off_max;
    store_max =
        c->rank[r].store_delay > store_max ? c->rank[r].store_delay : store_max;
    for (int to = 0; to < ranks; to++) {
      double lat = cluster_uniform(&x, 0.0001, 0.05);
      cluster_set_latency(c, r, to, lat);
      lat_max = lat > lat_max ? lat : lat_max;
    }
  }
  c->jitter = cluster_uniform(&x, 0.0, 0.02);
  c->rng = x;
  c->trace_on = 0;
  lat_max += c->jitter;
  double drift = period + store_max + off_max + 4 * lat_max + it_max;
  double bound =
      period + (drift / it_min + 3) * it_max + 6 * lat_max + store_max;
  return (struct random_cluster){c, bound};
}

static void assert_waves_consistent(const struct cluster *c, int first,
                                    int last, uint64_t seed) {
  for (int w = first; w <= last; w++) {
    int64_t at = c->rank[0].checkpoint_at[w];
    cr_assert_gt(at, 0, "seed %llu wave %d", (unsigned long long)seed, w);
    for (int r = 1; r < c->ranks; r++)
      cr_assert_eq(c->rank[r].checkpoint_at[w], at, "seed %llu wave %d rank %d",
                   (unsigned long long)seed, w, r);
    cr_assert_geq(c->requested_at[w], c->committed_at[w - 1] + c->period,
                  "seed %llu wave %d", (unsigned long long)seed, w);
  }
}

/* For 200 seeds: five waves commit, every rank checkpoints each wave at the
 * same safe point, and within a bounded time (no deadlock). The cluster
 * itself fails the run on a checkpoint without every marker, a send to
 * oneself, a RELEASE of a running rank or a commit before every
 * checkpoint. */
Test(pcl_cluster, five_waves_commit_consistently_on_200_random_clusters) {
  for (uint64_t seed = 1; seed <= 200; seed++) {
    struct random_cluster rc = random_cluster(seed);
    struct cluster *c = rc.c;
    start(c);
    for (int w = 1; w <= 5; w++) {
      double limit = c->committed_at[w - 1] + rc.bound;
      cr_assert_eq(cluster_run_until_commit(c, w, limit), 0, "seed %llu: %s",
                   (unsigned long long)seed, c->error);
    }
    assert_waves_consistent(c, 1, 5, seed);
    for (int r = 0; r < c->ranks; r++)
      cr_assert_eq(c->rank[r].checkpoints, 5);
    cluster_free(c);
  }
}

/* For 200 seeds: a failure at a random instant of the first three waves,
 * then the waves after the rollback commit as cleanly. */
Test(pcl_cluster, waves_commit_after_a_random_rollback_on_200_clusters) {
  for (uint64_t seed = 1001; seed <= 1200; seed++) {
    struct random_cluster rc = random_cluster(seed);
    struct cluster *c = rc.c;
    uint64_t x = seed * 31;
    start(c);
    double when = cluster_uniform(&x, 0.0, 3 * rc.bound);
    cr_assert_eq(cluster_run_until(c, when), 0, "seed %llu: %s",
                 (unsigned long long)seed, c->error);
    int kept = c->committed;
    c->committed_at[kept] = c->time; /* the next wave counts from here */
    cr_assert_eq(cluster_rollback(c), 0, "seed %llu: %s",
                 (unsigned long long)seed, c->error);
    for (int w = kept + 1; w <= kept + 3; w++) {
      double limit = c->committed_at[w - 1] + rc.bound;
      cr_assert_eq(cluster_run_until_commit(c, w, limit), 0, "seed %llu: %s",
                   (unsigned long long)seed, c->error);
    }
    assert_waves_consistent(c, kept + 1, kept + 3, seed);
    cluster_free(c);
  }
}

/* ---- Any-call mode (pcl-vs-vcl-fgcs08, section 3, Figure 2) ---------- */

static void *anycall_new(int rank, int ranks, double period) {
  struct ft_core_config config = {.rank = rank,
                                  .ranks = ranks,
                                  .period = period,
                                  .start = 0.0,
                                  .any_call = 1};
  void *state = calloc(1, ft_protocol_pcl.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_pcl.init(state, &config), 0);
  return state;
}

static struct ft_event app(enum ft_event_type type, int peer, int64_t index) {
  return (struct ft_event){
      .type = type, .time = 1.0, .peer = peer, .tag = 0, .index = index};
}

static unsigned flags_of(void *s, struct ft_event e) {
  struct ft_update u;
  cr_assert_eq(step(s, e, &u), 0, "event %d refused", (int)e.type);
  return u.flags;
}

Test(pcl_anycall, rank_0_freezes_its_channels_and_checkpoints_in_a_call) {
  void *s = anycall_new(0, 2, 1.0);
  struct ft_update u;
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_APP_SEND, 1, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL_END, -1, 1)), FT_UPDATE_PASS);
  /* The wave starts between two calls: markers (value: 1 message sent
   * before it), channels frozen, no checkpoint yet. */
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 1);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 0, 2, 1, 1);
  cr_assert(ft_pcl_frozen(s));
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL, -1, 2)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_APP_SEND, 1, 0)), FT_UPDATE_DEFER);
  cr_assert_eq(flags_of(s, app(FT_EVENT_APP_SEND, 0, 0)), FT_UPDATE_PASS,
               "the channel to itself carries no marker");
  /* Rank 1 sent 2 messages before its marker; one arrived before it. */
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 1, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 1, 0, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0, "message 2 of rank 1 is still on its way");
  cr_assert(ft_pcl_channel_delayed(s, 1));
  /* It arrives: the channel is flushed, rank 0 checkpoints in call 2. */
  cr_assert_eq(step(s, app(FT_EVENT_ARRIVED, 1, 0), &u), 0);
  cr_assert_eq(u.flags,
               FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  cr_assert_eq(u.wave, 1);
  cr_assert_not(ft_pcl_frozen(s));
  cr_assert_not(ft_pcl_channel_delayed(s, 1));
  cr_assert_eq(flags_of(s, app(FT_EVENT_APP_SEND, 1, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 1, 0)), FT_UPDATE_PASS);
  /* Stored, then rank 1's DONE: commit. */
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                      .time = 2.0,
                                      .peer = -1,
                                      .wave = 1},
                    &u),
               0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_CHECKPOINT_DONE, 1, 0, 1, 0), &u),
               0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  free(s);
}

Test(pcl_anycall, a_marker_joins_the_wave_and_later_messages_are_queued) {
  void *s = anycall_new(1, 2, 1.0);
  struct ft_update u;
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_APP_SEND, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL_END, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_PASS);
  /* Rank 0's marker (1 message before it) while rank 1 computes: it sends
   * its own (1 message before it) and cannot checkpoint outside a call. */
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 1), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 1);
  assert_broadcast(&u, 0, FT_PCL_CONTROL_MARKER, 1, 2, 1, 1);
  /* Rank 0 checkpointed and sent again: the delayed receive queue. */
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_QUEUE);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_QUEUE);
  /* The next call is the checkpoint location; the queue is released. */
  cr_assert_eq(step(s, app(FT_EVENT_CALL, -1, 2), &u), 0);
  cr_assert_eq(u.flags,
               FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                      .time = 2.0,
                                      .peer = -1,
                                      .wave = 1},
                    &u),
               0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_PCL_CONTROL_CHECKPOINT_DONE);
  cr_assert_eq(u.sends[0].to, 0);
  free(s);
}

Test(pcl_anycall, a_single_rank_checkpoints_at_its_next_call) {
  void *s = anycall_new(0, 1, 1.0);
  struct ft_update u;
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, app(FT_EVENT_CALL, -1, 1), &u), 0);
  cr_assert_eq(u.flags,
               FT_UPDATE_PASS | FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  free(s);
}

Test(pcl_anycall, a_rollback_resumes_in_the_call_and_restarts_the_counts) {
  void *s = anycall_new(1, 2, 1.0);
  struct ft_update u;
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL_END, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 1), &u), 0);
  cr_assert(ft_pcl_frozen(s), "between two calls: no checkpoint yet");
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_ROLLBACK,
                                      .time = 3.0,
                                      .peer = -1,
                                      .wave = 0,
                                      .index = 7},
                    &u),
               0);
  cr_assert_not(ft_pcl_frozen(s));
  cr_assert_eq(step(s, app(FT_EVENT_CALL, -1, 8), &u), -1,
               "the rank resumes inside call 7");
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL_END, -1, 7)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_CALL, -1, 8)), FT_UPDATE_PASS);
  /* Counts restarted: a marker counting no message is right. */
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CHECKPOINT | FT_UPDATE_FLUSH);
  free(s);
}

Test(pcl_anycall, impossible_events_are_protocol_errors) {
  void *s = anycall_new(1, 3, 1.0);
  struct ft_update u;
  cr_assert_eq(step(s, app(FT_EVENT_CALL, -1, 2), &u), -1, "calls skipped");
  cr_assert_eq(step(s, app(FT_EVENT_CALL_END, -1, 1), &u), -1, "not in one");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_WAVE_REQUEST, 0, 1, 1, 0), &u),
               -1, "safe-point mode's control");
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 0, 1, 2, 0), &u), -1,
               "a marker of a wave after the next");
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 2, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, app(FT_EVENT_ARRIVED, 2, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s, control(FT_PCL_CONTROL_MARKER, 2, 1, 1, 1), &u), -1,
               "a message sent after the marker was fed before it");
  cr_assert_eq(step(s, app(FT_EVENT_ARRIVED, 3, 0), &u), -1);
  cr_assert_eq(step(s, app(FT_EVENT_APP_SEND, -1, 0), &u), -1);
  free(s);
  /* Safe-point mode knows no call and no arrival. */
  s = core_new(1, 3, 1.0);
  cr_assert_eq(step(s, app(FT_EVENT_CALL, -1, 1), &u), -1);
  cr_assert_eq(step(s, app(FT_EVENT_CALL_END, -1, 1), &u), -1);
  cr_assert_eq(step(s, app(FT_EVENT_ARRIVED, 0, 0), &u), -1);
  free(s);
}

/* Issue 16, item 3: "pessimist and v2: each rank checkpoints on its own at
 * any call" (their any-call mode: pessimist/pessimist.h). */
Test(pcl_anycall, the_message_logging_cores_accept_any_call_mode) {
  const char *names[] = {"pessimist", "v2"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const struct ft_protocol_ops *ops = ft_protocol_find(names[i]);
    cr_assert_not_null(ops);
    struct ft_core_config config = {.rank = 0, .ranks = 2, .any_call = 1};
    void *state = calloc(1, ops->state_size(&config));
    cr_assert_eq(ops->init(state, &config), 0, "%s", names[i]);
    free(state);
  }
}
