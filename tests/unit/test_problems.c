/*
 * test_problems.c - unit tests of the problem plug-ins (problems/NAME.c) and
 * their loader (src/backends/problem.c): every problem loads through the
 * build cache; its float64 reference agrees with a brute-force one written
 * here; fill is deterministic and each distribution has the character its
 * doc claims; FLOPs and bytes; the tolerance rule passes honest kernels and
 * fails plausible wrong ones (simulated here on the CPU: an fp8 QK^T, an
 * exp without the row max, TF32 inputs, fp16 accumulation, a one-pass
 * variance, a forgotten eps); extra and small shapes; the scramble-based
 * unwritten count; spec keys; the descriptor validation; help text.
 *
 * The measured errors are printed (one "measured:" line each) so that the
 * tolerances in problems/NAME.c can be traced to a run of this file.
 * Problems build into build/cache (or $EVIDENT_TEST_CACHE): the first run
 * compiles them, later runs are cache hits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dlfcn.h>

#include "backends/backend.h"
#include "backends/backend_cuda.h"
#include "backends/problem.h"
#include "run/provenance.h"

static const char *cache_dir(void)
{
	const char *c = getenv("EVIDENT_TEST_CACHE");
	return c && *c ? c : "build/cache";
}

enum { ATTN, GEMM, SOFTMAX, LAYERNORM, ROWSUM, NPROB };
static const char *const names[NPROB] = { "attention_fwd", "gemm", "softmax", "layernorm", "rowsum" };
static struct problem probs[NPROB];

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < NPROB; i++) {
		struct strbuf why = STRBUF_INIT;
		if (problem_load(names[i], cache_dir(), &probs[i], &why) < 0) {
			fprintf(stderr, "cannot load '%s': %s\n", names[i], strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
		strbuf_release(&why);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NPROB; i++)
		problem_release(&probs[i]);
	return 0;
}

/* ---- helpers ------------------------------------------------------------ */

static float r16(float x)
{
	return f16_to_f32(f32_to_f16(x));
}

static float rbf(float x)
{
	return bf16_to_f32(f32_to_bf16(x));
}

static float rdt(float x, int dtype)
{
	return dtype == EV_F16 ? r16(x) : dtype == EV_BF16 ? rbf(x) : x;
}

/* fp8 e4m3 (bias 7, 3 mantissa bits, max 448), round to nearest even. */
static float re4m3(float x)
{
	float a = fabsf(x);
	if (a == 0)
		return x;
	int e = (int)floorf(log2f(a));
	if (e < -6)
		e = -6; /* subnormals: quantum 2^-9 */
	float q = ldexpf(1.0f, e - 3);
	float r = nearbyintf(a / q) * q;
	if (r > 448.0f)
		r = 448.0f;
	return copysignf(r, x);
}

/* TF32: fp32 with a 10-bit mantissa, round to nearest even. */
static float rtf32(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
	memcpy(&x, &u, 4);
	return x;
}

/* A filled, referenced instance of a problem at a shape. */
struct inst {
	struct problem *p;
	long long shape[EV_PROBLEM_MAX_KEYS];
	float **in;
	double **ref;
	size_t out_n;
	double scalar;
	int dist;
	uint64_t seed;
};

static void inst_make(struct inst *s, int prob, const long long *shape, int dist, uint64_t seed,
		      int dtype)
{
	s->p = &probs[prob];
	memcpy(s->shape, shape, (size_t)s->p->desc->n_keys * sizeof(long long));
	s->in = problem_inputs_new(s->p, s->shape);
	s->ref = problem_outputs_new(s->p, s->shape);
	assert_int_equal(problem_fill_rounded(s->p, s->shape, dist, seed, dtype, s->in), 0);
	problem_reference(s->p, s->shape, (const float *const *)s->in, s->ref);
	s->out_n = problem_tensor_numel(s->p, s->p->n_inputs, s->shape);
	s->scalar = problem_scalar(s->p, s->shape);
	s->dist = dist;
	s->seed = seed;
}

static void inst_free(struct inst *s)
{
	problem_buffers_free(s->in, s->p->n_inputs);
	problem_buffers_free(s->ref, s->p->n_outputs);
}

/* The entries a problem judges alone (evident_focus.h) for s under key,
 * judged into r as the checker does; returns how many were out of their
 * bound, *worst the largest error / bound, *n how many were judged. */
static long long judge_focus(const struct inst *s, const void *raw, int dtype, uint64_t key,
			     struct check_result *r, double *worst, long long *n)
{
	long long *idx = malloc(EV_FOCUS_MAX * sizeof(long long));
	double *val = malloc(EV_FOCUS_MAX * sizeof(double)), *bd = malloc(EV_FOCUS_MAX * sizeof(double));
	*n = problem_focus(s->p, s->shape, s->dist, dtype, key, (const float *const *)s->in, idx, val, bd);
	assert_true(*n >= 0);
	long long out = problem_focus_judge(raw, NULL, dtype, s->out_n, idx, val, bd, *n, r, worst);
	free(idx);
	free(val);
	free(bd);
	return out;
}

/* Judge float results (already rounded to dtype) as a kernel's output, as
 * the checker does: the rule, then the entries judged alone (under a key
 * from the inst's seed; the checker's is the seed of the inputs). */
static void judge(const struct inst *s, const float *out, int dtype, struct check_result *r)
{
	struct ev_tolerance tol;
	void *raw = malloc(s->out_n * 8);
	problem_pack(out, raw, s->out_n, dtype);
	problem_tolerance(s->p, dtype, s->shape, &tol);
	problem_check_output(raw, NULL, dtype, s->ref[0], NULL, s->out_n, &tol, r);
	double worst;
	long long n;
	judge_focus(s, raw, dtype, s->seed, r, &worst, &n);
	free(raw);
}

/* What a row of the tolerance tables must show: an honest kernel passes,
 * a plausible wrong one is rejected, or (where the rule cannot see the
 * error at that distribution) either is allowed. */
enum want { MUST_PASS, MUST_REJECT, EITHER };

/* measured: prints one row of the tables and asserts what it must show.
 * Its last column is the check's decision as the row expects it: "pass",
 * "expected: rejected" (a wrong kernel caught, as it must be), "rejected" or
 * "passed (need not be caught)" where either is allowed.  FAIL appears
 * only on a row that contradicts its assertion, which then fails the test,
 * so a FAIL in the log of a passing run is never one of these. */
static void measured(const char *what, const struct check_result *r, enum want want)
{
	const char *verdict;
	if (want == MUST_PASS)
		verdict = r->pass ? "pass" : "FAIL (an honest kernel was rejected)";
	else if (want == MUST_REJECT)
		verdict = r->pass ? "FAIL (a wrong kernel passed)" : "expected: rejected";
	else
		verdict = r->pass ? "passed (need not be caught)" : "rejected";
	printf("measured: %-58s rel_l2 %.2e  max_err %.2e  ref_scale %.3g  nan %lld  mismatches %lld  %s\n",
	       what, r->rel_l2, r->max_abs_err, r->ref_scale, r->nan_count, r->mismatches, verdict);
	if (want == MUST_PASS)
		assert_true(r->pass);
	else if (want == MUST_REJECT)
		assert_false(r->pass);
}

/* ---- simulated kernels (float arithmetic, as a GPU or CPU kernel does) ---- */

enum attn_kind { ATTN_HONEST, ATTN_FP8_QK, ATTN_NO_MAX };

/* Attention in float; P rounded to dtype before P V (as FlashAttention
 * does), O rounded to dtype.  fp8_qk: Q and K rounded to e4m3 first;
 * no_max: exp(s) without subtracting the row max. */
static void attn_kernel(const struct inst *s, int dtype, enum attn_kind kind, float *o)
{
	const long long S = s->shape[2], D = s->shape[3], BH = s->shape[0] * s->shape[1];
	float *p = malloc((size_t)S * sizeof(float)), *q = malloc((size_t)D * sizeof(float));
	/* fp8_qk: K rounded once a head, not once a query row (the same values) */
	float *kr = kind == ATTN_FP8_QK ? malloc((size_t)(S * D) * sizeof(float)) : NULL;
	for (long long bh = 0; bh < BH; bh++) {
		const float *Q = s->in[0] + bh * S * D, *K = s->in[1] + bh * S * D, *V = s->in[2] + bh * S * D;
		if (kr) {
			for (long long n = 0; n < S * D; n++)
				kr[n] = re4m3(K[n]);
			K = kr;
		}
		for (long long i = 0; i < S; i++) {
			float m = -INFINITY, l = 0;
			for (long long d = 0; d < D; d++)
				q[d] = kind == ATTN_FP8_QK ? re4m3(Q[i * D + d]) : Q[i * D + d];
			for (long long j = 0; j < S; j++) {
				float acc = 0;
				for (long long d = 0; d < D; d++)
					acc += q[d] * K[j * D + d];
				p[j] = acc * (float)s->scalar;
				m = fmaxf(m, p[j]);
			}
			for (long long j = 0; j < S; j++) {
				p[j] = expf(kind == ATTN_NO_MAX ? p[j] : p[j] - m);
				l += p[j];
				p[j] = rdt(p[j], dtype);
			}
			for (long long d = 0; d < D; d++) {
				float acc = 0;
				for (long long j = 0; j < S; j++)
					acc += p[j] * V[j * D + d];
				o[(bh * S + i) * D + d] = rdt(acc / l, dtype);
			}
		}
	}
	free(kr);
	free(p);
	free(q);
}

/* GEMM_HFMA: the running sum kept in dtype, one rounding an FMA (red
 * team 8 and 13's __hfma2 loop) */
/* GEMM_CHUNK1/8: red team 18's fp16 accumulator flushed into fp32 every 1
 * or 8 steps (each step an exact FMA rounded to fp16: HFMA2); GEMM_TC: a
 * tensor core's fp32 accumulation (the exact products of 16 k summed,
 * rounded once into the fp32 accumulator); GEMM_RZ: honest, C rounded
 * toward zero; GEMM_REFINE: chunks of 8, then every entry whose fp16 value
 * is below 1/8 of its terms' scale (from the row and column norms)
 * recomputed in fp32 (the attack on a planted `cancel`, gemm.c) */
enum gemm_kind { GEMM_HONEST, GEMM_TF32, GEMM_ACC16, GEMM_HFMA, GEMM_CHUNK1, GEMM_CHUNK8, GEMM_TC, GEMM_RZ,
		 GEMM_REFINE };

static float rz16(float x)
{
	float r = r16(x);
	if (fabsf(r) > fabsf(x)) { /* one fp16 step toward zero */
		uint16_t h = f32_to_f16(r);
		h--;
		r = f16_to_f32(h);
	}
	return r;
}

static float gemm_chunked(const float *a, const float *B, long long N, long long K, int chunk)
{
	float acc = 0, part = 0;
	for (long long k = 0; k < K; k++) {
		part = r16((float)fma((double)a[k], (double)B[k * N], (double)part));
		if ((k + 1) % chunk == 0) {
			acc += part;
			part = 0;
		}
	}
	return acc + part;
}

/* Entry (i, j) of C as a kernel of kind computes it, rounded to dtype. */
static float gemm_entry(const struct inst *s, int dtype, enum gemm_kind kind, long long i, long long j)
{
	const long long N = s->shape[1], K = s->shape[2];
	const float *a = s->in[0] + i * K, *B = s->in[1] + j;
	float acc = 0;
	if (kind == GEMM_CHUNK1 || kind == GEMM_CHUNK8 || kind == GEMM_REFINE) {
		acc = gemm_chunked(a, B, N, K, kind == GEMM_CHUNK1 ? 1 : 8);
		if (kind == GEMM_REFINE) {
			double na = 0, nb = 0;
			for (long long k = 0; k < K; k++) {
				na += (double)a[k] * a[k];
				nb += (double)B[k * N] * B[k * N];
			}
			if (fabsf(rdt(acc, dtype)) < sqrt(na * nb / (double)K) / 8)
				return gemm_entry(s, dtype, GEMM_HONEST, i, j);
		}
	} else if (kind == GEMM_TC) {
		for (long long k0 = 0; k0 < K; k0 += 16) {
			double g = 0;
			for (long long k = k0; k < k0 + 16 && k < K; k++)
				g += (double)a[k] * (double)B[k * N];
			acc = (float)((double)acc + g);
		}
	} else {
		for (long long k = 0; k < K; k++) {
			float x = a[k], b = B[k * N];
			if (kind == GEMM_TF32)
				acc += rtf32(x) * rtf32(b);
			else if (kind == GEMM_ACC16)
				acc = rdt(acc + rdt(x * b, dtype), dtype);
			else if (kind == GEMM_HFMA)
				acc = rdt((float)fma((double)x, (double)b, (double)acc), dtype);
			else
				acc += x * b;
		}
	}
	return kind == GEMM_RZ && dtype == EV_F16 ? rz16(acc) : rdt(acc, dtype);
}

static void gemm_kernel(const struct inst *s, int dtype, enum gemm_kind kind, float *c)
{
	const long long M = s->shape[0], N = s->shape[1];
	for (long long i = 0; i < M; i++)
		for (long long j = 0; j < N; j++)
			c[i * N + j] = gemm_entry(s, dtype, kind, i, j);
}

/* sum_{k<=10} x^k / k! (Horner): good to ~1e-7 on [-1, 1] only */
static float taylor10_exp(float x)
{
	float p = 1.0f / 3628800.0f;
	static const float inv[] = { 1.0f / 362880.0f, 1.0f / 40320.0f, 1.0f / 5040.0f, 1.0f / 720.0f,
				     1.0f / 120.0f,    1.0f / 24.0f,    1.0f / 6.0f,    0.5f,
				     1.0f,	       1.0f };
	for (size_t i = 0; i < ARRAY_SIZE(inv); i++)
		p = p * x + inv[i];
	return p;
}

/* exp(x - m) as the kernel of no_max takes it: 3 (red team 292's gap4.c
 * at GAP `gap`) taylor10(x) exp(-m) wherever |x| < gap, else expf */
static float softmax_exp(float x, float m, int skip, float gap)
{
	if (skip)
		return expf(x);
	if (fabsf(x) < gap)
		return taylor10_exp(x) * expf(-m);
	return expf(x - m);
}

/* no_max 1: exp(x) without the row max; 2: the max only where |x[0]| >= 32
 * (red team 13's sniff); 3: red team 292's gap4 (the Taylor exp wherever
 * |x| < 4); 4: its honest twin (the Taylor exp only where |x| < 1); 5:
 * gap4 only where all of column 0 is under 1 (a launch that looks cool),
 * honest elsewhere */
static void softmax_kernel(const struct inst *s, int dtype, int no_max, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	float gap = no_max == 3 ? 4.0f : no_max == 4 ? 1.0f : 0.0f;
	if (no_max == 5) {
		gap = 4.0f;
		for (long long r = 0; r < R; r++)
			if (!(fabsf(s->in[0][r * C]) < 1))
				gap = 0.0f;
	}
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		float m = -INFINITY, sum = 0;
		for (long long c = 0; c < C; c++)
			m = fmaxf(m, x[c]);
		int skip = no_max == 1 || (no_max == 2 && fabsf(x[0]) < 32);
		for (long long c = 0; c < C; c++)
			sum += softmax_exp(x[c], m, skip, gap);
		for (long long c = 0; c < C; c++)
			y[r * C + c] = rdt(softmax_exp(x[c], m, skip, gap) / sum, dtype);
	}
}

/* Red team 293's two: GAP76 (gap76.c) exp(x - m) as taylor10(x / 16)^16
 * exp(-m) (right for |x| <= 13 only) wherever |x| < gap and m > -30,
 * else expf(x - m); at gap 13 its honest twin.  NARROW (narrow.c) exp(a),
 * a = x - m, as 1 + a + a^2 / 2 in a row whose max - min is under
 * `spread` (0.45; right to the rule only under ~0.039), else expf */
enum sm293 { SM_GAP76, SM_NARROW };

static void softmax_kernel293(const struct inst *s, int dtype, enum sm293 kind, float param, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		float m = -INFINITY, lo = INFINITY, sum = 0;
		for (long long c = 0; c < C; c++) {
			m = fmaxf(m, x[c]);
			lo = fminf(lo, x[c]);
		}
		const int cheap = kind == SM_NARROW && m - lo < param;
		for (long long c = 0; c < C; c++) {
			float e;
			if (kind == SM_GAP76 && fabsf(x[c]) < param && m > -30) {
				float p = taylor10_exp(x[c] / 16);
				p *= p;
				p *= p;
				p *= p;
				p *= p;
				e = p * expf(-m);
			} else if (cheap) {
				float a = x[c] - m;
				e = 1 + a + a * a / 2;
			} else {
				e = expf(x[c] - m);
			}
			y[r * C + c] = e;
			sum += e;
		}
		for (long long c = 0; c < C; c++)
			y[r * C + c] = rdt(y[r * C + c] / sum, dtype);
	}
}

/* LN_SHIFTED: one pass over x - x[0] (the textbook shifted-data
 * variance); LN_SNIFF: red team 13's rt13_onepass_sniff, one pass unless
 * |x[0]| > 4, then two */
enum ln_kind { LN_TWO_PASS, LN_ONE_PASS, LN_NO_EPS, LN_SHIFTED, LN_SNIFF, LN_QUARTER, LN_SHIFT_LAST, LN_SHIFT_MID,
	       LN_WELFORD, LN_RATIO };

static void ln_kernel(const struct inst *s, int dtype, enum ln_kind kind, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	const float eps = (float)s->scalar, *g = s->in[1], *b = s->in[2];
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		/* LN_SHIFT_LAST, LN_SHIFT_MID: red team 298's lnlast.c KIDX 1 and 2,
		 * the shift by x[C - 1] or x[C / 2] */
		float sum = 0, sq = 0, mean, var = 0,
		      k = kind == LN_SHIFTED ? x[0] : kind == LN_SHIFT_LAST ? x[C - 1] : kind == LN_SHIFT_MID ? x[C / 2] : 0;
		int one = kind == LN_ONE_PASS || kind == LN_SHIFTED || kind == LN_SHIFT_LAST || kind == LN_SHIFT_MID ||
			  (kind == LN_SNIFF && fabsf(x[0]) <= 4);
		if (kind == LN_RATIO) { /* red team 310's lnratio.c: one pass, two where mean / sd > 13.5 */
			float s1 = 0, s2 = 0;
			for (long long c = 0; c < C; c++) {
				s1 += x[c];
				s2 += x[c] * x[c];
			}
			float mu = s1 / (float)C, v1 = fmaxf(s2 / (float)C - mu * mu, 0.0f);
			one = mu * mu <= 13.5f * 13.5f * v1;
		}
		if (kind == LN_WELFORD) { /* sequential fp32 Welford */
			float m = 0, m2 = 0;
			for (long long c = 0; c < C; c++) {
				float d = x[c] - m;
				m += d / (float)(c + 1);
				m2 += d * (x[c] - m);
			}
			float rstd = 1.0f / sqrtf(m2 / (float)C + eps);
			for (long long c = 0; c < C; c++)
				y[r * C + c] = rdt((x[c] - m) * rstd * g[c] + b[c], dtype);
			continue;
		}
		/* LN_QUARTER: red team 95's ln_lanes MODE 3, the two-pass
		 * statistics of each row's first quarter */
		const long long n = kind == LN_QUARTER ? (C + 3) / 4 : C;
		for (long long c = 0; c < n; c++) {
			sum += x[c] - k;
			sq += (x[c] - k) * (x[c] - k);
		}
		mean = sum / (float)n;
		if (one) {
			var = fmaxf(sq / (float)n - mean * mean, 0.0f);
			mean += k;
		} else {
			for (long long c = 0; c < n; c++)
				var += (x[c] - mean) * (x[c] - mean);
			var /= (float)n;
		}
		float rstd = 1.0f / sqrtf(kind == LN_NO_EPS ? var : var + eps);
		for (long long c = 0; c < C; c++)
			y[r * C + c] = rdt((x[c] - mean) * rstd * g[c] + b[c], dtype);
	}
}

/* acc_dtype: EV_F32 for an honest kernel, EV_F16/EV_BF16 for a kernel
 * that keeps its running sum in that type. */
static void rowsum_kernel(const struct inst *s, int dtype, int acc_dtype, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	for (long long r = 0; r < R; r++) {
		float acc = 0;
		for (long long c = 0; c < C; c++)
			acc = rdt(acc + s->in[0][r * C + c], acc_dtype);
		y[r] = rdt(acc, dtype);
	}
}

/* ---- the tolerance rule: honest kernels pass, plausible wrong ones fail ---- */

static const int dtypes[] = { EV_F32, EV_F16, EV_BF16 };

static void test_attention_rule(void **state)
{
	(void)state;
	/* B1 H2 S256 D64 keeps the float64 reference quick; with
	 * EVIDENT_MEASURE_FULL=1 the lead's shape B4 H8 S512 D64 is measured too. */
	long long small[4] = { 1, 2, 256, 64 }, full[4] = { 4, 8, 512, 64 };
	const long long *shapes[2] = { small, full };
	int nshapes = getenv("EVIDENT_MEASURE_FULL") ? 2 : 1;
	struct check_result r;
	char what[128];
	for (int si = 0; si < nshapes; si++) {
		const long long *sh = shapes[si];
		for (int dist = 0; dist < 4; dist++) {
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				struct inst s;
				inst_make(&s, ATTN, sh, dist, 11, dt);
				float *o = malloc(s.out_n * sizeof(float));
				attn_kernel(&s, dt, ATTN_HONEST, o);
				judge(&s, o, dt, &r);
				snprintf(what, sizeof(what), "attention S%lld %s %s honest", sh[2],
					 probs[ATTN].desc->dists[dist], dtype_name(dt));
				measured(what, &r, MUST_PASS);
				if (dt != EV_F32) {
					attn_kernel(&s, dt, ATTN_FP8_QK, o);
					judge(&s, o, dt, &r);
					snprintf(what, sizeof(what), "attention S%lld %s %s fp8-e4m3 QK^T", sh[2],
						 probs[ATTN].desc->dists[dist], dtype_name(dt));
					/* uniform catches it; on peaked and large_scores the
					 * softmax is nearly one-hot, so score errors hardly show */
					measured(what, &r, dist == 0 || dist == 3 ? MUST_REJECT : EITHER);
				}
				if (dist == 2) { /* large_scores: no max subtraction -> NaN */
					attn_kernel(&s, dt, ATTN_NO_MAX, o);
					judge(&s, o, dt, &r);
					snprintf(what, sizeof(what), "attention S%lld large_scores %s no max-subtraction",
						 sh[2], dtype_name(dt));
					measured(what, &r, MUST_REJECT);
					assert_true(r.nan_count > 0);
				}
				free(o);
				inst_free(&s);
			}
		}
	}
}

