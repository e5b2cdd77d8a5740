/* The in-memory cluster of c3 cores (c3_cluster.h). */
#include "c3_cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c3/c3.h"

/* ---- The story -------------------------------------------------------- */

static const char *name(int r) {
  static const char *const names[C3C_MAX_RANKS] = {"P", "Q", "R",
                                                   "S", "T", "U"};
  return r >= 0 && r < C3C_MAX_RANKS ? names[r] : "?";
}

static void say(struct c3c *c, const char *fmt, ...) {
  if (!c->tracing)
    return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = strlen(line);
  if (c->trace_len + len + 2 > c->trace_cap) {
    size_t cap = 2 * c->trace_cap + len + 64;
    char *t = realloc(c->trace, cap);
    if (!t)
      return;
    c->trace = t;
    c->trace_cap = cap;
  }
  memcpy(c->trace + c->trace_len, line, len);
  c->trace_len += len;
  c->trace[c->trace_len++] = '\n';
  c->trace[c->trace_len] = '\0';
}

static int fail(struct c3c *c, const char *fmt, ...) {
  if (c->error[0])
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->error, sizeof c->error, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- Set-up ----------------------------------------------------------- */

int c3c_init(struct c3c *c, const struct ft_protocol_ops *ops, int ranks,
             double period, int tracing) {
  memset(c, 0, sizeof *c);
  c->ops = ops;
  c->ranks = ranks;
  c->tracing = tracing;
  if (ranks < 1 || ranks > C3C_MAX_RANKS)
    return fail(c, "ranks %d out of 1..%d", ranks, C3C_MAX_RANKS);
  for (int r = 0; r < ranks; r++) {
    struct ft_core_config config = {
        .rank = r, .ranks = ranks, .period = period, .start = 0.0};
    c->rank[r].core = calloc(1, ops->state_size(&config));
    if (!c->rank[r].core || ops->init(c->rank[r].core, &config) != 0)
      return fail(c, "rank %d: init refused", r);
  }
  c->deadline = period > 0 ? period : -1.0;
  return 0;
}

void c3c_free(struct c3c *c) {
  for (int r = 0; r < c->ranks; r++)
    free(c->rank[r].core);
  free(c->trace);
  c->trace = NULL;
}

/* ---- Carrying out an update ------------------------------------------- */

static size_t core_size(const struct c3c *c, int r) {
  struct ft_core_config config = {.rank = r, .ranks = c->ranks};
  return c->ops->state_size(&config);
}

static void queue_controls(struct c3c *c, const struct ft_update *u) {
  for (size_t i = 0; i < u->n_sends; i++) {
    const struct ft_control *k = &u->sends[i];
    if (c->n_controls == C3C_MAX_CONTROLS) {
      fail(c, "control queue full");
      return;
    }
    c->controls[c->n_controls++] = *k;
    say(c, "      %s > %s %s wave %d value %lld", name(k->from), name(k->to),
        ft_c3_controls[k->kind], k->wave, (long long)k->value);
  }
}

static void capture(struct c3c *c, int r, const struct ft_update *u) {
  struct c3c_rank *k = &c->rank[r];
  struct c3c_image *img = &k->building;
  memset(img, 0, sizeof *img);
  img->epoch = u->wave;
  img->position = u->index;
  img->n_sent = k->n_sent;
  img->n_recv = k->n_recv;
  memcpy(img->suppress, k->pending_early,
         (size_t)k->n_pending_early * sizeof(int));
  img->n_suppress = k->n_pending_early;
  k->n_pending_early = 0;
  say(c,
      "      checkpoint: epoch %d (safe point %lld), logging; suppress "
      "list: %d",
      u->wave, (long long)u->index, img->n_suppress);
}

static int store(struct c3c *c, int r, const struct ft_update *u) {
  const struct c3c_image *img = &c->rank[r].building;
  int64_t kept = 0;
  for (size_t i = 0; i < u->n_keep; i++)
    kept += u->keep[i].last - u->keep[i].first + 1;
  if (u->wave != img->epoch || kept != img->n_late)
    return fail(c,
                "rank %s: STORE of wave %d keeps %lld late messages, "
                "the log has %d of wave %d",
                name(r), u->wave, (long long)kept, img->n_late, img->epoch);
  c->rank[r].building.n_recv_at_stop = c->rank[r].n_recv;
  c->stores[c->n_stores++] = r;
  say(c, "      stop logging: store the log (%d late, %d decisions)",
      img->n_late, img->n_decisions);
  return 0;
}

static int commit(struct c3c *c, int wave) {
  for (int r = 0; r < c->ranks; r++) {
    const struct c3c_image *img = &c->rank[r].building;
    if (img->epoch != wave || !img->stored)
      return fail(c,
                  "commit of epoch %d: rank %s's image is of epoch %d "
                  "(stored %d)",
                  wave, name(r), img->epoch, img->stored);
  }
  for (int r = 0; r < c->ranks; r++)
    c->rank[r].committed = c->rank[r].building;
  c->committed = wave;
  say(c, "      commit epoch %d: the recovery line", wave);
  return c3c_check_recovery(c);
}

/* Steps rank r's core; for DELIVERED, `m` is the message. */
static int step(struct c3c *c, int r, struct ft_event e, struct c3c_msg *m,
                struct ft_update *u) {
  e.time = c->now;
  *u = (struct ft_update){0};
  if (c->ops->step(c->rank[r].core, &e, u) != 0)
    return fail(c, "rank %s: the core refused event %d", name(r), e.type);
  struct c3c_rank *k = &c->rank[r];
  if (r == 0)
    c->deadline = u->deadline;
  if (u->flags & FT_UPDATE_CAPTURE)
    capture(c, r, u);
  queue_controls(c, u);
  if ((u->flags & FT_UPDATE_EARLY) && m)
    k->pending_early[k->n_pending_early++] = m->number;
  if ((u->flags & FT_UPDATE_RECORD) && m)
    k->building.late[k->building.n_late++] = m->number;
  if (u->flags & FT_UPDATE_LOG)
    for (size_t i = 0; i < u->n_events; i++)
      k->building.decisions[k->building.n_decisions++] = u->events[i];
  if ((u->flags & FT_UPDATE_STORE) && store(c, r, u) != 0)
    return -1;
  if ((u->flags & FT_UPDATE_COMMIT) && commit(c, u->wave) != 0)
    return -1;
  return c->error[0] ? -1 : 0;
}

/* ---- The application -------------------------------------------------- */

int c3c_send(struct c3c *c, int from, int to, int tag) {
  if (c->n_msgs == C3C_MAX_MSGS)
    return fail(c, "too many messages");
  struct ft_update u;
  struct ft_event e = {
      .type = FT_EVENT_APP_SEND, .peer = to, .tag = tag, .bytes = 8};
  struct c3c_msg *m = &c->msg[c->n_msgs];
  *m = (struct c3c_msg){
      .from = from, .to = to, .tag = tag, .number = c->n_msgs + 1};
  if (step(c, from, e, NULL, &u) != 0)
    return -1;
  if (u.flags & FT_UPDATE_SUPPRESS)
    return fail(c, "rank %s: send suppressed outside a recovery", name(from));
  m->pb = u.piggyback;
  c->n_msgs++;
  struct c3c_rank *k = &c->rank[from];
  k->sent[k->n_sent++] = m->number;
  say(c, "[%5.2f] %s send m%d -> %s (epoch %d, logging %d, id %lld)", c->now,
      name(from), m->number, name(to), m->pb.epoch, m->pb.logging,
      (long long)m->pb.id);
  return m->number;
}

static const char *kind_of(const struct ft_update *u) {
  if (u->flags & FT_UPDATE_RECORD)
    return "late: logged";
  if (u->flags & FT_UPDATE_EARLY)
    return "early: suppress list";
  return "intra-epoch";
}

int c3c_recv(struct c3c *c, int to, int number, int wildcard) {
  if (number < 1 || number > c->n_msgs)
    return fail(c, "no message m%d", number);
  struct c3c_msg *m = &c->msg[number - 1];
  if (m->to != to || m->received)
    return fail(c, "m%d cannot be received by %s", number, name(to));
  struct ft_update u;
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .peer = wildcard ? -1 : m->from,
                       .tag = m->tag,
                       .wildcard = wildcard};
  if (step(c, to, e, NULL, &u) != 0)
    return -1;
  int was_logging = ft_c3_logging(c->rank[to].core);
  e = (struct ft_event){.type = FT_EVENT_DELIVERED,
                        .peer = m->from,
                        .tag = m->tag,
                        .bytes = 8,
                        .id = u.id,
                        .wildcard = wildcard,
                        .piggyback = m->pb};
  say(c, "[%5.2f] %s recv m%d <- %s%s", c->now, name(to), number, name(m->from),
      wildcard ? " (any source)" : "");
  if (step(c, to, e, m, &u) != 0)
    return -1;
  m->received = 1;
  m->received_epoch = ft_c3_epoch(c->rank[to].core);
  struct c3c_rank *k = &c->rank[to];
  k->recv_wild[k->n_recv] = wildcard;
  k->recv[k->n_recv++] = number;
  say(c, "      %s%s%s", kind_of(&u),
      (u.flags & FT_UPDATE_LOG) ? "; decision logged" : "",
      was_logging && !ft_c3_logging(c->rank[to].core)
          ? "; sender stopped logging"
          : "");
  return c->error[0] ? -1 : 0;
}

