/* The recorder (`ftsim record`, issue 16): with the option record=DIR the
 * application's MPI calls are appended, one event each, to this rank's
 * events (sim/rtrace/rtrace.h), and written at MPI_Finalize to
 * DIR/rank.<world rank> (sim/rtrace/rtrace_rank.h), which the CLI merges
 * into an OTF2 archive. Only the application's calls are recorded: the
 * wrappers call in here, never the runtime's own traffic, so a collective
 * is one record, not its point-to-point expansion. Protocol none only
 * (ft_options_check).
 *
 * Between two calls the rank computes: the time from the end of one call
 * to the start of the next (the backend's clock: simulated seconds under
 * SMPI) becomes a compute event, with the host's speed for the whole rank
 * (ft_backend_host_speed, or record_speed). The memory footprint (the
 * application's heap, app_heap.c, plus its ft_protect regions) becomes a
 * memory event at a call when it moved by more than FT_RECORD_MEMORY_STEP
 * bytes since the last one. Every event has its span on the backend's
 * clock (ft_rt_span), which the archive's timestamps are made of.
 *
 * Every function returns at once when recording is off (one test of a
 * flag), so the wrappers call them unconditionally. */
#ifndef FT_RECORD_H
#define FT_RECORD_H

#include <mpi.h>
#include <stdint.h>

#include "rtrace.h"

struct ft_runtime;

/* A change of the footprint smaller than this is not recorded. */
#define FT_RECORD_MEMORY_STEP (64u * 1024u)

/* A request of the application the recorder numbered. */
struct ft_record_req {
  MPI_Request handle;
  uint64_t id;
  size_t event; /* the posting event's index */
};

/* The recorder's state (a member of struct ft_runtime). */
struct ft_record_state {
  int on;
  struct ft_rtrace *t; /* this rank's events: rank 0 of a one-rank run */
  int32_t *names;      /* per communicator id: the runtime's name */
  MPI_Comm *handles;   /* per communicator id: the application's handle
                          (MPI_COMM_NULL once freed) */
  size_t cap_names;
  struct ft_record_req *reqs; /* pending requests */
  size_t n_reqs, cap_reqs;
  uint64_t next_req;
  int st_pending;    /* the last event is a p2p one its call's exit completes */
  double last_exit;  /* end of the last call (backend clock) */
  double call_begin; /* start of the call under way (backend clock) */
  size_t call_first; /* its first event: the events it appends span
                        [call_begin, its exit] */
  double modelled_s; /* ft_compute's flops since then / host speed */
  double modelled_elapsed; /* the simulated time those flops took */
  uint64_t memory;         /* the footprint last recorded */
  MPI_Status *st;          /* statuses for a call that ignores them */
  size_t cap_st;
  MPI_Request *before; /* a completion call's handles at its entry */
  size_t cap_before;
};

/* MPI_Init, once the world is split (application ranks only): starts
 * recording when the option record is set. */
void ft_record_start(struct ft_runtime *rt);
/* MPI_Finalize: the last computation, then this rank's file. Stops the
 * run (ft_fatal, naming the rank and the path) if it cannot be written. */
void ft_record_finish(struct ft_runtime *rt);

/* The start of an application call: the computation since the last one
 * ends (a compute event), and the footprint is looked at. */
void ft_record_enter(struct ft_runtime *rt);
/* ft_compute's work while recording, simulated: `flops` modelled, which
 * took `elapsed` simulated seconds, more than flops / the host's speed
 * when the rank shared its host's cores with other ranks. The next compute
 * event counts them as flops / host speed, the time they take alone: a
 * replay turns compute seconds back into flops, which share the cores of
 * the host it runs on again (recorded as elapsed, the sharing was counted
 * twice: cg on 192 ranks of myrinet, 4 per 2-core host, replayed 10%
 * late). Nothing when not recording. */
void ft_record_computed(struct ft_runtime *rt, double flops, double elapsed);
/* The end of an application call: returns rc. */
int ft_record_exit(struct ft_runtime *rt, int rc);

/* A status to receive into: `status`, or the recorder's own when the
 * application ignores it and recording is on. */
MPI_Status *ft_record_status(struct ft_runtime *rt, MPI_Status *status);
/* The same for n statuses. */
MPI_Status *ft_record_statuses(struct ft_runtime *rt, int n,
                               MPI_Status *statuses);

/* At entry (after ft_record_enter's work, done here): a send, or a receive
 * with its posted source and tag. kind: FT_RT_SEND, ISEND, RECV, IRECV;
 * sync: a synchronous send. MPI_PROC_NULL peers are not recorded. */
