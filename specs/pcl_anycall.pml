/* Pcl in any-call mode: the protocol of pcl-vs-vcl-fgcs08, section 3,
 * Figure 2, as protocols/pcl plays it with ft_core_config.any_call (pcl.h,
 * "Any-call mode"): frozen channels, the delayed receive queue, and a
 * checkpoint at whatever MPI call a rank is in when it has every marker.
 *
 *   spin -DN=3 [-DBUG] -a pcl_anycall.pml   (specs/check.sh pcl_anycall 3)
 *
 * N ranks run IT iterations of a ring with no application contract: in
 * each, a blocking send of message k to the right neighbour (one MPI call),
 * then a blocking receive of message k from the left one (another call);
 * between two calls a rank computes. Messages are in flight at any moment,
 * at the cut too. Each rank has one channel to every other rank (FIFO, as
 * the paper's channels: markers travel in them, in order with the
 * application's messages; the runtime's contract, FT_EVENT_ARRIVED). A
 * message taken off a channel ARRIVES: it waits in the rank's receive
 * buffer (receivable) or, when the core says QUEUE, in the delayed receive
 * queue. The core, as pcl.c's ac_* functions: rank 0 at a nondeterministic
 * timer, and every rank at its first marker of the next wave, sends its
 * marker on every channel (value: the messages it sent on it before) and
 * freezes them: a send (APP_SEND) gets DEFER and stays pending in its
 * call until the checkpoint; a message arriving after its channel's marker
 * is queued; with every marker in, every message they count arrived, and
 * the rank in a call, it checkpoints and FLUSHes (the deferred send leaves,
 * the queue becomes receivable). The image: the rank's position (the call
 * it is in, or the computation it will resume before its next call), the
 * messages it sent and received, and the arrived receivable ones: not the
 * queue, not a deferred send (pending: re-posted after a rollback). The
 * image is stored at some later moment, CHECKPOINT_DONE goes to rank 0,
 * which commits. A failure, at any moment (up to MAXF): every rank rolls
 * back to the committed wave, every channel and queue is flushed, the
 * core's counts restart at 0.
 *
 * -DBUG: the delayed receive queue is not used (QUEUE treated as PASS): a
 * message sent after its sender's checkpoint may be in the receiver's
 * image: an orphan, received twice after a rollback. */

#ifndef N
#define N 2
#endif
#ifndef IT
#define IT 2 /* iterations per rank */
#endif
#ifndef MAXW
#if N >= 3
#define MAXW 1 /* waves started, over the whole run (rollbacks included) */
#else
#define MAXW 2
#endif
#endif
#ifndef MAXF
#define MAXF 1 /* failures */
#endif

#define LEFT(r) (((r) + N - 1) % N)
#define RIGHT(r) (((r) + 1) % N)

mtype = { MSG, MARK, DONE };

/* ch[from * N + to]: kind, wave, value (MSG: its number, 1, 2, ...). */
chan ch[N * N] = [IT + 2 * MAXW] of { mtype, byte, byte };

/* Where the application of a rank is. */
#define P_SEND 0    /* computing; its next call sends */
#define P_IN_SEND 1 /* in the send call (deferred: dfr) */
#define P_RECV 2    /* computing; its next call receives */
#define P_IN_RECV 3 /* in the receive call, waiting for its message */
#define P_END 4     /* every iteration done */
#define IN_CALL(r) (pc[r] == P_IN_SEND || pc[r] == P_IN_RECV)

/* The core's phase (pcl.c enum pcl_phase, any-call mode). */
#define IDLE 0
#define MARKING 3
#define STORING 4
#define STORED 5

/* Application: sent and received message numbers, the last message
 * arrived receivable (arrived - rcvd are in the receive buffer), the
 * queue's length, a deferred send pending. */
byte pc[N], snt[N], rcvd[N], arr[N], q[N], dfr[N];
/* Core: phase, wave, markers in; per channel (from * N + to): messages
 * sent (csent[r * N + to]) and arrived (carr[from * N + r]) since the
 * rollback, the marker's value, whether it is in. */
byte phase[N], wave[N], nmark[N];
byte csent[N * N], carr[N * N], mat[N * N];
bool markin[N * N];
byte ndone; /* rank 0 only */

