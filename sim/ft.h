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

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Models `flops` floating-point operations of computation on the calling
 * rank's host. Under SMPI the rank's simulated clock advances by
 * flops / host speed (the platform file gives the speed); in reference mode
 * this does nothing, since the real computation takes real time.
 * A program that calls it declares its computation: `ftsim run --compute
 * auto` then turns SMPI's measurement of CPU time off (modelled
 * computation), since the same work would otherwise be charged twice; a
 * program that never calls it is measured instead (README, "Computation:
 * modelled or measured").
 * Precondition: flops >= 0 (a negative value is ignored). */
void ft_compute(double flops);

/* Reports the workload's own verification of its result, from every
 * application rank or from rank 0 only. `verified` is non-zero when the
 * result is correct; `value` is the number checked (a residual, a checksum),
 * printed in the run's summary as "result". The run is verified when every
 * rank that reported said so. Calling it again replaces the earlier report.
 * Precondition: between MPI_Init and MPI_Finalize. */
void ft_report_result(int verified, double value);

/* ---- Application state for checkpoints (FTI-like). ----
 *
 * A rollback restarts the program from the top of main(), as a real restart
 * relaunches the binary: MPI_Init returns at once, the program allocates and
 * initialises as before, registers the same buffers with ft_protect, and the
 * first ft_snapshot call restores them from the checkpoint. The pattern:
 *
 *   ft_protect(0, &it, sizeof it);
 *   ft_protect(1, x, n * sizeof *x);
 *   for (it = 0; it < niter; it++) {
 *     ft_snapshot();               // safe point: checkpoint or restore here
 *     ... one iteration ...
 *   }
 *
 * Contract: every rank calls ft_snapshot the same number of times, and no
 * message is in flight across a safe point (what a rank sends before its
 * k-th safe point is received before the receiver's k-th safe point), which
 * holds for iterative SPMD codes with the safe point at the top of the
 * iteration. Nonblocking requests are completed before a safe point.
 *
 * Under protocol bookmark the second rule is relaxed (lam-mpi-blcr,
 * sections 3-5: LAM's checkpoint "drains" the channels): a point-to-point
 * message may be in flight across a safe point, sent before the sender's
 * k-th ft_snapshot with a send that completed (MPI_Send of a small, eager
 * message; MPI_Isend then MPI_Wait) and received after the receiver's k-th
 * (e.g. a rank sends to its neighbour, calls ft_snapshot, then receives
 * its neighbour's message). At a wave's safe point the runtime takes such
 * messages off the wire into the rank's drain buffer, part of its
 * checkpoint, and the receives, probes and MPI_Get_count after the safe
 * point (and after a rollback to it) see them first, in MPI's order. Still
 * required under bookmark: no request pending at the safe point, and every
 * collective call complete at every member (collective traffic is not
 * drained). A message in flight on two communicators at once from one
 * sender may be drained out of order between them. A message sent before
 * the first ft_snapshot is sent again by every restart (the code before it
 * runs again): send the first one after it (ftsim check names the
 * duplicate: restore-order). The other protocols
 * keep the strict contract and do not refuse such a program: pcl runs it
 * to its result without failures, but `ftsim check` finds its waves
 * wanting (`channel-state`) and a rollback to one loses the message (the
 * receiver waits for it forever); vcl records such messages as channel
 * state (tests/runtime/ahead_check.c). */

/* Registers `bytes` bytes at `ptr` under `id` as part of the rank's
 * checkpointed state, replacing an earlier registration of the same id.
 * Preconditions: between MPI_Init and MPI_Finalize; 0 <= id < 64; the memory
 * stays valid until MPI_Finalize. A checkpoint is restored into the buffers
 * registered under the same ids with the same sizes; a mismatch ends the run
 * with an error naming the id. */
void ft_protect(int id, void *ptr, size_t bytes);

/* What ft_snapshot returns. */
enum ft_snapshot_status {
  FT_SNAPSHOT_CONTINUE = 0, /* nothing special: go on */
  FT_SNAPSHOT_RESTORED = 1, /* the run rolled back: the protected buffers now
                               hold the state of the restored checkpoint */
};

/* A safe point: the protocol may take a checkpoint here (the call returns
 * once the local checkpoint is taken; the image travels to its server in
 * the background), or, on the first call after a rollback, restore the
 * protected buffers. Returns an enum ft_snapshot_status.
 * Precondition: between MPI_Init and MPI_Finalize, no pending request. */
int ft_snapshot(void);

/* Non-zero when running under SMPI, zero in reference mode (real MPI). */
int ft_is_simulated(void);

#ifdef __cplusplus
}
#endif
#endif /* FT_H */
