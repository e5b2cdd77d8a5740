/* ft_rtrace_read: either format, told apart by the path (rtrace.h). Apart
 * from rtrace.c so that the model links without OTF2 (the runtime's
 * recorder). */
#include "rtrace.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* An OTF2 archive: an anchor file ending in .otf2, or a directory holding
 * traces.otf2. */
static int is_otf2(const char *path, char *anchor, size_t len) {
  size_t n = strlen(path);
  struct stat st;
  if (n >= 5 && !strcmp(path + n - 5, ".otf2")) {
    snprintf(anchor, len, "%s", path);
    return 1;
  }
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(anchor, len, "%s/traces.otf2", path);
    return 1;
  }
  return 0;
}

struct ft_rtrace *ft_rtrace_read(const char *path, double ti_host_speed,
                                 int rank, char *err, size_t errlen) {
  char anchor[4096];
  if (is_otf2(path, anchor, sizeof anchor))
    return ft_rtrace_read_otf2(anchor, rank, err, errlen);
  return ft_rtrace_read_ti(path, ti_host_speed, rank, err, errlen);
}
