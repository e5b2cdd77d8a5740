/* The application's checkpointed state: ft_protect and ft_snapshot. */
#include "ft.h"

#include "runtime.h"

void ft_protect(int id, void *ptr, size_t bytes) {
  ft_state_protect(ft_runtime(), id, ptr, bytes);
}

int ft_snapshot(void) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_safe_point(rt);
  if (rc == FT_SNAPSHOT_RESTORED) /* c3-collectives section 5.3: "On */
    ft_coll_reexec_pending(rt);   /* restart, calls in the reexecList are
                                     immediately invoked" */
  return rc;
}
