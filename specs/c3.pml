/* C3: application-level non-blocking coordinated checkpointing as ftsim's
 * core plays it (protocols/c3/c3.h, steps 1-6; c3-collectives, section 3).
 *
 *   spin -DN=3 [-DBUG] -a c3.pml   (specs/check.sh c3 3 [bug])
 *
 * N ranks run IT iterations of a ring: at the top of each iteration a
 * potential checkpoint location (ft_snapshot), then send message k to the
 * right neighbour and receive message k from the left one on FIFO
 * channels; every message carries its sender's epoch and amLogging bit
 * (section 3.3). Rank 0 is the initiator: at a nondeterministic "timer" it
 * sends PLEASE to every rank; a rank asked checkpoints at its next safe
 * point (no hold: ranks checkpoint at different iterations, so messages
 * cross the recovery line both ways), sends every rank its send count of
 * the epoch it closed, logs every late message (epoch behind) and counts
 * every early one (epoch ahead: its suppress list, saved with the
 * checkpoint); READY to rank 0 once its late messages are in; rank 0 sends
 * STOP when every rank is ready; a rank stops logging on STOP or on a
 * message of its epoch whose sender stopped, stores its log, STOPPED to
 * rank 0, which commits when every log is stored. An environment process
 * fails the run at any moment (up to MAXF times): every rank restores the
 * committed checkpoint, messages in flight are dropped (a fresh
 * incarnation); each rank then receives its logged late messages from its
 * log, and skips (suppresses) the sends its right neighbour's checkpoint
 * already holds. No checkpoint starts before every rank is done with its
 * recovery (RECOVERED to rank 0).
 *
 * Each step of a rank is one d_step over global state, so that a failure
 * always finds every rank between two steps of its core.
 *
 * -DBUG: no suppress list: early messages are not recorded, and a
 * recovering rank sends them again. */

#ifndef N
#define N 2
#endif
/* Bounds: 2 ranks: 4 iterations, 2 failures (0.2 M states); 3 ranks: 2
 * iterations, 1 failure (0.6 M states; 3 iterations exceed pan's 1 GB). */
#ifndef IT
#if N >= 3
#define IT 2 /* iterations (safe points) per rank */
#else
#define IT 4
#endif
#endif
#ifndef MAXW
#define MAXW 2 /* checkpoints started, over the whole run */
#endif
#ifndef MAXF
#if N >= 3
#define MAXF 1 /* failures */
#else
#define MAXF 2
#endif
#endif

#define LEFT(r) (((r) + N - 1) % N)
#define RIGHT(r) (((r) + 1) % N)

mtype = { PLEASE, COUNT, READY, STOP, STOPPED, RECOVERED };

/* Application messages: channel r carries rank r's messages to RIGHT(r):
 * number, sender's epoch, sender's amLogging. Control: ctl[from * N + to]:
 * kind, wave, value. */
chan app[N] = [IT] of { byte, byte, bit };
chan ctl[N * N] = [4] of { mtype, byte, byte };

#define PC_SP 0   /* before its next safe point */
#define PC_SEND 2 /* in iteration idx, about to send */
#define PC_RECV 3 /* in iteration idx, about to receive */
#define PC_END 4  /* every iteration done */

/* The core's phase (enum ft_c3_phase). */
#define IDLE 0
#define ASKED 1
#define LOGGING 2
#define STORING 3
#define COMMITTED 4 /* rank 0: own log stored, waiting for the others */

byte pc[N], idx[N], sent[N], rcvd[N]; /* application state */
byte phase[N], epoch[N];              /* core state */
bit logging[N], ready[N];
byte ep_sent[N];                        /* sent in this epoch (to RIGHT) */
byte r_prev[N], r_cur[N], r_next[N];    /* received of LEFT, by its epoch */
byte expected[N], ncount[N];            /* SEND_COUNTs of this checkpoint */
byte late[N], early[N];                 /* logged; suppress list pending */
byte nready, nstopped;                  /* rank 0 */
byte nrecovered = N; /* rank 0: ranks done with their recovery */

