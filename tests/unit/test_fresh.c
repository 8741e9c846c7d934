/*
 * test_fresh.c - every timed CUDA sample's inputs are fresh (fresh.h; red
 * team 16, docs/redteam16-cuda.md): the worker's pool fills each sample's
 * inputs with the problem's own fill under a seed and distribution drawn
 * from the sample's key, so the value at one position takes a new value
 * every sample (with the mix of two base sets per distribution it took
 * two, a codebook a `__device__` dictionary learned), and the checker
 * regenerates, from the key alone, exactly the bytes the worker uploaded.
 * Runs on the CPU: the pool is host code; the upload is the bytes it hands
 * over.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/checker.h"
#include "checker_run.h"
#include "backends/fresh.h"
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

/* The draw: keys of one distribution only (want >= 0), or the worker's
 * draw over all of them (want < 0), from a fixed stream so the
 * test is repeatable; records the keys in order. */
struct draw {
	int want;
	uint64_t c;
	uint64_t keys[256];
	long long n;
};

static uint64_t draw_key(void *ctx, long long k)
{
	struct draw *d = ctx;
	int n_dists = attn.desc->n_dists;
	unsigned mask = problem_timing_dists(&attn);
	assert_int_equal(k, d->n); /* in sample order */
	for (;;) {
		uint64_t key = evs_mix64(0x5eed0000 + d->c++) | 1;
		if (d->want < 0 || evs_sample_dist(key, n_dists, mask) == d->want) {
			if (d->n < 256)
				d->keys[d->n] = key;
			d->n++;
			return key;
		}
	}
}

static int count_distinct(const uint16_t *v, int n)
{
	int distinct = 0;
	for (int i = 0; i < n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = v[j] == v[i];
		distinct += !seen;
	}
	return distinct;
}

/* 64 timed samples of one distribution (uniform, the timing one): the
 * element at a fixed position of each input holds a value of its own
 * nearly every sample.  With the base-pair mix it held exactly 2. */
static void test_value_at_a_position_is_fresh(void **state)
{
	(void)state;
	const long long shape[4] = { 1, 2, 64, 16 };
	struct draw d;
	memset(&d, 0, sizeof(d));
	d.want = 0;
	struct fresh_pool fp;
	assert_int_equal(fresh_pool_start(&fp, &attn, shape, EV_F16, 2, 3, draw_key, &d), 0);
	enum { N = 64 };
	uint16_t at[3][N];
	const size_t pos = 37;
	for (int k = 0; k < N; k++) {
		struct fresh_set *s = fresh_pool_take(&fp);
		assert_non_null(s);
		assert_int_equal(s->k, k);
		assert_int_equal(s->dist, 0);
		for (int t = 0; t < 3; t++)
			at[t][k] = ((const uint16_t *)s->data[t])[pos];
		fresh_pool_put(&fp, s);
	}
	assert_int_equal(fp.taken, N);
	fresh_pool_stop(&fp);
	for (int t = 0; t < 3; t++) {
		int distinct = count_distinct(at[t], N);
		if (distinct < 48)
			print_error("input %d, element %zu: %d distinct values in %d samples\n", t, pos, distinct, N);
		assert_true(distinct >= 48);
	}
}


/* What the pool hands the upload is, byte for byte, what the key
 * regenerates (fresh_inputs_fill, packed); and the checker, given only
 * the keys and the outputs the reference computes from the uploaded
 * bytes, passes every sample of every distribution.  Under the
 * base-pair mix the checker regenerated other inputs and failed them. */
