/* The Slurm job-array script of a sweep (see sweep_slurm.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep_slurm.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "outcome.h"

/* Makes `path` absolute (it need not exist: its directory must). */
static int absolute(const char *path, char *out, size_t len) {
  char dir[PATH_MAX], real[PATH_MAX];
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
           slash ? (slash == path ? "/" : path) : ".");
  if (!realpath(dir, real)) {
    fprintf(stderr, "ftsim: %s: %s\n", dir, strerror(errno));
    return -1;
  }
  snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", base);
  return 0;
}

static void write_script(FILE *f, const char *self, const char *sweep,
                         const char *csv, const char *workdir, size_t n) {
  fputs("#!/bin/sh\n"
        "# Written by `ftsim sweep --emit-slurm`: one array task per point\n"
        "# of the sweep; each appends its row to the CSV under a lock, so the\n"
        "# tasks merge into one file, and a point that already has a row is\n"
        "# skipped (resubmitting the script resumes the sweep). Submit with\n"
        "# `sbatch SCRIPT`; throttle with e.g. --array=0-N%16.\n",
        f);
  fprintf(f, "#SBATCH --job-name=ftsim-sweep\n#SBATCH --array=0-%zu\n",
          n ? n - 1 : 0);
  fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
  fputs("#SBATCH --output=", f);
  ft_command_quote(f, workdir);
  fputs("/slurm-%A_%a.out\nset -eu\nexec ", f);
  ft_command_quote(f, self);
  fputs(" sweep --point \"$SLURM_ARRAY_TASK_ID\" -j 1 -o ", f);
  ft_command_quote(f, csv);
  fputc(' ', f);
  ft_command_quote(f, sweep);
  fputc('\n', f);
}

int ft_sweep_emit_slurm(const char *script, const char *sweep_file,
                        const char *csv, const char *workdir, size_t npoints) {
  char self[PATH_MAX], sweep[PATH_MAX + 256], out[PATH_MAX + 256],
      work[PATH_MAX + 256];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || absolute(sweep_file, sweep, sizeof sweep) ||
      absolute(csv, out, sizeof out) || absolute(workdir, work, sizeof work))
    return FT_EXIT_USAGE;
  self[n] = '\0';
  /* Slurm opens --output before the script runs: the directory must be. */
  if (mkdir(work, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "ftsim: cannot create %s: %s\n", work, strerror(errno));
    return FT_EXIT_FAILED;
  }
  FILE *f = fopen(script, "w");
  if (!f) {
    fprintf(stderr, "ftsim: cannot write %s: %s\n", script, strerror(errno));
    return FT_EXIT_FAILED;
  }
  write_script(f, self, sweep, out, work, npoints);
  if (fclose(f) != 0 || chmod(script, 0755) != 0) {
    fprintf(stderr, "ftsim: cannot write %s: %s\n", script, strerror(errno));
    return FT_EXIT_FAILED;
  }
  fprintf(stderr, "ftsim: wrote %s: %zu array tasks; submit with sbatch %s\n",
          script, npoints, script);
  return FT_EXIT_OK;
}