/* Images: the one in progress and the committed one. */
byte img_epoch[N], img_idx[N], img_sent[N], img_rcvd[N], img_sup[N];
byte img_late[N];
byte com_epoch, com_idx[N], com_sent[N], com_rcvd[N], com_sup[N];
byte com_late[N];

/* Recovery: sends still to suppress, late messages still in the log;
 * done: RECOVERED sent (counted, rank 0). */
byte to_suppress[N], from_log[N];
bit recovering[N];

byte waves, failures;
byte t_j, t_k, t_w, t_v, t_m, t_e;
bit t_l;

/* The committed recovery line is consistent once late messages are
 * replayed and early ones suppressed (section 2.3): for each channel
 * LEFT(r) -> r, what r received before its checkpoint without the early
 * messages is what LEFT(r) sent before its own without the late ones: no
 * message lost, none delivered twice. */
#define CHAN_OK(r) (com_rcvd[r] - com_sup[r] == com_sent[LEFT(r)] - com_late[r])
#if N == 2
#define LINE_OK (CHAN_OK(0) && CHAN_OK(1))
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END)
#else
#define LINE_OK (CHAN_OK(0) && CHAN_OK(1) && CHAN_OK(2))
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END && pc[2] == PC_END)
#endif

ltl consistent { [] LINE_OK }

inline broadcast(r, kind, w) {
  t_j = 0;
  do
  :: t_j < N ->
     if
     :: t_j != r && kind == COUNT && t_j == RIGHT(r) ->
        ctl[r * N + t_j]!kind, w, ep_sent[r]
     :: t_j != r && !(kind == COUNT && t_j == RIGHT(r)) ->
        ctl[r * N + t_j]!kind, w, 0
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0
}

inline stop_logging(r) {
  printf("MSC: rank %d stops logging (%d late messages logged)\n", r, late[r]);
  logging[r] = 0;
  img_late[r] = late[r];
  phase[r] = STORING;
  ncount[r] = 0; expected[r] = 0; ready[r] = 0
}

inline on_ready() {
  nready++;
  if
  :: nready == N ->
     broadcast(0, STOP, epoch[0]);
     if :: logging[0] -> stop_logging(0) :: else -> skip fi
  :: else -> skip
  fi
}

inline check_ready(r) {
  if
  :: phase[r] == LOGGING && !ready[r] && ncount[r] == N - 1 &&
     r_prev[r] == expected[r] ->
     ready[r] = 1;
     if
     :: r == 0 -> on_ready()
     :: else -> ctl[r * N + 0]!READY, epoch[r], 0
     fi
  :: else -> skip
  fi
}

/* CAPTURE at this safe point: the image holds the application's state
 * and the suppress list; SEND_COUNTs to every rank. */
inline take_checkpoint(r) {
  epoch[r]++;
  printf("MSC: rank %d checkpoints epoch %d at safe point %d (sent %d, received %d, early %d)\n",
         r, epoch[r], idx[r], sent[r], rcvd[r], early[r]);
  img_epoch[r] = epoch[r]; img_idx[r] = idx[r];
  img_sent[r] = sent[r]; img_rcvd[r] = rcvd[r]; img_sup[r] = early[r];
  early[r] = 0; late[r] = 0;
  logging[r] = 1; phase[r] = LOGGING;
  to_suppress[r] = 0; from_log[r] = 0;
  broadcast(r, COUNT, epoch[r]);
  ep_sent[r] = 0;
  r_prev[r] = r_cur[r]; r_cur[r] = r_next[r]; r_next[r] = 0;
  check_ready(r)
}

/* A restored rank whose suppress list and log are used up tells rank 0,
 * which starts no checkpoint before every rank did: a checkpoint taken
 * with suppressed sends or logged messages still to come would lose them
 * (their ids and counts belong to the epoch restored). */
