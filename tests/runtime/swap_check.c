/* swap_check: two receives from MPI_ANY_SOURCE with the same tag that MPI
 * matched in one order and the application completes in the other, across
 * the sender's checkpoint (the README's "C3" case under
 * piggyback=separate: each piggyback is received at the delivery, the
 * first on its channel, so the two swapped theirs before the runtime
 * completed the earlier wildcard receive first: delivery.c,
 * resolve_wildcards).
 *
 * Usage: swap_check [ITERS [MODE]]   (default 40; 2 ranks or more). MODE:
 *   (none)     two MPI_Irecv(MPI_ANY_SOURCE, tag 5 + sender) per sender
 *   in-order   the same, the first receive completed first (the reference)
 *   named      the receives name their source
 *   any-tag    the receives name their source, with MPI_ANY_TAG
 *   mixed      the first from MPI_ANY_SOURCE, the second named
 *   persistent two MPI_Recv_init(MPI_ANY_SOURCE), MPI_Startall
 *   waitany    MPI_Irecv(MPI_ANY_SOURCE), the later one found by
 *              MPI_Waitany on (later, earlier), then MPI_Wait
 *   shared     every sender's pair of rank 0's iteration k with tag 5 + k:
 *              rank 0 posts all
 *              2 * (size - 1) receives (MPI_ANY_SOURCE, tag 5) at once and
 *              completes them last first, so that an earlier receive took
 *              another sender's message as often as the same one's
 *
 * Iteration k (a safe point at its top): every rank r > 0 sends rank 0
 * the value (2k - 1) * 100 + r (k > 0), computes, then sends 2k * 100 + r;
 * rank 0 receives the pair 2k, 2k + 1 of each sender, whose safe point
 * falls between the two (the last value goes after the loop). Rank
 * 0 posts, per sender, two receives and completes the second first, then
 * the first (MPI_Wait). Rank 0 checkpoints first (it initiates every
 * epoch): the first message of a pair is late (sent before its sender's
 * checkpoint, received after rank 0's) and is logged with the payload of
 * the receive whose piggyback says so. Each value is checked (`shared`:
 * each of a sender's two values once, whichever receive took it): after a
 * rollback the late messages come again from the log; a swapped piggyback
 * logged the other message's payload and rank 0 receives a value twice.
 * Wrong values are counted, summed and given to ft_report_result (exit 1
 * on any). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

enum mode {
  PAIR,
  IN_ORDER,
  NAMED,
  ANY_TAG,
  MIXED,
  PERSISTENT,
  WAITANY,
  SHARED
};

static enum mode mode_of(const char *name) {
  static const char *names[] = {"",      "in-order",   "named",   "any-tag",
                                "mixed", "persistent", "waitany", "shared"};
  for (int m = 0; m < (int)(sizeof names / sizeof *names); m++)
    if (strcmp(name, names[m]) == 0)
      return (enum mode)m;
  return (enum mode) - 1;
}

/* The tag of sender s's messages of rank 0's iteration k (values 2k and
 * 2k + 1): its own, or under `shared` the iteration's, which every sender
 * uses (a sender may run an iteration ahead: its next pair must not
 * match). */
static int tag_of(enum mode m, int s, long k) {
  return m == SHARED ? 5 + (int)k : 5 + s;
}

/* Posts rank 0's two receives of sender s's pair into v[0..2) (r[0]
 * first), as `m` says. */
static void post_pair(enum mode m, int s, long v[2], MPI_Request r[2]) {
  int from[2] = {MPI_ANY_SOURCE, MPI_ANY_SOURCE}, tag = tag_of(m, s, 0);
  if (m == NAMED || m == ANY_TAG)
    from[0] = from[1] = s;
  if (m == MIXED)
    from[1] = s;
  if (m == ANY_TAG)
    tag = MPI_ANY_TAG;
  for (int i = 0; i < 2; i++) {
    if (m == PERSISTENT)
      MPI_Recv_init(&v[i], 1, MPI_LONG, from[i], tag, MPI_COMM_WORLD, &r[i]);
    else
      MPI_Irecv(&v[i], 1, MPI_LONG, from[i], tag, MPI_COMM_WORLD, &r[i]);
  }
  if (m == PERSISTENT)
    MPI_Startall(2, r);
}

/* Completes r[0..2) the later first (r[0] first in-order). */
static void complete_pair(enum mode m, MPI_Request r[2], MPI_Status st[2]) {
  if (m == WAITANY) { /* the later one first when both are done */
    MPI_Request later_first[2] = {r[1], r[0]};
    MPI_Status any;
    int idx = 0;
    MPI_Waitany(2, later_first, &idx, &any);
    st[1 - idx] = any;
    MPI_Wait(&later_first[1 - idx], &st[idx]);
    return;
  }
  int first = m == IN_ORDER ? 0 : 1;
  MPI_Wait(&r[first], &st[first]);
  MPI_Wait(&r[1 - first], &st[1 - first]);
  if (m == PERSISTENT)
    for (int i = 0; i < 2; i++)
      MPI_Request_free(&r[i]);
}

