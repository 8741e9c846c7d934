/*
 * test_record.c - unit tests of the record module's samples objects: the
 * text the writer stores reads back to the same doubles bit for bit (the
 * statistics of a batch and of every reader are computed from it), values
 * append to what is already read, and a damaged line is an error that names
 * it, never a value silently dropped.  And the index's attrs lines: the
 * fast flat reader gives what jansson's reader gives, on every line shape
 * record_index_attrs writes and on the ones it leaves to jansson.  And the
 * rule of a spec's expect: (outcome_as_expected), which the run record's
 * expect_met follows whatever its caller believed.  And the comparison
 * reader's rule 0 on records of any age: one repeat a side reads as
 * inconclusive, the recorded verdict kept beside it.  And an older
 * runner's pass at the extra shape, weighed by the drawn shape's rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/json_get.h"
#include "record/record.h"
#include "store/store_internal.h"

#include <dirent.h>

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

/* Red team 279: a record names the runner that wrote it (code.runner),
 * read back as written, and the errata's commit is the runner's where
 * recorded; a record without it (every one before the fix) writes none
 * back and is matched by code.git.commit, as before; an unknown build
 * commit falls back too. */
static void test_runner_round_trip(void **state)
{
	(void)state;
	struct run_record r, back;
	memset(&r, 0, sizeof(r));
	r.gpu_slot = -1;
	r.outcome = OUTCOME_OK;
	r.git.is_repo = 1;
	r.git.commit = "1111111111111111111111111111111111111111";
	r.runner.have = 1;
	r.runner.commit = "2222222222222222222222222222222222222222";
	r.runner.dirty = 1;
	r.runner.sha256 = "ab";
	r.runner.worker_sha256 = "cd";
	json_t *m = record_run_json(&r);
	json_t *rn = json_object_get(json_object_get(m, "code"), "runner");
	assert_non_null(rn);
	assert_true(json_is_true(json_object_get(rn, "dirty")));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_int_equal(back.runner.have, 1);
	assert_string_equal(back.runner.commit, r.runner.commit);
	assert_int_equal(back.runner.dirty, 1);
	assert_string_equal(back.runner.sha256, "ab");
	assert_string_equal(back.runner.worker_sha256, "cd");
	assert_string_equal(record_runner_commit(&back.runner, &back.git), r.runner.commit);
	run_record_release(&back);
	json_decref(m);
	/* unknown: the build had no git */
	r.runner.commit = "unknown";
	r.runner.dirty = -1;
	m = record_run_json(&r);
	assert_true(json_is_null(json_object_get(json_object_get(json_object_get(m, "code"), "runner"), "dirty")));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_int_equal(back.runner.dirty, -1);
	assert_string_equal(record_runner_commit(&back.runner, &back.git), r.git.commit);
	run_record_release(&back);
	json_decref(m);
	/* not recorded */
	r.runner.have = 0;
	m = record_run_json(&r);
	assert_null(json_object_get(json_object_get(m, "code"), "runner"));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_int_equal(back.runner.have, 0);
	assert_string_equal(record_runner_commit(&back.runner, &back.git), r.git.commit);
	run_record_release(&back);
	json_decref(m);
	/* a batch the same */
	struct batch_record b, bb;
	memset(&b, 0, sizeof(b));
	b.git = r.git;
	b.runner.have = 1;
	b.runner.commit = "3333333333333333333333333333333333333333";
	b.runner.dirty = 0;
	m = record_batch_json(&b);
	assert_int_equal(record_batch_read(m, &bb), 0);
	assert_int_equal(bb.runner.have, 1);
	assert_int_equal(bb.runner.dirty, 0);
	assert_string_equal(bb.runner.commit, b.runner.commit);
	batch_record_release(&bb);
	json_decref(m);
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

static void check_attrs(const char *line, const char *exp, const char *variant, int is_batch, int dirty,
			int repeat, double median, double usd, long long ok)
{
	struct record_attrs a;
	assert_int_equal(record_attrs_parse(line, &a), 0);
	if (exp)
		assert_string_equal(a.experiment, exp);
	else
		assert_null(a.experiment);
	if (variant)
		assert_string_equal(a.variant, variant);
	else
		assert_null(a.variant);
	assert_int_equal(a.is_batch, is_batch);
	assert_int_equal(a.dirty, dirty);
	assert_int_equal(a.repeat, repeat);
	assert_true(isnan(median) ? isnan(a.median_us) : a.median_us == median);
	assert_true(isnan(usd) ? isnan(a.usd) : a.usd == usd);
	assert_int_equal(a.t_ok, ok);
	record_attrs_release(&a);
}

static void test_attrs_lines(void **state)
{
	(void)state;
	/* as record_index_attrs writes them (compact, sorted keys) */
	check_attrs("{\"batch_id\":\"b-batch\",\"commit\":\"abc\",\"dirty\":true,\"experiment\":\"iter1\","
		    "\"gpu_s\":0.5,\"kind\":\"run\",\"median_us\":112.58000000000001,\"outcome\":\"ok\","
		    "\"repeat\":2,\"started_utc\":\"2026-11-23T15:00:06.000Z\",\"usd\":null,"
		    "\"variant\":\"base\",\"wall_s\":1e-3}",
		    "iter1", "base", 0, 1, 2, 112.58000000000001, NAN, 0);
	check_attrs("{\"experiment\":\"aa\",\"failed\":1,\"kind\":\"batch\",\"ok\":17,\"usd\":-2.5E-2,"
		    "\"variants\":18}",
		    "aa", NULL, 1, 0, 0, NAN, -0.025, 17);
	check_attrs("{}", NULL, NULL, 0, 0, 0, NAN, NAN, 0);
	/* a batch of evident reproduce names the batch it reproduces, by
	 * the fast reader and by jansson's (an unknown key sends it there) */
	const char *repro[] = {
		"{\"experiment\":\"r\",\"kind\":\"batch\",\"reproduced\":false,\"reproduces\":\"A-batch\"}",
		"{\"experiment\":\"r\",\"future\":1,\"kind\":\"batch\",\"reproduced\":true,\"reproduces\":\"A-batch\"}",
	};
	for (size_t i = 0; i < 2; i++) {
		struct record_attrs a;
		assert_int_equal(record_attrs_parse(repro[i], &a), 0);
		assert_string_equal(a.reproduces, "A-batch");
		assert_int_equal(a.reproduced, (int)i);
		json_t *row = record_attrs_json("B-batch", &a);
		assert_string_equal(json_string_value(json_object_get(row, "reproduces")), "A-batch");
		assert_true(json_is_boolean(json_object_get(row, "reproduced")));
		json_decref(row);
		record_attrs_release(&a);
	}
	/* left to jansson: an escape, an unknown key, a nested value */
	check_attrs("{\"experiment\":\"a\\u00e9\\\"b\",\"kind\":\"run\",\"variant\":\"v\"}", "a\xc3\xa9\"b", "v", 0,
		    0, 0, NAN, NAN, 0);
	check_attrs("{\"experiment\":\"x\",\"future\":[1,{\"a\":2}],\"kind\":\"batch\",\"ok\":3}", "x", NULL,
		    1, 0, 0, NAN, NAN, 3);
	/* not an object at all */
	const char *bad[] = { "", "[]", "{\"kind\":\"run\"", "{\"kind\" \"run\"}", "{\"kind\":\"run\"} x", "nul" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct record_attrs a;
		assert_int_equal(record_attrs_parse(bad[i], &a), -1);
		record_attrs_release(&a);
	}
}

/* The refs of t by the text scan and by a parse must agree, in order;
 * returns how many there are. */
static size_t check_refs_agree(const char *t, json_t *m)
{
	char **a = NULL, **b = NULL;
	size_t na = 0, nb = 0, alloc = 0;
	assert_int_equal(manifest_refs_text(t, strlen(t), &a, &na), 0);
	manifest_refs(m, &b, &nb, &alloc);
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_string_equal(a[i], b[i]);
		free(a[i]);
		free(b[i]);
	}
	free(a);
	free(b);
	return na;
}

