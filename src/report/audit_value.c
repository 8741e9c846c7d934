/*
 * audit_value.c - the `value` claim: a number stated for a statistic of a
 * row.  A comparison statistic (speedup, delta, p, mde) is the verdict it
 * implies and meets the verdict rules (audit_verdict.c); a time or a rate
 * must lie inside the stated tolerance, else the CI, else the precision
 * written, of more than half the batches of the same code.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/audit_internal.h"
#include "report/audit_errata.h"
#include "report/code_identity.h"
#include "stats/stats.h"
#include "store/store.h"

/* A statistic of a variant's comparison with its batch's baseline: a
 * value claim on it states a comparison (implied_verdict). */
static int comparison_stat(const char *stat)
{
	static const char *const cmp[] = { "speedup", "delta", "p", "p_raw", "mde", NULL };
	for (size_t i = 0; cmp[i]; i++)
		if (!strcmp(stat, cmp[i]))
			return 1;
	return 0;
}

/*
 * A value claim on a comparison statistic of row (variant vn of batch b)
 * states a comparison with the baseline, so it is weighed as the verdict
 * it implies, by the rules a verdict claim meets (red team 44: `value
 * stat=speedup value=2.4x` on an inconclusive pair of one process a side
 * was supported, "within the 95% CI", where `faster` was contradicted).
 * The comparison's verdict must be faster or slower (its CI beyond the
 * noise band) and hold as a `faster`/`slower` claim would: not the same
 * code both sides, the reruns across batches, the p adjusted over the
 * tries, the store's history (audit_history_holds: the slower side's
 * drift, and a stated speedup held to what the store stands behind where
 * the history released it, red team 91's valdrift).  Any other verdict (inconclusive, no_difference, one process a
 * side) decides nothing a number can say: the claim is refused, to be
 * written as a verdict claim.  Returns 1 when it holds (the verdict added
 * to msg), 0 with *kind "contradicted" or "unsupported" and why in msg.
 */
static int implied_verdict(struct actx *a, const struct batch_record *b, const struct batch_row *row, const char *vn,
			   const char *stat, double stated, double ulp, const char *stated_text, int stale,
			   struct strbuf *msg, const char **kind)
{
	const char *base = b ? b->baseline : NULL;
	const struct batch_row *brow = base ? batch_find_row(b, base) : NULL;
	struct pair_cmp pc;
	*kind = "unsupported";
	if (!brow || brow == row || brow->outcome != OUTCOME_OK || !audit_pair_compare(a, b, row, brow, vn, base, &pc)) {
		strbuf_addstr(msg, "; a comparison statistic states a comparison, and this one cannot be weighed as a "
				   "verdict (no ok baseline row to compare with in its batch); write it as a verdict claim "
				   "(docs/paper.md)");
		return 0;
	}
	struct strbuf aside = STRBUF_INIT;
	if (audit_own_row_set_aside(a, brow, base, &aside)) {
		strbuf_addf(msg, "; %s", aside.buf);
		strbuf_release(&aside);
		*kind = "unsupported";
		return 0;
	}
	const char *v = pc.verdict;
	int one = pc.used->one_process;
	strbuf_addf(msg, "; as a verdict against %s: speedup %.3fx [%.3f, %.3f], %s%s", base, pc.sp, pc.ci[0], pc.ci[1],
		    one ? "inconclusive" : v ? v : "none",
		    one ? " (1 repeat a side: the variance between processes is unknown)" : "");
	audit_trust_note(a, msg, brow, base);
	if (one || !v || (strcmp(v, "faster") && strcmp(v, "slower"))) {
		strbuf_addstr(msg, "; a comparison statistic stated as a value is a comparison, and this one decides "
				   "no faster or slower: write it as a verdict claim (faster, slower or no-difference "
				   "with speedup=), which the audit weighs across batches and tries (docs/paper.md)");
		return 0;
	}
	int agrees = 1;
	*kind = "contradicted";
	if (audit_same_code_both_sides(a, row, brow, v, msg))
		return 0;
	if (!stale && agrees && audit_verdict_refuted(a, b, row, vn, brow, base, v, msg))
		agrees = 0;
	if (!stale && agrees) {
		size_t tries = 1;
		int tie = 0;
		audit_across_batches(a, b, row, brow, vn, base, v, pc.sp, &agrees, &tie, &tries, msg);
		if (tie)
			*kind = "unsupported";
		if (agrees)
			audit_adjust_over_tries(b, &pc, tries, audit_batch_comparisons(b, &pc), v, &agrees, msg);
		/* the store's history, as a faster or slower claim meets it (red
		 * team 91's valdrift): the slower side's drift, and a stated
		 * speedup held to what the store stands behind */
		if (agrees && !tie &&
		    !audit_history_holds(a, b, row, vn, brow, base, v, !strcmp(stat, "speedup") ? &stated : NULL, ulp,
					 stated_text, msg))
			agrees = 0;
	}
	return agrees;
}

/* A time or a rate (median_us, gflops, gbps, frac_*_peak...): what the
 * code gives, which every batch of the same code measures again
 * (value_across_batches).  Not a comparison (implied_verdict weighs
 * those), a count (n, repeats), a cost (usd, gpu_s: a batch's own, by
 * design different in each) or an error (max_abs_err). */
static int rate_stat(const char *stat)
{
	const struct stat_def *d = record_stat_def(stat);
	if (!d)
		return 0;
	return d->kind == STAT_TIME || d->kind == STAT_FLOPS || d->kind == STAT_BW ||
	       !strncmp(stat, "frac_", 5);
}

/* How a value claim is held against one recorded value v (ci when
 * have_ci): the stated tolerance (pct >= 0: percent, else amount in base
 * units), else the CI, else the precision written; each widened by half a
 * unit in the last digit written (ulp, base units).  [*lo, *hi] in the
 * record's units; returns the rule's name, or NULL for "the precision
 * written" (every batch of the code is held to it too, where it has no
 * CI: value_across_batches). */
static const char *value_band(int tol, double pct, double amount, double ulp, double scale, double v, const double ci[2],
			      int have_ci, double *lo, double *hi)
{
	if (tol) {
		double t = pct >= 0 ? pct / 100 * fabs(v) : amount / scale;
		*lo = v - t;
		*hi = v + t;
		return "the stated tolerance";
	}
	if (have_ci) {
		*lo = ci[0] - ulp / scale;
		*hi = ci[1] + ulp / scale;
		return "the 95% CI";
	}
	*lo = v - ulp / scale;
	*hi = v + ulp / scale;
	return NULL;
}

/*
 * The band a stopped or killed try of the code is held to, for a claim of
 * value want held to [lo, hi] by its evidence (value_band, want inside
 * it): the widest band about want that lies inside [lo, hi], so
 * [want - r, want + r] with r the distance from want to the nearer end.
 * A try going the claim's way is left out (value_stopped_try,
 * value_killed_tries); one with a run outside is counted against.  Not
 * [lo, hi] itself: a lucky evidence batch with a wide CI (one fast
 * process and two slow, 3577 [2536, 4799] us) holds a false 2600 us at
 * its near end, and its far side took in the slow runs of every try the
 * hunter killed (red team 130's killhunt, rerun on the fixed build:
 * "supported, 2 of 3 batches" at try 8, 5 of its 6 killed tries left
 * out).  Here that band is [2536, 2664]: it widens with the evidence's
 * noise only where the evidence itself straddles want, which a false
 * value's lucky batch seldom does and an honest one stating what its
 * evidence measured does (3000 [2900, 3100] holds a try at 3050 as
 * before).  Not "nearer want than the evidence's value": that is no band
 * at all for the honest claimant who states just what was measured.
 */