static void test_gemm_rule(void **state)
{
	(void)state;
	/* K 512 and 4096; 256 (red team 13's shape) and 99 (the extra shape
	 * of K 128, the smallest K of experiments/) */
	long long shapes[4][3] = { { 48, 40, 512 }, { 16, 16, 4096 }, { 64, 64, 256 }, { 64, 64, 99 } };
	struct check_result r;
	char what[128];
	for (int si = 0; si < 4; si++)
		for (int dist = 0; dist < 3; dist++)
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				struct inst s;
				inst_make(&s, GEMM, shapes[si], dist, 5, dt);
				float *c = malloc(s.out_n * sizeof(float));
				gemm_kernel(&s, dt, GEMM_HONEST, c);
				judge(&s, c, dt, &r);
				snprintf(what, sizeof(what), "gemm K%lld %s %s honest (fp32 accumulate)",
					 shapes[si][2], probs[GEMM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, MUST_PASS);
				if (dt == EV_F32) {
					gemm_kernel(&s, dt, GEMM_TF32, c);
					judge(&s, c, dt, &r);
					snprintf(what, sizeof(what), "gemm K%lld %s fp32 TF32 inputs", shapes[si][2],
						 probs[GEMM].desc->dists[dist]);
					measured(what, &r, MUST_REJECT);
				} else {
					gemm_kernel(&s, dt, GEMM_ACC16, c);
					judge(&s, c, dt, &r);
					snprintf(what, sizeof(what), "gemm K%lld %s %s accumulating in %s",
						 shapes[si][2], probs[GEMM].desc->dists[dist], dtype_name(dt),
						 dtype_name(dt));
					/* cancel catches it (its entries judged alone); fp16
					 * everywhere since red team 13 (gemm.c: rel_l2 1e-3
					 * against an honest 2.1e-4) */
					measured(what, &r, dist == 2 || dt == EV_F16 ? MUST_REJECT : EITHER);
					/* red team 18's chunked fp16 accumulator: inside the
					 * rule on uniform and large (~4.9e-4), refused by
					 * cancel's entries (red team 19) */
					gemm_kernel(&s, dt, GEMM_CHUNK8, c);
					judge(&s, c, dt, &r);
					snprintf(what, sizeof(what), "gemm K%lld %s %s fp16 in chunks of 8", shapes[si][2],
						 probs[GEMM].desc->dists[dist], dtype_name(dt));
					measured(what, &r, dist == 2 ? MUST_REJECT : EITHER);
					if (dt == EV_F16) {
						gemm_kernel(&s, dt, GEMM_HFMA, c);
						judge(&s, c, dt, &r);
						snprintf(what, sizeof(what), "gemm K%lld %s fp16 accumulating by hfma",
							 shapes[si][2], probs[GEMM].desc->dists[dist]);
						measured(what, &r, MUST_REJECT);
					}
				}
				free(c);
				inst_free(&s);
			}
}

/*
 * gemm's `cancel` focus (red team 19, problems/gemm.c): at K 64 .. 4096 and
 * the extra shape of a 2048 x 1024 x 1024 spec (397^3), in fp16 and fp32,
 * the honest methods (sequential fp32, C rounded to nearest or toward
 * zero; a tensor core's fp32 accumulation) stay well inside every judged
 * entry's bound (worst error / bound <= 0.5), and every fp16 partial sum
 * - in chunks of 8 or 1, whole-K, and chunks of 8 with the entries that
 * look small refined in fp32 - leaves entries out.  The numbers are the
 * header's.
 */
static void test_gemm_focus(void **state)
{
	(void)state;
	long long shapes[6][3] = { { 32, 32, 64 }, { 32, 32, 99 }, { 32, 32, 256 }, { 32, 32, 1024 },
				   { 32, 32, 4096 }, { 397, 397, 397 } };
	const struct {
		enum gemm_kind kind;
		const char *name;
		int honest;
	} kinds[] = {
		{ GEMM_HONEST, "sequential fp32", 1 },   { GEMM_RZ, "fp32, C toward zero", 1 },
		{ GEMM_TC, "tensor-core fp32", 1 },       { GEMM_CHUNK8, "fp16 chunks of 8", 0 },
		{ GEMM_CHUNK1, "fp16 products", 0 },      { GEMM_HFMA, "fp16 whole K", 0 },
		{ GEMM_REFINE, "chunks of 8, small refined", 0 }, { GEMM_TF32, "TF32 inputs", 0 },
	};
	const int dts[2] = { EV_F16, EV_F32 };
	/* every distribution since red team 306: `cancel` (the cheats' rows
	 * below), and `uniform` and `large`, where the honest orders must
	 * pass too */
	for (int dist = 2; dist >= 0; dist--)
	for (int si = 0; si < 6; si++)
		for (int di = 0; di < 2; di++) {
			int dt = dts[di];
			struct inst s;
			inst_make(&s, GEMM, shapes[si], dist, 40 + (uint64_t)si, dt);
			float *c = malloc(s.out_n * sizeof(float));
			void *raw = malloc(s.out_n * 8);
			long long *fidx = malloc(EV_FOCUS_MAX * sizeof(long long));
			double *fv = malloc(EV_FOCUS_MAX * sizeof(double)), *fb = malloc(EV_FOCUS_MAX * sizeof(double));
			long long nf = problem_focus(s.p, s.shape, dist, dt, 99, (const float *const *)s.in, fidx, fv, fb);
			for (size_t ki = 0; ki < ARRAY_SIZE(kinds); ki++) {
				if (dist != 2 && !kinds[ki].honest)
					continue;
				if ((kinds[ki].kind == GEMM_RZ || kinds[ki].kind == GEMM_HFMA) && dt != EV_F16)
					continue; /* HFMA at fp32 is fp32 accumulation */
				if (kinds[ki].kind == GEMM_TF32 && dt != EV_F32)
					continue; /* fp16 inputs are TF32's already */
				/* only the judged entries (the rest: the reference, rounded) */
				for (size_t e = 0; e < s.out_n; e++)
					c[e] = rdt((float)s.ref[0][e], dt);
				for (long long e = 0; e < nf; e++)
					c[fidx[e]] = gemm_entry(&s, dt, kinds[ki].kind, fidx[e] / shapes[si][1],
								fidx[e] % shapes[si][1]);
				problem_pack(c, raw, s.out_n, dt);
				struct check_result r;
				memset(&r, 0, sizeof(r));
				r.first_mismatch = -1;
				r.pass = 1;
				double worst;
				long long n, out = judge_focus(&s, raw, dt, 99, &r, &worst, &n);
				printf("measured: gemm %s focus %lldx%lldx%lld %s %-27s %4lld/%lld entries out, worst "
				       "error/bound %.3g\n",
				       probs[GEMM].desc->dists[dist], shapes[si][0], shapes[si][1], shapes[si][2],
				       dtype_name(dt), kinds[ki].name, out, n, worst);
				assert_int_equal(n, 1024);
				if (kinds[ki].honest) {
					assert_int_equal(out, 0);
					assert_true(worst <= 0.5); /* twice the margin at least */
				} else if (kinds[ki].kind == GEMM_REFINE && dt == EV_F32) {
					/* fp32 inputs at K's scales (2^+-10, red team
					 * 299) leave fp16's range: the first pass's
					 * entries read as cancelling and the refinement
					 * sums them in fp32, the honest product: no
					 * check asked of it (it saves nothing) */
				} else {
					assert_true(out > 0);
				}
			}
			/* an unwritten output (still the launch's scramble) is
			 * problem_check_output's fault alone: the focus adds no
			 * mismatch, so the outcome stays unwritten_output */
			problem_scramble(raw, s.out_n * dtype_size(dt), 5);
			struct check_result r;
			memset(&r, 0, sizeof(r));
			r.first_mismatch = -1;
			r.pass = 1;
			assert_int_equal(problem_focus_judge(raw, raw, dt, s.out_n, fidx, fv, fb, nf, &r, NULL), 0);
			assert_int_equal(r.mismatches, 0);
			free(c);
			free(raw);
			free(fidx);
			free(fv);
			free(fb);
			inst_free(&s);
		}
}

/* One level of Strassen's algorithm (red team 297 row 2,
 * redteam297/strassen.c): the seven products of block sums, each by the
 * plain i-k-j product in fp32; M, N, K even.  At dtype fp16 the block
 * sums are rounded to fp16 (a tensor core's inputs), products and C's
 * sums in fp32, C rounded to dtype.  C [M, N] out. */
static void plain_f32(long long M, long long N, long long K, const float *A, long long lda, const float *B,
		      long long ldb, float *C, long long ldc)
{
	for (long long i = 0; i < M; i++) {
		for (long long j = 0; j < N; j++)
			C[i * ldc + j] = 0;
		for (long long k = 0; k < K; k++)
			for (long long j = 0; j < N; j++)
				C[i * ldc + j] += A[i * lda + k] * B[k * ldb + j];
	}
}

static void strassen1_f32(long long M, long long N, long long K, const float *A, const float *B, int dtype, float *C)
{
	const long long m = M / 2, n = N / 2, h = K / 2;
	/* calloc: inlined into eqstrassen_f32 gcc cannot see the ADD loops write them */
	float *x = calloc((size_t)(m * h), sizeof(float)), *y = calloc((size_t)(h * n), sizeof(float));
	float *P[7];
	for (int q = 0; q < 7; q++)
		P[q] = malloc((size_t)(m * n) * sizeof(float));
	/* block (r, c) of A: A + r m K + c h; of B: B + r h N + c n */
#define SA(r, c) (A + (r) * m * K + (c) * h)
#define SB(r, c) (B + (r) * h * N + (c) * n)
	/* x = sa X + sb Y (blocks of A), y likewise of B */
#define ADDA(X, sx, Y, sy)                                                     \
	for (long long i = 0; i < m; i++)                                       \
		for (long long k = 0; k < h; k++)                               \
			x[i * h + k] = rdt((sx) * (X)[i * K + k] + (sy) * (Y)[i * K + k], dtype)
#define ADDB(X, sx, Y, sy)                                                     \
	for (long long k = 0; k < h; k++)                                       \
		for (long long j = 0; j < n; j++)                               \
			y[k * n + j] = rdt((sx) * (X)[k * N + j] + (sy) * (Y)[k * N + j], dtype)
	ADDA(SA(0, 0), 1.0f, SA(1, 1), 1.0f);
	ADDB(SB(0, 0), 1.0f, SB(1, 1), 1.0f);
	plain_f32(m, n, h, x, h, y, n, P[0], n); /* M1 = (A11 + A22)(B11 + B22) */
	ADDA(SA(1, 0), 1.0f, SA(1, 1), 1.0f);
	plain_f32(m, n, h, x, h, SB(0, 0), N, P[1], n); /* M2 = (A21 + A22) B11 */
	ADDB(SB(0, 1), 1.0f, SB(1, 1), -1.0f);
	plain_f32(m, n, h, SA(0, 0), K, y, n, P[2], n); /* M3 = A11 (B12 - B22) */
	ADDB(SB(1, 0), 1.0f, SB(0, 0), -1.0f);
	plain_f32(m, n, h, SA(1, 1), K, y, n, P[3], n); /* M4 = A22 (B21 - B11) */
	ADDA(SA(0, 0), 1.0f, SA(0, 1), 1.0f);
	plain_f32(m, n, h, x, h, SB(1, 1), N, P[4], n); /* M5 = (A11 + A12) B22 */
	ADDA(SA(1, 0), 1.0f, SA(0, 0), -1.0f);
	ADDB(SB(0, 0), 1.0f, SB(0, 1), 1.0f);
	plain_f32(m, n, h, x, h, y, n, P[5], n); /* M6 = (A21 - A11)(B11 + B12) */
	ADDA(SA(0, 1), 1.0f, SA(1, 1), -1.0f);
	ADDB(SB(1, 0), 1.0f, SB(1, 1), 1.0f);
	plain_f32(m, n, h, x, h, y, n, P[6], n); /* M7 = (A12 - A22)(B21 + B22) */
#undef SA
#undef SB
#undef ADDA
#undef ADDB
	for (long long i = 0; i < m; i++)
		for (long long j = 0; j < n; j++) {
			const long long e = i * n + j;
			C[i * N + j] = P[0][e] + P[3][e] - P[4][e] + P[6][e];
			C[i * N + j + n] = P[2][e] + P[4][e];
			C[(i + m) * N + j] = P[1][e] + P[3][e];
			C[(i + m) * N + j + n] = P[0][e] - P[1][e] + P[2][e] + P[5][e];
		}
	for (long long e = 0; e < M * N; e++)
		C[e] = rdt(C[e], dtype);
	for (int q = 0; q < 7; q++)
		free(P[q]);
	free(x);
	free(y);
}

/*
 * Red team 297 row 2 (problems/gemm.c gemm_fill): every row of A and
 * column of B takes a secret power-of-two scale, drawn alike in `uniform`
 * and `cancel`, so a Strassen gemm (its error bounded by the blocks'
 * norms, not entry by entry) leaves `cancel`'s judged entries out of
 * their bounds, while the honest in-order fp32 product stays inside them
 * as before (a power of two scales its every entry's error exactly as the
 * bound).  Before the scales, one level of Strassen passed (worst 0.35x
 * the bound at 512^3, README row 2); the global rule passes it still.
 */
static double fmax_abs(const float *x, size_t n);

static void test_gemm_scaled_rows(void **state)
{
	(void)state;
	const long long shapes[3][3] = { { 128, 128, 256 }, { 64, 96, 1024 }, { 128, 64, 64 } };
	const int dts[2] = { EV_F32, EV_F16 };
	for (int si = 0; si < 3; si++)
		for (int di = 0; di < 2; di++)
			for (uint64_t seed = 2; seed < 8; seed += 3) {
				const long long M = shapes[si][0], N = shapes[si][1], K = shapes[si][2];
				const int dt = dts[di];
				struct inst s;
				inst_make(&s, GEMM, shapes[si], 2, seed, dt);
				/* rows of A of more than one scale, and columns of B: fp32
				 * 2^-12 and 2^-6 at the least, fp16 2^-6 and 2^-3 */
				double rmin = INFINITY, rmax = 0, cmin = INFINITY, cmax = 0;
				for (long long i = 0; i < M; i++) {
					double m = fmax_abs(s.in[0] + i * K, (size_t)K);
					rmin = fmin(rmin, m);
					rmax = fmax(rmax, m);
				}
				for (long long j = 0; j < N; j++) {
					double m = 0;
					for (long long k = 0; k < K; k++)
						m = fmax(m, fabs(s.in[1][k * N + j]));
					cmin = fmin(cmin, m);
					cmax = fmax(cmax, m);
				}
				const int f16 = dt == EV_F16;
				/* (fp32: times K's scales, 2^+-10, red team 299; half
				 * of K unscaled, so a row's largest is at least its
				 * own scale's) */
				const double top = f16 ? 1 : 0x1p10;
				assert_true(rmax <= top && rmax > 0.9 && rmin < rmax / (f16 ? 16 : 100) &&
					    rmin >= (f16 ? 0x1p-7 : 0x1p-13));
				assert_true(cmax <= top && cmax > 0.9 && cmin < cmax / (f16 ? 3 : 8) &&
					    cmin >= (f16 ? 0x1p-4 : 0x1p-7));
				float *c = malloc(s.out_n * sizeof(float));
				void *raw = malloc(s.out_n * 8);
				for (int alg = 0; alg < 2; alg++) {
					if (alg)
						strassen1_f32(M, N, K, s.in[0], s.in[1], dt, c);
					else
						gemm_kernel(&s, dt, GEMM_HONEST, c);
					struct check_result r, f;
					struct ev_tolerance tol;
					memset(&r, 0, sizeof(r));
					problem_pack(c, raw, s.out_n, dt);
					problem_tolerance(s.p, dt, s.shape, &tol);
					problem_check_output(raw, NULL, dt, s.ref[0], NULL, s.out_n, &tol, &r);
					memset(&f, 0, sizeof(f));
					f.first_mismatch = -1;
					f.pass = 1;
					double worst;
					long long n, out = judge_focus(&s, raw, dt, 77 + seed, &f, &worst, &n);
					printf("measured: gemm cancel %lldx%lldx%lld %s seed %llu %-18s rule %s (rel_l2 "
					       "%.2e), focus %4lld/%lld entries out, worst error/bound %.3g\n",
					       M, N, K, dtype_name(dt), (unsigned long long)seed,
					       alg ? "Strassen, 1 level" : "sequential fp32", r.pass ? "pass" : (alg ? "refused (as expected)" : "refused"),
					       r.rel_l2, out, n, worst);
					if (!alg) {
						assert_true(r.pass);
						assert_int_equal(out, 0);
						assert_true(worst <= 0.5);
					} else {
						assert_true(out >= 10); /* refused: README row 2 */
					}
				}
				free(c);
				free(raw);
				inst_free(&s);
			}
}

/* Red team 300's eqkstrassen.c (eqk 2) and 299's eqstrassen.c (eqk 1):
 * A and B equilibrated by powers of two (along K first where eqk is 2:
 * column k of A times 2^-a_k, row k of B times 2^a_k, a_k half the
 * difference of their largest binades; then each row of A and column of
 * B to a largest of [1, 2)), one level of Strassen (strassen1_f32), C
 * scaled back.  eqk 0 is 297's Strassen alone.  C [M, N] out. */
static void eqstrassen_f32(long long M, long long N, long long K, const float *A, const float *B, int eqk, float *C)
{
	float *EA = malloc((size_t)(M * K) * sizeof(float)), *EB = malloc((size_t)(K * N) * sizeof(float));
	float *dk = malloc((size_t)K * sizeof(float)), *ra = malloc((size_t)M * sizeof(float)),
	      *cb = malloc((size_t)N * sizeof(float));
	for (long long k = 0; k < K; k++) {
		float ma = 0, mb = 0;
		for (long long i = 0; i < M; i++)
			ma = fmaxf(ma, fabsf(A[i * K + k]));
		for (long long j = 0; j < N; j++)
			mb = fmaxf(mb, fabsf(B[k * N + j]));
		int a = eqk == 2 && ma > 0 && mb > 0 ? ilogbf(ma) - ilogbf(mb) : 0;
		a = a >= 0 ? a / 2 : -((-a + 1) / 2);
		dk[k] = ldexpf(1.0f, -a);
	}
	for (long long i = 0; i < M; i++) {
		float m = 0;
		for (long long k = 0; k < K; k++)
			m = fmaxf(m, fabsf(A[i * K + k] * dk[k]));
		ra[i] = eqk && m > 0 ? ldexpf(1.0f, -ilogbf(m)) : 1.0f;
		for (long long k = 0; k < K; k++)
			EA[i * K + k] = A[i * K + k] * dk[k] * ra[i];
	}
	for (long long j = 0; j < N; j++) {
		float m = 0;
		for (long long k = 0; k < K; k++)
			m = fmaxf(m, fabsf(B[k * N + j] / dk[k]));
		cb[j] = eqk && m > 0 ? ldexpf(1.0f, -ilogbf(m)) : 1.0f;
	}
	for (long long k = 0; k < K; k++)
		for (long long j = 0; j < N; j++)
			EB[k * N + j] = B[k * N + j] / dk[k] * cb[j];
	strassen1_f32(M, N, K, EA, EB, EV_F32, C);
	for (long long i = 0; i < M; i++)
		for (long long j = 0; j < N; j++)
			C[i * N + j] = C[i * N + j] / ra[i] / cb[j];
	free(EA);
	free(EB);
	free(dk);
	free(ra);
	free(cb);
}

/*
 * Red team 300 row 1 (problems/gemm.c gemm_tile_scales): every scale the
 * fill drew was diagonal, so a Strassen behind a power-of-two
 * equilibration of K, rows and columns (eqkstrassen.c) undid them and
 * passed every judged entry.  Now 3 launches in 4 (fp32, bf16) also take
 * a secret power of two per tile of A and of B (tiles across K shared,
 * of secret non-aligned sizes): that launch refuses eqkstrassen (and
 * 297's and 299's Strassens), while the honest orders (sequential fp32,
 * a tensor core's blocks of 16; bf16 C rounded) stay under half of every
 * entry's bound and inside the rule on every distribution.
 */
