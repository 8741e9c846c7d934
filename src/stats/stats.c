/*
 * stats.c - the public face of the statistics module (stats.h): checking
 * options and samples, the per-set summary, the two-set comparison and its
 * verdict, Holm's correction over a sweep, JSON forms of both results and
 * reading sample files.  The arithmetic lives in stats_mwu.c (rank tests)
 * and stats_boot.c (bootstrap and BCa); this file puts them together.
 */
#include <errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "base/util.h"

static int check_opts(const struct stats_opts *o)
{
	if (o->resamples < 100)
		return error("resamples must be at least 100, not %d", o->resamples);
	if (!(o->confidence > 0 && o->confidence < 1))
		return error("confidence must lie strictly between 0 and 1, not %g", o->confidence);
	if (!(o->alpha > 0 && o->alpha < 1))
		return error("alpha must lie strictly between 0 and 1, not %g", o->alpha);
	if (!(o->threshold >= 0 && o->threshold < 1))
		return error("threshold must lie in [0, 1), not %g", o->threshold);
	return 0;
}

/* A sorted copy of x[0..n) for the caller to free(); NULL after error(). */
static double *sorted_copy(const double *x, size_t n, const char *what)
{
	if (!n) {
		error("%s has no samples", what);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i])) {
			error("%s sample %zu is %g; samples must be finite numbers", what, i + 1, x[i]);
			return NULL;
		}
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	return s;
}

int stats_summarize(const double *x, size_t n, const struct stats_opts *o,
		    struct stats_summary *out)
{
	double *s, *dev;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (check_opts(o) < 0 || !(s = sorted_copy(x, n, "the sample set")))
		return -1;
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = gsl_stats_mean(s, 1, n);
	out->stdev = n >= 2 ? gsl_stats_sd_m(s, 1, n, out->mean) : NAN;
	out->median = gsl_stats_median_from_sorted_data(s, 1, n);
	out->p5 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.05);
	out->p95 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.95);

	double q1 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.25);
	double q3 = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.75);
	double iqr = q3 - q1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < q1 - 3 * iqr || s[i] > q3 + 3 * iqr)
			out->outliers_extreme++;
		else if (s[i] < q1 - 1.5 * iqr || s[i] > q3 + 1.5 * iqr)
			out->outliers_mild++;
	}

	dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(s[i] - out->median);
	gsl_sort(dev, 1, n);
	out->mad = gsl_stats_median_from_sorted_data(dev, 1, n);
	free(dev);

	if (stats_boot_median(s, n, o, out->median_ci, &out->ci_method) < 0)
		goto fail;
	ret = 0;
fail:
	free(s);
	return ret;
}

const char *stats_magnitude(double delta)
{
	double d = fabs(delta);
	if (isnan(d))
		return "negligible";
	return d < 0.147 ? "negligible" : d < 0.33 ? "small" : d < 0.474 ? "medium" : "large";
}

const char *stats_verdict(double p, const double speedup_ci[2], double alpha, double threshold)
{
	if (!(p < alpha) || isnan(speedup_ci[0]) || isnan(speedup_ci[1]))
		return "no_difference";
	if (speedup_ci[0] > 1 + threshold)
		return "faster";
	if (speedup_ci[1] < 1 - threshold)
		return "slower";
	return "no_difference";
}

/* The smallest two-sided p the exact test can give: 2 / choose(na + nb, na). */
static double min_attainable_p(size_t na, size_t nb)
{
	double lchoose = gsl_sf_lnchoose((unsigned)(na + nb), (unsigned)na);
	return fmin(1.0, 2 * exp(-lchoose));
}

int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  const struct stats_opts *o, struct stats_comparison *out)
{
	double *sa = NULL, *sb = NULL;
	int exact, ret = -1;
	double gt, lt;

	memset(out, 0, sizeof(*out));
	if (check_opts(o) < 0)
		return -1;
	if (!(sa = sorted_copy(a, na, "the baseline (a)")) ||
	    !(sb = sorted_copy(b, nb, "the candidate (b)")))
		goto fail;
	out->na = na;
	out->nb = nb;
	if (stats_mwu_sorted(sa, na, sb, nb, &out->u, &out->p, &exact, &gt, &lt) < 0)
		goto fail;
	out->mwu_method = exact ? "exact" : "normal";
	out->p_adjusted = out->p;
	out->delta = (gt - lt) / ((double)na * (double)nb);
	out->magnitude = stats_magnitude(out->delta);

	int positive = sa[0] > 0 && sb[0] > 0;
	out->speedup = out->speedup_ci[0] = out->speedup_ci[1] = NAN;
	out->speedup_method = "none";
	if (positive)
		out->speedup = stats_median_sorted(sa, na) / stats_median_sorted(sb, nb);
	if (stats_boot_compare(sa, na, sb, nb, o, positive, out->speedup_ci, &out->speedup_method,
			       out->delta_ci, &out->delta_method) < 0)
		goto fail;

	out->small_n = na < STATS_MIN_N || nb < STATS_MIN_N || min_attainable_p(na, nb) >= o->alpha;
	out->verdict = stats_verdict(out->p, out->speedup_ci, o->alpha, o->threshold);
	ret = 0;
fail:
	free(sa);
	free(sb);
	return ret;
}

static int cmp_index_by_p(const void *x, const void *y, void *arg)
{
	const double *p = arg;
	double a = p[*(const size_t *)x], b = p[*(const size_t *)y];
	return a < b ? -1 : a > b ? 1 : 0;
}

