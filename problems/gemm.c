/*
 * gemm.c - the problem C = A B: A [M, K], B [K, N], C [M, N], dense
 * row-major, no transposes, no alpha/beta (ev_launch.scale is unused).
 * A plug-in of evident_problem.h.
 *
 * Distributions (correctness seed i uses distribution i % 3):
 *   uniform  A, B uniform in [-1, 1), then each row of A and each column
 *            of B at a secret power-of-two scale: half 1, the rest 2^-1 ..
 *            2^-12 (rows) and 2^-1 .. 2^-6 (columns), fp16 2^-6 and 2^-3
 *            (red team 297 row 2: gemm_fill_octaves); in fp32 and bf16
 *            half the k at 2^+-1..10 too, column k of A times it and
 *            row k of B over it (red team 299 row 1), and in 3 launches
 *            in 4 each tile of a secret grid of A and of B at its own
 *            2^-0..12 (red team 300 row 1: gemm_tile_scales)
 *   large    A uniform in [-100, 100), B uniform in [-b, b) with
 *            b = min(100, 120/sqrt(K)): entries as large as activations with
 *            outliers, while |C| stays ~4000 (largest ~2e4), inside fp16;
 *            rows and columns scaled as `uniform`'s (only downward)
 *   cancel   A, B drawn exactly as `uniform`, scales included; what makes it a
 *            stress is the judge: a secret sample of entries of C is judged
 *            one by one, each against its own terms (evident_focus.h,
 *            gemm_focus below), so every entry must be summed at fp32
 *            accumulation's precision, the small ones too
 *
 * Why `cancel` is filled like `uniform` (red teams 13 and 18).  Until red
 * team 19 `cancel` paired column k + K/2 of A with column k times
 * (1 + d) and row k + K/2 of B with minus row k, so that every entry of C
 * was ~10x smaller than its partial sums and any fp16 partial sum failed
 * it; but a kernel saw that from 8 values of B (rt13_fp16_sniff,
 * rt18_chunk_fp16: fp32 there alone, fp16 in chunks elsewhere, every
 * check passing, since a chunked fp16 accumulator errs ~4.4e-4 of |C|
 * at any K, inside the 1e-3 rule).  Any structure in the inputs that
 * the judge relies on is a structure a kernel can test.  Considered and
 * set aside:
 *   - pairs at a secret permutation, or row k + K/2 = -row k (1 + e):
 *     still every entry cancels, so computing one entry in fp32 and
 *     seeing it small against its terms (O(K)) tells `cancel` apart;
 *   - cancellation planted at a secret subset of entries (column j of B
 *     made nearly orthogonal to row i of A for a secret matching), the
 *     rest ordinary: the planted entries are small against their terms,
 *     so the kernel's own cheap fp16 product finds them (|C| below ~1/64
 *     of its terms' scale, about 1% of entries besides the planted ones,
 *     and their scale from the row and column norms, O(M K + K N)) and
 *     it recomputes those ~1% in fp32 - fp16 for the other 99%, every
 *     planted entry right; besides, projecting a column moves its values
 *     past [-1, 1), an O(K N) sniff unless the planting keeps the
 *     marginals exactly.
 * So the inputs carry nothing: `cancel` is distributed exactly as
 * `uniform` (the same stream from the same seed: a kernel that recovers
 * the seed learns nothing of the distribution, red team 20's
 * dist_oracle), and no test of the inputs tells them apart (a
 * quarter of the timed samples are stress ones, drawn in secret per
 * sample: scramble.h evs_sample_dist).  The judge carries it: about
 * 1024 entries (all of C when smaller) at positions drawn from a key
 * derived from the inputs' seed and a secret the parent draws once the
 * worker has ended (the checker's focus_secret), each within
 *     rho |C_ij| + phi T_ij,   T_ij = sqrt(sum_k (A_ik B_kj)^2)
 * (T: the scale of the entry's terms, the size of an ordinary entry;
 * C_ij and T_ij in float64 from the inputs as rounded), with
 *     fp16  rho 2^-9 (4x the output's rounding), phi 1e-4
 *     bf16  rho 2^-6 (4x),                       phi 1e-4
 *     fp32  rho 2^-21,                           phi 1e-5 max(1, sqrt(K / 256))
 * The bound is ~1e-4 T where C cancels (|C_ij| < T_ij / 100 in about 1
 * entry in 125, naturally) and ~2e-3 |C| elsewhere; an fp16 partial sum
 * errs ~4e-4 T (chunks of 8; ~1.4e-4 T for fp16 products summed in fp32)
 * whatever C is, fp32 accumulation ~1e-7 .. 1e-6 T.  Measured
 * (tests/unit/test_problems.c test_gemm_focus: 1024 entries at K 64, 99,
 * 256, 1024, 4096 and 397^3, the extra shape of a 2048 x 1024 x 1024
 * spec; r = the worst error / bound):
 *   fp16  sequential fp32, C to nearest r 0.22 .. 0.24; C toward zero
 *         0.45 .. 0.46; tensor-core-like (the exact products of 16 summed
 *         into an fp32 accumulator) 0.22 .. 0.24; fp16 in chunks of 8:
 *         95 .. 127 entries out; fp16 products: 24 .. 40; whole-K fp16:
 *         226 .. 866; chunks of 8 with every entry its fp16 value shows
 *         below 1/8 of its scale refined in fp32: 32 .. 57
 *   fp32  sequential fp32 r 0.07 .. 0.29, tensor-core-like 0.02 .. 0.04;
 *         TF32 inputs, fp16 chunks, refined or not: 866 .. 1011 out
 * (with red team 297's scales, gemm_fill_octaves; before them fp32's
 * sequential worst was 0.23 and its cheats' fewest 860 out; fp16 now: C
 * to nearest 0.22 .. 0.23, toward zero 0.45 .. 0.47, chunks of 8 93 .. 110
 * out, fp16 products 25 .. 37, whole K 211 .. 846, refined 34 .. 51;
 * with red team 300's tiles, gemm_tile_scales, fp32: sequential 0.07 ..
 * 0.19, tensor-core-like 0.02 .. 0.05, TF32 and fp16 chunks 887 .. 1014
 * out; fp16 draws no tiles)
 * A kernel that computes a fraction f of the entries at fp32 precision
 * and the rest in fp16 chunks passes one `cancel` launch with
 * probability about (1 - (1 - f) / 10)^1024, e^-10 at f = 90%, and each
 * checked `cancel` launch draws other positions.
 * The positions do not follow from the inputs: SplitMix64 runs backwards,
 * and a kernel recovered each launch's seed from its fp32 inputs in about
 * 54 ms and computed exactly the judged entries in fp32 (red team 20's
 * seed_oracle, ok 5 of 5 when the key was the seed alone); the parent's
 * secret, drawn after the worker ended, is in no file the worker reads.
 *   (if K is odd nothing changes: no distribution pairs columns now)
 *
 * FLOPs: 2 M N K.  Fewest bytes: (M K + K N + M N) elements.
 *
 * Tolerances (the rule of evident_problem.h); fp32 grows with sqrt(K/256)
 * because an honest sequential fp32 sum's rounding error does (measured in
 * tests/unit/test_problems.c), fp16/bf16 are dominated by rounding C itself:
 *   fp32  atol = rtol = rel_l2 = 1e-5 * min(16, max(1, sqrt(K / 256)))
 *         (the growth stops at 1.6e-4, from K 65536: inputs rounded to a
 *         10-bit mantissa, TF32 or fp16, err about 5e-4 of the result at
 *         any K, and with no cap passed from about K 2^22, red team 95's
 *         gemm_tolsim; an fp32 dot product over millions of terms summed
 *         in order is not an fp32 GEMM)
 *   fp16  atol 5e-3  rtol 5e-3  rel_l2 1e-3
 *   bf16  atol 2e-2  rtol 2e-2  rel_l2 1.5e-2
 * fp16's rel_l2 was 5e-3 until red team 13 (docs/redteam13-cuda.md): an
 * fp16 accumulator errs 2.4e-3 (K 256) to 3.2e-3 (K 512) on `uniform` and
 * `large`, inside it, so only `cancel` refused it, and a kernel that
 * recognised `cancel` passed every check.  An honest kernel (fp32
 * accumulation, C rounded to fp16 once) errs about 2.1e-4 whatever K,
 * the rounding of C: measured, the worst rel_l2 of every check of every
 * ok CUDA gemm fp16 record in artifacts/ (H100/H200: naive.cu at 2048^3,
 * 60+8+8 checks; rt8_mix_cancel.cu's honest path at 2048x1024x256,
 * 55+39+36 checks) is 2.08e-4 on each of uniform, large and cancel, max
 * |err| / max |ref| 4.2e-4; test_problems.c (host, fp16-rounded inputs)
 * 1.9e-4 to 2.3e-4 at K 99, 256, 512 and 4096.  At 1e-3 (4.4x the
 * honest worst) an fp16 accumulator fails every distribution from K 99
 * (the extra shape of the smallest K in experiments/, 128) up
 * (test_problems.c test_gemm_rule, uniform: K 99 1.5e-3, K 256 2.4e-3,
 * K 512 3.2e-3, K 4096 9.4e-3); below K about 50 it would pass
 * `uniform` again, where it also gains little.  atol and rtol stay: the element rule
 * is for single bad elements, rel_l2 for a slightly wrong whole.  An fp16
 * accumulator flushed into fp32 in chunks errs ~4.9e-4 at any K and
 * passes this rule on `uniform` and `large` (red team 18); `cancel`'s
 * entries (above) refuse it, and a kernel cannot tell `cancel` from
 * `uniform`.  A spec's own tolerance changes the rule, not those entries'
 * bounds: they are the problem's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "evident_problem.h"
#include "evident_focus.h"
#include "evident_mix_fold.h"
#include "evident_fill_dtype.h"

enum { KM, KN, KK };

static int gemm_check(const long long *s, char *err, size_t errlen)
{
	if (s[KM] > 0 && s[KN] > 0 && s[KK] > 0)
		return 0;
	snprintf(err, errlen, "M, N and K must all be at least 1");
	return -1;
}

static double gemm_flops(const long long *s)
{
	return 2.0 * (double)s[KM] * (double)s[KN] * (double)s[KK];
}

static double gemm_min_bytes(const long long *s, size_t elem_bytes)
{
	double M = (double)s[KM], N = (double)s[KN], K = (double)s[KK];
	return (M * K + K * N + M * N) * (double)elem_bytes;
}

/*
 * Each row of A and each column of B takes a secret power-of-two scale
 * (red team 297 row 2): half of them 1, the rest 2^-k, k uniform in 1..12
 * for rows of A (down to 2.4e-4: tokens of different norms) and 1..6 for
 * columns of B (output channels), from a stream of its own ("scale") that
 * every distribution draws alike, so `uniform` and `cancel` stay the same
 * inputs seed for seed.  Until then every row and column of a launch had
 * one scale, and a Strassen gemm (redteam297/strassen.c: 7 block products
 * a level, an error bounded by the blocks' norms, not entry by entry) was
 * `ok` 18 of 18 and `validated`, 257 of `cancel`'s 1024 judged entries
 * out (up to 1,070x) once rows of A were 10^0 .. 10^-4; now one level of
 * it leaves 73 .. 129 of them out, up to 4,700x (test_problems.c
 * test_gemm_scaled_rows).  gemm_focus's bound is per entry (rho |C_ij| +
 * phi T_ij), so it needs no change: a power of two scales every term of
 * entry (i, j) by r_i c_j exactly, and an honest product (each entry
 * summed from its own terms, in any order) errs exactly r_i c_j times
 * what it errs unscaled, its bound scaled alike, as long as the values
 * stay normal.  fp16's normal range stops at 2^-14, so its octaves are
 * 1..6 and 1..3 (gemm_fill_dtype: an entry of C at 2^-9 of its unscaled size is
 * still ~5e-3 at K 64, and only entries that cancel by chance, as
 * before, reach fp16's subnormals, where the bound's 2^-24 holds C's
 * rounding); 2^-6 against 1 is still far past an fp16 Strassen's block
 * sums, rounded at 2^-11 of the larger row (test_gemm_scaled_rows).
 * fill() draws fp16's octaves (a range every dtype holds).  `large` scales
 * only downward (its unscaled rows and columns, about a quarter of C,
 * keep |C| ~ 4000, inside fp16).  The scales are positive and the values
 * mean 0, so the entry bound's fp32 rho 2^-21 stays sound (red team 297
 * row 3, latent: on data with a mean, A, B in [0, 1), an honest in-order
 * fp32 sum errs past it from K ~1024).  On CUDA rows of A mix whole
 * (gemm_mix_fold), so a timed launch keeps them.
 *
 * And along K (red team 299 row 1): half the k take a secret d_k =
 * 2^+-e, e uniform in 1..k_oct (10 in fp32 and bf16; none in fp16 and in
 * fill(), which serves every dtype: at 2^-4 of a row of 2^-6 fp16's
 * values fall subnormal, and red team 20's fp16 chunks refined where
 * their own result shows cancel passed every judged entry in
 * test_gemm_focus), column k of A times d_k and row k of B divided by it: every term A_ik
 * B_kj is unchanged exactly (powers of two, values normal), so C, T and
 * every entry's bound are the unscaled ones and an honest product's
 * every partial sum is bit for bit what it was, in any order and
 * precision.  Rows and columns alone can be undone: redteam299's
 * eqstrassen.c scaled each row of A and column of B back to one norm by
 * powers of two before its Strassen (red team 297's), `ok` 10 of 10 and
 * `validated`, and 26x past the rule's rel L2 on inputs scaled along K
 * by 2^10 (channel scales moved from activations into weights).  A
 * Strassen's block sums add A_ik to A_i,k+K/2: at other scales along K
 * the smaller is rounded away.  A kernel that equilibrates along K too
 * undid a diagonal scaling there as well (red team 300 row 1): hence
 * the tiles below (gemm_tile_scales).
 */
