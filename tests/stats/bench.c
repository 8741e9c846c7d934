/*
 * bench.c - the C half of `make bench-stats` (driven by scripts/bench-stats).
 *
 *   stats_bench gen DIR    writes the benchmark's data sets into DIR, so that
 *                          SciPy (scripts/bench-stats-scipy.py) times the
 *                          very same numbers:
 *                            boot.txt          n = 1000 times (lognormal around 321 us)
 *                            big_a.txt, big_b.txt  10^6 times each, quantized to
 *                                              0.01 us (so with ties, as GPU timers give)
 *                            n5_a.txt ... n7_b.txt  10^5, 10^6, 10^7 times per side
 *                                              alike, for whole `evident stats A B` runs
 *   stats_bench time DIR   times evident's library on them and prints lines
 *                          "key<TAB>seconds<TAB>result" (best of REPEAT runs),
 *                          including the two-level bootstrap of 5 repeats x
 *                          10^4 samples (generated here, not read).
 *
 * A benchmark that prints figures, not a test: nothing here passes or fails.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "base/util.h"

#define BIG_N 1000000
#define HUGE_N 10000000
#define BOOT_N 1000
#define REPEAT 3

static int write_set(const char *dir, const char *name, const double *x, size_t n, int quantized)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int ret = 0;
	if (!f) {
		ret = error("cannot write '%s'", path);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, quantized ? "%.2f\n" : "%.17g\n", x[i]);
	if (fclose(f))
		ret = error("cannot write '%s'", path);
out:
	free(path);
	return ret;
}

/* n GPU-like times: 321 us plus a gamma tail, quantized to 0.01 us (ties). */
static void gpu_times(gsl_rng *r, double *x, size_t n, double base)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (double)(long)((base + gsl_ran_gamma(r, 2, 0.5)) * 100 + 0.5) / 100;
}

static int gen(const char *dir)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *x = xmalloc(HUGE_N * sizeof(*x));
	int ret = 0;

	gsl_rng_set(r, 42);
	for (size_t i = 0; i < BOOT_N; i++)
		x[i] = 321 * gsl_ran_lognormal(r, 0, 0.02);
	ret |= write_set(dir, "boot.txt", x, BOOT_N, 0);
	gpu_times(r, x, BIG_N, 321);
	ret |= write_set(dir, "big_a.txt", x, BIG_N, 1);
	gpu_times(r, x, BIG_N, 320.99);
	ret |= write_set(dir, "big_b.txt", x, BIG_N, 1);
	for (size_t e = 5, n = 100000; e <= 7; e++, n *= 10) {
		char name[32];
		gpu_times(r, x, n, 321);
		snprintf(name, sizeof(name), "n%zu_a.txt", e);
		ret |= write_set(dir, name, x, n, 1);
		gpu_times(r, x, n, 320.9); /* a 0.03% speedup: inside the noise band */
		snprintf(name, sizeof(name), "n%zu_b.txt", e);
		ret |= write_set(dir, name, x, n, 1);
	}
	free(x);
	gsl_rng_free(r);
	return ret;
}

static double *load(const char *dir, const char *name, size_t *n)
{
	char *path = xstrfmt("%s/%s", dir, name);
	double *x;
	if (stats_read_samples(path, &x, n) < 0)
		exit(1);
	free(path);
	return x;
}

