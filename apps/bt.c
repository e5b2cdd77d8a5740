/* bt: NAS BT's multi-partition ADI solver, its messages and its verification.
 *
 * The grid is N^3 points (--class or --size) with 5 components, on P = q^2
 * ranks (P must be a perfect square). As in NAS BT, the grid is cut into
 * q^3 cells and rank (i, j) owns the q cells (a, b, c) with
 * a = (i - c) mod q, b = (j - c) mod q (one cell in every slab of every
 * direction: multi-partition). One time step, as NAS BT's adi:
 *   - copy_faces: every cell needs its 6 neighbours' faces; they are packed
 *     per neighbour process (x: (i+-1, j), y: (i, j+-1), z: (i+-1, j+-1)),
 *     sent with MPI_Isend, received with MPI_Irecv; the right-hand side of
 *     the cells' interiors is computed meanwhile, arrived faces are
 *     unpacked with MPI_Testany, the rest with MPI_Waitany;
 *   - compute_rhs: w = u + beta (dxx + dyy + dzz) u;
 *   - x_solve, y_solve, z_solve: (I - alpha d..) w = rhs along every line,
 *     by the Thomas algorithm pipelined across the q cells of a line: stage s
 *     works on the cell of slab s and passes the boundary plane to the owner
 *     of the next cell (forward elimination, then back substitution). x
 *     stages talk along the process row (MPI_Comm_split by j, MPI_Sendrecv),
 *     y stages along the column (split by i, MPI_Sendrecv), z stages to the
 *     diagonal neighbour (MPI_Isend / MPI_Irecv / MPI_Waitall on the world).
 * Computation is modelled with NAS BT's operation count (ft_compute).
 *
 * Checkpoints (ft.h): u of every cell (one allocation for all of a rank's
 * cells, ghosts included), the step counter and the start time are
 * protected; the safe point is the top of each time step, where every face
 * and every pipeline stage of the previous step has been received. w is
 * scratch (compute_rhs and the solves rewrite what they read). After a
 * rollback main() runs again from the top and the first ft_snapshot
 * restores the rest.
 *
 * Verification: the initial field of each component is a sum of two
 * discrete sine modes, which are eigenvectors of every operator above
 * (Dirichlet boundaries), so after T steps each mode is multiplied by
 * G^T with G = (1 - beta S) / ((1 + alpha s1)(1 + alpha s2)(1 + alpha s3)):
 * every rank checks every point against that closed form (MPI_Allreduce of
 * the largest error). The sums over every x-plane are checked too, after a
 * transpose-like step: each row sends each cell's plane sums to the row
 * rank that owns that cell's x-slab (MPI_Alltoall of the counts,
 * MPI_Alltoallv of the sums), and each column adds up its rows' partials
 * (MPI_Reduce) on its rank 0, which compares them with the closed form.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ft.h"

#define BT_ALPHA 0.5 /* implicit diffusion of the solves */
#define BT_BETA 0.1  /* explicit diffusion of the right-hand side */
#define BT_TOL 1e-10 /* largest error allowed, relative to the amplitude */
#define BT_PI 3.14159265358979323846

enum { NCOMP = 5, NDIR = 6 };
enum { TAG_FACE = 300, TAG_ZFWD = 320, TAG_ZBWD = 321 };

struct bt_opts {
  const char *cls;
  int n, iters;
  double flops;
};

struct cell {
  int pos[3];        /* (a, b, c) in the q^3 cells */
  int lo[3], len[3]; /* first global point and points per axis */
  long stride[4];    /* x, y, z, component */
  double *u, *w;     /* NCOMP x (len+2)^3 with ghosts; u in bt->u */
};

