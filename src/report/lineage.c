/*
 * lineage.c - a run's parent and its chain of ancestors, found in a store
 * (contract and the resolution rules in lineage.h).  Everything comes from
 * the index (query.h's attrs) except the child's own lineage, which is in
 * its run record: following a chain of n links opens n manifests.
 */
#include "report/lineage.h"

#include <math.h>
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

/* ---- a search's tree ---------------------------------------------------------- */

struct node {
	const struct rec_candidate *c;  /* where it was first judged */
	int gen;                        /* that generation */
	long parent;                    /* index, -1 for a root */
	struct strbuf best;             /* "0, 1": the generations after which it was the best */
};

static void add_p_text(struct strbuf *sb, double p)
{
	if (isnan(p))
		strbuf_addstr(sb, "n/a");
	else if (p < 1e-3)
		strbuf_addf(sb, "%.1e", p);
	else
		strbuf_addf(sb, "%.2g", p);
}

/* One node's text after its id (no newline). */
static void node_text(const struct search_record *r, const struct node *n, int markdown, struct strbuf *sb)
{
	const struct rec_candidate *c = n->c;
	const char *tick = markdown ? "`" : "";
	if (n->parent < 0)
		strbuf_addf(sb, " (the start, generation %d)", n->gen);
	else if (c->mutation)
		strbuf_addf(sb, " %s%s%s (generation %d)", tick, c->mutation, tick, n->gen);
	strbuf_addf(sb, ": %s", c->outcome ? c->outcome : "?");
	if (isfinite(c->median_us)) {
		strbuf_addf(sb, ", %.2f us", c->median_us);
		if (isfinite(c->median_ci[0]))
			strbuf_addf(sb, " [%.2f, %.2f]", c->median_ci[0], c->median_ci[1]);
	}
	if (c->have_cmp) {
		const struct rec_generation *g = &r->gens[n->gen];
		strbuf_addf(sb, ", %.3fx", c->speedup);
		if (isfinite(c->speedup_ci[0]))
			strbuf_addf(sb, " [%.3f, %.3f]", c->speedup_ci[0], c->speedup_ci[1]);
		strbuf_addf(sb, " over %s, p ", g->best_in ? g->best_in : "the best");
		add_p_text(sb, c->p_adjusted);
		strbuf_addf(sb, " (Holm), %s", c->verdict ? c->verdict : "?");
	}
	if (c->no_effect)
		strbuf_addf(sb, "; %sno effect%s: %s, never promoted", markdown ? "**" : "", markdown ? "**" : "",
			    c->no_effect);
	if (c->note)
		strbuf_addf(sb, "; %s", c->note);
	const struct rec_generation *cg = &r->gens[n->gen];
	int confirmation = cg->have_confirm && cg->confirm_challenger && c->id && !strcmp(cg->confirm_challenger, c->id);
	if (confirmation) { /* its batch said faster: what fresh processes said (red team 48) */
		const struct rec_candidate *k = &cg->confirm_c;
		strbuf_addf(sb, "; %s in fresh processes (%s", cg->confirmed ? "confirmed" : "NOT confirmed",
			    k->outcome ? k->outcome : "not run");
		if (k->have_cmp) {
			strbuf_addf(sb, ", %.3fx", k->speedup);
			if (isfinite(k->speedup_ci[0]))
				strbuf_addf(sb, " [%.3f, %.3f]", k->speedup_ci[0], k->speedup_ci[1]);
			strbuf_addf(sb, ", %s", k->verdict ? k->verdict : "?");
		}
		strbuf_addf(sb, ", batch %s)", cg->confirm_batch ? cg->confirm_batch : "none");
	}
	/* an earlier confirmation of the generation that did not keep it, before
	 * the next faster candidate was tried (red team 284) */
	for (size_t i = 0; cg->have_confirm && i < cg->n_tries; i++) {
		const struct rec_confirm_try *t = &cg->tries[i];
		if (!t->challenger || !c->id || strcmp(t->challenger, c->id))
			continue;
		strbuf_addf(sb, "; NOT confirmed in fresh processes (%s", t->c.outcome ? t->c.outcome : "not run");
		if (t->c.have_cmp)
			strbuf_addf(sb, ", %.3fx, %s", t->c.speedup, t->c.verdict ? t->c.verdict : "?");
		strbuf_addf(sb, ", batch %s): %s", t->batch ? t->batch : "none", t->why ? t->why : "?");
	}
	if (c->promoted && c->role && !strcmp(c->role, "candidate"))
		strbuf_addf(sb, "; %spromoted%s", markdown ? "**" : "", markdown ? "**" : "");
	if (n->best.len)
		strbuf_addf(sb, "; the best after generation%s %s", strchr(n->best.buf, ',') ? "s" : "", n->best.buf);
}

