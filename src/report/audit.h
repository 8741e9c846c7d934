/*
 * audit.h - check the claims and numbers of a markdown file against the
 * store (`evident audit`, `make audit`).  docs/paper.md is the reference;
 * claims are HTML comments next to the sentence they back:
 *
 *   <!-- claim: validated experiment=E variant=V -->
 *   <!-- claim: faster experiment=E a=V b=BASE [speedup=1.3 [tol=2%]] -->   (also slower, no-difference)
 *   <!-- claim: value experiment=E variant=V stat=median_us value=321us [tol=5%] -->
 *   <!-- claim: measured-on experiment=E gpu="H100" [variant=V] -->
 *   <!-- claim: setting experiment=E key=timing.samples value=300 [variant=V] -->
 *   <!-- claim: reproduced run=BATCH [experiment=E] -->
 *
 * every one optionally pinned with run=RUN_ID (default: the latest
 * evidence; `reproduced` names its batch always).  `reproduced` is
 * supported when the latest `evident reproduce` of BATCH reproduced every
 * variant, contradicted when it did not, unsupported when there is none.  Each claim is supported, contradicted (a recorded run says
 * otherwise, even one of older code), stale (the runs agree but ran code
 * that has changed since) or unsupported (no run at all).  `validated`
 * means every check a run recorded passed: correctness seeds, the timed
 * launches checked after they ran, the extra shape, the float64 reference
 * check, sanitizers (v1: the re-check after timing), and any check phase a
 * newer record adds.  Numbers
 * that read as results (docs/paper.md, "Untraced numbers") and that are
 * neither generated (inside an evident block) nor stated by a claim in the
 * same paragraph about the same quantity are untraced.
 *
 * Findings are lines "FILE:LINE: KIND: message" (KIND = supported,
 * contradicted, stale, unsupported, untraced, error).
 */
#ifndef EVIDENT_AUDIT_H
#define EVIDENT_AUDIT_H

#include "base/util.h"
#include "store/query.h"

/* The widest tol= a claim may state, in percent (of the recorded value; an
 * amount, of the stated value).  A wider one is a malformed claim. */
#define AUDIT_TOL_CAP_PCT 5.0

struct audit_counts {
	int claims, supported, contradicted, stale, unsupported, errors, untraced;
};

struct audit_errata;
struct audit_opts {
	int show_supported;      /* 1: print supported claims too (default) */
	int untraced;            /* 1: look for untraced numbers (default) */
	const struct audit_errata *errata; /* runs set aside as the runner's defects (audit_errata.h), or NULL */
	const char *errata_path;           /* where they were read, for messages */
};

/*
 * Audit text[0..len) of markdown file `file`; append findings to out and
 * add to *c.  A malformed marker or claim is an "error" finding, counted
 * in c->errors.  Returns 0 (always, unless the store cannot be read:
 * -1 after error()).
 */
int audit_text(struct query *q, const char *file, const char *text, size_t len,
	       const struct audit_opts *o, struct strbuf *out, struct audit_counts *c);

/*
 * Parse a number as written in prose or a claim, "1,234.5", "321us",
 * "1.4x", "5%", "11.6 ms", "-0.27", "6.0e-99", "2 hours".  Sets *v (the number as written), *unit (the
 * unit text as written, "" if none; points into s) and *ulen; *ulp is half
 * a unit in the last digit written (0.005 for "1.42").  Returns the number
 * of bytes consumed, 0 if s does not start with a number.
 */
size_t audit_parse_number(const char *s, double *v, const char **unit, size_t *ulen, double *ulp);

#endif /* EVIDENT_AUDIT_H */