static void value_try_band(double want, double lo, double hi, double *try_lo, double *try_hi)
{
	double r = fmin(want - lo, hi - want);
	if (!(r >= 0))
		r = 0;
	*try_lo = want - r;
	*try_hi = want + r;
}

/*
 * stat's value in row x of batch b, with its CI where one is recorded;
 * frac_compute_peak / frac_bandwidth_peak (no CI of their own) take the
 * CI of the rate they are a fraction of (gflops, gbps), over the same
 * peak.  0, or -1 with why (record_stat).
 */
static int stat_with_ci(struct actx *a, const struct batch_record *b, const struct batch_row *x, const char *stat,
			double *v, double ci[2], int *have_ci, struct strbuf *why)
{
	if (query_stat(a->q, b, x, stat, v, ci, have_ci, why) < 0)
		return -1;
	int fc = !strcmp(stat, "frac_compute_peak"), fb = !strcmp(stat, "frac_bandwidth_peak");
	if ((fc || fb) && isfinite(*v)) {
		/* an impossible number is not evidence (red team 131: a one-thread
		 * naive rowsum at 7.93 times one core's FMA peak, from a forged
		 * peak cache, was supported) */
		const struct run_record **runs;
		size_t nr = query_row_runs(a->q, x, &runs);
		const struct run_record *one = nr ? NULL : query_row_run(a->q, x);
		struct rec_peak pk;
		record_batch_peak(b, &pk);
		const char *bwhy = NULL;
		double bound = record_frac_bound(&pk, nr ? runs : &one, nr ? nr : one ? 1 : 0, fb, &bwhy);
		free(runs);
		if (isfinite(bound) && *v > bound) {
			strbuf_addf(why, "its %s, %.4g, is more than its runs can reach (%.4g: %s): the peak it is a "
					 "fraction of is not this machine's (%s), and an impossible number is not evidence",
				    stat, *v, bound, bwhy ? bwhy : "", pk.source ? pk.source : "no source");
			return -1;
		}
	}
	double r, rci[2];
	int r_ci = 0;
	struct strbuf w = STRBUF_INIT;
	if (!*have_ci && (fc || fb) && query_stat(a->q, b, x, fc ? "gflops" : "gbps", &r, rci, &r_ci, &w) == 0 &&
	    r_ci && r > 0 && isfinite(*v)) {
		ci[0] = rci[0] / r * *v;
		ci[1] = rci[1] / r * *v;
		*have_ci = 1;
	}
	strbuf_release(&w);
	return 0;
}

/*
 * An interrupted batch b other than the claim's, as a try of the code id
 * (its rows of the code on its device, by the object or by the
 * echo-neutral one alone: such a try only ever counts against or is left
 * out), the way across_rerun weighs one against a verdict
 * (audit_verdict.c, code_orphan_weight): its runs of the code, each by
 * its record, an aborted, no_device, build_failed or reference_failed one
 * aside (not the code's), against the band [lo, hi] a try is held to
 * (value_try_band: the claim's own, cut even about the stated value).  CODE_ORPHAN_ITS_WAY when every one ended
 * ok with its own stat inside the band: left out, neither for nor against
 * (a session a time limit stopped while its runs went the claim's way;
 * counted for it, a stop would turn a random walk into support);
 * CODE_ORPHAN_AGAINST when one ended otherwise than ok or lies outside,
 * named into what; CODE_ORPHAN_NONE when no run of the code has a value
 * (none ran, or the stat cannot be had of one run).  Red team 126: a hunt
 * that sent SIGINT to every try as soon as one process of the code came
 * out slow left tries of 1 or 2 runs, no vote (fewer than 3 repeats), and
 * a false value was supported by the one try that drew a fast process,
 * itself interrupted, after 14, 8 and 3 tries.  A run cut short by the
 * interruption (run_cut_short) is a job of the code that never gave a
 * number: against, *cut set (red team 132's hunt with SIGINT: recorded
 * aborted, it was read as not the code's and the try said nothing).
 */
/* A run of the code its batch's interruption cut short: aborted,
 * "interrupted by SIGNAL" (outcome.c outcome_classify), a job that began
 * and never gave a number.  Like a job a kill left with no record (red
 * team 132), it counts against a value claim: what it would have measured
 * is unknown, and a hunter who interrupts each try as soon as the code
 * shows slow has the slow job recorded so, not as the code's. */
/*
 * The value of stat over run r alone (r's row of batch b, or of no batch
 * where b is NULL, named variant and kernel): 0 with *v finite, or -1
 * where the run has no such value.
 */
static int run_own_value(const struct batch_record *b, const char *variant, const char *kernel,
			 const struct run_record *r, const char *stat, double *v)
{
	struct batch_row one_row;
	memset(&one_row, 0, sizeof(one_row));
	one_row.variant = variant;
	one_row.kernel = kernel;
	one_row.outcome = OUTCOME_OK;
	one_row.have_stats = r->have_stats;
	one_row.stats = r->stats;
	double ci[2];
	int have_ci = 0;
	struct strbuf w = STRBUF_INIT;
	int got = record_stat(b, &one_row, &r, 1, stat, v, ci, &have_ci, &w) == 0 && isfinite(*v);
	strbuf_release(&w);
	return got ? 0 : -1;
}

static int run_cut_short(const struct run_record *r)
{
	return r->outcome == OUTCOME_ABORTED && r->reason && !strncmp(r->reason, "interrupted by ", 15);
}

/* Is x (a row's or a run's identity, code_identity) the code id for a run
 * cut short (run_cut_short)?  As audit_same_identity_or_neutral, save
 * that one cut short before its first timed sample has no cache mode or
 * clock to match: then by the object alone, on the same device, run on
 * the same kind of execution.  Only ever counts against a claim. */
static int same_code_cut_short(const struct code_id *x, const struct code_id *id)
{
	if (x->cache && x->clock)
		return audit_same_identity_or_neutral(x, id);
	int kinds = x->exec_kind && id->exec_kind ? !strcmp(x->exec_kind, id->exec_kind) : !x->exec_kind == !id->exec_kind;
	return !strcmp(x->dev, id->dev) && code_same(x, id) && kinds && x->slots == id->slots;
}

