/* cg: conjugate gradient on a distributed sparse SPD matrix.
 *
 * Models NAS CG's communication (latency-bound: a sparse matrix-vector
 * product exchanging small ghost messages with a few neighbours, and two
 * MPI_Allreduce dot products per iteration) with a real solver on a real
 * matrix. The matrix has N = P x --size rows in blocks of --size per rank.
 * Row g is coupled to g +- 1, g +- 16, g +- 256 and, for about half of the
 * rows, to g +- 773 and g +- 2819 (chosen by a hash of the pair, so the
 * pattern is symmetric); off-diagonal values are in [-1, -0.2), and the
 * diagonal is the row's absolute sum plus CG_SHIFT: symmetric, strictly
 * diagonally dominant, hence positive definite, with a Gershgorin bound on
 * its condition number. The exact solution x* is a fixed pseudo-random
 * vector and b = A x* is computed row by row from it, without any message.
 *
 * Every rank finds the ghost rows it needs from its own rows and, since the
 * pattern is symmetric, which of its rows each neighbour needs: no setup
 * message. Each product posts MPI_Irecv / MPI_Isend to the neighbours,
 * multiplies the local block meanwhile, unpacks the ghost values that have
 * arrived (MPI_Testsome), then the others as MPI_Waitany reports them, and
 * adds the off-block part in a fixed order (results do not depend on the
 * order of arrival). --npb-comm uses NAS CG's calls instead: MPI_Irecv from
 * each neighbour, MPI_Send, and MPI_Wait on each receive in a fixed order,
 * all deterministic (pessimist-openmpi-v, Table I: no event for CG).
 *
 * Checkpoints (ft.h): x, r, p, r.r, the iteration counter, the convergence
 * flag and the start time are protected; the safe point is the top of each
 * CG iteration, where every ghost exchange and dot product has completed.
 * After a rollback main() runs again from the top: the matrix, the plan and
 * b are rebuilt the same way, and the first ft_snapshot restores the rest.
 *
 * Verification, independent of the product's messages: with x* known,
 * ||x - x*|| must satisfy both the residual bound ||b - Ax|| / lambda_min and
 * CG's convergence bound 2 sqrt(kappa) rho^k ||x*|| (kappa from Gershgorin),
 * and, if CG stopped on --tol, the recomputed ||b - Ax|| / ||b|| must be
 * within 10 x --tol. Rank 0 also gathers a sample of x (MPI_Gatherv, about
 * 4096 rows) and checks it against x* itself, then broadcasts its verdict. */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ft.h"

#define CG_SHIFT 0.3   /* diagonal dominance margin: lambda_min >= CG_SHIFT */
#define CG_SAMPLE 4096 /* rows of x rank 0 checks itself */

enum { GHOST_TAG = 7, NOFFSETS = 5, NFIXED = 3 };
static const long OFFSETS[NOFFSETS] = {1, 16, 256, 773, 2819};

struct cg_opts {
  int rows, iters;
  double tol, flops;
  int npb_comm; /* 1: NAS CG's own calls (Send, Wait) */
};

/* Compressed sparse rows; `col` are local column numbers: [0, nlocal) this
 * rank's rows, then ghosts. */
struct csr {
  int *ptr, *col;
  double *val;
};

/* Who sends what to whom in a product. Ghost values from recv peer i land
 * in ghost[rstart[i] .. rstart[i] + rcount[i]). */
struct plan {
  int nrecv, nsend, nghost;
  int *rpeer, *rstart, *rcount;
  int *speer, *sstart, *scount, *sidx; /* sidx: local rows to send */
  int *done_idx;                       /* indices MPI_Testsome returns */
  long *ghost_ids;                     /* global row of each ghost */
  double *rbuf, *sbuf;
  MPI_Request *rreq, *sreq;
};

struct cg {
  struct cg_opts o;
  int rank, size;
  long n, lo, nlocal;
  struct csr inner, outer; /* local-column block; ghost-column part */
  struct plan plan;
  double lambda_max;            /* Gershgorin bound over all rows */
  double flops_spmv, flops_vec; /* modelled per product, per iteration */
  double *x, *b, *r, *p, *q, *ghost;
  /* Loop state, protected (ft_protect): here rather than on solve()'s
   * stack, since a registration must stay valid until MPI_Finalize. */
  int it, converged;
  double rr; /* r.r */
};

/* ft_protect ids. */
enum { ID_IT, ID_CONVERGED, ID_RR, ID_X, ID_R, ID_P, ID_T0 };

