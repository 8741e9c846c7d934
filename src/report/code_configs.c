/*
 * code_configs.c - the configurations two codes were tried in
 * (code_configs.h): the audit's count of other tries, shared with eval's
 * promotion (red team 105), and a verdict redrawn over them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/audit_internal.h"
#include "report/code_configs.h"
#include "report/code_identity.h"
#include "stats/stats.h"
#include "store/store.h"

/*
 * The row of batch b that ended ok and matches id, preferring the one
 * named want, never skip; NULL when there is none.  match is
 * audit_same_identity (a rerun of the same code) or same_family (the same
 * kernel, any parameters).  By content, not by name: the same code under
 * another variant or spec name is the same evidence (red team 34: a new
 * spec name for the same binaries had no other batch to be weighed
 * against).
 */
static const struct batch_row *row_matching(struct query *q, const struct batch_record *b, const struct code_id *id,
					    int (*match)(const struct code_id *, const struct code_id *), const char *want,
					    const struct batch_row *skip)
{
	const struct batch_row *found = NULL;
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		struct code_id rid;
		if (row == skip || row->outcome != OUTCOME_OK || !code_identity(q, row, &rid) || !match(&rid, id))
			continue;
		if (row->variant && !strcmp(row->variant, want))
			return row;
		if (!found)
			found = row;
	}
	return found;
}

/* The same kernel on the same device: the same kernel file's content, or
 * the same program whatever its file says (red team 108: a comment line
 * edited before each of 433 eval tries made every try's file new, each
 * "tried in 1 configuration", the same binary in all 433, and the audit
 * supported 3 "slower" claims of an A/A copy unadjusted) */
static int same_family(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->dev, y->dev) && (!strcmp(x->family, y->family) || code_same_program(x, y));
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



/* Do b's rows hold both sides of the claim, each by a row of its kernel
 * file (same_family) or, for a row that never ran, by the claim's name
 * for it, at least one by its file? */
static int interrupted_names_both(struct query *q, const struct batch_record *b, const struct code_id *ia,
				  const struct code_id *ib, const char *va, const char *vb)
{
	int sa = 0, sb = 0, by_file = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *x = &b->rows[i];
		struct code_id id;
		if (code_identity(q, x, &id)) {
			int fa = same_family(&id, ia), fb = same_family(&id, ib);
			sa |= fa;
			sb |= fb;
			by_file |= fa || fb;
		}
		if (x->variant && x->outcome == OUTCOME_ABORTED) {
			sa |= va && !strcmp(x->variant, va);
			sb |= vb && !strcmp(x->variant, vb);
		}
	}
	return sa && sb && by_file;
}

/* key (reset) = the configuration of codes ja and jb at dims: the form
 * audit_across_batches counts other tries by */
static void config_key(struct strbuf *key, const struct rec_problem *p, const struct code_id *ja,
		       const struct code_id *jb)
{
	strbuf_reset(key);
	for (size_t i = 0; i < p->n_dims && i < 8; i++)
		strbuf_addf(key, "%lld,", p->dims[i]);
	strbuf_addf(key, " %s %s %s %s %d %s", ja->code, jb->code, ja->cache ? ja->cache : "-",
		    ja->exec_kind ? ja->exec_kind : "-", ja->slots, ja->clock ? ja->clock : "-");
}

/* Add key to the n distinct keys in *seen (grown; the caller frees). */
static void seen_add(char ***seen, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*seen)[i], key))
			return;
	*seen = xrealloc(*seen, (*n + 1) * sizeof(**seen));
	(*seen)[(*n)++] = xstrdup(key);
}

/*
 * Other tries that left runs and no batch record: an orphan batch (its
 * runner killed) holding ok runs of both claimed kernel files (two files:
 * same_family) in another configuration than the claim's is one more
 * chance, as a finished batch there is (red team 97: a stopper that gave
 * each killed `evident run` try a shape of its own, C = 1024 + i, had 144
 * of 144 killed tries counted nowhere, and "faster" on the reference's
 * own work supported 13.28x).  At the claim's own configuration they are
 * orphan_tries' (reruns).  Where both sides are one kernel file (ra, rb:
 * the claim's rows), two runs of the file of other codes whose
 * parameters differ as the claim's rows' do (same_params_differ, as for
 * a finished batch).
 */
