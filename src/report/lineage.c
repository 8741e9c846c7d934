/*
 * lineage.c - a run's parent and its chain of ancestors, found in a store
 * (contract and the resolution rules in lineage.h).  Everything comes from
 * the index (query.h's attrs) except the child's own lineage, which is in
 * its run record: following a chain of n links opens n manifests.
 */
#include "report/lineage.h"

#include <stdlib.h>
#include <string.h>

/* Is entry e a variant run (not a batch, not a search)? */
static int is_run_entry(const struct query_entry *e)
{
	return !e->a.is_batch && !e->a.is_search && e->a.variant;
}

long lineage_parent(struct query *q, size_t i, struct strbuf *why)
{
	const struct run_record *r = query_run_at(q, i);
	if (!r) {
		strbuf_addf(why, "'%s' is not a variant run", q->e[i].run_id);
		return -1;
	}
	if (!r->lineage.have || !r->lineage.parent) {
		strbuf_addstr(why, r->lineage.have ? "its lineage names no parent" : "it records no lineage");
		return -1;
	}
	const char *p = r->lineage.parent;
	/* 1. a whole run id */
	for (size_t k = 0; k < q->n; k++)
		if (!strcmp(q->e[k].run_id, p)) {
			if (is_run_entry(&q->e[k]))
				return (long)k;
			strbuf_addf(why, "parent '%s' is a %s, not a variant run", p,
				    q->e[k].a.is_batch ? "batch" : "search");
			return -1;
		}
	/* 2. the variant of that name in the same batch, the same repeat first */
	long first = -1;
	for (size_t k = 0; r->batch_id && k < q->n; k++) {
		const struct query_entry *e = &q->e[k];
		if (!is_run_entry(e) || !e->a.batch_id || strcmp(e->a.batch_id, r->batch_id) ||
		    strcmp(e->a.variant, p))
			continue;
		if (e->a.repeat == r->repeat)
			return (long)k;
		if (first < 0)
			first = (long)k;
	}
	if (first >= 0)
		return first;
	/* 3. the newest run of that variant in the experiment, before the child */
	for (size_t k = i; k-- > 0;) {
		const struct query_entry *e = &q->e[k];
		if (is_run_entry(e) && e->a.experiment && r->experiment && !strcmp(e->a.experiment, r->experiment) &&
		    !strcmp(e->a.variant, p))
			return (long)k;
	}
	/* 4. a unique prefix of a run id */
	struct strbuf amb = STRBUF_INIT;
	long k = query_find(q, p, &amb);
	if (k >= 0 && is_run_entry(&q->e[k])) {
		strbuf_release(&amb);
		return k;
	}
	if (k == -2)
		strbuf_addf(why, "parent '%s' is ambiguous: it is a prefix of %s", p, amb.buf);
	else
		strbuf_addf(why, "parent '%s' is not in this store (no run of that id, and no variant of that name in "
			    "batch %s or earlier in experiment %s)",
			    p, r->batch_id ? r->batch_id : "-", r->experiment ? r->experiment : "-");
	strbuf_release(&amb);
	return -1;
}

size_t lineage_chain(struct query *q, size_t i, size_t **out, struct strbuf *why)
{
	size_t n = 0, cap = 8;
	size_t *c = xcalloc(cap, sizeof(*c));
	c[n++] = i;
	for (;;) {
		const struct run_record *r = query_run_at(q, c[n - 1]);
		if (!r || !r->lineage.have || !r->lineage.parent)
			break; /* a root: nothing to say */
		struct strbuf w = STRBUF_INIT;
		long p = lineage_parent(q, c[n - 1], &w);
		if (p < 0) {
			strbuf_add(why, w.buf, w.len);
			strbuf_release(&w);
			break;
		}
		strbuf_release(&w);
		int seen = 0;
		for (size_t k = 0; k < n && !seen; k++)
			seen = c[k] == (size_t)p;
		if (seen) {
			strbuf_addf(why, "a cycle: %s names %s, which is already in the chain", q->e[c[n - 1]].run_id,
				    q->e[p].run_id);
			break;
		}
		if (n == 1000) {
			strbuf_addstr(why, "the chain is longer than 1000 links; stopped there");
			break;
		}
		if (n == cap)
			c = xrealloc(c, (cap *= 2) * sizeof(*c));
		c[n++] = (size_t)p;
	}
	*out = c;
	return n;
}
