/* Vcl: non-blocking Chandy-Lamport checkpointing as ftsim's core plays it
 * (protocols/vcl/vcl.h, steps 1-6; pcl-vs-vcl-sc06, sections 3 and 4.1).
 *
 *   spin -DN=3 [-DBUG] -a vcl.pml   (specs/check.sh vcl 3 [bug])
 *
 * N ranks run IT iterations of a pipelined ring: at the top of iteration k
 * a safe point, then (in one step) receive message k - 1 from the left
 * neighbour (k > 1) and send message k to the right one (k < IT).
 * Every message sent before a safe point is received after the receiver's
 * same safe point: at any common safe point K >= 2 each channel has one
 * message in transit, which Vcl must record and replay.
 *
 * The checkpoint scheduler (proctype Scheduler, control rank N) sends
 * MARKER (0) to every rank at a nondeterministic "timer"; a rank's first
 * marker of a wave makes it propose p = its next safe point to every other
 * rank (MARKER p); K = the largest proposal; a rank that passes p before
 * it knows K RETAINs a copy there and is HELD at p + 1; at K (or from the
 * copy) it CAPTUREs and sends CUT (its per-channel sent count) to every
 * other rank; deliveries that may be channel state are RECORDed; once
 * every channel is closed (CUT in, every counted message delivered) it
 * STOREs the image with the recorded messages numbered (recv at K, CUT];
 * when the image is stored, CHECKPOINT_DONE to the scheduler, which
 * COMMITs once every rank is done. Counts restart at 0 after a rollback.
 *
 * A failure, at any moment (up to MAXF): every rank and the scheduler roll
 * back to the last committed wave, every channel is flushed (a fresh
 * incarnation), and each recorded message is handed back to its sender,
 * which sends it again before anything new (both sides count it again).
 *
 * Each step is one d_step over global state, so that a failure (one d_step
 * of the environment) always finds every process between steps.
 *
 * -DBUG: no channel-state recording: STORE keeps no message. */

#ifndef N
#define N 2
#endif
/* Bounds: N = 3 explores 1.4 million states with these; 3 iterations
 * and 2 waves would take 10 times more (see README.md). */
#if N == 2
#define IT_DEFAULT 3
#define MAXW_DEFAULT 2
#define MAXF_DEFAULT 2
#else
#define IT_DEFAULT 2
#define MAXW_DEFAULT 1
#define MAXF_DEFAULT 1
#endif
#ifndef IT
#define IT IT_DEFAULT /* iterations (safe points) per rank */
#endif
#ifndef MAXW
#define MAXW MAXW_DEFAULT /* waves started, over the whole run (rollbacks included) */
#endif
#ifndef MAXF
#define MAXF MAXF_DEFAULT /* failures */
#endif

#define LEFT(r) (((r) + N - 1) % N)
#define RIGHT(r) (((r) + 1) % N)
#define S N                          /* the scheduler's control rank */
#define C(from, to) ((from) * (N + 1) + (to)) /* control channel */
#define P(r, peer) ((r) * N + (peer))         /* per-peer facts of r */

mtype = { MARKER, CUT, DONE };

/* Application messages: app[r] carries rank r's messages to RIGHT(r), each
 * its number k (the iteration that sent it). */
chan app[N] = [IT] of { byte };
chan ctl[(N + 1) * (N + 1)] = [2] of { mtype, byte, byte }; /* kind, wave, value */

/* Where the application of a rank is. */
#define PC_SP 0   /* before its next safe point */
#define PC_HELD 1 /* at safe point idx, held by the protocol */
#define PC_ITER 2 /* in iteration idx */
#define PC_END 3

/* The core's phase (vcl.h enum ft_vcl_phase). */
#define IDLE 0
#define NOTIFIED 1
#define KNOWN 2
#define RECORDING 3
#define WAITING 5 /* the scheduler */

