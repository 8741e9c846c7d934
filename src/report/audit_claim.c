/*
 * audit_claim.c - the claim rules: for each claim kind (audit.h), find its
 * evidence in the store and conclude supported, contradicted, stale or
 * unsupported; and the findings every part of the audit reports.
 *
 * Evidence rules, the same for every claim kind.  Unless run=RUN_ID pins
 * it, a claim's evidence is the newest batch (for `validated`, every run
 * of the variant) whose recorded sources are the code in the working tree;
 * when no run of the current code exists, it is the newest recorded batch
 * (runs) all the same, marked stale.  Then:
 *   unsupported   no recorded run could back the claim at all;
 *   contradicted  the evidence says otherwise (the variant crashed or
 *                 failed a check, the verdict, value or setting differs, it
 *                 ran on another device) - said even when the evidence is
 *                 stale, with "also stale" and what changed;
 *   stale         the evidence agrees, but it ran code that has changed
 *                 since (a hash of its kernel's code.sources[] or its
 *                 problem's problem.sources[] differs: query.h);
 *   supported     the evidence agrees and ran the current code.
 * For `validated`, the claim's runs only say which code: the evidence is
 * every run of that code in the store, under any name (runs_of_code; red
 * team 42), and any failing run of it contradicts, even if a later one
 * passed: an intermittent crash is exactly what must not be called
 * validated; and where the spec loosened the problem's tolerance, any run
 * of the evidence the problem's own rule fails leaves the claim
 * unsupported (red team 41: not the newest run only).  A verdict claim
 * is weighed against every pair of rows of the same two codes, its own
 * batch's and reproductions' included (across_batches, reruns_in); a pair
 * where that code did not run cleanly (a flaky or failed row, a
 * configuration's refusal aside) is a rerun that does not give the
 * verdict (red team 45); it stands only when more than half of the
 * deciding reruns give it (exactly half: unsupported).
 *
 * A stated tolerance is bounded (AUDIT_TOL_CAP_PCT): a wider one is a
 * malformed claim, never a pass.  Values are record_stat's, the same
 * numbers paper, show and export print.
 */
#include <gsl/gsl_cdf.h>
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

/* ---------- findings ---------- */

void audit_finding(struct actx *a, int line, const char *kind, const char *fmt, ...)
{
	if (!strcmp(kind, "supported"))
		a->c->supported++;
	else if (!strcmp(kind, "contradicted"))
		a->c->contradicted++;
	else if (!strcmp(kind, "stale"))
		a->c->stale++;
	else if (!strcmp(kind, "unsupported"))
		a->c->unsupported++;
	else if (!strcmp(kind, "untraced"))
		a->c->untraced++;
	else {
		a->c->errors++;
		if (a->malformed)
			a->malformed[a->cur] = 1;
	}
	if (!strcmp(kind, "supported") && !a->o->show_supported)
		return;
	va_list ap;
	strbuf_addf(a->out, "%s:%d: %s: ", a->file, line, kind);
	va_start(ap, fmt);
	strbuf_vaddf(a->out, fmt, ap);
	va_end(ap);
	strbuf_addch(a->out, '\n');
}

/*
 * The one finding of a claim: contradicted when the evidence disagrees
 * (adding "also stale" when it ran code that changed since), else stale,
 * else supported.  head names the claim, detail says what the evidence
 * showed, stale_why what changed, last the newest evidence.
 */
static void conclude(struct actx *a, const struct md_marker *m, int agrees, int stale, const char *head,
		     const char *detail, const char *stale_why, const char *last)
{
	if (!agrees && stale)
		audit_finding(a, m->line, "contradicted", "%s: %s; also stale: %s; rerun the experiment", head, detail,
			stale_why);
	else if (!agrees)
		audit_finding(a, m->line, "contradicted", "%s: %s", head, detail);
	else if (stale)
		audit_finding(a, m->line, "stale", "%s: %s; rerun the experiment (last %s; the old runs agreed: %s)", head,
			stale_why, last, detail);
	else
		audit_finding(a, m->line, "supported", "%s: %s", head, detail);
}

/*
 * The batches a claim may read (claim_batches): the pinned one, or those
 * of the experiment with rows for the claim's names, newest first, read
 * one at a time from the index as evidence_batch walks them (at 10^5
 * records, reading every batch of an experiment cost seconds per claim).
 */
struct blist {
	const char *e;
	const char *const *names;
	const struct batch_record *pinned;   /* run=ID */
	const struct batch_record *first;    /* the newest (or the pinned one) */
	size_t pos;                          /* query_next_batch's cursor */
};

/*
 * The evidence batch of bl: the newest whose rows (names, or all when
 * NULL) ran the current code; when none did, the newest, with *stale = 1
 * and why saying what changed.
 */
static const struct batch_record *evidence_batch(struct actx *a, struct blist *bl, const char *const *names,
						 int *stale, struct strbuf *why)
{
	*stale = 0;
	const struct batch_record *b = bl->first;
	for (size_t i = 0; b; i++) {
		int cur = 1;
		struct strbuf w = STRBUF_INIT;
		for (size_t k = 0; k < b->n_rows && cur; k++) {
			const struct batch_row *row = &b->rows[k];
			int wanted = !names;
			for (size_t j = 0; names && names[j]; j++)
				wanted |= !strcmp(names[j], audit_name_or(row->variant));
			if (!wanted)
				continue;
			const struct run_record *run = query_row_run(a->q, row);
			if (!run) {
				strbuf_addf(&w, "run '%s' is missing from the store", audit_id_or(row->run_id));
				cur = 0;
			} else if (!query_sources_current(run, &w)) {
				cur = 0;
			}
		}
		if (!i && !cur)
			strbuf_addstr(why, strbuf_str(&w));
		strbuf_release(&w);
		if (cur)
			return b;
		b = bl->pinned ? NULL : query_next_batch(a->q, bl->e, bl->names, &bl->pos);
	}
	*stale = bl->first != NULL;
	return bl->first;
}

/* ---------- claims ---------- */

static int keys_ok(struct actx *a, const struct md_marker *m, const char *const *allowed,
		   const char *const *required)
{
	const char *bad = md_unknown_attr(m, allowed);
	if (bad) {
		audit_finding(a, m->line, "error", "claim '%s' takes no '%s'; see docs/paper.md", m->name, bad);
		return -1;
	}
	for (size_t i = 0; required[i]; i++)
		if (!md_attr(m, required[i]) || !*md_attr(m, required[i])) {
			audit_finding(a, m->line, "error", "claim '%s' needs %s=...; see docs/paper.md", m->name,
				required[i]);
			return -1;
		}
	return 0;
}

/*
 * A number a claim states (key=s) for a quantity of family fam whose bare
 * numbers are in units of bare_scale: the whole of s must be a number,
 * with a unit of that family or none.  Sets *base (in the family's base
 * unit) and *ulp_base.  Returns 0, or -1 with *err set (static text).
 */
int audit_stated_number(const char *s, enum fam fam, double bare_scale, double *base, double *ulp_base,
			 const char **err)
{
	struct num n;
	if (!audit_parse_num(s, &n) || n.len != strlen(s)) {
		*err = "is not a number (with an optional unit: 321us, 1.4x)";
		return -1;
	}
	if (n.u && n.u->fam != fam) {
		*err = audit_fam_names[fam];
		return -2;
	}
	double sc = n.u ? n.u->scale : bare_scale;
	*base = n.v * sc;
	*ulp_base = n.ulp * sc;
	return 0;
}

/* Reports a stated_number failure as a malformed claim. */
static void stated_error(struct actx *a, const struct md_marker *m, const char *key, int rc, const char *err)
{
	if (rc == -2)
		audit_finding(a, m->line, "error", "claim '%s': %s='%s' has a unit of another kind; it should be %s",
			m->name, key, md_attr(m, key), err);
	else
		audit_finding(a, m->line, "error", "claim '%s': %s='%s' %s", m->name, key, md_attr(m, key), err);
}

/*
 * tol= of a claim stating `stated` (base units): a percentage of the
 * recorded value, or an amount of the stated value's family.  Bounded:
 * more than AUDIT_TOL_CAP_PCT percent (of the stated value, for an amount)
 * is a malformed claim.  Returns 0 with *pct (a percentage, or -1) and
 * *amount (base units), or -1 after an error finding.
 */
static int claim_tol(struct actx *a, const struct md_marker *m, enum fam fam, double stated, double *pct,
		     double *amount)
{
	const char *tol = md_attr(m, "tol");
	struct num n;
	*pct = -1;
	*amount = 0;
	if (!audit_parse_num(tol, &n) || n.len != strlen(tol) || n.v <= 0 ||
	    (n.u && n.u->fam != F_PCT && n.u->fam != fam)) {
		audit_finding(a, m->line, "error",
			"claim '%s': tol='%s' is not a positive percentage (5%%) or amount of %s (docs/paper.md)", m->name,
			tol, audit_fam_names[fam]);
		return -1;
	}
	if (n.u && n.u->fam == F_PCT) {
		if (n.v > AUDIT_TOL_CAP_PCT) {
			audit_finding(a, m->line, "error",
				"claim '%s': tol=%s is wider than the %g%% a claim may allow; state the value the record holds, or drop tol to use its 95%% CI (docs/paper.md)",
				m->name, tol, AUDIT_TOL_CAP_PCT);
			return -1;
		}
		*pct = n.v;
		return 0;
	}
	*amount = n.v * (n.u ? n.u->scale : 1);
	if (*amount > AUDIT_TOL_CAP_PCT / 100 * fabs(stated)) {
		audit_finding(a, m->line, "error",
			"claim '%s': tol=%s is more than %g%% of the stated value; state the value the record holds, or drop tol to use its 95%% CI (docs/paper.md)",
			m->name, tol, AUDIT_TOL_CAP_PCT);
		return -1;
	}
	return 0;
}

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
 * into why.  Records from before the problem's rule was recorded give 0.
 */
