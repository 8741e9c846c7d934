/*
 * stats_boot.c - the bootstrap behind every CI in stats.h: resampling with
 * GSL's mt19937 (seeded from stats_opts.seed, so a CI is reproducible),
 * jackknife values for the acceleration, and the BCa / percentile interval.
 *
 * The median alone (stats_boot_median, the summary's CI) never builds a
 * resample: stats_boot_median_draw() samples the resample's two middle order
 * statistics directly by descending a tree of binomial splits, O(log n)
 * per resample instead of O(n), exactly the same distribution.
 *
 * Why the two-sample resamples are counts: a resample of a sorted set is
 * represented by how often each sorted position was drawn (counts[0..n)).
 * Drawing is
 * O(n), the median of the resample is a prefix scan over the counts (O(n),
 * no sort; the same bound quickselect gives, without copying values), and
 * the resample is already in sorted order, which is what Cliff's delta
 * needs to be a single O(na + nb) merge.  So one resample of a two-sample
 * comparison costs O(na + nb) for both the speedup and delta.
 *
 * That full resampling costs O(B (na + nb)): 10^4 resamples of 10^6 + 10^6
 * samples would take hours.  Above STATS_BOOT_FULL_MAX samples in all the
 * speedup's resample medians come from stats_boot_median_draw (O(log n),
 * same distribution) and delta's CI is Cliff's asymptotic one (stats.h),
 * so a comparison costs O(B log n + n) after sorting.
 *
 * Indices are drawn with Lemire's multiply-and-reject method on the raw
 * 32-bit outputs of mt19937 (unbiased, and one multiply instead of
 * gsl_rng_uniform_int's division).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/stats_internal.h"
#include "base/util.h"

/* counts[0..n) = how often each position was drawn in n draws. */
static void resample_counts(const gsl_rng *r, uint32_t *counts, size_t n)
{
	memset(counts, 0, n * sizeof(*counts));
	for (size_t k = 0; k < n; k++)
		counts[stats_draw_below(r, (uint32_t)n)]++;
}

/* Median of the resample given by counts over sorted x. */
static double median_counts(const double *x, const uint32_t *counts, size_t n)
{
	size_t lo = (n - 1) / 2, hi = n / 2, cum = 0, i = 0;
	while ((cum += counts[i]) <= lo)
		i++;
	double vlo = x[i];
	while (cum <= hi)
		cum += counts[++i];
	return 0.5 * (vlo + x[i]);
}

/*
 * The k-th smallest (0-based) of m draws that fall uniformly on positions
 * [lo, hi), found without drawing them: the number of draws in the left
 * half is Binomial(m, (mid - lo) / (hi - lo)), and given that split the two
 * halves are independent (a multinomial factorises into nested binomials).
 * So we follow one path down: O(log n) binomial draws.
 */
static size_t descend(const gsl_rng *r, size_t lo, size_t hi, unsigned m, size_t k)
{
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned left = gsl_ran_binomial(r, (double)(mid - lo) / (double)(hi - lo), m);
		if (k < left) {
			hi = mid;
			m = left;
		} else {
			k -= left;
			m -= left;
			lo = mid;
		}
	}
	return lo;
}

double stats_boot_median_draw(const gsl_rng *r, const double *x, size_t n)
{
	size_t lo = 0, hi = n, k0 = (n - 1) / 2, k1 = n / 2;
	unsigned m = (unsigned)n;

	/* both middle order statistics share a path until it forks */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned left = gsl_ran_binomial(r, (double)(mid - lo) / (double)(hi - lo), m);
		if (k1 < left) {
			hi = mid;
			m = left;
		} else if (k0 >= left) {
			k0 -= left;
			k1 -= left;
			m -= left;
			lo = mid;
		} else {
			size_t i0 = descend(r, lo, mid, left, k0);
			size_t i1 = descend(r, mid, hi, m - left, k1 - left);
			return stats_midpoint(x[i0], x[i1]);
		}
	}
	return x[lo];
}

/* Cliff's delta of two resamples given by counts over sorted a, b. */
static double delta_counts(const double *a, const uint32_t *ca, size_t na,
			   const double *b, const uint32_t *cb, size_t nb)
{
	uint64_t gt = 0, lt = 0, b_lt = 0, b_le = 0;
	size_t j_lt = 0, j_le = 0;
	for (size_t i = 0; i < na; i++) {
		if (!ca[i])
			continue;
		while (j_lt < nb && b[j_lt] < a[i])
			b_lt += cb[j_lt++];
		if (j_le < j_lt) {
			j_le = j_lt;
			b_le = b_lt;
		}
		while (j_le < nb && b[j_le] <= a[i])
			b_le += cb[j_le++];
		gt += (uint64_t)ca[i] * b_lt;
		lt += (uint64_t)ca[i] * (nb - b_le);
	}
	return ((double)gt - (double)lt) / ((double)na * (double)nb);
}

