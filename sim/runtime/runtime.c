/* Runtime state (placeholder until interposition lands). */
#include "runtime.h"
static struct ft_runtime state;
struct ft_runtime *ft_runtime(void) { return &state; }
