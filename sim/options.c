/* Run options parsing (see options.h). */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_protocol.h"

void ft_options_defaults(struct ft_options *options) {
  memset(options, 0, sizeof *options);
  snprintf(options->protocol, sizeof options->protocol, "%s", "none");
  options->service_ranks = 0;
  snprintf(options->ckpt_dir, sizeof options->ckpt_dir, "%s", "ftsim-ckpt");
  options->server_map = FT_SERVER_MAP_BLOCK;
  options->event_loggers = 1;
  options->log_batch = 64;
  options->control_window = 1;
  options->control_timer = 1;
  options->upload_streams = FT_UPLOAD_STREAMS_DEFAULT;
  options->stall_failures = FT_STALL_FAILURES_DEFAULT;
  options->sb_cache_kb = 512;
  options->piggyback = FT_PIGGYBACK_SEPARATE;
  options->piggyback_switch_bytes = FT_PIGGYBACK_SWITCH_DEFAULT;
  options->piggyback_unit_bytes = FT_PIGGYBACK_UNIT_DEFAULT;
}

const char *ft_options_known_keys(void) {
  return "protocol, service_ranks, period, image_mb, scenario, ckpt_dir, "
         "server_map, storage, daemon_latency_us, daemon_copy_mbps, "
         "event_loggers, log_batch, copy_mbps, sb_bus_mbps, "
         "sb_bus_cache_mbps, sb_cache_kb, el_rtt_us, trace, max_time, "
         "stall_failures, record, record_speed, any_call, control_window, "
         "failure, relaunch, piggyback, piggyback_switch_bytes, "
         "piggyback_unit_bytes, "
         "c3_barrier_checkpoint, max_quiet, control_timer, ranks_per_node, "
         "service_placement, upload_streams";
}

static int fail(char *err, size_t errlen, int field, const char *entry,
                const char *fmt, ...) {
  int n = snprintf(err, errlen, "field %d '%s': ", field, entry);
  if (n >= 0 && (size_t)n < errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Only the characters of a decimal number, starting with a digit, a sign
 * or a point: strtod alone also takes blanks, hex, inf and nan. */
static bool decimal_form(const char *s, const char *chars) {
  return s[0] && strchr("+-.0123456789", s[0]) && strspn(s, chars) == strlen(s);
}

int ft_parse_int(const char *s, long min, long max, int *out) {
  if (!decimal_form(s, "+-0123456789"))
    return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    return -1;
  *out = (int)v;
  return 0;
}

int ft_parse_double(const char *s, double min, double max, double *out) {
  if (!decimal_form(s, "+-.eE0123456789"))
    return FT_NUM_SYNTAX;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end)
    return FT_NUM_SYNTAX;
  /* ERANGE: overflow, or underflow (1e-400) that is not a negative. */
  if (errno == ERANGE || !isfinite(v) || v < min || v > max)
    return FT_NUM_RANGE;
  *out = v;
  return FT_NUM_OK;
}

const char *ft_num_problem(int rc, const char *s) {
  if (rc == FT_NUM_SYNTAX)
    return "not a decimal number";
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno == ERANGE && fabs(v) < 1)
    return "out of range: too small to represent, write 0";
  return "out of range";
}

static void list_protocols(char *buf, size_t len) {
  buf[0] = '\0';
  for (size_t i = 0; ft_protocol_at(i); i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
             ft_protocol_at(i)->name);
  }
}

static int parse_double(const char *s, double min, double max, double *out) {
  return ft_parse_double(s, min, max, out) == FT_NUM_OK ? 0 : -1;
}

static int parse_path(const char *s, char *out, size_t cap) {
  if (!*s || strlen(s) >= cap)
    return -1;
  snprintf(out, cap, "%s", s);
  return 0;
}

/* Applies key=value for the keys other than `protocol`; returns 0, -1 for a
 * bad value (with `why` set), or 1 for an unknown key. */