double stats_median_sorted(const double *x, size_t n)
{
	return stats_midpoint(x[(n - 1) / 2], x[n / 2]);
}

double stats_median_inplace(double *x, size_t n)
{
	if (!n)
		return NAN;
	stats_sort(x, n);
	return stats_median_sorted(x, n);
}

/* Median of sorted x without position i (n >= 2). */
static double median_without(const double *x, size_t n, size_t i)
{
	size_t m = n - 1, lo = (m - 1) / 2, hi = m / 2;
	double vlo = x[lo < i ? lo : lo + 1], vhi = x[hi < i ? hi : hi + 1];
	return stats_midpoint(vlo, vhi);
}

void stats_jackknife_median(const double *x, size_t n, double *jack)
{
	for (size_t i = 0; i < n; i++)
		jack[i] = median_without(x, n, i);
}

void stats_jackknife_ratio(const double *a, size_t na, const double *b, size_t nb, double *jack)
{
	double ma = stats_median_sorted(a, na), mb = stats_median_sorted(b, nb);
	for (size_t i = 0; i < na; i++)
		jack[i] = median_without(a, na, i) / mb;
	for (size_t j = 0; j < nb; j++)
		jack[na + j] = ma / median_without(b, nb, j);
}

void stats_jackknife_delta(const double *a, size_t na, const double *b, size_t nb, double *jack)
{
	/* s_i = #(b < a_i) - #(b > a_i); t_j = #(a > b_j) - #(a < b_j); S = sum s_i = sum t_j */
	double s = 0;
	size_t lt = 0, le = 0;
	for (size_t i = 0; i < na; i++) {
		while (lt < nb && b[lt] < a[i])
			lt++;
		if (le < lt)
			le = lt;
		while (le < nb && b[le] <= a[i])
			le++;
		jack[i] = (double)lt - (double)(nb - le);
		s += jack[i];
	}
	lt = le = 0;
	for (size_t j = 0; j < nb; j++) {
		while (lt < na && a[lt] < b[j])
			lt++;
		if (le < lt)
			le = lt;
		while (le < na && a[le] <= b[j])
			le++;
		jack[na + j] = (double)(na - le) - (double)lt;
	}
	for (size_t i = 0; i < na; i++)
		jack[i] = (s - jack[i]) / ((double)(na - 1) * (double)nb);
	for (size_t j = 0; j < nb; j++)
		jack[na + j] = (s - jack[na + j]) / ((double)na * (double)(nb - 1));
}

/*
 * Adds one jackknife group's terms of SciPy's acceleration:
 * U_i = (n - 1)(mean - theta_i), num += sum U^3 / n^3, den += sum U^2 / n^2.
 * A constant group contributes exactly 0 (its mean may differ from the
 * values by rounding, which would otherwise turn 0/0 into noise).
 * Returns 1 if the group is constant.
 */
static int accel_terms(const double *jack, size_t n, double *num, double *den)
{
	double lo = jack[0], hi = jack[0];
	for (size_t i = 1; i < n; i++) {
		lo = jack[i] < lo ? jack[i] : lo;
		hi = jack[i] > hi ? jack[i] : hi;
	}
	if (lo == hi)
		return 1;
	double mean = 0, s2 = 0, s3 = 0, dn = (double)n;
	for (size_t i = 0; i < n; i++)
		mean += jack[i];
	mean /= dn;
	for (size_t i = 0; i < n; i++) {
		double u = (dn - 1) * (mean - jack[i]);
		s2 += u * u;
		s3 += u * u * u;
	}
	*num += s3 / (dn * dn * dn);
	*den += s2 / (dn * dn);
	return 0;
}

/*
 * The interval from the sorted-in-place bootstrap distribution, BCa when
 * have_accel and the acceleration (num, den; flat: every jackknife group
 * constant) and z0 are finite, else percentile.
 */
static const char *interval_core(double theta_hat, double *theta_b, size_t nboot, int have_accel,
				 double num, double den, int flat, double confidence, double ci[2])
{
	double alpha = (1 - confidence) / 2, q_lo = alpha, q_hi = 1 - alpha;
	const char *method = "percentile";

	gsl_sort(theta_b, 1, nboot);
	if (have_accel) {
		size_t less = 0, leq = 0;
		while (less < nboot && theta_b[less] < theta_hat)
			less++;
		leq = less;
		while (leq < nboot && theta_b[leq] <= theta_hat)
			leq++;
		/* z0 from the "mean" percentile of score, as SciPy */
		double z0 = gsl_cdf_ugaussian_Pinv((double)(less + leq) / (2.0 * (double)nboot));
		double ahat = flat ? NAN : num / (6 * pow(den, 1.5));
		if (isfinite(z0) && isfinite(ahat)) {
			double z_alpha = gsl_cdf_ugaussian_Pinv(alpha), z_1alpha = -z_alpha;
			double n1 = z0 + z_alpha, n2 = z0 + z_1alpha;
			double a1 = gsl_cdf_ugaussian_P(z0 + n1 / (1 - ahat * n1));
			double a2 = gsl_cdf_ugaussian_P(z0 + n2 / (1 - ahat * n2));
			if (isfinite(a1) && isfinite(a2)) {
				q_lo = a1;
				q_hi = a2;
				method = "bca";
			}
		}
	}
	ci[0] = gsl_stats_quantile_from_sorted_data(theta_b, 1, nboot, q_lo);
	ci[1] = gsl_stats_quantile_from_sorted_data(theta_b, 1, nboot, q_hi);
	return method;
}