/* Images: the wave in progress and the committed one. */
byte img_wave[N], img_pc[N], img_snt[N], img_rcvd[N], img_arr[N];
byte com_wave, com_pc[N], com_snt[N], com_rcvd[N], com_arr[N];

byte waves, failures;
/* Scratch, 0 between steps. */
byte t_j, t_k, t_w, t_v, t_ok;

/* The committed cut: every rank's image holds exactly the messages its
 * left neighbour sent before its own checkpoint: none sent after (no
 * orphan), none lost in transit (Pcl stores no channel state: they are in
 * the receiver's image as arrived, received or not). */
#if N == 2
#define CUT_OK (com_arr[1] == com_snt[0] && com_arr[0] == com_snt[1] && \
                com_rcvd[0] <= com_arr[0] && com_rcvd[1] <= com_arr[1])
#define ALL_END (pc[0] == P_END && pc[1] == P_END)
#else
#define CUT_OK (com_arr[1] == com_snt[0] && com_arr[2] == com_snt[1] && \
                com_arr[0] == com_snt[2] && com_rcvd[0] <= com_arr[0] && \
                com_rcvd[1] <= com_arr[1] && com_rcvd[2] <= com_arr[2])
#define ALL_END (pc[0] == P_END && pc[1] == P_END && pc[2] == P_END)
#endif

ltl consistent { [] CUT_OK }

inline send_msg(r) {
  snt[r]++;
  ch[r * N + RIGHT(r)]!MSG, 0, snt[r];
  printf("MSC: rank %d sends message %d\n", r, snt[r])
}

/* CHECKPOINT then FLUSH (pcl.c ac_try_checkpoint): the image, then the
 * deferred send leaves (its call returns) and the queue is released. */
inline checkpoint(r) {
  printf("MSC: rank %d checkpoints wave %d in call %d (sent %d, received %d, arrived %d, queued %d, deferred %d)\n",
         r, wave[r], pc[r], snt[r], rcvd[r], arr[r], q[r], dfr[r]);
  img_wave[r] = wave[r]; img_pc[r] = pc[r]; img_snt[r] = snt[r];
  img_rcvd[r] = rcvd[r]; img_arr[r] = arr[r];
  phase[r] = STORING;
  arr[r] = arr[r] + q[r]; q[r] = 0;
  if
  :: dfr[r] -> dfr[r] = 0; send_msg(r); pc[r] = P_RECV
  :: else -> skip
  fi
}

inline try_checkpoint(r) {
  t_ok = (phase[r] == MARKING && nmark[r] == N - 1 && IN_CALL(r));
  t_j = 0;
  do
  :: t_j < N ->
     if
     :: t_j != r && !(markin[t_j * N + r] && carr[t_j * N + r] >= mat[t_j * N + r]) ->
        t_ok = 0
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0;
  if :: t_ok -> checkpoint(r) :: else -> skip fi;
  t_ok = 0
}

/* Markers on every channel, each with the count of messages before it.
 * `w` must not be an expression of wave[r] (inline arguments are text). */
inline mark(r, w) {
  wave[r] = w; phase[r] = MARKING; nmark[r] = 0;
  t_j = 0;
  do
  :: t_j < N ->
     markin[t_j * N + r] = 0; mat[t_j * N + r] = 0;
     if
     :: t_j != r -> ch[r * N + t_j]!MARK, w, csent[r * N + t_j]
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0
}

inline commit() {
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_wave[t_j] == wave[0]);
     com_pc[t_j] = img_pc[t_j]; com_snt[t_j] = img_snt[t_j];
     com_rcvd[t_j] = img_rcvd[t_j]; com_arr[t_j] = img_arr[t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_wave = wave[0];
  printf("MSC: rank 0 commits wave %d\n", com_wave);
  assert(CUT_OK);
  phase[0] = IDLE
}

inline count_done() {
  ndone++;
  if :: ndone == N -> commit() :: else -> skip fi
}

