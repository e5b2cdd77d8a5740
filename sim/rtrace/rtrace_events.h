/* The replay's events file (issue 16, item 6): a run's decoded events in
 * one binary file that `ftsim run --replay` writes once, before launch,
 * from the trace it has read whole, and from which each replay rank reads
 * its own share at startup: the run's communicators and its own events,
 * at offsets an index gives, instead of every rank opening the OTF2
 * archive (or TI trace) and decoding its definitions and location again.
 * Pure C11: no MPI, no OTF2, no global state.
 *
 * The file is a temporary of one run, written and read by the same build:
 * events and completion entries are stored as the model's structs (native
 * byte order and layout; the header records their sizes, so that a file
 * from another build is refused, not misread). Layout: a header (magic
 * "ftsimev1", ranks, communicators, struct sizes, where the communicators
 * are), one index entry per rank (where its events and completion entries
 * are, their numbers, its host speed), the communicators (size, members),
 * then each rank's events and completion entries. */
#ifndef FT_RTRACE_EVENTS_H
#define FT_RTRACE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "rtrace.h"

/* One rank's share of a run, as its replay needs it: the run's ranks and
 * communicators (ft_rtrace's numbering) and the rank's own events, so that
 * a replay rank holds nothing of the other ranks'. */
struct ft_rtrace_one {
  uint32_t nranks, rank;
  struct ft_rt_comm *comms;
  uint32_t ncomms;
  struct ft_rtrace_rank me;
};

/* Writes the events file of `t` to `path` (created or truncated).
 * Returns 0, or -1 with a message naming the file in err (errlen bytes). */
int ft_rtrace_write_events(const struct ft_rtrace *t, const char *path,
                           char *err, size_t errlen);

/* Reads rank `rank`'s share from an events file into *o (its previous
 * contents ignored; free with ft_rtrace_one_free). Returns 0, or -1 with a
 * message naming the file in err when it cannot be read, is not an events
 * file of this build, is truncated, or has no such rank (*o is then
 * empty). */
int ft_rtrace_read_events(const char *path, uint32_t rank,
                          struct ft_rtrace_one *o, char *err, size_t errlen);

/* Moves rank `rank`'s events and the communicators out of `t` into *o,
 * then frees `t` (for a replay that read the trace itself). rank must be <
 * t->nranks. */
void ft_rtrace_take_one(struct ft_rtrace *t, uint32_t rank,
                        struct ft_rtrace_one *o);

/* Frees what *o holds and empties it; an empty *o is allowed. */
void ft_rtrace_one_free(struct ft_rtrace_one *o);

#endif /* FT_RTRACE_EVENTS_H */
