/* The exchanges' algorithms (coll_algo.h): allreduce, alltoall(v) and
 * allgather(v) as SMPI 3.32's `ompi` selector runs them
 * (sim/coll_select.h): recursive doubling, reduce + bcast, ring; Bruck,
 * linear, pairwise; recursive doubling, Bruck, ring, neighbour exchange,
 * gather + bcast. What is approximated, and by what: docs/protocols.md,
 * "Collectives". The allgathers and Bruck's alltoall run on packed bytes
 * (count x type size per block), sent as MPI_BYTE. */
#include <stdlib.h>
#include <string.h>

#include "coll_algo.h"
#include "coll_select.h"

static int is_pow2(int n) { return n > 0 && !(n & (n - 1)); }

static void *alloc_or_die(size_t bytes, const char *what) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    ft_fatal("out of memory in %s (%zu bytes)", what, bytes);
  return p;
}

/* ---- Allreduce ---- */

/* The fold of a non-power-of-two size before recursive doubling or
 * halving (SMPI's rdb and rab): of the first 2 x rem ranks, each even one
 * sends its `acc` to the odd one above, which combines it (`tmp` is
 * scratch). Sets *pof2, the largest power of two <= size, and *rem, the
 * ranks above it; returns this rank's number among the pof2 that go on,
 * -1 for a rank folded away. */
static int fold_in(struct ft_runtime *rt, void *acc, void *tmp, int count,
                   MPI_Datatype type, MPI_Op op, struct ft_comm *c, int *pof2,
                   int *rem) {
  int r = c->rank;
  *pof2 = 1;
  while (*pof2 * 2 <= c->size)
    *pof2 *= 2;
  *rem = c->size - *pof2;
  if (r < 2 * *rem && r % 2 == 0)
    ft_coll_send(acc, count, type, r + 1, FT_TAG_ALLREDUCE, c);
  if (r < 2 * *rem && r % 2 == 1) {
    ft_coll_recv(rt, tmp, count, type, r - 1, FT_TAG_ALLREDUCE, c);
    ft_coll_reduce_local(tmp, acc, count, type, op);
  }
  return r < 2 * *rem ? (r % 2 ? r / 2 : -1) : r - *rem;
}

/* The fold's end: each odd rank of the first 2 x rem gives the result back
 * to the even one below it. */
static void fold_out(struct ft_runtime *rt, void *acc, int count,
                     MPI_Datatype type, int rem, struct ft_comm *c) {
  int r = c->rank;
  if (r < 2 * rem && r % 2 == 1)
    ft_coll_send(acc, count, type, r - 1, FT_TAG_ALLREDUCE, c);
  if (r < 2 * rem && r % 2 == 0)
    ft_coll_recv(rt, acc, count, type, r + 1, FT_TAG_ALLREDUCE, c);
}

/* Recursive doubling (SMPI's allreduce__rdb); a non-power-of-two size
 * first folds its extra ranks into their even neighbours. Every rank
 * combines the same two partial results at every step, so all end
 * bit-identical. */
static void allreduce_doubling(struct ft_runtime *rt, void *acc, int count,
                               MPI_Datatype type, MPI_Op op,
                               struct ft_comm *c) {
  int pof2, rem;
  void *base, *tmp = ft_coll_scratch(count, type, &base);
  int newrank = fold_in(rt, acc, tmp, count, type, op, c, &pof2, &rem);
  for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int peer = newrank ^ mask;
    int dst = peer < rem ? peer * 2 + 1 : peer + rem;
    ft_coll_sendrecv(acc, count, type, dst, tmp, count, type, dst,
                     FT_TAG_ALLREDUCE, c);
    ft_coll_reduce_local(tmp, acc, count, type, op);
  }
  fold_out(rt, acc, count, type, rem, c);
  free(base);
}

/* Ring (SMPI's lr): p blocks of count / p elements; a reduce-scatter
 * around the ring (block b finished at rank b - 1), then an allgather
 * around the ring; the count % p elements left are reduced again by the
 * selector's algorithm. Each block is combined at one rank only, so every
 * rank ends with the same bits. Called with count >= p. */