struct bt {
  struct bt_opts o;
  int rank, size, q, i, j, n;
  MPI_Comm row, col;  /* same j (rank i), same i (rank j) */
  struct cell *cells; /* cells[c]: the cell of z-slab c */
  double *u;          /* every cell's u, one after the other */
  size_t ulen;        /* doubles in u */
  double *den;        /* Thomas: 1 / pivot of global line point g */
  double *sface[NDIR], *rface[NDIR], *sbuf, *rbuf;
  double fpp; /* modelled flops per point per step */
};

/* ft_protect ids. */
enum { ID_IT, ID_U, ID_T0 };

/* ---- Cells ---- */

static long at(const struct cell *c, int m, int x, int y, int z) {
  return m * c->stride[3] + (z + 1) * c->stride[2] + (y + 1) * c->stride[1] +
         (x + 1);
}

static long points(const struct cell *c) {
  return (long)c->len[0] * c->len[1] * c->len[2];
}

static void make_cell(struct bt *bt, struct cell *c, int slab) {
  c->pos[0] = (bt->i - slab + bt->q) % bt->q;
  c->pos[1] = (bt->j - slab + bt->q) % bt->q;
  c->pos[2] = slab;
  for (int a = 0; a < 3; a++) {
    long lo, len;
    app_block(bt->n, bt->q, c->pos[a], &lo, &len);
    c->lo[a] = (int)lo, c->len[a] = (int)len;
  }
  c->stride[0] = 1;
  c->stride[1] = c->len[0] + 2;
  c->stride[2] = c->stride[1] * (c->len[1] + 2);
  c->stride[3] = c->stride[2] * (c->len[2] + 2);
  c->w = app_calloc("bt", (size_t)(NCOMP * c->stride[3]), sizeof(double));
}

/* Every cell's u in one allocation (bt->u), protected as one buffer. */
static void alloc_u(struct bt *bt) {
  bt->ulen = 0;
  for (int c = 0; c < bt->q; c++)
    bt->ulen += (size_t)(NCOMP * bt->cells[c].stride[3]);
  bt->u = app_calloc("bt", bt->ulen, sizeof(double));
  size_t off = 0;
  for (int c = 0; c < bt->q; c++) {
    bt->cells[c].u = bt->u + off;
    off += (size_t)(NCOMP * bt->cells[c].stride[3]);
  }
}

/* Copies layer `t` of axis `ax` of grid g (the other two axes over the
 * interior, every component) into buf (to_buf) or back; returns the count. */
static int face_copy(const struct cell *c, double *g, int ax, int t,
                     double *buf, int to_buf) {
  int o1 = (ax + 1) % 3, o2 = (ax + 2) % 3, count = 0;
  for (int m = 0; m < NCOMP; m++)
    for (int y2 = 0; y2 < c->len[o2]; y2++)
      for (int y1 = 0; y1 < c->len[o1]; y1++) {
        long p = m * c->stride[3] + (t + 1) * c->stride[ax] +
                 (y1 + 1) * c->stride[o1] + (y2 + 1) * c->stride[o2];
        if (to_buf)
          buf[count++] = g[p];
        else
          g[p] = buf[count++];
      }
  return count;
}

/* ---- copy_faces: the halo exchange ---- */

/* The process on side `side` (0: low, 1: high) of direction `ax`. */
static int neighbour(const struct bt *bt, int ax, int side) {
  int d = side ? 1 : bt->q - 1;
  int i = (bt->i + (ax != 1 ? d : 0)) % bt->q;
  int j = (bt->j + (ax != 0 ? d : 0)) % bt->q;
  return i + bt->q * j;
}

/* Whether cell c has a neighbour cell on that side. */
static int has_side(const struct bt *bt, const struct cell *c, int ax,
                    int side) {
  return side ? c->pos[ax] < bt->q - 1 : c->pos[ax] > 0;
}

/* Packs the faces my cells send toward side `side` of `ax`. */
static int pack_dir(struct bt *bt, int ax, int side, double *buf) {
  int count = 0;
  for (int c = 0; c < bt->q; c++) {
    struct cell *cl = &bt->cells[c];
    if (has_side(bt, cl, ax, side))
      count +=
          face_copy(cl, cl->u, ax, side ? cl->len[ax] - 1 : 0, buf + count, 1);
  }
  return count;
}

