/* The combined piggyback (option piggyback=combined|auto): c3-collectives,
 * section 6: "There are two natural ways to send the protocol data: either
 * via a separate collective operation that precedes the data operation, or
 * by 'piggy-backing' the control data onto the message data and sending
 * both with one operation. [...] For the combined case, it includes the
 * time to copy the message data and the control data to a contiguous
 * region, the time for the single communication, and the time to separate
 * the message and protocol data on receipt." And: "the optimal strategy
 * would be a protocol that switched from a combined message to separate
 * messages as the size of the data message grew" (auto).
 *
 * How both ends agree on the form of a message. The sender alone knows the
 * payload's size: a receive may be posted for a larger buffer, or from
 * MPI_ANY_SOURCE, so the receiver cannot decide by its own size. Nor can
 * the size of what arrives tell: a separate payload has any size, so some
 * size is both a combined message's (piggyback + payload) and a plain
 * payload's. So every message leads with its piggyback, a struct ft_pb_frame
 * whose `form` says what follows: the payload in the same message (combined:
 * one copy on each side, charged at copy_mbps, the memory bandwidth the
 * runtime models for message logging's sender-based copy), or nothing (a
 * lone lead, shorter than any combined message: auto's large messages),
 * their payload then coming as a message of its own on the shadow with tag
 * FT_PB_TAG_BASE + tag right after, received straight into the application's
 * buffer (no copy) from the lead's source. The lead travels on the
 * application's communicator with the application's tag, so MPI matches it
 * as it would have matched the payload (source, tag, wildcards, order); no
 * message is added to the combined form, and the separate one's count is
 * unchanged (two per message). The receive posts a buffer of the family's
 * for the lead (FT_PB_FRAME_BYTES + the receive's packed size: a longer
 * message is truncated as it would have been), unpacks (MPI_Unpack: any
 * datatype) into the application's buffer and sets the status's count to
 * the payload's bytes (MPI_Get_count, MPI_Get_elements as without the
 * protocol); a probe reports the payload's count too. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piggyback.h"

int ft_pb_framed(const struct ft_runtime *rt) {
  return rt->options.piggyback != FT_PIGGYBACK_SEPARATE;
}

/* The sender's choice: combined below the switch (auto), always
 * (combined). */
static int goes_combined(const struct ft_runtime *rt, size_t bytes) {
  return rt->options.piggyback == FT_PIGGYBACK_COMBINED ||
         bytes < (size_t)rt->options.piggyback_switch_bytes;
}

/* A copy between the application's buffer and the family's, in simulated
 * time. */
static void charge_copy(struct ft_runtime *rt, size_t bytes) {
  if (rt->options.copy_mbps > 0 && bytes > 0)
    ft_control_sleep(rt, (double)bytes / (rt->options.copy_mbps * 1e6));
}

/* The packed size of count elements: count x the type's size, as
 * ft_pack_copy (pack.c: SMPI 3.32's MPI_Pack_size goes by the extent, cut
 * to an int, negative for examples/datatypes' types). */
static size_t packed_size(struct ft_runtime *rt, int count, MPI_Datatype type) {
  int size = 0;
  FT_PMPI(Type_size, type, &size);
  uint64_t bytes = (uint64_t)(count > 0 ? count : 0) * (uint64_t)size;
  if (bytes > (uint64_t)(INT_MAX - FT_PB_FRAME_BYTES))
    ft_fatal("rank %d: a message of %llu bytes (%d elements of %d bytes): "
             "more than one message can carry with its c3 piggyback",
             rt->world_rank, (unsigned long long)bytes, count, size);
  return (size_t)bytes;
}

/* Packs (`in` 1: count elements of `type` at buf into `bytes` bytes at
 * packed) or unpacks (0: the other way) by a copy through MPI_COMM_SELF,
 * as the library does a send-receive with oneself. From MPI_BOTTOM (a
 * struct of absolute addresses) by a send and a receive: SMPI 3.32's
 * MPI_Pack, MPI_Unpack and its send-receive with oneself add its
 * MPI_BOTTOM, (void *)-111, to the addresses (examples/datatypes: MPI_Unpack
 * wrote 111 bytes below the panels) and refuse NULL; only its nonblocking
 * calls take MPI_BOTTOM. */
