/*
 * stats_hier.c - statistics of samples grouped by repeat (worker process):
 * the two-level bootstrap of the pooled median, the variance each level
 * contributes, and the grouped comparison whose p-value comes from the
 * repeats rather than from samples wrongly taken as independent.  The
 * definitions and the reasons for each choice are in stats.h ("Repeats").
 *
 * How one two-level resample's pooled median is drawn without building the
 * resample: the pooled samples are sorted once, each position labelled
 * with its repeat.  Drawing k repeats with replacement gives multiplicities
 * c_r; the resample then holds c_r n_r draws uniform over repeat r's
 * values.  Its two middle order statistics are found as in
 * stats_boot_median_draw, descending a binary split of the pooled
 * positions, except that each repeat's draws split binomially by the share
 * of that repeat's values left of the split.  Those shares come from a rank
 * table: per block of 64 positions, how many of each repeat precede it, and
 * the labels inside the block.  O(k log N) per resample, O(N k / 64) memory.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/stats_internal.h"
#include "base/util.h"

#define BLOCK 64
#define MAX_REPEATS 65535

/* One side, prepared for resampling. */
struct hier {
	size_t k, n_all;        /* repeats, pooled samples */
	const size_t *n;        /* n[r] */
	double **rep;           /* rep[r][0..n[r]): repeat r sorted */
	double *pool;           /* pooled, sorted */
	uint16_t *label;        /* repeat of pool[i] */
	uint32_t *rank;         /* rank[b * k + r] = #(label[i] == r, i < b * BLOCK) */
	unsigned *ws;           /* descent workspace: 8 arrays of k */
};

static void hier_release(struct hier *h)
{
	if (h->rep)
		for (size_t r = 0; r < h->k; r++)
			free(h->rep[r]);
	free(h->rep);
	if (h->k > 1)
		free(h->pool); /* with one repeat the pool is rep[0] */
	free(h->label);
	free(h->rank);
	free(h->ws);
	memset(h, 0, sizeof(*h));
}

/* Checks g, sorts each repeat and merges them into the labelled pool.  0 or error(). */
static int hier_init(struct hier *h, const struct stats_groups *g, const char *what)
{
	memset(h, 0, sizeof(*h));
	if (!g->k)
		return error("%s has no repeats", what);
	if (g->k > MAX_REPEATS)
		return error("%s has %zu repeats; at most %d are supported", what, g->k, MAX_REPEATS);
	h->k = g->k;
	h->n = g->n;
	h->rep = xcalloc(g->k, sizeof(*h->rep));
	for (size_t r = 0; r < g->k; r++) {
		char *name = xstrfmt("%s, repeat %zu,", what, r + 1);
		h->rep[r] = stats_sorted_copy(g->x[r], g->n[r], name);
		free(name);
		if (!h->rep[r]) {
			hier_release(h);
			return -1;
		}
		h->n_all += g->n[r];
	}
	if (h->n_all > UINT32_MAX) {
		hier_release(h);
		return error("too many samples for the bootstrap (%zu)", h->n_all);
	}
	if (h->k == 1) { /* nothing to merge or label: the draws never consult the rank table */
		h->pool = h->rep[0];
		h->ws = xmalloc(8 * sizeof(*h->ws));
		return 0;
	}
	size_t nb = h->n_all / BLOCK + 1, *head = xcalloc(h->k, sizeof(*head));
	h->pool = xmalloc(h->n_all * sizeof(*h->pool));
	h->label = xmalloc(h->n_all * sizeof(*h->label));
	h->rank = xcalloc(nb * h->k, sizeof(*h->rank));
	h->ws = xmalloc(8 * h->k * sizeof(*h->ws));
	/* k-way merge by scanning the heads: O(N k), k is small */
	for (size_t i = 0; i < h->n_all; i++) {
		size_t best = h->k;
		for (size_t r = 0; r < h->k; r++)
			if (head[r] < h->n[r] && (best == h->k || h->rep[r][head[r]] < h->rep[best][head[best]]))
				best = r;
		if (i % BLOCK == 0)
			for (size_t r = 0; r < h->k; r++)
				h->rank[(i / BLOCK) * h->k + r] = (uint32_t)head[r];
		h->pool[i] = h->rep[best][head[best]++];
		h->label[i] = (uint16_t)best;
	}
	if (h->n_all % BLOCK == 0)
		for (size_t r = 0; r < h->k; r++)
			h->rank[(h->n_all / BLOCK) * h->k + r] = (uint32_t)h->n[r];
	free(head);
	return 0;
}

