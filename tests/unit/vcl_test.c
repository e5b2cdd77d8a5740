/* Unit tests of the `vcl` core: whole waves told as traces by the in-memory
 * cluster (core_cluster.h), one core driven event by event, and properties
 * over seeded random clusters with application traffic. No MPI, no
 * SimGrid. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core_cluster.h"
#include "vcl/vcl.h"

/* ---- Helpers: one core, driven by hand ------------------------------ */

static void *core_new(int rank, int ranks, double period) {
  struct ft_core_config config = {
      .rank = rank, .ranks = ranks, .period = period, .start = 0.0};
  void *state = calloc(1, ft_protocol_vcl.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_vcl.init(state, &config), 0);
  return state;
}

static int step(void *state, struct ft_event e, struct ft_update *u) {
  *u = (struct ft_update){.flags = 0xdead, .deadline = 99.0, .wave = -7};
  return ft_protocol_vcl.step(state, &e, u);
}

static struct ft_event control(enum ft_vcl_control kind, int from, int to,
                               int wave, int64_t value) {
  return (struct ft_event){
      .type = FT_EVENT_CONTROL,
      .time = 1.0,
      .peer = from,
      .control = {kind, from, to, wave, value},
  };
}

static struct ft_event marker(int from, int to, int wave, int64_t value) {
  return control(FT_VCL_CONTROL_MARKER, from, to, wave, value);
}

static struct ft_event cut(int from, int to, int wave, int64_t value) {
  return control(FT_VCL_CONTROL_CUT, from, to, wave, value);
}

static struct ft_event done(int from, int to, int wave, double time) {
  struct ft_event e =
      control(FT_VCL_CONTROL_CHECKPOINT_DONE, from, to, wave, 0);
  e.time = time;
  return e;
}

static struct ft_event safe_point(int64_t index) {
  return (struct ft_event){
      .type = FT_EVENT_SAFE_POINT, .time = 1.0, .peer = -1, .index = index};
}

static struct ft_event timer(double time) {
  return (struct ft_event){.type = FT_EVENT_TIMER, .time = time, .peer = -1};
}

static struct ft_event app(enum ft_event_type type, int peer) {
  return (struct ft_event){.type = type, .time = 1.0, .peer = peer};
}

static struct ft_event stored(int wave) {
  return (struct ft_event){
      .type = FT_EVENT_IMAGE_STORED, .time = 1.0, .peer = -1, .wave = wave};
}

static struct ft_event rollback(int wave, int64_t index, double time) {
  return (struct ft_event){.type = FT_EVENT_ROLLBACK,
                           .time = time,
                           .peer = -1,
                           .index = index,
                           .wave = wave};
}

/* Passes safe points from..to, asserting that each one passes alone. */
static void pass_safe_points(void *state, int64_t from, int64_t to) {
  struct ft_update u;
  for (int64_t i = from; i <= to; i++) {
    cr_assert_eq(step(state, safe_point(i), &u), 0, "safe point %lld",
                 (long long)i);
    cr_assert_eq(u.flags, FT_UPDATE_PASS, "safe point %lld", (long long)i);
  }
}

/* n application events of `type` with `peer`, each passing alone. */
static void apps(void *state, enum ft_event_type type, int peer, int n) {
  struct ft_update u;
  for (int i = 0; i < n; i++) {
    cr_assert_eq(step(state, app(type, peer), &u), 0);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
  }
}

/* A delivery from `peer` passes and is recorded as message `number`. */
static void assert_recorded(void *state, int peer, int64_t number) {
  struct ft_update u;
  cr_assert_eq(step(state, app(FT_EVENT_DELIVERED, peer), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RECORD, "#%lld",
               (long long)number);
  cr_assert_eq(u.index, number);
}

/* Asserts sends[first..] is `kind` (wave, value) to every rank but `self`
 * in rank order, from `self`. */
static void assert_broadcast(const struct ft_update *u, size_t first,
                             enum ft_vcl_control kind, int self, int ranks,
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
    cr_assert_eq(u->sends[i].value, value, "to %d", to);
    i++;
  }
}

/* Asserts sends[i] is a CUT of `wave` from `self` to `to` with `value`. */
static void assert_cut(const struct ft_update *u, size_t i, int self, int to,
                       int wave, int64_t value) {
  cr_assert_lt(i, u->n_sends);
  cr_assert_eq(u->sends[i].kind, FT_VCL_CONTROL_CUT);
  cr_assert_eq(u->sends[i].from, self);
  cr_assert_eq(u->sends[i].to, to);
  cr_assert_eq(u->sends[i].wave, wave);
  cr_assert_eq(u->sends[i].value, value, "cut to %d", to);
}

static void assert_keep(const struct ft_update *u, size_t i, int peer,
                        int64_t first, int64_t last) {
  cr_assert_lt(i, u->n_keep);
  cr_assert_eq(u->keep[i].peer, peer);
  cr_assert_eq(u->keep[i].first, first);
  cr_assert_eq(u->keep[i].last, last);
}

/* Rank `rank` of 3 (the scheduler is 3), past `index` safe points, got the
 * scheduler's marker of wave 1 and proposed index + 1. */
