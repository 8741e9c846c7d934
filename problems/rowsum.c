/*
 * rowsum.c - the reduction Y[r] = sum over c of X[r][c]: X [R, C], Y [R],
 * dense row-major.  ev_launch.scale is unused.  A plug-in of
 * evident_problem.h.
 *
 * Distributions (correctness seed i uses distribution i % 5).  Each row of
 * `uniform`, `padded` and `spikes` is then multiplied by a secret scale
 * 2^k_r from the seed and the row, inside [-60, 0] for fp32 and bf16 and
 * [-14, 0] for fp16: in a launch one secret row at the sample's k (drawn
 * from every bit of the seed), and in three launches in four every other
 * row at its own k_r under it, in the fourth every row at k (red team
 * 286: a fixed-point sum at a 2^-20 step was exact only at the one scale
 * the fill drew; red team 291: one at a 2^-32 step was exact over fp16's
 * range, drawn for every dtype; red team 293: one at a step from the
 * launch's first element was exact while every row shared the scale;
 * rowsum_scale_exp and rowsum_row_exp say why these ranges, why not
 * `cancel` and `positive`, and how the normwise rule weighs rows at
 * different scales).  The ranges below are before the scale:
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
 *   padded    `uniform` with a run of exact zeros in every row, C/8..C/2
 *             long, at the row's head in half the rows and at a secret
 *             place in the others (never the whole row): a step or scale
 *             taken from the row's head is wrong (red team 286's headsum,
 *             ok 24 of 24 runs before)
 *   spikes    `uniform` with 1..2 elements of +-[4096, 16384) (one sign a
 *             row, by its index: no two cancel) at secret
 *             columns of 1..8 secret rows (as layernorm's spikes): a scale
 *             taken from part of a row misses them (headsum's int32 lanes
 *             overflow).  Apart from `padded`: the rule is normwise, so a
 *             spike in the launch loosens every row's bound by ~10^4
 *
 * FLOPs: R C (C adds per row, counting the first).  Fewest bytes: X read
 * once, Y written once: (R C + R) elements.
 *
 * Tolerances: the rule of evident_problem.h.  fp32 is 1e-5 * max(1,
 * sqrt(C / 1024)) for atol, rtol and rel_l2 (an honest sequential fp32
 * sum's error grows like sqrt(C); measured in tests/unit/test_problems.c).
 * fp16 5e-3, bf16 2e-2/2e-2/1.5e-2: honest kernels accumulate in fp32 and
 * round once.  The scales change none of them: they are exact, the
 * reference sums the inputs as rounded, an honest row's error is relative
 * to its own magnitude, and the rule's atol is relative to max |ref| (the
 * launch's top rows), so a row under the top is held to a looser bound,
 * never a tighter one (the test measures each distribution over seeds of
 * every scale, one-scale and spread launches both).
 *
 * Each row at its own magnitude (red team 293, rows 4 and 4b; the focus,
 * evident_focus.h, rowsum_focus below): besides the rule, up to 4096 rows
 * (every row where R <= 4096; else secret rows, half of them spread over
 * the binades of the rows' scales, so the rows far under the launch's top
 * are drawn as often as the top's) are judged one by one, each within
 *     rho |S_r| + phi A_r,   S_r = sum_c X[r][c],  A_r = sum_c |X[r][c]|
 * (float64, from the inputs as rounded), rho the rule's fp32 rtol (1e-5
 * max(1, sqrt(C / 1024)), an honest sum's error where every partial sum
 * grows with S_r: `positive`) plus the output's rounding (fp16 2^-9, bf16
 * 2^-6: 4x), phi 2e-7 (fp32, mixed signs: uniform, padded, spikes; 1e-5
 * on cancel and positive, fp32's atol below C 1024; fp16 and bf16 1e-4),
 * and fp16 2^-24 more (its subnormal step): the rule's atol max |ref|
 * with the launch's largest sum replaced by the row's own sum of |x|.  So
 * a row 2^d under the launch's top is no longer allowed 2^d times its own
 * error, and a kernel that writes 0 for (skips) or wraps the rows far under
 * the top is refused where the normwise rule passed it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "evident_fill_dtype.h"
#include "evident_focus.h"
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

/*
 * The sample's secret scale (red team 286, row 1): X of `uniform`,
 * `padded` and `spikes` is multiplied by 2^k, k uniform in
 * [ROWSUM_SCALE_MIN, 0], drawn from every bit of the seed (since red team
 * 293 the scale of the launch's top rows; rowsum_row_exp draws the
 * others').  A method
 * exact only at the scale the fill draws (fixsum.c: a fixed-point sum at
 * a 2^-20 step, chosen for |x| < 16) was ok 48 of 48 runs and wrong on a
 * user's data.  A power of two is exact in fp32 and bf16 (no input here
 * comes near their range's ends), the reference sums what the kernel
 * saw, and the rule of evident_problem.h is normwise relative, so every
 * tolerance stays as measured.  Not above 2^0: one distribution serves
 * every dtype and `spikes`' outliers (up to 2 x 16384 a row) must stay
 * inside fp16 (65504).  Not below 2^-14: there every fp16 `uniform`
 * input is already subnormal (fewer bits, still exact as the reference
 * sees them; one in 2^11 rounds to zero), and an fp16 output of a row
 * sum stays normal for rows of more than a few elements.
 *
 * `cancel` and `positive` keep their ranges: their point is an
 * accumulator's relative precision, which a scale does not change,
 * `positive`'s sum (~24576) already sits near fp16's top, and a run meets
 * the scale anyway (the timing distribution has it, and every run checks
 * every distribution: a method must pass all of them).  A choice with a
 * cost: a kernel can still tell `cancel` and `positive` by X[0] >= 1, as
 * red teams 115-233's fixtures do, and be exact only there.
 *
 * Measured (tests/unit/test_problems.c test_rowsum_rule): the honest
 * fp32, fp16 and bf16 sums pass 16 of 16 seeds of every distribution at
 * C 1000 and 65536; a 2^-20 step is refused on 10 of 16 `uniform` seeds
 * (k <= -6).
 *
 * fp32 and bf16 (red team 291, row 1): [-14, 0] is fp16's range, and
 * fill() draws one set for every dtype, so fp32 never saw a scale under
 * 2^-14: fix32.c, a fixed-point sum at a 2^-32 step in int64, was `ok` 12
 * of 12 runs, `validated` and 1.8x `faster` supported, and 6x over the
 * rule on fp32 gradients of 1e-6.  The dtype-aware fill
 * (evident_fill_dtype.h, rowsum_fill_dtype) draws k in [-60, 0] for fp32
 * and bf16 (their exponents reach 2^-126: no input comes near it, no
 * subnormal): 61 binades, which no int64 fixed point spans with a float's
 * 24 bits and a row's sqrt(C) (that takes ~100 bits), so a fixed step
 * fine enough for 2^-60 wraps on `spikes` at 2^0, and one that does not
 * is wrong at the small scales (fix32's 2^-32: every k <= -18, 43 of
 * 61); an honest sum is exact under the scale at every k.  Not above
 * 2^0: the largest sums stay fill()'s, and `uniform` keeps |x| < 1, so
 * X[0] >= 1 still marks `cancel` and `positive` (a known leak, above:
 * dozens of red teams' fixtures and tests rest on it, and a wider top
 * would blur it for them without closing it).  fill() keeps fp16's range, for the
 * judge's fingerprint and any caller without a dtype.  Measured
 * (test_rowsum_rule): fix32 refused on 45, 45 and 37 of 64 fp32 seeds of
 * `uniform`, `padded` and `spikes` at C 4096; the honest fp32 and bf16
 * sums pass every distribution at 2^-60 and at 2^0, C 1000 to 65536.
 */
