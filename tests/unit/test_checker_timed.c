/*
 * test_checker_timed.c - the checker's inputs for timed CUDA samples
 * (checker.c, fresh.h, scramble.h): a stream-mode sample's inputs are the
 * problem's fill of distribution evs_sample_dist(key, n_dists, mask) under
 * seed fresh_seed(key, 0) (red team 16: fresh every sample); in graph
 * mode launch j of timed sample g is the element-wise mix, under
 * evs_launch_key(key, j), of the pair of base sets of that distribution,
 * seeds timing_seed + 2d and + 2d + 1 (every launch of a sample of one
 * distribution; mask the problem's timing ones; red team 3,
 * rt3_dist_phase: every timed sample used to be of the first
 * distribution, so code that was exact only there was never caught while
 * timed).  The test plays the device: it makes the inputs the worker and
 * harness would, computes the float64 answer, and hands the checker those
 * outputs as captured; every check must pass, over keys that draw every
 * distribution.  Runs on the CPU: without a GPU reference built the
 * checker judges with the problem's float64 one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/fresh.h"
#include "backends/checker.h"
#include "checker_run.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/scramble.h"
#include "run/provenance.h"

static const char *cache_dir(void)
{
	const char *c = getenv("EVIDENT_TEST_CACHE");
	return c && *c ? c : "build/cache";
}

static struct problem attn = PROBLEM_INIT;

static int setup(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	int rc = problem_load("attention_fwd", cache_dir(), &attn, &why);
	if (rc < 0)
		fprintf(stderr, "cannot load attention_fwd: %s\n", strbuf_str(&why));
	strbuf_release(&why);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	problem_release(&attn);
	return 0;
}


/* A timed sealed CUDA job of attention_fwd at shape, as the parent writes it. */
static void timed_job(struct job *job, const long long shape[4], unsigned long long timing_seed, int first_set,
		      unsigned long long scramble_seed)
{
	memset(job, 0, sizeof(*job));
	job->phase = "main";
	job->backend = "cuda";
	job->kernel_so = "none.so";
	job->problem = "attention_fwd";
	job->problem_so = attn.so_path;
	job->n_dims = 4;
	memcpy(job->shape, shape, 4 * sizeof(long long));
	job->dtype = "fp16";
	knobs_init(&job->k);
	job->timing = 1;
	job->timing_seed = timing_seed;
	job->n_sets = 2;
	job->first_set = first_set;
	job->scramble_seed = scramble_seed;
	job->exec = "sealed";
}

