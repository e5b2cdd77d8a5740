/* The algorithms of the runtime's collectives (coll.c, coll_algo.c,
 * coll_exchange.c): the ones SMPI 3.32's `ompi` selector picks
 * (sim/coll_select.h) for the same communicator size and message size,
 * carried over point-to-point on the communicator's collective shadow so
 * that the protocols see every message (issue 18, item 3). Internal to
 * the coll module.
 *
 * Every function works on the ft_comm `c` of the application's
 * communicator (its rank, size and shadow c->coll); a failure of one of
 * its point-to-point operations stops the run (ft_pmpi_check). Every
 * receive names its source, so successive collectives on one communicator
 * cannot cross. */
#ifndef FT_COLL_ALGO_H
#define FT_COLL_ALGO_H

#include <stddef.h>

#include "runtime.h"

/* One tag per kind of collective on the shadow. */
enum {
  FT_TAG_BARRIER = 1,
  FT_TAG_BCAST,
  FT_TAG_REDUCE,
  FT_TAG_ALLREDUCE,
  FT_TAG_GATHER,
  FT_TAG_SCATTER,
  FT_TAG_ALLGATHER,
  FT_TAG_ALLTOALL,
  FT_TAG_SCAN
};

/* ---- Buffers and local reductions (coll_algo.c) ---- */

/* The extent of `type`. */
MPI_Aint ft_coll_extent(MPI_Datatype type);
/* The address of element `index` of `type` in buf. */
char *ft_coll_at(const void *buf, MPI_Aint index, MPI_Datatype type);
/* count x the size of type, in bytes (what the selector compares). */
size_t ft_coll_bytes(int count, MPI_Datatype type);
/* A scratch buffer for `count` elements of `type`; free *base. Returns the
 * address where element 0 goes (the true lower bound is accounted for).
 * Stops the run when out of memory. */
void *ft_coll_scratch(int count, MPI_Datatype type, void **base);
/* Copies `count` elements of `type` from src to dst (same layout; nothing
 * when dst == src). */
void ft_coll_copy(void *dst, const void *src, int count, MPI_Datatype type);
/* Packs count x type at src into dst (count x its size bytes), and back:
 * a copy for the predefined contiguous types, MPI_Pack / MPI_Unpack on
 * c's shadow for the others. */
void ft_coll_pack(void *dst, const void *src, int count, MPI_Datatype type,
                  struct ft_comm *c);
void ft_coll_unpack(void *dst, const void *src, int count, MPI_Datatype type,
                    struct ft_comm *c);
/* inout = in op inout, count elements of type, bit-identical to what
 * PMPI_Reduce_local computes (the usual arithmetic ones are applied here,
 * without an SMPI call). */
void ft_coll_reduce_local(const void *in, void *inout, int count,
                          MPI_Datatype type, MPI_Op op);
/* 1 when op is commutative (MPI_Op_commutative). */
int ft_coll_commutative(MPI_Op op);

/* ---- Point-to-point helpers (coll_algo.c) ---- */

/* One receive of a batch. */
struct ft_coll_recv {
  int source; /* rank in c; MPI_PROC_NULL: nothing */
  void *buf;
  int count;
  MPI_Datatype type;
};

/* A nonblocking send on c's shadow (ft_isend_internal). */
void ft_coll_isend(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, struct ft_comm *c, MPI_Request *req);
/* A nonblocking receive of `in` on c's shadow (*req is MPI_REQUEST_NULL
 * when in->source is MPI_PROC_NULL). */
void ft_coll_irecv(const struct ft_coll_recv *in, int tag, struct ft_comm *c,
                   MPI_Request *req);
/* Waits for the n requests (receives and sends of the runtime's own), then
 * reports the deliveries of the nin receives described by `in` (trace,
 * the family's coll_delivered) as a blocking receive does. */
void ft_coll_complete(struct ft_runtime *rt, struct ft_comm *c, int n,
                      MPI_Request reqs[], int nin,
                      const struct ft_coll_recv in[], int tag);
/* Posts the n receives of `in` with `tag` on c's shadow, waits for all,
 * and reports each delivery (ft_coll_complete). */
