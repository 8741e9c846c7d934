/*
 * cmd_stats.c - `evident stats A.txt B.txt`: the statistics evident applies
 * to its own runs (stats.h), applied to any two sample files, so samples
 * from any other tool get the same summaries, test, effect size, speedup
 * and verdict.  A is the baseline, B the candidate; either may be several
 * comma-separated files, one per repeat (worker process), which switches to
 * the two-level statistics of stats_hier.c.  Prints a readable report, or
 * with --json exactly one JSON object on one line, keys in the documented
 * (insertion) order, reals with 15 significant digits.  The command is a
 * thin shell: options and files here, every number from the library.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "record/record.h"
#include "stats/stats.h"
#include "base/util.h"

static const char synopsis[] =
	"usage: evident stats A.txt B.txt [--json] [--alpha X] [--threshold T]\n"
	"                     [--resamples B] [--seed S] [--confidence C]\n"
	"       evident stats A1.txt,A2.txt,A3.txt B1.txt,B2.txt,B3.txt [options]\n"
	"\n"
	"Compares samples B (the candidate) with samples A (the baseline), e.g. kernel\n"
	"times in us.  Each file holds one number per line; blank lines and '#' comments\n"
	"are ignored.  A number is a plain decimal: optional sign, digits with an optional\n"
	"'.', optional exponent (12, -3.5, .5, 1e-3, 2.5E+4).  Anything else is an error\n"
	"naming the file and line: hex (0x1p3), nan, inf, trailing text, and values a\n"
	"double cannot hold (magnitude above 1.8e308, or non-zero below 2.2e-308).\n"
	"\n"
	"Repeats: give a side as comma-separated files, one per repeat (a separate worker\n"
	"process; file names must not contain ','), and its samples are not taken as\n"
	"independent across repeats: the median's CI and the speedup's CI come from a\n"
	"two-level bootstrap (repeats, then samples within each), the p-value from\n"
	"Welch's t test on the repeats' log medians, and the report shows the\n"
	"run-to-run (between) and within-repeat variance of the median.  One file a side\n"
	"is taken as independent samples (from any tool): if each file holds one\n"
	"process's samples, their CIs cover that process, not the next run, which is why\n"
	"evident never draws a verdict from its own runs with one repeat a side.\n"
	"\n"
	"Reports per side n, min, max, mean, median (with a bootstrap CI), stdev, p5, p95,\n"
	"MAD and Tukey outliers; then the two-sided Mann-Whitney U test (exact p when both\n"
	"n < 50 and no ties, as R's wilcox.test, else normal with tie and continuity\n"
	"correction), Cliff's delta with a CI and magnitude (> 0: B's values tend to be\n"
	"smaller, i.e. for times B is faster), and the speedup\n"
	"median(A)/median(B) with a CI (> 1: B is faster).  CIs are bootstrap BCa where\n"
	"defined, percentile otherwise (the method is reported).  Above 5000 samples in\n"
	"all, Cliff's delta's CI is Cliff's asymptotic one (method 'asymptotic') and the\n"
	"speedup's resample medians are drawn in O(log n), so 10^7 samples take seconds.\n"
	"\n"
	"The verdict is 'faster' or 'slower' only when p < alpha, the speedup CI lies\n"
	"wholly outside [1 - T, 1 + T] and Cliff's delta's CI excludes 0, all in the same\n"
	"direction; 'no_difference' only when the whole speedup CI lies inside\n"
	"[1 - T, 1 + T] (equivalence is shown, not assumed).  'inconclusive' when the\n"
	"samples are too few (e.g. 4 vs 4), the measures point in opposite directions,\n"
	"or the CI is too wide to decide either way.  The report says why, and the\n"
	"smallest speedup this comparison could detect.\n";

static const struct opt_usage usage = {
	"stats", synopsis,
	"exit codes:\n"
	"  0    the statistics were computed (whatever the verdict)\n"
	"  1    an input file is bad: unreadable, empty, fewer than 2 samples, not numbers\n"
	"  2    bad command line\n"
};

/* --threshold: a fraction in [0, 1); a negative band is a mistake worth
 * naming. */
