/*
 * audit_validated.c - the `validated` claim: every run of the claim's
 * kernel code in the store, under any name, experiment, parameters, flags
 * or headers, on the same problem, dtype and device, reproductions
 * included; any failing run contradicts it but a configuration that
 * refused itself before any output (audit_config_refused), and a run the
 * problem's own tolerance fails leaves it unsupported where a spec
 * loosened the tolerance.  The rules common to every claim (findings,
 * evidence, stale code) are audit_claim.c's.
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

/* The runs a `validated` claim reads, newest first: every run of the
 * variant, or those a run= pin names (a run of it, or its row's runs in a
 * pinned batch).  *out is the caller's to free. */
static size_t validated_runs(struct actx *a, const char *e, const char *v, const char *pin,
			     const struct run_record ***out, struct strbuf *why)
{
	if (!pin || !strcmp(pin, "latest"))
		return query_variant_runs(a->q, e, v, out);
	*out = xcalloc(2, sizeof(**out));
	struct strbuf amb = STRBUF_INIT;
	long i = query_find(a->q, pin, &amb);
	if (i == -2)
		strbuf_addf(why, "run id '%s' is ambiguous (%s)", pin, amb.buf);
	strbuf_release(&amb);
	if (i < 0)
		return 0;
	const struct run_record *r = query_run_at(a->q, (size_t)i);
	if (r) {
		if (r->variant && !strcmp(r->variant, v))
			(*out)[0] = r;
		return (*out)[0] != NULL;
	}
	const struct batch_record *b = query_batch_at(a->q, (size_t)i);
	const struct batch_row *row = b ? batch_find_row(b, v) : NULL;
	if (!row)
		return 0;
	free(*out);
	size_t n = query_row_runs(a->q, row, out);
	for (size_t k = 0; k < n / 2; k++) { /* newest first */
		const struct run_record *t = (*out)[k];
		(*out)[k] = (*out)[n - 1 - k];
		(*out)[n - 1 - k] = t;
	}
	return n;
}

/*
 * Whether r was checked under a spec tolerance looser than the problem's
 * own (red team 13's const_out: 1/C everywhere passed at rel_l2 1 against
 * the problem's 1e-5; red team 14's tol9_deg3: a degree-3 exp at 9.9x) and
 * its checks' recorded errors do not show that it passes the problem's
 * rule too: a check whose rel L2 is above the problem's, or whose largest
 * error is above what the problem allows every element (atol x the
 * reference's scale).  Then `validated` means only the spec's rule; what,
 * into why.  Records from before the problem's rule was recorded give 0,
 * as a rule the problem left unstated (NAN) does; an exact rule (0) counts.
 */
