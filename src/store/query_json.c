/*
 * query.c - read-only questions about the run store (contract in query.h).
 *
 * The store is small (hundreds of manifests of a few kB), so qj_open
 * loads all of it once and every question is a linear scan; nothing here
 * writes.  Ordering is by the run id's UTC stamp, then by depth in the
 * "prev" chain, so ties within one second resolve the way they were
 * written.
 */
#include "store/query_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

json_t *qj_get(json_t *o, const char *path)
{
	char key[128];
	const char *p = path;
	while (o && *p) {
		size_t k = strcspn(p, ".");
		if (k >= sizeof(key))
			return NULL;
		memcpy(key, p, k);
		key[k] = '\0';
		if (json_is_array(o) && key[0] >= '0' && key[0] <= '9')
			o = json_array_get(o, (size_t)strtoul(key, NULL, 10));
		else
			o = json_is_object(o) ? json_object_get(o, key) : NULL;
		p += k;
		if (*p == '.')
			p++;
	}
	return o;
}

double qj_num(json_t *o, const char *path)
{
	json_t *v = qj_get(o, path);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *qj_str(json_t *o, const char *path)
{
	return json_string_value(qj_get(o, path));
}

/* Ordering: stamp (the run id up to its first '-'), then chain depth. */
struct ordered {
	json_t *m;
	char stamp[32];
	long depth;
	const char *id;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;
	int c = strcmp(x->stamp, y->stamp);
	if (c)
		return c;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return strcmp(x->id, y->id);
}

static long chain_depth(struct ordered *o, size_t n, size_t i, int guard)
{
	if (o[i].depth >= 0)
		return o[i].depth;
	const char *prev = qj_str(o[i].m, "prev");
	long d = 0;
	if (prev && guard < 100000)
		for (size_t j = 0; j < n; j++) {
			const char *dg = qj_str(o[j].m, "digest");
			if (j != i && dg && !strcmp(dg, prev)) {
				d = chain_depth(o, n, j, guard + 1) + 1;
				break;
			}
		}
	o[i].depth = d;
	return d;
}

int qj_open(struct qj *q, const char *root)
{
	char **ids = NULL;
	size_t n = 0;
	struct ordered *o = NULL;
	root = store_default_root(root);
	if (!is_dir(root)) {
		if (path_exists(root))
			return error("store '%s' is not a directory; pass --store DIR", root);
		q->st.root = xstrdup(root);
		q->no_store = 1;
		return 0;
	}
	if (store_open(&q->st, root, 0) < 0 || store_list(&q->st, &ids, &n) < 0)
		goto fail;
	o = xcalloc(n ? n : 1, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/runs/%s.json", root, ids[i]);
		json_error_t je;
		o[i].m = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
		free(path);
		if (!o[i].m || !json_is_object(o[i].m)) {
			error("run '%s' in '%s' is damaged (%s); run 'evident verify'", ids[i], root,
			      o[i].m ? "not an object" : je.text);
			for (size_t j = 0; j <= i; j++)
				json_decref(o[j].m);
			goto fail;
		}
		o[i].id = ids[i];
		o[i].depth = -1;
		size_t k = strcspn(ids[i], "-");
		snprintf(o[i].stamp, sizeof(o[i].stamp), "%.*s", (int)(k < 31 ? k : 31), ids[i]);
	}
	for (size_t i = 0; i < n; i++)
		chain_depth(o, n, i, 0);
	qsort(o, n, sizeof(*o), cmp_ordered);
	q->m = xcalloc(n ? n : 1, sizeof(json_t *));
	for (size_t i = 0; i < n; i++)
		q->m[i] = o[i].m;
	q->n = n;
	free(o);
	store_free_list(ids, n);
	return 0;
fail:
	free(o);
	store_free_list(ids, n);
	return -1;
}

int qj_open_for(struct qj *q, const char *explicit_root, const char *declared_root)
{
	const char *root = store_default_root(explicit_root ? explicit_root : declared_root);
	if (q->st.root && !strcmp(q->st.root, root))
		return 0;
	qj_release(q);
	*q = (struct qj)QJ_INIT;
	return qj_open(q, root);
}

void qj_release(struct qj *q)
{
	for (size_t i = 0; i < q->n; i++)
		json_decref(q->m[i]);
	free(q->m);
	json_decref(q->extra);
	q->extra = NULL;
	q->m = NULL;
	q->n = 0;
	store_release(&q->st);
}

static int is_kind(json_t *m, const char *kind)
{
	const char *k = qj_str(m, "kind");
	return k && !strcmp(k, kind);
}

static int is_experiment(json_t *m, const char *experiment)
{
	const char *e = qj_str(m, "experiment");
	return !experiment || (e && !strcmp(e, experiment));
}

json_t *qj_find(const struct qj *q, const char *id)
{
	json_t *hit = NULL;
	int count = 0;
	size_t len = strlen(id);
	if (!len)
		return NULL;
	for (size_t i = 0; i < q->n; i++) {
		const char *r = qj_str(q->m[i], "run_id");
		if (!r)
			continue;
		if (!strcmp(r, id))
			return q->m[i];
		if (!strncmp(r, id, len)) {
			hit = q->m[i];
			count++;
		}
	}
	return count == 1 ? hit : NULL;
}

int qj_has_experiment(const struct qj *q, const char *experiment)
{
	for (size_t i = 0; i < q->n; i++)
		if (is_experiment(q->m[i], experiment))
			return 1;
	return 0;
}

json_t *qj_experiments(const struct qj *q)
{
	json_t *set = json_object(), *out = json_array();
	for (size_t i = 0; i < q->n; i++) {
		const char *e = qj_str(q->m[i], "experiment");
		if (e)
			json_object_set_new(set, e, json_true());
	}
	const char **names = xcalloc(json_object_size(set) + 1, sizeof(char *));
	size_t k = 0;
	const char *key;
	json_t *v;
	json_object_foreach(set, key, v) names[k++] = key;
	for (size_t i = 1; i < k; i++) /* insertion sort: few names */
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (size_t i = 0; i < k; i++)
		json_array_append_new(out, json_string(names[i]));
	free(names);
	json_decref(set);
	return out;
}

json_t *qj_row(json_t *batch, const char *variant)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(batch, "variants"), i, r)
	{
		const char *v = qj_str(r, "variant");
		if (v && !strcmp(v, variant))
			return r;
	}
	return NULL;
}

