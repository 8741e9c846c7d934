/*
 * export.c - tidy CSV, JSON Lines, Google Benchmark JSON and a notebook
 * from the store (contract in export.h).
 *
 * Rows come from the typed records of query.h and are built once as JSON
 * objects (keys in column order, export's own column names) and written
 * both ways, so the CSV and the JSON Lines can never disagree.  Every
 * number of a summary row is record_stat's (query_stat): `p` is the
 * Holm-adjusted p-value, as in PAPER.md, `evident show` and audit claims,
 * `p_raw` the test's own; speedup and CIs are the batch's (two-level with
 * repeats).  Each row names its kernel file and the sha256 of the source
 * that ran.  Parameter columns are the union of every parameter name in
 * the store, sorted; a run without that parameter has an empty cell (null
 * in JSON).  Beside the times: gflops, gbps and their fractions of the
 * machine's peak (record_throughput), the peak, what it is of and its
 * source, or no_peak saying why there is none.
 */
#include "report/export.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void export_csv_field(struct strbuf *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

static void csv_value(struct strbuf *out, json_t *v)
{
	if (json_is_string(v))
		export_csv_field(out, json_string_value(v));
	else if (json_is_integer(v))
		strbuf_addf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		strbuf_addf(out, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		strbuf_addstr(out, json_is_true(v) ? "true" : "false");
}

/* rows: array of objects with the same keys (cols) in order */
static void write_rows(json_t *cols, json_t *rows, struct strbuf *csv, struct strbuf *jsonl)
{
	size_t i, j;
	json_t *c, *row;
	json_array_foreach(cols, j, c)
	{
		if (j)
			strbuf_addch(csv, ',');
		export_csv_field(csv, json_string_value(c));
	}
	strbuf_addch(csv, '\n');
	json_array_foreach(rows, i, row)
	{
		json_array_foreach(cols, j, c)
		{
			if (j)
				strbuf_addch(csv, ',');
			csv_value(csv, json_object_get(row, json_string_value(c)));
		}
		strbuf_addch(csv, '\n');
		char *s = json_dumps(row, JSON_COMPACT | JSON_REAL_PRECISION(17));
		strbuf_addstr(jsonl, s);
		strbuf_addch(jsonl, '\n');
		free(s);
	}
}

static int write_out(const char *dir, const char *name, const struct strbuf *body)
{
	char *path = xstrfmt("%s/%s", dir, name), *tmp = xstrfmt("%s/.%s.tmp", dir, name);
	int rc = 0;
	FILE *f = fopen(tmp, "wb");
	if (!f || fwrite(body->buf ? body->buf : "", 1, body->len, f) != body->len || fclose(f) != 0) {
		rc = error("cannot write '%s': %s", tmp, strerror(errno));
		unlink(tmp);
	} else if (rename(tmp, path) < 0) {
		rc = error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	free(path);
	free(tmp);
	return rc;
}

/* ---------- columns ---------- */

/* The fixed columns of samples.csv and summaries.csv (a parameter of the
 * same name gets the column "param_NAME"). */
static const char *const fixed_cols[] = {
	"run_id", "experiment", "batch_id", "batch_run_id", "variant", "repeat", "repeats", "repeats_ok",
	"is_baseline", "outcome", "reason", "kernel", "kernel_sha256", "clock", "executor", "weak_judge", "sample_index", "value", "unit",
	"n", "median_us", "median_ci_lo", "median_ci_hi", "mean_us", "min_us", "max_us", "p5_us", "p95_us",
	"stdev_us", "gflops", "gbps", "frac_compute_peak", "frac_bandwidth_peak", "peak_gflops", "peak_gbps",
	"peak_of", "peak_source", "no_peak", "speedup", "speedup_ci_lo", "speedup_ci_hi", "p", "p_raw", "cliffs_delta",
	"cliffs_delta_ci_lo", "cliffs_delta_ci_hi", "magnitude", "verdict", "verdict_reason", "mde", "device",
	"commit", "dirty", "started_utc", "gpu_s", "usd",
};

/* Parameter names of every run and batch row in the store, sorted, and their columns. */
struct pcols {
	char **name, **col;
	size_t n;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void pcols_add(struct pcols *p, const struct param *params, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k;
		for (k = 0; k < p->n && strcmp(p->name[k], params[i].name); k++)
			;
		if (k < p->n)
			continue;
		p->name = xrealloc(p->name, (p->n + 1) * sizeof(char *));
		p->name[p->n++] = xstrdup(params[i].name);
	}
}

static void pcols_build(struct query *q, struct pcols *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < q->n; i++) {
		const struct run_record *r = query_run_at(q, i);
		const struct batch_record *b = r ? NULL : query_batch_at(q, i);
		if (r)
			pcols_add(p, r->params, r->n_params);
		for (size_t k = 0; b && k < b->n_rows; k++)
			pcols_add(p, b->rows[k].params, b->rows[k].n_params);
	}
	if (p->n)
		qsort(p->name, p->n, sizeof(char *), cmp_name);
	p->col = xcalloc(p->n + 1, sizeof(char *));
	for (size_t i = 0; i < p->n; i++) {
		int clash = 0;
		for (size_t k = 0; k < ARRAY_SIZE(fixed_cols); k++)
			clash |= !strcmp(fixed_cols[k], p->name[i]);
		p->col[i] = clash ? xstrfmt("param_%s", p->name[i]) : xstrdup(p->name[i]);
	}
}

static void pcols_release(struct pcols *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->name[i]);
		free(p->col[i]);
	}
	free(p->name);
	free(p->col);
}