static void allreduce_ring(struct ft_runtime *rt, void *acc, int count,
                           MPI_Datatype type, MPI_Op op, struct ft_comm *c) {
  int p = c->size, r = c->rank, each = count / p;
  int right = (r + 1) % p, left = (r - 1 + p) % p;
  void *base, *tmp = ft_coll_scratch(each, type, &base);
  for (int k = 0; k < p - 1; k++) {
    int out = (r - k + p) % p, in = (r - k - 1 + p) % p;
    ft_coll_sendrecv(ft_coll_at(acc, (MPI_Aint)out * each, type), each, type,
                     right, tmp, each, type, left, FT_TAG_ALLREDUCE, c);
    ft_coll_reduce_local(tmp, ft_coll_at(acc, (MPI_Aint)in * each, type), each,
                         type, op);
  }
  for (int k = 0; k < p - 1; k++) {
    int out = (r + 1 - k + p) % p, in = (r - k + p) % p;
    ft_coll_sendrecv(ft_coll_at(acc, (MPI_Aint)out * each, type), each, type,
                     right, ft_coll_at(acc, (MPI_Aint)in * each, type), each,
                     type, left, FT_TAG_ALLREDUCE, c);
  }
  free(base);
  if (count % p)
    ft_coll_allreduce_commutative(rt, ft_coll_at(acc, (MPI_Aint)each * p, type),
                                  count % p, type, op, c);
}

/* Rabenseifner's allreduce (SMPI's allreduce__rab_rdb, from MPICH): the
 * extra ranks fold in as in allreduce_doubling, a reduce-scatter by
 * recursive halving leaves each of the pof2 ranks one block of
 * count / pof2 elements, combined there only, and an allgather by
 * recursive doubling hands the blocks back. */
static void rab_halving(void *acc, void *tmp, MPI_Datatype type, MPI_Op op,
                        const int cnts[], const int disps[], int pof2,
                        int newrank, int rem, int *send_idx, int *last_idx,
                        struct ft_comm *c) {
  int recv_idx = 0;
  *send_idx = 0;
  *last_idx = pof2;
  for (int mask = 1; mask < pof2;) {
    int newdst = newrank ^ mask, send_cnt = 0, recv_cnt = 0;
    int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
    if (newrank < newdst) {
      *send_idx = recv_idx + pof2 / (mask * 2);
      for (int i = *send_idx; i < *last_idx; i++)
        send_cnt += cnts[i];
      for (int i = recv_idx; i < *send_idx; i++)
        recv_cnt += cnts[i];
    } else {
      recv_idx = *send_idx + pof2 / (mask * 2);
      for (int i = *send_idx; i < recv_idx; i++)
        send_cnt += cnts[i];
      for (int i = recv_idx; i < *last_idx; i++)
        recv_cnt += cnts[i];
    }
    ft_coll_sendrecv(ft_coll_at(acc, disps[*send_idx], type), send_cnt, type,
                     dst, ft_coll_at(tmp, disps[recv_idx], type), recv_cnt,
                     type, dst, FT_TAG_ALLREDUCE, c);
    ft_coll_reduce_local(ft_coll_at(tmp, disps[recv_idx], type),
                         ft_coll_at(acc, disps[recv_idx], type), recv_cnt, type,
                         op);
    *send_idx = recv_idx;
    mask <<= 1;
    if (mask < pof2)
      *last_idx = recv_idx + pof2 / mask;
  }
}

