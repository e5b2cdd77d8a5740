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

/* ---- A rank's history ------------------------------------------------- */

/* The identity the next send of rank r takes: its sends in ops[0..pc). */
static int next_k(const struct c3c_rank *k) {
  int n = 0;
  for (int i = 0; i < k->pc; i++)
    n += k->ops[i].send;
  return n + 1;
}

/* Whether rank r's history up to `upto` operations sent (from r) or
 * received (from another) identity (peer, k). */
static int did(const struct c3c_rank *rk, int upto, int send, int peer, int k) {
  for (int i = 0; i < upto; i++)
    if (rk->ops[i].send == send && rk->ops[i].peer == peer && rk->ops[i].k == k)
      return 1;
  return 0;
}

/* Records operation `op` at the rank's position: a new one, or the one
 * its re-execution must repeat. */
static int record(struct c3c *c, int r, struct c3c_op op) {
  struct c3c_rank *k = &c->rank[r];
  if (k->pc < k->n_ops) {
    const struct c3c_op *was = &k->ops[k->pc];
    if (was->send != op.send || was->peer != op.peer || was->k != op.k)
      return fail(c, "rank %s re-executes operation %d differently", name(r),
                  k->pc + 1);
    k->pc++;
    return 0;
  }
  if (k->n_ops == C3C_MAX_OPS)
    return fail(c, "rank %s: history full", name(r));
  k->ops[k->n_ops++] = op;
  k->pc = k->n_ops;
  return 0;
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
  img->n_ops = k->pc;
  memcpy(img->suppress, k->pending_early,
         (size_t)k->n_pending_early * sizeof(struct c3c_ref));
  img->n_suppress = k->n_pending_early;
  k->n_pending_early = 0;
  say(c,
      "      checkpoint: epoch %d (safe point %lld), logging; suppress "
      "list: %d",
      u->wave, (long long)u->index, img->n_suppress);
}

static int store(struct c3c *c, int r, const struct ft_update *u) {
  struct c3c_image *img = &c->rank[r].building;
  int64_t kept = 0;
  for (size_t i = 0; i < u->n_keep; i++)
    kept += u->keep[i].last - u->keep[i].first + 1;
  if (u->wave != img->epoch || kept != img->n_late)
    return fail(c,
                "rank %s: STORE of wave %d keeps %lld late messages, "
                "the log has %d of wave %d",
                name(r), u->wave, (long long)kept, img->n_late, img->epoch);
  img->ops_at_stop = c->rank[r].pc;
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
  c->commits++;
  say(c, "      commit epoch %d: the recovery line", wave);
  return c3c_check_recovery(c);
}

static struct c3c_ref ref_of(const struct c3c_msg *m) {
  return (struct c3c_ref){
      .from = m->from, .k = m->k, .tag = m->tag, .pb = m->pb};
}

