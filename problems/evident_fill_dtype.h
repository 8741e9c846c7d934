/*
 * evident_fill_dtype.h - an optional capability of a problem plug-in: a
 * fill that knows the dtype its inputs will be rounded to.
 *
 * fill() of evident_problem.h draws one set of inputs for every dtype, so
 * a distribution must stay inside the narrowest dtype's range (fp16's:
 * 6e-5 .. 65504), and the fp32 and bf16 runs never see the rest of their
 * own.  A method exact only over the narrow range then passes every fp32
 * check and is wrong on ordinary fp32 data: red team 291's fix32.c, a
 * fixed-point rowsum at a 2^-32 step, `ok` 12 of 12 runs and `validated`
 * supported while rowsum's secret scale stopped at 2^-14 for every dtype
 * (tests/fixtures/adversary/host/redteam291/README.md, row 1).
 *
 * A problem that wants a range per dtype includes this header besides
 * evident_problem.h and ends its source with EVIDENT_DEFINE_FILL_DTYPE(fn).
 * fn(shape, dist, seed, dtype, inputs) is fill() with the dtype (EV_F32,
 * EV_F16, EV_BF16) the runner rounds the inputs to afterwards: it writes
 * every input, as float, finite after that rounding.  Where a problem
 * exports it the runner calls it instead of fill() for every check and
 * timed sample (src/backends/problem.c problem_fill_rounded); fill()
 * stays required (the judge's fingerprint hashes it) and should keep a
 * range every dtype holds.  Like the rest of a problem it keeps no state
 * between calls.
 *
 * It is a symbol of its own, not a field of struct ev_problem_desc, so that
 * adding it changed no other problem's sources: every record names its
 * problem's source and headers, and a changed header makes every claim on
 * those records stale (README, "Claims go stale").
 */
#ifndef EVIDENT_FILL_DTYPE_H
#define EVIDENT_FILL_DTYPE_H

#include "evident_problem.h"

typedef void (*ev_fill_dtype_fn)(const long long *shape, int dist, uint64_t seed, int dtype, float *const *inputs);

#define EVIDENT_FILL_DTYPE_SYMBOL "evident_problem_fill_dtype"

#define EVIDENT_DEFINE_FILL_DTYPE(FN)                                                             \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default"))) void evident_problem_fill_dtype( \
		const long long *shape, int dist, uint64_t seed, int dtype, float *const *inputs)   \
	{                                                                                           \
		FN(shape, dist, seed, dtype, inputs);                                               \
	}

#endif