static int tolerance_loosened(const struct run_record *r, struct strbuf *why)
{
	const double spec[3] = { r->atol, r->rtol, r->rel_l2 };
	const double own[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
	int loose = 0;
	for (int i = 0; i < 3; i++)
		loose |= own[i] > 0 && spec[i] > own[i] * (1 + 1e-9);
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
		double allowed = r->problem_atol * c->ref_scale;
		if ((isfinite(c->rel_l2) && c->rel_l2 > r->problem_rel_l2) ||
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

static int same_kind(const struct rec_problem *x, const struct rec_problem *y);

/* Runs x and y (identities ix, iy) ran the same program for the same
 * problem and dtype (any shape) on the same device: a claim's runs
 * say on which devices it holds, as reruns are of one device. */
static int same_code_run(const struct code_id *ix, const struct run_record *x, const struct code_id *iy,
			 const struct run_record *y)
{
	return code_same_program(ix, iy) && !strcmp(ix->dev, iy->dev) && same_kind(&x->problem, &y->problem);
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
	       same_kind(&x->problem, &y->problem);
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
static size_t runs_of_code(struct actx *a, const struct run_record *const *ev, size_t n_ev,
			   const struct run_record ***out, unsigned char **other)
{
	struct code_id *ids = xcalloc(n_ev + 1, sizeof(*ids));
	const struct run_record **of = xcalloc(n_ev + 1, sizeof(*of)); /* the run each code came from */
	size_t n_id = 0;
	for (size_t i = 0; i < n_ev; i++) {
		struct code_id id;
		if (!code_identity_run(ev[i], ev[i]->params, ev[i]->n_params, &id))
			continue;
		size_t j = 0;
		while (j < n_id && !same_code_run(&ids[j], of[j], &id, ev[i]))
			j++;
		if (j == n_id) {
			ids[n_id] = id;
			of[n_id++] = ev[i];
		}
	}
	const struct run_record **all = NULL;
	size_t n_all = n_id ? query_all_runs(a->q, &all) : 0;
	*out = xcalloc(n_all + n_ev + 1, sizeof(**out));
	*other = xcalloc(n_all + n_ev + 1, 1);
	size_t n = 0;
	for (size_t k = 0; k < n_all; k++) {
		const struct run_record *r = all[k];
		int in = run_among(r, ev, n_ev), fam = 0;
		struct code_id id;
		if (!in && code_identity_run(r, r->params, r->n_params, &id))
			for (size_t j = 0; j < n_id && !in; j++) {
				in = same_code_run(&ids[j], of[j], &id, r);
				fam |= same_family_run(&ids[j], of[j], &id, r);
			}
		if (in || fam) {
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
static int config_refused(enum outcome o)
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
	if (keys_ok(a, m, allowed, req) < 0)
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
		if (query_sources_current(runs[i], &w))
			stale = 0;
		else if (!i)
			strbuf_addstr(&why, strbuf_str(&w));
		strbuf_release(&w);
	}
	const struct run_record *newest = runs[0], *pass = NULL, *loose_run = NULL;
	size_t n_ev = 0, n_fail = 0, n_loose = 0, n_named = 0, n_other = 0, n_aside = 0;
	const struct run_record *aside_run = NULL;
	struct strbuf loose = STRBUF_INIT;
	const struct run_record **named = xcalloc(nr + 1, sizeof(*named));
	for (size_t i = 0; i < nr; i++) {
		struct strbuf w = STRBUF_INIT;
		if (stale ? query_runs_same_code(runs[i], newest) : query_sources_current(runs[i], &w))
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
	nr = runs_of_code(a, named, n_named, &runs, &other_cfg);
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
		/* written by a runner commit the errata name as defective:
		 * said below */
		long ei = audit_errata_find(a->o->errata, r->git.commit);
		if (ei >= 0) {
			if (!n_aside++) {
				const struct audit_errata *er = a->o->errata;
				aside_run = r;
				strbuf_addf(&aside_why, "runner commit %.8s, fixed in %.8s: %s", er->commit[ei],
					    er->fixed[ei], er->why[ei]);
			}
			continue;
		}
		/* another name's (or experiment's) run of the code; a run of
		 * the claim's own name that the claim's runs did not list is a
		 * reproduction's (query_variant_runs leaves those out) */
		/* the file at another configuration: outside a params= claim,
		 * counted only; a configuration that refused itself is no
		 * failure of the file (config_refused) */
		if (other_cfg[i] && (!params_match(plist, r) || config_refused(r->outcome))) {
			struct code_id cid;
			struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
			int failed = !config_refused(r->outcome) && !audit_run_checks_passed(r, &ok, &bad);
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
			strbuf_addf(&fails, ": %s", strbuf_str(&bad));
		}
		strbuf_release(&ok);
		strbuf_release(&bad);
	}
	free(named);
	if (!n_ev) { /* every run set aside (or none judged): nothing says it passed */
		audit_finding(a, m->line, "unsupported", "%s: no run of its code was judged%s%s%s", head.buf,
			      n_aside ? " (every one set aside by the errata: " : "", n_aside ? aside_why.buf : "",
			      n_aside ? ")" : "");
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
	if (n_aside)
		strbuf_addf(&detail, "; %zu run(s) of the code set aside by %s (run %s, %s)", n_aside,
			    a->o->errata_path ? a->o->errata_path : "the errata", audit_id_or(aside_run->run_id),
			    aside_why.buf);
	char *last = xstrfmt("run %s", audit_id_or(newest->run_id));
	conclude(a, m, !n_fail, stale, head.buf, detail.buf, strbuf_str(&why), last);
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

static const char *invert_verdict(const char *v)
{
	if (!v)
		return NULL;
	if (!strcmp(v, "faster"))
		return "slower";
	if (!strcmp(v, "slower"))
		return "faster";
	return v;
}

/* Start bl on the batches a claim may read (see struct blist); 0 with
 * why when there is none. */
static size_t claim_batches(struct actx *a, const char *e, const char *pin, const char *const *names,
			    struct blist *bl, struct strbuf *why)
{
	*bl = (struct blist){ e, names, NULL, NULL, a->q->n };
	if (pin && strcmp(pin, "latest"))
		bl->first = bl->pinned = query_batch(a->q, e, pin, names, why);
	else if (!(bl->first = query_next_batch(a->q, e, names, &bl->pos)))
		query_batch(a->q, e, "latest", names, why);
	return bl->first != NULL;
}

/* faster | slower | no-difference: variant a against variant b */
/*
 * Say on a comparison's line which side's GPU kernel ran `trust: host`
 * (its host code in the timing worker, judge.executor "in_process"),
 * as the batch's notes and PAPER.md's tables do: the claim may still be
 * supported, but the reader should know the judge could not seal it.
 */
static void add_trust_note(struct actx *a, struct strbuf *msg, const struct batch_row *row, const char *name)
{
	const struct run_record *r = query_row_run(a->q, row);
	if (!r || !r->backend || !strcmp(r->backend, "host") || !r->judge)
		return;
	const char *ex = json_string_value(json_object_get(r->judge, "executor"));
	if (ex && !strcmp(ex, "in_process"))
		strbuf_addf(msg, "; %s ran trust: host (its host code in the timing worker, not sealed)", name);
}

/*
 * The comparison of variant va (row ra) against vb (row rb) in batch b.
 * When one of them is b's baseline: as b recorded it (Holm-adjusted over
 * its sweep), inverted when the baseline is va.  Otherwise the samples
 * are compared here, as the batch compares a variant with its baseline,
 * by repeat (two levels: pooling the repeats' samples as independent
 * would call run-to-run drift a difference), with the batch's noise band
 * and alpha; and since such a pair is one of the m pairs of the batch's
 * variants that ended ok, any of which a writer could have picked, its p
 * is adjusted over all of them (Bonferroni) and the verdict drawn again
 * (red team 34: among 7 copies of one kernel, 1 of 30 ordered pairs came
 * out "faster 1.768x", unadjusted, from one batch).  Returns 1 with pc
 * filled (pc->used points into pc or into a row of b), 0 when the
 * samples cannot be compared.
 */
struct pair_cmp {
	const char *verdict;                  /* static or borrowed from b */
	double sp, ci[2];
	int inverted;                         /* the recorded comparison was of vb against va */
	const struct stats_comparison *used;  /* the comparison drawn on */
	const char *how;                      /* how the p was adjusted: static or how_buf */
	char how_buf[160];
	struct stats_comparison sc;           /* a comparison made here */
};

static int pair_compare_now(struct actx *a, const struct batch_record *b, const struct batch_row *ra,
			    const struct batch_row *rb, const char *va, const char *vb, struct pair_cmp *pc);

/* One comparison kept for the file's other claims: a pair's two-level
 * comparison is a bootstrap, and every claim on the same two kernels
 * weighs the same batches again (the audit of PAPER.md took 3.7 s). */
struct pair_memo {
	const struct batch_record *b;
	const struct batch_row *ra, *rb;
	int ok;
	struct pair_cmp pc;
};

/* pc's pointers into itself (used to its sc, how to its how_buf) are kept
 * as NULL in the memo, whose array moves as it grows, and made again on
 * the way out. */
static void pair_unpoint(struct pair_cmp *pc)
{
	if (pc->used == &pc->sc)
		pc->used = NULL;
	if (pc->how == pc->how_buf)
		pc->how = NULL;
}

static void pair_repoint(struct pair_cmp *pc)
{
	if (!pc->used)
		pc->used = &pc->sc;
	if (!pc->how)
		pc->how = pc->how_buf;
}

/* pair_compare_now, once per (batch, rows) in a file (a->pairs). */
static int pair_compare(struct actx *a, const struct batch_record *b, const struct batch_row *ra,
			const struct batch_row *rb, const char *va, const char *vb, struct pair_cmp *pc)
{
	struct pair_memo *m = a->pairs;
	for (size_t i = 0; i < a->n_pairs; i++)
		if (m[i].b == b && m[i].ra == ra && m[i].rb == rb) {
			*pc = m[i].pc;
			pair_repoint(pc);
			return m[i].ok;
		}
	int ok = pair_compare_now(a, b, ra, rb, va, vb, pc);
	a->pairs = m = xrealloc(m, (a->n_pairs + 1) * sizeof(*m));
	m[a->n_pairs] = (struct pair_memo){ b, ra, rb, ok, *pc };
	pair_unpoint(&m[a->n_pairs].pc);
	a->n_pairs++;
	return ok;
}

void audit_claim_release(struct actx *a)
{
	free(a->pairs);
	a->pairs = NULL;
	a->n_pairs = 0;
}

static int pair_compare_now(struct actx *a, const struct batch_record *b, const struct batch_row *ra,
			    const struct batch_row *rb, const char *va, const char *vb, struct pair_cmp *pc)
{
	const char *base = b->baseline;
	memset(pc, 0, sizeof(*pc));
	pc->how = "Holm-adjusted over the sweep";
	if (base && !strcmp(base, vb) && audit_row_comparison(ra, &pc->verdict, &pc->sp, pc->ci)) {
		pc->used = &ra->cmp;
		return 1;
	}
	if (base && !strcmp(base, va) && audit_row_comparison(rb, &pc->verdict, &pc->sp, pc->ci)) {
		double lo = pc->ci[0];
		pc->used = &rb->cmp;
		pc->inverted = 1;
		pc->verdict = invert_verdict(pc->verdict);
		pc->sp = 1 / pc->sp;
		pc->ci[0] = 1 / pc->ci[1];
		pc->ci[1] = 1 / lo;
		return 1;
	}
	struct stats_opts so = STATS_OPTS_INIT;
	struct stats_comparison *sc = &pc->sc;
	if (isfinite(b->holm_alpha) && b->holm_alpha > 0 && b->holm_alpha < 1)
		so.alpha = b->holm_alpha;
	if (isfinite(b->holm_threshold) && b->holm_threshold >= 0 && b->holm_threshold < 1)
		so.threshold = b->holm_threshold;
	double **xa = NULL, **xb = NULL;
	size_t *na = NULL, *nb = NULL, ka = 0, kb = 0;
	int ok = query_row_groups(a->q, ra, &xa, &na, &ka) == 0 && query_row_groups(a->q, rb, &xb, &nb, &kb) == 0 &&
		 ka && kb;
	if (ok) {
		struct stats_groups ga = { ka, (const double *const *)xa, na };
		struct stats_groups gb = { kb, (const double *const *)xb, nb };
		ok = stats_compare_groups(&gb, &ga, &so, sc) == 0;
	}
	if (xa)
		query_groups_free(xa, na, ka);
	if (xb)
		query_groups_free(xb, nb, kb);
	if (!ok)
		return 0;
	size_t n_ok = 0;
	for (size_t k = 0; k < b->n_rows; k++)
		n_ok += b->rows[k].outcome == OUTCOME_OK;
	double m_pairs = n_ok >= 2 ? (double)n_ok * (double)(n_ok - 1) / 2 : 1;
	if (m_pairs > 1 && isfinite(sc->p)) {
		sc->p_adjusted = sc->p * m_pairs < 1 ? sc->p * m_pairs : 1;
		stats_verdict(sc, so.alpha, so.threshold);
	}
	pc->verdict = sc->verdict;
	pc->sp = sc->speedup;
	pc->ci[0] = sc->speedup_ci[0];
	pc->ci[1] = sc->speedup_ci[1];
	pc->used = sc;
	if (m_pairs > 1)
		snprintf(pc->how_buf, sizeof(pc->how_buf), "%zu and %zu repeats, two-level, p %.2g adjusted over the "
			 "batch's %.0f pairs", ka, kb, sc->p_adjusted, m_pairs);
	else
		snprintf(pc->how_buf, sizeof(pc->how_buf), "%zu and %zu repeats, two-level, not adjusted", ka, kb);
	pc->how = ka > 1 || kb > 1 ? pc->how_buf
		  : m_pairs > 1    ? "two-sided Mann-Whitney, adjusted over the batch's pairs"
				   : "two-sided Mann-Whitney, not adjusted";
	return 1;
}

/* The same problem, shape and dtype (as the records name them), and the
 * same plug-in where both batches recorded its hash: a batch run before
 * the problem's inputs or rule changed measured another thing (red team
 * 35, finding 2). */
static int same_kind(const struct rec_problem *x, const struct rec_problem *y)
{
	if (!x->name || !y->name || strcmp(x->name, y->name))
		return 0;
	if ((x->dtype || y->dtype) && !str_same(x->dtype, y->dtype))
		return 0;
	return !x->plugin_sha256 || !y->plugin_sha256 || !strcmp(x->plugin_sha256, y->plugin_sha256);
}

static int same_problem(const struct rec_problem *x, const struct rec_problem *y)
{
	if (!same_kind(x, y) || x->n_dims != y->n_dims)
		return 0;
	for (size_t i = 0; i < x->n_dims && i < 8; i++)
		if (x->dims[i] != y->dims[i])
			return 0;
	return 1;
}

/* A rerun's row: the same code run the same way on the same device
 * (code_identity.h).  Reruns are gathered as evidence for a claim, so
 * the same code by the object that ran (code_same_built_way), never by
 * the echo-neutral object alone (red team 49's neutral_twin: a kernel
 * that detects the neutral build shared its hash with a twin of other
 * behaviour, whose 10 batches voted for it). */
static int same_identity(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->dev, y->dev) && code_same_built_way(x, y);
}

/* Possibly a rerun: the same code by the echo-neutral object too
 * (code_same_way).  A row that matches so and not by same_identity only
 * ever counts against a claim: a rerun that disagrees. */
static int same_identity_or_neutral(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->dev, y->dev) && code_same_way(x, y);
}

/*
 * The row of batch b that ended ok and matches id, preferring the one
 * named want, never skip; NULL when there is none.  match is
 * same_identity (a rerun of the same code) or same_family (the same
 * kernel, any parameters).  By content, not by name: the same code under
 * another variant or spec name is the same evidence (red team 34: a new
 * spec name for the same binaries had no other batch to be weighed
 * against).
 */
static const struct batch_row *row_matching(struct actx *a, const struct batch_record *b, const struct code_id *id,
					    int (*match)(const struct code_id *, const struct code_id *), const char *want,
					    const struct batch_row *skip)
{
	const struct batch_row *found = NULL;
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		struct code_id rid;
		if (row == skip || row->outcome != OUTCOME_OK || !code_identity(a->q, row, &rid) || !match(&rid, id))
			continue;
		if (row->variant && !strcmp(row->variant, want))
			return row;
		if (!found)
			found = row;
	}
	return found;
}

static int same_family(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->dev, y->dev) && !strcmp(x->family, y->family);
}

/* 1 when x differs from y in a parameter name (one side lacks it, or
 * the values differ); 0 when both lack it or agree. */
static int param_differs(const struct batch_row *x, const struct batch_row *y, const char *name)
{
	const char *vx = row_param(x, name), *vy = row_param(y, name);
	if (!vx || !vy)
		return !vx != !vy;
	return strcmp(vx, vy) != 0;
}

/* The rows (xa, xb) differ in exactly the parameters (ra, rb) do. */
static int same_params_differ(const struct batch_row *ra, const struct batch_row *rb, const struct batch_row *xa,
			      const struct batch_row *xb)
{
	const struct batch_row *rows[4] = { ra, rb, xa, xb };
	for (int r = 0; r < 4; r++)
		for (size_t i = 0; i < rows[r]->n_params; i++) {
			const char *name = rows[r]->params[i].name;
			if (param_differs(ra, rb, name) != param_differs(xa, xb, name))
				return 0;
		}
	return 1;
}

/*
 * Does row x count as a run of its code for the reruns of a verdict claim
 * (reruns_in)?  An ok row does; so does one that did not run cleanly
 * (flaky, crashed, wrong_output, timeout, ...): every process of the code
 * is evidence, and a kernel may fail the processes it finds slow (red
 * team 45's pick_fast: launch_failed in 14 of 30 processes).  Not a
 * configuration's refusal before any output (build_failed; launch_failed
 * or init_failed in every repeat, none with a check recorded: config_refused
 * for `validated`), nor what is not the code's: aborted (interrupted),
 * no_device, reference_failed (the judge's own reference).
 */
static int row_counts(struct actx *a, const struct batch_row *x)
{
	switch (x->outcome) {
	case OUTCOME_OK:
		return 1;
	case OUTCOME_BUILD_FAILED:
	case OUTCOME_ABORTED:
	case OUTCOME_NO_DEVICE:
	case OUTCOME_REFERENCE_FAILED:
		return 0;
	case OUTCOME_LAUNCH_FAILED:
	case OUTCOME_INIT_FAILED: {
		const struct run_record **runs;
		size_t n = query_row_runs(a->q, x, &runs), checked = 0;
		for (size_t i = 0; i < n; i++)
			checked += runs[i]->n_checks > 0;
		free(runs);
		/* a row of one run (evident-batch/1) names no repeats */
		const struct run_record *r = n ? NULL : query_row_run(a->q, x);
		return checked > 0 || (r && r->n_checks > 0);
	}
	default:
		return 1;
	}
}

/* Was row written by a runner commit the errata name as defective
 * (audit_errata.h)?  Its numbers are the runner's defect, not the code's. */
static int row_set_aside(struct actx *a, const struct batch_row *row)
{
	const struct run_record *r = a->o->errata ? query_row_run(a->q, row) : NULL;
	return r && audit_errata_find(a->o->errata, r->git.commit) >= 0;
}

/* The claim's own row set aside by the errata: 1, with the reason into
 * msg (its numbers are the runner's defect: they back no claim, as
 * `validated` reads no run set aside). */
static int own_row_set_aside(struct actx *a, const struct batch_row *row, const char *name, struct strbuf *msg)
{
	const struct run_record *r = a->o->errata ? query_row_run(a->q, row) : NULL;
	long ei = r ? audit_errata_find(a->o->errata, r->git.commit) : -1;
	if (ei < 0)
		return 0;
	const struct audit_errata *er = a->o->errata;
	strbuf_addf(msg, "the row of %s (run %s) was set aside by %s (runner commit %.8s, fixed in %.8s: %s): "
			 "a runner's defect backs no claim (cite a batch the runner wrote after the fix)",
		    name, audit_id_or(row->run_id), a->o->errata_path ? a->o->errata_path : "the errata", er->commit[ei],
		    er->fixed[ei], er->why[ei]);
	return 1;
}

/* What reruns counted (reruns_in, across_batches). */
struct votes {
	size_t n, k;            /* comparisons counted, and those giving the claimed verdict */
	size_t n_neutral;       /* undecided ones of other batches whose CI holds the claim's estimate */
	size_t n_batches;       /* batches that gave at least one counted comparison */
	size_t n_unclean;       /* counted ones where a row of the code did not run cleanly */
	size_t n_aside;         /* rows of the code the errata set aside, never counted */
	struct strbuf others;   /* the verdicts that disagreed, and where */
};

/*
 * Every pair of rows (xa, xb) of batch b that ran the claim's two codes
 * the same way (same_identity with ia and ib), ok or not run cleanly
 * (row_counts), as a rerun of the claim: a pair with a row that did not
 * run cleanly is counted into v as not giving the claimed verdict;
 * in the claim's own batch eb its pair (ra, rb) and the others, every
 * row of the same code being one more process of it.  Red team 42: a
 * kernel whose speed is set per process lands all k repeats in its fast
 * mode with chance 2^-k; of 8 identical rows against one baseline, 2 read
 * no_difference and 1 slower, and both claims were supported.  Each pair
 * is compared as the claim's is (pair_compare) and counted into v; an
 * undecided pair of another batch whose CI holds the claim's estimate sp
 * is left out (red team 37's pilots; a row of the claim's batch had the
 * claim's repeats).  When both sides are one code, each unordered pair is
 * counted once.  Returns the number of such pairs, compared or not.
 */
static size_t reruns_in(struct actx *a, const struct batch_record *b, const struct batch_record *eb,
		      const struct batch_row *ra, const struct batch_row *rb, const struct code_id *ia,
		      const struct code_id *ib, const char *want, double sp, struct votes *v)
{
	int aa = same_identity(ia, ib), any = 0;
	size_t pairs = 0;
	/* which rows ran the claim's a code (bit 1) and b code (bit 2), once;
	 * a row that ended otherwise than ok is one too, unless it is a
	 * configuration's refusal (row_counts) */
	unsigned char *side = xcalloc(b->n_rows + 1, 1);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *x = &b->rows[i];
		struct code_id id;
		int ok = row_counts(a, x) && code_identity(a->q, x, &id);
		if (ok && x != ra && x != rb && row_set_aside(a, x)) {
			v->n_aside += same_identity_or_neutral(&id, ia) || same_identity_or_neutral(&id, ib);
			continue;
		}
		side[i] = (x == ra || (ok && same_identity(&id, ia))) | (x == rb || (ok && same_identity(&id, ib))) << 1;
		/* the same code by the echo-neutral object alone: counted
		 * only where it disagrees (bits 4 and 8) */
		if (ok && !(side[i] & 1) && same_identity_or_neutral(&id, ia))
			side[i] |= 4;
		if (ok && !(side[i] & 2) && same_identity_or_neutral(&id, ib))
			side[i] |= 8;
	}
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *xa = &b->rows[i];
		if (!(side[i] & 5))
			continue;
		for (size_t j = 0; j < b->n_rows; j++) {
			const struct batch_row *xb = &b->rows[j];
			int claim = xa == ra && xb == rb;
			int against_only = !(side[i] & 1) || !(side[j] & 2);
			if (!(side[j] & 10) || xb == xa || (aa && !claim && (j < i || (xa == rb && xb == ra))))
				continue;
			struct pair_cmp pc;
			pairs++;
			/* a row of the code that did not run cleanly: a rerun that
			 * does not give the verdict (red team 45's pick_fast failed
			 * its own slow processes, 9 of 10 batches flaky, and its one
			 * ok batch had no rerun left to contradict it) */
			const struct batch_row *bad = xa->outcome != OUTCOME_OK ? xa : xb->outcome != OUTCOME_OK ? xb : NULL;
			if (bad) {
				v->n++;
				v->n_unclean++;
				any = 1;
				strbuf_addf(&v->others, "%s%s did not run cleanly: %s (%s)", v->others.len ? ", " : "",
					    audit_name_or(bad->variant), bad->outcome_text ? bad->outcome_text : "no outcome",
					    audit_id_or(b == eb ? bad->run_id : b->run_id));
				continue;
			}
			if (!pair_compare(a, b, xa, xb, audit_name_or(xa->variant), audit_name_or(xb->variant), &pc) ||
			    !pc.verdict || pc.used->one_process)
				continue;
			/* an undecided rerun whose CI holds the claim's estimate
			 * neither agrees nor disagrees: too few repeats to tell
			 * (red team 37: three 2-repeat pilots, each inconclusive
			 * around the same slowdown, outvoted a 12-repeat one) */
			if (b != eb && !strcmp(pc.verdict, "inconclusive") && isfinite(sp) && pc.ci[0] <= sp &&
			    sp <= pc.ci[1]) {
				v->n_neutral++;
				continue;
			}
			if (against_only && !strcmp(pc.verdict, want))
				continue;
			v->n++;
			any = 1;
			if (!strcmp(pc.verdict, want))
				v->k++;
			else if (b == eb)
				strbuf_addf(&v->others, "%s%s (%s vs %s)", v->others.len ? ", " : "", pc.verdict,
					    audit_name_or(xa->variant), audit_name_or(xb->variant));
			else
				strbuf_addf(&v->others, "%s%s (%s)", v->others.len ? ", " : "", pc.verdict,
					    audit_id_or(b->run_id));
		}
	}
	free(side);
	v->n_batches += any;
	return pairs;
}

/*
 * The evidence of a verdict claim beyond its own batch: every batch in
 * the store, of any experiment, reproductions included (`evident
 * reproduce` rebuilt and reran the same code: red team 49 left them out
 * of the verdict's reruns as value_across_batches had), of the same
 * problem, dtype and plug-in on the same device.
 *
 * Reruns: the claim's batch, and batches at the claim's shape
 * (same_problem), with rows of the same code run the same way as the
 * claim's two (same_identity): every such pair of rows (reruns_in), those
 * with a row that did not run cleanly (flaky, crashed...; not a
 * configuration's refusal) counted as not giving want.  Each
 * pair is compared as the claim's own batch is (pair_compare: recorded
 * when one side is the baseline, else computed and adjusted over the
 * batch's pairs), comparisons of one process a side left out, and those
 * giving want counted; an inconclusive one whose CI holds the claim's
 * estimate is left out (too few repeats to say either way: red team 37's
 * pilots).  The verdict stands only when more than half of the counted
 * comparisons give it (1 of 1 does).  Fewer than half: the claim is
 * contested (red team 33: an A/A experiment run 58 times, 57 batches
 * inconclusive or no_difference, the 58th "faster 1.484x, p 0.023"; a
 * claim on that batch was supported): *agrees is cleared, with the counts
 * in msg.  Exactly half (fix50; red team 49: a tie went to the claim, as
 * the value rule's had): *agrees cleared and *tie set, the claim
 * unsupported, no majority either way.  Otherwise the counts are added to
 * msg when there is more than one such comparison.
 *
 * Other tries: a batch with ok rows of the same two kernels (their kernel
 * files' contents, same_family) in another configuration (another shape,
 * other parameters, flags or headers, another way of running) is one more
 * chance to find a
 * verdict in noise (red team 35: one kernel twice at 71 shapes, one
 * "slower, p 0.0056"; red team 36: a parameter the code only echoes, a
 * new one each batch, 161 batches each a clean slate).  *tries is 1 plus
 * the number of distinct such configurations outside the claim's batch
 * (its own are adjusted over by its Holm); the caller adjusts over them.
 */
static void across_batches(struct actx *a, const struct batch_record *eb, const struct batch_row *ra,
			   const struct batch_row *rb, const char *va, const char *vb, const char *want, double sp,
			   int *agrees, int *tie, size_t *tries, struct strbuf *msg)
{
	struct code_id ia, ib;
	*tries = 1;
	if (!code_identity(a->q, ra, &ia) || !code_identity(a->q, rb, &ib) || strcmp(ia.dev, ib.dev))
		return;
	size_t pos = a->q->n, n_seen = 0;
	struct votes v = { 0, 0, 0, 0, 0, 0, STRBUF_INIT };
	int one_file = !strcmp(ia.family, ib.family);
	char **seen = NULL; /* the configurations tried, as "dims code_a code_b how" */
	struct strbuf key = STRBUF_INIT;
	const struct batch_record *b;
	/* every batch, reproductions included: a reproduction reran the
	 * same code (and a claim pinned to one must meet its own pair) */
	while ((b = query_next_batch_all(a->q, NULL, &pos))) {
		if (!same_kind(&b->problem, &eb->problem))
			continue;
		/* reruns: the same code at the claim's shape */
		if ((b == eb || same_problem(&b->problem, &eb->problem)) &&
		    reruns_in(a, b, eb, ra, rb, &ia, &ib, want, sp, &v))
			continue;
		if (b == eb)
			continue;
		const struct batch_row *xa, *xb;
		/* another configuration of the same two kernels; where both
		 * sides are one kernel file, a pair of its rows that differ in
		 * the same parameters as the claim's (red team 38: any two rows
		 * of the file counted, so every sweep of it adjusted a claim
		 * between two of its knob values) */
		xa = row_matching(a, b, &ia, same_family, va, NULL);
		xb = xa ? row_matching(a, b, &ib, same_family, vb, xa) : NULL;
		struct code_id ja, jb;
		if (!xb || !code_identity(a->q, xa, &ja) || !code_identity(a->q, xb, &jb))
			continue;
		if (one_file && !same_params_differ(ra, rb, xa, xb))
			continue;
		strbuf_reset(&key);
		for (size_t i = 0; i < b->problem.n_dims && i < 8; i++)
			strbuf_addf(&key, "%lld,", b->problem.dims[i]);
		strbuf_addf(&key, " %s %s %s %s %d %s", ja.code, jb.code, ja.cache ? ja.cache : "-",
			    ja.exec_kind ? ja.exec_kind : "-", ja.slots, ja.clock ? ja.clock : "-");
		size_t i = 0;
		while (i < n_seen && strcmp(seen[i], key.buf))
			i++;
		if (i == n_seen) {
			seen = xrealloc(seen, (n_seen + 1) * sizeof(*seen));
			seen[n_seen++] = xstrdup(key.buf);
		}
	}
	*tries = 1 + n_seen;
	for (size_t i = 0; i < n_seen; i++)
		free(seen[i]);
	free(seen);
	strbuf_release(&key);
	size_t n = v.n, k = v.k;
	/* what was counted: batches, and where the claim's batch held more
	 * rows of the same code, its comparisons too */
	char what[128];
	if (n > v.n_batches)
		snprintf(what, sizeof(what), "comparisons of the same code (every pair of its rows, in %zu batch%s)",
			 v.n_batches, v.n_batches == 1 ? "" : "es");
	else
		snprintf(what, sizeof(what), "batches of the same code");
	/* how many of the others did not run cleanly (reruns_in) */
	char unclean[96] = "";
	if (v.n_unclean)
		snprintf(unclean, sizeof(unclean), " (%zu did not run cleanly, which gives no verdict)", v.n_unclean);
	if (n >= 2 && 2 * k < n) {
		*agrees = 0;
		strbuf_addf(msg, "; but only %zu of %zu %s on %s give %s%s, the others: %s: a verdict the next run "
				 "reverses (cite the batches together, or rerun with more repeats)",
			    k, n, what, ia.dev, want, unclean, v.others.buf);
	} else if (n >= 2 && 2 * k == n) {
		/* a verdict needs a majority of its reruns: one of two is a
		 * coin, not what the code gives */
		*agrees = 0;
		*tie = 1;
		strbuf_addf(msg, "; but only %zu of %zu %s on %s give %s%s, the others: %s: exactly half, no majority "
				 "of the reruns (rerun the code, and cite what most batches give)",
			    k, n, what, ia.dev, want, unclean, v.others.buf);
	} else if (n >= 2) {
		strbuf_addf(msg, "; %zu of %zu %s on %s give %s%s", k, n, what, ia.dev, want, unclean);
	}
	if (v.n_neutral)
		strbuf_addf(msg, "; %zu more undecided, their CIs holding this estimate", v.n_neutral);
	if (v.n_aside)
		strbuf_addf(msg, "; %zu row(s) of the code set aside by %s", v.n_aside,
			    a->o->errata_path ? a->o->errata_path : "the errata");
	strbuf_release(&v.others);
}

/*
 * The speedup CI ci (at confidence conf) widened to the confidence
 * Bonferroni-adjusted over tries, 1 - (1 - conf) / tries, into out: on the
 * log scale about its centre, by the ratio of the two normal quantiles
 * (the record keeps the CI, not the bootstrap it came from).  Returns 1
 * when out lies wholly inside the noise band thr (rule 5 of the verdict
 * table, stats.h).
 */
static int widened_in_band(const double ci[2], double conf, size_t tries, double thr, double out[2])
{
	out[0] = out[1] = NAN;
	if (!(ci[0] > 0 && ci[1] >= ci[0]))
		return 0;
	double lo = log(ci[0]), hi = log(ci[1]), mid = (lo + hi) / 2, h = (hi - lo) / 2;
	double z = gsl_cdf_ugaussian_Pinv(1 - (1 - conf) / 2);
	double zk = gsl_cdf_ugaussian_Pinv(1 - (1 - conf) / (2 * (double)tries));
	out[0] = exp(mid - h * zk / z);
	out[1] = exp(mid + h * zk / z);
	return stats_ci_in_band(out, thr);
}

/*
 * The comparisons of batch b a writer could have cited in pc's place: the
 * rows compared with the baseline (those that ended ok, the baseline
 * left out) when pc is the batch's recorded comparison, else the pairs of
 * its ok rows that pair_compare_now adjusted over.  At least 1.
 */
static size_t batch_comparisons(const struct batch_record *b, const struct pair_cmp *pc)
{
	size_t n_ok = 0;
	for (size_t k = 0; k < b->n_rows; k++)
		n_ok += b->rows[k].outcome == OUTCOME_OK;
	if (n_ok < 2)
		return 1;
	return pc->used == &pc->sc ? n_ok * (n_ok - 1) / 2 : n_ok - 1;
}

/*
 * A claimed verdict drawn again, adjusted (Bonferroni) over the
 * configurations the two kernels were tried in (across_batches): *agrees
 * cleared, with why in msg, when it no longer gives want.  faster and
 * slower: the p adjusted.  no_difference: each try is one more draw of a
 * CI into the band (red team 41: a kernel doing 10% more work read
 * no_difference in 1 of 16 batches), so the CI, widened to the adjusted
 * confidence, must still lie inside the band.
 */
static void adjust_over_tries(const struct batch_record *b, const struct pair_cmp *pc, size_t tries, size_t n_batch,
			      const char *want, int *agrees, struct strbuf *msg)
{
	double thr = isfinite(b->holm_threshold) && b->holm_threshold >= 0 && b->holm_threshold < 1 ? b->holm_threshold
												  : 0.01;
	if (!strcmp(want, "no_difference")) {
		/* the batch's v comparisons are v draws of a CI into the band,
		 * as the configurations outside it are: its Holm moves p only
		 * (red team 42) */
		size_t all = tries - 1 + (n_batch ? n_batch : 1);
		if (all < 2)
			return;
		char over[160], tried[256];
		if (n_batch > 1) {
			snprintf(over, sizeof(over), "%zu comparisons (%zu of its batch, %zu other configurations of the two "
				 "kernels)", all, n_batch, tries - 1);
			snprintf(tried, sizeof(tried), "the claim is one of %s, any of which could have been cited", over);
		} else {
			snprintf(over, sizeof(over), "%zu configurations the two kernels were tried in", all);
			snprintf(tried, sizeof(tried), "the two kernels were tried in %zu configurations (shapes, parameters, "
				 "batches), any of which could have been cited", all);
		}
		double w[2], conf = ((struct stats_opts)STATS_OPTS_INIT).confidence;
		/* the CI the verdict was drawn on, not its inversion */
		if (widened_in_band(pc->used->speedup_ci, conf, all, thr, w)) {
			strbuf_addf(msg, "; its CI widened to %.4g%% over the %s, [%.3f, %.3f], is inside the noise band",
				    100 * (1 - (1 - conf) / (double)all), over, w[0], w[1]);
			return;
		}
		*agrees = 0;
		strbuf_addf(msg, "; but %s: the speedup CI widened to %.4g%% over them, [%.3f, %.3f], reaches beyond the "
				 "noise band [%g, %g] (cite the sweep, or rerun this configuration with more repeats)",
			    tried, 100 * (1 - (1 - conf) / (double)all), w[0], w[1], 1 - thr, 1 + thr);
		return;
	}
	if (tries < 2)
		return;
	if (!isfinite(pc->used->p_adjusted) || (strcmp(want, "faster") && strcmp(want, "slower")))
		return;
	struct stats_comparison c = *pc->used;
	double alpha = isfinite(b->holm_alpha) && b->holm_alpha > 0 && b->holm_alpha < 1 ? b->holm_alpha : 0.05;
	/* the table redrawn at the recorded p must give the recorded verdict
	 * (an older record may lack what it reads, test_sign); where it does
	 * not, the adjusted p alone decides between it and inconclusive */
	const char *was = pc->used->verdict, *v;
	int redraws = was && !strcmp(stats_verdict(&c, alpha, thr), was);
	c.p_adjusted = c.p_adjusted * (double)tries < 1 ? c.p_adjusted * (double)tries : 1;
	if (redraws)
		v = stats_verdict(&c, alpha, thr);
	else
		v = c.p_adjusted < alpha ? was : "inconclusive";
	if (pc->inverted)
		v = invert_verdict(v);
	if (v && !strcmp(v, want)) {
		strbuf_addf(msg, "; p %.2g adjusted over the %zu configurations the two kernels were tried in", c.p_adjusted,
			    tries);
		return;
	}
	*agrees = 0;
	strbuf_addf(msg, "; but the two kernels were tried in %zu configurations (shapes, parameters, batches), any of "
			 "which could have been cited: with p adjusted over them (%.2g) the verdict is %s (cite the "
			 "sweep, or rerun this configuration with more repeats)",
		    tries, c.p_adjusted, v ? v : "none");
}

/*
 * The two sides ran the same code the same way: any difference between
 * them is the machine's, never the code's (red team 35: an A/A pair
 * cited as "faster 1.44x"; red team 36: a byte-identical copy under
 * another name).  1 with why in msg for a faster/slower claim.
 */
static int same_code_both_sides(struct actx *a, const struct batch_row *ra, const struct batch_row *rb,
				const char *want, struct strbuf *msg)
{
	struct code_id ia, ib;
	if (strcmp(want, "faster") && strcmp(want, "slower"))
		return 0;
	if (!code_identity(a->q, ra, &ia) || !code_identity(a->q, rb, &ib) || !code_same_way(&ia, &ib))
		return 0;
	if (strcmp(ia.bin, ib.bin) && strcmp(ia.code, ib.code))
		/* code_same by the echo-neutral objects (red team 38's TRY) */
		strbuf_addf(msg, "; but both sides ran the same code (their objects differ only in the EV_PARAM echo: "
				 "echo-neutral object %.12s) the same way: a difference between them is the machine's, "
				 "not the code's",
			    ia.neutral);
	else
		strbuf_addf(msg, "; but both sides ran the same code (binary %.12s, sources and parameters %.12s) the "
				 "same way: a difference between them is the machine's, not the code's",
			    ia.bin, ia.code);
	return 1;
}

/*
 * The side a faster or slower claim says is slower, against the fastest
 * its code was recorded at anywhere in the store (every row of the same
 * code timed the same way, code_same_built_timed, at the claim's problem
 * and shape on the same device, in any batch but this one, whatever its
 * role there, by its median or, a row not ok, its ok runs' (red team 61:
 * a flaky fast publish hid its speed)): slower here by CODE_DRIFT_MARGIN, its speed moved with its
 * history, and the other side is faster only than that (red team 59: a
 * reference 8x slow after a wall-clock time, published fast; eval promoted
 * copies of its fast path and the audit supported "faster wf3 vs ref
 * 9.764x").  1 with the reason added to msg.
 */
static int slower_side_drifted(struct actx *a, const struct batch_record *eb, const struct batch_row *row,
			       const char *name, struct strbuf *msg)
{
	struct code_id id;
	if (!row->have_stats || !isfinite(row->stats.median) || !code_identity(a->q, row, &id))
		return 0;
	double best = NAN;
	const char *best_b = NULL;
	size_t pos = a->q->n;
	const struct batch_record *b;
	while ((b = query_next_batch_all(a->q, NULL, &pos))) {
		if (b == eb || b->interrupted || !same_problem(&b->problem, &eb->problem))
			continue;
		for (size_t k = 0; k < b->n_rows; k++) {
			const struct batch_row *x = &b->rows[k];
			struct code_id xid;
			if (!code_identity(a->q, x, &xid) || strcmp(xid.dev, id.dev) || !code_same_built_timed(&xid, &id))
				continue;
			double speed = query_row_speed(a->q, x);
			if (!isfinite(speed) || !(isnan(best) || speed < best))
				continue;
			best = speed;
			best_b = audit_id_or(b->run_id);
		}
	}
	int drifted = code_speed_drifted(row->stats.median, best);
	if (drifted)
		strbuf_addf(msg, "; but %s, the side it says is slower, ran %.2fx slower here than the fastest its code "
				 "was recorded at in the store (batch %s: median %.4g us there, %.4g us here): a side "
				 "slower than its own history makes the other faster only than that",
			    name, row->stats.median / best, best_b, best, row->stats.median);
	return drifted;
}

void audit_claim_compare(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "a", "b", "run", "speedup", "tol", NULL };
	static const char *const req[] = { "experiment", "a", "b", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *want = !strcmp(m->name, "no-difference") || !strcmp(m->name, "no_difference")
				   ? "no_difference" : m->name;
	const char *e = md_attr(m, "experiment"), *va = md_attr(m, "a"), *vb = md_attr(m, "b");
	const char *stated = md_attr(m, "speedup"), *tol = md_attr(m, "tol");
	const char *need[] = { va, vb, NULL };
	struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT, head = STRBUF_INIT;
	double sv = 0, sulp = 0, pct = -1, amount = 0;
	size_t n_b = 0;
	char how_groups[160] = "";
	struct blist batches = { 0 };
	strbuf_addf(&head, "%s %s vs %s", m->name, va, vb);
	if (tol && !stated) {
		audit_finding(a, m->line, "error", "claim '%s': tol= needs speedup=X to apply to", m->name);
		goto out;
	}
	if (stated) {
		const char *err;
		int rc = audit_stated_number(stated, F_RATIO, 1, &sv, &sulp, &err);
		if (rc < 0) {
			stated_error(a, m, "speedup", rc, err);
			goto out;
		}
		if (tol && claim_tol(a, m, F_RATIO, sv, &pct, &amount) < 0)
			goto out;
	}
	n_b = claim_batches(a, e, md_attr(m, "run"), need, &batches, &why);
	if (!n_b) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, need, &stale, &why);
	const struct batch_row *ra = batch_find_row(b, va), *rb = batch_find_row(b, vb);
	const char *bid = audit_id_or(b->run_id);
	char *last = xstrfmt("batch %s", bid);
	for (int k = 0; k < 2; k++) {
		const struct batch_row *row = k ? rb : ra;
		if (row->outcome != OUTCOME_OK) {
			strbuf_addf(&msg, "%s did not run cleanly: ", k ? vb : va);
			audit_describe_failure(&msg, row->outcome_text, row->reason);
			strbuf_addf(&msg, " (run %s, batch %s)", audit_id_or(row->run_id), bid);
			conclude(a, m, 0, stale, head.buf, msg.buf, why.buf, last);
			free(last);
			goto out;
		}
	}
	if (own_row_set_aside(a, ra, va, &msg) || own_row_set_aside(a, rb, vb, &msg)) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, msg.buf);
		free(last);
		goto out;
	}
	struct pair_cmp pc;
	if (!pair_compare(a, b, ra, rb, va, vb, &pc)) {
		audit_finding(a, m->line, "unsupported", "%s: the samples of batch %s cannot be compared", head.buf, bid);
		free(last);
		goto out;
	}
	const char *verdict = pc.verdict, *how = pc.how;
	double sp = pc.sp, ci[2] = { pc.ci[0], pc.ci[1] };
	const struct stats_comparison *used = pc.used; /* for rule 0's wording */
	if (used->one_process) {
		const char *rec = used->verdict_recorded;
		snprintf(how_groups, sizeof(how_groups), "1 repeat a side: the variance between processes is unknown%s%s",
			 rec ? "; recorded as " : "", rec ? (pc.inverted ? invert_verdict(rec) : rec) : "");
		how = how_groups;
	} else if (used->verdict_recorded) {
		/* rule 5 on a record written before it (stats_verdict_settle) */
		const char *rec = pc.inverted ? invert_verdict(used->verdict_recorded) : used->verdict_recorded;
		snprintf(how_groups, sizeof(how_groups), "%s; recorded as %s, but its CI reaches beyond the noise band",
			 how, rec);
		how = how_groups;
	}
	strbuf_addf(&msg, "speedup of %s over %s %.3fx [%.3f, %.3f], verdict %s (%s; runs %s, %s)", va, vb, sp, ci[0],
		    ci[1], verdict ? verdict : "none", how, audit_id_or(ra->run_id), audit_id_or(rb->run_id));
	add_trust_note(a, &msg, ra, va);
	add_trust_note(a, &msg, rb, vb);
	int agrees = verdict && !strcmp(verdict, want), tie = 0;
	if (agrees && same_code_both_sides(a, ra, rb, want, &msg))
		agrees = 0;
	if (agrees && !stale && !used->one_process) {
		size_t tries = 1;
		across_batches(a, b, ra, rb, va, vb, want, sp, &agrees, &tie, &tries, &msg);
		if (agrees)
			adjust_over_tries(b, &pc, tries, batch_comparisons(b, &pc), want, &agrees, &msg);
	}
	if (agrees && !tie && !stale && (!strcmp(want, "faster") || !strcmp(want, "slower")) &&
	    slower_side_drifted(a, b, !strcmp(want, "faster") ? rb : ra, !strcmp(want, "faster") ? vb : va, &msg))
		agrees = 0;
	if (tie) {
		/* no majority either way: the evidence decides nothing */
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, msg.buf);
		free(last);
		goto out;
	}
	if (agrees && stated) {
		double lo = ci[0] - sulp, hi = ci[1] + sulp;
		if (tol) {
			double t = pct >= 0 ? pct / 100 * sp : amount;
			lo = sp - t;
			hi = sp + t;
		}
		if (!(sv >= lo && sv <= hi)) {
			struct strbuf s2 = STRBUF_INIT;
			/* one CI on the line: the recorded one, in msg; the
			 * tolerance is another interval and says so */
			if (tol)
				strbuf_addf(&s2, "stated speedup %s lies outside the tolerance [%.3f, %.3f]; %s", stated,
					    lo, hi, msg.buf);
			else
				strbuf_addf(&s2, "stated speedup %s lies outside the 95%% CI, even at the precision it "
					    "is written to (+-%g); %s", stated, sulp, msg.buf);
			strbuf_reset(&msg);
			strbuf_addstr(&msg, s2.buf);
			strbuf_release(&s2);
			agrees = 0;
		}
	}
	conclude(a, m, agrees, stale, head.buf, msg.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&msg);
	strbuf_release(&head);
}

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
 * tries.  Any other verdict (inconclusive, no_difference, one process a
 * side) decides nothing a number can say: the claim is refused, to be
 * written as a verdict claim.  Returns 1 when it holds (the verdict added
 * to msg), 0 with *kind "contradicted" or "unsupported" and why in msg.
 */
