/*
 * audit.c - claims and untraced numbers (contract in audit.h, reference in
 * docs/paper.md).
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
 *                 since (a code.sources[] hash differs);
 *   supported     the evidence agrees and ran the current code.
 * For `validated`, any failing run of the evidence contradicts, even if a
 * later one passed: an intermittent crash is exactly what must not be
 * called validated.
 *
 * A stated tolerance is bounded (AUDIT_TOL_CAP_PCT): a wider one is a
 * malformed claim, never a pass.  A number in the text is traced only by a
 * generated block around it or by a claim in its paragraph about the same
 * quantity: the same value in the same unit family (a time, a ratio, ...),
 * and the same statistic or setting where the text names one.
 *
 * Every read of a record key is in the "record fields" section below, so
 * that the record module can take them over in one place.
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

/* ---------- units and numbers as written ---------- */

/* Unit families: a number traces only a quantity of its own family. */
enum fam { F_NONE, F_TIME, F_RATIO, F_PCT, F_BW, F_FLOPS, F_BYTES, F_USD, F_SEEDS, F_SAMPLES };
static const char *const fam_names[] = {
	"a plain number", "a time (us, ms, s, ...)", "a ratio (x)", "a percentage", "a bandwidth (GB/s, ...)",
	"a FLOP rate (GFLOP/s, ...)", "a size (bytes, MiB, ...)", "money ($, USD)", "a count of seeds",
	"a count of samples",
};

struct unit {
	const char *text;
	enum fam fam;
	double scale;            /* to the family's base unit: us, x, %, GB/s, GFLOP/s, bytes, USD */
	int attached_only;       /* "x": 1.4x, never "1.4 x" (that is a dimension, "3 x 3") */
};

/* A unit matches only when no letter, digit or '_' follows it, so order
 * matters only between units that are prefixes of each other ("MB" of
 * "MB/s"). */
static const struct unit units[] = {
	{ "GFLOP/s", F_FLOPS, 1, 0 }, { "TFLOP/s", F_FLOPS, 1e3, 0 },
	{ "GFLOPS", F_FLOPS, 1, 0 }, { "TFLOPS", F_FLOPS, 1e3, 0 },
	{ "GB/s", F_BW, 1, 0 }, { "TB/s", F_BW, 1e3, 0 }, { "MB/s", F_BW, 1e-3, 0 },
	{ "bytes", F_BYTES, 1, 0 }, { "KiB", F_BYTES, 1024.0, 0 }, { "MiB", F_BYTES, 1048576.0, 0 },
	{ "GiB", F_BYTES, 1073741824.0, 0 }, { "KB", F_BYTES, 1e3, 0 }, { "MB", F_BYTES, 1e6, 0 },
	{ "GB", F_BYTES, 1e9, 0 },
	{ "\xce\xbcs" /* μs */, F_TIME, 1, 0 }, { "\xc2\xb5s" /* µs */, F_TIME, 1, 0 }, { "us", F_TIME, 1, 0 },
	{ "ns", F_TIME, 1e-3, 0 }, { "ms", F_TIME, 1e3, 0 },
	{ "seconds", F_TIME, 1e6, 0 }, { "second", F_TIME, 1e6, 0 }, { "secs", F_TIME, 1e6, 0 },
	{ "sec", F_TIME, 1e6, 0 }, { "s", F_TIME, 1e6, 0 },
	{ "minutes", F_TIME, 6e7, 0 }, { "minute", F_TIME, 6e7, 0 }, { "mins", F_TIME, 6e7, 0 },
	{ "min", F_TIME, 6e7, 0 },
	{ "hours", F_TIME, 3.6e9, 0 }, { "hour", F_TIME, 3.6e9, 0 }, { "hrs", F_TIME, 3.6e9, 0 },
	{ "hr", F_TIME, 3.6e9, 0 }, { "h", F_TIME, 3.6e9, 0 },
	{ "days", F_TIME, 8.64e10, 0 }, { "day", F_TIME, 8.64e10, 0 },
	{ "USD", F_USD, 1, 0 },
	{ "\xc3\x97" /* × */, F_RATIO, 1, 0 }, { "x", F_RATIO, 1, 1 }, { "%", F_PCT, 1, 0 },
	{ "seeds", F_SEEDS, 1, 0 }, { "seed", F_SEEDS, 1, 0 },
	{ "samples", F_SAMPLES, 1, 0 }, { "sample", F_SAMPLES, 1, 0 },
};
static const struct unit unit_dollar = { "$", F_USD, 1, 0 };

/* A number as written: "1,234.5 us", "−0.27", "6.0e-99", "1.4x", "$0.16". */
struct num {
	double v;                /* the number as written (sign included) */
	double ulp;              /* half a unit in the last digit written: 0.005 for "1.42" */
	int decimal;             /* written with a '.' or an exponent */
	const struct unit *u;    /* NULL: none written */
	size_t len;              /* bytes of number and unit */
	size_t unit_off;         /* where the unit starts */
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

static int is_name_byte(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/* Length of a minus sign at s: '-' or U+2212 '−'; 0 if none. */
static size_t minus_len(const char *s)
{
	if (*s == '-')
		return 1;
	if (!strncmp(s, "\xe2\x88\x92", 3))
		return 3;
	return 0;
}

/* Parses a number (and its unit) at s; returns the bytes consumed, 0 if s
 * does not start with one.  A leading minus sign is taken. */
static size_t parse_num(const char *s, struct num *n)
{
	const char *p = s;
	char digits[128];
	size_t nd = 0;
	memset(n, 0, sizeof(*n));
	size_t ml = minus_len(p);
	if (ml && isdigit((unsigned char)p[ml])) {
		digits[nd++] = '-';
		p += ml;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || (*p == ',' && isdigit((unsigned char)p[1]) &&
					      isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
					      !isdigit((unsigned char)p[4]))) {
		if (*p != ',' && nd < sizeof(digits) - 24)
			digits[nd++] = *p;
		p++;
	}
	int decimals = 0, exp10 = 0;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		digits[nd++] = *p++;
		while (isdigit((unsigned char)*p)) {
			if (nd < sizeof(digits) - 24)
				digits[nd++] = *p;
			p++;
			decimals++;
		}
		n->decimal = 1;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
		char *end;
		long e = strtol(p + 1, &end, 10);
		exp10 = e > 400 ? 400 : e < -400 ? -400 : (int)e;
		nd += (size_t)snprintf(digits + nd, sizeof(digits) - nd, "e%d", exp10);
		p = end;
		n->decimal = 1;
	}
	digits[nd] = '\0';
	n->v = strtod(digits, NULL);
	n->ulp = 0.5 * pow(10, exp10 - decimals);
	n->len = n->unit_off = (size_t)(p - s);
	size_t sp = space_len(p);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t ul = strlen(units[i].text);
		for (int with_space = 0; with_space <= !units[i].attached_only; with_space++) {
			const char *u = p + (with_space ? sp : 0);
			if (with_space && !sp)
				continue;
			if (strncmp(u, units[i].text, ul))
				continue;
			unsigned char next = (unsigned char)u[ul];
			if (is_name_byte(next) || next >= 0x80)
				continue; /* "5 stages", "128x64" */
			if (units[i].fam == F_RATIO && ((next == ' ' && isdigit((unsigned char)u[ul + 1])) || isdigit(next)))
				continue; /* "4 x 4", "3 × 3": a dimension */
			n->u = &units[i];
			n->unit_off = (size_t)(u - s);
			n->len = (size_t)(u + ul - s);
			return n->len;
		}
	}
	return n->len;
}