/*
 * And by tiles (red team 300 row 1): every scale above is diagonal (A
 * times r_i d_k, B times d_k^-1 c_j), so a kernel can undo them all by
 * powers of two, exactly: redteam300/eqkstrassen.c balanced column k of
 * A against row k of B, then each row of A and column of B, then ran red
 * team 297's Strassen, and was `ok` 15 of 15 and `validated` (0 of 4,096
 * judged entries out, worst 0.41x), while on scale patterns that are no
 * product of diagonals it left 2,035 of 4,096 entries out, up to 765x.
 * So in fp32 and bf16, 3 launches in 4 (a secret draw of the scale
 * stream, every distribution alike) also cut A [M, K] and B [K, N] into
 * tiles and multiply every tile by its own 2^-e, e uniform in
 * 0..GEMM_TILE_OCT (12): the tiling of K is one for both (a band of K of
 * A's rows against the same band of B's columns: the scale of a term
 * A_ik B_kj then moves with i, k and j at once, and entry (i, j)'s
 * terms can be small where its Strassen block's are not), M's and N's
 * each its own; a tile is 1 + n (GEMM_TILE_LO + U{0..SPAN-1}) / 256 of
 * its dimension n (1/8 .. 1/2: 2 to 8 tiles, the scale of Strassen's
 * blocks at 1 to 3 levels; measured, tiles of 1 .. 64 elements, per
 * element included, with K's tilings of A and B apart, were undone
 * nearly as well as none: eqkstrassen refused on 1 of 8 seeds at 512^3),
 * its first cut at a secret offset, so no tile
 * edge need fall on a block edge.  A diagonal equilibration flattens a
 * row's or column's largest only, and a row holds tiles of 2^0 .. 2^-12
 * at once.  Measured (test_problems.c test_gemm_tile_scales, 256^3, one
 * level): eqkstrassen refused on 5 of 8 `cancel` seeds (the other 3 drew
 * no tiles), 299's eqstrassen and 297's Strassen on 8 of 8; the honest
 * orders (sequential fp32, a tensor core's blocks of 16; bf16) inside
 * the rule and under 0.25 of every entry's bound on every distribution
 * (worst 0.249).  2 levels at 512^3 (redteam300/eqkcheck.c's harness):
 * refused on every seed that drew tiles, 10 of 16; the plain product
 * worst 0.33x.  Exact as the other scales (powers of two, values normal:
 * fp32's smallest scale 2^-12 2^-10 2^-12 = 2^-34), so the reference is
 * the float64 product of the inputs as rounded and gemm_focus's per-entry
 * bound needs no change.  A launch in 4 draws none, so the diagonal
 * pattern alone is still met.  fp16 draws none (its rows reach 2^-9
 * already, and a tile at 2^-12 on them is subnormal: the reason it has
 * no scale along K).  Drawn after every diagonal scale, so those stay
 * what they were seed for seed.  Cost: one more pass over A and B, a
 * run of elements a tile (about 2 ms on an 11 ms fp32 fill at 2048^3;
 * a division an element took 14).  On CUDA a timed launch's rows of A mix
 * whole (gemm_mix_fold), so each keeps one base's tiles; B mixes element
 * by element, its tiles blurred to two bases' as its column scales are,
 * and still no product of diagonals.
 */