static int implied_verdict(struct actx *a, const struct batch_record *b, const struct batch_row *row, const char *vn,
			   int stale, struct strbuf *msg, const char **kind)
{
	const char *base = b ? b->baseline : NULL;
	const struct batch_row *brow = base ? batch_find_row(b, base) : NULL;
	struct pair_cmp pc;
	*kind = "unsupported";
	if (!brow || brow == row || brow->outcome != OUTCOME_OK || !pair_compare(a, b, row, brow, vn, base, &pc)) {
		strbuf_addstr(msg, "; a comparison statistic states a comparison, and this one cannot be weighed as a "
				   "verdict (no ok baseline row to compare with in its batch); write it as a verdict claim "
				   "(docs/paper.md)");
		return 0;
	}
	struct strbuf aside = STRBUF_INIT;
	if (own_row_set_aside(a, brow, base, &aside)) {
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
	if (one || !v || (strcmp(v, "faster") && strcmp(v, "slower"))) {
		strbuf_addstr(msg, "; a comparison statistic stated as a value is a comparison, and this one decides "
				   "no faster or slower: write it as a verdict claim (faster, slower or no-difference "
				   "with speedup=), which the audit weighs across batches and tries (docs/paper.md)");
		return 0;
	}
	int agrees = 1;
	*kind = "contradicted";
	if (same_code_both_sides(a, row, brow, v, msg))
		return 0;
	if (!stale) {
		size_t tries = 1;
		int tie = 0;
		across_batches(a, b, row, brow, vn, base, v, pc.sp, &agrees, &tie, &tries, msg);
		if (tie)
			*kind = "unsupported";
		if (agrees)
			adjust_over_tries(b, &pc, tries, batch_comparisons(b, &pc), v, &agrees, msg);
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
 * A value claim on a time or a rate (rate_stat) read from one batch
 * (pinned, or the newest) beside every other batch of the same code
 * identity: the claim's shape (same_problem), the same code run the same
 * way on the same device and timed by the same clock (same_identity: by
 * the object that ran; a row of the same echo-neutral object alone counts
 * only where it excludes the value), of any experiment, reproductions
 * included (query_next_batch_all: a reproduction reran the same code), as
 * across_batches gathers the reruns of a verdict.  Red team 47: an honest
 * kernel whose speed is set per process ran 16 batches; pinned to the one
 * where both processes drew fast, `value stat=gflops value=2.75` was
 * supported, though 11 of the 16 batches' CIs exclude it.  Each batch
 * holds the claim to its own band (value_band: the tolerance stated, else
 * its CI, else the precision written, as the claim's own batch is; red
 * team 49: with no CI, mean_us, min_us and frac_*_peak decided nothing);
 * a batch whose rows of the code all did not run cleanly (flaky,
 * crashed...; not a configuration's refusal, row_counts) excludes it (it
 * gives no number for the code); rows the errata set aside (a runner's
 * defect, audit_errata.h) are left out, and counted into msg.  The claim
 * holds when more than half of the deciding batches (the claim's own
 * among them) include it: *agrees is cleared otherwise, naming how many
 * exclude it, and *tie set where exactly half do (red team 49: 1 of 2
 * passed); the counts go to msg whenever more than one batch decides.
 */
static void value_across_batches(struct actx *a, const struct batch_record *eb, const struct batch_row *er,
				 const char *vn, const char *stat, double want, int tol, double pct, double amount,
				 double ulp, double scale, int *agrees, int *tie, struct strbuf *msg)
{
	struct code_id id;
	if (!code_identity(a->q, er, &id))
		return;
	size_t n = 0, k = 0, n_out = 0, n_aside = 0, pos = a->q->n;
	struct strbuf out = STRBUF_INIT;
	const struct batch_record *b = eb;
	while (b) {
		/* the row of the code in b: the claim's own in eb, else an ok one
		 * (by the claim's name first), else one that did not run cleanly;
		 * rows the errata set aside are counted, never used */
		const struct batch_row *x = b == eb ? er : NULL, *bad = NULL, *ok = NULL;
		for (size_t i = 0; i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r == er || !row_counts(a, r) || !code_identity(a->q, r, &rid) || !same_identity(&rid, &id))
				continue;
			if (row_set_aside(a, r)) {
				n_aside++;
				continue;
			}
			if (r->outcome != OUTCOME_OK)
				bad = bad ? bad : r;
			else if (!ok || (r->variant && !strcmp(r->variant, vn) && !(ok->variant && !strcmp(ok->variant, vn))))
				ok = r;
		}
		if (!x)
			x = ok;
		/* the same code by the echo-neutral object alone: only where it
		 * excludes the value (against_only) */
		int against_only = 0;
		for (size_t i = 0; !x && !bad && i < b->n_rows; i++) {
			const struct batch_row *r = &b->rows[i];
			struct code_id rid;
			if (r->outcome == OUTCOME_OK && code_identity(a->q, r, &rid) &&
			    same_identity_or_neutral(&rid, &id) && !row_set_aside(a, r)) {
				x = r;
				against_only = 1;
			}
		}
		double v, ci[2], lo, hi;
		int have_ci = 0;
		struct strbuf w = STRBUF_INIT;
		/* every batch holds the claim to a band: the stated tolerance,
		 * else its CI, else the precision written (the rule the claim's
		 * own batch is held to; red team 49: mean_us, min_us and frac_*
		 * had no CI and no other batch decided) */
		if (x && stat_with_ci(a, b, x, stat, &v, ci, &have_ci, &w) == 0 && isfinite(v)) {
			value_band(tol, pct, amount, ulp, scale, v, ci, have_ci, &lo, &hi);
			int in = want >= lo && want <= hi;
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
		/* every batch of the code, reproductions included (red team
		 * 49: a value pinned to the luckiest of 10 reproductions was
		 * weighed against the original alone, "1 of 2") */
		do
			b = query_next_batch_all(a->q, NULL, &pos);
		while (b && (b == eb || !same_problem(&b->problem, &eb->problem)));
	}
	/* more than half of the deciding batches must hold it: one of two
	 * is a coin, not what the code gives */
	if (n >= 2 && 2 * k < n) {
		*agrees = 0;
		strbuf_addf(msg, "; but only %zu of %zu batches of the same code on %s hold %s=%.6g, %zu exclude it: %s%s: "
				 "a number one batch gave, not what the code gives (cite a value most batches of the "
				 "code hold, or state a tol= of at most %g%% that covers them)",
			    k, n, id.dev, stat, want, n - k, out.buf, n_out > 6 ? ", ..." : "", AUDIT_TOL_CAP_PCT);
	} else if (n >= 2 && 2 * k == n) {
		*agrees = 0;
		*tie = 1;
		strbuf_addf(msg, "; but only %zu of %zu batches of the same code on %s hold %s=%.6g, %zu exclude it: %s%s: "
				 "no majority of the batches (rerun the code, and cite what most batches hold)",
			    k, n, id.dev, stat, want, n - k, out.buf, n_out > 6 ? ", ..." : "");
	} else if (n >= 2) {
		strbuf_addf(msg, "; %zu of %zu batches of the same code on %s hold it", k, n, id.dev);
	}
	if (n_aside)
		strbuf_addf(msg, "; %zu row(s) of the code set aside by %s", n_aside,
			    a->o->errata_path ? a->o->errata_path : "the errata");
	strbuf_release(&out);
}

void audit_claim_value(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", "stat", "value", "tol", NULL };
	static const char *const req[] = { "experiment", "variant", "stat", "value", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
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
		stated_error(a, m, "value", rc, err);
		goto out;
	}
	if (tol && claim_tol(a, m, fam, stated, &pct, &amount) < 0)
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
		stale = !run || !query_sources_current(run, &why);
		last = xstrfmt("run %s", audit_id_or(row->run_id));
	} else {
		const char *need[] = { vn, NULL };
		size_t n_b = claim_batches(a, e, NULL, need, &batches, &why);
		if (!n_b) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		strbuf_reset(&why);
		b = evidence_batch(a, &batches, need, &stale, &why);
		row = batch_find_row(b, vn);
		last = xstrfmt("batch %s", audit_id_or(b->run_id));
	}
	if (own_row_set_aside(a, row, vn, &detail)) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
		goto out;
	}
	if (row->outcome != OUTCOME_OK && strcmp(stat, "max_abs_err") && strcmp(stat, "usd") && strcmp(stat, "gpu_s")) {
		strbuf_addstr(&detail, "the variant ");
		audit_describe_failure(&detail, row->outcome_text, row->reason);
		strbuf_addf(&detail, " (run %s)", audit_id_or(row->run_id));
		conclude(a, m, 0, stale, head.buf, detail.buf, why.buf, last);
		goto out;
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
	const char *kind;
	if (agrees && comparison_stat(stat) && !implied_verdict(a, b, row, vn, stale, &detail, &kind)) {
		if (!strcmp(kind, "unsupported")) {
			audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
			goto out;
		}
		agrees = 0;
	}
	int tie = 0;
	if (agrees && rate_stat(stat))
		value_across_batches(a, b, row, vn, stat, want, tol != NULL, pct, amount, ulp, scale, &agrees, &tie,
				     &detail);
	if (tie) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, detail.buf);
		goto out;
	}
	conclude(a, m, agrees, stale, head.buf, detail.buf, why.buf, last);
out:
	free(last);
	strbuf_release(&why);
	strbuf_release(&head);
	strbuf_release(&detail);
}

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return n == 0;
}

