/* Interposed point-to-point calls. Each one tells the protocol core what the
 * application does (ft_protocol_event), counts what is sent, and carries the
 * operation out on the runtime's communicator for the application's one.
 *
 * Under a protocol that recovers, every blocking call waits through
 * control.h so that control messages (markers, rollback orders) reach a
 * rank blocked in it: blocking sends and receives become nonblocking ones
 * plus an interruptible wait, probes poll, and the test family looks at the
 * control receive every FT_TEST_POLL calls. With protocol `none` every call
 * is carried out as the application made it. */
#include <stdlib.h>

#include "backend.h"
#include "runtime.h"

static uint64_t payload_bytes(int count, MPI_Datatype type) {
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  return count > 0 && size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}

static void count_bytes(struct ft_runtime *rt, uint64_t bytes) {
  struct ft_counters *c = &rt->counters;
  c->messages++;
  c->bytes += bytes;
}

void ft_count_send(int count, MPI_Datatype type) {
  struct ft_runtime *rt = ft_runtime();
  count_bytes(rt, payload_bytes(count, type));
}

/* Announces a send of the application to the core and counts it; the
 * family adds what goes with it (driver.h, app_send). Returns 1 when the
 * send must not be carried out (suppressed: the call completes at once),
 * 0 otherwise. */
static int app_send(struct ft_runtime *rt, int count, MPI_Datatype type,
                    int dest, int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL)
    return 0;
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* a rank that failed sends nothing */
  uint64_t bytes = payload_bytes(count, type);
  count_bytes(rt, bytes);
  double delay = ft_daemon_delay(&rt->options, bytes);
  if (delay > 0)
    ft_control_sleep(rt, delay);
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_event e = {.type = FT_EVENT_APP_SEND,
                       .peer = ft_comm_app_rank(c, dest),
                       .tag = tag,
                       .bytes = bytes};
  struct ft_update u = {.flags = FT_UPDATE_PASS | FT_UPDATE_PIGGYBACK};
  if (!ft_prologue_hidden(rt)) {
    ft_core_decide(rt, &e, &u);
    ft_apply_update(rt, &u);
  }
  int suppressed =
      rt->driver->app_send && rt->driver->app_send(rt, &u, dest, tag, c);
  if (!suppressed)
    ft_trace_app_send(rt, comm, dest, tag, bytes);
  return suppressed;
}

/* A nonblocking send that was suppressed: a handle whose next wait or test
 * reports it complete (persist.c), as for MPI_PROC_NULL: the library never
 * sees it (SMPI's MPI_Waitany would not complete a generalized request). */
static int suppressed_request(MPI_Request *request) {
  MPI_Status st;
  st.MPI_SOURCE = MPI_ANY_SOURCE;
  st.MPI_TAG = MPI_ANY_TAG;
  st.MPI_ERROR = MPI_SUCCESS;
  FT_PMPI(Status_set_elements, &st, MPI_BYTE, 0);
  FT_PMPI(Status_set_cancelled, &st, 0);
  ft_persist_completed(request, &st, MPI_SUCCESS);
  return MPI_SUCCESS;
}

/* The application posts a receive: APP_RECV to the core, whose ticket
 * (the receive's id, wildcard) goes back with DELIVERED. A wildcard receive
 * whose match the core logged before a rollback (REPLAY, c3-collectives,
 * section 2.3: "these events can be replayed during recovery") is narrowed
 * to the logged source and tag (*source: a rank of comm). */
static struct ft_recv_ticket app_recv(struct ft_runtime *rt, int count,
                                      MPI_Datatype type, int *source, int *tag,
                                      MPI_Comm comm) {
  struct ft_recv_ticket t = {.source = *source, .tag = *tag};
  if (*source == MPI_PROC_NULL || ft_prologue_hidden(rt))
    return t;
  struct ft_comm *c = ft_comm_get(rt, comm);
  struct ft_event e = {
      .type = FT_EVENT_APP_RECV,
      .peer = *source == MPI_ANY_SOURCE ? -1 : ft_comm_app_rank(c, *source),
      .tag = *tag == MPI_ANY_TAG ? -1 : *tag,
      .bytes = payload_bytes(count, type),
      .wildcard = *source == MPI_ANY_SOURCE || *tag == MPI_ANY_TAG};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  ft_apply_update(rt, &u);
  if (u.flags & FT_UPDATE_REPLAY) {
    *source = ft_comm_rank_of(c, u.replay.peer);
    *tag = u.replay.tag;
  }
  return (struct ft_recv_ticket){
      .id = u.id, .wildcard = e.wildcard, .source = *source, .tag = *tag};
}

/* The status of an operation with MPI_PROC_NULL: source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, no element. */
static void proc_null_status(MPI_Status *st) {
  st->MPI_SOURCE = MPI_PROC_NULL;
  st->MPI_TAG = MPI_ANY_TAG;
  st->MPI_ERROR = MPI_SUCCESS;
  FT_PMPI(Status_set_elements, st, MPI_BYTE, 0);
  FT_PMPI(Status_set_cancelled, st, 0);
}

/* The application's nonblocking operation with MPI_PROC_NULL completes at
 * once (MPI-3.1, 3.11) without reaching the library: *request becomes a
 * handle whose next wait or test reports a status of source MPI_PROC_NULL,
 * tag MPI_ANY_TAG, no element (persist.c), under every protocol. SMPI
 * 3.32's request for MPI_PROC_NULL is never started, so its reference count
 * stays 0, and PMPI_Waitany (smpi_pmpi_request.cpp) takes and drops a
 * reference on every request it is given: one it did not complete is
 * destroyed while the application still holds it, and the next call on it
 * crashes in Request::unref (persist_check waitany_null under none). */
static int proc_null_op(int peer, MPI_Request *request) {
  if (peer != MPI_PROC_NULL)
    return 0;
  MPI_Status st;
  proc_null_status(&st);
  ft_persist_completed(request, &st, MPI_SUCCESS);
  return 1;
}

/* The family sends the payload itself (driver.h, send_payload: the
 * piggyback combined with it): 1 and *rc when it did. `req` NULL: a
 * blocking send; `how`: enum ft_payload_how. */
static int family_send(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                       int how, MPI_Request *req, int *rc) {
  return rt->driver->send_payload && dest != MPI_PROC_NULL &&
         rt->driver->send_payload(rt, buf, count, type, dest, tag,
                                  ft_comm_get(rt, comm), 0, how, req, rc);
}

/* ... and posts the receive itself (recv_payload): 1 (2: a message it
 * delivered already, driver.h) and *rc when it did;
 * a blocking one (`req` NULL) is complete, *status the application's
 * view. */
static int family_recv(struct ft_runtime *rt, void *buf, int count,
                       MPI_Datatype type, int source, int tag, MPI_Comm comm,
                       MPI_Request *req, MPI_Status *status, int *rc) {
  if (!rt->driver->recv_payload || source == MPI_PROC_NULL)
    return 0;
  return rt->driver->recv_payload(rt, buf, count, type, source, tag,
                                  ft_comm_get(rt, comm), 0, req, status, rc);
}

/* ---- Under a family's driver (driver.h): an operation it sets replaces
 * the default path below (message logging's: ml_ops.c). ---- */

/* A blocking send through the driver: isend, then wait. */
static int driver_send(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                       int coll) {
  MPI_Request req;
  rt->driver->isend(rt, buf, count, type, dest, tag, c, coll, &req);
  return rt->driver->wait(rt, &req, MPI_STATUS_IGNORE);
}

/* A send-receive with oneself (dest and source this rank in `comm`): SMPI
 * makes it a local copy (Datatype::copy, no simulated time), as MPIs do;
 * the runtime does the same under every protocol instead of a nonblocking
 * send and receive on the loopback, which SMPI charges network time
 * (issue 14, item 7: alltoall's i = 0 exchange, 32% slower under coordinated
 * checkpoints). Nothing is in flight during the copy, so no checkpoint can fall
 * between its send and its delivery: no coordinated wave's channels hold it,
 * and message logging neither logs nor replays it, since its re-execution
 * copies the same data again (both ends are named: nothing to decide). */
static int with_self(int dest, int source, MPI_Comm comm) {
  int me = MPI_PROC_NULL;
  if (dest != source || dest == MPI_PROC_NULL)
    return 0;
  FT_PMPI(Comm_rank, comm, &me);
  return dest == me;
}

/* The copy of a send-receive with oneself on `comm`. SMPI 3.32's status
 * names the sender as this rank + 1 (the actor's pid): channel state took that
 * delivery as one from its neighbour and failed; the status is set right
 * (this rank, the send's tag). */
