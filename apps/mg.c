/* mg: multigrid V-cycles on a 3D Poisson problem, NAS MG's communication.
 *
 * Solves -Laplace(u) = f on a box of P = px x py x pz blocks of --size^3
 * cells (one block per rank, MPI_Dims_create), cell-centred, spacing 1/size,
 * with u = 0 on the boundary. Each V-cycle smooths with weighted Jacobi
 * (2 sweeps before, 2 after), restricts the residual by averaging 8 cells,
 * and prolongs the correction trilinearly, level by level down to 2^3 cells
 * per rank; that coarsest level is gathered on rank 0 (MPI_Gatherv), solved
 * there by conjugate gradient and scattered back (MPI_Scatterv).
 *
 * The halo exchange follows NAS MG's comm3 (pessimist-openmpi-v.txt, Table
 * I: MG's non-deterministic events are its any-source receives): axis by
 * axis, every rank posts MPI_Irecv(MPI_ANY_SOURCE) with one tag per face,
 * sends its two faces, and unpacks the faces as MPI_Waitsome completes them,
 * telling them apart by status.MPI_TAG; sends are completed by MPI_Testall,
 * or MPI_Waitall if still pending. Extended faces fill edges and corners.
 * --npb-comm uses NAS MG 3.2's calls instead (exchange_npb): per axis,
 * MPI_Irecv(MPI_ANY_SOURCE) for both faces, MPI_Send of both, then MPI_Wait
 * on each receive (NPB's ready, give3 and take3), so that the pessimist
 * logs one event per face, as Table I measured.
 * The solver works on its own duplicate of MPI_COMM_WORLD (MPI_Comm_dup).
 *
 * Checkpoints (ft.h): the fine level's u (ghosts included), the cycle
 * counter, the bad-face count and the start time are protected; the safe
 * point is the top of each V-cycle, where every face exchange and the
 * coarse gather/scatter have completed. Nothing else outlives a cycle: the
 * coarse levels and every r are rewritten before they are read, and f of
 * the fine level is set up again. After a rollback main() runs again from
 * the top (setup, the initial residual) and the first ft_snapshot restores
 * the protected state.
 *
 * Verification: f is a sum of two sine modes, eigenvectors of the discrete
 * operator, so the exact discrete solution u_h is known in closed form.
 * After the cycles, ||u - u_h|| (no message needed) must satisfy
 * ||u - u_h|| <= ||f - A u|| / lambda_min (lambda_min: the smallest
 * eigenvalue, also closed form), the residual must fall on average by at
 * least MG_MIN_RATE per cycle, and every face must have the expected size. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ft.h"

#define MG_MAX_LEVELS 16
#define MG_OMEGA (6.0 / 7.0) /* Jacobi weight, best smoothing in 3D */
#define MG_MIN_RATE 0.5      /* residual must fall at least this per cycle */
#define MG_PI 3.14159265358979323846

enum { FACE_TAG = 10, NU_PRE = 2, NU_POST = 2 };

struct mg_opts {
  int n, cycles;
  double flops;
  int npb_comm; /* 1: NAS MG's own calls (exchange_npb) */
};

struct level {
  int n;             /* cells per side of this rank's block */
  double h;          /* cell size */
  double *u, *f, *r; /* (n+2)^3 with one ghost layer */
};

struct mg {
  struct mg_opts o;
  MPI_Comm comm;
  int rank, size, dims[3], coords[3];
  int nbr[3][2]; /* neighbour per axis and side, or MPI_PROC_NULL */
  int nlevels;
  struct level lv[MG_MAX_LEVELS];
  double *sbuf[2], *rbuf[2]; /* one face per side */
  double scale;              /* modelled flops per counted flop */
  long bad_faces;            /* faces of unexpected size */
  int cycle;                 /* V-cycles done */
};

/* ft_protect ids. */
enum { ID_CYCLE, ID_U, ID_BAD_FACES, ID_T0 };

/* ---- Grids ---- */

static long idx(int n, int i, int j, int k) {
  return ((long)(k + 1) * (n + 2) + (j + 1)) * (n + 2) + (i + 1);
}