static void test_checker_regenerates_the_upload(void **state)
{
	(void)state;
	const long long shape[4] = { 1, 2, 16, 8 };
	enum { N = 16 };
	struct draw d;
	memset(&d, 0, sizeof(d));
	d.want = -1; /* the worker's schedule: every distribution */
	struct fresh_pool fp;
	assert_int_equal(fresh_pool_start(&fp, &attn, shape, EV_F16, 3, 4, draw_key, &d), 0);

	struct job job;
	memset(&job, 0, sizeof(job));
	job.phase = "main";
	job.backend = "cuda";
	job.kernel_so = "none.so";
	job.problem = "attention_fwd";
	job.problem_so = attn.so_path;
	job.n_dims = 4;
	memcpy(job.shape, shape, sizeof(shape));
	job.dtype = "fp16";
	knobs_init(&job.k);
	job.timing = 1;
	job.timing_seed = 31337;
	job.n_sets = 2;
	job.scramble_seed = 5;
	job.exec = "sealed";
	assert_true(fresh_job_timed(&job));

	char dir[] = "/tmp/evident-test-fresh-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *cap_path = xstrfmt("%s/captures.bin", dir);
	FILE *cap = fopen(cap_path, "wb");
	assert_non_null(cap);
	size_t n_out = problem_tensor_numel(&attn, 3, shape), bytes = n_out * 2;
	float **in = problem_inputs_new(&attn, shape), **re = problem_inputs_new(&attn, shape);
	double **ref = problem_outputs_new(&attn, shape);
	float *o32 = xmalloc(n_out * sizeof(float));
	unsigned char *o16 = xmalloc(bytes), *packed = xmalloc(problem_tensor_numel(&attn, 0, shape) * 2 * 4);
	json_t *caps = json_array();
	int dists[N], per[4] = { 0 };
	for (int k = 0; k < N; k++) {
		struct fresh_set *s = fresh_pool_take(&fp);
		assert_non_null(s);
		dists[k] = s->dist;
		per[s->dist]++;
		/* the key alone regenerates the upload, byte for byte */
		assert_int_equal(fresh_inputs_fill(&attn, shape, s->key, 0, EV_F16, re, NULL), s->dist);
		for (int t = 0; t < 3; t++) {
			size_t n = problem_tensor_numel(&attn, t, shape);
			problem_pack(re[t], packed, n, EV_F16);
			assert_memory_equal(packed, s->data[t], n * 2);
			/* the device reads these bytes: the reference from them */
			problem_unpack(s->data[t], in[t], n, EV_F16);
		}
		problem_reference(&attn, shape, (const float *const *)in, ref);
		for (size_t e = 0; e < n_out; e++)
			o32[e] = (float)ref[0][e];
		problem_pack(o32, o16, n_out, EV_F16);
		assert_int_equal(fwrite(o16, 1, bytes, cap), bytes);
		json_array_append_new(caps, json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I, s:I}", "timed", 1, "index",
						      (json_int_t)k, "global", (json_int_t)(3 + k), "set",
						      evs_sample_set(0, job.n_sets, 1, 3 + k, 0), "batch", 1, "offset",
						      (json_int_t)(k * bytes), "bytes", (json_int_t)bytes, "mix_key",
						      (json_int_t)s->key));
		fresh_pool_put(&fp, s);
	}
	fresh_pool_stop(&fp);
	fclose(cap);
	assert_true(per[0] > 0 && per[0] < N); /* timing and stress samples both */

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
		if (!json_is_true(json_object_get(m, "pass")))
			print_error("timed sample %d failed: %s\n", checks, json_dumps(m, JSON_COMPACT));
		assert_true(json_is_true(json_object_get(m, "pass")));
		assert_string_equal(json_string_value(json_object_get(m, "dist")), attn.desc->dists[dists[checks]]);
		/* the record names the fill's seed */
		assert_int_equal((uint64_t)json_integer_value(json_object_get(m, "seed")),
				 fresh_seed(d.keys[checks], 0));
		checks++;
	}
	assert_int_equal(checks, N);
	json_decref(lines);
	problem_buffers_free(in, 3);
	problem_buffers_free(re, 3);
	problem_buffers_free(ref, 1);
	free(o32);
	free(o16);
	free(packed);
	unlink(cap_path);
	free(cap_path);
	rmdir(dir);
}

/* Graph mode keeps the mix; stream mode on CUDA is fresh; host is neither. */
/* x^-1 mod 2^64 (x odd), by Newton's iteration */
static uint64_t inv64(uint64_t x)
{
	uint64_t y = x;
	for (int i = 0; i < 6; i++)
		y *= 2 - x * y;
	return y;
}

