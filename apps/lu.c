/* lu: an SSOR-like pipelined wavefront on a 2D process grid (NAS LU style).
 *
 * The grid is N^3 points (--class or --size) with 5 components per point,
 * split over a px x py process grid (MPI_Dims_create) in x and y; every rank
 * holds whole z columns. Rank 0 computes the decomposition and hands each
 * rank its block with MPI_Scatter. One iteration, as NAS LU's ssor:
 *   - rhs: a 3 x 3 smoothing stencil in x-y after a halo exchange of the
 *     block's faces (NAS LU's exchange_3), x first, then y including the x
 *     ghosts so that the corners arrive too. Faces leave with MPI_Isend and
 *     are taken in arrival order: MPI_Probe(MPI_ANY_SOURCE) names the
 *     sender, MPI_Recv takes its face. These few any-source receives are
 *     LU's non-deterministic events (pessimist-openmpi-v.txt, Table I: about
 *     1% of LU's messages);
 *   - lower sweep: plane by plane (k = 0 .. N-1), MPI_Recv the west column
 *     and north row of plane k, compute the plane, MPI_Send east and south
 *     (NAS LU's blts and exchange_1);
 *   - upper sweep: the same from the other corner (k = N-1 .. 0, receive
 *     east and south with MPI_Irecv + MPI_Waitall, send west and north).
 * Each sweep solves a triangular system whose matrix is a product of 1D
 * bidiagonal factors: the lower one is
 *   u = (1-a)(1-b)(1-c) r + a u_W + b u_N + c u_B - ab u_WN - ac u_WB
 *       - bc u_NB + abc u_WNB,
 * i.e. ((I - a Sx)(I - b Sy)(I - c Sz) / ((1-a)(1-b)(1-c)))^-1 r.
 * The computation is modelled with NAS LU's operation count (ft_compute).
 *
 * Checkpoints (ft.h): the field v (ghosts included), the iteration counter,
 * the count of bad messages and the start time are protected; the safe
 * point is the top of each iteration. Every message of an iteration is
 * received within it (the halo's two faces per phase, each plane's strips
 * of both sweeps), and a rank can enter the next iteration's halo exchange
 * only after its neighbours have done this one's sweeps, so nothing is in
 * flight there. w is scratch: rhs and the sweeps rewrite every point of it
 * they read. v and w swap buffers every iteration, so v is registered again
 * at each safe point (after a rollback the restored field lands in whatever
 * buffer v is then, and the swaps go on from there). After a rollback main()
 * runs again from the top and the first ft_snapshot restores the rest.
 *
 * Verification: every operator is a tensor product of 1D operators, and the
 * initial field of component m is X_m(x) Y_m(y) Z_m(z); so after any number
 * of iterations component m is exactly X'(x) Y'(y) Z'(z), with X', Y', Z'
 * computed by every rank with 1D operations. Every rank checks every point
 * (relative error below LU_TOL), rank 0 checks the global sum of each
 * component (MPI_Reduce) against (sum X')(sum Y')(sum Z'); the ranks of a
 * process row share their failures (MPI_Comm_split, MPI_Allgather +
 * MPI_Allgatherv; the row's first rank prints the first ones), and a final
 * MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG) must find no message left over. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ft.h"

#define LU_A 0.5     /* coupling along x */
#define LU_B 0.4     /* along y */
#define LU_C 0.3     /* along z */
#define LU_EPS 0.2   /* rhs stencil weight of each x or y neighbour */
#define LU_TOL 1e-11 /* relative error allowed at any point */

enum { NCOMP = 5, MAX_REPORTS = 4, REPORT_LEN = 6 };
enum { TAG_HALO = 100, TAG_LOWER = 1000, TAG_UPPER = 4000 }; /* N <= 3000 */

struct lu_opts {
  const char *cls;
  int n, iters;
  double flops;
};