static long cells(int n) { return (long)(n + 2) * (n + 2) * (n + 2); }

static void model(const struct mg *mg, double per_cell, int n) {
  ft_compute(mg->scale * per_cell * (double)n * n * n);
}

/* ---- Halo exchange, axis by axis (NAS MG comm3) ---- */

/* Copies between layer `layer` of axis `axis` and buf; the other axes run
 * over the interior, or over the ghosts too for axes exchanged before.
 * mode 0: grid -> buf, 1: buf -> grid, 2: grid[layer] = -grid[from]. */
static int face_copy(struct level *L, double *g, int axis, int layer,
                     double *buf, int mode, int from) {
  int a = (axis + 1) % 3, b = (axis + 2) % 3, n = L->n, count = 0;
  int alo = a < axis ? -1 : 0, ahi = a < axis ? n : n - 1;
  int blo = b < axis ? -1 : 0, bhi = b < axis ? n : n - 1;
  for (int y = blo; y <= bhi; y++)
    for (int x = alo; x <= ahi; x++) {
      int c[3], d[3];
      c[axis] = layer, c[a] = x, c[b] = y;
      d[axis] = from, d[a] = x, d[b] = y;
      long at = idx(n, c[0], c[1], c[2]);
      if (mode == 0)
        buf[count] = g[at];
      else if (mode == 1)
        g[at] = buf[count];
      else
        g[at] = -g[idx(n, d[0], d[1], d[2])];
      count++;
    }
  return count;
}

/* The tag of a face arriving into side `side` of `axis`. */
static int face_tag(int axis, int side) { return FACE_TAG + 2 * axis + side; }

static void post_axis(struct mg *mg, struct level *L, double *g, int axis,
                      MPI_Request rreq[2], MPI_Request sreq[2], int *count) {
  for (int side = 0; side < 2; side++) {
    rreq[side] = sreq[side] = MPI_REQUEST_NULL;
    if (mg->nbr[axis][side] == MPI_PROC_NULL)
      continue;
    *count = face_copy(L, g, axis, side ? L->n - 1 : 0, mg->sbuf[side], 0, 0);
    MPI_Irecv(mg->rbuf[side], *count, MPI_DOUBLE, MPI_ANY_SOURCE,
              face_tag(axis, side), mg->comm, &rreq[side]);
    /* my low face fills the high ghost of my low neighbour */
    MPI_Isend(mg->sbuf[side], *count, MPI_DOUBLE, mg->nbr[axis][side],
              face_tag(axis, 1 - side), mg->comm, &sreq[side]);
  }
}

/* Unpacks faces in the order they complete; the tag says which side. */
static void take_axis(struct mg *mg, struct level *L, double *g, int axis,
                      MPI_Request rreq[2], int expect) {
  int pending = (rreq[0] != MPI_REQUEST_NULL) + (rreq[1] != MPI_REQUEST_NULL);
  while (pending > 0) {
    int done[2], outcount;
    MPI_Status st[2];
    MPI_Waitsome(2, rreq, &outcount, done, st);
    for (int i = 0; i < outcount; i++) {
      int side = st[i].MPI_TAG - face_tag(axis, 0), got;
      MPI_Get_count(&st[i], MPI_DOUBLE, &got);
      mg->bad_faces += got != expect || side != done[i] ||
                       st[i].MPI_SOURCE != mg->nbr[axis][side];
      face_copy(L, g, axis, side ? L->n : -1, mg->rbuf[side], 1, 0);
    }
    pending -= outcount;
  }
}

/* Fills the ghosts of g along `axis` from the neighbours' faces as NAS MG
 * 3.2's comm3 does (ready, give3, take3): both receives posted from
 * MPI_ANY_SOURCE with the face's tag, both faces sent with MPI_Send, each
 * receive completed by MPI_Wait. From pessimist-openmpi-v, section 4.2: "On
 * both MG and LU, the only non-deterministic events are any source
 * messages; there are no non-deterministic deliveries or probes." */