static void test_timed_inputs_rotate_distributions(void **state)
{
	(void)state;
	const long long shape[4] = { 1, 2, 16, 8 };
	const int n_dists = attn.desc->n_dists, warmup = 3;
	const unsigned mask = problem_timing_dists(&attn);
	const int n_samples = 12;
	assert_int_equal(n_dists, 4);
	/* keys whose draw (scramble.h evs_sample_dist) gives each
	 * distribution three samples, in the order the keys came: the checker
	 * must derive each sample's distribution from its key alone (red
	 * team 13: not from its place, which before the fix it did) */
	uint64_t keys[12];
	int kd[12], per[4] = { 0 };
	for (uint64_t c = 0, k = 0; k < 12; c++) {
		uint64_t key = evs_mix64(0x1234 + c) | 1;
		int d = evs_sample_dist(key, n_dists, mask);
		if (per[d] < 3) {
			per[d]++;
			kd[k] = d;
			keys[k++] = key;
		}
	}
	struct job job;
	timed_job(&job, shape, 1000123, 1, 99);

	char dir[] = "/tmp/evident-test-checker-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *cap_path = xstrfmt("%s/captures.bin", dir);
	FILE *cap = fopen(cap_path, "wb");
	assert_non_null(cap);
	size_t n_out = problem_tensor_numel(&attn, 3, shape), bytes = n_out * 2;
	float **in = problem_inputs_new(&attn, shape), **b = problem_inputs_new(&attn, shape);
	double **ref = problem_outputs_new(&attn, shape);
	float *o32 = xmalloc(n_out * sizeof(float));
	unsigned char *o16 = xmalloc(bytes);
	json_t *caps = json_array();
	for (int k = 0; k < n_samples; k++) {
		long long g = warmup + k;
		int d = kd[k];
		uint64_t key = keys[k];
		/* what the worker uploads into the set the launch reads (stream
		 * mode: the problem's fill under the key's seed, fresh.h; the
		 * distribution is the key's) */
		assert_int_equal(problem_fill_rounded(&attn, shape, d, fresh_seed(key, 0), EV_F16, in), 0);
		problem_reference(&attn, shape, (const float *const *)in, ref);
		for (size_t e = 0; e < n_out; e++)
			o32[e] = (float)ref[0][e];
		problem_pack(o32, o16, n_out, EV_F16);
		assert_int_equal(fwrite(o16, 1, bytes, cap), bytes);
		json_array_append_new(caps, json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I, s:I}", "timed", 1, "index",
						      (json_int_t)k, "global", (json_int_t)g, "set",
						      evs_sample_set(job.first_set, job.n_sets, 1, g, 0), "batch", 1,
						      "offset", (json_int_t)(k * bytes), "bytes", (json_int_t)bytes,
						      "mix_key", (json_int_t)key));
	}
	fclose(cap);
	struct ev_tolerance tol;
	problem_tolerance(&attn, EV_F16, shape, &tol);
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:o, s:b}", "job", job_to_json(&job), "tolerance",
			       "atol", tol.atol, "rtol", tol.rtol, "rel_l2", tol.rel_l2, "captures_file", cap_path,
			       "captures", caps, "cross_check", 0);
	json_t *lines = run_checker(cj, dir);
	json_decref(cj);
	int checks = 0;
	size_t i;
	json_t *m;
	json_array_foreach(lines, i, m)
	{
		const char *msg = json_string_value(json_object_get(m, "msg"));
		assert_non_null(msg);
		if (strcmp(msg, "check"))
			continue;
		int d = kd[checks];
		if (!json_is_true(json_object_get(m, "pass")))
			print_error("timed sample %d (%s) failed: %s\n", checks, attn.desc->dists[d],
				    json_dumps(m, JSON_COMPACT));
		assert_true(json_is_true(json_object_get(m, "pass")));
		/* the check names the distribution its inputs were drawn from */
		assert_string_equal(json_string_value(json_object_get(m, "dist")), attn.desc->dists[d]);
		checks++;
	}
	assert_int_equal(checks, n_samples);
	json_decref(lines);
	problem_buffers_free(in, 3);
	problem_buffers_free(b, 3);
	problem_buffers_free(ref, 1);
	free(o32);
	free(o16);
	unlink(cap_path);
	free(cap_path);
	rmdir(dir);
}

/* A sealed main phase's planner's own seed outputs (job.c
 * run_checker_with: its captures in a second file, its seeds and
 * scramble named by each capture's "plan"), judged in the same run after
 * the worker's as phase "plan", each against the planner's seed, not the
 * worker's of the same index (red team 67's cupti_off: the planner's own
 * process is judged): here the planner's seed 0 is right and its seed 1
 * holds the answer for the worker's seed 1, which must fail. */
