/*
 * evident_mix_fold.h - an optional capability of a problem plug-in: which
 * elements of an input must stay together when the CUDA harness mixes a
 * timed sample's inputs.
 *
 * Timed CUDA inputs are element-wise mixes of two sets of a distribution,
 * each element from one or the other by a fresh random bit a sample
 * (src/backends/scramble.h).  A distribution whose point is a relation
 * between elements of one input (gemm's `cancel`: column k + K/2 of A is
 * column k times (1 + d), row k + K/2 of B is minus row k) loses it when
 * related elements come from different sets: red team 8's fp16
 * accumulator passed every timed `cancel` check (docs/redteam8-cuda.md).
 *
 * A problem that has such a distribution includes this header besides
 * evident_problem.h and ends its source with EVIDENT_DEFINE_MIX_FOLD(fn).
 * fn(shape, dist, input, &dim, &modulus) returns 1 with *dim (0 .. ndim - 1
 * of input `input`) and *modulus (1 .. the dimension's extent) when the
 * elements whose index along *dim is equal modulo *modulus must come from
 * one set (they share a bit), 0 when every element may be mixed alone.
 * Like the rest of a problem it keeps no state between calls.
 *
 * It is a symbol of its own, not a field of struct ev_problem_desc, so that
 * adding it changed no other problem's sources: every record names its
 * problem's source and headers, and a changed header makes every claim on
 * those records stale (README, "Claims go stale").
 */
#ifndef EVIDENT_MIX_FOLD_H
#define EVIDENT_MIX_FOLD_H

#include "evident_problem.h"

typedef int (*ev_mix_fold_fn)(const long long *shape, int dist, int input, int *dim, long long *modulus);

#define EVIDENT_MIX_FOLD_SYMBOL "evident_problem_mix_fold"

#define EVIDENT_DEFINE_MIX_FOLD(FN)                                                              \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default"))) int evident_problem_mix_fold( \
		const long long *shape, int dist, int input, int *dim, long long *modulus)       \
	{                                                                                        \
		return FN(shape, dist, input, dim, modulus);                                     \
	}

#endif
