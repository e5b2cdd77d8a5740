/* Deliveries: the runtime tells the core when the application receives a
 * message (FT_EVENT_DELIVERED), with the sender's application rank, and
 * records the payload as channel state when the core says RECORD (vcl).
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

#include "backend.h"
#include "runtime.h"

/* A posted receive of the application. */
struct posted {
  MPI_Request req;
  void *buf;
  int count;
  MPI_Datatype type;
  MPI_Comm user;
};

/* Per rank (SMPI privatizes this module's globals). */
static struct posted *posted;
static size_t n_posted, cap_posted;

void ft_delivery_posted(MPI_Request req, void *buf, int count,
                        MPI_Datatype type, MPI_Comm user) {
  if (req == MPI_REQUEST_NULL)
    return;
  posted = ft_reserve(posted, n_posted + 1, &cap_posted, sizeof *posted,
                      "posted receives");
  posted[n_posted++] = (struct posted){
      .req = req, .buf = buf, .count = count, .type = type, .user = user};
}

void ft_delivery_forget_all(void) { n_posted = 0; }

double ft_daemon_delay(const struct ft_options *o, uint64_t bytes) {
  double delay = o->daemon_latency_us * 1e-6;
  if (o->daemon_copy_mbps > 0)
    delay += (double)bytes / (o->daemon_copy_mbps * 1e6);
  return delay;
}

void ft_delivery_done(void *buf, int count, MPI_Datatype type, MPI_Comm user,
                      const MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  if (status->MPI_SOURCE < 0) /* MPI_PROC_NULL, or an empty status */
    return;
  int bytes = 0;
  FT_PMPI(Get_count, status, MPI_BYTE, &bytes);
  double delay = ft_daemon_delay(&rt->options, (uint64_t)bytes);
  if (delay > 0)
    ft_backend_sleep(delay);
  ft_trace_app_delivery(user, status, (uint64_t)(bytes > 0 ? bytes : 0));
  if (!rt->recovering_protocol)
    return;
  struct ft_comm *c = ft_comm_get(user);
  int peer = ft_comm_app_rank(c, status->MPI_SOURCE);
  struct ft_event e = {.type = FT_EVENT_DELIVERED,
                       .peer = peer,
                       .tag = status->MPI_TAG,
                       .bytes = (uint64_t)(bytes > 0 ? bytes : 0)};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  if (u.flags & FT_UPDATE_RECORD) /* before a STORE in the same update */
    ft_channel_record(rt, peer, u.index, c, buf, count, type, status);
  ft_apply_update(rt, &u);
}

void ft_delivery_completed(MPI_Request req, const MPI_Status *status) {
  for (size_t i = n_posted; i-- > 0;)
    if (posted[i].req == req) {
      struct posted p = posted[i];
      posted[i] = posted[--n_posted];
      ft_delivery_done(p.buf, p.count, p.type, p.user, status);
      return;
    }
}

void ft_delivery_cancelled(MPI_Request req) {
  for (size_t i = n_posted; i-- > 0;)
    if (posted[i].req == req) {
      posted[i] = posted[--n_posted];
      return;
    }
}

int ft_delivery_is_posted(MPI_Request req) {
  for (size_t i = 0; req != MPI_REQUEST_NULL && i < n_posted; i++)
    if (posted[i].req == req)
      return 1;
  return 0;
}
