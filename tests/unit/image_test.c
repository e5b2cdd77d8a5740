/* Unit tests of the checkpoint image format (sim/image.c). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

static char err[256];

/* The application's state: four regions, two of them empty. */
static int counters[4];
static char name[5];
static double empty_with_ptr[1];

static void fill_state(void) {
  for (int i = 0; i < 4; i++)
    counters[i] = 100 + i;
  memcpy(name, "ftsim", 5);
}

static void clear_state(void) {
  memset(counters, 0, sizeof counters);
  memset(name, 0, sizeof name);
}

static struct ft_image_region state[] = {
    {0, counters, sizeof counters},
    {7, NULL, 0},
    {3, name, sizeof name},
    {-2, empty_with_ptr, 0},
};
#define NSTATE (sizeof state / sizeof state[0])

/* A fresh image of `state` at rank 2, wave 5, index 41, malloc'ed. */
static unsigned char *make_image(size_t *bytes) {
  struct ft_image_info info = {.rank = 2, .wave = 5, .index = 41};
  *bytes = ft_image_size(state, NSTATE);
  unsigned char *img = malloc(*bytes);
  cr_assert_not_null(img);
  fill_state();
  cr_assert_eq(ft_image_write(img, *bytes, &info, state, NSTATE), *bytes);
  return img;
}

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Restores a valid checksum after a test edits an image on purpose. */
static void reseal(unsigned char *img, size_t bytes) {
  put_u32(img + FT_IMAGE_CRC_OFFSET, ft_image_crc(img, bytes));
}

Test(image, round_trip_restores_every_region_including_empty_ones) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  cr_assert_eq(bytes, FT_IMAGE_HEADER_BYTES + 4 * FT_IMAGE_REGION_HEADER +
                          sizeof counters + sizeof name);
  clear_state();
  cr_assert_eq(ft_image_restore(img, bytes, state, NSTATE, err, sizeof err), 0,
               "%s", err);
  for (int i = 0; i < 4; i++)
    cr_assert_eq(counters[i], 100 + i);
  cr_assert_eq(memcmp(name, "ftsim", 5), 0);
  free(img);
}

Test(image, restore_matches_regions_by_id_not_by_order) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  struct ft_image_region reversed[NSTATE];
  for (size_t i = 0; i < NSTATE; i++)
    reversed[i] = state[NSTATE - 1 - i];
  clear_state();
  cr_assert_eq(ft_image_restore(img, bytes, reversed, NSTATE, err, sizeof err),
               0, "%s", err);
  cr_assert_eq(counters[3], 103);
  cr_assert_eq(memcmp(name, "ftsim", 5), 0);
  free(img);
}

Test(image, check_reports_the_header) {
  struct ft_image_info in = {.rank = 70000, .wave = 3, .index = INT64_MAX};
  struct ft_image_info out;
  unsigned char img[256];
  size_t bytes = ft_image_write(img, sizeof img, &in, state, NSTATE);
  cr_assert_gt(bytes, 0);
  cr_assert_eq(ft_image_check(img, bytes, &out, err, sizeof err), 0, "%s", err);
  cr_assert_eq(out.rank, 70000);
  cr_assert_eq(out.wave, 3);
  cr_assert_eq(out.index, INT64_MAX);
  cr_assert_eq(out.regions, NSTATE);
  cr_assert_eq(out.bytes, bytes);
  cr_assert_eq(out.crc, ft_image_crc(img, bytes));
}

Test(image, an_image_of_no_region_is_just_the_header) {
  struct ft_image_info in = {.rank = 0, .wave = 1, .index = 0};
  unsigned char img[FT_IMAGE_HEADER_BYTES];
  cr_assert_eq(ft_image_size(NULL, 0), FT_IMAGE_HEADER_BYTES);
  cr_assert_eq(ft_image_write(img, sizeof img, &in, NULL, 0), sizeof img);
  cr_assert_eq(ft_image_restore(img, sizeof img, NULL, 0, err, sizeof err), 0,
               "%s", err);
}

