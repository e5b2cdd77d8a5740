/* Vcl in any-call mode: Chandy-Lamport as pcl-vs-vcl-sc06, section 3,
 * Figure 1 tells it, as protocols/vcl plays it with ft_core_config.any_call
 * (vcl.h, "Any-call mode"): a rank checkpoints at the MPI call it is in, or
 * its next one, after its first marker; the messages that arrive on a
 * channel after its checkpoint and before that channel's marker are its
 * channel state, saved with the image and restored after a rollback.
 *
 *   spin -DN=3 [-DBUG] -a vcl_anycall.pml   (specs/check.sh vcl_anycall 3)
 *
 * The application is pcl_anycall.pml's (a ring of blocking sends and
 * receives, each an MPI call, no contract; messages in flight and arrived
 * unreceived at any moment). Channels are FIFO between every pair and
 * carry the markers in order with the messages. The checkpoint scheduler
 * (a process) at a nondeterministic timer sends a marker to every rank on
 * channels of its own; a rank's first marker of the wave (the scheduler's
 * or a peer's) makes it due: at its next call (or at once, when it is in
 * one) it captures its state (position, counts, the arrived receivable
 * messages) and sends its marker on every channel with the count of
 * messages sent on it before (FLUSH); while due, a message numbered past
 * its channel's marker is QUEUEd (it must not be in the image); after the
 * capture, a message that precedes its channel's marker is RECORDed; with
 * every marker in and every message they count arrived, the rank STOREs
 * the image with the channel state (kept: the marker's count minus the
 * arrivals in the image, which must equal the records), later
 * CHECKPOINT_DONE goes to the scheduler, which commits. A failure at any
 * moment rolls every rank back to the committed wave: its arrived messages
 * and its channel state become receivable again, channels and queues are
 * flushed, the counts restart.
 *
 * -DBUG: the channel state is not kept (STORE keeps no message): a message
 * in transit at the cut is lost after a rollback. */

#ifndef N
#define N 2
#endif
#ifndef IT
#if N >= 3
#define IT 1 /* iterations per rank (IT 2 exceeds the 1 GB limit at N 3) */
#else
#define IT 2
#endif
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

mtype = { MSG, MARK };

/* ch[from * N + to]: kind, wave, value (MSG: its number, 1, 2, ...). The
 * scheduler's markers: sch[rank] (wave); CHECKPOINT_DONE: done (wave). */
chan ch[N * N] = [IT + 2 * MAXW] of { mtype, byte, byte };
chan sch[N] = [MAXW] of { byte };
chan done = [N * MAXW] of { byte };

/* Where the application of a rank is. */
#define P_SEND 0    /* computing; its next call sends */
#define P_IN_SEND 1 /* in the send call */
#define P_RECV 2    /* computing; its next call receives */
#define P_IN_RECV 3 /* in the receive call, waiting for its message */
#define P_END 4     /* every iteration done */
#define IN_CALL(r) (pc[r] == P_IN_SEND || pc[r] == P_IN_RECV)

/* The core's phase (vcl.h enum ft_vcl_phase, any-call mode). */
#define IDLE 0
#define DUE 6
#define RECORDING 3
#define STORING 4

/* Application: sent and received message numbers, the last message
 * arrived receivable (arrived - rcvd are in the receive buffer), the
 * queue's length. */
byte pc[N], snt[N], rcvd[N], arr[N], q[N];
/* Core: phase, wave, markers in; per channel (from * N + to): messages
 * sent (csent[r * N + to]) and arrived (carr[from * N + r]) since the
 * rollback, the marker's value, whether it is in. */
byte phase[N], wave[N], swave[N];
byte csent[N * N], carr[N * N], mat[N * N];
bool markin[N * N];
/* Arrivals from the left neighbour in the image (at_arr) and RECORDed
 * after it (recs). */
byte at_arr[N], recs[N];
byte swaves, ndone; /* the scheduler: its wave, CHECKPOINT_DONEs in */
bool sidle = 1;

/* Images: the wave in progress and the committed one; kept: channel
 * state from the left neighbour. */
byte img_wave[N], img_pc[N], img_snt[N], img_rcvd[N], img_arr[N], img_kept[N];
byte com_wave, com_pc[N], com_snt[N], com_rcvd[N], com_arr[N], com_kept[N];

byte waves, failures;
/* Scratch, 0 between steps. */
byte t_j, t_k, t_w, t_v, t_ok;

