/* The MPI regions and attributes of ftsim's OTF2 archives (rtrace_otf2.h).
 */
#include "rtrace.h"
#include "rtrace_otf2.h"

#include <string.h>

const struct ft_rt_region ft_rt_regions[] = {
    {"MPI_Send", FT_RC_SEND, 0},
    {"MPI_Ssend", FT_RC_SEND, FT_RT_SYNC},
    {"MPI_Bsend", FT_RC_SEND, 0},
    {"MPI_Rsend", FT_RC_SEND, 0},
    {"MPI_Isend", FT_RC_ISEND, 0},
    {"MPI_Issend", FT_RC_ISEND, FT_RT_SYNC},
    {"MPI_Ibsend", FT_RC_ISEND, 0},
    {"MPI_Irsend", FT_RC_ISEND, 0},
    {"MPI_Recv", FT_RC_RECV, 0},
    {"MPI_Irecv", FT_RC_IRECV, 0},
    {"MPI_Sendrecv", FT_RC_SENDRECV, 0},
    {"MPI_Sendrecv_replace", FT_RC_SENDRECV, 0},
    {"MPI_Wait", FT_RC_COMPLETE, FT_RT_WAIT},
    {"MPI_Waitall", FT_RC_COMPLETE, FT_RT_WAITALL},
    {"MPI_Waitany", FT_RC_COMPLETE, FT_RT_WAITANY},
    {"MPI_Waitsome", FT_RC_COMPLETE, FT_RT_WAITSOME},
    {"MPI_Test", FT_RC_COMPLETE, FT_RT_TEST},
    {"MPI_Testall", FT_RC_COMPLETE, FT_RT_TESTALL},
    {"MPI_Testany", FT_RC_COMPLETE, FT_RT_TESTANY},
    {"MPI_Testsome", FT_RC_COMPLETE, FT_RT_TESTSOME},
    {"MPI_Cancel", FT_RC_CANCEL, 0},
    {"MPI_Request_free", FT_RC_CANCEL, 1},
    {"MPI_Probe", FT_RC_PROBE, 1},
    {"MPI_Iprobe", FT_RC_PROBE, 0},
    {"MPI_Barrier", FT_RC_COLL, FT_RT_BARRIER},
    {"MPI_Bcast", FT_RC_COLL, FT_RT_BCAST},
    {"MPI_Gather", FT_RC_COLL, FT_RT_GATHER},
    {"MPI_Gatherv", FT_RC_COLL, FT_RT_GATHERV},
    {"MPI_Scatter", FT_RC_COLL, FT_RT_SCATTER},
    {"MPI_Scatterv", FT_RC_COLL, FT_RT_SCATTERV},
    {"MPI_Allgather", FT_RC_COLL, FT_RT_ALLGATHER},
    {"MPI_Allgatherv", FT_RC_COLL, FT_RT_ALLGATHERV},
    {"MPI_Alltoall", FT_RC_COLL, FT_RT_ALLTOALL},
    {"MPI_Alltoallv", FT_RC_COLL, FT_RT_ALLTOALLV},
    {"MPI_Alltoallw", FT_RC_COLL, FT_RT_ALLTOALLW},
    {"MPI_Allreduce", FT_RC_COLL, FT_RT_ALLREDUCE},
    {"MPI_Reduce", FT_RC_COLL, FT_RT_REDUCE},
    {"MPI_Reduce_scatter", FT_RC_COLL, FT_RT_REDUCE_SCATTER},
    {"MPI_Reduce_scatter_block", FT_RC_COLL, FT_RT_REDUCE_SCATTER_BLOCK},
    {"MPI_Scan", FT_RC_COLL, FT_RT_SCAN},
    {"MPI_Exscan", FT_RC_COLL, FT_RT_EXSCAN},
    {"MPI_Comm_dup", FT_RC_COMM, FT_RT_COMM_DUP},
    {"MPI_Comm_split", FT_RC_COMM, FT_RT_COMM_SPLIT},
    {"MPI_Comm_create", FT_RC_COMM, FT_RT_COMM_CREATE},
    {"MPI_Comm_free", FT_RC_COMM, FT_RT_COMM_FREE},
    {"MPI_Init", FT_RC_IGNORED, 0},
    {"MPI_Init_thread", FT_RC_IGNORED, 0},
    {"MPI_Finalize", FT_RC_IGNORED, 0},
    {"MPI_Initialized", FT_RC_IGNORED, 0},
    {"MPI_Finalized", FT_RC_IGNORED, 0},
    {"MPI_Comm_rank", FT_RC_IGNORED, 0},
    {"MPI_Comm_size", FT_RC_IGNORED, 0},
    {"MPI_Comm_group", FT_RC_IGNORED, 0},
    {"MPI_Comm_set_errhandler", FT_RC_IGNORED, 0},
    {"MPI_Comm_get_attr", FT_RC_IGNORED, 0},
    {"MPI_Get_count", FT_RC_IGNORED, 0},
    {"MPI_Get_processor_name", FT_RC_IGNORED, 0},
    {"MPI_Get_version", FT_RC_IGNORED, 0},
    {"MPI_Query_thread", FT_RC_IGNORED, 0},
    {"MPI_Wtime", FT_RC_IGNORED, 0},
    {"MPI_Wtick", FT_RC_IGNORED, 0},
    {"MPI_Error_string", FT_RC_IGNORED, 0},
    {"MPI_Op_create", FT_RC_IGNORED, 0},
    {"MPI_Op_free", FT_RC_IGNORED, 0},
    {"MPI_Pcontrol", FT_RC_IGNORED, 0},
    {NULL, 0, 0}};

const struct ft_rt_region *ft_rt_region_find(const char *name) {
  for (const struct ft_rt_region *r = ft_rt_regions; r->name; r++)
    if (!strcmp(r->name, name))
      return r;
  /* Datatypes and groups are local: a replay needs none of them. */
  static const struct ft_rt_region local = {"", FT_RC_IGNORED, 0};
  if (!strncmp(name, "MPI_Type_", 9) || !strncmp(name, "MPI_Group_", 10))
    return &local;
  return NULL;
}

const char *const ft_rt_attr_names[FT_RA_COUNT] = {
    "ftsim::wildcard",   "ftsim::peer",     "ftsim::tag",      "ftsim::comm",
    "ftsim::bytes",      "ftsim::found",    "ftsim::msg_peer", "ftsim::msg_tag",
    "ftsim::request",    "ftsim::parent",   "ftsim::color",    "ftsim::key",
    "ftsim::coll_flags", "ftsim::truncated"};
