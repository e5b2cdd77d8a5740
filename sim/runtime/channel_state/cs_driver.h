/* Channel state's driver (non-blocking coordinated checkpoints, vcl): its
 * table (driver.h) and its service role (service_role.h). */
#ifndef FT_CS_DRIVER_H
#define FT_CS_DRIVER_H

#include "runtime/driver.h"
#include "runtime/service_role.h"

/* The family's driver: the default point-to-point path (driver.c), and the
 * checkpoint scheduler on the service side. */
extern const struct ft_driver ft_cs_driver;

/* The checkpoint scheduler (scheduler.c): the protocol's core with rank ==
 * the number of application ranks, on the dispatcher (service rank 0); it
 * alone starts the waves, and the dispatcher commits what it decides. */
extern const struct ft_service_role ft_cs_scheduler;

#endif /* FT_CS_DRIVER_H */
