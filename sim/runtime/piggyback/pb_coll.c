/* C3's collectives as one unit per call (c3-collectives, sections 4 and 5,
 * Figures 5-8): the driver's coll_enter, coll_decide, coll_leave and
 * coll_reexec (driver.h; the runtime's exchange, coll_unit.c).
 *
 * Each call of MPI_Barrier, MPI_Bcast, MPI_Scatter, MPI_Gather,
 * MPI_Reduce, MPI_Allreduce, MPI_Allgather, MPI_Alltoall (and of those
 * below) is numbered by the core since the checkpoint
 * (FT_EVENT_COLLECTIVE) and shows its epoch, amLogging bit and that
 * number; the runtime exchanges them (a separate collective, or packed
 * with the call's blocks in the combined form: form_of below) in the
 * class's direction (single-sender: the root's down; single-receiver:
 * every member's up to the root; all-to-all and barrier: every member's
 * to every member) and ft_c3_collective decides:
 *  - "recoveryLog.save(recv data, comm)": the result is packed into the log
 *    at the end of the call (a straddling all-to-all call at a rank beyond
 *    the recovery line; a single-receiver root logging; a single-sender
 *    receiver logging whose root is behind); after a rollback the call is
 *    not carried out: its result comes from the log;
 *  - "suppressList.save(comm, p)" (a single-receiver root): member p's call
 *    (its number, from its bits) is suppressed at recovery; the entry goes
 *    with the root's suppress list (its next checkpoint's when the root is
 *    behind the line, the current one's when it logs) and is handed to p
 *    at the restore (PB_SUPPRESS, x[0] = 1);
 *  - "reexecList.save(comm)" (a single-sender receiver behind the line
 *    whose root is beyond): the call is re-executed with dummy buffers
 *    right after the restore (coll_reexec), for the root that re-executes
 *    it;
 *  - "amLogging = false": FT_EVENT_COLLECTIVE, index 1.
 * The barrier is carried as an all-to-all call whose result is empty: the
 * exchange is the barrier, and one that straddles the recovery line
 * (without c3_barrier_checkpoint=1, which keeps it from straddling) is
 * logged empty at the ranks beyond the line and skipped at recovery.
 *
 * The v forms, alltoallw, scan, exscan and reduce_scatter(_block) are
 * units too (gatherv single-receiver, scatterv single-sender, the others
 * all-to-all: coll.c says why scan and exscan are), their result a
 * datatype coll.c makes for the call. Every call also gets its number on
 * its communicator (struct ft_pb_seq), kept in the image, for the `coll`
 * trace record that ftsim check matches across the members. In main()'s
 * prologue after a rollback the calls go raw (every member is in it
 * alike). */
#include <stdlib.h>
#include <string.h>

#include "c3/c3.h"
#include "piggyback.h"

_Static_assert(sizeof(struct ft_piggyback) == FT_COLL_BITS,
               "a member's bits are its piggyback");

/* A `coll` trace line (docs/traces.md): call `id` of c, HOW, its number
 * SEQ on c, the epoch it was made in (its bits') and its root (an
 * application rank, -1 for none), which ftsim check matches across ranks
 * (sim/check/coll_check.h). */
static void trace_unit(struct ft_runtime *rt, const struct ft_comm *c,
                       const struct ft_coll_call *call, const char *how) {
  struct ft_piggyback bits;
  memcpy(&bits, call->bits, sizeof bits);
  if (ft_trace_on(rt))
    ft_trace_line_(rt, 0, "coll", "%d %d %lld %s %lld %d %d", c->name,
                   (int)call->kind, (long long)call->id, how,
                   (long long)call->seq, bits.epoch,
                   call->root < 0 ? -1 : ft_comm_app_rank(c, call->root));
}

