/*
 * layernorm.c - the problem Y = (X - mean) / sqrt(var + eps) * gamma + beta
 * over each row: X, Y [R, C], gamma, beta [C], dense row-major; mean and
 * var are the row's mean and population variance (divide by C); eps is
 * ev_launch.scale (1e-5).  A plug-in of evident_problem.h.
 *
 * Distributions (correctness seed i uses distribution i % 4); gamma is
 * uniform in [0.5, 1.5) and beta in [-0.5, 0.5) in all four:
 *   uniform  X uniform in [-1, 1), except that in half the launches 4..16
 *            secret rows lead with a run of 1..min(16, C / 1024) elements
 *            at (50..100) sd from the rest of their row (red team 296: a
 *            one pass shifted by x[0], or by the mean of a leading run,
 *            cancels there; ln_fill_lead), and in those launches every
 *            row holds 1..16 single outliers at secret columns (red team
 *            298: the same shift by x[C - 1] or x[C / 2]; ln_fill_scatter)
 *   offset   X as `uniform` (the same values for the same seed) except
 *            1..8 rows at places from the seed's high bits, which the
 *            base's values do not carry (red team 21's ln_rowzero: when
 *            every row was offset, row 0 named the launch, and a one-pass
 *            variance wherever row 0 looked `uniform` was ok and 1.49x
 *            "faster"); each such row has a large mean, X = m_r + w_r
 *            U[-1, 1) with |m_r| / w_r log-uniform in [4, 16) (red team
 *            310 row 1: a one pass gated on mean / stdev over 13.5 was
 *            ok while the rows had 13.9..27.7) and w_r a secret
 *            scale in [2^-6, 1) of the row's own (red team 308 row 2:
 *            with w_r 1 a one-pass variance where |x[0]| < 4, lnpass.c,
 *            was ok 6 of 6 runs and wrong on rows of mean 0.5..3; down
 *            to 2^-6 the variance, 8e-5 and more, stays over 8 eps):
 *            mean/stdev 7..28, so a one-pass variance
 *            E[x^2] - E[x]^2 in fp32 cancels (rel L2 2.6e-4, 28x a
 *            two-pass kernel's 9e-6 at C = 768) and fails fp32 at C
 *            under about 8192 (above, the tolerance's growth lets a
 *            16-lane one-pass pass: red team 95, ok 6 of 6 at C 8192,
 *            and no faster than a shifted one-pass).  A larger
 *            offset would also fail an honest two-pass fp32 kernel (its
 *            error is the mean's rounding error times mean/stdev: 3e-5 at
 *            mean/stdev 80), and one distribution serves every dtype, so in
 *            fp16/bf16 runs the one-pass error (3e-4..1.2e-3) stays inside
 *            the output's own rounding and passes
 *   tiny     X as `uniform` except 1..8 secret rows (as offset's) with
 *            X = m_r + U[-1, 1) * 2e-3, |m_r| < 4e-3: var ~1.3e-6 < eps,
 *            so eps matters (forgetting it, or adding it to the stdev,
 *            fails)
 *   spikes   X as `uniform` except 2..4 elements of +-(100..1000) at
 *            secret columns of 1..8 secret rows: statistics taken from
 *            part of a row miss them and get the row's variance wrong by
 *            orders of magnitude (red team 95: the statistics of each
 *            row's first quarter passed every other distribution at C
 *            2^22, ok 31 of 31 and promoted by eval; simulated, such a
 *            kernel fails every `spikes` launch, 88.8x its bound, and
 *            naive.c's two-pass stays at 0.04x of it)
 *
 * FLOPs: 8 R C (per element: 1 for the mean, 3 for the variance, 4 to
 * normalise, scale and shift).  Fewest bytes: X, gamma, beta read once, Y
 * written once: (2 R C + 2 C) elements.
 *
 * Tolerances: the rule of evident_problem.h.  fp32 is 2e-5 * min(16, max(1,
 * sqrt(C / 256))) for atol, rtol and rel_l2: on `offset` an honest two-pass
 * fp32 kernel's error is the mean's rounding error amplified by
 * mean/stdev, and grows like sqrt(C) for a sequential sum (measured in
 * tests/unit/test_problems.c).  At 1e-5 the honest kernel's worst element
 * reached 0.97x (C 768) and 1.08x (C 256) of its bound over 2000 `offset`
 * launches of R 256 each (a sequential-sum simulation: about 1 launch in
 * 1000 refused; t0150 met one, max |err| 6.2e-5); at 2e-5 its worst is
 * 0.54x, and a one-pass variance still fails 94% of `offset` launches
 * (median 3.9x its bound).  The growth stops at 16x (3.2e-4, from C
 * 65536): with no cap, the statistics of a quarter of each row passed
 * at C 2^22 (red team 95), and an fp32 sequential sum over millions of
 * elements is not an fp32 layernorm (naive.c is wrong_output at C 2^22
 * either way: its sum stalls near 5e7).  fp16 5e-3, bf16
 * 2e-2/2e-2/1.5e-2.
 */
