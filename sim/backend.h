/* The few things that differ between SMPI and a real MPI, behind one
 * interface: backend_smpi.c and backend_real.c each implement all of it, so
 * no runtime logic is written twice. */
#ifndef FT_BACKEND_H
#define FT_BACKEND_H

#include <mpi.h>

/* Non-zero under SMPI. */
int ft_backend_simulated(void);

/* Advances this rank's simulated clock by `flops` operations at its host's
 * speed (SMPI); does nothing for a real MPI. */
void ft_backend_compute(double flops);

/* Ends the calling rank after MPI_Finalize, without returning to the
 * application: a service rank never runs the application's main. Under SMPI
 * this ends only the calling simulated process. */
_Noreturn void ft_backend_exit_rank(int code);

/* Current time in seconds: the simulated clock under SMPI (read without a
 * simulation call, unlike MPI_Wtime), MPI_Wtime for a real MPI. */
double ft_backend_now(void);

/* Ends the whole run with exit status `code` (> 0), every rank and service
 * included. Under SMPI, MPI_Abort kills the simulated processes but smpirun
 * then reports a deadlock and exits 0, so the simulation process itself
 * exits; with a real MPI this is PMPI_Abort on MPI_COMM_WORLD. */
_Noreturn void ft_backend_abort(int code);

/* Name of the host the calling rank runs on (a platform host under SMPI). */
const char *ft_backend_host_name(void);

/* Fortran's special addresses (MPI_IN_PLACE, MPI_STATUS_IGNORE,
 * MPI_STATUSES_IGNORE are common-block symbols whose names differ between
 * SMPI and Open MPI). Each returns non-zero when `p` is that address. */
int ft_backend_f_in_place(const void *p);
int ft_backend_f_status_ignore(const void *p);
int ft_backend_f_statuses_ignore(const void *p);

/* Converts a C status into a Fortran INTEGER array (SMPI 3.32 lacks
 * MPI_Status_c2f; its Fortran status has the C struct's layout). */
void ft_backend_status_c2f(const MPI_Status *c, MPI_Fint *f);

/* Sleeps `seconds` (simulated under SMPI, real otherwise). */
void ft_backend_sleep(double seconds);

/* ---- Modelled bytes: the process image a checkpoint would write (BLCR)
 * beyond the protected buffers. Under SMPI they travel as a SimGrid
 * mailbox transfer of that simulated size, with no memory behind it, so they
 * compete with the application on the simulated network. In reference mode
 * they are not sent (the real image is what travels): these do nothing. ---- */

/* Starts sending `bytes` modelled bytes from the calling rank (world rank
 * `from`) to world rank `to`; returns at once. Transfers between one pair
 * are matched in order with ft_backend_padding_receive. */
void ft_backend_padding_send(int from, int to, double bytes);

/* Starts receiving the next modelled transfer from world rank `from` to the
 * calling rank (world rank `to`). Returns a handle for
 * ft_backend_padding_done, or NULL when there is nothing to wait for
 * (reference mode). */
void *ft_backend_padding_receive(int from, int to);

/* Non-zero when the transfer behind `handle` is complete (the handle is then
 * released); NULL handles are complete. With `block`, waits for it. */
int ft_backend_padding_done(void *handle, int block);

#endif /* FT_BACKEND_H */
