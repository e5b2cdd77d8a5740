/* Unit tests of the launcher command lines and their shell quoting. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"

/* Joins argv with single spaces (free it). */
static char *joined(const struct ft_strv *v) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  for (size_t i = 0; i < v->count; i++)
    fprintf(out, "%s%s", i ? " " : "", v->items[i]);
  fclose(out);
  return text;
}

static char *app_args[] = {"-n", "3"};

static struct ft_command_spec spec(bool real, bool root) {
  return (struct ft_command_spec){.real = real,
                                  .smpirun = "/usr/bin/smpirun",
                                  .mpirun = "/usr/bin/mpirun",
                                  .platform_file = "/src/platforms/gige.xml",
                                  .hostfile = "/tmp/h",
                                  .ranks = 66,
                                  .app_path = "/b/apps/smpi/cg",
                                  .app_args = app_args,
                                  .napp_args = 2,
                                  .as_root = root,
                                  .env_name = "FTSIM_OPTIONS"};
}

Test(cli_command, smpirun_line) {
  struct ft_strv v = FT_STRV_INIT;
  struct ft_command_spec s = spec(false, true);
  ft_command_build(&s, &v);
  char *text = joined(&v);
  cr_assert_str_eq(text,
                   "/usr/bin/smpirun -np 66 -platform /src/platforms/gige.xml "
                   "-hostfile /tmp/h --cfg=smpi/simulate-computation:no "
                   "--cfg=smpi/grow-injected-times:no "
                   "--cfg=smpi/privatization:dlopen --log=root.thres:warning "
                   "--log=ker_engine.thres:info /b/apps/smpi/cg -n 3");
  cr_assert_null(v.items[v.count]);
  free(text);
  ft_strv_free(&v);
}

Test(cli_command, mpirun_line_as_root) {
  struct ft_strv v = FT_STRV_INIT;
  struct ft_command_spec s = spec(true, true);
  s.app_path = "/b/apps/real/cg";
  ft_command_build(&s, &v);
  char *text = joined(&v);
  cr_assert_str_eq(text, "/usr/bin/mpirun --oversubscribe -np 66 "
                         "--allow-run-as-root -x FTSIM_OPTIONS /b/apps/real/cg "
                         "-n 3");
  free(text);
  ft_strv_free(&v);
}

Test(cli_command, mpirun_line_as_user) {
  struct ft_strv v = FT_STRV_INIT;
  struct ft_command_spec s = spec(true, false);
  s.napp_args = 0;
  ft_command_build(&s, &v);
  char *text = joined(&v);
  cr_assert_str_eq(text, "/usr/bin/mpirun --oversubscribe -np 66 -x "
                         "FTSIM_OPTIONS /b/apps/smpi/cg");
  free(text);
  ft_strv_free(&v);
}

/* Quotes one word (free it). */
static char *quoted(const char *word) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ft_command_quote(out, word);
  fclose(out);
  return text;
}

static void expect_quote(const char *word, const char *want) {
  char *got = quoted(word);
  cr_assert_str_eq(got, want);
  free(got);
}

Test(cli_command, quoting) {
  expect_quote("--cfg=smpi/privatization:dlopen",
               "--cfg=smpi/privatization:dlopen");
  expect_quote("protocol=none,service_ranks=0",
               "protocol=none,service_ranks=0");
  expect_quote("a b", "'a b'");
  expect_quote("it's", "'it'\\''s'");
  expect_quote("", "''");
  expect_quote("$HOME", "'$HOME'");
}

Test(cli_command, printed_line) {
  struct ft_strv v = FT_STRV_INIT;
  ft_strv_push(&v, "/usr/bin/smpirun");
  ft_strv_push(&v, "x y");
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ft_command_print(out, "FTSIM_OPTIONS", "protocol=none", &v);
  fclose(out);
  cr_assert_str_eq(text,
                   "FTSIM_OPTIONS=protocol=none /usr/bin/smpirun 'x y'\n");
  free(text);
  ft_strv_free(&v);
}

/* Issue 14, item 3: measured computation turns SMPI's benchmarking on at
 * this machine's speed; --cfg options come after ftsim's own, so that they
 * win. */
Test(cli_command, measured_line_with_cfg) {
  struct ft_strv v = FT_STRV_INIT;
  struct ft_command_spec s = spec(false, false);
  const char *cfgs[] = {"smpi/cpu-threshold:1e-3", "smpi/host-speed:1Gf"};
  s.measured = true;
  s.host_speed = 2.5e9;
  s.cfgs = cfgs;
  s.ncfgs = 2;
  ft_command_build(&s, &v);
  char *text = joined(&v);
  cr_assert_str_eq(text,
                   "/usr/bin/smpirun -np 66 -platform /src/platforms/gige.xml "
                   "-hostfile /tmp/h --cfg=smpi/simulate-computation:yes "
                   "--cfg=smpi/host-speed:2.5e+09f "
                   "--cfg=smpi/grow-injected-times:no "
                   "--cfg=smpi/privatization:dlopen --log=root.thres:warning "
                   "--log=ker_engine.thres:info "
                   "--cfg=smpi/cpu-threshold:1e-3 --cfg=smpi/host-speed:1Gf "
                   "/b/apps/smpi/cg -n 3");
  free(text);
  ft_strv_free(&v);
}
