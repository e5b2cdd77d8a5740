/* cover_check: the MPI calls issue 14's item 8 added to the runtime, each
 * checked for its result, under every protocol and through failures.
 *
 * Usage: cover_check [ITERS [cancel]]  (default 20 iterations)
 *
 * Each iteration, after a safe point (the iteration and the count of wrong
 * results are protected):
 *  - MPI_Alltoall, MPI_Alltoallv (gaps between the blocks, left alone) and
 *    MPI_Alltoallw with MPI_IN_PLACE: every block where it belongs;
 *  - MPI_Comm_create_group over the even ranks (tag 7), an allreduce on it,
 *    MPI_Comm_free;
 *  - a ring of 3 structs {int, double} received into room for 5: the
 *    status names the sender, MPI_Get_count gives 3 and MPI_Get_elements 6,
 *    from MPI_Recv and from the MPI_Wait of an MPI_Irecv (under message
 *    logging: logged messages, and replayed ones after a restart);
 *  - MPI_Isend then MPI_Request_free: the message still arrives;
 *  - with `cancel`: an MPI_Irecv nobody matches, MPI_Cancel, MPI_Wait:
 *    MPI_Test_cancelled is true;
 *  - MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE) is the
 *    application's size (not the library's, with the service ranks),
 *    MPI_TAG_UB at least 32767, MPI_Topo_test gives MPI_UNDEFINED for the
 *    world and MPI_CART for a cartesian communicator.
 * Wrong results are counted, reduced and reported (ft_report_result);
 * exit 1 on any. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft.h"

struct item {
  int i;
  double d;
};

static long in_place(int rank, int size, int k) {
  long bad = 0;
  int *a = malloc((size_t)size * sizeof *a);
  int *v = malloc((size_t)size * 3 * sizeof *v);
  int *counts = malloc((size_t)size * sizeof *counts);
  int *displs = malloc((size_t)size * sizeof *displs);
  int *bytes = malloc((size_t)size * sizeof *bytes);
  MPI_Datatype *types = malloc((size_t)size * sizeof *types);
  for (int i = 0; i < size; i++) {
    a[i] = rank * 1000 + i + k;
    counts[i] = 2;
    displs[i] = 3 * i;
    bytes[i] = 3 * i * (int)sizeof(int);
    types[i] = MPI_INT;
    v[3 * i] = rank * 1000 + i;
    v[3 * i + 1] = -(rank * 1000 + i);
    v[3 * i + 2] = 4242; /* a gap */
  }
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 1, MPI_INT,
               MPI_COMM_WORLD);
  for (int i = 0; i < size; i++)
    bad += a[i] != i * 1000 + rank + k;
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, v, counts, displs,
                MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; i++)
    bad += v[3 * i] != i * 1000 + rank || v[3 * i + 1] != -(i * 1000 + rank) ||
           v[3 * i + 2] != 4242;
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, v, counts, bytes, types,
                MPI_COMM_WORLD); /* back */
  for (int i = 0; i < size; i++)
    bad += v[3 * i] != rank * 1000 + i || v[3 * i + 2] != 4242;
  free(a);
  free(v);
  free(counts);
  free(displs);
  free(bytes);
  free(types);
  return bad;
}

static long create_group(int rank, int size) {
  if (rank % 2)
    return 0;
  MPI_Group world, evens;
  int n = (size + 1) / 2, *ranks = malloc((size_t)n * sizeof *ranks);
  for (int i = 0; i < n; i++)
    ranks[i] = 2 * i;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, n, ranks, &evens);
  MPI_Comm c;
  long bad = MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c) != 0;
  int me = -1, sum = 0, csize = 0;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &csize);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
  bad += me != rank / 2 || csize != n || sum != n * (n - 1);
  MPI_Comm_free(&c);
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
  free(ranks);
  return bad;
}

static long counted(MPI_Status *st, MPI_Datatype type, int from) {
  int count = -1, elements = -1;
  MPI_Get_count(st, type, &count);
  MPI_Get_elements(st, type, &elements);
  return (st->MPI_SOURCE != from) + (count != 3) + (elements != 6);
}

static long get_count(int rank, int size, MPI_Datatype type, int k) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  struct item out[3], in[5];
  long bad = 0;
  for (int i = 0; i < 3; i++)
    out[i] = (struct item){rank + i + k, 0.5 * (rank + k)};
  MPI_Status st;
  MPI_Sendrecv(out, 3, type, right, 11, in, 5, type, left, 11, MPI_COMM_WORLD,
               &st);
  bad += counted(&st, type, left) + (in[2].i != left + 2 + k);
  MPI_Request req;
  MPI_Irecv(in, 5, type, left, 12, MPI_COMM_WORLD, &req);
  MPI_Send(out, 3, type, right, 12, MPI_COMM_WORLD);
  MPI_Wait(&req, &st);
  bad += counted(&st, type, left) + (in[1].d != 0.5 * (left + k));
  return bad;
}

static long request_free(int rank, int size, int k) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int x = rank * 10 + k, y = -1;
  MPI_Request req;
  MPI_Isend(&x, 1, MPI_INT, right, 13, MPI_COMM_WORLD, &req);
  MPI_Request_free(&req);
  long bad = req != MPI_REQUEST_NULL;
  MPI_Recv(&y, 1, MPI_INT, left, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD); /* x stays until the send is surely done */
  return bad + (y != left * 10 + k);
}

static long cancel(int rank, int size) {
  int left = (rank + size - 1) % size, y = 0, cancelled = 0;
  MPI_Request req;
  MPI_Status st;
  MPI_Irecv(&y, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  MPI_Test_cancelled(&st, &cancelled);
  return !cancelled || req != MPI_REQUEST_NULL;
}

static long queries(int size, MPI_Comm cart) {
  int *universe = NULL, *tag_ub = NULL, flag = 0, flag2 = 0, topo = -1;
  int cart_topo = -1;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag2);
  MPI_Topo_test(MPI_COMM_WORLD, &topo);
  MPI_Topo_test(cart, &cart_topo);
  return (!flag || *universe != size) + (!flag2 || *tag_ub < 32767) +
         (topo != MPI_UNDEFINED) + (cart_topo != MPI_CART);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, iters = argc > 1 ? atoi(argv[1]) : 20;
  int with_cancel = argc > 2 && !strcmp(argv[2], "cancel");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int blocks[2] = {1, 1};
  MPI_Aint displs[2] = {offsetof(struct item, i), offsetof(struct item, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, type;
  MPI_Type_create_struct(2, blocks, displs, types, &type);
  MPI_Type_commit(&type);
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  int k;
  long bad = 0;
  ft_protect(0, &k, sizeof k);
  ft_protect(1, &bad, sizeof bad);
  for (k = 0; k < iters; k++) {
    ft_snapshot();
    ft_compute(2e6);
    bad += in_place(rank, size, k);
    bad += create_group(rank, size);
    bad += get_count(rank, size, type, k);
    bad += request_free(rank, size, k);
    if (with_cancel)
      bad += cancel(rank, size);
    bad += queries(size, cart);
  }
  long all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("cover_check: %d iterations, %ld wrong: %s\n", iters, all,
           all ? "FAILED" : "every call checked");
  ft_report_result(all == 0, (double)iters);
  MPI_Comm_free(&cart);
  MPI_Type_free(&type);
  MPI_Finalize();
  return all ? 1 : 0;
}