/* The next call's number on communicator `comm` (struct ft_pb_seq). */
static int64_t next_seq(struct ft_pb_seqs *l, int comm) {
  for (size_t i = 0; i < l->n; i++)
    if (l->at[i].comm == comm)
      return ++l->at[i].n;
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 seqs");
  l->at[l->n++] = (struct ft_pb_seq){.comm = comm, .n = 1};
  return 1;
}

static void copy_seqs(struct ft_pb_seqs *to, const struct ft_pb_seqs *from) {
  to->at = ft_reserve(to->at, from->n, &to->cap, sizeof *to->at, "c3 seqs");
  if (from->n)
    memcpy(to->at, from->at, from->n * sizeof *to->at);
  to->n = from->n;
}

static void push_reexec(struct ft_pb_reexecs *l, const struct ft_pb_reexec *r) {
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 reexecList");
  l->at[l->n++] = *r;
}

static void push_result(struct ft_pb_results *l, const struct ft_pb_result *r) {
  l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 results");
  l->at[l->n++] = *r;
}

static void clear_results(struct ft_pb_results *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->at[i].data);
  l->n = 0;
}

static const struct ft_pb_result *result_of(const struct ft_pb_results *l,
                                            int64_t id) {
  for (size_t i = 0; i < l->n; i++)
    if (l->at[i].id == id)
      return &l->at[i];
  return NULL;
}

/* A call the core said REPLAY for: its logged result unpacked into the
 * call's buffer, or (no result logged) a call a root's suppress list
 * holds. */
static void replay(struct ft_runtime *rt, struct ft_comm *c,
                   const struct ft_coll_call *call) {
  const struct ft_pb_result *r = result_of(&rt->pb.replay, call->id);
  trace_unit(rt, c, call, r ? "replay" : "suppress");
  if (!r) {
    rt->pb.units_suppressed++;
    return;
  }
  if (call->result && r->bytes > 0) {
    int pos = 0;
    FT_PMPI(Unpack, r->data, (int)r->bytes, &pos, call->result, call->count,
            call->type, c->coll);
  }
  rt->pb.units_replayed++;
}

/* The rounds of the call's separate exchange (coll_unit.c): the root's
 * bits broadcast alongside its data (measured: one latency, 16 us on
 * velocity's 14.2 us links), the other classes' gather or allgather of the
 * members' bits (ceil(log2 n) rounds: 77 us on 32 ranks). */
static size_t exchange_rounds(const struct ft_comm *c,
                              const struct ft_coll_call *call) {
  size_t rounds = 0;
  if (call->flow == FT_FLOW_FROM_ROOT)
    return 1;
  for (int reach = 1; reach < c->size; reach *= 2)
    rounds++;
  return rounds ? rounds : 1;
}

/* What one byte more on the wire costs in bytes of copy: velocity's
 * 87.7 MB/s links against the 300 MB/s copy piggyback_unit_bytes is
 * calibrated with (3.4, rounded up). */
enum { WIRE_BYTE_AS_COPIED = 4 };

/* The bytes the combined form copies on the call's critical path: a bcast
 * packs at the root and separates at a leaf (2 x the message), a gather's
 * root and every allgather member separate n blocks after packing one, an
 * alltoall member packs and separates n. A scatter's root packs the n - 1
 * enlarged blocks it sends before the first leaves and the last member
 * separates its own (n x (the block + FT_COLL_BITS)), and its root's link
 * carries the root's bits once per member where the separate form
 * broadcast them once (n x FT_COLL_BITS bytes more, each worth
 * WIRE_BYTE_AS_COPIED bytes of copy): its separate exchange costs one
 * round, so these count (measured on 32 ranks of velocity at 4 B of
 * block: combined +12.5 us, of which 2.1 us copies, separate +15.9). */
static size_t copied_bytes(const struct ft_comm *c,
                           const struct ft_coll_call *call) {
  size_t n = (size_t)c->size, b = call->bytes;
  switch (call->kind) {
  case FT_COLL_BCAST:
    return 2 * b;
  case FT_COLL_SCATTER:
    return n * (b + FT_COLL_BITS) + n * FT_COLL_BITS * WIRE_BYTE_AS_COPIED;
  case FT_COLL_ALLTOALL:
    return 2 * n * b;
  default:
    return (n + 1) * b;
  }
}