static int value_stopped_try(struct actx *a, const struct batch_record *b, const struct code_id *id, const char *stat,
			     double lo, double hi, struct strbuf *what, int *cut)
{
	size_t n = 0, unclean = 0, out = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *x = &b->rows[i];
		struct code_id rid;
		if (!code_identity(a->q, x, &rid) || audit_row_set_aside(a, x))
			continue;
		/* a row of the code, or one whose runs were all cut short before
		 * a timed sample (its identity then has no way of timing) */
		int same = audit_same_identity_or_neutral(&rid, id);
		if (!same && !same_code_cut_short(&rid, id))
			continue;
		const struct run_record **runs;
		size_t nr = query_row_runs(a->q, x, &runs);
		const struct run_record *one = nr ? NULL : query_row_run(a->q, x);
		for (size_t j = 0; j < (nr ? nr : one ? 1 : 0); j++) {
			const struct run_record *r = nr ? runs[j] : one;
			if (!same && !run_cut_short(r))
				continue;
			if (run_cut_short(r)) {
				n++;
				*cut = 1;
				if (!unclean++ && !out)
					strbuf_addstr(what, "a job of the code begun and never finished (aborted, interrupted)");
				continue;
			}
			if (code_outcome_says_nothing(r->outcome))
				continue;
			if (r->outcome != OUTCOME_OK) {
				n++;
				if (!unclean++ && !out)
					strbuf_addf(what, "a run %s", r->outcome_text ? r->outcome_text : "not ok");
				continue;
			}
			double v;
			if (run_own_value(b, x->variant, x->kernel, r, stat, &v))
				continue;
			n++;
			if (!(v >= lo && v <= hi) && !out++ && !unclean)
				strbuf_addf(what, "a run at %.4g", v);
		}
		free(runs);
	}
	if (!n)
		return CODE_ORPHAN_NONE;
	return unclean || out ? CODE_ORPHAN_AGAINST : CODE_ORPHAN_ITS_WAY;
}

/* Did begun markers x and y come from one process: the same pid, host,
 * PID namespace, start time and boot (store.c marker_writer), each
 * known? */
static int same_writer(const json_t *x, const json_t *y)
{
	static const char *const k[] = { "host", "pid_ns", "start_ticks", "boot_id", NULL };
	json_int_t px = json_integer_value(json_object_get(x, "pid"));
	if (px <= 0 || px != json_integer_value(json_object_get(y, "pid")))
		return 0;
	for (size_t i = 0; k[i]; i++) {
		const char *a = json_string_value(json_object_get(x, k[i])), *b = json_string_value(json_object_get(y, k[i]));
		if (!a || !b || !*a || strcmp(a, b))
			return 0;
	}
	return 1;
}

/* A batch marker of pend (store_pending_list): kind batch (eval's) or
 * run_batch (evident run's), with its batch id into *id. */
static int batch_marker(const json_t *m, const char **id)
{
	const char *kind = json_string_value(json_object_get(m, "kind"));
	*id = json_string_value(json_object_get(m, "run_id"));
	return kind && (!strcmp(kind, "batch") || !strcmp(kind, "run_batch")) && *id;
}

/* For a run marker jm (pending/RUN_ID.json) of a runner from before the
 * batch marker listed its jobs ("begun": store_pending_batch_begun), the
 * batch marker in pend its job ran in: the newest its writer began at or
 * before the job (same_writer: one `evident run` or eval process; a
 * pool's slots are processes of their own, and are not read so).  NULL
 * where there is none, or where that marker lists its jobs (read from
 * it). */
static const json_t *old_job_batch_marker(const json_t *pend, const json_t *jm)
{
	const char *js = json_string_value(json_object_get(jm, "started_utc"));
	const json_t *found = NULL, *m;
	const char *fs = NULL, *id;
	size_t i;
	json_array_foreach(pend, i, m)
	{
		const char *ms = json_string_value(json_object_get(m, "started_utc"));
		if (!batch_marker(m, &id) || !same_writer(m, jm) || !ms || !js || strcmp(ms, js) > 0 ||
		    (fs && strcmp(ms, fs) <= 0))
			continue;
		found = m;
		fs = ms;
	}
	return found && !json_object_get(found, "begun") ? found : NULL;
}

/* Does a begun job's entry jm (its problem's name and dims, where it
 * records them) agree with p? */
static int job_marker_at(const json_t *jm, const struct rec_problem *p)
{
	const char *name = json_string_value(json_object_get(jm, "problem"));
	const json_t *dims = json_object_get(jm, "dims");
	if (name && p->name && strcmp(name, p->name))
		return 0;
	if (!json_is_array(dims))
		return 1;
	if (json_array_size(dims) != p->n_dims)
		return 0;
	for (size_t i = 0; i < p->n_dims && i < 8; i++)
		if (json_integer_value(json_array_get(dims, i)) != p->dims[i])
			return 0;
	return 1;
}

/*
 * Killed tries of the code id at eb's shape: run records whose batch_id no
 * batch record of the store carries (an `evident run`, eval or `evident
 * reproduce` session killed by SIGKILL, the OOM killer or a lost terminal's
 * process group after its first runs were committed and before its batch
 * record; code_identity.h code_orphan_tries reads the same tries for a
 * verdict), eb's own left out.  Each try is weighed as an interrupted
 * batch is (value_stopped_try): its runs of the code (by the object or
 * the echo-neutral one alone, audit_same_identity_or_neutral: this only
 * ever counts against or leaves a try out), an aborted, no_device,
 * build_failed or reference_failed one aside (not the code's) and runs
 * the errata set aside left out, each by its own value of stat; against
 * the claim unless every one ended ok with its value inside [lo, hi]
 * (value_try_band).
 * *n_against gets the tries against (the first few named into what),
 * *n_its_way those left out.  Red team 130: red team 126's hunt with
 * SIGKILL for SIGINT; 7 killed tries whose 14 runs were all slow, then a
 * false `median_us=2600us` supported by the 8th, which finished.
 *
 * And a job of the code begun and never recorded: its begun marker
 * (pending/RUN_ID.json, job.c job_marker_more: variant, batch_id, problem,
 * dims) with no run record, at eb's shape, in a batch with no batch
 * record whose begun marker names the code under the job's variant
 * (code_marker_variant; or old_job_batch_marker's), read through the pending list
 * the verdicts' begun tries are (store_pending_list, code_configs.c).
 * Such a job ran the code and was killed or stopped while it ran (or
 * runs still): what it measured is unknown, so its try counts against
 * (*n_begun of them): a job with no run cannot lie inside any band
 * (value_try_band).  Red team 132: a hunter that read a slow process of
 * the code from /proc and SIGKILLed its session before its record erased
 * 101 slow processes; 75 killed tries left nothing but their markers, 26
 * only fast runs inside the band, and the claim read the finished batch
 * alone (contradicted there only by load noise in those fast runs).
 */
