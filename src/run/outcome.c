/*
 * outcome.c - classify one job (contract in outcome.h).
 *
 * Order of evidence, first match wins:
 *   1. the build failed; the binary was tampered with;
 *   2. the worker broke the protocol (a forged, extra, missing or late
 *      message: it cannot speak for its own record);
 *   3. a failure the worker reported (it knows the CUDA error's name);
 *      a timeout (we sent the kill); a signal; an exit without `done`
 *      (these three say how far the worker got: phase_seen);
 *   4. the judge could not judge (the checker failed, or its GPU
 *      reference disagreed with the float64 one);
 *   5. work that escaped the timed region, then correctness over every
 *      check that ran - the seeds (one per input
 *      distribution), the timed launches drawn after they ran, the extra
 *      shape: all pass = go on; right at every seed but wrong in a timed
 *      launch = nan / unwritten_output / wrong_output (it behaves
 *      differently when timed: what was timed was not the work); failures
 *      confined to distributions that never pass = their nan / unwritten /
 *      wrong (numerics); other mixes = flaky; none pass = nan if any NaN, else
 *      unwritten_output if a check's failing elements were mostly left
 *      unwritten, else wrong_output (a wrong fp16 element equals the
 *      launch's scramble bits by chance once in 65536: a few such
 *      coincidences among 10^5 wrong elements do not make an output
 *      "unwritten");
 *   6. a median below the physical floor;
 *   7. ok.
 * Work that escaped the timed region (another stream, still running after
 * the stop event or, on the host, computing after the done line: run_ctx.h
 * HOST_LATE_CPU_US; a host thread started by launch()) is judged just before
 * correctness: it explains the wrong answers it usually causes.
 */
#include "run/outcome.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

static char *check_text(const struct rec_check *c)
{
	struct strbuf sb = STRBUF_INIT;
	if (!strcmp(c->phase, "timed"))
		strbuf_addf(&sb, "timed sample %lld", c->sample);
	else if (!strcmp(c->phase, "shape"))
		/* the extra shape's checks (the reason already says "at the
		 * extra shape ..."): "seed N", not "shape N" */
		strbuf_addf(&sb, "seed %llu", c->seed);
	else
		strbuf_addf(&sb, "%s %llu", c->phase, c->seed);
	if (c->dist)
		strbuf_addf(&sb, " (%s inputs)", c->dist);
	strbuf_addf(&sb, ": max |err| %.3g, rel L2 %.3g, %lld NaN, %lld unwritten, %lld out of tolerance, first at index %lld",
		    c->max_abs_err, c->rel_l2, c->nan_count, c->unwritten, c->mismatches, c->first_mismatch);
	return strbuf_detach(&sb, NULL);
}

/* Mostly unwritten: the elements still holding the launch's scramble (or
 * poison) bits are the majority of those that failed. */
static int mostly_unwritten(const struct rec_check *c)
{
	return c->unwritten > 0 && 2 * c->unwritten > c->unwritten + c->mismatches;
}

static void set(enum outcome *o, char **r, enum outcome v, char *reason)
{
	*o = v;
	*r = reason;
}

