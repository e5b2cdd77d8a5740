/* calibrate.c: NetPIPE-style MPI ping-pong used to check a platform file.
 *
 * Plain MPI (no ftsim runtime), built for SMPI (analysis/smpi/calibrate, run
 * by analysis/calibrate.sh) and, when a real MPI is found, for mpirun
 * (analysis/real/calibrate) so the same numbers can be taken on hardware.
 *
 *   calibrate names
 *       every rank sends its host name to rank 0, which prints
 *       "host RANK NAME" in rank order (loads the platform and checks that
 *       every host can reach rank 0's host); under SMPI, rank 0 also prints
 *       "platform_host NAME" for every host the platform declares (SimGrid
 *       lists them sorted by name, not in the XML's order).
 *   calibrate [-r ROUNDS] [-s BYTES]... [-t TESTS] A:B [C:D ...]
 *       ranks A and B ping-pong (the others wait at a barrier), then C and D,
 *       and so on.  A prints one line per pair:
 *         pair HOST_A HOST_B lat_us X bw_mbps@BYTES Y ...
 *       lat_us is the one-way time of a 1-byte message; bw_mbps@S is
 *       S * 8 / one-way time of an S-byte message, in 10^6 bit/s (NetPIPE's
 *       Mbps).  Each is half the median of ROUNDS timed round trips
 *       (default 20) after one untimed warm-up round trip.  Default size: 1
 * MiB.  With -t, the line ends with "test_us Z iprobe_us W": the time of one
 *       MPI_Test that finds nothing and of one MPI_Iprobe that finds
 *       nothing, each averaged over TESTS calls (ftsim calibrate sets
 *       smpi/test and smpi/iprobe from them).
 *   calibrate service [-r ROUNDS] [-g GAP_US]   (3 ranks or more)
 *       the round trip to a service process the way reference mode's
 *       ranks wait for an event logger (message logging): rank 2 serves as
 *       ftsim's services wait (waiter_policy.h: it spins 50 us after an
 *       answer, then naps, 1 us doubling to 100 us), rank 1 waits in
 *       MPI_Recv (Open MPI polls) until the end, and rank 0, after
 *       WARMUP untimed rounds (Open MPI's first messages set up the
 *       connection), ROUNDS times (default 300), computes GAP_US (default
 *       2000, long enough for the service to nap) then sends one int to
 *       rank 2 and waits for the answer. On a machine with as many cores
 *       as ranks 0 and 1, the service must wake and get a core for each
 *       answer. Rank 0 prints
 *         service rtt_us MEAN median_us MEDIAN max_us MAX
 *       ftsim calibrate takes the median: the mean follows the few rounds
 *       in which the woken service waited milliseconds for a core (2-10%
 *       of them on a shared 2-core VM), and moved from 67 to 235 us
 *       between runs minutes apart while the median stayed at 40-57 us.
 *   calibrate send [-r ROUNDS] [-g GAP_US]   (2 ranks or more)
 *       what a blocking send costs beside napping service processes:
 *       rank 0, after WARMUP untimed rounds, ROUNDS times (default 20000)
 *       computes GAP_US (default 55, lu's time between two sends of its
 *       pipeline) then sends 2600 bytes to rank 1 with MPI_Send; rank 1
 *       receives each and computes 40 us; ranks 2 and up nap as ftsim's
 *       services do when nothing comes (1 us doubling to 100 us) until
 *       rank 0 stops them. Rank 0 prints
 *         send ranks N mean_us MEAN median_us MEDIAN p90_us P90
 *       (with -np 2 the send alone; -np 3 beside one service, as reference
 *       mode places an event logger or a checkpoint server).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#ifdef FTSIM_SMPI
#include <simgrid/host.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "waiter_policy.h"

enum {
  MAX_SIZES = 8,
  NAME_LEN = MPI_MAX_PROCESSOR_NAME,
  WARMUP = 20 /* calibrate service: untimed rounds first */
};

struct options {
  int rounds;
  long tests; /* -t: unsuccessful MPI_Test calls to time (0: none) */
  int nsizes;
  long sizes[MAX_SIZES];
  int first_pair; /* index in argv of the first A:B argument */
};

struct pair_spec {
  int a;
  int b;
};

/* One-way time of a `bytes`-byte message between this rank and `peer`,
 * averaged over `rounds` round trips after one warm-up round trip that also
 * lines the two ranks up after the barrier. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One-way time of a `bytes` message between this rank and `peer`: half the
 * median of `rounds` timed round trips, after one untimed. The median, not
 * the mean: on a shared machine a few round trips wait for a core, and the
 * mean of 200 8-MiB round trips read 23.2 Gb/s where the median of the
 * same machine's next run gives 75.5 (ftsim calibrate, minutes apart,
 * load 2-3; pingpong's cross-check error +42% and +1.1% with each). The
 * peer's value is meaningless (only the initiator prints). */
