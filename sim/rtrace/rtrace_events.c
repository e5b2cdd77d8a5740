/* The replay's events file: written once by the CLI, read per rank by the
 * replay (rtrace_events.h). */
#include "rtrace_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'f', 't', 's', 'i', 'm', 'e', 'v', '1'};

struct header {
  char magic[8];
  uint32_t nranks, ncomms;
  uint32_t ev_size, done_size;
  uint64_t comms_off, comms_bytes;
};

struct index_entry {
  uint64_t ev_off, n;
  uint64_t done_off, ndone;
  double host_speed;
};

static int fail(char *err, size_t errlen, const char *path, const char *what) {
  snprintf(err, errlen, "%s: %s", path, what);
  return -1;
}

/* The communicators' block: per communicator its size, 1 when members
 * follow, then the members. */
static uint64_t comms_bytes(const struct ft_rtrace *t) {
  uint64_t b = 0;
  for (uint32_t c = 0; c < t->ncomms; c++)
    b += 2 * sizeof(uint32_t) +
         (t->comms[c].members ? t->comms[c].size * sizeof(uint32_t) : 0);
  return b;
}

static int put_comms(FILE *f, const struct ft_rtrace *t) {
  int ok = 1;
  for (uint32_t c = 0; ok && c < t->ncomms; c++) {
    const struct ft_rt_comm *m = &t->comms[c];
    uint32_t head[2] = {m->size, m->members != NULL};
    ok = fwrite(head, sizeof head, 1, f) == 1 &&
         (!m->members || !m->size ||
          fwrite(m->members, sizeof *m->members, m->size, f) == m->size);
  }
  return ok;
}

/* The index: each rank's events then its entries, after the
 * communicators. */
static void make_index(const struct ft_rtrace *t, const struct header *h,
                       struct index_entry *ix) {
  uint64_t off = h->comms_off + h->comms_bytes;
  for (uint32_t r = 0; r < t->nranks; r++) {
    const struct ft_rtrace_rank *k = &t->ranks[r];
    ix[r] = (struct index_entry){off, k->n, off + k->n * h->ev_size, k->ndone,
                                 k->host_speed};
    off = ix[r].done_off + k->ndone * h->done_size;
  }
}

static int put_ranks(FILE *f, const struct ft_rtrace *t) {
  int ok = 1;
  for (uint32_t r = 0; ok && r < t->nranks; r++) {
    const struct ft_rtrace_rank *k = &t->ranks[r];
    ok = (!k->n || fwrite(k->ev, sizeof *k->ev, k->n, f) == k->n) &&
         (!k->ndone ||
          fwrite(k->done, sizeof *k->done, k->ndone, f) == k->ndone);
  }
  return ok;
}

int ft_rtrace_write_events(const struct ft_rtrace *t, const char *path,
                           char *err, size_t errlen) {
  struct header h = {.nranks = t->nranks,
                     .ncomms = t->ncomms,
                     .ev_size = sizeof(struct ft_rt_event),
                     .done_size = sizeof(struct ft_rt_done)};
  memcpy(h.magic, magic, sizeof magic);
  h.comms_off = sizeof h + (uint64_t)t->nranks * sizeof(struct index_entry);
  h.comms_bytes = comms_bytes(t);
  struct index_entry *ix = malloc((t->nranks + 1) * sizeof *ix);
  FILE *f = ix ? fopen(path, "wb") : NULL;
  if (!f) {
    free(ix);
    return fail(err, errlen, path, ix ? "cannot create" : "out of memory");
  }
  make_index(t, &h, ix);
  int ok = fwrite(&h, sizeof h, 1, f) == 1 &&
           fwrite(ix, sizeof *ix, t->nranks, f) == t->nranks &&
           put_comms(f, t) && put_ranks(f, t);
  free(ix);
  if (fclose(f) != 0 || !ok)
    return fail(err, errlen, path, "cannot write");
  return 0;
}

/* Reads `n` bytes at `off` into a new buffer (at least one byte). */
static void *read_at(FILE *f, uint64_t off, uint64_t n) {
  void *b = malloc(n ? (size_t)n : 1);
  if (b && n &&
      (fseek(f, (long)off, SEEK_SET) != 0 || fread(b, 1, (size_t)n, f) != n)) {
    free(b);
    return NULL;
  }
  return b;
}

