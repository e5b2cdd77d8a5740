/* Message logging: the control traffic of an application rank (see
 * msglog.h): events to the logger, commits and garbage collection, resend
 * requests and their answers. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "msglog.h"
#include "pessimist/pessimist.h"
#include "runtime/trace.h"

/* One channel in a resend request, an answer or a GC. */
struct ft_ml_record {
  int32_t comm, coll, tag, zombies;
  int64_t a, b;
};

int ft_ml_logger_of(const struct ft_runtime *rt, int rank) {
  int loggers = rt->options.event_loggers;
  return rt->world_size - loggers + rank % loggers;
}

/* "Events are transmitted using non blocking MPI communications ... to
 * the event logger" (pessimist-openmpi-v, section 3.2). */
void ft_ml_ship(struct ft_runtime *rt, const struct ft_logged_event *events,
                size_t n) {
  if (rt->dead) /* the failed life's core, still stepped by messages held
                   or arriving before its restart: its events are lost with
                   it (soak seeds 35 and 39, v2: 'log' 6.5 ms after the
                   failure, before the replacement started) */
    return;
  /* Shipped after the computation since the last MPI call: charged now
   * (measured computation; SMPI would charge it at the next MPI call), so
   * that the trace's "log" and the logger see the time the events leave,
   * as in reference mode. */
  (void)ft_backend_now_charged();
  if (!ft_control_acts(rt)) /* that computation reached this rank's failure
                               time: its events are lost with it, as a dead
                               rank's above (user/f90_v2, measured
                               computation: 'log' 12.9 us after the
                               failure, flaky) */
    return;
  size_t bytes = n * sizeof *events;
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy)
    ft_fatal("rank %d: out of memory shipping %zu events", rt->world_rank, n);
  memcpy(copy, events, bytes);
  /* Traced when shipped, before the send, which may block (soak seed 39,
   * v2: a send begun before this rank's failure time ended 4.6 ms after
   * it; the events were shipped by a living rank). */
  for (size_t i = 0; ft_trace_on(rt) && i < n; i++)
    ft_trace_line_(rt, 0, "log", "%lld %d %d %d %lld", (long long)events[i].id,
                   events[i].kind, events[i].peer, events[i].tag,
                   (long long)events[i].value);
  struct ft_wire m = {.kind = FT_WIRE_ML_LOG, .value = (int64_t)n};
  ft_control_send_payload(rt, ft_ml_logger_of(rt, rt->world_rank), &m, copy,
                          bytes);
  rt->ml_state.events += n;
  rt->ml_state.el_messages++;
}

static struct ft_ml_record *records_alloc(size_t n) {
  struct ft_ml_record *r = calloc(n ? n : 1, sizeof *r);
  if (!r)
    ft_fatal("message logging: out of memory for %zu records", n);
  return r;
}

/* How many channels this rank has with `peer` (either way). */
static size_t channels_with(struct ft_ml_channels *mc, int peer) {
  size_t n = 0;
  struct ft_ml_channel *ch;
  for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
    n += ch->peer == peer;
  return n;
}

/* After its commit, a rank's checkpoint holds what it delivered: the
 * senders may drop those messages from their logs. */
static void collect_at_senders(struct ft_runtime *rt) {
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  for (int peer = 0; peer < rt->app_ranks; peer++) {
    size_t n = 0;
    struct ft_ml_channel *ch;
    struct ft_ml_record *r = records_alloc(channels_with(mc, peer));
    for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
      if (ch->peer == peer && ch->checkpointed > ch->pre)
        r[n++] = (struct ft_ml_record){.comm = ch->comm,
                                       .coll = ch->coll,
                                       .tag = ch->tag,
                                       .a = ch->pre,
                                       .b = ch->checkpointed};
    if (n == 0) {
      free(r);
      continue;
    }
    struct ft_wire m = {.kind = FT_WIRE_ML_GC, .value = (int64_t)n};
    ft_control_send_payload(rt, peer, &m, r, n * sizeof *r);
  }
}

