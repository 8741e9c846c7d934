/*
 * test_mix_fold.c - timed CUDA inputs keep the relations a distribution is
 * made of (red team 8, rt8_mix_cancel): the harness mixes two base sets
 * element by element, and gemm's `cancel` (column k + K/2 of A is column
 * k times (1 + d), row k + K/2 of B is minus row k) lost its cancellation
 * in the mix, so a kernel that accumulates in fp16 - which `cancel` exists
 * to fail - passed every timed check of it.  The problem's fold
 * (evident_mix_fold.h EVIDENT_DEFINE_MIX_FOLD, problem.h problem_mix_fold, scramble.h
 * evs_mix_elem) makes the elements of a pair share their mixing bit.
 * The tests play the harness (the same scramble.h functions its
 * mix_kernel calls), then hand the checker a timed `cancel` sample
 * computed with fp16 accumulation: it must fail, and the fp32 answer
 * pass.  Both failed before the fold (gemm without mix_fold: the pairs
 * broke in about half the mixed elements and the fp16 answer passed).
 * Since red team 19 `cancel` is filled as `uniform` (its elements
 * independent, so a shared bit changes nothing in its distribution) and
 * its stress is the checker's focus (evident_focus.h: entries judged one
 * by one, at positions from the launch's mixing key); the fold stays and
 * is tested for what it does, the fp16 answer fails by the focus now.
 * Since red team 297 gemm's fold is another: each row of A mixes whole in
 * every distribution (its rows' secret scales kept, gemm_mix_fold).
 * Runs on the CPU (the checker judges with the float64 reference).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/checker.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/scramble.h"
#include "run/provenance.h"

static const char *cache_dir(void)
{
	const char *c = getenv("EVIDENT_TEST_CACHE");
	return c && *c ? c : "build/cache";
}

static struct problem gemm = PROBLEM_INIT;
enum { CANCEL = 2 };

static int setup(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	int rc = problem_load("gemm", cache_dir(), &gemm, &why);
	if (rc < 0)
		fprintf(stderr, "cannot load gemm: %s\n", strbuf_str(&why));
	strbuf_release(&why);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	problem_release(&gemm);
	return 0;
}

/* The harness's mix (harness.cu run_sample, mix_kernel): input t of
 * distribution dist from bases a and b under key, into x. */
static void harness_mix(const long long *shape, int dist, uint64_t key, float **a, float **b, float **x)
{
	for (int t = 0; t < gemm.n_inputs; t++) {
		uint64_t f[3];
		assert_true(problem_mix_fold(&gemm, shape, dist, t, f) >= 0);
		for (size_t e = 0; e < problem_tensor_numel(&gemm, t, shape); e++)
			x[t][e] = evs_mix_bit(key, (uint32_t)t, evs_mix_elem(e, f[0], f[1], f[2])) ? b[t][e] : a[t][e];
	}
}

/* Red team 297 (problems/gemm.c gemm_mix_fold): every row of A mixes
 * whole, in every distribution alike, so a timed row keeps the one secret
 * scale the fill gave it; B mixes element by element (with A's rows and
 * B's columns both whole an entry of C would take one of 4 values a base
 * pair).  Until then `cancel` alone folded column k and k + K/2 of A and
 * row k and k + K/2 of B (red team 8's pairs). */
