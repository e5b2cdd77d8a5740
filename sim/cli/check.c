/* `ftsim check TRACE` (see check.h). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <string.h>
#include <time.h>

#include "summary.h"
#include "trace_check.h"

void ft_check_usage(FILE *out) {
  fprintf(out,
          "Usage: ftsim check [--summary LINE] TRACE\n"
          "\n"
          "Reads the event trace of a run (ftsim run --trace TRACE writes\n"
          "TRACE.<rank> for every application rank, and TRACE.<N> for the\n"
          "checkpoint scheduler) and proves what the protocols promise:\n"
          "  - every committed wave is a consistent cut (no orphan message:\n"
          "    received before the receiver's checkpoint, sent after the\n"
          "    sender's);\n"
          "  - the channel state recorded for a wave (vcl) is exactly the\n"
          "    messages in transit across its cut (none for pcl);\n"
          "  - after every rollback, each channel delivers the failure-free\n"
          "    sequence from the cut on: no message lost, none twice;\n"
          "  - every delivery has its send;\n"
          "  - a failed rank acts no more: no record of it between its\n"
          "    failure and its replacement's start (after-failure);\n"
          "  - at the end, every message of the final incarnation was\n"
          "    delivered, and the final rollback re-sent what was in transit.\n"
          "Every file must be of one run (the run ID of its header) and end\n"
          "with its rank's end record (a truncated trace is malformed).\n"
          "\n"
          "--summary LINE: the run's summary (the JSON line of ftsim run, or\n"
          "the runtime's FTSIM_SUMMARY line) must agree with the trace:\n"
          "its \"waves\", \"rollbacks\" and \"ranks_restarted\" equal the\n"
          "counts derived from the trace (a violation 'summary' otherwise).\n"
          "\n"
          "Exit status: 0 all holds (one summary line), 1 a violation (its\n"
          "kind, message id and ranks), 2 bad usage or a malformed trace\n"
          "(FILE:LINE: field 'F': ...), or a summary without those fields.\n");
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The summary's counts against the trace's: 0 agree, 1 differ (printed),
 * 2 the summary lacks one. */
static int compare_summary(const char *summary,
                           const struct ft_check_result *res) {
  static const char *const keys[] = {"waves", "rollbacks", "ranks_restarted"};
  const uint64_t derived[] = {res->waves, res->rollbacks, res->restarts};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    unsigned long long v;
    if (ft_summary_count(summary, keys[i], &v) != 0) {
      fprintf(stderr,
              "ftsim check: --summary: field '%s': missing or not a "
              "non-negative integer\n",
              keys[i]);
      return 2;
    }
    if (v != derived[i]) {
      printf("ftsim check: violation (summary): the summary says "
             "\"%s\":%llu, the trace %llu\n",
             keys[i], v, (unsigned long long)derived[i]);
      return 1;
    }
  }
  return 0;
}

int ft_check_main(int argc, char **argv) {
  if (argc == 1 &&
      (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    ft_check_usage(stdout);
    return 0;
  }
  const char *summary = NULL;
  if (argc == 3 && strcmp(argv[0], "--summary") == 0) {
    summary = argv[1];
    argc -= 2;
    argv += 2;
  }
  if (argc != 1 || argv[0][0] == '-') {
    ft_check_usage(stderr);
    return 2;
  }
  struct ft_check_result res;
  double start = now();
  enum ft_check_status st = ft_check_files(argv[0], &res);
  double took = now() - start;
  if (st == FT_CHECK_MALFORMED) {
    fprintf(stderr, "ftsim check: %s\n", res.message);
    return 2;
  }
  if (st == FT_CHECK_VIOLATION) {
    printf("ftsim check: violation (%s): %s\n", res.kind, res.message);
    return 1;
  }
  char line[512];
  ft_check_summary(&res, took, line, sizeof line);
  printf("ftsim check: %s\n", line);
  return summary ? compare_summary(summary, &res) : 0;
}
