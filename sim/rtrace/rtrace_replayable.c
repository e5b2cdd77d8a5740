/* Which recorded events a replay can carry out (see rtrace.h). */
#include <inttypes.h>
#include <stdio.h>

#include "rtrace.h"

/* 1 when a collective op is one the replay knows. */
static int coll_replayable(uint8_t op) {
  return op >= FT_RT_BARRIER && op < FT_RT_COLL_COUNT;
}

int ft_rtrace_replayable_event(const struct ft_rt_event *e, uint32_t r,
                               size_t pos, char *err, size_t errlen) {
  if (e->kind == FT_RT_COLL && !coll_replayable(e->u.coll.op)) {
    snprintf(err, errlen,
             "rank %" PRIu32 ", event %zu: collective %u is not supported by "
             "the replay",
             r, pos, (unsigned)e->u.coll.op);
    return -1;
  }
  if (e->kind < FT_RT_SEND || e->kind >= FT_RT_KIND_COUNT) {
    snprintf(err, errlen,
             "rank %" PRIu32 ", event %zu: event kind %u is not supported by "
             "the replay",
             r, pos, (unsigned)e->kind);
    return -1;
  }
  return 0;
}

int ft_rtrace_replayable(const struct ft_rtrace *t, char *err, size_t errlen) {
  for (uint32_t r = 0; r < t->nranks; r++)
    for (size_t i = 0; i < t->ranks[r].n; i++)
      if (ft_rtrace_replayable_event(&t->ranks[r].ev[i], r, i, err, errlen))
        return -1;
  return 0;
}