static void rab_doubling(void *acc, MPI_Datatype type, const int cnts[],
                         const int disps[], int pof2, int newrank, int rem,
                         int send_idx, int last_idx, struct ft_comm *c) {
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
    int newdst = newrank ^ mask, send_cnt = 0, recv_cnt = 0, recv_idx;
    int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
    if (newrank < newdst) {
      if (mask != pof2 / 2)
        last_idx = last_idx + pof2 / (mask * 2);
      recv_idx = send_idx + pof2 / (mask * 2);
      for (int i = send_idx; i < recv_idx; i++)
        send_cnt += cnts[i];
      for (int i = recv_idx; i < last_idx; i++)
        recv_cnt += cnts[i];
    } else {
      recv_idx = send_idx - pof2 / (mask * 2);
      for (int i = send_idx; i < last_idx; i++)
        send_cnt += cnts[i];
      for (int i = recv_idx; i < send_idx; i++)
        recv_cnt += cnts[i];
    }
    ft_coll_sendrecv(ft_coll_at(acc, disps[send_idx], type), send_cnt, type,
                     dst, ft_coll_at(acc, disps[recv_idx], type), recv_cnt,
                     type, dst, FT_TAG_ALLREDUCE, c);
    if (newrank > newdst)
      send_idx = recv_idx;
  }
}

static void allreduce_rabenseifner(struct ft_runtime *rt, void *acc, int count,
                                   MPI_Datatype type, MPI_Op op,
                                   struct ft_comm *c) {
  int pof2, rem;
  void *base, *tmp = ft_coll_scratch(count, type, &base);
  int newrank = fold_in(rt, acc, tmp, count, type, op, c, &pof2, &rem);
  if (newrank >= 0) {
    int *cnts = alloc_or_die((size_t)pof2 * sizeof *cnts, "an allreduce");
    int *disps = alloc_or_die((size_t)pof2 * sizeof *disps, "an allreduce");
    for (int i = 0; i < pof2; i++) {
      cnts[i] = i < pof2 - 1 ? count / pof2 : count - count / pof2 * (pof2 - 1);
      disps[i] = i ? disps[i - 1] + cnts[i - 1] : 0;
    }
    int send_idx, last_idx;
    rab_halving(acc, tmp, type, op, cnts, disps, pof2, newrank, rem, &send_idx,
                &last_idx, c);
    rab_doubling(acc, type, cnts, disps, pof2, newrank, rem, send_idx, last_idx,
                 c);
    free(cnts);
    free(disps);
  }
  fold_out(rt, acc, count, type, rem, c);
  free(base);
}

void ft_coll_allreduce_commutative(struct ft_runtime *rt, void *acc, int count,
                                   MPI_Datatype type, MPI_Op op,
                                   struct ft_comm *c) {
  if (c->size < 2)
    return;
  switch (ft_coll_select_allreduce(c->size, ft_coll_bytes(count, type), 1)) {
  case 1:
  case 2: /* SMPI's redbcast: reduce to 0, bcast from 0, both selected */
    ft_coll_reduce_commutative(rt, acc, count, type, op, 0, c);
    ft_coll_bcast(rt, acc, count, type, 0, c);
    break;
  case 3:
    allreduce_doubling(rt, acc, count, type, op, c);
    break;
  case 6:
    allreduce_rabenseifner(rt, acc, count, type, op, c);
    break;
  default: /* 4 ring; 5 segmented ring approximated by the ring (the same
              bandwidth term); fewer elements than ranks: reduce + bcast */
    if (count >= c->size) {
      allreduce_ring(rt, acc, count, type, op, c);
    } else {
      ft_coll_reduce_commutative(rt, acc, count, type, op, 0, c);
      ft_coll_bcast(rt, acc, count, type, 0, c);
    }
  }
}

/* ---- Alltoall ---- */

/* SMPI's alltoall__basic_linear (and alltoallv__ompi_basic_linear):
 * receives from every other rank posted first, then the sends, in reverse
 * order for alltoall; blocks of count x type at displacements in
 * elements, or (types) per rank. */
struct blocks {
  const int *counts, *displs; /* elements of type */
  MPI_Datatype type;
};

static char *block_at(const void *buf, const struct blocks *b, int i) {
  return ft_coll_at(buf, b->displs[i], b->type);
}