void ft_ml_commit(struct ft_runtime *rt, int wave) {
  const struct ft_local_image *mine = ft_local_image_of(rt, wave);
  struct ft_wire m = {.kind = FT_WIRE_COMMIT_RANK,
                      .wave = wave,
                      .x = {mine ? mine->time : ft_backend_now()}};
  ft_control_send(rt, ft_server_of(rt, rt->world_rank), &m);
  rt->waves_committed++;
  collect_at_senders(rt);
}

static void on_gc(struct ft_runtime *rt, struct ft_ml_channels *mc,
                  const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  struct ft_ml_record *r = ft_control_payload(rt, m, n * sizeof *r);
  for (size_t i = 0; i < n; i++)
    ft_ml_collect(mc,
                  ft_ml_channel(mc, r[i].comm, r[i].coll, m->from, r[i].tag),
                  r[i].a, r[i].b);
  free(r);
}

/* Empty messages for the receives a failed rank left posted (ml_ops.c),
 * before the answer and the resends. */
static void feed_zombies(struct ft_runtime *rt, struct ft_ml_channels *mc,
                         struct ft_ml_channel *ch, int n) {
  int dest;
  MPI_Comm comm = n > 0 ? ft_ml_wire(rt, mc, ch, &dest) : MPI_COMM_NULL;
  for (int k = 0; k < n; k++) {
    ft_feed_empty(comm, dest, ch->tag);
    ch->wire_sent++;
  }
}

/* A restarted rank asks for what it needs; the answer carries the wire
 * counts, then the resends follow on the channels themselves. */
static void on_resend_request(struct ft_runtime *rt, struct ft_ml_channels *mc,
                              const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  int f = m->from;
  struct ft_ml_record *r = ft_control_payload(rt, m, n * sizeof *r);
  struct ft_ml_channel *ch;
  for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
    if (ch->peer == f) {
      ch->resend_pre = ch->resend_from = 0;
      ch->resend_to = ch->hw;
      ch->resend_next = 0;
    }
  for (size_t i = 0; i < n; i++) {
    ch = ft_ml_channel(mc, r[i].comm, r[i].coll, f, r[i].tag);
    ch->resend_pre = r[i].a;
    ch->resend_from = r[i].b;
    ch->resend_to = ch->hw;
    feed_zombies(rt, mc, ch, r[i].zombies);
  }
  free(r);
  size_t k = 0, total = channels_with(mc, f);
  struct ft_ml_record *answer = records_alloc(total);
  for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
    if (ch->peer == f)
      answer[k++] = (struct ft_ml_record){.comm = ch->comm,
                                          .coll = ch->coll,
                                          .tag = ch->tag,
                                          .a = ch->wire_sent};
  struct ft_wire a = {.kind = FT_WIRE_ML_RESEND_ANSWER,
                      .wave = m->wave,
                      .value = (int64_t)total};
  ft_control_send_payload(rt, f, &a, answer, total * sizeof *answer);
  /* Every channel waits for its resends before the first is served: this
   * rank may fail while serving one (ft_ml_serve), and the channels after
   * it must still be served by the re-execution that rebuilds their
   * messages (soak seed 7832: pessimist, lu on 2 ranks; rank 0 failed
   * serving rank 1's first channel, its restarted life did not resend the
   * second one's message, whose wire it had, and rank 1 probed for it for
   * ever). */
  for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
    if (ch->peer == f && ch->resend_to > 0)
      ch->resend_next = 1;
  for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
    if (ch->peer == f && ch->resend_next > 0)
      ft_ml_serve(rt, mc, ch);
}

/* Takes off the wire what a lost life left in flight on a channel. */
static void discard_in_flight(struct ft_runtime *rt, int from,
                              const struct ft_ml_record *r) {
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  struct ft_ml_channel *ch = ft_ml_channel(mc, r->comm, r->coll, from, r->tag);
  int64_t in_flight = r->a - ch->wire_taken;
  if (in_flight <= 0)
    return;
  int source;
  MPI_Comm comm = ft_ml_wire(rt, mc, ch, &source);
  for (int64_t k = 0; k < in_flight; k++) {
    MPI_Status st;
    int bytes = 0;
    FT_PMPI(Probe, source, r->tag, comm, &st); /* on the wire: it comes */
    FT_PMPI(Get_count, &st, MPI_BYTE, &bytes);
    void *junk = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!junk)
      ft_fatal("rank %d: out of memory dropping a lost message",
               rt->world_rank);
    FT_PMPI(Recv, junk, bytes, MPI_BYTE, source, r->tag, comm,
            MPI_STATUS_IGNORE);
    free(junk);
    ch = ft_ml_channel(mc, r->comm, r->coll, from, r->tag);
    ch->wire_taken++;
  }
}