/* Section 6: "There are two natural ways to send the protocol data:
 * either via a separate collective operation that precedes the data
 * operation, or by 'piggy-backing' the control data onto the message
 * data and sending both with one operation": piggyback=separate is the
 * first (EXCHANGE: the bits exchanged once, then the call), combined the
 * second (COMBINED: each member's bits packed with its block, one
 * collective of the enlarged blocks, coll_combined.c; the runtime makes
 * it EXCHANGE for a call without that form: the barrier, "we do not have
 * the option of piggy-backing the protocol data", and the calls whose
 * data an op combines). auto is "a protocol
 * that switched from a combined message to separate messages as the size
 * of the data message grew" ("using a separate message imposes a fixed
 * cost, regardless of the size of the data message, while using a
 * combined message requires copying at both the sender(s) and the
 * receiver(s)"): combined while the bytes its copies add to the call's
 * critical path are fewer than piggyback_unit_bytes (the bytes copied in
 * one round's latency) per round of the separate exchange, separate from
 * there on. A single switch on the block cannot serve every class: on 32
 * ranks the separate bcast costs 16 us, the gather 77 us, so the combined
 * bcast is the cheaper up to 1 KiB, the gather only to 256 B of block
 * (README, "C3's collectives measured"). The same choice at every member
 * (the block and the communicator are). A scatterv's blocks differ and
 * only its root knows them: combined under `combined`, separate under
 * auto (the members could not agree on a size without an exchange, which
 * is the separate form). */
static int form_of(const struct ft_runtime *rt, const struct ft_comm *c,
                   const struct ft_coll_call *call) {
  switch (rt->options.piggyback) {
  case FT_PIGGYBACK_COMBINED:
    return FT_COLL_COMBINED;
  case FT_PIGGYBACK_AUTO:
    if (call->bytes == FT_COLL_ANY_BYTES)
      return FT_COLL_EXCHANGE; /* no size every member knows: scatterv */
    return copied_bytes(c, call) < exchange_rounds(c, call) *
                                       (size_t)rt->options.piggyback_unit_bytes
               ? FT_COLL_COMBINED
               : FT_COLL_EXCHANGE;
  default:
    return FT_COLL_EXCHANGE;
  }
}

int ft_pb_coll_enter(struct ft_runtime *rt, struct ft_comm *c,
                     struct ft_coll_call *call) {
  const void *s = rt->protocol_state;
  if (call->reexec) { /* made before the checkpoint: not numbered */
    struct ft_piggyback mine = {.epoch = ft_c3_epoch(s),
                                .logging = ft_c3_logging(s)};
    memcpy(call->bits, &mine, sizeof mine);
    return form_of(rt, c, call); /* the root's call's form */
  }
  if (ft_prologue_hidden(rt))
    return FT_COLL_RAW;
  struct ft_event e = {
      .type = FT_EVENT_COLLECTIVE, .peer = -1, .tag = -1, .index = 0};
  struct ft_update u;
  ft_core_decide(rt, &e, &u);
  ft_apply_update(rt, &u);
  call->id = u.id;
  call->seq = next_seq(&rt->pb.seqs, c->name);
  memcpy(call->bits, &u.piggyback, sizeof u.piggyback);
  rt->pb.units++;
  if (!(u.flags & FT_UPDATE_REPLAY)) {
    rt->pb.keeping = u.piggyback.logging; /* until the decision */
    return form_of(rt, c, call);
  }
  replay(rt, c, call);
  return FT_COLL_DONE;
}

/* The call's result is logged (keep) or will not be: a STORE that came
 * while it was undecided is now due (ft_pb_coll_store_due). */
static void kept(struct ft_runtime *rt) { rt->pb.keeping = 0; }

