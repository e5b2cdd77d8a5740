/* c3coll: the cost of C3's collective protocol (c3-collectives, section 6,
 * Figures 9-12): MPI_Bcast, MPI_Gather and MPI_Allgather from 4 bytes to 4
 * MiB, and MPI_Barrier, each timed three ways on every rank of the world
 * (and MPI_Scatter, which the paper did not measure, as the bcast):
 *
 *  - native: the collective alone;
 *  - separate: the protocol's bits (colour and amLogging "sent together as a
 *    one byte block") in a collective of their own before the data's, as
 *    Figures 5-8 do with their first calls (bcast, scatter: a 1-byte bcast;
 * gather: a 1-byte gather; allgather and barrier: a 1-byte MPI_Allreduce with
 *    MPI_BOR of four flags, "some rank of colour c" and "some rank of
 *    colour c stopped logging" for c = 0, 1: Figure 5's two allreduces and
 *    Figure 8's allgather and reduce combined into one, as the paper
 *    suggests, which is all their logic reads), then the protocol logic
 *    (ft_c3_collective, protocols/c3/c3.h);
 *  - combined: the data and the byte copied into one contiguous buffer, one
 *    collective of size + 1 bytes, the parts copied out on receipt, then the
 *    logic. Section 6: "it includes the time to copy the message data and
 *    the control data to a contiguous region, the time for the single
 *    communication, and the time to separate the message and protocol data
 *    on receipt." Not for the barrier, which carries no data.
 *
 * A copy costs its bytes at --copy-mbps (MB/s) on the rank's host
 * (ft_compute: --host-gflops flop/s of the platform's hosts): the simulated
 * network does not see memory copies, and they are what makes the
 * combined form grow with the size. Rank 0 prints one line per operation
 * and size: "c3coll OP BYTES native_us separate_us combined_us" (the mean
 * over --iters of the slowest rank's time; combined "-" for the barrier).
 * --native-only 1: the native form only (separate and combined "-"): under
 * `--protocol c3` the runtime adds the piggyback to every message itself
 * (option piggyback=), which analysis/c3_collectives.sh measures.
 *
 * Verification: up to 64 KiB every received block carries a pattern of its
 * size, its origin and its repetition, checked in full, and the protocol
 * logic must decide nothing (no rank is checkpointing). Above 64 KiB the
 * buffers are SMPI's shared ones (SMPI_SHARED_MALLOC: 32 ranks x 32 blocks
 * of 4 MiB would need 8 GiB), copies are charged but not made, and only
 * the time is measured. No checkpoints: a benchmark of collectives under
 * `--protocol none`. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c3/c3.h"
#include "ft.h"

enum { MODES = 3, NATIVE = 0, SEPARATE = 1, COMBINED = 2 };
enum { VERIFY_MAX = 64 << 10 }; /* bytes: checked up to here */
enum op { BCAST, GATHER, ALLGATHER, SCATTER, BARRIER, OPS };
static const char *const op_names[OPS] = {"bcast", "gather", "allgather",
                                          "scatter", "barrier"};

/* The buffers of one size range: `all` and `packed_all` hold a block per
 * rank. */
struct bufs {
  unsigned char *data, *packed, *all, *packed_all;
  int shared; /* SMPI shared memory: not checked, copies not made */
};

struct bench {
  int rank, size, iters, modes;
  long max;
  double copy_mbps, host_gflops;
  struct bufs small, large;
  unsigned char *data, *all, *packed, *packed_all; /* the current range's */
  int verify;
  long bad;
};

static unsigned char pattern(long bytes, int origin, int rep, long i) {
  return (unsigned char)((uint64_t)(bytes * 31 + origin * 7 + rep * 13 + i) &
                         0xff);
}

static void fill(const struct bench *b, unsigned char *p, long n, int origin,
                 int rep) {
  for (long i = 0; b->verify && i < n; i++)
    p[i] = pattern(n, origin, rep, i);
}

static void check(struct bench *b, const unsigned char *p, long n, int origin,
                  int rep) {
  for (long i = 0; b->verify && i < n; i++)
    if (p[i] != pattern(n, origin, rep, i)) {
      b->bad++;
      return;
    }
}