/* The correctness verdict over a list of checks (step 5). */
static int judge(const struct rec_check *c, size_t n, const char *where, enum outcome *o, char **r)
{
	size_t pass = 0, nan = 0, unw = 0, seeds_bad = 0, timed_bad = 0;
	const struct rec_check *first_bad = NULL;
	for (size_t i = 0; i < n; i++) {
		if (c[i].pass) {
			pass++;
			continue;
		}
		if (!first_bad)
			first_bad = &c[i];
		nan += c[i].nan_count > 0;
		unw += mostly_unwritten(&c[i]);
		if (!strcmp(c[i].phase, "timed"))
			timed_bad++;
		else
			seeds_bad++;
	}
	if (pass == n)
		return 0;
	char *t = check_text(first_bad);
	if (timed_bad && !seeds_bad) {
		/* the launches that were timed computed something else: the time
		 * is not the work's, however many other checks passed */
		enum outcome v = nan ? OUTCOME_NAN : unw ? OUTCOME_UNWRITTEN_OUTPUT : OUTCOME_WRONG_OUTPUT;
		size_t timed = 0;
		for (size_t i = 0; i < n; i++)
			timed += !strcmp(c[i].phase, "timed");
		set(o, r, v, xstrfmt("right when checked before timing, wrong in %zu of %zu timed launches checked "
				     "after they ran%s: the timed launches did not all compute what the checks before them did "
				     "(work skipped or approximated, or an input those checks did not draw); %s",
				     timed_bad, timed, where, t));
		free(t);
		return 1;
	}
	/* failures confined to input distributions that never pass are the
	 * kernel's numerics, not chance: flaky is for the same inputs' kind
	 * passing one time and failing another */
	int same_dist_passes = 0;
	for (size_t i = 0; i < n && !same_dist_passes; i++)
		for (size_t k = 0; !c[i].pass && k < n; k++)
			if (c[k].pass && (!c[i].dist || !c[k].dist || !strcmp(c[i].dist, c[k].dist)))
				same_dist_passes = 1;
	if (pass > 0 && !same_dist_passes) {
		enum outcome v = nan ? OUTCOME_NAN : unw ? OUTCOME_UNWRITTEN_OUTPUT : OUTCOME_WRONG_OUTPUT;
		set(o, r, v, xstrfmt("%zu of %zu checks%s failed, each on inputs of a distribution that never "
				     "passed; %s", n - pass, n, where, t));
		free(t);
		return 1;
	}
	if (pass > 0)
		set(o, r, OUTCOME_FLAKY,
		    xstrfmt("%zu of %zu checks%s passed (%zu seed, %zu timed failed); %s", pass, n, where, seeds_bad,
			    timed_bad, t));
	else if (nan)
		set(o, r, OUTCOME_NAN, xstrfmt("every check%s failed; %s", where, t));
	else if (unw)
		set(o, r, OUTCOME_UNWRITTEN_OUTPUT, xstrfmt("every check%s failed; %s", where, t));
	else
		set(o, r, OUTCOME_WRONG_OUTPUT, xstrfmt("every check%s failed; %s", where, t));
	free(t);
	return 1;
}

/*
 * Where in its sequence (protocol.h) a worker that died had got to, from
 * what the parent had read of it, for the reason of a crash or timeout:
 * " during load (...)", " during correctness seed 2 (...)", " during
 * timing (...)", " during fini (...)"; "" without a protocol.
 * init() sends nothing, so a death after the kernel message and before
 * the first seed output is init's or seed 0's.  Caller frees.
 */
static char *phase_seen(const struct proto *p)
{
	if (!p)
		return xstrdup("");
	if (!p->got_hello)
		return xstrdup(" during load (before the worker's hello)");
	if (!p->kernel)
		return xstrdup(" during load (the problem or the kernel; no kernel message yet)");
	if (p->next_seed < p->seeds) {
		if (!p->next_seed)
			return xstrdup(" during init or correctness seed 0 (the kernel loaded; no seed output yet)");
		if (p->next_seed == 1)
			return xstrdup(" during correctness seed 1 (seed 0 shipped)");
		return xstrfmt(" during correctness seed %lld (seeds 0-%lld shipped)", p->next_seed, p->next_seed - 1);
	}
	if (p->timed && p->timing_n < 0) {
		if (!p->warmup)
			return xstrfmt(" during the timing warm-up (all %d correctness seeds shipped)", p->seeds);
		return xstrfmt(" during timing (%zu sample%s reported)", p->n_samples, p->n_samples == 1 ? "" : "s");
	}
	if (!p->got_fini)
		return xstrdup(" during fini (every check and sample reported)");
	return xstrdup(p->got_done ? " after its done message" : " after fini, before done");
}