void stats_holm(const double *p, size_t n, double *adjusted)
{
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx)), m = 0;
	double *pv = xmalloc((n ? n : 1) * sizeof(*pv)), running = 0;

	memcpy(pv, p, n * sizeof(*pv)); /* adjusted may alias p */
	for (size_t i = 0; i < n; i++) {
		if (isnan(pv[i]))
			adjusted[i] = NAN;
		else
			idx[m++] = i;
	}
	qsort_r(idx, m, sizeof(*idx), cmp_index_by_p, pv);
	/* p_(k) adjusted = max_{j <= k} min(1, (m - j) p_(j)), k, j from 0 */
	for (size_t k = 0; k < m; k++) {
		double v = fmin(1.0, (double)(m - k) * pv[idx[k]]);
		running = fmax(running, v);
		adjusted[idx[k]] = running;
	}
	free(pv);
	free(idx);
}

void stats_holm_comparisons(struct stats_comparison *c, size_t n, double alpha, double threshold)
{
	double *p = xmalloc((n ? n : 1) * sizeof(*p));
	for (size_t i = 0; i < n; i++)
		p[i] = c[i].p;
	stats_holm(p, n, p);
	for (size_t i = 0; i < n; i++) {
		c[i].p_adjusted = p[i];
		c[i].verdict = stats_verdict(p[i], c[i].speedup_ci, alpha, threshold);
	}
	free(p);
}

/* A JSON number, or null where JSON has none (NaN, infinities). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *pair(const double v[2])
{
	json_t *a = json_array();
	json_array_append_new(a, num(v[0]));
	json_array_append_new(a, num(v[1]));
	return a;
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *stats_summary_json(const struct stats_summary *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "median", num(s->median));
	json_object_set_new(o, "mean", num(s->mean));
	json_object_set_new(o, "min", num(s->min));
	json_object_set_new(o, "max", num(s->max));
	json_object_set_new(o, "stdev", num(s->stdev));
	json_object_set_new(o, "median_ci", pair(s->median_ci));
	json_object_set_new(o, "ci_method", str(s->ci_method));
	json_object_set_new(o, "p5", num(s->p5));
	json_object_set_new(o, "p95", num(s->p95));
	json_object_set_new(o, "mad", num(s->mad));
	json_object_set_new(o, "outliers_mild", json_integer((json_int_t)s->outliers_mild));
	json_object_set_new(o, "outliers_extreme", json_integer((json_int_t)s->outliers_extreme));
	return o;
}

json_t *stats_comparison_json(const struct stats_comparison *c)
{
	json_t *o = json_object(), *mw = json_object(), *cd = json_object(), *sp = json_object();
	json_object_set_new(mw, "u", num(c->u));
	json_object_set_new(mw, "p", num(c->p));
	json_object_set_new(mw, "p_adjusted", num(c->p_adjusted));
	json_object_set_new(mw, "method", str(c->mwu_method));
	json_object_set_new(cd, "delta", num(c->delta));
	json_object_set_new(cd, "ci", pair(c->delta_ci));
	json_object_set_new(cd, "magnitude", str(c->magnitude));
	json_object_set_new(cd, "method", str(c->delta_method));
	json_object_set_new(sp, "ratio", num(c->speedup));
	json_object_set_new(sp, "ci", pair(c->speedup_ci));
	json_object_set_new(sp, "method", str(c->speedup_method));
	json_object_set_new(o, "mann_whitney", mw);
	json_object_set_new(o, "cliffs_delta", cd);
	json_object_set_new(o, "speedup", sp);
	json_object_set_new(o, "verdict", str(c->verdict));
	json_object_set_new(o, "small_n", json_boolean(c->small_n));
	return o;
}

#define SAMPLE_HINT "(one sample per line; '#' starts a comment)"

int stats_read_samples(const char *path, double **out, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;
	double *v = NULL;
	size_t nv = 0, alloc = 0, lineno = 0;
	char *line, *next;

	*out = NULL;
	*n = 0;
	if (read_file(path, &sb) < 0)
		return -1;
	for (line = sb.buf; line && line < sb.buf + sb.len; line = next) {
		char *end, *hash;
		double x;

		lineno++;
		next = memchr(line, '\n', sb.buf + sb.len - line);
		if (next)
			*next++ = '\0';
		if (strlen(line) != (size_t)((next ? next - 1 : sb.buf + sb.len) - line)) {
			error("'%s' line %zu: has a NUL byte; is it a text file? %s", path, lineno, SAMPLE_HINT);
			goto fail;
		}
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\f' || *line == '\v')
			line++;
		rtrim(line);
		if (!*line)
			continue;
		errno = 0;
		x = strtod(line, &end);
		if (end == line || *end) {
			error("'%s' line %zu: '%.40s' is not a number %s", path, lineno, line, SAMPLE_HINT);
			goto fail;
		}
		if (!isfinite(x)) {
			error("'%s' line %zu: '%.40s' is not a finite number; samples must be finite",
			      path, lineno, line);
			goto fail;
		}
		if (nv == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[nv++] = x;
	}
	if (!nv) {
		error("'%s' has no samples %s", path, SAMPLE_HINT);
		goto fail;
	}
	strbuf_release(&sb);
	*out = v;
	*n = nv;
	return 0;
fail:
	free(v);
	strbuf_release(&sb);
	return -1;
}