static void alltoall_linear(struct ft_runtime *rt, const void *sbuf,
                            const struct blocks *s, void *rbuf,
                            const struct blocks *rb, int reverse,
                            struct ft_comm *c) {
  int n = c->size, r = c->rank, k = 0;
  FT_PMPI(Sendrecv, block_at(sbuf, s, r), s->counts[r], s->type, 0, 0,
          block_at(rbuf, rb, r), rb->counts[r], rb->type, 0, 0, MPI_COMM_SELF,
          MPI_STATUS_IGNORE);
  struct ft_coll_recv *in = alloc_or_die((size_t)n * sizeof *in, "alltoall");
  MPI_Request *reqs = alloc_or_die((size_t)n * 2 * sizeof *reqs, "alltoall");
  for (int j = 1; j < n; j++) { /* alltoall's from r + 1, alltoallv's 0.. */
    int i = reverse ? (r + j) % n : j - 1 + (j - 1 >= r);
    in[k] = (struct ft_coll_recv){i, block_at(rbuf, rb, i), rb->counts[i],
                                  rb->type};
    ft_coll_irecv(&in[k], FT_TAG_ALLTOALL, c, &reqs[k]);
    k++;
  }
  for (int j = 1; j < n;
       j++) { /* alltoall's from r - 1 down, alltoallv's 0.. */
    int i = reverse ? (r - j + n) % n : j - 1 + (j - 1 >= r);
    ft_coll_isend(block_at(sbuf, s, i), s->counts[i], s->type, i,
                  FT_TAG_ALLTOALL, c, &reqs[k++]);
  }
  ft_coll_complete(rt, c, k, reqs, n - 1, in, FT_TAG_ALLTOALL);
  free(reqs);
  free(in);
}

/* Pairwise exchange: with rank ^ i on a power of two (SMPI's pair), with
 * rank + i and rank - i otherwise (Open MPI's pairwise; SMPI's own pair
 * refuses such sizes). */
static void alltoall_pairwise(const void *sbuf, const struct blocks *s,
                              void *rbuf, const struct blocks *rb,
                              struct ft_comm *c) {
  int n = c->size, r = c->rank, xor = is_pow2(n);
  for (int i = 0; i < n; i++) {
    int dst = xor? r ^ i : (r + i) % n, src = xor? r ^ i : (r - i + n) % n;
    ft_coll_sendrecv(block_at(sbuf, s, dst), s->counts[dst], s->type, dst,
                     block_at(rbuf, rb, src), rb->counts[src], rb->type, src,
                     FT_TAG_ALLTOALL, c);
  }
}

/* Packs block `index` (count x type at index x count) into dst. */
static void pack_block(char *dst, const void *buf, int index, int count,
                       MPI_Datatype type, struct ft_comm *c) {
  ft_coll_pack(dst, ft_coll_at(buf, (MPI_Aint)index * count, type), count, type,
               c);
}

static void unpack_block(void *buf, int index, const char *src, int count,
                         MPI_Datatype type, struct ft_comm *c) {
  ft_coll_unpack(ft_coll_at(buf, (MPI_Aint)index * count, type), src, count,
                 type, c);
}

/* Bruck's alltoall (SMPI's alltoall__bruck): the blocks rotated by this
 * rank, then at step 2^k the blocks whose index has bit k go to
 * rank + 2^k, replaced by those from rank - 2^k; then rotated back. */
static void alltoall_bruck(const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype,
                           struct ft_comm *c) {
  int n = c->size, r = c->rank;
  size_t block = ft_coll_bytes(scount, stype);
  char *all = alloc_or_die(block * (size_t)n, "an alltoall");
  char *out = alloc_or_die(block * (size_t)(n / 2 + 1), "an alltoall");
  char *in = alloc_or_die(block * (size_t)(n / 2 + 1), "an alltoall");
  for (int i = 0; i < n; i++) /* all[i]: for rank r + i */
    pack_block(all + block * (size_t)i, sbuf, (r + i) % n, scount, stype, c);
  for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
    int k = 0;
    for (int b = 1; b < n; b++)
      if (b & pof2)
        memcpy(out + block * (size_t)k++, all + block * (size_t)b, block);
    ft_coll_sendrecv(out, (int)(block * (size_t)k), MPI_BYTE, (r + pof2) % n,
                     in, (int)(block * (size_t)k), MPI_BYTE, (r - pof2 + n) % n,
                     FT_TAG_ALLTOALL, c);
    k = 0;
    for (int b = 1; b < n; b++)
      if (b & pof2)
        memcpy(all + block * (size_t)b, in + block * (size_t)k++, block);
  }
  for (int i = 0; i < n; i++) /* all[i] came from rank r - i */
    unpack_block(rbuf, (r - i + n) % n, all + block * (size_t)i, rcount, rtype,
                 c);
  free(all);
  free(out);
  free(in);
}

