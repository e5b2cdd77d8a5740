/* The message-logging cluster (ml_cluster.h) as a golden story: one
 * single-rank restart told the way pessimist-openmpi-v, section 2 tells
 * it, compared line for line with tests/unit/golden/. No MPI, no SimGrid.
 *
 * After a deliberate change of the story, regenerate the file with
 *   FTSIM_UPDATE_GOLDEN=1 build/tests/unit/ml_cluster_test
 * and read the diff before committing it. */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ml_cluster.h"

#ifndef GOLDEN_DIR
#error "GOLDEN_DIR must name tests/unit/golden"
#endif

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  static char buf[CLUSTER_TRACE_SIZE + 1];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void write_all(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

/* The first line where a and b differ (1-based), for the message. */
static int first_difference(const char *a, const char *b) {
  int line = 1;
  for (; *a && *a == *b; a++, b++)
    line += *a == '\n';
  return line;
}

static void assert_golden(const char *protocol, const char *file) {
  struct seeded_result *r = malloc(sizeof *r);
  cr_assert_not_null(r);
  cr_assert_eq(ml_golden_run(seeded_protocol(protocol), r), 0, "%s", r->error);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOLDEN_DIR, file);
  if (getenv("FTSIM_UPDATE_GOLDEN"))
    write_all(path, r->trace);
  const char *want = read_all(path);
  cr_assert_str_eq(r->trace, want, "%s differs from line %d on; got:\n%s", path,
                   first_difference(r->trace, want), r->trace);
  free(r);
}

/* Rank 1 fails in round 3: it restarts alone from its checkpoint, fetches
 * its events from the event logger, gets the peers' resends from their
 * sender-based logs, replays the probe and the wildcard receptions in
 * their logged order (the core forcing each source), re-sends nothing the
 * wire already had, and catches up; ranks 0 and 2 go on and finish. */
Test(ml_cluster, pessimist_single_rank_restart_golden_story) {
  assert_golden("pessimist", "pessimist_restart.txt");
}

/* The same cluster under v2 (every reception an event): its failure falls
 * just after its checkpoint, so the restart has nothing to replay and
 * lives on the resends. */
Test(ml_cluster, v2_single_rank_restart_golden_story) {
  assert_golden("v2", "v2_restart.txt");
}
