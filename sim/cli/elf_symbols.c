/* ELF symbol look-up (see elf_symbols.h). */
#define _POSIX_C_SOURCE 200809L
#include "elf_symbols.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strv.h"

/* A mapped file. */
struct image {
  const unsigned char *bytes;
  size_t size;
};

/* True when [off, off + len) lies inside the image. */
static bool inside(const struct image *im, uint64_t off, uint64_t len) {
  return off <= im->size && len <= im->size - off;
}

/* Section header `i` (checked to lie in the file by search()). */
static Elf64_Shdr shdr_at(const struct image *im, const Elf64_Ehdr *eh,
                          uint64_t i) {
  Elf64_Shdr sh;
  memcpy(&sh, im->bytes + eh->e_shoff + i * sizeof sh, sizeof sh);
  return sh;
}

/* Looks for `name` among the defined symbols of one symbol table `sh`;
 * returns 1, 0, or -1 when the table points outside the file. */
static int search_table(const struct image *im, const Elf64_Ehdr *eh,
                        const Elf64_Shdr *sh, const char *name) {
  if (sh->sh_link >= eh->e_shnum || sh->sh_entsize != sizeof(Elf64_Sym))
    return -1;
  Elf64_Shdr strtab = shdr_at(im, eh, sh->sh_link);
  if (!inside(im, sh->sh_offset, sh->sh_size) ||
      !inside(im, strtab.sh_offset, strtab.sh_size))
    return -1;
  const char *names = (const char *)im->bytes + strtab.sh_offset;
  size_t nlen = strlen(name);
  for (uint64_t k = 0; k < sh->sh_size / sizeof(Elf64_Sym); k++) {
    Elf64_Sym sym;
    memcpy(&sym, im->bytes + sh->sh_offset + k * sizeof sym, sizeof sym);
    int bind = ELF64_ST_BIND(sym.st_info);
    if (sym.st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK) ||
        sym.st_name + nlen + 1 > strtab.sh_size)
      continue;
    if (memcmp(names + sym.st_name, name, nlen + 1) == 0)
      return 1;
  }
  return 0;
}

static int search(const struct image *im, const char *name) {
  Elf64_Ehdr eh;
  if (im->size < sizeof eh || memcmp(im->bytes, ELFMAG, SELFMAG) != 0)
    return 0;
  memcpy(&eh, im->bytes, sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr))
    return 0;
  if (!inside(im, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)))
    return -1;
  int found = 0;
  for (uint16_t i = 0; i < eh.e_shnum && found == 0; i++) {
    Elf64_Shdr sh = shdr_at(im, &eh, i);
    if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
      found = search_table(im, &eh, &sh, name);
  }
  return found;
}

int ft_elf_defines(const char *path, const char *name, char *err,
                   size_t errlen) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return ft_fail(err, errlen, "%s: cannot read: %s", path, strerror(e));
  }
  if (st.st_size == 0) {
    close(fd);
    return 0;
  }
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return ft_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
  struct image im = {map, (size_t)st.st_size};
  int rc = search(&im, name);
  munmap(map, im.size);
  return rc < 0 ? ft_fail(err, errlen, "%s: truncated ELF file", path) : rc;
}