size_t audit_parse_number(const char *s, double *v, const char **unit, size_t *ulen, double *ulp)
{
	struct num n;
	size_t len = parse_num(s, &n);
	*v = n.v;
	*ulp = n.ulp;
	*unit = n.u ? s + n.unit_off : "";
	*ulen = n.u ? strlen(n.u->text) : 0;
	return len;
}

static int same_number(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-300;
}

/*
 * The unit family of statistic stat (docs/paper.md, "Statistics") and the
 * factor from its recorded value to the family's base unit (gpu_s is
 * recorded in seconds, times in us).
 */
static enum fam stat_fam(const char *stat, double *scale)
{
	size_t l = strlen(stat);
	*scale = 1;
	if (l > 3 && !strcmp(stat + l - 3, "_us"))
		return F_TIME;
	if (!strcmp(stat, "gpu_s")) {
		*scale = 1e6;
		return F_TIME;
	}
	if (!strcmp(stat, "speedup"))
		return F_RATIO;
	if (!strcmp(stat, "gflops") || !strcmp(stat, "tflops")) {
		*scale = stat[0] == 't' ? 1e3 : 1;
		return F_FLOPS;
	}
	if (!strcmp(stat, "gbps"))
		return F_BW;
	if (!strcmp(stat, "usd"))
		return F_USD;
	if (!strcmp(stat, "n"))
		return F_SAMPLES;
	return F_NONE; /* delta, p, p_raw, max_abs_err */
}

/* ---------- record fields ----------
 * The only reads of run and batch record keys in this file (the query
 * module's own readers aside): each small and named, so that the record
 * module can replace them one by one. */

static const char *rec_run_id(json_t *m)
{
	const char *id = qj_str(m, "run_id");
	return id ? id : "?";
}

static const char *rec_variant(json_t *row_or_run)
{
	const char *v = qj_str(row_or_run, "variant");
	return v ? v : "";
}

static const char *rec_outcome(json_t *row_or_run)
{
	return qj_str(row_or_run, "outcome");
}

static const char *rec_reason(json_t *row_or_run)
{
	return qj_str(row_or_run, "reason");
}

static const char *rec_baseline(json_t *batch)
{
	return qj_str(batch, "baseline");
}

/* The rows of a batch (a JSON array, borrowed). */
static json_t *rec_rows(json_t *batch)
{
	return json_object_get(batch, "variants");
}

/* The batch's recorded comparison of row against its baseline; 0 when the row has none. */
static int row_comparison(json_t *row, const char **verdict, double *speedup, double ci[2])
{
	if (!json_is_object(json_object_get(row, "comparison")))
		return 0;
	*verdict = qj_str(row, "comparison.verdict");
	*speedup = qj_num(row, "comparison.speedup.ratio");
	ci[0] = qj_num(row, "comparison.speedup.ci.0");
	ci[1] = qj_num(row, "comparison.speedup.ci.1");
	return 1;
}

/* Did runs a and b record the same code (every code.sources path and hash)? */
static int runs_same_code(json_t *a, json_t *b)
{
	json_t *sa = qj_get(a, "code.sources"), *sb = qj_get(b, "code.sources");
	if (json_array_size(sa) != json_array_size(sb))
		return 0;
	for (size_t i = 0; i < json_array_size(sa); i++) {
		const char *pa = qj_str(json_array_get(sa, i), "path"), *pb = qj_str(json_array_get(sb, i), "path");
		const char *ha = qj_str(json_array_get(sa, i), "sha256"), *hb = qj_str(json_array_get(sb, i), "sha256");
		if (!pa || !pb || !ha || !hb || strcmp(pa, pb) || strcmp(ha, hb))
			return 0;
	}
	return 1;
}

static void describe_failure(struct strbuf *sb, json_t *run_or_row)
{
	const char *oc = rec_outcome(run_or_row);
	const char *why = rec_reason(run_or_row);
	strbuf_addstr(sb, oc ? oc : "no outcome");
	if (why) {
		strbuf_addstr(sb, " (");
		for (const char *p = why; *p && p - why < 160; p++)
			strbuf_addch(sb, *p == '\n' ? ' ' : *p);
		strbuf_addstr(sb, strlen(why) > 160 ? "...)" : ")");
	}
}

/*
 * The checks a variant run records.  Each eval returns CHECK_NOT_RUN,
 * CHECK_PASSED (appending its label to ran: "5 seeds") or CHECK_FAILED
 * (appending why to why).  To teach `validated` a new kind of check, add
 * one line to check_kinds[].  A check recorded as an array of objects with
 * a boolean "pass" under "correctness" that no line names is still
 * evaluated by check_other_lists (labelled by its key), so a new check
 * that fails is never ignored.
 */
enum { CHECK_NOT_RUN, CHECK_PASSED, CHECK_FAILED };

struct check_kind {
	const char *key;         /* member of "correctness" (pass lists) */
	const char *label;       /* as listed: "%zu seeds", "re-check after timing" */
	int (*eval)(json_t *run, const struct check_kind *k, struct strbuf *ran, struct strbuf *why);
};

static void list_add(struct strbuf *sb, const char *what)
{
	strbuf_addstr(sb, sb->len ? ", " : "");
	strbuf_addstr(sb, what);
}

/* correctness.<key>: an array of {pass, seed, max_abs_err, ...}, every one must pass. */
static int check_pass_list(json_t *run, const struct check_kind *k, struct strbuf *ran, struct strbuf *why)
{
	json_t *list = json_object_get(json_object_get(run, "correctness"), k->key);
	size_t n = json_array_size(list), bad = 0, i;
	json_t *e, *first = NULL;
	if (!n)
		return CHECK_NOT_RUN;
	json_array_foreach(list, i, e)
	{
		if (!json_is_true(json_object_get(e, "pass")) && !bad++)
			first = e;
	}
	char *label = strstr(k->label, "%zu") ? xstrfmt(k->label, n) : xstrdup(k->label);
	if (bad) {
		strbuf_addf(why, "%s: %zu of %zu failed", label, bad, n);
		if (json_is_number(json_object_get(first, "seed")))
			strbuf_addf(why, " (seed %lld", (long long)json_integer_value(json_object_get(first, "seed")));
		if (json_is_number(json_object_get(first, "seed")) && json_is_number(json_object_get(first, "max_abs_err")))
			strbuf_addf(why, ", max |err| %.3g", qj_num(first, "max_abs_err"));
		if (json_is_number(json_object_get(first, "seed")))
			strbuf_addch(why, ')');
	} else {
		list_add(ran, label);
	}
	free(label);
	return bad ? CHECK_FAILED : CHECK_PASSED;
}

