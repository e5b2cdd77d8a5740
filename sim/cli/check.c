/* `ftsim check TRACE` (see check.h). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <string.h>
#include <time.h>

#include "trace_check.h"

void ft_check_usage(FILE *out) {
  fprintf(out,
          "Usage: ftsim check TRACE\n"
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
          "  - every delivery has its send.\n"
          "\n"
          "Exit status: 0 all holds (one summary line), 1 a violation (its\n"
          "kind, message id and ranks), 2 bad usage or a malformed trace\n"
          "(FILE:LINE: field 'F': ...).\n");
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ft_check_main(int argc, char **argv) {
  if (argc == 1 &&
      (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
    ft_check_usage(stdout);
    return 0;
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
  return 0;
}
