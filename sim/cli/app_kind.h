/* What kind of program an --app file is, read from its ELF headers: a
 * module that smpirun loads (what smpicc and ftsimcc make) or an executable
 * that mpirun starts (ftsimcc -real, mpicc). No MPI, no SimGrid. */
#ifndef FT_CLI_APP_KIND_H
#define FT_CLI_APP_KIND_H

#include <stdbool.h>
#include <stddef.h>

enum ft_app_kind {
  FT_APP_OTHER,      /* not a 64-bit ELF file (a script, ...), or unreadable */
  FT_APP_MODULE,     /* shared object without a program interpreter */
  FT_APP_EXECUTABLE, /* executable, position-independent or not */
};

/* Reads the ELF header and program headers of `path`. A shared object
 * (ET_DYN) with a PT_INTERP segment is a position-independent executable;
 * without one it is a module. Never fails: a file it cannot read or parse
 * is FT_APP_OTHER. */
enum ft_app_kind ft_app_kind_of(const char *path);

/* Checks that `path` can run in the chosen mode, before anything is
 * launched: simulated (`real` false) needs a module, reference mode an
 * executable; FT_APP_OTHER passes (the launcher will say more). Returns 0,
 * or -1 with a message naming the file and the build to use in `err`. */
int ft_app_check_kind(const char *path, bool real, char *err, size_t errlen);

#endif /* FT_CLI_APP_KIND_H */