/* Steps rank r's core; for DELIVERED, `m` is the message. */
static int step(struct c3c *c, int r, struct ft_event e,
                const struct c3c_msg *m, struct ft_update *u) {
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
    k->pending_early[k->n_pending_early++] = ref_of(m);
  if ((u->flags & FT_UPDATE_RECORD) && m)
    k->building.late[k->building.n_late++] = ref_of(m);
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

/* Rank `from` sends (tag) to `to`, as a new operation or re-executing one:
 * the message's number, 0 when the core suppressed it, -1 on an error. */
static int do_send(struct c3c *c, int from, int to, int tag) {
  if (c->n_msgs == C3C_MAX_MSGS)
    return fail(c, "too many messages");
  struct ft_update u;
  struct ft_event e = {
      .type = FT_EVENT_APP_SEND, .peer = to, .tag = tag, .bytes = 8};
  int k = next_k(&c->rank[from]);
  if (step(c, from, e, NULL, &u) != 0 ||
      record(c, from,
             (struct c3c_op){.send = 1, .peer = to, .tag = tag, .k = k}) != 0)
    return -1;
  if (u.flags & FT_UPDATE_SUPPRESS) {
    say(c,
        "[%5.2f] %s re-sends its send %d -> %s: suppressed (in %s's "
        "checkpoint)",
        c->now, name(from), k, name(to), name(to));
    return 0;
  }
  struct c3c_msg *m = &c->msg[c->n_msgs];
  *m = (struct c3c_msg){.from = from,
                        .to = to,
                        .tag = tag,
                        .k = k,
                        .number = c->n_msgs + 1,
                        .pb = u.piggyback};
  c->n_msgs++;
  say(c, "[%5.2f] %s send m%d -> %s (epoch %d, logging %d, id %lld)", c->now,
      name(from), m->number, name(to), m->pb.epoch, m->pb.logging,
      (long long)m->pb.id);
  return m->number;
}

int c3c_send(struct c3c *c, int from, int to, int tag) {
  if (c->rank[from].pc < c->rank[from].n_ops)
    return fail(c, "rank %s re-executes: no new send", name(from));
  return do_send(c, from, to, tag);
}

static const char *kind_of(const struct ft_update *u) {
  if (u->flags & FT_UPDATE_RECORD)
    return "late: logged";
  if (u->flags & FT_UPDATE_EARLY)
    return "early: suppress list";
  return "intra-epoch";
}

/* Rank `to` receives `m` (a message on the wire, or one of its log):
 * APP_RECV, then DELIVERED with what the message carried. */
static int deliver(struct c3c *c, int to, struct c3c_ref m, int wildcard,
                   int from_log) {
  struct c3c_rank *k = &c->rank[to];
  if (did(k, k->pc, 0, m.from, m.k))
    return fail(c, "%s receives %s's send %d twice", name(to), name(m.from),
                m.k);
  struct ft_update u;
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .peer = wildcard ? -1 : m.from,
                       .tag = m.tag,
                       .wildcard = wildcard};
  if (step(c, to, e, NULL, &u) != 0)
    return -1;
  int forced = (u.flags & FT_UPDATE_REPLAY) != 0;
  if (forced && u.replay.peer != m.from)
    return fail(c,
                "%s's wildcard receive is forced to %s, the history "
                "says %s",
                name(to), name(u.replay.peer), name(m.from));
  int was_logging = ft_c3_logging(k->core);
  struct c3c_msg as_msg = {
      .from = m.from, .to = to, .tag = m.tag, .k = m.k, .pb = m.pb};
  e = (struct ft_event){.type = FT_EVENT_DELIVERED,
                        .peer = m.from,
                        .tag = m.tag,
                        .bytes = 8,
                        .id = u.id,
                        .wildcard = wildcard,
                        .piggyback = m.pb};
  if (step(c, to, e, &as_msg, &u) != 0 ||
      record(c, to,
             (struct c3c_op){.send = 0,
                             .peer = m.from,
                             .tag = m.tag,
                             .k = m.k,
                             .wildcard = wildcard}) != 0)
    return -1;
  say(c, "      %s%s%s%s", from_log ? "late, from its log" : kind_of(&u),
      (u.flags & FT_UPDATE_LOG) ? "; decision logged" : "",
      forced ? "; source forced by its log" : "",
      was_logging && !ft_c3_logging(k->core) ? "; sender stopped logging" : "");
  return c->error[0] ? -1 : 0;
}

static int receive_msg(struct c3c *c, int to, struct c3c_msg *m, int wildcard) {
  say(c, "[%5.2f] %s recv m%d <- %s%s", c->now, name(to), m->number,
      name(m->from), wildcard ? " (any source)" : "");
  m->state = 1;
  return deliver(c, to, ref_of(m), wildcard, 0);
}

int c3c_recv(struct c3c *c, int to, int number, int wildcard) {
  if (number < 1 || number > c->n_msgs)
    return fail(c, "no message m%d", number);
  struct c3c_msg *m = &c->msg[number - 1];
  if (m->to != to || m->state != 0)
    return fail(c, "m%d cannot be received by %s", number, name(to));
  if (c->rank[to].pc < c->rank[to].n_ops)
    return fail(c, "rank %s re-executes: no new receive", name(to));
  return receive_msg(c, to, m, wildcard);
}