static void exchange_npb(struct mg *mg, struct level *L, double *g, int axis) {
  MPI_Request rreq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int count[2] = {0, 0};
  for (int side = 0; side < 2; side++) {
    if (mg->nbr[axis][side] == MPI_PROC_NULL)
      continue;
    count[side] =
        face_copy(L, g, axis, side ? L->n - 1 : 0, mg->sbuf[side], 0, 0);
    MPI_Irecv(mg->rbuf[side], count[side], MPI_DOUBLE, MPI_ANY_SOURCE,
              face_tag(axis, side), mg->comm, &rreq[side]);
  }
  for (int side = 0; side < 2; side++)
    if (mg->nbr[axis][side] != MPI_PROC_NULL)
      MPI_Send(mg->sbuf[side], count[side], MPI_DOUBLE, mg->nbr[axis][side],
               face_tag(axis, 1 - side), mg->comm);
  for (int side = 0; side < 2; side++) {
    if (rreq[side] == MPI_REQUEST_NULL)
      continue;
    MPI_Status st;
    int got;
    MPI_Wait(&rreq[side], &st);
    MPI_Get_count(&st, MPI_DOUBLE, &got);
    mg->bad_faces += got != count[side] || st.MPI_SOURCE != mg->nbr[axis][side];
    face_copy(L, g, axis, side ? L->n : -1, mg->rbuf[side], 1, 0);
  }
}

/* Fills the ghosts of g along `axis` with the default calls: nonblocking
 * sends, receives completed by MPI_Waitsome, sends by MPI_Testall. */
static void exchange_some(struct mg *mg, struct level *L, double *g, int axis) {
  MPI_Request rreq[2], sreq[2];
  int count = 0, sent;
  post_axis(mg, L, g, axis, rreq, sreq, &count);
  take_axis(mg, L, g, axis, rreq, count);
  MPI_Testall(2, sreq, &sent, MPI_STATUSES_IGNORE);
  if (!sent)
    MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);
}

/* Fills the ghosts of grid g (u or r of level L): neighbours' faces, and
 * the mirror -u at the domain boundary (u = 0 on the boundary face). */
static void exchange(struct mg *mg, struct level *L, double *g) {
  for (int axis = 0; axis < 3; axis++) {
    if (mg->o.npb_comm)
      exchange_npb(mg, L, g, axis);
    else
      exchange_some(mg, L, g, axis);
    for (int side = 0; side < 2; side++)
      if (mg->nbr[axis][side] == MPI_PROC_NULL)
        face_copy(L, g, axis, side ? L->n : -1, NULL, 2, side ? L->n - 1 : 0);
  }
}

/* ---- Smoothing, residual, transfers ---- */

static double apply_at(const struct level *L, const double *u, long c) {
  long s = L->n + 2, p = s * s;
  double sum = u[c - 1] + u[c + 1] + u[c - s] + u[c + s] + u[c - p] + u[c + p];
  return (6.0 * u[c] - sum) / (L->h * L->h);
}

/* r = f - A u on the interior; needs u's ghosts. */
static void residual(struct mg *mg, struct level *L) {
  exchange(mg, L, L->u);
  int n = L->n;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        long c = idx(n, i, j, k);
        L->r[c] = L->f[c] - apply_at(L, L->u, c);
      }
  model(mg, 9, n);
}

/* One weighted Jacobi sweep: u += omega (f - A u) / diag. */
static void smooth(struct mg *mg, struct level *L) {
  residual(mg, L);
  int n = L->n;
  double w = MG_OMEGA * L->h * L->h / 6.0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        long c = idx(n, i, j, k);
        L->u[c] += w * L->r[c];
      }
  model(mg, 2, n);
}

/* Coarse f = average of the 8 fine residuals; coarse u = 0. */
static void restrict_residual(struct mg *mg, struct level *F, struct level *C) {
  int n = C->n;
  memset(C->u, 0, (size_t)cells(n) * sizeof(double));
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int d = 0; d < 8; d++)
          s += F->r[idx(F->n, 2 * i + (d & 1), 2 * j + (d >> 1 & 1),
                        2 * k + (d >> 2))];
        C->f[idx(n, i, j, k)] = s / 8.0;
      }
  model(mg, 9, n);
}

