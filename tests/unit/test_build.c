/*
 * test_build.c - the build cache's count of compiler warnings
 * (build_count_warnings, backends/build.h), on gcc's output and on real
 * nvcc 13.0 output captured into tests/fixtures/nvcc/ (its front end's
 * "FILE(L): warning #N-D:" lines, repeated for the host and device passes,
 * and ptxas's "ptxas warning :" lines), what build_run leaves in the
 * build's info for the run record, and build_run's race with another
 * runner that publishes the same key first.  Runs from the repository
 * root (make test-unit).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ---- the race to publish a cache entry ----------------------------------- */

static const char *const race_flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", NULL };
static const struct build_request *race_rq;

/* The other runner: while this one's compile sits in its temporary
 * directory (the recipe's post hook runs there), it builds and publishes
 * the same key, as a plain build (no hook, the same key). */
static int publish_first(const char *tmpdir, const char *log, json_t *info)
{
	(void)tmpdir;
	(void)log;
	(void)info;
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version" };
	struct build_result res = { 0 };
	assert_int_equal(build_run(race_rq, &r, &res), 0);
	assert_true(res.ok);
	assert_true(json_is_false(json_object_get(res.info, "cached")));
	build_result_release(&res);
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The entries of dir, less . and .. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/*
 * Another runner publishes the key first (t0034's four writers race for it
 * now and then, so only some runs of that test reach this): the rename
 * into place fails, this build's directory is removed, and it takes the
 * published entry whole, its object and its info (a compiler need not be
 * bit-for-bit reproducible), recorded as not cached: it was compiled for
 * this run.  The next build of the key is a cache hit of that entry.
 */
static void test_publish_race(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-build-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root);
	char *src = xstrfmt("%s/kernels/k.c", root);
	char *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("int evident_k(void) { return 1; }\n", f);
	assert_int_equal(fclose(f), 0);
	struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
	race_rq = &rq;
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version",
				  .post = publish_first };
	struct build_result res = { 0 };
	assert_int_equal(build_run(&rq, &r, &res), 0);
	assert_true(res.ok);
	assert_true(json_is_false(json_object_get(res.info, "cached")));
	assert_string_equal(json_string_value(json_object_get(res.info, "status")), "ok");
	/* the published entry's object, and nothing else left in the cache */
	assert_int_equal(count_entries(cache), 1);
	char *entry = xstrfmt("%s/%s", cache, json_string_value(json_object_get(res.info, "build_key")));
	char *so = xstrfmt("%s/kernel.so", entry);
	assert_string_equal(res.so_path, so);
	build_result_release(&res);
	/* the next build of the key: a hit of that entry */
	r.post = NULL;
	struct build_result again = { 0 };
	assert_int_equal(build_run(&rq, &r, &again), 0);
	assert_true(again.ok);
	assert_true(json_is_true(json_object_get(again.info, "cached")));
	assert_string_equal(again.so_path, so);
	build_result_release(&again);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(so);
	free(entry);
	free(cache);
	free(src);
	free(kdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_nvcc),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_publish_race),
	};
	return cmocka_run_group_tests_name("build", tests, NULL, NULL);
}