int c3c_safe_point(struct c3c *c, int r) {
  struct ft_update u;
  struct ft_event e = {.type = FT_EVENT_SAFE_POINT,
                       .peer = -1,
                       .index = ++c->rank[r].safe_points};
  if (c->tracing && ft_c3_phase(c->rank[r].core) == FT_C3_ASKED)
    say(c, "[%5.2f] %s safe point %lld", c->now, name(r), (long long)e.index);
  return step(c, r, e, NULL, &u);
}

int c3c_advance(struct c3c *c, double t) {
  struct ft_update u;
  c->now = t;
  if (c->deadline < 0 || t < c->deadline)
    return 0;
  say(c, "[%5.2f] %s timer: initiates epoch %d", c->now, name(0),
      ft_c3_epoch(c->rank[0].core) + 1);
  return step(c, 0, (struct ft_event){.type = FT_EVENT_TIMER, .peer = -1}, NULL,
              &u);
}

/* ---- Control messages and stores -------------------------------------- */

/* Delivers queued control `i`. */
static int deliver_control(struct c3c *c, int i) {
  struct ft_control k = c->controls[i];
  memmove(&c->controls[i], &c->controls[i + 1],
          (size_t)(c->n_controls - i - 1) * sizeof k);
  c->n_controls--;
  say(c, "[%5.2f] %s gets %s from %s", c->now, name(k.to),
      ft_c3_controls[k.kind], name(k.from));
  struct ft_update u;
  return step(
      c, k.to,
      (struct ft_event){.type = FT_EVENT_CONTROL, .peer = k.from, .control = k},
      NULL, &u);
}