/* Trilinear weight of the coarse neighbour on side `off` (-1, 0, +1) of a
 * fine cell at parity `par` (0: low half, 1: high half). */
static double weight(int par, int off) {
  if (off == 0)
    return 0.75;
  return (off < 0) == (par == 0) ? 0.25 : 0.0;
}

/* u_fine += trilinear interpolation of u_coarse (needs coarse ghosts). */
static void prolong(struct mg *mg, struct level *F, struct level *C) {
  exchange(mg, C, C->u);
  for (int k = 0; k < F->n; k++)
    for (int j = 0; j < F->n; j++)
      for (int i = 0; i < F->n; i++) {
        double s = 0;
        for (int dk = -1; dk <= 1; dk++)
          for (int dj = -1; dj <= 1; dj++)
            for (int di = -1; di <= 1; di++) {
              double w =
                  weight(i & 1, di) * weight(j & 1, dj) * weight(k & 1, dk);
              if (w > 0)
                s += w * C->u[idx(C->n, i / 2 + di, j / 2 + dj, k / 2 + dk)];
            }
        F->u[idx(F->n, i, j, k)] += s;
      }
  model(mg, 16, F->n);
}

/* ---- Coarsest level: gathered on rank 0, solved by CG ---- */

struct coarse {
  int nx, ny, nz; /* global cells */
  double h;
  double *x, *b, *r, *p, *q; /* nx*ny*nz, no ghosts */
};

static double coarse_at(const struct coarse *c, const double *v, int i, int j,
                        int k) {
  return v[((long)k * c->ny + j) * c->nx + i];
}

/* A v on the global coarse grid, u = 0 beyond the boundary (mirror). */
static void coarse_apply(const struct coarse *c, const double *v, double *y) {
  int e[3] = {c->nx, c->ny, c->nz};
  for (int k = 0; k < c->nz; k++)
    for (int j = 0; j < c->ny; j++)
      for (int i = 0; i < c->nx; i++) {
        int p[3] = {i, j, k};
        double mid = coarse_at(c, v, i, j, k), sum = 0;
        for (int a = 0; a < 3; a++)
          for (int s = -1; s <= 1; s += 2) {
            int q[3] = {p[0], p[1], p[2]};
            q[a] += s;
            sum += (q[a] < 0 || q[a] >= e[a])
                       ? -mid
                       : coarse_at(c, v, q[0], q[1], q[2]);
          }
        y[((long)k * c->ny + j) * c->nx + i] = (6 * mid - sum) / (c->h * c->h);
      }
}

static double vdot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* Solves A x = b by CG to a relative residual of 1e-13; returns the flops. */
static double coarse_cg(struct coarse *c) {
  long n = (long)c->nx * c->ny * c->nz;
  memset(c->x, 0, (size_t)n * sizeof(double));
  memcpy(c->r, c->b, (size_t)n * sizeof(double));
  memcpy(c->p, c->b, (size_t)n * sizeof(double));
  double rr = vdot(c->r, c->r, n), bb = rr;
  int it = 0;
  for (; it < 10 * n && rr > 1e-26 * bb; it++) {
    coarse_apply(c, c->p, c->q);
    double alpha = rr / vdot(c->p, c->q, n);
    for (long i = 0; i < n; i++) {
      c->x[i] += alpha * c->p[i];
      c->r[i] -= alpha * c->q[i];
    }
    double rr_new = vdot(c->r, c->r, n);
    for (long i = 0; i < n; i++)
      c->p[i] = c->r[i] + rr_new / rr * c->p[i];
    rr = rr_new;
  }
  return 20.0 * (double)n * it;
}

/* Moves block data between the rank-ordered gather buffer and the global
 * coarse grid (to_grid: buffer -> grid). */
static void coarse_layout(const struct mg *mg, struct coarse *c, double *buf,
                          double *grid, int to_grid) {
  int nc = mg->lv[mg->nlevels - 1].n;
  long at = 0;
  for (int r = 0; r < mg->size; r++) {
    int co[3] = {r % mg->dims[0], r / mg->dims[0] % mg->dims[1],
                 r / mg->dims[0] / mg->dims[1]};
    for (int k = 0; k < nc; k++)
      for (int j = 0; j < nc; j++)
        for (int i = 0; i < nc; i++, at++) {
          long g = ((long)(co[2] * nc + k) * c->ny + co[1] * nc + j) * c->nx +
                   co[0] * nc + i;
          if (to_grid)
            grid[g] = buf[at];
          else
            buf[at] = grid[g];
        }
  }
}

