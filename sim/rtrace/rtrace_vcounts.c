/* The other ranks' counts of the collectives that need them (see
 * rtrace.h, "Counts of the v-collectives"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtrace.h"

/* One rank's counts for one of its events. */
struct vc_item {
  size_t pos;
  uint64_t *vals;
  size_t n;
};

struct vc_rank {
  struct vc_item *items;
  size_t n, cap;
};

/* A communicator's members walking through their collectives on it. */
struct vc_walk {
  const struct ft_rtrace *t;
  uint32_t comm, size;
  const uint32_t *members;
  size_t *cursor;                /* per member: next event to look at */
  const struct ft_rt_event **ev; /* per member: this instance's event */
  size_t *pos;
};

int ft_rtrace_coll_needs_counts(uint8_t op) {
  switch (op) {
  case FT_RT_GATHERV:
  case FT_RT_SCATTERV:
  case FT_RT_ALLGATHERV:
  case FT_RT_ALLTOALLV:
  case FT_RT_ALLTOALLW:
  case FT_RT_REDUCE_SCATTER:
    return 1;
  default:
    return 0;
  }
}

/* Moves member i to its next collective on the walk's communicator;
 * returns 0 when it has none left. */
static int next_coll(struct vc_walk *w, uint32_t i) {
  const struct ft_rtrace_rank *r = &w->t->ranks[w->members[i]];
  for (size_t k = w->cursor[i]; k < r->n; k++)
    if (r->ev[k].kind == FT_RT_COLL && r->ev[k].u.coll.comm == w->comm) {
      w->ev[i] = &r->ev[k];
      w->pos[i] = k;
      w->cursor[i] = k + 1;
      return 1;
    }
  w->cursor[i] = r->n;
  return 0;
}

static int add_item(struct vc_rank *r, size_t pos, uint64_t *vals, size_t n) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 8;
    struct vc_item *p = realloc(r->items, cap * sizeof *p);
    if (!p)
      return -1;
    r->items = p, r->cap = cap;
  }
  r->items[r->n++] = (struct vc_item){pos, vals, n};
  return 0;
}

/* Alltoallv: the bytes from member i to member j, row i's total sent
 * spread over the columns in proportion to what each received (largest
 * remainder, so that row i sums to its sent bytes exactly). The trace holds
 * only the totals; any matrix makes each pair agree. */
static void spread_row(const struct vc_walk *w, uint32_t i, uint64_t *row) {
  double total = 0;
  for (uint32_t j = 0; j < w->size; j++)
    total += (double)w->ev[j]->u.coll.recvd;
  uint64_t sent = w->ev[i]->u.coll.sent, given = 0;
  for (uint32_t j = 0; j < w->size; j++) {
    double share = total > 0
                       ? (double)sent * (double)w->ev[j]->u.coll.recvd / total
                       : (double)sent / w->size;
    row[j] = (uint64_t)share;
    given += row[j];
  }
  for (uint32_t j = 0; given < sent; j = (j + 1) % w->size)
    row[j]++, given++;
}

/* Member i's counts in this instance: *n values (or none). */
static uint64_t *instance_counts(const struct vc_walk *w, uint32_t i,
                                 size_t *n) {
  const struct ft_rt_coll *c = &w->ev[i]->u.coll;
  uint32_t s = w->size;
  int alltoall = c->op == FT_RT_ALLTOALLV || c->op == FT_RT_ALLTOALLW;
  int rooted = c->op == FT_RT_GATHERV || c->op == FT_RT_SCATTERV;
  *n = 0;
  if (rooted && c->root != (int32_t)i)
    return NULL;
  uint64_t *v = calloc(alltoall ? 2 * (size_t)s : s, sizeof *v);
  if (!v)
    return NULL;
  *n = alltoall ? 2 * (size_t)s : s;
  if (alltoall) {
    uint64_t *row = calloc(s, sizeof *row);
    if (!row)
      return free(v), *n = 0, NULL;
    spread_row(w, i, v);
    for (uint32_t j = 0; j < s; j++) {
      spread_row(w, j, row);
      v[s + j] = row[i];
    }
    free(row);
    return v;
  }
  for (uint32_t j = 0; j < s; j++) {
    const struct ft_rt_coll *o = &w->ev[j]->u.coll;
    v[j] = c->op == FT_RT_GATHERV || c->op == FT_RT_ALLGATHERV ? o->sent
                                                               : o->recvd;
  }
  return v;
}

/* One instance: every member's event must be the same operation. */
static int instance(struct vc_walk *w, struct vc_rank *out, size_t k, char *err,
                    size_t errlen) {
  const struct ft_rt_coll *c0 = &w->ev[0]->u.coll;
  for (uint32_t i = 1; i < w->size; i++)
    if (w->ev[i]->u.coll.op != c0->op) {
      snprintf(err, errlen,
               "communicator %" PRIu32 ", collective %zu: rank %" PRIu32
               " calls %s, rank %" PRIu32 " %s",
               w->comm, k, w->members[0], ft_rt_coll_name(c0->op),
               w->members[i], ft_rt_coll_name(w->ev[i]->u.coll.op));
      return -1;
    }
  if (!ft_rtrace_coll_needs_counts(c0->op))
    return 0;
  for (uint32_t i = 0; i < w->size; i++) {
    size_t n;
    uint64_t *v = instance_counts(w, i, &n);
    if (n && add_item(&out[w->members[i]], w->pos[i], v, n))
      return free(v), snprintf(err, errlen, "out of memory"), -1;
  }
  return 0;
}

