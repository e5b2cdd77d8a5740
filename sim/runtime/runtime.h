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

#include "anycall.h"
#include "channel_state/cs_state.h"
#include "control.h"
#include "drain/drain_state.h"
#include "driver.h"
#include "fate.h"
#include "ft_protocol.h"
#include "image.h"
#include "message_logging/ml_state.h"
#include "options.h"
#include "piggyback/pb_state.h"
#include "record.h"
#include "trace.h"

enum { FT_MAX_GROUP_KEYS = 16 };

/* A communicator as the application sees it, and what the runtime uses. */
struct ft_comm {
  MPI_Comm user; /* the handle the application holds (MPI_COMM_WORLD too) */
  MPI_Comm p2p;  /* carries the application's point-to-point messages */
  MPI_Comm coll; /* carries the runtime's collectives (own matching space) */
  int rank, size;
  int *app_rank; /* app_rank[r]: application rank of rank r (size ints) */
  uint64_t id;   /* the same on every member, new in every incarnation; 0:
                    unknown (registered on first use): no gate (gate.c) */
  int name;      /* how records, channels and traces name it across ranks and
                    rollbacks (comm.c): the same on every member and, for the
                    communicators main() creates in the same order, in every
                    incarnation; 0: MPI_COMM_WORLD, 1: MPI_COMM_SELF, -1: none */
  int gates;     /* creation calls made on it so far (gate.c) */
  int topo;      /* MPI_CART (made by MPI_Cart_create or _sub), else
                    MPI_UNDEFINED: MPI_Topo_test (SMPI 3.32 has none) */
  /* MPI_Comm_create_group on it: calls made so far per group and tag (only
   * the group's members count them, gate.c) */
  struct ft_group_gates {
    int key;  /* the group's members and the tag (ft_comm_group_key) */
    int made; /* calls made with it */
  } group_gates[FT_MAX_GROUP_KEYS];
  int n_group_gates;
  MPI_Errhandler errhandler; /* the application's (errors.c): inherited
                                from the parent, MPI_ERRORS_ARE_FATAL */
};

enum { FT_MAX_COMMS = 512 };

/* The communicator table (comm.c): the registered communicators, those of
 * abandoned runs, and (message logging) those main() created. */
struct ft_abandoned;
struct ft_comms {
  int used; /* before the table: every lookup reads it */
  struct ft_comm table[FT_MAX_COMMS];
  struct ft_abandoned *abandoned; /* kept until settled (settle.c) */
  size_t n_abandoned, cap_abandoned;
  MPI_Comm *created; /* by main(), in order (message logging) */
  size_t n_created, cap_created;
  size_t replayed; /* how many of them a restarted main() got back */
};

/* The application's posted receives (delivery.c). */
struct ft_posted;
/* A receive the runtime completed before the application did (delivery.c,
 * resolve_wildcards): the application's handle of it (a record of
 * persist.c's, never reused while the record lives: the library's handle,
 * freed, may be), and its status. */
struct ft_resolved {
  MPI_Request owner;
  MPI_Status status;
};
struct ft_deliveries {
  struct ft_posted *posted; /* in posting order */
  size_t n_posted, cap_posted;
  size_t ahead_of; /* delivering 1: posted[0..ahead_of) were posted before */
  int delivering;  /* the posted receive being delivered (ft_delivery_ahead) */
  struct ft_resolved *resolved; /* delivered, not yet taken by persist.c */
  size_t n_resolved, cap_resolved;
};

/* A creation of a communicator, a collective call only the MPI library can
 * make (gate.c): its arguments, copied so that the call can still be made
 * after the application's frame is gone (a rollback). */
enum ft_gate_kind {
  FT_GATE_DUP = 1,
  FT_GATE_SPLIT,
  FT_GATE_CREATE,
  FT_GATE_CART,
  FT_GATE_SPLIT_TYPE,
  FT_GATE_CART_SUB,
  FT_GATE_CREATE_GROUP
};
enum { FT_GATE_MAX_DIMS = 8 };
struct ft_gate_call {
  enum ft_gate_kind kind;
  MPI_Comm user;   /* the parent, as the application names it */
  int color, key;  /* split; split_type: color is the type */
  MPI_Info info;   /* split_type */
  MPI_Group group; /* create, create_group (color is its tag) */
  int ndims, reorder, dims[FT_GATE_MAX_DIMS], periods[FT_GATE_MAX_DIMS];
  /* cart_sub: ndims of the parent, dims[] its remain_dims */
};

/* The gate this rank stands in, or stood in when a rollback came. */
struct ft_gate {
  int active;   /* ENTER sent (or this rank leads), call not made yet */
  uint64_t id;  /* the parent's id */
  int k;        /* the call's number on the parent (ft_comm.gates + 1) */
  int leader;   /* world rank of the parent's rank 0: it decides */
  int decision; /* 0: none yet; 1: every member entered, make the call;
                   -1: the leader rolled back first, nobody makes it */
  int lost;     /* message logging: a member's life that failed before the
                   decision; the call is made when the decision comes, or
                   by the next life when it reaches it (gate.c) */
  struct ft_gate_call call;
};

