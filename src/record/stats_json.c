/*
 * stats_json.c - the statistics a record embeds (a summary of samples, a
 * comparison with the baseline), both directions.  The same objects are
 * `evident stats --json`'s output, so a comparison reads the same in a
 * record, on the terminal and in a script.  Keys are written in a fixed,
 * documented order (README "Reading a record"); non-finite numbers are
 * written as null and read back as NAN.
 */
#include "record/record.h"

#include <math.h>
#include <string.h>

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

json_t *record_summary_json(const struct stats_summary *s)
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
	json_object_set_new(o, "repeats", json_integer((json_int_t)(s->repeats ? s->repeats : 1)));
	return o;
}

json_t *record_comparison_json(const struct stats_comparison *c)
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
	/* the means of every launch (stats.h rule 4), where computed */
	if (c->mean_speedup > 0 && isfinite(c->mean_speedup))
		json_object_set_new(o, "means", json_pack("{s:o, s:o}", "ratio", num(c->mean_speedup), "p", num(c->mean_p)));
	/* and of their work (rule 4b), where the runs recorded it */
	if (c->work_speedup > 0 && isfinite(c->work_speedup)) {
		json_t *wm = json_pack("{s:o}", "ratio", num(c->work_speedup));
		/* the bounds a verdict reads (rule 4b), where they differ */
		if (c->work_speedup_fast > 0 && isfinite(c->work_speedup_fast) && c->work_speedup_fast != c->work_speedup)
			json_object_set_new(wm, "ratio_fast", num(c->work_speedup_fast));
		if (c->work_speedup_slow > 0 && isfinite(c->work_speedup_slow) && c->work_speedup_slow != c->work_speedup)
			json_object_set_new(wm, "ratio_slow", num(c->work_speedup_slow));
		/* the shares of each side's work its threads' handshake
		 * widening credits to the harness (rule 4c's bound) */
		if (isfinite(c->work_credit[0]) && isfinite(c->work_credit[1]))
			json_object_set_new(wm, "thread_credit", pair(c->work_credit));
		json_object_set_new(o, "work_means", wm);
	}
	json_object_set_new(o, "verdict", str(c->verdict));
	json_object_set_new(o, "small_n", json_boolean(c->small_n));
	json_object_set_new(o, "verdict_reason", str(c->verdict_reason));
	/* rule 4c's bound: the speedup the work supports, which a claim's
	 * size may not pass */
	if (c->size_bound > 0 && isfinite(c->size_bound))
		json_object_set_new(o, "size_bound", num(c->size_bound));
	json_object_set_new(o, "min_detectable_speedup", num(c->min_detectable_speedup));
	json_t *k = json_array();
	json_array_append_new(k, json_integer((json_int_t)(c->ka ? c->ka : 1)));
	json_array_append_new(k, json_integer((json_int_t)(c->kb ? c->kb : 1)));
	json_object_set_new(o, "repeats", k);
	json_object_set_new(o, "test_sign", json_integer(c->test_sign));
	return o;
}

static double rnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *rstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void rpair(json_t *o, const char *k, double v[2])
{
	json_t *a = json_object_get(o, k);
	json_t *x = json_array_get(a, 0), *y = json_array_get(a, 1);
	v[0] = json_is_number(x) ? json_number_value(x) : NAN;
	v[1] = json_is_number(y) ? json_number_value(y) : NAN;
}

int record_summary_read(json_t *j, struct stats_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!json_is_object(j))
		return -1;
	json_t *n = json_object_get(j, "n");
	s->n = json_is_integer(n) ? (size_t)json_integer_value(n) : 0;
	s->median = rnum(j, "median");
	s->mean = rnum(j, "mean");
	s->min = rnum(j, "min");
	s->max = rnum(j, "max");
	s->stdev = rnum(j, "stdev");
	rpair(j, "median_ci", s->median_ci);
	s->ci_method = rstr(j, "ci_method");
	s->p5 = rnum(j, "p5");
	s->p95 = rnum(j, "p95");
	s->mad = rnum(j, "mad");
	s->outliers_mild = (size_t)json_integer_value(json_object_get(j, "outliers_mild"));
	s->outliers_extreme = (size_t)json_integer_value(json_object_get(j, "outliers_extreme"));
	json_t *rp = json_object_get(j, "repeats");
	s->repeats = json_is_integer(rp) ? (size_t)json_integer_value(rp) : 1;
	return 0;
}