#include <math.h>
#include <stdio.h>

#include "evident_problem.h"
#include "evident_mix_fold.h"

enum { KR, KC };

static int ln_check(const long long *s, char *err, size_t errlen)
{
	if (s[KR] > 0 && s[KC] > 0)
		return 0;
	snprintf(err, errlen, "R and C must both be at least 1");
	return -1;
}

static double ln_scalar(const long long *s)
{
	(void)s;
	return 1e-5;
}

static double ln_flops(const long long *s)
{
	return 8.0 * (double)s[KR] * (double)s[KC];
}

static double ln_min_bytes(const long long *s, size_t elem_bytes)
{
	return (2.0 * (double)s[KR] * (double)s[KC] + 2.0 * (double)s[KC]) * (double)elem_bytes;
}

/*
 * X's base, shared by every distribution: uniform in [-1, 1) from the low
 * 40 bits of the seed alone (softmax.c says why); the stress rows' places
 * come from every bit.
 */
#define LN_BASE_BITS 40
/* `spikes`: X as `uniform` except 2..4 elements of +-(100..1000) at secret
 * columns of 1..8 secret rows (red team 95). */
static void ln_fill_spikes(const long long *s, uint64_t seed, float *X)
{
	const long long R = s[KR], C = s[KC];
	uint64_t sx = (seed ^ 0x7370696b6573ULL) * 0x9e3779b97f4a7c15ULL + 11; /* "spikes" */
	int rows = 1 + (int)(ev_splitmix64(&sx) % 8);
	for (int k = 0; k < rows; k++) {
		float *x = X + (long long)(ev_splitmix64(&sx) % (uint64_t)R) * C;
		int n = 2 + (int)(ev_splitmix64(&sx) % 3);
		for (int j = 0; j < n; j++) {
			double v = 550.0 + 450.0 * ev_uniform_pm1(&sx);
			x[ev_splitmix64(&sx) % (uint64_t)C] = (float)(ev_splitmix64(&sx) & 1 ? -v : v);
		}
	}
}

/*
 * Scattered outliers (red team 298 row 2): in the launches that have lead
 * rows (below), every row holds n = min(16, max(1, C / 1024)) single
 * outliers at secret columns of its own, each (50..100) sd of U[-1, 1)
 * from the row's mean, of either sign.  The lead runs sit at column 0
 * only, so red team 298's lnlast.c, the same shifted one pass by x[C - 1]
 * or x[C / 2], was ok 18 of 18 runs and `validated`; it cancels by
 * ((E[x] - x[k]) / sd)^2 wherever x[k] is an outlier of its row, from
 * whatever fixed column k it is taken.  A column is now an outlier in
 * some row of a launch with chance about 1 - exp(-R n / C) (R / 1024 for
 * C >= 1024: 22% at R 256, 98% at R 4096), whichever column a kernel
 * shifts by, and a row so hit is refused by the element rule alone as
 * when every row held one (shiftcheck.c: 1.2x-3.1x its bound): the rule's
 * element bound is atol times the launch's largest output, which the
 * outliers set (~29 sd' of a row whose sd' they raise), not diluted by
 * the other rows as rel L2 is.  n a^2 / C stays near 5.5 sd^2 whatever C,
 * so each outlier stays ~29 of its row's sd' (2.56 sd): more a row would
 * pull them under the ~20 sd' where the shift still fails.  Measured
 * (test_layernorm_scatter): the shifts by x[C - 1] and x[C / 2] refused on
 * about a fifth of these launches at R 256 C 1024, the two-pass and a
 * Welford kernel on none of any distribution.
 */
