/*
 * audit.c - claims and untraced numbers (contract in audit.h, reference in
 * docs/paper.md).
 *
 * Evidence rules, the same for every claim kind:
 *   unsupported   no recorded run could back the claim at all;
 *   stale         runs exist, but none of the code they ran is the code in
 *                 the working tree now (a code.sources[] hash differs);
 *   contradicted  among the runs of the current code, one says otherwise
 *                 (the variant crashed or failed a seed, the verdict or
 *                 value differs, it ran on another device);
 *   supported     the runs of the current code agree.
 * Unless run=RUN_ID pins it, the evidence is the newest batch (or for
 * `validated`, every run) whose sources match the working tree.  For
 * `validated`, any failing run of the current source contradicts, even if
 * a later one passed: an intermittent crash is exactly what must not be
 * called validated.
 */
#include "report/audit.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/mdscan.h"
#include "stats/stats.h"

/* ---------- numbers ---------- */

static const char *const units[] = {
	"GFLOP/s", "TFLOP/s", "GB/s", "TB/s", "MB/s", "bytes", "KiB", "MiB", "GiB",
	"\xce\xbcs" /* μs */, "\xc2\xb5s" /* µs */, "us", "ns", "ms", "MB", "KB", "GB",
	"\xc3\x97" /* × */, "s", "x", "%",
};

/* Width of a space we accept between number and unit (ASCII, NBSP, thin, narrow NBSP). */
static size_t space_len(const char *s)
{
	if (*s == ' ')
		return 1;
	if (!memcmp(s, "\xc2\xa0", 2))
		return 2;
	if (!memcmp(s, "\xe2\x80\x89", 3) || !memcmp(s, "\xe2\x80\xaf", 3))
		return 3;
	return 0;
}

size_t audit_parse_number(const char *s, double *v, const char **unit, size_t *ulen, double *ulp)
{
	const char *p = s;
	char digits[128];
	size_t nd = 0;
	*unit = "";
	*ulen = 0;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || (*p == ',' && isdigit((unsigned char)p[1]) &&
					      isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
					      !isdigit((unsigned char)p[4]))) {
		if (*p != ',' && nd < sizeof(digits) - 2)
			digits[nd++] = *p;
		p++;
	}
	int decimals = 0;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		digits[nd++] = *p++;
		while (isdigit((unsigned char)*p)) {
			if (nd < sizeof(digits) - 1)
				digits[nd++] = *p;
			p++;
			decimals++;
		}
	}
	digits[nd] = '\0';
	*v = strtod(digits, NULL);
	*ulp = 0.5 * pow(10, -decimals);
	size_t sp = space_len(p);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t ul = strlen(units[i]);
		int attached_only = !strcmp(units[i], "x");
		for (int with_space = 0; with_space <= !attached_only; with_space++) {
			const char *u = p + (with_space ? sp : 0);
			if (with_space && !sp)
				continue;
			if (strncmp(u, units[i], ul))
				continue;
			unsigned char next = (unsigned char)u[ul];
			if (isalnum(next) || next == '_' || next >= 0x80)
				continue; /* "5 seeds", "128x64" */
			if ((!strcmp(units[i], "x") || !strcmp(units[i], "\xc3\x97")) &&
			    ((next == ' ' && isdigit((unsigned char)u[ul + 1])) || isdigit(next)))
				continue; /* "4 x 4", a dimension */
			*unit = u;
			*ulen = ul;
			return (size_t)(u + ul - s);
		}
	}
	return (size_t)(p - s);
}

static double time_scale(const char *unit, size_t ulen)
{
	if (ulen == 2 && !strncmp(unit, "ms", 2))
		return 1e3;
	if (ulen == 1 && unit[0] == 's')
		return 1e6;
	if (ulen == 2 && !strncmp(unit, "ns", 2))
		return 1e-3;
	return 1;
}

/* ---------- findings ---------- */

struct actx {
	struct query *q;
	const char *file;
	const struct audit_opts *o;
	struct strbuf *out;
	struct audit_counts *c;
};

