/* Unit tests of checkpoint images on disk (sim/image_file.c) and of the
 * store in file mode (sim/image_store.c), each in a fresh temporary
 * directory. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "image_file.h"
#include "image_store.h"

static char dir[256];
static char err[1024];

static void make_dir(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/ftsim-image-test-XXXXXX",
           tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
  cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void remove_dir(void) {
  nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(image_file, .init = make_dir, .fini = remove_dir);

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in d, sorted, separated by spaces ("" when empty). */
static const char *listing(const char *d) {
  static char out[1024];
  char *names[64];
  size_t n = 0;
  DIR *dp = opendir(d);
  cr_assert_not_null(dp);
  for (struct dirent *e; (e = readdir(dp)) && n < 64;)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      names[n++] = strdup(e->d_name);
  closedir(dp);
  qsort(names, n, sizeof names[0], by_name);
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    strcat(strcat(out, i ? " " : ""), names[i]);
    free(names[i]);
  }
  return out;
}

static char *path_of(int rank, int wave) {
  static char path[512];
  cr_assert_eq(ft_image_file_path(path, sizeof path, dir, rank, wave), 0);
  return path;
}

/* A malloc'ed image of rank at wave holding a 64-byte region of value. */
static void *image_of(int rank, int wave, int value, size_t *bytes) {
  unsigned char data[64];
  memset(data, value, sizeof data);
  struct ft_image_region region = {1, data, sizeof data};
  struct ft_image_info info = {.rank = rank, .wave = wave, .index = 0};
  *bytes = ft_image_size(&region, 1);
  void *img = malloc(*bytes);
  cr_assert_eq(ft_image_write(img, *bytes, &info, &region, 1), *bytes);
  return img;
}

static void write_image(int rank, int wave) {
  size_t bytes;
  void *img = image_of(rank, wave, 77, &bytes);
  cr_assert_eq(
      ft_image_file_write(dir, rank, wave, img, bytes, err, sizeof err), 0,
      "%s", err);
  free(img);
}

/* Overwrites one byte of a file in place. */
static void poke(const char *path, off_t at, unsigned char byte) {
  int fd = open(path, O_WRONLY);
  cr_assert_geq(fd, 0);
  cr_assert_eq(pwrite(fd, &byte, 1, at), 1);
  close(fd);
}

static int read_image(int rank, int wave) {
  void *img;
  size_t bytes;
  int rc =
      ft_image_file_read(dir, rank, wave, &img, &bytes, NULL, err, sizeof err);
  if (rc == 0)
    free(img);
  else
    cr_assert_null(img);
  return rc;
}

Test(image_file, write_renames_into_place_and_reads_back) {
  size_t bytes, got;
  void *img = image_of(1, 2, 9, &bytes), *back;
  struct ft_image_info info;
  cr_assert_eq(ft_image_file_write(dir, 1, 2, img, bytes, err, sizeof err), 0,
               "%s", err);
  cr_assert_str_eq(listing(dir), "rank-1.wave-2.img"); /* no .tmp left */
  cr_assert_eq(
      ft_image_file_read(dir, 1, 2, &back, &got, &info, err, sizeof err), 0,
      "%s", err);
  cr_assert_eq(got, bytes);
  cr_assert_eq(memcmp(back, img, bytes), 0);
  cr_assert_eq(info.rank, 1);
  cr_assert_eq(info.wave, 2);
  free(back);
  free(img);
}