/* Per-peer bits (vcl.c enum vcl_peer_bit). */
#define B_PROPOSAL 1
#define B_CUT 2
#define B_CLOSED 4

/* Application state of each rank, and the copy RETAINed at p. */
byte pc[N], idx[N], a_sent[N], a_rcvd[N], ret_sent[N], ret_rcvd[N];
/* Core state of each rank. */
byte phase[N], wave[N], swave[N], prop[N], high[N], at[N], nprop[N],
     nclosed[N];
/* Core per-peer state: index P(rank, peer). */
byte sent_c[N * N], recv_c[N * N], at_sent[N * N], at_recv[N * N],
     cut[N * N], bits[N * N];
/* Provisional records of rank r from peer j: messages numbered
 * rec_first..rec_last (core numbers), the first with payload rec_pay. */
byte rec_first[N * N], rec_last[N * N], rec_pay[N * N];
/* The scheduler. */
byte s_phase, s_wave, s_ndone;

/* Images: the wave in progress and the committed one. An image is the
 * application state at K and the kept channel state: keep_n messages from
 * each peer, payloads keep_pay, keep_pay + 1, ... */
byte img_wave[N], img_idx[N], img_sent[N], img_rcvd[N];
byte img_keep_n[N * N], img_keep_pay[N * N];
byte com_wave, com_idx[N], com_sent[N], com_rcvd[N];
byte com_keep_n[N * N], com_keep_pay[N * N];

byte waves, failures;
/* Scratch, 0 between steps (not hidden: pan -DBFS refuses hidden). */
byte t_j, t_k, t_w, t_v, t_m, t_r;

/* The committed wave: every rank at the same safe point, no orphan
 * (received at K <= sent at K), and the recorded channel state of each
 * channel is exactly its messages in transit at the cut: numbers
 * (received at K, sent at K]. Channel LEFT(r) -> r. */
#define CH_OK(r) (com_idx[r] == com_idx[0] && \
  com_rcvd[r] <= com_sent[LEFT(r)] && \
  com_keep_n[P(r, LEFT(r))] == com_sent[LEFT(r)] - com_rcvd[r] && \
  (com_keep_n[P(r, LEFT(r))] == 0 || com_keep_pay[P(r, LEFT(r))] == com_rcvd[r] + 1))
#if N == 2
#define CUT_OK (CH_OK(0) && CH_OK(1))
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END)
#else
#define CUT_OK (CH_OK(0) && CH_OK(1) && CH_OK(2))
#define ALL_END (pc[0] == PC_END && pc[1] == PC_END && pc[2] == PC_END)
#endif

/* The committed wave is always a consistent cut whose recorded channel
 * state is the set of messages in transit. */
ltl consistent { [] CUT_OK }
/* Every run is finite (bounded iterations, waves and failures), so
 * termination is checked where the run stops: proctype Watch. */

inline send_ctl(from, to, kind, w, val) {
  ctl[C(from, to)]!kind, w, val
}

/* ---- channels (vcl.c) ---- */

inline may_be_channel_state(r, j, res) {
  res = (phase[r] == RECORDING || (phase[r] == NOTIFIED && idx[r] >= prop[r])) &&
        !((bits[P(r, j)] & B_CUT) && recv_c[P(r, j)] >= cut[P(r, j)])
}

inline close_if_complete(r, j) {
  if
  :: (bits[P(r, j)] & (B_CUT | B_CLOSED)) == B_CUT &&
     recv_c[P(r, j)] >= cut[P(r, j)] ->
     bits[P(r, j)] = bits[P(r, j)] | B_CLOSED; nclosed[r]++
  :: else -> skip
  fi
}

/* With every channel closed: keep, per peer, the records numbered
 * (at_recv, cut] and store the image. */
