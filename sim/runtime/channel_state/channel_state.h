/* Channel state in the runtime (the family of non-blocking coordinated
 * checkpoints: vcl): the copies of the application's state a wave
 * captures, the messages kept as channel state, their replay after a
 * rollback, and the family's driver. Its state is `rt->cs` (cs_state.h). */
#ifndef FT_CHANNEL_STATE_H
#define FT_CHANNEL_STATE_H

#include <mpi.h>
#include <stdint.h>

#include "runtime/driver.h"
#include "runtime/runtime.h"
#include "runtime/service_role.h"

/* The family's own wire kinds (control.h: numbered from
 * FT_WIRE_FAMILY_BASE), those of the replay after a rollback. */
enum ft_cs_wire {
  FT_WIRE_REPLAY_COUNT = FT_WIRE_FAMILY_BASE, /* receiver -> sender: value =
                                                 messages of yours in my
                                                 channel state */
  FT_WIRE_REPLAY /* ... one of them: value = packed bytes (they follow on
                    FT_TAG_REPLAY), x = communicator index, my rank in it,
                    tag */
};

/* The family's own tag on the control communicator (control.h). */
enum { FT_TAG_REPLAY = FT_TAG_FAMILY_BASE /* channel-state payloads */ };

/* The image region of the channel state (serialised records). */
enum { FT_CHANNEL_REGION = FT_MAX_REGIONS };

/* ---- Records (channel_state.c) ---- */

/* Keeps the payload of a delivery the core said RECORD for: the message
 * number seq from application rank peer on c (the driver's record hook). */
void ft_channel_record(struct ft_runtime *rt, int peer, int64_t seq,
                       const struct ft_comm *c, const void *buf, int count,
                       MPI_Datatype type, const MPI_Status *status);
/* Keeps the records in the ranges, drops the others; aborts when a range
 * names a message that was not recorded. */
void ft_channel_keep(struct ft_runtime *rt, const struct ft_record_range *keep,
                     size_t n);
/* Drops every record (a rollback). */
void ft_channel_clear(struct ft_cs *cs);
/* The records, serialised: size, then written into dst (size bytes). */
size_t ft_channel_size(const struct ft_cs *cs);
void ft_channel_write(const struct ft_cs *cs, void *dst);

/* ---- Replay (channel_state.c) ---- */

/* At the first safe point after a rollback: hands every recorded message
 * back to its sender, and resends (as their sender) those recorded by the
 * others, before the application goes on. `region` is this rank's channel
 * state from its image (NULL, 0: none). */
void ft_channel_replay(struct ft_runtime *rt, const void *region, size_t size);
/* Control messages of the replay (FT_WIRE_REPLAY_COUNT, FT_WIRE_REPLAY). */
void ft_channel_on_count(struct ft_runtime *rt, const struct ft_wire *m);
void ft_channel_on_message(struct ft_runtime *rt, const struct ft_wire *m);
/* Forgets what a replay in progress received (a new rollback). */
void ft_channel_reset_replay(struct ft_cs *cs);
/* Waits for the replayed sends still in flight and frees them
 * (MPI_Finalize). */
void ft_channel_finish(struct ft_runtime *rt);
/* A rollback's settle: waits for (wait = 1) or forgets (0) the replayed
 * sends of the abandoned runs. */
void ft_channel_settle(struct ft_runtime *rt, int wait);

/* ---- Driver (cs_driver.c) ---- */

/* Channel state's driver (driver.h): the default point-to-point path, and
 * the hooks that capture, store and replay the channel state. */
extern const struct ft_driver ft_cs_driver;

/* Its service ranks' role: the checkpoint scheduler (scheduler.c). */
extern const struct ft_service_role ft_cs_scheduler;

#endif /* FT_CHANNEL_STATE_H */
