/* pingpong: NetPIPE-like latency and bandwidth between ranks 0 and 1.
 *
 * For each message size (default 1 B to 4 MiB, powers of 2), ranks 0 and 1
 * exchange --iters round trips, after --warmup untimed ones, on a duplicate
 * of MPI_COMM_WORLD; rank 0 prints the size, the one-way time (half the mean
 * round trip, as NetPIPE reports it) and the bandwidth in Mb/s (10^6 bit/s).
 * Ranks beyond 1 take part only in the barriers and the final verdict.
 *
 * --any-source is the variant of pessimist-openmpi-v.txt, section 4.2: "we
 * modified the NetPIPE benchmark code; every Recv has been replaced by the
 * sequence of an any source iRecv and a WaitAny", which makes two
 * non-deterministic events per message for a message-logging protocol.
 *
 * Verification: every message carries a byte pattern that depends on its
 * size, its round trip and its direction; every receive checks the whole
 * payload, the source and the received count. The check costs a pass over
 * the buffer inside the timed loop (negligible in simulation, where only
 * ft_compute and messages take simulated time).
 *
 * Checkpoints (ft.h): one safe point per round trip (see run()); protected:
 * the round trips done, the message counts and the current size's start
 * time. After a rollback main() runs again from the top (the sizes are
 * parsed and the communicator duplicated again) and the first ft_snapshot
 * restores the rest; lines printed between the checkpoint and the failure
 * are printed again. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ft.h"

enum { PING_TAG = 1, PONG_TAG = 2, MAX_SIZES = 64 };

struct pp_opts {
  const char *sizes;
  int iters, warmup, any_source;
  double flops;
};

struct pp {
  struct pp_opts o;
  MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD: the benchmark's own */
  int rank, size;
  long sizes[MAX_SIZES];
  int nsizes;
  unsigned char *buf;
  long checked, corrupt; /* messages received and checked; bad ones */
  long step;             /* round trips done, warm-up ones included */
  double t0;             /* start of the current size's timed round trips */
};

/* ft_protect ids. */
enum { ID_STEP, ID_CHECKED, ID_CORRUPT, ID_T0 };

/* ---- Message sizes ---- */

/* Parses "123", "4k", "4K" (1024), "4M", "1G" into *bytes; 0 on error. */
static int parse_bytes(const char *text, long *bytes) {
  char *end;
  long v = strtol(text, &end, 10), unit = 1;
  if (end == text || v < 0)
    return 0;
  if (*end == 'k' || *end == 'K')
    unit = 1L << 10;
  else if (*end == 'm' || *end == 'M')
    unit = 1L << 20;
  else if (*end == 'g' || *end == 'G')
    unit = 1L << 30;
  if (unit > 1)
    end++;
  if (*end != '\0' || v > INT_MAX / unit)
    return 0;
  *bytes = v * unit;
  return 1;
}

/* Adds the powers of 2 of [lo, hi] (lo itself first, if not one). */
static int add_range(struct pp *p, long lo, long hi) {
  for (long s = lo; s <= hi; s = s < 1 ? 1 : s * 2) {
    if (p->nsizes == MAX_SIZES)
      return 0;
    p->sizes[p->nsizes++] = s;
    if (s > 0 && (s & (s - 1)) != 0) /* continue from the next power of 2 */
      while ((s & (s - 1)) != 0)
        s &= s - 1;
  }
  return 1;
}

/* Parses one element of --sizes: "N" or "LO:HI" (powers of 2 between). */
static int add_item(struct pp *p, char *item) {
  char *colon = strchr(item, ':');
  long lo, hi;
  if (colon) {
    *colon = '\0';
    return parse_bytes(item, &lo) && parse_bytes(colon + 1, &hi) && lo <= hi &&
           add_range(p, lo, hi);
  }
  if (!parse_bytes(item, &lo) || p->nsizes == MAX_SIZES)
    return 0;
  p->sizes[p->nsizes++] = lo;
  return 1;
}