static void test_planner_seed_captures(void **state)
{
	(void)state;
	const long long shape[4] = { 1, 2, 16, 8 };
	struct job job;
	timed_job(&job, shape, 1000123, 1, 99);
	job.timing = 0;
	job.seeds = 2;
	job.seed0 = 5000;
	const unsigned long long p_seed0 = 777000, p_scramble = 4242;
	char dir[] = "/tmp/evident-test-checker-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *cap_path = xstrfmt("%s/captures.bin", dir), *plan_path = xstrfmt("%s/plan.bin", dir);
	size_t n_out = problem_tensor_numel(&attn, 3, shape), bytes = n_out * 2;
	float **in = problem_inputs_new(&attn, shape);
	double **ref = problem_outputs_new(&attn, shape);
	float *o32 = xmalloc(n_out * sizeof(float));
	unsigned char *o16 = xmalloc(bytes);
	json_t *caps = json_array();
	/* the worker's seeds 0, 1, then the planner's 0 (right) and 1 (the
	 * worker's seed 1's answer) */
	const unsigned long long seeds[4] = { 5000, 5001, p_seed0, 5001 };
	FILE *cap = fopen(cap_path, "wb"), *pcap = fopen(plan_path, "wb");
	assert_non_null(cap);
	assert_non_null(pcap);
	for (int k = 0; k < 4; k++) {
		int i = k % 2;
		assert_int_equal(problem_fill_rounded(&attn, shape, i % attn.desc->n_dists, seeds[k], EV_F16, in), 0);
		problem_reference(&attn, shape, (const float *const *)in, ref);
		for (size_t e = 0; e < n_out; e++)
			o32[e] = (float)ref[0][e];
		problem_pack(o32, o16, n_out, EV_F16);
		assert_int_equal(fwrite(o16, 1, bytes, k < 2 ? cap : pcap), bytes);
		json_t *cj = json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I}", "timed", 0, "index", (json_int_t)i,
				       "global", (json_int_t)i, "set", -1, "batch", 1, "offset", (json_int_t)(i * bytes),
				       "bytes", (json_int_t)bytes);
		if (k >= 2)
			json_object_set_new(cj, "plan", json_pack("{s:I, s:I}", "seed0", (json_int_t)p_seed0,
								  "scramble_seed", (json_int_t)p_scramble));
		json_array_append_new(caps, cj);
	}
	fclose(cap);
	fclose(pcap);
	struct ev_tolerance tol;
	problem_tolerance(&attn, EV_F16, shape, &tol);
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:s, s:o, s:b}", "job", job_to_json(&job), "tolerance",
			       "atol", tol.atol, "rtol", tol.rtol, "rel_l2", tol.rel_l2, "captures_file", cap_path,
			       "plan_captures_file", plan_path, "captures", caps, "cross_check", 0);
	json_t *lines = run_checker(cj, dir);
	json_decref(cj);
	const char *want_phase[4] = { "seed", "seed", "plan", "plan" };
	const int want_pass[4] = { 1, 1, 1, 0 };
	int checks = 0;
	size_t i;
	json_t *m;
	json_array_foreach(lines, i, m)
	{
		if (strcmp(json_string_value(json_object_get(m, "msg")), "check"))
			continue;
		assert_true(checks < 4);
		assert_string_equal(json_string_value(json_object_get(m, "phase")), want_phase[checks]);
		assert_int_equal(json_is_true(json_object_get(m, "pass")), want_pass[checks]);
		assert_int_equal((unsigned long long)json_integer_value(json_object_get(m, "seed")),
				 checks < 2 ? seeds[checks] : p_seed0 + (unsigned long long)(checks - 2));
		checks++;
	}
	assert_int_equal(checks, 4);
	json_decref(lines);
	problem_buffers_free(in, 3);
	problem_buffers_free(ref, 1);
	free(o32);
	free(o16);
	unlink(cap_path);
	unlink(plan_path);
	free(cap_path);
	free(plan_path);
	rmdir(dir);
}

/* A graph-batched sample of more launches than live sets: launches j and
 * j + n_sets read one set, which the harness mixed once, as launch
 * j % n_sets (harness.cu run_sample); the checker must regenerate that mix
 * for every launch (it failed every launch from n_sets on before). */
