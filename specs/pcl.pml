/* Pcl: blocking coordinated checkpointing as ftsim's core plays it
 * (protocols/pcl/pcl.h, steps 1-6; pcl-vs-vcl-sc06, section 3).
 *
 *   spin -DN=3 [-DBUG] -a pcl.pml   (specs/check.sh pcl 3 [bug])
 *
 * N ranks run IT iterations of a ring: at the top of each iteration a safe
 * point (ft_snapshot), then send message k to the right neighbour and
 * receive message k from the left one on FIFO channels (the application
 * contract of sim/ft.h: nothing in flight across a safe point). Rank 0 is
 * the coordinator: at a nondeterministic "timer" it requests a wave, every
 * other rank reports its safe-point position and stops at the next one
 * (rank 0 moves its own position instead of stopping), rank 0 sends
 * K = max(position) + 1, every rank marks at K, is held there until
 * it has every marker, checkpoints, its image is stored (asynchronously),
 * CHECKPOINT_DONE to rank 0, which commits when every image is stored.
 * An environment process fails the run at any moment (up to MAXF times):
 * every rank rolls back to the last committed wave, every channel is
 * flushed (a fresh incarnation), images in progress are dropped.
 *
 * Each step of a rank is one d_step over global state, so that a failure
 * (one d_step of the environment) always finds every rank between steps.
 *
 * -DBUG: no alignment and no freezing: on the request a rank checkpoints at
 * its own next safe point, without positions, K, markers or hold. */

#ifndef N
#define N 2
#endif
#ifndef IT
#define IT 3 /* iterations (safe points) per rank */
#endif
#ifndef MAXW
#define MAXW 2 /* waves started, over the whole run (rollbacks included) */
#endif
#ifndef MAXF
#define MAXF 2 /* failures */
#endif

#define LEFT(r) (((r) + N - 1) % N)
#define RIGHT(r) (((r) + 1) % N)

mtype = { REQ, POS, AT, MARK, DONE };

/* Application messages: channel r carries rank r's messages to RIGHT(r),
 * each its number (1, 2, ...). Control messages: ctl[from * N + to]. */
chan app[N] = [IT] of { byte };
chan ctl[N * N] = [3] of { mtype, byte, byte }; /* kind, wave, value */

/* Where the application of a rank is. */
#define PC_SP 0   /* before its next safe point */
#define PC_HELD 1 /* at safe point idx, held by the protocol */
#define PC_SEND 2 /* in iteration idx, about to send */
#define PC_RECV 3 /* in iteration idx, about to receive */
#define PC_END 4  /* every iteration done */

/* The core's phase (pcl.c enum pcl_phase). */
#define IDLE 0
#define REQUESTED 1
#define KNOWN 2
#define MARKING 3
#define STORING 4
#define STORED 5 /* rank 0: own image stored, waiting for the others */

byte pc[N], idx[N], sent[N], rcvd[N]; /* application state */
byte phase[N], wave[N], hold_at[N], at[N], nmark[N]; /* core state */
byte npos, maxpos, ndone;                             /* rank 0 only */

/* Images: the wave in progress and the committed one (two generations,
 * as the checkpoint servers keep). */
byte img_wave[N], img_idx[N], img_sent[N], img_rcvd[N];
byte com_wave, com_idx[N], com_sent[N], com_rcvd[N];

byte waves, failures; /* bounds */
/* Scratch, 0 between steps (not hidden: pan -DBFS refuses hidden). */
byte t_j, t_k, t_w, t_v, t_m;

/* Every rank checkpointed at the same safe point, and every message a
 * rank received before its checkpoint was sent before the sender's, and
 * vice versa (no orphan, and nothing in transit: Pcl stores no channel
 * state). */
#if N == 2
#define SAME_IDX (com_idx[0] == com_idx[1])
#define NO_ORPHAN (com_rcvd[1] <= com_sent[0] && com_rcvd[0] <= com_sent[1])
#define NO_TRANSIT (com_rcvd[1] >= com_sent[0] && com_rcvd[0] >= com_sent[1])
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END)
#else
#define SAME_IDX (com_idx[0] == com_idx[1] && com_idx[1] == com_idx[2])
#define NO_ORPHAN (com_rcvd[1] <= com_sent[0] && com_rcvd[2] <= com_sent[1] && \
                   com_rcvd[0] <= com_sent[2])