static void test_gemm_rows_mix_whole(void **state)
{
	(void)state;
	const long long shape[3] = { 16, 12, 64 }, M = 16, N = 12, K = 64;
	float **a = problem_inputs_new(&gemm, shape), **b = problem_inputs_new(&gemm, shape),
	      **x = problem_inputs_new(&gemm, shape);
	for (int dist = 0; dist < 3; dist++) {
		uint64_t f[3];
		assert_int_equal(problem_mix_fold(&gemm, shape, dist, 0, f), 1);
		assert_true(f[0] == 1 && f[1] == (uint64_t)K && f[2] == 1); /* A [M,K]: K at modulus 1 */
		assert_int_equal(problem_mix_fold(&gemm, shape, dist, 1, f), 0); /* B: element by element */
		problem_fill_rounded(&gemm, shape, dist, 11 + 2 * (uint64_t)dist, EV_F16, a);
		problem_fill_rounded(&gemm, shape, dist, 12 + 2 * (uint64_t)dist, EV_F16, b);
		int whole = 0, from_b = 0, cols_mixed = 0;
		for (uint64_t s = 1; s <= 8; s++) {
			harness_mix(shape, dist, evs_mix64(s), a, b, x);
			for (long long i = 0; i < M; i++) {
				size_t n = (size_t)K * sizeof(float);
				int is_a = !memcmp(x[0] + i * K, a[0] + i * K, n), is_b = !memcmp(x[0] + i * K, b[0] + i * K, n);
				whole += is_a || is_b;
				from_b += is_b && !is_a;
			}
			for (long long j = 0; j < N; j++) {
				int na = 0, nb = 0;
				for (long long k = 0; k < K; k++) {
					na += x[1][k * N + j] == a[1][k * N + j] && a[1][k * N + j] != b[1][k * N + j];
					nb += x[1][k * N + j] == b[1][k * N + j] && a[1][k * N + j] != b[1][k * N + j];
				}
				cols_mixed += na > 0 && nb > 0;
			}
		}
		if (whole != 8 * M)
			print_error("%d of %lld mixed rows of A came from two base sets\n", (int)(8 * M) - whole, 8 * M);
		assert_int_equal(whole, 8 * M);
		assert_true(from_b > 8 * M / 4 && from_b < 8 * M * 3 / 4); /* still a mix: about half from b */
		assert_true(cols_mixed > 8 * N * 3 / 4);
	}
	problem_buffers_free(a, 2);
	problem_buffers_free(b, 2);
	problem_buffers_free(x, 2);
}

/* Red team 293: softmax's `uniform` rows have a secret offset and
 * temperature each (problems/softmax.c softmax_fill); mixed element by
 * element, a row would hold two rows' offsets, a spread of up to ~150
 * and no narrow row.  Its fold mixes each `uniform` row whole: every
 * mixed row is one base's row, bit for bit, about half from each; `large`
 * and `peaked` still mix element by element. */
static void test_softmax_rows_mix_whole(void **state)
{
	(void)state;
	struct problem sm = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	if (problem_load("softmax", cache_dir(), &sm, &why) < 0)
		fail_msg("cannot load softmax: %s", strbuf_str(&why));
	strbuf_release(&why);
	const long long shape[2] = { 64, 257 }, R = 64, C = 257;
	float **a = problem_inputs_new(&sm, shape), **b = problem_inputs_new(&sm, shape),
	      **x = problem_inputs_new(&sm, shape);
	uint64_t f[3];
	assert_int_equal(problem_mix_fold(&sm, shape, 1, 0, f), 0); /* large: element by element */
	assert_int_equal(problem_mix_fold(&sm, shape, 2, 0, f), 0); /* peaked */
	assert_int_equal(problem_mix_fold(&sm, shape, 0, 0, f), 1);
	assert_true(f[0] == 1 && f[1] == (uint64_t)C && f[2] == 1);
	int whole = 0, from_b = 0, tried = 0;
	for (uint64_t seed = 100; seed < 140 && tried < 4; seed += 2) {
		problem_fill_rounded(&sm, shape, 0, seed, EV_F32, a);
		problem_fill_rounded(&sm, shape, 0, seed + 1, EV_F32, b);
		for (uint64_t k = 1; k <= 4; k++) {
			uint64_t key = evs_mix64(seed * 16 + k);
			for (size_t e = 0; e < (size_t)(R * C); e++)
				x[0][e] = evs_mix_bit(key, 0, evs_mix_elem(e, f[0], f[1], f[2])) ? b[0][e] : a[0][e];
			for (long long r = 0; r < R; r++) {
				size_t n = (size_t)C * sizeof(float);
				int is_a = !memcmp(x[0] + r * C, a[0] + r * C, n), is_b = !memcmp(x[0] + r * C, b[0] + r * C, n);
				whole += is_a || is_b;
				from_b += is_b && !is_a;
			}
		}
		tried++;
	}
	assert_int_equal(whole, tried * 4 * R);
	assert_true(from_b > tried * 4 * R / 4 && from_b < tried * 4 * R * 3 / 4);
	problem_buffers_free(a, 1);
	problem_buffers_free(b, 1);
	problem_buffers_free(x, 1);
	problem_release(&sm);
}

