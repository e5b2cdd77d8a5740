/* Checkpoint images on disk (see image_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "image_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* "PATH: CALL: strerror(errno)" into err; returns -1. */
static int sys_fail(char *err, size_t errlen, const char *path,
                    const char *call) {
  snprintf(err, errlen, "%s: %s: %s", path, call, strerror(errno));
  return -1;
}

int ft_image_file_path(char *out, size_t cap, const char *dir, int rank,
                       int wave) {
  int n = snprintf(out, cap, "%s/rank-%d.wave-%d.img", dir, rank, wave);
  return n >= 0 && (size_t)n < cap ? 0 : -1;
}

/* The final path and the temporary one of an image, or -1 and a message. */
static int image_paths(const char *dir, int rank, int wave, char *path,
                       char *tmp, size_t cap, char *err, size_t errlen) {
  if (ft_image_file_path(path, cap, dir, rank, wave) < 0 ||
      (tmp && snprintf(tmp, cap, "%s.tmp", path) >= (int)cap)) {
    snprintf(err, errlen, "%s: path too long for rank %d wave %d", dir, rank,
             wave);
    return -1;
  }
  return 0;
}

static int mkdir_one(const char *dir, char *err, size_t errlen) {
  struct stat st;
  if (mkdir(dir, 0777) == 0)
    return 0;
  if (errno != EEXIST)
    return sys_fail(err, errlen, dir, "mkdir");
  if (stat(dir, &st) < 0)
    return sys_fail(err, errlen, dir, "stat");
  if (!S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "%s: exists and is not a directory", dir);
    return -1;
  }
  return 0;
}

int ft_image_file_mkdir(const char *dir, char *err, size_t errlen) {
  char path[PATH_MAX];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof path) {
    snprintf(err, errlen, "'%s': not a usable directory name", dir);
    return -1;
  }
  memcpy(path, dir, len + 1);
  for (size_t i = 1; i < len; i++) {
    if (path[i] != '/' || path[i - 1] == '/')
      continue;
    path[i] = '\0';
    int rc = mkdir_one(path, err, errlen);
    path[i] = '/';
    if (rc < 0)
      return -1;
  }
  return mkdir_one(path, err, errlen);
}

static int write_all(int fd, const unsigned char *p, size_t bytes) {
  while (bytes > 0) {
    ssize_t n = write(fd, p, bytes);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    p += n;
    bytes -= (size_t)n;
  }
  return 0;
}