struct lu {
  struct lu_opts o;
  int rank, size, dims[2], cx, cy;
  int west, east, north, south; /* neighbours or MPI_PROC_NULL */
  int x0, nx, y0, ny, n;        /* block and global size */
  double *v, *w;                /* NCOMP x (N+2) x (ny+2) x (nx+2) */
  size_t cells;                 /* doubles in v, or in w */
  double *buf;                  /* message buffers: up to 4 halo strips */
  double flops;                 /* modelled per iteration */
  double *ax[3];                /* closed form: NCOMP x N per axis */
};

/* ft_protect ids. */
enum { ID_IT, ID_V, ID_BAD_MSGS, ID_T0 };

/* Index of point (i, j, k) of component c; i in [-1, nx], j in [-1, ny],
 * k in [-1, N]: one ghost layer on every side, zero at the boundary. */
static long at(const struct lu *s, int c, int i, int j, int k) {
  return (((long)c * (s->n + 2) + (k + 1)) * (s->ny + 2) + (j + 1)) *
             (s->nx + 2) +
         (i + 1);
}

/* ---- 1D operators: the closed form ---- */

static double initial(int m, int axis, int i) {
  return 0.5 + app_unit((uint64_t)m << 40 ^ (uint64_t)axis << 32 ^ (uint64_t)i);
}

/* f <- (1-2e) f + e (f[i-1] + f[i+1]), zero beyond the ends. */
static void op_smooth(double *f, int n, double *tmp) {
  for (int i = 0; i < n; i++)
    tmp[i] = (1 - 2 * LU_EPS) * f[i] +
             LU_EPS * ((i > 0 ? f[i - 1] : 0) + (i < n - 1 ? f[i + 1] : 0));
  memcpy(f, tmp, (size_t)n * sizeof(double));
}

/* The 1D lower then upper normalized bidiagonal solves, coupling a:
 * F(i) = (1-a) f(i) + a F(i-1), then G(i) = (1-a) F(i) + a G(i+1). */
static void op_sweeps(double *f, int n, double a) {
  for (int i = 0; i < n; i++)
    f[i] = (1 - a) * f[i] + (i > 0 ? a * f[i - 1] : 0.0);
  for (int i = n - 1; i >= 0; i--)
    f[i] = (1 - a) * f[i] + (i < n - 1 ? a * f[i + 1] : 0.0);
}

/* The closed-form factors of every component after `iters` iterations. */
static void closed_form(struct lu *s) {
  double coupling[3] = {LU_A, LU_B, LU_C}, *tmp;
  tmp = app_calloc("lu", (size_t)s->n, sizeof(double));
  for (int a = 0; a < 3; a++) {
    s->ax[a] = app_calloc("lu", (size_t)NCOMP * (size_t)s->n, sizeof(double));
    for (int m = 0; m < NCOMP; m++) {
      double *f = s->ax[a] + (long)m * s->n;
      for (int i = 0; i < s->n; i++)
        f[i] = initial(m, a, i);
      for (int it = 0; it < s->o.iters; it++) {
        if (a < 2)
          op_smooth(f, s->n, tmp);
        op_sweeps(f, s->n, coupling[a]);
      }
    }
  }
  free(tmp);
}

/* ---- Strips: the columns and rows messages carry ---- */

/* A column (i fixed, j in [lo, hi]) or a row (j fixed, i in [lo, hi]) of
 * planes k0..k1, for every component. */
struct strip {
  int column, fixed, lo, hi, k0, k1;
};

static int strip_len(struct strip st) {
  return NCOMP * (st.k1 - st.k0 + 1) * (st.hi - st.lo + 1);
}

/* Copies the strip of g into buf (to_buf) or back; returns the count. */
static int strip_copy(const struct lu *s, double *g, struct strip st,
                      double *buf, int to_buf) {
  int count = 0;
  for (int c = 0; c < NCOMP; c++)
    for (int k = st.k0; k <= st.k1; k++)
      for (int t = st.lo; t <= st.hi; t++) {
        long p =
            st.column ? at(s, c, st.fixed, t, k) : at(s, c, t, st.fixed, k);
        if (to_buf)
          buf[count++] = g[p];
        else
          g[p] = buf[count++];
      }
  return count;
}

