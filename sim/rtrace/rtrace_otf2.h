/* What ftsim's OTF2 writer and reader share: the MPI regions it knows and
 * the names of its attributes (docs/trace-format.md). Internal to
 * sim/rtrace. */
#ifndef FT_RTRACE_OTF2_H
#define FT_RTRACE_OTF2_H

#include <stdint.h>

/* What an MPI region means to the model. */
enum ft_rt_class {
  FT_RC_IGNORED = 1, /* local calls a replay skips (MPI_Comm_rank...) */
  FT_RC_SEND,        /* sub: FT_RT_SYNC or 0 */
  FT_RC_ISEND,       /* sub: FT_RT_SYNC or 0 */
  FT_RC_RECV,
  FT_RC_IRECV,
  FT_RC_SENDRECV,
  FT_RC_COMPLETE, /* sub: enum ft_rt_call */
  FT_RC_CANCEL,
  FT_RC_PROBE, /* sub: 1 blocking */
  FT_RC_COLL,  /* sub: enum ft_rt_coll_op */
  FT_RC_COMM   /* sub: enum ft_rt_comm_op */
};

struct ft_rt_region {
  const char *name;
  uint8_t cls, sub;
};

/* The regions, a table ending with a NULL name. */
extern const struct ft_rt_region ft_rt_regions[];

/* Returns the region named `name`, or NULL when ftsim does not know it. */
const struct ft_rt_region *ft_rt_region_find(const char *name);

/* The enum ft_rt_coll_op of an OTF2_COLLECTIVE_OP_* value, or 0 when the
 * model has none (e.g. OTF2_COLLECTIVE_OP_CREATE_HANDLE). */
int ft_rt_coll_from_otf2(unsigned op);

/* ftsim's attributes, in definition order (their OTF2 ids). */
enum ft_rt_attr {
  FT_RA_WILDCARD,   /* uint8: FT_RT_WILD_SOURCE | FT_RT_WILD_TAG */
  FT_RA_PEER,       /* int32: posted peer (probe), peer (irecv) */
  FT_RA_TAG,        /* int32 */
  FT_RA_COMM,       /* uint32: model communicator */
  FT_RA_BYTES,      /* uint64 */
  FT_RA_FOUND,      /* int8: probe's result */
  FT_RA_MSG_PEER,   /* int32: probe's matched source */
  FT_RA_MSG_TAG,    /* int32: probe's matched tag */
  FT_RA_REQUEST,    /* uint64: MPI_Cancel's request */
  FT_RA_PARENT,     /* uint32: communicator's parent */
  FT_RA_COLOR,      /* int32 */
  FT_RA_KEY,        /* int32 */
  FT_RA_COLL_FLAGS, /* uint8: a collective's flags (FT_RT_NONCOMMUTATIVE) */
  FT_RA_TRUNCATED,  /* uint8: 1 on a truncated receive's MpiRecv, MpiIrecv */
  FT_RA_COUNT
};

/* Attribute names ("ftsim::wildcard"...), indexed by enum ft_rt_attr. */
extern const char *const ft_rt_attr_names[FT_RA_COUNT];

/* The memory footprint's metric member, the rank's host speed (location
 * property) and the archive properties of the run's metadata. */
#define FT_RT_METRIC_MEMORY "ftsim::memory"
#define FT_RT_PROP_HOST_SPEED "ftsim::host_speed"
#define FT_RT_PROP_PROGRAM "FTSIM::PROGRAM"
#define FT_RT_PROP_PLATFORM "FTSIM::PLATFORM"
#define FT_RT_PROP_VERSION "FTSIM::VERSION"
/* Timer resolution of ftsim's archives: the finest of femtoseconds,
 * picoseconds and nanoseconds whose uint64 ticks hold the run's clock
 * (femtoseconds: up to about 18,000 s). A replay turns each gap between
 * two calls back into computation, so the timestamps' rounding is the
 * computation's: nanoseconds (up to 0.5 ns a computation) moved lu's
 * 16-rank replay on gige by 16 us (0.01 %: its wavefront's messages share
 * links, so small shifts grow), picoseconds by 0.25 us, femtoseconds by
 * nothing (the replay's constant 10 ns aside). A clock even nanoseconds
 * cannot hold (a real MPI_Wtime from the epoch...) is written from its
 * first rank's start. */
#define FT_RT_TICKS_FINEST 1e15
#define FT_RT_TICKS_COARSEST 1e9
#define FT_RT_TICKS_MAX 1.8e19 /* below UINT64_MAX, 1.845e19 */

#endif /* FT_RTRACE_OTF2_H */
