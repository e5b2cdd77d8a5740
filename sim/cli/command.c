/* Launcher command line (see command.h). */
#include "command.h"

#include <string.h>

static void build_smpirun(const struct ft_command_spec *s,
                          struct ft_strv *argv) {
  ft_strv_push(argv, s->smpirun);
  ft_strv_push(argv, "-np");
  ft_strv_pushf(argv, "%zu", s->ranks);
  ft_strv_push(argv, "-platform");
  ft_strv_push(argv, s->platform_file);
  ft_strv_push(argv, "-hostfile");
  ft_strv_push(argv, s->hostfile);
  if (s->measured) {
    ft_strv_push(argv, FT_SMPI_CFG_MEASURED);
    ft_strv_pushf(argv, "--cfg=smpi/host-speed:%.6gf", s->host_speed);
  } else {
    ft_strv_push(argv, FT_SMPI_CFG_COMPUTATION);
  }
  ft_strv_push(argv, FT_SMPI_CFG_INJECTED);
  ft_strv_push(argv, FT_SMPI_CFG_PRIVATIZATION);
  ft_strv_push(argv, FT_SMPI_LOG_QUIET);
  ft_strv_push(argv, FT_SMPI_LOG_DEADLOCK);
  for (size_t i = 0; i < s->ncfgs; i++)
    ft_strv_pushf(argv, "--cfg=%s", s->cfgs[i]);
}

static void build_mpirun(const struct ft_command_spec *s,
                         struct ft_strv *argv) {
  ft_strv_push(argv, s->mpirun);
  ft_strv_push(argv, "--oversubscribe");
  ft_strv_push(argv, "-np");
  ft_strv_pushf(argv, "%zu", s->ranks);
  if (s->as_root)
    ft_strv_push(argv, "--allow-run-as-root");
  ft_strv_push(argv, "-x");
  ft_strv_push(argv, s->env_name);
}

void ft_command_build(const struct ft_command_spec *spec,
                      struct ft_strv *argv) {
  if (spec->real)
    build_mpirun(spec, argv);
  else
    build_smpirun(spec, argv);
  ft_strv_push(argv, spec->app_path);
  for (size_t i = 0; i < spec->napp_args; i++)
    ft_strv_push(argv, spec->app_args[i]);
}

static bool needs_quotes(const char *word) {
  static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_@%+=:,./-";
  return !*word || word[strspn(word, safe)] != '\0';
}

void ft_command_quote(FILE *out, const char *word) {
  if (!needs_quotes(word)) {
    fputs(word, out);
    return;
  }
  fputc('\'', out);
  for (const char *p = word; *p; p++) {
    if (*p == '\'')
      fputs("'\\''", out);
    else
      fputc(*p, out);
  }
  fputc('\'', out);
}

void ft_command_print(FILE *out, const char *env_name, const char *env_value,
                      const struct ft_strv *argv) {
  fprintf(out, "%s=", env_name);
  ft_command_quote(out, env_value);
  for (size_t i = 0; i < argv->count; i++) {
    fputc(' ', out);
    ft_command_quote(out, argv->items[i]);
  }
  fputc('\n', out);
}