#define NO_TRANSIT (com_rcvd[1] >= com_sent[0] && com_rcvd[2] >= com_sent[1] && \
                    com_rcvd[0] >= com_sent[2])
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END && pc[2] == PC_END)
#endif

/* The committed wave is always a consistent cut with empty channels. */
ltl consistent { [] (SAME_IDX && NO_ORPHAN && NO_TRANSIT) }
/* Every run is finite (bounded iterations, waves and failures), so
 * termination is checked where the run stops: proctype Watch. */

inline broadcast(r, kind, val) {
  t_j = 0;
  do
  :: t_j < N ->
     if
     :: t_j != r -> ctl[r * N + t_j]!kind, wave[r], val
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0
}

inline clear_wave(r) {
  nmark[r] = 0; hold_at[r] = 0; at[r] = 0;
  if :: r == 0 -> npos = 0; maxpos = 0; ndone = 0 :: else -> skip fi
}

/* CHECKPOINT: the image is the state at this safe point. */
inline checkpoint(r) {
  printf("MSC: rank %d checkpoints wave %d at safe point %d (sent %d, received %d)\n",
         r, wave[r], idx[r], sent[r], rcvd[r]);
  img_wave[r] = wave[r]; img_idx[r] = idx[r];
  img_sent[r] = sent[r]; img_rcvd[r] = rcvd[r];
  phase[r] = STORING
}

/* At safe point K: markers to every other rank; checkpoint when every
 * marker is in (PASS), else HOLD. */
inline mark(r) {
  broadcast(r, MARK, 0);
  phase[r] = MARKING;
  if
  :: nmark[r] == N - 1 -> checkpoint(r); pc[r] = PC_SEND
  :: else -> pc[r] = PC_HELD
  fi
}

inline apply_wave_at(r, a) {
  at[r] = a; hold_at[r] = 0; phase[r] = KNOWN;
  if
  :: pc[r] == PC_HELD && idx[r] < a -> pc[r] = PC_SEND /* RELEASE */
  :: pc[r] == PC_HELD && idx[r] == a -> mark(r)
  :: else -> assert(pc[r] != PC_HELD)
  fi
}

inline record_position(r, v) {
  if :: npos == 0 || v > maxpos -> maxpos = v :: else -> skip fi;
  npos++;
  if
  :: npos == N -> broadcast(0, AT, maxpos + 1); apply_wave_at(0, maxpos + 1)
  :: else -> skip
  fi
}

inline safe_point(r) {
  idx[r]++;
  printf("MSC: rank %d at safe point %d\n", r, idx[r]);
  if
#ifdef BUG
  :: phase[r] == KNOWN && idx[r] == at[r] -> checkpoint(r); pc[r] = PC_SEND
#else
  :: phase[r] == KNOWN && idx[r] == at[r] -> mark(r)
  :: phase[r] == REQUESTED && idx[r] == hold_at[r] && r != 0 -> pc[r] = PC_HELD
  :: phase[r] == REQUESTED && idx[r] == hold_at[r] && r == 0 ->
     /* pcl.c advance_own_position: rank 0 moves its position, never held */
     if :: idx[0] > maxpos -> maxpos = idx[0] :: else -> skip fi;
     hold_at[0] = idx[0] + 1; pc[0] = PC_SEND
#endif
  :: else -> pc[r] = PC_SEND
  fi
}

inline start_wave() {
  waves++;
  wave[0]++;
  printf("MSC: rank 0 requests wave %d\n", wave[0]);
  clear_wave(0);
  broadcast(0, REQ, 0);
#ifdef BUG
  phase[0] = KNOWN; at[0] = idx[0] + 1
#else
  phase[0] = REQUESTED; hold_at[0] = idx[0] + 1;
  record_position(0, idx[0])
#endif
}

inline commit() {
  assert(img_wave[0] == wave[0]);
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_wave[t_j] == wave[0]);
     com_idx[t_j] = img_idx[t_j];
     com_sent[t_j] = img_sent[t_j];
     com_rcvd[t_j] = img_rcvd[t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_wave = wave[0];
  printf("MSC: rank 0 commits wave %d\n", com_wave);
  /* The wave just committed is a consistent cut with empty channels. */
  assert(SAME_IDX && NO_ORPHAN && NO_TRANSIT);
  phase[0] = IDLE; at[0] = 0
}

inline count_done() {
  ndone++;
  if :: ndone == N -> commit() :: else -> skip fi
}

/* One control message of rank `from` to rank r, already received into
 * t_k (kind), t_w (wave), t_v (value). A message the core would reject
 * (step returns -1) is an assertion failure. */
