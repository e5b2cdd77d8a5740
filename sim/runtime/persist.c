/* Persistent requests (MPI-3.1, 3.9): MPI_Send_init and its kin, and the
 * records that MPI_Start, MPI_Startall and the completion calls (p2p.c)
 * work on.
 *
 * A persistent request is a record of the runtime (its arguments); MPI_Start
 * posts the runtime's own nonblocking operation (p2p.c), so every protocol
 * sees the message exactly as one of MPI_Isend or MPI_Irecv: logged under
 * message logging, kept as channel state by its family, settled at a rollback.
 * The handle the application holds is a generalized request that never
 * completes and is never freed: an identity, never given to the library's
 * completion calls, and never reused, so that a handle an image restores
 * (the application's memory, where handles live) still names its record
 * after a rollback. A completion call on the application's array works on
 * a copy in which each persistent handle is replaced by its operation in
 * flight (MPI_REQUEST_NULL when inactive, which MPI says is treated alike:
 * an empty status at once); the operation completed, the record is
 * inactive again and the application's handle stays (MPI: until
 * MPI_Request_free). */
#include <stdlib.h>

#include "runtime.h"

/* p's operation, if the runtime completed it before the application's
 * call (delivery.c, resolve_wildcards: delivered already), becomes p's held
 * completion, reported by the next wait or test. Every look-up goes
 * through here, so that no copy of the library's handle, freed by that
 * completion, is used again. */
static void take_resolved(struct ft_runtime *rt, struct ft_persistent *p) {
  MPI_Status st;
  if (p->active != MPI_REQUEST_NULL && rt->deliveries.n_resolved > 0 &&
      ft_delivery_take_resolved(rt, p->handle, &st)) {
    p->active = MPI_REQUEST_NULL;
    p->held = 1;
    p->held_status = st;
    p->held_err = st.MPI_ERROR;
  }
}

struct ft_persistent *ft_persist_find(MPI_Request handle) {
  struct ft_runtime *rt = ft_runtime();
  for (size_t i = 0; handle != MPI_REQUEST_NULL && i < rt->n_persistent; i++)
    if (rt->persistent[i].handle == handle) {
      take_resolved(rt, &rt->persistent[i]);
      return &rt->persistent[i];
    }
  return NULL;
}

size_t ft_persist_records(void) { return ft_runtime()->n_persistent; }

int ft_persist_init(const char *call, enum ft_persist_kind kind, void *buf,
                    int count, MPI_Datatype type, int peer, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_p2p(rt, call, comm, count, type, peer, tag,
                      kind == FT_PERSIST_RECV ? FT_ERR_SOURCE : FT_ERR_DEST);
  if (rc != MPI_SUCCESS) {
    *request = MPI_REQUEST_NULL;
    return rc;
  }
  rt->persistent =
      ft_reserve(rt->persistent, rt->n_persistent + 1, &rt->cap_persistent,
                 sizeof *rt->persistent, "persistent requests");
  struct ft_persistent *p = &rt->persistent[rt->n_persistent++];
  *p = (struct ft_persistent){.active = MPI_REQUEST_NULL,
                              .made_inc = rt->incarnation,
                              .made_at = rt->safe_points,
                              .kind = kind,
                              .buf = buf,
                              .count = count,
                              .type = type,
                              .peer = peer,
                              .tag = tag,
                              .comm = comm};
  ft_grequest(&p->handle);
  *request = p->handle;
  return MPI_SUCCESS;
}

/* The record p, whose handle the application no longer holds (freed, or a
 * oneshot's completion reported), leaves the table unless an image may
 * hold its handle: a safe point passed (or a rollback came) since it was
 * made. Such a record stays, inactive, so that a handle an image restores
 * still names it; one made and let go between two safe points (a request
 * per iteration) is removed and its handle freed (no image holds it, so
 * the library may reuse it). The last record takes its place: the
 * caller holds no pointer into the table after this. */
static void forget(struct ft_runtime *rt, struct ft_persistent *p) {
  if (p->made_inc != rt->incarnation || p->made_at != rt->safe_points)
    return;
  MPI_Request handle = p->handle;
  *p = rt->persistent[--rt->n_persistent];
  FT_PMPI(Grequest_complete, handle);
  FT_PMPI(Request_free, &handle);
}

int ft_persist_free(MPI_Request *request, MPI_Request *active) {
  struct ft_persistent *p = ft_persist_find(*request);
  if (!p)
    return -1;
  /* An operation in flight completes on its own (MPI-3.1, 3.7.3); the
   * runtime's MPI_Request_free, the caller, says what that means under each
   * protocol. */
  *active = p->active;
  p->active = MPI_REQUEST_NULL;
  p->held = 0;
  *request = MPI_REQUEST_NULL;
  forget(ft_runtime(), p);
  return MPI_SUCCESS;
}

