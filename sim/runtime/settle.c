/* Settling an abandoned run (a rollback of every rank): at a rollback, every
 * operation the abandoned run left on the application's communicators completes
 * before the heap of the abandoned life is freed, so that SMPI never reads or
 * writes a buffer of a lost run again and nothing of it survives the
 * rollback (issue 13, defect 2: a thousand failures held 2.5 GB).
 *
 * Nothing can be cancelled: SimGrid fails both sides of a transfer under
 * way when one side is cancelled (CommImpl::cancel), and a transfer matched
 * before the rollback may still be under way. So, once every rank has
 * stopped (the dispatcher's GO comes when every rank is READY, and nobody
 * sends on the abandoned communicators any more):
 *
 *  1. receives: each one left posted is either complete, or under way (it
 *     completes alone), or unmatched forever. Each is fed an empty message
 *     (its named sender sends it on request, FEED; this rank sends it
 *     itself to a wildcard or to its own rank), then waited for. One at a
 *     time, in posting order: an empty message matches the first receive
 *     posted that accepts it, which is the one fed when it was unmatched
 *     (the earlier ones are complete); otherwise it is left over;
 *  2. what is still addressed to this rank on the abandoned communicators,
 *     left-over empty messages included (each FEED is answered once its
 *     message is sent), is received and dropped;
 *  3. sends: each completes once its receiver took it (a posted receive,
 *     or the receiver's step 2); waited for, with the family's own sends (a
 * replay's);
 *  4. the abandoned lives' heap is freed; SETTLED tells every other rank,
 *     and a communicator is freed once every rank settled its incarnation.
 *
 * Every wait handles control messages: another rollback interrupts the
 * settle, and what is left pending is settled by the next one. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

void ft_feed_empty(MPI_Comm comm, int dest, int tag) {
  MPI_Request req;
  FT_PMPI(Isend, NULL, 0, MPI_BYTE, dest, tag, comm, &req);
  FT_PMPI(Request_free, &req);
}

/* ---- 1. Receives ---- */

/* Asks the sender of receive `p` for an empty message, or sends it itself
 * (wildcard, own rank). Returns 0 when nobody can: a communicator the
 * runtime did not make has no name its other members know, and one the
 * application freed has no handle left. */
static int feed(struct ft_runtime *rt, const struct ft_pending *p) {
  int me = -1, tag = p->tag == MPI_ANY_TAG ? 0 : p->tag;
  if (PMPI_Comm_rank(p->comm, &me) != MPI_SUCCESS || me < 0)
    return 0; /* the application freed its communicator */
  if (p->peer == MPI_ANY_SOURCE || p->peer == me) {
    ft_feed_empty(p->comm, me, tag);
    return 1;
  }
  uint64_t id;
  int coll;
  int sender = ft_comm_abandoned_peer(rt, p->comm, p->peer, &id, &coll);
  if (sender < 0)
    return 0;
  struct ft_wire m = {.kind = FT_WIRE_FEED,
                      .inc = rt->incarnation,
                      .value = (int64_t)id,
                      .x = {coll, me, tag}};
  rt->feeds_asked++;
  ft_control_send(rt, sender, &m);
  return 1;
}

static void settle_receives(struct ft_runtime *rt) {
  size_t i = 0;
  while (i < rt->n_pending) {
    struct ft_pending p = rt->pending[i];
    if (p.send) {
      i++;
      continue;
    }
    if (!feed(rt, &p)) { /* left posted: unmatched, nobody sends on it */
      ft_pending_done(rt, p.req);
      continue;
    }
    ft_wait_any(rt, 1, &p.req, NULL); /* forgets it (control.c) */
  }
  while (rt->feeds_done < rt->feeds_asked)
    ft_wait_control(rt);
}

/* ---- 3. Sends ---- */

static void settle_sends(struct ft_runtime *rt) {
  while (rt->n_pending > 0) {
    MPI_Request req = rt->pending[rt->n_pending - 1].req;
    ft_wait_any(rt, 1, &req, NULL); /* forgets it */
  }
  if (rt->driver->settle) /* the family's own sends (a replay's) */
    rt->driver->settle(rt, 1);
}

/* ---- 4. Settled ---- */

static int *settled(struct ft_runtime *rt) {
  if (!rt->settled) {
    rt->settled = calloc((size_t)rt->app_ranks, sizeof *rt->settled);
    if (!rt->settled)
      ft_fatal("out of memory for the settled incarnations");
  }
  return rt->settled;
}

/* Frees the abandoned communicators every rank has settled. */
static void free_settled(struct ft_runtime *rt) {
  int *s = settled(rt), low = s[0];
  for (int r = 1; r < rt->app_ranks; r++)
    if (s[r] < low)
      low = s[r];
  ft_comm_free_abandoned(rt, low);
}

static void announce(struct ft_runtime *rt) {
  struct ft_wire m = {.kind = FT_WIRE_SETTLED, .inc = rt->incarnation};
  for (int r = 0; r < rt->app_ranks; r++)
    if (r != rt->world_rank)
      ft_control_send(rt, r, &m);
  settled(rt)[rt->world_rank] = rt->incarnation;
  free_settled(rt);
}

