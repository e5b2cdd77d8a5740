/* Deliberately broken protocol cores, for the tests of the seeded checker
 * (seeded.h) itself: each wraps a real core and breaks one thing, so that
 * a test can show the checker catches it. Test code only: never in the
 * registry of protocols/, never run by the simulator.
 *
 *  - "vcl-bug-nokeep": vcl whose STOREs keep no channel state (the ranges
 *    are dropped), so the messages in transit across a cut are lost;
 *  - "pcl-bug-late": pcl whose rank 1 takes each checkpoint one safe point
 *    after the one the wave agreed on, so its cut is not consistent;
 *  - "pcl-bug-nodelay" (run as "pcl-bug-nodelay-anycall"): pcl in any-call
 *    mode without the delayed receive queue: a message its sender sent
 *    after its checkpoint is delivered before the receiver's own (an
 *    orphan), and sent again after a rollback.
 *
 * Like the cores, the wrappers own no static mutable state. */
#ifndef FT_PLANTED_H
#define FT_PLANTED_H

#include <stddef.h>

#include "ft_protocol.h"

/* Returns the broken core called `name`, or NULL when there is none. */
const struct ft_protocol_ops *planted_find(const char *name);

/* Returns the i-th broken core (0-based), or NULL past the end. */
const struct ft_protocol_ops *planted_at(size_t i);

#endif /* FT_PLANTED_H */