/* A memory copy of n bytes: real, and charged at --copy-mbps. */
static void copy(struct bench *b, void *to, const void *from, long n) {
  if (b->verify)
    memcpy(to, from, (size_t)n);
  ft_compute((double)n / (b->copy_mbps * 1e6) * b->host_gflops * 1e9);
}

/* The protocol's byte: the colour (epoch parity) and the amLogging bit of
 * this rank's state (here, out of any checkpoint: epoch 0, not logging). */
static unsigned char my_bits(void) { return 0; }

/* The flags of the all-to-all and barrier exchange (MPI_BOR). */
static unsigned char flags_of(unsigned char bits) {
  int colour = bits & 1, logging = (bits >> 1) & 1;
  return (unsigned char)((1u << colour) | (logging ? 0u : 4u << colour));
}

/* One participant per combination the flags report, as ft_c3_collective
 * reads them: a colour other than mine is the next epoch when I am not
 * logging (somebody checkpointed), the previous one when I am. */
static int expand(unsigned char flags, unsigned char mine,
                  struct ft_piggyback *pb) {
  int n = 0, colour = mine & 1, logging = (mine >> 1) & 1;
  pb[n++] = (struct ft_piggyback){.epoch = 1, .logging = logging};
  for (int c = 0; c < 2; c++)
    for (int stopped = 0; stopped < 2; stopped++)
      if (flags & ((stopped ? 4u : 1u) << c))
        pb[n++] =
            (struct ft_piggyback){.epoch = c == colour ? 1 : (logging ? 0 : 2),
                                  .logging = stopped ? 0 : 1};
  return n;
}

/* The logic of Figures 5-8 on the bits this rank received. */
static void decide(struct bench *b, enum ft_c3_coll_class cls, int root,
                   const unsigned char *bits, int n) {
  struct ft_piggyback pb[1024];
  int suppress[1024], me = b->rank, ranks = b->size;
  if (cls == FT_C3_ALL_TO_ALL || cls == FT_C3_BARRIER) {
    ranks = expand(bits[0], my_bits(), pb);
    me = 0;
  } else {
    for (int p = 0; p < b->size; p++) {
      unsigned char v = n == b->size ? bits[p] : bits[0];
      pb[p] = (struct ft_piggyback){.epoch = v & 1, .logging = (v >> 1) & 1};
    }
  }
  struct ft_c3_coll in = {
      .cls = cls, .me = me, .root = root, .ranks = ranks, .bits = pb};
  struct ft_c3_coll_decision d;
  if (ft_c3_collective(&in, &d, suppress) != 0 || d.log_result ||
      d.n_suppress || d.reexec || d.checkpoint || d.stop_logging)
    b->bad++; /* nobody is checkpointing: nothing to decide */
}

