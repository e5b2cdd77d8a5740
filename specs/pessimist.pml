/* Pessimistic sender-based message logging (Open MPI-V's Vprotocol
 * pessimist; pessimist-openmpi-v, sections 2.1-2.3 and 3.2).
 *
 *   spin -DN=3 [-DBUG] -a pessimist.pml   (specs/check.sh pessimist 3 [bug])
 *
 * N ranks run S steps. In step s a rank probes MPI_ANY_SOURCE (Iprobe) up
 * to twice, stopping at the first success, and receives the message a
 * successful probe found; then it sends message s to rank (r + s) mod N
 * (the other rank when that is itself). After its steps it receives the
 * messages still due to it by named source. A probe's outcome (nothing,
 * or a message of source j) is non-deterministic: it is an event, number
 * r for the r-th probe of the rank. Receptions by named source are
 * deterministic and log nothing.
 *
 * Protocol, as in section 3.2:
 *  - a successful probe is an event shipped to the event logger (EL) with
 *    the rank's next send; failed probes are logged lazily: "only one
 *    event is created for all the consecutive failed NDD. If a send
 *    operation occurs, any pending NDD have to be flushed to the EL. If a
 *    NDD succeeds, any pending lazy NDD is discarded";
 *  - "every event is safely logged before any MPI send can progress": a
 *    send waits until the EL acknowledged every event shipped;
 *  - every send is copied into the sender's volatile log (sender-based
 *    payload logging); a message carries the sender's probe count d (its
 *    state depends on its probes 1..d);
 *  - a failure (any rank, any moment, up to MAXF) loses the rank's memory,
 *    its sender-based log and the messages in flight to and from it; the
 *    rank restarts alone from its checkpoint (the initial state), fetches
 *    its events from the EL, every peer resends the messages of its
 *    sender-based log to it, and the replay forces the logged outcomes:
 *    probe r with an event gets its outcome, a probe with no event below a
 *    logged one returns nothing ("NDD whose clock is lower than the first
 *    NDD event in the log have to return no request completed"), later
 *    probes are free again. A re-executed send that the receiver already
 *    has is dropped (the receiver discards duplicates).
 *
 * Each step is one d_step over global state, so that a failure (one
 * d_step of the environment) always finds every process between steps.
 *
 * -DBUG: a send does not wait for the event logger's acknowledgement. */

#ifndef N
#define N 2
#endif
#ifndef S
#define S 2 /* steps (sends) per rank */
#endif
#ifndef MAXF
#if N == 2
#define MAXF 2
#else
#define MAXF 1
#endif
#endif
#define R (2 * S) /* probes per rank, at most */

#define P(r, j) ((r) * N + (j)) /* per pair: r's view of j */
#define DEST(r, s) (((r) + (s)) % N == (r) -> ((r) + 1) % N : ((r) + (s)) % N)

/* Probe outcomes, as logged: 0 unknown (no event), NOTHING, or FROM(j). */
#define NOTHING 1
#define FROM(j) (2 + (j))

/* app[P(from, to)]: message number (1, 2, ... per pair) and d. */
chan app[N * N] = [S] of { byte, byte };
chan ev[N] = [2] of { byte, byte }; /* rank -> EL: probe number, outcome */
chan ack[N] = [2] of { bit };       /* EL -> rank */

/* Where a rank is. */
#define ST_DRAIN (S + 1) /* step: receiving what is still due */
#define ST_END (S + 2)

/* Application and protocol state of each rank (volatile: lost when it
 * fails). */
byte st[N], tries[N], r[N];
bit sending[N];             /* probes over, the send of the step is next */
byte un_r[N], un_o[N];      /* the unshipped event of a success: r, outcome */
byte pend_fail[N];          /* last failed probe not covered by an event */
byte sh[N], ak[N];          /* events shipped, acknowledged */
byte rh[N];                 /* replay: probes 1..rh[r] are forced */
byte rcvd[N * N], sent[N * N]; /* messages received from / sent to a peer */
byte dep[N * N];            /* dep[P(q, p)]: q depends on p's probes 1..dep */
byte slog_d[N * N * S];     /* sender-based log: d of message k of P(p, q) */

/* The event logger (stable). */
byte lg[N * R]; /* outcome of probe k of rank r at lg[r * R + k - 1] */
byte hz[N];     /* the highest probe number logged for the rank */

/* Ghosts: the reference history of every rank (outcome and message number
 * of each probe), kept across its failures; failures; the property flag. */
byte gh[N * R], gseq[N * R], glen[N];
byte failures;
bit orphan;
/* Scratch, 0 between steps (not hidden: pan -DBFS refuses hidden). */
byte t_j, t_k, t_m, t_d, t_o, t_q;

/* Messages rank p receives from j over its whole run. */
#define DUE(p, j) (((j) != (p) && DEST(j, 1) == (p) -> 1 : 0) + \
                  ((j) != (p) && S >= 2 && DEST(j, 2) == (p) -> 1 : 0))

