/* Protocols `pessimist` and `v2`: pessimistic sender-based message logging
 * (see pessimist.h). Pure: no MPI, no clock, no I/O, no allocation. */
#include "pessimist.h"

#include <string.h>

enum {
  DEFAULT_BATCH = 64,
  /* Requests one COMPLETION may report beyond a full batch. */
  MAX_COMPLETED = 1024,
};

struct pessimist_state {
  int rank, ranks;
  int classical; /* v2: every reception is an event, copied */
  int any_call;  /* any-call mode: a receive pending at a checkpoint is
                    posted again after the restore (on_recv) */
  double period; /* <= 0: never checkpoint */
  double next_checkpoint;
  int64_t clock;       /* the last id given */
  int64_t horizon;     /* ids up to this one are replayed, not logged */
  int64_t shipped;     /* events shipped to the logger, in its count */
  int64_t acked;       /* events the logger says it holds */
  int64_t lazy_failed; /* last probe/completion that found nothing and has
                          no event yet, or 0 */
  int waiting;         /* a send waits for the acknowledgements */
  int checkpoint;      /* this rank's last checkpoint number */
  int storing;         /* checkpoint `checkpoint` is on its way */
  int stored;          /* ... and its server has it */
  int64_t needed;      /* events to be acknowledged before its commit */
  /* Replay: the events the logger gave back at RESTART (runtime-owned,
   * sorted by id). */
  const struct ft_logged_event *logged;
  size_t n_logged;
  int64_t replay_ids[MAX_COMPLETED]; /* REPLAY of a completion */
  size_t batch, n_pending, n_shipping;
  struct ft_logged_event pending[]; /* batch + MAX_COMPLETED + 1 */
};

static size_t capacity(const struct ft_core_config *config) {
  size_t batch = config->batch > 0 ? (size_t)config->batch : DEFAULT_BATCH;
  return batch + MAX_COMPLETED + 1;
}

static size_t state_size(const struct ft_core_config *config) {
  return sizeof(struct pessimist_state) +
         capacity(config) * sizeof(struct ft_logged_event);
}

static int init(void *state, const struct ft_core_config *config,
                int classical) {
  struct pessimist_state *s = state;
  if (config->ranks <= 0 || config->rank < 0 || config->rank >= config->ranks ||
      config->batch < 0)
    return -1;
  memset(s, 0, sizeof *s);
  s->rank = config->rank;
  s->ranks = config->ranks;
  s->classical = classical;
  s->any_call = config->any_call != 0;
  s->period = config->period > 0 ? config->period : 0.0;
  s->next_checkpoint = config->start + s->period;
  s->batch = config->batch > 0 ? (size_t)config->batch : DEFAULT_BATCH;
  return 0;
}

/* Both modes (pessimist.h, "Any-call mode"). */
static int pessimist_init(void *state, const struct ft_core_config *config) {
  return init(state, config, 0);
}

static int v2_init(void *state, const struct ft_core_config *config) {
  return init(state, config, 1);
}

/* ---- The event buffer --------------------------------------------------- */

static int replayed(const struct pessimist_state *s, int64_t id) {
  return id <= s->horizon;
}

static int add_event(struct pessimist_state *s, int64_t id,
                     enum ft_logged_kind kind, int peer, int tag,
                     int64_t value) {
  if (s->n_pending >= s->batch + MAX_COMPLETED + 1)
    return -1;
  s->pending[s->n_pending++] = (struct ft_logged_event){
      .id = id, .kind = kind, .peer = peer, .tag = tag, .value = value};
  return 0;
}

/* The lazy event of the failed calls, before anything that needs it
 * logged (a send, a checkpoint). */
static int flush_lazy(struct pessimist_state *s) {
  int64_t id = s->lazy_failed;
  s->lazy_failed = 0;
  return id ? add_event(s, id, FT_LOGGED_FAILED, -1, -1, 0) : 0;
}

static void ship(struct pessimist_state *s, struct ft_update *u) {
  if (s->n_pending == 0)
    return;
  u->flags |= FT_UPDATE_LOG;
  u->events = s->pending;
  u->n_events = s->n_pending;
  s->shipped += (int64_t)s->n_pending;
  s->n_shipping = s->n_pending;
}

/* ---- Replay ------------------------------------------------------------- */

/* From pessimist-openmpi-v, section 3.2: "During recovery, the first step
 * is to retrieve the events related to the MPI process from the event
 * logger." They are sorted by id: returns the first event with this id, or
 * NULL (with *n the number of events of that id). */