static enum ft_c3_coll_class class_of(enum ft_coll_flow flow) {
  switch (flow) {
  case FT_FLOW_TO_ROOT:
    return FT_C3_SINGLE_RECEIVER;
  case FT_FLOW_FROM_ROOT:
    return FT_C3_SINGLE_SENDER;
  case FT_FLOW_ALL:
  case FT_FLOW_SYNC: /* a straddling barrier: as an empty all-to-all */
    break;
  }
  return FT_C3_ALL_TO_ALL;
}

/* Figure 7's "reexecList.save(comm)": what the call left here, as bytes
 * laid out as its type's. */
static void save_reexec(struct ft_runtime *rt, const struct ft_comm *c,
                        const struct ft_coll_call *call) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  FT_PMPI(Type_size, call->type, &size);
  FT_PMPI(Type_get_extent, call->type, &lb, &extent);
  struct ft_pb_reexec r = {.kind = (int32_t)call->kind,
                           .comm = c->name,
                           .root = call->root,
                           .count = call->count,
                           .size = size,
                           .extent = (int64_t)extent,
                           .seq = call->seq};
  push_reexec(&rt->pb.early_calls, &r);
}

/* Figure 6's "suppressList.save(comm, p)": member p's call, by its number
 * (in its bits), in the root's suppress list: the next checkpoint's when
 * the root is behind the recovery line, the current one's when it logs
 * (as its bits said: a STORE that came since waits for this call). */
static void save_suppress(struct ft_runtime *rt, const struct ft_comm *c,
                          const struct ft_piggyback *all, const int *who,
                          int n) {
  struct ft_pb_events *l =
      all[c->rank].logging ? &rt->pb.suppress : &rt->pb.early;
  for (int i = 0; i < n; i++) {
    l->at = ft_reserve(l->at, l->n + 1, &l->cap, sizeof *l->at, "c3 log");
    l->at[l->n++] =
        (struct ft_logged_event){.kind = FT_LOGGED_COLL,
                                 .peer = ft_comm_app_rank(c, who[i]),
                                 .id = all[who[i]].id,
                                 .value = all[who[i]].id};
  }
}

void ft_pb_coll_decide(struct ft_runtime *rt, struct ft_comm *c,
                       struct ft_coll_call *call, const unsigned char *bits) {
  struct ft_piggyback *all = malloc((size_t)c->size * sizeof *all);
  int *who = malloc((size_t)c->size * sizeof *who);
  if (!all || !who)
    ft_fatal("out of memory in a collective of %d ranks", c->size);
  memcpy(all, bits, (size_t)c->size * sizeof *all);
  struct ft_c3_coll in = {.cls = class_of(call->flow),
                          .me = c->rank,
                          .root = call->root,
                          .ranks = c->size,
                          .bits = all};
  struct ft_c3_coll_decision d;
  if (ft_c3_collective(&in, &d, who) != 0)
    ft_fatal("rank %d: c3 cannot decide collective %d (root %d of %d)",
             rt->world_rank, (int)call->kind, call->root, c->size);
  if (call->reexec)
    trace_unit(rt, c, call, "reexec");
  else if (call->entry == FT_COLL_COMBINED)
    trace_unit(rt, c, call, "combined");
  if (d.reexec && call->result)
    save_reexec(rt, c, call);
  if (!call->reexec) {
    save_suppress(rt, c, all, who, d.n_suppress);
    call->keep = d.log_result;
    if (!call->keep)
      kept(rt);
  }
  free(all);
  free(who);
  if (!call->reexec && d.stop_logging) {
    struct ft_event e = {
        .type = FT_EVENT_COLLECTIVE, .peer = -1, .tag = -1, .index = 1};
    ft_core_step(rt, &e);
  }
}

