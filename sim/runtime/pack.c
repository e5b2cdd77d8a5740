/* Packed copies of messages in any datatype (runtime.h, ft_pack_copy): the
 * sender-based log of message logging and vcl's channel state.
 *
 * The packed size of a message is count x the type's size: packing keeps
 * the data and drops the gaps. SMPI 3.32's MPI_Pack_size returns count x
 * max(size, extent) cut to an int instead, and the extent of a legal type
 * can be anything: a struct over two allocations built with absolute
 * addresses (sent from MPI_BOTTOM) spans the distance between them,
 * terabytes; a resized type may claim gigabytes. Cut to an int, that gave
 * a negative size half the time, MPI_Pack refused the buffer, and a 0-byte
 * message went out (issue 14, item 5; examples/datatypes). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime.h"

void *ft_pack_copy(struct ft_runtime *rt, const void *buf, int count,
                   MPI_Datatype type, MPI_Comm comm, size_t *bytes) {
  int size = 0, position = 0;
  FT_PMPI(Type_size, type, &size);
  uint64_t want = (uint64_t)(count > 0 ? count : 0) * (uint64_t)size;
  if (want > INT_MAX)
    ft_fatal("rank %d: a message of %llu bytes (%d elements of %d bytes): "
             "more than one MPI_PACKED message can carry",
             rt->world_rank, (unsigned long long)want, count, size);
  void *data = malloc(want > 0 ? (size_t)want : 1);
  if (!data)
    ft_fatal("rank %d: out of memory for a packed copy of %llu bytes",
             rt->world_rank, (unsigned long long)want);
  if (want > 0)
    FT_PMPI(Pack, buf, count, type, data, (int)want, &position, comm);
  if ((uint64_t)position != want)
    ft_fatal("rank %d: MPI_Pack of %d elements of %d bytes gave %d bytes",
             rt->world_rank, count, size, position);
  *bytes = (size_t)position;
  return data;
}