/* A timed sealed CUDA job of gemm at shape, as the parent writes it. */
static void timed_job(struct job *job, const long long shape[3])
{
	memset(job, 0, sizeof(*job));
	job->phase = "main";
	job->backend = "cuda";
	job->kernel_so = "none.so";
	job->problem = "gemm";
	job->problem_so = gemm.so_path;
	job->n_dims = 3;
	memcpy(job->shape, shape, 3 * sizeof(long long));
	job->dtype = "fp16";
	knobs_init(&job->k);
	/* graph mode: its launches read the mix (a stream-mode sample's inputs
	 * are fresh, fresh.h, test_fresh.c); each capture here is launch 0 */
	job->k.batch = 2;
	job->timing = 1;
	job->timing_seed = 5150;
	job->n_sets = 2;
	job->first_set = 0;
	job->scramble_seed = 3;
	job->exec = "sealed";
}

/* The checker's verdicts on captures (fp16 outputs, one timed sample each,
 * every key one that draws `cancel`); 1 per pass in pass[]. */
static void check_captures(const struct job *job, const unsigned char *const *outs, int n, size_t bytes,
			   const uint64_t *keys, int *pass)
{
	char dir[] = "/tmp/evident-test-mixfold-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *cap_path = xstrfmt("%s/captures.bin", dir), *jp = xstrfmt("%s/check.json", dir),
	     *op = xstrfmt("%s/out.txt", dir);
	FILE *cap = fopen(cap_path, "wb");
	assert_non_null(cap);
	json_t *caps = json_array();
	for (int k = 0; k < n; k++) {
		assert_int_equal(fwrite(outs[k], 1, bytes, cap), bytes);
		/* every one `cancel` (2), drawn from its key (scramble.h
		 * evs_sample_dist) */
		long long g = 7 + 8LL * k;
		assert_int_equal(evs_sample_dist(keys[k], 3, problem_timing_dists(&gemm)), CANCEL);
		json_array_append_new(caps, json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I, s:I}", "timed", 1, "index",
						      (json_int_t)(3 * k), "global", (json_int_t)g, "set",
						      evs_sample_set(job->first_set, job->n_sets, 1, g, 0), "batch", 1,
						      "offset", (json_int_t)(k * bytes), "bytes", (json_int_t)bytes,
						      "mix_key", (json_int_t)keys[k]));
	}
	fclose(cap);
	struct ev_tolerance tol;
	problem_tolerance(&gemm, EV_F16, job->shape, &tol);
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:o, s:b}", "job", job_to_json(job), "tolerance",
			       "atol", tol.atol, "rtol", tol.rtol, "rel_l2", tol.rel_l2, "captures_file", cap_path,
			       "captures", caps, "cross_check", 0);
	assert_int_equal(json_dump_file(cj, jp, 0), 0);
	json_decref(cj);
	fflush(stdout);
	int saved = dup(1);
	FILE *f = fopen(op, "w");
	assert_non_null(f);
	dup2(fileno(f), 1);
	int rc = checker_main(jp);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fclose(f);
	assert_int_equal(rc, 0);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(op, &sb), 0);
	int k = 0;
	for (char *save = NULL, *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		json_t *m = json_loads(l, 0, NULL);
		const char *msg = json_string_value(json_object_get(m, "msg"));
		if (msg && !strcmp(msg, "check")) {
			assert_string_equal(json_string_value(json_object_get(m, "dist")), "cancel");
			assert_true(k < n);
			pass[k++] = json_is_true(json_object_get(m, "pass"));
		}
		json_decref(m);
	}
	assert_int_equal(k, n);
	strbuf_release(&sb);
	unlink(cap_path);
	unlink(jp);
	unlink(op);
	rmdir(dir);
	free(cap_path);
	free(jp);
	free(op);
}

/* The checker regenerates the folded mix: the fp32 answer to the inputs
 * the harness made passes, the fp16-accumulated one fails (it passed every
 * mix when the pairs were broken; since red team 19 the focus's entries,
 * drawn from the launch's mixing key, are what fail it). */
