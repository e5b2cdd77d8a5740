/* ftsim: the command-line launcher. Dispatches to one subcommand. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "calibrate_cmd.h"
#include "check.h"
#include "crosscheck.h"
#include "host_speed.h"
#include "listing.h"
#include "outcome.h"
#include "paths.h"
#include "plot.h"
#include "record_cmd.h"
#include "run.h"
#include "soak.h"
#include "sweep.h"
#include "timeline.h"
#include "trace_info.h"
#include "usage.h"

static int help(int argc, char **argv, const struct ft_dirs *dirs) {
  if (argc > 0 && strcmp(argv[0], "run") == 0)
    ft_usage_run(stdout);
  else if (argc > 0 && strcmp(argv[0], "record") == 0)
    ft_record_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "sweep") == 0)
    ft_sweep_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "check") == 0)
    ft_check_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "timeline") == 0)
    ft_timeline_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "host-speed") == 0)
    ft_host_speed_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "calibrate") == 0)
    ft_calibrate_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "crosscheck") == 0)
    ft_crosscheck_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "soak") == 0)
    ft_soak_usage(stdout);
  else if (argc > 0 && strcmp(argv[0], "trace-info") == 0)
    ft_trace_info_usage(stdout);
  else
    ft_usage_main(stdout, dirs);
  return FT_EXIT_OK;
}

static bool is_help(const char *word) {
  return strcmp(word, "help") == 0 || strcmp(word, "--help") == 0 ||
         strcmp(word, "-h") == 0;
}

int main(int argc, char **argv) {
  struct ft_dirs dirs;
  ft_dirs_get(&dirs);
  if (argc < 2) {
    ft_usage_main(stderr, &dirs);
    return FT_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "run") == 0)
    return ft_run_main(argc - 2, argv + 2);
  if (strcmp(cmd, "record") == 0)
    return ft_record_main(argc - 2, argv + 2);
  if (strcmp(cmd, "sweep") == 0)
    return ft_sweep_main(argc - 2, argv + 2);
  if (strcmp(cmd, "analyze") == 0)
    return ft_analyze_main(argc - 2, argv + 2);
  if (strcmp(cmd, "plot") == 0)
    return ft_plot_main(argc - 2, argv + 2);
  if (strcmp(cmd, "check") == 0)
    return ft_check_main(argc - 2, argv + 2);
  if (strcmp(cmd, "timeline") == 0)
    return ft_timeline_main(argc - 2, argv + 2);
  if (strcmp(cmd, "host-speed") == 0)
    return ft_host_speed_main(argc - 2, argv + 2);
  if (strcmp(cmd, "calibrate") == 0)
    return ft_calibrate_main(argc - 2, argv + 2);
  if (strcmp(cmd, "crosscheck") == 0)
    return ft_crosscheck_main(argc - 2, argv + 2);
  if (strcmp(cmd, "soak") == 0)
    return ft_soak_main(argc - 2, argv + 2);
  if (strcmp(cmd, "trace-info") == 0)
    return ft_trace_info_main(argc - 2, argv + 2);
  if (is_help(cmd))
    return help(argc - 2, argv + 2, &dirs);
  if (strcmp(cmd, "protocols") == 0) {
    ft_listing_protocols(stdout);
    return FT_EXIT_OK;
  }
  if (strcmp(cmd, "platforms") == 0)
    return ft_listing_platforms(stdout, &dirs);
  if (strcmp(cmd, "apps") == 0)
    return ft_listing_apps(stdout, &dirs);
  fprintf(stderr,
          "ftsim: unknown command '%s' (commands: run, record, sweep, analyze, "
          "plot, check, timeline, host-speed, calibrate, crosscheck, soak, "
          "trace-info, "
          "protocols, platforms, "
          "apps, help)\n",
          cmd);
  return FT_EXIT_USAGE;
}