__attribute__((format(printf, 4, 5))) static void finding(struct actx *a, int line, const char *kind,
							   const char *fmt, ...)
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
	else
		a->c->errors++;
	if (!strcmp(kind, "supported") && !a->o->show_supported)
		return;
	va_list ap;
	strbuf_addf(a->out, "%s:%d: %s: ", a->file, line, kind);
	va_start(ap, fmt);
	strbuf_vaddf(a->out, fmt, ap);
	va_end(ap);
	strbuf_addch(a->out, '\n');
}

static int run_ok(json_t *run)
{
	const char *oc = query_str(run, "outcome");
	return oc && !strcmp(oc, "ok") && json_is_true(query_get(run, "correctness.pass"));
}

static void describe_failure(struct strbuf *sb, json_t *run_or_row)
{
	const char *oc = query_str(run_or_row, "outcome");
	const char *why = query_str(run_or_row, "reason");
	strbuf_addstr(sb, oc ? oc : "no outcome");
	if (oc && !strcmp(oc, "ok"))
		strbuf_addstr(sb, " but correctness did not pass");
	if (why) {
		strbuf_addstr(sb, " (");
		for (const char *p = why; *p && p - why < 160; p++)
			strbuf_addch(sb, *p == '\n' ? ' ' : *p);
		strbuf_addstr(sb, strlen(why) > 160 ? "...)" : ")");
	}
}

/* Newest batch of batches whose rows (names, or all when NULL) ran the current code. */
static json_t *current_batch(struct actx *a, json_t *batches, const char *const *names,
			     struct strbuf *why)
{
	size_t i;
	json_t *b;
	json_array_foreach(batches, i, b)
	{
		int cur = 1;
		struct strbuf w = STRBUF_INIT;
		size_t k;
		json_t *row;
		json_array_foreach(json_object_get(b, "variants"), k, row)
		{
			int wanted = !names;
			for (size_t j = 0; names && names[j]; j++)
				wanted |= !strcmp(names[j], query_str(row, "variant") ? query_str(row, "variant") : "");
			if (!wanted)
				continue;
			json_t *run = query_row_run(a->q, row);
			if (!run) {
				strbuf_addf(&w, "run '%s' is missing from the store", query_str(row, "run_id"));
				cur = 0;
			} else if (!query_sources_current(run, &w)) {
				cur = 0;
			}
			if (!cur)
				break;
		}
		if (!i && !cur)
			strbuf_addstr(why, strbuf_str(&w));
		strbuf_release(&w);
		if (cur)
			return b;
	}
	return NULL;
}

/* ---------- claims ---------- */

static int keys_ok(struct actx *a, const struct md_marker *m, const char *const *allowed,
		   const char *const *required)
{
	const char *bad = md_unknown_attr(m, allowed);
	if (bad) {
		finding(a, m->line, "error", "claim '%s' takes no '%s'; see docs/paper.md", m->name, bad);
		return -1;
	}
	for (size_t i = 0; required[i]; i++)
		if (!md_attr(m, required[i]) || !*md_attr(m, required[i])) {
			finding(a, m->line, "error", "claim '%s' needs %s=...; see docs/paper.md", m->name,
				required[i]);
			return -1;
		}
	return 0;
}