static void block_copy(struct level *L, double *g, double *buf, int to_buf) {
  long at = 0;
  for (int k = 0; k < L->n; k++)
    for (int j = 0; j < L->n; j++)
      for (int i = 0; i < L->n; i++, at++) {
        long c = idx(L->n, i, j, k);
        if (to_buf)
          buf[at] = g[c];
        else
          g[c] = buf[at];
      }
}

static void coarse_alloc(const struct mg *mg, struct coarse *c) {
  int nc = mg->lv[mg->nlevels - 1].n;
  c->nx = mg->dims[0] * nc, c->ny = mg->dims[1] * nc, c->nz = mg->dims[2] * nc;
  c->h = mg->lv[mg->nlevels - 1].h;
  long n = (long)c->nx * c->ny * c->nz;
  double **v[] = {&c->x, &c->b, &c->r, &c->p, &c->q};
  for (int i = 0; i < 5; i++)
    *v[i] = app_calloc("mg", (size_t)n, sizeof(double));
}

static void coarse_free(struct coarse *c) {
  free(c->x), free(c->b), free(c->r), free(c->p), free(c->q);
}

/* Gathers f of the coarsest level on rank 0, solves, scatters u back. */
static void coarse_solve(struct mg *mg, struct level *L) {
  int block = L->n * L->n * L->n, *counts = NULL, *displs = NULL;
  double *mine = app_calloc("mg", (size_t)block, sizeof(double)), *all = NULL;
  struct coarse c = {0};
  if (mg->rank == 0) {
    counts = app_calloc("mg", (size_t)mg->size, sizeof(int));
    displs = app_calloc("mg", (size_t)mg->size, sizeof(int));
    for (int r = 0; r < mg->size; r++)
      counts[r] = block, displs[r] = r * block;
    all = app_calloc("mg", (size_t)mg->size * (size_t)block, sizeof(double));
    coarse_alloc(mg, &c);
  }
  block_copy(L, L->f, mine, 1);
  MPI_Gatherv(mine, block, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              mg->comm);
  if (mg->rank == 0) {
    coarse_layout(mg, &c, all, c.b, 1);
    ft_compute(mg->scale * coarse_cg(&c));
    coarse_layout(mg, &c, all, c.x, 0);
    coarse_free(&c);
  }
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, mine, block, MPI_DOUBLE, 0,
               mg->comm);
  block_copy(L, L->u, mine, 0);
  free(mine), free(counts), free(displs), free(all);
}

/* ---- V-cycle ---- */

static void vcycle(struct mg *mg, int l) {
  struct level *L = &mg->lv[l];
  if (l == mg->nlevels - 1) {
    coarse_solve(mg, L);
    return;
  }
  for (int s = 0; s < NU_PRE; s++)
    smooth(mg, L);
  residual(mg, L);
  restrict_residual(mg, L, &mg->lv[l + 1]);
  vcycle(mg, l + 1);
  prolong(mg, L, &mg->lv[l + 1]);
  for (int s = 0; s < NU_POST; s++)
    smooth(mg, L);
}

/* ---- Problem: f = two sine modes, exact discrete solution known ---- */

static const int MODES[2][3] = {{1, 1, 1}, {2, 1, 3}};
static const double AMPLITUDE[2] = {1.0, 0.5};

/* Eigenvalue of the discrete operator (spacing h) for mode m. */
static double eigenvalue(const struct mg *mg, int m, double h) {
  double lam = 0;
  for (int a = 0; a < 3; a++) {
    double len = mg->dims[a] * mg->o.n * mg->lv[0].h, s;
    s = sin(MODES[m][a] * MG_PI * h / (2 * len));
    lam += 4 * s * s / (h * h);
  }
  return lam;
}