/*
 * verify reads the index line of an intact manifest from a view holding
 * only record_index_members (and the store's three): for every committed
 * record (both formats, runs and batches, host and CUDA, failures) the
 * view must give the line the whole manifest gives, and the text scan of
 * object references the refs a parse finds.
 */
static void test_index_views_match(void **state)
{
	(void)state;
	const char *members[40] = { "digest", "prev", "run_id" };
	size_t k = 3, n = 0, batches = 0, refs = 0;
	for (const char *const *m = record_index_members; *m; m++)
		members[k++] = *m;
	DIR *d = opendir("artifacts/runs");
	assert_non_null(d); /* run from the repository's root (make test does) */
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *path = xstrfmt("artifacts/runs/%s", e->d_name);
		struct strbuf sb = STRBUF_INIT;
		assert_int_equal(read_file(path, &sb), 0);
		json_t *full = json_loads(strbuf_str(&sb), 0, NULL), *view;
		assert_non_null(full);
		view = manifest_view(strbuf_str(&sb), sb.len, members);
		if (!view)
			fail_msg("no view of %s", path);
		char *a = record_index_attrs(full), *b = record_index_attrs(view);
		assert_non_null(a);
		assert_non_null(b);
		if (strcmp(a, b))
			fail_msg("%s: the whole gives\n%s\nthe view gives\n%s", path, a, b);
		for (size_t i = 0; i < 3; i++)
			assert_true(json_equal(json_object_get(full, members[i]), json_object_get(view, members[i])));
		refs += check_refs_agree(strbuf_str(&sb), full);
		batches += strstr(a, "\"kind\":\"batch\"") != NULL;
		n++;
		free(a);
		free(b);
		json_decref(view);
		json_decref(full);
		strbuf_release(&sb);
		free(path);
	}
	closedir(d);
	/* the committed store: 246 records, 14 of them batches, when written */
	assert_true(n >= 200);
	assert_true(batches >= 10);
	assert_true(refs >= 1000);
}

