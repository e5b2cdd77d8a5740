/* Protocol cores: the interface every fault-tolerance protocol implements.
 *
 * A core is a pure state machine (see DESIGN.md): it never calls MPI or
 * SimGrid, never reads a clock, never touches the file system and owns no
 * global or static mutable state, because SMPI runs every rank in one
 * process. The runtime (sim/) feeds it events, stamped with the current
 * time, and carries out the update it returns.
 *
 * Model: cowsql/raft's raft_step(r, &event, &update). Protocols are selected
 * by name from a static registry (Open MPI's vprotocol idea, without dynamic
 * loading). */
#ifndef FT_PROTOCOL_H
#define FT_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

/* What happened, as seen by one rank's runtime. */
enum ft_event_type {
  FT_EVENT_APP_SEND,  /* the application posts a send (blocking or not) */
  FT_EVENT_APP_RECV,  /* the application posts a receive */
  FT_EVENT_DELIVERED, /* a receive completed and the payload is delivered */
  FT_EVENT_TIMER,     /* the deadline the core asked for has passed */
};

struct ft_event {
  enum ft_event_type type;
  double time;    /* current time, seconds (simulated under SMPI) */
  int peer;       /* destination or source rank in the application world,
                     or -1 for MPI_ANY_SOURCE / not applicable */
  int tag;        /* application tag, or -1 for MPI_ANY_TAG */
  uint64_t bytes; /* payload size */
};

/* What the runtime must do after a step. */
enum ft_update_flag {
  FT_UPDATE_PASS = 1u << 0, /* carry out the application's operation as is */
};

struct ft_update {
  unsigned flags;  /* a combination of enum ft_update_flag */
  double deadline; /* next FT_EVENT_TIMER wanted at this time; < 0 for none */
};

/* Parameters a core is initialised with. */
struct ft_core_config {
  int rank;  /* this rank in the application world */
  int ranks; /* size of the application world */
};

/* One protocol: a const table in the static registry. */
struct ft_protocol_ops {
  const char *name;
  const char *summary; /* one line, for `ftsim protocols` and errors */
  size_t state_size;   /* bytes of state the runtime allocates for a rank */
  /* Initialises `state` (state_size bytes, zeroed). Returns 0, or -1 when
   * the configuration is invalid. */
  int (*init)(void *state, const struct ft_core_config *config);
  /* Consumes one event and fills `update`. Returns 0, or -1 on a protocol
   * error (the runtime aborts the run with the core's name). */
  int (*step)(void *state, const struct ft_event *event,
              struct ft_update *update);
};

/* Returns the protocol called `name`, or NULL when there is none.
 * Names are case-sensitive ("none", "pcl", ...). */
const struct ft_protocol_ops *ft_protocol_find(const char *name);

/* Returns the i-th registered protocol (0-based), or NULL past the end.
 * Used to list the known names in error messages. */
const struct ft_protocol_ops *ft_protocol_at(size_t i);

#endif /* FT_PROTOCOL_H */