static void claim_validated(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "variant", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *v = md_attr(m, "variant"), *pin = md_attr(m, "run");
	json_t *runs;
	if (pin && strcmp(pin, "latest")) {
		json_t *r = query_find(a->q, pin);
		runs = json_array();
		if (r && query_str(r, "variant") && !strcmp(query_str(r, "variant"), v))
			json_array_append(runs, r);
	} else {
		runs = query_variant_runs(a->q, e, v);
	}
	struct strbuf why = STRBUF_INIT, fails = STRBUF_INIT;
	json_t *pass = NULL;
	size_t i, n_cur = 0, n_fail = 0;
	json_t *r;
	json_array_foreach(runs, i, r)
	{
		struct strbuf w = STRBUF_INIT;
		if (!query_sources_current(r, &w)) {
			if (!i)
				strbuf_addstr(&why, w.buf);
			strbuf_release(&w);
			continue;
		}
		strbuf_release(&w);
		n_cur++;
		if (run_ok(r)) {
			if (!pass)
				pass = r;
			continue;
		}
		if (n_fail++ < 3) {
			strbuf_addf(&fails, "%srun %s: ", n_fail > 1 ? "; " : "", query_str(r, "run_id"));
			describe_failure(&fails, r);
		}
	}
	if (!json_array_size(runs))
		finding(a, m->line, "unsupported", "validated %s/%s: no recorded run%s", e, v,
			pin && strcmp(pin, "latest") ? " with that run id" : "");
	else if (!n_cur)
		finding(a, m->line, "stale", "validated %s/%s: %s; rerun the experiment (last run %s)", e, v,
			why.buf, query_str(json_array_get(runs, 0), "run_id"));
	else if (n_fail)
		finding(a, m->line, "contradicted", "validated %s/%s: %zu of %zu run(s) of the current source failed: %s%s",
			e, v, n_fail, n_cur, fails.buf, n_fail > 3 ? "; ..." : "");
	else
		finding(a, m->line, "supported", "validated %s/%s: passed %lld seed(s) and the recheck in %zu run(s) of the current source (latest %s)",
			e, v, (long long)json_integer_value(query_get(pass, "correctness.seeds")), n_cur,
			query_str(pass, "run_id"));
	strbuf_release(&why);
	strbuf_release(&fails);
	json_decref(runs);
}

static const char *invert_verdict(const char *v)
{
	if (!strcmp(v, "faster"))
		return "slower";
	if (!strcmp(v, "slower"))
		return "faster";
	return v;
}