static void classify(const struct job_report *r, enum outcome *o, char **reason)
{
	*reason = NULL;
	*o = OUTCOME_OK;
	if (!r->build_attempted) {
		set(o, reason, OUTCOME_BUILD_FAILED, xstrdup("the build could not be attempted (compiler missing?)"));
		return;
	}
	if (!r->build_ok) {
		set(o, reason, OUTCOME_BUILD_FAILED,
		    xstrdup(r->build_reason ? r->build_reason : "the compiler failed; see the build log"));
		return;
	}
	if (r->tampered) {
		set(o, reason, OUTCOME_TAMPERED, xstrdup(r->tampered));
		return;
	}
	const struct proto *p = r->proto;
	const struct run_result *w = r->worker;
	/* the problem's fill box failed mid-run: the parent stopped the
	 * worker, whose end is then the judge's doing, never the kernel's
	 * (red team 259: a plug-in's fill() that killed its own box had the
	 * honest kernel recorded crashed, status 137, and a validated claim
	 * on it denied across builds 4 of 4) */
	if (p && p->judge_failed && !r->interrupted) {
		set(o, reason, OUTCOME_REFERENCE_FAILED, xstrdup(p->judge_failed));
		return;
	}
	if (p && p->violation && !(w && w->timed_out)) {
		set(o, reason, OUTCOME_PROTOCOL_VIOLATION, xstrfmt("protocol violation: %s", p->violation));
		return;
	}
	/* a box that takes longer than RUN_BOX_EXIT_MAX_S to go once killed
	 * (memory it held, freed as its threads die) slows whatever runs
	 * beside or after it (red team 50's late_exit) */
	if (w && w->box_exit_late) {
		set(o, reason, OUTCOME_PROTOCOL_VIOLATION,
		    xstrfmt("protocol violation: the kernel's box was still exiting %.1f s after its kill (more "
			    "than %.0f s: what it held, freed as it exits, slows the jobs beside and after it)",
			    w->box_exit_s, RUN_BOX_EXIT_MAX_S));
		return;
	}
	if (p && p->failure) {
		const char *oc = json_string_value(json_object_get(p->failure, "outcome"));
		const char *e = json_string_value(json_object_get(p->failure, "error"));
		const char *why = json_string_value(json_object_get(p->failure, "reason"));
		enum outcome v = OUTCOME_CRASHED;
		if (oc && outcome_parse(oc, &v) < 0)
			v = OUTCOME_CRASHED;
		/* a worker may report only failures it can know of itself */
		if (v != OUTCOME_CRASHED && v != OUTCOME_LAUNCH_FAILED && v != OUTCOME_INIT_FAILED &&
		    v != OUTCOME_NO_DEVICE)
			set(o, reason, OUTCOME_PROTOCOL_VIOLATION,
			    xstrfmt("protocol violation: the worker claimed the outcome '%s'", oc ? oc : "?"));
		/* no_device takes a run out of every verdict and claim, so only
		 * the harness may say it, and only before any kernel code ran:
		 * a host worker has no device to miss, and a GPU worker's kernel
		 * loads only after its device opened (the device message's
		 * info).  Kernel code can write the failure message itself (red
		 * team 44: coin_nodev said no_device in its wrong half, and its
		 * row read flaky-but-validated; quiet_only said it whenever its
		 * init met load, and 10 of 12 batches left the reruns) */
		/* a failure it says it met after it shipped an output (a seed's,
		 * or a timed sample's) is no refusal of its configuration: it
		 * ran, and what it shipped was not judged.  Red team 45's
		 * wrong_refuse shipped wrong outputs, then returned non-zero
		 * from launch(): launch_failed, no check, and the audit counted
		 * it as a configuration that refused itself; pick_fast failed
		 * its own slow processes after their timed samples */
		else if ((v == OUTCOME_LAUNCH_FAILED || v == OUTCOME_INIT_FAILED) && (p->next_seed > 0 || p->n_samples > 0))
			set(o, reason, OUTCOME_CRASHED,
			    xstrfmt("the worker said %s after it had shipped %lld seed output(s) and %zu timed "
				    "sample(s): not a configuration it refused (%s%s%s)",
				    outcome_name(v), p->next_seed, p->n_samples, e ? e : "", e && why ? ": " : "",
				    why ? why : ""));
		else if (v == OUTCOME_NO_DEVICE && !p->gpu)
			set(o, reason, OUTCOME_PROTOCOL_VIOLATION,
			    xstrdup("protocol violation: a host worker claimed the outcome 'no_device' (it has no "
				    "device to miss; kernel code can write the message)"));
		else if (v == OUTCOME_NO_DEVICE && p->device)
			set(o, reason, OUTCOME_CRASHED,
			    xstrfmt("the worker said no_device after its GPU had opened, which kernel code can write: "
				    "not taken as no_device (%s%s%s)",
				    e ? e : "", e && why ? ": " : "", why ? why : ""));
		else {
			/* a library the kernel loads by name at run time is in
			 * no box: a box of copies holds what the objects' dynamic
			 * sections name (red team 57's honest dlopen_blas) */
			int lib = r->boxed && ((e && strstr(e, "cannot open shared object file")) ||
					       (why && strstr(why, "cannot open shared object file")));
			set(o, reason, v,
			    xstrfmt("%s%s%s%s", e ? e : "", e && why ? ": " : "", why ? why : "",
				    lib ? " (a box holds only the libraries the kernel's objects name: link a library "
					  "it loads at run time, e.g. flags: [-Wl,--no-as-needed, -lNAME], and the box "
					  "copies it)"
					: ""));
		}
		return;
	}
	if (w && w->timed_out) {
		char *when = phase_seen(p);
		set(o, reason, OUTCOME_TIMEOUT,
		    xstrfmt("no result within %.1f s; the worker was killed%s", w->seconds, when));
		free(when);
		return;
	}
	/* killed_at_end: its job's last message was in, and the parent ended
	 * what still ran after it (job.c WORKER_END_GRACE_S); recorded in
	 * judge.sandbox, no crash */
	if (w && !w->killed_at_end && (w->signaled || !w->exited || w->exit_code != 0)) {
		char *when = phase_seen(p);
		if (w->signaled && w->signo == SIGSYS && !r->interrupted)
			/* only the worker's exec filter sends it (base/sandbox.h
			 * sandbox_no_exec), or the kernel itself */
			set(o, reason, OUTCOME_CRASHED,
			    xstrfmt("worker killed by SIGSYS%s: the box refuses execve and execveat to kernel code "
				    "(no other program may take the worker's place)",
				    when));
		else if (w->signaled)
			set(o, reason, r->interrupted ? OUTCOME_ABORTED : OUTCOME_CRASHED,
			    xstrfmt("worker killed by %s%s", signal_name(w->signo), when));
		else
			set(o, reason, r->interrupted ? OUTCOME_ABORTED : OUTCOME_CRASHED,
			    xstrfmt("worker exited with status %d%s%s", w->exit_code,
				    p && p->got_done ? "" : " before it finished", when));
		free(when);
		return;
	}
	if (!r->checker_ran || r->checker_error) {
		set(o, reason, OUTCOME_REFERENCE_FAILED,
		    xstrfmt("the checker could not judge: %s", r->checker_error ? r->checker_error : "it did not run"));
		return;
	}
	if (r->reference_failed) {
		set(o, reason, OUTCOME_REFERENCE_FAILED, xstrdup(r->reference_failed));
		return;
	}
	if (!r->n_checks) {
		set(o, reason, OUTCOME_CRASHED, xstrdup("the worker shipped no output to check"));
		return;
	}
	/* a sample whose device records were not all attributed has no
	 * escape checks that can be trusted: the other-stream and late checks
	 * read only the records they could attribute (red team 23: 4096 API
	 * calls, then rows on a side stream beside the stop event) */
	if (r->incomplete) {
		set(o, reason, OUTCOME_ESCAPED_WORK,
		    xstrfmt("%lld sample(s) whose device work could not all be attributed to the launch (CUPTI "
			    "records incomplete: dropped, more API calls than the harness follows, or a kernel "
			    "launch, copy or memset with no record, its records turned off): work on "
			    "another stream or past the stop event cannot be ruled out",
			    r->incomplete));
		return;
	}
	if (r->other_stream || r->late || r->host_threads) {
		/* (drain_late_judged is in late: job.c job_escapes) */
		char *drain = r->drain_late_judged
				      ? xstrfmt(" (%lld of them seen only as the device's drain after it, over %.0f us: "
						"work CUPTI may have no record of)", r->drain_late_judged, DRAIN_LATE_US)
				      : xstrdup("");
		set(o, reason, OUTCOME_ESCAPED_WORK,
		    xstrfmt("work outside the timed region in %lld sample(s): %lld on another stream, %lld still "
			    "running after the stop event%s (on the host: computing after the done line), %lld that "
			    "started a host thread",
			    r->other_stream + r->late + r->host_threads, r->other_stream, r->late, drain,
			    r->host_threads));
		free(drain);
		return;
	}
	if (r->host_launch_judged) {
		set(o, reason, OUTCOME_ESCAPED_WORK,
		    xstrfmt("host work no GPU clock counts: launch() ran %.1f us on the host a sample (median), over %.0fx "
			    "the device's %.2f us + %.0f us: the device waits at the start event while launch() runs; "
			    "do setup in init()",
			    r->host_launch_us, HOST_LAUNCH_DEVICE_X,
			    (r->host_launch_bound_us - HOST_LAUNCH_SLACK_US) / HOST_LAUNCH_DEVICE_X, HOST_LAUNCH_SLACK_US));
		return;
	}
	if (outcome_ruler_off(r->ruler_rate, r->n_rulers)) {
		set(o, reason, OUTCOME_CLOCK_DISAGREE,
		    xstrfmt("the kernel clock ran at %.4f of the device's own (%%globaltimer) over the harness's "
			    "ruler, median of %lld timed samples (allowed %.3f to %.2f): a clock CUPTI was handed "
			    "that is not the device's times nothing",
			    r->ruler_rate, r->n_rulers, CLOCK_RULER_MIN, CLOCK_RULER_MAX));
		return;
	}
	if (r->n_clocked && r->clock_gaps > CLOCK_GAP_FRAC * (double)r->n_clocked) {
		set(o, reason, OUTCOME_CLOCK_DISAGREE,
		    xstrfmt("in %lld of %lld samples the CUDA events saw more than %.0f us + %.0f%% over the kernel "
			    "clock (there: %.2f us against %.2f us, medians): device work the kernel clock cannot "
			    "see, such as kernels launched from the device",
			    r->clock_gaps, r->n_clocked, CLOCK_GAP_US, 100 * CLOCK_GAP_REL, r->gap_event_us,
			    r->gap_kernel_us));
		return;
	}
	if (judge(r->checks, r->n_checks, "", o, reason))
		return;
	/* right in the replay, wrong where launch() ran as is: what was timed
	 * and checked is not what its process computes (work outside the
	 * capture: red team 67's cupti_off) */
	if (r->n_plan_checks) {
		int bad = judge(r->plan_checks, r->n_plan_checks,
				" in launch()'s own process (the planner ran it as is, uncaptured, after its capture; the "
				"sealed replay passed its checks: work launch() runs outside what it put on its stream, "
				"which no plan holds)",
				o, reason);
		if (bad) /* (flaky where its own seeds disagree among themselves: a race) */
			return;
	}
	if (r->shape_failure) {
		set(o, reason, r->shape_outcome,
		    xstrfmt("at the extra shape %s: %s", r->shape_text ? r->shape_text : "", r->shape_failure));
		return;
	}
	if (r->n_shape_checks) {
		char *where = xstrfmt(" at the extra shape %s", r->shape_text ? r->shape_text : "");
		int bad = judge(r->shape_checks, r->n_shape_checks, where, o, reason);
		free(where);
		if (bad) {
			if (*o == OUTCOME_FLAKY) /* right at one shape, wrong at another: wrong */
				*o = OUTCOME_WRONG_OUTPUT;
			return;
		}
	}
	if (isfinite(r->floor_us) && isfinite(r->median_us) && r->median_us < r->floor_us) {
		set(o, reason, OUTCOME_BELOW_FLOOR,
		    xstrfmt("median %.3g us%s%s%s is below the physical floor %.3g us (the problem's bytes at the "
			    "device's peak bandwidth, or its FLOPs at its peak): the time cannot be the work's",
			    r->median_us, r->floor_dist ? " (of its '" : "", r->floor_dist ? r->floor_dist : "",
			    r->floor_dist ? "' samples)" : "", r->floor_us));
		return;
	}
}