static int has_rows(json_t *batch, const char *const *need)
{
	for (size_t i = 0; need && need[i]; i++)
		if (!qj_row(batch, need[i]))
			return 0;
	return 1;
}

json_t *qj_batches(const struct qj *q, const char *experiment, const char *const *need)
{
	json_t *out = json_array();
	for (size_t i = q->n; i-- > 0;)
		if (is_kind(q->m[i], "batch") && is_experiment(q->m[i], experiment) &&
		    has_rows(q->m[i], need))
			json_array_append(out, q->m[i]);
	return out;
}

json_t *qj_batch_of(const struct qj *q, json_t *run)
{
	const char *bid = qj_str(run, "batch_id");
	if (!bid)
		return NULL;
	for (size_t i = q->n; i-- > 0;)
		if (is_kind(q->m[i], "batch")) {
			const char *b = qj_str(q->m[i], "batch_id");
			if (b && !strcmp(b, bid))
				return q->m[i];
		}
	return NULL;
}

json_t *qj_batch(const struct qj *q, const char *experiment, const char *run,
		    const char *const *need, struct strbuf *why)
{
	json_t *b = NULL;
	if (!run || !strcmp(run, "latest")) {
		json_t *all = qj_batches(q, experiment, need);
		b = json_array_get(all, 0);
		json_decref(all);
		if (!b) {
			if (!experiment)
				strbuf_addstr(why, "no recorded batch");
			else if (!qj_has_experiment(q, experiment))
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
	/* a batch_id value, exactly */
	for (size_t i = q->n; i-- > 0 && !b;)
		if (is_kind(q->m[i], "batch")) {
			const char *id = qj_str(q->m[i], "batch_id");
			if (id && !strcmp(id, run))
				b = q->m[i];
		}
	if (!b) {
		json_t *m = qj_find(q, run);
		if (!m) {
			strbuf_addf(why, "no run '%s' in the store (or the prefix is ambiguous)", run);
			return NULL;
		}
		b = is_kind(m, "batch") ? m : qj_batch_of(q, m);
		if (!b) {
			strbuf_addf(why, "run '%s' belongs to no recorded batch", run);
			return NULL;
		}
	}
	if (!is_experiment(b, experiment)) {
		strbuf_addf(why, "run '%s' is of experiment '%s', not '%s'", run,
			    qj_str(b, "experiment"), experiment);
		return NULL;
	}
	if (!has_rows(b, need)) {
		strbuf_addf(why, "batch '%s' has no variant '%s'", qj_str(b, "run_id"),
			    need[0] && !qj_row(b, need[0]) ? need[0] : need[1]);
		return NULL;
	}
	return b;
}

json_t *qj_row_run(const struct qj *q, json_t *row)
{
	const char *id = qj_str(row, "run_id");
	return id ? qj_find(q, id) : NULL;
}

int qj_samples(struct qj *q, json_t *run, double **x, size_t *n)
{
	*x = NULL;
	*n = 0;
	const char *obj = qj_str(run, "timing.samples_object");
	if (!obj)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	if (store_get(&q->st, obj, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	size_t alloc = 0;
	char *line = sb.buf, *next;
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		char *end;
		double v = strtod(line, &end);
		if (end == line || !isfinite(v)) {
			strbuf_release(&sb);
			free(*x);
			*x = NULL;
			*n = 0;
			return error("samples object '%.12s' of run '%s' holds '%s', not a number; run 'evident verify'",
				     obj, qj_str(run, "run_id"), line);
		}
		if (*n == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			*x = xrealloc(*x, alloc * sizeof(double));
		}
		(*x)[(*n)++] = v;
	}
	strbuf_release(&sb);
	return 0;
}

char *qj_device_name(json_t *run)
{
	const char *g = qj_str(run, "device.name");
	if (!g)
		g = qj_str(run, "machine.gpu.name");
	if (g)
		return xstrdup(g);
	const char *be = qj_str(run, "backend");
	const char *cpu = qj_str(run, "machine.cpu");
	if (be && !strcmp(be, "host"))
		return xstrfmt("CPU: %s", cpu ? cpu : "unknown");
	return xstrdup("unknown device");
}

const char *qj_driver(json_t *run)
{
	const char *d = qj_str(run, "machine.gpu.driver_version");
	if (!d)
		d = qj_str(run, "device.driver_version");
	return d;
}

int qj_sources_current(json_t *run, struct strbuf *why)
{
	json_t *src = qj_get(run, "code.sources");
	if (!json_array_size(src)) {
		strbuf_addf(why, "run '%s' recorded no source hashes", qj_str(run, "run_id"));
		return 0;
	}
	size_t i;
	json_t *s;
	json_array_foreach(src, i, s)
	{
		const char *path = qj_str(s, "path"), *sha = qj_str(s, "sha256");
		char now[SHA256_HEX_LEN + 1];
		if (!path || !sha)
			continue;
		if (!path_exists(path)) {
			strbuf_addf(why, "'%s' no longer exists", path);
			return 0;
		}
		if (sha256_file_hex(path, now) < 0 || strcmp(now, sha)) {
			strbuf_addf(why, "'%s' changed since run '%s'", path, qj_str(run, "run_id"));
			return 0;
		}
	}
	return 1;
}

const char qj_stat_names[] =
	"median_us, mean_us, min_us, max_us, p5_us, p95_us, stdev_us, n, speedup, delta, p, p_raw, "
	"gflops, tflops, gbps, usd, gpu_s, max_abs_err";

static const struct {
	const char *name, *path, *ci, *kind;
} stat_table[] = {
	{ "median_us", "stats.median", "stats.median_ci", "time" },
	{ "mean_us", "stats.mean", NULL, "time" },
	{ "min_us", "stats.min", NULL, "time" },
	{ "max_us", "stats.max", NULL, "time" },
	{ "p5_us", "stats.p5", NULL, "time" },
	{ "p95_us", "stats.p95", NULL, "time" },
	{ "stdev_us", "stats.stdev", NULL, "time" },
	{ "n", "stats.n", NULL, "plain" },
	{ "speedup", "comparison.speedup.ratio", "comparison.speedup.ci", "ratio" },
	{ "delta", "comparison.cliffs_delta.delta", "comparison.cliffs_delta.ci", "plain" },
	{ "p", "comparison.mann_whitney.p_adjusted", NULL, "p" },
	{ "p_raw", "comparison.mann_whitney.p", NULL, "p" },
	{ "gflops", NULL, NULL, "flops" },
	{ "tflops", NULL, NULL, "flops" },
	{ "gbps", NULL, NULL, "bw" },
	{ "usd", "cost.usd", NULL, "usd" },
	{ "gpu_s", "cost.gpu_s", NULL, "plain" },
	{ "max_abs_err", NULL, NULL, "plain" },
};

int qj_stat_known(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(stat_table); i++)
		if (!strcmp(stat_table[i].name, stat))
			return 1;
	return 0;
}

int qj_stat(json_t *batch, json_t *row, json_t *run, const char *stat, double *v, double ci[2],
	       int *have_ci, const char **kind, struct strbuf *why)
{
	size_t t;
	for (t = 0; t < ARRAY_SIZE(stat_table); t++)
		if (!strcmp(stat_table[t].name, stat))
			break;
	*have_ci = 0;
	*v = NAN;
	if (t == ARRAY_SIZE(stat_table)) {
		strbuf_addf(why, "unknown statistic '%s' (known: %s)", stat, qj_stat_names);
		return -1;
	}
	*kind = stat_table[t].kind;
	const char *variant = qj_str(row, "variant");
	const char *outcome = qj_str(row, "outcome");
	if (!strcmp(stat, "usd") || !strcmp(stat, "gpu_s")) {
		*v = qj_num(run, stat_table[t].path);
		if (isnan(*v)) {
			strbuf_addf(why, "run '%s' recorded no %s", qj_str(row, "run_id"),
				    !strcmp(stat, "usd") ? "price (no cost in USD)" : "GPU time");
			return -1;
		}
		return 0;
	}
	if (!strcmp(stat, "max_abs_err")) {
		size_t i;
		json_t *s;
		json_array_foreach(qj_get(run, "correctness.results"), i, s)
		{
			double e = qj_num(s, "max_abs_err");
			if (!isnan(e) && (isnan(*v) || e > *v))
				*v = e;
		}
		if (isnan(*v)) {
			strbuf_addf(why, "variant '%s' recorded no correctness result", variant);
			return -1;
		}
		return 0;
	}
	if (stat_table[t].path) {
		*v = qj_num(row, stat_table[t].path);
		if (stat_table[t].ci) {
			json_t *c = qj_get(row, stat_table[t].ci);
			if (json_is_number(json_array_get(c, 0)) && json_is_number(json_array_get(c, 1))) {
				ci[0] = json_number_value(json_array_get(c, 0));
				ci[1] = json_number_value(json_array_get(c, 1));
				*have_ci = 1;
			}
		}
	} else { /* throughput: work / median time */
		int bw = !strcmp(stat, "gbps");
		double work = qj_num(batch ? batch : run, bw ? "problem.min_bytes" : "problem.flops");
		double scale = !strcmp(stat, "tflops") ? 1e6 : 1e3; /* per us -> G or T per s */
		double med = qj_num(row, "stats.median");
		json_t *c = qj_get(row, "stats.median_ci");
		if (!isnan(work) && med > 0) {
			*v = work / med / scale;
			double lo = json_number_value(json_array_get(c, 0));
			double hi = json_number_value(json_array_get(c, 1));
			if (lo > 0 && hi > 0) {
				ci[0] = work / hi / scale;
				ci[1] = work / lo / scale;
				*have_ci = 1;
			}
		} else if (isnan(work)) {
			strbuf_addf(why, "the record of '%s' has no problem size", variant);
			return -1;
		}
	}
	if (isnan(*v)) {
		if (outcome && strcmp(outcome, "ok"))
			strbuf_addf(why, "variant '%s' has no %s: its outcome is %s", variant, stat, outcome);
		else if (!strncmp(stat_table[t].path ? stat_table[t].path : "", "comparison", 10))
			strbuf_addf(why, "variant '%s' has no comparison (it is the baseline, or the baseline failed)",
				    variant);
		else
			strbuf_addf(why, "variant '%s' recorded no %s", variant, stat);
		return -1;
	}
	return 0;
}

json_t *qj_variant_runs(const struct qj *q, const char *experiment, const char *variant)
{
	json_t *out = json_array();
	for (size_t i = q->n; i-- > 0;) {
		const char *v = qj_str(q->m[i], "variant");
		if (is_kind(q->m[i], "variant") && is_experiment(q->m[i], experiment) && v &&
		    !strcmp(v, variant))
			json_array_append(out, q->m[i]);
	}
	return out;
}

/* A row like a batch's, made from a variant manifest alone. */
static json_t *row_of_run(struct qj *q, json_t *run)
{
	json_t *row = json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?}", "variant",
				qj_get(run, "variant"), "run_id", qj_get(run, "run_id"), "outcome",
				qj_get(run, "outcome"), "reason", qj_get(run, "reason"), "params",
				qj_get(run, "params"), "stats", qj_get(run, "timing.stats"),
				"comparison", qj_get(run, "comparison"));
	if (!q->extra)
		q->extra = json_array();
	json_array_append_new(q->extra, row);
	return row;
}

