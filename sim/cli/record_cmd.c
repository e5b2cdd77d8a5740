/* `ftsim record` (see record_cmd.h). */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */
#include "record_cmd.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftsim_cli_config.h"
#include "host_speed.h"
#include "outcome.h"
#include "paths.h"
#include "rtrace.h"
#include "rtrace_rank.h"
#include "run.h"
#include "run_args.h"
#include "strv.h"

#define PATH_LEN 4096

struct record {
  const char *output; /* -o TRACE */
  bool force, help;
  char **rest; /* the words for `ftsim run`, before the added --set */
  int nrest;
  struct ft_run_args args; /* rest, parsed: np, app, platform, --real */
  char ranks_dir[PATH_LEN];
};

static int complain(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "ftsim record: ..." on stderr and returns `status`. */
static int complain(int status, const char *fmt, ...) {
  va_list ap;
  fputs("ftsim record: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return status;
}

void ft_record_usage(FILE *out) {
  fprintf(out,
          "Usage: ftsim record [run options] -o TRACE [--force] "
          "[-- app arguments...]\n"
          "\n"
          "Runs a program as ftsim run does (simulated, or --real with "
          "mpirun),\n"
          "under protocol none, records every MPI call of the application "
          "(not\n"
          "the runtime's own traffic: a collective is one record), and "
          "writes\n"
          "the run as the OTF2 archive TRACE (a directory; anchor "
          "TRACE/traces.otf2).\n"
          "Read it with ftsim trace-info TRACE or otf2-print "
          "TRACE/traces.otf2;\n"
          "the records and attributes are in docs/trace-format.md.\n"
          "\n"
          "  -o, --output TRACE  the archive to write (its directory must "
          "exist)\n"
          "  --force             replace an existing archive TRACE\n"
          "  run options         those of ftsim run (ftsim run --help), but "
          "not\n"
          "                      --protocol other than none, nor --scenario\n"
          "\n"
          "Prints the run's JSON line, then \"recorded TRACE: R ranks, E "
          "events,\n"
          "B bytes\". Exit status: the run's (0 ok, 1 failed, 3 "
          "unverified),\n"
          "2 for bad arguments (nothing launched), 1 when a rank's record is\n"
          "missing or malformed (the message names the rank).\n");
}

/* Takes -o/--output, --force and --help out of the words before "--". */
static int split_args(struct record *rc, int argc, char **argv) {
  rc->rest = ft_xrealloc(NULL, (size_t)(argc + 8) * sizeof *rc->rest);
  bool app_words = false;
  for (int i = 0; i < argc; i++) {
    const char *w = argv[i];
    app_words = app_words || strcmp(w, "--") == 0;
    if (!app_words && (!strcmp(w, "-o") || !strcmp(w, "--output"))) {
      if (i + 1 >= argc)
        return complain(FT_EXIT_USAGE, "%s: missing value", w);
      rc->output = argv[++i];
    } else if (!app_words && !strncmp(w, "--output=", 9))
      rc->output = w + 9;
    else if (!app_words && !strcmp(w, "--force"))
      rc->force = true;
    else if (!app_words && (!strcmp(w, "--help") || !strcmp(w, "-h")))
      rc->help = true;
    else
      rc->rest[rc->nrest++] = argv[i];
  }
  return FT_EXIT_OK;
}

/* What a recording refuses before launch: a protocol, a scenario, a
 * record= of the user's. */
static int refuse(const struct record *rc) {
  const struct ft_run_args *a = &rc->args;
  if (strcmp(a->protocol, "none") != 0)
    return complain(FT_EXIT_USAGE,
                    "--protocol %s: a recording runs under protocol none "
                    "(the trace is the program's; replay it under any "
                    "protocol)",
                    a->protocol);
  if (a->scenario)
    return complain(FT_EXIT_USAGE,
                    "--scenario %s: a recording runs without failures "
                    "(replay the trace with a scenario)",
                    a->scenario);
  for (size_t i = 0; i < a->nsets; i++)
    if (!strncmp(a->sets[i], "record=", 7) ||
        !strncmp(a->sets[i], "record_speed=", 13))
      return complain(FT_EXIT_USAGE, "--set %s: ftsim record sets it itself",
                      a->sets[i]);
  return FT_EXIT_OK;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static int remove_tree(const char *path) {
  return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* TRACE must not exist; with --force an existing archive (a directory
 * holding traces.otf2) is removed. Its directory must exist. */
static int check_output(const struct record *rc) {
  struct stat st;
  char anchor[PATH_LEN + 16], err[1024];
  if (ft_paths_check_output(rc->output, err, sizeof err))
    return complain(FT_EXIT_USAGE, "-o %s: %s", rc->output, err);
  if (lstat(rc->output, &st) != 0)
    return FT_EXIT_OK;
  if (!rc->force)
    return complain(FT_EXIT_USAGE,
                    "-o %s: exists (--force replaces an archive)", rc->output);
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", rc->output);
  if (!S_ISDIR(st.st_mode) || access(anchor, F_OK) != 0)
    return complain(FT_EXIT_USAGE,
                    "-o %s: exists and is not an OTF2 archive (no "
                    "traces.otf2): not replaced",
                    rc->output);
  if (remove_tree(rc->output) != 0)
    return complain(FT_EXIT_FAILED, "-o %s: cannot remove it: %s", rc->output,
                    strerror(errno));
  return FT_EXIT_OK;
}

/* The directory the ranks write to: TRACE.ranks-XXXXXX beside TRACE (on
 * the same file system, shared by a cluster's nodes when TRACE is),
 * absolute. */
static int make_ranks_dir(struct record *rc) {
  char cwd[PATH_LEN];
  if (rc->output[0] != '/' && !getcwd(cwd, sizeof cwd))
    return complain(FT_EXIT_FAILED, "getcwd: %s", strerror(errno));
  int n = snprintf(rc->ranks_dir, sizeof rc->ranks_dir, "%s%s%s.ranks-XXXXXX",
                   rc->output[0] == '/' ? "" : cwd,
                   rc->output[0] == '/' ? "" : "/", rc->output);
  if (n < 0 || (size_t)n >= sizeof rc->ranks_dir - 1 ||
      strchr(rc->ranks_dir, ','))
    return complain(FT_EXIT_USAGE,
                    "-o %s: path too long or holding a comma (FTSIM_OPTIONS "
                    "carries it)",
                    rc->output);
  if (!mkdtemp(rc->ranks_dir))
    return complain(FT_EXIT_FAILED, "cannot create %s: %s", rc->ranks_dir,
                    strerror(errno));
  return FT_EXIT_OK;
}

/* `ftsim run` with rest plus --set record=DIR (and, with --real, the
 * machine's speed: the backend cannot tell it). */
static int run(struct record *rc) {
  char set_record[PATH_LEN + 16], set_speed[64], source[PATH_LEN], err[1024];
  int n = 0, argc = 0;
  char **argv = ft_xrealloc(NULL, (size_t)(rc->nrest + 5) * sizeof *argv);
  while (n < rc->nrest && strcmp(rc->rest[n], "--") != 0)
    argv[argc++] = rc->rest[n++];
  snprintf(set_record, sizeof set_record, "record=%s", rc->ranks_dir);
  argv[argc++] = "--set";
  argv[argc++] = set_record;
  double speed = 0;
  if (rc->args.real &&
      ft_host_speed_resolve(rc->args.host_speed, &speed, source, sizeof source,
                            err, sizeof err) == 0) {
    snprintf(set_speed, sizeof set_speed, "record_speed=%.17g", speed);
    argv[argc++] = "--set";
    argv[argc++] = set_speed;
  }
  while (n < rc->nrest)
    argv[argc++] = rc->rest[n++];
  int status = ft_run_main(argc, argv);
  free(argv);
  return status;
}

/* Reads every rank's file into one run. */
static struct ft_rtrace *merge(const struct record *rc) {
  uint32_t np = (uint32_t)rc->args.np;
  struct ft_rtrace *t = ft_rtrace_new(np);
  int32_t *names = calloc(2, sizeof *names);
  char path[PATH_LEN + 32], err[PATH_LEN + 256];
  if (!t || !names) {
    complain(FT_EXIT_FAILED, "out of memory merging %u ranks", np);
    goto fail;
  }
  names[1] = 1;
  for (uint32_t r = 0; r < np; r++) {
    struct ft_rtrace_rank_file f;
    snprintf(path, sizeof path, "%s/rank.%u", rc->ranks_dir, r);
    if (ft_rtrace_read_rank(path, &f, err, sizeof err)) {
      complain(FT_EXIT_FAILED, "rank %u: %s", r, err);
      goto fail;
    }
    int bad = f.world_rank != r ||
              ft_rtrace_merge_rank(t, &names, &f, err, sizeof err);
    ft_rtrace_rank_file_free(&f);
    if (bad) {
      complain(FT_EXIT_FAILED, "rank %u (%s): %s", r, path,
               err[0] ? err : "the file names another rank");
      goto fail;
    }
  }
  free(names);
  return t;
fail:
  free(names);
  ft_rtrace_free(t);
  return NULL;
}

static int set_metadata(const struct record *rc, struct ft_rtrace *t) {
  char app[256], platform[256];
  ft_paths_short_name(rc->args.app, NULL, app, sizeof app);
  if (rc->args.real)
    snprintf(platform, sizeof platform, "real");
  else
    ft_paths_short_name(rc->args.platform, ".xml", platform, sizeof platform);
  return ft_rtrace_set_string(&t->program, app) ||
         ft_rtrace_set_string(&t->platform, platform) ||
         ft_rtrace_set_string(&t->version, FTSIM_CLI_VERSION);
}

static uint64_t tree_bytes;
static int add_size(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw) {
  (void)path, (void)ftw;
  if (flag == FTW_F)
    tree_bytes += (uint64_t)st->st_size;
  return 0;
}

/* The archive from the rank files, and the line saying what it holds. */
static int write_archive(const struct record *rc) {
  char err[PATH_LEN + 256];
  struct ft_rtrace *t = merge(rc);
  if (!t)
    return FT_EXIT_FAILED;
  if (set_metadata(rc, t) ||
      ft_rtrace_write_otf2(t, rc->output, err, sizeof err)) {
    ft_rtrace_free(t);
    return complain(FT_EXIT_FAILED, "-o %s: %s", rc->output,
                    err[0] ? err : "out of memory");
  }
  uint64_t events = 0;
  for (uint32_t r = 0; r < t->nranks; r++)
    events += t->ranks[r].n;
  tree_bytes = 0;
  nftw(rc->output, add_size, 16, FTW_PHYS);
  printf("recorded %s: %u ranks, %" PRIu64 " events, %" PRIu64 " bytes\n",
         rc->output, (unsigned)t->nranks, events, tree_bytes);
  fflush(stdout);
  ft_rtrace_free(t);
  return FT_EXIT_OK;
}

static int prepare(struct record *rc, int argc, char **argv) {
  char err[1024];
  int status = split_args(rc, argc, argv);
  if (status || rc->help)
    return status;
  if (ft_run_args_parse(rc->nrest, rc->rest, &rc->args, err, sizeof err))
    return complain(FT_EXIT_USAGE, "%s (see ftsim record --help)", err);
  if (!rc->output)
    return complain(FT_EXIT_USAGE,
                    "-o TRACE is required: the archive to write (see ftsim "
                    "record --help)");
  if ((status = refuse(rc)) || (status = check_output(rc)))
    return status;
  return make_ranks_dir(rc);
}

int ft_record_main(int argc, char **argv) {
  struct record rc;
  memset(&rc, 0, sizeof rc);
  int status = prepare(&rc, argc, argv);
  if (!status && rc.help)
    ft_record_usage(stdout);
  else if (!status) {
    status = run(&rc);
    if ((status == FT_EXIT_OK || status == FT_EXIT_UNVERIFIED) &&
        !rc.args.dry_run) {
      int written = write_archive(&rc);
      status = written ? written : status;
    }
  }
  if (rc.ranks_dir[0])
    remove_tree(rc.ranks_dir);
  ft_run_args_free(&rc.args);
  free(rc.rest);
  return status;
}
