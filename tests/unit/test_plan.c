/*
 * test_plan.c - the plan's rotation of timed input sets (run_ctx.h
 * plan_rotation_sets): enough sets to leave any cache cold, two when hot,
 * and never fewer than the launches of one sample, which must each read
 * inputs of their own (red team 4, rt4_batch_reuse: graph mode with a hot
 * cache and batch 8 had two sets, so launches 2..7 of every sample read
 * what launches 0 and 1 had read, and a kernel copied their answers).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "backends/cuda/evident_cuda.h"
#include "run/run_ctx.h"

#define MIB (1024.0 * 1024.0)

static void test_rotation_cold(void **state)
{
	(void)state;
	/* 256 MiB over sets of 1 MiB: 64 at most; of 100 MiB: 3; of 1 GiB: 2 */
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 1 * MIB), 64);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 100 * MIB), 3);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 1024 * MIB), 2);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 0), 2);
}

static void test_rotation_hot(void **state)
{
	(void)state;
	assert_int_equal(plan_rotation_sets(0, 1, 256 * MIB, 1 * MIB), 2);
	assert_int_equal(plan_rotation_sets(0, 1, 256 * MIB, 1024 * MIB), 2);
}

static void test_rotation_per_launch(void **state)
{
	(void)state;
	/* graph mode: a set for every launch of a sample, hot or cold */
	assert_int_equal(plan_rotation_sets(0, 8, 256 * MIB, 1 * MIB), 8);
	assert_int_equal(plan_rotation_sets(0, 10, 256 * MIB, 1 * MIB), 10);
	assert_int_equal(plan_rotation_sets(1, 8, 256 * MIB, 100 * MIB), 8);
	assert_int_equal(plan_rotation_sets(1, 100, 256 * MIB, 1 * MIB), 100);
	/* more sets than launches already: unchanged */
	assert_int_equal(plan_rotation_sets(1, 8, 256 * MIB, 1 * MIB), 64);
	assert_int_equal(plan_rotation_sets(0, 2, 256 * MIB, 1 * MIB), 2);
}

/* what the worker will hold, against the harness's room: batch 8 of
 * attention (3 inputs, 1 output, 4 distributions) fits, batch 3000 not */
static void test_device_buffers(void **state)
{
	(void)state;
	assert_int_equal(plan_device_buffers(8, 8, 3, 1, 4), 8 * 3 + 8 + 24);
	assert_int_equal(plan_device_buffers(64, 1, 3, 1, 4), 64 * 3 + 1 + 24);
	assert_int_equal(plan_device_buffers(2, 1, 2, 2, 0), 2 * 2 + 2 + 4);
	int n = plan_rotation_sets(0, 3000, 256 * MIB, 1 * MIB);
	assert_true(plan_device_buffers(n, 3000, 3, 1, 4) > EVC_MAX_BUFFERS);
	n = plan_rotation_sets(0, 8, 256 * MIB, 1 * MIB);
	assert_true(plan_device_buffers(n, 8, 3, 1, 4) <= EVC_MAX_BUFFERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotation_cold),
		cmocka_unit_test(test_rotation_hot),
		cmocka_unit_test(test_rotation_per_launch),
		cmocka_unit_test(test_device_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