/*
 * Splits the draws m[r] over positions [lo, hi) at mid: left[r] of them
 * fall in [lo, mid).  clo/chi/cmid: each repeat's count before lo, hi, mid
 * (cmid filled here; only where m[r] > 0).  Returns sum left[r].
 */
static unsigned hier_split(const gsl_rng *rng, const struct hier *h, size_t mid, const unsigned *m,
			   const unsigned *clo, const unsigned *chi, unsigned *cmid, unsigned *left)
{
	unsigned total = 0;
	/* every repeat's count before mid: the rank table's at mid's block,
	 * and one pass over the block's labels before mid (a pass per repeat
	 * was a third of the audit's bootstrap, beside the binomials) */
	if (h->k == 1) {
		cmid[0] = (unsigned)mid;
	} else {
		size_t b = mid / BLOCK;
		const uint32_t *base = h->rank + b * h->k;
		for (size_t r = 0; r < h->k; r++)
			cmid[r] = base[r];
		for (size_t i = b * BLOCK; i < mid; i++)
			cmid[h->label[i]]++;
	}
	for (size_t r = 0; r < h->k; r++) {
		left[r] = 0;
		if (!m[r])
			continue;
		unsigned cm = cmid[r], a = cm - clo[r], t = chi[r] - clo[r];
		left[r] = !a ? 0 : a == t ? m[r] : gsl_ran_binomial(rng, (double)a / (double)t, m[r]);
		total += left[r];
	}
	return total;
}

/* The kth smallest of the draws m[] over [lo, hi): one path down (m, clo, chi are consumed). */
static size_t hier_descend(const gsl_rng *rng, const struct hier *h, size_t lo, size_t hi, unsigned *m,
			   unsigned *clo, unsigned *chi, size_t kth, unsigned *cmid, unsigned *left)
{
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned l = hier_split(rng, h, mid, m, clo, chi, cmid, left);
		if (kth < l) {
			hi = mid;
			for (size_t r = 0; r < h->k; r++)
				if ((m[r] = left[r]))
					chi[r] = cmid[r];
		} else {
			kth -= l;
			lo = mid;
			for (size_t r = 0; r < h->k; r++)
				if (m[r] && (m[r] -= left[r]))
					clo[r] = cmid[r];
		}
	}
	return lo;
}

/* The pooled median of one two-level resample. */
static double hier_median_draw(const gsl_rng *rng, const struct hier *h)
{
	size_t k = h->k, lo = 0, hi = h->n_all;
	unsigned *m = h->ws, *clo = m + k, *chi = clo + k, *cmid = chi + k, *left = cmid + k;
	unsigned *m2 = left + k, *clo2 = m2 + k, *chi2 = clo2 + k;
	uint64_t total = 0;

	memset(m, 0, k * sizeof(*m));
	for (size_t i = 0; i < k; i++)
		m[stats_draw_below(rng, (uint32_t)k)]++;
	for (size_t r = 0; r < k; r++) {
		m[r] *= (unsigned)h->n[r];
		total += m[r];
		clo[r] = 0;
		chi[r] = (unsigned)h->n[r];
	}
	size_t k0 = (size_t)(total - 1) / 2, k1 = (size_t)total / 2;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned l = hier_split(rng, h, mid, m, clo, chi, cmid, left);
		if (k1 < l) {
			hi = mid;
			for (size_t r = 0; r < k; r++)
				if ((m[r] = left[r]))
					chi[r] = cmid[r];
		} else if (k0 >= l) {
			k0 -= l;
			k1 -= l;
			lo = mid;
			for (size_t r = 0; r < k; r++)
				if (m[r] && (m[r] -= left[r]))
					clo[r] = cmid[r];
		} else { /* the two middle order statistics part here */
			for (size_t r = 0; r < k; r++) {
				m2[r] = m[r] - left[r];
				clo2[r] = cmid[r];
				chi2[r] = chi[r];
				m[r] = left[r];
				chi[r] = cmid[r];
			}
			size_t i0 = hier_descend(rng, h, lo, mid, m, clo, chi, k0, cmid, left);
			size_t i1 = hier_descend(rng, h, mid, hi, m2, clo2, chi2, k1 - l, cmid, left);
			return stats_midpoint(h->pool[i0], h->pool[i1]);
		}
	}
	return h->pool[lo];
}

