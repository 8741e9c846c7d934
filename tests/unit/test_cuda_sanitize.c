/*
 * test_cuda_sanitize.c - sanitizer verdicts without a GPU: summary lines
 * of real compute-sanitizer 2025 reports (captured on the H100), the
 * verdict when compute-sanitizer is missing, unknown tools, and the cuda
 * backend's probe on a machine without a driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/sanitize.h"
#include "base/util.h"

static void test_count_errors(void **state)
{
	assert_int_equal(sanitize_count_errors("========= ERROR SUMMARY: 0 errors\n"), 0);
	assert_int_equal(sanitize_count_errors(
				 "========= Invalid __global__ write of size 2 bytes\n"
				 "========= ERROR SUMMARY: 1887 errors\n"
				 "========= ERROR SUMMARY: 1837 errors were not printed. Use --print-limit "
				 "option to adjust the number of printed errors\n"),
			 1887);
	assert_int_equal(sanitize_count_errors("========= RACECHECK SUMMARY: 1 hazard displayed "
					       "(1 error, 0 warnings)\n"),
			 1);
	assert_int_equal(sanitize_count_errors("========= RACECHECK SUMMARY: 0 hazards displayed "
					       "(0 errors, 0 warnings)\n"),
			 0);
	assert_int_equal(sanitize_count_errors("the worker crashed before any summary\n"), -1);
}

static void test_missing_sanitizer(void **state)
{
	const char *argv[] = { "/bin/true", NULL };
	json_t *v = NULL;
	char *old_path = xstrdup(getenv("PATH") ? getenv("PATH") : "");
	char *old_home = getenv("CUDA_HOME") ? xstrdup(getenv("CUDA_HOME")) : NULL;

	if (access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0 ||
	    access("/usr/local/cuda/compute-sanitizer/compute-sanitizer", X_OK) == 0) {
		free(old_path);
		free(old_home);
		skip(); /* the fixed fallback location exists: cannot hide it */
	}
	setenv("PATH", "/nonexistent", 1);
	setenv("CUDA_HOME", "/nonexistent", 1);
	assert_int_equal(sanitize_run("memcheck", argv, NULL, NULL, 10, &v), 0);
	assert_non_null(v);
	assert_string_equal(json_string_value(json_object_get(v, "tool")), "memcheck");
	assert_true(json_is_null(json_object_get(v, "passed")));
	assert_non_null(strstr(json_string_value(json_object_get(v, "reason")),
			       "compute-sanitizer not found"));
	json_decref(v);
	setenv("PATH", old_path, 1);
	if (old_home)
		setenv("CUDA_HOME", old_home, 1);
	else
		unsetenv("CUDA_HOME");
	free(old_path);
	free(old_home);
}

static void test_unknown_tool(void **state)
{
	const char *argv[] = { "/bin/true", NULL };
	json_t *v = (json_t *)1;
	util_quiet = 1;
	assert_int_equal(sanitize_run("leakcheck", argv, NULL, NULL, 10, &v), -1);
	util_quiet = 0;
	assert_null(v);
	assert_true(sanitize_tool_known("racecheck"));
	assert_false(sanitize_tool_known(NULL));
}

static void test_probe_without_driver(void **state)
{
	struct strbuf why = STRBUF_INIT;
	void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (drv) {
		dlclose(drv);
		skip(); /* a driver is installed: the GPU tests cover this machine */
	}
	assert_int_equal(backend_cuda.probe(&why), -1);
	assert_string_equal(why.buf, "no CUDA driver (libcuda.so.1 not found)");
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_errors),
		cmocka_unit_test(test_missing_sanitizer),
		cmocka_unit_test(test_unknown_tool),
		cmocka_unit_test(test_probe_without_driver),
	};
	return cmocka_run_group_tests_name("cuda_sanitize", tests, NULL, NULL);
}