inline check_recovered(r) {
  if
  :: recovering[r] && to_suppress[r] == 0 && from_log[r] == 0 ->
     recovering[r] = 0;
     if
     :: r == 0 -> nrecovered++
     :: else -> ctl[r * N + 0]!RECOVERED, epoch[r], 0
     fi
  :: else -> skip
  fi
}

inline safe_point(r) {
  idx[r]++;
  if
  :: phase[r] == ASKED -> take_checkpoint(r)
  :: else -> skip
  fi;
  pc[r] = PC_SEND
}

inline send(r) {
  sent[r]++;
  if
  :: to_suppress[r] > 0 ->
     /* SUPPRESS: the right neighbour's checkpoint holds it. */
     printf("MSC: rank %d suppresses message %d\n", r, sent[r]);
     to_suppress[r]--;
     check_recovered(r)
  :: else ->
     ep_sent[r]++;
     app[r]!sent[r], epoch[r], logging[r];
     printf("MSC: rank %d sends message %d (epoch %d, logging %d)\n", r,
            sent[r], epoch[r], logging[r])
  fi;
  pc[r] = PC_RECV
}

/* DELIVERED of message t_m (epoch t_e, logging t_l) of LEFT(r). */
inline classify(r) {
  if
  :: t_e == epoch[r] ->
     r_cur[r]++;
     if
     :: logging[r] && !t_l -> stop_logging(r)
     :: else -> skip
     fi
  :: t_e + 1 == epoch[r] ->
     /* late: logged; a rank cannot get one once it stopped logging */
     assert(phase[r] == LOGGING);
     late[r]++; r_prev[r]++;
     check_ready(r)
  :: t_e == epoch[r] + 1 ->
     assert(phase[r] == IDLE || phase[r] == ASKED);
#ifndef BUG
     early[r]++;
#endif
     r_next[r]++
  :: else -> assert(false)
  fi
}

inline received(r) {
  /* FIFO, nothing lost or delivered twice, across rollbacks too. */
  assert(t_m == rcvd[r] + 1);
  rcvd[r]++;
  if :: idx[r] == IT -> pc[r] = PC_END :: else -> pc[r] = PC_SP fi;
  t_m = 0; t_e = 0; t_l = 0
}

inline commit() {
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_epoch[t_j] == epoch[0]);
     com_idx[t_j] = img_idx[t_j]; com_sent[t_j] = img_sent[t_j];
     com_rcvd[t_j] = img_rcvd[t_j]; com_sup[t_j] = img_sup[t_j];
     com_late[t_j] = img_late[t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_epoch = epoch[0];
  printf("MSC: rank 0 commits epoch %d\n", com_epoch);
  assert(LINE_OK);
  phase[0] = IDLE; nstopped = 0; nready = 0
}

inline on_stopped() {
  nstopped++;
  if :: nstopped == N -> commit() :: else -> skip fi
}

inline on_control(r, from) {
  if
  :: t_k == PLEASE ->
     assert(from == 0 && phase[r] == IDLE && t_w == epoch[r] + 1);
     phase[r] = ASKED
  :: t_k == COUNT ->
     assert((phase[r] == LOGGING && t_w == epoch[r]) ||
            ((phase[r] == IDLE || phase[r] == ASKED) && t_w == epoch[r] + 1));
     ncount[r]++;
     if :: from == LEFT(r) -> expected[r] = t_v :: else -> assert(t_v == 0) fi;
     check_ready(r)
  :: t_k == READY ->
     assert(r == 0 && t_w == epoch[0]);
     on_ready()
  :: t_k == STOP ->
     assert(t_w == epoch[r] && phase[r] != ASKED);
     if :: logging[r] -> stop_logging(r) :: else -> skip fi
  :: t_k == STOPPED ->
     assert(r == 0 && t_w == epoch[0]);
     on_stopped()
  :: t_k == RECOVERED ->
     assert(r == 0 && t_w == epoch[0]);
     nrecovered++
  fi;
  t_k = 0; t_w = 0; t_v = 0
}

