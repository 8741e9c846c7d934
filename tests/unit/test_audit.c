/*
 * test_audit.c - the auditor against a hand-made store (deterministic, no
 * timing): number parsing, each claim kind's verdicts where real runs
 * cannot be relied on (no-difference supported), the CI / tolerance /
 * precision rules of value claims, and untraced numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/audit.h"
#include "store/store.h"

static char dir[] = "/tmp/evident-test-audit.XXXXXX";

static void put_variant(struct store *st, const char *id, const char *variant, const char *sha,
			const char *samples, const char *outcome)
{
	char hex[SHA256_HEX_LEN + 1];
	assert_int_equal(store_put(st, samples, strlen(samples), hex), 0);
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:b, s:i}, s:{s:[{s:s, s:s}]},"
			      " s:{s:s}, s:{s:s}, s:s, s:s}",
			      "kind", "variant", "format", "evident-run/1", "experiment", "e", "variant", variant,
			      "batch_id", "B1", "outcome", outcome, "correctness", "pass", !strcmp(outcome, "ok"),
			      "seeds", 2, "code", "sources", "path", "k.c", "sha256", sha, "timing",
			      "samples_object", hex, "device", "name", "NVIDIA H100 80GB HBM3", "backend", "cuda",
			      "started_utc", "2026-01-01T00:00:00.000Z");
	assert_int_equal(store_commit(st, id, m), 0);
	json_decref(m);
}

static int setup(void **state)
{
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	FILE *f = fopen("k.c", "w");
	fputs("int k;\n", f);
	fclose(f);
	char sha[SHA256_HEX_LEN + 1];
	assert_int_equal(sha256_file_hex("k.c", sha), 0);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, "store", 1), 0);
	put_variant(&st, "20260101T000000Z-e-base", "base", sha, "# us\n100\n99\n101\n", "ok");
	put_variant(&st, "20260101T000001Z-e-twin", "twin", sha, "# us\n100\n100.5\n99.5\n", "ok");
	json_t *b = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I},"
		" s:[{s:s, s:s, s:s, s:{s:f, s:[f, f], s:i}, s:n},"
		"    {s:s, s:s, s:s, s:{s:f, s:[f, f], s:i}, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s}}]}",
		"kind", "batch", "format", "evident-batch/1", "experiment", "e", "batch_id", "B1", "baseline",
		"base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
		(json_int_t)1, "variants", "variant", "base", "run_id", "20260101T000000Z-e-base", "outcome",
		"ok", "stats", "median", 100.0, "median_ci", 99.0, 101.0, "n", 3, "comparison", "variant",
		"twin", "run_id", "20260101T000001Z-e-twin", "outcome", "ok", "stats", "median", 100.0,
		"median_ci", 99.5, 100.5, "n", 3, "comparison", "speedup", "ratio", 1.0, "ci", 0.995, 1.005,
		"mann_whitney", "p", 0.8, "p_adjusted", 0.8, "verdict", "no_difference");
	assert_int_equal(store_commit(&st, "20260101T000002Z-e-x-batch", b), 0);
	json_decref(b);
	store_release(&st);
	(void)state;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

/* Audits text; returns the findings (caller frees). */
static char *audit(const char *text, struct audit_counts *c)
{
	struct query q = QUERY_INIT;
	struct audit_opts o = { 1, 1 };
	struct strbuf out = STRBUF_INIT;
	memset(c, 0, sizeof(*c));
	assert_int_equal(query_open(&q, "store"), 0);
	assert_int_equal(audit_text(&q, "t.md", text, strlen(text), &o, &out, c), 0);
	query_release(&q);
	return strbuf_detach(&out, NULL);
}

