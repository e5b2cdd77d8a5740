/* Fuzz target: results CSVs (sim/cli/results.c), then what analyze and
 * plot compute from them (analyze.c, plot.c; no file is written).
 * Invariants: 0 or -1; on -1 a message naming the input; on 0 every row
 * has every cell, the analysis covers every row once, and the complete
 * length ends at a line end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "plot.h"
#include "results.h"

const char *const ft_fuzz_name = "results";

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
