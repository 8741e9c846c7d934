/*
 * test_cuda_sanitize.c - sanitizer verdicts without a GPU: summary lines
 * of real compute-sanitizer 2025 reports (captured on the H100), the
 * verdict when compute-sanitizer is missing, unknown tools, and the cuda
 * backend's probe on a machine without a driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/job.h"
#include "backends/sanitize.h"
#include "base/runcmd.h"
#include "base/util.h"

static void test_count_errors(void **state)
{
	assert_int_equal(sanitize_count_errors("========= ERROR SUMMARY: 0 errors\n"), 0);
	assert_int_equal(sanitize_count_errors(
				 "========= Invalid __global__ write of size 2 bytes\n"
				 "========= ERROR SUMMARY: 1887 errors\n"
				 "========= ERROR SUMMARY: 1837 errors were not printed. Use --print-limit "
				 "option to adjust the number of printed errors\n"),
			 1887);
	assert_int_equal(sanitize_count_errors("========= RACECHECK SUMMARY: 1 hazard displayed "
					       "(1 error, 0 warnings)\n"),
			 1);
	assert_int_equal(sanitize_count_errors("========= RACECHECK SUMMARY: 0 hazards displayed "
					       "(0 errors, 0 warnings)\n"),
			 0);
	assert_int_equal(sanitize_count_errors("the worker crashed before any summary\n"), -1);
}

static void test_argv(void **state)
{
	(void)state;
	const char *w[] = { "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	const char **a = sanitize_argv("/cuda/bin/compute-sanitizer", "racecheck", w, 0, NULL);
	const char *want[] = { "/cuda/bin/compute-sanitizer", "--tool", "racecheck", "--error-exitcode", "86",
			       "--print-limit", "50", "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	for (size_t i = 0; want[i]; i++)
		assert_string_equal(a[i], want[i]);
	assert_null(a[10]);
	free(a);
	/* a sealed replay: the harness's own API calls are not reported (its
	 * loader's probes were counted as two memcheck errors on an H200) */
	a = sanitize_argv("/cuda/bin/compute-sanitizer", "memcheck", w, 1, NULL);
	assert_string_equal(a[7], "--report-api-errors");
	assert_string_equal(a[8], "no");
	assert_string_equal(a[9], "/x/evident-worker");
	assert_null(a[12]);
	free(a);
}

/* The window (red team 57): SANITIZE_WINDOW_LAUNCHES launches in a row,
 * the start uniform over every start that keeps them inside the sequence;
 * a sequence no longer than the window is instrumented whole. */
static void test_window_draw(void **state)
{
	(void)state;
	struct sanitize_window w;
	sanitize_window_draw(3, 12345, &w);
	assert_int_equal(w.of, 3);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, 0); /* 0: every launch */
	assert_string_equal(w.skip_s, "0");
	assert_string_equal(w.count_s, "0");
	sanitize_window_draw(SANITIZE_WINDOW_LAUNCHES, ~0ULL, &w);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, 0);
	sanitize_window_draw(0, 7, &w);
	assert_int_equal(w.of, 0);
	assert_int_equal(w.count, 0);
	/* 136 launches (5 seeds, 31 warm-up, 100 timed): starts 0 .. 132 */
	long long of = 136, starts = of - SANITIZE_WINDOW_LAUNCHES + 1;
	sanitize_window_draw(of, 0, &w);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, SANITIZE_WINDOW_LAUNCHES);
	assert_string_equal(w.count_s, "4");
	sanitize_window_draw(of, (uint64_t)starts - 1, &w);
	assert_int_equal(w.skip, starts - 1);
	assert_int_equal(w.skip + w.count, of); /* the last launch is reachable */
	sanitize_window_draw(of, (uint64_t)starts, &w);
	assert_int_equal(w.skip, 0);
	assert_string_equal(w.skip_s, "0");
	sanitize_window_draw(of, (uint64_t)starts * 1000 + 77, &w);
	assert_int_equal(w.skip, 77);
	assert_string_equal(w.skip_s, "77");
	/* every start reached, each about as often, over OS-random words */
	long long hits[200] = { 0 };
	for (int i = 0; i < 50000; i++) {
		sanitize_window_draw(of, random_secret_u64(), &w);
		assert_true(w.skip >= 0 && w.skip < starts);
		assert_true(w.skip + w.count <= of);
		hits[w.skip]++;
	}
	for (long long k = 0; k < starts; k++)
		assert_true(hits[k] > 50000 / starts / 2 && hits[k] < 50000 / starts * 2);
}