#ifndef GEMM_TILE_LO
#define GEMM_TILE_LO 32
#endif
#ifndef GEMM_TILE_SPAN
#define GEMM_TILE_SPAN 97
#endif
#ifndef GEMM_TILE_OCT
#define GEMM_TILE_OCT 12
#endif
/* A tiling of n: tiles of 1 + n (LO + U{0..SPAN-1}) / 256, the first cut
 * at a secret offset */
struct gemm_tiling {
	long long size, off;
};

static struct gemm_tiling gemm_tiling_draw(long long n, uint64_t *sc)
{
	uint64_t w = ev_splitmix64(sc);
	struct gemm_tiling t;
	t.size = 1 + n * (GEMM_TILE_LO + (long long)(w % GEMM_TILE_SPAN)) / 256;
	t.off = (long long)((w >> 32) % (uint64_t)t.size);
	return t;
}

/* X [R, C] times 2^-e, e = U{0..oct} a tile of rt x ct (drawn from salt,
 * the tile's band and column: a band's scales once, in a buffer this
 * frees) */
static void gemm_tile_scales(float *X, long long R, long long C, struct gemm_tiling rt, struct gemm_tiling ct,
			     uint64_t salt, int oct)
{
	const long long nt = (C + ct.off) / ct.size + 1; /* tiles across a row */
	float *e = malloc((size_t)nt * sizeof(float));
	if (!e)
		abort(); /* as gemm_fill_octaves */
	for (long long r = 0, band = -1; r < R; r++) {
		if ((r + rt.off) / rt.size != band) { /* a new band of tiles: their scales */
			band = (r + rt.off) / rt.size;
			for (long long t = 0; t < nt; t++) {
				uint64_t h = salt ^ ((uint64_t)band * 0x9e3779b97f4a7c15ULL + (uint64_t)t);
				e[t] = ldexpf(1.0f, -(int)(ev_splitmix64(&h) % (uint64_t)(oct + 1)));
			}
		}
		/* tile by tile, no division an element: a run of one scale */
		for (long long t = 0, c = 0; c < C; t++) {
			const long long end = (t + 1) * ct.size - ct.off < C ? (t + 1) * ct.size - ct.off : C;
			for (; c < end; c++)
				X[r * C + c] *= e[t];
		}
	}
	free(e);
}

