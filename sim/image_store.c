/* The checkpoint server's memory (see image_store.h). */
#define _POSIX_C_SOURCE 200809L
#include "image_store.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "image_file.h"

/* One image of one rank: what was verified when it was put. */
struct generation {
  int wave;     /* 0: no image */
  size_t bytes; /* its size */
  uint32_t crc; /* its checksum */
  void *img;    /* memory mode: the copy; file mode: NULL */
};

struct rank_images {
  struct generation committed, in_progress;
  void *read; /* file mode: the buffer of the last ft_store_get */
  int served; /* named by ft_store_serve */
};

struct ft_image_store {
  int ranks;
  int committed_wave;
  int restricted; /* 0: serves every rank; 1: the ranks marked served */
  char *dir;      /* NULL: memory mode */
  struct rank_images *rank;
  char last_error[512];
};

struct ft_image_store *ft_store_create(int ranks, const char *dir, char *err,
                                       size_t errlen) {
  if (ranks < 1) {
    snprintf(err, errlen, "a store needs at least one rank, not %d", ranks);
    return NULL;
  }
  if (dir && ft_image_file_mkdir(dir, err, errlen) < 0)
    return NULL;
  struct ft_image_store *s = calloc(1, sizeof *s);
  if (s)
    s->rank = calloc((size_t)ranks, sizeof *s->rank);
  if (s && dir)
    s->dir = strdup(dir);
  if (!s || !s->rank || (dir && !s->dir)) {
    snprintf(err, errlen, "out of memory for a store of %d ranks", ranks);
    ft_store_destroy(s);
    return NULL;
  }
  s->ranks = ranks;
  return s;
}

void ft_store_destroy(struct ft_image_store *store) {
  if (!store)
    return;
  for (int r = 0; store->rank && r < store->ranks; r++) {
    free(store->rank[r].committed.img);
    free(store->rank[r].in_progress.img);
    free(store->rank[r].read);
  }
  free(store->rank);
  free(store->dir);
  free(store);
}

int ft_store_serve(struct ft_image_store *store, int rank) {
  if (rank < 0 || rank >= store->ranks)
    return -1;
  store->restricted = 1;
  store->rank[rank].served = 1;
  return 0;
}

static int serves(const struct ft_image_store *s, int rank) {
  return !s->restricted || s->rank[rank].served;
}

/* Frees an image (file mode: deletes its file) and empties g. */
static void drop(struct ft_image_store *s, int rank, struct generation *g) {
  if (g->wave && s->dir)
    ft_image_file_remove(s->dir, rank, g->wave, s->last_error,
                         sizeof s->last_error);
  free(g->img);
  memset(g, 0, sizeof *g);
}

/* Verifies an image of rank's wave: ft_image_check and its header. */
static int verify(const void *img, size_t bytes, int rank, int wave,
                  struct ft_image_info *info, char *err, size_t errlen) {
  char why[256];
  if (ft_image_check(img, bytes, info, why, sizeof why) < 0) {
    snprintf(err, errlen, "rank %d wave %d: %s", rank, wave, why);
    return -1;
  }
  if (info->rank != rank || info->wave != wave) {
    snprintf(err, errlen,
             "rank %d wave %d: the image's header says rank %d "
             "wave %d",
             rank, wave, info->rank, info->wave);
    return -1;
  }
  return 0;
}

static int check_rank(const struct ft_image_store *s, int rank, char *err,
                      size_t errlen) {
  if (rank < 0 || rank >= s->ranks) {
    snprintf(err, errlen, "rank %d out of range (the store has %d ranks)", rank,
             s->ranks);
    return -1;
  }
  if (!serves(s, rank)) {
    snprintf(err, errlen, "rank %d is not served by this store", rank);
    return -1;
  }
  return 0;
}

/* Stores the verified image: a copy in memory, or a file. */
static int keep(struct ft_image_store *s, int rank, int wave, const void *img,
                size_t bytes, void **copy, char *err, size_t errlen) {
  *copy = NULL;
  if (s->dir)
    return ft_image_file_write(s->dir, rank, wave, img, bytes, err, errlen);
  *copy = malloc(bytes);
  if (!*copy) {
    snprintf(err, errlen, "rank %d wave %d: out of memory for %zu bytes", rank,
             wave, bytes);
    return -1;
  }
  memcpy(*copy, img, bytes);
  return 0;
}

int ft_store_put(struct ft_image_store *store, int rank, int wave,
                 const void *img, size_t bytes, char *err, size_t errlen) {
  struct ft_image_info info;
  void *copy;
  if (check_rank(store, rank, err, errlen) < 0)
    return -1;
  int committed = store->committed_wave > store->rank[rank].committed.wave
                      ? store->committed_wave
                      : store->rank[rank].committed.wave;
  if (wave <= committed) {
    snprintf(err, errlen,
             "rank %d wave %d: wave %d is not newer than the committed wave %d",
             rank, wave, wave, committed);
    return -1;
  }
  if (verify(img, bytes, rank, wave, &info, err, errlen) < 0 ||
      keep(store, rank, wave, img, bytes, &copy, err, errlen) < 0)
    return -1;
  struct generation *g = &store->rank[rank].in_progress;
  if (g->wave == wave && store->dir)
    g->wave = 0; /* its file was just replaced: do not delete it */
  drop(store, rank, g);
  *g = (struct generation){wave, bytes, info.crc, copy};
  return 0;
}

