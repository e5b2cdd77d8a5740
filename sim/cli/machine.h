/* This machine as a SimGrid platform: what `ftsim calibrate` measured (cores,
 * a core's speed, the latency and bandwidth of Open MPI's shared-memory
 * transport between two ranks) and the platform file written from it.
 * Pure: no MPI, no clock; the file name is the only environment read. */
#ifndef FT_CLI_MACHINE_H
#define FT_CLI_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FT_ENV_PLATFORM_CONF "FTSIM_PLATFORM_CONF" /* the calibrated file */
#define FT_MACHINE_PREFIX "local-"
#define FT_MACHINE_SERVICE_HOSTS 2

/* What the calibration measured. */
/* The host property holding a durable write's CPU seconds per byte. */
#define FT_MACHINE_WRITE_CPU_PROP "ftsim_write_cpu_s_per_byte"
/* The host property holding the mean round trip from a rank to a service
 * process (an event logger), seconds, which the simulation charges to each
 * wait of a rank for an event logger's acknowledgement. */
#define FT_MACHINE_SERVICE_RTT_PROP "ftsim_service_rtt_s"

struct ft_machine {
  const char *name;     /* this machine's host name, for the comment */
  int cores;            /* online cores */
  int hosts;            /* compute hosts to write (--np; default: cores) */
  double speed;         /* flop/s of one core on the reference kernel */
  double lat_s;         /* one-way time of a 1-byte message, seconds */
  double bw_bps;        /* bandwidth of the largest message, bit/s */
  long bw_bytes;        /* the size at which bw_bps was measured */
  double test_s;        /* one MPI_Test that finds nothing, seconds (0: not
                           measured, SMPI's default stays) */
  double iprobe_s;      /* one MPI_Iprobe that finds nothing, seconds (0: not
                           measured, test_s charged instead) */
  const char *pingpong; /* the command line of the ping-pong, for the comment */
  double disk_write_Bps; /* a durable image write (write, fsync, rename,
                            fsync of the directory), bytes/s; 0: no <disk> */
  double disk_read_Bps;  /* reading that file back, bytes/s */
  double disk_write_cpu; /* CPU seconds (user + system) that write took per
                            byte: the part that occupies the writer's core
                            (0: not measured, the disk takes it all) */
  long disk_bytes;       /* the size the disk was measured at */
  double service_rtt_s;  /* median round trip from a rank to a service
                            process
                            that naps between polls while the ranks' cores
                            are busy (calibrate service), seconds; 0: not
                            measured, no property */
};

/* Writes into `out` the calibrated platform file's name:
 * $FTSIM_PLATFORM_CONF, else $XDG_CONFIG_HOME/ftsim/platform.xml, else
 * $HOME/.config/ftsim/platform.xml, else ./ftsim-platform.xml (next to the
 * host speed file of host_speed.h). Returns 0, or -1 when it does not fit. */
int ft_machine_platform_file(char *out, size_t len);

/* Parses the ping-pong's line (analysis/calibrate.c)
 *   "pair HOST_A HOST_B lat_us X bw_mbps@S1 Y1 [bw_mbps@S2 Y2 ...]
 *    [test_us Z] [iprobe_us W]"
 * into the latency in seconds, the bandwidth in bit/s at the largest size
 * and the times of one unsuccessful MPI_Test and MPI_Iprobe in seconds (0
 * without test_us, iprobe_us). Returns 0, or -1 with "expected 'pair A B lat_us
 * X bw_mbps@S Y', got '...'" (or "latency ... must be > 0") in `err`. */
int ft_machine_parse_pingpong(const char *line, double *lat_s, double *bw_bps,
                              long *bw_bytes, double *test_s, double *iprobe_s,
                              char *err, size_t errlen);

/* Parses the service ping-pong's line (analysis/calibrate.c, calibrate
 * service) "service rtt_us X median_us Y max_us Z" into the median round
 * trip Y in seconds (the mean X follows the rare rounds in which the
 * service waited milliseconds for a core: 67-235 us in runs minutes
 * apart, the median 40-57 us). Returns 0, or -1 with "expected 'service
 * rtt_us X ...', got '...'" (X or Y not a finite number > 0 included) in
 * `err`. */
int ft_machine_parse_service(const char *line, double *rtt_s, char *err,
                             size_t errlen);

/* Checks m's values: hosts 1..4096, cores >= 1, speed, latency and
 * bandwidth finite and > 0. Returns 0, or -1 naming the field in `err`. */
int ft_machine_check(const struct ft_machine *m, char *err, size_t errlen);

/* Writes the platform (SimGrid 4.1) for `m` (checked): `hosts` compute
 * hosts local-1 .. local-N, 1 core of `speed` each, and
 * FT_MACHINE_SERVICE_HOSTS service hosts local-service-1.., each with one
 * SPLITDUPLEX link of bw_bps and lat_s / 2 (a route crosses two), the
 * zones joined by a free link, as platforms/cluster_zone.sh writes them;
 * linear SMPI model (lat-factor and bw-factor 1), no TCP cross traffic,
 * and when test_s > 0 smpi/test = test_s, smpi/iprobe = iprobe_s (test_s
 * when iprobe_s is 0), smpi/iprobe-cpu-usage 1 and
 * smpi/grow-injected-times no; when
 * disk_write_Bps > 0 every host has one <disk id="HOST-disk"> of the
 * measured read and write bandwidths; when disk_write_cpu > 0 as well, the
 * write is split into its CPU part, a host property
 * FT_MACHINE_WRITE_CPU_PROP (seconds per byte, which the simulation
 * executes on the writer's core: backend_smpi.c), and the device's part,
 * the disk's write_bw (the rest of the measured time), so that a write
 * alone on its core still takes the measured time; when service_rtt_s > 0
 * every host has the property FT_MACHINE_SERVICE_RTT_PROP.
 * Returns 0, or -1 if a write failed. */
int ft_machine_write_platform(const struct ft_machine *m, FILE *out);

/* Reads back from a platform file (one this module wrote, or any) the
 * compute hosts' speed (flop/s: the first <host ... speed="..f">) and
 * whether it declares a <disk> anywhere (*disks). Returns 0, 1 when the
 * file has no speed (*disks still set), -1 when it cannot be read. */
int ft_machine_read(const char *path, double *speed, bool *disks);

/* Checks the ftsim_* host properties of the platform file `path` (any
 * platform, before anything is launched: the runtime reads them only once
 * the simulation runs). Every <prop id="ftsim_..."> outside a comment must
 * be one the runtime reads, FT_MACHINE_SERVICE_RTT_PROP or
 * FT_MACHINE_WRITE_CPU_PROP, with a value that is a number in [0, 1)
 * (seconds; seconds per byte). Other properties are SimGrid's or the
 * user's: not checked. Returns 0, or -1 with "FILE:LINE: field 'ID':
 * value 'fast' is not a number of seconds" (or "... is out of range
 * (expected 0 <= x < 1 second)", "unknown ftsim_ host property (known:
 * ...)", "the <prop> has no value", "FILE: cannot read the file") in `err`. */
int ft_machine_check_props(const char *path, char *err, size_t errlen);

#endif /* FT_CLI_MACHINE_H */
