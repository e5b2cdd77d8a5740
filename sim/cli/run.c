/* `ftsim run` (see run.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anycall_wire.h"
#include "command.h"
#include "elf_symbols.h"
#include "ft_protocol.h"
#include "host_speed.h"
#include "launch.h"
#include "machine.h"
#include "outcome.h"
#include "paths.h"
#include "placement.h"
#include "platform_hosts.h"
#include "relaunch.h"
#include "rtrace.h"
#include "rtrace_events.h"
#include "run_args.h"
#include "scenario.h"
#include "summary.h"
#include "usage.h"

#define PATH_LEN 4096

struct run {
  struct ft_run_args args;
  struct ft_dirs dirs;
  struct ft_options options;
  char options_text[1024];
  char platform_file[PATH_LEN], platform_name[256];
  char app_path[PATH_LEN], app_name[256];
  char scenario_file[PATH_LEN]; /* --scenario, absolute */
  struct ft_strv hosts;
  struct ft_placement placement;
  char hostfile[PATH_LEN];
  bool hostfile_temp;    /* delete it at the end */
  bool measured;         /* simulated: SMPI measures computation */
  char compute_why[512]; /* why this mode, for --dry-run */
  double host_speed;     /* measured: flop/s */
  char speed_source[PATH_LEN];
  struct ft_strv argv;
  char replay_file[PATH_LEN]; /* --replay, absolute */
  char replay_speed[32];      /* the replay's fallback host speed */
  char *replay_args[7];       /* the replay program's arguments */
  char max_bytes[24];         /* the largest message of any rank */
  char cuts_file[PATH_LEN];   /* the consistent cuts (temporary) */
  char counts_file[PATH_LEN]; /* the v-collectives' counts (temporary) */
  char events_file[PATH_LEN]; /* the decoded events (temporary) */
};

/* The flop/s at which the replay turns a recorded second into flops when
 * the trace does not tell its host's speed, and at which a SimGrid TI
 * trace's flops are read as seconds (so they come back as the same
 * flops). */
#define FT_REPLAY_SPEED 1e9