static int local_copy(const void *sbuf, int scount, MPI_Datatype stype,
                      void *rbuf, int rcount, MPI_Datatype rtype, int stag,
                      int rtag, MPI_Comm comm, MPI_Status *status) {
  int me, rc;
  MPI_Status st;
  FT_PMPI(Comm_rank, comm, &me);
  if (sbuf == rbuf) /* MPI_Sendrecv_replace */
    rc = PMPI_Sendrecv_replace(rbuf, rcount, rtype, me, stag, me, rtag, comm,
                               &st);
  else
    rc = PMPI_Sendrecv(sbuf, scount, stype, me, stag, rbuf, rcount, rtype, me,
                       rtag, comm, &st);
  st.MPI_SOURCE = me;
  st.MPI_TAG = stag;
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* A send-receive through the driver: isend, irecv, then waitall; with
 * oneself, a local copy (with_self). */
static int driver_sendrecv(struct ft_runtime *rt, const void *sbuf, int scount,
                           MPI_Datatype stype, int dest, int stag, void *rbuf,
                           int rcount, MPI_Datatype rtype, int source, int rtag,
                           struct ft_comm *c, int coll, MPI_Status *status) {
  if (dest == c->rank && source == c->rank) { /* see with_self */
    ft_count_send(scount, stype);
    return local_copy(sbuf, scount, stype, rbuf, rcount, rtype, stag, rtag,
                      ft_comm_traffic(c, coll), status);
  }
  MPI_Request reqs[2];
  MPI_Status st[2];
  st[0].MPI_ERROR = st[1].MPI_ERROR = MPI_SUCCESS;
  rt->driver->isend(rt, sbuf, scount, stype, dest, stag, c, coll, &reqs[1]);
  rt->driver->irecv(rt, rbuf, rcount, rtype, source, rtag, c, coll, &reqs[0]);
  rt->driver->waitall(rt, 2, reqs, st);
  if (status != MPI_STATUS_IGNORE)
    *status = st[0];
  /* The library's error (a truncated receive) is the call's code, on
   * either backend (control.c, completed_error). */
  return st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
}

static int send_call(struct ft_runtime *rt, const void *buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (rt->driver->isend)
    return driver_send(rt, buf, count, type, dest, tag, ft_comm_get(rt, comm),
                       0);
  if (app_send(rt, count, type, dest, tag, comm))
    return MPI_SUCCESS;
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, 0, NULL, &rc))
    return rc;
  if (!rt->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Send(buf, count, type, dest, tag, ft_comm_inner(rt, comm));
  MPI_Request req;
  rc = PMPI_Isend(buf, count, type, dest, tag, ft_comm_inner(rt, comm), &req);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_pending_add_send(rt, req, ft_comm_inner(rt, comm), dest, tag, count, type,
                      0);
  return ft_wait_internal(rt, &req, MPI_STATUS_IGNORE);
}

static int ssend_call(struct ft_runtime *rt, const void *buf, int count,
                      MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (rt->driver->isend)
    return driver_send(rt, buf, count, type, dest, tag, ft_comm_get(rt, comm),
                       0);
  if (app_send(rt, count, type, dest, tag, comm))
    return MPI_SUCCESS;
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, FT_PAYLOAD_SYNC, NULL,
                  &rc))
    return rc;
  if (!rt->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Ssend(buf, count, type, dest, tag, ft_comm_inner(rt, comm));
  MPI_Request req;
  rc = PMPI_Issend(buf, count, type, dest, tag, ft_comm_inner(rt, comm), &req);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_pending_add_send(rt, req, ft_comm_inner(rt, comm), dest, tag, count, type,
                      1);
  return ft_wait_internal(rt, &req, MPI_STATUS_IGNORE);
}

/* A ready send is a valid standard send (MPI-3.1, 3.4): message logging
 * takes it as one, so that it is logged like any other. */
static int rsend_call(struct ft_runtime *rt, const void *buf, int count,
                      MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (rt->driver->isend)
    return driver_send(rt, buf, count, type, dest, tag, ft_comm_get(rt, comm),
                       0);
  if (app_send(rt, count, type, dest, tag, comm))
    return MPI_SUCCESS;
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, 0, NULL, &rc))
    return rc;
  if (!rt->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Rsend(buf, count, type, dest, tag, ft_comm_inner(rt, comm));
  MPI_Request req;
  rc = PMPI_Irsend(buf, count, type, dest, tag, ft_comm_inner(rt, comm), &req);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_pending_add_send(rt, req, ft_comm_inner(rt, comm), dest, tag, count, type,
                      0);
  return ft_wait_internal(rt, &req, MPI_STATUS_IGNORE);
}

static int isend_call(struct ft_runtime *rt, const void *buf, int count,
                      MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request) {
  if (rt->driver->isend)
    return rt->driver->isend(rt, buf, count, type, dest, tag,
                             ft_comm_get(rt, comm), 0, request);
  if (app_send(rt, count, type, dest, tag, comm))
    return suppressed_request(request);
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, 0, request, &rc))
    return rc;
  rc =
      PMPI_Isend(buf, count, type, dest, tag, ft_comm_inner(rt, comm), request);
  if (rc == MPI_SUCCESS)
    ft_pending_add_send(rt, *request, ft_comm_inner(rt, comm), dest, tag, count,
                        type, 0);
  return rc;
}

static int issend_call(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                       MPI_Request *request) {
  if (rt->driver->isend)
    return rt->driver->isend(rt, buf, count, type, dest, tag,
                             ft_comm_get(rt, comm), 0, request);
  if (app_send(rt, count, type, dest, tag, comm))
    return suppressed_request(request);
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, FT_PAYLOAD_SYNC,
                  request, &rc))
    return rc;
  rc = PMPI_Issend(buf, count, type, dest, tag, ft_comm_inner(rt, comm),
                   request);
  if (rc == MPI_SUCCESS)
    ft_pending_add_send(rt, *request, ft_comm_inner(rt, comm), dest, tag, count,
                        type, 1);
  return rc;
}

static int irsend_call(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                       MPI_Request *request) {
  if (rt->driver->isend)
    return rt->driver->isend(rt, buf, count, type, dest, tag,
                             ft_comm_get(rt, comm), 0, request);
  if (app_send(rt, count, type, dest, tag, comm))
    return suppressed_request(request);
  int rc;
  if (family_send(rt, buf, count, type, dest, tag, comm, 0, request, &rc))
    return rc;
  rc = PMPI_Irsend(buf, count, type, dest, tag, ft_comm_inner(rt, comm),
                   request);
  if (rc == MPI_SUCCESS)
    ft_pending_add_send(rt, *request, ft_comm_inner(rt, comm), dest, tag, count,
                        type, 0);
  return rc;
}

/* Whether a receive that returned `rc` took its message off the channel:
 * on success, and when the message was longer than the buffer
 * (MPI_ERR_TRUNCATE: matched and consumed, its head delivered), as the
 * MPI_Wait of an MPI_Irecv reports it (ft_delivery_completed). */
static int consumed(int rc) {
  int cls = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    PMPI_Error_class(rc, &cls);
  return cls == MPI_SUCCESS || cls == MPI_ERR_TRUNCATE;
}

static int recv_call(struct ft_runtime *rt, void *buf, int count,
                     MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status) {
  if (rt->driver->irecv) {
    MPI_Request req;
    rt->driver->irecv(rt, buf, count, type, source, tag, ft_comm_get(rt, comm),
                      0, &req);
    return rt->driver->wait(rt, &req, status);
  }
  struct ft_recv_ticket t = app_recv(rt, count, type, &source, &tag, comm);
  if (!rt->track_deliveries)
    return ft_recv_internal(rt, buf, count, type, source, tag,
                            ft_comm_inner(rt, comm), status);
  MPI_Status st;
  int rc, family = family_recv(rt, buf, count, type, source, tag, comm, NULL,
                               &st, &rc);
  if (!family)
    rc = ft_recv_internal(rt, buf, count, type, source, tag,
                          ft_comm_inner(rt, comm), &st);
  if (consumed(rc) && source != MPI_PROC_NULL && family != 2) /* 2: drained */
    ft_delivery_done(rt, buf, count, type, comm, &st, t);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

static int irecv_call(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request *request) {
  if (rt->driver->irecv)
    return rt->driver->irecv(rt, buf, count, type, source, tag,
                             ft_comm_get(rt, comm), 0, request);
  struct ft_recv_ticket t = app_recv(rt, count, type, &source, &tag, comm);
  MPI_Status st;
  int rc, family = family_recv(rt, buf, count, type, source, tag, comm, request,
                               &st, &rc);
  if (family == 2) { /* complete already (driver.h): its wait reports it,
                        with its error (a truncated message's) */
    ft_persist_completed(request, &st, rc);
    rc = MPI_SUCCESS;
  }
  if (!family) {
    rc = PMPI_Irecv(buf, count, type, source, tag, ft_comm_inner(rt, comm),
                    request);
    if (rc == MPI_SUCCESS)
      ft_pending_add(rt, *request, ft_comm_inner(rt, comm), 0, source, tag);
  }
  if (rc == MPI_SUCCESS && rt->track_deliveries && source != MPI_PROC_NULL &&
      family != 2) /* 2: delivered already (drained) */
    ft_delivery_posted(rt, *request, buf, count, type, comm, t);
  return rc;
}

/* MPI_Sendrecv on the runtime's communicator, interruptible when needed. */
static int sendrecv(struct ft_runtime *rt, const void *sbuf, int scount,
                    MPI_Datatype stype, int dest, int stag, void *rbuf,
                    int rcount, MPI_Datatype rtype, int source, int rtag,
                    MPI_Comm comm, MPI_Status *status) {
  if (with_self(dest, source, comm))
    return local_copy(sbuf, scount, stype, rbuf, rcount, rtype, stag, rtag,
                      comm, status);
  if (!rt->recovering_protocol)
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                         source, rtag, comm, status);
  MPI_Request reqs[2];
  MPI_Status st[2];
  st[0].MPI_ERROR = st[1].MPI_ERROR = MPI_SUCCESS;
  FT_PMPI(Irecv, rbuf, rcount, rtype, source, rtag, comm, &reqs[0]);
  ft_pending_add(rt, reqs[0], comm, 0, source, rtag);
  FT_PMPI(Isend, sbuf, scount, stype, dest, stag, comm, &reqs[1]);
  ft_pending_add_send(rt, reqs[1], comm, dest, stag, scount, stype, 0);
  ft_waitall_internal(rt, 2, reqs, st);
  if (status != MPI_STATUS_IGNORE)
    *status = st[0];
  /* The library's error (a truncated receive) is the call's code, on
   * either backend (control.c, completed_error). */
  return st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
}

