/* The barrier as a potential checkpoint location (c3-collectives, section
 * 5.4 and Figure 8), under the option c3_barrier_checkpoint=1: "ensure that
 * barriers may never cross recovery lines, an invariant that can be
 * enforced by placing a special BarrierPotentialCheckpoint location before
 * each call to MPI_Barrier. At this BarrierPotentialCheckpoint location
 * each process will check whether any other process has taken a
 * checkpoint. If so then this process will also take a checkpoint."
 *
 * Before the barrier itself, the members exchange their epoch and
 * amLogging bit (Figure 8's MPI_Allgather of colours and reduce of
 * !amLogging, combined into one gather at the communicator's rank 0 and
 * one send back of every member's bits), ft_c3_collective decides, and the
 * barrier is a safe point (ft_safe_point_ahead): a rank asked to checkpoint
 * checkpoints there, and one that saw a member ahead does so too. A member
 * shows the epoch it is about to enter: one asked to checkpoint shows its
 * epoch + 1, so that every member of a barrier where one checkpoints
 * checkpoints at that barrier, and the exchange's messages and the
 * barrier's all lie on one side of the recovery line.
 *
 * The exchange's messages are the protocol's, as the piggybacks: raw on the
 * communicator's collective shadow, with their own tag, not seen by the
 * core nor traced; interruptible (a rollback abandons them). After a
 * rollback the barrier is a safe point in main()'s prologue too, where the
 * image is restored (every rank runs the same prologue, so the exchange
 * there pairs up). Figure 8's stop-logging is not acted on here: the
 * barrier's own messages carry the piggyback (a message of the rank's
 * epoch from a rank that stopped stops the logging, section 3.1, Phase
 * #4). */
#include <stdlib.h>

#include "c3/c3.h"
#include "piggyback.h"

/* The exchange's tag on the shadow: below the application's piggybacks,
 * above every collective's (FT_PB_COLL_TAG_BASE + a tag below 15). */
enum { PB_BITS_TAG = FT_PB_TAG_BASE - 1 };

/* What this rank shows the others: its epoch and amLogging bit after its
 * own decision at this location (asked: the epoch it enters here). */
static struct ft_piggyback announced(const struct ft_runtime *rt) {
  const void *s = rt->protocol_state;
  int asked = ft_c3_phase(s) == FT_C3_ASKED;
  return (struct ft_piggyback){.epoch = ft_c3_epoch(s) + asked,
                               .logging = ft_c3_logging(s) || asked};
}

static void post(struct ft_runtime *rt, struct ft_comm *c, int send, void *buf,
                 int n, int peer, MPI_Request *req) {
  int bytes = n * (int)sizeof(struct ft_piggyback);
  if (send)
    FT_PMPI(Isend, buf, bytes, MPI_BYTE, peer, PB_BITS_TAG, c->coll, req);
  else
    FT_PMPI(Irecv, buf, bytes, MPI_BYTE, peer, PB_BITS_TAG, c->coll, req);
  ft_pending_add(rt, *req, c->coll, send, peer, PB_BITS_TAG);
}

static void wait_all(struct ft_runtime *rt, int n, MPI_Request reqs[]) {
  ft_pmpi_check(ft_waitall_internal(rt, n, reqs, MPI_STATUSES_IGNORE),
                "MPI_Waitall");
}

/* Every member's bits into all[0..size): gathered at rank 0 of c, which
 * sends them all back to each. */
static void exchange(struct ft_runtime *rt, struct ft_comm *c,
                     struct ft_piggyback *all) {
  int n = c->size;
  MPI_Request *reqs = malloc((size_t)(n > 1 ? n : 2) * sizeof *reqs);
  if (!reqs)
    ft_fatal("out of memory in a barrier of %d ranks", n);
  ft_control_fate(rt); /* a rank that failed sends nothing */
  if (c->rank == 0) {
    for (int r = 1; r < n; r++)
      post(rt, c, 0, &all[r], 1, r, &reqs[r - 1]);
    wait_all(rt, n - 1, reqs);
    for (int r = 1; r < n; r++)
      post(rt, c, 1, all, n, r, &reqs[r - 1]);
    wait_all(rt, n - 1, reqs);
  } else {
    struct ft_piggyback mine = all[c->rank];
    post(rt, c, 1, &mine, 1, 0, &reqs[0]);
    post(rt, c, 0, all, n, 0, &reqs[1]);
    wait_all(rt, 2, reqs);
  }
  free(reqs);
}

void ft_pb_barrier(struct ft_runtime *rt, struct ft_comm *c) {
  if (!rt->options.c3_barrier_checkpoint || !rt->recovering_protocol)
    return;
  int hidden = ft_prologue_hidden(rt);
  if (!hidden)
    ft_check_deadline(rt); /* the initiator may ask itself first */
  struct ft_piggyback *all = calloc((size_t)c->size, sizeof *all);
  if (!all)
    ft_fatal("out of memory in a barrier of %d ranks", c->size);
  all[c->rank] = hidden ? (struct ft_piggyback){0} : announced(rt);
  exchange(rt, c, all);
  int ahead = 0;
  struct ft_c3_coll in = {.cls = FT_C3_BARRIER,
                          .me = c->rank,
                          .root = -1,
                          .ranks = c->size,
                          .bits = all};
  struct ft_c3_coll_decision d;
  if (!hidden && ft_c3_collective(&in, &d, NULL) == 0 && d.checkpoint)
    ahead = all[c->rank].epoch + 1;
  free(all);
  ft_safe_point_ahead(rt, ahead);
}
