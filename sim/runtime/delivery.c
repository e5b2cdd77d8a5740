/* Deliveries: the runtime tells the core when the application receives a
 * message (FT_EVENT_DELIVERED), with the sender's application rank, and
 * hands the payload to the family when the core says RECORD (the driver's
 * record hook: channel state).
 *
 * A blocking receive delivers when it returns. A receive posted with
 * MPI_Irecv is remembered here (buffer, datatype, communicator) until a
 * completion call (wait or test family, p2p.c) reports its request handle
 * as completed. Requests of the runtime (collectives, control) are never
 * remembered, so their completions are ignored.
 *
 * The implementation cost model (options daemon_*) is applied here too: a
 * delay per message on the receiving side (p2p.c applies the sending
 * side's). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

/* A posted receive of the application. */
struct ft_posted {
  MPI_Request req;
  void *buf;
  int count;
  MPI_Datatype type;
  MPI_Comm user;
  struct ft_recv_ticket ticket;
  MPI_Request owner; /* the application's handle, a record of persist.c
                        (ft_delivery_owned); MPI_REQUEST_NULL if none */
};

/* This module's state: the rank's (struct ft_runtime.deliveries). */
void ft_delivery_posted(struct ft_runtime *rt, MPI_Request req, void *buf,
                        int count, MPI_Datatype type, MPI_Comm user,
                        struct ft_recv_ticket ticket) {
  if (req == MPI_REQUEST_NULL)
    return;
  struct ft_deliveries *d = (&rt->deliveries);
  d->posted = ft_reserve(d->posted, d->n_posted + 1, &d->cap_posted,
                         sizeof *d->posted, "posted receives");
  d->posted[d->n_posted++] = (struct ft_posted){.req = req,
                                                .buf = buf,
                                                .count = count,
                                                .type = type,
                                                .user = user,
                                                .ticket = ticket,
                                                .owner = MPI_REQUEST_NULL};
}

void ft_delivery_forget_all(struct ft_deliveries *d) {
  d->n_posted = d->n_resolved = 0;
}

void ft_delivery_owned(struct ft_runtime *rt, MPI_Request req,
                       MPI_Request owner) {
  struct ft_deliveries *d = &rt->deliveries;
  for (size_t i = d->n_posted; req != MPI_REQUEST_NULL && i-- > 0;)
    if (d->posted[i].req == req) {
      d->posted[i].owner = owner;
      return;
    }
}

int ft_delivery_take_resolved(struct ft_runtime *rt, MPI_Request owner,
                              MPI_Status *st) {
  struct ft_deliveries *d = &rt->deliveries;
  for (size_t i = 0; i < d->n_resolved; i++)
    if (d->resolved[i].owner == owner) {
      *st = d->resolved[i].status;
      d->resolved[i] = d->resolved[--d->n_resolved];
      return 1;
    }
  return 0;
}

double ft_daemon_delay(const struct ft_options *o, uint64_t bytes) {
  double delay = o->daemon_latency_us * 1e-6;
  if (o->daemon_copy_mbps > 0)
    delay += (double)bytes / (o->daemon_copy_mbps * 1e6);
  return delay;
}

/* A posted receive that may match a message of source/tag on user. */
static int may_match(const struct ft_posted *p, MPI_Comm user, int source,
                     int tag) {
  return p->user == user &&
         (p->ticket.source == source || p->ticket.source == MPI_ANY_SOURCE) &&
         (p->ticket.tag == tag || p->ticket.tag == MPI_ANY_TAG);
}

static int wildcard(const struct ft_posted *p) {
  return p->ticket.source == MPI_ANY_SOURCE || p->ticket.tag == MPI_ANY_TAG;
}

/* Completes the wildcard receive posted[i] before the receive being
 * delivered (resolve_wildcards): waits for it (its handle is the
 * runtime's: persist.c's ft_persist_own), delivers it, and keeps its
 * status for persist.c, which holds the completion for the application's
 * next wait or test on it (ft_delivery_take_resolved). The delivery in
 * progress (delivering, ahead_of) is kept, less the receives this one's
 * delivery took off the list (posted before it, so before the one in
 * progress). */