int ft_persist_cancel(MPI_Request request, MPI_Request *active) {
  const struct ft_persistent *p = ft_persist_find(request);
  if (!p)
    return -1;
  /* Completed already (a oneshot of ft_persist_completed, one held), or
   * inactive: no operation, a cancel does nothing. */
  *active = p->active;
  return MPI_SUCCESS;
}

MPI_Request *ft_persist_in(int n, MPI_Request reqs[], MPI_Request small[16]) {
  if (ft_runtime()->n_persistent == 0 || n <= 0)
    return reqs;
  MPI_Request *inner = n <= 16 ? small : malloc((size_t)n * sizeof *inner);
  if (!inner)
    ft_fatal("out of memory in a completion call on %d requests", n);
  for (int i = 0; i < n; i++) {
    const struct ft_persistent *p = ft_persist_find(reqs[i]);
    inner[i] = p ? p->active : reqs[i];
  }
  return inner;
}

void ft_persist_out(int n, MPI_Request reqs[], MPI_Request *inner,
                    MPI_Request small[16]) {
  if (inner == reqs)
    return;
  struct ft_runtime *rt = ft_runtime();
  for (int i = 0; i < n; i++) {
    struct ft_persistent *p = ft_persist_find(reqs[i]);
    /* MPI_REQUEST_NULL: completed, inactive. A completion the runtime
     * made during the call and holds (an owned operation a later receive's
     * delivery completed: take_resolved) left inner[i] a stale copy of the
     * library's handle, which must not come back. */
    if (p)
      p->active = p->held ? MPI_REQUEST_NULL : inner[i];
    int reported = p && p->oneshot && !p->held; /* its handle is nulled */
    if (!p || reported)
      reqs[i] = inner[i];
    if (reported)
      forget(rt, p);
  }
  if (inner != small)
    free(inner);
}

/* A new oneshot record (an operation not persistent, reported once) with
 * `active` as its library handle, made now; its handle, a generalized
 * request of the runtime's, in *request. The caller sets the rest. */
static struct ft_persistent *new_oneshot(MPI_Request active,
                                         MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  rt->persistent =
      ft_reserve(rt->persistent, rt->n_persistent + 1, &rt->cap_persistent,
                 sizeof *rt->persistent, "persistent requests");
  struct ft_persistent *p = &rt->persistent[rt->n_persistent++];
  *p = (struct ft_persistent){.active = active,
                              .made_inc = rt->incarnation,
                              .made_at = rt->safe_points,
                              .oneshot = 1,
                              .comm = MPI_COMM_WORLD};
  ft_grequest(&p->handle);
  *request = p->handle;
  return p;
}

void ft_persist_completed(MPI_Request *request, const MPI_Status *st, int err) {
  struct ft_persistent *p = new_oneshot(MPI_REQUEST_NULL, request);
  p->held = 1;
  p->held_status = *st;
  p->held_err = err;
}

void ft_persist_own(MPI_Request *request) {
  new_oneshot(*request, request)->kind = FT_PERSIST_RECV;
}

int ft_persist_hold(MPI_Request handle, const MPI_Status *st) {
  struct ft_persistent *p = ft_persist_find(handle);
  if (!p)
    return 0;
  p->active = MPI_REQUEST_NULL;
  p->held = 1;
  p->held_status = *st;
  p->held_err = MPI_SUCCESS;
  return 1;
}

int ft_persist_held(MPI_Request handle, MPI_Status *st, int release) {
  struct ft_persistent *p = ft_persist_find(handle);
  if (!p || !p->held)
    return 0;
  if (release)
    p->held = 0;
  if (st != MPI_STATUS_IGNORE)
    *st = p->held_status;
  return 1;
}

int ft_persist_held_err(MPI_Request handle) {
  struct ft_persistent *p = ft_persist_find(handle);
  return p && p->held ? p->held_err : MPI_SUCCESS;
}

/* ---- The application's calls ---- */

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request) {
  return ft_persist_init("MPI_Send_init", FT_PERSIST_SEND, (void *)buf, count,
                         datatype, dest, tag, comm, request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request) {
  return ft_persist_init("MPI_Ssend_init", FT_PERSIST_SSEND, (void *)buf, count,
                         datatype, dest, tag, comm, request);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request) {
  return ft_persist_init("MPI_Rsend_init", FT_PERSIST_RSEND, (void *)buf, count,
                         datatype, dest, tag, comm, request);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source,
                  int tag, MPI_Comm comm, MPI_Request *request) {
  return ft_persist_init("MPI_Recv_init", FT_PERSIST_RECV, buf, count, datatype,
                         source, tag, comm, request);
}
