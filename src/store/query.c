/*
 * query.c - the read path over a store (contract in query.h).
 *
 * The entries come from the store's index (store.h): run ids in the
 * store's one order with the record module's attrs, so finding "the latest
 * batch of E", listing runs and summing costs read no manifest.  A
 * manifest is read and typed on first use and kept for the life of the
 * query.  Nothing here writes.
 */
#include "stats/stats.h"
#include "store/query.h"
#include "store/problem_code.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- opening -------------------------------------------------------------- */

int query_open(struct query *q, const char *root)
{
	*q = (struct query)QUERY_INIT; /* whatever the caller's q held: nothing is open yet */
	root = store_default_root(root);
	if (!is_dir(root)) {
		if (path_exists(root))
			return error("store '%s' is not a directory; pass --store DIR", root);
		q->st.root = xstrdup(root);
		q->no_store = 1;
		return 0;
	}
	if (store_open(&q->st, root, 0) < 0)
		return -1;
	struct store_index ix = STORE_INDEX_INIT;
	if (store_index_load(&q->st, &ix) < 0)
		return -1;
	q->e = xcalloc(ix.n ? ix.n : 1, sizeof(*q->e));
	for (size_t i = 0; i < ix.n; i++) {
		struct query_entry *e = &q->e[q->n];
		e->run_id = xstrdup(ix.e[i].run_id);
		size_t k = strcspn(e->run_id, "-");
		snprintf(e->stamp, sizeof(e->stamp), "%.*s", (int)(k < 31 ? k : 31), e->run_id);
		if (record_attrs_parse(ix.e[i].attrs, &e->a) < 0) {
			/* an entry the record module cannot summarise: read it */
			json_t *m = NULL;
			char *attrs = NULL;
			if (store_load(&q->st, e->run_id, &m) == 0 && (attrs = record_index_attrs(m)))
				record_attrs_parse(attrs, &e->a);
			free(attrs);
			json_decref(m);
		}
		q->n++;
	}
	store_index_release(&ix);
	return 0;
}

int query_open_for(struct query *q, const char *explicit_root, const char *declared_root)
{
	const char *root = store_default_root(explicit_root ? explicit_root : declared_root);
	if (q->st.root && !strcmp(q->st.root, root))
		return 0;
	query_release(q);
	*q = (struct query)QUERY_INIT;
	return query_open(q, root);
}

void query_release_at_exit(struct query *q)
{
#if defined(__SANITIZE_ADDRESS__)
	query_release(q);
#else
	store_release(&q->st);
#endif
}

void query_release(struct query *q)
{
	for (size_t i = 0; i < q->n; i++) {
		struct query_entry *e = &q->e[i];
		free(e->run_id);
		record_attrs_release(&e->a);
		if (e->run) {
			run_record_release(e->run);
			free(e->run);
		}
		if (e->batch) {
			batch_record_release(e->batch);
			free(e->batch);
		}
		if (e->search) {
			search_record_release(e->search);
			free(e->search);
		}
		json_decref(e->m);
	}
	for (size_t i = 0; i < q->n_lone; i++) {
		batch_row_release(q->lone[i]);
		free(q->lone[i]);
	}
	free(q->lone);
	free(q->ids);
	q->ids = NULL;
	q->n_ids = q->ids_n = 0;
	free(q->e);
	q->e = NULL;
	q->n = q->n_lone = 0;
	q->lone = NULL;
	store_release(&q->st);
}

/* ---- entries ---------------------------------------------------------------- */

static long exact_index(struct query *q, const char *id);

/* A batch record names no problem plug-in hash (batches never kept it):
 * its rows' runs do.  The first row's run's hash, borrowed from that run,
 * which the query keeps as long as the batch; without it audit_same_kind
 * and eval's pool took batches of another problems/NAME.c for reruns of
 * this problem (red team 136: a faster claim contradicted 1 of 3 became
 * supported 4 of 6, and eval promoted at 5 of 7, from three batches of a
 * rowsum whose timing distribution was another). */
static void batch_plugin_of_runs(struct query *q, struct batch_record *b)
{
	for (size_t k = 0; k < b->n_rows && !b->problem.plugin_sha256; k++) {
		const struct batch_row *x = &b->rows[k];
		const char *id = x->n_runs ? x->runs[0] : x->run_id;
		long at = id ? exact_index(q, id) : -1;
		const struct run_record *r = at >= 0 ? query_run_at(q, (size_t)at) : NULL;
		if (r && r->problem.plugin_sha256) {
			b->problem.plugin_sha256 = r->problem.plugin_sha256;
			b->problem.judge_sha256 = r->problem.judge_sha256;
			b->problem.judge_run_sha256 = r->problem.judge_run_sha256;
			b->problem.judge_run_roles = r->problem.judge_run_roles;
		}
	}
}

static int load(struct query *q, size_t i)
{
	struct query_entry *e = &q->e[i];
	if (e->loaded)
		return e->m ? 0 : -1;
	e->loaded = 1;
	if (store_load(&q->st, e->run_id, &e->m) < 0) {
		e->m = NULL;
		return -1;
	}
	if (record_is_batch(e->m)) {
		e->batch = xcalloc(1, sizeof(*e->batch));
		if (record_batch_read(e->m, e->batch) < 0) {
			batch_record_release(e->batch);
			free(e->batch);
			e->batch = NULL;
			return error("batch '%s' in '%s' cannot be read; run 'evident verify'", e->run_id, q->st.root);
		}
		if (!e->batch->problem.plugin_sha256)
			batch_plugin_of_runs(q, e->batch);
	} else if (record_is_search(e->m)) {
		e->search = xcalloc(1, sizeof(*e->search));
		if (record_search_read(e->m, e->search) < 0) {
			search_record_release(e->search);
			free(e->search);
			e->search = NULL;
			return error("search '%s' in '%s' cannot be read; run 'evident verify'", e->run_id, q->st.root);
		}
	} else if (record_is_run(e->m)) {
		e->run = xcalloc(1, sizeof(*e->run));
		if (record_run_read(e->m, e->run) < 0) {
			run_record_release(e->run);
			free(e->run);
			e->run = NULL;
			return error("run '%s' in '%s' cannot be read; run 'evident verify'", e->run_id, q->st.root);
		}
	}
	return 0;
}

const struct run_record *query_run_at(struct query *q, size_t i)
{
	if (i >= q->n || q->e[i].a.is_batch || q->e[i].a.is_search || load(q, i) < 0)
		return NULL;
	return q->e[i].run;
}

const struct batch_record *query_batch_at(struct query *q, size_t i)
{
	if (i >= q->n || !q->e[i].a.is_batch || load(q, i) < 0)
		return NULL;
	return q->e[i].batch;
}

static int of_experiment(const struct query_entry *e, const char *experiment);

const struct search_record *query_search_at(struct query *q, size_t i)
{
	if (i >= q->n || !q->e[i].a.is_search || load(q, i) < 0)
		return NULL;
	return q->e[i].search;
}

long query_search(struct query *q, const char *experiment, const char *run, struct strbuf *why)
{
	if (run && strcmp(run, "latest")) {
		struct strbuf amb = STRBUF_INIT;
		long i = query_find(q, run, &amb);
		if (i >= 0 && !q->e[i].a.is_search)
			strbuf_addf(why, "'%s' is not a search", run);
		else if (i >= 0 && experiment && !of_experiment(&q->e[i], experiment))
			strbuf_addf(why, "search '%s' is of experiment '%s', not '%s'", q->e[i].run_id,
				    q->e[i].a.experiment ? q->e[i].a.experiment : "?", experiment);
		else if (i == -2)
			strbuf_addf(why, "'%s' names several records: %s", run, amb.buf);
		else if (i < 0)
			strbuf_addf(why, "no search '%s' in '%s'", run, q->st.root);
		strbuf_release(&amb);
		return i >= 0 && !why->len ? i : -1;
	}
	for (size_t i = q->n; i-- > 0;)
		if (q->e[i].a.is_search && of_experiment(&q->e[i], experiment))
			return (long)i;
	strbuf_addf(why, "no search%s%s%s in '%s'", experiment ? " of experiment '" : "", experiment ? experiment : "",
		    experiment ? "'" : "", q->st.root);
	return -1;
}

