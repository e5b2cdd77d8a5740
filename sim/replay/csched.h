/* Collective schedules for the any-call replay (issue 16, item 3): one
 * recorded collective (struct ft_rt_coll) turned into this rank's rounds of
 * point-to-point operations, by the algorithms the runtime's
 * sim/runtime/coll.c runs, so that a replay that carries a collective out
 * itself sends the messages an on-line run sends, and its position in the
 * collective (round) is plain data a checkpoint can hold.
 * Pure C11: no MPI, no SimGrid, no I/O, no global state; a schedule is
 * built from one rank's spec alone (the other ranks' counts come in the
 * spec), and every rank's schedule of the same instance matches the
 * others'. As in coll.c, every receive names its source, so one tag per
 * communicator keeps successive collectives from crossing (MPI's order on
 * each channel). The schedules, and the message sizes taken from the
 * recorded bytes: docs/protocols.md, "Collectives in an any-call replay". */
#ifndef FT_CSCHED_H
#define FT_CSCHED_H

#include <stddef.h>
#include <stdint.h>

/* One point-to-point operation of a schedule, with rank `peer` of the
 * communicator (peer may be this rank: alltoall's exchange with itself). */
struct ft_csched_op {
  uint8_t send; /* 1 send, 0 receive */
  uint32_t peer;
  uint64_t bytes;
};

/* A round: ops[first .. first+n-1], posted together (receives first, in
 * that order), then all waited for before the next round is posted. A
 * round's sends carry only data received in earlier rounds. n >= 1. */
struct ft_csched_round {
  uint32_t first, n;
};

/* One rank's schedule of one collective: nrounds rounds over nops ops
 * (none at all when the rank exchanges nothing, e.g. a communicator of
 * one rank). */
struct ft_csched {
  struct ft_csched_op *ops;
  size_t nops;
  struct ft_csched_round *rounds;
  size_t nrounds;
};

/* What a rank knows of one collective instance. */
struct ft_csched_spec {
  uint8_t op;             /* enum ft_rt_coll_op (sim/rtrace/rtrace.h) */
  uint32_t size, me;      /* the communicator's size, this rank's place */
  int32_t root;           /* bcast, reduce, gather(v), scatter(v) */
  uint64_t sent, recvd;   /* as recorded in struct ft_rt_coll */
  const uint64_t *counts; /* the v-collectives' counts: */
  size_t ncounts;         /* ft_csched_counts_needed of them */
  int noncommutative;     /* reduce, allreduce, reduce_scatter(_block):
                             the recorded operation is not commutative
                             (FT_RT_NONCOMMUTATIVE): coll.c reduces in rank
                             order, linearly at the root */
};

/* Builds this rank's schedule of collective s->op into *out (which the
 * caller frees with ft_csched_free, also after an error). The counts are
 * those replay.c's take_counts takes (ft_rtrace_write_vcounts, in the same
 * order and number): gatherv and scatterv at the root, allgatherv and
 * reduce_scatter at every rank, `size` of them (member i's sent bytes for
 * gatherv and allgatherv, its received bytes otherwise); alltoallv and
 * alltoallw 2 x size (the bytes sent to each member, then received from
 * each). Returns 0, or -1 with a message naming the collective in err
 * (errlen bytes): an unknown op, size 0 or me >= size, a root outside the
 * communicator, counts missing or of the wrong number, recorded bytes that
 * do not divide into the equal blocks of gather, scatter, allgather or
 * alltoall, a sum of counts beyond 64 bits, out of memory. */
int ft_csched_build(const struct ft_csched_spec *s, struct ft_csched *out,
                    char *err, size_t errlen);

/* Frees what ft_csched_build allocated and empties *c; a zeroed or
 * already freed schedule is allowed. */
void ft_csched_free(struct ft_csched *c);

/* How many counts collective `op` needs at rank `me` of a communicator of
 * `size` (0 for the ops without counts, and at a non-root for gatherv and
 * scatterv): what the caller must take before ft_csched_build. */
size_t ft_csched_counts_needed(uint8_t op, uint32_t size, uint32_t me,
                               int32_t root);

#endif /* FT_CSCHED_H */
