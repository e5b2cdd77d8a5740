/* Fuzz target: sweep files (sim/cli/sweep_file.c) and their expansion
 * into points (sweep_points.c). Invariants: 0 or -1; on -1 a message
 * naming the input ("fuzz/s.txt") and an empty sweep; on 0 every point has
 * all its parameters, and a scenario and run arguments can be built. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_file.h"
#include "sweep_points.h"

const char *const ft_fuzz_name = "sweep_file";

static void points(const struct ft_sweep *s) {
  struct ft_points p = {0};
  ft_points_expand(s, &p);
  for (size_t i = 0; i < p.count && i < 64; i++) {
    for (int c = 0; c < FT_COL_NPARAMS; c++)
      if (!p.items[i].param[c])
        abort();
    char text[8192];
    struct ft_strv argv = FT_STRV_INIT;
    ft_point_scenario(s, &p.items[i], text, sizeof text);
    ft_point_run_args(s, &p.items[i], "x", &argv);
    ft_strv_free(&argv);
  }
  ft_points_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1), err[1024];
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  struct ft_sweep s;
  /* check_traces 0: a fuzzed path must not read the machine's files */
  int rc = ft_sweep_parse(text, "fuzz/s.txt", 0, &s, err, sizeof err);
  if (rc == 0)
    points(&s);
  else if (rc != -1 || strncmp(err, "fuzz/s.txt", 10) != 0 ||
           s.axis[FT_AXIS_PROTOCOL].count)
    abort();
  ft_sweep_free(&s);
  free(text);
  return 0;
}
