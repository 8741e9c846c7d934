/*
 * test_elf.c - base/elf.c: an object's dynamic section read as data (the
 * libraries it names, no loader asked), its interpreter, and a file that
 * is not ELF refused with a reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/elf.h"

/* this test's own executable: it needs libc and cmocka, has a loader */
static void test_own_executable(void **state)
{
	(void)state;
	struct elf_dyn d;
	char *why = NULL;
	assert_int_equal(elf_dyn_read("/proc/self/exe", &d, &why), 0);
	assert_null(why);
	int libc = 0, cmocka = 0;
	for (char **n = d.needed; *n; n++) {
		libc += !strcmp(*n, "libc.so.6");
		cmocka += !strncmp(*n, "libcmocka.so", 12);
	}
	assert_int_equal(libc, 1);
	assert_int_equal(cmocka, 1);
	assert_null(d.hook);
	elf_dyn_release(&d);
	char *interp = elf_interp("/proc/self/exe");
	assert_non_null(interp);
	assert_true(interp[0] == '/');
	free(interp);
	assert_null(elf_refuse_hooks("/proc/self/exe"));
}

/* not ELF: -1 and why; no interpreter; nothing to refuse */
static void test_not_elf(void **state)
{
	(void)state;
	struct elf_dyn d;
	char *why = NULL;
	assert_int_equal(elf_dyn_read("/proc/self/status", &d, &why), -1);
	assert_non_null(why);
	free(why);
	assert_null(elf_interp("/proc/self/status"));
	why = NULL;
	assert_int_equal(elf_dyn_read("/nonexistent/x.so", &d, &why), -1);
	assert_non_null(strstr(why, "cannot open"));
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_executable),
		cmocka_unit_test(test_not_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