static void resolve(struct ft_runtime *rt, size_t i) {
  struct ft_deliveries *d = &rt->deliveries;
  MPI_Request req = d->posted[i].req, inner = req, owner = d->posted[i].owner;
  if (owner == MPI_REQUEST_NULL)
    ft_fatal("rank %d: a wildcard receive the runtime must complete first "
             "is not the runtime's (resolve_wildcards)",
             rt->world_rank);
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  int rc = ft_wait_internal(rt, &inner, &st), cancelled = 0;
  st.MPI_ERROR = rc;
  FT_PMPI(Test_cancelled, &st, &cancelled);
  int delivering = d->delivering;
  size_t ahead_of = d->ahead_of, before = d->n_posted;
  if (cancelled)
    ft_delivery_cancelled(rt, req);
  else
    ft_delivery_completed(rt, req, &st);
  d->delivering = delivering;
  d->ahead_of = ahead_of - (delivering ? before - d->n_posted : 0);
  d->resolved = ft_reserve(d->resolved, d->n_resolved + 1, &d->cap_resolved,
                           sizeof *d->resolved, "resolved receives");
  d->resolved[d->n_resolved++] =
      (struct ft_resolved){.owner = owner, .status = st};
}

/* Before a receive of the application is delivered with `status` on
 * `user` (under a family that asks: driver.h, resolves_wildcards), every
 * receive posted before it with MPI_ANY_SOURCE or MPI_ANY_TAG that may
 * match the message, and not reported complete yet, is completed and
 * delivered first, so that ft_delivery_ahead counts exactly the receives
 * that took earlier messages of the channel (source, tag) and none is
 * unknown. Why such a receive can be waited for: MPI-3.1, 3.5, "If a
 * process has a single thread of execution, then any two communications
 * executed by this process are ordered. [...] if a process posts two
 * receives in succession, and both match the same message, then the
 * second receive operation cannot be satisfied by this message, if the
 * first one is still pending": the receive being delivered took its
 * message, which the earlier one matches too, so the earlier one had
 * matched another message already (or was cancelled; the runtime
 * completes a cancelled receive at once, p2p.c's cancel_receive, so it is
 * no longer listed) and completes without anything else. That applies
 * alike to MPI_ANY_TAG on a named source, to MPI_ANY_SOURCE, to a
 * persistent receive's operation (listed in MPI_Start's order, its handle
 * the runtime's already), to a blocking receive (every listed receive was
 * posted before it); a probe takes nothing and changes nothing. A receive
 * that cannot match the message (another tag, source or communicator)
 * cannot have taken one of its channel and stays. The delivery comes in
 * the order MPI matched the two, before the application reports the
 * earlier one: its piggyback is then the channel's first (c3-collectives,
 * section 3.3: "the protocol layer must piggyback a small amount of
 * information on each application message": each message's own). The
 * wait costs simulated time only when the earlier message is still in
 * transit. */
static void resolve_wildcards(struct ft_runtime *rt, MPI_Comm user,
                              const MPI_Status *status) {
  struct ft_deliveries *d = &rt->deliveries;
  if (!rt->driver->resolves_wildcards || !rt->driver->resolves_wildcards(rt))
    return;
  for (;;) {
    size_t end = d->delivering ? d->ahead_of : d->n_posted, i = 0;
    while (
        i < end && i < d->n_posted &&
        !(wildcard(&d->posted[i]) &&
          may_match(&d->posted[i], user, status->MPI_SOURCE, status->MPI_TAG)))
      i++;
    if (i >= end || i >= d->n_posted)
      return;
    resolve(rt, i);
  }
}