void ft_coll_recv_all(struct ft_runtime *rt, struct ft_comm *c, int n,
                      const struct ft_coll_recv in[], int tag);
/* A blocking send, receive and exchange on c's shadow. */
void ft_coll_send(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, struct ft_comm *c);
void ft_coll_recv(struct ft_runtime *rt, void *buf, int count,
                  MPI_Datatype type, int source, int tag, struct ft_comm *c);
void ft_coll_sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
                      int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                      int source, int tag, struct ft_comm *c);

/* ---- Rooted collectives (coll_algo.c) ---- */

/* MPI_Barrier by the selector's algorithm. */
void ft_coll_barrier(struct ft_runtime *rt, struct ft_comm *c);
/* MPI_Bcast of count x type from root (0 <= root < c->size). */
void ft_coll_bcast(struct ft_runtime *rt, void *buf, int count,
                   MPI_Datatype type, int root, struct ft_comm *c);
/* MPI_Reduce of a commutative op towards root: `acc` holds this rank's
 * contribution (and is overwritten), and at the root the result. */
void ft_coll_reduce_commutative(struct ft_runtime *rt, void *acc, int count,
                                MPI_Datatype type, MPI_Op op, int root,
                                struct ft_comm *c);
/* Gather on the binomial tree of Open MPI's gather_intra_binomial: every
 * rank's block (count x type at every rank, the same signature) ends at
 * the root in rbuf, in rank order. `mine` is this rank's block (at the
 * root it may be rbuf's own block already). */
void ft_coll_gather_binomial(struct ft_runtime *rt, const void *mine, int count,
                             MPI_Datatype type, void *rbuf, int root,
                             struct ft_comm *c);
/* Scatter on the binomial tree of Open MPI's scatter_intra_binomial: rank
 * r receives block r of the root's sbuf (count x type) into `mine`. */
void ft_coll_scatter_binomial(struct ft_runtime *rt, const void *sbuf,
                              void *mine, int count, MPI_Datatype type,
                              int root, struct ft_comm *c);

/* ---- Exchanges (coll_exchange.c) ---- */

/* MPI_Allreduce of a commutative op, in place in `acc`, by the selector's
 * algorithm; every rank ends with the same bits. */
void ft_coll_allreduce_commutative(struct ft_runtime *rt, void *acc, int count,
                                   MPI_Datatype type, MPI_Op op,
                                   struct ft_comm *c);
/* MPI_Alltoall (regular blocks) by the selector's algorithm; sbuf may be
 * MPI_IN_PLACE. */
void ft_coll_alltoall(struct ft_runtime *rt, const void *sbuf, int scount,
                      MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, struct ft_comm *c);
/* MPI_Alltoallv without MPI_IN_PLACE, by the selector's algorithm. */
void ft_coll_alltoallv(struct ft_runtime *rt, const void *sbuf,
                       const int scounts[], const int sdispls[],
                       MPI_Datatype stype, void *rbuf, const int rcounts[],
                       const int rdispls[], MPI_Datatype rtype,
                       struct ft_comm *c);
/* MPI_Allgatherv (MPI_Allgather: regular counts and displacements, and
 * `regular` set) by the selector's algorithm; sbuf may be MPI_IN_PLACE. */
void ft_coll_allgatherv(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, const int counts[],
                        const int displs[], MPI_Datatype rtype, int regular,
                        struct ft_comm *c);

/* ---- Calls carried as one unit (coll_unit.c; driver.h, coll_enter) ---- */

/* Before a collective call `call` of the application on c (call->result,
 * count, type: what it leaves at this rank): the re-executions a restore
 * left pending first, then the family's coll_enter, the exchange of the
 * bits in the call's flow and coll_decide. Returns 1 when the call must
 * not be carried out (its result is in place, it is suppressed, or it was
 * a barrier and the exchange was it); 0: carry it out, then call
 * ft_coll_unit_leave: with call->entry FT_COLL_COMBINED (the family's
 * answer, for a call ft_coll_combinable; otherwise EXCHANGE) in the
 * combined form (ft_coll_combined_*), which exchanges the bits and decides
 * itself. Without a coll_enter hook: 0, nothing done. */
int ft_coll_unit_enter(struct ft_runtime *rt, struct ft_comm *c,
                       struct ft_coll_call *call);
