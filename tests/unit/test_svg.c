/*
 * test_svg.c - the SVG figures: nice ticks, XML escaping of labels, and
 * byte-identical output for the same input (figures are committed and
 * 'make paper' must not rewrite them); the line plot's log2 axis, panels,
 * legend and broken lines.
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

/* svg_lines: a panel per entry, ticks at powers of two, a marker per
 * point and per legend entry, a NaN breaking its series' line. */
static void test_lines(void **state)
{
	(void)state;
	const char *const series[] = { "mma", "a<b" };
	double x64[] = { 512, 1024, 2048, 4096 }, y64[] = { 100, 200, NAN, 400, /* a<b */ 50, 60, 70, 80 };
	double x128[] = { 4096 }, y128[] = { 300, NAN };
	struct svg_panel p[] = { { "D=64", x64, 4, y64 }, { "D=128", x128, 1, y128 } };
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	svg_lines(&x, "t", "sub", "S", "TFLOP/s", series, 2, p, 2, 1);
	svg_lines(&y, "t", "sub", "S", "TFLOP/s", series, 2, p, 2, 1);
	assert_string_equal(x.buf, y.buf);
	assert_null(strstr(x.buf, "nan"));
	assert_non_null(strstr(x.buf, ">D=64<"));
	assert_non_null(strstr(x.buf, ">D=128<"));
	assert_non_null(strstr(x.buf, "a&lt;b"));
	for (const char *t = ">512<\0>1024<\0>2048<\0>4096<\0"; *t; t += strlen(t) + 1)
		assert_non_null(strstr(x.buf, t));
	assert_null(strstr(x.buf, ">768<")); /* powers of two only */
	/* lines: mma's 512-1024 (broken at 2048; 4096 alone is no line), a<b's
	 * four points; none in the D=128 panel (one point each) */
	size_t lines = 0, marks = 0;
	for (const char *s = x.buf; (s = strstr(s, "<polyline")); s++)
		lines++;
	for (const char *s = x.buf; (s = strstr(s, "<circle")); s++)
		marks++;
	assert_int_equal(lines, 2);
	assert_int_equal(marks, 3 + 1 + 1); /* mma's points and its legend entry */
	strbuf_release(&x);
	strbuf_release(&y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_deterministic_and_escaped),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
