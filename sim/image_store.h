/* Checkpoint store, pure C (no MPI, no SimGrid): the checkpoint server's
 * memory, two generations of images per rank, the committed wave and the one
 * in progress, each verified with its checksum when stored and when fetched.
 *
 * Waves are numbered from 1; wave 0 means "none". A wave is put rank by
 * rank (ft_store_put), then committed for all ranks at once
 * (ft_store_commit), which frees the previous committed generation. After a
 * rollback, ft_store_discard_in_progress drops a wave that never committed.
 *
 * Memory mode keeps the images in memory. File mode (reference mode) keeps
 * them in a directory, as image_file.h writes them, with at most two files
 * per rank: the committed wave's and the one in progress. Images of ranks
 * and waves this store did not put (files of an earlier run, say) are
 * neither read nor deleted. */
#ifndef FT_IMAGE_STORE_H
#define FT_IMAGE_STORE_H

#include <stddef.h>

struct ft_image_store;

/* A store for ranks 0..ranks-1. dir NULL: memory mode; otherwise file mode
 * in dir, which is created if missing (mkdir -p). Returns NULL on error
 * (ranks < 1, out of memory, dir cannot be created) with a message in err
 * (errlen bytes; err may be NULL when errlen is 0). */
struct ft_image_store *ft_store_create(int ranks, const char *dir, char *err,
                                       size_t errlen);

/* Restricts the store to the ranks named by ft_store_serve: a store first
 * serves every rank 0..ranks-1; the first call makes it serve `rank` only,
 * later calls add ranks. A checkpoint server calls it for each rank it
 * stores, before any put. put and get refuse a rank not served; commit
 * needs images of the served ranks only. Returns 0, or -1 if rank is out of
 * range. Note: a store restricted to no rank cannot be expressed (it serves
 * every rank until the first call). */
int ft_store_serve(struct ft_image_store *store, int rank);

/* Frees the store and its memory images (NULL is fine). Files stay on disk:
 * they are the checkpoint. */
void ft_store_destroy(struct ft_image_store *store);

/* Verifies img[0..bytes) (ft_image_check; its header must say this rank and
 * wave), then stores a copy as rank's image in progress, replacing any
 * image in progress of that rank (of this wave or another). Returns 0, or
 * -1 with a message in err and the store unchanged:
 *   "rank 9 out of range (the store has 4 ranks)";
 *   "rank 2 is not served by this store" (see ft_store_serve);
 *   "rank 1 wave 1: wave 1 is not newer than the committed wave 1";
 *   "rank 1 wave 2: <ft_image_check error>";
 *   "rank 1 wave 2: the image's header says rank 0 wave 2";
 *   file mode: the write error of ft_image_file_write. */
int ft_store_put(struct ft_image_store *store, int rank, int wave,
                 const void *img, size_t bytes, char *err, size_t errlen);

/* Makes wave the committed generation: every served rank must have an
 * image of wave in progress. The previous committed images are freed (file
 * mode: deleted). Returns 0, or -1 with nothing changed and a message such as
 *   "cannot commit wave 2: rank 3 has no image of it in progress
 *    (in progress: none)".
 * File mode: failing to delete an old file does not undo the commit; the
 * commit returns 0 and ft_store_last_error says which file stayed. */
int ft_store_commit(struct ft_image_store *store, int wave, char *err,
                    size_t errlen);

/* Uncoordinated checkpoints (message logging): makes rank's image of wave
 * in progress its committed one, for this rank alone (its previous
 * committed image is freed). Returns 0, or -1 with a message:
 *   "cannot commit rank 2's checkpoint 3: not in progress (in progress: 0)".
 * A rank's waves are its own checkpoint numbers; put refuses one not newer
 * than the rank's committed one. */
int ft_store_commit_rank(struct ft_image_store *store, int rank, int wave,
                         char *err, size_t errlen);

/* File mode, a relaunched run (README, "Real failures: kill and
 * relaunch"): makes `wave`, whose files an earlier process of this run
 * wrote in the store's directory, the committed generation of every served
 * rank. Each file is read and verified first (ft_image_file_read: its
 * checksum, size, rank and wave), so that a missing, truncated or corrupt
 * image is refused here, never served. wave 0: nothing to adopt. Returns
 * 0, or -1 with nothing changed and the read's message naming the file:
 *   "ftsim-ckpt/rank-1.wave-3.img: open: No such file or directory";
 *   "ftsim-ckpt/rank-1.wave-3.img: checksum mismatch: ..."
 * Memory mode: -1 ("a memory store has no files to adopt"). */
int ft_store_adopt(struct ft_image_store *store, int wave, char *err,
                   size_t errlen);

/* The rank's committed wave (either commit), 0 when none. */
int ft_store_committed_of(const struct ft_image_store *store, int rank);

/* Drops every image in progress (after a rollback to the committed wave).
 * File mode: deletes their files; a failed deletion is recorded in
 * ft_store_last_error. */
void ft_store_discard_in_progress(struct ft_image_store *store);

/* Finds rank's image of wave (committed or in progress) and verifies it
 * again: checksum, header rank and wave, and the checksum and size recorded
 * when it was put, so that a corruption in memory or on disk is reported,
 * never returned. File mode reads the file. On success *img and *bytes
 * describe the image, owned by the store and valid until the next put, get,
 * commit, discard or destroy. Returns 0, or -1 with a message:
 *   "rank 2 has no image of wave 3 (committed: 1, in progress: none)";
 *   "rank 2 wave 1: <ft_image_check error>" (memory mode);
 *   "<path>: <error>" (file mode: missing, truncated, corrupted file);
 *   "rank 2 wave 1: the image changed since it was stored (...)". */
int ft_store_get(struct ft_image_store *store, int rank, int wave,
                 const void **img, size_t *bytes, char *err, size_t errlen);

/* The last committed wave, 0 when none. */
int ft_store_committed_wave(const struct ft_image_store *store);

/* Bytes held: the sizes of every committed and in-progress image (in memory,
 * or on disk in file mode), not counting buffers of ft_store_get. */
size_t ft_store_bytes(const struct ft_image_store *store);

/* The message of the last error that no call returned (a file that commit
 * or discard could not delete), "" if none. */
const char *ft_store_last_error(const struct ft_image_store *store);

#endif /* FT_IMAGE_STORE_H */