/* sanitize[]: {tool, passed, errors, timed_out, exit} per compute-sanitizer tool. */
static int check_sanitizers(json_t *run, const struct check_kind *k, struct strbuf *ran, struct strbuf *why)
{
	json_t *list = json_object_get(run, "sanitize"), *e;
	size_t i;
	int bad = 0;
	(void)k;
	if (!json_array_size(list))
		return CHECK_NOT_RUN;
	json_array_foreach(list, i, e)
	{
		const char *tool = qj_str(e, "tool") ? qj_str(e, "tool") : "sanitizer";
		if (json_is_true(json_object_get(e, "passed"))) {
			list_add(ran, tool);
			continue;
		}
		strbuf_addstr(why, bad++ ? "; " : "");
		if (json_is_true(json_object_get(e, "timed_out")))
			strbuf_addf(why, "%s timed out", tool);
		else if (qj_num(e, "errors") > 0)
			strbuf_addf(why, "%s found %lld error(s)", tool, (long long)qj_num(e, "errors"));
		else
			strbuf_addf(why, "%s did not pass (%s)", tool, qj_str(e, "exit") ? qj_str(e, "exit") : "no verdict");
	}
	return bad ? CHECK_FAILED : CHECK_PASSED;
}

static int check_key_known(const char *key);

/* Any other correctness.<key> that is a list of {pass}: a check added after this file. */
static int check_other_lists(json_t *run, const struct check_kind *k, struct strbuf *ran, struct strbuf *why)
{
	const char *key;
	json_t *list;
	int rc = CHECK_NOT_RUN;
	(void)k;
	json_object_foreach(json_object_get(run, "correctness"), key, list)
	{
		if (check_key_known(key) || !json_is_object(json_array_get(list, 0)) ||
		    !json_is_boolean(json_object_get(json_array_get(list, 0), "pass")))
			continue;
		char *label = xstrfmt("'%s' check", key);
		struct check_kind other = { key, label, check_pass_list };
		int r = check_pass_list(run, &other, ran, why);
		free(label);
		if (r == CHECK_FAILED || rc == CHECK_NOT_RUN)
			rc = r;
	}
	return rc;
}

static const struct check_kind check_kinds[] = {
	{ "results", "%zu seeds", check_pass_list },
	{ "recheck", "re-check after timing", check_pass_list },
	{ NULL, NULL, check_sanitizers },
	{ NULL, NULL, check_other_lists }, /* last: the catch-all */
};

static int check_key_known(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(check_kinds); i++)
		if (check_kinds[i].key && !strcmp(check_kinds[i].key, key))
			return 1;
	return 0;
}

/*
 * Did every check that run recorded pass?  Returns 1 with the checks that
 * ran listed in ran ("5 seeds, re-check after timing, memcheck"), or 0
 * with why saying what failed (or that no check ran, or the outcome).
 */
static int run_checks_passed(json_t *run, struct strbuf *ran, struct strbuf *why)
{
	const char *oc = rec_outcome(run);
	if (!oc || strcmp(oc, "ok")) {
		describe_failure(why, run);
		return 0;
	}
	int failed = 0, any = 0;
	for (size_t i = 0; i < ARRAY_SIZE(check_kinds); i++) {
		struct strbuf w = STRBUF_INIT;
		int r = check_kinds[i].eval(run, &check_kinds[i], ran, &w);
		any |= r != CHECK_NOT_RUN;
		if (r == CHECK_FAILED) {
			strbuf_addstr(why, failed++ ? "; " : "");
			strbuf_addstr(why, strbuf_str(&w));
		}
		strbuf_release(&w);
	}
	if (!failed && !json_is_true(qj_get(run, "correctness.pass"))) {
		strbuf_addstr(why, "correctness did not pass");
		failed = 1;
	}
	if (!failed && !any) {
		strbuf_addstr(why, "no correctness check was recorded");
		failed = 1;
	}
	return !failed;
}

/*
 * Settings of the protocol that `setting` claims check, named as in the
 * spec, with where a variant record holds the value that ran.
 */
static const struct setting {
	const char *key;         /* spec key: "timing.samples" */
	const char *path;        /* record key of what ran */
	enum fam fam;
	double scale;            /* recorded value to the family's base unit */
	int is_string;
} settings[] = {
	{ "correctness.seeds", "correctness.seeds", F_SEEDS, 1, 0 },
	{ "correctness.atol", "correctness.atol", F_NONE, 1, 0 },
	{ "correctness.rtol", "correctness.rtol", F_NONE, 1, 0 },
	{ "timing.samples", "timing.method.samples_requested", F_SAMPLES, 1, 0 },
	{ "timing.warmup_ms", "timing.method.warmup_ms", F_TIME, 1e3, 0 },
	{ "timing.cache", "timing.method.cache", F_NONE, 1, 1 },
};
static const char setting_names[] = "correctness.seeds, correctness.atol, correctness.rtol, timing.samples, "
				    "timing.warmup_ms, timing.cache";

static const struct setting *setting_find(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++)
		if (!strcmp(settings[i].key, key))
			return &settings[i];
	return NULL;
}

/* The last part of a setting key ("samples" of "timing.samples"), as code writes it. */
static const char *setting_leaf(const struct setting *s)
{
	const char *dot = strrchr(s->key, '.');
	return dot ? dot + 1 : s->key;
}

/* What run recorded for setting s: 1 with *num or *str set, 0 when it recorded none. */
static int run_setting(json_t *run, const struct setting *s, double *num, const char **str)
{
	json_t *v = qj_get(run, s->path);
	/* the host backend records no samples_requested: in fixed mode it took every sample asked for */
	const char *mode = qj_str(run, "timing.method.mode");
	if (!v && !strcmp(s->key, "timing.samples") && mode && !strcmp(mode, "fixed"))
		v = qj_get(run, "timing.n");
	if (s->is_string) {
		*str = json_string_value(v);
		return *str != NULL;
	}
	if (!json_is_number(v))
		return 0;
	*num = json_number_value(v);
	return 1;
}

/* ---------- findings ---------- */

struct actx {
	struct qj *q;
	const char *file;
	const struct audit_opts *o;
	struct strbuf *out;
	struct audit_counts *c;
	unsigned char *malformed; /* per marker: a claim found malformed traces no number */
	size_t cur;              /* the marker being checked */
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
		finding(a, m->line, "contradicted", "%s: %s; also stale: %s; rerun the experiment", head, detail,
			stale_why);
	else if (!agrees)
		finding(a, m->line, "contradicted", "%s: %s", head, detail);
	else if (stale)
		finding(a, m->line, "stale", "%s: %s; rerun the experiment (last %s; the old runs agreed: %s)", head,
			stale_why, last, detail);
	else
		finding(a, m->line, "supported", "%s: %s", head, detail);
}

/*
 * The evidence batch among batches (newest first): the newest whose rows
 * (names, or all when NULL) ran the current code; when none did, the
 * newest, with *stale = 1 and why saying what changed.  NULL when batches
 * is empty.
 */