static int apply_value(struct ft_options *o, const char *key, const char *value,
                       const char **why) {
  if (strcmp(key, "service_ranks") == 0) {
    *why = "service_ranks must be an integer in [0, 4096]";
    return ft_parse_int(value, 0, 4096, &o->service_ranks);
  }
  if (strcmp(key, "ranks_per_node") == 0) {
    *why = "ranks_per_node must be an integer in [0, 1024] (0: one per host)";
    return ft_parse_int(value, 0, 1024, &o->ranks_per_node);
  }
  if (strcmp(key, "service_placement") == 0) {
    *why = "service_placement must be own or shared";
    if (strcmp(value, "own") != 0 && strcmp(value, "shared") != 0)
      return -1;
    o->services_share_cores = strcmp(value, "shared") == 0;
    return 0;
  }
  if (strcmp(key, "period") == 0) {
    *why = "period must be a number of seconds in [0, 1e9]";
    return parse_double(value, 0, FT_TIME_MAX_S, &o->period);
  }
  if (strcmp(key, "image_mb") == 0) {
    *why = "image_mb must be a number of MB in [0, 1e6]";
    return parse_double(value, 0, 1e6, &o->image_mb);
  }
  if (strcmp(key, "daemon_latency_us") == 0) {
    *why = "daemon_latency_us must be a number of microseconds in [0, 1e6]";
    return parse_double(value, 0, 1e6, &o->daemon_latency_us);
  }
  if (strcmp(key, "daemon_copy_mbps") == 0) {
    *why = "daemon_copy_mbps must be a number of MB/s in [0, 1e9]";
    return parse_double(value, 0, 1e9, &o->daemon_copy_mbps);
  }
  if (strcmp(key, "event_loggers") == 0) {
    *why = "event_loggers must be an integer in [1, 4096]";
    return ft_parse_int(value, 1, 4096, &o->event_loggers);
  }
  if (strcmp(key, "log_batch") == 0) {
    *why = "log_batch must be an integer in [1, 65536]";
    return ft_parse_int(value, 1, 65536, &o->log_batch);
  }
  if (strcmp(key, "control_window") == 0) {
    *why = "control_window must be an integer in [1, 32]";
    return ft_parse_int(value, 1, FT_OPTIONS_CONTROL_WINDOW_MAX,
                        &o->control_window);
  }
  if (strcmp(key, "upload_streams") == 0) {
    *why = "upload_streams must be an integer in [0, 1048576] (0: no limit)";
    return ft_parse_int(value, 0, 1048576, &o->upload_streams);
  }
  if (strcmp(key, "control_timer") == 0) {
    *why = "control_timer must be 0 or 1";
    return ft_parse_int(value, 0, 1, &o->control_timer);
  }
  if (strcmp(key, "copy_mbps") == 0) {
    *why = "copy_mbps must be a number of MB/s in [0, 1e9]";
    return parse_double(value, 0, 1e9, &o->copy_mbps);
  }
  if (strcmp(key, "sb_bus_mbps") == 0) {
    *why = "sb_bus_mbps must be a number of MB/s in [0, 1e9] (0: off)";
    return parse_double(value, 0, 1e9, &o->sb_bus_mbps);
  }
  if (strcmp(key, "sb_bus_cache_mbps") == 0) {
    *why = "sb_bus_cache_mbps must be a number of MB/s in [0, 1e9] (0: "
           "sb_bus_mbps)";
    return parse_double(value, 0, 1e9, &o->sb_bus_cache_mbps);
  }
  if (strcmp(key, "sb_cache_kb") == 0) {
    *why = "sb_cache_kb must be a number of kB (1024 bytes) in [0, 1e9]";
    return parse_double(value, 0, 1e9, &o->sb_cache_kb);
  }
  if (strcmp(key, "el_rtt_us") == 0) {
    *why = "el_rtt_us must be a number of microseconds in [0, 1e6]";
    return parse_double(value, 0, 1e6, &o->el_rtt_us);
  }
  if (strcmp(key, "max_time") == 0) {
    *why = "max_time must be a number of seconds in [0, 1e9] (0: no limit)";
    return parse_double(value, 0, FT_TIME_MAX_S, &o->max_time);
  }
  if (strcmp(key, "c3_barrier_checkpoint") == 0) {
    *why = "c3_barrier_checkpoint must be 0 or 1";
    return ft_parse_int(value, 0, 1, &o->c3_barrier_checkpoint);
  }
  if (strcmp(key, "max_quiet") == 0) {
    *why = "max_quiet must be a number of seconds in [0, 1e9] (0: never)";
    return parse_double(value, 0, FT_TIME_MAX_S, &o->max_quiet);
  }
  if (strcmp(key, "any_call") == 0) {
    *why = "any_call must be 0 or 1";
    return ft_parse_int(value, 0, 1, &o->any_call);
  }
  if (strcmp(key, "stall_failures") == 0) {
    *why = "stall_failures must be an integer in [0, 1000000] (0: never)";
    return ft_parse_int(value, 0, 1000000, &o->stall_failures);
  }
  if (strcmp(key, "scenario") == 0) {
    *why = "scenario must be a file path (under 512 bytes)";
    return parse_path(value, o->scenario, sizeof o->scenario);
  }
  if (strcmp(key, "trace") == 0) {
    *why = "trace must be a file path prefix (under 500 bytes)";
    return parse_path(value, o->trace, sizeof o->trace - 12);
  }
  if (strcmp(key, "record") == 0) {
    *why = "record must be a directory path (under 500 bytes)";
    return parse_path(value, o->record, sizeof o->record - 12);
  }
  if (strcmp(key, "record_speed") == 0) {
    *why = "record_speed must be a number of flop/s in [0, 1e18]";
    return parse_double(value, 0, 1e18, &o->record_speed);
  }
  if (strcmp(key, "ckpt_dir") == 0) {
    *why = "ckpt_dir must be a directory path (under 512 bytes)";
    return parse_path(value, o->ckpt_dir, sizeof o->ckpt_dir);
  }
  if (strcmp(key, "storage") == 0) {
    *why = "storage must be network, servers, shared or local";
    for (int s = FT_STORAGE_NETWORK; s <= FT_STORAGE_LOCAL; s++)
      if (strcmp(value, ft_storage_name(s)) == 0) {
        o->storage = s;
        return 0;
      }
    return -1;
  }
  if (strcmp(key, "failure") == 0) {
    *why = "failure must be logical or kill";
    if (strcmp(value, "logical") == 0)
      o->failure = FT_FAILURE_LOGICAL;
    else if (strcmp(value, "kill") == 0)
      o->failure = FT_FAILURE_KILL;
    else
      return -1;
    return 0;
  }
  if (strcmp(key, "relaunch") == 0) {
    *why = "relaunch must be an integer in [0, 1000000]";
    return ft_parse_int(value, 0, 1000000, &o->relaunch);
  }
  if (strcmp(key, "piggyback") == 0) {
    *why = "piggyback must be separate, combined or auto";
    for (int f = FT_PIGGYBACK_SEPARATE; f <= FT_PIGGYBACK_AUTO; f++)
      if (strcmp(value, ft_piggyback_form_name(f)) == 0) {
        o->piggyback = f;
        return 0;
      }
    return -1;
  }
  if (strcmp(key, "piggyback_switch_bytes") == 0) {
    *why = "piggyback_switch_bytes must be an integer in [0, 1073741824]";
    return ft_parse_int(value, 0, 1L << 30, &o->piggyback_switch_bytes);
  }
  if (strcmp(key, "piggyback_unit_bytes") == 0) {
    *why = "piggyback_unit_bytes must be an integer in [0, 1073741824]";
    return ft_parse_int(value, 0, 1L << 30, &o->piggyback_unit_bytes);
  }
  if (strcmp(key, "server_map") == 0) {
    *why = "server_map must be block or cyclic";
    if (strcmp(value, "block") == 0)
      o->server_map = FT_SERVER_MAP_BLOCK;
    else if (strcmp(value, "cyclic") == 0)
      o->server_map = FT_SERVER_MAP_CYCLIC;
    else
      return -1;
    return 0;
  }
  return 1;
}

