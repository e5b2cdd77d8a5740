/* The any-call transport's pure parts (sim/anycall_wire.h): the wire tag,
 * the channel-order rule, matching, and message lists in images. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "anycall_wire.h"

Test(anycall_wire, tag_round_trip) {
  const int32_t nspace = 6; /* three communicators */
  for (int32_t space = 0; space < nspace; space++)
    for (int32_t tag = 0; tag < 3000; tag += 7)
      for (uint32_t cc = 0; cc < 600; cc += 97) {
        int wire = ft_ac_wire_encode(nspace, space, tag, cc);
        int32_t s2, t2;
        uint32_t c2;
        cr_assert_geq(wire, 0);
        ft_ac_wire_decode(nspace, wire, &s2, &t2, &c2);
        cr_assert_eq(s2, space);
        cr_assert_eq(t2, tag);
        cr_assert_eq(c2, cc % 256);
      }
}

Test(anycall_wire, largest_tag_fits_and_the_next_does_not) {
  int64_t ub = INT32_MAX;
  int64_t m = ft_ac_wire_max_tag(2, ub);
  cr_assert_eq(m, 2097150); /* ((2^31 - 1) >> 8) / 4 - 1 */
  cr_assert(ft_ac_wire_fits(m, 2, ub));
  cr_assert_not(ft_ac_wire_fits(m + 1, 2, ub));
  cr_assert_not(ft_ac_wire_fits(0, 0, ub));
  int wire = ft_ac_wire_encode(4, 3, (int32_t)m, 255);
  cr_assert_geq(wire, 0);
  int32_t s, t;
  uint32_t c;
  ft_ac_wire_decode(4, wire, &s, &t, &c);
  cr_assert(s == 3 && t == m && c == 255);
}

Test(anycall_wire, control_count_ahead_across_the_wrap) {
  cr_assert_not(ft_ac_cc_ahead(5, 5));
  cr_assert(ft_ac_cc_ahead(6, 5));
  cr_assert(ft_ac_cc_ahead(0, 255)); /* 256 sent, 255 received */
  cr_assert(ft_ac_cc_ahead(1, 254));
  cr_assert_not(ft_ac_cc_ahead(254, 255)); /* sent before the last one in */
  cr_assert_not(ft_ac_cc_ahead(255, 0));
}

static struct ft_ac_msg msg(int32_t peer, int32_t space, int32_t tag,
                            uint64_t bytes) {
  return (struct ft_ac_msg){
      .peer = peer, .space = space, .tag = tag, .bytes = bytes};
}

Test(anycall_wire, matching_takes_the_first_arrival_of_the_envelope) {
  struct ft_ac_msgs l = {0};
  struct ft_ac_msg m[] = {msg(1, 0, 7, 10), msg(2, 0, 7, 20), msg(1, 0, 7, 30),
                          msg(1, 1, 7, 40)};
  for (size_t i = 0; i < 4; i++)
    cr_assert_eq(ft_ac_msgs_push(&l, &m[i]), 0);
  cr_assert_eq(ft_ac_msgs_find(&l, 1, 0, 7), 0);
  ft_ac_msgs_take(&l, 0);
  cr_assert_eq(ft_ac_msgs_find(&l, 1, 0, 7), 1); /* the 30 bytes, in order */
  cr_assert_eq(l.v[1].bytes, 30);
  cr_assert_eq(ft_ac_msgs_find(&l, 1, 1, 7), 2); /* a collective's space */
  cr_assert_eq(ft_ac_msgs_find(&l, 3, 0, 7), -1);
  cr_assert_eq(ft_ac_msgs_find(&l, 2, 0, 8), -1);
  ft_ac_msgs_free(&l);
  cr_assert_null(l.v);
}

Test(anycall_wire, wildcard_matching_takes_the_first_arrival_that_fits) {
  struct ft_ac_msgs l = {0};
  struct ft_ac_msg m[] = {msg(2, 0, 5, 10), msg(1, 0, 7, 20), msg(1, 2, 9, 30),
                          msg(1, 0, 8, 40)};
  for (size_t i = 0; i < 4; i++)
    cr_assert_eq(ft_ac_msgs_push(&l, &m[i]), 0);
  cr_assert_eq(ft_ac_msgs_match(&l, -1, 0, -1), 0); /* any source, any tag */
  cr_assert_eq(ft_ac_msgs_match(&l, 1, 0, -1), 1);  /* any tag from 1 */
  cr_assert_eq(ft_ac_msgs_match(&l, -1, 0, 8), 3);  /* any source, tag 8 */
  cr_assert_eq(ft_ac_msgs_match(&l, -1, 2, -1), 2); /* another communicator */
  cr_assert_eq(ft_ac_msgs_match(&l, 3, 0, -1), -1);
  cr_assert_eq(ft_ac_msgs_find(&l, -1, 0, 5), -1); /* find has no wildcard */
  ft_ac_msgs_free(&l);
}

Test(anycall_wire, message_list_round_trip_and_truncation) {
  struct ft_ac_msgs l = {0}, back = {0};
  for (int i = 0; i < 5; i++) {
    struct ft_ac_msg m = msg(i, i % 2, 100 + i, (uint64_t)i * 1000);
    m.number = i + 1;
    m.seq = 40 + i;
    cr_assert_eq(ft_ac_msgs_push(&l, &m), 0);
  }
  size_t size = ft_ac_msgs_size(&l);
  unsigned char *buf = malloc(size), *w = buf;
  ft_ac_msgs_write(&l, &w);
  cr_assert_eq((size_t)(w - buf), size);
  const unsigned char *r = buf;
  cr_assert_eq(ft_ac_msgs_read(&back, &r, buf + size), 0);
  cr_assert_eq(r, buf + size);
  cr_assert_eq(back.n, 5);
  for (size_t i = 0; i < 5; i++)
    cr_assert(back.v[i].peer == l.v[i].peer &&
              back.v[i].space == l.v[i].space && back.v[i].tag == l.v[i].tag &&
              back.v[i].bytes == l.v[i].bytes &&
              back.v[i].number == l.v[i].number && back.v[i].seq == l.v[i].seq);
  struct ft_ac_msgs cut = {0};
  r = buf;
  cr_assert_eq(ft_ac_msgs_read(&cut, &r, buf + size - 1), -1);
  ft_ac_msgs_free(&cut);
  ft_ac_msgs_free(&back);
  ft_ac_msgs_free(&l);
  free(buf);
}