void ft_pb_coll_leave(struct ft_runtime *rt, struct ft_comm *c,
                      struct ft_coll_call *call) {
  struct ft_pb *pb = &rt->pb;
  if (!call->keep) {
    if (!call->reexec)
      trace_unit(rt, c, call, "run");
    return;
  }
  struct ft_pb_result r = {.id = call->id};
  if (call->result)
    r.data = ft_pack_copy(rt, call->result, call->count, call->type, c->coll,
                          &r.bytes);
  push_result(&pb->results, &r);
  trace_unit(rt, c, call, "log");
  kept(rt);
}

int ft_pb_coll_reexec(struct ft_runtime *rt, struct ft_coll_reexec *out) {
  struct ft_pb_reexecs *l = &rt->pb.restart;
  if (l->next >= l->n || ft_prologue_hidden(rt))
    return 0; /* none, or not restored yet */
  const struct ft_pb_reexec *r = &l->at[l->next++];
  *out = (struct ft_coll_reexec){.kind = (enum ft_coll_kind)r->kind,
                                 .comm = r->comm,
                                 .root = r->root,
                                 .count = r->count,
                                 .size = r->size,
                                 .extent = r->extent,
                                 .seq = r->seq};
  rt->pb.units_reexecuted++;
  return 1;
}

/* ---- The log in the image ---- */

int ft_pb_coll_defer_store(struct ft_runtime *rt, int wave, int64_t late) {
  struct ft_pb *pb = &rt->pb;
  if (!pb->keeping)
    return 0;
  pb->store_deferred = 1;
  pb->deferred_wave = wave;
  pb->deferred_kept = late;
  return 1;
}

int ft_pb_coll_store_due(struct ft_runtime *rt, int *wave, int64_t *late) {
  struct ft_pb *pb = &rt->pb;
  if (pb->keeping || !pb->store_deferred)
    return 0;
  pb->store_deferred = 0;
  *wave = pb->deferred_wave;
  *late = pb->deferred_kept;
  return 1;
}

void ft_pb_coll_capture(struct ft_pb *pb) {
  struct ft_pb_reexecs swap = pb->reexecs;
  pb->reexecs = pb->early_calls;
  pb->early_calls = swap;
  pb->early_calls.n = 0;
  clear_results(&pb->results);
  copy_seqs(&pb->seqs_captured, &pb->seqs);
}

size_t ft_pb_coll_region_size(const struct ft_pb *pb) {
  size_t size = 12 + pb->reexecs.n * sizeof(struct ft_pb_reexec) +
                pb->seqs_captured.n * sizeof(struct ft_pb_seq);
  for (size_t i = 0; i < pb->results.n; i++)
    size += 16 + pb->results.at[i].bytes;
  return size;
}

void ft_pb_coll_region_write(const struct ft_pb *pb, void *dst) {
  unsigned char *p = dst;
  uint32_t n = (uint32_t)pb->results.n, m = (uint32_t)pb->reexecs.n,
           k = (uint32_t)pb->seqs_captured.n;
  memcpy(p, &n, 4);
  memcpy(p + 4, &m, 4);
  memcpy(p + 8, &k, 4);
  p += 12;
  if (m)
    memcpy(p, pb->reexecs.at, m * sizeof(struct ft_pb_reexec));
  p += m * sizeof(struct ft_pb_reexec);
  if (k)
    memcpy(p, pb->seqs_captured.at, k * sizeof(struct ft_pb_seq));
  p += k * sizeof(struct ft_pb_seq);
  for (size_t i = 0; i < n; i++) {
    const struct ft_pb_result *r = &pb->results.at[i];
    uint64_t bytes = r->bytes;
    memcpy(p, &r->id, 8);
    memcpy(p + 8, &bytes, 8);
    memcpy(p + 16, r->data, r->bytes);
    p += 16 + r->bytes;
  }
}

void ft_pb_coll_stored(struct ft_pb *pb) {
  clear_results(&pb->results);
  pb->reexecs.n = 0;
}

static void truncated(const struct ft_runtime *rt) {
  ft_fatal("rank %d: its image's c3 collectives region is truncated",
           rt->world_rank);
}

