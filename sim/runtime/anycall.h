/* The any-call transport's per-rank state (anycall.c): checkpoints at any
 * MPI call in a replay (issue 16, item 3; docs/protocols.md, "Any-call
 * mode"). Held by the rank's struct ft_runtime (`ac`), zeroed like the
 * rest. Generic: it names no protocol family; it carries out the flags of
 * ft_protocol.h's any-call mode for whatever core accepts it. */
#ifndef FT_ANYCALL_STATE_H
#define FT_ANYCALL_STATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "anycall_wire.h"
#include "driver.h"
#include "image.h"

/* What a handle stands for (its `state`). */
enum ft_ac_state {
  FT_AC_DEFERRED = 1, /* a send the core DEFERred: not sent yet */
  FT_AC_SENT,         /* a send on its way (req) */
  FT_AC_SEND_DONE,    /* a send complete */
  FT_AC_POSTED,       /* a receive posted, not matched */
  FT_AC_MATCHED,      /* a receive matched (complete): status in got_* */
};

/* A request of the replay, under the handle the replay gave it. */
struct ft_ac_req {
  int64_t handle;
  int32_t state;       /* enum ft_ac_state */
  int32_t peer;        /* application rank: destination or source */
  int32_t space, tag;  /* envelope: space = 2 x communicator + collective */
  uint64_t bytes;      /* send: its size; receive: the room posted */
  int64_t order;       /* FT_AC_DEFERRED: its place among deferred sends */
  uint64_t got;        /* FT_AC_MATCHED: the bytes received */
  MPI_Request req;     /* FT_AC_SENT: the send (never in an image) */
  MPI_Request data;    /* its data part under way (anycall_data.c): the send,
                          or the receive (posted with the receive): the
                          request is complete once it is done (never in an
                          image) */
  int32_t data_posted; /* a receive's data receive was posted (it may be
                          done before the header is in) */
};

enum { FT_AC_RX = 4 }; /* MPI_ANY_SOURCE receives kept posted */

/* A local checkpoint captured (CAPTURE) and not stored yet (STORE). */
struct ft_ac_capture {
  int wave;       /* 0: none */
  int64_t index;  /* the call */
  void *bytes;    /* the application's regions then the transport's */
  size_t size, n; /* bytes, regions */
  struct ft_image_region *regions;
};

/* All of the transport's state. */
struct ft_ac {
  int core_mode; /* the core was initialised in any-call mode (MPI_Init) */
  int on;        /* ft_ac_start said 1: the replay goes through here */
  struct ft_driver driver;        /* the family's, with the hooks below */
  const struct ft_driver *family; /* the family's own table */
  int64_t call;                   /* the call the rank is in, or the last one */
  int in_call;                    /* between CALL and CALL_END */
  int resumed;   /* restored inside `call`: the replay's next ft_ac_call
                    is that call again, not a new one */
  int restoring; /* a restore is under way: nothing is fed as ARRIVED */
  struct ft_ac_req *reqs;
  size_t n_reqs, cap_reqs;
  int64_t deferrals;            /* sends deferred so far (their order) */
  struct ft_ac_msgs ready;      /* arrived, receivable, in arrival order */
  struct ft_ac_msgs queued;     /* the delayed receive queue (QUEUE) */
  struct ft_ac_msgs held;       /* arrived before their sender's control
                                   messages: not fed yet (docs/protocols.md,
                                   "The channel's order") */
  struct ft_ac_msgs records;    /* RECORDed, until STORE */
  struct ft_ac_msgs kept;       /* STOREd channel state of the last capture */
  uint32_t *ctl_sent, *ctl_got; /* core messages to / from each rank,
                                   this incarnation */
  int ranks;
  MPI_Comm wire; /* the incarnation's point-to-point channel */
  int wire_inc;  /* the incarnation it belongs to */
  MPI_Request rx[FT_AC_RX];
  int rx_head;                     /* the oldest posted receive */
  unsigned char *rx_buf[FT_AC_RX]; /* rx[k]'s room: rx_bytes, private (a
                                      header's payload is copied) */
  uint64_t rx_bytes;
  int rx_private; /* rx_buf are the transport's own (else ac->rbuf) */
  /* The data channel (anycall_data.c): split = 1 when every message
   * goes as a header on the wire and its data on `data`. */
  int split;
  MPI_Comm data;     /* the incarnation's data channel */
  uint64_t head;     /* the payload of the header being sent: its size */
  void *sbuf, *rbuf; /* shared buffers of max_bytes */
  uint64_t max_bytes;
  int32_t nspace;   /* envelope spaces: 2 x communicators */
  double footprint; /* bytes of the recorded footprint now (0: none) */
  struct ft_ac_capture captured;
  /* Figures (the summary). */
  uint64_t deferred, queued_msgs, kept_msgs, ckpts, in_flight;
};

