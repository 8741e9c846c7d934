/*
 * health.c - timing health of one repeat (contract in health.h).
 *
 * Trend: the least-squares slope of time against sample index; it is
 * reported when the fitted change over the run exceeds 2% of the median
 * and its t statistic exceeds 4 (a drift, not noise).  Modes: Sarle's
 * bimodality coefficient b = (g^2 + 1) / (k + 3 (n-1)^2 / ((n-2)(n-3)))
 * with g the skewness and k the excess kurtosis; b > 5/9 (the value of a
 * uniform distribution) suggests two or more modes.  Both are
 * deliberately simple, documented screens: they flag a repeat for a human
 * to look at; the verdicts themselves come from the two-level bootstrap.
 */
#include "run/health.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void health_assess(const struct proto *p, const double *xs, size_t n, struct rec_health *h)
{
	memset(h, 0, sizeof(*h));
	h->have = 1;
	h->modes = 1;
	h->clock_mhz_min = h->clock_mhz_max = NAN;
	h->trend_pct = NAN;
	for (size_t i = 0; p && i < p->n_samples; i++) {
		h->throttled_samples += p->samples[i].throttled;
		double c = p->samples[i].clock_mhz;
		if (isfinite(c)) {
			if (isnan(h->clock_mhz_min) || c < h->clock_mhz_min)
				h->clock_mhz_min = c;
			if (isnan(h->clock_mhz_max) || c > h->clock_mhz_max)
				h->clock_mhz_max = c;
		}
	}
	if (n < 10)
		return;
	double *s = xmalloc(n * sizeof(double));
	memcpy(s, xs, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_d);
	double med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	free(s);
	/* slope of x against i */
	double mi = (double)(n - 1) / 2, mx = 0;
	for (size_t i = 0; i < n; i++)
		mx += xs[i];
	mx /= (double)n;
	double sxy = 0, sxx = 0, syy = 0;
	for (size_t i = 0; i < n; i++) {
		double di = (double)i - mi, dx = xs[i] - mx;
		sxy += di * dx;
		sxx += di * di;
		syy += dx * dx;
	}
	double slope = sxy / sxx;
	double resid = syy - slope * sxy;
	double se = n > 2 && resid > 0 ? sqrt(resid / (double)(n - 2) / sxx) : 0;
	double change = slope * (double)(n - 1);
	h->trend_pct = med > 0 ? 100.0 * change / med : NAN;
	h->trend = se > 0 && fabs(slope / se) > 4 && fabs(h->trend_pct) > 2;
	/* bimodality coefficient */
	double m2 = 0, m3 = 0, m4 = 0;
	for (size_t i = 0; i < n; i++) {
		double d = xs[i] - mx;
		m2 += d * d;
		m3 += d * d * d;
		m4 += d * d * d * d;
	}
	m2 /= (double)n;
	m3 /= (double)n;
	m4 /= (double)n;
	if (m2 > 0) {
		double g = m3 / pow(m2, 1.5), k = m4 / (m2 * m2) - 3;
		double nn = (double)n;
		double b = (g * g + 1) / (k + 3 * (nn - 1) * (nn - 1) / ((nn - 2) * (nn - 3)));
		if (b > 5.0 / 9.0)
			h->modes = 2;
	}
	if (h->throttled_samples)
		h->note = "the GPU reported throttling during some samples";
	else if (h->trend)
		h->note = "the times drift over the run (a trend over the sample index)";
	else if (h->modes > 1)
		h->note = "the times look multimodal (two regimes?)";
}