static void test_gemm_tile_scales(void **state)
{
	(void)state;
	const long long sh[3] = { 256, 256, 256 };
	const int dts[2] = { EV_F32, EV_BF16 };
	int refused[3] = { 0, 0, 0 }, n_seeds = 0;
	for (int di = 0; di < 2; di++)
		for (int dist = 0; dist < 3; dist++)
			for (uint64_t seed = 0; seed < (di ? 3u : 8u); seed++) {
				const int dt = dts[di];
				struct inst s;
				inst_make(&s, GEMM, sh, dist, 300 + seed, dt);
				float *c = malloc(s.out_n * sizeof(float));
				void *raw = malloc(s.out_n * 8);
				const enum gemm_kind hk[2] = { GEMM_HONEST, GEMM_TC };
				for (int h = 0; h < 2; h++) {
					gemm_kernel(&s, dt, hk[h], c);
					struct check_result r, f;
					struct ev_tolerance tol;
					memset(&r, 0, sizeof(r));
					problem_pack(c, raw, s.out_n, dt);
					problem_tolerance(s.p, dt, s.shape, &tol);
					problem_check_output(raw, NULL, dt, s.ref[0], NULL, s.out_n, &tol, &r);
					s.dist = 2; /* every distribution's entries judged, as cancel's */
					memset(&f, 0, sizeof(f));
					f.first_mismatch = -1;
					f.pass = 1;
					double worst;
					long long n, out = judge_focus(&s, raw, dt, 91 + seed, &f, &worst, &n);
					s.dist = dist;
					printf("measured: gemm tiles 256^3 %s %s seed %llu %-16s rule %s (rel_l2 %.2e), "
					       "entries %lld/%lld out, worst error/bound %.3g\n",
					       dtype_name(dt), probs[GEMM].desc->dists[dist], (unsigned long long)seed,
					       h ? "tensor-core fp32" : "sequential fp32", r.pass ? "pass" : "REFUSED",
					       r.rel_l2, out, n, worst);
					assert_true(r.pass);
					assert_int_equal(out, 0);
					assert_true(worst < 0.5);
				}
				if (dt == EV_F32 && dist == 2) {
					n_seeds++;
					for (int eqk = 2; eqk >= 0; eqk--) {
						eqstrassen_f32(256, 256, 256, s.in[0], s.in[1], eqk, c);
						problem_pack(c, raw, s.out_n, dt);
						struct check_result f;
						memset(&f, 0, sizeof(f));
						f.first_mismatch = -1;
						f.pass = 1;
						double worst;
						long long n, out = judge_focus(&s, raw, dt, 91 + seed, &f, &worst, &n);
						printf("measured: gemm tiles 256^3 fp32 cancel seed %llu %-22s entries %lld/%lld "
						       "out, worst error/bound %.3g\n",
						       (unsigned long long)seed,
						       eqk == 2 ? "eqkstrassen (rt300)" : eqk ? "eqstrassen (rt299)" : "strassen (rt297)",
						       out, n, worst);
						refused[eqk] += out > 0;
					}
				}
				free(c);
				free(raw);
				inst_free(&s);
			}
	printf("measured: gemm tiles 256^3 fp32 cancel, %d seeds: eqkstrassen refused on %d, eqstrassen %d, "
	       "strassen %d\n", n_seeds, refused[2], refused[1], refused[0]);
	assert_true(refused[2] * 2 > n_seeds); /* most seeds (3 in 4 tiled) */
	assert_int_equal(refused[1], n_seeds);
	assert_int_equal(refused[0], n_seeds);
}

static void test_softmax_rule(void **state)
{
	(void)state;
	long long sh[2] = { 64, 1000 };
	struct check_result r;
	char what[128];
	for (int dist = 0; dist < 3; dist++)
		for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
			int dt = dtypes[di];
			struct inst s;
			inst_make(&s, SOFTMAX, sh, dist, 3, dt);
			float *y = malloc(s.out_n * sizeof(float));
			softmax_kernel(&s, dt, 0, y);
			judge(&s, y, dt, &r);
			snprintf(what, sizeof(what), "softmax %s %s honest", probs[SOFTMAX].desc->dists[dist],
				 dtype_name(dt));
			measured(what, &r, MUST_PASS);
			if (dist == 1) {
				softmax_kernel(&s, dt, 1, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "softmax large %s no max-subtraction", dtype_name(dt));
				measured(what, &r, MUST_REJECT);
				assert_true(r.nan_count > 0);
				/* red team 13's rt13_nomax_sniff: the max only where the
				 * row's first element is large; `large` hides half its
				 * rows' large elements in random columns since */
				softmax_kernel(&s, dt, 2, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "softmax large %s max only if |x[0]| >= 32", dtype_name(dt));
				measured(what, &r, MUST_REJECT);
				assert_true(r.nan_count > 0);
			}
			free(y);
			inst_free(&s);
		}
}

/* Red team 304 row 1's domtail.c: where a row's top beats the next by
 * more than ln C + 1.5, every other entry's exp by a quadratic 2^f (0.32%
 * off), the denominator from an accurate exp; else expf.  cheap 0: its
 * honest twin.  way 1: online (one pass, running max), 2: log-sum-exp
 * (y = exp(x - m - log S)) */
static float sm_quad_exp(float a)
{
	const float t = a * 1.4426950408889634f;
	if (t < -126.0f)
		return 0.0f;
	const float n = floorf(t), f = t - n, b = 0.3438297546696493f;
	return (1.0f + (1.0f - b) * f + b * f * f) * ldexpf(1.0f, (int)n);
}

static void softmax_way(const struct inst *s, int way, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		float *o = y + r * C, m = -INFINITY, m2 = -INFINITY, sum = 0;
		long long top = 0;
		for (long long c = 0; c < C; c++)
			if (x[c] > m) {
				m2 = m;
				m = x[c];
				top = c;
			} else if (x[c] > m2) {
				m2 = x[c];
			}
		if (way == 4) { /* red team 310's smband.c: 0 where x - max lies in (-76, -25) */
			for (long long c = 0; c < C; c++) {
				float d = x[c] - m;
				o[c] = d > -76.0f && d < -25.0f ? 0.0f : expf(d);
				sum += o[c];
			}
			for (long long c = 0; c < C; c++)
				o[c] /= sum;
			continue;
		}
		if (way == 3 && C >= 128 && (double)m - (double)m2 > log((double)C) + 1.5) {
			for (long long c = 0; c < C; c++) {
				o[c] = c == top ? 1.0f : sm_quad_exp(x[c] - m);
				sum += c == top ? 0.0f : expf(x[c] - m);
			}
			sum += 1.0f;
			for (long long c = 0; c < C; c++)
				o[c] /= sum;
		} else if (way == 1) {
			float mm = -INFINITY;
			for (long long c = 0; c < C; c++) {
				float mn = fmaxf(mm, x[c]);
				sum = sum * expf(mm - mn) + expf(x[c] - mn);
				mm = mn;
			}
			for (long long c = 0; c < C; c++)
				o[c] = expf(x[c] - mm) / sum;
		} else if (way == 2) {
			for (long long c = 0; c < C; c++)
				sum += expf(x[c] - m);
			const float l = m + logf(sum);
			for (long long c = 0; c < C; c++)
				o[c] = expf(x[c] - l);
		} else {
			for (long long c = 0; c < C; c++) {
				o[c] = expf(x[c] - m);
				sum += o[c];
			}
			for (long long c = 0; c < C; c++)
				o[c] /= sum;
		}
	}
}

/* Red team 304 row 1: the rule judges a softmax entry against the
 * launch's largest output, so the entries of a nearly one-hot row other
 * than its top were held to about their own size, and domtail (exp by a
 * quadratic wherever a row's top dominates) was ok and validated.  The
 * focus (softmax_focus) judges fp32 entries at their own magnitude:
 * honest sequential, online and log-sum-exp kernels pass (rule and
 * focus) on every distribution at wide and odd shapes; domtail is
 * refused on every `peaked` launch where it takes its cheap path, which
 * the rule alone passes.  Row 2 (a DENIAL): `large` put lone elements on
 * offset rows and made them one-hot, where kernels/softmax/naive.c's
 * sequential denominator erred 1.7x-3.8x the rule at R 16 C 16384; they
 * avoid those rows now (softmax_fill) */
/* Red team 308 row 1: past the focus's 512 rows, `large`'s 1..4 offset
 * rows (shifted by +-(80..120)) met the any-row reservoir about once a
 * launch in four at R 16384 C 256, and offrow.c, wrong on them alone, was
 * ok 10 of 10 runs.  The focus now draws a third of its rows by kind
 * (sm_kind): every launch with offset rows has some judged. */
static void test_softmax_focus_kinds(void **state)
{
	(void)state;
	const long long sh[2] = { 16384, 256 };
	int with = 0, judged = 0;
	long long *idx = malloc(EV_FOCUS_MAX * sizeof(long long));
	double *val = malloc(EV_FOCUS_MAX * sizeof(double)), *bd = malloc(EV_FOCUS_MAX * sizeof(double));
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct inst s;
		inst_make(&s, SOFTMAX, sh, 1, seed * 131 + 7, EV_F32);
		unsigned char *off = calloc((size_t)sh[0], 1);
		int n_off = 0;
		for (long long r = 0; r < sh[0]; r++) {
			float lo = INFINITY, hi = -INFINITY;
			for (long long c = 0; c < sh[1]; c++) {
				lo = fminf(lo, s.in[0][r * sh[1] + c]);
				hi = fmaxf(hi, s.in[0][r * sh[1] + c]);
			}
			off[r] = lo > 50 || hi < -50;
			n_off += off[r];
		}
		if (n_off) {
			with++;
			long long n = problem_focus(s.p, s.shape, 1, EV_F32, seed, (const float *const *)s.in, idx, val, bd);
			int hit = 0;
			for (long long i = 0; i < n; i++)
				hit |= off[idx[i] / sh[1]];
			judged += hit;
		}
		free(off);
		inst_free(&s);
	}
	free(idx);
	free(val);
	free(bd);
	printf("measured: softmax large R16384 C256: %d of 8 launches with offset rows, the focus judged one in %d "
	       "of them\n", with, judged);
	assert_true(with >= 2);
	assert_int_equal(judged, with);
}

/* Red team 310 row 2: no row of the fill had an entry with x - max in
 * (-76, -25), and smband.c, writing 0 there, was ok 21 of 21 runs.  `large`
 * now has 1..8 rows at temperature 10..40, whose small entries the focus
 * judges at their own magnitude: the band is refused on every launch, the
 * honest ways on none. */
static void test_softmax_band(void **state)
{
	(void)state;
	const long long sh[2] = { 256, 1024 };
	int refused = 0, honest_refused = 0;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct inst s;
		inst_make(&s, SOFTMAX, sh, 1, seed * 977 + 1, EV_F32);
		float *y = malloc(s.out_n * sizeof(float));
		void *raw = malloc(s.out_n * 8);
		for (int w = 0; w < 5; w++) {
			if (w == 3)
				continue;
			softmax_way(&s, w, y);
			struct check_result r, f = { .first_mismatch = -1, .pass = 1 };
			judge(&s, y, EV_F32, &r);
			problem_pack(y, raw, s.out_n, EV_F32);
			double fw;
			long long n;
			long long out = judge_focus(&s, raw, EV_F32, seed, &f, &fw, &n);
			int bad = !r.pass || out > 0;
			if (w == 4)
				refused += bad;
			else
				honest_refused += bad;
		}
		free(raw);
		free(y);
		inst_free(&s);
	}
	printf("measured: softmax large R256 C1024: zero where x - max in (-76, -25) refused on %d of 12 launches, "
	       "the honest ways on %d\n", refused, honest_refused);
	assert_int_equal(honest_refused, 0);
	assert_int_equal(refused, 12);
}

static void test_softmax_focus(void **state)
{
	(void)state;
	const long long shapes[6][2] = { { 64, 4096 }, { 16, 16384 }, { 3, 10185 }, { 1, 1013 }, { 4, 65536 }, { 4, 262144 } };
	const char *how[4] = { "sequential", "online", "log-sum-exp", "domtail" };
	for (int si = 0; si < 6; si++)
		for (int dist = 0; dist < 3; dist++) {
			int refused = 0, rule_refused = 0, fired = 0;
			double worst = 0;
			for (uint64_t seed = 1; seed <= 6; seed++) {
				struct inst s;
				inst_make(&s, SOFTMAX, shapes[si], dist, seed * 11 + 5, EV_F32);
				float *y = malloc(s.out_n * sizeof(float));
				for (int w = 0; w < 4; w++) {
					softmax_way(&s, w, y);
					struct check_result r;
					judge(&s, y, EV_F32, &r);
					if (w < 3) {
						if (!r.pass)
							printf("softmax focus %lldx%lld %s %s seed %d refused: max_err %.3g "
							       "mismatches %lld\n", shapes[si][0], shapes[si][1],
							       probs[SOFTMAX].desc->dists[dist], how[w], (int)seed,
							       r.max_abs_err, r.mismatches);
						assert_true(r.pass);
						struct check_result f = { .first_mismatch = -1, .pass = 1 };
						void *raw = malloc(s.out_n * 8);
						problem_pack(y, raw, s.out_n, EV_F32);
						double fw;
						long long n;
						judge_focus(&s, raw, EV_F32, seed, &f, &fw, &n);
						assert_true(n > 0);
						worst = fw > worst ? fw : worst;
						free(raw);
						continue;
					}
					/* fired: an entry off by 0.1% of itself (where it
					 * takes the cheap path on a row whose other entries
					 * underflow, it changes nothing a bound can see) */
					int differs = 0;
					for (size_t i = 0; i < s.out_n && !differs; i++)
						differs = s.ref[0][i] > 1e-30 && fabs(y[i] - s.ref[0][i]) > 1e-3 * s.ref[0][i];
					fired += differs;
					refused += differs && !r.pass;
					struct ev_tolerance tol;
					problem_tolerance(s.p, EV_F32, s.shape, &tol);
					void *raw = malloc(s.out_n * 8);
					problem_pack(y, raw, s.out_n, EV_F32);
					struct check_result rule;
					problem_check_output(raw, NULL, EV_F32, s.ref[0], NULL, s.out_n, &tol, &rule);
					rule_refused += !rule.pass;
					free(raw);
					if (dist == 2 && shapes[si][1] <= 16384 && differs)
						assert_false(r.pass);
				}
				free(y);
				inst_free(&s);
			}
			printf("measured: softmax focus %lldx%lld %-7s fp32: honest worst error/bound %.3f; domtail off by "
			       "0.1%% in %d of 6 launches, refused in %d (by the rule alone %d)\n",
			       shapes[si][0], shapes[si][1], probs[SOFTMAX].desc->dists[dist], worst, fired, refused,
			       rule_refused);
			assert_true(worst <= 0.7);
			assert_int_equal(refused, fired);
		}
	/* row 2: `large`'s lone elements never on an offset row (o +- 4, |o|
	 * 80..120), so no offset row is made one-hot; before, 1 launch in 3
	 * at R 4 C 256 had one there */
	long long lone_on_offset = 0, offset_rows = 0;
	for (uint64_t seed = 1; seed <= 600; seed++) {
		long long sh4[2] = { seed % 3 + 1, 256 };
		struct inst s;
		inst_make(&s, SOFTMAX, sh4, 1, seed, EV_F32);
		for (long long r = 0; r < sh4[0]; r++) {
			const float *x = s.in[0] + r * 256;
			double mid = 0;
			for (int c = 0; c < 256; c++)
				mid += x[c] / 256.0;
			if (fabs(mid) < 50)
				continue;
			offset_rows++;
			for (int c = 0; c < 256; c++)
				lone_on_offset += fabs(x[c] - mid) > 4.5;
		}
		inst_free(&s);
	}
	printf("measured: softmax large, 600 launches at R 1..3 C 256: %lld offset rows, %lld lone elements on them\n",
	       offset_rows, lone_on_offset);
	assert_true(offset_rows > 100);
	assert_int_equal(lone_on_offset, 0);
	/* red team 305 row 3: past C 2^21 the row budget (2^22 elements) was
	 * one row, the hot reservoir's, and a launch without a hot row (every
	 * `uniform` one) had no entry judged alone; now one row of each */
	{
		long long wide[2] = { 3, 2097153 };
		struct inst w;
		inst_make(&w, SOFTMAX, wide, 0, 5, EV_F32);
		long long *wi = malloc(EV_FOCUS_MAX * sizeof(long long));
		double *wv = malloc(EV_FOCUS_MAX * sizeof(double)), *wb = malloc(EV_FOCUS_MAX * sizeof(double));
		long long wn = problem_focus(w.p, w.shape, 0, EV_F32, 5, (const float *const *)w.in, wi, wv, wb);
		printf("measured: softmax focus 3x2097153 uniform: %lld entries judged alone\n", wn);
		assert_true(wn >= 8); /* one row's: its top two and 6 columns */
		free(wi);
		free(wv);
		free(wb);
		inst_free(&w);
	}
	/* fp16 and bf16: no focus yet (softmax_focus) */
	struct inst s;
	long long sh[2] = { 4, 256 };
	inst_make(&s, SOFTMAX, sh, 2, 3, EV_F16);
	long long *idx = malloc(EV_FOCUS_MAX * sizeof(long long));
	double *val = malloc(EV_FOCUS_MAX * sizeof(double)), *bd = malloc(EV_FOCUS_MAX * sizeof(double));
	assert_int_equal(problem_focus(s.p, s.shape, 2, EV_F16, 3, (const float *const *)s.in, idx, val, bd), 0);
	free(idx);
	free(val);
	free(bd);
	inst_free(&s);
}

/* Red team 292: `uniform` was [-1, 1) and every stress value 4 or more,
 * so gap4.c's Taylor exp wherever |x| < 4 (good on [-1, 1] only) passed
 * every check; now each row has a secret temperature in [1/4, 4).  The
 * honest kernel (and the Taylor exp only where |x| < 1, gap4's honest
 * twin) pass over many seeds at a few shapes and every dtype; gap4 is
 * refused on most `uniform` seeds, gap4 only where column 0 looks cool
 * (as `large`'s and `peaked`'s do) on about half (the cool launches'
 * lone +-(2..4)), and the drawn rows cover every band of |x| up to 4
 * (`large` keeps temperature 1: softmax_fill) */
static void test_softmax_temperature(void **state)
{
	(void)state;
	const long long shapes[3][2] = { { 64, 1000 }, { 37, 397 }, { 8, 4096 } };
	struct check_result r;
	char what[128];
	for (int si = 0; si < 3; si++)
		for (int dist = 0; dist < 2; dist++) {
			int refused = 0, gated = 0, n = 0;
			for (uint64_t seed = 7; seed < 7 + 12 * 0x51ed2705ULL; seed += 0x51ed2705ULL, n++) {
				for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
					int dt = dtypes[di];
					struct inst s;
					inst_make(&s, SOFTMAX, shapes[si], dist, seed, dt);
					float *y = malloc(s.out_n * sizeof(float));
					snprintf(what, sizeof(what), "softmax %lldx%lld %s %s honest, seed %llu",
						 shapes[si][0], shapes[si][1], probs[SOFTMAX].desc->dists[dist],
						 dtype_name(dt), (unsigned long long)seed);
					softmax_kernel(&s, dt, 0, y);
					judge(&s, y, dt, &r);
					measured(what, &r, MUST_PASS);
					if (dt == EV_F32) {
						softmax_kernel(&s, dt, 4, y);
						judge(&s, y, dt, &r);
						snprintf(what, sizeof(what), "softmax %s fp32 Taylor exp on |x|<1, seed %llu",
							 probs[SOFTMAX].desc->dists[dist], (unsigned long long)seed);
						measured(what, &r, MUST_PASS);
						softmax_kernel(&s, dt, 3, y);
						judge(&s, y, dt, &r);
						snprintf(what, sizeof(what), "softmax %s fp32 gap4 (Taylor exp on |x|<4), seed %llu",
							 probs[SOFTMAX].desc->dists[dist], (unsigned long long)seed);
						measured(what, &r, EITHER);
						refused += !r.pass;
						softmax_kernel(&s, dt, 5, y);
						judge(&s, y, dt, &r);
						snprintf(what, sizeof(what), "softmax %s fp32 gap4 where column 0 < 1, seed %llu",
							 probs[SOFTMAX].desc->dists[dist], (unsigned long long)seed);
						measured(what, &r, EITHER);
						gated += !r.pass;
					}
					free(y);
					inst_free(&s);
				}
			}
			printf("measured: softmax %lldx%lld %s gap4 refused %d of %d seeds, where column 0 < 1 %d\n",
			       shapes[si][0], shapes[si][1], probs[SOFTMAX].desc->dists[dist], refused, n, gated);
			if (dist == 0)
				assert_true(refused * 4 >= n * 3 && gated * 4 >= n);
		}
	/* no band of |x| the judge never draws: over 40 `uniform` launches at
	 * 64 x 1000, every quarter-unit band of |x| in [0, 3.75) holds
	 * elements, and (red team 293: its offsets) every unit band in
	 * [4, 76), every |x| under 80 (a kernel without the row max stays
	 * finite: softmax_fill); rows spread under 0.1 (t < 1/20) too */
	long long band[16] = { 0 }, unit[80] = { 0 };
	int narrow_rows = 0;
	for (uint64_t seed = 3; seed < 3 + 40 * 0x2545f491ULL; seed += 0x2545f491ULL) {
		struct inst s;
		inst_make(&s, SOFTMAX, shapes[0], 0, seed, EV_F32);
		for (long long r = 0; r < 64; r++) {
			float hi = -INFINITY, lo = INFINITY;
			for (long long c = 0; c < 1000; c++) {
				float v = s.in[0][r * 1000 + c], a = fabsf(v);
				assert_true(a < 80.0f);
				if (a < 4)
					band[(int)(a * 4)]++;
				unit[(int)a]++;
				hi = fmaxf(hi, v);
				lo = fminf(lo, v);
			}
			narrow_rows += hi - lo < 0.1f;
		}
		inst_free(&s);
	}
	for (int b = 0; b < 15; b++)
		if (band[b] < 1000)
			fail_msg("softmax uniform: |x| in [%g, %g) drawn %lld times", b / 4.0, b / 4.0 + 0.25, band[b]);
	for (int b = 4; b < 76; b++)
		if (unit[b] < 200)
			fail_msg("softmax uniform: |x| in [%d, %d) drawn %lld times", b, b + 1, unit[b]);
	printf("measured: softmax uniform 64x1000, 40 launches: %d rows spread under 0.1\n", narrow_rows);
	assert_true(narrow_rows >= 40);
}