static double one_way_time(char *buf, int bytes, int peer, int initiator,
                           int rounds) {
  double *t = malloc((size_t)rounds * sizeof *t);
  if (!t) {
    fprintf(stderr, "calibrate: out of memory for %d round trips\n", rounds);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = -1; i < rounds; i++) {
    double t0 = MPI_Wtime();
    if (initiator) {
      MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    }
    if (i >= 0)
      t[i] = MPI_Wtime() - t0;
  }
  qsort(t, (size_t)rounds, sizeof *t, cmp_double);
  double median =
      rounds % 2 ? t[rounds / 2] : 0.5 * (t[rounds / 2 - 1] + t[rounds / 2]);
  free(t);
  return median / 2.0;
}

/* Seconds per MPI_Test call that finds nothing: the initiator posts a
 * receive its peer satisfies only after `tests` calls (told by a message),
 * so that every timed call is unsuccessful. */
static double test_time(long tests, int peer, int initiator) {
  char token = 0;
  if (!initiator) {
    MPI_Recv(&token, 1, MPI_CHAR, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
    return 0;
  }
  MPI_Request req;
  int flag = 0;
  MPI_Irecv(&token, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD, &req);
  double t0 = MPI_Wtime();
  for (long i = 0; i < tests && !flag; i++)
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
  double t = (MPI_Wtime() - t0) / (double)tests;
  MPI_Send(&token, 1, MPI_CHAR, peer, 4, MPI_COMM_WORLD);
  if (!flag)
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  return t;
}

/* Seconds per MPI_Iprobe call that finds nothing: the initiator probes
 * for a message its peer sends only after `probes` calls (told by a
 * message), then receives it. */
static double iprobe_time(long probes, int peer, int initiator) {
  char token = 0;
  if (!initiator) {
    MPI_Recv(&token, 1, MPI_CHAR, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&token, 1, MPI_CHAR, peer, 5, MPI_COMM_WORLD);
    return 0;
  }
  int flag = 0;
  double t0 = MPI_Wtime();
  for (long i = 0; i < probes && !flag; i++)
    MPI_Iprobe(peer, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  double t = (MPI_Wtime() - t0) / (double)probes;
  MPI_Send(&token, 1, MPI_CHAR, peer, 6, MPI_COMM_WORLD);
  MPI_Recv(&token, 1, MPI_CHAR, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return t;
}

/* This rank's processor name (the SMPI host), zero-padded to NAME_LEN. */
static void my_name(char name[NAME_LEN]) {
  int len = 0;
  memset(name, 0, NAME_LEN);
  MPI_Get_processor_name(name, &len);
}

/* Point-to-point only: SMPI 3.32's default MPI_Allgather (an Iallgather that
 * posts all N^2 messages at once) took 14 s to 3 min of wall-clock time for
 * 100-byte names at 224 ranks. */
static void exchange_names(int peer, char mine[NAME_LEN],
                           char theirs[NAME_LEN]) {
  MPI_Sendrecv(mine, NAME_LEN, MPI_CHAR, peer, 1, theirs, NAME_LEN, MPI_CHAR,
               peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int parse_pair(const char *arg, int nranks, struct pair_spec *p) {
  char extra;
  if (sscanf(arg, "%d:%d%c", &p->a, &p->b, &extra) != 2)
    return -1;
  if (p->a < 0 || p->b < 0 || p->a >= nranks || p->b >= nranks || p->a == p->b)
    return -1;
  return 0;
}

static int parse_positive(const char *arg, long max, long *out) {
  char *end = NULL;
  long v = strtol(arg, &end, 10);
  if (!arg[0] || *end || v <= 0 || v > max)
    return -1;
  *out = v;
  return 0;
}

static int parse_options(int argc, char **argv, struct options *o) {
  o->rounds = 20;
  o->tests = 0;
  o->nsizes = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i += 2) {
    long v = 0;
    if (i + 1 >= argc || parse_positive(argv[i + 1], 1L << 30, &v) != 0)
      return -1;
    if (strcmp(argv[i], "-r") == 0)
      o->rounds = (int)v;
    else if (strcmp(argv[i], "-t") == 0)
      o->tests = v;
    else if (strcmp(argv[i], "-s") == 0 && o->nsizes < MAX_SIZES)
      o->sizes[o->nsizes++] = v;
    else
      return -1;
  }
  if (o->nsizes == 0)
    o->sizes[o->nsizes++] = 1L << 20;
  o->first_pair = i;
  return i < argc ? 0 : -1;
}

static long max_size(const struct options *o) {
  long m = 1;
  for (int i = 0; i < o->nsizes; i++)
    m = o->sizes[i] > m ? o->sizes[i] : m;
  return m;
}

/* Runs one pair; the initiator (pair.a) prints the result line. */
static void measure_pair(const struct options *o, struct pair_spec pair,
                         int rank, char *buf) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != pair.a && rank != pair.b)
    return;
  int initiator = rank == pair.a;
  int peer = initiator ? pair.b : pair.a;
  char mine[NAME_LEN];
  char theirs[NAME_LEN];
  my_name(mine);
  exchange_names(peer, mine, theirs);
  double lat = one_way_time(buf, 1, peer, initiator, o->rounds);
  double bw[MAX_SIZES];
  for (int i = 0; i < o->nsizes; i++) {
    double t = one_way_time(buf, (int)o->sizes[i], peer, initiator, o->rounds);
    bw[i] = (double)o->sizes[i] * 8.0 / t / 1e6;
  }
  double test = o->tests ? test_time(o->tests, peer, initiator) : 0;
  double probe = o->tests ? iprobe_time(o->tests, peer, initiator) : 0;
  if (!initiator)
    return;
  printf("pair %s %s lat_us %.4f", mine, theirs, lat * 1e6);
  for (int i = 0; i < o->nsizes; i++)
    printf(" bw_mbps@%ld %.4f", o->sizes[i], bw[i]);
  if (o->tests)
    printf(" test_us %.6f iprobe_us %.6f", test * 1e6, probe * 1e6);
  printf("\n");
  fflush(stdout);
}

/* Under SMPI: every host of the platform, as SimGrid lists them. */
static void print_platform_hosts(void) {
#ifdef FTSIM_SMPI
  size_t n = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  for (size_t i = 0; i < n; i++)
    printf("platform_host %s\n", sg_host_get_name(hosts[i]));
  free(hosts);
#endif
}

/* Every rank sends its host name to rank 0, which prints them in rank order. */
static void print_names(int rank, int nranks) {
  char name[NAME_LEN];
  my_name(name);
  if (rank != 0) {
    MPI_Send(name, NAME_LEN, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
    return;
  }
  printf("host 0 %s\n", name);
  for (int r = 1; r < nranks; r++) {
    MPI_Recv(name, NAME_LEN, MPI_CHAR, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("host %d %s\n", r, name);
  }
  print_platform_hosts();
  fflush(stdout);
}

static int run_pairs(int argc, char **argv, int rank, int nranks) {
  struct options o;
  if (parse_options(argc, argv, &o) != 0)
    return -1;
  for (int i = o.first_pair; i < argc; i++) {
    struct pair_spec p;
    if (parse_pair(argv[i], nranks, &p) != 0)
      return -1;
  }
  char *buf = calloc((size_t)max_size(&o), 1);
  if (!buf)
    MPI_Abort(MPI_COMM_WORLD, 2); /* returning would leave the others waiting */
  for (int i = o.first_pair; i < argc; i++) {
    struct pair_spec p;
    parse_pair(argv[i], nranks, &p);
    measure_pair(&o, p, rank, buf);
  }
  free(buf);
  return 0;
}

/* ---- calibrate service ---- */

static void sleep_s(double s) {
  if (s <= 0)
    return;
  struct timespec ts = {.tv_sec = (time_t)s,
                        .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* Rank 2: answers `rounds` requests of rank 0 (its warm-up's included),
 * waiting as ftsim's services do (backend_real.c, ft_backend_wait:
 * MPI_Test, then the nap policy). */
static void serve(int rounds) {
  struct ft_nap w;
#ifdef PR_SET_TIMERSLACK
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* as ftsim's services */
#endif
  ft_nap_woke(&w, MPI_Wtime());
  for (int i = 0; i < rounds; i++) {
    int x = 0, flag = 0;
    MPI_Request req;
    MPI_Irecv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req);
    for (;;) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (flag)
        break;
      sleep_s(ft_nap_next(&w, MPI_Wtime()));
    }
    ft_nap_woke(&w, MPI_Wtime());
    MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
  }
}

/* Rank 0: `rounds` times, `gap` seconds of computation (a spin on the
 * clock), then one round trip to rank 2, the first `warmup` untimed;
 * prints the line over the others. */
static void ask(int rounds, int warmup, double gap) {
  double *t = malloc((size_t)rounds * sizeof *t), sum = 0;
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = -warmup; i < rounds; i++) {
    int x = i;
    for (double until = MPI_Wtime() + gap; MPI_Wtime() < until;)
      ;
    double t0 = MPI_Wtime();
    MPI_Send(&x, 1, MPI_INT, 2, 5, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, 2, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (i < 0)
      continue;
    t[i] = MPI_Wtime() - t0;
    sum += t[i];
  }
  qsort(t, (size_t)rounds, sizeof *t, cmp_double);
  printf("service rtt_us %.4f median_us %.4f max_us %.4f\n", sum / rounds * 1e6,
         t[rounds / 2] * 1e6, t[rounds - 1] * 1e6);
  fflush(stdout);
  free(t);
}

/* ---- calibrate send ---- */

/* Ranks 2 and up: nap as an idle service until rank 0's word. */
static void nap_until_stopped(void) {
  struct ft_nap w;
  int stop = 0, flag = 0;
  MPI_Request req;
#ifdef PR_SET_TIMERSLACK
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* as ftsim's services */
#endif
  MPI_Irecv(&stop, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &req);
  ft_nap_woke(&w, MPI_Wtime());
  for (;;) {
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag)
      return;
    sleep_s(ft_nap_next(&w, MPI_Wtime()));
  }
}

static void spin_s(double s) {
  for (double until = MPI_Wtime() + s; MPI_Wtime() < until;)
    ;
}

enum { SEND_BYTES = 2600 };

/* Rank 0: `rounds` blocking sends to rank 1, `gap` seconds of computation
 * before each, the first `warmup` untimed; prints the line, stops the
 * others. */
static void time_sends(int rounds, int warmup, double gap, int nranks) {
  static char buf[SEND_BYTES];
  double *t = malloc((size_t)rounds * sizeof *t), sum = 0;
  if (!t)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = -warmup; i < rounds; i++) {
    spin_s(gap);
    double t0 = MPI_Wtime();
    MPI_Send(buf, SEND_BYTES, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
    if (i >= 0)
      sum += t[i] = MPI_Wtime() - t0;
  }
  qsort(t, (size_t)rounds, sizeof *t, cmp_double);
  printf("send ranks %d mean_us %.4f median_us %.4f p90_us %.4f\n", nranks,
         sum / rounds * 1e6, t[rounds / 2] * 1e6,
         t[(long)rounds * 9 / 10] * 1e6);
  fflush(stdout);
  free(t);
  int stop = 1;
  for (int r = 2; r < nranks; r++)
    MPI_Send(&stop, 1, MPI_INT, r, 9, MPI_COMM_WORLD);
}

/* `calibrate send|service [-r ROUNDS] [-g GAP_US]`: the options after the
 * mode, into *rounds and *gap_us (left as given when absent); -1 on a bad
 * one. */
static int parse_rounds_gap(int argc, char **argv, long *rounds, long *gap_us) {
  for (int i = 2; i < argc; i += 2) {
    long *dst = strcmp(argv[i], "-r") == 0   ? rounds
                : strcmp(argv[i], "-g") == 0 ? gap_us
                                             : NULL;
    if (!dst || i + 1 >= argc || parse_positive(argv[i + 1], 1L << 24, dst))
      return -1;
  }
  return 0;
}

static int run_send(int argc, char **argv, int rank, int nranks) {
  long rounds = 20000, gap_us = 55;
  if (parse_rounds_gap(argc, argv, &rounds, &gap_us))
    return -1;
  if (nranks < 2)
    return -1;
  if (rank == 0) {
    time_sends((int)rounds, WARMUP, (double)gap_us * 1e-6, nranks);
  } else if (rank == 1) {
    static char buf[SEND_BYTES];
    for (long i = 0; i < rounds + WARMUP; i++) {
      MPI_Recv(buf, SEND_BYTES, MPI_BYTE, 0, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      spin_s(40e-6);
    }
  } else {
    nap_until_stopped();
  }
  return 0;
}

static int run_service(int argc, char **argv, int rank, int nranks) {
  long rounds = 300, gap_us = 2000;
  if (parse_rounds_gap(argc, argv, &rounds, &gap_us))
    return -1;
  if (nranks < 3)
    return -1;
  int stop = 0;
  if (rank == 0) {
    ask((int)rounds, WARMUP, (double)gap_us * 1e-6);
    MPI_Send(&stop, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&stop, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 2) {
    serve((int)rounds + WARMUP);
  }
  return 0;
}

int main(int argc, char **argv) {
  int rank = 0;
  int nranks = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int rc = 0;
  if (argc == 2 && strcmp(argv[1], "names") == 0)
    print_names(rank, nranks);
  else if (argc >= 2 && strcmp(argv[1], "service") == 0)
    rc = run_service(argc, argv, rank, nranks);
  else if (argc >= 2 && strcmp(argv[1], "send") == 0)
    rc = run_send(argc, argv, rank, nranks);
  else
    rc = run_pairs(argc, argv, rank, nranks);
  if (rc != 0 && rank == 0)
    fprintf(stderr, "usage: calibrate names | calibrate [-r ROUNDS] "
                    "[-s BYTES]... A:B [C:D ...] | calibrate service "
                    "[-r ROUNDS] [-g GAP_US] (3 ranks or more) | "
                    "calibrate send [-r ROUNDS] [-g GAP_US] (2 ranks or "
                    "more)\n");
  MPI_Finalize();
  return rc == 0 ? 0 : 1;
}