/* ---------- cells ---------- */

static void put_str(json_t *row, const char *col, const char *s)
{
	json_object_set_new(row, col, s ? json_string(s) : json_null());
}

static void put_num(json_t *row, const char *col, double v)
{
	json_object_set_new(row, col, isfinite(v) ? json_real(v) : json_null());
}

static void put_int(json_t *row, const char *col, long long v, int have)
{
	json_object_set_new(row, col, have ? json_integer(v) : json_null());
}

static void put_params(json_t *row, const struct pcols *p, const struct param *params, size_t n)
{
	for (size_t i = 0; i < p->n; i++) {
		const char *v = NULL;
		for (size_t k = 0; k < n && !v; k++)
			if (!strcmp(params[k].name, p->name[i]))
				v = params[k].value;
		put_str(row, p->col[i], v);
	}
}

/* The kernel file of a run and the sha256 of its source as recorded. */
static void put_kernel(json_t *row, const char *kernel, const struct run_record *r)
{
	const struct rec_source *src = r ? run_kernel_source(r) : NULL;
	put_str(row, "kernel", kernel ? kernel : r ? r->kernel : NULL);
	put_str(row, "kernel_sha256", src ? src->sha256 : NULL);
}

/* Statistic stat of a row into col (and its CI into lo/hi when given):
 * record_stat's value, the number paper, show and audit give. */
static void put_stat(json_t *row, struct query *q, const struct batch_record *b, const struct batch_row *r,
		     const char *stat, const char *col, const char *lo, const char *hi)
{
	double v = NAN, ci[2] = { NAN, NAN };
	int have_ci = 0;
	struct strbuf why = STRBUF_INIT;
	if (r && query_stat(q, b, r, stat, &v, ci, &have_ci, &why) < 0)
		v = NAN;
	strbuf_release(&why);
	put_num(row, col, v);
	if (lo) {
		put_num(row, lo, have_ci ? ci[0] : NAN);
		put_num(row, hi, have_ci ? ci[1] : NAN);
	}
}

static json_t *cols_of(json_t *row)
{
	json_t *cols = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(row, k, v) json_array_append_new(cols, json_string(k));
	return cols;
}