static int tolerance_loosened(const struct run_record *r, struct strbuf *why)
{
	const double spec[3] = { r->atol, r->rtol, r->rel_l2 };
	const double own[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
	int loose = 0;
	for (int i = 0; i < 3; i++)
		loose |= own[i] >= 0 && spec[i] > own[i] * (1 + 1e-9); /* 0: an exact rule (NAN: none stated) */
	if (!loose)
		return 0;
	for (size_t k = 0; k < r->n_checks; k++) {
		const struct rec_check *c = &r->checks[k];
		if (!c->pass)
			continue;
		/* an element within atol x scale passes the problem's element
		 * rule whatever its reference; above that the record cannot say
		 * (it keeps no count against the problem's rule), so it is not
		 * shown to pass: (atol + rtol) x scale let red team 15's
		 * tol_small through, 100% off on elements far below scale */
		double own_c[3]; /* at the extra shape, the problem's rule there (red team 289) */
		record_check_rule(r, c, own, own_c);
		double allowed = own_c[0] * c->ref_scale;
		if ((isfinite(c->rel_l2) && c->rel_l2 > own_c[2]) ||
		    (isfinite(c->max_abs_err) && isfinite(allowed) && c->max_abs_err > allowed)) {
			strbuf_addf(why,
				    "the spec's atol %g, rtol %g, rel_l2 %g against the problem's %g, %g, %g; a %s check "
				    "at rel L2 %.3g, largest error %.3g, fails the problem's",
				    r->atol, r->rtol, r->rel_l2, r->problem_atol, r->problem_rtol, r->problem_rel_l2,
				    c->phase ? c->phase : "", c->rel_l2, c->max_abs_err);
			return 1;
		}
	}
	return 0;
}


/* The same problem and dtype, whatever build of its plug-in: a run of
 * another build is gathered, and counts only where it failed and that
 * build judges as the claim's does (code_other_build_counts; red team
 * 231's probswap: one unused constant appended to problems/rowsum.c
 * made another plug-in hash, and `validated` was supported on runs of
 * the new build beside the old build's wrong_output, 3 of 3). */
static int same_kind_any_build(const struct rec_problem *x, const struct rec_problem *y)
{
	struct rec_problem a = *x, b = *y;
	/* (and whatever fingerprint: red team 237's FLOP count 5 -> 4, a
	 * new fixed-shape fingerprint, left the old build's failure out) */
	a.plugin_sha256 = b.plugin_sha256 = NULL;
	a.judge_sha256 = b.judge_sha256 = NULL;
	return audit_same_kind(&a, &b);
}

/* Was r judged by another build of the problem than the claim's run c
 * (both recorded a plug-in hash, and they differ)? */
static int other_build(const struct run_record *r, const struct run_record *c)
{
	return r->problem.plugin_sha256 && c->problem.plugin_sha256 &&
	       strcmp(r->problem.plugin_sha256, c->problem.plugin_sha256);
}

/* Runs x and y (identities ix, iy) ran the same program for the same
 * problem and dtype (any shape, any build: same_kind_any_build) on the
 * same device: a claim's runs say on which devices it holds, as reruns
 * are of one device. */
static int same_code_run(const struct code_id *ix, const struct run_record *x, const struct code_id *iy,
			 const struct run_record *y)
{
	return code_same_program(ix, iy) && !strcmp(ix->dev, iy->dev) && same_kind_any_build(&x->problem, &y->problem);
}

/* Is r one of v[0..n)? */
static int run_among(const struct run_record *r, const struct run_record *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == r)
			return 1;
	return 0;
}

/* Runs x and y (identities ix, iy) ran the same kernel file (its content:
 * the family), for the same problem and dtype on the same device, at any
 * parameters, flags or headers.  A record with no source has no family. */
static int same_family_run(const struct code_id *ix, const struct run_record *x, const struct code_id *iy,
			   const struct run_record *y)
{
	return x->n_sources && y->n_sources && !strcmp(ix->family, iy->family) && !strcmp(ix->dev, iy->dev) &&
	       same_kind_any_build(&x->problem, &y->problem);
}

/*
 * Every run of the kernel file a `validated` claim names, newest first:
 * the claim's runs ev[0..n_ev) (its variant's, or its pin's) say which
 * file, and the evidence is every run in the store, under any variant
 * name, of any experiment or batch (reproductions included: `evident
 * reproduce` rebuilt and ran the same code, and red team 44's
 * reproduction that failed s1 and s7 left `validated s1` supported while
 * it was left out), for the same problem and dtype at any shape on the
 * same device, that ran one of their programs (same_code_run: the same
 * sources' contents, command line and parameters, or the same host
 * object) or their kernel file at any other configuration
 * (same_family_run: other parameters, flags or headers; (*other)[i] set),
 * with ev itself (a record without a binary hash is matched by name
 * alone).  Red team 42: coin_wrong, wrong in about half its processes,
 * was validated by pinning its one clean run, or by naming the one of
 * eight same-code variants whose run drew clean; red team 44: a parameter
 * the kernel only echoes (EV_PARAM(SALT)) made each SALT another code, 8
 * clean slates for one file.  A claim on a kernel is answered by every run
 * of its file.  *out and *other are the caller's to free.
 */