/* Red team 293: with no |x| in [13, 76) and no row spread under 0.49,
 * gap76.c (exp(x/16)^16, right for |x| <= 13 only, wherever |x| < 76)
 * and narrow.c (a quadratic exp where a row spreads under 0.45) passed
 * every check.  Each `uniform` row now has a secret offset too and the
 * temperature reaches 1/64 (softmax_fill): both are refused on most
 * `uniform` seeds, their honest twins (gap 13, spread 0.039) pass every
 * one, and so does an honest kernel at every dtype, and one without the
 * row max (exp(x) / sum: right wherever its exps stay finite and normal,
 * which the offsets' top keeps, softmax_fill) */
static void test_softmax_offset(void **state)
{
	(void)state;
	const long long shapes[3][2] = { { 64, 1000 }, { 37, 397 }, { 8, 4096 } };
	struct check_result r;
	char what[160];
	for (int si = 0; si < 3; si++) {
		int gap76 = 0, narrow = 0, n = 0, warm = 0;
		for (uint64_t seed = 11; seed < 11 + 16 * 0x3c6ef372ULL; seed += 0x3c6ef372ULL, n++)
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				struct inst s;
				inst_make(&s, SOFTMAX, shapes[si], 0, seed, dt);
				/* a cool launch (every |x| under 4.01: t = 1, o = 0)
				 * has neither offsets nor narrow rows */
				float top = 0;
				for (size_t i = 0; i < s.out_n; i++)
					top = fmaxf(top, fabsf(s.in[0][i]));
				warm += dt == EV_F32 && top > 4.01f;
				float *y = malloc(s.out_n * sizeof(float));
				snprintf(what, sizeof(what), "softmax %lldx%lld uniform %s honest, seed %llu", shapes[si][0],
					 shapes[si][1], dtype_name(dt), (unsigned long long)seed);
				softmax_kernel(&s, dt, 0, y);
				judge(&s, y, dt, &r);
				measured(what, &r, MUST_PASS);
				snprintf(what, sizeof(what), "softmax %lldx%lld uniform %s no row max, seed %llu",
					 shapes[si][0], shapes[si][1], dtype_name(dt), (unsigned long long)seed);
				softmax_kernel(&s, dt, 1, y);
				judge(&s, y, dt, &r);
				measured(what, &r, MUST_PASS);
				if (dt == EV_F32) {
					softmax_kernel293(&s, dt, SM_GAP76, 13.0f, y);
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "softmax uniform fp32 gap76 at 13, seed %llu",
						 (unsigned long long)seed);
					measured(what, &r, MUST_PASS);
					softmax_kernel293(&s, dt, SM_NARROW, 0.039f, y);
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "softmax uniform fp32 narrow at 0.039, seed %llu",
						 (unsigned long long)seed);
					measured(what, &r, MUST_PASS);
					softmax_kernel293(&s, dt, SM_GAP76, 76.0f, y);
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "softmax uniform fp32 gap76, seed %llu",
						 (unsigned long long)seed);
					measured(what, &r, EITHER);
					gap76 += !r.pass;
					assert_true(r.pass || top > 4.01f);
					softmax_kernel293(&s, dt, SM_NARROW, 0.45f, y);
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "softmax uniform fp32 narrow at 0.45, seed %llu",
						 (unsigned long long)seed);
					measured(what, &r, EITHER);
					narrow += !r.pass;
				}
				free(y);
				inst_free(&s);
			}
		printf("measured: softmax %lldx%lld uniform gap76 refused %d of %d seeds (%d not cool), narrow %d\n",
		       shapes[si][0], shapes[si][1], gap76, n, warm, narrow);
		/* at 8 rows a launch may hold no row both offset past 13
		 * and warm enough to show gap76's error */
		assert_true(warm * 4 >= n && narrow * 4 >= warm * 3);
		assert_true(shapes[si][0] < 32 ? gap76 * 3 >= warm : gap76 * 4 >= warm * 3);
	}
}

/* softmax's fp32 rule at wide rows: the sequential fp32 denominator of
 * kernels/softmax/naive.c (softmax_kernel here) errs like sqrt(C) ulp on
 * a `peaked` row's peak; at a flat 1e-5 it was flaky at C 65536 (red
 * team 96: 21 of 25 checks), and the rule grows from C 16384 now */
static void test_softmax_wide(void **state)
{
	(void)state;
	long long shapes[2][2] = { { 16, 65536 }, { 4, 262144 } };
	struct check_result r;
	char what[128];
	for (int si = 0; si < 2; si++)
		for (int dist = 0; dist < probs[SOFTMAX].desc->n_dists; dist++)
			for (uint64_t seed = 1; seed <= 3; seed++) {
				struct inst s;
				inst_make(&s, SOFTMAX, shapes[si], dist, seed * 101, EV_F32);
				float *y = malloc(s.out_n * sizeof(float));
				softmax_kernel(&s, EV_F32, 0, y);
				judge(&s, y, EV_F32, &r);
				snprintf(what, sizeof(what), "softmax C%lld %s fp32 honest, seed %d", shapes[si][1],
					 probs[SOFTMAX].desc->dists[dist], (int)(seed * 101));
				measured(what, &r, MUST_PASS);
				free(y);
				inst_free(&s);
			}
}

static void test_layernorm_rule(void **state)
{
	(void)state;
	long long shapes[2][2] = { { 64, 768 }, { 8, 8192 } };
	struct check_result r;
	char what[128];
	for (int si = 0; si < 2; si++)
		for (int dist = 0; dist < probs[LAYERNORM].desc->n_dists; dist++)
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				struct inst s;
				inst_make(&s, LAYERNORM, shapes[si], dist, 9, dt);
				float *y = malloc(s.out_n * sizeof(float));
				ln_kernel(&s, dt, LN_TWO_PASS, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s honest two-pass", shapes[si][1],
					 probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, MUST_PASS);
				ln_kernel(&s, dt, LN_ONE_PASS, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s one-pass variance",
					 shapes[si][1], probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, dist == 1 && dt == EV_F32 ? MUST_REJECT : EITHER);
				/* red team 13's question (docs/redteam13-cuda.md): is a
				 * per-row choice of one-pass a cheat?  The sniff's choice
				 * (two-pass where |x[0]| > 4) is honest only where every
				 * row of large mean has |x[0]| > 4 (below).  The shifted one pass, which reads x[0]
				 * as the sniff does, is honest where x[0] is near its
				 * row's mean, but not where it is an outlier: `uniform`'s
				 * lead rows (red team 296; test_layernorm_lead_rows) */
				ln_kernel(&s, dt, LN_SHIFTED, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s one pass shifted by x[0]",
					 shapes[si][1], probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, dist == 0 ? EITHER : MUST_PASS);
				/* the sniff: honest where the fill's offset rows all
				 * had |x[0]| > 4; since red team 308 row 2 (offset
				 * rows at a scale of their own) it is wrong on those
				 * under 4 (test_layernorm_offset_seeds counts them) */
				ln_kernel(&s, dt, LN_SNIFF, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s one pass unless |x[0]| > 4",
					 shapes[si][1], probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, dist == 1 ? EITHER : MUST_PASS);
				ln_kernel(&s, dt, LN_NO_EPS, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s without eps", shapes[si][1],
					 probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, dist == 2 ? MUST_REJECT : EITHER);
				/* red team 95: statistics of part of a row, refused
				 * by `spikes` at any C */
				ln_kernel(&s, dt, LN_QUARTER, y);
				judge(&s, y, dt, &r);
				snprintf(what, sizeof(what), "layernorm C%lld %s %s statistics of a quarter row",
					 shapes[si][1], probs[LAYERNORM].desc->dists[dist], dtype_name(dt));
				measured(what, &r, dist == 3 ? MUST_REJECT : EITHER);
				free(y);
				inst_free(&s);
			}
	/* and at C 2^22, where the uncapped fp32 rule (2e-5 sqrt(C/256),
	 * 2.6e-3) passed them on every other distribution (red team 95's
	 * ln_lanes MODE 3: ok 31 of 31, promoted by eval): the capped rule
	 * (3.2e-4) refuses them on `uniform` too */
	long long wide[2] = { 2, 1LL << 22 };
	struct ev_tolerance t;
	problem_tolerance(&probs[LAYERNORM], EV_F32, wide, &t);
	assert_true(fabs(t.rel_l2 - 3.2e-4) < 1e-12);
	for (int dist = 0; dist < probs[LAYERNORM].desc->n_dists; dist++) {
		struct inst s;
		inst_make(&s, LAYERNORM, wide, dist, 5, EV_F32);
		float *y = malloc(s.out_n * sizeof(float));
		ln_kernel(&s, EV_F32, LN_QUARTER, y);
		judge(&s, y, EV_F32, &r);
		snprintf(what, sizeof(what), "layernorm C%lld %s fp32 statistics of a quarter row", wide[1],
			 probs[LAYERNORM].desc->dists[dist]);
		measured(what, &r, MUST_REJECT);
		free(y);
		inst_free(&s);
	}
}

/* The run at the head of a lead row (problems/layernorm.c ln_fill_lead):
 * its length when x[0] lies 40 sd or more from the mean of the row past
 * its first 16 elements (a run is at most 16 long), else 0. */
static long long ln_lead_run(const float *x, long long C)
{
	if (C <= 32)
		return 0;
	double m = 0, v = 0;
	for (long long c = 16; c < C; c++)
		m += x[c];
	m /= (double)(C - 16);
	for (long long c = 16; c < C; c++)
		v += (x[c] - m) * (x[c] - m);
	const double sd = sqrt(v / (double)(C - 16));
	long long n = 0;
	while (n < 16 && fabs(x[n] - m) > 40 * sd)
		n++;
	return n;
}

/* Red team 296 row 1: a one pass shifted by x[0] (README had called it
 * honest on every distribution) cancels by ((E[x] - x[0]) / sd)^2 where
 * x[0] is an outlier of its row, and no fill drew one there but `spikes`,
 * about 1 launch in 80 (lnshift.c SHIFT 1: ok 21 of 21 runs).  Half the
 * `uniform` launches now have 4..16 lead rows, runs of 1..min(16, C /
 * 1024) at 50..100 sd from the rest of the row: the shifted one pass is
 * refused on most of them, the honest two-pass on none, and the runs
 * are longer than one only where C / 1024 allows. */
static void test_layernorm_lead_rows(void **state)
{
	(void)state;
	const long long shapes[2][2] = { { 64, 768 }, { 4, 32768 } };
	const int n = 40;
	struct check_result r;
	for (int si = 0; si < 2; si++) {
		int leads = 0, shifted_refused = 0, longest = 0;
		float *y = NULL;
		for (int seed = 1; seed <= n; seed++) {
			struct inst s;
			inst_make(&s, LAYERNORM, shapes[si], 0, (uint64_t)seed * 104729, EV_F32);
			if (!y)
				y = malloc(s.out_n * sizeof(float));
			const long long R = shapes[si][0], C = shapes[si][1];
			int rows = 0;
			for (long long row = 0; row < R; row++) {
				long long run = ln_lead_run(s.in[0] + row * C, C);
				rows += run > 0;
				assert_true(run <= (C / 1024 > 1 ? C / 1024 : 1));
				if (run > longest)
					longest = (int)run;
			}
			assert_true(rows <= 16); /* 4..16 draws; two may land on one row */
			ln_kernel(&s, EV_F32, LN_TWO_PASS, y);
			judge(&s, y, EV_F32, &r);
			assert_true(r.pass);
			if (rows) {
				leads++;
				ln_kernel(&s, EV_F32, LN_SHIFTED, y);
				judge(&s, y, EV_F32, &r);
				shifted_refused += !r.pass;
			}
			inst_free(&s);
		}
		free(y);
		printf("measured: layernorm C%lld uniform over %d seeds: %d with lead rows (longest run %d), "
		       "one pass shifted by x[0] refused on %d of them, the two-pass on none\n",
		       shapes[si][1], n, leads, longest, shifted_refused);
		assert_true(leads >= n / 4 && leads <= 3 * n / 4);
		assert_true(shifted_refused >= leads * 3 / 4);
		assert_true(si == 0 ? longest == 1 : longest > 1);
	}
}

/* Red team 298 row 2: the lead runs sat at column 0 only, so the same
 * shifted one pass by x[C - 1] or x[C / 2] (lnlast.c) read ok 18 of 18
 * runs.  The launches with lead rows now put single outliers at secret
 * columns of every row (problems/layernorm.c ln_fill_scatter): a fixed
 * column is an outlier in some row of such a launch with chance about
 * R / 1024, and such a row is refused by the element rule.  The two-pass
 * and Welford kernels pass every distribution at these shapes. */
static void test_layernorm_scatter(void **state)
{
	(void)state;
	const long long shapes[3][2] = { { 256, 1024 }, { 1024, 1024 }, { 16, 16384 } };
	const int n = 24;
	struct check_result r;
	for (int si = 0; si < 3; si++) {
		const long long R = shapes[si][0], C = shapes[si][1];
		int scattered = 0, last_refused = 0, mid_refused = 0, honest_refused = 0, checks = 0;
		float *y = NULL;
		for (int seed = 1; seed <= n; seed++) {
			for (int dist = 0; dist < 4; dist++) {
				struct inst s;
				inst_make(&s, LAYERNORM, shapes[si], dist, (uint64_t)seed * 7919 + 3, EV_F32);
				if (!y)
					y = malloc(s.out_n * sizeof(float));
				ln_kernel(&s, EV_F32, LN_TWO_PASS, y);
				judge(&s, y, EV_F32, &r);
				honest_refused += !r.pass;
				ln_kernel(&s, EV_F32, LN_WELFORD, y);
				judge(&s, y, EV_F32, &r);
				honest_refused += !r.pass;
				checks += 2;
				/* a launch with scattered outliers: some row's
				 * largest |x| past 20 (U[-1, 1) elsewhere) */
				int has = 0;
				for (long long i = 0; dist == 0 && i < R * C && !has; i++)
					has = fabsf(s.in[0][i]) > 20;
				if (has) {
					scattered++;
					ln_kernel(&s, EV_F32, LN_SHIFT_LAST, y);
					judge(&s, y, EV_F32, &r);
					last_refused += !r.pass;
					ln_kernel(&s, EV_F32, LN_SHIFT_MID, y);
					judge(&s, y, EV_F32, &r);
					mid_refused += !r.pass;
				}
				inst_free(&s);
			}
		}
		free(y);
		printf("measured: layernorm R%lld C%lld: %d of %d uniform launches with scattered outliers; one pass "
		       "shifted by x[C-1] refused on %d of them, by x[C/2] on %d; two-pass and Welford refused %d of "
		       "%d checks over every distribution\n",
		       R, C, scattered, n, last_refused, mid_refused, honest_refused, checks);
		assert_int_equal(honest_refused, 0);
		assert_true(scattered >= n / 4 && scattered <= 3 * n / 4);
		/* about 1 - exp(-R n / C) of them: a tenth at least at R 256;
		 * at R 16 C 16384 R n / C is 1/64, the limit README states */
		if (R >= 256)
			assert_true(last_refused >= scattered / 10 && mid_refused >= scattered / 10);
	}
}

/* The fp32 rule over many `offset` launches, where an honest two-pass
 * kernel's error is largest (the mean's rounding error times mean/stdev):
 * it passes every one, and a one-pass variance fails most.  At the old
 * 1e-5 a simulation of 2000 launches refused about 1 in 1000 honest ones
 * (problems/layernorm.c); t0150 met one. */
static void test_layernorm_offset_seeds(void **state)
{
	(void)state;
	long long shapes[2][2] = { { 256, 768 }, { 256, 256 } };
	struct check_result r;
	for (int si = 0; si < 2; si++) {
		int onepass_refused = 0, sniff_refused = 0, ratio_refused = 0, n = 120;
		double worst = 0;
		float *y = NULL;
		for (int seed = 1; seed <= n; seed++) {
			struct inst s;
			inst_make(&s, LAYERNORM, shapes[si], 1, (uint64_t)seed * 7919, EV_F32);
			if (!y)
				y = malloc(s.out_n * sizeof(float));
			ln_kernel(&s, EV_F32, LN_TWO_PASS, y);
			judge(&s, y, EV_F32, &r);
			if (!r.pass)
				printf("layernorm C%lld offset seed %d: honest two-pass refused, max_err %.3g\n",
				       shapes[si][1], seed * 7919, r.max_abs_err);
			assert_true(r.pass);
			if (r.max_abs_err / r.ref_scale > worst)
				worst = r.max_abs_err / r.ref_scale;
			ln_kernel(&s, EV_F32, LN_ONE_PASS, y);
			judge(&s, y, EV_F32, &r);
			onepass_refused += !r.pass;
			ln_kernel(&s, EV_F32, LN_SNIFF, y);
			judge(&s, y, EV_F32, &r);
			sniff_refused += !r.pass;
			ln_kernel(&s, EV_F32, LN_RATIO, y);
			judge(&s, y, EV_F32, &r);
			ratio_refused += !r.pass;
			inst_free(&s);
		}
		free(y);
		printf("measured: layernorm C%lld offset fp32 over %d seeds: honest worst max_err/ref_scale %.2e; "
		       "one-pass refused %d of %d, one pass unless |x[0]| > 4 (red team 308 row 2) %d, unless mean / sd "
		       "> 13.5 (red team 310 row 1) %d\n",
		       shapes[si][1], n, worst, onepass_refused, n, sniff_refused, ratio_refused);
		assert_true(onepass_refused >= n * 3 / 4);
		/* offset rows at a scale of their own: most launches have one
		 * whose |x[0]| is under 4 (with w 1 the sniff passed them all) */
		assert_true(sniff_refused >= n / 2);
		/* mean / stdev 7..28: rows under 13.5 in about half the launches
		 * (at 14..28 alone the ratio gate passed them all) */
		assert_true(ratio_refused >= n / 5);
	}
}

/* Red team 286's two methods, simulated.  fixsum: each x rounded to a
 * multiple of 2^-20 (int32 lanes; an element past 2^11 saturates, as
 * cvtps2dq's 0x80000000 does).  headsum: the step 2^(e-18) from the
 * exponent e of the largest |x| among the row's first 16 (an element past
 * 2^(e+13) saturates).  The sum is in int64 (no lane wraps): the
 * simulation is kinder than the kernels. */
/* head 2: fix32 (red team 291): a 2^-32 step, the int64 sum wrapping as
 * the kernel's does (an element past 2^63 steps reads as INT64_MIN, as
 * llrint gives it) */
static void rowsum_fixed(const struct inst *s, int head, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		int e = 0;
		double q = ldexp(1.0, 20); /* fixsum's step */
		if (head) {
			float hm = 0;
			for (long long c = 0; c < 16 && c < C; c++)
				hm = fabsf(x[c]) > hm ? fabsf(x[c]) : hm;
			frexpf(hm, &e);
			q = ldexp(1.0, 18 - e);
		}
		long long tot = 0;
		if (head == 2) {
			uint64_t t = 0; /* wraps, as the kernel's int64 does */
			q = ldexp(1.0, 32);
			for (long long c = 0; c < C; c++) {
				double v = nearbyint((double)x[c] * q);
				t += fabs(v) >= 0x1p63 ? (uint64_t)INT64_MIN : (uint64_t)(long long)v;
			}
			memcpy(&tot, &t, sizeof(tot));
			y[r] = (float)((double)tot / q);
			continue;
		}
		for (long long c = 0; c < C; c++) {
			double v = nearbyint((double)x[c] * q);
			tot += fabs(v) >= 2147483648.0 ? INT32_MIN : (long long)v;
		}
		y[r] = (float)((double)tot / q);
	}
}

/* Red team 293's headfix (row 4), simulated: one int64 step for the whole
 * launch, 2^(e0 - head) from the exponent e0 of its first nonzero element
 * (head 36: 2^27 of headroom; 50: 2^13, the control), each x truncated to
 * a multiple of it (an x past 2^63 steps reads as INT64_MIN, as cvttsd2si
 * gives it) and each row's sum wrapping as the kernel's int64 lanes do */
static void rowsum_headfix(const struct inst *s, int head, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	long long i = 0;
	while (i < R * C && s->in[0][i] == 0.0f)
		i++;
	const int e0 = i < R * C ? ilogbf(s->in[0][i]) : 0;
	const double sc = ldexp(1.0, head - e0);
	for (long long r = 0; r < R; r++) {
		uint64_t t = 0;
		for (long long c = 0; c < C; c++) {
			double v = trunc((double)s->in[0][r * C + c] * sc);
			t += fabs(v) >= 0x1p63 ? (uint64_t)INT64_MIN : (uint64_t)(long long)v;
		}
		long long tot;
		memcpy(&tot, &t, sizeof(tot));
		y[r] = (float)((double)tot / sc);
	}
}