/* Parses the comma-separated --sizes list; 0 if it is malformed. */
static int parse_sizes(struct pp *p, const char *list) {
  char copy[512];
  if (strlen(list) >= sizeof copy || list[0] == '\0')
    return 0;
  strcpy(copy, list);
  p->nsizes = 0;
  for (char *item = copy, *next; item; item = next) {
    next = strchr(item, ',');
    if (next)
      *next++ = '\0';
    if (!add_item(p, item))
      return 0;
  }
  return p->nsizes > 0;
}

static long max_size(const struct pp *p) {
  long m = 1;
  for (int i = 0; i < p->nsizes; i++)
    m = p->sizes[i] > m ? p->sizes[i] : m;
  return m;
}

/* ---- Payload ---- */

static unsigned char pattern_seed(long bytes, int round, int tag) {
  return (unsigned char)(app_mix64(((uint64_t)bytes << 24) ^
                                   ((uint64_t)round << 2) ^ (uint64_t)tag) &
                         0xff);
}

/* Byte i of a message is seed + 131 i (mod 256): a shift, a truncation or
 * a stale buffer from another round or size shows. */
static void fill(unsigned char *buf, long bytes, int round, int tag) {
  unsigned char seed = pattern_seed(bytes, round, tag);
  for (long i = 0; i < bytes; i++)
    buf[i] = (unsigned char)(seed + 131u * (unsigned long)i);
}

static int intact(const unsigned char *buf, long bytes, int round, int tag) {
  unsigned char seed = pattern_seed(bytes, round, tag);
  for (long i = 0; i < bytes; i++)
    if (buf[i] != (unsigned char)(seed + 131u * (unsigned long)i))
      return 0;
  return 1;
}

/* ---- One round trip ---- */

/* Receives `bytes` from `peer`: MPI_Recv, or with --any-source an
 * MPI_Irecv(MPI_ANY_SOURCE) completed by MPI_Waitany. */
static void receive(struct pp *p, long bytes, int peer, int tag, int round) {
  MPI_Status st;
  int count, index;
  if (p->o.any_source) {
    MPI_Request req;
    MPI_Irecv(p->buf, (int)bytes, MPI_BYTE, MPI_ANY_SOURCE, tag, p->comm, &req);
    MPI_Waitany(1, &req, &index, &st);
  } else {
    MPI_Recv(p->buf, (int)bytes, MPI_BYTE, peer, tag, p->comm, &st);
  }
  MPI_Get_count(&st, MPI_BYTE, &count);
  p->checked++;
  if (st.MPI_SOURCE != peer || count != bytes ||
      !intact(p->buf, bytes, round, tag))
    p->corrupt++;
}

static void send(struct pp *p, long bytes, int peer, int tag, int round) {
  fill(p->buf, bytes, round, tag);
  MPI_Send(p->buf, (int)bytes, MPI_BYTE, peer, tag, p->comm);
}

static void round_trip(struct pp *p, long bytes, int round) {
  if (p->rank == 0) {
    send(p, bytes, 1, PING_TAG, round);
    receive(p, bytes, 1, PONG_TAG, round);
  } else if (p->rank == 1) {
    receive(p, bytes, 0, PING_TAG, round);
    ft_compute(p->o.flops);
    send(p, bytes, 0, PONG_TAG, round);
  }
}

static void report_size(const struct pp *p, long bytes, double one_way) {
  if (p->rank != 0)
    return;
  double mbps = one_way > 0 ? (double)bytes * 8.0 / one_way / 1e6 : 0.0;
  printf("%10ld bytes %8d times %12.3f us %12.3f Mb/s\n", bytes, p->o.iters,
         one_way * 1e6, mbps);
}

/* Every round trip of every size, warm-up ones first for each size. The
 * safe point is at the top of each round trip, on every rank (ranks beyond
 * 1 only call ft_snapshot): a round trip's ping and pong are both received
 * within it, so nothing is in flight there; a safe point between a ping and
 * its pong would leave one in flight. The size and the round come from the
 * protected step count; the mean one-way time of a size is reported after
 * its last round trip. */