/* The judge's columns: the executor that ran r's kernel (judge.executor:
 * "sealed", "in_process" for trust: host on CUDA, "parent_clock" on the
 * host backend) and what made
 * its judge weaker than the default (store/query.c query_*_weak_judge_why:
 * no box, an unverified bubblewrap, fewer than 10 timed checks), empty
 * where nothing did: a consumer of the export sees what the audit sets
 * aside (red team 138: an --unsandboxed batch read "faster" in
 * summaries.csv with nothing to say so). */
static void put_judge(json_t *row, const struct run_record *r, const char *weak)
{
	const char *ex = r && r->judge ? json_string_value(json_object_get(r->judge, "executor")) : NULL;
	put_str(row, "executor", ex);
	put_str(row, "weak_judge", weak);
}

/* ---------- samples ---------- */

/* One run's identity columns (r NULL: the header's prototype). */
static json_t *sample_row(const struct pcols *p, const struct run_record *r)
{
	json_t *row = json_object();
	put_str(row, "run_id", r ? r->run_id : NULL);
	put_str(row, "experiment", r ? r->experiment : NULL);
	put_str(row, "batch_id", r ? r->batch_id : NULL);
	put_str(row, "variant", r ? r->variant : NULL);
	put_int(row, "repeat", r ? r->repeat + 1 : 0, r != NULL);
	put_str(row, "outcome", r ? r->outcome_text : NULL);
	put_kernel(row, NULL, r);
	put_params(row, p, r ? r->params : NULL, r ? r->n_params : 0);
	put_str(row, "clock", r ? r->clock : NULL);
	put_judge(row, r, r ? query_run_weak_judge_why(r) : NULL);
	return row;
}

static int export_samples(struct query *q, const struct pcols *p, const char *dir)
{
	json_t *rows = json_array();
	int rc = 0;
	for (size_t i = 0; i < q->n && rc == 0; i++) {
		const struct run_record *r = q->e[i].a.is_batch ? NULL : query_run_at(q, i);
		double *x;
		size_t n;
		if (!r)
			continue;
		if (query_samples(q, r, &x, &n) < 0) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < n; k++) {
			json_t *row = sample_row(p, r);
			json_object_set_new(row, "sample_index", json_integer((json_int_t)k));
			json_object_set_new(row, "value", json_real(x[k]));
			json_object_set_new(row, "unit", json_string("us"));
			json_array_append_new(rows, row);
		}
		free(x);
	}
	if (rc == 0) {
		/* the header even when there is no sample, so readers get the columns */
		json_t *proto = sample_row(p, NULL);
		put_int(proto, "sample_index", 0, 0);
		put_str(proto, "value", NULL);
		put_str(proto, "unit", NULL);
		json_t *cols = cols_of(proto);
		json_decref(proto);
		struct strbuf csv = STRBUF_INIT, jl = STRBUF_INIT;
		write_rows(cols, rows, &csv, &jl);
		rc = write_out(dir, "samples.csv", &csv) < 0 || write_out(dir, "samples.jsonl", &jl) < 0 ? -1 : 0;
		strbuf_release(&csv);
		strbuf_release(&jl);
		json_decref(cols);
	}
	json_decref(rows);
	return rc;
}

/* ---------- summaries ---------- */