/* Total draws of a resample must fit the binomials' unsigned counts. */
static int hier_check_size(const struct hier *h, const char *what)
{
	uint64_t most = 0;
	for (size_t r = 0; r < h->k; r++)
		if (h->n[r] > most)
			most = h->n[r];
	if (most * h->k > UINT32_MAX)
		return error("%s: %zu repeats of up to %llu samples are too many for the bootstrap",
			     what, h->k, (unsigned long long)most);
	return 0;
}

/* McKean & Schrader's variance of the median of sorted x[0..n). */
static double median_var_ms(const double *x, size_t n)
{
	const double z = 1.959963984540054;
	double cf = round(((double)n + 1) / 2 - z * sqrt((double)n / 4));
	size_t c = cf < 1 ? 1 : (size_t)cf;
	if (c > (n + 1) / 2)
		c = (n + 1) / 2;
	double se = (x[n - c] - x[c - 1]) / (2 * z);
	return se * se;
}

static void hier_levels(const struct hier *h, struct stats_levels *lv)
{
	double mean = 0, ss = 0, within = 0;

	memset(lv, 0, sizeof(*lv));
	lv->repeats = h->k;
	lv->samples = h->n_all;
	lv->samples_min = lv->samples_max = h->n[0];
	for (size_t r = 0; r < h->k; r++) {
		if (h->n[r] < lv->samples_min)
			lv->samples_min = h->n[r];
		if (h->n[r] > lv->samples_max)
			lv->samples_max = h->n[r];
		mean += stats_median_sorted(h->rep[r], h->n[r]);
		within += median_var_ms(h->rep[r], h->n[r]);
	}
	mean /= (double)h->k;
	within /= (double)h->k;
	for (size_t r = 0; r < h->k; r++) {
		double d = stats_median_sorted(h->rep[r], h->n[r]) - mean;
		ss += d * d;
	}
	lv->within_var = within;
	lv->between_var = h->k >= 2 ? fmax(0.0, ss / (double)(h->k - 1) - within) : NAN;
	lv->ratio = h->k >= 2 && within > 0 ? lv->between_var / within : NAN;
}

int stats_boot_groups_median(const struct stats_groups *g, const struct stats_opts *o,
			     double *theta, size_t nboot)
{
	struct hier h;
	gsl_rng *rng = NULL;
	int ret = -1;

	if (hier_init(&h, g, "the sample set") < 0)
		return -1;
	if (hier_check_size(&h, "the sample set") < 0 || !(rng = stats_boot_rng(o)))
		goto fail;
	for (size_t b = 0; b < nboot; b++)
		theta[b] = hier_median_draw(rng, &h);
	ret = 0;
fail:
	if (rng)
		gsl_rng_free(rng);
	hier_release(&h);
	return ret;
}

int stats_summarize_groups(const struct stats_groups *g, const struct stats_opts *o,
			   struct stats_summary *out, struct stats_levels *lv)
{
	struct hier h;
	gsl_rng *rng = NULL;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (lv)
		memset(lv, 0, sizeof(*lv));
	if (stats_check_opts(o) < 0 || hier_init(&h, g, "the sample set") < 0)
		return -1;
	if (hier_check_size(&h, "the sample set") < 0)
		goto fail;
	stats_describe_sorted(h.pool, h.n_all, out);
	if (h.k == 1) { /* exactly the single-level summary */
		if (stats_boot_median(h.pool, h.n_all, o, out->median_ci, &out->ci_method) < 0)
			goto fail;
	} else {
		size_t nboot = (size_t)o->resamples;
		double *theta = xmalloc(nboot * sizeof(*theta));
		if (!(rng = stats_boot_rng(o))) {
			free(theta);
			goto fail;
		}
		for (size_t b = 0; b < nboot; b++)
			theta[b] = hier_median_draw(rng, &h);
		out->ci_method = stats_boot_interval(out->median, theta, nboot, NULL, 0, NULL, 0,
						     o->confidence, out->median_ci);
		free(theta);
	}
	out->repeats = h.k;
	if (lv)
		hier_levels(&h, lv);
	ret = 0;
fail:
	if (rng)
		gsl_rng_free(rng);
	hier_release(&h);
	return ret;
}