/* The head of channel from -> r, received into t_k, t_w, t_v. */
inline arrive(r, from) {
  if
  :: t_k == MSG ->
     carr[from * N + r]++;
     printf("MSC: message %d of rank %d arrives at rank %d\n", t_v, from, r);
     /* FIFO, nothing lost or delivered twice, across rollbacks too. */
     assert(t_v == arr[r] + q[r] + 1);
#ifdef BUG
     arr[r]++
#else
     if
     :: phase[r] == MARKING && markin[from * N + r] &&
        carr[from * N + r] > mat[from * N + r] -> q[r]++ /* QUEUE */
     :: else -> arr[r]++
     fi
#endif
     ;
     try_checkpoint(r)
  :: t_k == MARK ->
     if
     :: phase[r] == IDLE && r != 0 && t_w == wave[r] + 1 -> mark(r, t_w)
     :: else -> skip
     fi;
     assert(phase[r] == MARKING && t_w == wave[r] && !markin[from * N + r] &&
            t_v >= carr[from * N + r]);
     markin[from * N + r] = 1; mat[from * N + r] = t_v; nmark[r]++;
     try_checkpoint(r)
  :: t_k == DONE ->
     assert(r == 0 && t_w == wave[0] && phase[0] != IDLE);
     count_done()
  fi;
  t_k = 0; t_w = 0; t_v = 0
}

#define FROM(J) \
  :: d_step { J < N && J != i && nempty(ch[J * N + i]) -> \
       ch[J * N + i]?t_k, t_w, t_v; arrive(i, J) }

proctype Rank(byte i) {
end:
  do
  /* CALL: a send call, a checkpoint location. */
  :: d_step { pc[i] == P_SEND -> pc[i] = P_IN_SEND; try_checkpoint(i) }
  /* APP_SEND: PASS (the call returns) or DEFER (it stays pending). */
  :: d_step { pc[i] == P_IN_SEND && !dfr[i] ->
       csent[i * N + RIGHT(i)]++;
       if
       :: phase[i] == MARKING -> dfr[i] = 1;
          printf("MSC: rank %d defers message %d\n", i, snt[i] + 1)
       :: else -> send_msg(i); pc[i] = P_RECV
       fi }
  :: d_step { pc[i] == P_RECV -> pc[i] = P_IN_RECV; try_checkpoint(i) }
  :: d_step { pc[i] == P_IN_RECV && rcvd[i] < arr[i] ->
       rcvd[i]++;
       printf("MSC: rank %d receives message %d\n", i, rcvd[i]);
       if :: rcvd[i] == IT -> pc[i] = P_END :: else -> pc[i] = P_SEND fi }
  /* IMAGE_STORED, at any later moment. */
  :: d_step { phase[i] == STORING ->
       if
       :: i == 0 -> phase[0] = STORED; count_done()
       :: else -> ch[i * N + 0]!DONE, wave[i], 0; phase[i] = IDLE
       fi }
  /* Rank 0's timer. */
  :: d_step { i == 0 && phase[0] == IDLE && waves < MAXW ->
       waves++; ndone = 0;
       printf("MSC: rank 0 starts wave %d\n", wave[0] + 1);
       t_w = wave[0] + 1; mark(0, t_w); t_w = 0;
       try_checkpoint(0) }
  FROM(0)
  FROM(1)
  FROM(2)
  od
}

inline flush(c) {
  do :: nempty(c) -> c?_, _, _ :: empty(c) -> break od
}

/* A failure, at any moment: every rank restarts from the committed wave;
 * what is in flight, queued or in progress is dropped. */
proctype Failures() {
end:
  do
  :: d_step { failures < MAXF ->
       failures++;
       printf("MSC: FAILURE: every rank rolls back to wave %d\n", com_wave);
       t_j = 0;
       do
       :: t_j < N * N ->
          flush(ch[t_j]); csent[t_j] = 0; carr[t_j] = 0; mat[t_j] = 0;
          markin[t_j] = 0; t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          pc[t_j] = com_pc[t_j]; snt[t_j] = com_snt[t_j];
          rcvd[t_j] = com_rcvd[t_j]; arr[t_j] = com_arr[t_j];
          q[t_j] = 0; dfr[t_j] = 0;
          phase[t_j] = IDLE; wave[t_j] = com_wave; nmark[t_j] = 0;
          img_wave[t_j] = 0; img_pc[t_j] = 0; img_snt[t_j] = 0;
          img_rcvd[t_j] = 0; img_arr[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       ndone = 0 }
  od
}

/* Every run ends with every rank done: no deadlock (a deferred send or a
 * queued message the receiver waits for is always released), after
 * rollbacks too. */
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