static void test_rowsum_rule(void **state)
{
	(void)state;
	/* (256 x 4096: t0339's shape, where two spikes of opposite signs in
	 * one row made the honest fp32 sum fail the elementwise rule, 1 of
	 * 16 timed checks under make test; one sign a launch since) */
	long long shapes[3][2] = { { 64, 1000 }, { 8, 65536 }, { 256, 4096 } };
	struct check_result r;
	char what[128];
	const int nd = probs[ROWSUM].desc->n_dists;
	assert_int_equal(nd, 5);
	for (int si = 0; si < 3; si++)
		for (int dist = 0; dist < nd; dist++)
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				struct inst s;
				/* the honest kernel over 16 seeds (16 draws of the
				 * secret scales, 2^-60 .. 2^0 in fp32 and bf16,
				 * 2^-14 .. 2^0 in fp16; since red team 293 one a row
				 * in three launches in four, rowsum_row_exp): every
				 * one passes; the worst rel_l2 is printed */
				struct check_result worst = { 0 };
				uint64_t wseed = 0;
				for (uint64_t seed = 1; seed <= (dist == 4 ? 64u : 16u); seed++) {
					inst_make(&s, ROWSUM, shapes[si], dist, seed, dt);
					float *y = malloc(s.out_n * sizeof(float));
					rowsum_kernel(&s, dt, EV_F32, y);
					judge(&s, y, dt, &r);
					if (!r.pass || !wseed || r.rel_l2 > worst.rel_l2) {
						worst = r;
						wseed = seed;
					}
					free(y);
					inst_free(&s);
					if (!r.pass)
						break;
				}
				snprintf(what, sizeof(what), "rowsum C%lld %s %s honest, worst of %d seeds (%d)",
					 shapes[si][1], probs[ROWSUM].desc->dists[dist], dtype_name(dt),
					 dist == 4 ? 64 : 16, (int)wseed);
				measured(what, &worst, MUST_PASS);
				inst_make(&s, ROWSUM, shapes[si], dist, 4, dt);
				float *y = malloc(s.out_n * sizeof(float));
				if (dt != EV_F32) {
					rowsum_kernel(&s, dt, dt, y);
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "rowsum C%lld %s %s accumulating in %s",
						 shapes[si][1], probs[ROWSUM].desc->dists[dist], dtype_name(dt),
						 dtype_name(dt));
					/* cancel catches it at any C, positive once the sum
					 * swamps the addends (large C) */
					int caught = dist == 1 || (dist == 2 && shapes[si][1] > 4096);
					measured(what, &r, caught ? MUST_REJECT : EITHER);
				}
				free(y);
				inst_free(&s);
			}

	/* red team 286: fixsum is refused on most seeds of every distribution
	 * (the scale), headsum on most of `padded` and every `spikes` seed
	 * that put a spike past a row's head */
	const long long sh[2] = { 256, 4096 };
	int fixed_refused[2][5];
	for (int head = 0; head < 2; head++)
		for (int dist = 0; dist < nd; dist++) {
			int refused = 0;
			for (uint64_t seed = 1; seed <= 16; seed++) {
				struct inst s;
				inst_make(&s, ROWSUM, sh, dist, seed, EV_F32);
				float *y = malloc(s.out_n * sizeof(float));
				rowsum_fixed(&s, head, y);
				judge(&s, y, EV_F32, &r);
				refused += !r.pass;
				free(y);
				inst_free(&s);
			}
			printf("measured: rowsum C4096 %s %s refused in %d of 16 seeds\n",
			       probs[ROWSUM].desc->dists[dist], head ? "headsum (step from the head)" : "fixsum (2^-20 step)",
			       refused);
			fixed_refused[head][dist] = refused;
		}
	/* fixsum: the scale catches it where the sum is small next to its
	 * step's error (uniform, padded: k <= -6), spikes past 2^11 where
	 * k >= -3; not on cancel and positive (no scale there).  A run
	 * checks every distribution and timed samples besides */
	assert_true(fixed_refused[0][0] >= 6 && fixed_refused[0][3] >= 6 && fixed_refused[0][4] >= 3);
	assert_true(fixed_refused[1][3] >= 8 && fixed_refused[1][4] >= 12);

	/* red team 291, row 1: fix32 (a 2^-32 step in int64) was exact over
	 * fp16's range [2^-14, 2^0], which the fill drew for every dtype.
	 * fp32's own range (rowsum_fill_dtype, [2^-60, 2^0]) refuses it on
	 * every k <= -18: about two thirds of the
	 * seeds of each scaled distribution; fp16's range still passes it
	 * (exact there, as fp16 inputs are) */
	for (int dist = 0; dist < nd; dist++) {
		if (dist == 1 || dist == 2)
			continue; /* not scaled */
		int refused = 0, refused16 = 0;
		for (uint64_t seed = 1; seed <= 64; seed++)
			for (int h = 0; h < 2; h++) {
				struct inst s;
				int dt = h ? EV_F16 : EV_F32;
				inst_make(&s, ROWSUM, sh, dist, seed, dt);
				float *y = malloc(s.out_n * sizeof(float));
				rowsum_fixed(&s, 2, y);
				if (h)
					for (size_t i = 0; i < s.out_n; i++)
						y[i] = rdt(y[i], EV_F16);
				judge(&s, y, dt, &r);
				*(h ? &refused16 : &refused) += !r.pass;
				free(y);
				inst_free(&s);
			}
		printf("measured: rowsum C4096 %s fix32 (2^-32 step) refused in %d of 64 fp32 seeds, %d of 64 fp16\n",
		       probs[ROWSUM].desc->dists[dist], refused, refused16);
		assert_true(refused >= 30);
	}

	/* red team 293, rows 4 and 4b: headfix took one int64 step for the
	 * whole launch from its first nonzero element, with 2^27 of headroom:
	 * exact on every seed while the fill drew one scale a launch (ok 12 of
	 * 12 runs, promoted 3 of 3).  One scale a row (rowsum_row_exp: three
	 * launches in four spread under a secret top block of 8 rows) wraps it
	 * wherever the first element's row lies ~2^21 or more under a row of
	 * the launch.  The control (2^13 of headroom) stays refused by
	 * `spikes`.  And the spread launches do spread: rows 2^20 and more
	 * apart in most of them, the top row at the sample's scale */
	int spread = 0;
	for (int dist = 0; dist < nd; dist++) {
		if (dist == 1 || dist == 2)
			continue; /* not scaled */
		int refused[2] = { 0, 0 };
		for (uint64_t seed = 1; seed <= 64; seed++) {
			struct inst s;
			inst_make(&s, ROWSUM, sh, dist, seed, EV_F32);
			float *y = malloc(s.out_n * sizeof(float));
			for (int h = 0; h < 2; h++) {
				rowsum_headfix(&s, h ? 50 : 36, y);
				judge(&s, y, EV_F32, &r);
				refused[h] += !r.pass;
			}
			if (dist == 0) {
				double lo = 1e30, hi = 0;
				for (long long row = 0; row < sh[0]; row++) {
					double m = 0;
					for (long long c = 0; c < sh[1]; c++)
						m = fabs(s.in[0][row * sh[1] + c]) > m ? fabs(s.in[0][row * sh[1] + c]) : m;
					lo = m < lo ? m : lo;
					hi = m > hi ? m : hi;
				}
				spread += hi / lo > 0x1p20;
			}
			free(y);
			inst_free(&s);
		}
		printf("measured: rowsum C4096 %s headfix (launch step, 2^27 headroom) refused in %d of 64 fp32 seeds, "
		       "2^13 headroom in %d\n",
		       probs[ROWSUM].desc->dists[dist], refused[0], refused[1]);
		assert_true(refused[0] >= 16);
		if (dist == 4)
			assert_true(refused[1] >= refused[0]);
	}
	printf("measured: rowsum C4096 uniform launches with rows 2^20 apart: %d of 64 fp32 seeds\n", spread);
	assert_true(spread >= 16);

	/* the ends of fp32's range: seeds whose scale is 2^-60 and 2^0 (the
	 * draw of rowsum_scale_exp, the launch's top row since red team 293,
	 * read back from the inputs); the honest
	 * fp32 and bf16 sums pass there at both shapes, finite */
	uint64_t ends[2] = { 0, 0 };
	for (uint64_t seed = 1; seed < 100000 && (!ends[0] || !ends[1]); seed++) {
		uint64_t sk = (seed ^ 0x7363616c65ULL) * 0x9e3779b97f4a7c15ULL + 13;
		int k = -60 + (int)(ev_splitmix64(&sk) % 61u);
		if (k == -60 && !ends[0])
			ends[0] = seed;
		if (k == 0 && !ends[1])
			ends[1] = seed;
	}
	assert_true(ends[0] && ends[1]);
	for (int e = 0; e < 2; e++)
		for (int si = 0; si < 3; si++)
			for (int dist = 0; dist < nd; dist++)
				for (int h = 0; h < 2; h++) {
					struct inst s;
					int dt = h ? EV_BF16 : EV_F32;
					inst_make(&s, ROWSUM, shapes[si], dist, ends[e], dt);
					double m = 0;
					for (size_t i = 0; i < (size_t)(shapes[si][0] * shapes[si][1]); i++)
						m = fabs(s.in[0][i]) > m ? fabs(s.in[0][i]) : m;
					if (dist == 0)
						assert_true(e ? m > 0.5 && m <= 1 : m > 0x1p-61 && m <= 0x1p-60);
					float *y = malloc(s.out_n * sizeof(float));
					rowsum_kernel(&s, dt, EV_F32, y);
					for (size_t i = 0; i < s.out_n; i++)
						assert_true(isfinite(y[i]));
					judge(&s, y, dt, &r);
					snprintf(what, sizeof(what), "rowsum C%lld %s %s honest at 2^%d",
						 shapes[si][1], probs[ROWSUM].desc->dists[dist], dtype_name(dt),
						 e ? 0 : -60);
					measured(what, &r, MUST_PASS);
					free(y);
					inst_free(&s);
				}
}

/* Honest row sums other than rowsum_kernel's sequential one, in float as
 * a CPU or GPU kernel adds: 1 pairwise (halves, recursively), 2 Kahan,
 * 3 fltsum's 16 lanes in blocks of 1024 added into a double (red team
 * 286's honest twin), 4 32 strided lanes then a tree (a warp's reduce);
 * the sum in fp32, rounded once to dtype */
static float rowsum_pairwise(const float *x, long long n)
{
	if (n <= 8) {
		float a = 0;
		for (long long i = 0; i < n; i++)
			a += x[i];
		return a;
	}
	return rowsum_pairwise(x, n / 2) + rowsum_pairwise(x + n / 2, n - n / 2);
}

static void rowsum_order(const struct inst *s, int dtype, int how, float *y)
{
	const long long R = s->shape[0], C = s->shape[1];
	for (long long r = 0; r < R; r++) {
		const float *x = s->in[0] + r * C;
		float v = 0;
		if (how == 1) {
			v = rowsum_pairwise(x, C);
		} else if (how == 2) {
			float c = 0;
			for (long long i = 0; i < C; i++) {
				float t = x[i] - c, u = v + t;
				c = (u - v) - t;
				v = u;
			}
		} else if (how == 3) {
			double tot = 0;
			long long c = 0;
			while (c + 16 <= C) {
				float a[16] = { 0 };
				long long end = c + 1024 < C ? c + 1024 : C;
				for (; c + 16 <= end; c += 16)
					for (int j = 0; j < 16; j++)
						a[j] += x[c + j];
				for (int j = 0; j < 16; j++)
					tot += a[j];
			}
			for (; c < C; c++)
				tot += x[c];
			v = (float)tot;
		} else {
			float a[32] = { 0 };
			for (long long i = 0; i < C; i++)
				a[i % 32] += x[i];
			for (int w = 16; w >= 1; w /= 2)
				for (int j = 0; j < w; j++)
					a[j] += a[j + w];
			v = a[0];
		}
		y[r] = rdt(v, dtype);
	}
}

/* Red team 293's skiprow.c, simulated: each row's scale read from 16
 * columns spread over it (c = j C / 16), the launch's top the largest;
 * a row whose scale is 2^skip or more under the top is written 0, the
 * others summed in fp32 in order */
static void rowsum_skiprow(const struct inst *s, int dtype, int skip, float *y, long long *skipped)
{
	const long long R = s->shape[0], C = s->shape[1];
	float top = 0;
	float *m = malloc((size_t)R * sizeof(float));
	for (long long r = 0; r < R; r++) {
		m[r] = 0;
		for (int j = 0; j < 16; j++)
			m[r] = fmaxf(m[r], fabsf(s->in[0][r * C + C * j / 16]));
		top = fmaxf(top, m[r]);
	}
	rowsum_kernel(s, dtype, EV_F32, y);
	*skipped = 0;
	for (long long r = 0; r < R; r++)
		if (m[r] < ldexpf(top, -skip)) {
			y[r] = 0;
			++*skipped;
		}
	free(m);
}

/* The rule alone (problem_check_output), as before rowsum had a focus */
static void judge_rule_only(const struct inst *s, const float *out, int dtype, struct check_result *r)
{
	struct ev_tolerance tol;
	void *raw = malloc(s->out_n * 8);
	problem_pack(out, raw, s->out_n, dtype);
	problem_tolerance(s->p, dtype, s->shape, &tol);
	problem_check_output(raw, NULL, dtype, s->ref[0], NULL, s->out_n, &tol, r);
	free(raw);
}

/*
 * Red team 293 rows 4 and 4b, after the fix: rowsum's rows at their own
 * scales (rowsum_row_exp) met a normwise rule, so a row 2^d under the
 * launch's top was allowed 2^d times its own error.  rowsum_focus judges
 * every row (R <= 4096; else 4096 drawn, half by binade) within rho |S| +
 * phi sum |x| of its own.  Honest sums in five orders pass every
 * distribution and dtype at C 1000, 4096, 65536 and R 8192 x C 64 over
 * 16 seeds at under half the bound; skiprow (rows 2^28 or more under the
 * top written 0) passed the rule alone on every seed and is refused
 * with the focus on every seed where it skipped a row; headfix wraps
 * rows the focus now judges at their own magnitude.
 */
static void test_rowsum_focus(void **state)
{
	(void)state;
	const long long shapes[4][2] = { { 64, 1000 }, { 8, 65536 }, { 256, 4096 }, { 8192, 64 } };
	const char *how[5] = { "sequential", "pairwise", "Kahan", "16 lanes", "32 lanes+tree" };
	const int nd = probs[ROWSUM].desc->n_dists;
	for (int si = 0; si < 4; si++)
		for (int dist = 0; dist < nd; dist++)
			for (size_t di = 0; di < ARRAY_SIZE(dtypes); di++) {
				int dt = dtypes[di];
				double worst[5] = { 0 };
				for (uint64_t seed = 1; seed <= 16; seed++) {
					struct inst s;
					inst_make(&s, ROWSUM, shapes[si], dist, seed * 7 + 3, dt);
					float *y = malloc(s.out_n * sizeof(float));
					void *raw = malloc(s.out_n * 8);
					for (int h = 0; h < 5; h++) {
						if (h == 0)
							rowsum_kernel(&s, dt, EV_F32, y);
						else
							rowsum_order(&s, dt, h, y);
						problem_pack(y, raw, s.out_n, dt);
						struct check_result r;
						memset(&r, 0, sizeof(r));
						r.first_mismatch = -1;
						r.pass = 1;
						double w;
						long long n, out = judge_focus(&s, raw, dt, seed, &r, &w, &n);
						assert_int_equal(n, shapes[si][0] < EV_FOCUS_MAX ? shapes[si][0] : EV_FOCUS_MAX);
						if (out)
							printf("rowsum focus %lldx%lld %s %s %s seed %d: %lld rows out (worst %.3g)\n",
							       shapes[si][0], shapes[si][1], probs[ROWSUM].desc->dists[dist],
							       dtype_name(dt), how[h], (int)seed, out, w);
						assert_int_equal(out, 0);
						worst[h] = w > worst[h] ? w : worst[h];
					}
					free(y);
					free(raw);
					inst_free(&s);
				}
				printf("measured: rowsum focus %lldx%lld %-8s %s honest worst error/bound over 16 seeds: "
				       "seq %.3f pairwise %.3f Kahan %.3f 16 lanes %.3f 32 lanes %.3f\n",
				       shapes[si][0], shapes[si][1], probs[ROWSUM].desc->dists[dist], dtype_name(dt),
				       worst[0], worst[1], worst[2], worst[3], worst[4]);
				for (int h = 0; h < 5; h++)
					assert_true(worst[h] <= 0.5);
			}

	/* the cheats, 64 seeds of each scaled distribution at t0355's shape
	 * (R 256 C 4096), fp32 and fp16: refused by the rule alone (as on
	 * e3335d440) and by the rule and the focus */
	const long long sh[2] = { 256, 4096 };
	for (int dist = 0; dist < nd; dist++) {
		if (dist == 1 || dist == 2)
			continue; /* one scale a launch: nothing under the top */
		for (int h = 0; h < 2; h++) {
			int dt = h ? EV_F16 : EV_F32;
			int skip = h ? 11 : 28; /* skiprow.c's SKIP; fp16's range is 2^14 */
			int rule[2] = { 0, 0 }, both[2] = { 0, 0 }, skipping = 0;
			for (uint64_t seed = 1; seed <= 64; seed++) {
				struct inst s;
				inst_make(&s, ROWSUM, sh, dist, seed, dt);
				float *y = malloc(s.out_n * sizeof(float));
				struct check_result r;
				long long skipped;
				rowsum_skiprow(&s, dt, skip, y, &skipped);
				skipping += skipped > 0;
				judge_rule_only(&s, y, dt, &r);
				rule[0] += !r.pass;
				judge(&s, y, dt, &r);
				both[0] += !r.pass;
				if (skipped > 0 && r.pass)
					printf("rowsum skiprow %s %s seed %d: %lld rows skipped, passed\n",
					       probs[ROWSUM].desc->dists[dist], dtype_name(dt), (int)seed, skipped);
				/* every launch where it skipped a row is refused */
				if (skipped > 0)
					assert_false(r.pass);
				if (!h) {
					rowsum_headfix(&s, 36, y);
					judge_rule_only(&s, y, dt, &r);
					rule[1] += !r.pass;
					judge(&s, y, dt, &r);
					both[1] += !r.pass;
				}
				free(y);
				inst_free(&s);
			}
			printf("measured: rowsum C4096 %s %s skiprow (rows 2^%d under the top written 0) skipped rows in "
			       "%d of 64 seeds, refused by the rule alone in %d, with the focus in %d\n",
			       probs[ROWSUM].desc->dists[dist], dtype_name(dt), skip, skipping, rule[0], both[0]);
			if (!h)
				printf("measured: rowsum C4096 %s fp32 headfix refused by the rule alone in %d of 64 seeds, "
				       "with the focus in %d\n",
				       probs[ROWSUM].desc->dists[dist], rule[1], both[1]);
			assert_true(skipping >= 16);
			assert_true(both[0] >= skipping);
			if (!h)
				assert_true(both[1] >= rule[1]);
		}
	}
}

/* x rounded to nearest at bits significant bits (a less precise unit) */
static float round_bits(float x, int bits)
{
	if (x == 0 || !isfinite(x))
		return x;
	int e;
	double m = frexp((double)x, &e);
	return (float)ldexp(nearbyint(ldexp(m, bits)), e - bits);
}

/*
 * One or two rows: the rule's scales are those rows' own sums, which
 * cancel, so the honest sequential fp32 sum was refused on 2 of 80
 * `uniform` seeds at R 1 C 1013 (its error over 1e-5 of a near-zero sum;
 * 16 of 2000 seeds of the five distributions).  Since, a row at R 1 or 2
 * whose sum is under a quarter of its L2 norm has its negative terms
 * halved (rowsum_few_rows_uncancel).  Honest: every seed of every
 * distribution passes at R 1, 2 and 7; wrong (an fp32 sum that drops the
 * last 8 terms of a row, a bf16 accumulator): refused at R 1 as at R 8.
 */
