/* The per-rank root of the runtime's state (layer 0, docs/layers.md): the
 * one mutable static of sim/runtime, reached only by the MPI wrappers and the
 * application-facing entry points, which pass it down. */
#include "runtime.h"

/* Per rank: SMPI privatizes this module's globals (see runtime.h). */
static struct ft_runtime state;

struct ft_runtime *ft_runtime(void) {
  return &state;
}