/* Hands the status `st` to the application (status may be
 * MPI_STATUS_IGNORE); returns st's MPI_ERROR. */
static int copy_status(MPI_Status st, MPI_Status *status) {
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return st.MPI_ERROR;
}

/* A send-receive whose messages the family carries (send_payload,
 * recv_payload: the piggyback combined), the send and the receive announced
 * (`suppressed`: the send is not carried out): the send leaves from a copy
 * (MPI_Sendrecv_replace may reuse the buffer), the receive completes, then
 * the send. *st: the receive's status, its MPI_ERROR the result. 0 when the
 * family carries neither (piggyback=separate). */
static int family_sendrecv(struct ft_runtime *rt, int suppressed,
                           const void *sbuf, int scount, MPI_Datatype stype,
                           int dest, int stag, void *rbuf, int rcount,
                           MPI_Datatype rtype, int source, int rtag,
                           MPI_Comm comm, MPI_Status *st,
                           struct ft_recv_ticket t) {
  MPI_Request sreq = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS, sent = 0;
  if (!suppressed && dest != MPI_PROC_NULL) {
    if (!family_send(rt, sbuf, scount, stype, dest, stag, comm,
                     sbuf == rbuf ? FT_PAYLOAD_COPY : 0, &sreq, &rc))
      return 0; /* the family carries nothing */
    sent = 1;
  }
  if (source == MPI_PROC_NULL) {
    if (!sent)
      return 0; /* nothing for the family: the default path */
    proc_null_status(st);
  } else if (!family_recv(rt, rbuf, rcount, rtype, source, rtag, comm, NULL, st,
                          &rc)) {
    if (sent)
      ft_fatal("rank %d: a send-receive's send carried by the family, not "
               "its receive",
               rt->world_rank);
    return 0;
  }
  MPI_Request before = sreq;
  MPI_Status sst;
  if (sreq != MPI_REQUEST_NULL) {
    ft_pmpi_check(ft_wait_internal(rt, &sreq, &sst), "MPI_Sendrecv");
    ft_delivery_completed(rt, before, &sst); /* frees the copy */
  }
  if (source != MPI_PROC_NULL && consumed(rc))
    ft_delivery_done(rt, rbuf, rcount, rtype, comm, st, t);
  st->MPI_ERROR = rc;
  return 1;
}

/* A send-receive whose receive takes a message the family holds (the
 * drain family's buffer: recv_payload answers 2, delivered already): the
 * send goes on the default path, the receive from the family, then the
 * send completes. 0 when the family holds no such message. */
static int held_sendrecv(struct ft_runtime *rt, int suppressed,
                         const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, int stag, void *rbuf, int rcount,
                         MPI_Datatype rtype, int source, int rtag,
                         MPI_Comm comm, MPI_Status *st, int *rc) {
  MPI_Status probe;
  if (!rt->driver->holds || source == MPI_PROC_NULL ||
      !rt->driver->holds(rt, ft_comm_get(rt, comm), source, rtag, &probe))
    return 0;
  MPI_Request sreq = MPI_REQUEST_NULL;
  MPI_Comm inner = ft_comm_inner(rt, comm);
  if (!suppressed && dest != MPI_PROC_NULL) {
    FT_PMPI(Isend, sbuf, scount, stype, dest, stag, inner, &sreq);
    ft_pending_add_send(rt, sreq, inner, dest, stag, scount, stype, 0);
  }
  if (family_recv(rt, rbuf, rcount, rtype, source, rtag, comm, NULL, st, rc) !=
      2)
    ft_fatal("rank %d: a held message its family did not give back",
             rt->world_rank);
  if (sreq != MPI_REQUEST_NULL)
    ft_pmpi_check(ft_wait_internal(rt, &sreq, MPI_STATUS_IGNORE),
                  "MPI_Sendrecv");
  return 1;
}