/* initcheck's window reaches back to the first launch. */
/* The harness's grids are left out by name only on a sealed replay whose
 * plan names none of its steps with the mark: in process, a kernel's own
 * code names its grids (evc_harness_racy was never instrumented). */
static void test_may_exclude_harness(void **state)
{
	(void)state;
	assert_true(sanitize_may_exclude_harness(1, 0));
	assert_false(sanitize_may_exclude_harness(1, 1));
	assert_false(sanitize_may_exclude_harness(0, 0));
	assert_false(sanitize_may_exclude_harness(0, 1));
	/* no window: no filter by name, every grid instrumented */
	const char *wa[] = { "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	const char **a = sanitize_argv("/cuda/bin/compute-sanitizer", "racecheck", wa, 0, NULL);
	for (size_t i = 0; a[i]; i++)
		assert_string_not_equal(a[i], "--kernel-name-exclude");
	free(a);
}

/* A timed run that ended before its window's end gives no verdict,
 * whatever the name filter: the whole window (a plan named with the
 * harness's mark runs with no window pointer) is held to its length;
 * a failure stays a failure. */
static void test_judge_ran(void **state)
{
	(void)state;
	struct sanitize_window w;
	sanitize_window_whole(136, &w);
	json_t *v = json_pack("{s:s, s:b, s:{}}", "tool", "racecheck", "passed", 1, "window");
	sanitize_judge_ran(v, &w, 136);
	assert_true(json_is_true(json_object_get(v, "passed")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "window"), "ran")), 136);
	sanitize_judge_ran(v, &w, 40);
	assert_true(json_is_null(json_object_get(v, "passed")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "window"), "ran")), 40);
	const char *r = json_string_value(json_object_get(v, "reason"));
	assert_non_null(r);
	assert_non_null(strstr(r, "made 40 of the kernel's launches, fewer than the 136"));
	json_decref(v);
	v = json_pack("{s:s, s:b}", "tool", "racecheck", "passed", 0);
	sanitize_judge_ran(v, &w, 1);
	assert_true(json_is_false(json_object_get(v, "passed")));
	assert_null(json_object_get(v, "reason"));
	json_decref(v);
	/* a drawn window ends at skip + count */
	sanitize_window_draw(100, 10, &w);
	v = json_pack("{s:b}", "passed", 1);
	sanitize_judge_ran(v, &w, w.skip + w.count);
	assert_true(json_is_true(json_object_get(v, "passed")));
	sanitize_judge_ran(v, &w, w.skip + w.count - 1);
	assert_true(json_is_null(json_object_get(v, "passed")));
	json_decref(v);
}

/* What the runner instruments: every launch (no skip, no count; the
 * harness's grids still excluded by their mark): a drawn window of 4
 * held none of smem_race's launches on an H200. */
static void test_window_whole(void **state)
{
	(void)state;
	struct sanitize_window w;
	sanitize_window_whole(136, &w);
	assert_int_equal(w.of, 136);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, 0);
	const char *wa[] = { "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	const char **a = sanitize_argv("/cuda/bin/compute-sanitizer", "racecheck", wa, 1, &w);
	int excl = 0;
	for (size_t i = 0; a[i]; i++) {
		assert_string_not_equal(a[i], "--launch-skip");
		assert_string_not_equal(a[i], "--launch-count");
		excl |= !strcmp(a[i], "--kernel-name-exclude");
	}
	assert_true(excl);
	free(a);
}

static void test_window_prefix(void **state)
{
	(void)state;
	struct sanitize_window w;
	sanitize_window_draw(136, 77, &w);
	sanitize_window_prefix(&w);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, 81);
	assert_string_equal(w.skip_s, "0");
	assert_string_equal(w.count_s, "81");
	sanitize_window_draw(3, 77, &w); /* every launch already */
	sanitize_window_prefix(&w);
	assert_int_equal(w.skip, 0);
	assert_int_equal(w.count, 0);
}

/* What the window is drawn over: every launch() of the sequence, times
 * the grids a sealed plan's launch makes. */