void audit_claim_measured_on(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "gpu", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "gpu", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *gpu = md_attr(m, "gpu"), *vn = md_attr(m, "variant");
	const char *need[] = { vn, NULL };
	const char *const *names = vn ? need : NULL;
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	struct blist batches = { 0 };
	strbuf_addf(&head, "measured-on %s \"%s\"", e, gpu);
	size_t n_b = claim_batches(a, e, md_attr(m, "run"), names, &batches, &why);
	if (!n_b) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, names, &stale, &why);
	int n = 0, bad = 0;
	char *first_dev = NULL;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		if (vn && strcmp(vn, audit_name_or(row->variant)))
			continue;
		const struct run_record **runs;
		size_t nr = query_row_runs(a->q, row, &runs);
		for (size_t k = 0; k < (nr ? nr : 1); k++) {
			char *dev = nr ? run_device_label(runs[k]) : xstrdup("unknown device");
			n++;
			if (!contains_ci(dev, gpu) && bad++ < 3)
				strbuf_addf(&other, "%s%s ran on %s (run %s)", other.len ? "; " : "", audit_name_or(row->variant),
					    dev, audit_id_or(nr ? runs[k]->run_id : row->run_id));
			if (!first_dev)
				first_dev = dev;
			else
				free(dev);
		}
		free(runs);
	}
	if (bad)
		strbuf_addf(&detail, "%s (batch %s)", other.buf, audit_id_or(b->run_id));
	else
		strbuf_addf(&detail, "%d run(s) on %s (batch %s)", n, first_dev ? first_dev : "?", audit_id_or(b->run_id));
	free(first_dev);
	char *last = xstrfmt("batch %s", audit_id_or(b->run_id));
	conclude(a, m, !bad, stale, head.buf, detail.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&other);
	strbuf_release(&head);
	strbuf_release(&detail);
}