json_t *query_manifest_at(struct query *q, size_t i)
{
	if (i >= q->n || load(q, i) < 0)
		return NULL;
	return q->e[i].m;
}

/* The hash part of a run id: the 8 hex digits after the experiment. */
static const char *hash_part(const char *id)
{
	size_t n = strlen(id);
	const char *end = id + n;
	if (n > 6 && !strcmp(end - 6, "-batch"))
		end -= 6;
	else if (n > 7 && !strcmp(end - 7, "-search"))
		end -= 7;
	const char *p = end;
	while (p > id && isxdigit((unsigned char)p[-1]))
		p--;
	return p > id && p[-1] == '-' && end - p == 8 ? p : NULL;
}

/* Does entry i match id (of length len) in pass 0 (the id) or 1 (its hash part)? */
static int id_matches(const struct query *q, size_t i, const char *id, size_t len, size_t pass)
{
	const char *h = pass ? hash_part(q->e[i].run_id) : q->e[i].run_id;
	return h && !strncmp(h, id, len);
}

/* Of the matches of id in pass: the one batch, when every other match is
 * one of its own runs; else -1. */
static long batch_and_its_runs(const struct query *q, const char *id, size_t len, size_t pass)
{
	long batch = -1;
	for (size_t i = 0; i < q->n; i++)
		if (q->e[i].a.is_batch && id_matches(q, i, id, len, pass)) {
			if (batch >= 0)
				return -1;
			batch = (long)i;
		}
	if (batch < 0)
		return -1;
	const struct query_entry *b = &q->e[batch];
	for (size_t i = 0; i < q->n; i++) {
		const char *of = q->e[i].a.batch_id;
		if (q->e[i].a.is_batch || !id_matches(q, i, id, len, pass))
			continue;
		if (!of || (strcmp(of, b->run_id) && (!b->a.batch_id || strcmp(of, b->a.batch_id))))
			return -1;
	}
	return batch;
}

/* One whole id of the index: a run id, or a batch's batch id (a v1
 * manifest's printed id), and the entry it names. */
struct query_id {
	const char *id;
	size_t i;
};

static int query_id_cmp(const void *a, const void *b)
{
	const struct query_id *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The entry query_find's first pass returns for a whole id: the first
 * entry whose run id is id, or that is a batch whose batch id is id (the
 * smaller index of the two, as the scan meets them); -1 when none is.
 * The index is built once for the q->n entries query_open made (entries
 * are only made there; query_release frees it). */
static long exact_index(struct query *q, const char *id)
{
	if (!q->ids || q->ids_n != q->n) {
		free(q->ids);
		q->ids = xcalloc(2 * q->n + 1, sizeof(*q->ids));
		q->n_ids = 0;
		for (size_t i = 0; i < q->n; i++) {
			q->ids[q->n_ids++] = (struct query_id){ q->e[i].run_id, i };
			if (q->e[i].a.batch_id && q->e[i].a.is_batch)
				q->ids[q->n_ids++] = (struct query_id){ q->e[i].a.batch_id, i };
		}
		qsort(q->ids, q->n_ids, sizeof(*q->ids), query_id_cmp);
		q->ids_n = q->n;
	}
	size_t lo = 0, hi = q->n_ids; /* the first id not below id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(q->ids[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < q->n_ids && !strcmp(q->ids[lo].id, id) ? (long)q->ids[lo].i : -1;
}

long query_find(const struct query *q, const char *id, struct strbuf *why)
{
	size_t len = strlen(id), hits = 0, id_pass = 0;
	long hit = -1;
	if (!len)
		return -1;
	/* a whole id: the scan below would return at its entry (the lookups
	 * that ask a why keep the scan: it lists the prefixes it passed) */
	if (!why) {
		long i = exact_index((struct query *)q, id);
		if (i >= 0)
			return i;
	}
	for (size_t pass = 0; pass < 2 && !hits; pass++) {
		for (size_t i = 0; i < q->n; i++) {
			const char *r = q->e[i].run_id;
			if (!strcmp(r, id))
				return (long)i;
			const char *h = pass ? hash_part(r) : r;
			int match = h && !strncmp(h, id, len);
			/* a batch's v1 manifest and its printed batch id differ: both resolve */
			if (!pass && !match && q->e[i].a.batch_id && q->e[i].a.is_batch &&
			    !strcmp(q->e[i].a.batch_id, id))
				return (long)i;
			if (match) {
				id_pass = pass;
				if (hits < 10 && why)
					strbuf_addf(why, "%s%s", hits ? ", " : "", r);
				hits++;
				hit = (long)i;
			}
		}
	}
	if (hits > 1 && id_pass == 0) { /* a prefix of the id, not of a hash part */
		long b = batch_and_its_runs(q, id, len, 0);
		if (b >= 0) {
			hits = 1;
			hit = b;
		}
	}
	if (hits == 1) {
		if (why)
			strbuf_reset(why);
		return hit;
	}
	if (hits > 10 && why)
		strbuf_addf(why, " and %zu more", hits - 10);
	return hits ? -2 : -1;
}

int query_has_experiment(const struct query *q, const char *experiment)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->e[i].a.experiment && !strcmp(q->e[i].a.experiment, experiment))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **query_experiments(const struct query *q, size_t *n)
{
	const char **names = xcalloc(q->n + 1, sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < q->n; i++) {
		const char *e = q->e[i].a.experiment;
		int seen = 0;
		for (size_t k = 0; e && k < *n && !seen; k++)
			seen = !strcmp(names[k], e);
		if (e && !seen)
			names[(*n)++] = e;
	}
	qsort(names, *n, sizeof(char *), cmp_str);
	return names;
}

/* ---- batches ------------------------------------------------------------------- */

static int has_rows(const struct batch_record *b, const char *const *need)
{
	for (size_t i = 0; need && need[i]; i++)
		if (!batch_find_row(b, need[i]))
			return 0;
	return 1;
}

static int of_experiment(const struct query_entry *e, const char *experiment)
{
	return !experiment || (e->a.experiment && !strcmp(e->a.experiment, experiment));
}

/* A batch of `evident reproduce`: its index attrs name the batch it
 * reproduces. */
static int is_reproduction(const struct query_entry *e)
{
	return e->a.is_batch && e->a.reproduces;
}

json_t *(*query_spec_variants)(const char *spec_text);

/* Does v (a variant of query_spec_variants' or query_spec_definition's:
 * {kernel, params}; NULL: none) hold row's kernel file and parameters? */
static int row_is(json_t *v, const struct batch_row *row)
{
	const char *k = json_string_value(json_object_get(v, "kernel"));
	json_t *p = json_object_get(v, "params");
	if (!v || !k || !row->kernel || strcmp(k, row->kernel) || json_object_size(p) != row->n_params)
		return 0;
	for (size_t i = 0; i < row->n_params; i++) {
		const char *val = json_string_value(json_object_get(p, row->params[i].name));
		if (!val || strcmp(val, row->params[i].value))
			return 0;
	}
	return 1;
}

/* Is row (its name, kernel and parameters) a variant of the spec whose
 * variants are vs (query_spec_variants)? */
static int row_of_spec(json_t *vs, const struct batch_row *row)
{
	return row_is(row->variant ? json_object_get(vs, row->variant) : NULL, row);
}

