/* The recorded-trace model (issue 16): one run's MPI behaviour, per rank a
 * sequence of events, held in memory, read from and written to OTF2
 * archives (rtrace_otf2.c) and read from SimGrid's time-independent traces
 * (rtrace_ti.c). Pure C11: no MPI, no SimGrid, no global state.
 *
 * Who uses it: the recorder (`ftsim record`) appends events per rank and
 * writes the archive once at the end; the replay reads one rank's events
 * in order. A rank is loaded whole, not streamed: a Score-P archive tells
 * an MPI_Irecv's source, tag and size only at its completion
 * (MpiIrecvRequest, then MpiIrecv in the wait), so the reader patches the
 * posting event when the completion arrives; and a replay rank that rolls
 * back jumps backwards to any earlier position. ft_rtrace_read_rank loads
 * one rank alone, so that a replay holds only the ranks it runs.
 * The mapping to OTF2 and TI, record by record: docs/trace-format.md. */
#ifndef FT_RTRACE_H
#define FT_RTRACE_H

#include <stddef.h>
#include <stdint.h>

/* A peer or tag posted as MPI_ANY_SOURCE / MPI_ANY_TAG (posted values only:
 * probes). */
#define FT_RT_ANY (-1)
/* A field the trace does not tell (e.g. a split's color in a Score-P
 * archive, the source of an irecv that never completed). */
#define FT_RT_UNKNOWN INT32_MIN
/* Communicators: index in ft_rtrace.comms. 0 is MPI_COMM_WORLD, 1 is
 * MPI_COMM_SELF; FT_RT_COMM_NULL is MPI_COMM_NULL (a split's result for
 * color MPI_UNDEFINED). */
#define FT_RT_COMM_WORLD 0u
#define FT_RT_COMM_SELF 1u
#define FT_RT_COMM_NULL UINT32_MAX

/* Event kinds. */
enum ft_rt_kind {
  FT_RT_SEND = 1, /* p2p: MPI_Send (Ssend: flag FT_RT_SYNC) */
  FT_RT_ISEND,    /* p2p: MPI_Isend (Issend: FT_RT_SYNC) */
  FT_RT_RECV,     /* p2p: MPI_Recv */
  FT_RT_IRECV,    /* p2p: MPI_Irecv */
  FT_RT_SENDRECV, /* sendrecv: MPI_Sendrecv */
  FT_RT_COMPLETE, /* completion: wait*, test* */
  FT_RT_CANCEL,   /* p2p (request only): MPI_Cancel; with flag FT_RT_FREE,
                     MPI_Request_free */
  FT_RT_PROBE,    /* probe: MPI_Probe, MPI_Iprobe */
  FT_RT_COLL,     /* coll: a collective call */
  FT_RT_COMM,     /* comm_op: communicator creation or free */
  FT_RT_COMPUTE,  /* compute: computation between two MPI calls */
  FT_RT_MEMORY,   /* memory: the footprint changed */
  FT_RT_KIND_COUNT
};

/* p2p flags. */
#define FT_RT_WILD_SOURCE 1u /* receive posted with MPI_ANY_SOURCE */
#define FT_RT_WILD_TAG 2u    /* receive posted with MPI_ANY_TAG */
#define FT_RT_SYNC 4u        /* synchronous send (Ssend, Issend) */
#define FT_RT_FREE                                                             \
  8u /* a cancel event that is MPI_Request_free: the                           \
        request is never completed by a call */
/* A receive (recv, irecv, a sendrecv's receive half) whose message was
 * longer than the receive: the call returned MPI_ERR_TRUNCATE (to a
 * program with MPI_ERRORS_RETURN or a handler of its own) and `bytes` is
 * the receive's size (SMPI's status counts it, Open MPI's the message);
 * the sender's event has the message's. */
#define FT_RT_TRUNCATED 16u