/* ---- The matrix, row by row (no message needed) ---- */

static double x_star(long g) {
  return 1.0 + app_unit((uint64_t)g ^ 0x5eed5eedu);
}

/* Whether rows lo and lo + OFFSETS[k] are coupled. */
static int coupled(long lo, int k) {
  if (k < NFIXED)
    return 1;
  return app_unit(((uint64_t)lo << 4) ^ (uint64_t)k) < 0.5;
}

static double coupling(long lo, int k) {
  return -(0.2 + 0.8 * app_unit(((uint64_t)lo << 4) ^ (uint64_t)(k + 8)));
}

/* Calls visit(col, value) for each off-diagonal entry of row g; returns
 * the row's absolute off-diagonal sum. */
typedef void (*entry_fn)(void *ctx, long col, double val);

static double row_entries(long n, long g, entry_fn visit, void *ctx) {
  double sum = 0;
  for (int k = 0; k < NOFFSETS; k++) {
    long d = OFFSETS[k];
    if (g + d < n && coupled(g, k)) {
      double v = coupling(g, k);
      sum -= v;
      if (visit)
        visit(ctx, g + d, v);
    }
    if (g - d >= 0 && coupled(g - d, k)) {
      double v = coupling(g - d, k);
      sum -= v;
      if (visit)
        visit(ctx, g - d, v);
    }
  }
  return sum;
}

static double diagonal(long n, long g) {
  return row_entries(n, g, NULL, NULL) + CG_SHIFT;
}

/* ---- Ghost plan ---- */

struct collect {
  const struct cg *cg;
  long *ids;
  int count;
};

static void collect_ghost(void *ctx, long col, double val) {
  struct collect *c = ctx;
  (void)val;
  if (col < c->cg->lo || col >= c->cg->lo + c->cg->nlocal)
    c->ids[c->count++] = col;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The sorted distinct ghost rows this rank's rows refer to. */
static void find_ghosts(struct cg *cg) {
  struct collect c = {cg, NULL, 0};
  c.ids = app_calloc("cg", (size_t)cg->nlocal * 2 * NOFFSETS, sizeof(long));
  for (long i = 0; i < cg->nlocal; i++)
    row_entries(cg->n, cg->lo + i, collect_ghost, &c);
  qsort(c.ids, (size_t)c.count, sizeof(long), cmp_long);
  int distinct = 0;
  for (int i = 0; i < c.count; i++)
    if (distinct == 0 || c.ids[i] != c.ids[distinct - 1])
      c.ids[distinct++] = c.ids[i];
  cg->plan.ghost_ids = c.ids;
  cg->plan.nghost = distinct;
}

static void prefix(const int *counts, int *displs, int size) {
  displs[0] = 0;
  for (int i = 1; i < size; i++)
    displs[i] = displs[i - 1] + counts[i - 1];
}

/* Receives: the sorted ghosts, grouped by owner (contiguous). */
static void plan_receives(struct cg *cg) {
  struct plan *pl = &cg->plan;
  size_t cap = (size_t)pl->nghost + 1;
  pl->rpeer = app_calloc("cg", cap, sizeof(int));
  pl->rstart = app_calloc("cg", cap, sizeof(int));
  pl->rcount = app_calloc("cg", cap, sizeof(int));
  pl->nrecv = 0;
  for (int i = 0; i < pl->nghost; i++) {
    int owner = app_block_owner(cg->n, cg->size, pl->ghost_ids[i]);
    if (pl->nrecv == 0 || pl->rpeer[pl->nrecv - 1] != owner) {
      pl->rpeer[pl->nrecv] = owner;
      pl->rstart[pl->nrecv++] = i;
    }
    pl->rcount[pl->nrecv - 1]++;
  }
}

/* (peer, local row) pairs: by symmetry of the pattern, rank p needs my row
 * g exactly when row g has a column that p owns. */
struct pairs {
  const struct cg *cg;
  long *v, row;
  int count;
};

static void collect_pair(void *ctx, long col, double val) {
  struct pairs *p = ctx;
  (void)val;
  if (col >= p->cg->lo && col < p->cg->lo + p->cg->nlocal)
    return;
  p->v[2 * p->count] = app_block_owner(p->cg->n, p->cg->size, col);
  p->v[2 * p->count++ + 1] = p->row;
}

static int cmp_pair(const void *a, const void *b) {
  const long *x = a, *y = b;
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0])
                      : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Sends: my rows each neighbour needs, sorted, as its ghosts are. */
