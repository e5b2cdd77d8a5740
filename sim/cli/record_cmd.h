/* `ftsim record [run options] -o TRACE [--force] [-- program arguments]`
 * (issue 16, item 1): runs a program as `ftsim run` does, under protocol
 * none, with the runtime's recorder on (option record=DIR: each rank
 * writes DIR/rank.<r> at MPI_Finalize, sim/runtime/record.h), then merges
 * the rank files into one run and writes it as the OTF2 archive TRACE
 * (sim/rtrace). */
#ifndef FT_CLI_RECORD_CMD_H
#define FT_CLI_RECORD_CMD_H

#include <stdio.h>

/* Runs `ftsim record` with the words after "record". Returns the exit
 * status (enum ft_exit): the run's, or FT_EXIT_USAGE for bad arguments
 * (no -o, a protocol other than none, a scenario, an existing TRACE
 * without --force) before anything is launched, or FT_EXIT_FAILED when a
 * rank's file is missing or malformed (the message names the rank) or the
 * archive cannot be written. Prints the run's JSON line, then "recorded
 * TRACE: ..." on stdout. */
int ft_record_main(int argc, char **argv);

/* Prints `ftsim record --help`. */
void ft_record_usage(FILE *out);

#endif /* FT_CLI_RECORD_CMD_H */
