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
#include "runtime.h"

static uint64_t payload_bytes(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return count > 0 && size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}

static void count_bytes(uint64_t bytes) {
  struct ft_counters *c = &ft_runtime()->counters;
  c->messages++;
  c->bytes += bytes;
}

void ft_count_send(int count, MPI_Datatype type) {
  count_bytes(payload_bytes(count, type));
}

/* Announces a send of the application to the core and counts it. */
static void app_send(int count, MPI_Datatype type, int dest, int tag) {
  if (dest == MPI_PROC_NULL)
    return;
  uint64_t bytes = payload_bytes(count, type);
  count_bytes(bytes);
  ft_protocol_event(FT_EVENT_APP_SEND, dest, tag, bytes);
}

static void app_recv(int count, MPI_Datatype type, int source, int tag) {
  if (source == MPI_PROC_NULL)
    return;
  ft_protocol_event(FT_EVENT_APP_RECV, source == MPI_ANY_SOURCE ? -1 : source,
                    tag == MPI_ANY_TAG ? -1 : tag, payload_bytes(count, type));
}

/* SMPI's request for MPI_PROC_NULL is never started, and a wait on it
 * together with the control receive would never see it complete: under a
 * recovering protocol such an operation gets MPI_REQUEST_NULL, which every
 * wait and test completes at once (its status says MPI_ANY_SOURCE rather
 * than MPI_PROC_NULL). Returns 1 when it did so. */
static int proc_null_request(int peer, MPI_Request *request) {
  if (peer != MPI_PROC_NULL || !ft_runtime()->recovering_protocol)
    return 0;
  *request = MPI_REQUEST_NULL;
  return 1;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm) {
  app_send(count, type, dest, tag);
  if (!ft_runtime()->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Send(buf, count, type, dest, tag, ft_comm_inner(comm));
  MPI_Request req;
  int rc = PMPI_Isend(buf, count, type, dest, tag, ft_comm_inner(comm), &req);
  return rc != MPI_SUCCESS ? rc : ft_wait_internal(&req, MPI_STATUS_IGNORE);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  app_send(count, type, dest, tag);
  if (!ft_runtime()->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Ssend(buf, count, type, dest, tag, ft_comm_inner(comm));
  MPI_Request req;
  int rc = PMPI_Issend(buf, count, type, dest, tag, ft_comm_inner(comm), &req);
  return rc != MPI_SUCCESS ? rc : ft_wait_internal(&req, MPI_STATUS_IGNORE);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  app_send(count, type, dest, tag);
  if (!ft_runtime()->recovering_protocol || dest == MPI_PROC_NULL)
    return PMPI_Rsend(buf, count, type, dest, tag, ft_comm_inner(comm));
  MPI_Request req;
  int rc = PMPI_Irsend(buf, count, type, dest, tag, ft_comm_inner(comm), &req);
  return rc != MPI_SUCCESS ? rc : ft_wait_internal(&req, MPI_STATUS_IGNORE);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *request) {
  app_send(count, type, dest, tag);
  if (proc_null_request(dest, request))
    return MPI_SUCCESS;
  return PMPI_Isend(buf, count, type, dest, tag, ft_comm_inner(comm), request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  app_send(count, type, dest, tag);
  if (proc_null_request(dest, request))
    return MPI_SUCCESS;
  return PMPI_Issend(buf, count, type, dest, tag, ft_comm_inner(comm), request);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  app_recv(count, type, source, tag);
  return ft_recv_internal(buf, count, type, source, tag, ft_comm_inner(comm),
                          status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *request) {
  app_recv(count, type, source, tag);
  if (proc_null_request(source, request))
    return MPI_SUCCESS;
  return PMPI_Irecv(buf, count, type, source, tag, ft_comm_inner(comm),
                    request);
}

/* MPI_Sendrecv on the runtime's communicator, interruptible when needed. */
static int sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                    int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                    int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  if (!ft_runtime()->recovering_protocol)
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                         source, rtag, comm, status);
  MPI_Request reqs[2];
  MPI_Status st[2];
  PMPI_Irecv(rbuf, rcount, rtype, source, rtag, comm, &reqs[0]);
  PMPI_Isend(sbuf, scount, stype, dest, stag, comm, &reqs[1]);
  ft_waitall_internal(2, reqs, st);
  if (status != MPI_STATUS_IGNORE)
    *status = st[0];
  return MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  app_send(scount, stype, dest, stag);
  app_recv(rcount, rtype, source, rtag);
  return sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source,
                  rtag, ft_comm_inner(comm), status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status) {
  app_send(count, type, dest, stag);
  app_recv(count, type, source, rtag);
  return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                               ft_comm_inner(comm), status);
}

/* Calls of the test family and of MPI_Iprobe between two looks at the
 * control receive: rare enough to add little simulated time (each MPI_Test
 * costs SMPI's smpi/test), often enough for loops that only poll. */
enum { FT_TEST_POLL = 16 };

/* Under a recovering protocol, looks at the control receive every
 * FT_TEST_POLL calls. */
static void poll_sometimes(void) {
  static unsigned calls; /* per rank: SMPI privatizes globals */
  if (ft_runtime()->recovering_protocol && ++calls % FT_TEST_POLL == 0)
    ft_poll_control();
}

/* SMPI's own MPI_Probe is a loop of MPI_Iprobe; this one also looks at the
 * control receive, so a rollback reaches a rank probing for a message that
 * will never come. */
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  if (!ft_runtime()->recovering_protocol)
    return PMPI_Probe(source, tag, ft_comm_inner(comm), status);
  int flag = 0;
  while (!flag) {
    PMPI_Iprobe(source, tag, ft_comm_inner(comm), &flag, status);
    if (!flag)
      poll_sometimes();
  }
  return MPI_SUCCESS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status) {
  poll_sometimes();
  return PMPI_Iprobe(source, tag, ft_comm_inner(comm), flag, status);
}