/*
 * An eval session's batch recorded before eval marked its batches
 * (`session: eval`, 2026-11-30 21:25) carries no mark, and `latest` read
 * one as the experiment's result (red team 76's "unmarked": red team 74's
 * impostor batch was the paper's latest table, "pub takes 161.91 us").
 * It is recognised by what its records hold: every run records the spec
 * it ran (spec.object), and a batch of `evident run` has only that spec's
 * variants, each with its kernel and parameters; a row whose name the
 * spec does not have, or has for another kernel or other parameters, is
 * an eval candidate.  A search's generation batch (its rows' lineage
 * names the search) is the search's own.  No record is rewritten: the
 * mark lives in q, computed once a batch, when a reader asks; a batch
 * whose spec cannot be read is taken as it was recorded (no mark).
 */
static int unmarked_eval(struct query *q, size_t i)
{
	struct query_entry *e = &q->e[i];
	if (e->eval_mark)
		return e->eval_mark > 0;
	e->eval_mark = -1;
	if (!query_spec_variants || !e->a.is_batch || e->a.session || e->a.reproduces)
		return 0;
	const struct batch_record *b = query_batch_at(q, i);
	if (!b || !b->n_rows)
		return 0;
	const char *obj = NULL;
	for (size_t k = 0; k < b->n_rows; k++) {
		if (!b->rows[k].kernel)
			return 0; /* a batch format whose rows hold no code (evident-batch/1): no telling */
		const struct run_record *r = query_row_run(q, &b->rows[k]);
		if (r && r->lineage.have && r->lineage.search)
			return 0;
		if (r && r->spec_object && !obj)
			obj = r->spec_object;
	}
	struct strbuf text = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int got = obj && store_get(&q->st, obj, &text) == 0;
	util_quiet = saved;
	json_t *vs = got ? query_spec_variants(strbuf_str(&text)) : NULL;
	strbuf_release(&text);
	if (!vs)
		return 0;
	int cand = 0;
	for (size_t k = 0; k < b->n_rows && !cand; k++)
		cand = !row_of_spec(vs, &b->rows[k]);
	json_decref(vs);
	e->eval_mark = cand ? 1 : -1;
	return cand;
}

/* A batch of `evident eval`: the reference and one candidate, under the
 * spec's experiment name (red team 74: the newest of them stood for the
 * experiment's result in a paper's latest table, and a candidate that
 * slept in init() set a search's first cost estimate): marked
 * `session: eval`, or, recorded before the mark, recognised
 * (unmarked_eval). */
static int is_eval(struct query *q, size_t i)
{
	const struct query_entry *e = &q->e[i];
	if (!e->a.is_batch)
		return 0;
	if (e->a.session)
		return !strcmp(e->a.session, "eval");
	return unmarked_eval(q, i);
}

int query_is_eval(struct query *q, size_t i)
{
	return i < q->n && is_eval(q, i);
}

/* Does entry e, a batch, carry run id (or batch id) id? */
static int batch_is(const struct query_entry *e, const char *id)
{
	return id && (!strcmp(e->run_id, id) || (e->a.batch_id && !strcmp(e->a.batch_id, id)));
}

size_t query_reproductions_of(const struct query *q, const char *run_id, const char *batch_id, size_t **out)
{
	size_t n = 0;
	*out = xcalloc(q->n + 1, sizeof(**out));
	for (size_t i = q->n; i-- > 0;) {
		const char *of = q->e[i].a.reproduces;
		if (is_reproduction(&q->e[i]) && ((run_id && !strcmp(of, run_id)) || (batch_id && !strcmp(of, batch_id))))
			(*out)[n++] = i;
	}
	return n;
}

/* query_next_batch; evals: 0 eval sessions' batches left out, 1 only they */
static const struct batch_record *next_batch(struct query *q, const char *experiment, const char *const *need,
					     size_t *pos, int evals)
{
	while (*pos > 0) {
		size_t i = --*pos;
		if (!q->e[i].a.is_batch || !of_experiment(&q->e[i], experiment) || is_reproduction(&q->e[i]) ||
		    is_eval(q, i) != evals)
			continue;
		const struct batch_record *b = query_batch_at(q, i);
		if (b && has_rows(b, need))
			return b;
	}
	return NULL;
}

const struct batch_record *query_next_batch(struct query *q, const char *experiment, const char *const *need,
					    size_t *pos)
{
	return next_batch(q, experiment, need, pos, 0);
}

const struct batch_record *query_next_batch_all(struct query *q, const char *experiment, size_t *pos)
{
	while (*pos > 0) {
		size_t i = --*pos;
		if (!q->e[i].a.is_batch || !of_experiment(&q->e[i], experiment))
			continue;
		const struct batch_record *b = query_batch_at(q, i);
		if (b)
			return b;
	}
	return NULL;
}

const char *query_newest_batch_id(struct query *q, const char *experiment)
{
	for (size_t i = q->n; i-- > 0;)
		if (q->e[i].a.is_batch && of_experiment(&q->e[i], experiment) && !is_reproduction(&q->e[i]) &&
		    !is_eval(q, i))
			return q->e[i].run_id;
	return NULL;
}

const struct batch_record *query_batch_of(struct query *q, const struct run_record *run)
{
	if (!run || !run->batch_id)
		return NULL;
	for (size_t i = q->n; i-- > 0;) {
		const struct query_entry *e = &q->e[i];
		if (e->a.is_batch && ((e->a.batch_id && !strcmp(e->a.batch_id, run->batch_id)) ||
				      !strcmp(e->run_id, run->batch_id)))
			return query_batch_at(q, i);
	}
	return NULL;
}

int query_row_few_processes(const struct batch_record *b, const struct batch_row *row)
{
	/* whatever its outcome: a failing row runs every repeat too (of the
	 * store's 1400 failed v2 rows, only interrupted batches' aborted
	 * ones have fewer runs than the batch's repeats); v1 rows are one
	 * process by design */
	return b && row && b->version >= 2 && row->runs && row->n_runs < STATS_MIN_PROCESSES;
}

int query_batch_unsettled(const struct batch_record *b, const char *const *need)
{
	if (!b)
		return 0;
	if (b->interrupted)
		return 1;
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		int wanted = !need;
		for (size_t j = 0; need && need[j]; j++)
			wanted |= row->variant && !strcmp(need[j], row->variant);
		/* a failure in a passed-over batch still counts where batches
		 * are weighed (the reruns of a verdict, the votes on a value,
		 * every run of `validated`) */
		if (wanted && query_row_few_processes(b, row))
			return 1;
	}
	return 0;
}

json_t *(*query_spec_definition)(const char *spec_text);

/* A spec's text and what it defines (query_spec_definition), as read once:
 * the file at a recorded spec.path now (key the path, with its size and
 * modification time), or a recorded spec object (key its hash). */
struct spec_seen {
	char *key;
	long long size, mtime;
	int gone;                    /* the path names no file now */
	char *text;                  /* NULL: not readable */
	json_t *def;                 /* NULL: the text does not load */
};

static void spec_seen_set(struct spec_seen *e, const char *key, long long size, long long mtime, int gone,
			  struct strbuf *text)
{
	free(e->key);
	free(e->text);
	json_decref(e->def);
	e->key = xstrdup(key);
	e->size = size;
	e->mtime = mtime;
	e->gone = gone;
	e->text = text ? xstrdup(strbuf_str(text)) : NULL;
	e->def = text ? query_spec_definition(e->text) : NULL;
}

/* The spec file at path now, cached by path, size and modification time. */
static const struct spec_seen *spec_now(const char *path)
{
	static struct spec_seen cache[8];
	static size_t next;
	struct stat st;
	int gone = stat(path, &st) < 0;
	long long size = gone ? -1 : (long long)st.st_size, mtime = gone ? -1 : (long long)st.st_mtime;
	for (size_t i = 0; i < ARRAY_SIZE(cache); i++)
		if (cache[i].key && !strcmp(cache[i].key, path) && cache[i].gone == gone && cache[i].size == size &&
		    cache[i].mtime == mtime)
			return &cache[i];
	struct strbuf text = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int got = !gone && read_file(path, &text) == 0;
	util_quiet = saved;
	struct spec_seen *e = &cache[next++ % ARRAY_SIZE(cache)];
	spec_seen_set(e, path, size, mtime, gone, got ? &text : NULL);
	strbuf_release(&text);
	return e;
}

