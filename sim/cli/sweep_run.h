/* The parts of `ftsim sweep` that touch processes and files: the results
 * CSV opened for appending (locked, one fsync per row), and the pool of
 * child `ftsim run`s with progress, time-outs and interruption. */
#ifndef FT_CLI_SWEEP_RUN_H
#define FT_CLI_SWEEP_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "provenance.h"
#include "sweep_file.h"
#include "sweep_points.h"

/* A results CSV open for appending. */
struct ft_sweep_csv {
  const char *path;
  int fd;
  char **done_keys; /* keys of the points that have a row, sorted */
  size_t ndone;
};

/* Opens the CSV at `path`, creating it with the provenance `prov` (may be
 * NULL: none) as comment lines and the header row, or reading the rows
 * already there (a half-written last line is cut off, with a warning on
 * stderr; a provenance naming another commit than `prov`'s gets a
 * warning: the rows come from two builds) and remembering their keys.
 * Returns 0, or -1 with `err` set ("results.csv:1: field 'header': ..."). */
int ft_sweep_csv_open(struct ft_sweep_csv *csv, const char *path,
                      const struct ft_provenance *prov, char *err,
                      size_t errlen);

/* True when the point already has a row. */
bool ft_sweep_csv_done(const struct ft_sweep_csv *csv,
                       const struct ft_point *p);

/* Appends one row (locked against other writers, written in one write(),
 * then fsync). Returns 0, or -1 with `err` set. */
int ft_sweep_csv_append(struct ft_sweep_csv *csv, char *const cells[],
                        char *err, size_t errlen);

void ft_sweep_csv_close(struct ft_sweep_csv *csv);

/* What the pool runs. */
struct ft_sweep_job {
  const struct ft_sweep *sweep;
  const struct ft_point *const *todo; /* points without a row */
  size_t ntodo;
  size_t total;        /* points of the sweep (for progress) */
  size_t already;      /* points that had a row before */
  int jobs;            /* children at a time, >= 1 */
  double timeout;      /* wall seconds per point; 0: none */
  const char *workdir; /* scenario files and logs */
  struct ft_sweep_csv *csv;
};

/* Runs every point of `job`, `jobs` at a time, appending a row as each
 * finishes. Returns 0 when all ran, 128 + signal when interrupted (the
 * children are killed first), 1 when a row could not be written. */
int ft_sweep_run(const struct ft_sweep_job *job);

#endif /* FT_CLI_SWEEP_RUN_H */
