/* Blocking coordinated checkpoints in the runtime (pcl's family): a wave
 * freezes the channels, every rank checkpoints, a failure rolls every rank
 * back. Everything it needs is the generic runtime's default path (the
 * rollback of every rank in recovery.c, the dispatcher's commits), so its
 * driver replaces nothing; it is the home of whatever becomes specific to
 * the family. */
#ifndef FT_COORDINATED_H
#define FT_COORDINATED_H

#include "runtime/driver.h"

/* The coordinated family's driver (driver.h): every hook NULL. */
extern const struct ft_driver ft_coordinated_driver;

#endif /* FT_COORDINATED_H */
