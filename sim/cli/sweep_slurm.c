/* The Slurm job-array script of a sweep (see sweep_slurm.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sweep_slurm.h"

#include <ctype.h>
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

/* Reads up to 9 decimal digits at *p into *v; returns -1 when none. */
static int digits(const char **p, long *v) {
  const char *s = *p;
  *v = 0;
  while (isdigit((unsigned char)**p) && *p - s < 9)
    *v = *v * 10 + (**p - '0'), ++*p;
  return *p > s && !isdigit((unsigned char)**p) ? 0 : -1;
}

/* Reads 1 to `max` fields separated by ':' into f[], returns their count
 * or -1; fields after the first must be below 60. */
static int fields(const char *p, long f[3], int max) {
  int n = 0;
  for (;;) {
    if (n == max || digits(&p, &f[n]) || (n > 0 && f[n] >= 60))
      return -1;
    n++;
    if (!*p)
      return n;
    if (*p++ != ':')
      return -1;
  }
}

int ft_slurm_parse_time(const char *text, long *minutes) {
  long f[3] = {0, 0, 0}, days = 0, secs;
  const char *dash = strchr(text, '-');
  int n;
  if (dash) {
    const char *p = text;
    if (digits(&p, &days) || p != dash || (n = fields(dash + 1, f, 3)) < 0 ||
        f[0] >= 24)
      return -1;
    secs = ((days * 24 + f[0]) * 60 + f[1]) * 60 + f[2];
  } else {
    if ((n = fields(text, f, 3)) < 0)
      return -1;
    secs = n == 1   ? f[0] * 60
           : n == 2 ? f[0] * 60 + f[1]
                    : (f[0] * 60 + f[1]) * 60 + f[2];
  }
  if (secs <= 0)
    return -1;
  *minutes = (secs + 59) / 60;
  return 0;
}

int ft_slurm_parse_mem(const char *text) {
  const char *p = text;
  long v;
  if (digits(&p, &v))
    return -1;
  if (*p && (!strchr("KMGT", *p) || p[1]))
    return -1;
  return v > 0 ? 0 : -1;
}

long ft_slurm_default_minutes(double timeout, int per_task) {
  if (timeout <= 0)
    return 0;
  double m = (timeout + 5.0) * per_task / 60.0;
  long whole = (long)m;
  return (whole < m ? whole + 1 : whole) + 1;
}

char *ft_slurm_array_spec(const bool *todo, size_t ntasks) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  const char *sep = "";
  for (size_t t = 0; t < ntasks; t++) {
    if (!todo[t])
      continue;
    size_t last = t;
    while (last + 1 < ntasks && todo[last + 1])
      last++;
    if (last == t)
      fprintf(m, "%s%zu", sep, t);
    else
      fprintf(m, "%s%zu-%zu", sep, t, last);
    sep = ",";
    t = last;
  }
  fclose(m);
  return text;
}

static void write_header(FILE *f, const char *array, const char *workdir,
                         const struct ft_slurm_opts *o) {
  fputs(
      "#!/bin/sh\n"
      "# Written by `ftsim sweep --emit-slurm`: array task T runs points\n"
      "# T*K to T*K+K-1 of the sweep (K points per task); each appends its\n"
      "# rows to the CSV under a lock, so the tasks merge into one file, and\n"
      "# a point that already has a row is skipped. Only the tasks with a\n"
      "# missing point are in the array: after a cancelled or failed task,\n"
      "# emit the script again and submit it to run the rest. Submit with\n"
      "# `sbatch SCRIPT`; throttle with e.g. --array=0-N%16.\n",
      f);
  fprintf(f, "#SBATCH --job-name=ftsim-sweep\n#SBATCH --array=%s\n", array);
  fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
  long minutes = 0;
  if (o->time)
    fprintf(f, "#SBATCH --time=%s\n", o->time);
  else if ((minutes = ft_slurm_default_minutes(o->timeout, o->per_task)) > 0)
    fprintf(f, "#SBATCH --time=%ld\n", minutes);
  fprintf(f, "#SBATCH --mem=%s\n", o->mem ? o->mem : FT_SLURM_DEFAULT_MEM);
  fputs("#SBATCH --output=", f);
  ft_command_quote(f, workdir);
  fputs("/slurm-%A_%a.out\n", f);
}

