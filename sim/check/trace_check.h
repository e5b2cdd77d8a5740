/* The trace checker behind `ftsim check TRACE`: reads the event trace the
 * runtime writes with trace=TRACE (sim/runtime/trace.h) and proves what the
 * checkpointing protocols promise. Pure C11: no MPI, no global state.
 *
 * Trace files: TRACE.<rank> for every application rank 0..N-1 (required)
 * and TRACE.N (the checkpoint scheduler's, optional). Each starts with
 *   # ftsim-trace 1 rank R ranks N protocol P
 * then one record per line, "TIME RANK INC KIND FIELDS..." (TIME: simulated
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
 *   commit   WAVE INC                    WAVE committed in incarnation INC
 *   rollback WAVE INDEX                  this rank restarts (new INC) from
 *                                        committed WAVE (0: the beginning)
 *   ctl-send CTL PEER WAVE VALUE         core control message (CTL: marker,
 *   ctl-recv CTL PEER WAVE VALUE         wave-request, position, wave-at,
 *                                        done, cut)
 *   log, logged, replay  INTEGERS...     reserved for the logging protocols
 * CH is p (point-to-point) or c (a collective's shadow channel). A message
 * is (INC, COMM, CH, sender, receiver, TAG, SEQ): SEQ counts the messages
 * of one channel from the start of the incarnation, on both sides. */
#ifndef FT_TRACE_CHECK_H
#define FT_TRACE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ft_check_status {
  FT_CHECK_OK = 0,
  FT_CHECK_VIOLATION = 1, /* a promise broken: result.kind says which */
  FT_CHECK_MALFORMED = 2, /* bad input: result.message is FILE:LINE: ... */
};

struct ft_check_result {
  enum ft_check_status status;
  /* Violations: "orphan", "channel-state", "lost", "duplicate",
   * "restore-order", "phantom", "commit", "rollback"; "" otherwise. */
  const char *kind;
  char message[1024]; /* the violation, or the malformed input */
  uint64_t events, messages, waves, rollbacks, torn_lines;
  int ranks;
  char protocol[32];
};

struct ft_check;

/* A checker with no trace yet (NULL: out of memory). */
struct ft_check *ft_check_new(void);
void ft_check_free(struct ft_check *ck);

/* Reads one trace file (`name` for messages) from `f`. Returns 0, or -1
 * with res->status FT_CHECK_MALFORMED and a message naming name:line and
 * the field. A last line without its newline (a run that ended abruptly)
 * is ignored and counted in res->torn_lines. */
int ft_check_read(struct ft_check *ck, const char *name, FILE *f,
                  struct ft_check_result *res);

/* Runs every check on what was read; fills res and returns res->status. */
enum ft_check_status ft_check_run(struct ft_check *ck,
                                  struct ft_check_result *res);

/* Reads PREFIX.0 .. PREFIX.N-1 (and PREFIX.N when it exists) and checks
 * them. Returns res->status. */
enum ft_check_status ft_check_files(const char *prefix,
                                    struct ft_check_result *res);

/* The one-line summary of a successful check (seconds: time taken). */
void ft_check_summary(const struct ft_check_result *res, double seconds,
                      char *buf, size_t len);

#endif /* FT_TRACE_CHECK_H */
