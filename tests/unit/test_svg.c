/*
 * test_svg.c - the SVG figures: nice ticks, XML escaping of labels, and
 * byte-identical output for the same input (figures are committed and
 * 'make paper' must not rewrite them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "report/svg.h"

static void test_ticks(void **state)
{
	(void)state;
	double t[16];
	size_t n = svg_ticks(11000, 19500, 8, t);
	assert_true(n >= 4 && n <= 8);
	assert_true(fabs(t[0] - 12000) < 1e-9);
	assert_true(fabs(t[1] - t[0] - 2000) < 1e-9);
	n = svg_ticks(0.95, 1.4, 8, t);
	assert_true(fabs(t[0] - 1.0) < 1e-9 && fabs(t[1] - 1.1) < 1e-9);
}

static void test_deterministic_and_escaped(void **state)
{
	(void)state;
	double a[] = { 3, 1, 2, 10 }, b[] = { 5, 4 };
	struct svg_series s[] = { { "a<b & \"c\"", a, 4 }, { "b", b, 2 }, { "none", NULL, 0 } };
	struct svg_interval iv[] = { { "x", 1.2, 1.1, 1.3, "faster" }, { "y", NAN, NAN, NAN, NULL } };
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	svg_ecdf(&x, "t", "sub", "us", s, 3);
	svg_ecdf(&y, "t", "sub", "us", s, 3);
	assert_string_equal(x.buf, y.buf);
	assert_non_null(strstr(x.buf, "a&lt;b &amp; &quot;c&quot; (median 2.50, n=4)"));
	assert_non_null(strstr(x.buf, "none (no samples)"));
	assert_null(strstr(x.buf, "nan"));
	strbuf_reset(&x);
	svg_box(&x, "t", NULL, "us", s, 3);
	assert_non_null(strstr(x.buf, "<circle")); /* 10 is an outlier */
	assert_non_null(strstr(x.buf, "</svg>\n"));
	strbuf_reset(&x);
	svg_forest(&x, "t", NULL, "speedup", iv, 2, 1.0);
	assert_non_null(strstr(x.buf, "stroke-dasharray"));
	assert_null(strstr(x.buf, "nan"));
	strbuf_release(&x);
	strbuf_release(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_deterministic_and_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
