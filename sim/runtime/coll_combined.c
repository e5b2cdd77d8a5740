/* A collective call carried as one unit in the combined form
 * (FT_COLL_COMBINED, driver.h): c3-collectives section 6, "'piggy-backing'
 * the control data onto the message data and sending both with one
 * operation. [...] For the combined case, it includes the time to copy the
 * message data and the control data to a contiguous region, the time for
 * the single communication, and the time to separate the message and
 * protocol data on receipt."
 *
 * Each block a member contributes is packed after its bits (FT_COLL_BITS
 * bytes) into one contiguous buffer, ONE collective of the enlarged blocks
 * runs (MPI_BYTE, the runtime's algorithm for that size), and the
 * receivers separate each block's bits (into the members' bits the
 * family's coll_decide reads, as the separate exchange would have left
 * them: the call's flow) from its data (unpacked into the call's buffer).
 * Both copies are charged at copy_mbps, as the per-message combined
 * piggyback charges its own (piggyback/pb_combined.c): the packing before
 * the call, the separation after it. The runtime's algorithms forward
 * packed blocks as they are (a binomial bcast's inner ranks, a gather's
 * or a scatter's subtrees): only the ends copy. A scatter(v)'s root packs
 * its own bits before every member's block (Figure 7's single-sender
 * class: only the root's bits matter to the decision, and every member
 * must get them with its block). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll_algo.h"
#include "runtime.h"

int ft_coll_combinable(const struct ft_comm *c,
                       const struct ft_coll_call *call) {
  switch (call->kind) {
  case FT_COLL_SCATTERV: /* per block: ft_coll_combined_scatterv */
    return 1;
  case FT_COLL_BCAST:
  case FT_COLL_SCATTER:
  case FT_COLL_GATHER:
  case FT_COLL_ALLGATHER:
  case FT_COLL_ALLTOALL:
    break;
  default:
    return 0;
  }
  return call->bytes <= (size_t)INT_MAX / (size_t)c->size - FT_COLL_BITS;
}

static void *alloc_or_die(size_t bytes, int ranks) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    ft_fatal("out of memory in a combined collective of %d ranks", ranks);
  return p;
}

void ft_coll_packed_open(struct ft_comm *c, const struct ft_coll_call *call,
                         struct ft_coll_packed *p, int nout, int nin) {
  p->block = (int)(FT_COLL_BITS + call->bytes);
  p->out = alloc_or_die((size_t)nout * (size_t)p->block, c->size);
  p->in =
      nin > 0 ? alloc_or_die((size_t)nin * (size_t)p->block, c->size) : NULL;
  p->all = alloc_or_die((size_t)c->size * FT_COLL_BITS, c->size);
  memcpy(p->all + (size_t)c->rank * FT_COLL_BITS, call->bits, FT_COLL_BITS);
  p->copied = 0;
}

void ft_coll_packed_put(struct ft_comm *c, const struct ft_coll_call *call,
                        struct ft_coll_packed *p, int i, const void *src,
                        int count, MPI_Datatype type) {
  unsigned char *b = p->out + (size_t)i * (size_t)p->block;
  memcpy(b, call->bits, FT_COLL_BITS);
  ft_coll_pack(b + FT_COLL_BITS, src, count, type, c);
  p->copied += (size_t)p->block;
}

void ft_coll_packed_take(struct ft_comm *c, struct ft_coll_packed *p,
                         const unsigned char *b, int from, void *dst, int count,
                         MPI_Datatype type) {
  memcpy(p->all + (size_t)from * FT_COLL_BITS, b, FT_COLL_BITS);
  if (dst)
    ft_coll_unpack(dst, b + FT_COLL_BITS, count, type, c);
  p->copied += (size_t)p->block;
}

void ft_coll_packed_charge(struct ft_runtime *rt, struct ft_coll_packed *p) {
  if (rt->options.copy_mbps > 0 && p->copied > 0)
    ft_control_sleep(rt, (double)p->copied / (rt->options.copy_mbps * 1e6));
  p->copied = 0;
}

void ft_coll_packed_close(struct ft_runtime *rt, struct ft_comm *c,
                          struct ft_coll_call *call, struct ft_coll_packed *p) {
  ft_coll_packed_charge(rt, p);
  rt->driver->coll_decide(rt, c, call, p->all);
  free(p->out);
  free(p->in);
  free(p->all);
  *p = (struct ft_coll_packed){0};
}

void ft_coll_combined_bcast(struct ft_runtime *rt, struct ft_comm *c,
                            struct ft_coll_call *call, void *buf, int count,
                            MPI_Datatype type, int root) {
  struct ft_coll_packed p;
  ft_coll_packed_open(c, call, &p, 1, 0);
  if (c->rank == root) {
    ft_coll_packed_put(c, call, &p, 0, buf, count, type);
    ft_coll_packed_charge(rt, &p);
  }
  ft_coll_bcast(rt, p.out, p.block, MPI_BYTE, root, c);
  if (c->rank != root)
    ft_coll_packed_take(c, &p, p.out, root, buf, count, type);
  ft_coll_packed_close(rt, c, call, &p);
}