Test(image, write_refuses_a_buffer_too_small_and_writes_nothing) {
  struct ft_image_info in = {.rank = 0, .wave = 1, .index = 0};
  size_t need = ft_image_size(state, NSTATE);
  unsigned char *img = malloc(need);
  memset(img, 0xAB, need);
  cr_assert_eq(ft_image_write(img, need - 1, &in, state, NSTATE), 0);
  for (size_t i = 0; i < need; i++)
    cr_assert_eq(img[i], 0xAB);
  free(img);
}

Test(image, size_overflow_gives_zero) {
  struct ft_image_region huge[2] = {{1, NULL, SIZE_MAX - 8}, {2, NULL, 64}};
  cr_assert_eq(ft_image_size(huge, 1), 0);
  cr_assert_eq(ft_image_size(huge, 2), 0);
}

Test(image, every_flipped_byte_is_detected) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  for (size_t i = 0; i < bytes; i++) {
    for (unsigned flip = 1; flip <= 0x80; flip <<= 1) {
      img[i] ^= (unsigned char)flip;
      err[0] = '\0';
      cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1,
                   "byte %zu ^ 0x%02x not detected", i, flip);
      cr_assert_neq(err[0], '\0');
      img[i] ^= (unsigned char)flip;
    }
  }
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), 0);
  free(img);
}

Test(image, every_truncation_is_detected) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  for (size_t len = 0; len < bytes; len++) {
    unsigned char *cut = malloc(len ? len : 1); /* ASan sees any overread */
    memcpy(cut, img, len);
    cr_assert_eq(ft_image_check(cut, len, NULL, err, sizeof err), -1,
                 "truncation to %zu bytes not detected", len);
    free(cut);
  }
  cr_assert_str_eq(err, "truncated or padded image: its header says 113 "
                        "bytes, got 112");
  cr_assert_eq(ft_image_check(img, 10, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "truncated image: 10 bytes, the header alone has 44");
  free(img);
}

Test(image, a_padded_image_is_detected) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  unsigned char *longer = calloc(1, bytes + 1);
  memcpy(longer, img, bytes);
  cr_assert_eq(ft_image_check(longer, bytes + 1, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "truncated or padded image: its header says 113 "
                        "bytes, got 114");
  free(longer);
  free(img);
}

Test(image, wrong_magic_is_named) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  memcpy(img, "FTSIMIMH", 8);
  reseal(img, bytes);
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "bad magic: not a ftsim checkpoint image");
  free(img);
}

Test(image, wrong_version_is_named) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  put_u32(img + 8, 2);
  reseal(img, bytes);
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "unsupported image format version 2 (this build "
                        "reads 1)");
  free(img);
}

Test(image, checksum_mismatch_is_named) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  img[bytes - 1] ^= 1;
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_eq(strncmp(err, "checksum mismatch: header says 0x", 33), 0, "%s",
               err);
  free(img);
}

Test(image, region_table_running_past_the_end_is_detected) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  /* The first region (id 0, 16 bytes) claims 1000 bytes. */
  put_u32(img + FT_IMAGE_HEADER_BYTES + 4, 1000);
  reseal(img, bytes);
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "region table runs past the end: region entry 0 at "
                        "offset 44 does not fit in 113 bytes");
  /* Or the header announces a fifth region that is not there. */
  free(img);
  img = make_image(&bytes);
  put_u32(img + 28, 5);
  reseal(img, bytes);
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "region table runs past the end: region entry 4 at "
                        "offset 113 does not fit in 113 bytes");
  free(img);
}

Test(image, region_table_stopping_short_is_detected) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  put_u32(img + 28, 3);
  reseal(img, bytes);
  cr_assert_eq(ft_image_check(img, bytes, NULL, err, sizeof err), -1);
  cr_assert_str_eq(err, "region table does not fill the image: its 3 regions "
                        "end at offset 101, the image has 113 bytes");
  free(img);
}

