/* The application's heap, by life (see runtime.h, "Application heap").
 *
 * A failure in ftsim is logical (DESIGN.md): the failed process is not
 * gone, main() runs again in the same address space, and whatever the lost
 * life allocated stays allocated unless the runtime frees it, as the end of
 * a real process would. So every block the application allocates is tagged
 * with the life that allocated it, and the blocks of an abandoned life are
 * freed once nothing of that life can write into them any more.
 *
 * Under SMPI the application's malloc, calloc, realloc and free are SMPI's
 * smpi_shared_*_intercept (smpi_helpers.h); the application modules are
 * linked with --wrap on them (cmake/ftsim.cmake), so they land here. The
 * runtime itself is compiled with SMPI_NO_OVERRIDE_MALLOC: its own memory
 * is never tagged. In reference mode nothing is wrapped: the functions
 * below count nothing and release nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Before each application block (keeps the 16-byte alignment malloc
 * gives). */
struct ft_heap_block {
  struct ft_heap_block *prev, *next;
  void *base;  /* what the allocator returned */
  size_t size; /* the application's bytes */
  uint64_t magic;
  int64_t life;
};

enum {
  PAGE = 4096,
  /* A block's data never starts in the first MIN_OFFSET bytes of a page:
   * a pointer that does is not ours, and its header is not read (it could
   * sit on an unmapped page). */
  MIN_OFFSET = 64,
};
static const uint64_t block_magic = 0x4654534948656170ull; /* "FTSIHeap" */

static struct ft_heap_block *header_of(void *data) {
  if (!data || (uintptr_t)data % PAGE < MIN_OFFSET)
    return NULL;
  struct ft_heap_block *h = (struct ft_heap_block *)data - 1;
  return h->magic == block_magic ? h : NULL;
}

static void link_block(struct ft_app_heap *heap, struct ft_heap_block *h) {
  h->prev = NULL;
  h->next = heap->blocks;
  if (heap->blocks)
    heap->blocks->prev = h;
  heap->blocks = h;
  heap->bytes += h->size;
  if (heap->bytes > heap->peak)
    heap->peak = heap->bytes;
}

static void unlink_block(struct ft_app_heap *heap, struct ft_heap_block *h) {
  if (h->prev)
    h->prev->next = h->next;
  else
    heap->blocks = h->next;
  if (h->next)
    h->next->prev = h->prev;
  heap->bytes -= h->size;
  h->magic = 0;
}

void *ft_app_heap_place(struct ft_app_heap *heap, void *base, size_t size) {
  if (!base)
    return NULL;
  uintptr_t data = (uintptr_t)base + sizeof(struct ft_heap_block);
  while (data % PAGE < MIN_OFFSET)
    data += 16;
  struct ft_heap_block *h = (struct ft_heap_block *)data - 1;
  *h = (struct ft_heap_block){
      .base = base, .size = size, .magic = block_magic, .life = heap->life};
  link_block(heap, h);
  return (void *)data;
}

size_t ft_app_heap_extra(void) {
  return sizeof(struct ft_heap_block) + MIN_OFFSET;
}

void *ft_app_heap_take(struct ft_app_heap *heap, void *data, size_t *size) {
  struct ft_heap_block *h = header_of(data);
  if (!h)
    return data;
  unlink_block(heap, h);
  if (size)
    *size = h->size;
  return h->base;
}

int ft_app_heap_owns(void *data) { return header_of(data) != NULL; }

void ft_app_heap_end_life(struct ft_app_heap *heap) { heap->life++; }

void ft_app_heap_release(struct ft_app_heap *heap, int64_t before_life) {
  struct ft_heap_block *h = heap->blocks, *next;
  for (; h; h = next) {
    next = h->next;
    if (h->life >= before_life)
      continue;
    heap->released += h->size;
    void *base = h->base;
    unlink_block(heap, h);
    free(base);
  }
}

#ifdef FTSIM_SMPI
/* ---- The wrapped SMPI intercepts (ld --wrap) ---- */

void *__real_smpi_shared_malloc_intercept(size_t size, const char *file,
                                          int line);
void *__real_smpi_shared_calloc_intercept(size_t n, size_t size,
                                          const char *file, int line);
void *__real_smpi_shared_realloc_intercept(void *data, size_t size,
                                           const char *file, int line);
void __real_smpi_shared_free(void *data);
void *__wrap_smpi_shared_malloc_intercept(size_t size, const char *file,
                                          int line);
void *__wrap_smpi_shared_calloc_intercept(size_t n, size_t size,
                                          const char *file, int line);
void *__wrap_smpi_shared_realloc_intercept(void *data, size_t size,
                                           const char *file, int line);
void __wrap_smpi_shared_free(void *data);

/* The blocks come from libc (the runtime's allocator, untracked by SMPI's
 * accounting, which only matters with smpi/display-allocs). */
void *__wrap_smpi_shared_malloc_intercept(size_t size, const char *file,
                                          int line) {
  (void)file;
  (void)line;
  if (size > SIZE_MAX - ft_app_heap_extra())
    return NULL;
  return ft_app_heap_place(&ft_runtime()->heap,
                           malloc(size + ft_app_heap_extra()), size);
}

void *__wrap_smpi_shared_calloc_intercept(size_t n, size_t size,
                                          const char *file, int line) {
  (void)file;
  (void)line;
  if (size && n > (SIZE_MAX - ft_app_heap_extra()) / size)
    return NULL;
  return ft_app_heap_place(&ft_runtime()->heap,
                           calloc(1, n * size + ft_app_heap_extra()), n * size);
}

void *__wrap_smpi_shared_realloc_intercept(void *data, size_t size,
                                           const char *file, int line) {
  if (data && !ft_app_heap_owns(data)) /* not ours: SMPI's or libc's */
    return __real_smpi_shared_realloc_intercept(data, size, file, line);
  void *fresh = __wrap_smpi_shared_malloc_intercept(size, file, line);
  if (!fresh || !data)
    return fresh;
  size_t old = 0;
  void *base = ft_app_heap_take(&ft_runtime()->heap, data, &old);
  memcpy(fresh, data, old < size ? old : size);
  free(base);
  return fresh;
}

void __wrap_smpi_shared_free(void *data) {
  if (!ft_app_heap_owns(data)) {
    __real_smpi_shared_free(data);
    return;
  }
  free(ft_app_heap_take(&ft_runtime()->heap, data, NULL));
}
#endif
