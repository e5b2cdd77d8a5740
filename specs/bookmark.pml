/* Bookmark in any-call mode: LAM/MPI's drain (lam-mpi-blcr, sections 3.1
 * and 4.2, Figures 2 and 9), as protocols/bookmark plays it with
 * ft_core_config.any_call (bookmark.h, "Any-call mode"): frozen sends, the
 * staggered all-to-all of "sent" bookmarks, the drain, the delayed receive
 * queue, and a checkpoint at whatever MPI call a rank is in once drained.
 *
 *   spin -DN=3 [-DBUG] -a bookmark.pml   (specs/check.sh bookmark 3)
 *
 * N ranks run IT iterations of a ring with no application contract: in
 * each, a blocking send of message k to the right neighbour (one MPI call),
 * then a blocking receive of message k from the left one (another call);
 * between two calls a rank computes. Messages are in flight at any moment,
 * at the cut too. Each rank has one channel to every other rank: its
 * application messages are FIFO and never overtake a core message their
 * sender sent earlier (the any-call transport's guarantee,
 * FT_EVENT_ARRIVED), while a core message may overtake the application
 * messages sent before it (it travels on the control communicator): a
 * bookmark can arrive before the messages it counts. A message taken off a channel
 * ARRIVES: it waits in the rank's receive buffer (receivable: drained) or,
 * when the core says QUEUE, in the delayed receive queue. The core, as
 * bookmark.c's ac_* functions: rank 0 at a nondeterministic timer sends
 * REQUEST to every rank (mpirun's checkpoint request); a rank enters the
 * wave at its timer (rank 0) or at the first REQUEST or BOOKMARK of the
 * next wave: it notes the messages it sent on each channel (its "sent"
 * bookmarks), freezes its sends (APP_SEND gets DEFER and stays pending in
 * its call until the checkpoint) and exchanges its bookmarks in the
 * staggered order of Figure 2: at step s it sends its bookmark to rank + s,
 * then waits for the one of rank - s. A message of a peer whose bookmark
 * is in and fully arrived is queued (sent after the peer's checkpoint).
 * With every bookmark in, every channel drained up to its bookmark and the
 * rank in a call, it checkpoints and FLUSHes (the deferred send leaves, the
 * queue becomes receivable). The image: the rank's position, the messages
 * it sent and received, and the arrived receivable ones (drained: "received
 * into the actual destination buffer" or an unexpected-message buffer), not
 * the queue, not a deferred send (pending: re-posted after a rollback). The
 * image is stored at some later moment, DONE goes to rank 0, which commits.
 * A failure, at any moment (up to MAXF): every rank rolls back to the
 * committed wave, every channel and queue is flushed, the core's counts
 * restart at 0 ("re-builds its communication channels ... and sets them to
 * 'empty'", section 3.1, restart step 5).
 *
 * -DBUG: the checkpoint is taken as soon as the bookmarks are exchanged,
 * without draining (bookmark-bug-nodrain): a message sent before its
 * sender's checkpoint may still be on the wire at the receiver's, in
 * neither image: the channel is not empty at the cut, and the message is
 * lost at a rollback. */

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

mtype = { MSG, CTL };
/* The kind of a message: an application message, or a core's control. */
#define K_MSG 1
#define K_REQ 2
#define K_BMK 3
#define K_DONE 4

/* ch[from * N + to]: kind, wave, value (MSG: its number, 1, 2, ...). */
/* ch[from * N + to]: MSG or CTL, kind, wave, value (MSG: its number, 1,
 * 2, ...). */
chan ch[N * N] = [IT + 3 * MAXW] of { mtype, byte, byte, byte };

/* Where the application of a rank is. */
#define P_SEND 0    /* computing; its next call sends */
#define P_IN_SEND 1 /* in the send call (deferred: dfr) */
#define P_RECV 2    /* computing; its next call receives */
#define P_IN_RECV 3 /* in the receive call, waiting for its message */
#define P_END 4     /* every iteration done */
#define IN_CALL(r) (pc[r] == P_IN_SEND || pc[r] == P_IN_RECV)

/* The core's phase (bookmark.c enum bm_phase, any-call mode). */
#define IDLE 0
#define EXCHANGING 3
#define STORING 4
#define STORED 5

/* Application: sent and received message numbers, the last message
 * arrived receivable (arrived - rcvd are in the receive buffer), the
 * queue's length, a deferred send pending. */