static void test_sequence_launches(void **state)
{
	(void)state;
	assert_int_equal(sanitize_sequence_launches(5, 31, 100, 1), 136);
	assert_int_equal(sanitize_sequence_launches(5, 31, 100, 0), 136);
	assert_int_equal(sanitize_sequence_launches(5, 31, 100, 3), 408);
	assert_int_equal(sanitize_sequence_launches(1, 0, 0, 1), 1); /* untimed: the seeds */
	assert_int_equal(sanitize_sequence_launches(2, -1, 0, 2), 4);
}

/* The sanitized job carries the main worker's warm-up count; a main job
 * carries none (its JSON is as before). */
static void test_job_warmup_samples(void **state)
{
	(void)state;
	struct job j, back;
	memset(&j, 0, sizeof(j));
	j.phase = "sanitize";
	j.backend = "cuda";
	j.kernel_so = "/k.so";
	j.problem = "attention_fwd";
	j.problem_so = "/p.so";
	j.dtype = "fp16";
	j.seeds = 5;
	j.timing = 1;
	j.n_sets = 2;
	knobs_init(&j.k);
	knobs_derive(&j.k, 3);
	json_t *o = job_to_json(&j);
	assert_null(json_object_get(o, "warmup_samples"));
	assert_int_equal(job_from_json(o, &back), 0);
	assert_int_equal(back.warmup_samples, 0);
	json_decref(o);
	j.warmup_samples = 31;
	o = job_to_json(&j);
	assert_int_equal(json_integer_value(json_object_get(o, "warmup_samples")), 31);
	assert_int_equal(job_from_json(o, &back), 0);
	assert_int_equal(back.warmup_samples, 31);
	assert_int_equal(back.seeds, 5);
	json_decref(o);
}

/* The argv with a window: the harness's grids excluded by their mark,
 * then the skip and the count, before the worker's own argv. */