#if N == 2
#define ALL_END (st[0] == ST_END && st[1] == ST_END)
#else
#define ALL_END (st[0] == ST_END && st[1] == ST_END && st[2] == ST_END)
#endif

/* No orphan: when a rank fails, no other rank depends on one of its
 * events the EL does not hold ("a process must never depend on an
 * unlogged event from another process", section 2.1). */
ltl noorphan { [] !orphan }

/* Probe k (1-based) of rank p: the outcome the replay forces, 0 if free. */
#define FORCED(p, k) ((k) <= rh[p] -> \
  (lg[(p) * R + (k) - 1] != 0 -> lg[(p) * R + (k) - 1] : NOTHING) : 0)

/* Probe r[p] had outcome o (message number seq): compare it with the
 * reference history. The replay must reproduce it; a free probe may
 * diverge, but then nobody may depend on it. */
inline history(p, o, seq) {
  if
  :: r[p] <= glen[p] &&
     (gh[(p) * R + r[p] - 1] != o || gseq[(p) * R + r[p] - 1] != seq) ->
     /* The restarted rank reaches the same state as before the failure
      * for every logged event. */
     assert(r[p] > rh[p]);
     /* ... and for every event another rank depends on. */
     t_q = 0;
     do
     :: t_q < N -> assert(t_q == p || dep[P(t_q, p)] < r[p]); t_q++
     :: else -> break
     od;
     t_q = 0;
     glen[p] = r[p] - 1
  :: else -> skip
  fi;
  if
  :: r[p] > glen[p] ->
     gh[(p) * R + r[p] - 1] = o; gseq[(p) * R + r[p] - 1] = seq; glen[p] = r[p]
  :: else -> skip
  fi
}

/* Deliver the head of app[P(j, p)]: FIFO, nothing lost or twice. */
inline deliver(p, j) {
  app[P(j, p)]?t_m, t_d;
  assert(t_m == rcvd[P(p, j)] + 1);
  rcvd[P(p, j)]++;
  if :: t_d > dep[P(p, j)] -> dep[P(p, j)] = t_d :: else -> skip fi
}

inline end_probe(p) {
  tries[p]++;
  if :: tries[p] == 2 -> sending[p] = 1 :: else -> skip fi
}

inline probe_nothing(p) {
  r[p]++;
  printf("MSC: rank %d probe %d: nothing\n", p, r[p]);
  history(p, NOTHING, 0);
  if :: r[p] > rh[p] -> pend_fail[p] = r[p] :: else -> skip fi; /* lazy */
  end_probe(p)
}

inline probe_from(p, j) {
  r[p]++;
  deliver(p, j);
  printf("MSC: rank %d probe %d: message %d from rank %d\n", p, r[p], t_m, j);
  history(p, FROM(j), t_m);
  if
  :: r[p] > rh[p] -> un_r[p] = r[p]; un_o[p] = FROM(j); pend_fail[p] = 0
  :: else -> skip
  fi;
  t_m = 0; t_d = 0;
  sending[p] = 1
}

/* APP_SEND: ship the pending event (the success, or the lazy failures). */
inline ship(p) {
  if
  :: un_r[p] != 0 -> ev[p]!un_r[p], un_o[p]; sh[p]++
  :: un_r[p] == 0 && pend_fail[p] != 0 -> ev[p]!pend_fail[p], NOTHING; sh[p]++
  :: else -> skip
  fi;
  un_r[p] = 0; un_o[p] = 0; pend_fail[p] = 0
}

inline send(p) {
  t_q = DEST(p, st[p]);
  sent[P(p, t_q)]++;
  t_k = sent[P(p, t_q)];
  slog_d[P(p, t_q) * S + t_k - 1] = r[p];
  if
  :: t_k > rcvd[P(t_q, p)] -> app[P(p, t_q)]!t_k, r[p];
     printf("MSC: rank %d sends message %d to rank %d (after %d probes)\n",
            p, t_k, t_q, r[p])
  :: else -> skip /* a duplicate of a re-execution: dropped */
  fi;
  t_q = 0; t_k = 0;
  sending[p] = 0; tries[p] = 0;
  st[p]++
}

inline drained(p, res) {
  res = 1;
  t_q = 0;
  do
  :: t_q < N -> if :: rcvd[P(p, t_q)] < DUE(p, t_q) -> res = 0 :: else -> skip fi; t_q++
  :: else -> break
  od;
  t_q = 0
}

/* Probes of rank i that may find source J, and deterministic receptions
 * from J once the steps are over. */