/* The image's results (copied) and calls to re-execute; every result's
 * call is handed to the core (FT_LOGGED_COLL) in `given`. */
static void read_region(struct ft_runtime *rt, const unsigned char *p,
                        const unsigned char *end, struct ft_pb_events *given) {
  struct ft_pb *pb = &rt->pb;
  uint32_t n = 0, m = 0, k = 0;
  if (end - p < 12)
    truncated(rt);
  memcpy(&n, p, 4);
  memcpy(&m, p + 4, 4);
  memcpy(&k, p + 8, 4);
  p += 12;
  if ((size_t)(end - p) / sizeof(struct ft_pb_reexec) < m)
    truncated(rt);
  for (uint32_t i = 0; i < m; i++, p += sizeof(struct ft_pb_reexec)) {
    struct ft_pb_reexec r;
    memcpy(&r, p, sizeof r);
    push_reexec(&pb->restart, &r);
  }
  if ((size_t)(end - p) / sizeof(struct ft_pb_seq) < k)
    truncated(rt);
  pb->seqs.n = 0;
  for (uint32_t i = 0; i < k; i++, p += sizeof(struct ft_pb_seq)) {
    pb->seqs.at = ft_reserve(pb->seqs.at, pb->seqs.n + 1, &pb->seqs.cap,
                             sizeof *pb->seqs.at, "c3 seqs");
    memcpy(&pb->seqs.at[pb->seqs.n++], p, sizeof(struct ft_pb_seq));
  }
  for (uint32_t i = 0; i < n; i++) {
    struct ft_pb_result r = {0};
    uint64_t bytes = 0;
    if (end - p < 16)
      truncated(rt);
    memcpy(&r.id, p, 8);
    memcpy(&bytes, p + 8, 8);
    p += 16;
    if ((uint64_t)(end - p) < bytes)
      truncated(rt);
    r.bytes = (size_t)bytes;
    r.data = malloc(r.bytes ? r.bytes : 1);
    if (!r.data)
      ft_fatal("rank %d: out of memory for a logged collective",
               rt->world_rank);
    memcpy(r.data, p, r.bytes);
    p += r.bytes;
    push_result(&pb->replay, &r);
    given->at = ft_reserve(given->at, given->n + 1, &given->cap,
                           sizeof *given->at, "c3 restore");
    given->at[given->n++] = (struct ft_logged_event){
        .kind = FT_LOGGED_COLL, .peer = rt->world_rank, .id = r.id};
  }
}

void ft_pb_coll_resuming(struct ft_runtime *rt,
                         const struct ft_local_image *img,
                         struct ft_pb_events *given) {
  const void *found = NULL;
  size_t bytes = 0;
  if (!img || ft_image_find(img->bytes, img->size, FT_PB_COLL_REGION, &found,
                            &bytes) != 0)
    return; /* the start: nothing logged */
  read_region(rt, found, (const unsigned char *)found + bytes, given);
}

void ft_pb_coll_forget(struct ft_pb *pb) {
  clear_results(&pb->results);
  clear_results(&pb->replay);
  pb->early_calls.n = pb->reexecs.n = 0;
  pb->restart.n = pb->restart.next = 0;
  pb->keeping = pb->store_deferred = 0;
  pb->seqs.n = pb->seqs_captured.n = 0;
}

void ft_pb_coll_finish(struct ft_pb *pb) {
  ft_pb_coll_forget(pb);
  free(pb->results.at);
  free(pb->replay.at);
  free(pb->early_calls.at);
  free(pb->reexecs.at);
  free(pb->restart.at);
  free(pb->seqs.at);
  free(pb->seqs_captured.at);
  pb->seqs = pb->seqs_captured = (struct ft_pb_seqs){0};
  pb->results = pb->replay = (struct ft_pb_results){0};
  pb->early_calls = pb->reexecs = pb->restart = (struct ft_pb_reexecs){0};
}