/* Unpacks the faces arriving from side `side` into my cells' ghosts. */
static int unpack_dir(struct bt *bt, int ax, int side, double *buf, int go) {
  int count = 0;
  for (int c = 0; c < bt->q; c++) {
    struct cell *cl = &bt->cells[c];
    if (!has_side(bt, cl, ax, side))
      continue;
    if (go)
      count +=
          face_copy(cl, cl->u, ax, side ? cl->len[ax] : -1, buf + count, 0);
    else
      count += NCOMP * cl->len[(ax + 1) % 3] * cl->len[(ax + 2) % 3];
  }
  return count;
}

/* Direction index d = 2 ax + side; a face sent toward side s of ax arrives
 * on side 1 - s of the receiver, with the sender's direction as tag. */
static void post_faces(struct bt *bt, MPI_Request rreq[NDIR],
                       MPI_Request sreq[NDIR]) {
  for (int d = 0; d < NDIR; d++) {
    int ax = d / 2, side = d % 2, peer = neighbour(bt, ax, side);
    int rcount = unpack_dir(bt, ax, side, NULL, 0);
    int scount = pack_dir(bt, ax, side, bt->sface[d]);
    rreq[d] = sreq[d] = MPI_REQUEST_NULL;
    if (rcount > 0)
      MPI_Irecv(bt->rface[d], rcount, MPI_DOUBLE, peer,
                TAG_FACE + 2 * ax + (1 - side), MPI_COMM_WORLD, &rreq[d]);
    if (scount > 0)
      MPI_Isend(bt->sface[d], scount, MPI_DOUBLE, peer, TAG_FACE + d,
                MPI_COMM_WORLD, &sreq[d]);
  }
}

/* ---- compute_rhs ---- */

/* w = u + beta (dxx + dyy + dzz) u on the box [x0..x1] x [y0..y1] x
 * [z0..z1] of cell c (empty if some lo > hi). */
static void rhs_box(const struct cell *c, const int lo[3], const int hi[3]) {
  for (int m = 0; m < NCOMP; m++)
    for (int z = lo[2]; z <= hi[2]; z++)
      for (int y = lo[1]; y <= hi[1]; y++)
        for (int x = lo[0]; x <= hi[0]; x++) {
          long p = at(c, m, x, y, z);
          double lap = -6 * c->u[p];
          for (int a = 0; a < 3; a++)
            lap += c->u[p - c->stride[a]] + c->u[p + c->stride[a]];
          c->w[p] = c->u[p] + BT_BETA * lap;
        }
}

/* The points with no ghost among their neighbours. */
static void rhs_inner(const struct bt *bt, const struct cell *c) {
  int lo[3] = {1, 1, 1}, hi[3];
  for (int a = 0; a < 3; a++)
    hi[a] = c->len[a] - 2;
  rhs_box(c, lo, hi);
  long inner = 1;
  for (int a = 0; a < 3; a++)
    inner *= hi[a] >= lo[a] ? hi[a] - lo[a] + 1 : 0;
  ft_compute(0.25 * bt->fpp * (double)inner);
}

/* The rest: the two boundary layers of every axis. */
static void rhs_shell(const struct bt *bt, const struct cell *c) {
  long inner = 1;
  for (int a = 0; a < 3; a++) {
    for (int side = 0; side < 2; side++) {
      int lo[3], hi[3];
      for (int b = 0; b < 3; b++) {
        lo[b] = b < a ? 1 : 0;
        hi[b] = b < a ? c->len[b] - 2 : c->len[b] - 1;
      }
      lo[a] = hi[a] = side ? c->len[a] - 1 : 0;
      rhs_box(c, lo, hi);
    }
    inner *= c->len[a] > 2 ? c->len[a] - 2 : 0;
  }
  ft_compute(0.25 * bt->fpp * (double)(points(c) - inner));
}