#define ROWSUM_SCALE_MIN (-14)
#define ROWSUM_SCALE_MAX 0
#define ROWSUM_WIDE_SCALE_MIN (-60)
#define ROWSUM_WIDE_SCALE_MAX 0
static int rowsum_scale_exp(uint64_t seed, int kmin, int kmax)
{
	uint64_t sk = (seed ^ 0x7363616c65ULL) * 0x9e3779b97f4a7c15ULL + 13; /* "scale" */
	return kmin + (int)(ev_splitmix64(&sk) % (uint64_t)(kmax - kmin + 1));
}

/*
 * One scale a row (red team 293, rows 4 and 4b).  The scale above was one
 * a sample, shared by every row of a launch, so one element told a kernel
 * the scale of all of it: headfix.c, an int64 fixed-point sum at a step
 * from the launch's first nonzero element with 2^27 of headroom, was `ok`
 * 12 of 12 runs, `faster` 4 of 4 and promoted by eval 3 of 3, and wraps
 * on a batch of rows in different units (10^-4 .. 10^3 a row), on X[0] =
 * 1e-9, on row 0 at 1e-6 beside rows at 1.  Now row r of `uniform`,
 * `padded` and `spikes` is at 2^k_r, from the seed and r:
 *
 *   the launch's top    k_s = rowsum_scale_exp(seed), as before, in the
 *                       same dtype-dependent range [kmin, 0] (its ends
 *                       kept: ROWSUM_WIDE_SCALE_MAX 0 leaves X[0] >= 1 a
 *                       mark of `cancel`/`positive`, which many fixtures
 *                       and tests rest on)
 *   one launch in four  (a secret draw of the seed) every row at k_s: the
 *                       old fill, where every row is judged at its own
 *                       magnitude (below)
 *   the other three     a secret block of ROWSUM_TOP_ROWS consecutive
 *                       rows (wrapping; all rows where R is no more) at
 *                       k_s and every other row at its own k_r = k_s -
 *                       d_r in [kmin, k_s], d_r the larger of two uniform
 *                       draws in [0, k_s - kmin] (most rows far under the
 *                       top): rows up to 2^60 apart (fp16 2^14), in no
 *                       order, so no element or row tells the others'
 *                       scale.  A block, not one row: max |ref| is the
 *                       rule's scale, and one top row whose sum happens to
 *                       cancel (|sum| 0.05 of its spread: 4% of rows) held
 *                       the honest fp32 sum at C 65536, R 8 to its own
 *                       tiny sum (rel error 1.6e-4 against 8e-5,
 *                       test_rowsum_rule); the largest of 8 such sums is
 *                       what the old fill's R 8 launches gave
 *
 * The rule (evident_problem.h, problem_check_output) is normwise where it
 * is not elementwise: atol times ref_scale = max |ref| over the whole
 * output, and rel_l2 over the whole output; only rtol |ref_r| is a row's
 * own.  So in a spread launch a row far under the top is judged by the
 * top rows' magnitude, not its own (a row 2^d under them is allowed about
 * 2^d times its own bound): a method wrong only on rows 2^17 or more
 * under the launch's largest (fp32's atol, 1e-5 ~ 2^-17) passed there,
 * as it would on a user's batch under this rule (as `spikes` loosens
 * every row's bound, the reason `padded` is a distribution of its own);
 * skiprow.c, rows 2^28 under written 0, was `ok` in every run.  Since,
 * every row is judged at its own magnitude as well (rowsum_focus).
 * That is why the top block stays at the sample's k_s and a fourth of the
 * launches keep one scale: the launch's magnitude, hence atol ref_scale,
 * is the old fill's; every row of a one-scale launch, and of the top
 * block, is judged at its own magnitude as before; and each method the
 * old fill refused for a small scale (fixsum, fix32: judged at the top
 * block) or a zero head (headsum: `padded`) meets the same data there.
 * What the spread launches add: a step or scale from part of the launch
 * wraps on a row 2^27 over the part it read (headfix).  An honest sum
 * passes: its error in each row is relative to that row's own magnitude,
 * so a row under the top meets a looser bound than its own, and the top
 * block's largest sum is the scale the old fill's launches of 8 rows had.
 *
 * On CUDA the timed inputs are two base sets of one distribution (two
 * seeds) mixed element by element (src/backends/scramble.h; rowsum has no
 * mix_fold), so a mixed row holds elements of two rows at two scales,
 * 2^kA_r and 2^kB_r.  The rows then do not keep one scale each; the rule
 * still holds: the reference sums the mixed inputs as they are, an honest
 * row sum's error is relative to the larger of its two parts (which its
 * sum and its bound carry), and a step from part of the launch meets
 * rows (and within a row, elements) up to 2^60 apart: it wraps more, not
 * less.  Measured (tests/unit/test_problems.c test_rowsum_rule): the
 * honest fp32, fp16 and bf16 sums pass every distribution at C 1000,
 * 4096 and 65536 over 16 seeds (64 of `spikes`), and at the range's ends;
 * headfix simulated (a step from the launch's first nonzero element,
 * 2^27 of headroom) is refused on 24, 24 and 28 of 64 fp32 seeds of
 * `uniform`, `padded` and `spikes` (it wraps where the first element's
 * row lies ~2^21 under another: a run's ~20 checks of these three meet
 * that in every run, t0349); fix32, fixsum and headsum are refused as
 * often as under one scale a launch (fix32 46, 46, 45 of 64 seeds, was
 * 45, 45, 37; fixsum 12, 12, 13 of 16, was 12, 12, 15; headsum on
 * `padded` and `spikes` 12 and 14 of 16, was 12 and 16).  Under the old
 * fill the simulated headfix was refused on 0 of 64.  The honest fp32,
 * fp16 and bf16 sums also passed 150 seeds of each scaled distribution
 * at R 37 C 3001, R 16 and 9 at C 65536 and R 64 C 4096 (worst fp32 rel
 * L2 1.3e-5 against 8e-5, at R 9 C 65536), checked once by hand.
 */