static void value_killed_tries(struct actx *a, const struct batch_record *eb, const struct code_id *id,
			       const char *stat, double lo, double hi, size_t *n_against, size_t *n_its_way,
			       size_t *n_begun, size_t *n_named, struct strbuf *what)
{
	struct try {
		const char *batch_id;
		size_t n, unclean, out, begun;
		double first_out;
		const char *first_unclean;
	} *t = NULL;
	size_t nt = 0;
	struct query *q = a->q;
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search || !at->batch_id || (eb->batch_id && !strcmp(at->batch_id, eb->batch_id)))
			continue;
		size_t k = 0;
		while (k < nt && strcmp(t[k].batch_id, at->batch_id))
			k++;
		if (k == nt) {
			if (query_find(q, at->batch_id, NULL) >= 0)
				continue; /* recorded: its batch record is the try */
			t = xrealloc(t, (nt + 1) * sizeof(*t));
			memset(&t[nt], 0, sizeof(t[nt]));
			t[nt].batch_id = at->batch_id;
			nt++;
		}
		const struct run_record *r = query_run_at(q, i);
		struct code_id rid;
		if (!r || !audit_same_problem(&r->problem, &eb->problem) ||
		    !code_identity_run(r, r->params, r->n_params, &rid) ||
		    !(run_cut_short(r) ? same_code_cut_short(&rid, id) : audit_same_identity_or_neutral(&rid, id)))
			continue;
		if (a->o->errata && audit_errata_find_run(a->o->errata, r) >= 0)
			continue; /* the runner's defect */
		if (run_cut_short(r)) {
			t[k].n++;
			t[k].begun++;
			continue;
		}
		if (code_outcome_says_nothing(r->outcome))
			continue; /* not the code's */
		if (r->outcome != OUTCOME_OK) {
			t[k].n++;
			if (!t[k].unclean++)
				t[k].first_unclean = r->outcome_text ? r->outcome_text : "not ok";
			continue;
		}
		double v;
		if (run_own_value(NULL, r->variant, r->kernel, r, stat, &v))
			continue;
		t[k].n++;
		if (!(v >= lo && v <= hi) && !t[k].out++)
			t[k].first_out = v;
	}
	/* the jobs of the code begun and never recorded (red team 132): each
	 * batch marker's list of its jobs, and, for a runner from before it,
	 * the run markers its writer left */
	json_t *pend = store_pending_list(&q->st);
	size_t pi, ji;
	json_t *pm, *jm;
	json_array_foreach(pend, pi, pm)
	{
		const char *bid;
		const json_t *bm = pm, *jobs = NULL;
		if (batch_marker(pm, &bid))
			jobs = json_object_get(pm, "begun");
		else if (!json_object_get(pm, "kind") && (bm = old_job_batch_marker(pend, pm)))
			batch_marker(bm, &bid);
		else
			continue;
		if ((eb->batch_id && !strcmp(bid, eb->batch_id)) || query_find(q, bid, NULL) >= 0)
			continue; /* the claim's own, or recorded: its rows are the try */
		for (ji = 0; ji < (jobs ? json_array_size(jobs) : bm != pm); ji++) {
			jm = jobs ? json_array_get(jobs, ji) : pm;
			const char *rid = json_string_value(json_object_get(jm, "run_id"));
			const char *var = json_string_value(json_object_get(jm, "variant"));
			if (!rid || !var || query_find(q, rid, NULL) >= 0 || !job_marker_at(jm, &eb->problem) ||
			    !code_marker_variant(bm, var, id))
				continue; /* recorded, at another shape, or another code */
			size_t k = 0;
			while (k < nt && strcmp(t[k].batch_id, bid))
				k++;
			if (k == nt) {
				t = xrealloc(t, (nt + 1) * sizeof(*t));
				memset(&t[nt], 0, sizeof(t[nt]));
				t[nt].batch_id = bid; /* borrowed from pend, released below */
				nt++;
			}
			t[k].n++;
			t[k].begun++;
		}
	}
	for (size_t k = 0; k < nt; k++) {
		if (!t[k].n)
			continue; /* no run of the code: says nothing */
		if (!t[k].unclean && !t[k].out && !t[k].begun) {
			(*n_its_way)++;
			continue;
		}
		(*n_against)++;
		*n_begun += t[k].begun > 0;
		if ((*n_named)++ >= 6)
			continue;
		strbuf_addf(what, "%skilled, ", what->len ? ", " : "");
		if (t[k].begun)
			strbuf_addf(what, "%zu job(s) of the code begun and never finished", t[k].begun);
		else if (t[k].out)
			strbuf_addf(what, "%zu of %zu run(s) outside its band, the first at %.4g", t[k].out, t[k].n,
				    t[k].first_out);
		else
			strbuf_addf(what, "a run %s", t[k].first_unclean);
		if (t[k].begun && t[k].n > t[k].begun)
			strbuf_addf(what, ", %zu run(s) recorded", t[k].n - t[k].begun);
		strbuf_addf(what, " (%s: %s, no batch record)", t[k].batch_id,
			    t[k].n > t[k].begun ? "runs" : "begun marker");
	}
	json_decref(pend);
	free(t);
}

/* Does a check of run r leave outputs its max |err| does not count (NaN
 * or unwritten)?  The first such check's counts into *nan, *unw. */
static int run_error_unbounded(const struct run_record *r, long long *nan, long long *unw)
{
	for (size_t k = 0; r && k < r->n_checks; k++)
		if (r->checks[k].nan_count > 0 || r->checks[k].unwritten > 0) {
			*nan = r->checks[k].nan_count;
			*unw = r->checks[k].unwritten;
			return 1;
		}
	return 0;
}

/*
 * A value claim on the largest error (max_abs_err): the code's, over
 * every run of it, not one batch's.  The checker leaves NaN and unwritten
 * outputs out of max |err| (they fail the check on their own), so a row
 * with any has no largest error: unsupported where it is the claim's own
 * row (red team 256: "the largest error is 0" supported 3 of 3 for an
 * all-NaN code and one that writes nothing), against the claim where it
 * is another run of the same code.  And every batch of the same code
 * identity at the claim's problem and shape holds the claim to its
 * largest error: every run of the code audit_runs_of_code finds (any
 * batch, experiment, variant name or way of timing, killed tries
 * included: red team 258 rows 1-3, a SIGKILLed try's wrong run, a
 * `cache: cold` run of the same binary, the other rows of the claim's own
 * batch, each left a false error claim supported 3 of 3), the same
 * program at the same problem, dtype and shape; one over the band's top
 * is against it (red team 256's minute.c, wrong in even minutes: the
 * claim at an odd minute's error supported 3 of 3).
 * error_own_unbounded: 1 where the claim's own row has no largest error
 * (why in msg), else 0; error_across_runs clears *agrees, with the reason
 * in msg, where another run refutes the claim.
 */
static int error_own_unbounded(struct actx *a, const struct batch_row *er, struct strbuf *msg)
{
	long long nan = 0, unw = 0;
	const struct run_record **runs = NULL;
	size_t nr = query_row_runs(a->q, er, &runs);
	for (size_t i = 0; i < nr; i++)
		if (run_error_unbounded(runs[i], &nan, &unw)) {
			strbuf_addf(msg, "no largest error: a check of run %s left %lld NaN and %lld unwritten output(s), "
					 "which max |err| does not count",
				    audit_id_or(runs[i]->run_id), nan, unw);
			free(runs);
			return 1;
		}
	free(runs);
	return 0;
}

