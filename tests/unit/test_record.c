/*
 * test_record.c - unit tests of the record module's samples objects: the
 * text the writer stores reads back to the same doubles bit for bit (the
 * statistics of a batch and of every reader are computed from it), values
 * append to what is already read, and a damaged line is an error that names
 * it, never a value silently dropped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"

static void test_samples_round_trip(void **state)
{
	(void)state;
	double x[] = { 112.58, 0.1, 1.0 / 3.0, DBL_MIN, 1e300, -2.5, 123456789.123456789 };
	size_t nx = sizeof(x) / sizeof(x[0]);
	char *t = record_samples_text(x, nx, "CUPTI kernel time");
	assert_true(!strncmp(t, "# CUPTI kernel time, microseconds, one per line, in the order taken\n", 68));
	double *y = NULL;
	size_t n = 0, cap = 0;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(record_samples_parse(t, &y, &n, &cap, &why), 0);
	assert_int_equal(n, nx);
	assert_memory_equal(x, y, sizeof(x));
	/* a second object appends (the pooled samples of a variant's repeats) */
	assert_int_equal(record_samples_parse(t, &y, &n, &cap, &why), 0);
	assert_int_equal(n, 2 * nx);
	assert_memory_equal(x, y + nx, sizeof(x));
	assert_true(cap >= n);
	free(y);
	free(t);
	/* empty: no values, no error; no final newline still reads */
	y = NULL, n = 0, cap = 0;
	t = record_samples_text(NULL, 0, "samples");
	assert_int_equal(record_samples_parse(t, &y, &n, &cap, &why), 0);
	assert_int_equal(n, 0);
	free(t);
	assert_int_equal(record_samples_parse("# x\n\n1.5\n2", &y, &n, &cap, &why), 0);
	assert_int_equal(n, 2);
	assert_true(y[0] == 1.5 && y[1] == 2);
	free(y);
	strbuf_release(&why);
}

static void test_samples_damage_is_an_error(void **state)
{
	(void)state;
	const char *bad[] = { "# s\n1\nabc\n", "1\nnan\n", "inf\n", "1 2\n", "12abc\n", "1e999\n", "1,5\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double *y = NULL;
		size_t n = 0, cap = 0;
		struct strbuf why = STRBUF_INIT;
		assert_int_equal(record_samples_parse(bad[i], &y, &n, &cap, &why), -1);
		assert_non_null(strstr(strbuf_str(&why), "is not a number"));
		free(y);
		strbuf_release(&why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_round_trip),
		cmocka_unit_test(test_samples_damage_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