/* One row of a batch (b and r NULL: the header's prototype). */
static json_t *summary_row(struct query *q, const struct pcols *p, const struct batch_record *b,
			   const struct batch_row *r)
{
	const struct run_record *run = r ? query_row_run(q, r) : NULL;
	const struct stats_comparison *c = r && r->have_cmp ? &r->cmp : NULL;
	json_t *row = json_object();
	put_str(row, "experiment", b ? b->experiment : NULL);
	put_str(row, "batch_run_id", b ? b->run_id : NULL);
	put_str(row, "batch_id", b ? b->batch_id : NULL);
	put_str(row, "variant", r ? r->variant : NULL);
	put_str(row, "run_id", r ? r->run_id : NULL);
	put_int(row, "repeats", r ? (long long)r->n_runs : 0, r != NULL);
	put_int(row, "repeats_ok", r ? (long long)r->n_ok_runs : 0, r != NULL);
	json_object_set_new(row, "is_baseline",
			    b ? json_boolean(b->baseline && r->variant && !strcmp(b->baseline, r->variant)) : json_null());
	put_str(row, "outcome", r ? r->outcome_text : NULL);
	put_str(row, "reason", r ? r->reason : NULL);
	put_kernel(row, r ? r->kernel : NULL, run);
	put_params(row, p, r ? r->params : NULL, r ? r->n_params : 0);
	put_str(row, "clock", r ? r->clock ? r->clock : run ? run->clock : NULL : NULL);
	put_judge(row, run, r ? query_row_weak_judge_why(q, r) : NULL);
	put_stat(row, q, b, r, "n", "n", NULL, NULL);
	put_stat(row, q, b, r, "median_us", "median_us", "median_ci_lo", "median_ci_hi");
	put_stat(row, q, b, r, "mean_us", "mean_us", NULL, NULL);
	put_stat(row, q, b, r, "min_us", "min_us", NULL, NULL);
	put_stat(row, q, b, r, "max_us", "max_us", NULL, NULL);
	put_stat(row, q, b, r, "p5_us", "p5_us", NULL, NULL);
	put_stat(row, q, b, r, "p95_us", "p95_us", NULL, NULL);
	put_stat(row, q, b, r, "stdev_us", "stdev_us", NULL, NULL);
	/* throughput and the fraction of peak (record_throughput through record_stat), and the peak */
	put_stat(row, q, b, r, "gflops", "gflops", NULL, NULL);
	put_stat(row, q, b, r, "gbps", "gbps", NULL, NULL);
	put_stat(row, q, b, r, "frac_compute_peak", "frac_compute_peak", NULL, NULL);
	put_stat(row, q, b, r, "frac_bandwidth_peak", "frac_bandwidth_peak", NULL, NULL);
	struct rec_peak pk = { .state = PEAK_UNSET };
	if (b)
		record_batch_peak(b, &pk);
	int known = pk.state == PEAK_KNOWN;
	put_num(row, "peak_gflops", known ? pk.gflops : NAN);
	put_num(row, "peak_gbps", known ? pk.gbps : NAN);
	char *of = !known ? NULL : pk.scope && !strcmp(pk.scope, "one core") ? xstrfmt("one core of CPU %s", pk.device)
					: xstrfmt("%s %s", pk.scope ? pk.scope : "", pk.device ? pk.device : "?");
	put_str(row, "peak_of", of);
	free(of);
	char *src = !known ? NULL : xstrfmt("%s%s", pk.source ? pk.source : "",
					     pk.at_read ? "; looked up when read: the record predates recorded peaks" : "");
	put_str(row, "peak_source", src);
	free(src);
	put_str(row, "no_peak", b && !known ? pk.why ? pk.why : "not recorded" : NULL);
	put_stat(row, q, b, r, "speedup", "speedup", "speedup_ci_lo", "speedup_ci_hi");
	put_stat(row, q, b, r, "p", "p", NULL, NULL);
	put_stat(row, q, b, r, "p_raw", "p_raw", NULL, NULL);
	put_stat(row, q, b, r, "delta", "cliffs_delta", "cliffs_delta_ci_lo", "cliffs_delta_ci_hi");
	put_str(row, "magnitude", c ? c->magnitude : NULL);
	put_str(row, "verdict", c ? c->verdict : NULL);
	put_str(row, "verdict_reason", c ? c->verdict_reason : NULL);
	put_stat(row, q, b, r, "mde", "mde", NULL, NULL);
	char *dev = run ? run_device_label(run) : NULL;
	put_str(row, "device", dev);
	free(dev);
	put_str(row, "commit", b ? b->git.commit : NULL);
	json_object_set_new(row, "dirty", b ? json_boolean(b->git.dirty) : json_null());
	put_str(row, "started_utc", run ? run->started_utc : NULL);
	put_stat(row, q, b, r, "gpu_s", "gpu_s", NULL, NULL);
	put_stat(row, q, b, r, "usd", "usd", NULL, NULL);
	return row;
}