/* The spec text a run recorded (its spec.object in q's store), cached by
 * its hash; text NULL when the store does not hold it (not cached). */
static const struct spec_seen *spec_then(struct query *q, const char *object)
{
	static struct spec_seen cache[16];
	static size_t next;
	for (size_t i = 0; i < ARRAY_SIZE(cache); i++)
		if (cache[i].key && !strcmp(cache[i].key, object))
			return &cache[i];
	static const struct spec_seen none;
	struct strbuf text = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int got = store_get(&q->st, object, &text) == 0;
	util_quiet = saved;
	if (!got) {
		/* not kept: another store may hold it */
		strbuf_release(&text);
		return &none;
	}
	/* the same hash in another store is the same text */
	struct spec_seen *e = &cache[next++ % ARRAY_SIZE(cache)];
	spec_seen_set(e, object, 0, 0, 0, &text);
	strbuf_release(&text);
	return e;
}

/* The members in which objects x and y differ, by name into what (", "
 * between), a knob's (x and y's "knobs") by its own name, a parameter's
 * as "parameter NAME". */
static void name_differences(json_t *x, json_t *y, struct strbuf *what)
{
	json_t *keys = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(x, k, v) json_object_set(keys, k, json_true());
	json_object_foreach(y, k, v) json_object_set(keys, k, json_true());
	json_object_foreach(keys, k, v)
	{
		json_t *a = json_object_get(x, k), *b = json_object_get(y, k);
		if (a && b && json_equal(a, b))
			continue;
		if ((!strcmp(k, "knobs") || !strcmp(k, "params")) && json_is_object(a) && json_is_object(b)) {
			json_t *keys2 = json_object();
			const char *k2;
			json_t *v2;
			json_object_foreach(a, k2, v2) json_object_set(keys2, k2, json_true());
			json_object_foreach(b, k2, v2) json_object_set(keys2, k2, json_true());
			json_object_foreach(keys2, k2, v2)
			{
				json_t *a2 = json_object_get(a, k2), *b2 = json_object_get(b, k2);
				if (!a2 || !b2 || !json_equal(a2, b2))
					strbuf_addf(what, "%s%s%s", what->len ? ", " : "",
						    !strcmp(k, "params") ? "parameter " : "", k2);
			}
			json_decref(keys2);
			continue;
		}
		strbuf_addf(what, "%s%s", what->len ? ", " : "", k);
	}
	json_decref(keys);
}

int query_spec_defines(struct query *q, const struct run_record *run, const struct batch_row *row,
		       struct strbuf *why)
{
	if (!run || !row || !row->variant || !run->spec_path || !query_spec_definition)
		return 1;
	const struct spec_seen *now = spec_now(run->spec_path);
	if (now->gone) {
		strbuf_addf(why, "the spec '%s' that run '%s' ran is gone (moved, renamed or deleted): no spec "
				 "defines its variant '%s' now",
			    run->spec_path, run->run_id, row->variant);
		return 0;
	}
	if (!now->def) {
		strbuf_addf(why, "the spec '%s' that run '%s' ran %s now", run->spec_path, run->run_id,
			    now->text ? "does not load" : "cannot be read");
		return 0;
	}
	const struct spec_seen *then = run->spec_object && q ? spec_then(q, run->spec_object) : NULL;
	if (then && then->text && !strcmp(then->text, now->text))
		return 1; /* the spec it ran, byte for byte */
	json_t *now_v = json_object_get(json_object_get(now->def, "variants"), row->variant);
	/* a search's run recorded its generation's spec, written by the
	 * search with its candidates as variants; the file defines the
	 * search: a candidate is held to the spec-wide part alone, and its
	 * row to a variant of its name in the file */
	int generation = run->lineage.have && run->lineage.search;
	json_t *then_v = then && then->def && !generation
				 ? json_object_get(json_object_get(then->def, "variants"), row->variant)
				 : NULL;
	struct strbuf what = STRBUF_INIT;
	int ok = 1;
	if (then && then->def) {
		/* what the spec defined as it ran against what it defines now:
		 * every variant's run shares the spec-wide part (flags, shape,
		 * problem, dtype, knobs, ...); a variant of the spec it ran
		 * (not an eval or search candidate) its own too */
		if (then_v && !now_v) {
			strbuf_addf(why, "the spec '%s' no longer defines variant '%s' that run '%s' ran (renamed or "
					 "removed)",
				    run->spec_path, row->variant, run->run_id);
			return 0;
		}
		name_differences(json_object_get(then->def, "spec"), json_object_get(now->def, "spec"), &what);
		if (then_v)
			name_differences(then_v, now_v, &what);
		ok = !what.len;
	}
	/* the row's own kernel file and parameters (records without a spec
	 * object, a spec that no longer loads as it ran, or a candidate under
	 * the name of a variant the spec has now) */
	if (ok && now_v && row->kernel && !row_is(now_v, row)) {
		strbuf_addstr(&what, "its kernel or parameters");
		ok = 0;
	}
	if (!ok)
		strbuf_addf(why, "the spec '%s' now defines variant '%s' otherwise than run '%s' ran it (changed: %s)",
			    run->spec_path, row->variant, run->run_id, what.buf);
	strbuf_release(&what);
	return ok;
}

/* Did the rows of b named by need (every row when NULL) run the code in
 * the working tree, as their spec defines them now?  0 with why saying
 * what changed. */
static int batch_problem_current(struct query *q, const struct batch_record *b, const char *const *need);

static int rows_current(struct query *q, const struct batch_record *b, const char *const *need, struct strbuf *why)
{
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		int wanted = !need;
		for (size_t j = 0; need && need[j]; j++)
			wanted |= row->variant && !strcmp(need[j], row->variant);
		if (!wanted)
			continue;
		const struct run_record *run = query_row_run(q, row);
		if (!run) {
			strbuf_addf(why, "run '%s' is missing from the store", row->run_id ? row->run_id : "?");
			return 0;
		}
		if (!query_sources_current(q, run, why) || !query_spec_defines(q, run, row, why))
			return 0;
	}
	return 1;
}

const struct batch_record *query_latest_result(struct query *q, const char *experiment, const char *const *need,
					       int *stale, struct strbuf *why, const struct batch_record **passed)
{
	/* newest first: the first settled batch of the current code wins;
	 * else the newest unsettled one of the current code; else (stale)
	 * the newest settled one, else the newest */
	size_t pos = q->n;
	const struct batch_record *b, *first = NULL, *first_settled = NULL, *unsettled_cur = NULL;
	struct strbuf w = STRBUF_INIT, first_why = STRBUF_INIT, settled_why = STRBUF_INIT;
	int problem_moved = 0;
	*stale = 0;
	if (passed)
		*passed = NULL;
	while ((b = query_next_batch(q, experiment, need, &pos))) {
		int unsettled = query_batch_unsettled(b, need);
		strbuf_reset(&w);
		int cur = rows_current(q, b, need, &w);
		/* a batch whose runs recorded no problem code, older than one
		 * whose problem's code changed since, ran that problem or an
		 * older one: not current either (rowsum-cuda, 2026-12-07: once
		 * problems/rowsum.c changed, the newest batch read stale and
		 * run=latest fell back to a 2-repeat batch of 2026-11-23, before
		 * problem provenance, which every claim then read as current) */
		int ps = batch_problem_current(q, b, need);
		if (ps == 0)
			problem_moved = 1;
		else if (ps < 0 && problem_moved && cur) {
			cur = 0;
			strbuf_addstr(&w, "its runs recorded no problem code, and a newer batch of the experiment ran a "
					  "problem whose code changed since: this one ran that problem or an older one");
		}
		if (!first) {
			first = b;
			strbuf_addstr(&first_why, strbuf_str(&w));
		}
		if (!unsettled && !first_settled) {
			first_settled = b;
			strbuf_addstr(&settled_why, strbuf_str(&w));
		}
		if (cur && !unsettled) {
			if (passed)
				*passed = unsettled_cur;
			strbuf_release(&w);
			strbuf_release(&first_why);
			strbuf_release(&settled_why);
			return b;
		}
		if (cur && !unsettled_cur)
			unsettled_cur = b;
	}
	strbuf_release(&w);
	if (unsettled_cur) {
		b = unsettled_cur;
	} else if (first) {
		*stale = 1;
		b = first_settled ? first_settled : first;
		if (why)
			strbuf_addstr(why, strbuf_str(first_settled ? &settled_why : &first_why));
	}
	strbuf_release(&first_why);
	strbuf_release(&settled_why);
	return b;
}

