/* The trace checker's rule on collective calls carried as one unit (the
 * piggyback family, c3-collectives sections 4-5, Figures 5-8): the `coll`
 * records of every rank, matched by (communicator, SEQ). Pure C11: no
 * MPI, no global state.
 *
 * For each call (COMM, SEQ), over every incarnation:
 *  - every record names the same call (CALL) and root (ROOT);
 *  - "carried out" is `run`, `log` or `reexec`: a rank carries a call out
 *    at most once per incarnation; in an incarnation where some rank
 *    carries it out, no rank replays or suppresses it, and every rank
 *    that went past it there (a record of a later call on COMM) carried
 *    it out too (after a rollback a straddling call is either not carried
 *    out at all, its result logged or suppressed, or carried out by every
 *    member, the ranks behind the recovery line joining with dummy
 *    buffers: Figure 7's reexecList);
 *  - the decision of the ranks that carried it out in one incarnation
 *    follows their epochs as Figures 5-7 say: all-to-all (barrier, scan
 *    and exscan too) with two epochs, the ranks of the later one `log`,
 *    the others `run`; single-sender, a receiver logs exactly when its
 *    epoch is later than the root's, the root never; single-receiver, the
 *    root logs exactly when a member's epoch is earlier than its own, the
 *    members never;
 *  - a `replay` follows its rank's own `log` of the call in an earlier
 *    incarnation; `suppress` is of a single-receiver call at a member,
 *    `reexec` of a single-sender call at a receiver. */
#ifndef FT_COLL_CHECK_H
#define FT_COLL_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* HOW of a `coll` record (docs/traces.md). */
enum ft_coll_how {
  FT_HOW_RUN,
  FT_HOW_LOG,
  FT_HOW_REPLAY,
  FT_HOW_SUPPRESS,
  FT_HOW_REEXEC
};

/* One `coll` record: TIME RANK INC coll COMM CALL ID HOW SEQ EPOCH ROOT at
 * line `line` of rank `rank`'s file. */
struct ft_coll_rec {
  int rank, inc, comm, call, epoch, root;
  enum ft_coll_how how;
  int64_t seq;
  uint32_t line;
};

struct ft_coll_recs {
  struct ft_coll_rec *at;
  size_t n, cap;
};

/* What ft_coll_check found wrong: the record to blame, its field, and a
 * sentence naming the records it disagrees with. */
struct ft_coll_fault {
  struct ft_coll_rec rec;
  const char *field;
  char message[600];
};

/* Parses HOW ("run", "log", "replay", "suppress", "reexec"): 0 and *out,
 * or -1 for another word. */
int ft_coll_how_parse(const char *word, enum ft_coll_how *out);

/* Checks the rules above over recs (sorted in place). `files[r]` names
 * rank r's file in messages (r < ranks). Returns 0, or -1 with *fault set
 * (the first fault in (COMM, SEQ) order); -1 with fault->field NULL when
 * out of memory. */
int ft_coll_check(struct ft_coll_recs *recs, const char *const *files,
                  int ranks, struct ft_coll_fault *fault);

#endif /* FT_COLL_CHECK_H */