Test(image_file, a_failed_rename_leaves_no_file_behind) {
  size_t bytes;
  void *img = image_of(0, 1, 9, &bytes);
  char *path = path_of(0, 1);
  char expect[1024];
  cr_assert_eq(mkdir(path, 0777), 0); /* the final name is a directory */
  cr_assert_eq(ft_image_file_write(dir, 0, 1, img, bytes, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: rename: %s", path, strerror(EISDIR));
  cr_assert_str_eq(err, expect);
  cr_assert_str_eq(listing(dir), "rank-0.wave-1.img");
  cr_assert_str_eq(listing(path), "");
  free(img);
}

Test(image_file, a_write_into_a_missing_directory_names_the_tmp_file) {
  size_t bytes;
  void *img = image_of(0, 1, 9, &bytes);
  char missing[512], expect[1024];
  snprintf(missing, sizeof missing, "%s/nope", dir);
  cr_assert_eq(ft_image_file_write(missing, 0, 1, img, bytes, err, sizeof err),
               -1);
  snprintf(expect, sizeof expect, "%s/rank-0.wave-1.img.tmp: open: %s", missing,
           strerror(ENOENT));
  cr_assert_str_eq(err, expect);
  free(img);
}

Test(image_file, a_missing_file_is_named_with_strerror) {
  char expect[1024];
  cr_assert_eq(read_image(0, 9), -1);
  snprintf(expect, sizeof expect, "%s: open: %s", path_of(0, 9),
           strerror(ENOENT));
  cr_assert_str_eq(err, expect);
}

Test(image_file, every_truncation_is_detected_with_the_path) {
  size_t bytes;
  free(image_of(0, 1, 9, &bytes));
  char *path = path_of(0, 1);
  size_t plen = strlen(path);
  for (size_t len = 0; len < bytes; len++) {
    write_image(0, 1);
    cr_assert_eq(truncate(path, (off_t)len), 0);
    cr_assert_eq(read_image(0, 1), -1, "truncated to %zu: loaded", len);
    cr_assert_eq(strncmp(err, path, plen), 0, "%s", err);
    cr_assert_eq(strncmp(err + plen, ": truncated", 11), 0, "%s", err);
  }
}

Test(image_file, every_flipped_byte_is_detected_with_the_path) {
  size_t bytes;
  unsigned char *img = image_of(0, 1, 9, &bytes);
  char *path = path_of(0, 1);
  cr_assert_eq(ft_image_file_write(dir, 0, 1, img, bytes, err, sizeof err), 0,
               "%s", err);
  cr_assert_eq(read_image(0, 1), 0, "%s", err);
  for (size_t i = 0; i < bytes; i++) {
    poke(path, (off_t)i, (unsigned char)(img[i] ^ 0x5a));
    cr_assert_eq(read_image(0, 1), -1, "byte %zu flipped: loaded", i);
    cr_assert_eq(strncmp(err, path, strlen(path)), 0, "%s", err);
    poke(path, (off_t)i, img[i]);
  }
  cr_assert_eq(read_image(0, 1), 0, "%s", err);
  free(img);
}

Test(image_file, a_file_of_another_rank_is_refused) {
  char from[512];
  write_image(0, 1);
  snprintf(from, sizeof from, "%s", path_of(0, 1));
  cr_assert_eq(rename(from, path_of(1, 1)), 0);
  cr_assert_eq(read_image(1, 1), -1);
  char expect[1024];
  snprintf(expect, sizeof expect, "%s: holds the image of rank 0 wave 1",
           path_of(1, 1));
  cr_assert_str_eq(err, expect);
}

Test(image_file, mkdir_creates_parents_and_accepts_an_existing_directory) {
  char deep[512], file[512], expect[1024];
  snprintf(deep, sizeof deep, "%s/a/b//c/", dir);
  cr_assert_eq(ft_image_file_mkdir(deep, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_image_file_mkdir(deep, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(listing(deep), "");
  snprintf(file, sizeof file, "%s/a/b/c/file", dir);
  fclose(fopen(file, "w"));
  cr_assert_eq(ft_image_file_mkdir(file, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: exists and is not a directory", file);
  cr_assert_str_eq(err, expect);
}

Test(image_file, remove_deletes_and_accepts_a_missing_file) {
  write_image(3, 4);
  cr_assert_eq(ft_image_file_remove(dir, 3, 4, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(listing(dir), "");
  cr_assert_eq(ft_image_file_remove(dir, 3, 4, err, sizeof err), 0, "%s", err);
}

/* The store in file mode. */

static void put(struct ft_image_store *s, int rank, int wave) {
  size_t bytes;
  void *img = image_of(rank, wave, rank + wave, &bytes);
  cr_assert_eq(ft_store_put(s, rank, wave, img, bytes, err, sizeof err), 0,
               "%s", err);
  free(img);
}

Test(image_file, store_keeps_at_most_two_generations_on_disk) {
  struct ft_image_store *s = ft_store_create(2, dir, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  put(s, 0, 1);
  put(s, 1, 1);
  cr_assert_str_eq(listing(dir), "rank-0.wave-1.img rank-1.wave-1.img");
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0, "%s", err);
  put(s, 0, 2);
  put(s, 1, 2);
  cr_assert_str_eq(listing(dir), "rank-0.wave-1.img rank-0.wave-2.img "
                                 "rank-1.wave-1.img rank-1.wave-2.img");
  cr_assert_eq(ft_store_commit(s, 2, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(listing(dir), "rank-0.wave-2.img rank-1.wave-2.img");
  put(s, 0, 3);
  put(s, 0, 4); /* wave 3 abandoned: its file goes */
  cr_assert_str_eq(listing(dir), "rank-0.wave-2.img rank-0.wave-4.img "
                                 "rank-1.wave-2.img");
  ft_store_discard_in_progress(s);
  cr_assert_str_eq(listing(dir), "rank-0.wave-2.img rank-1.wave-2.img");
  cr_assert_str_eq(ft_store_last_error(s), "");
  size_t one;
  free(image_of(0, 1, 0, &one));
  cr_assert_eq(ft_store_bytes(s), 2 * one);
  ft_store_destroy(s);
  cr_assert_str_eq(listing(dir), "rank-0.wave-2.img rank-1.wave-2.img");
}

Test(image_file, store_reads_back_what_it_put) {
  struct ft_image_store *s = ft_store_create(1, dir, err, sizeof err);
  size_t bytes, got;
  const void *back;
  void *img = image_of(0, 1, 42, &bytes);
  cr_assert_eq(ft_store_put(s, 0, 1, img, bytes, err, sizeof err), 0, "%s",
               err);
  cr_assert_eq(ft_store_get(s, 0, 1, &back, &got, err, sizeof err), 0, "%s",
               err);
  cr_assert_eq(got, bytes);
  cr_assert_eq(memcmp(back, img, bytes), 0);
  cr_assert_eq(ft_store_get(s, 0, 1, &back, &got, err, sizeof err), 0, "%s",
               err);
  free(img);
  ft_store_destroy(s);
}

Test(image_file, store_get_detects_a_truncated_file_and_names_it) {
  struct ft_image_store *s = ft_store_create(1, dir, err, sizeof err);
  const void *img;
  size_t bytes;
  char expect[1024];
  put(s, 0, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0);
  cr_assert_eq(truncate(path_of(0, 1), 100), 0);
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), -1);
  snprintf(expect, sizeof expect,
           "%s: truncated or padded image: its header says 120 bytes, got 100",
           path_of(0, 1));
  cr_assert_str_eq(err, expect);
  ft_store_destroy(s);
}

Test(image_file, store_get_detects_a_flipped_byte) {
  struct ft_image_store *s = ft_store_create(1, dir, err, sizeof err);
  const void *img;
  size_t bytes;
  put(s, 0, 1);
  poke(path_of(0, 1), 70, 0xee);
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, path_of(0, 1)), "%s", err);
  cr_assert_not_null(strstr(err, ": checksum mismatch"), "%s", err);
  ft_store_destroy(s);
}

Test(image_file, store_get_detects_a_file_replaced_by_another_image) {
  struct ft_image_store *s = ft_store_create(1, dir, err, sizeof err);
  const void *img;
  size_t bytes;
  put(s, 0, 1);
  write_image(0, 1); /* valid, same rank and wave, other contents */
  cr_assert_eq(ft_store_get(s, 0, 1, &img, &bytes, err, sizeof err), -1);
  cr_assert_not_null(strstr(err, "the image changed since it was stored"), "%s",
                     err);
  ft_store_destroy(s);
}

Test(image_file, store_creates_its_directory) {
  char sub[512];
  snprintf(sub, sizeof sub, "%s/ckpt/run1", dir);
  struct ft_image_store *s = ft_store_create(1, sub, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  ft_store_destroy(s);
  cr_assert_str_eq(listing(sub), "");
}

/* A relaunch after a kill (README, "Real failures: kill and relaunch"):
 * a new store adopts the files an earlier process wrote, each verified. */
static struct ft_image_store *store_with_wave_2_on_disk(void) {
  struct ft_image_store *s = ft_store_create(2, dir, err, sizeof err);
  put(s, 0, 1);
  put(s, 1, 1);
  cr_assert_eq(ft_store_commit(s, 1, err, sizeof err), 0, "%s", err);
  put(s, 0, 2);
  put(s, 1, 2);
  cr_assert_eq(ft_store_commit(s, 2, err, sizeof err), 0, "%s", err);
  ft_store_destroy(s); /* the killed job's server */
  s = ft_store_create(2, dir, err, sizeof err);
  cr_assert_not_null(s, "%s", err);
  return s;
}

Test(image_file, store_adopts_a_committed_wave_left_on_disk) {
  struct ft_image_store *s = store_with_wave_2_on_disk();
  const void *img;
  size_t bytes;
  cr_assert_eq(ft_store_adopt(s, 2, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 2);
  cr_assert_eq(ft_store_committed_of(s, 1), 2);
  cr_assert_eq(ft_store_get(s, 1, 2, &img, &bytes, err, sizeof err), 0, "%s",
               err);
  put(s, 0, 3); /* the relaunched run goes on: wave 3 */
  put(s, 1, 3);
  cr_assert_eq(ft_store_commit(s, 3, err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(listing(dir), "rank-0.wave-3.img rank-1.wave-3.img");
  ft_store_destroy(s);
}

Test(image_file, store_adopt_refuses_a_corrupt_image_and_names_it) {
  struct ft_image_store *s = store_with_wave_2_on_disk();
  char expect[1024];
  poke(path_of(1, 2), 12, 0x7f); /* the rank field: the checksum breaks */
  cr_assert_eq(ft_store_adopt(s, 2, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: checksum mismatch", path_of(1, 2));
  cr_assert_eq(strncmp(err, expect, strlen(expect)), 0, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 0); /* nothing adopted */
  cr_assert_eq(ft_store_committed_of(s, 0), 0);
  ft_store_destroy(s);
}

Test(image_file, store_adopt_refuses_a_missing_image_and_names_it) {
  struct ft_image_store *s = store_with_wave_2_on_disk();
  char expect[1024];
  cr_assert_eq(unlink(path_of(0, 2)), 0);
  cr_assert_eq(ft_store_adopt(s, 2, err, sizeof err), -1);
  snprintf(expect, sizeof expect, "%s: open: No such file or directory",
           path_of(0, 2));
  cr_assert_str_eq(err, expect);
  ft_store_destroy(s);
}

Test(image_file, store_adopt_of_wave_zero_adopts_nothing) {
  struct ft_image_store *s = ft_store_create(1, dir, err, sizeof err);
  cr_assert_eq(ft_store_adopt(s, 0, err, sizeof err), 0, "%s", err);
  cr_assert_eq(ft_store_committed_wave(s), 0);
  ft_store_destroy(s);
  s = ft_store_create(1, NULL, err, sizeof err);
  cr_assert_eq(ft_store_adopt(s, 1, err, sizeof err), -1);
  cr_assert_str_eq(err, "a memory store has no files to adopt");
  ft_store_destroy(s);
}