/* The committed cut: every rank's image holds, as arrived or as channel
 * state, exactly the messages its left neighbour sent before its own
 * checkpoint: none sent after (no orphan), none lost in transit. */
#define HOLDS(r) (com_arr[r] + com_kept[r])
#if N == 2
#define CUT_OK (HOLDS(1) == com_snt[0] && HOLDS(0) == com_snt[1] && \
                com_rcvd[0] <= com_arr[0] && com_rcvd[1] <= com_arr[1])
#define ALL_END (pc[0] == P_END && pc[1] == P_END)
#else
#define CUT_OK (HOLDS(1) == com_snt[0] && HOLDS(2) == com_snt[1] && \
                HOLDS(0) == com_snt[2] && com_rcvd[0] <= com_arr[0] && \
                com_rcvd[1] <= com_arr[1] && com_rcvd[2] <= com_arr[2])
#define ALL_END (pc[0] == P_END && pc[1] == P_END && pc[2] == P_END)
#endif

ltl consistent { [] CUT_OK }

inline send_msg(r) {
  snt[r]++;
  ch[r * N + RIGHT(r)]!MSG, 0, snt[r];
  printf("MSC: rank %d sends message %d\n", r, snt[r])
}

/* STORE once every marker is in and every message it counts arrived:
 * the channel state is the left channel's marker count past the image's
 * arrivals, and every kept message was recorded. */
inline try_store(r) {
  t_ok = (phase[r] == RECORDING);
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
  if
  :: t_ok ->
#ifdef BUG
     img_kept[r] = 0;
#else
     img_kept[r] = mat[LEFT(r) * N + r] - at_arr[r];
     assert(img_kept[r] == recs[r]);
#endif
     printf("MSC: rank %d stores wave %d with %d message(s) of channel state\n",
            r, wave[r], img_kept[r]);
     phase[r] = STORING
  :: else -> skip
  fi;
  t_ok = 0
}

/* CAPTURE then FLUSH: the image; markers on every channel, each with the
 * count of messages before it; the queue released. */
inline capture(r) {
  printf("MSC: rank %d checkpoints wave %d in call %d (sent %d, received %d, arrived %d, queued %d)\n",
         r, wave[r], pc[r], snt[r], rcvd[r], arr[r], q[r]);
  img_wave[r] = wave[r]; img_pc[r] = pc[r]; img_snt[r] = snt[r];
  img_rcvd[r] = rcvd[r]; img_arr[r] = arr[r]; img_kept[r] = 0;
  at_arr[r] = carr[LEFT(r) * N + r];
  if
  :: markin[LEFT(r) * N + r] && at_arr[r] > mat[LEFT(r) * N + r] ->
     at_arr[r] = mat[LEFT(r) * N + r]
  :: else -> skip
  fi;
  recs[r] = 0;
  t_j = 0;
  do
  :: t_j < N ->
     if
     :: t_j != r -> ch[r * N + t_j]!MARK, wave[r], csent[r * N + t_j]
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0;
  phase[r] = RECORDING;
  arr[r] = arr[r] + q[r]; q[r] = 0;
  try_store(r)
}

/* The first marker of the next wave: capture now when in a call. */
inline start(r, w) {
  wave[r] = w; phase[r] = DUE;
  t_j = 0;
  do
  :: t_j < N -> markin[t_j * N + r] = 0; mat[t_j * N + r] = 0; t_j++
  :: else -> break
  od;
  t_j = 0;
  if :: IN_CALL(r) -> capture(r) :: else -> skip fi
}

inline commit() {
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_wave[t_j] == swaves);
     com_pc[t_j] = img_pc[t_j]; com_snt[t_j] = img_snt[t_j];
     com_rcvd[t_j] = img_rcvd[t_j]; com_arr[t_j] = img_arr[t_j];
     com_kept[t_j] = img_kept[t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_wave = swaves;
  printf("MSC: the scheduler commits wave %d\n", com_wave);
  assert(CUT_OK);
  sidle = 1
}

