/* Unit tests of the checkpoint store in memory mode (sim/image_store.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "image_store.h"

static char err[256];

/* A malloc'ed image of rank at wave whose one region (id 1) holds value. */
static void *image_of(int rank, int wave, int value, size_t *bytes) {
  int v = value;
  struct ft_image_region region = {1, &v, sizeof v};
  struct ft_image_info info = {.rank = rank, .wave = wave, .index = wave};
  *bytes = ft_image_size(&region, 1);
  void *img = malloc(*bytes);
  cr_assert_eq(ft_image_write(img, *bytes, &info, &region, 1), *bytes);
  return img;
}

/* Puts rank's image of wave (value rank * 100 + wave); asserts success. */
static void put(struct ft_image_store *s, int rank, int wave) {
  size_t bytes;
  void *img = image_of(rank, wave, rank * 100 + wave, &bytes);
  cr_assert_eq(ft_store_put(s, rank, wave, img, bytes, err, sizeof err), 0,
               "%s", err);
  free(img);
}

/* The value restored from rank's image of wave, or -1 if get fails. */
static int value_in(struct ft_image_store *s, int rank, int wave) {
  const void *img;
  size_t bytes;
  int v = 0;
  struct ft_image_region region = {1, &v, sizeof v};
  if (ft_store_get(s, rank, wave, &img, &bytes, err, sizeof err) < 0)
    return -1;
  cr_assert_eq(ft_image_restore(img, bytes, &region, 1, err, sizeof err), 0,
               "%s", err);
  return v;
}

Test(image_store, keeps_the_committed_wave_and_the_one_in_progress) {
  struct ft_image_store *s = ft_store_create(3, NULL, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 0);
  for (int r = 0; r < 3; r++)
    put(s, r, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 1);

  put(s, 0, 2);
  put(s, 1, 2);
  cr_assert_eq(ft_store_commit(s, 2, err, sizeof err), -1);
  cr_assert_str_eq(err, "cannot commit wave 2: rank 2 has no image of it in "
                        "progress (in progress: none)");
  cr_assert_eq(ft_store_committed_wave(s), 1);
  cr_assert_eq(value_in(s, 0, 2), 2); /* in progress, readable */

  ft_store_discard_in_progress(s);
  cr_assert_eq(value_in(s, 0, 2), -1);
  cr_assert_str_eq(err, "rank 0 has no image of wave 2 (committed: 1, in "
                        "progress: none)");
  for (int r = 0; r < 3; r++)
    cr_assert_eq(value_in(s, r, 1), r * 100 + 1, "%s", err);

  for (int r = 0; r < 3; r++)
    put(s, r, 2);
  cr_assert_eq(ft_store_commit(s, 2, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 2);
  cr_assert_eq(value_in(s, 1, 1), -1);
  cr_assert_str_eq(err, "rank 1 has no image of wave 1 (committed: 2, in "
                        "progress: none)");
  for (int r = 0; r < 3; r++)
    cr_assert_eq(value_in(s, r, 2), r * 100 + 2, "%s", err);
  ft_store_destroy(s);
}

Test(image_store, counts_the_bytes_of_both_generations) {
  size_t one;
  free(image_of(0, 1, 0, &one));
  struct ft_image_store *s = ft_store_create(2, NULL, err, sizeof err);
  cr_assert_eq(ft_store_bytes(s), 0);
  put(s, 0, 1);
  put(s, 1, 1);
  cr_assert_eq(ft_store_bytes(s), 2 * one);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0, "%s", err);
  put(s, 0, 2);
  put(s, 0, 2); /* replaces, does not add */
  cr_assert_eq(ft_store_bytes(s), 3 * one);
  ft_store_discard_in_progress(s);
  cr_assert_eq(ft_store_bytes(s), 2 * one);
  ft_store_destroy(s);
}

Test(image_store, put_replaces_the_image_in_progress) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  size_t bytes;
  void *img = image_of(0, 1, 55, &bytes);
  put(s, 0, 1);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), 0);
  cr_assert_eq(value_in(s, 0, 1), 55);
  free(img);
  put(s, 0, 2); /* wave 1 never committed: wave 2 replaces it */
  cr_assert_eq(value_in(s, 0, 1), -1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "cannot commit wave 1: rank 0 has no image of it in "
                        "progress (in progress: wave 2)");
  ft_store_destroy(s);
}

Test(image_store, put_keeps_a_copy) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  size_t bytes;
  unsigned char *img = image_of(0, 1, 7, &bytes);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), 0);
  memset(img, 0, bytes);
  free(img);
  cr_assert_eq(value_in(s, 0, 1), 7, "%s", err);
  ft_store_destroy(s);
}