/* Text the views cannot vouch for is left to a whole parse. */
static void test_views_refuse_odd_text(void **state)
{
	(void)state;
	const char *members[] = { "a", "b", NULL };
	json_t *v;
	/* canonical text: every member found, nested ones ignored */
	json_t *m = json_pack("{s:i, s:{s:s, s:[{s:s}, {s:n}], s:s}, s:s, s:s, s:s}", "a", 1, "b", "log_object",
			      "x1", "runs", "object", "x2", "samples_object", "samples_objects", "x3",
			      "c_object", "x4", "notobject", "x5", "object", "x6");
	char *t = store_canonical(m);
	assert_non_null(v = manifest_view(t, strlen(t), members));
	assert_int_equal(json_integer_value(json_object_get(v, "a")), 1);
	assert_true(json_equal(json_object_get(v, "b"), json_object_get(m, "b")));
	assert_int_equal(json_object_size(v), 2);
	json_decref(v);
	check_refs_agree(t, m);
	free(t);
	json_decref(m);
	/* not canonical, or a key with an escape: no view */
	const char *odd[] = { "{\"a\":1}", "{\n \"a\\u0062\": 1\n}\n", "{\n \"a\": 1\n \"b\": 2\n}\n",
			      "{\n \"a\": 1,\n \"b\": [1,\n}\n", "[\n \"a\", 1\n]\n", "{\n \"a\": 1\n" };
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		if ((v = manifest_view(odd[i], strlen(odd[i]), members)))
			fail_msg("a view of %s", odd[i]);
	/* a ref key or value with an escape, or a string never closed: unsure */
	const char *unsure[] = { "{\n \"x\\u005fobject\": \"ab\"\n}\n", "{\n \"log_object\": \"a\\\"b\"\n}\n",
				 "{\n \"log_object\": \"ab\n", "{\n \"a\": \"b" };
	for (size_t i = 0; i < sizeof(unsure) / sizeof(unsure[0]); i++) {
		char **r;
		size_t nr;
		assert_int_equal(manifest_refs_text(unsure[i], strlen(unsure[i]), &r, &nr), -1);
		assert_null(r);
	}
}

static void test_outcome_as_expected(void **state)
{
	(void)state;
	/* no expect: only ok is as expected */
	assert_true(outcome_as_expected(OUTCOME_OK, NULL));
	assert_false(outcome_as_expected(OUTCOME_NAN, NULL));
	assert_false(outcome_as_expected(OUTCOME_TIMEOUT, NULL));
	/* an expect: that one outcome, and no other (ok included) */
	assert_true(outcome_as_expected(OUTCOME_CRASHED, "crashed"));
	assert_true(outcome_as_expected(OUTCOME_OK, "ok"));
	assert_false(outcome_as_expected(OUTCOME_OK, "nan"));
	assert_false(outcome_as_expected(OUTCOME_NAN, "timeout"));
	/* names and outcomes nobody knows are never as expected */
	assert_false(outcome_as_expected(OUTCOME_UNKNOWN, NULL));
	assert_false(outcome_as_expected(OUTCOME_UNKNOWN, "unknown"));
	assert_false(outcome_as_expected(OUTCOME_OK, "okay"));
	assert_false(outcome_as_expected(OUTCOME_OK, ""));
	for (int o = 0; o < OUTCOME_COUNT; o++)
		assert_int_equal(outcome_as_expected((enum outcome)o, outcome_name((enum outcome)o)), 1);
	/* a list (spec.c writes "a or b"): any of them, and nothing else */
	assert_true(outcome_as_expected(OUTCOME_FLAKY, "flaky or escaped_work"));
	assert_true(outcome_as_expected(OUTCOME_ESCAPED_WORK, "flaky or escaped_work"));
	assert_false(outcome_as_expected(OUTCOME_OK, "flaky or escaped_work"));
	assert_false(outcome_as_expected(OUTCOME_NAN, "flaky or escaped_work"));
	assert_true(outcome_as_expected(OUTCOME_FLAKY, "flaky or "));
}