/* The head of channel from -> r, received into t_k, t_w, t_v. */
inline arrive(r, from) {
  if
  :: t_k == MSG ->
     printf("MSC: message %d of rank %d arrives at rank %d\n", t_v, from, r);
     /* FIFO, nothing lost or delivered twice, across rollbacks too. */
     assert(t_v == arr[r] + q[r] + 1);
     t_ok = (markin[from * N + r] && carr[from * N + r] >= mat[from * N + r]);
     carr[from * N + r]++;
     if
     :: phase[r] == DUE && t_ok -> q[r]++ /* QUEUE */
     :: else ->
        arr[r]++;
        if
        :: phase[r] == RECORDING && !t_ok -> recs[r]++ /* RECORD */
        :: else -> skip
        fi
     fi;
     t_ok = 0;
     try_store(r)
  :: t_k == MARK ->
     if
     :: phase[r] == IDLE && t_w == wave[r] + 1 -> start(r, t_w)
     :: else -> skip
     fi;
     assert((phase[r] == DUE || phase[r] == RECORDING) && t_w == wave[r] &&
            !markin[from * N + r] && t_v >= carr[from * N + r]);
     markin[from * N + r] = 1; mat[from * N + r] = t_v;
     try_store(r)
  fi;
  t_k = 0; t_w = 0; t_v = 0
}

#define FROM(J) \
  :: d_step { J < N && J != i && nempty(ch[J * N + i]) -> \
       ch[J * N + i]?t_k, t_w, t_v; arrive(i, J) }

/* The checkpoint scheduler: a wave at its timer, the commit when every
 * rank's CHECKPOINT_DONE is in. */
proctype Scheduler() {
end:
  do
  :: d_step { sidle && waves < MAXW ->
       waves++; swaves++; sidle = 0; ndone = 0;
       printf("MSC: the scheduler starts wave %d\n", swaves);
       t_j = 0;
       do
       :: t_j < N -> sch[t_j]!swaves; t_j++
       :: else -> break
       od;
       t_j = 0 }
  :: d_step { nempty(done) -> done?t_w;
       assert(!sidle && t_w == swaves);
       ndone++;
       if :: ndone == N -> commit() :: else -> skip fi;
       t_w = 0 }
  od
}

proctype Rank(byte i) {
end:
  do
  /* CALL: a send call, a checkpoint location. */
  :: d_step { pc[i] == P_SEND -> pc[i] = P_IN_SEND;
       if :: phase[i] == DUE -> capture(i) :: else -> skip fi }
  /* APP_SEND: PASS (the call returns) or DEFER (it stays pending). */
  :: d_step { pc[i] == P_IN_SEND ->
       csent[i * N + RIGHT(i)]++; send_msg(i); pc[i] = P_RECV }
  :: d_step { pc[i] == P_RECV -> pc[i] = P_IN_RECV;
       if :: phase[i] == DUE -> capture(i) :: else -> skip fi }
  :: d_step { pc[i] == P_IN_RECV && rcvd[i] < arr[i] ->
       rcvd[i]++;
       printf("MSC: rank %d receives message %d\n", i, rcvd[i]);
       if :: rcvd[i] == IT -> pc[i] = P_END :: else -> pc[i] = P_SEND fi }
  /* IMAGE_STORED, at any later moment. */
  :: d_step { phase[i] == STORING -> done!wave[i]; phase[i] = IDLE }
  /* The scheduler's marker: the first of its wave, or late. */
  :: d_step { nempty(sch[i]) -> sch[i]?t_w;
       if
       :: phase[i] == IDLE && t_w == wave[i] + 1 -> start(i, t_w)
       :: else -> assert(t_w <= wave[i])
       fi;
       t_w = 0 }
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
          do :: nempty(sch[t_j]) -> sch[t_j]?_ :: empty(sch[t_j]) -> break od;
          /* The channel state becomes receivable, after the arrived. */
          pc[t_j] = com_pc[t_j]; snt[t_j] = com_snt[t_j];
          rcvd[t_j] = com_rcvd[t_j]; arr[t_j] = com_arr[t_j] + com_kept[t_j];
          q[t_j] = 0;
          phase[t_j] = IDLE; wave[t_j] = com_wave;
          at_arr[t_j] = 0; recs[t_j] = 0;
          img_wave[t_j] = 0; img_pc[t_j] = 0; img_snt[t_j] = 0;
          img_rcvd[t_j] = 0; img_arr[t_j] = 0; img_kept[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       do :: nempty(done) -> done?_ :: empty(done) -> break od;
       swaves = com_wave; sidle = 1; ndone = 0 }
  od
}

/* Every run ends with every rank done: no deadlock (a queued message the
 * receiver waits for is always released, the channel state is restored),
 * after rollbacks too. */
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
    run Scheduler();
    run Failures();
    run Watch()
  }
}
