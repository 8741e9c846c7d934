/*
 * test_build.c - the build cache's count of compiler warnings
 * (build_count_warnings, backends/build.h), on gcc's output and on real
 * nvcc 13.0 output captured into tests/fixtures/nvcc/ (its front end's
 * "FILE(L): warning #N-D:" lines, repeated for the host and device passes,
 * and ptxas's "ptxas warning :" lines), and what build_run leaves in the
 * build's info for the run record.  Runs from the repository root (make
 * test-unit).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backends/build.h"
#include "base/util.h"

static char *fixture(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("tests/fixtures/nvcc/%s", name);
	assert_int_equal(read_file(path, &sb), 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

/* gcc's two warnings for a kernel that forgot <string.h> (issue 23), with
 * the source lines and notes gcc prints around them */
static void test_gcc(void **state)
{
	(void)state;
	const char *log =
		"kernels/k.c: In function 'launch':\n"
		"kernels/k.c:9:9: warning: implicit declaration of function 'memset' [-Wimplicit-function-declaration]\n"
		"    9 |         memset(o, 0, n);\n"
		"      |         ^~~~~~\n"
		"kernels/k.c:2:1: note: include '<string.h>' or provide a declaration of 'memset'\n"
		"kernels/k.c:9:9: warning: incompatible implicit declaration of built-in function 'memset' "
		"[-Wbuiltin-declaration-mismatch]\r\n"
		"   12 |  puts(\"x.c:1:1: warning: not a warning, a source line\");\n"
		"cc1: warning: command-line option '-std=c++11' is valid for C++ but not for C\n";
	char *first;
	assert_int_equal(build_count_warnings(log, &first), 3);
	assert_string_equal(first, "kernels/k.c:9:9: warning: implicit declaration of function 'memset' "
				   "[-Wimplicit-function-declaration]");
	free(first);
}

static void test_none(void **state)
{
	(void)state;
	char *first = (char *)"x";
	assert_int_equal(build_count_warnings("", &first), 0);
	assert_null(first);
	assert_int_equal(build_count_warnings(NULL, &first), 0);
	assert_null(first);
	/* errors and ptxas's report are no warnings */
	char *log = fixture("syntax-error.log");
	assert_int_equal(build_count_warnings(log, &first), 0);
	assert_null(first);
	free(log);
	log = fixture("spill-sm90.log");
	assert_int_equal(build_count_warnings(log, &first), 0);
	free(log);
	const char *werror = "k.c:3:5: error: unused variable 'x' [-Werror=unused-variable]\n"
			     "cc1: all warnings being treated as errors\n";
	assert_int_equal(build_count_warnings(werror, &first), 0);
	assert_null(first);
}

/* nvcc repeats its front end's warnings (host pass, device pass): each
 * counts once; the host compiler's own warning is one more */
static void test_nvcc(void **state)
{
	(void)state;
	char *log = fixture("warnings-sm90.log");
	char *first;
	assert_int_equal(build_count_warnings(log, &first), 4);
	assert_string_equal(first, "warns.cu(6): warning #69-D: integer conversion resulted in truncation");
	free(first);
	free(log);
	log = fixture("ptxas-warn-spills-sm90.log");
	assert_int_equal(build_count_warnings(log, &first), 2);
	assert_string_equal(first,
			    "ptxas warning : For profile sm_90 adjusting per thread register count of 16 to lower "
			    "bound of 24");
	free(first);
	free(log);
}

static void test_long_line(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "t.cu(1): warning #1-D: ");
	for (int i = 0; i < 100; i++)
		strbuf_addstr(&sb, "template ");
	char *first;
	assert_int_equal(build_count_warnings(strbuf_str(&sb), &first), 1);
	assert_int_equal(strlen(first), 300);
	assert_string_equal(first + 297, "...");
	free(first);
	strbuf_release(&sb);
}

static void test_info(void **state)
{
	(void)state;
	const char *first = "x";
	json_t *info = json_pack("{s:{s:i, s:s}}", "warnings", "count", 2, "first", "k.c:1:1: warning: w");
	assert_int_equal(build_info_warnings(info, &first), 2);
	assert_string_equal(first, "k.c:1:1: warning: w");
	json_decref(info);
	info = json_object(); /* a cache entry from before warnings were counted */
	assert_int_equal(build_info_warnings(info, &first), 0);
	assert_null(first);
	json_decref(info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_nvcc),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_info),
	};
	return cmocka_run_group_tests_name("build", tests, NULL, NULL);
}