/* Regular blocks of `count` elements. */
static struct blocks regular_blocks(int count, MPI_Datatype type, int n,
                                    int **counts, int **displs) {
  *counts = alloc_or_die((size_t)n * sizeof **counts, "a collective");
  *displs = alloc_or_die((size_t)n * sizeof **displs, "a collective");
  for (int i = 0; i < n; i++) {
    (*counts)[i] = count;
    (*displs)[i] = i * count;
  }
  return (struct blocks){*counts, *displs, type};
}

static void alltoall_regular(struct ft_runtime *rt, const void *sbuf,
                             int scount, MPI_Datatype stype, void *rbuf,
                             int rcount, MPI_Datatype rtype,
                             struct ft_comm *c) {
  int alg = ft_coll_select_alltoall(c->size, ft_coll_bytes(scount, stype));
  if (alg == 3) {
    alltoall_bruck(sbuf, scount, stype, rbuf, rcount, rtype, c);
    return;
  }
  int *sc, *sd, *rc, *rd;
  struct blocks s = regular_blocks(scount, stype, c->size, &sc, &sd);
  struct blocks rb = regular_blocks(rcount, rtype, c->size, &rc, &rd);
  if (alg == 2)
    alltoall_pairwise(sbuf, &s, rbuf, &rb, c);
  else /* 1 linear, 4 linear_sync, 5 two_proc: SMPI's basic_linear */
    alltoall_linear(rt, sbuf, &s, rbuf, &rb, 1, c);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
}

void ft_coll_alltoall(struct ft_runtime *rt, const void *sbuf, int scount,
                      MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, struct ft_comm *c) {
  if (sbuf != MPI_IN_PLACE) {
    alltoall_regular(rt, sbuf, scount, stype, rbuf, rcount, rtype, c);
    return;
  }
  /* MPI_IN_PLACE (MPI-3.1, 5.8): the data to send is the receive buffer's,
   * sent from a packed copy as MPI_PACKED (received as any type of the same
   * signature, MPI-3.1, 4.2). */
  size_t bytes = ft_coll_bytes(rcount, rtype) * (size_t)c->size;
  char *copy = alloc_or_die(bytes, "an alltoall with MPI_IN_PLACE");
  int position = 0;
  if (bytes > 0)
    FT_PMPI(Pack, rbuf, rcount * c->size, rtype, copy, (int)bytes, &position,
            c->coll);
  alltoall_regular(rt, copy, (int)ft_coll_bytes(rcount, rtype), MPI_PACKED,
                   rbuf, rcount, rtype, c);
  free(copy);
}

void ft_coll_alltoallv(struct ft_runtime *rt, const void *sbuf,
                       const int scounts[], const int sdispls[],
                       MPI_Datatype stype, void *rbuf, const int rcounts[],
                       const int rdispls[], MPI_Datatype rtype,
                       struct ft_comm *c) {
  struct blocks s = {scounts, sdispls, stype}, rb = {rcounts, rdispls, rtype};
  if (ft_coll_select_alltoallv(c->size) == 2)
    alltoall_pairwise(sbuf, &s, rbuf, &rb, c);
  else
    alltoall_linear(rt, sbuf, &s, rbuf, &rb, 0, c);
}

/* ---- Allgather(v), on packed blocks: block i of `len[i]` bytes at
 * off[i] of `all` ---- */

struct packed {
  char *all;
  size_t *off, *len;
  int n;
};

/* Sends blocks first .. first + k - 1 (mod n) to dest and receives the
 * same number from source's side into blocks rfirst ... (mod n): the
 * blocks wrap, so they travel through a contiguous copy. */