static void test_checker_fails_fp16_accumulation_on_cancel(void **state)
{
	(void)state;
	const long long shape[3] = { 16, 16, 256 }, M = 16, N = 16, K = 256;
	enum { N_MIX = 4 };
	struct job job;
	timed_job(&job, shape);
	float **a = problem_inputs_new(&gemm, shape), **b = problem_inputs_new(&gemm, shape),
	      **x = problem_inputs_new(&gemm, shape);
	problem_fill_rounded(&gemm, shape, CANCEL, job.timing_seed + 2 * CANCEL, EV_F16, a);
	problem_fill_rounded(&gemm, shape, CANCEL, job.timing_seed + 2 * CANCEL + 1, EV_F16, b);
	size_t n_out = (size_t)(M * N), bytes = n_out * 2;
	float *o32 = xmalloc(n_out * sizeof(float)), *o16acc = xmalloc(n_out * sizeof(float));
	unsigned char *honest[N_MIX], *cheat[N_MIX];
	uint64_t keys[N_MIX];
	for (int s = 0; s < N_MIX; s++) {
		/* keys that draw `cancel` (scramble.h evs_sample_dist: the
		 * distribution comes from the key) */
		uint64_t c = 0xc0ffee + 1000 * (uint64_t)s;
		do
			keys[s] = evs_mix64(c++) | 1;
		while (evs_sample_dist(keys[s], 3, problem_timing_dists(&gemm)) != CANCEL);
		harness_mix(shape, CANCEL, evs_launch_key(keys[s], 0), a, b, x);
		for (long long i = 0; i < M; i++)
			for (long long j = 0; j < N; j++) {
				float acc = 0, hacc = 0;
				for (long long k = 0; k < K; k++) {
					acc = fmaf(x[0][i * K + k], x[1][k * N + j], acc);
					/* __hfma2: the product and sum rounded once, to fp16 */
					hacc = f16_to_f32(f32_to_f16((float)fma((double)x[0][i * K + k],
										(double)x[1][k * N + j],
										(double)hacc)));
				}
				o32[i * N + j] = acc;
				o16acc[i * N + j] = hacc;
			}
		honest[s] = xmalloc(bytes);
		cheat[s] = xmalloc(bytes);
		problem_pack(o32, honest[s], n_out, EV_F16);
		problem_pack(o16acc, cheat[s], n_out, EV_F16);
	}
	int pass[N_MIX];
	check_captures(&job, (const unsigned char *const *)honest, N_MIX, bytes, keys, pass);
	for (int s = 0; s < N_MIX; s++)
		assert_true(pass[s]);
	check_captures(&job, (const unsigned char *const *)cheat, N_MIX, bytes, keys, pass);
	int passed = 0;
	for (int s = 0; s < N_MIX; s++)
		passed += pass[s];
	if (passed)
		print_error("%d of %d timed cancel samples accumulated in fp16 passed\n", passed, N_MIX);
	assert_int_equal(passed, 0);
	for (int s = 0; s < N_MIX; s++) {
		free(honest[s]);
		free(cheat[s]);
	}
	free(o32);
	free(o16acc);
	problem_buffers_free(a, 2);
	problem_buffers_free(b, 2);
	problem_buffers_free(x, 2);
}

/* A fold out of range is the problem's bug (-1, no fold); a problem that
 * exports no evident_problem_mix_fold has none, and its descriptor is the
 * one every problem had before (struct_size unchanged). */
static long long bad_mod;
static int bad_fold(const long long *s, int dist, int input, int *dim, long long *modulus)
{
	(void)s;
	(void)dist;
	*dim = input == 0 ? 1 : 5;
	*modulus = bad_mod;
	return 1;
}

