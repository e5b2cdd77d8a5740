/* MPI's error semantics for the application's calls.
 *
 * The runtime carries an application's call out with PMPI calls on its own
 * communicators, often with other arguments (the substitute world, a
 * shadow, a nonblocking call plus a wait): the library's error handling
 * never sees the application's communicator, and SMPI's PMPI functions
 * call no error handler at all. So every application-facing wrapper checks
 * its arguments here before the runtime transforms the call, and passes a
 * failed call's code through ft_err_raise, which does what MPI-3.1 section
 * 8.3 says: "the error handler [...] attached to the communicator" is
 * called; MPI_ERRORS_ARE_FATAL (the default) ends the run, naming the call
 * and the error class; MPI_ERRORS_RETURN returns the code; a handler made
 * with MPI_Comm_create_errhandler is called with the application's handle
 * and the code, then the call returns the code. The handlers are kept per
 * communicator in the runtime's table (comm.c), not in the library. */
#include <stdio.h>

#include "runtime.h"

/* ---- Names for messages ---- */

static const char *class_name(int cls) {
  switch (cls) {
  case MPI_ERR_BUFFER:
    return "MPI_ERR_BUFFER";
  case MPI_ERR_COUNT:
    return "MPI_ERR_COUNT";
  case MPI_ERR_TYPE:
    return "MPI_ERR_TYPE";
  case MPI_ERR_TAG:
    return "MPI_ERR_TAG";
  case MPI_ERR_COMM:
    return "MPI_ERR_COMM";
  case MPI_ERR_RANK:
    return "MPI_ERR_RANK";
  case MPI_ERR_ROOT:
    return "MPI_ERR_ROOT";
  case MPI_ERR_GROUP:
    return "MPI_ERR_GROUP";
  case MPI_ERR_OP:
    return "MPI_ERR_OP";
  case MPI_ERR_ARG:
    return "MPI_ERR_ARG";
  case MPI_ERR_REQUEST:
    return "MPI_ERR_REQUEST";
  case MPI_ERR_TRUNCATE:
    return "MPI_ERR_TRUNCATE";
  case MPI_ERR_IN_STATUS:
    return "MPI_ERR_IN_STATUS";
  case MPI_ERR_PENDING:
    return "MPI_ERR_PENDING";
  case MPI_ERR_TOPOLOGY:
    return "MPI_ERR_TOPOLOGY";
  case MPI_ERR_DIMS:
    return "MPI_ERR_DIMS";
  case MPI_ERR_INTERN:
    return "MPI_ERR_INTERN";
  case MPI_ERR_OTHER:
    return "MPI_ERR_OTHER";
  default:
    return "MPI_ERR_UNKNOWN";
  }
}

static void comm_name(struct ft_runtime *rt, MPI_Comm comm, char *out,
                      size_t n) {
  if (comm == MPI_COMM_WORLD)
    snprintf(out, n, "MPI_COMM_WORLD");
  else if (comm == MPI_COMM_SELF)
    snprintf(out, n, "MPI_COMM_SELF");
  else if (comm == MPI_COMM_NULL)
    snprintf(out, n, "MPI_COMM_NULL");
  else {
    const struct ft_comm *c = ft_comm_lookup(rt, comm);
    if (c)
      snprintf(out, n, "a communicator of %d ranks", c->size);
    else
      snprintf(out, n, "a communicator");
  }
}

/* ---- Handlers ---- */

/* The handler attached to comm (MPI_COMM_NULL: MPI_COMM_WORLD's, as
 * MPI-3.1 8.3 says for errors not tied to a valid communicator). */
static MPI_Errhandler handler_of(struct ft_runtime *rt, MPI_Comm comm) {
  const struct ft_comm *c =
      ft_comm_lookup(rt, comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm);
  return c ? c->errhandler : MPI_ERRORS_ARE_FATAL;
}

/* The application's handler of that handle, or NULL. */
static const struct ft_errhandler *made(struct ft_runtime *rt,
                                        MPI_Errhandler h) {
  for (int i = 0; i < FT_MAX_ERRHANDLERS; i++)
    if ((rt->errhandlers[i].fn || rt->errhandlers[i].f_fn) &&
        rt->errhandlers[i].handle == h)
      return &rt->errhandlers[i];
  return NULL;
}

