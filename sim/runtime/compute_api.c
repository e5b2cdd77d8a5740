/* ft_compute, alone in its own library (libftsim_compute, linked after the
 * runtime and not whole): the linker takes this object into a program only
 * when the program calls ft_compute, so that `ftsim run --compute auto`
 * can tell from the program's symbols whether it models its computation
 * (sim/cli/elf_symbols.h). Nothing else in the runtime may call it. */
#include "ft.h"

#include "backend.h"
#include "runtime.h"

/* Under `ftsim record`, simulated, the recorder learns the modelled flops
 * and the simulated time they took (ft_record_computed); `start` is taken
 * after SMPI's benchmark timer has charged what ran before, so that only
 * the flops' own time is counted. */
/* A computation in progress when this rank fails ends there, whatever
 * the host's load (several ranks on one host compute slower than its
 * speed): the flops done by its failure time, then the rank stops
 * (ft_control_fate, which does not return but for a run that ended or
 * stopped meanwhile: the rest is then computed). Returns the flops still
 * to compute. */
static double until_failure(struct ft_runtime *rt, double flops) {
  double left = ft_control_fate_left(rt);
  if (left < 0 || flops <= 0)
    return flops;
  double rest = ft_backend_compute_for(flops, left);
  ft_control_fate(rt);
  return rest;
}

void ft_compute(double flops) {
  struct ft_runtime *rt = ft_runtime();
  double since = ft_trace_on(rt) ? ft_backend_now() : 0;
  flops = until_failure(rt, flops);
  if (!rt->record.on || !ft_backend_simulated()) {
    ft_backend_compute(flops);
    ft_trace_compute(rt, since);
    return;
  }
  double start = ft_backend_now_charged();
  ft_backend_compute(flops);
  ft_record_computed(rt, flops, ft_backend_now() - start);
  ft_trace_compute(rt, since);
}

/* Fortran: call ft_compute(flops), DOUBLE PRECISION. */
void ft_compute_(const double *flops) { ft_compute(*flops); }
