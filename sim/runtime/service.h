/* Service ranks: the extra MPI ranks split off at MPI_Init (checkpoint
 * servers, the first of which is the dispatcher, and the role of the
 * protocol's family, service_role.h). They exist identically under smpirun
 * and mpirun. */
#ifndef FT_SERVICE_H
#define FT_SERVICE_H

#include "runtime.h"

/* Runs the calling service rank until application rank 0 announces the end
 * of the run. `services` spans the service ranks only. */
void ft_service_main(struct ft_runtime *rt, MPI_Comm services);

/* Called by every application rank in MPI_Finalize: rank 0 tells every
 * service rank to stop and, under a recovering protocol, waits for the
 * dispatcher's final figures (rt->failures, rt->waves_committed...), which
 * count a wave committed after FINISH. Other control messages that reach
 * rank 0 meanwhile are dropped. */
void ft_service_shutdown(struct ft_runtime *rt);

#endif /* FT_SERVICE_H */