static void copy_packed(int in, void *buf, int count, MPI_Datatype type,
                        void *packed, int bytes) {
  MPI_Request r[2];
  if (buf != MPI_BOTTOM && in)
    FT_PMPI(Sendrecv, buf, count, type, 0, 0, packed, bytes, MPI_BYTE, 0, 0,
            MPI_COMM_SELF, MPI_STATUS_IGNORE);
  else if (buf != MPI_BOTTOM)
    FT_PMPI(Sendrecv, packed, bytes, MPI_BYTE, 0, 0, buf, count, type, 0, 0,
            MPI_COMM_SELF, MPI_STATUS_IGNORE);
  else if (in) {
    FT_PMPI(Irecv, packed, bytes, MPI_BYTE, 0, 0, MPI_COMM_SELF, &r[0]);
    FT_PMPI(Isend, buf, count, type, 0, 0, MPI_COMM_SELF, &r[1]);
  } else {
    FT_PMPI(Irecv, buf, count, type, 0, 0, MPI_COMM_SELF, &r[0]);
    FT_PMPI(Isend, packed, bytes, MPI_BYTE, 0, 0, MPI_COMM_SELF, &r[1]);
  }
  if (buf == MPI_BOTTOM)
    FT_PMPI(Waitall, 2, r, MPI_STATUSES_IGNORE);
}

static void push(struct ft_pb *pb, const struct ft_pb_framed *f) {
  pb->framed = ft_reserve(pb->framed, pb->n_framed + 1, &pb->cap_framed,
                          sizeof *pb->framed, "c3 combined messages");
  pb->framed[pb->n_framed++] = *f;
}

/* Removes the message posted with request `req` into *f; 0: none. */
static int take(struct ft_pb *pb, MPI_Request req, struct ft_pb_framed *f) {
  for (size_t i = pb->n_framed; req != MPI_REQUEST_NULL && i-- > 0;)
    if (pb->framed[i].req == req) {
      *f = pb->framed[i];
      pb->framed[i] = pb->framed[--pb->n_framed];
      return 1;
    }
  return 0;
}

static void *must_alloc(struct ft_runtime *rt, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    ft_fatal("rank %d: out of memory for a c3 message of %zu bytes",
             rt->world_rank, bytes);
  return p;
}

/* The counter of channel (comm, peer, tag) in l[0..*n), made at 0. */
static uint32_t *channel(struct ft_pb_channel **l, size_t *n, size_t *cap,
                         MPI_Comm comm, int peer, int tag) {
  for (size_t i = 0; i < *n; i++)
    if ((*l)[i].comm == comm && (*l)[i].peer == peer && (*l)[i].tag == tag)
      return &(*l)[i].n;
  *l = ft_reserve(*l, *n + 1, cap, sizeof **l, "c3 lone payload channels");
  (*l)[*n] = (struct ft_pb_channel){.comm = comm, .peer = peer, .tag = tag};
  return &(*l)[(*n)++].n;
}

/* Posts a send of the runtime's, known to the settle of a rollback: a
 * synchronous one (MPI_Issend) when `how` says FT_PAYLOAD_SYNC. */
static MPI_Request post_send(struct ft_runtime *rt, const void *buf, int count,
                             MPI_Datatype type, int dest, int tag,
                             MPI_Comm comm, int how) {
  MPI_Request r;
  if (how & FT_PAYLOAD_SYNC)
    FT_PMPI(Issend, buf, count, type, dest, tag, comm, &r);
  else
    FT_PMPI(Isend, buf, count, type, dest, tag, comm, &r);
  ft_pending_add(rt, r, comm, 1, dest, tag);
  return r;
}

/* The combined message: the piggyback, then the payload packed after it,
 * in one buffer the family frees when the send completes. A synchronous
 * send is a synchronous send of that message: it completes once the
 * application's receive matched it (before, MPI_Issend + MPI_Test
 * reported it complete while nobody had posted the receive:
 * combined_check). */