static void test_expect_met_follows_the_rule(void **state)
{
	(void)state;
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.gpu_slot = -1;
	r.outcome = OUTCOME_OK;
	r.expect = "nan";
	r.expect_met = 1; /* what a caller may wrongly believe */
	json_t *m = record_run_json(&r);
	assert_true(json_is_false(json_object_get(m, "expect_met")));
	json_decref(m);
	r.outcome = OUTCOME_NAN;
	r.expect_met = 0;
	m = record_run_json(&r);
	assert_true(json_is_true(json_object_get(m, "expect_met")));
	json_decref(m);
	r.expect = NULL;
	m = record_run_json(&r);
	assert_true(json_is_null(json_object_get(m, "expect_met")));
	json_decref(m);
}

/* The problem's own rule is written wherever it stated one, an exact
 * rule (0) too, and read back; a rule it never stated (NaN) writes none
 * (red team 138: an exact rule loosened by the spec was recorded as none,
 * so nothing downstream could see it loosened). */
static void test_problem_rule_exact_recorded(void **state)
{
	(void)state;
	struct run_record r, back;
	memset(&r, 0, sizeof(r));
	r.gpu_slot = -1;
	r.outcome = OUTCOME_OK;
	r.atol = r.rtol = 1;
	r.rel_l2 = 2;
	r.problem_atol = r.problem_rtol = r.problem_rel_l2 = 0;
	json_t *m = record_run_json(&r);
	json_t *own = json_object_get(json_object_get(json_object_get(m, "correctness"), "tolerance"), "problem");
	assert_non_null(own);
	assert_true(json_number_value(json_object_get(own, "rel_l2")) == 0);
	assert_int_equal(record_run_read(m, &back), 0);
	assert_true(back.problem_atol == 0 && back.problem_rtol == 0 && back.problem_rel_l2 == 0);
	run_record_release(&back);
	json_decref(m);
	r.problem_atol = r.problem_rtol = r.problem_rel_l2 = NAN;
	m = record_run_json(&r);
	assert_null(json_object_get(json_object_get(json_object_get(m, "correctness"), "tolerance"), "problem"));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_true(isnan(back.problem_rel_l2));
	run_record_release(&back);
	json_decref(m);
}

/* the fake plug-in of test_shape_pass_misjudged: the drawn shape's rule */
static double fake_drawn[3];
static int fake_drawn_rule(const struct run_record *r, double out[3])
{
	(void)r;
	memcpy(out, fake_drawn, sizeof(fake_drawn));
	return 1;
}

/* Red team 298 row 3: a pass at the extra shape that a runner older than
 * red team 289's fix judged by the run's shape's rule (no
 * extra_shape.tolerance) is weighed by the drawn shape's rule where the
 * process can ask it, by rel L2 and by the largest error; not where the
 * record has the rule (its runner judged by it) or none can be asked. */
