/* Fuzz target: failure traces (sim/failure_trace.c), both formats, every
 * system or one. Invariants: 0 or -1; on -1 a message naming the input and
 * no events; on 0 events sorted by time from 0, nodes in [0, nnodes), and
 * every node index first seen in order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failure_trace.h"

const char *const ft_fuzz_name = "trace";

static void check(const struct ft_trace *t, int rc, const char *err) {
  if (rc != 0) {
    if (rc != -1 || strncmp(err, "fuzz", 4) != 0 || t->events || t->nevents)
      abort();
    return;
  }
  int seen = 0;
  for (size_t i = 0; i < t->nevents; i++) {
    const struct ft_trace_event *e = &t->events[i];
    if (e->time < 0 || (i && e->time < t->events[i - 1].time) || e->node < 0 ||
        e->node >= t->nnodes || e->node > seen)
      abort();
    if (e->node == seen)
      seen++;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const long systems[] = {-1, 1, 20};
  char err[512];
  for (int fmt = 0; fmt < 2; fmt++) {
    struct ft_trace t;
    long sys = systems[size % 3];
    int rc = ft_trace_parse((const char *)data, size, (enum ft_trace_format)fmt,
                            "fuzz", sys, &t, err, sizeof err);
    check(&t, rc, err);
    ft_trace_free(&t);
  }
  return 0;
}
