/* Fuzz target: results CSVs (sim/cli/results.c), then what analyze and
 * plot compute from them (analyze.c, plot.c; no file is written).
 * Invariants: 0 or -1; on -1 a message naming the input; on 0 every row
 * has every cell, the analysis covers every row once, the complete
 * length ends at a line end, and every gnuplot script keeps the input's
 * text inside single-quoted strings (issue 13: a cell ran commands). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "plot.h"
#include "results.h"

const char *const ft_fuzz_name = "results";

/* Aborts unless every line of the gnuplot script `text` closes its
 * single-quoted strings ('' is a quote inside one) and has, outside them
 * and before a '#' comment, no double quote, backquote or '@' (the ways
 * gnuplot runs commands or expands macros), nor any control character. */
static void check_script(const char *text) {
  bool in = false, comment = false;
  for (const char *c = text; *c; c++) {
    if (*c == '\n') {
      if (in || (comment && c > text && c[-1] == '\\'))
        abort(); /* an open string, or a comment continued by '\' */
      comment = false;
    } else if ((unsigned char)*c < 0x20 || *c == 0x7f) {
      abort();
    } else if (in && *c == '\'') {
      if (c[1] == '\'')
        c++;
      else
        in = false;
    } else if (!in && !comment) {
      if (strchr("\"`@", *c))
        abort();
      in = *c == '\'';
      comment = *c == '#';
    }
  }
  if (in)
    abort();
}

static void scripts(const struct ft_plot_set *set) {
  for (size_t i = 0; i < set->count; i++) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
      continue;
    ft_plot_script(out, &set->figs[i]);
    fclose(out);
    check_script(text);
    free(text);
  }
}

static void analyse(const struct ft_results *r) {
  struct ft_analysis a;
  struct ft_plot_set set;
  ft_analysis_build(r, &a);
  size_t rows = 0;
  for (size_t i = 0; i < a.count; i++)
    rows += a.groups[i].nrows;
  if (rows != r->count)
    abort();
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    ft_analysis_print_text(null, &a, "fuzz");
    ft_analysis_print_csv(null, &a);
    fclose(null);
  }
  ft_plot_build(&a, r, &set);
  scripts(&set);
  ft_plot_free(&set);
  ft_analysis_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct ft_results r = {0};
  char err[1024];
  size_t complete = 0;
  const char *text = (const char *)data;
  if (memchr(data, '\0', size))
    return 0; /* the loader refuses NUL bytes before parsing */
  int rc = ft_results_parse(text, size, "fuzz", &r, &complete, err, sizeof err);
  if (rc == 0) {
    if (complete > size || (complete && text[complete - 1] != '\n'))
      abort();
    for (size_t i = 0; i < r.count; i++)
      for (int c = 0; c < FT_COL_COUNT; c++)
        if (!r.rows[i].cell[c])
          abort();
    analyse(&r);
  } else if (rc != -1 || strncmp(err, "fuzz:", 5) != 0) {
    abort();
  }
  ft_results_free(&r);
  return 0;
}
