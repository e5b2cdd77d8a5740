/* The drain family's per-rank state (drain.c): the drain buffer of the
 * on-line drain, held by the rank's root (`struct ft_runtime`'s `drain`),
 * zeroed like the rest. This header only says what the family keeps, so
 * that runtime.h can hold it; the driver is in drain.h. */
#ifndef FT_DRAIN_STATE_H
#define FT_DRAIN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "anycall_wire.h"

/* The application messages drained off the wire at a wave's safe point
 * and not received by the application yet, in the order they were
 * drained (per sender and communicator, their sending order). */
struct ft_drain {
  struct ft_ac_msgs msgs; /* envelopes: peer = the sender's rank in the
                             communicator, space = its name (ft_comm.name),
                             tag, bytes */
  unsigned char **data;   /* data[i]: msgs.v[i]'s bytes (malloc'ed) */
  size_t cap_data;
  uint64_t drained; /* messages drained over the run (drained_msgs) */
};

#endif /* FT_DRAIN_STATE_H */