static void orphan_configs(struct query *q, const struct batch_record *eb, const struct batch_row *ra0,
			   const struct batch_row *rb0, const struct code_id *ia, const struct code_id *ib,
			   char ***seen, size_t *n_seen, struct strbuf *key)
{
	int one_file = !strcmp(ia->family, ib->family);
	struct orph {
		const char *batch_id;
		const struct run_record *ra, *rb; /* a run of each file, the first met */
		struct code_id ja, jb;
	} *o = NULL;
	size_t n = 0;
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search || !at->batch_id || (eb->batch_id && !strcmp(at->batch_id, eb->batch_id)))
			continue;
		size_t k = 0;
		while (k < n && strcmp(o[k].batch_id, at->batch_id))
			k++;
		if (k == n) {
			if (query_find(q, at->batch_id, NULL) >= 0)
				continue; /* recorded: the batch loop's */
			o = xrealloc(o, (n + 1) * sizeof(*o));
			memset(&o[n], 0, sizeof(o[n]));
			o[n].batch_id = at->batch_id;
			n++;
		}
		const struct run_record *r = query_run_at(q, i);
		struct code_id id;
		if (!r || r->outcome != OUTCOME_OK || !audit_same_kind(&r->problem, &eb->problem) ||
		    !code_identity_run(r, r->params, r->n_params, &id))
			continue;
		if (!o[k].ra && same_family(&id, ia)) {
			o[k].ra = r;
			o[k].ja = id;
		} else if (!o[k].rb && same_family(&id, ib) && (!one_file || strcmp(id.code, o[k].ja.code))) {
			o[k].rb = r;
			o[k].jb = id;
		}
	}
	for (size_t k = 0; k < n; k++) {
		/* one side's runs, where the try's begun marker names both
		 * codes (killed before the other side ran: red team 97's
		 * stopper, most of its 75 killed tries) */
		if ((!o[k].ra) != (!o[k].rb) && code_marker_names(q->st.root, o[k].batch_id, ia, ib, 0)) {
			const struct run_record *r = o[k].ra ? o[k].ra : o[k].rb;
			if (audit_same_problem(&r->problem, &eb->problem))
				continue; /* the claim's own configuration: orphan_tries' */
			config_key(key, &r->problem, o[k].ra ? &o[k].ja : ia, o[k].rb ? &o[k].jb : ib);
			seen_add(seen, n_seen, key->buf);
			continue;
		}
		if (!o[k].ra || !o[k].rb)
			continue;
		if (one_file) {
			struct batch_row xa = { 0 }, xb = { 0 };
			xa.params = o[k].ra->params;
			xa.n_params = o[k].ra->n_params;
			xb.params = o[k].rb->params;
			xb.n_params = o[k].rb->n_params;
			if (!same_params_differ(ra0, rb0, &xa, &xb))
				continue;
		}
		/* the claim's own configuration: reruns (orphan_tries) */
		if (audit_same_problem(&o[k].ra->problem, &eb->problem) && code_same_way(&o[k].ja, ia) &&
		    code_same_way(&o[k].jb, ib))
			continue;
		config_key(key, &o[k].ra->problem, &o[k].ja, &o[k].jb);
		seen_add(seen, n_seen, key->buf);
	}
	/* and a try begun and stopped before any run of it landed (red team
	 * 99's stopper read which variant a worker box ran from /proc and
	 * killed the slow ones before their records: 20 of 43 tries left
	 * nothing else): its begun marker, naming both codes, is one try,
	 * of a configuration the marker does not say (counted as its own) */
	json_t *pend = store_pending_list(&q->st);
	size_t pi;
	json_t *pm;
	json_array_foreach(pend, pi, pm)
	{
		const char *kind = json_string_value(json_object_get(pm, "kind"));
		const char *id = json_string_value(json_object_get(pm, "run_id"));
		if (!kind || (strcmp(kind, "batch") && strcmp(kind, "run_batch")) || !id ||
		    (eb->batch_id && !strcmp(id, eb->batch_id)) || query_find(q, id, NULL) >= 0)
			continue;
		size_t k = 0;
		while (k < n && strcmp(o[k].batch_id, id))
			k++;
		if (k < n && (o[k].ra || o[k].rb))
			continue; /* runs of it: read above */
		if (!code_marker_names(q->st.root, id, ia, ib, 0))
			continue;
		strbuf_reset(key);
		strbuf_addf(key, "begun %s", id);
		seen_add(seen, n_seen, key->buf);
	}
	json_decref(pend);
	free(o);
}