static void plan_sends(struct cg *cg) {
  struct plan *pl = &cg->plan;
  struct pairs p = {cg, NULL, 0, 0};
  p.v = app_calloc("cg", (size_t)cg->nlocal * 4 * NOFFSETS, sizeof(long));
  for (long i = 0; i < cg->nlocal; i++) {
    p.row = i;
    row_entries(cg->n, cg->lo + i, collect_pair, &p);
  }
  qsort(p.v, (size_t)p.count, 2 * sizeof(long), cmp_pair);
  size_t cap = (size_t)p.count + 1;
  pl->speer = app_calloc("cg", cap, sizeof(int));
  pl->sstart = app_calloc("cg", cap, sizeof(int));
  pl->scount = app_calloc("cg", cap, sizeof(int));
  pl->sidx = app_calloc("cg", cap, sizeof(int));
  int total = 0;
  pl->nsend = 0;
  for (int k = 0; k < p.count; k++) {
    long peer = p.v[2 * k], row = p.v[2 * k + 1];
    if (k > 0 && peer == p.v[2 * k - 2] && row == p.v[2 * k - 1])
      continue; /* duplicate */
    if (pl->nsend == 0 || pl->speer[pl->nsend - 1] != peer) {
      pl->speer[pl->nsend] = (int)peer;
      pl->sstart[pl->nsend++] = total;
    }
    pl->scount[pl->nsend - 1]++;
    pl->sidx[total++] = (int)row;
  }
  pl->sbuf = app_calloc("cg", (size_t)total, sizeof(double));
  free(p.v);
}

/* Who sends what to whom in a product, without any message: the pattern is
 * symmetric and every rank can evaluate it. */
static void build_plan(struct cg *cg) {
  struct plan *pl = &cg->plan;
  find_ghosts(cg);
  plan_receives(cg);
  plan_sends(cg);
  pl->rbuf = app_calloc("cg", (size_t)pl->nghost, sizeof(double));
  pl->rreq = app_calloc("cg", (size_t)pl->nrecv + 1, sizeof(MPI_Request));
  pl->done_idx = app_calloc("cg", (size_t)pl->nrecv + 1, sizeof(int));
  pl->sreq = app_calloc("cg", (size_t)pl->nsend + 1, sizeof(MPI_Request));
}

/* ---- Local matrix ---- */

struct fill {
  const struct cg *cg;
  struct csr *inner, *outer;
  int ni, no; /* entries written */
};

static int ghost_slot(const struct plan *pl, long g) {
  const long *hit =
      bsearch(&g, pl->ghost_ids, (size_t)pl->nghost, sizeof(long), cmp_long);
  return (int)(hit - pl->ghost_ids);
}

static void fill_entry(void *ctx, long col, double val) {
  struct fill *f = ctx;
  long local = col - f->cg->lo;
  if (local >= 0 && local < f->cg->nlocal) {
    f->inner->col[f->ni] = (int)local;
    f->inner->val[f->ni++] = val;
  } else {
    f->outer->col[f->no] = ghost_slot(&f->cg->plan, col);
    f->outer->val[f->no++] = val;
  }
}

static void alloc_csr(struct csr *m, long rows, size_t entries) {
  m->ptr = app_calloc("cg", (size_t)rows + 1, sizeof(int));
  m->col = app_calloc("cg", entries, sizeof(int));
  m->val = app_calloc("cg", entries, sizeof(double));
}

/* Builds both blocks, b = A x*, and the largest Gershgorin row bound. */
static void build_matrix(struct cg *cg) {
  size_t cap = (size_t)cg->nlocal * (2 * NOFFSETS + 1);
  alloc_csr(&cg->inner, cg->nlocal, cap);
  alloc_csr(&cg->outer, cg->nlocal, cap);
  struct fill f = {cg, &cg->inner, &cg->outer, 0, 0};
  double bound = 0;
  for (long i = 0; i < cg->nlocal; i++) {
    long g = cg->lo + i;
    double off = row_entries(cg->n, g, fill_entry, &f);
    f.inner->col[f.ni] = (int)i; /* the diagonal */
    f.inner->val[f.ni++] = off + CG_SHIFT;
    bound = fmax(bound, 2 * off + CG_SHIFT);
    cg->inner.ptr[i + 1] = f.ni;
    cg->outer.ptr[i + 1] = f.no;
  }
  MPI_Allreduce(&bound, &cg->lambda_max, 1, MPI_DOUBLE, MPI_MAX,
                MPI_COMM_WORLD);
  cg->flops_spmv = 2.0 * (f.ni + f.no);
  cg->flops_vec = 10.0 * (double)cg->nlocal;
}

