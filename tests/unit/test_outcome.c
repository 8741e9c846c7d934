/*
 * test_outcome.c - unit tests of outcome classification: the worker's own
 * failure beats the exit status, timeouts beat signals, and the seed
 * results decide ok / flaky / nan / unwritten_output / wrong_output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/outcome.h"

static json_t *seed(int pass, int nan, int unw)
{
	return json_pack("{s:b, s:i, s:i, s:i, s:f, s:f, s:i, s:i}", "pass", pass, "nan_count", nan,
			 "unwritten", unw, "seed", 1, "max_abs_err", 0.5, "rel_l2", 0.1, "first_mismatch",
			 0, "mismatches", pass ? 0 : 3);
}

static const char *classify(json_t *failure, json_t *seeds, json_t *rechecks, int done,
			    struct run_result *r)
{
	static char buf[64];
	char *o, *why;
	struct outcome_input in = { .build_ok = 1, .failure = failure, .seeds = seeds,
				    .rechecks = rechecks ? rechecks : json_array(), .done = done, .run = r };
	outcome_classify(&in, &o, &why);
	snprintf(buf, sizeof(buf), "%s", o);
	free(o);
	free(why);
	if (!rechecks)
		json_decref(in.rechecks);
	return buf;
}

static void test_table(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct run_result seg = { .started = 1, .signaled = 1, .signo = 11 };
	struct run_result to = { .started = 1, .timed_out = 1 };
	json_t *all = json_pack("[o, o]", seed(1, 0, 0), seed(1, 0, 0));
	json_t *some = json_pack("[o, o]", seed(1, 0, 0), seed(0, 0, 0));
	json_t *nan = json_pack("[o, o]", seed(0, 1, 0), seed(0, 0, 0));
	json_t *unw = json_pack("[o]", seed(0, 0, 4));
	json_t *wrong = json_pack("[o]", seed(0, 0, 0));
	json_t *badre = json_pack("[o]", seed(0, 0, 0));
	json_t *fail = json_pack("{s:s, s:s, s:s}", "outcome", "crashed", "error",
				 "cudaErrorMisalignedAddress", "reason", "misaligned address");
	assert_string_equal(classify(NULL, all, NULL, 1, &ok), "ok");
	assert_string_equal(classify(NULL, some, NULL, 1, &ok), "flaky");
	assert_string_equal(classify(NULL, all, badre, 1, &ok), "flaky");
	assert_string_equal(classify(NULL, nan, NULL, 1, &ok), "nan");
	assert_string_equal(classify(NULL, unw, NULL, 1, &ok), "unwritten_output");
	assert_string_equal(classify(NULL, wrong, NULL, 1, &ok), "wrong_output");
	assert_string_equal(classify(NULL, all, NULL, 1, &seg), "crashed");
	assert_string_equal(classify(NULL, all, NULL, 0, &to), "timeout");
	assert_string_equal(classify(fail, all, NULL, 0, &seg), "crashed");
	assert_string_equal(classify(NULL, all, NULL, 0, &ok), "crashed"); /* no "done" */
	json_decref(all);
	json_decref(some);
	json_decref(nan);
	json_decref(unw);
	json_decref(wrong);
	json_decref(badre);
	json_decref(fail);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_table) };
	return cmocka_run_group_tests_name("outcome", tests, NULL, NULL);
}
