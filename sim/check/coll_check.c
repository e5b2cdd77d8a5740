/* The rule on collective calls carried as one unit (see coll_check.h). */
#include "coll_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hows[] = {"run", "log", "replay", "suppress",
                                   "reexec"};

int ft_coll_how_parse(const char *word, enum ft_coll_how *out) {
  for (size_t i = 0; i < sizeof hows / sizeof *hows; i++)
    if (strcmp(word, hows[i]) == 0) {
      *out = (enum ft_coll_how)i;
      return 0;
    }
  return -1;
}

/* The data-flow classes of section 4, by CALL (enum ft_coll_kind,
 * sim/runtime/driver.h). */
enum flow { ALL_TO_ALL, SINGLE_SENDER, SINGLE_RECEIVER };

static enum flow flow_of(int call) {
  switch (call) {
  case 2:  /* bcast */
  case 3:  /* scatter */
  case 10: /* scatterv */
    return SINGLE_SENDER;
  case 4: /* gather */
  case 5: /* reduce */
  case 9: /* gatherv */
    return SINGLE_RECEIVER;
  default: /* barrier, allreduce, allgather(v), alltoall(v,w), scan, exscan,
              reduce_scatter(_block) */
    return ALL_TO_ALL;
  }
}

static const char *call_name(int call) {
  static const char *const names[] = {
      "?",         "barrier",        "bcast",
      "scatter",   "gather",         "reduce",
      "allreduce", "allgather",      "alltoall",
      "gatherv",   "scatterv",       "allgatherv",
      "alltoallv", "alltoallw",      "scan",
      "exscan",    "reduce_scatter", "reduce_scatter_block"};
  return call > 0 && call < (int)(sizeof names / sizeof *names) ? names[call]
                                                                : "?";
}

/* A rank's last unit call on a communicator in an incarnation. */
struct reach {
  int comm, inc, rank;
  int64_t last;
  uint32_t line;
};

struct ctx {
  const char *const *files;
  int ranks;
  struct ft_coll_fault *fault;
  struct reach *reach;
  size_t n_reach;
};