static void unpack_arrived(struct bt *bt, int d) {
  unpack_dir(bt, d / 2, d % 2, bt->rface[d], 1);
}

/* copy_faces overlapped with the interior of compute_rhs. */
static void compute_rhs(struct bt *bt) {
  MPI_Request rreq[NDIR], sreq[NDIR];
  int d, flag;
  post_faces(bt, rreq, sreq);
  for (int c = 0; c < bt->q; c++)
    rhs_inner(bt, &bt->cells[c]);
  for (;;) { /* unpack what has come meanwhile */
    MPI_Testany(NDIR, rreq, &d, &flag, MPI_STATUS_IGNORE);
    if (!flag || d == MPI_UNDEFINED)
      break;
    unpack_arrived(bt, d);
  }
  for (;;) { /* then wait for the rest */
    MPI_Waitany(NDIR, rreq, &d, MPI_STATUS_IGNORE);
    if (d == MPI_UNDEFINED)
      break;
    unpack_arrived(bt, d);
  }
  MPI_Waitall(NDIR, sreq, MPI_STATUSES_IGNORE);
  for (int c = 0; c < bt->q; c++)
    rhs_shell(bt, &bt->cells[c]);
}

/* ---- x_solve, y_solve, z_solve: pipelined Thomas algorithm ---- */

/* Forward elimination along ax over cell c: d'(g) = (d(g) + alpha d'(g-1))
 * * den(g); the ghost at t = -1 holds d'(lo - 1) from the previous cell. */
static void forward(const struct bt *bt, const struct cell *c, int ax) {
  int o1 = (ax + 1) % 3, o2 = (ax + 2) % 3;
  long s = c->stride[ax];
  for (int m = 0; m < NCOMP; m++)
    for (int y2 = 0; y2 < c->len[o2]; y2++)
      for (int y1 = 0; y1 < c->len[o1]; y1++) {
        long p = m * c->stride[3] + c->stride[ax] + (y1 + 1) * c->stride[o1] +
                 (y2 + 1) * c->stride[o2];
        for (int t = 0; t < c->len[ax]; t++, p += s) {
          int g = c->lo[ax] + t;
          double prev = g > 0 ? BT_ALPHA * c->w[p - s] : 0.0;
          c->w[p] = (c->w[p] + prev) * bt->den[g];
        }
      }
}

/* Back substitution: x(g) = d'(g) + alpha den(g) x(g+1); the ghost at
 * t = len holds x(lo + len) from the next cell. */
static void backward(const struct bt *bt, const struct cell *c, int ax) {
  int o1 = (ax + 1) % 3, o2 = (ax + 2) % 3, n = c->len[ax];
  long s = c->stride[ax];
  for (int m = 0; m < NCOMP; m++)
    for (int y2 = 0; y2 < c->len[o2]; y2++)
      for (int y1 = 0; y1 < c->len[o1]; y1++) {
        long p = m * c->stride[3] + (n + 1) * s + (y1 + 1) * c->stride[o1] +
                 (y2 + 1) * c->stride[o2];
        for (int t = n - 1; t >= 0; t--) {
          int g = c->lo[ax] + t;
          p -= s;
          if (g < bt->n - 1)
            c->w[p] += BT_ALPHA * bt->den[g] * c->w[p + s];
        }
      }
}

/* My cell whose coordinate along ax is s (one per slab: multi-partition). */
static struct cell *cell_of_stage(struct bt *bt, int ax, int s) {
  int slab = ax == 0 ? bt->i - s : ax == 1 ? bt->j - s : s;
  return &bt->cells[(slab % bt->q + bt->q) % bt->q];
}

/* Passes layer `from_t` of `from` to the next stage's owner and receives
 * layer `to_t` of `to` (the cell of the next stage) from the previous one.
 * dir = +1 in the forward pass, -1 backward. */
