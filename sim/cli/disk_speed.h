/* This machine's checkpoint storage, for `ftsim calibrate`: a durable write
 * of an image the way reference mode's checkpoint server writes one
 * (image_file.h's ft_file_write_atomic: NAME.tmp, fsync, rename, fsync of
 * the directory), and reading the file back. */
#ifndef FT_CLI_DISK_SPEED_H
#define FT_CLI_DISK_SPEED_H

#include <stddef.h>

/* Writes and reads back a file of `bytes` bytes in `dir` `repeat` times
 * (the file is removed after) and sets the medians as bytes per second,
 * and the median CPU time (user + system, this process) a write took per
 * byte in write_cpu_s_per_byte: the part of the write that occupies a core
 * (copying into the page cache, the file system's work) rather than
 * waiting for the device. Returns 0, or -1 with the path, the failed call
 * and strerror in err. */
int ft_disk_speed_measure(const char *dir, size_t bytes, int repeat,
                          double *write_Bps, double *read_Bps,
                          double *write_cpu_s_per_byte, char *err,
                          size_t errlen);

#endif /* FT_CLI_DISK_SPEED_H */