/* Walks communicator `comm` (members given) through its collectives. */
static int walk(const struct ft_rtrace *t, uint32_t comm, uint32_t size,
                const uint32_t *members, struct vc_rank *out, char *err,
                size_t errlen) {
  struct vc_walk w = {t,
                      comm,
                      size,
                      members,
                      calloc(size, sizeof(size_t)),
                      calloc(size, sizeof(void *)),
                      calloc(size, sizeof(size_t))};
  int rc = w.cursor && w.ev && w.pos ? 0 : -1;
  if (rc)
    snprintf(err, errlen, "out of memory");
  for (size_t k = 0; rc == 0; k++) {
    uint32_t have = 0;
    for (uint32_t i = 0; i < size; i++)
      have += (uint32_t)next_coll(&w, i);
    if (have == 0)
      break;
    if (have != size) {
      snprintf(err, errlen,
               "communicator %" PRIu32 ": ranks disagree on the number of "
               "collectives (%zu and more)",
               comm, k);
      rc = -1;
    } else {
      rc = instance(&w, out, k, err, errlen);
    }
  }
  free(w.cursor);
  free((void *)w.ev);
  free(w.pos);
  return rc;
}

static int by_pos(const void *a, const void *b) {
  const struct vc_item *x = a, *y = b;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Writes: nranks, then per rank its number of values, then the values. */
static int write_file(const char *path, uint32_t nranks, struct vc_rank *out,
                      char *err, size_t errlen) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return snprintf(err, errlen, "%s: cannot create", path), -1;
  uint64_t n = nranks;
  int bad = fwrite(&n, sizeof n, 1, f) != 1;
  for (uint32_t r = 0; r < nranks; r++) {
    qsort(out[r].items, out[r].n, sizeof *out[r].items, by_pos);
    uint64_t total = 0;
    for (size_t i = 0; i < out[r].n; i++)
      total += out[r].items[i].n;
    bad |= fwrite(&total, sizeof total, 1, f) != 1;
  }
  for (uint32_t r = 0; r < nranks; r++)
    for (size_t i = 0; i < out[r].n; i++)
      bad |= fwrite(out[r].items[i].vals, sizeof(uint64_t), out[r].items[i].n,
                    f) != out[r].items[i].n;
  bad |= fclose(f) != 0;
  if (bad)
    snprintf(err, errlen, "%s: cannot write", path);
  return bad ? -1 : 0;
}

static int walk_all(const struct ft_rtrace *t, struct vc_rank *out, char *err,
                    size_t errlen) {
  for (uint32_t c = 0; c < t->ncomms; c++) {
    const struct ft_rt_comm *m = &t->comms[c];
    if (m->members) {
      if (walk(t, c, m->size, m->members, out, err, errlen))
        return -1;
      continue;
    }
    for (uint32_t r = 0; r < t->nranks; r++) /* SELF-like: each alone */
      if (walk(t, c, 1, &r, out, err, errlen))
        return -1;
  }
  return 0;
}

int ft_rtrace_write_vcounts(const struct ft_rtrace *t, const char *path,
                            char *err, size_t errlen) {
  struct vc_rank *out = calloc(t->nranks, sizeof *out);
  if (!out)
    return snprintf(err, errlen, "out of memory"), -1;
  int rc = walk_all(t, out, err, errlen);
  if (rc == 0)
    rc = write_file(path, t->nranks, out, err, errlen);
  for (uint32_t r = 0; r < t->nranks; r++) {
    for (size_t i = 0; i < out[r].n; i++)
      free(out[r].items[i].vals);
    free(out[r].items);
  }
  free(out);
  return rc;
}

int ft_rtrace_read_vcounts(const char *path, uint32_t rank, uint64_t **vals,
                           size_t *n, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  uint64_t nranks = 0, skip = 0, mine = 0;
  *vals = NULL, *n = 0;
  int bad = !f || fread(&nranks, sizeof nranks, 1, f) != 1 || rank >= nranks;
  for (uint64_t r = 0; !bad && r < nranks; r++) {
    uint64_t k;
    bad = fread(&k, sizeof k, 1, f) != 1;
    skip += r < rank ? k : 0;
    mine = r == rank ? k : mine;
  }
  bad = bad || fseek(f, (long)(skip * sizeof(uint64_t)), SEEK_CUR) != 0;
  if (!bad && mine) {
    *vals = malloc(mine * sizeof **vals);
    bad = !*vals || fread(*vals, sizeof **vals, mine, f) != mine;
  }
  if (f)
    fclose(f);
  if (bad) {
    free(*vals);
    *vals = NULL;
    return snprintf(err, errlen, "%s: not a counts file for rank %" PRIu32,
                    path, rank),
           -1;
  }
  *n = (size_t)mine;
  return 0;
}