/* MPI_Send/Isend/Recv/Irecv/Cancel. For receives, peer and tag are the
 * matched ones (the message's source and tag); `flags` says whether they
 * were posted as wildcards. peer is a rank in `comm`. `request` is the
 * call's request id (0 for blocking calls), unique among a rank's pending
 * requests. An irecv never completed in the trace has peer and tag
 * FT_RT_UNKNOWN unless the trace told the posted ones. */
struct ft_rt_p2p {
  uint32_t comm;
  int32_t peer;
  int32_t tag;
  uint32_t flags;
  uint64_t bytes;
  uint64_t request;
};

/* MPI_Sendrecv: the send half then the receive half (matched source and
 * tag; flags as for p2p, for the receive half). */
struct ft_rt_sendrecv {
  uint32_t comm;
  int32_t dest, send_tag;
  int32_t source, recv_tag;
  uint32_t flags;
  uint64_t send_bytes, recv_bytes;
};

/* Completion calls. */
enum ft_rt_call {
  FT_RT_WAIT = 1,
  FT_RT_WAITALL,
  FT_RT_WAITANY,
  FT_RT_WAITSOME,
  FT_RT_TEST,
  FT_RT_TESTALL,
  FT_RT_TESTANY,
  FT_RT_TESTSOME,
  FT_RT_CALL_COUNT
};

/* One request's fate in a completion call. */
enum ft_rt_status {
  FT_RT_DONE = 1,  /* completed by this call */
  FT_RT_NOT_DONE,  /* tested and found not complete */
  FT_RT_CANCELLED, /* completed as cancelled */
};

/* One request of a completion call. For a receive completed, comm, peer,
 * tag and bytes are the message's (matched); otherwise (a send, or a
 * request tested or cancelled) those of the call that posted it.
 * truncated: a receive completed with MPI_ERR_TRUNCATE (bytes is then the
 * receive's size, as FT_RT_TRUNCATED says; its posting event has that
 * flag too). */
struct ft_rt_done {
  uint64_t request;
  uint8_t status; /* enum ft_rt_status */
  uint8_t is_recv;
  uint32_t comm;
  int32_t peer, tag;
  uint64_t bytes;
  uint8_t truncated;
};

/* A completion call: `count` entries of the rank's done pool from
 * `first` (ft_rtrace_rank.done[first .. first+count-1]). An entry per
 * request the call completed or tested without completing. */
struct ft_rt_complete {
  uint8_t call; /* enum ft_rt_call */
  uint32_t first, count;
};

/* MPI_Probe (blocking) or MPI_Iprobe. peer and tag as posted (FT_RT_ANY
 * for wildcards); found: 1 a message matched, 0 not (Iprobe), -1 the trace
 * does not tell; then the matched message's source, tag and size. */
struct ft_rt_probe {
  uint8_t blocking;
  int8_t found;
  uint32_t comm;
  int32_t peer, tag;
  int32_t msg_peer, msg_tag;
  uint64_t msg_bytes;
};

/* Collectives (OTF2_COLLECTIVE_OP_* order, ftsim's own numbering). */
enum ft_rt_coll_op {
  FT_RT_BARRIER = 1,
  FT_RT_BCAST,
  FT_RT_GATHER,
  FT_RT_GATHERV,
  FT_RT_SCATTER,
  FT_RT_SCATTERV,
  FT_RT_ALLGATHER,
  FT_RT_ALLGATHERV,
  FT_RT_ALLTOALL,
  FT_RT_ALLTOALLV,
  FT_RT_ALLTOALLW,
  FT_RT_ALLREDUCE,
  FT_RT_REDUCE,
  FT_RT_REDUCE_SCATTER,
  FT_RT_REDUCE_SCATTER_BLOCK,
  FT_RT_SCAN,
  FT_RT_EXSCAN,
  FT_RT_COLL_COUNT
};

