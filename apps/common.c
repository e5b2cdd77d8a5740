/* What the workloads share (see common.h). */
#include "common.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ft.h"

static int world_rank(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/* Aborts the run with `status`; rank 0 is the one that aborts, the other
 * ranks wait for it so that rank 0's message is printed first. */
static _Noreturn void abort_run(int status) {
  if (world_rank() != 0)
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 never arrives: it aborts */
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  exit(status); /* not reached: MPI_Abort does not return */
}

int app_start(const struct app_spec *spec, int argc, char **argv) {
  char err[256];
  enum app_parse_result r =
      app_options_parse(spec->opts, spec->nopts, argc, argv, err, sizeof err);
  if (r == APP_PARSE_RUN)
    return 1;
  if (r == APP_PARSE_HELP) {
    if (world_rank() == 0)
      app_options_usage(stdout, spec->name, spec->summary, spec->opts,
                        spec->nopts);
    return 0;
  }
  if (world_rank() == 0)
    fprintf(stderr, "%s: %s\n%s: try '%s --help'\n", spec->name, err,
            spec->name, spec->name);
  abort_run(APP_EXIT_USAGE);
}

_Noreturn void app_usage_error(const char *app, const char *fmt, ...) {
  if (world_rank() == 0) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", app);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
  }
  abort_run(APP_EXIT_USAGE);
}

void *app_calloc(const char *app, size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "%s: out of memory (%zu x %zu bytes)\n", app, count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
  }
  return p;
}

uint64_t app_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

double app_unit(uint64_t key) {
  return (double)(app_mix64(key) >> 11) * 0x1.0p-53;
}

void app_block(long n, int parts, int index, long *start, long *count) {
  long base = n / parts, extra = n % parts;
  *count = base + (index < extra ? 1 : 0);
  *start = (long)index * base + (index < extra ? index : extra);
}

int app_block_owner(long n, int parts, long item) {
  long base = n / parts, extra = n % parts;
  long big = extra * (base + 1); /* items held by the larger parts */
  if (item < big)
    return (int)(item / (base + 1));
  return (int)(extra + (item - big) / base);
}

int app_verdict(int local_ok, double value) {
  int ok = local_ok != 0, all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  ft_report_result(all, value);
  return all;
}

const char *app_verdict_word(int ok) { return ok ? "verified" : "FAILED"; }

const struct app_nas_class *
app_find_nas_class(const struct app_nas_class *table, size_t count,
                   const char *name) {
  for (size_t i = 0; i < count; i++)
    if (name[0] == table[i].name && name[1] == '\0')
      return &table[i];
  return NULL;
}