/* ---- The data channel (anycall_data.c): transfers start as SMPI's ----
 *
 * Under SMPI (SimGrid 3.32, smpi/async-small-thresh 0, the default) no
 * message's transfer starts before a receive matches it, whatever its
 * size: a send of fewer than smpi/send-is-detached-thresh bytes only
 * returns at once (src/smpi/mpi/smpi_request.cpp, start();
 * src/kernel/activity/CommImpl.cpp, isend(): a send that finds no receive
 * waits in the mailbox). The wire's eager receives would start every
 * transfer at once. So each message goes in two parts: a header on the
 * wire (its payload: the size), which the core sees as the message
 * (ARRIVED, DELIVERED: in the receiver's MPI state from then on, as a
 * real MPI's rendezvous has it), and its data, a PMPI_Isend of its bytes
 * on the data channel (the incarnation's world collective shadow, which
 * carries nothing else in this mode) with the tag tag x nspace + space.
 * Each replay receive posts the data's receive (its source, that tag) when
 * it is posted, so the transfer starts when both are posted, as under a
 * replay making its MPI calls; the request completes when its data is
 * done. Per source and envelope, receives are matched in posting order
 * and messages in sending order on both channels: the k-th receive gets
 * the k-th message's data. A message restored from an image has no data
 * (its send counts as complete): a receive that will take one posts none.
 * Every data request is the settle's at a rollback (ft_pending_add). */

struct ft_runtime;

/* Takes the incarnation's data channel (`fresh`: a new incarnation) and
 * the wire's receive buffers; at ft_ac_start, after ac->wire. */
void ft_ac_data_start(struct ft_runtime *rt, int fresh);

/* Posts the data part of send r (into r->data) and sets ac->head to the
 * header's payload; returns the header's byte count. Requires ac->split. */
int ft_ac_data_send(struct ft_runtime *rt, struct ft_ac_req *r);

/* Fills m's size and `data` from the header received in `buf` (`count`
 * bytes). Requires ac->split. */
void ft_ac_data_header(struct ft_runtime *rt, struct ft_ac_msg *m,
                       const unsigned char *buf, int count);

/* Posts the data's receive of receive r (into r->data), unless it has one
 * or ac->split is 0. */
void ft_ac_data_recv(struct ft_runtime *rt, struct ft_ac_req *r);

/* One MPI_Test that finds its request complete, charged as SMPI charges
 * it (smpi/test times a count that such a test resets): a generalized
 * request, complete, tested. */
void ft_ac_data_test_complete(struct ft_runtime *rt);

/* Withdraws the data's receive of a receive cancelled before its match. */
void ft_ac_data_cancel(struct ft_runtime *rt, struct ft_ac_req *r);

/* MPI_Finalize: withdraws the data receives of receives never matched,
 * receives the data of the messages that arrived and were never received
 * (their senders may wait for it), waits for the data under way. */
void ft_ac_data_finish(struct ft_runtime *rt);

#endif /* FT_ANYCALL_STATE_H */