/* A collective as one record (not the runtime's point-to-point
 * expansion): root is a rank in comm (-1 for rootless ones); sent and recvd
 * are this rank's bytes in total (for the v-variants, the sums of its
 * counts times the type's size; with MPI_IN_PLACE, what goes on the wire:
 * the block of the receive buffer a rank contributes). flags: a
 * reduction's FT_RT_NONCOMMUTATIVE (its operation is not commutative: the
 * runtime then reduces in rank order, with other messages). */
struct ft_rt_coll {
  uint8_t op; /* enum ft_rt_coll_op */
  uint32_t comm;
  int32_t root;
  uint64_t sent, recvd;
  uint8_t flags;
};
enum { FT_RT_NONCOMMUTATIVE = 1 };

/* Communicator operations. */
enum ft_rt_comm_op {
  FT_RT_COMM_DUP = 1,
  FT_RT_COMM_SPLIT,
  FT_RT_COMM_CREATE,
  FT_RT_COMM_FREE,
  FT_RT_COMM_OP_COUNT
};

/* A communicator created from `parent` (dup, split with color and key,
 * create from a group) or freed. `comm` is the new (or freed)
 * communicator, FT_RT_COMM_NULL when this rank got MPI_COMM_NULL; its
 * members are in ft_rtrace.comms. color and key FT_RT_UNKNOWN when the
 * trace does not tell (Score-P). */
struct ft_rt_comm_ev {
  uint8_t op; /* enum ft_rt_comm_op */
  uint32_t parent, comm;
  int32_t color, key;
};

/* One event of a rank. */
struct ft_rt_event {
  uint8_t kind; /* enum ft_rt_kind */
  union {
    struct ft_rt_p2p p2p;
    struct ft_rt_sendrecv sendrecv;
    struct ft_rt_complete complete;
    struct ft_rt_probe probe;
    struct ft_rt_coll coll;
    struct ft_rt_comm_ev comm;
    double compute_s; /* seconds on the recording host (rank's speed) */
    uint64_t memory;  /* footprint in bytes from this event on */
  } u;
};

/* When an event happened, in seconds on the recording's clock (simulated
 * seconds under SMPI, MPI_Wtime under --real): an MPI call from its entry
 * to its exit, a computation from the end of one call to the start of the
 * next, a memory change at the start of the call it was seen at. */
struct ft_rt_span {
  double begin, end;
};

/* One rank's events, in program order, and its pool of completion
 * entries. host_speed: the recording host's speed in flop/s (0: not
 * known), so that a replay models compute_s * host_speed flops. span:
 * NULL, or one per event (ft_rtrace_keep_times; the recorder's, written
 * as the OTF2 events' timestamps); a reader leaves it NULL. */
struct ft_rtrace_rank {
  struct ft_rt_event *ev;
  size_t n, cap;
  struct ft_rt_done *done;
  size_t ndone, capdone;
  double host_speed;
  struct ft_rt_span *span;
  size_t capspan;
};

/* A communicator: its members as world ranks, in rank order (NULL for
 * MPI_COMM_SELF, which is each rank alone). */
struct ft_rt_comm {
  uint32_t size;
  uint32_t *members;
};

/* A run: metadata, communicators and ranks. Strings are owned. */
struct ft_rtrace {
  uint32_t nranks;
  char *program;  /* the recorded program's name ("" if unknown) */
  char *platform; /* the recording's platform ("real" for --real) */
  char *version;  /* ftsim's version that recorded it ("" if not ftsim) */
  struct ft_rt_comm *comms;
  uint32_t ncomms;
  struct ft_rtrace_rank *ranks; /* nranks of them */
};

/* Allocates an empty run of `nranks` ranks (>= 1) with the communicators
 * WORLD (all ranks) and SELF, empty strings and host speeds 0. Returns NULL
 * when out of memory or nranks is 0. Free with ft_rtrace_free. */
struct ft_rtrace *ft_rtrace_new(uint32_t nranks);

/* Frees a run and everything it holds; NULL is allowed. */
void ft_rtrace_free(struct ft_rtrace *t);

