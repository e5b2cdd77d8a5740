/* What the SMPI backend's files share (backend_smpi.c, padding_smpi.c);
 * nothing outside sim/backend_*.c includes this. */
#ifndef FT_BACKEND_SMPI_H
#define FT_BACKEND_SMPI_H

#include "backend.h"

/* Stop and restart SMPI's benchmark timer around the runtime's own SimGrid
 * calls (backend_smpi.c says why). */
void ft_smpi_bench_pause(void);
void ft_smpi_bench_resume(void);

/* Reads (write == 0) or writes `bytes` modelled bytes on the first disk of
 * the calling actor's host, blocking that actor; returns the simulated
 * seconds it took (0 under 1 byte). A host without a disk ends the run
 * with a message naming it. The caller pauses the benchmark timer when it
 * is a rank. */
double ft_smpi_disk_io(double bytes, int write);

/* Wakes `w`'s wait once (a latency-only message came first). */
void ft_smpi_waiter_wake(struct ft_waiter *w);

/* Wakes `w`'s wait once for a modelled transfer that ended, and counts it
 * (ft_backend_waiter_ended). */
void ft_smpi_waiter_transfer_ended(struct ft_waiter *w);

/* The pointer an actor was started with, printed as "%p" in argv[1]. */
void *ft_smpi_pointer_arg(char **argv);

#endif /* FT_BACKEND_SMPI_H */
