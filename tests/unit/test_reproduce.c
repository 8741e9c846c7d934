/*
 * test_reproduce.c - the verdicts of `evident reproduce` on hand-made rows
 * (run/reproduce.h: repro_judge): the band is the other batch's CI widened
 * by the noise threshold, on both sides; outcomes must match; a build that
 * fails now is "could not rebuild"; the warnings on where the batches ran
 * (repro_env_warnings); and the record's reproduction field read back as
 * written (record.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "run/reproduce.h"

static struct batch_row ok_row(double median, double lo, double hi)
{
	struct batch_row r;
	memset(&r, 0, sizeof(r));
	r.variant = "v";
	r.outcome = OUTCOME_OK;
	r.have_stats = 1;
	r.stats.median = median;
	r.stats.median_ci[0] = lo;
	r.stats.median_ci[1] = hi;
	r.mde = NAN;
	return r;
}

static struct batch_row bad_row(enum outcome o, const char *reason)
{
	struct batch_row r;
	memset(&r, 0, sizeof(r));
	r.variant = "v";
	r.outcome = o;
	r.reason = reason;
	r.mde = NAN;
	return r;
}

/* verdict of old against now at threshold t; *why gets the reason (caller frees) */
static enum repro_verdict judge(struct batch_row old, struct batch_row now, double t, char **why)
{
	struct rec_repro_row out;
	repro_judge(&old, &now, t, &out, why);
	assert_string_equal(out.variant, "v");
	assert_string_equal(out.verdict_text, repro_verdict_name(out.verdict));
	assert_ptr_equal(out.reason, *why);
	return out.verdict;
}

static void test_band(void **state)
{
	(void)state;
	char *why;
	/* each median within the other's CI */
	assert_int_equal(judge(ok_row(100, 99, 101), ok_row(100.5, 99.8, 101.2), 0.01, &why), REPRO_REPRODUCED);
	assert_null(why);
	/* 101.5 lies outside [99, 101] but inside it widened by 1%, [98.01, 102.01];
	 * 100 outside [100.8, 102] but inside [99.792, 103.02] */
	assert_int_equal(judge(ok_row(100, 99, 101), ok_row(101.5, 100.8, 102), 0.01, &why), REPRO_REPRODUCED);
	assert_null(why);
	/* with no band it does not */
	assert_int_equal(judge(ok_row(100, 99, 101), ok_row(101.5, 100.8, 102), 0, &why), REPRO_NOT_REPRODUCED);
	assert_non_null(strstr(why, "each median is outside the other's 95% CI widened by 0%"));
	free(why);
	/* one side only: the new median leaves the recorded CI, the recorded stays in the new one */
	assert_int_equal(judge(ok_row(100, 99, 101), ok_row(103, 99.5, 104), 0.01, &why), REPRO_NOT_REPRODUCED);
	assert_non_null(strstr(why, "the new median is outside the recorded 95% CI widened by 1%"));
	free(why);
	/* symmetric: the new CI is narrow and misses the recorded median, though the new median is within the old CI */
	assert_int_equal(judge(ok_row(100, 90, 110), ok_row(105, 104.9, 105.1), 0.01, &why), REPRO_NOT_REPRODUCED);
	assert_non_null(strstr(why, "the recorded median is outside the new 95% CI widened by 1%"));
	free(why);
	/* five times slower: both values, both CIs and the ratio */
	assert_int_equal(judge(ok_row(100, 99, 101), ok_row(500, 495, 505), 0.01, &why), REPRO_NOT_REPRODUCED);
	assert_string_equal(why, "median 100.000 us [99.000, 101.000] then, 500.000 us [495.000, 505.000] now (5.00x): "
				 "each median is outside the other's 95% CI widened by 1%");
	free(why);
}