/* Mean and (k - 1) variance of the repeats' medians, logged when use_log. */
static void repeat_stats(const struct hier *h, int use_log, double *mean, double *var)
{
	double m = 0, ss = 0;
	for (size_t r = 0; r < h->k; r++) {
		double v = stats_median_sorted(h->rep[r], h->n[r]);
		m += use_log ? log(v) : v;
	}
	m /= (double)h->k;
	for (size_t r = 0; r < h->k; r++) {
		double v = stats_median_sorted(h->rep[r], h->n[r]);
		double d = (use_log ? log(v) : v) - m;
		ss += d * d;
	}
	*mean = m;
	*var = h->k >= 2 ? ss / (double)(h->k - 1) : 0;
}

/*
 * One side's part of delta's cluster-robust variance: x's placements
 * against the pooled sorted other side y (sign +1 when x is a, -1 when b),
 * summed per repeat.  *df gets the side's degrees of freedom.
 */
static double delta_side_var(const struct hier *x, const double *y, size_t ny, double d, int sign, double *df)
{
	double nx = (double)x->n_all, sum_sq = 0, iid = 0;
	for (size_t r = 0; r < x->k; r++) {
		const double *v = x->rep[r];
		size_t lt = 0, le = 0;
		double s = 0;
		for (size_t i = 0; i < x->n[r]; i++) {
			while (lt < ny && y[lt] < v[i])
				lt++;
			if (le < lt)
				le = lt;
			while (le < ny && y[le] <= v[i])
				le++;
			double p = sign * ((double)lt - (double)(ny - le)) / (double)ny - d;
			s += p;
			iid += p * p;
		}
		sum_sq += s * s;
	}
	if (x->k >= 2) {
		*df = (double)(x->k - 1);
		return (double)x->k / (double)(x->k - 1) * sum_sq / (nx * nx);
	}
	*df = nx - 1;
	return x->n_all >= 2 ? iid / (nx * (nx - 1)) : 0;
}