static void walk(const struct search_record *r, struct node *nodes, size_t nn, long at, int markdown,
		 struct strbuf *prefix, int last, int depth, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	if (markdown) {
		for (int d = 0; d < depth; d++)
			strbuf_addstr(out, "  ");
		strbuf_addf(out, "- **%s**", nodes[at].c->id);
	} else {
		strbuf_addf(out, "%s%s%s", prefix->buf, depth ? (last ? "`- " : "+- ") : "", nodes[at].c->id);
	}
	node_text(r, &nodes[at], markdown, &line);
	strbuf_addf(out, "%s\n", line.buf);
	strbuf_release(&line);
	size_t keep = prefix->len;
	if (depth)
		strbuf_addstr(prefix, last ? "   " : "|  ");
	long lastc = -1;
	for (size_t i = 0; i < nn; i++)
		if (nodes[i].parent == at)
			lastc = (long)i;
	for (size_t i = 0; i < nn; i++)
		if (nodes[i].parent == at)
			walk(r, nodes, nn, (long)i, markdown, prefix, (long)i == lastc, depth + 1, out);
	prefix->len = keep;
	if (prefix->buf)
		prefix->buf[keep] = '\0';
}

void lineage_search_tree(const struct search_record *r, int markdown, struct strbuf *out)
{
	size_t cap = 1;
	for (size_t g = 0; g < r->n_gens; g++)
		cap += r->gens[g].n;
	struct node *nodes = xcalloc(cap, sizeof(*nodes));
	size_t nn = 0;
	for (size_t g = 0; g < r->n_gens; g++) {
		const struct rec_generation *gen = &r->gens[g];
		for (size_t k = 0; k < gen->n; k++) {
			const struct rec_candidate *c = &gen->c[k];
			long found = -1;
			for (size_t i = 0; i < nn && found < 0; i++)
				if (c->id && nodes[i].c->id && !strcmp(nodes[i].c->id, c->id))
					found = (long)i;
			if (found < 0) {
				struct node *n = &nodes[nn];
				n->c = c;
				n->gen = (int)g;
				n->parent = -1;
				for (size_t i = 0; i < nn && c->parent && c->role && strcmp(c->role, "elite"); i++)
					if (nodes[i].c->id && !strcmp(nodes[i].c->id, c->parent))
						n->parent = (long)i;
				found = (long)nn++;
			}
			if (gen->best_out && c->id && !strcmp(gen->best_out, c->id) &&
			    (!c->role || strcmp(c->role, "elite") || !gen->promoted))
				strbuf_addf(&nodes[found].best, "%s%zu", nodes[found].best.len ? ", " : "", g);
		}
	}
	struct strbuf prefix = STRBUF_INIT;
	strbuf_addstr(&prefix, "");
	for (size_t i = 0; i < nn; i++)
		if (nodes[i].parent < 0)
			walk(r, nodes, nn, (long)i, markdown, &prefix, 1, 0, out);
	strbuf_release(&prefix);
	for (size_t i = 0; i < nn; i++)
		strbuf_release(&nodes[i].best);
	free(nodes);
}
