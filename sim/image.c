/* Checkpoint images (see image.h). */
#include "image.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

/* Header field offsets (image.h draws the layout). */
enum {
  OFF_VERSION = 8,
  OFF_RANK = 12,
  OFF_WAVE = 16,
  OFF_INDEX = 20,
  OFF_REGIONS = 28,
  OFF_BYTES = 32,
  OFF_CRC = FT_IMAGE_CRC_OFFSET,
};

/* One entry of the region table, as read from an image. */
struct entry {
  int id;
  uint64_t bytes;
  const unsigned char *data;
};

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

/* Two's complement decoding without implementation-defined conversions. */
static int32_t as_i32(uint32_t u) {
  return u <= INT32_MAX ? (int32_t)u : -(int32_t)~u - 1;
}

static int64_t as_i64(uint64_t u) {
  return u <= INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}

uint32_t ft_image_crc(const void *img, size_t bytes) {
  const unsigned char *p = img;
  uLong crc = crc32_z(0L, Z_NULL, 0);
  crc = crc32_z(crc, p, OFF_CRC);
  crc = crc32_z(crc, p + FT_IMAGE_HEADER_BYTES, bytes - FT_IMAGE_HEADER_BYTES);
  return (uint32_t)crc;
}

size_t ft_image_size(const struct ft_image_region *regions, size_t n) {
  if (n > UINT32_MAX)
    return 0;
  size_t total = FT_IMAGE_HEADER_BYTES;
  for (size_t i = 0; i < n; i++) {
    size_t entry = regions[i].bytes + FT_IMAGE_REGION_HEADER;
    if (entry < regions[i].bytes || total + entry < total)
      return 0;
    total += entry;
  }
  return total;
}

static void write_header(unsigned char *p, const struct ft_image_info *info,
                         size_t n, size_t total) {
  memcpy(p, FT_IMAGE_MAGIC, 8);
  put_u32(p + OFF_VERSION, FT_IMAGE_VERSION);
  put_u32(p + OFF_RANK, (uint32_t)info->rank);
  put_u32(p + OFF_WAVE, (uint32_t)info->wave);
  put_u64(p + OFF_INDEX, (uint64_t)info->index);
  put_u32(p + OFF_REGIONS, (uint32_t)n);
  put_u64(p + OFF_BYTES, (uint64_t)total);
  put_u32(p + OFF_CRC, 0);
}

size_t ft_image_write(void *dst, size_t cap, const struct ft_image_info *info,
                      const struct ft_image_region *regions, size_t n) {
  size_t total = ft_image_size(regions, n);
  if (total == 0 || total > cap)
    return 0;
  unsigned char *p = dst;
  write_header(p, info, n, total);
  size_t off = FT_IMAGE_HEADER_BYTES;
  for (size_t i = 0; i < n; i++) {
    put_u32(p + off, (uint32_t)regions[i].id);
    put_u64(p + off + 4, (uint64_t)regions[i].bytes);
    off += FT_IMAGE_REGION_HEADER;
    if (regions[i].bytes > 0)
      memcpy(p + off, regions[i].ptr, regions[i].bytes);
    off += regions[i].bytes;
  }
  put_u32(p + OFF_CRC, ft_image_crc(p, total));
  return total;
}

/* Reads the table entry at *off into *e and moves *off past it. Returns -1,
 * leaving *off alone, if the entry or its bytes run past img[0..bytes). */
static int next_entry(const unsigned char *img, size_t bytes, size_t *off,
                      struct entry *e) {
  if (bytes - *off < FT_IMAGE_REGION_HEADER)
    return -1;
  e->id = (int)as_i32(get_u32(img + *off));
  e->bytes = get_u64(img + *off + 4);
  if (e->bytes > bytes - *off - FT_IMAGE_REGION_HEADER)
    return -1;
  e->data = img + *off + FT_IMAGE_REGION_HEADER;
  *off += FT_IMAGE_REGION_HEADER + (size_t)e->bytes;
  return 0;
}

static int check_table(const unsigned char *img, size_t bytes, uint32_t regions,
                       char *err, size_t errlen) {
  size_t off = FT_IMAGE_HEADER_BYTES;
  struct entry e = {0, 0, NULL};
  for (uint32_t i = 0; i < regions; i++) {
    if (next_entry(img, bytes, &off, &e) < 0) {
      snprintf(err, errlen,
               "region table runs past the end: region entry %" PRIu32
               " at offset %zu does not fit in %zu bytes",
               i, off, bytes);
      return -1;
    }
  }
  if (off != bytes) {
    snprintf(err, errlen,
             "region table does not fill the image: its %" PRIu32
             " regions end at offset %zu, the image has %zu bytes",
             regions, off, bytes);
    return -1;
  }
  return 0;
}

static void read_header(const unsigned char *p, struct ft_image_info *info) {
  info->rank = (int)as_i32(get_u32(p + OFF_RANK));
  info->wave = (int)as_i32(get_u32(p + OFF_WAVE));
  info->index = as_i64(get_u64(p + OFF_INDEX));
  info->regions = get_u32(p + OFF_REGIONS);
  info->bytes = get_u64(p + OFF_BYTES);
  info->crc = get_u32(p + OFF_CRC);
}

