/*
 * audit_internal.h - what the files of the audit share with each other and
 * nobody else: unit families and numbers as written (audit_number.c), what
 * a record says (audit_record.c), findings and the rules every claim
 * shares (audit_claim.c), the claim kinds (audit_validated.c,
 * audit_verdict.c, audit_value.c) and the untraced-number scan
 * (audit_untraced.c); audit.c
 * runs them over a file.  The public interface is audit.h.
 */
#ifndef EVIDENT_AUDIT_INTERNAL_H
#define EVIDENT_AUDIT_INTERNAL_H

#include <stddef.h>

#include "backends/knobs.h"
#include "report/audit.h"
#include "report/mdscan.h"

/* Unit families: a number traces only a quantity of its own family. */
enum fam { F_NONE, F_TIME, F_RATIO, F_PCT, F_BW, F_FLOPS, F_BYTES, F_USD, F_SEEDS, F_SAMPLES, F_OTHER };

/* struct unit's flags */
#define U_ATTACHED 1     /* "x", "-fold": 1.4x; spaced only where audit_parse_num says ("2.84 x faster") */
#define U_NOCASE 2       /* matched without case: "MS", "uS", "Percent" (docs/paper.md lists which) */

struct unit {
	const char *text;
	enum fam fam;
	double scale;            /* to the family's base unit: us, x, %, GB/s, GFLOP/s, bytes, USD */
	int flags;               /* U_ATTACHED, U_NOCASE */
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
	void *pairs;             /* audit_verdict.c's memo of pair comparisons (audit_claim_release) */
	size_t n_pairs;
	const struct md_doc *doc; /* the file's markers (a setting claim reads the batches the others pin) */
	/* the newer unsettled batch of the current code the claim's evidence
	 * batch was chosen over (audit_evidence_batch), said by audit_conclude;
	 * reset for each claim */
	const struct batch_record *passed;
};

/* Free what the claim rules kept across the file's claims (audit_verdict.c). */
void audit_claim_release(struct actx *a);

/* ---------- audit_number.c: units and numbers as written ---------- */

/* Every unit a number may carry, audit_n_units of them (order: audit_number.c). */
extern const struct unit audit_units[];
extern const size_t audit_n_units;
/* "$" written before a number; "€" and "£" (money no statistic records). */
extern const struct unit audit_unit_dollar, audit_unit_euro, audit_unit_pound;
/* Length of the unit u at s (its case rules), 0 when s does not start with it. */
size_t audit_unit_at(const char *s, const struct unit *u);
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

/* ---------- audit_claim.c: findings and the rules every claim shares ---------- */

/* Counts a finding of kind at line of a->file and prints it to a->out
 * (supported ones only when asked); any kind not known is an error. */
__attribute__((format(printf, 4, 5))) void audit_finding(struct actx *a, int line, const char *kind,
							  const char *fmt, ...);
/* A number a claim states (a whole string) for a quantity of family fam,
 * into *base and *ulp_base (base units).  0, or -1/-2 with *err set. */
int audit_stated_number(const char *s, enum fam fam, double bare_scale, double *base, double *ulp_base,
			const char **err);
/*
 * The batches a claim may read (audit_claim_batches): the pinned one, or those
 * of the experiment with rows for the claim's names, newest first, read
 * one at a time from the index as audit_evidence_batch walks them (at 10^5
 * records, reading every batch of an experiment cost seconds per claim).
 */
struct blist {
	const char *e;
	const char *const *names;
	const struct batch_record *pinned;   /* run=ID */
	const struct batch_record *first;    /* the newest (or the pinned one) */
	size_t pos;                          /* query_next_batch's cursor */
};
/* Start bl on the batches a claim may read; 0 with why when there is none. */
size_t audit_claim_batches(struct actx *a, const char *e, const char *pin, const char *const *names,
			   struct blist *bl, struct strbuf *why);
/* The evidence batch of bl: the newest whose rows (names, or all when
 * NULL) ran the current code; when none did, the newest, with *stale = 1
 * and why saying what changed.  NULL when bl holds none. */
const struct batch_record *audit_evidence_batch(struct actx *a, struct blist *bl, const char *const *names,
						int *stale, struct strbuf *why);
/* The one finding of claim m: contradicted (also stale), stale or
 * supported by agrees and stale, with head, detail, what changed and the
 * newest run's id (last). */
void audit_conclude(struct actx *a, const struct md_marker *m, int agrees, int stale, const char *head,
		    const char *detail, const char *stale_why, const char *last);
/* Does m name only keys of allowed and every key of required?  0, or -1
 * after an error finding. */
int audit_keys_ok(struct actx *a, const struct md_marker *m, const char *const *allowed,
		  const char *const *required);
/* The malformed finding for audit_stated_number's rc and err on key. */
void audit_stated_error(struct actx *a, const struct md_marker *m, const char *key, int rc, const char *err);
/* The claim's tol= for a value `stated` in family fam (base units): 0
 * with *pct (a percentage, or -1) and *amount (base units), or -1 after
 * an error finding (not a positive percentage or amount, or over
 * AUDIT_TOL_CAP_PCT). */
int audit_claim_tol(struct actx *a, const struct md_marker *m, enum fam fam, double stated, double *pct,
		    double *amount);
/* The claims, one finding each. */
void audit_claim_validated(struct actx *a, const struct md_marker *m);
void audit_claim_compare(struct actx *a, const struct md_marker *m);
void audit_claim_value(struct actx *a, const struct md_marker *m);
void audit_claim_measured_on(struct actx *a, const struct md_marker *m);
void audit_claim_setting(struct actx *a, const struct md_marker *m);
void audit_claim_reproduced(struct actx *a, const struct md_marker *m);

