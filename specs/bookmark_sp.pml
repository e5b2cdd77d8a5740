/* Bookmark at safe points: LAM/MPI's drain (lam-mpi-blcr, sections 3.1
 * and 4.2, Figures 2 and 9) as protocols/bookmark plays it without
 * any_call (bookmark.h, steps 1-6), under the relaxed contract of sim/ft.h
 * that lets a point-to-point message be in flight across a safe point.
 *
 *   spin -DN=3 [-DBUG] -a bookmark_sp.pml   (specs/check.sh bookmark_sp 3)
 *
 * N ranks run IT iterations of a ring: at the top of iteration k a safe
 * point (ft_snapshot, index k), then a send of message k to the right
 * neighbour, then a receive of message k - 1 from the left one (the last
 * iteration receives k - 1 and k): every message crosses its receiver's
 * next safe point. The core, as bookmark.c's safe-point functions: rank 0
 * at a nondeterministic timer sends REQUEST to every rank and records its
 * own position; every other rank answers POSITION (its safe-point index)
 * and stops at its next safe point until AT comes; rank 0, which never
 * stops before K is known (advance_own_position: at its hold point it
 * moves its position there), sends AT K = max(position) + 1 once every
 * position is in. At K a rank is held: it notes what it sent on each
 * channel (its "sent" bookmarks) and exchanges them in the staggered order
 * of Figure 2 (step s: to rank + s, then wait for the one of rank - s);
 * with every bookmark in it drains: the runtime takes the messages of a
 * channel whose bookmark is not reached off the wire into the drain
 * buffer (sim/runtime/drain/drain.c), each a DELIVERED for the core, until
 * every "received" count matches (Figure 9, step 2); then it checkpoints
 * and is released. The image: the rank's safe point, the messages it sent,
 * received (the application) and took off the wire (the drain buffer's
 * among them); the application's receives after the safe point are served
 * from the buffer first. Images are stored later, DONE goes to rank 0,
 * which commits with every image stored. A failure, at any moment (up to
 * MAXF): every rank rolls back to the committed wave, every channel is
 * flushed, the core's counts restart at 0 ("re-builds its communication
 * channels ... and sets them to 'empty'", section 3.1, restart step 5).
 *
 * Application and control messages travel on separate FIFO channels per
 * ordered pair (the runtime's control communicator): a bookmark may
 * overtake the messages it counts.
 *
 * -DBUG: the checkpoint is taken as soon as every bookmark is in, without
 * the drain (bookmark-bug-nodrain): a message sent before its sender's
 * checkpoint is still on the wire at the receiver's, in neither image. */

#ifndef N
#define N 2
#endif
#ifndef IT
#define IT 3 /* iterations (safe points) per rank */
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

mtype = { REQ, POS, AT, BMK, DONE };

/* Application messages: app[r] carries rank r's messages to RIGHT(r), each
 * its number (1, 2, ...). Control messages: ctl[from * N + to]. */
chan app[N] = [IT] of { byte };
chan ctl[N * N] = [3] of { mtype, byte, byte }; /* kind, wave, value */

/* Where the application of a rank is. */
#define PC_SP 0   /* before its next safe point */
#define PC_HELD 1 /* at safe point idx, held by the protocol */
#define PC_SEND 2 /* in iteration idx, about to send */
#define PC_RECV 3 /* in iteration idx, about to receive */
#define PC_END 4  /* every iteration done */

/* The core's phase (bookmark.c enum bm_phase). */
#define IDLE 0
#define REQUESTED 1
#define KNOWN 2
#define EXCHANGING 3
#define STORING 4
#define STORED 5 /* rank 0: own image stored, waiting for the others */

/* Application: safe point, messages sent, received by the application,
 * taken off the wire (arr - rcvd wait in the drain buffer). */