static int send_combined(struct ft_runtime *rt, const void *buf, int count,
                         MPI_Datatype type, int dest, int tag, MPI_Comm wire,
                         int how, MPI_Request *req) {
  size_t bytes = packed_size(rt, count, type);
  unsigned char *data = must_alloc(rt, FT_PB_FRAME_BYTES + bytes);
  struct ft_pb_frame f = {.form = FT_PB_FORM_COMBINED, .pb = rt->pb.outgoing};
  memcpy(data, &f, sizeof f);
  if (bytes > 0)
    copy_packed(1, (void *)(uintptr_t)buf, count, type,
                data + FT_PB_FRAME_BYTES, (int)bytes);
  charge_copy(rt, bytes);
  ft_control_fate(rt); /* the copy took time: a rank that failed sends
                          nothing (pb_app_send's rule) */
  MPI_Request r = post_send(rt, data, FT_PB_FRAME_BYTES + (int)bytes, MPI_BYTE,
                            dest, tag, wire, how);
  if (!req) {
    int rc = ft_wait_internal(rt, &r, MPI_STATUS_IGNORE);
    free(data);
    return rc;
  }
  push(&rt->pb, &(struct ft_pb_framed){.req = r, .send = 1, .data = data});
  *req = r;
  return MPI_SUCCESS;
}

/* The lone lead, then the payload from the application's buffer on the
 * shadow (auto, a large payload). The receiver posts the payload's receive
 * once its receive matched the lead: a synchronous send sends the payload
 * synchronously, so that it completes after that match. */
static int send_lone(struct ft_runtime *rt, const void *buf, int count,
                     MPI_Datatype type, int dest, int tag, MPI_Comm wire,
                     MPI_Comm shadow, int base, int how, MPI_Request *req) {
  if (tag > INT_MAX - base)
    ft_fatal("rank %d: tag %d leaves no room for its payload's (%d + tag)",
             rt->world_rank, tag, base);
  struct ft_pb *pb = &rt->pb;
  uint32_t *sent = channel(&pb->lone_sent, &pb->n_lone_sent, &pb->cap_lone_sent,
                           shadow, dest, base + tag);
  struct ft_pb_frame f = {
      .form = FT_PB_FORM_LONE, .seq = (*sent)++, .pb = pb->outgoing};
  MPI_Request lead =
      post_send(rt, &f, FT_PB_LONE_BYTES, MPI_BYTE, dest, tag, wire, 0);
  ft_pmpi_check(ft_wait_internal(rt, &lead, MPI_STATUS_IGNORE), "MPI_Send");
  ft_control_fate(rt); /* as pb_app_send, before the payload leaves */
  MPI_Request r =
      post_send(rt, buf, count, type, dest, base + tag, shadow, how);
  if (!req)
    return ft_wait_internal(rt, &r, MPI_STATUS_IGNORE);
  *req = r;
  return MPI_SUCCESS;
}

int ft_pb_send_payload(struct ft_runtime *rt, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, struct ft_comm *c,
                       int coll, int how, MPI_Request *req, int *rc) {
  if (!ft_pb_framed(rt) || dest == MPI_PROC_NULL)
    return 0;
  MPI_Comm wire = coll ? c->coll : c->p2p;
  if ((how & FT_PAYLOAD_COPY) ||
      goes_combined(rt, packed_size(rt, count, type)))
    *rc = send_combined(rt, buf, count, type, dest, tag, wire, how, req);
  else
    *rc = send_lone(rt, buf, count, type, dest, tag, wire, c->coll,
                    coll ? FT_PB_COLL_TAG_BASE : FT_PB_TAG_BASE, how, req);
  return 1;
}

/* The status the application sees: `bytes` of payload. */
static void set_bytes(MPI_Status *st, size_t bytes) {
  FT_PMPI(Status_set_elements, st, MPI_BYTE, (int)bytes);
}

/* Receives the next payload of channel (comm, source, tag) into count
 * elements of `type` at buf (interruptible); *got its status. */
static int receive_next(struct ft_runtime *rt, void *buf, int count,
                        MPI_Datatype type, MPI_Comm comm, int source, int tag,
                        MPI_Status *got) {
  MPI_Request r;
  FT_PMPI(Irecv, buf, count, type, source, tag, comm, &r);
  ft_pending_add(rt, r, comm, 0, source, tag);
  return ft_wait_internal(rt, &r, got);
}

/* Takes the next payload of channel `c` (c.n its number) off the wire
 * into a buffer of the family's, for the lead's receive that matched
 * before this one and has not completed yet. */
