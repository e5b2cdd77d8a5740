/* The trace checker behind `ftsim check TRACE`: reads the event trace the
 * runtime writes with trace=TRACE (sim/runtime/trace.h) and proves what the
 * checkpointing protocols promise. Pure C11: no MPI, no global state.
 *
 * Trace files: TRACE.<rank> for every application rank 0..N-1 (required)
 * and TRACE.N (the checkpoint scheduler's, optional). Each starts with
 *   # ftsim-trace 3 rank R ranks N protocol P family F run ID
 * (ID: 16 hex digits drawn once per run, the same in every file of a run)
 * and ends with its rank's end record, written at MPI_Finalize; between
 * them, one record per line, "TIME RANK INC KIND FIELDS..." (TIME: simulated
 * seconds, INC: the rank's incarnation). Kinds and fields (README.md,
 * "Traces", has the table):
 *   send     COMM CH PEER TAG SEQ BYTES  application or collective send
 *   deliver  COMM CH PEER TAG SEQ BYTES  a receive completed (PEER: sender)
 *   resend   COMM CH PEER TAG SEQ BYTES  vcl replay: recorded message sent
 *                                        again by its sender
 *   safe     INDEX                       safe point (ft_snapshot)
 *   restore  WAVE INDEX                  first safe point after a rollback:
 *                                        the image of WAVE (taken at INDEX)
 *   ckpt     WAVE INDEX                  local checkpoint of WAVE: the state
 *                                        at safe point INDEX
 *   store    WAVE                        vcl: image and channel state sent
 *   chanrec  WAVE COMM CH PEER TAG SEQ   vcl: a message kept as channel
 *                                        state of WAVE (PEER: its sender)
 *   restored COMM CH PEER TAG SEQ        any-call replay, vcl: message SEQ
 *                                        (of the restored wave's
 *                                        incarnation) of PEER restored from
 *                                        the channel state after the
 *                                        rollback: a replay of it
 *   commit   WAVE INC                    WAVE committed in incarnation INC
 *   rollback WAVE INDEX                  this rank restarts (new INC) from
 *                                        committed WAVE (0: the beginning)
 *   ctl-send CTL PEER WAVE VALUE         core control message (CTL: marker,
 *   ctl-recv CTL PEER WAVE VALUE         wave-request, position, wave-at,
 *                                        done, cut)
 *   end                                 the last record of a file: the
 *                                        rank finished (INC: its final
 *                                        incarnation)
 *   fail     RANK UNTIL                  dispatcher: RANK failed at TIME, its
 *                                        replacement may start at UNTIL
 *                                        (fail_check.h checks it)
 *   compute  START                       the rank computed (ft_compute)
 *                                        from START to TIME
 *   block    START                       the rank waited in a blocking
 *                                        communication from START to TIME
 *   image    WAVE START                  its image of WAVE went to its
 *                                        server from START; TIME: stored
 *   stop     WHY INC                     dispatcher: the run was stopped,
 *                                        it could not progress (WHY:
 *                                        stall_failures or max_time); the
 *                                        end checks (final incarnation,
 *                                        nothing lost) are not owed
 * CH is p (point-to-point) or c (a collective's shadow channel). A message
 * is (INC, COMM, CH, sender, receiver, TAG, SEQ): SEQ counts the messages
 * of one channel from the start of the incarnation, on both sides. */
#ifndef FT_TRACE_CHECK_H
#define FT_TRACE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ft_protocol.h"

enum ft_check_status {
  FT_CHECK_OK = 0,
  FT_CHECK_VIOLATION = 1, /* a promise broken: result.kind says which */
  FT_CHECK_MALFORMED = 2, /* bad input: result.message is FILE:LINE: ... */
};

struct ft_check_result {
  enum ft_check_status status;
  /* Violations: "orphan", "channel-state", "undrained" (the drain
   * family: a channel not empty at a committed wave), "lost", "duplicate",
   * "restore-order", "phantom", "commit", "rollback", "end" (ranks
   * finished in different incarnations); message logging's in ml_check.h;
   * "" otherwise. */
  const char *kind;
  char message[1024]; /* the violation, or the malformed input */
  uint64_t events, messages;
  /* What the run's summary counts, derived from the trace: waves (pcl,
   * vcl: commit records, each a checked consistent cut; message logging:
   * every rank's commit records), rollbacks (incarnations with rollback
   * records) and restarts (message logging: restart records). */
  uint64_t waves, rollbacks, restarts;
  int ranks;
  char protocol[32];
  uint64_t run; /* the run's identity, from the headers */
};

/* A trace file's first line. */
struct ft_trace_header {
  int rank, ranks;
  char protocol[32];
  enum ft_family family; /* which rules apply (ft_protocol.h) */
  uint64_t run;
  int real; /* " mode real" at the end: a run under a real MPI (its clock
               runs between a look at the failure time and the act) */
};

/* Parses `line` (no newline) as a header
 * "# ftsim-trace 3 rank R ranks N protocol P family F run ID [mode real]".
 * Returns 0,
 * or -1 with the reason in err (a version other than 3, an unknown
 * family). */
int ft_check_header(const char *line, struct ft_trace_header *h, char *err,
                    size_t len);

struct ft_check;

