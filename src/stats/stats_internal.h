/*
 * stats_internal.h - what the files of src/stats/ share with each other and
 * nobody else: option checks, sorted copies, the summary's descriptive part
 * and the comparison on already sorted data.  The public interface, with
 * every definition, is stats.h.
 */
#ifndef EVIDENT_STATS_INTERNAL_H
#define EVIDENT_STATS_INTERNAL_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

/* Checks the options; 0 or error(). */
int stats_check_opts(const struct stats_opts *o);
/* A sorted copy of x[0..n) (finite values, n >= 1) for the caller to free(); NULL after error(). */
double *stats_sorted_copy(const double *x, size_t n, const char *what);
/* Every summary field but median_ci/ci_method from sorted s[0..n); repeats = 1. */
void stats_describe_sorted(const double *s, size_t n, struct stats_summary *out);
/* stats_compare on sorted copies (options already checked). */
int stats_compare_sorted(const double *sa, size_t na, const double *sb, size_t nb,
			 const struct stats_opts *o, struct stats_comparison *out);
/* (1 + t) exp(max(h, half_log_test)), h the log half-width of ci; NaN unless ci > 0. */
double stats_min_detectable(const double ci[2], double half_log_test, double threshold);

/* (a + b) / 2 without overflow (a <= b finite); exact as (a + b) / 2 when that is finite. */
static inline double stats_midpoint(double a, double b)
{
	double m = 0.5 * (a + b);
	return isfinite(m) ? m : 0.5 * a + 0.5 * b;
}

/*
 * Uniform integer in [0, n), n >= 1, from a generator with a full 32-bit
 * range (mt19937): Lemire's multiply-and-reject, unbiased.
 */
static inline uint32_t stats_draw_below(const gsl_rng *r, uint32_t n)
{
	uint64_t m = (uint64_t)(uint32_t)gsl_rng_get(r) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t t = (uint32_t)(-n) % n;
		while (low < t) {
			m = (uint64_t)(uint32_t)gsl_rng_get(r) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

#endif /* EVIDENT_STATS_INTERNAL_H */
