/*
 * cmd_stats.c - `evident stats A.txt B.txt`: the statistics evident applies
 * to its own runs (stats.h), applied to any two sample files, so samples
 * from any other tool get the same summaries, test, effect size, speedup
 * and verdict.  A is the baseline, B the candidate.  Prints a readable
 * report, or with --json exactly one JSON object on one line, keys in the
 * documented (insertion) order, reals with 15 significant digits.  The command is a thin shell: options and
 * files here, every number from the library.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/evident.h"
#include "stats/stats.h"
#include "base/util.h"

static const char stats_usage[] =
	"usage: evident stats A.txt B.txt [--json] [--alpha X] [--threshold T]\n"
	"                     [--resamples B] [--seed S] [--confidence C]\n"
	"\n"
	"Compares samples B (the candidate) with samples A (the baseline), e.g. kernel\n"
	"times in us.  Each file holds one number per line; blank lines and '#' comments\n"
	"are ignored; anything else is an error naming the file and line.\n"
	"\n"
	"Reports per file n, min, max, mean, median (with a bootstrap CI), stdev, p5, p95,\n"
	"MAD and Tukey outliers; then the two-sided Mann-Whitney U test (exact p when both\n"
	"n < 50 and no ties, as R's wilcox.test, else normal with tie and continuity\n"
	"correction), Cliff's delta with a CI and magnitude (> 0: B's values tend to be\n"
	"smaller, i.e. for times B is faster), and the speedup\n"
	"median(A)/median(B) with a CI (> 1: B is faster).  CIs are bootstrap BCa where\n"
	"defined, percentile otherwise (the method is reported).\n"
	"\n"
	"The verdict is 'faster' or 'slower' only when p < alpha and the speedup CI lies\n"
	"wholly outside [1 - T, 1 + T]; otherwise 'no_difference'.  Too few samples\n"
	"for the test to mean anything (e.g. 3 vs 3) give a warning.  The bootstrap\n"
	"costs about resamples x (nA + nB) steps: lower --resamples for very large files.\n"
	"\n"
	"options:\n"
	"  --json            print one JSON object instead of the report\n"
	"  --alpha X         significance level (default 0.05)\n"
	"  --threshold T     noise band around a speedup of 1 (default 0.01, i.e. +-1%)\n"
	"  --resamples B     bootstrap resamples (default 10000, at least 100)\n"
	"  --seed S          seed of the bootstrap's random numbers (default 1)\n"
	"  --confidence C    confidence level of every CI (default 0.95)\n"
	"\n"
	"exit codes:\n"
	"  0    the statistics were computed (whatever the verdict)\n"
	"  1    an input file is bad: unreadable, empty, fewer than 2 samples, not numbers\n"
	"  2    bad command line\n";

static int usage_error(const char *msg, const char *arg)
{
	error(msg, arg);
	usage_print(stats_usage, 1);
	return EV_USAGE;
}

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !(v > lo && v < hi)) {
		error("%s: '%s' is not a number in (%g, %g)", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_ulong(const char *opt, const char *s, unsigned long lo, unsigned long hi,
		       unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *s == '-' || *s == '+' || *end || errno || v < lo || v > hi) {
		error("%s: '%s' is not a whole number in [%lu, %lu]", opt, s, lo, hi);
		return -1;
	}
	*out = v;
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

/* Reads a sample file for the command; prints the error.  Returns 0 or -1. */
static int read_set(const char *path, double **x, size_t *n)
{
	if (stats_read_samples(path, x, n) < 0)
		return -1;
	if (*n < 2) {
		error("'%s' has only 1 sample; need at least 2 to compare (one sample per line)", path);
		free(*x);
		*x = NULL;
		return -1;
	}
	return 0;
}

static void print_set(const char *label, const char *path, const struct stats_summary *s,
		      double confidence)
{
	printf("%s: '%s'\n", label, path);
	printf("  n %zu   min %.6g   max %.6g   mean %.6g   stdev %.6g\n",
	       s->n, s->min, s->max, s->mean, s->stdev);
	printf("  median %.6g   %g%% CI [%.6g, %.6g] (%s)\n", s->median, 100 * confidence, s->median_ci[0],
	       s->median_ci[1], s->ci_method);
	printf("  p5 %.6g   p95 %.6g   MAD %.6g   outliers %zu mild, %zu extreme (Tukey 1.5/3 IQR)\n",
	       s->p5, s->p95, s->mad, s->outliers_mild, s->outliers_extreme);
}