static int export_summaries(struct query *q, const struct pcols *p, const char *dir)
{
	json_t *rows = json_array();
	for (size_t i = 0; i < q->n; i++) {
		const struct batch_record *b = q->e[i].a.is_batch ? query_batch_at(q, i) : NULL;
		for (size_t k = 0; b && k < b->n_rows; k++)
			json_array_append_new(rows, summary_row(q, p, b, &b->rows[k]));
	}
	json_t *proto = summary_row(q, p, NULL, NULL);
	json_t *cols = cols_of(proto);
	json_decref(proto);
	struct strbuf csv = STRBUF_INIT, jl = STRBUF_INIT;
	write_rows(cols, rows, &csv, &jl);
	int rc = write_out(dir, "summaries.csv", &csv) < 0 || write_out(dir, "summaries.jsonl", &jl) < 0 ? -1 : 0;
	strbuf_release(&csv);
	strbuf_release(&jl);
	json_decref(cols);
	json_decref(rows);
	return rc;
}

/* ---------- Google Benchmark JSON ---------- */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static json_t *gbench_entry(const char *name, const char *run_name, const char *run_type, size_t family,
			    size_t reps, size_t idx, double t)
{
	json_t *e = json_pack("{s:s, s:I, s:i, s:s, s:s, s:I, s:I, s:i, s:i, s:f, s:f, s:s}", "name", name,
			      "family_index", (json_int_t)family, "per_family_instance_index", 0, "run_name",
			      run_name, "run_type", run_type, "repetitions", (json_int_t)reps,
			      "repetition_index", (json_int_t)idx, "threads", 1, "iterations", 1, "real_time",
			      t, "cpu_time", t, "time_unit", "us");
	return e;
}

static int export_gbench(struct query *q, const char *dir)
{
	size_t ne, family = 0;
	const char **exps = query_experiments(q, &ne);
	json_t *benches = json_array();
	const struct run_record *ctx_run = NULL;
	int rc = 0;
	for (size_t ei = 0; ei < ne && rc == 0; ei++) {
		struct strbuf why = STRBUF_INIT;
		const struct batch_record *b = query_batch(q, exps[ei], "latest", NULL, &why);
		strbuf_release(&why);
		for (size_t k = 0; b && k < b->n_rows; k++) {
			const struct batch_row *r = &b->rows[k];
			double *x = NULL;
			size_t n = 0;
			if (query_row_samples(q, r, &x, &n) < 0) {
				rc = -1;
				break;
			}
			if (!n) {
				free(x);
				continue;
			}
			if (!ctx_run)
				ctx_run = query_row_run(q, r);
			char *name = xstrfmt("%s/%s", exps[ei], r->variant);
			for (size_t i = 0; i < n; i++)
				json_array_append_new(benches, gbench_entry(name, name, "iteration", family, n, i, x[i]));
			double mean = 0, var = 0;
			for (size_t i = 0; i < n; i++)
				mean += x[i] / (double)n;
			for (size_t i = 0; i < n; i++)
				var += (x[i] - mean) * (x[i] - mean) / (double)(n > 1 ? n - 1 : 1);
			qsort(x, n, sizeof(double), cmp_dbl);
			double med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
			const char *aggs[] = { "mean", "median", "stddev" };
			double vals[] = { mean, med, sqrt(var) };
			for (int a = 0; a < 3; a++) {
				char *an = xstrfmt("%s_%s", name, aggs[a]);
				json_t *e = gbench_entry(an, name, "aggregate", family, n, 0, vals[a]);
				json_object_del(e, "repetition_index");
				json_object_set_new(e, "aggregate_name", json_string(aggs[a]));
				json_object_set_new(e, "aggregate_unit", json_string("time"));
				json_object_set_new(e, "evident_run_id", json_string(r->run_id ? r->run_id : ""));
				json_array_append_new(benches, e);
				free(an);
			}
			free(name);
			free(x);
			family++;
		}
	}
	/* the machine document is provenance.c's */
	json_t *cpus = ctx_run ? json_object_get(ctx_run->machine, "cpus_online") : NULL;
	json_t *ctx = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b, s:[], s:[], s:s, s:s}", "date",
				ctx_run && ctx_run->started_utc ? ctx_run->started_utc : "", "host_name",
				ctx_run && ctx_run->host ? ctx_run->host : "", "executable", "evident", "num_cpus",
				(int)json_integer_value(cpus), "mhz_per_cpu", 0.0, "cpu_scaling_enabled", 0, "caches",
				"load_avg", "library_build_type", "release", "evident_note",
				"the latest batch of each experiment; one iteration entry per timing sample (every repeat)");
	json_t *doc = json_pack("{s:o, s:o}", "context", ctx, "benchmarks", benches);
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, s);
	strbuf_addch(&sb, '\n');
	if (rc == 0)
		rc = write_out(dir, "benchmark.json", &sb);
	strbuf_release(&sb);
	free(s);
	json_decref(doc);
	free(exps);
	return rc;
}