static void *notified(int rank, int64_t index) {
  void *s = core_new(rank, 3, 1.0);
  struct ft_update u;
  pass_safe_points(s, 1, index);
  cr_assert_eq(step(s, marker(3, rank, 1, 0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, rank, 3, 1, index + 1);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_NOTIFIED);
  return s;
}

/* ---- Helpers: clusters ---------------------------------------------- */

static struct cluster *cluster(int ranks, double period) {
  struct cluster *c = cluster_new(&ft_protocol_vcl, ranks, period);
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

/* Figure 1 of pcl-vs-vcl-sc06 at safe points. The scheduler's marker
 * reaches rank 1 first (1); rank 1 proposes its next safe point, 5, to rank
 * 0, which proposes 4: K = 5. Rank 1 checkpoints at 5 (2) and sends its
 * cut. Message m (#1), sent by rank 0 before its checkpoint, reaches rank 1
 * after rank 1's: it is recorded. Rank 0 checkpoints (3), its cut says #1
 * came before: rank 1 keeps m with its image. Message m' (#2), sent after
 * rank 0's checkpoint, is recorded on the way but not kept. The scheduler's
 * own marker reaches rank 0 late and is only noted. The wave commits, then
 * a failure rolls both ranks back to safe point 5 (4), where the runtime
 * would replay m (5); m' may be not sent again. */
Test(vcl_trace, a_wave_reads_like_figure_1) {
  struct cluster *c = cluster(2, 1.0);
  cluster_set_app(c, 0, 0.25, 0.1);
  cluster_set_latency(c, 2, 0, 0.2);  /* S -> 0 */
  cluster_set_latency(c, 0, 1, 0.05); /* 0 -> 1: its cut comes late */
  cr_assert_eq(cluster_script_message(c, 0, 1, 1.2, 0.1), 0);   /* m */
  cr_assert_eq(cluster_script_message(c, 0, 1, 1.36, 0.02), 0); /* m' */
  start(c);
  run_until_commit(c, 1, 10.0);
  cr_assert_eq(cluster_run_until(c, 1.9), 0, "%s", c->error);
  cr_assert_eq(cluster_rollback(c), 0, "%s", c->error);
  assert_trace(c, "[  1.000] S timer\n"
                  "            > markers of wave 1 to 0, 1\n"
                  "[  1.001] 1 < marker of wave 1 from S\n"
                  "            > marker proposing 5 to 0\n"
                  "[  1.002] 0 < marker proposing 5 from 1\n"
                  "            > marker proposing 4 to 1\n"
                  "[  1.052] 1 < marker proposing 4 from 0\n"
                  "[  1.200] 0 send #1 to 1\n"
                  "[  1.200] 0 < marker of wave 1 from S\n"
                  "[  1.250] 1 safe point 5\n"
                  "            > cut after #0 to 0\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "[  1.251] 0 < cut after #0 from 1\n"
                  "[  1.300] 1 deliver #1 from 0\n"
                  "            record #1\n"
                  "[  1.350] 0 safe point 5\n"
                  "            > cut after #1 to 1\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            store wave 1 with no channel state\n"
                  "[  1.360] 0 send #2 to 1\n"
                  "[  1.380] 1 deliver #2 from 0\n"
                  "            record #2\n"
                  "[  1.400] 1 < cut after #1 from 0\n"
                  "            store wave 1 keeping #1..#1 from 0\n"
                  "[  1.450] 0 image of wave 1 stored\n"
                  "            > done to S\n"
                  "[  1.451] S < done from 0\n"
                  "[  1.500] 1 image of wave 1 stored\n"
                  "            > done to S\n"
                  "[  1.501] S < done from 1\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.501\n"
                  "[  1.900] 0 rollback to wave 1 at safe point 5\n"
                  "[  1.900] 1 rollback to wave 1 at safe point 5\n"
                  "[  1.900] S rollback to wave 1\n"
                  "            next wave due at 2.900\n");
  cr_assert_eq(c->kept, 1, "m, and m alone");
  run_until_commit(c, 2, 10.0);
  cr_assert_eq(c->rank[0].checkpoint_at[2], c->rank[1].checkpoint_at[2]);
  cluster_free(c);
}

/* Rank 0's marker is slow to reach rank 1: rank 1 passes its proposal 5
 * before it knows K, retains a copy there, records what it receives from
 * then on, and is held at 6. K turns out to be 5: rank 1 checkpoints from
 * the retained copy and goes on. Message #1 from rank 0, sent before rank
 * 0's checkpoint and delivered after rank 1's safe point 5, is kept. */
Test(vcl_trace, a_rank_past_its_proposal_is_held_and_checkpoints_the_copy) {
  struct cluster *c = cluster(2, 1.0);
  cluster_set_app(c, 0, 0.25, 0.1);
  cluster_set_latency(c, 2, 0, 0.2);
  cluster_set_latency(c, 0, 1, 0.6);
  cr_assert_eq(cluster_script_message(c, 0, 1, 1.3, 0.1), 0);
  start(c);
  run_until_commit(c, 1, 10.0);
  assert_trace(c, "[  1.000] S timer\n"
                  "            > markers of wave 1 to 0, 1\n"
                  "[  1.001] 1 < marker of wave 1 from S\n"
                  "            > marker proposing 5 to 0\n"
                  "[  1.002] 0 < marker proposing 5 from 1\n"
                  "            > marker proposing 4 to 1\n"
                  "[  1.200] 0 < marker of wave 1 from S\n"
                  "[  1.250] 1 safe point 5\n"
                  "            retain safe point 5\n"
                  "[  1.300] 0 send #1 to 1\n"
                  "[  1.350] 0 safe point 5\n"
                  "            > cut after #1 to 1\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "[  1.400] 1 deliver #1 from 0\n"
                  "            record #1\n"
                  "[  1.500] 1 safe point 6\n"
                  "            held\n"
                  "[  1.602] 1 < marker proposing 4 from 0\n"
                  "            > cut after #0 to 0\n"
                  "            checkpoint wave 1 at safe point 5, the "
                  "retained copy\n"
                  "            released\n"
                  "[  1.603] 0 < cut after #0 from 1\n"
                  "            store wave 1 with no channel state\n"
                  "[  1.703] 0 image of wave 1 stored\n"
                  "            > done to S\n"
                  "[  1.704] S < done from 0\n"
                  "[  1.950] 1 < cut after #1 from 0\n"
                  "            store wave 1 keeping #1..#1 from 0\n"
                  "[  2.050] 1 image of wave 1 stored\n"
                  "            > done to S\n"
                  "[  2.051] S < done from 1\n"
                  "            commit wave 1\n"
                  "            next wave due at 3.051\n");
  cr_assert_eq(c->captures_retained, 1);
  cr_assert_eq(c->holds, 1);
  cluster_free(c);
}

/* One rank: no proposal to wait for, no cut to send; K is the next safe
 * point and the image is complete at once. */
Test(vcl_trace, a_single_rank_commits_with_no_message) {
  struct cluster *c = cluster(1, 1.0);
  start(c);
  run_until_commit(c, 2, 10.0);
  assert_trace(c, "[  1.000] S timer\n"
                  "            > marker of wave 1 to 0\n"
                  "[  1.001] 0 < marker of wave 1 from S\n"
                  "[  1.250] 0 safe point 5\n"
                  "            checkpoint wave 1 at safe point 5\n"
                  "            store wave 1 with no channel state\n"
                  "[  1.350] 0 image of wave 1 stored\n"
                  "            > done to S\n"
                  "[  1.351] S < done from 0\n"
                  "            commit wave 1\n"
                  "            next wave due at 2.351\n"
                  "[  2.351] S timer\n"
                  "            > marker of wave 2 to 0\n"
                  "[  2.352] 0 < marker of wave 2 from S\n"
                  "[  2.500] 0 safe point 10\n"
                  "            checkpoint wave 2 at safe point 10\n"
                  "            store wave 2 with no channel state\n"
                  "[  2.600] 0 image of wave 2 stored\n"
                  "            > done to S\n"
                  "[  2.601] S < done from 0\n"
                  "            commit wave 2\n"
                  "            next wave due at 3.601\n");
  cluster_free(c);
}

/* ---- One core, event by event: the scheduler -------------------------- */

Test(vcl_core, is_registered_recovers_and_has_a_scheduler) {
  const struct ft_protocol_ops *p = ft_protocol_find("vcl");
  cr_assert_eq(p, &ft_protocol_vcl);
  cr_assert_str_eq(p->name, "vcl");
  cr_assert_eq(p->family, FT_FAMILY_CHANNEL_STATE);
  cr_assert(ft_protocol_recovers(p));
  cr_assert(ft_protocol_has_scheduler(p));
  cr_assert_not(ft_protocol_restarts_alone(p));
  cr_assert_not_null(p->summary);
}

Test(vcl_core, rank_ranks_is_the_scheduler_and_others_are_rejected) {
  struct ft_core_config big = {.rank = 0, .ranks = 8, .period = 1.0};
  void *s = calloc(1, ft_protocol_vcl.state_size(&big));
  struct ft_core_config bad[] = {{.rank = 5, .ranks = 4},
                                 {.rank = -1, .ranks = 4},
                                 {.rank = 0, .ranks = 0},
                                 {.rank = 0, .ranks = -3}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(ft_protocol_vcl.init(s, &bad[i]), -1, "config %zu", i);
  struct ft_core_config scheduler = {.rank = 4, .ranks = 4, .period = 1.0};
  cr_assert_eq(ft_protocol_vcl.init(s, &scheduler), 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_IDLE);
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  free(s);
}

Test(vcl_core, state_grows_by_a_constant_number_of_bytes_per_rank) {
  struct ft_core_config a = {.rank = 0, .ranks = 100};
  struct ft_core_config b = {.rank = 0, .ranks = 101};
  struct ft_core_config c = {.rank = 102, .ranks = 102};
  size_t per_rank =
      ft_protocol_vcl.state_size(&b) - ft_protocol_vcl.state_size(&a);
  cr_assert_eq(ft_protocol_vcl.state_size(&c) - ft_protocol_vcl.state_size(&b),
               per_rank, "the scheduler needs no more");
  cr_assert_leq(per_rank, 128);
}

/* From pcl-vs-vcl-sc06, section 4.1: the scheduler "regularly sends
 * markers to every MPI process". */
Test(vcl_core, the_scheduler_sends_markers_to_every_rank_at_its_deadline) {
  struct ft_update u;
  void *s = core_new(3, 3, 2.0);
  cr_assert_eq(step(s, timer(1.999), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.deadline, 2.0);
  cr_assert_eq(step(s, timer(2.0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 3, 3, 1, 0);
  cr_assert_eq(u.n_sends, 3);
  cr_assert_eq(u.flags, 0);
  cr_assert_lt(u.deadline, 0.0);
  cr_assert_eq(ft_vcl_wave(s), 1);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_WAITING);
  cr_assert_eq(step(s, timer(50.0), &u), 0);
  cr_assert_eq(u.n_sends, 0, "one wave at a time");
  free(s);
}

/* From pcl-vs-vcl-sc06, section 4.1: "It then waits for an acknowledgment
 * of the end of the checkpoint from every MPI process before asserting the
 * end of the global checkpoint". */
Test(vcl_core, the_scheduler_commits_once_every_rank_is_done) {
  struct ft_update u;
  void *s = core_new(3, 3, 2.0);
  cr_assert_eq(step(s, timer(2.0), &u), 0);
  cr_assert_eq(step(s, done(0, 3, 1, 2.5), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, done(0, 3, 1, 2.5), &u), -1, "duplicate");
  cr_assert_eq(step(s, done(1, 3, 2, 2.5), &u), -1, "another wave");
  cr_assert_eq(step(s, done(2, 3, 1, 2.6), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_lt(u.deadline, 0.0);
  cr_assert_eq(step(s, done(1, 3, 1, 3.0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.deadline, 5.0, "a period after the commit");
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_IDLE);
  cr_assert_eq(step(s, done(2, 3, 1, 3.0), &u), -1, "no wave in progress");
  cr_assert_eq(step(s, timer(4.9), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, timer(5.0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 3, 3, 2, 0);
  free(s);
}

Test(vcl_core, the_scheduler_forgets_its_wave_at_a_rollback) {
  struct ft_update u;
  void *s = core_new(2, 2, 2.0);
  cr_assert_eq(step(s, timer(2.0), &u), 0);
  cr_assert_eq(step(s, done(0, 2, 1, 2.5), &u), 0);
  cr_assert_eq(step(s, rollback(0, 0, 3.0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(u.deadline, 5.0);
  cr_assert_eq(ft_vcl_wave(s), 0);
  cr_assert_eq(step(s, done(1, 2, 1, 3.5), &u), -1);
  cr_assert_eq(step(s, timer(5.0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 2, 2, 1, 0);
  cr_assert_eq(step(s, rollback(3, 0, 6.0), &u), 0);
  cr_assert_eq(step(s, timer(8.0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 2, 2, 4, 0);
  free(s);
}

Test(vcl_core, period_0_never_starts_a_wave) {
  struct ft_update u;
  void *s = core_new(2, 2, 0.0);
  cr_assert_eq(step(s, timer(1e9), &u), 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_lt(u.deadline, 0.0);
  cr_assert_eq(step(s, rollback(0, 0, 5.0), &u), 0);
  cr_assert_lt(u.deadline, 0.0);
  free(s);
}

/* The scheduler runs no application and receives only CHECKPOINT_DONE. */
Test(vcl_core, the_scheduler_rejects_everything_else) {
  struct ft_update u;
  void *s = core_new(2, 2, 1.0);
  cr_assert_eq(step(s, timer(1.0), &u), 0);
  struct ft_event bad[] = {
      safe_point(1),
      app(FT_EVENT_APP_SEND, 0),
      app(FT_EVENT_APP_RECV, 0),
      app(FT_EVENT_DELIVERED, 0),
      stored(1),
      marker(0, 2, 1, 3),
      cut(0, 2, 1, 0),
      done(2, 2, 1, 1.0), /* from itself */
      done(3, 2, 1, 1.0), /* outside the world */
      done(0, 1, 1, 1.0), /* not for the scheduler */
      rollback(-1, 0, 1.0),
      {.type = (enum ft_event_type)42},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(step(s, bad[i], &u), -1, "event %zu", i);
    cr_assert_eq(u.n_sends, 0);
    cr_assert_eq(u.flags, 0);
  }
  free(s);
}

/* ---- One core, event by event: an application rank -------------------- */

Test(vcl_core, application_ranks_pass_operations_and_ignore_timers) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  struct ft_event ok[] = {app(FT_EVENT_APP_SEND, 1), app(FT_EVENT_APP_SEND, 0),
                          app(FT_EVENT_APP_RECV, 1), app(FT_EVENT_APP_RECV, -1),
                          app(FT_EVENT_DELIVERED, 1)};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    cr_assert_eq(step(s, ok[i], &u), 0, "event %zu", i);
    cr_assert_eq(u.flags, FT_UPDATE_PASS);
    cr_assert_lt(u.deadline, 0.0);
    cr_assert_eq(u.n_sends, 0);
  }
  cr_assert_eq(step(s, timer(5.0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_lt(u.deadline, 0.0);
  free(s);
}

/* From pcl-vs-vcl-sc06, section 3: "When a process receives a marker, if
 * it has not started its checkpoint wave yet, it starts it": it proposes
 * its next safe point to every other rank. */
Test(vcl_core, the_first_notice_proposes_the_next_safe_point) {
  void *s = notified(1, 4);
  cr_assert_eq(ft_vcl_wave(s), 1);
  cr_assert_eq(ft_vcl_proposal(s), 5);
  cr_assert_eq(ft_vcl_cut_at(s), 0);
  cr_assert_eq(ft_vcl_held(s), 0);
  free(s);
}

/* A peer's marker may come first: it is the notice, and its proposal
 * counts. The scheduler's marker of the same wave, later, is only noted. */
Test(vcl_core, a_peer_marker_can_be_the_notice_and_k_is_the_highest) {
  struct ft_update u;
  void *s = core_new(1, 3, 1.0);
  pass_safe_points(s, 1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 7), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 1, 3, 1, 5);
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(ft_vcl_cut_at(s), 0, "rank 2 has not proposed");
  cr_assert_eq(step(s, marker(3, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, marker(3, 1, 1, 0), &u), -1, "a second one");
  cr_assert_eq(step(s, marker(2, 1, 1, 6), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_vcl_cut_at(s), 7);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_KNOWN);
  free(s);
}

/* With two ranks the peer's marker is the only proposal: K is known at
 * the notice. K known before the proposal is reached: no copy, no hold. */
Test(vcl_core, with_two_ranks_the_notice_can_settle_k_at_once) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  pass_safe_points(s, 1, 3);
  apps(s, FT_EVENT_APP_SEND, 1, 2);
  cr_assert_eq(step(s, marker(1, 0, 1, 4), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 0, 2, 1, 4);
  cr_assert_eq(ft_vcl_cut_at(s), 4);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.index, 4);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.n_sends, 1);
  assert_cut(&u, 0, 0, 1, 1, 2);
  free(s);
}

Test(vcl_core, k_ahead_of_the_proposal_is_reached_without_a_copy) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 7), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 6), &u), 0);
  cr_assert_eq(ft_vcl_cut_at(s), 7);
  apps(s, FT_EVENT_APP_SEND, 0, 2);
  apps(s, FT_EVENT_APP_SEND, 2, 1);
  pass_safe_points(s, 5, 6);
  cr_assert_eq(step(s, safe_point(7), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.index, 7);
  cr_assert_eq(u.n_sends, 2);
  assert_cut(&u, 0, 1, 0, 1, 2);
  assert_cut(&u, 1, 1, 2, 1, 1);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_RECORDING);
  free(s);
}

/* Rank 1 of 3 proposed 5, sent one message to rank 0 before it, passed it
 * (retaining a copy), sent two more, and is held at 6. */
static void *held_at_6(void) {
  struct ft_update u;
  void *s = notified(1, 4);
  apps(s, FT_EVENT_APP_SEND, 0, 1);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RETAIN);
  cr_assert_eq(u.n_sends, 0);
  apps(s, FT_EVENT_APP_SEND, 0, 2);
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_HOLD);
  cr_assert_eq(ft_vcl_held(s), 6);
  cr_assert_eq(step(s, safe_point(7), &u), -1, "a held rank moved on");
  return s;
}

/* A rank never runs two safe points past its proposal without knowing K:
 * held at p + 1, K == p + 1 checkpoints the held state. */
Test(vcl_core, k_at_the_held_safe_point_captures_it_and_releases) {
  struct ft_update u;
  void *s = held_at_6();
  cr_assert_eq(step(s, marker(0, 1, 1, 6), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE | FT_UPDATE_RELEASE);
  cr_assert_eq(u.index, 6);
  cr_assert_eq(u.wave, 1);
  assert_cut(&u, 0, 1, 0, 1, 3);
  assert_cut(&u, 1, 1, 2, 1, 0);
  cr_assert_eq(ft_vcl_held(s), 0);
  free(s);
}

Test(vcl_core, k_beyond_the_held_safe_point_releases) {
  struct ft_update u;
  void *s = held_at_6();
  cr_assert_eq(step(s, marker(0, 1, 1, 8), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_RELEASE);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_KNOWN);
  pass_safe_points(s, 7, 7);
  cr_assert_eq(step(s, safe_point(8), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.index, 8);
  assert_cut(&u, 0, 1, 0, 1, 3);
  free(s);
}

/* K == p after the rank passed p: the checkpoint is the retained copy, and
 * the cut counts the messages sent before p, not since. */
Test(vcl_core, k_at_the_proposal_when_held_captures_the_retained_copy) {
  struct ft_update u;
  void *s = held_at_6();
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 2), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE | FT_UPDATE_RELEASE);
  cr_assert_eq(u.index, 5);
  assert_cut(&u, 0, 1, 0, 1, 1);
  assert_cut(&u, 1, 1, 2, 1, 0);
  free(s);
}

Test(vcl_core, k_at_the_proposal_when_running_captures_the_retained_copy) {
  struct ft_update u;
  void *s = notified(1, 4);
  apps(s, FT_EVENT_APP_SEND, 0, 1);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RETAIN);
  apps(s, FT_EVENT_APP_SEND, 0, 2);
  cr_assert_eq(step(s, marker(2, 1, 1, 4), &u), 0);
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE, "running: nothing to release");
  cr_assert_eq(u.index, 5);
  assert_cut(&u, 0, 1, 0, 1, 1);
  free(s);
}

/* Asserts sends[first..] are all quiet (or all loud). */
static void assert_quiet(const struct ft_update *u, size_t first, int quiet) {
  cr_assert_gt(u->n_sends, first);
  for (size_t i = first; i < u->n_sends; i++)
    cr_assert_eq(u->sends[i].quiet, quiet, "send %zu to %d", i, u->sends[i].to);
}

static int wake_after(const void *s) { return ft_protocol_vcl.wake_after(s); }

/* Issue 18, item 2: markers and CUTs at safe points are quiet, and the
 * core asks to be woken only when as many are due as the next thing it
 * does needs: the notice (1), the last proposal (K), the last CUT (the
 * store). Every message before that count changes nothing the runtime
 * sees (no flag, no send), so taking it late changes nothing. */
Test(vcl_core, a_rank_wakes_only_for_the_quiet_messages_that_make_it_act) {
  struct ft_update u;
  void *s = core_new(1, 4, 1.0);
  pass_safe_points(s, 1, 4);
  cr_assert_eq(wake_after(s), 1, "idle: the next marker is a notice");
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 1, 4, 1, 5);
  assert_quiet(&u, 0, 1);
  cr_assert_eq(wake_after(s), 2, "two proposals missing");
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(wake_after(s), 1);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RETAIN);
  cr_assert_eq(step(s, cut(0, 1, 1, 0), &u), 0, "rank 0 knew K first");
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(wake_after(s), 1, "a CUT may come before the last marker");
  cr_assert_eq(step(s, marker(3, 1, 1, 5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE, "K = p, passed: the copy");
  cr_assert_eq(u.n_sends, 3);
  assert_quiet(&u, 0, 1);
  cr_assert_eq(wake_after(s), 2, "the CUTs of ranks 2 and 3");
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(wake_after(s), 1);
  cr_assert_eq(step(s, cut(3, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  cr_assert_eq(wake_after(s), 0, "storing: nothing quiet to wait for");
  cr_assert_eq(step(s, stored(1), &u), 0);
  cr_assert_eq(u.n_sends, 1);
  assert_quiet(&u, 0, 0); /* CHECKPOINT_DONE to the scheduler */
  cr_assert_eq(wake_after(s), 1, "idle again");
  free(s);
}

/* A CUT whose channel still waits for deliveries does not close it: the
 * count of missing CUTs reaches 0 and no quiet message is waited for (the
 * deliveries come with the application's own calls). */
Test(vcl_core, with_every_cut_in_no_quiet_message_is_waited_for) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  pass_safe_points(s, 1, 3);
  cr_assert_eq(step(s, marker(1, 0, 1, 4), &u), 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_KNOWN);
  cr_assert_eq(wake_after(s), 1, "rank 1's CUT");
  cr_assert_eq(step(s, cut(1, 0, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0, "not captured yet");
  cr_assert_eq(wake_after(s), 0);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(wake_after(s), 0, "two deliveries missing, no CUT");
  free(s);
}

/* The scheduler and the any-call mode send loud messages only. */
Test(vcl_core, the_scheduler_and_the_any_call_mode_are_loud) {
  struct ft_update u;
  void *sched = core_new(3, 3, 1.0);
  cr_assert_eq(step(sched, timer(1.0), &u), 0);
  assert_quiet(&u, 0, 0);
  cr_assert_eq(wake_after(sched), 0);
  free(sched);
  struct ft_core_config config = {
      .rank = 1, .ranks = 3, .period = 1.0, .any_call = 1};
  void *ac = calloc(1, ft_protocol_vcl.state_size(&config));
  cr_assert_not_null(ac);
  cr_assert_eq(ft_protocol_vcl.init(ac, &config), 0);
  cr_assert_eq(wake_after(ac), 0);
  struct ft_event call = {.type = FT_EVENT_CALL, .peer = -1, .index = 1};
  cr_assert_eq(step(ac, call, &u), 0);
  cr_assert_eq(step(ac, marker(3, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE | FT_UPDATE_FLUSH);
  assert_quiet(&u, 0, 0);
  free(ac);
}

/* Deliveries are recorded while they may be channel state: after p before
 * K is known (K may be p), and after the capture until the sender's cut
 * says the channel is complete. Then the STORE keeps exactly the messages
 * the cut counts that came after K. */
Test(vcl_core, deliveries_are_recorded_while_they_may_be_channel_state) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  apps(s, FT_EVENT_DELIVERED, 0, 1); /* #1, before p */
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(ft_vcl_recording(s, 0), 1);
  assert_recorded(s, 0, 2); /* K may be 5 */
  cr_assert_eq(step(s, marker(0, 1, 1, 6), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 1), &u), 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_KNOWN);
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  apps(s, FT_EVENT_DELIVERED, 0, 1); /* #3, before K = 6 */
  cr_assert_eq(step(s, safe_point(6), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(ft_vcl_recording(s, 0), 1);
  cr_assert_eq(ft_vcl_recording(s, 2), 1);
  assert_recorded(s, 0, 4);
  cr_assert_eq(step(s, cut(0, 1, 1, 4), &u), 0);
  cr_assert_eq(u.flags, 0, "rank 2's channel is still open");
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.n_keep, 1);
  assert_keep(&u, 0, 0, 4, 4);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_STORING);
  apps(s, FT_EVENT_DELIVERED, 0, 1); /* #5: after the wave's cut */
  cr_assert_eq(step(s, stored(1), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].kind, FT_VCL_CONTROL_CHECKPOINT_DONE);
  cr_assert_eq(u.sends[0].from, 1);
  cr_assert_eq(u.sends[0].to, 3, "the scheduler");
  cr_assert_eq(u.sends[0].wave, 1);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_IDLE);
  cr_assert_eq(ft_vcl_cut_at(s), 0);
  free(s);
}

/* Rank 1 of 3 at K = 5 with nothing delivered yet. */
static void *captured_at_5(void) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  return s;
}

/* The delivery that completes the last channel stores in the same step;
 * later deliveries are past the cut and not recorded. */
Test(vcl_core, the_last_awaited_delivery_stores_and_later_ones_pass) {
  struct ft_update u;
  void *s = captured_at_5();
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, cut(0, 1, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0);
  assert_recorded(s, 0, 1);
  cr_assert_eq(step(s, app(FT_EVENT_DELIVERED, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RECORD | FT_UPDATE_STORE);
  cr_assert_eq(u.index, 2);
  assert_keep(&u, 0, 0, 1, 2);
  cr_assert_eq(u.n_keep, 1);
  cr_assert_eq(step(s, app(FT_EVENT_DELIVERED, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  free(s);
}

/* Once a channel's cut is in and reached, its deliveries are not channel
 * state even while another channel is open. */
Test(vcl_core, a_closed_channel_records_no_more) {
  struct ft_update u;
  void *s = captured_at_5();
  cr_assert_eq(step(s, cut(0, 1, 1, 0), &u), 0);
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  cr_assert_eq(step(s, app(FT_EVENT_DELIVERED, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS);
  cr_assert_eq(ft_vcl_recording(s, 2), 1);
  free(s);
}

/* Cuts may come before the capture: they are kept, and a capture that
 * finds every channel complete stores at once. */
Test(vcl_core, cuts_before_the_capture_let_it_store_at_once) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  apps(s, FT_EVENT_DELIVERED, 0, 2);
  cr_assert_eq(step(s, cut(0, 1, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE | FT_UPDATE_STORE);
  cr_assert_eq(u.n_keep, 0);
  cr_assert_eq(u.n_sends, 2);
  free(s);
}

/* With the retained copy as the checkpoint, what was recorded after p is
 * the channel state, up to the cut. */
Test(vcl_core, a_retained_checkpoint_keeps_what_was_recorded_after_p) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  assert_recorded(s, 0, 1);
  assert_recorded(s, 0, 2);
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), -1, "its marker first");
  cr_assert_eq(step(s, marker(0, 1, 1, 3), &u), 0);
  cr_assert_eq(step(s, cut(0, 1, 1, 1), &u), 0, "not an orphan: K is 5");
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE);
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  cr_assert_eq(u.n_keep, 1);
  assert_keep(&u, 0, 0, 1, 1);
  free(s);
}

/* From pcl-vs-vcl-sc06, section 3: the message m' "may be not sent again
 * in the new execution" -- and a message sent after its sender's
 * checkpoint must not have been delivered before the receiver's. Such an
 * orphan is a protocol error, whichever of the cut and the capture comes
 * first. */
Test(vcl_core, an_orphan_is_a_protocol_error_after_the_capture) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  apps(s, FT_EVENT_DELIVERED, 0, 2);
  cr_assert_eq(step(s, safe_point(5), &u), 0);
  cr_assert_eq(step(s, cut(0, 1, 1, 1), &u), -1);
  cr_assert_eq(u.n_sends, 0);
  free(s);
}

Test(vcl_core, an_orphan_is_a_protocol_error_at_the_capture) {
  struct ft_update u;
  void *s = notified(1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 5), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 5), &u), 0);
  apps(s, FT_EVENT_DELIVERED, 0, 2);
  cr_assert_eq(step(s, cut(0, 1, 1, 1), &u), 0);
  cr_assert_eq(step(s, safe_point(5), &u), -1);
  cr_assert_eq(u.n_sends, 0, "no cut goes out");
  cr_assert_eq(u.flags, 0);
  free(s);
}

/* A rank's messages to itself are a channel too: sent before K, delivered
 * after, they are kept. */
Test(vcl_core, messages_to_itself_across_k_are_kept) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  pass_safe_points(s, 1, 2);
  cr_assert_eq(step(s, marker(2, 0, 1, 0), &u), 0);
  cr_assert_eq(step(s, marker(1, 0, 1, 3), &u), 0);
  apps(s, FT_EVENT_APP_SEND, 0, 2);
  apps(s, FT_EVENT_DELIVERED, 0, 1);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE);
  cr_assert_eq(u.n_sends, 1, "no cut to itself");
  assert_cut(&u, 0, 0, 1, 1, 0);
  cr_assert_eq(ft_vcl_recording(s, 0), 1);
  assert_recorded(s, 0, 2);
  cr_assert_eq(ft_vcl_recording(s, 0), 0);
  cr_assert_eq(step(s, cut(1, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  assert_keep(&u, 0, 0, 2, 2);
  free(s);
}

/* One rank: the scheduler's marker settles K = p; safe point p captures
 * and stores with no message at all. */
Test(vcl_core, a_single_rank_needs_no_message) {
  struct ft_update u;
  void *s = core_new(0, 1, 1.0), *sched = core_new(1, 1, 1.0);
  pass_safe_points(s, 1, 2);
  cr_assert_eq(step(sched, timer(1.0), &u), 0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(step(s,
                    (struct ft_event){.type = FT_EVENT_CONTROL,
                                      .peer = 1,
                                      .control = u.sends[0]},
                    &u),
               0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(ft_vcl_cut_at(s), 3);
  cr_assert_eq(step(s, safe_point(3), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE | FT_UPDATE_STORE);
  cr_assert_eq(u.index, 3);
  cr_assert_eq(u.n_keep, 0);
  cr_assert_null(u.keep);
  cr_assert_eq(step(s, stored(1), &u), 0);
  cr_assert_eq(u.sends[0].to, 1);
  cr_assert_eq(step(sched, done(0, 1, 1, 1.5), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_COMMIT);
  cr_assert_eq(u.deadline, 2.5);
  free(s);
  free(sched);
}

/* A scheduler marker slower than the whole wave is still only noted. */
Test(vcl_core, a_late_scheduler_marker_is_noted_even_after_the_wave) {
  struct ft_update u;
  void *s = core_new(0, 2, 1.0);
  cr_assert_eq(step(s, marker(1, 0, 1, 1), &u), 0);
  cr_assert_eq(step(s, cut(1, 0, 1, 0), &u), 0);
  cr_assert_eq(step(s, safe_point(1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE | FT_UPDATE_STORE);
  cr_assert_eq(step(s, stored(1), &u), 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_IDLE);
  cr_assert_eq(step(s, marker(1, 0, 1, 1), &u), -1, "its wave is over");
  cr_assert_eq(step(s, marker(2, 0, 2, 0), &u), -1, "wave 1's comes first");
  cr_assert_eq(step(s, marker(2, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_eq(step(s, marker(2, 0, 2, 0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 0, 2, 2, 2);
  free(s);
}

/* A ROLLBACK forgets the wave, the hold and the counts: the next wave is
 * c + 1 and its cuts count from the rollback. */
Test(vcl_core, rollback_forgets_the_wave_the_hold_and_the_counts) {
  struct ft_update u;
  void *s = held_at_6();
  cr_assert_eq(step(s, rollback(0, 2, 3.0), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(u.n_sends, 0);
  cr_assert_lt(u.deadline, 0.0);
  cr_assert_eq(ft_vcl_held(s), 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_IDLE);
  cr_assert_eq(ft_vcl_wave(s), 0);
  cr_assert_eq(ft_vcl_proposal(s), 0);
  pass_safe_points(s, 3, 3);
  cr_assert_eq(step(s, marker(3, 1, 1, 0), &u), 0);
  assert_broadcast(&u, 0, FT_VCL_CONTROL_MARKER, 1, 3, 1, 4);
  cr_assert_eq(step(s, marker(0, 1, 1, 4), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 4), &u), 0);
  cr_assert_eq(step(s, safe_point(4), &u), 0);
  assert_cut(&u, 0, 1, 0, 1, 0);
  free(s);
}

Test(vcl_core, a_rank_rolled_back_to_wave_3_expects_wave_4) {
  struct ft_update u;
  void *s = core_new(1, 2, 1.0);
  cr_assert_eq(step(s, rollback(3, 12, 4.0), &u), 0);
  cr_assert_eq(ft_vcl_wave(s), 3);
  cr_assert_eq(step(s, marker(2, 1, 3, 0), &u), -1);
  cr_assert_eq(step(s, marker(0, 1, 3, 9), &u), -1);
  cr_assert_eq(step(s, marker(2, 1, 4, 0), &u), 0);
  cr_assert_eq(u.sends[0].value, 13);
  cr_assert_eq(u.sends[0].wave, 4);
  free(s);
}

/* What cannot happen in a correct run is a protocol error (-1), and the
 * failed step sends nothing. */
Test(vcl_core, impossible_events_are_protocol_errors) {
  struct ft_update u;
  void *s = notified(1, 4);
  struct ft_event bad[] = {
      marker(2, 1, 2, 6),                        /* another wave */
      marker(1, 1, 1, 5),                        /* from itself */
      marker(2, 0, 1, 5),                        /* not for this rank */
      marker(4, 1, 1, 5),                        /* outside the world */
      marker(-1, 1, 1, 5),                       /* outside the world */
      marker(2, 1, 1, 0),                        /* no proposal */
      marker(3, 1, 1, 0),                        /* the scheduler's again */
      marker(3, 1, 2, 0),                        /* next wave, this one on */
      marker(3, 1, 1, 5),                        /* the scheduler proposes */
      cut(3, 1, 1, 0),                           /* from the scheduler */
      cut(2, 1, 1, 0),                           /* before its marker */
      control(FT_VCL_CONTROL_COUNT, 0, 1, 1, 0), /* no such kind */
      control(FT_VCL_CONTROL_CHECKPOINT_DONE, 0, 1, 1, 0),
      safe_point(7), /* skips 5 and 6 */
      stored(1),     /* nothing to store */
      app(FT_EVENT_DELIVERED, -1),
      app(FT_EVENT_DELIVERED, 3),
      app(FT_EVENT_APP_SEND, -1),
      app(FT_EVENT_APP_SEND, 3),
      app(FT_EVENT_APP_RECV, -2),
      app(FT_EVENT_APP_RECV, 3),
      rollback(-1, 0, 1.0),
      rollback(0, -1, 1.0),
      {.type = (enum ft_event_type)42},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(step(s, bad[i], &u), -1, "event %zu", i);
    cr_assert_eq(u.n_sends, 0);
    cr_assert_eq(u.flags, 0);
  }
  cr_assert_eq(step(s, marker(2, 1, 1, 6), &u), 0);
  cr_assert_eq(step(s, marker(2, 1, 1, 6), &u), -1, "duplicate marker");
  cr_assert_eq(step(s, cut(2, 1, 1, -1), &u), -1, "negative count");
  cr_assert_eq(step(s, cut(2, 1, 2, 0), &u), -1, "another wave");
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), 0);
  cr_assert_eq(step(s, cut(2, 1, 1, 0), &u), -1, "duplicate cut");
  cr_assert_eq(ft_vcl_proposal(s), 5, "nothing above changed the wave");
  free(s);
}

/* ---- Clusters ---------------------------------------------------------- */

Test(vcl_cluster, period_0_never_checkpoints) {
  struct cluster *c = cluster(4, 0.0);
  start(c);
  cr_assert_eq(cluster_run_until(c, 100.0), 0, "%s", c->error);
  cr_assert_eq(c->committed, 0);
  cr_assert_str_eq(cluster_trace(c), "");
  for (int r = 0; r < 4; r++)
    cr_assert_eq(c->rank[r].index, 400);
  cluster_free(c);
}

/* Against the application's contract, rank 1 sends a message after its
 * checkpoint at 5 that rank 0 receives before its own: the core of rank 0
 * refuses to checkpoint an inconsistent cut. */
Test(vcl_cluster, a_message_against_the_contract_is_an_orphan) {
  struct cluster *c = cluster(2, 1.0);
  cluster_set_app(c, 0, 0.25, 0.1);
  cr_assert_eq(cluster_script_message(c, 1, 0, 1.26, 0.01), 0);
  start(c);
  cr_assert_eq(cluster_run_until_commit(c, 1, 10.0), -1);
  cr_assert_str_eq(c->error, "[1.350] rank 0 rejects: safe point 5");
  cluster_free(c);
}

/* From pcl-vs-vcl-sc06, section 4.1: "The checkpoint scheduler starts a
 * new checkpoint wave only after the end of the previous one." */
Test(vcl_cluster, waves_start_a_period_after_the_previous_commit) {
  struct cluster *c = cluster(4, 2.0);
  for (int r = 0; r < 4; r++) {
    cluster_set_app(c, r, 0.3 + 0.05 * r, 0.0);
    cluster_set_edge(c, r, (r + 1) % 4, 1);
  }
  c->app_msgs = 2;
  c->app_forward = 0.5;
  c->trace_on = 0;
  start(c);
  run_until_commit(c, 5, 100.0);
  cr_assert_eq(c->requested_at[1], 2.0);
  for (int w = 2; w <= 5; w++)
    cr_assert_geq(c->requested_at[w], c->committed_at[w - 1] + 2.0, "wave %d",
                  w);
  cr_assert_gt(c->app_delivered, 0);
  cluster_free(c);
}

/* ---- Properties: random clusters ---------------------------------------- */

struct random_cluster {
  struct cluster *c;
  double bound; /* longest a wave may take from the previous commit */
};

/* A cluster of 2..6 ranks and the scheduler, with random iteration times,
 * offsets, store delays, latencies (a fifth of the channels slow), jitter,
 * and application traffic drawn from `seed`: a ring both ways plus random
 * edges (some to oneself), up to 3 messages per edge and iteration, 10% to
 * 60% of them forward. The bound is generous: a wave takes a period, a
 * round of markers, the slowest rank's iterations to reach K (ranks may
 * wait for one another every iteration), cuts and stores. */
static struct random_cluster random_cluster(uint64_t seed) {
  uint64_t x = seed;
  int ranks = 2 + (int)(cluster_splitmix64(&x) % 5);
  double period = cluster_uniform(&x, 0.3, 2.0);
  struct cluster *c = cluster(ranks, period);
  double it_max = 0, store_max = 0, lat_max = 0;
  for (int r = 0; r <= ranks; r++) {
    double it = cluster_uniform(&x, 0.05, 0.4);
    cluster_set_app(c, r, it, cluster_uniform(&x, 0.0, 0.3));
    c->rank[r].store_delay = cluster_uniform(&x, 0.01, 0.6);
    it_max = it > it_max ? it : it_max;
    store_max =
        c->rank[r].store_delay > store_max ? c->rank[r].store_delay : store_max;
    for (int to = 0; to <= ranks; to++) {
      int slow = cluster_uniform(&x, 0.0, 1.0) < 0.2;
      double lat = slow ? cluster_uniform(&x, 0.05, 0.5)
                        : cluster_uniform(&x, 0.0001, 0.05);
      cluster_set_latency(c, r, to, lat);
      lat_max = lat > lat_max ? lat : lat_max;
    }
  }
  for (int r = 0; r < ranks; r++)
    for (int to = 0; to < ranks; to++)
      cluster_set_edge(c, r, to,
                       to == (r + 1) % ranks || r == (to + 1) % ranks ||
                           cluster_uniform(&x, 0.0, 1.0) < 0.3);
  c->app_msgs = 1 + (int)(cluster_splitmix64(&x) % 3);
  c->app_forward = cluster_uniform(&x, 0.1, 0.6);
  c->jitter = cluster_uniform(&x, 0.0, 0.02);
  c->rng = x;
  c->trace_on = 0;
  lat_max += c->jitter;
  double bound = period + 8 * lat_max + 2 * store_max +
                 (double)(4 * ranks + 8) * (it_max + lat_max);
  return (struct random_cluster){c, bound};
}

/* Every rank checkpoints each wave at the same safe point, and each wave
 * starts a period after the previous commit. (The cluster checked at each
 * commit that the cut has no orphan and that the STOREs kept exactly the
 * messages in transit across it, each recorded.) */
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

static void run_waves(struct random_cluster *rc, int first, int last,
                      uint64_t seed) {
  struct cluster *c = rc->c;
  for (int w = first; w <= last; w++) {
    double limit = c->committed_at[w - 1] + rc->bound;
    cr_assert_eq(cluster_run_until_commit(c, w, limit), 0, "seed %llu: %s",
                 (unsigned long long)seed, c->error);
  }
  assert_waves_consistent(c, first, last, seed);
}

/* What the random runs went through, summed over the seeds. */
struct coverage {
  int64_t kept, retained, holds, delivered, replayed;
};

static void add_coverage(struct coverage *t, const struct cluster *c) {
  t->kept += c->kept;
  t->retained += c->captures_retained;
  t->holds += c->holds;
  t->delivered += c->app_delivered;
  t->replayed += c->replayed;
}

/* The runs must exercise what the properties are about: channel state,
 * checkpoints from a retained copy, holds at p + 1. */
static void assert_covered(const struct coverage *t) {
  cr_assert_gt(t->delivered, 10000, "%lld", (long long)t->delivered);
  cr_assert_gt(t->kept, 100, "%lld", (long long)t->kept);
  cr_assert_gt(t->retained, 50, "%lld", (long long)t->retained);
  cr_assert_gt(t->holds, 50, "%lld", (long long)t->holds);
}

/* For 200 seeds: five waves commit in order, within the bound (no rank is
 * held forever), every rank of a wave checkpoints at the same safe point,
 * and the cluster's own bookkeeping agrees with every STORE. */
Test(vcl_cluster, five_waves_commit_consistent_cuts_on_200_random_clusters) {
  struct coverage total = {0};
  for (uint64_t seed = 1; seed <= 200; seed++) {
    struct random_cluster rc = random_cluster(seed);
    start(rc.c);
    run_waves(&rc, 1, 5, seed);
    for (int r = 0; r < rc.c->ranks; r++)
      cr_assert_eq(rc.c->rank[r].checkpoints, 5);
    add_coverage(&total, rc.c);
    cluster_free(rc.c);
  }
  assert_covered(&total);
}

/* For 200 seeds: two failures at random instants (within a few waves),
 * each followed by waves that commit as cleanly from the rolled-back state.
 * Message numbers and counts restart; for odd seeds the senders re-send
 * the committed channel state first, as the runtime does, and both cores
 * count it. */
Test(vcl_cluster, waves_commit_after_random_rollbacks_on_200_clusters) {
  struct coverage total = {0};
  for (uint64_t seed = 1001; seed <= 1200; seed++) {
    struct random_cluster rc = random_cluster(seed);
    struct cluster *c = rc.c;
    uint64_t x = seed * 31;
    c->replay = seed % 2; /* as the runtime does, or not modelled */
    start(c);
    for (int failure = 0; failure < 2; failure++) {
      double when = c->time + cluster_uniform(&x, 0.0, 3 * c->period + 3.0);
      cr_assert_eq(cluster_run_until(c, when), 0, "seed %llu: %s",
                   (unsigned long long)seed, c->error);
      int kept = c->committed;
      c->committed_at[kept] = c->time; /* the next wave counts from here */
      cr_assert_eq(cluster_rollback(c), 0, "seed %llu: %s",
                   (unsigned long long)seed, c->error);
      for (int r = 0; r < c->ranks; r++)
        cr_assert_eq(c->rank[r].index,
                     kept ? c->rank[r].checkpoint_at[kept] : 0);
      run_waves(&rc, kept + 1, kept + 2, seed);
    }
    add_coverage(&total, c);
    cluster_free(c);
  }
  assert_covered(&total);
  cr_assert_gt(total.replayed, 20, "%lld", (long long)total.replayed);
}

/* ---- Any-call mode (pcl-vs-vcl-sc06, section 3, Figure 1) ------------ */

static void *anycall_new(int rank, int ranks) {
  struct ft_core_config config = {
      .rank = rank, .ranks = ranks, .period = 1.0, .any_call = 1};
  void *state = calloc(1, ft_protocol_vcl.state_size(&config));
  cr_assert_not_null(state);
  cr_assert_eq(ft_protocol_vcl.init(state, &config), 0);
  return state;
}

static struct ft_event ac_event(enum ft_event_type type, int peer,
                                int64_t index) {
  return (struct ft_event){
      .type = type, .time = 1.0, .peer = peer, .tag = 0, .index = index};
}

static unsigned flags_of(void *s, struct ft_event e) {
  struct ft_update u;
  cr_assert_eq(step(s, e, &u), 0, "event %d refused", (int)e.type);
  return u.flags;
}

Test(vcl_anycall, the_first_marker_captures_in_the_call_then_records) {
  void *s = anycall_new(1, 3);
  struct ft_update u;
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_CALL, -1, 1)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_APP_SEND, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 2, 0)), FT_UPDATE_PASS);
  /* The scheduler's marker while blocked in call 1: capture now, markers
   * with the counts sent before (1 to rank 0, 0 to rank 2). */
  cr_assert_eq(step(s, marker(3, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_CAPTURE | FT_UPDATE_FLUSH);
  cr_assert_eq(u.wave, 1);
  cr_assert_eq(u.index, 1, "the call");
  cr_assert_eq(u.n_sends, 2);
  cr_assert_eq(u.sends[0].to, 0);
  cr_assert_eq(u.sends[0].value, 1);
  cr_assert_eq(u.sends[1].to, 2);
  cr_assert_eq(u.sends[1].value, 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_RECORDING);
  /* Rank 2's message 2 arrives before its marker (value 2): channel
   * state, arrival number 2; the marker closes the channel. */
  cr_assert_eq(step(s, ac_event(FT_EVENT_ARRIVED, 2, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_RECORD);
  cr_assert_eq(u.index, 2);
  cr_assert_eq(step(s, marker(2, 1, 1, 2), &u), 0);
  cr_assert_eq(u.flags, 0);
  /* Rank 0 sent nothing before its marker: every channel closed. */
  cr_assert_eq(step(s, marker(0, 1, 1, 0), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_STORE);
  cr_assert_eq(u.n_keep, 1);
  cr_assert_eq(u.keep[0].peer, 2);
  cr_assert_eq(u.keep[0].first, 2);
  cr_assert_eq(u.keep[0].last, 2);
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 2, 0)), FT_UPDATE_PASS,
               "after the marker: not channel state");
  free(s);
}

Test(vcl_anycall, a_rank_between_calls_queues_what_follows_a_marker) {
  void *s = anycall_new(0, 2);
  struct ft_update u;
  /* Rank 1's marker (1 message before it) while rank 0 computes. */
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 1, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s, marker(1, 0, 1, 1), &u), 0);
  cr_assert_eq(u.flags, 0);
  cr_assert_eq(ft_vcl_phase(s), FT_VCL_DUE);
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 1, 0)), FT_UPDATE_QUEUE,
               "sent after rank 1's checkpoint: not in my image");
  cr_assert_eq(step(s, ac_event(FT_EVENT_CALL, -1, 1), &u), 0);
  cr_assert_eq(u.flags, FT_UPDATE_PASS | FT_UPDATE_CAPTURE | FT_UPDATE_FLUSH |
                            FT_UPDATE_STORE);
  cr_assert_eq(u.n_keep, 0);
  cr_assert_eq(u.n_sends, 1);
  cr_assert_eq(u.sends[0].value, 0);
  /* The scheduler's marker comes late: noted. */
  cr_assert_eq(step(s, marker(2, 0, 1, 0), &u), 0);
  cr_assert_eq(u.flags, 0);
  free(s);
}

Test(vcl_anycall, impossible_events_are_protocol_errors) {
  void *s = anycall_new(1, 3);
  struct ft_update u;
  cr_assert_eq(step(s, ac_event(FT_EVENT_CALL, -1, 2), &u), -1,
               "calls skipped");
  cr_assert_eq(step(s, ac_event(FT_EVENT_CALL_END, -1, 1), &u), -1,
               "not in one");
  cr_assert_eq(step(s, cut(0, 1, 1, 0), &u), -1, "no CUT in this mode");
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(flags_of(s, ac_event(FT_EVENT_ARRIVED, 0, 0)), FT_UPDATE_PASS);
  cr_assert_eq(step(s, marker(0, 1, 1, 1), &u), -1,
               "a message sent after the marker was fed before it");
  cr_assert_eq(step(s, ac_event(FT_EVENT_ARRIVED, 3, 0), &u), -1);
  free(s);
  s = core_new(1, 3, 1.0);
  cr_assert_eq(step(s, ac_event(FT_EVENT_CALL, -1, 1), &u), -1);
  cr_assert_eq(step(s, ac_event(FT_EVENT_ARRIVED, 0, 0), &u), -1);
  free(s);
}