Test(image_store, put_refuses_bad_images_and_leaves_the_store_alone) {
  struct ft_image_store *s = ft_store_create(2, NULL, err, sizeof err);
  size_t bytes;
  unsigned char *img = image_of(0, 1, 7, &bytes);
  cr_assert_eq(ft_store_put(s, 1, 1, img, bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 1 wave 1: the image's header says rank 0 "
                        "wave 1");
  cr_assert_eq(ft_store_put(s, 0, 2, img, bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 0 wave 2: the image's header says rank 0 "
                        "wave 1");
  cr_assert_eq(ft_store_put(s, 2, 1, img, bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 2 out of range (the store has 2 ranks)");
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes - 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 0 wave 1: truncated or padded image: its header "
                        "says 60 bytes, got 59");
  img[bytes - 1] ^= 4;
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), -1);
  cr_assert_eq(strncmp(err, "rank 0 wave 1: checksum mismatch", 32), 0, "%s",
               err);
  cr_assert_eq(ft_store_bytes(s), 0);
  free(img);
  ft_store_destroy(s);
}

Test(image_store, put_refuses_a_wave_not_newer_than_the_committed_one) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  size_t bytes;
  void *img = image_of(0, 1, 7, &bytes);
  put(s, 0, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 0 wave 1: wave 1 is not newer than the "
                        "committed wave 1");
  free(img);
  ft_store_destroy(s);
}

Test(image_store, commit_of_wave_zero_is_refused) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  cr_assert_eq(ft_store_commit(s, 0, err, sizeof err), -1);
  cr_assert_eq(ft_store_committed_wave(s), 0);
  ft_store_destroy(s);
}

Test(image_store, get_detects_a_corruption_in_memory) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  const void *img;
  size_t bytes;
  put(s, 0, 1);
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), 0);
  ((unsigned char *)img)[bytes - 2] ^= 0x20; /* a stray write */
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), -1);
  cr_assert_eq(strncmp(err, "rank 0 wave 1: checksum mismatch", 32), 0, "%s",
               err);
  ft_store_destroy(s);
}

Test(image_store, get_detects_an_image_replaced_behind_its_back) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  const void *img;
  size_t bytes, other_bytes;
  put(s, 0, 1);
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), 0);
  void *other = image_of(0, 1, 999, &other_bytes); /* valid, same size */
  memcpy((void *)img, other, bytes);
  free(other);
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), -1);
  cr_assert_eq(strncmp(err,
                       "rank 0 wave 1: the image changed since it was "
                       "stored",
                       52),
               0, "%s", err);
  ft_store_destroy(s);
}

Test(image_store, create_refuses_no_ranks) {
  cr_assert_null(ft_store_create(0, NULL, err, sizeof err));
  cr_assert_str_eq(err, "a store needs at least one rank, not 0");
  ft_store_destroy(NULL);
}

Test(image_store, get_rejects_a_rank_out_of_range) {
  struct ft_image_store *s = ft_store_create(1, NULL, err, sizeof err);
  const void *img;
  size_t bytes;
  cr_assert_eq(ft_store_get(s, -1, 1, &img, &bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank -1 out of range (the store has 1 ranks)");
  ft_store_destroy(s);
}

Test(image_store, serve_restricts_the_store_to_the_named_ranks) {
  struct ft_image_store *s = ft_store_create(4, NULL, err, sizeof err);
  size_t bytes;
  void *img = image_of(0, 1, 7, &bytes);
  cr_assert_eq(ft_store_serve(s, 1), 0);
  cr_assert_eq(ft_store_serve(s, 3), 0);
  cr_assert_eq(ft_store_serve(s, 4), -1);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), -1);
  cr_assert_str_eq(err, "rank 0 is not served by this store");
  put(s, 1, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "cannot commit wave 1: rank 3 has no image of it in "
                        "progress (in progress: none)");
  put(s, 3, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0, "%s", err);
  cr_assert_eq(value_in(s, 3, 1), 301, "%s", err);
  cr_assert_eq(value_in(s, 2, 1), -1);
  cr_assert_str_eq(err, "rank 2 is not served by this store");
  free(img);
  ft_store_destroy(s);
}

/* Message logging: one rank commits alone, the others keep theirs. */
Test(store, commit_rank_alone) {
  struct ft_image_store *s = ft_store_create(2, NULL, err, sizeof err);
  cr_assert_not_null(s);
  put(s, 0, 1);
  cr_assert_eq(ft_store_commit_rank(s, 1, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "cannot commit rank 1's checkpoint 1: not in "
                        "progress (in progress: 0)");
  cr_assert_eq(ft_store_commit_rank(s, 0, 1, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_store_committed_of(s, 0), 1);
  cr_assert_eq(ft_store_committed_of(s, 1), 0);
  cr_assert_eq(value_in(s, 0, 1), 1);
  size_t bytes;
  void *img = image_of(0, 1, 7, &bytes);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), -1,
               "not newer than the rank's committed checkpoint");
  free(img);
  put(s, 0, 2);
  cr_assert_eq(ft_store_commit_rank(s, 0, 2, err, sizeof err), 0, "%s", err);
  cr_assert_eq(value_in(s, 0, 1), -1, "the older one is freed");
  cr_assert_eq(value_in(s, 0, 2), 2);
  ft_store_destroy(s);
}