static void test_rowsum_few_rows(void **state)
{
	(void)state;
	const int nd = probs[ROWSUM].desc->n_dists;
	const long long shapes[4][2] = { { 1, 1013 }, { 2, 1013 }, { 7, 3001 }, { 1, 65535 } };
	for (int si = 0; si < 4; si++) {
		int seeds = shapes[si][1] > 4096 ? 100 : 400, refused = 0;
		for (int dist = 0; dist < nd; dist++)
			for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
				struct inst s;
				struct check_result r;
				inst_make(&s, ROWSUM, shapes[si], dist, seed, EV_F32);
				float *y = malloc(s.out_n * sizeof(float));
				rowsum_kernel(&s, EV_F32, EV_F32, y);
				judge(&s, y, EV_F32, &r);
				if (!r.pass)
					printf("rowsum R%lld C%lld %s seed %d: honest refused (rel L2 %.3g)\n", shapes[si][0],
					       shapes[si][1], probs[ROWSUM].desc->dists[dist], (int)seed, r.rel_l2);
				refused += !r.pass;
				free(y);
				inst_free(&s);
			}
		printf("measured: rowsum R%lld C%lld honest fp32 refused on %d of %d seeds\n", shapes[si][0],
		       shapes[si][1], refused, seeds * nd);
		assert_int_equal(refused, 0);
	}
	/* wrong at R 1: the focus refuses them, the loosened rule or not */
	const long long one[2] = { 1, 4096 };
	int dropped = 0, bf16 = 0;
	for (uint64_t seed = 1; seed <= 64; seed++) {
		struct inst s;
		struct check_result r;
		inst_make(&s, ROWSUM, one, 0, seed, EV_F32);
		float *y = malloc(s.out_n * sizeof(float));
		float acc = 0;
		for (long long c = 0; c < one[1] - 8; c++)
			acc += s.in[0][c];
		y[0] = acc;
		judge(&s, y, EV_F32, &r);
		dropped += !r.pass;
		rowsum_kernel(&s, EV_F32, EV_BF16, y);
		judge(&s, y, EV_F32, &r);
		bf16 += !r.pass;
		free(y);
		inst_free(&s);
	}
	printf("measured: rowsum R1 C4096 uniform fp32: a sum dropping 8 terms refused on %d of 64 seeds, "
	       "a bf16 accumulator on %d of 64\n",
	       dropped, bf16);
	assert_true(dropped >= 60);
	assert_true(bf16 >= 60);

	/* red team 300 row 2 (lowbits.c: inputs rounded to 10 bits on rows of
	 * 2^18 or more, ok 6 of 6 at R 1 while the rule was 1000x looser there
	 * and phi 1e-5) and red team 299 row 2 (partial sums rounded to 19
	 * bits): at R 1, by the rule and the focus's phi of the mixed-sign
	 * distributions (2e-7); the same sums in fp32 pass (above) */
	const long long wide[2] = { 1, 65536 };
	int low10[3] = { 0, 0, 0 }, part19[3] = { 0, 0, 0 };
	const int mixed[3] = { 0, 3, 4 };
	for (int m = 0; m < 3; m++)
		for (uint64_t seed = 1; seed <= 16; seed++) {
			struct inst s;
			struct check_result r;
			inst_make(&s, ROWSUM, wide, mixed[m], seed, EV_F32);
			float y[1];
			float lane[8] = { 0 };
			for (long long c = 0; c < wide[1]; c++)
				lane[c % 8] += round_bits(s.in[0][c], 10);
			y[0] = 0;
			for (int k = 0; k < 8; k++)
				y[0] += lane[k];
			judge(&s, y, EV_F32, &r);
			low10[m] += !r.pass;
			float acc = 0;
			for (long long c = 0; c < wide[1]; c++)
				acc = round_bits(acc + s.in[0][c], 19);
			y[0] = acc;
			judge(&s, y, EV_F32, &r);
			part19[m] += !r.pass;
			inst_free(&s);
		}
	printf("measured: rowsum R1 C65536 fp32 inputs rounded to 10 bits (red team 300's lowbits) refused on %d, %d, "
	       "%d of 16 seeds of uniform, padded, spikes; 19-bit partial sums (red team 299 row 2) on %d, %d, %d\n",
	       low10[0], low10[1], low10[2], part19[0], part19[1], part19[2]);
	/* (with the rule 1000x looser and phi 1e-5 the README of red team 300
	 * measured lowbits refused at R 1 C 65536 on 0, 0 and 7 of 16) */
	assert_true(low10[0] >= 10);
	assert_true(low10[1] >= 8);
	assert_true(part19[0] + part19[1] + part19[2] >= 8);
}

/* ---- loading ------------------------------------------------------------- */

static int json_has_source(json_t *build, const char *path)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(build, "sources"), i, v)
	{
		const char *pp = json_string_value(json_object_get(v, "path"));
		if (pp && strstr(pp, path) && strlen(json_string_value(json_object_get(v, "sha256"))) == 64)
			return 1;
	}
	return 0;
}

static void test_all_load(void **state)
{
	(void)state;
	const int nin[NPROB] = { 3, 2, 1, 3, 1 };
	for (int i = 0; i < NPROB; i++) {
		struct problem *p = &probs[i];
		char want[64];
		assert_string_equal(p->desc->name, names[i]);
		assert_int_equal(p->n_inputs, nin[i]);
		assert_int_equal(p->n_outputs, 1);
		snprintf(want, sizeof(want), "problems/%s.c", names[i]);
		assert_string_equal(p->source_path, want);
		assert_true(path_exists(p->so_path));
		/* provenance: the source and every local header, hashed */
		assert_true(json_has_source(p->build, want));
		assert_true(json_has_source(p->build, "problems/evident_problem.h"));
		assert_true(json_has_source(p->build, "kernels/evident_kernel.h"));
		assert_int_equal(strlen(json_string_value(json_object_get(p->build, "binary_sha256"))), 64);
		assert_int_equal(strlen(json_string_value(json_object_get(p->build, "build_key"))), 64);
		assert_string_equal(json_string_value(json_object_get(p->build, "path")), want);
		snprintf(want, sizeof(want), "problems/%s.cu", names[i]);
		assert_non_null(p->gpu_source);
		assert_string_equal(p->gpu_source, want);
		assert_null(p->gpu_so_path);
	}
	/* a second load of an unchanged source is a cache hit: no compiler */
	struct problem again = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(problem_load("gemm", cache_dir(), &again, &why), 0);
	assert_true(json_is_true(json_object_get(again.build, "cached")));
	assert_string_equal(again.so_path, probs[GEMM].so_path);
	problem_release(&again);
	problem_release(&again); /* release is idempotent */
	strbuf_release(&why);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void copy_text(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(from, &sb), 0);
	write_text(to, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* A scratch repository with the two ABI headers; caller frees the path. */
static char *scratch_repo(void)
{
	char tmpl[] = "/tmp/evident-problems-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *root = strdup(tmpl), *d = xstrfmt("%s/problems", root), *k = xstrfmt("%s/kernels", root);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(mkdir_p(k, 0755), 0);
	char *ph = xstrfmt("%s/evident_problem.h", d), *kh = xstrfmt("%s/evident_kernel.h", k);
	copy_text("problems/evident_problem.h", ph);
	copy_text("kernels/evident_kernel.h", kh);
	free(ph);
	ph = xstrfmt("%s/evident_fill_dtype.h", d); /* rowsum.c's (red team 291) */
	copy_text("problems/evident_fill_dtype.h", ph);
	free(ph);
	ph = xstrfmt("%s/evident_focus.h", d); /* rowsum.c's (red team 293) */
	copy_text("problems/evident_focus.h", ph);
	free(ph);
	free(kh);
	free(d);
	free(k);
	return root;
}

static void rm_rf(const char *dir)
{
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void expect_load_error(const char *root, const char *name, const char *cache, const char *want)
{
	struct problem p = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = problem_load_at(root, name, cache, &p, &why);
	util_quiet = saved;
	if (rc == 0 || !strstr(strbuf_str(&why), want))
		fprintf(stderr, "loading '%s': rc %d, why '%s', expected '%s'\n", name, rc, strbuf_str(&why), want);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(strbuf_str(&why), want));
	assert_null(p.desc);
	assert_null(p.handle);
	strbuf_release(&why);
}

static void test_load_errors(void **state)
{
	(void)state;
	char *root = scratch_repo(), *cache = xstrfmt("%s/cache", root), *f;

	expect_load_error(root, "nothere", cache, "unknown problem 'nothere'");
	expect_load_error(root, "../etc/passwd", cache, "is not a problem name");
	expect_load_error(root, "", cache, "is not a problem name");

	f = xstrfmt("%s/problems/broken.c", root);
	write_text(f, "#include \"evident_problem.h\"\nint broken = ;\n");
	free(f);
	expect_load_error(root, "broken", cache, "problem 'broken' does not compile: ");

	f = xstrfmt("%s/problems/nosym.c", root);
	write_text(f, "#include \"evident_problem.h\"\nint nosym_unused(void) { return 1; }\n");
	free(f);
	expect_load_error(root, "nosym", cache, "does not export evident_problem()");

	/* a valid problem under another file name */
	f = xstrfmt("%s/problems/renamed.c", root);
	copy_text("problems/rowsum.c", f);
	free(f);
	expect_load_error(root, "renamed", cache, "describes itself as 'rowsum'");

	/* the same source under its own name loads from the scratch root */
	f = xstrfmt("%s/problems/rowsum.c", root);
	copy_text("problems/rowsum.c", f);
	free(f);
	struct problem p = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(problem_load_at(root, "rowsum", cache, &p, &why), 0);
	assert_null(p.gpu_source); /* no rowsum.cu in the scratch root */
	problem_release(&p);
	strbuf_release(&why);

	/* a misspelt name gets the nearest problem there is, as a misspelt
	 * spec key gets its key; a name near none gets the list */
	expect_load_error(root, "rowsun", cache,
			  "unknown problem 'rowsun' (did you mean 'rowsum'?): there is no '");
	expect_load_error(root, "Rowsum", cache, "(did you mean 'rowsum'?)");
	expect_load_error(root, "attention_fwd", cache,
			  "unknown problem 'attention_fwd' (known: broken, nosym, renamed, rowsum): there is no '");
	rm_rf(root);
	free(cache);
	free(root);
}

static void expect_invalid(const struct ev_problem_desc *d, const char *want)
{
	struct strbuf why = STRBUF_INIT;
	int rc = problem_validate_desc(d, "rowsum", &why);
	if (rc == 0 || !strstr(strbuf_str(&why), want))
		fprintf(stderr, "validate: rc %d, why '%s', expected '%s'\n", rc, strbuf_str(&why), want);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(strbuf_str(&why), want));
	strbuf_release(&why);
}

static void test_validate_desc(void **state)
{
	(void)state;
	const struct ev_problem_desc *good = probs[ROWSUM].desc;
	struct ev_problem_desc d;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(problem_validate_desc(good, "rowsum", &why), 0);
	for (int i = 0; i < NPROB; i++)
		assert_int_equal(problem_validate_desc(probs[i].desc, names[i], &why), 0);
	strbuf_release(&why);

	expect_invalid(NULL, "returned NULL");
#define MUTATE(stmt, want)               \
	do {                             \
		d = *good;               \
		stmt;                    \
		expect_invalid(&d, want); \
	} while (0)
	MUTATE(d.abi_version = 2, "problem ABI version 2");
	MUTATE(d.struct_size = 16, "struct_size 16");
	MUTATE(d.name = "other", "describes itself as 'other'");
	MUTATE(d.summary = "", "has no summary");
	MUTATE(d.n_keys = 0, "has 0 shape keys");
	MUTATE(d.shape_keys[1] = "R", "shape key 'R' appears twice");
	MUTATE(d.shape_keys[0] = "a b", "is not an identifier");
	MUTATE(d.tensors[0].dims[1] = 2, "dims[1] = 2 is not a shape key index");
	MUTATE(d.tensors[0].ndim = 5, "ndim 5");
	MUTATE((d.tensors[0] = good->tensors[1], d.tensors[1] = good->tensors[0]),
	       "input 'X' comes after an output");
	MUTATE(d.tensors[1].name = "X", "tensor name 'X' appears twice");
	MUTATE((d.n_tensors = 6, d.tensors[1] = (struct ev_problem_tensor){ "b", 0, 1, { 0 } },
		d.tensors[2] = (struct ev_problem_tensor){ "c", 0, 1, { 0 } },
		d.tensors[3] = (struct ev_problem_tensor){ "d", 0, 1, { 0 } },
		d.tensors[4] = (struct ev_problem_tensor){ "e", 0, 1, { 0 } },
		d.tensors[5] = good->tensors[1]),
	       "has 5 inputs");
	MUTATE(d.tensors[1].is_output = 0, "has 0 outputs");
	MUTATE(d.n_dists = 0, "has 0 distributions");
	MUTATE(d.dists[1] = "two words", "is not one word");
	MUTATE(d.dists[2] = "uniform", "distribution 'uniform' appears twice");
	MUTATE(d.dist_docs[0] = NULL, "has no dist_docs line");
	MUTATE(d.scalar_doc = "eps", "scalar and scalar_doc");
	MUTATE(d.fill = NULL, "has no fill() function");
	MUTATE(d.reference = NULL, "has no reference() function");
	MUTATE(d.small_shape = NULL, "has no small_shape() function");
#undef MUTATE
}

static void expect_shape_error(int prob, const char *const *keys, const long long *vals, size_t n,
			       const char *want)
{
	long long shape[EV_PROBLEM_MAX_KEYS];
	struct strbuf why = STRBUF_INIT;
	int rc = problem_shape_from_keys(&probs[prob], keys, vals, n, shape, &why);
	if (rc == 0 || strcmp(strbuf_str(&why), want))
		fprintf(stderr, "shape: rc %d, why '%s', expected '%s'\n", rc, strbuf_str(&why), want);
	assert_int_equal(rc, -1);
	assert_string_equal(strbuf_str(&why), want);
	strbuf_release(&why);
}

static void test_shape_from_keys(void **state)
{
	(void)state;
	long long shape[EV_PROBLEM_MAX_KEYS];
	struct strbuf why = STRBUF_INIT;
	const char *k1[] = { "K", "M", "N" };
	const long long v1[] = { 64, 32, 16 };
	assert_int_equal(problem_shape_from_keys(&probs[GEMM], k1, v1, 3, shape, &why), 0);
	assert_int_equal(shape[0], 32); /* M N K order */
	assert_int_equal(shape[1], 16);
	assert_int_equal(shape[2], 64);
	strbuf_release(&why);

	const char *k2[] = { "M", "N", "k" };
	expect_shape_error(GEMM, k2, v1, 3,
			   "unknown shape key 'k' for problem 'gemm' (did you mean 'K'?); its keys are M N K");
	const char *k3[] = { "M", "N", "Q" };
	expect_shape_error(GEMM, k3, v1, 3, "unknown shape key 'Q' for problem 'gemm'; its keys are M N K");
	const char *k4[] = { "M", "N" };
	expect_shape_error(GEMM, k4, v1, 2, "missing shape key 'K' for problem 'gemm' (its keys are M N K)");
	const char *k5[] = { "M", "N", "M" };
	expect_shape_error(GEMM, k5, v1, 3, "shape key 'M' given twice");
	const long long v0[] = { 64, 0, 16 };
	expect_shape_error(GEMM, k1, v0, 3, "shape key 'M' = 0: every dimension must be at least 1");
	const char *ka[] = { "B", "H", "S", "D" };
	const long long big[] = { 1LL << 20, 1LL << 20, 1LL << 20, 64 };
	expect_shape_error(ATTN, ka, big, 4,
			   "tensor 'Q' of problem 'attention_fwd' would hold more than 2^40 elements");
	const char *kl[] = { "R", "Cols" };
	const long long vl[] = { 4, 4 };
	expect_shape_error(LAYERNORM, kl, vl, 2,
			   "unknown shape key 'Cols' for problem 'layernorm'; its keys are R C");
}
/* ---- references against brute force ------------------------------------ */

static long double lse(const long double *x, long long n)
{
	long double m = x[0], s = 0;
	for (long long i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	for (long long i = 0; i < n; i++)
		s += expl(x[i] - m);
	return m + logl(s);
}

/* Pairwise sum, a different order from the problems' loops. */
static long double psum(const float *x, long long n, long long stride)
{
	if (n == 1)
		return x[0];
	long long h = n / 2;
	return psum(x, h, stride) + psum(x + h * stride, n - h, stride);
}

static void brute(int prob, const long long *sh, float *const *in, double *out)
{
	if (prob == ATTN) {
		const long long S = sh[2], D = sh[3], BH = sh[0] * sh[1];
		const long double scale = 1.0L / sqrtl((long double)D);
		long double *sc = malloc((size_t)S * sizeof(long double));
		for (long long bh = 0; bh < BH; bh++)
			for (long long i = 0; i < S; i++) {
				for (long long j = S - 1; j >= 0; j--) {
					long double a = 0;
					for (long long d = D - 1; d >= 0; d--)
						a += (long double)in[0][(bh * S + i) * D + d] * in[1][(bh * S + j) * D + d];
					sc[j] = a * scale;
				}
				long double z = lse(sc, S);
				for (long long d = 0; d < D; d++) {
					long double a = 0;
					for (long long j = 0; j < S; j++)
						a += expl(sc[j] - z) * in[2][(bh * S + j) * D + d];
					out[(bh * S + i) * D + d] = (double)a;
				}
			}
		free(sc);
	} else if (prob == GEMM) {
		const long long M = sh[0], N = sh[1], K = sh[2];
		for (long long j = 0; j < N; j++)
			for (long long i = 0; i < M; i++) {
				long double a = 0;
				for (long long k = K - 1; k >= 0; k--)
					a += (long double)in[0][i * K + k] * in[1][k * N + j];
				out[i * N + j] = (double)a;
			}
	} else if (prob == SOFTMAX) {
		const long long R = sh[0], C = sh[1];
		long double *x = malloc((size_t)C * sizeof(long double));
		for (long long r = 0; r < R; r++) {
			for (long long c = 0; c < C; c++)
				x[c] = in[0][r * C + c];
			long double z = lse(x, C);
			for (long long c = 0; c < C; c++)
				out[r * C + c] = (double)expl(x[c] - z);
		}
		free(x);
	} else if (prob == LAYERNORM) {
		const long long R = sh[0], C = sh[1];
		for (long long r = 0; r < R; r++) { /* Welford */
			long double mean = 0, m2 = 0;
			for (long long c = 0; c < C; c++) {
				long double x = in[0][r * C + c], dl = x - mean;
				mean += dl / (long double)(c + 1);
				m2 += dl * (x - mean);
			}
			long double rstd = 1.0L / sqrtl(m2 / (long double)C + 1e-5L);
			for (long long c = 0; c < C; c++)
				out[r * C + c] = (double)(((long double)in[0][r * C + c] - mean) * rstd * in[1][c] + in[2][c]);
		}
	} else {
		const long long R = sh[0], C = sh[1];
		for (long long r = 0; r < R; r++)
			out[r] = (double)psum(in[0] + r * C, C, 1);
	}
}

static const long long tiny[NPROB][4] = {
	{ 2, 2, 7, 5 }, { 5, 7, 9 }, { 3, 11 }, { 3, 13 }, { 3, 17 },
};

static void test_reference_bruteforce(void **state)
{
	(void)state;
	for (int pi = 0; pi < NPROB; pi++)
		for (int dist = 0; dist < probs[pi].desc->n_dists; dist++)
			for (int dt = EV_F32; dt <= EV_BF16; dt++) {
				struct inst s;
				inst_make(&s, pi, tiny[pi], dist, 100 + (uint64_t)dist, dt);
				double *b = malloc(s.out_n * sizeof(double)), scale = 0;
				brute(pi, s.shape, s.in, b);
				for (size_t i = 0; i < s.out_n; i++)
					scale = fmax(scale, fabs(b[i]));
				for (size_t i = 0; i < s.out_n; i++) {
					double e = fabs(s.ref[0][i] - b[i]);
					if (e > 1e-11 * scale)
						fprintf(stderr, "%s %s %s [%zu]: reference %.17g, brute force %.17g\n",
							names[pi], probs[pi].desc->dists[dist], dtype_name(dt), i,
							s.ref[0][i], b[i]);
					assert_true(e <= 1e-11 * scale);
				}
				free(b);
				inst_free(&s);
			}
}

/* ---- inputs -------------------------------------------------------------- */

/* gemm's `cancel` is `uniform` itself, seed for seed: a kernel that
 * recovers its inputs' seed from their values (SplitMix64 runs backwards:
 * red team 20's dist_oracle) learns nothing of which it was given.  Fails
 * on a stream of its own (red team 19's first version). */
static void test_gemm_cancel_is_uniform(void **state)
{
	(void)state;
	struct problem *p = &probs[GEMM];
	for (uint64_t seed = 1; seed < 200; seed += 37) {
		float **a = problem_inputs_new(p, tiny[GEMM]), **b = problem_inputs_new(p, tiny[GEMM]);
		assert_int_equal(problem_fill_rounded(p, tiny[GEMM], 0, seed, EV_F32, a), 0);
		assert_int_equal(problem_fill_rounded(p, tiny[GEMM], 2, seed, EV_F32, b), 0);
		for (int t = 0; t < p->n_inputs; t++)
			assert_memory_equal(a[t], b[t], problem_tensor_numel(p, t, tiny[GEMM]) * sizeof(float));
		problem_buffers_free(a, p->n_inputs);
		problem_buffers_free(b, p->n_inputs);
	}
}

static void test_fill_deterministic(void **state)
{
	(void)state;
	for (int pi = 0; pi < NPROB; pi++) {
		struct problem *p = &probs[pi];
		for (int dist = 0; dist < p->desc->n_dists; dist++) {
			float **a = problem_inputs_new(p, tiny[pi]), **b = problem_inputs_new(p, tiny[pi]);
			assert_int_equal(problem_fill_rounded(p, tiny[pi], dist, 7, EV_F32, a), 0);
			assert_int_equal(problem_fill_rounded(p, tiny[pi], dist, 7, EV_F32, b), 0);
			int differs = 0;
			for (int t = 0; t < p->n_inputs; t++) {
				size_t n = problem_tensor_numel(p, t, tiny[pi]);
				assert_memory_equal(a[t], b[t], n * sizeof(float));
				/* no exact zeros (evident_problem.h), but where a
				 * distribution's point is them: rowsum's `padded`
				 * (red team 286), at most half a row */
				int zeros_ok = pi == ROWSUM && !strcmp(p->desc->dists[dist], "padded");
				size_t zeros = 0;
				for (size_t i = 0; i < n; i++) {
					assert_true(isfinite(a[t][i]));
					zeros += a[t][i] == 0.0f;
				}
				assert_true(zeros_ok ? zeros <= n / 2 : zeros == 0);
			}
			assert_int_equal(problem_fill_rounded(p, tiny[pi], dist, 8, EV_F32, b), 0);
			for (int t = 0; t < p->n_inputs; t++)
				differs |= memcmp(a[t], b[t], problem_tensor_numel(p, t, tiny[pi]) * sizeof(float)) != 0;
			assert_true(differs);
			/* rounded to fp16: every value is an fp16 value */
			assert_int_equal(problem_fill_rounded(p, tiny[pi], dist, 7, EV_F16, b), 0);
			for (int t = 0; t < p->n_inputs; t++)
				for (size_t i = 0; i < problem_tensor_numel(p, t, tiny[pi]); i++)
					assert_true(r16(b[t][i]) == b[t][i]);
			problem_buffers_free(a, p->n_inputs);
			problem_buffers_free(b, p->n_inputs);
		}
		/* distributions differ from each other */
		float **a = problem_inputs_new(p, tiny[pi]), **b = problem_inputs_new(p, tiny[pi]);
		assert_int_equal(problem_fill_rounded(p, tiny[pi], 0, 7, EV_F32, a), 0);
		assert_int_equal(problem_fill_rounded(p, tiny[pi], 1, 7, EV_F32, b), 0);
		int differs = 0;
		for (int t = 0; t < p->n_inputs; t++)
			differs |= memcmp(a[t], b[t], problem_tensor_numel(p, t, tiny[pi]) * sizeof(float)) != 0;
		assert_true(differs);
		/* bad arguments are refused */
		int saved = util_quiet;
		util_quiet = 1;
		assert_int_equal(problem_fill_rounded(p, tiny[pi], p->desc->n_dists, 7, EV_F32, a), -1);
		assert_int_equal(problem_fill_rounded(p, tiny[pi], -1, 7, EV_F32, a), -1);
		assert_int_equal(problem_fill_rounded(p, tiny[pi], 0, 7, 99, a), -1);
		util_quiet = saved;
		problem_buffers_free(a, p->n_inputs);
		problem_buffers_free(b, p->n_inputs);
	}
	/* the seed -> distribution rule, and names */
	assert_int_equal(problem_dist_for_seed(&probs[ATTN], 0), 0);
	assert_int_equal(problem_dist_for_seed(&probs[ATTN], 5), 1);
	assert_int_equal(problem_dist_for_seed(&probs[GEMM], 5), 2);
	assert_int_equal(problem_dist_index(&probs[ATTN], "large_scores"), 2);
	assert_int_equal(problem_dist_index(&probs[ATTN], "nope"), -1);
}

static double fmax_abs(const float *x, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(x[i]));
	return m;
}

static void test_attention_distributions(void **state)
{
	(void)state;
	const long long sh[4] = { 1, 2, 256, 64 };
	const long long S = sh[2], D = sh[3];
	const size_t n = (size_t)(sh[0] * sh[1] * S * D);
	for (int dist = 0; dist < 4; dist++) {
		struct inst s;
		inst_make(&s, ATTN, sh, dist, 21, EV_F16);
		double max_score = 0;
		long long rows = 0, peaked_rows = 0;
		double *p = malloc((size_t)S * sizeof(double));
		for (long long bh = 0; bh < sh[0] * sh[1]; bh++)
			for (long long i = 0; i < S; i++) {
				double m = -INFINITY, z = 0, top = 0;
				for (long long j = 0; j < S; j++) {
					double a = 0;
					for (long long d = 0; d < D; d++)
						a += (double)s.in[0][(bh * S + i) * D + d] * s.in[1][(bh * S + j) * D + d];
					p[j] = a * s.scalar;
					max_score = fmax(max_score, fabs(p[j]));
					m = fmax(m, p[j]);
				}
				for (long long j = 0; j < S; j++)
					z += exp(p[j] - m);
				top = 1.0 / z; /* weight of the row's largest score */
				rows++;
				peaked_rows += top > 0.9;
			}
		free(p);
		double mq = fmax_abs(s.in[0], n), mk = fmax_abs(s.in[1], n), mv = fmax_abs(s.in[2], n);
		printf("measured: attention %s: max |scale q.k| %.1f, rows with top weight > 0.9: %lld/%lld, "
		       "max |Q| %.3g |K| %.3g |V| %.3g\n",
		       probs[ATTN].desc->dists[dist], max_score, peaked_rows, rows, mq, mk, mv);
		assert_true(mq <= 1000 && mk <= 1000 && mv <= 1000); /* inside fp16 */
		if (dist == 0) {
			assert_true(mq <= 1 && mk <= 1 && mv <= 1);
			assert_true(peaked_rows < rows / 10);
		} else if (dist == 1) {
			assert_true(peaked_rows >= rows * 95 / 100);
		} else if (dist == 2) {
			assert_true(max_score > 100 && max_score < 300);
			assert_true(mq <= 10 && mk <= 10);
		} else {
			assert_true(mv > 90 && mv <= 100 && mq <= 1);
		}
		inst_free(&s);
	}
}

static void test_other_distributions(void **state)
{
	(void)state;
	struct inst s;
	/* gemm large: A reaches 100, C stays inside fp16 */
	const long long g[3] = { 32, 32, 512 };
	inst_make(&s, GEMM, g, 1, 2, EV_F16);
	double mc = 0;
	for (size_t i = 0; i < s.out_n; i++)
		mc = fmax(mc, fabs(s.ref[0][i]));
	assert_true(fmax_abs(s.in[0], 32 * 512) > 90);
	assert_true(fmax_abs(s.in[1], 512 * 32) <= 120.0 / sqrt(512.0));
	assert_true(mc > 1000 && mc < 65504);
	inst_free(&s);
	/* gemm cancel (red team 19): drawn as uniform, so nothing in the
	 * inputs tells it apart - every value in [-1, 1), no row of B minus
	 * another at K/2 (red team 13's sniff), uniform's mean and spread
	 * at each row's scale -
	 * and its focus: about 1024 entries of C, their values the
	 * reference's, each bound rho |C| + phi T; some entries cancel (small
	 * against their terms), most do not */
	inst_make(&s, GEMM, g, 2, 2, EV_F16);
	int negated = 1, scaled = 0;
	for (long long i = 0; i < 32; i++) {
		/* uniform's mean and spread in every row, at the row's scale
		 * (red team 297: a power of two a row, gemm_fill_octaves) */
		const double r = exp2(ceil(log2(fmax_abs(s.in[0] + i * 512, 512))));
		double sum = 0, sq = 0;
		for (long long k = 0; k < 512; k++) {
			sum += s.in[0][i * 512 + k] / r;
			sq += (double)s.in[0][i * 512 + k] * s.in[0][i * 512 + k] / (r * r);
		}
		assert_true(r <= 1 && r >= 0x1p-6);
		scaled += r < 1;
		assert_true(fabs(sum / 512) < 0.1 && fabs(sq / 512 - 1.0 / 3) < 0.06);
	}
	assert_true(scaled > 4 && scaled < 28);
	for (long long j = 0; j < 8; j++)
		negated &= s.in[1][256 * 32 + j] == -s.in[1][j];
	assert_true(fmax_abs(s.in[0], 32 * 512) <= 1 && fmax_abs(s.in[1], 512 * 32) <= 1);
	assert_false(negated);
	{
		long long *idx = malloc(EV_FOCUS_MAX * sizeof(long long)), n, n2;
		long long *idx2 = malloc(EV_FOCUS_MAX * sizeof(long long));
		double *val = malloc(EV_FOCUS_MAX * sizeof(double)), *bd = malloc(EV_FOCUS_MAX * sizeof(double));
		/* 32 x 32 is 1024 entries: all of them */
		n = problem_focus(s.p, s.shape, 2, EV_F16, 7, (const float *const *)s.in, idx, val, bd);
		assert_int_equal(n, 1024);
		int small = 0, moderate = 0;
		for (long long e = 0; e < n; e++) {
			long long i = idx[e] / 32, j = idx[e] % 32;
			double t = 0;
			for (long long k = 0; k < 512; k++) {
				double p = (double)s.in[0][i * 512 + k] * s.in[1][k * 32 + j];
				t += p * p;
			}
			t = sqrt(t);
			assert_true(fabs(val[e] - s.ref[0][idx[e]]) <= 1e-9 * t);
			assert_true(fabs(bd[e] - (0x1p-9 * fabs(val[e]) + 1e-4 * t + 0x1p-24)) <= 1e-12 * t);
			small += fabs(val[e]) < t / 16;
			moderate += fabs(val[e]) > t / 2;
		}
		printf("measured: gemm cancel 32x32 K512: %d/1024 entries below 1/16 of their terms' scale, %d "
		       "above 1/2\n", small, moderate);
		assert_true(small > 10 && moderate > 400);
		/* and on the other distributions (red team 306) */
		assert_int_equal(problem_focus(s.p, s.shape, 0, EV_F16, 7, (const float *const *)s.in, idx, val, bd), 1024);
		assert_int_equal(problem_focus(s.p, s.shape, 1, EV_F16, 7, (const float *const *)s.in, idx, val, bd), 1024);
		inst_free(&s);
		/* a larger C: 1024 positions drawn from the key (the same key, the
		 * same positions; another key, others), spread over C */
		const long long gb[3] = { 128, 96, 64 };
		inst_make(&s, GEMM, gb, 2, 3, EV_F16);
		n = problem_focus(s.p, s.shape, 2, EV_F16, 7, (const float *const *)s.in, idx, val, bd);
		n2 = problem_focus(s.p, s.shape, 2, EV_F16, 7, (const float *const *)s.in, idx2, val, bd);
		assert_int_equal(n, 1024);
		assert_int_equal(n2, 1024);
		assert_memory_equal(idx, idx2, (size_t)n * sizeof(long long));
		n2 = problem_focus(s.p, s.shape, 2, EV_F16, 8, (const float *const *)s.in, idx2, val, bd);
		int same = 0, rows_seen = 0;
		char seen[128] = { 0 };
		for (long long e = 0; e < n; e++) {
			same += idx[e] == idx2[e];
			seen[idx[e] / 96] = 1;
		}
		for (int i = 0; i < 128; i++)
			rows_seen += seen[i];
		assert_true(same < 10);
		assert_true(rows_seen > 110);
		free(idx);
		free(idx2);
		free(val);
		free(bd);
	}
	inst_free(&s);

	/* softmax large: every launch has an element above exp's fp32 range
	 * (88.72): its lone elements of that kind were at 80..120, and a
	 * launch whose every one fell under 88.72 passed red team 21's
	 * nomax_all (no row max: flaky, not nan, under make test); now
	 * 90..120, and element 0, written last, is of that kind.  At 16 x 64
	 * launches have 2 to 6 such elements. */
	for (uint64_t seed = 5; seed < 5 + 300 * 0x9e3779b9ULL; seed += 0x9e3779b9ULL) {
		const long long sm16[2] = { 16, 64 };
		inst_make(&s, SOFTMAX, sm16, 1, seed, EV_F16);
		float top = -INFINITY;
		for (long long i = 0; i < 16 * 64; i++)
			top = fmaxf(top, s.in[0][i]);
		if (!(top >= 89.9f))
			fail_msg("softmax large, seed %llu: no element above 89.9 (max %g)", (unsigned long long)seed,
				 (double)top);
		inst_free(&s);
	}

	/* softmax large: `uniform` at temperature 1 (`peaked`'s base: its +12
	 * column skipped) except 4..16 lone elements at
	 * +-(80..120) or +-(4..12) and, in half the launches, 1..4 offset
	 * rows beyond exp's fp32 range, at places from the seed's high bits
	 * (red team 21: when every row was of a large kind, row 0 named the
	 * launch; red team 22: when every launch had an offset row, column 0
	 * did); both signs of offset over a few seeds */
	const long long sm[2] = { 64, 1000 };
	double hi = -INFINITY, lo = INFINITY;
	int with_rows = 0, without_rows = 0;
	for (uint64_t seed = 2; seed < 2 + 40 * 0x123456789ULL; seed += 0x123456789ULL) {
		inst_make(&s, SOFTMAX, sm, 1, seed, EV_F16);
		struct inst u;
		inst_make(&u, SOFTMAX, sm, 2, seed, EV_F16);
		int offset_rows = 0, lone = 0, hot_rows = 0;
		for (long long r = 0; r < 64; r++) {
			const float *x = s.in[0] + r * 1000, *y = u.in[0] + r * 1000;
			int far = 0, odd = 0;
			for (long long c = 0; c < 1000; c++) {
				hi = fmax(hi, x[c]);
				lo = fmin(lo, x[c]);
				far += fabs(x[c]) >= 75;
				if (y[c] > 10.5) /* peaked's +12: red team 292 (uniform's rows have a temperature) */
					continue;
				odd += x[c] != y[c];
				assert_true(fabs(y[c]) <= 1);
			}
			if (far >= 1000 - 16) { /* an offset row (a lone element may land in it) */
				offset_rows++;
				continue;
			}
			/* a row at temperature 10..40 (red team 310 row 2): most of
			 * its elements differ from `peaked`'s */
			if (odd > 500) {
				hot_rows++;
				continue;
			}
			for (long long c = 0; c < 1000; c++)
				if (x[c] != y[c] && y[c] <= 10.5)
					assert_true((fabs(x[c]) >= 3.99 && fabs(x[c]) <= 12.01) ||
						    (fabs(x[c]) >= 79.9 && fabs(x[c]) <= 120.1));
			lone += odd;
		}
		assert_true(offset_rows <= 4 && lone <= 16 && lone + 4 * offset_rows >= 1);
		assert_true(hot_rows >= 1 && hot_rows <= 8);
		with_rows += offset_rows > 0;
		without_rows += offset_rows == 0;
		inst_free(&u);
		inst_free(&s);
	}
	assert_true(with_rows >= 8 && without_rows >= 8); /* half the launches each, about */
	assert_true(hi > 88.8 && lo < -87.4);
	inst_make(&s, SOFTMAX, sm, 2, 2, EV_F16);
	for (long long r = 0; r < 64; r++) {
		double top = 0;
		for (long long c = 0; c < 1000; c++)
			top = fmax(top, s.ref[0][r * 1000 + c]);
		assert_true(top > 0.9);
	}
	inst_free(&s);

	/* layernorm offset: 1..8 rows with mean >> stdev; tiny: 1..8 rows
	 * with the variance below eps; every other row is uniform's own */
	const long long ln[2] = { 16, 768 };
	for (int dist = 1; dist <= 2; dist++) {
		inst_make(&s, LAYERNORM, ln, dist, 2, EV_F16);
		struct inst u;
		inst_make(&u, LAYERNORM, ln, 0, 2, EV_F16);
		int stress = 0;
		for (long long r = 0; r < 16; r++) {
			double m = 0, v = 0;
			for (long long c = 0; c < 768; c++)
				m += s.in[0][r * 768 + c] / 768.0;
			for (long long c = 0; c < 768; c++)
				v += (s.in[0][r * 768 + c] - m) * (s.in[0][r * 768 + c] - m) / 768.0;
			int is = dist == 1 ? fabs(m) / sqrt(v) > 5 : v < 1e-5 && v > 1e-8;
			stress += is;
			/* uniform's own but where `uniform` has a lead run or a
			 * scattered outlier (red teams 296 and 298, ln_fill_lead
			 * and ln_fill_scatter: 29 and more, U[-1, 1) elsewhere) */
			for (long long c = 0; !is && c < 768; c++)
				if (fabsf(u.in[0][r * 768 + c]) <= 20)
					assert_true(s.in[0][r * 768 + c] == u.in[0][r * 768 + c]);
		}
		assert_true(stress >= 1 && stress <= 8);
		assert_memory_equal(s.in[1], u.in[1], 768 * sizeof(float));
		for (long long c = 0; c < 768; c++)
			assert_true(s.in[1][c] >= 0.5 && s.in[1][c] <= 1.5 && fabs(s.in[2][c]) <= 0.5);
		inst_free(&u);
		inst_free(&s);
	}

	/* rowsum cancel: the sum is small next to the midway partial sum;
	 * positive: all > 0 and the sum inside fp16 */
	const long long rs[2] = { 8, 1000 }, rl[2] = { 2, 65536 };
	inst_make(&s, ROWSUM, rs, 1, 2, EV_F16);
	for (long long r = 0; r < 8; r++) {
		double mid = 0;
		for (long long c = 0; c < 500; c++)
			mid += s.in[0][r * 1000 + c];
		assert_true(mid > 4 * fabs(s.ref[0][r]));
	}
	inst_free(&s);
	for (int big = 0; big < 2; big++) {
		inst_make(&s, ROWSUM, big ? rl : rs, 2, 2, EV_F16);
		for (size_t i = 0; i < (size_t)(big ? 2 * 65536 : 8000); i++)
			assert_true(s.in[0][i] > 0);
		for (size_t r = 0; r < s.out_n; r++)
			assert_true(s.ref[0][r] > 1000 && s.ref[0][r] < 30000);
		inst_free(&s);
	}
	/* the secret scale (red team 286): uniform's largest |x| over 16
	 * seeds spans 2^-14 .. 2^0 in fp16; in fp32 (red team 291) 2^-60 ..
	 * 2^0; cancel and positive keep their ranges */
	double slo = 1e30, shi = 0, wlo = 1e30, whi = 0;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		inst_make(&s, ROWSUM, rs, 0, seed, EV_F32);
		double w = 0;
		for (long long i = 0; i < 8000; i++)
			w = fabs(s.in[0][i]) > w ? fabs(s.in[0][i]) : w;
		wlo = w < wlo ? w : wlo;
		whi = w > whi ? w : whi;
		inst_free(&s);
		inst_make(&s, ROWSUM, rs, 0, seed, EV_F16);
		double m = 0;
		for (long long i = 0; i < 8000; i++)
			m = fabs(s.in[0][i]) > m ? fabs(s.in[0][i]) : m;
		slo = m < slo ? m : slo;
		shi = m > shi ? m : shi;
		inst_free(&s);
		inst_make(&s, ROWSUM, rs, 1, seed, EV_F32);
		assert_true(s.in[0][0] >= 1 && s.in[0][0] < 2);
		inst_free(&s);
	}
	printf("measured: rowsum uniform max |x| over 16 seeds %.4g .. %.4g (fp16), %.4g .. %.4g (fp32)\n", slo,
	       shi, wlo, whi);
	assert_true(shi <= 1 && slo >= 0.99 * 0x1p-14 && shi / slo > 256);
	assert_true(whi <= 1 && wlo >= 0.99 * 0x1p-60 && whi / wlo > 0x1p30);
	/* padded: every row has zeros and keeps at least half its elements;
	 * some rows start with them.  spikes: some |x| >= 4096 times the
	 * scale, never past 16384 */
	inst_make(&s, ROWSUM, rs, 3, 7, EV_F32);
	int heads = 0;
	for (long long r = 0; r < 8; r++) {
		long long zeros = 0;
		for (long long c = 0; c < 1000; c++)
			zeros += s.in[0][r * 1000 + c] == 0.0f;
		assert_true(zeros >= 125 && zeros <= 500);
		heads += s.in[0][r * 1000] == 0.0f;
	}
	assert_true(heads >= 1);
	inst_free(&s);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		inst_make(&s, ROWSUM, rs, 4, seed, EV_F16);
		float big = 0, small = 1e30f;
		for (long long i = 0; i < 8000; i++) {
			float a = fabsf(s.in[0][i]);
			big = a > big ? a : big;
			small = a > 0 && a < small ? a : small;
		}
		assert_true(big < 16384 && big >= 4096 * 0x1p-14 && big > 1000 * small);
		inst_free(&s);
	}
}