/* ---------- audit_validated.c ---------- */

/* A failure that is a configuration refusing itself (build_failed,
 * launch_failed or init_failed before any output): no verdict on the code. */
int audit_config_refused(enum outcome o);
/* Every run of the code of runs ev[0..n_ev), any variant name, batch,
 * experiment or way, killed tries included, newest first, into *out;
 * (*other)[i] set where run i is the same kernel file at another
 * configuration (audit_validated.c).  *out and *other are the caller's
 * to free. */
size_t audit_runs_of_code(struct actx *a, const struct run_record *const *ev, size_t n_ev,
			  const struct run_record ***out, unsigned char **other);

struct code_id;

/* ---------- audit_verdict.c: the rules a verdict meets (audit_value.c weighs by them too) ---------- */

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
 * out "faster 1.768x", unadjusted, from one batch).  audit_pair_compare
 * returns 1 with pc filled (pc->used points into pc or into a row of b),
 * 0 when the samples cannot be compared; each pair is compared once per
 * file (a->pairs, audit_claim_release).
 */
struct pair_cmp {
	const char *verdict;                  /* static or borrowed from b */
	double sp, ci[2];
	int inverted;                         /* the recorded comparison was of vb against va */
	const struct stats_comparison *used;  /* the comparison drawn on */
	const char *how;                      /* how the p was adjusted: static or how_buf */
	char how_buf[160];
	struct stats_comparison sc;           /* a comparison made here */
	char why_not[200];                    /* when none could be made: why, or "" */
};
int audit_pair_compare(struct actx *a, const struct batch_record *b, const struct batch_row *ra,
		       const struct batch_row *rb, const char *va, const char *vb, struct pair_cmp *pc);
/* The same problem, dtype and plug-in (audit_same_kind), and the same shape too (audit_same_problem). */
int audit_same_kind(const struct rec_problem *x, const struct rec_problem *y);
int audit_same_problem(const struct rec_problem *x, const struct rec_problem *y);
/* The same code run the same way (code_identity.h); _or_neutral: or the
 * same code but for its parameters' echo. */
int audit_same_identity(const struct code_id *x, const struct code_id *y);
int audit_same_identity_or_neutral(const struct code_id *x, const struct code_id *y);
/* Does row x count as a rerun (ok, or a failure that is not a
 * configuration's refusal)? */
int audit_row_counts(struct actx *a, const struct batch_row *x);
/* Is row set aside: 1 by an erratum, 2 run in a weaker box (query_row_weak_judge_why),
 * 0 not?  _own: the claim's own row, said into msg. */
int audit_row_set_aside(struct actx *a, const struct batch_row *row);
int audit_own_row_set_aside(struct actx *a, const struct batch_row *row, const char *name, struct strbuf *msg);
/* The reruns of a verdict want on (ra, rb) across the store: *agrees when
 * more than half that decide give it, *tie at exactly half, *tries the
 * other configurations of the two kernels; what was weighed into msg. */
void audit_across_batches(struct actx *a, const struct batch_record *eb, const struct batch_row *ra,
			  const struct batch_row *rb, const char *va, const char *vb, const char *want, double sp,
			  int *agrees, int *tie, size_t *tries, struct strbuf *msg);
/* How many comparisons of batch b a writer could have cited in pc's place (at least 1). */
size_t audit_batch_comparisons(const struct batch_record *b, const struct pair_cmp *pc);
/* pc's p adjusted over tries configurations too: *agrees cleared, and why
 * in msg, when the verdict no longer holds. */
void audit_adjust_over_tries(const struct batch_record *b, const struct pair_cmp *pc, size_t tries, size_t n_batch,
			     const char *want, int *agrees, struct strbuf *msg);
/* Do ra and rb run the same code (a faster or slower claim then never
 * holds)?  1 with why in msg. */
int audit_same_code_both_sides(struct actx *a, const struct batch_row *ra, const struct batch_row *rb,
			       const char *want, struct strbuf *msg);

/* A faster or slower verdict want on (ra, rb) of eb whose faster side is
 * a code the judge refuted anywhere in the store (audit_verdict.c
 * faster_side_refuted): 1 with why in msg, else 0 (and for any other
 * want).  Weighed before the reruns' rule by every claim that states
 * such a verdict (compare, and value on a comparison statistic), so that
 * its reason is the one printed. */
int audit_verdict_refuted(struct actx *a, const struct batch_record *eb, const struct batch_row *ra, const char *va,
			  const struct batch_row *rb, const char *vb, const char *want, struct strbuf *msg);

/* The store's history against a faster or slower verdict want on (ra, rb)
 * of eb: the slower side's drift, and a stated speedup of ra over rb
 * (*stated, ulp its half unit; NULL none) held to what the store stands
 * behind where the history released it.  Every claim that states such a
 * verdict calls it (compare, and value on a comparison statistic).  1
 * when the verdict stands, 0 with why in msg. */
int audit_history_holds(struct actx *a, const struct batch_record *eb, const struct batch_row *ra, const char *va,
			const struct batch_row *rb, const char *vb, const char *want, const double *stated,
			double ulp, const char *stated_text, struct strbuf *msg);

/* "; NAME ran trust: host (...)" into msg where row's run was timed with
 * its host code in the timing worker (a CUDA kernel not sealed): every
 * finding on such a row says so (compare, and value: red team 60) */
void audit_trust_note(struct actx *a, struct strbuf *msg, const struct batch_row *row, const char *name);

/* ---------- audit_untraced.c ---------- */

/* An "untraced" finding for every number of d that reads as a result and
 * that no generated block or claim of its paragraph traces. */
void audit_scan_untraced(struct actx *a, struct md_doc *d);

#endif /* EVIDENT_AUDIT_INTERNAL_H */