#define ROWSUM_TOP_ROWS 8
static int rowsum_row_exp(uint64_t seed, long long r, long long R, int kmin, int kmax)
{
	const int ks = rowsum_scale_exp(seed, kmin, kmax);
	uint64_t sl = (seed ^ 0x726f7773ULL) * 0x9e3779b97f4a7c15ULL + 19; /* "rows" */
	uint64_t h = ev_splitmix64(&sl);
	const long long top = ROWSUM_TOP_ROWS < R ? ROWSUM_TOP_ROWS : R;
	const long long at = (long long)((h >> 2) % (uint64_t)R);
	if (h % 4 == 0 || (r - at + R) % R < top)
		return ks; /* a one-scale launch, or the spread launch's top block */
	/* d_r, how far under the top: the larger of two uniform draws in
	 * [0, ks - kmin], so most rows lie far under it (P(d_r > 21) = 1 -
	 * (22 / (span + 1))^2: 0.87 at the widest span) */
	uint64_t sr = (seed ^ 0x726f77ULL) * 0x9e3779b97f4a7c15ULL + (uint64_t)r * 0xbf58476d1ce4e5b9ULL; /* "row" */
	const uint64_t n = (uint64_t)(ks - kmin + 1);
	const int d1 = (int)(ev_splitmix64(&sr) % n), d2 = (int)(ev_splitmix64(&sr) % n);
	return ks - (d1 > d2 ? d1 : d2);
}