byte pc[N], snt[N], rcvd[N], arr[N], q[N], dfr[N];
/* Core: phase, wave, step of the staggered exchange (bookmark.c's `step`);
 * per channel (from * N + to): messages sent (csent[r * N + to]) and
 * arrived (carr[from * N + r]) since the rollback, the sender's bookmark
 * (its csent when it entered the wave: cut[r * N + to]), the bookmark
 * received (mat[from * N + r]), whether it is in. */
byte phase[N], wave[N], step[N];
byte csent[N * N], carr[N * N], cut[N * N], mat[N * N];
bool markin[N * N];
byte ndone; /* rank 0 only */

/* Images: the wave in progress and the committed one. */
byte img_wave[N], img_pc[N], img_snt[N], img_rcvd[N], img_arr[N];
byte com_wave, com_pc[N], com_snt[N], com_rcvd[N], com_arr[N];

byte waves, failures;
/* Scratch, 0 between steps. */
mtype t_m;
byte t_j, t_k, t_w, t_v, t_ok;

/* The committed cut holds empty channels (section 3.1: "all the MPI
 * communication channels between the processes are empty when a
 * checkpoint is taken"): every rank's image holds exactly the messages its
 * left neighbour sent before its own checkpoint, drained (arrived,
 * received or not): none sent after (no orphan), none still on the wire
 * (nothing in transit, for nothing records channel state). */
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

ltl drained { [] CUT_OK }

inline send_msg(r) {
  snt[r]++;
  ch[r * N + RIGHT(r)]!MSG, K_MSG, 0, snt[r];
  printf("MSC: rank %d sends message %d\n", r, snt[r])
}

/* CHECKPOINT then FLUSH (bookmark.c ac_try_checkpoint): the image, then the
 * deferred send leaves (its call returns) and the queue is released. */
inline checkpoint(r) {
  printf("MSC: rank %d checkpoints wave %d in call %d (sent %d, received %d, arrived %d, queued %d, deferred %d)\n",
         r, wave[r], pc[r], snt[r], rcvd[r], arr[r], q[r], dfr[r]);
  img_wave[r] = wave[r]; img_pc[r] = pc[r]; img_snt[r] = snt[r];
  img_rcvd[r] = rcvd[r]; img_arr[r] = arr[r];
  phase[r] = STORING; step[r] = 0;
  arr[r] = arr[r] + q[r]; q[r] = 0;
  if
  :: dfr[r] -> dfr[r] = 0; send_msg(r); pc[r] = P_RECV
  :: else -> skip
  fi
}

/* "When all the bookmarks match, the RPI has drained all the in-flight
 * data on the network" (section 4.2): every bookmark in, every channel
 * arrived up to it, the rank in a call. -DBUG: without the drain. */
inline try_checkpoint(r) {
  t_ok = (phase[r] == EXCHANGING && step[r] == N && IN_CALL(r));
#ifndef BUG
  t_j = 0;
  do
  :: t_j < N ->
     if
     :: t_j != r && carr[t_j * N + r] < mat[t_j * N + r] -> t_ok = 0
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0;
#endif
  if :: t_ok -> checkpoint(r) :: else -> skip fi;
  t_ok = 0
}

/* Step step[r] of Figure 2: the bookmark to rank + step. */
inline send_bookmark(r) {
  if
  :: step[r] < N ->
     ch[r * N + (r + step[r]) % N]!CTL, K_BMK, wave[r],
         cut[r * N + (r + step[r]) % N];
     printf("MSC: rank %d step %d: bookmark %d to rank %d\n", r, step[r],
            cut[r * N + (r + step[r]) % N], (r + step[r]) % N)
  :: else -> skip
  fi
}

/* Step s ends when the bookmark of rank - s is in. */
inline advance(r) {
  do
  :: step[r] < N && markin[((r + N - step[r]) % N) * N + r] ->
     step[r]++; send_bookmark(r)
  :: else -> break
  od
}

/* Enters wave w: the bookmarks are the messages sent so far; sends are
 * frozen from now on. `w` must not be an expression of wave[r] (inline
 * arguments are text). */