/* The answers of this life's request are kept: the messages in flight are
 * taken off once the zombies are fed (ft_ml_discard_answers). An answer to
 * an earlier life's request is stale. */
static void on_resend_answer(struct ft_runtime *rt, const struct ft_wire *m) {
  size_t n = (size_t)m->value;
  struct ft_ml_record *r = ft_control_payload(rt, m, n * sizeof *r);
  if (m->wave != rt->ml_state.life || rt->running) {
    free(r);
    return;
  }
  struct ft_ml_answers *an = &rt->ml_state.answers;
  struct ft_ml_record **all =
      realloc(an->at, ((size_t)an->n + 1) * sizeof *all);
  struct ft_ml_record *kept = records_alloc(n + 1);
  if (!all)
    ft_fatal("message logging: out of memory");
  kept[0] = (struct ft_ml_record){.comm = m->from, .a = (int64_t)n};
  memcpy(kept + 1, r, n * sizeof *r);
  free(r);
  all[an->n++] = kept;
  an->at = all;
}

void ft_ml_discard_answers(struct ft_runtime *rt) {
  struct ft_ml_answers *an = &rt->ml_state.answers;
  for (int i = 0; i < an->n; i++) {
    struct ft_ml_record *a = an->at[i];
    for (int64_t k = 0; k < a[0].a; k++)
      discard_in_flight(rt, a[0].comm, &a[1 + k]);
    free(a);
  }
  free(an->at);
  an->at = NULL;
  an->n = 0;
}

void ft_ml_ask_resends(struct ft_runtime *rt) {
  struct ft_ml_channels *mc = &rt->ml_state.channels;
  struct ft_ml_answers *an = &rt->ml_state.answers;
  for (int i = 0; i < an->n; i++) /* of an interrupted restart */
    free(an->at[i]);
  an->n = 0;
  for (int peer = 0; peer < rt->app_ranks; peer++) {
    size_t n = 0;
    struct ft_ml_channel *ch;
    struct ft_ml_record *r = records_alloc(channels_with(mc, peer));
    for (size_t i = 0; (ch = ft_ml_channel_at(mc, i)); i++)
      if (ch->peer == peer)
        r[n++] = (struct ft_ml_record){
            .comm = ch->comm,
            .coll = ch->coll,
            .tag = ch->tag,
            .zombies = ft_ml_zombies_on(&rt->ml_state.ops, ch->comm, ch->coll,
                                        peer, ch->tag),
            .a = ch->pre,
            .b = ch->delivered};
    struct ft_wire m = {.kind = FT_WIRE_ML_RESEND_REQUEST,
                        .wave = rt->ml_state.life,
                        .value = (int64_t)n};
    ft_control_send_payload(rt, peer, &m, r, n * sizeof *r);
  }
}

void ft_ml_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_ML_GC:
    on_gc(rt, &rt->ml_state.channels, m);
    break;
  case FT_WIRE_ML_RESEND_REQUEST:
    on_resend_request(rt, &rt->ml_state.channels, m);
    break;
  case FT_WIRE_ML_RESEND_ANSWER:
    on_resend_answer(rt, m);
    break;
  case FT_WIRE_ML_EVENTS:
    ft_ml_on_events(rt, m);
    break;
  default: {
    char kind[64];
    ft_fatal("rank %d: unexpected message-logging message %s from rank %d",
             rt->world_rank, ft_wire_label(rt, m->kind, kind, sizeof kind),
             m->from);
  }
  }
}

void ft_ml_on_core_control(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->kind != FT_ML_CONTROL_LOGGED)
    return;
  rt->ml_state.el_messages++;
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "logged", "%lld", (long long)m->value);
}
