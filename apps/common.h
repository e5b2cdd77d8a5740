/* common: what every ftsim workload shares besides its options table —
 * starting up (options, usage errors), deterministic pseudo-random numbers,
 * block decompositions, checked allocation and the final verdict.
 *
 * Every workload uses MPI_COMM_WORLD as its world (ftsim's runtime maps it
 * to the application's ranks) and reports its own verification through
 * ft_report_result. No function here keeps mutable global state. */
#ifndef APP_COMMON_H
#define APP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "app_options.h"

/* Exit status of a run stopped by a bad option or an unusable rank count. */
#define APP_EXIT_USAGE 2

struct app_spec {
  const char *name;    /* program name, prefix of every message: "cg" */
  const char *summary; /* one line: what the workload models */
  const struct app_opt *opts;
  size_t nopts;
};

/* Parses the workload's options on every rank (all ranks see the same argv).
 * Returns 1 when the workload should run. With --help, rank 0 prints the
 * usage on stdout and 0 is returned: the caller then calls MPI_Finalize and
 * returns 0 from main. On a bad option, rank 0 prints "NAME: <error>" and a
 * hint on stderr and the whole run aborts with exit status APP_EXIT_USAGE
 * (this function does not return).
 * Precondition: MPI is initialized. */
int app_start(const struct app_spec *spec, int argc, char **argv);

/* Stops the whole run because its configuration is unusable (for example a
 * rank count that is not a perfect square): rank 0 prints "APP: <message>"
 * on stderr, every rank aborts with exit status APP_EXIT_USAGE. Call it on
 * every rank (the other ranks wait for rank 0's abort).
 * Precondition: MPI is initialized. */
_Noreturn void app_usage_error(const char *app, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* calloc that never returns NULL: on failure, prints "APP: out of memory"
 * and aborts the run with status 1. Zero-sized requests return a valid
 * pointer. Free with free(). */
void *app_calloc(const char *app, size_t count, size_t size);

/* A 64-bit mix of `x` (splitmix64's finalizer): deterministic, platform
 * independent, well spread. */
uint64_t app_mix64(uint64_t x);

/* A number in [0, 1) drawn deterministically from `key`. */
double app_unit(uint64_t key);

/* Block decomposition of `n` items over `parts` parts: part `index` gets
 * items [*start, *start + *count). The first n % parts parts get one item
 * more. Precondition: parts > 0, 0 <= index < parts, n >= 0. */
void app_block(long n, int parts, int index, long *start, long *count);

/* The part of app_block(n, parts, .) that owns item `item`.
 * Precondition: 0 <= item < n. */
int app_block_owner(long n, int parts, long item);

/* Ends a workload's verification: combines every rank's `local_ok` (the
 * run is verified only if all are non-zero), reports the verdict and
 * `value` to ftsim on every rank (ft_report_result), and returns the global
 * verdict. Collective over MPI_COMM_WORLD. */
int app_verdict(int local_ok, double value);

/* "verified" or "FAILED": the last word of each workload's result line. */
const char *app_verdict_word(int ok);

/* A NAS benchmark class: its letter, grid size and default iteration count. */
struct app_nas_class {
  char name;
  int n, iters;
};

/* Returns the class of `table` (count entries) whose letter is the whole of
 * `name` ("A", not "a" or "AB"), or NULL when there is none. */
const struct app_nas_class *
app_find_nas_class(const struct app_nas_class *table, size_t count,
                   const char *name);

#endif /* APP_COMMON_H */