/* Applies one "key=value" entry (the 1-based `field`-th). */
static int apply(struct ft_options *o, char *entry, int field, char *err,
                 size_t errlen) {
  char *eq = strchr(entry, '=');
  if (!eq || eq == entry)
    return fail(err, errlen, field, entry, "expected key=value");
  *eq = '\0';
  const char *key = entry, *value = eq + 1;
  char shown[160];
  snprintf(shown, sizeof shown, "%s=%s", key, value);
  if (strcmp(key, "protocol") == 0) {
    if (!ft_protocol_find(value)) {
      char names[256];
      list_protocols(names, sizeof names);
      return fail(err, errlen, field, shown,
                  "unknown protocol '%s' (known: %s)", value, names);
    }
    snprintf(o->protocol, sizeof o->protocol, "%s", value);
    return 0;
  }
  const char *why = "";
  int rc = apply_value(o, key, value, &why);
  if (rc == 0)
    return 0;
  if (rc < 0 && strstr(why, "a number")) {
    double v;
    int nrc = ft_parse_double(value, -HUGE_VAL, HUGE_VAL, &v);
    return fail(err, errlen, field, shown, "%s (%s)", why,
                ft_num_problem(nrc ? nrc : FT_NUM_RANGE, value));
  }
  if (rc < 0)
    return fail(err, errlen, field, shown, "%s", why);
  return fail(err, errlen, field, shown, "unknown key '%s' (known: %s)", key,
              ft_options_known_keys());
}

int ft_options_parse(const char *text, struct ft_options *options, char *err,
                     size_t errlen) {
  ft_options_defaults(options);
  if (!text || !*text)
    return 0;
  char copy[1024];
  if (strlen(text) >= sizeof copy)
    return fail(err, errlen, 0, "...", "options longer than %zu bytes",
                sizeof copy - 1);
  strcpy(copy, text);
  int field = 1;
  for (char *save = NULL, *e = strtok_r(copy, ",", &save); e;
       e = strtok_r(NULL, ",", &save), field++)
    if (apply(options, e, field, err, errlen))
      return -1;
  return 0;
}

