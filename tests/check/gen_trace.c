/* A synthetic trace for the checker's speed (docs/traces.md, "Speed"): RANKS
 * ranks on a ring exchange one message each way per iteration, with a
 * safe point at the top of each iteration, a coordinated wave every PERIOD
 * iterations (rank 0 commits) and, with FAIL_AT, one rollback at that
 * iteration to the last committed wave, after which the run goes on to
 * ITERS. The trace is consistent: `ftsim check` must say ok.
 *
 * Usage: gen_trace PREFIX RANKS ITERS PERIOD [FAIL_AT]  (writes PREFIX.r) */
#include <stdio.h>
#include <stdlib.h>

static void iteration(FILE *f, int r, int n, int inc, long k, long seq,
                      double t) {
  fprintf(f, "%.9f %d %d send 0 p %d 1 %ld 8\n", t, r, inc, (r + 1) % n, seq);
  fprintf(f, "%.9f %d %d send 0 p %d 2 %ld 8\n", t, r, inc, (r + n - 1) % n,
          seq);
  fprintf(f, "%.9f %d %d deliver 0 p %d 1 %ld 8\n", t + 1e-4, r, inc,
          (r + n - 1) % n, seq);
  fprintf(f, "%.9f %d %d deliver 0 p %d 2 %ld 8\n", t + 1e-4, r, inc,
          (r + 1) % n, seq);
  (void)k;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: gen_trace PREFIX RANKS ITERS PERIOD [FAIL_AT]\n");
    return 2;
  }
  int n = atoi(argv[2]);
  long iters = atol(argv[3]), period = atol(argv[4]);
  long fail = argc > 5 ? atol(argv[5]) : 0;
  if (n < 2 || iters < 1 || period < 1 || (fail && fail <= period)) {
    fprintf(stderr, "gen_trace: RANKS >= 2, ITERS >= 1, PERIOD >= 1, "
                    "FAIL_AT > PERIOD\n");
    return 2;
  }
  char name[4096];
  for (int r = 0; r < n; r++) {
    snprintf(name, sizeof name, "%s.%d", argv[1], r);
    FILE *f = fopen(name, "w");
    if (!f) {
      perror(name);
      return 1;
    }
    fprintf(f,
            "# ftsim-trace 3 rank %d ranks %d protocol pcl family coordinated "
            "run "
            "00000000000000aa\n",
            r, n);
    long step = 0, end0 = fail ? fail : iters;
    for (long k = 1; k <= end0; k++, step++) { /* incarnation 0 */
      double t = (double)step * 1e-3;
      fprintf(f, "%.9f %d 0 safe %ld\n", t, r, k);
      if (k % period == 0) {
        fprintf(f, "%.9f %d 0 ckpt %ld %ld\n", t, r, k / period, k);
        if (r == 0)
          fprintf(f, "%.9f 0 0 commit %ld 0\n", t + 5e-4, k / period);
      }
      if (k < end0)
        iteration(f, r, n, 0, k, k, t + 2e-4);
    }
    if (fail) { /* incarnation 1, from the last committed wave (the one
                   committed at FAIL_AT itself when PERIOD divides it) */
      long w = fail / period, kw = w * period, seq = 0;
      double t = (double)step * 1e-3;
      fprintf(f, "%.9f %d 1 rollback %ld %ld\n", t, r, w, kw);
      fprintf(f, "%.9f %d 1 restore %ld %ld\n", t + 1e-4, r, w, kw);
      for (long k = kw; k <= iters; k++, step++) {
        t = (double)step * 1e-3 + 2e-4;
        if (k > kw)
          fprintf(f, "%.9f %d 1 safe %ld\n", t, r, k);
        if (k > kw && k % period == 0) {
          fprintf(f, "%.9f %d 1 ckpt %ld %ld\n", t, r, k / period, k);
          if (r == 0)
            fprintf(f, "%.9f 0 1 commit %ld 1\n", t + 5e-4, k / period);
        }
        if (k < iters)
          iteration(f, r, n, 1, k, ++seq, t + 2e-4);
      }
    }
    fprintf(f, "%.9f %d %d end\n", (double)step * 1e-3 + 1.0, r, fail ? 1 : 0);
    if (fclose(f) != 0) {
      perror(name);
      return 1;
    }
  }
  return 0;
}
