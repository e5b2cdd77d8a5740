/* The interposition runtime's per-rank state and internal entry points.
 *
 * Under SMPI every rank runs in one process, but the application module
 * (workload + this runtime, linked statically) is loaded once per rank with
 * SMPI's dlopen privatization, so the globals of this runtime are per rank,
 * exactly as with a real MPI where each rank is a process. */
#ifndef FT_RUNTIME_H
#define FT_RUNTIME_H

#include <mpi.h>
#include <stdint.h>

#include "ft_protocol.h"
#include "options.h"

/* A communicator as the application sees it, and what the runtime uses. */
struct ft_comm {
  MPI_Comm user; /* the handle the application holds (MPI_COMM_WORLD too) */
  MPI_Comm p2p;  /* carries the application's point-to-point messages */
  MPI_Comm coll; /* carries the runtime's collectives (own matching space) */
  int rank, size;
};

struct ft_counters {
  uint64_t messages; /* point-to-point sends, collectives' included */
  uint64_t bytes;    /* their payload bytes */
};

struct ft_runtime {
  int initialized, finalized;
  struct ft_options options;
  int world_rank, world_size; /* the real MPI_COMM_WORLD */
  int app_ranks;              /* world ranks [0, app_ranks) run the app */
  MPI_Comm app_world;         /* substitute world: the application's ranks */
  MPI_Comm control;           /* whole world, for runtime control messages */
  double start_time;          /* end of MPI_Init on this rank */
  const struct ft_protocol_ops *protocol;
  void *protocol_state;
  struct ft_counters counters;
  int result_reported, result_verified;
  double result_value;
};

/* This rank's runtime state (never NULL). */
struct ft_runtime *ft_runtime(void);

/* Reports a fatal runtime error on stderr, prefixed with "ftsim: ", and
 * aborts every rank. */
_Noreturn void ft_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Communicator table (comm.c). */
struct ft_comm *ft_comm_lookup(MPI_Comm user); /* NULL if not registered */
/* Resolves an application communicator; aborts on an unknown one. */
struct ft_comm *ft_comm_get(MPI_Comm user);
/* Registers `inner` (already created with PMPI) as the application's `user`
 * handle; creates its collective shadow. Returns the entry. */
struct ft_comm *ft_comm_register(MPI_Comm user, MPI_Comm inner);
void ft_comm_forget(MPI_Comm user);
/* Frees every registered communicator (at MPI_Finalize). */
void ft_comm_forget_all(void);
/* Maps MPI_COMM_WORLD to the substitute world; other handles unchanged. */
MPI_Comm ft_comm_inner(MPI_Comm user);

/* The protocol hook every intercepted operation goes through (runtime.c). */
void ft_protocol_event(enum ft_event_type type, int peer, int tag,
                       uint64_t bytes);

/* Point-to-point on the runtime's own channels, counted (p2p.c); used by
 * collectives (coll.c). */
int ft_send_internal(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm);
int ft_sendrecv_internal(const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                         int source, int tag, MPI_Comm comm);
void ft_count_send(int count, MPI_Datatype type);

#endif /* FT_RUNTIME_H */
