/* The static registry of protocol cores, selected by name. */
#include "ft_protocol.h"

#include <string.h>

extern const struct ft_protocol_ops ft_protocol_none;
extern const struct ft_protocol_ops ft_protocol_pcl;
extern const struct ft_protocol_ops ft_protocol_vcl;
extern const struct ft_protocol_ops ft_protocol_pessimist;
extern const struct ft_protocol_ops ft_protocol_v2;

static const struct ft_protocol_ops *const registry[] = {
    &ft_protocol_none,
    &ft_protocol_pcl,
    &ft_protocol_vcl,
    &ft_protocol_pessimist,
    &ft_protocol_v2,
};

const struct ft_protocol_ops *ft_protocol_at(size_t i) {
  return i < sizeof registry / sizeof registry[0] ? registry[i] : NULL;
}

const struct ft_protocol_ops *ft_protocol_find(const char *name) {
  for (size_t i = 0; name && ft_protocol_at(i); i++)
    if (strcmp(ft_protocol_at(i)->name, name) == 0)
      return registry[i];
  return NULL;
}
