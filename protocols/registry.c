/* The static registry of protocol cores, selected by name. */
#include "ft_protocol.h"

#include <string.h>

extern const struct ft_protocol_ops ft_protocol_none;
extern const struct ft_protocol_ops ft_protocol_pcl;
extern const struct ft_protocol_ops ft_protocol_vcl;
extern const struct ft_protocol_ops ft_protocol_pessimist;
extern const struct ft_protocol_ops ft_protocol_v2;
extern const struct ft_protocol_ops ft_protocol_bookmark;
extern const struct ft_protocol_ops ft_protocol_c3;

static const struct ft_protocol_ops *const registry[] = {
    &ft_protocol_none,      &ft_protocol_pcl, &ft_protocol_vcl,
    &ft_protocol_pessimist, &ft_protocol_v2,  &ft_protocol_bookmark,
    &ft_protocol_c3,
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

static const char *const family_names[FT_FAMILY_COUNT] = {
    [FT_FAMILY_NONE] = "none",
    [FT_FAMILY_COORDINATED] = "coordinated",
    [FT_FAMILY_CHANNEL_STATE] = "channel_state",
    [FT_FAMILY_MESSAGE_LOGGING] = "message_logging",
    [FT_FAMILY_PIGGYBACK] = "piggyback",
    [FT_FAMILY_DRAIN] = "drain",
};

const char *ft_family_name(enum ft_family family) {
  return (unsigned)family < FT_FAMILY_COUNT ? family_names[family] : NULL;
}

int ft_family_parse(const char *name, enum ft_family *out) {
  for (int f = 0; name && f < FT_FAMILY_COUNT; f++)
    if (strcmp(family_names[f], name) == 0) {
      *out = (enum ft_family)f;
      return 0;
    }
  return -1;
}

const struct ft_protocol_ops *ft_protocol_find(const char *name) {
  for (size_t i = 0; name && ft_protocol_at(i); i++)
    if (strcmp(ft_protocol_at(i)->name, name) == 0)
      return ft_protocol_at(i);
  return NULL;
}

/* The first registered protocol of `family` that names control kinds. */
static const struct ft_protocol_ops *family_controls(enum ft_family family) {
  for (size_t i = 0; ft_protocol_at(i); i++)
    if (ft_protocol_at(i)->family == family && ft_protocol_at(i)->controls)
      return ft_protocol_at(i);
  return NULL;
}

const char *ft_control_name(enum ft_family family, int kind) {
  const struct ft_protocol_ops *p = family_controls(family);
  if (!p || kind < 1 || (size_t)kind >= p->n_controls)
    return NULL;
  return p->controls[kind];
}

int ft_control_parse(enum ft_family family, const char *name, int *kind) {
  const struct ft_protocol_ops *p = family_controls(family);
  for (size_t k = 1; p && name && k < p->n_controls; k++)
    if (p->controls[k] && strcmp(p->controls[k], name) == 0) {
      *kind = (int)k;
      return 0;
    }
  return -1;
}

/* Appends `text` at buf + at, within len (NUL kept); returns the new at. */
static size_t append(char *buf, size_t len, size_t at, const char *text) {
  size_t n = strlen(text);
  if (at < len) {
    size_t room = len - at - 1;
    memcpy(buf + at, text, n < room ? n : room);
    buf[at + (n < room ? n : room)] = '\0';
  }
  return at + n;
}

size_t ft_protocol_recovering_names(char *buf, size_t len, const char *sep,
                                    const char *last) {
  size_t total = 0, at = 0;
  for (size_t i = 0; ft_protocol_at(i); i++)
    total += ft_protocol_recovers(ft_protocol_at(i));
  if (len)
    buf[0] = '\0';
  for (size_t i = 0, k = 0; ft_protocol_at(i); i++) {
    if (!ft_protocol_recovers(ft_protocol_at(i)))
      continue;
    if (k > 0)
      at = append(buf, len, at, k + 1 == total ? last : sep);
    at = append(buf, len, at, ft_protocol_at(i)->name);
    k++;
  }
  return at;
}
