/* Service ranks (see service.h). No protocol uses them yet: a service rank
 * waits for the end of the run on the control communicator. */
#include "service.h"

enum { FT_TAG_SHUTDOWN = 1 };

void ft_service_main(struct ft_runtime *rt, MPI_Comm services) {
  (void)services;
  int dummy;
  PMPI_Recv(&dummy, 1, MPI_INT, 0, FT_TAG_SHUTDOWN, rt->control,
            MPI_STATUS_IGNORE);
}

void ft_service_shutdown(struct ft_runtime *rt) {
  int dummy = 0;
  if (rt->world_rank != 0)
    return;
  for (int r = rt->app_ranks; r < rt->world_size; r++)
    PMPI_Send(&dummy, 1, MPI_INT, r, FT_TAG_SHUTDOWN, rt->control);
}