Test(image, restore_refuses_a_size_mismatch) {
  static char big[800], small[640];
  struct ft_image_info in = {.rank = 0, .wave = 1, .index = 0};
  struct ft_image_region saved = {3, big, sizeof big};
  struct ft_image_region now = {3, small, sizeof small};
  size_t bytes = ft_image_size(&saved, 1);
  unsigned char *img = malloc(bytes);
  cr_assert_eq(ft_image_write(img, bytes, &in, &saved, 1), bytes);
  cr_assert_eq(ft_image_restore(img, bytes, &now, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "region 3: image has 800 bytes, the program "
                        "registered 640");
  free(img);
}

Test(image, restore_refuses_an_id_missing_from_the_image) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  static int extra;
  struct ft_image_region more[NSTATE + 1];
  memcpy(more, state, sizeof state);
  more[NSTATE] = (struct ft_image_region){9, &extra, sizeof extra};
  cr_assert_eq(ft_image_restore(img, bytes, more, NSTATE + 1, err, sizeof err),
               -1);
  cr_assert_str_eq(err,
                   "region 9: registered by the program but not in the image");
  free(img);
}

Test(image, restore_refuses_an_id_missing_from_the_program) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  cr_assert_eq(ft_image_restore(img, bytes, state, NSTATE - 1, err, sizeof err),
               -1);
  cr_assert_str_eq(err,
                   "region -2: in the image but not registered by the program");
  free(img);
}

Test(image, restore_refuses_an_id_registered_twice) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  struct ft_image_region twice[NSTATE];
  memcpy(twice, state, sizeof state);
  twice[2].id = 0;
  cr_assert_eq(ft_image_restore(img, bytes, twice, NSTATE, err, sizeof err),
               -1);
  cr_assert_str_eq(err, "region 0: registered twice by the program");
  free(img);
}

Test(image, restore_refuses_an_id_twice_in_the_image) {
  struct ft_image_info in = {.rank = 0, .wave = 1, .index = 0};
  struct ft_image_region dup[2] = {{4, NULL, 0}, {4, NULL, 0}};
  unsigned char img[128];
  size_t bytes = ft_image_write(img, sizeof img, &in, dup, 2);
  cr_assert_eq(ft_image_restore(img, bytes, dup, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "region 4: appears twice in the image");
}

Test(image, a_failed_restore_changes_no_buffer) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  clear_state();
  struct ft_image_region wrong[NSTATE];
  memcpy(wrong, state, sizeof state);
  wrong[2].bytes = 4; /* name is the third region: counters come first */
  cr_assert_eq(ft_image_restore(img, bytes, wrong, NSTATE, err, sizeof err),
               -1);
  cr_assert_str_eq(err,
                   "region 3: image has 5 bytes, the program registered 4");
  for (int i = 0; i < 4; i++)
    cr_assert_eq(counters[i], 0);
  free(img);
}

Test(image, restore_refuses_a_corrupted_image) {
  size_t bytes;
  unsigned char *img = make_image(&bytes);
  img[FT_IMAGE_HEADER_BYTES + FT_IMAGE_REGION_HEADER] ^= 0x10;
  clear_state();
  cr_assert_eq(ft_image_restore(img, bytes, state, NSTATE, err, sizeof err),
               -1);
  cr_assert_eq(strncmp(err, "checksum mismatch", 17), 0, "%s", err);
  cr_assert_eq(counters[0], 0);
  free(img);
}

Test(image, regions_copy_packs_the_bytes_and_points_at_the_copies) {
  int a[3] = {1, 2, 3};
  double b = 2.5;
  struct ft_image_region in[3] = {{.id = 0, .ptr = a, .bytes = sizeof a},
                                  {.id = 4, .ptr = NULL, .bytes = 0},
                                  {.id = 7, .ptr = &b, .bytes = sizeof b}};
  char bytes[sizeof a + sizeof b];
  struct ft_image_region out[3];
  ft_image_regions_copy(in, 3, bytes, out);
  a[0] = 9, b = 0; /* the copy is not the state any more */
  cr_assert_eq(out[0].ptr, (void *)bytes);
  cr_assert_eq(out[2].ptr, (void *)(bytes + sizeof a));
  cr_assert_eq(out[1].bytes, 0);
  cr_assert_eq(out[2].id, 7);
  cr_assert_eq(((int *)out[0].ptr)[0], 1);
  double c;
  memcpy(&c, out[2].ptr, sizeof c);
  cr_assert_eq(c, 2.5);
}