/* An ENTER kept by a leader until its own application reaches the gate. */
struct ft_gate_enter {
  uint64_t id;
  int k, from;
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

/* Application heap (app_heap.c): the blocks the application allocated,
 * tagged with the life that allocated them, so that an abandoned life's
 * can be freed (a logical failure leaves them allocated). */
struct ft_heap_block;
struct ft_app_heap {
  struct ft_heap_block *blocks; /* every live block, newest first */
  int64_t life;                 /* the current life: 0, then one more at
                                   every failure that ends one */
  uint64_t bytes, peak;         /* the application's bytes held now, most */
  uint64_t released;            /* bytes of abandoned lives freed */
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
  uint64_t seq;       /* the upload's number (its STORE's x[1]) */
  int stored;         /* the server said STORED: the upload has completed */
  void *padding;      /* its modelled bytes (backend.h), or NULL */
};

/* How the library completes a pending request (struct ft_pending). */
enum ft_at_once {
  FT_AT_ONCE_UNKNOWN = -1, /* not known (a family's send) */
  FT_AT_ONCE_NO = 0,       /* a receive, or a send that waits for its
                              receiver (synchronous, or too long to be
                              detached) */
  FT_AT_ONCE_YES = 1       /* a standard send complete when posted
                              (ft_backend_send_done_below) */
};

/* A request the runtime started on an application communicator and that
 * has not completed (settle.c). */
struct ft_pending {
  MPI_Request req;
  MPI_Comm comm; /* the runtime's handle it runs on (p2p or shadow) */
  int send;      /* 1: a send to peer; 0: a receive from peer */
  int peer, tag; /* rank in comm (or MPI_ANY_SOURCE), tag (or MPI_ANY_TAG) */
  int at_once;   /* enum ft_at_once */
  int bytes;     /* a send's size (its status's count) */
};

/* Sends complete when posted whose handles a wait let go of, freed
 * together by one MPI_Waitall (pending.c). */
enum { FT_RETIRE_BATCH = 64 };

struct ft_type_info; /* types.c */

/* A persistent request (persist.c): MPI_Start posts its operation. */
enum ft_persist_kind {
  FT_PERSIST_SEND,
  FT_PERSIST_SSEND,
  FT_PERSIST_RSEND,
  FT_PERSIST_RECV
};
struct ft_persistent {
  MPI_Request handle; /* the application's: a generalized request never
                         completed nor freed (an identity) */
  MPI_Request active; /* the operation in flight, MPI_REQUEST_NULL if none */
  int made_inc;       /* rt->incarnation and rt->safe_points when made: */
  int64_t made_at;    /* let go before either changes, no image holds it */
  enum ft_persist_kind kind;
  void *buf;
  int count;
  MPI_Datatype type;
  int peer, tag; /* as the application gave them */
  MPI_Comm comm; /* the application's handle */
  int held;      /* completed, not reported yet (ft_persist_hold) */
  MPI_Status held_status;
  int held_err; /* the completion's error (MPI_SUCCESS but for a receive
                   the runtime completed first: delivery.c, resolve) */
  int oneshot;  /* not persistent: an operation completed already
                   (ft_persist_completed), or one the runtime owns
                   (ft_persist_own); its handle nulled once reported */
};

/* What the dispatcher counts, reported to rank 0 at the end. */
struct ft_failure_figures {
  double failures, rollbacks, lost_work_s, recovery_s;
};

/* An error handler the application made (errors.c). */
enum { FT_MAX_ERRHANDLERS = 32 };
typedef void ft_f_errhandler_fn(MPI_Fint *comm, MPI_Fint *code);
struct ft_errhandler {
  MPI_Errhandler handle;
  MPI_Comm_errhandler_function *fn; /* a C handler, or */
  ft_f_errhandler_fn *f_fn;         /* a Fortran one */
};

struct ft_runtime {
  int initialized, finalized;
  struct ft_options options;
  int world_rank, world_size; /* the real MPI_COMM_WORLD */
  int app_ranks;              /* world ranks [0, app_ranks) run the app */
  MPI_Comm app_world;         /* substitute world: the application's ranks */
  MPI_Comm control;           /* for runtime control messages: the real
                                 MPI_COMM_WORLD, or with no service rank (the world
                                 is the application's) its world's shadow */
  double start_time;          /* end of MPI_Init on this rank */
  double init_time; /* the start line (split_world): the time 0 of failures
                       (the dispatcher's and fate.h's) */
  const struct ft_protocol_ops *protocol;
  /* The operations its family replaces (driver.h), chosen at start. */
  const struct ft_driver *driver;
  void *protocol_state;
  struct ft_counters counters;
  /* Each module's own state, handed to it (issue 15, item 2); comm.c's is
   * the last member. Those every MPI call reads (the flags of record,
   * trace and fate; the counters above) are near the top: under SMPI
   * every rank's state is its own copy, and each page an MPI call touches
   * is touched once per rank (issue 18: 136 KB a rank, the call's fields
   * on 8 pages of it, spread over 130 KB, before). */
  struct ft_record_state record;   /* record.c (`ftsim record`) */
  struct ft_trace_state trace;     /* trace.c */
  unsigned test_polls;             /* p2p.c: tests since the last poll */
  struct ft_deliveries deliveries; /* delivery.c */
  struct ft_fate fate;             /* fate.c: this rank's own failures */
  int result_reported, result_verified;
  int universe_size; /* MPI_UNIVERSE_SIZE's value, as MPI_Comm_get_attr
                        gives it (comm.c): the application's ranks */
  double result_value;
  /* The application's error handlers, a ring (errors.c). */
  struct ft_errhandler errhandlers[FT_MAX_ERRHANDLERS];
  int errhandlers_made;
  /* The derived datatypes the application made (types.c). */
  struct ft_type_info *types;
  size_t n_types, cap_types;
  /* The application's persistent requests (persist.c): removed when let
   * go, unless an image may hold the handle (made before a safe point). */
  struct ft_persistent *persistent;
  size_t n_persistent, cap_persistent;

  /* Fault tolerance (a protocol that recovers; see control.h). */
  int recovering_protocol; /* non-zero: interruptible waits, services */
  int coll_unit;           /* a collective carried as one unit is under way
                              (coll_unit.c): its messages go raw, untraced */
  int track_deliveries;    /* DELIVERED events / daemon model: delivery.c */
  int servers;             /* checkpoint servers: the service ranks */
  int incarnation;         /* 0, then one more at every rollback */
  MPI_Request ctrl_req;    /* the oldest posted control receive (its
                              buffer and the others': ctl) */
  int64_t *ctrl_counts;    /* sent to [0, world), then taken from [world,
                              2 world): ft_control_drain */
  MPI_Comm app_base;       /* the application ranks (MPI_COMM_WORLD with no
                              service rank): the first incarnation's world,
                              each later one's is a duplicate */
  int argc;                /* main's arguments, to run it again */
  char **argv;
  const void *init_caller; /* where the application called MPI_Init from
                              (its module: ft_backend_entry_points) */

  /* Application state (checkpoint.c). */
  struct ft_protected regions[FT_MAX_REGIONS];
  int64_t safe_points; /* safe points passed in this run of main */
  int held;            /* the core holds the application at a safe point */
  int at_safe_point;   /* the application stands at safe point safe_points
                          (inside ft_snapshot) */
  double deadline;     /* the core's next timer, < 0 for none */
  struct ft_local_image images[2];
  int images_held, images_peak; /* images this rank holds (its slots, and
                                  lost lives' uploads): now, at the most */
  int restore_wave;    /* > 0: restore this wave at the next safe point */
  int restore_pending; /* the next safe point is the first after a restart */

