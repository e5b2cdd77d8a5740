/* This machine's checkpoint storage, for `ftsim calibrate`: a durable write
 * of an image the way reference mode's checkpoint server writes one
 * (image_file.h's ft_file_write_atomic: NAME.tmp, fsync, rename, fsync of
 * the directory), and reading the file back. */
#ifndef FT_CLI_DISK_SPEED_H
#define FT_CLI_DISK_SPEED_H

#include <stddef.h>

/* Writes and reads back a file of `bytes` bytes in `dir` `repeat` times
 * (the file is removed after) and sets the medians as bytes per second.
 * Returns 0, or -1 with the path, the failed call and strerror in err. */
int ft_disk_speed_measure(const char *dir, size_t bytes, int repeat,
                          double *write_Bps, double *read_Bps, char *err,
                          size_t errlen);

#endif /* FT_CLI_DISK_SPEED_H */
