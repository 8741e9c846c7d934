/*
 * stats_mwu.c - rank statistics of two sample sets: the Mann-Whitney U test
 * (two-sided, matching R 4.2's wilcox.test(a, b, correct = TRUE) in both its
 * exact and its normal regime) and Cliff's delta.  Both come from one merge
 * of the two sorted sets, so a comparison costs two sorts plus O(na + nb):
 * at n = 10^6 per group that is what keeps the test well under a second.
 * Cliff's (1993) variance of delta, which gives delta's CI at sizes where
 * bootstrapping it would take minutes, comes from the same kind of walk.
 * The definitions and the rules for choosing the regime are in stats.h.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "base/util.h"

/* R uses the exact distribution when both sizes are below this and there are no ties. */
#define MWU_EXACT_MAX 50

/*
 * Two-sided exact p-value for U with sizes m, n, no ties.
 *
 * f_{i,j}(u), the number of orderings of i a's and j b's whose U is u,
 * obeys f_{i,j}(u) = f_{i-1,j}(u - j) + f_{i,j-1}(u) (the largest element
 * is either an a, above all j b's, or a b).  Like R's cwilcox we count in
 * doubles (choose(98, 49) ~ 2.5e28 does not fit an integer) using only
 * additions, so every count keeps full relative precision.  The table is
 * rolled over i: f[j] holds f_{i,j} for the current i, updated in place
 * with u descending so f[j][u - j] is still row i - 1.  Memory (n + 1) x
 * (mn + 1) doubles, time O(m n mn): ~6e6 additions at m = n = 49.
 */
double stats_mwu_exact_p(double u, size_t m, size_t n)
{
	size_t mn = m * n, w = mn + 1;
	double k = floor(fmin(u, (double)mn - u)); /* the smaller tail, by symmetry */
	double tail = 0, total = 0, *f;

	if (!m || !n || m > STATS_EXACT_MAX_N || n > STATS_EXACT_MAX_N)
		return NAN;
	f = xcalloc((n + 1) * w, sizeof(*f));
	for (size_t j = 0; j <= n; j++)
		f[j * w] = 1; /* i = 0: U is 0 for every j */
	for (size_t i = 1; i <= m; i++) {
		/* j = 0 stays f(0) = 1: with no b, U is 0 */
		for (size_t j = 1; j <= n; j++) {
			double *fj = f + j * w, *fj1 = f + (j - 1) * w;
			size_t umax = i * j;
			for (size_t uu = umax + 1; uu-- > 0;) {
				double v = uu >= j ? fj[uu - j] : 0;
				fj[uu] = v + fj1[uu];
			}
		}
	}
	for (size_t uu = 0; uu <= mn; uu++) {
		total += f[n * w + uu];
		if ((double)uu <= k)
			tail += f[n * w + uu];
	}
	free(f);
	return fmin(1.0, 2.0 * tail / total);
}

int stats_mwu_sorted(const double *a, size_t na, const double *b, size_t nb,
		     double *u, double *p, int *exact, double *gt, double *lt)
{
	/* One walk over the distinct values of the pooled sample. */
	uint64_t n_gt = 0, n_eq = 0, b_below = 0;
	double ties = 0; /* sum of t^3 - t over tie groups of the pooled sample */
	int any_tie = 0;
	size_t i = 0, j = 0;
	double mn = (double)na * (double)nb, N = (double)(na + nb);

	if (!na || !nb)
		return error("mann-whitney u needs at least one sample in each set");
	while (i < na || j < nb) {
		double v = i < na && (j >= nb || a[i] <= b[j]) ? a[i] : b[j];
		uint64_t ca = 0, cb = 0;
		while (i < na && a[i] == v)
			i++, ca++;
		while (j < nb && b[j] == v)
			j++, cb++;
		n_gt += ca * b_below;
		n_eq += ca * cb;
		b_below += cb;
		if (ca + cb > 1) {
			double t = (double)(ca + cb);
			any_tie = 1;
			ties += t * t * t - t;
		}
	}
	*gt = (double)n_gt;
	*lt = mn - (double)n_gt - (double)n_eq;
	*u = (double)n_gt + 0.5 * (double)n_eq;

	if (na < MWU_EXACT_MAX && nb < MWU_EXACT_MAX && !any_tie) {
		*exact = 1;
		*p = stats_mwu_exact_p(*u, na, nb);
		return 0;
	}
	/* R: SIGMA <- sqrt((n.x*n.y/12) * ((n.x+n.y+1) - sum(NTIES^3-NTIES)/((n.x+n.y)*(n.x+n.y-1)))) */
	*exact = 0;
	double z = *u - mn / 2;
	double sigma = sqrt((mn / 12) * ((N + 1) - ties / (N * (N - 1))));
	if (!(sigma > 0)) {
		/* every pooled value equal: R says NaN, there is simply no evidence */
		*p = 1;
		return 0;
	}
	double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0; /* sign(z) * 0.5 */
	z = (z - correction) / sigma;
	*p = 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z));
	return 0;
}