  /* Recovery (recovery.c). */
  jmp_buf restart_env;
  int restart_armed;          /* restart_env is set */
  uintptr_t loop_sp, fail_sp; /* stack addresses: the restart loop's frame,
                                 the last failure's (recovery.c) */
  size_t alone_gap;           /* stack kept below the loop's frame during
                                 the restart of a rank alone */
  size_t gap_max;             /* the deepest gap of the run (summary) */
  size_t zone_gap;            /* pcl, vcl: stack kept above the running life
                                 (0, or zone_depth; recovery.c) */
  size_t zone_depth;          /* pcl, vcl: the deepest lost life, plus a
                                 margin */
  int life_running;           /* main() runs: the next failure ends a life
                                 (not a recovery) */
  struct ft_app_heap heap;    /* the application's blocks (app_heap.c) */
  struct ft_pending *pending; /* settle.c: requests on application
                                 communicators not yet complete, in
                                 posting order (pcl, vcl) */
  size_t n_pending, cap_pending;
  size_t n_at_once;    /* pending.c: entries of `pending` FT_AT_ONCE_YES */
  int send_done_below; /* pending.c: ft_backend_send_done_below() */
  MPI_Request retired[FT_RETIRE_BATCH]; /* pending.c: sends completed
                                           without the library's wait,
                                           not freed yet */
  int n_retired;
  int feeds_asked, feeds_done; /* this settle's FEED requests, answers */
  struct ft_wire *early_feeds; /* settle.c: FEEDs of an incarnation whose
                                  GO this rank had not heard yet */
  size_t n_early_feeds, cap_early_feeds;
  int *settled;              /* settled[r]: the last incarnation
                                application rank r settled */
  MPI_Request *wait_scratch; /* control.c: requests of a long wait */
  size_t cap_wait_scratch;
  int running;           /* the application runs (not in recovery) */
  int dead;              /* this rank failed: its memory is lost */
  int rollback_inc;      /* incarnation ordered by the last ROLLBACK */
  int rollback_wave;     /* committed wave to restore */
  double restart_cost_s; /* for a failed rank */
  int go_inc;            /* last GO received */
  int arm_kill_at_go;    /* failure=kill, a relaunched rank: its kill is
                            armed when the run resumes (GO) */
  int finished;          /* FINISH received */
  int stopped;           /* ... saying the run is stopped: it cannot
                            progress (FINISH's wave = 1) */
  int stopping;          /* this rank is in ft_stop_now */
  /* How ft_stop_now ends the run: runtime.c's ft_finalize_stopped,
   * installed at MPI_Init (an upcall: recovery.c sits below the life
   * cycle); must not return. */
  void (*finish_stopped)(struct ft_runtime *rt);
  int peers_stopped;      /* STOPPED messages received */
  uint64_t paddings_sent; /* modelled transfers started (their numbers) */
  struct ft_gate gate;    /* gate.c */
  struct ft_gate_enter *gate_enters;
  size_t n_gate_enters, cap_gate_enters;
  struct ft_wire *deferred; /* core messages that arrived during recovery */
  size_t n_deferred, cap_deferred;
  struct ft_wire image_offer; /* IMAGE answer from the server */
  void *image_bytes;          /* its bytes (NULL: the server had none) */
  int image_offered;          /* an answer to the current request came */
  /* Image requests without an answer yet: now, at the most (each holds a
   * copy of the image at its server, service.c). */
  int image_asks, image_asks_peak;

  /* The families' own state, each handed to its family's driver only
   * (driver.h): a member per family, zeroed like the rest, so that no
   * driver allocates at start and a rank's figures read 0 where its
   * family counts none. */
  struct ft_cs cs;       /* channel state (channel_state/cs_state.h) */
  struct ft_ml ml_state; /* message logging (message_logging/ml_state.h) */
  struct ft_pb pb;       /* piggyback (piggyback/pb_state.h) */
  struct ft_drain drain; /* the drain family on-line (drain/drain_state.h) */
  /* The any-call transport (anycall.h, sim/ft_anycall.h): a replay's
   * checkpoints at any MPI call; its `on` is read by the safe point and
   * its `footprint` by the image's upload (checkpoint.c). */
  struct ft_ac ac;

  /* Figures for the summary. */
  uint64_t waves_committed; /* rank 0 (pcl; vcl: the scheduler's, from
                               FINISH); message logging: this rank's */
  uint64_t ckpt_bytes;      /* image bytes sent, modelled ones included */
  double ckpt_write_s;      /* storage (not network): seconds of disk writes of
                               this rank's images, the local one and the
                               server's (from its STORED) */
  double restart_read_s;    /* storage: seconds this rank waited for its
                               image's modelled bytes at a restart (the disk
                               read, and the transfer unless local) */
  struct ft_failure_figures failures; /* rank 0, from the dispatcher */

  uint64_t trace_run; /* the run's identity in its trace (trace.h) */

