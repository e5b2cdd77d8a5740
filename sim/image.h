/* Checkpoint image format, pure C (no MPI, no SimGrid, no I/O, no malloc):
 * one rank's protected regions in one contiguous, checksummed byte buffer.
 *
 * Layout (every integer little-endian, written byte by byte, so an image is
 * the same on every host and never read through a cast struct):
 *
 *   offset  size  field
 *        0     8  magic "FTSIMIMG"
 *        8     4  format version, uint32 (FT_IMAGE_VERSION)
 *       12     4  rank, int32
 *       16     4  wave, int32
 *       20     8  safe-point index, int64
 *       28     4  number of regions, uint32
 *       32     8  total size of the image in bytes, uint64 (header included)
 *       40     4  CRC-32 (zlib's crc32) of every byte of the image except
 *                 these four: bytes [0, 40) then [44, end)
 *       44        the regions, in registration order, each:
 *                   id int32, size in bytes uint64, then the bytes.
 *
 * The checksum covers the header too, so any single flipped byte, in the
 * header, the region table or the data, is detected. */
#ifndef FT_IMAGE_H
#define FT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define FT_IMAGE_MAGIC "FTSIMIMG"
#define FT_IMAGE_VERSION 1u
#define FT_IMAGE_CRC_OFFSET 40
#define FT_IMAGE_HEADER_BYTES 44  /* bytes before the first region */
#define FT_IMAGE_REGION_HEADER 12 /* id and size before a region's bytes */

/* A protected buffer of the application (ft_protect(id, ptr, bytes)).
 * ptr may be NULL when bytes is 0. */
struct ft_image_region {
  int id;
  void *ptr;
  size_t bytes;
};

/* What an image's header says. ft_image_write reads rank, wave and index;
 * ft_image_check fills every field. */
struct ft_image_info {
  int rank, wave;
  int64_t index;    /* safe-point index (how many ft_snapshot calls) */
  uint32_t regions; /* number of regions */
  uint64_t bytes;   /* size of the whole image */
  uint32_t crc;     /* the image's checksum (filled by ft_image_check) */
};

/* Size in bytes of the image of these n regions: the header plus, for each
 * region, its 12-byte entry and its bytes. Returns 0 if the size does not
 * fit in a size_t or n exceeds UINT32_MAX. */
size_t ft_image_size(const struct ft_image_region *regions, size_t n);

/* Copies the bytes of regions[0..n) one after the other into `bytes` (room
 * for the sum of their sizes) and their descriptions into out[0..n), each
 * pointing at its copy: a capture of the state, for an image written
 * later. */
void ft_image_regions_copy(const struct ft_image_region *regions, size_t n,
                           char *bytes, struct ft_image_region *out);

/* Writes the image of regions[0..n) into dst (cap bytes), with the rank,
 * wave and index of *info (its other fields are ignored). Returns the bytes
 * written, ft_image_size(regions, n), or 0, writing nothing, if that is 0
 * or more than cap. Preconditions: region ids are distinct; dst does not
 * overlap any region. */
size_t ft_image_write(void *dst, size_t cap, const struct ft_image_info *info,
                      const struct ft_image_region *regions, size_t n);

/* Verifies the image img[0..bytes) and, on success, fills *info (info may be
 * NULL). Returns 0, or -1 with a message in err (errlen bytes; err may be
 * NULL when errlen is 0) naming the first problem found, in this order:
 *   "truncated image: 10 bytes, the header alone has 44"
 *   "bad magic: not a ftsim checkpoint image"
 *   "unsupported image format version 7 (this build reads 1)"
 *   "truncated or padded image: its header says 900 bytes, got 899"
 *   "checksum mismatch: header says 0x1234abcd, contents give 0x..."
 *   "region table runs past the end: region entry 2 at offset 96 does not
 *    fit in 100 bytes"
 *   "region table does not fill the image: its 2 regions end at offset 96,
 *    the image has 100 bytes". */
int ft_image_check(const void *img, size_t bytes, struct ft_image_info *info,
                   char *err, size_t errlen);

/* Checks the image (as ft_image_check), then matches its regions with the
 * registered regions[0..n) by id and, only if every one matches, copies each
 * image region into the registered buffer of the same id. Returns 0, or -1
 * with a message in err and no buffer changed:
 *   any ft_image_check error;
 *   "region 3: registered twice by the program" (or "...twice in the image");
 *   "region 3: image has 800 bytes, the program registered 640";
 *   "region 4: registered by the program but not in the image";
 *   "region 5: in the image but not registered by the program".
 * Precondition: no registered buffer overlaps img. */
int ft_image_restore(const void *img, size_t bytes,
                     const struct ft_image_region *regions, size_t n, char *err,
                     size_t errlen);

/* Finds region `id` in the image img[0..bytes), which must pass
 * ft_image_check: sets *data (inside img) and *size and returns 0, or
 * returns -1 when the image is invalid or has no such region. */
int ft_image_find(const void *img, size_t bytes, int id, const void **data,
                  size_t *size);

/* The checksum ft_image_write stores at FT_IMAGE_CRC_OFFSET: CRC-32 of
 * img[0, 40) then img[44, bytes). Precondition: bytes >= 44. */
uint32_t ft_image_crc(const void *img, size_t bytes);

#endif /* FT_IMAGE_H */