static void test_argv_window(void **state)
{
	(void)state;
	const char *w[] = { "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	struct sanitize_window win;
	sanitize_window_draw(136, 40, &win);
	const char **a = sanitize_argv("/cuda/bin/compute-sanitizer", "racecheck", w, 1, &win);
	const char *want[] = { "/cuda/bin/compute-sanitizer", "--tool", "racecheck", "--error-exitcode", "86",
			       "--print-limit", "50", "--report-api-errors", "no", "--kernel-name-exclude",
			       "kns=evc_harness_", "--launch-skip", "40", "--launch-count", "4",
			       "/x/evident-worker", "__worker", "/proc/self/fd/7", NULL };
	size_t i;
	for (i = 0; want[i]; i++)
		assert_string_equal(a[i], want[i]);
	assert_null(a[i]);
	free(a);
	/* in process (trust: host): no --report-api-errors, the same window */
	a = sanitize_argv("/cuda/bin/compute-sanitizer", "memcheck", w, 0, &win);
	assert_string_equal(a[7], "--kernel-name-exclude");
	assert_string_equal(a[11], "--launch-count");
	assert_string_equal(a[12], "4");
	assert_string_equal(a[13], "/x/evident-worker");
	assert_null(a[16]);
	free(a);
}

/* The tool's verdict from its summary and exit, then the output's: a
 * clean report of a run whose output was wrong or missing is not passed
 * (red team 56's empty: nothing enqueued, 0 hazards). */
static void test_judge(void **state)
{
	(void)state;
	const char *argv[] = { "cs", "--tool", "racecheck", NULL };
	const char *clean = "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";
	const char *racy = "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
	struct run_result r;
	memset(&r, 0, sizeof(r));
	r.started = r.exited = 1;

	json_t *v = json_pack("{s:s}", "tool", "racecheck");
	sanitize_judge_run(v, argv, clean, strlen(clean), &r);
	assert_true(json_is_true(json_object_get(v, "passed")));
	assert_int_equal(json_integer_value(json_object_get(v, "errors")), 0);
	sanitize_judge_output(v, 1, 1, NULL);
	assert_true(json_is_true(json_object_get(v, "passed")));
	assert_true(json_is_true(json_object_get(json_object_get(v, "output"), "passed")));
	json_decref(v);

	v = json_pack("{s:s}", "tool", "racecheck");
	sanitize_judge_run(v, argv, clean, strlen(clean), &r);
	sanitize_judge_output(v, 0, 0, "no output was judged");
	assert_true(json_is_false(json_object_get(v, "passed")));
	assert_true(json_is_false(json_object_get(json_object_get(v, "output"), "passed")));
	assert_non_null(strstr(json_string_value(json_object_get(v, "reason")), "no output was judged"));
	json_decref(v);

	/* a racy report stays failed, whatever the output */
	r.exit_code = SANITIZE_ERROR_EXIT;
	v = json_pack("{s:s}", "tool", "racecheck");
	sanitize_judge_run(v, argv, racy, strlen(racy), &r);
	assert_true(json_is_false(json_object_get(v, "passed")));
	sanitize_judge_output(v, 1, 1, NULL);
	assert_true(json_is_false(json_object_get(v, "passed")));
	json_decref(v);

	/* no summary: no verdict (not passed either), and it stays none, the
	 * output's failure said */
	r.exit_code = 1;
	v = json_pack("{s:s}", "tool", "memcheck");
	sanitize_judge_run(v, argv, "worker crashed\n", 15, &r);
	assert_true(json_is_null(json_object_get(v, "passed")));
	sanitize_judge_output(v, 0, 0, "the worker did not finish its seed");
	assert_true(json_is_null(json_object_get(v, "passed")));
	assert_non_null(strstr(json_string_value(json_object_get(v, "reason")), "did not finish its seed"));
	assert_non_null(strstr(json_string_value(json_object_get(v, "reason")), "no summary line"));
	json_decref(v);
}

static void test_missing_sanitizer(void **state)
{
	const char *argv[] = { "/bin/true", NULL };
	json_t *v = NULL;
	char *old_path = xstrdup(getenv("PATH") ? getenv("PATH") : "");
	char *old_home = getenv("CUDA_HOME") ? xstrdup(getenv("CUDA_HOME")) : NULL;

	if (access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0 ||
	    access("/usr/local/cuda/compute-sanitizer/compute-sanitizer", X_OK) == 0) {
		free(old_path);
		free(old_home);
		skip(); /* the fixed fallback location exists: cannot hide it */
	}
	setenv("PATH", "/nonexistent", 1);
	setenv("CUDA_HOME", "/nonexistent", 1);
	assert_int_equal(sanitize_run("memcheck", argv, NULL, NULL, 10, &v), 0);
	assert_non_null(v);
	assert_string_equal(json_string_value(json_object_get(v, "tool")), "memcheck");
	assert_true(json_is_null(json_object_get(v, "passed")));
	assert_non_null(strstr(json_string_value(json_object_get(v, "reason")),
			       "compute-sanitizer not found"));
	json_decref(v);
	setenv("PATH", old_path, 1);
	if (old_home)
		setenv("CUDA_HOME", old_home, 1);
	else
		unsetenv("CUDA_HOME");
	free(old_path);
	free(old_home);
}

static void test_unknown_tool(void **state)
{
	const char *argv[] = { "/bin/true", NULL };
	json_t *v = (json_t *)1;
	util_quiet = 1;
	assert_int_equal(sanitize_run("leakcheck", argv, NULL, NULL, 10, &v), -1);
	util_quiet = 0;
	assert_null(v);
	assert_true(sanitize_tool_known("racecheck"));
	assert_false(sanitize_tool_known(NULL));
}

static void test_probe_without_driver(void **state)
{
	struct strbuf why = STRBUF_INIT;
	void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (drv) {
		dlclose(drv);
		skip(); /* a driver is installed: the GPU tests cover this machine */
	}
	assert_int_equal(backend_cuda.probe(&why), -1);
	assert_string_equal(why.buf, "no CUDA driver (libcuda.so.1 not found)");
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_errors),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_window_draw),
		cmocka_unit_test(test_argv_window),
		cmocka_unit_test(test_window_prefix),
		cmocka_unit_test(test_window_whole),
		cmocka_unit_test(test_judge_ran),
		cmocka_unit_test(test_may_exclude_harness),
		cmocka_unit_test(test_sequence_launches),
		cmocka_unit_test(test_job_warmup_samples),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_missing_sanitizer),
		cmocka_unit_test(test_unknown_tool),
		cmocka_unit_test(test_probe_without_driver),
	};
	return cmocka_run_group_tests_name("cuda_sanitize", tests, NULL, NULL);
}