void ft_coll_combined_allgather(struct ft_runtime *rt, struct ft_comm *c,
                                struct ft_coll_call *call, const void *sbuf,
                                int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype) {
  int n = c->size;
  struct ft_coll_packed p;
  ft_coll_packed_open(c, call, &p, 1, n);
  if (sbuf == MPI_IN_PLACE)
    ft_coll_packed_put(c, call, &p, 0,
                       ft_coll_at(rbuf, (MPI_Aint)c->rank * rcount, rtype),
                       rcount, rtype);
  else
    ft_coll_packed_put(c, call, &p, 0, sbuf, scount, stype);
  ft_coll_packed_charge(rt, &p);
  int *counts = alloc_or_die((size_t)n * 2 * sizeof *counts, n);
  for (int r = 0; r < n; r++) {
    counts[r] = p.block;
    counts[n + r] = r * p.block;
  }
  ft_coll_allgatherv(rt, p.out, p.block, MPI_BYTE, p.in, counts, counts + n,
                     MPI_BYTE, 1, c);
  free(counts);
  for (int r = 0; r < n; r++)
    ft_coll_packed_take(c, &p, p.in + (size_t)r * (size_t)p.block, r,
                        ft_coll_at(rbuf, (MPI_Aint)r * rcount, rtype), rcount,
                        rtype);
  ft_coll_packed_close(rt, c, call, &p);
}

void ft_coll_combined_alltoall(struct ft_runtime *rt, struct ft_comm *c,
                               struct ft_coll_call *call, const void *sbuf,
                               int scount, MPI_Datatype stype, void *rbuf,
                               int rcount, MPI_Datatype rtype) {
  int n = c->size;
  struct ft_coll_packed p;
  ft_coll_packed_open(c, call, &p, n, n);
  for (int r = 0; r < n; r++) {
    if (sbuf == MPI_IN_PLACE)
      ft_coll_packed_put(c, call, &p, r,
                         ft_coll_at(rbuf, (MPI_Aint)r * rcount, rtype), rcount,
                         rtype);
    else
      ft_coll_packed_put(c, call, &p, r,
                         ft_coll_at(sbuf, (MPI_Aint)r * scount, stype), scount,
                         stype);
  }
  ft_coll_packed_charge(rt, &p);
  ft_coll_alltoall(rt, p.out, p.block, MPI_BYTE, p.in, p.block, MPI_BYTE, c);
  for (int r = 0; r < n; r++)
    ft_coll_packed_take(c, &p, p.in + (size_t)r * (size_t)p.block, r,
                        ft_coll_at(rbuf, (MPI_Aint)r * rcount, rtype), rcount,
                        rtype);
  ft_coll_packed_close(rt, c, call, &p);
}

/* The bytes of one enlarged block: the bits, then count x type; stops the
 * run when they do not fit in an int (the count of one message). */
static int enlarged(struct ft_runtime *rt, int count, MPI_Datatype type) {
  size_t bytes = ft_coll_bytes(count, type);
  if (bytes > (size_t)INT_MAX - FT_COLL_BITS)
    ft_fatal("rank %d: an MPI_Scatterv block of %zu bytes: more than one "
             "message carries with c3's bits in the combined form "
             "(piggyback=combined)",
             rt->world_rank, bytes);
  return (int)(FT_COLL_BITS + bytes);
}

/* The root's side of a combined scatterv: every other member's enlarged
 * block packed (the root's bits, then its data) and sent at once, the
 * root's own block copied into rbuf. */
static void scatterv_root(struct ft_runtime *rt, struct ft_comm *c,
                          const struct ft_coll_call *call,
                          struct ft_coll_packed *p, const void *sbuf,
                          const int counts[], const int displs[],
                          MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype) {
  int n = c->size, k = 0;
  size_t *at = alloc_or_die((size_t)n * sizeof *at, n), total = 0;
  MPI_Request *reqs = alloc_or_die((size_t)n * sizeof *reqs, n);
  for (int r = 0; r < n; r++) {
    at[r] = total;
    if (r != c->rank)
      total += (size_t)enlarged(rt, counts[r], stype);
  }
  p->out = alloc_or_die(total, n);
  for (int r = 0; r < n; r++) {
    if (r == c->rank)
      continue;
    unsigned char *b = p->out + at[r];
    memcpy(b, call->bits, FT_COLL_BITS);
    ft_coll_pack(b + FT_COLL_BITS, ft_coll_at(sbuf, displs[r], stype),
                 counts[r], stype, c);
    p->copied += (size_t)enlarged(rt, counts[r], stype);
  }
  ft_coll_packed_charge(rt, p);
  for (int r = 0; r < n; r++)
    if (r != c->rank)
      ft_coll_isend(p->out + at[r], enlarged(rt, counts[r], stype), MPI_BYTE, r,
                    FT_TAG_SCATTER, c, &reqs[k++]);
  ft_coll_complete(rt, c, k, reqs, 0, NULL, FT_TAG_SCATTER);
  if (rbuf != MPI_IN_PLACE)
    FT_PMPI(Sendrecv, ft_coll_at(sbuf, displs[c->rank], stype), counts[c->rank],
            stype, 0, 0, rbuf, rcount, rtype, 0, 0, MPI_COMM_SELF,
            MPI_STATUS_IGNORE);
  free(at);
  free(reqs);
}

void ft_coll_combined_scatterv(struct ft_runtime *rt, struct ft_comm *c,
                               struct ft_coll_call *call, const void *sbuf,
                               const int counts[], const int displs[],
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root) {
  struct ft_coll_packed p = {0};
  p.all = alloc_or_die((size_t)c->size * FT_COLL_BITS, c->size);
  memcpy(p.all + (size_t)c->rank * FT_COLL_BITS, call->bits, FT_COLL_BITS);
  if (c->rank == root) {
    scatterv_root(rt, c, call, &p, sbuf, counts, displs, stype, rbuf, rcount,
                  rtype);
  } else {
    p.block = enlarged(rt, rcount, rtype);
    p.in = alloc_or_die((size_t)p.block, c->size);
    ft_coll_recv(rt, p.in, p.block, MPI_BYTE, root, FT_TAG_SCATTER, c);
    ft_coll_packed_take(c, &p, p.in, root, rbuf, rcount, rtype);
  }
  ft_coll_packed_close(rt, c, call, &p);
}
