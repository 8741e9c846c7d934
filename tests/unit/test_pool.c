/*
 * test_pool.c - unit tests of the pool executor's pure parts (run/pool.c):
 * parsing `--gpus all|N|0,2,5` against the devices a host has, with clear
 * refusals, and the rule that keeps comparisons fair: repeat r of every
 * variant runs on slot r % n, so each slot times every variant equally
 * often.  The pool itself runs in tests/cli/t0090.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_ctx.h"

static int parse(const char *g, int count, int cpu, int **d, char *why, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	int k = pool_parse(g, count, cpu ? "CPU" : "GPU", cpu, d, &sb);
	snprintf(why, n, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return k;
}

static void test_parse_forms(void **state)
{
	(void)state;
	int *d = NULL;
	char why[256];
	assert_int_equal(parse("all", 4, 0, &d, why, sizeof(why)), 4);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[3], 3);
	free(d);
	assert_int_equal(parse("2", 4, 0, &d, why, sizeof(why)), 2); /* the first two GPUs */
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 1);
	free(d);
	assert_int_equal(parse("0,2,5", 8, 0, &d, why, sizeof(why)), 3);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 2);
	assert_int_equal(d[2], 5);
	free(d);
	/* CPU slots: a count names no CPU and may exceed the CPUs */
	assert_int_equal(parse("3", 2, 1, &d, why, sizeof(why)), 3);
	assert_int_equal(d[0], -1);
	free(d);
	assert_int_equal(parse("1,0", 2, 1, &d, why, sizeof(why)), 2);
	assert_int_equal(d[0], 1);
	free(d);
}

static void test_parse_refusals(void **state)
{
	(void)state;
	int *d = NULL;
	char why[256];
	assert_int_equal(parse("5", 4, 0, &d, why, sizeof(why)), -1);
	assert_null(d);
	assert_string_equal(why, "5 GPUs asked for, this host has 4");
	assert_int_equal(parse("0,7", 4, 0, &d, why, sizeof(why)), -1);
	assert_string_equal(why, "GPU 7 does not exist: this host has 4 (0 to 3)");
	assert_int_equal(parse("1,1", 4, 0, &d, why, sizeof(why)), -1);
	assert_string_equal(why, "GPU 1 is listed twice in '1,1'");
	assert_int_equal(parse("0,,2", 4, 0, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'' in '0,,2' is not an index"));
	assert_int_equal(parse("0,2,", 4, 0, &d, why, sizeof(why)), -1);
	assert_int_equal(parse("0", 4, 0, &d, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'0' is not a count of slots"));
	assert_int_equal(parse("two", 4, 0, &d, why, sizeof(why)), -1);
	assert_int_equal(parse("", 4, 0, &d, why, sizeof(why)), -1);
	assert_int_equal(parse("all", 0, 0, &d, why, sizeof(why)), -1);
	assert_string_equal(why, "'all': this host has no GPU");
	assert_int_equal(parse("-1", 4, 0, &d, why, sizeof(why)), -1);
	assert_null(d);
}

/* Every slot gets every variant equally often: the count of (slot, variant)
 * pairs over a whole plan of R = k * n repeats is k for every pair. */
static void test_slot_of_repeat(void **state)
{
	(void)state;
	for (int n = 1; n <= 5; n++)
		for (int r = 0; r < 20; r++)
			assert_int_equal(pool_slot_of(r, n), r % n);
	int per_slot[3] = { 0, 0, 0 };
	for (int r = 0; r < 6; r++)
		per_slot[pool_slot_of(r, 3)]++;
	assert_int_equal(per_slot[0], 2);
	assert_int_equal(per_slot[1], 2);
	assert_int_equal(per_slot[2], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_refusals),
		cmocka_unit_test(test_slot_of_repeat),
	};
	return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
