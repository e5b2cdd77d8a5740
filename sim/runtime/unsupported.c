/* The MPI calls ftsim's runtime does not support: each stops the run at
 * once, naming itself and the protocol (issue 13: "Every MPI call an
 * application can make must either be interruptible by a rollback or defer
 * it consistently").
 *
 * Passed to the MPI library they would escape the protocols: a rollback
 * cannot interrupt them (a rank inside one is deaf to control), the cores
 * never see their messages (lost or doubled across a rollback), and on
 * MPI_COMM_WORLD they would include the service ranks. An error is better
 * than a hang or a wrong answer, under every protocol (none too: the same
 * program must run under each). The README's table "Which MPI calls a
 * rollback can interrupt" lists them. Fortran: fortran.c. */
#include "runtime.h"

/* The stubs name their parameters as the MPI standard does, and use none. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

_Noreturn void ft_unsupported(const char *call) {
  const struct ft_runtime *rt = ft_runtime();
  ft_fatal("%s is not supported by ftsim's runtime yet (protocol %s); see "
           "README.md, \"Which MPI calls a rollback can interrupt\"",
           call, rt->protocol ? rt->protocol->name : "none");
}

/* Nonblocking collectives: their requests would complete inside the MPI
 * library, deaf to control. */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ibarrier");
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ibcast");
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Igather");
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int *recvcounts, const int *displs,
                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
  ft_unsupported("MPI_Igatherv");
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Iallgather");
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int *recvcounts, const int *displs,
                    MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request) {
  ft_unsupported("MPI_Iallgatherv");
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Iscatter");
}

int MPI_Iscatterv(const void *sendbuf, const int *sendcounts, const int *displs,
                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request) {
  ft_unsupported("MPI_Iscatterv");
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *request) {
  ft_unsupported("MPI_Ireduce");
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request) {
  ft_unsupported("MPI_Iallreduce");
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request) {
  ft_unsupported("MPI_Iscan");
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request *request) {
  ft_unsupported("MPI_Iexscan");
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
                        const int *recvcounts, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ireduce_scatter");
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request) {
  ft_unsupported("MPI_Ireduce_scatter_block");
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ialltoall");
}

int MPI_Ialltoallv(const void *sendbuf, const int *sendcounts,
                   const int *senddisps, MPI_Datatype sendtype, void *recvbuf,
                   const int *recvcounts, const int *recvdisps,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ialltoallv");
}

int MPI_Ialltoallw(const void *sendbuf, const int *sendcounts,
                   const int *senddisps, const MPI_Datatype *sendtypes,
                   void *recvbuf, const int *recvcounts, const int *recvdisps,
                   const MPI_Datatype *recvtypes, MPI_Comm comm,
                   MPI_Request *request) {
  ft_unsupported("MPI_Ialltoallw");
}

/* Neighbourhood collectives (on graph and cartesian topologies). */

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  ft_unsupported("MPI_Neighbor_allgather");
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const int *recvcounts, const int *displs,
                            MPI_Datatype recvtype, MPI_Comm comm) {
  ft_unsupported("MPI_Neighbor_allgatherv");
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  ft_unsupported("MPI_Neighbor_alltoall");
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int *sendcounts,
                           const int *senddisps, MPI_Datatype sendtype,
                           void *recvbuf, const int *recvcounts,
                           const int *recvdisps, MPI_Datatype recvtype,
                           MPI_Comm comm) {
  ft_unsupported("MPI_Neighbor_alltoallv");
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int *sendcnts,
                           const MPI_Aint *sdispls,
                           const MPI_Datatype *sendtypes, void *recvbuf,
                           const int *recvcnts, const MPI_Aint *rdispls,
                           const MPI_Datatype *recvtypes, MPI_Comm comm) {
  ft_unsupported("MPI_Neighbor_alltoallw");
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request) {
  ft_unsupported("MPI_Ineighbor_allgather");
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int *recvcounts, const int *displs,
                             MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request) {
  ft_unsupported("MPI_Ineighbor_allgatherv");
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request) {
  ft_unsupported("MPI_Ineighbor_alltoall");
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int *sendcounts,
                            const int *senddisps, MPI_Datatype sendtype,
                            void *recvbuf, const int *recvcounts,
                            const int *recvdisps, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ineighbor_alltoallv");
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int *sendcounts,
                            const MPI_Aint *senddisps,
                            const MPI_Datatype *sendtypes, void *recvbuf,
                            const int *recvcounts, const MPI_Aint *recvdisps,
                            const MPI_Datatype *recvtypes, MPI_Comm comm,
                            MPI_Request *request) {
  ft_unsupported("MPI_Ineighbor_alltoallw");
}

/* Point to point the protocols do not see: buffered sends (persistent ones
 * too: persist.c carries the other persistent requests), matched probes. */

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm) {
  ft_unsupported("MPI_Bsend");
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Ibsend");
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request) {
  ft_unsupported("MPI_Bsend_init");
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status) {
  ft_unsupported("MPI_Mprobe");
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Message *message, MPI_Status *status) {
  ft_unsupported("MPI_Improbe");
}

/* Creations of communicators the gate does not make: nonblocking, graph
 * topologies, intercommunicators, dynamic processes.
 */

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
  ft_unsupported("MPI_Comm_idup");
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int *index,
                     const int *edges, int reorder, MPI_Comm *comm_graph) {
  ft_unsupported("MPI_Graph_create");
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int *sources,
                          const int *degrees, const int *destinations,
                          const int *weights, MPI_Info info, int reorder,
                          MPI_Comm *comm_dist_graph) {
  ft_unsupported("MPI_Dist_graph_create");
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                   const int *sources, const int *sourceweights,
                                   int outdegree, const int *destinations,
                                   const int *destweights, MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph) {
  ft_unsupported("MPI_Dist_graph_create_adjacent");
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                         MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm *comm_out) {
  ft_unsupported("MPI_Intercomm_create");
}

int MPI_Intercomm_merge(MPI_Comm comm, int high, MPI_Comm *comm_out) {
  ft_unsupported("MPI_Intercomm_merge");
}

int MPI_Comm_spawn(const char *command, char **argv, int maxprocs,
                   MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm,
                   int *array_of_errcodes) {
  ft_unsupported("MPI_Comm_spawn");
}

int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm) {
  ft_unsupported("MPI_Comm_connect");
}

int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *newcomm) {
  ft_unsupported("MPI_Comm_accept");
}

int MPI_Comm_join(int fd, MPI_Comm *intercomm) {
  ft_unsupported("MPI_Comm_join");
}

/* One-sided communication and MPI-IO: stopped where they start, at the window
 * or the file. */

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win) {
  ft_unsupported("MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                     void *base, MPI_Win *win) {
  ft_unsupported("MPI_Win_allocate");
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *base, MPI_Win *win) {
  ft_unsupported("MPI_Win_allocate_shared");
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  ft_unsupported("MPI_Win_create_dynamic");
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                  MPI_File *fh) {
  ft_unsupported("MPI_File_open");
}