  struct ft_control_state ctl; /* control.c (ctrl_* above too) */
  /* The communicator table (comm.c), last: its 512 entries are 100 KB,
   * of which a run uses the first few (see the note above). */
  struct ft_comms comms;
};

/* The driver of protocol family `family` (drivers.c): its const table;
 * aborts the run when the family has no table (none's default path would
 * silently not recover: only FT_FAMILY_NONE runs without one of its own)
 * or when a table that posts its own requests leaves some of their
 * completions to the default path. */
const struct ft_driver *ft_driver_of(enum ft_family family);

/* This rank's runtime state (never NULL). */
struct ft_runtime *ft_runtime(void);

/* Notes `caller`, a return address into the application's module, as where
 * it called MPI_Init, unless one is noted already (runtime.c; the Fortran
 * bindings note their caller before calling MPI_Init). */
void ft_note_init_caller(struct ft_runtime *rt, const void *caller);

/* Reports a fatal runtime error on stderr, prefixed with "ftsim: ", and
 * aborts every rank. */
_Noreturn void ft_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* The runtime's own MPI calls: returns if rc is MPI_SUCCESS, else stops the
 * run (ft_fatal) with the rank, the call (its C name, "MPI_Isend") and the
 * error's class and text. A call made on the application's behalf whose
 * code goes back to the application is not checked here. */
void ft_pmpi_check(int rc, const char *call);
/* FT_PMPI(Isend, args...): PMPI_Isend(args...), checked (ft_pmpi_check). */
#define FT_PMPI(fn, ...) ft_pmpi_check(PMPI_##fn(__VA_ARGS__), "MPI_" #fn)

/* A packed copy of count elements of `type` at buf (MPI_BOTTOM allowed),
 * malloc'd, its size in *bytes (pack.c). Any datatype MPI allows: the
 * packed size is count x MPI_Type_size, never taken from the extent.
 * Stops the run if the copy would exceed INT_MAX bytes (one MPI_PACKED
 * message) or memory runs out. */
void *ft_pack_copy(struct ft_runtime *rt, const void *buf, int count,
                   MPI_Datatype type, MPI_Comm comm, size_t *bytes);

/* Stops the run (ft_fatal) because the application made `call` (its C
 * name, "MPI_Ibcast"), which the runtime does not support (unsupported.c). */
_Noreturn void ft_unsupported(const char *call);

/* Makes room for `need` elements of `size` bytes in `array` (capacity
 * *cap, doubled as needed, 16 at first) and returns it, perhaps moved;
 * aborts naming `what` when out of memory. For the runtime's growing
 * arrays: `p = ft_reserve(p, n + 1, &cap, sizeof *p, "...")`. */
void *ft_reserve(void *array, size_t need, size_t *cap, size_t size,
                 const char *what);

/* The handles of n requests before a completion call (to name what
 * completed once the library has reset them), in `small` when they fit;
 * free with ft_handles_free. Aborts when out of memory. */
MPI_Request *ft_handles_copy(int n, const MPI_Request reqs[],
                             MPI_Request small[16]);
void ft_handles_free(MPI_Request *copy, MPI_Request small[16]);

/* Statuses for n requests: the application's `statuses`, or scratch ones
 * (in `small` when they fit) when it passed MPI_STATUSES_IGNORE; release
 * with ft_statuses_free. Aborts when out of memory. */
MPI_Status *ft_statuses_for(int n, MPI_Status statuses[], MPI_Status small[16]);
void ft_statuses_free(MPI_Status *st, MPI_Status statuses[],
                      MPI_Status small[16]);

/* Starts a generalized request (MPI_Grequest_start) whose query gives an
 * empty status (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, MPI_SUCCESS) and
 * whose free and cancel do nothing: a handle the runtime completes
 * (MPI_Grequest_complete) when it decides, for a persistent request's
 * record, a send the wire already has, a charge of SMPI's MPI_Test. */
void ft_grequest(MPI_Request *req);

/* MPI's error semantics for the application's calls (errors.c). `call` is
 * the MPI function the application made ("MPI_Recv"), `comm` the
 * communicator it passed, as it holds it. */

/* Applies the handler attached to comm (MPI_COMM_NULL: MPI_COMM_WORLD's)
 * to a failed call: MPI_ERRORS_ARE_FATAL ends the run with a message
 * naming the call, the error class, `what` (may be NULL) and the
 * communicator (ft_fatal); otherwise returns `code`, after calling the
 * application's handler with its handle and the code if it made one. */
int ft_err_raise(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                 int code, const char *what);
/* rc if MPI_SUCCESS, else ft_err_raise(rt, call, comm, rc, NULL). */
int ft_err_result(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                  int rc);
/* The checks below return MPI_SUCCESS when the arguments are valid, else
 * what ft_err_raise returns for the error MPI specifies. */
/* comm is not MPI_COMM_NULL (MPI_ERR_COMM). */
int ft_err_comm(struct ft_runtime *rt, const char *call, MPI_Comm comm);
/* count >= 0 (MPI_ERR_COUNT), type is not MPI_DATATYPE_NULL (TYPE). */
int ft_err_buffer(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                  int count, MPI_Datatype type);
enum ft_err_side { FT_ERR_DEST, FT_ERR_SOURCE };
/* comm (ft_err_comm), then peer a rank of comm or MPI_PROC_NULL (or, for
 * a source, MPI_ANY_SOURCE; MPI_ERR_RANK) and tag >= 0 (or, for a source,
 * MPI_ANY_TAG; MPI_ERR_TAG). The message of -1 says that it is Open MPI's
 * wildcard, not this library's. */
int ft_err_peer(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                int peer, int tag, enum ft_err_side side);
/* ft_err_peer, then ft_err_buffer. */
int ft_err_p2p(struct ft_runtime *rt, const char *call, MPI_Comm comm,
               int count, MPI_Datatype type, int peer, int tag,
               enum ft_err_side side);
/* comm (ft_err_comm), then root a rank of comm (MPI_ERR_ROOT). */
int ft_err_root(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                int root);
/* MPI_Comm_create_errhandler for a Fortran subroutine HANDLER(COMM, CODE)
 * (fortran.c): ft_err_raise calls it with the Fortran handles. */
int ft_err_create_fortran(struct ft_runtime *rt, ft_f_errhandler_fn *fn,
                          MPI_Errhandler *handler);

/* Persistent requests (persist.c). */
/* MPI_Send_init and its kin (`call` names it): checks the arguments
 * (errors.c), records them and gives the application a new handle. */
int ft_persist_init(const char *call, enum ft_persist_kind kind, void *buf,
                    int count, MPI_Datatype type, int peer, int tag,
                    MPI_Comm comm, MPI_Request *request);
/* The count of records (tests/runtime/persist_check.c: MPI_Request_free
 * removes them). */
size_t ft_persist_records(void);
/* The record of the persistent request whose handle is `handle`, or NULL
 * (MPI_REQUEST_NULL, or not one). */
struct ft_persistent *ft_persist_find(MPI_Request handle);
/* MPI_Request_free of *request if it is a persistent request: *request set
 * to MPI_REQUEST_NULL, its operation in flight (or MPI_REQUEST_NULL) moved
 * to *active for the caller (p2p.c's MPI_Request_free) to free, the record
 * removed unless a safe point passed (or a rollback came) since it was
 * made (an image may hold its handle); MPI_SUCCESS. -1 if it is not one. */
int ft_persist_free(MPI_Request *request, MPI_Request *active);
/* MPI_Cancel of `request` if it is a persistent request (or a record of
 * ft_persist_completed, ft_persist_own): MPI_SUCCESS, and
 * in *active a copy of the handle of its operation in flight, for the
 * caller (p2p.c's MPI_Cancel) to cancel, or MPI_REQUEST_NULL when there is
 * none (inactive, or completed already). A copy: the table may move while
 * the caller cancels (ft_persist_completed grows it); the caller hands a
 * completion back with ft_persist_hold. -1 if it is not one. */
int ft_persist_cancel(MPI_Request request, MPI_Request *active);
/* For a completion call on reqs[0..n): the array to pass on, in which each
 * persistent handle is replaced by its operation in flight (or
 * MPI_REQUEST_NULL); reqs itself when the application has no persistent
 * request, else `small` (n <= 16) or a malloc'd copy. */
MPI_Request *ft_persist_in(int n, MPI_Request reqs[], MPI_Request small[16]);
/* After the call: writes back what it did to `inner` (ft_persist_in's
 * result): a completed persistent operation leaves its record inactive and
 * the application's handle as it was; frees the copy. */
void ft_persist_out(int n, MPI_Request reqs[], MPI_Request *inner,
                    MPI_Request small[16]);
/* The operation of `handle` completed without a call reporting it (SMPI's
 * MPI_Testall completing some, a cancelled receive: p2p.c): if it is a
 * persistent request, makes it inactive and keeps *st as its completion, to
 * be reported by the next wait or test (ft_persist_held) and returns 1;
 * else 0. */
int ft_persist_hold(MPI_Request handle, const MPI_Status *st);
/* If `handle` is a persistent request with a completion held, writes its
 * status to *st (unless MPI_STATUS_IGNORE), releases it if `release` (the
 * call reports it) and returns 1; else 0. */
int ft_persist_held(MPI_Request handle, MPI_Status *st, int release);
/* The error of handle's held completion, not reported yet: what its wait
 * or test must return (MPI_ERR_TRUNCATE for a receive the runtime
 * completed first into a buffer too small); MPI_SUCCESS otherwise. Ask
 * before ft_persist_held releases it. */
int ft_persist_held_err(MPI_Request handle);
/* An ordinary operation the runtime had to complete itself (a cancelled
 * receive, one with MPI_PROC_NULL: p2p.c; a receive the drain family
 * served from its buffer): *request becomes a new handle whose completion,
 * with status *st and error `err` (MPI_ERR_TRUNCATE for a message larger
 * than the receive, as the wait must return it), the next wait or test
 * reports (then MPI_REQUEST_NULL, and the record is removed as by
 * ft_persist_free). */
void ft_persist_completed(MPI_Request *request, const MPI_Status *st, int err);
/* An ordinary operation in flight (*request, the library's) the runtime
 * may have to complete before the application does (a wildcard receive
 * under piggyback=separate: delivery.c, resolve_wildcards): *request
 * becomes a new handle whose completion calls work on that operation, as
 * on a persistent request's, and which is MPI_REQUEST_NULL once its
 * completion was reported (oneshot). A completion the runtime made itself
 * (ft_delivery_take_resolved) is taken over as held whenever the record is
 * looked up. */
void ft_persist_own(MPI_Request *request);

/* Communicator table (comm.c). */
struct ft_comm *ft_comm_lookup(struct ft_runtime *rt,
                               MPI_Comm user); /* NULL if not registered */
/* Resolves an application communicator, registering MPI_COMM_SELF (and,
 * under a protocol that does not recover, any other unknown one) on first
 * use; aborts on MPI_COMM_NULL, and on any other communicator the runtime
 * did not create under a protocol that recovers. */
struct ft_comm *ft_comm_get(struct ft_runtime *rt, MPI_Comm user);
void ft_comm_forget(struct ft_runtime *rt, MPI_Comm user);
/* Moves every registered communicator to the abandoned ones, marked with
 * incarnation `inc` (the rollback's): the abandoned run may still have
 * traffic on them (settle.c); ft_comm_free_abandoned frees them. */
void ft_comm_abandon_all(struct ft_comms *cs, int inc);
/* Receives and drops what arrived on the abandoned communicators (a
 * rollback's settle, MPI_Finalize): SimGrid's shutdown does not cope with
 * messages left in its mailboxes, and a send waits until received. */
void ft_comm_drain_abandoned(const struct ft_comms *cs);
/* Frees the abandoned communicators of incarnations up to `up_to_inc`.
 * Precondition: no rank has traffic on them any more (every rank settled
 * that incarnation). */
void ft_comm_free_abandoned(struct ft_runtime *rt, int up_to_inc);
/* For an abandoned communicator `comm` (p2p or shadow) and a `rank` in it:
 * returns that rank's application rank and what names the communicator on
 * every member (*id, *coll); -1 when it has no such name (id 0: not made
 * by the runtime) or is not abandoned. */
int ft_comm_abandoned_peer(struct ft_runtime *rt, MPI_Comm comm, int rank,
                           uint64_t *id, int *coll);
/* This rank's handle of the abandoned communicator named (id, coll), or
 * MPI_COMM_NULL. */
MPI_Comm ft_comm_abandoned_find(struct ft_runtime *rt, uint64_t id, int coll);
/* Message logging: main() runs again, its creations of communicators return
 * the ones its first run made, in order (a restarted rank cannot make a
 * collective call alone). */
void ft_comm_replay_creations(struct ft_runtime *rt);
/* Message logging, main() running again: returns 1 and in *newcomm the
 * communicator the first run made at this point, while the run has not
 * caught up with its first run's creations; 0 otherwise (a creation to
 * make). */
int ft_comm_take_replayed(struct ft_runtime *rt, MPI_Comm *newcomm);
/* Message logging: how many creations of communicators main()'s current
 * run has passed, made or given back (ft_comm_take_replayed); saved with a
 * checkpoint taken at a safe point. Creations a lost life made beyond that
 * point are not counted: the run has yet to reach them. */
int64_t ft_comm_creations(const struct ft_comms *cs);
/* Message logging: main() stands at the safe point of a checkpoint taken
 * after `made` creations: its next creations return the ones its first run
 * made from there on. Aborts if `made` is more than it ever made. */
void ft_comm_resume_creations(struct ft_comms *cs, int64_t made);
/* Registers `inner` as the application's MPI_COMM_WORLD of rt's current
 * incarnation (its id depends on the incarnation); creates its collective
 * shadow. Precondition: rt->app_world is set. */
void ft_comm_register_world(struct ft_runtime *rt, MPI_Comm inner);
/* Makes the creation `call` with the MPI library, registers what it made
 * (under message logging, remembers it for ft_comm_replay_creations) and
 * counts it on its parent. Blocks until every member of the parent makes it
 * too: callers pass the gate first (ft_gate_create). */
int ft_comm_make(struct ft_runtime *rt, const struct ft_gate_call *call,
                 MPI_Comm *newcomm);
/* Message logging: makes a creation a failed life entered while its next
 * life has not reached it yet (gate.c): remembered for that life's replay
 * (ft_comm_take_replayed), which goes on from where it is. */
int ft_comm_make_ahead(struct ft_runtime *rt, const struct ft_gate_call *call,
                       MPI_Comm *newcomm);
/* MPI_Comm_create_group(c, group, tag): what names the call on every member
 * of `group` (its members' application ranks and the tag); *leader: the
 * world rank of the group's rank 0, *members its size. */
int ft_comm_group_key(const struct ft_comm *c, MPI_Group group, int tag,
                      int *leader, int *members);
/* The number of calls made so far on c with that key (0 if none). */
int ft_comm_group_made(const struct ft_comm *c, int key);
/* Frees every registered communicator (at MPI_Finalize). */
void ft_comm_forget_all(struct ft_comms *cs);
/* The entry whose p2p or coll handle is `inner` (*coll says which); aborts
 * on an unknown one. */
struct ft_comm *ft_comm_of_inner(struct ft_runtime *rt, MPI_Comm inner,
                                 int *coll);
/* Maps MPI_COMM_WORLD to the substitute world; other handles unchanged. */
MPI_Comm ft_comm_inner(struct ft_runtime *rt, MPI_Comm user);
/* The entry named `name` (ft_comm.name), or NULL if none is alive. */
struct ft_comm *ft_comm_named(struct ft_runtime *rt, int name);
/* The entry at `index` of the table (0, 1, ... while not NULL: a walk over
 * this rank's communicators; indices differ between ranks), or NULL. */
struct ft_comm *ft_comm_at(struct ft_runtime *rt, int index);
/* Application rank (rank in the application's world) of `rank` in `c`. */
int ft_comm_app_rank(const struct ft_comm *c, int rank);
/* The rank in `c` of application rank `app_rank` (the inverse); aborts when
 * it is not in `c`. */
int ft_comm_rank_of(const struct ft_comm *c, int app_rank);
/* What carries c's traffic: its point-to-point communicator, or (coll) its
 * collectives' shadow. */
MPI_Comm ft_comm_traffic(const struct ft_comm *c, int coll);

/* Deliveries (delivery.c): what the application receives, told to the core
 * as DELIVERED events once the receive completed. */
/* A receive of the application as the core saw it at APP_RECV: the id it
 * gave it (update.id) and whether it was posted with MPI_ANY_SOURCE or
 * MPI_ANY_TAG, told back to the core at DELIVERED (event.id, .wildcard):
 * c3 logs a wildcard receive's match by that id while it logs; and the
 * source (rank in its communicator) and tag it was posted with, maybe
 * MPI_ANY_SOURCE, MPI_ANY_TAG (ft_delivery_ahead). */
struct ft_recv_ticket {
  int64_t id;
  int wildcard;
  int source, tag;
};
/* A receive the application posted with MPI_Irecv: remembered, with its
 * ticket, until one of the completion calls reports it. */
void ft_delivery_posted(struct ft_runtime *rt, MPI_Request req, void *buf,
                        int count, MPI_Datatype type, MPI_Comm user,
                        struct ft_recv_ticket ticket);
/* A receive of the application completed with `status`: a posted one
 * (request handle `req` as it was before completion; not one of the
 * application's: nothing happens) ... The family's `completed` hook sees
 * every completed request first and may make *status the application's
 * view (driver.h). Returns the hook's error (a payload the family received
 * after the request completed, truncated: also in status->MPI_ERROR), which
 * the completion call reports; MPI_SUCCESS otherwise. */
int ft_delivery_completed(struct ft_runtime *rt, MPI_Request req,
                          MPI_Status *status);
/* While a posted receive's completion or a blocking receive is delivered
 * (the driver's delivering hook): how many receives of the application
 * on `user` posted before it and not reported complete yet name `source`
 * and `tag` (ranks in user), each of which MPI matched with an earlier
 * message of that channel than this one (MPI-3.1, 3.5: "if a sender sends
 * two messages in succession to the same destination, and both match the
 * same receive, then this operation cannot receive the second message if
 * the first one is still pending"); *wild: 1 when another of them, posted
 * with MPI_ANY_SOURCE or MPI_ANY_TAG, could match that channel too (which
 * message it took is unknown until it completes). A blocking receive
 * (outside a posted receive's completion) comes after every posted one. */
size_t ft_delivery_ahead(const struct ft_runtime *rt, MPI_Comm user, int source,
                         int tag, int *wild);
/* Forgets the receive req without a delivery (it was cancelled). */
void ft_delivery_cancelled(struct ft_runtime *rt, MPI_Request req);
/* 1 if req is an application receive remembered by ft_delivery_posted and
 * not completed yet. */
int ft_delivery_is_posted(struct ft_runtime *rt, MPI_Request req);
/* Forgets every posted receive (a rollback abandons them). */
void ft_delivery_forget_all(struct ft_deliveries *d);
/* The posted receive req, whose handle the application holds is `owner`
 * (a record of persist.c: ft_persist_own's, or a persistent request's), may
 * be completed by the runtime before the application's call
 * (resolve_wildcards). Nothing if req is not posted. */
void ft_delivery_owned(struct ft_runtime *rt, MPI_Request req,
                       MPI_Request owner);
/* If the runtime completed and delivered the receive of the application's
 * handle `owner` itself (resolve_wildcards): 1, its status in *st, and it
 * is forgotten here (the caller, persist.c, holds the completion for the
 * application); else 0. */
int ft_delivery_take_resolved(struct ft_runtime *rt, MPI_Request owner,
                              MPI_Status *st);
/* ... or a blocking one, into buf/count/type on `user`, with its ticket. */
void ft_delivery_done(struct ft_runtime *rt, void *buf, int count,
                      MPI_Datatype type, MPI_Comm user,
                      const MPI_Status *status, struct ft_recv_ticket ticket);
/* The implementation cost model (options daemon_*): the delay a message of
 * `bytes` costs on one side, in seconds (0 when off). */
double ft_daemon_delay(const struct ft_options *o, uint64_t bytes);

/* Image regions with ids from FT_MAX_REGIONS on belong to the rank's
 * family (its driver writes and reads them); there are at most this many. */
enum { FT_DRIVER_REGIONS = 4 };

/* Point-to-point on the runtime's own channels, counted (p2p.c); used by
 * collectives (coll.c). */
int ft_send_internal(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm);
int ft_sendrecv_internal(const void *sbuf, int scount, MPI_Datatype stype,
                         int dest, void *rbuf, int rcount, MPI_Datatype rtype,
                         int source, int tag, MPI_Comm comm);
void ft_count_send(int count, MPI_Datatype type);
/* MPI_Isend on a runtime channel, counted, traced and seen by the family
 * as ft_send_internal's send (*req is MPI_REQUEST_NULL when the family
 * suppressed it); complete it with ft_waitall_internal (or the driver's
 * wait). Used by the collectives where SMPI's algorithms post sends
 * without waiting (coll_algo.h). */
int ft_isend_internal(const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *req);
/* MPI_Irecv on a runtime channel (message logging sees it). */
int ft_irecv_internal(void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm, MPI_Request *req);
/* Blocking point-to-point used by the runtime (collectives, p2p wrappers),
 * interruptible by control messages under a recovering protocol. */
/* Completes the runtime's requests reqs[0..n) of a collective, posted by
 * ft_isend_internal and ft_irecv_internal, as ft_waitall_internal, then
 * hands each to the family (driver.h, completed: a combined piggyback's
 * payload is moved into the collective's buffer), in their order. Returns
 * the library's error, or else the first error the family's completed
 * returned (a lone lead's payload truncated: MPI_ERR_TRUNCATE), which the
 * callers stop the run with, as they do when the library reports it on
 * the default path (before, the family's error was dropped and the call
 * went on with a short block). */
int ft_coll_waitall(struct ft_runtime *rt, int n, MPI_Request reqs[]);
/* After a restore: carries out, in order, the collective calls the family
 * says this rank must re-execute at once for their roots (driver.h,
 * coll_reexec; coll.c). Nothing when there is none. */
void ft_coll_reexec_pending(struct ft_runtime *rt);
int ft_recv_internal(struct ft_runtime *rt, void *buf, int count,
                     MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status);

/* Checkpoints (checkpoint.c). */
void ft_state_protect(struct ft_runtime *rt, int id, void *ptr, size_t bytes);
/* The safe point behind ft_snapshot: returns an enum ft_snapshot_status. */
int ft_safe_point(struct ft_runtime *rt);
/* ft_safe_point at a potential checkpoint location where the other
 * participants showed epoch `wave` (> 0) ahead of this rank: the SAFE_POINT
 * event carries it (c3-collectives Figure 8: a rank behind checkpoints
 * there even if not asked yet); 0: ft_safe_point. */
int ft_safe_point_ahead(struct ft_runtime *rt, int wave);
/* Carries out a core update (sends, flags, deadline). */
void ft_apply_update(struct ft_runtime *rt, const struct ft_update *u);
/* Feeds one event to the core and applies its update. */
void ft_core_step(struct ft_runtime *rt, struct ft_event *event);
/* The protocol hook every intercepted operation goes through: an event of
 * `type` (application send or receive) told to the core by ft_core_step.
 * `peer` is an application rank (see ft_comm_app_rank). */
static inline void ft_protocol_event(struct ft_runtime *rt,
                                     enum ft_event_type type, int peer, int tag,
                                     uint64_t bytes) {
  struct ft_event event = {
      .type = type, .peer = peer, .tag = tag, .bytes = bytes};
  ft_core_step(rt, &event);
}
/* 1 while the core must not see the application's point-to-point calls:
 * main()'s prologue after a rollback to a checkpoint, under a family that
 * hides it (driver.h, hide_prologue). */
static inline int ft_prologue_hidden(const struct ft_runtime *rt) {
  return rt->driver->hide_prologue && rt->restore_pending &&
         rt->restore_wave > 0;
}
/* Feeds one event to the core and leaves its update in *u, not applied:
 * the caller does what only it can (RECORD), then ft_apply_update. */
void ft_core_decide(struct ft_runtime *rt, struct ft_event *event,
                    struct ft_update *u);
/* Fires the core's timer if its deadline has passed. */
void ft_check_deadline(struct ft_runtime *rt);
/* The application's protected buffers (ft_protect), in id order, into
 * out; returns how many. */
size_t ft_checkpoint_regions(const struct ft_runtime *rt,
                             struct ft_image_region out[FT_MAX_REGIONS]);
/* Writes the image of regions[0..n) taken at safe point `index` for
 * `wave` into a local slot and sends it to this rank's server (a STORE,
 * then the bytes). Aborts on an image of 2 GiB or more, or out of memory. */
void ft_checkpoint_write(struct ft_runtime *rt, int wave, int64_t index,
                         const struct ft_image_region *regions, size_t n);
/* Puts `bytes` (malloc'ed, `size` long) in the empty local image `slot`
 * and counts one more image held by this rank (images_held, images_peak). */
void ft_hold_local_image(struct ft_runtime *rt, struct ft_local_image *slot,
                         void *bytes, size_t size);
/* Empties a local image slot, once its upload (if any) has left, and
 * frees its bytes: one image held less. */
void ft_release_local_image(struct ft_runtime *rt, struct ft_local_image *slot);
/* Empties a local image slot without waiting for an upload still on its
 * way: that send goes to the control plane with its bytes, freed at the end
 * of the run or when its server says STORED (ft_control_adopt), still
 * counted as held till then; other bytes are freed now. An upload the server
 * acknowledged (stored) has completed: no time passes. */
void ft_lose_local_image(struct ft_runtime *rt, struct ft_local_image *slot);
/* This rank rolls back (or failed): its uploads' modelled bytes stop, as
 * a failure cuts a process's connections (sim/padding_smpi.c). */
void ft_cut_uploads(struct ft_runtime *rt);
/* The server of this rank stored the image of upload `seq` (the value of
 * FT_WIRE_STORED): that upload has completed; a lost life's one (adopted)
 * is freed now, without a test. */
void ft_local_image_stored(struct ft_runtime *rt, uint64_t seq);
/* The local image of `wave`, or NULL. */
struct ft_local_image *ft_local_image_of(struct ft_runtime *rt, int wave);
/* Restores the protected buffers from `image` (size bytes); aborts the run
 * with a clear error when they do not match. */
void ft_restore_image(struct ft_runtime *rt, const void *image, size_t size);
/* World rank of the checkpoint server of application rank `rank` (under
 * storage=shared the first service rank for every rank: the file
 * server). */
int ft_server_of(const struct ft_runtime *rt, int rank);

/* The modelled size in bytes of this rank's process image (what BLCR would
 * write): image_mb, else in any-call mode the recorded footprint. */
double ft_image_modelled_bytes(const struct ft_runtime *rt);
/* World rank of the dispatcher (the first service rank). */
int ft_dispatcher(const struct ft_runtime *rt);

/* Gates (gate.c): a collective call passed to the MPI library cannot be
 * interrupted, so under a recovering protocol no member makes it before
 * every member has entered it, and a member that a rollback took away from
 * a call the others already make still makes it (ft_gate_settle). */
/* Creates a communicator by `call` (a parent of one rank, an unknown parent
 * or a protocol that does not recover: at once). Returns the MPI error
 * code; may not return (rollback). */
int ft_gate_create(struct ft_runtime *rt, const struct ft_gate_call *call,
                   MPI_Comm *newcomm);
/* A gate's control message (FT_WIRE_GATE_ENTER or _DECISION). */
void ft_gate_on_control(struct ft_runtime *rt, const struct ft_wire *m);
/* First step of every recovery, before anything waits on a peer: aborts the
 * gates this rank leads (coordinated protocols), then, if this rank stood
 * in a gate as a member, waits for its leader's decision and makes the call
 * when the others make it. */
void ft_gate_settle(struct ft_runtime *rt);
/* Application heap (app_heap.c). */
/* Bytes an application block needs beyond its own (header, alignment). */
size_t ft_app_heap_extra(void);
/* Makes `base` (ft_app_heap_extra() + size bytes from malloc, or NULL) a
 * block of the current life; returns the application's pointer (NULL for
 * NULL). */
void *ft_app_heap_place(struct ft_app_heap *heap, void *base, size_t size);
/* 1 if `data` is an application block's pointer (a pointer that is not,
 * SMPI's or libc's, gives 0; its header is only read when it cannot sit on
 * another page). */
int ft_app_heap_owns(void *data);
/* Takes the block of `data` out of the heap; returns what to free() and its
 * size in *size (if size). A pointer that is not a block's is returned as
 * is. */
void *ft_app_heap_take(struct ft_app_heap *heap, void *data, size_t *size);
/* The current life is abandoned: blocks allocated from now on belong to the
 * next one. */
void ft_app_heap_end_life(struct ft_app_heap *heap);
/* Frees every block of lives before `before_life`. Precondition: nothing
 * writes into them any more (no receive of those lives still pending). */
void ft_app_heap_release(struct ft_app_heap *heap, int64_t before_life);

/* Settling what an abandoned run left pending (pcl, vcl): the requests the
 * runtime started on application communicators, remembered until they
 * complete (control.c, whose waits forget them), so that a rollback can
 * complete them all before it frees the abandoned life's heap (settle.c). */
/* Remembers `req` (a send to, or receive from, `peer` with `tag` on the
 * runtime's communicator `comm`; MPI_ANY_SOURCE, MPI_ANY_TAG allowed).
 * Does nothing under a protocol that does not roll every rank back, or for
 * MPI_REQUEST_NULL. */
void ft_pending_add(struct ft_runtime *rt, MPI_Request req, MPI_Comm comm,
                    int send, int peer, int tag);
/* The request whose handle was `req` completed or was freed: forgotten (a
 * handle that is not remembered is ignored). Call it before any new request
 * is started: SMPI may give the next one the same handle. */
void ft_pending_done(struct ft_runtime *rt, MPI_Request req);
/* ft_pending_add for a send of `count` elements of `type` that the runtime
 * posted with MPI_Isend or MPI_Irsend (`sync` 0) or MPI_Issend (`sync` 1):
 * remembered with how the library completes it (enum ft_at_once). */
void ft_pending_add_send(struct ft_runtime *rt, MPI_Request req, MPI_Comm comm,
                         int peer, int tag, int count, MPI_Datatype type,
                         int sync);
/* The index of the request of reqs[0..n) that SMPI's MPI_Waitany would
 * complete at once, without a simcall: the first active one that is a send
 * complete when posted (FT_AT_ONCE_YES), when every active request before
 * it is known not to be one; -1 otherwise (then the library decides). */
int ft_pending_first_at_once(const struct ft_runtime *rt, int n,
                             const MPI_Request reqs[]);
/* Completes *req, a request ft_pending_first_at_once named, without a call
 * to the library: *st is the status SMPI gives a send (this rank, the tag,
 * the size), *req becomes MPI_REQUEST_NULL and the handle is freed later
 * with others (ft_pending_retire_all, called once FT_RETIRE_BATCH are
 * kept). */
void ft_pending_complete_at_once(struct ft_runtime *rt, MPI_Request *req,
                                 MPI_Status *st);
/* Frees the handles ft_pending_complete_at_once kept: one MPI_Waitall,
 * which blocks on nothing (each is complete). Before MPI_Finalize. */
void ft_pending_retire_all(struct ft_runtime *rt);
/* Sends an empty message on `comm` to `dest` with `tag` and lets it go: it
 * completes a receive an abandoned run left posted (a zero-byte message
 * writes nothing). The one way the runtime feeds such receives (message
 * logging's zombies too). */
void ft_feed_empty(MPI_Comm comm, int dest, int tag);
/* At a rollback, once every rank has stopped (after GO) and before main()
 * runs again: completes every request the abandoned runs left (receives
 * fed, messages still addressed to this rank drained, sends waited for),
 * then frees the abandoned lives' heap and tells the other ranks, so that
 * the abandoned communicators are freed once every rank settled. May not
 * return (another rollback: what is left is settled by the next one). In
 * reference mode it only forgets what is pending (see settle.c). */
void ft_settle(struct ft_runtime *rt);
/* Control messages of the settle (FT_WIRE_FEED, _FED, _SETTLED). */
void ft_settle_on_control(struct ft_runtime *rt, const struct ft_wire *m);
/* At MPI_Finalize: drains and frees every abandoned communicator. */
void ft_settle_finish(struct ft_runtime *rt);

/* Recovery (recovery.c). */
/* Asks this rank's server for its image of `wave` (-1: its last committed
 * one), checks it and puts it in images[0]; returns its wave, or 0 when the
 * server has none. */
int ft_fetch_image(struct ft_runtime *rt, int wave);
/* Hands the core the core messages that arrived while this rank recovered
 * (kept by the control loop), in their order of arrival: right after the
 * ROLLBACK step, or (any-call mode) once the transport is restored
 * (anycall.c), for the core resumes inside the image's call. */
void ft_deliver_deferred(struct ft_runtime *rt);
/* Abandons the application and runs the recovery, then main() again. */
_Noreturn void ft_rollback_now(struct ft_runtime *rt);
/* failure=kill, a relaunched job (relaunch > 0; README, "Real failures:
 * kill and relaunch"): at the end of MPI_Init this rank, a new process,
 * has lost everything, as a failed rank has; it waits for the dispatcher's
 * ROLLBACK to the wave on disk and recovers as a failed rank does (its
 * image from its server, READY, GO), then runs main() from the top: never
 * returns. Its kill, if the launch's failure hits it, is armed at GO. */
_Noreturn void ft_relaunch_wait(struct ft_runtime *rt);
/* Arms this rank's kill for its launch (ft_fate_arm_kill) under
 * failure=kill in reference mode; fatal when the timer cannot be armed. */
void ft_arm_kill(struct ft_runtime *rt);
/* The dispatcher stopped the run (it cannot progress: README, "Runs that
 * cannot progress"): settles any gate this rank stands in, then ends the
 * run with rt->finish_stopped. Every application rank is told, so every
 * one comes here. */
_Noreturn void ft_stop_now(struct ft_runtime *rt);
/* MPI_Finalize's first step under a recovering protocol: waits until every
 * rank finished (a rollback meanwhile does not return). */
void ft_wait_all_finished(struct ft_runtime *rt);

#endif /* FT_RUNTIME_H */