/* Calls the application's handler e on comm (C or Fortran). */
static void call_handler(const struct ft_errhandler *e, MPI_Comm comm,
                         int code) {
  if (e->fn) {
    MPI_Comm user = comm;
    int arg = code;
    e->fn(&user, &arg);
  } else {
    MPI_Fint f_comm = MPI_Comm_c2f(comm), f_code = code;
    e->f_fn(&f_comm, &f_code);
  }
}

static _Noreturn void fatal(struct ft_runtime *rt, const char *call,
                            MPI_Comm comm, int code, const char *what) {
  int cls = code;
  if (PMPI_Error_class(code, &cls) != MPI_SUCCESS)
    cls = code;
  char name[64];
  comm_name(rt, comm, name, sizeof name);
  ft_fatal("%s: %s (%s) on %s, rank %d (MPI_ERRORS_ARE_FATAL)", call,
           class_name(cls), what && what[0] ? what : "returned by the library",
           name, rt->world_rank);
}

int ft_err_raise(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                 int code, const char *what) {
  MPI_Errhandler h = handler_of(rt, comm);
  if (h == MPI_ERRORS_RETURN)
    return code;
  const struct ft_errhandler *e =
      h == MPI_ERRORS_ARE_FATAL ? NULL : made(rt, h);
  if (!e)
    fatal(rt, call, comm, code, what);
  call_handler(e, comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
  return code;
}

int ft_err_result(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                  int rc) {
  return rc == MPI_SUCCESS ? rc : ft_err_raise(rt, call, comm, rc, NULL);
}

/* ---- Checks ---- */

int ft_err_comm(struct ft_runtime *rt, const char *call, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL)
    return ft_err_raise(rt, call, comm, MPI_ERR_COMM, "MPI_COMM_NULL");
  return MPI_SUCCESS;
}