inline enter(r, w) {
  wave[r] = w; phase[r] = EXCHANGING;
  t_j = 0;
  do
  :: t_j < N ->
     markin[t_j * N + r] = 0; mat[t_j * N + r] = 0;
     cut[r * N + t_j] = csent[r * N + t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  printf("MSC: rank %d enters wave %d\n", r, w);
  step[r] = 1; send_bookmark(r); advance(r)
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
  :: t_k == K_MSG ->
     carr[from * N + r]++;
     printf("MSC: message %d of rank %d arrives at rank %d\n", t_v, from, r);
     /* FIFO, nothing lost or delivered twice, across rollbacks too. */
     assert(t_v == arr[r] + q[r] + 1);
     if
     :: phase[r] == EXCHANGING && markin[from * N + r] &&
        carr[from * N + r] > mat[from * N + r] -> q[r]++ /* QUEUE */
     :: else -> arr[r]++ /* drained */
     fi;
     try_checkpoint(r)
  :: t_k == K_REQ ->
     assert(from == 0 && (t_w == wave[r] + 1 || t_w == wave[r]));
     if
     :: phase[r] == IDLE && t_w == wave[r] + 1 -> enter(r, t_w)
     :: else -> skip
     fi;
     try_checkpoint(r)
  :: t_k == K_BMK ->
     if
     :: phase[r] == IDLE && t_w == wave[r] + 1 -> enter(r, t_w)
     :: else -> skip
     fi;
     assert(phase[r] == EXCHANGING && t_w == wave[r] &&
            !markin[from * N + r] && t_v >= carr[from * N + r]);
     markin[from * N + r] = 1; mat[from * N + r] = t_v;
     printf("MSC: rank %d gets the bookmark of rank %d: it sent %d, %d arrived\n",
            r, from, t_v, carr[from * N + r]);
     advance(r);
     try_checkpoint(r)
  :: t_k == K_DONE ->
     assert(r == 0 && t_w == wave[0] && phase[0] != IDLE);
     count_done()
  fi;
  t_m = 0; t_k = 0; t_w = 0; t_v = 0
}

/* Channel J -> i: an application message is taken at the head only, so
 * none overtakes a control message its sender sent before it; a control
 * message (random receive ??: the first CTL of the channel) may overtake
 * the application messages sent before it, as on the runtime's control
 * communicator: that is what the drain is for. Control messages keep
 * their order. */
#define FROM(J) \
  :: d_step { J < N && J != i && ch[J * N + i]?[MSG, _, _, _] -> \
       ch[J * N + i]?t_m, t_k, t_w, t_v; arrive(i, J) } \
  :: d_step { J < N && J != i && ch[J * N + i]??[CTL, _, _, _] -> \
       ch[J * N + i]??CTL, t_k, t_w, t_v; arrive(i, J) }

proctype Rank(byte i) {
end:
  do
  /* CALL: a send call, a checkpoint location. */
  :: d_step { pc[i] == P_SEND -> pc[i] = P_IN_SEND; try_checkpoint(i) }
  /* APP_SEND: PASS (the call returns) or DEFER (it stays pending). */
  :: d_step { pc[i] == P_IN_SEND && !dfr[i] ->
       csent[i * N + RIGHT(i)]++;
       if
       :: phase[i] == EXCHANGING -> dfr[i] = 1;
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
       :: else -> ch[i * N + 0]!CTL, K_DONE, wave[i], 0; phase[i] = IDLE
       fi }
  /* Rank 0's timer. */
  :: d_step { i == 0 && phase[0] == IDLE && waves < MAXW ->
       waves++; ndone = 0;
       printf("MSC: rank 0 starts wave %d\n", wave[0] + 1);
       t_w = wave[0] + 1;
       t_j = 1;
       do
       :: t_j < N -> ch[0 * N + t_j]!CTL, K_REQ, t_w, 0; t_j++
       :: else -> break
       od;
       t_j = 0;
       enter(0, t_w); t_w = 0;
       try_checkpoint(0) }
  FROM(0)
  FROM(1)
  FROM(2)
  od
}

inline flush(c) {
  do :: nempty(c) -> c?_, _, _, _ :: empty(c) -> break od
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
          cut[t_j] = 0; markin[t_j] = 0; t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          pc[t_j] = com_pc[t_j]; snt[t_j] = com_snt[t_j];
          rcvd[t_j] = com_rcvd[t_j]; arr[t_j] = com_arr[t_j];
          q[t_j] = 0; dfr[t_j] = 0;
          phase[t_j] = IDLE; wave[t_j] = com_wave; step[t_j] = 0;
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