static const struct ft_logged_event *logged_of(const struct pessimist_state *s,
                                               int64_t id, size_t *n) {
  size_t lo = 0, hi = s->n_logged;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->logged[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (*n = 0; lo + *n < s->n_logged && s->logged[lo + *n].id == id;)
    (*n)++;
  return *n ? &s->logged[lo] : NULL;
}

static const struct ft_logged_event *
find_logged(const struct pessimist_state *s, int64_t id, int kind, int kind2) {
  size_t n;
  const struct ft_logged_event *e = logged_of(s, id, &n);
  for (size_t i = 0; i < n; i++)
    if (e[i].kind == kind || e[i].kind == kind2)
      return &e[i];
  return NULL;
}

/* "Then every promiscuous source is replaced by the well specified source
 * of the event corresponding to the request identifier. Because channels
 * are FIFO, enforcing the source is enough to replay the original matching
 * order." A wildcard receive without its event (v2 logs a DELIVERY for a
 * named one) stays as posted. */
static void replay_recv(struct pessimist_state *s, const struct ft_event *e,
                        int64_t id, struct ft_update *u) {
  if (!replayed(s, id) || !e->wildcard)
    return;
  const struct ft_logged_event *l =
      find_logged(s, id, FT_LOGGED_MATCH, FT_LOGGED_DELIVERY);
  if (!l)
    return;
  u->flags |= FT_UPDATE_REPLAY;
  u->replay.peer = l->peer;
  u->replay.tag = l->tag;
}

/* A probe below the horizon finds what its event says; without one, it
 * found nothing (lazy logging left no event for a failed probe). */
static void replay_probe(struct pessimist_state *s, struct ft_update *u) {
  int64_t id = s->clock + 1; /* the id its PROBED takes */
  u->flags |= FT_UPDATE_PASS;
  if (!replayed(s, id))
    return;
  const struct ft_logged_event *l =
      find_logged(s, id, FT_LOGGED_PROBE, FT_LOGGED_PROBE);
  u->flags |= FT_UPDATE_REPLAY;
  u->replay.found = l != NULL;
  u->replay.peer = l ? l->peer : -1;
  u->replay.tag = l ? l->tag : -1;
}

/* "During replay, when the NDD clock is equal to the clock of the first
 * event, the corresponding requests are completed by waiting for each of
 * them ... NDD whose clock is lower than the first NDD event in the log
 * have to return no request completed." */
static void replay_completion(struct pessimist_state *s, struct ft_update *u) {
  int64_t id = s->clock + 1; /* the id its COMPLETION takes */
  u->flags |= FT_UPDATE_PASS;
  if (!replayed(s, id))
    return;
  size_t n, k = 0;
  const struct ft_logged_event *l = logged_of(s, id, &n);
  for (size_t i = 0; i < n && k < MAX_COMPLETED; i++)
    if (l[i].kind == FT_LOGGED_COMPLETION)
      s->replay_ids[k++] = l[i].value;
  u->flags |= FT_UPDATE_REPLAY;
  u->replay.ids = s->replay_ids;
  u->replay.n_ids = k;
}

/* ---- Steps -------------------------------------------------------------- */

/* A receive posted. In any-call mode, `id` > 0 is a receive the image
 * held pending, posted again after the restore: it keeps its id (given
 * before the checkpoint, so at most the clock) and is replayed like a new
 * one: "every promiscuous source is replaced by the well specified source
 * of the event corresponding to the request identifier" (section 3.2). */
static int on_recv(struct pessimist_state *s, const struct ft_event *e,
                   struct ft_update *u) {
  if (e->peer < -1 || e->peer >= s->ranks || e->id < 0)
    return -1;
  if (e->id > 0) {
    if (!s->any_call || e->id > s->clock)
      return -1;
    u->id = e->id;
    u->flags |= FT_UPDATE_PASS;
    replay_recv(s, e, u->id, u);
    return 0;
  }
  u->id = ++s->clock;
  u->flags |= FT_UPDATE_PASS;
  replay_recv(s, e, u->id, u);
  return 0;
}

/* "every event is safely logged before any MPI send can progress" */
static int on_send(struct pessimist_state *s, struct ft_update *u) {
  u->id = ++s->clock;
  if (flush_lazy(s) != 0)
    return -1;
  ship(s, u);
  u->flags |= FT_UPDATE_PASS | FT_UPDATE_SENDER_LOG;
  if (s->acked < s->shipped) {
    s->waiting = 1;
    u->flags |= FT_UPDATE_WAIT_LOGGED;
  }
  return 0;
}

/* A reception is replayed when the logger gave back its event; one posted
 * below the horizon may still have matched only after the failure (an
 * MPI_Irecv completed by a later call): it is live, and logged. */
static int on_delivered(struct pessimist_state *s, const struct ft_event *e,
                        struct ft_update *u) {
  u->flags |= FT_UPDATE_PASS;
  if (s->classical)
    u->flags |= FT_UPDATE_COPY;
  if (!e->wildcard && !s->classical)
    return 0;
  if (replayed(s, e->id) &&
      find_logged(s, e->id, FT_LOGGED_MATCH, FT_LOGGED_DELIVERY))
    return 0;
  return add_event(s, e->id, e->wildcard ? FT_LOGGED_MATCH : FT_LOGGED_DELIVERY,
                   e->peer, e->tag, (int64_t)e->bytes);
}

/* "If a NDD succeeds, any pending lazy NDD is discarded." */
static int on_probed(struct pessimist_state *s, const struct ft_event *e,
                     struct ft_update *u) {
  int64_t id = u->id = ++s->clock;
  u->flags |= FT_UPDATE_PASS;
  if (replayed(s, id))
    return 0;
  if (e->index == 0) {
    s->lazy_failed = id;
    return 0;
  }
  s->lazy_failed = 0;
  return add_event(s, id, FT_LOGGED_PROBE, e->peer, e->tag, (int64_t)e->bytes);
}

static int on_completion(struct pessimist_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  int64_t id = u->id = ++s->clock;
  u->flags |= FT_UPDATE_PASS;
  if (e->n_ids > MAX_COMPLETED || (e->n_ids > 0 && !e->ids))
    return -1;
  if (replayed(s, id))
    return 0;
  if (e->n_ids == 0) {
    s->lazy_failed = id;
    return 0;
  }
  s->lazy_failed = 0;
  for (size_t i = 0; i < e->n_ids; i++)
    if (add_event(s, id, FT_LOGGED_COMPLETION, -1, -1, e->ids[i]) != 0)
      return -1;
  return 0;
}

static void commit_if_ready(struct pessimist_state *s, double now,
                            struct ft_update *u) {
  if (!s->storing || !s->stored || s->acked < s->needed)
    return;
  s->storing = s->stored = 0;
  s->next_checkpoint = now + s->period;
  u->flags |= FT_UPDATE_COMMIT;
  u->wave = s->checkpoint;
}

/* Uncoordinated: "each rank checkpoints on its own". The events of the
 * run so far go with the checkpoint: a restart runs main() again from the
 * top and replays those before its first safe point. */
static int on_safe_point(struct pessimist_state *s, const struct ft_event *e,
                         struct ft_update *u) {
  u->flags |= FT_UPDATE_PASS;
  if (s->period <= 0 || s->storing || e->time < s->next_checkpoint)
    return 0;
  if (flush_lazy(s) != 0)
    return -1;
  ship(s, u);
  s->storing = 1;
  s->needed = s->shipped;
  u->flags |= FT_UPDATE_CHECKPOINT;
  u->wave = ++s->checkpoint;
  u->id = s->clock;
  return 0;
}

static int on_logged(struct pessimist_state *s, const struct ft_event *e,
                     struct ft_update *u) {
  const struct ft_control *c = &e->control;
  if (c->kind != FT_ML_CONTROL_LOGGED || c->to != s->rank || c->value < 0)
    return -1;
  if (c->value > s->acked)
    s->acked = c->value;
  if (s->waiting && s->acked >= s->shipped) {
    s->waiting = 0;
    u->flags |= FT_UPDATE_RELEASE;
  }
  commit_if_ready(s, e->time, u);
  return 0;
}

static int on_image_stored(struct pessimist_state *s, const struct ft_event *e,
                           struct ft_update *u) {
  if (!s->storing || e->wave != s->checkpoint)
    return 0; /* an image of a life before a restart */
  s->stored = 1;
  commit_if_ready(s, e->time, u);
  return 0;
}

/* main() runs again: ids restart from 0 and, up to the last logged one,
 * are replayed. The logger's count is the truth. */
static int on_restart(struct pessimist_state *s, const struct ft_event *e) {
  if (e->index < 0 || (e->n_logged > 0 && !e->logged))
    return -1;
  for (size_t i = 1; i < e->n_logged; i++)
    if (e->logged[i].id < e->logged[i - 1].id)
      return -1; /* not sorted by id */
  s->logged = e->logged;
  s->n_logged = e->n_logged;
  s->clock = 0;
  s->horizon = e->id;
  s->shipped = s->acked = e->index;
  s->n_pending = 0;
  s->lazy_failed = 0;
  s->waiting = s->storing = s->stored = 0;
  s->next_checkpoint = e->time + s->period;
  return 0;
}

static int on_rollback(struct pessimist_state *s, const struct ft_event *e) {
  if (e->id < 0 || e->wave < 0)
    return -1;
  s->clock = e->id;
  if (e->wave > s->checkpoint)
    s->checkpoint = e->wave;
  s->next_checkpoint = e->time + s->period;
  return 0;
}

static int dispatch(struct pessimist_state *s, const struct ft_event *e,
                    struct ft_update *u) {
  switch (e->type) {
  case FT_EVENT_APP_SEND:
    return e->peer < 0 || e->peer >= s->ranks ? -1 : on_send(s, u);
  case FT_EVENT_APP_RECV:
    return on_recv(s, e, u);
  case FT_EVENT_APP_PROBE:
    replay_probe(s, u);
    return 0;
  case FT_EVENT_APP_COMPLETION:
    replay_completion(s, u);
    return 0;
  case FT_EVENT_DELIVERED:
    return e->peer < 0 || e->peer >= s->ranks ? -1 : on_delivered(s, e, u);
  case FT_EVENT_PROBED:
    return on_probed(s, e, u);
  case FT_EVENT_COMPLETION:
    return on_completion(s, e, u);
  case FT_EVENT_TIMER:
    return 0;
  case FT_EVENT_SAFE_POINT:
    return on_safe_point(s, e, u);
  case FT_EVENT_CONTROL:
    return on_logged(s, e, u);
  case FT_EVENT_IMAGE_STORED:
    return on_image_stored(s, e, u);
  case FT_EVENT_RESTART:
    return on_restart(s, e);
  case FT_EVENT_ROLLBACK:
    return on_rollback(s, e);
  case FT_EVENT_CALL: /* any-call mode's */
  case FT_EVENT_CALL_END:
  case FT_EVENT_ARRIVED:
  case FT_EVENT_COLLECTIVE: /* c3 only */
    return -1;
  }
  return -1;
}

static int step(void *state, const struct ft_event *event,
                struct ft_update *update) {
  struct pessimist_state *s = state;
  if (s->n_shipping) { /* the last step's LOG array is no longer needed */
    memmove(s->pending, s->pending + s->n_shipping,
            (s->n_pending - s->n_shipping) * sizeof s->pending[0]);
    s->n_pending -= s->n_shipping;
    s->n_shipping = 0;
  }
  *update = (struct ft_update){.flags = 0, .deadline = -1.0};
  int rc = dispatch(s, event, update);
  if (rc == 0 && !(update->flags & FT_UPDATE_LOG) && s->n_pending >= s->batch)
    ship(s, update); /* "events are sent in batches" */
  if (rc != 0)
    *update = (struct ft_update){.flags = 0, .deadline = -1.0};
  return rc;
}

/* ---- Accessors ---------------------------------------------------------- */

int64_t ft_pessimist_clock(const void *state) {
  return ((const struct pessimist_state *)state)->clock;
}

int64_t ft_pessimist_shipped(const void *state) {
  return ((const struct pessimist_state *)state)->shipped;
}

int64_t ft_pessimist_acked(const void *state) {
  return ((const struct pessimist_state *)state)->acked;
}

int ft_pessimist_waiting(const void *state) {
  return ((const struct pessimist_state *)state)->waiting;
}

/* The names of message logging's control kinds in traces (ft_protocol.h),
 * shared by pessimist and v2. */
const char *const ft_ml_controls[FT_ML_CONTROL_COUNT] = {
    [FT_ML_CONTROL_LOGGED] = "logged",
};

const struct ft_protocol_ops ft_protocol_pessimist = {
    .name = "pessimist",
    .family = FT_FAMILY_MESSAGE_LOGGING,
    .summary = "pessimistic sender-based message logging (Open MPI-V): only "
               "non-deterministic events logged, one failed rank restarts",
    .state_size = state_size,
    .init = pessimist_init,
    .step = step,
    .controls = ft_ml_controls,
    .n_controls = FT_ML_CONTROL_COUNT,
};

const struct ft_protocol_ops ft_protocol_v2 = {
    .name = "v2",
    .family = FT_FAMILY_MESSAGE_LOGGING,
    .summary = "classical message logging (MPICH-V2): every reception an "
               "event logged before the next send, copied at the receiver",
    .state_size = state_size,
    .init = v2_init,
    .step = step,
    .controls = ft_ml_controls,
    .n_controls = FT_ML_CONTROL_COUNT,
};