static void exchange_blocks(const struct packed *p, int first, int k, int dest,
                            int rfirst, int rk, int source, struct ft_comm *c) {
  size_t sb = 0, rbytes = 0;
  for (int i = 0; i < k; i++)
    sb += p->len[(first + i) % p->n];
  for (int i = 0; i < rk; i++)
    rbytes += p->len[(rfirst + i) % p->n];
  char *out = alloc_or_die(sb, "an allgather"),
       *in = alloc_or_die(rbytes, "an allgather");
  size_t at = 0;
  for (int i = 0; i < k; i++) {
    int b = (first + i) % p->n;
    memcpy(out + at, p->all + p->off[b], p->len[b]);
    at += p->len[b];
  }
  ft_coll_sendrecv(out, (int)sb, MPI_BYTE, dest, in, (int)rbytes, MPI_BYTE,
                   source, FT_TAG_ALLGATHER, c);
  at = 0;
  for (int i = 0; i < rk; i++) {
    int b = (rfirst + i) % p->n;
    memcpy(p->all + p->off[b], in + at, p->len[b]);
    at += p->len[b];
  }
  free(out);
  free(in);
}

/* Ring: block r - i goes right, block r - i - 1 comes from the left. */
static void allgather_ring(const struct packed *p, struct ft_comm *c) {
  int n = p->n, r = c->rank;
  for (int i = 0; i < n - 1; i++)
    exchange_blocks(p, (r - i + n) % n, 1, (r + 1) % n, (r - i - 1 + n) % n, 1,
                    (r - 1 + n) % n, c);
}

/* Bruck: at distance 2^k, the blocks held (r, r + 1, ...) go to r - 2^k
 * and those of r + 2^k come in. */
static void allgather_bruck(const struct packed *p, struct ft_comm *c) {
  int n = p->n, r = c->rank;
  for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
    int k = pof2 < n - pof2 ? pof2 : n - pof2;
    exchange_blocks(p, r, k, (r - pof2 + n) % n, (r + pof2) % n, k,
                    (r + pof2) % n, c);
  }
}

/* Recursive doubling (SMPI's allgather__rdb, from MPICH), on regular
 * blocks: at step 2^i this rank and rank ^ 2^i exchange the blocks of
 * their subtrees of 2^i ranks; off a power of two, the ranks whose
 * partner does not exist get the missing blocks from a rank of their
 * subtree that has them, down a binomial tree. */
static void allgather_doubling(struct ft_runtime *rt, const struct packed *p,
                               struct ft_comm *c) {
  int n = p->n, rank = c->rank;
  size_t block = p->len[0];
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = rank ^ mask, dst_root = dst >> i << i, my_root = rank >> i << i;
    if (dst < n) {
      int mine = n - my_root < mask ? n - my_root : mask;
      int theirs = n - dst_root < mask ? n - dst_root : mask;
      exchange_blocks(p, my_root, mine, dst, dst_root, theirs, dst, c);
    }
    if (dst_root + mask <= n)
      continue;
    int done = n - my_root - mask, k = 0; /* blocks of the upper half held */
    for (int j = mask; j >>= 1;)
      k++;
    char *at = p->all + block * (size_t)(my_root + mask);
    for (int tmp_mask = mask >> 1; tmp_mask; tmp_mask >>= 1, k--) {
      int peer = rank ^ tmp_mask, tree_root = rank >> k << k;
      if (peer > rank && rank < tree_root + done && peer >= tree_root + done)
        ft_coll_send(at, (int)(block * (size_t)done), MPI_BYTE, peer,
                     FT_TAG_ALLGATHER, c);
      else if (peer < rank && peer < tree_root + done &&
               rank >= tree_root + done)
        ft_coll_recv(rt, at, (int)(block * (size_t)done), MPI_BYTE, peer,
                     FT_TAG_ALLGATHER, c);
    }
  }
}

/* Neighbour exchange (Chen et al., Open MPI's allgather_intra_neighborexchange)
 * on an even size: two blocks at a time with alternating neighbours. */
