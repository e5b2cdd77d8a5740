/* Help texts (see usage.h). */
#include "usage.h"

#include "host_speed.h"
#include "options.h"
#include "run_args.h"

void ft_usage_main(FILE *out, const struct ft_dirs *dirs) {
  fprintf(
      out,
      "Usage: ftsim <command> [options]\n"
      "\n"
      "Simulates fault-tolerant MPI protocols with SimGrid's SMPI, or runs\n"
      "them on a real MPI.\n"
      "\n"
      "Commands:\n"
      "  run        run one workload under one protocol (ftsim run --help)\n"
      "  sweep      run a grid of simulations into a CSV (ftsim sweep "
      "--help)\n"
      "  analyze    aggregate a sweep's CSV over seeds, optimal periods\n"
      "  plot       gnuplot figures and a report page of a sweep's CSV\n"
      "  check      prove a run's event trace consistent (ftsim check "
      "--help)\n"
      "  host-speed measure and store this machine's speed, for measured\n"
      "             computation (ftsim host-speed --help)\n"
      "  soak       random failure scenarios, every run judged (ftsim soak "
      "--help)\n"
      "  protocols  list the fault-tolerance protocols\n"
      "  platforms  list the platforms (<source>/platforms/*.xml)\n"
      "  apps       list the built workloads (<build>/apps/{smpi,real})\n"
      "  help       show this text (ftsim help run: the run options)\n"
      "\n"
      "Directories (override with %s, %s):\n"
      "  source  %s\n"
      "  build   %s\n"
      "Launchers (override with %s, %s):\n"
      "  %s\n"
      "  %s\n",
      FT_ENV_SOURCE_DIR, FT_ENV_BUILD_DIR, dirs->source, dirs->build,
      FT_ENV_SMPIRUN, FT_ENV_MPIRUN, dirs->smpirun, dirs->mpirun);
}

static void usage_options(FILE *out) {
  fprintf(
      out,
      "Usage: ftsim run [options] [-- app arguments...]\n"
      "\n"
      "Runs one workload under one protocol, simulated (smpirun on a\n"
      "SimGrid platform) or for real (--real: mpirun on this machine),\n"
      "and prints one JSON line on stdout.\n"
      "\n"
      "Options (--flag VALUE or --flag=VALUE):\n"
      "  --platform NAME|FILE  <source>/platforms/NAME.xml, or a platform "
      "file\n"
      "                        (default: %s)\n"
      "  --np N, -np N         application ranks, N >= 1 (default: %d)\n"
      "  --app NAME|PATH       <build>/apps/smpi/NAME, or apps/real/NAME "
      "with\n"
      "                        --real, or a path (default: %s)\n"
      "  --protocol NAME       fault-tolerance protocol (default: %s; see\n"
      "                        ftsim protocols)\n"
      "  --service-ranks S     extra ranks for services (default: 0, or 1 "
      "for a\n"
      "                        protocol that recovers)\n"
      "  --scenario NAME|FILE  failures: <source>/scenarios/NAME.txt, or "
      "a file\n"
      "                        (default: none; format in "
      "scenarios/README.md)\n"
      "  --trace FILE          write the event trace: FILE.<rank> per "
      "rank, for\n"
      "                        ftsim check FILE\n"
      "  --set KEY=VALUE       one more runtime option, repeatable; known "
      "keys:\n"
      "                        %s\n"
      "  --compute MODE        computation between MPI calls: modelled "
      "(only\n"
      "                        ft_compute costs time), measured (SMPI "
      "times it\n"
      "                        and scales it by this machine's speed), "
      "or auto\n"
      "                        (default: modelled for ftsim's workloads and "
      "programs\n"
      "                        that call ft_compute, else measured)\n"
      "  --host-speed FLOPS    this machine's flop/s for measured "
      "computation\n"
      "                        (default: $%s, else the file\n"
      "                        that ftsim host-speed stores)\n"
      "  --cfg KEY:VALUE       a SimGrid option for smpirun, repeatable, "
      "after\n"
      "                        ftsim's own (e.g. smpi/cpu-threshold:1e-3)\n"
      "  --dry-run             print the command and the placement, run "
      "nothing\n"
      "  --real                reference mode: mpirun, no platform\n"
      "  --hostfile-out FILE   write the hostfile there and keep it\n"
      "  -h, --help            show this text\n",
      FT_RUN_DEFAULT_PLATFORM, FT_RUN_DEFAULT_NP, FT_RUN_DEFAULT_APP,
      FT_RUN_DEFAULT_PROTOCOL, ft_options_known_keys(), FT_ENV_HOST_SPEED);
}

static void usage_behaviour(FILE *out) {
  fprintf(
      out,
      "\n"
      "The runtime reads its options from %s, built as\n"
      "\"protocol=P,service_ranks=S\", \"scenario=FILE\" (absolute) with\n"
      "--scenario, then each --set in order, and checked before anything\n"
      "starts; a scenario file is read and its ranks checked against --np.\n"
      "Checked before launch as well: --set protocol=Y must equal\n"
      "--protocol; a protocol that recovers needs service_ranks >= 1,\n"
      "pessimist and v2 event_loggers <= service_ranks; a scenario needs a\n"
      "protocol that recovers; --trace's directory must exist and be\n"
      "writable. Numbers are decimal (no hex, inf, nan or blanks; 1e-400 is\n"
      "out of range), times at most 1e9 s.\n"
      "\n"
      "Placement: hosts are taken in name order, numbers compared as\n"
      "numbers (gdx-2 before gdx-10). Hosts named *-service-* are service\n"
      "hosts, the others compute hosts. Ranks 0..N-1 go to compute hosts,\n"
      "one per host while N <= hosts, else ceil(N/hosts) consecutive ranks\n"
      "per host; service ranks N..N+S-1 go round-robin on service hosts.\n"
      "\n"
      "Output: the app's output goes to stderr. stdout gets one line: the\n"
      "runtime's summary (its FTSIM_SUMMARY line) with \"platform\", "
      "\"app\",\n"
      "\"mode\" and \"wall_s\" added, e.g.\n"
      "  {\"protocol\":\"none\",\"platform\":\"gige\",\"app\":\"cg\","
      "\"mode\":\"simulated\",\n"
      "   \"ranks\":16,...,\"verified\":true,...,\"wall_s\":1.234}\n"
      "\n"
      "Exit status:\n"
      "  0  the run succeeded (and its result was verified, if checked)\n"
      "  1  the run failed: the launcher exited non-zero, the simulation\n"
      "     deadlocked, or no (or a malformed) summary line came; the JSON\n"
      "     line is still printed when a summary came\n"
      "  2  bad usage: unknown option, protocol, platform or app, bad value,\n"
      "     options that do not go together, a bad scenario file\n"
      "     (FILE:LINE: field ...), or a platform without the hosts the\n"
      "     placement needs; nothing was launched\n"
      "  3  the run completed but its result was not verified\n"
      "     (\"verified\":false); the JSON line is printed\n"
      "  4  the run could not progress and was stopped\n"
      "     (\"outcome\":\"no_progress\", \"verified\":null): a failure\n"
      "     came after stall_failures failures in a row without progress (a\n"
      "     committed wave; pessimist, v2: a completed restart; default\n"
      "     1000, 0: never), or max_time simulated seconds passed (default\n"
      "     0: no limit); the JSON line is printed with the simulated time\n"
      "     reached\n",
      FT_OPTIONS_ENV);
}

void ft_usage_run(FILE *out) {
  usage_options(out);
  usage_behaviour(out);
}
