/* Drivers (issue 15, item 1): the point-to-point and completion operations
 * a protocol family replaces, as one const table per family, Open MPI
 * vprotocol's idea without its machinery. The MPI wrappers (p2p.c) and the
 * runtime's internal channels (control.c) call an operation of the rank's
 * driver (`rt->driver`, chosen once at start from the protocol's family)
 * when it is set; NULL keeps the default path, the one every family without
 * a table (none, coordinated, channel state) takes.
 *
 * A driver that posts its own requests (isend or irecv set) owns them: it
 * sets every completion (the waits and tests), request_free and cancel
 * too, since the default paths would not know its requests
 * (runtime.c checks it when it picks the
 * driver). The wrappers build the blocking calls from its
 * operations: a send is isend then wait, a receive irecv then wait, a
 * send-receive isend, irecv and waitall.
 *
 * Every operation gets the rank's root from the MPI wrapper that calls it.
 * Sends and receives name the communicator's record and which traffic
 * they belong to: the application's (coll 0) or the communicator's
 * collective shadow (coll != 0). */
#ifndef FT_DRIVER_H
#define FT_DRIVER_H

#include <mpi.h>

struct ft_runtime;
struct ft_comm;
struct ft_service_role;

struct ft_driver {
  const char *name; /* the family's, for messages */
  int (*isend)(struct ft_runtime *rt, const void *buf, int count,
               MPI_Datatype type, int dest, int tag, struct ft_comm *c,
               int coll, MPI_Request *req);
  int (*irecv)(struct ft_runtime *rt, void *buf, int count, MPI_Datatype type,
               int source, int tag, struct ft_comm *c, int coll,
               MPI_Request *req);
  int (*wait)(struct ft_runtime *rt, MPI_Request *req, MPI_Status *status);
  int (*waitall)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                 MPI_Status statuses[]);
  int (*waitany)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                 MPI_Status *status);
  int (*waitsome)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                  int *outcount, int indices[], MPI_Status statuses[]);
  int (*test)(struct ft_runtime *rt, MPI_Request *req, int *flag,
              MPI_Status *status);
  int (*testall)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *flag,
                 MPI_Status statuses[]);
  int (*testany)(struct ft_runtime *rt, int n, MPI_Request reqs[], int *index,
                 int *flag, MPI_Status *status);
  int (*testsome)(struct ft_runtime *rt, int n, MPI_Request reqs[],
                  int *outcount, int indices[], MPI_Status statuses[]);
  int (*iprobe)(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
                int *flag, MPI_Status *status);
  int (*probe)(struct ft_runtime *rt, int source, int tag, struct ft_comm *c,
               MPI_Status *status);
  /* MPI_Request_free and MPI_Cancel of a request of the application that
   * is not MPI_REQUEST_NULL nor persistent (persist.c had it first). */
  int (*request_free)(struct ft_runtime *rt, MPI_Request *req);
  int (*cancel)(struct ft_runtime *rt, MPI_Request *req);
  /* The part the family's service ranks play besides the generic
   * dispatcher and checkpoint servers (service_role.h), or NULL: none. */
  const struct ft_service_role *service;
};

#endif /* FT_DRIVER_H */