static int run(const char *dir)
{
	struct stats_opts o = STATS_OPTS_INIT; /* 10,000 resamples, 0.95 */
	size_t nb, na, nbb;
	double *boot = load(dir, "boot.txt", &nb);
	double *a = load(dir, "big_a.txt", &na), *b = load(dir, "big_b.txt", &nbb);
	double best, t;

	/* 1. BCa CI of the median, n = 1000, 10,000 resamples (the whole summary) */
	struct stats_summary s;
	best = 1e30;
	for (int k = 0; k < REPEAT; k++) {
		t = mono_now();
		if (stats_summarize(boot, nb, &o, &s) < 0)
			return 1;
		t = mono_now() - t;
		best = t < best ? t : best;
	}
	printf("bootstrap\t%.6f\t[%.4f, %.4f] %s\n", best, s.median_ci[0], s.median_ci[1], s.ci_method);

	/* 2. Mann-Whitney U at 10^6 per group: copy, sort both, one merge */
	double u = 0, p = 0, gt, lt;
	int exact;
	double *sa = xmalloc(na * sizeof(*sa)), *sb = xmalloc(nbb * sizeof(*sb));
	best = 1e30;
	for (int k = 0; k < REPEAT; k++) {
		t = mono_now();
		memcpy(sa, a, na * sizeof(*sa));
		memcpy(sb, b, nbb * sizeof(*sb));
		gsl_sort(sa, 1, na);
		gsl_sort(sb, 1, nbb);
		if (stats_mwu_sorted(sa, na, sb, nbb, &u, &p, &exact, &gt, &lt) < 0)
			return 1;
		t = mono_now() - t;
		best = t < best ? t : best;
	}
	printf("mwu\t%.6f\tU=%.1f p=%.6g\n", best, u, p);

	/* 3. Cliff's delta at 10^6 per group */
	double d = 0;
	best = 1e30;
	for (int k = 0; k < REPEAT; k++) {
		t = mono_now();
		d = stats_cliffs_delta(a, na, b, nbb);
		t = mono_now() - t;
		best = t < best ? t : best;
	}
	printf("delta\t%.6f\tdelta=%.6f\n", best, d);

	/* 4. a whole comparison at n = 1000 vs 1000 (U, delta CI, speedup CI) */
	struct stats_comparison c;
	double *boot_b = xmalloc(nb * sizeof(*boot_b));
	for (size_t i = 0; i < nb; i++)
		boot_b[i] = boot[(i * 7919) % nb] * 0.99;
	best = 1e30;
	for (int k = 0; k < REPEAT; k++) {
		t = mono_now();
		if (stats_compare(boot, nb, boot_b, nb, &o, &c) < 0)
			return 1;
		t = mono_now() - t;
		best = t < best ? t : best;
	}
	printf("compare\t%.6f\tspeedup %.4f [%.4f, %.4f]\n", best, c.speedup, c.speedup_ci[0], c.speedup_ci[1]);

	/* 5. two-level: 5 repeats x 10^4 samples per side, 10,000 resamples (summaries and comparison) */
	{
		gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
		double *ga = xmalloc(50000 * sizeof(*ga)), *gb = xmalloc(50000 * sizeof(*gb));
		const double *xa[5], *xb[5];
		size_t ns[5];
		struct stats_summary s1, s2;
		struct stats_levels l1, l2;
		gsl_rng_set(r, 7);
		for (size_t k = 0; k < 5; k++) {
			gpu_times(r, ga + k * 10000, 10000, 321 * (1 + 0.01 * gsl_ran_gaussian(r, 1)));
			gpu_times(r, gb + k * 10000, 10000, 315 * (1 + 0.01 * gsl_ran_gaussian(r, 1)));
			xa[k] = ga + k * 10000;
			xb[k] = gb + k * 10000;
			ns[k] = 10000;
		}
		struct stats_groups g1 = { 5, xa, ns }, g2 = { 5, xb, ns };
		best = 1e30;
		for (int k = 0; k < REPEAT; k++) {
			t = mono_now();
			if (stats_summarize_groups(&g1, &o, &s1, &l1) < 0 || stats_summarize_groups(&g2, &o, &s2, &l2) < 0 ||
			    stats_compare_groups(&g1, &g2, &o, &c) < 0)
				return 1;
			t = mono_now() - t;
			best = t < best ? t : best;
		}
		printf("hier\t%.6f\tspeedup %.4f [%.4f, %.4f] p %.3g %s\n", best, c.speedup, c.speedup_ci[0],
		       c.speedup_ci[1], c.p, c.verdict);
		free(ga);
		free(gb);
		gsl_rng_free(r);
	}
	if (fflush(stdout))
		return 1;
	free(boot_b);
	free(sa);
	free(sb);
	free(a);
	free(b);
	free(boot);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "gen"))
		return gen(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "time"))
		return run(argv[2]);
	fprintf(stderr, "usage: stats_bench gen|time DIR\n");
	return 2;
}
