/* Message logging: a restarted rank's events, fetched from its event
 * logger and handed to the core, which decides the outcomes the replay
 * reproduces (protocols/pessimist; see msglog.h). This module only sorts
 * them by id, as the core's RESTART wants them.
 *
 * From pessimist-openmpi-v, section 3.2: "During recovery, the first step
 * is to retrieve the events related to the MPI process from the event
 * logger. Then every promiscuous source is replaced by the well specified
 * source of the event corresponding to the request identifier" and "when
 * the NDD clock is equal to the clock of the first event, the corresponding
 * requests are completed by waiting for each of them ... NDD whose clock is
 * lower than the first NDD event in the log have to return no request
 * completed." */
#include <stdlib.h>
#include <string.h>

#include "msglog.h"

struct ordered {
  struct ft_logged_event e;
  size_t order;
};

static int by_id(const void *a, const void *b) {
  const struct ordered *x = a, *y = b;
  if (x->e.id != y->e.id)
    return x->e.id < y->e.id ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

void ft_ml_on_events(struct ft_runtime *rt, const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  struct ft_logged_event *got = ft_control_payload(rt, m, n * sizeof *got);
  struct ft_ml_replay *replay = &rt->ml_state.replay;
  if (m->wave != rt->ml_life || replay->fetched) {
    free(got);
    return;
  }
  struct ordered *o = calloc(n ? n : 1, sizeof *o);
  if (!o)
    ft_fatal("rank %d: out of memory for %zu events", rt->world_rank, n);
  for (size_t i = 0; i < n; i++)
    o[i] = (struct ordered){got[i], i};
  qsort(o, n, sizeof *o, by_id);
  replay->horizon = 0;
  for (size_t i = 0; i < n; i++) {
    got[i] = o[i].e;
    if (got[i].id > replay->horizon)
      replay->horizon = got[i].id;
  }
  free(o);
  free(replay->events);
  replay->events = got;
  replay->n_events = n;
  replay->fetched = 1;
}

int64_t ft_ml_fetch_events(struct ft_runtime *rt, int64_t *last,
                           const struct ft_logged_event **got) {
  struct ft_wire ask = {.kind = FT_WIRE_ML_EVENTS_REQUEST, .wave = rt->ml_life};
  struct ft_ml_replay *replay = &rt->ml_state.replay;
  replay->fetched = 0;
  ft_control_send(rt, ft_ml_logger_of(rt, rt->world_rank), &ask);
  while (!replay->fetched) /* ft_ml_on_events sets it */
    ft_wait_control(rt);
  *last = replay->horizon;
  *got = replay->events;
  return (int64_t)replay->n_events;
}

void ft_ml_replay_clear(struct ft_ml_replay *replay) {
  free(replay->events);
  replay->events = NULL;
  replay->n_events = 0;
  replay->horizon = 0;
}
