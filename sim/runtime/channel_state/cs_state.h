/* Channel state's per-rank state (non-blocking coordinated checkpoints):
 * what sim/runtime/channel_state/ owns, held by the rank's root
 * (`struct ft_runtime`'s `cs`) and handed down by its driver's hooks. This
 * header only says what the family keeps, so that runtime.h can hold it;
 * the functions are in channel_state.h. */
#ifndef FT_CS_STATE_H
#define FT_CS_STATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"

/* Room for the application's protected buffers (FT_MAX_REGIONS, runtime.h;
 * checked where the copies are made). */
enum { FT_CS_MAX_REGIONS = 64 };

/* A copy of the protected buffers at one safe point (the retained copy,
 * then the captured checkpoint), in id order; regions[i].ptr points into
 * bytes. */
struct ft_state_copy {
  int64_t index; /* safe point; 0: empty */
  int wave;      /* captured: the wave it belongs to */
  void *bytes;
  size_t size, n;
  struct ft_image_region regions[FT_CS_MAX_REGIONS];
};

/* A delivered message kept as channel state. */
struct ft_record {
  int peer;    /* application rank of the sender */
  int64_t seq; /* its number among the messages from peer */
  int comm;    /* its communicator's name (ft_comm.name) */
  int dest;    /* this rank's rank in that communicator */
  int tag;
  size_t bytes; /* packed payload (MPI_Pack) */
  void *data;
  MPI_Request req; /* a send of it in flight, or MPI_REQUEST_NULL */
};

/* All of channel state's per-rank state. */
struct ft_cs {
  struct ft_state_copy retained, captured;
  struct ft_record *records; /* provisional channel state, delivery order */
  size_t n_records, cap_records;
  int replay_counts;           /* restore: REPLAY_COUNT messages received */
  int64_t replay_expected;     /* restore: messages they announce */
  struct ft_record *to_resend; /* restore: received back, to send again */
  size_t n_to_resend, cap_to_resend;
  struct ft_record *resent; /* sends of the replay still in flight */
  size_t n_resent, cap_resent;
  uint64_t recorded, replays; /* messages kept as channel state, replayed */
};

#endif /* FT_CS_STATE_H */
