/* The application's checkpointed state: ft_protect and ft_snapshot. */
#include "ft.h"

#include "runtime.h"

void ft_protect(int id, void *ptr, size_t bytes) {
  ft_state_protect(ft_runtime(), id, ptr, bytes);
}

int ft_snapshot(void) { return ft_safe_point(ft_runtime()); }
