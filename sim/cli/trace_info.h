/* `ftsim trace-info TRACE`: what a recorded trace holds (sim/rtrace). */
#ifndef FT_CLI_TRACE_INFO_H
#define FT_CLI_TRACE_INFO_H

#include <stdio.h>

/* The words after "trace-info": [--ti-host-speed FLOPS] TRACE, TRACE an
 * OTF2 archive (anchor .otf2 or its directory) or a SimGrid TI index or
 * trace. Prints the run's metadata, then per rank its count of events by
 * kind, bytes sent and received, compute seconds and peak memory. Exit
 * status: 0, or 2 for bad usage or a bad trace (the error on stderr). */
int ft_trace_info_main(int argc, char **argv);

void ft_trace_info_usage(FILE *out);

#endif /* FT_CLI_TRACE_INFO_H */
