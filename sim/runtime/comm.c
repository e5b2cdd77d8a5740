/* The communicator table: what each application communicator maps to.
 *
 * The application's MPI_COMM_WORLD maps to the substitute world of its own
 * ranks. Every communicator also gets a "coll" shadow, a duplicate on which
 * the runtime carries collectives over point-to-point, so that their
 * messages never match the application's. Communicators the runtime did not
 * create (MPI_COMM_SELF, or made by calls it does not intercept) are
 * registered on first use as themselves. */
#include <string.h>

#include "runtime.h"

enum { FT_MAX_COMMS = 512 };

/* Per rank (SMPI privatizes this module's globals). */
static struct ft_comm table[FT_MAX_COMMS];
static int used;

struct ft_comm *ft_comm_lookup(MPI_Comm user) {
  for (int i = used - 1; i >= 0; i--)
    if (table[i].user == user)
      return &table[i];
  return NULL;
}

struct ft_comm *ft_comm_register(MPI_Comm user, MPI_Comm inner) {
  if (used == FT_MAX_COMMS)
    ft_fatal("more than %d communicators alive", FT_MAX_COMMS);
  struct ft_comm *c = &table[used++];
  c->user = user;
  c->p2p = inner;
  PMPI_Comm_dup(inner, &c->coll);
  PMPI_Comm_rank(inner, &c->rank);
  PMPI_Comm_size(inner, &c->size);
  return c;
}

struct ft_comm *ft_comm_get(MPI_Comm user) {
  if (user == MPI_COMM_NULL)
    ft_fatal("MPI_COMM_NULL passed where a communicator is needed");
  struct ft_comm *c = ft_comm_lookup(user);
  return c ? c : ft_comm_register(user, user);
}

MPI_Comm ft_comm_inner(MPI_Comm user) {
  return user == MPI_COMM_WORLD ? ft_runtime()->app_world : user;
}

/* Frees the runtime's handles of entry i and removes it. */
static void drop(int i) {
  PMPI_Comm_free(&table[i].coll);
  memmove(&table[i], &table[i + 1], (size_t)(used - i - 1) * sizeof table[0]);
  used--;
}

void ft_comm_forget(MPI_Comm user) {
  for (int i = used - 1; i >= 0; i--)
    if (table[i].user == user) {
      drop(i);
      return;
    }
}

void ft_comm_abandon_all(void) { used = 0; }

void ft_comm_forget_all(void) {
  while (used > 0)
    drop(used - 1);
}

/* ---- Interposed communicator calls ---- */

int MPI_Comm_rank(MPI_Comm comm, int *rank) {
  return PMPI_Comm_rank(ft_comm_inner(comm), rank);
}

int MPI_Comm_size(MPI_Comm comm, int *size) {
  return PMPI_Comm_size(ft_comm_inner(comm), size);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  int rc = PMPI_Comm_dup(ft_comm_inner(comm), newcomm);
  if (rc == MPI_SUCCESS)
    ft_comm_register(*newcomm, *newcomm);
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  int rc = PMPI_Comm_split(ft_comm_inner(comm), color, key, newcomm);
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
    ft_comm_register(*newcomm, *newcomm);
  return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  int rc = PMPI_Comm_create(ft_comm_inner(comm), group, newcomm);
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
    ft_comm_register(*newcomm, *newcomm);
  return rc;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
  return PMPI_Comm_group(ft_comm_inner(comm), group);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *newcomm) {
  int rc = PMPI_Cart_create(ft_comm_inner(comm), ndims, dims, periods, reorder,
                            newcomm);
  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL)
    ft_comm_register(*newcomm, *newcomm);
  return rc;
}

int MPI_Comm_free(MPI_Comm *comm) {
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return MPI_ERR_COMM;
  ft_comm_forget(*comm);
  return PMPI_Comm_free(comm);
}
