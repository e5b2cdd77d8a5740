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
  int32_t state;      /* enum ft_ac_state */
  int32_t peer;       /* application rank: destination or source */
  int32_t space, tag; /* envelope: space = 2 x communicator + collective */
  uint64_t bytes;     /* send: its size; receive: the room posted */
  int64_t order;      /* FT_AC_DEFERRED: its place among deferred sends */
  uint64_t got;       /* FT_AC_MATCHED: the bytes received */
  MPI_Request req;    /* FT_AC_SENT: the send (never in an image) */
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
  int rx_head;       /* the oldest posted receive */
  void *sbuf, *rbuf; /* shared buffers of max_bytes */
  uint64_t max_bytes;
  int32_t nspace;   /* envelope spaces: 2 x communicators */
  double footprint; /* bytes of the recorded footprint now (0: none) */
  struct ft_ac_capture captured;
  /* Figures (the summary). */
  uint64_t deferred, queued_msgs, kept_msgs, ckpts, in_flight;
};

#endif /* FT_ANYCALL_STATE_H */
