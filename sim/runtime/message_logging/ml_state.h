/* Message logging's per-rank state (issue 15, "explicit state"): what the
 * ml_*.c modules own, one struct per module, held by the rank's root
 * (`struct ft_runtime`'s `ml_state`) and handed down by the entry points
 * of msglog.h. The elements are declared in msglog.h or, private to a
 * module, in its .c file: this header only says who owns what, so that
 * runtime.h can hold it. */
#ifndef FT_ML_STATE_H
#define FT_ML_STATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

struct ft_ml_channel;
struct ft_ml_entry;
struct ft_ml_req;
struct ft_ml_record;
struct ft_logged_event;

/* A send from the sender-based log to a restarted peer, on its way. */
struct ft_ml_resend {
  MPI_Request req;
  void *data; /* the entry's, in the log or in limbo */
};

/* The channel table and the sender-based log (ml_channels.c). */
struct ft_ml_channels {
  int rank; /* this rank's world rank (messages) */
  struct ft_ml_channel *at;
  size_t n, cap;
  int *slots; /* open addressing: index + 1 into `at`, 0 empty */
  size_t n_slots;
  struct ft_ml_entry *limbo; /* entries of a lost life still sending */
  size_t n_limbo, cap_limbo;
  struct ft_ml_resend *resends; /* resends still on their way */
  size_t n_resends, cap_resends;
  uint64_t resent; /* messages resent to restarted peers (summary) */
};

/* The operations of the application and the collectives (ml_ops.c). */
struct ft_ml_ops {
  struct ft_ml_req *reqs; /* the requests it holds */
  size_t n_reqs, cap_reqs;
  struct ft_ml_req *zombies; /* receives of a lost life, still posted */
  size_t n_zombies, cap_zombies;
  struct ft_ml_req *restored; /* any-call mode: the requests the restored
                                 image held pending, by id, until the
                                 replay names their handles */
  size_t n_restored, cap_restored;
};

/* The logged events of a restart (ml_replay.c). */
struct ft_ml_replay {
  struct ft_logged_event *events; /* by id, then logging order */
  size_t n_events;
  int64_t horizon; /* the last logged id: beyond it, live */
  int fetched;     /* the answer to this life's request came */
};

/* A restart's answers to its resend requests (ml_control.c). */
struct ft_ml_answers {
  int n;                    /* answers in */
  struct ft_ml_record **at; /* each: a header, then the channels' records;
                               kept until the zombies are fed */
};

/* All of message logging's state. */
struct ft_ml {
  int waiting;         /* a send waits for the logger's acks */
  double acked_at;     /* when the logger's acks last released the sends */
  double platform_rtt; /* the platform's round trip to a service, seconds
                          (ft_backend_service_rtt, read at start) */
  int64_t clock;       /* the last id the core gave */
  int life;            /* restarts of this rank so far */
  int pre_marked;      /* the first safe point of the first run passed */
  uint64_t events, el_messages, sb_bytes, deliveries; /* summary figures */
  uint64_t restarts;
  uint64_t ckpt_calls, ckpt_pending; /* any-call mode: checkpoints taken,
                                        and those with requests pending */
  struct ft_ml_channels channels;
  struct ft_ml_ops ops;
  struct ft_ml_replay replay;
  struct ft_ml_answers answers;
  double *route_mbps; /* per world rank, 0: not asked yet (sb_bus_mbps) */
};

#endif /* FT_ML_STATE_H */