static void test_batch_more_launches_than_sets(void **state)
{
	(void)state;
	const long long shape[4] = { 1, 2, 16, 8 };
	const int n_dists = attn.desc->n_dists, batch = 5;
	struct job job;
	timed_job(&job, shape, 4242, 0, 7);
	job.k.batch = batch; /* graph mode: the mix (stream mode is fresh, test_fresh.c) */

	char dir[] = "/tmp/evident-test-checker-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *cap_path = xstrfmt("%s/captures.bin", dir);
	FILE *cap = fopen(cap_path, "wb");
	assert_non_null(cap);
	size_t n_out = problem_tensor_numel(&attn, 3, shape), bytes = n_out * 2;
	float **in = problem_inputs_new(&attn, shape), **b = problem_inputs_new(&attn, shape);
	double **ref = problem_outputs_new(&attn, shape);
	float *o32 = xmalloc(n_out * sizeof(float));
	unsigned char *o16 = xmalloc(bytes);
	const long long g = 2;
	uint64_t key = evs_mix64(0x777) | 1;
	for (int j = 0; j < batch; j++) {
		int u = j % job.n_sets, d = evs_sample_dist(key, n_dists, problem_timing_dists(&attn));
		problem_fill_rounded(&attn, shape, d, job.timing_seed + 2ULL * d, EV_F16, in);
		problem_fill_rounded(&attn, shape, d, job.timing_seed + 2ULL * d + 1, EV_F16, b);
		for (int t = 0; t < 3; t++)
			for (size_t e = 0; e < problem_tensor_numel(&attn, t, shape); e++)
				if (evs_mix_bit(evs_launch_key(key, (uint32_t)u), (uint32_t)t, e))
					in[t][e] = b[t][e];
		problem_reference(&attn, shape, (const float *const *)in, ref);
		for (size_t e = 0; e < n_out; e++)
			o32[e] = (float)ref[0][e];
		problem_pack(o32, o16, n_out, EV_F16);
		assert_int_equal(fwrite(o16, 1, bytes, cap), bytes);
	}
	fclose(cap);
	json_t *caps = json_array();
	json_array_append_new(caps, json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I, s:I}", "timed", 1, "index",
					      (json_int_t)0, "global", (json_int_t)g, "set", 0, "batch", batch,
					      "offset", (json_int_t)0, "bytes", (json_int_t)(batch * bytes), "mix_key",
					      (json_int_t)key));
	struct ev_tolerance tol;
	problem_tolerance(&attn, EV_F16, shape, &tol);
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:o, s:b}", "job", job_to_json(&job), "tolerance",
			       "atol", tol.atol, "rtol", tol.rtol, "rel_l2", tol.rel_l2, "captures_file", cap_path,
			       "captures", caps, "cross_check", 0);
	json_t *lines = run_checker(cj, dir);
	json_decref(cj);
	int checks = 0;
	size_t i;
	json_t *m;
	json_array_foreach(lines, i, m)
	{
		const char *msg = json_string_value(json_object_get(m, "msg"));
		if (!msg || strcmp(msg, "check"))
			continue;
		if (!json_is_true(json_object_get(m, "pass")))
			print_error("batched sample failed: %s\n", json_dumps(m, JSON_COMPACT));
		assert_true(json_is_true(json_object_get(m, "pass")));
		checks++;
	}
	assert_int_equal(checks, 1);
	json_decref(lines);
	problem_buffers_free(in, 3);
	problem_buffers_free(b, 3);
	problem_buffers_free(ref, 1);
	free(o32);
	free(o16);
	unlink(cap_path);
	free(cap_path);
	rmdir(dir);
}

static void test_sample_dist_and_launch_key(void **state)
{
	(void)state;
	int seen[4] = { 0 };
	for (uint64_t k = 17; k < 4017; k++)
		seen[evs_sample_dist(k, 4, 0xfu)]++;
	for (int d = 0; d < 4; d++) /* every one timing: a quarter each */
		assert_true(seen[d] > 850 && seen[d] < 1150);
	assert_int_equal(evs_sample_dist(5, 0, 1u), 0);
	assert_int_equal(evs_launch_key(42, 0), 42);
	assert_true(evs_launch_key(42, 1) != 42 && evs_launch_key(42, 1) != evs_launch_key(42, 2));
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_more_launches_than_sets),
		cmocka_unit_test(test_sample_dist_and_launch_key),
		cmocka_unit_test(test_planner_seed_captures),
		cmocka_unit_test(test_timed_inputs_rotate_distributions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
