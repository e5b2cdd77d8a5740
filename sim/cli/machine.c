/* This machine as a SimGrid platform (see machine.h). */
#define _POSIX_C_SOURCE 200809L
#include "machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "image_file.h"

/* SMPI's per-message envelope (smpi_request.cpp: "payload_size_ = size_ +
 * 16;//MPI enveloppe size"), which the simulated link carries too. */
#define ENVELOPE 16.0
#define MAX_HOSTS 4096

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

int ft_machine_platform_file(char *out, size_t len) {
  const char *conf = env(FT_ENV_PLATFORM_CONF), *xdg = env("XDG_CONFIG_HOME");
  const char *home = env("HOME");
  int n = conf   ? snprintf(out, len, "%s", conf)
          : xdg  ? snprintf(out, len, "%s/ftsim/platform.xml", xdg)
          : home ? snprintf(out, len, "%s/.config/ftsim/platform.xml", home)
                 : snprintf(out, len, "ftsim-platform.xml");
  return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* One "bw_mbps@S Y" pair at `p` (or "test_us Z" into us[0], "iprobe_us
 * W" into us[1], with *size 0): 0 and *p past it, 1 at the end, -1. */
static int next_bw(const char **p, long *size, double *mbps, double us[2]) {
  int used = 0;
  while (**p == ' ')
    (*p)++;
  if (!**p || **p == '\n')
    return 1;
  *size = 0;
  if (sscanf(*p, "test_us %lf%n", &us[0], &used) == 1 ||
      sscanf(*p, "iprobe_us %lf%n", &us[1], &used) == 1) {
    *p += used;
    return 0;
  }
  if (sscanf(*p, "bw_mbps@%ld %lf%n", size, mbps, &used) != 2)
    return -1;
  *p += used;
  return 0;
}

int ft_machine_parse_pingpong(const char *line, double *lat_s, double *bw_bps,
                              long *bw_bytes, double *test_s, double *iprobe_s,
                              char *err, size_t errlen) {
  char a[256], b[256];
  double lat_us = 0, mbps = 0, best = 0, us[2] = {0, 0};
  long size = 0, best_size = 0;
  int used = 0, rc = 0;
  if (sscanf(line, "pair %255s %255s lat_us %lf%n", a, b, &lat_us, &used) != 3)
    rc = -1;
  const char *p = line + used;
  while (rc == 0 && (rc = next_bw(&p, &size, &mbps, us)) == 0)
    if (size > best_size)
      best_size = size, best = mbps;
  if (rc < 0 || best_size <= 0)
    return ft_errmsg(err, errlen, "ping-pong", 0, NULL,
                     "expected 'pair A B lat_us X bw_mbps@S Y', got '%.200s'",
                     line);
  if (!(lat_us > 0) || !(best > 0) || !isfinite(lat_us) || !isfinite(best))
    return ft_errmsg(err, errlen, "ping-pong", 0, NULL,
                     "latency and bandwidth must be > 0, got '%.200s'", line);
  if (us[0] < 0 || !isfinite(us[0]) || us[1] < 0 || !isfinite(us[1]))
    return ft_errmsg(err, errlen, "ping-pong", 0, NULL,
                     "test_us and iprobe_us must be >= 0, got '%.200s'", line);
  *test_s = us[0] * 1e-6;
  *iprobe_s = us[1] * 1e-6;
  *lat_s = lat_us * 1e-6;
  *bw_bps = best * 1e6;
  *bw_bytes = best_size;
  return 0;
}

int ft_machine_parse_service(const char *line, double *rtt_s, char *err,
                             size_t errlen) {
  double rtt_us = 0, median_us = 0, max_us = 0;
  char extra;
  if (sscanf(line, "service rtt_us %lf median_us %lf max_us %lf %c", &rtt_us,
             &median_us, &max_us, &extra) != 3 ||
      !(rtt_us > 0) || !isfinite(rtt_us))
    return ft_errmsg(err, errlen, "service ping-pong", 0, NULL,
                     "expected 'service rtt_us X median_us Y max_us Z' with "
                     "X > 0, got '%.200s'",
                     line);
  if (!(median_us > 0) || !isfinite(median_us))
    return ft_errmsg(err, errlen, "service ping-pong", 0, NULL,
                     "expected 'service rtt_us X median_us Y max_us Z' with "
                     "Y > 0, got '%.200s'",
                     line);
  *rtt_s = median_us * 1e-6;
  return 0;
}

static int positive(double x) { return isfinite(x) && x > 0; }

int ft_machine_check(const struct ft_machine *m, char *err, size_t errlen) {
  if (m->hosts < 1 || m->hosts > MAX_HOSTS)
    return ft_errmsg(err, errlen, "calibration", 0, "hosts",
                     "expected 1 to %d, got %d", MAX_HOSTS, m->hosts);
  if (m->cores < 1)
    return ft_errmsg(err, errlen, "calibration", 0, "cores",
                     "expected >= 1, got %d", m->cores);
  if (!positive(m->speed))
    return ft_errmsg(err, errlen, "calibration", 0, "speed",
                     "expected flop/s > 0, got %g", m->speed);
  if (!positive(m->lat_s) || !positive(m->bw_bps) || m->bw_bytes <= 0)
    return ft_errmsg(err, errlen, "calibration", 0, "ping-pong",
                     "expected latency and bandwidth > 0, got %g s, %g bit/s",
                     m->lat_s, m->bw_bps);
  return 0;
}

/* The links' values such that SMPI's linear model, one-way time =
 * 2 link_lat + (size + ENVELOPE) * 8 / link_bw, gives back both measures:
 * lat_s for 1 byte and bw_bytes * 8 / bw_bps for bw_bytes. */
static void link_values(const struct ft_machine *m, double *lat, double *bw) {
  double t_big = (double)m->bw_bytes * 8.0 / m->bw_bps;
  double slope = (t_big - m->lat_s) / ((double)m->bw_bytes - 1.0);
  if (!(slope > 0)) /* the measures contradict a line: keep the bandwidth */
    slope = 8.0 / m->bw_bps;
  *bw = 1.0 / slope; /* seconds per byte -> bytes per second */
  double route = m->lat_s - (1.0 + ENVELOPE) * slope;
  *lat = (route > 0 ? route : m->lat_s * 0.5) / 2.0;
}

/* The CPU part of a write, seconds per byte, as written: the measured one
 * when it is less than the whole write, else 0 (the disk keeps it all). */
static double write_cpu(const struct ft_machine *m) {
  double c = m->disk_write_cpu;
  return c > 0 && c < 1.0 / m->disk_write_Bps ? c : 0;
}

/* The disk's own write bandwidth: the measured write less its CPU part. */
static double device_write_Bps(const struct ft_machine *m) {
  double c = write_cpu(m);
  return c > 0 ? 1.0 / (1.0 / m->disk_write_Bps - c) : m->disk_write_Bps;
}

/* The rest of a host's element after its attributes: "/>" when it has
 * neither properties nor a disk, else its properties (the service round
 * trip, a write's CPU part) and its <disk>. */
static void write_host_content(FILE *out, const char *prefix, int i,
                               const struct ft_machine *m) {
  bool disk = m->disk_write_Bps > 0, rtt = m->service_rtt_s > 0;
  if (!disk && !rtt) {
    fprintf(out, "/>\n");
    return;
  }
  fputc('>', out);
  if (rtt)
    fprintf(out, "<prop id=\"%s\" value=\"%.6g\"/>",
            FT_MACHINE_SERVICE_RTT_PROP, m->service_rtt_s);
  if (disk && write_cpu(m) > 0)
    fprintf(out, "<prop id=\"%s\" value=\"%.6g\"/>", FT_MACHINE_WRITE_CPU_PROP,
            write_cpu(m));
  if (disk)
    fprintf(out,
            "<disk id=\"%s%d-disk\" read_bw=\"%.6gBps\" "
            "write_bw=\"%.6gBps\"/>",
            prefix, i, m->disk_read_Bps, device_write_Bps(m));
  fprintf(out, "</host>\n");
}

static void write_zone(FILE *out, const char *id, const char *prefix, int n,
                       const struct ft_machine *m, double lat, double bw) {
  fprintf(out, "    <zone id=\"%s\" routing=\"Cluster\">\n", id);
  for (int i = 1; i <= n; i++) {
    fprintf(out, "      <host id=\"%s%d\" speed=\"%.6gf\" core=\"1\"", prefix,
            i, m->speed);
    write_host_content(out, prefix, i, m);
    fprintf(out,
            "      <link id=\"%s_link_%d\" bandwidth=\"%.6gBps\" "
            "latency=\"%.6gs\" sharing_policy=\"SPLITDUPLEX\"/>\n"
            "      <host_link id=\"%s%d\" up=\"%s_link_%d_UP\" "
            "down=\"%s_link_%d_DOWN\"/>\n",
            id, i, bw, lat, prefix, i, id, i, id, i);
  }
  fprintf(out, "      <router id=\"%s-router\"/>\n    </zone>\n", id);
}

/* SMPI's per-call charges (<config> props): MPI_Test and MPI_Iprobe as
 * measured (SMPI's default charges 100 us per call; an Iprobe not
 * measured is charged as a Test), each call the same (no growth). */
static void write_call_costs(const struct ft_machine *m, FILE *out) {
  double probe = m->iprobe_s > 0 ? m->iprobe_s : m->test_s;
  if (m->test_s > 0)
    fprintf(out,
            "    <!-- One MPI_Test that finds nothing, measured: %.6g us. -->\n"
            "    <prop id=\"smpi/test\" value=\"%.6g\"/>\n",
            m->test_s * 1e6, m->test_s);
  if (probe > 0)
    fprintf(out,
            "    <!-- One MPI_Iprobe that finds nothing, %s: %.6g us (SMPI\n"
            "         runs it on the caller's core). -->\n"
            "    <prop id=\"smpi/iprobe\" value=\"%.6g\"/>\n"
            "    <prop id=\"smpi/iprobe-cpu-usage\" value=\"1\"/>\n",
            m->iprobe_s > 0 ? "measured" : "not measured, as MPI_Test",
            probe * 1e6, probe);
  if (probe > 0 || m->test_s > 0)
    fprintf(out, "    <!-- Every call costs the same (SMPI's default grows\n"
                 "         the charge with each call that finds nothing). -->\n"
                 "    <prop id=\"smpi/grow-injected-times\" value=\"no\"/>\n");
}

static void write_header(const struct ft_machine *m, FILE *out, double lat,
                         double bw) {
  fprintf(out,
          "<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!--\n"
          "  Written by 'ftsim calibrate' on %s (platforms/README.md,\n"
          "  \"This machine\"); regenerate it rather than edit it.\n"
          "  Measured: %d cores; one core runs DAXPY at %.6g flop/s;\n"
          "  Open MPI's ping-pong between two ranks (%s):\n"
          "  1 byte one-way %.6g us, %.6g Mb/s at %ld bytes.\n"
          "  Model: one host per core (%d compute hosts %s1..%d, 1 core\n"
          "  each; more ranks than hosts share a host's core), %d service\n"
          "  hosts, every host with one full-duplex link of %.6g MB/s and\n"
          "  %.6g us (a route crosses two: the measured latency less SMPI's\n"
          "  16-byte envelope). Not modelled: the memory bus and caches the\n"
          "  cores share (concurrent copies each get the link's bandwidth),\n"
          "  the cores the service ranks and mpirun take on the real machine.\n"
          "-->\n"
          "<platform version=\"4.1\">\n"
          "  <config id=\"ftsim-machine-calibration\">\n"
          "    <prop id=\"smpi/lat-factor\" value=\"0:1\"/>\n"
          "    <prop id=\"smpi/bw-factor\" value=\"0:1\"/>\n"
          "    <prop id=\"network/crosstraffic\" value=\"no\"/>\n",
          m->name ? m->name : "this machine", m->cores, m->speed,
          m->pingpong ? m->pingpong : "mpirun -np 2", m->lat_s * 1e6,
          m->bw_bps * 1e-6, m->bw_bytes, m->hosts, FT_MACHINE_PREFIX, m->hosts,
          FT_MACHINE_SERVICE_HOSTS, bw * 1e-6, lat * 1e6);
  if (m->service_rtt_s > 0)
    fprintf(out,
            "    <!-- A rank's round trip to a service process that naps\n"
            "         between polls while the ranks' cores are busy (mpirun\n"
            "         -np 3 calibrate service): %.6g us, the median, each\n"
            "         host's property %s; the simulation\n"
            "         charges it to each wait for an event logger's\n"
            "         acknowledgement (el_rtt_us overrides it). -->\n",
            m->service_rtt_s * 1e6, FT_MACHINE_SERVICE_RTT_PROP);
  write_call_costs(m, out);
  fprintf(out, "  </config>\n");
}

int ft_machine_write_platform(const struct ft_machine *m, FILE *out) {
  double lat, bw;
  link_values(m, &lat, &bw);
  write_header(m, out, lat, bw);
  if (m->disk_write_Bps > 0)
    fprintf(out,
            "  <!-- Disks: a durable write of a %ld-byte image (write, fsync,\n"
            "       rename, fsync of the directory, as reference mode's\n"
            "       checkpoint server writes each image) measured %.6g MB/s,\n"
            "       reading it back %.6g MB/s.%s",
            m->disk_bytes, m->disk_write_Bps * 1e-6, m->disk_read_Bps * 1e-6,
            write_cpu(m) > 0 ? "\n" : " -->\n");
  if (m->disk_write_Bps > 0 && write_cpu(m) > 0)
    fprintf(out,
            "       Of the write, %.6g s per MB were CPU time (user +\n"
            "       system): each host's property %s,\n"
            "       which the simulation runs on the writer's core (shared\n"
            "       with what else runs there); the disk's write_bw is the\n"
            "       rest, %.6g MB/s. -->\n",
            write_cpu(m) * 1e6, FT_MACHINE_WRITE_CPU_PROP,
            device_write_Bps(m) * 1e-6);
  fprintf(out, "  <zone id=\"local\" routing=\"Full\">\n");
  write_zone(out, "local-nodes", FT_MACHINE_PREFIX, m->hosts, m, lat, bw);
  write_zone(out, "local-svc", FT_MACHINE_PREFIX "service-",
             FT_MACHINE_SERVICE_HOSTS, m, lat, bw);
  fprintf(out,
          "    <link id=\"local-switch\" bandwidth=\"1Tbps\" latency=\"0us\" "
          "sharing_policy=\"FATPIPE\"/>\n"
          "    <zoneRoute src=\"local-nodes\" dst=\"local-svc\" "
          "gw_src=\"local-nodes-router\" gw_dst=\"local-svc-router\">\n"
          "      <link_ctn id=\"local-switch\"/>\n"
          "    </zoneRoute>\n"
          "  </zone>\n"
          "</platform>\n");
  return ferror(out) ? -1 : 0;
}

int ft_machine_read(const char *path, double *speed, bool *disks) {
  *disks = false;
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[4096];
  int rc = 1;
  while (fgets(line, sizeof line, f) && (rc == 1 || !*disks)) {
    const char *s = strstr(line, "<host ");
    s = s ? strstr(s, " speed=\"") : NULL;
    double v = s && rc == 1 ? strtod(s + 8, NULL) : 0;
    if (v > 0) {
      *speed = v;
      rc = 0;
    }
    *disks = *disks || strstr(line, "<disk ") != NULL;
  }
  fclose(f);
  return rc;
}

/* ---- ftsim_* host properties, checked before anything is launched ---- */

/* The ftsim_* properties the runtime reads (backend_smpi.c), each a
 * number of seconds (per byte for the write's CPU part) in [0, 1). */
static const char *const known_props[] = {FT_MACHINE_SERVICE_RTT_PROP,
                                          FT_MACHINE_WRITE_CPU_PROP};
#define KNOWN_PROPS (sizeof known_props / sizeof known_props[0])

static bool xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The value of attribute `name` in the element text [s, end) (quoted with
 * ' or ", preceded by white space), copied into out (len bytes); 0, or -1
 * when the element has none. */
static int attr(const char *s, const char *end, const char *name, char *out,
                size_t len) {
  size_t n = strlen(name);
  for (const char *p = s; p + n + 2 < end; p++) {
    if (!xml_space(p[0]) || strncmp(p + 1, name, n) != 0 || p[n + 1] != '=' ||
        (p[n + 2] != '"' && p[n + 2] != '\''))
      continue;
    const char *v = p + n + 3, *q = memchr(v, p[n + 2], (size_t)(end - v));
    if (!q)
      return -1;
    size_t vlen = (size_t)(q - v) < len - 1 ? (size_t)(q - v) : len - 1;
    memcpy(out, v, vlen);
    out[vlen] = '\0';
    return 0;
  }
  return -1;
}

/* Checks one <prop> element [s, end), at line `line` of `path`: not an
 * ftsim_* id, or a known one whose value is a number in [0, 1). */
static int check_prop(const char *path, int line, const char *s,
                      const char *end, char *err, size_t errlen) {
  char id[128], value[128];
  if (attr(s, end, "id", id, sizeof id) || strncmp(id, "ftsim_", 6) != 0)
    return 0;
  size_t k = 0;
  while (k < KNOWN_PROPS && strcmp(id, known_props[k]) != 0)
    k++;
  if (k == KNOWN_PROPS)
    return ft_errmsg(err, errlen, path, line, id,
                     "unknown ftsim_ host property (known: %s, %s)",
                     known_props[0], known_props[1]);
  if (attr(s, end, "value", value, sizeof value))
    return ft_errmsg(err, errlen, path, line, id, "the <prop> has no value");
  char *stop = NULL;
  double x = strtod(value, &stop);
  if (stop == value || *stop || !isfinite(x))
    return ft_errmsg(err, errlen, path, line, id,
                     "value '%s' is not a number of seconds", value);
  if (x < 0 || x >= 1)
    return ft_errmsg(err, errlen, path, line, id,
                     "value '%s' is out of range (expected 0 <= x < 1 "
                     "second%s)",
                     value, k == 1 ? " per byte" : "");
  return 0;
}

/* The whole file at `path` (NUL-terminated, malloc'd), or NULL. */
static char *slurp(const char *path) {
  void *data = NULL;
  size_t bytes = 0;
  char why[256];
  if (ft_file_read_all(path, &data, &bytes, why, sizeof why) != 0)
    return NULL;
  char *text = realloc(data, bytes + 1);
  if (!text) {
    free(data);
    return NULL;
  }
  text[bytes] = '\0';
  return text;
}

static int lines_in(const char *from, const char *to) {
  int n = 0;
  for (; from < to; from++)
    n += *from == '\n';
  return n;
}

int ft_machine_check_props(const char *path, char *err, size_t errlen) {
  char *text = slurp(path);
  if (!text)
    return ft_errmsg(err, errlen, path, 0, NULL, "cannot read the file");
  const char *p = text, *counted = text;
  int line = 1, rc = 0;
  while (rc == 0 && (p = strchr(p, '<')) != NULL) {
    if (strncmp(p, "<!--", 4) == 0) {
      const char *close = strstr(p + 4, "-->");
      p = close ? close + 3 : p + strlen(p);
      continue;
    }
    const char *end = strchr(p, '>');
    if (!end)
      break;
    if (strncmp(p, "<prop", 5) == 0 && xml_space(p[5])) {
      line += lines_in(counted, p);
      counted = p;
      rc = check_prop(path, line, p, end, err, errlen);
    }
    p = end + 1;
  }
  free(text);
  return rc;
}
