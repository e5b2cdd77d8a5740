/* Directories, platform files and workloads (see paths.h). */
#define _POSIX_C_SOURCE 200809L
#include "paths.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_kind.h"
#include "ftsim_cli_config.h"

#define PLATFORM_SUFFIX ".xml"
#define SCENARIO_SUFFIX ".txt"

static const char *env_or(const char *name, const char *fallback) {
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

void ft_dirs_get(struct ft_dirs *dirs) {
  dirs->source = env_or(FT_ENV_SOURCE_DIR, FTSIM_CLI_SOURCE_DIR);
  dirs->build = env_or(FT_ENV_BUILD_DIR, FTSIM_CLI_BUILD_DIR);
  dirs->smpirun = env_or(FT_ENV_SMPIRUN, FTSIM_CLI_SMPIRUN);
  dirs->mpirun = env_or(FT_ENV_MPIRUN, FTSIM_CLI_MPIRUN);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

bool ft_paths_is_path(const char *name, const char *suffix) {
  return strchr(name, '/') || (suffix && ends_with(name, suffix));
}

static void list_dir(const char *dir, const char *suffix,
                     struct ft_strv *names);

static bool is_regular(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Joins `names` with ", " into `out`, or "none". */
static void join(const struct ft_strv *names, char *out, size_t len) {
  snprintf(out, len, "%s", names->count ? "" : "none");
  for (size_t i = 0; i < names->count; i++) {
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", i ? ", " : "", names->items[i]);
  }
}

/* "WHAT 'NAME' does not exist", "... is a directory", "... is not a
 * regular file" for a path that is_regular refused. */
static void not_a_file(const char *what, const char *name, char *err,
                       size_t errlen) {
  struct stat st;
  const char *why = stat(name, &st) != 0  ? "does not exist"
                    : S_ISDIR(st.st_mode) ? "is a directory"
                                          : "is not a regular file";
  snprintf(err, errlen, "%s '%s' %s", what, name, why);
}

int ft_paths_check_output(const char *prefix, char *err, size_t errlen) {
  char dir[4096];
  const char *slash = strrchr(prefix, '/');
  if (slash && !slash[1]) {
    snprintf(err, errlen, "ends with '/': a file name prefix is needed");
    return -1;
  }
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else
    snprintf(dir, sizeof dir, "%.*s",
             slash == prefix ? 1 : (int)(slash - prefix), prefix);
  struct stat st;
  if (stat(dir, &st) != 0)
    snprintf(err, errlen, "directory '%s' does not exist", dir);
  else if (!S_ISDIR(st.st_mode))
    snprintf(err, errlen, "'%s' is not a directory", dir);
  else if (access(dir, W_OK | X_OK) != 0)
    snprintf(err, errlen, "directory '%s' is not writable", dir);
  else
    return 0;
  return -1;
}

int ft_paths_platform(const struct ft_dirs *dirs, const char *name, char *out,
                      size_t len, char *err, size_t errlen) {
  if (ft_paths_is_path(name, PLATFORM_SUFFIX)) {
    snprintf(out, len, "%s", name);
    if (is_regular(out))
      return 0;
    not_a_file("platform file", name, err, errlen);
    return -1;
  }
  snprintf(out, len, "%s/platforms/%s%s", dirs->source, name, PLATFORM_SUFFIX);
  if (is_regular(out))
    return 0;
  struct ft_strv known = FT_STRV_INIT;
  char list[512];
  ft_paths_list_platforms(dirs, &known);
  join(&known, list, sizeof list);
  snprintf(err, errlen, "unknown platform '%s': no file %s (known: %s)", name,
           out, list);
  ft_strv_free(&known);
  return -1;
}

int ft_paths_scenario(const struct ft_dirs *dirs, const char *name, char *out,
                      size_t len, char *err, size_t errlen) {
  if (ft_paths_is_path(name, SCENARIO_SUFFIX)) {
    snprintf(out, len, "%s", name);
    return 0;
  }
  snprintf(out, len, "%s/scenarios/%s%s", dirs->source, name, SCENARIO_SUFFIX);
  if (is_regular(out))
    return 0;
  struct ft_strv known = FT_STRV_INIT;
  char dir[4096], list[512];
  snprintf(dir, sizeof dir, "%s/scenarios", dirs->source);
  list_dir(dir, SCENARIO_SUFFIX, &known);
  join(&known, list, sizeof list);
  snprintf(err, errlen, "unknown scenario '%s': no file %s (known: %s)", name,
           out, list);
  ft_strv_free(&known);
  return -1;
}

static const char *apps_dir(bool real) { return real ? "real" : "smpi"; }

int ft_paths_app(const struct ft_dirs *dirs, const char *name, bool real,
                 char *out, size_t len, char *err, size_t errlen) {
  if (ft_paths_is_path(name, NULL)) {
    snprintf(out, len, "%s", name);
    if (is_regular(out))
      return ft_app_check_kind(out, real, err, errlen);
    not_a_file("app", name, err, errlen);
    return -1;
  }
  snprintf(out, len, "%s/apps/%s/%s", dirs->build, apps_dir(real), name);
  if (is_regular(out))
    return ft_app_check_kind(out, real, err, errlen);
  struct ft_strv built = FT_STRV_INIT;
  char list[512];
  ft_paths_list_apps(dirs, real, &built);
  join(&built, list, sizeof list);
  snprintf(err, errlen, "unknown app '%s': no file %s (built: %s)", name, out,
           list);
  ft_strv_free(&built);
  return -1;
}

/* Adds the regular files of `dir` ending with `suffix` (stripped). */
static void list_dir(const char *dir, const char *suffix,
                     struct ft_strv *names) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d));) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || !ends_with(e->d_name, suffix) ||
        !is_regular(path))
      continue;
    ft_strv_pushn(names, e->d_name, strlen(e->d_name) - strlen(suffix));
  }
  closedir(d);
  ft_strv_sort(names, strcmp);
}

void ft_paths_list_platforms(const struct ft_dirs *dirs,
                             struct ft_strv *names) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/platforms", dirs->source);
  list_dir(dir, PLATFORM_SUFFIX, names);
}

void ft_paths_list_apps(const struct ft_dirs *dirs, bool real,
                        struct ft_strv *names) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/apps/%s", dirs->build, apps_dir(real));
  list_dir(dir, "", names);
}

void ft_paths_short_name(const char *value, const char *suffix, char *out,
                         size_t len) {
  const char *slash = strrchr(value, '/');
  const char *base = slash ? slash + 1 : value;
  size_t n = strlen(base);
  if (suffix && ends_with(base, suffix) && n > strlen(suffix))
    n -= strlen(suffix);
  snprintf(out, len, "%.*s", (int)n, base);
}