static void test_fold_bounds_and_older_problems(void **state)
{
	(void)state;
	const long long shape[3] = { 4, 6, 10 };
	struct ev_problem_desc d = *gemm.desc;
	struct problem p = gemm;
	p.desc = &d;
	assert_non_null(gemm.mix_fold); /* gemm's EVIDENT_DEFINE_MIX_FOLD was found */
	p.mix_fold = bad_fold;
	uint64_t f[3] = { 7, 7, 7 };
	bad_mod = 5;
	assert_int_equal(problem_mix_fold(&p, shape, 0, 0, f), 1); /* A's K (10) modulo 5 */
	assert_true(f[0] == 1 && f[1] == 10 && f[2] == 5);
	assert_int_equal(problem_mix_fold(&p, shape, 0, 1, f), -1); /* B has no dimension 5 */
	assert_true(!f[0] && !f[1] && !f[2]);
	bad_mod = 11;
	assert_int_equal(problem_mix_fold(&p, shape, 0, 0, f), -1); /* past K */
	bad_mod = 0;
	assert_int_equal(problem_mix_fold(&p, shape, 0, 0, f), -1);
	bad_mod = 10;
	assert_int_equal(problem_mix_fold(&p, shape, 0, 0, f), 0); /* the whole extent: nothing folded */
	assert_int_equal(problem_mix_fold(&p, shape, 0, 2, f), 0);  /* not an input */
	/* a problem without the symbol */
	p.mix_fold = NULL;
	bad_mod = 5;
	assert_int_equal(problem_mix_fold(&p, shape, 0, 0, f), 0);
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(problem_validate_desc(&d, "gemm", &why), 0);
	d.struct_size -= 8;
	assert_int_equal(problem_validate_desc(&d, "gemm", &why), -1);
	strbuf_release(&why);
	/* evs_mix_elem: the index along the folded dimension, reduced */
	assert_true(evs_mix_elem(7, 0, 0, 0) == 7);
	assert_true(evs_mix_elem(2 * 10 + 9, 1, 10, 5) == 2 * 10 + 4);    /* [., 10] row 2, col 9 -> 4 */
	assert_true(evs_mix_elem(7 * 6 + 5, 6, 10, 5) == 2 * 6 + 5);      /* [10, 6] row 7 -> 2 */
	assert_true(evs_mix_elem(3 * 60 + 7 * 6 + 5, 6, 10, 5) == 3 * 60 + 2 * 6 + 5);
}

/* Red team 296: half of layernorm's `uniform` launches lead 4..16 secret
 * rows with a run of 1..min(16, C / 1024) outliers (problems/layernorm.c
 * ln_fill_lead); its fold mixes each `uniform` row whole, so a mixed lead
 * row keeps its run (element by element, about half its run would be
 * holes from the other base).  The other distributions, X's companions
 * gamma and beta, mix element by element. */
static void test_layernorm_rows_mix_whole(void **state)
{
	(void)state;
	struct problem ln = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	if (problem_load("layernorm", cache_dir(), &ln, &why) < 0)
		fail_msg("cannot load layernorm: %s", strbuf_str(&why));
	strbuf_release(&why);
	const long long shape[2] = { 16, 4096 }, R = 16, C = 4096;
	float **a = problem_inputs_new(&ln, shape), **b = problem_inputs_new(&ln, shape),
	      **x = problem_inputs_new(&ln, shape);
	uint64_t f[3];
	for (int d = 1; d < 4; d++)
		assert_int_equal(problem_mix_fold(&ln, shape, d, 0, f), 0);
	assert_int_equal(problem_mix_fold(&ln, shape, 0, 1, f), 0); /* gamma */
	assert_int_equal(problem_mix_fold(&ln, shape, 0, 0, f), 1);
	assert_true(f[0] == 1 && f[1] == (uint64_t)C && f[2] == 1);
	int whole = 0, from_b = 0;
	for (uint64_t seed = 300; seed < 304; seed++) {
		problem_fill_rounded(&ln, shape, 0, seed, EV_F32, a);
		problem_fill_rounded(&ln, shape, 0, seed + 100, EV_F32, b);
		uint64_t key = evs_mix64(seed);
		for (size_t e = 0; e < (size_t)(R * C); e++)
			x[0][e] = evs_mix_bit(key, 0, evs_mix_elem(e, f[0], f[1], f[2])) ? b[0][e] : a[0][e];
		for (long long r = 0; r < R; r++) {
			size_t n = (size_t)C * sizeof(float);
			int is_a = !memcmp(x[0] + r * C, a[0] + r * C, n), is_b = !memcmp(x[0] + r * C, b[0] + r * C, n);
			whole += is_a || is_b;
			from_b += is_b && !is_a;
		}
	}
	assert_int_equal(whole, 4 * R);
	assert_true(from_b > 4 * R / 4 && from_b < 4 * R * 3 / 4);
	problem_buffers_free(a, 3);
	problem_buffers_free(b, 3);
	problem_buffers_free(x, 3);
	problem_release(&ln);
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_rows_mix_whole),
		cmocka_unit_test(test_fold_bounds_and_older_problems),
		cmocka_unit_test(test_softmax_rows_mix_whole),
		cmocka_unit_test(test_layernorm_rows_mix_whole),
		cmocka_unit_test(test_checker_fails_fp16_accumulation_on_cancel),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