/* One phase of the halo exchange along x (lo/hi = west/east) or y
 * (north/south): both faces leave with MPI_Isend, and the two arrivals are
 * taken in whichever order they come, MPI_Probe(MPI_ANY_SOURCE) naming the
 * sender. Returns the number of messages of unexpected size or source. */
struct phase {
  struct strip out[2], in[2]; /* [0]: toward/from lo, [1]: hi */
  int peer[2], tag;
};

static long halo_phase(struct lu *s, double *g, const struct phase *ph) {
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int len = strip_len(ph->out[0]), pending = 0;
  long bad = 0;
  for (int d = 0; d < 2; d++) {
    if (ph->peer[d] == MPI_PROC_NULL)
      continue;
    strip_copy(s, g, ph->out[d], s->buf + d * len, 1);
    MPI_Isend(s->buf + d * len, len, MPI_DOUBLE, ph->peer[d], ph->tag,
              MPI_COMM_WORLD, &req[d]);
    pending++;
  }
  for (; pending > 0; pending--) {
    MPI_Status st;
    int count, d;
    MPI_Probe(MPI_ANY_SOURCE, ph->tag, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    d = st.MPI_SOURCE == ph->peer[1];
    bad += count != len || st.MPI_SOURCE != ph->peer[d];
    MPI_Recv(s->buf + (2 + d) * len, count, MPI_DOUBLE, st.MPI_SOURCE, ph->tag,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (count == len)
      strip_copy(s, g, ph->in[d], s->buf + (2 + d) * len, 0);
  }
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  return bad;
}

/* Fills v's ghosts from the neighbours: x first, then y over the x ghosts
 * too (the corners). The domain boundary's ghosts stay zero. */
static long halo(struct lu *s, double *g) {
  int N = s->n - 1, X = s->nx - 1, Y = s->ny - 1;
  struct phase x = {{{1, 0, 0, Y, 0, N}, {1, X, 0, Y, 0, N}},
                    {{1, -1, 0, Y, 0, N}, {1, s->nx, 0, Y, 0, N}},
                    {s->west, s->east},
                    TAG_HALO};
  struct phase y = {{{0, 0, -1, s->nx, 0, N}, {0, Y, -1, s->nx, 0, N}},
                    {{0, -1, -1, s->nx, 0, N}, {0, s->ny, -1, s->nx, 0, N}},
                    {s->north, s->south},
                    TAG_HALO + 1};
  return halo_phase(s, g, &x) + halo_phase(s, g, &y);
}

/* out[i] = (Tx (x) Ty) v at one row, i in [0, nx), from the row before it
 * (b), the row itself (r) and the row after it (a); each row has its ghost
 * at index -1 and nx. Straight-line code: the 3 x 3 loop it replaces (three
 * iterations, 36 bytes) ran up to 25% slower or faster depending on where
 * the compiler placed it, and the SMPI module and the real executable place
 * it differently (README, "Cross-check against this machine"). */
static void rhs_row(double *restrict out, const double *b, const double *r,
                    const double *a, int nx) {
  const double e = LU_EPS, m = 1 - 2 * LU_EPS;
  const double ee = e * e, em = e * m, mm = m * m;
  for (int i = 0; i < nx; i++)
    out[i] = ee * (b[i - 1] + b[i + 1] + a[i - 1] + a[i + 1]) +
             em * (b[i] + a[i] + r[i - 1] + r[i + 1]) + mm * r[i];
}

/* w = (Tx (x) Ty) v on the interior, T = tridiag(eps, 1 - 2 eps, eps). */
static long rhs(struct lu *s) {
  long bad = halo(s, s->v);
  for (int c = 0; c < NCOMP; c++)
    for (int k = 0; k < s->n; k++)
      for (int j = 0; j < s->ny; j++)
        rhs_row(s->w + at(s, c, 0, j, k), s->v + at(s, c, 0, j - 1, k),
                s->v + at(s, c, 0, j, k), s->v + at(s, c, 0, j + 1, k), s->nx);
  ft_compute(0.30 * s->flops);
  return bad;
}

/* ---- Lower sweep ---- */

/* One point of the lower (d = -1) or upper (d = +1) triangular solve. */
static double solve_at(const struct lu *s, const double *u, int c, int i, int j,
                       int k, int d) {
  const double a = LU_A, b = LU_B, cc = LU_C;
  double r = (1 - a) * (1 - b) * (1 - cc) * u[at(s, c, i, j, k)];
  return r + a * u[at(s, c, i + d, j, k)] + b * u[at(s, c, i, j + d, k)] +
         cc * u[at(s, c, i, j, k + d)] - a * b * u[at(s, c, i + d, j + d, k)] -
         a * cc * u[at(s, c, i + d, j, k + d)] -
         b * cc * u[at(s, c, i, j + d, k + d)] +
         a * b * cc * u[at(s, c, i + d, j + d, k + d)];
}

static void lower_plane(struct lu *s, int k) {
  for (int c = 0; c < NCOMP; c++)
    for (int j = 0; j < s->ny; j++)
      for (int i = 0; i < s->nx; i++)
        s->w[at(s, c, i, j, k)] = solve_at(s, s->w, c, i, j, k, -1);
  ft_compute(0.35 * s->flops / s->n);
}

/* Receives plane k's west column and north row (as NAS LU: MPI_Recv from
 * each). Returns the number of messages of unexpected size. */
static long lower_receive(struct lu *s, int k) {
  struct strip in[2] = {{1, -1, -1, s->ny - 1, k, k},
                        {0, -1, 0, s->nx - 1, k, k}};
  int from[2] = {s->west, s->north};
  long bad = 0;
  for (int d = 0; d < 2; d++) {
    MPI_Status st;
    int count;
    if (from[d] == MPI_PROC_NULL)
      continue;
    MPI_Recv(s->buf, strip_len(in[d]), MPI_DOUBLE, from[d], TAG_LOWER + k,
             MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    bad += count != strip_len(in[d]);
    strip_copy(s, s->w, in[d], s->buf, 0);
  }
  return bad;
}

static void send_strip(struct lu *s, struct strip st, int dest, int tag) {
  if (dest == MPI_PROC_NULL)
    return;
  int n = strip_copy(s, s->w, st, s->buf, 1);
  MPI_Send(s->buf, n, MPI_DOUBLE, dest, tag, MPI_COMM_WORLD);
}

static long lower_sweep(struct lu *s) {
  long bad = 0;
  for (int k = 0; k < s->n; k++) {
    bad += lower_receive(s, k);
    lower_plane(s, k);
    struct strip east = {1, s->nx - 1, -1, s->ny - 1, k, k};
    struct strip south = {0, s->ny - 1, 0, s->nx - 1, k, k};
    send_strip(s, east, s->east, TAG_LOWER + k);
    send_strip(s, south, s->south, TAG_LOWER + k);
  }
  return bad;
}

/* ---- Upper sweep ---- */

static void upper_plane(struct lu *s, int k) {
  for (int c = 0; c < NCOMP; c++)
    for (int j = s->ny - 1; j >= 0; j--)
      for (int i = s->nx - 1; i >= 0; i--)
        s->w[at(s, c, i, j, k)] = solve_at(s, s->w, c, i, j, k, +1);
  ft_compute(0.35 * s->flops / s->n);
}

/* Receives plane k's east column and south row (MPI_Irecv + MPI_Waitall). */
static void upper_receive(struct lu *s, int k, double *ebuf, double *sbuf) {
  struct strip eg = {1, s->nx, 0, s->ny, k, k},
               sg = {0, s->ny, 0, s->nx - 1, k, k};
  MPI_Request req[2];
  MPI_Irecv(ebuf, strip_len(eg), MPI_DOUBLE, s->east, TAG_UPPER + k,
            MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(sbuf, strip_len(sg), MPI_DOUBLE, s->south, TAG_UPPER + k,
            MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  if (s->east != MPI_PROC_NULL)
    strip_copy(s, s->w, eg, ebuf, 0);
  if (s->south != MPI_PROC_NULL)
    strip_copy(s, s->w, sg, sbuf, 0);
}

static void upper_sweep(struct lu *s) {
  double *ebuf = s->buf + NCOMP * (s->nx + s->ny + 2);
  double *sbuf = ebuf + NCOMP * (s->ny + 1);
  for (int k = s->n - 1; k >= 0; k--) {
    upper_receive(s, k, ebuf, sbuf);
    upper_plane(s, k);
    struct strip west = {1, 0, 0, s->ny, k, k};
    struct strip north = {0, 0, 0, s->nx - 1, k, k};
    send_strip(s, west, s->west, TAG_UPPER + k);
    send_strip(s, north, s->north, TAG_UPPER + k);
  }
}

/* ---- Verification ---- */

static double expected(const struct lu *s, int c, int i, int j, int k) {
  return s->ax[0][(long)c * s->n + s->x0 + i] *
         s->ax[1][(long)c * s->n + s->y0 + j] * s->ax[2][(long)c * s->n + k];
}

static double max_abs(const double *f, int n) {
  double m = 0;
  for (int i = 0; i < n; i++)
    m = fmax(m, fabs(f[i]));
  return m;
}

/* Checks every point; records up to MAX_REPORTS failures (c, x, y, z, got,
 * expected) in rep; returns the number of failures. */
static long check_points(const struct lu *s, double *rep, double sums[NCOMP]) {
  long bad = 0;
  for (int c = 0; c < NCOMP; c++) {
    double scale = 1, sum = 0;
    for (int a = 0; a < 3; a++)
      scale *= max_abs(s->ax[a] + (long)c * s->n, s->n);
    for (int k = 0; k < s->n; k++)
      for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++) {
          double got = s->v[at(s, c, i, j, k)], ex = expected(s, c, i, j, k);
          sum += got;
          if (fabs(got - ex) <= LU_TOL * scale)
            continue;
          if (bad < MAX_REPORTS) {
            double r[REPORT_LEN] = {c, s->x0 + i, s->y0 + j, k, got, ex};
            memcpy(rep + bad * REPORT_LEN, r, sizeof r);
          }
          bad++;
        }
    sums[c] = sum;
  }
  return bad;
}

/* Every rank of a process row learns its row's failures: counts by
 * MPI_Allgather, the reports by MPI_Allgatherv, on the row's communicator
 * (MPI_Comm_split by row). The row's first rank prints the first reports.
 * Returns the number of failures in the row. */
static long share_failures(const struct lu *s, long bad, const double *rep) {
  MPI_Comm row;
  int size, mine = (int)(bad < MAX_REPORTS ? bad : MAX_REPORTS) * REPORT_LEN;
  long total;
  MPI_Comm_split(MPI_COMM_WORLD, s->cy, s->cx, &row);
  MPI_Comm_size(row, &size);
  int *counts = app_calloc("lu", (size_t)size, sizeof(int));
  int *displs = app_calloc("lu", (size_t)size, sizeof(int));
  MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, row);
  for (int r = 1; r < size; r++)
    displs[r] = displs[r - 1] + counts[r - 1];
  int all = displs[size - 1] + counts[size - 1];
  double *reports = app_calloc("lu", (size_t)all, sizeof(double));
  MPI_Allgatherv(rep, mine, MPI_DOUBLE, reports, counts, displs, MPI_DOUBLE,
                 row);
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, row);
  for (int i = 0; s->cx == 0 && i < all && i < MAX_REPORTS * REPORT_LEN;
       i += REPORT_LEN)
    printf("lu: component %.0f at (%.0f, %.0f, %.0f): %.17g, expected %.17g\n",
           reports[i], reports[i + 1], reports[i + 2], reports[i + 3],
           reports[i + 4], reports[i + 5]);
  free(counts), free(displs), free(reports);
  MPI_Comm_free(&row);
  return total;
}

/* Rank 0: global sums of each component against the closed form. */
static int check_sums(const struct lu *s, const double sums[NCOMP],
                      double *worst) {
  double global[NCOMP];
  MPI_Reduce(sums, global, NCOMP, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  *worst = 0;
  if (s->rank != 0)
    return 1;
  for (int c = 0; c < NCOMP; c++) {
    double ex = 1;
    for (int a = 0; a < 3; a++) {
      double t = 0;
      for (int i = 0; i < s->n; i++)
        t += s->ax[a][(long)c * s->n + i];
      ex *= t;
    }
    *worst = fmax(*worst, fabs(global[c] - ex) / fabs(ex));
  }
  return *worst <= LU_TOL;
}

/* No message may be left unreceived once everyone is done. */
static int nothing_left(void) {
  int flag;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
             MPI_STATUS_IGNORE);
  return !flag;
}

static void verify(struct lu *s, long bad_msgs, double seconds) {
  double rep[MAX_REPORTS * REPORT_LEN], sums[NCOMP], worst;
  closed_form(s);
  long bad = check_points(s, rep, sums), total;
  int ok = share_failures(s, bad, rep) == 0 && bad_msgs == 0;
  ok &= check_sums(s, sums, &worst);
  ok &= nothing_left();
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  ok = app_verdict(ok, worst);
  if (s->rank == 0)
    printf("lu: %d^3 grid on %dx%d ranks, %d iterations in %.6f s, %ld of "
           "%ld points wrong, checksum error %.3e: %s\n",
           s->n, s->dims[0], s->dims[1], s->o.iters, seconds, total,
           (long)s->n * s->n * s->n * NCOMP, worst, app_verdict_word(ok));
}

/* ---- Setup and main ---- */

/* NAS LU's classes: grid and iterations (NPB 3.3). */
static const struct app_nas_class CLASSES[] = {{'S', 12, 50},
                                               {'W', 33, 300},
                                               {'A', 64, 250},
                                               {'B', 102, 250},
                                               {'C', 162, 250}};

/* NAS LU's operation count per iteration (lu.f, print_results). */
static double nas_flops(int n) {
  double nd = n;
  return 1984.77 * nd * nd * nd - 10923.3 * nd * nd + 27770.9 * nd - 144010.0;
}

/* Rank 0 decides every rank's block; MPI_Scatter hands them out. */
static void decompose(struct lu *s) {
  int mine[4], *all = NULL;
  if (s->rank == 0) {
    all = app_calloc("lu", (size_t)s->size * 4, sizeof(int));
    for (int r = 0; r < s->size; r++) {
      long x0, nx, y0, ny;
      app_block(s->n, s->dims[0], r % s->dims[0], &x0, &nx);
      app_block(s->n, s->dims[1], r / s->dims[0], &y0, &ny);
      int block[4] = {(int)x0, (int)nx, (int)y0, (int)ny};
      memcpy(all + 4 * r, block, sizeof block);
    }
  }
  MPI_Scatter(all, 4, MPI_INT, mine, 4, MPI_INT, 0, MPI_COMM_WORLD);
  s->x0 = mine[0], s->nx = mine[1], s->y0 = mine[2], s->ny = mine[3];
  free(all);
}

static void neighbours(struct lu *s) {
  int px = s->dims[0], py = s->dims[1];
  s->cx = s->rank % px, s->cy = s->rank / px;
  s->west = s->cx > 0 ? s->rank - 1 : MPI_PROC_NULL;
  s->east = s->cx < px - 1 ? s->rank + 1 : MPI_PROC_NULL;
  s->north = s->cy > 0 ? s->rank - px : MPI_PROC_NULL;
  s->south = s->cy < py - 1 ? s->rank + px : MPI_PROC_NULL;
}

static void init_field(struct lu *s) {
  for (int c = 0; c < NCOMP; c++)
    for (int k = 0; k < s->n; k++)
      for (int j = 0; j < s->ny; j++)
        for (int i = 0; i < s->nx; i++)
          s->v[at(s, c, i, j, k)] = initial(c, 0, s->x0 + i) *
                                    initial(c, 1, s->y0 + j) * initial(c, 2, k);
}

static void setup(struct lu *s, const struct lu_opts *o) {
  s->o = *o;
  MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s->size);
  s->dims[0] = s->dims[1] = 0;
  MPI_Dims_create(s->size, 2, s->dims);
  if (s->dims[0] > s->n || s->dims[1] > s->n)
    app_usage_error("lu",
                    "a %d^3 grid cannot be split over %dx%d ranks; "
                    "use a larger --class or --size",
                    s->n, s->dims[0], s->dims[1]);
  neighbours(s);
  decompose(s);
  s->cells = (size_t)NCOMP * (size_t)(s->n + 2) * (size_t)(s->ny + 2) *
             (size_t)(s->nx + 2);
  s->v = app_calloc("lu", s->cells, sizeof(double));
  s->w = app_calloc("lu", s->cells, sizeof(double));
  int longest = (s->nx > s->ny ? s->nx : s->ny) + 2;
  s->buf = app_calloc("lu", (size_t)NCOMP * (size_t)(4 * s->n * longest),
                      sizeof(double));
  s->flops = o->flops >= 0 ? o->flops : nas_flops(s->n) / s->size;
  init_field(s);
}

static void release(struct lu *s) {
  free(s->v), free(s->w), free(s->buf);
  for (int a = 0; a < 3; a++)
    free(s->ax[a]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct lu_opts o = {.cls = "A", .n = 0, .iters = 5, .flops = -1};
  const struct app_opt opts[] = {
      {"class", APP_OPT_STRING, &o.cls, 0, 0, "S|W|A|B|C",
       "NAS LU class: grid 12, 33, 64, 102 or 162 (default A)"},
      {"size", APP_OPT_INT, &o.n, 2, 3000, "N",
       "grid N^3 instead of the class"},
      {"iters", APP_OPT_INT, &o.iters, 1, 1e6, "N",
       "SSOR iterations (default 5; NAS runs 50 to 300)"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops per iteration per rank (default NAS LU's count / P)"},
  };
  const struct app_spec spec = {
      "lu", "NAS LU-like pipelined SSOR wavefront on a 2D process grid", opts,
      sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  const struct app_nas_class *cls =
      app_find_nas_class(CLASSES, sizeof CLASSES / sizeof CLASSES[0], o.cls);
  if (!cls)
    app_usage_error("lu", "option --class: '%s' is not one of S W A B C",
                    o.cls);
  struct lu s;
  s.n = o.n > 0 ? o.n : cls->n;
  setup(&s, &o);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(); /* restored too: the time includes any rollback */
  long bad_msgs = 0;
  int it;
  ft_protect(ID_IT, &it, sizeof it);
  ft_protect(ID_BAD_MSGS, &bad_msgs, sizeof bad_msgs);
  ft_protect(ID_T0, &t0, sizeof t0);
  for (it = 0; it < o.iters; it++) {
    /* v is one buffer or the other: register the one it is now */
    ft_protect(ID_V, s.v, s.cells * sizeof *s.v);
    ft_snapshot(); /* may restore it, v, bad_msgs, t0 */
    bad_msgs += rhs(&s);
    bad_msgs += lower_sweep(&s);
    upper_sweep(&s);
    double *t = s.v;
    s.v = s.w, s.w = t;
  }
  double seconds = MPI_Wtime() - t0;
  verify(&s, bad_msgs, seconds);
  release(&s);
  MPI_Finalize();
  return 0;
}