/*
 * `padded` and `spikes` (red team 286, row 2): rows that are not alike
 * along their length, as real data has them (padding, a few large
 * entries).  headsum.c took each row's fixed-point step from its first 16
 * elements and was ok 24 of 24 runs: exact at every scale, wrong on a
 * zero-padded head and on one outlier past its headroom.  Two
 * distributions, not one: the rule is normwise (atol times the largest
 * |ref| of the whole output), so a spike row of 10^4 in the same launch
 * would loosen the bound of every padded row by as much.
 *
 * `padded`: `uniform`, then in every row a run of exact zeros of secret
 * length C/8 .. C/2 (at least 1 when C >= 2), at the row's head in half
 * the rows (left padding) and at a secret place in the others; never the
 * whole row, so no row sum is zero by construction and every row keeps
 * C/2 or more nonzero elements (evident_problem.h asks a fill to avoid
 * exact zeros: here they are the point, and the rule's ref_scale comes
 * from rows that are never empty).
 */
static void rowsum_fill_padded(const long long *s, uint64_t seed, float *X)
{
	const long long R = s[KR], C = s[KC];
	if (C < 2)
		return;
	uint64_t sp = (seed ^ 0x706164646564ULL) * 0x9e3779b97f4a7c15ULL + 17; /* "padded" */
	long long lo = C / 8 > 1 ? C / 8 : 1, hi = C / 2;
	for (long long r = 0; r < R; r++) {
		float *x = X + r * C;
		long long len = lo + (long long)(ev_splitmix64(&sp) % (uint64_t)(hi - lo + 1));
		long long at = ev_splitmix64(&sp) & 1 ? 0 : (long long)(ev_splitmix64(&sp) % (uint64_t)(C - len + 1));
		for (long long c = at; c < at + len; c++)
			x[c] = 0.0f;
	}
}