static void error_across_runs(struct actx *a, const struct batch_row *er, double hi, int *agrees, struct strbuf *msg)
{
	long long nan = 0, unw = 0;
	const struct run_record **ev = NULL, **runs = NULL;
	unsigned char *other = NULL;
	size_t n_ev = query_row_runs(a->q, er, &ev), nr = 0;
	if (n_ev)
		nr = audit_runs_of_code(a, (const struct run_record *const *)ev, n_ev, &runs, &other);
	double worst = -INFINITY;
	const char *worst_run = NULL, *unbounded_run = NULL;
	for (size_t j = 0; j < nr; j++) {
		const struct run_record *r = runs[j];
		/* the same program (not the file at another configuration) at
		 * the claim's problem, dtype and shape; a runner the errata
		 * name as defective left out */
		if (other[j] || !audit_same_problem(&r->problem, &ev[0]->problem) ||
		    audit_errata_find_run(a->o->errata, r) >= 0)
			continue;
		if (!unbounded_run && run_error_unbounded(r, &nan, &unw))
			unbounded_run = r->run_id;
		for (size_t k = 0; k < r->n_checks; k++) {
			double e = r->checks[k].max_abs_err;
			if (isfinite(e) && e > worst) {
				worst = e;
				worst_run = r->run_id;
			}
		}
	}
	if (unbounded_run) {
		strbuf_addf(msg, "; but run %s of the same code left %lld NaN and %lld unwritten output(s) in a check: "
				 "its largest error is unbounded",
			    audit_id_or(unbounded_run), nan, unw);
		*agrees = 0;
	} else if (worst_run && worst > hi) {
		strbuf_addf(msg, "; but run %s of the same code recorded a largest error of %.6g, over the band: the "
				 "code's largest error is the largest over its runs",
			    audit_id_or(worst_run), worst);
		*agrees = 0;
	}
	free(ev);
	free(runs);
	free(other);
}

/*
 * A value claim on a time or a rate (rate_stat) read from one batch
 * (pinned, or the newest) beside every other batch of the same code
 * identity: the claim's shape (audit_same_problem), the same code run the same
 * way on the same device and timed by the same clock (audit_same_identity: by
 * the object that ran; a row of the same echo-neutral object alone counts
 * only where it excludes the value), of any experiment, reproductions
 * included (query_next_batch_all: a reproduction reran the same code), as
 * audit_across_batches gathers the reruns of a verdict.  Red team 47: an honest
 * kernel whose speed is set per process ran 16 batches; pinned to the one
 * where both processes drew fast, `value stat=gflops value=2.75` was
 * supported, though 11 of the 16 batches' CIs exclude it.  Each batch
 * holds the claim to its own band (value_band: the tolerance stated, else
 * its CI, else the precision written, as the claim's own batch is; red
 * team 49: with no CI, mean_us, min_us and frac_*_peak decided nothing);
 * a batch whose rows of the code all did not run cleanly (flaky,
 * crashed...; not a configuration's refusal, audit_row_counts) excludes it (it
 * gives no number for the code); a batch other than the claim's own whose
 * ok row of the code ran fewer than STATS_MIN_PROCESSES repeats does not
 * vote (red team 122; query_row_few_processes), a row that did not run
 * cleanly still does (the code failed, however many repeats); an
 * interrupted batch other than the claim's own is a stopped try, whatever
 * its repeats, against the claim unless every run of the code in it lies
 * inside the claim's band [band_lo, band_hi] cut even about want
 * (value_try_band: then left out and counted into msg), and so is a
 * killed try of the code, runs and no batch record (value_killed_tries;
 * red team 130); rows the errata set aside (a runner's defect,
 * audit_errata.h) are left out, and counted into msg.  The claim
 * holds when more than half of the deciding batches (the claim's own
 * among them) include it: *agrees is cleared otherwise, naming how many
 * exclude it, and *tie set where exactly half do (red team 49: 1 of 2
 * passed); the counts go to msg whenever more than one batch decides.
 * The claim's own batch interrupted is a stopped try as well: never a
 * vote for it, the others decide (one is enough), and with none the
 * claim is unsupported (*tie set): before, a claim whose only batch was
 * an interrupted one was read from it alone, so a try stopped at the
 * moment its runs looked the claim's way supported it.
 */