/* b = A x*, row by row from the closed forms (no message). */
struct bsum {
  double acc;
};

static void add_product(void *ctx, long col, double val) {
  ((struct bsum *)ctx)->acc += val * x_star(col);
}

static void build_rhs(struct cg *cg) {
  for (long i = 0; i < cg->nlocal; i++) {
    long g = cg->lo + i;
    struct bsum s = {diagonal(cg->n, g) * x_star(g)};
    row_entries(cg->n, g, add_product, &s);
    cg->b[i] = s.acc;
  }
}

/* ---- Product y = A v with the ghost exchange ---- */

static void csr_apply(const struct csr *m, long rows, const double *v,
                      double *y, int accumulate) {
  for (long i = 0; i < rows; i++) {
    double s = accumulate ? y[i] : 0.0;
    for (int e = m->ptr[i]; e < m->ptr[i + 1]; e++)
      s += m->val[e] * v[m->col[e]];
    y[i] = s;
  }
}

static void post_exchange(struct cg *cg, const double *v) {
  struct plan *pl = &cg->plan;
  for (int i = 0; i < pl->nrecv; i++)
    MPI_Irecv(pl->rbuf + pl->rstart[i], pl->rcount[i], MPI_DOUBLE, pl->rpeer[i],
              GHOST_TAG, MPI_COMM_WORLD, &pl->rreq[i]);
  for (int i = 0; i < pl->nsend; i++) {
    double *out = pl->sbuf + pl->sstart[i];
    for (int k = 0; k < pl->scount[i]; k++)
      out[k] = v[pl->sidx[pl->sstart[i] + k]];
    if (cg->o.npb_comm)
      MPI_Send(out, pl->scount[i], MPI_DOUBLE, pl->speer[i], GHOST_TAG,
               MPI_COMM_WORLD);
    else
      MPI_Isend(out, pl->scount[i], MPI_DOUBLE, pl->speer[i], GHOST_TAG,
                MPI_COMM_WORLD, &pl->sreq[i]);
  }
}

static void unpack(struct cg *cg, int i) {
  struct plan *pl = &cg->plan;
  memcpy(cg->ghost + pl->rstart[i], pl->rbuf + pl->rstart[i],
         (size_t)pl->rcount[i] * sizeof(double));
}

/* Unpacks the ghost values that arrived during the local product
 * (MPI_Testsome), then each remaining one as MPI_Waitany reports it; with
 * --npb-comm, waits for each receive in turn (MPI_Wait), as NAS CG does. */
static void finish_exchange(struct cg *cg) {
  struct plan *pl = &cg->plan;
  if (cg->o.npb_comm) {
    for (int i = 0; i < pl->nrecv; i++) {
      MPI_Wait(&pl->rreq[i], MPI_STATUS_IGNORE);
      unpack(cg, i);
    }
    return;
  }
  int done = 0, outcount, *idx = cg->plan.done_idx;
  MPI_Testsome(pl->nrecv, pl->rreq, &outcount, idx, MPI_STATUSES_IGNORE);
  for (int k = 0; outcount != MPI_UNDEFINED && k < outcount; k++, done++)
    unpack(cg, idx[k]);
  for (; done < pl->nrecv; done++) {
    int i;
    MPI_Waitany(pl->nrecv, pl->rreq, &i, MPI_STATUS_IGNORE);
    unpack(cg, i);
  }
  MPI_Waitall(pl->nsend, pl->sreq, MPI_STATUSES_IGNORE);
}

static void spmv(struct cg *cg, const double *v, double *y) {
  post_exchange(cg, v);
  csr_apply(&cg->inner, cg->nlocal, v, y, 0);
  ft_compute(cg->flops_spmv);
  finish_exchange(cg);
  csr_apply(&cg->outer, cg->nlocal, cg->ghost, y, 1);
}

/* ---- The solver ---- */

