/* Located error messages (sim/errmsg.h): the prefixes every parser's
 * messages start with, byte for byte, and safe truncation. */
#include "errmsg.h"

#include <criterion/criterion.h>
#include <string.h>

static int say_line(char *err, size_t errlen, const char *name, long line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int say_line(char *err, size_t errlen, const char *name, long line,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = ft_errmsg_line_v(err, errlen, name, line, NULL, fmt, ap);
  va_end(ap);
  return rc;
}

Test(errmsg, a_line_and_a_field_prefix_the_text) {
  char err[128];
  cr_assert_eq(
      ft_errmsg(err, sizeof err, "sw.txt", 3, "apps", "%s: no trace", "@x"),
      -1);
  cr_assert_str_eq(err, "sw.txt:3: field 'apps': @x: no trace");
  ft_errmsg(err, sizeof err, "sw.txt", 0, NULL, "cannot open");
  cr_assert_str_eq(err, "sw.txt: cannot open");
}

/* The rank records' and TI traces' readers name line 0 (README: "rank 3:
 * DIR/rank.3:0: cannot open the rank's record ..."). */
Test(errmsg, line_v_names_line_zero) {
  char err[128];
  cr_assert_eq(say_line(err, sizeof err, "DIR/rank.3", 0, "cannot open %s",
                        "the rank's record"),
               -1);
  cr_assert_str_eq(err, "DIR/rank.3:0: cannot open the rank's record");
  say_line(err, sizeof err, "ring.ti", 12, "action '%s': field '%s' missing",
           "send", "tag");
  cr_assert_str_eq(err, "ring.ti:12: action 'send': field 'tag' missing");
}

Test(errmsg, a_short_buffer_is_cut_and_terminated) {
  char err[8];
  memset(err, 'x', sizeof err);
  say_line(err, 6, "abcdef", 7, "text");
  cr_assert_str_eq(err, "abcde");
  cr_assert_eq(err[6], 'x');
  memset(err, 'x', sizeof err);
  ft_errmsg(err, 7, "ab", 1, "fld", "text");
  cr_assert_str_eq(err, "ab:1: ");
  cr_assert_eq(ft_errmsg(err, 0, "ab", 1, NULL, "text"), -1);
}