static void ln_fill_scatter(const long long *s, uint64_t seed, float *X)
{
	const long long R = s[KR], C = s[KC], n = C / 1024 > 16 ? 16 : C / 1024 > 1 ? C / 1024 : 1;
	const double sd = 0.5773502691896258; /* of U[-1, 1), the rows as drawn */
	uint64_t sx = (seed ^ 0x73636174ULL) * 0x94d049bb133111ebULL + 17; /* "scat" */
	for (long long r = 0; r < R; r++) {
		float *x = X + r * C;
		for (long long k = 0; k < n; k++) {
			double a = (75.0 + 25.0 * ev_uniform_pm1(&sx)) * sd;
			x[ev_splitmix64(&sx) % (uint64_t)C] = (float)(ev_splitmix64(&sx) & 1 ? -a : a);
		}
	}
}

/*
 * Lead rows (red team 296): in half the `uniform` launches (a bit from
 * every bit of the seed), 4..16 rows at secret places begin with a run of
 * n elements at m +- a, m and sd the statistics of the rest of the row as
 * drawn, a = (50..100) sd, n = 1 in half the rows, else 1..min(16, C /
 * 1024).  Red team 296's lnshift.c SHIFT 1, statistics in one pass over
 * x - x[0], which README called honest on every distribution, cancels by
 * ((E[x] - x[0]) / sd)^2 where x[0] is an outlier of its row (1.2x..3x
 * the fp32 rule at C 1024, x[0] 16..550 among U[-1, 1)), and no fill put
 * one there but `spikes`, at a secret column (~1 launch in 80 of it): it
 * was ok 21 of 21 runs.  Simulated at R 256, C 1024 (the problem's fill,
 * reference and rule): it fails 90% of the launches with lead rows now
 * (142 of 158), the two-pass, naive.c's sequential two-pass and a
 * sequential Welford kernel stay under 0.02x of their bound (their mean
 * stays near 0, so its rounding is not amplified).  Any shift by leading
 * elements is the same method, so the run: a shift by the mean of the
 * first k <= n cancels as x[0]'s does (refused at C 65536 and up,
 * simulated); with k > n it cancels by at most C / k and is honest
 * enough, whatever the fill.  The bounds are the rule's and the honest
 * kernels': a run of n elements d from the mean adds n d^2 / C to the
 * variance, so |x[0] - E[x]| / sd <= sqrt(C / n), and under 50 sd a
 * single outlier at C 1024 hardly cancels (0.74x the rule at x[0] 16,
 * red team 296); and n a^2 is the sum of squares a sequential fp32 sum
 * carries before the rest of the row, so n stops at 16 (with C / 1024
 * up to 976 at C 10^6, naive.c read 2.3x its bound, simulated; at 16,
 * 0.34x, 0.5x with no lead rows).  Half the launches, not all: the
 * outlier's output (up to ~45) is the launch's ref_scale, which loosens
 * atol * ref_scale ~15x in a launch with a lead row, so the other half
 * keeps `uniform`'s tight element rule.  On CUDA a timed launch mixes
 * `uniform`'s rows whole (ln_mix_fold), so a lead row keeps its run.
 */