double stats_cliffs_delta(const double *a, size_t na, const double *b, size_t nb)
{
	if (!na || !nb)
		return NAN;
	double *sa = xmalloc(na * sizeof(*sa)), *sb = xmalloc(nb * sizeof(*sb));
	memcpy(sa, a, na * sizeof(*sa));
	memcpy(sb, b, nb * sizeof(*sb));
	gsl_sort(sa, 1, na);
	gsl_sort(sb, 1, nb);
	/* for each a (ascending): j_lt = #(b < a), j_le = #(b <= a); both only move forward */
	uint64_t n_gt = 0, n_lt = 0;
	size_t j_lt = 0, j_le = 0;
	for (size_t i = 0; i < na; i++) {
		while (j_lt < nb && sb[j_lt] < sa[i])
			j_lt++;
		if (j_le < j_lt)
			j_le = j_lt;
		while (j_le < nb && sb[j_le] <= sa[i])
			j_le++;
		n_gt += j_lt;
		n_lt += nb - j_le;
	}
	free(sa);
	free(sb);
	return ((double)n_gt - (double)n_lt) / ((double)na * (double)nb);
}

/*
 * Placements: for sorted a against sorted b, calls back with each a_i's
 * #(b < a_i) and #(b <= a_i), in one forward walk.
 */
#define FOR_EACH_PLACEMENT(a, na, b, nb, i, lt, le, BODY)                 \
	do {                                                              \
		size_t lt = 0, le = 0;                                    \
		for (size_t i = 0; i < (na); i++) {                       \
			while (lt < (nb) && (b)[lt] < (a)[i])             \
				lt++;                                     \
			if (le < lt)                                      \
				le = lt;                                  \
			while (le < (nb) && (b)[le] <= (a)[i])            \
				le++;                                     \
			BODY                                              \
		}                                                         \
	} while (0)

double stats_delta_variance(const double *a, size_t na, const double *b, size_t nb)
{
	double dna = (double)na, dnb = (double)nb, sum = 0, ties = 0, ssa = 0, ssb = 0;

	if (na < 2 || nb < 2) { /* the unbiased estimator needs two of each: the floor only */
		double d = stats_cliffs_delta(a, na, b, nb);
		return na * nb > 1 ? (1 - d * d) / (dna * dnb - 1) : 0;
	}

	/* delta itself, and the tied pairs */
	FOR_EACH_PLACEMENT(a, na, b, nb, i, lt, le, {
		sum += (double)lt - (double)(nb - le);
		ties += (double)(le - lt);
	});
	double d = sum / (dna * dnb);
	/* sum_i (d_i. - d)^2, d_i. = (#(b < a_i) - #(b > a_i)) / nb */
	FOR_EACH_PLACEMENT(a, na, b, nb, i, lt, le, {
		double di = ((double)lt - (double)(nb - le)) / dnb - d;
		ssa += di * di;
	});
	/* sum_j (d_.j - d)^2, d_.j = (#(a > b_j) - #(a < b_j)) / na */
	FOR_EACH_PLACEMENT(b, nb, a, na, j, lt, le, {
		double dj = ((double)(na - le) - (double)lt) / dna - d;
		ssb += dj * dj;
	});
	double ssab = (dna * dnb - ties) - dna * dnb * d * d; /* sum_ij (d_ij - d)^2 */
	double var = (dnb * dnb * ssa + dna * dna * ssb - ssab) / (dna * dnb * (dna - 1) * (dnb - 1));
	double floor = (1 - d * d) / (dna * dnb - 1);
	return var > floor ? var : floor;
}

void stats_delta_interval(double d, double var, double z, double ci[2])
{
	double s = sqrt(var > 0 ? var : 0), d2 = d * d;
	double den = 1 - d2 + z * z * s * s;
	if (!(den > 0)) {
		ci[0] = ci[1] = d;
		return;
	}
	double c = d - d2 * d, rad = z * s * sqrt((1 - d2) * (1 - d2) + z * z * s * s);
	ci[0] = fmax(-1.0, (c - rad) / den);
	ci[1] = fmin(1.0, (c + rad) / den);
}