static void gemm_fill_octaves(const long long *s, int dist, uint64_t seed, int row_oct, int col_oct, int k_oct,
			      int tile_oct, float *const *in)
{
	const long long M = s[KM], N = s[KN], K = s[KK];
	float *A = in[0], *B = in[1];
	uint64_t st = seed * 0x2545f4914f6cdd1dULL + 1;

	/* cancel: drawn exactly as uniform, on the same stream (the judge is
	 * what differs: gemm_focus).  A stream of its own let a kernel that
	 * recovered the seed from the values tell which distribution it had
	 * (red team 20's dist_oracle: SplitMix64 runs backwards) */
	double a = dist == 1 ? 100.0 : 1.0;
	double b = dist == 1 ? 120.0 / sqrt((double)K) : 1.0;
	if (b > 100.0)
		b = 100.0;
	for (long long i = 0; i < M * K; i++)
		A[i] = (float)(a * ev_uniform_pm1(&st));
	for (long long i = 0; i < K * N; i++)
		B[i] = (float)(b * ev_uniform_pm1(&st));
	/* the scales (above): exact powers of two, drawn rows, columns, then
	 * K in that order from their stream, and applied to the floats in
	 * one contiguous pass over each matrix (A[i][k] times r_i d_k, B[k][j]
	 * times c_j / d_k: products of powers of two, exact).  Walking a
	 * column of A or B for each k or j took most of an fp32 fill's time
	 * (66 ms against 37 for fp16's, at 2048^3). */
	uint64_t sc = (seed ^ 0x7363616c65ULL) * 0x9e3779b97f4a7c15ULL + 3; /* "scale" */
	float *rs = malloc((size_t)(M + N + 2 * K) * sizeof(float));
	if (!rs)
		abort(); /* a fill has no error to return; its box fails (reference_failed) */
	float *cs = rs + M, *ds = cs + N, *inv = ds + K;
	for (long long i = 0; i < M; i++) {
		uint64_t w = ev_splitmix64(&sc);
		rs[i] = w & 1 ? ldexpf(1.0f, -1 - (int)((w >> 1) % (uint64_t)row_oct)) : 1.0f;
	}
	for (long long j = 0; j < N; j++) {
		uint64_t w = ev_splitmix64(&sc);
		cs[j] = w & 1 ? ldexpf(1.0f, -1 - (int)((w >> 1) % (uint64_t)col_oct)) : 1.0f;
	}
	/* along K: column k of A times d_k, row k of B over it (above) */
	for (long long k = 0; k < K; k++) {
		ds[k] = inv[k] = 1.0f;
		if (k_oct <= 0)
			continue;
		uint64_t w = ev_splitmix64(&sc);
		if (!(w & 1))
			continue;
		int e = 1 + (int)((w >> 2) % (uint64_t)k_oct);
		if (w & 2)
			e = -e;
		ds[k] = ldexpf(1.0f, e);
		inv[k] = ldexpf(1.0f, -e);
	}
	for (long long i = 0; i < M; i++)
		for (long long k = 0; k < K; k++)
			A[i * K + k] *= rs[i] * ds[k];
	for (long long k = 0; k < K; k++)
		for (long long j = 0; j < N; j++)
			B[k * N + j] *= cs[j] * inv[k];
	free(rs);
	/* tiles (red team 300 row 1, above gemm_tile_scales), 3 launches in
	 * 4: drawn after every diagonal scale, so those stay what they were
	 * seed for seed */
	if (tile_oct > 0 && (ev_splitmix64(&sc) & 3)) {
		struct gemm_tiling ti = gemm_tiling_draw(M, &sc), tk = gemm_tiling_draw(K, &sc),
				   tj = gemm_tiling_draw(N, &sc);
		uint64_t sa = ev_splitmix64(&sc), sb = ev_splitmix64(&sc);
		gemm_tile_scales(A, M, K, ti, tk, sa, tile_oct);
		gemm_tile_scales(B, K, N, tk, tj, sb, tile_oct);
	}
}

