/*
 * bench_scramble.c - what scrambling outputs costs, per sample, outside the
 * timed region (issue "The kernel under test is an adversary": keep the
 * cost of the defences visible).  Prints figures; asserts nothing.
 *
 * On the host backend the worker fills each output with the scramble
 * stream of scramble.h before every sample (evs_fill) and switches input
 * sets by pointer (no copy); on the GPU the harness runs the same stream as
 * a device kernel (its cost is the harness's, measured by
 * tests/gpu/harness_check on a GPU host).  This program times evs_fill on
 * the output sizes of the study's shapes, and evs_count_unwritten, which the
 * checker runs on every shipped output.
 * Usage: bench_scramble [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/scramble.h"
#include "base/util.h"

static double per_call_us(void (*fn)(void *, size_t, uint64_t), void *buf, size_t bytes, int reps)
{
	double best = 1e30;
	for (int r = 0; r < 5; r++) {
		double t0 = mono_now();
		for (int i = 0; i < reps; i++)
			fn(buf, bytes, (uint64_t)i * 0x9e3779b97f4a7c15ULL);
		double us = (mono_now() - t0) * 1e6 / reps;
		if (us < best)
			best = us;
	}
	return best;
}

static void fill(void *buf, size_t bytes, uint64_t key)
{
	evs_fill(buf, bytes, key);
}

static size_t sink;
static void count(void *buf, size_t bytes, uint64_t key)
{
	size_t first = 0;
	sink += evs_count_unwritten(buf, bytes, 2, key, &first);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 20;
	struct {
		const char *what;
		size_t bytes;
	} sizes[] = {
		{ "attention B2 H4 S256 D64 fp16 (adversary suite)", 2ull * 4 * 256 * 64 * 2 },
		{ "attention B4 H8 S512 D64 fp16 (iter1)", 4ull * 8 * 512 * 64 * 2 },
		{ "attention B4 H16 S4096 D128 fp16", 4ull * 16 * 4096 * 128 * 2 },
		{ "gemm 2048^2 fp16 output", 2048ull * 2048 * 2 },
	};
	printf("%-50s %12s %14s %12s %16s\n", "output", "bytes", "fill us/sample", "fill GB/s", "count us/check");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i].bytes;
		void *buf = xmalloc(n);
		memset(buf, 0, n);
		int r = n > (64u << 20) ? (reps + 9) / 10 : reps;
		double f = per_call_us(fill, buf, n, r);
		double c = per_call_us(count, buf, n, r);
		printf("%-50s %12zu %14.1f %12.2f %16.1f\n", sizes[i].what, n, f, (double)n / f / 1e3, c);
		free(buf);
	}
	printf("(best of 5 rounds; host CPU, one thread; input sets rotate by pointer: no copy, no cost)\n");
	return sink == (size_t)-1;
}