/* Replaces *dst (an owned string of the run) by a copy of `s`.
 * Returns 0, or -1 when out of memory (*dst unchanged). */
int ft_rtrace_set_string(char **dst, const char *s);

/* Appends a communicator of `size` members (world ranks, copied; NULL for
 * a SELF-like communicator) and returns its id, or FT_RT_COMM_NULL when
 * out of memory. */
uint32_t ft_rtrace_add_comm(struct ft_rtrace *t, uint32_t size,
                            const uint32_t *members);

/* Appends a copy of `ev` to rank `r`'s events (r < nranks). Returns a
 * pointer to the stored event (valid until the next append on that rank),
 * or NULL when out of memory. */
struct ft_rt_event *ft_rtrace_append(struct ft_rtrace *t, uint32_t r,
                                     const struct ft_rt_event *ev);

/* Keeps times on rank r from now on: the rank gets a span per event, the
 * events it holds and those appended later {0, 0} until set (through
 * t->ranks[r].span[i]). Returns 0, or -1 when out of memory. */
int ft_rtrace_keep_times(struct ft_rtrace *t, uint32_t r);

/* Appends a completion call of `call` with the `count` entries `done`
 * (copied into the rank's pool). Returns 0, or -1 when out of memory. */
int ft_rtrace_append_complete(struct ft_rtrace *t, uint32_t r, uint8_t call,
                              const struct ft_rt_done *done, uint32_t count);

/* Appends one entry to the rank's last event, which must be a completion
 * whose entries are the last of the pool. Returns 0, -1 out of memory. */
int ft_rtrace_complete_add(struct ft_rtrace *t, uint32_t r,
                           const struct ft_rt_done *d);

/* Names, for messages and docs: the kind, completion call, collective and
 * communicator operation as MPI spells them ("send", "MPI_Waitall",
 * "MPI_Allreduce", "MPI_Comm_split"); "?" when out of range. */
const char *ft_rt_kind_name(unsigned kind);
const char *ft_rt_call_name(unsigned call);
const char *ft_rt_coll_name(unsigned op);
const char *ft_rt_comm_op_name(unsigned op);

/* Returns 1 when the two runs hold the same metadata, communicators and
 * events (compute seconds equal within 1e-9 s, host speeds within 1e-9
 * relative), else 0; when they differ and `why` is not NULL, writes
 * where into it (whylen bytes). For the round-trip tests. */
int ft_rtrace_equal(const struct ft_rtrace *a, const struct ft_rtrace *b,
                    char *why, size_t whylen);

/* Per-rank figures of `ftsim trace-info`. */
struct ft_rtrace_stat {
  size_t by_kind[FT_RT_KIND_COUNT];
  uint64_t sent, recvd; /* p2p and collective bytes */
  double compute_s;
  uint64_t peak_memory;
};

/* Fills `s` with rank r's figures. */
void ft_rtrace_rank_stat(const struct ft_rtrace *t, uint32_t r,
                         struct ft_rtrace_stat *s);

/* --- What a replay carries out (rtrace_replayable.c) --- */

/* Returns 0 when `ftsim run --replay` can carry out event `e` (rank r's
 * event number `pos`), else -1 with "rank R, event N: <what> is not
 * supported by the replay" in err: a kind or collective out of range
 * (the readers refuse the records they do not know, naming them). */
int ft_rtrace_replayable_event(const struct ft_rt_event *e, uint32_t r,
                               size_t pos, char *err, size_t errlen);

/* ft_rtrace_replayable_event over every event of every rank; the first
 * refused one is reported. */
int ft_rtrace_replayable(const struct ft_rtrace *t, char *err, size_t errlen);

/* --- Counts of the v-collectives (rtrace_vcounts.c) --- */

/* 1 when collective `op` needs counts of other ranks that a rank's own
 * events do not hold: gatherv and scatterv (at the root), allgatherv,
 * reduce_scatter (every member's), alltoallv and alltoallw (per peer). */
int ft_rtrace_coll_needs_counts(uint8_t op);

