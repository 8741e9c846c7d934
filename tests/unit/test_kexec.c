/*
 * test_kexec.c - which kernel executor runs each phase of a job
 * (run/kexec.h): a sealed cuda variant is planned and replayed for its
 * main phase and for its extra shape (red team 3, rt3_capture_dispatch:
 * an extra shape run in process checks other code than the plan that is
 * timed); the host backend's timed phase keeps the parent's clock; and the
 * planner's job carries none of the parent's seeds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "backends/backend.h"
#include "run/kexec.h"

static struct job job_of(const char *phase, int timing)
{
	struct job j;
	memset(&j, 0, sizeof(j));
	j.phase = phase;
	j.timing = timing;
	return j;
}

static void test_cuda_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0), san = job_of("sanitize", 0);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "sealed"), &kexec_sealed);
	/* the extra shape checks what is timed: sealed too */
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "sealed"), &kexec_sealed);
	assert_ptr_equal(kexec_for(&backend_cuda, &san, "sealed"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, NULL), &kexec_in_process);
}

static void test_host_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0);
	assert_ptr_equal(kexec_for(&backend_host, &main_j, "sealed"), &kexec_parent_clock);
	assert_ptr_equal(kexec_for(&backend_host, &shape, "sealed"), &kexec_in_process);
}

static void test_planner_job(void **state)
{
	(void)state;
	struct job w = job_of("shape", 0), p;
	w.seeds = 4;
	w.seed0 = 11;
	w.timing_seed = 12;
	w.scramble_seed = 13;
	w.first_set = 5;
	w.n_sets = 64;
	w.shape[2] = 99;
	w.kernel_so = "k.so";
	kexec_planner_job(&w, &p);
	assert_string_equal(p.phase, "plan");
	assert_int_equal(p.seeds, 0);
	assert_int_equal(p.timing, 0);
	/* the kernel's host code runs in the planner: no seed of the parent's */
	assert_int_equal(p.seed0, 0);
	assert_int_equal(p.timing_seed, 0);
	assert_int_equal(p.scramble_seed, 0);
	assert_int_equal(p.first_set, 0);
	/* what it needs to plan: the shape and the object */
	assert_int_equal(p.shape[2], 99);
	assert_string_equal(p.kernel_so, "k.so");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuda_executors),
		cmocka_unit_test(test_host_executors),
		cmocka_unit_test(test_planner_job),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
