/*
 * test_paper.c - markdown scanning (markers in code are not markers, bad
 * markers are errors) and paper_render's contract: only block contents
 * change, an unclosed block gets its closing marker, a second render is
 * identical, a missing experiment is counted and said in the text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "report/mdscan.h"
#include "report/paper.h"

static void test_mdscan(void **state)
{
	(void)state;
	const char *t = "a <!-- evident:value run=latest stat=n experiment=\"my exp\" -->x<!-- /evident:value -->\n"
			"`<!-- evident:table -->` and\n"
			"```\n<!-- claim: faster a=1 b=2 -->\n```\n"
			"<!-- plain comment -->\n"
			"<!-- claim: validated experiment=e variant=v -->\n";
	struct md_doc d = MD_DOC_INIT;
	assert_int_equal(md_parse(&d, "t.md", t, strlen(t)), 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.mk[0].kind, MD_OPEN);
	assert_string_equal(d.mk[0].name, "value");
	assert_string_equal(md_attr(&d.mk[0], "experiment"), "my exp");
	assert_int_equal(md_find_close(&d, 0), 1);
	assert_int_equal(d.mk[2].kind, MD_CLAIM);
	assert_int_equal(d.mk[2].line, 7);
	md_release(&d);

	util_quiet = 1;
	const char *bad[] = { "<!-- evident:table experiment=\"x -->", "<!-- evident: -->",
			      "<!-- /evident:table run=x -->", "<!-- evident:table x -->" };
	for (size_t i = 0; i < 4; i++) {
		struct md_doc b = MD_DOC_INIT;
		assert_int_equal(md_parse(&b, "t.md", bad[i], strlen(bad[i])), -1);
		md_release(&b);
	}
	util_quiet = 0;
}

static void test_render_empty_store(void **state)
{
	(void)state;
	struct query q = QUERY_INIT;
	assert_int_equal(query_open(&q, "/nonexistent/evident-store"), 0);
	assert_int_equal(q.no_store, 1);
	const char *t = "Prose stays.\n<!-- evident:table experiment=e run=latest -->\nTail, v=<!-- evident:value "
			"experiment=e variant=v run=latest stat=median_us -->old<!-- /evident:value -->.\n";
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct paper_result r;
	struct paper_opts o = { NULL, 0 };
	util_quiet = 1;
	assert_int_equal(paper_render(&q, "t.md", t, strlen(t), &o, &a, &r), 0);
	assert_int_equal(r.missing, 2);
	assert_int_equal(r.blocks, 2);
	assert_string_equal(a.buf, "Prose stays.\n<!-- evident:table experiment=e run=latest -->\n"
				   "*No recorded run: no recorded run of experiment 'e'.*\n\n<!-- /evident:table -->\n"
				   "Tail, v=<!-- evident:value experiment=e variant=v run=latest stat=median_us -->"
				   "**[no recorded run]**<!-- /evident:value -->.\n");
	assert_int_equal(paper_render(&q, "t.md", a.buf, a.len, &o, &b, &r), 0);
	util_quiet = 0;
	assert_string_equal(a.buf, b.buf);
	strbuf_release(&a);
	strbuf_release(&b);
	query_release(&q);
}

static void test_format_stat(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(paper_format_stat(&sb, 11657.333, "median_us", NULL, -1), 0);
	assert_string_equal(sb.buf, "11657.33 us");
	strbuf_reset(&sb);
	assert_int_equal(paper_format_stat(&sb, 11657.333, "median_us", "ms", 3), 0);
	assert_string_equal(sb.buf, "11.657 ms");
	strbuf_reset(&sb);
	assert_int_equal(paper_format_stat(&sb, 1.3391, "speedup", NULL, -1), 0);
	assert_string_equal(sb.buf, "1.34x");
	strbuf_reset(&sb);
	assert_int_equal(paper_format_stat(&sb, 6.0188931018853795e-99, "p", NULL, -1), 0);
	assert_string_equal(sb.buf, "6.0e-99");
	strbuf_reset(&sb);
	assert_int_equal(paper_format_stat(&sb, 3, "repeats", NULL, -1), 0);
	assert_string_equal(sb.buf, "3");
	strbuf_reset(&sb);
	util_quiet = 1;
	assert_int_equal(paper_format_stat(&sb, 1.3, "speedup", "ms", -1), -1);
	assert_int_equal(paper_format_stat(&sb, 1.3, "bogus", NULL, -1), -1);
	util_quiet = 0;
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mdscan),
		cmocka_unit_test(test_render_empty_store),
		cmocka_unit_test(test_format_stat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