static void test_parse_number(void **state)
{
	double v, ulp;
	const char *u;
	size_t ul;
	(void)state;
	assert_int_equal(audit_parse_number("1,234.5 us.", &v, &u, &ul, &ulp), 10);
	assert_true(fabs(v - 1234.5) < 1e-9 && fabs(ulp - 0.05) < 1e-12);
	assert_int_equal(ul, 2);
	assert_int_equal(audit_parse_number("1.42x faster", &v, &u, &ul, &ulp), 5);
	assert_int_equal(audit_parse_number("5 seeds", &v, &u, &ul, &ulp), 1);
	assert_int_equal(ul, 0);
	assert_int_equal(audit_parse_number("128x64", &v, &u, &ul, &ulp), 3);
	assert_int_equal(ul, 0);
	assert_int_equal(audit_parse_number("3 \xc2\xb5s", &v, &u, &ul, &ulp), 5);
	assert_int_equal(audit_parse_number("12%", &v, &u, &ul, &ulp), 3);
	assert_int_equal(audit_parse_number("1,850 GB/s", &v, &u, &ul, &ulp), 10);
	assert_int_equal(audit_parse_number("x1", &v, &u, &ul, &ulp), 0);
}

static void test_no_difference_supported(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Twin ties. <!-- claim: no-difference experiment=e a=twin b=base -->\n"
			"Twin wins. <!-- claim: faster experiment=e a=twin b=base -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: supported: no-difference twin vs base: speedup of twin over base 1.000x"));
	assert_non_null(strstr(f, "t.md:2: contradicted: faster twin vs base"));
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.contradicted, 1);
	free(f);
}

static void test_value_rules(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=e variant=base stat=median_us value=100.9us -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=0.1ms -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=105 -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=105 tol=10% -->\n"
			"<!-- claim: value experiment=e variant=twin stat=speedup value=1.2x -->\n"
			"<!-- claim: value experiment=e variant=base stat=bogus value=1 -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: supported: value e/base median_us=100.9us: recorded 100, within the 95% CI"));
	assert_non_null(strstr(f, "t.md:2: supported: value e/base median_us=0.1ms"));
	assert_non_null(strstr(f, "t.md:3: contradicted: value e/base median_us=105: recorded 100, outside the 95% CI"));
	assert_non_null(strstr(f, "t.md:4: supported: value e/base median_us=105: recorded 100, within the stated tolerance"));
	assert_non_null(strstr(f, "t.md:5: contradicted: value e/twin speedup=1.2x"));
	assert_non_null(strstr(f, "t.md:6: error: claim 'value': unknown stat 'bogus'"));
	free(f);
}

static void test_measured_on_and_stale(void **state)
{
	struct audit_counts c;
	(void)state;
	const char *t = "<!-- claim: measured-on experiment=e gpu=\"H100\" -->\n"
			"<!-- claim: measured-on experiment=e gpu=\"A100\" -->\n"
			"<!-- claim: validated experiment=e variant=twin -->\n"
			"<!-- claim: validated experiment=e variant=nope -->\n";
	char *f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: supported: measured-on e \"H100\": 2 run(s) on NVIDIA H100 80GB HBM3"));
	assert_non_null(strstr(f, "t.md:2: contradicted: measured-on e \"A100\": base ran on NVIDIA H100"));
	assert_non_null(strstr(f, "t.md:3: supported: validated e/twin"));
	assert_non_null(strstr(f, "t.md:4: unsupported: validated e/nope: no recorded run"));
	free(f);
	FILE *k = fopen("k.c", "a");
	fputs("/* edit */\n", k);
	fclose(k);
	f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: stale: measured-on e \"H100\": 'k.c' changed since run"));
	assert_non_null(strstr(f, "t.md:3: stale: validated e/twin"));
	assert_int_equal(c.stale, 3);
	assert_int_equal(c.unsupported, 1);
	free(f);
	k = fopen("k.c", "w");
	fputs("int k;\n", k);
	fclose(k);
}

static void test_untraced(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Median 100 us and 1.5x. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Another 100 us here; `7 us`; <!-- evident:value experiment=e variant=base run=latest stat=median_us -->100.00 us<!-- /evident:value -->.\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: untraced: '1.5x'"));
	assert_null(strstr(f, "t.md:1: untraced: '100 us'"));
	assert_non_null(strstr(f, "t.md:3: untraced: '100 us'"));
	assert_null(strstr(f, "7 us"));
	assert_null(strstr(f, "100.00 us"));
	assert_int_equal(c.untraced, 2);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test(test_no_difference_supported),
		cmocka_unit_test(test_value_rules),
		cmocka_unit_test(test_measured_on_and_stale),
		cmocka_unit_test(test_untraced),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