/* faster | slower | no-difference: variant a against variant b */
static void claim_compare(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "a", "b", "run", "speedup", "tol", NULL };
	static const char *const req[] = { "experiment", "a", "b", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *want = !strcmp(m->name, "no-difference") || !strcmp(m->name, "no_difference")
				   ? "no_difference" : m->name;
	const char *e = md_attr(m, "experiment"), *va = md_attr(m, "a"), *vb = md_attr(m, "b");
	const char *pin = md_attr(m, "run");
	const char *need[] = { va, vb, NULL };
	struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT;
	json_t *batches;
	if (pin && strcmp(pin, "latest")) {
		json_t *b = query_batch(a->q, e, pin, need, &why);
		batches = json_array();
		if (b)
			json_array_append(batches, b);
	} else {
		batches = query_batches(a->q, e, need);
	}
	double *xa = NULL, *xb = NULL;
	size_t na = 0, nb = 0;
	if (!json_array_size(batches)) {
		if (!why.len)
			query_batch(a->q, e, "latest", need, &why);
		finding(a, m->line, "unsupported", "%s %s vs %s: %s", m->name, va, vb, why.buf);
		goto out;
	}
	json_t *b = current_batch(a, batches, need, &why);
	if (!b) {
		finding(a, m->line, "stale", "%s %s vs %s: %s; rerun the experiment (last batch %s)", m->name, va, vb,
			why.buf, query_str(json_array_get(batches, 0), "run_id"));
		goto out;
	}
	json_t *ra = query_row(b, va), *rb = query_row(b, vb);
	const char *bid = query_str(b, "run_id");
	for (int k = 0; k < 2; k++) {
		json_t *row = k ? rb : ra;
		const char *oc = query_str(row, "outcome");
		if (!oc || strcmp(oc, "ok")) {
			describe_failure(&msg, row);
			finding(a, m->line, "contradicted", "%s %s vs %s: %s did not run cleanly: %s (run %s, batch %s)",
				m->name, va, vb, k ? vb : va, msg.buf, query_str(row, "run_id"), bid);
			goto out;
		}
	}
	const char *base = query_str(b, "baseline");
	const char *verdict = NULL, *how = "Holm-adjusted over the sweep";
	double sp = NAN, ci[2] = { NAN, NAN };
	struct stats_comparison sc;
	if (base && !strcmp(base, vb) && json_is_object(json_object_get(ra, "comparison"))) {
		verdict = query_str(ra, "comparison.verdict");
		sp = query_num(ra, "comparison.speedup.ratio");
		ci[0] = query_num(ra, "comparison.speedup.ci.0");
		ci[1] = query_num(ra, "comparison.speedup.ci.1");
	} else if (base && !strcmp(base, va) && json_is_object(json_object_get(rb, "comparison"))) {
		verdict = invert_verdict(query_str(rb, "comparison.verdict"));
		sp = 1 / query_num(rb, "comparison.speedup.ratio");
		ci[0] = 1 / query_num(rb, "comparison.speedup.ci.1");
		ci[1] = 1 / query_num(rb, "comparison.speedup.ci.0");
	} else { /* neither is the baseline: compare their samples directly */
		struct stats_opts so = STATS_OPTS_INIT;
		if (query_samples(a->q, query_row_run(a->q, ra), &xa, &na) < 0 ||
		    query_samples(a->q, query_row_run(a->q, rb), &xb, &nb) < 0 || !na || !nb ||
		    stats_compare(xb, nb, xa, na, &so, &sc) < 0) {
			finding(a, m->line, "unsupported", "%s %s vs %s: the samples of batch %s cannot be compared",
				m->name, va, vb, bid);
			goto out;
		}
		verdict = sc.verdict;
		sp = sc.speedup;
		ci[0] = sc.speedup_ci[0];
		ci[1] = sc.speedup_ci[1];
		how = "two-sided Mann-Whitney, not adjusted";
	}
	strbuf_addf(&msg, "speedup of %s over %s %.3fx [%.3f, %.3f], verdict %s (%s; runs %s, %s)", va, vb, sp,
		    ci[0], ci[1], verdict ? verdict : "none", how, query_str(ra, "run_id"), query_str(rb, "run_id"));
	if (!verdict || strcmp(verdict, want)) {
		finding(a, m->line, "contradicted", "%s %s vs %s: %s", m->name, va, vb, msg.buf);
		goto out;
	}
	const char *stated = md_attr(m, "speedup");
	if (stated) {
		double v, ulp;
		const char *u;
		size_t ul;
		if (!audit_parse_number(stated, &v, &u, &ul, &ulp)) {
			finding(a, m->line, "error", "claim '%s': speedup='%s' is not a number", m->name, stated);
			goto out;
		}
		const char *tol = md_attr(m, "tol");
		double lo = ci[0] - ulp, hi = ci[1] + ulp;
		if (tol) {
			double t = strtod(tol, NULL);
			if (strchr(tol, '%'))
				t = t / 100 * sp;
			lo = sp - t;
			hi = sp + t;
		}
		if (!(v >= lo && v <= hi)) {
			finding(a, m->line, "contradicted", "%s %s vs %s: stated speedup %s lies outside %s [%.3f, %.3f]; %s",
				m->name, va, vb, stated, tol ? "the tolerance" : "the 95% CI", lo, hi, msg.buf);
			goto out;
		}
	}
	finding(a, m->line, "supported", "%s %s vs %s: %s", m->name, va, vb, msg.buf);
out:
	free(xa);
	free(xb);
	strbuf_release(&why);
	strbuf_release(&msg);
	json_decref(batches);
}

