/* Provenance comment lines of a sweep's CSV (see provenance.h). */
#define _XOPEN_SOURCE 700
#include "provenance.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "ftsim_commit.h"

const char *ft_build_commit(void) { return FTSIM_COMMIT; }

void ft_provenance_here(struct ft_provenance *p, const char *sub,
                        const char *sweep_file, int argc, char **argv) {
  memset(p, 0, sizeof *p);
  snprintf(p->commit, sizeof p->commit, "%s", ft_build_commit());
  char abs[PATH_MAX];
  const char *s = sweep_file && realpath(sweep_file, abs) ? abs
                  : sweep_file                            ? sweep_file
                                                          : "";
  size_t n = strlen(s) < sizeof p->sweep ? strlen(s) : sizeof p->sweep - 1;
  memcpy(p->sweep, s, n);
  p->sweep[n] = '\0';
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  fprintf(m, "ftsim %s", sub);
  for (int i = 0; i < argc; i++) {
    fputc(' ', m);
    ft_command_quote(m, argv[i]);
  }
  fclose(m);
  snprintf(p->command, sizeof p->command, "%s", text);
  free(text);
}

static void line(FILE *out, const char *key, const char *value) {
  if (!value[0])
    return;
  fprintf(out, "# %s: ", key);
  for (const char *s = value; *s; s++)
    fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
  fputc('\n', out);
}

void ft_provenance_write(FILE *out, const struct ft_provenance *p) {
  line(out, "commit", p->commit);
  line(out, "sweep_file", p->sweep);
  line(out, "command", p->command);
}

void ft_provenance_line(struct ft_provenance *p, const char *text, size_t len) {
  static const char *const keys[] = {
      "# commit: ", "# sweep_file: ", "# command: "};
  char *dest[] = {p->commit, p->sweep, p->command};
  size_t size[] = {sizeof p->commit, sizeof p->sweep, sizeof p->command};
  if (len && text[len - 1] == '\r')
    len--;
  for (size_t k = 0; k < 3; k++) {
    size_t n = strlen(keys[k]);
    if (len >= n && strncmp(text, keys[k], n) == 0) {
      size_t v = len - n < size[k] - 1 ? len - n : size[k] - 1;
      memcpy(dest[k], text + n, v);
      dest[k][v] = '\0';
    }
  }
}
