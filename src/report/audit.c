/*
 * audit.c - audit one markdown file (contract in audit.h, reference in
 * docs/paper.md): parse its markers, check every claim, scan for untraced
 * numbers, and print the findings in line order.  The work is in
 * audit_claim.c (findings and the rules every claim shares), audit_validated.c,
 * audit_verdict.c and audit_value.c (the claim kinds), audit_record.c (what a
 * record says), audit_number.c (numbers and units as written) and
 * audit_untraced.c; audit_internal.h is what they share.
 */
#include "report/audit.h"

#include <stdlib.h>
#include <string.h>

#include "report/audit_internal.h"

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
	struct actx a = { q, file, o, &mine, c, NULL, 0, NULL, 0, &d, NULL };
	if (md_parse(&d, file, text, len) < 0) {
		audit_finding(&a, 1, "error", "the markers of this file do not parse (see the error above); nothing was audited");
		goto out;
	}
	a.malformed = xcalloc(d.n + 1, 1);
	for (size_t i = 0; i < d.n; i++) {
		const struct md_marker *m = &d.mk[i];
		if (m->kind != MD_CLAIM)
			continue;
		a.cur = i;
		a.passed = NULL;
		c->claims++;
		if (!strcmp(m->name, "validated"))
			audit_claim_validated(&a, m);
		else if (!strcmp(m->name, "faster") || !strcmp(m->name, "slower") ||
			 !strcmp(m->name, "no-difference") || !strcmp(m->name, "no_difference"))
			audit_claim_compare(&a, m);
		else if (!strcmp(m->name, "value"))
			audit_claim_value(&a, m);
		else if (!strcmp(m->name, "measured-on") || !strcmp(m->name, "measured_on"))
			audit_claim_measured_on(&a, m);
		else if (!strcmp(m->name, "setting"))
			audit_claim_setting(&a, m);
		else if (!strcmp(m->name, "reproduced"))
			audit_claim_reproduced(&a, m);
		else
			audit_finding(&a, m->line, "error",
				"unknown claim '%s' (known: validated, faster, slower, no-difference, value, measured-on, "
				"setting, reproduced)",
				m->name);
	}
	if (o->untraced)
		audit_scan_untraced(&a, &d);
out:
	sorted_findings(file, &mine, out);
	strbuf_release(&mine);
	audit_claim_release(&a);
	free(a.malformed);
	md_release(&d);
	return 0;
}