static void test_outcomes(void **state)
{
	(void)state;
	char *why;
	/* the same failure, reproduced */
	assert_int_equal(judge(bad_row(OUTCOME_CRASHED, "SIGSEGV"), bad_row(OUTCOME_CRASHED, "SIGSEGV"), 0.01, &why),
			 REPRO_REPRODUCED);
	assert_null(why);
	/* ok then, crashed now */
	assert_int_equal(judge(ok_row(100, 99, 101), bad_row(OUTCOME_CRASHED, "SIGSEGV"), 0.01, &why),
			 REPRO_NOT_REPRODUCED);
	assert_string_equal(why, "outcome ok then, crashed now: SIGSEGV");
	free(why);
	/* crashed then, ok now: not reproduced either */
	assert_int_equal(judge(bad_row(OUTCOME_CRASHED, "SIGSEGV"), ok_row(100, 99, 101), 0.01, &why),
			 REPRO_NOT_REPRODUCED);
	free(why);
	/* built then, does not now: the build error */
	assert_int_equal(judge(ok_row(100, 99, 101), bad_row(OUTCOME_BUILD_FAILED, "error: 'x' undeclared"), 0.01, &why),
			 REPRO_COULD_NOT_REBUILD);
	assert_non_null(strstr(why, "error: 'x' undeclared"));
	free(why);
	/* failed to build both times: the same outcome */
	assert_int_equal(judge(bad_row(OUTCOME_BUILD_FAILED, "a"), bad_row(OUTCOME_BUILD_FAILED, "b"), 0.01, &why),
			 REPRO_REPRODUCED);
	/* not run at all */
	struct batch_row old = ok_row(100, 99, 101);
	struct rec_repro_row out;
	repro_judge(&old, NULL, 0.01, &out, &why);
	assert_int_equal(out.verdict, REPRO_NOT_REPRODUCED);
	assert_string_equal(out.now.outcome_text, "aborted");
	free(why);
	/* only one side timed */
	struct batch_row untimed = ok_row(0, 0, 0);
	untimed.have_stats = 0;
	assert_int_equal(judge(ok_row(100, 99, 101), untimed, 0.01, &why), REPRO_NOT_REPRODUCED);
	assert_non_null(strstr(why, "only the recorded batch has timing statistics"));
	free(why);
}

static json_t *machine(const char *cpu, const char *gpu, const char *driver, const char *nvcc)
{
	return json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}}", "cpu", cpu, "gpu", "name", gpu, "driver_version", driver,
			 "compilers", "cc", "gcc 12", "nvcc", nvcc);
}

static void test_env_warnings(void **state)
{
	(void)state;
	struct batch_record a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.machine = machine("Xeon", "NVIDIA H100 80GB HBM3", "550.54", "release 12.4");
	b.machine = machine("Xeon", "NVIDIA H100 80GB HBM3", "550.54", "release 12.4");
	json_t *w = json_array();
	repro_env_warnings(&a, &b, w);
	assert_int_equal(json_array_size(w), 0);
	json_decref(b.machine);
	b.machine = machine("EPYC", "NVIDIA H200", "560.1", "release 12.6");
	repro_env_warnings(&a, &b, w);
	assert_int_equal(json_array_size(w), 4);
	assert_string_equal(json_string_value(json_array_get(w, 0)),
			    "the GPU differs: recorded 'NVIDIA H100 80GB HBM3', now 'NVIDIA H200'");
	assert_string_equal(json_string_value(json_array_get(w, 1)), "the GPU driver differs: recorded '550.54', now '560.1'");
	assert_string_equal(json_string_value(json_array_get(w, 2)),
			    "the CUDA toolchain (nvcc) differs: recorded 'release 12.4', now 'release 12.6'");
	assert_string_equal(json_string_value(json_array_get(w, 3)), "the host CPU differs: recorded 'Xeon', now 'EPYC'");
	json_decref(w);
	json_decref(a.machine);
	json_decref(b.machine);
}

