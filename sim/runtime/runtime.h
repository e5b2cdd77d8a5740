/* The interposition runtime's per-rank state and internal entry points.
 *
 * Under SMPI every rank runs in one process, but the application module
 * (workload + this runtime, linked statically) is loaded once per rank with
 * SMPI's dlopen privatization, so the globals of this runtime are per rank,
 * exactly as with a real MPI where each rank is a process. */
#ifndef FT_RUNTIME_H
#define FT_RUNTIME_H

#include <mpi.h>
#include <setjmp.h>
#include <stdint.h>

#include "control.h"
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

enum { FT_MAX_REGIONS = 64 };

/* A buffer the application registered with ft_protect. */
struct ft_protected {
  void *ptr;
  size_t bytes;
  int used;
};

/* A local checkpoint: the image of one wave, kept in memory (the rank's own
 * copy; the server holds the durable one). */
struct ft_local_image {
  int wave;      /* 0: slot empty */
  int64_t index; /* safe point it was taken at */
  double time;   /* when */
  void *bytes;   /* ft_image_write format (sim/image.h) */
  size_t size;
  MPI_Request upload; /* the send of `bytes` to the server, or NULL */
};

/* What the dispatcher counts, reported to rank 0 at the end. */
struct ft_failure_figures {
  double failures, rollbacks, lost_work_s, recovery_s;
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

  /* Fault tolerance (a protocol that recovers; see control.h). */
  int recovering_protocol; /* non-zero: interruptible waits, services */
  int servers;             /* checkpoint servers: the service ranks */
  int incarnation;         /* 0, then one more at every rollback */
  MPI_Request ctrl_req;    /* the posted control receive */
  struct ft_wire ctrl_msg; /* its buffer */
  MPI_Comm app_base;       /* the application ranks, never used for traffic:
                              each incarnation's world is a duplicate */
  int argc;                /* main's arguments, to run it again */
  char **argv;

  /* Application state (checkpoint.c). */
  struct ft_protected regions[FT_MAX_REGIONS];
  int64_t safe_points; /* safe points passed in this run of main */
  int held;            /* the core holds the application at a safe point */
  double deadline;     /* the core's next timer, < 0 for none */
  struct ft_local_image images[2];
  int restore_wave;    /* > 0: restore this wave at the next safe point */
  int restore_pending; /* the next safe point is the first after a restart */

  /* Recovery (recovery.c). */
  jmp_buf restart_env;
  int restart_armed;        /* restart_env is set */
  int running;              /* the application runs (not in recovery) */
  int dead;                 /* this rank failed: its memory is lost */
  int rollback_inc;         /* incarnation ordered by the last ROLLBACK */
  int rollback_wave;        /* committed wave to restore */
  double restart_cost_s;    /* for a failed rank */
  int go_inc;               /* last GO received */
  int finished;             /* FINISH received */
  struct ft_wire *deferred; /* core messages that arrived during recovery */
  size_t n_deferred, cap_deferred;
  struct ft_wire image_offer; /* IMAGE answer from the server */
  void *image_bytes;          /* its bytes (NULL: the server had none) */
  int image_offered;          /* an answer to the current request came */

  /* Figures for the summary. */
  uint64_t waves_committed; /* rank 0 */
  uint64_t ckpt_bytes;      /* image bytes sent, modelled ones included */
  struct ft_failure_figures failures; /* rank 0, from the dispatcher */
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
/* Forgets every registered communicator without freeing anything: after a
 * rollback, the abandoned run's communicators may still have traffic. */
void ft_comm_abandon_all(void);
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

/* Checkpoints (checkpoint.c). */
void ft_state_protect(struct ft_runtime *rt, int id, void *ptr, size_t bytes);
/* The safe point behind ft_snapshot: returns an enum ft_snapshot_status. */
int ft_safe_point(struct ft_runtime *rt);
/* Carries out a core update (sends, flags, deadline). */
void ft_apply_update(struct ft_runtime *rt, const struct ft_update *u);
/* Feeds one event to the core and applies its update. */
void ft_core_step(struct ft_runtime *rt, struct ft_event *event);
/* Fires the core's timer if its deadline has passed. */
void ft_check_deadline(struct ft_runtime *rt);
/* Empties a local image slot, once its upload (if any) has left. */
void ft_release_local_image(struct ft_local_image *slot);
/* The local image of `wave`, or NULL. */
struct ft_local_image *ft_local_image_of(struct ft_runtime *rt, int wave);
/* Restores the protected buffers from `image` (size bytes); aborts the run
 * with a clear error when they do not match. */
void ft_restore_image(struct ft_runtime *rt, const void *image, size_t size);
/* World rank of the checkpoint server of application rank `rank`. */
int ft_server_of(const struct ft_runtime *rt, int rank);
/* World rank of the dispatcher (the first service rank). */
int ft_dispatcher(const struct ft_runtime *rt);

/* Last step before MPI_Finalize on every rank (runtime.c): waits until every
 * rank is there, then withdraws the control receive. */
void ft_settle_control(struct ft_runtime *rt);

/* Recovery (recovery.c). */
/* Abandons the application and runs the recovery, then main() again. */
_Noreturn void ft_rollback_now(struct ft_runtime *rt);
/* MPI_Finalize's first step under a recovering protocol: waits until every
 * rank finished (a rollback meanwhile does not return). */
void ft_wait_all_finished(struct ft_runtime *rt);

#endif /* FT_RUNTIME_H */
