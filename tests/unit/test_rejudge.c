/*
 * test_rejudge.c - the parent's judgement of the checker's judgement
 * (run/outcome.h outcome_rejudge): a check per shipped output, in order,
 * about that output; a pass recomputed with the parent's tolerance.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/outcome.h"

static const struct ev_tolerance tol = { .atol = 1e-3, .rtol = 1e-3, .rel_l2 = 1e-2 };

/* two seed launches and two timed samples (3 and 7, fresh seeds 11, 12) */
static struct proto_capture caps[4];
static struct rec_check checks[4];

static void setup_good(void)
{
	memset(caps, 0, sizeof(caps));
	memset(checks, 0, sizeof(checks));
	for (int i = 0; i < 4; i++) {
		caps[i].timed = i >= 2;
		caps[i].index = i < 2 ? i : (i == 2 ? 3 : 7);
		caps[i].fresh = i >= 2;
		caps[i].seed = i == 2 ? 11 : 12;
		checks[i].phase = i < 2 ? "seed" : "timed";
		checks[i].sample = i < 2 ? -1 : caps[i].index;
		checks[i].seed = i < 2 ? 100 + (unsigned)i : caps[i].seed;
		checks[i].max_abs_err = 1e-4;
		checks[i].rel_l2 = 1e-4;
		checks[i].ref_scale = 1;
		checks[i].pass = 1;
	}
}

static void test_agreeing_checks_stand(void **state)
{
	(void)state;
	setup_good();
	char *err = NULL;
	long long asked = -1, got = -1;
	assert_int_equal(outcome_rejudge(&tol, caps, 4, checks, 4, &err, &asked, &got), 0);
	assert_null(err);
	assert_int_equal(asked, 2);
	assert_int_equal(got, 2);
	for (int i = 0; i < 4; i++)
		assert_true(checks[i].pass);
}

/* a checker that passes what the parent's tolerance fails (its job file
 * rewritten to a loose tolerance, or a forged pass flag) is overturned */
static void test_loose_pass_is_overturned(void **state)
{
	(void)state;
	setup_good();
	checks[3].max_abs_err = 0.5; /* far beyond (atol + rtol) x 1 */
	checks[1].rel_l2 = 0.2;      /* beyond rel_l2 */
	checks[2].mismatches = 3;
	char *err = NULL;
	long long a, g;
	assert_int_equal(outcome_rejudge(&tol, caps, 4, checks, 4, &err, &a, &g), 3);
	assert_null(err);
	assert_false(checks[1].pass);
	assert_false(checks[2].pass);
	assert_false(checks[3].pass);
	assert_true(checks[0].pass);
}

/* fewer timed checks than shipped: the verdict is not about what ran */
static void test_missing_check_is_an_error(void **state)
{
	(void)state;
	setup_good();
	char *err = NULL;
	long long a, g;
	outcome_rejudge(&tol, caps, 4, checks, 3, &err, &a, &g);
	assert_non_null(err);
	assert_non_null(strstr(err, "judged 3 outputs where the parent shipped 4"));
	assert_int_equal(a, 2);
	assert_int_equal(g, 1);
	free(err);
}

/* a check of another sample, or of other inputs, than the one shipped */
static void test_wrong_sample_or_seed_is_an_error(void **state)
{
	(void)state;
	setup_good();
	checks[3].sample = 6;
	char *err = NULL;
	long long a, g;
	outcome_rejudge(&tol, caps, 4, checks, 4, &err, &a, &g);
	assert_non_null(err);
	assert_non_null(strstr(err, "timed sample 6"));
	free(err);
	setup_good();
	checks[2].seed = 99; /* judged on inputs the sample did not have */
	err = NULL;
	outcome_rejudge(&tol, caps, 4, checks, 4, &err, &a, &g);
	assert_non_null(err);
	free(err);
	setup_good();
	checks[1].phase = "timed"; /* a seed launch passed off as a timed one */
	err = NULL;
	outcome_rejudge(&tol, caps, 4, checks, 4, &err, &a, &g);
	assert_non_null(err);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreeing_checks_stand),
		cmocka_unit_test(test_loose_pass_is_overturned),
		cmocka_unit_test(test_missing_check_is_an_error),
		cmocka_unit_test(test_wrong_sample_or_seed_is_an_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
