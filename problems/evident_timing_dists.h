/*
 * evident_timing_dists.h - an optional capability of a problem plug-in:
 * which of its input distributions the reported time is measured on.
 *
 * Timed samples meet every distribution of the problem, so that the code
 * that is timed is the code that is checked (red teams 3 and 8).  But a
 * stress distribution is there to exercise the numerics, and some are
 * exactly structured: gemm's `cancel` makes row k + K/2 of B minus row k,
 * so a kernel that detects it computes C over half of K, exactly (red team
 * 12, cancel_half); attention's `peaked` makes O about V[argmax].  A speed
 * only such an input has is no speed of the kernel's: the samples of a
 * stress distribution are still timed, checked and held to every escape
 * rule, but only the samples of the timing distributions make the
 * reported time (src/backends/scramble.h evs_sample_dist: three of every
 * four samples are of a timing distribution, the fourth of a stress one).
 *
 * A problem whose timing distributions are not just its first ("uniform")
 * includes this header besides evident_problem.h and ends its source with
 * EVIDENT_DEFINE_TIMING_DISTS(mask): bit d of mask set for each timing
 * distribution d (0 .. n_dists - 1).  A problem without it is timed on
 * distribution 0 alone.  The mask must name at least one distribution and
 * none past the problem's n_dists (problem_load refuses it otherwise).
 *
 * It is a symbol of its own, not a field of struct ev_problem_desc, so that
 * adding it changed no other problem's sources (as evident_mix_fold.h):
 * every record names its problem's source and headers, and a changed
 * header makes every claim on those records stale (README, "Claims go
 * stale").
 */
#ifndef EVIDENT_TIMING_DISTS_H
#define EVIDENT_TIMING_DISTS_H

#include "evident_problem.h"

typedef unsigned (*ev_timing_dists_fn)(void);

#define EVIDENT_TIMING_DISTS_SYMBOL "evident_problem_timing_dists"

#define EVIDENT_DEFINE_TIMING_DISTS(MASK)                                                            \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default"))) unsigned evident_problem_timing_dists( \
		void)                                                                                  \
	{                                                                                              \
		return (unsigned)(MASK);                                                               \
	}

#endif