/* `spikes`: `uniform`, then 1..8 secret rows hold 1..2 elements of
 * +-[4096, 16384) each at secret columns (as layernorm's spikes): a scale
 * or step taken from part of a row misses them (headsum's int32 step
 * overflows past 2^13 times its head's largest).  At most two a row and
 * 2^0 the largest scale keep the sum inside fp16. */
static void rowsum_fill_spikes(const long long *s, uint64_t seed, float *X)
{
	const long long R = s[KR], C = s[KC];
	uint64_t sx = (seed ^ 0x7370696b6573ULL) * 0x9e3779b97f4a7c15ULL + 11; /* "spikes" */
	int rows = 1 + (int)(ev_splitmix64(&sx) % 8);
	/* a row's spikes all take one sign, fixed by the row's index: two of
	 * opposite signs in one row (two in a row, a row drawn twice, or two
	 * timed inputs' spikes mixed element by element: mix_fold) cancel to a
	 * small sum that an honest fp32 sum still carries the big terms'
	 * rounding in, over the elementwise rule (naive.c wrong_output in 1
	 * of 16 timed checks, t0339 under make test's load, 2026-12-07).  The
	 * sign is no secret; where the spikes are is */
	for (int k = 0; k < rows; k++) {
		long long r = (long long)(ev_splitmix64(&sx) % (uint64_t)R);
		float *x = X + r * C;
		int neg = (int)((((uint64_t)r + 1) * 0x9e3779b97f4a7c15ULL) >> 63);
		int n = 1 + (int)(ev_splitmix64(&sx) % 2);
		for (int j = 0; j < n; j++) {
			double v = 10240.0 + 6144.0 * ev_uniform_pm1(&sx); /* [4096, 16384) */
			x[ev_splitmix64(&sx) % (uint64_t)C] = (float)(neg ? -v : v);
		}
	}
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
		if (dist == 3)
			rowsum_fill_padded(s, seed, X);
		else if (dist == 4)
			rowsum_fill_spikes(s, seed, X);
	}
	/* the rows' scales, last: exact (powers of two, no underflow in
	 * fp32), so each distribution keeps its structure; not `cancel` and
	 * `positive` (rowsum_scale_exp says why) */
	if (dist == 1 || dist == 2)
		return;
	for (long long r = 0; r < s[KR]; r++) {
		const float k = ldexpf(1.0f, rowsum_row_exp(seed, r, s[KR], ROWSUM_SCALE_MIN, ROWSUM_SCALE_MAX));
		for (long long c = 0; c < C; c++)
			X[r * C + c] *= k;
	}
}

/* evident_fill_dtype.h: fill(), then for fp32 and bf16 each row's scale
 * moved from fp16's range to the dtype's own (red team 291, row 1;
 * rowsum_scale_exp says why; rowsum_row_exp draws both from the same
 * seed and row): one more power of two a row, exact (every value stays
 * normal), so the distributions are fill()'s at other scales */
/*
 * One or two rows (R 1 above all: an extra shape draws R from [1, R] of
 * the spec's, and a one-row spec's is always 1): the normwise rule's
 * scales, max |ref| and the output's L2 norm, are those rows' own sums,
 * and a row whose terms cancel makes them tiny where an honest fp32 sum
 * errs ~1e-8 sum |x| whatever its sum: at R 1 the rule is purely
 * relative, and naive.c's sequential sum was refused on 2 of 80 `uniform`
 * seeds at C 1013 (its error 1.4e-5 and 5.6e-5 of the sum against 2e-5;
 * a `make test` of 2026-12-06 saw one; 16 of 2000 seeds of the five
 * distributions, none at R 2 or 7, where every row must cancel at once).
 * So at R 1 and 2 a `uniform`, `padded` or `spikes` row whose sum is
 * under a quarter of its L2 norm in size has its negative terms halved
 * (exact): its sum then is about C/8 of its terms' size, and an honest
 * sum meets the rule with 11 standard deviations to spare at the
 * threshold.  Always upward, so that such rows mixed on CUDA (element by
 * element) keep a sum of one sign; a spike row sums to about its spike
 * and is left as drawn (halving a negative spike and the row's negative
 * terms cancelled it at C 65535: 2 of 500 seeds).  Nothing a kernel can
 * use (it must sum the row to know), and the rule is the problem's at
 * every R, as every runner applies it: the first fix, the rule 1000x
 * looser at R 1 and 2 with the per-row focus the judge, let a runner
 * older than the focus (1ee74c004^, started in today's tree) record a
 * sum off by 3e-3 `ok` 10 of 10 at R 1 (red team 302 row 2).
 */