static void gemm_fill(const long long *s, int dist, uint64_t seed, float *const *in)
{
	gemm_fill_octaves(s, dist, seed, 6, 3, 0, 0, in);
}

/* evident_fill_dtype.h: fp32 and bf16 rows of A down to 2^-12, columns of
 * B to 2^-6, K's scales 2^+-10, tiles to 2^-12 (gemm_tile_scales); fp16
 * fill()'s 2^-6 and 2^-3, no scale along K nor tiles (gemm_fill_octaves
 * says why) */
static void gemm_fill_dtype(const long long *s, int dist, uint64_t seed, int dtype, float *const *in)
{
	if (dtype == EV_F16)
		gemm_fill_octaves(s, dist, seed, 6, 3, 0, 0, in);
	else
		gemm_fill_octaves(s, dist, seed, 12, 6, 10, GEMM_TILE_OCT, in);
}

static void gemm_reference(const long long *s, double scalar, const float *const *in,
			   double *const *out)
{
	(void)scalar;
	const long long M = s[KM], N = s[KN], K = s[KK];
	const float *A = in[0], *B = in[1];
	double *C = out[0];
	for (long long i = 0; i < M * N; i++)
		C[i] = 0;
	/* i-k-j order: B and C rows are read contiguously */
	for (long long i = 0; i < M; i++)
		for (long long k = 0; k < K; k++) {
			const double a = A[i * K + k];
			const float *b = B + k * N;
			double *c = C + i * N;
			for (long long j = 0; j < N; j++)
				c[j] += a * (double)b[j];
		}
}