static double mode_at(const struct mg *mg, int m, int i, int j, int k) {
  int p[3] = {i, j, k};
  double v = 1, h = mg->lv[0].h;
  for (int a = 0; a < 3; a++) {
    double len = mg->dims[a] * mg->o.n * h;
    double x = ((double)mg->coords[a] * mg->o.n + p[a] + 0.5) * h;
    v *= sin(MODES[m][a] * MG_PI * x / len);
  }
  return v;
}

/* f on the fine level, or (exact) the discrete solution u_h. */
static double problem_at(const struct mg *mg, int i, int j, int k, int exact) {
  double v = 0;
  for (int m = 0; m < 2; m++)
    v += AMPLITUDE[m] * mode_at(mg, m, i, j, k) /
         (exact ? eigenvalue(mg, m, mg->lv[0].h) : 1.0);
  return v;
}

/* ---- Setup, verification, main ---- */

static void setup_grid(struct mg *mg) {
  mg->dims[0] = mg->dims[1] = mg->dims[2] = 0;
  MPI_Dims_create(mg->size, 3, mg->dims);
  mg->coords[0] = mg->rank % mg->dims[0];
  mg->coords[1] = mg->rank / mg->dims[0] % mg->dims[1];
  mg->coords[2] = mg->rank / mg->dims[0] / mg->dims[1];
  int stride[3] = {1, mg->dims[0], mg->dims[0] * mg->dims[1]};
  for (int a = 0; a < 3; a++) {
    mg->nbr[a][0] = mg->coords[a] > 0 ? mg->rank - stride[a] : MPI_PROC_NULL;
    mg->nbr[a][1] =
        mg->coords[a] < mg->dims[a] - 1 ? mg->rank + stride[a] : MPI_PROC_NULL;
  }
}

static void setup_levels(struct mg *mg) {
  double work = 0;
  mg->nlevels = 0;
  for (int n = mg->o.n; n >= 2; n /= 2) {
    struct level *L = &mg->lv[mg->nlevels++];
    L->n = n;
    L->h = (double)(mg->o.n / n) / mg->o.n;
    L->u = app_calloc("mg", (size_t)cells(n), sizeof(double));
    L->f = app_calloc("mg", (size_t)cells(n), sizeof(double));
    L->r = app_calloc("mg", (size_t)cells(n), sizeof(double));
    work += 72.0 * n * n * n; /* smoothing, residual, transfers per cycle */
  }
  mg->scale = mg->o.flops >= 0 ? mg->o.flops / work : 1.0;
  for (int s = 0; s < 2; s++) {
    size_t face = (size_t)(mg->o.n + 2) * (size_t)(mg->o.n + 2);
    mg->sbuf[s] = app_calloc("mg", face, sizeof(double));
    mg->rbuf[s] = app_calloc("mg", face, sizeof(double));
  }
}

static void setup(struct mg *mg, const struct mg_opts *o) {
  mg->o = *o;
  if (o->n < 2 || (o->n & (o->n - 1)) != 0)
    app_usage_error("mg", "option --size: %d is not a power of 2 >= 2", o->n);
  MPI_Comm_dup(MPI_COMM_WORLD, &mg->comm);
  MPI_Comm_rank(mg->comm, &mg->rank);
  MPI_Comm_size(mg->comm, &mg->size);
  setup_grid(mg);
  setup_levels(mg);
  mg->bad_faces = 0;
  struct level *L = &mg->lv[0];
  for (int k = 0; k < L->n; k++)
    for (int j = 0; j < L->n; j++)
      for (int i = 0; i < L->n; i++)
        L->f[idx(L->n, i, j, k)] = problem_at(mg, i, j, k, 0);
}

/* Global sums of squares: residual (after residual()), error, u_h. */
static void norms(struct mg *mg, double out[3]) {
  struct level *L = &mg->lv[0];
  double local[3] = {0, 0, 0};
  residual(mg, L);
  for (int k = 0; k < L->n; k++)
    for (int j = 0; j < L->n; j++)
      for (int i = 0; i < L->n; i++) {
        long c = idx(L->n, i, j, k);
        double ex = problem_at(mg, i, j, k, 1), e = L->u[c] - ex;
        local[0] += L->r[c] * L->r[c];
        local[1] += e * e;
        local[2] += ex * ex;
      }
  MPI_Allreduce(local, out, 3, MPI_DOUBLE, MPI_SUM, mg->comm);
  for (int i = 0; i < 3; i++)
    out[i] = sqrt(out[i]);
}