void outcome_classify(const struct job_report *r, enum outcome *o, char **reason)
{
	classify(r, o, reason);
	if (!r->interrupted || *o == OUTCOME_OK)
		return;
	char *was = *reason;
	const char *why = r->interrupted_why ? r->interrupted_why : "a signal";
	if (*o == OUTCOME_ABORTED)
		*reason = xstrfmt("interrupted by %s: %s", why, was ? was : "");
	else
		*reason = xstrfmt("interrupted by %s before the job finished (so far: %s: %s)", why, outcome_name(*o),
				  was ? was : "");
	*o = OUTCOME_ABORTED;
	free(was);
}

int outcome_rejudge(const struct ev_tolerance *tol, const struct proto_capture *caps, size_t n_caps,
		    struct rec_check *checks, size_t n, char **error, long long *asked_timed,
		    long long *got_timed)
{
	long long want_timed = 0, timed_n = 0;
	int overturned = 0;
	*error = NULL;
	for (size_t i = 0; i < n_caps; i++)
		want_timed += caps[i].timed;
	for (size_t i = 0; i < n; i++) {
		struct rec_check *k = &checks[i];
		int timed = k->phase && !strcmp(k->phase, "timed");
		timed_n += timed;
		double scale = isfinite(k->ref_scale) && k->ref_scale > 0 ? k->ref_scale : 1;
		int ok = !k->nan_count && !k->unwritten && !k->mismatches && isfinite(k->rel_l2) &&
			 k->rel_l2 <= tol->rel_l2 && isfinite(k->max_abs_err) &&
			 k->max_abs_err <= (tol->atol + tol->rtol) * scale;
		if (k->pass && !ok) {
			k->pass = 0;
			overturned++;
		}
		if (*error || i >= n_caps)
			continue;
		const struct proto_capture *c = &caps[i];
		if (timed != c->timed || (timed && (k->sample != c->index || (c->fresh && k->seed != c->seed))))
			*error = xstrfmt("the checker's check %zu is of %s %lld, the parent shipped %s %lld there: "
					 "its verdict is not about what ran",
					 i, timed ? "timed sample" : "seed launch", timed ? k->sample : (long long)k->seed,
					 c->timed ? "timed sample" : "seed launch", c->index);
	}
	*asked_timed = want_timed;
	*got_timed = timed_n;
	if (!*error && n != n_caps)
		*error = xstrfmt("the checker judged %zu outputs where the parent shipped %zu: its verdict is not "
				 "about what ran", n, n_caps);
	return overturned;
}