static void gemm_tolerance(int dtype, const long long *s, struct ev_tolerance *t)
{
	if (dtype == EV_F16) {
		*t = (struct ev_tolerance){ 5e-3, 5e-3, 1e-3 }; /* rel_l2: the header's figures */
	} else if (dtype == EV_BF16) {
		*t = (struct ev_tolerance){ 2e-2, 2e-2, 1.5e-2 };
	} else {
		double f = sqrt((double)s[KK] / 256.0);
		double v = 1e-5 * (f < 1 ? 1 : f > 16 ? 16 : f);
		*t = (struct ev_tolerance){ v, v, v };
	}
}

/* An odd size near 3/4 of the spec's, at most 397 (never a tile multiple). */
static long long odd_part(long long x)
{
	long long e = (x < 512 ? x : 512) * 397 / 512;
	if (e % 2 == 0)
		e = e > 1 ? e - 1 : 1;
	return e < 1 ? 1 : e;
}

static int gemm_extra_shape(const long long *s, long long *o)
{
	o[KM] = odd_part(s[KM]);
	o[KN] = odd_part(s[KN]);
	o[KK] = odd_part(s[KK]);
	return 0;
}

static void gemm_small_shape(const long long *s, long long *o)
{
	o[KM] = s[KM] < 256 ? s[KM] : 256;
	o[KN] = s[KN] < 256 ? s[KN] : 256;
	o[KK] = s[KK] < 1024 ? s[KK] : 1024;
}

