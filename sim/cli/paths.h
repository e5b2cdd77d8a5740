/* Where ftsim finds things: the source and build directories (compiled in,
 * overridable from the environment), platform files, workloads, launchers. */
#ifndef FT_CLI_PATHS_H
#define FT_CLI_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "strv.h"

#define FT_ENV_SOURCE_DIR "FTSIM_SOURCE_DIR"
#define FT_ENV_BUILD_DIR "FTSIM_BUILD_DIR"
#define FT_ENV_SMPIRUN "FTSIM_SMPIRUN"
#define FT_ENV_MPIRUN "FTSIM_MPIRUN"

/* The directories a run uses. Strings are static or from the environment. */
struct ft_dirs {
  const char *source;  /* $FTSIM_SOURCE_DIR, or the configured source dir */
  const char *build;   /* $FTSIM_BUILD_DIR, or the configured build dir */
  const char *smpirun; /* $FTSIM_SMPIRUN, or the smpirun CMake found */
  const char *mpirun;  /* $FTSIM_MPIRUN, or the mpirun CMake found */
};

/* Reads the environment overrides (empty values are ignored). */
void ft_dirs_get(struct ft_dirs *dirs);

/* True when `name` is a path rather than a name: it contains a '/', or
 * (with `suffix` non-NULL) ends with `suffix`. */
bool ft_paths_is_path(const char *name, const char *suffix);

/* Resolves --platform: a path is taken as is, a name is
 * <source>/platforms/NAME.xml. Writes the file into `out` (len bytes).
 * Returns -1 with `err` set when the file does not exist:
 *   "unknown platform 'foo': no file /src/platforms/foo.xml (known: gige)"
 *   "platform file 'x/y.xml' does not exist" (or "is a directory", "is not
 *   a regular file") */
int ft_paths_platform(const struct ft_dirs *dirs, const char *name, char *out,
                      size_t len, char *err, size_t errlen);

/* Resolves --app: a path is taken as is, a name is <build>/apps/smpi/NAME
 * (or <build>/apps/real/NAME when `real`). Returns -1 with `err` set when
 * it is not a regular file:
 *   "unknown app 'foo': no file /build/apps/smpi/foo (built: cg, lu)"
 *   "app 'x/y' does not exist" (or "is a directory", ...)
 * or when it does not suit the mode (ft_app_check_kind): a module for the
 * simulator with `real`, an executable without. */
int ft_paths_app(const struct ft_dirs *dirs, const char *name, bool real,
                 char *out, size_t len, char *err, size_t errlen);

/* Resolves --scenario: a path (a '/' or a .txt suffix) is taken as is, its
 * errors left to the scenario loader; a name is
 * <source>/scenarios/NAME.txt, which must exist, else -1 with e.g.
 *   "unknown scenario 'foo': no file /src/scenarios/foo.txt (known: none,
 *    one-failure)" */
int ft_paths_scenario(const struct ft_dirs *dirs, const char *name, char *out,
                      size_t len, char *err, size_t errlen);

/* Checks that files named PREFIX.<something> can be created: the
 * directory part of `prefix` ("." without '/') exists, is a directory and
 * is writable, and a file name follows the last '/'. Returns 0, or -1 with
 * "directory 'no/such' does not exist", "'f' is not a directory",
 * "directory 'd' is not writable" or "ends with '/': ..." in `err`. */
int ft_paths_check_output(const char *prefix, char *err, size_t errlen);

/* Fills `names` with the platform names (<source>/platforms/NAME.xml),
 * sorted. Missing directory: no names. */
void ft_paths_list_platforms(const struct ft_dirs *dirs, struct ft_strv *names);

/* Fills `names` with the regular files in <build>/apps/smpi (or real),
 * sorted. Missing directory: no names. */
void ft_paths_list_apps(const struct ft_dirs *dirs, bool real,
                        struct ft_strv *names);

/* Writes into `out` the short name of a --platform / --app value: the value
 * itself for a name; for a path its last component without `suffix`
 * ("x/gige.xml" -> "gige"). */
void ft_paths_short_name(const char *value, const char *suffix, char *out,
                         size_t len);

#endif /* FT_CLI_PATHS_H */
