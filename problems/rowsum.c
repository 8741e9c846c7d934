/*
 * rowsum.c - the reduction Y[r] = sum over c of X[r][c]: X [R, C], Y [R],
 * dense row-major.  ev_launch.scale is unused.  A plug-in of
 * evident_problem.h.
 *
 * Distributions (correctness seed i uses distribution i % 3):
 *   uniform   X uniform in [-1, 1)
 *   cancel    the halves cancel: X[c] = m_c in [1, 2) and X[c + C/2] =
 *             u_c - m_c with u_c in [0, 0.5): the sum (~C/8) is 6x smaller
 *             than the partial sum a sequential loop holds at C/2 (~3C/4)
 *             and 10x smaller than sum |x|; accumulating in fp16 or bf16
 *             loses it (rel L2 2.6e-2 in fp16 at C = 1000), fp32 keeps it
 *             (2.6e-6).  Not alternating signs: neighbours of opposite sign
 *             cancel at once, so partial sums stay small and an fp16
 *             accumulator barely suffers (measured 5.5e-3 at C = 1000, at
 *             the edge of the fp16 rule)
 *   positive  X uniform in [s, 2s), s = min(8, 16384 / C): the sum grows to
 *             ~1.5 s C <= 24576 (inside fp16); for C beyond a few thousand
 *             a low-precision accumulator stops growing (swamping) long
 *             before the end
 *
 * FLOPs: R C (C adds per row, counting the first).  Fewest bytes: X read
 * once, Y written once: (R C + R) elements.
 *
 * Tolerances: the rule of evident_problem.h.  fp32 is 1e-5 * max(1,
 * sqrt(C / 1024)) for atol, rtol and rel_l2 (an honest sequential fp32
 * sum's error grows like sqrt(C); measured in tests/unit/test_problems.c).
 * fp16 5e-3, bf16 2e-2/2e-2/1.5e-2: honest kernels accumulate in fp32 and
 * round once.
 */
#include <math.h>
#include <stdio.h>

#include "evident_problem.h"

enum { KR, KC };

static int rowsum_check(const long long *s, char *err, size_t errlen)
{
	if (s[KR] > 0 && s[KC] > 0)
		return 0;
	snprintf(err, errlen, "R and C must both be at least 1");
	return -1;
}

static double rowsum_flops(const long long *s)
{
	return (double)s[KR] * (double)s[KC];
}

static double rowsum_min_bytes(const long long *s, size_t elem_bytes)
{
	return ((double)s[KR] * (double)s[KC] + (double)s[KR]) * (double)elem_bytes;
}

static void rowsum_fill(const long long *s, int dist, uint64_t seed, float *const *in)
{
	const long long n = s[KR] * s[KC], C = s[KC];
	float *X = in[0];
	uint64_t st = seed * 0x2545f4914f6cdd1dULL + 1;
	if (dist == 1) {
		/* X[c] = m, X[c + C/2] = u - m: the halves cancel */
		const long long R = s[KR], h = C / 2;
		for (long long r = 0; r < R; r++) {
			float *x = X + r * C;
			for (long long c = 0; c < h; c++) {
				double m = 1.5 + 0.5 * ev_uniform_pm1(&st);        /* [1, 2) */
				double u = 0.25 + 0.25 * ev_uniform_pm1(&st);      /* [0, 0.5) */
				x[c] = (float)m;
				x[c + h] = (float)(u - m);
			}
			if (C % 2)
				x[C - 1] = (float)ev_uniform_pm1(&st);
		}
	} else if (dist == 2) {
		double sc = 16384.0 / (double)C;
		if (sc > 8.0)
			sc = 8.0;
		for (long long i = 0; i < n; i++)
			X[i] = (float)(sc * (1.5 + 0.5 * ev_uniform_pm1(&st)));
	} else {
		for (long long i = 0; i < n; i++)
			X[i] = (float)ev_uniform_pm1(&st);
	}
}

static void rowsum_reference(const long long *s, double scalar, const float *const *in,
			     double *const *out)
{
	(void)scalar;
	const long long R = s[KR], C = s[KC];
	for (long long r = 0; r < R; r++) {
		const float *x = in[0] + r * C;
		/* double is exact enough here: float inputs, |partial| << 2^53 ulp */
		double acc = 0;
		for (long long c = 0; c < C; c++)
			acc += (double)x[c];
		out[0][r] = acc;
	}
}

static void rowsum_tolerance(int dtype, const long long *s, struct ev_tolerance *t)
{
	if (dtype == EV_F16) {
		*t = (struct ev_tolerance){ 5e-3, 5e-3, 5e-3 };
	} else if (dtype == EV_BF16) {
		*t = (struct ev_tolerance){ 2e-2, 2e-2, 1.5e-2 };
	} else {
		double f = sqrt((double)s[KC] / 1024.0);
		double v = 1e-5 * (f > 1 ? f : 1);
		*t = (struct ev_tolerance){ v, v, v };
	}
}

/* Rows: a few; C: odd, near 3/4 of the spec's (at most 3001), so a
 * reduction tile never divides it. */
static int rowsum_extra_shape(const long long *s, long long *o)
{
	long long C = s[KC] < 4096 ? s[KC] : 4096;
	long long e = C * 3001 / 4096;
	if (e % 2 == 0)
		e = e > 1 ? e - 1 : 1;
	o[KR] = s[KR] < 37 ? s[KR] : 37;
	o[KC] = e < 1 ? 1 : e;
	return 0;
}

static void rowsum_small_shape(const long long *s, long long *o)
{
	o[KR] = s[KR] < 4096 ? s[KR] : 4096;
	o[KC] = s[KC] < 65536 ? s[KC] : 65536;
}

static const struct ev_problem_desc rowsum = {
	.abi_version = EVIDENT_PROBLEM_ABI_VERSION,
	.struct_size = sizeof(struct ev_problem_desc),
	.name = "rowsum",
	.summary = "Y[r] = sum over c of X[r][c], X [R,C], Y [R]",
	.scalar_doc = NULL,
	.n_keys = 2,
	.shape_keys = { "R", "C" },
	.n_tensors = 2,
	.tensors = {
		{ "X", 0, 2, { KR, KC } },
		{ "Y", 1, 1, { KR } },
	},
	.n_dists = 3,
	.dists = { "uniform", "cancel", "positive" },
	.dist_docs = {
		"X uniform in [-1, 1)",
		"X[c] = m in [1,2), X[c+C/2] = u - m, u in [0,0.5): the halves cancel, the sum is 6x below the midway partial sum",
		"X uniform in [s, 2s), s = min(8, 16384/C): the sum grows to ~1.5 s C, a short accumulator swamps",
	},
	.check = rowsum_check,
	.scalar = NULL,
	.flops = rowsum_flops,
	.min_bytes = rowsum_min_bytes,
	.fill = rowsum_fill,
	.reference = rowsum_reference,
	.tolerance = rowsum_tolerance,
	.extra_shape = rowsum_extra_shape,
	.small_shape = rowsum_small_shape,
};

EVIDENT_DEFINE_PROBLEM(rowsum)