const struct batch_record *query_batch(struct query *q, const char *experiment, const char *run,
				       const char *const *need, struct strbuf *why)
{
	const struct batch_record *b = NULL;
	if (!run || !strcmp(run, "latest")) {
		/* the latest batch of an experiment is the newest one it ran for
		 * itself: a batch of `evident reproduce` re-ran older code, and is
		 * evidence for `reproduced` claims, not the experiment's result
		 * (query_next_batch leaves it out by its index entry); and the
		 * one the audit reads as a claim's evidence (query_latest_result:
		 * an interrupted batch, or one of fewer than STATS_MIN_PROCESSES
		 * repeats a side, is passed over while a settled one exists; red
		 * team 122's paper-latest showed an interrupted batch's 1.33x
		 * beside a claim supported by the finished one's 1.402x). */
		int stale_unused;
		b = query_latest_result(q, experiment, need, &stale_unused, NULL, NULL);
		size_t pos;
		if (!b) {
			/* an eval session's batch, where no other has the
			 * variants asked for (a candidate's own) */
			pos = q->n;
			b = next_batch(q, experiment, need, &pos, 1);
		}
		if (!b) {
			if (!experiment)
				strbuf_addstr(why, "no recorded batch");
			else if (!query_has_experiment(q, experiment))
				strbuf_addf(why, "no recorded run of experiment '%s'", experiment);
			else if (need && need[0])
				strbuf_addf(why, "no recorded batch of experiment '%s' has variant%s %s%s%s",
					    experiment, need[1] ? "s" : "", need[0], need[1] ? " and " : "",
					    need[1] ? need[1] : "");
			else
				strbuf_addf(why, "no recorded batch of experiment '%s'", experiment);
		}
		return b;
	}
	struct strbuf amb = STRBUF_INIT;
	long i = query_find(q, run, &amb);
	if (i < 0) {
		if (i == -2)
			strbuf_addf(why, "run id '%s' is ambiguous (%s)", run, amb.buf);
		else
			strbuf_addf(why, "no run '%s' in the store", run);
		strbuf_release(&amb);
		return NULL;
	}
	strbuf_release(&amb);
	b = q->e[i].a.is_batch ? query_batch_at(q, (size_t)i) : query_batch_of(q, query_run_at(q, (size_t)i));
	if (!b) {
		strbuf_addf(why, "run '%s' belongs to no recorded batch", run);
		return NULL;
	}
	if (experiment && (!b->experiment || strcmp(b->experiment, experiment))) {
		strbuf_addf(why, "run '%s' is of experiment '%s', not '%s'", run, b->experiment, experiment);
		return NULL;
	}
	if (!has_rows(b, need)) {
		strbuf_addf(why, "batch '%s' has no variant '%s'", b->run_id,
			    need[0] && !batch_find_row(b, need[0]) ? need[0] : need[1]);
		return NULL;
	}
	return b;
}

size_t query_row_runs(struct query *q, const struct batch_row *row, const struct run_record ***out)
{
	size_t n = 0;
	*out = xcalloc(row->n_runs + 1, sizeof(**out));
	for (size_t k = 0; k < row->n_runs; k++) {
		long i = query_find(q, row->runs[k], NULL);
		const struct run_record *r = i >= 0 ? query_run_at(q, (size_t)i) : NULL;
		if (r)
			(*out)[n++] = r;
	}
	return n;
}

/*
 * 1 when the judge refuted most of what run r's timed samples say, so
 * they are no speed of the code doing its work: at least half of its
 * timed checks failed (wrong, NaN, unwritten outputs), at least half of
 * its samples escaped (work on another stream, past the stop event, after
 * the done line), or its median was below the hardware's floor or far
 * under the CUDA events (those outcomes say so of the median itself).
 * Red team 64's wrongfast: a reference that skipped work in one process
 * of one batch (wrong in 14 of 14 timed checks) set its code's fastest
 * speed at 148-343 us against its honest 398-637 us, and eval held every
 * honest faster candidate for good (0 of 24 promoted).  A minority of
 * refuted samples leaves the run its speed: their median is the work's,
 * and a kernel that failed one check on purpose does not hide a fast
 * process that way (red teams 62 and 63 hid theirs by failing).  A run
 * that did not end ok needs a passed timed check besides: a crash says
 * nothing of the samples before it, and the checks drawn among them do
 * (red team 66).
 */
/* The run's judge asked for fewer timed checks than REC_TIMED_CHECKS_MIN
 * (a spec's `timed_checks`): too few vouch for its timed samples (red
 * team 69's lastonly skipped 60% of them in a publish batch at 0 checks,
 * ok at 70-138 us against the honest 650-980, and eval held 12 of 12
 * honest candidates by it; at 1 check, 1 run of 26 kept a fake speed).
 * Records from before the judge said so answer 0. */
static int run_unchecked(const struct run_record *r)
{
	json_t *tc = r->judge ? json_object_get(r->judge, "timed_checks") : NULL;
	json_t *w = tc ? json_object_get(tc, "wanted") : NULL;
	return json_is_integer(w) && json_integer_value(w) < REC_TIMED_CHECKS_MIN;
}

/* A run of the adaptive draw (no fixed count: each check drawn at its
 * sample is final, no late draw or cover) that did not end ok: where it
 * stopped was the kernel's to choose (red team 69's adaptcrash skipped
 * its uniform samples from launch 300 to 660, then aborted: 3 of 24 such
 * runs kept 142-206 us against the honest 677-850). */
static int run_adaptive_cut(const struct run_record *r)
{
	json_t *tc = r->judge ? json_object_get(r->judge, "timed_checks") : NULL;
	const char *d = tc ? json_string_value(json_object_get(tc, "draw")) : NULL;
	return r->outcome != OUTCOME_OK && d && !strcmp(d, "adaptive");
}

/* The run was judged by a weaker judge than the default (red team 71): a
 * tolerance looser than the problem's own on any field (its tolzero wrote
 * zeros under atol 1, rtol 1, rel_l2 2: 21 of 21 runs ok at 37-142 us
 * against the honest 640-900, and eval held 16 of 16 honest faster
 * verdicts by them), or no box (`--unsandboxed`: its forkpre's helper
 * process summed the rows before the clock started, ok at 44-101 us), or
 * boxes made by a bubblewrap the runner could not verify
 * (EVIDENT_BWRAP_UNVERIFIED=1, base/sandbox_tool.c: red team 133's
 * stand-ins ran another object than the record names, handed the box the
 * host's `/`, kept a /tmp across boxes; a record before the check has no
 * binary_verified and is judged as before). */
_Static_assert(REC_TIMED_CHECKS_MIN == 10, "query_run_weak_judge_why names the count");
const char *query_run_weak_judge_why(const struct run_record *r)
{
	/* fewer timed checks than the default (run_unchecked): README says
	 * such a run speaks for no speed of its code, and red team 138's
	 * zerochecks (timed_checks 0) still backed faster 15.649x and
	 * validated, and eval promoted it 16.238x */
	if (run_unchecked(r))
		return "fewer than 10 timed checks a run (timed_checks)";
	return query_run_bendable_judge_why(r);
}