/* Matches every communicator's collectives across its members (the k-th
 * call of each member is one instance) and writes to `path` the counts
 * each rank's replay needs, in the order of its events: per instance of
 * gatherv (root), scatterv (root), allgatherv and reduce_scatter the
 * communicator's size of byte counts (member i's sent bytes for gatherv
 * and allgatherv, its received bytes otherwise); per alltoallv/w the send
 * counts then the receive counts (the trace holds only each rank's totals:
 * a rank's sent bytes are spread over its peers in proportion to what each
 * received, so every pair agrees and every rank sends its total). Returns
 * 0, or -1 with a message naming the communicator and the collective when
 * members disagree, or the file cannot be written. */
int ft_rtrace_write_vcounts(const struct ft_rtrace *t, const char *path,
                            char *err, size_t errlen);

/* Reads rank `rank`'s counts from a file ft_rtrace_write_vcounts wrote:
 * *vals (malloc'ed, NULL when none) and *n. Returns 0, or -1 with err. */
int ft_rtrace_read_vcounts(const char *path, uint32_t rank, uint64_t **vals,
                           size_t *n, char *err, size_t errlen);

/* --- Consistent cuts (rtrace_cuts.c) --- */

/* Finds the world collectives at which the replay may checkpoint: the
 * k-th collective on MPI_COMM_WORLD (the k-th of every rank) is a cut when
 * no rank has a pending request before it and, per channel (communicator,
 * sender, receiver, tag), every message sent before the sender's k-th call
 * is received before the receiver's k-th (each rank's sends and receives
 * before the call are summed as 64-bit hashes of their channels, +
 * for a send and - for a receive; a cut is where the ranks' sums cancel,
 * so a false cut needs a 64-bit hash collision). Writes the cuts' k in
 * increasing order into *cuts (malloc'ed; NULL when none) and their number
 * into *n. Returns 0, or -1 when out of memory. */
int ft_rtrace_cuts(const struct ft_rtrace *t, uint64_t **cuts, size_t *n);

/* --- OTF2 (rtrace_otf2_write.c, rtrace_otf2_read.c) --- */

/* Writes `t` as an OTF2 archive: directory `dir` made (its parent must
 * exist; `dir` must not hold an archive), anchor file DIR/traces.otf2.
 * Returns 0, or -1 with a message in err (errlen bytes). */
int ft_rtrace_write_otf2(const struct ft_rtrace *t, const char *dir, char *err,
                         size_t errlen);

/* Reads an OTF2 archive (its anchor file .otf2, or the directory holding
 * traces.otf2) written by ftsim or the way Score-P writes MPI events.
 * Returns a run, or NULL with a message naming the location (OTF2 location
 * id, rank) and the event position for an unsupported or malformed record.
 * `rank` < 0 reads every rank; otherwise only that rank's events are read
 * (the others stay empty). */
struct ft_rtrace *ft_rtrace_read_otf2(const char *path, int rank, char *err,
                                      size_t errlen);

/* --- SimGrid time-independent traces (rtrace_ti.c) --- */

/* Reads a TI trace: `path` is the index file (one rank's file name per
 * line, relative to the index's directory) or a single-file trace holding
 * every rank's lines. flops become compute seconds at `host_speed` flop/s
 * (> 0: a TI trace holds flops, not seconds; the rank's host_speed is set
 * to it). Returns a run, or NULL with "FILE:LINE: ..." in err. `rank` as
 * for ft_rtrace_read_otf2. */
struct ft_rtrace *ft_rtrace_read_ti(const char *path, double host_speed,
                                    int rank, char *err, size_t errlen);

/* Reads either format: an OTF2 anchor (.otf2) or a directory holding
 * traces.otf2, else a TI index or trace. */
struct ft_rtrace *ft_rtrace_read(const char *path, double ti_host_speed,
                                 int rank, char *err, size_t errlen);

#endif /* FT_RTRACE_H */