static void run(struct pp *p) {
  long per_size = (long)p->o.warmup + p->o.iters;
  long steps = per_size * p->nsizes;
  for (p->step = 0; p->step < steps; p->step++) {
    ft_snapshot(); /* may restore step, checked, corrupt, t0 */
    long bytes = p->sizes[p->step / per_size];
    int round = (int)(p->step % per_size) - p->o.warmup;
    if (round == 0) {
      MPI_Barrier(p->comm);
      p->t0 = MPI_Wtime();
    }
    round_trip(p, bytes, round < 0 ? -1 - (round + p->o.warmup) : round);
    if (round == p->o.iters - 1)
      report_size(p, bytes, (MPI_Wtime() - p->t0) / (2.0 * p->o.iters));
  }
}

/* ---- Main ---- */

static int conclude(struct pp *p) {
  long local[2] = {p->checked, p->corrupt}, sum[2];
  MPI_Allreduce(local, sum, 2, MPI_LONG, MPI_SUM, p->comm);
  long expect = 2L * (p->o.iters + p->o.warmup) * p->nsizes;
  int ok = sum[1] == 0 && sum[0] == expect;
  if (p->rank == 0)
    printf("pingpong: %d sizes, %ld messages checked (expected %ld), %ld "
           "corrupt: %s\n",
           p->nsizes, sum[0], expect, sum[1], app_verdict_word(ok));
  return app_verdict(ok, (double)sum[0]);
}

static void setup(struct pp *p, const struct pp_opts *o) {
  p->o = *o;
  if (!parse_sizes(p, o->sizes))
    app_usage_error("pingpong",
                    "option --sizes: '%s' is not a list of sizes (e.g. "
                    "1:4M or 0,8,1k,64K; at most %d, each below 2 GiB)",
                    o->sizes, MAX_SIZES);
  MPI_Comm_dup(MPI_COMM_WORLD, &p->comm);
  MPI_Comm_rank(p->comm, &p->rank);
  MPI_Comm_size(p->comm, &p->size);
  if (p->size < 2)
    app_usage_error("pingpong", "needs at least 2 ranks (got %d)", p->size);
  p->buf = app_calloc("pingpong", (size_t)max_size(p), 1);
  p->checked = p->corrupt = 0;
  p->step = 0;
  p->t0 = 0;
  ft_protect(ID_STEP, &p->step, sizeof p->step);
  ft_protect(ID_CHECKED, &p->checked, sizeof p->checked);
  ft_protect(ID_CORRUPT, &p->corrupt, sizeof p->corrupt);
  ft_protect(ID_T0, &p->t0, sizeof p->t0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct pp_opts o = {.sizes = "1:4M", .iters = 20, .warmup = 2};
  const struct app_opt opts[] = {
      {"sizes", APP_OPT_STRING, &o.sizes, 0, 0, "LIST",
       "message sizes: N or LO:HI (powers of 2), comma-separated, "
       "suffixes k M G (default 1:4M)"},
      {"iters", APP_OPT_INT, &o.iters, 1, 1e8, "N",
       "timed round trips per size (default 20)"},
      {"warmup", APP_OPT_INT, &o.warmup, 0, 1e6, "N",
       "untimed round trips before them (default 2)"},
      {"any-source", APP_OPT_FLAG, &o.any_source, 0, 0, "",
       "receive with MPI_Irecv(MPI_ANY_SOURCE) + MPI_Waitany"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops by rank 1 between ping and pong (default 0)"},
  };
  const struct app_spec spec = {"pingpong",
                                "NetPIPE-like ping-pong between ranks 0 and 1",
                                opts, sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  struct pp p;
  setup(&p, &o);
  if (p.rank == 0)
    printf("# pingpong: ranks 0 and 1 of %d, receives by %s\n", p.size,
           o.any_source ? "MPI_Irecv(MPI_ANY_SOURCE) + MPI_Waitany"
                        : "MPI_Recv");
  run(&p);
  conclude(&p);
  free(p.buf);
  MPI_Comm_free(&p.comm);
  MPI_Finalize();
  return 0;
}
