#include "rtrace.h"
struct ft_rtrace *ft_rtrace_read_ti(const char *path, double host_speed,
                                    int rank, char *err, size_t errlen) {
  (void)path, (void)host_speed, (void)rank, (void)err, (void)errlen;
  return 0;
}