static void take_ahead(struct ft_runtime *rt, struct ft_pb_channel c) {
  MPI_Status st;
  int flag = 0, bytes = 0;
  for (;;) { /* the payload follows its lead: it is there or on its way */
    FT_PMPI(Iprobe, c.peer, c.tag, c.comm, &flag, &st);
    if (flag)
      break;
    ft_control_fate(rt);
    ft_poll_control(rt);
  }
  FT_PMPI(Get_count, &st, MPI_BYTE, &bytes);
  struct ft_pb_ahead a = {
      .chan = c, .data = must_alloc(rt, (size_t)bytes), .bytes = bytes};
  ft_pmpi_check(
      receive_next(rt, a.data, bytes, MPI_BYTE, c.comm, c.peer, c.tag, &st),
      "MPI_Recv");
  struct ft_pb *pb = &rt->pb;
  pb->ahead = ft_reserve(pb->ahead, pb->n_ahead + 1, &pb->cap_ahead,
                         sizeof *pb->ahead, "c3 lone payloads ahead");
  pb->ahead[pb->n_ahead++] = a;
}

static int same_payload(const struct ft_pb_channel *a,
                        const struct ft_pb_channel *b) {
  return a->comm == b->comm && a->peer == b->peer && a->tag == b->tag &&
         a->n == b->n;
}

/* The payload of channel `c` number c.n, taken ahead (take_ahead), moved
 * into the receive f: 1 and *st set (count; MPI_ERR_TRUNCATE when it is
 * longer than the receive, returned in *rc), 0 if it was not taken
 * ahead. */
static int from_ahead(struct ft_runtime *rt, const struct ft_pb_framed *f,
                      struct ft_pb_channel c, MPI_Status *st, int *rc) {
  struct ft_pb *pb = &rt->pb;
  size_t i = 0;
  while (i < pb->n_ahead && !same_payload(&pb->ahead[i].chan, &c))
    i++;
  if (i == pb->n_ahead)
    return 0;
  struct ft_pb_ahead a = pb->ahead[i];
  pb->ahead[i] = pb->ahead[--pb->n_ahead];
  int size = 0;
  FT_PMPI(Type_size, f->type, &size);
  size_t room = packed_size(rt, f->count, f->type);
  int whole = size > 0 ? a.bytes / size : 0;
  if (whole > f->count)
    whole = f->count;
  if (whole > 0)
    copy_packed(0, f->buf, whole, f->type, a.data, whole * size);
  free(a.data);
  *rc = (size_t)a.bytes > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  set_bytes(st, (size_t)a.bytes > room ? room : (size_t)a.bytes);
  st->MPI_ERROR = *rc;
  return 1;
}

/* The payload of a lone lead (number `seq` of its channel), from its
 * source on the shadow, into the application's buffer; *st gets its count
 * and error, which is returned (MPI_ERR_TRUNCATE: a payload longer than the
 * receive).
 *
 * The payloads of a channel come in the order of their leads, and MPI
 * matches the leads to the receives in that order (MPI-3.1, 3.5: "If a
 * sender sends two messages in succession to the same destination, and
 * both match the same receive, then this operation cannot receive the
 * second message if the first one is still pending"), but the receives may
 * complete in another order (MPI_Wait on the later one first). So a
 * payload is taken by its number: those before it whose leads' receives
 * have not completed yet are taken ahead into buffers of the family's, and
 * a payload taken ahead goes to its receive when that completes. Before,
 * the first payload on the channel went to the first receive to complete:
 * two receives completed in the other order swapped their data
 * (combined_check, piggyback=auto). */
static int receive_lone(struct ft_runtime *rt, const struct ft_pb_framed *f,
                        uint32_t seq, MPI_Status *st) {
  struct ft_pb *pb = &rt->pb;
  int tag = f->lone_base + st->MPI_TAG, rc;
  struct ft_pb_channel c = {
      .comm = f->lone, .peer = st->MPI_SOURCE, .tag = tag, .n = seq};
  if (from_ahead(rt, f, c, st, &rc))
    return rc;
  for (;;) {
    uint32_t *taken = channel(&pb->lone_taken, &pb->n_lone_taken,
                              &pb->cap_lone_taken, c.comm, c.peer, tag);
    uint32_t next = (*taken)++; /* (take_ahead may move the table) */
    if (next == seq)
      break;
    take_ahead(rt, (struct ft_pb_channel){
                       .comm = c.comm, .peer = c.peer, .tag = tag, .n = next});
  }
  MPI_Status got;
  rc = receive_next(rt, f->buf, f->count, f->type, f->lone, c.peer, tag, &got);
  int bytes = 0;
  FT_PMPI(Get_count, &got, MPI_BYTE, &bytes);
  set_bytes(st, bytes > 0 ? (size_t)bytes : 0);
  if (rc != MPI_SUCCESS)
    st->MPI_ERROR = rc;
  return rc;
}