byte pc[N], idx[N], sent[N], rcvd[N], arr[N];
/* Core: phase, wave, hold point, K, step of the staggered exchange; per
 * channel (from * N + to): messages sent (csent[r * N + to]) and taken
 * off the wire (carr[from * N + r]) since the rollback, the sender's
 * bookmark (cut[r * N + to]), the bookmark received (mat[from * N + r]),
 * whether it is in. */
byte phase[N], wave[N], hold_at[N], at[N], step[N];
byte csent[N * N], carr[N * N], cut[N * N], mat[N * N];
bool markin[N * N];
byte npos, maxpos, ndone; /* rank 0 only */

/* Images: the wave in progress and the committed one. */
byte img_wave[N], img_idx[N], img_sent[N], img_rcvd[N], img_arr[N];
byte com_wave, com_idx[N], com_sent[N], com_rcvd[N], com_arr[N];

byte waves, failures; /* bounds */
/* Scratch, 0 between steps. */
byte t_j, t_k, t_w, t_v, t_m, t_ok;

/* Every rank checkpointed at the same safe point, and every channel was
 * empty at the cut: each rank's image holds, taken off the wire, exactly
 * the messages its left neighbour sent before its own checkpoint (none
 * lost on the wire, no orphan), and received no more than that. */
#if N == 2
#define SAME_IDX (com_idx[0] == com_idx[1])
#define CUT_OK (com_arr[1] == com_sent[0] && com_arr[0] == com_sent[1] && \
                com_rcvd[0] <= com_arr[0] && com_rcvd[1] <= com_arr[1])
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END)
#else
#define SAME_IDX (com_idx[0] == com_idx[1] && com_idx[1] == com_idx[2])
#define CUT_OK (com_arr[1] == com_sent[0] && com_arr[2] == com_sent[1] && \
                com_arr[0] == com_sent[2] && com_rcvd[0] <= com_arr[0] && \
                com_rcvd[1] <= com_arr[1] && com_rcvd[2] <= com_arr[2])
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END && pc[2] == PC_END)
#endif

ltl drained { [] (SAME_IDX && CUT_OK) }

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

/* Forgets the previous wave's facts (bookmark.c clear_wave). */
inline clear_wave(r) {
  hold_at[r] = 0; at[r] = 0; step[r] = 0;
  t_j = 0;
  do
  :: t_j < N -> markin[t_j * N + r] = 0; mat[t_j * N + r] = 0; t_j++
  :: else -> break
  od;
  t_j = 0;
  if :: r == 0 -> npos = 0; maxpos = 0; ndone = 0 :: else -> skip fi
}

/* CHECKPOINT: the image is the state at this safe point. */
inline checkpoint(r) {
  printf("MSC: rank %d checkpoints wave %d at safe point %d (sent %d, received %d, off the wire %d)\n",
         r, wave[r], idx[r], sent[r], rcvd[r], arr[r]);
  img_wave[r] = wave[r]; img_idx[r] = idx[r]; img_sent[r] = sent[r];
  img_rcvd[r] = rcvd[r]; img_arr[r] = arr[r];
  phase[r] = STORING; step[r] = 0
}

/* Every bookmark in and every channel drained up to it (bookmark.c
 * drained); -DBUG: without the drain. Result in t_ok. */
inline is_drained(r) {
  t_ok = (phase[r] == EXCHANGING && step[r] == N);
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
  t_j = 0
#endif
}