static void hand_over(struct bt *bt, int ax, int dir, struct cell *from,
                      int from_t, struct cell *to, int to_t) {
  int n = face_copy(from, from->w, ax, from_t, bt->sbuf, 1);
  int m = NCOMP * to->len[(ax + 1) % 3] * to->len[(ax + 2) % 3];
  int q = bt->q, up = dir > 0 ? 1 : q - 1, down = q - up;
  if (ax == 0)
    MPI_Sendrecv(bt->sbuf, n, MPI_DOUBLE, (bt->i + up) % q, 0, bt->rbuf, m,
                 MPI_DOUBLE, (bt->i + down) % q, 0, bt->row, MPI_STATUS_IGNORE);
  else if (ax == 1)
    MPI_Sendrecv(bt->sbuf, n, MPI_DOUBLE, (bt->j + up) % q, 0, bt->rbuf, m,
                 MPI_DOUBLE, (bt->j + down) % q, 0, bt->col, MPI_STATUS_IGNORE);
  else {
    MPI_Request req[2];
    int tag = dir > 0 ? TAG_ZFWD : TAG_ZBWD;
    int to_rank = (bt->i + up) % q + q * ((bt->j + up) % q);
    int from_rank = (bt->i + down) % q + q * ((bt->j + down) % q);
    MPI_Irecv(bt->rbuf, m, MPI_DOUBLE, from_rank, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(bt->sbuf, n, MPI_DOUBLE, to_rank, tag, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  face_copy(to, to->w, ax, to_t, bt->rbuf, 0);
}

static void solve_axis(struct bt *bt, int ax) {
  double share = 0.75 / 3 / 2 * bt->fpp;
  for (int s = 0; s < bt->q; s++) {
    struct cell *c = cell_of_stage(bt, ax, s);
    forward(bt, c, ax);
    ft_compute(share * (double)points(c));
    if (s < bt->q - 1)
      hand_over(bt, ax, +1, c, c->len[ax] - 1, cell_of_stage(bt, ax, s + 1),
                -1);
  }
  for (int s = bt->q - 1; s >= 0; s--) {
    struct cell *c = cell_of_stage(bt, ax, s), *next;
    backward(bt, c, ax);
    ft_compute(share * (double)points(c));
    if (s > 0) {
      next = cell_of_stage(bt, ax, s - 1);
      hand_over(bt, ax, -1, c, 0, next, next->len[ax]);
    }
  }
}

/* u = w on the interior of every cell (the ghosts of u stay: zero at the
 * domain boundary, refilled by copy_faces elsewhere). */
static void update(struct bt *bt) {
  for (int k = 0; k < bt->q; k++) {
    struct cell *c = &bt->cells[k];
    for (int m = 0; m < NCOMP; m++)
      for (int z = 0; z < c->len[2]; z++)
        for (int y = 0; y < c->len[1]; y++)
          memcpy(c->u + at(c, m, 0, y, z), c->w + at(c, m, 0, y, z),
                 (size_t)c->len[0] * sizeof(double));
  }
}

static void adi(struct bt *bt) {
  compute_rhs(bt);
  for (int ax = 0; ax < 3; ax++)
    solve_axis(bt, ax);
  update(bt);
}

/* ---- The closed form ---- */

/* Two sine modes per component (wave numbers along x, y, z) and their
 * amplitudes. */
static const int MODES[NCOMP][2][3] = {{{1, 1, 1}, {2, 1, 3}},
                                       {{1, 2, 1}, {3, 1, 2}},
                                       {{2, 2, 1}, {1, 3, 3}},
                                       {{1, 1, 2}, {2, 3, 1}},
                                       {{3, 2, 2}, {1, 1, 3}}};
static const double AMPL[2] = {1.0, 0.5};

static double mode(const struct bt *bt, int k, int g) {
  return sin(BT_PI * k * (g + 1) / (bt->n + 1));
}

/* sigma_k: -(second difference) of mode k = sigma_k mode k. */
static double sigma(const struct bt *bt, int k) {
  double s = sin(BT_PI * k / (2.0 * (bt->n + 1)));
  return 4 * s * s;
}

/* Amplitude of term t of component m after `steps` time steps. */
static double amplitude(const struct bt *bt, int m, int t, int steps) {
  const int *k = MODES[m][t];
  double sum = 0, den = 1;
  for (int a = 0; a < 3; a++) {
    sum += sigma(bt, k[a]);
    den *= 1 + BT_ALPHA * sigma(bt, k[a]);
  }
  return AMPL[t] * pow((1 - BT_BETA * sum) / den, steps);
}

static double exact(const struct bt *bt, int m, const int g[3], int steps) {
  double v = 0;
  for (int t = 0; t < 2; t++) {
    double f = amplitude(bt, m, t, steps);
    for (int a = 0; a < 3; a++)
      f *= mode(bt, MODES[m][t][a], g[a]);
    v += f;
  }
  return v;
}

/* The exact sum of component m over the x-plane at global x. */
static double exact_plane(const struct bt *bt, int m, int x, int steps) {
  double v = 0;
  for (int t = 0; t < 2; t++) {
    double f = amplitude(bt, m, t, steps) * mode(bt, MODES[m][t][0], x);
    for (int a = 1; a < 3; a++) {
      double s = 0;
      for (int g = 0; g < bt->n; g++)
        s += mode(bt, MODES[m][t][a], g);
      f *= s;
    }
    v += f;
  }
  return v;
}

/* init: sets u to the closed form at step 0; otherwise returns the largest
 * difference between u and the closed form after `steps` steps. */
static double check_cells(struct bt *bt, int steps, int init) {
  double worst = 0;
  for (int k = 0; k < bt->q; k++) {
    struct cell *c = &bt->cells[k];
    for (int m = 0; m < NCOMP; m++)
      for (int z = 0; z < c->len[2]; z++)
        for (int y = 0; y < c->len[1]; y++)
          for (int x = 0; x < c->len[0]; x++) {
            int g[3] = {c->lo[0] + x, c->lo[1] + y, c->lo[2] + z};
            double ex = exact(bt, m, g, steps), *u = &c->u[at(c, m, x, y, z)];
            if (init) {
              *u = ex;
              continue;
            }
            worst = fmax(worst, fabs(*u - ex));
          }
  }
  return worst;
}

/* ---- Setup, verification, main ---- */

/* NAS BT's classes: grid and time steps (NPB 3.3). */
static const struct app_nas_class CLASSES[] = {{'S', 12, 60},
                                               {'W', 24, 200},
                                               {'A', 64, 200},
                                               {'B', 102, 200},
                                               {'C', 162, 200}};

/* NAS BT's operation count per time step (bt.f). */
static double nas_flops(int n) {
  double nd = n;
  return 3478.8 * nd * nd * nd - 17655.7 * nd * nd + 28023.7 * nd;
}

static void thomas_pivots(struct bt *bt) {
  bt->den = app_calloc("bt", (size_t)bt->n, sizeof(double));
  for (int g = 0; g < bt->n; g++)
    bt->den[g] = 1.0 / (1 + 2 * BT_ALPHA -
                        (g > 0 ? BT_ALPHA * BT_ALPHA * bt->den[g - 1] : 0.0));
}

static void alloc_buffers(struct bt *bt) {
  long side = (bt->n + bt->q - 1) / bt->q;
  size_t face = (size_t)(NCOMP * side * side);
  for (int d = 0; d < NDIR; d++) {
    bt->sface[d] = app_calloc("bt", face * (size_t)bt->q, sizeof(double));
    bt->rface[d] = app_calloc("bt", face * (size_t)bt->q, sizeof(double));
  }
  bt->sbuf = app_calloc("bt", face, sizeof(double));
  bt->rbuf = app_calloc("bt", face, sizeof(double));
}

static void setup(struct bt *bt, const struct bt_opts *o, int n) {
  bt->o = *o;
  bt->n = n;
  MPI_Comm_rank(MPI_COMM_WORLD, &bt->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &bt->size);
  bt->q = (int)lround(sqrt((double)bt->size));
  if (bt->q * bt->q != bt->size)
    app_usage_error("bt", "needs a square number of ranks (got %d)", bt->size);
  if (bt->q > n || n < 4)
    app_usage_error("bt",
                    "a %d^3 grid cannot be cut into %d^3 cells (at "
                    "least 4 and one point per cell): use a larger --class "
                    "or --size",
                    n, bt->q);
  bt->i = bt->rank % bt->q, bt->j = bt->rank / bt->q;
  MPI_Comm_split(MPI_COMM_WORLD, bt->j, bt->i, &bt->row);
  MPI_Comm_split(MPI_COMM_WORLD, bt->i, bt->j, &bt->col);
  bt->cells = app_calloc("bt", (size_t)bt->q, sizeof(struct cell));
  for (int c = 0; c < bt->q; c++)
    make_cell(bt, &bt->cells[c], c);
  alloc_u(bt);
  thomas_pivots(bt);
  alloc_buffers(bt);
  double local = (double)n * n * n / bt->size;
  bt->fpp = (o->flops >= 0 ? o->flops : nas_flops(n) / bt->size) / local;
  check_cells(bt, 0, 1);
}

/* Sums of every component over each x-plane of cell c, into out
 * (NCOMP x len[0]). */
static void plane_sums(const struct cell *c, double *out) {
  for (int m = 0; m < NCOMP; m++)
    for (int x = 0; x < c->len[0]; x++) {
      double s = 0;
      for (int z = 0; z < c->len[2]; z++)
        for (int y = 0; y < c->len[1]; y++)
          s += c->u[at(c, m, x, y, z)];
      out[m * c->len[0] + x] = s;
    }
}

/* Moves every cell's x-plane sums to the rank of the row that owns its
 * slab: slab a's partials go to row rank a (MPI_Alltoall of the counts,
 * MPI_Alltoallv of the sums), which adds them up in `partial`. */
static void transpose_planes(struct bt *bt, double *partial, int len) {
  int q = bt->q, *cnt = app_calloc("bt", 4 * (size_t)q, sizeof(int));
  int *sdis = cnt + q, *rcnt = cnt + 2 * q, *rdis = cnt + 3 * q;
  double *sbuf =
      app_calloc("bt", (size_t)(NCOMP * (bt->n + q)), sizeof(double));
  for (int a = 0, off = 0; a < q; a++) {
    struct cell *c = &bt->cells[((bt->i - a) % q + q) % q]; /* slab a */
    plane_sums(c, sbuf + off);
    cnt[a] = NCOMP * c->len[0], sdis[a] = off, off += cnt[a];
  }
  MPI_Alltoall(cnt, 1, MPI_INT, rcnt, 1, MPI_INT, bt->row);
  for (int r = 0; r < q; r++)
    rdis[r] = r * NCOMP * len, rcnt[r] = rcnt[r] == NCOMP * len ? rcnt[r] : 0;
  double *rbuf = app_calloc("bt", (size_t)(q * NCOMP * len), sizeof(double));
  MPI_Alltoallv(sbuf, cnt, sdis, MPI_DOUBLE, rbuf, rcnt, rdis, MPI_DOUBLE,
                bt->row);
  for (int r = 0; r < q; r++)
    for (int k = 0; k < NCOMP * len; k++)
      partial[k] += rbuf[r * NCOMP * len + k];
  free(cnt), free(sbuf), free(rbuf);
}

/* Checks the sums of every x-plane: the column adds its rows' partials on
 * its rank 0 (MPI_Reduce), which compares slab i's planes with the closed
 * form. Returns the verdict of this rank and the largest error. */
static int check_planes(struct bt *bt, double *worst) {
  long lo, len;
  app_block(bt->n, bt->q, bt->i, &lo, &len); /* my row rank's slab */
  size_t k = (size_t)(NCOMP * len);
  double *partial = app_calloc("bt", k, sizeof(double));
  double *total = app_calloc("bt", k, sizeof(double));
  transpose_planes(bt, partial, (int)len);
  MPI_Reduce(partial, total, (int)k, MPI_DOUBLE, MPI_SUM, 0, bt->col);
  *worst = 0;
  for (int m = 0; bt->j == 0 && m < NCOMP; m++)
    for (long x = 0; x < len; x++)
      *worst =
          fmax(*worst, fabs(total[m * len + x] -
                            exact_plane(bt, m, (int)(lo + x), bt->o.iters)));
  free(partial), free(total);
  return *worst <= BT_TOL * bt->n * bt->n;
}

static void verify(struct bt *bt, double seconds) {
  double local = check_cells(bt, bt->o.iters, 0), worst, plane, planes;
  int ok = check_planes(bt, &plane);
  MPI_Allreduce(&local, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(&plane, &planes, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  ok &= worst <= BT_TOL * (AMPL[0] + AMPL[1]);
  ok = app_verdict(ok, worst);
  if (bt->rank == 0)
    printf("bt: %d^3 grid, %dx%d ranks of %d cells, %d steps in %.6f s, "
           "largest error %.3e, x-plane sums error %.3e: %s\n",
           bt->n, bt->q, bt->q, bt->q, bt->o.iters, seconds, worst, planes,
           app_verdict_word(ok));
}

static void release(struct bt *bt) {
  for (int c = 0; c < bt->q; c++)
    free(bt->cells[c].w);
  free(bt->u);
  for (int d = 0; d < NDIR; d++)
    free(bt->sface[d]), free(bt->rface[d]);
  free(bt->cells), free(bt->den), free(bt->sbuf), free(bt->rbuf);
  MPI_Comm_free(&bt->row);
  MPI_Comm_free(&bt->col);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct bt_opts o = {.cls = "A", .n = 0, .iters = 10, .flops = -1};
  const struct app_opt opts[] = {
      {"class", APP_OPT_STRING, &o.cls, 0, 0, "S|W|A|B|C",
       "NAS BT class: grid 12, 24, 64, 102 or 162 (default A)"},
      {"size", APP_OPT_INT, &o.n, 4, 4096, "N",
       "grid N^3 instead of the class"},
      {"iters", APP_OPT_INT, &o.iters, 1, 1e6, "N",
       "time steps (default 10; NAS runs 60 to 200)"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops per step per rank (default NAS BT's count / P)"},
  };
  const struct app_spec spec = {
      "bt", "NAS BT-like multi-partition ADI solver on a square rank count",
      opts, sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  const struct app_nas_class *cls =
      app_find_nas_class(CLASSES, sizeof CLASSES / sizeof CLASSES[0], o.cls);
  if (!cls)
    app_usage_error("bt", "option --class: '%s' is not one of S W A B C",
                    o.cls);
  struct bt bt;
  setup(&bt, &o, o.n > 0 ? o.n : cls->n);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(); /* restored too: the time includes any rollback */
  int it;
  ft_protect(ID_IT, &it, sizeof it);
  ft_protect(ID_U, bt.u, bt.ulen * sizeof *bt.u);
  ft_protect(ID_T0, &t0, sizeof t0);
  for (it = 0; it < o.iters; it++) {
    ft_snapshot(); /* may restore it, u, t0 */
    adi(&bt);
  }
  double seconds = MPI_Wtime() - t0;
  verify(&bt, seconds);
  release(&bt);
  MPI_Finalize();
  return 0;
}
