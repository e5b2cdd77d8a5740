/* Units of app_kind.c: which --app files are modules, executables or
 * neither, and the message for a program built for the other mode. */
#include <criterion/criterion.h>
#include <string.h>

#include "app_kind.h"

/* FT_TEST_MODULE: libsimgrid.so, a shared object without an interpreter,
 * like a module ftsimcc makes. This test binary is an executable. */
Test(app_kind, shared_object_without_interpreter_is_a_module) {
  cr_assert_eq(ft_app_kind_of(FT_TEST_MODULE), FT_APP_MODULE);
}

Test(app_kind, this_test_is_an_executable) {
  cr_assert_eq(ft_app_kind_of("/proc/self/exe"), FT_APP_EXECUTABLE);
}

Test(app_kind, text_and_missing_files_are_other) {
  cr_assert_eq(ft_app_kind_of(FT_TEST_TEXT), FT_APP_OTHER);
  cr_assert_eq(ft_app_kind_of("/nonexistent/app"), FT_APP_OTHER);
}

Test(app_kind, module_refused_in_reference_mode) {
  char err[512];
  cr_assert_eq(ft_app_check_kind(FT_TEST_MODULE, true, err, sizeof err), -1);
  cr_assert(strstr(err, "is a module for the simulator"), "%s", err);
  cr_assert_eq(ft_app_check_kind(FT_TEST_MODULE, false, err, sizeof err), 0);
}

Test(app_kind, executable_refused_when_simulated) {
  char err[512];
  cr_assert_eq(ft_app_check_kind("/proc/self/exe", false, err, sizeof err), -1);
  cr_assert(strstr(err, "not a module smpirun can load"), "%s", err);
  cr_assert_eq(ft_app_check_kind("/proc/self/exe", true, err, sizeof err), 0);
}

Test(app_kind, scripts_pass_either_way) {
  char err[512];
  cr_assert_eq(ft_app_check_kind(FT_TEST_TEXT, false, err, sizeof err), 0);
  cr_assert_eq(ft_app_check_kind(FT_TEST_TEXT, true, err, sizeof err), 0);
}
