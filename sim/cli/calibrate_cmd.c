/* `ftsim calibrate` (see calibrate_cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include "calibrate_cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk_speed.h"
#include "ftsim_cli_config.h"
#include "host_speed.h"
#include "launch.h"
#include "machine.h"
#include "options.h"
#include "outcome.h"
#include "paths.h"
#include "strv.h"

#define PATH_LEN 4096
/* The ping-pong's bandwidth size. Not 8 MiB: there, Open MPI's
 * shared-memory copies on this VM ran at 6.7, 11, 24 or 77 Gb/s from one
 * run to the next minutes apart, idle or loaded (the caches or the pages,
 * not the CPU share), and a cross-check's pingpong came out +42% or +1.1%
 * with the file; at 1 MiB six runs gave 90.7-97.7 Gb/s (25 November). */
#define BW_BYTES "1048576"
#define LARGE_BYTES "8388608" /* the checkpoint image written to disk */
#define TESTS "100000"        /* unsuccessful MPI_Test calls timed */
/* The service ping-pong's rounds (2 ms apart: 2 s): with 200, the median
 * moved from 36 to 75 us between runs a minute apart; with 1,000, 40-57
 * us (load 10, 4 runs). */
#define SERVICE_ROUNDS 1000

struct calib {
  const char *out;      /* -o, or NULL: ft_machine_platform_file */
  int np;               /* --np, or 0: the core count */
  int repeat;           /* --repeat: DAXPY runs */
  int rounds;           /* --rounds: ping-pong round trips per size */
  int service_rounds;   /* --service-rounds: the service's round trips */
  const char *disk_dir; /* --disk-dir: where the image writes are timed */
  char file[PATH_LEN];
  char line[1024];    /* the ping-pong's "pair ..." line */
  char service[1024]; /* the service ping-pong's "service ..." line */
};

void ft_calibrate_usage(FILE *out) {
  char file[PATH_LEN];
  if (ft_machine_platform_file(file, sizeof file))
    snprintf(file, sizeof file, "(name too long)");
  fprintf(out,
          "Usage: ftsim calibrate [-o FILE] [--np N] [--repeat R] "
          "[--rounds N] [--service-rounds M] [--disk-dir DIR]\n"
          "\n"
          "Measures this machine and writes its SimGrid platform file:\n"
          "  - the online cores (sysconf);\n"
          "  - one core's speed: the median of R (default %d) DAXPY runs in\n"
          "    L1 cache, as ftsim host-speed measures it;\n"
          "  - the one-way latency (1 byte) and bandwidth (1 MiB) between two\n"
          "    ranks of a real ping-pong under mpirun -np 2 (Open MPI's\n"
          "    shared-memory transport), N round trips per size (default\n"
          "    200), and the time of an MPI_Test that finds nothing (SMPI\n"
          "    charges 100 us by default), with\n"
          "    <build>/analysis/real/calibrate ($%s);\n"
          "  - the round trip to a service process (an event logger) that\n"
          "    naps between polls as ftsim's services do, while the ranks'\n"
          "    cores are busy: mpirun -np 3 calibrate service, M rounds 2 ms\n"
          "    apart (default %d) after 20 untimed ones; the median becomes\n"
          "    every host's ftsim_service_rtt_s (the mean follows the few\n"
          "    rounds in which the service waited milliseconds for a core);\n"
          "  - the checkpoint storage: an 8 MiB image written as reference\n"
          "    mode's checkpoint server writes one (.tmp, fsync, rename,\n"
          "    fsync of the directory) and read back, median of R, in\n"
          "    --disk-dir DIR (default '.': where ckpt_dir=ftsim-ckpt goes);\n"
          "    every host gets a <disk> of those bandwidths.\n"
          "The file (default $%s, else $XDG_CONFIG_HOME/ftsim/platform.xml,\n"
          "else ~/.config/ftsim/platform.xml; here %s) has one\n"
          "1-core host per core (--np N: N hosts instead), local-1..N, and\n"
          "%d service hosts; ftsim crosscheck simulates on it.\n"
          "Exit status: 0 written, 1 the ping-pong failed, 2 bad arguments\n"
          "or output (nothing measured).\n",
          FT_HOST_SPEED_REPEATS, FT_ENV_PINGPONG, SERVICE_ROUNDS,
          FT_ENV_PLATFORM_CONF, file, FT_MACHINE_SERVICE_HOSTS);
}

