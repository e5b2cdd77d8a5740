/* Checkpoint image files, POSIX C (no MPI, no SimGrid): reference mode's
 * images on disk, written atomically, read back verified.
 *
 * An image of rank R at wave W lives in DIR/rank-R.wave-W.img. It is written
 * to DIR/rank-R.wave-W.img.tmp, fsync'ed, renamed over the final name and
 * the directory fsync'ed, so after a crash the final name holds either the
 * previous complete file or the new complete one, never a partial image.
 * Every error message names the path and, for a failed system call, says
 * strerror(errno), e.g.
 *   "ckpt/rank-2.wave-3.img: open: No such file or directory". */
#ifndef FT_IMAGE_FILE_H
#define FT_IMAGE_FILE_H

#include <stddef.h>

struct ft_image_info;

/* Writes "DIR/rank-R.wave-W.img" into out (cap bytes). Returns 0, or -1 if
 * it does not fit. */
int ft_image_file_path(char *out, size_t cap, const char *dir, int rank,
                       int wave);

/* Creates directory dir and any missing parent (mkdir -p; an existing
 * directory is fine). Returns 0, or -1 with "DIR: mkdir: <strerror>" (or
 * "DIR: exists and is not a directory") in err. */
int ft_image_file_mkdir(const char *dir, char *err, size_t errlen);

/* Atomically stores img[0..bytes) as rank's image of wave in dir (see
 * above), replacing any file of that name. Precondition: dir exists. Returns
 * 0, or -1 with the path, the failed call and strerror in err; on error the
 * .tmp file is removed and the final name is left as it was. The image is
 * written as given: callers verify it first (ft_image_check). */
int ft_image_file_write(const char *dir, int rank, int wave, const void *img,
                        size_t bytes, char *err, size_t errlen);

/* Reads rank's image of wave from dir into a new malloc'ed buffer *img
 * (*bytes long; the caller frees it) and verifies it with ft_image_check and
 * against its name (the header's rank and wave must be rank and wave); fills
 * *info with its header when info is not NULL.
 * Returns 0, or -1 with *img NULL and a message naming the path: a missing
 * or unreadable file (strerror), or any ft_image_check error, e.g.
 *   "ckpt/rank-0.wave-1.img: truncated or padded image: its header says..."
 * A truncated or corrupted file is thus reported, never returned. */
int ft_image_file_read(const char *dir, int rank, int wave, void **img,
                       size_t *bytes, struct ft_image_info *info, char *err,
                       size_t errlen);

/* Deletes rank's image of wave from dir. A file that does not exist is not
 * an error. Returns 0, or -1 with "PATH: unlink: <strerror>" in err. */
int ft_image_file_remove(const char *dir, int rank, int wave, char *err,
                         size_t errlen);

/* Atomically replaces DIR/NAME with data[0..bytes), the way images are
 * written (NAME.tmp, fsync, rename, fsync of dir). Precondition: dir
 * exists. Returns 0, or -1 with the path, the failed call and strerror in
 * err. */
int ft_file_write_atomic(const char *dir, const char *name, const void *data,
                         size_t bytes, char *err, size_t errlen);

/* Reads the whole file at path into a new malloc'ed buffer (*bytes long;
 * the caller frees *data). Returns 0, or -1 with "PATH: CALL: strerror" in
 * err (errno is left as the failed call set it: ENOENT for a missing
 * file). */
int ft_file_read_all(const char *path, void **data, size_t *bytes, char *err,
                     size_t errlen);

#endif /* FT_IMAGE_FILE_H */