/* setting: a protocol setting (seeds, samples, warm-up, ...) as every run of the evidence recorded it */
void audit_claim_setting(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "key", "value", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "key", "value", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *key = md_attr(m, "key"), *sval = md_attr(m, "value");
	const char *vn = md_attr(m, "variant");
	struct setting s;
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	struct blist batches = { 0 };
	double stated = 0, ulp;
	if (!audit_setting_find(key, &s)) {
		audit_finding(a, m->line, "error", "claim 'setting': unknown key '%s' (known: %s)", key, audit_setting_names());
		goto out;
	}
	if (!s.is_string) {
		const char *err;
		int rc = audit_stated_number(sval, s.fam, s.scale, &stated, &ulp, &err);
		if (rc < 0) {
			stated_error(a, m, "value", rc, err);
			goto out;
		}
	}
	strbuf_addf(&head, "setting %s%s%s %s=%s", e, vn ? "/" : "", vn ? vn : "", key, sval);
	const char *need[] = { vn, NULL };
	const char *const *names = vn ? need : NULL;
	size_t n_b = claim_batches(a, e, md_attr(m, "run"), names, &batches, &why);
	if (!n_b) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, names, &stale, &why);
	int n = 0, bad = 0;
	struct strbuf rec = STRBUF_INIT;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		if (vn && strcmp(vn, audit_name_or(row->variant)))
			continue;
		const struct run_record **runs;
		size_t nr = query_row_runs(a->q, row, &runs);
		for (size_t k = 0; k < nr; k++) {
			double num = 0;
			const char *str = NULL;
			if (!record_run_setting(runs[k], s.key, &num, &str) || !str != !s.is_string)
				continue; /* it stopped before that setting applied (a crash before timing) */
			if (!n++) {
				if (s.is_string)
					strbuf_addstr(&rec, str);
				else
					strbuf_addf(&rec, "%g", num);
			}
			int same = s.is_string ? !strcmp(str, sval) : audit_same_number(num * s.scale, stated);
			if (!same && bad++ < 3) {
				strbuf_addf(&other, "%s%s recorded ", other.len ? "; " : "", audit_name_or(row->variant));
				if (s.is_string)
					strbuf_addstr(&other, str);
				else
					strbuf_addf(&other, "%g", num);
				strbuf_addf(&other, " (run %s)", audit_id_or(runs[k]->run_id));
			}
		}
		free(runs);
	}
	if (!n) {
		audit_finding(a, m->line, "unsupported", "%s: no run of batch %s recorded '%s'", head.buf, audit_id_or(b->run_id),
			key);
		strbuf_release(&rec);
		goto out;
	}
	if (bad)
		strbuf_addf(&detail, "%d of %d run(s) recorded another value: %s%s (batch %s)", bad, n, other.buf,
			    bad > 3 ? "; ..." : "", audit_id_or(b->run_id));
	else
		strbuf_addf(&detail, "%d run(s) recorded %s=%s (batch %s)", n, key, rec.buf, audit_id_or(b->run_id));
	strbuf_release(&rec);
	char *last = xstrfmt("batch %s", audit_id_or(b->run_id));
	conclude(a, m, !bad, stale, head.buf, detail.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&other);
	strbuf_release(&head);
	strbuf_release(&detail);
}

