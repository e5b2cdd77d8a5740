/* The kind of an --app file (see app_kind.h). */
#define _POSIX_C_SOURCE 200809L
#include "app_kind.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool read_at(int fd, void *buf, size_t len, off_t off) {
  return pread(fd, buf, len, off) == (ssize_t)len;
}

static bool is_elf64(const Elf64_Ehdr *h) {
  return memcmp(h->e_ident, ELFMAG, SELFMAG) == 0 &&
         h->e_ident[EI_CLASS] == ELFCLASS64 &&
         h->e_phentsize == sizeof(Elf64_Phdr);
}

/* True when one of the program headers is PT_INTERP. */
static bool has_interpreter(int fd, const Elf64_Ehdr *h) {
  for (unsigned i = 0; i < h->e_phnum; i++) {
    Elf64_Phdr ph;
    off_t off = (off_t)(h->e_phoff + (Elf64_Off)i * sizeof ph);
    if (!read_at(fd, &ph, sizeof ph, off))
      return false;
    if (ph.p_type == PT_INTERP)
      return true;
  }
  return false;
}

enum ft_app_kind ft_app_kind_of(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return FT_APP_OTHER;
  Elf64_Ehdr h;
  enum ft_app_kind kind = FT_APP_OTHER;
  if (read_at(fd, &h, sizeof h, 0) && is_elf64(&h)) {
    if (h.e_type == ET_EXEC)
      kind = FT_APP_EXECUTABLE;
    else if (h.e_type == ET_DYN)
      kind = has_interpreter(fd, &h) ? FT_APP_EXECUTABLE : FT_APP_MODULE;
  }
  close(fd);
  return kind;
}

int ft_app_check_kind(const char *path, bool real, char *err, size_t errlen) {
  enum ft_app_kind kind = ft_app_kind_of(path);
  if (real && kind == FT_APP_MODULE) {
    snprintf(err, errlen,
             "app '%s' is a module for the simulator (ftsimcc, smpicc): "
             "--real needs an executable, built with 'ftsimcc -real' (or "
             "FTSIM_REAL=1) or mpicc",
             path);
    return -1;
  }
  if (!real && kind == FT_APP_EXECUTABLE) {
    snprintf(err, errlen,
             "app '%s' is an executable, not a module smpirun can load: "
             "build it with ftsimcc (without -real) or smpicc, or run it "
             "with --real",
             path);
    return -1;
  }
  return 0;
}