/* ---- counts ---------------------------------------------------------------- */

static void test_flops_bytes(void **state)
{
	(void)state;
	const long long a[4] = { 4, 8, 512, 64 }, g[3] = { 128, 256, 512 }, rc[2] = { 10, 20 };
	const struct ev_problem_desc *d;
	d = probs[ATTN].desc;
	assert_true(d->flops(a) == 4.0 * 4 * 8 * 512 * 512 * 64);
	assert_true(d->min_bytes(a, 2) == 4.0 * 4 * 8 * 512 * 64 * 2);
	assert_true(problem_scalar(&probs[ATTN], a) == 0.125);
	d = probs[GEMM].desc;
	assert_true(d->flops(g) == 2.0 * 128 * 256 * 512);
	assert_true(d->min_bytes(g, 4) == (128.0 * 512 + 512.0 * 256 + 128.0 * 256) * 4);
	assert_true(problem_scalar(&probs[GEMM], g) == 0);
	d = probs[SOFTMAX].desc;
	assert_true(d->flops(rc) == 5.0 * 200);
	assert_true(d->min_bytes(rc, 2) == 2.0 * 200 * 2);
	d = probs[LAYERNORM].desc;
	assert_true(d->flops(rc) == 8.0 * 200);
	assert_true(d->min_bytes(rc, 4) == (400.0 + 40.0) * 4);
	assert_true(problem_scalar(&probs[LAYERNORM], rc) == 1e-5);
	d = probs[ROWSUM].desc;
	assert_true(d->flops(rc) == 200.0);
	assert_true(d->min_bytes(rc, 2) == (200.0 + 10.0) * 2);
	/* tensor sizes follow the dims */
	long long dims[4];
	assert_int_equal(problem_tensor_dims(&probs[GEMM], 1, g, dims), 2);
	assert_int_equal(dims[0], 512);
	assert_int_equal(dims[1], 256);
	assert_int_equal(dims[2], 1);
	assert_int_equal(problem_tensor_numel(&probs[LAYERNORM], 1, rc), 20);
	assert_int_equal(problem_tensor_numel(&probs[ROWSUM], 1, rc), 10);
	/* tolerances: the rule's values, and the K / C / D scaling */
	struct ev_tolerance t;
	problem_tolerance(&probs[GEMM], EV_F32, g, &t);
	assert_true(fabs(t.rel_l2 - 1e-5 * sqrt(2.0)) < 1e-12);
	/* the growth stops at 16x (red team 95: TF32-rounded inputs passed
	 * the uncapped rule from about K 2^22) */
	long long gk[3] = { 4, 4, 1LL << 22 };
	problem_tolerance(&probs[GEMM], EV_F32, gk, &t);
	assert_true(fabs(t.rel_l2 - 1.6e-4) < 1e-12);
	problem_tolerance(&probs[GEMM], EV_F16, g, &t);
	assert_true(t.atol == 5e-3 && t.rtol == 5e-3 && t.rel_l2 == 1e-3); /* red team 13: gemm.c */
	problem_tolerance(&probs[ATTN], EV_BF16, a, &t);
	assert_true(t.atol == 2e-2 && t.rel_l2 == 8e-3);
	problem_tolerance(&probs[ATTN], EV_F32, a, &t);
	assert_true(fabs(t.atol - 8e-5) < 1e-12 && t.rtol == 1e-5 && t.rel_l2 == 1e-5);
	problem_tolerance(&probs[SOFTMAX], EV_BF16, rc, &t);
	assert_true(t.atol == 2e-2 && t.rel_l2 == 1.5e-2);
}