static void value_across_batches(struct actx *a, const struct batch_record *eb, const struct batch_row *er,
				 const char *vn, const char *stat, double want, int tol, double pct, double amount,
				 double ulp, double scale, double band_lo, double band_hi, int *agrees, int *tie,
				 struct strbuf *msg)
{
	struct code_id id;
	if (!code_identity(a->q, er, &id))
		return;
	/* the band a stopped or killed try is held to: the claim's own,
	 * cut to be even about want (value_try_band) */
	double try_lo, try_hi;
	value_try_band(want, band_lo, band_hi, &try_lo, &try_hi);
	size_t n = 0, k = 0, n_out = 0, n_aside = 0, n_weak = 0, n_few = 0, n_stopped = 0, n_its_way = 0, n_cut = 0,
	       n_rows_more = 0, pos = a->q->n;
	struct strbuf out = STRBUF_INIT;
	const struct batch_record *b = eb;
	/* the claim's own batch interrupted: a stopped try too, whose stop
	 * its runner chose, so never a vote for the claim (it holds the
	 * value, or the caller would not ask): left out, and the other
	 * batches and tries decide, one of them enough */
	int own_stopped = eb->interrupted;
	while (b) {
		if (b == eb && own_stopped) {
			do
				b = query_next_batch_all(a->q, NULL, &pos);
			while (b && (b == eb || !audit_same_problem(&b->problem, &eb->problem)));
			continue;
		}
		/* an interrupted batch of the code: a stopped try, weighed as
		 * across_rerun weighs one against a verdict, whatever its
		 * repeats (value_stopped_try) */
		if (b != eb && b->interrupted) {
			struct strbuf what = STRBUF_INIT;
			int cut = 0;
			int w = value_stopped_try(a, b, &id, stat, try_lo, try_hi, &what, &cut);
			if (w == CODE_ORPHAN_AGAINST) {
				n++;
				n_stopped++;
				n_cut += cut;
				if (n_out++ < 6)
					strbuf_addf(&out, "%sinterrupted, %s (%s)", out.len ? ", " : "", what.buf,
						    audit_id_or(b->run_id));
			} else if (w == CODE_ORPHAN_ITS_WAY) {
				n_its_way++;
			}
			strbuf_release(&what);
			do
				b = query_next_batch_all(a->q, NULL, &pos);
			while (b && (b == eb || !audit_same_problem(&b->problem, &eb->problem)));
			continue;
		}
		/* the row of the code in b: the claim's own in eb, else an ok one
		 * (by the claim's name first), else one that did not run cleanly;
		 * rows the errata set aside are counted, never used */
		const struct batch_row *x = b == eb ? er : NULL, *bad = NULL, *ok = NULL, *weak_ok = NULL, *weak_bad = NULL;
		for (size_t i = 0; i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r == er || !audit_row_counts(a, r) || !code_identity(a->q, r, &rid) || !audit_same_identity(&rid, &id))
				continue;
			int aside = audit_row_set_aside(a, r);
			if (aside == 1) {
				n_aside++;
				continue;
			}
			/* a weaker box's row: only against the value, where no
			 * other row of the code is there (red team 138: left out
			 * whatever it gave, a slower unboxed rerun no longer
			 * excluded a value) */
			if (aside == 2) {
				if (r->outcome != OUTCOME_OK)
					weak_bad = weak_bad ? weak_bad : r;
				else
					weak_ok = weak_ok ? weak_ok : r;
				continue;
			}
			if (r->outcome != OUTCOME_OK)
				bad = bad ? bad : r;
			else if (!ok || (r->variant && !strcmp(r->variant, vn) && !(ok->variant && !strcmp(ok->variant, vn))))
				ok = r;
		}
		if (!x)
			x = ok;
		int against_only = 0, from_weak = 0;
		if (!x && !bad && weak_ok) {
			x = weak_ok;
			against_only = from_weak = 1;
		} else if (!x && !bad && weak_bad) {
			bad = weak_bad;
		}
		/* the same code by the echo-neutral object or the loaded image
		 * alone: only where it excludes the value (against_only), an ok
		 * row outside the band or, with none ok, a row that did not run
		 * cleanly (red team 87's long: a comment-only copy's batches
		 * that crashed never counted against a value of its original) */
		for (size_t i = 0; !x && !bad && i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r->outcome == OUTCOME_OK && code_identity(a->q, r, &rid) &&
			    audit_same_identity_or_neutral(&rid, &id) && !audit_row_set_aside(a, r)) {
				x = r;
				against_only = 1;
			}
		}
		for (size_t i = 0; !x && !bad && i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r->outcome != OUTCOME_OK && audit_row_counts(a, r) && code_identity(a->q, r, &rid) &&
			    audit_same_identity_or_neutral(&rid, &id) && !audit_row_set_aside(a, r))
				bad = r;
		}
		/* every other row of the code in b, each a vote of its own
		 * beside the first (red team 268: eight rows of one binary in
		 * one batch were eight draws, and a value claimed of the
		 * luckiest was supported while the other seven excluded it, 3 of
		 * 3; red team 270: the same with eight echo-neutral builds, and
		 * with rows of the code that did not run cleanly beside ok
		 * ones): an ok row of the same object a plain vote, one of the
		 * same echo-neutral object or loaded image a vote only against
		 * (as above), a row that did not run cleanly a vote against */
		const struct batch_row *first = x ? x : bad;
		struct extra_row {
			const struct batch_row *r;
			int ok, neutral;
		} *ex = xcalloc(b->n_rows ? b->n_rows : 1, sizeof(*ex));
		size_t n_ex = 0;
		for (size_t i = 0; first && i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r == er || r == first || !audit_row_counts(a, r) || audit_row_set_aside(a, r) ||
			    !code_identity(a->q, r, &rid))
				continue;
			int strict = audit_same_identity(&rid, &id);
			if (!strict && !audit_same_identity_or_neutral(&rid, &id))
				continue;
			ex[n_ex++] = (struct extra_row){ r, r->outcome == OUTCOME_OK, !strict };
		}
		for (size_t vi = 0; vi <= n_ex; vi++) {
			if (vi > 0) {
				const struct extra_row *e = &ex[vi - 1];
				x = e->ok ? e->r : NULL;
				bad = e->ok ? NULL : e->r;
				against_only = e->ok && e->neutral;
				from_weak = 0;
				n_rows_more++;
			}
			double v, ci[2], lo, hi;
			int have_ci = 0;
			struct strbuf w = STRBUF_INIT;
			/* every batch holds the claim to a band: the stated tolerance,
			 * else its CI, else the precision written (the rule the claim's
			 * own batch is held to; red team 49: mean_us, min_us and frac_*
			 * had no CI and no other batch decided) */
			if (x && (b != eb || vi > 0) && query_row_few_processes(b, x)) {
				/* fewer than STATS_MIN_PROCESSES repeats: no vote (red
				 * team 122: a value the only 3-repeat batch's CI
				 * excludes was supported after 4 `--repeats 1` runs,
				 * and a true one pinned to that batch contradicted by
				 * 20 of them, 7 of 21 holding it).  Left out, not
				 * weighed by processes: its band is its one or two
				 * processes' CI, which says nothing of the variance
				 * between processes (rule 0b), so three of them are not
				 * one batch of three repeats either */
				n_few++;
			} else if (x && stat_with_ci(a, b, x, stat, &v, ci, &have_ci, &w) == 0 && isfinite(v)) {
				value_band(tol, pct, amount, ulp, scale, v, ci, have_ci, &lo, &hi);
				int in = want >= lo && want <= hi;
				n_weak += from_weak && in;
				if (!(against_only && in)) {
					n++;
					if (in) {
						k++;
					} else if (n_out++ < 6) {
						strbuf_addf(&out, "%s%.4g [%.4g, %.4g] (%s)", out.len ? ", " : "", v, lo, hi,
							    audit_id_or(b->run_id));
					}
				}
			} else if (!x && bad) {
				n++;
				if (n_out++ < 6)
					strbuf_addf(&out, "%s%s did not run cleanly: %s (%s)", out.len ? ", " : "",
						    audit_name_or(bad->variant), bad->outcome_text ? bad->outcome_text : "no outcome",
						    audit_id_or(b->run_id));
			}
			strbuf_release(&w);
		}
		free(ex);
		/* every batch of the code, reproductions included (red team
		 * 49: a value pinned to the luckiest of 10 reproductions was
		 * weighed against the original alone, "1 of 2") */
		do
			b = query_next_batch_all(a->q, NULL, &pos);
		while (b && (b == eb || !audit_same_problem(&b->problem, &eb->problem)));
	}
	/* the killed tries of the code (runs, no batch record), weighed as
	 * the interrupted ones are (value_killed_tries) */
	size_t n_killed = 0, n_killed_its_way = 0, n_begun = 0;
	value_killed_tries(a, eb, &id, stat, try_lo, try_hi, &n_killed, &n_killed_its_way, &n_begun, &n_out, &out);
	n += n_killed;
	/* more than half of the deciding batches must hold it: one of two
	 * is a coin, not what the code gives */
	struct strbuf stopped = STRBUF_INIT;
	if (n_stopped)
		strbuf_addf(&stopped, " (%zu of them interrupted tries", n_stopped);
	if (n_killed)
		strbuf_addf(&stopped, "%s%zu %s tries (%s, no batch record)", n_stopped ? ", " : " (", n_killed,
			    n_stopped ? "killed" : "of them killed", n_begun ? "runs or a begun job" : "runs");
	if (stopped.len)
		strbuf_addstr(&stopped, n_begun || n_cut ? " with a run outside its band or not ok, or a job of the code "
							   "begun and never finished)"
							 : " with a run outside its band or not ok)");
	size_t decides = own_stopped ? 1 : 2;
	if (own_stopped && !n) {
		*agrees = 0;
		*tie = 1;
		strbuf_addf(msg, "; but batch %s was interrupted, a stopped try, which never counts for a claim (its "
				 "runner chose when it stopped), and no finished batch or other try of the same code on %s "
				 "holds %s=%.6g: rerun the experiment to a finished batch",
			    audit_id_or(eb->run_id), id.dev, stat, want);
	} else if (n >= decides && 2 * k < n) {
		*agrees = 0;
		strbuf_addf(msg, "; but only %zu of %zu batches of the same code on %s hold %s=%.6g, %zu exclude it%s: %s%s: "
				 "a number one batch gave, not what the code gives (cite a value most batches of the "
				 "code hold, or state a tol= of at most %g%% that covers them)",
			    k, n, id.dev, stat, want, n - k, stopped.len ? stopped.buf : "", out.buf, n_out > 6 ? ", ..." : "",
			    AUDIT_TOL_CAP_PCT);
	} else if (n >= decides && 2 * k == n) {
		*agrees = 0;
		*tie = 1;
		strbuf_addf(msg, "; but only %zu of %zu batches of the same code on %s hold %s=%.6g, %zu exclude it%s: %s%s: "
				 "no majority of the batches (rerun the code, and cite what most batches hold)",
			    k, n, id.dev, stat, want, n - k, stopped.len ? stopped.buf : "", out.buf, n_out > 6 ? ", ..." : "");
	} else if (n >= decides) {
		strbuf_addf(msg, "; %zu of %zu batches of the same code on %s hold it%s", k, n, id.dev,
			    stopped.len ? stopped.buf : "");
	}
	if (n_begun || n_cut) {
		strbuf_addstr(msg, "; ");
		if (n_begun)
			strbuf_addf(msg, "%zu killed tr%s had a job of the code begun and never finished (its batch's "
					 "begun marker in pending/ lists it and no run record does: the runner was killed "
					 "or stopped while the code ran, or runs still)",
				    n_begun, n_begun == 1 ? "y" : "ies");
		if (n_cut)
			strbuf_addf(msg, "%s%zu interrupted tr%s had a job of the code cut short (aborted, "
					 "interrupted before it finished)",
				    n_begun ? " and " : "", n_cut, n_cut == 1 ? "y" : "ies");
		strbuf_addstr(msg, ", which counts against the claim: what that job would have measured is unknown, and a "
				   "hunter who stops each try as soon as the code shows slow leaves only fast runs (red "
				   "team 132); a stop of your own (Ctrl-C, SIGKILL, the OOM killer, a lost terminal) is "
				   "undone by rerunning the experiment to finished batches, most of which must hold the "
				   "value");
	}
	if (own_stopped && n)
		strbuf_addf(msg, "; batch %s itself interrupted, a stopped try: left out of the count",
			    audit_id_or(eb->run_id));
	if (n_killed_its_way)
		strbuf_addf(msg, "; %zu killed tr%s of the code (runs, no batch record), every run inside [%.6g, %.6g], "
				 "left out",
			    n_killed_its_way, n_killed_its_way == 1 ? "y" : "ies", try_lo, try_hi);
	if (n_its_way)
		strbuf_addf(msg, "; %zu interrupted tr%s of the code, every run inside [%.6g, %.6g], left out", n_its_way,
			    n_its_way == 1 ? "y" : "ies", try_lo, try_hi);
	if (n_rows_more)
		strbuf_addf(msg, "; each row of the code in a batch counted as a batch (%zu row(s) beside the one "
				 "each batch gave first)",
			    n_rows_more);
	if (n_few)
		strbuf_addf(msg, "; %zu batch(es) of the code of fewer than %d repeats left out (no vote: the variance "
				 "between processes is unknown)",
			    n_few, STATS_MIN_PROCESSES);
	if (n_aside)
		strbuf_addf(msg, "; %zu row(s) of the code set aside by %s", n_aside,
			    a->o->errata_path ? a->o->errata_path : "the errata");
	if (n_weak)
		strbuf_addf(msg, "; %zu batch(es) of a weaker box (no box, or an unverified bubblewrap's) holding "
				 "it not counted (such a batch counts only against)",
			    n_weak);
	strbuf_release(&stopped);
	strbuf_release(&out);
}