int stats_compare_groups(const struct stats_groups *a, const struct stats_groups *b,
			 const struct stats_opts *o, struct stats_comparison *out)
{
	struct hier ha, hb;
	gsl_rng *rng = NULL;
	double gt, lt, *theta = NULL;
	int exact, ret = -1;

	memset(out, 0, sizeof(*out));
	if (stats_check_opts(o) < 0 || hier_init(&ha, a, "the baseline (a)") < 0)
		return -1;
	if (hier_init(&hb, b, "the candidate (b)") < 0) {
		hier_release(&ha);
		return -1;
	}
	if (ha.k == 1 && hb.k == 1) { /* no run-to-run variance to estimate: the single-level comparison */
		ret = stats_compare_sorted(ha.pool, ha.n_all, hb.pool, hb.n_all, o, out);
		if (ret == 0 && !o->samples_independent) {
			/* ...of one process a side, which no test here can see past (rule 0) */
			out->one_process = 1;
			stats_verdict(out, o->alpha, o->threshold);
		}
		goto out;
	}
	if (hier_check_size(&ha, "the baseline (a)") < 0 || hier_check_size(&hb, "the candidate (b)") < 0)
		goto out;
	size_t na = ha.n_all, nb = hb.n_all;
	out->na = na;
	out->nb = nb;
	out->ka = ha.k;
	out->kb = hb.k;

	/* descriptive, on the pooled samples */
	if (stats_mwu_sorted(ha.pool, na, hb.pool, nb, &out->u, &out->p, &exact, &gt, &lt) < 0)
		goto out;
	out->delta = (gt - lt) / ((double)na * (double)nb);
	out->magnitude = stats_magnitude(out->delta);
	/* the means of every launch (rule 4: a minority of slow launches
	 * the medians leave out) */
	stats_mean_measure(ha.pool, na, hb.pool, nb, out);

	/* the test: Welch (or pooled Student) t on the repeats' (log) medians */
	int positive = ha.pool[0] > 0 && hb.pool[0] > 0;
	double ma, va, mb, vb, se2, df;
	repeat_stats(&ha, positive, &ma, &va);
	repeat_stats(&hb, positive, &mb, &vb);
	if (ha.k >= 2 && hb.k >= 2) {
		double sa = va / (double)ha.k, sb = vb / (double)hb.k;
		se2 = sa + sb;
		df = se2 > 0 ? se2 * se2 / (sa * sa / (double)(ha.k - 1) + sb * sb / (double)(hb.k - 1))
			     : (double)(ha.k + hb.k - 2);
	} else {
		df = (double)(ha.k + hb.k - 2);
		double sp2 = ((double)(ha.k - 1) * va + (double)(hb.k - 1) * vb) / df;
		se2 = sp2 * (1 / (double)ha.k + 1 / (double)hb.k);
	}
	double diff = ma - mb, se = sqrt(se2);
	out->test_df = df;
	out->test_sign = diff > 0 ? 1 : diff < 0 ? -1 : 0;
	out->p = se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(diff) / se, df) : diff == 0 ? 1 : 0;
	out->p_adjusted = out->p;
	out->mwu_method = "welch_log_medians";
	if (!positive)
		out->mwu_method = ha.k >= 2 && hb.k >= 2 ? "welch_medians" : "student_medians";
	else if (!(ha.k >= 2 && hb.k >= 2))
		out->mwu_method = "student_log_medians";

	/* delta's CI, cluster-robust */
	double dfa, dfb;
	double vda = delta_side_var(&ha, hb.pool, nb, out->delta, 1, &dfa);
	double vdb = delta_side_var(&hb, ha.pool, na, out->delta, -1, &dfb);
	double vd = vda + vdb, floor = (1 - out->delta * out->delta) / ((double)na * (double)nb - 1);
	double ddf = vd > 0 ? vd * vd / (vda * vda / dfa + vdb * vdb / dfb) : dfa + dfb;
	if (!(ddf >= 1))
		ddf = 1;
	stats_delta_interval(out->delta, vd > floor ? vd : floor,
			     gsl_cdf_tdist_Pinv(1 - (1 - o->confidence) / 2, ddf), out->delta_ci);
	out->delta_method = "asymptotic_repeats";

	/* the speedup and its two-level bootstrap CI */
	out->speedup = out->speedup_ci[0] = out->speedup_ci[1] = NAN;
	out->speedup_method = "none";
	out->min_detectable_speedup = NAN;
	if (positive) {
		size_t nboot = (size_t)o->resamples;
		if (!(rng = stats_boot_rng(o)))
			goto out;
		theta = xmalloc(nboot * sizeof(*theta));
		for (size_t k = 0; k < nboot; k++) {
			double da = ha.k == 1 ? stats_boot_median_draw(rng, ha.pool, na) : hier_median_draw(rng, &ha);
			double db = hb.k == 1 ? stats_boot_median_draw(rng, hb.pool, nb) : hier_median_draw(rng, &hb);
			theta[k] = da / db;
		}
		out->speedup = stats_median_sorted(ha.pool, na) / stats_median_sorted(hb.pool, nb);
		out->speedup_method = stats_boot_interval(out->speedup, theta, nboot, NULL, 0, NULL, 0,
							  o->confidence, out->speedup_ci);
		double tq = gsl_cdf_tdist_Pinv(1 - o->alpha / 2, df);
		out->min_detectable_speedup = stats_min_detectable(out->speedup_ci, tq * se, o->threshold);
	}
	out->small_n = na < STATS_MIN_N || nb < STATS_MIN_N || ha.k + hb.k < 4;
	out->few_processes = !o->samples_independent && (ha.k < STATS_MIN_PROCESSES || hb.k < STATS_MIN_PROCESSES);
	stats_verdict(out, o->alpha, o->threshold);
	ret = 0;
out:
	free(theta);
	if (rng)
		gsl_rng_free(rng);
	hier_release(&ha);
	hier_release(&hb);
	return ret;
}
