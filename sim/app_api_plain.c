/* ft.h for a program built WITHOUT ftsim's runtime (plain SMPI): the
 * baseline of the overhead benchmark. Computation is still modelled the same
 * way; results are not summarised (the workload prints its own line). */
#include <smpi/smpi.h>

#include "ft.h"

void ft_compute(double flops) {
  if (flops > 0)
    smpi_execute_flops_benched(flops);
}

void ft_report_result(int verified, double value) {
  (void)verified;
  (void)value;
}

int ft_is_simulated(void) { return 1; }

/* Without the runtime there is no protocol: nothing is ever checkpointed or
 * restored. */
void ft_protect(int id, void *ptr, size_t bytes) {
  (void)id;
  (void)ptr;
  (void)bytes;
}

int ft_snapshot(void) { return FT_SNAPSHOT_CONTINUE; }
