/* Listings of protocols, platforms and workloads (see listing.h). */
#include "listing.h"

#include <stdbool.h>
#include <string.h>

#include "ft_protocol.h"

void ft_listing_protocols(FILE *out) {
  int width = 0;
  for (size_t i = 0; ft_protocol_at(i); i++) {
    int n = (int)strlen(ft_protocol_at(i)->name);
    width = n > width ? n : width;
  }
  for (size_t i = 0; ft_protocol_at(i); i++)
    fprintf(out, "%-*s  %-15s  %s\n", width, ft_protocol_at(i)->name,
            ft_family_name(ft_protocol_at(i)->family),
            ft_protocol_at(i)->summary);
}

int ft_listing_platforms(FILE *out, const struct ft_dirs *dirs) {
  struct ft_strv names = FT_STRV_INIT;
  ft_paths_list_platforms(dirs, &names);
  for (size_t i = 0; i < names.count; i++)
    fprintf(out, "%-12s %s/platforms/%s.xml\n", names.items[i], dirs->source,
            names.items[i]);
  if (names.count == 0)
    fprintf(stderr, "ftsim: no platform in %s/platforms\n", dirs->source);
  int rc = names.count ? 0 : 1;
  ft_strv_free(&names);
  return rc;
}

static bool contains(const struct ft_strv *v, const char *s) {
  for (size_t i = 0; i < v->count; i++)
    if (strcmp(v->items[i], s) == 0)
      return true;
  return false;
}

int ft_listing_apps(FILE *out, const struct ft_dirs *dirs) {
  struct ft_strv sim = FT_STRV_INIT, real = FT_STRV_INIT, all = FT_STRV_INIT;
  ft_paths_list_apps(dirs, false, &sim);
  ft_paths_list_apps(dirs, true, &real);
  for (size_t i = 0; i < sim.count; i++)
    ft_strv_push(&all, sim.items[i]);
  for (size_t i = 0; i < real.count; i++)
    if (!contains(&all, real.items[i]))
      ft_strv_push(&all, real.items[i]);
  ft_strv_sort(&all, strcmp);
  for (size_t i = 0; i < all.count; i++)
    fprintf(out, "%-12s %s%s\n", all.items[i],
            contains(&sim, all.items[i]) ? "simulated " : "",
            contains(&real, all.items[i]) ? "real" : "");
  if (all.count == 0)
    fprintf(stderr, "ftsim: no workload built in %s/apps/{smpi,real}\n",
            dirs->build);
  int rc = all.count ? 0 : 1;
  ft_strv_free(&sim);
  ft_strv_free(&real);
  ft_strv_free(&all);
  return rc;
}