int ft_store_commit(struct ft_image_store *store, int wave, char *err,
                    size_t errlen) {
  for (int r = 0; r < store->ranks; r++) {
    const struct generation *g = &store->rank[r].in_progress;
    if (serves(store, r) && (wave < 1 || g->wave != wave)) {
      char now[32] = "none";
      if (g->wave)
        snprintf(now, sizeof now, "wave %d", g->wave);
      snprintf(err, errlen,
               "cannot commit wave %d: rank %d has no image of it in "
               "progress (in progress: %s)",
               wave, r, now);
      return -1;
    }
  }
  for (int r = 0; r < store->ranks; r++) {
    struct rank_images *ri = &store->rank[r];
    if (!serves(store, r))
      continue;
    drop(store, r, &ri->committed);
    ri->committed = ri->in_progress;
    memset(&ri->in_progress, 0, sizeof ri->in_progress);
  }
  store->committed_wave = wave;
  return 0;
}

int ft_store_commit_rank(struct ft_image_store *store, int rank, int wave,
                         char *err, size_t errlen) {
  if (check_rank(store, rank, err, errlen) < 0)
    return -1;
  struct rank_images *ri = &store->rank[rank];
  if (wave < 1 || ri->in_progress.wave != wave) {
    snprintf(err, errlen,
             "cannot commit rank %d's checkpoint %d: not in progress "
             "(in progress: %d)",
             rank, wave, ri->in_progress.wave);
    return -1;
  }
  drop(store, rank, &ri->committed);
  ri->committed = ri->in_progress;
  memset(&ri->in_progress, 0, sizeof ri->in_progress);
  return 0;
}

/* Reads and verifies rank's file of wave; fills *g. */
static int adopt_one(const struct ft_image_store *s, int rank, int wave,
                     struct generation *g, char *err, size_t errlen) {
  void *img = NULL;
  size_t bytes = 0;
  struct ft_image_info info;
  if (ft_image_file_read(s->dir, rank, wave, &img, &bytes, &info, err, errlen) <
      0)
    return -1;
  free(img);
  *g = (struct generation){wave, bytes, info.crc, NULL};
  return 0;
}

int ft_store_adopt(struct ft_image_store *store, int wave, char *err,
                   size_t errlen) {
  if (!store->dir) {
    snprintf(err, errlen, "a memory store has no files to adopt");
    return -1;
  }
  if (wave <= 0)
    return 0;
  struct generation *g = calloc((size_t)store->ranks, sizeof *g);
  if (!g) {
    snprintf(err, errlen, "out of memory adopting wave %d", wave);
    return -1;
  }
  for (int r = 0; r < store->ranks; r++)
    if (serves(store, r) && adopt_one(store, r, wave, &g[r], err, errlen) < 0) {
      free(g);
      return -1;
    }
  for (int r = 0; r < store->ranks; r++)
    if (serves(store, r))
      store->rank[r].committed = g[r];
  store->committed_wave = wave;
  free(g);
  return 0;
}

int ft_store_committed_of(const struct ft_image_store *store, int rank) {
  return rank >= 0 && rank < store->ranks ? store->rank[rank].committed.wave
                                          : 0;
}

void ft_store_discard_in_progress(struct ft_image_store *store) {
  for (int r = 0; r < store->ranks; r++)
    drop(store, r, &store->rank[r].in_progress);
}

static struct generation *find(struct ft_image_store *s, int rank, int wave) {
  struct rank_images *ri = &s->rank[rank];
  if (wave > 0 && ri->committed.wave == wave)
    return &ri->committed;
  if (wave > 0 && ri->in_progress.wave == wave)
    return &ri->in_progress;
  return NULL;
}

static int no_image(const struct ft_image_store *s, int rank, int wave,
                    char *err, size_t errlen) {
  char now[32] = "none";
  int w = s->rank[rank].in_progress.wave;
  if (w)
    snprintf(now, sizeof now, "%d", w);
  snprintf(err, errlen,
           "rank %d has no image of wave %d (committed: %d, in progress: %s)",
           rank, wave, s->rank[rank].committed.wave, now);
  return -1;
}

/* The image as memory holds it, or as the file reads back. */
static int load(struct ft_image_store *s, int rank, const struct generation *g,
                const void **img, struct ft_image_info *info, char *err,
                size_t errlen) {
  if (!s->dir) {
    *img = g->img;
    return verify(g->img, g->bytes, rank, g->wave, info, err, errlen);
  }
  void *buf = NULL;
  size_t bytes = 0;
  if (ft_image_file_read(s->dir, rank, g->wave, &buf, &bytes, info, err,
                         errlen) < 0)
    return -1;
  free(s->rank[rank].read);
  s->rank[rank].read = buf;
  *img = buf;
  return 0;
}

int ft_store_get(struct ft_image_store *store, int rank, int wave,
                 const void **img, size_t *bytes, char *err, size_t errlen) {
  struct ft_image_info info;
  const void *p;
  if (check_rank(store, rank, err, errlen) < 0)
    return -1;
  const struct generation *g = find(store, rank, wave);
  if (!g)
    return no_image(store, rank, wave, err, errlen);
  if (load(store, rank, g, &p, &info, err, errlen) < 0)
    return -1;
  if (info.bytes != (uint64_t)g->bytes || info.crc != g->crc) {
    snprintf(err, errlen,
             "rank %d wave %d: the image changed since it was stored (%zu "
             "bytes, checksum 0x%08" PRIx32 " then; %" PRIu64
             " bytes, 0x%08" PRIx32 " now)",
             rank, wave, g->bytes, g->crc, info.bytes, info.crc);
    return -1;
  }
  *img = p;
  *bytes = g->bytes;
  return 0;
}

int ft_store_committed_wave(const struct ft_image_store *store) {
  return store->committed_wave;
}

size_t ft_store_bytes(const struct ft_image_store *store) {
  size_t total = 0;
  for (int r = 0; r < store->ranks; r++)
    total += store->rank[r].committed.bytes + store->rank[r].in_progress.bytes;
  return total;
}

const char *ft_store_last_error(const struct ft_image_store *store) {
  return store->last_error;
}