static void claim_value(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", "stat", "value", "tol", NULL };
	static const char *const req[] = { "experiment", "variant", "stat", "value", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *vn = md_attr(m, "variant"), *stat = md_attr(m, "stat");
	const char *sval = md_attr(m, "value"), *tol = md_attr(m, "tol"), *pin = md_attr(m, "run");
	struct strbuf why = STRBUF_INIT;
	json_t *batches = NULL;
	double stated, ulp;
	const char *unit;
	size_t ulen;
	if (!query_stat_known(stat)) {
		finding(a, m->line, "error", "claim 'value': unknown stat '%s' (known: %s)", stat, query_stat_names);
		goto out;
	}
	if (!audit_parse_number(sval, &stated, &unit, &ulen, &ulp)) {
		finding(a, m->line, "error", "claim 'value': value='%s' is not a number", sval);
		goto out;
	}
	json_t *b = NULL, *row = NULL, *run = NULL;
	if (pin && strcmp(pin, "latest")) {
		if (query_resolve(a->q, e, vn, pin, &b, &row, &run, &why) < 0) {
			finding(a, m->line, "unsupported", "value %s/%s %s: %s", e, vn, stat, why.buf);
			goto out;
		}
		if (!run || !query_sources_current(run, &why)) {
			finding(a, m->line, "stale", "value %s/%s %s: %s (run %s)", e, vn, stat, why.buf,
				query_str(row, "run_id"));
			goto out;
		}
	} else {
		const char *need[] = { vn, NULL };
		batches = query_batches(a->q, e, need);
		if (!json_array_size(batches)) {
			query_batch(a->q, e, "latest", need, &why);
			finding(a, m->line, "unsupported", "value %s/%s %s: %s", e, vn, stat, why.buf);
			goto out;
		}
		b = current_batch(a, batches, need, &why);
		if (!b) {
			finding(a, m->line, "stale", "value %s/%s %s: %s; rerun the experiment (last batch %s)", e, vn,
				stat, why.buf, query_str(json_array_get(batches, 0), "run_id"));
			goto out;
		}
		row = query_row(b, vn);
		run = query_row_run(a->q, row);
	}
	const char *oc = query_str(row, "outcome");
	if (!oc || strcmp(oc, "ok")) {
		struct strbuf f = STRBUF_INIT;
		describe_failure(&f, row);
		if (strcmp(stat, "max_abs_err") && strcmp(stat, "usd") && strcmp(stat, "gpu_s")) {
			finding(a, m->line, "contradicted", "value %s/%s %s=%s: the variant %s (run %s)", e, vn, stat,
				sval, f.buf, query_str(row, "run_id"));
			strbuf_release(&f);
			goto out;
		}
		strbuf_release(&f);
	}
	double v, ci[2];
	int have_ci;
	const char *kind;
	if (query_stat(b, row, run, stat, &v, ci, &have_ci, &kind, &why) < 0) {
		finding(a, m->line, "unsupported", "value %s/%s %s: %s (run %s)", e, vn, stat, why.buf,
			query_str(row, "run_id"));
		goto out;
	}
	double scale = !strcmp(kind, "time") ? time_scale(unit, ulen) : 1;
	double want = stated * scale, slack = ulp * scale, lo, hi;
	const char *rule;
	if (tol) {
		double t, tulp;
		const char *tu;
		size_t tul;
		if (!audit_parse_number(tol, &t, &tu, &tul, &tulp)) {
			finding(a, m->line, "error", "claim 'value': tol='%s' is not a number or a percentage", tol);
			goto out;
		}
		if (tul == 1 && tu[0] == '%')
			t = t / 100 * fabs(v);
		else if (!strcmp(kind, "time"))
			t *= time_scale(tu, tul);
		lo = v - t;
		hi = v + t;
		rule = "the stated tolerance";
	} else if (have_ci) {
		lo = ci[0] - slack;
		hi = ci[1] + slack;
		rule = "the 95% CI";
	} else {
		lo = v - slack;
		hi = v + slack;
		rule = "the precision written";
	}
	if (want >= lo && want <= hi)
		finding(a, m->line, "supported", "value %s/%s %s=%s: recorded %.6g, within %s [%.6g, %.6g] (run %s)", e,
			vn, stat, sval, v, rule, lo, hi, query_str(row, "run_id"));
	else
		finding(a, m->line, "contradicted", "value %s/%s %s=%s: recorded %.6g, outside %s [%.6g, %.6g] (run %s)",
			e, vn, stat, sval, v, rule, lo, hi, query_str(row, "run_id"));
out:
	strbuf_release(&why);
	json_decref(batches);
}

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return n == 0;
}