/* ---- Runtime-internal channels (collectives), counted like the
 * application's messages: the protocols see them too. ---- */

int ft_send_internal(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm) {
  ft_count_send(count, type);
  if (!ft_runtime()->recovering_protocol)
    return PMPI_Send(buf, count, type, dest, tag, comm);
  MPI_Request req;
  PMPI_Isend(buf, count, type, dest, tag, comm, &req);
  return ft_wait_internal(&req, MPI_STATUS_IGNORE);
}

int ft_sendrecv_internal(const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                         int source, int tag, MPI_Comm comm) {
  ft_count_send(scount, stype);
  return sendrecv(sbuf, scount, stype, dest, tag, rbuf, rcount, rtype, source,
                  tag, comm, MPI_STATUS_IGNORE);
}

/* ---- Completion calls. Deterministic (wait, waitall) or not (waitany,
 * waitsome, test*), they move no data of their own. Under a recovering
 * protocol the waits are interruptible and the tests look at the control
 * receive now and then. ---- */

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  return ft_wait_internal(request, status);
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  return ft_waitall_internal(n, requests, statuses);
}

int MPI_Waitany(int n, MPI_Request requests[], int *index, MPI_Status *status) {
  if (!ft_runtime()->recovering_protocol)
    return PMPI_Waitany(n, requests, index, status);
  *index = ft_wait_any(n, requests, status);
  return MPI_SUCCESS;
}

/* Under a recovering protocol: one completion per call, which MPI allows. */
int MPI_Waitsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  if (!ft_runtime()->recovering_protocol)
    return PMPI_Waitsome(n, requests, outcount, indices, statuses);
  MPI_Status st;
  int index = ft_wait_any(n, requests, &st);
  *outcount = index == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
  if (index != MPI_UNDEFINED) {
    indices[0] = index;
    if (statuses != MPI_STATUSES_IGNORE)
      statuses[0] = st;
  }
  return MPI_SUCCESS;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  poll_sometimes();
  return PMPI_Test(request, flag, status);
}

int MPI_Testall(int n, MPI_Request requests[], int *flag,
                MPI_Status statuses[]) {
  poll_sometimes();
  return PMPI_Testall(n, requests, flag, statuses);
}

int MPI_Testany(int n, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status) {
  poll_sometimes();
  return PMPI_Testany(n, requests, index, flag, status);
}

int MPI_Testsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  poll_sometimes();
  return PMPI_Testsome(n, requests, outcount, indices, statuses);
}
