/* Coordinated checkpoints of drained channels in the runtime (bookmark's
 * family, lam-mpi-blcr): the ranks exchange byte bookmarks over the
 * control channel, receive what is still on the wire, then checkpoint with
 * empty channels; a failure rolls every rank back. On-line (drain.c), a
 * held rank receives the messages still on the wire at the wave's safe
 * point into its drain buffer, which its image holds and the application's
 * receives and probes take from first. In a replay the generic any-call
 * transport (anycall.c) is the drain: it receives arrived messages into
 * its buffer, keeps them in the image, and makes them receivable again
 * after a rollback. */
#ifndef FT_DRAIN_H
#define FT_DRAIN_H

#include "runtime/driver.h"

/* The drain family's driver (driver.h): held, holds, recv_payload,
 * checkpoint, restored, rollback, finish, figures (drain.c). */
extern const struct ft_driver ft_drain_driver;

#endif /* FT_DRAIN_H */
