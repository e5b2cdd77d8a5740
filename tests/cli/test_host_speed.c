/* Unit tests of the stored host speed and of the ELF symbol look-up behind
 * `ftsim run --compute auto` (issue 14, item 3). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "host_speed.h"

static char err[1024], path[64];

/* Writes `text` to a new temporary file, its name in `path`. */
static void file_with(const char *text) {
  snprintf(path, sizeof path, "/tmp/ftsim-test-XXXXXX");
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
}

/* Loading `text` fails with "<file>" followed by `why`. */
static void load_fails(const char *text, const char *why) {
  double flops = 0;
  char want[1024];
  file_with(text);
  cr_assert_eq(ft_host_speed_load(path, &flops, err, sizeof err), -1);
  snprintf(want, sizeof want, "%s%s", path, why);
  cr_assert_str_eq(err, want);
  unlink(path);
}

Test(cli_host_speed, load_with_comments_and_blanks) {
  double flops = 0;
  file_with("# measured\n\n  host_speed =  2.5e9  # DAXPY\n");
  cr_assert_eq(ft_host_speed_load(path, &flops, err, sizeof err), 0, "%s", err);
  cr_assert_float_eq(flops, 2.5e9, 1);
  unlink(path);
}

Test(cli_host_speed, load_errors_name_the_line) {
  load_fails("# x\nhost_speed = -1\n",
             ":2: field 'host_speed': expected flop/s > 0, got '-1'");
  load_fails("speed = 1e9\n", ":1: unknown key 'speed' (known: host_speed)");
  load_fails("1e9\n", ":1: expected 'host_speed = FLOPS', got '1e9'");
  load_fails("# nothing\n", ": no host_speed line");
}

Test(cli_host_speed, load_missing_file) {
  double flops = 0;
  cr_assert_eq(ft_host_speed_load("/nonexistent/ftsim/host.conf", &flops, err,
                                  sizeof err),
               1);
}

Test(cli_host_speed, store_then_load) {
  double flops = 0;
  file_with("");
  cr_assert_eq(ft_host_speed_store(path, 3.25e9, 5, err, sizeof err), 0);
  cr_assert_eq(ft_host_speed_load(path, &flops, err, sizeof err), 0, "%s", err);
  cr_assert_float_eq(flops, 3.25e9, 1e3);
  unlink(path);
}

Test(cli_host_speed, resolve_order) {
  double flops = 0;
  char source[256];
  setenv(FT_ENV_HOST_SPEED, "4e9", 1);
  cr_assert_eq(ft_host_speed_resolve(1e9, &flops, source, sizeof source, err,
                                     sizeof err),
               0);
  cr_assert_float_eq(flops, 1e9, 1);
  cr_assert_str_eq(source, "--host-speed");
  cr_assert_eq(
      ft_host_speed_resolve(0, &flops, source, sizeof source, err, sizeof err),
      0);
  cr_assert_float_eq(flops, 4e9, 1);
  cr_assert_str_eq(source, FT_ENV_HOST_SPEED);
  setenv(FT_ENV_HOST_SPEED, "", 1);
  setenv(FT_ENV_HOST_CONF, "/nonexistent/host.conf", 1);
  cr_assert_eq(
      ft_host_speed_resolve(0, &flops, source, sizeof source, err, sizeof err),
      -1);
  cr_assert(strstr(err, "run 'ftsim host-speed' once (it stores it in "
                        "/nonexistent/host.conf)"),
            "%s", err);
}

Test(cli_host_speed, measure_is_positive) {
  double samples[3];
  double flops = ft_host_speed_measure(3, samples);
  cr_assert(flops > 1e6, "%g", flops);
  cr_assert(samples[0] > 0 && samples[1] > 0 && samples[2] > 0);
}

Test(cli_elf_symbols, not_elf_and_truncated) {
  file_with("#!/bin/sh\necho ft_compute\n");
  cr_assert_eq(ft_elf_defines(path, "ft_compute", err, sizeof err), 0);
  unlink(path);
  file_with("\177ELF\002\001\001"); /* too short for an ELF header */
  cr_assert_eq(ft_elf_defines(path, "ft_compute", err, sizeof err), 0);
  unlink(path);
  /* an ELF header whose section headers lie beyond the end of the file */
  Elf64_Ehdr eh = {
      .e_shoff = 1 << 20, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 3};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  file_with("");
  FILE *f = fopen(path, "wb");
  fwrite(&eh, sizeof eh, 1, f);
  fclose(f);
  cr_assert_eq(ft_elf_defines(path, "ft_compute", err, sizeof err), -1);
  cr_assert(strstr(err, ": truncated ELF file"), "%s", err);
  unlink(path);
  cr_assert_eq(ft_elf_defines("/nonexistent/app", "x", err, sizeof err), -1);
  cr_assert_str_eq(err,
                   "/nonexistent/app: cannot read: No such file or directory");
}

Test(cli_elf_symbols, this_test_defines_its_own_functions) {
  /* the test binary itself: a defined global, and an undefined one */
  cr_assert_eq(
      ft_elf_defines("/proc/self/exe", "ft_elf_defines", err, sizeof err), 1,
      "%s", err);
  cr_assert_eq(
      ft_elf_defines("/proc/self/exe", "ft_no_such_symbol", err, sizeof err),
      0);
}
