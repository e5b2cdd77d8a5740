/* The few things that differ between SMPI and a real MPI, behind one
 * interface: backend_smpi.c and backend_real.c each implement all of it, so
 * no runtime logic is written twice. */
#ifndef FT_BACKEND_H
#define FT_BACKEND_H

/* Non-zero under SMPI. */
int ft_backend_simulated(void);

/* Advances this rank's simulated clock by `flops` operations at its host's
 * speed (SMPI); does nothing for a real MPI. */
void ft_backend_compute(double flops);

/* Ends the calling rank after MPI_Finalize, without returning to the
 * application: a service rank never runs the application's main. Under SMPI
 * this ends only the calling simulated process. */
_Noreturn void ft_backend_exit_rank(int code);

/* Name of the host the calling rank runs on (a platform host under SMPI). */
const char *ft_backend_host_name(void);

#endif /* FT_BACKEND_H */