static double dot(const struct cg *cg, const double *u, const double *v) {
  double local = 0, sum;
  for (long i = 0; i < cg->nlocal; i++)
    local += u[i] * v[i];
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

/* One CG step; returns the new r.r. */
static double step(struct cg *cg, double rr) {
  spmv(cg, cg->p, cg->q);
  double alpha = rr / dot(cg, cg->p, cg->q);
  for (long i = 0; i < cg->nlocal; i++) {
    cg->x[i] += alpha * cg->p[i];
    cg->r[i] -= alpha * cg->q[i];
  }
  double rr_new = dot(cg, cg->r, cg->r), beta = rr_new / rr;
  for (long i = 0; i < cg->nlocal; i++)
    cg->p[i] = cg->r[i] + beta * cg->p[i];
  ft_compute(cg->flops_vec);
  return rr_new;
}

/* Runs CG from x = 0 until cg->it == --iters or ||r|| / ||b|| <= --tol
 * (cg->converged). The state the iterations carry is protected; the safe
 * point is the top of an iteration, where no message is in flight. */
static void solve(struct cg *cg) {
  for (long i = 0; i < cg->nlocal; i++) {
    cg->x[i] = 0;
    cg->r[i] = cg->p[i] = cg->b[i];
  }
  double bb = dot(cg, cg->b, cg->b);
  size_t bytes = (size_t)cg->nlocal * sizeof(double);
  cg->rr = bb;
  cg->converged = 0;
  ft_protect(ID_IT, &cg->it, sizeof cg->it);
  ft_protect(ID_CONVERGED, &cg->converged, sizeof cg->converged);
  ft_protect(ID_RR, &cg->rr, sizeof cg->rr);
  ft_protect(ID_X, cg->x, bytes);
  ft_protect(ID_R, cg->r, bytes);
  ft_protect(ID_P, cg->p, bytes);
  for (cg->it = 0; cg->it < cg->o.iters && !cg->converged; cg->it++) {
    ft_snapshot(); /* may restore it, converged, rr, x, r, p */
    cg->rr = step(cg, cg->rr);
    cg->converged = sqrt(cg->rr / bb) <= cg->o.tol;
  }
}

/* ---- Verification ---- */

struct norms {
  double resid, bnorm, err, xnorm; /* 2-norms */
};

static struct norms final_norms(struct cg *cg) {
  double local[4] = {0, 0, 0, 0}, sum[4];
  spmv(cg, cg->x, cg->q);
  for (long i = 0; i < cg->nlocal; i++) {
    double xs = x_star(cg->lo + i), d = cg->b[i] - cg->q[i];
    local[0] += d * d;
    local[1] += cg->b[i] * cg->b[i];
    local[2] += (cg->x[i] - xs) * (cg->x[i] - xs);
    local[3] += xs * xs;
  }
  MPI_Allreduce(local, sum, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  struct norms nm = {sqrt(sum[0]), sqrt(sum[1]), sqrt(sum[2]), sqrt(sum[3])};
  return nm;
}

/* The largest ||x - x*|| the theory allows after k iterations. */
static double error_bound(const struct cg *cg, const struct norms *nm, int k) {
  double kappa = cg->lambda_max / CG_SHIFT, s = sqrt(kappa);
  double rho = (s - 1) / (s + 1);
  double by_rate = 10 * 2 * s * pow(rho, k) * nm->xnorm;
  double by_resid = 1.01 * nm->resid / CG_SHIFT;
  return fmin(by_rate, by_resid) + 1e-12 * nm->xnorm;
}

static long sample_stride(const struct cg *cg) {
  return cg->n / CG_SAMPLE > 1 ? cg->n / CG_SAMPLE : 1;
}

/* Rank 0 gathers x at every stride-th row and checks it against x*. */
static int check_sample(const struct cg *cg, double bound, double *worst) {
  long stride = sample_stride(cg), first = (cg->lo + stride - 1) / stride;
  long end = (cg->lo + cg->nlocal + stride - 1) / stride;
  int mine = (int)(end - first), *counts = NULL, *displs = NULL, total = 0;
  double *mine_x = app_calloc("cg", (size_t)mine, sizeof(double)), *all = NULL;
  for (int i = 0; i < mine; i++)
    mine_x[i] = cg->x[(first + i) * stride - cg->lo];
  if (cg->rank == 0) {
    counts = app_calloc("cg", (size_t)cg->size, sizeof(int));
    displs = app_calloc("cg", (size_t)cg->size, sizeof(int));
  }
  MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (cg->rank == 0) {
    prefix(counts, displs, cg->size);
    total = displs[cg->size - 1] + counts[cg->size - 1];
    all = app_calloc("cg", (size_t)total, sizeof(double));
  }
  MPI_Gatherv(mine_x, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  *worst = 0;
  for (int i = 0; i < total; i++) /* sample i is row i * stride */
    *worst = fmax(*worst, fabs(all[i] - x_star((long)i * stride)));
  int ok = cg->rank != 0 ||
           (total == (cg->n + stride - 1) / stride && *worst <= bound);
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(mine_x);
  free(counts);
  free(displs);
  free(all);
  return ok;
}

static void verify(struct cg *cg, int iters, int converged, double seconds) {
  struct norms nm = final_norms(cg);
  double bound = error_bound(cg, &nm, iters), worst;
  double res_rel = nm.resid / nm.bnorm;
  /* The recurrence's residual can underflow to 0 (--tol 0 "converges" then)
   * while the true one stays at rounding level: never ask for less. */
  double floor_rel = 1e3 * DBL_EPSILON;
  double want = 10 * cg->o.tol > floor_rel ? 10 * cg->o.tol : floor_rel;
  int ok = nm.err <= bound && (!converged || res_rel <= want);
  ok &= check_sample(cg, bound, &worst);
  if (cg->rank == 0)
    printf("cg: %ld rows, %d iterations%s in %.6f s, ||b-Ax||/||b|| %.3e, "
           "||x-x*|| %.3e (bound %.3e), sample max error %.3e: %s\n",
           cg->n, iters, converged ? " (converged)" : "", seconds, res_rel,
           nm.err, bound, worst, app_verdict_word(ok));
  app_verdict(ok, res_rel);
}

/* ---- Main ---- */

static void setup(struct cg *cg, const struct cg_opts *o) {
  cg->o = *o;
  MPI_Comm_rank(MPI_COMM_WORLD, &cg->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &cg->size);
  cg->n = (long)o->rows * cg->size;
  app_block(cg->n, cg->size, cg->rank, &cg->lo, &cg->nlocal);
  build_plan(cg);
  build_matrix(cg);
  double *v[] = {NULL, NULL, NULL, NULL, NULL};
  for (int i = 0; i < 5; i++)
    v[i] = app_calloc("cg", (size_t)cg->nlocal, sizeof(double));
  cg->x = v[0], cg->b = v[1], cg->r = v[2], cg->p = v[3], cg->q = v[4];
  cg->ghost = app_calloc("cg", (size_t)cg->plan.nghost, sizeof(double));
  build_rhs(cg);
  if (o->flops >= 0) { /* --flops replaces the per-iteration model */
    double scale = o->flops / (cg->flops_spmv + cg->flops_vec);
    cg->flops_spmv *= scale;
    cg->flops_vec *= scale;
  }
}

static void release(struct cg *cg) {
  struct plan *pl = &cg->plan;
  void *all[] = {pl->rpeer,     pl->rstart,    pl->rcount,    pl->speer,
                 pl->sstart,    pl->scount,    pl->sidx,      pl->ghost_ids,
                 pl->rbuf,      pl->sbuf,      pl->rreq,      pl->sreq,
                 cg->inner.ptr, cg->inner.col, cg->inner.val, cg->outer.ptr,
                 cg->outer.col, cg->outer.val, cg->x,         cg->b,
                 cg->r,         cg->p,         cg->q,         cg->ghost};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    free(all[i]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  struct cg_opts o = {
      .rows = 2000, .iters = 1000, .tol = 1e-10, .flops = -1, .npb_comm = 0};
  const struct app_opt opts[] = {
      {"size", APP_OPT_INT, &o.rows, 1, 1e8, "N",
       "matrix rows per rank (default 2000)"},
      {"iters", APP_OPT_INT, &o.iters, 1, 1e8, "N",
       "at most N iterations (default 1000)"},
      {"tol", APP_OPT_DOUBLE, &o.tol, 0, 1, "T",
       "stop when ||r||/||b|| <= T (default 1e-10; 0: run all iterations)"},
      {"flops", APP_OPT_DOUBLE, &o.flops, 0, 1e15, "F",
       "modelled flops per iteration per rank (default 2 nnz + 10 rows)"},
      {"npb-comm", APP_OPT_FLAG, &o.npb_comm, 0, 0, NULL,
       "ghosts as NAS CG: Irecv, Send, Wait (default: Isend, Testsome, "
       "Waitany)"},
  };
  const struct app_spec spec = {
      "cg", "conjugate gradient on a distributed sparse SPD matrix", opts,
      sizeof opts / sizeof opts[0]};
  if (!app_start(&spec, argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  struct cg cg;
  setup(&cg, &o);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime(); /* restored too: the time includes any rollback */
  ft_protect(ID_T0, &t0, sizeof t0);
  solve(&cg);
  double seconds = MPI_Wtime() - t0;
  verify(&cg, cg.it, cg.converged, seconds);
  release(&cg);
  MPI_Finalize();
  return 0;
}