size_t audit_runs_of_code(struct actx *a, const struct run_record *const *ev, size_t n_ev,
			   const struct run_record ***out, unsigned char **other)
{
	/* the claim's own programs, one per code built (red team 87's
	 * famre: deduplicated by the load-aware same_code_run, a run of
	 * fam.c was dropped as "the same" as its comment-only copy's, and
	 * with it fam.c's family and code hash) */
	struct code_id *ids = xcalloc(n_ev + 1, sizeof(*ids));
	const struct run_record **of = xcalloc(n_ev + 1, sizeof(*of)); /* the run each code came from */
	size_t n_id = 0;
	for (size_t i = 0; i < n_ev; i++) {
		struct code_id id;
		if (!code_identity_run(ev[i], ev[i]->params, ev[i]->n_params, &id))
			continue;
		size_t j = 0;
		while (j < n_id && !(code_same_built(&ids[j], &id) && !strcmp(ids[j].dev, id.dev) &&
				     audit_same_kind(&of[j]->problem, &ev[i]->problem)))
			j++;
		if (j == n_id) {
			ids[n_id] = id;
			of[n_id++] = ev[i];
		}
	}
	const struct run_record **all = NULL;
	size_t n_all = n_id ? query_all_runs(a->q, &all) : 0;
	/*
	 * The kernel files: the claim's, and every file one of whose runs is
	 * the same program as a run already in (red team 87's fam: a
	 * comment-only copy run at TILE=64 only is load-equal to fam.c at
	 * 64, and fam.c failed at TILE=32; the copy's claim is answered by
	 * fam.c's configurations too).  A closure over the store: anchors
	 * are runs in, one per kernel file or loaded image new to the set;
	 * merging here only adds runs that can fail the claim.
	 */
	size_t n_anc = n_id, cap_anc = n_id + 8;
	struct code_id *anc = xcalloc(cap_anc, sizeof(*anc));
	const struct run_record **anc_of = xcalloc(cap_anc, sizeof(*anc_of));
	for (size_t j = 0; j < n_id; j++) {
		anc[j] = ids[j];
		anc_of[j] = of[j];
	}
	struct code_id *rid = xcalloc(n_all + 1, sizeof(*rid));
	unsigned char *has = xcalloc(n_all + 1, 1), *joined = xcalloc(n_all + 1, 1);
	for (size_t k = 0; k < n_all; k++)
		has[k] = code_identity_run(all[k], all[k]->params, all[k]->n_params, &rid[k]);
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t k = 0; k < n_all; k++) {
			if (joined[k] || !has[k])
				continue;
			const struct run_record *r = all[k];
			const struct code_id *id = &rid[k];
			int link = 0;
			for (size_t j = 0; j < n_anc && !link; j++)
				link = same_code_run(&anc[j], anc_of[j], id, r) || same_family_run(&anc[j], anc_of[j], id, r);
			if (!link)
				continue;
			joined[k] = 1;
			changed = 1;
			int new_fam = 1, new_load = id->load != NULL;
			for (size_t j = 0; j < n_anc; j++) {
				if (!strcmp(anc[j].family, id->family))
					new_fam = 0;
				if (id->load && anc[j].load && !strcmp(anc[j].load, id->load))
					new_load = 0;
			}
			if (!new_fam && !new_load)
				continue;
			if (n_anc == cap_anc) {
				cap_anc *= 2;
				anc = xrealloc(anc, cap_anc * sizeof(*anc));
				anc_of = xrealloc(anc_of, cap_anc * sizeof(*anc_of));
			}
			anc[n_anc] = *id;
			anc_of[n_anc++] = r;
		}
	}
	*out = xcalloc(n_all + n_ev + 1, sizeof(**out));
	*other = xcalloc(n_all + n_ev + 1, 1);
	size_t n = 0;
	for (size_t k = 0; k < n_all; k++) {
		const struct run_record *r = all[k];
		int in = run_among(r, ev, n_ev);
		for (size_t j = 0; j < n_id && !in && has[k]; j++)
			in = same_code_run(&ids[j], of[j], &rid[k], r);
		if (in || joined[k]) {
			(*other)[n] = !in;
			(*out)[n++] = r;
		}
	}
	/* a named run the walk did not match (a record without a binary hash) */
	for (size_t i = 0; i < n_ev; i++)
		if (!run_among(ev[i], *out, n))
			(*out)[n++] = ev[i];
	free(all);
	free(ids);
	free(of);
	free(anc);
	free(anc_of);
	free(rid);
	free(has);
	free(joined);
	return n;
}

