/* A deterministic in-memory cluster of protocol cores (see core_cluster.h). */
#include "core_cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps allowed at one instant before the cluster calls it a livelock. */
#define CLUSTER_MAX_SAME_INSTANT 100000

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

double cluster_uniform(uint64_t *x, double lo, double hi) {
  double u = (double)(cluster_splitmix64(x) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

PRINTF_LIKE(2, 3)
static void trace(struct cluster *c, const char *fmt, ...) {
  size_t room = sizeof c->trace - c->trace_len;
  if (!c->trace_on || room <= 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(c->trace + c->trace_len, room, fmt, ap);
  va_end(ap);
  if (n > 0)
    c->trace_len += (size_t)n < room ? (size_t)n : room - 1;
}

PRINTF_LIKE(2, 3)
static int fail(struct cluster *c, const char *fmt, ...) {
  if (c->error[0] == '\0') {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
  }
  return -1;
}

struct cluster *cluster_new(const struct ft_protocol_ops *ops, int ranks,
                            double period) {
  if (ranks < 1 || ranks > CLUSTER_MAX_RANKS)
    return NULL;
  struct cluster *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->ops = ops;
  c->ranks = ranks;
  c->period = period;
  c->trace_on = 1;
  for (int r = 0; r < ranks; r++) {
    c->rank[r].iteration = 0.25;
    c->rank[r].store_delay = 0.1;
    for (int to = 0; to < ranks; to++)
      c->latency[r][to] = 0.001;
  }
  return c;
}

void cluster_free(struct cluster *c) {
  if (!c)
    return;
  for (int r = 0; r < c->ranks; r++)
    free(c->rank[r].state);
  free(c);
}

void cluster_set_latency(struct cluster *c, int from, int to, double seconds) {
  c->latency[from][to] = seconds;
}

void cluster_set_app(struct cluster *c, int rank, double iteration,
                     double offset) {
  c->rank[rank].iteration = iteration;
  c->rank[rank].offset = offset;
}

int cluster_start(struct cluster *c) {
  c->time = c->start;
  for (int r = 0; r < c->ranks; r++) {
    struct cluster_rank *k = &c->rank[r];
    struct ft_core_config config = {
        .rank = r, .ranks = c->ranks, .period = c->period, .start = c->start};
    k->state = calloc(1, c->ops->state_size(&config));
    if (!k->state || c->ops->init(k->state, &config) != 0)
      return fail(c, "rank %d: init failed", r);
    k->deadline = r == 0 && c->period > 0 ? c->start + c->period : -1.0;
    k->next = c->start + k->offset + k->iteration;
  }
  return 0;
}

const char *cluster_trace(const struct cluster *c) { return c->trace; }

void cluster_trace_clear(struct cluster *c) {
  c->trace_len = 0;
  c->trace[0] = '\0';
}

/* ---- Scheduling ---------------------------------------------------- */

static int schedule(struct cluster *c, struct cluster_item item) {
  if (c->n_pending == CLUSTER_MAX_PENDING)
    return fail(c, "too many pending items");
  item.seq = c->seq++;
  c->pending[c->n_pending++] = item;
  return 0;
}

static int send_control(struct cluster *c, const struct ft_control *m) {
  double delay = c->latency[m->from][m->to];
  if (c->jitter > 0)
    delay += cluster_uniform(&c->rng, 0.0, c->jitter);
  return schedule(
      c, (struct cluster_item){.time = c->time + delay, .control = *m});
}

/* The earliest pending thing: class 0 an item (id: its slot), 1 a timer,
 * 2 a safe point (id: the rank). */
struct next {
  double time;
  int cls;
  uint64_t order; /* seq for items, rank otherwise */
  size_t id;
};

static int before(const struct next *a, const struct next *b) {
  if (a->time != b->time)
    return a->time < b->time;
  if (a->cls != b->cls)
    return a->cls < b->cls;
  return a->order < b->order;
}

static void consider(struct next *best, int *found, struct next n) {
  if (!*found || before(&n, best))
    *best = n;
  *found = 1;
}

static int find_next(const struct cluster *c, struct next *best) {
  int found = 0;
  for (size_t i = 0; i < c->n_pending; i++)
    consider(best, &found,
             (struct next){c->pending[i].time, 0, c->pending[i].seq, i});
  for (int r = 0; r < c->ranks; r++) {
    const struct cluster_rank *k = &c->rank[r];
    if (k->deadline >= 0)
      consider(best, &found,
               (struct next){k->deadline > c->time ? k->deadline : c->time, 1,
                             (uint64_t)r, (size_t)r});
    if (!k->held)
      consider(best, &found, (struct next){k->next, 2, (uint64_t)r, (size_t)r});
  }
  return found;
}

/* ---- The narrative ------------------------------------------------- */

static const char *kind_name(enum ft_control_kind kind) {
  switch (kind) {
  case FT_CONTROL_WAVE_REQUEST:
    return "wave request";
  case FT_CONTROL_POSITION:
    return "position";
  case FT_CONTROL_WAVE_AT:
    return "wave at";
  case FT_CONTROL_MARKER:
    return "marker";
  case FT_CONTROL_CHECKPOINT_DONE:
    return "done";
  }
  return "?";
}

/* The event line, without its "[time] rank " prefix. */
static void describe_event(const struct cluster *c, int r,
                           const struct ft_event *e, char *out, size_t size) {
  const struct ft_control *m = &e->control;
  switch (e->type) {
  case FT_EVENT_TIMER:
    snprintf(out, size, "timer, position %lld", (long long)c->rank[r].index);
    return;
  case FT_EVENT_SAFE_POINT:
    snprintf(out, size, "safe point %lld", (long long)e->index);
    return;
  case FT_EVENT_IMAGE_STORED:
    snprintf(out, size, "image of wave %d stored", e->wave);
    return;
  case FT_EVENT_ROLLBACK:
    snprintf(out, size, "rollback to wave %d at safe point %lld", e->wave,
             (long long)e->index);
    return;
  case FT_EVENT_CONTROL:
    break;
  default:
    snprintf(out, size, "event %d", (int)e->type);
    return;
  }
  switch (m->kind) {
  case FT_CONTROL_WAVE_REQUEST:
    snprintf(out, size, "< wave %d request from %d", m->wave, m->from);
    break;
  case FT_CONTROL_POSITION:
    snprintf(out, size, "< position %lld from %d", (long long)m->value,
             m->from);
    break;
  case FT_CONTROL_WAVE_AT:
    snprintf(out, size, "< wave %d at safe point %lld", m->wave,
             (long long)m->value);
    break;
  case FT_CONTROL_MARKER:
    if (c->rank[r].marked_wave == m->wave)
      snprintf(out, size, "< marker from %d", m->from);
    else
      snprintf(out, size, "< marker from %d: channel %d->%d delayed", m->from,
               m->from, r);
    break;
  case FT_CONTROL_CHECKPOINT_DONE:
    snprintf(out, size, "< done from %d", m->from);
    break;
  }
}

/* One line for a run of sends of the same kind, wave and value. */
static size_t trace_sends(struct cluster *c, const struct ft_update *u,
                          size_t i, int indent) {
  const struct ft_control *m = &u->sends[i];
  size_t end = i + 1;
  while (end < u->n_sends && u->sends[end].kind == m->kind &&
         u->sends[end].wave == m->wave && u->sends[end].value == m->value)
    end++;
  char what[64];
  if (m->kind == FT_CONTROL_WAVE_REQUEST)
    snprintf(what, sizeof what, "wave %d request", m->wave);
  else if (m->kind == FT_CONTROL_POSITION)
    snprintf(what, sizeof what, "position %lld", (long long)m->value);
  else if (m->kind == FT_CONTROL_WAVE_AT)
    snprintf(what, sizeof what, "wave %d at safe point %lld", m->wave,
             (long long)m->value);
  else
    snprintf(what, sizeof what, "%s%s", kind_name(m->kind),
             m->kind == FT_CONTROL_MARKER && end - i > 1 ? "s" : "");
  trace(c, "%*s> %s to %d", indent, "", what, m->to);
  for (size_t j = i + 1; j < end; j++)
    trace(c, ", %d", u->sends[j].to);
  trace(c, "\n");
  return end;
}

static int interesting(const struct ft_event *e, const struct ft_update *u,
                       double old_deadline) {
  if (e->type != FT_EVENT_TIMER && e->type != FT_EVENT_SAFE_POINT)
    return 1;
  return u->flags != FT_UPDATE_PASS || u->n_sends > 0 ||
         u->deadline != old_deadline;
}

static void trace_step(struct cluster *c, int r, const char *head,
                       const struct ft_update *u, double old_deadline) {
  int indent = snprintf(NULL, 0, "[%7.3f] %d ", c->time, r);
  int64_t at = c->rank[r].index;
  trace(c, "[%7.3f] %d %s\n", c->time, r, head);
  for (size_t i = 0; i < u->n_sends;)
    i = trace_sends(c, u, i, indent);
  if (u->flags & FT_UPDATE_CHECKPOINT)
    trace(c, "%*scheckpoint wave %d at safe point %lld\n", indent, "", u->wave,
          (long long)at);
  if (u->flags & FT_UPDATE_HOLD)
    trace(c, "%*sheld\n", indent, "");
  if (u->flags & FT_UPDATE_RELEASE)
    trace(c, "%*sreleased\n", indent, "");
  if (u->flags & FT_UPDATE_COMMIT)
    trace(c, "%*scommit wave %d\n", indent, "", u->wave);
  if (u->deadline >= 0 && u->deadline != old_deadline)
    trace(c, "%*snext wave due at %.3f\n", indent, "", u->deadline);
}

/* ---- Checking and carrying out an update --------------------------- */

static int check_sends(struct cluster *c, int r, const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++) {
    const struct ft_control *m = &u->sends[i];
    if (m->from != r || m->to < 0 || m->to >= c->ranks || m->to == r)
      return fail(c, "rank %d sends %s %d -> %d", r, kind_name(m->kind),
                  m->from, m->to);
  }
  return 0;
}

static int check_flags(struct cluster *c, int r, const struct ft_event *e,
                       const struct ft_update *u) {
  unsigned f = u->flags;
  int at_safe_point = e->type == FT_EVENT_SAFE_POINT;
  if (at_safe_point && !(f & FT_UPDATE_PASS) == !(f & FT_UPDATE_HOLD))
    return fail(c, "rank %d: safe point needs PASS or HOLD", r);
  if (!at_safe_point && (f & FT_UPDATE_HOLD))
    return fail(c, "rank %d: HOLD outside a safe point", r);
  if ((f & FT_UPDATE_RELEASE) && !c->rank[r].held)
    return fail(c, "rank %d: RELEASE of a running application", r);
  return 0;
}

/* From pcl-vs-vcl-fgcs08, section 3: "When a process has received the
 * marker of every other process, it checkpoints". */
static int check_checkpoint(struct cluster *c, int r, const struct ft_event *e,
                            const struct ft_update *u) {
  const struct cluster_rank *k = &c->rank[r];
  if (u->wave < 1 || u->wave > CLUSTER_MAX_WAVES)
    return fail(c, "rank %d: checkpoint of wave %d", r, u->wave);
  if (!k->held && e->type != FT_EVENT_SAFE_POINT)
    return fail(c, "rank %d: checkpoint away from a safe point", r);
  int marked = k->marked_wave == u->wave;
  for (size_t i = 0; i < u->n_sends; i++)
    marked |=
        u->sends[i].kind == FT_CONTROL_MARKER && u->sends[i].wave == u->wave;
  if (c->ranks > 1 &&
      (!marked || k->markers_wave != u->wave || k->markers_in != c->ranks - 1))
    return fail(c, "rank %d: checkpoint of wave %d without every marker", r,
                u->wave);
  return 0;
}

static int check_commit(struct cluster *c, int r, const struct ft_update *u) {
  if (r != 0 || u->wave != c->committed + 1 || u->wave > CLUSTER_MAX_WAVES)
    return fail(c, "rank %d: commit of wave %d after %d", r, u->wave,
                c->committed);
  for (int p = 0; p < c->ranks; p++)
    if (c->rank[p].checkpoint_at[u->wave] == 0)
      return fail(c, "commit of wave %d before rank %d checkpoints", u->wave,
                  p);
  return 0;
}

static int check_update(struct cluster *c, int r, const struct ft_event *e,
                        const struct ft_update *u) {
  if (check_sends(c, r, u) || check_flags(c, r, e, u))
    return -1;
  if ((u->flags & FT_UPDATE_CHECKPOINT) && check_checkpoint(c, r, e, u))
    return -1;
  if ((u->flags & FT_UPDATE_COMMIT) && check_commit(c, r, u))
    return -1;
  return 0;
}

static int carry_out_sends(struct cluster *c, int r,
                           const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++) {
    const struct ft_control *m = &u->sends[i];
    if (m->kind == FT_CONTROL_MARKER)
      c->rank[r].marked_wave = m->wave;
    if (m->kind == FT_CONTROL_WAVE_REQUEST && m->wave <= CLUSTER_MAX_WAVES)
      c->requested_at[m->wave] = c->time;
    if (send_control(c, m))
      return -1;
  }
  return 0;
}

static int carry_out(struct cluster *c, int r, const struct ft_event *e,
                     const struct ft_update *u) {
  struct cluster_rank *k = &c->rank[r];
  k->deadline = u->deadline;
  if (carry_out_sends(c, r, u))
    return -1;
  if (u->flags & FT_UPDATE_CHECKPOINT) {
    k->checkpoint_at[u->wave] = k->index;
    k->checkpoints++;
    if (schedule(c, (struct cluster_item){.time = c->time + k->store_delay,
                                          .stored = 1,
                                          .rank = r,
                                          .wave = u->wave}))
      return -1;
  }
  if (u->flags & FT_UPDATE_HOLD)
    k->held = 1;
  if ((u->flags & FT_UPDATE_RELEASE) ||
      (e->type == FT_EVENT_SAFE_POINT && (u->flags & FT_UPDATE_PASS))) {
    k->held = 0;
    k->next = c->time + k->iteration;
  }
  if (u->flags & FT_UPDATE_COMMIT) {
    c->committed = u->wave;
    c->committed_at[u->wave] = c->time;
  }
  return 0;
}

/* Feeds `e` to rank r's core, checks and carries out the update, traces. */
static int deliver(struct cluster *c, int r, struct ft_event *e) {
  struct cluster_rank *k = &c->rank[r];
  char head[128];
  struct ft_update u;
  double old_deadline = k->deadline;
  e->time = c->time;
  describe_event(c, r, e, head, sizeof head);
  if (c->ops->step(k->state, e, &u) != 0)
    return fail(c, "[%.3f] rank %d rejects: %s", c->time, r, head);
  if (check_update(c, r, e, &u))
    return -1;
  if (interesting(e, &u, old_deadline))
    trace_step(c, r, head, &u, old_deadline);
  return carry_out(c, r, e, &u);
}

/* ---- Steps --------------------------------------------------------- */

static int deliver_item(struct cluster *c, size_t slot) {
  struct cluster_item item = c->pending[slot];
  c->pending[slot] = c->pending[--c->n_pending];
  if (item.stored)
    return deliver(c, item.rank,
                   &(struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                      .peer = -1,
                                      .wave = item.wave});
  struct cluster_rank *k = &c->rank[item.control.to];
  if (item.control.kind == FT_CONTROL_MARKER) {
    if (k->markers_wave != item.control.wave)
      k->markers_in = 0;
    k->markers_wave = item.control.wave;
    k->markers_in++;
  }
  return deliver(c, item.control.to,
                 &(struct ft_event){.type = FT_EVENT_CONTROL,
                                    .peer = item.control.from,
                                    .control = item.control});
}

static int reach_safe_point(struct cluster *c, int r) {
  struct cluster_rank *k = &c->rank[r];
  k->index++;
  return deliver(c, r,
                 &(struct ft_event){.type = FT_EVENT_SAFE_POINT,
                                    .peer = -1,
                                    .index = k->index});
}

int cluster_step(struct cluster *c) {
  struct next n;
  if (c->error[0])
    return -1;
  if (!find_next(c, &n))
    return 0;
  c->steps++;
  c->same_instant = n.time == c->time ? c->same_instant + 1 : 0;
  if (c->same_instant > CLUSTER_MAX_SAME_INSTANT)
    return fail(c, "livelock at %.3f", c->time);
  c->time = n.time;
  int rc = n.cls == 0 ? deliver_item(c, n.id)
           : n.cls == 1
               ? deliver(c, (int)n.id,
                         &(struct ft_event){.type = FT_EVENT_TIMER, .peer = -1})
               : reach_safe_point(c, (int)n.id);
  return rc < 0 ? -1 : 1;
}

int cluster_run_until(struct cluster *c, double time) {
  struct next n;
  while (find_next(c, &n) && n.time <= time)
    if (cluster_step(c) < 0)
      return -1;
  if (c->error[0])
    return -1;
  if (!find_next(c, &n))
    return fail(c, "deadlock at %.3f", c->time);
  c->time = time;
  return 0;
}

int cluster_run_until_commit(struct cluster *c, int wave, double limit) {
  struct next n;
  while (c->committed < wave) {
    if (!find_next(c, &n))
      return fail(c, "deadlock at %.3f waiting for wave %d", c->time, wave);
    if (n.time > limit)
      return fail(c, "wave %d not committed by %.3f", wave, limit);
    if (cluster_step(c) < 0)
      return -1;
  }
  return 0;
}

/* ---- Failures ------------------------------------------------------ */

static void forget_after(struct cluster *c, int wave) {
  for (int w = wave + 1; w <= CLUSTER_MAX_WAVES; w++) {
    c->requested_at[w] = c->committed_at[w] = 0;
    for (int r = 0; r < c->ranks; r++)
      c->rank[r].checkpoint_at[w] = 0;
  }
}

int cluster_rollback(struct cluster *c) {
  int wave = c->committed;
  c->n_pending = 0; /* the stale incarnation's messages and images */
  for (int r = 0; r < c->ranks; r++) {
    struct cluster_rank *k = &c->rank[r];
    int64_t at = wave > 0 ? k->checkpoint_at[wave] : 0;
    k->index = at;
    k->held = 0;
    k->marked_wave = k->markers_wave = k->markers_in = 0;
    k->next = c->time + k->iteration;
    if (deliver(c, r,
                &(struct ft_event){.type = FT_EVENT_ROLLBACK,
                                   .peer = -1,
                                   .index = at,
                                   .wave = wave}))
      return -1;
  }
  forget_after(c, wave);
  return 0;
}