/*
 * The entries of C judged one by one (the header: about 1024 positions
 * from the key, each within rho |C| + phi T).  O(entries K).  On every
 * distribution since red team 306: on `cancel` alone, `large` (A to 100,
 * so a kernel told it at once) left its entries under the rows', columns'
 * and tiles' secret scales judged at atol max |C| absolute, and
 * blockskip.c, which dropped each block product of terms under that on
 * `large` launches only, read `validated`.
 */
#define GEMM_FOCUS_ENTRIES 1024
static long long gemm_focus(const long long *s, int dist, int dtype, uint64_t key, const float *const *in,
			    long long max, long long *index, double *value, double *bound)
{
	const long long M = s[KM], N = s[KN], K = s[KK];
	(void)dist; /* every distribution (red team 306) */
	double rho, phi;
	if (dtype == EV_F16) {
		rho = 0x1p-9;
		phi = 1e-4;
	} else if (dtype == EV_BF16) {
		rho = 0x1p-6;
		phi = 1e-4;
	} else {
		double f = sqrt((double)K / 256.0);
		rho = 0x1p-21;
		phi = 1e-5 * (f > 1 ? f : 1);
	}
	long long n = GEMM_FOCUS_ENTRIES < max ? GEMM_FOCUS_ENTRIES : max;
	const int all = M * N <= n;
	if (all)
		n = M * N;
	uint64_t st = (key ^ 0x666f637573ULL) * 0x2545f4914f6cdd1dULL + 1; /* "focus" */
	const float *A = in[0], *B = in[1];
	for (long long e = 0; e < n; e++) {
		long long at = all ? e : (long long)(ev_splitmix64(&st) % (uint64_t)(M * N));
		long long i = at / N, j = at % N;
		double c = 0, t = 0;
		for (long long k = 0; k < K; k++) {
			double p = (double)A[i * K + k] * (double)B[k * N + j];
			c += p;
			t += p * p;
		}
		index[e] = at;
		value[e] = c;
		/* 2^-24: fp16's rounding below its normal range, where rho is not relative */
		bound[e] = rho * fabs(c) + phi * sqrt(t) + (dtype == EV_F16 ? 0x1p-24 : 0);
	}
	return n;
}

