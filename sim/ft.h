/* ftsim application API: what a workload calls besides MPI.
 *
 * A program written for ftsim includes <mpi.h> and "ft.h" and is linked with
 * ftsim's runtime. Unmodified MPI programs need none of this: they still run,
 * their summary simply reports "verified": null.
 *
 * Every function here is safe to call before MPI_Init and after
 * MPI_Finalize unless its comment says otherwise. None of them allocates
 * memory that the caller must free. */
#ifndef FT_H
#define FT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Models `flops` floating-point operations of computation on the calling
 * rank's host. Under SMPI the rank's simulated clock advances by
 * flops / host speed (the platform file gives the speed); in reference mode
 * this does nothing, since the real computation takes real time.
 * Precondition: flops >= 0 (a negative value is ignored). */
void ft_compute(double flops);

/* Reports the workload's own verification of its result, from every
 * application rank or from rank 0 only. `verified` is non-zero when the
 * result is correct; `value` is the number checked (a residual, a checksum),
 * printed in the run's summary as "result". The run is verified when every
 * rank that reported said so. Calling it again replaces the earlier report.
 * Precondition: between MPI_Init and MPI_Finalize. */
void ft_report_result(int verified, double value);

/* Non-zero when running under SMPI, zero in reference mode (real MPI). */
int ft_is_simulated(void);

#ifdef __cplusplus
}
#endif
#endif /* FT_H */