/*
 * A time or a rate of a code the judge refuted anywhere in the store (a
 * run of its program, at the problem and dtype at any shape on its
 * device: code_refuted_run, as a faster claim's faster side and eval's
 * candidate are held).  Red team 273 row 5: "a code refuted once backs no
 * speed" held a speedup stated as a value (implied_verdict) but not the
 * refuted binary's own median_us and GFLOP/s, supported 5 of 5 each
 * beside it: two medians state the speedup the claim may not, and a rate
 * counts work whose output the judge refused.  Contradicted: the record
 * says the code does not do the problem's work, so no time of it is the
 * time of that work.  1 with why added to msg.
 */
static int value_code_refuted(struct actx *a, const struct batch_record *b, const struct run_record *run,
			      const struct batch_row *row, const char *vn, struct strbuf *msg)
{
	struct code_id id;
	const struct rec_problem *prob = b ? &b->problem : run ? &run->problem : NULL;
	if (!prob || !row || !code_identity(a->q, row, &id))
		return 0;
	const struct run_record *r = code_refuted_run(a->q, prob, &id);
	if (!r)
		return 0;
	const char *how = code_refuted_how(r, &id);
	strbuf_addf(msg, "; but %s is a code whose output the judge refuted (%s, run %s%s%s%s%s%s): a code refuted "
			 "once backs no speed, a time or a rate of it no more than a speedup, however its other runs "
			 "went",
		    vn, outcome_name(code_run_refuted(r)), audit_id_or(r->run_id), r->batch_id ? " of " : "",
		    r->batch_id ? r->batch_id : "", how ? "; it is " : "", how ? how : "",
		    how ? " the refuted run's object, the same program" : "");
	return 1;
}