/* Completes STORE `i`: the server has the rank's image. */
static int complete_store(struct c3c *c, int i) {
  int r = c->stores[i];
  memmove(&c->stores[i], &c->stores[i + 1],
          (size_t)(c->n_stores - i - 1) * sizeof(int));
  c->n_stores--;
  c->rank[r].building.stored = 1;
  say(c, "[%5.2f] %s image of epoch %d stored", c->now, name(r),
      c->rank[r].building.epoch);
  struct ft_update u;
  return step(c, r,
              (struct ft_event){.type = FT_EVENT_IMAGE_STORED,
                                .peer = -1,
                                .wave = c->rank[r].building.epoch},
              NULL, &u);
}

int c3c_pump_one(struct c3c *c) {
  if (c->n_controls > 0)
    return deliver_control(c, 0) == 0 ? 1 : -1;
  if (c->n_stores > 0)
    return complete_store(c, 0) == 0 ? 1 : -1;
  return 0;
}

int c3c_pump(struct c3c *c) {
  int rc;
  while ((rc = c3c_pump_one(c)) == 1)
    ;
  return rc;
}

/* ---- The recovery line ------------------------------------------------ */

static int index_of(const int *list, int n, int x) {
  for (int i = 0; i < n; i++)
    if (list[i] == x)
      return i;
  return -1;
}