static void test_shape_pass_misjudged(void **state)
{
	(void)state;
	struct rec_check ck[2];
	memset(ck, 0, sizeof(ck));
	ck[0].phase = "seed";
	ck[0].pass = 1;
	ck[0].rel_l2 = 1e-6;
	ck[0].max_abs_err = 1e-6;
	ck[0].ref_scale = 1;
	ck[1].phase = "shape";
	ck[1].pass = 1;
	ck[1].rel_l2 = 5.1e-5; /* rsqrtss at R 48 C 79: inside C 8192's 1.13e-4 */
	ck[1].max_abs_err = 1.2e-3;
	ck[1].ref_scale = 8.5;
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.outcome = OUTCOME_OK;
	r.checks = ck;
	r.n_checks = 2;
	double t[3], run[3] = { 1.13e-4, 1.13e-4, 1.13e-4 };
	record_drawn_rule_setup(NULL);
	assert_null(record_shape_pass_misjudged(&r, t)); /* no way to ask: as before */
	record_check_rule(&r, &ck[1], run, t);
	assert_true(t[2] == run[2]);
	record_drawn_rule_setup(fake_drawn_rule);
	fake_drawn[0] = fake_drawn[1] = fake_drawn[2] = 2e-5; /* C 79's rule */
	assert_ptr_equal(record_shape_pass_misjudged(&r, t), &ck[1]);
	assert_true(t[2] == 2e-5);
	record_check_rule(&r, &ck[1], run, t);
	assert_true(t[2] == 2e-5);
	record_check_rule(&r, &ck[0], run, t); /* the run's own shape: the run's rule */
	assert_true(t[2] == run[2]);
	/* by the largest error alone: rel L2 inside, 1.2e-3 over 2 x 6e-5 x 8.5 */
	fake_drawn[0] = fake_drawn[1] = 6e-5;
	fake_drawn[2] = 1e-4;
	assert_ptr_equal(record_shape_pass_misjudged(&r, NULL), &ck[1]);
	/* inside the drawn rule: nothing */
	fake_drawn[0] = fake_drawn[1] = fake_drawn[2] = 1e-4;
	assert_null(record_shape_pass_misjudged(&r, NULL));
	/* a record with the rule was judged by it: the record's, not the hook's */
	fake_drawn[0] = fake_drawn[1] = fake_drawn[2] = 2e-5;
	r.extra_shape_tol_set = 1;
	for (int k = 0; k < 3; k++)
		r.extra_shape_problem_tol[k] = r.extra_shape_tol[k] = 1e-4;
	assert_null(record_shape_pass_misjudged(&r, NULL));
	assert_int_equal(record_drawn_rule(&r, t), 1);
	assert_true(t[2] == 1e-4);
	record_drawn_rule_setup(NULL);
}

/* A run's lineage is written and read back whole; a run without one
 * writes null and reads as none. */
static void test_lineage_round_trip(void **state)
{
	(void)state;
	struct run_record r, back;
	memset(&r, 0, sizeof(r));
	r.gpu_slot = -1;
	r.outcome = OUTCOME_OK;
	json_t *m = record_run_json(&r);
	assert_true(json_is_null(json_object_get(m, "lineage")));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_false(back.lineage.have);
	run_record_release(&back);
	json_decref(m);
	r.lineage = (struct rec_lineage){ 1, "20261125T000000.000Z-x-0123abcd", "BLOCK_M 64->128", "search gen 2",
					  "20261125T000000.000Z-x-89abcdef-search", 2 };
	m = record_run_json(&r);
	assert_int_equal(record_run_read(m, &back), 0);
	assert_true(back.lineage.have);
	assert_string_equal(back.lineage.parent, "20261125T000000.000Z-x-0123abcd");
	assert_string_equal(back.lineage.mutation, "BLOCK_M 64->128");
	assert_string_equal(back.lineage.origin, "search gen 2");
	assert_string_equal(back.lineage.search, "20261125T000000.000Z-x-89abcdef-search");
	assert_int_equal(back.lineage.generation, 2);
	run_record_release(&back);
	json_decref(m);
	r.lineage = (struct rec_lineage){ 1, NULL, NULL, "prompt 5f3a", NULL, -1 };
	m = record_run_json(&r);
	assert_true(json_is_null(json_object_get(json_object_get(m, "lineage"), "generation")));
	assert_int_equal(record_run_read(m, &back), 0);
	assert_true(back.lineage.have);
	assert_null(back.lineage.parent);
	assert_int_equal(back.lineage.generation, -1);
	run_record_release(&back);
	json_decref(m);
}

/* timing.by_dist keeps each distribution's over-3x..48x counts (the
 * stress cost's evidence, gather.c), and a record without them reads -1
 * (ungated): the first reader took the array for an object and read
 * none, so every gate was off in a real run (2026-12-03) */
