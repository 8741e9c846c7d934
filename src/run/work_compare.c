/*
 * work_compare.c - the work data of a comparison (rules 4b/4c), from the
 * two sides' run records: work_compare.h.  Moved from gather.c
 * (side_work_mean, vdata_thread_widening, compare_rows' rule 4b block) so
 * that the audit's computed pairs read the work as the batch does.
 */
#include "run/work_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The median over s's ok runs of what their threads widen the handshake
 * by (run_thread_widening_us), us; NAN where a run does not say: stats.h
 * rule 4c's bound credits it to the harness */
static double side_thread_widening(const struct work_side *s)
{
	double *v = xcalloc(s->n_runs ? s->n_runs : 1, sizeof(double));
	size_t k = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		if (s->runs[i]->outcome != OUTCOME_OK)
			continue;
		double w = run_thread_widening_us(s->runs[i]);
		if (!(w >= 0)) {
			free(v);
			return NAN;
		}
		v[k++] = w;
	}
	double m = k ? stats_median_inplace(v, k) : NAN;
	free(v);
	return m;
}

/*
 * A side's mean work a timed launch, us: over its ok runs, each run's
 * samples' median times its work_ratio_mean (run_record; job.c
 * job_samples), weighted by its samples; with hi, its work_ratio_mean_hi
 * where recorded (the bound where a thread gone by a freeze counts its
 * wait as work).  With set >= 0, each run's reading of one set
 * (run_record.work_sets: 0 every timed sample, 1 the time's alone), a run
 * that recorded none read at its least or most.  NAN where a run lacks it
 * (older records) or none is ok.
 */
static double side_work_mean(const struct work_side *s, int hi, int set)
{
	double sum = 0;
	double n = 0;
	for (size_t i = 0, g = 0; i < s->n_runs; i++) {
		const struct run_record *r = s->runs[i];
		if (r->outcome != OUTCOME_OK)
			continue;
		/* its samples' median and count, as the comparison reads them
		 * (a group an ok run, in order) */
		size_t k = g < s->n_groups ? s->nx[g] : 0;
		double med = NAN;
		if (k) {
			double *v = xmalloc(k * sizeof(double));
			memcpy(v, s->x[g], k * sizeof(double));
			med = stats_median_inplace(v, k);
			free(v);
		}
		g++;
		if (!(r->work_ratio_mean > 0) || !(med > 0))
			return NAN;
		double ratio = hi && r->work_ratio_mean_hi >= r->work_ratio_mean ? r->work_ratio_mean_hi : r->work_ratio_mean;
		if (set >= 0 && r->work_sets[set][0] > 0)
			ratio = hi && r->work_sets[set][1] >= r->work_sets[set][0] ? r->work_sets[set][1]
										 : r->work_sets[set][0];
		sum += med * ratio * (double)k;
		n += (double)k;
	}
	return n > 0 ? sum / n : NAN;
}

void work_compare_fill(struct stats_comparison *c, const struct work_side *a, const struct work_side *b)
{
	/* rule 4b: the launches' mean work, from the runs' records */
	double wa = side_work_mean(a, 0, -1), wb = side_work_mean(b, 0, -1);
	double wah = side_work_mean(a, 1, -1), wbh = side_work_mean(b, 1, -1);
	c->work_speedup = wa > 0 && wb > 0 ? wa / wb : NAN;
	/* each side at the bound that holds the verdict back: a faster b at
	 * its most work and a at its least (red team 219's gone2), a slower
	 * b the other way round */
	c->work_speedup_fast = wa > 0 && wbh > 0 ? wa / wbh : NAN;
	c->work_speedup_slow = wah > 0 && wb > 0 ? wah / wb : NAN;
	/* set against the same set, each reading's bound: the lesser of the
	 * two sets' fast ratios, the greater of their slow ones (red team
	 * 230: a's least from its timing samples against b's most from every
	 * sample mixed two sets, and an honest kernel 1.5x cheaper on every
	 * input read inconclusive 7 of 7); both sets still bound a verdict
	 * (red teams 223 and 228 each read about 1 in one) */
	double f = NAN, sl = NAN;
	for (int k = 0; k < 2; k++) {
		double a0 = side_work_mean(a, 0, k), b1 = side_work_mean(b, 1, k);
		double a1 = side_work_mean(a, 1, k), b0 = side_work_mean(b, 0, k);
		if (a0 > 0 && b1 > 0 && !(a0 / b1 >= f))
			f = a0 / b1;
		if (a1 > 0 && b0 > 0 && !(a1 / b0 <= sl))
			sl = a1 / b0;
	}
	if (isfinite(f))
		c->work_speedup_fast = f;
	if (isfinite(sl))
		c->work_speedup_slow = sl;
	/* rule 4c's bound: the share of each side's mean work at its least
	 * that its threads' widening of the handshake (rule 0e) gives to the
	 * harness (red team 247) */
	double ta = side_thread_widening(a), tb = side_thread_widening(b);
	c->work_credit[0] = ta >= 0 && wa > 0 ? (ta < wa ? ta / wa : 1) : NAN;
	c->work_credit[1] = tb >= 0 && wb > 0 ? (tb < wb ? tb / wb : 1) : NAN;
}