static void ln_fill_lead(const long long *s, uint64_t seed, float *X)
{
	const long long R = s[KR], C = s[KC], kmax = C / 1024 > 16 ? 16 : C / 1024 > 1 ? C / 1024 : 1;
	uint64_t sx = (seed ^ 0x6c656164ULL) * 0xbf58476d1ce4e5b9ULL + 13; /* "lead" */
	if (C < 2 || !(ev_splitmix64(&sx) & 1))
		return;
	ln_fill_scatter(s, seed, X);
	int rows = 4 + (int)(ev_splitmix64(&sx) % 13);
	if (rows > R) /* one read of a row a draw: at R 1, C 2^26 a fill reads it once */
		rows = (int)R;
	for (int k = 0; k < rows; k++) {
		float *x = X + (long long)(ev_splitmix64(&sx) % (uint64_t)R) * C;
		long long n = ev_splitmix64(&sx) & 1 ? 1 : 1 + (long long)(ev_splitmix64(&sx) % (uint64_t)kmax);
		/* the rest's statistics in one pass, in double: its values are
		 * `uniform`'s (or an earlier lead's), so nothing cancels */
		double s1 = 0, s2 = 0;
		for (long long c = n; c < C; c++) {
			s1 += x[c];
			s2 += (double)x[c] * x[c];
		}
		const double m = s1 / (double)(C - n), v = fmax(s2 / (double)(C - n) - m * m, 0.0);
		double a = (75.0 + 25.0 * ev_uniform_pm1(&sx)) * sqrt(v);
		if (ev_splitmix64(&sx) & 1)
			a = -a;
		for (long long c = 0; c < n; c++)
			x[c] = (float)(m + a * (1.0 + 0.01 * ev_uniform_pm1(&sx)));
	}
}

static void ln_fill(const long long *s, int dist, uint64_t seed, float *const *in)
{
	const long long R = s[KR], C = s[KC];
	float *X = in[0], *gamma = in[1], *beta = in[2];
	uint64_t st = (seed & ((1ULL << LN_BASE_BITS) - 1)) * 0x2545f4914f6cdd1dULL + 1;
	for (long long c = 0; c < C; c++)
		gamma[c] = (float)(1.0 + 0.5 * ev_uniform_pm1(&st));
	for (long long c = 0; c < C; c++)
		beta[c] = (float)(0.5 * ev_uniform_pm1(&st));
	for (long long i = 0; i < R * C; i++)
		X[i] = (float)ev_uniform_pm1(&st);
	if (dist == 0) {
		ln_fill_lead(s, seed, X);
		return;
	}
	if (dist == 3) {
		ln_fill_spikes(s, seed, X);
		return;
	}
	/* 1..8 stress rows at secret places */
	uint64_t sx = (seed ^ 0x6f6666736574ULL) * 0x9e3779b97f4a7c15ULL + 7; /* "offset" */
	int rows = 1 + (int)(ev_splitmix64(&sx) % 8);
	for (int k = 0; k < rows; k++) {
		float *x = X + (long long)(ev_splitmix64(&sx) % (uint64_t)R) * C;
		double m, w = 1;
		if (dist == 1) {
			/* at a secret scale 2^-6..1 of its own (red team 308 row
			 * 2): mean / stdev alike whatever the scale */
			w = exp2(-3.0 - 3.0 * ev_uniform_pm1(&sx));
			/* |m| / w log-uniform in [4, 16): mean / stdev 6.9..27.7
			 * (red team 310 row 1: at 13.9..27.7 alone, a one pass
			 * that redoes a row in two where mean / stdev > 13.5,
			 * lnratio.c, was ok 12 of 12 and wrong from ~7 up) */
			m = exp2(3.0 + ev_uniform_pm1(&sx)) * w;
			if (ev_splitmix64(&sx) & 1)
				m = -m;
		} else {
			m = 4e-3 * ev_uniform_pm1(&sx);
			w = 2e-3;
		}
		for (long long c = 0; c < C; c++)
			x[c] = (float)(m + w * ev_uniform_pm1(&sx));
	}
}

/* evident_mix_fold.h: `uniform`'s rows mix whole on CUDA (each row of a
 * timed launch from one base of its pair), so that a lead row keeps its
 * run (red team 296, ln_fill_lead): the fold on C at modulus 1 gives every
 * element of row r the bit of element (r, 0).  Mixed element by element,
 * a run of n would keep about half its elements, each a hole of U[-1, 1)
 * from the other base, and a shift by the mean of the first k would
 * cancel by about a quarter as much.  Both bases are `uniform` draws, so
 * the mixed launch is again one of `uniform`, a lead row at about half
 * of each base's places.  The other distributions mix element by element
 * as before (their stress rows too: an `offset` row mixed so is half
 * U[-1, 1), a residual noted in red team 296's README, not this row's). */
static int ln_mix_fold(const long long *s, int dist, int input, int *dim, long long *modulus)
{
	if (dist != 0 || input != 0 || s[KC] < 2)
		return 0;
	*dim = 1;
	*modulus = 1;
	return 1;
}