static int cmp_int(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int by_call(const void *a, const void *b) {
  const struct ft_coll_rec *x = a, *y = b;
  int c = cmp_int(x->comm, y->comm);
  c = c ? c : cmp_int(x->seq, y->seq);
  c = c ? c : cmp_int(x->inc, y->inc);
  c = c ? c : cmp_int(x->rank, y->rank);
  return c ? c : cmp_int(x->line, y->line);
}

static int by_reach(const void *a, const void *b) {
  const struct reach *x = a, *y = b;
  int c = cmp_int(x->comm, y->comm);
  c = c ? c : cmp_int(x->inc, y->inc);
  return c ? c : cmp_int(x->rank, y->rank);
}

static const char *file(const struct ctx *x, int rank) {
  return rank >= 0 && rank < x->ranks ? x->files[rank] : "?";
}

static int fault(struct ctx *x, const struct ft_coll_rec *r, const char *field,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fault(struct ctx *x, const struct ft_coll_rec *r, const char *field,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  x->fault->rec = *r;
  x->fault->field = field;
  vsnprintf(x->fault->message, sizeof x->fault->message, fmt, ap);
  va_end(ap);
  return -1;
}

/* "call #SEQ of comm C (NAME)" */
static const char *call_id(char *buf, size_t len, const struct ft_coll_rec *r) {
  snprintf(buf, len, "call #%lld of comm %d (%s)", (long long)r->seq, r->comm,
           call_name(r->call));
  return buf;
}

/* Every record of one call names the same call and root. */
static int same_call(struct ctx *x, const struct ft_coll_rec *g, size_t n) {
  char id[96];
  for (size_t k = 1; k < n; k++) {
    const struct ft_coll_rec *r = &g[k];
    if (r->call != g[0].call)
      return fault(x, r, "call",
                   "rank %d's record says call %d (%s) for #%lld of comm %d, "
                   "rank %d's (%s:%u) call %d (%s): the members disagree",
                   r->rank, r->call, call_name(r->call), (long long)r->seq,
                   r->comm, g[0].rank, file(x, g[0].rank), g[0].line, g[0].call,
                   call_name(g[0].call));
    if (r->root != g[0].root)
      return fault(x, r, "root", "%s has root %d here, %d at %s:%u",
                   call_id(id, sizeof id, r), r->root, g[0].root,
                   file(x, g[0].rank), g[0].line);
  }
  return 0;
}

/* A replay follows the rank's own log in an earlier incarnation; suppress
 * and reexec fit the call's class and the rank's role. */
static int recovery_actions(struct ctx *x, const struct ft_coll_rec *g,
                            size_t n) {
  char id[96];
  for (size_t k = 0; k < n; k++) {
    const struct ft_coll_rec *r = &g[k];
    enum flow f = flow_of(r->call);
    int logged = 0;
    for (size_t i = 0; i < n && r->how == FT_HOW_REPLAY; i++)
      logged |=
          g[i].rank == r->rank && g[i].how == FT_HOW_LOG && g[i].inc < r->inc;
    if (r->how == FT_HOW_REPLAY && !logged)
      return fault(x, r, "how",
                   "rank %d replays %s in incarnation %d, but logged no "
                   "result of it before (Figures 5-7: a result is replayed "
                   "from the rank's own recoveryLog)",
                   r->rank, call_id(id, sizeof id, r), r->inc);
    if (r->how == FT_HOW_SUPPRESS &&
        (f != SINGLE_RECEIVER || r->rank == r->root))
      return fault(x, r, "how",
                   "rank %d suppresses %s: only a member's single-receiver "
                   "call is suppressed (Figure 6's suppressList)",
                   r->rank, call_id(id, sizeof id, r));
    if (r->how == FT_HOW_REEXEC && (f != SINGLE_SENDER || r->rank == r->root))
      return fault(x, r, "how",
                   "rank %d re-executes %s with dummy buffers: only a "
                   "receiver's single-sender call is (Figure 7's reexecList)",
                   r->rank, call_id(id, sizeof id, r));
  }
  return 0;
}

static int carries(const struct ft_coll_rec *r) {
  return r->how == FT_HOW_RUN || r->how == FT_HOW_LOG ||
         r->how == FT_HOW_REEXEC;
}

/* The first of x->reach at (comm, inc) or after it. */
static size_t reach_from(const struct ctx *x, int comm, int inc) {
  size_t lo = 0, hi = x->n_reach;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const struct reach *m = &x->reach[mid];
    if (m->comm < comm || (m->comm == comm && m->inc < inc))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* In one incarnation (g[0..n), by rank): carried out by every member that
 * went past it, or by none. */
static int all_or_none(struct ctx *x, const struct ft_coll_rec *g, size_t n) {
  char id[96];
  const struct ft_coll_rec *carrier = NULL;
  for (size_t k = 0; k < n; k++) {
    if (!carries(&g[k]))
      continue;
    if (carrier && carrier->rank == g[k].rank)
      return fault(x, &g[k], "seq",
                   "rank %d carries out %s twice in incarnation %d (first "
                   "at line %u)",
                   g[k].rank, call_id(id, sizeof id, &g[k]), g[k].inc,
                   carrier->line);
    carrier = &g[k];
  }
  if (!carrier)
    return 0;
  for (size_t k = 0; k < n; k++)
    if (g[k].how == FT_HOW_REPLAY || g[k].how == FT_HOW_SUPPRESS)
      return fault(x, &g[k], "how",
                   "rank %d %s %s in incarnation %d, which rank %d carries "
                   "out there (%s:%u): a member waits, or data is lost",
                   g[k].rank, hows[g[k].how], call_id(id, sizeof id, &g[k]),
                   g[k].inc, carrier->rank, file(x, carrier->rank),
                   carrier->line);
  size_t k = 0; /* g and the reaches are both by rank: merged */
  for (size_t i = reach_from(x, carrier->comm, carrier->inc);
       i < x->n_reach && x->reach[i].comm == carrier->comm &&
       x->reach[i].inc == carrier->inc;
       i++) {
    const struct reach *p = &x->reach[i];
    int carried = 0;
    for (; k < n && g[k].rank <= p->rank; k++)
      carried |= g[k].rank == p->rank && carries(&g[k]);
    if (p->last > carrier->seq && !carried)
      return fault(x, carrier, "how",
                   "rank %d carries out %s in incarnation %d, but rank %d "
                   "went past it there without carrying it out (its call "
                   "#%lld at %s:%u): a straddling call is logged or "
                   "suppressed at every rank beyond the recovery line, or "
                   "carried out by every member",
                   carrier->rank, call_id(id, sizeof id, carrier), carrier->inc,
                   p->rank, (long long)p->last, file(x, p->rank), p->line);
  }
  return 0;
}

/* A decision against the figure: `r` should have logged (want 1) or not. */
static int decided(struct ctx *x, const struct ft_coll_rec *r, int want,
                   const struct ft_coll_rec *other, const char *why) {
  char id[96];
  if ((r->how == FT_HOW_LOG) == want)
    return 0;
  return fault(x, r, "how",
               "rank %d at epoch %d %s the result of %s in incarnation %d, "
               "rank %d being at epoch %d (%s:%u): %s",
               r->rank, r->epoch, want ? "did not log" : "logged",
               call_id(id, sizeof id, r), r->inc, other->rank, other->epoch,
               file(x, other->rank), other->line, why);
}

static const struct ft_coll_rec *root_of(const struct ft_coll_rec *g,
                                         size_t n) {
  for (size_t k = 0; k < n; k++)
    if (g[k].rank == g[k].root && g[k].how != FT_HOW_REEXEC && carries(&g[k]))
      return &g[k];
  return NULL;
}

static int all_to_all(struct ctx *x, const struct ft_coll_rec *g, size_t n) {
  const struct ft_coll_rec *lo = NULL, *hi = NULL;
  for (size_t k = 0; k < n; k++) {
    if (g[k].how != FT_HOW_RUN && g[k].how != FT_HOW_LOG)
      continue;
    if (!lo || g[k].epoch < lo->epoch)
      lo = &g[k];
    if (!hi || g[k].epoch > hi->epoch)
      hi = &g[k];
  }
  if (!lo || lo->epoch == hi->epoch)
    return 0; /* not straddling, as far as the trace shows */
  for (size_t k = 0; k < n; k++) {
    if (g[k].how != FT_HOW_RUN && g[k].how != FT_HOW_LOG)
      continue;
    int beyond = g[k].epoch > lo->epoch;
    if (decided(x, &g[k], beyond, beyond ? lo : hi,
                "Figure 5: a straddling call's result is logged by the ranks "
                "beyond the recovery line, by no other"))
      return -1;
  }
  return 0;
}

static int single_sender(struct ctx *x, const struct ft_coll_rec *g, size_t n) {
  const struct ft_coll_rec *root = root_of(g, n);
  if (!root)
    return 0;
  if (decided(x, root, 0, root, "Figure 7: the root never logs"))
    return -1;
  for (size_t k = 0; k < n; k++)
    if (&g[k] != root && (g[k].how == FT_HOW_RUN || g[k].how == FT_HOW_LOG) &&
        decided(x, &g[k], g[k].epoch > root->epoch, root,
                "Figure 7: a receiver logs exactly when the root is behind "
                "the recovery line and it is beyond"))
      return -1;
  return 0;
}

static int single_receiver(struct ctx *x, const struct ft_coll_rec *g,
                           size_t n) {
  const struct ft_coll_rec *root = root_of(g, n), *behind = NULL, *ahead = NULL;
  for (size_t k = 0; k < n; k++) {
    if (&g[k] == root || (g[k].how != FT_HOW_RUN && g[k].how != FT_HOW_LOG))
      continue;
    if (decided(x, &g[k], 0, root ? root : &g[k],
                "Figure 6: only the root logs"))
      return -1;
    if (root && g[k].epoch < root->epoch)
      behind = &g[k];
    if (root && g[k].epoch > root->epoch)
      ahead = &g[k];
  }
  if (behind)
    return decided(x, root, 1, behind,
                   "Figure 6: a root beyond the recovery line logs a "
                   "straddling call's result");
  if (ahead)
    return decided(x, root, 0, ahead,
                   "Figure 6: a root behind the recovery line does not log");
  return 0;
}

static int one_incarnation(struct ctx *x, const struct ft_coll_rec *g,
                           size_t n) {
  if (all_or_none(x, g, n))
    return -1;
  switch (flow_of(g[0].call)) {
  case SINGLE_SENDER:
    return single_sender(x, g, n);
  case SINGLE_RECEIVER:
    return single_receiver(x, g, n);
  case ALL_TO_ALL:
    break;
  }
  return all_to_all(x, g, n);
}

static int one_call(struct ctx *x, const struct ft_coll_rec *g, size_t n) {
  if (same_call(x, g, n) || recovery_actions(x, g, n))
    return -1;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && g[j].inc == g[i].inc; j++)
      ;
    if (one_incarnation(x, g + i, j - i))
      return -1;
  }
  return 0;
}

/* Each rank's last call per communicator and incarnation. */
static struct reach *reaches(const struct ft_coll_recs *recs, size_t *n) {
  struct reach *r = malloc((recs->n ? recs->n : 1) * sizeof *r);
  if (!r)
    return NULL;
  for (size_t i = 0; i < recs->n; i++) {
    const struct ft_coll_rec *c = &recs->at[i];
    r[i] = (struct reach){c->comm, c->inc, c->rank, c->seq, c->line};
  }
  qsort(r, recs->n, sizeof *r, by_reach);
  size_t m = 0;
  for (size_t i = 0; i < recs->n; i++) {
    if (m > 0 && by_reach(&r[m - 1], &r[i]) == 0) {
      if (r[i].last > r[m - 1].last)
        r[m - 1] = r[i];
      continue;
    }
    r[m++] = r[i];
  }
  *n = m;
  return r;
}

int ft_coll_check(struct ft_coll_recs *recs, const char *const *files,
                  int ranks, struct ft_coll_fault *fault_out) {
  struct ctx x = {.files = files, .ranks = ranks, .fault = fault_out};
  fault_out->field = NULL;
  x.reach = reaches(recs, &x.n_reach);
  if (!x.reach)
    return -1;
  qsort(recs->at, recs->n, sizeof *recs->at, by_call);
  int rc = 0;
  for (size_t i = 0, j; rc == 0 && i < recs->n; i = j) {
    const struct ft_coll_rec *a = &recs->at[i];
    for (j = i; j < recs->n && recs->at[j].comm == a->comm &&
                recs->at[j].seq == a->seq;
         j++)
      ;
    rc = one_call(&x, a, j - i);
  }
  free(x.reach);
  return rc;
}