static uint64_t unshift(uint64_t z, int s)
{
	for (int k = s; k < 64; k += s)
		z ^= z >> k; /* z ^ (z >> s) undone: the high bits first */
	return z;
}

/* evs_mix64 undone (a bijection) */
static uint64_t unmix64(uint64_t z)
{
	z = unshift(z, 31) * inv64(0x94d049bb133111ebULL);
	z = unshift(z, 27) * inv64(0xbf58476d1ce4e5b9ULL);
	return unshift(z, 30);
}

/* A fresh sample's seed gives its key back to no one: red team 28's
 * rt28_key_oracle recovered the seed of an fp32 gemm's inputs from their
 * values, inverted the seed's mix (a bijection, evs_mix64 of the key and
 * a constant) and read the sample's distribution from the key.  Here the
 * same inversion, on 4096 keys, must never give the key; and the seeds
 * still differ by key and launch. */
static void test_seed_tells_nothing_of_the_key(void **state)
{
	(void)state;
	assert_int_equal(unmix64(evs_mix64(0x123456789abcdefULL)), 0x123456789abcdefULL);
	int same = 0;
	for (uint64_t t = 0; t < 4096; t++) {
		uint64_t key = evs_mix64(t * 0x9e3779b97f4a7c15ULL + 1);
		uint64_t seed = fresh_seed(key, 0);
		same += (unmix64(seed) ^ 0x66726573685f6664ULL) == key;
		same += unmix64(seed) == key;
		assert_true(seed != fresh_seed(key, 1));
		assert_true(seed != fresh_seed(key + 1, 0));
		assert_true(seed == fresh_seed(key, 0)); /* the checker's regeneration */
	}
	assert_int_equal(same, 0);
}

static void test_which_jobs(void **state)
{
	(void)state;
	struct job job;
	memset(&job, 0, sizeof(job));
	knobs_init(&job.k);
	job.backend = "cuda";
	assert_true(fresh_job_timed(&job));
	job.k.batch = 4;
	assert_false(fresh_job_timed(&job));
	job.k.batch = 1;
	job.backend = "host";
	assert_false(fresh_job_timed(&job));
}

/* The pool's memory stays under its bound: attention at the scaling
 * shape (B32 H32 S512 D64, fp16: 201 MB a set, 402 MB as floats) and at
 * iter1's (B4 H8: 19 MB, 38 MB). */
static void test_pool_size(void **state)
{
	(void)state;
	const size_t gib2 = (size_t)2 << 30;
	int nt, ns;
	size_t set = 3ull * 32 * 32 * 512 * 64 * 2;
	fresh_pool_size(set, 2 * set, 0, 15, gib2, &nt, &ns);
	assert_int_equal(nt, 3);
	assert_int_equal(ns, 4);
	assert_true((double)ns * set + (double)nt * 2 * set <= (double)gib2);
	set = 3ull * 4 * 8 * 512 * 64 * 2;
	fresh_pool_size(set, 2 * set, 0, 15, gib2, &nt, &ns);
	assert_int_equal(nt, FRESH_MAX_THREADS); /* one slot more: one uploads while every thread fills */
	assert_int_equal(ns, FRESH_MAX_THREADS + 1);
	fresh_pool_size(set, 2 * set, 0, 2, gib2, &nt, &ns);
	assert_int_equal(nt, 2);
	assert_int_equal(ns, 3);
	/* nothing fits: one of each */
	fresh_pool_size(gib2, 2 * gib2, 0, 4, gib2, &nt, &ns);
	assert_int_equal(nt, 1);
	assert_int_equal(ns, 1);
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_at_a_position_is_fresh),
		cmocka_unit_test(test_checker_regenerates_the_upload),
		cmocka_unit_test(test_seed_tells_nothing_of_the_key),
		cmocka_unit_test(test_which_jobs),
		cmocka_unit_test(test_pool_size),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