static void bcast(struct bench *b, long n, int mode, int rep) {
  unsigned char bits[1] = {my_bits()};
  if (b->rank == 0)
    fill(b, b->data, n, 0, rep);
  if (mode == SEPARATE)
    MPI_Bcast(bits, 1, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (mode != COMBINED) {
    MPI_Bcast(b->data, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
  } else {
    if (b->rank == 0) {
      copy(b, b->packed, b->data, n);
      b->packed[n] = bits[0];
    }
    MPI_Bcast(b->packed, (int)n + 1, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (b->rank != 0) {
      copy(b, b->data, b->packed, n);
      bits[0] = b->packed[n];
    }
  }
  if (mode != NATIVE)
    decide(b, FT_C3_SINGLE_SENDER, 0, bits, 1);
  check(b, b->data, n, 0, rep);
}

/* Gather and allgather: block p of `all` (n bytes each) is rank p's. */
static void check_blocks(struct bench *b, long n, int rep) {
  for (int p = 0; p < b->size; p++)
    check(b, b->all + (long)p * n, n, p, rep);
}

static void unpack_all(struct bench *b, long n, unsigned char *bits) {
  for (int p = 0; p < b->size; p++) {
    copy(b, b->all + (long)p * n, b->packed_all + (long)p * (n + 1), n);
    bits[p] = b->packed_all[(long)p * (n + 1) + n];
  }
}

static void gather(struct bench *b, long n, int mode, int rep, int all) {
  unsigned char mine = my_bits(), bits[1024];
  int root = all ? -1 : 0, receiver = all || b->rank == 0;
  fill(b, b->data, n, b->rank, rep);
  unsigned char flags = flags_of(mine);
  if (mode == SEPARATE && all)
    MPI_Allreduce(&flags, bits, 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  else if (mode == SEPARATE)
    MPI_Gather(&mine, 1, MPI_BYTE, bits, 1, MPI_BYTE, 0, MPI_COMM_WORLD);
  void *sbuf = b->data, *rbuf = b->all;
  int count = (int)n;
  if (mode == COMBINED) {
    copy(b, b->packed, b->data, n);
    b->packed[n] = mine;
    sbuf = b->packed;
    rbuf = b->packed_all;
    count = (int)n + 1;
  }
  if (all)
    MPI_Allgather(sbuf, count, MPI_BYTE, rbuf, count, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Gather(sbuf, count, MPI_BYTE, rbuf, count, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (mode == COMBINED && receiver)
    unpack_all(b, n, bits);
  if (mode == COMBINED && all) { /* every rank's byte came with the data */
    unsigned char f = 0;
    for (int p = 0; p < b->size; p++)
      f |= flags_of(bits[p]);
    bits[0] = f;
  }
  if (mode != NATIVE && receiver)
    decide(b, all ? FT_C3_ALL_TO_ALL : FT_C3_SINGLE_RECEIVER, root, bits,
           b->size);
  if (receiver)
    check_blocks(b, n, rep);
}

/* Scatter (single-sender, Figure 7, as the bcast): block p of the root's
 * `all` (n bytes each) goes to rank p; combined, the root copies every
 * block with its byte into `packed_all` and every rank copies its block
 * out of `packed`. */
static void scatter(struct bench *b, long n, int mode, int rep) {
  unsigned char bits[1] = {my_bits()};
  for (int p = 0; b->rank == 0 && p < b->size; p++)
    fill(b, b->all + (long)p * n, n, p, rep);
  if (mode == SEPARATE)
    MPI_Bcast(bits, 1, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (mode != COMBINED) {
    MPI_Scatter(b->all, (int)n, MPI_BYTE, b->data, (int)n, MPI_BYTE, 0,
                MPI_COMM_WORLD);
  } else {
    for (int p = 0; b->rank == 0 && p < b->size; p++) {
      copy(b, b->packed_all + (long)p * (n + 1), b->all + (long)p * n, n);
      b->packed_all[(long)p * (n + 1) + n] = bits[0];
    }
    MPI_Scatter(b->packed_all, (int)n + 1, MPI_BYTE, b->packed, (int)n + 1,
                MPI_BYTE, 0, MPI_COMM_WORLD);
    copy(b, b->data, b->packed, n);
    bits[0] = b->packed[n];
  }
  if (mode != NATIVE)
    decide(b, FT_C3_SINGLE_SENDER, 0, bits, 1);
  check(b, b->data, n, b->rank, rep);
}

/* Figure 8: the bits exchanged before the barrier, the potential
 * checkpoint decided, then the barrier. */
static void barrier(struct bench *b, int mode) {
  unsigned char mine = my_bits(), bits[1024];
  if (mode == SEPARATE) {
    unsigned char flags = flags_of(mine);
    MPI_Allreduce(&flags, bits, 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    decide(b, FT_C3_BARRIER, -1, bits, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void one(struct bench *b, enum op op, long n, int mode, int rep) {
  switch (op) {
  case BCAST:
    bcast(b, n, mode, rep);
    break;
  case GATHER:
    gather(b, n, mode, rep, 0);
    break;
  case ALLGATHER:
    gather(b, n, mode, rep, 1);
    break;
  case SCATTER:
    scatter(b, n, mode, rep);
    break;
  default:
    barrier(b, mode);
  }
}

/* The mean over the repetitions of the slowest rank's time, in us. */
static double timed(struct bench *b, enum op op, long n, int mode) {
  double total = 0;
  for (int rep = -1; rep < b->iters; rep++) { /* rep -1: warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    one(b, op, n, mode, rep + 1);
    double dt = MPI_Wtime() - t0, slowest = 0;
    MPI_Reduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rep >= 0)
      total += slowest;
  }
  return total / b->iters * 1e6;
}

/* Points the current buffers at the range of size n. */
static void use(struct bench *b, long n) {
  const struct bufs *u = n <= VERIFY_MAX ? &b->small : &b->large;
  b->data = u->data;
  b->packed = u->packed;
  b->all = u->all;
  b->packed_all = u->packed_all;
  b->verify = !u->shared;
}

static void run(struct bench *b) {
  for (int op = 0; op < OPS; op++)
    for (long n = 4; n <= b->max; n *= 4) {
      double us[MODES];
      use(b, n);
      for (int m = 0; m < MODES; m++)
        us[m] = m >= b->modes || (op == BARRIER && m == COMBINED)
                    ? -1
                    : timed(b, (enum op)op, n, m);
      if (b->rank == 0 && b->modes == 1)
        printf("c3coll %s %ld %.3f - -\n", op_names[op], op == BARRIER ? 0 : n,
               us[0]);
      else if (b->rank == 0 && op == BARRIER)
        printf("c3coll %s %ld %.3f %.3f -\n", op_names[op], 0L, us[0], us[1]);
      else if (b->rank == 0)
        printf("c3coll %s %ld %.3f %.3f %.3f\n", op_names[op], n, us[0], us[1],
               us[2]);
      if (op == BARRIER) /* no size */
        break;
    }
}

/* Allocates the buffers of blocks of up to `max` bytes: private ones, or
 * SMPI's shared ones (one per call site, so four sites). */
static int allocate(struct bufs *u, long max, int ranks, int is_shared) {
  size_t one = (size_t)max + 1, all = (size_t)ranks * one;
  u->shared = is_shared;
#ifdef SMPI_SHARED_MALLOC
  if (is_shared) {
    u->data = SMPI_SHARED_MALLOC(one);
    u->packed = SMPI_SHARED_MALLOC(one);
    u->all = SMPI_SHARED_MALLOC(all);
    u->packed_all = SMPI_SHARED_MALLOC(all);
    return u->data && u->packed && u->all && u->packed_all;
  }
#endif
  u->data = calloc(one, 1);
  u->packed = calloc(one, 1);
  u->all = calloc(all, 1);
  u->packed_all = calloc(all, 1);
  return u->data && u->packed && u->all && u->packed_all;
}

static void release(struct bufs *u) {
#ifdef SMPI_SHARED_MALLOC
  if (u->shared) {
    SMPI_SHARED_FREE(u->data);
    SMPI_SHARED_FREE(u->packed);
    SMPI_SHARED_FREE(u->all);
    SMPI_SHARED_FREE(u->packed_all);
    return;
  }
#endif
  free(u->data);
  free(u->packed);
  free(u->all);
  free(u->packed_all);
}

static int options(struct bench *b, int argc, char **argv) {
  b->iters = 3;
  b->modes = MODES;
  b->max = 4L << 20;
  b->copy_mbps = 300;
  b->host_gflops = 1.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--iters") == 0)
      b->iters = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--native-only") == 0)
      b->modes = atoi(argv[i + 1]) ? 1 : MODES;
    else if (strcmp(argv[i], "--max") == 0)
      b->max = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--copy-mbps") == 0)
      b->copy_mbps = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--host-gflops") == 0)
      b->host_gflops = atof(argv[i + 1]);
    else
      return 0;
  }
  return argc % 2 == 1 && b->iters > 0 && b->max >= 4 && b->max <= 64L << 20 &&
         b->copy_mbps > 0 && b->host_gflops > 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct bench b = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &b.size);
  if (!options(&b, argc, argv) || b.size > 1024) {
    if (b.rank == 0)
      fprintf(stderr, "c3coll: usage: c3coll [--iters N] [--max BYTES] "
                      "[--copy-mbps MB/s] [--host-gflops G] [--native-only "
                      "0|1] (at most 1024 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  long small = b.max < VERIFY_MAX ? b.max : VERIFY_MAX;
  if (!allocate(&b.small, small, b.size, 0) ||
      (b.max > VERIFY_MAX && !allocate(&b.large, b.max, b.size, 1))) {
    fprintf(stderr, "c3coll: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  run(&b);
  long bad = 0;
  MPI_Reduce(&b.bad, &bad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (b.rank == 0)
    ft_report_result(bad == 0, (double)bad);
  release(&b.small);
  if (b.max > VERIFY_MAX)
    release(&b.large);
  MPI_Finalize();
  return 0;
}
