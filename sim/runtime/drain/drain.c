/* The drain family's driver (drain.h). From lam-mpi-blcr, section 3.1:
 * "During restart, all the processes resume execution from their saved
 * states, with the communication channels restored to their 'known' empty
 * states": the generic runtime's rollback of every rank, nothing to add. */
#include "drain.h"

const struct ft_driver ft_drain_driver = {.name = "drain"};