static void ln_reference(const long long *s, double eps, const float *const *in,
			 double *const *out)
{
	const long long R = s[KR], C = s[KC];
	const float *gamma = in[1], *beta = in[2];
	for (long long r = 0; r < R; r++) {
		const float *x = in[0] + r * C;
		double *y = out[0] + r * C, mean = 0, var = 0;
		for (long long c = 0; c < C; c++)
			mean += x[c];
		mean /= (double)C;
		for (long long c = 0; c < C; c++)
			var += ((double)x[c] - mean) * ((double)x[c] - mean);
		var /= (double)C;
		const double rstd = 1.0 / sqrt(var + eps);
		for (long long c = 0; c < C; c++)
			y[c] = ((double)x[c] - mean) * rstd * (double)gamma[c] + (double)beta[c];
	}
}

static void ln_tolerance(int dtype, const long long *s, struct ev_tolerance *t)
{
	if (dtype == EV_F16) {
		*t = (struct ev_tolerance){ 5e-3, 5e-3, 5e-3 };
	} else if (dtype == EV_BF16) {
		*t = (struct ev_tolerance){ 2e-2, 2e-2, 1.5e-2 };
	} else {
		double f = sqrt((double)s[KC] / 256.0);
		double v = 2e-5 * (f < 1 ? 1 : f > 16 ? 16 : f);
		*t = (struct ev_tolerance){ v, v, v };
	}
}

static long long odd_part(long long x)
{
	long long e = (x < 512 ? x : 512) * 397 / 512;
	if (e % 2 == 0)
		e = e > 1 ? e - 1 : 1;
	return e < 1 ? 1 : e;
}

static int ln_extra_shape(const long long *s, long long *o)
{
	o[KR] = s[KR] < 37 ? s[KR] : 37;
	o[KC] = odd_part(s[KC]);
	return 0;
}

static void ln_small_shape(const long long *s, long long *o)
{
	o[KR] = s[KR] < 4096 ? s[KR] : 4096;
	o[KC] = s[KC] < 4096 ? s[KC] : 4096;
}

static const struct ev_problem_desc layernorm = {
	.abi_version = EVIDENT_PROBLEM_ABI_VERSION,
	.struct_size = sizeof(struct ev_problem_desc),
	.name = "layernorm",
	.summary = "Y = (X - mean) / sqrt(var + eps) * gamma + beta over each row of X [R,C]",
	.scalar_doc = "eps added to the variance, 1e-5",
	.n_keys = 2,
	.shape_keys = { "R", "C" },
	.n_tensors = 4,
	.tensors = {
		{ "X", 0, 2, { KR, KC } },
		{ "gamma", 0, 1, { KC } },
		{ "beta", 0, 1, { KC } },
		{ "Y", 1, 2, { KR, KC } },
	},
	.n_dists = 4,
	.dists = { "uniform", "offset", "tiny", "spikes" },
	.dist_docs = {
		"X uniform in [-1, 1); gamma in [0.5, 1.5), beta in [-0.5, 0.5); in half the launches 4..16 secret rows "
		"lead with a run of 1..min(16, C/1024) elements at +-(50..100) sd of the rest of the row: a one pass "
		"shifted by x[0] cancels",
		"as uniform except 1..8 secret rows of mean +-(8..16), spread U[-1, 1): a one-pass fp32 variance "
		"cancels (fails fp32); no row names the launch",
		"as uniform except 1..8 secret rows of mean below 4e-3, spread 2e-3: the variance is below eps, so "
		"eps matters",
		"as uniform except 2..4 elements of +-(100..1000) at secret columns of 1..8 secret rows: statistics "
		"of part of a row miss them",
	},
	.check = ln_check,
	.scalar = ln_scalar,
	.flops = ln_flops,
	.min_bytes = ln_min_bytes,
	.fill = ln_fill,
	.reference = ln_reference,
	.tolerance = ln_tolerance,
	.extra_shape = ln_extra_shape,
	.small_shape = ln_small_shape,
};

EVIDENT_DEFINE_PROBLEM(layernorm)
EVIDENT_DEFINE_MIX_FOLD(ln_mix_fold)