/* The piggyback of a message received, for its delivery (after those
 * received before it). */
static void keep_incoming(struct ft_pb *pb, const struct ft_piggyback *got) {
  if (pb->head_incoming == pb->n_incoming)
    pb->head_incoming = pb->n_incoming = 0;
  pb->incoming = ft_reserve(pb->incoming, pb->n_incoming + 1, &pb->cap_incoming,
                            sizeof *pb->incoming, "c3 piggybacks received");
  pb->incoming[pb->n_incoming++] = *got;
}

int ft_pb_take_incoming(struct ft_pb *pb, struct ft_piggyback *out) {
  if (pb->head_incoming == pb->n_incoming)
    return 0;
  *out = pb->incoming[pb->head_incoming++];
  return 1;
}

/* A lead arrived in f->data (*st the library's status): the piggyback kept
 * for the delivery, the payload moved into the application's buffer.
 * Returns the error of a lone lead's payload (receive_lone), which the
 * lead's own completion did not see; MPI_SUCCESS otherwise. */
static int finish_receive(struct ft_runtime *rt, const struct ft_pb_framed *f,
                          MPI_Status *st) {
  int got = 0;
  FT_PMPI(Get_count, st, MPI_BYTE, &got);
  if (st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0)
    return MPI_SUCCESS; /* an empty status */
  if (got < FT_PB_LONE_BYTES)
    ft_fatal("rank %d: a message of %d bytes without its c3 piggyback "
             "(source %d, tag %d)",
             rt->world_rank, got, st->MPI_SOURCE, st->MPI_TAG);
  struct ft_pb_frame frame = {0};
  memcpy(&frame, f->data, FT_PB_LONE_BYTES);
  keep_incoming(&rt->pb, &frame.pb);
  if (frame.form == FT_PB_FORM_LONE)
    return receive_lone(rt, f, frame.seq, st);
  size_t bytes = (size_t)got - FT_PB_FRAME_BYTES;
  int size = 0;
  FT_PMPI(Type_size, f->type, &size);
  int whole = size > 0 ? (int)(bytes / (size_t)size) : 0;
  if (whole > f->count)
    whole = f->count;
  if (whole > 0)
    copy_packed(0, f->buf, whole, f->type,
                (unsigned char *)f->data + FT_PB_FRAME_BYTES, whole * size);
  charge_copy(rt, bytes);
  set_bytes(st, bytes);
  return MPI_SUCCESS;
}

int ft_pb_recv_payload(struct ft_runtime *rt, void *buf, int count,
                       MPI_Datatype type, int source, int tag,
                       struct ft_comm *c, int coll, MPI_Request *req,
                       MPI_Status *status, int *rc) {
  if (!ft_pb_framed(rt) || source == MPI_PROC_NULL)
    return 0;
  MPI_Comm wire = coll ? c->coll : c->p2p;
  /* Room for a combined message of any size the receive takes: auto
   * sends a large payload combined too when its buffer is reused at once
   * (send_payload's `copy`). */
  size_t cap = FT_PB_FRAME_BYTES + packed_size(rt, count, type);
  struct ft_pb_framed f = {.data = must_alloc(rt, cap),
                           .cap = cap,
                           .buf = buf,
                           .count = count,
                           .type = type,
                           .wire = wire,
                           .lone = c->coll,
                           .lone_base =
                               coll ? FT_PB_COLL_TAG_BASE : FT_PB_TAG_BASE};
  FT_PMPI(Irecv, f.data, (int)cap, MPI_BYTE, source, tag, wire, &f.req);
  ft_pending_add(rt, f.req, wire, 0, source, tag);
  if (req) {
    *req = f.req;
    push(&rt->pb, &f);
    *rc = MPI_SUCCESS;
    return 1;
  }
  MPI_Status st;
  *rc = ft_wait_internal(rt, &f.req, &st);
  int payload = finish_receive(rt, &f, &st);
  if (*rc == MPI_SUCCESS)
    *rc = payload;
  free(f.data);
  if (status != MPI_STATUS_IGNORE)
    *status = st;
  return 1;
}