static void test_by_dist_round_trip(void **state)
{
	(void)state;
	struct run_record r, back;
	memset(&r, 0, sizeof(r));
	r.gpu_slot = -1;
	r.outcome = OUTCOME_OK;
	r.n_by_dist = 2;
	r.have_timing = 1;
	r.by_dist[0] = (struct rec_dist){ "uniform", 21, 1891.9, 1, { 7, 1, 0, 0, 0 }, 1.12 };
	r.by_dist[1] = (struct rec_dist){ "cancel", 5, 7509.3, 0, { 5, 4, 3, 2, 1 }, 0 };
	json_t *m = record_run_json(&r);
	assert_int_equal(record_run_read(m, &back), 0);
	assert_int_equal(back.n_by_dist, 2);
	for (int l = 0; l < REC_OVER_LEVELS; l++) {
		assert_true(back.by_dist[0].n_over[l] == r.by_dist[0].n_over[l]);
		assert_true(back.by_dist[1].n_over[l] == r.by_dist[1].n_over[l]);
	}
	/* the work mean (red team 153), and none where not recorded */
	assert_true(fabs(back.by_dist[0].work_ratio_mean - 1.12) < 1e-12 && back.by_dist[1].work_ratio_mean == 0);
	run_record_release(&back);
	json_decref(m);
	r.by_dist[1].n_over[0] = -1; /* not recorded: no key */
	m = record_run_json(&r);
	assert_int_equal(record_run_read(m, &back), 0);
	assert_true(back.by_dist[1].n_over[0] == -1 && back.by_dist[0].n_over[0] == 7);
	run_record_release(&back);
	json_decref(m);
}

/* A comparison as records hold it; repeats NULL: a record from before repeats. */
static json_t *comparison(const char *verdict, const char *repeats)
{
	char *text = xstrfmt("{\"mann_whitney\": {\"u\": 0, \"p\": 1e-9, \"p_adjusted\": 3e-9, \"method\": \"normal\"},"
			     " \"cliffs_delta\": {\"delta\": 1, \"ci\": [1, 1], \"magnitude\": \"large\"},"
			     " \"speedup\": {\"ratio\": 2.027, \"ci\": [1.885, 2.083], \"method\": \"bca\"},"
			     " \"verdict\": \"%s\", \"small_n\": false, \"verdict_reason\": \"significant\"%s%s}",
			     verdict, repeats ? ", \"repeats\": " : "", repeats ? repeats : "");
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	free(text);
	assert_non_null(j);
	return j;
}

static void test_one_process_read_as_inconclusive(void **state)
{
	(void)state;
	struct stats_comparison c;
	const char *old[][2] = { { "faster", "[1, 1]" }, { "slower", NULL }, { "no_difference", "[1, 1]" } };
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		json_t *j = comparison(old[i][0], old[i][1]);
		assert_int_equal(record_comparison_read(j, &c), 0);
		assert_int_equal(c.one_process, 1);
		assert_string_equal(c.verdict, "inconclusive");
		assert_string_equal(c.verdict_reason, STATS_REASON_ONE_PROCESS);
		assert_string_equal(c.verdict_recorded, old[i][0]);
		assert_true(c.speedup == 2.027); /* the numbers are the record's */
		json_decref(j);
	}
	/* repeats: as recorded */
	json_t *j = comparison("faster", "[3, 3]");
	assert_int_equal(record_comparison_read(j, &c), 0);
	assert_int_equal(c.one_process, 0);
	assert_string_equal(c.verdict, "faster");
	assert_string_equal(c.verdict_reason, "significant");
	assert_null(c.verdict_recorded);
	json_decref(j);
	j = comparison("faster", "[1, 3]");
	assert_int_equal(record_comparison_read(j, &c), 0);
	assert_string_equal(c.verdict, "faster");
	json_decref(j);
	/* already inconclusive: nothing to keep */
	j = comparison("inconclusive", "[1, 1]");
	assert_int_equal(record_comparison_read(j, &c), 0);
	assert_string_equal(c.verdict, "inconclusive");
	assert_null(c.verdict_recorded);
	json_decref(j);
}

/* rule 0e's handshake of a run (run_handshake_us): the calibrated
 * handshake, widened by what each thread beyond the first costs a sample
 * at the median sample's thread count, with the margin for the box
 * (RUN_THREAD_COST_MARGIN 1.5; red team 183: an honest kernel's
 * 64 parked threads read it 0.27x "slower"); a CUDA run has none */
