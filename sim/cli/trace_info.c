/* `ftsim trace-info`: per-rank figures of a recorded trace. */
#include "trace_info.h"

#include <stdlib.h>
#include <string.h>

#include "outcome.h"
#include "rtrace.h"

void ft_trace_info_usage(FILE *out) {
  fprintf(out,
          "Usage: ftsim trace-info [--ti-host-speed FLOPS] TRACE\n"
          "\n"
          "Reads a recorded trace and prints, per rank, its events by kind,\n"
          "bytes sent and received, compute seconds and peak memory.\n"
          "TRACE: an OTF2 archive (its traces.otf2, or the directory "
          "holding it),\n"
          "or a SimGrid time-independent trace (smpirun -trace-ti: the "
          "index file,\n"
          "or one file of every rank's lines).\n"
          "  --ti-host-speed FLOPS  a TI trace's flops become seconds at "
          "this speed\n"
          "                         (default 1e9)\n"
          "Exit status: 0, or 2 for bad usage or a bad trace.\n");
}

static void print_rank(const struct ft_rtrace *t, uint32_t r) {
  struct ft_rtrace_stat s;
  ft_rtrace_rank_stat(t, r, &s);
  size_t total = 0;
  for (unsigned k = 1; k < FT_RT_KIND_COUNT; k++)
    total += s.by_kind[k];
  printf("rank %u: %zu events (", r, total);
  const char *sep = "";
  for (unsigned k = 1; k < FT_RT_KIND_COUNT; k++)
    if (s.by_kind[k]) {
      printf("%s%s %zu", sep, ft_rt_kind_name(k), s.by_kind[k]);
      sep = ", ";
    }
  printf("), sent %llu B, received %llu B, compute %.9f s, peak memory "
         "%llu B\n",
         (unsigned long long)s.sent, (unsigned long long)s.recvd, s.compute_s,
         (unsigned long long)s.peak_memory);
}

int ft_trace_info_main(int argc, char **argv) {
  double speed = 1e9;
  int i = 0;
  if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
    ft_trace_info_usage(stdout);
    return FT_EXIT_OK;
  }
  if (argc >= 2 && !strcmp(argv[0], "--ti-host-speed")) {
    char *end;
    speed = strtod(argv[1], &end);
    if (*end || !(speed > 0) || speed > 1e30) {
      fprintf(stderr, "ftsim trace-info: --ti-host-speed: not a speed: '%s'\n",
              argv[1]);
      return FT_EXIT_USAGE;
    }
    i = 2;
  }
  if (argc - i != 1) {
    ft_trace_info_usage(stderr);
    return FT_EXIT_USAGE;
  }
  char err[1024] = "";
  struct ft_rtrace *t = ft_rtrace_read(argv[i], speed, -1, err, sizeof err);
  if (!t) {
    fprintf(stderr, "ftsim trace-info: %s\n", err);
    return FT_EXIT_USAGE;
  }
  printf("trace %s: %u ranks, %u communicators, program '%s', platform "
         "'%s', ftsim '%s'\n",
         argv[i], t->nranks, t->ncomms, t->program, t->platform, t->version);
  for (uint32_t r = 0; r < t->nranks; r++)
    print_rank(t, r);
  ft_rtrace_free(t);
  return FT_EXIT_OK;
}
