/* The per-rank root of the runtime's state (layer 0, docs/layers.md): the
 * one mutable static of sim/runtime, reached only by the MPI wrappers and the
 * application-facing entry points, which pass it down. */
#include <stdlib.h>

#include "runtime.h"

#ifdef FTSIM_SMPI
#include <simgrid/actor.h>

/* Under SMPI the runtime is one shared library that every rank's copy of
 * the program uses (cmake/ftsim.cmake, ftsim_mpi_program): its code is
 * loaded once, so that it stays warm in the caches from one rank to the
 * next (issue 18: with a copy of the runtime per rank, SMPI's dlopen
 * privatization, cg at 64 ranks cost 1.43 times plain SMPI's CPU time,
 * 1.08 with one copy; bench/shared_runtime.sh). Each rank's state is then
 * found by its SimGrid actor's pid. Users' programs link the same library
 * (the compiler wrappers, ftsim.pc, ftsim::smpi). A program linked with the
 * runtime inside (the whole archive: ftsimcc -static-runtime, ftsim-static.pc,
 * tests/runtime) has a table of its own per rank, of which it uses its
 * rank's entry. */
static struct {
  struct ft_runtime **by_pid;
  size_t cap;
} roots;

/* The state of the actor `pid`, made (zeroed) at its first call. */
static struct ft_runtime *root_of(size_t pid) {
  if (pid >= roots.cap) {
    size_t cap = roots.cap ? roots.cap : 64;
    while (cap <= pid)
      cap *= 2;
    struct ft_runtime **t = realloc(roots.by_pid, cap * sizeof *t);
    if (!t)
      abort();
    for (size_t i = roots.cap; i < cap; i++)
      t[i] = NULL;
    roots.by_pid = t;
    roots.cap = cap;
  }
  if (!roots.by_pid[pid] &&
      !(roots.by_pid[pid] = calloc(1, sizeof(struct ft_runtime))))
    abort();
  return roots.by_pid[pid];
}

struct ft_runtime *ft_runtime(void) {
  long pid = (long)sg_actor_self_get_pid();
  return root_of(pid > 0 ? (size_t)pid : 0);
}
#else
/* Per process: each rank of a real MPI is one. */
static struct ft_runtime state;

struct ft_runtime *ft_runtime(void) {
  return &state;
}
#endif