static void print_report(const char *pa, const char *pb, const struct stats_summary *sa,
			 const struct stats_summary *sb, const struct stats_comparison *c,
			 const struct stats_opts *o)
{
	double pct = 100 * o->confidence;

	print_set("a (baseline)", pa, sa, o->confidence);
	print_set("b (candidate)", pb, sb, o->confidence);
	printf("\nMann-Whitney U (two-sided, %s): U = %.6g, p = %.4g\n",
	       !strcmp(c->mwu_method, "exact") ? "exact" : "normal approximation, tie and continuity corrected",
	       c->u, c->p);
	printf("Cliff's delta: %.4f, %g%% CI [%.4f, %.4f] (%s), %s\n", c->delta, pct,
	       c->delta_ci[0], c->delta_ci[1], c->delta_method, c->magnitude);
	if (!strcmp(c->speedup_method, "none"))
		printf("speedup: not defined (needs every sample > 0)\n");
	else
		printf("speedup median(a)/median(b): %.4fx, %g%% CI [%.4f, %.4f] (%s)\n",
		       c->speedup, pct, c->speedup_ci[0], c->speedup_ci[1], c->speedup_method);
	printf("verdict: %s", c->verdict);
	if (!strcmp(c->verdict, "faster"))
		printf(" (b is faster: p < %g and the speedup CI lies above %g)\n", o->alpha, 1 + o->threshold);
	else if (!strcmp(c->verdict, "slower"))
		printf(" (b is slower: p < %g and the speedup CI lies below %g)\n", o->alpha, 1 - o->threshold);
	else
		printf(" (needs p < %g and a speedup CI wholly outside [%g, %g])\n", o->alpha,
		       1 - o->threshold, 1 + o->threshold);
	printf("bootstrap: %d resamples, seed %lu (mt19937)\n", o->resamples, o->seed);
}

static json_t *report_json(const struct stats_summary *sa, const struct stats_summary *sb,
			   const struct stats_comparison *c, const struct stats_opts *o)
{
	json_t *root = json_object(), *cmp = stats_comparison_json(c), *v;
	const char *key;

	json_object_set_new(root, "a", stats_summary_json(sa));
	json_object_set_new(root, "b", stats_summary_json(sb));
	json_object_foreach(cmp, key, v)
		json_object_set(root, key, v);
	json_decref(cmp);
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
	const char *files[2];
	int nfiles = 0, as_json = 0, ret = EV_FAILURES;
	double *a = NULL, *b = NULL;
	size_t na, nb;
	struct stats_summary sa, sb;
	struct stats_comparison c;

	if (wants_help(argc, argv)) {
		usage_print(stats_usage, 0);
		return EV_OK;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char name[32];

		if (!strcmp(arg, "--json")) {
			as_json = 1;
			continue;
		}
		if (!strcmp(arg, "--") ) {
			while (++i < argc) {
				if (nfiles == 2)
					return usage_error("unexpected argument '%s'; give two sample files", argv[i]);
				files[nfiles++] = argv[i];
			}
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			if (nfiles == 2)
				return usage_error("unexpected argument '%s'; give two sample files", arg);
			files[nfiles++] = arg;
			continue;
		}
		/* --name VALUE or --name=VALUE */
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		if (strcmp(name, "--alpha") && strcmp(name, "--threshold") && strcmp(name, "--resamples") &&
		    strcmp(name, "--seed") && strcmp(name, "--confidence"))
			return usage_error("unknown option '%s'; see 'evident stats --help'", arg);
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return usage_error("option '%s' needs a value", arg);

		int bad = 0;
		unsigned long ul;
		if (!strcmp(name, "--alpha"))
			bad = parse_double(name, val, 0, 1, &o.alpha);
		else if (!strcmp(name, "--confidence"))
			bad = parse_double(name, val, 0, 1, &o.confidence);
		else if (!strcmp(name, "--threshold")) {
			bad = parse_double(name, val, -1, 1, &o.threshold);
			if (!bad && o.threshold < 0)
				bad = error("--threshold: '%s' is negative; give a fraction such as 0.01", val);
		} else if (!strcmp(name, "--resamples")) {
			bad = parse_ulong(name, val, 100, 10000000, &ul);
			o.resamples = (int)ul;
		} else {
			bad = parse_ulong(name, val, 0, 0xffffffffUL, &ul);
			o.seed = ul;
		}
		if (bad) {
			usage_print(stats_usage, 1);
			return EV_USAGE;
		}
	}
	if (nfiles != 2)
		return usage_error("%s; give the baseline and the candidate sample files",
				   nfiles ? "only one sample file" : "no sample files");

	if (read_set(files[0], &a, &na) < 0 || read_set(files[1], &b, &nb) < 0)
		goto out;
	if (stats_summarize(a, na, &o, &sa) < 0 || stats_summarize(b, nb, &o, &sb) < 0 ||
	    stats_compare(a, na, b, nb, &o, &c) < 0)
		goto out;
	if (c.small_n)
		warning("%zu vs %zu samples are too few for the test to mean anything "
			"(the verdict cannot be 'faster' or 'slower'); collect at least %zu per file",
			na, nb, enough_n(o.alpha));
	if (!strcmp(c.speedup_method, "none"))
		warning("the speedup needs every sample > 0 (times); the verdict is 'no_difference'");

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
		print_report(files[0], files[1], &sa, &sb, &c, &o);
	}
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the report to standard output");
		goto out;
	}
	ret = EV_OK;
out:
	free(a);
	free(b);
	return ret;
}