inline on_control(r, from) {
  if
  :: t_k == REQ ->
     assert(r != 0 && from == 0 && phase[r] == IDLE && t_w == wave[r] + 1);
     wave[r] = t_w;
     clear_wave(r);
#ifdef BUG
     phase[r] = KNOWN; at[r] = idx[r] + 1
#else
     phase[r] = REQUESTED; hold_at[r] = idx[r] + 1;
     ctl[r * N + 0]!POS, wave[r], idx[r]
#endif
  :: t_k == POS ->
     assert(r == 0 && t_w == wave[0] && phase[0] == REQUESTED);
     record_position(0, t_v)
  :: t_k == AT ->
     assert(from == 0 && t_w == wave[r] && phase[r] == REQUESTED &&
            t_v >= hold_at[r]);
     apply_wave_at(r, t_v)
  :: t_k == MARK ->
     assert(t_w == wave[r] && (phase[r] == REQUESTED || phase[r] == KNOWN ||
                               phase[r] == MARKING));
     nmark[r]++;
     if
     :: phase[r] == MARKING && nmark[r] == N - 1 ->
        assert(pc[r] == PC_HELD);
        checkpoint(r); pc[r] = PC_SEND /* CHECKPOINT + RELEASE */
     :: else -> skip
     fi
  :: t_k == DONE ->
     assert(r == 0 && t_w == wave[0] && (at[0] != 0 || phase[0] != IDLE));
     count_done()
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
  :: d_step { pc[i] == PC_SEND -> sent[i]++; app[i]!sent[i]; pc[i] = PC_RECV;
       printf("MSC: rank %d sends message %d to rank %d\n", i, sent[i], RIGHT(i)) }
  :: d_step { pc[i] == PC_RECV && nempty(app[LEFT(i)]) ->
       app[LEFT(i)]?t_m;
       printf("MSC: rank %d receives message %d from rank %d\n", i, t_m, LEFT(i));
       /* FIFO, nothing lost or delivered twice, across rollbacks too. */
       assert(t_m == rcvd[i] + 1);
       rcvd[i]++; t_m = 0;
       if :: idx[i] == IT -> pc[i] = PC_END :: else -> pc[i] = PC_SP fi }
  /* IMAGE_STORED, at any later moment. */
  :: d_step { phase[i] == STORING ->
       if
       :: i == 0 -> phase[0] = STORED; count_done()
       :: else -> ctl[i * N + 0]!DONE, wave[i], 0; phase[i] = IDLE; at[i] = 0
       fi }
  /* Rank 0's timer: a wave is due. */
  :: d_step { i == 0 && phase[0] == IDLE && waves < MAXW -> start_wave() }
  CONTROL_FROM(0)
  CONTROL_FROM(1)
  CONTROL_FROM(2)
  od
}

inline flush(c) {
  do :: nempty(c) -> c?_ :: empty(c) -> break od
}

inline flush_ctl(c) {
  do :: nempty(c) -> c?_, _, _ :: empty(c) -> break od
}

/* A failure, at any moment: every rank restarts from the committed wave
 * (ROLLBACK), the images in progress and every message in flight are
 * dropped (the next incarnation never sees them). */
proctype Failures() {
end:
  do
  :: d_step { failures < MAXF ->
       failures++;
       printf("MSC: FAILURE: every rank rolls back to wave %d\n", com_wave);
       t_j = 0;
       do
       :: t_j < N * N -> flush_ctl(ctl[t_j]); t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          flush(app[t_j]);
          idx[t_j] = com_idx[t_j]; sent[t_j] = com_sent[t_j];
          rcvd[t_j] = com_rcvd[t_j];
          /* Restored at safe point K the application goes on with
           * iteration K; with nothing committed it starts again. */
          if
          :: com_wave == 0 -> pc[t_j] = PC_SP
          :: else -> pc[t_j] = PC_SEND
          fi;
          phase[t_j] = IDLE; wave[t_j] = com_wave;
          nmark[t_j] = 0; hold_at[t_j] = 0; at[t_j] = 0;
          img_wave[t_j] = 0; img_idx[t_j] = 0; img_sent[t_j] = 0;
          img_rcvd[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       npos = 0; maxpos = 0; ndone = 0 }
  od
}

/* When nothing can move any more (timeout), every rank has finished: no
 * deadlock after a rollback, no rank held forever, no control message
 * left unprocessed. */
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
