/*
 * stats.h - the statistics of evident: per-sample-set summaries with a
 * bootstrap CI of the median, and candidate-vs-baseline comparisons
 * (two-sided Mann-Whitney U, Cliff's delta with a CI, speedup = ratio of
 * medians with a CI), Holm's correction over a sweep and the verdict.
 *
 * Who uses it: `evident stats` (cmd_stats.c), the run summary, the records
 * (statistics stored next to the samples) and the paper generator.  It is
 * plain library code: functions return 0 or a negative value after error(),
 * never exit, and allocate only what they document.
 *
 * Definitions (issue 5; a = baseline, b = candidate, e.g. times in us):
 *   - U is the statistic of a: #(a_i > b_j) + 0.5 #(a_i = b_j), as R's
 *     wilcox.test(a, b)$statistic and SciPy's mannwhitneyu(a, b).statistic.
 *     The p-value is two-sided and matches R 4.2's wilcox.test(a, b,
 *     correct = TRUE): exact (the distribution of U by dynamic programming,
 *     like R's cwilcox) when na < 50, nb < 50 and there are no ties in the
 *     pooled sample, else the normal approximation with tie and continuity
 *     correction.  Where R gives NaN (every value in both sets equal, so the
 *     variance of U is 0) we report p = 1: there is no evidence of any
 *     difference.
 *   - Cliff's delta = (#(a > b) - #(a < b)) / (na nb), O(n log n) by sorting
 *     and merging.  Positive delta means a tends to be larger, i.e. for times
 *     the candidate b is faster.  Magnitudes (Romano et al. 2006): |d| < 0.147
 *     negligible, < 0.33 small, < 0.474 medium, else large.
 *   - speedup = median(a) / median(b) (> 1: b is faster).  Needs every sample
 *     > 0 (times); otherwise it is NaN with method "none".
 *   - Bootstrap: B resamples with replacement (a and b resampled
 *     independently for two-sample statistics) from GSL's mt19937 seeded
 *     with opts->seed, so a result is reproducible from (data, seed, B).
 *     Intervals are BCa (Efron & Tibshirani ch. 14, the same formulas as
 *     SciPy 1.10's bootstrap(method='BCa'), multi-sample jackknife
 *     included) where defined, and percentile otherwise (a degenerate
 *     bootstrap or jackknife distribution, or n < 2); ci_method says which.
 *     Percentiles of the bootstrap distribution use linear interpolation
 *     (R type 7, numpy's default).
 *   - Quantiles (p5, p95, quartiles) are R's type 7; stdev uses n - 1; MAD
 *     is the raw median of |x - median| (R's mad(x, constant = 1); multiply
 *     by 1.4826 for a normal-consistent sigma).  Tukey outliers use type-7
 *     quartiles: "extreme" lie beyond 3 IQR from the box, "mild" beyond
 *     1.5 IQR but not beyond 3 (the two counts are disjoint).
 *   - verdict: "faster"/"slower" only when p < alpha and the speedup CI
 *     lies wholly outside [1 - threshold, 1 + threshold]; else
 *     "no_difference".  Over a sweep, stats_holm_comparisons() adjusts the
 *     p-values (Holm) and re-derives each verdict from the adjusted value.
 *   - small_n: 1 when the comparison cannot mean anything: the smallest
 *     p-value the exact test could ever give for these sizes is >= alpha
 *     (e.g. 3 vs 3 samples), or a set has fewer than STATS_MIN_N samples
 *     (a bootstrap of the median from 4 values has almost no distinct
 *     resamples).
 */
#ifndef EVIDENT_STATS_H
#define EVIDENT_STATS_H

#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <stddef.h>

#define STATS_MIN_N 5

struct stats_opts {
	int resamples;        /* bootstrap resamples B (>= 100) */
	double confidence;    /* of every CI, in (0, 1) */
	double alpha;         /* significance level of the verdict, in (0, 1) */
	double threshold;     /* noise band t of the verdict: [1 - t, 1 + t], in [0, 1) */
	unsigned long seed;   /* seed of GSL's mt19937 for the bootstrap */
};
#define STATS_OPTS_INIT { 10000, 0.95, 0.05, 0.01, 1 }

struct stats_summary {
	size_t n;
	double min, max, mean, median, stdev, p5, p95, mad;
	size_t outliers_mild, outliers_extreme;   /* Tukey 1.5 / 3 IQR, disjoint */
	double median_ci[2];
	const char *ci_method;                    /* "bca" | "percentile" (static string) */
};

/*
 * Summarises x[0..n) (n >= 1, every value finite; x is not modified).
 * stdev is NaN when n == 1.  Returns 0, or -1 after error() on bad input.
 */
int stats_summarize(const double *x, size_t n, const struct stats_opts *o,
		    struct stats_summary *out);

struct stats_comparison {
	double u, p;
	const char *mwu_method;         /* "exact" | "normal" */
	double delta, delta_ci[2];
	const char *magnitude;          /* negligible | small | medium | large */
	const char *delta_method;       /* "bca" | "percentile" */
	double speedup, speedup_ci[2];
	const char *speedup_method;     /* "bca" | "percentile" | "none" */
	const char *verdict;            /* "faster" | "slower" | "no_difference" */
	int small_n;                    /* 1 if n too small to mean anything */
	double p_adjusted;              /* Holm-adjusted p over a sweep; = p for one comparison */
	size_t na, nb;
};