const char *query_run_bendable_judge_why(const struct run_record *r)
{
	if (query_run_unboxed(r))
		return "no box (--unsandboxed)";
	if (query_run_box_unverified(r))
		return "boxes of a bubblewrap the runner could not verify (EVIDENT_BWRAP_UNVERIFIED=1)";
	if (query_run_shadowed_libraries(r))
		return "libraries on the runner's LD_LIBRARY_PATH shadowing the system's (judge.sandbox.shadowed_libraries)";
	return NULL;
}

/* run_weakly_judged's reason: a looser tolerance, or a weaker box */
static const char *run_weak_why(const struct run_record *r)
{
	if ((isfinite(r->problem_atol) && r->atol > r->problem_atol) ||
	    (isfinite(r->problem_rtol) && r->rtol > r->problem_rtol) ||
	    (isfinite(r->problem_rel_l2) && r->rel_l2 > r->problem_rel_l2))
		return "a tolerance looser than the problem's";
	return query_run_weak_judge_why(r);
}

static int run_weakly_judged(const struct run_record *r)
{
	return run_weak_why(r) != NULL;
}

int query_run_unboxed(const struct run_record *r)
{
	json_t *sb = r->judge ? json_object_get(r->judge, "sandbox") : NULL;
	const char *tool = sb ? json_string_value(json_object_get(sb, "tool")) : NULL;
	return tool && !strcmp(tool, "none");
}

int query_run_shadowed_libraries(const struct run_record *r)
{
	json_t *sb = r->judge ? json_object_get(r->judge, "sandbox") : NULL;
	json_t *sh = sb ? json_object_get(sb, "shadowed_libraries") : NULL;
	return json_is_array(sh) && json_array_size(sh) > 0;
}

int query_run_box_unverified(const struct run_record *r)
{
	json_t *sb = r->judge ? json_object_get(r->judge, "sandbox") : NULL;
	json_t *verified = sb ? json_object_get(sb, "binary_verified") : NULL;
	const char *done = json_is_object(verified) ? json_string_value(json_object_get(verified, "done")) : NULL;
	return done && strcmp(done, "yes");
}

static int run_refuted(const struct run_record *r)
{
	if (r->outcome == OUTCOME_BELOW_FLOOR || r->outcome == OUTCOME_CLOCK_DISAGREE || run_unchecked(r) ||
	    run_adaptive_cut(r) || run_weakly_judged(r))
		return 1;
	size_t passed = 0, failed = 0;
	struct rec_phase ph[8];
	size_t np = record_check_phases(r, ph, sizeof(ph) / sizeof(ph[0]));
	for (size_t i = 0; i < np; i++)
		if (!strcmp(ph[i].phase, "timed")) {
			failed = ph[i].failed;
			passed = ph[i].n - ph[i].failed;
		}
	/* any failed timed check: the checks are a uniform draw over the
	 * samples, so one that failed says an unknown share of the unchecked
	 * ones did not do the work either.  Counting failed against passed
	 * let a kernel pass the checks of the samples that are not the time
	 * (red team 68's stressok: honest on the stress distributions, which
	 * met 6-8 checks a run, nothing written in 55-80% of the timing
	 * samples: 32 of 42 runs kept medians of 43-306 us against the
	 * honest 650-980 us), or fail just under half (red team 67's
	 * edgecrash: 8 passed of 9, 7 of 13).  Honest runs fail none (372 ok
	 * runs of those rounds). */
	if (failed)
		return 1;
	/* a run that did not end ok with no timed check passed: nothing shows
	 * its samples did the work.  Its drawn checks are judged since red
	 * team 66 (job.c job_judge), whose crashfast wrote nothing in its
	 * timed samples and crashed early, where few or none were drawn. */
	if (r->outcome != OUTCOME_OK && !passed)
		return 1;
	/* nor one whose draw still owed checks when it ended (the late draw,
	 * run for a dead worker too since red team 67, found no held sample
	 * to give them to) */
	if (r->outcome != OUTCOME_OK) {
		json_t *tc = r->judge ? json_object_get(r->judge, "timed_checks") : NULL;
		json_t *owed = tc ? json_object_get(tc, "owed") : NULL;
		if (json_is_integer(owed) && json_integer_value(owed) > 0)
			return 1;
	}
	/* escapes against the samples that are the time (red team 68: every
	 * sample counted let the stress ones dilute them) */
	long long n = 0;
	for (size_t i = 0; i < r->n_by_dist; i++)
		if (r->by_dist[i].timing)
			n += r->by_dist[i].n;
	if (!n)
		n = r->n_samples;
	long long escaped = r->escapes.other_stream + r->escapes.late + r->escapes.block_timeouts;
	return escaped > 0 && n > 0 && 2 * escaped >= n;
}

const char *query_row_weak_judge_why(struct query *q, const struct batch_row *row)
{
	const struct run_record **runs;
	size_t n = query_row_runs(q, row, &runs);
	const char *why = NULL;
	for (size_t k = 0; k < n && !why; k++)
		why = query_run_weak_judge_why(runs[k]);
	free(runs);
	/* a row of one run (evident-batch/1) names no repeats */
	const struct run_record *r = n ? NULL : query_row_run(q, row);
	return why ? why : r ? query_run_weak_judge_why(r) : NULL;
}

double query_row_speed(struct query *q, const struct batch_row *row)
{
	const struct run_record **runs;
	size_t n = query_row_runs(q, row, &runs);
	int unchecked = 0;
	for (size_t k = 0; k < n; k++)
		unchecked |= run_unchecked(runs[k]) || run_weakly_judged(runs[k]);
	if (row->outcome == OUTCOME_OK && row->have_stats && !unchecked) {
		free(runs);
		return row->stats.median;
	}
	/* the fastest of its runs: a run the kernel slows down before it
	 * fails on purpose costs it nothing, and moved a median of the runs
	 * (red team 63's slowcrash: 2257.7 and 1849.1 us crashed beside
	 * 323.4 us ok read 1849.1 us); no run is faster than the code ran */
	double best = NAN;
	for (size_t k = 0; k < n; k++) {
		double med = NAN;
		if (run_refuted(runs[k]))
			continue;
		if (runs[k]->have_stats && isfinite(runs[k]->stats.median)) {
			med = runs[k]->stats.median;
		} else {
			double *x;
			size_t nx;
			if (query_samples(q, runs[k], &x, &nx) == 0 && nx >= QUERY_SPEED_MIN_SAMPLES) {
				stats_sort(x, nx);
				med = stats_median_sorted(x, nx);
			}
			free(x);
		}
		if (isfinite(med) && (isnan(best) || med < best))
			best = med;
	}
	free(runs);
	return best;
}

/* Do two parameter lists hold the same names with the same values, in any
 * order (a record lists them sorted)? */
static int same_params(const struct param *a, size_t na, const struct param *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		int found = 0;
		for (size_t j = 0; j < nb && !found; j++)
			found = !strcmp(a[i].name, b[j].name) && !strcmp(a[i].value, b[j].value);
		if (!found)
			return 0;
	}
	return 1;
}

/* Is run r's batch an eval session's?  *last and *last_eval cache the
 * answer for the last batch id asked. */
static int run_in_eval(struct query *q, const struct run_record *r, const char **last, int *last_eval)
{
	if (!r->batch_id)
		return 0;
	if (*last && !strcmp(*last, r->batch_id))
		return *last_eval;
	*last = r->batch_id;
	*last_eval = 0;
	for (size_t i = 0; i < q->n; i++)
		if (q->e[i].a.is_batch && batch_is(&q->e[i], r->batch_id)) {
			*last_eval = is_eval(q, i);
			break;
		}
	return *last_eval;
}

/* Do run r's sources (path and hash) equal sources' ([{path, sha256}]) as sets? */
static int same_sources(const struct run_record *r, json_t *sources)
{
	if (!json_is_array(sources) || json_array_size(sources) != r->n_sources)
		return 0;
	size_t i;
	json_t *v;
	json_array_foreach(sources, i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		const char *sha = json_string_value(json_object_get(v, "sha256"));
		int found = 0;
		for (size_t k = 0; k < r->n_sources && !found; k++)
			found = path && sha && r->sources[k].path && r->sources[k].sha256 &&
				!strcmp(r->sources[k].path, path) && !strcmp(r->sources[k].sha256, sha);
		if (!found)
			return 0;
	}
	return 1;
}

