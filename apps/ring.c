/* ring: the ring program of LAM/MPI's checkpoint/restart experiments.
 *
 * lam-mpi-blcr.txt, section 6: "The ring program is a canonical example of
 * simple MPI usage, which sends a simple message around in a ring pattern."
 * As in LAM's examples/ring (Open MPI's ring_c is the same program): rank 0
 * injects a token carrying the number of laps left, every rank passes it to
 * rank + 1, rank 0 decrements it each time it comes back, every rank leaves
 * after passing the token with no lap left (its --iters-th), and rank 0
 * absorbs the last one.
 * Here the token also carries a sum to which every rank adds rank + 1 when
 * it passes it on, and an optional payload (--size) whose pattern changes
 * every lap. Between receipts each rank computes --flops per lap (modelled
 * with ft_compute) in --chunks pieces, polling for the token with MPI_Test
 * between pieces, and forwards it with MPI_Isend completed by MPI_Wait.
 *
 * Checkpoints (ft.h): one safe point per lap, on every rank: rank 0 before
 * it sends lap k's token, the others before they wait for it. By then every
 * token of the earlier laps has been received and every send completed
 * (each rank waits for its send at the end of the lap, so there is no
 * request across the safe point). Protected: the lap, the last token
 * received (rank 0's final sum), the receipt and error counts, rank 0's
 * work left over from the last wait, and the start time. Every rank counts
 * its --iters laps itself (the laps left in the token are checked against
 * that count), so every rank calls ft_snapshot as often. After a rollback
 * main() runs again from the top and the first ft_snapshot restores the rest.
 *
 * Verification: every receipt is checked against its closed form (laps left
 * L-1-k on lap k; sum k*n(n+1)/2 + r(r+1)/2 at rank r, (k+1)*n(n+1)/2 back
 * at rank 0; the payload pattern of lap k). At the end rank 0 gathers every
 * rank's receipt count (each must be L), reduces the error counts, checks the
 * final sum L*n(n+1)/2 and broadcasts the verdict. */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "ft.h"

enum { RING_TAG = 201 }; /* the tag of LAM's ring */

struct ring_opts {
  int laps, bytes, chunks;
  double flops;
};

struct ring {
  struct ring_opts o;
  int rank, size, next, prev;
  int words;         /* token length in int64 words: 2 + payload */
  int64_t *in, *out; /* receive and send buffers of one token */
  int64_t total;     /* n(n+1)/2: what one lap adds to the sum */
  long receipts, errors;
  int64_t lap; /* the lap under way */
  int left;    /* rank 0: pieces of work left over from the last wait */
};

/* ft_protect ids. */
enum { ID_LAP, ID_TOKEN, ID_RECEIPTS, ID_ERRORS, ID_LEFT, ID_T0 };

/* Token words: laps left, running sum, then the payload. */
enum { TOKEN_LEFT, TOKEN_SUM, TOKEN_PAYLOAD };

static int64_t payload_word(int64_t lap, int w) {
  return (int64_t)(app_mix64((uint64_t)lap * 1000003u + (uint64_t)w) >> 1);
}

static void fill_payload(const struct ring *r, int64_t *token, int64_t lap) {
  for (int w = TOKEN_PAYLOAD; w < r->words; w++)
    token[w] = payload_word(lap, w);
}

/* Counts the payload words of `token` that differ from lap `lap`'s. */
static long payload_errors(const struct ring *r, const int64_t *token,
                           int64_t lap) {
  long bad = 0;
  for (int w = TOKEN_PAYLOAD; w < r->words; w++)
    bad += token[w] != payload_word(lap, w);
  return bad;
}

/* Does `chunks` pieces of this lap's modelled work. */
static void work(const struct ring *r, int chunks) {
  if (chunks > 0)
    ft_compute(r->o.flops * chunks / r->o.chunks);
}

/* Waits for the token while working on this lap; returns the pieces of
 * work still to do once it has arrived. */
static int receive(struct ring *r) {
  MPI_Request req;
  int arrived = 0, done = 0;
  MPI_Irecv(r->in, r->words, MPI_INT64_T, r->prev, RING_TAG, MPI_COMM_WORLD,
            &req);
  while (!arrived && done < r->o.chunks) {
    work(r, 1);
    done++;
    MPI_Test(&req, &arrived, MPI_STATUS_IGNORE);
  }
  if (!arrived)
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  r->receipts++;
  return r->o.chunks - done;
}

/* Checks a received token against its closed form: laps left and sum. */
static void check(struct ring *r, int64_t lap) {
  int64_t prior = (int64_t)r->rank * (r->rank + 1) / 2;
  int64_t sum = r->rank == 0 ? (lap + 1) * r->total : lap * r->total + prior;
  r->errors += r->in[TOKEN_LEFT] != r->o.laps - 1 - lap;
  r->errors += r->in[TOKEN_SUM] != sum;
  r->errors += payload_errors(r, r->in, lap) != 0;
}

/* Adds this rank's share and passes the token on; the previous send must
 * have completed before its buffer is reused. */
static void forward(struct ring *r, const int64_t *token, MPI_Request *send) {
  MPI_Wait(send, MPI_STATUS_IGNORE);
  for (int w = 0; w < r->words; w++)
    r->out[w] = token[w];
  r->out[TOKEN_SUM] += r->rank + 1;
  MPI_Isend(r->out, r->words, MPI_INT64_T, r->next, RING_TAG, MPI_COMM_WORLD,
            send);
}