inline store_if_complete(r) {
  if
  :: phase[r] == RECORDING && nclosed[r] == N ->
     t_j = 0;
     do
     :: t_j < N ->
#ifdef BUG
        img_keep_n[P(r, t_j)] = 0;
#else
        if
        :: cut[P(r, t_j)] > at_recv[P(r, t_j)] ->
           /* The runtime's check (ft_channel_keep): every message to keep
            * was recorded. */
           assert(rec_first[P(r, t_j)] != 0 &&
                  rec_first[P(r, t_j)] <= at_recv[P(r, t_j)] + 1 &&
                  rec_last[P(r, t_j)] >= cut[P(r, t_j)]);
           img_keep_n[P(r, t_j)] = cut[P(r, t_j)] - at_recv[P(r, t_j)];
           img_keep_pay[P(r, t_j)] = rec_pay[P(r, t_j)] +
             (at_recv[P(r, t_j)] + 1 - rec_first[P(r, t_j)])
        :: else -> img_keep_n[P(r, t_j)] = 0
        fi;
#endif
        rec_first[P(r, t_j)] = 0; rec_last[P(r, t_j)] = 0;
        rec_pay[P(r, t_j)] = 0;
        t_j++
     :: else -> break
     od;
     t_j = 0;
     /* STORE, and IMAGE_STORED at once: CHECKPOINT_DONE (the image's
      * transfer time is the DONE's time in the channel). The facts of the
      * wave are dead from here: cleared. */
     printf("MSC: rank %d stores its image of wave %d\n", r, wave[r]);
     send_ctl(r, S, DONE, wave[r], 0);
     phase[r] = IDLE; prop[r] = 0; high[r] = 0; at[r] = 0;
     nprop[r] = 0; nclosed[r] = 0; ret_sent[r] = 0; ret_rcvd[r] = 0;
     t_j = 0;
     do
     :: t_j < N -> bits[P(r, t_j)] = 0; cut[P(r, t_j)] = 0;
                   at_sent[P(r, t_j)] = 0; at_recv[P(r, t_j)] = 0; t_j++
     :: else -> break
     od;
     t_j = 0
  :: else -> skip
  fi
}

/* CAPTURE at K: the current state (retained == 0) or the copy retained at
 * p == K. Sends CUT (messages sent to the peer before K) to every other
 * rank. */
inline capture(r, retained) {
  t_j = 0;
  do
  :: t_j < N ->
     /* No orphan: what r received before K was sent before the CUT. */
     if
     :: retained -> assert(!((bits[P(r, t_j)] & B_CUT) &&
                            at_recv[P(r, t_j)] > cut[P(r, t_j)]))
     :: else -> assert(!((bits[P(r, t_j)] & B_CUT) &&
                         recv_c[P(r, t_j)] > cut[P(r, t_j)]));
                at_sent[P(r, t_j)] = sent_c[P(r, t_j)];
                at_recv[P(r, t_j)] = recv_c[P(r, t_j)]
     fi;
     if
     :: t_j != r -> send_ctl(r, t_j, CUT, wave[r], at_sent[P(r, t_j)])
     :: else -> skip
     fi;
     t_j++
  :: else -> break
  od;
  t_j = 0;
  bits[P(r, r)] = bits[P(r, r)] | B_CUT;
  cut[P(r, r)] = at_sent[P(r, r)];
  img_wave[r] = wave[r]; img_idx[r] = at[r];
  if
  :: retained -> img_sent[r] = ret_sent[r]; img_rcvd[r] = ret_rcvd[r]
  :: else -> img_sent[r] = a_sent[r]; img_rcvd[r] = a_rcvd[r]
  fi;
  printf("MSC: rank %d captures wave %d at safe point %d (sent %d, received %d)\n",
         r, wave[r], at[r], img_sent[r], img_rcvd[r]);
  phase[r] = RECORDING;
  nclosed[r] = 0;
  t_r = 0;
  do
  :: t_r < N -> close_if_complete(r, t_r); t_r++
  :: else -> break
  od;
  t_r = 0;
  store_if_complete(r)
}

