/* Whether a program defines a symbol, read from its ELF symbol tables: how
 * `ftsim run --compute auto` tells a program that models its computation
 * (it calls ft_compute, which the linker then takes out of
 * libftsim_compute) from one that does not. Reads the file, nothing else. */
#ifndef FT_CLI_ELF_SYMBOLS_H
#define FT_CLI_ELF_SYMBOLS_H

#include <stddef.h>

/* Returns 1 when the 64-bit ELF file `path` (an executable or a shared
 * object of this machine's byte order) defines the global or weak symbol
 * `name` in its .symtab or .dynsym, 0 when it does not or is not such an
 * ELF file (a script, another format), or -1 with "PATH: cannot read:
 * <strerror>" or "PATH: truncated ELF file" in `err`. */
int ft_elf_defines(const char *path, const char *name, char *err,
                   size_t errlen);

#endif /* FT_CLI_ELF_SYMBOLS_H */