/* Rank 0: injects the token, then on each return starts the next lap. The
 * work left over from lap k-1's wait is done after lap k's token has left,
 * as in LAM's ring (r->left carries it across the safe point). */
static void run_root(struct ring *r) {
  MPI_Request send = MPI_REQUEST_NULL;
  for (r->lap = 0; r->lap < r->o.laps; r->lap++) {
    ft_snapshot(); /* may restore lap, in, receipts, errors, left, t0 */
    if (r->lap == 0) {
      r->in[TOKEN_LEFT] = r->o.laps - 1;
      r->in[TOKEN_SUM] = 0;
    } else {
      r->in[TOKEN_LEFT]--;
    }
    fill_payload(r, r->in, r->lap);
    forward(r, r->in, &send);
    work(r, r->left);
    r->left = receive(r);
    check(r, r->lap);
    MPI_Wait(&send, MPI_STATUS_IGNORE); /* no request across a safe point */
  }
  work(r, r->left);
}

/* Other ranks: pass the token on, once per lap. */
static void run_member(struct ring *r) {
  MPI_Request send = MPI_REQUEST_NULL;
  for (r->lap = 0; r->lap < r->o.laps; r->lap++) {
    ft_snapshot(); /* may restore lap, in, receipts, errors, t0 */
    int left = receive(r);
    check(r, r->lap);
    forward(r, r->in, &send);
    work(r, left);
    MPI_Wait(&send, MPI_STATUS_IGNORE); /* no request across a safe point */
  }
}

/* Rank 0's view of the whole run: every rank received the token L times,
 * no error anywhere, final sum L*n(n+1)/2. Collective. */
static int conclude(struct ring *r, double seconds) {
  long *receipts = NULL, errors = 0;
  if (r->rank == 0)
    receipts = app_calloc("ring", (size_t)r->size, sizeof *receipts);
  MPI_Gather(&r->receipts, 1, MPI_LONG, receipts, 1, MPI_LONG, 0,
             MPI_COMM_WORLD);
  MPI_Reduce(&r->errors, &errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (r->rank == 0) {
    for (int i = 0; i < r->size; i++)
      ok &= receipts[i] == r->o.laps;
    int64_t expect = (int64_t)r->o.laps * r->total;
    ok &= errors == 0 && r->in[TOKEN_SUM] == expect;
    long hops = (long)r->o.laps * r->size;
    printf("ring: %d laps of %d ranks, %ld hops, %.3f us per hop, token sum "
           "%" PRId64 " (expected %" PRId64 "), %ld errors: %s\n",
           r->o.laps, r->size, hops, seconds / (double)hops * 1e6,
           r->in[TOKEN_SUM], expect, errors, app_verdict_word(ok));
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ft_report_result(ok, (double)r->in[TOKEN_SUM]);
  free(receipts);
  return ok;
}

static void setup(struct ring *r, const struct ring_opts *o) {
  r->o = *o;
  MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r->size);
  r->next = (r->rank + 1) % r->size;
  r->prev = (r->rank + r->size - 1) % r->size;
  r->words = TOKEN_PAYLOAD + (o->bytes + 7) / 8;
  r->in = app_calloc("ring", (size_t)r->words, sizeof(int64_t));
  r->out = app_calloc("ring", (size_t)r->words, sizeof(int64_t));
  r->total = (int64_t)r->size * (r->size + 1) / 2;
  r->receipts = r->errors = 0;
  r->lap = 0;
  r->left = 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct ring_opts o = {.laps = 100, .bytes = 0, .chunks = 4, .flops = 1e5};
  const struct app_opt opts[] = {
      {"iters", APP_OPT_INT, &o.laps, 1, 1e8, "N",
       "laps of the token around the ring (default 100)"},
      {"size", APP_OPT_INT, &o.bytes, 0, 1 << 26, "BYTES",
       "payload carried by the token besides its 16 bytes (default 0)"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops per lap per rank, done while waiting (default 1e5)"},
      {"chunks", APP_OPT_INT, &o.chunks, 1, 1e6, "N",
       "pieces of that work, with an MPI_Test after each (default 4)"},
  };
  const struct app_spec spec = {
      "ring",
      "LAM/MPI's ring: a token passed around the ranks, each adds to it", opts,
      sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  struct ring r;
  setup(&r, &o);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(); /* restored too: the time includes any rollback */
  ft_protect(ID_LAP, &r.lap, sizeof r.lap);
  ft_protect(ID_TOKEN, r.in, (size_t)r.words * sizeof *r.in);
  ft_protect(ID_RECEIPTS, &r.receipts, sizeof r.receipts);
  ft_protect(ID_ERRORS, &r.errors, sizeof r.errors);
  ft_protect(ID_LEFT, &r.left, sizeof r.left);
  ft_protect(ID_T0, &t0, sizeof t0);
  if (r.rank == 0)
    run_root(&r);
  else
    run_member(&r);
  double seconds = MPI_Wtime() - t0;
  conclude(&r, seconds);
  free(r.in);
  free(r.out);
  MPI_Finalize();
  return 0;
}
