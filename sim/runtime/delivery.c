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
                                                .ticket = ticket};
}

void ft_delivery_forget_all(struct ft_deliveries *d) { d->n_posted = 0; }

double ft_daemon_delay(const struct ft_options *o, uint64_t bytes) {
  double delay = o->daemon_latency_us * 1e-6;
  if (o->daemon_copy_mbps > 0)
    delay += (double)bytes / (o->daemon_copy_mbps * 1e6);
  return delay;
}

void ft_delivery_done(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, MPI_Comm user,
                      const MPI_Status *status, struct ft_recv_ticket ticket) {
  if (status->MPI_SOURCE < 0) /* MPI_PROC_NULL, or an empty status */
    return;
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

/* A posted receive that may match a message of source/tag on user. */
static int may_match(const struct ft_posted *p, MPI_Comm user, int source,
                     int tag) {
  return p->user == user &&
         (p->ticket.source == source || p->ticket.source == MPI_ANY_SOURCE) &&
         (p->ticket.tag == tag || p->ticket.tag == MPI_ANY_TAG);
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