inline release(r) {
  if :: pc[r] == PC_HELD -> pc[r] = PC_ITER :: else -> skip fi
}

/* Every proposal is in: K is the highest. */
inline learn_k(r) {
  at[r] = high[r];
  if
  :: pc[r] == PC_HELD && idx[r] == at[r] -> capture(r, 0)
  :: pc[r] != PC_HELD || idx[r] != at[r] ->
     if
     :: idx[r] >= at[r] -> assert(at[r] == prop[r]); capture(r, 1)
     :: else -> phase[r] = KNOWN
     fi
  fi;
  release(r)
}

inline check_proposals(r) {
  if :: nprop[r] == N - 1 -> learn_k(r) :: else -> skip fi
}

inline clear_wave(r) {
  t_j = 0;
  do
  :: t_j < N -> bits[P(r, t_j)] = 0; t_j++
  :: else -> break
  od;
  t_j = 0;
  nprop[r] = 0; nclosed[r] = 0; prop[r] = 0; high[r] = 0; at[r] = 0
}

/* The first marker of a wave: propose the next safe point. */
inline notice(r, w) {
  wave[r] = w;
  clear_wave(r);
  phase[r] = NOTIFIED;
  prop[r] = idx[r] + 1; high[r] = prop[r];
  printf("MSC: rank %d proposes safe point %d for wave %d\n", r, prop[r], w);
  t_j = 0;
  do
  :: t_j < N ->
     if :: t_j != r -> send_ctl(r, t_j, MARKER, w, prop[r]) :: else -> skip fi;
     t_j++
  :: else -> break
  od;
  t_j = 0
}

/* One control message of `from` to rank r, received into t_k, t_w, t_v.
 * Whatever the core would reject (step returns -1) is an assertion. */
inline on_control(r, from) {
  if
  :: from == S ->
     assert(t_k == MARKER && t_v == 0 && t_w == swave[r] + 1);
     if
     :: t_w == wave[r] + 1 && phase[r] == IDLE ->
        swave[r] = t_w; notice(r, t_w); check_proposals(r)
     :: else -> assert(t_w <= wave[r]); swave[r] = t_w
     fi
  :: from != S && t_k == MARKER ->
     assert(t_v >= 1);
     if
     :: phase[r] == IDLE && t_w == wave[r] + 1 -> notice(r, t_w)
     :: else -> assert(phase[r] == NOTIFIED && t_w == wave[r] &&
                       !(bits[P(r, from)] & B_PROPOSAL))
     fi;
     bits[P(r, from)] = bits[P(r, from)] | B_PROPOSAL;
     nprop[r]++;
     if :: t_v > high[r] -> high[r] = t_v :: else -> skip fi;
     check_proposals(r)
  :: from != S && t_k == CUT ->
     assert(t_w == wave[r] && (bits[P(r, from)] & B_PROPOSAL) &&
            !(bits[P(r, from)] & B_CUT) &&
            (phase[r] == NOTIFIED || phase[r] == KNOWN || phase[r] == RECORDING));
     /* No orphan. */
     assert(!(phase[r] == RECORDING && at_recv[P(r, from)] > t_v));
     bits[P(r, from)] = bits[P(r, from)] | B_CUT;
     cut[P(r, from)] = t_v;
     if
     :: phase[r] == RECORDING -> close_if_complete(r, from); store_if_complete(r)
     :: else -> skip
     fi
  :: else -> assert(false)
  fi;
  t_k = 0; t_w = 0; t_v = 0
}