static int parse_threshold(const struct option *opt, const char *arg)
{
	double t;
	if (opt_parse_number(arg, &t) < 0 || !(t < 1))
		return error("--threshold: '%s' is not a number in [0, 1)", arg);
	if (t < 0)
		return error("--threshold: '%s' is negative; give a fraction such as 0.01", arg);
	*(double *)opt->value = t;
	return 0;
}

/* The smallest n per file that is not small_n at this alpha (stats.h). */
static size_t enough_n(double alpha)
{
	size_t n = STATS_MIN_N;
	while (2 * exp(2 * lgamma(n + 1.0) - lgamma(2.0 * n + 1)) >= alpha && n < 1000)
		n++;
	return n;
}

/* One side of the comparison: one file, or one per repeat. */
struct side {
	const char *arg;          /* as given: "a.txt" or "a1.txt,a2.txt" */
	size_t k, total;
	char **paths;             /* k file names (owned) */
	double **x;               /* x[r][0..n[r]), sorted (owned) */
	size_t *n;
	struct stats_summary sum;
	struct stats_levels lv;
};

static void side_release(struct side *s)
{
	for (size_t r = 0; r < s->k; r++) {
		free(s->paths[r]);
		if (s->x)
			free(s->x[r]);
	}
	free(s->paths);
	free(s->x);
	free(s->n);
	memset(s, 0, sizeof(*s));
}

/* Splits "f1,f2,..." into s->paths.  Returns 0, or -1 after error() (a usage error). */
static int side_split(struct side *s, const char *arg)
{
	const char *p = arg;
	memset(s, 0, sizeof(*s));
	s->arg = arg;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len)
			return error("'%s': an empty file name; give repeats as A1.txt,A2.txt,...", arg);
		s->paths = xrealloc(s->paths, (s->k + 1) * sizeof(*s->paths));
		s->paths[s->k++] = xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

/* Reads and sorts every file of a side; prints the error.  Returns 0 or -1. */
static int side_read(struct side *s)
{
	s->x = xcalloc(s->k, sizeof(*s->x));
	s->n = xcalloc(s->k, sizeof(*s->n));
	for (size_t r = 0; r < s->k; r++) {
		if (stats_read_samples(s->paths[r], &s->x[r], &s->n[r]) < 0)
			return -1;
		stats_sort(s->x[r], s->n[r]); /* once here, not in every statistic */
		s->total += s->n[r];
	}
	if (s->total < 2) {
		if (s->k == 1)
			return error("'%s' has only 1 sample; need at least 2 to compare (one sample per line)",
				     s->paths[0]);
		return error("'%s' have only 1 sample in all; need at least 2 to compare", s->arg);
	}
	return 0;
}

static struct stats_groups side_groups(const struct side *s)
{
	struct stats_groups g = { s->k, (const double *const *)s->x, s->n };
	return g;
}

static void print_set(const char *label, const struct side *sd, double confidence)
{
	const struct stats_summary *s = &sd->sum;
	printf("%s: '%s'\n", label, sd->arg);
	if (sd->k > 1)
		printf("  repeats %zu, %zu to %zu samples each; variance of the median: between repeats %.4g,"
		       " within %.4g (ratio %.3g)\n", sd->lv.repeats, sd->lv.samples_min, sd->lv.samples_max,
		       sd->lv.between_var, sd->lv.within_var, sd->lv.ratio);
	printf("  n %zu   min %.6g   max %.6g   mean %.6g   stdev %.6g\n",
	       s->n, s->min, s->max, s->mean, s->stdev);
	printf("  median %.6g   %g%% CI [%.6g, %.6g] (%s%s)\n", s->median, 100 * confidence, s->median_ci[0],
	       s->median_ci[1], s->ci_method, s->repeats > 1 ? ", two-level" : "");
	printf("  p5 %.6g   p95 %.6g   MAD %.6g   outliers %zu mild, %zu extreme (Tukey 1.5/3 IQR)\n",
	       s->p5, s->p95, s->mad, s->outliers_mild, s->outliers_extreme);
}