/*
 * reproduced: batch run= was reproduced by `evident reproduce` (a batch of
 * the store records the verdicts: record.h, rec_reproduction).  The latest
 * reproduction of it decides: every variant reproduced supports, any other
 * verdict contradicts; none is unsupported.  Not stale: a reproduction
 * rebuilds the recorded code, whatever the working tree holds now.
 */
void audit_claim_reproduced(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "run", "experiment", NULL };
	static const char *const req[] = { "run", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *pin = md_attr(m, "run"), *e = md_attr(m, "experiment");
	struct strbuf why = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	strbuf_addf(&head, "reproduced %s", pin);
	const struct batch_record *old = query_batch(a->q, e, pin, NULL, &why);
	if (!old) {
		audit_finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	const struct batch_record *latest = NULL;
	size_t *rx, nrx = query_reproductions_of(a->q, old->run_id, old->batch_id, &rx);
	for (size_t k = 0; k < nrx && !latest; k++) {
		const struct batch_record *c = query_batch_at(a->q, rx[k]);
		if (c && c != old && c->repro.have)
			latest = c;
	}
	free(rx);
	if (!latest) {
		audit_finding(a, m->line, "unsupported", "%s: batch %s has no reproduction in the store; run 'evident reproduce %s'",
			head.buf, audit_id_or(old->run_id), audit_id_or(old->run_id));
		goto out;
	}
	const struct rec_reproduction *r = &latest->repro;
	size_t bad = 0;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct rec_repro_row *row = &r->rows[i];
		if (row->verdict == REPRO_REPRODUCED || bad++ >= 3)
			continue;
		strbuf_addf(&detail, "%s%s %s", bad > 1 ? "; " : "", audit_name_or(row->variant), repro_verdict_name(row->verdict));
		if (row->reason)
			strbuf_addf(&detail, ": %s", row->reason);
	}
	if (r->reproduced && r->n_rows)
		audit_finding(a, m->line, "supported", "%s: batch %s reproduced all %zu variant(s) (noise band %g%%)", head.buf,
			audit_id_or(latest->run_id), r->n_rows, 100 * r->threshold);
	else
		audit_finding(a, m->line, "contradicted", "%s: the latest reproduction, batch %s, did not reproduce %zu of %zu "
			"variant(s): %s%s",
			head.buf, audit_id_or(latest->run_id), bad, r->n_rows, r->n_rows ? detail.buf : "it has no variants",
			bad > 3 ? "; ..." : "");
out:
	strbuf_release(&why);
	strbuf_release(&head);
	strbuf_release(&detail);
}