/* DELIVERED: the application received payload t_m from j. */
inline on_delivered(r, j) {
  printf("MSC: rank %d receives message %d from rank %d\n", r, t_m, j);
  /* FIFO, nothing lost or delivered twice, across rollbacks too. */
  assert(t_m == a_rcvd[r] + 1);
  a_rcvd[r]++;
  may_be_channel_state(r, j, t_r);
  recv_c[P(r, j)]++;
#ifndef BUG
  if
  :: t_r ->
     if
     :: rec_first[P(r, j)] == 0 -> rec_first[P(r, j)] = recv_c[P(r, j)];
                                   rec_pay[P(r, j)] = t_m
     :: else -> assert(rec_last[P(r, j)] + 1 == recv_c[P(r, j)])
     fi;
     rec_last[P(r, j)] = recv_c[P(r, j)];
     printf("MSC: rank %d records message %d from rank %d\n", r, t_m, j)
  :: else -> skip
  fi;
#endif
  t_r = 0; t_m = 0;
  if
  :: phase[r] == RECORDING -> close_if_complete(r, j); store_if_complete(r)
  :: else -> skip
  fi
}

inline on_safe_point(r) {
  idx[r]++;
  printf("MSC: rank %d at safe point %d\n", r, idx[r]);
  if
  :: phase[r] == NOTIFIED && idx[r] == prop[r] + 1 -> pc[r] = PC_HELD
  :: else ->
     pc[r] = PC_ITER;
     if
     :: phase[r] == NOTIFIED && idx[r] == prop[r] -> /* RETAIN */
        ret_sent[r] = a_sent[r]; ret_rcvd[r] = a_rcvd[r];
        t_j = 0;
        do
        :: t_j < N -> at_sent[P(r, t_j)] = sent_c[P(r, t_j)];
                      at_recv[P(r, t_j)] = recv_c[P(r, t_j)]; t_j++
        :: else -> break
        od;
        t_j = 0
     :: phase[r] == KNOWN && idx[r] == at[r] -> capture(r, 0)
     :: else -> skip
     fi
  fi
}

#define CONTROL_FROM(J) \
  :: d_step { J <= N && J != i && nempty(ctl[C(J, i)]) -> \
       ctl[C(J, i)]?t_k, t_w, t_v; on_control(i, J) }

proctype Rank(byte i) {
end:
  do
  :: d_step { pc[i] == PC_SP -> on_safe_point(i) }
  /* Iteration idx: receive message idx - 1 (none in the first), then
   * send message idx (none in the last). */
  :: d_step { pc[i] == PC_ITER && (idx[i] == 1 || nempty(app[LEFT(i)])) ->
       if
       :: idx[i] > 1 -> app[LEFT(i)]?t_m; on_delivered(i, LEFT(i))
       :: else -> skip
       fi;
       if
       :: idx[i] < IT ->
          a_sent[i]++; sent_c[P(i, RIGHT(i))]++; app[i]!a_sent[i];
          printf("MSC: rank %d sends message %d to rank %d\n", i, a_sent[i], RIGHT(i));
          pc[i] = PC_SP
       :: else -> pc[i] = PC_END
       fi }
  CONTROL_FROM(0)
  CONTROL_FROM(1)
  CONTROL_FROM(2)
  CONTROL_FROM(3)
  od
}

inline commit() {
  t_j = 0;
  do
  :: t_j < N ->
     assert(img_wave[t_j] == s_wave);
     com_idx[t_j] = img_idx[t_j]; com_sent[t_j] = img_sent[t_j];
     com_rcvd[t_j] = img_rcvd[t_j];
     t_r = 0;
     do
     :: t_r < N -> com_keep_n[P(t_j, t_r)] = img_keep_n[P(t_j, t_r)];
                   com_keep_pay[P(t_j, t_r)] = img_keep_pay[P(t_j, t_r)]; t_r++
     :: else -> break
     od;
     t_r = 0;
     t_j++
  :: else -> break
  od;
  t_j = 0;
  com_wave = s_wave;
  printf("MSC: the scheduler commits wave %d\n", com_wave);
  assert(CUT_OK)
}