static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* "ftsim: calibrate: <text> (see ftsim calibrate --help)"; FT_EXIT_USAGE. */
static int usage_error(const char *fmt, ...) {
  va_list ap;
  fputs("ftsim: calibrate: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs(" (see ftsim calibrate --help)\n", stderr);
  return FT_EXIT_USAGE;
}

/* One option at argv[*i]: 0 taken, 1 help, or an exit status. */
static int parse_one(struct calib *c, int argc, char **argv, int *i) {
  const char *o = argv[*i];
  if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0)
    return 1;
  bool takes = strcmp(o, "-o") == 0 || strcmp(o, "--output") == 0 ||
               strcmp(o, "--np") == 0 || strcmp(o, "--repeat") == 0 ||
               strcmp(o, "--rounds") == 0 ||
               strcmp(o, "--service-rounds") == 0 ||
               strcmp(o, "--disk-dir") == 0;
  if (!takes)
    return usage_error("unknown option '%s'", o);
  if (*i + 1 >= argc)
    return usage_error("%s: missing value", o);
  const char *v = argv[++*i];
  if (o[1] == 'o' || strcmp(o, "--output") == 0) {
    c->out = v;
    return 0;
  }
  if (strcmp(o, "--disk-dir") == 0) {
    c->disk_dir = v;
    return 0;
  }
  int *dst = strcmp(o, "--np") == 0               ? &c->np
             : strcmp(o, "--repeat") == 0         ? &c->repeat
             : strcmp(o, "--service-rounds") == 0 ? &c->service_rounds
                                                  : &c->rounds;
  long max = dst == &c->np ? 4096 : dst == &c->repeat ? 100 : 100000;
  if (ft_parse_int(v, 1, max, dst))
    return usage_error("%s: expected an integer from 1 to %ld, got '%s'", o,
                       max, v);
  return 0;
}

