/* persist_check: persistent requests' edge cases (issue 15's follow-up).
 *
 * Usage: persist_check cancel | free ITERS | waitany_null
 *
 *  cancel        every rank makes 15 persistent requests (Send_init and
 *                Recv_init to its neighbours, never started) and a
 *                Recv_init nobody matches (tag 99): 16 records, the table's
 *                first capacity, so that a record made during the cancel
 *                grows (moves) the table. Starts the Recv_init, cancels it
 *                and waits for it: MPI_Test_cancelled must say cancelled;
 *                then starts it again, the left neighbour sends it a
 *                message, and the wait must give that message (the request
 *                still works after a cancel).
 *  free ITERS    ITERS times: Send_init to the right neighbour, Recv_init
 *                from the left, Startall, Waitall, Request_free of both,
 *                data checked; the runtime's count of records
 *                (ft_persist_records, persist.c) must be the same after
 *                the loop as before it.
 *  waitany_null  an MPI_Irecv from MPI_PROC_NULL, an MPI_Isend and an
 *                MPI_Issend to it, an MPI_Irecv from the left neighbour;
 *                MPI_Waitany over the four, 4 times: the MPI_PROC_NULL ones
 *                first (each once, source MPI_PROC_NULL), before the left
 *                neighbour sends, then the message.
 * Wrong results are counted, reduced and reported (ft_report_result); exit 1
 * on any. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

/* The runtime's count of persistent records (persist.c), for this test. */
size_t ft_persist_records(void);

enum { MANY = 15 }; /* + 1: the table full (ft_reserve starts at 16) */

static int cancel_case(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size, bad = 0;
  int x[MANY], y = -1, msg = rank;
  MPI_Request many[MANY], r;
  for (int i = 0; i < MANY; i++)
    if (i % 2)
      MPI_Send_init(&x[i], 1, MPI_INT, right, 50 + i, MPI_COMM_WORLD, &many[i]);
    else
      MPI_Recv_init(&x[i], 1, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &many[i]);
  MPI_Recv_init(&y, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Cancel(&r);
  MPI_Status st;
  int cancelled = 0;
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &cancelled);
  if (!cancelled) {
    fprintf(stderr, "rank %d: the cancelled receive says not cancelled\n",
            rank);
    bad++;
  }
  bad += r == MPI_REQUEST_NULL; /* a persistent request keeps its handle */
  MPI_Barrier(MPI_COMM_WORLD);  /* every cancel done before any message */
  MPI_Start(&r);
  MPI_Send(&msg, 1, MPI_INT, right, 99, MPI_COMM_WORLD);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &cancelled);
  if (cancelled || y != left || st.MPI_SOURCE != left || st.MPI_TAG != 99) {
    fprintf(stderr, "rank %d: after the cancel: %d from %d tag %d\n", rank, y,
            st.MPI_SOURCE, st.MPI_TAG);
    bad++;
  }
  MPI_Request_free(&r);
  for (int i = 0; i < MANY; i++)
    MPI_Request_free(&many[i]);
  return bad;
}

static int free_case(int rank, int size, int iters) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size, bad = 0;
  size_t before = ft_persist_records();
  for (int k = 0; k < iters; k++) {
    int out = rank * 1000003 + k, in = -1;
    MPI_Request r[2];
    MPI_Send_init(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    bad += in != left * 1000003 + k;
    bad += r[0] != MPI_REQUEST_NULL || r[1] != MPI_REQUEST_NULL;
  }
  size_t after = ft_persist_records();
  if (after != before) {
    fprintf(stderr, "rank %d: %zu persistent records before, %zu after\n", rank,
            before, after);
    bad++;
  }
  return bad;
}

static int waitany_null_case(int rank, int size) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size, bad = 0;
  int a = -1, b = -1, c = 5, msg = rank, index = -1, seen[4] = {0};
  MPI_Request r[4];
  MPI_Status st;
  MPI_Irecv(&a, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&c, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[1]);
  MPI_Issend(&c, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[2]);
  MPI_Irecv(&b, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r[3]);
  for (int k = 0; k < 3; k++) { /* the MPI_PROC_NULL ones, at once */
    MPI_Waitany(4, r, &index, &st);
    if (index < 0 || index > 2 || seen[index]++ ||
        st.MPI_SOURCE != MPI_PROC_NULL) {
      fprintf(stderr, "rank %d: MPI_Waitany %d gave index %d source %d\n", rank,
              k, index, st.MPI_SOURCE);
      bad++;
    }
  }
  MPI_Send(&msg, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
  MPI_Waitany(4, r, &index, &st);
  if (index != 3 || b != left || st.MPI_SOURCE != left || a != -1) {
    fprintf(stderr, "rank %d: last MPI_Waitany gave index %d, %d from %d\n",
            rank, index, b, st.MPI_SOURCE);
    bad++;
  }
  for (int i = 0; i < 4; i++)
    bad += r[i] != MPI_REQUEST_NULL;
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "";
  long bad = 0;
  if (!strcmp(mode, "cancel"))
    bad = cancel_case(rank, size);
  else if (!strcmp(mode, "free"))
    bad = free_case(rank, size, argc > 2 ? atoi(argv[2]) : 1000);
  else if (!strcmp(mode, "waitany_null"))
    bad = waitany_null_case(rank, size);
  else {
    fprintf(stderr, "persist_check: unknown mode '%s'\n", mode);
    bad = 1;
  }
  long all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("persist_check %s: %ld wrong: %s\n", mode, all,
           all ? "FAILED" : "ok");
  ft_report_result(all == 0, 1.0);
  MPI_Finalize();
  return all ? 1 : 0;
}