/* Step step[r] of Figure 2: the bookmark to rank + step. */
inline send_bookmark(r) {
  if
  :: step[r] < N ->
     ctl[r * N + (r + step[r]) % N]!BMK, wave[r],
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

/* At K: the bookmarks are the messages sent so far (bookmark.c exchange). */
inline exchange(r) {
  t_j = 0;
  do
  :: t_j < N -> cut[r * N + t_j] = csent[r * N + t_j]; t_j++
  :: else -> break
  od;
  t_j = 0;
  phase[r] = EXCHANGING; step[r] = 1;
  send_bookmark(r); advance(r)
}

/* The rank held at K checkpoints once drained, and is released. */
inline try_checkpoint(r) {
  is_drained(r);
  if
  :: t_ok && pc[r] == PC_HELD -> checkpoint(r); pc[r] = PC_SEND
  :: else -> skip
  fi;
  t_ok = 0
}

/* K is known: a rank held below K goes on, a rank held at K exchanges. */
inline apply_at(r, a) {
  at[r] = a; hold_at[r] = 0; phase[r] = KNOWN;
  if
  :: pc[r] == PC_HELD && idx[r] < a -> pc[r] = PC_SEND /* RELEASE */
  :: pc[r] == PC_HELD && idx[r] == a -> exchange(r); try_checkpoint(r)
  :: else -> assert(pc[r] != PC_HELD)
  fi
}

inline record_position(v) {
  if :: npos == 0 || v > maxpos -> maxpos = v :: else -> skip fi;
  npos++;
  if
  :: npos == N -> broadcast(0, AT, maxpos + 1); apply_at(0, maxpos + 1)
  :: else -> skip
  fi
}

inline safe_point(r) {
  idx[r]++;
  printf("MSC: rank %d at safe point %d\n", r, idx[r]);
  if
  :: phase[r] == KNOWN && idx[r] == at[r] ->
     pc[r] = PC_HELD; exchange(r); try_checkpoint(r)
  :: phase[r] == REQUESTED && idx[r] == hold_at[r] && r != 0 -> pc[r] = PC_HELD
  :: phase[r] == REQUESTED && idx[r] == hold_at[r] && r == 0 ->
     /* bookmark.c advance_own_position: rank 0 moves its position */
     if :: idx[0] > maxpos -> maxpos = idx[0] :: else -> skip fi;
     hold_at[0] = idx[0] + 1; pc[0] = PC_SEND
  :: else -> pc[r] = PC_SEND
  fi
}

inline start_wave() {
  waves++;
  wave[0]++;
  printf("MSC: rank 0 requests wave %d\n", wave[0]);
  clear_wave(0);
  broadcast(0, REQ, 0);
  phase[0] = REQUESTED; hold_at[0] = idx[0] + 1;
  record_position(idx[0])
}

inline commit() {
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_wave[t_j] == wave[0]);
     com_idx[t_j] = img_idx[t_j]; com_sent[t_j] = img_sent[t_j];
     com_rcvd[t_j] = img_rcvd[t_j]; com_arr[t_j] = img_arr[t_j];
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_wave = wave[0];
  printf("MSC: rank 0 commits wave %d\n", com_wave);
  assert(SAME_IDX && CUT_OK);
  phase[0] = IDLE; at[0] = 0
}

inline count_done() {
  ndone++;
  if :: ndone == N -> commit() :: else -> skip fi
}

/* A message taken off the wire from the left neighbour (the application's
 * receive or the drain): a DELIVERED for the core. */
inline take(r) {
  app[LEFT(r)]?t_m;
  /* FIFO, nothing lost or taken twice, across rollbacks too. */
  assert(t_m == arr[r] + 1);
  arr[r]++; carr[LEFT(r) * N + r]++; t_m = 0
}

/* One control message of rank `from` to rank r, in t_k, t_w, t_v. A
 * message the core would reject (step returns -1) is an assertion
 * failure. */
