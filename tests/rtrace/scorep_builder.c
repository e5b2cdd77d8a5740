/* A Score-P-style OTF2 archive, written with OTF2's writer API as Score-P
 * writes MPI events (Score-P is not packaged here), for the tests of the
 * OTF2 reader (tests/unit/rtrace_test.c) and of the replay
 * (tests/cli/scorep_archive.c): scorep_builder.h says what each variant
 * holds. */
#include "scorep_builder.h"

#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

static OTF2_FlushType pre(void *u, OTF2_FileType ft, OTF2_LocationRef l,
                          void *c, bool f) {
  (void)u, (void)ft, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post(void *u, OTF2_FileType ft, OTF2_LocationRef l) {
  (void)u, (void)ft, (void)l;
  return 0;
}
static const OTF2_FlushCallbacks flush = {pre, post};

enum {
  R_SEND,
  R_IRECV,
  R_ISEND,
  R_WAITALL,
  R_RECV,
  R_ALLRED,
  R_SPLIT,
  R_MAIN,
  R_PUT,
  R_NREG
};
static const char *const reg_names[R_NREG] = {
    "MPI_Send",      "MPI_Irecv",      "MPI_Isend", "MPI_Waitall", "MPI_Recv",
    "MPI_Allreduce", "MPI_Comm_split", "main",      "MPI_Put"};

/* Rank r's events as Score-P writes them; `rma` adds an MPI_Put region (1)
 * or an RmaWinCreate record (2) on rank 1. Times in microseconds (resolution
 * 1e6). */
static void scorep_events(OTF2_EvtWriter *w, uint32_t r, int rma) {
  uint32_t o = 1 - r;
  OTF2_EvtWriter_Enter(w, NULL, 0, R_MAIN);
  OTF2_EvtWriter_Enter(w, NULL, 1000, R_IRECV); /* 1 ms of compute */
  OTF2_EvtWriter_MpiIrecvRequest(w, NULL, 1000, 40 + r);
  OTF2_EvtWriter_Leave(w, NULL, 1001, R_IRECV);
  OTF2_EvtWriter_Enter(w, NULL, 1001, R_ISEND);
  OTF2_EvtWriter_MpiIsend(w, NULL, 1001, o, 0, 5, 64, 50 + r);
  OTF2_EvtWriter_Leave(w, NULL, 1002, R_ISEND);
  OTF2_EvtWriter_Enter(w, NULL, 1002, R_WAITALL);
  OTF2_EvtWriter_MpiIrecv(w, NULL, 1010, o, 0, 5, 64, 40 + r);
  OTF2_EvtWriter_MpiIsendComplete(w, NULL, 1010, 50 + r);
  OTF2_EvtWriter_Leave(w, NULL, 1010, R_WAITALL);
  if (r == 0) {
    OTF2_EvtWriter_Enter(w, NULL, 1010, R_SEND);
    OTF2_EvtWriter_MpiSend(w, NULL, 1010, 1, 0, 9, 4);
    OTF2_EvtWriter_Leave(w, NULL, 1011, R_SEND);
  } else {
    OTF2_EvtWriter_Enter(w, NULL, 1010, R_RECV); /* posted ANY_SOURCE */
    OTF2_EvtWriter_MpiRecv(w, NULL, 1011, 0, 0, 9, rma == 3 ? 8 : 4);
    OTF2_EvtWriter_Leave(w, NULL, 1011, R_RECV);
  }
  OTF2_EvtWriter_Enter(w, NULL, 1011, R_ALLRED);
  OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 1011);
  OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 1020, OTF2_COLLECTIVE_OP_ALLREDUCE,
                                  0, OTF2_UNDEFINED_UINT32, 8, 8);
  OTF2_EvtWriter_Leave(w, NULL, 1020, R_ALLRED);
  OTF2_EvtWriter_Enter(w, NULL, 1020, R_SPLIT);
  OTF2_EvtWriter_CommCreate(w, NULL, 1021, 2 + r);
  OTF2_EvtWriter_Leave(w, NULL, 1021, R_SPLIT);
  if (rma == 1 && r == 1) {
    OTF2_EvtWriter_Enter(w, NULL, 1022, R_PUT);
    OTF2_EvtWriter_Leave(w, NULL, 1023, R_PUT);
  }
  if (rma == 2 && r == 1)
    OTF2_EvtWriter_RmaWinCreate(w, NULL, 1022, 0);
  OTF2_EvtWriter_Leave(w, NULL, 3000, R_MAIN);
}

static void scorep_defs(OTF2_GlobalDefWriter *g) {
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 0, 3001,
                                            OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(g, 0, "");
  for (uint32_t i = 0; i < R_NREG; i++) {
    OTF2_GlobalDefWriter_WriteString(g, 1 + i, reg_names[i]);
    OTF2_GlobalDefWriter_WriteRegion(
        g, i, 1 + i, 1 + i, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
        OTF2_REGION_FLAG_NONE, 0, 0, 0);
  }
  OTF2_GlobalDefWriter_WriteString(g, 20, "node");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 20, 20,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (uint32_t r = 0; r < 2; r++) {
    OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 20,
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, r, 20, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       20, r);
  }
  uint64_t all[2] = {0, 1}, one[1] = {0}, two[1] = {1};
  OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                  all);
  OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                  all);
  OTF2_GlobalDefWriter_WriteGroup(g, 2, 0, OTF2_GROUP_TYPE_COMM_SELF,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0,
                                  NULL);
  OTF2_GlobalDefWriter_WriteGroup(g, 3, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 1,
                                  one);
  OTF2_GlobalDefWriter_WriteGroup(g, 4, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 1,
                                  two);
  for (uint32_t c = 0; c < 4; c++)
    OTF2_GlobalDefWriter_WriteComm(
        g, c, 0, c + 1, c >= 2 ? 0 : OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
}

int scorep_write(const char *dir, int rma) {
  OTF2_Archive *a = OTF2_Archive_Open(
      dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!a)
    return 1;
  OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(a);
  OTF2_Archive_OpenEvtFiles(a);
  for (uint32_t r = 0; r < 2; r++) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, r);
    scorep_events(w, r, rma);
    OTF2_Archive_CloseEvtWriter(a, w);
  }
  OTF2_Archive_CloseEvtFiles(a);
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
  scorep_defs(g);
  OTF2_Archive_CloseGlobalDefWriter(a, g);
  return OTF2_Archive_Close(a) == OTF2_SUCCESS ? 0 : 1;
}