/* Reference mode: nothing of the application's heap is tracked (nothing
 * to free), and on a real network a message sent before GO may still be on
 * its way when the receiver drains, which would leave its sender waiting
 * for ever. The rollback forgets what is pending, as before the settle;
 * the abandoned communicators are drained and freed at MPI_Finalize. */
static void forget(struct ft_runtime *rt) {
  rt->n_pending = 0;
  if (rt->driver->settle) /* the family's own sends: their buffers leak */
    rt->driver->settle(rt, 0);
}

static void on_feed(struct ft_runtime *rt, const struct ft_wire *m);

/* The FEEDs that came before this rank's GO, now that its abandoned
 * communicators are known (a stale one is dropped by on_feed). */
static void early_feeds(struct ft_runtime *rt) {
  size_t n = rt->n_early_feeds;
  rt->n_early_feeds = 0;
  for (size_t i = 0; i < n; i++)
    on_feed(rt, &rt->early_feeds[i]);
}

void ft_settle(struct ft_runtime *rt) {
  early_feeds(rt);
  if (!ft_backend_simulated()) {
    forget(rt);
    return;
  }
  rt->feeds_asked = rt->feeds_done = 0;
  settle_receives(rt);
  ft_comm_drain_abandoned(&rt->comms);
  settle_sends(rt);
  /* Nothing of the abandoned lives is pending: nothing writes into their
   * blocks or reads them any more. */
  ft_app_heap_release(&rt->heap, rt->heap.life);
  announce(rt);
}

/* Keeps a FEED that came before this rank's GO. */
static void keep_early(struct ft_runtime *rt, const struct ft_wire *m) {
  rt->early_feeds =
      ft_reserve(rt->early_feeds, rt->n_early_feeds + 1, &rt->cap_early_feeds,
                 sizeof *rt->early_feeds, "FEEDs before GO");
  rt->early_feeds[rt->n_early_feeds++] = *m;
}

/* A peer's receive on this rank's abandoned communicator waits for an
 * empty message. A request of another incarnation is stale: its sender
 * rolled back again, and asks again. A communicator this rank no longer
 * has was freed by its application (MPI_Comm_free), after every send it
 * made on it: the receive was matched, and completes without help.
 *
 * The peer asks once it heard GO, this rank's GO may come later (they come
 * from two senders: MPI does not order them), and this rank abandons its
 * communicators only at GO (recovery.c, resume): before, the one asked for
 * is not abandoned yet, and the FEED was answered with nothing fed, so the
 * peer waited in its settle for ever and the run deadlocked (user/c_vcl,
 * heat with measured computation, about 1 run in 80 at 1e11 flop/s: rank
 * 1's GO came 2.5 ms after rank 0's FEED). Such a FEED waits for the
 * settle (ft_settle). */
static void on_feed(struct ft_runtime *rt, const struct ft_wire *m) {
  if (m->inc != rt->incarnation)
    return;
  if (rt->go_inc != rt->incarnation) {
    keep_early(rt, m);
    return;
  }
  MPI_Comm comm = ft_comm_abandoned_find(rt, (uint64_t)m->value, (int)m->x[0]);
  if (comm != MPI_COMM_NULL)
    ft_feed_empty(comm, (int)m->x[1], (int)m->x[2]);
  struct ft_wire fed = {.kind = FT_WIRE_FED, .inc = m->inc};
  ft_control_send(rt, m->from, &fed);
}

void ft_settle_on_control(struct ft_runtime *rt, const struct ft_wire *m) {
  switch (m->kind) {
  case FT_WIRE_FEED:
    on_feed(rt, m);
    break;
  case FT_WIRE_FED:
    if (m->inc == rt->incarnation)
      rt->feeds_done++;
    break;
  case FT_WIRE_SETTLED:
    if (m->from >= 0 && m->from < rt->app_ranks &&
        m->inc > settled(rt)[m->from]) {
      settled(rt)[m->from] = m->inc;
      free_settled(rt);
    }
    break;
  default: {
    char kind[64];
    ft_fatal("rank %d: unexpected settle message %s from rank %d",
             rt->world_rank, ft_wire_label(rt, m->kind, kind, sizeof kind),
             m->from);
  }
  }
}

void ft_settle_finish(struct ft_runtime *rt) {
  ft_comm_drain_abandoned(&rt->comms);
  ft_comm_free_abandoned(rt, rt->incarnation);
  free(rt->settled);
  rt->settled = NULL;
  free(rt->early_feeds);
  rt->early_feeds = NULL;
  rt->n_early_feeds = rt->cap_early_feeds = 0;
  free(rt->pending);
  rt->pending = NULL;
  rt->n_pending = rt->cap_pending = 0;
  free(rt->wait_scratch);
  rt->wait_scratch = NULL;
  rt->cap_wait_scratch = 0;
}
