/* A deterministic in-memory cluster of protocol cores (see core_cluster.h). */
#include "core_cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bookmark/bookmark.h"
#include "pcl/pcl.h"
#include "vcl/vcl.h"

/* Steps allowed at one instant before the cluster calls it a livelock. */
#define CLUSTER_MAX_SAME_INSTANT 100000

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

double cluster_uniform(uint64_t *x, double lo, double hi) {
  double u = (double)(cluster_splitmix64(x) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * u;
}

/* Appends n bytes to the trace and its hash; with trace_tail, drops the
 * oldest half (at a line boundary) when the text would not fit. */
static void trace_append(struct cluster *c, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    c->trace_hash ^= (unsigned char)s[i];
    c->trace_hash *= 0x100000001b3u; /* FNV-1a */
  }
  if (c->trace_tail && c->trace_len + n + 1 > sizeof c->trace) {
    size_t cut = c->trace_len / 2;
    const char *nl = memchr(c->trace + cut, '\n', c->trace_len - cut);
    cut = nl ? (size_t)(nl - c->trace) + 1 : c->trace_len;
    memmove(c->trace, c->trace + cut, c->trace_len - cut);
    c->trace_len -= cut;
  }
  size_t room = sizeof c->trace - c->trace_len;
  if (room <= 1)
    return;
  n = n < room - 1 ? n : room - 1;
  memcpy(c->trace + c->trace_len, s, n);
  c->trace_len += n;
  c->trace[c->trace_len] = '\0';
}

