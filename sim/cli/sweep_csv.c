/* The results CSV of `ftsim sweep`, open for appending (see sweep_run.h).
 *
 * Every writer (this process, or the tasks of a Slurm array on a shared
 * file system) takes an fcntl write lock on the whole file around reading
 * its end and around each append, so rows from concurrent writers never
 * interleave. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "strv.h"
#include "sweep_run.h"

static int lock(int fd, short type) {
  struct flock fl = {.l_type = type, .l_whence = SEEK_SET};
  int rc;
  while ((rc = fcntl(fd, F_SETLKW, &fl)) == -1 && errno == EINTR)
    ;
  return rc;
}

static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

static int cmp_keys(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Remembers the keys of `rows`, sorted. */
static void keep_keys(struct ft_sweep_csv *csv, const struct ft_results *r) {
  csv->done_keys = ft_xrealloc(NULL, (r->count + 1) * sizeof(char *));
  for (size_t i = 0; i < r->count; i++) {
    char key[8192];
    ft_results_key(r->rows[i].cell, key, sizeof key);
    csv->done_keys[i] = ft_xstrdup(key);
  }
  csv->ndone = r->count;
  if (csv->ndone > 1) /* qsort's base may not be NULL, even for 0 items */
    qsort(csv->done_keys, csv->ndone, sizeof(char *), cmp_keys);
}

/* Reads the existing rows (lock held); cuts a partial last line off and
 * writes the header into an empty file. */
static void check_commit(const struct ft_sweep_csv *csv,
                         const struct ft_provenance *then,
                         const struct ft_provenance *now) {
  if (now && then->commit[0] && now->commit[0] &&
      strcmp(then->commit, now->commit) != 0)
    fprintf(stderr,
            "ftsim: warning: %s was started by ftsim %s, this is %s: its "
            "rows will come from two builds\n",
            csv->path, then->commit, now->commit);
}

static int read_existing(struct ft_sweep_csv *csv,
                         const struct ft_provenance *prov, char *err,
                         size_t errlen) {
  struct ft_results r = {0};
  struct stat st;
  if (fstat(csv->fd, &st) != 0)
    return ft_fail(err, errlen, "%s: %s", csv->path, strerror(errno));
  if (st.st_size == 0) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (prov)
      ft_provenance_write(m, prov);
    ft_results_header(m);
    fclose(m);
    int rc = write_all(csv->fd, text, len);
    free(text);
    keep_keys(csv, &r);
    return rc ? ft_fail(err, errlen, "%s: cannot write: %s", csv->path,
                        strerror(errno))
              : 0;
  }
  /* Read through our own descriptor: closing another one would drop the
   * fcntl lock. */
  size_t size = (size_t)st.st_size, got = 0, keep = 0;
  char *text = ft_xrealloc(NULL, size + 1);
  ssize_t n;
  while (got < size &&
         (n = pread(csv->fd, text + got, size - got, (off_t)got)) > 0)
    got += (size_t)n;
  int rc = got < size ? ft_fail(err, errlen, "%s: cannot read: %s", csv->path,
                                strerror(errno))
                      : ft_results_parse(text, size, csv->path, &r, &keep, err,
                                         errlen);
  free(text);
  if (rc) {
    ft_results_free(&r);
    return -1;
  }
  if (keep < size) {
    fprintf(stderr,
            "ftsim: %s: dropped a half-written last line (%lld bytes; its "
            "point runs again)\n",
            csv->path, (long long)(size - keep));
    if (ftruncate(csv->fd, (off_t)keep) != 0) {
      ft_results_free(&r);
      return ft_fail(err, errlen, "%s: cannot truncate: %s", csv->path,
                     strerror(errno));
    }
  }
  check_commit(csv, &r.prov, prov);
  keep_keys(csv, &r);
  ft_results_free(&r);
  return 0;
}

int ft_sweep_csv_open(struct ft_sweep_csv *csv, const char *path,
                      const struct ft_provenance *prov, char *err,
                      size_t errlen) {
  memset(csv, 0, sizeof *csv);
  csv->path = path;
  csv->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (csv->fd < 0)
    return ft_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  if (lock(csv->fd, F_WRLCK) != 0) {
    close(csv->fd);
    return ft_fail(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
  }
  int rc = read_existing(csv, prov, err, errlen);
  lock(csv->fd, F_UNLCK);
  if (rc) {
    ft_sweep_csv_close(csv);
    return -1;
  }
  return 0;
}

bool ft_sweep_csv_done(const struct ft_sweep_csv *csv,
                       const struct ft_point *p) {
  char key[8192];
  const char *k = key;
  if (!csv->ndone) /* bsearch's base may not be NULL, even for 0 items */
    return false;
  ft_results_key(p->param, key, sizeof key);
  return bsearch(&k, csv->done_keys, csv->ndone, sizeof(char *), cmp_keys) !=
         NULL;
}

int ft_sweep_csv_append(struct ft_sweep_csv *csv, char *const cells[],
                        char *err, size_t errlen) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  ft_results_row(m, cells);
  fclose(m);
  int rc = lock(csv->fd, F_WRLCK);
  if (rc == 0)
    rc = write_all(csv->fd, text, len);
  if (rc == 0)
    rc = fsync(csv->fd);
  int saved = errno;
  lock(csv->fd, F_UNLCK);
  free(text);
  return rc ? ft_fail(err, errlen, "%s: cannot append a row: %s", csv->path,
                      strerror(saved))
            : 0;
}

void ft_sweep_csv_close(struct ft_sweep_csv *csv) {
  if (csv->fd >= 0)
    close(csv->fd);
  csv->fd = -1;
  for (size_t i = 0; i < csv->ndone; i++)
    free(csv->done_keys[i]);
  free(csv->done_keys);
  csv->done_keys = NULL;
  csv->ndone = 0;
}
