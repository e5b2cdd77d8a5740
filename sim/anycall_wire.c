/* The any-call transport's pure parts (anycall_wire.h). */
#include "anycall_wire.h"

#include <stdlib.h>
#include <string.h>

enum { MSG_WORDS = 6 };

static const uint32_t CC_MASK = (1u << FT_AC_CC_BITS) - 1;

int64_t ft_ac_wire_max_tag(uint32_t comms, int64_t tag_ub) {
  if (comms == 0 || tag_ub < 0)
    return -1;
  int64_t spaces = 2 * (int64_t)comms;
  return (tag_ub >> FT_AC_CC_BITS) / spaces - 1;
}

int ft_ac_wire_fits(int64_t max_tag, uint32_t comms, int64_t tag_ub) {
  return max_tag >= 0 && max_tag <= ft_ac_wire_max_tag(comms, tag_ub);
}

int ft_ac_wire_encode(int32_t nspace, int32_t space, int32_t tag, uint32_t cc) {
  int64_t t = ((int64_t)tag * nspace + space) << FT_AC_CC_BITS;
  return (int)(t | (int64_t)(cc & CC_MASK));
}

void ft_ac_wire_decode(int32_t nspace, int wire, int32_t *space, int32_t *tag,
                       uint32_t *cc) {
  int32_t rest = (int32_t)((uint32_t)wire >> FT_AC_CC_BITS);
  *space = rest % nspace;
  *tag = rest / nspace;
  *cc = (uint32_t)wire & CC_MASK;
}

int ft_ac_cc_ahead(uint32_t cc, uint32_t got) {
  uint32_t d = (cc - got) & CC_MASK;
  return d != 0 && d < (1u << (FT_AC_CC_BITS - 1));
}

int ft_ac_msgs_push(struct ft_ac_msgs *l, const struct ft_ac_msg *m) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    struct ft_ac_msg *v = realloc(l->v, cap * sizeof *v);
    if (!v)
      return -1;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *m;
  return 0;
}

void ft_ac_msgs_take(struct ft_ac_msgs *l, size_t i) {
  memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
  l->n--;
}

void ft_ac_msgs_free(struct ft_ac_msgs *l) {
  free(l->v);
  *l = (struct ft_ac_msgs){0};
}

ptrdiff_t ft_ac_msgs_match(const struct ft_ac_msgs *l, int32_t peer,
                           int32_t space, int32_t tag) {
  for (size_t i = 0; i < l->n; i++)
    if ((peer < 0 || l->v[i].peer == peer) && l->v[i].space == space &&
        (tag < 0 || l->v[i].tag == tag))
      return (ptrdiff_t)i;
  return -1;
}

ptrdiff_t ft_ac_msgs_find(const struct ft_ac_msgs *l, int32_t peer,
                          int32_t space, int32_t tag) {
  return peer < 0 || tag < 0 ? -1 : ft_ac_msgs_match(l, peer, space, tag);
}

size_t ft_ac_msgs_size(const struct ft_ac_msgs *l) {
  return 8 * (1 + MSG_WORDS * l->n);
}

static void put64(unsigned char **p, int64_t v) {
  memcpy(*p, &v, sizeof v);
  *p += sizeof v;
}

static int get64(const unsigned char **p, const unsigned char *end,
                 int64_t *v) {
  if (end - *p < (ptrdiff_t)sizeof *v)
    return -1;
  memcpy(v, *p, sizeof *v);
  *p += sizeof *v;
  return 0;
}

void ft_ac_msgs_write(const struct ft_ac_msgs *l, unsigned char **p) {
  put64(p, (int64_t)l->n);
  for (size_t i = 0; i < l->n; i++) {
    const struct ft_ac_msg *m = &l->v[i];
    put64(p, m->peer), put64(p, m->space), put64(p, m->tag);
    put64(p, (int64_t)m->bytes), put64(p, m->number), put64(p, m->seq);
  }
}

static int read_msg(const unsigned char **p, const unsigned char *end,
                    struct ft_ac_msg *m) {
  int64_t w[MSG_WORDS];
  for (int k = 0; k < MSG_WORDS; k++)
    if (get64(p, end, &w[k]))
      return -1;
  *m = (struct ft_ac_msg){.peer = (int32_t)w[0],
                          .space = (int32_t)w[1],
                          .tag = (int32_t)w[2],
                          .bytes = (uint64_t)w[3],
                          .number = w[4],
                          .seq = w[5]};
  return 0;
}

int ft_ac_msgs_read(struct ft_ac_msgs *l, const unsigned char **p,
                    const unsigned char *end) {
  int64_t n;
  if (get64(p, end, &n) || n < 0 || n > (end - *p) / (8 * MSG_WORDS))
    return -1;
  for (int64_t i = 0; i < n; i++) {
    struct ft_ac_msg m;
    if (read_msg(p, end, &m) || ft_ac_msgs_push(l, &m))
      return -1;
  }
  return 0;
}
