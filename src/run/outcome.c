/*
 * outcome.c - classify a variant's outcome (contract in outcome.h).
 *
 * Order of evidence: a failure the worker reported itself (it knows the
 * CUDA error's name) beats how the process ended; a timeout beats a
 * signal (we sent it); then correctness over the seeds and the re-check
 * after timing: all pass = ok; some seeds pass and others fail, or all pass
 * but the re-check fails = flaky; none pass = nan if any NaN, else
 * unwritten_output if any element was left unwritten, else wrong_output.
 */
#include "run/outcome.h"

#include <string.h>

#include "base/util.h"

static void set(char **o, char **r, const char *outcome, char *reason)
{
	*o = xstrdup(outcome);
	*r = reason;
}

static char *seed_reason(json_t *s)
{
	long long nan = json_integer_value(json_object_get(s, "nan_count"));
	long long unw = json_integer_value(json_object_get(s, "unwritten"));
	long long mism = json_integer_value(json_object_get(s, "mismatches"));
	return xstrfmt("seed %lld: max |err| %.3g, rel L2 %.3g, %lld NaN, %lld unwritten, %lld out of tolerance, first at index %lld",
		       (long long)json_integer_value(json_object_get(s, "seed")),
		       json_number_value(json_object_get(s, "max_abs_err")),
		       json_number_value(json_object_get(s, "rel_l2")), nan, unw, mism,
		       (long long)json_integer_value(json_object_get(s, "first_mismatch")));
}

void outcome_classify(const struct outcome_input *in, char **outcome, char **reason)
{
	const struct run_result *r = in->run;
	if (in->failure) {
		const char *o = json_string_value(json_object_get(in->failure, "outcome"));
		const char *e = json_string_value(json_object_get(in->failure, "error"));
		const char *why = json_string_value(json_object_get(in->failure, "reason"));
		set(outcome, reason, o ? o : "crashed",
		    xstrfmt("%s%s%s", e ? e : "", e && why ? ": " : "", why ? why : ""));
		return;
	}
	if (r->timed_out) {
		set(outcome, reason, "timeout", xstrfmt("no result within %.1f s; the worker was killed", r->seconds));
		return;
	}
	if (r->signaled) {
		set(outcome, reason, in->interrupted ? "aborted" : "crashed",
		    xstrfmt("worker killed by %s", signal_name(r->signo)));
		return;
	}
	if (!r->exited || r->exit_code != 0) {
		set(outcome, reason, "crashed", xstrfmt("worker exited with status %d", r->exit_code));
		return;
	}
	size_t n = json_array_size(in->seeds), pass = 0, nan = 0, unw = 0;
	json_t *first_bad = NULL, *s;
	size_t i;
	json_array_foreach(in->seeds, i, s)
	{
		if (json_is_true(json_object_get(s, "pass"))) {
			pass++;
			continue;
		}
		if (!first_bad)
			first_bad = s;
		nan += json_integer_value(json_object_get(s, "nan_count")) > 0;
		unw += json_integer_value(json_object_get(s, "unwritten")) > 0;
	}
	if (!n || !in->done) {
		set(outcome, reason, "crashed", xstrdup(n ? "the worker stopped before it finished"
							  : "the worker reported no correctness result"));
		return;
	}
	json_t *bad_recheck = NULL;
	json_array_foreach(in->rechecks, i, s) if (!json_is_true(json_object_get(s, "pass")) && !bad_recheck)
		bad_recheck = s;
	if (pass == n && !bad_recheck) {
		set(outcome, reason, "ok", NULL);
		return;
	}
	if (pass == n) {
		char *sr = seed_reason(bad_recheck);
		set(outcome, reason, "flaky", xstrfmt("all %zu seeds passed, but the re-check after timing failed: %s", n, sr));
		free(sr);
		return;
	}
	char *sr = seed_reason(first_bad);
	if (pass > 0)
		set(outcome, reason, "flaky", xstrfmt("%zu of %zu seeds passed; %s", pass, n, sr));
	else if (nan)
		set(outcome, reason, "nan", sr), sr = NULL;
	else if (unw)
		set(outcome, reason, "unwritten_output", sr), sr = NULL;
	else
		set(outcome, reason, "wrong_output", sr), sr = NULL;
	free(sr);
}
