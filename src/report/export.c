/*
 * export.c - tidy CSV, JSON Lines, Google Benchmark JSON and a notebook
 * from the store (contract in export.h).
 *
 * Rows are built once as JSON objects (keys in column order) and written
 * both ways, so the CSV and the JSON Lines can never disagree.  Parameter
 * columns are the union of every parameter name in the store, sorted;
 * a run without that parameter has an empty cell (null in JSON).
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

static json_t *param_names(struct qj *q)
{
	json_t *set = json_object();
	for (size_t i = 0; i < q->n; i++) {
		const char *k;
		json_t *v;
		json_object_foreach(qj_get(q->m[i], "params"), k, v) json_object_set_new(set, k, json_true());
	}
	json_t *names = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(set, k, v) json_array_append_new(names, json_string(k));
	/* sort */
	size_t n = json_array_size(names);
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && strcmp(json_string_value(json_array_get(names, b - 1)),
						   json_string_value(json_array_get(names, b))) > 0; b--) {
			json_t *x = json_incref(json_array_get(names, b));
			json_array_set(names, b, json_array_get(names, b - 1));
			json_array_set_new(names, b - 1, x);
		}
	json_decref(set);
	return names;
}

static void set_params(json_t *row, json_t *names, json_t *params)
{
	size_t i;
	json_t *n;
	json_array_foreach(names, i, n)
	{
		json_t *v = json_object_get(params, json_string_value(n));
		json_object_set_new(row, json_string_value(n), v ? json_incref(v) : json_null());
	}
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cols_of(json_t *row)
{
	json_t *cols = json_array();
	const char *k;
	json_t *v;
	json_object_foreach(row, k, v) json_array_append_new(cols, json_string(k));
	return cols;
}

static int export_samples(struct qj *q, json_t *pnames, const char *dir)
{
	json_t *rows = json_array(), *cols = NULL;
	int rc = 0;
	for (size_t i = 0; i < q->n && rc == 0; i++) {
		json_t *m = q->m[i];
		const char *kind = qj_str(m, "kind");
		if (!kind || strcmp(kind, "variant"))
			continue;
		double *x;
		size_t n;
		if (qj_samples(q, m, &x, &n) < 0) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < n; k++) {
			json_t *row = json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?}", "run_id", qj_get(m, "run_id"),
						"experiment", qj_get(m, "experiment"), "batch_id",
						qj_get(m, "batch_id"), "variant", qj_get(m, "variant"),
						"outcome", qj_get(m, "outcome"));
			set_params(row, pnames, qj_get(m, "params"));
			json_object_set_new(row, "sample_index", json_integer((json_int_t)k));
			json_object_set_new(row, "value", json_real(x[k]));
			json_object_set_new(row, "unit", json_string("us"));
			json_array_append_new(rows, row);
		}
		free(x);
	}
	if (rc == 0) {
		/* the header even when there is no sample, so readers get the columns */
		json_t *proto = json_pack("{s:n, s:n, s:n, s:n, s:n}", "run_id", "experiment", "batch_id",
					  "variant", "outcome");
		set_params(proto, pnames, NULL);
		json_object_set_new(proto, "sample_index", json_null());
		json_object_set_new(proto, "value", json_null());
		json_object_set_new(proto, "unit", json_null());
		cols = cols_of(proto);
		json_decref(proto);
		struct strbuf csv = STRBUF_INIT, jl = STRBUF_INIT;
		write_rows(cols, rows, &csv, &jl);
		rc = write_out(dir, "samples.csv", &csv) < 0 || write_out(dir, "samples.jsonl", &jl) < 0 ? -1 : 0;
		strbuf_release(&csv);
		strbuf_release(&jl);
	}
	json_decref(cols);
	json_decref(rows);
	return rc;
}