static void claim_measured_on(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "gpu", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "gpu", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *gpu = md_attr(m, "gpu"), *vn = md_attr(m, "variant");
	const char *pin = md_attr(m, "run");
	const char *need[] = { vn, NULL };
	const char *const *names = vn ? need : NULL;
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT;
	json_t *batches;
	if (pin && strcmp(pin, "latest")) {
		json_t *b = query_batch(a->q, e, pin, names, &why);
		batches = json_array();
		if (b)
			json_array_append(batches, b);
	} else {
		batches = query_batches(a->q, e, names);
	}
	if (!json_array_size(batches)) {
		if (!why.len)
			query_batch(a->q, e, "latest", names, &why);
		finding(a, m->line, "unsupported", "measured-on %s \"%s\": %s", e, gpu, why.buf);
		goto out;
	}
	json_t *b = current_batch(a, batches, names, &why);
	if (!b) {
		finding(a, m->line, "stale", "measured-on %s \"%s\": %s; rerun the experiment (last batch %s)", e, gpu,
			why.buf, query_str(json_array_get(batches, 0), "run_id"));
		goto out;
	}
	size_t i;
	json_t *row;
	int n = 0, bad = 0;
	json_array_foreach(json_object_get(b, "variants"), i, row)
	{
		if (vn && strcmp(vn, query_str(row, "variant") ? query_str(row, "variant") : ""))
			continue;
		json_t *run = query_row_run(a->q, row);
		char *dev = run ? query_device_name(run) : xstrdup("unknown device");
		n++;
		if (!contains_ci(dev, gpu) && bad++ < 3)
			strbuf_addf(&other, "%s%s ran on %s (run %s)", other.len ? "; " : "", query_str(row, "variant"),
				    dev, query_str(row, "run_id"));
		free(dev);
	}
	if (bad)
		finding(a, m->line, "contradicted", "measured-on %s \"%s\": %s (batch %s)", e, gpu, other.buf,
			query_str(b, "run_id"));
	else {
		json_t *run = query_row_run(a->q, json_array_get(json_object_get(b, "variants"), 0));
		char *dev = run ? query_device_name(run) : xstrdup("?");
		finding(a, m->line, "supported", "measured-on %s \"%s\": %d run(s) on %s (batch %s)", e, gpu, n, dev,
			query_str(b, "run_id"));
		free(dev);
	}
out:
	strbuf_release(&why);
	strbuf_release(&other);
	json_decref(batches);
}

/* ---------- untraced numbers ---------- */

/* Numbers a claim vouches for: its value= and speedup=. */
static int claim_covers(const struct md_marker *m, double v)
{
	const char *keys[] = { "value", "speedup" };
	for (size_t i = 0; i < 2; i++) {
		const char *s = md_attr(m, keys[i]);
		double cv, ulp;
		const char *u;
		size_t ul;
		if (s && audit_parse_number(s, &cv, &u, &ul, &ulp) && fabs(cv - v) <= 1e-9 * (fabs(v) + 1))
			return 1;
	}
	return 0;
}