/* The output file and the ping-pong program, checked before measuring. */
static int check_paths(struct calib *c, const char **prog) {
  char err[PATH_LEN + 256];
  if (c->out)
    snprintf(c->file, sizeof c->file, "%s", c->out);
  else if (ft_machine_platform_file(c->file, sizeof c->file))
    return usage_error("the platform file name is too long");
  if (!c->out)
    ft_config_make_parents(c->file);
  if (ft_paths_check_output(c->file, err, sizeof err))
    return usage_error("-o %s: %s", c->file, err);
  struct stat st;
  errno = 0;
  if (stat(c->disk_dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return usage_error("--disk-dir %s: %s", c->disk_dir,
                       errno ? strerror(errno) : "not a directory");
  const char *env = getenv(FT_ENV_PINGPONG);
  *prog = env && *env ? env : FTSIM_CLI_PINGPONG;
  if (access(*prog, X_OK) != 0)
    return usage_error("no ping-pong program %s (build the reference mode: "
                       "cmake -DFTSIM_REAL_MPI=ON; or set FTSIM_PINGPONG): %s",
                       *prog, strerror(errno));
  return FT_EXIT_OK;
}

static void on_line(void *ctx, enum ft_stream stream, const char *line,
                    size_t len) {
  struct calib *c = ctx;
  if (stream == FT_STREAM_STDOUT && strncmp(line, "pair ", 5) == 0 &&
      !c->line[0]) {
    snprintf(c->line, sizeof c->line, "%.*s", (int)len, line);
    return;
  }
  if (stream == FT_STREAM_STDOUT && strncmp(line, "service ", 8) == 0 &&
      !c->service[0]) {
    snprintf(c->service, sizeof c->service, "%.*s", (int)len, line);
    return;
  }
  fprintf(stderr, "%.*s\n", (int)len, line);
}

/* Starts argv with mpirun --oversubscribe -np NP [--allow-run-as-root]
 * PROG. */
static void mpirun_argv(struct ft_strv *argv, int np, const char *prog) {
  struct ft_dirs dirs;
  ft_dirs_get(&dirs);
  ft_strv_push(argv, dirs.mpirun);
  ft_strv_push(argv, "--oversubscribe");
  ft_strv_push(argv, "-np");
  ft_strv_pushf(argv, "%d", np);
  if (geteuid() == 0)
    ft_strv_push(argv, "--allow-run-as-root");
  ft_strv_push(argv, prog);
}

/* Runs argv; `got` is the line it must have printed (`what` names it). */
static int run_measure(struct calib *c, struct ft_strv *argv, const char *got,
                       const char *what) {
  char err[1024];
  struct ft_launch_result res;
  if (ft_launch_run(argv->items, on_line, c, &res, err, sizeof err))
    return fprintf(stderr, "ftsim: calibrate: %s\n", err), FT_EXIT_FAILED;
  if (!res.exited || res.status != 0 || !got[0])
    return fprintf(stderr, "ftsim: calibrate: the ping-pong (%s) %s %d%s%s%s\n",
                   argv->items[0],
                   res.exited ? "exited with status" : "was killed by signal",
                   res.status, got[0] ? "" : " and printed no '",
                   got[0] ? "" : what, got[0] ? "" : "' line"),
           FT_EXIT_FAILED;
  return FT_EXIT_OK;
}

/* Runs the ping-pong: mpirun --oversubscribe -np 2 PROG -r N -s 1 MiB
 * 0:1. */
static int pingpong(struct calib *c, const char *prog, struct ft_strv *argv) {
  mpirun_argv(argv, 2, prog);
  ft_strv_push(argv, "-r");
  ft_strv_pushf(argv, "%d", c->rounds);
  const char *tail[] = {"-s", BW_BYTES, "-t", TESTS, "0:1"};
  for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
    ft_strv_push(argv, tail[i]);
  return run_measure(c, argv, c->line, "pair");
}

/* Runs the service ping-pong: mpirun --oversubscribe -np 3 PROG service
 * -r M (rank 0 computes 2 ms before each round trip to rank 2, which
 * naps as ftsim's services do, while rank 1 polls in MPI_Recv). */
static int service_pingpong(struct calib *c, const char *prog,
                            struct ft_strv *argv) {
  mpirun_argv(argv, 3, prog);
  ft_strv_push(argv, "service");
  ft_strv_push(argv, "-r");
  ft_strv_pushf(argv, "%d", c->service_rounds);
  return run_measure(c, argv, c->service, "service");
}

static int write_file(const struct calib *c, const struct ft_machine *m) {
  FILE *f = fopen(c->file, "w");
  int bad = !f || ft_machine_write_platform(m, f) != 0;
  if ((f && fclose(f) != 0) || bad)
    return fprintf(stderr, "ftsim: calibrate: cannot write %s: %s\n", c->file,
                   strerror(errno)),
           FT_EXIT_FAILED;
  return FT_EXIT_OK;
}

/* Linux shares the CPU between sessions (autogroups), not processes, so
 * `nice` alone does not keep other sessions' work off a calibration. The
 * real runs of a cross-check run with their session's autogroup at nice
 * -19 (analysis/crosscheck.sh); the calibration they are compared on is
 * measured the same way, where it may be (root or CAP_SYS_NICE): returns
 * 1 and the nice to restore in *old; 0 if it was left as it was. */
static int autogroup_raise(int *old) {
  FILE *f = fopen("/proc/self/autogroup", "r+");
  if (!f)
    return 0;
  char line[128];
  const char *at = fgets(line, sizeof line, f) ? strstr(line, " nice ") : NULL;
  int ok = at && sscanf(at, " nice %d", old) == 1 &&
           fseek(f, 0, SEEK_SET) == 0 && fputs("-19", f) >= 0;
  return fclose(f) == 0 && ok;
}

static void autogroup_restore(int old) {
  FILE *f = fopen("/proc/self/autogroup", "w");
  if (f) {
    fprintf(f, "%d", old);
    fclose(f);
  }
}

static int measure_as(struct calib *c, const char *prog, const char *priority) {
  struct ft_strv argv = {0};
  char err[1024], host[256] = "this machine", cmd[512];
  struct ft_machine m = {.name = host, .pingpong = cmd};
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  m.cores = cores > 0 && cores < 1 << 20 ? (int)cores : 1;
  m.hosts = c->np ? c->np : m.cores;
  gethostname(host, sizeof host - 1);
  m.speed = ft_host_speed_measure(c->repeat, NULL);
  m.disk_bytes = atol(LARGE_BYTES);
  if (ft_disk_speed_measure(c->disk_dir, (size_t)m.disk_bytes, c->repeat,
                            &m.disk_write_Bps, &m.disk_read_Bps,
                            &m.disk_write_cpu, err, sizeof err))
    return fprintf(stderr, "ftsim: calibrate: --disk-dir: %s\n", err),
           FT_EXIT_FAILED;
  int rc = pingpong(c, prog, &argv);
  snprintf(cmd, sizeof cmd, "mpirun -np 2 %s, %d round trips", prog, c->rounds);
  ft_strv_free(&argv);
  if (rc)
    return rc;
  rc = service_pingpong(c, prog, &argv);
  ft_strv_free(&argv);
  if (rc)
    return rc;
  if (ft_machine_parse_pingpong(c->line, &m.lat_s, &m.bw_bps, &m.bw_bytes,
                                &m.test_s, &m.iprobe_s, err, sizeof err) ||
      ft_machine_parse_service(c->service, &m.service_rtt_s, err, sizeof err) ||
      ft_machine_check(&m, err, sizeof err))
    return fprintf(stderr, "ftsim: calibrate: %s\n", err), FT_EXIT_FAILED;
  if ((rc = write_file(c, &m)))
    return rc;
  printf("{\"platform\":\"%s\",\"cores\":%d,\"hosts\":%d,\"speed\":%.6g,"
         "\"lat_us\":%.6g,\"bw_mbps\":%.6g,\"bw_bytes\":%ld,\"test_us\":%.6g,"
         "\"iprobe_us\":%.6g,"
         "\"disk_write_mbps\":%.6g,\"disk_read_mbps\":%.6g,"
         "\"disk_write_cpu_s_per_mb\":%.6g,\"service_rtt_us\":%.6g,"
         "\"priority\":\"%s\"}\n",
         c->file, m.cores, m.hosts, m.speed, m.lat_s * 1e6, m.bw_bps * 1e-6,
         m.bw_bytes, m.test_s * 1e6, m.iprobe_s * 1e6, m.disk_write_Bps * 8e-6,
         m.disk_read_Bps * 8e-6, m.disk_write_cpu * 1e6, m.service_rtt_s * 1e6,
         priority);
  return FT_EXIT_OK;
}

/* measure_as with this session's autogroup raised while it measures. */
static int measure(struct calib *c, const char *prog) {
  int old = 0, raised = autogroup_raise(&old);
  int rc = measure_as(c, prog, raised ? "autogroup-19" : "as launched");
  if (raised)
    autogroup_restore(old);
  return rc;
}

int ft_calibrate_main(int argc, char **argv) {
  struct calib c = {.repeat = FT_HOST_SPEED_REPEATS,
                    .rounds = 200,
                    .service_rounds = SERVICE_ROUNDS,
                    .disk_dir = "."};
  const char *prog = NULL;
  for (int i = 0; i < argc; i++) {
    int rc = parse_one(&c, argc, argv, &i);
    if (rc == 1) {
      ft_calibrate_usage(stdout);
      return FT_EXIT_OK;
    }
    if (rc)
      return rc;
  }
  int rc = check_paths(&c, &prog);
  return rc ? rc : measure(&c, prog);
}
