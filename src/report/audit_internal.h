/*
 * audit_internal.h - what the files of the audit share with each other and
 * nobody else: unit families and numbers as written (audit_number.c), what
 * a record says (audit_record.c), findings and the claim rules
 * (audit_claim.c) and the untraced-number scan (audit_untraced.c); audit.c
 * runs them over a file.  The public interface is audit.h.
 */
#ifndef EVIDENT_AUDIT_INTERNAL_H
#define EVIDENT_AUDIT_INTERNAL_H

#include <stddef.h>

#include "backends/knobs.h"
#include "report/audit.h"
#include "report/mdscan.h"

/* Unit families: a number traces only a quantity of its own family. */
enum fam { F_NONE, F_TIME, F_RATIO, F_PCT, F_BW, F_FLOPS, F_BYTES, F_USD, F_SEEDS, F_SAMPLES };

struct unit {
	const char *text;
	enum fam fam;
	double scale;            /* to the family's base unit: us, x, %, GB/s, GFLOP/s, bytes, USD */
	int attached_only;       /* "x": 1.4x, never "1.4 x" (that is a dimension, "3 x 3") */
};

/* A number as written: "1,234.5 us", "−0.27", "6.0e-99", "1.4x", "$0.16". */
struct num {
	double v;                /* the number as written (sign included) */
	double ulp;              /* half a unit in the last digit written: 0.005 for "1.42" */
	int decimal;             /* written with a '.' or an exponent */
	const struct unit *u;    /* NULL: none written */
	size_t len;              /* bytes of number and unit */
	size_t unit_off;         /* where the unit starts */
};

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

/* One audit of one file: where findings go and what they count. */
struct actx {
	struct query *q;
	const char *file;
	const struct audit_opts *o;
	struct strbuf *out;
	struct audit_counts *c;
	unsigned char *malformed; /* per marker: a claim found malformed traces no number */
	size_t cur;              /* the marker being checked */
	void *pairs;             /* audit_claim.c's memo of pair comparisons (audit_claim_release) */
	size_t n_pairs;
};

/* Free what the claim rules kept across the file's claims (audit_claim.c). */
void audit_claim_release(struct actx *a);

/* ---------- audit_number.c: units and numbers as written ---------- */

/* Every unit a number may carry, audit_n_units of them (order: audit_number.c). */
extern const struct unit audit_units[];
extern const size_t audit_n_units;
/* "$" written before a number. */
extern const struct unit audit_unit_dollar;
/* How messages name each family, indexed by enum fam. */
extern const char *const audit_fam_names[];

/* Is c a byte of a name (letter, digit or '_')? */
int audit_is_name_byte(unsigned char c);
/* Length of a minus sign at s: '-' or U+2212 '−'; 0 if none. */
size_t audit_minus_len(const char *s);
/* Parses a number (and its unit) at s; returns the bytes consumed, 0 if s
 * does not start with one.  A leading minus sign is taken. */
size_t audit_parse_num(const char *s, struct num *n);
/* a == b up to rounding. */
int audit_same_number(double a, double b);
/* The unit family of statistic stat and the factor from its recorded value
 * to the family's base unit. */
enum fam audit_stat_fam(const char *stat, double *scale);

/* ---------- audit_record.c: what a record says ---------- */

/* id, or "?" when NULL. */
const char *audit_id_or(const char *id);
/* v, or "" when NULL. */
const char *audit_name_or(const char *v);
/* The batch's recorded comparison of row against its baseline; 0 when the row has none. */
int audit_row_comparison(const struct batch_row *row, const char **verdict, double *speedup, double ci[2]);
/* "crashed (its reason)" into sb. */
void audit_describe_failure(struct strbuf *sb, const char *oc, const char *why);
/* Did every check that run recorded pass?  1 with the checks that ran
 * listed in ran, or 0 with why saying what failed. */
int audit_run_checks_passed(const struct run_record *r, struct strbuf *ran, struct strbuf *why);
/* The setting a claim's key= names ("timing.samples", "repeats") into *s; 0 when none. */
int audit_setting_find(const char *key, struct setting *s);
/* "correctness.seeds, correctness.atol, ..." for messages (static storage). */
const char *audit_setting_names(void);

/* ---------- audit_claim.c: findings and the claim rules ---------- */

/* Counts a finding of kind at line of a->file and prints it to a->out
 * (supported ones only when asked); any kind not known is an error. */
__attribute__((format(printf, 4, 5))) void audit_finding(struct actx *a, int line, const char *kind,
							  const char *fmt, ...);
/* A number a claim states (a whole string) for a quantity of family fam,
 * into *base and *ulp_base (base units).  0, or -1/-2 with *err set. */
int audit_stated_number(const char *s, enum fam fam, double bare_scale, double *base, double *ulp_base,
			const char **err);
/* The claims, one finding each. */
void audit_claim_validated(struct actx *a, const struct md_marker *m);
void audit_claim_compare(struct actx *a, const struct md_marker *m);
void audit_claim_value(struct actx *a, const struct md_marker *m);
void audit_claim_measured_on(struct actx *a, const struct md_marker *m);
void audit_claim_setting(struct actx *a, const struct md_marker *m);
void audit_claim_reproduced(struct actx *a, const struct md_marker *m);

/* ---------- audit_untraced.c ---------- */

/* An "untraced" finding for every number of d that reads as a result and
 * that no generated block or claim of its paragraph traces. */
void audit_scan_untraced(struct actx *a, struct md_doc *d);

#endif /* EVIDENT_AUDIT_INTERNAL_H */