inline on_control(r, from) {
  if
  :: t_k == REQ ->
     assert(r != 0 && from == 0 && phase[r] == IDLE && t_w == wave[r] + 1);
     wave[r] = t_w;
     clear_wave(r);
     phase[r] = REQUESTED; hold_at[r] = idx[r] + 1;
     ctl[r * N + 0]!POS, wave[r], idx[r]
  :: t_k == POS ->
     assert(r == 0 && t_w == wave[0] && phase[0] == REQUESTED);
     record_position(t_v)
  :: t_k == AT ->
     assert(from == 0 && t_w == wave[r] && phase[r] == REQUESTED &&
            t_v >= hold_at[r]);
     apply_at(r, t_v)
  :: t_k == BMK ->
     assert(t_w == wave[r] && (phase[r] == REQUESTED || phase[r] == KNOWN ||
                               phase[r] == EXCHANGING) &&
            !markin[from * N + r] && t_v >= carr[from * N + r]);
     markin[from * N + r] = 1; mat[from * N + r] = t_v;
     printf("MSC: rank %d gets the bookmark of rank %d: it sent %d, %d taken\n",
            r, from, t_v, carr[from * N + r]);
     if :: phase[r] == EXCHANGING -> advance(r) :: else -> skip fi;
     try_checkpoint(r)
  :: t_k == DONE ->
     assert(r == 0 && t_w == wave[0] && phase[0] != IDLE);
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
  :: d_step { pc[i] == PC_SEND ->
       sent[i]++; csent[i * N + RIGHT(i)]++; app[i]!sent[i];
       printf("MSC: rank %d sends message %d\n", i, sent[i]);
       if :: idx[i] == 1 -> pc[i] = PC_SP :: else -> pc[i] = PC_RECV fi }
  /* The application's receive: from the drain buffer, else the wire. */
  :: d_step { pc[i] == PC_RECV && (arr[i] > rcvd[i] || nempty(app[LEFT(i)])) ->
       if :: arr[i] == rcvd[i] -> take(i) :: else -> skip fi;
       rcvd[i]++;
       printf("MSC: rank %d receives message %d\n", i, rcvd[i]);
       if
       :: rcvd[i] == IT -> pc[i] = PC_END
       :: rcvd[i] < IT && idx[i] == IT -> skip /* and message IT */
       :: else -> pc[i] = PC_SP
       fi }
  /* The drain: held at K with every bookmark in, the runtime takes what
   * the left channel still owes off the wire. */
  :: d_step { pc[i] == PC_HELD && phase[i] == EXCHANGING && step[i] == N &&
              carr[LEFT(i) * N + i] < mat[LEFT(i) * N + i] &&
              nempty(app[LEFT(i)]) ->
       take(i);
       printf("MSC: rank %d drains message %d\n", i, arr[i]);
       try_checkpoint(i) }
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

/* A failure, at any moment: every rank restarts from the committed wave,
 * its channels empty and its counts at 0; images in progress and messages
 * in flight are dropped. */
proctype Failures() {
end:
  do
  :: d_step { failures < MAXF ->
       failures++;
       printf("MSC: FAILURE: every rank rolls back to wave %d\n", com_wave);
       t_j = 0;
       do
       :: t_j < N * N ->
          flush_ctl(ctl[t_j]); csent[t_j] = 0; carr[t_j] = 0; cut[t_j] = 0;
          mat[t_j] = 0; markin[t_j] = 0; t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          flush(app[t_j]);
          idx[t_j] = com_idx[t_j]; sent[t_j] = com_sent[t_j];
          rcvd[t_j] = com_rcvd[t_j]; arr[t_j] = com_arr[t_j];
          /* Restored at safe point K the application goes on with
           * iteration K; with nothing committed it starts again. */
          if
          :: com_wave == 0 -> pc[t_j] = PC_SP
          :: else -> pc[t_j] = PC_SEND
          fi;
          phase[t_j] = IDLE; wave[t_j] = com_wave; step[t_j] = 0;
          hold_at[t_j] = 0; at[t_j] = 0;
          img_wave[t_j] = 0; img_idx[t_j] = 0; img_sent[t_j] = 0;
          img_rcvd[t_j] = 0; img_arr[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       npos = 0; maxpos = 0; ndone = 0 }
  od
}

/* When nothing can move any more (timeout), every rank has finished: no
 * rank held forever, no deadlock after a rollback, every message due
 * received. */
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