/* The rule of query_name_other_code and its two forms below: by the
 * kernel file (kernel, ksha), or with sources non-NULL by every source;
 * evals_only: the runs of eval sessions' candidates alone. */
static int name_other_code(struct query *q, const char *experiment, const char *name, const char *kernel,
			   const char *ksha, json_t *sources, const struct param *params, size_t n_params,
			   int evals_only, const struct run_record **who)
{
	const struct run_record **runs = NULL;
	size_t n = query_variant_runs(q, experiment, name, &runs);
	int other = 0, last_eval = 0;
	const char *last = NULL;
	for (size_t i = 0; i < n && !other; i++) {
		const struct run_record *r = runs[i];
		/* an eval batch's reference is the spec's own variant, not a
		 * proposer's */
		if (evals_only && (r->is_baseline || r->is_reference || !run_in_eval(q, r, &last, &last_eval)))
			continue;
		if (sources) {
			if (!r->n_sources)
				continue; /* a record of no sources says nothing of them */
			other = !same_sources(r, sources) || !same_params(r->params, r->n_params, params, n_params);
		} else {
			const char *rsha = NULL;
			for (size_t k = 0; k < r->n_sources && !rsha && r->kernel; k++)
				if (r->sources[k].path && !strcmp(r->sources[k].path, r->kernel))
					rsha = r->sources[k].sha256;
			other = !r->kernel || !rsha || !kernel || !ksha || strcmp(r->kernel, kernel) ||
				strcmp(rsha, ksha) || !same_params(r->params, r->n_params, params, n_params);
		}
		if (other && who)
			*who = r;
	}
	free(runs);
	return other;
}

int query_name_other_code(struct query *q, const char *experiment, const char *name, const char *kernel,
			  const char *ksha, const struct param *params, size_t n_params, const struct run_record **who)
{
	return name_other_code(q, experiment, name, kernel, ksha, NULL, params, n_params, 0, who);
}

int query_name_eval_other_sources(struct query *q, const char *experiment, const char *name, json_t *sources,
				  const struct param *params, size_t n_params, const struct run_record **who)
{
	return name_other_code(q, experiment, name, NULL, NULL, sources, params, n_params, 1, who);
}

int query_name_eval_other_code(struct query *q, const char *experiment, const char *name, const char *kernel,
			       const char *ksha, const struct param *params, size_t n_params,
			       const struct run_record **who)
{
	return name_other_code(q, experiment, name, kernel, ksha, NULL, params, n_params, 1, who);
}

