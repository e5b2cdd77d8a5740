/* The any-call transport's data channel (anycall.h, "The data channel"):
 * each message's transfer starts when both its send and its receive are
 * posted, as SMPI's (SimGrid 3.32, src/kernel/activity/CommImpl.cpp,
 * isend(): "If it is not found then push our communication into the
 * rendez-vous point"; only a permanent receiver's mailbox, SMPI's "small"
 * one under a non-zero smpi/async-small-thresh, starts it at once).
 *
 * The header's payload (the size) is copied: SMPI copies a detached send's
 * buffer when it is posted (ac->head is reused at once), and the wire's
 * receive buffers are then private (ac->rx_buf), not the shared ones. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "runtime.h"

enum { HEAD_BYTES = sizeof(uint64_t) };

/* The wire's receive buffers: private room for a header when messages are
 * split, else the shared buffer, as before. */
static void rx_buffers(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  if (!ac->split) {
    for (int k = 0; k < FT_AC_RX; k++)
      ac->rx_buf[k] = ac->rbuf;
    ac->rx_bytes = ac->max_bytes;
    return;
  }
  ac->rx_bytes = HEAD_BYTES;
  for (int k = 0; k < FT_AC_RX && !ac->rx_private; k++)
    if (!(ac->rx_buf[k] = malloc(HEAD_BYTES)))
      ft_fatal("rank %d: out of memory for the any-call receives",
               rt->world_rank);
  ac->rx_private = 1;
}

void ft_ac_data_start(struct ft_runtime *rt, int fresh) {
  struct ft_ac *ac = &rt->ac;
  ac->split = ft_backend_transfer_waits_for_receive();
  if (fresh)
    ac->data = ft_comm_named(rt, 0)->coll;
  rx_buffers(rt);
}

/* The data's tag: the envelope (it fits: the wire's tag holds it shifted). */
static int data_tag(const struct ft_ac *ac, int32_t space, int32_t tag) {
  return (int)((int64_t)tag * ac->nspace + space);
}

int ft_ac_data_send(struct ft_runtime *rt, struct ft_ac_req *r) {
  struct ft_ac *ac = &rt->ac;
  int tag = data_tag(ac, r->space, r->tag);
  FT_PMPI(Isend, ac->sbuf, (int)r->bytes, MPI_BYTE, r->peer, tag, ac->data,
          &r->data);
  ft_pending_add(rt, r->data, ac->data, 1, r->peer, tag);
  ac->head = r->bytes;
  return HEAD_BYTES;
}

void ft_ac_data_header(struct ft_runtime *rt, struct ft_ac_msg *m,
                       const unsigned char *buf, int count) {
  if (count != HEAD_BYTES)
    ft_fatal("rank %d: an any-call header of %d bytes from rank %d",
             rt->world_rank, count, m->peer);
  memcpy(&m->bytes, buf, sizeof m->bytes);
  m->data = 1;
}

void ft_ac_data_recv(struct ft_runtime *rt, struct ft_ac_req *r) {
  struct ft_ac *ac = &rt->ac;
  if (!ac->split || r->data_posted)
    return;
  r->data_posted = 1;
  int tag = data_tag(ac, r->space, r->tag);
  FT_PMPI(Irecv, ac->rbuf, (int)r->bytes, MPI_BYTE, r->peer, tag, ac->data,
          &r->data);
  ft_pending_add(rt, r->data, ac->data, 0, r->peer, tag);
}

void ft_ac_data_test_complete(struct ft_runtime *rt) {
  (void)rt;
  MPI_Request req;
  int flag = 0;
  ft_grequest(&req);
  FT_PMPI(Grequest_complete, req);
  FT_PMPI(Test, &req, &flag, MPI_STATUS_IGNORE);
  if (req != MPI_REQUEST_NULL) /* SMPI's are persistent */
    FT_PMPI(Request_free, &req);
}

/* Withdraws a data receive no message will come for (SimGrid removes an
 * unmatched receive from its mailbox). */
static void withdraw(struct ft_runtime *rt, MPI_Request *req) {
  ft_pending_done(rt, *req);
  FT_PMPI(Cancel, req);
  FT_PMPI(Wait, req, MPI_STATUS_IGNORE);
}

void ft_ac_data_cancel(struct ft_runtime *rt, struct ft_ac_req *r) {
  if (r->data != MPI_REQUEST_NULL)
    withdraw(rt, &r->data);
}

/* Receives and drops the data of the messages in l. */
static void drain_list(struct ft_runtime *rt, struct ft_ac_msgs *l) {
  struct ft_ac *ac = &rt->ac;
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].data) {
      MPI_Request req;
      FT_PMPI(Irecv, ac->rbuf, (int)l->v[i].bytes, MPI_BYTE, l->v[i].peer,
              data_tag(ac, l->v[i].space, l->v[i].tag), ac->data, &req);
      FT_PMPI(Wait, &req, MPI_STATUS_IGNORE);
      l->v[i].data = 0;
    }
}

void ft_ac_data_finish(struct ft_runtime *rt) {
  struct ft_ac *ac = &rt->ac;
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (ac->reqs[i].state == FT_AC_POSTED)
      ft_ac_data_cancel(rt, &ac->reqs[i]);
  drain_list(rt, &ac->ready);
  drain_list(rt, &ac->queued);
  drain_list(rt, &ac->held);
  for (size_t i = 0; i < ac->n_reqs; i++)
    if (ac->reqs[i].data != MPI_REQUEST_NULL) {
      ft_pending_done(rt, ac->reqs[i].data);
      FT_PMPI(Wait, &ac->reqs[i].data, MPI_STATUS_IGNORE);
    }
  for (int k = 0; k < FT_AC_RX && ac->rx_private; k++)
    free(ac->rx_buf[k]);
  memset(ac->rx_buf, 0, sizeof ac->rx_buf);
  ac->rx_private = 0;
}
