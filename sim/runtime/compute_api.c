/* ft_compute, alone in its own library (libftsim_compute, linked after the
 * runtime and not whole): the linker takes this object into a program only
 * when the program calls ft_compute, so that `ftsim run --compute auto`
 * can tell from the program's symbols whether it models its computation
 * (sim/cli/elf_symbols.h). Nothing else in the runtime may call it. */
#include "ft.h"

#include "backend.h"

void ft_compute(double flops) { ft_backend_compute(flops); }

/* Fortran: call ft_compute(flops), DOUBLE PRECISION. */
void ft_compute_(const double *flops) { ft_compute(*flops); }