char *query_code_text(const char *kernel, const char *ksha, const struct param *params, size_t n_params)
{
	json_t *p = json_object();
	for (size_t i = 0; i < n_params; i++)
		json_object_set_new(p, params[i].name, json_string(params[i].value));
	json_t *c = json_pack("{s:s?, s:s?, s:o}", "kernel", kernel, "sha256", ksha, "params", p);
	char *text = json_dumps(c, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(c);
	return text ? text : xstrdup("?");
}

const struct run_record *query_row_run(struct query *q, const struct batch_row *row)
{
	if (!row->run_id)
		return NULL;
	long i = query_find(q, row->run_id, NULL);
	return i >= 0 ? query_run_at(q, (size_t)i) : NULL;
}

static const struct batch_row *lone_row(struct query *q, const struct run_record *r)
{
	struct batch_row *row = xcalloc(1, sizeof(*row));
	batch_row_from_run(r, row);
	q->lone = xrealloc(q->lone, (q->n_lone + 1) * sizeof(*q->lone));
	q->lone[q->n_lone++] = row;
	return row;
}

int query_resolve(struct query *q, const char *experiment, const char *variant, const char *run,
		  const struct batch_record **b, const struct batch_row **row,
		  const struct run_record **vrun, struct strbuf *why)
{
	*b = NULL;
	*row = NULL;
	*vrun = NULL;
	if (run && strcmp(run, "latest")) {
		long i = query_find(q, run, NULL);
		const struct run_record *r = i >= 0 ? query_run_at(q, (size_t)i) : NULL;
		if (r) {
			if (experiment && (!r->experiment || strcmp(r->experiment, experiment))) {
				strbuf_addf(why, "run '%s' is of experiment '%s', not '%s'", run, r->experiment,
					    experiment);
				return -1;
			}
			if (variant && r->variant && strcmp(r->variant, variant)) {
				strbuf_addf(why, "run '%s' is of variant '%s', not '%s'", run, r->variant, variant);
				return -1;
			}
			*vrun = r;
			*b = query_batch_of(q, r);
			*row = *b ? batch_find_row(*b, r->variant) : NULL;
			if (!*row) {
				*b = NULL;
				*row = lone_row(q, r);
			}
			return 0;
		}
	}
	if (!variant) {
		strbuf_addstr(why, "no variant named (add variant=NAME, or run=RUN_ID of a variant run)");
		return -1;
	}
	const char *need[] = { variant, NULL };
	*b = query_batch(q, experiment, run, need, why);
	if (!*b)
		return -1;
	*row = batch_find_row(*b, variant);
	*vrun = query_row_run(q, *row);
	return 0;
}

/* query_variant_runs; with_repro: the runs of reproductions kept */
static size_t variant_runs(struct query *q, const char *experiment, const char *variant, int with_repro,
			   const struct run_record ***out)
{
	size_t n = 0, n_repro = 0;
	*out = xcalloc(q->n + 1, sizeof(**out));
	/* the reproductions of experiment: their runs are left out */
	const struct query_entry **repro = xcalloc(q->n + 1, sizeof(*repro));
	for (size_t i = 0; i < q->n; i++)
		if (!with_repro && is_reproduction(&q->e[i]) && of_experiment(&q->e[i], experiment))
			repro[n_repro++] = &q->e[i];
	for (size_t i = q->n; i-- > 0;) {
		const struct query_entry *e = &q->e[i];
		if (e->a.is_batch || e->a.is_search || !of_experiment(e, experiment) ||
		    (variant && (!e->a.variant || strcmp(e->a.variant, variant))))
			continue;
		int of_repro = 0;
		for (size_t k = 0; k < n_repro && !of_repro; k++)
			of_repro = batch_is(repro[k], e->a.batch_id);
		if (of_repro)
			continue;
		const struct run_record *r = query_run_at(q, i);
		if (r)
			(*out)[n++] = r;
	}
	free(repro);
	return n;
}

size_t query_variant_runs(struct query *q, const char *experiment, const char *variant,
			  const struct run_record ***out)
{
	return variant_runs(q, experiment, variant, 0, out);
}

size_t query_all_runs(struct query *q, const struct run_record ***out)
{
	return variant_runs(q, NULL, NULL, 1, out);
}

/* ---- samples, sources, statistics ------------------------------------------------ */

static int parse_samples(struct query *q, const struct run_record *run, double **x, size_t *n, size_t *alloc)
{
	const char *obj = run->samples_object;
	if (!obj)
		return 0;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int rc = store_get(&q->st, obj, &sb);
	if (rc == 0 && record_samples_parse(strbuf_str(&sb), x, n, alloc, &why) < 0)
		rc = error("samples object '%.12s' of run '%s' holds %s; run 'evident verify'", obj, run->run_id,
			   strbuf_str(&why));
	strbuf_release(&sb);
	strbuf_release(&why);
	return rc;
}

int query_samples(struct query *q, const struct run_record *run, double **x, size_t *n)
{
	size_t alloc = 0;
	*x = NULL;
	*n = 0;
	if (parse_samples(q, run, x, n, &alloc) < 0) {
		free(*x);
		*x = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int query_row_samples(struct query *q, const struct batch_row *row, double **x, size_t *n)
{
	const struct run_record **runs;
	size_t nr = query_row_runs(q, row, &runs), alloc = 0;
	int rc = 0;
	*x = NULL;
	*n = 0;
	for (size_t i = 0; i < nr && rc == 0; i++)
		if (runs[i]->outcome == OUTCOME_OK)
			rc = parse_samples(q, runs[i], x, n, &alloc);
	free(runs);
	if (rc < 0) {
		free(*x);
		*x = NULL;
		*n = 0;
	}
	return rc;
}

void query_groups_free(double **x, size_t *n, size_t k)
{
	for (size_t r = 0; r < k; r++)
		free(x[r]);
	free(x);
	free(n);
}

int query_row_groups(struct query *q, const struct batch_row *row, double ***x, size_t **n, size_t *k)
{
	const struct run_record **runs;
	size_t nr = query_row_runs(q, row, &runs);
	int rc = 0;
	*x = xcalloc(nr + 1, sizeof(**x));
	*n = xcalloc(nr + 1, sizeof(**n));
	*k = 0;
	for (size_t i = 0; i < nr && rc == 0; i++) {
		double *g = NULL;
		size_t ng = 0, alloc = 0;
		if (runs[i]->outcome != OUTCOME_OK)
			continue;
		rc = parse_samples(q, runs[i], &g, &ng, &alloc);
		if (rc == 0 && ng) {
			(*x)[*k] = g;
			(*n)[(*k)++] = ng;
		} else {
			free(g);
		}
	}
	free(runs);
	if (rc < 0) {
		query_groups_free(*x, *n, *k);
		*x = NULL;
		*n = NULL;
		*k = 0;
	}
	return rc;
}

/* Is every file of src[0..n) as recorded?  1, or 0 with the first that
 * is not in why. */
static int files_current(const struct run_record *run, const struct rec_source *src, size_t n,
			 struct strbuf *why)
{
	for (size_t i = 0; i < n; i++) {
		const char *path = src[i].path, *sha = src[i].sha256;
		char now[SHA256_HEX_LEN + 1];
		if (!path || !sha)
			continue;
		if (!path_exists(path)) {
			strbuf_addf(why, "'%s' no longer exists", path);
			return 0;
		}
		if (sha256_file_hex(path, now) < 0 || strcmp(now, sha)) {
			strbuf_addf(why, "'%s' changed since run '%s'", path, run->run_id);
			return 0;
		}
	}
	return 1;
}

int query_sources_current(struct query *q, const struct run_record *run, struct strbuf *why)
{
	if (!run->n_sources) {
		strbuf_addf(why, "run '%s' recorded no source hashes", run->run_id);
		return 0;
	}
	if (!files_current(run, run->sources, run->n_sources, why) ||
	    !files_current(run, run->problem.sources, run->problem.n_sources, why))
		return 0;
	/*
	 * Red team 294 row 2: a run without problem code was judged by its
	 * kernel alone unless a newer run of its experiment showed the
	 * problem moved; but any evident build older than problem provenance
	 * writes such runs today, under its own commit's problem (gemm.c's
	 * fp32 rule twice today's at K 262144: a gemm off by 2.4e-4 read ok
	 * and `validated` supported, 5 of 5 stores).  Where the record names
	 * its commit, the problem's code at that commit is what it ran:
	 * current only when it is the working tree's, file for file; a
	 * commit the repository lacks leaves that code unknown, which is not
	 * current.
	 */
	if (!run->problem.n_sources && run->git.commit && *run->git.commit && strcmp(run->git.commit, "unknown")) {
		struct strbuf w = STRBUF_INIT;
		int same = run->problem.name &&
			   problem_code_same_at(run->git.commit, run->problem.name,
						!run->backend || strcmp(run->backend, "host"), &w);
		/* a dirty tree's own problem code is in its recorded diff, not in
		 * the commit: a diff that touches it, or one the store lacks
		 * (q NULL: no store to read it from, the commit alone), is not
		 * the commit's code */
		if (same && run->git.dirty && q) {
			struct strbuf diff = STRBUF_INIT;
			int saved = util_quiet;
			util_quiet = 1;
			if (!run->git.diff_object || store_get(&q->st, run->git.diff_object, &diff) < 0) {
				strbuf_addf(&w, "its tree differed from the commit and its recorded diff is not in the store");
				same = 0;
			} else if (problem_code_in_diff(run->problem.name, !run->backend || strcmp(run->backend, "host"),
							strbuf_str(&diff), &w)) {
				same = 0;
			}
			util_quiet = saved;
			strbuf_release(&diff);
		}
		if (!same)
			strbuf_addf(why, "run '%s' recorded no problem code, and the problem '%s' of its commit is not "
					 "the working tree's: %s",
				    run->run_id, run->problem.name ? run->problem.name : "?",
				    run->problem.name ? strbuf_str(&w) : "the run names no problem");
		strbuf_release(&w);
		return same;
	}
	/*
	 * Red team 295 row 3: a run that recorded neither its problem's code
	 * nor a commit (a build older than problem provenance made from `git
	 * archive`, no .git: "commit": null) ran a problem whose code nothing
	 * names.  It was judged by its kernel alone unless a newer run of its
	 * experiment showed the problem's code had changed since; but such a
	 * build carries its own problems/, and today's never changes under
	 * it: red team 294's gemm off by 2.4e-4, inside c843a0cb8's gemm.c
	 * rule and outside today's, read `validated` supported 4 of 4 stores.
	 * The code it ran is unknown, which is not current (a commit
	 * recorded as "unknown" names none either).  This replaces the
	 * newer-run rule (query_problem_moved_after, 0fabd81cb), whose every
	 * case it covers.
	 */
	if (!run->problem.n_sources) {
		strbuf_addf(why, "run '%s' recorded neither its problem's code nor a commit: the code of the problem "
				 "'%s' it ran is unknown",
			    run->run_id, run->problem.name ? run->problem.name : "?");
		return 0;
	}
	return 1;
}

/* Where batch b's wanted runs (need: variant names, NULL all) stand on
 * the problem's code (run_record.problem.sources): 1 where every run that
 * recorded it finds it current, 0 where one recorded it and it changed
 * since, -1 where none recorded it (runs before problem provenance) or a
 * run is missing. */
static int batch_problem_current(struct query *q, const struct batch_record *b, const char *const *need)
{
	int any = 0;
	struct strbuf why = STRBUF_INIT;
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		int wanted = !need;
		for (size_t j = 0; need && need[j]; j++)
			wanted |= row->variant && !strcmp(need[j], row->variant);
		const struct run_record *run = wanted ? query_row_run(q, row) : NULL;
		if (!run || !run->problem.n_sources)
			continue;
		any = 1;
		if (!files_current(run, run->problem.sources, run->problem.n_sources, &why)) {
			strbuf_release(&why);
			return 0;
		}
	}
	strbuf_release(&why);
	return any ? 1 : -1;
}

static int same_files(const struct rec_source *x, size_t nx, const struct rec_source *y, size_t ny)
{
	if (nx != ny)
		return 0;
	for (size_t i = 0; i < nx; i++)
		if (!x[i].path || !y[i].path || !x[i].sha256 || !y[i].sha256 || strcmp(x[i].path, y[i].path) ||
		    strcmp(x[i].sha256, y[i].sha256))
			return 0;
	return 1;
}

int query_runs_same_code(const struct run_record *a, const struct run_record *b)
{
	return same_files(a->sources, a->n_sources, b->sources, b->n_sources) &&
	       same_files(a->problem.sources, a->problem.n_sources, b->problem.sources, b->problem.n_sources);
}

int query_stat(struct query *q, const struct batch_record *b, const struct batch_row *row,
	       const char *stat, double *v, double ci[2], int *have_ci, struct strbuf *why)
{
	const struct run_record **runs;
	size_t n = query_row_runs(q, row, &runs);
	int rc = record_stat(b, row, runs, n, stat, v, ci, have_ci, why);
	free(runs);
	return rc;
}
