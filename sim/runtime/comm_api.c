/* The application's calls on communicators (MPI_Comm_rank, _dup, _split,
 * _create, _free, MPI_Cart_*...): the MPI_COMM_WORLD it holds is the
 * application's world (comm.c), and every creation passes the gate of its
 * parent (gate.c) before the library makes it (comm.c, ft_comm_make). A
 * wrapper (docs/layers.md): it reaches the rank's root and passes it down. */
#include "runtime.h"

/* The creation `call` through its gate, recorded (record.h: `ftsim
 * record`) as a duplicate, a split or (from a group, a topology) a
 * creation. */
static int made(struct ft_runtime *rt, struct ft_gate_call *call,
                MPI_Comm *newcomm) {
  int split = call->kind == FT_GATE_SPLIT;
  uint8_t op = call->kind == FT_GATE_DUP                   ? FT_RT_COMM_DUP
               : split || call->kind == FT_GATE_SPLIT_TYPE ? FT_RT_COMM_SPLIT
                                                           : FT_RT_COMM_CREATE;
  ft_record_enter(rt);
  int rc = ft_record_comm_made(
      rt, ft_gate_create(rt, call, newcomm), op, call->user, newcomm,
      split ? call->color : FT_RT_UNKNOWN, split ? call->key : FT_RT_UNKNOWN);
  if (rt->driver->comm_made && rc == MPI_SUCCESS)
    rt->driver->comm_made(rt, call, *newcomm);
  return rc;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank) {
  struct ft_runtime *rt = ft_runtime();
  return PMPI_Comm_rank(ft_comm_inner(rt, comm), rank);
}

int MPI_Comm_size(MPI_Comm comm, int *size) {
  struct ft_runtime *rt = ft_runtime();
  return PMPI_Comm_size(ft_comm_inner(rt, comm), size);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {.kind = FT_GATE_DUP, .user = comm};
  return made(rt, &call, newcomm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {
      .kind = FT_GATE_SPLIT, .user = comm, .color = color, .key = key};
  return made(rt, &call, newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {
      .kind = FT_GATE_CREATE, .user = comm, .group = group};
  return made(rt, &call, newcomm);
}

/* Collective over the group's members only: its gate counts them, not the
 * parent's (gate.c). */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                          MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {
      .kind = FT_GATE_CREATE_GROUP, .user = comm, .group = group, .color = tag};
  return made(rt, &call, newcomm);
}

/* MPI_COMM_WORLD is the application's world, not the library's (which
 * holds the service ranks). */
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result) {
  struct ft_runtime *rt = ft_runtime();
  return PMPI_Comm_compare(ft_comm_inner(rt, a), ft_comm_inner(rt, b), result);
}

/* The attributes MPI_COMM_WORLD carries describe the application's world:
 * MPI_UNIVERSE_SIZE is its size, not the library's (which counts the
 * service ranks). Others (MPI_TAG_UB, MPI_WTIME_IS_GLOBAL, the
 * application's own keys) are the library's, on the communicator the
 * application holds. */
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag) {
  struct ft_runtime *rt = ft_runtime();
  if (comm == MPI_COMM_WORLD && keyval == MPI_UNIVERSE_SIZE &&
      rt->app_ranks > 0) {
    rt->universe_size = rt->app_ranks;
    *(int **)value = &rt->universe_size;
    *flag = 1;
    return MPI_SUCCESS;
  }
  return PMPI_Comm_get_attr(comm, keyval, value, flag);
}

/* SMPI 3.32's MPI_Topo_test aborts the run ("Not yet implemented"): the
 * runtime knows which communicators it made as cartesian ones. Graph
 * topologies are refused (unsupported.c). */
int MPI_Topo_test(MPI_Comm comm, int *status) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Topo_test", comm);
  if (rc != MPI_SUCCESS)
    return rc;
  const struct ft_comm *c = ft_comm_lookup(rt, comm);
  *status = c ? c->topo : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
  struct ft_runtime *rt = ft_runtime();
  return PMPI_Comm_group(ft_comm_inner(rt, comm), group);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  if (ndims < 0 || ndims > FT_GATE_MAX_DIMS)
    ft_fatal("MPI_Cart_create with %d dimensions: ftsim's runtime takes 0 to "
             "%d",
             ndims, FT_GATE_MAX_DIMS);
  struct ft_gate_call call = {
      .kind = FT_GATE_CART, .user = comm, .ndims = ndims, .reorder = reorder};
  for (int d = 0; d < ndims; d++) {
    call.dims[d] = dims[d];
    call.periods[d] = periods[d];
  }
  return made(rt, &call, newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
  (void)info; /* hints only: a duplicate honours none */
  return MPI_Comm_dup(comm, newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {.kind = FT_GATE_SPLIT_TYPE,
                              .user = comm,
                              .color = split_type,
                              .key = key,
                              .info = info};
  return made(rt, &call, newcomm);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
  struct ft_runtime *rt = ft_runtime();
  if (ft_comm_take_replayed(rt, newcomm))
    return MPI_SUCCESS;
  struct ft_gate_call call = {.kind = FT_GATE_CART_SUB, .user = comm};
  if (PMPI_Cartdim_get(ft_comm_inner(rt, comm), &call.ndims) != MPI_SUCCESS)
    return MPI_ERR_TOPOLOGY;
  if (call.ndims > FT_GATE_MAX_DIMS)
    ft_fatal("MPI_Cart_sub on %d dimensions: ftsim's runtime takes 0 to %d",
             call.ndims, FT_GATE_MAX_DIMS);
  for (int d = 0; d < call.ndims; d++)
    call.dims[d] = remain_dims[d];
  return made(rt, &call, newcomm);
}

int MPI_Comm_free(MPI_Comm *comm) {
  struct ft_runtime *rt = ft_runtime();
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return MPI_ERR_COMM;
  if (ft_driver_restarts_alone(rt->driver)) { /* a restart may create it
                                                 again: kept */
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  ft_record_comm_free(rt, comm);
  if (rt->driver->comm_freed)
    rt->driver->comm_freed(rt, ft_comm_lookup(rt, *comm));
  ft_comm_forget(rt, *comm);
  return ft_record_exit(rt, PMPI_Comm_free(comm));
}
