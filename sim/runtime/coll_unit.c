/* A collective call carried as one unit (driver.h, coll_enter): the
 * family's bits exchanged once per call in the direction of the call's
 * data flow (c3-collectives, section 4), the family's decision, then the
 * call's own messages raw (rt->coll_unit: no per-message hook, no trace),
 * and the re-execution with dummy buffers of the calls a restore names
 * (section 5.3's reexecList).
 *
 * The exchange is the paper's "separate collective operation that
 * precedes the data operation" (section 6), carried by the runtime's own
 * algorithms on the communicator's collective shadow with the call's tag:
 * a broadcast of the root's bits (single-sender, Figure 7), a gather of
 * every member's at the root (single-receiver, Figure 6), an allgather
 * (all-to-all, Figure 5; the barrier, Figure 8, whose allgather is the
 * barrier itself: no member leaves it before every member entered). The
 * bits go first on every pair of ranks, and every receive names its
 * source, so MPI's non-overtaking order keeps them apart from the data. */
#include <stdlib.h>
#include <string.h>

#include "coll_algo.h"
#include "runtime.h"

/* Every member's bits (FLOW_ALL, FLOW_SYNC) into all[]. */
static void exchange_all(struct ft_runtime *rt, struct ft_comm *c,
                         unsigned char *all) {
  int n = c->size;
  int *counts = malloc((size_t)n * 2 * sizeof *counts);
  if (!counts)
    ft_fatal("out of memory in a collective of %d ranks", n);
  for (int r = 0; r < n; r++) {
    counts[r] = FT_COLL_BITS;
    counts[n + r] = r * FT_COLL_BITS;
  }
  ft_coll_allgatherv(rt, MPI_IN_PLACE, 0, MPI_BYTE, all, counts, counts + n,
                     MPI_BYTE, 1, c);
  free(counts);
}

/* The exchange of `call`'s flow: all[] holds this rank's bits at its rank
 * on entry, what the flow lets it see on return. */
static void exchange(struct ft_runtime *rt, struct ft_comm *c,
                     const struct ft_coll_call *call, unsigned char *all) {
  if (c->size < 2)
    return;
  unsigned char *mine = all + (size_t)c->rank * FT_COLL_BITS;
  switch (call->flow) {
  case FT_FLOW_TO_ROOT:
    ft_coll_gather_binomial(rt, mine, FT_COLL_BITS, MPI_BYTE, all, call->root,
                            c);
    return;
  case FT_FLOW_FROM_ROOT:
    ft_coll_bcast(rt, all + (size_t)call->root * FT_COLL_BITS, FT_COLL_BITS,
                  MPI_BYTE, call->root, c);
    return;
  case FT_FLOW_ALL:
  case FT_FLOW_SYNC:
    exchange_all(rt, c, all);
    return;
  }
}

int ft_coll_unit_enter(struct ft_runtime *rt, struct ft_comm *c,
                       struct ft_coll_call *call) {
  call->entry = FT_COLL_PER_MESSAGE;
  if (!rt->driver->coll_enter)
    return 0;
  if (!call->reexec)
    ft_coll_reexec_pending(rt);
  call->entry = rt->driver->coll_enter(rt, c, call);
  if (call->entry == FT_COLL_COMBINED && !ft_coll_combinable(c, call))
    call->entry = FT_COLL_EXCHANGE;
  if (call->entry == FT_COLL_DONE)
    return 1;
  if (call->entry == FT_COLL_PER_MESSAGE)
    return 0;
  rt->coll_unit = 1;
  if (call->entry == FT_COLL_RAW || call->entry == FT_COLL_COMBINED)
    return 0; /* COMBINED: the caller's ft_coll_combined_* decides */
  unsigned char *all = calloc((size_t)c->size, FT_COLL_BITS);
  if (!all)
    ft_fatal("out of memory in a collective of %d ranks", c->size);
  memcpy(all + (size_t)c->rank * FT_COLL_BITS, call->bits, FT_COLL_BITS);
  exchange(rt, c, call, all);
  rt->driver->coll_decide(rt, c, call, all);
  free(all);
  if (call->flow != FT_FLOW_SYNC)
    return 0;
  ft_coll_unit_leave(rt, c, call); /* the exchange was the barrier */
  return 1;
}

void ft_coll_unit_leave(struct ft_runtime *rt, struct ft_comm *c,
                        struct ft_coll_call *call) {
  if (call->entry == FT_COLL_PER_MESSAGE || call->entry == FT_COLL_DONE)
    return;
  rt->coll_unit = 0;
  if (call->entry != FT_COLL_RAW && rt->driver->coll_leave)
    rt->driver->coll_leave(rt, c, call);
  call->entry = FT_COLL_PER_MESSAGE;
}