static json_t *cell(const char *type, const char *src)
{
	json_t *lines = json_array();
	for (const char *p = src; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		json_array_append_new(lines, json_stringn(p, n));
		p += n;
	}
	if (!strcmp(type, "code"))
		return json_pack("{s:s, s:n, s:{}, s:[], s:o}", "cell_type", "code", "execution_count", "metadata",
				 "outputs", "source", lines);
	return json_pack("{s:s, s:{}, s:o}", "cell_type", "markdown", "metadata", "source", lines);
}

static int export_notebook(const char *dir)
{
	json_t *cells = json_array();
	json_array_append_new(cells, cell("markdown",
		"# evident runs\n"
		"\n"
		"Generated by `evident export` from the run store; regenerate with `make export`.\n"
		"`samples.csv` holds every timing sample (one row each), `summaries.csv` one row per\n"
		"variant of every batch (summary, comparison with the baseline, `p` Holm-adjusted, verdict).\n"));
	json_array_append_new(cells, cell("code",
		"import numpy as np\n"
		"import pandas as pd\n"
		"import matplotlib.pyplot as plt\n"
		"\n"
		"samples = pd.read_csv(\"samples.csv\")\n"
		"summaries = pd.read_csv(\"summaries.csv\")\n"
		"print(f\"{len(samples)} samples, {len(summaries)} variant rows, \"\n"
		"      f\"{summaries['experiment'].nunique()} experiment(s)\")\n"
		"summaries[[\"experiment\", \"variant\", \"outcome\", \"median_us\", \"speedup\", \"p\", \"verdict\"]]\n"));
	json_array_append_new(cells, cell("markdown",
		"## Latest batch of each experiment\n"
		"\n"
		"Every figure reads one batch, so it never mixes runs of different commits or devices.\n"));
	json_array_append_new(cells, cell("code",
		"latest = (summaries.sort_values(\"batch_run_id\")\n"
		"          .groupby(\"experiment\")[\"batch_id\"].last())\n"
		"latest\n"));
	json_array_append_new(cells, cell("code",
		"for exp, bid in latest.items():\n"
		"    s = samples[samples[\"batch_id\"] == bid]\n"
		"    if s.empty:\n"
		"        continue\n"
		"    fig, ax = plt.subplots(figsize=(8, 4))\n"
		"    for variant, g in s.groupby(\"variant\", sort=False):\n"
		"        x = np.sort(g[\"value\"].to_numpy())\n"
		"        ax.step(x, np.arange(1, len(x) + 1) / len(x), where=\"post\",\n"
		"                label=f\"{variant} (median {np.median(x):.2f})\")\n"
		"    ax.set_xlabel(\"time per launch (us)\")\n"
		"    ax.set_ylabel(\"fraction of samples <= x\")\n"
		"    ax.set_title(f\"{exp}: ECDF of timing samples\")\n"
		"    ax.legend(fontsize=8)\n"
		"    plt.show()\n"));
	json_array_append_new(cells, cell("code",
		"for exp, bid in latest.items():\n"
		"    r = summaries[(summaries[\"batch_id\"] == bid) & summaries[\"speedup\"].notna()]\n"
		"    if r.empty:\n"
		"        continue\n"
		"    fig, ax = plt.subplots(figsize=(8, 1 + 0.4 * len(r)))\n"
		"    y = np.arange(len(r))\n"
		"    err = [r[\"speedup\"] - r[\"speedup_ci_lo\"], r[\"speedup_ci_hi\"] - r[\"speedup\"]]\n"
		"    ax.errorbar(r[\"speedup\"], y, xerr=err, fmt=\"s\", capsize=4)\n"
		"    ax.axvline(1.0, ls=\"--\", c=\"k\")\n"
		"    ax.set_yticks(y)\n"
		"    ax.set_yticklabels(r[\"variant\"])\n"
		"    ax.set_xlabel(\"speedup over the baseline (95% CI)\")\n"
		"    ax.set_title(f\"{exp}: speedup\")\n"
		"    plt.show()\n"));
	json_array_append_new(cells, cell("code",
		"# every outcome that was not ok, across the store\n"
		"summaries[summaries[\"outcome\"] != \"ok\"][[\"experiment\", \"variant\", \"outcome\", \"reason\", \"run_id\"]]\n"));
	json_t *nb = json_pack("{s:o, s:{s:{s:s, s:s, s:s}, s:{s:s}}, s:i, s:i}", "cells", cells, "metadata",
			       "kernelspec", "display_name", "Python 3", "language", "python", "name", "python3",
			       "language_info", "name", "python", "nbformat", 4, "nbformat_minor", 4);
	char *s = json_dumps(nb, JSON_INDENT(1));
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, s);
	strbuf_addch(&sb, '\n');
	int rc = write_out(dir, "evident.ipynb", &sb);
	strbuf_release(&sb);
	free(s);
	json_decref(nb);
	return rc;
}