static int sendrecv_call(struct ft_runtime *rt, const void *sbuf, int scount,
                         MPI_Datatype stype, int dest, int stag, void *rbuf,
                         int rcount, MPI_Datatype rtype, int source, int rtag,
                         MPI_Comm comm, MPI_Status *status) {
  if (rt->driver->isend)
    return driver_sendrecv(rt, sbuf, scount, stype, dest, stag, rbuf, rcount,
                           rtype, source, rtag, ft_comm_get(rt, comm), 0,
                           status);
  int suppressed = app_send(rt, scount, stype, dest, stag, comm);
  struct ft_recv_ticket t = app_recv(rt, rcount, rtype, &source, &rtag, comm);
  MPI_Status st;
  if (rt->driver->send_payload &&
      family_sendrecv(rt, suppressed, sbuf, scount, stype, dest, stag, rbuf,
                      rcount, rtype, source, rtag, comm, &st, t))
    return copy_status(st, status);
  int rc;
  if (held_sendrecv(rt, suppressed, sbuf, scount, stype, dest, stag, rbuf,
                    rcount, rtype, source, rtag, comm, &st, &rc)) {
    if (status != MPI_STATUS_IGNORE)
      *status = st;
    return rc;
  }
  rc = suppressed ? ft_recv_internal(rt, rbuf, rcount, rtype, source, rtag,
                                     ft_comm_inner(rt, comm), &st)
                  : sendrecv(rt, sbuf, scount, stype, dest, stag, rbuf, rcount,
                             rtype, source, rtag, ft_comm_inner(rt, comm), &st);
  if (consumed(rc) && source != MPI_PROC_NULL && rt->track_deliveries)
    ft_delivery_done(rt, rbuf, rcount, rtype, comm, &st, t);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* MPI_Sendrecv_replace on the runtime's communicator: under a protocol
 * that recovers, the send leaves from a packed copy and the receive goes
 * into buf, by the interruptible sendrecv above. PMPI_Sendrecv_replace
 * blocks without looking at the control receive: a rank waiting in it for
 * a peer that failed never got the rollback (e2e/<protocol>_counts_failures,
 * `fail 2 at 0.021`, a checkpoint every 2 ms: a rank waited for the failed
 * rank's block, deadlock, under every family on the default path). The copy
 * stays with a send abandoned by a rollback, which the settle completes. */
static int sendrecv_replace(struct ft_runtime *rt, void *buf, int count,
                            MPI_Datatype type, int dest, int stag, int source,
                            int rtag, MPI_Comm comm, MPI_Status *status) {
  if (!rt->recovering_protocol)
    return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                                 comm, status);
  size_t bytes = 0;
  void *copy = ft_pack_copy(rt, buf, count, type, comm, &bytes);
  int rc = sendrecv(rt, copy, (int)bytes, MPI_PACKED, dest, stag, buf, count,
                    type, source, rtag, comm, status);
  free(copy);
  return rc;
}

/* MPI_Sendrecv_replace whose receive takes a message the family holds
 * (held_sendrecv): the send leaves from a packed copy of buf, then buf
 * receives the held message. 0 when the family holds no such message. */
static int held_replace(struct ft_runtime *rt, int suppressed, void *buf,
                        int count, MPI_Datatype type, int dest, int stag,
                        int source, int rtag, MPI_Comm comm, MPI_Status *st,
                        int *rc) {
  MPI_Status probe;
  if (!rt->driver->holds || source == MPI_PROC_NULL ||
      !rt->driver->holds(rt, ft_comm_get(rt, comm), source, rtag, &probe))
    return 0;
  size_t bytes = 0;
  void *copy = ft_pack_copy(rt, buf, count, type, comm, &bytes);
  int held = held_sendrecv(rt, suppressed, copy, (int)bytes, MPI_PACKED, dest,
                           stag, buf, count, type, source, rtag, comm, st, rc);
  free(copy);
  return held;
}

static int sendrecv_replace_call(struct ft_runtime *rt, void *buf, int count,
                                 MPI_Datatype type, int dest, int stag,
                                 int source, int rtag, MPI_Comm comm,
                                 MPI_Status *status) {
  if (rt->driver->isend) /* message logging: the send leaves from its
                          sender-based copy */
    return driver_sendrecv(rt, buf, count, type, dest, stag, buf, count, type,
                           source, rtag, ft_comm_get(rt, comm), 0, status);
  int suppressed = app_send(rt, count, type, dest, stag, comm);
  struct ft_recv_ticket t = app_recv(rt, count, type, &source, &rtag, comm);
  MPI_Status st;
  if (rt->driver->send_payload &&
      family_sendrecv(rt, suppressed, buf, count, type, dest, stag, buf, count,
                      type, source, rtag, comm, &st, t))
    return copy_status(st, status);
  MPI_Comm inner = ft_comm_inner(rt, comm);
  int rc;
  if (held_replace(rt, suppressed, buf, count, type, dest, stag, source, rtag,
                   comm, &st, &rc)) {
    if (status != MPI_STATUS_IGNORE)
      *status = st;
    return rc;
  }
  rc = suppressed
           ? ft_recv_internal(rt, buf, count, type, source, rtag, inner, &st)
       : with_self(dest, source, inner)
           ? local_copy(buf, count, type, buf, count, type, stag, rtag, inner,
                        &st)
           : sendrecv_replace(rt, buf, count, type, dest, stag, source, rtag,
                              inner, &st);
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL && rt->track_deliveries)
    ft_delivery_done(rt, buf, count, type, comm, &st, t);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* Calls of the test family and of MPI_Iprobe between two looks at the
 * control receive: rare enough to add little simulated time (each MPI_Test
 * costs SMPI's smpi/test), often enough for loops that only poll. */
enum { FT_TEST_POLL = 16 };

/* Under a recovering protocol, looks at the control receive every
 * FT_TEST_POLL calls. */
static void poll_sometimes(struct ft_runtime *rt) {
  if (!rt->recovering_protocol)
    return;
  ft_control_fate(rt); /* a look at the clock: a rank that failed stops */
  if (++rt->test_polls % FT_TEST_POLL == 0)
    ft_poll_control(rt);
}

/* SMPI's own MPI_Probe is a loop of MPI_Iprobe; this one also looks at the
 * control receive, so a rollback reaches a rank probing for a message that
 * will never come. */
static int probe_call(struct ft_runtime *rt, int source, int tag, MPI_Comm comm,
                      MPI_Status *status) {
  if (rt->driver->probe)
    return rt->driver->probe(rt, source, tag, ft_comm_get(rt, comm), status);
  if (!rt->recovering_protocol)
    return PMPI_Probe(source, tag, ft_comm_inner(rt, comm), status);
  int flag = 0;
  MPI_Status st;
  if (rt->driver->holds) /* the family's messages come first */
    flag = rt->driver->holds(rt, ft_comm_get(rt, comm), source, tag, &st);
  while (!flag) {
    FT_PMPI(Iprobe, source, tag, ft_comm_inner(rt, comm), &flag, &st);
    if (flag && rt->driver->probed) /* the application's count */
      rt->driver->probed(rt, ft_comm_get(rt, comm), &flag, &st);
    if (!flag)
      poll_sometimes(rt);
  }
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return MPI_SUCCESS;
}

static int iprobe_call(struct ft_runtime *rt, int source, int tag,
                       MPI_Comm comm, int *flag, MPI_Status *status) {
  poll_sometimes(rt);
  if (rt->driver->iprobe)
    return rt->driver->iprobe(rt, source, tag, ft_comm_get(rt, comm), flag,
                              status);
  MPI_Status held;
  if (rt->driver->holds && /* the family's messages come first */
      rt->driver->holds(rt, ft_comm_get(rt, comm), source, tag, &held)) {
    *flag = 1;
    if (status != MPI_STATUS_IGNORE)
      *status = held;
    return MPI_SUCCESS;
  }
  if (!rt->driver->probed)
    return PMPI_Iprobe(source, tag, ft_comm_inner(rt, comm), flag, status);
  MPI_Status st;
  int rc = PMPI_Iprobe(source, tag, ft_comm_inner(rt, comm), flag, &st);
  if (rc == MPI_SUCCESS && *flag) /* the application's count */
    rt->driver->probed(rt, ft_comm_get(rt, comm), flag, &st);
  if (*flag && status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* ---- Runtime-internal channels (collectives), counted like the
 * application's messages: the protocols see them too. ---- */

/* The family's part in a collective's send on the shadow `comm` (driver.h,
 * coll_send): 1 when the send is suppressed. */
static int coll_send(struct ft_runtime *rt, MPI_Comm comm, int dest, int tag) {
  int coll = 0;
  if (!rt->driver->coll_send || dest == MPI_PROC_NULL || rt->coll_unit)
    return 0;
  struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
  return c && coll && rt->driver->coll_send(rt, c, dest, tag);
}

/* ... and in a collective's receive that completed (coll_delivered). */
static void coll_delivered(struct ft_runtime *rt, MPI_Comm comm, int source,
                           int tag, void *buf, int count, MPI_Datatype type,
                           const MPI_Status *status) {
  int coll = 0;
  if (!rt->driver->coll_delivered || source == MPI_PROC_NULL || rt->coll_unit)
    return;
  struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
  if (c && coll)
    rt->driver->coll_delivered(rt, c, source, tag, buf, count, type, status);
}

/* A collective's send on the shadow `comm` that the family carries
 * (send_payload: the piggyback combined): 1 and *rc when it did. */
static int coll_family_send(struct ft_runtime *rt, const void *buf, int count,
                            MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                            int how, MPI_Request *req, int *rc) {
  int coll = 0;
  if (!rt->driver->send_payload || dest == MPI_PROC_NULL || rt->coll_unit)
    return 0;
  struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
  return c && coll &&
         rt->driver->send_payload(rt, buf, count, type, dest, tag, c, 1, how,
                                  req, rc);
}

/* ... and a receive (recv_payload). */
static int coll_family_recv(struct ft_runtime *rt, void *buf, int count,
                            MPI_Datatype type, int source, int tag,
                            MPI_Comm comm, MPI_Request *req, MPI_Status *status,
                            int *rc) {
  int coll = 0;
  if (!rt->driver->recv_payload || source == MPI_PROC_NULL || rt->coll_unit)
    return 0;
  struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
  return c && coll &&
         rt->driver->recv_payload(rt, buf, count, type, source, tag, c, 1, req,
                                  status, rc);
}

/* A collective's send-receive whose messages the family carries: the send
 * from a copy, the receive, then the send completed. 0: it carries
 * none. */
static int coll_family_sendrecv(struct ft_runtime *rt, const void *sbuf,
                                int scount, MPI_Datatype stype, int dest,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int source, int tag, MPI_Comm comm,
                                MPI_Status *st, int *rc) {
  MPI_Request sreq = MPI_REQUEST_NULL;
  if (!coll_family_send(rt, sbuf, scount, stype, dest, tag, comm,
                        sbuf == rbuf ? FT_PAYLOAD_COPY : 0, &sreq, rc))
    return 0;
  if (!coll_family_recv(rt, rbuf, rcount, rtype, source, tag, comm, NULL, st,
                        rc))
    *rc = ft_recv_internal(rt, rbuf, rcount, rtype, source, tag, comm, st);
  ft_pmpi_check(ft_coll_waitall(rt, 1, &sreq), "MPI_Sendrecv");
  return 1;
}

int ft_send_internal(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  if (rt->driver->isend) {
    int coll;
    struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
    return driver_send(rt, buf, count, type, dest, tag, c, coll);
  }
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* a rank that failed sends nothing */
  if (coll_send(rt, comm, dest, tag))
    return MPI_SUCCESS;
  ft_count_send(count, type);
  ft_trace_coll_send(rt, comm, dest, tag, count, type);
  int rc;
  if (coll_family_send(rt, buf, count, type, dest, tag, comm, 0, NULL, &rc))
    return rc;
  if (!rt->recovering_protocol)
    return PMPI_Send(buf, count, type, dest, tag, comm);
  MPI_Request req;
  FT_PMPI(Isend, buf, count, type, dest, tag, comm, &req);
  ft_pending_add_send(rt, req, comm, dest, tag, count, type, 0);
  return ft_wait_internal(rt, &req, MPI_STATUS_IGNORE);
}

int ft_sendrecv_internal(const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                         int source, int tag, MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  if (rt->driver->isend) {
    int coll;
    struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
    return driver_sendrecv(rt, sbuf, scount, stype, dest, tag, rbuf, rcount,
                           rtype, source, tag, c, coll, MPI_STATUS_IGNORE);
  }
  if (rt->recovering_protocol)
    ft_control_fate(rt);
  if (coll_send(rt, comm, dest, tag))
    return ft_recv_internal(rt, rbuf, rcount, rtype, source, tag, comm,
                            MPI_STATUS_IGNORE);
  ft_count_send(scount, stype);
  ft_trace_coll_send(rt, comm, dest, tag, scount, stype);
  MPI_Status st;
  int rc;
  if (!coll_family_sendrecv(rt, sbuf, scount, stype, dest, rbuf, rcount, rtype,
                            source, tag, comm, &st, &rc))
    rc = sendrecv(rt, sbuf, scount, stype, dest, tag, rbuf, rcount, rtype,
                  source, tag, comm, &st);
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  ft_trace_coll_delivery(rt, comm, source, tag);
  if (rc == MPI_SUCCESS)
    coll_delivered(rt, comm, source, tag, rbuf, rcount, rtype, &st);
  return rc;
}

int ft_isend_internal(const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *req) {
  struct ft_runtime *rt = ft_runtime();
  if (rt->driver->isend) {
    int coll;
    struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
    return rt->driver->isend(rt, buf, count, type, dest, tag, c, coll, req);
  }
  if (rt->recovering_protocol)
    ft_control_fate(rt); /* a rank that failed sends nothing */
  *req = MPI_REQUEST_NULL;
  if (coll_send(rt, comm, dest, tag))
    return MPI_SUCCESS;
  ft_count_send(count, type);
  ft_trace_coll_send(rt, comm, dest, tag, count, type);
  int rc;
  if (coll_family_send(rt, buf, count, type, dest, tag, comm, 0, req, &rc))
    return rc;
  rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
  if (rc == MPI_SUCCESS)
    ft_pending_add_send(rt, *req, comm, dest, tag, count, type, 0);
  return rc;
}

int ft_irecv_internal(void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm, MPI_Request *req) {
  struct ft_runtime *rt = ft_runtime();
  if (rt->driver->irecv) {
    int coll;
    struct ft_comm *c = ft_comm_of_inner(rt, comm, &coll);
    return rt->driver->irecv(rt, buf, count, type, source, tag, c, coll, req);
  }
  int rc;
  if (coll_family_recv(rt, buf, count, type, source, tag, comm, req,
                       MPI_STATUS_IGNORE, &rc))
    return rc;
  rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (rc == MPI_SUCCESS)
    ft_pending_add(rt, *req, comm, 0, source, tag);
  return rc;
}

int ft_recv_internal(struct ft_runtime *rt, void *buf, int count,
                     MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status) {
  if (rt->driver->irecv) { /* traced by the driver */
    MPI_Request req;
    ft_irecv_internal(buf, count, type, source, tag, comm, &req);
    return rt->driver->wait(rt, &req, status);
  }
  int rc;
  MPI_Request req;
  MPI_Status st = {0};
  if (coll_family_recv(rt, buf, count, type, source, tag, comm, NULL, &st, &rc))
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  else if (!rt->recovering_protocol || source == MPI_PROC_NULL)
    rc = PMPI_Recv(buf, count, type, source, tag, comm, &st);
  else if ((rc = PMPI_Irecv(buf, count, type, source, tag, comm, &req)) ==
           MPI_SUCCESS) {
    ft_pending_add(rt, req, comm, 0, source, tag);
    rc = ft_wait_internal(rt, &req, &st);
    ft_control_fate(rt); /* nothing arrives for a rank that failed */
  }
  ft_trace_coll_delivery(rt, comm, source, tag); /* a collective's only */
  if (rc == MPI_SUCCESS)
    coll_delivered(rt, comm, source, tag, buf, count, type, &st);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* ---- Completion calls. Deterministic (wait, waitall) or not (waitany,
 * waitsome, test*), they move no data of their own. Under a recovering
 * protocol the waits are interruptible and the tests look at the control
 * receive now and then. ---- */

/* The code of a call that completed one request: the library's `rc`, or
 * else the error the family found completing it (ft_delivery_completed: a
 * lone lead's payload truncated, pb_combined.c). */
static int one_error(int rc, int family) {
  return rc != MPI_SUCCESS ? rc : family;
}

/* ... and of a call that completed several: MPI_ERR_IN_STATUS when the
 * family found an error (in the request's status). */
static int some_error(int rc, int family) {
  return rc != MPI_SUCCESS || family == MPI_SUCCESS ? rc : MPI_ERR_IN_STATUS;
}

static int wait_call(struct ft_runtime *rt, MPI_Request *request,
                     MPI_Status *status) {
  if (rt->driver->wait)
    return rt->driver->wait(rt, request, status);
  if (!rt->track_deliveries)
    return ft_wait_internal(rt, request, status);
  MPI_Request before = *request;
  MPI_Status st;
  int rc = ft_wait_internal(rt, request, &st);
  rc = one_error(rc, ft_delivery_completed(rt, before, &st));
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

/* What each request of a Waitall goes through once complete: its handle
 * before completion and its status; returns MPI_SUCCESS or an error the
 * library's completion did not report (driver.h, completed). */
typedef int (*completed_fn)(struct ft_runtime *rt, MPI_Request req,
                            MPI_Status *status);

/* The Waitall of the runtime (ft_waitall_internal) on reqs[0..n), then
 * each request that was active handed to `done`, in order: returns the
 * library's error, *found the first error `done` returned (MPI_SUCCESS:
 * none). The one loop of MPI_Waitall (done: a delivery) and of the
 * collectives' waits (done: the family's completed hook). */
static int waitall_each(struct ft_runtime *rt, int n, MPI_Request reqs[],
                        MPI_Status statuses[], completed_fn done, int *found) {
  MPI_Request small[16];
  MPI_Status small_st[16];
  MPI_Request *before = ft_handles_copy(n, reqs, small);
  MPI_Status *st = ft_statuses_for(n, statuses, small_st);
  int rc = ft_waitall_internal(rt, n, reqs, st);
  *found = MPI_SUCCESS;
  for (int i = 0; i < n; i++) {
    int err = before[i] != MPI_REQUEST_NULL ? done(rt, before[i], &st[i])
                                            : MPI_SUCCESS;
    *found = *found != MPI_SUCCESS ? *found : err;
  }
  ft_handles_free(before, small);
  ft_statuses_free(st, statuses, small_st);
  return rc;
}

static int waitall_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                        MPI_Status statuses[]) {
  if (rt->driver->waitall)
    return rt->driver->waitall(rt, n, requests, statuses);
  if (!rt->track_deliveries)
    return ft_waitall_internal(rt, n, requests, statuses);
  int found, rc = waitall_each(rt, n, requests, statuses, ft_delivery_completed,
                               &found);
  return some_error(rc, found); /* in the request's status */
}

/* Waitany under a recovering protocol (interruptible); reports the
 * delivery of the completed request. Returns the library's error for it
 * (a truncated receive: MPI_ERR_TRUNCATE), as MPI_Waitany returns it. */
static int wait_any(struct ft_runtime *rt, int n, MPI_Request requests[],
                    int *index, MPI_Status *status) {
  MPI_Request small[16];
  MPI_Request *before = ft_handles_copy(n, requests, small);
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  *index = ft_wait_any(rt, n, requests, &st);
  if (*index != MPI_UNDEFINED)
    ft_delivery_completed(rt, before[*index], &st);
  ft_handles_free(before, small);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return st.MPI_ERROR;
}

static int waitany_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                        int *index, MPI_Status *status) {
  if (rt->driver->waitany)
    return rt->driver->waitany(rt, n, requests, index, status);
  if (!rt->track_deliveries)
    return PMPI_Waitany(n, requests, index, status);
  return wait_any(rt, n, requests, index, status);
}

/* MPI_Waitsome or MPI_Testsome (`some`) as the library does it, then each
 * completed receive is a delivery: the same calls, so the same simulated
 * time, whether deliveries are tracked (a trace, the daemon model) or not.
 * SMPI's Waitsome is a Waitany then an MPI_Test of each other request (each
 * costing smpi/test): replacing it by a Waitany made traced runs faster
 * than untraced and plain SMPI ones (mg, 16 ranks, gige: 0.0711 s against
 * 0.0821 s). */
static int some_tracked(struct ft_runtime *rt,
                        int (*some)(int, MPI_Request[], int *, int[],
                                    MPI_Status[]),
                        int n, MPI_Request requests[], int *outcount,
                        int indices[], MPI_Status statuses[]) {
  MPI_Request small[16];
  MPI_Status small_st[16];
  MPI_Request *before = ft_handles_copy(n, requests, small);
  MPI_Status *st = ft_statuses_for(n, statuses, small_st);
  int rc = some(n, requests, outcount, indices, st);
  /* Every completion forgotten first: a delivery may find that this rank
   * failed meanwhile (ft_control_fate), and its rollback leave the rest. */
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
    ft_pending_done(rt, before[indices[k]]);
  for (int k = 0; *outcount != MPI_UNDEFINED && k < *outcount; k++)
    rc = some_error(rc, ft_delivery_completed(rt, before[indices[k]], &st[k]));
  ft_handles_free(before, small);
  ft_statuses_free(st, statuses, small_st);
  return rc;
}

/* Under a recovering protocol: one completion per call, which MPI allows
 * (interruptible by the control receive). */
static int waitsome_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                         int *outcount, int indices[], MPI_Status statuses[]) {
  if (rt->driver->waitsome)
    return rt->driver->waitsome(rt, n, requests, outcount, indices, statuses);
  if (!rt->track_deliveries)
    return PMPI_Waitsome(n, requests, outcount, indices, statuses);
  if (!rt->recovering_protocol)
    return some_tracked(rt, PMPI_Waitsome, n, requests, outcount, indices,
                        statuses);
  return ft_waitsome_one(rt, wait_any, n, requests, outcount, indices,
                         statuses);
}

static int test_call(struct ft_runtime *rt, MPI_Request *request, int *flag,
                     MPI_Status *status) {
  poll_sometimes(rt);
  if (rt->driver->test)
    return rt->driver->test(rt, request, flag, status);
  if (!rt->track_deliveries)
    return PMPI_Test(request, flag, status);
  MPI_Request before = *request;
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  int rc = PMPI_Test(request, flag, &st);
  if (*flag) {
    ft_pending_done(rt, before);
    rc = one_error(rc, ft_delivery_completed(rt, before, &st));
  }
  if (*flag && status != MPI_STATUS_IGNORE)
    *status = st;
  return rc;
}

static int testall_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                        int *flag, MPI_Status statuses[]) {
  poll_sometimes(rt);
  if (rt->driver->testall)
    return rt->driver->testall(rt, n, requests, flag, statuses);
  MPI_Request small[16];
  MPI_Status small_st[16], small_some[16];
  MPI_Request *before = ft_handles_copy(n, requests, small);
  MPI_Status *st = ft_statuses_for(n, statuses, small_st);
  MPI_Status *some = ft_statuses_for(n, MPI_STATUSES_IGNORE, small_some);
  int idx_small[16],
      *idx = n <= 16 ? idx_small : malloc((size_t)n * sizeof *idx);
  if (!idx)
    ft_fatal("out of memory in MPI_Testall on %d requests", n);
  /* SMPI's MPI_Testall completes (and nulls) the requests that are done
   * even when not all are, and loses their statuses: MPI_Testsome
   * completes the same and keeps them (p2p.c's MPI_Testall holds a
   * persistent request's). Each is a delivery. */
  int out = 0, rc = PMPI_Testsome(n, requests, &out, idx, some);
  for (int k = 0; out != MPI_UNDEFINED && k < out; k++) {
    st[idx[k]] = some[k];
    if (rt->track_deliveries) /* all first, as some_tracked */
      ft_pending_done(rt, before[idx[k]]);
  }
  for (int k = 0; rt->track_deliveries && out != MPI_UNDEFINED && k < out; k++)
    rc = some_error(rc, ft_delivery_completed(rt, before[idx[k]], &st[idx[k]]));
  *flag = 1;
  for (int i = 0; i < n; i++)
    *flag &= requests[i] == MPI_REQUEST_NULL;
  if (idx != idx_small)
    free(idx);
  ft_handles_free(before, small);
  ft_statuses_free(some, MPI_STATUSES_IGNORE, small_some);
  ft_statuses_free(st, statuses, small_st);
  return rc;
}

static int testany_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                        int *index, int *flag, MPI_Status *status) {
  poll_sometimes(rt);
  if (rt->driver->testany)
    return rt->driver->testany(rt, n, requests, index, flag, status);
  if (!rt->track_deliveries)
    return PMPI_Testany(n, requests, index, flag, status);
  MPI_Request small[16];
  MPI_Request *before = ft_handles_copy(n, requests, small);
  MPI_Status st;
  int rc = PMPI_Testany(n, requests, index, flag, &st);
  if (*flag && *index != MPI_UNDEFINED) {
    ft_pending_done(rt, before[*index]);
    rc = one_error(rc, ft_delivery_completed(rt, before[*index], &st));
    if (status != MPI_STATUS_IGNORE)
      *status = st;
  }
  ft_handles_free(before, small);
  return rc;
}

static int testsome_call(struct ft_runtime *rt, int n, MPI_Request requests[],
                         int *outcount, int indices[], MPI_Status statuses[]) {
  poll_sometimes(rt);
  if (rt->driver->testsome)
    return rt->driver->testsome(rt, n, requests, outcount, indices, statuses);
  if (!rt->track_deliveries)
    return PMPI_Testsome(n, requests, outcount, indices, statuses);
  return some_tracked(rt, PMPI_Testsome, n, requests, outcount, indices,
                      statuses);
}

/* A request the application lets go (MPI-3.1, 3.7.3: an operation in
 * flight completes on its own). A send: the runtime cannot wait for it any
 * more either (a rollback before it completes leaves it to SMPI; under
 * message logging its sender-based copy stays in the log). A receive: under
 * a protocol that recovers, nobody would tell the core of its delivery
 * (the channel state, message logging's counts): refused, by name. */
int MPI_Request_free(MPI_Request *request) {
  MPI_Request active;
  if (ft_persist_free(request, &active) != -1) {
    if (active != MPI_REQUEST_NULL) /* its operation in flight, as below */
      MPI_Request_free(&active);
    return MPI_SUCCESS;
  }
  struct ft_runtime *rt = ft_runtime();
  if (*request == MPI_REQUEST_NULL)
    return ft_err_raise(rt, "MPI_Request_free", MPI_COMM_WORLD, MPI_ERR_REQUEST,
                        "MPI_REQUEST_NULL");
  ft_record_request_free(rt, request);
  if (rt->driver->request_free)
    return rt->driver->request_free(rt, request);
  if (rt->recovering_protocol && ft_delivery_is_posted(rt, *request))
    ft_fatal("MPI_Request_free of an active receive is not supported under "
             "protocol %s: its delivery would never reach the protocol; wait "
             "for the receive, or cancel it first (MPI_Cancel)",
             rt->protocol->name);
  if (rt->driver->request_freed)
    rt->driver->request_freed(rt, *request);
  ft_pending_done(rt, *request);
  return PMPI_Request_free(request);
}

/* SMPI 3.32's MPI_Waitany, which the interruptible waits use (control.c),
 * never completes a cancelled request (cover_check under coordinated
 * checkpoints hung in MPI_Wait). So the runtime completes the receive at once
 * with MPI_Wait, which does (cancelled, or received if the message had matched
 * it: then a delivery, told to the protocol), its status in *st. */
static int cancel_receive(struct ft_runtime *rt, MPI_Request *request,
                          MPI_Status *st) {
  MPI_Request before = *request;
  int rc = PMPI_Cancel(request);
  if (rc != MPI_SUCCESS)
    return ft_err_result(rt, "MPI_Cancel", MPI_COMM_WORLD, rc);
  int cancelled = 0;
  FT_PMPI(Wait, request, st);
  FT_PMPI(Test_cancelled, st, &cancelled);
  ft_pending_done(rt, before);
  if (cancelled)
    ft_delivery_cancelled(rt, before);
  else
    ft_delivery_completed(rt, before, st);
  return MPI_SUCCESS;
}

/* Cancels the ordinary operation *request (the application's, or the one
 * in flight of a persistent request: then `persistent` is its handle).
 * Under a recovering protocol a receive completes at once
 * (cancel_receive): a persistent request holds the status for its next
 * wait or test; an ordinary one's handle becomes one that reports it
 * (persist.c). */
static int cancel_operation(struct ft_runtime *rt, MPI_Request *request,
                            MPI_Request persistent) {
  if (rt->driver->cancel)
    return rt->driver->cancel(rt, request);
  if (!rt->recovering_protocol)
    return ft_err_result(rt, "MPI_Cancel", MPI_COMM_WORLD,
                         PMPI_Cancel(request));
  if (!ft_delivery_is_posted(rt, *request))
    ft_fatal("MPI_Cancel of a send is not supported under protocol %s: the "
             "protocol has counted the message as sent",
             rt->protocol->name);
  MPI_Status st;
  int rc = cancel_receive(rt, request, &st);
  if (rc != MPI_SUCCESS)
    return rc;
  if (persistent != MPI_REQUEST_NULL)
    ft_persist_hold(persistent, &st);
  else
    ft_persist_completed(request, &st, MPI_SUCCESS);
  return MPI_SUCCESS;
}

/* A cancelled receive completes with MPI_Test_cancelled true and delivers
 * nothing. Cancelling a send is refused under a
 * protocol that recovers: the core has counted it as sent (the channel
 * state's counts), and whether the cancel succeeds depends on timing that a
 * rollback cannot reproduce. Under message logging a receive is refused
 * too: whether its cancel succeeds depends on when the message comes, and
 * a restarted rank's replay (messages resent at once) would decide
 * differently. A persistent request's operation is cancelled through a
 * copy of its handle: ft_persist_completed may move the table of records
 * (a pointer into it, used before, was left dangling: persist_check
 * cancel). */
int MPI_Cancel(MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request active;
  if (ft_persist_cancel(*request, &active) != -1) { /* its operation, if any */
    if (active == MPI_REQUEST_NULL)
      return MPI_SUCCESS;
    ft_record_cancel(rt, &active);
    return cancel_operation(rt, &active, *request);
  }
  ft_record_cancel(rt, request);
  if (*request == MPI_REQUEST_NULL)
    return ft_err_raise(rt, "MPI_Cancel", MPI_COMM_WORLD, MPI_ERR_REQUEST,
                        "MPI_REQUEST_NULL");
  return cancel_operation(rt, request, MPI_REQUEST_NULL);
}

/* The operation of a persistent request (its record: persist.c), posted
 * by MPI_Start as the runtime's nonblocking operation, as MPI_Isend,
 * MPI_Issend, MPI_Irsend or MPI_Irecv would post it. */
static int post_persistent(struct ft_runtime *rt, const struct ft_persistent *p,
                           MPI_Request *req) {
  switch (p->kind) {
  case FT_PERSIST_SEND:
    return isend_call(rt, p->buf, p->count, p->type, p->peer, p->tag, p->comm,
                      req);
  case FT_PERSIST_SSEND:
    return issend_call(rt, p->buf, p->count, p->type, p->peer, p->tag, p->comm,
                       req);
  case FT_PERSIST_RSEND:
    return irsend_call(rt, p->buf, p->count, p->type, p->peer, p->tag, p->comm,
                       req);
  case FT_PERSIST_RECV:
    break;
  }
  return irecv_call(rt, p->buf, p->count, p->type, p->peer, p->tag, p->comm,
                    req);
}

/* MPI_Start: posts the operation of the inactive persistent request
 * *request (post_persistent); MPI_ERR_REQUEST (errors.c) if it is not one
 * or is active. */
static int start(struct ft_runtime *rt, MPI_Request *request) {
  struct ft_persistent *p = ft_persist_find(*request);
  if (!p || p->oneshot)
    return ft_err_raise(rt, "MPI_Start", MPI_COMM_WORLD, MPI_ERR_REQUEST,
                        "not a persistent request");
  if (p->active != MPI_REQUEST_NULL || p->held)
    return ft_err_raise(rt, "MPI_Start", p->comm, MPI_ERR_REQUEST,
                        "the request is active already");
  /* With MPI_PROC_NULL the operation completes at once (MPI-3.1, 3.11):
   * it stays inactive, and never reaches the library (proc_null_op). */
  if (p->peer == MPI_PROC_NULL)
    return MPI_SUCCESS;
  MPI_Request inner = MPI_REQUEST_NULL;
  ft_record_p2p(rt, p->kind == FT_PERSIST_RECV ? FT_RT_IRECV : FT_RT_ISEND,
                p->kind == FT_PERSIST_SSEND, p->count, p->type, p->peer, p->tag,
                p->comm);
  MPI_Comm comm = p->comm;
  int rc = ft_record_posted(rt, post_persistent(rt, p, &inner), &inner);
  MPI_Status st;
  if (rc == MPI_SUCCESS && ft_persist_held(inner, &st, 1)) {
    /* completed without the library (a suppressed send): the persistent
     * request holds that completion; `p` may have moved meanwhile */
    MPI_Request none;
    (void)ft_persist_free(&inner, &none);
    ft_persist_hold(*request, &st);
    return MPI_SUCCESS;
  }
  p = ft_persist_find(*request);
  p->active = rc == MPI_SUCCESS ? inner : MPI_REQUEST_NULL;
  ft_delivery_owned(rt, p->active, *request); /* a receive's handle is the
                                                 runtime's */
  return ft_err_result(rt, "MPI_Start", comm, rc);
}

int MPI_Start(MPI_Request *request) { return start(ft_runtime(), request); }

int MPI_Startall(int count, MPI_Request requests[]) {
  struct ft_runtime *rt = ft_runtime();
  for (int i = 0; i < count; i++) {
    int rc = start(rt, &requests[i]);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

/* ---- The application's point-to-point calls: arguments checked before
 * the runtime transforms the call, a failure through the communicator's
 * error handler (errors.c). ---- */

static int send_checked(struct ft_runtime *rt, const char *call, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return ft_err_p2p(rt, call, comm, count, type, dest, tag, FT_ERR_DEST);
}

static int recv_checked(struct ft_runtime *rt, const char *call, int count,
                        MPI_Datatype type, int source, int tag, MPI_Comm comm) {
  return ft_err_p2p(rt, call, comm, count, type, source, tag, FT_ERR_SOURCE);
}

/* The code of a call that received into *st: the library's error for the
 * receive (a truncation) may be in the status only
 * (ft_backend_status_error); st goes to the application's status. */
static int received(int rc, const MPI_Status *st, MPI_Status *status) {
  if (status != MPI_STATUS_IGNORE)
    *status = *st;
  return rc != MPI_SUCCESS ? rc : ft_backend_status_error(st);
}

/* A nonblocking call that failed leaves no request. */
static int no_request(int rc, MPI_Request *request) {
  if (rc != MPI_SUCCESS)
    *request = MPI_REQUEST_NULL;
  return rc;
}

typedef int (*send_fn)(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm);
typedef int (*isend_fn)(struct ft_runtime *rt, const void *buf, int count,
                        MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request);

/* The application's blocking send `call`: checked, carried out by `fn`, a
 * failure through the communicator's error handler. */
static int checked_send(struct ft_runtime *rt, const char *call, send_fn fn,
                        const void *buf, int count, MPI_Datatype type, int dest,
                        int tag, MPI_Comm comm) {
  int rc = send_checked(rt, call, count, type, dest, tag, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_record_p2p(rt, FT_RT_SEND, fn == ssend_call, count, type, dest, tag, comm);
  return ft_record_exit(
      rt,
      ft_err_result(rt, call, comm, fn(rt, buf, count, type, dest, tag, comm)));
}

/* The same for a nonblocking send; a failed one leaves no request. */
static int checked_isend(struct ft_runtime *rt, const char *call, isend_fn fn,
                         const void *buf, int count, MPI_Datatype type,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request *request) {
  int rc = send_checked(rt, call, count, type, dest, tag, comm);
  if (rc == MPI_SUCCESS && proc_null_op(dest, request))
    return MPI_SUCCESS;
  if (rc == MPI_SUCCESS)
    ft_record_p2p(rt, FT_RT_ISEND, fn == issend_call, count, type, dest, tag,
                  comm);
  if (rc == MPI_SUCCESS)
    rc = ft_err_result(rt, call, comm,
                       fn(rt, buf, count, type, dest, tag, comm, request));
  return ft_record_posted(rt, no_request(rc, request), request);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  return checked_send(rt, "MPI_Send", send_call, buf, count, type, dest, tag,
                      comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  return checked_send(rt, "MPI_Ssend", ssend_call, buf, count, type, dest, tag,
                      comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  struct ft_runtime *rt = ft_runtime();
  return checked_send(rt, "MPI_Rsend", rsend_call, buf, count, type, dest, tag,
                      comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  return checked_isend(rt, "MPI_Isend", isend_call, buf, count, type, dest, tag,
                       comm, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  return checked_isend(rt, "MPI_Issend", issend_call, buf, count, type, dest,
                       tag, comm, request);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  return checked_isend(rt, "MPI_Irsend", irsend_call, buf, count, type, dest,
                       tag, comm, request);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  int rc = recv_checked(rt, "MPI_Recv", count, type, source, tag, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_record_p2p(rt, FT_RT_RECV, 0, count, type, source, tag, comm);
  status = ft_record_status(rt, status);
  return ft_record_received(
      rt,
      ft_err_result(rt, "MPI_Recv", comm,
                    recv_call(rt, buf, count, type, source, tag, comm, status)),
      status);
}

/* A wildcard MPI_Irecv of the application whose match the family must
 * learn before a later receive is delivered (driver.h, resolves_wildcards:
 * piggyback=separate): its handle becomes the runtime's (ft_persist_own),
 * so that delivery.c may complete the receive first and hold its
 * completion for the application's call. Nothing else, and no call, under
 * any other family or form. */
static void own_wildcard(struct ft_runtime *rt, int source, int tag,
                         MPI_Request *request) {
  if ((source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) &&
      rt->driver->resolves_wildcards && rt->driver->resolves_wildcards(rt) &&
      ft_delivery_is_posted(rt, *request)) {
    MPI_Request inner = *request;
    ft_persist_own(request);
    ft_delivery_owned(rt, inner, *request);
  }
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *request) {
  struct ft_runtime *rt = ft_runtime();
  int rc = recv_checked(rt, "MPI_Irecv", count, type, source, tag, comm);
  if (rc == MPI_SUCCESS && proc_null_op(source, request))
    return MPI_SUCCESS;
  if (rc == MPI_SUCCESS)
    ft_record_p2p(rt, FT_RT_IRECV, 0, count, type, source, tag, comm);
  if (rc == MPI_SUCCESS)
    rc = ft_err_result(
        rt, "MPI_Irecv", comm,
        irecv_call(rt, buf, count, type, source, tag, comm, request));
  if (rc == MPI_SUCCESS)
    own_wildcard(rt, source, tag, request);
  return ft_record_posted(rt, no_request(rc, request), request);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  int rc = send_checked(rt, "MPI_Sendrecv", scount, stype, dest, stag, comm);
  if (rc == MPI_SUCCESS)
    rc = recv_checked(rt, "MPI_Sendrecv", rcount, rtype, source, rtag, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  ft_record_enter(rt);
  rc = sendrecv_call(rt, sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                     source, rtag, comm, &st);
  return ft_record_sendrecv(
      rt, ft_err_result(rt, "MPI_Sendrecv", comm, received(rc, &st, status)),
      scount, stype, dest, stag, rcount, rtype, source, rtag, comm, &st);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  const char *call = "MPI_Sendrecv_replace";
  int rc = send_checked(rt, call, count, type, dest, stag, comm);
  if (rc == MPI_SUCCESS)
    rc = recv_checked(rt, call, count, type, source, rtag, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  ft_record_enter(rt);
  rc = sendrecv_replace_call(rt, buf, count, type, dest, stag, source, rtag,
                             comm, &st);
  return ft_record_sendrecv(
      rt, ft_err_result(rt, call, comm, received(rc, &st, status)), count, type,
      dest, stag, count, type, source, rtag, comm, &st);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_peer(rt, "MPI_Probe", comm, source, tag, FT_ERR_SOURCE);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_record_enter(rt);
  status = ft_record_status(rt, status);
  return ft_record_probe(
      rt,
      ft_err_result(rt, "MPI_Probe", comm,
                    probe_call(rt, source, tag, comm, status)),
      source, tag, comm, NULL, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_peer(rt, "MPI_Iprobe", comm, source, tag, FT_ERR_SOURCE);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_record_enter(rt);
  status = ft_record_status(rt, status);
  return ft_record_probe(
      rt,
      ft_err_result(rt, "MPI_Iprobe", comm,
                    iprobe_call(rt, source, tag, comm, flag, status)),
      source, tag, comm, flag, status);
}

/* ---- The application's completion calls: a request does not tell the
 * runtime its communicator, so the library's error for it (a truncated
 * receive) goes through MPI_COMM_WORLD's handler (errors.c). ---- */

/* MPI-3.1, 3.7.3: a wait or test on MPI_REQUEST_NULL or an inactive
 * persistent request gives an "empty" status (MPI_ANY_SOURCE, MPI_ANY_TAG,
 * MPI_SUCCESS, no element), which SMPI's leave as they were. */
static void empty_status(MPI_Status *status) {
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  FT_PMPI(Status_set_elements, status, MPI_BYTE, 0);
  FT_PMPI(Status_set_cancelled, status, 0);
}

/* MPI_Waitall's result when the library completed every request it had
 * and the runtime held some completed with an error (bad[i]: requests[i]'s
 * error, a truncated receive it completed first; err the first of them):
 * MPI_ERR_IN_STATUS, each status saying its request's error, MPI_SUCCESS
 * for the others (MPI-3.1, 3.7.5); err itself when the statuses are
 * ignored. */
static int held_in_status(int n, MPI_Status statuses[], const int bad[],
                          int err) {
  if (statuses == MPI_STATUSES_IGNORE)
    return err;
  for (int i = 0; i < n; i++)
    statuses[i].MPI_ERROR = bad[i];
  return MPI_ERR_IN_STATUS;
}

/* Reports the held completion of requests[i], if any, to *st (as
 * ft_persist_held does, an empty status when none is held) and returns its
 * error (ft_persist_held_err): MPI_SUCCESS but for a receive the runtime
 * completed first into a buffer too small. */
static int report_held(MPI_Request requests[], int i, MPI_Status *st) {
  int err = ft_persist_held_err(requests[i]);
  if (!ft_persist_held(requests[i], st, 1))
    empty_status(st);
  return err;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(1, request, small);
  if (*r == MPI_REQUEST_NULL) {
    int err = report_held(request, 0, status);
    ft_persist_out(1, request, r, small);
    return ft_err_result(rt, "MPI_Wait", MPI_COMM_WORLD, err);
  }
  ft_record_before(rt, 1, r);
  status = ft_record_status(rt, status);
  int rc = wait_call(rt, r, status);
  ft_record_completed(rt, rc, FT_RT_WAIT, 1, r, status, NULL, 0);
  ft_persist_out(1, request, r, small);
  return ft_err_result(rt, "MPI_Wait", MPI_COMM_WORLD, rc);
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  int held_err = MPI_SUCCESS, *bad = NULL; /* rare: allocated when seen */
  for (int i = 0; i < n; i++)
    if (r[i] == MPI_REQUEST_NULL) {
      int err = report_held(requests, i,
                            statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                                                            : &statuses[i]);
      if (err != MPI_SUCCESS && !bad) {
        if (!(bad = calloc((size_t)n, sizeof *bad)))
          ft_fatal("rank %d: out of memory in MPI_Waitall", rt->world_rank);
        held_err = err;
      }
      if (bad)
        bad[i] = err;
    }
  ft_record_before(rt, n, r);
  MPI_Status *user = statuses;
  statuses = ft_record_statuses(rt, n, statuses);
  int rc = waitall_call(rt, n, r, statuses);
  if (bad && rc == MPI_SUCCESS)
    rc = held_in_status(n, user, bad, held_err);
  free(bad);
  ft_record_completed(rt, rc, FT_RT_WAITALL, n, r, statuses, NULL, 0);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Waitall", MPI_COMM_WORLD, rc);
}

/* The first of requests[0..n) whose completion the runtime holds
 * (persist.c: an operation with MPI_PROC_NULL, a cancelled receive, one
 * SMPI's MPI_Testall completed): its index, the completion reported (its
 * status to *status unless MPI_STATUS_IGNORE); -1 if none. The library's
 * MPI_Waitany and kin see such a request as MPI_REQUEST_NULL (persist.c's
 * copy) and would skip it, or wait for ever when it is the only one. */
static int held_one(int n, MPI_Request requests[], MPI_Status *status,
                    int *err) {
  *err = MPI_SUCCESS;
  for (int i = 0; i < n; i++)
    if (ft_persist_held(requests[i], MPI_STATUS_IGNORE, 0)) {
      *err = report_held(requests, i, status);
      return i;
    }
  return -1;
}

/* held_one, and the driver told of the completion it found (driver.h,
 * held_completion). */
static int held_told(struct ft_runtime *rt, int n, MPI_Request requests[],
                     MPI_Status *status, int *err) {
  int i = held_one(n, requests, status, err);
  if (i >= 0 && rt->driver->held_completion)
    rt->driver->held_completion(rt, i);
  return i;
}

/* held_told for the calls that report several: indices[0], statuses[0];
 * *rc MPI_ERR_IN_STATUS when that completion held an error (the status
 * says it), the error itself when the statuses are ignored. */
static int held_some(struct ft_runtime *rt, int n, MPI_Request requests[],
                     int *outcount, int indices[], MPI_Status statuses[],
                     int *rc) {
  int err, i = held_told(rt, n, requests,
                         statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                                                         : &statuses[0],
                         &err);
  if (i < 0)
    return 0;
  *outcount = 1;
  indices[0] = i;
  if (err != MPI_SUCCESS)
    *rc = statuses == MPI_STATUSES_IGNORE ? err : MPI_ERR_IN_STATUS;
  return 1;
}

int MPI_Waitany(int n, MPI_Request requests[], int *index, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  ft_record_before(rt, n, r);
  status = ft_record_status(rt, status);
  int rc = MPI_SUCCESS;
  *index = held_told(rt, n, requests, status, &rc);
  if (*index < 0)
    rc = waitany_call(rt, n, r, index, status);
  ft_record_completed(rt, rc, FT_RT_WAITANY, n, r, status, index,
                      *index == MPI_UNDEFINED ? 0 : 1);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Waitany", MPI_COMM_WORLD, rc);
}

int MPI_Waitsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  ft_record_before(rt, n, r);
  statuses = ft_record_statuses(rt, n, statuses);
  int rc = MPI_SUCCESS;
  if (!held_some(rt, n, requests, outcount, indices, statuses, &rc))
    rc = waitsome_call(rt, n, r, outcount, indices, statuses);
  ft_record_completed(rt, rc, FT_RT_WAITSOME, n, r, statuses, indices,
                      *outcount == MPI_UNDEFINED ? 0 : *outcount);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Waitsome", MPI_COMM_WORLD, rc);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(1, request, small);
  if (*r == MPI_REQUEST_NULL) {
    *flag = 1;
    int err = report_held(request, 0, status);
    ft_persist_out(1, request, r, small);
    return ft_err_result(rt, "MPI_Test", MPI_COMM_WORLD, err);
  }
  ft_record_before(rt, 1, r);
  status = ft_record_status(rt, status);
  int rc = test_call(rt, r, flag, status);
  ft_record_completed(rt, rc, FT_RT_TEST, 1, r, status, NULL, 0);
  ft_persist_out(1, request, r, small);
  return ft_err_result(rt, "MPI_Test", MPI_COMM_WORLD, rc);
}

/* MPI_Testall's result once it completed every request, the library
 * reporting no error, before the held completions are released: as
 * held_in_status, from the errors ft_persist_held_err gives for the
 * requests held before the call (before[i] == MPI_REQUEST_NULL; only they
 * are looked up) (st: the statuses, statuses: the application's,
 * MPI_STATUSES_IGNORE or not). */
static int testall_held_errors(int n, MPI_Request requests[],
                               const MPI_Request before[], MPI_Status st[],
                               const MPI_Status *statuses) {
  int first = MPI_SUCCESS;
  for (int i = 0; i < n && first == MPI_SUCCESS; i++)
    if (before[i] == MPI_REQUEST_NULL)
      first = ft_persist_held_err(requests[i]);
  if (first == MPI_SUCCESS)
    return MPI_SUCCESS;
  if (statuses == MPI_STATUSES_IGNORE)
    return first;
  for (int i = 0; i < n; i++)
    st[i].MPI_ERROR = before[i] == MPI_REQUEST_NULL
                          ? ft_persist_held_err(requests[i])
                          : MPI_SUCCESS;
  return MPI_ERR_IN_STATUS;
}

/* SMPI 3.32's MPI_Testall completes (and nulls) the requests that are done
 * even when not all are, their statuses lost, where MPI says "none of the
 * statuses is modified" (MPI-3.1, 3.7.5). A persistent request's completion
 * is held (persist.c) and reported by the call that completes them all; an
 * ordinary request's handle is nulled, as plain SMPI does. */
int MPI_Testall(int n, MPI_Request requests[], int *flag,
                MPI_Status statuses[]) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  ft_record_before(rt, n, r);
  statuses = ft_record_statuses(rt, n, statuses);
  if (r == requests)
    return ft_record_completed(
        rt,
        ft_err_result(rt, "MPI_Testall", MPI_COMM_WORLD,
                      testall_call(rt, n, requests, flag, statuses)),
        FT_RT_TESTALL, n, r, statuses, NULL, 0);
  MPI_Request small_before[16];
  MPI_Status small_st[16];
  MPI_Request *before = ft_handles_copy(n, r, small_before);
  MPI_Status *st = ft_statuses_for(n, statuses, small_st);
  for (int i = 0; i < n; i++)
    if (r[i] == MPI_REQUEST_NULL && !ft_persist_held(requests[i], &st[i], 0))
      empty_status(&st[i]);
  int rc = testall_call(rt, n, r, flag, st);
  if (*flag && rc == MPI_SUCCESS)
    rc = testall_held_errors(n, requests, before, st, statuses);
  ft_record_completed(rt, rc, FT_RT_TESTALL, n, r, st, NULL, 0);
  for (int i = 0; *flag && i < n; i++)
    ft_persist_held(requests[i], MPI_STATUS_IGNORE, 1); /* reported */
  for (int i = 0; !*flag && i < n; i++)
    if (before[i] != MPI_REQUEST_NULL && r[i] == MPI_REQUEST_NULL)
      ft_persist_hold(requests[i], &st[i]);
  ft_handles_free(before, small_before);
  ft_statuses_free(st, statuses, small_st);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Testall", MPI_COMM_WORLD, rc);
}

int MPI_Testany(int n, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  ft_record_before(rt, n, r);
  status = ft_record_status(rt, status);
  int rc = MPI_SUCCESS;
  *index = held_told(rt, n, requests, status, &rc);
  *flag = *index >= 0;
  if (*index < 0)
    rc = testany_call(rt, n, r, index, flag, status);
  ft_record_completed(rt, rc, FT_RT_TESTANY, n, r, status, index,
                      *flag && *index != MPI_UNDEFINED);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Testany", MPI_COMM_WORLD, rc);
}

int MPI_Testsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  struct ft_runtime *rt = ft_runtime();
  MPI_Request small[16], *r = ft_persist_in(n, requests, small);
  ft_record_before(rt, n, r);
  statuses = ft_record_statuses(rt, n, statuses);
  int rc = MPI_SUCCESS;
  if (!held_some(rt, n, requests, outcount, indices, statuses, &rc))
    rc = testsome_call(rt, n, r, outcount, indices, statuses);
  ft_record_completed(rt, rc, FT_RT_TESTSOME, n, r, statuses, indices,
                      *outcount == MPI_UNDEFINED ? 0 : *outcount);
  ft_persist_out(n, requests, r, small);
  return ft_err_result(rt, "MPI_Testsome", MPI_COMM_WORLD, rc);
}

int ft_coll_waitall(struct ft_runtime *rt, int n, MPI_Request reqs[]) {
  if (!rt->driver->completed)
    return ft_waitall_internal(rt, n, reqs, MPI_STATUSES_IGNORE);
  int found, rc = waitall_each(rt, n, reqs, MPI_STATUSES_IGNORE,
                               rt->driver->completed, &found);
  return one_error(rc, found);
}