/*
 * a = baseline, b = candidate (n >= 1 each, finite values; not modified).
 * speedup = median(a)/median(b), > 1 means b faster.  All strings in *out
 * are static.  Returns 0, or -1 after error() on bad input.
 */
int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  const struct stats_opts *o, struct stats_comparison *out);

/*
 * Holm's step-down adjustment of p[0..n) into adjusted[0..n) (may alias p).
 * NaN entries stay NaN and do not count towards n, as R's p.adjust does.
 */
void stats_holm(const double *p, size_t n, double *adjusted);
/* Sets c[i].p_adjusted by Holm over all n and re-derives each verdict from it. */
void stats_holm_comparisons(struct stats_comparison *c, size_t n, double alpha, double threshold);

/* The verdict rule above; returns a static string.  NaN p or CI -> "no_difference". */
const char *stats_verdict(double p, const double speedup_ci[2], double alpha, double threshold);
/* Romano et al.'s label for |delta|; static string. */
const char *stats_magnitude(double delta);

/*
 * JSON forms, keys in insertion order (jansson keeps it; do not dump with
 * JSON_SORT_KEYS if you want the documented order).  Non-finite numbers
 * become null.  New reference; the caller json_decref()s.
 *   summary:    {"n","median","mean","min","max","stdev","median_ci":[lo,hi],
 *                "ci_method","p5","p95","mad","outliers_mild","outliers_extreme"}
 *   comparison: {"mann_whitney":{"u","p","p_adjusted","method"},
 *                "cliffs_delta":{"delta","ci":[lo,hi],"magnitude","method"},
 *                "speedup":{"ratio","ci":[lo,hi],"method"},
 *                "verdict","small_n"}
 */
json_t *stats_summary_json(const struct stats_summary *s);
json_t *stats_comparison_json(const struct stats_comparison *c);

/*
 * Reads one number per line from path; blank lines and '#' comments (whole
 * line or after the number) are ignored; anything else, NaN or infinity
 * included, is an error naming file:line.  A file with no sample is an
 * error too.  On success *out is a new array the caller free()s and *n >= 1;
 * on error *out is NULL and *n is 0.
 */
int stats_read_samples(const char *path, double **out, size_t *n);

/* ---- building blocks (stats_mwu.c, stats_boot.c), exposed for tests ---- */

/*
 * Mann-Whitney U of sorted a against sorted b (ascending), with the
 * two-sided p-value as above.  *exact is set to 1 when the exact
 * distribution was used.  Also returns Cliff's delta's counts:
 * *gt = #(a > b), *lt = #(a < b).  Returns 0 or error().
 */
int stats_mwu_sorted(const double *a, size_t na, const double *b, size_t nb,
		     double *u, double *p, int *exact, double *gt, double *lt);
/*
 * Exact two-sided p for U = u (a half-integer rounds down) with sizes m, n
 * (>= 1), no ties.  Time O(m^2 n^2): about 10 ms at m = n = 49.  Returns
 * NaN when m or n exceeds STATS_EXACT_MAX_N.
 */
#define STATS_EXACT_MAX_N 200
double stats_mwu_exact_p(double u, size_t m, size_t n);

/* Cliff's delta of unsorted a, b in O(n log n).  Returns NaN if na or nb is 0. */
double stats_cliffs_delta(const double *a, size_t na, const double *b, size_t nb);

/* Median of sorted x (n >= 1). */
double stats_median_sorted(const double *x, size_t n);

/*
 * Jackknife (leave-one-out) values.  The input arrays are sorted ascending.
 * median: jack[0..n).  ratio (median(a)/median(b)) and delta: jack[0..na)
 * leave out one a, jack[na..na+nb) leave out one b.  Need every n >= 2.
 */
void stats_jackknife_median(const double *x, size_t n, double *jack);
void stats_jackknife_ratio(const double *a, size_t na, const double *b, size_t nb, double *jack);
void stats_jackknife_delta(const double *a, size_t na, const double *b, size_t nb, double *jack);

/*
 * The CI from a bootstrap distribution theta_b[0..nboot) (sorted in place):
 * BCa from theta_hat and the jackknife groups jack_a[0..na), jack_b[0..nb)
 * (jack_b NULL/nb 0 for a one-sample statistic; jack_a NULL for "no
 * jackknife", which forces the percentile method), else percentile.
 * Returns the method used ("bca" | "percentile", static).
 */
const char *stats_boot_interval(double theta_hat, double *theta_b, size_t nboot,
				const double *jack_a, size_t na,
				const double *jack_b, size_t nb,
				double confidence, double ci[2]);

/*
 * The bootstraps themselves (x, a, b sorted ascending, n >= 1 each; at most
 * 2^32 - 1 samples).  Cost O(resamples * n).  Each seeds its own mt19937
 * from o->seed.  stats_boot_compare fills the ratio CI only when want_ratio
 * (all samples > 0).  Return 0 or error().
 */
/* The median of one bootstrap resample of sorted x (n >= 1, n < 2^32), in O(log n) (stats_boot.c). */
double stats_boot_median_draw(const gsl_rng *r, const double *x, size_t n);
int stats_boot_median(const double *x, size_t n, const struct stats_opts *o,
		      double ci[2], const char **method);
int stats_boot_compare(const double *a, size_t na, const double *b, size_t nb,
		       const struct stats_opts *o, int want_ratio,
		       double ratio_ci[2], const char **ratio_method,
		       double delta_ci[2], const char **delta_method);

#endif /* EVIDENT_STATS_H */
