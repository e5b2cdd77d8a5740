/* Channel state's driver table (cs_driver.h): the point-to-point path is
 * the default one; its service ranks run the checkpoint scheduler. */
#include "cs_driver.h"

const struct ft_driver ft_cs_driver = {
    .name = "channel state",
    .service = &ft_cs_scheduler,
};