/* Everything ft_image_check verifies before the region table. */
static int check_header(const unsigned char *p, size_t bytes,
                        struct ft_image_info *h, char *err, size_t errlen) {
  if (bytes < FT_IMAGE_HEADER_BYTES) {
    snprintf(err, errlen, "truncated image: %zu bytes, the header alone has %d",
             bytes, FT_IMAGE_HEADER_BYTES);
    return -1;
  }
  if (memcmp(p, FT_IMAGE_MAGIC, 8) != 0) {
    snprintf(err, errlen, "bad magic: not a ftsim checkpoint image");
    return -1;
  }
  uint32_t version = get_u32(p + OFF_VERSION);
  if (version != FT_IMAGE_VERSION) {
    snprintf(err, errlen,
             "unsupported image format version %" PRIu32
             " (this build reads %u)",
             version, FT_IMAGE_VERSION);
    return -1;
  }
  read_header(p, h);
  if (h->bytes != (uint64_t)bytes) {
    snprintf(err, errlen,
             "truncated or padded image: its header says %" PRIu64
             " bytes, got %zu",
             h->bytes, bytes);
    return -1;
  }
  uint32_t crc = ft_image_crc(p, bytes);
  if (crc != h->crc) {
    snprintf(err, errlen,
             "checksum mismatch: header says 0x%08" PRIx32
             ", contents give 0x%08" PRIx32,
             h->crc, crc);
    return -1;
  }
  return 0;
}

int ft_image_check(const void *img, size_t bytes, struct ft_image_info *info,
                   char *err, size_t errlen) {
  struct ft_image_info h;
  if (check_header(img, bytes, &h, err, errlen) < 0 ||
      check_table(img, bytes, h.regions, err, errlen) < 0)
    return -1;
  if (info)
    *info = h;
  return 0;
}

/* Finds region `id` in a checked image; returns -1 if it is not there. */
static int find_entry(const unsigned char *img, size_t bytes, uint32_t regions,
                      int id, struct entry *e) {
  size_t off = FT_IMAGE_HEADER_BYTES;
  for (uint32_t i = 0; i < regions; i++)
    if (next_entry(img, bytes, &off, e) == 0 && e->id == id)
      return 0;
  return -1;
}

static const struct ft_image_region *
find_region(const struct ft_image_region *regions, size_t n, int id) {
  for (size_t i = 0; i < n; i++)
    if (regions[i].id == id)
      return &regions[i];
  return NULL;
}

static int check_registered(const unsigned char *img, size_t bytes,
                            uint32_t count,
                            const struct ft_image_region *regions, size_t n,
                            char *err, size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    int id = regions[i].id;
    struct entry e = {0, 0, NULL};
    if (find_region(regions, i, id)) {
      snprintf(err, errlen, "region %d: registered twice by the program", id);
      return -1;
    }
    if (find_entry(img, bytes, count, id, &e) < 0) {
      snprintf(err, errlen,
               "region %d: registered by the program but not in the image", id);
      return -1;
    }
    if (e.bytes != (uint64_t)regions[i].bytes) {
      snprintf(err, errlen,
               "region %d: image has %" PRIu64
               " bytes, the program registered %zu",
               id, e.bytes, regions[i].bytes);
      return -1;
    }
  }
  return 0;
}

/* Every image region must be registered, once. Runs after check_registered,
 * so the image holds every registered id. */
static int check_image_side(const unsigned char *img, size_t bytes,
                            uint32_t count,
                            const struct ft_image_region *regions, size_t n,
                            char *err, size_t errlen) {
  size_t off = FT_IMAGE_HEADER_BYTES;
  struct entry e = {0, 0, NULL};
  for (uint32_t i = 0; i < count; i++) {
    size_t at = off;
    next_entry(img, bytes, &off, &e);
    if (!find_region(regions, n, e.id)) {
      snprintf(err, errlen,
               "region %d: in the image but not registered by the program",
               e.id);
      return -1;
    }
    struct entry first = {0, 0, NULL};
    find_entry(img, bytes, count, e.id, &first);
    if (first.data != img + at + FT_IMAGE_REGION_HEADER) {
      snprintf(err, errlen, "region %d: appears twice in the image", e.id);
      return -1;
    }
  }
  return 0;
}

int ft_image_restore(const void *img, size_t bytes,
                     const struct ft_image_region *regions, size_t n, char *err,
                     size_t errlen) {
  struct ft_image_info info;
  const unsigned char *p = img;
  if (ft_image_check(img, bytes, &info, err, errlen) < 0 ||
      check_registered(p, bytes, info.regions, regions, n, err, errlen) < 0 ||
      check_image_side(p, bytes, info.regions, regions, n, err, errlen) < 0)
    return -1;
  for (size_t i = 0; i < n; i++) {
    struct entry e = {0, 0, NULL};
    find_entry(p, bytes, info.regions, regions[i].id, &e);
    if (regions[i].bytes > 0)
      memcpy(regions[i].ptr, e.data, regions[i].bytes);
  }
  return 0;
}

int ft_image_find(const void *img, size_t bytes, int id, const void **data,
                  size_t *size) {
  struct ft_image_info info;
  struct entry e = {0, 0, NULL};
  if (ft_image_check(img, bytes, &info, NULL, 0) < 0 ||
      find_entry(img, bytes, info.regions, id, &e) < 0)
    return -1;
  *data = e.data;
  *size = (size_t)e.bytes;
  return 0;
}

void ft_image_regions_copy(const struct ft_image_region *regions, size_t n,
                           char *bytes, struct ft_image_region *out) {
  for (size_t i = 0; i < n; i++) {
    if (regions[i].bytes)
      memcpy(bytes, regions[i].ptr, regions[i].bytes);
    out[i] = regions[i];
    out[i].ptr = bytes;
    bytes += regions[i].bytes;
  }
}