/* Writes and syncs tmp; removes it on error. */
static int write_tmp(const char *tmp, const void *img, size_t bytes, char *err,
                     size_t errlen) {
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return sys_fail(err, errlen, tmp, "open");
  const char *call = NULL;
  if (write_all(fd, img, bytes) < 0)
    call = "write";
  else if (fsync(fd) < 0)
    call = "fsync";
  if (call) {
    sys_fail(err, errlen, tmp, call);
    close(fd);
    unlink(tmp);
    return -1;
  }
  if (close(fd) < 0) {
    sys_fail(err, errlen, tmp, "close");
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* Makes a rename in dir durable. EINVAL: the file system cannot sync a
 * directory, nothing more to do. */
static int sync_dir(const char *dir, char *err, size_t errlen) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return sys_fail(err, errlen, dir, "open");
  if (fsync(fd) < 0 && errno != EINVAL) {
    sys_fail(err, errlen, dir, "fsync");
    close(fd);
    return -1;
  }
  close(fd);
  return 0;
}

static int slurp(const char *path, void **img, size_t *bytes, char *err,
                 size_t errlen);

/* Writes tmp, renames it over path and syncs dir. */
static int replace(const char *dir, const char *path, const char *tmp,
                   const void *data, size_t bytes, char *err, size_t errlen) {
  if (write_tmp(tmp, data, bytes, err, errlen) < 0)
    return -1;
  if (rename(tmp, path) < 0) {
    sys_fail(err, errlen, path, "rename");
    unlink(tmp);
    return -1;
  }
  return sync_dir(dir, err, errlen);
}

int ft_image_file_write(const char *dir, int rank, int wave, const void *img,
                        size_t bytes, char *err, size_t errlen) {
  char path[PATH_MAX], tmp[PATH_MAX];
  if (image_paths(dir, rank, wave, path, tmp, sizeof path, err, errlen) < 0)
    return -1;
  return replace(dir, path, tmp, img, bytes, err, errlen);
}

int ft_file_write_atomic(const char *dir, const char *name, const void *data,
                         size_t bytes, char *err, size_t errlen) {
  char path[PATH_MAX], tmp[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/%s", dir, name);
  int t = snprintf(tmp, sizeof tmp, "%s/%s.tmp", dir, name);
  if (n < 0 || t < 0 || (size_t)t >= sizeof tmp) {
    snprintf(err, errlen, "%s: path too long for %s", dir, name);
    return -1;
  }
  return replace(dir, path, tmp, data, bytes, err, errlen);
}

int ft_file_read_all(const char *path, void **data, size_t *bytes, char *err,
                     size_t errlen) {
  return slurp(path, data, bytes, err, errlen);
}

static int read_all(int fd, unsigned char *p, size_t bytes) {
  while (bytes > 0) {
    ssize_t n = read(fd, p, bytes);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO; /* shrank while we read it */
      return -1;
    }
    p += n;
    bytes -= (size_t)n;
  }
  return 0;
}

/* Reads the whole file at path into a new buffer. */
static int slurp(const char *path, void **img, size_t *bytes, char *err,
                 size_t errlen) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return sys_fail(err, errlen, path, "open");
  struct stat st;
  const char *call = NULL;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) < 0)
    call = "fstat";
  else if (!(buf = malloc(st.st_size > 0 ? (size_t)st.st_size : 1)))
    call = "malloc";
  else if (read_all(fd, buf, (size_t)st.st_size) < 0)
    call = "read";
  if (call) {
    sys_fail(err, errlen, path, call);
    free(buf);
    close(fd);
    return -1;
  }
  close(fd);
  *img = buf;
  *bytes = (size_t)st.st_size;
  return 0;
}

static int check_file(const char *path, const void *img, size_t bytes, int rank,
                      int wave, struct ft_image_info *info, char *err,
                      size_t errlen) {
  char why[256];
  if (ft_image_check(img, bytes, info, why, sizeof why) < 0) {
    snprintf(err, errlen, "%s: %s", path, why);
    return -1;
  }
  if (info->rank != rank || info->wave != wave) {
    snprintf(err, errlen, "%s: holds the image of rank %d wave %d", path,
             info->rank, info->wave);
    return -1;
  }
  return 0;
}

int ft_image_file_read(const char *dir, int rank, int wave, void **img,
                       size_t *bytes, struct ft_image_info *info, char *err,
                       size_t errlen) {
  char path[PATH_MAX];
  struct ft_image_info h;
  void *buf = NULL;
  size_t n = 0;
  *img = NULL;
  if (image_paths(dir, rank, wave, path, NULL, sizeof path, err, errlen) < 0 ||
      slurp(path, &buf, &n, err, errlen) < 0)
    return -1;
  if (check_file(path, buf, n, rank, wave, &h, err, errlen) < 0) {
    free(buf);
    return -1;
  }
  if (info)
    *info = h;
  *img = buf;
  *bytes = n;
  return 0;
}

int ft_image_file_remove(const char *dir, int rank, int wave, char *err,
                         size_t errlen) {
  char path[PATH_MAX];
  if (image_paths(dir, rank, wave, path, NULL, sizeof path, err, errlen) < 0)
    return -1;
  if (unlink(path) < 0 && errno != ENOENT)
    return sys_fail(err, errlen, path, "unlink");
  return 0;
}
