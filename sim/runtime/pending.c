/* Requests pending: the table settle.c completes at a rollback, kept apart
 * from the interruptible waits (control.c), which forget what completes.
 *
 * The table also says which sends complete when posted. SMPI detaches a
 * standard send shorter than smpi/send-is-detached-thresh (SimGrid 3.32,
 * smpi_request.cpp, start(): its bytes are copied, the transfer goes on
 * without the sender), and its MPI_Waitany hands such a request back at
 * once, the first of the array, with no simcall and no simulated time
 * (Request::waitany: "This is a finished detached request, let's return
 * this one"). Under a protocol that recovers, every wait of the
 * application is a Waitany with the control receive (control.c), one
 * completion per call: an MPI_Waitall of six such sends was six Waitany
 * calls, an MPI_Sendrecv's send one more, each paying SMPI's per-call cost
 * (two clock_gettime system calls, the argument vectors, the trace hooks).
 * The waits now complete such a send themselves, as SMPI's Waitany would,
 * and free the handles FT_RETIRE_BATCH at a time with one MPI_Waitall that
 * waits for nothing: the same simcalls in the same order, so the same
 * simulated times. */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

void ft_pending_add(struct ft_runtime *rt, MPI_Request req, MPI_Comm comm,
                    int send, int peer, int tag) {
  if (req == MPI_REQUEST_NULL || !rt->recovering_protocol ||
      ft_driver_restarts_alone(rt->driver))
    return;
  rt->pending = ft_reserve(rt->pending, rt->n_pending + 1, &rt->cap_pending,
                           sizeof *rt->pending, "pending requests");
  rt->pending[rt->n_pending++] =
      (struct ft_pending){.req = req,
                          .comm = comm,
                          .send = send,
                          .peer = peer,
                          .tag = tag,
                          .at_once = send ? FT_AT_ONCE_UNKNOWN : FT_AT_ONCE_NO};
}

/* How SMPI completes a send of `bytes` to `peer` (`sync`: synchronous). A
 * send to MPI_PROC_NULL is never started, and one whose size does not fit
 * SMPI's int comparison is left to the library. */
static int at_once(const struct ft_runtime *rt, int peer, uint64_t bytes,
                   int sync) {
  if (peer == MPI_PROC_NULL || bytes > INT_MAX)
    return FT_AT_ONCE_UNKNOWN;
  return !sync && bytes < (uint64_t)rt->send_done_below ? FT_AT_ONCE_YES
                                                        : FT_AT_ONCE_NO;
}

void ft_pending_add_send(struct ft_runtime *rt, MPI_Request req, MPI_Comm comm,
                         int peer, int tag, int count, MPI_Datatype type,
                         int sync) {
  size_t before = rt->n_pending;
  ft_pending_add(rt, req, comm, 1, peer, tag);
  if (rt->n_pending == before)
    return; /* not remembered */
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  uint64_t bytes = count > 0 && size > 0 ? (uint64_t)count * (uint64_t)size : 0;
  struct ft_pending *p = &rt->pending[rt->n_pending - 1];
  p->at_once = at_once(rt, peer, bytes, sync);
  p->bytes = p->at_once == FT_AT_ONCE_UNKNOWN ? 0 : (int)bytes;
  if (p->at_once == FT_AT_ONCE_YES)
    rt->n_at_once++;
}

/* The index in the table of `req`, searched from the newest; -1 if it is
 * not there. */
static ptrdiff_t find(const struct ft_runtime *rt, MPI_Request req) {
  for (size_t i = rt->n_pending; i-- > 0;)
    if (rt->pending[i].req == req)
      return (ptrdiff_t)i;
  return -1;
}

/* Removes entry i, keeping the posting order of the others. */
static void remove_at(struct ft_runtime *rt, size_t i) {
  if (rt->pending[i].at_once == FT_AT_ONCE_YES)
    rt->n_at_once--;
  memmove(&rt->pending[i], &rt->pending[i + 1],
          (rt->n_pending - i - 1) * sizeof *rt->pending);
  rt->n_pending--;
}

void ft_pending_done(struct ft_runtime *rt, MPI_Request req) {
  if (req == MPI_REQUEST_NULL)
    return;
  ptrdiff_t i = find(rt, req);
  if (i >= 0)
    remove_at(rt, (size_t)i);
}

int ft_pending_first_at_once(const struct ft_runtime *rt, int n,
                             const MPI_Request reqs[]) {
  if (rt->n_at_once == 0)
    return -1;
  for (int k = 0; k < n; k++) {
    if (reqs[k] == MPI_REQUEST_NULL)
      continue;
    ptrdiff_t i = find(rt, reqs[k]);
    if (i < 0 || rt->pending[i].at_once == FT_AT_ONCE_UNKNOWN)
      return -1; /* SMPI might return this one first */
    if (rt->pending[i].at_once == FT_AT_ONCE_YES)
      return k;
  }
  return -1;
}

void ft_pending_complete_at_once(struct ft_runtime *rt, MPI_Request *req,
                                 MPI_Status *st) {
  ptrdiff_t i = find(rt, *req);
  if (i < 0 || rt->pending[i].at_once != FT_AT_ONCE_YES)
    ft_fatal("rank %d: a request completed at once that is not a send "
             "complete when posted",
             rt->world_rank);
  const struct ft_pending *p = &rt->pending[i];
  /* What SMPI's Request::finish_wait writes for a send. */
  int me = MPI_UNDEFINED;
  FT_PMPI(Comm_rank, p->comm, &me);
  st->MPI_SOURCE = me;
  st->MPI_TAG = p->tag;
  st->MPI_ERROR = MPI_SUCCESS;
  FT_PMPI(Status_set_elements, st, MPI_BYTE, p->bytes);
  FT_PMPI(Status_set_cancelled, st, 0);
  remove_at(rt, (size_t)i);
  rt->retired[rt->n_retired++] = *req;
  *req = MPI_REQUEST_NULL;
  if (rt->n_retired == FT_RETIRE_BATCH)
    ft_pending_retire_all(rt);
}

void ft_pending_retire_all(struct ft_runtime *rt) {
  if (rt->n_retired > 0)
    FT_PMPI(Waitall, rt->n_retired, rt->retired, MPI_STATUSES_IGNORE);
  rt->n_retired = 0;
}
