/*
 * sampler.c - the stop rules of sampler.h.
 */
#include "backends/sampler.h"

#include <math.h>

#include "base/util.h"

void sampler_init(struct sampler *s, const struct knobs *k)
{
	s->k = k;
	s->n = 0;
	s->mean = s->m2 = s->measured_s = 0;
	s->capped = s->converged = 0;
	s->t_start = mono_now();
}

double sampler_stdrel(const struct sampler *s)
{
	if (s->n < 2 || s->mean <= 0)
		return 0;
	return sqrt(s->m2 / (double)(s->n - 1)) / s->mean;
}

int sampler_push(struct sampler *s, double us)
{
	s->n++;
	double d = us - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (us - s->mean);
	s->measured_s += us * 1e-6;
	const struct knobs *k = s->k;
	if (k->samples > 0 && s->n >= (size_t)k->samples) {
		s->converged = 1;
		return 1;
	}
	if (k->samples == 0 && s->n >= 10 && s->measured_s >= k->min_seconds &&
	    sampler_stdrel(s) <= k->stdrel) {
		s->converged = 1;
		return 1;
	}
	size_t min_n = k->samples > 0 && k->samples < 10 ? (size_t)k->samples : 10;
	if (mono_now() - s->t_start >= k->max_seconds && s->n >= min_n) {
		s->capped = 1;
		return 1;
	}
	return 0;
}

int sampler_warming(const struct knobs *k, double started, long long launches)
{
	return launches < 1 || (mono_now() - started) * 1e3 < k->warmup_ms;
}