static void rowsum_few_rows_uncancel(const long long *s, float *X)
{
	const long long C = s[KC];
	for (long long r = 0; r < s[KR]; r++) {
		float *x = X + r * C;
		double sum = 0, sq = 0;
		for (long long c = 0; c < C; c++) {
			sum += (double)x[c];
			sq += (double)x[c] * (double)x[c];
		}
		if (!(fabs(sum) < 0.25 * sqrt(sq)))
			continue;
		for (long long c = 0; c < C; c++)
			if (x[c] < 0)
				x[c] *= 0.5f;
	}
}

static void rowsum_fill_dtype(const long long *s, int dist, uint64_t seed, int dtype, float *const *in)
{
	rowsum_fill(s, dist, seed, in);
	if (dtype == EV_F16 || dist == 1 || dist == 2)
		return;
	const long long C = s[KC];
	for (long long r = 0; r < s[KR]; r++) {
		const float k = ldexpf(1.0f, rowsum_row_exp(seed, r, s[KR], ROWSUM_WIDE_SCALE_MIN, ROWSUM_WIDE_SCALE_MAX) -
						     rowsum_row_exp(seed, r, s[KR], ROWSUM_SCALE_MIN, ROWSUM_SCALE_MAX));
		for (long long c = 0; c < C; c++)
			in[0][r * C + c] *= k;
	}
	if (s[KR] <= 2)
		rowsum_few_rows_uncancel(s, in[0]);
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

/*
 * Every row judged at its own magnitude (red team 293, rows 4 and 4b,
 * after its fix).  The rule above is normwise where it is not
 * elementwise: atol times max |ref| over the launch, and rel L2 over it.
 * Since rowsum_row_exp put the rows of three launches in four at their
 * own scales, up to 2^60 (fp16 2^14) under the launch's top block, a row
 * 2^d under the top was allowed about 2^d times its own bound: a kernel
 * that read each row's first element and wrote 0 for the rows 2^17 or
 * more under the launch's largest (skiprow.c) passed the spread launches
 * and was faster (tests/fixtures/adversary/host/redteam293/README.md,
 * "Fixed (rows 4 and 4b)").  So, for every distribution and dtype, the
 * entries of Y judged one by one (evident_focus.h; the checker asks after
 * the output exists, under a key the kernel never sees):
 *
 *   which rows   every row where R <= 4096 (EV_FOCUS_MAX); else 4096
 *                draws from the key, with replacement: the even ones
 *                uniform over the rows, the odd ones a binade of the rows'
 *                scales first, uniform over the binades some row is in,
 *                then a row of it, so the rows far under the launch's top
 *                are judged as often as the top's however few they are.
 *                A row's scale for this draw is the largest |x| among 16
 *                columns spread over it (c = j C / 16: a padded row's run
 *                of zeros is at most half of it; a CUDA mix's row holds
 *                two scales, and either serves), O(16 R); the bound itself
 *                reads the whole row
 *   the value    S_r = sum_c x_rc in float64 of the inputs as rounded (the
 *                reference's own sum)
 *   the bound    rho |S_r| + phi A_r + a,  A_r = sum_c |x_rc|, with
 *                  rho = t + u, t = 1e-5 max(1, sqrt(C / 1024)) the fp32
 *                      rule's rtol, u the output's rounding at 4x (fp32
 *                      2^-22, fp16 2^-9, bf16 2^-6)
 *                  phi = 2e-7 (fp32: uniform, padded, spikes), 1e-5
 *                      (fp32: cancel, positive), 1e-4 (fp16, bf16)
 *                  a = 2^-24 for fp16 (its subnormal step), else 0
 *
 * Why this shape.  An honest row sum accumulated in fp32, in any order,
 * errs by the roundings of its partial sums: where the terms' signs mix
 * (`uniform`, `padded`, `spikes`, a CUDA mix) the partial sums stay
 * O(sqrt(C)) times a term and the error is ~1e-8 A_r at any C (sequential
 * order: 0.42 u C / sqrt(6) against A = C / 2), so phi A_r (A_r, the
 * scale of the row's own terms, as gemm's T) holds it at any C; where
 * every partial sum grows to S_r (`positive`: A_r = |S_r|; `cancel`'s
 * first half) the error grows like u sqrt(C) |S_r|, which the rule's
 * rtol already followed (t), and like u sqrt(C) A_r / 2 on `cancel`
 * (sequential, C 65536: 0.34 of phi 1e-5 A_r).  So phi is by the
 * distribution: 1e-5 where the partial sums grow, 2e-7 where the signs
 * mix (red team 299 row 2 and red team 300 row 2: at 1e-5, about 1000x
 * an honest mixed-sign sum's error, a sum 32x less precise than fp32 on
 * the rows the rule cannot see, or one of inputs rounded to 10 bits at
 * R 1, passed; at 2e-7 the honest orders' worst is 0.35 of the bound,
 * `padded` sequential at C 64, below).  phi at fp16 and bf16 is 10x fp32's as
 * gemm's focus has it (the inputs are the dtype's, the accumulation
 * fp32's as in every honest kernel here; the rounding of the output is
 * rho's).  No term is the launch's: a row is held to its own magnitude,
 * wherever the top is.  A row written 0 errs |S_r|, which for a uniform
 * row is about 1.15 A_r / sqrt(C) times a normal draw: out of its bound
 * unless |S_r| < ~phi A_r (1 row in ~100 at C 65536 in fp32, ~1 in 10 in
 * fp16), so a kernel that skips a few hundred rows meets a bound it
 * misses in every spread launch.  Measured (tests/unit/test_problems.c
 * test_rowsum_focus: fp32 sums in five orders, sequential, pairwise,
 * Kahan, fltsum's 16 lanes and 32 lanes and a tree, each rounded once to
 * the dtype, every distribution at R 64 C 1000, R 8 C 65536, R 256 C
 * 4096 and R 8192 C 64, 16 seeds each; asserted under 0.5): the worst
 * error / bound is 0.35 (fp32 sequential, `padded` at C 64; `cancel` at C
 * 65536 0.34; pairwise 0.20, 32 lanes 0.17, Kahan 0.05, every order of
 * uniform, padded and spikes with phi 2e-7), fp16 0.22, bf16 0.24 (the
 * output's rounding).
 * skiprow simulated (rows 2^28 under the top written 0, fp32; 2^11 in
 * fp16) at R 256 C 4096 over 64 seeds of `uniform`, `padded` and
 * `spikes`: it skipped rows in 29, 29, 29 fp32 seeds (16, 16, 18 fp16),
 * the rule alone refused 0, 0, 0 of them (0, 0, 7 fp16), with the focus
 * every one; headfix refused by the rule alone in 24, 24, 28 of 64 fp32
 * seeds, with the focus 27, 26, 31 (the rows it truncates under the
 * top now count too).
 *
 * The rule's atol, rtol and rel L2 stay as they were (a spec's tolerance
 * still changes them, never these bounds: they are the problem's, as
 * gemm's are), so nothing that passed the rule at the launch's top and
 * is honest fails now, and the rows under it meet their own bounds.
 */
#define ROWSUM_FOCUS_BINS 128
#define ROWSUM_PHI_MIXED 2e-7
static double rowsum_row_scale(const float *x, long long C)
{
	double m = 0;
	for (int j = 0; j < 16; j++) {
		double v = fabs((double)x[(long long)((double)C * j / 16.0)]);
		m = v > m ? v : m;
	}
	return m;
}

static long long rowsum_focus(const long long *s, int dist, int dtype, uint64_t key, const float *const *in,
			      long long max, long long *index, double *value, double *bound)
{
	const long long R = s[KR], C = s[KC];
	if (R < 1 || C < 1 || max < 1)
		return 0;
	const double f = sqrt((double)C / 1024.0);
	const double t = 1e-5 * (f > 1 ? f : 1);
	double rho, phi, a = 0;
	if (dtype == EV_F16) {
		rho = t + 0x1p-9;
		phi = 1e-4;
		a = 0x1p-24;
	} else if (dtype == EV_BF16) {
		rho = t + 0x1p-6;
		phi = 1e-4;
	} else {
		rho = t + 0x1p-22;
		/* mixed signs (uniform, padded, spikes): partial sums stay
		 * O(sqrt(C)) terms, an honest sum errs ~1e-8 sum |x| (below);
		 * cancel's and positive's grow to ~sum |x| (1e-5) */
		phi = dist == 1 || dist == 2 ? 1e-5 : ROWSUM_PHI_MIXED;
	}
	const float *X = in[0];
	long long n = max < EV_FOCUS_MAX ? max : EV_FOCUS_MAX;
	const int all = R <= n;
	if (all) {
		n = R;
		for (long long r = 0; r < R; r++)
			index[r] = r;
	} else {
		uint64_t st = (key ^ 0x726f7773756dULL) * 0x2545f4914f6cdd1dULL + 7; /* "rowsum" */
		/* the rows by binade of their scale under the launch's top
		 * (counting sort): bin b holds the rows 2^b .. 2^(b+1) under
		 * it, the last bin every row further down or all zero */
		int *bin = malloc((size_t)R * sizeof(int));
		long long *order = malloc((size_t)R * sizeof(long long));
		long long cnt[ROWSUM_FOCUS_BINS + 1] = { 0 };
		int nbins = 0, occupied[ROWSUM_FOCUS_BINS];
		if (bin && order) {
			/* each row's binade once (ilogb is monotone: the top's is
			 * the largest), INT_MIN for a row read as all zero */
			int top = INT_MIN;
			for (long long r = 0; r < R; r++) {
				double m = rowsum_row_scale(X + r * C, C);
				bin[r] = m > 0 ? ilogb(m) : INT_MIN;
				top = bin[r] > top ? bin[r] : top;
			}
			for (long long r = 0; r < R; r++) {
				int b = ROWSUM_FOCUS_BINS - 1;
				if (bin[r] != INT_MIN) {
					int e = top - bin[r];
					b = e < ROWSUM_FOCUS_BINS - 1 ? e : ROWSUM_FOCUS_BINS - 1;
				}
				bin[r] = b;
				cnt[b + 1]++;
			}
			for (int b = 0; b < ROWSUM_FOCUS_BINS; b++) {
				if (cnt[b + 1])
					occupied[nbins++] = b;
				cnt[b + 1] += cnt[b]; /* cnt[b]: where bin b begins in order */
			}
			long long fill[ROWSUM_FOCUS_BINS];
			for (int b = 0; b < ROWSUM_FOCUS_BINS; b++)
				fill[b] = cnt[b];
			for (long long r = 0; r < R; r++)
				order[fill[bin[r]]++] = r;
		}
		for (long long e = 0; e < n; e++) {
			if (e % 2 && nbins > 0) {
				int b = occupied[ev_splitmix64(&st) % (uint64_t)nbins];
				long long span = cnt[b + 1] - cnt[b];
				index[e] = order[cnt[b] + (long long)(ev_splitmix64(&st) % (uint64_t)span)];
			} else {
				index[e] = (long long)(ev_splitmix64(&st) % (uint64_t)R);
			}
		}
		free(bin);
		free(order);
	}
	for (long long e = 0; e < n; e++) {
		const float *x = X + index[e] * C;
		double sum = 0, sa = 0;
		for (long long c = 0; c < C; c++) {
			sum += (double)x[c];
			sa += fabs((double)x[c]);
		}
		value[e] = sum;
		bound[e] = rho * fabs(sum) + phi * sa + a;
	}
	return n;
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
	.n_dists = 5,
	.dists = { "uniform", "cancel", "positive", "padded", "spikes" },
	.dist_docs = {
		"X uniform in [-1, 1) times a secret 2^k a row (most launches: rows at their own k), k in [-60, 0] (fp16: [-14, 0]); at R <= 2 a row whose |sum| is under a quarter of its L2 norm has its negative terms halved",
		"X[c] = m in [1,2), X[c+C/2] = u - m, u in [0,0.5): the halves cancel, the sum is 6x below the midway partial sum",
		"X uniform in [s, 2s), s = min(8, 16384/C): the sum grows to ~1.5 s C, a short accumulator swamps",
		"uniform (scaled) with a run of exact zeros in every row (C/8..C/2 long, at the head in half the rows): a step from the row's head fails",
		"uniform with 1..2 elements of +-[4096,16384) in 1..8 secret rows, all scaled: a scale from part of a row misses them",
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
EVIDENT_DEFINE_FILL_DTYPE(rowsum_fill_dtype)
EVIDENT_DEFINE_FOCUS(rowsum_focus)
