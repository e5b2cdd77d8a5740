/* Coordinated checkpoints of drained channels in the runtime (bookmark's
 * family, lam-mpi-blcr): the ranks exchange byte bookmarks over the
 * control channel, receive what is still on the wire, then checkpoint with
 * empty channels; a failure rolls every rank back. On-line, the
 * application contract of sim/ft.h leaves nothing on the wire at a safe
 * point; in a replay the generic any-call transport (anycall.c) is the
 * drain: it receives arrived messages into its buffer, keeps them in the
 * image, and makes them receivable again after a rollback. So the driver
 * replaces nothing: every hook NULL, the default rollback of every rank.
 * It is the home of whatever becomes specific to the family. */
#ifndef FT_DRAIN_H
#define FT_DRAIN_H

#include "runtime/driver.h"

/* The drain family's driver (driver.h): every hook NULL. */
extern const struct ft_driver ft_drain_driver;

#endif /* FT_DRAIN_H */