int qj_resolve(struct qj *q, const char *experiment, const char *variant, const char *run,
		  json_t **batch, json_t **row, json_t **vrun, struct strbuf *why)
{
	*batch = *row = *vrun = NULL;
	if (run && strcmp(run, "latest")) {
		json_t *m = qj_find(q, run);
		if (m && is_kind(m, "variant")) {
			if (!is_experiment(m, experiment)) {
				strbuf_addf(why, "run '%s' is of experiment '%s', not '%s'", run,
					    qj_str(m, "experiment"), experiment);
				return -1;
			}
			const char *v = qj_str(m, "variant");
			if (variant && v && strcmp(v, variant)) {
				strbuf_addf(why, "run '%s' is of variant '%s', not '%s'", run, v, variant);
				return -1;
			}
			*vrun = m;
			*batch = qj_batch_of(q, m);
			*row = *batch ? qj_row(*batch, v) : NULL;
			if (!*row || strcmp(qj_str(*row, "run_id") ? qj_str(*row, "run_id") : "",
					    qj_str(m, "run_id")))
				*row = row_of_run(q, m);
			return 0;
		}
	}
	if (!variant) {
		strbuf_addstr(why, "no variant named (add variant=NAME, or run=RUN_ID of a variant run)");
		return -1;
	}
	const char *need[] = { variant, NULL };
	*batch = qj_batch(q, experiment, run, need, why);
	if (!*batch)
		return -1;
	*row = qj_row(*batch, variant);
	*vrun = qj_row_run(q, *row);
	return 0;
}