int record_comparison_read(json_t *j, struct stats_comparison *c)
{
	memset(c, 0, sizeof(*c));
	if (!json_is_object(j))
		return -1;
	json_t *mw = json_object_get(j, "mann_whitney"), *cd = json_object_get(j, "cliffs_delta"),
	       *sp = json_object_get(j, "speedup");
	c->u = rnum(mw, "u");
	c->p = rnum(mw, "p");
	c->p_adjusted = rnum(mw, "p_adjusted");
	c->mwu_method = rstr(mw, "method");
	c->delta = rnum(cd, "delta");
	rpair(cd, "ci", c->delta_ci);
	c->magnitude = rstr(cd, "magnitude");
	c->delta_method = rstr(cd, "method");
	c->speedup = rnum(sp, "ratio");
	rpair(sp, "ci", c->speedup_ci);
	c->speedup_method = rstr(sp, "method");
	json_t *mn = json_object_get(j, "means");
	c->mean_speedup = mn ? rnum(mn, "ratio") : NAN;
	c->mean_p = mn ? rnum(mn, "p") : NAN;
	json_t *wm = json_object_get(j, "work_means");
	c->work_speedup = wm ? rnum(wm, "ratio") : NAN;
	c->work_speedup_fast = wm && json_object_get(wm, "ratio_fast") ? rnum(wm, "ratio_fast") : NAN;
	c->work_speedup_slow = wm && json_object_get(wm, "ratio_slow") ? rnum(wm, "ratio_slow") : NAN;
	/* NAN where not recorded: rule 4c's bound then does not apply */
	c->work_credit[0] = c->work_credit[1] = NAN;
	if (wm && json_object_get(wm, "thread_credit"))
		rpair(wm, "thread_credit", c->work_credit);
	c->size_bound = rnum(j, "size_bound");
	c->verdict = rstr(j, "verdict");
	c->small_n = json_is_true(json_object_get(j, "small_n"));
	c->verdict_reason = rstr(j, "verdict_reason");
	c->min_detectable_speedup = rnum(j, "min_detectable_speedup");
	json_t *k = json_object_get(j, "repeats");
	c->ka = json_is_integer(json_array_get(k, 0)) ? (size_t)json_integer_value(json_array_get(k, 0)) : 1;
	c->kb = json_is_integer(json_array_get(k, 1)) ? (size_t)json_integer_value(json_array_get(k, 1)) : 1;
	c->test_sign = (int)json_integer_value(json_object_get(j, "test_sign"));
	/*
	 * Rule 0 of the verdict table (stats.h) on every record, whenever it
	 * was written: a comparison of one worker process a side (repeats
	 * [1, 1], or no repeats key: the records before repeats had one
	 * process a variant) decides nothing, so the verdict read is
	 * inconclusive with that reason.  What the record says is kept in
	 * verdict_recorded when it differs; the record itself is unchanged.
	 */
	/* rule 0b as the writer applied it (its reason): kept as recorded */
	c->few_processes = c->verdict_reason && !strcmp(c->verdict_reason, STATS_REASON_FEW_PROCESSES);
	/* rule 0c likewise */
	c->trust_host = c->verdict_reason && !strcmp(c->verdict_reason, STATS_REASON_TRUST_HOST);
	c->shared_host = c->verdict_reason && !strcmp(c->verdict_reason, STATS_REASON_SHARED_HOST);
	c->within_handshake = c->verdict_reason && !strcmp(c->verdict_reason, STATS_REASON_HANDSHAKE);
	if (c->ka == 1 && c->kb == 1) {
		c->one_process = 1;
		if (c->verdict && strcmp(c->verdict, "inconclusive"))
			c->verdict_recorded = c->verdict;
		c->verdict = "inconclusive";
		c->verdict_reason = STATS_REASON_ONE_PROCESS;
	}
	return 0;
}