static void scan_untraced(struct actx *a, struct md_doc *d)
{
	const char *t = d->text;
	size_t len = d->len;
	unsigned char *skip = xcalloc(len + 1, 1);
	int *para = xcalloc(len + 1, sizeof(int));
	/* generated regions: an opening marker up to its closing marker */
	for (size_t i = 0; i < d->n; i++) {
		if (d->mk[i].kind != MD_OPEN)
			continue;
		long c = md_find_close(d, i);
		size_t end = c < 0 ? d->mk[i].end : d->mk[c].end;
		memset(skip + d->mk[i].start, 1, end - d->mk[i].start);
	}
	/* link targets and bare URLs */
	for (size_t i = 0; i + 1 < len; i++) {
		if (t[i] == ']' && t[i + 1] == '(') {
			size_t j = i + 2;
			while (j < len && t[j] != ')' && t[j] != '\n')
				j++;
			memset(skip + i, 1, j - i);
		} else if (!strncmp(t + i, "http://", 7) || !strncmp(t + i, "https://", 8)) {
			size_t j = i;
			while (j < len && !isspace((unsigned char)t[j]) && t[j] != ')')
				j++;
			memset(skip + i, 1, j - i);
		}
	}
	/* paragraphs: separated by blank lines */
	int p = 0;
	for (size_t i = 0; i < len; i++) {
		para[i] = p;
		if (t[i] == '\n') {
			size_t j = i + 1;
			while (j < len && (t[j] == ' ' || t[j] == '\t'))
				j++;
			if (j >= len || t[j] == '\n')
				p++;
		}
	}
	for (size_t i = 0; i < len; i++) {
		if (d->mask[i] != MD_TEXT || skip[i] || !isdigit((unsigned char)t[i]))
			continue;
		if (i > 0) {
			unsigned char pc = (unsigned char)t[i - 1];
			if (isalnum(pc) || pc == '_' || pc == '.' || pc == '/' || pc == '=' || pc == '#' || pc >= 0x80) {
				while (i + 1 < len && (isalnum((unsigned char)t[i + 1]) || t[i + 1] == '.'))
					i++;
				continue; /* fp16, sm_90, v1.2, B=4, H100 */
			}
		}
		double v, ulp;
		const char *u;
		size_t ul;
		size_t n = audit_parse_number(t + i, &v, &u, &ul, &ulp);
		if (!n)
			continue;
		if (ul == 1 && u[0] == '%') { /* "95% CI", "95% confidence": a method setting, not a result */
			const char *after = u + 1;
			while (*after == ' ')
				after++;
			if (!strncmp(after, "CI", 2) || !strncasecmp(after, "confidence", 10) ||
			    !strncasecmp(after, "bootstrap", 9))
				ul = 0;
		}
		if (ul) {
			int covered = 0;
			for (size_t k = 0; k < d->n && !covered; k++)
				if (d->mk[k].kind == MD_CLAIM && para[d->mk[k].start] == para[i])
					covered = claim_covers(&d->mk[k], v);
			if (!covered)
				finding(a, md_line_of(d, i), "untraced",
					"'%.*s' is neither generated nor covered by a claim; generate it with <!-- evident:value ... --> or add a <!-- claim: value ... --> (docs/paper.md)",
					(int)n, t + i);
		}
		i += n - 1;
	}
	free(skip);
	free(para);
}

struct fline {
	int line;
	size_t seq;
	char *text;
};

static int cmp_fline(const void *x, const void *y)
{
	const struct fline *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Findings of one file in line order (stable). */
static void sorted_findings(const char *file, struct strbuf *in, struct strbuf *out)
{
	struct fline *f = NULL;
	size_t n = 0, flen = strlen(file);
	char *p = in->buf;
	while (p && *p) {
		char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		f = xrealloc(f, (n + 1) * sizeof(*f));
		f[n].line = atoi(p + flen + 1);
		f[n].seq = n;
		f[n].text = xstrndup(p, l);
		n++;
		p = nl ? nl + 1 : NULL;
	}
	if (n)
		qsort(f, n, sizeof(*f), cmp_fline);
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(out, f[i].text);
		strbuf_addch(out, '\n');
		free(f[i].text);
	}
	free(f);
}

int audit_text(struct query *q, const char *file, const char *text, size_t len,
	       const struct audit_opts *o, struct strbuf *out, struct audit_counts *c)
{
	struct md_doc d = MD_DOC_INIT;
	struct strbuf mine = STRBUF_INIT;
	struct actx a = { q, file, o, &mine, c };
	if (md_parse(&d, file, text, len) < 0) {
		finding(&a, 1, "error", "the markers of this file do not parse (see the error above); nothing was audited");
		goto out;
	}
	for (size_t i = 0; i < d.n; i++) {
		const struct md_marker *m = &d.mk[i];
		if (m->kind != MD_CLAIM)
			continue;
		c->claims++;
		if (!strcmp(m->name, "validated"))
			claim_validated(&a, m);
		else if (!strcmp(m->name, "faster") || !strcmp(m->name, "slower") ||
			 !strcmp(m->name, "no-difference") || !strcmp(m->name, "no_difference"))
			claim_compare(&a, m);
		else if (!strcmp(m->name, "value"))
			claim_value(&a, m);
		else if (!strcmp(m->name, "measured-on") || !strcmp(m->name, "measured_on"))
			claim_measured_on(&a, m);
		else
			finding(&a, m->line, "error",
				"unknown claim '%s' (known: validated, faster, slower, no-difference, value, measured-on)",
				m->name);
	}
	if (o->untraced)
		scan_untraced(&a, &d);
out:
	sorted_findings(file, &mine, out);
	strbuf_release(&mine);
	md_release(&d);
	return 0;
}