static void test_handshake_widened_by_threads(void **state)
{
	(void)state;
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.backend = "host";
	r.timing_method = json_pack("{s:f}", "handshake_us", 50.0);
	assert_true(run_handshake_us(&r) == 50.0);
	json_object_set_new(r.timing_method, "thread_cost_us", json_real(12.0));
	assert_true(run_handshake_us(&r) == 50.0); /* no count: nothing added */
	json_object_set_new(r.timing_method, "threads_median", json_real(1.0));
	assert_true(run_handshake_us(&r) == 50.0);
	json_object_set_new(r.timing_method, "threads_median", json_real(65.0));
	assert_true(fabs(run_handshake_us(&r) - (50.0 + 1.5 * 12.0 * 64)) < 1e-9);
	/* never past what the run's samples could have lost to it (red team
	 * 186): strictly under its median, at most 9/10 of it (red team 247:
	 * capped at the median itself, rule 0e held every faster challenger) */
	r.have_stats = 1;
	r.stats.median = 300.0;
	assert_true(fabs(run_handshake_us(&r) - 270.0) < 1e-9);
	assert_true(run_handshake_us(&r) < r.stats.median);
	assert_true(fabs(run_thread_widening_us(&r) - 220.0) < 1e-9);
	r.stats.median = 20.0; /* under the handshake itself: the handshake */
	assert_true(run_handshake_us(&r) == 50.0);
	assert_true(run_thread_widening_us(&r) == 0.0);
	r.have_stats = 0;
	json_object_set_new(r.timing_method, "handshake_us", json_real(0));
	assert_true(isnan(run_handshake_us(&r)));
	r.backend = "cuda";
	json_object_set_new(r.timing_method, "handshake_us", json_real(50.0));
	assert_true(isnan(run_handshake_us(&r)));
	json_decref(r.timing_method);
}

/* rule 0e against a capped side (red team 247's finding 2): a challenger
 * 10x faster than a side whose widened handshake reached the cap is not
 * "within the handshake" (|median_b - median_c| < h, as gather.c
 * compare_rows and the audit read it); one 1.5x faster still is */
static void test_handshake_cap_frees_10x(void **state)
{
	(void)state;
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.backend = "host";
	r.timing_method = json_pack("{s:f, s:f, s:f}", "handshake_us", 15.0, "thread_cost_us", 6.0, "threads_median",
				    257.0);
	r.have_stats = 1;
	r.stats.median = 2000.0; /* 15 + 1.5 x 6 x 256 = 2319 > the median: capped */
	double h = run_handshake_us(&r), mb = r.stats.median;
	assert_true(h < mb);
	assert_false(fabs(mb - mb / 10) < h);     /* 10x faster: not held */
	assert_false(fabs(mb - mb / 20) < h);     /* nor anything faster */
	assert_true(fabs(mb - mb / 1.5) < h);     /* 1.5x: held */
	assert_true(fabs(mb - mb / 7.3) < h);     /* red team 247's naive, the pool's arithmetic: held */
	json_decref(r.timing_method);
}

/* A string that is not UTF-8 is written with '?' for its bytes past
 * ASCII, never left out (a search's why once lost its text to a
 * dangling pointer's bytes, and the record had no why at all). */
static void test_jstr_not_utf8(void **state)
{
	(void)state;
	json_t *v = jstr("kept: not faster than \xff\xfe O");
	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), "kept: not faster than ?? O");
	json_decref(v);
	v = jstr("caf\xc3\xa9");
	assert_string_equal(json_string_value(v), "caf\xc3\xa9");
	json_decref(v);
	v = jstr(NULL);
	assert_true(json_is_null(v));
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_round_trip),
		cmocka_unit_test(test_handshake_widened_by_threads),
		cmocka_unit_test(test_handshake_cap_frees_10x),
		cmocka_unit_test(test_one_process_read_as_inconclusive),
		cmocka_unit_test(test_outcome_as_expected),
		cmocka_unit_test(test_expect_met_follows_the_rule),
		cmocka_unit_test(test_lineage_round_trip),
		cmocka_unit_test(test_by_dist_round_trip),
		cmocka_unit_test(test_problem_rule_exact_recorded),
		cmocka_unit_test(test_shape_pass_misjudged),
		cmocka_unit_test(test_runner_round_trip),
		cmocka_unit_test(test_samples_damage_is_an_error),
		cmocka_unit_test(test_attrs_lines),
		cmocka_unit_test(test_index_views_match),
		cmocka_unit_test(test_views_refuse_odd_text),
		cmocka_unit_test(test_jstr_not_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