static json_t *summary_row(struct qj *q, json_t *pnames, json_t *batch, json_t *r)
{
	json_t *run = qj_row_run(q, r);
	char *dev = run ? qj_device_name(run) : NULL;
	const char *base = qj_str(batch, "baseline");
	const char *v = qj_str(r, "variant");
	json_t *row = json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:b, s:O?, s:O?}", "experiment",
				qj_get(batch, "experiment"), "batch_run_id", qj_get(batch, "run_id"),
				"batch_id", qj_get(batch, "batch_id"), "variant", qj_get(r, "variant"),
				"run_id", qj_get(r, "run_id"), "is_baseline", base && v && !strcmp(base, v),
				"outcome", qj_get(r, "outcome"), "reason", qj_get(r, "reason"));
	set_params(row, pnames, qj_get(r, "params"));
	const struct {
		const char *col, *path;
	} nums[] = {
		{ "n", "stats.n" },
		{ "median_us", "stats.median" },
		{ "median_ci_lo", "stats.median_ci.0" },
		{ "median_ci_hi", "stats.median_ci.1" },
		{ "mean_us", "stats.mean" },
		{ "min_us", "stats.min" },
		{ "max_us", "stats.max" },
		{ "p5_us", "stats.p5" },
		{ "p95_us", "stats.p95" },
		{ "stdev_us", "stats.stdev" },
		{ "speedup", "comparison.speedup.ratio" },
		{ "speedup_ci_lo", "comparison.speedup.ci.0" },
		{ "speedup_ci_hi", "comparison.speedup.ci.1" },
		{ "p", "comparison.mann_whitney.p" },
		{ "p_adjusted", "comparison.mann_whitney.p_adjusted" },
		{ "cliffs_delta", "comparison.cliffs_delta.delta" },
		{ "cliffs_delta_ci_lo", "comparison.cliffs_delta.ci.0" },
		{ "cliffs_delta_ci_hi", "comparison.cliffs_delta.ci.1" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		json_object_set_new(row, nums[i].col, num_or_null(qj_num(r, nums[i].path)));
	json_t *mag = qj_get(r, "comparison.cliffs_delta.magnitude");
	json_t *verdict = qj_get(r, "comparison.verdict");
	json_object_set_new(row, "magnitude", mag ? json_incref(mag) : json_null());
	json_object_set_new(row, "verdict", verdict ? json_incref(verdict) : json_null());
	json_object_set_new(row, "device", dev ? json_string(dev) : json_null());
	json_t *commit = qj_get(batch, "code.git.commit"), *dirty = qj_get(batch, "code.git.dirty");
	json_object_set_new(row, "commit", commit ? json_incref(commit) : json_null());
	json_object_set_new(row, "dirty", dirty ? json_incref(dirty) : json_null());
	json_t *st = qj_get(run, "started_utc");
	json_object_set_new(row, "started_utc", st ? json_incref(st) : json_null());
	json_object_set_new(row, "gpu_s", num_or_null(qj_num(run, "cost.gpu_s")));
	json_object_set_new(row, "usd", num_or_null(qj_num(run, "cost.usd")));
	free(dev);
	return row;
}

static int export_summaries(struct qj *q, json_t *pnames, const char *dir)
{
	json_t *rows = json_array();
	for (size_t i = 0; i < q->n; i++) {
		json_t *b = q->m[i];
		const char *kind = qj_str(b, "kind");
		if (!kind || strcmp(kind, "batch"))
			continue;
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(b, "variants"), k, r)
			json_array_append_new(rows, summary_row(q, pnames, b, r));
	}
	json_t *proto = summary_row(q, pnames, NULL, NULL);
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

static int export_gbench(struct qj *q, const char *dir)
{
	json_t *exps = qj_experiments(q), *benches = json_array();
	json_t *ctx_run = NULL;
	size_t ei, family = 0;
	json_t *ej;
	int rc = 0;
	json_array_foreach(exps, ei, ej)
	{
		struct strbuf why = STRBUF_INIT;
		json_t *b = qj_batch(q, json_string_value(ej), "latest", NULL, &why);
		strbuf_release(&why);
		if (!b)
			continue;
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(b, "variants"), k, r)
		{
			json_t *run = qj_row_run(q, r);
			double *x = NULL;
			size_t n = 0;
			if (!run || qj_samples(q, run, &x, &n) < 0) {
				rc = run ? -1 : 0;
				free(x);
				continue;
			}
			if (!n)
				continue;
			if (!ctx_run)
				ctx_run = run;
			char *name = xstrfmt("%s/%s", json_string_value(ej), qj_str(r, "variant"));
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
				json_object_set_new(e, "evident_run_id", json_string(qj_str(r, "run_id")));
				json_array_append_new(benches, e);
				free(an);
			}
			free(name);
			free(x);
			family++;
		}
	}
	json_t *ctx = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b, s:[], s:[], s:s, s:s}", "date",
				ctx_run && qj_str(ctx_run, "started_utc") ? qj_str(ctx_run, "started_utc") : "",
				"host_name", ctx_run && qj_str(ctx_run, "machine.host") ? qj_str(ctx_run, "machine.host") : "",
				"executable", "evident", "num_cpus",
				(int)json_integer_value(qj_get(ctx_run, "machine.cpus_online")), "mhz_per_cpu", 0.0,
				"cpu_scaling_enabled", 0, "caches", "load_avg", "library_build_type", "release",
				"evident_note", "the latest batch of each experiment; one iteration entry per timing sample");
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
	json_decref(exps);
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
		"variant of every batch (summary, comparison with the baseline, Holm-adjusted p, verdict).\n"));
	json_array_append_new(cells, cell("code",
		"import numpy as np\n"
		"import pandas as pd\n"
		"import matplotlib.pyplot as plt\n"
		"\n"
		"samples = pd.read_csv(\"samples.csv\")\n"
		"summaries = pd.read_csv(\"summaries.csv\")\n"
		"print(f\"{len(samples)} samples, {len(summaries)} variant rows, \"\n"
		"      f\"{summaries['experiment'].nunique()} experiment(s)\")\n"
		"summaries[[\"experiment\", \"variant\", \"outcome\", \"median_us\", \"speedup\", \"p_adjusted\", \"verdict\"]]\n"));
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
		"  variant, outcome, one column per parameter, sample_index, value, unit (us).\n"
		"- `summaries.csv`, `summaries.jsonl`: one row per variant of every batch: summary\n"
		"  statistics, speedup over the baseline with its CI, Mann-Whitney p and Holm-adjusted p,\n"
		"  Cliff's delta, verdict, device, commit, cost.\n"
		"- `benchmark.json`: Google Benchmark JSON of the latest batch of each experiment (one\n"
		"  iteration per sample, plus mean/median/stddev aggregates), for compare.py and CI\n"
		"  benchmark dashboards.\n"
		"- `evident.ipynb`: loads the CSVs with pandas and draws the figures.\n");
	int rc = write_out(dir, "README.md", &sb);
	strbuf_release(&sb);
	return rc;
}

int export_all(struct qj *q, const char *dir)
{
	if (mkdir_p(dir, 0755) < 0)
		return -1;
	json_t *pnames = param_names(q);
	int rc = 0;
	if (export_samples(q, pnames, dir) < 0 || export_summaries(q, pnames, dir) < 0 ||
	    export_gbench(q, dir) < 0 || export_notebook(dir) < 0 || export_readme(dir) < 0)
		rc = -1;
	json_decref(pnames);
	return rc;
}
