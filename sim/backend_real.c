/* Backend for a real MPI, reference mode (see backend.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "backend.h"

int ft_backend_simulated(void) { return 0; }

void ft_backend_compute(double flops) { (void)flops; }

_Noreturn void ft_backend_exit_rank(int code) { exit(code); }

const char *ft_backend_host_name(void) {
  static char name[256]; /* one process per rank here: no sharing */
  if (!name[0] && gethostname(name, sizeof name - 1) != 0)
    name[0] = '?';
  return name;
}