/* A checker with no trace yet (NULL: out of memory). */
struct ft_check *ft_check_new(void);
void ft_check_free(struct ft_check *ck);

/* Reads one trace file (`name` for messages) from `f`. Returns 0, or -1
 * with res->status FT_CHECK_MALFORMED and a message naming name:line and
 * the field. Malformed too: a header of another run (its ID, ranks or
 * protocol differ from the first file's). A truncated file (a last line
 * without its newline, or no end record: the run did not finish) is read
 * up to there and noted: ft_check_run reports it. */
int ft_check_read(struct ft_check *ck, const char *name, FILE *f,
                  struct ft_check_result *res);

/* Runs every check on what was read; fills res and returns res->status.
 * On a truncated trace, only the checks that hold on a prefix of each
 * history run (not phantom, not the end): a violation among them is
 * reported with the truncation noted, otherwise the trace is malformed
 * (the first truncated file and why).
 * Beyond the per-wave and per-rollback checks: at the end every message
 * of the final incarnation was delivered, and the replay of the final
 * rollback re-sent every message in transit at its wave's cut ("lost"). */
enum ft_check_status ft_check_run(struct ft_check *ck,
                                  struct ft_check_result *res);

/* Reads PREFIX.0 .. PREFIX.N-1 (and PREFIX.N when it exists) and checks
 * them. Returns res->status. A run relaunched after kills (failure=kill,
 * README "Real failures: kill and relaunch") also wrote
 * PREFIX.relaunch-L.R for launch L >= 1: each rank's files of every
 * launch are read as one history, in launch order (launch L's times after
 * launch L-1's latest, its lines numbered after that rank's earlier
 * files, its run ID its own). A killed launch's files may end anywhere (no
 * end record, a torn last line, a file missing) and a delivery of its
 * incarnation whose send record the kill cut off is no phantom; every
 * other check covers every launch: each commit's cut, each relaunch's
 * rollback to a wave an earlier launch committed (with the channel state
 * it restores), and the last launch's end. */
enum ft_check_status ft_check_files(const char *prefix,
                                    struct ft_check_result *res);

/* ---- Reading a trace for another tool (ftsim timeline) ----
 * One home for trace reading: the checker's readers (this file's, and
 * ml_check.c's for the message-logging family) hand each record they
 * accepted to a visitor, which builds its own model. */

/* One record as its reader accepted it. */
struct ft_trace_record {
  const char *file; /* its file's name, for messages */
  int line;         /* its line (a relaunch's numbered after the launch
                       before's, as ftsim check numbers them) */
  int rank;         /* the file's rank (its header's) */
  double time;      /* TIME, a relaunch's shifted as ftsim check shifts it */
  double offset;    /* that shift (0 but in a relaunch): add it to a time
                       field (ft_trace_field_time does) */
  int inc;
  const char *kind;
  char *const *field; /* the fields after KIND */
  int n;              /* how many */
};

struct ft_trace_visitor {
  /* Each file's header once it is accepted (NULL: not wanted). */
  void (*header)(void *ctx, const char *file, const struct ft_trace_header *h);
  /* Each comment line after the header ("# app NAME": the program's
   * name), text after the '#' (NULL: not wanted). */
  void (*comment)(void *ctx, const char *file, const char *text);
  /* Each record once its reader accepted it. Returns 0, or -1 with
   * res->message set (FILE:LINE: field 'F': ...): reading stops, the
   * trace is malformed. */
  int (*record)(void *ctx, const struct ft_trace_record *r,
                struct ft_check_result *res);
  void *ctx;
};

/* Reads every file of the run PREFIX as ft_check_files does (PREFIX.0 ..
 * PREFIX.N, the last optional, and a relaunched run's PREFIX.relaunch-L.R;
 * the message-logging family through ml_check.c's reader), handing each
 * header and record to `v`; checks nothing beyond the records' own form.
 * Returns FT_CHECK_OK (res->message: "" or the note of a truncated file,
 * which is read up to there) or FT_CHECK_MALFORMED with res->message
 * FILE:LINE: field 'F': .... */
enum ft_check_status ft_trace_read(const char *prefix,
                                   const struct ft_trace_visitor *v,
                                   struct ft_check_result *res);

/* 1 when `kind` is a span record of the timeline (compute, block, image:
 * docs/traces.md), which the checks read but do not use, else 0. */
int ft_trace_is_span(const char *kind);

/* Field i of `r` (0: the first after KIND) as an integer in [min, max]:
 * 0, or -1 with res (FT_CHECK_MALFORMED) naming file, line and field. */
int ft_trace_field_int(const struct ft_trace_record *r, int i,
                       const char *field, int64_t min, int64_t max,
                       int64_t *out, struct ft_check_result *res);

/* Field i of `r` as a time in seconds (>= 0, a number), shifted like the
 * record's TIME (r->offset added): 0, or -1 with res as above. */
int ft_trace_field_time(const struct ft_trace_record *r, int i,
                        const char *field, double *out,
                        struct ft_check_result *res);

/* The one-line summary of a successful check (seconds: time taken). */
void ft_check_summary(const struct ft_check_result *res, double seconds,
                      char *buf, size_t len);

#endif /* FT_TRACE_CHECK_H */