void outcome_host_launch(struct job_report *r, double launch_us, double device_us)
{
	r->host_launch_us = launch_us;
	r->host_launch_bound_us = HOST_LAUNCH_DEVICE_X * device_us + HOST_LAUNCH_SLACK_US;
	r->host_launch_judged = isfinite(launch_us) && isfinite(device_us) && launch_us > r->host_launch_bound_us;
}

double outcome_ruler_rate(const double *ruler_us, const double *gt_us, size_t n, long long *used)
{
	double *q = n ? xmalloc(n * sizeof(double)) : NULL;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(ruler_us[i]) && isfinite(gt_us[i]) && ruler_us[i] > 0 && gt_us[i] > 0)
			q[m++] = ruler_us[i] / gt_us[i];
	*used = (long long)m;
	double rate = stats_median_inplace(q, m);
	free(q);
	return rate;
}

int outcome_ruler_off(double rate, long long n_rulers)
{
	return n_rulers >= CLOCK_RULER_MIN_N && isfinite(rate) && (rate < CLOCK_RULER_MIN || rate > CLOCK_RULER_MAX);
}

int outcome_clock_gap_past(double event_us, double kernel_us)
{
	return isfinite(event_us) && isfinite(kernel_us) && event_us - kernel_us > CLOCK_GAP_US + CLOCK_GAP_REL * event_us;
}

int outcome_drain_judged(long long drain_late, long long n_samples)
{
	return drain_late >= DRAIN_LATE_MIN && (double)drain_late > DRAIN_LATE_FRAC * (double)n_samples;
}