/* Parses the communicators' block; 0, or -1 when malformed. */
static int get_comms(struct ft_rtrace_one *o, const uint8_t *b, uint64_t n) {
  uint64_t at = 0;
  o->comms = calloc(o->ncomms + 1, sizeof *o->comms);
  if (!o->comms)
    return -1;
  for (uint32_t c = 0; c < o->ncomms; c++) {
    uint32_t head[2];
    if (at + sizeof head > n)
      return -1;
    memcpy(head, b + at, sizeof head);
    at += sizeof head;
    o->comms[c].size = head[0];
    if (!head[1])
      continue;
    uint64_t mb = (uint64_t)head[0] * sizeof(uint32_t);
    if (at + mb > n || !(o->comms[c].members = malloc(mb ? (size_t)mb : 1)))
      return -1;
    memcpy(o->comms[c].members, b + at, (size_t)mb);
    at += mb;
  }
  return at == n ? 0 : -1;
}

static int in_file(uint64_t off, uint64_t count, uint64_t size, uint64_t file) {
  return count <= file / (size ? size : 1) && off <= file &&
         count * size <= file - off;
}

/* Reads the rank's index entry, communicators and events. */
static const char *get_rank(FILE *f, const struct header *h, uint64_t file,
                            struct ft_rtrace_one *o) {
  struct index_entry e;
  uint64_t at = sizeof *h + (uint64_t)o->rank * sizeof e;
  if (fseek(f, (long)at, SEEK_SET) != 0 || fread(&e, sizeof e, 1, f) != 1)
    return "truncated index";
  if (!in_file(h->comms_off, h->comms_bytes, 1, file) ||
      !in_file(e.ev_off, e.n, h->ev_size, file) ||
      !in_file(e.done_off, e.ndone, h->done_size, file))
    return "an offset past the end (truncated?)";
  uint8_t *cb = read_at(f, h->comms_off, h->comms_bytes);
  int bad = !cb || get_comms(o, cb, h->comms_bytes);
  free(cb);
  if (bad)
    return "malformed communicators";
  o->me.ev = read_at(f, e.ev_off, e.n * h->ev_size);
  o->me.done = read_at(f, e.done_off, e.ndone * h->done_size);
  if (!o->me.ev || !o->me.done)
    return "cannot read the rank's events";
  o->me.n = o->me.cap = (size_t)e.n;
  o->me.ndone = o->me.capdone = (size_t)e.ndone;
  o->me.host_speed = e.host_speed;
  return NULL;
}

int ft_rtrace_read_events(const char *path, uint32_t rank,
                          struct ft_rtrace_one *o, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail(err, errlen, path, "cannot open");
  struct header h;
  const char *why = NULL;
  long file = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (file < 0 || fseek(f, 0, SEEK_SET) != 0 ||
      fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, magic, sizeof magic))
    why = "not a replay events file";
  else if (h.ev_size != sizeof(struct ft_rt_event) ||
           h.done_size != sizeof(struct ft_rt_done))
    why = "written by another build of ftsim";
  else if (rank >= h.nranks)
    why = "no such rank";
  if (!why) {
    o->nranks = h.nranks, o->rank = rank, o->ncomms = h.ncomms;
    why = get_rank(f, &h, (uint64_t)file, o);
  }
  fclose(f);
  if (!why)
    return 0;
  ft_rtrace_one_free(o);
  snprintf(err, errlen, "%s: rank %u: %s", path, rank, why);
  return -1;
}

void ft_rtrace_take_one(struct ft_rtrace *t, uint32_t rank,
                        struct ft_rtrace_one *o) {
  memset(o, 0, sizeof *o);
  o->nranks = t->nranks, o->rank = rank;
  o->comms = t->comms, o->ncomms = t->ncomms;
  o->me = t->ranks[rank];
  t->comms = NULL, t->ncomms = 0;
  memset(&t->ranks[rank], 0, sizeof t->ranks[rank]);
  ft_rtrace_free(t);
}

void ft_rtrace_one_free(struct ft_rtrace_one *o) {
  for (uint32_t c = 0; o->comms && c < o->ncomms; c++)
    free(o->comms[c].members);
  free(o->comms);
  free(o->me.ev);
  free(o->me.done);
  memset(o, 0, sizeof *o);
}