/* Section 2.3, for message m and the committed images of its ends. */
static int check_message(struct c3c *c, const struct c3c_msg *m) {
  const struct c3c_rank *a = &c->rank[m->from], *b = &c->rank[m->to];
  int sent_before =
      index_of(a->sent, a->n_sent, m->number) < a->committed.n_sent;
  int at = index_of(b->recv, b->n_recv, m->number);
  int recv_before = at >= 0 && at < b->committed.n_recv;
  int logged = index_of(b->committed.late, b->committed.n_late, m->number) >= 0;
  int listed =
      index_of(b->committed.suppress, b->committed.n_suppress, m->number) >= 0;
  if (sent_before && !recv_before && !logged)
    return fail(c, "epoch %d: late m%d (%s -> %s) is not in %s's log: lost",
                c->committed, m->number, name(m->from), name(m->to),
                name(m->to));
  if (!sent_before && recv_before && !listed)
    return fail(c,
                "epoch %d: early m%d (%s -> %s) is not in %s's suppress "
                "list: delivered twice",
                c->committed, m->number, name(m->from), name(m->to),
                name(m->to));
  if (logged && !(sent_before && !recv_before))
    return fail(c, "epoch %d: m%d is logged but is not late", c->committed,
                m->number);
  if (listed && !(!sent_before && recv_before))
    return fail(c, "epoch %d: m%d is suppressed but is not early", c->committed,
                m->number);
  return 0;
}

/* The events a ROLLBACK hands rank r: the suppress entries of its sends in
 * the receivers' images, then its own decisions. */
static size_t rollback_events(struct c3c *c, int r,
                              struct ft_logged_event *out) {
  size_t n = 0;
  for (int b = 0; b < c->ranks; b++)
    for (int i = 0; i < c->rank[b].committed.n_suppress; i++) {
      const struct c3c_msg *m = &c->msg[c->rank[b].committed.suppress[i] - 1];
      if (m->from == r)
        out[n++] = (struct ft_logged_event){
            .kind = FT_LOGGED_SUPPRESS, .peer = b, .value = m->pb.id};
    }
  const struct c3c_image *img = &c->rank[r].committed;
  for (int i = 0; i < img->n_late; i++) {
    const struct c3c_msg *m = &c->msg[img->late[i] - 1];
    out[n++] = (struct ft_logged_event){
        .kind = FT_LOGGED_DELIVERY, .peer = m->from, .tag = m->tag};
  }
  for (int i = 0; i < img->n_decisions; i++)
    out[n++] = img->decisions[i];
  return n;
}

/* Whether m's receiver had it before its checkpoint: an early message. */
static int early(const struct c3c *c, const struct c3c_msg *m) {
  const struct c3c_rank *b = &c->rank[m->to];
  int at = index_of(b->recv, b->n_recv, m->number);
  return at >= 0 && at < b->committed.n_recv;
}

/* Re-executes send m on the restored core `core`. */
static int resend(struct c3c *c, void *core, const struct c3c_msg *m) {
  struct ft_update u = {0};
  struct ft_event e = {
      .type = FT_EVENT_APP_SEND, .time = c->now, .peer = m->to, .tag = m->tag};
  if (c->ops->step(core, &e, &u) != 0)
    return fail(c, "recovery: %s's core refused re-sending m%d", name(m->from),
                m->number);
  int suppress = (u.flags & FT_UPDATE_SUPPRESS) != 0;
  if (suppress != early(c, m))
    return fail(c,
                "epoch %d recovery: %s re-sends m%d -> %s: %s, but %s's "
                "checkpoint %s it",
                c->committed, name(m->from), m->number, name(m->to),
                suppress ? "suppressed" : "sent", name(m->to),
                early(c, m) ? "holds" : "does not hold");
  say(c, "      %s re-sends m%d -> %s: %s", name(m->from), m->number,
      name(m->to), suppress ? "suppressed (in its checkpoint)" : "sent");
  return 0;
}