/* After the call was carried out: its messages are the unit's no more,
 * and the family's coll_leave sees the result. */
void ft_coll_unit_leave(struct ft_runtime *rt, struct ft_comm *c,
                        struct ft_coll_call *call);

/* ---- Units in the combined form (coll_combined.c; FT_COLL_COMBINED) ---- */

/* 1 when `call` on c can go in the combined form: a bcast, scatter,
 * gather, allgather or alltoall whose enlarged blocks (FT_COLL_BITS +
 * call->bytes each, c->size of them) fit in an int, or a scatterv (its
 * blocks differ: each enlarged block must fit in an int, which
 * ft_coll_combined_scatterv checks at its two ends); the same answer at
 * every member. */
int ft_coll_combinable(const struct ft_comm *c,
                       const struct ft_coll_call *call);

/* The buffers of a call in the combined form. */
struct ft_coll_packed {
  unsigned char *out; /* the blocks this rank contributes: bits, then data */
  unsigned char *in;  /* the blocks it receives (NULL: none) */
  int block;          /* FT_COLL_BITS + call->bytes */
  unsigned char *all; /* c->size members' bits, for coll_decide */
  size_t copied;      /* bytes copied and not yet charged */
};
/* Room for nout blocks to contribute and nin to receive; every member's
 * bits zero but this rank's (call->bits). */
void ft_coll_packed_open(struct ft_comm *c, const struct ft_coll_call *call,
                         struct ft_coll_packed *p, int nout, int nin);
/* Block i of p->out: this rank's bits, then count x type at src packed. */
void ft_coll_packed_put(struct ft_comm *c, const struct ft_coll_call *call,
                        struct ft_coll_packed *p, int i, const void *src,
                        int count, MPI_Datatype type);
/* The block at b, received from member `from`: its bits into p->all, its
 * data unpacked into count x type at dst (dst NULL: not kept). */
void ft_coll_packed_take(struct ft_comm *c, struct ft_coll_packed *p,
                         const unsigned char *b, int from, void *dst, int count,
                         MPI_Datatype type);
/* The copies made since the last charge, in simulated time at copy_mbps
 * (0: free). */
void ft_coll_packed_charge(struct ft_runtime *rt, struct ft_coll_packed *p);
/* After the call: the separation's copies charged, the family's
 * coll_decide on p->all, the buffers freed. */
void ft_coll_packed_close(struct ft_runtime *rt, struct ft_comm *c,
                          struct ft_coll_call *call, struct ft_coll_packed *p);
/* MPI_Bcast, MPI_Allgather (sbuf may be MPI_IN_PLACE) and MPI_Alltoall
 * (likewise) of a COMBINED call: packing, the one collective of the
 * enlarged blocks, separation and ft_coll_packed_close. */
void ft_coll_combined_bcast(struct ft_runtime *rt, struct ft_comm *c,
                            struct ft_coll_call *call, void *buf, int count,
                            MPI_Datatype type, int root);
void ft_coll_combined_allgather(struct ft_runtime *rt, struct ft_comm *c,
                                struct ft_coll_call *call, const void *sbuf,
                                int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype);
void ft_coll_combined_alltoall(struct ft_runtime *rt, struct ft_comm *c,
                               struct ft_coll_call *call, const void *sbuf,
                               int scount, MPI_Datatype stype, void *rbuf,
                               int rcount, MPI_Datatype rtype);
/* MPI_Scatterv of a COMBINED call (single-sender, Figure 7): the root
 * packs the root's bits before each member's block (counts[r] x stype at
 * displs[r]) and sends every member its enlarged block at once (linear,
 * as the separate form's scatterv), a member receives its FT_COLL_BITS +
 * rcount x rtype's size bytes and separates them; then
 * ft_coll_packed_close. rbuf may be MPI_IN_PLACE at the root; counts,
 * displs and sbuf are read at the root only. Stops the run when an
 * enlarged block does not fit in an int. */
void ft_coll_combined_scatterv(struct ft_runtime *rt, struct ft_comm *c,
                               struct ft_coll_call *call, const void *sbuf,
                               const int counts[], const int displs[],
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root);

#endif /* FT_COLL_ALGO_H */
