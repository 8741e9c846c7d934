/*
 * bench_fresh.c - what a fresh timed CUDA sample's inputs cost on the host
 * (fresh.h): the problem's fill, rounding and packing of one sample, per
 * distribution, one thread (CPU seconds), and the pool's rate with its
 * threads (sets per wall second).  A host-only microbenchmark through the
 * problem plug-in; no GPU.
 *
 *   make build/bench/bench_fresh
 *   build/bench/bench_fresh attention_fwd fp16 4 8 512 64 [-n samples] [-t threads]
 *
 * (the shape in the problem's key order: attention B H S D).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/fresh.h"
#include "backends/problem.h"
#include "backends/scramble.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t draw(void *ctx, long long k)
{
	(void)ctx;
	return evs_mix64(0xbe4c0000ULL + (uint64_t)k) | 1;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_fresh PROBLEM DTYPE DIM... [-n samples] [-t threads]\n");
		return 2;
	}
	const char *name = argv[1];
	int dtype = dtype_from_name(argv[2]);
	long long shape[8];
	int nd = 0, samples = 8, threads = 3;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			samples = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (nd < 8)
			shape[nd++] = atoll(argv[i]);
	}
	struct problem pr = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *cache = getenv("EVIDENT_TEST_CACHE");
	if (problem_load(name, cache && *cache ? cache : "build/cache", &pr, &why) < 0) {
		fprintf(stderr, "cannot load %s: %s\n", name, strbuf_str(&why));
		return 1;
	}
	size_t elems = 0, bytes = 0;
	for (int t = 0; t < pr.n_inputs; t++) {
		elems += problem_tensor_numel(&pr, t, shape);
		bytes += problem_tensor_numel(&pr, t, shape) * dtype_size(dtype);
	}
	printf("%s %s shape", name, argv[2]);
	for (int i = 0; i < nd; i++)
		printf(" %lld", shape[i]);
	printf(": %zu input elements a sample (%.1f MB at the dtype)\n", elems, bytes / 1e6);
	float **in = problem_inputs_new(&pr, shape);
	void *packed = malloc(bytes / pr.n_inputs * pr.n_inputs + 64);
	for (int d = 0; d < pr.desc->n_dists; d++) {
		double best = 1e30, sum = 0;
		int reps = samples < 3 ? samples : 3;
		for (int r = 0; r < reps; r++) {
			double c0 = cpu_now();
			problem_fill_rounded(&pr, shape, d, fresh_seed(draw(NULL, r), 0), dtype, in);
			for (int t = 0; t < pr.n_inputs; t++)
				problem_pack(in[t], packed, problem_tensor_numel(&pr, t, shape), dtype);
			double c = cpu_now() - c0;
			sum += c;
			best = c < best ? c : best;
		}
		printf("  %-14s fill+round+pack, one thread: %.4f s CPU a sample (best of %d; mean %.4f)\n",
		       pr.desc->dists[d], best, reps, sum / reps);
	}
	int nt, ns; /* as the worker sizes it, with `threads` CPUs to spare */
	fresh_pool_size(bytes, elems * sizeof(float), dtype == EV_F32, threads, (size_t)2 << 30, &nt, &ns);
	struct fresh_pool fp;
	double t0 = mono_now();
	if (fresh_pool_start(&fp, &pr, shape, dtype, nt, ns, draw, NULL) < 0)
		return 1;
	for (int k = 0; k < samples; k++) {
		struct fresh_set *s = fresh_pool_take(&fp);
		if (!s)
			return 1;
		fresh_pool_put(&fp, s);
	}
	double wall = mono_now() - t0;
	printf("  pool, %d threads %d slots: %d samples in %.3f s wall: %.4f s a sample; fill CPU %.4f s a "
	       "sample (every distribution as the draw gives)\n",
	       nt, ns, samples, wall, wall / samples, fp.fill_cpu_s / (double)fp.taken);
	fresh_pool_stop(&fp);
	problem_buffers_free(in, pr.n_inputs);
	free(packed);
	problem_release(&pr);
	strbuf_release(&why);
	return 0;
}