static void write_script(FILE *f, const char *self, const char *sweep,
                         const char *csv, const char *workdir, size_t n,
                         const char *array, const struct ft_slurm_opts *o) {
  write_header(f, array, workdir, o);
  fprintf(f,
          "set -eu\n"
          "first=$((SLURM_ARRAY_TASK_ID * %d))\n"
          "last=$((first + %d))\n"
          "[ \"$last\" -lt %zu ] || last=%zu\n"
          "exec ",
          o->per_task, o->per_task - 1, n, n ? n - 1 : 0);
  ft_command_quote(f, self);
  fputs(" sweep --point \"$first-$last\" -j 1 -o ", f);
  ft_command_quote(f, csv);
  fputc(' ', f);
  ft_command_quote(f, sweep);
  fputc('\n', f);
}

/* Counts the tasks to run and warns when an index passes Slurm's default
 * MaxArraySize. */
static size_t count_todo(const bool *todo, size_t ntasks) {
  size_t count = 0, last = 0;
  for (size_t t = 0; t < ntasks; t++)
    if (todo[t])
      count++, last = t;
  if (count && last >= FT_SLURM_MAX_ARRAY_SIZE)
    fprintf(stderr,
            "ftsim: warning: array index %zu is past Slurm's default "
            "MaxArraySize (%d): raise --points-per-task or the cluster's "
            "MaxArraySize\n",
            last, FT_SLURM_MAX_ARRAY_SIZE);
  return count;
}

static int cannot_write(const char *script) {
  fprintf(stderr, "ftsim: cannot write %s: %s\n", script, strerror(errno));
  return FT_EXIT_FAILED;
}

int ft_sweep_emit_slurm(const char *script, const char *sweep_file,
                        const char *csv, const char *workdir,
                        const struct ft_slurm_tasks *tasks,
                        const struct ft_slurm_opts *o) {
  size_t npoints = tasks->npoints;
  const bool *todo = tasks->todo;
  char self[PATH_MAX], sweep[PATH_MAX + 256], out[PATH_MAX + 256],
      work[PATH_MAX + 256];
  size_t ntasks = (npoints + (size_t)o->per_task - 1) / (size_t)o->per_task;
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || absolute(sweep_file, sweep, sizeof sweep) ||
      absolute(csv, out, sizeof out) || absolute(workdir, work, sizeof work))
    return FT_EXIT_USAGE;
  self[n] = '\0';
  size_t count = count_todo(todo, ntasks);
  if (count == 0) {
    fprintf(stderr,
            "ftsim: all %zu points have a row in %s: nothing to submit, %s "
            "not written\n",
            npoints, out, script);
    return FT_EXIT_OK;
  }
  /* Slurm opens --output before the script runs: the directory must be. */
  if (mkdir(work, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "ftsim: cannot create %s: %s\n", work, strerror(errno));
    return FT_EXIT_FAILED;
  }
  FILE *f = fopen(script, "w");
  if (!f)
    return cannot_write(script);
  char *array = ft_slurm_array_spec(todo, ntasks);
  write_script(f, self, sweep, out, work, npoints, array, o);
  free(array);
  if (fclose(f) != 0 || chmod(script, 0755) != 0)
    return cannot_write(script);
  fprintf(stderr,
          "ftsim: wrote %s: %zu array tasks of %d point%s (%zu of %zu "
          "points without a row); submit with sbatch %s\n",
          script, count, o->per_task, o->per_task == 1 ? "" : "s",
          tasks->missing, npoints, script);
  return FT_EXIT_OK;
}