/*
 * An outcome by which a configuration refuses itself rather than fails:
 * the compiler rejected it (a tile over the shared memory limit), the
 * kernel's init refused the shape, or the launch was refused (too many
 * resources).  A sweep of a kernel file legitimately holds such
 * configurations; they produced no output, so they say nothing about the
 * file's correctness, and a run at another configuration that ended so
 * does not contradict `validated`.  Every other failure (wrong_output,
 * nan, unwritten_output, flaky, crashed, timeout, protocol_violation,
 * escaped_work, ...) is the file's, at any configuration.  At the claim's
 * own configuration any failure counts: that code was claimed.
 */
int audit_config_refused(enum outcome o)
{
	return o == OUTCOME_BUILD_FAILED || o == OUTCOME_INIT_FAILED || o == OUTCOME_LAUNCH_FAILED;
}

/*
 * params=NAME=V[,NAME=V...] of a `validated` claim: does run r hold every
 * listed parameter at the listed value?  (An unlisted parameter may have
 * any value.)  NULL list: every run matches.
 */
static int params_match(const char *list, const struct run_record *r)
{
	if (!list)
		return 1;
	const char *p = list;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (!eq)
			return 0;
		size_t nl = (size_t)(eq - p), vl = len - nl - 1;
		int found = 0;
		for (size_t i = 0; i < r->n_params && !found; i++)
			found = strlen(r->params[i].name) == nl && !strncmp(r->params[i].name, p, nl) &&
				strlen(r->params[i].value) == vl && !strncmp(r->params[i].value, eq + 1, vl);
		if (!found)
			return 0;
		p += len + (end != NULL);
	}
	return 1;
}

/* params= is "NAME=V[,NAME=V...]", each NAME and V non-empty. */
static int params_wellformed(const char *list)
{
	const char *p = list;
	if (!*p)
		return 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (!eq || eq == p || (size_t)(eq - p) + 1 == len)
			return 0;
		p += len + (end != NULL);
		if (end && !*p)
			return 0;
	}
	return 1;
}

/* Add code to the set (*v, *n) of configurations unless it is there;
 * the strings are the caller's to free with *v. */
static void count_config(char ***v, size_t *n, const char *code)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], code))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(code);
}

/* The parameters of r as "A=1,B=2" into sb ("no parameters" when none). */
static void add_params(struct strbuf *sb, const struct run_record *r)
{
	for (size_t i = 0; i < r->n_params; i++)
		strbuf_addf(sb, "%s%s=%s", i ? "," : "", r->params[i].name, r->params[i].value);
	if (!r->n_params)
		strbuf_addstr(sb, "no parameters");
}

/*
 * With a pin, the runs of the claim's variant that recorded the same
 * sources as a pinned one join it: a pin says which code, never which of
 * its runs (red team 42).  runs (nr of them, newest first) is replaced;
 * returns the new count.
 */
static size_t widen_pin(struct actx *a, const char *e, const char *v, const struct run_record ***runs, size_t nr)
{
	const struct run_record **named;
	size_t nn = query_variant_runs(a->q, e, v, &named);
	const struct run_record **w = xcalloc(nr + nn + 1, sizeof(*w));
	size_t n = 0;
	for (size_t k = 0; k < nn; k++) {
		int same = run_among(named[k], *runs, nr);
		for (size_t i = 0; i < nr && !same; i++)
			same = query_runs_same_code(named[k], (*runs)[i]);
		if (same)
			w[n++] = named[k];
	}
	for (size_t i = 0; i < nr; i++)
		if (!run_among((*runs)[i], w, n))
			w[n++] = (*runs)[i];
	free(named);
	free(*runs);
	*runs = w;
	return n;
}

