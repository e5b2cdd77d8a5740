/* Unit tests of the workloads' option parser (apps/app_options.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "app_options.h"

struct values {
  int iters, flag;
  double tol;
  const char *name;
};

static enum app_parse_result parse(struct values *v, int argc, char **argv,
                                   char *err) {
  const struct app_opt opts[] = {
      {"iters", APP_OPT_INT, &v->iters, 1, 100, "N", "iterations"},
      {"tol", APP_OPT_DOUBLE, &v->tol, 0, 1, "T", "tolerance"},
      {"any-source", APP_OPT_FLAG, &v->flag, 0, 0, "", "a flag"},
      {"class", APP_OPT_STRING, &v->name, 0, 0, "C", "a name"},
  };
  return app_options_parse(opts, 4, argc, argv, err, 128);
}

Test(app_options, defaults_survive_no_arguments) {
  struct values v = {7, 0, 0.5, "A"};
  char *argv[] = {"prog"}, err[128];
  cr_assert_eq(parse(&v, 1, argv, err), APP_PARSE_RUN);
  cr_assert_eq(v.iters, 7);
  cr_assert_str_eq(v.name, "A");
}

Test(app_options, separate_and_joined_values) {
  struct values v = {7, 0, 0.5, "A"};
  char *argv[] = {"prog",         "--iters", "12", "--tol=1e-3",
                  "--any-source", "--class", "C"};
  char err[128];
  cr_assert_eq(parse(&v, 7, argv, err), APP_PARSE_RUN);
  cr_assert_eq(v.iters, 12);
  cr_assert_float_eq(v.tol, 1e-3, 1e-15);
  cr_assert_eq(v.flag, 1);
  cr_assert_str_eq(v.name, "C");
}

Test(app_options, help_wins) {
  struct values v = {7, 0, 0.5, "A"};
  char *argv[] = {"prog", "--iters", "3", "-h"}, err[128];
  cr_assert_eq(parse(&v, 4, argv, err), APP_PARSE_HELP);
}

static void expect_error(int argc, char **argv, const char *message) {
  struct values v = {7, 0, 0.5, "A"};
  char err[128] = "";
  cr_assert_eq(parse(&v, argc, argv, err), APP_PARSE_ERROR);
  cr_assert_str_eq(err, message);
}

Test(app_options, errors_name_the_option) {
  char *a[] = {"prog", "--iters", "x"};
  expect_error(3, a, "option --iters: 'x' is not an integer");
  char *b[] = {"prog", "--iters", "1000"};
  expect_error(3, b, "option --iters: 1000 is out of range [1, 100]");
  char *c[] = {"prog", "--tol=abc"};
  expect_error(2, c, "option --tol: 'abc' is not a number");
  char *d[] = {"prog", "--itres", "3"};
  expect_error(3, d, "unknown option '--itres'");
  char *e[] = {"prog", "--iters"};
  expect_error(2, e, "option --iters needs a value (N)");
  char *f[] = {"prog", "--any-source=1"};
  expect_error(2, f, "option --any-source takes no value");
  char *g[] = {"prog", "stray"};
  expect_error(2, g, "unexpected argument 'stray'");
  char *h[] = {"prog", "--iters", "3x"};
  expect_error(3, h, "option --iters: '3x' is not an integer");
}
