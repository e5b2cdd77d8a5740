/* The runtime's base services (layer 1): fatal errors, checked PMPI calls,
 * growing arrays. They hold no state and call nothing of the runtime. */
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"

void *ft_reserve(void *array, size_t need, size_t *cap, size_t size,
                 const char *what) {
  if (need <= *cap)
    return array;
  size_t n = *cap ? *cap : 16;
  while (n < need)
    n *= 2;
  void *p = realloc(array, n * size);
  if (!p)
    ft_fatal("out of memory for %s", what);
  *cap = n;
  return p;
}

_Noreturn void ft_fatal(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "ftsim: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  ft_backend_abort(2);
}

/* This process's rank in MPI_COMM_WORLD, or -1 outside MPI_Init..Finalize
 * (the error being reported may come from either). */
static int world_rank(void) {
  int up = 0, down = 1, rank = -1;
  if (PMPI_Initialized(&up) != MPI_SUCCESS || !up)
    return -1;
  if (PMPI_Finalized(&down) != MPI_SUCCESS || down)
    return -1;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
    return -1;
  return rank;
}

void ft_pmpi_check(int rc, const char *call) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING + 1] = "";
  int len = 0, cls = rc;
  if (PMPI_Error_class(rc, &cls) != MPI_SUCCESS)
    cls = rc;
  if (PMPI_Error_string(rc, text, &len) != MPI_SUCCESS)
    text[0] = 0;
  ft_fatal("rank %d: %s returned error %d (class %d%s%s)", world_rank(), call,
           rc, cls, text[0] ? ": " : "", text);
}

static int empty_query(void *extra, MPI_Status *status) {
  (void)extra;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  return MPI_SUCCESS;
}

static int no_free(void *extra) {
  (void)extra;
  return MPI_SUCCESS;
}

static int no_cancel(void *extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

void ft_grequest(MPI_Request *req) {
  FT_PMPI(Grequest_start, empty_query, no_free, no_cancel, NULL, req);
}

MPI_Request *ft_handles_copy(int n, const MPI_Request reqs[],
                             MPI_Request small[16]) {
  MPI_Request *copy = n <= 16 ? small : malloc((size_t)n * sizeof *copy);
  if (!copy)
    ft_fatal("out of memory in a completion call on %d requests", n);
  for (int i = 0; i < n; i++)
    copy[i] = reqs[i];
  return copy;
}

void ft_handles_free(MPI_Request *copy, MPI_Request small[16]) {
  if (copy != small)
    free(copy);
}

MPI_Status *ft_statuses_for(int n, MPI_Status statuses[],
                            MPI_Status small[16]) {
  if (statuses != MPI_STATUSES_IGNORE)
    return statuses;
  MPI_Status *st = n <= 16 ? small : malloc((size_t)n * sizeof *st);
  if (!st)
    ft_fatal("out of memory in a completion call on %d requests", n);
  return st;
}

void ft_statuses_free(MPI_Status *st, MPI_Status statuses[],
                      MPI_Status small[16]) {
  if (st != statuses && st != small)
    free(st);
}