int ft_err_buffer(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                  int count, MPI_Datatype type) {
  char what[96];
  if (count < 0) {
    snprintf(what, sizeof what, "negative count %d", count);
    return ft_err_raise(rt, call, comm, MPI_ERR_COUNT, what);
  }
  if (type == MPI_DATATYPE_NULL)
    return ft_err_raise(rt, call, comm, MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
  return MPI_SUCCESS;
}

/* Open MPI's MPI_ANY_SOURCE and MPI_ANY_TAG are -1: a program that
 * hard-codes them is told so. */
static void wildcard_hint(char *out, size_t n, int value, int source) {
  if (value != -1 || (source ? MPI_ANY_SOURCE : MPI_ANY_TAG) == -1)
    out[0] = '\0';
  else
    snprintf(out, n, "; %s is %d here, not -1 as in Open MPI: use the constant",
             source ? "MPI_ANY_SOURCE" : "MPI_ANY_TAG",
             source ? MPI_ANY_SOURCE : MPI_ANY_TAG);
}

int ft_err_peer(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                int peer, int tag, enum ft_err_side side) {
  int rc = ft_err_comm(rt, call, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  int source = side == FT_ERR_SOURCE, size = ft_comm_get(rt, comm)->size;
  char what[192], hint[96];
  if (peer != MPI_PROC_NULL && !(source && peer == MPI_ANY_SOURCE) &&
      (peer < 0 || peer >= size)) {
    wildcard_hint(hint, sizeof hint, source ? peer : 0, 1);
    snprintf(what, sizeof what, "invalid %s rank %d of %d%s",
             source ? "source" : "destination", peer, size, hint);
    return ft_err_raise(rt, call, comm, MPI_ERR_RANK, what);
  }
  if (tag < 0 && !(source && tag == MPI_ANY_TAG)) {
    wildcard_hint(hint, sizeof hint, source ? tag : 0, 0);
    snprintf(what, sizeof what, "invalid tag %d%s", tag, hint);
    return ft_err_raise(rt, call, comm, MPI_ERR_TAG, what);
  }
  return MPI_SUCCESS;
}

int ft_err_p2p(struct ft_runtime *rt, const char *call, MPI_Comm comm,
               int count, MPI_Datatype type, int peer, int tag,
               enum ft_err_side side) {
  int rc = ft_err_peer(rt, call, comm, peer, tag, side);
  return rc != MPI_SUCCESS ? rc : ft_err_buffer(rt, call, comm, count, type);
}

int ft_err_root(struct ft_runtime *rt, const char *call, MPI_Comm comm,
                int root) {
  int rc = ft_err_comm(rt, call, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  int size = ft_comm_get(rt, comm)->size;
  if (root >= 0 && root < size)
    return MPI_SUCCESS;
  char what[64];
  snprintf(what, sizeof what, "invalid root %d of %d", root, size);
  return ft_err_raise(rt, call, comm, MPI_ERR_ROOT, what);
}

/* ---- Interposed error-handler calls ---- */

/* Keeps the application's handler of a new handle, in a ring: the handles
 * of lives a rollback ended are dead. */
static void remember(struct ft_runtime *rt, MPI_Errhandler handle,
                     MPI_Comm_errhandler_function *fn,
                     ft_f_errhandler_fn *f_fn) {
  int slot = rt->errhandlers_made++ % FT_MAX_ERRHANDLERS;
  for (int i = 0; i < FT_MAX_ERRHANDLERS; i++)
    if (rt->errhandlers[i].handle == handle)
      slot = i; /* a freed handle the library gave again */
  rt->errhandlers[slot].handle = handle;
  rt->errhandlers[slot].fn = fn;
  rt->errhandlers[slot].f_fn = f_fn;
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                               MPI_Errhandler *handler) {
  struct ft_runtime *rt = ft_runtime();
  int rc = PMPI_Comm_create_errhandler(fn, handler);
  if (rc != MPI_SUCCESS)
    return ft_err_result(rt, "MPI_Comm_create_errhandler", MPI_COMM_WORLD, rc);
  remember(rt, *handler, fn, NULL);
  return MPI_SUCCESS;
}

/* What the library holds for a Fortran handler: never called, ft_err_raise
 * calls the Fortran subroutine. */
static void fortran_stand_in(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
}

int ft_err_create_fortran(struct ft_runtime *rt, ft_f_errhandler_fn *fn,
                          MPI_Errhandler *handler) {
  int rc = PMPI_Comm_create_errhandler(fortran_stand_in, handler);
  if (rc != MPI_SUCCESS)
    return ft_err_result(rt, "MPI_Comm_create_errhandler", MPI_COMM_WORLD, rc);
  remember(rt, *handler, NULL, fn);
  return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler handler) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Comm_set_errhandler", comm);
  if (rc != MPI_SUCCESS)
    return rc;
  if (handler != MPI_ERRORS_ARE_FATAL && handler != MPI_ERRORS_RETURN &&
      !made(rt, handler))
    return ft_err_raise(rt, "MPI_Comm_set_errhandler", comm, MPI_ERR_ARG,
                        "not an error handler of MPI_Comm_create_errhandler");
  ft_comm_get(rt, comm)->errhandler = handler;
  return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *handler) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Comm_get_errhandler", comm);
  if (rc != MPI_SUCCESS)
    return rc;
  *handler = ft_comm_get(rt, comm)->errhandler;
  return MPI_SUCCESS;
}

/* The MPI-1 names (removed in MPI-3.0, still in SMPI 3.32). */
#ifdef SMPI_H
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler handler) {
  return MPI_Comm_set_errhandler(comm, handler);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *handler) {
  return MPI_Comm_get_errhandler(comm, handler);
}
#endif

int MPI_Comm_call_errhandler(MPI_Comm comm, int code) {
  struct ft_runtime *rt = ft_runtime();
  int rc = ft_err_comm(rt, "MPI_Comm_call_errhandler", comm);
  if (rc != MPI_SUCCESS)
    return rc;
  ft_err_raise(rt, "MPI_Comm_call_errhandler", comm, code,
               "called by the program");
  return MPI_SUCCESS;
}