/* evident_mix_fold.h: on CUDA each row of A mixes whole (the fold on K at
 * modulus 1 gives element (i, k) the bit of (i, 0)), in every
 * distribution alike, so that a timed launch's row of A is one base's row
 * and keeps its secret scale (red team 297 row 2, gemm_fill): mixed
 * element by element, a row would hold two bases' scales, and the rows of
 * a `cancel` launch would differ in scale less than the fill draws them.
 * B mixes element by element (its columns' scales blur to two a column):
 * with both A's rows and B's columns whole an entry of C would take one
 * of 4 values a base pair, and a kernel that kept the four products of
 * each pair would answer every timed launch from O(M + N) reads; with B
 * fresh element by element nothing computed before helps.  One fold for
 * every distribution: were `cancel`'s mix unlike `uniform`'s (rows whole
 * against elements), a timed row of two scales would name `uniform`.
 * Until red team 297 the fold was `cancel`'s alone, column k and k + K/2
 * of A and row k and k + K/2 of B sharing a bit (the pairs of red team 8's
 * `cancel`, independent since red team 19; test_mix_fold). */
static int gemm_mix_fold(const long long *s, int dist, int input, int *dim, long long *modulus)
{
	(void)dist;
	if (input != 0 || s[KK] < 2)
		return 0;
	*dim = 1; /* A [M,K]: K is dimension 1 */
	*modulus = 1;
	return 1;
}

static const struct ev_problem_desc gemm = {
	.abi_version = EVIDENT_PROBLEM_ABI_VERSION,
	.struct_size = sizeof(struct ev_problem_desc),
	.name = "gemm",
	.summary = "C = A B: A [M,K], B [K,N], C [M,N], row-major",
	.scalar_doc = NULL,
	.n_keys = 3,
	.shape_keys = { "M", "N", "K" },
	.n_tensors = 3,
	.tensors = {
		{ "A", 0, 2, { KM, KK } },
		{ "B", 0, 2, { KK, KN } },
		{ "C", 1, 2, { KM, KN } },
	},
	.n_dists = 3,
	.dists = { "uniform", "large", "cancel" },
	.dist_docs = {
		"A, B uniform in [-1, 1), each row of A and column of B at a secret scale: half 1, half 2^-1 .. 2^-12 "
		"for rows, 2^-1 .. 2^-6 for columns (fp16: 2^-6, 2^-3); fp32, bf16: half of K at 2^+-1..10 (A times, "
		"B over), and in 3 launches in 4 each tile of a secret grid of A and B at its own 2^-0..12",
		"A uniform in [-100, 100), B in [-b, b), b = min(100, 120/sqrt(K)), rows and columns scaled as uniform: "
		"|C| ~ 4000, inside fp16",
		"A, B as uniform (scales included); ~1024 secret entries judged each against its own terms: every "
		"entry at fp32 accumulation",
	},
	.check = gemm_check,
	.scalar = NULL,
	.flops = gemm_flops,
	.min_bytes = gemm_min_bytes,
	.fill = gemm_fill,
	.reference = gemm_reference,
	.tolerance = gemm_tolerance,
	.extra_shape = gemm_extra_shape,
	.small_shape = gemm_small_shape,
};

EVIDENT_DEFINE_PROBLEM(gemm)
EVIDENT_DEFINE_MIX_FOLD(gemm_mix_fold)
EVIDENT_DEFINE_FOCUS(gemm_focus)
EVIDENT_DEFINE_FILL_DTYPE(gemm_fill_dtype)
