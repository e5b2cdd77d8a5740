/* Interposed point-to-point calls. Each one tells the protocol core what the
 * application does (ft_protocol_event), counts what is sent, and carries the
 * operation out on the runtime's communicator for the application's one.
 * With protocol `none` that is the whole story; the wait and test families
 * are deterministic or not, but carry no data of their own, so they pass
 * through for now. */
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

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm) {
  app_send(count, type, dest, tag);
  return PMPI_Send(buf, count, type, dest, tag, ft_comm_inner(comm));
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  app_send(count, type, dest, tag);
  return PMPI_Ssend(buf, count, type, dest, tag, ft_comm_inner(comm));
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  app_send(count, type, dest, tag);
  return PMPI_Rsend(buf, count, type, dest, tag, ft_comm_inner(comm));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *request) {
  app_send(count, type, dest, tag);
  return PMPI_Isend(buf, count, type, dest, tag, ft_comm_inner(comm), request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  app_send(count, type, dest, tag);
  return PMPI_Issend(buf, count, type, dest, tag, ft_comm_inner(comm), request);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  app_recv(count, type, source, tag);
  return PMPI_Recv(buf, count, type, source, tag, ft_comm_inner(comm), status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *request) {
  app_recv(count, type, source, tag);
  return PMPI_Irecv(buf, count, type, source, tag, ft_comm_inner(comm),
                    request);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  app_send(scount, stype, dest, stag);
  app_recv(rcount, rtype, source, rtag);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                       source, rtag, ft_comm_inner(comm), status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status) {
  app_send(count, type, dest, stag);
  app_recv(count, type, source, rtag);
  return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                               ft_comm_inner(comm), status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  return PMPI_Probe(source, tag, ft_comm_inner(comm), status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status) {
  return PMPI_Iprobe(source, tag, ft_comm_inner(comm), flag, status);
}

/* ---- Runtime-internal channels (collectives), counted like the
 * application's messages: the protocols see them too. ---- */

int ft_send_internal(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm) {
  ft_count_send(count, type);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int ft_sendrecv_internal(const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                         int source, int tag, MPI_Comm comm) {
  ft_count_send(scount, stype);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, tag, rbuf, rcount, rtype,
                       source, tag, comm, MPI_STATUS_IGNORE);
}

/* ---- Completion calls. Deterministic (wait, waitall) or not (waitany,
 * waitsome, test*), they move no data of their own; with protocol `none`
 * they pass through. Interposed so that every protocol has one place to
 * observe deliveries. ---- */

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  return PMPI_Wait(request, status);
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  return PMPI_Waitall(n, requests, statuses);
}

int MPI_Waitany(int n, MPI_Request requests[], int *index, MPI_Status *status) {
  return PMPI_Waitany(n, requests, index, status);
}

int MPI_Waitsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  return PMPI_Waitsome(n, requests, outcount, indices, statuses);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  return PMPI_Test(request, flag, status);
}

int MPI_Testall(int n, MPI_Request requests[], int *flag,
                MPI_Status statuses[]) {
  return PMPI_Testall(n, requests, flag, statuses);
}

int MPI_Testany(int n, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status) {
  return PMPI_Testany(n, requests, index, flag, status);
}

int MPI_Testsome(int n, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  return PMPI_Testsome(n, requests, outcount, indices, statuses);
}