void ft_record_p2p(struct ft_runtime *rt, uint8_t kind, int sync, int count,
                   MPI_Datatype type, int peer, int tag, MPI_Comm comm);
/* At exit of MPI_Recv: the matched source, tag and size from *st (when rc
 * is MPI_SUCCESS, or MPI_ERR_TRUNCATE in rc or in the status: then the
 * receive is flagged FT_RT_TRUNCATED, its size the receive's), then
 * ft_record_exit. */
int ft_record_received(struct ft_runtime *rt, int rc, const MPI_Status *st);
/* At exit of a nonblocking call: the request gets the next id (when rc is
 * MPI_SUCCESS), then ft_record_exit. */
int ft_record_posted(struct ft_runtime *rt, int rc, const MPI_Request *req);
/* MPI_Sendrecv(_replace), at exit: both halves, the receive's matched
 * source and tag from *st (a truncated receive as ft_record_received
 * says); then ft_record_exit. */
int ft_record_sendrecv(struct ft_runtime *rt, int rc, int scount,
                       MPI_Datatype stype, int dest, int stag, int rcount,
                       MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                       const MPI_Status *st);
/* MPI_Probe / MPI_Iprobe at exit: posted source and tag, *flag (NULL for
 * a blocking probe) and the message found (*st); then ft_record_exit. */
int ft_record_probe(struct ft_runtime *rt, int rc, int source, int tag,
                    MPI_Comm comm, const int *flag, const MPI_Status *st);
/* MPI_Cancel at entry, of the request *req. */
void ft_record_cancel(struct ft_runtime *rt, const MPI_Request *req);
/* MPI_Request_free at entry, of the active request *req (a cancel event
 * with FT_RT_FREE): the request leaves the recording's table, as no call
 * will complete it. */
void ft_record_request_free(struct ft_runtime *rt, const MPI_Request *req);

/* A completion call: at entry, its n requests (the runtime's handles,
 * after persist.c's mapping); at exit, the call (enum ft_rt_call), the
 * handles after it and the statuses: with indices NULL, st[i] is request
 * i's and a request completed when its handle became MPI_REQUEST_NULL;
 * otherwise the `count` requests indices[k] completed, st[k] theirs. A
 * test records the requests it found not complete too. A receive that
 * completed with MPI_ERR_TRUNCATE (rc of a call that completes one
 * request, else its status's MPI_ERROR) is flagged truncated. Then
 * ft_record_exit. */
void ft_record_before(struct ft_runtime *rt, int n, const MPI_Request *reqs);
int ft_record_completed(struct ft_runtime *rt, int rc, uint8_t call, int n,
                        const MPI_Request *after, const MPI_Status *st,
                        const int *indices, int count);

/* A collective's arguments that size it: counts and types as the call
 * gives them (scounts/rcounts and stypes/rtypes for the v- and
 * w-variants, NULL otherwise). */
struct ft_record_coll_args {
  int root; /* a rank of comm, -1 for a rootless collective */
  int scount, rcount;
  MPI_Datatype stype, rtype;
  const int *scounts, *rcounts;
  const MPI_Datatype *stypes, *rtypes;
  int in_place;       /* allgather(v), alltoall(v, w): the send buffer is
                         MPI_IN_PLACE (the receive side tells what is sent) */
  int noncommutative; /* a reduction with a non-commutative operation */
};
/* A collective at entry: this rank's bytes sent and received in total,
 * from `a` by the operation's rule (docs/trace-format.md, "collective";
 * a count of 0 for an MPI_IN_PLACE buffer of a rooted collective, the
 * contributed block of the receive buffer for in_place) and its flags. */
void ft_record_coll(struct ft_runtime *rt, uint8_t op, MPI_Comm comm,
                    const struct ft_record_coll_args *a);

/* count elements of type, in bytes (0 for MPI_DATATYPE_NULL or count <=
 * 0). */
uint64_t ft_record_bytes(int count, MPI_Datatype type);

/* A communicator made by parent (op: FT_RT_COMM_DUP, SPLIT, CREATE), at
 * exit: *made (MPI_COMM_NULL allowed), color and key (FT_RT_UNKNOWN when
 * the call has none); then ft_record_exit. */
int ft_record_comm_made(struct ft_runtime *rt, int rc, uint8_t op,
                        MPI_Comm parent, const MPI_Comm *made, int color,
                        int key);
/* MPI_Comm_free at entry, of *comm. */
void ft_record_comm_free(struct ft_runtime *rt, const MPI_Comm *comm);

#endif /* FT_RECORD_H */