static int export_readme(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb,
		"# notebooks-export\n\n"
		"Derived from the run store by `evident export` (`make export`); do not edit, regenerate.\n\n"
		"- `samples.csv`, `samples.jsonl`: one row per timing sample: run_id, experiment, batch_id,\n"
		"  variant, repeat, outcome, kernel, kernel_sha256, one column per parameter, clock,\n"
		"  sample_index, value, unit (us).\n"
		"- `summaries.csv`, `summaries.jsonl`: one row per variant of every batch: its runs,\n"
		"  kernel and kernel_sha256, summary statistics (over every repeat), throughput of the\n"
		"  median (`gflops`, `gbps`) and its fraction of the machine's peak\n"
		"  (`frac_compute_peak`, `frac_bandwidth_peak`; one core on the host) with the peak\n"
		"  (`peak_gflops`, `peak_gbps`, `peak_of`, `peak_source`, or `no_peak` saying why none),\n"
		"  speedup over the baseline with its CI, `p` (Holm-adjusted over the batch, as in\n"
		"  PAPER.md) and `p_raw`, Cliff's delta, verdict and its reason, MDE, device, commit, cost.\n"
		"- `benchmark.json`: Google Benchmark JSON of the latest batch of each experiment (one\n"
		"  iteration per sample, plus mean/median/stddev aggregates), for compare.py and CI\n"
		"  benchmark dashboards.\n"
		"- `evident.ipynb`: loads the CSVs with pandas and draws the figures.\n");
	int rc = write_out(dir, "README.md", &sb);
	strbuf_release(&sb);
	return rc;
}

int export_all(struct query *q, const char *dir)
{
	if (mkdir_p(dir, 0755) < 0)
		return -1;
	struct pcols p;
	pcols_build(q, &p);
	int rc = 0;
	if (export_samples(q, &p, dir) < 0 || export_summaries(q, &p, dir) < 0 || export_gbench(q, dir) < 0 ||
	    export_notebook(dir) < 0 || export_readme(dir) < 0)
		rc = -1;
	pcols_release(&p);
	return rc;
}