static void verify(struct mg *mg, double r0, double seconds) {
  double nm[3];
  long bad;
  norms(mg, nm);
  MPI_Allreduce(&mg->bad_faces, &bad, 1, MPI_LONG, MPI_SUM, mg->comm);
  double lambda_min = eigenvalue(mg, 0, mg->lv[0].h);
  double bound = 1.01 * nm[0] / lambda_min + 1e-13 * nm[2];
  double rate = pow(nm[0] / r0, 1.0 / mg->o.cycles);
  int ok = nm[1] <= bound && rate <= MG_MIN_RATE && bad == 0;
  if (mg->rank == 0)
    printf("mg: %dx%dx%d ranks of %d^3 cells, %d levels, %d V-cycles in "
           "%.6f s, residual %.3e -> %.3e (%.3f per cycle), ||u-u_h|| %.3e "
           "(bound %.3e), %ld bad faces: %s\n",
           mg->dims[0], mg->dims[1], mg->dims[2], mg->o.n, mg->nlevels,
           mg->o.cycles, seconds, r0, nm[0], rate, nm[1], bound, bad,
           app_verdict_word(ok));
  app_verdict(ok, nm[0] / r0);
}

static double residual_norm(struct mg *mg) {
  struct level *L = &mg->lv[0];
  double local = 0, sum;
  residual(mg, L);
  for (int k = 0; k < L->n; k++)
    for (int j = 0; j < L->n; j++)
      for (int i = 0; i < L->n; i++) {
        double r = L->r[idx(L->n, i, j, k)];
        local += r * r;
      }
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, mg->comm);
  return sqrt(sum);
}

static void release(struct mg *mg) {
  for (int l = 0; l < mg->nlevels; l++)
    free(mg->lv[l].u), free(mg->lv[l].f), free(mg->lv[l].r);
  for (int s = 0; s < 2; s++)
    free(mg->sbuf[s]), free(mg->rbuf[s]);
  MPI_Comm_free(&mg->comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct mg_opts o = {.n = 16, .cycles = 6, .flops = -1, .npb_comm = 0};
  const struct app_opt opts[] = {
      {"size", APP_OPT_INT, &o.n, 2, 1024, "N",
       "cells per side of each rank's block, a power of 2 (default 16)"},
      {"iters", APP_OPT_INT, &o.cycles, 1, 1e6, "N", "V-cycles (default 6)"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops per V-cycle per rank (default ~72 per cell per level)"},
      {"npb-comm", APP_OPT_FLAG, &o.npb_comm, 0, 0, NULL,
       "faces as NAS MG 3.2: Irecv(ANY_SOURCE), Send, Wait (default: Isend, "
       "Waitsome, Testall)"},
  };
  const struct app_spec spec = {
      "mg", "multigrid V-cycles on a 3D Poisson problem (NAS MG-like)", opts,
      sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  struct mg mg;
  setup(&mg, &o);
  double r0 = residual_norm(&mg);
  MPI_Barrier(mg.comm);
  double t0 = MPI_Wtime(); /* restored too: the time includes any rollback */
  ft_protect(ID_CYCLE, &mg.cycle, sizeof mg.cycle);
  ft_protect(ID_U, mg.lv[0].u, (size_t)cells(mg.lv[0].n) * sizeof(double));
  ft_protect(ID_BAD_FACES, &mg.bad_faces, sizeof mg.bad_faces);
  ft_protect(ID_T0, &t0, sizeof t0);
  for (mg.cycle = 0; mg.cycle < o.cycles; mg.cycle++) {
    ft_snapshot(); /* may restore cycle, u, bad_faces, t0 */
    vcycle(&mg, 0);
  }
  double seconds = MPI_Wtime() - t0;
  verify(&mg, r0, seconds);
  release(&mg);
  MPI_Finalize();
  return 0;
}