void audit_claim_validated(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", "params", NULL };
	static const char *const req[] = { "experiment", "variant", NULL };
	if (audit_keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *v = md_attr(m, "variant"), *pin = md_attr(m, "run");
	const char *plist = md_attr(m, "params");
	if (plist && !params_wellformed(plist)) {
		audit_finding(a, m->line, "error",
			"claim 'validated': params='%s' is not NAME=VALUE[,NAME=VALUE...] (docs/paper.md)", plist);
		return;
	}
	const struct run_record **runs = NULL;
	unsigned char *other_cfg = NULL;
	char **cfg_out = NULL, **cfg_out_bad = NULL; /* configurations params= left out, and those that failed */
	size_t n_cfg_out = 0, n_cfg_out_bad = 0, n_out = 0, n_refused = 0, n_cfg = 0;
	struct strbuf why = STRBUF_INIT, fails = STRBUF_INIT, ran = STRBUF_INIT, head = STRBUF_INIT,
		      detail = STRBUF_INIT, aside_why = STRBUF_INIT;
	size_t nr = validated_runs(a, e, v, pin, &runs, &why);
	strbuf_addf(&head, "validated %s/%s", e, v);
	if (!nr) {
		if (why.len)
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		else
			audit_finding(a, m->line, "unsupported", "%s: no recorded run%s", head.buf,
				pin && strcmp(pin, "latest") ? " with that run id" : "");
		goto out;
	}
	if (pin && strcmp(pin, "latest"))
		nr = widen_pin(a, e, v, &runs, nr);
	/* evidence: the runs of the current code, else those of the newest recorded code */
	int stale = 1;
	for (size_t i = 0; i < nr; i++) {
		struct strbuf w = STRBUF_INIT;
		if (query_sources_current(a->q, runs[i], &w))
			stale = 0;
		else if (!i)
			strbuf_addstr(&why, strbuf_str(&w));
		strbuf_release(&w);
	}
	const struct run_record *newest = runs[0], *pass = NULL, *loose_run = NULL;
	size_t n_ev = 0, n_fail = 0, n_loose = 0, n_named = 0, n_other = 0, n_aside = 0, n_weak = 0;
	const struct run_record *aside_run = NULL;
	struct strbuf loose = STRBUF_INIT;
	const struct run_record **named = xcalloc(nr + 1, sizeof(*named));
	for (size_t i = 0; i < nr; i++) {
		struct strbuf w = STRBUF_INIT;
		if (stale ? query_runs_same_code(runs[i], newest) : query_sources_current(a->q, runs[i], &w))
			named[n_named++] = runs[i];
		strbuf_release(&w);
	}
	/* params= narrows the claim to a configuration its own runs ran */
	for (size_t i = 0; plist && i < n_named; i++)
		if (!params_match(plist, named[i])) {
			struct strbuf at = STRBUF_INIT;
			add_params(&at, named[i]);
			audit_finding(a, m->line, "error",
				"claim 'validated': params=%s, but run %s of %s/%s ran at %s; name the parameters it ran "
				"at (docs/paper.md)", plist, audit_id_or(named[i]->run_id), e, v, at.buf);
			strbuf_release(&at);
			free(named);
			strbuf_release(&loose);
			goto out;
		}
	/* the claim's runs say which kernel file; every run of it is the evidence */
	free(runs);
	nr = audit_runs_of_code(a, named, n_named, &runs, &other_cfg);
	for (size_t i = 0; i < nr; i++) {
		const struct run_record *r = runs[i];
		/* interrupted, or no GPU: nothing was judged.  Not a host
		 * run's no_device: a host has no device to miss, and that
		 * outcome was the kernel's own message before the runner
		 * refused it (red team 44's coin_nodev: a record of then
		 * reads as the failure it hid) */
		if (r->outcome == OUTCOME_ABORTED ||
		    (r->outcome == OUTCOME_NO_DEVICE && !(r->backend && !strcmp(r->backend, "host"))))
			continue;
		/* judged by another build of the problem: only a failure
		 * that build's judge makes as the claim's would counts
		 * (code_other_build_counts); its passes say nothing here */
		if (n_named && other_build(r, named[0])) {
			struct strbuf xok = STRBUF_INIT, xbad = STRBUF_INIT;
			int passed = audit_config_refused(r->outcome) || audit_run_checks_passed(r, &xok, &xbad);
			strbuf_release(&xok);
			strbuf_release(&xbad);
			if (passed || !code_other_build_counts(a->q, r, &named[0]->problem))
				continue;
		}
		/* written by a runner commit the errata name as defective
		 * (its runner's build, code.runner, wherever it was started:
		 * red team 279 row 1b): said below */
		long ei = audit_errata_find_run(a->o->errata, r);
		if (ei >= 0) {
			if (!n_aside++) {
				const struct audit_errata *er = a->o->errata;
				aside_run = r;
				strbuf_addf(&aside_why, "runner commit %.8s, fixed in %.8s: %s", er->commit[ei],
					    er->fixed[ei], er->why[ei]);
			}
			continue;
		}
		/* boxed by a bubblewrap its runner could not verify
		 * (EVIDENT_BWRAP_UNVERIFIED=1): red team 133's stand-ins ran
		 * another object than the record names, or handed the box the
		 * host's / */
		/* (or not boxed at all) -- set aside where it passed, counted
		 * where it failed: a failure needs no judge's word (red team
		 * 138's weakvalidated: an unboxed batch's wrong_output left
		 * validated supported beside it) */
		/* (or asked for fewer than 10 timed checks: red team 138's
		 * zerochecks, validated on "1 seed, 3 timed launches") */
		if (query_run_weak_judge_why(r)) {
			struct strbuf wok = STRBUF_INIT, wbad = STRBUF_INIT;
			int passed = audit_config_refused(r->outcome) || audit_run_checks_passed(r, &wok, &wbad);
			strbuf_release(&wok);
			strbuf_release(&wbad);
			if (passed) {
				n_weak++;
				continue;
			}
		}
		/* another name's (or experiment's) run of the code; a run of
		 * the claim's own name that the claim's runs did not list is a
		 * reproduction's (query_variant_runs leaves those out) */
		/* the file at another configuration: outside a params= claim,
		 * counted only; a configuration that refused itself is no
		 * failure of the file (audit_config_refused) */
		if (other_cfg[i] && (!params_match(plist, r) || audit_config_refused(r->outcome))) {
			struct code_id cid;
			struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
			int failed = !audit_config_refused(r->outcome) && !audit_run_checks_passed(r, &ok, &bad);
			strbuf_release(&ok);
			strbuf_release(&bad);
			int outside = !params_match(plist, r);
			n_out += outside;
			n_refused += !outside;
			if (outside && code_identity_run(r, r->params, r->n_params, &cid)) {
				count_config(&cfg_out, &n_cfg_out, cid.code);
				if (failed)
					count_config(&cfg_out_bad, &n_cfg_out_bad, cid.code);
			}
			continue;
		}
		n_cfg += other_cfg[i];
		int other = !run_among(r, named, n_named) &&
			    !(str_same(r->experiment, e) && str_same(r->variant, v));
		const struct batch_record *rb = run_among(r, named, n_named) ? NULL : query_batch_of(a->q, r);
		int repro = rb && rb->repro.have;
		n_other += other && !other_cfg[i];
		n_ev++;
		struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
		if (audit_run_checks_passed(r, &ok, &bad)) {
			if (!pass) {
				pass = r;
				strbuf_addstr(&ran, strbuf_str(&ok));
			}
			/* the problem's own rule of every run the claim rests
			 * on, not of the newest only (red team 41's tol_coin: 15
			 * of 24 runs above the problem's rel L2, supported when
			 * the newest was clean); the newest such run is named */
			struct strbuf lw = STRBUF_INIT;
			if (tolerance_loosened(r, &lw) && !n_loose++) {
				loose_run = r;
				strbuf_addstr(&loose, strbuf_str(&lw));
			}
			strbuf_release(&lw);
		} else if (n_fail++ < 3) {
			strbuf_addf(&fails, "%srun %s", n_fail > 1 ? "; " : "", audit_id_or(r->run_id));
			if (other_cfg[i]) {
				strbuf_addf(&fails, " (%s/%s: the kernel file at ", audit_name_or(r->experiment),
					    audit_name_or(r->variant));
				add_params(&fails, r);
				strbuf_addch(&fails, ')');
			} else if (other) {
				strbuf_addf(&fails, " (the same code as %s/%s)", audit_name_or(r->experiment),
					    audit_name_or(r->variant));
			}
			if (repro)
				strbuf_addf(&fails, " (in reproduction %s)", audit_id_or(rb->run_id));
			if (n_named && other_build(r, named[0]))
				strbuf_addf(&fails, " (judged by another build of the problem: plug-in %.12s, the claim's %.12s)",
					    r->problem.plugin_sha256 ? r->problem.plugin_sha256 : "?",
					    named[0]->problem.plugin_sha256 ? named[0]->problem.plugin_sha256 : "?");
			strbuf_addf(&fails, ": %s", strbuf_str(&bad));
		}
		strbuf_release(&ok);
		strbuf_release(&bad);
	}
	free(named);
	if (!n_ev) { /* every run set aside (or none judged): nothing says it passed */
		audit_finding(a, m->line, "unsupported", "%s: no run of its code was judged%s%s%s%s", head.buf,
			      n_aside ? " (every one set aside by the errata: " : "", n_aside ? aside_why.buf : "",
			      n_aside ? ")" : "",
			      n_weak ? "; runs a weaker judge than the default judged are not counted (boxed by a "
					     "bubblewrap the runner could not verify, EVIDENT_BWRAP_UNVERIFIED=1: "
					     "judge.sandbox.binary_verified; not boxed, --unsandboxed: judge.sandbox.tool "
					     "none; fewer than 10 timed checks a run: judge.timed_checks.wanted)"
					   : "");
		goto out;
	}
	const char *code = stale ? "the last recorded code" : "the current source";
	if (!n_fail && n_loose) {
		audit_finding(a, m->line, "unsupported",
			      "%s: checked under a spec tolerance looser than the problem's, and %zu of %zu run(s) of %s "
			      "would have failed by the problem's own rule (%s, run %s)",
			      head.buf, n_loose, n_ev, code, loose.buf, audit_id_or(loose_run->run_id));
		strbuf_release(&loose);
		goto out;
	}
	strbuf_release(&loose);
	if (n_fail)
		strbuf_addf(&detail, "%zu of %zu run(s) of %s failed a check: %s%s", n_fail, n_ev, code, fails.buf,
			    n_fail > 3 ? "; ..." : "");
	else
		strbuf_addf(&detail, "%zu run(s) of %s passed every check that ran: %s (latest %s)", n_ev, code, ran.buf,
			    audit_id_or(pass ? pass->run_id : NULL));
	if (n_other)
		strbuf_addf(&detail, "; %zu of the runs are the same code under another name or experiment", n_other);
	if (n_cfg)
		strbuf_addf(&detail, "; %zu of the runs are its kernel file at other parameters, flags or headers%s", n_cfg,
			    n_fail ? " (params=NAME=VALUE claims one configuration)" : "");
	if (plist && n_cfg_out)
		strbuf_addf(&detail, "; params=%s: %zu run(s) of the kernel file in %zu other configuration(s) left out, "
			    "%zu of those configurations failed", plist, n_out, n_cfg_out, n_cfg_out_bad);
	if (n_refused)
		strbuf_addf(&detail, "; %zu run(s) at other configurations refused them (build_failed, init_failed or "
			    "launch_failed: no output, nothing judged)", n_refused);
	if (n_weak)
		strbuf_addf(&detail, "; %zu run(s) of the code not counted: judged by a weaker judge than the default "
			    "(boxed by a bubblewrap the runner could not verify, EVIDENT_BWRAP_UNVERIFIED=1; not boxed, "
			    "--unsandboxed; or fewer than 10 timed checks a run)", n_weak);
	if (n_aside)
		strbuf_addf(&detail, "; %zu run(s) of the code set aside by %s (run %s, %s)", n_aside,
			    a->o->errata_path ? a->o->errata_path : "the errata", audit_id_or(aside_run->run_id),
			    aside_why.buf);
	char *last = xstrfmt("run %s", audit_id_or(newest->run_id));
	audit_conclude(a, m, !n_fail, stale, head.buf, detail.buf, strbuf_str(&why), last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&fails);
	strbuf_release(&ran);
	strbuf_release(&head);
	strbuf_release(&detail);
	strbuf_release(&aside_why);
	free(runs);
	free(other_cfg);
	for (size_t i = 0; i < n_cfg_out; i++)
		free(cfg_out[i]);
	for (size_t i = 0; i < n_cfg_out_bad; i++)
		free(cfg_out_bad[i]);
	free(cfg_out);
	free(cfg_out_bad);
}