/* the reproduction field, written by record_batch_json and read back */
static void test_record_round_trip(void **state)
{
	(void)state;
	struct batch_row row = ok_row(100, 99, 101);
	struct rec_repro_row rr[2];
	char *why0, *why1;
	struct batch_row now0 = ok_row(500, 495, 505);
	struct batch_row now1 = bad_row(OUTCOME_BUILD_FAILED, "error: no");
	repro_judge(&row, &now0, 0.01, &rr[0], &why0);
	repro_judge(&row, &now1, 0.01, &rr[1], &why1);
	struct batch_record b;
	memset(&b, 0, sizeof(b));
	b.run_id = b.batch_id = "20260101T000000Z-e-0000abcd-batch";
	b.experiment = "e";
	b.rows = &row;
	b.n_rows = 1;
	b.problem.flops = b.problem.min_bytes = NAN;
	b.holm_alpha = b.holm_threshold = b.t_wall_s = b.t_gpu_s = b.t_usd = NAN;
	b.repro.have = 1;
	b.repro.of = "20251231T000000Z-e-1234abcd-batch";
	b.repro.commit = "0123456789abcdef0123456789abcdef01234567";
	b.repro.diff_object = "ab";
	b.repro.threshold = 0.01;
	b.repro.rows = rr;
	b.repro.n_rows = 2;
	b.repro.warnings = json_pack("[s]", "the host CPU differs");
	json_t *m = record_batch_json(&b);
	struct batch_record r;
	assert_int_equal(record_batch_read(m, &r), 0);
	assert_true(r.repro.have);
	assert_string_equal(r.repro.of, b.repro.of);
	assert_string_equal(r.repro.commit, b.repro.commit);
	assert_string_equal(r.repro.diff_object, "ab");
	assert_false(r.repro.reproduced);
	assert_true(fabs(r.repro.threshold - 0.01) < 1e-12);
	assert_int_equal(r.repro.n_rows, 2);
	assert_int_equal(r.repro.rows[0].verdict, REPRO_NOT_REPRODUCED);
	assert_string_equal(r.repro.rows[0].reason, why0);
	assert_true(r.repro.rows[0].recorded.have_stats && r.repro.rows[0].now.have_stats);
	assert_true(r.repro.rows[0].now.median_us == 500 && r.repro.rows[0].now.ci[1] == 505);
	assert_int_equal(r.repro.rows[1].verdict, REPRO_COULD_NOT_REBUILD);
	assert_int_equal(r.repro.rows[1].now.outcome, OUTCOME_BUILD_FAILED);
	assert_false(r.repro.rows[1].now.have_stats);
	assert_int_equal(json_array_size(r.repro.warnings), 1);
	/* the table names both medians and both CIs */
	struct strbuf out = STRBUF_INIT;
	repro_format(&r.repro, r.run_id, &out);
	assert_non_null(strstr(out.buf, "NOT reproduced     ok 100.000 us [99.000, 101.000]      ok 500.000 us [495.000, 505.000]"));
	assert_non_null(strstr(out.buf, "could not rebuild  ok 100.000 us [99.000, 101.000]      build_failed"));
	assert_non_null(strstr(out.buf, "  warning: the host CPU differs\n"));
	assert_non_null(strstr(out.buf, "NOT reproduced: 0 of 2 variant(s) reproduced, 1 not reproduced, 1 could not be rebuilt\n"));
	strbuf_release(&out);
	batch_record_release(&r);
	json_decref(m);
	/* a batch that reproduces nothing has no such field, and reads as none;
	 * a row's stress_slow (gather.c) is read back, and a row without one
	 * (a batch before it) reads NAN: its notes decide */
	b.repro.have = 0;
	row.stress_slow = 7.5;
	m = record_batch_json(&b);
	assert_null(json_object_get(m, "reproduction"));
	assert_int_equal(record_batch_read(m, &r), 0);
	assert_false(r.repro.have);
	assert_true(r.n_rows == 1 && r.rows[0].stress_slow == 7.5);
	batch_record_release(&r);
	json_decref(m);
	row.stress_slow = NAN;
	m = record_batch_json(&b);
	assert_non_null(json_array_get(json_object_get(m, "variants"), 0));
	assert_null(json_object_get(json_array_get(json_object_get(m, "variants"), 0), "stress_slow"));
	assert_int_equal(record_batch_read(m, &r), 0);
	assert_true(r.n_rows == 1 && isnan(r.rows[0].stress_slow));
	batch_record_release(&r);
	json_decref(m);
	json_decref(b.repro.warnings);
	free(why0);
	free(why1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_env_warnings),
		cmocka_unit_test(test_record_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