const char *stats_boot_interval(double theta_hat, double *theta_b, size_t nboot,
				const double *jack_a, size_t na,
				const double *jack_b, size_t nb,
				double confidence, double ci[2])
{
	double num = 0, den = 0;
	int flat = 1, have = jack_a && na >= 2 && (!jack_b || nb >= 2);

	if (have) {
		flat = accel_terms(jack_a, na, &num, &den);
		if (jack_b)
			flat &= accel_terms(jack_b, nb, &num, &den);
	}
	return interval_core(theta_hat, theta_b, nboot, have, num, den, flat, confidence, ci);
}

/*
 * A leave-one-out jackknife of a median-based statistic takes at most three
 * distinct values (which middle order statistics remain), so at large n it
 * is kept as values with multiplicities: O(1) memory and time instead of an
 * array of n.  Same formulas as accel_terms.
 */
struct jack3 {
	double v[3];
	size_t c[3];
};

/* Leaving out x[i] of sorted x[0..n) (n >= 2): medians by class of i, see median_without. */
static struct jack3 jack3_median(const double *x, size_t n)
{
	size_t m = n - 1, lo = (m - 1) / 2, hi = m / 2;
	struct jack3 j = {
		{ stats_midpoint(x[lo + 1], x[hi + 1]), stats_midpoint(x[lo], x[hi + 1]), stats_midpoint(x[lo], x[hi]) },
		{ lo + 1, hi - lo, n - 1 - hi },
	};
	return j;
}

static int accel_terms3(const struct jack3 *j, size_t n, double *num, double *den)
{
	double lo = INFINITY, hi = -INFINITY, mean = 0, s2 = 0, s3 = 0, dn = (double)n;
	for (int t = 0; t < 3; t++)
		if (j->c[t]) {
			lo = j->v[t] < lo ? j->v[t] : lo;
			hi = j->v[t] > hi ? j->v[t] : hi;
			mean += (double)j->c[t] * j->v[t];
		}
	if (lo == hi)
		return 1;
	mean /= dn;
	for (int t = 0; t < 3; t++) {
		double u = (dn - 1) * (mean - j->v[t]);
		s2 += (double)j->c[t] * u * u;
		s3 += (double)j->c[t] * u * u * u;
	}
	*num += s3 / (dn * dn * dn);
	*den += s2 / (dn * dn);
	return 0;
}

gsl_rng *stats_boot_rng(const struct stats_opts *o)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r) {
		error("cannot allocate the random number generator");
		return NULL;
	}
	if (gsl_rng_min(r) != 0 || gsl_rng_max(r) != 0xffffffffUL)
		die("mt19937 is expected to give 32-bit outputs");
	gsl_rng_set(r, o->seed);
	return r;
}

int stats_boot_median(const double *x, size_t n, const struct stats_opts *o,
		      double ci[2], const char **method)
{
	size_t nboot = (size_t)o->resamples;
	gsl_rng *r;

	if (n > UINT32_MAX)
		return error("too many samples for the bootstrap (%zu)", n);
	if (!(r = stats_boot_rng(o)))
		return -1;
	double *theta_b = xmalloc(nboot * sizeof(*theta_b));
	for (size_t k = 0; k < nboot; k++)
		theta_b[k] = stats_boot_median_draw(r, x, n);
	if (n > STATS_BOOT_FULL_MAX) { /* the jackknife as three values, no array of n */
		struct jack3 j = jack3_median(x, n);
		double num = 0, den = 0;
		int flat = accel_terms3(&j, n, &num, &den);
		*method = interval_core(stats_median_sorted(x, n), theta_b, nboot, 1, num, den, flat,
					o->confidence, ci);
	} else {
		double *jack = n >= 2 ? xmalloc(n * sizeof(*jack)) : NULL;
		if (jack)
			stats_jackknife_median(x, n, jack);
		*method = stats_boot_interval(stats_median_sorted(x, n), theta_b, nboot,
					      jack, n, NULL, 0, o->confidence, ci);
		free(jack);
	}
	free(theta_b);
	gsl_rng_free(r);
	return 0;
}

