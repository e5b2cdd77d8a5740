/* This machine's speed in flop/s, for measured computation: SMPI turns the
 * CPU seconds it measures between MPI calls into flops at this rate
 * (smpi/host-speed), and the simulated host runs them at its own speed.
 * Measured by a reference kernel, stored in a small file, read back by
 * `ftsim run`. Not the platform calibration of analysis/calibrate.c, which
 * fits network parameters of the simulated platforms. */
#ifndef FT_CLI_HOST_SPEED_H
#define FT_CLI_HOST_SPEED_H

#include <stddef.h>
#include <stdio.h>

#define FT_ENV_HOST_SPEED "FTSIM_HOST_SPEED" /* flop/s, overrides the file */
#define FT_ENV_HOST_CONF "FTSIM_HOST_CONF"   /* the file itself */
#define FT_HOST_SPEED_KEY "host_speed"
#define FT_HOST_SPEED_MAX 1e18
#define FT_HOST_SPEED_REPEATS 5

/* Writes into `out` the file that stores the speed: $FTSIM_HOST_CONF, else
 * $XDG_CONFIG_HOME/ftsim/host.conf, else $HOME/.config/ftsim/host.conf, else
 * ./ftsim-host.conf. Returns 0, or -1 when the name does not fit. */
int ft_host_speed_file(char *out, size_t len);

/* Runs the reference kernel `repeats` times (1..100) and returns the median
 * rate in flop/s; samples[i] (repeats entries, may be NULL) receives each
 * run's rate. The kernel is DAXPY, y = a x + y, 2 flops per element, on two
 * 2048-double vectors (32 KiB: in L1 cache), timed in thread CPU time as
 * SMPI times a rank's computation; each run lasts about 0.1 s. */
double ft_host_speed_measure(int repeats, double *samples);

/* Reads the speed from `path`: lines "host_speed = FLOPS" (the one key),
 * blank lines and '#' comments. Returns 0 with *flops set, 1 when the file
 * does not exist, or -1 with "PATH:LINE: field 'host_speed': expected
 * flop/s > 0, got 'x'" (or "PATH: no host_speed line", "PATH:LINE: unknown
 * key 'k'") in `err`. */
int ft_host_speed_load(const char *path, double *flops, char *err,
                       size_t errlen);

/* Writes `flops` to `path` (creating its directory and the one above it),
 * with a comment saying how it was measured. Returns 0, or -1 with
 * "cannot write PATH: <strerror>" in `err`. */
int ft_host_speed_store(const char *path, double flops, int repeats, char *err,
                        size_t errlen);

/* The speed a measured run uses: `given` (--host-speed) when > 0, else
 * $FTSIM_HOST_SPEED, else the stored file. Returns 0 with *flops set and
 * `source` naming where it came from ("--host-speed", "FTSIM_HOST_SPEED",
 * or the file), or -1 with the reason in `err`, e.g. "measured computation
 * needs this machine's speed: run 'ftsim host-speed' once (it stores it in
 * FILE), or give --host-speed FLOPS or FTSIM_HOST_SPEED". */
int ft_host_speed_resolve(double given, double *flops, char *source,
                          size_t srclen, char *err, size_t errlen);

/* As ft_host_speed_resolve, but when nothing gives the speed (no option,
 * no variable, no file) measures it now as `ftsim host-speed` does (about
 * a second), stores it in the file (best effort) and says so on stderr:
 * a user's first measured run needs no extra step. Errors as
 * ft_host_speed_resolve's (a malformed file stays an error). */
int ft_host_speed_obtain(double given, double *flops, char *source,
                         size_t srclen, char *err, size_t errlen);

/* `ftsim host-speed [--show] [--repeat N]`: measures and stores the speed,
 * or with --show prints the one a run would use. Returns an exit status. */
int ft_host_speed_main(int argc, char **argv);

/* The help text of `ftsim host-speed`. */
void ft_host_speed_usage(FILE *out);

/* mkdir of the directory part of `path` and of its parent (0700, as
 * $XDG_CONFIG_HOME asks: ~/.config/ftsim/ for host.conf and `ftsim
 * calibrate`'s platform.xml); existing directories are fine, failures are
 * left to the caller's fopen. */
void ft_config_make_parents(const char *path);

#endif /* FT_CLI_HOST_SPEED_H */