static void allgather_neighbor(const struct packed *p, struct ft_comm *c) {
  int n = p->n, r = c->rank, even = r % 2 == 0;
  int neighbor[2] = {even ? (r + 1) % n : (r - 1 + n) % n,
                     even ? (r - 1 + n) % n : (r + 1) % n};
  int from[2] = {even ? r : neighbor[0], even ? r : neighbor[0]};
  int offset[2] = {even ? 2 : -2, even ? -2 : 2};
  exchange_blocks(p, r, 1, neighbor[0], neighbor[0], 1, neighbor[0], c);
  int send_from = even ? r : from[0];
  for (int i = 1; i < n / 2; i++) {
    int par = i % 2;
    from[par] = (from[par] + offset[par] + n) % n;
    exchange_blocks(p, send_from, 2, neighbor[par], from[par], 2, neighbor[par],
                    c);
    send_from = from[par];
  }
}

/* SMPI's allgatherv__GB: a linear gather at rank 0, then a bcast. */
static void allgather_gather_bcast(struct ft_runtime *rt,
                                   const struct packed *p, size_t total,
                                   struct ft_comm *c) {
  if (c->rank != 0) {
    ft_coll_send(p->all + p->off[c->rank], (int)p->len[c->rank], MPI_BYTE, 0,
                 FT_TAG_ALLGATHER, c);
  } else {
    struct ft_coll_recv *in =
        alloc_or_die((size_t)p->n * sizeof *in, "an allgather");
    for (int i = 0; i < p->n; i++)
      in[i] = (struct ft_coll_recv){i ? i : MPI_PROC_NULL, p->all + p->off[i],
                                    (int)p->len[i], MPI_BYTE};
    ft_coll_recv_all(rt, c, p->n, in, FT_TAG_ALLGATHER);
    free(in);
  }
  ft_coll_bcast(rt, p->all, (int)total, MPI_BYTE, 0, c);
}

static void allgather_run(struct ft_runtime *rt, const struct packed *p,
                          size_t total, int regular, struct ft_comm *c) {
  int n = p->n;
  int alg = regular ? ft_coll_select_allgather(n, p->len[0])
                    : ft_coll_select_allgatherv(n, total / (size_t)n);
  if (!regular) /* the allgatherv numbering, turned into allgather's */
    alg = (int[]){0, 0, 2, 4, 5, 6}[alg];
  if (alg == 0)
    allgather_gather_bcast(rt, p, total, c);
  else if (alg == 3 && regular)
    allgather_doubling(rt, p, c);
  else if (alg == 2 || alg == 3) /* 3 for allgatherv: not selected */
    allgather_bruck(p, c);
  else if (alg == 5 && n % 2 == 0)
    allgather_neighbor(p, c);
  else /* 1 linear, 4 ring, 5 on an odd size, 6 two processes */
    allgather_ring(p, c);
}

void ft_coll_allgatherv(struct ft_runtime *rt, const void *sbuf, int scount,
                        MPI_Datatype stype, void *rbuf, const int counts[],
                        const int displs[], MPI_Datatype rtype, int regular,
                        struct ft_comm *c) {
  int n = c->size, r = c->rank;
  struct packed p = {.n = n};
  p.off = alloc_or_die((size_t)n * sizeof *p.off, "an allgather");
  p.len = alloc_or_die((size_t)n * sizeof *p.len, "an allgather");
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    p.off[i] = total;
    p.len[i] = ft_coll_bytes(counts[i], rtype);
    total += p.len[i];
  }
  p.all = alloc_or_die(total, "an allgather");
  if (sbuf == MPI_IN_PLACE)
    ft_coll_pack(p.all + p.off[r], ft_coll_at(rbuf, displs[r], rtype),
                 counts[r], rtype, c);
  else
    ft_coll_pack(p.all + p.off[r], sbuf, scount, stype, c);
  if (n > 1)
    allgather_run(rt, &p, total, regular, c);
  for (int i = 0; i < n; i++)
    if (!(i == r && sbuf == MPI_IN_PLACE))
      ft_coll_unpack(ft_coll_at(rbuf, displs[i], rtype), p.all + p.off[i],
                     counts[i], rtype, c);
  free(p.all);
  free(p.off);
  free(p.len);
}
