/*
 * evident_focus.h - an optional capability of a problem plug-in: output
 * entries judged one by one, each against the scale of its own terms,
 * at positions the kernel cannot know.
 *
 * The rule of evident_problem.h judges an output as a whole (rel_l2) and
 * each element against the largest reference value (atol ref_scale): an
 * entry that is small against the terms it sums is judged against the
 * large ones, so a method that errs by a fixed fraction of the terms
 * (gemm's fp16 partial sums, in chunks or not: docs/redteam18-cuda.md)
 * passes where fp32 accumulation is asked.  A problem with this
 * capability names, for a distribution, dtype and secret key, up to
 * `max` entries of output 0 with their float64 value and a bound: the
 * entry passes when |out - value| <= bound (and out is finite).  The
 * checker (src/backends/checker.c) asks after the kernel's output exists,
 * with a key derived from the launch's input seed (or its mixing key),
 * so the kernel, which sees the inputs and not the seed, cannot know
 * which entries are judged; every entry must be right.  An entry out of
 * its bound counts as out of tolerance (the check's `mismatches`).
 *
 * The problem computes the values and bounds itself, from the inputs as
 * the kernel saw them (rounded to the dtype): a few entries at O(terms)
 * each, whatever reference (float64, a GPU's fp32) the rest of the check
 * used.  It returns how many entries it wrote (0: no focus for this
 * distribution or dtype).  Like the rest of a problem it keeps no state.
 *
 * It is a symbol of its own, not a field of struct ev_problem_desc, so that
 * adding it changed no other problem's sources (as evident_mix_fold.h):
 * every record names its problem's source and headers, and a changed
 * header makes every claim on those records stale (README, "Claims go
 * stale").
 */
#ifndef EVIDENT_FOCUS_H
#define EVIDENT_FOCUS_H

#include "evident_problem.h"

/* The most entries one call may name (the checker's buffers). */
#define EV_FOCUS_MAX 4096

typedef long long (*ev_focus_fn)(const long long *shape, int dist, int dtype, uint64_t key,
				 const float *const *inputs, long long max, long long *index, double *value,
				 double *bound);

#define EVIDENT_FOCUS_SYMBOL "evident_problem_focus"

#define EVIDENT_DEFINE_FOCUS(FN)                                                                          \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default"))) long long evident_problem_focus(          \
		const long long *shape, int dist, int dtype, uint64_t key, const float *const *inputs,     \
		long long max, long long *index, double *value, double *bound)                             \
	{                                                                                                 \
		return FN(shape, dist, dtype, key, inputs, max, index, value, bound);                      \
	}

#endif