static int complain(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "ftsim: ..." on stderr and returns `status`. */
static int complain(int status, const char *fmt, ...) {
  va_list ap;
  fputs("ftsim: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return status;
}

/* Loads the scenario `file` and checks it against --np: "ftsim: FILE:LINE:
 * ..." and FT_EXIT_USAGE when it is wrong. */
static int check_scenario(const struct run *r, const char *file) {
  struct ft_scenario s;
  char err[1024];
  int rc = ft_scenario_load(file, &s, err, sizeof err);
  if (rc == 0)
    rc = ft_scenario_check(&s, r->args.np, err, sizeof err);
  ft_scenario_free(&s);
  return rc ? complain(FT_EXIT_USAGE, "%s", err) : FT_EXIT_OK;
}

/* Resolves, checks and makes absolute --scenario (args.scenario then
 * points to r->scenario_file, for the options text). */
static int resolve_scenario(struct run *r) {
  char err[1024], file[PATH_LEN];
  if (!r->args.scenario)
    return FT_EXIT_OK;
  if (ft_paths_scenario(&r->dirs, r->args.scenario, file, sizeof file, err,
                        sizeof err))
    return complain(FT_EXIT_USAGE, "%s", err);
  int rc = check_scenario(r, file);
  if (rc)
    return rc;
  if (!realpath(file, r->scenario_file))
    return complain(FT_EXIT_USAGE, "%s: %s", file, strerror(errno));
  r->args.scenario = r->scenario_file;
  return FT_EXIT_OK;
}

/* --compute auto: modelled for one of ftsim's workloads (an app named, not
 * a path: <build>/apps/smpi holds only them, and they all model their
 * computation with ft_compute) or for a program that defines ft_compute
 * (the linker takes it out of libftsim_compute only when the program calls
 * it); measured for any other program, whose computation would otherwise
 * cost no simulated time at all. */
static int decide_auto(struct run *r) {
  char err[1024];
  if (!ft_paths_is_path(r->args.app, NULL)) {
    r->measured = false;
    snprintf(r->compute_why, sizeof r->compute_why,
             "auto: %s is one of ftsim's workloads", r->app_name);
    return FT_EXIT_OK;
  }
  int calls = ft_elf_defines(r->app_path, "ft_compute", err, sizeof err);
  if (calls < 0)
    return complain(FT_EXIT_USAGE, "--app %s: %s", r->args.app, err);
  r->measured = calls == 0;
  snprintf(r->compute_why, sizeof r->compute_why, "auto: %s %s ft_compute",
           r->app_name, calls ? "calls" : "does not call");
  return FT_EXIT_OK;
}

/* Chooses modelled or measured computation, and for measured this
 * machine's speed. */
static int decide_compute(struct run *r) {
  char err[PATH_LEN + 256];
  int rc = FT_EXIT_OK;
  if (r->args.compute == FT_COMPUTE_AUTO)
    rc = decide_auto(r);
  else {
    r->measured = r->args.compute == FT_COMPUTE_MEASURED;
    snprintf(r->compute_why, sizeof r->compute_why, "--compute %s",
             ft_compute_mode_name(r->args.compute));
  }
  if (rc || !r->measured)
    return rc;
  if (ft_host_speed_obtain(r->args.host_speed, &r->host_speed, r->speed_source,
                           sizeof r->speed_source, err, sizeof err))
    return complain(FT_EXIT_USAGE, "%s (%s)", err, r->compute_why);
  return FT_EXIT_OK;
}

/* 1 when a rank of `t` calls a collective whose counts the replay needs
 * from the other ranks. */
static int needs_counts(const struct ft_rtrace *t) {
  for (uint32_t r = 0; r < t->nranks; r++)
    for (size_t i = 0; i < t->ranks[r].n; i++)
      if (t->ranks[r].ev[i].kind == FT_RT_COLL &&
          ft_rtrace_coll_needs_counts(t->ranks[r].ev[i].u.coll.op))
        return 1;
  return 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The largest message, send or receive, point-to-point or collective, of
 * any rank of `t` (at least 1): the room of the any-call transport's
 * receives (sim/ft_anycall.h), which take any sender's message. */
static uint64_t largest_message(const struct ft_rtrace *t) {
  uint64_t m = 1;
  for (uint32_t r = 0; r < t->nranks; r++)
    for (size_t i = 0; i < t->ranks[r].n; i++) {
      const struct ft_rt_event *e = &t->ranks[r].ev[i];
      if (e->kind >= FT_RT_SEND && e->kind <= FT_RT_IRECV)
        m = max_u64(m, e->u.p2p.bytes);
      else if (e->kind == FT_RT_SENDRECV)
        m = max_u64(
            m, max_u64(e->u.sendrecv.send_bytes, e->u.sendrecv.recv_bytes));
      else if (e->kind == FT_RT_COLL)
        m = max_u64(m, max_u64(e->u.coll.sent, e->u.coll.recvd));
    }
  return m;
}

/* The largest tag of `t`'s point-to-point events (0 if none). */
static int64_t largest_tag(const struct ft_rtrace *t) {
  int64_t m = 0;
  for (uint32_t r = 0; r < t->nranks; r++)
    for (size_t i = 0; i < t->ranks[r].n; i++) {
      const struct ft_rt_event *e = &t->ranks[r].ev[i];
      int32_t a = FT_RT_UNKNOWN, b = FT_RT_UNKNOWN;
      if (e->kind >= FT_RT_SEND && e->kind <= FT_RT_IRECV)
        a = e->u.p2p.tag;
      else if (e->kind == FT_RT_SENDRECV)
        a = e->u.sendrecv.send_tag, b = e->u.sendrecv.recv_tag;
      if (a != FT_RT_UNKNOWN && a > m)
        m = a;
      if (b != FT_RT_UNKNOWN && b > m)
        m = b;
    }
  return m;
}

/* 1 when the replay will checkpoint at any call: a protocol whose core
 * accepts any_call (tried on a scratch core: cores are pure), and no
 * --set any_call=0. */
static int replays_any_call(const struct run *r) {
  const struct ft_protocol_ops *p = ft_protocol_find(r->args.protocol);
  for (size_t i = 0; i < r->args.nsets; i++)
    if (strcmp(r->args.sets[i], "any_call=0") == 0)
      return 0;
  if (!p || !ft_protocol_recovers(p))
    return 0;
  struct ft_core_config c = {.rank = 0, .ranks = 2, .period = 1, .any_call = 1};
  void *state = calloc(1, p->state_size(&c) + 1);
  int ok = state && p->init(state, &c) == 0;
  free(state);
  return ok;
}

/* The any-call transport's MPI tag (sim/anycall_wire.h) must fit in SMPI's
 * MPI_TAG_UB, 2^31 - 1. Message logging and c3 checkpoint at any call
 * without the transport (sim/ft_anycall.h, FT_AC_ALONE, FT_AC_REPOST):
 * their tags are the trace's. */
static int check_anycall_tags(const struct run *r, const struct ft_rtrace *t) {
  const struct ft_protocol_ops *ops = ft_protocol_find(r->args.protocol);
  if (!replays_any_call(r) || (ops && !ft_protocol_any_call_transport(ops)))
    return FT_EXIT_OK;
  int64_t tag = largest_tag(t);
  if (ft_ac_wire_fits(tag, t->ncomms, INT32_MAX))
    return FT_EXIT_OK;
  return complain(FT_EXIT_USAGE,
                  "--replay %s: tag %lld on %u communicators: the any-call "
                  "transport of protocol %s encodes tags up to %lld with that "
                  "many communicators (replay with --set any_call=0)",
                  r->args.replay, (long long)tag, t->ncomms, r->args.protocol,
                  (long long)ft_ac_wire_max_tag(t->ncomms, INT32_MAX));
}

/* Makes a new temporary file ftsim-WHAT-XXXXXX into `out`. */
static int temp_file(const char *what, char *out, size_t len) {
  const char *tmp = getenv("TMPDIR");
  snprintf(out, len, "%s/ftsim-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
  int fd = mkstemp(out);
  if (fd < 0) {
    out[0] = '\0';
    return complain(FT_EXIT_FAILED, "cannot create a %s file: %s", what,
                    strerror(errno));
  }
  close(fd);
  return FT_EXIT_OK;
}

/* With a protocol that recovers, writes the trace's consistent cuts
 * (ft_rtrace_cuts: the world collectives where the replay checkpoints),
 * one per line, into a new temporary file (r->cuts_file). */
static int write_cuts(struct run *r, const struct ft_rtrace *t) {
  const struct ft_protocol_ops *p = ft_protocol_find(r->args.protocol);
  uint64_t *cuts;
  size_t n;
  if (!p || !ft_protocol_recovers(p))
    return FT_EXIT_OK;
  if (ft_rtrace_cuts(t, &cuts, &n))
    return complain(FT_EXIT_FAILED, "out of memory");
  int rc = temp_file("cuts", r->cuts_file, sizeof r->cuts_file);
  FILE *f = rc ? NULL : fopen(r->cuts_file, "w");
  for (size_t i = 0; f && i < n; i++)
    fprintf(f, "%llu\n", (unsigned long long)cuts[i]);
  free(cuts);
  if (!rc && (!f || fclose(f) != 0))
    rc = complain(FT_EXIT_FAILED, "cannot write %s", r->cuts_file);
  return rc;
}

/* Writes the v-collectives' counts into a new temporary file (its name in
 * r->counts_file, deleted at the end), when the trace has any. */
static int write_counts(struct run *r, const struct ft_rtrace *t) {
  char err[1024] = "";
  if (!needs_counts(t))
    return FT_EXIT_OK;
  int rc = temp_file("counts", r->counts_file, sizeof r->counts_file);
  if (rc)
    return rc;
  if (ft_rtrace_write_vcounts(t, r->counts_file, err, sizeof err))
    return complain(FT_EXIT_USAGE, "--replay %s: %s", r->args.replay, err);
  return FT_EXIT_OK;
}

/* Writes the trace's decoded events into a new temporary file (its name in
 * r->events_file, deleted at the end), from which each replay rank reads
 * its own (ft_rtrace_write_events) instead of decoding the trace again. */
static int write_events(struct run *r, const struct ft_rtrace *t) {
  char err[1024] = "";
  int rc = temp_file("events", r->events_file, sizeof r->events_file);
  if (rc)
    return rc;
  if (ft_rtrace_write_events(t, r->events_file, err, sizeof err))
    return complain(FT_EXIT_FAILED, "%s", err);
  return FT_EXIT_OK;
}

/* Reads the trace, whole, before anything is launched: its ranks give --np
 * (another --np is an error), an event the replay cannot carry out is
 * refused, and the replay program becomes the app. */
static int check_replay(struct run *r) {
  char err[1024] = "";
  struct ft_rtrace *t =
      ft_rtrace_read(r->args.replay, FT_REPLAY_SPEED, -1, err, sizeof err);
  if (!t)
    return complain(FT_EXIT_USAGE, "--replay %s: %s", r->args.replay, err);
  int rc = FT_EXIT_OK;
  if (ft_rtrace_replayable(t, err, sizeof err))
    rc = complain(FT_EXIT_USAGE, "--replay %s: %s", r->args.replay, err);
  else if (r->args.np_given && (uint32_t)r->args.np != t->nranks)
    rc = complain(FT_EXIT_USAGE,
                  "--np %d: the trace %s has %u ranks (leave --np out)",
                  r->args.np, r->args.replay, t->nranks);
  else if (t->nranks > FT_RUN_MAX_NP)
    rc = complain(FT_EXIT_USAGE, "--replay %s: %u ranks, at most %d",
                  r->args.replay, t->nranks, FT_RUN_MAX_NP);
  else
    r->args.np = (int)t->nranks;
  snprintf(r->max_bytes, sizeof r->max_bytes, "%llu",
           (unsigned long long)largest_message(t));
  if (rc == FT_EXIT_OK)
    rc = check_anycall_tags(r, t);
  if (rc == FT_EXIT_OK)
    rc = write_counts(r, t);
  if (rc == FT_EXIT_OK)
    rc = write_cuts(r, t);
  if (rc == FT_EXIT_OK)
    rc = write_events(r, t);
  ft_rtrace_free(t);
  return rc;
}

/* --replay: the app is <build>/replay/smpi/replay, its arguments the
 * trace's absolute path, FT_REPLAY_SPEED, the counts, cuts and events
 * files; its name the trace's. */
static int resolve_replay(struct run *r) {
  if (!r->args.replay)
    return FT_EXIT_OK;
  if (r->args.app_given)
    return complain(FT_EXIT_USAGE,
                    "--replay and --app: give one (the replay is the app)");
  if (r->args.real)
    return complain(FT_EXIT_USAGE,
                    "--replay: simulated only (leave --real out)");
  if (r->args.napp_args)
    return complain(FT_EXIT_USAGE,
                    "--replay: takes no app arguments (after --)");
  if (!realpath(r->args.replay, r->replay_file))
    return complain(FT_EXIT_USAGE, "--replay %s: %s", r->args.replay,
                    strerror(errno));
  int rc = check_replay(r);
  if (rc)
    return rc;
  snprintf(r->app_path, sizeof r->app_path, "%s/replay/smpi/replay",
           r->dirs.build);
  if (access(r->app_path, R_OK) != 0)
    return complain(FT_EXIT_USAGE, "--replay: no replay program %s (build it)",
                    r->app_path);
  size_t n = strlen(r->replay_file);
  while (n > 1 && r->replay_file[n - 1] == '/')
    r->replay_file[--n] = '\0';
  ft_paths_short_name(r->replay_file, ".otf2", r->app_name, sizeof r->app_name);
  if (strcmp(r->app_name, "traces") == 0 && n > 12) { /* DIR/traces.otf2 */
    char dir[PATH_LEN];
    snprintf(dir, sizeof dir, "%.*s", (int)(n - 12), r->replay_file);
    ft_paths_short_name(dir, NULL, r->app_name, sizeof r->app_name);
  }
  snprintf(r->replay_speed, sizeof r->replay_speed, "%g", FT_REPLAY_SPEED);
  r->replay_args[0] = r->replay_file;
  r->replay_args[1] = r->replay_speed;
  r->replay_args[2] = r->counts_file[0] ? r->counts_file : "-";
  r->replay_args[3] = r->cuts_file[0] ? r->cuts_file : "-";
  const struct ft_protocol_ops *ops = ft_protocol_find(r->args.protocol);
  r->replay_args[4] = ops && ft_protocol_restarts_alone(ops) ? "alone" : "-";
  r->replay_args[5] = r->max_bytes;
  r->replay_args[6] = r->events_file;
  r->args.app_args = r->replay_args;
  r->args.napp_args = 7;
  r->measured = false;
  snprintf(r->compute_why, sizeof r->compute_why,
           "replay: the recorded computation, as flops");
  return FT_EXIT_OK;
}

/* Resolves --app (or --replay) and the computation mode. */
static int resolve_app(struct run *r) {
  char err[1024];
  if (r->args.replay)
    return FT_EXIT_OK;
  if (ft_paths_app(&r->dirs, r->args.app, r->args.real, r->app_path,
                   sizeof r->app_path, err, sizeof err))
    return complain(FT_EXIT_USAGE, "%s", err);
  ft_paths_short_name(r->args.app, NULL, r->app_name, sizeof r->app_name);
  return r->args.real ? FT_EXIT_OK : decide_compute(r);
}

static int resolve(struct run *r) {
  char err[1024];
  int rc = resolve_replay(r);
  if (rc)
    return rc;
  rc = resolve_scenario(r);
  if (rc)
    return rc;
  if (ft_run_args_options(&r->args, r->options_text, sizeof r->options_text,
                          &r->options, err, sizeof err))
    return complain(FT_EXIT_USAGE, "%s", err);
  /* --set scenario=FILE, the runtime's own key, is checked the same way. */
  if (r->options.scenario[0] &&
      strcmp(r->options.scenario, r->scenario_file) != 0 &&
      (rc = check_scenario(r, r->options.scenario)))
    return rc;
  if (ft_options_check(&r->options, err, sizeof err))
    return complain(FT_EXIT_USAGE, "options %s: %s", r->options_text, err);
  if (r->args.real && ft_storage_uses_disks(r->options.storage))
    return complain(FT_EXIT_USAGE,
                    "--set storage=%s: disks are modelled in simulation only "
                    "(with --real the servers write real image files to "
                    "ckpt_dir: leave storage at network)",
                    ft_storage_name(r->options.storage));
  if (!r->args.real && r->options.failure == FT_FAILURE_KILL)
    return complain(FT_EXIT_USAGE,
                    "--set failure=kill: a real kill needs reference mode "
                    "(--real); simulated failures are logical (SimGrid 3.32 "
                    "aborts the whole simulation when a host is turned off)");
  if (r->options.relaunch > 0)
    return complain(FT_EXIT_USAGE,
                    "--set relaunch=%d: set by ftsim run itself when it "
                    "relaunches a killed job",
                    r->options.relaunch);
  if (r->options.trace[0] &&
      ft_paths_check_output(r->options.trace, err, sizeof err))
    return complain(FT_EXIT_USAGE, "--trace %s: %s", r->options.trace, err);
  if (!r->args.real) {
    if (ft_paths_platform(&r->dirs, r->args.platform, r->platform_file,
                          sizeof r->platform_file, err, sizeof err) ||
        ft_machine_check_props(r->platform_file, err, sizeof err))
      return complain(FT_EXIT_USAGE, "%s", err);
    ft_paths_short_name(r->args.platform, ".xml", r->platform_name,
                        sizeof r->platform_name);
  }
  return resolve_app(r);
}

/* storage=servers|shared|local writes images to the disks of the run's
 * hosts: each host the placement uses must declare one. */
static int check_disks(const struct run *r, const struct ft_strv *diskless) {
  if (!ft_storage_uses_disks(r->options.storage))
    return FT_EXIT_OK;
  for (size_t i = 0; i < r->placement.ranks; i++)
    for (size_t j = 0; j < diskless->count; j++)
      if (strcmp(r->placement.rank_host[i], diskless->items[j]) == 0)
        return complain(FT_EXIT_USAGE,
                        "platform %s: host '%s' (rank %zu) has no <disk>, "
                        "and storage=%s writes checkpoint images to the "
                        "disks of the run's hosts (set storage=network, or "
                        "give each host a <disk>: platforms/cluster_zone.sh)",
                        r->platform_file, diskless->items[j], i,
                        ft_storage_name(r->options.storage));
  return FT_EXIT_OK;
}

static int place(struct run *r) {
  char err[1024];
  struct ft_strv diskless = {0};
  if (ft_platform_hosts_load_disks(r->platform_file, &r->hosts, &diskless, err,
                                   sizeof err))
    return complain(FT_EXIT_USAGE, "%s", err);
  int rc = FT_EXIT_OK;
  struct ft_placement_ask ask = {.np = r->args.np,
                                 .service_ranks = r->options.service_ranks,
                                 .per_host = r->options.ranks_per_node,
                                 .services_on_compute =
                                     r->options.services_share_cores != 0};
  if (ft_placement_build_asked((const char *const *)r->hosts.items,
                               r->hosts.count, &ask, &r->placement, err,
                               sizeof err))
    rc = complain(FT_EXIT_USAGE, "platform %s: %s", r->platform_file, err);
  else
    rc = check_disks(r, &diskless);
  ft_strv_free(&diskless);
  return rc;
}

/* Opens --hostfile-out, or a new temporary file (its name in r->hostfile). */
static FILE *open_hostfile(struct run *r) {
  if (r->args.hostfile_out) {
    snprintf(r->hostfile, sizeof r->hostfile, "%s", r->args.hostfile_out);
    return fopen(r->hostfile, "w");
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(r->hostfile, sizeof r->hostfile, "%s/ftsim-hosts-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(r->hostfile);
  if (fd < 0)
    return NULL;
  r->hostfile_temp = true;
  return fdopen(fd, "w");
}

static int write_hostfile(struct run *r) {
  FILE *f = open_hostfile(r);
  if (!f)
    return complain(FT_EXIT_FAILED, "cannot create hostfile %s: %s",
                    r->hostfile, strerror(errno));
  int bad = ft_placement_write(&r->placement, f);
  if (fclose(f) != 0 || bad)
    return complain(FT_EXIT_FAILED, "cannot write hostfile %s: %s", r->hostfile,
                    strerror(errno));
  return FT_EXIT_OK;
}

static void build_command(struct run *r) {
  struct ft_command_spec spec = {
      .real = r->args.real,
      .smpirun = r->dirs.smpirun,
      .mpirun = r->dirs.mpirun,
      .platform_file = r->platform_file,
      .hostfile = r->hostfile,
      .measured = r->measured,
      .host_speed = r->host_speed,
      .cfgs = r->args.cfgs,
      .ncfgs = r->args.ncfgs,
      .ranks = (size_t)r->args.np + (size_t)r->options.service_ranks,
      .app_path = r->app_path,
      .app_args = r->args.app_args,
      .napp_args = r->args.napp_args,
      .as_root = geteuid() == 0,
      .env_name = FT_OPTIONS_ENV,
  };
  ft_command_build(&spec, &r->argv);
}

/* smpirun passes the app's arguments through an unquoted shell variable. */
static void warn_split_args(const struct run *r) {
  for (size_t i = 0; !r->args.real && i < r->args.napp_args; i++)
    if (strpbrk(r->args.app_args[i], " \t\n*?["))
      complain(0,
               "warning: smpirun splits and expands app arguments; '%s' "
               "will not arrive as one word",
               r->args.app_args[i]);
}

/* Everything before the launch; returns an exit status, 0 to go on. */
static int prepare(struct run *r) {
  int rc = resolve(r);
  if (rc)
    return rc;
  if (r->args.real && r->args.platform_given)
    complain(0, "warning: --platform is ignored with --real");
  if (r->args.real && (r->args.ncfgs || r->args.compute != FT_COMPUTE_AUTO ||
                       r->args.host_speed > 0))
    complain(0, "warning: --cfg, --compute and --host-speed are ignored with "
                "--real (the real computation takes real time)");
  if (!r->args.real && ((rc = place(r)) || (rc = write_hostfile(r))))
    return rc;
  warn_split_args(r);
  build_command(r);
  return FT_EXIT_OK;
}

static void print_dry_run(const struct run *r) {
  ft_command_print(stdout, FT_OPTIONS_ENV, r->options_text, &r->argv);
  if (r->args.real) {
    printf("# real mode: mpirun places the %d ranks itself (no platform, no "
           "hostfile)\n",
           r->args.np + r->options.service_ranks);
    return;
  }
  if (r->measured)
    printf("# computation: measured (%s), smpi/host-speed %.6g flop/s from "
           "%s\n",
           r->compute_why, r->host_speed, r->speed_source);
  else
    printf("# computation: modelled (%s)\n", r->compute_why);
  printf("# hostfile %s: %zu lines%s\n", r->hostfile, r->placement.ranks,
         r->hostfile_temp ? " (temporary, deleted when ftsim exits; keep it "
                            "with --hostfile-out FILE)"
                          : "");
  ft_placement_describe(&r->placement, stdout);
}

/* What the child printed that matters to the verdict. */
struct capture {
  char *summary; /* the first summary line */
  size_t summary_len;
  bool deadlock;
};

static void on_line(void *ctx, enum ft_stream stream, const char *line,
                    size_t len) {
  struct capture *c = ctx;
  if (strstr(line, "Deadlock detected"))
    c->deadlock = true;
  if (stream == FT_STREAM_STDOUT && !c->summary &&
      ft_summary_is_line(line, len)) {
    c->summary = strndup(line, len);
    c->summary_len = c->summary ? len : 0;
    return;
  }
  fwrite(line, 1, len, stderr);
  fputc('\n', stderr);
}

/* Prints the JSON line (if a usable summary came) and the verdict. */
static int report(const struct run *r, const struct capture *c,
                  const struct ft_launch_result *res) {
  char why[256] = "", msg[2048];
  struct ft_summary_extra extra = {
      .platform = r->args.real ? NULL : r->platform_name,
      .app = r->app_name,
      .mode = r->args.real ? "real" : "simulated",
      .compute = r->args.real  ? NULL
                 : r->measured ? "measured"
                               : "modelled",
      .wall_s = res->wall_s,
  };
  char *json = c->summary ? ft_summary_splice(c->summary, c->summary_len,
                                              &extra, why, sizeof why)
                          : NULL;
  struct ft_outcome o = {
      .launcher = r->args.real ? "mpirun" : "smpirun",
      .exited = res->exited,
      .status = res->status,
      .deadlock = c->deadlock,
      .summary = c->summary != NULL,
      .malformed = c->summary && !json ? why : NULL,
      .verified = json ? ft_summary_verified(json) : -1,
      .no_progress = json && ft_summary_no_progress(json),
  };
  int status = (int)ft_outcome_judge(&o, msg, sizeof msg);
  if (json)
    printf("%s\n", json);
  fflush(stdout);
  fputs(msg, stderr);
  free(json);
  return status;
}

/* Runs launch `launch` with `options`; 0, or -1 when it could not start. */
static int launch_once(struct run *r, const char *options, struct capture *c,
                       struct ft_launch_result *res) {
  char err[1024];
  if (setenv(FT_OPTIONS_ENV, options, 1) != 0)
    return complain(-1, "setenv: %s", strerror(errno));
  if (ft_launch_run(r->argv.items, on_line, c, res, err, sizeof err))
    return complain(-1, "%s", err);
  return 0;
}

/* Whether the launch that just ended is to be relaunched: failure=kill,
 * no summary, and its kill ended it (relaunch.h); runs the test hook. */
static bool relaunch_due(const struct run *r, const struct ft_relaunch *k,
                         int launch, const struct capture *c, int *wave) {
  char msg[2048];
  if (r->options.failure != FT_FAILURE_KILL || c->summary)
    return false;
  bool killed = ft_relaunch_killed(k, launch, wave, msg, sizeof msg);
  if (*msg)
    complain(0, "%s", msg);
  return killed;
}

/* stall_failures, as the dispatcher's (README, "Runs that cannot
 * progress"): N kills in a row with no wave committed between them (nor
 * before the first) stop the run instead of a relaunch. *stall and *last
 * carry the count and the wave of the kill before. */
static bool stalled(const struct run *r, int wave, int *last, int *stall) {
  *stall = wave > *last ? 0 : *stall + 1;
  *last = wave;
  return r->options.stall_failures > 0 && *stall >= r->options.stall_failures;
}

/* Launches the run; under failure=kill, relaunches it after each kill
 * (README, "Real failures: kill and relaunch"), the wall time summed. */
static int execute(struct run *r) {
  char options[2048];
  struct ft_relaunch k = {.options = r->options_text,
                          .ckpt_dir = r->options.ckpt_dir,
                          .scenario = r->options.scenario,
                          .trace = r->options.trace,
                          .ranks = r->args.np};
  double wall = 0;
  int wave = 0, last = 0, stall = 0;
  if (r->options.failure == FT_FAILURE_KILL &&
      ft_relaunch_forget(&k, options, sizeof options) != 0)
    return complain(FT_EXIT_FAILED, "%s", options);
  for (int launch = 0;; launch++) {
    struct capture c = {NULL, 0, false};
    struct ft_launch_result res;
    if (ft_relaunch_options(&k, launch, options, sizeof options) != 0)
      return complain(FT_EXIT_FAILED, "options too long for relaunch %d",
                      launch);
    if (launch_once(r, options, &c, &res) != 0)
      return FT_EXIT_FAILED;
    wall += res.wall_s;
    if (!relaunch_due(r, &k, launch, &c, &wave)) {
      res.wall_s = wall;
      int status = report(r, &c, &res);
      free(c.summary);
      return status;
    }
    free(c.summary);
    if (!stalled(r, wave, &last, &stall)) {
      complain(0, "relaunching from wave %d of %s", wave, k.ckpt_dir);
      if (ft_relaunch_test_hook(&k) != 0)
        complain(0, "FTSIM_TEST_AFTER_KILL failed");
      continue;
    }
    return complain(FT_EXIT_NO_PROGRESS,
                    "stall_failures=%d: %d kills in a row with no wave "
                    "committed between them (the last committed: %d); the "
                    "run cannot progress and is not relaunched (%.3f s of "
                    "wall time)",
                    r->options.stall_failures, stall, wave, wall);
  }
}

static void cleanup(struct run *r) {
  if (r->hostfile_temp)
    unlink(r->hostfile);
  if (r->counts_file[0])
    unlink(r->counts_file);
  if (r->cuts_file[0])
    unlink(r->cuts_file);
  if (r->events_file[0])
    unlink(r->events_file);
  ft_strv_free(&r->argv);
  ft_placement_free(&r->placement);
  ft_strv_free(&r->hosts);
  ft_run_args_free(&r->args);
}

int ft_run_main(int argc, char **argv) {
  struct run r;
  char err[1024];
  memset(&r, 0, sizeof r);
  ft_dirs_get(&r.dirs);
  int status = FT_EXIT_OK;
  if (ft_run_args_parse(argc, argv, &r.args, err, sizeof err))
    status = complain(FT_EXIT_USAGE, "%s (see ftsim run --help)", err);
  else if (r.args.help)
    ft_usage_run(stdout);
  else if (!(status = prepare(&r))) {
    if (r.args.dry_run)
      print_dry_run(&r);
    else
      status = execute(&r);
  }
  cleanup(&r);
  return status;
}