static void expect_extra(int prob, const long long *in, const long long *want)
{
	long long out[EV_PROBLEM_MAX_KEYS];
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(probs[prob].desc->extra_shape(in, out), 0);
	for (int i = 0; i < probs[prob].desc->n_keys; i++)
		assert_int_equal(out[i], want[i]);
	assert_int_equal(problem_check_shape(&probs[prob], out, &why), 0);
	strbuf_release(&why);
}

static void test_extra_small_shapes(void **state)
{
	(void)state;
	expect_extra(ATTN, (long long[]){ 4, 8, 512, 64 }, (long long[]){ 1, 2, 397, 64 });
	expect_extra(ATTN, (long long[]){ 1, 16, 4096, 128 }, (long long[]){ 1, 2, 397, 128 });
	expect_extra(ATTN, (long long[]){ 2, 4, 64, 32 }, (long long[]){ 1, 2, 49, 32 });
	expect_extra(ATTN, (long long[]){ 2, 2, 16, 64 }, (long long[]){ 1, 2, 11, 64 });
	expect_extra(ATTN, (long long[]){ 1, 1, 3, 16 }, (long long[]){ 1, 2, 1, 16 });
	expect_extra(ATTN, (long long[]){ 1, 1, 1, 16 }, (long long[]){ 1, 2, 1, 16 });
	expect_extra(GEMM, (long long[]){ 1024, 512, 4096 }, (long long[]){ 397, 397, 397 });
	expect_extra(GEMM, (long long[]){ 64, 16, 8 }, (long long[]){ 49, 11, 5 });
	expect_extra(SOFTMAX, (long long[]){ 4096, 1024 }, (long long[]){ 37, 397 });
	expect_extra(LAYERNORM, (long long[]){ 8, 768 }, (long long[]){ 8, 397 });
	expect_extra(ROWSUM, (long long[]){ 4096, 65536 }, (long long[]){ 37, 3001 });
	expect_extra(ROWSUM, (long long[]){ 2, 100 }, (long long[]){ 2, 73 });
	/* extra sizes are odd (no tile divides them) unless the spec's is 1 */
	for (long long S = 1; S <= 3000; S++) {
		long long in[4] = { 1, 1, S, 64 }, out[4];
		probs[ATTN].desc->extra_shape(in, out);
		assert_true(out[2] % 2 == 1 && out[2] <= 397 && out[2] <= S);
	}
	long long out[4];
	probs[ATTN].desc->small_shape((long long[]){ 4, 8, 512, 64 }, out);
	assert_true(out[0] == 1 && out[1] == 2 && out[2] == 256 && out[3] == 64);
	probs[ATTN].desc->small_shape((long long[]){ 1, 1, 100, 64 }, out);
	assert_true(out[0] == 1 && out[1] == 1 && out[2] == 100 && out[3] == 64);
	probs[GEMM].desc->small_shape((long long[]){ 8192, 8192, 8192 }, out);
	assert_true(out[0] == 256 && out[1] == 256 && out[2] == 1024);
	probs[ROWSUM].desc->small_shape((long long[]){ 100000, 1000000 }, out);
	assert_true(out[0] == 4096 && out[1] == 65536);
}

/* ---- the check ----------------------------------------------------------- */

static void test_scramble_unwritten(void **state)
{
	(void)state;
	const double ref[8] = { 1, -2, 3, 4, 5, 6, 7, 8 };
	const struct ev_tolerance tol = { 1e-3, 1e-3, 1e-3 };
	struct check_result r;
	float out[8], before[8];
	uint16_t out16[8], before16[8];

	/* scramble: deterministic in the seed, any byte count */
	unsigned char a[13], b[13];
	problem_scramble(a, sizeof(a), 5);
	problem_scramble(b, sizeof(b), 5);
	assert_memory_equal(a, b, sizeof(a));
	problem_scramble(b, sizeof(b), 6);
	assert_true(memcmp(a, b, sizeof(a)) != 0);

	/* a kernel that writes only the first 6 elements */
	problem_scramble(out, sizeof(out), 1);
	memcpy(before, out, sizeof(out));
	for (int i = 0; i < 6; i++)
		out[i] = (float)ref[i];
	problem_check_output(out, before, EV_F32, ref, NULL, 8, &tol, &r);
	assert_int_equal(r.unwritten, 2);
	assert_int_equal(r.first_mismatch, 6);
	assert_int_equal(r.mismatches, 0);
	assert_false(r.pass);
	assert_true(r.ref_scale == 8);
	/* without `before` the same elements are plain mismatches or NaNs */
	problem_check_output(out, NULL, EV_F32, ref, NULL, 8, &tol, &r);
	assert_int_equal(r.unwritten, 0);
	assert_int_equal(r.mismatches + r.nan_count, 2);
	/* the right value that happens to equal the scramble is written */
	for (int i = 0; i < 8; i++)
		out[i] = (float)ref[i];
	memcpy(before, out, sizeof(out));
	before[3] = 99;
	problem_check_output(out, before, EV_F32, ref, NULL, 8, &tol, &r);
	assert_true(r.pass);
	assert_int_equal(r.unwritten, 0);
	/* a NaN the kernel wrote is a NaN, not unwritten */
	out[2] = NAN;
	problem_check_output(out, before, EV_F32, ref, NULL, 8, &tol, &r);
	assert_int_equal(r.nan_count, 1);
	assert_int_equal(r.unwritten, 0);
	assert_int_equal(r.first_mismatch, 2);
	assert_false(r.pass);
	/* a scramble that is NaN and stays: unwritten */
	before[2] = NAN;
	memcpy(&out[2], &before[2], 4);
	problem_check_output(out, before, EV_F32, ref, NULL, 8, &tol, &r);
	assert_int_equal(r.unwritten, 1);
	assert_int_equal(r.nan_count, 0);

	/* fp16: unwritten, and the float reference path */
	const float reff[8] = { 1, -2, 3, 4, 5, 6, 7, 8 };
	problem_scramble(out16, sizeof(out16), 9);
	memcpy(before16, out16, sizeof(out16));
	for (int i = 1; i < 8; i++)
		out16[i] = f32_to_f16(reff[i]);
	problem_check_output(out16, before16, EV_F16, NULL, reff, 8, &tol, &r);
	assert_int_equal(r.unwritten, 1);
	assert_int_equal(r.first_mismatch, 0);

	/* every element within atol/rtol, but rel L2 over the rule */
	for (int i = 0; i < 8; i++)
		out[i] = (float)(ref[i] * 1.0009);
	const struct ev_tolerance loose = { 1e-3, 1e-3, 1e-4 };
	problem_check_output(out, NULL, EV_F32, ref, NULL, 8, &loose, &r);
	assert_int_equal(r.mismatches, 0);
	assert_true(r.rel_l2 > 8e-4 && r.rel_l2 < 1e-3);
	assert_false(r.pass);
	/* atol scales with max |ref|: 1e-3 * 8 */
	for (int i = 0; i < 8; i++)
		out[i] = (float)ref[i];
	out[0] = (float)(ref[0] + 0.0075);
	const struct ev_tolerance atol_only = { 1e-3, 0, 1 };
	problem_check_output(out, NULL, EV_F32, ref, NULL, 8, &atol_only, &r);
	assert_true(r.pass);
	out[0] = (float)(ref[0] + 0.0085);
	problem_check_output(out, NULL, EV_F32, ref, NULL, 8, &atol_only, &r);
	assert_false(r.pass);
	assert_int_equal(r.mismatches, 1);
	/* an all-zero reference: ref_scale 1, rel L2 is the plain norm */
	const double zero[2] = { 0, 0 };
	float z[2] = { 0, 1e-4f };
	problem_check_output(z, NULL, EV_F32, zero, NULL, 2, &tol, &r);
	assert_true(r.ref_scale == 1 && r.pass);
	/* a NaN in the reference fails the check (a problem bug) */
	const double badref[2] = { 1, NAN };
	problem_check_output(z, NULL, EV_F32, badref, NULL, 2, &(struct ev_tolerance){ 1, 1, 1 }, &r);
	assert_int_equal(r.ref_nonfinite, 1);
	assert_false(r.pass);
}

static void test_pack_unpack(void **state)
{
	(void)state;
	const float x[5] = { 1.0f, -2.5f, 65504.0f, 1e-8f, 3.14159f };
	float y[5];
	uint16_t h[5];
	double d[5];
	problem_pack(x, h, 5, EV_F16);
	assert_int_equal(h[0], 0x3c00);
	problem_unpack(h, y, 5, EV_F16);
	for (int i = 0; i < 5; i++)
		assert_true(y[i] == r16(x[i]));
	problem_pack(x, h, 5, EV_BF16);
	assert_int_equal(h[0], 0x3f80);
	problem_unpack(h, y, 5, EV_BF16);
	for (int i = 0; i < 5; i++)
		assert_true(y[i] == rbf(x[i]));
	problem_pack(x, d, 5, EV_F64);
	problem_unpack(d, y, 5, EV_F64);
	assert_memory_equal(x, y, sizeof(x));
	problem_pack(x, y, 5, EV_F32);
	assert_memory_equal(x, y, sizeof(x));
}

/* ---- the old attention interface agrees with the plug-in -------------------- */

/* The plug-in's reference (problems/attention_fwd.c) and the old
 * interface's textbook triple loop give the same numbers, bit for bit, on
 * every distribution, at shapes whose S and D are and are not multiples of
 * 4 (17 x 8; 33 x 13; 3 x 3): whatever grouping of the sums a faster
 * reference would use must keep their order. */
static void test_legacy_agrees(void **state)
{
	(void)state;
	static const long long shapes[][4] = { { 2, 3, 17, 8 }, { 1, 2, 33, 13 }, { 1, 1, 3, 3 } };
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		const long long *sh = shapes[si];
		struct attn_shape ls = { sh[0], sh[1], sh[2], sh[3] };
		size_t n = attn_numel(&ls);
		for (int dt = EV_F32; dt <= EV_BF16; dt++) {
			float *q = malloc(n * 4), *k = malloc(n * 4), *v = malloc(n * 4);
			double *o = malloc(n * 8);
			attn_fill_inputs(&ls, 42, dt, q, k, v);
			attn_reference_cpu(&ls, q, k, v, o);
			struct inst s;
			inst_make(&s, ATTN, sh, 0, 42, dt);
			assert_memory_equal(q, s.in[0], n * 4);
			assert_memory_equal(k, s.in[1], n * 4);
			assert_memory_equal(v, s.in[2], n * 4);
			assert_memory_equal(o, s.ref[0], n * 8);
			assert_true(attn_flops(&ls) == probs[ATTN].desc->flops(sh));
			assert_true(attn_min_bytes(&ls, 2) == probs[ATTN].desc->min_bytes(sh, 2));
			inst_free(&s);
			for (int dist = 1; dist < probs[ATTN].desc->n_dists; dist++) {
				inst_make(&s, ATTN, sh, dist, 42 + (uint64_t)dist, dt);
				attn_reference_cpu(&ls, s.in[0], s.in[1], s.in[2], o);
				assert_memory_equal(o, s.ref[0], n * 8);
				inst_free(&s);
			}
			free(q);
			free(k);
			free(v);
			free(o);
		}
	}
}

/* ---- evident help problems ---------------------------------------------------- */

static void test_list_help(void **state)
{
	(void)state;
	struct strbuf out = STRBUF_INIT;
	assert_int_equal(problem_list_help(".", cache_dir(), &out), 0);
	const char *want[] = {
		"attention_fwd - O = softmax(scale Q K^T) V",
		"  shape keys     B H S D\n",
		"  tensors        in Q[B,H,S,D] K[B,H,S,D] V[B,H,S,D]; out O[B,H,S,D]\n",
		"  scale          softmax scale, 1/sqrt(D)\n",
		"  distributions  uniform       Q, K, V uniform in [-1, 1) (default)\n",
		"                 large_scores  Q, K uniform in [-10, 10)",
		"  gpu reference  problems/attention_fwd.cu\n",
		"gemm - C = A B",
		"  tensors        in A[M,K] B[K,N]; out C[M,N]\n",
		"  scale          (unused)\n",
		"layernorm - ",
		"  tensors        in X[R,C] gamma[C] beta[C]; out Y[R,C]\n",
		"  scale          eps added to the variance, 1e-5\n",
		"rowsum - ",
		"  tensors        in X[R,C]; out Y[R]\n",
		"softmax - ",
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		if (!strstr(strbuf_str(&out), want[i]))
			fprintf(stderr, "help lacks '%s':\n%s", want[i], strbuf_str(&out));
		assert_non_null(strstr(strbuf_str(&out), want[i]));
	}
	/* sorted by name */
	assert_true(strstr(strbuf_str(&out), "gemm - ") < strstr(strbuf_str(&out), "layernorm - "));
	strbuf_release(&out);

	/* a broken problem is listed with its reason, the others still are */
	char *root = scratch_repo(), *cache = xstrfmt("%s/cache", root), *f;
	f = xstrfmt("%s/problems/broken.c", root);
	write_text(f, "#include \"evident_problem.h\"\nint broken = ;\n");
	free(f);
	f = xstrfmt("%s/problems/rowsum.c", root);
	copy_text("problems/rowsum.c", f);
	free(f);
	int saved = util_quiet;
	util_quiet = 1;
	assert_int_equal(problem_list_help(root, cache, &out), -1);
	util_quiet = saved;
	assert_non_null(strstr(strbuf_str(&out), "broken - cannot load: problem 'broken' does not compile"));
	assert_non_null(strstr(strbuf_str(&out), "rowsum - Y[r] = sum"));
	assert_non_null(strstr(strbuf_str(&out), "gpu reference  (none: CPU float64 only)"));
	strbuf_release(&out);
	rm_rf(root);
	assert_int_equal(problem_list_help(root, cache, &out), -1);
	assert_non_null(strstr(strbuf_str(&out), "no problems: there is no"));
	strbuf_release(&out);
	free(cache);
	free(root);
}

/* ---- the GPU reference builds (no GPU needed to compile it) ------------------ */

static void test_build_gpu(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	char *nvcc = cuda_find_tool("nvcc");
	if (!nvcc) {
		printf("skip: no nvcc here, the GPU reference build is not tried\n");
		return;
	}
	free(nvcc);
	struct problem *p = &probs[ROWSUM];
	assert_int_equal(problem_build_gpu(p, ".", cache_dir(), NULL, &why), 0);
	assert_true(path_exists(p->gpu_so_path));
	assert_string_equal(json_string_value(json_object_get(p->gpu_build, "arch")), "sm_80+sm_90");
	assert_string_equal(json_string_value(json_object_get(p->gpu_build, "path")), "problems/rowsum.cu");
	assert_true(json_has_source(p->gpu_build, "problems/rowsum.cu"));
	assert_true(json_has_source(p->gpu_build, "problems/evident_problem.h"));
	/* a bad arch is refused before nvcc runs */
	assert_int_equal(problem_build_gpu(p, ".", cache_dir(), "compute_x", &why), -1);
	assert_non_null(strstr(strbuf_str(&why), "is not of the form sm_NN"));
	/* no .cu: a clear reason */
	struct problem q = PROBLEM_INIT;
	q.name = (char *)"x";
	assert_int_equal(problem_build_gpu(&q, ".", cache_dir(), NULL, &why), -1);
	assert_string_equal(strbuf_str(&why), "problem 'x' has no GPU reference (problems/x.cu)");
	strbuf_release(&why);
}

/* ---- the naive host kernels pass every distribution (a small worker) ------ */

static void run_host_kernel(int prob, const char *kernel, const long long *shape)
{
	struct problem *p = &probs[prob];
	struct build_request rq = { .kernel_path = kernel, .repo_root = ".", .cache_dir = cache_dir() };
	struct build_result br = BUILD_RESULT_INIT;
	assert_int_equal(backend_host.build(&rq, &br), 0);
	assert_true(br.ok);
	void *h = dlopen(br.so_path, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	ev_kernel_fn fn = (ev_kernel_fn)(uintptr_t)dlsym(h, EVIDENT_KERNEL_SYMBOL);
	assert_non_null(fn);
	const struct ev_kernel_desc *k = fn();
	assert_string_equal(k->problem, p->name);

	struct ev_launch l;
	memset(&l, 0, sizeof(l));
	l.abi_version = EVIDENT_ABI_VERSION;
	l.struct_size = sizeof(l);
	l.problem = p->name;
	l.n_inputs = p->n_inputs;
	l.n_outputs = p->n_outputs;
	l.scale = problem_scalar(p, shape);
	float **in = problem_inputs_new(p, shape);
	double **ref = problem_outputs_new(p, shape);
	size_t on = problem_tensor_numel(p, p->n_inputs, shape);
	float *out = malloc(on * sizeof(float)), *before = malloc(on * sizeof(float));
	for (int t = 0; t < p->desc->n_tensors; t++) {
		struct ev_tensor *x = t < p->n_inputs ? &l.inputs[t] : &l.outputs[t - p->n_inputs];
		x->data = t < p->n_inputs ? (void *)in[t] : (void *)out;
		x->dtype = EV_F32;
		x->ndim = problem_tensor_dims(p, t, shape, (long long *)x->dims);
	}
	char err[256] = "";
	assert_int_equal(k->init ? k->init(&l, err, sizeof(err)) : 0, 0);
	struct ev_tolerance tol;
	problem_tolerance(p, EV_F32, shape, &tol);
	for (int seed = 0; seed < p->desc->n_dists; seed++) {
		int dist = problem_dist_for_seed(p, seed);
		struct check_result r;
		assert_int_equal(problem_fill_rounded(p, shape, dist, 1000 + (uint64_t)seed, EV_F32, in), 0);
		problem_reference(p, shape, (const float *const *)in, ref);
		problem_scramble(out, on * sizeof(float), (uint64_t)seed);
		memcpy(before, out, on * sizeof(float));
		assert_int_equal(k->launch(&l), 0);
		problem_check_output(out, before, EV_F32, ref[0], NULL, on, &tol, &r);
		printf("measured: %-24s %-12s %-13s rel_l2 %.2e max_err %.2e (rule rel_l2 %.1e) %s\n", kernel,
		       p->name, p->desc->dists[dist], r.rel_l2, r.max_abs_err, tol.rel_l2, r.pass ? "PASS" : "FAIL");
		assert_true(r.pass);
		assert_int_equal(r.unwritten, 0);
	}
	if (k->fini)
		k->fini(&l);
	dlclose(h);
	free(out);
	free(before);
	problem_buffers_free(in, p->n_inputs);
	problem_buffers_free(ref, p->n_outputs);
	build_result_release(&br);
}

static void test_host_naive_kernels(void **state)
{
	(void)state;
	const struct {
		int prob;
		const char *kernel;
		long long shape[4];
	} cases[] = {
		{ ATTN, "kernels/host/attn_naive.c", { 1, 2, 128, 32 } },
		{ GEMM, "kernels/gemm/naive.c", { 64, 48, 256 } },
		{ SOFTMAX, "kernels/softmax/naive.c", { 32, 500 } },
		{ LAYERNORM, "kernels/layernorm/naive.c", { 16, 768 } },
		{ ROWSUM, "kernels/rowsum/naive.c", { 16, 1000 } },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		long long extra[EV_PROBLEM_MAX_KEYS];
		run_host_kernel(cases[i].prob, cases[i].kernel, cases[i].shape);
		assert_int_equal(probs[cases[i].prob].desc->extra_shape(cases[i].shape, extra), 0);
		run_host_kernel(cases[i].prob, cases[i].kernel, extra);
	}
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_load),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_validate_desc),
		cmocka_unit_test(test_shape_from_keys),
		cmocka_unit_test(test_reference_bruteforce),
		cmocka_unit_test(test_fill_deterministic),
		cmocka_unit_test(test_attention_distributions),
		cmocka_unit_test(test_other_distributions),
		cmocka_unit_test(test_flops_bytes),
		cmocka_unit_test(test_extra_small_shapes),
		cmocka_unit_test(test_scramble_unwritten),
		cmocka_unit_test(test_pack_unpack),
		cmocka_unit_test(test_legacy_agrees),
		cmocka_unit_test(test_list_help),
		cmocka_unit_test(test_build_gpu),
		cmocka_unit_test(test_host_naive_kernels),
		cmocka_unit_test(test_attention_rule),
		cmocka_unit_test(test_gemm_rule),
		cmocka_unit_test(test_gemm_focus),
		cmocka_unit_test(test_gemm_scaled_rows),
		cmocka_unit_test(test_gemm_tile_scales),
		cmocka_unit_test(test_gemm_cancel_is_uniform),
		cmocka_unit_test(test_softmax_rule),
		cmocka_unit_test(test_softmax_wide),
		cmocka_unit_test(test_softmax_temperature),
		cmocka_unit_test(test_softmax_offset),
		cmocka_unit_test(test_softmax_focus),
		cmocka_unit_test(test_softmax_focus_kinds),
		cmocka_unit_test(test_softmax_band),
		cmocka_unit_test(test_layernorm_rule),
		cmocka_unit_test(test_layernorm_offset_seeds),
		cmocka_unit_test(test_layernorm_lead_rows),
		cmocka_unit_test(test_layernorm_scatter),
		cmocka_unit_test(test_rowsum_rule),
		cmocka_unit_test(test_rowsum_focus),
		cmocka_unit_test(test_rowsum_few_rows),
	};
	return cmocka_run_group_tests_name("problems", tests, setup, teardown);
}