#define FROM_J(J) \
  :: d_step { J < N && J != i && st[i] <= S && !sending[i] && \
              nempty(app[P(J, i)]) && \
              (FORCED(i, r[i] + 1) == 0 || FORCED(i, r[i] + 1) == FROM(J)) -> \
       probe_from(i, J) } \
  :: d_step { J < N && J != i && st[i] == ST_DRAIN && nempty(app[P(J, i)]) -> \
       deliver(i, J); t_m = 0; t_d = 0; \
       drained(i, t_o); \
       if :: t_o -> st[i] = ST_END :: else -> skip fi; t_o = 0 }

proctype Rank(byte i) {
end:
  do
  :: d_step { st[i] <= S && !sending[i] &&
              (FORCED(i, r[i] + 1) == 0 || FORCED(i, r[i] + 1) == NOTHING) ->
       probe_nothing(i) }
  FROM_J(0)
  FROM_J(1)
  FROM_J(2)
  :: d_step { st[i] <= S && sending[i] && un_r[i] + pend_fail[i] != 0 -> ship(i) }
#ifdef BUG
  :: d_step { st[i] <= S && sending[i] && un_r[i] + pend_fail[i] == 0 -> send(i);
#else
  :: d_step { st[i] <= S && sending[i] && un_r[i] + pend_fail[i] == 0 &&
              ak[i] == sh[i] -> send(i);
#endif
       if
       :: st[i] == ST_DRAIN -> drained(i, t_o);
          if :: t_o -> st[i] = ST_END :: else -> skip fi; t_o = 0
       :: else -> skip
       fi }
  :: d_step { nempty(ack[i]) -> ack[i]?_; ak[i]++ }
  od
}

#define LOG_FROM(J) \
  :: d_step { J < N && nempty(ev[J]) -> \
       ev[J]?t_k, t_o; \
       assert(lg[J * R + t_k - 1] == 0); \
       lg[J * R + t_k - 1] = t_o; \
       if :: t_k > hz[J] -> hz[J] = t_k :: else -> skip fi; \
       printf("MSC: EL logs probe %d of rank %d\n", t_k, J); \
       ack[J]!1; t_k = 0; t_o = 0 }

proctype EventLogger() {
end:
  do
  LOG_FROM(0)
  LOG_FROM(1)
  LOG_FROM(2)
  od
}

inline flush_app(c) {
  do :: nempty(c) -> c?_, _ :: empty(c) -> break od
}

/* Rank p fails and restarts alone from its initial state. */
inline fail(p) {
  failures++;
  printf("MSC: FAILURE of rank %d; the EL holds its probes up to %d\n", p, hz[p]);
  /* No orphan: nobody depends on an event the EL does not hold. */
  t_q = 0;
  do
  :: t_q < N -> if :: t_q != p && dep[P(t_q, p)] > hz[p] -> orphan = 1
                   :: else -> skip fi; t_q++
  :: else -> break
  od;
  t_q = 0;
  do :: nempty(ev[p]) -> ev[p]?_, _ :: empty(ev[p]) -> break od;
  do :: nempty(ack[p]) -> ack[p]?_ :: empty(ack[p]) -> break od;
  st[p] = 1; tries[p] = 0; r[p] = 0; sending[p] = 0; un_r[p] = 0; un_o[p] = 0;
  pend_fail[p] = 0; sh[p] = 0; ak[p] = 0;
  rh[p] = hz[p]; /* its events, fetched from the EL */
  t_j = 0;
  do
  :: t_j < N ->
     flush_app(app[P(t_j, p)]); flush_app(app[P(p, t_j)]);
     rcvd[P(p, t_j)] = 0; sent[P(p, t_j)] = 0; dep[P(p, t_j)] = 0;
     t_k = 0;
     do
     :: t_k < S -> slog_d[P(p, t_j) * S + t_k] = 0; t_k++
     :: else -> break
     od;
     /* The peer resends its sender-based log to p. */
     t_k = 0;
     do
     :: t_k < sent[P(t_j, p)] -> app[P(t_j, p)]!t_k + 1, slog_d[P(t_j, p) * S + t_k];
                                 t_k++
     :: else -> break
     od;
     t_k = 0;
     t_j++
  :: else -> break
  od;
  t_j = 0
}

proctype Failures() {
end:
  do
  :: d_step { failures < MAXF -> fail(0) }
  :: d_step { failures < MAXF -> fail(1) }
  :: d_step { failures < MAXF && N > 2 -> fail(2) }
  od
}

/* When nothing can move any more (timeout), every rank has finished and
 * received every message due to it exactly once. */
proctype Watch() {
end:
  timeout ->
  d_step {
    assert(ALL_END);
    t_j = 0;
    do
    :: t_j < N * N -> assert(rcvd[t_j] == DUE(t_j / N, t_j % N) && empty(app[t_j]));
                      t_j++
    :: else -> break
    od;
    t_j = 0
  }
}

init {
  atomic {
    byte k = 0;
    do
    :: k < N -> st[k] = 1; run Rank(k); k++
    :: else -> break
    od;
    run EventLogger();
    run Failures();
    run Watch()
  }
}