/* Re-receives message m (number `k` after the checkpoint) on `core`. */
static int rerecv(struct c3c *c, void *core, const struct c3c_msg *m, int k,
                  int wildcard) {
  const struct c3c_image *img = &c->rank[m->to].committed;
  struct ft_update u = {0};
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .time = c->now,
                       .peer = wildcard ? -1 : m->from,
                       .tag = m->tag,
                       .wildcard = wildcard};
  if (c->ops->step(core, &e, &u) != 0 || u.id != k)
    return fail(c, "recovery: %s's receive %d refused or misnumbered",
                name(m->to), k);
  int logged = 0;
  for (int i = 0; i < img->n_decisions; i++)
    logged |= img->decisions[i].id == k;
  if (logged && (!(u.flags & FT_UPDATE_REPLAY) || u.replay.peer != m->from))
    return fail(c,
                "epoch %d recovery: %s's wildcard receive %d is not "
                "forced to %s",
                c->committed, name(m->to), k, name(m->from));
  int from_log = index_of(img->late, img->n_late, m->number) >= 0;
  struct ft_piggyback pb = m->pb;
  if (!from_log)
    pb = (struct ft_piggyback){.epoch = c->committed, .id = m->pb.id};
  e = (struct ft_event){.type = FT_EVENT_DELIVERED,
                        .time = c->now,
                        .peer = m->from,
                        .tag = m->tag,
                        .id = k,
                        .wildcard = wildcard,
                        .piggyback = pb};
  if (c->ops->step(core, &e, &u) != 0 ||
      (u.flags & (FT_UPDATE_RECORD | FT_UPDATE_EARLY)))
    return fail(c, "recovery: %s's core mistakes m%d", name(m->to), m->number);
  say(c, "      %s receives m%d <- %s%s%s", name(m->to), m->number,
      name(m->from), from_log ? " from its log (late)" : "",
      logged ? ", source forced by the logged decision" : "");
  return 0;
}

/* Rank r re-executes, on a copy of its core, what it did after its
 * checkpoint: its receives of the messages the recovery delivers again and
 * its sends. Each message received after the checkpoint is delivered once:
 * from the log if late, else re-sent by its sender. */
static int replay_rank(struct c3c *c, int r, void *core,
                       struct ft_logged_event *events) {
  struct ft_update u = {0};
  struct ft_event e = {.type = FT_EVENT_ROLLBACK,
                       .time = c->now,
                       .wave = c->committed,
                       .index = c->rank[r].committed.position};
  e.logged = events;
  e.n_logged = rollback_events(c, r, events);
  if (c->ops->step(core, &e, &u) != 0)
    return fail(c, "recovery: %s refused the ROLLBACK", name(r));
  const struct c3c_rank *k = &c->rank[r];
  for (int i = k->committed.n_sent; i < k->n_sent; i++)
    if (resend(c, core, &c->msg[k->sent[i] - 1]) != 0)
      return -1;
  for (int i = k->committed.n_recv; i < k->n_recv; i++) {
    const struct c3c_msg *m = &c->msg[k->recv[i] - 1];
    if (rerecv(c, core, m, i - k->committed.n_recv + 1, k->recv_wild[i]) != 0)
      return -1;
  }
  if (ft_c3_replaying(core))
    return fail(c,
                "epoch %d recovery: %s re-executed everything and still "
                "recovers",
                c->committed, name(r));
  return 0;
}

/* Section 3.1, Phase #2: every wildcard match rank r made between its
 * checkpoint and the end of its logging is in its log. */
static int check_decisions(struct c3c *c, int r) {
  const struct c3c_rank *k = &c->rank[r];
  const struct c3c_image *img = &k->committed;
  for (int i = img->n_recv; i < img->n_recv_at_stop; i++) {
    int logged = 0;
    for (int d = 0; d < img->n_decisions; d++)
      logged |= img->decisions[d].id == i - img->n_recv + 1 &&
                img->decisions[d].peer == c->msg[k->recv[i] - 1].from;
    if (k->recv_wild[i] && !logged)
      return fail(c,
                  "epoch %d: %s's wildcard receive %d (m%d) while "
                  "logging is not in its log",
                  c->committed, name(r), i - img->n_recv + 1, k->recv[i]);
  }
  return 0;
}

int c3c_check_recovery(struct c3c *c) {
  for (int i = 0; i < c->n_msgs; i++)
    if (check_message(c, &c->msg[i]) != 0)
      return -1;
  for (int r = 0; r < c->ranks; r++)
    if (check_decisions(c, r) != 0)
      return -1;
  say(c, "      --- a failure now: every rank rolls back to epoch %d",
      c->committed);
  struct ft_logged_event *events =
      malloc(3 * C3C_MAX_MSGS * sizeof(struct ft_logged_event));
  int rc = events ? 0 : fail(c, "out of memory");
  for (int r = 0; rc == 0 && r < c->ranks; r++) {
    size_t size = core_size(c, r);
    void *copy = malloc(size);
    if (!copy) {
      rc = fail(c, "out of memory");
      break;
    }
    memcpy(copy, c->rank[r].core, size);
    rc = replay_rank(c, r, copy, events);
    free(copy);
  }
  free(events);
  say(c, "      --- (the run goes on without the failure)");
  return rc;
}