static const char *test_name(const char *method)
{
	if (!strcmp(method, "exact"))
		return "Mann-Whitney U (two-sided, exact)";
	if (!strcmp(method, "normal"))
		return "Mann-Whitney U (two-sided, normal approximation, tie and continuity corrected)";
	if (!strcmp(method, "welch_log_medians"))
		return "Welch's t test on the repeats' log medians";
	if (!strcmp(method, "welch_medians"))
		return "Welch's t test on the repeats' medians";
	if (!strcmp(method, "student_log_medians"))
		return "Student's t test (pooled variance) on the repeats' log medians";
	return "Student's t test (pooled variance) on the repeats' medians";
}

static void print_report(const struct side *a, const struct side *b, const struct stats_comparison *c,
			 const struct stats_opts *o)
{
	double pct = 100 * o->confidence;
	int grouped = c->ka > 1 || c->kb > 1;

	print_set("a (baseline)", a, o->confidence);
	print_set("b (candidate)", b, o->confidence);
	if (grouped) {
		printf("\nMann-Whitney U of the pooled samples (descriptive): U = %.10g\n", c->u);
		printf("%s (df %.3g): p = %.4g\n", test_name(c->mwu_method), c->test_df, c->p);
	} else {
		printf("\n%s: U = %.10g, p = %.4g\n", test_name(c->mwu_method), c->u, c->p);
	}
	printf("Cliff's delta: %.4f, %g%% CI [%.4f, %.4f] (%s), %s\n", c->delta, pct,
	       c->delta_ci[0], c->delta_ci[1], c->delta_method, c->magnitude);
	if (!strcmp(c->speedup_method, "none"))
		printf("speedup: not defined (needs every sample > 0)\n");
	else
		printf("speedup median(a)/median(b): %.4fx, %g%% CI [%.4f, %.4f] (%s%s)\n",
		       c->speedup, pct, c->speedup_ci[0], c->speedup_ci[1], c->speedup_method,
		       grouped ? ", two-level" : "");
	printf("verdict: %s (%s; alpha %g, noise band [%g, %g])\n", c->verdict, c->verdict_reason, o->alpha,
	       1 - o->threshold, 1 + o->threshold);
	if (isfinite(c->min_detectable_speedup))
		printf("smallest detectable speedup: %.4fx (about half the time, at this CI's width)\n",
		       c->min_detectable_speedup);
	printf("bootstrap: %d resamples, seed %lu (mt19937)%s\n", o->resamples, o->seed,
	       grouped ? ", two-level: repeats, then samples within each" : "");
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *levels_json(const struct stats_levels *lv)
{
	json_t *o = json_object();
	json_object_set_new(o, "repeats", json_integer((json_int_t)lv->repeats));
	json_object_set_new(o, "samples", json_integer((json_int_t)lv->samples));
	json_object_set_new(o, "samples_min", json_integer((json_int_t)lv->samples_min));
	json_object_set_new(o, "samples_max", json_integer((json_int_t)lv->samples_max));
	json_object_set_new(o, "between_var", num_or_null(lv->between_var));
	json_object_set_new(o, "within_var", num_or_null(lv->within_var));
	json_object_set_new(o, "ratio", num_or_null(lv->ratio));
	return o;
}

static json_t *report_json(const struct side *a, const struct side *b, const struct stats_comparison *c,
			   const struct stats_opts *o)
{
	json_t *root = json_object(), *cmp = record_comparison_json(c), *v;
	const char *key;

	json_object_set_new(root, "a", record_summary_json(&a->sum));
	json_object_set_new(root, "b", record_summary_json(&b->sum));
	json_object_foreach(cmp, key, v)
		json_object_set(root, key, v);
	json_decref(cmp);
	if (c->ka > 1 || c->kb > 1) {
		json_t *lv = json_object();
		json_object_set_new(lv, "a", levels_json(&a->lv));
		json_object_set_new(lv, "b", levels_json(&b->lv));
		json_object_set_new(root, "test_df", num_or_null(c->test_df));
		json_object_set_new(root, "levels", lv);
	}
	json_object_set_new(root, "resamples", json_integer(o->resamples));
	json_object_set_new(root, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(root, "confidence", json_real(o->confidence));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "threshold", json_real(o->threshold));
	return root;
}

int cmd_stats(int argc, const char **argv)
{
	struct stats_opts o = STATS_OPTS_INIT;
	int as_json = 0, ret = EV_FAILURES;
	struct side sa, sb;
	struct stats_comparison c;
	const struct option opts[] = {
		OPT_BOOL("json", &as_json, "print one JSON object instead of the report"),
		OPT_DOUBLE("alpha", &o.alpha, "X", "(0, 1)", "significance level (default 0.05)"),
		OPT_CALLBACK("threshold", &o.threshold, "T", parse_threshold,
			     "noise band around a speedup of 1 (default 0.01, i.e. +-1%)"),
		OPT_INT("resamples", &o.resamples, "B", "[100, 10000000]", "bootstrap resamples (default 10000, at least 100)"),
		OPT_ULONG("seed", &o.seed, "S", "[0, 4294967295]", "seed of the bootstrap's random numbers (default 1)"),
		OPT_DOUBLE("confidence", &o.confidence, "C", "(0, 1)", "confidence level of every CI (default 0.95)"),
		OPT_END(),
	};

	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 2) {
		opt_usage_error(&usage, "unexpected argument '%s'; give two sample files", argv[2]);
		return EV_USAGE;
	}
	if (argc < 2) {
		opt_usage_error(&usage, "%s; give the baseline and the candidate sample files",
				argc ? "only one sample file" : "no sample files");
		return EV_USAGE;
	}
	if (side_split(&sa, argv[0]) < 0 || side_split(&sb, argv[1]) < 0) {
		side_release(&sa);
		side_release(&sb);
		opt_print_usage(&usage, stderr);
		return EV_USAGE;
	}

	if (side_read(&sa) < 0 || side_read(&sb) < 0)
		goto out;
	struct stats_groups ga = side_groups(&sa), gb = side_groups(&sb);
	/* one file a side: samples from any tool, taken as independent draws;
	 * a side given as repeats is one process per file, and one a side
	 * cannot happen here (a comma list has two files at least) */
	o.samples_independent = sa.k == 1 && sb.k == 1;
	if (stats_summarize_groups(&ga, &o, &sa.sum, &sa.lv) < 0 ||
	    stats_summarize_groups(&gb, &o, &sb.sum, &sb.lv) < 0 || stats_compare_groups(&ga, &gb, &o, &c) < 0)
		goto out;
	if (c.small_n && (c.ka > 1 || c.kb > 1))
		warning("%zu vs %zu repeats (%zu vs %zu samples) are too few for the test to mean anything "
			"(the verdict is 'inconclusive'); collect at least 2 repeats per side and %d in all",
			c.ka, c.kb, c.na, c.nb, 4);
	else if (c.small_n)
		warning("%zu vs %zu samples are too few for the test to mean anything "
			"(the verdict is 'inconclusive'); collect at least %zu per file",
			c.na, c.nb, enough_n(o.alpha));
	if (!strcmp(c.speedup_method, "none"))
		warning("the speedup needs every sample > 0 (times); the verdict is 'inconclusive'");

	if (as_json) {
		json_t *j = report_json(&sa, &sb, &c, &o);
		char *s = json_dumps(j, JSON_REAL_PRECISION(15));
		json_decref(j);
		if (!s) {
			error("cannot format the JSON report");
			ret = EV_INTERNAL;
			goto out;
		}
		puts(s);
		free(s);
	} else {
		print_report(&sa, &sb, &c, &o);
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the report to standard output");
		goto out;
	}
	ret = EV_OK;
out:
	side_release(&sa);
	side_release(&sb);
	return ret;
}