static int complain(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the message and returns -1. */
static int complain(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

int ft_options_check(const struct ft_options *o, char *err, size_t errlen) {
  const struct ft_protocol_ops *p = ft_protocol_find(o->protocol);
  if (!p)
    return complain(err, errlen, "unknown protocol '%s'", o->protocol);
  char those[256]; /* the ones that recover, from the registry */
  ft_protocol_recovering_names(those, sizeof those, ", ", " and ");
  if (o->scenario[0] && !ft_protocol_recovers(p))
    return complain(err, errlen,
                    "scenario=%s: protocol %s does not recover from failures "
                    "(%s do)",
                    o->scenario, o->protocol, those);
  if (o->max_time > 0 && !ft_protocol_recovers(p))
    return complain(err, errlen,
                    "max_time=%g: protocol %s has no dispatcher to stop the "
                    "run (%s do)",
                    o->max_time, o->protocol, those);
  if (o->max_quiet > 0 && !ft_protocol_recovers(p))
    return complain(err, errlen,
                    "max_quiet=%g: protocol %s has no dispatcher to stop the "
                    "run (%s do)",
                    o->max_quiet, o->protocol, those);
  if (o->record[0] && strcmp(o->protocol, "none") != 0)
    return complain(err, errlen,
                    "record=%s: a recording runs under protocol none, not %s "
                    "(replay it under any protocol)",
                    o->record, o->protocol);
  if (o->c3_barrier_checkpoint && p->family != FT_FAMILY_PIGGYBACK)
    return complain(err, errlen,
                    "c3_barrier_checkpoint=1: protocol %s has no barrier "
                    "checkpoint (c3's Figure 8: --protocol c3)",
                    o->protocol);
  if (ft_protocol_recovers(p) && o->service_ranks < 1)
    return complain(err, errlen,
                    "service_ranks=%d: protocol %s needs at least one service "
                    "rank (its checkpoint server and dispatcher)",
                    o->service_ranks, o->protocol);
  if (o->failure == FT_FAILURE_KILL &&
      (!ft_protocol_recovers(p) || ft_protocol_restarts_alone(p)))
    return complain(err, errlen,
                    "failure=kill: protocol %s %s (kill failures relaunch "
                    "the whole job from its committed wave: pcl, vcl, "
                    "bookmark and c3)",
                    o->protocol,
                    ft_protocol_recovers(p)
                        ? "restarts the failed rank alone while the others "
                          "keep their state, which a relaunched job cannot "
                          "do: its failures stay logical"
                        : "does not recover from failures");
  if (o->relaunch > 0 && o->failure != FT_FAILURE_KILL)
    return complain(err, errlen,
                    "relaunch=%d: only a run with failure=kill is relaunched",
                    o->relaunch);
  if (o->piggyback != FT_PIGGYBACK_SEPARATE && p->family != FT_FAMILY_PIGGYBACK)
    return complain(err, errlen,
                    "piggyback=%s: protocol %s carries no piggyback (c3 "
                    "does)",
                    ft_piggyback_form_name(o->piggyback), o->protocol);
  if (ft_protocol_restarts_alone(p) && o->event_loggers > o->service_ranks)
    return complain(err, errlen,
                    "event_loggers=%d but service_ranks=%d: the event loggers "
                    "are service ranks (service_ranks=%d or more)",
                    o->event_loggers, o->service_ranks, o->event_loggers);
  return 0;
}

const char *ft_piggyback_form_name(int form) {
  static const char *const names[] = {
      [FT_PIGGYBACK_SEPARATE] = "separate",
      [FT_PIGGYBACK_COMBINED] = "combined",
      [FT_PIGGYBACK_AUTO] = "auto",
  };
  return form >= FT_PIGGYBACK_SEPARATE && form <= FT_PIGGYBACK_AUTO
             ? names[form]
             : "?";
}

const char *ft_storage_name(int storage) {
  static const char *const names[] = {
      [FT_STORAGE_NETWORK] = "network",
      [FT_STORAGE_SERVERS] = "servers",
      [FT_STORAGE_SHARED] = "shared",
      [FT_STORAGE_LOCAL] = "local",
  };
  return storage >= FT_STORAGE_NETWORK && storage <= FT_STORAGE_LOCAL
             ? names[storage]
             : "?";
}

int ft_storage_uses_disks(int storage) { return storage != FT_STORAGE_NETWORK; }

int ft_options_server_of(int map, int rank, int ranks, int servers) {
  if (map == FT_SERVER_MAP_CYCLIC)
    return rank % servers;
  int per = (ranks + servers - 1) / servers; /* ceil: every server <= per */
  return rank / per;
}