/* The number of wrong values among sender s's pair of iteration k: both
 * from s, one of each value (in order, but under `shared`). */
static long wrong_pair(enum mode m, int s, long k, const long v[2],
                       const MPI_Status st[2]) {
  long wrong = 0;
  for (int i = 0; i < 2; i++)
    wrong += st[i].MPI_SOURCE != s;
  if (m == SHARED) {
    long lo = v[0] < v[1] ? v[0] : v[1], hi = v[0] < v[1] ? v[1] : v[0];
    return wrong + (lo != 2 * k * 100 + s) + (hi != (2 * k + 1) * 100 + s);
  }
  for (int i = 0; i < 2; i++)
    wrong += v[i] != (2 * k + i) * 100 + s;
  return wrong;
}

/* Rank 0's side of iteration k under `shared`: every receive posted, then
 * completed last first; each sender's two values, whichever receives took
 * them. */
static long receive_shared(int size, long k) {
  int n = 2 * (size - 1);
  long *v = malloc((size_t)n * sizeof *v), wrong = 0;
  MPI_Request *r = malloc((size_t)n * sizeof *r);
  MPI_Status *st = malloc((size_t)n * sizeof *st);
  if (!v || !r || !st) {
    fprintf(stderr, "swap_check: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 0; i < n; i++)
    MPI_Irecv(&v[i], 1, MPI_LONG, MPI_ANY_SOURCE, tag_of(SHARED, 0, k),
              MPI_COMM_WORLD, &r[i]);
  for (int i = n; i-- > 0;)
    MPI_Wait(&r[i], &st[i]);
  for (int s = 1; s < size; s++) { /* s's two values, in any receives */
    long got[2] = {-1, -1};
    int seen = 0;
    MPI_Status from_s[2];
    for (int i = 0; i < n; i++)
      if (st[i].MPI_SOURCE == s && seen < 2) {
        from_s[seen] = st[i];
        got[seen++] = v[i];
      }
    if (seen < 2)
      wrong += 2 - seen;
    else
      wrong += wrong_pair(SHARED, s, k, got, from_s);
  }
  free(v);
  free(r);
  free(st);
  return wrong;
}

/* Rank 0's side of iteration k: a pair from each sender, completed in
 * reverse order (`m`); the number of wrong values. */
static long receive_pairs(int size, long k, enum mode m) {
  long wrong = 0;
  if (m == SHARED)
    wrong = receive_shared(size, k);
  for (int s = 1; m != SHARED && s < size; s++) {
    long v[2] = {-1, -1};
    MPI_Request r[2];
    MPI_Status st[2];
    post_pair(m, s, v, r);
    complete_pair(m, r, st);
    wrong += wrong_pair(m, s, k, v, st);
  }
  if (wrong)
    fprintf(stderr, "swap_check: iteration %ld: %ld wrong values\n", k, wrong);
  return wrong;
}

static void send_value(long v, int rank, enum mode m) {
  MPI_Send(&v, 1, MPI_LONG, 0, tag_of(m, rank, v / 100 / 2), MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = argc > 1 ? atol(argv[1]) : 40, k = 0, errors = 0;
  enum mode m = mode_of(argc > 2 ? argv[2] : "");
  if (iters < 1 || size < 2 || (int)m < 0) {
    if (rank == 0)
      fprintf(stderr, "usage: swap_check [ITERS >= 1 [in-order|named|any-tag|"
                      "mixed|persistent|waitany|shared]] (2 ranks or more)\n");
    MPI_Finalize();
    return 2;
  }
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &errors, sizeof errors);
  for (; k < iters; k++) {
    ft_snapshot(); /* may restore k and errors */
    if (rank == 0) {
      errors += receive_pairs(size, k, m);
      continue;
    }
    if (k > 0) /* the second of pair k - 1: after this rank's safe point */
      send_value((2 * k - 1) * 100 + rank, rank, m);
    ft_compute(1e5 * (double)(1 + (rank + k) % 3));
    send_value(2 * k * 100 + rank, rank, m);
  }
  if (rank > 0)
    send_value((2 * iters - 1) * 100 + rank, rank, m);
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("swap_check: %ld iterations, %s\n", iters,
           all ? "FAILED" : "every value checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Finalize();
  return all ? 1 : 0;
}