void audit_claim_value(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", "stat", "value", "tol", NULL };
	static const char *const req[] = { "experiment", "variant", "stat", "value", NULL };
	if (audit_keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *vn = md_attr(m, "variant"), *stat = md_attr(m, "stat");
	const char *sval = md_attr(m, "value"), *tol = md_attr(m, "tol"), *pin = md_attr(m, "run");
	struct strbuf why = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	struct blist batches = { 0 };
	char *last = NULL;
	double stated, ulp, pct = -1, amount = 0, scale;
	const char *err;
	if (!record_stat_def(stat)) {
		audit_finding(a, m->line, "error", "claim 'value': unknown stat '%s' (known: %s)", stat, record_stat_names());
		goto out;
	}
	enum fam fam = audit_stat_fam(stat, &scale);
	int rc = audit_stated_number(sval, fam, scale, &stated, &ulp, &err);
	if (rc < 0) {
		audit_stated_error(a, m, "value", rc, err);
		goto out;
	}
	if (tol && audit_claim_tol(a, m, fam, stated, &pct, &amount) < 0)
		goto out;
	strbuf_addf(&head, "value %s/%s %s=%s", e, vn, stat, sval);
	const struct batch_record *b = NULL;
	const struct batch_row *row = NULL;
	const struct run_record *run = NULL;
	int stale = 0;
	if (pin && strcmp(pin, "latest")) {
		if (query_resolve(a->q, e, vn, pin, &b, &row, &run, &why) < 0) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		stale = !run || !query_sources_current(a->q, run, &why) || !query_spec_defines(a->q, run, row, &why);
		last = xstrfmt("run %s", audit_id_or(row->run_id));
	} else {
		const char *need[] = { vn, NULL };
		size_t n_b = audit_claim_batches(a, e, NULL, need, &batches, &why);
		if (!n_b) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		strbuf_reset(&why);
		b = audit_evidence_batch(a, &batches, need, &stale, &why);
		row = batch_find_row(b, vn);
		last = xstrfmt("batch %s", audit_id_or(b->run_id));
	}
	if (audit_own_row_set_aside(a, row, vn, &detail)) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
		goto out;
	}
	if (row->outcome != OUTCOME_OK && strcmp(stat, "max_abs_err") && strcmp(stat, "usd") && strcmp(stat, "gpu_s")) {
		strbuf_addstr(&detail, "the variant ");
		audit_describe_failure(&detail, row->outcome_text, row->reason);
		strbuf_addf(&detail, " (run %s)", audit_id_or(row->run_id));
		audit_conclude(a, m, 0, stale, head.buf, detail.buf, why.buf, last);
		goto out;
	}
	/* a row whose checks left NaN or unwritten outputs has no largest
	 * error (error_across_runs) */
	if (!strcmp(stat, "max_abs_err")) {
		struct strbuf w3 = STRBUF_INIT;
		if (error_own_unbounded(a, row, &w3)) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, w3.buf);
			strbuf_release(&w3);
			goto out;
		}
		strbuf_release(&w3);
	}
	double v, ci[2];
	int have_ci;
	struct strbuf w2 = STRBUF_INIT;
	if (stat_with_ci(a, b, row, stat, &v, ci, &have_ci, &w2) < 0) {
		audit_finding(a, m->line, "unsupported", "%s: %s (run %s)", head.buf, w2.buf, audit_id_or(row->run_id));
		strbuf_release(&w2);
		goto out;
	}
	strbuf_release(&w2);
	double lo, hi;
	const char *rule = value_band(tol != NULL, pct, amount, ulp, scale, v, ci, have_ci, &lo, &hi);
	if (!rule)
		rule = "the precision written";
	double want = stated / scale;
	int agrees = want >= lo && want <= hi;
	strbuf_addf(&detail, "recorded %.6g, %s %s [%.6g, %.6g] (run %s)", v, agrees ? "within" : "outside", rule, lo, hi,
		    audit_id_or(row->run_id));
	audit_trust_note(a, &detail, row, vn);
	const char *kind;
	if (agrees && comparison_stat(stat) && !implied_verdict(a, b, row, vn, stat, want, ulp / scale, sval, stale, &detail, &kind)) {
		if (!strcmp(kind, "unsupported")) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
			goto out;
		}
		agrees = 0;
	}
	/* a fraction of the bandwidth peak is the DRAM triad's only where
	 * the run's data came from memory: a hot-cache run's may stay in
	 * the caches and beat the triad, and the run bounds it by nothing
	 * (red team 234: a hot naive rowsum read 2.84-3.79x of a 1 GB/s
	 * cache, a value claim on it supported 3 of 3) */
	if (agrees && row && !strcmp(stat, "frac_bandwidth_peak")) {
		const struct run_record *r0 = query_row_run(a->q, row);
		if (r0 && r0->backend && !strcmp(r0->backend, "host") && (!r0->cache || strcmp(r0->cache, "cold"))) {
			audit_finding(a, m->line, "unsupported",
				      "%s: a fraction of the memory bandwidth peak of a run timed cache: %s (its data may "
				      "stay in the caches, which the triad's peak does not bound); claim it of a cache: "
				      "cold run",
				      head.buf, r0->cache ? r0->cache : "hot");
			goto out;
		}
	}
	/* a throughput rests on the problem's count of the work (FLOPs or
	 * bytes moved), which its plug-in states: where another build of the
	 * same problem, dtype and shape recorded another count, the rate is
	 * that build's word against this one's (red team 234's flopswap:
	 * gemm's 2MNK made 4MNK doubled GFLOP/s and frac_compute_peak, and
	 * value claims at those numbers were supported 3 of 3 beside an
	 * honest batch of the same object at the old count) */
	if (agrees && b && (!strcmp(stat, "gflops") || !strcmp(stat, "tflops") || !strcmp(stat, "frac_compute_peak") || !strcmp(stat, "gbps") ||
			    !strcmp(stat, "frac_bandwidth_peak"))) {
		int flops = strcmp(stat, "gbps") && strcmp(stat, "frac_bandwidth_peak");
		double here = flops ? b->problem.flops : b->problem.min_bytes;
		const struct run_record *other = NULL;
		for (size_t i = 0; i < a->q->n && !other && isfinite(here) && here > 0; i++) {
			if (a->q->e[i].a.is_batch || a->q->e[i].a.is_search)
				continue;
			const struct run_record *y = query_run_at(a->q, i);
			if (!y || !y->problem.name || !b->problem.name || strcmp(y->problem.name, b->problem.name) ||
			    !((!y->problem.dtype && !b->problem.dtype) ||
			      (y->problem.dtype && b->problem.dtype && !strcmp(y->problem.dtype, b->problem.dtype))) ||
			    y->problem.n_dims != b->problem.n_dims)
				continue;
			int same_dims = 1;
			for (size_t k = 0; k < y->problem.n_dims && k < 8; k++)
				same_dims &= y->problem.dims[k] == b->problem.dims[k];
			double there = flops ? y->problem.flops : y->problem.min_bytes;
			if (same_dims && isfinite(there) && there > 0 && fabs(there - here) > 1e-9 * here)
				other = y;
		}
		if (other) {
			audit_finding(a, m->line, "unsupported",
				      "%s: the problem's %s at this shape is %.6g here and %.6g in run %s (another build of "
				      "the problem): a rate is the work its problem counts over the time, and the "
				      "builds disagree on the work",
				      head.buf, flops ? "FLOP count" : "minimum bytes moved", here,
				      flops ? other->problem.flops : other->problem.min_bytes, audit_id_or(other->run_id));
			goto out;
		}
	}
	if (agrees && !strcmp(stat, "max_abs_err"))
		error_across_runs(a, row, hi, &agrees, &detail);
	int tie = 0;
	if (agrees && rate_stat(stat))
		value_across_batches(a, b, row, vn, stat, want, tol != NULL, pct, amount, ulp, scale, lo, hi, &agrees,
				     &tie, &detail);
	if (tie) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
		goto out;
	}
	/* after the batches' vote, as implied_verdict weighs the history
	 * after the reruns: a tie there stays unsupported (t0072: a
	 * reproduction that failed is half the batches of the code) */
	if (agrees && rate_stat(stat) && value_code_refuted(a, b, run, row, vn, &detail))
		agrees = 0;
	/* a time or rate read from a batch of fewer than STATS_MIN_PROCESSES
	 * processes of the variant: the rule that takes such batches' votes
	 * away from the others (value_across_batches, red team 122) holds for
	 * the claim's own batch too (red team 258: pinned to a one-repeat
	 * batch that drew a fast process, 90 us supported 3 of 3 beside five
	 * such batches at 220-498 us, which had no vote): a claim the other
	 * batches contradict stays contradicted, one they would let stand on
	 * it is unsupported */
	if (agrees && rate_stat(stat) && b && row && query_row_few_processes(b, row)) {
		audit_finding(a, m->line, "unsupported",
			      "%s: %s (batch %s ran %s in fewer than %d processes: one or two processes' spread says "
			      "nothing of the variance between processes; claim a batch of %d repeats or more)",
			      head.buf, detail.buf, audit_id_or(b->run_id), vn, STATS_MIN_PROCESSES, STATS_MIN_PROCESSES);
		goto out;
	}
	audit_conclude(a, m, agrees, stale, head.buf, detail.buf, why.buf, last);
out:
	free(last);
	strbuf_release(&why);
	strbuf_release(&head);
	strbuf_release(&detail);
}