/* The receive rank r re-executes: from its log if the message is there,
 * else from the wire once its sender sent it again. 1 done, 0 not yet. */
static int rereceive(struct c3c *c, int r, const struct c3c_op *op) {
  struct c3c_rank *k = &c->rank[r];
  for (int i = 0; i < k->n_log; i++)
    if (k->log[i].from == op->peer && k->log[i].k == op->k) {
      struct c3c_ref m = k->log[i];
      k->log[i] = k->log[--k->n_log];
      say(c, "[%5.2f] %s recv %s's send %d from its log%s", c->now, name(r),
          name(m.from), m.k, op->wildcard ? " (any source)" : "");
      return deliver(c, r, m, op->wildcard, 1) == 0 ? 1 : -1;
    }
  for (int i = 0; i < c->n_msgs; i++) {
    struct c3c_msg *m = &c->msg[i];
    if (m->state == 0 && m->to == r && m->from == op->peer && m->k == op->k)
      return receive_msg(c, r, m, op->wildcard) == 0 ? 1 : -1;
  }
  return 0;
}

int c3c_reexecute(struct c3c *c, int r) {
  struct c3c_rank *k = &c->rank[r];
  if (k->pc >= k->n_ops)
    return 0;
  const struct c3c_op op = k->ops[k->pc];
  if (op.send)
    return do_send(c, r, op.peer, op.tag) < 0 ? -1 : 1;
  return rereceive(c, r, &op);
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

static int find_ref(const struct c3c_ref *list, int n, int from, int k) {
  for (int i = 0; i < n; i++)
    if (list[i].from == from && list[i].k == k)
      return 1;
  return 0;
}

/* Section 2.3, for the send op of rank a (identity (a, k)) to b. */
static int check_message(struct c3c *c, int a, const struct c3c_op *op) {
  const struct c3c_rank *ra = &c->rank[a], *rb = &c->rank[op->peer];
  int sent_before = did(ra, ra->committed.n_ops, 1, op->peer, op->k);
  int recv_before = did(rb, rb->committed.n_ops, 0, a, op->k);
  int logged = find_ref(rb->committed.late, rb->committed.n_late, a, op->k);
  int listed =
      find_ref(rb->committed.suppress, rb->committed.n_suppress, a, op->k);
  if (sent_before && !recv_before && !logged)
    return fail(c,
                "epoch %d: late %s's send %d -> %s is not in %s's log: "
                "lost",
                c->committed, name(a), op->k, name(op->peer), name(op->peer));
  if (!sent_before && recv_before && !listed)
    return fail(c,
                "epoch %d: early %s's send %d -> %s is not in %s's "
                "suppress list: delivered twice",
                c->committed, name(a), op->k, name(op->peer), name(op->peer));
  if (logged != (sent_before && !recv_before) ||
      listed != (!sent_before && recv_before))
    return fail(c,
                "epoch %d: %s's send %d is logged or suppressed but is "
                "neither late nor early",
                c->committed, name(a), op->k);
  return 0;
}

/* Section 3.1, Phase #2: every wildcard match rank r made between its
 * checkpoint and the end of its logging is in its log. */
static int check_decisions(struct c3c *c, int r) {
  const struct c3c_rank *k = &c->rank[r];
  const struct c3c_image *img = &k->committed;
  for (int i = img->n_ops, nrecv = 0; i < img->ops_at_stop; i++) {
    if (k->ops[i].send)
      continue;
    nrecv++;
    int logged = 0;
    for (int d = 0; d < img->n_decisions; d++)
      logged |= img->decisions[d].id == nrecv &&
                img->decisions[d].peer == k->ops[i].peer;
    if (k->ops[i].wildcard && !logged)
      return fail(c,
                  "epoch %d: %s's wildcard receive %d while logging is "
                  "not in its log",
                  c->committed, name(r), nrecv);
  }
  return 0;
}

/* The events a ROLLBACK hands rank r: the suppress entries of its sends in
 * the receivers' images, the late messages of its log, its decisions. */
static size_t rollback_events(struct c3c *c, int r,
                              struct ft_logged_event *out) {
  size_t n = 0;
  for (int b = 0; b < c->ranks; b++)
    for (int i = 0; i < c->rank[b].committed.n_suppress; i++) {
      const struct c3c_ref *m = &c->rank[b].committed.suppress[i];
      if (m->from == r)
        out[n++] = (struct ft_logged_event){
            .kind = FT_LOGGED_SUPPRESS, .peer = b, .value = m->pb.id};
    }
  const struct c3c_image *img = &c->rank[r].committed;
  for (int i = 0; i < img->n_late; i++)
    out[n++] = (struct ft_logged_event){.kind = FT_LOGGED_DELIVERY,
                                        .peer = img->late[i].from,
                                        .tag = img->late[i].tag};
  for (int i = 0; i < img->n_decisions; i++)
    out[n++] = img->decisions[i];
  return n;
}

/* Re-executes send `op` of rank r on the restored copy `core`. */
static int resend(struct c3c *c, int r, void *core, const struct c3c_op *op) {
  struct ft_update u = {0};
  struct ft_event e = {.type = FT_EVENT_APP_SEND,
                       .time = c->now,
                       .peer = op->peer,
                       .tag = op->tag};
  if (c->ops->step(core, &e, &u) != 0)
    return fail(c, "recovery: %s's core refused re-sending", name(r));
  const struct c3c_rank *rb = &c->rank[op->peer];
  int early = did(rb, rb->committed.n_ops, 0, r, op->k);
  int suppress = (u.flags & FT_UPDATE_SUPPRESS) != 0;
  if (suppress != early)
    return fail(c,
                "epoch %d recovery: %s re-sends its send %d -> %s: %s, "
                "but %s's checkpoint %s it",
                c->committed, name(r), op->k, name(op->peer),
                suppress ? "suppressed" : "sent", name(op->peer),
                early ? "holds" : "does not hold");
  say(c, "      %s re-sends its send %d -> %s: %s", name(r), op->k,
      name(op->peer), suppress ? "suppressed (in its checkpoint)" : "sent");
  return 0;
}

/* Re-receives the n-th receive after the checkpoint, `op`, on `core`. */
static int rerecv(struct c3c *c, int r, void *core, const struct c3c_op *op,
                  int n) {
  const struct c3c_image *img = &c->rank[r].committed;
  struct ft_update u = {0};
  struct ft_event e = {.type = FT_EVENT_APP_RECV,
                       .time = c->now,
                       .peer = op->wildcard ? -1 : op->peer,
                       .tag = op->tag,
                       .wildcard = op->wildcard};
  if (c->ops->step(core, &e, &u) != 0 || u.id != n)
    return fail(c, "recovery: %s's receive %d refused or misnumbered", name(r),
                n);
  int logged = 0;
  for (int i = 0; i < img->n_decisions; i++)
    logged |= img->decisions[i].id == n;
  if (logged && (!(u.flags & FT_UPDATE_REPLAY) || u.replay.peer != op->peer))
    return fail(c,
                "epoch %d recovery: %s's wildcard receive %d is not "
                "forced to %s",
                c->committed, name(r), n, name(op->peer));
  int from_log = 0;
  struct ft_piggyback pb = {.epoch = c->committed};
  for (int i = 0; i < img->n_late; i++)
    if (img->late[i].from == op->peer && img->late[i].k == op->k) {
      from_log = 1;
      pb = img->late[i].pb;
    }
  e = (struct ft_event){.type = FT_EVENT_DELIVERED,
                        .time = c->now,
                        .peer = op->peer,
                        .tag = op->tag,
                        .id = n,
                        .wildcard = op->wildcard,
                        .piggyback = pb};
  if (c->ops->step(core, &e, &u) != 0 ||
      (u.flags & (FT_UPDATE_RECORD | FT_UPDATE_EARLY)))
    return fail(c, "recovery: %s's core mistakes %s's send %d", name(r),
                name(op->peer), op->k);
  say(c, "      %s receives %s's send %d%s%s", name(r), name(op->peer), op->k,
      from_log ? " from its log (late)" : "",
      logged ? ", source forced by the logged decision" : "");
  return 0;
}

/* Rank r re-executes, on a copy of its core, its history after its
 * checkpoint (sends first: the order between sends and receives does not
 * change what the core decides). */
static int replay_rank(struct c3c *c, int r, void *core,
                       struct ft_logged_event *events) {
  struct ft_update u = {0};
  struct ft_event e = {
      .type = FT_EVENT_ROLLBACK, .time = c->now, .wave = c->committed};
  e.logged = events;
  e.n_logged = rollback_events(c, r, events);
  if (c->ops->step(core, &e, &u) != 0)
    return fail(c, "recovery: %s refused the ROLLBACK", name(r));
  const struct c3c_rank *k = &c->rank[r];
  for (int i = k->committed.n_ops; i < k->pc; i++)
    if (k->ops[i].send && resend(c, r, core, &k->ops[i]) != 0)
      return -1;
  for (int i = k->committed.n_ops, n = 0; i < k->pc; i++)
    if (!k->ops[i].send && rerecv(c, r, core, &k->ops[i], ++n) != 0)
      return -1;
  if (ft_c3_replaying(core))
    return fail(c,
                "epoch %d recovery: %s re-executed everything and still "
                "recovers",
                c->committed, name(r));
  return 0;
}

int c3c_check_recovery(struct c3c *c) {
  for (int a = 0; a < c->ranks; a++)
    for (int i = 0; i < c->rank[a].pc; i++)
      if (c->rank[a].ops[i].send && check_message(c, a, &c->rank[a].ops[i]))
        return -1;
  for (int r = 0; r < c->ranks; r++)
    if (check_decisions(c, r) != 0)
      return -1;
  say(c, "      --- if a failure came now: every rank rolls back to epoch %d",
      c->committed);
  struct ft_logged_event *events =
      malloc(3 * C3C_MAX_OPS * sizeof(struct ft_logged_event));
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
  say(c, "      --- (it does not: the run goes on)");
  return rc;
}

/* ---- Failures --------------------------------------------------------- */

/* Rank r restores its committed image (the start when none). */
static int restore(struct c3c *c, int r) {
  struct c3c_rank *k = &c->rank[r];
  if (c->committed == 0)
    memset(&k->committed, 0, sizeof k->committed);
  k->pc = k->committed.n_ops;
  k->n_pending_early = 0;
  memset(&k->building, 0, sizeof k->building);
  memcpy(k->log, k->committed.late,
         (size_t)k->committed.n_late * sizeof(struct c3c_ref));
  k->n_log = k->committed.n_late;
  struct ft_update u;
  struct ft_event e = {
      .type = FT_EVENT_ROLLBACK, .peer = -1, .wave = c->committed};
  e.logged = c->rb[r];
  e.n_logged = rollback_events(c, r, c->rb[r]);
  return step(c, r, e, NULL, &u);
}

int c3c_fail(struct c3c *c) {
  c->failures++;
  say(c, "[%5.2f] FAILURE: every rank rolls back to epoch %d", c->now,
      c->committed);
  for (int i = 0; i < c->n_msgs; i++)
    if (c->msg[i].state == 0)
      c->msg[i].state = 2;
  c->n_controls = c->n_stores = 0;
  for (int r = 0; r < c->ranks; r++)
    if (restore(c, r) != 0)
      return -1;
  return 0;
}

/* ---- Seeded runs ------------------------------------------------------ */

static uint64_t rnd(uint64_t *x) { /* splitmix64 */
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int pick(uint64_t *x, int n) { return (int)(rnd(x) % (uint64_t)n); }

/* A random message in flight to r, or 0. */
static int pending_to(struct c3c *c, int r, uint64_t *x) {
  int list[C3C_MAX_MSGS], n = 0;
  for (int i = 0; i < c->n_msgs; i++)
    if (c->msg[i].to == r && c->msg[i].state == 0)
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

static int reexecuting(const struct c3c *c, int r) {
  return c->rank[r].pc < c->rank[r].n_ops;
}

/* One application step of rank r: its re-execution if it has one, else a
 * random send or receive. */
static int app_action(struct c3c *c, int r, int a, uint64_t *x) {
  if (reexecuting(c, r))
    return c3c_reexecute(c, r) < 0 ? -1 : 0;
  if (a < 30 && c->ranks > 1) {
    int to = (r + 1 + pick(x, c->ranks - 1)) % c->ranks;
    return c3c_send(c, r, to, pick(x, 2)) < 0 ? -1 : 0;
  }
  int m = pending_to(c, r, x);
  return m ? c3c_recv(c, r, m, pick(x, 2)) : 0;
}

static int random_action(struct c3c *c, uint64_t *x, int *failures) {
  int a = pick(x, 1000) / 10, r = pick(x, c->ranks);
  if (*failures > 0 && pick(x, 200) == 0) {
    --*failures;
    return c3c_fail(c);
  }
  if (a < 55)
    return app_action(c, r, a, x);
  if (a < 65)
    return c3c_safe_point(c, r);
  if (a < 85)
    return c->n_controls ? random_control(c, x) : 0;
  if (a < 92)
    return c->n_stores ? complete_store(c, pick(x, c->n_stores)) : 0;
  return c3c_advance(c, c->now + 0.1 + (double)pick(x, 10) / 10.0);
}

/* Whether any rank's application can still act: a step taken, or -1. */
static int drain_apps(struct c3c *c, uint64_t *x) {
  int progress = 0;
  for (int r = 0; r < c->ranks; r++) {
    int rc, m;
    while ((rc = c3c_reexecute(c, r)) == 1)
      progress = 1;
    if (rc < 0)
      return -1;
    while (!reexecuting(c, r) && (m = pending_to(c, r, x)) != 0) {
      if (c3c_recv(c, r, m, pick(x, 2)) != 0)
        return -1;
      progress = 1;
    }
  }
  return progress;
}

/* Every identity sent in the histories is received exactly once. */
static int check_end(struct c3c *c) {
  for (int a = 0; a < c->ranks; a++)
    for (int i = 0; i < c->rank[a].pc; i++) {
      const struct c3c_op *op = &c->rank[a].ops[i];
      if (op->send &&
          !did(&c->rank[op->peer], c->rank[op->peer].pc, 0, a, op->k))
        return fail(c, "%s's send %d to %s was never received: lost", name(a),
                    op->k, name(op->peer));
    }
  for (int r = 0; r < c->ranks; r++) {
    if (reexecuting(c, r))
      return fail(c, "stuck: %s waits for %s's send %d", name(r),
                  name(c->rank[r].ops[c->rank[r].pc].peer),
                  c->rank[r].ops[c->rank[r].pc].k);
    if (ft_c3_phase(c->rank[r].core) != FT_C3_IDLE)
      return fail(c, "stuck: rank %s in phase %d at the end", name(r),
                  ft_c3_phase(c->rank[r].core));
  }
  return 0;
}

/* The end of the program: every message received, every control and store
 * carried out, every asked rank at a safe point. */
static int drain(struct c3c *c, uint64_t *x) {
  for (int round = 0; round < 10000; round++) {
    int progress = drain_apps(c, x);
    if (progress < 0)
      return -1;
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
  return check_end(c);
}

int c3c_seeded(const struct ft_protocol_ops *ops, uint64_t seed, int ranks,
               int failures, char *error, size_t len, int *commits,
               int *failed) {
  struct c3c *c = malloc(sizeof *c);
  if (!c)
    return -1;
  uint64_t x = seed;
  int left = failures;
  int rc = c3c_init(c, ops, ranks, 1.0, 0);
  for (int i = 0; rc == 0 && i < 400; i++)
    rc = random_action(c, &x, &left);
  if (rc == 0)
    rc = drain(c, &x);
  if (rc != 0 && error)
    snprintf(error, len, "seed %llu, %d ranks, %d failures: %s",
             (unsigned long long)seed, ranks, failures, c->error);
  if (commits)
    *commits = c->commits;
  if (failed)
    *failed = c->failures;
  c3c_free(c);
  free(c);
  return rc;
}
