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
 *                 since (a hash of its kernel's code.sources[] or its
 *                 problem's problem.sources[] differs: query.h);
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
 * Records are read only through query.h and the typed structs and named
 * readers of record.h ("what a record says" below): `validated` judges a
 * run by its checks grouped by phase (seeds, timed launches, the extra
 * shape and its status, v1's re-check), the float64 reference check when
 * recorded, and its sanitizers; `setting` claims name a knob of the spec
 * (backends/knobs.h) and read what ran with record_run_setting; values are
 * record_stat's, the same numbers paper, show and export print.
 */
#include "report/audit.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backends/knobs.h"
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
 * The unit family of statistic stat (record.h's table, docs/paper.md
 * "Statistics") and the factor from its recorded value to the family's
 * base unit (gpu_s is recorded in seconds, times in us).
 */
static enum fam stat_fam(const char *stat, double *scale)
{
	const struct stat_def *d = record_stat_def(stat);
	*scale = 1;
	switch (d ? d->kind : STAT_PLAIN) {
	case STAT_TIME:
		return F_TIME;
	case STAT_RATIO:
		return F_RATIO;
	case STAT_FLOPS:
		*scale = !strcmp(stat, "tflops") ? 1e3 : 1;
		return F_FLOPS;
	case STAT_BW:
		return F_BW;
	case STAT_USD:
		return F_USD;
	case STAT_P:
		return F_NONE;
	case STAT_PLAIN:
		break;
	}
	if (!strcmp(stat, "gpu_s")) {
		*scale = 1e6;
		return F_TIME;
	}
	if (!strcmp(stat, "n"))
		return F_SAMPLES;
	return F_NONE; /* delta, repeats, max_abs_err */
}

/* ---------- what a record says ----------
 * Every fact of a record comes from its typed struct (record.h) and the
 * named readers there; this file spells no key of a record. */

static const char *id_or(const char *id)
{
	return id ? id : "?";
}

static const char *name_or(const char *v)
{
	return v ? v : "";
}

/* The batch's recorded comparison of row against its baseline; 0 when the row has none. */
static int row_comparison(const struct batch_row *row, const char **verdict, double *speedup, double ci[2])
{
	if (!row->have_cmp)
		return 0;
	*verdict = row->cmp.verdict;
	*speedup = row->cmp.speedup;
	ci[0] = row->cmp.speedup_ci[0];
	ci[1] = row->cmp.speedup_ci[1];
	return 1;
}

/* "crashed (its reason)" */
static void describe_failure(struct strbuf *sb, const char *oc, const char *why)
{
	strbuf_addstr(sb, oc ? oc : "no outcome");
	if (why) {
		strbuf_addstr(sb, " (");
		for (const char *p = why; *p && p - why < 160; p++)
			strbuf_addch(sb, *p == '\n' ? ' ' : *p);
		strbuf_addstr(sb, strlen(why) > 160 ? "...)" : ")");
	}
}

static void list_add(struct strbuf *sb, const char *what)
{
	strbuf_addstr(sb, sb->len ? ", " : "");
	strbuf_addstr(sb, what);
}

/*
 * How `validated` names the checks of a phase (record_check_phases): the
 * phases evident knows, in this order, then any other phase a record
 * carries, by its own name ("'PHASE' check"), so that a check added
 * after this file that fails is never ignored.
 */
static const struct {
	const char *phase, *label; /* label: "%zu" is the number of checks */
} phase_labels[] = {
	{ "seed", "%zu seeds" },
	{ "timed", "%zu timed launches" },
	{ "shape", "extra shape" },
	{ "recheck", "re-check after timing" },
};

static char *phase_label(const struct rec_phase *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(phase_labels); i++)
		if (!strcmp(phase_labels[i].phase, p->phase))
			return strstr(phase_labels[i].label, "%zu") ? xstrfmt(phase_labels[i].label, p->n)
								     : xstrdup(phase_labels[i].label);
	return xstrfmt("'%s' check", p->phase);
}

static int phase_rank(const char *phase)
{
	for (size_t i = 0; i < ARRAY_SIZE(phase_labels); i++)
		if (!strcmp(phase_labels[i].phase, phase))
			return (int)i;
	return (int)ARRAY_SIZE(phase_labels);
}

/* one phase: its label into ran, or what failed into why; returns 1 when it failed */
static int check_phase(const struct rec_phase *p, struct strbuf *ran, struct strbuf *why)
{
	char *label = phase_label(p);
	if (!p->failed) {
		list_add(ran, label);
		free(label);
		return 0;
	}
	const struct rec_check *c = p->first_failed;
	struct strbuf at = STRBUF_INIT;
	if (c->seed)
		strbuf_addf(&at, "seed %llu", c->seed);
	if (c->dist)
		strbuf_addf(&at, "%s%s inputs", at.len ? ", " : "", c->dist);
	if (c->sample >= 0)
		strbuf_addf(&at, "%ssample %lld", at.len ? ", " : "", c->sample);
	if (isfinite(c->max_abs_err))
		strbuf_addf(&at, "%smax |err| %.3g", at.len ? ", " : "", c->max_abs_err);
	strbuf_addf(why, "%s: %zu of %zu failed", label, p->failed, p->n);
	if (at.len)
		strbuf_addf(why, " (%s)", at.buf);
	strbuf_release(&at);
	free(label);
	return 1;
}

/*
 * Did every check that run recorded pass?  Its checks by phase (seeds,
 * timed launches, the extra shape, v1's re-check), the extra shape's
 * status, the float64 reference check (when recorded) and every
 * sanitizer.  Returns 1 with the checks that ran listed in ran ("5 seeds,
 * 11 timed launches, extra shape, float64 reference, memcheck"), or 0 with
 * why saying what failed (or that no check ran, or the outcome).
 */
static int run_checks_passed(const struct run_record *r, struct strbuf *ran, struct strbuf *why)
{
	if (r->outcome != OUTCOME_OK) {
		describe_failure(why, r->outcome_text, r->reason);
		return 0;
	}
	int failed = 0, any = 0;
	struct strbuf w = STRBUF_INIT;
	struct rec_phase ph[16];
	size_t np = record_check_phases(r, ph, ARRAY_SIZE(ph));
	int have_shape = 0;
	for (int rank = 0; rank <= (int)ARRAY_SIZE(phase_labels); rank++)
		for (size_t i = 0; i < np; i++) {
			if (phase_rank(ph[i].phase) != rank)
				continue;
			any = 1;
			have_shape |= !strcmp(ph[i].phase, "shape");
			strbuf_reset(&w);
			if (check_phase(&ph[i], ran, &w)) {
				strbuf_addstr(why, failed++ ? "; " : "");
				strbuf_addstr(why, w.buf);
			}
		}
	strbuf_release(&w);
	const char *xs = r->extra_shape_status;
	if (xs && (!strcmp(xs, "specialised") || !strcmp(xs, "failed"))) {
		strbuf_addf(why, "%sextra shape: %s", failed++ ? "; " : "", xs);
		if (r->extra_shape_reason)
			strbuf_addf(why, " (%s)", r->extra_shape_reason);
		any = 1;
	} else if (xs && !strcmp(xs, "checked") && !have_shape) {
		list_add(ran, "extra shape");
		any = 1;
	}
	struct rec_refcheck rc;
	record_reference_check(r, &rc);
	if (rc.have && rc.pass == 1) {
		list_add(ran, "float64 reference");
		any = 1;
	} else if (rc.have) {
		strbuf_addf(why, "%sthe float64 reference check did not pass", failed++ ? "; " : "");
		if (isfinite(rc.rel_l2))
			strbuf_addf(why, " (rel L2 %.3g)", rc.rel_l2);
		else if (rc.why)
			strbuf_addf(why, " (%s)", rc.why);
		any = 1;
	}
	for (size_t i = 0; i < r->n_sanitize; i++) {
		const struct rec_sanitize *z = &r->sanitize[i];
		const char *tool = z->tool ? z->tool : "sanitizer";
		any = 1;
		if (z->passed == 1) {
			list_add(ran, tool);
			continue;
		}
		/* sanitize.c's verdict document says why */
		strbuf_addstr(why, failed++ ? "; " : "");
		const char *ex = json_string_value(json_object_get(z->doc, "exit"));
		if (json_is_true(json_object_get(z->doc, "timed_out")))
			strbuf_addf(why, "%s timed out", tool);
		else if (z->errors > 0)
			strbuf_addf(why, "%s found %lld error(s)", tool, z->errors);
		else
			strbuf_addf(why, "%s did not pass (%s)", tool, ex ? ex : "no verdict");
	}
	if (!failed && !r->correctness_pass) {
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
 * Settings a `setting` claim names: every knob of the spec
 * (backends/knobs.h), as the spec names it ("timing.samples"; a top-level
 * knob by its name, "repeats"); what ran is record_run_setting's.
 */
struct setting {
	const struct knob_def *k;
	char key[64];            /* section.name, or name */
	enum fam fam;
	double scale;            /* recorded value to the family's base unit */
	int is_string;
};

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

static void setting_of(const struct knob_def *k, struct setting *s)
{
	memset(s, 0, sizeof(*s));
	s->k = k;
	if (!strcmp(k->section, "top"))
		snprintf(s->key, sizeof(s->key), "%s", k->name);
	else
		snprintf(s->key, sizeof(s->key), "%s.%s", k->section, k->name);
	s->is_string = k->type == KNOB_ENUM;
	s->fam = F_NONE;
	s->scale = 1;
	if (!strcmp(k->name, "seeds"))
		s->fam = F_SEEDS;
	else if (!strcmp(k->name, "samples"))
		s->fam = F_SAMPLES;
	else if (ends_with(k->name, "_ms"))
		s->fam = F_TIME, s->scale = 1e3;
	else if (ends_with(k->name, "_s") || ends_with(k->name, "_seconds"))
		s->fam = F_TIME, s->scale = 1e6;
}

static int setting_find(const char *key, struct setting *s)
{
	const char *dot = strchr(key, '.');
	char section[32];
	const char *name = dot ? dot + 1 : key;
	snprintf(section, sizeof(section), "%.*s", dot ? (int)(dot - key) : 3, dot ? key : "top");
	if (dot && dot - key >= (long)sizeof(section))
		return 0;
	const struct knob_def *k = knob_find(section, name);
	if (!k)
		return 0;
	setting_of(k, s);
	return 1;
}

/* "correctness.seeds, correctness.atol, ..." for messages */
static const char *setting_names(void)
{
	static char buf[1024];
	if (!buf[0]) {
		size_t n = 0;
		for (size_t i = 0; i < knob_count && n < sizeof(buf); i++) {
			struct setting s;
			setting_of(&knob_defs[i], &s);
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", s.key);
		}
	}
	return buf;
}

/* ---------- findings ---------- */

struct actx {
	struct query *q;
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
				wanted |= !strcmp(names[j], name_or(row->variant));
			if (!wanted)
				continue;
			const struct run_record *run = query_row_run(a->q, row);
			if (!run) {
				strbuf_addf(&w, "run '%s' is missing from the store", id_or(row->run_id));
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

static void claim_validated(struct actx *a, const struct md_marker *m)
{
	static const char *const allowed[] = { "experiment", "variant", "run", NULL };
	static const char *const req[] = { "experiment", "variant", NULL };
	if (keys_ok(a, m, allowed, req) < 0)
		return;
	const char *e = md_attr(m, "experiment"), *v = md_attr(m, "variant"), *pin = md_attr(m, "run");
	const struct run_record **runs;
	struct strbuf why = STRBUF_INIT, fails = STRBUF_INIT, ran = STRBUF_INIT, head = STRBUF_INIT,
		      detail = STRBUF_INIT;
	size_t nr = validated_runs(a, e, v, pin, &runs, &why);
	strbuf_addf(&head, "validated %s/%s", e, v);
	if (!nr) {
		if (why.len)
			finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		else
			finding(a, m->line, "unsupported", "%s: no recorded run%s", head.buf,
				pin && strcmp(pin, "latest") ? " with that run id" : "");
		goto out;
	}
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
	const struct run_record *newest = runs[0], *pass = NULL;
	size_t n_ev = 0, n_fail = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct run_record *r = runs[i];
		struct strbuf w = STRBUF_INIT;
		int in = stale ? query_runs_same_code(r, newest) : query_sources_current(r, &w);
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
			strbuf_addf(&fails, "%srun %s: %s", n_fail > 1 ? "; " : "", id_or(r->run_id), strbuf_str(&bad));
		}
		strbuf_release(&ok);
		strbuf_release(&bad);
	}
	const char *code = stale ? "the last recorded code" : "the current source";
	if (n_fail)
		strbuf_addf(&detail, "%zu of %zu run(s) of %s failed a check: %s%s", n_fail, n_ev, code, fails.buf,
			    n_fail > 3 ? "; ..." : "");
	else
		strbuf_addf(&detail, "%zu run(s) of %s passed every check that ran: %s (latest %s)", n_ev, code, ran.buf,
			    id_or(pass ? pass->run_id : NULL));
	char *last = xstrfmt("run %s", id_or(newest->run_id));
	conclude(a, m, !n_fail, stale, head.buf, detail.buf, strbuf_str(&why), last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&fails);
	strbuf_release(&ran);
	strbuf_release(&head);
	strbuf_release(&detail);
	free(runs);
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
	double **xa = NULL, **xb = NULL, sv = 0, sulp = 0, pct = -1, amount = 0;
	size_t *na = NULL, *nb = NULL, ka = 0, kb = 0, n_b = 0;
	char how_groups[160] = "";
	struct blist batches = { 0 };
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
	n_b = claim_batches(a, e, md_attr(m, "run"), need, &batches, &why);
	if (!n_b) {
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, need, &stale, &why);
	const struct batch_row *ra = batch_find_row(b, va), *rb = batch_find_row(b, vb);
	const char *bid = id_or(b->run_id);
	char *last = xstrfmt("batch %s", bid);
	for (int k = 0; k < 2; k++) {
		const struct batch_row *row = k ? rb : ra;
		if (row->outcome != OUTCOME_OK) {
			strbuf_addf(&msg, "%s did not run cleanly: ", k ? vb : va);
			describe_failure(&msg, row->outcome_text, row->reason);
			strbuf_addf(&msg, " (run %s, batch %s)", id_or(row->run_id), bid);
			conclude(a, m, 0, stale, head.buf, msg.buf, why.buf, last);
			free(last);
			goto out;
		}
	}
	const char *base = b->baseline;
	const char *verdict = NULL, *how = "Holm-adjusted over the sweep";
	double sp = NAN, ci[2] = { NAN, NAN };
	struct stats_comparison sc;
	const struct stats_comparison *used = NULL; /* for rule 0's wording */
	int inverted = 0;
	if (base && !strcmp(base, vb) && row_comparison(ra, &verdict, &sp, ci)) {
		/* as recorded */
		used = &ra->cmp;
	} else if (base && !strcmp(base, va) && row_comparison(rb, &verdict, &sp, ci)) {
		double lo = ci[0];
		used = &rb->cmp;
		inverted = 1;
		verdict = invert_verdict(verdict);
		sp = 1 / sp;
		ci[0] = 1 / ci[1];
		ci[1] = 1 / lo;
	} else {
		/*
		 * Neither is the baseline: compare their samples here, as the
		 * batch compares a variant with its baseline, by repeat (two
		 * levels; pooling the repeats' samples as independent would
		 * call run-to-run drift a difference), with the batch's noise
		 * band and alpha.  Not Holm-adjusted: the batch never made
		 * this comparison.
		 */
		struct stats_opts so = STATS_OPTS_INIT;
		if (isfinite(b->holm_alpha) && b->holm_alpha > 0 && b->holm_alpha < 1)
			so.alpha = b->holm_alpha;
		if (isfinite(b->holm_threshold) && b->holm_threshold >= 0 && b->holm_threshold < 1)
			so.threshold = b->holm_threshold;
		int ok = query_row_groups(a->q, ra, &xa, &na, &ka) == 0 &&
			 query_row_groups(a->q, rb, &xb, &nb, &kb) == 0 && ka && kb;
		if (ok) {
			struct stats_groups ga = { ka, (const double *const *)xa, na };
			struct stats_groups gb = { kb, (const double *const *)xb, nb };
			ok = stats_compare_groups(&gb, &ga, &so, &sc) == 0;
		}
		if (!ok) {
			finding(a, m->line, "unsupported", "%s: the samples of batch %s cannot be compared", head.buf,
				bid);
			free(last);
			goto out;
		}
		verdict = sc.verdict;
		sp = sc.speedup;
		ci[0] = sc.speedup_ci[0];
		ci[1] = sc.speedup_ci[1];
		snprintf(how_groups, sizeof(how_groups), "%zu and %zu repeats, two-level, not adjusted", ka, kb);
		how = ka > 1 || kb > 1 ? how_groups : "two-sided Mann-Whitney, not adjusted";
		used = &sc;
	}
	if (used && used->one_process) {
		const char *rec = used->verdict_recorded;
		snprintf(how_groups, sizeof(how_groups), "1 repeat a side: the variance between processes is unknown%s%s",
			 rec ? "; recorded as " : "", rec ? (inverted ? invert_verdict(rec) : rec) : "");
		how = how_groups;
	}
	strbuf_addf(&msg, "speedup of %s over %s %.3fx [%.3f, %.3f], verdict %s (%s; runs %s, %s)", va, vb, sp, ci[0],
		    ci[1], verdict ? verdict : "none", how, id_or(ra->run_id), id_or(rb->run_id));
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
	if (xa)
		query_groups_free(xa, na, ka);
	if (xb)
		query_groups_free(xb, nb, kb);
	strbuf_release(&why);
	strbuf_release(&msg);
	strbuf_release(&head);
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
	struct blist batches = { 0 };
	char *last = NULL;
	double stated, ulp, pct = -1, amount = 0, scale;
	const char *err;
	if (!record_stat_def(stat)) {
		finding(a, m->line, "error", "claim 'value': unknown stat '%s' (known: %s)", stat, record_stat_names());
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
	const struct batch_record *b = NULL;
	const struct batch_row *row = NULL;
	const struct run_record *run = NULL;
	int stale = 0;
	if (pin && strcmp(pin, "latest")) {
		if (query_resolve(a->q, e, vn, pin, &b, &row, &run, &why) < 0) {
			finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		stale = !run || !query_sources_current(run, &why);
		last = xstrfmt("run %s", id_or(row->run_id));
	} else {
		const char *need[] = { vn, NULL };
		size_t n_b = claim_batches(a, e, NULL, need, &batches, &why);
		if (!n_b) {
			finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
			goto out;
		}
		strbuf_reset(&why);
		b = evidence_batch(a, &batches, need, &stale, &why);
		row = batch_find_row(b, vn);
		last = xstrfmt("batch %s", id_or(b->run_id));
	}
	if (row->outcome != OUTCOME_OK && strcmp(stat, "max_abs_err") && strcmp(stat, "usd") && strcmp(stat, "gpu_s")) {
		strbuf_addstr(&detail, "the variant ");
		describe_failure(&detail, row->outcome_text, row->reason);
		strbuf_addf(&detail, " (run %s)", id_or(row->run_id));
		conclude(a, m, 0, stale, head.buf, detail.buf, why.buf, last);
		goto out;
	}
	double v, ci[2];
	int have_ci;
	struct strbuf w2 = STRBUF_INIT;
	if (query_stat(a->q, b, row, stat, &v, ci, &have_ci, &w2) < 0) {
		finding(a, m->line, "unsupported", "%s: %s (run %s)", head.buf, w2.buf, id_or(row->run_id));
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
	strbuf_addf(&detail, "recorded %.6g, %s %s [%.6g, %.6g] (run %s)", v, agrees ? "within" : "outside", rule, lo, hi,
		    id_or(row->run_id));
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
	struct blist batches = { 0 };
	strbuf_addf(&head, "measured-on %s \"%s\"", e, gpu);
	size_t n_b = claim_batches(a, e, md_attr(m, "run"), names, &batches, &why);
	if (!n_b) {
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, names, &stale, &why);
	int n = 0, bad = 0;
	char *first_dev = NULL;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		if (vn && strcmp(vn, name_or(row->variant)))
			continue;
		const struct run_record **runs;
		size_t nr = query_row_runs(a->q, row, &runs);
		for (size_t k = 0; k < (nr ? nr : 1); k++) {
			char *dev = nr ? run_device_label(runs[k]) : xstrdup("unknown device");
			n++;
			if (!contains_ci(dev, gpu) && bad++ < 3)
				strbuf_addf(&other, "%s%s ran on %s (run %s)", other.len ? "; " : "", name_or(row->variant),
					    dev, id_or(nr ? runs[k]->run_id : row->run_id));
			if (!first_dev)
				first_dev = dev;
			else
				free(dev);
		}
		free(runs);
	}
	if (bad)
		strbuf_addf(&detail, "%s (batch %s)", other.buf, id_or(b->run_id));
	else
		strbuf_addf(&detail, "%d run(s) on %s (batch %s)", n, first_dev ? first_dev : "?", id_or(b->run_id));
	free(first_dev);
	char *last = xstrfmt("batch %s", id_or(b->run_id));
	conclude(a, m, !bad, stale, head.buf, detail.buf, why.buf, last);
	free(last);
out:
	strbuf_release(&why);
	strbuf_release(&other);
	strbuf_release(&head);
	strbuf_release(&detail);
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
	struct setting s;
	struct strbuf why = STRBUF_INIT, other = STRBUF_INIT, head = STRBUF_INIT, detail = STRBUF_INIT;
	struct blist batches = { 0 };
	double stated = 0, ulp;
	if (!setting_find(key, &s)) {
		finding(a, m->line, "error", "claim 'setting': unknown key '%s' (known: %s)", key, setting_names());
		goto out;
	}
	if (!s.is_string) {
		const char *err;
		int rc = stated_number(sval, s.fam, s.scale, &stated, &ulp, &err);
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
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
		goto out;
	}
	int stale;
	strbuf_reset(&why);
	const struct batch_record *b = evidence_batch(a, &batches, names, &stale, &why);
	int n = 0, bad = 0;
	struct strbuf rec = STRBUF_INIT;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		if (vn && strcmp(vn, name_or(row->variant)))
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
			int same = s.is_string ? !strcmp(str, sval) : same_number(num * s.scale, stated);
			if (!same && bad++ < 3) {
				strbuf_addf(&other, "%s%s recorded ", other.len ? "; " : "", name_or(row->variant));
				if (s.is_string)
					strbuf_addstr(&other, str);
				else
					strbuf_addf(&other, "%g", num);
				strbuf_addf(&other, " (run %s)", id_or(runs[k]->run_id));
			}
		}
		free(runs);
	}
	if (!n) {
		finding(a, m->line, "unsupported", "%s: no run of batch %s recorded '%s'", head.buf, id_or(b->run_id),
			key);
		strbuf_release(&rec);
		goto out;
	}
	if (bad)
		strbuf_addf(&detail, "%d of %d run(s) recorded another value: %s%s (batch %s)", bad, n, other.buf,
			    bad > 3 ? "; ..." : "", id_or(b->run_id));
	else
		strbuf_addf(&detail, "%d run(s) recorded %s=%s (batch %s)", n, key, rec.buf, id_or(b->run_id));
	strbuf_release(&rec);
	char *last = xstrfmt("batch %s", id_or(b->run_id));
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
static void claim_reproduced(struct actx *a, const struct md_marker *m)
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
		finding(a, m->line, "unsupported", "%s: %s", head.buf, why.buf);
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
		finding(a, m->line, "unsupported", "%s: batch %s has no reproduction in the store; run 'evident reproduce %s'",
			head.buf, id_or(old->run_id), id_or(old->run_id));
		goto out;
	}
	const struct rec_reproduction *r = &latest->repro;
	size_t bad = 0;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct rec_repro_row *row = &r->rows[i];
		if (row->verdict == REPRO_REPRODUCED || bad++ >= 3)
			continue;
		strbuf_addf(&detail, "%s%s %s", bad > 1 ? "; " : "", name_or(row->variant), repro_verdict_name(row->verdict));
		if (row->reason)
			strbuf_addf(&detail, ": %s", row->reason);
	}
	if (r->reproduced && r->n_rows)
		finding(a, m->line, "supported", "%s: batch %s reproduced all %zu variant(s) (noise band %g%%)", head.buf,
			id_or(latest->run_id), r->n_rows, 100 * r->threshold);
	else
		finding(a, m->line, "contradicted", "%s: the latest reproduction, batch %s, did not reproduce %zu of %zu "
			"variant(s): %s%s",
			head.buf, id_or(latest->run_id), bad, r->n_rows, r->n_rows ? detail.buf : "it has no variants",
			bad > 3 ? "; ..." : "");
out:
	strbuf_release(&why);
	strbuf_release(&head);
	strbuf_release(&detail);
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
	struct setting st;
	if (!strcmp(m->name, "value") && (s = md_attr(m, "value")) && md_attr(m, "stat")) {
		q->name = md_attr(m, "stat");
		q->fam = stat_fam(q->name, &q->bare_scale);
	} else if ((!strcmp(m->name, "faster") || !strcmp(m->name, "slower") || !strcmp(m->name, "no-difference") ||
		    !strcmp(m->name, "no_difference")) && (s = md_attr(m, "speedup"))) {
		q->name = "speedup";
		q->fam = F_RATIO;
		q->bare_scale = 1;
	} else if (!strcmp(m->name, "setting") && (s = md_attr(m, "value")) && md_attr(m, "key") &&
		   setting_find(md_attr(m, "key"), &st) && !st.is_string) {
		q->name = st.k->name;
		q->fam = st.fam;
		q->bare_scale = st.scale;
	} else {
		return 0;
	}
	return stated_number(s, q->fam, q->bare_scale, &q->base, &ulp, &err) == 0;
}

/* Is name a statistic or a setting's name, i.e. does code "NAME: N" say which quantity N is? */
static int quantity_name(const char *name)
{
	return record_stat_def(name) || knob_find(NULL, name);
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

int audit_text(struct query *q, const char *file, const char *text, size_t len,
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
		else if (!strcmp(m->name, "reproduced"))
			claim_reproduced(&a, m);
		else
			finding(&a, m->line, "error",
				"unknown claim '%s' (known: validated, faster, slower, no-difference, value, measured-on, "
				"setting, reproduced)",
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