size_t code_pair_configs(struct query *q, const struct batch_record *eb, const struct batch_row *ra,
			 const struct batch_row *rb, const char *va, const char *vb, const struct code_id *ia,
			 const struct code_id *ib, int (*rerun)(void *ctx, const struct batch_record *b), void *ctx,
			 struct code_config_stress *stress)
{
	if (stress)
		*stress = (struct code_config_stress){ { 0, 0 }, { NULL, NULL } };
	size_t pos = q->n, n_seen = 0;
	int one_file = !strcmp(ia->family, ib->family);
	char **seen = NULL; /* the configurations tried, as "dims code_a code_b how" */
	struct strbuf key = STRBUF_INIT;
	const struct batch_record *b;
	/* every batch, reproductions included: a reproduction reran the
	 * same code (and a claim pinned to one must meet its own pair) */
	while ((b = query_next_batch_all(q, NULL, &pos))) {
		if (!audit_same_kind(&b->problem, &eb->problem))
			continue;
		/* the reruns at eb's configuration: the caller's */
		if (rerun ? rerun(ctx, b) : b == eb)
			continue;
		if (b == eb)
			continue;
		/* an interrupted try in another configuration whose rows name
		 * both sides, one of them never run (aborted: no ok row for
		 * row_matching below), is one configuration tried (red team
		 * 99: 11 of 27 SIGINT'd tries at shapes of their own counted
		 * nowhere, where SIGKILL's orphans are, orphan_configs) */
		if (b->interrupted && interrupted_names_both(q, b, ia, ib, va, vb)) {
			config_key(&key, &b->problem, ia, ib);
			seen_add(&seen, &n_seen, key.buf);
			continue;
		}
		const struct batch_row *xa, *xb;
		/* another configuration of the same two kernels; where both
		 * sides are one kernel file, a pair of its rows that differ in
		 * the same parameters as the claim's (red team 38: any two rows
		 * of the file counted, so every sweep of it adjusted a claim
		 * between two of its knob values) */
		xa = row_matching(q, b, ia, same_family, va, NULL);
		xb = xa ? row_matching(q, b, ib, same_family, vb, xa) : NULL;
		struct code_id ja, jb;
		if (!xb || !code_identity(q, xa, &ja) || !code_identity(q, xb, &jb))
			continue;
		if (one_file && !same_params_differ(ra, rb, xa, xb))
			continue;
		/* a finished try of fewer than STATS_MIN_PROCESSES repeats a
		 * side gave no verdict (rule 0b) and a claim citing it is
		 * contradicted, so it is no configuration that could have
		 * been cited (red team 122: 40 `eval --repeats 1` tries of the
		 * kernel file, 60 s, took an honest faster claim's p from
		 * 0.0014 to 0.056); an interrupted, killed or failed try counts
		 * as before (a hunter chooses where to stop one) */
		if (!b->interrupted && (query_row_few_processes(b, xa) || query_row_few_processes(b, xb)))
			continue;
		config_key(&key, &b->problem, &ja, &jb);
		seen_add(&seen, &n_seen, key.buf);
		/* a stress cost of either side's kernel in another
		 * configuration at eb's shape (red team 156: a parameter that
		 * only salts the binary made each resubmission of a kernel slow
		 * on stress in a fifth of its processes a new code, and the
		 * third was promoted) */
		if (stress && audit_same_problem(&b->problem, &eb->problem)) {
			const struct batch_row *x[2] = { xa, xb };
			for (int k = 0; k < 2; k++) {
				double st = batch_row_stress_slow(b, x[k]);
				if (st > stress->x[k]) {
					stress->x[k] = st;
					stress->batch[k] = b->batch_id ? b->batch_id : b->run_id;
				}
			}
		}
	}
	/* killed tries in other configurations (red team 97) */
	orphan_configs(q, eb, ra, rb, ia, ib, &seen, &n_seen, &key);
	for (size_t i = 0; i < n_seen; i++)
		free(seen[i]);
	free(seen);
	strbuf_release(&key);
	return 1 + n_seen;
}

const char *code_verdict_over_tries(const struct batch_record *b, const struct stats_comparison *c0, size_t tries,
				    double *p_adj)
{
	double alpha = isfinite(b->holm_alpha) && b->holm_alpha > 0 && b->holm_alpha < 1 ? b->holm_alpha : 0.05;
	double thr = isfinite(b->holm_threshold) && b->holm_threshold >= 0 && b->holm_threshold < 1 ? b->holm_threshold
												  : 0.01;
	struct stats_comparison c = *c0;
	const char *was = c0->verdict;
	*p_adj = NAN;
	if (!isfinite(c0->p_adjusted))
		return was;
	/* the table redrawn at the recorded p must give the recorded verdict
	 * (an older record may lack what it reads, test_sign); where it does
	 * not, the adjusted p alone decides between it and inconclusive */
	int redraws = was && !strcmp(stats_verdict(&c, alpha, thr), was);
	c.p_adjusted = c.p_adjusted * (double)(tries ? tries : 1) < 1 ? c.p_adjusted * (double)(tries ? tries : 1) : 1;
	*p_adj = c.p_adjusted;
	if (redraws)
		return stats_verdict(&c, alpha, thr);
	return c.p_adjusted < alpha ? was : "inconclusive";
}
