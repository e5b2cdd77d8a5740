/* The pause policy of reference mode's service waiter (backend_real.c), on
 * its own so that `ftsim calibrate`'s service ping-pong
 * (analysis/calibrate.c) naps exactly as the services do. Pure: no MPI,
 * no clock (the caller passes the time), no sleeping (it returns how
 * long).
 *
 * After a completion the waiter tests without pausing for
 * FT_WAITER_SPIN_S, then naps, FT_WAITER_NAP_MIN_S at first, doubling up
 * to FT_WAITER_NAP_MAX_S while nothing completes (backend_real.c says
 * why these values). */
#ifndef FT_WAITER_POLICY_H
#define FT_WAITER_POLICY_H

#define FT_WAITER_SPIN_S 5e-5
#define FT_WAITER_NAP_MIN_S 1e-6
#define FT_WAITER_NAP_MAX_S 1e-4

struct ft_nap {
  double spin_until; /* test without pausing until then */
  double nap;        /* the next nap, seconds */
};

/* A request completed at `now`: spin, then naps from the shortest. */
static inline void ft_nap_woke(struct ft_nap *w, double now) {
  w->spin_until = now + FT_WAITER_SPIN_S;
  w->nap = FT_WAITER_NAP_MIN_S;
}

/* Between two rounds of tests at `now`: the seconds to sleep (0 while
 * spinning), each nap twice the one before, up to the longest. */
static inline double ft_nap_next(struct ft_nap *w, double now) {
  if (now < w->spin_until)
    return 0;
  double s = w->nap;
  w->nap = w->nap * 2 < FT_WAITER_NAP_MAX_S ? w->nap * 2 : FT_WAITER_NAP_MAX_S;
  return s;
}

#endif /* FT_WAITER_POLICY_H */