static json_t *evidence_batch(struct actx *a, json_t *batches, const char *const *names, int *stale,
			      struct strbuf *why)
{
	size_t i;
	json_t *b;
	*stale = 0;
	json_array_foreach(batches, i, b)
	{
		int cur = 1;
		struct strbuf w = STRBUF_INIT;
		size_t k;
		json_t *row;
		json_array_foreach(rec_rows(b), k, row)
		{
			int wanted = !names;
			for (size_t j = 0; names && names[j]; j++)
				wanted |= !strcmp(names[j], rec_variant(row));
			if (!wanted)
				continue;
			json_t *run = qj_row_run(a->q, row);
			if (!run) {
				strbuf_addf(&w, "run '%s' is missing from the store", rec_run_id(row));
				cur = 0;
			} else if (!qj_sources_current(run, &w)) {
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
	*stale = json_array_size(batches) > 0;
	return json_array_get(batches, 0);
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

/*
 * A number a claim states (key=s) for a quantity of family fam whose bare
 * numbers are in units of bare_scale: the whole of s must be a number,
 * with a unit of that family or none.  Sets *base (in the family's base
 * unit) and *ulp_base.  Returns 0, or -1 with *err set (static text).
 */
static int stated_number(const char *s, enum fam fam, double bare_scale, double *base, double *ulp_base,
			 const char **err)
{
	struct num n;
	if (!parse_num(s, &n) || n.len != strlen(s)) {
		*err = "is not a number (with an optional unit: 321us, 1.4x)";
		return -1;
	}
	if (n.u && n.u->fam != fam) {
		*err = fam_names[fam];
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
		finding(a, m->line, "error", "claim '%s': %s='%s' has a unit of another kind; it should be %s",
			m->name, key, md_attr(m, key), err);
	else
		finding(a, m->line, "error", "claim '%s': %s='%s' %s", m->name, key, md_attr(m, key), err);
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
	if (!parse_num(tol, &n) || n.len != strlen(tol) || n.v <= 0 ||
	    (n.u && n.u->fam != F_PCT && n.u->fam != fam)) {
		finding(a, m->line, "error",
			"claim '%s': tol='%s' is not a positive percentage (5%%) or amount of %s (docs/paper.md)", m->name,
			tol, fam_names[fam]);
		return -1;
	}
	if (n.u && n.u->fam == F_PCT) {
		if (n.v > AUDIT_TOL_CAP_PCT) {
			finding(a, m->line, "error",
				"claim '%s': tol=%s is wider than the %g%% a claim may allow; state the value the record holds, or drop tol to use its 95%% CI (docs/paper.md)",
				m->name, tol, AUDIT_TOL_CAP_PCT);
			return -1;
		}
		*pct = n.v;
		return 0;
	}
	*amount = n.v * (n.u ? n.u->scale : 1);
	if (*amount > AUDIT_TOL_CAP_PCT / 100 * fabs(stated)) {
		finding(a, m->line, "error",
			"claim '%s': tol=%s is more than %g%% of the stated value; state the value the record holds, or drop tol to use its 95%% CI (docs/paper.md)",
			m->name, tol, AUDIT_TOL_CAP_PCT);
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
		json_t *r = qj_find(a->q, pin);
		runs = json_array();
		if (r && !strcmp(rec_variant(r), v))
			json_array_append(runs, r);
	} else {
		runs = qj_variant_runs(a->q, e, v);
	}
	struct strbuf why = STRBUF_INIT, fails = STRBUF_INIT, ran = STRBUF_INIT, head = STRBUF_INIT,
		      detail = STRBUF_INIT;
	strbuf_addf(&head, "validated %s/%s", e, v);
	if (!json_array_size(runs)) {
		finding(a, m->line, "unsupported", "%s: no recorded run%s", head.buf,
			pin && strcmp(pin, "latest") ? " with that run id" : "");
		goto out;
	}
	/* evidence: the runs of the current code, else those of the newest recorded code */
	int stale = 1;
	size_t i;
	json_t *r;
	json_array_foreach(runs, i, r)
	{
		struct strbuf w = STRBUF_INIT;
		if (qj_sources_current(r, &w))
			stale = 0;
		else if (!i)
			strbuf_addstr(&why, strbuf_str(&w));
		strbuf_release(&w);
	}
	json_t *newest = json_array_get(runs, 0), *pass = NULL;
	size_t n_ev = 0, n_fail = 0;
	json_array_foreach(runs, i, r)
	{
		struct strbuf w = STRBUF_INIT;
		int in = stale ? runs_same_code(r, newest) : qj_sources_current(r, &w);
		strbuf_release(&w);
		if (!in)
			continue;
		n_ev++;
		struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
		if (run_checks_passed(r, &ok, &bad)) {
			if (!pass) {
				pass = r;
				strbuf_addstr(&ran, strbuf_str(&ok));
			}
		} else if (n_fail++ < 3) {
			strbuf_addf(&fails, "%srun %s: %s", n_fail > 1 ? "; " : "", rec_run_id(r), strbuf_str(&bad));
		}
		strbuf_release(&ok);
		strbuf_release(&bad);
	}
	const char *code = stale ? "the last recorded code" : "the current source";
	if (n_fail)
		strbuf_addf(&detail, "%zu of %zu run(s) of %s failed a check: %s%s", n_fail, n_ev, code,
			    fails.buf, n_fail > 3 ? "; ..." : "");
	else
		strbuf_addf(&detail, "%zu run(s) of %s passed every check that ran: %s (latest %s)", n_ev, code,
			    ran.buf, rec_run_id(pass));
	char *last = xstrfmt("run %s", rec_run_id(newest));
	conclude(a, m, !n_fail, stale, head.buf, detail.buf, strbuf_str(&why), last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&fails);
	strbuf_release(&ran);
	strbuf_release(&head);
	strbuf_release(&detail);
	json_decref(runs);
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

/* The batches a claim may read: the pinned one, or all of experiment with rows for names (newest first). */
static json_t *claim_batches(struct actx *a, const char *e, const char *pin, const char *const *names,
			     struct strbuf *why)
{
	json_t *batches;
	if (pin && strcmp(pin, "latest")) {
		json_t *b = qj_batch(a->q, e, pin, names, why);
		batches = json_array();
		if (b)
			json_array_append(batches, b);
	} else {
		batches = qj_batches(a->q, e, names);
		if (!json_array_size(batches))
			qj_batch(a->q, e, "latest", names, why);
	}
	return batches;
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
	const char *stated = md_attr(m, "speedup"), *tol = md_attr(m, "tol");
	const char *need[] = { va, vb, NULL };
	struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT, head = STRBUF_INIT;
	double *xa = NULL, *xb = NULL, sv = 0, sulp = 0, pct = -1, amount = 0;
	size_t na = 0, nb = 0;
	json_t *batches = NULL;
	strbuf_addf(&head, "%s %s vs %s", m->name, va, vb);
	if (tol && !stated) {
		finding(a, m->line, "error", "claim '%s': tol= needs speedup=X to apply to", m->name);
		goto out;
	}
	if (stated) {
		const char *err;
		int rc = stated_number(stated, F_RATIO, 1, &sv, &sulp, &err);
		if (rc < 0) {
			stated_error(a, m, "speedup", rc, err);
			goto out;
		}
		if (tol && claim_tol(a, m, F_RATIO, sv, &pct, &amount) < 0)
			goto out;
	}
	batches = claim_batches(a, e, md_attr(m, "run"), need, &why);
	if (!json_array_size(batches)) {
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	json_t *b = evidence_batch(a, batches, need, &stale, &why);
	json_t *ra = qj_row(b, va), *rb = qj_row(b, vb);
	const char *bid = rec_run_id(b);
	char *last = xstrfmt("batch %s", bid);
	for (int k = 0; k < 2; k++) {
		json_t *row = k ? rb : ra;
		const char *oc = rec_outcome(row);
		if (!oc || strcmp(oc, "ok")) {
			strbuf_addf(&msg, "%s did not run cleanly: ", k ? vb : va);
			describe_failure(&msg, row);
			strbuf_addf(&msg, " (run %s, batch %s)", rec_run_id(row), bid);
			conclude(a, m, 0, stale, head.buf, msg.buf, why.buf, last);
			free(last);
			goto out;
		}
	}
	const char *base = rec_baseline(b);
	const char *verdict = NULL, *how = "Holm-adjusted over the sweep";
	double sp = NAN, ci[2] = { NAN, NAN };
	struct stats_comparison sc;
	if (base && !strcmp(base, vb) && row_comparison(ra, &verdict, &sp, ci)) {
		/* as recorded */
	} else if (base && !strcmp(base, va) && row_comparison(rb, &verdict, &sp, ci)) {
		double lo = ci[0];
		verdict = invert_verdict(verdict);
		sp = 1 / sp;
		ci[0] = 1 / ci[1];
		ci[1] = 1 / lo;
	} else { /* neither is the baseline: compare their samples directly */
		struct stats_opts so = STATS_OPTS_INIT;
		if (qj_samples(a->q, qj_row_run(a->q, ra), &xa, &na) < 0 ||
		    qj_samples(a->q, qj_row_run(a->q, rb), &xb, &nb) < 0 || !na || !nb ||
		    stats_compare(xb, nb, xa, na, &so, &sc) < 0) {
			finding(a, m->line, "unsupported", "%s: the samples of batch %s cannot be compared", head.buf,
				bid);
			free(last);
			goto out;
		}
		verdict = sc.verdict;
		sp = sc.speedup;
		ci[0] = sc.speedup_ci[0];
		ci[1] = sc.speedup_ci[1];
		how = "two-sided Mann-Whitney, not adjusted";
	}
	strbuf_addf(&msg, "speedup of %s over %s %.3fx [%.3f, %.3f], verdict %s (%s; runs %s, %s)", va, vb, sp,
		    ci[0], ci[1], verdict ? verdict : "none", how, rec_run_id(ra), rec_run_id(rb));
	int agrees = verdict && !strcmp(verdict, want);
	if (agrees && stated) {
		double lo = ci[0] - sulp, hi = ci[1] + sulp;
		if (tol) {
			double t = pct >= 0 ? pct / 100 * sp : amount;
			lo = sp - t;
			hi = sp + t;
		}
		if (!(sv >= lo && sv <= hi)) {
			struct strbuf s2 = STRBUF_INIT;
			strbuf_addf(&s2, "stated speedup %s lies outside %s [%.3f, %.3f]; %s", stated,
				    tol ? "the tolerance" : "the 95% CI", lo, hi, msg.buf);
			strbuf_reset(&msg);
			strbuf_addstr(&msg, s2.buf);
			strbuf_release(&s2);
			agrees = 0;
		}
	}
	conclude(a, m, agrees, stale, head.buf, msg.buf, why.buf, last);
	free(last);
out:
	free(xa);
	free(xb);
	strbuf_release(&why);
	strbuf_release(&msg);
	strbuf_release(&head);
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
	struct strbuf why = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	json_t *batches = NULL;
	char *last = NULL;
	double stated, ulp, pct = -1, amount = 0, scale;
	const char *err;
	if (!qj_stat_known(stat)) {
		finding(a, m->line, "error", "claim 'value': unknown stat '%s' (known: %s)", stat, qj_stat_names);
		goto out;
	}
	enum fam fam = stat_fam(stat, &scale);
	int rc = stated_number(sval, fam, scale, &stated, &ulp, &err);
	if (rc < 0) {
		stated_error(a, m, "value", rc, err);
		goto out;
	}
	if (tol && claim_tol(a, m, fam, stated, &pct, &amount) < 0)
		goto out;
	strbuf_addf(&head, "value %s/%s %s=%s", e, vn, stat, sval);
	json_t *b = NULL, *row = NULL, *run = NULL;
	int stale = 0;
	if (pin && strcmp(pin, "latest")) {
		if (qj_resolve(a->q, e, vn, pin, &b, &row, &run, &why) < 0) {
			finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		stale = !run || !qj_sources_current(run, &why);
		last = xstrfmt("run %s", rec_run_id(row));
	} else {
		const char *need[] = { vn, NULL };
		batches = claim_batches(a, e, NULL, need, &why);
		if (!json_array_size(batches)) {
			finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		strbuf_reset(&why);
		b = evidence_batch(a, batches, need, &stale, &why);
		row = qj_row(b, vn);
		run = qj_row_run(a->q, row);
		last = xstrfmt("batch %s", rec_run_id(b));
	}
	const char *oc = rec_outcome(row);
	if ((!oc || strcmp(oc, "ok")) && strcmp(stat, "max_abs_err") && strcmp(stat, "usd") && strcmp(stat, "gpu_s")) {
		strbuf_addstr(&detail, "the variant ");
		describe_failure(&detail, row);
		strbuf_addf(&detail, " (run %s)", rec_run_id(row));
		conclude(a, m, 0, stale, head.buf, detail.buf, why.buf, last);
		goto out;
	}
	double v, ci[2];
	int have_ci;
	const char *kind;
	struct strbuf w2 = STRBUF_INIT;
	if (qj_stat(b, row, run, stat, &v, ci, &have_ci, &kind, &w2) < 0) {
		finding(a, m->line, "unsupported", "%s: %s (run %s)", head.buf, w2.buf, rec_run_id(row));
		strbuf_release(&w2);
		goto out;
	}
	strbuf_release(&w2);
	double lo, hi;
	const char *rule;
	if (tol) {
		double t = pct >= 0 ? pct / 100 * fabs(v) : amount / scale;
		lo = v - t;
		hi = v + t;
		rule = "the stated tolerance";
	} else if (have_ci) {
		lo = ci[0] - ulp / scale;
		hi = ci[1] + ulp / scale;
		rule = "the 95% CI";
	} else {
		lo = v - ulp / scale;
		hi = v + ulp / scale;
		rule = "the precision written";
	}
	double want = stated / scale;
	int agrees = want >= lo && want <= hi;
	strbuf_addf(&detail, "recorded %.6g, %s %s [%.6g, %.6g] (run %s)", v, agrees ? "within" : "outside", rule, lo,
		    hi, rec_run_id(row));
	conclude(a, m, agrees, stale, head.buf, detail.buf, why.buf, last);
out:
	free(last);
	strbuf_release(&why);
	strbuf_release(&head);
	strbuf_release(&detail);
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
	const char *need[] = { vn, NULL };
	const char *const *names = vn ? need : NULL;
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	strbuf_addf(&head, "measured-on %s \"%s\"", e, gpu);
	json_t *batches = claim_batches(a, e, md_attr(m, "run"), names, &why);
	if (!json_array_size(batches)) {
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	json_t *b = evidence_batch(a, batches, names, &stale, &why);
	size_t i;
	json_t *row;
	int n = 0, bad = 0;
	char *first_dev = NULL;
	json_array_foreach(rec_rows(b), i, row)
	{
		if (vn && strcmp(vn, rec_variant(row)))
			continue;
		json_t *run = qj_row_run(a->q, row);
		char *dev = run ? qj_device_name(run) : xstrdup("unknown device");
		n++;
		if (!contains_ci(dev, gpu) && bad++ < 3)
			strbuf_addf(&other, "%s%s ran on %s (run %s)", other.len ? "; " : "", rec_variant(row), dev,
				    rec_run_id(row));
		if (!first_dev)
			first_dev = dev;
		else
			free(dev);
	}
	if (bad)
		strbuf_addf(&detail, "%s (batch %s)", other.buf, rec_run_id(b));
	else
		strbuf_addf(&detail, "%d run(s) on %s (batch %s)", n, first_dev ? first_dev : "?", rec_run_id(b));
	free(first_dev);
	char *last = xstrfmt("batch %s", rec_run_id(b));
	conclude(a, m, !bad, stale, head.buf, detail.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&other);
	strbuf_release(&head);
	strbuf_release(&detail);
	json_decref(batches);
}

/* setting: a protocol setting (seeds, samples, warm-up, ...) as every run of the evidence recorded it */
static void claim_setting(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "key", "value", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "key", "value", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *key = md_attr(m, "key"), *sval = md_attr(m, "value");
	const char *vn = md_attr(m, "variant");
	const struct setting *s = setting_find(key);
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	json_t *batches = NULL;
	double stated = 0, ulp;
	if (!s) {
		finding(a, m->line, "error", "claim 'setting': unknown key '%s' (known: %s)", key, setting_names);
		goto out;
	}
	if (!s->is_string) {
		const char *err;
		int rc = stated_number(sval, s->fam, s->scale, &stated, &ulp, &err);
		if (rc < 0) {
			stated_error(a, m, "value", rc, err);
			goto out;
		}
	}
	strbuf_addf(&head, "setting %s%s%s %s=%s", e, vn ? "/" : "", vn ? vn : "", key, sval);
	const char *need[] = { vn, NULL };
	const char *const *names = vn ? need : NULL;
	batches = claim_batches(a, e, md_attr(m, "run"), names, &why);
	if (!json_array_size(batches)) {
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	json_t *b = evidence_batch(a, batches, names, &stale, &why);
	size_t i;
	json_t *row;
	int n = 0, bad = 0;
	struct strbuf rec = STRBUF_INIT;
	json_array_foreach(rec_rows(b), i, row)
	{
		if (vn && strcmp(vn, rec_variant(row)))
			continue;
		json_t *run = qj_row_run(a->q, row);
		double num = 0;
		const char *str = "";
		if (!run || !run_setting(run, s, &num, &str))
			continue; /* it stopped before that setting applied (a crash before timing) */
		if (!n++) {
			if (s->is_string)
				strbuf_addstr(&rec, str);
			else
				strbuf_addf(&rec, "%g", num);
		}
		int same = s->is_string ? !strcmp(str, sval) : same_number(num * s->scale, stated);
		if (!same && bad++ < 3) {
			strbuf_addf(&other, "%s%s recorded ", other.len ? "; " : "", rec_variant(row));
			if (s->is_string)
				strbuf_addstr(&other, str);
			else
				strbuf_addf(&other, "%g", num);
			strbuf_addf(&other, " (run %s)", rec_run_id(row));
		}
	}
	if (!n) {
		finding(a, m->line, "unsupported", "%s: no run of batch %s recorded '%s'", head.buf, rec_run_id(b), key);
		strbuf_release(&rec);
		goto out;
	}
	if (bad)
		strbuf_addf(&detail, "%d of %d run(s) recorded another value: %s%s (batch %s)", bad, n, other.buf,
			    bad > 3 ? "; ..." : "", rec_run_id(b));
	else
		strbuf_addf(&detail, "%d run(s) recorded %s=%s (batch %s)", n, key, rec.buf, rec_run_id(b));
	strbuf_release(&rec);
	char *last = xstrfmt("batch %s", rec_run_id(b));
	conclude(a, m, !bad, stale, head.buf, detail.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&other);
	strbuf_release(&head);
	strbuf_release(&detail);
	json_decref(batches);
}

/* ---------- untraced numbers ---------- */

/* A quantity a claim states, which a number in its paragraph may be. */
struct qty {
	enum fam fam;
	double base;             /* in the family's base unit */
	double bare_scale;       /* from a number written without a unit */
	const char *name;        /* statistic ("median_us") or setting leaf ("samples") */
};

/* The quantity claim m states (value=, speedup=, a numeric setting's value=); 0 when none. */
static int claim_qty(const struct md_marker *m, struct qty *q)
{
	const char *err, *s;
	double ulp;
	if (!strcmp(m->name, "value") && (s = md_attr(m, "value")) && md_attr(m, "stat")) {
		q->name = md_attr(m, "stat");
		q->fam = stat_fam(q->name, &q->bare_scale);
	} else if ((!strcmp(m->name, "faster") || !strcmp(m->name, "slower") || !strcmp(m->name, "no-difference") ||
		    !strcmp(m->name, "no_difference")) && (s = md_attr(m, "speedup"))) {
		q->name = "speedup";
		q->fam = F_RATIO;
		q->bare_scale = 1;
	} else if (!strcmp(m->name, "setting") && (s = md_attr(m, "value")) && md_attr(m, "key") &&
		   setting_find(md_attr(m, "key")) && !setting_find(md_attr(m, "key"))->is_string) {
		const struct setting *st = setting_find(md_attr(m, "key"));
		q->name = setting_leaf(st);
		q->fam = st->fam;
		q->bare_scale = st->scale;
	} else {
		return 0;
	}
	return stated_number(s, q->fam, q->bare_scale, &q->base, &ulp, &err) == 0;
}

/* Is name a statistic or a setting leaf, i.e. does code "NAME: N" say which quantity N is? */
static int quantity_name(const char *name)
{
	if (qj_stat_known(name))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++)
		if (!strcmp(setting_leaf(&settings[i]), name))
			return 1;
	return 0;
}

/* A number found in the text, with what the text says about its quantity. */
struct found {
	struct num n;
	const struct unit *u;    /* its own unit, else its table column's; NULL: none */
	const char *key;         /* code "KEY: N": KEY (NUL-terminated copy in keybuf) */
	char keybuf[64];
};

static int qty_matches(const struct found *f, const struct qty *q)
{
	double nb;
	if (f->key && quantity_name(f->key)) {
		if (strcmp(f->key, q->name))
			return 0;
		if (f->u && f->u->fam != q->fam)
			return 0;
		nb = f->n.v * (f->u ? f->u->scale : q->bare_scale);
	} else if (f->u) {
		if (f->u->fam != q->fam)
			return 0;
		nb = f->n.v * f->u->scale;
	} else {
		if (q->fam != F_NONE && q->fam != F_SEEDS && q->fam != F_SAMPLES)
			return 0; /* a bare number says nothing of a time or a ratio */
		nb = f->n.v;
	}
	return same_number(nb, q->base);
}

struct scan {
	struct actx *a;
	const struct md_doc *d;
	unsigned char *skip;     /* generated blocks, link targets, URLs */
	int *para;               /* paragraph number of each byte */
	unsigned char *col;      /* table body bytes: 1 + index into units[] of their column's unit */
};

static int covered(const struct scan *s, size_t at, const struct found *f)
{
	for (size_t k = 0; k < s->d->n; k++) {
		const struct md_marker *m = &s->d->mk[k];
		struct qty q;
		if (m->kind != MD_CLAIM || s->a->malformed[k] || s->para[m->start] != s->para[at])
			continue;
		if (claim_qty(m, &q) && qty_matches(f, &q))
			return 1;
	}
	return 0;
}

/* The code point of the UTF-8 character that ends just before t[i], and its first byte in *start. */
static unsigned cp_before(const char *t, size_t i, size_t *start)
{
	size_t j = i - 1;
	while (j > 0 && i - j < 4 && ((unsigned char)t[j] & 0xC0) == 0x80)
		j--;
	*start = j;
	const unsigned char *p = (const unsigned char *)t + j;
	if (*p < 0x80)
		return *p;
	if ((*p & 0xE0) == 0xC0 && i - j == 2)
		return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
	if ((*p & 0xF0) == 0xE0 && i - j == 3)
		return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
	if ((*p & 0xF8) == 0xF0 && i - j == 4)
		return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
	return 0xFFFD;
}

/* A letter of a script that glues digits into names (Latin, Greek, Cyrillic), not a symbol. */
static int is_letter_cp(unsigned c)
{
	if (c < 0x80)
		return isalnum((int)c) || c == '_';
	if (c == 0xB5) /* µ */
		return 1;
	if (c >= 0xC0 && c <= 0x24F)
		return c != 0xD7 && c != 0xF7; /* × ÷ are symbols */
	return (c >= 0x370 && c <= 0x3FF) || (c >= 0x400 && c <= 0x52F) || (c >= 0x1E00 && c <= 0x1FFF);
}

/*
 * Is the digit at t[i] part of a name ("fp16", "sm_90", "H100", "B=4",
 * "v1.2", "#3", "S_FP16-0", "β2")?  A number starts after anything else:
 * a space, punctuation, or a symbol such as ≈ ~ → − ×.
 */
static int glued_to_name(const char *t, size_t i)
{
	if (!i)
		return 0;
	size_t st;
	unsigned c = cp_before(t, i, &st);
	if (c == '.' || c == '/' || c == '=' || c == '#')
		return 1;
	if (c == '-' || c == 0x2212) { /* a minus, or a hyphen inside a name */
		if (!st)
			return 0;
		size_t st2;
		return is_letter_cp(cp_before(t, st, &st2));
	}
	return is_letter_cp(c);
}

/* Code "KEY: N" or "\"KEY\": N" before t[i]: copies KEY into f->keybuf. */
static void code_key(const char *t, size_t i, struct found *f)
{
	size_t j = i;
	while (j > 0 && t[j - 1] == ' ')
		j--;
	if (!j || t[j - 1] != ':')
		return;
	j--;
	if (j > 0 && (t[j - 1] == '"' || t[j - 1] == '\''))
		j--;
	size_t e = j;
	while (j > 0 && is_name_byte((unsigned char)t[j - 1]))
		j--;
	if (j == e || isdigit((unsigned char)t[j]) || e - j >= sizeof(f->keybuf))
		return;
	memcpy(f->keybuf, t + j, e - j);
	f->keybuf[e - j] = '\0';
	f->key = f->keybuf;
}

/* Info strings of fenced blocks that hold program output, where bare decimals are results. */
static int output_fence(const struct md_fence *fe)
{
	static const char *const out[] = { "", "text", "txt", "console", "output", "log", "plain", "terminal" };
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		if (!strcasecmp(fe->info, out[i]))
			return 1;
	return 0;
}

static size_t line_start(const char *t, size_t i)
{
	while (i > 0 && t[i - 1] != '\n')
		i--;
	return i;
}

static size_t line_end(const char *t, size_t len, size_t i)
{
	while (i < len && t[i] != '\n')
		i++;
	return i;
}

/* A table's delimiter row: |---|:---:|, with at least one '-' and one '|'. */
static int delimiter_row(const char *t, size_t s, size_t e)
{
	int dash = 0, pipe = 0;
	for (size_t i = s; i < e; i++) {
		if (t[i] == '-')
			dash = 1;
		else if (t[i] == '|')
			pipe = 1;
		else if (t[i] != ':' && t[i] != ' ' && t[i] != '\t')
			return 0;
	}
	return dash && pipe;
}

/* 1 + index into units[] of the unit a table header cell names as a word ("median us", "time (ms)"), or 0. */
static unsigned char header_unit(const char *t, size_t s, size_t e)
{
	for (size_t j = s; j < e; j++) {
		char pc = j == s ? ' ' : t[j - 1];
		if (pc != ' ' && pc != '(' && pc != '[')
			continue;
		for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
			size_t ul = strlen(units[u].text);
			if (j + ul > e || strncmp(t + j, units[u].text, ul))
				continue;
			unsigned char next = j + ul < e ? (unsigned char)t[j + ul] : ' ';
			if (!is_name_byte(next) && next < 0x80)
				return (unsigned char)(u + 1);
		}
		if (t[j] == '$' && (j + 1 == e || t[j + 1] == ')' || t[j + 1] == ']' || t[j + 1] == ' '))
			return (unsigned char)(ARRAY_SIZE(units) + 1);
	}
	return 0;
}

/* Marks the body cells of every markdown table with the unit its column header names. */
static void mark_tables(struct scan *s)
{
	const char *t = s->d->text;
	size_t len = s->d->len;
	for (size_t ls = 0; ls < len;) {
		size_t le = line_end(t, len, ls);
		size_t ns = le + 1 < len ? le + 1 : len, ne = line_end(t, len, ns);
		if (s->d->mask[ls] != MD_TEXT || s->skip[ls] || !memchr(t + ls, '|', le - ls) || ns >= len ||
		    !delimiter_row(t, ns, ne)) {
			ls = le + 1;
			continue;
		}
		unsigned char cu[64] = { 0 };
		size_t nc = 0, cs = ls;
		/* header cells, split at '|' */
		while (cs < le && t[cs] == ' ')
			cs++;
		if (cs < le && t[cs] == '|')
			cs++;
		for (size_t j = cs; j <= le && nc < ARRAY_SIZE(cu); j++)
			if (j == le || (t[j] == '|' && t[j - 1] != '\\')) {
				cu[nc++] = header_unit(t, cs, j);
				cs = j + 1;
			}
		/* body rows until a line without '|' */
		size_t bs = ne + 1;
		while (bs < len) {
			size_t be = line_end(t, len, bs);
			if (be == bs || !memchr(t + bs, '|', be - bs))
				break;
			size_t c = 0, j = bs;
			while (j < be && t[j] == ' ')
				j++;
			if (j < be && t[j] == '|')
				j++;
			for (; j < be; j++) {
				if (t[j] == '|' && t[j - 1] != '\\' && s->d->mask[j] == MD_TEXT) {
					c++;
					continue;
				}
				if (c < nc)
					s->col[j] = cu[c];
			}
			bs = be + 1;
		}
		ls = bs;
	}
}

static void scan_number(struct scan *s, size_t *pi)
{
	const struct md_doc *d = s->d;
	const char *t = d->text;
	size_t i = *pi, start = i;
	struct found f;
	memset(&f, 0, sizeof(f));
	if (glued_to_name(t, i)) {
		while (i + 1 < d->len && (is_name_byte((unsigned char)t[i + 1]) || t[i + 1] == '.'))
			i++;
		*pi = i;
		return; /* fp16, sm_90, v1.2, B=4, H100 */
	}
	/* a minus sign or a dollar before it belongs to the number as written */
	int dollar = i > 0 && t[i - 1] == '$';
	if (dollar || (i > 0 && t[i - 1] == '-'))
		start = i - 1;
	else if (i >= 3 && minus_len(t + i - 3) == 3) /* − */
		start = i - 3;
	size_t end = i + parse_num(t + i, &f.n);
	if (start < i && !dollar)
		f.n.v = -f.n.v;
	if (end < d->len && t[end] == '.' && end + 1 < d->len && isdigit((unsigned char)t[end + 1])) {
		while (end < d->len && (isdigit((unsigned char)t[end]) || t[end] == '.'))
			end++;
		*pi = end - 1;
		return; /* 13.0.88: a version */
	}
	if (!f.n.u && end < d->len && is_name_byte((unsigned char)t[end])) {
		while (end < d->len && is_name_byte((unsigned char)t[end]))
			end++;
		*pi = end - 1;
		return; /* 3rd, 2D, 64KiBx: a name */
	}
	*pi = end - 1;
	unsigned char region = d->mask[i];
	f.u = dollar ? &unit_dollar : f.n.u;
	if (!f.u && s->col[i])
		f.u = s->col[i] <= ARRAY_SIZE(units) ? &units[s->col[i] - 1] : &unit_dollar;
	if (f.u && f.u->fam == F_PCT && f.n.u) { /* "95% CI", "95% confidence": a method setting, not a result */
		const char *after = t + i + f.n.len;
		while (isspace((unsigned char)*after))
			after++;
		if (!strncmp(after, "CI", 2) || !strncasecmp(after, "confidence", 10) || !strncasecmp(after, "bootstrap", 9))
			f.u = NULL;
	}
	int flagged = f.u != NULL, lone = 0;
	if (region == MD_CODE || region == MD_FENCE) {
		code_key(t, start, &f);
		flagged |= f.key != NULL;
	}
	if (region == MD_CODE) { /* a code span that is only this number: a quoted figure */
		size_t b = start, e = end;
		while (b > 0 && t[b - 1] == ' ')
			b--;
		while (e < d->len && t[e] == ' ')
			e++;
		lone = b > 0 && t[b - 1] == '`' && e < d->len && t[e] == '`';
		flagged |= lone;
	}
	if (region == MD_FENCE) {
		const struct md_fence *fe = md_fence_at(d, i);
		flagged |= fe && output_fence(fe) && f.n.decimal;
	}
	if (!flagged || covered(s, i, &f))
		return;
	struct strbuf where = STRBUF_INIT;
	if (f.u && !f.n.u && !dollar)
		strbuf_addf(&where, " (unit '%s' from its table column)", f.u->text);
	else if (f.key)
		strbuf_addf(&where, " (named '%s' in code)", f.key);
	else if (lone)
		strbuf_addstr(&where, " (a figure quoted as code)");
	else if (region == MD_FENCE && !f.u)
		strbuf_addstr(&where, " (a decimal in program output)");
	finding(s->a, md_line_of(d, i), "untraced",
		"'%.*s'%s is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)",
		(int)(end - start), t + start, strbuf_str(&where));
	strbuf_release(&where);
}

static void scan_untraced(struct actx *a, struct md_doc *d)
{
	const char *t = d->text;
	size_t len = d->len;
	struct scan s = { a, d, xcalloc(len + 1, 1), xcalloc(len + 1, sizeof(int)), xcalloc(len + 1, 1) };
	/* generated regions: an opening marker up to its closing marker */
	for (size_t i = 0; i < d->n; i++) {
		if (d->mk[i].kind != MD_OPEN)
			continue;
		long c = md_find_close(d, i);
		size_t end = c < 0 ? d->mk[i].end : d->mk[c].end;
		memset(s.skip + d->mk[i].start, 1, end - d->mk[i].start);
	}
	/* link targets and bare URLs */
	for (size_t i = 0; i + 1 < len; i++) {
		if (t[i] == ']' && t[i + 1] == '(') {
			size_t j = i + 2;
			while (j < len && t[j] != ')' && t[j] != '\n')
				j++;
			memset(s.skip + i, 1, j - i);
		} else if (!strncmp(t + i, "http://", 7) || !strncmp(t + i, "https://", 8)) {
			size_t j = i;
			while (j < len && !isspace((unsigned char)t[j]) && t[j] != ')' && t[j] != '`')
				j++;
			memset(s.skip + i, 1, j - i);
		}
	}
	/* paragraphs: separated by blank lines */
	int p = 0;
	for (size_t i = 0; i < len; i++) {
		s.para[i] = p;
		if (t[i] == '\n') {
			size_t j = i + 1;
			while (j < len && (t[j] == ' ' || t[j] == '\t'))
				j++;
			if (j >= len || t[j] == '\n')
				p++;
		}
	}
	mark_tables(&s);
	for (size_t i = 0; i < len; i++) {
		if (d->mask[i] == MD_COMMENT || s.skip[i] || !isdigit((unsigned char)t[i]))
			continue;
		if (d->mask[i] == MD_FENCE) { /* not the fence lines themselves */
			const struct md_fence *fe = md_fence_at(d, i);
			if (fe && (line_start(t, i) == fe->start || line_end(t, len, i) == fe->end))
				continue;
		}
		scan_number(&s, &i);
	}
	free(s.skip);
	free(s.para);
	free(s.col);
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

int audit_text(struct qj *q, const char *file, const char *text, size_t len,
	       const struct audit_opts *o, struct strbuf *out, struct audit_counts *c)
{
	struct md_doc d = MD_DOC_INIT;
	struct strbuf mine = STRBUF_INIT;
	struct actx a = { q, file, o, &mine, c, NULL, 0 };
	if (md_parse(&d, file, text, len) < 0) {
		finding(&a, 1, "error", "the markers of this file do not parse (see the error above); nothing was audited");
		goto out;
	}
	a.malformed = xcalloc(d.n + 1, 1);
	for (size_t i = 0; i < d.n; i++) {
		const struct md_marker *m = &d.mk[i];
		if (m->kind != MD_CLAIM)
			continue;
		a.cur = i;
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
		else if (!strcmp(m->name, "setting"))
			claim_setting(&a, m);
		else
			finding(&a, m->line, "error",
				"unknown claim '%s' (known: validated, faster, slower, no-difference, value, measured-on, setting)",
				m->name);
	}
	if (o->untraced)
		scan_untraced(&a, &d);
out:
	sorted_findings(file, &mine, out);
	strbuf_release(&mine);
	free(a.malformed);
	md_release(&d);
	return 0;
}