PRINTF_LIKE(2, 3)
static void trace(struct cluster *c, const char *fmt, ...) {
  if (!c->trace_on)
    return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0)
    trace_append(c, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void cluster_note(struct cluster *c, const char *fmt, ...) {
  if (!c->trace_on)
    return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  trace(c, "[%7.3f] %s\n", c->time, line);
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

/* The cores the cluster runs: the ranks, and the scheduler if any. */
static int slots(const struct cluster *c) {
  return c->ranks + (ft_protocol_has_scheduler(c->ops) ? 1 : 0);
}

static int is_scheduler(const struct cluster *c, int r) {
  return ft_protocol_has_scheduler(c->ops) && r == c->ranks;
}

/* The rank that owns the deadline and commits. */
static int coordinator(const struct cluster *c) {
  return ft_protocol_has_scheduler(c->ops) ? c->ranks : 0;
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
  c->trace_hash = 0xcbf29ce484222325u; /* FNV-1a's offset basis */
  c->fifo = ft_protocol_has_scheduler(ops);
  for (int r = 0; r < CLUSTER_SLOTS; r++) {
    c->rank[r].iteration = 0.25;
    c->rank[r].store_delay = 0.1;
    for (int to = 0; to < CLUSTER_SLOTS; to++)
      c->latency[r][to] = 0.001;
  }
  return c;
}

void cluster_free(struct cluster *c) {
  if (!c)
    return;
  for (int r = 0; r < CLUSTER_SLOTS; r++)
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

void cluster_set_edge(struct cluster *c, int from, int to, int on) {
  c->app_edge[from][to] = on ? 1 : 0;
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
  double at = c->time + delay;
  if (c->fifo) {
    double *last = &c->last_arrival[m->from][m->to];
    at = at > *last ? at : *last;
    *last = at;
  }
  return schedule(c, (struct cluster_item){
                         .time = at, .kind = CLUSTER_CONTROL, .control = *m});
}

/* ---- Application messages ------------------------------------------- */

/* The iteration a rank runs: held at safe point k, it has not started k. */
static int64_t running(const struct cluster *c, int r) {
  const struct cluster_rank *k = &c->rank[r];
  return k->held ? k->index - 1 : k->index;
}

static int new_msg(struct cluster *c, int from, int to) {
  int *len = &c->queue_len[from][to];
  if (*len == CLUSTER_MAX_QUEUED)
    return fail(c, "channel %d->%d: too many undelivered messages", from, to);
  for (int i = 0; i < CLUSTER_MAX_MSGS; i++) {
    struct cluster_msg *m = &c->msgs[i];
    if (m->in_use)
      continue;
    c->msgs_hi = i + 1 > c->msgs_hi ? i + 1 : c->msgs_hi;
    *m = (struct cluster_msg){.in_use = 1,
                              .from = from,
                              .to = to,
                              .number = ++c->sent_no[from][to],
                              .latency = -1.0};
    int tail = (c->queue_head[from][to] + *len) % CLUSTER_MAX_QUEUED;
    c->queue[from][to][tail] = i;
    (*len)++;
    return i;
  }
  return fail(c, "too many application messages");
}

static struct cluster_msg *queue_head(struct cluster *c, int from, int to) {
  if (c->queue_len[from][to] == 0)
    return NULL;
  return &c->msgs[c->queue[from][to][c->queue_head[from][to]]];
}

static void queue_pop(struct cluster *c, int from, int to) {
  c->queue_head[from][to] = (c->queue_head[from][to] + 1) % CLUSTER_MAX_QUEUED;
  c->queue_len[from][to]--;
}

int cluster_script_message(struct cluster *c, int from, int to, double time,
                           double latency) {
  int i = new_msg(c, from, to);
  if (i < 0)
    return -1;
  c->msgs[i].threshold = -1;
  c->msgs[i].forward = 1;
  c->msgs[i].latency = latency;
  c->msgs[i].app_id = ++c->rank[from].app.out[to];
  return schedule(c, (struct cluster_item){
                         .time = time, .kind = CLUSTER_APP_SEND, .msg = i});
}

static void sort(double *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}

/* Exact mode: the generator of what r sends to `to` in iteration it, the
 * same in every execution of that iteration. */
static uint64_t plan_rng(const struct cluster *c, int r, int to, int64_t it) {
  uint64_t x = c->app_seed ^ ((uint64_t)r * 0x9e3779b97f4a7c15u) ^
               ((uint64_t)to * 0xc2b2ae3d27d4eb4fu) ^
               ((uint64_t)it * 0x165667b19e3779f9u);
  cluster_splitmix64(&x);
  return x;
}

/* Rank r starts iteration k->index: it plans its random messages, the
 * forward ones last on each channel. */
static int plan_iteration(struct cluster *c, int r) {
  const struct cluster_rank *k = &c->rank[r];
  int most =
      c->app_msgs < CLUSTER_MAX_PLANNED ? c->app_msgs : CLUSTER_MAX_PLANNED;
  for (int to = 0; most > 0 && to < c->ranks; to++) {
    if (!c->app_edge[r][to])
      continue;
    uint64_t own = c->app_seed ? plan_rng(c, r, to, k->index) : 0;
    uint64_t *x = c->app_seed ? &own : &c->rng;
    double when[CLUSTER_MAX_PLANNED];
    int n = (int)(cluster_splitmix64(x) % (uint64_t)(most + 1));
    int forward = 0;
    for (int i = 0; i < n; i++) {
      when[i] = cluster_uniform(x, 0.0, 0.9 * k->iteration);
      forward += cluster_uniform(x, 0.0, 1.0) < c->app_forward;
    }
    sort(when, n);
    for (int i = 0; i < n; i++) {
      int m = new_msg(c, r, to);
      if (m < 0)
        return -1;
      c->msgs[m].forward = i >= n - forward;
      c->msgs[m].iteration = k->index;
      c->msgs[m].threshold = k->index + c->msgs[m].forward;
      c->msgs[m].app_id = ++c->rank[r].app.out[to];
      if (schedule(c, (struct cluster_item){.time = c->time + when[i],
                                            .kind = CLUSTER_APP_SEND,
                                            .msg = m}))
        return -1;
    }
  }
  return 0;
}

/* Rank r may reach its next safe point: it has every message of its
 * iteration that is not forward, and every in-neighbour has started that
 * iteration (so has planned them all). */
static int ready(struct cluster *c, int r) {
  int64_t it = c->rank[r].index;
  for (int from = 0; c->app_msgs > 0 && from < c->ranks; from++) {
    if (!c->app_edge[from][r])
      continue;
    if (running(c, from) < it)
      return 0;
    for (int q = 0; q < c->queue_len[from][r]; q++) {
      int head = c->queue_head[from][r];
      const struct cluster_msg *m =
          &c->msgs[c->queue[from][r][(head + q) % CLUSTER_MAX_QUEUED]];
      if (!m->forward && m->iteration <= it)
        return 0;
    }
  }
  return 1;
}

/* The head of from -> to can be delivered now. */
static int deliverable(struct cluster *c, int from, int to) {
  const struct cluster_msg *m = queue_head(c, from, to);
  return m && m->state == CLUSTER_MSG_ARRIVED &&
         (m->threshold < 0 || running(c, to) >= m->threshold);
}

/* The earliest pending thing: class 0 an item (id: its slot), 1 an
 * application delivery (id: from * CLUSTER_MAX_RANKS + to), 2 a timer, 3 a
 * safe point (id: the rank). */
struct next {
  double time;
  int cls;
  uint64_t order; /* seq for items, rank or channel otherwise */
  size_t id;
};

static int before(const struct next *a, const struct next *b) {
  if (a->time != b->time)
    return a->time < b->time;
  if (a->cls != b->cls)
    return a->cls < b->cls;
  return a->order < b->order;
}

/* What a scan looks for: the earliest thing, or (tied != NULL) every
 * thing due at `at`. */
struct pick {
  struct next best;
  int found, ties; /* things due at best.time */
  struct next *tied;
  double at;
  int n_tied;
};

static void consider(struct pick *p, struct next n) {
  if (p->tied) {
    if (n.time == p->at && p->n_tied < CLUSTER_MAX_TIED)
      p->tied[p->n_tied++] = n;
    return;
  }
  if (!p->found || n.time < p->best.time)
    p->ties = 1;
  else if (n.time == p->best.time)
    p->ties++;
  if (!p->found || before(&n, &p->best))
    p->best = n;
  p->found = 1;
}

static void find_deliveries(struct cluster *c, struct pick *p) {
  for (int from = 0; from < c->ranks; from++)
    for (int to = 0; to < c->ranks; to++)
      if (deliverable(c, from, to)) {
        size_t id = (size_t)(from * CLUSTER_MAX_RANKS + to);
        consider(p, (struct next){c->time, 1, id, id});
      }
}

static void scan(struct cluster *c, struct pick *p) {
  for (size_t i = 0; i < c->n_pending; i++)
    consider(p, (struct next){c->pending[i].time, 0, c->pending[i].seq, i});
  find_deliveries(c, p);
  for (int r = 0; r < slots(c); r++) {
    const struct cluster_rank *k = &c->rank[r];
    if (k->deadline >= 0)
      consider(p, (struct next){k->deadline > c->time ? k->deadline : c->time,
                                2, (uint64_t)r, (size_t)r});
    if (!k->held && !is_scheduler(c, r) && ready(c, r))
      consider(p, (struct next){k->next > c->time ? k->next : c->time, 3,
                                (uint64_t)r, (size_t)r});
  }
}

/* Returns the number of things due at the earliest instant (0: nothing
 * pending), the first of them by the fixed tie-break in *best. */
static int find_next(struct cluster *c, struct next *best) {
  struct pick p = {.found = 0};
  scan(c, &p);
  *best = p.best;
  return p.found ? p.ties : 0;
}

/* The channel whose order a pending item must keep (control messages with
 * fifo, application sends), or -1. */
static int order_key(const struct cluster *c, const struct cluster_item *it) {
  if (it->kind == CLUSTER_CONTROL && c->fifo)
    return 2 * (it->control.from * CLUSTER_SLOTS + it->control.to);
  if (it->kind == CLUSTER_APP_SEND) {
    const struct cluster_msg *m = &c->msgs[it->msg];
    return 2 * (m->from * CLUSTER_SLOTS + m->to) + 1;
  }
  return -1;
}

/* A tied thing may go first unless an earlier item of its channel is due
 * at the same instant. */
static int may_go_first(const struct cluster *c, const struct next *tied, int n,
                        int i) {
  if (tied[i].cls != 0)
    return 1;
  const struct cluster_item *it = &c->pending[tied[i].id];
  int key = order_key(c, it);
  for (int j = 0; key >= 0 && j < n; j++)
    if (tied[j].cls == 0 && c->pending[tied[j].id].seq < it->seq &&
        order_key(c, &c->pending[tied[j].id]) == key)
      return 0;
  return 1;
}

/* Shuffle: replaces *n by a random thing due at the same instant. */
static void pick_tied(struct cluster *c, struct next *n) {
  struct next tied[CLUSTER_MAX_TIED];
  struct pick p = {.tied = tied, .at = n->time};
  scan(c, &p);
  int k = 0;
  for (int i = 0; i < p.n_tied; i++)
    if (may_go_first(c, tied, p.n_tied, i))
      tied[k++] = tied[i];
  if (k > 1)
    *n = tied[cluster_splitmix64(&c->rng) % (uint64_t)k];
}

/* ---- The narrative ------------------------------------------------- */

struct label {
  char s[8];
};

static struct label label(const struct cluster *c, int r) {
  struct label l;
  if (is_scheduler(c, r))
    snprintf(l.s, sizeof l.s, "S");
  else
    snprintf(l.s, sizeof l.s, "%d", r);
  return l;
}

/* The messages the narrative and the checks tell apart. The cores own
 * their kinds (ft_protocol.h): each family's map onto these. */
enum msg {
  MSG_OTHER,
  MSG_WAVE_REQUEST,
  MSG_POSITION,
  MSG_WAVE_AT,
  MSG_MARKER,
  MSG_DONE,
  MSG_CUT
};

static enum msg pcl_msg(enum ft_pcl_control kind) {
  switch (kind) {
  case FT_PCL_CONTROL_WAVE_REQUEST:
    return MSG_WAVE_REQUEST;
  case FT_PCL_CONTROL_POSITION:
    return MSG_POSITION;
  case FT_PCL_CONTROL_WAVE_AT:
    return MSG_WAVE_AT;
  case FT_PCL_CONTROL_MARKER:
    return MSG_MARKER;
  case FT_PCL_CONTROL_CHECKPOINT_DONE:
    return MSG_DONE;
  case FT_PCL_CONTROL_COUNT:
    break;
  }
  return MSG_OTHER;
}

static enum msg vcl_msg(enum ft_vcl_control kind) {
  switch (kind) {
  case FT_VCL_CONTROL_MARKER:
    return MSG_MARKER;
  case FT_VCL_CONTROL_CUT:
    return MSG_CUT;
  case FT_VCL_CONTROL_CHECKPOINT_DONE:
    return MSG_DONE;
  case FT_VCL_CONTROL_COUNT:
    break;
  }
  return MSG_OTHER;
}

/* The drain family's bookmarks play the markers' part in the checks: one
 * per channel and wave, every one in before the checkpoint. */
static enum msg bookmark_msg(enum ft_bookmark_control kind) {
  switch (kind) {
  case FT_BOOKMARK_CONTROL_REQUEST:
    return MSG_WAVE_REQUEST;
  case FT_BOOKMARK_CONTROL_POSITION:
    return MSG_POSITION;
  case FT_BOOKMARK_CONTROL_AT:
    return MSG_WAVE_AT;
  case FT_BOOKMARK_CONTROL_BOOKMARK:
    return MSG_MARKER;
  case FT_BOOKMARK_CONTROL_DONE:
    return MSG_DONE;
  case FT_BOOKMARK_CONTROL_COUNT:
    break;
  }
  return MSG_OTHER;
}

static enum msg msg_of(const struct cluster *c, int kind) {
  if (c->ops->family == FT_FAMILY_DRAIN)
    return bookmark_msg((enum ft_bookmark_control)kind);
  if (c->ops->family == FT_FAMILY_COORDINATED)
    return pcl_msg((enum ft_pcl_control)kind);
  if (c->ops->family == FT_FAMILY_CHANNEL_STATE)
    return vcl_msg((enum ft_vcl_control)kind);
  return MSG_OTHER;
}

static const char *kind_name(const struct cluster *c, int kind) {
  const char *name = ft_control_name(c->ops->family, kind);
  return name ? name : "?";
}

static void describe_control(const struct cluster *c, int r,
                             const struct ft_control *m, char *out,
                             size_t size) {
  switch (msg_of(c, m->kind)) {
  case MSG_WAVE_REQUEST:
    snprintf(out, size, "< wave %d request from %d", m->wave, m->from);
    break;
  case MSG_POSITION:
    snprintf(out, size, "< position %lld from %d", (long long)m->value,
             m->from);
    break;
  case MSG_WAVE_AT:
    snprintf(out, size, "< wave %d at safe point %lld", m->wave,
             (long long)m->value);
    break;
  case MSG_MARKER:
    if (c->ops->family == FT_FAMILY_DRAIN)
      snprintf(out, size, "< bookmark from %d: it sent %lld, %lld in", m->from,
               (long long)m->value, (long long)c->rank[r].received[m->from]);
    else if (is_scheduler(c, m->from))
      snprintf(out, size, "< marker of wave %d from S", m->wave);
    else if (m->value > 0)
      snprintf(out, size, "< marker proposing %lld from %d",
               (long long)m->value, m->from);
    else if (c->rank[r].marked_wave == m->wave)
      snprintf(out, size, "< marker from %d", m->from);
    else
      snprintf(out, size, "< marker from %d: channel %d->%d delayed", m->from,
               m->from, r);
    break;
  case MSG_DONE:
    snprintf(out, size, "< done from %d", m->from);
    break;
  case MSG_CUT:
    snprintf(out, size, "< cut after #%lld from %d", (long long)m->value,
             m->from);
    break;
  case MSG_OTHER:
    snprintf(out, size, "< %s %lld from %d", kind_name(c, m->kind),
             (long long)m->value, m->from);
    break;
  }
}

/* The event line, without its "[time] rank " prefix. `number`: the
 * application message's, for APP_SEND and DELIVERED. */
static void describe_event(const struct cluster *c, int r,
                           const struct ft_event *e, int64_t number, char *out,
                           size_t size) {
  switch (e->type) {
  case FT_EVENT_TIMER:
    if (is_scheduler(c, r))
      snprintf(out, size, "timer");
    else
      snprintf(out, size, "timer, position %lld", (long long)c->rank[r].index);
    return;
  case FT_EVENT_SAFE_POINT:
    snprintf(out, size, "safe point %lld", (long long)e->index);
    return;
  case FT_EVENT_IMAGE_STORED:
    snprintf(out, size, "image of wave %d stored", e->wave);
    return;
  case FT_EVENT_ROLLBACK:
    if (is_scheduler(c, r))
      snprintf(out, size, "rollback to wave %d", e->wave);
    else
      snprintf(out, size, "rollback to wave %d at safe point %lld", e->wave,
               (long long)e->index);
    return;
  case FT_EVENT_APP_SEND:
    snprintf(out, size, "send #%lld to %d", (long long)number, e->peer);
    return;
  case FT_EVENT_DELIVERED:
    if (c->ops->family == FT_FAMILY_DRAIN) /* the bytes the drain counts */
      snprintf(out, size, "deliver #%lld from %d, %llu B", (long long)number,
               e->peer, (unsigned long long)e->bytes);
    else
      snprintf(out, size, "deliver #%lld from %d", (long long)number, e->peer);
    return;
  case FT_EVENT_CONTROL:
    describe_control(c, r, &e->control, out, size);
    return;
  default:
    snprintf(out, size, "event %d", (int)e->type);
    return;
  }
}

/* One line for a run of sends of the same kind, wave and value. */
static size_t trace_sends(struct cluster *c, const struct ft_update *u,
                          size_t i, int indent) {
  const struct ft_control *m = &u->sends[i];
  size_t end = i + 1;
  /* The drain family's bookmarks, one line each: the staggered order. */
  int alone =
      c->ops->family == FT_FAMILY_DRAIN && msg_of(c, m->kind) == MSG_MARKER;
  while (!alone && end < u->n_sends && u->sends[end].kind == m->kind &&
         u->sends[end].wave == m->wave && u->sends[end].value == m->value)
    end++;
  char what[64];
  const char *plural = end - i > 1 ? "s" : "";
  enum msg k = msg_of(c, m->kind);
  if (k == MSG_WAVE_REQUEST)
    snprintf(what, sizeof what, "wave %d request", m->wave);
  else if (k == MSG_POSITION)
    snprintf(what, sizeof what, "position %lld", (long long)m->value);
  else if (k == MSG_WAVE_AT)
    snprintf(what, sizeof what, "wave %d at safe point %lld", m->wave,
             (long long)m->value);
  else if (k == MSG_MARKER && c->ops->family == FT_FAMILY_DRAIN)
    snprintf(what, sizeof what, "bookmark: sent %lld", (long long)m->value);
  else if (k == MSG_MARKER && m->value > 0)
    snprintf(what, sizeof what, "marker%s proposing %lld", plural,
             (long long)m->value);
  else if (k == MSG_MARKER && is_scheduler(c, m->from))
    snprintf(what, sizeof what, "marker%s of wave %d", plural, m->wave);
  else if (k == MSG_MARKER)
    snprintf(what, sizeof what, "marker%s", plural);
  else if (k == MSG_CUT)
    snprintf(what, sizeof what, "cut after #%lld", (long long)m->value);
  else
    snprintf(what, sizeof what, "%s", kind_name(c, m->kind));
  trace(c, "%*s> %s to %s", indent, "", what, label(c, m->to).s);
  for (size_t j = i + 1; j < end; j++)
    trace(c, ", %s", label(c, u->sends[j].to).s);
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

static void trace_store(struct cluster *c, const struct ft_update *u,
                        int indent) {
  trace(c, "%*sstore wave %d", indent, "", u->wave);
  if (u->n_keep == 0)
    trace(c, " with no channel state");
  for (size_t i = 0; i < u->n_keep; i++)
    trace(c, "%s #%lld..#%lld from %d", i ? "," : " keeping",
          (long long)u->keep[i].first, (long long)u->keep[i].last,
          u->keep[i].peer);
  trace(c, "\n");
}

static void trace_step(struct cluster *c, int r, const char *head,
                       const struct ft_update *u, double old_deadline,
                       int retained) {
  struct label l = label(c, r);
  int indent = snprintf(NULL, 0, "[%7.3f] %s ", c->time, l.s);
  int64_t at = c->rank[r].index;
  trace(c, "[%7.3f] %s %s\n", c->time, l.s, head);
  for (size_t i = 0; i < u->n_sends;)
    i = trace_sends(c, u, i, indent);
  if (u->flags & FT_UPDATE_CHECKPOINT)
    trace(c, "%*scheckpoint wave %d at safe point %lld\n", indent, "", u->wave,
          (long long)at);
  if (u->flags & FT_UPDATE_RETAIN)
    trace(c, "%*sretain safe point %lld\n", indent, "", (long long)at);
  if (u->flags & FT_UPDATE_CAPTURE)
    trace(c, "%*scheckpoint wave %d at safe point %lld%s\n", indent, "",
          u->wave, (long long)u->index, retained ? ", the retained copy" : "");
  if (u->flags & FT_UPDATE_RECORD)
    trace(c, "%*srecord #%lld\n", indent, "", (long long)u->index);
  if (u->flags & FT_UPDATE_STORE)
    trace_store(c, u, indent);
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
    if (m->from != r || m->to < 0 || m->to >= slots(c) || m->to == r)
      return fail(c, "rank %d sends %s %d -> %d", r, kind_name(c, m->kind),
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
  if ((f & FT_UPDATE_RETAIN) && !(at_safe_point && (f & FT_UPDATE_PASS)))
    return fail(c, "rank %d: RETAIN away from a passed safe point", r);
  if ((f & FT_UPDATE_RECORD) && e->type != FT_EVENT_DELIVERED)
    return fail(c, "rank %d: RECORD of no delivery", r);
  if ((e->type == FT_EVENT_APP_SEND || e->type == FT_EVENT_DELIVERED) &&
      !(f & FT_UPDATE_PASS))
    return fail(c, "rank %d: an application message does not pass", r);
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
    marked |= msg_of(c, u->sends[i].kind) == MSG_MARKER &&
              u->sends[i].wave == u->wave;
  if (c->ranks > 1 &&
      (!marked || k->markers_wave != u->wave || k->markers_in != c->ranks - 1))
    return fail(c, "rank %d: checkpoint of wave %d without every marker", r,
                u->wave);
  return 0;
}

/* A CAPTURE names the safe point the application is at (this SAFE_POINT
 * step, or held), or the copy it RETAINed. Returns 1 for the retained
 * copy, 0 for the current state, -1 for neither. */
static int check_capture(struct cluster *c, int r, const struct ft_event *e,
                         const struct ft_update *u) {
  const struct cluster_rank *k = &c->rank[r];
  if (u->wave < 1 || u->wave > CLUSTER_MAX_WAVES || u->wave <= k->captured_wave)
    return fail(c, "rank %d: capture of wave %d", r, u->wave);
  int at_point = k->held || (e->type == FT_EVENT_SAFE_POINT &&
                             (u->flags & FT_UPDATE_PASS));
  if (at_point && u->index == k->index)
    return 0;
  if (k->retained != 0 && u->index == k->retained)
    return 1;
  return fail(c,
              "rank %d: capture of safe point %lld at %lld (%s), retained "
              "%lld",
              r, (long long)u->index, (long long)k->index,
              at_point ? "there" : "running", (long long)k->retained);
}

static int check_store(struct cluster *c, int r, const struct ft_update *u) {
  const struct cluster_rank *k = &c->rank[r];
  int captured = (u->flags & FT_UPDATE_CAPTURE) ? u->wave : k->captured_wave;
  if (u->wave != captured || u->wave <= k->stored_wave)
    return fail(c, "rank %d: store of wave %d, captured %d", r, u->wave,
                captured);
  if (u->n_keep > (size_t)c->ranks || (u->n_keep > 0 && !u->keep))
    return fail(c, "rank %d: %zu keep ranges", r, u->n_keep);
  for (size_t i = 0; i < u->n_keep; i++) {
    const struct ft_record_range *g = &u->keep[i];
    if (g->peer < 0 || g->peer >= c->ranks || g->first < 1 ||
        g->first > g->last)
      return fail(c, "rank %d: keep range %zu is #%lld..#%lld from %d", r, i,
                  (long long)g->first, (long long)g->last, g->peer);
  }
  return 0;
}

/* The kept range of `r`'s last STORE for messages from `from`, or an
 * empty one. */
/* The range of `keep` for messages from `from`, or an empty one. */
static struct ft_record_range range_in(const struct ft_record_range *keep,
                                       size_t n, int from) {
  for (size_t i = 0; i < n; i++)
    if (keep[i].peer == from)
      return keep[i];
  return (struct ft_record_range){.peer = from, .first = 1, .last = 0};
}

static struct ft_record_range kept_from(const struct cluster_rank *k,
                                        int from) {
  return range_in(k->keep, k->n_keep, from);
}

/* One message against the cut of wave w: kept exactly when sent before
 * the sender's checkpoint and delivered after the receiver's. */
static int check_message(struct cluster *c, int w, const struct cluster_msg *m,
                         int64_t expected[][CLUSTER_MAX_RANKS]) {
  const struct cluster_rank *to = &c->rank[m->to];
  int64_t at_from = c->rank[m->from].checkpoint_at[w];
  int64_t at_to = to->checkpoint_at[w];
  int sent_before = m->state != CLUSTER_MSG_PLANNED && m->iteration < at_from;
  if (m->state != CLUSTER_MSG_DELIVERED)
    return sent_before ? fail(c,
                              "wave %d: #%lld %d->%d sent before the cut is "
                              "not delivered at the commit",
                              w, (long long)m->number, m->from, m->to)
                       : 0;
  int delivered_after = m->delivered_in >= at_to;
  if (!sent_before && !delivered_after)
    return fail(c, "wave %d: #%lld %d->%d is an orphan", w,
                (long long)m->number, m->from, m->to);
  struct ft_record_range g = kept_from(to, m->from);
  int kept = m->number >= g.first && m->number <= g.last;
  if (kept != (sent_before && delivered_after))
    return fail(c, "wave %d: #%lld %d->%d %s but %s", w, (long long)m->number,
                m->from, m->to, kept ? "kept" : "not kept",
                kept ? "not in transit" : "in transit");
  if (kept && !m->recorded)
    return fail(c, "wave %d: #%lld %d->%d kept but never recorded", w,
                (long long)m->number, m->from, m->to);
  expected[m->from][m->to] += kept;
  return 0;
}

/* Frees the messages no later wave can keep or find orphaned: delivered
 * before the receiver's checkpoint of wave w, sent before the sender's. */
static void forget_messages(struct cluster *c, int w) {
  for (int i = 0; i < c->msgs_hi; i++) {
    struct cluster_msg *m = &c->msgs[i];
    if (m->in_use && m->state == CLUSTER_MSG_DELIVERED &&
        m->delivered_in < c->rank[m->to].checkpoint_at[w] &&
        m->iteration < c->rank[m->from].checkpoint_at[w])
      m->in_use = 0;
  }
}

/* Every committed wave of a non-blocking protocol: each STORE kept
 * exactly the messages in transit across the cut (see core_cluster.h). */
static int check_channel_state(struct cluster *c, int w) {
  int64_t expected[CLUSTER_MAX_RANKS][CLUSTER_MAX_RANKS] = {{0}};
  for (int i = 0; i < c->msgs_hi; i++)
    if (c->msgs[i].in_use && check_message(c, w, &c->msgs[i], expected))
      return -1;
  for (int to = 0; to < c->ranks; to++)
    for (int from = 0; from < c->ranks; from++) {
      struct ft_record_range g = kept_from(&c->rank[to], from);
      if (g.last - g.first + 1 != expected[from][to])
        return fail(c,
                    "wave %d: %d keeps #%lld..#%lld from %d, %lld sent "
                    "before the cut and delivered after",
                    w, to, (long long)g.first, (long long)g.last, from,
                    (long long)expected[from][to]);
      c->kept += expected[from][to];
    }
  forget_messages(c, w);
  return 0;
}

/* ---- Exact mode ---------------------------------------------------- */

static struct cluster_image *image_of(struct cluster_rank *k, int wave) {
  return &k->image[wave % CLUSTER_IMAGES];
}

static void save_image(struct cluster_rank *k, int wave,
                       const struct cluster_app_state *app) {
  struct cluster_image *img = image_of(k, wave);
  img->wave = wave;
  img->app = *app;
  img->n_kept = 0;
}

/* Every delivery is the next message of its channel in the failure-free
 * run. */
static int check_exactly_once(struct cluster *c, const struct cluster_msg *m) {
  int64_t *in = &c->rank[m->to].app.in[m->from];
  if (m->app_id != *in + 1)
    return fail(c,
                "[%.3f] rank %d delivers message %lld of channel %d->%d "
                "after %lld: %s",
                c->time, m->to, (long long)m->app_id, m->from, m->to,
                (long long)*in,
                m->app_id > *in + 1 ? "a message is lost" : "delivered twice");
  *in = m->app_id;
  return 0;
}

/* One message from a peer against r's STORE of wave w: in transit across
 * the cut (sent before the peer's checkpoint, delivered after r's) exactly
 * when kept; adds it to *in_transit. */
static int check_stored(struct cluster *c, int r, int w,
                        const struct cluster_msg *m, struct ft_record_range g,
                        int64_t *in_transit) {
  int sent_before = m->state != CLUSTER_MSG_PLANNED &&
                    m->iteration < c->rank[m->from].checkpoint_at[w];
  if (sent_before && m->state != CLUSTER_MSG_DELIVERED)
    return fail(c,
                "[%.3f] rank %d stores wave %d before #%lld from %d, sent "
                "before the cut, is delivered",
                c->time, r, w, (long long)m->number, m->from);
  int transit = sent_before && m->delivered_in >= c->rank[r].checkpoint_at[w];
  int kept = m->number >= g.first && m->number <= g.last;
  if (kept != transit)
    return fail(c, "[%.3f] rank %d stores wave %d %s #%lld from %d, %s",
                c->time, r, w, kept ? "keeping" : "without",
                (long long)m->number, m->from,
                transit ? "in transit across the cut"
                        : "not in transit across the cut");
  if (kept && !m->recorded)
    return fail(c,
                "[%.3f] rank %d stores wave %d keeping #%lld from %d, "
                "never recorded",
                c->time, r, w, (long long)m->number, m->from);
  *in_transit += transit;
  return 0;
}

/* The identities of the kept messages from `from`, in order, to the
 * image. */
static int keep_ids(struct cluster *c, struct cluster_image *img, int r,
                    int from, struct ft_record_range g) {
  for (int64_t n = g.first; n <= g.last; n++)
    for (int i = 0; i < c->msgs_hi; i++) {
      const struct cluster_msg *m = &c->msgs[i];
      if (!m->in_use || m->from != from || m->to != r || m->number != n)
        continue;
      if (img->n_kept == CLUSTER_MAX_KEPT)
        return fail(c, "rank %d: too much channel state", r);
      img->kept[img->n_kept].peer = from;
      img->kept[img->n_kept++].app_id = m->app_id;
    }
  return 0;
}

/* Rank r STOREs wave u->wave: every peer has checkpointed it, every
 * message sent to r before its sender's checkpoint is delivered, and the
 * ranges keep exactly those delivered after r's checkpoint. */
static int store_channel_state(struct cluster *c, int r,
                               const struct ft_update *u) {
  int w = u->wave;
  struct cluster_image *img = image_of(&c->rank[r], w);
  if (img->wave != w)
    return fail(c, "rank %d: store of wave %d, not captured", r, w);
  img->n_kept = 0;
  for (int from = 0; from < c->ranks; from++) {
    if (c->rank[from].checkpoint_at[w] == 0)
      return fail(c,
                  "[%.3f] rank %d stores wave %d before rank %d "
                  "checkpoints it",
                  c->time, r, w, from);
    struct ft_record_range g = range_in(u->keep, u->n_keep, from);
    int64_t in_transit = 0;
    for (int i = 0; i < c->msgs_hi; i++) {
      const struct cluster_msg *m = &c->msgs[i];
      if (m->in_use && m->from == from && m->to == r &&
          check_stored(c, r, w, m, g, &in_transit))
        return -1;
    }
    if (g.last - g.first + 1 != in_transit)
      return fail(c,
                  "[%.3f] rank %d stores wave %d keeping #%lld..#%lld from "
                  "%d, %lld in transit across the cut",
                  c->time, r, w, (long long)g.first, (long long)g.last, from,
                  (long long)in_transit);
    if (keep_ids(c, img, r, from, g))
      return -1;
  }
  return 0;
}

int cluster_check_cuts(struct cluster *c) {
  if (c->error[0])
    return -1;
  if (!c->cuts_changed)
    return 0; /* the last check still holds */
  c->cuts_changed = 0;
  int first = c->committed > 0 ? c->committed : 1;
  int last = c->committed + 2 < CLUSTER_MAX_WAVES ? c->committed + 2
                                                  : CLUSTER_MAX_WAVES;
  for (int i = 0; i < c->msgs_hi; i++) {
    const struct cluster_msg *m = &c->msgs[i];
    if (!m->in_use || m->state != CLUSTER_MSG_DELIVERED)
      continue;
    for (int w = first; w <= last; w++) {
      int64_t at_from = c->rank[m->from].checkpoint_at[w];
      int64_t at_to = c->rank[m->to].checkpoint_at[w];
      if (at_from && at_to && m->iteration >= at_from &&
          m->delivered_in < at_to)
        return fail(c,
                    "[%.3f] wave %d: #%lld %d->%d is an orphan: sent in "
                    "iteration %lld, after the sender's checkpoint at %lld, "
                    "delivered in %lld, before the receiver's at %lld",
                    c->time, w, (long long)m->number, m->from, m->to,
                    (long long)m->iteration, (long long)at_from,
                    (long long)m->delivered_in, (long long)at_to);
    }
  }
  return 0;
}

static int check_commit(struct cluster *c, int r, const struct ft_update *u) {
  if (r != coordinator(c) || u->wave != c->committed + 1 ||
      u->wave > CLUSTER_MAX_WAVES)
    return fail(c, "rank %d: commit of wave %d after %d", r, u->wave,
                c->committed);
  for (int p = 0; p < c->ranks; p++) {
    if (c->rank[p].checkpoint_at[u->wave] == 0)
      return fail(c, "commit of wave %d before rank %d checkpoints", u->wave,
                  p);
    if (ft_protocol_has_scheduler(c->ops) && c->rank[p].stored_wave != u->wave)
      return fail(c, "commit of wave %d before rank %d stores", u->wave, p);
  }
  return ft_protocol_has_scheduler(c->ops) || c->app_seed
             ? check_channel_state(c, u->wave)
             : 0;
}

/* Returns 1 when the update captures the retained copy, 0 otherwise, -1 on
 * an error. */
static int check_update(struct cluster *c, int r, const struct ft_event *e,
                        const struct ft_update *u) {
  int retained = 0;
  if (check_sends(c, r, u) || check_flags(c, r, e, u))
    return -1;
  if ((u->flags & FT_UPDATE_CHECKPOINT) && check_checkpoint(c, r, e, u))
    return -1;
  if ((u->flags & FT_UPDATE_CAPTURE) &&
      (retained = check_capture(c, r, e, u)) < 0)
    return -1;
  if ((u->flags & FT_UPDATE_STORE) && check_store(c, r, u))
    return -1;
  if ((u->flags & FT_UPDATE_COMMIT) && check_commit(c, r, u))
    return -1;
  return retained;
}

static int carry_out_sends(struct cluster *c, int r,
                           const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++) {
    const struct ft_control *m = &u->sends[i];
    enum msg k = msg_of(c, m->kind);
    if (k == MSG_MARKER)
      c->rank[r].marked_wave = m->wave;
    if ((k == MSG_WAVE_REQUEST || (k == MSG_MARKER && is_scheduler(c, r))) &&
        m->wave <= CLUSTER_MAX_WAVES)
      c->requested_at[m->wave] = c->time;
    if (send_control(c, m))
      return -1;
  }
  return 0;
}

static int schedule_stored(struct cluster *c, int r, int wave) {
  return schedule(
      c, (struct cluster_item){.time = c->time + c->rank[r].store_delay,
                               .kind = CLUSTER_STORED,
                               .rank = r,
                               .wave = wave});
}

/* The non-blocking flags: RETAIN, CAPTURE, STORE. */
static int carry_out_capture(struct cluster *c, int r,
                             const struct ft_update *u, int retained) {
  struct cluster_rank *k = &c->rank[r];
  if (u->flags & FT_UPDATE_RETAIN) {
    k->retained = k->index;
    k->app_retained = k->app;
  }
  if (u->flags & FT_UPDATE_CAPTURE) {
    save_image(k, u->wave, retained ? &k->app_retained : &k->app);
    c->cuts_changed = 1;
    k->checkpoint_at[u->wave] = u->index;
    k->checkpoints++;
    k->captured_wave = u->wave;
    k->retained = 0;
    c->captures_retained += retained;
  }
  if (u->flags & FT_UPDATE_STORE) {
    k->stored_wave = u->wave;
    k->n_keep = u->n_keep;
    if (u->n_keep)
      memcpy(k->keep, u->keep, u->n_keep * sizeof k->keep[0]);
    if (c->app_seed && store_channel_state(c, r, u))
      return -1;
    return schedule_stored(c, r, u->wave);
  }
  return 0;
}

static int carry_out(struct cluster *c, int r, const struct ft_event *e,
                     const struct ft_update *u, int retained) {
  struct cluster_rank *k = &c->rank[r];
  k->deadline = u->deadline;
  if (carry_out_sends(c, r, u))
    return -1;
  if (u->flags & FT_UPDATE_CHECKPOINT) {
    save_image(k, u->wave, &k->app);
    c->cuts_changed = 1;
    k->checkpoint_at[u->wave] = k->index;
    k->checkpoints++;
    if (schedule_stored(c, r, u->wave))
      return -1;
  }
  if (carry_out_capture(c, r, u, retained))
    return -1;
  if (u->flags & FT_UPDATE_HOLD) {
    k->held = 1;
    c->holds++;
  }
  if ((u->flags & FT_UPDATE_RELEASE) ||
      (e->type == FT_EVENT_SAFE_POINT && (u->flags & FT_UPDATE_PASS))) {
    k->held = 0;
    k->next = c->time + k->iteration;
    if (plan_iteration(c, r))
      return -1;
  }
  if (u->flags & FT_UPDATE_COMMIT) {
    c->cuts_changed = 1; /* the waves checked move on */
    c->committed = u->wave;
    c->committed_at[u->wave] = c->time;
    for (int p = 0; p < c->ranks; p++) {
      struct cluster_rank *q = &c->rank[p];
      q->n_committed_keep = q->n_keep;
      memcpy(q->committed_keep, q->keep, sizeof q->keep);
    }
  }
  return 0;
}

/* Feeds `e` to rank r's core, checks and carries out the update, traces.
 * `msg`: the application message of an APP_SEND or DELIVERED. */
static int deliver(struct cluster *c, int r, struct ft_event *e,
                   struct cluster_msg *msg) {
  struct cluster_rank *k = &c->rank[r];
  char head[128]; /* described only when needed: printing costs */
  struct ft_update u;
  double old_deadline = k->deadline;
  int64_t number = msg ? msg->number : 0;
  e->time = c->time;
  if (c->ops->step(k->state, e, &u) != 0) {
    describe_event(c, r, e, number, head, sizeof head);
    return fail(c, "[%.3f] rank %d rejects: %s", c->time, r, head);
  }
  int retained = check_update(c, r, e, &u);
  if (retained < 0)
    return -1;
  if (u.flags & FT_UPDATE_RECORD) {
    if (u.index != msg->number) {
      describe_event(c, r, e, number, head, sizeof head);
      return fail(c, "[%.3f] rank %d records #%lld on %s", c->time, r,
                  (long long)u.index, head);
    }
    msg->recorded = 1;
  }
  if (c->trace_on && interesting(e, &u, old_deadline)) {
    describe_event(c, r, e, number, head, sizeof head);
    trace_step(c, r, head, &u, old_deadline, retained);
  }
  return carry_out(c, r, e, &u, retained);
}

/* ---- Steps --------------------------------------------------------- */

/* An application message's size: 8 to 64 bytes, from its number on its
 * channel, so that a re-execution sends the same bytes. */
uint64_t cluster_msg_bytes(const struct cluster_msg *m) {
  return 8u * (uint64_t)(m->number % 8 + 1);
}

static int send_app(struct cluster *c, struct cluster_msg *m) {
  if (c->rank[m->from].held)
    return fail(c, "rank %d sends #%lld while held", m->from,
                (long long)m->number);
  if (m->threshold < 0)
    m->iteration = running(c, m->from);
  else if (m->iteration != running(c, m->from))
    return fail(c, "rank %d sends #%lld of iteration %lld in %lld", m->from,
                (long long)m->number, (long long)m->iteration,
                (long long)running(c, m->from));
  c->app_sent++;
  if (deliver(c, m->from,
              &(struct ft_event){.type = FT_EVENT_APP_SEND,
                                 .peer = m->to,
                                 .bytes = cluster_msg_bytes(m)},
              m))
    return -1;
  m->state = CLUSTER_MSG_IN_FLIGHT;
  double delay = m->latency;
  if (delay < 0) {
    delay = c->latency[m->from][m->to];
    if (c->jitter > 0)
      delay += cluster_uniform(&c->rng, 0.0, c->jitter);
  }
  return schedule(c, (struct cluster_item){.time = c->time + delay,
                                           .kind = CLUSTER_APP_ARRIVE,
                                           .msg = (int)(m - c->msgs)});
}

static int deliver_app(struct cluster *c, size_t channel) {
  int from = (int)(channel / CLUSTER_MAX_RANKS);
  int to = (int)(channel % CLUSTER_MAX_RANKS);
  struct cluster_msg *m = queue_head(c, from, to);
  queue_pop(c, from, to);
  if (++c->recv_no[from][to] != m->number)
    return fail(c, "channel %d->%d delivers #%lld as #%lld", from, to,
                (long long)m->number, (long long)c->recv_no[from][to]);
  if (c->app_seed && check_exactly_once(c, m))
    return -1;
  c->cuts_changed = 1;
  m->state = CLUSTER_MSG_DELIVERED;
  m->delivered_in = running(c, to);
  c->app_delivered++;
  c->rank[to].received[from]++;
  return deliver(c, to,
                 &(struct ft_event){.type = FT_EVENT_DELIVERED,
                                    .peer = from,
                                    .bytes = cluster_msg_bytes(m)},
                 m);
}

static int deliver_item(struct cluster *c, size_t slot) {
  struct cluster_item item = c->pending[slot];
  c->pending[slot] = c->pending[--c->n_pending];
  switch (item.kind) {
  case CLUSTER_STORED:
    return deliver(c, item.rank,
                   &(struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                      .peer = -1,
                                      .wave = item.wave},
                   NULL);
  case CLUSTER_APP_SEND:
    return send_app(c, &c->msgs[item.msg]);
  case CLUSTER_APP_ARRIVE:
    c->msgs[item.msg].state = CLUSTER_MSG_ARRIVED;
    return 0;
  case CLUSTER_CONTROL:
    break;
  }
  struct cluster_rank *k = &c->rank[item.control.to];
  if (msg_of(c, item.control.kind) == MSG_MARKER) {
    if (k->markers_wave != item.control.wave)
      k->markers_in = 0;
    k->markers_wave = item.control.wave;
    k->markers_in++;
  }
  return deliver(c, item.control.to,
                 &(struct ft_event){.type = FT_EVENT_CONTROL,
                                    .peer = item.control.from,
                                    .control = item.control},
                 NULL);
}

static int reach_safe_point(struct cluster *c, int r) {
  struct cluster_rank *k = &c->rank[r];
  k->index++;
  return deliver(c, r,
                 &(struct ft_event){.type = FT_EVENT_SAFE_POINT,
                                    .peer = -1,
                                    .index = k->index},
                 NULL);
}

int cluster_start(struct cluster *c) {
  c->time = c->start;
  for (int r = 0; r < slots(c); r++) {
    struct cluster_rank *k = &c->rank[r];
    struct ft_core_config config = {
        .rank = r, .ranks = c->ranks, .period = c->period, .start = c->start};
    k->state = calloc(1, c->ops->state_size(&config));
    if (!k->state || c->ops->init(k->state, &config) != 0)
      return fail(c, "rank %d: init failed", r);
    k->deadline =
        r == coordinator(c) && c->period > 0 ? c->start + c->period : -1.0;
    k->next = c->start + k->offset + k->iteration;
  }
  for (int r = 0; r < c->ranks; r++)
    if (plan_iteration(c, r))
      return -1;
  return 0;
}

int cluster_step(struct cluster *c) {
  struct next n;
  if (c->error[0])
    return -1;
  int ties = find_next(c, &n);
  if (ties == 0)
    return 0;
  if (c->shuffle && ties > 1)
    pick_tied(c, &n);
  c->steps++;
  c->same_instant = n.time == c->time ? c->same_instant + 1 : 0;
  if (c->same_instant > CLUSTER_MAX_SAME_INSTANT)
    return fail(c, "livelock at %.3f", c->time);
  c->time = n.time;
  int rc;
  switch (n.cls) {
  case 0:
    rc = deliver_item(c, n.id);
    break;
  case 1:
    rc = deliver_app(c, n.id);
    break;
  case 2:
    rc = deliver(c, (int)n.id,
                 &(struct ft_event){.type = FT_EVENT_TIMER, .peer = -1}, NULL);
    break;
  default:
    rc = reach_safe_point(c, (int)n.id);
    break;
  }
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

/* The stale incarnation's application messages: gone, numbers restart. */
static void forget_incarnation(struct cluster *c) {
  memset(c->msgs, 0, (size_t)c->msgs_hi * sizeof c->msgs[0]);
  c->msgs_hi = 0;
  memset(c->sent_no, 0, sizeof c->sent_no);
  memset(c->recv_no, 0, sizeof c->recv_no);
  memset(c->queue_head, 0, sizeof c->queue_head);
  memset(c->queue_len, 0, sizeof c->queue_len);
  memset(c->last_arrival, 0, sizeof c->last_arrival);
}

/* Replays message `app_id` (exact mode; 0 otherwise) from -> to. */
static int replay_one(struct cluster *c, int from, int to, int64_t app_id) {
  int m = new_msg(c, from, to);
  if (m < 0)
    return -1;
  c->msgs[m].threshold = -1;
  c->msgs[m].forward = 1;
  c->msgs[m].app_id = app_id;
  c->replayed++;
  return schedule(c, (struct cluster_item){
                         .time = c->time, .kind = CLUSTER_APP_SEND, .msg = m});
}

/* Exact mode: the application state and the channel state come from each
 * rank's image of `wave` (none: from the start). */
static int restore_images(struct cluster *c, int wave) {
  for (int to = 0; to < c->ranks; to++) {
    struct cluster_rank *k = &c->rank[to];
    const struct cluster_image *img = image_of(k, wave);
    if (wave > 0 && img->wave != wave)
      return fail(c, "rank %d has no image of committed wave %d", to, wave);
    k->app = wave > 0 ? img->app : (struct cluster_app_state){{0}, {0}};
    memset(&k->app_retained, 0, sizeof k->app_retained);
    for (int i = 0; i < CLUSTER_IMAGES; i++)
      if (k->image[i].wave > wave)
        k->image[i].wave = 0;
  }
  for (int to = 0; c->replay && wave > 0 && to < c->ranks; to++) {
    const struct cluster_image *img = image_of(&c->rank[to], wave);
    for (int i = 0; i < img->n_kept; i++)
      if (replay_one(c, img->kept[i].peer, to, img->kept[i].app_id))
        return -1;
  }
  return 0;
}

/* The runtime's replay: every sender re-sends at once the messages its
 * receivers kept in the committed wave, first on their channels. */
static int replay(struct cluster *c) {
  if (c->app_seed)
    return restore_images(c, c->committed);
  for (int to = 0; c->replay && to < c->ranks; to++) {
    const struct cluster_rank *k = &c->rank[to];
    for (size_t i = 0; i < k->n_committed_keep; i++) {
      const struct ft_record_range *g = &k->committed_keep[i];
      for (int64_t n = g->first; n <= g->last; n++)
        if (replay_one(c, g->peer, to, 0))
          return -1;
    }
  }
  return 0;
}

int cluster_rollback(struct cluster *c) {
  int wave = c->committed;
  c->n_pending = 0; /* the stale incarnation's messages and images */
  forget_incarnation(c);
  for (int r = 0; r < slots(c); r++) {
    struct cluster_rank *k = &c->rank[r];
    int64_t at = wave > 0 && !is_scheduler(c, r) ? k->checkpoint_at[wave] : 0;
    k->index = at;
    k->held = 0;
    k->marked_wave = k->markers_wave = k->markers_in = 0;
    memset(k->received, 0, sizeof k->received);
    k->retained = 0;
    k->captured_wave = k->stored_wave = wave;
    k->next = c->time + k->iteration;
    if (deliver(c, r,
                &(struct ft_event){.type = FT_EVENT_ROLLBACK,
                                   .peer = -1,
                                   .index = at,
                                   .wave = wave},
                NULL))
      return -1;
  }
  forget_after(c, wave);
  if (wave == 0)
    for (int r = 0; r < c->ranks; r++)
      c->rank[r].n_committed_keep = 0;
  if (replay(c))
    return -1;
  for (int r = 0; r < c->ranks; r++)
    if (plan_iteration(c, r))
      return -1;
  return 0;
}
