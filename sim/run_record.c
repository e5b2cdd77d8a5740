/* Reference mode's run record (see run_record.h). */
#define _POSIX_C_SOURCE 200809L
#include "run_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "image_file.h"

#define MAGIC "ftsim-run-record 1"

double ft_run_record_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned long text_crc(const char *text, size_t n) {
  return crc32(crc32(0L, Z_NULL, 0), (const unsigned char *)text, (uInt)n);
}

/* The record's text without its checksum; returns its length, or -1. */
static int body(const struct ft_run_record *r, char *out, size_t cap) {
  int n = snprintf(out, cap,
                   MAGIC " launch %d wave %d origin_wall %.9f origin_t %.9f "
                         "commit_t %.9f lost_s %.9f restart_s %.9f",
                   r->launch, r->wave, r->origin_wall, r->origin_t, r->commit_t,
                   r->lost_s, r->restart_s);
  return n > 0 && (size_t)n < cap ? n : -1;
}

int ft_run_record_write(const char *dir, const struct ft_run_record *r,
                        char *err, size_t errlen) {
  char text[512];
  int n = body(r, text, sizeof text - 32);
  if (n < 0) {
    snprintf(err, errlen, "%s/%s: record too long", dir, FT_RUN_RECORD_NAME);
    return -1;
  }
  snprintf(text + n, sizeof text - (size_t)n, " crc 0x%08lx\n",
           text_crc(text, (size_t)n));
  return ft_file_write_atomic(dir, FT_RUN_RECORD_NAME, text, strlen(text), err,
                              errlen);
}

/* Parses the body `text` (NUL-terminated, no checksum) into *r. */
static int parse(const char *text, struct ft_run_record *r) {
  int used = 0;
  int got = sscanf(text,
                   MAGIC " launch %d wave %d origin_wall %lf origin_t %lf "
                         "commit_t %lf lost_s %lf restart_s %lf%n",
                   &r->launch, &r->wave, &r->origin_wall, &r->origin_t,
                   &r->commit_t, &r->lost_s, &r->restart_s, &used);
  return got == 7 && text[used] == '\0' && r->launch >= 0 && r->wave >= 0 ? 0
                                                                          : -1;
}

/* Checks text[0..n) (the file) and fills *r. */
static int check(const char *path, char *text, size_t n,
                 struct ft_run_record *r, char *err, size_t errlen) {
  char *mark = n > 0 && text[n - 1] == '\n' ? strstr(text, " crc 0x") : NULL;
  unsigned long want = 0;
  char *end = NULL;
  if (mark)
    want = strtoul(mark + 7, &end, 16);
  if (!mark || end != text + n - 1) {
    snprintf(err, errlen, "%s: not a run record (no checksum line)", path);
    return -1;
  }
  unsigned long have = text_crc(text, (size_t)(mark - text));
  if (have != want) {
    snprintf(err, errlen,
             "%s: checksum mismatch (corrupt record): it says 0x%08lx, its "
             "contents give 0x%08lx",
             path, want, have);
    return -1;
  }
  *mark = '\0';
  if (parse(text, r) < 0) {
    snprintf(err, errlen, "%s: malformed run record '%s'", path, text);
    return -1;
  }
  return 0;
}

int ft_run_record_read(const char *dir, struct ft_run_record *r, char *err,
                       size_t errlen) {
  char path[4096];
  struct stat st;
  memset(r, 0, sizeof *r);
  snprintf(path, sizeof path, "%s/%s", dir, FT_RUN_RECORD_NAME);
  if (stat(path, &st) < 0 && errno == ENOENT)
    return 1;
  void *data = NULL;
  size_t n = 0;
  if (ft_file_read_all(path, &data, &n, err, errlen) < 0)
    return -1;
  char *text = realloc(data, n + 1);
  if (!text) {
    free(data);
    snprintf(err, errlen, "%s: out of memory", path);
    return -1;
  }
  text[n] = '\0';
  int rc = check(path, text, n, r, err, errlen);
  free(text);
  if (rc < 0)
    memset(r, 0, sizeof *r);
  return rc;
}
