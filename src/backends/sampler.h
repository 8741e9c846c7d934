/*
 * sampler.h - when to stop warming up and when to stop sampling: the one
 * rule both backends use (the host worker's loop and the CUDA worker's
 * sample callback), so `timing:` knobs mean the same everywhere.
 *
 *   warm-up   launch until warmup_ms of wall time has passed (at least one
 *             launch); a backend may extend it while the clocks settle
 *   fixed     samples > 0: exactly that many, unless max_seconds of wall
 *             time pass first (then capped, with at least min(samples,10))
 *   adaptive  samples == 0: at least 10 samples and min_seconds of measured
 *             time, then stop once stdev/mean <= stdrel; max_seconds caps
 */
#ifndef EVIDENT_SAMPLER_H
#define EVIDENT_SAMPLER_H

#include <stddef.h>

#include "backends/knobs.h"

struct sampler {
	const struct knobs *k;
	size_t n;
	double mean, m2;        /* Welford, of the pushed times */
	double measured_s;      /* sum of the pushed times, seconds */
	double t_start;         /* wall clock at sampler_init */
	int capped, converged;
};

void sampler_init(struct sampler *s, const struct knobs *k);
/* Add one sample (microseconds); 1 when sampling stops after it. */
int sampler_push(struct sampler *s, double us);
/* stdev/mean of the pushed samples (0 with fewer than 2). */
double sampler_stdrel(const struct sampler *s);
/* 1 while warm-up should go on: started is the wall clock at its start. */
int sampler_warming(const struct knobs *k, double started, long long launches);

#endif /* EVIDENT_SAMPLER_H */
