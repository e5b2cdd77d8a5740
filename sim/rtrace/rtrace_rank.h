/* One rank's recording (`ftsim record`, issue 16): the file each rank of
 * a recorded run writes at MPI_Finalize (the runtime's recorder,
 * sim/runtime/record.c), and the merge of those files into one run (the
 * CLI, which then writes the OTF2 archive). Pure C11: no MPI, no OTF2, no
 * global state.
 *
 * The file is text, one record a line (docs/trace-format.md, "Rank
 * files"): a header with a version, the rank's communicators (the
 * runtime's name for each, the same on every member, and its members as
 * world ranks), its events, and an end line with the count of lines and a
 * checksum of everything before it, so that a truncated or altered file is
 * an error, not a shorter trace. */
#ifndef FT_RTRACE_RANK_H
#define FT_RTRACE_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "rtrace.h"

/* The version written in the header line ("ftsim-rank-record 3"; 2 adds
 * the events' spans, 3 a completion entry's TRUNCATED). */
#define FT_RTRACE_RANK_VERSION 3

/* One rank's recording: its events are those of rank 0 of `t` (a one-rank
 * run), whose communicators past SELF are this rank's own ids; names[c]
 * is communicator c's name (0 WORLD, 1 SELF: the runtime's ft_comm.name).
 * world_rank and nranks place it in the run. */
struct ft_rtrace_rank_file {
  uint32_t world_rank, nranks;
  struct ft_rtrace *t;
  int32_t *names; /* t->ncomms of them */
};

/* Writes rank 0 of `t` (its events, completion entries, spans if it keeps
 * times, host speed and the communicators past SELF with names[]) to `path` as
 * world rank `world_rank` of `nranks`. Returns 0, or -1 with a message naming
 * the path in err (errlen bytes). */
int ft_rtrace_write_rank(const struct ft_rtrace *t, const int32_t *names,
                         uint32_t world_rank, uint32_t nranks, const char *path,
                         char *err, size_t errlen);

/* Reads a file written by ft_rtrace_write_rank into *f. Returns 0, or -1
 * with "PATH:LINE: ..." in err for a file that is missing, truncated (no
 * end line, a count or checksum that does not match), of another version
 * or malformed. Free with ft_rtrace_rank_file_free. */
int ft_rtrace_read_rank(const char *path, struct ft_rtrace_rank_file *f,
                        char *err, size_t errlen);

/* Frees what *f holds (not f itself); a zeroed *f is allowed. */
void ft_rtrace_rank_file_free(struct ft_rtrace_rank_file *f);

/* Merges f's events (and their spans) into rank f->world_rank of `run`
 * (whose nranks must be f->nranks and that rank still empty): each communicator
 * of f is found in `run` by its name and members, or added; *names (n_names of
 * them, one per communicator of `run`, grown with realloc) holds the names of
 * run's communicators, 0 and 1 for WORLD and SELF. Returns 0, or -1 with
 * a message in err (a rank out of range or merged twice, memory). */
int ft_rtrace_merge_rank(struct ft_rtrace *run, int32_t **names,
                         const struct ft_rtrace_rank_file *f, char *err,
                         size_t errlen);

#endif /* FT_RTRACE_RANK_H */