int ft_pb_completed(struct ft_runtime *rt, MPI_Request req,
                    MPI_Status *status) {
  struct ft_pb_framed f;
  int rc = MPI_SUCCESS;
  if (!take(&rt->pb, req, &f))
    return rc;
  if (!f.send && status)
    rc = finish_receive(rt, &f, status);
  free(f.data);
  return rc;
}

/* Keeps `data` until MPI_Finalize (ft_pb_framed_finish). */
static void drop(struct ft_pb *pb, void *data) {
  pb->dropped = ft_reserve(pb->dropped, pb->n_dropped + 1, &pb->cap_dropped,
                           sizeof *pb->dropped, "c3 buffers in flight");
  pb->dropped[pb->n_dropped++] = data;
}

void ft_pb_request_freed(struct ft_runtime *rt, MPI_Request req) {
  struct ft_pb_framed f;
  if (take(&rt->pb, req, &f))
    drop(&rt->pb, f.data);
}

void ft_pb_probed(struct ft_runtime *rt, struct ft_comm *c, int *flag,
                  MPI_Status *status) {
  if (!ft_pb_framed(rt) || !*flag)
    return;
  int got = 0;
  FT_PMPI(Get_count, status, MPI_BYTE, &got);
  if (got >= FT_PB_FRAME_BYTES) {
    set_bytes(status, (size_t)got - FT_PB_FRAME_BYTES);
    return;
  }
  /* A lone lead: the payload's count, once it is there. */
  MPI_Status st;
  FT_PMPI(Iprobe, status->MPI_SOURCE, FT_PB_TAG_BASE + status->MPI_TAG, c->coll,
          flag, &st);
  if (!*flag)
    return;
  FT_PMPI(Get_count, &st, MPI_BYTE, &got);
  set_bytes(status, (size_t)got);
}

void *ft_pb_frame_packed(const struct ft_piggyback *pb, const void *packed,
                         size_t bytes, size_t *total) {
  unsigned char *data = malloc(FT_PB_FRAME_BYTES + bytes);
  if (!data)
    ft_fatal("out of memory for a c3 message of %zu bytes", bytes);
  struct ft_pb_frame f = {.form = FT_PB_FORM_COMBINED, .pb = *pb};
  memcpy(data, &f, sizeof f);
  if (bytes > 0)
    memcpy(data + FT_PB_FRAME_BYTES, packed, bytes);
  *total = FT_PB_FRAME_BYTES + bytes;
  return data;
}

/* A receive posted on an abandoned communicator may still complete after
 * the settle (settle.c: a transfer under way at the failure ends later;
 * bt, scenario several, wrote into a freed buffer), and a send whose
 * request the application freed (MPI_Request_free) is not waited for: their
 * buffers are kept until MPI_Finalize (ft_pb_request_freed, drop). */
/* The lone payloads' channels and those taken ahead (a rollback: the
 * communicators are abandoned; at MPI_Finalize). */
static void forget_channels(struct ft_pb *pb) {
  for (size_t i = 0; i < pb->n_ahead; i++)
    free(pb->ahead[i].data);
  pb->n_ahead = pb->n_lone_sent = pb->n_lone_taken = 0;
}

void ft_pb_framed_forget(struct ft_pb *pb) {
  forget_channels(pb);
  for (size_t i = 0; i < pb->n_framed; i++)
    drop(pb, pb->framed[i].data);
  pb->n_framed = 0;
  pb->head_incoming = pb->n_incoming = 0;
}

/* At MPI_Finalize every message the family posted is complete (MPI-3.1,
 * 8.7: "the user must ensure that all pending communications involving a
 * process complete before the process calls MPI_FINALIZE") and known done:
 * one still listed is one whose completion nobody reported, its buffer
 * freed here and reported (a send whose request the application freed
 * stayed listed, leaked, before request_freed). */
void ft_pb_framed_finish(struct ft_runtime *rt) {
  struct ft_pb *pb = &rt->pb;
  if (pb->n_framed > 0)
    fprintf(stderr,
            "ftsim: rank %d: %zu message(s) of the combined piggyback never "
            "completed at MPI_Finalize (their buffers freed now)\n",
            rt->world_rank, pb->n_framed);
  for (size_t i = 0; i < pb->n_framed; i++)
    free(pb->framed[i].data);
  pb->n_framed = 0;
  for (size_t i = 0; i < pb->n_dropped; i++)
    free(pb->dropped[i]);
  pb->n_dropped = 0;
  forget_channels(pb);
}