/* The large-n path of stats_boot_compare: O(B log n) ratio, asymptotic delta. */
static void boot_compare_large(const gsl_rng *r, const double *a, size_t na, const double *b, size_t nb,
			       const struct stats_opts *o, int want_ratio,
			       double ratio_ci[2], const char **ratio_method,
			       double delta_ci[2], const char **delta_method)
{
	size_t nboot = (size_t)o->resamples;

	if (want_ratio) {
		double *ratio_b = xmalloc(nboot * sizeof(*ratio_b));
		double ma = stats_median_sorted(a, na), mb = stats_median_sorted(b, nb), num = 0, den = 0;
		int have_jack = na >= 2 && nb >= 2, flat = 1;
		for (size_t k = 0; k < nboot; k++) {
			double da = stats_boot_median_draw(r, a, na);
			ratio_b[k] = da / stats_boot_median_draw(r, b, nb);
		}
		if (have_jack) { /* as stats_jackknife_ratio, by class: three values a side */
			struct jack3 ja = jack3_median(a, na), jb = jack3_median(b, nb);
			for (int t = 0; t < 3; t++) {
				ja.v[t] /= mb;
				jb.v[t] = ma / jb.v[t];
			}
			flat = accel_terms3(&ja, na, &num, &den);
			flat &= accel_terms3(&jb, nb, &num, &den);
		}
		*ratio_method = interval_core(ma / mb, ratio_b, nboot, have_jack, num, den, flat, o->confidence,
					      ratio_ci);
		free(ratio_b);
	}
	double gt = 0, lt = 0;
	size_t jl = 0, je = 0;
	for (size_t i = 0; i < na; i++) { /* delta's counts, as stats_mwu_sorted */
		while (jl < nb && b[jl] < a[i])
			jl++;
		if (je < jl)
			je = jl;
		while (je < nb && b[je] <= a[i])
			je++;
		gt += (double)jl;
		lt += (double)(nb - je);
	}
	double d = (gt - lt) / ((double)na * (double)nb);
	stats_delta_interval(d, stats_delta_variance(a, na, b, nb),
			     gsl_cdf_ugaussian_Pinv(1 - (1 - o->confidence) / 2), delta_ci);
	*delta_method = "asymptotic";
}

int stats_boot_compare(const double *a, size_t na, const double *b, size_t nb,
		       const struct stats_opts *o, int want_ratio,
		       double ratio_ci[2], const char **ratio_method,
		       double delta_ci[2], const char **delta_method)
{
	size_t nboot = (size_t)o->resamples;
	int have_jack = na >= 2 && nb >= 2;
	gsl_rng *r;

	if (na > UINT32_MAX || nb > UINT32_MAX)
		return error("too many samples for the bootstrap (%zu, %zu)", na, nb);
	if (!(r = stats_boot_rng(o)))
		return -1;
	if (na + nb > STATS_BOOT_FULL_MAX) {
		boot_compare_large(r, a, na, b, nb, o, want_ratio, ratio_ci, ratio_method, delta_ci,
				   delta_method);
		gsl_rng_free(r);
		return 0;
	}
	uint32_t *ca = xmalloc(na * sizeof(*ca)), *cb = xmalloc(nb * sizeof(*cb));
	double *ratio_b = xmalloc(nboot * sizeof(*ratio_b));
	double *delta_b = xmalloc(nboot * sizeof(*delta_b));
	double *jack = xmalloc((na + nb) * sizeof(*jack));

	for (size_t k = 0; k < nboot; k++) {
		resample_counts(r, ca, na);
		resample_counts(r, cb, nb);
		if (want_ratio)
			ratio_b[k] = median_counts(a, ca, na) / median_counts(b, cb, nb);
		delta_b[k] = delta_counts(a, ca, na, b, cb, nb);
	}
	if (want_ratio) {
		if (have_jack)
			stats_jackknife_ratio(a, na, b, nb, jack);
		*ratio_method = stats_boot_interval(stats_median_sorted(a, na) / stats_median_sorted(b, nb),
						    ratio_b, nboot, have_jack ? jack : NULL, na,
						    jack + na, nb, o->confidence, ratio_ci);
	}
	if (have_jack)
		stats_jackknife_delta(a, na, b, nb, jack);
	for (size_t i = 0; i < na; i++)
		ca[i] = 1;
	for (size_t j = 0; j < nb; j++)
		cb[j] = 1;
	*delta_method = stats_boot_interval(delta_counts(a, ca, na, b, cb, nb), delta_b, nboot,
					    have_jack ? jack : NULL, na, jack + na, nb,
					    o->confidence, delta_ci);
	free(jack);
	free(delta_b);
	free(ratio_b);
	free(cb);
	free(ca);
	gsl_rng_free(r);
	return 0;
}
