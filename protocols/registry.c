/* The static registry of protocol cores, selected by name. */
#include "ft_protocol.h"

#include <string.h>

extern const struct ft_protocol_ops ft_protocol_none;
extern const struct ft_protocol_ops ft_protocol_pcl;
extern const struct ft_protocol_ops ft_protocol_vcl;
extern const struct ft_protocol_ops ft_protocol_pessimist;
extern const struct ft_protocol_ops ft_protocol_v2;

static const struct ft_protocol_ops *const registry[] = {
    &ft_protocol_none,      &ft_protocol_pcl, &ft_protocol_vcl,
    &ft_protocol_pessimist, &ft_protocol_v2,
};

/* Test-only variants with deliberate bugs (protocols/bugs/bugs.c): only
 * test programs that compile that file define this; elsewhere it is NULL. */
__attribute__((weak)) const struct ft_protocol_ops *
ft_protocol_test_variant(size_t i);

const struct ft_protocol_ops *ft_protocol_at(size_t i) {
  enum { N = sizeof registry / sizeof registry[0] };
  if (i < N)
    return registry[i];
  return ft_protocol_test_variant ? ft_protocol_test_variant(i - N) : NULL;
}

const struct ft_protocol_ops *ft_protocol_find(const char *name) {
  for (size_t i = 0; name && ft_protocol_at(i); i++)
    if (strcmp(ft_protocol_at(i)->name, name) == 0)
      return ft_protocol_at(i);
  return NULL;
}