#define CONTROL_FROM(J) \
  :: d_step { J < N && J != i && nempty(ctl[J * N + i]) -> \
       ctl[J * N + i]?t_k, t_w, t_v; on_control(i, J) }

proctype Rank(byte i) {
end:
  do
  :: d_step { pc[i] == PC_SP -> safe_point(i) }
  :: d_step { pc[i] == PC_SEND -> send(i) }
  /* A late message of the restored log, before the channel's. */
  :: d_step { pc[i] == PC_RECV && from_log[i] > 0 ->
       from_log[i]--; t_m = rcvd[i] + 1;
       printf("MSC: rank %d receives message %d from its log\n", i, t_m);
       received(i);
       check_recovered(i) }
  :: d_step { pc[i] == PC_RECV && from_log[i] == 0 && nempty(app[LEFT(i)]) ->
       app[LEFT(i)]?t_m, t_e, t_l;
       printf("MSC: rank %d receives message %d (epoch %d)\n", i, t_m, t_e);
       classify(i);
       received(i) }
  /* IMAGE_STORED, at any later moment. */
  :: d_step { phase[i] == STORING ->
       if
       :: i == 0 -> phase[0] = COMMITTED; on_stopped()
       :: else -> ctl[i * N + 0]!STOPPED, epoch[i], 0; phase[i] = IDLE
       fi }
  /* Rank 0's timer: a checkpoint is due. */
  :: d_step { i == 0 && phase[0] == IDLE && waves < MAXW &&
               nrecovered == N ->
       waves++;
       printf("MSC: rank 0 initiates epoch %d\n", epoch[0] + 1);
       broadcast(0, PLEASE, epoch[0] + 1);
       phase[0] = ASKED }
  CONTROL_FROM(0)
  CONTROL_FROM(1)
  CONTROL_FROM(2)
  od
}

inline flush(c) {
  do :: nempty(c) -> c?_, _, _ :: empty(c) -> break od
}

/* A failure, at any moment: every rank restores the committed checkpoint
 * (ROLLBACK): its state, epoch, the late messages of its log to receive
 * first, and the sends its right neighbour's suppress list names. */
proctype Failures() {
end:
  do
  :: d_step { failures < MAXF ->
       failures++;
       printf("MSC: FAILURE: every rank rolls back to epoch %d\n", com_epoch);
       t_j = 0;
       do
       :: t_j < N * N -> flush(ctl[t_j]); t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          flush(app[t_j]);
          idx[t_j] = com_idx[t_j]; sent[t_j] = com_sent[t_j];
          rcvd[t_j] = com_rcvd[t_j];
          if
          :: com_epoch == 0 -> pc[t_j] = PC_SP
          :: else -> pc[t_j] = PC_SEND
          fi;
          phase[t_j] = IDLE; epoch[t_j] = com_epoch; logging[t_j] = 0;
          ready[t_j] = 0; ep_sent[t_j] = 0;
          r_prev[t_j] = 0; r_cur[t_j] = 0; r_next[t_j] = 0;
          expected[t_j] = 0; ncount[t_j] = 0; late[t_j] = 0; early[t_j] = 0;
          from_log[t_j] = com_late[t_j];
          to_suppress[t_j] = com_sup[RIGHT(t_j)];
          recovering[t_j] = 1;
          img_epoch[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       nready = 0; nstopped = 0; nrecovered = 0;
       do
       :: t_j < N -> check_recovered(t_j); t_j++
       :: else -> break
       od;
       t_j = 0 }
  od
}

/* When nothing can move any more (timeout), every rank has finished: no
 * rank waits for a message lost at the recovery, no checkpoint stuck. */
proctype Watch() {
end:
  timeout -> assert(ALL_END)
}

init {
  atomic {
    byte r = 0;
    do
    :: r < N -> run Rank(r); r++
    :: else -> break
    od;
    run Failures();
    run Watch()
  }
}