void ft_delivery_done(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, MPI_Comm user,
                      const MPI_Status *status, struct ft_recv_ticket ticket) {
  if (status->MPI_SOURCE < 0) /* MPI_PROC_NULL, or an empty status */
    return;
  resolve_wildcards(rt, user, status);
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* nothing is delivered to a rank that failed */
  int bytes = 0;
  FT_PMPI(Get_count, status, MPI_BYTE, &bytes);
  double delay = ft_daemon_delay(&rt->options, (uint64_t)bytes);
  if (delay > 0)
    ft_control_sleep(rt, delay);
  ft_trace_app_delivery(rt, user, status, (uint64_t)(bytes > 0 ? bytes : 0));
  if (!rt->recovering_protocol)
    return;
  struct ft_comm *c = ft_comm_get(rt, user);
  int peer = ft_comm_app_rank(c, status->MPI_SOURCE);
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = peer,
                       .tag = status->MPI_TAG,
                       .bytes = (uint64_t)(bytes > 0 ? bytes : 0),
                       .id = ticket.id,
                       .wildcard = ticket.wildcard};
  if (rt->driver->delivering)
    rt->driver->delivering(rt, c, status, &e);
  if (ft_prologue_hidden(rt))
    return; /* made before the checkpoint (driver.h, hide_prologue) */
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if ((u.flags & FT_UPDATE_RECORD) && rt->driver->record) /* before a STORE
                                                      in the same update */
    rt->driver->record(rt, peer, u.index, c, buf, count, type, status);
  ft_apply_update(rt, &u);
}

/* Removes the posted receive of `req` into *p, keeping the others in
 * their posting order, *at its place among them; 0 if there is none. */
static int take_posted(struct ft_deliveries *d, MPI_Request req,
                       struct ft_posted *p, size_t *at) {
  for (size_t i = d->n_posted; i-- > 0;)
    if (d->posted[i].req == req) {
      *p = d->posted[i];
      memmove(&d->posted[i], &d->posted[i + 1],
              (d->n_posted - i - 1) * sizeof *d->posted);
      d->n_posted--;
      *at = i;
      return 1;
    }
  return 0;
}

size_t ft_delivery_ahead(const struct ft_runtime *rt, MPI_Comm user, int source,
                         int tag, int *wild) {
  const struct ft_deliveries *d = &rt->deliveries;
  size_t n = 0, end = d->delivering ? d->ahead_of : d->n_posted;
  *wild = 0;
  for (size_t i = 0; i < end && i < d->n_posted; i++) {
    if (!may_match(&d->posted[i], user, source, tag))
      continue;
    if (d->posted[i].ticket.source == source && d->posted[i].ticket.tag == tag)
      n++;
    else
      *wild = 1;
  }
  return n;
}

int ft_delivery_completed(struct ft_runtime *rt, MPI_Request req,
                          MPI_Status *status) {
  struct ft_posted p;
  int rc = MPI_SUCCESS;
  if (rt->driver->completed) /* the family's own buffers first */
    rc = rt->driver->completed(rt, req, status);
  size_t at;
  if (take_posted((&rt->deliveries), req, &p, &at)) {
    rt->deliveries.ahead_of = at; /* those posted before it */
    rt->deliveries.delivering = 1;
    ft_delivery_done(rt, p.buf, p.count, p.type, p.user, status, p.ticket);
    rt->deliveries.delivering = 0;
  }
  return rc;
}

void ft_delivery_cancelled(struct ft_runtime *rt, MPI_Request req) {
  struct ft_posted p;
  size_t at;
  if (rt->driver->completed) /* frees what the family held for it */
    rt->driver->completed(rt, req, NULL);
  (void)take_posted((&rt->deliveries), req, &p, &at);
}

int ft_delivery_is_posted(struct ft_runtime *rt, MPI_Request req) {
  const struct ft_deliveries *d = (&rt->deliveries);
  for (size_t i = 0; req != MPI_REQUEST_NULL && i < d->n_posted; i++)
    if (d->posted[i].req == req)
      return 1;
  return 0;
}