/* ---- Seeded runs ------------------------------------------------------ */

static uint64_t rnd(uint64_t *x) { /* splitmix64 */
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int pick(uint64_t *x, int n) { return (int)(rnd(x) % (uint64_t)n); }

/* A random message to r not received yet, or 0. */
static int pending_to(struct c3c *c, int r, uint64_t *x) {
  int list[C3C_MAX_MSGS], n = 0;
  for (int i = 0; i < c->n_msgs; i++)
    if (c->msg[i].to == r && !c->msg[i].received)
      list[n++] = c->msg[i].number;
  return n ? list[pick(x, n)] : 0;
}

/* A random queued control that no earlier one of its pair precedes (the
 * runtime's control channel is FIFO per pair), delivered. */
static int random_control(struct c3c *c, uint64_t *x) {
  int i = pick(x, c->n_controls);
  for (int j = 0; j < i; j++)
    if (c->controls[j].from == c->controls[i].from &&
        c->controls[j].to == c->controls[i].to) {
      i = j;
      break;
    }
  return deliver_control(c, i);
}

static int random_action(struct c3c *c, uint64_t *x) {
  int a = pick(x, 100), r = pick(x, c->ranks);
  if (a < 30 && c->ranks > 1 && c->n_msgs < C3C_MAX_MSGS - 1) {
    int to = (r + 1 + pick(x, c->ranks - 1)) % c->ranks;
    return c3c_send(c, r, to, pick(x, 2)) < 0 ? -1 : 0;
  }
  if (a < 55) {
    int m = pending_to(c, r, x);
    return m ? c3c_recv(c, r, m, pick(x, 2)) : 0;
  }
  if (a < 65)
    return c3c_safe_point(c, r);
  if (a < 85)
    return c->n_controls ? random_control(c, x) : 0;
  if (a < 92)
    return c->n_stores ? complete_store(c, pick(x, c->n_stores)) : 0;
  return c3c_advance(c, c->now + 0.1 + (double)pick(x, 10) / 10.0);
}

/* The end of the program: every message received, every control and store
 * carried out, every asked rank at a safe point. */
static int drain(struct c3c *c, uint64_t *x) {
  for (int round = 0; round < 10000; round++) {
    int progress = 0, m;
    for (int r = 0; r < c->ranks; r++)
      while ((m = pending_to(c, r, x)) != 0) {
        if (c3c_recv(c, r, m, pick(x, 2)) != 0)
          return -1;
        progress = 1;
      }
    for (int rc; (rc = c3c_pump_one(c)) != 0; progress = 1)
      if (rc < 0)
        return -1;
    for (int r = 0; r < c->ranks; r++)
      if (ft_c3_phase(c->rank[r].core) == FT_C3_ASKED) {
        if (c3c_safe_point(c, r) != 0)
          return -1;
        progress = 1;
      }
    if (!progress)
      break;
  }
  for (int r = 0; r < c->ranks; r++)
    if (ft_c3_phase(c->rank[r].core) != FT_C3_IDLE)
      return fail(c, "stuck: rank %s in phase %d at the end", name(r),
                  ft_c3_phase(c->rank[r].core));
  return 0;
}

int c3c_seeded(const struct ft_protocol_ops *ops, uint64_t seed, int ranks,
               char *error, size_t len, int *commits) {
  struct c3c *c = malloc(sizeof *c);
  if (!c)
    return -1;
  uint64_t x = seed;
  int rc = c3c_init(c, ops, ranks, 1.0, 0);
  for (int i = 0; rc == 0 && i < 400; i++)
    rc = random_action(c, &x);
  if (rc == 0)
    rc = drain(c, &x);
  if (rc != 0 && error)
    snprintf(error, len, "seed %llu, %d ranks: %s", (unsigned long long)seed,
             ranks, c->error);
  if (commits)
    *commits = c->committed;
  c3c_free(c);
  free(c);
  return rc;
}