/* CHECKPOINT_DONE of rank J. */
#define DONE_FROM(J) \
  :: d_step { J < N && nempty(ctl[C(J, S)]) -> \
       ctl[C(J, S)]?t_k, t_w, t_v; \
       assert(t_k == DONE && t_w == s_wave && s_phase == WAITING); \
       s_ndone++; \
       if \
       :: s_ndone == N -> commit(); s_phase = IDLE \
       :: else -> skip \
       fi; \
       t_k = 0; t_w = 0; t_v = 0 }

proctype Scheduler() {
end:
  do
  /* The timer: a wave is due. */
  :: d_step { s_phase == IDLE && waves < MAXW ->
       waves++; s_wave++; s_ndone = 0; s_phase = WAITING;
       printf("MSC: the scheduler starts wave %d\n", s_wave);
       t_j = 0;
       do
       :: t_j < N -> send_ctl(S, t_j, MARKER, s_wave, 0); t_j++
       :: else -> break
       od;
       t_j = 0 }
  DONE_FROM(0)
  DONE_FROM(1)
  DONE_FROM(2)
  od
}

inline flush(c) {
  do :: nempty(c) -> c?_ :: empty(c) -> break od
}

inline flush_ctl(c) {
  do :: nempty(c) -> c?_, _, _ :: empty(c) -> break od
}

/* A failure, at any moment: every process restarts from the committed
 * wave (ROLLBACK: counts restart at 0), every message in flight and every
 * image in progress is dropped; the recorded messages go back to their
 * senders, which send them again first. */
proctype Failures() {
end:
  do
  :: d_step { failures < MAXF ->
       failures++;
       printf("MSC: FAILURE: everyone rolls back to wave %d\n", com_wave);
       t_j = 0;
       do
       :: t_j < (N + 1) * (N + 1) -> flush_ctl(ctl[t_j]); t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N * N ->
          sent_c[t_j] = 0; recv_c[t_j] = 0; at_sent[t_j] = 0; at_recv[t_j] = 0;
          cut[t_j] = 0; bits[t_j] = 0; rec_first[t_j] = 0; rec_last[t_j] = 0;
          rec_pay[t_j] = 0; img_keep_n[t_j] = 0; img_keep_pay[t_j] = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       do
       :: t_j < N ->
          flush(app[t_j]);
          idx[t_j] = com_idx[t_j]; a_sent[t_j] = com_sent[t_j];
          a_rcvd[t_j] = com_rcvd[t_j];
          if
          :: com_wave == 0 -> pc[t_j] = PC_SP
          :: else -> pc[t_j] = PC_ITER
          fi;
          ret_sent[t_j] = 0; ret_rcvd[t_j] = 0;
          phase[t_j] = IDLE; wave[t_j] = com_wave; swave[t_j] = com_wave;
          prop[t_j] = 0; high[t_j] = 0; at[t_j] = 0; nprop[t_j] = 0;
          nclosed[t_j] = 0;
          img_wave[t_j] = 0; img_idx[t_j] = 0; img_sent[t_j] = 0;
          img_rcvd[t_j] = 0;
          t_j++
       :: else -> break
       od;
       /* Replay: the channel state of LEFT(r) -> r goes back to LEFT(r),
        * which sends it again (an APP_SEND each) before anything new. */
       t_j = 0;
       do
       :: t_j < N ->
          t_m = 0;
          do
          :: t_m < com_keep_n[P(t_j, LEFT(t_j))] ->
             app[LEFT(t_j)]!com_keep_pay[P(t_j, LEFT(t_j))] + t_m;
             sent_c[P(LEFT(t_j), t_j)]++;
             t_m++
          :: else -> break
          od;
          t_m = 0;
          t_j++
       :: else -> break
       od;
       t_j = 0;
       s_phase = IDLE; s_wave = com_wave; s_ndone = 0 }
  od
}

/* When nothing can move any more (timeout), every rank has finished: no
 * rank held forever, the replay gave every rolled-back receiver what it
 * waits for, no control message is left unprocessed. */
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
